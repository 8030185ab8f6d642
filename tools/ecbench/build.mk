# SPDX-License-Identifier: GPL-2.0
# spare-ecbench: the erasure codec's cost per page against STREAM copy
# (Documentation/perf/ec-codec/). Not installed.
PROGS += spare-ecbench
spare-ecbench_SRCS   := tools/ecbench/ecbench.c
spare-ecbench_LDLIBS := -lisal
ecbench_CFLAGS       := $(KSHIM_CFLAGS)
