# SPDX-License-Identifier: GPL-2.0
# sparectl's device view: stat parsing, JSON shape, Prometheus text.
UNIT_TESTS += test_sparectl
test_sparectl_SRCS   := tests/unit/test_sparectl.c userspace/sparectl/devstat.c
test_sparectl_CFLAGS := -Iuserspace/sparectl
test_sparectl_LDLIBS := -ljson-c -lm

# sparectl's broker path: grants to the donors and placement strings.
UNIT_TESTS += test_grantplan
test_grantplan_SRCS   := tests/unit/test_grantplan.c \
			 userspace/sparectl/brokerask.c
test_grantplan_CFLAGS := -Iuserspace/sparectl
test_grantplan_LDLIBS := -lsodium -lz

# sparectl device monitor: the module's uevents decoded.
UNIT_TESTS += test_uevent
test_uevent_SRCS   := tests/unit/test_uevent.c userspace/sparectl/uevent.c
test_uevent_CFLAGS := -Iuserspace/sparectl
test_uevent_LDLIBS := -ludev

# sparectl and spare-ublk devices: the config `device create --backend=ublk`
# writes, and the pager's live counters file read as a device.
UNIT_TESTS += test_sparectl_ublk
test_sparectl_ublk_SRCS   := tests/unit/test_sparectl_ublk.c userspace/sparectl/devstat.c \
			     userspace/sparectl/ublkdev.c
# the core's spare_moving_line() (kmod/core/spare_ec_place.h) takes the
# kernel-call shim's types
test_sparectl_ublk_CFLAGS := -Iuserspace/sparectl $(KSHIM_CFLAGS)
test_sparectl_ublk_LDLIBS := -ljson-c -lsystemd -linih -lsodium -lm
