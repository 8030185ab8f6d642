/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The donor's backstop for lapsed grants (protocol.md, "Taking excess
 * back", step 4). Pure: no I/O, no logging; the caller passes the clocks.
 *
 * A donor that lends against grants lets a client keep a slab already
 * mapped when the grant behind it lapses: the broker re-issues a grant
 * (the same id) up to one lease after its expiry, and the renewed grant
 * covers the slab again. A client whose renewals stopped, or whom the
 * broker no longer renews, would otherwise keep the slab for as long as
 * its driver likes. The backstop asks such slabs back, the normal way
 * (EVICT, the client's evict-deadline to move or drop, then revoke).
 *
 * Coverage. At each look, an owner's unexpired grants cover as many of its
 * LENT slabs as they cover together (spared_grant_budget()), its
 * longest-lent first. A slab not covered is stamped with the time it was
 * first seen so (slab.uncovered_ms); covered again (a renewal, or a new
 * grant, arrived) the stamp is cleared. A slab uncovered for @grace_ms or
 * longer is due: the caller EVICTs it.
 *
 * Not looked at: slabs being evicted already (they cover nothing and are
 * on their way back), slabs held for a resume (kept: resume-hold bounds
 * them, and a donor restart empties the ledger, spared.md), and slabs
 * whose owner the caller says to skip (its session is gone). A donor
 * without grants (open mode) never calls this.
 */
#ifndef SPARED_BACKSTOP_H
#define SPARED_BACKSTOP_H

#include <stdbool.h>
#include <stdint.h>

#include "grants.h"
#include "pool.h"

/* The grants' owner of the slab holder @holder (slab.owner), or NULL to
 * leave its slabs alone. */
typedef const char *(*spared_backstop_owner_fn)(const void *holder);

struct spared_backstop_owner {
	const char	*name;
	uint64_t	budget;		/* slabs its unexpired grants cover */
	uint64_t	used;		/* of them, given to its slabs so far */
};

/* Scratch space for one pool, so that a look allocates nothing. */
struct spared_backstop {
	unsigned int			nslabs;
	struct spared_backstop_slab {
		uint64_t	lent_seq;
		unsigned int	index;
	}				*order;
	struct spared_backstop_owner	*owners;
};

/* 0, or -ENOMEM. */
int spared_backstop_init(struct spared_backstop *b, unsigned int nslabs);
void spared_backstop_free(struct spared_backstop *b);

/*
 * One look at pool @p against ledger @g (purged at @now_s first): stamp
 * and clear the slabs' uncovered_ms (@now_ms, the monotonic clock; never
 * 0). Returns how many slabs are due (spared_backstop_due()).
 */
unsigned int spared_backstop_scan(struct spared_backstop *b, struct slab_pool *p,
				  struct spared_grants *g, spared_backstop_owner_fn owner_of,
				  uint64_t now_s, uint64_t now_ms, uint64_t grace_ms);

/* Is @s, as the last look left it, due to be asked back at @now_ms? */
static inline bool spared_backstop_due(const struct slab *s, uint64_t now_ms,
				       uint64_t grace_ms)
{
	return s->state == SLAB_LENT && !s->kept && s->uncovered_ms &&
	       now_ms - s->uncovered_ms >= grace_ms;
}

#endif /* SPARED_BACKSTOP_H */
