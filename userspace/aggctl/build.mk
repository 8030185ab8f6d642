# SPDX-License-Identifier: GPL-2.0
# spare-aggctl: admin client of spare-aggd (STATS, MIGRATE).

PROGS += spare-aggctl
spare-aggctl_SRCS   := userspace/aggctl/aggctl.c userspace/libspare-agg/spare_agg.c \
		      
spare-aggctl_LDLIBS := -lrdmacm -libverbs -lm
aggctl_CFLAGS       := -Iuserspace/aggd -Iuserspace/libspare-agg
