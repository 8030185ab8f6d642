/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggctl's pieces (aggctl.c: main, stats, migrate; aggctl_cmd.c:
 * what the commands share, the usage text and fetching a daemon's
 * metrics; aggctl_util.c: reading a daemon's metrics and checking cgroup
 * paths, pure and unit-tested; aggctl_flowcon.c; aggctl_specon.c).
 */
#ifndef SPARE_AGGCTL_H
#define SPARE_AGGCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "agg_proto.h"

#define AGGCTL_MAX_HOSTS	8
#define AGGCTL_MAX_JOBS		1024

/* The per-job metrics spare-aggctl reads (spare-aggd's names). */
enum {
	M_SHARE, M_LOSS, M_PREV_LOSS, M_CPU_RATE, M_REMAINING, M_WATCHED,
	M_N,
};

struct job_metrics {
	char name[AGG_NAME_LEN + 1];
	double v[M_N];
	unsigned int have;	/* bit per M_* */
};

struct daemon_metrics {
	double cores_max;	/* spare_aggd_cores_max */
	bool flowcon;		/* spare_aggd_flowcon 1 */
	struct job_metrics *jobs;	/* AGGCTL_MAX_JOBS entries, caller's */
	unsigned int n_jobs;
};

/* A daemon: where its workers reach it, and where its metrics are read. */
struct host {
	char addr[AGG_HOST_LEN + 1];
	unsigned int port, stats_port;
};

/* aggctl_cmd.c */
void usage(void) __attribute__((noreturn));	/* on stderr, exit 2 */
void usage_print(FILE *f);

/* -j stats: the metrics text as a JSON array of samples; 0 or -1 (said). */
int stats_print_json(const char *text, FILE *f);
/* STATS from host:port, parsed; -1 with the reason on stderr. */
int fetch_metrics(const char *host, unsigned int port, struct daemon_metrics *d);

/* aggctl_util.c */
/* Prometheus text from spare-aggd; 0, or -1 (reason on stderr). */
int parse_metrics(const char *text, struct daemon_metrics *d);
/* PATTERN with %j = job, %% = %: 0, or -1 (no %j, bad %, too long). */
int cgroup_expand(const char *pattern, const char *job, char *out, size_t len);
/* A job name usable as one path component: no '/', no leading '.'. */
bool cgroup_name_ok(const char *job);
/* @path relative to @root (a pointer into @path), or NULL if it is not
 * strictly beneath @root or has a "." or ".." component. */
const char *cgroup_under_root(const char *path, const char *root);
/* HOST:PORT[:STATS_PORT]: 0 or -1. */
int parse_host(const char *s, struct host *h);
/* A finite number >= 0: 0 or -1. */
int parse_nonneg(const char *s, double *v);

/* aggctl_flowcon.c, aggctl_specon.c: argv[0] is the command's name */
int cmd_flowcon(const char *host, unsigned int port, int argc, char **argv);
int cmd_specon(const struct host *self, const char *token, int argc, char **argv);

/*
 * The tenant a job belongs to, for a daemon with a tenants file (-T, -K;
 * $SPARE_AGG_TENANT, $SPARE_AGG_TENANT_KEY_FILE): NULL without one.
 */
struct spare_agg;
extern const char *aggctl_tenant, *aggctl_tenant_key;
/* Prove the tenant on @a if one is set: 0, or -1 with the reason printed. */
int aggctl_prove(struct spare_agg *a);

#endif /* SPARE_AGGCTL_H */
