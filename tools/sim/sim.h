/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-sim: trace-driven simulation of libspare-sched's Tiresias policies.
 *
 *  (the trace, spec and sample readers are libspare-sched's trace_csv.c)
 *  sim_run.c   the event loop and the job.csv / cluster.csv / summary.json
 *  sim_gen.c   seeded synthetic traces and loss curves
 *  sim_flowcon.c  FlowCon against a fair CPU share over a trace (spare-sim
 *                 flowcon)
 *  sim_specon.c   SpeCon against no migration over a trace (spare-sim specon)
 *  sim_mip.c      the MIP allocator against greedy FIFO over a trace of
 *                 elastic jobs (spare-sim mip)
 *  sim_dike.c     Dike's placement of a model on hosts (spare-sim dike)
 */
#ifndef SPARE_SIM_H
#define SPARE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../userspace/sched/tiresias.h"	/* also for tests/fuzz */
#include "../../userspace/sched/flowcon.h"
#include "../../userspace/sched/specon.h"
#include "../../userspace/sched/mip.h"
#include "../../userspace/sched/dike.h"
#include "../../userspace/sched/trace_csv.h"

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
	double dur_min, dur_max; /* log-uniform durations, s; 0: 60 and 36000 */
};

/* A synthetic trace in the Tiresias format. Returns 0 or -errno. */
int sim_gen_trace(const struct sim_gen_opts *o, FILE *out);
/* Loss curves for the same jobs: job_id,loss0,loss_final,tau_s. */
int sim_gen_loss(const struct sim_gen_opts *o, FILE *out);


struct sim_flowcon_opts {
	double cores;		/* CPU cores shared by the jobs */
	double interval;	/* report and decision interval, seconds */
	bool flowcon;		/* false: fair share (equal split) */
	struct flowcon_params fp;
};

struct sim_flowcon_summary {
	size_t jobs, watched;
	double avg_jct, makespan;
	double max_share_sum;	/* most cores handed out in one interval */
	double moved_cpu;	/* CPU-seconds the watched jobs gave up */
	double work;		/* CPU-seconds of all jobs */
	uint64_t decisions;
};

/*
 * Run trace t (job i's work: num_gpu x duration CPU-seconds; its loss after
 * w CPU-seconds: loss[i] at t = w / num_gpu) on o->cores, writing one
 * job.csv row per job (in trace order) and, if shares is not NULL, one
 * "t,job_id,share,watched" row per job and interval. 0 or -errno.
 */
int sim_flowcon_run(const struct sim_trace *t, const struct sim_loss *loss,
		    const struct sim_flowcon_opts *o, FILE *job_csv, FILE *shares,
		    struct sim_flowcon_summary *sum);

/* summary.json for a finished flowcon run, pretty-printed; free(). */
char *sim_flowcon_json(const struct sim_flowcon_opts *o,
		       const struct sim_flowcon_summary *sum);

struct sim_specon_opts {
	unsigned int hosts;
	double cores;		/* per host */
	double interval;	/* report and decision interval, seconds */
	bool migrate;		/* false: the arrival placement is kept */
	unsigned int per;	/* moves per interval at most, >= 1 */
	struct specon_params sp;
};

struct sim_specon_summary {
	size_t jobs;
	double avg_jct, makespan;
	double max_host_load;	/* most cores in use on one host */
	uint64_t moves, decisions;
};

/*
 * Run trace t on o->hosts hosts of o->cores cores (job i can use num_gpu
 * cores, needs num_gpu x duration CPU-seconds, loss as for flowcon),
 * writing one job.csv row per job (trace order) and, if moves_csv is not
 * NULL, one "t,job_id,from,to,gain" row per move. 0 or -errno.
 */
int sim_specon_run(const struct sim_trace *t, const struct sim_loss *loss,
		   const struct sim_specon_opts *o, FILE *job_csv, FILE *moves_csv,
		   struct sim_specon_summary *sum);
/* summary.json for a finished specon run, pretty-printed; free(). */
char *sim_specon_json(const struct sim_specon_opts *o,
		      const struct sim_specon_summary *sum);


enum sim_mip_policy { SIM_MIP_GREEDY, SIM_MIP_LP, SIM_MIP_DP };

struct sim_mip_summary {
	size_t jobs;
	double mean_queue, mean_jct, efficiency, makespan, work, gpu_s;
	unsigned int max_used;	/* most GPUs held at once */
	uint64_t decisions;
	double decide_s;	/* wall time in the allocator (not in the JSON) */
};

/*
 * Run trace t on @gpus GPUs: the allocation is decided again at every
 * arrival and completion, or with @epoch > 0 only at multiples of @epoch
 * seconds (an arriving job waits, a finished job's GPUs stay idle, until
 * the next), over the jobs present in arrival order. Writes
 * one job.csv row per job (arrival order) and, if alloc_csv is not NULL, a
 * "t_s,job_id,gpus" row whenever a job's GPU count changes. The jobs'
 * m.remaining is used up. 0 or -errno.
 */
int sim_mip_run(struct sim_mip_trace *t, unsigned int gpus, enum sim_mip_policy p,
		double epoch, FILE *job_csv, FILE *alloc_csv, struct sim_mip_summary *sum);
/*
 * A trace in the Tiresias columns (spare-sim gen's) as elastic jobs that
 * are rigid: one option each, num_gpu GPUs at num_gpu work units a second,
 * work = num_gpu x duration, so that a job runs its duration. The order
 * (by submit time) is kept. 0, -EINVAL with the jobs past the elastic
 * reader's 1e15 bounds reported on e, or -ENOMEM. Free @out with
 * sim_mip_trace_free().
 */
int sim_mip_from_rigid(const struct sim_trace *in, struct sim_mip_trace *out,
		       struct sim_errs *e);
/* summary.json for a finished mip run, pretty-printed; free(). */
char *sim_mip_json(unsigned int gpus, enum sim_mip_policy p, double epoch,
		   const struct sim_mip_summary *sum);


/*
 * Dike's placement (and, if opt is not NULL, the exhaustive optimum) as
 * placement.csv (host,workers,partitions,params), partitions.csv
 * (partition,first_layer,last_layer,params,host; layers 0-based, in model
 * order) and summary.json. 0 or -ENOMEM; *json is free()d by the caller.
 */
int sim_dike_write(const struct dike_model *m, const struct dike_host *h,
		   unsigned int nhosts, unsigned int max_parts,
		   const struct dike_place *p, const struct dike_cost *c,
		   const struct dike_cost *opt, FILE *placement, FILE *parts,
		   char **json);

struct sim_dike_random_summary {
	unsigned int instances;
	double mean_ratio, min_ratio;	/* search / optimum throughput */
	unsigned int below;		/* instances under 0.95 */
	uint64_t worst_seed;
};

/*
 * dike_search() against dike_exhaustive() on @n random instances
 * (tools/sim/b/dike_random.h), instance i drawn from seed @seed + i: one
 * random.csv row each (instance,seed,hosts,gpus,layers,params,max_parts,
 * search_tput,optimum_tput,ratio,search_workers,search_partitions,
 * optimum_workers,optimum_partitions). 0, or -EINVAL if a search fails.
 */
int sim_dike_random(unsigned int n, uint64_t seed, FILE *csv,
		    struct sim_dike_random_summary *sum);
char *sim_dike_random_json(uint64_t seed, const struct sim_dike_random_summary *sum);

/* The command line; returns the exit status (2: bad input, nothing written). */
int spare_sim_main(int argc, char **argv);

#endif /* SPARE_SIM_H */
