// SPDX-License-Identifier: GPL-2.0
/*
 * Grants: encode, decode, sign, verify, replay cache (spare_grant_lib.h,
 * Documentation/protocol.md "Grants").
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "spare_grant_lib.h"

_Static_assert(offsetof(struct spare_grant, tag) == SPARE_GRANT_SIGNED_LEN,
	       "the tag is the last field");
_Static_assert(crypto_auth_hmacsha256_BYTES == SPARE_GRANT_TAG_LEN,
	       "HMAC-SHA-256 size");
_Static_assert(crypto_shorthash_KEYBYTES == 16, "SipHash key size");
_Static_assert(offsetof(struct spare_grant, sig) == SPARE_GRANT_SIGNED_LEN_ED25519 &&
	       offsetof(struct spare_grant, expiry) + 8 == SPARE_GRANT_SIGNED_LEN_ED25519,
	       "the signature follows expiry and is the last field");
_Static_assert(crypto_sign_BYTES == SPARE_GRANT_SIG_LEN &&
	       crypto_sign_PUBLICKEYBYTES == SPARE_GRANT_PUBKEY_LEN &&
	       crypto_sign_SECRETKEYBYTES == sizeof(((struct spare_grant_signkey *)0)->sk) &&
	       crypto_sign_SEEDBYTES == 32, "Ed25519 sizes");

const char *spare_grant_strerror(int result)
{
	switch (result) {
	case SPARE_GRANT_OK:		return "ok";
	case SPARE_GRANT_MALFORMED:	return "malformed grant";
	case SPARE_GRANT_UNKNOWN_KEY:	return "grant signed with an unknown key id (not a key this host trusts: retired, or not yet added?)";
	case SPARE_GRANT_FORGED:	return "forged grant (bad signature)";
	case SPARE_GRANT_V3_OFF:	return "version 3 (per-donor MAC) grant, and this donor does not take them (grant-v3 = yes, with broker-key-file)";
	case SPARE_GRANT_V1_OFF:	return "version 1 (HMAC) grant, and this host holds no version 1 grant key (the broker should sign with grant-signing-key)";
	case SPARE_GRANT_NOT_YET:	return "grant not yet valid";
	case SPARE_GRANT_EXPIRED:	return "grant expired";
	case SPARE_GRANT_WRONG_DONOR:	return "grant is for another donor";
	case SPARE_GRANT_WRONG_CLIENT:	return "grant is for another client";
	case SPARE_GRANT_REPLAYED:	return "grant replayed";
	case SPARE_GRANT_CACHE_FULL:	return "too many live grants (ledger full)";
	case SPARE_GRANT_OWNER_FULL:	return "this client holds its share of the ledger already";
	}
	return "unknown grant error";
}

/* A string that fits a field of @len bytes with its NUL. */
static bool str_fits(const char *s, size_t len)
{
	return memchr(s, 0, len) != NULL && s[0] != 0;
}

/* A received field: non-empty, NUL terminated, zero after the first NUL. */
static bool field_ok(const char *f, size_t len)
{
	const char *nul = memchr(f, 0, len);

	if (!nul || nul == f)
		return false;
	for (const char *p = nul; p < f + len; p++)
		if (*p)
			return false;
	return true;
}

static void put_str(char *dst, size_t len, const char *s)
{
	memset(dst, 0, len);
	memcpy(dst, s, strlen(s));
}

int spare_grant_encode(const struct spare_grant_info *info, struct spare_grant *g)
{
	if (!str_fits(info->client_id, sizeof(info->client_id)) ||
	    !str_fits(info->donor_id, sizeof(info->donor_id)) ||
	    !str_fits(info->donor_addr, sizeof(info->donor_addr)) ||
	    info->slabs == 0 || info->expiry <= info->not_before)
		return SPARE_GRANT_MALFORMED;
	memset(g, 0, sizeof(*g));
	g->magic = htole32(SPARE_GRANT_MAGIC);
	g->version = htole16(SPARE_GRANT_VERSION);
	g->size = htole16(SPARE_GRANT_SIZE);
	memcpy(g->grant_id, info->id, SPARE_GRANT_ID_LEN);
	put_str(g->client_id, sizeof(g->client_id), info->client_id);
	put_str(g->donor_id, sizeof(g->donor_id), info->donor_id);
	put_str(g->donor_addr, sizeof(g->donor_addr), info->donor_addr);
	g->slabs = htole32(info->slabs);
	g->key_id = htole32(info->key_id);
	g->not_before = htole64(info->not_before);
	g->expiry = htole64(info->expiry);
	return 0;
}

int spare_grant_decode(const struct spare_grant *g, struct spare_grant_info *info)
{
	uint16_t version = le16toh(g->version);

	if (spare_grant_form_check(g) != SPARE_GRANT_FORM_OK ||
	    !field_ok(g->client_id, sizeof(g->client_id)) ||
	    !field_ok(g->donor_id, sizeof(g->donor_id)) ||
	    !field_ok(g->donor_addr, sizeof(g->donor_addr)) ||
	    le32toh(g->slabs) == 0 ||
	    le64toh(g->expiry) <= le64toh(g->not_before))
		return SPARE_GRANT_MALFORMED;
	if (!info)
		return 0;
	info->version = version;
	memcpy(info->id, g->grant_id, SPARE_GRANT_ID_LEN);
	memcpy(info->client_id, g->client_id, sizeof(info->client_id));
	memcpy(info->donor_id, g->donor_id, sizeof(info->donor_id));
	memcpy(info->donor_addr, g->donor_addr, sizeof(info->donor_addr));
	info->slabs = le32toh(g->slabs);
	info->key_id = le32toh(g->key_id);
	info->not_before = le64toh(g->not_before);
	info->expiry = le64toh(g->expiry);
	return 0;
}

static void grant_mac(uint8_t tag[SPARE_GRANT_TAG_LEN], const struct spare_grant *g,
		      const uint8_t key[SPARE_GRANT_KEY_LEN])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, key, SPARE_GRANT_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)g, SPARE_GRANT_SIGNED_LEN);
	crypto_auth_hmacsha256_final(&st, tag);
	sodium_memzero(&st, sizeof(st));
}

void spare_grant_sign(struct spare_grant *g, const struct spare_grant_key *key)
{
	g->key_id = htole32(key->id);
	grant_mac(g->tag, g, key->key);
}

int spare_grant_issue(const struct spare_grant_info *info,
		      const struct spare_grant_key *key, struct spare_grant *g)
{
	int ret = spare_grant_encode(info, g);

	if (ret)
		return ret;
	spare_grant_sign(g, key);
	return 0;
}

void spare_grant_new_id(uint8_t id[SPARE_GRANT_ID_LEN])
{
	randombytes_buf(id, SPARE_GRANT_ID_LEN);
}

void spare_grant_to_hex(const struct spare_grant *g, char *hex, size_t len)
{
	if (len < SPARE_GRANT_HEX_LEN + 1) {
		if (len)
			hex[0] = 0;
		return;
	}
	sodium_bin2hex(hex, len, (const uint8_t *)g, sizeof(*g));
}

int spare_grant_from_hex(const char *hex, struct spare_grant *g)
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (strlen(hex) != SPARE_GRANT_HEX_LEN)
		return SPARE_GRANT_MALFORMED;
	if (sodium_hex2bin((uint8_t *)g, sizeof(*g), hex, SPARE_GRANT_HEX_LEN,
			   NULL, &bin_len, &end) || bin_len != sizeof(*g) ||
	    *end)
		return SPARE_GRANT_MALFORMED;
	return 0;
}

int spare_grant_parse_hex(const char *hex, struct spare_grant *g)
{
	struct spare_grant_info gi;
	int ret = spare_grant_from_hex(hex, g);

	if (!ret && spare_grant_decode(g, &gi))
		ret = SPARE_GRANT_MALFORMED;
	sodium_memzero(&gi, sizeof(gi));
	return ret;
}

int spare_grant_file_read(const char *path, struct spare_grant *g, uint32_t max,
			  uint32_t *n, char *why, size_t whylen)
{
	char line[SPARE_GRANT_HEX_LEN + 64];
	unsigned int no = 0;
	int ret = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");

		no++;
		if (!line[len] && !feof(f)) {
			snprintf(why, whylen, "line %u: too long for a grant", no);
			ret = -1;
			break;
		}
		line[len] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (*n >= max) {
			snprintf(why, whylen, "line %u: more than %u grants", no, max);
			ret = -1;
		} else if (spare_grant_parse_hex(line, &g[*n])) {
			snprintf(why, whylen,
				 "line %u: not a grant (%u hex digits, as a broker issues it)",
				 no, SPARE_GRANT_HEX_LEN);
			ret = -1;
		} else {
			(*n)++;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(why, whylen, "read error");
		ret = -1;
	}
	sodium_memzero(line, sizeof(line));
	fclose(f);
	return ret;
}

/* Replay cache: open addressing, linear probing, SipHash of the id. */
struct spare_grant_replay_slot {
	uint8_t		id[SPARE_GRANT_ID_LEN];
	uint64_t	expiry;		/* 0: empty */
};

int spare_grant_replay_init(struct spare_grant_replay *rc, size_t max_entries)
{
	size_t cap = 16;

	memset(rc, 0, sizeof(*rc));
	if (max_entries < 1 || max_entries > (SIZE_MAX / 4) / sizeof(*rc->v))
		return -EINVAL;
	while (cap < max_entries + max_entries / 2 + 1)
		cap *= 2;
	rc->v = calloc(cap, sizeof(*rc->v));
	if (!rc->v)
		return -ENOMEM;
	rc->cap = cap;
	rc->max = max_entries;
	randombytes_buf(rc->hkey, sizeof(rc->hkey));
	return 0;
}

void spare_grant_replay_free(struct spare_grant_replay *rc)
{
	free(rc->v);
	memset(rc, 0, sizeof(*rc));
}

static size_t replay_hash(const struct spare_grant_replay *rc,
			  const uint8_t id[SPARE_GRANT_ID_LEN])
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t x;

	crypto_shorthash(h, id, SPARE_GRANT_ID_LEN, rc->hkey);
	memcpy(&x, h, sizeof(x));
	return (size_t)x & (rc->cap - 1);
}

/* Remove slot @i with backward-shift deletion (no tombstones). */
static void replay_remove(struct spare_grant_replay *rc, size_t i)
{
	size_t mask = rc->cap - 1, j = i;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!rc->v[j].expiry)
			break;
		home = replay_hash(rc, rc->v[j].id);
		/* may v[j] move to i? only if home is not in (i, j] cyclically */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			rc->v[i] = rc->v[j];
			i = j;
		}
	}
	rc->v[i].expiry = 0;
	rc->n--;
}

void spare_grant_replay_purge(struct spare_grant_replay *rc, uint64_t now)
{
	size_t i = 0;

	if (!rc->v)
		return;
	while (i < rc->cap) {
		if (rc->v[i].expiry && rc->v[i].expiry <= now)
			replay_remove(rc, i);	/* slot i refilled: look again */
		else
			i++;
	}
}

static size_t replay_find(const struct spare_grant_replay *rc,
			  const uint8_t id[SPARE_GRANT_ID_LEN], bool *found)
{
	size_t mask = rc->cap - 1, i = replay_hash(rc, id);

	while (rc->v[i].expiry) {
		if (!memcmp(rc->v[i].id, id, SPARE_GRANT_ID_LEN)) {
			*found = true;
			return i;
		}
		i = (i + 1) & mask;
	}
	*found = false;
	return i;
}

bool spare_grant_replay_seen(const struct spare_grant_replay *rc,
			     const uint8_t id[SPARE_GRANT_ID_LEN], uint64_t now)
{
	bool found;
	size_t i;

	if (!rc->v)
		return false;
	i = replay_find(rc, id, &found);
	return found && rc->v[i].expiry > now;
}

int spare_grant_replay_add(struct spare_grant_replay *rc,
			   const uint8_t id[SPARE_GRANT_ID_LEN], uint64_t expiry,
			   uint64_t now)
{
	bool found;
	size_t i;

	if (!rc->v)
		return SPARE_GRANT_CACHE_FULL;
	i = replay_find(rc, id, &found);
	if (found) {
		if (rc->v[i].expiry > now)
			return SPARE_GRANT_REPLAYED;
		rc->v[i].expiry = expiry;	/* an old entry not yet purged */
		return 0;
	}
	if (rc->n >= rc->max) {
		spare_grant_replay_purge(rc, now);
		if (rc->n >= rc->max)
			return SPARE_GRANT_CACHE_FULL;
		i = replay_find(rc, id, &found);
	}
	memcpy(rc->v[i].id, id, SPARE_GRANT_ID_LEN);
	rc->v[i].expiry = expiry ? expiry : 1;
	rc->n++;
	return 0;
}

/* The key for version 2 grant @key_id: pub[], then sign's public half. */
static const uint8_t *find_pubkey(const struct spare_grant_keys *k, uint32_t key_id)
{
	for (unsigned int i = 0; i < k->npub && i < SPARE_GRANT_MAX_PUBKEYS; i++)
		if (k->pub[i].id == key_id)
			return k->pub[i].pk;
	if (k->has_sign && k->sign.id == key_id)
		return k->sign.pk;
	return NULL;
}

/* Form and signature or tag; @gi filled. */
static int check_sig(const struct spare_grant *g, const struct spare_grant_keys *k,
		     const struct spare_grant_key *hmac, unsigned int nhmac,
		     struct spare_grant_info *gi)
{
	if (spare_grant_decode(g, gi))
		return SPARE_GRANT_MALFORMED;
	if (gi->version == SPARE_GRANT_VERSION_ED25519) {
		const uint8_t *pk = k ? find_pubkey(k, gi->key_id) : NULL;

		if (!pk)
			return SPARE_GRANT_UNKNOWN_KEY;
		if (crypto_sign_verify_detached(g->sig, (const uint8_t *)g,
						SPARE_GRANT_SIGNED_LEN_ED25519, pk))
			return SPARE_GRANT_FORGED;
		return 0;
	} else if (gi->version == SPARE_GRANT_VERSION_DONOR_MAC) {
		if (!k || !k->has_v3)
			return SPARE_GRANT_V3_OFF;
		/* the key is this donor's: another donor's grant cannot fit it */
		if (strncmp(gi->donor_id, k->v3_donor, sizeof(k->v3_donor)))
			return SPARE_GRANT_WRONG_DONOR;
		return spare_grant_v3_tag_check(g, k->v3_key);
	} else {
		const struct spare_grant_key *key = NULL;
		uint8_t want[SPARE_GRANT_TAG_LEN];
		bool tag_ok;

		if (!nhmac)
			return SPARE_GRANT_V1_OFF;
		for (unsigned int i = 0; i < nhmac; i++)
			if (hmac[i].id == gi->key_id)
				key = &hmac[i];
		if (!key)
			return SPARE_GRANT_UNKNOWN_KEY;
		grant_mac(want, g, key->key);
		tag_ok = sodium_memcmp(want, g->tag, sizeof(want)) == 0;
		sodium_memzero(want, sizeof(want));
		return tag_ok ? 0 : SPARE_GRANT_FORGED;
	}
}

/* What follows the signature: time, donor, client, replay. */
static int check_rest(const struct spare_grant_info *gi, const char *donor_id,
		      const char *client_id, uint64_t now, struct spare_grant_replay *rc,
		      struct spare_grant_info *info)
{
	int ret;

	if (now < gi->not_before)
		return SPARE_GRANT_NOT_YET;
	if (now >= gi->expiry)
		return SPARE_GRANT_EXPIRED;
	if (!donor_id || strcmp(gi->donor_id, donor_id))
		return SPARE_GRANT_WRONG_DONOR;
	if (client_id && strcmp(gi->client_id, client_id))
		return SPARE_GRANT_WRONG_CLIENT;
	if (rc) {
		ret = spare_grant_replay_add(rc, gi->id, gi->expiry, now);
		if (ret)
			return ret;
	}
	if (info)
		*info = *gi;
	return SPARE_GRANT_OK;
}

int spare_grant_verify(const struct spare_grant *g,
		       const struct spare_grant_key *keys, unsigned int nkeys,
		       const char *donor_id, const char *client_id, uint64_t now,
		       struct spare_grant_replay *rc, struct spare_grant_info *info)
{
	struct spare_grant_info gi;
	int ret = check_sig(g, NULL, keys, nkeys, &gi);

	if (ret == SPARE_GRANT_V1_OFF)
		ret = SPARE_GRANT_UNKNOWN_KEY;	/* no keys at all */
	return ret ? ret : check_rest(&gi, donor_id, client_id, now, rc, info);
}

int spare_grant_check(const struct spare_grant *g, const struct spare_grant_keys *k,
		      const char *donor_id, const char *client_id, uint64_t now,
		      struct spare_grant_replay *rc, struct spare_grant_info *info)
{
	struct spare_grant_info gi;
	int ret = check_sig(g, k, &k->hmac, k->has_hmac ? 1 : 0, &gi);

	return ret ? ret : check_rest(&gi, donor_id, client_id, now, rc, info);
}

/* ---- Version 3: HMAC-SHA-256 with a key per donor ---- */

int spare_grant_v3_key(uint8_t kg[SPARE_GRANT_KEY_LEN], const uint8_t kd[SPARE_GRANT_KEY_LEN],
		       const char *donor_id)
{
	static const char label[] = SPARE_GRANT_V3_LABEL;
	uint8_t id[SPARE_GRANT_DONOR_LEN] = { 0 };
	crypto_auth_hmacsha256_state st;

	if (!donor_id || !str_fits(donor_id, sizeof(id)))
		return SPARE_GRANT_MALFORMED;
	memcpy(id, donor_id, strlen(donor_id));
	crypto_auth_hmacsha256_init(&st, kd, SPARE_GRANT_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label, sizeof(label) - 1);
	crypto_auth_hmacsha256_update(&st, id, sizeof(id));
	crypto_auth_hmacsha256_final(&st, kg);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int spare_grant_v3_issue(const struct spare_grant_info *info,
			 const uint8_t kg[SPARE_GRANT_KEY_LEN], struct spare_grant *g)
{
	int ret = spare_grant_encode(info, g);

	if (ret)
		return ret;
	g->version = htole16(SPARE_GRANT_VERSION_DONOR_MAC);
	g->key_id = 0;
	grant_mac(g->tag, g, kg);
	return 0;
}

int spare_grant_v3_tag_check(const struct spare_grant *g, const uint8_t kg[SPARE_GRANT_KEY_LEN])
{
	uint8_t want[SPARE_GRANT_TAG_LEN];
	bool ok;

	grant_mac(want, g, kg);
	ok = sodium_memcmp(want, g->tag, sizeof(want)) == 0;
	sodium_memzero(want, sizeof(want));
	return ok ? 0 : SPARE_GRANT_FORGED;
}

int spare_grant_keys_set_v3(struct spare_grant_keys *k, const uint8_t kd[SPARE_GRANT_KEY_LEN],
			    const char *donor_id)
{
	if (spare_grant_v3_key(k->v3_key, kd, donor_id))
		return SPARE_GRANT_MALFORMED;
	memset(k->v3_donor, 0, sizeof(k->v3_donor));
	memcpy(k->v3_donor, donor_id, strlen(donor_id));
	k->has_v3 = true;
	return 0;
}

/* ---- Ed25519 keys ---- */

void spare_grant_signkey_from_seed(struct spare_grant_signkey *k, uint32_t id,
				   const uint8_t seed[32])
{
	k->id = id;
	crypto_sign_seed_keypair(k->pk, k->sk, seed);
}

struct spare_grant_pubkey spare_grant_signkey_public(const struct spare_grant_signkey *k)
{
	struct spare_grant_pubkey p;

	p.id = k->id;
	memcpy(p.pk, k->pk, sizeof(p.pk));
	return p;
}

/* @g (encoded) as a version 2 grant of @k, unsigned. */
static void ed25519_header(struct spare_grant *g, const struct spare_grant_signkey *k)
{
	g->version = htole16(SPARE_GRANT_VERSION_ED25519);
	g->key_id = htole32(k->id);
}

static void ed25519_sign(struct spare_grant *g, const struct spare_grant_signkey *k)
{
	crypto_sign_detached(g->sig, NULL, (const uint8_t *)g,
			     SPARE_GRANT_SIGNED_LEN_ED25519, k->sk);
}

int spare_grant_issue_ed25519(const struct spare_grant_info *info,
			      const struct spare_grant_signkey *k, struct spare_grant *g)
{
	int ret = spare_grant_encode(info, g);

	if (ret)
		return ret;
	ed25519_header(g, k);
	ed25519_sign(g, k);
	return 0;
}

int spare_grant_keys_encode(const struct spare_grant_keys *k,
			    const struct spare_grant_info *info, struct spare_grant *g)
{
	int ret;

	if (!k->has_sign && !k->has_hmac)
		return SPARE_GRANT_MALFORMED;
	ret = spare_grant_encode(info, g);
	if (ret)
		return ret;
	if (k->has_sign)
		ed25519_header(g, &k->sign);
	else
		g->key_id = htole32(k->hmac.id);
	return 0;
}

void spare_grant_keys_seal(const struct spare_grant_keys *k, struct spare_grant *g)
{
	if (le16toh(g->version) == SPARE_GRANT_VERSION_DONOR_MAC)
		return;		/* tagged when issued */
	if (k->has_sign)
		ed25519_sign(g, &k->sign);
	else if (k->has_hmac)
		spare_grant_sign(g, &k->hmac);
}

int spare_grant_keys_issue(const struct spare_grant_keys *k,
			   const struct spare_grant_info *info, struct spare_grant *g)
{
	int ret = spare_grant_keys_encode(k, info, g);

	if (!ret)
		spare_grant_keys_seal(k, g);
	return ret;
}

void spare_grant_pubkey_format(const struct spare_grant_pubkey *p, char *line, size_t len)
{
	char hex[2 * SPARE_GRANT_PUBKEY_LEN + 1];

	sodium_bin2hex(hex, sizeof(hex), p->pk, sizeof(p->pk));
	snprintf(line, len, "%u %s", (unsigned int)p->id, hex);
}

/* One "<id> <hex>" line (no comment, not blank): NULL or why not. */
static const char *pubkey_line(const char *line, struct spare_grant_pubkey *p)
{
	const char *s = line, *hex;
	size_t hlen, bin_len = 0;
	unsigned long long id;
	char *end;

	if (!isdigit((unsigned char)*s))
		return "want \"<key id> <64 hex digits>\"";
	errno = 0;
	id = strtoull(s, &end, 10);
	if (errno || id > UINT32_MAX)
		return "key id above 4294967295";
	if (*end != ' ' && *end != '\t')
		return "want \"<key id> <64 hex digits>\"";
	hex = end + strspn(end, " \t");
	hlen = strcspn(hex, " \t");
	if (hex[hlen + strspn(hex + hlen, " \t")])
		return "more than a key id and a key on the line";
	if (hlen != 2 * SPARE_GRANT_PUBKEY_LEN ||
	    sodium_hex2bin(p->pk, sizeof(p->pk), hex, hlen, NULL, &bin_len, NULL) ||
	    bin_len != sizeof(p->pk))
		return "the key is not 64 hex digits (an Ed25519 public key, as sparectl gen-key --grant prints it)";
	p->id = (uint32_t)id;
	return NULL;
}

int spare_grant_pubkeys_parse(const char *text, struct spare_grant_pubkey *v,
			      unsigned int max, unsigned int *n, char *why, size_t whylen)
{
	unsigned int no = 0, start = *n;
	const char *line = text;

	while (*line) {
		size_t len = strcspn(line, "\n");
		char buf[256];
		const char *err, *b;
		struct spare_grant_pubkey p;

		no++;
		if (len >= sizeof(buf)) {
			snprintf(why, whylen, "line %u: too long", no);
			return -1;
		}
		memcpy(buf, line, len);
		buf[len] = 0;
		line += len + (line[len] == '\n');
		while (len && isspace((unsigned char)buf[len - 1]))
			buf[--len] = 0;
		b = buf + strspn(buf, " \t");
		if (!*b || *b == '#')
			continue;
		err = pubkey_line(b, &p);
		if (err) {
			snprintf(why, whylen, "line %u: %s", no, err);
			return -1;
		}
		for (unsigned int i = 0; i < *n; i++)
			if (v[i].id == p.id) {
				snprintf(why, whylen, "line %u: key id %u given twice", no,
					 (unsigned int)p.id);
				return -1;
			}
		if (*n >= max) {
			snprintf(why, whylen, "line %u: more than %u keys", no, max);
			return -1;
		}
		v[(*n)++] = p;
	}
	if (*n == start) {
		snprintf(why, whylen, "no key (want \"<key id> <64 hex digits>\" lines)");
		return -1;
	}
	return 0;
}

int spare_grant_pubkeys_read(const char *path, struct spare_grant_pubkey *v,
			     unsigned int max, unsigned int *n, char *why, size_t whylen)
{
	char text[8192], inner[256];
	struct stat st;
	size_t got = 0;
	ssize_t r = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (st.st_mode & 022) {
		snprintf(why, whylen,
			 "%s: mode %04o lets group or others change which grants are good (chmod 644 %s)",
			 path, (unsigned int)(st.st_mode & 07777), path);
		close(fd);
		return -1;
	}
	while (got < sizeof(text) - 1) {
		r = read(fd, text + got, sizeof(text) - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (r < 0 || got == sizeof(text) - 1) {
		snprintf(why, whylen, "%s: %s", path, r < 0 ? strerror(errno) : "too large");
		return -1;
	}
	text[got] = 0;
	if (memchr(text, 0, got)) {
		snprintf(why, whylen, "%s: not a text file", path);
		return -1;
	}
	if (spare_grant_pubkeys_parse(text, v, max, n, inner, sizeof(inner))) {
		snprintf(why, whylen, "%s: %s", path, inner);
		return -1;
	}
	return 0;
}

void spare_grant_keys_wipe(struct spare_grant_keys *k)
{
	sodium_memzero(k, sizeof(*k));
}
