# SPDX-License-Identifier: GPL-2.0
# spare-lendsim: cluster-scale lending simulation (Documentation/perf-lending.md).
# It links spared's policy (lend.c) and the broker's placement (place.c).
PROGS += spare-lendsim
spare-lendsim_SRCS   := tools/lendsim/lendsim_main.c tools/lendsim/lendsim.c \
			userspace/spared/lend.c userspace/sched/place.c
spare-lendsim_LDLIBS := -lm
LENDSIM_CFLAGS := -Iuserspace/spared -Iuserspace/sched -Itools/lendsim
lendsim_main_CFLAGS := $(LENDSIM_CFLAGS)
lendsim_CFLAGS := $(LENDSIM_CFLAGS)
