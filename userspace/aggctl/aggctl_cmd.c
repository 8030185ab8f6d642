// SPDX-License-Identifier: GPL-2.0
/*
 * What spare-aggctl's commands share (aggctl.h): the usage text, and a
 * daemon's metrics fetched over STATS. aggctl.c (stats, migrate),
 * aggctl_flowcon.c and aggctl_specon.c call it; it calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "aggctl.h"
#include "spare_agg.h"

void usage_print(FILE *f)
{
	fprintf(f,
		"usage: spare-aggctl [-j] [-a HOST] [-p PORT] stats   (-j: one JSON array of samples)\n"
		"       spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] [-T TENANT -K KEY_FILE] migrate JOB TO_HOST:TO_PORT\n"
		"       spare-aggctl [-a HOST] [-p PORT] flowcon --cgroup PATTERN [--root DIR] [--dry-run]\n"
		"       spare-aggctl [-a HOST] [-p PORT] [-s STATS_PORT] [-t TOKEN] [-T TENANT -K KEY_FILE] specon\n"
		"                    --peer HOST:PORT[:STATS_PORT]... [--alpha A] [--move-cost SEC] [--dry-run]\n"
		"       spare-aggctl -h | --help | --version\n");
}

const char *aggctl_tenant, *aggctl_tenant_key;

int aggctl_prove(struct spare_agg *a)
{
	if (!aggctl_tenant && !aggctl_tenant_key)
		return 0;
	if (!aggctl_tenant || !aggctl_tenant_key) {
		fprintf(stderr, "spare-aggctl: a tenant needs its name (-T) and its key file (-K)\n");
		return -1;
	}
	if (spare_agg_tenant(a, aggctl_tenant, aggctl_tenant_key)) {
		fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
		return -1;
	}
	return 0;
}

void usage(void)
{
	usage_print(stderr);
	exit(2);
}

int fetch_metrics(const char *host, unsigned int port, struct daemon_metrics *d)
{
	char err[256], *text = NULL;
	struct spare_agg *a = spare_agg_connect(host, port, err, sizeof(err));
	int ret;

	if (!a) {
		fprintf(stderr, "spare-aggctl: %s:%u: %s\n", host, port, err);
		return -1;
	}
	spare_agg_set_timeout(a, 10000);
	if (spare_agg_stats(a, &text)) {
		fprintf(stderr, "spare-aggctl: %s:%u: %s\n", host, port,
			spare_agg_error(a));
		spare_agg_close(a);
		return -1;
	}
	spare_agg_close(a);
	ret = parse_metrics(text, d);
	free(text);
	return ret;
}
