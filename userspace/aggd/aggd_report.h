/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd's progress reports (REPORT, agg_proto.h) and FlowCon: every
 * job may report its iteration, loss and CPU-seconds; with --flowcon the
 * daemon keeps libspare-sched's FlowCon state over its jobs and makes the
 * resulting shares the jobs' weights in the pool's WFS order
 * (Documentation/aggd.md, "Progress reports and FlowCon").
 */
#ifndef SPARE_AGGD_REPORT_H
#define SPARE_AGGD_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "flowcon.h"

struct conn;

/* A job's reports (in struct job_entry). */
struct job_report {
	unsigned int n;			/* reports accepted */
	uint64_t iter, iter_total;
	double loss, prev_loss;		/* prev_loss valid when n >= 2 */
	double cpu, prev_cpu;
	uint64_t t_ns, prev_t_ns;	/* daemon clock at the last two */
	struct flowcon_job fc;		/* FlowCon's view of the job */
	bool fresh;			/* reported since the last decision */
	bool decided;			/* a FlowCon decision gave it a share */
	uint32_t weight;		/* pool weight FlowCon set; 0: none */
};

/* Weight of an equal share under FlowCon (weights stay 1..AGG_MAX_WEIGHT). */
#define AGGD_FLOWCON_UNIT_WEIGHT	100

/* --flowcon: turn FlowCon on over @total_cores with decisions at least
 * every @interval_ns (sooner once every reporting job has reported). */
void report_flowcon_enable(double total_cores, uint64_t interval_ns);
bool report_flowcon_on(void);
/* A job arrived or went: the next decision resets the shares. */
void report_jobs_changed(void);
/* Set up a new job's report state. */
void report_job_init(struct job_report *r);
/* A REPORT whose payload is in c->body (freed here); always answers. */
void handle_report(struct conn *c);
/* Exiting: free FlowCon's scratch space. */
void report_free(void);

#endif /* SPARE_AGGD_REPORT_H */
