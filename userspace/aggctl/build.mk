# SPDX-License-Identifier: GPL-2.0
# spare-aggctl: admin client of spare-aggd (STATS, MIGRATE, FlowCon cpu.max, SpeCon).

PROGS += spare-aggctl
spare-aggctl_SRCS   := $(addprefix userspace/aggctl/,aggctl.c aggctl_cmd.c aggctl_util.c aggctl_flowcon.c \
			 aggctl_specon.c aggctl_json.c) userspace/libspare-agg/spare_agg.c \
		      
spare-aggctl_LDLIBS := $(OUT)/lib/libspare-sched.a -lrdmacm -libverbs -ljson-c -lsodium -lz -lm
aggctl_CFLAGS       := -Iuserspace/aggd -Iuserspace/libspare-agg
aggctl_cmd_CFLAGS   := -Iuserspace/aggd -Iuserspace/libspare-agg
aggctl_specon_CFLAGS := -Iuserspace/aggd -Iuserspace/libspare-agg -Iuserspace/sched
$(OUT)/bin/spare-aggctl: $(OUT)/lib/libspare-sched.a
