// SPDX-License-Identifier: GPL-2.0
/*
 * Host authentication for userspace. See spare_auth.h and
 * Documentation/protocol.md ("Host authentication").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <zlib.h>

#include "spare_auth.h"

#define KEY_BLOB_LEN	(SPARE_AUTH_KEY_LEN + 4)	/* secret + CRC-32 */
#define KEY_B64_LEN	48

int spare_auth_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

void spare_auth_nonce(uint8_t nonce[SPARE_AUTH_NONCE_LEN])
{
	randombytes_buf(nonce, SPARE_AUTH_NONCE_LEN);
}

void spare_key_generate(uint8_t key[SPARE_AUTH_KEY_LEN])
{
	randombytes_buf(key, SPARE_AUTH_KEY_LEN);
}

static uint32_t key_crc(const uint8_t key[SPARE_AUTH_KEY_LEN])
{
	return (uint32_t)crc32(0L, key, SPARE_AUTH_KEY_LEN);
}

void spare_key_format(const uint8_t key[SPARE_AUTH_KEY_LEN], char *out,
		      size_t len)
{
	uint8_t blob[KEY_BLOB_LEN];
	char b64[KEY_B64_LEN + 1];
	uint32_t crc = key_crc(key);

	memcpy(blob, key, SPARE_AUTH_KEY_LEN);
	blob[32] = (uint8_t)crc;
	blob[33] = (uint8_t)(crc >> 8);
	blob[34] = (uint8_t)(crc >> 16);
	blob[35] = (uint8_t)(crc >> 24);
	sodium_bin2base64(b64, sizeof(b64), blob, sizeof(blob),
			  sodium_base64_VARIANT_ORIGINAL);
	snprintf(out, len, "%s%s", SPARE_KEY_PREFIX, b64);
	sodium_memzero(blob, sizeof(blob));
	sodium_memzero(b64, sizeof(b64));
}

const char *spare_key_parse(const char *s, uint8_t key[SPARE_AUTH_KEY_LEN])
{
	const size_t plen = sizeof(SPARE_KEY_PREFIX) - 1;
	uint8_t blob[KEY_BLOB_LEN];
	const char *end;
	size_t len, bin_len = 0;
	uint32_t crc;
	const char *why = NULL;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	end = s + len;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	len = (size_t)(end - s);
	if (len < plen || memcmp(s, SPARE_KEY_PREFIX, plen))
		return "does not start with " SPARE_KEY_PREFIX;
	if (len != plen + KEY_B64_LEN)
		return "wrong length (want " SPARE_KEY_PREFIX " and 48 base64 characters)";
	if (sodium_base642bin(blob, sizeof(blob), s + plen, KEY_B64_LEN, NULL,
			      &bin_len, NULL, sodium_base64_VARIANT_ORIGINAL) ||
	    bin_len != sizeof(blob))
		return "not base64";
	crc = (uint32_t)blob[32] | (uint32_t)blob[33] << 8 |
	      (uint32_t)blob[34] << 16 | (uint32_t)blob[35] << 24;
	if (crc != key_crc(blob))
		why = "bad checksum (mistyped or truncated secret?)";
	else
		memcpy(key, blob, SPARE_AUTH_KEY_LEN);
	sodium_memzero(blob, sizeof(blob));
	return why;
}

void spare_host_keys_free(struct spare_host_keys *hk)
{
	if (hk->v)
		sodium_memzero(hk->v, hk->n * sizeof(*hk->v));
	free(hk->v);
	hk->v = NULL;
	hk->n = 0;
}

static int parse_line(char *line, unsigned int lineno,
		      struct spare_host_keys *hk, char *why, size_t whylen)
{
	struct spare_host_key *e, *nv;
	char *name, *secret, *save = NULL;
	const char *err;
	unsigned int i;

	name = strtok_r(line, " \t\r\n", &save);
	if (!name || name[0] == '#')
		return 0;
	secret = strtok_r(NULL, " \t\r\n", &save);
	if (!secret) {
		snprintf(why, whylen, "line %u: want \"<name> <secret>\"", lineno);
		return -1;
	}
	if (strtok_r(NULL, " \t\r\n", &save)) {
		snprintf(why, whylen, "line %u: text after the secret", lineno);
		return -1;
	}
	if (strlen(name) >= sizeof(e->name)) {
		snprintf(why, whylen, "line %u: name longer than %zu bytes",
			 lineno, sizeof(e->name) - 1);
		return -1;
	}
	nv = realloc(hk->v, (hk->n + 1) * sizeof(*hk->v));
	if (!nv) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	hk->v = nv;
	e = &hk->v[hk->n];
	memset(e, 0, sizeof(*e));
	err = spare_key_parse(secret, e->key);
	sodium_memzero(secret, strlen(secret));
	if (err) {
		snprintf(why, whylen, "line %u (%s): secret %s", lineno, name, err);
		return -1;
	}
	strcpy(e->name, name);
	for (i = 0; i < hk->n; i++) {
		if (!strcmp(hk->v[i].name, e->name)) {
			snprintf(why, whylen, "line %u: name %s given twice",
				 lineno, name);
			return -1;
		}
		if (!sodium_memcmp(hk->v[i].key, e->key, sizeof(e->key))) {
			snprintf(why, whylen, "line %u: %s has the same secret as %s",
				 lineno, name, hk->v[i].name);
			return -1;
		}
	}
	hk->n++;
	return 0;
}

int spare_host_keys_parse(const char *text, struct spare_host_keys *hk,
			  char *why, size_t whylen)
{
	char *copy = strdup(text), *line, *next;
	unsigned int lineno = 0;
	int ret = 0;

	hk->v = NULL;
	hk->n = 0;
	if (!copy) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = parse_line(line, ++lineno, hk, why, whylen);
	}
	sodium_memzero(copy, strlen(text));
	free(copy);
	if (!ret && !hk->n) {
		snprintf(why, whylen, "no keys");
		ret = -1;
	}
	if (ret)
		spare_host_keys_free(hk);
	return ret;
}

/* Big enough for a broker's file of some 60,000 peers. */
#define HOST_KEYS_MAX	(4u << 20)

int spare_host_keys_load(const char *path, struct spare_host_keys *hk,
			 char *why, size_t whylen)
{
	char *buf;
	size_t n;
	FILE *f;
	int ret;

	hk->v = NULL;
	hk->n = 0;
	f = fopen(path, "re");
	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	buf = malloc(HOST_KEYS_MAX);
	if (!buf) {
		snprintf(why, whylen, "out of memory");
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, HOST_KEYS_MAX, f);
	if (ferror(f) || n == HOST_KEYS_MAX) {
		snprintf(why, whylen, ferror(f) ? "read error" :
			 "larger than %u bytes", HOST_KEYS_MAX - 1);
		fclose(f);
		sodium_memzero(buf, n);
		free(buf);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(why, whylen, "not a text file");
		ret = -1;
	} else {
		ret = spare_host_keys_parse(buf, hk, why, whylen);
	}
	sodium_memzero(buf, n);
	free(buf);
	return ret;
}

void spare_auth_mac(uint8_t mac[SPARE_AUTH_MAC_LEN],
		    const uint8_t key[SPARE_AUTH_KEY_LEN], unsigned int dir,
		    const uint8_t client_uuid[16],
		    const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		    const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		    const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN])
{
	uint8_t t[SPARE_AUTH_TRANSCRIPT_LEN];
	crypto_auth_hmacsha256_state st;

	_Static_assert(crypto_auth_hmacsha256_BYTES == SPARE_AUTH_MAC_LEN,
		       "HMAC-SHA-256 size");
	spare_auth_transcript(t, dir, client_uuid, donor_id, client_nonce,
			      donor_nonce);
	crypto_auth_hmacsha256_init(&st, key, SPARE_AUTH_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, t, sizeof(t));
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

bool spare_auth_mac_ok(const uint8_t mac[SPARE_AUTH_MAC_LEN],
		       const uint8_t key[SPARE_AUTH_KEY_LEN], unsigned int dir,
		       const uint8_t client_uuid[16],
		       const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		       const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		       const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN])
{
	uint8_t want[SPARE_AUTH_MAC_LEN];
	bool ok;

	spare_auth_mac(want, key, dir, client_uuid, donor_id, client_nonce,
		       donor_nonce);
	ok = sodium_memcmp(want, mac, sizeof(want)) == 0;
	sodium_memzero(want, sizeof(want));
	return ok;
}

const struct spare_host_key *
spare_host_keys_match(const struct spare_host_keys *hk,
		      const uint8_t mac[SPARE_AUTH_MAC_LEN],
		      const uint8_t client_uuid[16],
		      const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		      const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		      const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN])
{
	unsigned int i;

	for (i = 0; i < hk->n; i++)
		if (spare_auth_mac_ok(mac, hk->v[i].key, SPARE_AUTH_DIR_CLIENT,
				      client_uuid, donor_id, client_nonce,
				      donor_nonce))
			return &hk->v[i];
	return NULL;
}
