# SPDX-License-Identifier: GPL-2.0
# Fake donors, clients and bad peers for tests/broker/run; "link" runs
# spared's broker link (userspace/spared/broker_link.c) on its own, and
# "askmove" sparectl's brokerask_move() (userspace/sparectl/brokerask.c).
PROGS += spare-broker-peer
spare-broker-peer_SRCS   := tests/tools/brokerpeer/brokerpeer.c userspace/spared/broker_link.c \
			    userspace/sparectl/brokerask.c
spare-broker-peer_LDLIBS := -lsodium -lz
brokerpeer_CFLAGS  := -Iuserspace/spared -Iuserspace/sparectl
broker_link_CFLAGS := -Iuserspace/spared
