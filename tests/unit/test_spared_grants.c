// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spared's grant ledger (userspace/spared/grants.c), the
 * MAP path's grant check: binary and hex forms; forged, expired, not yet
 * valid, wrong donor, wrong client; replay (the same grant again from its
 * client adds nothing, from another client is refused); budgets, tokens,
 * expiry and the bounded ledger.
 */
#include <endian.h>
#include <string.h>

#include <sodium.h>

#include "grants.h"
#include "tap.h"

static const struct spare_grant_key key = { .id = 9, .key = "abcdefghijklmnopqrstuvwxyz01234" };

static struct spare_grant make_n(const char *donor, const char *client, uint64_t nb,
				 uint64_t exp, const struct spare_grant_key *k, uint32_t slabs)
{
	struct spare_grant_info gi;
	struct spare_grant g;

	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	strcpy(gi.client_id, client);
	strcpy(gi.donor_id, donor);
	strcpy(gi.donor_addr, "10.0.0.1:18515");
	gi.slabs = slabs;
	gi.not_before = nb;
	gi.expiry = exp;
	spare_grant_issue(&gi, k, &g);
	return g;
}

static struct spare_grant make(const char *donor, const char *client, uint64_t nb, uint64_t exp,
			       const struct spare_grant_key *k)
{
	return make_n(donor, client, nb, exp, k, 1);
}

static int accept_g(struct spared_grants *sg, const struct spare_grant *g, const char *client,
		    const char *owner, uint64_t now, bool *known)
{
	bool k;

	return spared_grant_accept(sg, g, sizeof(*g), false, client, owner, now, NULL,
				   known ? known : &k);
}

static void grant_check(void)
{
	struct spared_grants sg;
	struct spare_grant_key other = { .id = 9, .key = "0000000000000000000000000000000" };
	struct spare_grant g;
	struct spare_grant_info info;
	char hex[SPARE_GRANT_HEX_LEN + 1];
	bool known;

	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 64), 0);
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(spared_grant_accept(&sg, &g, sizeof(g), false, "trainer", "trainer", 150,
				      &info, &known), SPARE_GRANT_OK);
	EXPECT(!known);
	EXPECT(strcmp(info.client_id, "trainer") == 0);
	/* again from its client (a new session): fine, but nothing new */
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "trainer", 151, &known), SPARE_GRANT_OK);
	EXPECT(known);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 151), 1);
	/* from anyone else: replayed (without authentication the owner is the uuid) */
	EXPECT_EQ(accept_g(&sg, &g, NULL, "0123abcd", 151, NULL), SPARE_GRANT_REPLAYED);
	EXPECT_EQ(spared_grant_budget(&sg, "0123abcd", 151), 0);
	/* hex, as configfs carries it */
	g = make("prep-1", "trainer", 100, 200, &key);
	spare_grant_to_hex(&g, hex, sizeof(hex));
	EXPECT_EQ(spared_grant_accept(&sg, hex, strlen(hex), true, NULL, "u1", 150, NULL, &known),
		  SPARE_GRANT_OK);
	EXPECT_EQ(spared_grant_accept(&sg, hex, strlen(hex) - 1, true, NULL, "u1", 150, NULL,
				      &known), SPARE_GRANT_MALFORMED);
	/* missing: nothing, or a short buffer */
	EXPECT_EQ(spared_grant_accept(&sg, &g, 0, false, NULL, "u1", 150, NULL, &known),
		  SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spared_grant_accept(&sg, &g, sizeof(g) - 1, false, NULL, "u1", 150, NULL,
				      &known), SPARE_GRANT_MALFORMED);
	/* forged: signed with another key under the same id, or edited */
	g = make("prep-1", "trainer", 100, 200, &other);
	EXPECT_EQ(accept_g(&sg, &g, NULL, "u1", 150, NULL), SPARE_GRANT_FORGED);
	g = make("prep-1", "trainer", 100, 200, &key);
	g.slabs = htole32(50);
	EXPECT_EQ(accept_g(&sg, &g, NULL, "u1", 150, NULL), SPARE_GRANT_FORGED);
	/* expired, not yet valid */
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(accept_g(&sg, &g, NULL, "u1", 200, NULL), SPARE_GRANT_EXPIRED);
	EXPECT_EQ(accept_g(&sg, &g, NULL, "u1", 99, NULL), SPARE_GRANT_NOT_YET);
	/* for someone else */
	g = make("prep-2", "trainer", 100, 200, &key);
	EXPECT_EQ(accept_g(&sg, &g, NULL, "u1", 150, NULL), SPARE_GRANT_WRONG_DONOR);
	g = make("prep-1", "trainer", 100, 200, &key);
	EXPECT_EQ(accept_g(&sg, &g, "intruder", "intruder", 150, NULL), SPARE_GRANT_WRONG_CLIENT);
	/* the refused ones were not recorded: the same grant passes for its client */
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "trainer", 150, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "", 150, NULL), SPARE_GRANT_WRONG_CLIENT);
	spared_grants_free(&sg);
	EXPECT(spared_grants_init(&sg, &key, "", 64) != 0);
	EXPECT(spared_grants_init(&sg, &key, "a-name-far-too-long", 64) != 0);
	EXPECT(spared_grants_init(&sg, &key, "prep-1", 0) != 0);
}

static void budget_and_tokens(void)
{
	struct spared_grants sg;
	struct spare_grant a, b, c;
	struct spare_grant_info ia;

	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 3), 0);
	a = make_n("prep-1", "trainer", 100, 200, &key, 2);
	b = make_n("prep-1", "trainer", 100, 300, &key, 3);
	EXPECT_EQ(accept_g(&sg, &a, "trainer", "trainer", 150, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(accept_g(&sg, &b, "trainer", "trainer", 150, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 150), 5);
	EXPECT_EQ(spared_grant_budget(&sg, "other", 150), 0);
	/* the token is the id's first 8 bytes, little-endian */
	EXPECT_EQ(spare_grant_decode(&a, &ia), 0);
	EXPECT(spared_grant_held(&sg, "trainer", spared_grant_token(ia.id), 150));
	EXPECT(!spared_grant_held(&sg, "other", spared_grant_token(ia.id), 150));
	EXPECT(!spared_grant_held(&sg, "trainer", spared_grant_token(ia.id) ^ 1, 150));
	EXPECT(!spared_grant_held(&sg, "trainer", 0, 150));
	/* a expires at 200: its slabs no longer count, its token no longer holds */
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 200), 3);
	EXPECT(!spared_grant_held(&sg, "trainer", spared_grant_token(ia.id), 200));
	/* bounded: the third fits, a fourth live one does not ... */
	c = make("prep-1", "trainer", 100, 300, &key);
	EXPECT_EQ(accept_g(&sg, &c, "trainer", "trainer", 150, NULL), SPARE_GRANT_OK);
	c = make("prep-1", "trainer", 100, 300, &key);
	EXPECT_EQ(accept_g(&sg, &c, "trainer", "trainer", 150, NULL), SPARE_GRANT_CACHE_FULL);
	/* ... until one has expired and is purged to make room */
	EXPECT_EQ(accept_g(&sg, &c, "trainer", "trainer", 250, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(sg.n, 3);
	EXPECT_EQ(spared_grants_purge(&sg, 300), 0);
	spared_grants_free(&sg);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(grant_check);
	TAP_RUN(budget_and_tokens);
	return tap_done();
}
