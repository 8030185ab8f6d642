# SPDX-License-Identifier: GPL-2.0
# The client core's sans-IO steps (kmod/core/), as libspare builds them:
# the same cases as their KUnit suites (kmod/core/*_cases.h).
UNIT_TESTS += test_resync_plan
test_resync_plan_SRCS   := tests/unit/test_resync_plan.c
test_resync_plan_CFLAGS := $(KSHIM_CFLAGS)
UNIT_TESTS += test_move
test_move_SRCS   := tests/unit/test_move.c
test_move_CFLAGS := $(KSHIM_CFLAGS)
# Giving a copy back on a broker's move mark (spare_reclaim.c).
UNIT_TESTS += test_reclaim
test_reclaim_SRCS   := tests/unit/test_reclaim.c
test_reclaim_CFLAGS := $(KSHIM_CFLAGS)
UNIT_TESTS += test_donor_life
test_donor_life_SRCS   := tests/unit/test_donor_life.c
test_donor_life_CFLAGS := $(KSHIM_CFLAGS)
# The erasure codec over ISA-L (kshim/raid_isal.c): the KUnit cases plus
# a bit-by-bit reference of the field arithmetic.
UNIT_TESTS += test_ec
test_ec_SRCS   := tests/unit/test_ec.c
test_ec_CFLAGS := $(KSHIM_CFLAGS)
test_ec_LDLIBS := -lisal
# The erasure-coded I/O path's decisions (spare_ec_io.c).
UNIT_TESTS += test_ec_io
test_ec_io_SRCS   := tests/unit/test_ec_io.c
test_ec_io_CFLAGS := $(KSHIM_CFLAGS)
test_ec_io_LDLIBS := -lisal

# Integrity's shared part (spare_integrity_table.c): the checksum table,
# the next source after a bad read, a bad split demoted.
UNIT_TESTS += test_integrity
test_integrity_SRCS   := tests/unit/test_integrity.c
test_integrity_CFLAGS := $(KSHIM_CFLAGS)
test_integrity_LDLIBS := -lisal
# The split table's placement of an ec:K+R device (spare_ec_place.c).
UNIT_TESTS += test_ec_place
test_ec_place_SRCS   := tests/unit/test_ec_place.c
test_ec_place_CFLAGS := $(KSHIM_CFLAGS)
spare_ec_place_CFLAGS := $(KSHIM_CFLAGS)
