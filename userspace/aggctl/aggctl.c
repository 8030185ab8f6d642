// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl: admin client of spare-aggd (Documentation/aggd.md).
 *
 *   spare-aggctl [-a HOST] [-p PORT] stats
 *   spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] [-T TENANT -K KEY_FILE]
 *                migrate JOB TO_HOST:TO_PORT
 *   spare-aggctl [-a HOST] [-p PORT] flowcon --cgroup PATTERN [--root DIR]
 *                [--dry-run]
 *   spare-aggctl [-a HOST] [-p PORT] [-s STATS_PORT] [-t TOKEN] specon
 *                --peer HOST:PORT[:STATS_PORT]... [--alpha A]
 *                [--move-cost SEC] [--dry-run]
 *
 * stats prints the daemon's metrics. migrate asks the daemon at HOST:PORT
 * to move job JOB to the spare-aggd at TO_HOST:TO_PORT (numeric IPv4, as
 * the job's workers reach it) and waits until it has moved; the job's
 * token comes from -t or $SPARE_AGG_TOKEN. With a daemon that has a tenants
 * file, -T names the job's tenant and -K the file with its key (or
 * $SPARE_AGG_TENANT and $SPARE_AGG_TENANT_KEY_FILE); the key itself is
 * never an argument.
 *
 * flowcon reads the FlowCon shares of a daemon running --flowcon (its
 * metrics) and writes each job's share to the cpu.max of its trainers'
 * cgroup, PATTERN with %j replaced by the job's name. The cgroup must lie
 * under /sys/fs/cgroup, or under --root DIR; no symlink is followed out of
 * that root (openat2 RESOLVE_BENEATH).
 *
 * specon reads the REPORT-derived progress of the jobs of this daemon and
 * of every --peer, runs libspare-sched's SpeCon decision and, when it says
 * move, performs the migrate (without --dry-run).
 *
 * Exit status 0 on success, 1 if a daemon refused or an action failed
 * (the reason on stderr), 2 on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggctl.h"
#include "spare_agg.h"
#include "spare_version.h"

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1", *token = getenv("SPARE_AGG_TOKEN");
	unsigned long port = AGG_DEFAULT_PORT, stats_port = 0;
	struct spare_agg *a;
	char err[256];
	bool json = false;
	int opt, ret = 0;

	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};

	/* '+': options after the command are the command's */
	aggctl_tenant = getenv("SPARE_AGG_TENANT");
	aggctl_tenant_key = getenv("SPARE_AGG_TENANT_KEY_FILE");
	while ((opt = getopt_long(argc, argv, "+a:p:s:t:T:K:hj", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage_print(stdout);
			return 0;
		case 'V':
			printf("spare-aggctl %s\n", spare_version());
			return 0;
		case 'a': host = optarg; break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 's': stats_port = strtoul(optarg, NULL, 0); break;
		case 't': token = optarg; break;
		case 'T': aggctl_tenant = optarg; break;
		case 'K': aggctl_tenant_key = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc || !port || port > 65535 || stats_port > 65535)
		usage();
	if (!strcmp(argv[optind], "flowcon"))
		return cmd_flowcon(host, (unsigned int)port, argc - optind,
				   argv + optind);
	if (!strcmp(argv[optind], "specon")) {
		struct host self;

		if (strlen(host) > AGG_HOST_LEN)
			usage();
		strcpy(self.addr, host);
		self.port = (unsigned int)port;
		self.stats_port = stats_port ? (unsigned int)stats_port : self.port;
		return cmd_specon(&self, token, argc - optind, argv + optind);
	}
	a = spare_agg_connect(host, (unsigned int)port, err, sizeof(err));
	if (!a) {
		fprintf(stderr, "spare-aggctl: %s\n", err);
		return 1;
	}
	if (!strcmp(argv[optind], "stats") && optind + 1 == argc) {
		char *text = NULL;

		spare_agg_set_timeout(a, 10000);
		if (spare_agg_stats(a, &text)) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			if (json)
				ret = stats_print_json(text, stdout) ? 1 : 0;
			else
				fputs(text, stdout);
			free(text);
		}
	} else if (!strcmp(argv[optind], "migrate") && optind + 3 == argc) {
		char to[AGG_HOST_LEN + 16], msg[300], *colon;
		unsigned long to_port;
		uint32_t iter;

		snprintf(to, sizeof(to), "%s", argv[optind + 2]);
		colon = strrchr(to, ':');
		if (!token || !colon)
			usage();
		*colon = '\0';
		to_port = strtoul(colon + 1, NULL, 0);
		if (!to_port || to_port > 65535)
			usage();
		/* no timeout: the move waits for the job's iteration barrier */
		if (aggctl_prove(a)) {
			ret = 1;
		} else if (spare_agg_migrate(a, argv[optind + 1], token, to,
				      (unsigned int)to_port, &iter, msg, sizeof(msg))) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			printf("%s\n", msg);
		}
	} else {
		spare_agg_close(a);
		usage();
	}
	spare_agg_close(a);
	return ret;
}
