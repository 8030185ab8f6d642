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

#include "aggd_report_state.h"
#include "flowcon.h"

struct conn;

/* Weight of an equal share under FlowCon (weights stay 1..AGG_MAX_WEIGHT). */
#define AGGD_FLOWCON_UNIT_WEIGHT	100

/* --flowcon: turn FlowCon on over @total_cores with decisions at least
 * every @interval_ns (sooner once every reporting job has reported); from
 * then on every new job starts at an equal share (jobs_set_report_ops()). */
void report_flowcon_enable(double total_cores, uint64_t interval_ns);
bool report_flowcon_on(void);
/* A job arrived or went: the next decision resets the shares. */
void report_jobs_changed(void);
/* A REPORT whose payload is in c->body (freed here); always answers. */
void handle_report(struct conn *c);
/* Exiting: free FlowCon's scratch space. */
void report_free(void);

#endif /* SPARE_AGGD_REPORT_H */
