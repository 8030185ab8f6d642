/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job's progress reports, as struct job_entry (aggd_jobs.h) holds them
 * and aggd_report.c keeps them: apart from both, so that the table of
 * jobs need not include the reports' code.
 */
#ifndef SPARE_AGGD_REPORT_STATE_H
#define SPARE_AGGD_REPORT_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "flowcon.h"

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

/* A new job's report state: no reports yet, active for FlowCon. */
static inline void job_report_init(struct job_report *r)
{
	memset(r, 0, sizeof(*r));
	flowcon_job_init(&r->fc);
}

#endif /* SPARE_AGGD_REPORT_STATE_H */
