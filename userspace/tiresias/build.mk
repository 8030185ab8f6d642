# SPDX-License-Identifier: GPL-2.0
# spare-tiresias: Tiresias scheduling a live Slurm cluster through
# libslurm, with libspare-sched's code (Documentation/tiresias-live.md).
# The Gittins job-size sample is read with spare-sim's own CSV reader.
PROGS += spare-tiresias
TIRD_CORE_SRCS := userspace/tiresias/tird.c
spare-tiresias_SRCS   := userspace/tiresias/tird_main.c userspace/tiresias/tird_slurm.c userspace/tiresias/tird_conf.c \
			 $(TIRD_CORE_SRCS) $(OUT)/lib/libspare-sched.a
spare-tiresias_LDLIBS := -linih -lsystemd -lmicrohttpd -lslurm -lm
tird_main_CFLAGS  := -Iuserspace/sched
tird_slurm_CFLAGS := -Iuserspace/sched
tird_CFLAGS       := -Iuserspace/sched
tird_conf_CFLAGS  := -Iuserspace/sched

# Host benchmark: the decision part of one pass over a synthetic view
# (Documentation/perf/tiresias/).
PROGS += spare-tiresias-bench
spare-tiresias-bench_SRCS   := tools/tiresias-bench/tiresias_bench.c $(TIRD_CORE_SRCS) \
			       $(OUT)/lib/libspare-sched.a
spare-tiresias-bench_LDLIBS := -lm
tiresias_bench_CFLAGS := -Iuserspace/sched -Iuserspace/tiresias
