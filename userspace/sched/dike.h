/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dike-style placement of data-parallel workers and parameter-server
 * partitions on heterogeneous hosts (after Dike, "Revisiting Resource
 * Management for Distributed Deep Learning").
 *
 * Model: a DNN's tensors (one per layer: parameter count), FLOPs per sample
 * for a training step (forward and backward), a global batch, and hosts with
 * GPUs, GPU speed, cores, summation rate per core and NIC bandwidth.
 *
 * Placement: workers per host; the tensors cut into P contiguous ranges (the
 * key ranges of a parameter server), each on one host.
 *
 * Cost of one synchronous iteration (see Documentation/sched-policies.md):
 *   compute = batch / W * flops_per_sample / gpu_flops   of the slowest worker
 *   nic     = max_h traffic_h / nic_h, where host h sends (and receives)
 *             w_h * (S - S_h) + S_h * (W - w_h) bytes: its workers' pushes
 *             and pulls to remote partitions and its partitions' replies to
 *             remote workers; traffic inside a host is free
 *   sum     = max_h params_h * W / (cores_h * sum_rate_h): partitions on one
 *             host share its cores
 *   throughput = batch / (compute + nic + sum)  samples per second.
 *
 * Pure functions over caller-owned structures: no I/O, no clock, no
 * allocation.
 */
#ifndef SPARE_SCHED_DIKE_H
#define SPARE_SCHED_DIKE_H

#include <stdbool.h>

#define DIKE_MAX_HOSTS	16
#define DIKE_MAX_PARTS	16
#define DIKE_MAX_LAYERS	1024

enum dike_layer_type { DIKE_CONV, DIKE_FC, DIKE_OTHER };

struct dike_layer {
	double params;			/* parameters (weights, biases, BN) */
	enum dike_layer_type type;
};

struct dike_model {
	unsigned int nlayers;
	const struct dike_layer *layers;
	double flops_per_sample;	/* one training step, fwd + bwd */
	double batch;			/* global batch, samples */
	double bytes_per_param;		/* 4 for fp32 gradients */
};

struct dike_host {
	unsigned int gpus;
	double gpu_flops;		/* sustained FLOP/s of one GPU */
	unsigned int cores;
	double sum_rate;		/* parameters summed per second per core */
	double nic_bps;			/* bytes per second, each direction */
};

struct dike_place {
	unsigned int workers[DIKE_MAX_HOSTS];
	unsigned int nparts;
	unsigned int end[DIKE_MAX_PARTS];	/* partition p: [end[p-1], end[p]) */
	unsigned int host[DIKE_MAX_PARTS];
};

struct dike_cost {
	double compute, nic, sum;	/* seconds */
	double throughput;		/* samples per second */
};

/* 0, or -EINVAL for a malformed model, host list or limits. */
int dike_check(const struct dike_model *m, const struct dike_host *h,
	       unsigned int nhosts, unsigned int max_parts);

/* Cost of @p; -EINVAL if @p is not a valid placement. */
int dike_eval(const struct dike_model *m, const struct dike_host *h,
	      unsigned int nhosts, const struct dike_place *p,
	      struct dike_cost *c);

/*
 * Placement search: several starts (all GPUs; the fastest hosts only; each
 * host alone), partitions cut by bytes and placed largest first on the host
 * that costs least, then local search over moving one cut by one layer,
 * moving one partition, adding or removing one worker, and splitting or
 * merging partitions, until no move improves. O(starts * rounds * (P * H +
 * L)) cost evaluations.
 */
int dike_search(const struct dike_model *m, const struct dike_host *h,
		unsigned int nhosts, unsigned int max_parts,
		struct dike_place *best, struct dike_cost *c);

/*
 * Exhaustive optimum over every worker vector, every P <= @max_parts, every
 * set of contiguous cuts and every partition-to-host map. For the oracle:
 * refuses (-E2BIG) more than 4 hosts, 4 partitions or 4 GPUs per host.
 */
int dike_exhaustive(const struct dike_model *m, const struct dike_host *h,
		    unsigned int nhosts, unsigned int max_parts,
		    struct dike_place *best, struct dike_cost *c);

#endif /* SPARE_SCHED_DIKE_H */
