# SPDX-License-Identifier: GPL-2.0
# spare-ublk: the kmod/core pure logic built for userspace (in libspare).
UNIT_TESTS += test_ublk_logic
test_ublk_logic_SRCS   := tests/unit/test_ublk_logic.c
test_ublk_logic_CFLAGS := $(KSHIM_CFLAGS) -Iuserspace/ublk

# spare-ublk's backup device (backup.c) with a real io_uring and an O_DIRECT
# file under /var/tmp, the test standing in for the queue thread.
UNIT_TESTS += test_ublk_backup
test_ublk_backup_SRCS   := tests/unit/test_ublk_backup.c userspace/ublk/backup.c \
			   userspace/ublk/integrity.c
test_ublk_backup_CFLAGS := -Iuserspace/ublk $(KSHIM_CFLAGS)
test_ublk_backup_LDLIBS := -luring -lisal

# spare-ublk's state file (pager restart): round trip, torn and damaged files
UNIT_TESTS += test_ublk_state
test_ublk_state_SRCS   := tests/unit/test_ublk_state.c userspace/ublk/state.c
test_ublk_state_CFLAGS := $(KSHIM_CFLAGS) -Iuserspace/ublk
test_ublk_state_LDLIBS := -lz

# spare-ublk's read-time split for the benchmark (stats.c): its quantiles
UNIT_TESTS += test_ublk_split
test_ublk_split_SRCS   := tests/unit/test_ublk_split.c userspace/ublk/stats.c
test_ublk_split_CFLAGS := $(KSHIM_CFLAGS) -Iuserspace/ublk

# spare-ublk's erasure-coded request path (ec.c) with a transport of the
# test's own: writes answered at K splits, late splits, waits; NAME.map's
# split slabs (stats.c).
UNIT_TESTS += test_ublk_ec
test_ublk_ec_SRCS   := tests/unit/test_ublk_ec.c userspace/ublk/ec.c \
		       userspace/ublk/integrity.c userspace/ublk/stats.c
test_ublk_ec_CFLAGS := $(KSHIM_CFLAGS) -Iuserspace/ublk
test_ublk_ec_LDLIBS := -lisal
