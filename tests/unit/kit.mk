# SPDX-License-Identifier: GPL-2.0
# The daemon kit in userspace/lib: config, options, journal logging,
# sd_notify, Prometheus text, /metrics over HTTP, JSON.
UNIT_TESTS += test_spare_kit
test_spare_kit_SRCS   := tests/unit/test_spare_kit.c
test_spare_kit_LDLIBS := -linih -lsystemd -lmicrohttpd -ljson-c -lm

# Descriptor limits and the accept back-off (spare_fdlimit.c).
UNIT_TESTS += test_spare_fdlimit
test_spare_fdlimit_SRCS := tests/unit/test_spare_fdlimit.c

# SIGHUP's reload: live settings, restart-only ones kept, bad files refused.
UNIT_TESTS += test_spare_reload
test_spare_reload_SRCS   := tests/unit/test_spare_reload.c
test_spare_reload_LDLIBS := -linih -lsystemd
