// SPDX-License-Identifier: GPL-2.0
/*
 * spared's slab pool accounting. See pool.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

/* ---- the free lists: each FREE slab is on the one of its kind ---- */

/* Put FREE slab @s at the tail of its kind's list. */
static void free_list_add(struct slab_pool *p, struct slab *s)
{
	struct slab_list *l;

	s->kind = slab_free_kind_of(p, s);
	l = &p->free[s->kind];
	s->prev = l->tail;
	s->next = SLAB_NONE;
	if (l->tail == SLAB_NONE)
		l->head = s->index;
	else
		p->slabs[l->tail].next = s->index;
	l->tail = s->index;
	l->n++;
	p->nfree++;
}

/* Take FREE slab @s off its list (it is about to stop being FREE, or to
 * change kind). */
static void free_list_del(struct slab_pool *p, struct slab *s)
{
	struct slab_list *l = &p->free[s->kind];

	if (s->prev == SLAB_NONE)
		l->head = s->next;
	else
		p->slabs[s->prev].next = s->next;
	if (s->next == SLAB_NONE)
		l->tail = s->prev;
	else
		p->slabs[s->next].prev = s->prev;
	s->prev = s->next = SLAB_NONE;
	l->n--;
	p->nfree--;
}

static struct slab *free_list_first(struct slab_pool *p,
				    enum slab_free_kind kind)
{
	uint32_t i = p->free[kind].head;

	return i == SLAB_NONE ? NULL : &p->slabs[i];
}

/* The partly populated FREE slab populated furthest; spared populates one
 * slab at a time, so this list holds one slab at most in practice. */
static struct slab *free_partial_furthest(struct slab_pool *p)
{
	struct slab *s, *pick = NULL;
	uint32_t i;

	for (i = p->free[SLAB_FREE_PARTIAL].head; i != SLAB_NONE; i = s->next) {
		s = &p->slabs[i];
		if (!pick || s->ready_bytes > pick->ready_bytes)
			pick = s;
	}
	return pick;
}

/* The FREE slab least far along: to populate next (@readiest false,
 * READY left out) or to lend (@readiest true). */
static struct slab *free_pick(struct slab_pool *p, bool readiest)
{
	struct slab *s = readiest ? free_list_first(p, SLAB_FREE_READY) : NULL;

	if (!s)
		s = free_partial_furthest(p);
	if (!s)
		s = free_list_first(p, SLAB_FREE_MAPPED);
	if (!s)
		s = free_list_first(p, SLAB_FREE_COLD);
	return s;
}

void slab_pool_set_ready(struct slab_pool *p, struct slab *s,
			 uint64_t ready_bytes)
{
	if (s->state != SLAB_FREE)
		return;
	free_list_del(p, s);
	s->ready_bytes = ready_bytes < p->slab_size ? ready_bytes : p->slab_size;
	free_list_add(p, s);
}

int slab_pool_init(struct slab_pool *p, uint64_t budget, uint64_t slab_size)
{
	return slab_pool_init_cap(p, budget, slab_size, UINT_MAX);
}

int slab_pool_init_cap(struct slab_pool *p, uint64_t budget,
		       uint64_t slab_size, unsigned int cap)
{
	uint64_t n;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	if (!slab_size || (slab_size & (slab_size - 1))) {
		errno = EINVAL;
		return -1;
	}
	n = budget / slab_size;
	if (n == 0 || n > 1u << 20) {
		errno = EINVAL;
		return -1;
	}
	p->slabs = calloc(n, sizeof(*p->slabs));
	if (!p->slabs) {
		errno = ENOMEM;
		return -1;
	}
	p->slab_size = slab_size;
	p->nslabs = (unsigned int)n;
	p->cap = cap < p->nslabs ? cap : p->nslabs;
	p->noffline = p->nslabs - p->cap;
	for (i = 0; i < SLAB_FREE_KINDS; i++)
		p->free[i].head = p->free[i].tail = SLAB_NONE;
	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		s->index = i;
		s->prev = s->next = SLAB_NONE;
		s->state = i < p->cap ? SLAB_FREE : SLAB_OFFLINE;
		if (s->state == SLAB_FREE)
			free_list_add(p, s);
	}
	return 0;
}

unsigned int slab_pool_set_cap(struct slab_pool *p, unsigned int cap)
{
	unsigned int i, grown = 0;

	p->cap = cap < p->nslabs ? cap : p->nslabs;
	for (i = 0; i < p->nslabs && slab_pool_in_service(p) < p->cap; i++) {
		struct slab *s = &p->slabs[i];

		if (s->state != SLAB_OFFLINE)
			continue;
		s->state = SLAB_FREE;
		p->noffline--;
		free_list_add(p, s);
		grown++;
	}
	p->stats.grown += grown;
	return grown;
}

static void slab_make_offline(struct slab_pool *p, struct slab *s)
{
	free_list_del(p, s);
	s->state = SLAB_OFFLINE;
	s->ready_bytes = 0;	/* the caller unmaps its memory */
	p->noffline++;
	p->stats.retired++;
}

struct slab *slab_pool_retire_free(struct slab_pool *p)
{
	struct slab *pick = NULL;
	int k;

	if (slab_pool_in_service(p) <= p->cap)
		return NULL;
	for (k = SLAB_FREE_KINDS - 1; k >= 0 && !pick; k--)
		pick = free_list_first(p, (enum slab_free_kind)k);
	if (pick)
		slab_make_offline(p, pick);
	return pick;
}

void slab_pool_destroy(struct slab_pool *p)
{
	free(p->slabs);
	memset(p, 0, sizeof(*p));
}

struct slab *slab_pool_find(struct slab_pool *p, const void *owner,
			    uint32_t client_id)
{
	unsigned int i;

	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (slab_held(s) && s->owner == owner &&
		    s->client_id == client_id)
			return s;
	}
	return NULL;
}

struct slab *slab_pool_next_unready(struct slab_pool *p, unsigned int want)
{
	if (slab_pool_ready(p) >= want)
		return NULL;
	return free_pick(p, false);
}

struct slab *slab_pool_take(struct slab_pool *p, const void *owner,
			    uint32_t client_id)
{
	struct slab *pick = free_pick(p, true);

	if (!pick) {
		p->stats.refusals++;
		return NULL;
	}
	free_list_del(p, pick);
	pick->state = SLAB_LENT;
	pick->owner = owner;
	pick->client_id = client_id;
	pick->lent_seq = ++p->next_seq;
	pick->deadline_ms = 0;
	pick->accesses = 0;
	p->stats.maps++;
	return pick;
}

struct slab *slab_pool_take_index(struct slab_pool *p, unsigned int index,
				  const void *owner, uint32_t client_id)
{
	struct slab *s;

	if (index >= p->nslabs)
		return NULL;
	s = &p->slabs[index];
	if (s->state == SLAB_OFFLINE) {
		s->state = SLAB_FREE;
		p->noffline--;
		free_list_add(p, s);
		p->stats.grown++;
	}
	if (s->state != SLAB_FREE)
		return NULL;
	free_list_del(p, s);
	s->state = SLAB_LENT;
	s->owner = owner;
	s->client_id = client_id;
	s->lent_seq = ++p->next_seq;
	s->deadline_ms = 0;
	s->accesses = 0;
	return s;
}

static void slab_make_free(struct slab_pool *p, struct slab *s)
{
	if (s->state == SLAB_EVICTING)
		p->nevicting--;
	s->state = SLAB_FREE;
	s->owner = NULL;
	s->client_id = 0;
	s->deadline_ms = 0;
	s->mr = NULL;
	s->sampled = s->replied = false;
	s->kept = false;
	s->uncovered_ms = 0;
	s->ready_bytes = 0;	/* scrubbed by the caller: populated no more */
	free_list_add(p, s);
}

void slab_pool_untake(struct slab_pool *p, struct slab *s)
{
	if (!slab_held(s))
		return;
	slab_make_free(p, s);
	p->stats.maps--;
	p->stats.refusals++;
}

void slab_pool_put(struct slab_pool *p, struct slab *s,
		   enum slab_release_why why)
{
	if (!slab_held(s))
		return;
	slab_make_free(p, s);
	if (slab_pool_in_service(p) > p->cap)
		slab_make_offline(p, s);
	switch (why) {
	case SLAB_RELEASE_UNMAP:
		p->stats.unmaps++;
		break;
	case SLAB_RELEASE_REVOKE:
		p->stats.revocations++;
		break;
	case SLAB_RELEASE_RECLAIM:
		p->stats.reclaims++;
		break;
	}
}

struct slab *slab_pool_pick_victim(struct slab_pool *p)
{
	struct slab *pick = NULL;
	unsigned int i;

	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (s->state != SLAB_LENT)
			continue;
		/* The donor's needs win: held slabs go back first. */
		if (!pick || (s->kept && !pick->kept) ||
		    (s->kept == pick->kept && s->lent_seq < pick->lent_seq))
			pick = s;
	}
	return pick;
}

void slab_pool_mark_evicting(struct slab_pool *p, struct slab *s,
			     uint64_t deadline_ms)
{
	if (s->state != SLAB_LENT)
		return;
	s->state = SLAB_EVICTING;
	s->deadline_ms = deadline_ms;
	p->nevicting++;
	p->stats.evictions++;
}

struct slab *slab_pool_next_expired(struct slab_pool *p, uint64_t now_ms)
{
	unsigned int i;

	if (!p->nevicting)
		return NULL;
	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (s->state == SLAB_EVICTING && s->deadline_ms <= now_ms)
			return s;
	}
	return NULL;
}

uint64_t slab_pool_next_deadline(const struct slab_pool *p)
{
	uint64_t best = 0;
	unsigned int i;

	if (!p->nevicting)
		return 0;
	for (i = 0; i < p->nslabs; i++) {
		const struct slab *s = &p->slabs[i];

		if (s->state == SLAB_EVICTING &&
		    (!best || s->deadline_ms < best))
			best = s->deadline_ms;
	}
	return best;
}

struct slab *slab_pool_next_owned(struct slab_pool *p, const void *owner,
				  struct slab *prev)
{
	unsigned int i = prev ? prev->index + 1 : 0;

	for (; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (slab_held(s) && s->owner == owner)
			return s;
	}
	return NULL;
}

unsigned int slab_pool_reown(struct slab_pool *p, const void *from,
			     const void *to)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (slab_held(s) && s->owner == from) {
			s->owner = to;
			n++;
		}
	}
	return n;
}

const char *slab_state_name(enum slab_state st)
{
	switch (st) {
	case SLAB_FREE:		return "free";
	case SLAB_LENT:		return "lent";
	case SLAB_EVICTING:	return "evicting";
	case SLAB_OFFLINE:	return "offline";
	}
	return "?";
}
