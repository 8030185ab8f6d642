# SPDX-License-Identifier: GPL-2.0
PROGS += spare-probe
spare-probe_SRCS   := userspace/spare-probe/probe.c
spare-probe_LDLIBS := -lrdmacm -libverbs -lsodium -lz
