/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writer for the Prometheus text exposition format (version 0.0.4):
 *
 *   # HELP spare_donor_maps_total Slabs mapped to clients since start.
 *   # TYPE spare_donor_maps_total counter
 *   spare_donor_maps_total 12
 *   spare_device_donor_state{device="swap0",disk="spare0",donor="10.0.0.2:18515"} 3
 *
 * Every sample belongs to the family opened last; HELP text and label
 * values are escaped (\\, \n, and \" in labels). Names are checked: a bad
 * name, a counter whose name does not end in _total or another family's
 * that does, a label Prometheus sets itself (job, instance), a sample
 * outside its family or a write error makes spare_metrics_end() fail, so
 * a broken page is never served silently. No comment other than HELP and
 * TYPE is ever written (the names are documented in the admin guide).
 * With meta = false the HELP/TYPE lines are left out ("name value" lines,
 * the format of spared's control socket).
 */
#ifndef SPARE_METRICS_H
#define SPARE_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct spare_metrics {
	FILE		*f;
	bool		meta;
	const char	*family;
	int		err;		/* first error: an errno value */
};

enum spare_metric_type {
	SPARE_COUNTER,
	SPARE_GAUGE,
};

void spare_metrics_begin(struct spare_metrics *m, FILE *f, bool meta);

/* Open a family: its HELP and TYPE lines. @name must outlive its samples. */
void spare_metrics_family(struct spare_metrics *m, const char *name,
			  enum spare_metric_type type, const char *help);

/*
 * One sample of the open family. @labels is NULL or a NULL-terminated
 * list of name, value pairs.
 */
void spare_metrics_u64(struct spare_metrics *m, const char *const *labels,
		       uint64_t value);
/* A double with three decimals (seconds to the millisecond). */
void spare_metrics_f3(struct spare_metrics *m, const char *const *labels,
		      double value);
/* A double to full precision; NaN and the infinities as Prometheus spells them. */
void spare_metrics_double(struct spare_metrics *m, const char *const *labels,
			  double value);

/* A family of one sample without labels: spare_metrics_family(), then the value. */
void spare_metrics_one_u64(struct spare_metrics *m, const char *name,
			   enum spare_metric_type type, const char *help, uint64_t value);
void spare_metrics_one_f3(struct spare_metrics *m, const char *name,
			  enum spare_metric_type type, const char *help, double value);
void spare_metrics_one_double(struct spare_metrics *m, const char *name,
			      enum spare_metric_type type, const char *help, double value);

/*
 * The families every daemon's page carries (meta pages only):
 *   spare_build_info{program="@program",version="<VERSION>"} 1
 *   process_start_time_seconds <Unix time the process started>
 */
void spare_metrics_process(struct spare_metrics *m, const char *program);


/* 0, or -1 with errno set if anything above went wrong. */
int spare_metrics_end(struct spare_metrics *m);

/* Name checks of the format: [a-zA-Z_:][a-zA-Z0-9_:]* and the same
 * without ':' for labels. */
bool spare_metrics_valid_name(const char *name);
bool spare_metrics_valid_label(const char *name);

/* Write @s escaped as a label value (\\, \", \n) or HELP text (\\, \n). */
void spare_metrics_escape(FILE *f, const char *s, bool label);

#define SPARE_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif /* SPARE_METRICS_H */
