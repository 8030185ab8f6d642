// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for spare-sim's CSV readers (userspace/sched/trace_csv.c): the
 * cluster spec, the trace, the Gittins duration sample and the loss file
 * (for a fixed three-job trace). The first byte picks the reader (and, for
 * a trace, the cluster size); the rest is the file. Whatever a reader
 * accepts must satisfy what the scheduler needs, and a small accepted trace
 * is then run through Tiresias (the schedule and mode picked by the first
 * byte too), checking the run's invariants: no GPU over-allocated, each job
 * ends once, JCT >= duration. The elastic trace of spare-sim mip too:
 * what it accepts is in range, and a small accepted trace runs under
 * greedy FIFO and the exact DP without over-allocating and with each job
 * ending once. And Dike's model and hosts files: what they accept passes
 * dike_check(), and Dike places it (against a fixed cluster or model).
 * The one entry point for a job trace, sim_parse_any_trace(), picks either
 * reader by the header: what it accepts is of the kind it says and passes
 * that reader's checks, the rigid trace then running with a decision
 * interval (spare-sim --decision-interval) of 1 to 76 s, by the length.
 *
 * fuzz-ldlibs: -ljson-c /usr/lib/liblpsolve55_pic.a -lcolamd -ldl -lm
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../userspace/sched/trace_csv.c"
#include "../../userspace/sched/tiresias.c"
#include "../../tools/sim/sim_mip.c"
#include "../../userspace/sched/mip.c"
#include "../../tools/sim/sim_dike.c"
#include "../../tools/sim/b/dike_random.c"
#include "../../userspace/sched/dike.c"

static void run_trace(struct sim_trace *t, int64_t gpus, uint8_t pick, int64_t interval)
{
	static const int64_t sample[] = { 5, 60, 61, 300, 3000, 40000 };
	static double table[7];
	static uint32_t active[64], scratch[128], ends[64];
	struct tir_gittins g = { .dur = sample, .n = 6, .delta = 100, .table = table };
	struct tir_config cfg;
	struct tir_sched s;
	struct tir_step_result res;
	unsigned int steps = 0;

	tir_config_init(&cfg, (enum tir_schedule)((pick >> 2) % TIR_NR_SCHEDULES), gpus);
	cfg.faithful = pick & 1;
	cfg.decision_interval = interval;
	cfg.limit[0] = 50;
	cfg.limit[1] = 500;
	g.faithful = cfg.faithful;
	if (tir_gittins_init(&g))
		abort();
	cfg.gittins = &g;
	if (tir_init(&s, &cfg, t->jobs, t->n, active, scratch))
		return;	/* past TIR_MAX_TIME: the reader refuses those too */
	memset(ends, 0, sizeof(ends));
	while (!tir_done(&s)) {
		int64_t now = tir_next_event(&s), used = 0;

		if (now == INT64_MAX || tir_step(&s, now, &res) || ++steps > 200000)
			abort();
		for (size_t i = 0; i < res.nended; i++)
			ends[res.ended[i]]++;
		for (size_t i = 0; i < t->n; i++)
			if (t->jobs[i].state == TIR_RUNNING)
				used += t->jobs[i].num_gpu;
		if (used > gpus || used + s.free_gpus != gpus)
			abort();
	}
	for (size_t i = 0; i < t->n; i++)
		if (ends[i] != 1 || t->jobs[i].end - t->jobs[i].submit < t->jobs[i].duration)
			abort();
}

/* A loss file for a fixed trace: what is accepted is in range. */
static void fuzz_loss(const char *buf, size_t len, struct sim_errs *e)
{
	static struct tir_job three[3] = {
		{ .id = 0, .num_gpu = 1, .duration = 10 },
		{ .id = 5, .num_gpu = 2, .duration = 10 },
		{ .id = 9, .num_gpu = 1, .submit = 7, .duration = 10 },
	};
	struct sim_trace t = { .jobs = three, .n = 3 };
	struct sim_loss l[3];

	if (sim_parse_loss(buf, len, &t, l, e))
		return;
	for (size_t i = 0; i < 3; i++)
		if (!(l[i].loss0 > 0) || !isfinite(l[i].loss0) ||
		    !(l[i].final >= 0 && l[i].final <= l[i].loss0) ||
		    !(l[i].tau > 0) || !isfinite(l[i].tau))
			abort();
}

static void fuzz_durations(const char *buf, size_t len, struct sim_errs *e)
{
	int64_t *d;
	size_t n;

	if (sim_parse_durations(buf, len, &d, &n, e))
		return;
	if (n == 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (d[i] < 1 || (i && d[i] < d[i - 1]))
			abort();
	free(d);
}

/* An accepted elastic trace for gpus GPUs: in range, and it runs. */
static void check_mip(const struct sim_mip_trace *tp, int64_t gpus)
{
	struct sim_mip_trace t = *tp;
	struct sim_mip_summary sum;

	if (t.n == 0)
		abort();
	for (size_t i = 0; i < t.n; i++) {
		const struct sim_mip_job *j = &t.jobs[i];

		if (j->id < 0 || !(j->submit >= 0) || !(j->work > 0) ||
		    !isfinite(j->submit) || !isfinite(j->work) ||
		    j->m.nopt < 1 || j->m.nopt > MIP_MAX_OPT ||
		    (i && j->submit < t.jobs[i - 1].submit))
			abort();
		for (unsigned int o = 0; o < j->m.nopt; o++)
			if (j->m.gpus[o] < 1 || j->m.gpus[o] > gpus ||
			    (o && j->m.gpus[o] <= j->m.gpus[o - 1]) ||
			    !(j->m.tput[o] > 0) || !isfinite(j->m.tput[o]))
				abort();
		for (size_t k = 0; k < i && t.n < 64; k++)
			if (t.jobs[k].id == j->id)
				abort();	/* duplicates are refused */
	}
	/* sim_mip_run() itself fails on an over-allocation; a run must end. */
	for (int p = 0; t.n <= 32 && p < 2; p++) {
		if (sim_mip_run(&t, (unsigned int)gpus, p ? SIM_MIP_DP : SIM_MIP_GREEDY,
				0, NULL, NULL, &sum) ||
		    sum.jobs != t.n || sum.max_used > gpus || sum.max_used < 1 ||
		    !(sum.mean_queue >= 0) || !(sum.mean_jct >= sum.mean_queue))
			abort();
	}
}

/* An elastic trace for a cluster of gpus GPUs (spare-sim mip). */
static void fuzz_mip(const char *buf, size_t len, int64_t gpus, struct sim_errs *e)
{
	struct sim_mip_trace t;

	if (sim_parse_mip_trace(buf, len, gpus, &t, e)) {
		if (t.jobs || t.n)
			abort();
		return;
	}
	check_mip(&t, gpus);
	sim_mip_trace_free(&t);
}

/* An accepted rigid trace for gpus GPUs: in range, and it runs. */
static void check_rigid(struct sim_trace *t, int64_t gpus, uint8_t pick, int64_t interval)
{
	if (t->n == 0)
		abort();
	for (size_t i = 0; i < t->n; i++) {
		const struct tir_job *j = &t->jobs[i];

		if (j->num_gpu < 1 || j->num_gpu > gpus || j->duration < 1 ||
		    j->submit < 0 || j->id < 0 ||
		    (i && j->submit < t->jobs[i - 1].submit))
			abort();
		for (size_t k = 0; k < i && t->n < 64; k++)
			if (t->jobs[k].id == j->id)
				abort();	/* duplicates are refused */
	}
	if (t->n <= 64)
		run_trace(t, gpus, pick, interval);
}

/* Either trace through the one entry point, as spare-sim reads it. */
static void fuzz_any_trace(const char *buf, size_t len, int64_t gpus, uint8_t pick,
			   struct sim_errs *e)
{
	struct sim_any_trace a;

	if (sim_parse_any_trace(buf, len, gpus, &a, e)) {
		if (a.rigid.jobs || a.rigid.n || a.elastic.jobs || a.elastic.n)
			abort();
		return;
	}
	if (a.kind == SIM_TRACE_RIGID && !a.elastic.jobs && !a.elastic.n)
		check_rigid(&a.rigid, gpus, pick, 1 + 5 * (int64_t)(len % 16)); /* 1..76 s */
	else if (a.kind == SIM_TRACE_ELASTIC && !a.rigid.jobs && !a.rigid.n)
		check_mip(&a.elastic, gpus);
	else
		abort();
	sim_any_trace_free(&a);
}

/* Dike's model file (hosts fixed) or hosts file (model fixed). */
static void fuzz_dike(const char *buf, size_t len, bool hosts, struct sim_errs *e)
{
	static const struct dike_host two[2] = {
		{ .gpus = 2, .gpu_flops = 1e13, .cores = 8, .sum_rate = 1e9, .nic_bps = 1e10 },
		{ .gpus = 1, .gpu_flops = 4e12, .cores = 4, .sum_rate = 1e9, .nic_bps = 3e9 },
	};
	static const struct dike_layer three[3] = {
		{ 1e6, DIKE_CONV }, { 3e7, DIKE_FC }, { 1e3, DIKE_OTHER },
	};
	static struct dike_layer layers[DIKE_MAX_LAYERS];
	struct dike_host h[DIKE_MAX_HOSTS];
	struct dike_model m = { .flops_per_sample = 1e9, .batch = 256, .bytes_per_param = 4 };
	const struct dike_host *hp = two;
	unsigned int n, nh = 2;
	struct dike_place p;
	struct dike_cost c;

	if (hosts) {
		if (sim_parse_dike_hosts(buf, len, h, &nh, e))
			return;
		hp = h;
		m.layers = three;
		m.nlayers = 3;
	} else {
		if (sim_parse_dike_model(buf, len, layers, &n, e))
			return;
		m.layers = layers;
		m.nlayers = n;
	}
	if (dike_check(&m, hp, nh, 4) || dike_search(&m, hp, nh, 4, &p, &c) ||
	    !(c.throughput > 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_errs e = { .out = NULL, .file = "fuzz" };
	const char *buf;
	size_t len;
	int64_t gpus;

	if (size < 1)
		return 0;
	buf = (const char *)data + 1;
	len = size - 1;
	gpus = 1 + (data[0] >> 2);
	switch (data[0] & 3) {
	case 0: {
		struct sim_spec spec;

		if (sim_parse_spec(buf, len, &spec, &e) == 0 &&
		    (spec.gpus < 1 || spec.nodes < 1 || spec.gpus_per_node < 1 ||
		     spec.gpus != spec.nodes * spec.gpus_per_node))
			abort();
		break;
	}
	case 1: {
		struct sim_trace t;

		if (sim_parse_trace(buf, len, gpus, &t, &e) == 0) {
			check_rigid(&t, gpus, data[0], 0);
			sim_trace_free(&t);
		} else if (t.jobs || t.n) {
			abort();
		}
		break;
	}
	case 2:	/* up to 16 GPUs: an elastic trace's exact DP stays quick */
		fuzz_any_trace(buf, len, 1 + (data[0] >> 4), data[0], &e);
		break;
	default:
		if (data[0] & 8)
			fuzz_mip(buf, len, 1 + (data[0] >> 4), &e);
		else if (data[0] & 16)
			fuzz_dike(buf, len, data[0] & 32, &e);
		else if (data[0] & 4)
			fuzz_loss(buf, len, &e);
		else
			fuzz_durations(buf, len, &e);
		break;
	}
	return 0;
}
