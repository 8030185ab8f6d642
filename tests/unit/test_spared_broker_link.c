// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spared's broker side (userspace/spared/broker_link.c):
 * the "brokers" list. The link's network side is tested against real
 * brokers in tests/broker/run (broker-spared-link); the grant check is in
 * test_spared_grants.c.
 */
#include <string.h>

#include <sodium.h>

#include "broker_link.h"
#include "tap.h"

static void broker_list(void)
{
	struct broker_link_cfg c;

	EXPECT(broker_link_parse_list(&c, "a:1, b.example:18517,[::1]:5") == NULL);
	EXPECT_EQ(c.nbrokers, 3);
	EXPECT(strcmp(c.brokers[1], "b.example:18517") == 0);
	EXPECT(strcmp(c.brokers[2], "[::1]:5") == 0);
	EXPECT(broker_link_parse_list(&c, "") == NULL);
	EXPECT_EQ(c.nbrokers, 0);
	EXPECT(broker_link_parse_list(&c, "a:1,,b:2") != NULL);
	EXPECT(broker_link_parse_list(&c, "a:1,") != NULL);
	EXPECT(broker_link_parse_list(&c, "noport") != NULL);
	EXPECT(broker_link_parse_list(&c, "a:") != NULL);
	EXPECT(broker_link_parse_list(&c, "a:1,a:2,a:3,a:4,a:5,a:6,a:7,a:8,a:9") != NULL);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(broker_list);
	return tap_done();
}
