// SPDX-License-Identifier: GPL-2.0
/*
 * Dike placement (userspace/sched/dike.c): the cost model by hand, bad
 * placements, the CNN profile tables against the published totals, and the
 * search against the exhaustive optimum.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "tap.h"
#include "dike.h"
#include "dike_profiles.h"

static const struct dike_layer two[2] = {
	{ 1e6, DIKE_FC }, { 1e6, DIKE_FC },
};
static const struct dike_model small = {
	.nlayers = 2, .layers = two, .flops_per_sample = 1e9, .batch = 100,
	.bytes_per_param = 4,
};
static const struct dike_host pair[2] = {
	{ .gpus = 1, .gpu_flops = 1e12, .cores = 1, .sum_rate = 1e9, .nic_bps = 1e9 },
	{ .gpus = 1, .gpu_flops = 1e12, .cores = 1, .sum_rate = 1e9, .nic_bps = 1e9 },
};

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static void cost_by_hand(void)
{
	struct dike_place p = { .workers = { 1, 1 }, .nparts = 2,
				.end = { 1, 2 }, .host = { 0, 1 } };
	struct dike_cost c;

	/*
	 * 2 workers, 50 samples each: 0.05 s. Host 0 holds 1e6 params:
	 * its worker pushes/pulls 1e6 remote, its partition answers one
	 * remote worker: 2e6 params = 8 MB at 1 GB/s. Summing 2 copies of
	 * 1e6 on one core at 1e9/s: 2 ms.
	 */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), 0);
	EXPECT(near(c.compute, 0.05));
	EXPECT(near(c.nic, 0.008));
	EXPECT(near(c.sum, 0.002));
	EXPECT(near(c.throughput, 100 / 0.06));
	/* Both partitions on host 0: 4 ms of summation there. */
	p.host[1] = 0;
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), 0);
	EXPECT(near(c.nic, 0.008));
	EXPECT(near(c.sum, 0.004));
	/* One worker, partitions beside it: no network at all. */
	p.workers[1] = 0;
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), 0);
	EXPECT(near(c.compute, 0.1));
	EXPECT(c.nic == 0);
	EXPECT(near(c.sum, 0.002));
	/* The slowest worker sets the compute time. */
	{
		struct dike_host h[2] = { pair[0], pair[1] };

		h[1].gpu_flops = 0.5e12;
		p.workers[1] = 1;
		EXPECT_EQ(dike_eval(&small, h, 2, &p, &c), 0);
		EXPECT(near(c.compute, 0.1));
	}
}

static void bad_placements(void)
{
	struct dike_place p = { .workers = { 1, 1 }, .nparts = 2,
				.end = { 1, 2 }, .host = { 0, 1 } };
	struct dike_cost c;
	struct dike_model m = small;
	struct dike_host h[2] = { pair[0], pair[1] };

	p.workers[0] = 2;		/* more workers than GPUs */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), -EINVAL);
	p.workers[0] = 0;
	p.workers[1] = 0;		/* no worker */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), -EINVAL);
	p.workers[0] = 1;
	p.end[0] = 2;			/* empty partition */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), -EINVAL);
	p.end[0] = 1;
	p.end[1] = 1;			/* layers left over */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), -EINVAL);
	p.end[1] = 2;
	p.host[1] = 2;			/* no such host */
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), -EINVAL);
	p.host[1] = 1;
	EXPECT_EQ(dike_eval(&small, pair, 2, &p, &c), 0);
	m.batch = 0;
	EXPECT_EQ(dike_eval(&m, pair, 2, &p, &c), -EINVAL);
	m = small;
	m.flops_per_sample = NAN;
	EXPECT_EQ(dike_search(&m, pair, 2, 2, &p, &c), -EINVAL);
	h[0].nic_bps = 0;
	EXPECT_EQ(dike_search(&small, h, 2, 2, &p, &c), -EINVAL);
	EXPECT_EQ(dike_search(&small, pair, 2, 0, &p, &c), -EINVAL);
	EXPECT_EQ(dike_search(&small, pair, 0, 2, &p, &c), -EINVAL);
	EXPECT_EQ(dike_exhaustive(&small, pair, 2, 5, &p, &c), -E2BIG);
}

/* One layer; a GPU-less host that can still hold the partition. */
static void edges(void)
{
	static const struct dike_layer one[1] = { { 5e7, DIKE_FC } };
	struct dike_model m = small;
	struct dike_host h[2] = { pair[0], pair[1] };
	struct dike_place ps, po;
	struct dike_cost cs, co;

	m.layers = one;
	m.nlayers = 1;
	h[1].gpus = 0;
	h[1].cores = 64;
	EXPECT_EQ(dike_search(&m, h, 2, 4, &ps, &cs), 0);
	EXPECT_EQ(dike_exhaustive(&m, h, 2, 4, &po, &co), 0);
	EXPECT_EQ(ps.nparts, 1);
	EXPECT_EQ(ps.workers[0], 1);
	EXPECT_EQ(ps.workers[1], 0);
	/* One worker: its own host is free of traffic and wins. */
	EXPECT_EQ(po.host[0], 0);
	EXPECT(near(cs.throughput, co.throughput));
}

static void profile_totals(void)
{
	/* Published totals (torchvision model cards; Howard et al. 2017). */
	static const double want[DIKE_NPROFILES] = {
		61100840, 132863336, 133047848, 138357544, 143667240,
		11689512, 21797672, 25557032, 4231976,
	};

	for (int i = 0; i < DIKE_NPROFILES; i++) {
		double s = 0;

		for (unsigned int l = 0; l < dike_profiles[i].nlayers; l++)
			s += dike_profiles[i].layers[l].params;
		EXPECT(s == want[i]);
		EXPECT(s == dike_profiles[i].params);
	}
	/* ResNet-50: 3.8 GMAC forward (He et al., Table 1). */
	EXPECT(fabs(dike_profiles[7].flops_per_sample / 6e9 - 3.86) < 0.05);
}

static uint64_t rng = 42;

static double unif(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void search_vs_optimum(void)
{
	double sum = 0;
	int n = 200;

	for (int t = 0; t < n; t++) {
		struct dike_layer layers[10];
		struct dike_host h[4];
		struct dike_model m = { .layers = layers, .bytes_per_param = 4 };
		struct dike_place ps, po;
		struct dike_cost cs, co, ce;
		unsigned int nh = 2 + (unsigned int)(unif() * 3);
		unsigned int mp = 1 + (unsigned int)(unif() * 4);

		for (unsigned int k = 0; k < nh; k++) {
			h[k].gpus = 1 + (unsigned int)(unif() * 3);
			h[k].gpu_flops = 2e12 + 14e12 * unif();
			h[k].cores = 4 + (unsigned int)(unif() * 28);
			h[k].sum_rate = 1e9;
			h[k].nic_bps = 1.25e9 * pow(10, unif());
		}
		m.nlayers = 2 + (unsigned int)(unif() * 9);
		for (unsigned int i = 0; i < m.nlayers; i++)
			layers[i] = (struct dike_layer){ 1e5 * pow(100, unif()), DIKE_OTHER };
		m.flops_per_sample = 1e9 * pow(100, unif());
		m.batch = 32 << (int)(unif() * 5);
		EXPECT_EQ(dike_search(&m, h, nh, mp, &ps, &cs), 0);
		EXPECT_EQ(dike_exhaustive(&m, h, nh, mp, &po, &co), 0);
		/* Both results are real placements with the costs reported. */
		EXPECT_EQ(dike_eval(&m, h, nh, &ps, &ce), 0);
		EXPECT(near(ce.throughput, cs.throughput));
		EXPECT(ps.nparts <= mp && po.nparts <= mp);
		/* Nothing beats the exhaustive optimum. */
		EXPECT(cs.throughput <= co.throughput * (1 + 1e-12));
		sum += cs.throughput / co.throughput;
	}
	EXPECT(sum / n >= 0.95);
	printf("# search/optimum over %d random instances: %.4f\n", n, sum / n);
}

static void profiles_small(void)
{
	static const struct dike_host hosts[3] = {
		{ .gpus = 2, .gpu_flops = 14e12, .cores = 16, .sum_rate = 1e9, .nic_bps = 12.5e9 },
		{ .gpus = 2, .gpu_flops = 8e12, .cores = 8, .sum_rate = 1e9, .nic_bps = 3.125e9 },
		{ .gpus = 1, .gpu_flops = 12e12, .cores = 8, .sum_rate = 1e9, .nic_bps = 7e9 },
	};

	/* AlexNet, VGG-11, VGG-16: few layers, so the oracle is quick. */
	for (int i = 0; i < 4; i += (i == 1 ? 2 : 1)) {
		const struct dike_profile *pr = &dike_profiles[i];
		struct dike_model m = { .nlayers = pr->nlayers, .layers = pr->layers,
					.flops_per_sample = pr->flops_per_sample,
					.batch = 1024, .bytes_per_param = 4 };
		struct dike_place ps, po;
		struct dike_cost cs, co;

		EXPECT_EQ(dike_search(&m, hosts, 3, 4, &ps, &cs), 0);
		EXPECT_EQ(dike_exhaustive(&m, hosts, 3, 4, &po, &co), 0);
		EXPECT(cs.throughput >= 0.95 * co.throughput);
		EXPECT(cs.throughput <= co.throughput * (1 + 1e-12));
	}
}

int main(void)
{
	TAP_RUN(cost_by_hand);
	TAP_RUN(bad_placements);
	TAP_RUN(edges);
	TAP_RUN(profile_totals);
	TAP_RUN(search_vs_optimum);
	TAP_RUN(profiles_small);
	return tap_done();
}
