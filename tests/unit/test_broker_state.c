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
#include "spare_grant_pool.h"
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
		char id[16], dom[16];

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

/*
 * Legacy renewal (RENEW_REQ): one grant for N slabs on a live donor, found
 * by address, no debit; but never more slabs than the donor may lend, and
 * each one counts towards the client's grant cap.
 */
static void legacy_renewals(void)
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
	/* more than a donor of 2^30-byte slabs may lend (2^36 bytes: 64) */
	EXPECT_EQ(bstate_set_caps(&st, UINT64_C(1) << 36, 0, 3), 0);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 65, 0, 1000, g, NULL), -E2BIG);
	/* the grant cap (3): two so far, one more, then refused */
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 64, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 1, 0, 1000, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_renew(&st, "other", "d0.example:18515", 1, 0, 1000, g, NULL), 0);
	/* their leases over, it may again */
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 1, 0, 1060, g, NULL), 0);
	/* a forgotten donor is not renewed */
	bstate_expire(&st, 60000);
	EXPECT_EQ(bstate_renew(&st, "trainer", "d0.example:18515", 1, 0, 1000, g, NULL), -ENOENT);
	EXPECT_EQ(st.renewals, 5);
	bstate_free(&st);
}

/*
 * ROOM_REQ: room on a donor the client names (a monitor's standby slabs,
 * copies moving there) is new slabs, so it is served as a GRANT_REQ is:
 * debited from that donor's free count, never beyond it, and within the
 * client's share and grant caps; a donor not live there is -ENOENT.
 */
static void room_debits(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[1];
	struct spare_grant_info gi;
	char dom[BROKER_DOMAIN_LEN];
	int got = 0;

	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 9), 0);
	d = hb("d0", "rack-7", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("d1", "rack-8", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	memset(dom, 0x55, sizeof(dom));
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 4, 0, 1000, g, dom), 0);
	EXPECT(!memcmp(dom, "rack-7", 7));
	EXPECT_EQ(spare_grant_decode(&g[0], &gi), 0);
	EXPECT(gi.slabs == 4 && !strcmp(gi.donor_id, "d0") && !strcmp(gi.client_id, "trainer"));
	EXPECT_EQ(spare_grant_verify(&g[0], &key, 1, "d0", "trainer", 1000, NULL, NULL), 0);
	EXPECT_EQ(bstate_total_free(&st), 16);	/* debited */
	EXPECT_EQ(bstate_client_slabs(&st, "trainer"), 4);
	/* never more than the donor has free */
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 7, 0, 1000, g, NULL), -ENOSPC);
	EXPECT_EQ(bstate_total_free(&st), 16);
	while (got < 20 && !bstate_room(&st, "trainer", "d0.example:18515", 1, 0, 1000, g, NULL))
		got++;
	EXPECT_EQ(got, 6);
	EXPECT_EQ(bstate_room(&st, "trainer", "d9.example:18515", 1, 0, 1000, g, NULL), -ENOENT);
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 0, 0, 1000, g, NULL), -EINVAL);
	EXPECT_EQ(bstate_room(&st, "", "d1.example:18515", 1, 0, 1000, g, NULL), -EINVAL);
	/* the client share (50%): trainer holds 10 of 10 free + 10 held */
	EXPECT_EQ(bstate_set_caps(&st, 0, 50, 0), 0);
	EXPECT_EQ(bstate_room(&st, "trainer", "d1.example:18515", 1, 0, 1000, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_room(&st, "other", "d1.example:18515", 5, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_total_free(&st), 5);
	/* the grant cap */
	EXPECT_EQ(bstate_set_caps(&st, 0, 100, 1), 0);
	EXPECT_EQ(bstate_room(&st, "other", "d1.example:18515", 1, 0, 1000, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_room(&st, "third", "d1.example:18515", 1, 0, 1000, g, NULL), 0);
	EXPECT_EQ(st.rooms, 9);
	bstate_free(&st);
}

/*
 * Renewal of a named grant (RENEW_GRANT) re-issues it: the same id,
 * client, donor and slab count with a new expiry, so however often a
 * client renews, a donor (which counts a grant id once) lends it no more.
 * It debits nothing. Refused: a grant the broker never signed, one with an
 * altered slab count, another client's, one for more than its donor may
 * lend, one whose donor is gone or moved, one long expired.
 */
static void renew_grant_reissues(void)
{
	static const struct spare_grant_key other = { .id = 3, .key = "o0o1o2o3o4o5o6o7o8o9oaobocodoeo" };
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g, r, bad;
	struct spare_grant_info gi, ri;
	char dom[BROKER_DOMAIN_LEN];
	uint64_t before;

	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 5), 0);
	d = hb("d0", "rack-1", 4);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 0, 1000, &g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	before = bstate_total_free(&st);
	EXPECT_EQ(before, 3);
	for (int i = 0; i < 5; i++) {
		memset(dom, 0x55, sizeof(dom));
		EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1030 + (uint64_t)i, &r, dom), 0);
		EXPECT_EQ(spare_grant_decode(&r, &ri), 0);
		EXPECT(!memcmp(ri.id, gi.id, sizeof(ri.id)));
		EXPECT(!strcmp(ri.client_id, "trainer") && !strcmp(ri.donor_id, "d0") &&
		       !strcmp(ri.donor_addr, gi.donor_addr));
		EXPECT_EQ(ri.slabs, 1);
		EXPECT_EQ(ri.expiry, 1090 + (uint64_t)i);
		EXPECT_EQ(ri.not_before, 1025 + (uint64_t)i);
		EXPECT(!strcmp(dom, "rack-1"));
		EXPECT_EQ(spare_grant_verify(&r, &key, 1, "d0", "trainer", 1030, NULL, NULL), 0);
	}
	EXPECT_EQ(bstate_total_free(&st), before);	/* renewing debits nothing */
	/* a renewal renews again, and a lease asked for is capped */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &r, 10, 1050, &r, NULL), 0);
	EXPECT_EQ(le64toh(r.expiry), 1060);
	EXPECT_EQ(le32toh(r.slabs), 1);
	/* never issued by this broker: another key's tag */
	bad = g;
	spare_grant_sign(&bad, &other);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* the slab count altered: 4096 slabs on a donor with 4 */
	bad = g;
	bad.slabs = htole32(4096);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* the id altered */
	bad = g;
	bad.grant_id[0] ^= 1;
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* not a grant at all */
	bad = g;
	bad.magic = 0;
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* another client's grant */
	EXPECT_EQ(bstate_renew_grant(&st, "mallory", &g, 0, 1030, &r, NULL), -EACCES);
	/* signed with the broker's key (a donor holds it) for more than the
	 * donor may lend: 2^44 bytes of 2^30-byte slabs is 16,384 */
	gi.slabs = 16385;
	EXPECT_EQ(spare_grant_issue(&gi, &key, &bad), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -E2BIG);
	gi.slabs = 16384;
	EXPECT_EQ(spare_grant_issue(&gi, &key, &bad), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), 0);
	/* expired, but less than a lease ago: renewed; a lease or more: not.
	 * The grant's own lease (65 s: 60 and 5 of clock skew) is longer
	 * than the broker's (60 s), so it is the one */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1119, &r, NULL), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1124, &r, NULL), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1125, &r, NULL), -ETIME);
	/* the donor moved to another address: not its grant's donor now */
	d = hb("d0", "rack-1", 4);
	memset(d.addr, 0, sizeof(d.addr));
	snprintf(d.addr, sizeof(d.addr), "elsewhere:1");
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1030, &r, NULL), -ENOENT);
	/* gone */
	bstate_expire(&st, 60000);
	d = hb("d0", "rack-1", 4);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1030, &r, NULL), -ENOENT);
	EXPECT_EQ(st.renewals, 9);
	bstate_free(&st);
}

/*
 * A lapsed grant on a full donor: the donor has no free slab (ROOM_REQ is
 * refused), and the grant's renewal by id re-issues it all the same, until
 * one lease after it ended: the broker's lease, or the grant's own
 * (expiry - not_before, the clock skew included) if that is longer, which
 * is what sparectl keeps it for. After that: refused (-ETIME).
 */
static void renew_lapsed_full_donor(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g, r;
	struct spare_grant_info gi, ri;

	/* a 60 s lease and 30 s of clock skew: grants of 90 s */
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 30, &key, 11), 0);
	d = hb("d0", "rack-1", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 2, 0, 1000, &g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(gi.not_before == 970 && gi.expiry == 1060);
	/* the donor is full: it says so in its heartbeats */
	d = hb("d0", "rack-1", 0);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 2, 0, 1070, &r, NULL), -ENOSPC);
	/* lapsed 10 s ago: re-issued, nothing debited */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1070, &r, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&r, &ri), 0);
	EXPECT(!memcmp(ri.id, gi.id, sizeof(ri.id)) && ri.slabs == 2 && ri.expiry == 1130);
	EXPECT_EQ(bstate_total_free(&st), 0);
	/* lapsed 75 s ago: more than the broker's lease, less than the grant's */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1135, &r, NULL), 0);
	/* lapsed 90 s ago, a whole lease of its own: refused */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1150, &r, NULL), -ETIME);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 5000, &r, NULL), -ETIME);
	bstate_free(&st);
}

/*
 * Per-client caps: with a share of 50%, a client asking again and again
 * stops at half of what is free plus what it holds, and is still refused
 * after the donors' heartbeats restore their counts; another client is
 * served. The grant cap refuses past max_client_grants grants until their
 * leases run out.
 */
static void client_caps(void)
{
	static struct spare_grant g[BROKER_MAX_GRANTS];
	struct bstate st;
	struct broker_donor d;
	int got = 0;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 6), 0);
	EXPECT_EQ(bstate_set_caps(&st, 0, 101, 0), -EINVAL);
	EXPECT_EQ(bstate_set_caps(&st, 0, 50, 0), 0);
	d = hb("a", "r1", 50);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("b", "r2", 50);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	while (got < 200 && bstate_grant(&st, "greedy", 1, 1, 0, 10, g, NULL) == 0)
		got++;
	EXPECT_EQ(got, 50);
	EXPECT_EQ(bstate_grant(&st, "greedy", 1, 1, 0, 10, g, NULL), -EDQUOT);
	EXPECT_EQ(st.refused_share, 2);	/* the loop's last, and this one */
	EXPECT_EQ(bstate_total_free(&st), 50);
	/* the donors report what they lend no more: still refused */
	d = hb("a", "r1", 25);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	d = hb("b", "r2", 25);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_grant(&st, "greedy", 1, 1, 0, 11, g, NULL), -EDQUOT);
	/* a move counts too */
	EXPECT_EQ(bstate_move(&st, "greedy", 1, NULL, 0, NULL, 0, 0, 11, g, NULL), -EDQUOT);
	/* the honest client is served */
	EXPECT_EQ(bstate_grant(&st, "honest", 4, 2, 0, 11, g, NULL), 0);
	EXPECT_EQ(bstate_move(&st, "honest", 2, NULL, 0, NULL, 0, 0, 11, g, NULL), 0);
	/* the greedy one's leases (60 s from 10) over: it may ask again */
	EXPECT_EQ(bstate_grant(&st, "greedy", 1, 1, 0, 70, g, NULL), 0);
	/* the grant cap: 3 grants within their leases */
	EXPECT_EQ(bstate_set_caps(&st, 0, 100, 3), 0);
	EXPECT_EQ(bstate_grant(&st, "third", 1, 2, 0, 100, g, NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "third", 1, 2, 0, 100, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_grant(&st, "third", 1, 1, 0, 100, g, NULL), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "third", &g[0], 0, 100, &g[1], NULL), -EDQUOT);
	EXPECT_EQ(st.refused_grants, 2);
	EXPECT_EQ(bstate_grant(&st, "third", 1, 1, 0, 160, g, NULL), 0);
	bstate_free(&st);
}

/*
 * A donor's free count is held to what max_donor_bytes allows at its slab
 * size: 2^32 - 1 declared slabs of 1 GiB count as 16,384 (16 TiB).
 */
static void free_slabs_capped(void)
{
	struct bstate st;
	struct broker_donor d;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 7), 0);
	d = hb("a", "r1", UINT32_MAX);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_find(&st, "a")->reported, 16384);
	EXPECT_EQ(bstate_total_free(&st), 16384);
	EXPECT_EQ(st.donors_clamped, 1);
	d = hb("b", "r2", 16384);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(st.donors_clamped, 1);
	/* 1 MiB slabs: 2^24 of them */
	d = hb("c", "r3", UINT32_MAX);
	d.slab_shift = 20;
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_find(&st, "c")->reported, 1u << 24);
	EXPECT_EQ(bstate_set_caps(&st, UINT64_C(1) << 33, 0, 0), -EINVAL);
	EXPECT_EQ(bstate_set_caps(&st, UINT64_C(1) << 36, 0, 0), 0);
	d = hb("a", "r1", 100);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1), 0);
	EXPECT_EQ(bstate_find(&st, "a")->reported, 64);
	bstate_free(&st);
}

/* The address hb() gives donor @id. */
static void addr_of(char out[BROKER_ADDR_LEN], const char *id)
{
	memset(out, 0, BROKER_ADDR_LEN);
	snprintf(out, BROKER_ADDR_LEN, "%s.example:18515", id);
}

static size_t slot_of(const struct bstate *st, const char *id)
{
	return (size_t)(bstate_find(st, id) - st->donors);
}

/*
 * Moves: one grant on a live donor outside the avoid list with room for
 * all the slabs, in a fresh domain when one has room, debited.
 */
static void moves(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g;
	struct spare_grant_info gi;
	char avoid[BROKER_MAX_AVOID + 1][BROKER_ADDR_LEN];
	char adom[BROKER_MAX_AVOID + 1][BROKER_DOMAIN_LEN];
	char dom[BROKER_DOMAIN_LEN];
	int seen[4] = { 0 };

	memset(adom, 0, sizeof(adom));
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 5), 0);
	/* a0, a1 in rack-a; b0 in rack-b; c0 in rack-c */
	d = hb("a0", "rack-a", 50);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("a1", "rack-a", 40);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("b0", "rack-b", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("c0", "rack-c", 3);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);

	/*
	 * Copies on a0 (staying, rack-a) and b0 (evicting): avoid both
	 * addresses and rack-a. a1 and c0 are left; c0 is in a fresh domain
	 * (rack-c) and has 3 free: for 2 slabs it is chosen every time, though
	 * a1 has more free.
	 */
	addr_of(avoid[0], "a0");
	addr_of(avoid[1], "b0");
	strcpy(adom[0], "rack-a");
	memset(dom, 0x55, sizeof(dom));
	EXPECT_EQ(bstate_move(&st, "trainer", 2, avoid, 2, adom, 1, 0, 1000, &g, dom), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(!strcmp(gi.donor_id, "c0") && !strcmp(gi.donor_addr, "c0.example:18515"));
	EXPECT(!strcmp(dom, "rack-c") && broker_str_ok(dom, sizeof(dom)));
	/* a lease signed with the broker's key, for the client, of 2 slabs */
	EXPECT_EQ(gi.slabs, 2);
	EXPECT(!strcmp(gi.client_id, "trainer"));
	EXPECT_EQ(gi.key_id, 3);
	EXPECT(gi.not_before == 1000 - 5 && gi.expiry == 1000 + 60);
	EXPECT_EQ(spare_grant_verify(&g, &key, 1, "c0", "trainer", 1000, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_verify(&g, &key, 1, "c0", "other", 1000, NULL, NULL),
		  SPARE_GRANT_WRONG_CLIENT);
	{
		struct spare_grant_key other = key;

		other.key[0] ^= 1;
		EXPECT(spare_grant_verify(&g, &other, 1, "c0", "trainer", 1000, NULL, NULL) != 0);
	}
	/* debited: c0 has 1 left, visible to the next move */
	EXPECT_EQ(bstate_free_slabs(&st, slot_of(&st, "c0")), 1);
	EXPECT_EQ(bstate_total_free(&st), 50 + 40 + 10 + 1);
	EXPECT_EQ(st.moves, 1);
	EXPECT_EQ(st.grants_issued, 1);

	/*
	 * Now no donor in a fresh domain has 2 free (c0 has 1; b0 is avoided
	 * by address): the move falls back to a1, in rack-a with a copy that
	 * stays, the only donor with room.
	 */
	EXPECT_EQ(bstate_move(&st, "trainer", 2, avoid, 2, adom, 1, 0, 1000, &g, dom), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(!strcmp(gi.donor_id, "a1") && !strcmp(dom, "rack-a"));
	EXPECT_EQ(bstate_free_slabs(&st, slot_of(&st, "a1")), 38);
	/* with rack-c avoided too it still goes there: the only one with room */
	strcpy(adom[1], "rack-c");
	EXPECT_EQ(bstate_move(&st, "trainer", 2, avoid, 2, adom, 2, 0, 1000, &g, dom), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(!strcmp(gi.donor_id, "a1"));
	EXPECT_EQ(bstate_free_slabs(&st, slot_of(&st, "a1")), 36);
	/* one slab fits c0 again: back to the fresh domain */
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 2, adom, 1, 0, 1000, &g, dom), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(!strcmp(gi.donor_id, "c0") && !strcmp(dom, "rack-c"));
	EXPECT_EQ(bstate_free_slabs(&st, slot_of(&st, "c0")), 0);

	/* every live donor avoided: no space, nothing debited */
	addr_of(avoid[2], "a1");
	addr_of(avoid[3], "c0");
	{
		uint64_t before = bstate_total_free(&st);
		uint64_t moved = st.moves;

		EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 4, adom, 0, 0, 1000, &g, dom),
			  -ENOSPC);
		/* or the only one not avoided lacks the slabs (a1 has 36) */
		EXPECT_EQ(bstate_move(&st, "trainer", 37, avoid, 2, adom, 0, 0, 1000, &g, NULL),
			  -ENOSPC);
		EXPECT_EQ(bstate_total_free(&st), before);
		EXPECT_EQ(st.moves, moved);
		/* all of a1's 36 is fine */
		EXPECT_EQ(bstate_move(&st, "trainer", 36, avoid, 2, adom, 0, 0, 1000, &g, NULL), 0);
		EXPECT_EQ(bstate_free_slabs(&st, slot_of(&st, "a1")), 0);
	}
	/* the donor's next heartbeat restores its count, and it can be chosen again */
	d = hb("a1", "rack-a", 40);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_move(&st, "trainer", 5, avoid, 2, adom, 0, 0, 1000, &g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT(!strcmp(gi.donor_id, "a1"));

	/*
	 * Forgotten donors are never chosen: b0 and c0 (heard at 0) expire, a0
	 * and a1 (heard at 3000) do not. Nothing avoided: only rack-a's donors remain,
	 * though b0 had the room.
	 */
	d = hb("a0", "rack-a", 50);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
	d = hb("a1", "rack-a", 40);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
	EXPECT_EQ(bstate_expire(&st, 3001), 2);
	for (int i = 0; i < 200; i++) {
		EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 0, adom, 0, 0, 1000, &g, dom), 0);
		EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
		EXPECT(!strcmp(dom, "rack-a"));
		EXPECT(gi.donor_id[0] == 'a');
		/* give it back, so that the counts stay put */
		d = hb(gi.donor_id, "rack-a", gi.donor_id[1] == '0' ? 50 : 40);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
	}
	/* with a0 and a1 avoided, nothing is left (b0 had 10 free before it went) */
	{
		char aa[2][BROKER_ADDR_LEN];

		addr_of(aa[0], "a0");
		addr_of(aa[1], "a1");
		EXPECT_EQ(bstate_move(&st, "trainer", 1, aa, 2, adom, 0, 0, 1000, &g, NULL),
			  -ENOSPC);
		d = hb("b0", "rack-b", 10);	/* until it is heard from again */
		EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
		EXPECT_EQ(bstate_move(&st, "trainer", 1, aa, 2, adom, 0, 0, 1000, &g, dom), 0);
		EXPECT(!strcmp(g.donor_id, "b0") && !strcmp(dom, "rack-b"));
	}

	/* bad arguments */
	EXPECT_EQ(bstate_move(&st, "trainer", 0, avoid, 0, adom, 0, 0, 1000, &g, NULL), -EINVAL);
	EXPECT_EQ(bstate_move(&st, "trainer", BROKER_MAX_RENEW + 1, avoid, 0, adom, 0, 0, 1000,
			      &g, NULL), -EINVAL);
	EXPECT_EQ(bstate_move(&st, "", 1, avoid, 0, adom, 0, 0, 1000, &g, NULL), -EINVAL);
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, BROKER_MAX_AVOID + 1, adom, 0, 0, 1000,
			      &g, NULL), -EINVAL);
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 0, adom, BROKER_MAX_AVOID + 1, 0, 1000,
			      &g, NULL), -EINVAL);
	memset(avoid[4], 0, sizeof(avoid[4]));
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 5, adom, 0, 0, 1000, &g, NULL), -EINVAL);
	/* the lease: a shorter one kept, a longer one capped */
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 0, adom, 0, 10, 1000, &g, NULL), 0);
	EXPECT_EQ(le64toh(g.expiry), 1010);
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 0, adom, 0, 1000, 1000, &g, NULL), 0);
	EXPECT_EQ(le64toh(g.expiry), 1060);
	bstate_free(&st);

	/*
	 * Weighted by free slabs among the fresh-domain donors: x0 (90 free)
	 * wins far more often than x1 (10 free); y0 (rack-y, avoided) never,
	 * though it has the most.
	 */
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, &key, 6), 0);
	d = hb("x0", "rack-x", 90);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("x1", "rack-x", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	d = hb("y0", "rack-y", 1000);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	strcpy(adom[0], "rack-y");
	strcpy(adom[1], "rack-none");	/* a domain no donor has */
	for (int i = 0; i < 1000; i++) {
		EXPECT_EQ(bstate_move(&st, "t", 1, avoid, 0, adom, 2, 0, 1000, &g, NULL), 0);
		seen[g.donor_id[0] == 'y' ? 2 : g.donor_id[1] - '0']++;
		d = hb(g.donor_id, g.donor_id[0] == 'y' ? "rack-y" : "rack-x",
		       g.donor_id[0] == 'y' ? 1000 : g.donor_id[1] == '0' ? 90 : 10);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	}
	/* two draws, the larger wins: x1 only when both land on it (1 %) */
	EXPECT_EQ(seen[2], 0);
	EXPECT(seen[0] > 950 && seen[1] > 0 && seen[1] < 50);
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

/*
 * Failure domains are bounded: a donor that relabels itself on every
 * heartbeat (100,000 labels) holds one domain at a time, a domain no live
 * donor uses is reclaimed, and placement still keeps copies apart.
 */
static void domains_bounded(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[2];
	char dom[BROKER_DOMAIN_LEN];

	EXPECT_EQ(bstate_init(&st, 4, 3, 60, 0, &key, 5), 0);
	d = hb("fixed", "rack-0", 100);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	for (unsigned int i = 0; i < 100000; i++) {
		snprintf(dom, sizeof(dom), "label-%u", i);
		d = hb("churn", dom, 100);
		if (bstate_heartbeat(&st, &d, i) != 0 || st.ndomains != 2) {
			EXPECT_EQ(st.ndomains, 2);
			break;
		}
	}
	EXPECT_EQ(st.ndomains, 2);
	EXPECT(strcmp(bstate_find(&st, "churn")->domain, "label-99999") == 0);
	/* two domains: a slab's two copies go one on each */
	EXPECT_EQ(bstate_grant(&st, "c", 1, 2, 0, 10, g, NULL), 0);
	EXPECT(strcmp(g[0].donor_id, g[1].donor_id));
	/* the same label as "fixed": one domain, no room for two copies */
	d = hb("churn", "rack-0", 100);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 100000), 0);
	EXPECT_EQ(st.ndomains, 1);
	EXPECT_EQ(bstate_grant(&st, "c", 1, 2, 0, 10, g, NULL), -ENOSPC);
	/* a fresh label again: two domains */
	d = hb("churn", "rack-1", 100);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 100000), 0);
	EXPECT_EQ(st.ndomains, 2);
	EXPECT_EQ(bstate_grant(&st, "c", 1, 2, 0, 10, g, NULL), 0);
	/* forgotten donors free their domains; a returning one takes its label anew */
	EXPECT_EQ(bstate_expire(&st, 1000000), 2);
	EXPECT_EQ(st.ndomains, 0);
	d = hb("churn", "rack-9", 5);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000001), 0);
	EXPECT_EQ(st.ndomains, 1);
	/* many donors come and go with fresh labels: the table is reused */
	for (unsigned int i = 0; i < 20000; i++) {
		char id[16];

		snprintf(id, sizeof(id), "n%u", i);
		snprintf(dom, sizeof(dom), "dom-%u", i);
		d = hb(id, dom, 1);
		if (bstate_heartbeat(&st, &d, 2000000 + (uint64_t)i * 10000) != 0) {
			EXPECT_EQ(i, 0);	/* reached only on a failure */
			break;
		}
		bstate_expire(&st, 2000000 + (uint64_t)i * 10000 + 5000);
		if (st.ndomains > st.live) {
			EXPECT(st.ndomains <= st.live);
			break;
		}
	}
	EXPECT(st.ndomains <= st.max_donors);
	bstate_free(&st);
}

/*
 * A donor's declared heartbeat period is capped (max_hb_ms): one that
 * declares 2^32 - 1 ms and goes silent is forgotten after missed_hb capped
 * periods, not after 149 days.
 */
static void heartbeat_period_capped(void)
{
	struct bstate st;
	struct broker_donor d;

	EXPECT_EQ(bstate_init(&st, 4, 3, 60, 0, &key, 6), 0);
	EXPECT_EQ(st.max_hb_ms, BSTATE_MAX_HB_MS);
	st.max_hb_ms = 2000;
	d = hb("slow", "r1", 10);
	d.hb_interval_ms = UINT32_MAX;
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_find(&st, "slow")->hb_interval_ms, 2000);
	d = hb("fast", "r2", 10);
	d.hb_interval_ms = 500;
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	EXPECT_EQ(bstate_find(&st, "fast")->hb_interval_ms, 500);
	/* 3 x 500 ms for "fast", 3 x 2000 ms for "slow" */
	EXPECT_EQ(bstate_expire(&st, 2500), 0);
	EXPECT_EQ(bstate_expire(&st, 2501), 1);
	EXPECT_EQ(bstate_expire(&st, 7000), 0);
	EXPECT_EQ(bstate_expire(&st, 7001), 1);
	EXPECT(!bstate_find(&st, "slow")->live);
	EXPECT_EQ(bstate_total_free(&st), 0);
	bstate_free(&st);
}

/*
 * One live donor per address: a donor (another key) that registers at an
 * address a live donor holds is refused and changes nothing; the address
 * is free again once its holder moves or is forgotten.
 */
static void address_held_once(void)
{
	struct bstate st;
	struct broker_donor d, evil;
	struct spare_grant g[1];
	struct spare_grant_info gi;

	EXPECT_EQ(bstate_init(&st, 4, 3, 60, 0, &key, 7), 0);
	d = hb("honest", "r1", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	evil = hb("evil", "r2", UINT32_MAX);
	snprintf(evil.addr, sizeof(evil.addr), "%s", d.addr);
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 10), -EADDRINUSE);
	EXPECT(bstate_find(&st, "evil") == NULL);
	EXPECT_EQ(st.live, 1);
	EXPECT_EQ(bstate_total_free(&st), 10);
	/* its own heartbeats at its address are fine */
	EXPECT_EQ(bstate_heartbeat(&st, &d, 20), 0);
	/* a known donor cannot move onto it either */
	evil = hb("evil", "r2", 5);
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 30), 0);
	snprintf(evil.addr, sizeof(evil.addr), "%s", d.addr);
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 40), -EADDRINUSE);
	EXPECT(strcmp(bstate_find(&st, "evil")->addr, "evil.example:18515") == 0);
	EXPECT_EQ(bstate_renew(&st, "c", d.addr, 1, 0, 100, g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g[0], &gi), 0);
	EXPECT(strcmp(gi.donor_id, "honest") == 0);
	/* the holder moves away: the address is free */
	snprintf(d.addr, sizeof(d.addr), "moved.example:18515");
	EXPECT_EQ(bstate_heartbeat(&st, &d, 50), 0);
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 60), 0);
	EXPECT_EQ(bstate_renew(&st, "c", "honest.example:18515", 1, 0, 100, g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g[0], &gi), 0);
	EXPECT(strcmp(gi.donor_id, "evil") == 0);
	/* forgotten: its address goes to the next donor that claims it */
	EXPECT_EQ(bstate_expire(&st, 3055), 1);	/* honest, last heard at 50 */
	evil = hb("third", "r3", 1);
	snprintf(evil.addr, sizeof(evil.addr), "moved.example:18515");
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 3062), 0);
	/* compaction keeps the index right */
	EXPECT_EQ(bstate_expire(&st, 100000), 2);
	for (int i = 0; i < 8; i++) {
		char id[16];

		snprintf(id, sizeof(id), "n%d", i);
		d = hb(id, "r1", 1);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 200000 + (uint64_t)i * 10000), 0);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 200001 + (uint64_t)i * 10000), 0);
		bstate_expire(&st, 205000 + (uint64_t)i * 10000);
	}
	d = hb("last", "r1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 400000), 0);
	evil = hb("other", "r1", 1);
	snprintf(evil.addr, sizeof(evil.addr), "%s", d.addr);
	EXPECT_EQ(bstate_heartbeat(&st, &evil, 400001), -EADDRINUSE);
	bstate_free(&st);
}

/* DONORS_REP's pages: every donor once, live and lost as they are. */
static void donors_pages(void)
{
	static struct broker_donor_info v[BROKER_DONORS_PAGE];
	struct bstate st;
	struct broker_donor d;
	char id[16], dom[16];
	size_t n, seen = 0, start = 0;
	unsigned int i;

	EXPECT_EQ(bstate_init(&st, 400, 3, 60, 5, &key, 9), 0);
	for (i = 0; i < 300; i++) {
		snprintf(id, sizeof(id), "n%u", i);
		snprintf(dom, sizeof(dom), "r%u", i % 7);
		d = hb(id, dom, i % 5 + 1);
		d.hb_interval_ms = i == 7 ? 100 : 1000;
		EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	}
	EXPECT_EQ(bstate_expire(&st, 1400), 1);	/* n7: 3 x 100 ms */
	while ((n = bstate_donors_page(&st, start, 1500, v, BROKER_DONORS_PAGE))) {
		for (i = 0; i < n; i++) {
			unsigned int k = (unsigned int)(start + i);

			snprintf(id, sizeof(id), "n%u", k);
			EXPECT(strcmp(v[i].d.donor_id, id) == 0);
			EXPECT_EQ(v[i].live, k != 7);
			EXPECT_EQ(v[i].d.free_slabs, k == 7 ? 0 : k % 5 + 1);
			EXPECT_EQ(v[i].hb_age_ms, 500);
			EXPECT_EQ(v[i].d.slab_shift, 30);
		}
		seen += n;
		start += n;
		EXPECT(n == BROKER_DONORS_PAGE || start == st.n);
	}
	EXPECT_EQ(seen, 300);
	EXPECT_EQ(bstate_donors_page(&st, 300, 1500, v, BROKER_DONORS_PAGE), 0);
	bstate_free(&st);
}

/*
 * Version 2: the broker signs with its Ed25519 key and checks a grant it is
 * asked to renew with the public half (and, after a rotation, with the
 * older public keys it was given). A donor holds only public keys: what it
 * signs itself is not renewed; a version 1 grant is renewed only while the
 * broker holds a version 1 key, and comes back as version 2.
 */
static void renew_grant_ed25519(void)
{
	struct spare_grant_keys k = { 0 }, donor = { 0 }, rot = { 0 };
	struct spare_grant_signkey mine, next;
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g, r, bad, v1;
	struct spare_grant_info gi, ri;
	uint8_t seed[32];

	memset(seed, 0x5a, sizeof(seed));
	spare_grant_signkey_from_seed(&k.sign, 4, seed);
	k.has_sign = true;
	donor.pub[donor.npub++] = spare_grant_signkey_public(&k.sign);
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, NULL, 5), 0);
	EXPECT_EQ(bstate_set_grant_keys(&st, &donor), -EINVAL);	/* nothing to sign with */
	EXPECT_EQ(bstate_set_grant_keys(&st, &k), 0);
	d = hb("d0", "rack-1", 4);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 0, 1000, &g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g, &gi), 0);
	EXPECT_EQ(gi.version, 2);
	EXPECT_EQ(gi.key_id, 4);
	EXPECT_EQ(spare_grant_check(&g, &donor, "d0", "trainer", 1000, NULL, NULL), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1030, &r, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&r, &ri), 0);
	EXPECT(ri.version == 2 && !memcmp(ri.id, gi.id, sizeof(ri.id)) && ri.slabs == 1);
	EXPECT_EQ(spare_grant_check(&r, &donor, "d0", "trainer", 1030, NULL, NULL), 0);
	/* tampered: refused */
	bad = g;
	bad.slabs = htole32(4);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	bad = g;
	bad.sig[63] ^= 0x80;
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* minted by a donor with a key of its own under the broker's key id */
	memset(seed, 0x6b, sizeof(seed));
	spare_grant_signkey_from_seed(&mine, 4, seed);
	gi.slabs = 4;
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &mine, &bad), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* version 1 (the shared key): refused while the broker holds none ... */
	EXPECT_EQ(spare_grant_issue(&gi, &key, &v1), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &v1, 0, 1030, &r, NULL), -EBADMSG);
	/* ... renewed as version 2 while it does (the upgrade) */
	k.has_hmac = true;
	k.hmac = key;
	EXPECT_EQ(bstate_set_grant_keys(&st, &k), 0);
	gi.slabs = 1;
	EXPECT_EQ(spare_grant_issue(&gi, &key, &v1), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &v1, 0, 1030, &r, NULL), 0);
	EXPECT_EQ(le16toh(r.version), 2);
	EXPECT_EQ(spare_grant_check(&r, &donor, "d0", "trainer", 1030, NULL, NULL), 0);
	/* rotation: the broker now signs with key 5; key 4's grants are
	 * renewed while key 4 is among its public keys, then not */
	memset(seed, 0x7c, sizeof(seed));
	spare_grant_signkey_from_seed(&next, 5, seed);
	rot.has_sign = true;
	rot.sign = next;
	rot.pub[rot.npub++] = spare_grant_signkey_public(&k.sign);
	EXPECT_EQ(bstate_set_grant_keys(&st, &rot), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1040, &r, NULL), 0);
	EXPECT_EQ(le32toh(r.key_id), 5);
	rot.npub = 0;
	EXPECT_EQ(bstate_set_grant_keys(&st, &rot), 0);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g, 0, 1040, &bad, NULL), -EBADMSG);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &r, 0, 1040, &bad, NULL), 0);
	bstate_free(&st);
}

/*
 * Version 3 grants (per-donor MAC): the broker issues them only with
 * grant-v3 on, only to a donor that announced it takes them and whose key
 * it was given; the others get version 2. The donor checks them with the
 * key it derives from its own broker key. A renewal is checked with the
 * donor's key and re-issued as version 3; a grant tagged with any other
 * key, or for a donor that no longer takes version 3, is not renewed.
 */
static void grant_v3(void)
{
	struct spare_grant_keys k = { 0 }, d0keys = { 0 }, pub = { 0 };
	struct bstate st;
	struct broker_donor d0, d1;
	struct spare_grant g[2], r, bad;
	struct spare_grant_info gi, ri;
	uint8_t seed[32], kd0[32], kd1[32], kg0[32], kg1[32];
	int v3 = 0, v2 = 0;

	memset(seed, 0x5a, sizeof(seed));
	spare_grant_signkey_from_seed(&k.sign, 4, seed);
	k.has_sign = true;
	pub.pub[pub.npub++] = spare_grant_signkey_public(&k.sign);
	memset(kd0, 0xd0, sizeof(kd0));
	memset(kd1, 0xd1, sizeof(kd1));
	EXPECT_EQ(spare_grant_v3_key(kg0, kd0, "d0"), 0);
	EXPECT_EQ(spare_grant_v3_key(kg1, kd1, "d1"), 0);
	EXPECT_EQ(spare_grant_keys_set_v3(&d0keys, kd0, "d0"), 0);
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, NULL, 5), 0);
	EXPECT_EQ(bstate_set_grant_keys(&st, &k), 0);
	d0 = hb("d0", "rack-0", 8);
	d0.flags = BROKER_DONOR_F_GRANT_V3;
	d1 = hb("d1", "rack-1", 8);	/* an older donor: no flag */
	EXPECT_EQ(bstate_heartbeat_v3(&st, &d0, kg0, 0), 0);
	EXPECT_EQ(bstate_heartbeat_v3(&st, &d1, kg1, 0), 0);

	/* off (the default): version 2 to both */
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 2, 0, 1000, g, NULL), 0);
	for (int i = 0; i < 2; i++)
		EXPECT_EQ(le16toh(g[i].version), 2);

	/* on: version 3 to d0 only, version 2 to d1 (it did not announce) */
	bstate_set_grant_v3(&st, true);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 2, 0, 1000, g, NULL), 0);
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(spare_grant_decode(&g[i], &gi), 0);
		if (!strcmp(gi.donor_id, "d0")) {
			v3++;
			EXPECT_EQ(gi.version, 3);
			EXPECT_EQ(gi.key_id, 0);
			EXPECT_EQ(spare_grant_v3_tag_check(&g[i], kg0), 0);
			EXPECT_EQ(spare_grant_check(&g[i], &d0keys, "d0", "trainer", 1000, NULL, NULL), 0);
			/* not a grant a public key can check */
			EXPECT_EQ(spare_grant_check(&g[i], &pub, "d0", "trainer", 1000, NULL, NULL),
				  SPARE_GRANT_V3_OFF);
			r = g[i];
		} else {
			v2++;
			EXPECT_EQ(gi.version, 2);
			EXPECT_EQ(spare_grant_check(&g[i], &pub, "d1", "trainer", 1000, NULL, NULL), 0);
		}
	}
	EXPECT_EQ(v3, 1);
	EXPECT_EQ(v2, 1);
	g[0] = r;	/* d0's version 3 grant */
	EXPECT_EQ(spare_grant_decode(&g[0], &gi), 0);

	/* the flag without a key the broker holds: version 2 */
	EXPECT_EQ(bstate_heartbeat_v3(&st, &d0, NULL, 100), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 0, 1000, &r, NULL), 0);
	EXPECT_EQ(le16toh(r.version), 2);
	/* ... nor is its version 3 grant renewed while the broker has no key */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g[0], 0, 1030, &r, NULL), -EBADMSG);
	EXPECT_EQ(bstate_heartbeat_v3(&st, &d0, kg0, 200), 0);

	/* renewal: checked with d0's key, re-issued as version 3, same grant */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g[0], 0, 1030, &r, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&r, &ri), 0);
	EXPECT(ri.version == 3 && !memcmp(ri.id, gi.id, sizeof(ri.id)) && ri.slabs == 1);
	EXPECT(ri.expiry > gi.expiry);
	EXPECT_EQ(spare_grant_check(&r, &d0keys, "d0", "trainer", 1030, NULL, NULL), 0);
	/* another client may not renew it */
	EXPECT_EQ(bstate_renew_grant(&st, "other", &g[0], 0, 1030, &bad, NULL), -EACCES);
	/* tampered, or tagged with another donor's key: refused */
	bad = g[0];
	bad.slabs = htole32(4);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	bad = g[0];
	bad.tag[0] ^= 1;
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg1, &bad), 0);	/* d1's key, d0's name */
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &bad, 0, 1030, &r, NULL), -EBADMSG);
	/* d0 stops announcing: its key is dropped, no renewal as version 3 */
	d0.flags = 0;
	EXPECT_EQ(bstate_heartbeat_v3(&st, &d0, kg0, 300), 0);
	EXPECT(!bstate_find(&st, "d0")->v3);
	EXPECT_EQ(bstate_renew_grant(&st, "trainer", &g[0], 0, 1030, &r, NULL), -EBADMSG);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 2, 0, 1000, g, NULL), 0);
	EXPECT(le16toh(g[0].version) == 2 && le16toh(g[1].version) == 2);
	spare_grant_keys_wipe(&d0keys);
	bstate_free(&st);
}

/*
 * Signing threads (bstate_set_sign_threads): the grants of a request, of a
 * renewal batch and of ec stripes are signed by the pool and each one
 * verifies at its own donor with only the broker's public key; 0 threads
 * again stops the pool; more than the maximum is refused.
 */
static void sign_threads(void)
{
	struct spare_grant_keys k = { 0 }, donor = { 0 };
	struct spare_grant g[12], r[12];
	struct spare_grant_info gi;
	struct broker_donor d;
	struct bstate st;
	unsigned int bad = 0, failed = 0;
	uint8_t seed[32];
	char id[8], rack[8];

	memset(seed, 0x3c, sizeof(seed));
	spare_grant_signkey_from_seed(&k.sign, 6, seed);
	k.has_sign = true;
	donor.pub[donor.npub++] = spare_grant_signkey_public(&k.sign);
	EXPECT_EQ(bstate_init(&st, 16, 3, 60, 5, NULL, 8), 0);
	EXPECT_EQ(bstate_set_grant_keys(&st, &k), 0);
	EXPECT_EQ(bstate_set_sign_threads(&st, SPARE_GRANT_POOL_MAX_THREADS + 1), -EINVAL);
	EXPECT_EQ(bstate_set_sign_threads(&st, 2), 0);
	for (unsigned int i = 0; i < 8; i++) {
		snprintf(id, sizeof(id), "d%u", i);
		snprintf(rack, sizeof(rack), "rack-%u", i % 4);
		d = hb(id, rack, 20);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	}
	EXPECT_EQ(bstate_grant(&st, "trainer", 4, 3, 0, 1000, g, NULL), 0);
	for (unsigned int i = 0; i < 12; i++)
		bad += spare_grant_decode(&g[i], &gi) ||
		       spare_grant_check(&g[i], &donor, gi.donor_id, "trainer", 1000, NULL, NULL);
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", g, 12, 0, 1010, r, NULL, &failed), 0);
	for (unsigned int i = 0; i < 12; i++)
		bad += spare_grant_decode(&r[i], &gi) ||
		       spare_grant_check(&r[i], &donor, gi.donor_id, "trainer", 1010, NULL, NULL) ||
		       le64toh(r[i].expiry) != 1070;
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 2, 2, 1, 0, 1020, g, NULL, NULL, 0), 0);
	for (unsigned int i = 0; i < 6; i++)
		bad += spare_grant_decode(&g[i], &gi) ||
		       spare_grant_check(&g[i], &donor, gi.donor_id, "trainer", 1020, NULL, NULL);
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(bstate_set_sign_threads(&st, 0), 0);
	EXPECT(st.pool == NULL);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 2, 0, 1030, g, NULL), 0);
	EXPECT_EQ(spare_grant_decode(&g[1], &gi), 0);
	EXPECT_EQ(spare_grant_check(&g[1], &donor, gi.donor_id, "trainer", 1030, NULL, NULL), 0);
	bstate_free(&st);
}

/*
 * RENEW_GRANT is all or none: a batch whose last grant is refused renews
 * none, signs none and charges the client's grant cap nothing; a batch
 * that would pass the cap is refused whole.
 */
static void renew_grants_all_or_none(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[3], r[3];
	unsigned int failed = 9;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 5, &key, 5), 0);
	EXPECT_EQ(bstate_set_caps(&st, 0, 100, 5), 0);
	d = hb("d0", "rack-1", 10);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 3, 1, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_client_grants(&st, "trainer"), 3);
	memcpy(r, g, sizeof(r));
	r[2].grant_id[0] ^= 1;		/* its tag no longer matches */
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", r, 3, 0, 1010, r, NULL, &failed), -EBADMSG);
	EXPECT_EQ(failed, 2);
	EXPECT_EQ(bstate_client_grants(&st, "trainer"), 3);	/* nothing charged */
	EXPECT(!memcmp(r, g, 2 * sizeof(r[0])));		/* nothing re-signed */
	EXPECT_EQ(st.renewals, 0);
	/* 3 + 3 > 5: the whole batch refused, nothing charged */
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", g, 3, 0, 1010, r, NULL, &failed), -EDQUOT);
	EXPECT_EQ(bstate_client_grants(&st, "trainer"), 3);
	/* 3 + 2 <= 5: both renewed, both charged */
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", g, 2, 0, 1010, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_client_grants(&st, "trainer"), 5);
	EXPECT_EQ(le64toh(r[1].expiry), 1070);
	EXPECT_EQ(st.renewals, 2);
	bstate_free(&st);
}

/*
 * The fair share (protocol.md, "Per-client caps"): the pool (free slabs
 * plus what clients hold) divided among the active clients. A lone client
 * takes the whole pool. A newcomer refused for lack of room waits; while
 * it waits, a client at or above its share is refused new slabs, and the
 * slabs that come free go to the newcomer, up to its share. A renewal
 * keeps a grant's slabs counted once, so a client renewing its grants
 * still holds them in the broker's books.
 */
static void fair_share_counts_clients(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[64], r[64];
	unsigned int failed, hog = 0;
	int ret;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 11), 0);
	d = hb("d0", "rack-1", 100);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	/* a lone client takes the whole pool, one request at a time */
	while (!(ret = bstate_grant(&st, "hog", 1, 1, 0, 1000, g, NULL)))
		hog++;
	EXPECT_EQ(ret, -ENOSPC);
	EXPECT_EQ(hog, 100);
	EXPECT_EQ(bstate_client_slabs(&st, "hog"), 100);
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1000, g, NULL), -ENOSPC);
	/* the newcomer finds no room: it waits */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 10, 1, 0, 1001, g, NULL), -ENOSPC);
	EXPECT_EQ(bstate_client_slabs(&st, "newcomer"), 0);
	/* 40 slabs come free (the donor grew, or a client let go) */
	d = hb("d0", "rack-1", 40);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 2000), 0);
	/* the hog holds 100 of a pool of 140 shared by 2 active clients:
	 * above its share, refused while the newcomer waits */
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1002, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_total_free(&st), 40);
	EXPECT_EQ(st.capped_why, BSTATE_CAP_FAIR);
	EXPECT_EQ(bstate_clients_sharing(&st, "hog"), 2);
	EXPECT_EQ(bstate_client_fair_share(&st, "hog"), 70);
	EXPECT_EQ(bstate_clients_sharing(&st, "stranger"), 3);	/* it would be a third */
	/* the newcomer gets its room */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 10, 1, 0, 1003, g, NULL), 0);
	EXPECT_EQ(bstate_client_slabs(&st, "newcomer"), 10);
	/* served, it waits no more: the hog may take what is left */
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1004, g, NULL), 0);
	bstate_free(&st);

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 12), 0);
	d = hb("d0", "rack-1", 64);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_grant(&st, "hog", 64, 1, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_client_slabs(&st, "hog"), 64);
	EXPECT_EQ(bstate_renew_grants(&st, "hog", g, 64, 0, 1040, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_client_slabs(&st, "hog"), 64);
	EXPECT_EQ(bstate_renew_grants(&st, "hog", r, 64, 0, 1080, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_client_slabs(&st, "hog"), 64);	/* the first lease ran out at 1060 */
	/* the newcomer, refused, waits; 8 come free: the hog may not take them */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 8, 1, 0, 1081, g, NULL), -ENOSPC);
	d = hb("d0", "rack-1", 8);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 2000), 0);
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1082, g, NULL), -EDQUOT);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 8, 1, 0, 1083, g, NULL), 0);
	EXPECT_EQ(st.refused_fair, 1);
	/* a waiter never served stops waiting a lease after its refusal */
	EXPECT_EQ(bstate_grant(&st, "late", 1, 1, 0, 1084, g, NULL), -ENOSPC);
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1085, g, NULL), -EDQUOT);
	d = hb("d0", "rack-1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
	EXPECT_EQ(bstate_renew_grants(&st, "hog", r, 64, 0, 1120, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1145, g, NULL), 0);
	bstate_free(&st);
}

/*
 * Taking a hog's excess back (bstate_reclaim_pick()): a hog holds the
 * whole pool of 64 slabs in 64 grants and renews them every lease; a
 * newcomer asks for room each lease (one slab at a time, until refused).
 * The hog's renewals are never refused; of each renewal the broker marks
 * at most a quarter of the hog's excess (32 over its share of 32) to move,
 * never taking it below its share. The hog moves what is marked (renews
 * it no more; the donor's heartbeat counts it free once its lease ran
 * out), and within 8 leases the newcomer holds its share.
 */
#define RC_GRANTS BROKER_MAX_RENEW_GRANTS	/* 64: one RENEW_GRANT */
#define RC_SHARE (RC_GRANTS / 2)
/*
 * @unmapped: the hog unmaps a marked copy at once, so the donor's next
 * heartbeat counts it free while its lease (and the broker's books) still
 * hold it; else the donor counts it free once the lease ran out.
 */
static void reclaim_hog_run(bool unmapped)
{
	static struct spare_grant hog[RC_GRANTS], g[RC_GRANTS], r[RC_GRANTS], nc[RC_GRANTS];
	static bool moved[RC_GRANTS], move[RC_GRANTS], again[RC_GRANTS];
	uint64_t expiry[RC_GRANTS], newcomer = 0, marked_total = 0;
	unsigned int failed, k, i, n, reached = 0;
	unsigned int idx[RC_GRANTS];
	struct broker_donor d;
	struct bstate st;

	memset(moved, 0, sizeof(moved));	/* static: a second run starts afresh */
	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 21), 0);
	d = hb("d0", "rack-1", RC_GRANTS);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	for (i = 0; i < RC_GRANTS; i++) {
		EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1000, &hog[i], NULL), 0);
		expiry[i] = 1060;
	}
	/* nobody waits: nothing to take back */
	EXPECT_EQ(bstate_reclaim_pick(&st, "hog", hog, RC_GRANTS, 1001, move), 0);
	for (i = 0; i < RC_GRANTS; i++)
		EXPECT(!move[i]);
	for (k = 0; k < 12 && !reached; k++) {
		uint64_t t = 1000 + 60 * k, live = 0, marked;

		/* the donor counts free what no live lease covers */
		for (i = 0; i < RC_GRANTS; i++)
			live += unmapped ? !moved[i] : expiry[i] > t + 10;
		d = hb("d0", "rack-1", RC_GRANTS - live - newcomer);
		EXPECT_EQ(bstate_heartbeat(&st, &d, 1000 * (k + 1)), 0);
		/*
		 * A hog that renews more often than once a lease asks between
		 * that heartbeat and the newcomer: the copies it unmapped are
		 * free at the donor while their leases still run.
		 */
		if (unmapped) {
			for (i = n = 0; i < RC_GRANTS; i++)
				if (!moved[i]) {
					g[n] = hog[i];
					idx[n++] = i;
				}
			EXPECT_EQ(bstate_renew_grants(&st, "hog", g, n, 0, t + 5, r, NULL, &failed), 0);
			marked = bstate_reclaim_pick(&st, "hog", r, n, t + 5, move);
			for (i = 0; i < n; i++) {
				hog[idx[i]] = r[i];
				expiry[idx[i]] = t + 65;
				moved[idx[i]] = move[i];
			}
			marked_total += marked;
		}
		/* the newcomer renews what it holds, and asks for more */
		if (newcomer)
			EXPECT_EQ(bstate_renew_grants(&st, "newcomer", nc, (unsigned int)newcomer, 0,
						      t + 11, nc, NULL, &failed), 0);
		while (newcomer < RC_GRANTS &&
		       !bstate_grant(&st, "newcomer", 1, 1, 0, t + 12, &nc[newcomer], NULL))
			newcomer++;
		EXPECT_EQ(bstate_client_slabs(&st, "newcomer"), newcomer);
		if (newcomer >= RC_SHARE)
			reached = k + 1;
		/* the hog renews what it keeps: never refused */
		for (i = n = 0; i < RC_GRANTS; i++)
			if (!moved[i]) {
				g[n] = hog[i];
				idx[n++] = i;
			}
		EXPECT_EQ(bstate_renew_grants(&st, "hog", g, n, 0, t + 20, r, NULL, &failed), 0);
		marked = bstate_reclaim_pick(&st, "hog", r, n, t + 20, move);
		/* at most a quarter of its excess a lease */
		EXPECT(marked <= (RC_SHARE + 3) / 4);
		/* asked again within the same lease: nothing more */
		EXPECT_EQ(bstate_reclaim_pick(&st, "hog", r, n, t + 21, again), 0);
		for (i = 0; i < n; i++) {
			hog[idx[i]] = r[i];
			expiry[idx[i]] = t + 80;
			/* it moves what is marked: renews it no more */
			moved[idx[i]] = move[i];
		}
		marked_total += marked;
		/* never below its share */
		for (i = n = 0; i < RC_GRANTS; i++)
			n += !moved[i];
		EXPECT(n >= RC_SHARE);
	}
	printf("# newcomer holds %llu after %u leases; %llu slabs marked\n",
	       (unsigned long long)newcomer, reached, (unsigned long long)marked_total);
	EXPECT(reached >= 1 && reached <= 8);
	EXPECT_EQ(st.reclaim_marked, marked_total);
	EXPECT_EQ(marked_total, RC_SHARE);
	/* with the newcomer at its share and served, nobody waits: nothing marked */
	for (i = n = 0; i < RC_GRANTS; i++)
		if (!moved[i])
			g[n++] = hog[i];
	EXPECT_EQ(bstate_renew_grants(&st, "hog", g, n, 0, 1000 + 60 * k + 20, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_reclaim_pick(&st, "hog", r, n, 1000 + 60 * k + 20, move), 0);
	/* another client's grants, a client below its share: never marked */
	EXPECT_EQ(bstate_reclaim_pick(&st, "newcomer", r, n, 1000 + 60 * k + 21, move), 0);
	bstate_free(&st);
}

static void reclaim_hog_excess(void)
{
	static struct spare_grant hog[8], g[1];
	struct broker_donor d;
	struct bstate st;
	bool move[8];
	unsigned int i;

	reclaim_hog_run(false);

	/* fair share off: nothing is taken back, waiter or not */
	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 22), 0);
	bstate_set_fair_share(&st, false);
	d = hb("d0", "rack-1", 8);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1000, &hog[i], NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1001, g, NULL), -ENOSPC);
	EXPECT_EQ(bstate_reclaim_pick(&st, "hog", hog, 8, 1002, move), 0);
	bstate_free(&st);
}

/*
 * The hog's @n grants hog[] renewed at @t: @want slabs marked, and the
 * marked ones moved off (renewed no more). Returns how many it keeps.
 */
static unsigned int hog_renew(struct bstate *st, struct spare_grant *hog, unsigned int n,
			      uint64_t t, uint64_t want)
{
	static struct spare_grant r[16];
	unsigned int failed, i, kept = 0;
	bool move[16];

	EXPECT_EQ(bstate_renew_grants(st, "hog", hog, n, 0, t, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_reclaim_pick(st, "hog", r, n, t, move), want);
	for (i = 0; i < n; i++)
		if (!move[i])
			hog[kept++] = r[i];
	return kept;
}

/*
 * A waiter served between two requests of one burst (broker-reclaim-marks
 * under load): a newcomer asking for one slab at a time is served the
 * first slab that came free, and waits no more until its next request is
 * refused a moment later. A renewal of the hog's landing in that moment
 * marks nothing, and does not end the episode: the next renewal's window
 * is still a quarter of the largest excess (2 of 8), not of what is left
 * (1 of 4). With nobody refused for a lease, the episode ends.
 */
static void reclaim_waiter_served(void)
{
	static struct spare_grant hog[16], nc[8];
	struct broker_donor d;
	struct bstate st;
	unsigned int failed, i, n = 16;

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 25), 0);
	d = hb("d0", "rack-1", 16);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 1000), 0);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1000, &hog[i], NULL), 0);
	/* the newcomer is refused and waits: 2 of the hog's excess of 8 marked */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1001, nc, NULL), -ENOSPC);
	n = hog_renew(&st, hog, n, 1002, 2);
	EXPECT_EQ(n, 14);
	/* the donor counts the 2 moved free: the newcomer takes them */
	d = hb("d0", "rack-1", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 2000), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1040, &nc[0], NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1040, &nc[1], NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1040, &nc[2], NULL), -ENOSPC);
	/* the next lease: 2 more of the excess of 6; then its budget is spent */
	n = hog_renew(&st, hog, n, 1062, 2);
	EXPECT_EQ(n, 12);
	EXPECT_EQ(bstate_renew_grants(&st, "newcomer", nc, 2, 0, 1080, nc, NULL, &failed), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1100, &nc[2], NULL), -ENOSPC);
	n = hog_renew(&st, hog, n, 1100, 0);
	d = hb("d0", "rack-1", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 3000), 0);
	/* served its first slab (it waits no more), the hog renews: nothing marked */
	EXPECT_EQ(bstate_renew_grants(&st, "newcomer", nc, 2, 0, 1123, nc, NULL, &failed), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1123, &nc[2], NULL), 0);
	n = hog_renew(&st, hog, n, 1123, 0);
	/* refused again, it waits: the window is still 2 slabs (excess 4) */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1123, &nc[3], NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1123, &nc[4], NULL), -ENOSPC);
	n = hog_renew(&st, hog, n, 1124, 2);
	EXPECT_EQ(n, 10);
	EXPECT_EQ(st.reclaim_marked, 6);
	/* nobody refused for a lease: nothing marked, and the episode is over */
	d = hb("d0", "rack-1", 2);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 4000), 0);
	EXPECT_EQ(bstate_renew_grants(&st, "newcomer", nc, 4, 0, 1180, nc, NULL, &failed), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1182, &nc[4], NULL), 0);
	n = hog_renew(&st, hog, n, 1183, 0);
	EXPECT_EQ(st.reclaim_marked, 6);
	EXPECT(!strcmp(st.clients[0].name, "hog") && !st.clients[0].reclaim_unit);
	bstate_free(&st);
}

/* @st: donors d0 (rack-1) and d1 (rack-2), 4 free slabs each */
static void pool_of_8(struct bstate *st, uint64_t seed)
{
	struct broker_donor d;

	EXPECT_EQ(bstate_init(st, 8, 3, 60, 0, &key, seed), 0);
	d = hb("d0", "rack-1", 4);
	EXPECT_EQ(bstate_heartbeat(st, &d, 0), 0);
	d = hb("d1", "rack-2", 4);
	EXPECT_EQ(bstate_heartbeat(st, &d, 0), 0);
}

/*
 * broker/fair-share@ublk's stuck hog (Documentation/perf/fair-share-stuck),
 * replayed at ten times its time scale: a pool of 8 on two donors, a hog
 * holding 4 copies on each, renewing every third of a lease as sparectl's
 * monitor does, from its view of the copies (the pager's map file, which
 * once lags behind a copy given back); a newcomer asking for 4 slabs at once every quarter lease.
 * Per donor the monitor renews every unmarked grant and the marked ones
 * only while they do not cover the copies it sees, and asks the pager for
 * the copies beyond the unmarked grants; the pager gives them back half a
 * round later. The stale view once makes the monitor renew a marked grant whose
 * copy is gone (the mark is then cleared) and ask twice for one mark, so
 * for a while the donors count free slabs the broker also counts held. The
 * newcomer must still get its 4 slabs within a few leases (the old pool,
 * the largest since waiting began, kept that overcount: share 5, the hog
 * left at 5 for good), and the hog never holds fewer copies than its share.
 */
#define FS_LEASE 60
static void fs_heartbeats(struct bstate *st, const uint32_t present[2], const uint32_t nc[2],
			  uint64_t t)
{
	static const char *const id[2] = { "d0", "d1" }, *const rack[2] = { "rack-1", "rack-2" };

	for (unsigned int k = 0; k < 2; k++) {
		struct broker_donor d = hb(id[k], rack[k], 4 - present[k] - nc[k]);

		EXPECT_EQ(bstate_heartbeat(st, &d, t * 1000), 0);
	}
}

static unsigned int fs_donor(const struct spare_grant *g)
{
	struct spare_grant_info gi;

	EXPECT_EQ(spare_grant_decode(g, &gi), 0);
	return strncmp(gi.donor_id, "d1", 2) ? 0 : 1;
}

static void reclaim_stale_monitor(void)
{
	static struct spare_grant hog[8], sent[8], back[8], nc[4];
	uint64_t expiry[8], t, served = 0;
	uint32_t present[2] = { 0, 0 }, view[2], ncp[2] = { 0, 0 }, giveback[2] = { 0, 0 };
	bool marked[8] = { false }, move[8];
	unsigned int donor[8], idx[8], failed, i, k, n, nnc = 0;
	struct bstate st;

	pool_of_8(&st, 26);
	EXPECT_EQ(bstate_grant(&st, "hog", 8, 1, 0, 1000, hog, NULL), 0);
	for (i = 0; i < 8; i++) {
		donor[i] = fs_donor(&hog[i]);
		present[donor[i]]++;
		expiry[i] = 1000 + FS_LEASE;
	}
	EXPECT(present[0] == 4 && present[1] == 4);
	memcpy(view, present, sizeof(view));
	fs_heartbeats(&st, present, ncp, 1000);
	for (t = 1005; t <= 1000 + 30 * FS_LEASE && !served; t += 5) {
		/* the newcomer: its 4 slabs at once, every quarter lease */
		if (t % 15 == 0) {
			if (!bstate_grant(&st, "newcomer", 4, 1, 0, t, nc, NULL)) {
				for (i = 0; i < 4; i++)
					ncp[fs_donor(&nc[i])]++;
				nnc = 4;
				served = t;
			}
		}
		/* the pager gives back what it was asked, half a round on */
		if (t % 20 == 10)
			for (k = 0; k < 2; k++) {
				present[k] -= giveback[k] < present[k] ? giveback[k] : present[k];
				giveback[k] = 0;
			}
		/*
		 * The monitor's round, from the pager's map: as the log shows,
		 * once (the round after the first mark) the map file still
		 * shows the copy given back since; fresh otherwise.
		 */
		if (t % 20 == 0) {
			if (t != 1040)
				memcpy(view, present, sizeof(view));
			for (k = 0; k < 2; k++) {
				uint64_t cover = 0;
				bool any = false;

				for (i = n = 0; i < 8; i++)
					if (donor[i] == k && !marked[i] && expiry[i] > t) {
						idx[n++] = i;
						cover += 1;
					}
				for (i = 0; i < 8 && cover < view[k]; i++)
					if (donor[i] == k && marked[i] && expiry[i] > t) {
						idx[n++] = i;
						cover += 1;
					}
				for (i = 0; i < n; i++)
					sent[i] = hog[idx[i]];
				if (n) {
					EXPECT_EQ(bstate_renew_grants(&st, "hog", sent, n, 0, t, back, NULL,
								      &failed), 0);
					bstate_reclaim_pick(&st, "hog", back, n, t, move);
				}
				for (i = 0; i < n; i++) {
					hog[idx[i]] = back[i];
					expiry[idx[i]] = t + FS_LEASE;
					marked[idx[i]] |= move[i];
				}
				for (i = 0, cover = 0; i < 8; i++)
					if (donor[i] == k && expiry[i] > t) {
						any |= marked[i];
						cover += !marked[i];
					}
				giveback[k] = any && view[k] > cover ? view[k] - (uint32_t)cover : 0;
			}
			if (getenv("FS_DEBUG"))
				printf("# t=%llu present %u+%u gb %u+%u pool %llu marked %llu held %llu free %llu moving %llu\n",
				       (unsigned long long)t, present[0], present[1], giveback[0], giveback[1],
				       (unsigned long long)st.clients[0].reclaim_pool,
				       (unsigned long long)st.reclaim_marked, (unsigned long long)st.held,
				       (unsigned long long)bstate_total_free(&st), (unsigned long long)st.moving);
		}
		/* never below its share */
		EXPECT(present[0] + present[1] >= 4);
		fs_heartbeats(&st, present, ncp, t);
	}
	printf("# the newcomer served %llu s in (%u slabs); the hog keeps %u copies; %llu marked\n",
	       (unsigned long long)(served ? served - 1000 : 0), nnc, present[0] + present[1],
	       (unsigned long long)st.reclaim_marked);
	EXPECT(served && served <= 1000 + 8 * FS_LEASE);
	bstate_free(&st);
}


/*
 * A client is marked only while another client waits, never behind its
 * own requests (broker/move's question). A lone client holding the whole
 * pool through two devices' GRANT_REQs (one name: one client) whose
 * ROOM_REQ, MOVE_REQ and GRANT_REQ are refused for lack of room waits, and
 * renews every grant twice in a lease: nothing is marked (its share is the
 * whole pool besides). Then, in a pool of 8: "other" holds 4, "trainer" 3;
 * trainer is refused 2 more below its share of 4 and waits; "c3" takes the
 * last slab, so trainer's share is 2 and it holds 3, above it while it
 * still waits. It waits behind itself only: its renewal is not marked.
 * Once "newcomer" is refused and waits, the same renewal is.
 */
static void reclaim_lone_client(void)
{
	static struct spare_grant g[8], r[8], out[2];
	const char avoid[2][BROKER_ADDR_LEN] = { "d0.example:18515", "d1.example:18515" };
	unsigned int failed, i;
	struct bstate st;
	bool move[8];

	pool_of_8(&st, 23);
	EXPECT_EQ(bstate_grant(&st, "trainer", 4, 1, 0, 1000, g, NULL), 0);	/* swap0 */
	EXPECT_EQ(bstate_grant(&st, "trainer", 4, 1, 0, 1000, g + 4, NULL), 0);	/* swap1 */
	EXPECT_EQ(bstate_total_free(&st), 0);
	EXPECT_EQ(bstate_room(&st, "trainer", "d0.example:18515", 1, 0, 1001, out, NULL),
		  -ENOSPC);
	EXPECT_EQ(bstate_move(&st, "trainer", 1, avoid, 2, NULL, 0, 0, 1002, out, NULL),
		  -ENOSPC);
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 1, 0, 1003, out, NULL), -ENOSPC);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(bstate_renew_grants(&st, "trainer", g, 8, 0, 1004 + 10 * i, r, NULL,
					      &failed), 0);
		EXPECT_EQ(bstate_reclaim_pick(&st, "trainer", r, 8, 1004 + 10 * i, move), 0);
		memcpy(g, r, sizeof(g));
	}
	EXPECT_EQ(st.reclaim_marked, 0);
	bstate_free(&st);

	pool_of_8(&st, 24);
	EXPECT_EQ(bstate_grant(&st, "other", 4, 1, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 3, 1, 0, 1001, g, NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "trainer", 2, 1, 0, 1002, out, NULL), -ENOSPC);
	EXPECT_EQ(bstate_grant(&st, "c3", 1, 1, 0, 1003, out, NULL), 0);
	EXPECT_EQ(bstate_client_fair_share(&st, "trainer"), 2);
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", g, 3, 0, 1004, r, NULL, &failed), 0);
	EXPECT_EQ(bstate_reclaim_pick(&st, "trainer", r, 3, 1004, move), 0);
	EXPECT_EQ(st.reclaim_marked, 0);
	/* someone else waits now: trainer's excess is marked */
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1005, out, NULL), -ENOSPC);
	EXPECT_EQ(bstate_renew_grants(&st, "trainer", r, 3, 0, 1006, g, NULL, &failed), 0);
	EXPECT(bstate_reclaim_pick(&st, "trainer", g, 3, 1006, move) > 0);
	bstate_free(&st);
}

/*
 * The same hog and newcomer, but the hog unmaps each marked copy at once
 * (a client that moves it off the pool does): the donor counts it free
 * while its lease still runs. The broker must not count it twice (free
 * and held) in the pool its share is taken over: the hog still gives back
 * all of its excess, 32 slabs, and the newcomer reaches its share.
 */
static void reclaim_hog_unmapped(void)
{
	reclaim_hog_run(true);
}

/* Without fair-share (bstate_set_fair_share(false)): the old behaviour. */
static void fair_share_off(void)
{
	struct bstate st;
	struct broker_donor d;
	struct spare_grant g[4];

	EXPECT_EQ(bstate_init(&st, 8, 3, 60, 0, &key, 13), 0);
	bstate_set_fair_share(&st, false);
	d = hb("d0", "rack-1", 4);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 0), 0);
	EXPECT_EQ(bstate_grant(&st, "hog", 4, 1, 0, 1000, g, NULL), 0);
	EXPECT_EQ(bstate_grant(&st, "newcomer", 1, 1, 0, 1001, g, NULL), -ENOSPC);
	d = hb("d0", "rack-1", 1);
	EXPECT_EQ(bstate_heartbeat(&st, &d, 2000), 0);
	EXPECT_EQ(bstate_grant(&st, "hog", 1, 1, 0, 1002, g, NULL), 0);
	bstate_free(&st);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(heartbeats_and_expiry);
	TAP_RUN(grants_are_signed_leases);
	TAP_RUN(debit_all_or_nothing);
	TAP_RUN(legacy_renewals);
	TAP_RUN(renew_grant_reissues);
	TAP_RUN(renew_grant_ed25519);
	TAP_RUN(grant_v3);
	TAP_RUN(renew_grants_all_or_none);
	TAP_RUN(sign_threads);
	TAP_RUN(fair_share_counts_clients);
	TAP_RUN(fair_share_off);
	TAP_RUN(reclaim_hog_excess);
	TAP_RUN(reclaim_hog_unmapped);
	TAP_RUN(reclaim_waiter_served);
	TAP_RUN(reclaim_lone_client);
	TAP_RUN(reclaim_stale_monitor);
	TAP_RUN(renew_lapsed_full_donor);
	TAP_RUN(room_debits);
	TAP_RUN(client_caps);
	TAP_RUN(free_slabs_capped);
	TAP_RUN(moves);
	TAP_RUN(many_donors);
	TAP_RUN(domains_bounded);
	TAP_RUN(heartbeat_period_capped);
	TAP_RUN(address_held_once);
	TAP_RUN(donors_pages);
	return tap_done();
}
