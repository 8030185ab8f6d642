# SPDX-License-Identifier: GPL-2.0
# sparectl's device view: stat parsing, JSON shape, Prometheus text.
UNIT_TESTS += test_sparectl
test_sparectl_SRCS   := tests/unit/test_sparectl.c userspace/sparectl/devstat.c
test_sparectl_CFLAGS := -Iuserspace/sparectl
test_sparectl_LDLIBS := -ljson-c -lm
