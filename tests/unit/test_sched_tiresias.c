// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for Tiresias (userspace/sched/tiresias.c): the issue's check,
 * each schedule on a hand-worked case, the Gittins index, and properties
 * over random traces for every schedule in both modes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "tiresias.h"

#define MAXJ 512

struct run {
	struct tir_config cfg;
	struct tir_sched s;
	struct tir_job jobs[MAXJ];
	uint32_t active[MAXJ], scratch[2 * MAXJ];
	int ends[MAXJ];		/* times each job was reported ended */
	size_t n;
	int64_t max_used;	/* most GPUs ever running at once */
	bool ok;
};

static void add(struct run *r, int64_t gpus, int64_t submit, int64_t dur)
{
	struct tir_job *j = &r->jobs[r->n];

	j->id = (int64_t)r->n++;
	j->num_gpu = gpus;
	j->submit = submit;
	j->duration = dur;
}

/* Run to completion; returns the number of steps. */
static int simulate(struct run *r)
{
	struct tir_step_result res;
	int steps = 0;

	r->ok = tir_init(&r->s, &r->cfg, r->jobs, r->n, r->active, r->scratch) == 0;
	if (!r->ok)
		return 0;
	memset(r->ends, 0, sizeof(r->ends));
	r->max_used = 0;
	while (!tir_done(&r->s)) {
		int64_t t = tir_next_event(&r->s), used = 0;

		if (t == INT64_MAX || tir_step(&r->s, t, &res) || ++steps > 1000000) {
			r->ok = false;
			return steps;
		}
		for (size_t i = 0; i < res.nended; i++)
			r->ends[res.ended[i]]++;
		for (size_t i = 0; i < r->n; i++)
			if (r->jobs[i].state == TIR_RUNNING)
				used += r->jobs[i].num_gpu;
		if (used > r->max_used)
			r->max_used = used;
		if (used + r->s.free_gpus != r->cfg.gpus)
			r->ok = false;
	}
	return steps;
}

static int64_t jct(const struct run *r, size_t i)
{
	return r->jobs[i].end - r->jobs[i].submit;
}

/*
 * The issue's check, dlas-gpu on 1 node x 4 GPUs: job 0 (4 GPUs, 5000 s,
 * t=0), job 1 (4 GPUs, 100 s, t=500). The reference demotes job 0 at
 * floor((3250 - 500) / 4) + 500 = 1187 s, so job 1 ends at 1287 (JCT 787);
 * corrected, job 0 crosses 3250 GPU-s at 813 s (JCT 413).
 */
static void issue_check_dlas_gpu(void)
{
	static struct run r;

	for (int faithful = 0; faithful <= 1; faithful++) {
		memset(&r, 0, sizeof(r));
		tir_config_init(&r.cfg, TIR_DLAS_GPU, 4);
		r.cfg.faithful = faithful;
		add(&r, 4, 0, 5000);
		add(&r, 4, 500, 100);
		simulate(&r);
		EXPECT(r.ok);
		EXPECT_EQ(jct(&r, 1), faithful ? 787 : 413);
		EXPECT_EQ(r.jobs[0].acct.preempt, 1);
		EXPECT_EQ(r.jobs[0].resume, 2);
		EXPECT_EQ(r.jobs[0].acct.queue, 2);	/* 20,000 GPU-s is past 7,200 */
		EXPECT_EQ(jct(&r, 0), 5100);
	}
}

/* FIFO blocks behind the head of the line; fit-first does not. */
static void fifo_and_fjf(void)
{
	static struct run r;

	for (int s = TIR_FIFO; s <= TIR_FJF; s++) {
		memset(&r, 0, sizeof(r));
		tir_config_init(&r.cfg, (enum tir_schedule)s, 4);
		add(&r, 3, 0, 100);
		add(&r, 2, 10, 50);
		add(&r, 1, 20, 30);
		simulate(&r);
		EXPECT(r.ok);
		EXPECT_EQ(r.jobs[1].start, 100);
		EXPECT_EQ(r.jobs[2].start, s == TIR_FIFO ? 100 : 20);
		EXPECT_EQ(r.jobs[0].acct.preempt + r.jobs[1].acct.preempt + r.jobs[2].acct.preempt, 0);
	}
}

/* SJF preempts a bigger job for a smaller one; shortest for a shorter one. */
static void sjf_and_shortest(void)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_SJF, 4);
	add(&r, 4, 0, 100);
	add(&r, 1, 10, 100);
	simulate(&r);
	EXPECT(r.ok);
	EXPECT_EQ(r.jobs[1].start, 10);
	EXPECT_EQ(r.jobs[0].acct.preempt, 1);
	EXPECT_EQ(r.jobs[0].end, 200);

	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_SHORTEST, 2);
	add(&r, 2, 0, 1000);
	add(&r, 2, 100, 10);
	add(&r, 1, 100, 950);	/* 950 > 900 left of job 0: waits */
	simulate(&r);
	EXPECT(r.ok);
	EXPECT_EQ(r.jobs[1].end, 110);
	EXPECT_EQ(r.jobs[0].end, 1010);
	EXPECT_EQ(r.jobs[2].start, 1010);

	/* shortest-gpu ranks by remaining GPU-time: 1 x 950 < 2 x 900 */
	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_SHORTEST_GPU, 2);
	add(&r, 2, 0, 1000);
	add(&r, 1, 100, 950);
	simulate(&r);
	EXPECT(r.ok);
	EXPECT_EQ(r.jobs[1].start, 100);
	EXPECT_EQ(r.jobs[0].acct.preempt, 1);
}

/*
 * dlas counts seconds, dlas-gpu GPU-seconds: with limit 100, a 4-GPU job is
 * demoted after 100 s under dlas and 25 s under dlas-gpu, and a 1-GPU
 * arrival then takes its place.
 */
static void dlas_demotion(void)
{
	static struct run r;

	for (int s = TIR_DLAS; s <= TIR_DLAS_GPU; s++) {
		memset(&r, 0, sizeof(r));
		tir_config_init(&r.cfg, (enum tir_schedule)s, 4);
		r.cfg.nqueues = 2;
		r.cfg.limit[0] = 100;
		add(&r, 4, 0, 1000);
		add(&r, 1, 5, 10);
		simulate(&r);
		EXPECT(r.ok);
		EXPECT_EQ(r.jobs[1].start, s == TIR_DLAS ? 100 : 25);
		EXPECT_EQ(r.jobs[0].acct.preempt, 1);
	}
}

/*
 * Promotion: with K = 1, a demoted job that has been pending as long as it
 * ran goes back to Q0 and the scheduler wakes up for it.
 */
static void promotion(void)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_DLAS_GPU, 1);
	r.cfg.nqueues = 2;
	r.cfg.limit[0] = 10;
	r.cfg.promote = 1;
	add(&r, 1, 0, 100);	/* demoted at 10 */
	add(&r, 1, 5, 100);	/* demoted at 20 */
	simulate(&r);
	EXPECT(r.ok);
	EXPECT(r.jobs[0].acct.promote >= 1);
	EXPECT(r.jobs[1].acct.promote >= 1);

	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_DLAS_GPU, 1);
	r.cfg.nqueues = 2;
	r.cfg.limit[0] = 10;
	add(&r, 1, 0, 100);
	add(&r, 1, 5, 100);
	simulate(&r);
	EXPECT(r.ok);
	EXPECT_EQ(r.jobs[0].acct.promote + r.jobs[1].acct.promote, 0);
}

/*
 * Gittins on the sample {100, 200, 300}, delta 150.
 * Corrected, a = 0: P = 1/3, E = (100 + 150 + 150) / 3, rank = P / E.
 * Faithful, at the first sample point a = 99: idx 0, next 249 -> idx 2,
 * p = 0.66667, E = (100 + 200 + 150) // 3 = 150, rank = 4444.4667.
 */
static void gittins_index(void)
{
	static const int64_t dur[3] = { 100, 200, 300 };
	double table[4];
	struct tir_gittins g = { .dur = dur, .n = 3, .delta = 150, .table = table };

	EXPECT_EQ(tir_gittins_init(&g), 0);
	EXPECT(fabs(tir_gittins_rank(&g, 0) - (1.0 / 3) / (400.0 / 3)) < 1e-12);
	/* a = 120: two left; (200-120) ends within delta: P 1/2, E (80+150)/2 */
	EXPECT(fabs(tir_gittins_rank(&g, 120) - 0.5 / 115.0) < 1e-12);
	EXPECT(tir_gittins_rank(&g, 300) == 0.0);

	g.faithful = true;
	EXPECT_EQ(tir_gittins_init(&g), 0);
	EXPECT(table[0] == 4444.4667);
	EXPECT(tir_gittins_rank(&g, 0) == table[0]);
	EXPECT(tir_gittins_rank(&g, 99) == table[0]);
	EXPECT(tir_gittins_rank(&g, 100) == table[1]);
	EXPECT(tir_gittins_rank(&g, 301) == 0.0);

	int64_t unsorted[2] = { 5, 3 };
	struct tir_gittins bad = { .dur = unsorted, .n = 2, .delta = 1, .table = table };

	EXPECT_EQ(tir_gittins_init(&bad), -EINVAL);
}

/* Bad configurations and jobs are refused, not scheduled. */
static void rejects_bad_input(void)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_FIFO, 4);
	add(&r, 5, 0, 10);		/* more GPUs than the cluster */
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	r.jobs[0].num_gpu = 1;
	r.jobs[0].duration = 0;
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	r.jobs[0].duration = 10;
	add(&r, 1, -1, 10);		/* unsorted and negative */
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	r.n = 1;
	tir_config_init(&r.cfg, TIR_DLAS_GPU_GITTINS, 4);	/* no sample */
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	tir_config_init(&r.cfg, TIR_DLAS_GPU, 4);
	r.cfg.limit[1] = r.cfg.limit[0];			/* not increasing */
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	tir_config_init(&r.cfg, TIR_DLAS_GPU, 4);
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), 0);
	EXPECT_EQ(tir_step(&r.s, 5, &(struct tir_step_result){ 0 }), -EINVAL); /* not the next event */
	enum tir_schedule sch;

	EXPECT_EQ(tir_schedule_parse("dlas-gpu-gittins", &sch), 0);
	EXPECT_EQ(sch, TIR_DLAS_GPU_GITTINS);
	EXPECT_EQ(tir_schedule_parse("lpjf", &sch), -EINVAL);
}

/*
 * A live engine's costs (spare-sim --start-cost, --requeue-delay): every
 * start holds the job's GPUs start_cost seconds more, and a preempted job
 * waits requeue_delay seconds before it may start again, GPUs free or not.
 * dlas-gpu, 1 GPU, Q0 up to 100 GPU-s: A (1000 s) runs from 0, is demoted
 * at 100 (the start cost counts as service, as Slurm's start time does
 * live), and is preempted at 200 by B (50 s, queue 0). Without costs B
 * ends at 250 and A resumes then, ending at 1050. With a start cost of 10:
 * B ends at 260, A (owing 10 for each of its two starts) at 1080. With a
 * requeue delay of 300 as well, A may start only at 500, after B ended: it
 * ends at 1320, and a decision wakes it at 500.
 */
static void live_costs(void)
{
	static struct run r;
	static const struct {
		int64_t cost, delay, b_end, a_resume, a_end;
	} c[] = {
		{ 0, 0, 250, 250, 1050 },
		{ 10, 0, 260, 260, 1080 },
		{ 10, 300, 260, 500, 1320 },
		{ 0, 300, 250, 500, 1300 },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		memset(&r, 0, sizeof(r));
		tir_config_init(&r.cfg, TIR_DLAS_GPU, 1);
		r.cfg.nqueues = 2;
		r.cfg.limit[0] = 100;
		r.cfg.start_cost = c[k].cost;
		r.cfg.requeue_delay = c[k].delay;
		add(&r, 1, 0, 1000);
		add(&r, 1, 200, 50);
		simulate(&r);
		EXPECT(r.ok);
		EXPECT_EQ(r.jobs[0].acct.preempt, 1);
		EXPECT_EQ(r.jobs[0].resume, 2);
		EXPECT_EQ(r.jobs[1].end, c[k].b_end);
		EXPECT_EQ(r.jobs[0].end, c[k].a_end);
		/* A's second run is exactly what is left: its end less its resume */
		EXPECT_EQ(r.jobs[0].end - c[k].a_resume,
			  1000 + 2 * c[k].cost - (200 - 0));
	}
	/* fit-first pays it too: two 1-GPU jobs back to back */
	memset(&r, 0, sizeof(r));
	tir_config_init(&r.cfg, TIR_FJF, 1);
	r.cfg.start_cost = 7;
	add(&r, 1, 0, 100);
	add(&r, 1, 0, 100);
	simulate(&r);
	EXPECT(r.ok);
	EXPECT_EQ(r.jobs[0].end, 107);
	EXPECT_EQ(r.jobs[1].start, 107);
	EXPECT_EQ(r.jobs[1].end, 214);
	/* out of range: refused */
	tir_config_init(&r.cfg, TIR_FJF, 1);
	r.cfg.start_cost = -1;
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	r.cfg.start_cost = 0;
	r.cfg.requeue_delay = TIR_MAX_COST + 1;
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
}

/*
 * A live engine decides only at its passes (spare-sim --decision-interval,
 * Documentation/tiresias-live.md): with an interval of 30 s, decisions
 * fall at 0, 30, 60, ... and nothing starts in between. dlas-gpu, 8 GPUs:
 * A (4 GPUs, 45 s) arrives at 0, B (8 GPUs, 100 s) at 5, C (2 GPUs, 20 s)
 * at 10. At every event: A starts at 0 and ends at 45; C, arriving with
 * 4 GPUs free, starts at 10 and ends at 30; B starts when A ends, at 45.
 * Every 30 s: C waits for the decision at 30 (ends at 50); A and C still
 * end when their work is done (45, 50), but B starts only at the decision
 * at 60, having waited 55 s. Jobs end at their own times, not at a pass.
 */
static void decision_interval(void)
{
	static struct run r;
	static const struct {
		int64_t interval, c_start, b_start, steps;
	} c[] = {
		{ 0, 10, 45, 6 },	/* at 0, 5, 10 (arrivals), 30, 45 and 145 (ends) */
		{ 30, 30, 60, 4 },	/* decisions at 0, 30, 60, 180 */
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		int steps;

		memset(&r, 0, sizeof(r));
		tir_config_init(&r.cfg, TIR_DLAS_GPU, 8);
		r.cfg.decision_interval = c[k].interval;
		add(&r, 4, 0, 45);
		add(&r, 8, 5, 100);
		add(&r, 2, 10, 20);
		steps = simulate(&r);
		EXPECT(r.ok);
		EXPECT_EQ(steps, c[k].steps);
		EXPECT_EQ(r.jobs[0].start, 0);
		EXPECT_EQ(r.jobs[0].end, 45);
		EXPECT_EQ(r.jobs[2].start, c[k].c_start);
		EXPECT_EQ(r.jobs[2].end, c[k].c_start + 20);
		EXPECT_EQ(r.jobs[1].start, c[k].b_start);
		EXPECT_EQ(r.jobs[1].end, c[k].b_start + 100);
		EXPECT_EQ(r.jobs[1].acct.pending_total, c[k].b_start - 5);
		EXPECT_EQ(r.jobs[1].acct.run_total, 100);
		for (size_t i = 0; i < r.n; i++)
			EXPECT_EQ(r.ends[i], 1);
	}
	/* out of range: refused */
	tir_config_init(&r.cfg, TIR_DLAS_GPU, 8);
	r.cfg.decision_interval = -1;
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
	r.cfg.decision_interval = TIR_MAX_COST + 1;
	EXPECT_EQ(tir_init(&r.s, &r.cfg, r.jobs, r.n, r.active, r.scratch), -EINVAL);
}

/*
 * Properties over random traces, every schedule, both modes: nothing is
 * over-allocated, each job ends exactly once, JCT >= duration and a job
 * ends after exactly its duration of running; two runs agree. With a
 * decision interval (every fourth trial), every start falls on one.
 */
static int cmp_i64(const int64_t *a, const int64_t *b)
{
	return *a < *b ? -1 : *a > *b;
}

static void properties_random(void)
{
	static struct run r, r2;
	static int64_t sample[200];
	static double table[201];
	struct tir_gittins g = { .dur = sample, .n = 200, .delta = 300, .table = table };
	unsigned int seed = 1;

	for (int i = 0; i < 200; i++)
		sample[i] = 10 + i * 37 % 2000;
	qsort(sample, 200, sizeof(sample[0]), (int (*)(const void *, const void *))cmp_i64);
	for (int trial = 0; trial < 40; trial++) {
		for (int sch = 0; sch < TIR_NR_SCHEDULES; sch++) {
			for (int faithful = 0; faithful <= 1; faithful++) {
				int64_t gpus = 1 + rand_r(&seed) % 16, t = 0;

				memset(&r, 0, sizeof(r));
				tir_config_init(&r.cfg, (enum tir_schedule)sch, gpus);
				r.cfg.faithful = faithful;
				r.cfg.promote = trial % 3;
				/* every fourth trial decides only every 8 to 44 s */
				r.cfg.decision_interval = trial % 4 == 3 ? 5 + trial : 0;
				r.cfg.limit[0] = 50 + rand_r(&seed) % 200;
				r.cfg.limit[1] = r.cfg.limit[0] + 1 + rand_r(&seed) % 500;
				g.faithful = faithful;
				if (tir_gittins_init(&g))
					tap_case_failed = 1;
				r.cfg.gittins = &g;
				for (int i = 0; i < 60; i++) {
					t += rand_r(&seed) % 40;
					add(&r, 1 + rand_r(&seed) % gpus, t,
					    1 + rand_r(&seed) % 600);
				}
				memcpy(&r2, &r, sizeof(r));
				r2.cfg.gittins = &g;
				simulate(&r);
				simulate(&r2);
				EXPECT(r.ok);
				EXPECT(r.max_used <= gpus);
				for (size_t i = 0; i < r.n; i++) {
					EXPECT_EQ(r.ends[i], 1);
					EXPECT(jct(&r, i) >= r.jobs[i].duration);
					EXPECT_EQ(r.jobs[i].acct.run_total, r.jobs[i].duration);
					EXPECT_EQ(r.jobs[i].end, r2.jobs[i].end);
					/* a job starts only at a decision */
					if (r.cfg.decision_interval)
						EXPECT_EQ(r.jobs[i].start % r.cfg.decision_interval, 0);
				}
				if (tap_case_failed) {
					fprintf(stderr, "# schedule %s faithful %d trial %d\n",
						tir_schedule_name((enum tir_schedule)sch),
						faithful, trial);
					return;
				}
			}
		}
	}
}

int main(void)
{
	TAP_RUN(issue_check_dlas_gpu);
	TAP_RUN(fifo_and_fjf);
	TAP_RUN(sjf_and_shortest);
	TAP_RUN(dlas_demotion);
	TAP_RUN(promotion);
	TAP_RUN(gittins_index);
	TAP_RUN(rejects_bad_input);
	TAP_RUN(live_costs);
	TAP_RUN(decision_interval);
	TAP_RUN(properties_random);
	return tap_done();
}
