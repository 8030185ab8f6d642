# SPDX-License-Identifier: GPL-2.0
UNIT_TESTS += test_proto
test_proto_SRCS   := tests/unit/test_proto.c
test_proto_LDLIBS :=
