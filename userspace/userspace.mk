# SPDX-License-Identifier: GPL-2.0
#
# Non-recursive userspace build, included by the top-level Makefile.
# All paths are relative to the top of the tree.
#
# A program registers itself in userspace/<prog>/build.mk:
#     PROGS += spared
#     spared_SRCS   := userspace/spared/main.c ...
#     spared_LDLIBS := -lrdmacm -libverbs
# A host unit test registers itself in tests/unit/<name>.mk:
#     UNIT_TESTS += test_proto
#     test_proto_SRCS   := tests/unit/test_proto.c
#     test_proto_LDLIBS :=
# Every program and test links build/lib/libspare.a (userspace/lib/*.c plus
# the client's pure logic of kmod/core/, listed in LIBSPARE_CORE, compiled
# from the very same sources as spare.ko). Tests are built with ASan and
# UBSan against a sanitized copy of the library.
#
# Userspace sees only kmod/core/ and kmod/uapi/ of the kernel tree
# (scripts/layers-check). The core files that include <linux/...> headers
# are built with -Iuserspace/lib/kshim, whose stand-ins map the few kernel
# calls they use onto libc (userspace/lib/kshim/kcompat.h); so is every
# userspace file that includes their headers (spare_slab.h, spare_split.h).

CC		?= gcc
# The project's flags; a packager's CPPFLAGS, CFLAGS and LDFLAGS (from the
# environment or the command line, e.g. dpkg-buildflags' hardening) come
# after them in the programs and the library, so that -O1 wins over -O2,
# and -Werror and the warnings stay. The sanitizer builds (tests) take
# the project's flags only.
USER_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		   -Wshadow -Wstrict-prototypes -Wmissing-prototypes -fno-strict-aliasing
USER_CPPFLAGS	:= -D_GNU_SOURCE -Ikmod/core -Ikmod/uapi -Iuserspace/lib -Itests/unit
KSHIM_CFLAGS	:= -Iuserspace/lib/kshim
# -O1 after the project's -O2: the sanitizers' usual level (the same
# checks; make unit takes 29 % less CPU than at -O2,
# Documentation/perf/check-time/session47-host/). The library's and
# programs' files keep the -O2-only warnings through their -O2 build.
# SPARE_TEST_HOOKS: test-only hooks (spare-aggd's creation gate), never
# in the installed programs
SAN_FLAGS	:= -fsanitize=address,undefined -fno-omit-frame-pointer \
		   -fno-sanitize-recover=all -O1 -DSPARE_TEST_HOOKS

PROGS		:=
UNIT_TESTS	:=
LIBSPARE_CORE	:= kmod/core/spare_proto.c kmod/core/spare_slab.c kmod/core/spare_split.c \
		   kmod/core/spare_resync_plan.c kmod/core/spare_move.c \
		   kmod/core/spare_donor_life.c kmod/core/spare_ec.c \
		   kmod/core/spare_ec_code.c kmod/core/spare_ec_io.c \
		   kmod/core/spare_ec_place.c kmod/core/spare_reclaim.c \
		   kmod/core/spare_integrity_table.c \
		   userspace/lib/kshim/kcompat.c userspace/lib/kshim/raid_isal.c
spare_slab_CFLAGS  := $(KSHIM_CFLAGS)
spare_split_CFLAGS := $(KSHIM_CFLAGS)
spare_resync_plan_CFLAGS := $(KSHIM_CFLAGS)
spare_move_CFLAGS := $(KSHIM_CFLAGS)
spare_donor_life_CFLAGS := $(KSHIM_CFLAGS)
# The erasure codec's parity and recovery: the kernel's raid6_pq and
# xor_blocks calls, which the shim maps onto ISA-L (raid_isal.c); a
# program that uses spare_ec_code.c links -lisal.
spare_ec_CFLAGS := $(KSHIM_CFLAGS)
spare_ec_code_CFLAGS := $(KSHIM_CFLAGS)
spare_ec_io_CFLAGS := $(KSHIM_CFLAGS)
spare_integrity_table_CFLAGS := $(KSHIM_CFLAGS)
spare_reclaim_CFLAGS := $(KSHIM_CFLAGS)
raid_isal_CFLAGS := $(KSHIM_CFLAGS)
# --version: the VERSION file, compiled in (spare_version()).
SPARE_VERSION	:= $(shell cat VERSION)
spare_version_CFLAGS := -DSPARE_VERSION='"$(SPARE_VERSION)"'
$(OUT)/obj/userspace/lib/spare_version.o $(OUT)/obj-san/userspace/lib/spare_version.o: VERSION

include $(sort $(wildcard userspace/*/build.mk) $(wildcard tests/tools/*/build.mk) \
		 $(wildcard tests/unit/*.mk))
include tools/sim/b/build.mk
include tools/lendsim/build.mk
include tools/ecbench/build.mk

LIBSPARE_SRCS	:= $(sort $(wildcard userspace/lib/*.c)) $(LIBSPARE_CORE)

$(OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) $(USER_CFLAGS) $($(notdir $*)_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(OUT)/obj-san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) $(SAN_FLAGS) $($(notdir $*)_CFLAGS) -MMD -MP -c -o $@ $<

$(OUT)/lib/libspare.a: $(LIBSPARE_SRCS:%.c=$(OUT)/obj/%.o)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(OUT)/lib/libspare-san.a: $(LIBSPARE_SRCS:%.c=$(OUT)/obj-san/%.o)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

define prog_rule
$(OUT)/bin/$(1): $$($(1)_SRCS:%.c=$(OUT)/obj/%.o) $(OUT)/lib/libspare.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$($(1)_LDLIBS) -lpthread
endef

define test_rule
$(OUT)/tests/$(1): $$($(1)_SRCS:%.c=$(OUT)/obj-san/%.o) $(OUT)/lib/libspare-san.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_FLAGS) -o $$@ $$^ $$($(1)_LDLIBS) -lpthread
endef

$(foreach p,$(PROGS),$(eval $(call prog_rule,$(p))))
$(foreach t,$(UNIT_TESTS),$(eval $(call test_rule,$(t))))

userspace: $(PROGS:%=$(OUT)/bin/%) $(OUT)/lib/libspare.a
unit: $(UNIT_TESTS:%=$(OUT)/tests/%)

-include $(shell find $(OUT)/obj $(OUT)/obj-san -name '*.d' 2>/dev/null)
