// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for spare-broker's soft state (userspace/broker/bstate.c):
 * heartbeats add and correct donors, silent donors expire, grants are
 * leases signed for the right donor and client, debits are all or nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "bstate.h"
#include "tap.h"

static const struct spare_grant_key key = { .id = 3, .key = "k0k1k2k3k4k5k6k7k8k9kakbkckdkek" };

static struct broker_donor hb(const char *id, const char *domain, uint64_t free_slabs)
{
	struct broker_donor d;

	memset(&d, 0, sizeof(d));
	snprintf(d.donor_id, sizeof(d.donor_id), "%s", id);
	snprintf(d.addr, sizeof(d.addr), "%s.example:18515", id);
	snprintf(d.domain, sizeof(d.domain), "%s", domain);
	d.free_slabs = free_slabs;
	d.hb_interval_ms = 1000;
	d.slab_shift = 30;
	return d;
}

static void heartbeats_and_expiry(void)
{
	struct bstate st;
	struct broker_donor d;

	EXPECT_EQ(bstate_init(&st, 4, 3, 60, 5, &key, 1), 0);
	d = hb("a", "r1", 5);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	d = hb("b", "r2", 7);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(st.live, 2);
	EXPECT_EQ(bstate_total_free(&st), 12);
	EXPECT_EQ(st.ndomains, 2);
	/* a heartbeat corrects the count and may move the donor's domain */
	d = hb("a", "r3", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 2000), 0);
	EXPECT_EQ(bstate_total_free(&st), 9);
	EXPECT_EQ(st.n, 2);
	EXPECT(strcmp(bstate_find(&st, "a")->domain, "r3") == 0);
	/* 3 periods of 1000 ms: "b" (last heard at 1000) goes after 4000 */
	EXPECT_EQ(bstate_expire(&st, 4000), 0);
	EXPECT_EQ(bstate_expire(&st, 4001), 1);
	EXPECT_EQ(st.live, 1);
	EXPECT_EQ(bstate_total_free(&st), 2);
	EXPECT(!bstate_find(&st, "b")->live);
	/* it comes back with its next heartbeat, in the same slot */
	d = hb("b", "r2", 7);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5000), 0);
	EXPECT_EQ(st.live, 2);
	EXPECT_EQ(st.n, 2);
	/* table full */
	d = hb("c", "r1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5000), 0);
	d = hb("d", "r1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5000), 0);
	d = hb("e", "r1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5000), -ENOSPC);
	/* once "a" is forgotten its slot goes to a newcomer */
	EXPECT_EQ(bstate_expire(&st, 5001), 1);	/* "a" last heard at 2000 */
	EXPECT(!bstate_find(&st, "a")->live);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5002), 0);
	EXPECT(bstate_find(&st, "a") == NULL);
	EXPECT(bstate_find(&st, "e") != NULL && bstate_find(&st, "e")->live);
	EXPECT(strcmp(bstate_find(&st, "b")->addr, "b.example:18515") == 0);
	EXPECT_EQ(st.live, 4);
	EXPECT_EQ(bstate_total_free(&st), 7 + 1 + 1 + 1);
	{
		struct spare_grant g[3];

		EXPECT_EQ(bstate_grant(&st, "t", 1, 2, 0, 100, g, NULL), 0);	/* r1 and r2 */
		EXPECT(strcmp(g[0].donor_id, "a") && strcmp(g[1].donor_id, "a"));
	}
	d = hb("f", "r1", 1);
	d.hb_interval_ms = 0;
	EXPECT_EQ(bstate_heartbeat(&st, &d, 5000), -EINVAL);
	bstate_free(&st);
}

static void grants_are_signed_leases(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[6];
	char gdom[6][BROKER_DOMAIN_LEN];
	struct spare_grant_info gi;

	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 2), 0);
	for (int i = 0; i < 4; i++) {
		char id[8], dom[8];

		snprintf(id, sizeof(id), "d%d", i);
		snprintf(dom, sizeof(dom), "r%d", i % 3);	/* d0 and d3 share r0 */
		d = hb(id, dom, 10);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	}
	memset(gdom, 0x55, sizeof(gdom));
	EXPECT_EQ(bstate_grant(&st, "trainer", 2, 3, 0, 100000, g, gdom), 0);
	EXPECT_EQ(bstate_total_free(&st), 34);
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(spare_grant_decode(&g[i], &gi), 0);
		EXPECT_EQ(spare_grant_verify(&g[i], &key, 1, gi.donor_id, "trainer", 100000,
					     NULL, NULL), 0);
		EXPECT_EQ(gi.key_id, 3);
		EXPECT_EQ(gi.slabs, 1);
		EXPECT(gi.not_before == 100000 - 5 && gi.expiry == 100000 + 60);
		/* the lease runs out */
		EXPECT_EQ(spare_grant_verify(&g[i], &key, 1, gi.donor_id, "trainer", 100060,
					     NULL, NULL), SPARE_GRANT_EXPIRED);
		EXPECT(strcmp(gi.donor_addr + strlen(gi.donor_id), ".example:18515") == 0);
		/* each grant with its donor's domain, NUL padded: d0, d3 in r0 */
		EXPECT(broker_str_ok(gdom[i], BROKER_DOMAIN_LEN));
		EXPECT_EQ(gdom[i][1] - '0', (gi.donor_id[1] - '0') % 3);
		EXPECT(!memcmp(gdom[i], bstate_find(&st, gi.donor_id)->domain, BROKER_DOMAIN_LEN));
	}
	/* a slab's copies: distinct donors, never d0 with d3 */
	for (int s = 0; s < 2; s++) {
		char seen[4] = { 0 };

		for (int c = 0; c < 3; c++)
			seen[g[s * 3 + c].donor_id[1] - '0']++;
		EXPECT(seen[0] + seen[3] == 1 && seen[1] == 1 && seen[2] == 1);
	}
	/* a shorter lease is kept, a longer one capped */
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 10, 200, g, NULL), 0);
	EXPECT_EQ(le64toh(g[0].expiry), 210);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 1000, 200, g, NULL), 0);
	EXPECT_EQ(le64toh(g[0].expiry), 260);
	EXPECT_EQ(bstate_grant(&st, "", 1, 1, 0, 200, g, NULL), -EINVAL);
	EXPECT_EQ(st.grants_issued, 8);
	bstate_free(&st);
}

/* Renewal: one grant for N slabs on a live donor, found by address; no debit. */
static void renewals(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[1];
	char dom[BROKER_DOMAIN_LEN];
	struct spare_grant_info gi;

	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 2), 0);
	d = hb("d0", "rack-7", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	memset(dom, 0x55, sizeof(dom));
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 7, 0, 1000, g, dom), 0);
	EXPECT(!memcmp(dom, "rack-7", 7) && broker_str_ok(dom, sizeof(dom)));
	EXPECT_EQ(spare_grant_decode(&g[0], &gi), 0);
	EXPECT_EQ(gi.slabs, 7);
	EXPECT(!strcmp(gi.donor_id, "d0") && !strcmp(gi.client_id, "trainer"));
	EXPECT(gi.expiry == 1060);
	EXPECT_EQ(spare_grant_verify(&g[0], &key, 1, "d0", "trainer", 1000, NULL, NULL), 0);
	EXPECT_EQ(bstate_total_free(&st), 10);	/* nothing debited */
	EXPECT_EQ(bstate_renew(&st, "trainer", "d9.example:18515", 1, 0, 1000, g, NULL), -ENOENT);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 0, 0, 1000, g, NULL), -EINVAL);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", BROKER_MAX_RENEW + 1, 0,
			       1000, g, NULL), -EINVAL);
	EXPECT_EQ(bstate_renew(&st, "", "d0.example:18515", 1, 0, 1000, g, NULL), -EINVAL);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 1, 10, 1000, g, NULL), 0);
	EXPECT_EQ(le64toh(g[0].expiry), 1010);
	/* a forgotten donor is not renewed */
	bstate_expire(&st, 60000);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 1, 0, 1000, g, NULL), -ENOENT);
	EXPECT_EQ(st.renewals, 2);
	bstate_free(&st);
}

/* All or nothing, and a heartbeat undoes the debits. */
static void debit_all_or_nothing(void)
{
	struct bstate st;
	struct broker_donor d;
	static struct spare_grant g[BROKER_MAX_GRANTS];
	uint64_t before;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 3), 0);
	d = hb("a", "r1", 3);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("b", "r2", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	/* 3 slabs x 2 copies need 3 on each domain: b has 2 */
	before = bstate_total_free(&st);
	EXPECT_EQ(bstate_grant(&st, "c", 3, 2, 0, 10, g, NULL), -ENOSPC);
	EXPECT_EQ(bstate_total_free(&st), before);
	EXPECT_EQ(bstate_free_slabs(&st, 0), 3);
	EXPECT_EQ(bstate_free_slabs(&st, 1), 2);
	EXPECT_EQ(st.requests_nospace, 1);
	EXPECT_EQ(bstate_grant(&st, "c", 2, 2, 0, 10, g, NULL), 0);
	EXPECT_EQ(bstate_free_slabs(&st, 0), 1);
	EXPECT_EQ(bstate_free_slabs(&st, 1), 0);
	EXPECT_EQ(bstate_grant(&st, "c", 1, 2, 0, 10, g, NULL), -ENOSPC);
	/* the donor is the authority: its heartbeat restores the count */
	d = hb("b", "r2", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 100), 0);
	EXPECT_EQ(bstate_grant(&st, "c", 1, 2, 0, 10, g, NULL), 0);
	bstate_free(&st);
}

/* Many donors: the tree and the counts stay in step. */
static void many_donors(void)
{
	struct bstate st;
	struct broker_donor d;
	static struct spare_grant g[BROKER_MAX_GRANTS];
	uint64_t total = 0;
	int ok = 0;

	EXPECT_EQ(bstate_init(&st, 2000, 3, 60, 0, &key, 4), 0);
	for (int i = 0; i < 2000; i++) {
		char id[16], dom[16];

		snprintf(id, sizeof(id), "n%d", i);
		snprintf(dom, sizeof(dom), "rack%d", i % 50);
		d = hb(id, dom, (uint64_t)(i % 5));
		EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
		total += (uint64_t)(i % 5);
	}
	EXPECT_EQ(bstate_total_free(&st), total);
	while (bstate_grant(&st, "c", 16, 3, 0, 10, g, NULL) == 0)
		ok++;
	EXPECT(ok * 48 <= (int)total && ok * 48 > (int)total - 48 * 2);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < st.n; i++)
			sum += bstate_free_slabs(&st, i);
		EXPECT_EQ(sum, bstate_total_free(&st));
	}
	bstate_free(&st);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(heartbeats_and_expiry);
	TAP_RUN(grants_are_signed_leases);
	TAP_RUN(debit_all_or_nothing);
	TAP_RUN(renewals);
	TAP_RUN(many_donors);
	return tap_done();
}
