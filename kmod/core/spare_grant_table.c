// SPDX-License-Identifier: GPL-2.0
/*
 * A device's table of grants: renewals replace, new ids append
 * (spare_grant_table.h).
 */
#include <asm/byteorder.h>
#include <linux/string.h>

#include "spare_grant_table.h"

/* Whether @a and @b lease the same slabs: all but expiry, version, key, signature. */
static bool grant_same_lease(const struct spare_grant *a, const struct spare_grant *b)
{
	return !memcmp(a->client_id, b->client_id, sizeof(a->client_id)) &&
	       !memcmp(a->donor_id, b->donor_id, sizeof(a->donor_id)) &&
	       !memcmp(a->donor_addr, b->donor_addr, sizeof(a->donor_addr)) &&
	       a->slabs == b->slabs;
}

enum spare_grant_fit spare_grant_fit(const struct spare_grant_slot *tab, u32 n,
				     const struct spare_grant *g, u32 *at)
{
	const struct spare_grant *h;
	u32 i;

	for (i = 0; i < n; i++)
		if (!memcmp(tab[i].g.grant_id, g->grant_id, sizeof(g->grant_id)))
			break;
	if (i == n)
		return SPARE_GRANT_FIT_NEW;
	*at = i;
	h = &tab[i].g;
	if (!memcmp(h, g, sizeof(*g)))
		return SPARE_GRANT_FIT_SAME;
	if (!grant_same_lease(h, g))
		return SPARE_GRANT_FIT_CONFLICT;
	if (le64_to_cpu(g->expiry) <= le64_to_cpu(h->expiry))
		return SPARE_GRANT_FIT_STALE;
	return SPARE_GRANT_FIT_RENEW;
}

const char *spare_grant_fit_str(enum spare_grant_fit fit)
{
	switch (fit) {
	case SPARE_GRANT_FIT_CONFLICT:
		return "a grant with this id is held for another client, donor, address or slab count";
	case SPARE_GRANT_FIT_STALE:
		return "a grant with this id is held and ends later: that one is kept";
	default:
		return "grant accepted";
	}
}
