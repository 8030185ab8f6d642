// SPDX-License-Identifier: GPL-2.0
/*
 * spared's backstop for lapsed grants (backstop.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backstop.h"

int spared_backstop_init(struct spared_backstop *b, unsigned int nslabs)
{
	memset(b, 0, sizeof(*b));
	b->order = calloc(nslabs ? nslabs : 1, sizeof(*b->order));
	b->owners = calloc(nslabs ? nslabs : 1, sizeof(*b->owners));
	if (!b->order || !b->owners) {
		spared_backstop_free(b);
		return -ENOMEM;
	}
	b->nslabs = nslabs;
	return 0;
}

void spared_backstop_free(struct spared_backstop *b)
{
	free(b->order);
	free(b->owners);
	memset(b, 0, sizeof(*b));
}

static int by_lent_seq(const void *a, const void *b)
{
	const struct spared_backstop_slab *x = a, *y = b;

	return x->lent_seq < y->lent_seq ? -1 : x->lent_seq > y->lent_seq;
}

/* @name's entry among the @n owners met so far in this look, added if new. */
static struct spared_backstop_owner *owner_entry(struct spared_backstop *b, unsigned int *n,
						 const char *name, struct spared_grants *g,
						 uint64_t now_s)
{
	struct spared_backstop_owner *o;

	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(b->owners[i].name, name))
			return &b->owners[i];
	o = &b->owners[(*n)++];
	o->name = name;
	o->budget = spared_grant_budget(g, name, now_s);
	o->used = 0;
	return o;
}

unsigned int spared_backstop_scan(struct spared_backstop *b, struct slab_pool *p,
				  struct spared_grants *g, spared_backstop_owner_fn owner_of,
				  uint64_t now_s, uint64_t now_ms, uint64_t grace_ms)
{
	unsigned int i, n = 0, nowners = 0, due = 0;
	const void *last_holder = NULL;
	struct spared_backstop_owner *o = NULL;

	if (b->nslabs < p->nslabs)
		return 0;	/* not reached: sized for this pool */
	spared_grants_purge(g, now_s);	/* the budgets below are then O(1) */
	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[i];

		if (s->state != SLAB_LENT || s->kept || !s->owner || !owner_of(s->owner)) {
			s->uncovered_ms = 0;
			continue;
		}
		b->order[n].lent_seq = s->lent_seq;
		b->order[n++].index = i;
	}
	qsort(b->order, n, sizeof(*b->order), by_lent_seq);
	for (i = 0; i < n; i++) {
		struct slab *s = &p->slabs[b->order[i].index];

		if (s->owner != last_holder) {
			o = owner_entry(b, &nowners, owner_of(s->owner), g, now_s);
			last_holder = s->owner;
		}
		if (o->used < o->budget) {
			o->used++;
			s->uncovered_ms = 0;
			continue;
		}
		if (!s->uncovered_ms)
			s->uncovered_ms = now_ms;
		if (spared_backstop_due(s, now_ms, grace_ms))
			due++;
	}
	return due;
}
