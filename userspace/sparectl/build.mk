# SPDX-License-Identifier: GPL-2.0
PROGS += sparectl
sparectl_SRCS   := userspace/sparectl/sparectl.c userspace/sparectl/devstat.c \
		   userspace/sparectl/genkey.c userspace/sparectl/renew.c userspace/sparectl/cli.c \
		   userspace/sparectl/brokerask.c userspace/sparectl/uevent.c \
		   userspace/sparectl/ublkdev.c userspace/sparectl/swap.c \
		   userspace/sparectl/brokerls.c
sparectl_LDLIBS := -linih -ljson-c -lsodium -lsystemd -ludev -lz
# redundancy= is read by kmod/core/spare_ec.c, whose header takes the
# kernel-call shim's types.
ublkdev_CFLAGS  := $(KSHIM_CFLAGS)
