# SPDX-License-Identifier: GPL-2.0
# spare-ublk: the userspace pager (issue 10). libspare-ublk.a is the kmod
# pure logic (slab map, copy states, per-page bitmaps, request splitting)
# compiled for userspace from the very same sources as spare.ko, through
# the kernel-call shim in userspace/ublk/kcompat.h; the wire codec
# (kmod/spare_proto.c) is already in libspare.a.
UBLK_KMOD_SRCS := kmod/spare_slab.c kmod/spare_split.c userspace/ublk/kcompat.c
spare_slab_CFLAGS  := -Iuserspace/ublk/kshim
spare_split_CFLAGS := -Iuserspace/ublk/kshim

$(OUT)/lib/libspare-ublk.a: $(UBLK_KMOD_SRCS:%.c=$(OUT)/obj/%.o)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(OUT)/lib/libspare-ublk-san.a: $(UBLK_KMOD_SRCS:%.c=$(OUT)/obj-san/%.o)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

PROGS += spare-ublk
spare-ublk_SRCS   := userspace/ublk/ublk_main.c userspace/ublk/io.c userspace/ublk/ublk_dev.c \
		     userspace/ublk/donor.c userspace/ublk/backup.c userspace/ublk/stats.c \
		     userspace/ublk/state.c userspace/ublk/recover.c \
		     userspace/ublk/lifecycle.c userspace/ublk/resync.c userspace/ublk/pager.c \
		     $(OUT)/lib/libspare-ublk.a
spare-ublk_LDLIBS := -luring -lrdmacm -libverbs -linih -lsystemd -lsodium -lz
ublk_main_CFLAGS  := -Iuserspace/ublk/kshim
io_CFLAGS         := -Iuserspace/ublk/kshim
backup_CFLAGS     := -Iuserspace/ublk/kshim
stats_CFLAGS      := -Iuserspace/ublk/kshim
state_CFLAGS      := -Iuserspace/ublk/kshim
recover_CFLAGS    := -Iuserspace/ublk/kshim
lifecycle_CFLAGS  := -Iuserspace/ublk/kshim
resync_CFLAGS     := -Iuserspace/ublk/kshim
pager_CFLAGS      := -Iuserspace/ublk/kshim
