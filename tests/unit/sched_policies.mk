# SPDX-License-Identifier: GPL-2.0
# libspare-sched part B: the MIP allocator, Dike, FlowCon and SpeCon.
# The sources are compiled here directly, so these tests do not depend on
# userspace/sched/build.mk. lp_solve 5.5 ships as a static archive only
# (liblpsolve55-dev); it needs COLAMD from SuiteSparse and libdl.
SCHED_LPSOLVE_LIBS := /usr/lib/liblpsolve55_pic.a -lcolamd -ldl -lm

UNIT_TESTS += test_sched_mip
test_sched_mip_SRCS   := tests/unit/test_sched_mip.c userspace/sched/mip.c
test_sched_mip_CFLAGS := -Iuserspace/sched
test_sched_mip_LDLIBS := $(SCHED_LPSOLVE_LIBS)

UNIT_TESTS += test_sched_dike
test_sched_dike_SRCS   := tests/unit/test_sched_dike.c userspace/sched/dike.c \
			  tools/sim/b/dike_profiles.c
test_sched_dike_CFLAGS := -Iuserspace/sched -Itools/sim/b
test_sched_dike_LDLIBS := -lm

UNIT_TESTS += test_sched_flowcon
test_sched_flowcon_SRCS   := tests/unit/test_sched_flowcon.c userspace/sched/flowcon.c
test_sched_flowcon_CFLAGS := -Iuserspace/sched
test_sched_flowcon_LDLIBS := -lm

UNIT_TESTS += test_sched_specon
test_sched_specon_SRCS   := tests/unit/test_sched_specon.c userspace/sched/specon.c
test_sched_specon_CFLAGS := -Iuserspace/sched
test_sched_specon_LDLIBS := -lm
