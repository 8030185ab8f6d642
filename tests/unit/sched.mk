# SPDX-License-Identifier: GPL-2.0
# libspare-sched part A: Tiresias and slab placement (userspace/sched), and
# spare-sim (tools/sim): CSV readers, golden runs against the reference
# simulator (tests/sched), properties.

UNIT_TESTS += test_sched_tiresias test_sched_place test_sched_sim
test_sched_tiresias_SRCS   := tests/unit/test_sched_tiresias.c $(OUT)/lib/libspare-sched-san.a
test_sched_tiresias_CFLAGS := -Iuserspace/sched
test_sched_tiresias_LDLIBS := -lm
test_sched_place_SRCS      := tests/unit/test_sched_place.c $(OUT)/lib/libspare-sched-san.a
test_sched_place_CFLAGS    := -Iuserspace/sched
test_sched_sim_SRCS        := tests/unit/test_sched_sim.c tools/sim/sim_cli.c tools/sim/sim_run.c \
			      tools/sim/sim_gen.c tools/sim/sim_flowcon.c tools/sim/sim_specon.c tools/sim/sim_mip.c tools/sim/sim_dike.c \
			      tools/sim/sim_ec.c tools/sim/b/dike_random.c $(OUT)/lib/libspare-sched-san.a
test_sched_sim_CFLAGS      := -Iuserspace/sched -Itools/sim -DSCHED_TESTDIR=\"$(TOP)/tests/sched\"
test_sched_sim_LDLIBS      := -ljson-c /usr/lib/liblpsolve55_pic.a -lcolamd -ldl -lm

# Pool job ordering, and spare-aggd's --policy dlas through it.
UNIT_TESTS += test_sched_order
test_sched_order_SRCS   := tests/unit/test_sched_order.c userspace/aggd/agg_sched.c \
			   $(OUT)/lib/libspare-sched-san.a
test_sched_order_CFLAGS := -Iuserspace/sched -Iuserspace/aggd
test_sched_order_LDLIBS := -lm

# The O(log n) placement spare-broker uses (userspace/sched/place_tree.c).
UNIT_TESTS += test_sched_place_tree
test_sched_place_tree_SRCS   := tests/unit/test_sched_place_tree.c $(OUT)/lib/libspare-sched-san.a
test_sched_place_tree_CFLAGS := -Iuserspace/sched

# Coding groups (userspace/sched/ecgroup.c) and spare-sim ecsim
# (tools/sim/sim_ec.c) against closed forms and enumeration.
UNIT_TESTS += test_sched_ecgroup
test_sched_ecgroup_SRCS   := tests/unit/test_sched_ecgroup.c tools/sim/sim_ec.c \
			     $(OUT)/lib/libspare-sched-san.a
test_sched_ecgroup_CFLAGS := -Iuserspace/sched -Itools/sim
test_sched_ecgroup_LDLIBS := -lm
