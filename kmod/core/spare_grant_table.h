/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's table of grants (spare_grants.c): what writing one more grant
 * does to it. Pure logic, tested by spare_grant_table_kunit.c.
 *
 * A grant's id is its identity. The broker renews a grant (RENEW_GRANT,
 * Documentation/protocol.md) by re-issuing the same id, client, donor,
 * address and slab count with a later expiry (and, when it has rotated
 * keys, another version, key id and signature). So a grant whose id the
 * table holds replaces the held one in place instead of taking a new entry:
 * renewals every two thirds of a lease would otherwise fill the table.
 */
#ifndef SPARE_GRANT_TABLE_H
#define SPARE_GRANT_TABLE_H

#include <linux/in.h>
#include <linux/types.h>

#include "../uapi/spare_grant.h"

struct spare_grant_slot {
	struct spare_grant g;
	struct sockaddr_in addr;	/* its donor */
	u64 token;
};

/*
 * What a grant written to the table is to the grants it holds:
 *  NEW:      an id the table does not hold: appended;
 *  RENEW:    a held id, the same fields, a later expiry: replaces the held
 *            one;
 *  SAME:     the held grant, byte for byte;
 *  CONFLICT: a held id, but another client, donor, address or slab count:
 *            refused;
 *  STALE:    a held id, the same fields, an expiry not later: the held one
 *            is kept (a renewal with a shorter lease; the donor keeps the
 *            later one too).
 */
enum spare_grant_fit {
	SPARE_GRANT_FIT_NEW,
	SPARE_GRANT_FIT_RENEW,
	SPARE_GRANT_FIT_SAME,
	SPARE_GRANT_FIT_CONFLICT,
	SPARE_GRANT_FIT_STALE,
};

/*
 * What grant @g (already checked for form) is to the @n grants of @tab;
 * for every answer but SPARE_GRANT_FIT_NEW, *@at is the held one's index.
 */
enum spare_grant_fit spare_grant_fit(const struct spare_grant_slot *tab, u32 n,
				     const struct spare_grant *g, u32 *at);

/* What becomes of a grant of @fit (CONFLICT, STALE), for the log. */
const char *spare_grant_fit_str(enum spare_grant_fit fit);

#endif /* SPARE_GRANT_TABLE_H */
