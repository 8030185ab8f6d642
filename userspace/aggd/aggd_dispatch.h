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
 * Prometheus text exposition format: the pool's families, and with
 * @with_jobs the per-job ones (job names: the operator's view, STATS on the
 * admin address; /metrics never has them).
 */
void stats_write(FILE *f, bool with_jobs);

#endif /* SPARE_AGGD_DISPATCH_H */
