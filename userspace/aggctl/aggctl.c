// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl: admin client of spare-aggd (Documentation/aggd.md).
 *
 *   spare-aggctl [-a HOST] [-p PORT] stats
 *   spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] migrate JOB TO_HOST:TO_PORT
 *
 * stats prints the daemon's metrics. migrate asks the daemon at HOST:PORT
 * to move job JOB to the spare-aggd at TO_HOST:TO_PORT (numeric IPv4, as
 * the job's workers reach it) and waits until it has moved; the job's
 * token comes from -t or $SPARE_AGG_TOKEN. Exit status 0 on success, 1 if
 * the daemon refused or failed (its reason on stderr), 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg_proto.h"
#include "spare_agg.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: spare-aggctl [-a HOST] [-p PORT] stats\n"
		"       spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] migrate JOB TO_HOST:TO_PORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1", *token = getenv("SPARE_AGG_TOKEN");
	unsigned long port = AGG_DEFAULT_PORT;
	struct spare_agg *a;
	char err[256];
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "a:p:t:")) != -1) {
		switch (opt) {
		case 'a': host = optarg; break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 't': token = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc || !port || port > 65535)
		usage();
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
		if (spare_agg_migrate(a, argv[optind + 1], token, to,
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
