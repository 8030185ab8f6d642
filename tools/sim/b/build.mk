# SPDX-License-Identifier: GPL-2.0
# spare-sched-bench: harnesses for libspare-sched part B (MIP allocator,
# Dike, FlowCon, SpeCon). Included from userspace/userspace.mk.
PROGS += spare-sched-bench
spare-sched-bench_SRCS := tools/sim/b/bench_main.c tools/sim/b/bench.c tools/sim/b/bench_mip.c \
			  tools/sim/b/bench_dike.c tools/sim/b/dike_profiles.c \
			  tools/sim/b/dike_random.c \
			  tools/sim/b/bench_flowcon.c userspace/sched/flowcon.c \
			  tools/sim/b/bench_specon.c userspace/sched/specon.c \
			  userspace/sched/mip.c userspace/sched/dike.c
spare-sched-bench_LDLIBS := /usr/lib/liblpsolve55_pic.a -lcolamd -ldl -lm
bench_main_CFLAGS := -Iuserspace/sched -Itools/sim/b
bench_CFLAGS := -Iuserspace/sched -Itools/sim/b
bench_mip_CFLAGS := -Iuserspace/sched -Itools/sim/b
bench_dike_CFLAGS := -Iuserspace/sched -Itools/sim/b
dike_profiles_CFLAGS := -Iuserspace/sched -Itools/sim/b
dike_random_CFLAGS := -Iuserspace/sched -Itools/sim/b
bench_flowcon_CFLAGS := -Iuserspace/sched -Itools/sim/b
bench_specon_CFLAGS := -Iuserspace/sched -Itools/sim/b
