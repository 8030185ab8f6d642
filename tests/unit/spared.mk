# SPDX-License-Identifier: GPL-2.0
# spared's pure logic: slab pool accounting and slab memory scrubbing.
UNIT_TESTS += test_spared_pool
test_spared_pool_SRCS   := tests/unit/test_spared_pool.c \
			   userspace/spared/pool.c userspace/spared/slabmem.c \
			   userspace/spared/hold.c
test_spared_pool_CFLAGS := -Iuserspace/spared
test_spared_pool_LDLIBS :=

# what a restarting spared hands to its next image: the held slabs' table
# and their memfds
UNIT_TESTS += test_spared_keep
test_spared_keep_SRCS   := tests/unit/test_spared_keep.c userspace/spared/keep.c \
			   userspace/spared/pool.c userspace/spared/slabmem.c
test_spared_keep_CFLAGS := -Iuserspace/spared
test_spared_keep_LDLIBS :=

UNIT_TESTS += test_spare_lib
test_spare_lib_SRCS   := tests/unit/test_spare_lib.c
test_spare_lib_LDLIBS := -linih

UNIT_TESTS += test_spared_config
test_spared_config_SRCS   := tests/unit/test_spared_config.c \
			     userspace/spared/config.c
# the example config that make install ships (dist/spared.conf) must parse
test_spared_config_CFLAGS := -Iuserspace/spared -DSPARED_EXAMPLE_CONF='"$(TOP)/dist/spared.conf"'
test_spared_config_LDLIBS := -linih -lmicrohttpd -lsodium -lz

UNIT_TESTS += test_spared_metrics
test_spared_metrics_SRCS   := tests/unit/test_spared_metrics.c \
			      userspace/spared/metrics.c userspace/spared/pool.c
test_spared_metrics_CFLAGS := -Iuserspace/spared
test_spared_metrics_LDLIBS := -lm

# host authentication: secrets, host-keys files, HMAC proofs (known answers)
UNIT_TESTS += test_spare_auth
test_spare_auth_SRCS   := tests/unit/test_spare_auth.c
test_spare_auth_LDLIBS := -lsodium -lz

# spared's lending policy and batch eviction choice
UNIT_TESTS += test_spared_lend
test_spared_lend_SRCS   := tests/unit/test_spared_lend.c userspace/spared/lend.c
test_spared_lend_CFLAGS := -Iuserspace/spared
test_spared_lend_LDLIBS :=

# tools/lendsim: a short simulated run with its invariant checks
UNIT_TESTS += test_lendsim
test_lendsim_SRCS   := tests/unit/test_lendsim.c tools/lendsim/lendsim.c \
		       userspace/spared/lend.c userspace/sched/place.c
test_lendsim_CFLAGS := -Iuserspace/spared -Iuserspace/sched -Itools/lendsim
test_lendsim_LDLIBS := -lm

# disconnected cm_ids kept for their DREQ's resends, capped
UNIT_TESTS += test_spared_linger
test_spared_linger_SRCS   := tests/unit/test_spared_linger.c userspace/spared/linger.c
test_spared_linger_CFLAGS := -Iuserspace/spared
test_spared_linger_LDLIBS :=
