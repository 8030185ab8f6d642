// SPDX-License-Identifier: GPL-2.0
/*
 * Coding groups (userspace/sched/ecgroup.c) and spare-sim ecsim's loss
 * figures (tools/sim/sim_ec.c), checked against closed forms and against
 * brute force on small clusters: every failure set enumerated, every
 * rack-distinct stripe enumerated.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "ecgroup.h"
#include "sim_ec.h"
#include "tap.h"

#define NEAR(a, b, tol)	EXPECT(fabs((double)(a) - (double)(b)) <= (tol))

/* Groups are disjoint, width donors each, in distinct domains. */
static int groups_ok(const struct ec_member *m, size_t n, const uint32_t *g, long ng,
		     unsigned int w)
{
	uint8_t seen[256] = { 0 };

	for (long a = 0; a < ng; a++)
		for (unsigned int j = 0; j < w; j++) {
			uint32_t d = g[a * w + j];

			if (d >= n || seen[d]++)
				return 0;
			for (unsigned int k = 0; k < j; k++)
				if (m[g[a * w + k]].domain == m[d].domain)
					return 0;
		}
	return 1;
}

static void groups_distinct_domains_and_bounded(void)
{
	struct ec_member m[60];
	uint32_t scratch[4 * 60], g[60];
	long ng;

	/* 60 donors in 10 domains of 6: 4+2 makes 10 groups, using all */
	for (int i = 0; i < 60; i++)
		m[i] = (struct ec_member){ .key = (uint64_t)(i * 7919 % 61), .domain = (uint32_t)(i % 10) };
	ng = ec_groups_build(m, 60, 6, scratch, g);
	EXPECT_EQ(ng, 10);
	EXPECT(groups_ok(m, 60, g, ng, 6));
	EXPECT_EQ(ec_groups_max(m, 60, 6, scratch), 10);
	/* 8+2 over 10 domains: 6 groups (60 / 10) */
	ng = ec_groups_build(m, 60, 10, scratch, g);
	EXPECT_EQ(ng, 6);
	EXPECT(groups_ok(m, 60, g, ng, 10));
	/* one domain of 5 and three of 1: a single group of 3 */
	for (int i = 0; i < 8; i++)
		m[i] = (struct ec_member){ .key = (uint64_t)i, .domain = i < 5 ? 9 : (uint32_t)i };
	ng = ec_groups_build(m, 8, 3, scratch, g);
	EXPECT_EQ(ng, 1);
	EXPECT(groups_ok(m, 8, g, ng, 3));
	/* fewer domains than the width: no group */
	EXPECT_EQ(ec_groups_build(m, 5, 3, scratch, g), 0);
	EXPECT_EQ(ec_groups_build(m, 8, 0, scratch, g), -EINVAL);
	EXPECT_EQ(ec_groups_build(m, 8, EC_GROUP_MAX_WIDTH + 1, scratch, g), -EINVAL);
}

/* The same donors listed in another order make the same groups (by key). */
static void groups_deterministic(void)
{
	struct ec_member a[40], b[40];
	uint32_t scratch[4 * 40], ga[40], gb[40];
	long na, nb;

	for (int i = 0; i < 40; i++) {
		a[i] = (struct ec_member){ .key = (uint64_t)(i * 31 % 41), .domain = (uint32_t)(i % 7) };
		b[39 - i] = a[i];
	}
	na = ec_groups_build(a, 40, 6, scratch, ga);
	nb = ec_groups_build(b, 40, 6, scratch, gb);
	EXPECT_EQ(na, nb);
	EXPECT(na > 0);
	for (long i = 0; i < na * 6; i++)
		EXPECT_EQ(a[ga[i]].key, b[gb[i]].key);
}

static void pick_only_groups_with_room(void)
{
	/* groups {0,1,2} {3,4,5} {6,7,8}: group 1 has a full donor */
	uint32_t groups[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, scratch[3];
	struct place_donor d[9];
	struct spare_rng rng = { 5 };
	int hits[3] = { 0 };

	for (int i = 0; i < 9; i++)
		d[i] = (struct place_donor){ .free_slabs = 10, .domain = (uint32_t)i };
	d[4].free_slabs = 0;
	d[8].free_slabs = 1;	/* group 2 is nearly full: group 0 wins ties of draws */
	for (int i = 0; i < 300; i++) {
		long p = ec_group_pick(groups, 3, 3, d, &rng, scratch);

		EXPECT(p == 0 || p == 2);
		if (p >= 0 && p < 3)
			hits[p]++;
	}
	EXPECT(hits[0] > hits[2]);
	EXPECT(hits[2] > 0);	/* drawn twice, it is taken */
	d[0].free_slabs = 0;
	d[6].free_slabs = 0;
	EXPECT_EQ(ec_group_pick(groups, 3, 3, d, &rng, scratch), -ENOSPC);
}

/* Brute force over a small cluster, with equal racks. */
struct brute {
	double p_loss_group, frac_group, frac_random, allsets, p_loss_random;
	int q_mismatch;
	unsigned int sets;
};

/* Fraction of rack-distinct w-sets with more than R donors in failed[]. */
static double brute_q(const struct sim_ec_cluster *c, const uint8_t *failed)
{
	unsigned int n = c->donors, w = c->k + c->r, all = 0, lost = 0;

	for (uint32_t s = 0; s < (1u << n); s++) {
		unsigned int racks = 0, bits = 0, down = 0, ok = 1;

		if ((unsigned int)__builtin_popcount(s) != w)
			continue;
		for (unsigned int i = 0; i < n; i++) {
			if (!(s >> i & 1))
				continue;
			if (racks >> sim_ec_rack_of(c, i) & 1)
				ok = 0;
			racks |= 1u << sim_ec_rack_of(c, i);
			bits++;
			down += failed[i] != 0;
		}
		if (!ok || bits != w)
			continue;
		all++;
		lost += down > c->r;
	}
	return (double)lost / all;
}

static void brute(const struct sim_ec_cluster *c, enum sim_ec_model model, unsigned int f,
		  struct brute *b)
{
	unsigned int n = c->donors, w = c->k + c->r;
	uint8_t failed[32];

	*b = (struct brute){ 0 };
	for (uint32_t s = 0; s < (1u << n); s++) {
		unsigned int lostg = 0, nrack = 0;
		int rack = -1;
		double q, wgt = 1;

		if (model == SIM_EC_RANDOM_F) {
			if ((unsigned int)__builtin_popcount(s) != f)
				continue;
		} else {
			/* a whole rack down, and f of the rest: find the rack */
			for (unsigned int r = 0; r < c->racks; r++) {
				unsigned int all = 1;

				for (unsigned int i = r; i < n; i += c->racks)
					all &= s >> i & 1;
				if (all) {
					nrack++;
					rack = (int)r;
				}
			}
			if ((unsigned int)__builtin_popcount(s) != sim_ec_rack_size(c, 0) + f || !nrack)
				continue;
			/* a set with 2 whole racks arises from either: count it per rack */
			wgt = nrack;
			(void)rack;
		}
		for (unsigned int i = 0; i < n; i++)
			failed[i] = s >> i & 1;
		for (size_t g = 0; g < c->ngroups; g++) {
			unsigned int down = 0;

			for (unsigned int j = 0; j < w; j++)
				down += failed[c->groups[g * w + j]];
			lostg += down > c->r;
		}
		q = brute_q(c, failed);
		b->q_mismatch += fabs(q - sim_ec_random_q(c, failed)) > 1e-12;
		b->sets += (unsigned int)wgt;
		b->p_loss_group += wgt * (lostg > 0);
		b->frac_group += wgt * lostg / (double)c->ngroups;
		b->frac_random += wgt * q;
		b->allsets += wgt * (q > 0);
		b->p_loss_random += wgt * (1 - pow(1 - q, (double)c->stripes));
	}
	b->p_loss_group /= b->sets;
	b->frac_group /= b->sets;
	b->frac_random /= b->sets;
	b->allsets /= b->sets;
	b->p_loss_random /= b->sets;
}

static void check_against_brute(struct sim_ec_cluster *c, enum sim_ec_model model,
				unsigned int f)
{
	struct sim_ec_point p;
	struct brute b;

	brute(c, model, f, &b);
	EXPECT_EQ(sim_ec_point(c, model, f, 200000, 1, &p), 0);
	EXPECT_EQ(b.q_mismatch, 0);
	NEAR(p.p_loss_group, b.p_loss_group, 1e-12);
	NEAR(p.frac_group, b.frac_group, 1e-12);
	NEAR(p.frac_random, b.frac_random, 1e-12);
	/* Monte Carlo: within 4 half-widths of the enumeration (and a width > 0 unless exact) */
	NEAR(p.p_loss_random, b.p_loss_random, 4 * p.p_loss_random_ci + 1e-12);
	NEAR(p.p_loss_allsets, b.allsets, 4 * p.p_loss_allsets_ci + 1e-12);
}

/*
 * 8 donors each its own rack, 2+1, 2 failures: closed form. Groups {3
 * donors} x 2 (2 donors unused). A group loses with both failures in it:
 * P(loss) = 2 C(3,2) / C(8,2) = 6/28, expected fraction = 3/28. Any fixed
 * 3-set holds both failures with C(6,1)/C(8,3) = 3/28: the random stripes
 * lose 3/28 of themselves whatever the pair, and with S stripes
 * P(loss) = 1 - (25/28)^S.
 */
static void closed_form_8_singletons(void)
{
	struct sim_ec_cluster c = { .donors = 8, .racks = 8, .k = 2, .r = 1, .stripes = 5 };
	struct sim_ec_point p;

	EXPECT_EQ(sim_ec_init(&c), 0);
	EXPECT_EQ(c.ngroups, 2);
	EXPECT_EQ(sim_ec_point(&c, SIM_EC_RANDOM_F, 2, 1000, 3, &p), 0);
	NEAR(p.p_loss_group, 6.0 / 28, 1e-12);
	NEAR(p.frac_group, 3.0 / 28, 1e-12);
	NEAR(p.frac_random, 3.0 / 28, 1e-12);
	NEAR(p.p_loss_random, 1 - pow(25.0 / 28, 5), 1e-12);	/* q is the same for every pair */
	NEAR(p.p_loss_allsets, 1, 0);
	/* one failure never loses a 2+1 stripe */
	EXPECT_EQ(sim_ec_point(&c, SIM_EC_RANDOM_F, 1, 1000, 3, &p), 0);
	NEAR(p.p_loss_group, 0, 0);
	NEAR(p.p_loss_random, 0, 0);
	sim_ec_free(&c);
}

static void enumerate_small_clusters(void)
{
	struct sim_ec_cluster a = { .donors = 8, .racks = 8, .k = 2, .r = 1, .stripes = 4 };
	struct sim_ec_cluster b = { .donors = 8, .racks = 4, .k = 2, .r = 1, .stripes = 3 };
	struct sim_ec_cluster c = { .donors = 12, .racks = 6, .k = 2, .r = 2, .stripes = 7 };

	EXPECT_EQ(sim_ec_init(&a), 0);
	EXPECT_EQ(sim_ec_init(&b), 0);
	EXPECT_EQ(sim_ec_init(&c), 0);
	EXPECT_EQ(b.ngroups, 2);
	EXPECT_EQ(c.ngroups, 3);
	for (unsigned int f = 2; f <= 4; f++) {
		check_against_brute(&a, SIM_EC_RANDOM_F, f);
		check_against_brute(&b, SIM_EC_RANDOM_F, f);
		check_against_brute(&c, SIM_EC_RANDOM_F, f + 1);
	}
	for (unsigned int x = 0; x <= 2; x++) {
		check_against_brute(&b, SIM_EC_RACK_PLUS, x);
		check_against_brute(&c, SIM_EC_RACK_PLUS, x + 1);
	}
	sim_ec_free(&a);
	sim_ec_free(&b);
	sim_ec_free(&c);
}

static void bad_clusters(void)
{
	struct sim_ec_cluster c = { .donors = 8, .racks = 2, .k = 2, .r = 1, .stripes = 4 };
	struct sim_ec_point p;

	EXPECT_EQ(sim_ec_init(&c), -EINVAL);	/* 2 racks, 3 splits */
	c = (struct sim_ec_cluster){ .donors = 8, .racks = 8, .k = 2, .r = 1, .stripes = 1 };
	EXPECT_EQ(sim_ec_init(&c), -EINVAL);	/* fewer stripes than groups */
	c.stripes = 10;
	EXPECT_EQ(sim_ec_init(&c), 0);
	EXPECT_EQ(sim_ec_point(&c, SIM_EC_RANDOM_F, SIM_EC_MAX_FAIL + 1, 10, 1, &p), -EINVAL);
	EXPECT_EQ(sim_ec_point(&c, SIM_EC_RANDOM_F, 2, 0, 1, &p), -EINVAL);
	sim_ec_free(&c);
}

int main(void)
{
	TAP_RUN(groups_distinct_domains_and_bounded);
	TAP_RUN(groups_deterministic);
	TAP_RUN(pick_only_groups_with_room);
	TAP_RUN(closed_form_8_singletons);
	TAP_RUN(enumerate_small_clusters);
	TAP_RUN(bad_clusters);
	return tap_done();
}
