# SPDX-License-Identifier: GPL-2.0
# spare-broker: grants (userspace/lib/spare_grant.c) and the broker wire
# codec (userspace/lib/broker_proto.c), with broker_client.c meeting another
# protocol version.
UNIT_TESTS += test_spare_grant test_broker_proto
test_spare_grant_SRCS    := tests/unit/test_spare_grant.c
test_spare_grant_LDLIBS  := -lsodium -lz
test_broker_proto_SRCS   := tests/unit/test_broker_proto.c
test_broker_proto_LDLIBS := -lsodium -lz

# Signing grants on several threads (userspace/lib/spare_grant_pool.c).
UNIT_TESTS += test_grant_pool
test_grant_pool_SRCS   := tests/unit/test_grant_pool.c
test_grant_pool_LDLIBS := -lsodium -lz

# spare-broker's soft state: heartbeats, expiry, leases, debits.
UNIT_TESTS += test_broker_state
test_broker_state_SRCS   := tests/unit/test_broker_state.c userspace/broker/bstate.c \
			    $(OUT)/lib/libspare-sched-san.a
test_broker_state_CFLAGS := -Iuserspace/broker -Iuserspace/sched
test_broker_state_LDLIBS := -lsodium

# spare-broker's stripe placement on coding groups (STRIPE_REQ, issue 34).
UNIT_TESTS += test_broker_stripe
test_broker_stripe_SRCS   := tests/unit/test_broker_stripe.c userspace/broker/bstate.c \
			     $(OUT)/lib/libspare-sched-san.a
test_broker_stripe_CFLAGS := -Iuserspace/broker -Iuserspace/sched
test_broker_stripe_LDLIBS := -lsodium

# spared: the grant ledger (grants.c) and the brokers list (broker_link.c).
UNIT_TESTS += test_spared_grants
test_spared_grants_SRCS   := tests/unit/test_spared_grants.c userspace/spared/grants.c
test_spared_grants_CFLAGS := -Iuserspace/spared
test_spared_grants_LDLIBS := -lsodium -lz

# spared's backstop for lapsed grants: slabs past their owner's grants
# for more than the grace are asked back; a renewal within it cancels
UNIT_TESTS += test_spared_backstop
test_spared_backstop_SRCS   := tests/unit/test_spared_backstop.c userspace/spared/backstop.c \
			       userspace/spared/grants.c userspace/spared/pool.c
test_spared_backstop_CFLAGS := -Iuserspace/spared
test_spared_backstop_LDLIBS := -lsodium -lz

UNIT_TESTS += test_spared_broker_link
test_spared_broker_link_SRCS   := tests/unit/test_spared_broker_link.c userspace/spared/broker_link.c
test_spared_broker_link_CFLAGS := -Iuserspace/spared
test_spared_broker_link_LDLIBS := -lsodium -lz
