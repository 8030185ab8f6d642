/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kept map's case (spare_slab.c: a donor that holds our slabs over its
 * restart, issue 33), written once and replayed twice: by KUnit
 * (spare_slab_kunit.c) and, built for userspace, by the host test
 * tests/unit/test_ublk_logic.c. spare.ko (spare_ctrl.c) and the pager
 * (lifecycle.c) drive the same calls.
 *
 * The includer defines the harness:
 *   HOLD_T                  the case's argument (struct kunit *, or int)
 *   HOLD_CHECK(t, cond)     a check that goes on after a failure
 *   HOLD_EQ(t, a, b)        the same for a == b (as long long)
 *   HOLD_ASSERT(t, cond)    a check that ends the case on a failure
 */
#ifndef SPARE_HOLD_CASES_H
#define SPARE_HOLD_CASES_H

#include "spare_slab.h"

/*
 * The pages a copy on a holding donor was current for are kept through
 * its failure, less the pages written meanwhile, plus a write of the old
 * session that landed before it ended; a MAPPED F_KEPT makes them current
 * again, so that the resync refills only what changed. A donor that holds
 * nothing keeps nothing; a hold that passed forgets.
 */
static void hold_kept_over_a_hold(HOLD_T t)
{
	struct spare_slab_map map;
	struct spare_slab *s;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS], c;

	HOLD_ASSERT(t, !spare_slab_map_init(&map, 1 << 20, 20, 2, 2));
	s = &map.slabs[0];		/* copy 0 on donor 0, copy 1 on donor 1 */
	HOLD_EQ(t, s->copy[0].donor, 0);
	for (c = 0; c < 2; c++) {
		HOLD_EQ(t, spare_copy_set_state(&map, s, c, SPARE_COPY_MAPPING), 0);
		HOLD_EQ(t, spare_copy_set_state(&map, s, c, SPARE_COPY_MAPPED), 0);
	}
	HOLD_EQ(t, spare_slab_write_begin(&map, s, 0, 10, gens), 3);
	spare_slab_write_landed(&map, s, 0, gens[0], 0, 10);
	spare_slab_write_landed(&map, s, 1, gens[1], 0, 10);
	spare_slab_write_end(s);

	spare_slab_map_hold(&map, 0, true);
	/* page 20's write is posted; donor 0 goes before it settles */
	HOLD_EQ(t, spare_slab_write_begin(&map, s, 20, 1, gens), 3);
	HOLD_CHECK(t, spare_copy_fail(&map, s, 0, gens[0]));
	HOLD_CHECK(t, spare_copy_has_kept(&s->copy[0]));
	HOLD_CHECK(t, !spare_copy_is_current(&s->copy[0], 0, 1)); /* not readable */
	/* it landed there before the session ended: kept */
	spare_slab_op_settle(&map, s, 0, gens[0], 20, 1, true, SPARE_OP_DONE);
	spare_slab_op_settle(&map, s, 1, gens[1], 20, 1, true, SPARE_OP_DONE);
	spare_slab_write_end(s);
	/* page 5 written meanwhile, on copy 1 alone */
	HOLD_EQ(t, spare_slab_write_begin(&map, s, 5, 1, gens), 2);
	spare_slab_write_landed(&map, s, 1, gens[1], 5, 1);
	spare_slab_write_end(s);
	/* torn down, reconnected, mapped again: kept until adopted */
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_UNMAPPED), 0);
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), 0);
	HOLD_CHECK(t, spare_copy_has_kept(&s->copy[0]));
	HOLD_CHECK(t, !spare_copy_is_current(&s->copy[0], 0, 1));
	HOLD_EQ(t, spare_copy_adopt_kept(&map, s, 0), 10);	/* 0-4, 6-9, 20 */
	HOLD_CHECK(t, !spare_copy_has_kept(&s->copy[0]));
	HOLD_CHECK(t, spare_copy_is_current(&s->copy[0], 0, 5));
	HOLD_CHECK(t, spare_copy_is_current(&s->copy[0], 6, 4));
	HOLD_CHECK(t, spare_copy_is_current(&s->copy[0], 20, 1));
	HOLD_CHECK(t, !spare_copy_is_current(&s->copy[0], 5, 1));
	/* the resync has page 5 to refill, and nothing else */
	HOLD_EQ(t, spare_slab_resync_begin(&map, s, 64, &rs), 0);
	HOLD_EQ(t, rs.target, 0);
	HOLD_EQ(t, rs.first, 5);
	HOLD_EQ(t, rs.n, 1);
	HOLD_CHECK(t, spare_slab_resync_end(&map, s, &rs, true));
	HOLD_EQ(t, spare_slab_resync_begin(&map, s, 64, &rs), -ENOENT);
	HOLD_EQ(t, spare_copy_adopt_kept(&map, s, 0), 0);	/* once */

	/* donor 1 holds nothing: its copy's failure keeps nothing */
	HOLD_CHECK(t, spare_copy_fail(&map, s, 1, s->copy[1].gen));
	HOLD_CHECK(t, !spare_copy_has_kept(&s->copy[1]));
	/* a hold that passed forgets; not MAPPED adopts nothing */
	HOLD_CHECK(t, spare_copy_fail(&map, s, 0, s->copy[0].gen));
	HOLD_CHECK(t, spare_copy_has_kept(&s->copy[0]));
	HOLD_EQ(t, spare_copy_adopt_kept(&map, s, 0), 0);
	spare_copy_forget_kept(&s->copy[0]);
	HOLD_CHECK(t, !spare_copy_has_kept(&s->copy[0]));
	/* the donor stops holding: nothing kept at the next failure */
	spare_slab_map_hold(&map, 0, false);
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_UNMAPPED), 0);
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	HOLD_EQ(t, spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), 0);
	HOLD_CHECK(t, spare_copy_fail(&map, s, 0, s->copy[0].gen));
	HOLD_CHECK(t, !spare_copy_has_kept(&s->copy[0]));
	spare_slab_map_free(&map);
}

#endif /* SPARE_HOLD_CASES_H */
