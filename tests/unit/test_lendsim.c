// SPDX-License-Identifier: GPL-2.0
/*
 * A short run of the lending simulation (tools/lendsim) with its invariant
 * checks on: pool bounds, slab accounting between donors and trainers,
 * placement never onto a full donor, victims that were lent. Also: same
 * seed, same run; the donors' profile and the trainers' demand do not
 * depend on the policy. No figure is asserted.
 */
#include <string.h>

#include "lendsim.h"
#include "tap.h"

static struct lsim_params small(void)
{
	struct lsim_params p;

	lsim_defaults(&p);
	p.hours = 3;
	p.donors = 16;
	p.racks = 4;
	p.trainers = 4;
	p.burst_per_h = 2;		/* plenty of pressure in 3 hours */
	p.burst_ramp_s = 0;
	p.move_s = 7;			/* evictions span steps */
	p.check = true;
	return p;
}

static void test_invariants(void)
{
	struct lsim_params p = small();
	struct lsim_totals t;
	char err[128];

	EXPECT_EQ(lsim_run(&p, &t, NULL, NULL, err, sizeof(err)), 0);
	EXPECT_EQ(t.violations, 0);
	EXPECT(t.evicted > 0);			/* the run exercised eviction */
	EXPECT(t.placed > 0 && t.grown > 0 && t.released > 0);
	EXPECT(t.evicted <= t.placed + t.moved);
	p.mode = LSIM_FIXED;
	EXPECT_EQ(lsim_run(&p, &t, NULL, NULL, err, sizeof(err)), 0);
	EXPECT_EQ(t.violations, 0);
	EXPECT_EQ(t.evicted, 0);
	EXPECT_EQ(t.moved, 0);
}

static unsigned int hours_seen;

static void count_hour(void *ctx, unsigned int hour, const struct lsim_totals *t)
{
	EXPECT_EQ(hour, hours_seen);
	hours_seen++;
}

static void test_deterministic(void)
{
	struct lsim_params p = small();
	struct lsim_totals a, b, f;
	char err[128];

	hours_seen = 0;
	EXPECT_EQ(lsim_run(&p, &a, count_hour, NULL, err, sizeof(err)), 0);
	EXPECT_EQ(hours_seen, 3);
	EXPECT_EQ(lsim_run(&p, &b, NULL, NULL, err, sizeof(err)), 0);
	EXPECT(!memcmp(&a, &b, sizeof(a)));
	p.seed = 2;
	EXPECT_EQ(lsim_run(&p, &b, NULL, NULL, err, sizeof(err)), 0);
	EXPECT(memcmp(&a, &b, sizeof(a)) != 0);
	/* The same seed in another mode: same own jobs, same demand. */
	p = small();
	p.mode = LSIM_FIXED;
	EXPECT_EQ(lsim_run(&p, &f, NULL, NULL, err, sizeof(err)), 0);
	EXPECT(f.util_none == a.util_none);
	EXPECT(f.demand_slabs == a.demand_slabs);
	EXPECT(f.overcommit_donor_s == a.overcommit_donor_s);
}

/* A headroom no donor ever has: nothing is lent, nothing evicted. */
static void test_nothing_idle(void)
{
	struct lsim_params p = small();
	struct lsim_totals t;
	char err[128];

	p.headroom_gib = 255;
	EXPECT_EQ(lsim_run(&p, &t, NULL, NULL, err, sizeof(err)), 0);
	EXPECT_EQ(t.violations, 0);
	EXPECT(t.lent_slabs == 0);
	EXPECT_EQ(t.placed, 0);
	EXPECT(t.util_lend == t.util_none);
	EXPECT(t.short_donor_s == 0);
	/* and bad parameters are refused */
	p.headroom_gib = 300;
	EXPECT_EQ(lsim_run(&p, &t, NULL, NULL, err, sizeof(err)), -1);
}

int main(void)
{
	TAP_RUN(test_invariants);
	TAP_RUN(test_deterministic);
	TAP_RUN(test_nothing_idle);
	return tap_done();
}
