# SPDX-License-Identifier: GPL-2.0
# Fake donors, clients and bad peers for tests/broker/run.
PROGS += spare-broker-peer
spare-broker-peer_SRCS   := tests/tools/brokerpeer/brokerpeer.c
spare-broker-peer_LDLIBS := -lsodium -lz
