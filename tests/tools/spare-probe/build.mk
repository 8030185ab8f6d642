# SPDX-License-Identifier: GPL-2.0
PROGS += spare-probe
spare-probe_SRCS   := tests/tools/spare-probe/probe.c
spare-probe_LDLIBS := -lrdmacm -libverbs -lsodium -lz
