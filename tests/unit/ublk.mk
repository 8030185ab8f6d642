# SPDX-License-Identifier: GPL-2.0
# spare-ublk: the kmod pure logic built for userspace (libspare-ublk).
UNIT_TESTS += test_ublk_logic
test_ublk_logic_SRCS   := tests/unit/test_ublk_logic.c $(OUT)/lib/libspare-ublk-san.a
test_ublk_logic_CFLAGS := -Iuserspace/ublk/kshim -Iuserspace/ublk

# spare-ublk's backup device (backup.c) with a real io_uring and an O_DIRECT
# file under /var/tmp, the test standing in for the queue thread.
UNIT_TESTS += test_ublk_backup
test_ublk_backup_SRCS   := tests/unit/test_ublk_backup.c userspace/ublk/backup.c \
			   $(OUT)/lib/libspare-ublk-san.a
test_ublk_backup_CFLAGS := -Iuserspace/ublk -Iuserspace/ublk/kshim
test_ublk_backup_LDLIBS := -luring

# spare-ublk's state file (pager restart): round trip, torn and damaged files
UNIT_TESTS += test_ublk_state
test_ublk_state_SRCS   := tests/unit/test_ublk_state.c userspace/ublk/state.c \
			  $(OUT)/lib/libspare-ublk-san.a
test_ublk_state_CFLAGS := -Iuserspace/ublk/kshim -Iuserspace/ublk
test_ublk_state_LDLIBS := -lz

# spare-ublk's read-time split for the benchmark (stats.c): its quantiles
UNIT_TESTS += test_ublk_split
test_ublk_split_SRCS   := tests/unit/test_ublk_split.c userspace/ublk/stats.c \
			  $(OUT)/lib/libspare-ublk-san.a
test_ublk_split_CFLAGS := -Iuserspace/ublk/kshim -Iuserspace/ublk
