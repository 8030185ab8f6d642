/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-sim: trace-driven simulation of libspare-sched's Tiresias policies.
 *
 *  sim_csv.c   strict readers for the Tiresias trace and cluster spec
 *  sim_run.c   the event loop and the job.csv / cluster.csv / summary.json
 *  sim_gen.c   seeded synthetic traces and loss curves
 */
#ifndef SPARE_SIM_H
#define SPARE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../userspace/sched/tiresias.h"	/* also for tests/fuzz */

/*
 * Where parse errors go: each is one "FILE:LINE:COL: field: reason" line on
 * out (if not NULL). Readers keep going after an error to report the next
 * ones, up to SIM_MAX_ERRORS.
 */
#define SIM_MAX_ERRORS 20

struct sim_errs {
	FILE *out;
	const char *file;
	unsigned int count;
};

struct sim_spec {
	int64_t num_switch, nodes_per_switch, gpus_per_node, cpus_per_node, mem_per_node;
	int64_t nodes, gpus;
};

struct sim_trace {
	struct tir_job *jobs;	/* sorted by submit time, ties in trace order */
	size_t n;
};

/* Parse a cluster spec; 0, or -EINVAL with the errors reported. */
int sim_parse_spec(const char *buf, size_t len, struct sim_spec *spec, struct sim_errs *e);
/* Parse a trace for a cluster of gpus GPUs; free with sim_trace_free(). */
int sim_parse_trace(const char *buf, size_t len, int64_t gpus, struct sim_trace *t,
		    struct sim_errs *e);
void sim_trace_free(struct sim_trace *t);
/* Parse a duration sample (a "duration" column); sorted ascending, free(). */
int sim_parse_durations(const char *buf, size_t len, int64_t **dur, size_t *n,
			struct sim_errs *e);

struct sim_summary {
	size_t jobs;
	double avg_jct, avg_pending;
	int64_t median_jct, p95_jct, p99_jct, max_jct, makespan;
	uint64_t preemptions, decisions;
	size_t max_pending;
};

/*
 * Run the whole trace under cfg, writing job.csv and cluster.csv rows (with
 * headers) to the given streams (either may be NULL). The jobs' state is
 * left as the scheduler ended it. Returns 0 or -errno.
 */
int sim_run(const struct sim_spec *spec, struct sim_trace *t, const struct tir_config *cfg,
	    FILE *job_csv, FILE *cluster_csv, struct sim_summary *sum);
/* summary.json for a finished run, pretty-printed; free(). NULL if out of memory. */
char *sim_summary_json(const struct tir_config *cfg, const struct sim_summary *sum);

struct sim_gen_opts {
	uint64_t seed;
	size_t jobs;
	int64_t gpus;		/* cluster size the load is computed for */
	double load;		/* offered GPU load, 0 < load */
};

/* A synthetic trace in the Tiresias format. Returns 0 or -errno. */
int sim_gen_trace(const struct sim_gen_opts *o, FILE *out);
/* Loss curves for the same jobs: job_id,loss0,loss_final,tau_s. */
int sim_gen_loss(const struct sim_gen_opts *o, FILE *out);

/* The command line; returns the exit status (2: bad input, nothing written). */
int spare_sim_main(int argc, char **argv);

#endif /* SPARE_SIM_H */
