// SPDX-License-Identifier: GPL-2.0
/*
 * spared's lending policy and batch eviction choice. See lend.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lend.h"

const char *lend_params_check(const struct lend_params *p)
{
	if (!p->slab_size)
		return "slab size is zero";
	if (p->min_slabs > p->max_slabs)
		return "min-lend is above max-lend";
	if (!p->max_slabs)
		return "max-lend is below one slab";
	if (!p->grow_step)
		return "lend-grow-step is zero";
	if (!p->evict_batch)
		return "evict-batch is zero";
	if (p->psi_some_idle > p->psi_some_high)
		return "psi-some-idle is above psi-some";
	return NULL;
}

static unsigned int umin(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

struct lend_decision lend_decide(const struct lend_params *p,
				 struct lend_state *st,
				 const struct lend_input *in)
{
	struct lend_decision dec = { .action = LEND_HOLD };
	const uint64_t slab = p->slab_size;
	/* Memory that will be free once the slabs asked back return. */
	const uint64_t avail = in->mem_available + (uint64_t)in->evicting * slab;
	const unsigned int lent = umin(in->lent, in->cap);
	const unsigned int unlent = in->cap - lent;
	const unsigned int above_floor =
		in->cap > p->min_slabs ? in->cap - p->min_slabs : 0;
	uint64_t room, spare;
	bool psi_hot = false;

	if (in->psi_valid)
		psi_hot = in->psi_events > 0 ||
			  in->psi_some_avg10 >= p->psi_some_high ||
			  in->psi_full_avg10 >= p->psi_full_high;
	dec.pressure = psi_hot || avail < p->headroom;

	if (in->cap < p->min_slabs) {
		st->idle = false;
		dec.action = LEND_GROW;
		dec.grow = p->min_slabs - in->cap;
		return dec;
	}

	if (dec.pressure) {
		unsigned int need = 0, evictable;

		st->idle = false;
		if (avail < p->headroom)
			need = (unsigned int)((p->headroom - avail + slab - 1) / slab);
		else if (!in->evicting)
			need = p->evict_batch;	/* PSI alone: one batch at a time */
		dec.release = umin(unlent, above_floor);
		evictable = lent - umin(in->evicting, lent);
		dec.evict = umin(umin(need, evictable), above_floor - dec.release);
		if (dec.evict)
			dec.action = LEND_EVICT;
		else if (dec.release)
			dec.action = LEND_RELEASE;
		return dec;
	}

	/* No pressure. Can MemAvailable above the headroom still back the
	 * unlent capacity (it is what would be lent next)? */
	room = (avail - p->headroom) / slab;
	if (unlent > room) {
		st->idle = false;
		dec.release = umin(unlent - (unsigned int)room, above_floor);
		if (dec.release)
			dec.action = LEND_RELEASE;
		return dec;
	}
	spare = room - unlent;
	/* The band: lend more only with grow_margin to spare beyond that. */
	spare = spare > p->grow_margin / slab ? spare - p->grow_margin / slab : 0;
	if (!spare || in->cap >= p->max_slabs ||
	    (in->psi_valid && in->psi_some_avg10 >= p->psi_some_idle)) {
		st->idle = false;
		return dec;
	}
	if (!st->idle) {
		st->idle = true;
		st->idle_since_ms = in->now_ms;
		return dec;
	}
	if (in->now_ms - st->idle_since_ms < p->idle_ms)
		return dec;
	dec.grow = umin(p->grow_step, p->max_slabs - in->cap);
	if (spare < dec.grow)
		dec.grow = (unsigned int)spare;
	dec.action = LEND_GROW;
	st->idle_since_ms = in->now_ms;	/* the next step after idle_ms more */
	return dec;
}

const char *lend_action_name(enum lend_action a)
{
	switch (a) {
	case LEND_HOLD:		return "hold";
	case LEND_GROW:		return "grow";
	case LEND_RELEASE:	return "release";
	case LEND_EVICT:	return "evict";
	}
	return "?";
}

/* ---- batch eviction choice ---- */

size_t lend_sample(size_t n, size_t want, struct spare_rng *rng,
		   uint32_t *scratch, uint32_t *out)
{
	size_t i, k = want < n ? want : n;

	for (i = 0; i < n; i++)
		scratch[i] = (uint32_t)i;
	for (i = 0; i < k; i++) {
		size_t j = i + (size_t)spare_rng_below(rng, n - i);
		uint32_t t = scratch[i];

		scratch[i] = scratch[j];
		scratch[j] = t;
		out[i] = scratch[i];
	}
	return k;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct lend_candidate *x = a, *y = b;
	uint64_t ax = x->replied ? x->accesses : 0;
	uint64_t ay = y->replied ? y->accesses : 0;

	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (x->lent_seq != y->lent_seq)
		return x->lent_seq < y->lent_seq ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

size_t lend_choose_victims(struct lend_candidate *c, size_t n, size_t e)
{
	if (n)
		qsort(c, n, sizeof(*c), cand_cmp);
	return e < n ? e : n;
}

/* ---- readings ---- */

int lend_parse_meminfo(const char *text, uint64_t *avail)
{
	const char *line = text;
	uint64_t kb;
	char unit[8];

	while (line && *line) {
		if (!strncmp(line, "MemAvailable:", 13)) {
			if (sscanf(line + 13, " %" SCNu64 " %7s", &kb, unit) != 2 ||
			    strcmp(unit, "kB") || kb > UINT64_MAX / 1024)
				return -1;
			*avail = kb * 1024;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

int lend_parse_psi(const char *text, double *some_avg10, double *full_avg10)
{
	const char *line = text;
	bool some = false;

	*full_avg10 = 0;
	while (line && *line) {
		double v;

		if (!strncmp(line, "some avg10=", 11) &&
		    sscanf(line + 11, "%lf", &v) == 1 && v >= 0) {
			*some_avg10 = v;
			some = true;
		} else if (!strncmp(line, "full avg10=", 11) &&
			   sscanf(line + 11, "%lf", &v) == 1 && v >= 0) {
			*full_avg10 = v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return some ? 0 : -1;
}
