// SPDX-License-Identifier: GPL-2.0
/* FlowCon (userspace/sched/flowcon.c): growth efficiency, watch list, shares. */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "tap.h"
#include "flowcon.h"

static const struct flowcon_params *P = &flowcon_defaults;

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fmax(fabs(a), fabs(b)));
}

static void growth_efficiency(void)
{
	struct flowcon_job j;

	flowcon_job_init(&j);
	EXPECT_EQ(flowcon_report(P, &j, 2.0, 0), 0);
	EXPECT(j.first_loss == 2.0);
	/* 0.5 of 2.0 in 10 CPU-seconds: 0.025 per CPU-second. */
	EXPECT_EQ(flowcon_report(P, &j, 1.5, 10), 0);
	EXPECT(near(j.g, 0.025));
	/* 0.1 of 2.0 in 20 s: 0.0025; EWMA 0.5: 0.01375. */
	EXPECT_EQ(flowcon_report(P, &j, 1.4, 30), 0);
	EXPECT(near(j.g, 0.01375));
	/* No CPU used: no sample. */
	EXPECT_EQ(flowcon_report(P, &j, 1.0, 30), 0);
	EXPECT(near(j.g, 0.01375));
	EXPECT_EQ(j.reports, 3);
}

static void bad_reports(void)
{
	struct flowcon_job j, saved;

	flowcon_job_init(&j);
	EXPECT_EQ(flowcon_report(P, &j, 0, 0), -EINVAL);
	EXPECT_EQ(flowcon_report(P, &j, NAN, 0), -EINVAL);
	EXPECT_EQ(flowcon_report(P, &j, 1, -1), -EINVAL);
	EXPECT_EQ(j.reports, 0);
	EXPECT_EQ(flowcon_report(P, &j, 1, 5), 0);
	saved = j;
	EXPECT_EQ(flowcon_report(P, &j, 0.5, 4), -EINVAL);	/* CPU went back */
	EXPECT_EQ(flowcon_report(P, &j, INFINITY, 6), -EINVAL);
	EXPECT(!memcmp(&j, &saved, sizeof(j)));
	EXPECT_EQ(flowcon_shares(P, &j, 1, 0, false), -EINVAL);
	{
		struct flowcon_params bad = *P;

		bad.beta = 1;
		EXPECT_EQ(flowcon_shares(&bad, &j, 1, 4, false), -EINVAL);
	}
}

/* Three jobs on 12 cores; G set directly as if from reports. */
static void setup3(struct flowcon_job *j)
{
	for (int i = 0; i < 3; i++) {
		flowcon_job_init(&j[i]);
		j[i].reports = 5;
	}
	j[0].g = 0.001;
	j[1].g = 0.3;
	j[2].g = 0.1;
	EXPECT_EQ(flowcon_shares(P, j, 3, 12, true), FLOWCON_RESET);
	for (int i = 0; i < 3; i++)
		EXPECT(near(j[i].share, 4));
}

static void watch_and_cut(void)
{
	struct flowcon_job j[4];

	setup3(j);
	memset(&j[3], 0, sizeof(j[3]));		/* not arrived yet */
	/*
	 * Median 0.1, threshold 0.01: job 0 is low; k = 3 intervals, and
	 * setup3()'s call (a reset) was the first of them.
	 */
	EXPECT_EQ(j[0].low, 1);
	EXPECT_EQ(flowcon_shares(P, j, 3, 12, false), 0);
	EXPECT(!j[0].watched);
	EXPECT(near(j[0].share, 4));
	EXPECT_EQ(flowcon_shares(P, j, 3, 12, false), FLOWCON_CUT);
	EXPECT(j[0].watched);
	/* Half of 4 goes to jobs 1 and 2 pro rata to G: 1.5 and 0.5. */
	EXPECT(near(j[0].share, 2));
	EXPECT(near(j[1].share, 5.5));
	EXPECT(near(j[2].share, 4.5));
	/* Watched already: no second cut. */
	EXPECT_EQ(flowcon_shares(P, j, 3, 12, false), 0);
	EXPECT(near(j[0].share, 2));
	/*
	 * An arrival: 3 cores each, then job 0 is cut again and its 1.5
	 * goes pro rata to G (the newcomer has none yet): 1.125 and 0.375.
	 */
	flowcon_job_init(&j[3]);
	EXPECT_EQ(flowcon_shares(P, j, 4, 12, true), FLOWCON_RESET);
	EXPECT(j[0].watched);
	EXPECT(near(j[0].share, 1.5));
	EXPECT(near(j[1].share, 4.125));
	EXPECT(near(j[2].share, 3.375));
	EXPECT(near(j[3].share, 3));
}

static void recovery_resets(void)
{
	struct flowcon_job j[3];

	setup3(j);
	for (int i = 0; i < 3; i++)
		flowcon_shares(P, j, 3, 12, false);
	EXPECT(j[0].watched);
	j[0].g = 0.2;
	EXPECT(flowcon_shares(P, j, 3, 12, false) & FLOWCON_RESET);
	EXPECT(!j[0].watched);
	for (int i = 0; i < 3; i++)
		EXPECT(near(j[i].share, 4));
	/* A completion: the job leaves, the others split everything. */
	j[1].active = false;
	EXPECT_EQ(flowcon_shares(P, j, 3, 12, true), FLOWCON_RESET);
	EXPECT(near(j[0].share, 6) && near(j[2].share, 6));
}

static void min_share_floor(void)
{
	struct flowcon_params p = *P;
	struct flowcon_job j[3];

	setup3(j);
	p.min_share = 3.5;
	for (int i = 0; i < 3; i++)
		flowcon_shares(&p, j, 3, 12, false);
	EXPECT(j[0].watched);
	EXPECT(near(j[0].share, 3.5));
}

/*
 * An even count: the median is the mean of the two middle values. With
 * G = 0.001, 0.002, 0.2, 0.3 it is 0.101 and the threshold 0.0101, so the
 * two flat jobs are low; the lower middle value alone (0.002, threshold
 * 0.0002) would have watched neither.
 */
static void median_even_count(void)
{
	static const double g[4] = { 0.001, 0.002, 0.2, 0.3 };
	struct flowcon_job j[4];

	for (int i = 0; i < 4; i++) {
		flowcon_job_init(&j[i]);
		j[i].reports = 5;
		j[i].g = g[i];
	}
	EXPECT_EQ(flowcon_shares(P, j, 4, 8, true), FLOWCON_RESET);
	EXPECT_EQ(flowcon_shares(P, j, 4, 8, false), 0);
	EXPECT_EQ(flowcon_shares(P, j, 4, 8, false), FLOWCON_CUT);
	EXPECT(j[0].watched && j[1].watched);
	EXPECT(!j[2].watched && !j[3].watched);
	/*
	 * In index order: job 0 gives 1 of its 2 cores to jobs 1-3 pro rata
	 * to G (sum 0.502), then job 1 gives half of what it has then to
	 * jobs 2 and 3 (0.4 / 0.6).
	 */
	{
		double s1 = 2 + 0.002 / 0.502;

		EXPECT(near(j[0].share, 1));
		EXPECT(near(j[1].share, s1 / 2));
		EXPECT(near(j[2].share, 2 + 0.2 / 0.502 + 0.4 * s1 / 2));
		EXPECT(near(j[3].share, 2 + 0.3 / 0.502 + 0.6 * s1 / 2));
	}
	/* Equal G: every rank is that value, nobody is below it. */
	for (int i = 0; i < 4; i++) {
		flowcon_job_init(&j[i]);
		j[i].reports = 5;
		j[i].g = 0.05;
	}
	for (int r = 0; r < 4; r++)
		EXPECT_EQ(flowcon_shares(P, j, 4, 8, r == 0), r == 0 ? FLOWCON_RESET : 0);
}

static uint64_t rng = 7;

static double unif(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* Random arrivals, reports and completions: shares always sum to total. */
static void shares_conserved(void)
{
	for (int run = 0; run < 200; run++) {
		struct flowcon_job j[12];
		double loss[12], cpu[12];
		unsigned int n = 0;
		int bad = 0;

		for (int step = 0; step < 200; step++) {
			bool reset = false;
			double sum = 0;
			unsigned int active = 0;

			if (n < 12 && unif() < 0.1) {
				flowcon_job_init(&j[n]);
				loss[n] = 1 + unif();
				cpu[n] = 0;
				flowcon_report(P, &j[n], loss[n], 0);
				n++;
				reset = true;
			}
			for (unsigned int i = 0; i < n; i++) {
				if (!j[i].active)
					continue;
				if (unif() < 0.01) {
					j[i].active = false;
					reset = true;
					continue;
				}
				cpu[i] += j[i].share * 10;
				loss[i] *= 1 - 0.1 * unif() * unif() * (i % 3);
				if (flowcon_report(P, &j[i], loss[i], cpu[i]))
					bad++;
			}
			if (flowcon_shares(P, j, n, 16, reset) < 0)
				bad++;
			for (unsigned int i = 0; i < n; i++) {
				if (!j[i].active)
					continue;
				active++;
				sum += j[i].share;
				if (j[i].share < 0)
					bad++;
			}
			if (active && fabs(sum - 16) > 1e-9)
				bad++;
		}
		EXPECT_EQ(bad, 0);
	}
}

int main(void)
{
	TAP_RUN(growth_efficiency);
	TAP_RUN(bad_reports);
	TAP_RUN(watch_and_cut);
	TAP_RUN(recovery_resets);
	TAP_RUN(min_share_floor);
	TAP_RUN(median_even_count);
	TAP_RUN(shares_conserved);
	return tap_done();
}
