// SPDX-License-Identifier: GPL-2.0
/*
 * spared's grant ledger (grants.h).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "grants.h"

size_t spared_grants_share(size_t max)
{
	size_t share = max / SPARED_GRANTS_SHARE_DIV;

	if (share < SPARED_GRANTS_SHARE_MIN)
		share = SPARED_GRANTS_SHARE_MIN;
	return share < max ? share : max;
}

int spared_grants_init(struct spared_grants *g, const struct spare_grant_key *key,
		       const char *donor_id, size_t max)
{
	memset(g, 0, sizeof(*g));
	if (!donor_id || !donor_id[0] || strlen(donor_id) >= sizeof(g->donor_id) ||
	    !max || max > (1u << 30))
		return -EINVAL;
	g->cap = 16;
	while (g->cap < max * 2)
		g->cap *= 2;
	g->v = calloc(max, sizeof(*g->v));
	g->owners = calloc(max, sizeof(*g->owners));
	g->by_id = calloc(g->cap, sizeof(*g->by_id));
	g->by_owner = calloc(g->cap, sizeof(*g->by_owner));
	if (!g->v || !g->owners || !g->by_id || !g->by_owner) {
		spared_grants_free(g);
		return -ENOMEM;
	}
	if (key) {
		g->keys.hmac = *key;
		g->keys.has_hmac = true;
	}
	strcpy(g->donor_id, donor_id);
	g->max = max;
	g->share = spared_grants_share(max);
	return 0;
}

void spared_grants_set_keys(struct spared_grants *g, const struct spare_grant_keys *k)
{
	g->keys = *k;
	g->keys.has_sign = false;	/* a donor signs nothing */
	sodium_memzero(&g->keys.sign, sizeof(g->keys.sign));
}

void spared_grants_free(struct spared_grants *g)
{
	free(g->v);
	free(g->owners);
	free(g->by_id);
	free(g->by_owner);
	sodium_memzero(g, sizeof(*g));
}

uint64_t spared_grant_token(const uint8_t id[SPARE_GRANT_ID_LEN])
{
	uint64_t t;

	memcpy(&t, id, sizeof(t));
	return le64toh(t);
}

/* Ids are random: their token, spread, is the home slot. */
static size_t token_home(const struct spared_grants *g, uint64_t token)
{
	return (size_t)((token * 0x9e3779b97f4a7c15ULL) >> 32) & (g->cap - 1);
}

static size_t owner_home(const struct spared_grants *g, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *name; name++) {
		h ^= (uint8_t)*name;
		h *= 0x100000001b3ULL;
	}
	return (size_t)(h ^ (h >> 29)) & (g->cap - 1);
}

/* Does slot @j's entry, whose home is @home, stay put when slot @i empties? */
static bool stays(size_t i, size_t j, size_t home)
{
	return i <= j ? (i < home && home <= j) : (i < home || home <= j);
}

/* Linear probing without tombstones: empty slot @i, shift followers back. */
static void id_slot_clear(struct spared_grants *g, size_t i)
{
	size_t mask = g->cap - 1, j = i;

	for (;;) {
		g->by_id[i] = 0;
		do {
			j = (j + 1) & mask;
			if (!g->by_id[j])
				return;
		} while (stays(i, j, token_home(g, spared_grant_token(g->v[g->by_id[j] - 1].id))));
		g->by_id[i] = g->by_id[j];
		i = j;
	}
}

static void owner_slot_clear(struct spared_grants *g, size_t i)
{
	size_t mask = g->cap - 1, j = i;

	for (;;) {
		g->by_owner[i] = 0;
		do {
			j = (j + 1) & mask;
			if (!g->by_owner[j])
				return;
		} while (stays(i, j, owner_home(g, g->owners[g->by_owner[j] - 1].name)));
		g->by_owner[i] = g->by_owner[j];
		i = j;
	}
}

/* The by_id slot holding grant @id, or the empty one where it would go. */
static size_t id_slot(const struct spared_grants *g, const uint8_t *id, bool *found)
{
	size_t i = token_home(g, spared_grant_token(id));

	for (; g->by_id[i]; i = (i + 1) & (g->cap - 1))
		if (!memcmp(g->v[g->by_id[i] - 1].id, id, SPARE_GRANT_ID_LEN)) {
			*found = true;
			return i;
		}
	*found = false;
	return i;
}

static size_t owner_slot(const struct spared_grants *g, const char *name, bool *found)
{
	size_t i = owner_home(g, name);

	for (; g->by_owner[i]; i = (i + 1) & (g->cap - 1))
		if (!strcmp(g->owners[g->by_owner[i] - 1].name, name)) {
			*found = true;
			return i;
		}
	*found = false;
	return i;
}

static struct spared_owner *owner_find(const struct spared_grants *g, const char *name)
{
	bool found;
	size_t s = owner_slot(g, name, &found);

	return found ? &g->owners[g->by_owner[s] - 1] : NULL;
}

/* Grant @e leaves owner @name's account; an owner with none left goes. */
static void owner_debit(struct spared_grants *g, const struct spared_grant *e)
{
	bool found;
	size_t s = owner_slot(g, e->owner, &found), k, last;
	struct spared_owner *o;

	if (!found)
		return;	/* not reached: every entry's owner is counted */
	k = g->by_owner[s] - 1;
	o = &g->owners[k];
	o->slabs -= e->slabs;
	if (--o->grants)
		return;
	owner_slot_clear(g, s);
	last = --g->nowners;
	if (k != last) {
		g->owners[k] = g->owners[last];
		s = owner_slot(g, g->owners[k].name, &found);
		g->by_owner[s] = (uint32_t)(k + 1);
	}
	memset(&g->owners[last], 0, sizeof(g->owners[last]));
}

/* Drop entry @i: unindex it, move the last entry into its place. */
static void entry_drop(struct spared_grants *g, size_t i)
{
	bool found;
	size_t s = id_slot(g, g->v[i].id, &found);

	owner_debit(g, &g->v[i]);
	if (found)
		id_slot_clear(g, s);
	if (i != --g->n) {
		g->v[i] = g->v[g->n];
		s = id_slot(g, g->v[i].id, &found);
		g->by_id[s] = (uint32_t)(i + 1);
	}
	memset(&g->v[g->n], 0, sizeof(g->v[g->n]));
}

size_t spared_grants_purge(struct spared_grants *g, uint64_t now)
{
	size_t i = 0;

	while (i < g->n) {
		if (g->v[i].expiry <= now)
			entry_drop(g, i);
		else
			i++;
	}
	g->purged_at = now;
	return g->n;
}

/* Record grant @gi for @owner, who holds o (NULL: none yet). */
static int entry_add(struct spared_grants *g, const struct spare_grant_info *gi,
		     const char *owner, struct spared_owner *o, size_t slot)
{
	struct spared_grant *e;
	bool found;

	if (g->n == g->max)
		return SPARE_GRANT_CACHE_FULL;
	if (o && o->grants >= g->share)
		return SPARE_GRANT_OWNER_FULL;
	if (!o) {
		size_t s = owner_slot(g, owner, &found);

		o = &g->owners[g->nowners];
		strcpy(o->name, owner);
		g->by_owner[s] = (uint32_t)++g->nowners;
	}
	o->grants++;
	o->slabs += gi->slabs;
	e = &g->v[g->n];
	memcpy(e->id, gi->id, sizeof(e->id));
	strcpy(e->owner, owner);
	e->slabs = gi->slabs;
	e->expiry = gi->expiry;
	g->by_id[slot] = (uint32_t)++g->n;
	return SPARE_GRANT_OK;
}

int spared_grant_accept(struct spared_grants *g, const void *buf, size_t len, bool hex,
			const char *client_id, const char *owner, uint64_t now,
			struct spare_grant_info *info, bool *known)
{
	struct spare_grant_info gi;
	struct spared_owner *o;
	struct spare_grant gr;
	bool found;
	size_t s;
	int ret;

	*known = false;
	if (!owner || !owner[0] || strlen(owner) >= SPARE_GRANT_CLIENT_LEN)
		return SPARE_GRANT_WRONG_CLIENT;
	if (hex) {
		char text[SPARE_GRANT_HEX_LEN + 1];

		if (len != SPARE_GRANT_HEX_LEN)
			return SPARE_GRANT_MALFORMED;
		memcpy(text, buf, len);
		text[len] = 0;
		if (spare_grant_from_hex(text, &gr))
			return SPARE_GRANT_MALFORMED;
	} else {
		if (len != SPARE_GRANT_SIZE)
			return SPARE_GRANT_MALFORMED;
		memcpy(&gr, buf, sizeof(gr));
	}
	ret = spare_grant_check(&gr, &g->keys, g->donor_id, client_id, now, NULL, &gi);
	if (ret)
		return ret;
	if (g->purged_at != now)
		spared_grants_purge(g, now);
	s = id_slot(g, gi.id, &found);
	if (found) {
		struct spared_grant *e = &g->v[g->by_id[s] - 1];

		if (strcmp(e->owner, owner))
			return SPARE_GRANT_REPLAYED;
		/* a renewal (the broker's RENEW_GRANT): the same id, a later
		 * expiry; its slabs stay counted once */
		if (gi.expiry > e->expiry)
			e->expiry = gi.expiry;
		*known = true;
	} else {
		o = owner_find(g, owner);
		ret = entry_add(g, &gi, owner, o, s);
		if (ret)
			return ret;
	}
	if (info)
		*info = gi;
	return SPARE_GRANT_OK;
}

uint64_t spared_grant_budget(const struct spared_grants *g, const char *owner, uint64_t now)
{
	const struct spared_owner *o = owner_find(g, owner);
	uint64_t n = 0;

	if (!o)
		return 0;
	if (g->purged_at == now)	/* nothing in the ledger has expired */
		return o->slabs;
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].expiry > now && !strcmp(g->v[i].owner, owner))
			n += g->v[i].slabs;
	return n;
}

bool spared_grant_held(const struct spared_grants *g, const char *owner, uint64_t token,
		       uint64_t now)
{
	/* every id with this token probes from the same home slot */
	for (size_t i = token_home(g, token); g->by_id[i]; i = (i + 1) & (g->cap - 1)) {
		const struct spared_grant *e = &g->v[g->by_id[i] - 1];

		if (spared_grant_token(e->id) == token && e->expiry > now &&
		    !strcmp(e->owner, owner))
			return true;
	}
	return false;
}
