// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the kmod/core pure logic (spare_slab.c, spare_split.c)
 * compiled for userspace into libspare through userspace/lib/kshim/kcompat.h.
 * They check that the same sources behave in userspace as KUnit sees them
 * in the kernel, and that the shim's bitmap helpers agree with the kernel's
 * semantics at word boundaries.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "spare_move.h"
#include "spare_slab.h"
#include "spare_split.h"
#include "lifecycle.h"
#include "tap.h"

#define HOLD_T			int
#define HOLD_CHECK(t, cond)	EXPECT(cond)
#define HOLD_EQ(t, a, b)	EXPECT_EQ((long long)(a), (long long)(b))
#define HOLD_ASSERT(t, cond)	do { if (!(cond)) { EXPECT(0); return; } } while (0)
#include "spare_hold_cases.h"

static void test_bitmap_shim(void)
{
	unsigned long *a = bitmap_zalloc(130, GFP_KERNEL);
	unsigned long *b = bitmap_zalloc(130, GFP_KERNEL);

	EXPECT(a && b);
	if (!a || !b)
		goto out;
	bitmap_set(a, 62, 4);		/* crosses a 64-bit word */
	EXPECT(test_bit(63, a) && test_bit(64, a) && !test_bit(66, a));
	EXPECT_EQ(bitmap_weight(a, 130), 4);
	EXPECT_EQ(find_next_bit(a, 130, 0), 62);
	EXPECT_EQ(find_next_zero_bit(a, 130, 62), 66);
	EXPECT_EQ(find_next_bit(a, 62, 0), 62);	/* none below size */
	bitmap_complement(b, a, 130);
	EXPECT_EQ(bitmap_weight(b, 130), 126);
	EXPECT(!test_bit(130, b));	/* nothing past nbits */
	bitmap_clear(a, 63, 2);
	EXPECT_EQ(bitmap_weight(a, 130), 2);
out:
	bitmap_free(a);
	bitmap_free(b);
}

static void test_map_init_rules(void)
{
	struct spare_slab_map map;

	EXPECT_EQ(spare_slab_map_init(&map, 0, 20, 1, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 1 << 20, 11, 1, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 1 << 20, 20, 2, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 5ULL << 20, 21, 2, 3), 0);
	EXPECT_EQ(map.nr_slabs, 3);		/* 5 MiB in 2 MiB slabs */
	EXPECT_EQ(map.pages_per_slab, 512);
	EXPECT_EQ(map.slabs[2].copy[1].donor, spare_slab_place(2, 1, 3));
	spare_slab_map_free(&map);
}

/* A write makes the copy current only once it landed; reads follow. */
static void test_write_then_read(void)
{
	struct spare_slab_map map;
	struct spare_slab *s;
	u32 gens[SPARE_MAX_SLOTS], mask;

	if (spare_slab_map_init(&map, 1 << 20, 20, 1, 1)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 1, 0), -ENODATA);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), -EINVAL);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), 0);
	/* A fresh lent slab is zero filled: current for never-written pages. */
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 256, 0), 0);
	EXPECT(!spare_slab_ever_written(s, 0, 256));

	mask = spare_slab_write_begin(&map, s, 10, 3, gens);
	EXPECT_EQ(mask, 1);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 11, 1, 0), -ENODATA);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 10, 0), 0);
	spare_slab_write_landed(&map, s, 0, gens[0], 10, 3);
	spare_slab_write_end(s);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 10, 3, 0), 0);
	EXPECT(spare_slab_ever_written(s, 12, 1));

	/* A copy fault leaves no copy to read the written pages from. */
	mask = spare_slab_write_begin(&map, s, 20, 1, gens);
	EXPECT(spare_slab_op_settle(&map, s, 0, gens[0], 20, 1, true,
				    SPARE_OP_COPY_FAULT));
	spare_slab_write_end(s);
	EXPECT_EQ(spare_slab_state(&map, s), SPARE_COPY_FAILED);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 10, 1, 0), -ENODATA);
	spare_slab_map_free(&map);
}

/* A donor that holds our slabs over its restart: spare_hold_cases.h. */
static void test_kept_over_a_hold(void)
{
	hold_kept_over_a_hold(0);
}

static void test_split(void)
{
	struct spare_extent e[4];

	/* 12 KiB starting 4 KiB before the end of 1 MiB slab 0. */
	EXPECT_EQ(spare_split((1 << 20) - 4096, 12288, 4 << 20, 20, e, 4), 2);
	EXPECT_EQ(e[0].slab, 0);
	EXPECT_EQ(e[0].len, 4096);
	EXPECT_EQ(e[0].first_page, 255);
	EXPECT_EQ(e[1].slab, 1);
	EXPECT_EQ(e[1].offset, 0);
	EXPECT_EQ(e[1].nr_pages, 2);
	EXPECT_EQ(spare_split((4 << 20) - 4096, 8192, 4 << 20, 20, e, 4),
		  -EINVAL);	/* leaves the device */
	EXPECT_EQ(spare_split(0, 3 << 20, 4 << 20, 20, e, 2), -EINVAL);
}


/*
 * A move is due at three quarters of the grace period. (The reconnect
 * back-off is the donor life cycle's: kmod/core/spare_donor_life_cases.h,
 * "backoff", replayed by test_donor_life and KUnit.)
 */
static void test_move_due(void)
{
	EXPECT_EQ(life_move_due(1000, 20000), 16000);
	EXPECT_EQ(life_move_due(7, 0), 7);
}

/* Wire ids: per donor one copy of a slab, the slab found again from an id. */
static void test_wire_ids(void)
{
	u32 s, c;

	for (s = 0; s < 1000; s++)
		for (c = 0; c < SPARE_MAX_SLOTS; c++) {
			EXPECT_EQ(pager_wire_id(s, c) / SPARE_MAX_REPLICAS, s);
			if (c < SPARE_MAX_REPLICAS)
				EXPECT_EQ(pager_wire_id(s, c) % SPARE_MAX_REPLICAS, c);
		}
	EXPECT(pager_wire_id(1, 0) != pager_wire_id(0, 2));
}

static void map_copy(struct spare_slab_map *map, struct spare_slab *s, u32 c)
{
	EXPECT_EQ(spare_copy_set_state(map, s, c, SPARE_COPY_MAPPING), 0);
	EXPECT_EQ(spare_copy_set_state(map, s, c, SPARE_COPY_MAPPED), 0);
}

/* A write of pages [first, first + n) as io.c does it, landing everywhere. */
static void write_pages(struct spare_slab_map *map, struct spare_slab *s,
			u32 first, u32 n)
{
	u32 gens[SPARE_MAX_SLOTS], mask, c;

	mask = spare_slab_write_begin(map, s, first, n, gens);
	for (c = 0; c < map->nr_slots; c++)
		if (mask & (1U << c))
			spare_slab_op_settle(map, s, c, gens[c], first, n, true,
					     SPARE_OP_DONE);
	spare_slab_write_end(s);
}

/*
 * The reconnect road (lifecycle.c) on a 2-copy slab: the lost donor's copy
 * is FAILED, then UNMAPPED once its link is gone, MAPped again on the new
 * session (fresh: current only where never written), and resync (resync.c)
 * refills it chunk by chunk; reads avoid it for a page until then, and a
 * write during a chunk keeps the chunk from marking anything.
 */
static void test_reconnect_resync(void)
{
	struct spare_slab_map map;
	struct spare_resync rs;
	struct spare_slab *s;
	u32 gens[SPARE_MAX_SLOTS], mask;

	if (spare_slab_map_init(&map, 1 << 20, 20, 2, 2)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];
	map_copy(&map, s, 0);
	map_copy(&map, s, 1);
	write_pages(&map, s, 0, 100);
	EXPECT_EQ(spare_slab_resync_begin(&map, s, 64, &rs), -ENOENT);

	/* donor of copy 1 lost: the failure road, then the new session */
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_FAILED), 0);
	write_pages(&map, s, 100, 4);		/* lands on copy 0 only */
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_UNMAPPED), 0);
	map_copy(&map, s, 1);
	EXPECT_EQ(spare_copy_current_pages(&map, &s->copy[1]), 256 - 104);
	EXPECT_EQ(spare_slab_readable_mask(&map, s, 0, 1), 1U);	/* copy 0 */

	/* first chunk: 64 pages from copy 0; a write meanwhile dirties it */
	EXPECT_EQ(spare_slab_resync_begin(&map, s, 64, &rs), 0);
	EXPECT_EQ(rs.target, 1);
	EXPECT_EQ(rs.source, 0);
	EXPECT_EQ(rs.first, 0);
	EXPECT_EQ(rs.n, 64);
	mask = spare_slab_write_begin(&map, s, 10, 1, gens);
	EXPECT_EQ(mask, 1U);		/* the target is left out */
	spare_slab_op_settle(&map, s, 0, gens[0], 10, 1, true, SPARE_OP_DONE);
	spare_slab_write_end(s);
	EXPECT(!spare_slab_resync_end(&map, s, &rs, true));
	EXPECT(!spare_copy_is_current(&s->copy[1], 0, 1));

	/* again, clean: then the rest; the copy is current everywhere */
	while (spare_slab_resync_begin(&map, s, 64, &rs) == 0)
		EXPECT(spare_slab_resync_end(&map, s, &rs, true));
	EXPECT_EQ(spare_copy_current_pages(&map, &s->copy[1]), 256);
	EXPECT_EQ(spare_slab_readable_mask(&map, s, 0, 256), 3U);

	/* a chunk whose target failed meanwhile marks nothing */
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_FAILED), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_UNMAPPED), 0);
	map_copy(&map, s, 1);
	EXPECT_EQ(spare_slab_resync_begin(&map, s, 64, &rs), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_FAILED), 0);
	EXPECT(!spare_slab_resync_end(&map, s, &rs, true));
	EXPECT_EQ(spare_copy_current_pages(&map, &s->copy[1]), 0);
	spare_slab_map_free(&map);
}

/*
 * A move on EVICT as lifecycle.c runs it: 2 copies over 3 donors, donor 1
 * evicts; the target is the donor holding no copy (spare_move_pick()), the
 * new copy takes the spare slot, writes land on both, resync fills it,
 * ready only with no write in flight; the old copy is released (no read
 * picks it), drained (its inflight), and its slot is the new spare one.
 */
static void test_move_on_evict(void)
{
	struct spare_slab_map map;
	struct spare_move_cand cand[3];
	struct spare_resync rs;
	struct spare_slab *s;
	u32 gens[SPARE_MAX_SLOTS], mask, i;
	int to, from, t;

	if (spare_slab_map_init(&map, 1 << 20, 20, 2, 3)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];		/* copies on donors 0 and 1 */
	map_copy(&map, s, 0);
	map_copy(&map, s, 1);
	write_pages(&map, s, 0, 128);
	from = spare_slab_donor_slot(&map, s, 1);
	EXPECT_EQ(from, 1);

	for (i = 0; i < 3; i++) {
		cand[i].ok = i != 1 && spare_slab_donor_slot(&map, s, i) < 0;
		cand[i].fresh = cand[i].ok &&
				spare_slab_domain_fresh(&map, s, NULL, 0, i, 1);
		cand[i].load = 0;
		cand[i].room = SPARE_ROOM_OPEN;
	}
	t = spare_move_pick(cand, 3, NULL);
	EXPECT_EQ(t, 2);
	EXPECT_EQ(spare_slab_move_begin(&map, s, from, 0), -EEXIST);
	to = spare_slab_move_begin(&map, s, from, 2);
	EXPECT_EQ(to, 2);		/* the spare slot */
	map_copy(&map, s, to);
	EXPECT(!spare_slab_move_ready(&map, s, from, to));

	/* a write that began before the new copy was mapped is not on it */
	mask = spare_slab_write_begin(&map, s, 200, 1, gens);
	EXPECT_EQ(mask, 7U);		/* all three now */
	while (spare_slab_resync_begin(&map, s, 64, &rs) == 0)
		spare_slab_resync_end(&map, s, &rs, true);
	EXPECT(!spare_slab_move_ready(&map, s, from, to));	/* in flight */
	for (i = 0; i < 3; i++)
		spare_slab_op_settle(&map, s, i, gens[i], 200, 1, true,
				     SPARE_OP_DONE);
	spare_slab_write_end(s);
	EXPECT(spare_slab_move_ready(&map, s, from, to));

	/* release: EVICTING, current nowhere; a read in flight drains */
	s->copy[from].inflight = 1;
	EXPECT_EQ(spare_slab_move_release(&map, s, from), 0);
	EXPECT_EQ(s->copy[from].state, SPARE_COPY_EVICTING);
	EXPECT_EQ(spare_slab_readable_mask(&map, s, 0, 256), (1U << 0) | (1U << 2));
	mask = spare_slab_write_begin(&map, s, 5, 1, gens);
	EXPECT_EQ(mask, (1U << 0) | (1U << 2));
	spare_slab_write_end(s);
	s->copy[from].inflight = 0;
	spare_slab_slot_free(&map, s, from);
	EXPECT_EQ(s->copy[from].donor, SPARE_NO_DONOR);
	EXPECT_EQ(spare_slab_donor_slot(&map, s, 1), -1);
	EXPECT_EQ(spare_slab_donor_slot(&map, s, 2), 2);
	/* the wire id of the new copy names the slab on its donor */
	EXPECT_EQ(pager_wire_id(0, (u32)to) / SPARE_MAX_REPLICAS, 0);
	spare_slab_map_free(&map);
}

/*
 * Re-homing (lifecycle.c): the copy of a donor that stays down goes to a
 * live donor through the spare slot, refilled from the mapped copy; a
 * slab with no mapped copy cannot (nothing to refill from).
 */
static void test_rehome(void)
{
	struct spare_slab_map map;
	struct spare_slab *s;
	int to;

	if (spare_slab_map_init(&map, 1 << 20, 20, 2, 3)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];		/* donors 0 and 1; donor 1 stays down */
	map_copy(&map, s, 0);
	write_pages(&map, s, 0, 8);
	to = spare_slab_rehome(&map, s, 1, 2);	/* rehome()'s one call */
	EXPECT(to >= 0);
	EXPECT_EQ(spare_slab_donor_slot(&map, s, 1), -1);
	map_copy(&map, s, (u32)to);
	EXPECT_EQ(spare_copy_current_pages(&map, &s->copy[to]), 256 - 8);
	EXPECT_EQ(spare_slab_donor_slot(&map, s, 2), to);
	/* and with no mapped copy, no source: the copy waits for its donor */
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_FAILED), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_UNMAPPED), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, (u32)to, SPARE_COPY_FAILED), 0);
	EXPECT_EQ(spare_slab_rehome(&map, s, 0, 1), -ENODATA);
	EXPECT_EQ(spare_slab_donor_slot(&map, s, 0), 0);
	spare_slab_map_free(&map);
}

/*
 * The state file's trigger (kcompat.h, pager_state_stale()): every change
 * of a copy's state or donor in spare_slab.c moves spare_ublk_map_changes;
 * a refused transition does not.
 */
static void test_state_change_hook(void)
{
	struct spare_slab_map map;
	struct spare_slab *s;
	uint64_t n;
	int to;

	if (spare_slab_map_init(&map, 1 << 20, 20, 2, 3)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];
	n = spare_ublk_map_changes;
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT(spare_ublk_map_changes == n + 1);
	n = spare_ublk_map_changes;
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_EVICTING), -EINVAL);
	EXPECT(spare_ublk_map_changes == n);		/* refused: no change */
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), 0);
	n = spare_ublk_map_changes;
	to = spare_slab_move_begin(&map, s, 0, 2);	/* a donor for the spare slot */
	EXPECT(to >= 0);
	EXPECT(spare_ublk_map_changes == n + 1);
	n = spare_ublk_map_changes;
	EXPECT(spare_slab_move_abort(&map, s, (u32)to));	/* its donor goes */
	EXPECT(spare_ublk_map_changes == n + 1);
	n = spare_ublk_map_changes;
	spare_slab_slot_free(&map, s, 0);	/* MAPPED -> UNMAPPED, no donor */
	EXPECT(spare_ublk_map_changes >= n + 2);
	/* A request's copy fault (io.c's only trigger since state_dirty went):
	 * the copy fails and the counter moves; a stale generation's fault
	 * changes nothing. */
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_MAPPING), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_MAPPED), 0);
	n = spare_ublk_map_changes;
	EXPECT(!spare_slab_op_settle(&map, s, 1, s->copy[1].gen - 1, 0, 1, false,
				     SPARE_OP_COPY_FAULT));
	EXPECT(spare_ublk_map_changes == n);
	EXPECT(spare_slab_op_settle(&map, s, 1, s->copy[1].gen, 0, 1, false,
				    SPARE_OP_COPY_FAULT));
	EXPECT(s->copy[1].state == SPARE_COPY_FAILED);
	EXPECT(spare_ublk_map_changes == n + 1);
	spare_slab_map_free(&map);
}

/*
 * The answer to a MAP (lifecycle.c's map_copy(), issue 31): a yes on a
 * live session maps the copy; a no puts it back to UNMAPPED; a yes that
 * comes after the donor was failed (the session it answers is dead) is
 * dropped, the copy UNMAPPED without the dead session's rkey, so that the
 * next session maps it again; a copy the failure road moved meanwhile is
 * left alone.
 */
static void test_map_answer(void)
{
	struct spare_slab_map map;
	struct spare_slab *s;

	if (spare_slab_map_init(&map, 4 << 20, 20, 2, 2)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT(life_map_answer(&map, s, 0, true, true, 0x1000, 7));
	EXPECT(s->copy[0].state == SPARE_COPY_MAPPED);
	EXPECT(s->copy[0].addr == 0x1000 && s->copy[0].rkey == 7);

	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_MAPPING), 0);
	EXPECT(!life_map_answer(&map, s, 1, false, true, 0x2000, 8));
	EXPECT(s->copy[1].state == SPARE_COPY_UNMAPPED);

	/* the donor failed while the MAP was out: its yes is not taken */
	s = &map.slabs[1];
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT(!life_map_answer(&map, s, 0, true, false, 0x3000, 9));
	EXPECT(s->copy[0].state == SPARE_COPY_UNMAPPED);
	EXPECT(s->copy[0].rkey != 9);
	/* ... and a later session maps it again */
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT(life_map_answer(&map, s, 0, true, true, 0x4000, 10));
	EXPECT(s->copy[0].state == SPARE_COPY_MAPPED && s->copy[0].rkey == 10);

	/* failed meanwhile by the failure road: left to it */
	s = &map.slabs[2];
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_MAPPING), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 1, SPARE_COPY_FAILED), 0);
	EXPECT(!life_map_answer(&map, s, 1, true, true, 0x5000, 11));
	EXPECT(s->copy[1].state == SPARE_COPY_FAILED);
	spare_slab_map_free(&map);
}

int main(void)
{
	TAP_RUN(test_bitmap_shim);
	TAP_RUN(test_map_init_rules);
	TAP_RUN(test_write_then_read);
	TAP_RUN(test_kept_over_a_hold);
	TAP_RUN(test_split);
	TAP_RUN(test_move_due);
	TAP_RUN(test_wire_ids);
	TAP_RUN(test_reconnect_resync);
	TAP_RUN(test_move_on_evict);
	TAP_RUN(test_rehome);
	TAP_RUN(test_state_change_hook);
	TAP_RUN(test_map_answer);
	return tap_done();
}
