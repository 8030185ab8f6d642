// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker's stripe placement (bstate_stripe(), STRIPE_REQ): each
 * stripe's K+R slabs on K+R distinct donors in distinct failure domains,
 * on one of a bounded set of coding groups (userspace/sched/ecgroup.h);
 * requests the donors cannot satisfy refused with what is missing, nothing
 * debited.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bstate.h"
#include "tap.h"

static const struct spare_grant_key key = { .id = 3, .key = "k0k1k2k3k4k5k6k7k8k9kakbkckdkek" };

static void add(struct bstate *st, int i, const char *domain, uint64_t free_slabs)
{
	struct broker_donor d;

	memset(&d, 0, sizeof(d));
	snprintf(d.donor_id, sizeof(d.donor_id), "d%d", i);
	snprintf(d.addr, sizeof(d.addr), "d%d.example:18515", i);
	snprintf(d.domain, sizeof(d.domain), "%s", domain);
	d.free_slabs = free_slabs;
	d.hb_interval_ms = 1000;
	d.slab_shift = 30;
	EXPECT_EQ(bstate_heartbeat(st, &d, 0), 0);
}

/* @n donors, donor i in domain "r<i % domains>", each with @free slabs. */
static void cluster(struct bstate *st, int n, int domains, uint64_t free_slabs)
{
	EXPECT_EQ(bstate_init(st, 64, 3, 60, 5, &key, 9), 0);
	for (int i = 0; i < n; i++) {
		char dom[16];

		snprintf(dom, sizeof(dom), "r%d", i % domains);
		add(st, i, dom, free_slabs);
	}
}

/* Donor number of grant @g ("d<i>"), checking it is a signed one-slab grant. */
static int donor_of(const struct spare_grant *g)
{
	struct spare_grant_info gi;

	if (spare_grant_decode(g, &gi) || gi.slabs != 1 ||
	    spare_grant_verify(g, &key, 1, gi.donor_id, "trainer", 1000, NULL, NULL))
		return -1;
	return atoi(gi.donor_id + 1);
}

/* Stripe s's w grants: distinct donors in distinct domains. */
static int stripe_ok(const struct spare_grant *g, char (*dom)[BROKER_DOMAIN_LEN], int s, int w,
		     uint64_t *set)
{
	*set = 0;
	for (int j = 0; j < w; j++) {
		int d = donor_of(&g[s * w + j]);

		if (d < 0 || d >= 64 || (*set >> d & 1))
			return 0;
		*set |= UINT64_C(1) << d;
		for (int k = 0; k < j; k++)
			if (!strcmp(dom[s * w + j], dom[s * w + k]))
				return 0;
	}
	return 1;
}

static void stripes_on_distinct_donors_and_domains(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	char why[200];
	struct bstate st;
	uint64_t set;

	cluster(&st, 24, 8, 100);	/* 8 domains of 3 donors */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 10, 4, 2, 0, 1000, g, dom, why, sizeof(why)), 0);
	EXPECT_EQ(bstate_total_free(&st), 24 * 100 - 60);
	for (int s = 0; s < 10; s++)
		EXPECT(stripe_ok(g, dom, s, 6, &set));
	/* each grant's domain is its donor's */
	for (int i = 0; i < 60; i++) {
		char id[8];

		snprintf(id, sizeof(id), "d%d", donor_of(&g[i]));
		EXPECT(!strcmp(dom[i], bstate_find(&st, id)->domain));
	}
	/* 8+2 over 10 domains, 10 splits a stripe */
	bstate_free(&st);
	cluster(&st, 30, 10, 100);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 12, 8, 2, 0, 1000, g, dom, why, sizeof(why)), 0);
	for (int s = 0; s < 12; s++)
		EXPECT(stripe_ok(g, dom, s, 10, &set));
	EXPECT_EQ(st.grants_issued, 120);
	bstate_free(&st);
}

/*
 * However many stripes, they use at most live / (K+R) donor sets; random
 * placement over 24 donors in 8 domains would use hundreds.
 */
static void groups_bounded(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	uint64_t sets[64];
	unsigned int nsets = 0;
	char why[200];
	struct bstate st;

	cluster(&st, 24, 8, 1000);
	for (int req = 0; req < 30; req++) {
		EXPECT_EQ(bstate_stripe(&st, "trainer", 20, 4, 2, 0, 1000, g, dom, why,
					sizeof(why)), 0);
		for (int s = 0; s < 20; s++) {
			uint64_t set;
			unsigned int k;

			EXPECT(stripe_ok(g, dom, s, 6, &set));
			for (k = 0; k < nsets && sets[k] != set; k++)
				;
			if (k == nsets && nsets < 64)
				sets[nsets++] = set;
		}
	}
	EXPECT_EQ(nsets, 24 / 6);
	/* groups are disjoint: every donor in exactly one set */
	{
		uint64_t all = 0;

		for (unsigned int k = 0; k < nsets; k++) {
			EXPECT(!(all & sets[k]));
			all |= sets[k];
		}
		EXPECT_EQ(all, (UINT64_C(1) << 24) - 1);
	}
	bstate_free(&st);
}

/* Full donors: only groups with a free slab on every member; none: refused. */
static void full_groups_skipped(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	char why[200];
	struct bstate st;
	uint64_t set, full;

	cluster(&st, 12, 6, 50);	/* 2 groups of 6 */
	add(&st, 0, "r0", 0);		/* d0 full: its group is out */
	for (int req = 0; req < 5; req++) {
		EXPECT_EQ(bstate_stripe(&st, "trainer", 4, 4, 2, 0, 1000, g, dom, why,
					sizeof(why)), 0);
		for (int s = 0; s < 4; s++) {
			EXPECT(stripe_ok(g, dom, s, 6, &set));
			EXPECT(!(set & 1));
		}
	}
	/* fill a donor of the other group too: nothing is left */
	for (int i = 1; i < 12; i++)
		if (bstate_free_slabs(&st, (size_t)i) == 50 - 20) {
			char d[8];

			snprintf(d, sizeof(d), "r%d", i % 6);
			add(&st, i, d, 0);
			break;
		}
	full = bstate_total_free(&st);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)),
		  -ENOSPC);
	EXPECT(strstr(why, "none of the 2 coding groups of 6 donors has a free slab") != NULL);
	EXPECT_EQ(bstate_total_free(&st), full);	/* nothing debited */
	bstate_free(&st);
}

/* What the donors cannot satisfy: refused, naming what is missing. */
static void refusals(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	char why[200];
	struct bstate st;

	cluster(&st, 5, 5, 10);		/* 5 donors for 6 splits */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)),
		  -ENOSPC);
	EXPECT(strstr(why, "ec 4+2 needs 6 live donors; the broker knows 5") != NULL);
	EXPECT_EQ(bstate_total_free(&st), 50);
	/* enough for 2+1 */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 2, 2, 1, 0, 1000, g, dom, why, sizeof(why)), 0);
	bstate_free(&st);

	cluster(&st, 12, 4, 10);	/* 12 donors in 4 domains */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)),
		  -ENOSPC);
	EXPECT(strstr(why, "ec 4+2 needs donors in 6 failure domains; the 12 live donors are in 4") != NULL);
	EXPECT_EQ(bstate_total_free(&st), 120);
	EXPECT_EQ(st.requests_nospace, 1);
	bstate_free(&st);

	/* 6 domains, but 10 donors in one: one group only */
	EXPECT_EQ(bstate_init(&st, 64, 3, 60, 5, &key, 9), 0);
	for (int i = 0; i < 15; i++)
		add(&st, i, i < 10 ? "big" : (char[3]){ 's', (char)('0' + i - 10), 0 }, 10);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 10, 4, 2, 0, 1000, g, dom, why, sizeof(why)), 0);
	for (int s = 0; s < 10; s++) {
		uint64_t set;

		EXPECT(stripe_ok(g, dom, s, 6, &set));
	}
	/* that group is now full (10 slabs a donor): the next stripe is refused */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)),
		  -ENOSPC);
	EXPECT(strstr(why, "none of the 1 coding groups") != NULL);
	bstate_free(&st);

	/* bad codes and counts: -EINVAL, nothing debited */
	cluster(&st, 20, 10, 10);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 3, 5, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 3, 2, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 3, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 0, 4, 2, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 13, 8, 2, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_stripe(&st, "", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)), -EINVAL);
	EXPECT_EQ(bstate_total_free(&st), 200);
	bstate_free(&st);
}

/* Donors all with one label (no domains configured): distinct donors only. */
static void one_label_distinct_donors(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	char why[200];
	struct bstate st;

	cluster(&st, 6, 1, 10);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 3, 4, 2, 0, 1000, g, dom, why, sizeof(why)), 0);
	for (int s = 0; s < 3; s++) {
		uint64_t seen = 0;

		for (int j = 0; j < 6; j++) {
			int d = donor_of(&g[s * 6 + j]);

			EXPECT(d >= 0 && d < 6 && !(seen >> d & 1));
			seen |= UINT64_C(1) << (d & 63);
		}
	}
	/* replicas on the same cluster are refused, as before: one domain */
	EXPECT_EQ(bstate_grant(&st, "trainer", 1, 2, 0, 1000, g, dom), -ENOSPC);
	bstate_free(&st);
}

/* The client's caps hold for stripes as for copies. */
static void client_caps_hold(void)
{
	struct spare_grant g[BROKER_MAX_GRANTS];
	char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
	char why[200];
	struct bstate st;

	cluster(&st, 12, 6, 10);
	EXPECT_EQ(bstate_set_caps(&st, 0, 0, 10), 0);	/* 10 grants a client */
	EXPECT_EQ(bstate_stripe(&st, "trainer", 2, 4, 2, 0, 1000, g, dom, why, sizeof(why)),
		  -EDQUOT);
	EXPECT_EQ(bstate_total_free(&st), 120);
	EXPECT_EQ(bstate_stripe(&st, "trainer", 1, 4, 2, 0, 1000, g, dom, why, sizeof(why)), 0);
	EXPECT_EQ(bstate_client_grants(&st, "trainer"), 6);
	bstate_free(&st);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(stripes_on_distinct_donors_and_domains);
	TAP_RUN(groups_bounded);
	TAP_RUN(full_groups_skipped);
	TAP_RUN(refusals);
	TAP_RUN(one_label_distinct_donors);
	TAP_RUN(client_caps_hold);
	return tap_done();
}
