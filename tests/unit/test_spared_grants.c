// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spared's grant ledger (userspace/spared/grants.c), the
 * MAP path's grant check: binary and hex forms; forged, expired, not yet
 * valid, wrong donor, wrong client; replay (the same grant again from its
 * client adds nothing, from another client is refused); budgets, tokens,
 * expiry and the bounded ledger.
 */
#include <endian.h>
#include <stdio.h>
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

/*
 * A renewal (RENEW_GRANT) is the same grant id with a later expiry: the
 * ledger keeps one entry, counted once, whose expiry moves to the later
 * one (in either order), so a client that renews a grant five times holds
 * its slabs once, for as long as its newest renewal runs.
 */
static void renewal_extends(void)
{
	struct spared_grants sg;
	struct spare_grant a, r1, r2;
	struct spare_grant_info ia;
	bool known;

	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 16), 0);
	a = make_n("prep-1", "trainer", 100, 200, &key, 2);
	EXPECT_EQ(spare_grant_decode(&a, &ia), 0);
	ia.expiry = 300;
	EXPECT_EQ(spare_grant_issue(&ia, &key, &r1), 0);
	ia.expiry = 400;
	EXPECT_EQ(spare_grant_issue(&ia, &key, &r2), 0);
	EXPECT_EQ(accept_g(&sg, &a, "trainer", "trainer", 150, NULL), SPARE_GRANT_OK);
	for (int i = 0; i < 5; i++) {
		EXPECT_EQ(accept_g(&sg, &r1, "trainer", "trainer", 150, &known), SPARE_GRANT_OK);
		EXPECT(known);
	}
	EXPECT_EQ(sg.n, 1);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 150), 2);
	/* past the first grant's expiry, the renewal holds */
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 250), 2);
	EXPECT(spared_grant_held(&sg, "trainer", spared_grant_token(ia.id), 250));
	/* the newest first, then an older one: the later expiry stays */
	EXPECT_EQ(accept_g(&sg, &r2, "trainer", "trainer", 250, &known), SPARE_GRANT_OK);
	EXPECT_EQ(accept_g(&sg, &r1, "trainer", "trainer", 250, &known), SPARE_GRANT_OK);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 350), 2);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 400), 0);
	/* another client with the renewal: replayed, as before */
	EXPECT_EQ(accept_g(&sg, &r2, "trainer", "other", 250, &known), SPARE_GRANT_REPLAYED);
	spared_grants_free(&sg);
}

/*
 * One client cannot crowd others out of the ledger: an owner holds at
 * most its share (SPARED_GRANTS_SHARE of the ledger), and once it is at
 * its share its next grant is refused while other clients' grants are
 * still taken. Expired grants give the share back.
 */
static void fair_share(void)
{
	struct spared_grants sg;
	struct spare_grant g;
	size_t share = spared_grants_share(1024);
	int ok = 0, refused = 0;

	EXPECT(share >= 16 && share < 1024);
	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 1024), 0);
	/* the greedy client presents as many grants as the whole ledger holds */
	for (int i = 0; i < 1024; i++) {
		g = make("prep-1", "greedy", 100, 200 + (uint64_t)(i & 1) * 100, &key);
		if (accept_g(&sg, &g, "greedy", "greedy", 150, NULL) == SPARE_GRANT_OK)
			ok++;
		else
			refused++;
	}
	EXPECT_EQ(ok, (int)share);
	EXPECT_EQ(refused, 1024 - (int)share);
	EXPECT_EQ(spared_grant_budget(&sg, "greedy", 150), share);
	/* an honest client still gets in, up to its own share */
	for (size_t i = 0; i < share; i++) {
		g = make("prep-1", "honest", 100, 300, &key);
		if (accept_g(&sg, &g, "honest", "honest", 150, NULL) != SPARE_GRANT_OK) {
			EXPECT_EQ(i, share);	/* reached only on a failure */
			break;
		}
	}
	EXPECT_EQ(spared_grant_budget(&sg, "honest", 150), share);
	g = make("prep-1", "honest", 100, 300, &key);
	EXPECT_EQ(accept_g(&sg, &g, "honest", "honest", 150, NULL), SPARE_GRANT_OWNER_FULL);
	/* a grant the owner holds already is still welcome (a reconnect) */
	EXPECT_EQ(sg.n, 2 * share);
	/* half of greedy's grants expire at 200: room for as many again */
	g = make("prep-1", "greedy", 100, 400, &key);
	EXPECT_EQ(accept_g(&sg, &g, "greedy", "greedy", 250, NULL), SPARE_GRANT_OK);
	EXPECT_EQ(spared_grant_budget(&sg, "greedy", 250), share / 2 + 1);
	spared_grants_free(&sg);
	/* a small ledger is one share: a single client may fill it */
	EXPECT_EQ(spared_grants_share(3), 3);
	EXPECT_EQ(spared_grants_share(65536), 65536 / 16);
}

/* Tokens and replays are found among many grants of many owners. */
static void many_owners(void)
{
	static struct spare_grant gs[4096];
	struct spared_grants sg;
	struct spare_grant_info gi;
	int bad = 0;

	EXPECT_EQ(spared_grants_init(&sg, &key, "prep-1", 4096), 0);
	for (int i = 0; i < 4096; i++) {
		char owner[16];

		snprintf(owner, sizeof(owner), "c%d", i % 64);
		gs[i] = make("prep-1", owner, 100, 200 + (uint64_t)(i % 50), &key);
		bad += accept_g(&sg, &gs[i], owner, owner, 150, NULL) != SPARE_GRANT_OK;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(sg.n, 4096);
	for (int i = 0; i < 4096; i++) {
		char owner[16], other[16];
		bool known;

		snprintf(owner, sizeof(owner), "c%d", i % 64);
		snprintf(other, sizeof(other), "c%d", (i + 1) % 64);
		EXPECT_EQ(spare_grant_decode(&gs[i], &gi), 0);
		bad += !spared_grant_held(&sg, owner, spared_grant_token(gi.id), 150);
		bad += spared_grant_held(&sg, other, spared_grant_token(gi.id), 150);
		bad += accept_g(&sg, &gs[i], owner, owner, 150, &known) != SPARE_GRANT_OK || !known;
		bad += accept_g(&sg, &gs[i], NULL, other, 150, NULL) != SPARE_GRANT_REPLAYED;
	}
	EXPECT_EQ(bad, 0);
	/* the grants expiring at 200..224 go; the others are still found */
	{
		size_t left = 0;

		for (int i = 0; i < 4096; i++)
			left += 200 + (uint64_t)(i % 50) > 225;
		EXPECT_EQ(spared_grants_purge(&sg, 225), left);
	}
	for (int i = 0; i < 4096; i++) {
		char owner[16];

		snprintf(owner, sizeof(owner), "c%d", i % 64);
		EXPECT_EQ(spare_grant_decode(&gs[i], &gi), 0);
		bad += spared_grant_held(&sg, owner, spared_grant_token(gi.id), 225) !=
		       (gi.expiry > 225);
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(spared_grants_purge(&sg, 250), 0);
	spared_grants_free(&sg);
}

/*
 * Version 2: a donor that holds only the broker's public key (no version 1
 * key) takes the broker's grants and refuses what a donor could make:
 * a version 1 grant under any key (the reason says so), a grant signed
 * by a key of its own under the broker's key id, a tampered grant. New
 * keys after a reload (spared_grants_set_keys): the retired key's grants
 * are refused, the ledger's entries stay.
 */
static void public_keys_only(void)
{
	struct spared_grants sg;
	struct spare_grant_keys dk = { 0 };
	struct spare_grant_signkey bk, mine, next;
	struct spare_grant_info gi;
	struct spare_grant g, f;
	uint8_t seed[32];
	bool known;

	memset(seed, 1, sizeof(seed));
	spare_grant_signkey_from_seed(&bk, 3, seed);
	memset(seed, 2, sizeof(seed));
	spare_grant_signkey_from_seed(&mine, 3, seed);
	memset(seed, 3, sizeof(seed));
	spare_grant_signkey_from_seed(&next, 4, seed);
	dk.pub[dk.npub++] = spare_grant_signkey_public(&bk);
	EXPECT_EQ(spared_grants_init(&sg, NULL, "prep-1", 64), 0);
	spared_grants_set_keys(&sg, &dk);
	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	strcpy(gi.client_id, "trainer");
	strcpy(gi.donor_id, "prep-1");
	strcpy(gi.donor_addr, "10.0.0.1:18515");
	gi.slabs = 2;
	gi.not_before = 100;
	gi.expiry = 200;
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &g), 0);
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "trainer", 150, &known), 0);
	EXPECT(!known);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 150), 2);
	/* what a donor could make */
	spare_grant_new_id(gi.id);
	EXPECT_EQ(spare_grant_issue(&gi, &key, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_V1_OFF);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &mine, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_FORGED);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &f), 0);
	f.slabs = htole32(64);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_FORGED);
	/* rotation: both keys, then only the new one */
	dk.pub[dk.npub++] = spare_grant_signkey_public(&next);
	spared_grants_set_keys(&sg, &dk);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &next, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), 0);
	dk.pub[0] = dk.pub[1];
	dk.npub = 1;
	spared_grants_set_keys(&sg, &dk);
	spare_grant_new_id(gi.id);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_UNKNOWN_KEY);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 150), 4);	/* accepted ones stay */
	spared_grants_free(&sg);
}

/*
 * Version 3: a donor with grant-v3 (its key derived from its broker key)
 * takes the broker's version 3 grant naming it, and a renewal (same id,
 * later expiry) as known; refuses one tagged with another donor's key, a
 * tampered one, one naming another donor, the same grant from another
 * owner (replay through the ledger), and, without grant-v3, every version
 * 3 grant with its own reason.
 */
static void version3(void)
{
	struct spared_grants sg, nov3;
	struct spare_grant_keys dk = { 0 }, pub = { 0 };
	struct spare_grant_signkey bk;
	struct spare_grant_info gi;
	struct spare_grant g, f;
	uint8_t kd[32], kg[32], other[32], kg_other[32], seed[32];
	bool known;

	memset(kd, 0x31, sizeof(kd));
	memset(other, 0x32, sizeof(other));
	memset(seed, 1, sizeof(seed));
	spare_grant_signkey_from_seed(&bk, 3, seed);
	EXPECT_EQ(spare_grant_v3_key(kg, kd, "prep-1"), 0);	/* the broker's copy */
	EXPECT_EQ(spare_grant_v3_key(kg_other, other, "prep-1"), 0);
	dk.pub[dk.npub++] = spare_grant_signkey_public(&bk);
	pub = dk;
	EXPECT_EQ(spare_grant_keys_set_v3(&dk, kd, "prep-1"), 0);	/* spared's */
	EXPECT_EQ(spared_grants_init(&sg, NULL, "prep-1", 64), 0);
	spared_grants_set_keys(&sg, &dk);
	EXPECT(sg.keys.has_v3);
	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	strcpy(gi.client_id, "trainer");
	strcpy(gi.donor_id, "prep-1");
	strcpy(gi.donor_addr, "10.0.0.1:18515");
	gi.slabs = 2;
	gi.not_before = 100;
	gi.expiry = 200;
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &g), 0);
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "trainer", 150, &known), 0);
	EXPECT(!known);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 150), 2);
	/* version 2 still taken beside it */
	spare_grant_new_id(gi.id);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), 0);
	/* a renewal of the version 3 grant: known, counted once */
	memcpy(gi.id, g.grant_id, sizeof(gi.id));
	gi.expiry = 260;
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 160, &known), 0);
	EXPECT(known);
	EXPECT_EQ(spared_grant_budget(&sg, "trainer", 160), 4);
	/* replay: the same grant id from another owner */
	EXPECT_EQ(accept_g(&sg, &g, "trainer", "other", 150, NULL), SPARE_GRANT_REPLAYED);
	/* another donor's key, or tampered */
	spare_grant_new_id(gi.id);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg_other, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_FORGED);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	f.slabs = htole32(64);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_FORGED);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	f.tag[31] ^= 0x80;
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_FORGED);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	f.reserved[0] = 1;
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_MALFORMED);
	/* for another donor (whatever key): not ours */
	strcpy(gi.donor_id, "prep-2");
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	EXPECT_EQ(accept_g(&sg, &f, "trainer", "trainer", 150, NULL), SPARE_GRANT_WRONG_DONOR);
	/* a donor without grant-v3 (public keys only) */
	EXPECT_EQ(spared_grants_init(&nov3, NULL, "prep-1", 64), 0);
	spared_grants_set_keys(&nov3, &pub);
	EXPECT_EQ(accept_g(&nov3, &g, "trainer", "trainer", 150, NULL), SPARE_GRANT_V3_OFF);
	spared_grants_free(&nov3);
	spare_grant_keys_wipe(&dk);
	spared_grants_free(&sg);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(grant_check);
	TAP_RUN(budget_and_tokens);
	TAP_RUN(fair_share);
	TAP_RUN(renewal_extends);
	TAP_RUN(many_owners);
	TAP_RUN(public_keys_only);
	TAP_RUN(version3);
	return tap_done();
}
