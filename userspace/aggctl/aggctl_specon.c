// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl specon: SpeCon over two or more spare-aggd instances. The
 * jobs' REPORT-derived progress is read from each daemon's metrics,
 * libspare-sched's specon_decide() picks a move, and the move is the
 * existing MIGRATE.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggctl.h"
#include "spare_agg.h"
#include "specon.h"

int cmd_specon(const struct host *self, const char *token, int argc,
		      char **argv)
{
	static const struct option lopts[] = {
		{ "peer", required_argument, NULL, 'P' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "move-cost", required_argument, NULL, 'C' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct specon_params sp = specon_defaults;
	struct host hosts[AGGCTL_MAX_HOSTS];
	struct specon_host sh[AGGCTL_MAX_HOSTS];
	struct specon_job *sj;
	struct daemon_metrics d = { 0 };
	const char **names;
	unsigned int nh = 1, n = 0;
	struct specon_move mv;
	bool dry = false;
	int opt, ret = 0;

	hosts[0] = *self;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (opt) {
		case 'P':
			if (nh == AGGCTL_MAX_HOSTS || parse_host(optarg, &hosts[nh])) {
				fprintf(stderr, "spare-aggctl: bad --peer '%s' (HOST:PORT[:STATS_PORT], at most %d)\n",
					optarg, AGGCTL_MAX_HOSTS - 1);
				return 2;
			}
			nh++;
			break;
		case 'A':
			if (parse_nonneg(optarg, &sp.alpha) || sp.alpha > 1)
				usage();
			break;
		case 'C':
			if (parse_nonneg(optarg, &sp.move_cost))
				usage();
			break;
		case 'n': dry = true; break;
		default: usage();
		}
	}
	if (optind != argc || nh < 2)
		usage();
	if (!dry && !token) {
		fprintf(stderr, "spare-aggctl: specon moves a job: give its token (-t or $SPARE_AGG_TOKEN), or --dry-run\n");
		return 2;
	}
	d.jobs = calloc(AGGCTL_MAX_JOBS, sizeof(*d.jobs));
	sj = calloc(AGGCTL_MAX_JOBS, sizeof(*sj));
	names = calloc(AGGCTL_MAX_JOBS, sizeof(*names));
	if (!d.jobs || !sj || !names) {
		fprintf(stderr, "spare-aggctl: out of memory\n");
		ret = 1;
		goto out;
	}
	/* every host's jobs; names point into per-host copies kept below */
	for (unsigned int h = 0; h < nh; h++) {
		if (fetch_metrics(hosts[h].addr, hosts[h].stats_port, &d)) {
			ret = 1;
			goto out;
		}
		sh[h].cores = d.cores_max;
		if (!(d.cores_max > 0)) {
			fprintf(stderr, "spare-aggctl: %s:%u reports no cores\n",
				hosts[h].addr, hosts[h].stats_port);
			ret = 1;
			goto out;
		}
		for (unsigned int i = 0; i < d.n_jobs; i++) {
			const struct job_metrics *j = &d.jobs[i];
			const unsigned int need = 1U << M_LOSS | 1U << M_CPU_RATE |
						  1U << M_REMAINING;

			if ((j->have & need) != need || !(j->v[M_CPU_RATE] > 0)) {
				if (j->have & (1U << M_LOSS))
					printf("%s on %s:%u: not counted (needs two REPORTs with CPU used and an iter_total)\n",
					       j->name, hosts[h].addr, hosts[h].port);
				continue;
			}
			if (n == AGGCTL_MAX_JOBS)
				break;
			names[n] = strdup(j->name);
			if (!names[n]) {
				ret = 1;
				goto out;
			}
			sj[n] = (struct specon_job){
				.active = true, .host = h,
				.demand = j->v[M_CPU_RATE],
				.remaining = j->v[M_REMAINING],
				.loss = j->v[M_LOSS],
				.prev_loss = (j->have & (1U << M_PREV_LOSS)) ?
					     j->v[M_PREV_LOSS] : 0,
			};
			printf("%s on %s:%u: loss %.6g -> %.6g, %.3f cores, %.1f CPU-s left%s\n",
			       names[n], hosts[h].addr, hosts[h].port,
			       sj[n].prev_loss, sj[n].loss, sj[n].demand,
			       sj[n].remaining,
			       specon_slow(&sp, &sj[n]) ? ", slow-growing" : "");
			n++;
		}
	}
	if (specon_decide(&sp, sh, nh, sj, n, &mv)) {
		fprintf(stderr, "spare-aggctl: SpeCon refused the inputs (a bad demand or remaining work)\n");
		ret = 1;
		goto out;
	}
	if (mv.job < 0) {
		printf("decision: no move\n");
		goto out;
	}
	printf("decision: move %s from %s:%u to %s:%u (modelled gain %.1f s)\n",
	       names[mv.job], hosts[mv.from].addr, hosts[mv.from].port,
	       hosts[mv.to].addr, hosts[mv.to].port, mv.gain);
	if (!dry) {
		char err[256], msg[300];
		struct spare_agg *a = spare_agg_connect(hosts[mv.from].addr,
							hosts[mv.from].port,
							err, sizeof(err));
		uint32_t iter;

		if (!a) {
			fprintf(stderr, "spare-aggctl: %s\n", err);
			ret = 1;
			goto out;
		}
		if (aggctl_prove(a)) {
			ret = 1;
		} else if (spare_agg_migrate(a, names[mv.job], token, hosts[mv.to].addr,
				      hosts[mv.to].port, &iter, msg, sizeof(msg))) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			printf("%s\n", msg);
		}
		spare_agg_close(a);
	}
out:
	for (unsigned int i = 0; names && i < n; i++)
		free((void *)names[i]);
	free(names);
	free(sj);
	free(d.jobs);
	return ret;
}
