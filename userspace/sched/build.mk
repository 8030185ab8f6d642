# SPDX-License-Identifier: GPL-2.0
#
# libspare-sched: the scheduling policies (Tiresias, slab placement, and the
# part-B policies FlowCon, SpeCon, MIP allocator, Dike) as pure functions
# over caller-owned state. Every userspace/sched/*.c but mip.c joins the
# archive; a program pulls in only the members it calls. mip.c needs
# lp_solve's headers to compile and lp_solve (and suitesparse) at link
# time (SCHED_LPSOLVE_LIBS, tests/unit/sched_policies.mk): a program that
# calls it lists it in its _SRCS (spare-sim, spare-sched-bench), so that
# the shipped daemons build without lp_solve (debian/control).
#
#   build/lib/libspare-sched.a       for programs (without mip.o)
#   build/lib/libspare-sched-san.a   ASan/UBSan, for the unit tests

SCHED_SRCS := $(sort $(wildcard userspace/sched/*.c))

$(OUT)/lib/libspare-sched.a: $(filter-out %/mip.o,$(SCHED_SRCS:%.c=$(OUT)/obj/%.o))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(OUT)/lib/libspare-sched-san.a: $(SCHED_SRCS:%.c=$(OUT)/obj-san/%.o)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

userspace: $(OUT)/lib/libspare-sched.a
unit: $(OUT)/lib/libspare-sched-san.a

# spare-sim: the trace-driven simulator (tools/sim, Documentation/sched.md).
PROGS += spare-sim
spare-sim_SRCS   := tools/sim/sim_main.c tools/sim/sim_cli.c tools/sim/sim_run.c \
		    tools/sim/sim_gen.c tools/sim/sim_flowcon.c tools/sim/sim_specon.c tools/sim/sim_mip.c tools/sim/sim_dike.c \
		    tools/sim/sim_ec.c tools/sim/b/dike_random.c userspace/sched/mip.c $(OUT)/lib/libspare-sched.a
# lp_solve 5.5 is a static archive only (see tests/unit/sched_policies.mk).
spare-sim_LDLIBS := -ljson-c /usr/lib/liblpsolve55_pic.a -lcolamd -ldl -lm
SIM_CFLAGS := -Iuserspace/sched -Itools/sim
sim_main_CFLAGS := $(SIM_CFLAGS)
sim_cli_CFLAGS  := $(SIM_CFLAGS)
sim_run_CFLAGS  := $(SIM_CFLAGS)
sim_gen_CFLAGS  := $(SIM_CFLAGS)
sim_flowcon_CFLAGS := $(SIM_CFLAGS)
sim_specon_CFLAGS := $(SIM_CFLAGS)
sim_mip_CFLAGS := $(SIM_CFLAGS)
sim_dike_CFLAGS := $(SIM_CFLAGS)
sim_ec_CFLAGS := $(SIM_CFLAGS)
