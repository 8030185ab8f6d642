# SPDX-License-Identifier: GPL-2.0
# spare-tiresias's logic with a fake Slurm: ledger, state file, decisions
# against spare-sim's tir_step, the stale-view rule, config lines.
UNIT_TESTS += test_tiresias_daemon
test_tiresias_daemon_SRCS   := tests/unit/test_tiresias_daemon.c userspace/tiresias/tird.c \
			       userspace/tiresias/tird_conf.c $(OUT)/lib/libspare-sched-san.a
test_tiresias_daemon_CFLAGS := -Iuserspace/sched -Iuserspace/tiresias
test_tiresias_daemon_LDLIBS := -linih -lmicrohttpd -lsystemd -lm
