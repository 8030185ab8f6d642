/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's lending policy: how much of this host's memory to lend now, and
 * which lent slabs to ask back. Pure: no I/O, no clock reads, no allocation;
 * the daemon (and tools/lendsim) pass the readings and the time in, and own
 * the random state. Documentation/spared.md, "Lending what is idle".
 *
 * The pool has a capacity (slabs that may be lent) between min_slabs and
 * max_slabs. Each call of lend_decide() looks at one reading:
 *
 *   - Pressure: MemAvailable below the headroom (counting slabs already being
 *     evicted as memory on its way back), a PSI trigger event, or PSI some or
 *     full avg10 at or above its threshold. The unlent capacity is released
 *     at once (it backs no page, but would be lent next), then lent slabs are
 *     evicted: as many as the headroom deficit needs, or one batch of E when
 *     only PSI complains and no eviction is already in flight.
 *   - Shortfall without pressure: unlent capacity that MemAvailable above the
 *     headroom could no longer back is released.
 *   - Idle: MemAvailable at least grow_margin plus one slab above the
 *     headroom (beyond what the unlent capacity would take), PSI some avg10
 *     below psi_some_idle, for idle_ms in a row. The margin is a band
 *     between taking back and lending more, against churn. Then the capacity grows by
 *     at most grow_step slabs, and the idle clock restarts, so growth comes
 *     in steps idle_ms apart (hysteresis: one busy reading resets it).
 *   - Otherwise hold.
 *
 * min_slabs is a floor: the capacity never shrinks below it (the operator
 * promised it), and grows to it at once.
 */
#ifndef SPARED_LEND_H
#define SPARED_LEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_rng.h"

struct lend_params {
	uint64_t	slab_size;	/* bytes */
	uint64_t	headroom;	/* bytes MemAvailable must keep */
	uint64_t	grow_margin;	/* growth needs this much above it too */
	unsigned int	min_slabs;
	unsigned int	max_slabs;
	double		psi_some_high;	/* % avg10 that means pressure */
	double		psi_full_high;
	double		psi_some_idle;	/* % avg10 below which memory is idle */
	uint64_t	idle_ms;	/* idle this long before growing */
	unsigned int	grow_step;	/* slabs per growth step */
	unsigned int	evict_batch;	/* E: evicted per PSI-only event */
};

/* One reading of the host and the pool. */
struct lend_input {
	uint64_t	now_ms;		/* any monotonic clock */
	uint64_t	mem_available;	/* bytes */
	bool		psi_valid;	/* false: no PSI, MemAvailable only */
	double		psi_some_avg10;	/* % */
	double		psi_full_avg10;
	unsigned int	psi_events;	/* trigger events since the last call */
	unsigned int	cap;		/* slabs that may be lent now */
	unsigned int	lent;		/* lent, including evicting */
	unsigned int	evicting;	/* asked back, not yet returned */
};

/* What lend_decide() remembers between calls; zero it to start. */
struct lend_state {
	uint64_t	idle_since_ms;	/* 0: not idle */
	bool		idle;
};

enum lend_action {
	LEND_HOLD,
	LEND_GROW,	/* grow the capacity by .grow */
	LEND_RELEASE,	/* drop .release unlent slabs from the capacity */
	LEND_EVICT,	/* .release unlent, then evict .evict lent slabs */
};

struct lend_decision {
	enum lend_action action;
	bool		pressure;
	unsigned int	grow;
	unsigned int	release;
	unsigned int	evict;
};

/* NULL, or why @p is unusable (for the config check). */
const char *lend_params_check(const struct lend_params *p);

/* Decide on one reading; updates @st. */
struct lend_decision lend_decide(const struct lend_params *p,
				 struct lend_state *st,
				 const struct lend_input *in);

const char *lend_action_name(enum lend_action a);

/* ---- batch eviction choice ---- */

/*
 * Choose min(want, n) distinct entries of 0..n-1 uniformly at random into
 * out[] (partial Fisher-Yates over @scratch, which holds n entries). Returns
 * how many were chosen.
 */
size_t lend_sample(size_t n, size_t want, struct spare_rng *rng,
		   uint32_t *scratch, uint32_t *out);

/* A sampled lent slab, after its ACTIVITY_QUERY. */
struct lend_candidate {
	uint32_t	id;		/* the caller's slab index */
	bool		replied;	/* ACTIVITY_REPLY came before the timeout */
	uint64_t	accesses;	/* pages touched since the last query */
	uint64_t	lent_seq;	/* order of lending: lower is older */
};

/*
 * Order @c[0..n) so that the first min(e, n) are the ones to evict: the E
 * least active. A candidate whose client did not reply in time counts as
 * idle (zero accesses): the donor cannot wait for a silent client before its
 * own jobs stall, and a client too slow to answer a query is the least
 * likely to be using the slab hard. Ties go to the longest-lent slab, then
 * to the lower id. Returns min(e, n).
 */
size_t lend_choose_victims(struct lend_candidate *c, size_t n, size_t e);

/* ---- readings (parsing only: the caller reads the files) ---- */

/* MemAvailable out of /proc/meminfo's text, in bytes. 0, or -1 if absent. */
int lend_parse_meminfo(const char *text, uint64_t *avail);

/* some and full avg10 out of a PSI file's text (/proc/pressure/memory or a
 * cgroup's memory.pressure); a missing "full" line reads 0. 0 or -1. */
int lend_parse_psi(const char *text, double *some_avg10, double *full_avg10);

#endif /* SPARED_LEND_H */
