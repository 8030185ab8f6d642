# SPDX-License-Identifier: GPL-2.0
PROGS += spared
spared_SRCS   := userspace/spared/main.c userspace/spared/loop.c userspace/spared/config.c \
		 userspace/spared/metrics.c \
		 userspace/spared/server.c userspace/spared/session.c \
		 userspace/spared/conn.c userspace/spared/messages.c userspace/spared/slabs.c \
		 userspace/spared/ctl.c userspace/spared/pool.c \
		 userspace/spared/slabmem.c userspace/spared/broker_link.c userspace/spared/grants.c userspace/spared/backstop.c \
		 userspace/spared/lend.c userspace/spared/lending.c userspace/spared/hold.c \
		 userspace/spared/keep.c userspace/spared/restart.c userspace/spared/linger.c
spared_LDLIBS := -lrdmacm -libverbs -linih -lsystemd -lmicrohttpd -lsodium -lz
