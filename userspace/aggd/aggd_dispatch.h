/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd message dispatch: what each message of agg_proto.h does
 * (REGISTER, PUSH, PULL, SET_WEIGHTS, LEAVE, STATS, and handing MIGRATE and
 * IMPORT to aggd_migrate.c). It registers itself as the connections'
 * conn_ops.
 */
#ifndef SPARE_AGGD_DISPATCH_H
#define SPARE_AGGD_DISPATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "aggd_conn.h"

void dispatch_init(void);

/*
 * Prometheus text exposition format, through spare_metrics.h: the pool's
 * families, and with @with_jobs (STATS on the admin address: the
 * operator's view) the per-job ones labelled job_name, then "# hist"
 * lines of cores over time. Without it (/metrics): spare_build_info and
 * process_start_time_seconds first, and neither job names nor comments.
 * 0, or -1 with errno set.
 */
int stats_write(FILE *f, bool with_jobs);

#endif /* SPARE_AGGD_DISPATCH_H */
