// SPDX-License-Identifier: GPL-2.0
/*
 * Host authentication for userspace. See spare_auth.h and
 * Documentation/protocol.md ("Host authentication").
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>
#include <zlib.h>

#include "spare_auth.h"
#include "spare_keyfile.h"
#include "spare_log.h"

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
	unsigned int i;

	for (i = 0; hk->v && i < hk->n; i++)
		free(hk->v[i].addrs);
	if (hk->v)
		sodium_memzero(hk->v, hk->n * sizeof(*hk->v));
	free(hk->v);
	hk->v = NULL;
	hk->n = 0;
}

const char *spare_role_name(unsigned int roles)
{
	switch (roles) {
	case SPARE_ROLE_CLIENT:
		return "client";
	case SPARE_ROLE_DONOR:
		return "donor";
	case SPARE_ROLE_ADMIN:
		return "admin";
	default:
		return "both";
	}
}

/* An IP address in @ip (IPv4-mapped IPv6 as IPv4); its family, or 0. */
static int ip_parse(const char *s, uint8_t ip[16])
{
	memset(ip, 0, 16);
	if (inet_pton(AF_INET, s, ip) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, ip) != 1)
		return 0;
	if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)ip)) {
		memmove(ip, ip + 12, 4);
		memset(ip + 4, 0, 12);
		return AF_INET;
	}
	return AF_INET6;
}

/* A DNS name's characters (RFC 1123), and not all digits and dots. */
static bool host_name_ok(const char *s)
{
	bool alpha = false;

	if (!*s || strlen(s) >= sizeof(((struct spare_host_addr *)0)->host) ||
	    *s == '-' || *s == '.')
		return false;
	for (; *s; s++) {
		if (isalpha((unsigned char)*s))
			alpha = true;
		else if (!isdigit((unsigned char)*s) && *s != '-' && *s != '.')
			return false;
	}
	return alpha;
}

/* A word of a bad line, for its reason: never a secret put in the wrong place. */
static const char *shown(const char *word)
{
	return strstr(word, SPARE_KEY_PREFIX) ? "(a secret)" : word;
}

/* One addr= entry: ADDR, ADDR/BITS or HOST. NULL, or why not. */
static const char *addr_entry_parse(const char *s, struct spare_host_addr *a)
{
	char ip[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(s, '/');
	size_t len = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long bits;
	char *end;

	memset(a, 0, sizeof(*a));
	if (len < sizeof(ip)) {
		memcpy(ip, s, len);
		ip[len] = '\0';
		a->family = ip_parse(ip, a->ip);
	}
	if (!a->family) {
		if (slash || !host_name_ok(s))
			return "is not an IP address, a prefix (ADDR/BITS) or a host name";
		snprintf(a->host, sizeof(a->host), "%s", s);
		return NULL;
	}
	a->bits = a->family == AF_INET ? 32 : 128;
	if (!slash)
		return NULL;
	errno = 0;
	bits = strtoul(slash + 1, &end, 10);
	if (!isdigit((unsigned char)slash[1]) || *end || errno || bits > a->bits)
		return "has a bad prefix length";
	a->bits = (uint8_t)bits;
	return NULL;
}

static int addr_list_parse(char *list, struct spare_host_key *e, unsigned int lineno,
			   char *why, size_t whylen)
{
	char *item, *save = NULL;
	const char *err;

	if (e->addrs) {
		snprintf(why, whylen, "line %u: addr= given twice", lineno);
		return -1;
	}
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		struct spare_host_addr *nv;

		if (e->naddrs == SPARE_HOST_ADDRS_MAX) {
			snprintf(why, whylen, "line %u: more than %u addresses in addr=",
				 lineno, SPARE_HOST_ADDRS_MAX);
			return -1;
		}
		nv = realloc(e->addrs, (e->naddrs + 1) * sizeof(*nv));
		if (!nv) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		e->addrs = nv;
		err = addr_entry_parse(item, &e->addrs[e->naddrs]);
		if (err) {
			snprintf(why, whylen, "line %u: addr= entry \"%.64s\" %s", lineno, shown(item),
				 err);
			return -1;
		}
		e->naddrs++;
	}
	if (!e->naddrs) {
		snprintf(why, whylen, "line %u: addr= is empty", lineno);
		return -1;
	}
	return 0;
}

/* The options after the secret: role=, addr=. */
static int options_parse(char *save, struct spare_host_key *e, unsigned int lineno,
			 bool *has_role, char *why, size_t whylen)
{
	char *opt;

	*has_role = false;
	while ((opt = strtok_r(NULL, " \t\r\n", &save))) {
		if (!strncmp(opt, "role=", 5)) {
			const char *r = opt + 5;

			if (*has_role) {
				snprintf(why, whylen, "line %u: role= given twice", lineno);
				return -1;
			}
			*has_role = true;
			if (!strcmp(r, "client")) {
				e->roles = SPARE_ROLE_CLIENT;
			} else if (!strcmp(r, "donor")) {
				e->roles = SPARE_ROLE_DONOR;
			} else if (!strcmp(r, "both")) {
				e->roles = SPARE_ROLE_BOTH;
			} else if (!strcmp(r, "admin")) {
				e->roles = SPARE_ROLE_ADMIN;
			} else {
				snprintf(why, whylen,
					 "line %u: role=%.32s: want donor, client, both or admin",
					 lineno, shown(r));
				return -1;
			}
		} else if (!strncmp(opt, "addr=", 5)) {
			if (addr_list_parse(opt + 5, e, lineno, why, whylen))
				return -1;
		} else {
			snprintf(why, whylen,
				 "line %u: unknown option \"%.32s\" (want role= or addr=)",
				 lineno, shown(opt));
			return -1;
		}
	}
	/* a client's addr= is checked against where it connects from, a number */
	for (unsigned int i = 0; i < e->naddrs && !(e->roles & SPARE_ROLE_DONOR); i++)
		if (!e->addrs[i].family) {
			snprintf(why, whylen,
				 "line %u: a client's addr= takes IP addresses and prefixes, not host names (it binds the address the client connects from)",
				 lineno);
			return -1;
		}
	return 0;
}

static int parse_line(char *line, unsigned int lineno,
		      struct spare_host_keys *hk, char *why, size_t whylen)
{
	struct spare_host_key *e, *nv;
	char *name, *secret, *save = NULL;
	const char *err;
	bool has_role;
	unsigned int i;

	name = strtok_r(line, " \t\r\n", &save);
	if (!name || name[0] == '#')
		return 0;
	secret = strtok_r(NULL, " \t\r\n", &save);
	if (!secret) {
		snprintf(why, whylen, "line %u: want \"<name> <secret> [role=R] [addr=A,...]\"",
			 lineno);
		return -1;
	}
	if (strstr(name, SPARE_KEY_PREFIX)) {
		snprintf(why, whylen, "line %u: a secret where the name goes (want \"<name> <secret>\")",
			 lineno);
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
	/* counted now, so that free() sees the addresses of a bad line */
	hk->n++;
	err = spare_key_parse(secret, e->key);
	sodium_memzero(secret, strlen(secret));
	if (err) {
		snprintf(why, whylen, "line %u (%s): secret %s", lineno, name, err);
		return -1;
	}
	strcpy(e->name, name);
	e->line = lineno;
	e->roles = SPARE_ROLE_BOTH;
	if (options_parse(save, e, lineno, &has_role, why, whylen))
		return -1;
	if (!has_role && !hk->old_lines++)
		hk->old_line = lineno;
	for (i = 0; i + 1 < hk->n; i++) {
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
	return 0;
}

int spare_host_keys_parse(const char *text, struct spare_host_keys *hk,
			  char *why, size_t whylen)
{
	char *copy = strdup(text), *line, *next;
	unsigned int lineno = 0;
	int ret = 0;

	memset(hk, 0, sizeof(*hk));
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
	char err[256];
	char *buf;
	long n;
	int ret;

	memset(hk, 0, sizeof(*hk));
	buf = malloc(HOST_KEYS_MAX);
	if (!buf) {
		snprintf(why, whylen, "%s: out of memory", path);
		return -1;
	}
	n = spare_key_file_read(path, buf, HOST_KEYS_MAX, why, whylen);
	if (n < 0) {
		free(buf);
		return -1;
	}
	if (memchr(buf, '\0', (size_t)n)) {
		snprintf(why, whylen, "%s: not a text file", path);
		ret = -1;
	} else {
		ret = spare_host_keys_parse(buf, hk, err, sizeof(err));
		if (ret)
			snprintf(why, whylen, "%s: %s", path, err);
	}
	sodium_memzero(buf, (size_t)n);
	free(buf);
	if (!ret && hk->old_lines)
		log_warn("%s: line %u%s has no role= and is read as role=both, which is deprecated: give each key role=client, role=donor or role=both (Documentation/admin-guide.md, \"Host keys\")",
			 path, hk->old_line,
			 hk->old_lines > 1 ? " and others" : "");
	return ret;
}

/* Does @ip (of @family) fall in @a's prefix? */
static bool addr_in(const struct spare_host_addr *a, int family, const uint8_t ip[16])
{
	unsigned int full = a->bits / 8, rest = a->bits % 8;

	if (a->family != family)
		return false;
	if (memcmp(a->ip, ip, full))
		return false;
	return !rest || !((a->ip[full] ^ ip[full]) & (uint8_t)(0xff << (8 - rest)));
}

const char *spare_host_key_addr_refused(const struct spare_host_key *k, const char *addr,
					const char *from, char *why, size_t whylen)
{
	char host[256];
	uint8_t ip[16], from_ip[16];
	const char *colon;
	size_t len;
	int family;

	if (addr[0] == '[') {
		colon = strstr(addr, "]:");
		len = colon ? (size_t)(colon - addr - 1) : 0;
		addr++;
	} else {
		colon = strrchr(addr, ':');
		len = colon ? (size_t)(colon - addr) : 0;
	}
	if (!colon || !len || len >= sizeof(host)) {
		snprintf(why, whylen, "address %.80s is not HOST:PORT", addr);
		return why;
	}
	memcpy(host, addr, len);
	host[len] = '\0';
	family = ip_parse(host, ip);
	if (!k->naddrs) {
		if (family && ip_parse(from, from_ip) == family &&
		    !memcmp(ip, from_ip, sizeof(ip)))
			return NULL;
		snprintf(why, whylen,
			 "key %s (host-keys line %u) has no addr=, so it may register only the address it connects from (%.64s), not %.80s",
			 k->name, k->line, from, host);
		return why;
	}
	for (unsigned int i = 0; i < k->naddrs; i++) {
		const struct spare_host_addr *a = &k->addrs[i];

		if (family ? addr_in(a, family, ip) : (!a->family && !strcasecmp(a->host, host)))
			return NULL;
	}
	snprintf(why, whylen, "key %s may not register %.80s (not in its addr= on host-keys line %u)",
		 k->name, host, k->line);
	return why;
}
const char *spare_host_key_from_refused(const struct spare_host_key *k, const char *from,
					char *why, size_t whylen)
{
	uint8_t ip[16];
	int family;

	if (!k->naddrs)
		return NULL;
	family = ip_parse(from, ip);
	for (unsigned int i = 0; family && i < k->naddrs; i++)
		if (addr_in(&k->addrs[i], family, ip))
			return NULL;
	snprintf(why, whylen, "key %s may not connect from %.64s (not in its addr= on host-keys line %u)",
		 k->name, from, k->line);
	return why;
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
		if ((hk->v[i].roles & SPARE_ROLE_CLIENT) &&
		    spare_auth_mac_ok(mac, hk->v[i].key, SPARE_AUTH_DIR_CLIENT,
				      client_uuid, donor_id, client_nonce,
				      donor_nonce))
			return &hk->v[i];
	return NULL;
}
