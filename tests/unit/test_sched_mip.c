// SPDX-License-Identifier: GPL-2.0
/*
 * The MIP allocator (userspace/sched/mip.c): lp_solve against the exact
 * multiple-choice-knapsack DP on 1,000 random instances, hand-checked cases,
 * the greedy FIFO baseline and bad input.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "tap.h"
#include "mip.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned int urand(unsigned int lo, unsigned int hi)
{
	return lo + (unsigned int)(next_u64() % (hi - lo + 1));
}

static double drand(void)
{
	return (double)(next_u64() >> 11) / 9007199254740992.0;
}

static _Alignas(8) unsigned char ws[1 << 16];

/* Brute force over every choice vector, for tiny instances. */
static double brute(const struct mip_job *jobs, unsigned int n,
		    unsigned int cap, int *choice, unsigned int i)
{
	double best = -1;

	if (i == n)
		return mip_value(jobs, n, cap, choice);
	for (int o = MIP_NONE; o < (int)jobs[i].nopt; o++) {
		double v;

		choice[i] = o;
		v = brute(jobs, n, cap, choice, i + 1);
		if (v > best)
			best = v;
	}
	return best;
}

static void hand_case(void)
{
	/*
	 * 4 GPUs. Job A: 1 GPU at 1.0/s or 4 GPUs at 2.0/s, 10 left.
	 * Job B: 2 GPUs at 1.0/s, 4 left; job C: 1 GPU at 0.5/s, 1 left.
	 * Best: A@1 (0.1) + B@2 (0.25) + C@1 (0.5) = 0.85 on 4 GPUs;
	 * A@4 alone is worth 0.2.
	 */
	struct mip_job j[3] = {
		{ .nopt = 2, .gpus = { 1, 4 }, .tput = { 1.0, 2.0 }, .remaining = 10 },
		{ .nopt = 1, .gpus = { 2 }, .tput = { 1.0 }, .remaining = 4 },
		{ .nopt = 1, .gpus = { 1 }, .tput = { 0.5 }, .remaining = 1 },
	};
	int c_lp[3], c_dp[3], c_g[3];
	double v_lp, v_dp;

	EXPECT_EQ(mip_solve_lp(j, 3, 4, c_lp, &v_lp, NULL), 0);
	EXPECT_EQ(mip_solve_dp(j, 3, 4, ws, sizeof(ws), c_dp, &v_dp), 0);
	EXPECT(fabs(v_lp - 0.85) < 1e-12);
	EXPECT(fabs(v_dp - 0.85) < 1e-12);
	EXPECT_EQ(c_lp[0], 0);
	EXPECT_EQ(c_lp[1], 0);
	EXPECT_EQ(c_lp[2], 0);
	EXPECT_EQ(c_dp[0], 0);
	/* Greedy FIFO: A takes all 4, nothing is left for B and C. */
	EXPECT_EQ(mip_greedy_fifo(j, 3, 4, c_g), 0);
	EXPECT_EQ(c_g[0], 1);
	EXPECT_EQ(c_g[1], MIP_NONE);
	EXPECT_EQ(c_g[2], MIP_NONE);
}

static void running_never_drops(void)
{
	/*
	 * C is worth far more but needs 3 GPUs; A runs on 1 and must keep
	 * it, so C cannot start on 3 GPUs.
	 */
	struct mip_job j[2] = {
		{ .nopt = 1, .gpus = { 1 }, .tput = { 1 }, .remaining = 1000,
		  .running = true },
		{ .nopt = 1, .gpus = { 3 }, .tput = { 100 }, .remaining = 1 },
	};
	int c[2];
	double v;

	EXPECT_EQ(mip_solve_lp(j, 2, 3, c, &v, NULL), 0);
	EXPECT_EQ(c[0], 0);
	EXPECT_EQ(c[1], MIP_NONE);
	EXPECT_EQ(mip_solve_dp(j, 2, 3, ws, sizeof(ws), c, &v), 0);
	EXPECT_EQ(c[0], 0);
	EXPECT_EQ(c[1], MIP_NONE);
	j[0].running = false;
	EXPECT_EQ(mip_solve_dp(j, 2, 3, ws, sizeof(ws), c, &v), 0);
	EXPECT_EQ(c[0], MIP_NONE);
	EXPECT_EQ(c[1], 0);
	/* Greedy sets aside the running job's GPU even when it is last. */
	j[0].running = true;
	{
		struct mip_job r[2] = { j[1], j[0] };

		r[0].gpus[0] = 2;
		EXPECT_EQ(mip_greedy_fifo(r, 2, 3, c), 0);
		EXPECT_EQ(c[0], 0);
		EXPECT_EQ(c[1], 0);
		r[0].gpus[0] = 3;
		EXPECT_EQ(mip_greedy_fifo(r, 2, 3, c), 0);
		EXPECT_EQ(c[0], MIP_NONE);
		EXPECT_EQ(c[1], 0);
	}
}

static void bad_input(void)
{
	struct mip_job j = { .nopt = 1, .gpus = { 2 }, .tput = { 1 },
			     .remaining = 1, .running = true };
	int c[1];
	double v;

	EXPECT_EQ(mip_check(&j, 1, 1), -ENOSPC);
	EXPECT_EQ(mip_solve_lp(&j, 1, 1, c, &v, NULL), -ENOSPC);
	EXPECT_EQ(mip_solve_dp(&j, 1, 1, ws, sizeof(ws), c, &v), -ENOSPC);
	EXPECT_EQ(mip_greedy_fifo(&j, 1, 1, c), -ENOSPC);
	EXPECT_EQ(mip_solve_dp(&j, 1, 2, ws, mip_dp_ws_size(1, 2) - 1, c, &v),
		  -ENOBUFS);
	j.remaining = 0;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	j.remaining = NAN;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	j.remaining = 1;
	j.tput[0] = -1;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	j.tput[0] = 1;
	j.gpus[0] = 0;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	j.gpus[0] = 1;
	j.nopt = 0;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	j.nopt = MIP_MAX_OPT + 1;
	EXPECT_EQ(mip_check(&j, 1, 4), -EINVAL);
	/* mip_value() rejects over-allocation and a dropped running job. */
	j.nopt = 1;
	c[0] = 0;
	EXPECT(mip_value(&j, 1, 0, c) < 0);
	c[0] = MIP_NONE;
	EXPECT(mip_value(&j, 1, 4, c) < 0);
	/* No jobs at all: value 0. */
	EXPECT_EQ(mip_solve_lp(&j, 0, 4, c, &v, NULL), 0);
	EXPECT(v == 0);
}

static void random_job(struct mip_job *j, unsigned int cap, unsigned int maxopt)
{
	unsigned int base = urand(1, 3);
	double sigma = 0.4 + 0.6 * drand(), speed = 0.1 + 10 * drand();

	j->nopt = urand(1, maxopt);
	for (unsigned int o = 0; o < j->nopt; o++) {
		j->gpus[o] = base * (o + 1);
		if (j->gpus[o] > cap + 2)
			j->gpus[o] = urand(1, cap + 2);
		j->tput[o] = speed * pow(j->gpus[o], sigma) * (0.9 + 0.2 * drand());
	}
	j->remaining = pow(10, 4 * drand());
	j->running = false;
}

/* Random instances with running jobs whose smallest options fit. */
static unsigned int random_instance(struct mip_job *jobs, unsigned int maxn,
				    unsigned int maxopt, unsigned int *capp)
{
	unsigned int n = urand(0, maxn), cap = urand(1, 48);
	unsigned int held = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int m;

		random_job(&jobs[i], cap, maxopt);
		m = jobs[i].gpus[0];
		for (unsigned int o = 1; o < jobs[i].nopt; o++)
			if (jobs[i].gpus[o] < m)
				m = jobs[i].gpus[o];
		if (urand(0, 2) == 0 && held + m <= cap) {
			jobs[i].running = true;
			held += m;
		}
	}
	*capp = cap;
	return n;
}

static void lp_equals_dp_1000(void)
{
	struct mip_job jobs[24];
	int c_lp[24], c_dp[24], c_g[24];
	unsigned int equal = 0, beats_greedy = 0;

	for (int t = 0; t < 1000; t++) {
		unsigned int cap, n = random_instance(jobs, 24, 8, &cap);
		double v_lp = -2, v_dp = -3, v_g;
		struct mip_lp_stats st;

		EXPECT_EQ(mip_solve_dp(jobs, n, cap, ws, sizeof(ws), c_dp, &v_dp), 0);
		EXPECT_EQ(mip_solve_lp(jobs, n, cap, c_lp, &v_lp, &st), 0);
		EXPECT_EQ(mip_greedy_fifo(jobs, n, cap, c_g), 0);
		v_g = mip_value(jobs, n, cap, c_g);
		EXPECT(v_dp >= 0 && v_lp >= 0 && v_g >= 0);
		EXPECT(mip_used(jobs, n, c_lp) <= cap);
		EXPECT(mip_used(jobs, n, c_dp) <= cap);
		EXPECT(mip_used(jobs, n, c_g) <= cap);
		if (fabs(v_lp - v_dp) <= 1e-9 * fmax(1, v_dp))
			equal++;
		else
			fprintf(stderr, "# instance %d: lp %.17g dp %.17g\n",
				t, v_lp, v_dp);
		EXPECT(v_g <= v_dp * (1 + 1e-12));
		beats_greedy += v_dp > v_g * (1 + 1e-9);
	}
	EXPECT_EQ(equal, 1000);
	/* The instances must be hard enough that greedy often loses. */
	EXPECT(beats_greedy > 300);
	printf("# lp == dp on %u/1000; dp > greedy on %u\n", equal, beats_greedy);
}

static void dp_equals_brute(void)
{
	struct mip_job jobs[6];
	int c[6], cb[6];

	for (int t = 0; t < 300; t++) {
		unsigned int cap, n = random_instance(jobs, 6, 4, &cap);
		double v, vb;

		EXPECT_EQ(mip_solve_dp(jobs, n, cap, ws, sizeof(ws), c, &v), 0);
		vb = brute(jobs, n, cap, cb, 0);
		EXPECT(fabs(v - vb) <= 1e-12 * fmax(1, vb));
	}
}

int main(void)
{
	TAP_RUN(hand_case);
	TAP_RUN(running_never_drops);
	TAP_RUN(bad_input);
	TAP_RUN(dp_equals_brute);
	TAP_RUN(lp_equals_dp_1000);
	return tap_done();
}
