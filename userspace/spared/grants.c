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

int spared_grants_init(struct spared_grants *g, const struct spare_grant_key *key,
		       const char *donor_id, size_t max)
{
	memset(g, 0, sizeof(*g));
	if (!key || !donor_id || !donor_id[0] || strlen(donor_id) >= sizeof(g->donor_id) ||
	    !max)
		return -EINVAL;
	g->v = calloc(max, sizeof(*g->v));
	if (!g->v)
		return -ENOMEM;
	g->key = *key;
	strcpy(g->donor_id, donor_id);
	g->max = max;
	return 0;
}

void spared_grants_free(struct spared_grants *g)
{
	free(g->v);
	sodium_memzero(g, sizeof(*g));
}

size_t spared_grants_purge(struct spared_grants *g, uint64_t now)
{
	size_t i = 0;

	while (i < g->n) {
		if (g->v[i].expiry <= now)
			g->v[i] = g->v[--g->n];
		else
			i++;
	}
	return g->n;
}

static struct spared_grant *find(const struct spared_grants *g, const uint8_t *id)
{
	for (size_t i = 0; i < g->n; i++)
		if (!memcmp(g->v[i].id, id, SPARE_GRANT_ID_LEN))
			return &g->v[i];
	return NULL;
}

int spared_grant_accept(struct spared_grants *g, const void *buf, size_t len, bool hex,
			const char *client_id, const char *owner, uint64_t now,
			struct spare_grant_info *info, bool *known)
{
	struct spare_grant_info gi;
	struct spared_grant *e;
	struct spare_grant gr;
	int ret;

	*known = false;
	if (!owner || !owner[0] || strlen(owner) >= sizeof(e->owner))
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
	ret = spare_grant_verify(&gr, &g->key, 1, g->donor_id, client_id, now, NULL, &gi);
	if (ret)
		return ret;
	spared_grants_purge(g, now);
	e = find(g, gi.id);
	if (e) {
		if (strcmp(e->owner, owner))
			return SPARE_GRANT_REPLAYED;
		*known = true;
	} else {
		if (g->n == g->max)
			return SPARE_GRANT_CACHE_FULL;
		e = &g->v[g->n++];
		memcpy(e->id, gi.id, sizeof(e->id));
		strcpy(e->owner, owner);
		e->slabs = gi.slabs;
		e->expiry = gi.expiry;
	}
	if (info)
		*info = gi;
	return SPARE_GRANT_OK;
}

uint64_t spared_grant_budget(const struct spared_grants *g, const char *owner, uint64_t now)
{
	uint64_t n = 0;

	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].expiry > now && !strcmp(g->v[i].owner, owner))
			n += g->v[i].slabs;
	return n;
}

uint64_t spared_grant_token(const uint8_t id[SPARE_GRANT_ID_LEN])
{
	uint64_t t;

	memcpy(&t, id, sizeof(t));
	return le64toh(t);
}

bool spared_grant_held(const struct spared_grants *g, const char *owner, uint64_t token,
		       uint64_t now)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].expiry > now && !strcmp(g->v[i].owner, owner) &&
		    spared_grant_token(g->v[i].id) == token)
			return true;
	return false;
}
