/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's slab pool: the accounting of a donor's memory budget.
 *
 * Pure logic (no RDMA, no memory mapping) so that it is unit-tested on the
 * host. The budget is cut into nslabs slabs of slab_size bytes; each slab is
 * FREE, LENT to one owner (a client session, opaque here) under the
 * owner's slab id, or EVICTING: lent, asked back, to be revoked at a
 * deadline unless the owner releases it first.
 *
 * The pool can grow and shrink (spared lends what is idle, lend.h): nslabs
 * slots exist (max-lend), of which cap are in service. A slot out of
 * service is OFFLINE, with no memory behind it. Shrinking retires FREE
 * slots at once (the caller unmaps their memory); a lent slot above the
 * capacity is retired when it comes back (unmapped, revoked or reclaimed),
 * so an evicted slab is never lent again while the host needs its memory.
 */
#ifndef SPARED_POOL_H
#define SPARED_POOL_H

#include <stdbool.h>
#include <stdint.h>

enum slab_state {
	SLAB_FREE,
	SLAB_LENT,
	SLAB_EVICTING,
	SLAB_OFFLINE,	/* out of service: not lendable, no memory */
};

/*
 * How far a FREE slab's memory is along, readiest last. The pool keeps a
 * list of the FREE slabs of each kind, so that taking a slab, and finding
 * the next one to populate, look at one list head (or the few partly
 * populated slabs: spared populates one at a time) instead of every slab.
 */
enum slab_free_kind {
	SLAB_FREE_COLD,		/* no memory mapped */
	SLAB_FREE_MAPPED,	/* mapped, nothing populated */
	SLAB_FREE_PARTIAL,	/* populated in part (being populated) */
	SLAB_FREE_READY,	/* populated whole: a MAP only registers it */
	SLAB_FREE_KINDS,
};

#define SLAB_NONE	UINT32_MAX	/* no slab: the end of a free list */

struct slab_list {
	uint32_t	head, tail;	/* slab indexes, or SLAB_NONE */
	unsigned int	n;
};

struct slab {
	unsigned int	index;
	enum slab_state	state;
	void		*mem;		/* NULL until first lent; kept mapped after */
	int		memfd;		/* the memfd behind mem, if mem */
	/*
	 * FREE: bytes of mem populated ahead of a MAP, from the start
	 * (slab_pool_next_unready()); slab_size: ready, a MAP only registers
	 * it. 0 when not mapped, and once lent (released memory is scrubbed).
	 * Changed only by the pool (slab_pool_set_ready()) while FREE.
	 */
	uint64_t	ready_bytes;
	/* FREE: its place on the free list of its kind (pool.c) */
	enum slab_free_kind kind;
	uint32_t	prev, next;
	void		*mr;		/* the verbs layer's registration, if lent */
	const void	*owner;		/* session holding it, if not FREE */
	uint32_t	client_id;	/* the owner's slab id */
	uint64_t	lent_seq;	/* order of lending, for victim choice */
	uint64_t	deadline_ms;	/* EVICTING: revoke at this time */
	uint64_t	accesses;	/* last ACTIVITY_REPLY */
	bool		sampled;	/* in the eviction batch being queried */
	bool		replied;	/* ... and its client answered */
	/*
	 * Held for a resume (pager restart): the owner's session ended
	 * without UNMAP and asked for its slabs to be kept; the memory keeps
	 * its contents, registered for no one, until a new session of the
	 * same client claims it with MAP or the hold ends. Still LENT: it
	 * counts against the budget, and it is the first slab given back.
	 */
	bool		kept;
	/* Lent against grants: when its owner's grants were first seen not
	 * to cover it (backstop.h; spare_now_ms()), 0 while they do. */
	uint64_t	uncovered_ms;
};

struct slab_pool_stats {
	uint64_t	maps;		/* slabs lent */
	uint64_t	unmaps;		/* slabs given back by their owner */
	uint64_t	evictions;	/* EVICTs sent */
	uint64_t	revocations;	/* slabs revoked at the deadline */
	uint64_t	reclaims;	/* slabs taken back from a dead owner */
	uint64_t	refusals;	/* MAPs refused for lack of space */
	uint64_t	grown;		/* slots brought into service */
	uint64_t	retired;	/* slots taken out of service */
};

struct slab_pool {
	uint64_t	slab_size;
	unsigned int	nslabs;
	unsigned int	nfree;		/* FREE: the sum of the lists' n */
	unsigned int	nevicting;
	unsigned int	noffline;
	unsigned int	cap;		/* slots wanted in service */
	uint64_t	next_seq;
	struct slab	*slabs;
	/* FREE slabs by kind, each list in the order they became that kind */
	struct slab_list free[SLAB_FREE_KINDS];
	struct slab_pool_stats stats;
};

/*
 * Cut @budget bytes into slabs of @slab_size (a power of two). Returns 0,
 * or -1 with errno EINVAL (no whole slab fits) or ENOMEM.
 */
int slab_pool_init(struct slab_pool *p, uint64_t budget, uint64_t slab_size);
/*
 * A pool that can grow to @max_bytes, with @cap slabs in service at first
 * (the others OFFLINE). Same errors as slab_pool_init().
 */
int slab_pool_init_cap(struct slab_pool *p, uint64_t max_bytes,
		       uint64_t slab_size, unsigned int cap);
void slab_pool_destroy(struct slab_pool *p);

/* Slabs lent (LENT or EVICTING). */
static inline unsigned int slab_pool_lent(const struct slab_pool *p)
{
	return p->nslabs - p->nfree - p->noffline;
}

/* Slots in service now (FREE, LENT or EVICTING). */
static inline unsigned int slab_pool_in_service(const struct slab_pool *p)
{
	return p->nslabs - p->noffline;
}

/* The kind FREE slab @s is, from its fields (the list it belongs on). */
static inline enum slab_free_kind slab_free_kind_of(const struct slab_pool *p,
						    const struct slab *s)
{
	if (s->ready_bytes >= p->slab_size)
		return SLAB_FREE_READY;
	if (s->ready_bytes)
		return SLAB_FREE_PARTIAL;
	return s->mem ? SLAB_FREE_MAPPED : SLAB_FREE_COLD;
}

/* FREE slabs populated whole (ready for a MAP). */
static inline unsigned int slab_pool_ready(const struct slab_pool *p)
{
	return p->free[SLAB_FREE_READY].n;
}

/* FREE slabs populated in part. */
static inline unsigned int slab_pool_populating(const struct slab_pool *p)
{
	return p->free[SLAB_FREE_PARTIAL].n;
}

static inline bool slab_held(const struct slab *s)
{
	return s->state == SLAB_LENT || s->state == SLAB_EVICTING;
}

/*
 * The memory of FREE slab @s is mapped (s->mem) and populated from its
 * start up to @ready_bytes (at most slab_size; 0: mapped only): the pool
 * files it as that kind. A slab that is not FREE is left alone.
 */
void slab_pool_set_ready(struct slab_pool *p, struct slab *s,
			 uint64_t ready_bytes);

/*
 * Set the capacity (clamped to nslabs) and bring OFFLINE slots into service
 * up to it. Slots above it are retired with slab_pool_retire_free() now, or
 * by slab_pool_put() when they come back. Returns the slots brought in.
 */
unsigned int slab_pool_set_cap(struct slab_pool *p, unsigned int cap);

/*
 * While more slots are in service than the capacity, take a FREE one out
 * (the readiest: the host gets the most memory back) and return it: the caller unmaps s->mem and
 * clears it. NULL when nothing more can be retired now.
 */
struct slab *slab_pool_retire_free(struct slab_pool *p);

/* The slab @owner holds under @client_id, or NULL. */
struct slab *slab_pool_find(struct slab_pool *p, const void *owner,
			    uint32_t client_id);

/*
 * Lend a free slab to @owner as @client_id; prefers a ready slab (its
 * memory populated ahead), then the one populated furthest, then one whose
 * memory is mapped, then the one free longest. The slab keeps its
 * ready_bytes: the caller populates the rest. Returns NULL (and counts a refusal) if none is free.
 * The caller must not lend the same @client_id twice (check
 * slab_pool_find).
 */
struct slab *slab_pool_take(struct slab_pool *p, const void *owner,
			    uint32_t client_id);

/*
 * Lend slot @index to @owner as @client_id: a slab a restarted spared
 * takes over from its earlier image (keep.h), held for a resume. The slot
 * must be FREE or OFFLINE (brought into service: it is retired when it
 * comes back if the pool is above its capacity then). Returns NULL if the
 * slot does not exist or is lent already.
 */
struct slab *slab_pool_take_index(struct slab_pool *p, unsigned int index,
				  const void *owner, uint32_t client_id);

/*
 * While fewer than @want FREE slabs are ready (ready_bytes == slab_size),
 * the FREE slab to populate next: the one populated furthest, else one
 * whose memory is mapped, else the one free longest. NULL when @want are
 * ready (or every FREE slab is), without looking at any slab. So MAPs
 * find memory that is already there: the donor populates it in its idle
 * time (slab_pool_set_ready() after each piece), a MAP only registers it.
 */
struct slab *slab_pool_next_unready(struct slab_pool *p, unsigned int want);

/* Undo slab_pool_take() when the caller could not finish lending. */
void slab_pool_untake(struct slab_pool *p, struct slab *s);

enum slab_release_why {
	SLAB_RELEASE_UNMAP,	/* the owner gave it back */
	SLAB_RELEASE_REVOKE,	/* eviction deadline passed */
	SLAB_RELEASE_RECLAIM,	/* the owner went away */
};

/* Return a lent or evicting slab to the free list, or retire it (OFFLINE)
 * if the pool is above its capacity: then the caller unmaps s->mem. The
 * caller has already revoked access and scrubbed the memory. */
void slab_pool_put(struct slab_pool *p, struct slab *s,
		   enum slab_release_why why);

/* Pick the slab to evict next: a slab held for a resume (kept) first, else
 * the longest-lent slab not already being evicted; NULL if none. */
struct slab *slab_pool_pick_victim(struct slab_pool *p);

/* Mark @s as being evicted, to be revoked at @deadline_ms. */
void slab_pool_mark_evicting(struct slab_pool *p, struct slab *s,
			     uint64_t deadline_ms);

/* An EVICTING slab whose deadline is <= @now_ms, or NULL. */
struct slab *slab_pool_next_expired(struct slab_pool *p, uint64_t now_ms);

/* Earliest eviction deadline, or 0 if nothing is being evicted. */
uint64_t slab_pool_next_deadline(const struct slab_pool *p);

/* Iterate over the slabs @owner holds: start with NULL. */
struct slab *slab_pool_next_owned(struct slab_pool *p, const void *owner,
				  struct slab *prev);

/* Give every slab @from holds to @to (a resumed session adopts a held
 * one's slabs). Returns how many. */
unsigned int slab_pool_reown(struct slab_pool *p, const void *from,
			     const void *to);

const char *slab_state_name(enum slab_state st);

#endif /* SPARED_POOL_H */
