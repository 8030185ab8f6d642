// SPDX-License-Identifier: GPL-2.0
/*
 * spare-lendsim: run the lending simulation (lendsim.h) and print a summary,
 * optionally an hourly CSV. Documentation/perf-lending.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lendsim.h"
#include "spare_util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: spare-lendsim [options]\n"
		"  --seed N           random seed (default 1)\n"
		"  --hours H          simulated hours (default 24)\n"
		"  --mode M           idle (spared max-lend) or fixed (a fixed budget)\n"
		"  --donors N         donors (default 64)\n"
		"  --trainers N       trainers (default 16)\n"
		"  --headroom GIB     spared headroom (default 16)\n"
		"  --max-lend GIB     spared max-lend (default 192)\n"
		"  --grow-margin GIB  spared lend-grow-margin (default 0)\n"
		"  --fixed GIB        budget in --mode fixed (default 96)\n"
		"  --burst-per-h X    burst jobs per donor per hour (default 0.5)\n"
		"  --burst-ramp-s S   time a burst job takes to allocate (default 120)\n"
		"  --move-s S         time a client takes to move an evicted slab (default 2)\n"
		"  --csv FILE         hourly figures as CSV\n"
		"  --check            verify invariants every step (exit 1 if any fails)\n"
		"  --params           print the parameters first\n"
		"  -h, --help\n");
}

static void hour_csv(void *ctx, unsigned int hour, const struct lsim_totals *t)
{
	FILE *f = ctx;

	fprintf(f, "%u,%.4f,%.4f,%.4f,%.4f,%.1f,%.1f,%.1f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.0f,%.0f,%llu\n",
		hour, t->util_none, t->util_lend, t->cluster_none, t->cluster_lend,
		t->lent_slabs, t->demand_slabs, t->unmet_slabs,
		(unsigned long long)t->placed, (unsigned long long)t->moved,
		(unsigned long long)t->unplaced, (unsigned long long)t->evicted,
		(unsigned long long)t->grown, (unsigned long long)t->released,
		(unsigned long long)t->psi_events, t->stall_donor_s,
		t->short_donor_s, (unsigned long long)t->short_episodes);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "hours", required_argument, NULL, 'H' },
		{ "mode", required_argument, NULL, 'm' },
		{ "donors", required_argument, NULL, 'd' },
		{ "trainers", required_argument, NULL, 't' },
		{ "headroom", required_argument, NULL, 'r' },
		{ "max-lend", required_argument, NULL, 'x' },
		{ "grow-margin", required_argument, NULL, 'g' },
		{ "fixed", required_argument, NULL, 'f' },
		{ "burst-per-h", required_argument, NULL, 'b' },
		{ "burst-ramp-s", required_argument, NULL, 'R' },
		{ "move-s", required_argument, NULL, 'M' },
		{ "csv", required_argument, NULL, 'c' },
		{ "check", no_argument, NULL, 'k' },
		{ "params", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct lsim_params p;
	struct lsim_totals t;
	const char *csv = NULL;
	bool params = false;
	FILE *cf = NULL;
	char err[128], *end;
	uint64_t v;
	double hours = 0;
	int c;

	lsim_defaults(&p);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'R': case 'M': case 'g':
			if (spare_parse_u64(optarg, 0, 86400, &v)) {
				fprintf(stderr, "spare-lendsim: bad time '%s'\n", optarg);
				return 2;
			}
			if (c == 'g')
				p.grow_margin_gib = (unsigned int)v;
			else if (c == 'R')
				p.burst_ramp_s = (unsigned int)v;
			else
				p.move_s = (unsigned int)v;
			break;
		case 's': case 'd': case 't': case 'r': case 'x': case 'f':
			if (spare_parse_u64(optarg, c == 's' ? 0 : 1,
					    c == 's' ? UINT64_MAX : 1000000, &v)) {
				fprintf(stderr, "spare-lendsim: bad number '%s'\n", optarg);
				return 2;
			}
			if (c == 's')
				p.seed = v;
			else if (c == 'd')
				p.donors = (unsigned int)v;
			else if (c == 't')
				p.trainers = (unsigned int)v;
			else if (c == 'r')
				p.headroom_gib = (unsigned int)v;
			else if (c == 'x')
				p.max_lend_gib = (unsigned int)v;
			else
				p.fixed_gib = (unsigned int)v;
			break;
		case 'H':
		case 'b':
			hours = strtod(optarg, &end);
			if (*end || end == optarg || !(hours > 0 && hours <= 24 * 365)) {
				fprintf(stderr, "spare-lendsim: bad value '%s'\n", optarg);
				return 2;
			}
			if (c == 'H')
				p.hours = hours;
			else
				p.burst_per_h = hours;
			break;
		case 'm':
			if (!strcmp(optarg, "idle")) {
				p.mode = LSIM_IDLE;
			} else if (!strcmp(optarg, "fixed")) {
				p.mode = LSIM_FIXED;
			} else {
				fprintf(stderr, "spare-lendsim: --mode is idle or fixed\n");
				return 2;
			}
			break;
		case 'c':
			csv = optarg;
			break;
		case 'k':
			p.check = true;
			break;
		case 'p':
			params = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (csv) {
		cf = fopen(csv, "w");
		if (!cf) {
			perror(csv);
			return 1;
		}
		fprintf(cf, "hour,util_none,util_lend,cluster_none,cluster_lend,lent_slabs,demand_slabs,unmet_slabs,placed,moved,unplaced,evicted,grown,released,psi_events,stall_donor_s,short_donor_s,short_episodes\n");
	}
	if (params)
		lsim_print_params(&p, stdout);
	if (lsim_run(&p, &t, cf ? hour_csv : NULL, cf, err, sizeof(err))) {
		fprintf(stderr, "spare-lendsim: %s\n", err);
		return 2;
	}
	if (cf && fclose(cf)) {
		perror(csv);
		return 1;
	}
	printf("donor_util_without_lending %.4f\n", t.util_none);
	printf("donor_util_with_lending %.4f\n", t.util_lend);
	printf("cluster_util_without_lending %.4f\n", t.cluster_none);
	printf("cluster_util_with_lending %.4f\n", t.cluster_lend);
	printf("cluster_util_gain_pct %.1f\n",
	       t.cluster_none > 0 ? 100.0 * (t.cluster_lend / t.cluster_none - 1) : 0);
	printf("donor_util_gain_pct %.1f\n",
	       t.util_none > 0 ? 100.0 * (t.util_lend / t.util_none - 1) : 0);
	printf("lent_slabs_mean %.1f\ndemand_slabs_mean %.1f\nunmet_slabs_mean %.1f\n",
	       t.lent_slabs, t.demand_slabs, t.unmet_slabs);
	printf("slabs_placed %llu\nslabs_moved %llu\nslabs_moved_per_hour %.1f\n",
	       (unsigned long long)t.placed, (unsigned long long)t.moved,
	       p.hours > 0 ? t.moved / p.hours : 0);
	printf("moves_unplaced %llu\nslabs_unmapped %llu\nevictions %llu\neviction_batches %llu\n"
	       "activity_no_reply %llu\nslabs_grown %llu\nslabs_released %llu\n",
	       (unsigned long long)t.unplaced, (unsigned long long)t.unmapped,
	       (unsigned long long)t.evicted, (unsigned long long)t.batches,
	       (unsigned long long)t.no_reply, (unsigned long long)t.grown,
	       (unsigned long long)t.released);
	printf("psi_trigger_events %llu\n", (unsigned long long)t.psi_events);
	printf("donor_stall_fraction %.5f\n", t.steps ?
	       t.stall_donor_s / (p.hours * 3600.0 * p.donors) : 0);
	printf("donor_shortfall_fraction %.5f\nshortfall_episodes %llu\n"
	       "shortfall_episodes_per_donor_day %.3f\nshortfall_mean_s %.1f\nshortfall_longest_s %.0f\n",
	       t.short_donor_s / (p.hours * 3600.0 * p.donors),
	       (unsigned long long)t.short_episodes,
	       t.short_episodes / (double)p.donors * 24.0 / p.hours,
	       t.short_episodes ? t.short_donor_s / t.short_episodes : 0,
	       t.short_longest_s);
	printf("own_overcommit_fraction %.5f\n",
	       t.overcommit_donor_s / (p.hours * 3600.0 * p.donors));
	printf("invariant_violations %llu\n", (unsigned long long)t.violations);
	return p.check && t.violations ? 1 : 0;
}
