# SPDX-License-Identifier: GPL-2.0
# spare-ublk: the kmod pure logic built for userspace (libspare-ublk).
UNIT_TESTS += test_ublk_logic
test_ublk_logic_SRCS   := tests/unit/test_ublk_logic.c $(OUT)/lib/libspare-ublk-san.a
test_ublk_logic_CFLAGS := -Iuserspace/ublk/kshim -Iuserspace/ublk
