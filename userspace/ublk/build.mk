# SPDX-License-Identifier: GPL-2.0
# spare-ublk: the userspace pager (issue 10). The client's pure logic (slab
# map, copy states, per-page bitmaps, request splitting, the wire codec) is
# kmod/core/, compiled for userspace into libspare.a from the very same
# sources as spare.ko (userspace/userspace.mk); the files that include its
# headers need the kernel-call shim, userspace/lib/kshim.
PROGS += spare-ublk
spare-ublk_SRCS   := userspace/ublk/ublk_main.c userspace/ublk/io.c userspace/ublk/ublk_dev.c \
		     userspace/ublk/donor.c userspace/ublk/backup.c userspace/ublk/stats.c \
		     userspace/ublk/state.c userspace/ublk/recover.c \
		     userspace/ublk/lifecycle.c userspace/ublk/resync.c userspace/ublk/pager.c \
		     userspace/ublk/ec.c userspace/ublk/integrity.c
spare-ublk_LDLIBS := -luring -lrdmacm -libverbs -linih -lsystemd -lsodium -lz -lisal
ublk_main_CFLAGS  := $(KSHIM_CFLAGS)
io_CFLAGS         := $(KSHIM_CFLAGS)
backup_CFLAGS     := $(KSHIM_CFLAGS)
stats_CFLAGS      := $(KSHIM_CFLAGS)
state_CFLAGS      := $(KSHIM_CFLAGS)
recover_CFLAGS    := $(KSHIM_CFLAGS)
lifecycle_CFLAGS  := $(KSHIM_CFLAGS)
resync_CFLAGS     := $(KSHIM_CFLAGS)
pager_CFLAGS      := $(KSHIM_CFLAGS)
ec_CFLAGS         := $(KSHIM_CFLAGS)
integrity_CFLAGS  := $(KSHIM_CFLAGS)
