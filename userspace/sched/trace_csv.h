/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The strict CSV readers of the scheduling inputs (trace_csv.c): the
 * Tiresias trace, the cluster spec and a job-size sample, loss curves,
 * elastic traces and Dike's model and hosts. Shared by spare-sim (tools/sim)
 * and the live spare-tiresias (its Gittins sample), so a daemon never
 * reaches into tools/ for them (scripts/layers-check).
 */
#ifndef SPARE_TRACE_CSV_H
#define SPARE_TRACE_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dike.h"
#include "mip.h"
#include "tiresias.h"

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


/* One job's loss curve: loss(t) = final + (loss0 - final) exp(-t / tau). */
struct sim_loss {
	double loss0, final, tau;
};

/*
 * Parse a loss file (job_id,loss0,loss_final,tau_s, as spare-sim gen --loss
 * writes it) for trace t: loss[i] is for t->jobs[i]. Every job needs exactly
 * one row; loss0 > 0, 0 <= loss_final <= loss0, tau_s > 0. 0, -EINVAL with
 * the errors reported, or -ENOMEM.
 */
int sim_parse_loss(const char *buf, size_t len, const struct sim_trace *t,
		   struct sim_loss *loss, struct sim_errs *e);

/*
 * An elastic job (spare-sim mip): it may run on any of its options' GPU
 * counts; m.tput[o] is its progress (work units per second) on m.gpus[o].
 */
struct sim_mip_job {
	int64_t id;
	double submit;		/* seconds, >= 0 */
	double work;		/* work units, > 0 */
	struct mip_job m;	/* options; m.remaining = work, not running */
	size_t seq;		/* trace row, for a stable sort */
};

struct sim_mip_trace {
	struct sim_mip_job *jobs;	/* sorted by submit time, ties in trace order */
	size_t n;
};

/*
 * Parse an elastic trace (job_id,submit_time,work,gpus,tput; gpus and tput
 * are ';'-separated lists of equal length, 1..MIP_MAX_OPT options, GPU
 * counts strictly increasing and at most @gpus; submit_time in [0, 1e15],
 * work in [1e-6, 1e15], rates in [1e-6, 1e12], so that no event time
 * overflows) for
 * a cluster of @gpus GPUs. 0, -EINVAL with the errors reported, or
 * -ENOMEM. Free with sim_mip_trace_free().
 */
int sim_parse_mip_trace(const char *buf, size_t len, int64_t gpus,
			struct sim_mip_trace *t, struct sim_errs *e);
void sim_mip_trace_free(struct sim_mip_trace *t);

/*
 * The one entry point for a job trace: the reader is picked by the CSV
 * header. A num_gpu column: Tiresias's trace, read by sim_parse_trace()
 * into @t->rigid; a work column: an elastic trace, read by
 * sim_parse_mip_trace() into @t->elastic (each reader then checks all its
 * columns). A header with both or neither is refused ("FILE:1:1: header:
 * ...", naming the two formats' columns). 0, -EINVAL with the errors reported, or -ENOMEM; free
 * with sim_any_trace_free() either way.
 */
enum sim_trace_kind {
	SIM_TRACE_UNKNOWN,
	SIM_TRACE_RIGID,	/* Tiresias's columns */
	SIM_TRACE_ELASTIC,	/* spare-sim mip's columns */
};

struct sim_any_trace {
	enum sim_trace_kind kind;
	struct sim_trace rigid;
	struct sim_mip_trace elastic;
};

/* Which trace @buf's header names; SIM_TRACE_UNKNOWN reported on @e. */
enum sim_trace_kind sim_trace_kind_of(const char *buf, size_t len, struct sim_errs *e);
int sim_parse_any_trace(const char *buf, size_t len, int64_t gpus, struct sim_any_trace *t,
			struct sim_errs *e);
void sim_any_trace_free(struct sim_any_trace *t);

/*
 * Dike's inputs. A model file is layer,type,params: one row per layer in
 * model order (layer is a free label), type conv, fc or other, params in
 * [0, 1e13], 1..DIKE_MAX_LAYERS rows, some parameters in all; @layers must
 * hold DIKE_MAX_LAYERS. A hosts file is host,gpus,gpu_flops,cores,sum_rate,
 * nic_bytes_per_s: gpus 0..1024 (some host has one), cores 1..1e6,
 * gpu_flops in (0, 1e18], sum_rate (parameters per second per core) and
 * nic_bytes_per_s in (0, 1e15], 1..DIKE_MAX_HOSTS rows. 0, or -EINVAL with
 * the errors reported.
 */
int sim_parse_dike_model(const char *buf, size_t len, struct dike_layer *layers,
			 unsigned int *n, struct sim_errs *e);
int sim_parse_dike_hosts(const char *buf, size_t len, struct dike_host *h,
			 unsigned int *n, struct sim_errs *e);

#endif /* SPARE_TRACE_CSV_H */
