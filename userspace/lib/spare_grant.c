// SPDX-License-Identifier: GPL-2.0
/*
 * Grants: encode, decode, sign, verify, replay cache (spare_grant_lib.h,
 * Documentation/protocol.md "Grants").
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "spare_grant_lib.h"

_Static_assert(offsetof(struct spare_grant, tag) == SPARE_GRANT_SIGNED_LEN,
	       "the tag is the last field");
_Static_assert(crypto_auth_hmacsha256_BYTES == SPARE_GRANT_TAG_LEN,
	       "HMAC-SHA-256 size");
_Static_assert(crypto_shorthash_KEYBYTES == 16, "SipHash key size");

const char *spare_grant_strerror(int result)
{
	switch (result) {
	case SPARE_GRANT_OK:		return "ok";
	case SPARE_GRANT_MALFORMED:	return "malformed grant";
	case SPARE_GRANT_UNKNOWN_KEY:	return "grant signed with an unknown key id";
	case SPARE_GRANT_FORGED:	return "forged grant (bad tag)";
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
	static const uint8_t zero[sizeof(g->reserved)];

	if (le32toh(g->magic) != SPARE_GRANT_MAGIC ||
	    le16toh(g->version) != SPARE_GRANT_VERSION ||
	    le16toh(g->size) != SPARE_GRANT_SIZE ||
	    !field_ok(g->client_id, sizeof(g->client_id)) ||
	    !field_ok(g->donor_id, sizeof(g->donor_id)) ||
	    !field_ok(g->donor_addr, sizeof(g->donor_addr)) ||
	    le32toh(g->slabs) == 0 ||
	    le64toh(g->expiry) <= le64toh(g->not_before) ||
	    memcmp(g->reserved, zero, sizeof(zero)))
		return SPARE_GRANT_MALFORMED;
	if (!info)
		return 0;
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

int spare_grant_verify(const struct spare_grant *g,
		       const struct spare_grant_key *keys, unsigned int nkeys,
		       const char *donor_id, const char *client_id, uint64_t now,
		       struct spare_grant_replay *rc, struct spare_grant_info *info)
{
	struct spare_grant_info gi;
	const struct spare_grant_key *key = NULL;
	uint8_t want[SPARE_GRANT_TAG_LEN];
	bool tag_ok;
	int ret;

	if (spare_grant_decode(g, &gi))
		return SPARE_GRANT_MALFORMED;
	for (unsigned int k = 0; k < nkeys; k++)
		if (keys[k].id == gi.key_id)
			key = &keys[k];
	if (!key)
		return SPARE_GRANT_UNKNOWN_KEY;
	grant_mac(want, g, key->key);
	tag_ok = sodium_memcmp(want, g->tag, sizeof(want)) == 0;
	sodium_memzero(want, sizeof(want));
	if (!tag_ok)
		return SPARE_GRANT_FORGED;
	if (now < gi.not_before)
		return SPARE_GRANT_NOT_YET;
	if (now >= gi.expiry)
		return SPARE_GRANT_EXPIRED;
	if (!donor_id || strcmp(gi.donor_id, donor_id))
		return SPARE_GRANT_WRONG_DONOR;
	if (client_id && strcmp(gi.client_id, client_id))
		return SPARE_GRANT_WRONG_CLIENT;
	if (rc) {
		ret = spare_grant_replay_add(rc, gi.id, gi.expiry, now);
		if (ret)
			return ret;
	}
	if (info)
		*info = gi;
	return SPARE_GRANT_OK;
}
