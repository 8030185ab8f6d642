// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias-bench: CPU time of spare-tiresias's pass (tird_pass: sort
 * the view, update the ledger, tir_live_pass(), act) over a synthetic
 * view of N pending and running jobs, with Slurm replaced by calls that
 * only count. Slurm's own RPC time is not in it (measure that against a
 * real slurmctld). Documentation/perf/tiresias/.
 *
 *   spare-tiresias-bench [--jobs N] [--gpus G] [--passes P] [--seed S] [--gittins]
 *
 * Between passes the fake Slurm starts pending jobs that fit, highest
 * priority first, and obeys every priority update and requeue.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spare_log.h"
#include "tird.h"

struct fake {
	struct tird_view *v;
	size_t n;
	uint64_t sets, requeues;
};

static int fake_load(void *ctx, struct tird_view **out, size_t *n)
{
	struct fake *f = ctx;

	*out = malloc(f->n * sizeof(**out));
	if (!*out)
		return -1;
	memcpy(*out, f->v, f->n * sizeof(**out));
	*n = f->n;
	return 0;
}

static int fake_gpus(void *ctx, int64_t *gpus)
{
	return -1;	/* gpus is configured */
}

/* Slurm obeys: the priority sticks. */
static int fake_set(void *ctx, uint32_t id, uint32_t prio)
{
	struct fake *f = ctx;

	f->sets++;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].id == id)
			f->v[i].priority = prio;
	return 0;
}

static int fake_requeue(void *ctx, uint32_t id)
{
	struct fake *f = ctx;

	f->requeues++;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].id == id)
			f->v[i].state = TIRD_V_PENDING;
	return 0;
}

/* Pending jobs, highest priority first (ties: lower id). */
static int by_priority(const void *a, const void *b)
{
	const struct tird_view *x = *(struct tird_view *const *)a, *y = *(struct tird_view *const *)b;

	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'n' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "passes", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "gittins", no_argument, NULL, 'G' },
		{ 0 }
	};
	size_t n = 1000, passes = 50;
	int64_t gpus = 256;
	unsigned int seed = 1;
	bool gittins = false;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 'g': gpus = strtoll(optarg, NULL, 10); break;
		case 'p': passes = strtoul(optarg, NULL, 10); break;
		case 's': seed = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'G': gittins = true; break;
		default:
			fprintf(stderr, "usage: spare-tiresias-bench [--jobs N] [--gpus G] "
				"[--passes P] [--seed S] [--gittins]\n");
			return 2;
		}
	}
	if (!n || gpus < 8 || !passes) {
		fprintf(stderr, "spare-tiresias-bench: --jobs, --passes >= 1, --gpus >= 8\n");
		return 2;
	}
	spare_log_init("spare-tiresias-bench", SPARE_LOG_WARN);
	srand(seed);

	struct fake f = { .n = n };
	static struct tird d;
	int64_t now_ms = 1700000000000, dur[1000];
	struct tir_gittins g = { .dur = dur, .n = 1000, .delta = TIR_DEFAULT_GITTINS_DELTA };
	int64_t used = 0;
	int rc = 1;
	uint64_t *ns = calloc(passes, sizeof(*ns));
	struct tird_view **order = calloc(n, sizeof(*order));

	f.v = calloc(n, sizeof(*f.v));
	if (!f.v || !ns || !order) {
		free(f.v);
		free(ns);
		free(order);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct tird_view *v = &f.v[i];
		static const int64_t sizes[] = { 1, 1, 1, 2, 2, 4, 4, 8 };

		v->id = (uint32_t)(1000 + i);
		v->gpus = sizes[rand() % 8];
		v->time_ok = true;
		v->requeue_ok = true;
		v->submit = now_ms / 1000 - 86400 + rand() % 86400;
		v->priority = 1;
		if (used + v->gpus <= gpus) {
			v->state = TIRD_V_RUNNING;
			v->start = v->submit + rand() % 600;
			used += v->gpus;
		} else {
			v->state = TIRD_V_PENDING;
		}
	}
	tir_config_init(&d.cfg.tir, gittins ? TIR_DLAS_GPU_GITTINS : TIR_DLAS_GPU, gpus);
	if (gittins) {
		for (size_t i = 0; i < 1000; i++)
			dur[i] = 60 + (int64_t)(i * i);
		g.table = calloc(g.n + 1, sizeof(double));
		if (!g.table || tir_gittins_init(&g))
			goto out;
		d.cfg.tir.gittins = &g;
	}
	d.cfg.tir.promote = 2;
	d.cfg.gpus = gpus;
	d.cfg.time_scale = 1;
	d.cfg.priority_top = TIRD_PRIO_TOP;
	d.cfg.priority_floor = TIRD_BASIC_TOP;
	d.ops = (struct tird_ops){ fake_load, fake_gpus, fake_set, fake_requeue, &f };
	for (size_t p = 0; p < passes; p++) {
		if (tird_pass(&d, now_ms)) {
			fprintf(stderr, "spare-tiresias-bench: pass %zu failed\n", p);
			goto out;
		}
		ns[p] = d.st.last_pass_ns;
		now_ms += 10000;	/* a pass every 10 s */
		/* Slurm starts what fits, by priority: the highest first */
		used = 0;
		for (size_t i = 0; i < n; i++)
			if (f.v[i].state == TIRD_V_RUNNING)
				used += f.v[i].gpus;
		size_t np = 0;

		for (size_t i = 0; i < n; i++)
			if (f.v[i].state == TIRD_V_PENDING)
				order[np++] = &f.v[i];
		qsort(order, np, sizeof(*order), by_priority);
		for (size_t k = 0; k < np && used < gpus; k++)
			if (used + order[k]->gpus <= gpus) {
				order[k]->state = TIRD_V_RUNNING;
				order[k]->start = now_ms / 1000;
				used += order[k]->gpus;
			}
	}
	uint64_t first = ns[0];

	qsort(ns, passes, sizeof(*ns), cmp_u64);
	printf("jobs=%zu gpus=%" PRId64 " schedule=%s passes=%zu first_ms=%.3f "
	       "min_ms=%.3f median_ms=%.3f p95_ms=%.3f max_ms=%.3f priority_sets=%" PRIu64
	       " requeues=%" PRIu64 "\n", n, gpus, gittins ? "dlas-gpu-gittins" : "dlas-gpu",
	       passes, first / 1e6, ns[0] / 1e6, ns[passes / 2] / 1e6,
	       ns[(passes * 95) / 100 < passes ? (passes * 95) / 100 : passes - 1] / 1e6,
	       ns[passes - 1] / 1e6, f.sets, f.requeues);
	rc = 0;
out:
	tird_free(&d);
	free(f.v);
	free(ns);
	free(order);
	free(g.table);
	return rc;
}
