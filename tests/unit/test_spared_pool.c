// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for spared's slab pool (userspace/spared/pool.c) and slab
 * memory (slabmem.c): budget accounting, lending, release paths, eviction
 * deadlines, and memory that is zero when lent again.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hold.h"
#include "pool.h"
#include "slabmem.h"
#include "spare_util.h"
#include "tap.h"

#define MiB (1ULL << 20)

static int owner_a, owner_b;	/* addresses stand for two sessions */

static void test_init_budget(void)
{
	struct slab_pool p;

	EXPECT_EQ(slab_pool_init(&p, 256 * MiB, 64 * MiB), 0);
	EXPECT_EQ(p.nslabs, 4);
	EXPECT_EQ(p.nfree, 4);
	EXPECT_EQ(slab_pool_lent(&p), 0);
	slab_pool_destroy(&p);
	/* A budget that is not a whole number of slabs rounds down. */
	EXPECT_EQ(slab_pool_init(&p, 100 * MiB, 32 * MiB), 0);
	EXPECT_EQ(p.nslabs, 3);
	slab_pool_destroy(&p);
	/* No whole slab, or a slab size that is not a power of two. */
	errno = 0;
	EXPECT_EQ(slab_pool_init(&p, 1 * MiB, 2 * MiB), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(slab_pool_init(&p, 256 * MiB, 3 * MiB), -1);
	EXPECT_EQ(slab_pool_init(&p, 256 * MiB, 0), -1);
}

static void test_take_until_full(void)
{
	struct slab_pool p;
	struct slab *s[3];

	EXPECT_EQ(slab_pool_init(&p, 2 * MiB, MiB), 0);
	s[0] = slab_pool_take(&p, &owner_a, 7);
	s[1] = slab_pool_take(&p, &owner_b, 7);
	s[2] = slab_pool_take(&p, &owner_a, 8);
	EXPECT(s[0] && s[1] && s[0] != s[1]);
	EXPECT(s[2] == NULL);
	EXPECT_EQ(p.nfree, 0);
	EXPECT_EQ(p.stats.maps, 2);
	EXPECT_EQ(p.stats.refusals, 1);
	/* Same client id, different owners: distinct slabs. */
	EXPECT(slab_pool_find(&p, &owner_a, 7) == s[0]);
	EXPECT(slab_pool_find(&p, &owner_b, 7) == s[1]);
	EXPECT(slab_pool_find(&p, &owner_a, 8) == NULL);
	EXPECT_EQ(s[0]->state, SLAB_LENT);
	slab_pool_destroy(&p);
}

static void test_put_and_reuse(void)
{
	struct slab_pool p;
	struct slab *s, *t;
	static char fake_mem;

	EXPECT_EQ(slab_pool_init(&p, 4 * MiB, MiB), 0);
	s = slab_pool_take(&p, &owner_a, 1);
	s->mem = &fake_mem;		/* as if spared had mapped it */
	slab_pool_put(&p, s, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(s->state, SLAB_FREE);
	EXPECT(s->owner == NULL);
	EXPECT_EQ(p.nfree, 4);
	EXPECT_EQ(p.stats.unmaps, 1);
	EXPECT(slab_pool_find(&p, &owner_a, 1) == NULL);
	/* A slab with memory already mapped is preferred. */
	t = slab_pool_take(&p, &owner_b, 1);
	EXPECT(t == s);
	/* Double put is harmless and not counted twice. */
	slab_pool_put(&p, t, SLAB_RELEASE_RECLAIM);
	slab_pool_put(&p, t, SLAB_RELEASE_RECLAIM);
	EXPECT_EQ(p.stats.reclaims, 1);
	EXPECT_EQ(p.nfree, 4);
	/* untake rolls a failed lend back. */
	t = slab_pool_take(&p, &owner_b, 2);
	slab_pool_untake(&p, t);
	EXPECT_EQ(p.nfree, 4);
	EXPECT_EQ(p.stats.maps, 2);
	slab_pool_destroy(&p);
}

static void test_owned_iteration(void)
{
	struct slab_pool p;
	struct slab *s;
	unsigned int n = 0, i;

	EXPECT_EQ(slab_pool_init(&p, 8 * MiB, MiB), 0);
	for (i = 0; i < 5; i++)
		slab_pool_take(&p, i & 1 ? &owner_b : &owner_a, i);
	for (s = slab_pool_next_owned(&p, &owner_a, NULL); s;
	     s = slab_pool_next_owned(&p, &owner_a, s)) {
		EXPECT(s->owner == &owner_a);
		n++;
	}
	EXPECT_EQ(n, 3);
	/* Releasing while iterating (as session teardown does). */
	for (s = slab_pool_next_owned(&p, &owner_b, NULL); s;
	     s = slab_pool_next_owned(&p, &owner_b, s))
		slab_pool_put(&p, s, SLAB_RELEASE_RECLAIM);
	EXPECT_EQ(p.nfree, 8 - 3);
	EXPECT_EQ(p.stats.reclaims, 2);
	slab_pool_destroy(&p);
}

static void test_eviction(void)
{
	struct slab_pool p;
	struct slab *a, *b, *v;

	EXPECT_EQ(slab_pool_init(&p, 4 * MiB, MiB), 0);
	EXPECT(slab_pool_pick_victim(&p) == NULL);
	a = slab_pool_take(&p, &owner_a, 1);
	b = slab_pool_take(&p, &owner_b, 1);
	/* Longest lent first. */
	v = slab_pool_pick_victim(&p);
	EXPECT(v == a);
	slab_pool_mark_evicting(&p, v, 1000);
	EXPECT_EQ(a->state, SLAB_EVICTING);
	EXPECT_EQ(p.stats.evictions, 1);
	/* Marking twice is a no-op. */
	slab_pool_mark_evicting(&p, v, 5);
	EXPECT_EQ(a->deadline_ms, 1000);
	EXPECT_EQ(p.nevicting, 1);
	/* An evicting slab is not picked again. */
	EXPECT(slab_pool_pick_victim(&p) == b);
	slab_pool_mark_evicting(&p, b, 500);
	EXPECT(slab_pool_pick_victim(&p) == NULL);
	EXPECT_EQ(slab_pool_next_deadline(&p), 500);
	EXPECT(slab_pool_next_expired(&p, 499) == NULL);
	EXPECT(slab_pool_next_expired(&p, 500) == b);
	slab_pool_put(&p, b, SLAB_RELEASE_REVOKE);
	EXPECT_EQ(p.stats.revocations, 1);
	EXPECT_EQ(slab_pool_next_deadline(&p), 1000);
	/* The owner answers before the deadline: an ordinary unmap. */
	slab_pool_put(&p, a, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(p.nevicting, 0);
	EXPECT_EQ(slab_pool_next_deadline(&p), 0);
	EXPECT(slab_pool_next_expired(&p, UINT64_MAX) == NULL);
	EXPECT_EQ(p.nfree, 4);
	slab_pool_destroy(&p);
}

static void test_slab_mem_zeroed(void)
{
	size_t size = 2 * MiB + 4096;	/* not a huge page multiple */
	unsigned char *mem;
	int fd = -1;

	mem = slab_mem_alloc(size, &fd);
	EXPECT(mem != NULL);
	if (!mem)
		return;
	/* Fresh memory is zero: never lent un-zeroed the first time. */
	EXPECT_EQ(spare_find_not_byte(mem, size, 0), size);
	memset(mem, 0xa5, size);
	slab_mem_scrub(mem, fd, size);
	EXPECT_EQ(spare_find_not_byte(mem, size, 0), size);
	mem[size - 1] = 1;
	slab_mem_scrub(mem, fd, size);
	slab_mem_populate(mem, size);
	EXPECT_EQ(spare_find_not_byte(mem, size, 0), size);
	slab_mem_free(mem, fd, size);
	/* Mapped unpopulated (map-ready), populated a range at a time. */
	mem = slab_mem_map(size, &fd);
	EXPECT(mem != NULL);
	if (!mem)
		return;
	slab_mem_populate(mem, MiB);
	slab_mem_populate(mem + MiB, size - MiB);
	EXPECT_EQ(spare_find_not_byte(mem, size, 0), size);
	slab_mem_free(mem, fd, size);
}

/*
 * map-ready: the donor populates free slabs ahead of MAPs (spared's idle
 * time, a piece at a time), the one populated furthest first, until that
 * many are ready; a MAP takes a ready slab first; a slab lent and given
 * back, or retired, is ready no more (its memory was scrubbed or unmapped).
 */
static void test_ready_ahead(void)
{
	struct slab_pool p;
	struct slab *s, *t, *u;
	static char fake_mem[3];

	EXPECT_EQ(slab_pool_init(&p, 4 * MiB, MiB), 0);
	EXPECT(slab_pool_next_unready(&p, 0) == NULL);	/* map-ready 0 */
	s = slab_pool_next_unready(&p, 2);
	EXPECT(s == &p.slabs[0]);
	s->mem = &fake_mem[0];
	slab_pool_set_ready(&p, s, MiB / 2);		/* half populated */
	p.slabs[1].mem = &fake_mem[1];
	slab_pool_set_ready(&p, &p.slabs[1], 0);	/* mapped only */
	EXPECT_EQ(slab_pool_populating(&p), 1);
	EXPECT(slab_pool_next_unready(&p, 2) == s);	/* furthest first */
	slab_pool_set_ready(&p, s, MiB);		/* ready */
	EXPECT_EQ(slab_pool_ready(&p), 1);
	EXPECT_EQ(slab_pool_populating(&p), 0);
	t = slab_pool_next_unready(&p, 2);
	EXPECT(t == &p.slabs[1]);			/* mapped before not */
	EXPECT(slab_pool_next_unready(&p, 1) == NULL);	/* one is enough */
	slab_pool_set_ready(&p, t, 2 * MiB);		/* clamped */
	EXPECT_EQ(t->ready_bytes, MiB);
	EXPECT(slab_pool_next_unready(&p, 2) == NULL);	/* two are ready */
	u = slab_pool_next_unready(&p, 3);
	EXPECT(u == &p.slabs[2]);
	u->mem = &fake_mem[2];
	slab_pool_set_ready(&p, u, MiB / 4);
	/* A MAP takes a ready slab, not the partly populated one. */
	EXPECT(slab_pool_take(&p, &owner_a, 9) == s);
	EXPECT_EQ(slab_pool_ready(&p), 1);
	EXPECT(slab_pool_next_unready(&p, 2) == u);	/* one ready left */
	/* Given back (scrubbed by the caller): populated no more. */
	slab_pool_put(&p, s, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(s->ready_bytes, 0);
	EXPECT(slab_pool_take(&p, &owner_a, 10) == t);
	EXPECT(slab_pool_take(&p, &owner_a, 11) == u);	/* furthest next */
	EXPECT_EQ(slab_pool_ready(&p), 0);
	EXPECT_EQ(slab_pool_populating(&p), 0);
	/* Not FREE: the pool leaves it alone. */
	slab_pool_set_ready(&p, u, MiB);
	EXPECT_EQ(slab_pool_ready(&p), 0);
	slab_pool_destroy(&p);

	/* Shrinking retires a ready slab first; retired, it is not ready. */
	EXPECT_EQ(slab_pool_init_cap(&p, 4 * MiB, MiB, 4), 0);
	p.slabs[3].mem = &fake_mem[0];
	slab_pool_set_ready(&p, &p.slabs[3], MiB);
	EXPECT_EQ(slab_pool_set_cap(&p, 3), 0);
	s = slab_pool_retire_free(&p);
	EXPECT(s == &p.slabs[3]);
	EXPECT_EQ(s->ready_bytes, 0);
	EXPECT_EQ(slab_pool_ready(&p), 0);
	s->mem = NULL;
	EXPECT(slab_pool_next_unready(&p, 4) == &p.slabs[0]);
	slab_pool_destroy(&p);
}

/* ---- the free lists against a full scan (test only) ---- */

/*
 * Whether the pool's counts and free lists say what a scan of every slab
 * says: each list holds exactly the FREE slabs of its kind, linked both
 * ways, its n their number; nfree, noffline and nevicting right. @why gets
 * the first difference.
 */
static bool pool_matches_scan(const struct slab_pool *p, char *why, size_t len)
{
	unsigned int kinds[SLAB_FREE_KINDS] = { 0 }, nfree = 0, noff = 0, nev = 0;
	unsigned int i, k;

	for (i = 0; i < p->nslabs; i++) {
		const struct slab *s = &p->slabs[i];

		noff += s->state == SLAB_OFFLINE;
		nev += s->state == SLAB_EVICTING;
		if (s->state == SLAB_OFFLINE && s->ready_bytes) {
			snprintf(why, len, "offline slab %u has ready_bytes", i);
			return false;
		}
		if (s->state != SLAB_FREE)
			continue;
		nfree++;
		kinds[slab_free_kind_of(p, s)]++;
	}
	if (nfree != p->nfree || noff != p->noffline || nev != p->nevicting) {
		snprintf(why, len, "scan: free %u offline %u evicting %u; pool: %u %u %u",
			 nfree, noff, nev, p->nfree, p->noffline, p->nevicting);
		return false;
	}
	for (k = 0; k < SLAB_FREE_KINDS; k++) {
		const struct slab_list *l = &p->free[k];
		uint32_t at = l->head, prev = SLAB_NONE;
		unsigned int n = 0;

		if (kinds[k] != l->n) {
			snprintf(why, len, "kind %u: scan %u, list n %u", k, kinds[k], l->n);
			return false;
		}
		for (; at != SLAB_NONE && n <= p->nslabs; at = p->slabs[at].next, n++) {
			const struct slab *s = &p->slabs[at];

			if (s->state != SLAB_FREE || s->kind != k ||
			    slab_free_kind_of(p, s) != k || s->prev != prev) {
				snprintf(why, len, "kind %u: slab %u (%s, ready %llu) misfiled",
					 k, at, slab_state_name(s->state),
					 (unsigned long long)s->ready_bytes);
				return false;
			}
			prev = at;
		}
		if (n != l->n || l->tail != prev) {
			snprintf(why, len, "kind %u: %u linked, n %u", k, n, l->n);
			return false;
		}
	}
	return true;
}

/* The readiest kind among the FREE slabs (by scan), leaving READY out if
 * @unready; SLAB_FREE_KINDS if none. *@most: the furthest partial one. */
static unsigned int scan_best_kind(const struct slab_pool *p, bool unready,
				   uint64_t *most)
{
	unsigned int i, best = SLAB_FREE_KINDS;

	*most = 0;
	for (i = 0; i < p->nslabs; i++) {
		const struct slab *s = &p->slabs[i];
		unsigned int k;

		if (s->state != SLAB_FREE)
			continue;
		k = slab_free_kind_of(p, s);
		if (unready && k == SLAB_FREE_READY)
			continue;
		if (k == SLAB_FREE_PARTIAL && s->ready_bytes > *most)
			*most = s->ready_bytes;
		if (best == SLAB_FREE_KINDS || k > best)
			best = k;
	}
	return best;
}

/* Whether @s (its fields as when picked) is what a scan would pick: of the
 * best kind there was (the furthest along if partial), NULL if none. */
static bool pick_is_best(const struct slab_pool *p, const struct slab *s,
			 unsigned int best, uint64_t most)
{
	if (!s)
		return best == SLAB_FREE_KINDS;
	return slab_free_kind_of(p, s) == best &&
	       (best != SLAB_FREE_PARTIAL || s->ready_bytes == most);
}

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)random() % n;
}

/* A held slab picked at random, or NULL. */
static struct slab *random_held(struct slab_pool *p)
{
	unsigned int i, from = rnd(p->nslabs);

	for (i = 0; i < p->nslabs; i++) {
		struct slab *s = &p->slabs[(from + i) % p->nslabs];

		if (slab_held(s))
			return s;
	}
	return NULL;
}

/*
 * Every transition in a random order: take, take_index, put (each why),
 * untake, evicting, capacity up and down, retiring, populating a piece
 * (as spared_ready_step()), a lent slab's memory mapped (slab_lend()) or
 * dropped (a failed deregistration). After each, the counts and lists
 * equal a full scan, and the picks are what a scan would choose.
 */
static void test_ready_counts_random(void)
{
	static char fake_mem[64];
	const uint64_t size = 4 * MiB;
	struct slab_pool p;
	unsigned int op, best, id = 0, want;
	char why[160] = "";
	bool ok = true;
	uint64_t most;

	srandom(31);
	EXPECT_EQ(slab_pool_init_cap(&p, 64 * size, size, 40), 0);
	for (op = 0; op < 20000 && ok; op++) {
		struct slab *s;

		switch (rnd(10)) {
		case 0:
		case 1:
			best = scan_best_kind(&p, false, &most);
			s = slab_pool_take(&p, &owner_a, id++);
			ok = pick_is_best(&p, s, best, most);
			if (s) {	/* slab_lend(): mapped, populated */
				s->mem = &fake_mem[s->index];
				s->ready_bytes = 0;
			}
			break;
		case 2:
			s = random_held(&p);
			if (s && rnd(8) == 0)	/* deregistration failed */
				s->mem = NULL;
			if (s)
				slab_pool_put(&p, s, (enum slab_release_why)rnd(3));
			if (s && s->state == SLAB_OFFLINE)
				s->mem = NULL;	/* the caller unmaps it */
			break;
		case 3:
			s = random_held(&p);
			if (s)
				slab_pool_untake(&p, s);
			break;
		case 4:
			s = random_held(&p);
			if (s)
				slab_pool_mark_evicting(&p, s, 100);
			break;
		case 5:
			slab_pool_set_cap(&p, rnd(p.nslabs + 1));
			while ((s = slab_pool_retire_free(&p)))
				s->mem = NULL;
			break;
		case 6:
		case 7:
			/* a piece populated ahead, as spared_ready_step() */
			want = rnd(5);
			best = scan_best_kind(&p, true, &most);
			s = slab_pool_next_unready(&p, want);
			ok = slab_pool_ready(&p) >= want ? !s :
			     pick_is_best(&p, s, best, most);
			if (s) {
				s->mem = &fake_mem[s->index];
				slab_pool_set_ready(&p, s, s->ready_bytes + size / 4);
			}
			break;
		case 8:
			slab_pool_take_index(&p, rnd(p.nslabs), &owner_b, id++);
			break;
		case 9:
			/* any FREE slab populated to any point */
			s = &p.slabs[rnd(p.nslabs)];
			if (s->state == SLAB_FREE) {
				s->mem = &fake_mem[s->index];
				slab_pool_set_ready(&p, s, rnd(5) * size / 4);
			}
			break;
		}
		if (!ok)
			snprintf(why, sizeof(why), "a pick a scan would not make");
		else
			ok = pool_matches_scan(&p, why, sizeof(why));
	}
	if (!ok)
		fprintf(stderr, "# after op %u: %s\n", op, why);
	EXPECT(ok);
	EXPECT_EQ(op, 20000);
	slab_pool_destroy(&p);
}

static sigjmp_buf probe_env;

static void on_probe_fault(int sig)
{
	siglongjmp(probe_env, 1);
}

/*
 * Whether slab_pool_next_unready(@p, @want) returns NULL without reading
 * a single slab: the slab array is swapped for an inaccessible copy while
 * it runs, so any look at a slab faults (caught here).
 */
static bool next_unready_touches_nothing(struct slab_pool *p, unsigned int want)
{
	size_t len = p->nslabs * sizeof(*p->slabs);
	struct slab *real = p->slabs, *guarded;
	struct sigaction sa = { .sa_handler = on_probe_fault }, old_segv, old_bus;
	volatile bool clean = false;

	guarded = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guarded == MAP_FAILED)
		return false;
	memcpy(guarded, real, len);
	if (mprotect(guarded, len, PROT_NONE)) {
		munmap(guarded, len);
		return false;
	}
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	p->slabs = guarded;
	if (!sigsetjmp(probe_env, 1))
		clean = slab_pool_next_unready(p, want) == NULL;
	p->slabs = real;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	munmap(guarded, len);
	return clean;
}

/*
 * The loop asks for the next slab to populate on every turn: with nothing
 * to populate it must not look at any slab (64 GiB in 16 MiB slabs: 4096
 * of them), whether map-ready are ready or every free slab is.
 */
static void test_ready_idle_no_scan(void)
{
	static char fake_mem[2];
	struct slab_pool p;
	unsigned int i;

	EXPECT_EQ(slab_pool_init(&p, 4096 * 16 * MiB, 16 * MiB), 0);
	EXPECT_EQ(p.nslabs, 4096);
	/* lent all but the last two, which are ready */
	for (i = 0; i < 4094; i++)
		EXPECT(slab_pool_take(&p, &owner_a, i) != NULL);
	for (i = 4094; i < 4096; i++) {
		p.slabs[i].mem = &fake_mem[i - 4094];
		slab_pool_set_ready(&p, &p.slabs[i], 16 * MiB);
	}
	EXPECT(next_unready_touches_nothing(&p, 2));	/* map-ready met */
	EXPECT(next_unready_touches_nothing(&p, 8));	/* every free one ready */
	EXPECT(next_unready_touches_nothing(&p, 0));
	/* the same with most of the pool free */
	for (i = 0; i < 4000; i++)
		slab_pool_put(&p, &p.slabs[i], SLAB_RELEASE_UNMAP);
	EXPECT(next_unready_touches_nothing(&p, 2));
	/* and a pick when there is work is a ready-made one */
	EXPECT(slab_pool_next_unready(&p, 3) != NULL);
	slab_pool_destroy(&p);
}

/* A pool between min and max: grows, retires free slots at once and lent
 * ones when they come back, never re-lending a retired slot. */
static void test_capacity(void)
{
	struct slab_pool p;
	struct slab *a, *b, *c, *r;

	EXPECT_EQ(slab_pool_init_cap(&p, 8 * MiB, 1 * MiB, 2), 0);
	EXPECT_EQ(p.nslabs, 8);
	EXPECT_EQ(slab_pool_in_service(&p), 2);
	EXPECT_EQ(p.nfree, 2);
	EXPECT_EQ(slab_pool_lent(&p), 0);
	a = slab_pool_take(&p, &owner_a, 1);
	b = slab_pool_take(&p, &owner_a, 2);
	EXPECT(a && b);
	EXPECT(slab_pool_take(&p, &owner_a, 3) == NULL);	/* at capacity */
	EXPECT_EQ(slab_pool_set_cap(&p, 5), 3);
	EXPECT_EQ(p.nfree, 3);
	EXPECT_EQ(p.stats.grown, 3);
	c = slab_pool_take(&p, &owner_b, 1);
	EXPECT(c != NULL);
	EXPECT_EQ(slab_pool_lent(&p), 3);
	EXPECT_EQ(slab_pool_set_cap(&p, 99), 3);		/* clamped to 8 */
	EXPECT_EQ(p.cap, 8);
	EXPECT_EQ(slab_pool_in_service(&p), 8);

	/* Shrink to 1: the 5 free go at once, the lent stay. */
	c->mem = slab_mem_alloc(1 * MiB, &c->memfd);
	slab_pool_put(&p, c, SLAB_RELEASE_UNMAP);		/* free, mapped */
	EXPECT_EQ(slab_pool_set_cap(&p, 1), 0);
	r = slab_pool_retire_free(&p);
	EXPECT(r == c);					/* mapped one first */
	slab_mem_free(r->mem, r->memfd, 1 * MiB);
	r->mem = NULL;
	EXPECT_EQ(r->state, SLAB_OFFLINE);
	while ((r = slab_pool_retire_free(&p)))
		EXPECT(r->mem == NULL);
	EXPECT_EQ(slab_pool_in_service(&p), 2);
	EXPECT_EQ(p.nfree, 0);
	EXPECT_EQ(slab_pool_lent(&p), 2);
	EXPECT_EQ(p.stats.retired, 6);
	/* One lent slab comes back: retired, not freed for re-lending. */
	slab_pool_mark_evicting(&p, a, 100);
	slab_pool_put(&p, a, SLAB_RELEASE_REVOKE);
	EXPECT_EQ(a->state, SLAB_OFFLINE);
	EXPECT_EQ(p.nevicting, 0);
	EXPECT_EQ(slab_pool_in_service(&p), 1);
	EXPECT(slab_pool_take(&p, &owner_b, 7) == NULL);
	EXPECT(slab_pool_find(&p, &owner_a, 1) == NULL);
	/* At capacity now: the next one back is free again. */
	slab_pool_put(&p, b, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(b->state, SLAB_FREE);
	EXPECT_EQ(p.nfree, 1);
	EXPECT(slab_pool_retire_free(&p) == NULL);
	EXPECT_EQ(slab_pool_lent(&p), 0);
	slab_pool_destroy(&p);
}

/* Pager restart: a held (kept) slab is the first given back, still counts
 * as lent, and moves whole to the session that resumes. */
static void test_kept_slabs(void)
{
	struct slab_pool p;
	int a, b;
	struct slab *s1, *s2, *s3, *v;

	EXPECT_EQ(slab_pool_init(&p, 4 << 20, 1 << 20), 0);
	s1 = slab_pool_take(&p, &a, 1);
	s2 = slab_pool_take(&p, &a, 2);
	s3 = slab_pool_take(&p, &b, 7);
	EXPECT(s1 && s2 && s3);
	/* without a kept slab: the longest lent */
	EXPECT(slab_pool_pick_victim(&p) == s1);
	/* a kept slab goes first, however recently lent */
	s3->kept = true;
	v = slab_pool_pick_victim(&p);
	EXPECT(v == s3);
	EXPECT_EQ(slab_pool_lent(&p), 3);
	EXPECT_EQ(p.nfree, 1);
	/* adopting moves every slab of the held owner, and only those */
	EXPECT_EQ(slab_pool_reown(&p, &b, &a), 1);
	EXPECT(slab_pool_find(&p, &a, 7) == s3);
	EXPECT(slab_pool_find(&p, &b, 7) == NULL);
	EXPECT_EQ(slab_pool_reown(&p, &b, &a), 0);
	/* released, it is no longer kept when lent again */
	slab_pool_put(&p, s3, SLAB_RELEASE_RECLAIM);
	EXPECT(!s3->kept);
	EXPECT(slab_pool_pick_victim(&p) == s1);
	slab_pool_destroy(&p);
}

/* Who may adopt held slabs (hold.h). */
static void test_hold_match(void)
{
	uint8_t u1[16], u2[16];
	struct hold_id held, ask;

	memset(u1, 0x11, 16);
	memset(u2, 0x22, 16);
	held = (struct hold_id){ u1, "", "1111", 0xabcdef };
	ask = held;
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_ADOPT);
	ask.token = 0xabcdee;
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_TOKEN);
	ask.token = 0;
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_TOKEN);
	ask = held;
	ask.uuid = u2;	/* another device: not a candidate at all */
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_NOT_MINE);
	/* an authenticated client's slabs: only the same name */
	held.client = "node-a";
	held.owner = "node-a";
	ask = held;
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_ADOPT);
	ask.client = "node-b";
	ask.owner = "node-b";
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_NAME);
	ask.client = "";	/* unauthenticated, right uuid and token */
	ask.owner = "1111";
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_NAME);
	/* the same name, another grants' owner */
	ask = held;
	ask.owner = "other";
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_OWNER);
	/* a held session without a token is never adopted */
	held.token = 0;
	ask = held;
	EXPECT_EQ(spared_hold_match(&held, &ask), HOLD_BAD_TOKEN);
	EXPECT(strcmp(spared_hold_verdict_name(HOLD_BAD_TOKEN), "wrong resume token") == 0);
}

/*
 * A new session ends an older one only if it is the same client come back:
 * another key holder that copies a victim's uuid (it is sent in the clear)
 * from the same host must not end the victim's session (issue 32).
 */
static void test_supersede_only_own(void)
{
	uint8_t u1[16], u2[16];
	struct hold_id live = { .uuid = u1, .client = "trainer-a" };
	struct hold_id same = { .uuid = u1, .client = "trainer-a" };
	struct hold_id other = { .uuid = u1, .client = "trainer-b" };
	struct hold_id open_old = { .uuid = u1, .client = "" };
	struct hold_id open_new = { .uuid = u1, .client = "" };
	struct hold_id another = { .uuid = u2, .client = "trainer-a" };

	memset(u1, 0x11, sizeof(u1));
	memset(u2, 0x22, sizeof(u2));
	EXPECT(spared_supersedes(&live, "10.0.0.1", &same, "10.0.0.1"));
	EXPECT(!spared_supersedes(&live, "10.0.0.1", &other, "10.0.0.1"));
	EXPECT(!spared_supersedes(&live, "10.0.0.1", &same, "10.0.0.9"));
	EXPECT(!spared_supersedes(&live, "10.0.0.1", &another, "10.0.0.1"));
	/* open mode (no host-keys): nobody has a name, as before */
	EXPECT(spared_supersedes(&open_old, "10.0.0.1", &open_new, "10.0.0.1"));
	/* an authenticated session is no open session's, and the other way round */
	EXPECT(!spared_supersedes(&live, "10.0.0.1", &open_new, "10.0.0.1"));
	EXPECT(!spared_supersedes(&open_old, "10.0.0.1", &same, "10.0.0.1"));
}

int main(void)
{
	TAP_RUN(test_init_budget);
	TAP_RUN(test_take_until_full);
	TAP_RUN(test_put_and_reuse);
	TAP_RUN(test_owned_iteration);
	TAP_RUN(test_eviction);
	TAP_RUN(test_slab_mem_zeroed);
	TAP_RUN(test_capacity);
	TAP_RUN(test_ready_ahead);
	TAP_RUN(test_ready_counts_random);
	TAP_RUN(test_ready_idle_no_scan);
	TAP_RUN(test_kept_slabs);
	TAP_RUN(test_hold_match);
	TAP_RUN(test_supersede_only_own);
	return tap_done();
}
