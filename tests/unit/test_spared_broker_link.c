// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spared's broker side (userspace/spared/broker_link.c):
 * the "brokers" list, and spared_grant_check(), the MAP path's grant check
 * (binary and hex forms; forged, expired, not yet valid, wrong donor,
 * wrong client, replayed). The link's network side is tested against real
 * brokers in tests/broker/run (broker-spared-link).
 */
#include <endian.h>
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

static const struct spare_grant_key key = { .id = 9, .key = "abcdefghijklmnopqrstuvwxyz01234" };

static struct spare_grant make(const char *donor, const char *client, uint64_t nb, uint64_t exp,
			       const struct spare_grant_key *k)
{
	struct spare_grant_info gi;
	struct spare_grant g;

	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	strcpy(gi.client_id, client);
	strcpy(gi.donor_id, donor);
	strcpy(gi.donor_addr, "10.0.0.1:18515");
	gi.slabs = 1;
	gi.not_before = nb;
	gi.expiry = exp;
	spare_grant_issue(&gi, k, &g);
	return g;
}

static void grant_check(void)
{
	struct spared_grants sg;
	struct spare_grant_key other = { .id = 9, .key = "0000000000000000000000000000000" };
	struct spare_grant g;
	struct spare_grant_info info;
	char hex[SPARE_GRANT_HEX_LEN + 1];

	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 64), 0);
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, "trainer", 150, &info), SPARE_GRANT_OK);
	EXPECT(strcmp(info.client_id, "trainer") == 0);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, "trainer", 151, NULL),
		  SPARE_GRANT_REPLAYED);
	/* hex, as configfs carries it */
	g = make("prep-1", "trainer", 100, 200, &key);
	spare_grant_to_hex(&g, hex, sizeof(hex));
	EXPECT_EQ(spared_grant_check(&sg, hex, strlen(hex), true, NULL, 150, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(spared_grant_check(&sg, hex, strlen(hex) - 1, true, NULL, 150, NULL),
		  SPARE_GRANT_MALFORMED);
	/* missing: nothing, or a short buffer */
	EXPECT_EQ(spared_grant_check(&sg, &g, 0, false, NULL, 150, NULL), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g) - 1, false, NULL, 150, NULL),
		  SPARE_GRANT_MALFORMED);
	/* forged: signed with another key under the same id, or edited */
	g = make("prep-1", "trainer", 100, 200, &other);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, NULL, 150, NULL), SPARE_GRANT_FORGED);
	g = make("prep-1", "trainer", 100, 200, &key);
	g.slabs = htole32(50);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, NULL, 150, NULL), SPARE_GRANT_FORGED);
	/* expired, not yet valid */
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, NULL, 200, NULL), SPARE_GRANT_EXPIRED);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, NULL, 99, NULL), SPARE_GRANT_NOT_YET);
	/* for someone else */
	g = make("prep-2", "trainer", 100, 200, &key);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, NULL, 150, NULL),
		  SPARE_GRANT_WRONG_DONOR);
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, "intruder", 150, NULL),
		  SPARE_GRANT_WRONG_CLIENT);
	/* the refused ones were not recorded: the same grant passes for its client */
	EXPECT_EQ(spared_grant_check(&sg, &g, sizeof(g), false, "trainer", 150, NULL), SPARE_GRANT_OK);
	spared_grants_free(&sg);
	EXPECT(spared_grants_init(&sg, &key, "", 64) != 0);
	EXPECT(spared_grants_init(&sg, &key, "a-name-far-too-long", 64) != 0);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(broker_list);
	TAP_RUN(grant_check);
	return tap_done();
}
