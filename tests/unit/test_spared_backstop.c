// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spared's backstop for lapsed grants
 * (userspace/spared/backstop.c) on a real pool (pool.c) and ledger
 * (grants.c): a slab whose grants all lapsed more than the grace ago is
 * due, not one second before; a renewal within the grace cancels it; an
 * owner's grants cover its longest-lent slabs first; other owners, slabs
 * being evicted, slabs held for a resume and slabs of a gone session are
 * left alone; a slab given back and lent again starts afresh.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "backstop.h"
#include "grants.h"
#include "pool.h"
#include "tap.h"

#define GRACE_MS	5000
#define SLAB		(1ULL << 20)

static const struct spare_grant_key key = { .id = 3, .key = "abcdefghijklmnopqrstuvwxyz01234" };

/* Holders are owner names; "gone" stands for a session being torn down. */
static const char *owner_of(const void *holder)
{
	return strcmp(holder, "gone") ? holder : NULL;
}

/* Grant @slabs slabs to @client, valid [@nb, @exp), with id @id (a
 * renewal reuses one). */
static void grant(struct spared_grants *sg, const char *client, uint8_t id[SPARE_GRANT_ID_LEN],
		  uint32_t slabs, uint64_t nb, uint64_t exp, uint64_t now)
{
	struct spare_grant_info gi;
	struct spare_grant g;
	bool known;

	memset(&gi, 0, sizeof(gi));
	memcpy(gi.id, id, SPARE_GRANT_ID_LEN);
	strcpy(gi.client_id, client);
	strcpy(gi.donor_id, "prep-1");
	strcpy(gi.donor_addr, "10.0.0.1:18515");
	gi.slabs = slabs;
	gi.not_before = nb;
	gi.expiry = exp;
	EXPECT_EQ(spare_grant_issue(&gi, &key, &g), 0);
	EXPECT_EQ(spared_grant_accept(sg, &g, sizeof(g), false, client, client, now, NULL, &known),
		  SPARE_GRANT_OK);
}

struct rig {
	struct slab_pool	pool;
	struct spared_grants	sg;
	struct spared_backstop	b;
};

static void rig_up(struct rig *r, unsigned int nslabs)
{
	EXPECT_EQ(slab_pool_init(&r->pool, nslabs * SLAB, SLAB), 0);
	EXPECT_EQ(spared_grants_init(&r->sg, &key, "prep-1", 64), 0);
	EXPECT_EQ(spared_backstop_init(&r->b, r->pool.nslabs), 0);
}

static void rig_down(struct rig *r)
{
	spared_backstop_free(&r->b);
	spared_grants_free(&r->sg);
	slab_pool_destroy(&r->pool);
}

/* A pool of @nslabs where @owner holds @n slabs (ids 1..n) under one grant
 * of @n slabs, id @id, valid [100, 200). */
static void rig_lent(struct rig *r, unsigned int nslabs, const char *owner,
		     uint8_t id[SPARE_GRANT_ID_LEN], unsigned int n)
{
	rig_up(r, nslabs);
	spare_grant_new_id(id);
	grant(&r->sg, owner, id, n, 100, 200, 150);
	for (unsigned int i = 1; i <= n; i++)
		EXPECT(slab_pool_take(&r->pool, owner, i));
}

/* Look at @now_s (wall) / @now_ms (monotonic); how many are due. */
static unsigned int look(struct rig *r, uint64_t now_s, uint64_t now_ms)
{
	return spared_backstop_scan(&r->b, &r->pool, &r->sg, owner_of, now_s, now_ms, GRACE_MS);
}

static unsigned int due_of(struct rig *r, const char *holder, uint64_t now_ms)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->pool.nslabs; i++) {
		const struct slab *s = &r->pool.slabs[i];

		n += s->owner == holder && spared_backstop_due(s, now_ms, GRACE_MS);
	}
	return n;
}

/* All of a client's grants lapse: its slabs are due after the grace, not before. */
static void lapsed_after_grace(void)
{
	static const char a[] = "trainer-a";
	uint8_t id[SPARE_GRANT_ID_LEN];
	struct rig r;

	rig_lent(&r, 4, a, id, 2);
	EXPECT_EQ(look(&r, 150, 1000), 0);
	EXPECT_EQ(look(&r, 199, 50000), 0);
	/* lapsed at 200: seen uncovered at 60000 ms */
	EXPECT_EQ(look(&r, 200, 60000), 0);
	EXPECT_EQ(look(&r, 204, 64999), 0);
	EXPECT_EQ(due_of(&r, a, 64999), 0);
	EXPECT_EQ(look(&r, 205, 65000), 2);
	EXPECT_EQ(due_of(&r, a, 65000), 2);
	/* asked back (EVICTING): no longer looked at, nor due */
	slab_pool_mark_evicting(&r.pool, &r.pool.slabs[0], 70000);
	EXPECT_EQ(look(&r, 206, 66000), 1);
	EXPECT_EQ(r.pool.slabs[0].uncovered_ms, 0);
	rig_down(&r);
}

/* A renewal (the same id, a later expiry) within the grace cancels it. */
static void renewal_cancels(void)
{
	static const char a[] = "trainer-a";
	uint8_t id[SPARE_GRANT_ID_LEN];
	struct rig r;

	rig_lent(&r, 2, a, id, 1);
	EXPECT_EQ(look(&r, 201, 10000), 0);
	EXPECT(r.pool.slabs[0].uncovered_ms == 10000 || r.pool.slabs[1].uncovered_ms == 10000);
	grant(&r.sg, a, id, 1, 203, 400, 203);	/* renewed at 203 */
	EXPECT_EQ(look(&r, 203, 12000), 0);
	EXPECT_EQ(r.pool.slabs[0].uncovered_ms + r.pool.slabs[1].uncovered_ms, 0);
	EXPECT_EQ(look(&r, 210, 16000), 0);	/* past the first stamp's grace */
	EXPECT_EQ(due_of(&r, a, 16000), 0);
	/* lapses again: a fresh grace from when it is seen */
	EXPECT_EQ(look(&r, 400, 20000), 0);
	EXPECT_EQ(look(&r, 404, 24999), 0);
	EXPECT_EQ(look(&r, 405, 25000), 1);
	rig_down(&r);
}

/* Some grants lapse: the longest-lent slabs stay covered, the newest go. */
static void partial_newest_go(void)
{
	static const char a[] = "trainer-a";
	uint8_t id1[SPARE_GRANT_ID_LEN], id2[SPARE_GRANT_ID_LEN];
	struct slab *s1, *s2, *s3;
	struct rig r;

	rig_up(&r, 4);
	spare_grant_new_id(id1);
	spare_grant_new_id(id2);
	grant(&r.sg, a, id1, 1, 100, 500, 150);
	grant(&r.sg, a, id2, 2, 100, 200, 150);
	s1 = slab_pool_take(&r.pool, a, 1);
	s2 = slab_pool_take(&r.pool, a, 2);
	s3 = slab_pool_take(&r.pool, a, 3);
	EXPECT(s1 && s2 && s3);
	EXPECT_EQ(look(&r, 150, 1000), 0);
	EXPECT_EQ(look(&r, 300, 2000), 0);
	EXPECT_EQ(look(&r, 310, 7000), 2);
	EXPECT(s1 && !spared_backstop_due(s1, 7000, GRACE_MS) && !s1->uncovered_ms);
	EXPECT(s2 && spared_backstop_due(s2, 7000, GRACE_MS));
	EXPECT(s3 && spared_backstop_due(s3, 7000, GRACE_MS));
	/* one given back: its stamp goes with it */
	slab_pool_put(&r.pool, s3, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(s3->uncovered_ms, 0);
	rig_down(&r);
}

/* Others are left alone: another owner's covered slabs, a slab held for a
 * resume, a slab of a session being torn down, an owner with no grant at
 * all only after the grace. */
static void others_untouched(void)
{
	static const char a[] = "trainer-a", b[] = "trainer-b", gone[] = "gone";
	uint8_t ida[SPARE_GRANT_ID_LEN], idb[SPARE_GRANT_ID_LEN];
	struct slab *kept, *dead;
	struct rig r;

	rig_up(&r, 8);
	spare_grant_new_id(ida);
	spare_grant_new_id(idb);
	grant(&r.sg, a, ida, 1, 100, 200, 150);
	grant(&r.sg, b, idb, 2, 100, 900, 150);
	EXPECT(slab_pool_take(&r.pool, a, 1));
	EXPECT(slab_pool_take(&r.pool, b, 1));
	EXPECT(slab_pool_take(&r.pool, b, 2));
	kept = slab_pool_take(&r.pool, a, 2);
	EXPECT(kept);
	if (kept)
		kept->kept = true;
	dead = slab_pool_take(&r.pool, gone, 1);
	EXPECT(dead);
	EXPECT_EQ(look(&r, 300, 1000), 0);
	EXPECT_EQ(look(&r, 301, 6000), 1);
	EXPECT_EQ(due_of(&r, a, 6000), 1);
	EXPECT_EQ(due_of(&r, b, 6000), 0);
	EXPECT(kept && !kept->uncovered_ms && dead && !dead->uncovered_ms);
	rig_down(&r);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(lapsed_after_grace);
	TAP_RUN(renewal_cancels);
	TAP_RUN(partial_newest_go);
	TAP_RUN(others_untouched);
	return tap_done();
}
