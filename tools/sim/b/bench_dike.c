// SPDX-License-Identifier: GPL-2.0
/*
 * Dike harness: dike_search() against dike_exhaustive() on the nine CNN
 * profiles (a fixed heterogeneous 4-host cluster) and on random instances.
 * --export DIR writes the profiles and the cluster as spare-sim dike input:
 * model-NAME.csv, hosts.csv, and models.csv (name,flops_per_sample,batch,
 * bytes_per_param), every number exactly (%.17g).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dike.h"
#include "dike_profiles.h"
#include "dike_random.h"

/* The cluster for the CNN profiles (Documentation/sched-policies.md). */
static const struct dike_host dike_bench_hosts[4] = {
	{ .gpus = 4, .gpu_flops = 14e12, .cores = 16, .sum_rate = 1e9, .nic_bps = 12.5e9 },
	{ .gpus = 2, .gpu_flops = 8e12, .cores = 8, .sum_rate = 1e9, .nic_bps = 3.125e9 },
	{ .gpus = 2, .gpu_flops = 12e12, .cores = 8, .sum_rate = 1e9, .nic_bps = 7e9 },
	{ .gpus = 1, .gpu_flops = 4e12, .cores = 32, .sum_rate = 1e9, .nic_bps = 12.5e9 },
};

static int export_profiles(const char *dir)
{
	static const char *const type[] = { "conv", "fc", "other" };
	FILE *f = bench_open(dir, "hosts.csv"), *l;
	char name[96];

	if (!f)
		return -1;
	fprintf(f, "host,gpus,gpu_flops,cores,sum_rate,nic_bytes_per_s\n");
	for (int k = 0; k < 4; k++)
		fprintf(f, "%d,%u,%.17g,%u,%.17g,%.17g\n", k, dike_bench_hosts[k].gpus,
			dike_bench_hosts[k].gpu_flops, dike_bench_hosts[k].cores,
			dike_bench_hosts[k].sum_rate, dike_bench_hosts[k].nic_bps);
	if (fclose(f))
		return -1;
	f = bench_open(dir, "models.csv");
	if (!f)
		return -1;
	fprintf(f, "name,flops_per_sample,batch,bytes_per_param\n");
	for (int i = 0; i < DIKE_NPROFILES; i++) {
		const struct dike_profile *pr = &dike_profiles[i];

		fprintf(f, "%s,%.17g,1024,4\n", pr->name, pr->flops_per_sample);
		snprintf(name, sizeof(name), "model-%s.csv", pr->name);
		l = bench_open(dir, name);
		if (!l)
			return -1;
		fprintf(l, "layer,type,params\n");
		for (unsigned int j = 0; j < pr->nlayers; j++)
			fprintf(l, "%u,%s,%.17g\n", j, type[pr->layers[j].type],
				pr->layers[j].params);
		if (fclose(l))
			return -1;
	}
	return fclose(f) ? -1 : 0;
}

int bench_dike(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "instances", required_argument, NULL, 'i' },
		{ "export", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *exp_dir = NULL;
	int inst = 1000, c, below = 0;
	double sum_ratio = 0, min_ratio = 1, prof_min = 1;
	FILE *csv, *js;

	while ((c = getopt_long(argc - 1, argv + 1, "", lo, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'i')
			inst = atoi(optarg);
		else if (c == 'e')
			exp_dir = optarg;
		else
			return 2;
	}
	if (exp_dir)
		return export_profiles(exp_dir) ? 1 : 0;
	if (!out || inst <= 0) {
		fprintf(stderr, "usage: spare-sched-bench dike --out DIR [--instances N] "
			"[--export DIR]\n");
		return 2;
	}
	csv = bench_open(out, "dike_profiles.csv");
	if (!csv)
		return 1;
	fprintf(csv, "model,layers,params,search_tput,optimum_tput,ratio,search_s,exhaustive_s,workers,partitions,naive_tput\n");
	for (int i = 0; i < DIKE_NPROFILES; i++) {
		const struct dike_profile *pr = &dike_profiles[i];
		struct dike_model m = { .nlayers = pr->nlayers, .layers = pr->layers,
					.flops_per_sample = pr->flops_per_sample,
					.batch = 1024, .bytes_per_param = 4 };
		struct dike_place ps, po;
		struct dike_cost cs, co, cn;
		double t0, ts, te, ratio;
		unsigned int wt = 0;

		t0 = bench_now();
		if (dike_search(&m, dike_bench_hosts, 4, 4, &ps, &cs))
			return 1;
		ts = bench_now() - t0;
		t0 = bench_now();
		if (dike_exhaustive(&m, dike_bench_hosts, 4, 4, &po, &co))
			return 1;
		te = bench_now() - t0;
		ratio = cs.throughput / co.throughput;
		prof_min = fmin(prof_min, ratio);
		for (int k = 0; k < 4; k++)
			wt += ps.workers[k];
		/* Naive: every GPU a worker, one partition on the first host. */
		{
			struct dike_place pn = { .nparts = 1, .end = { pr->nlayers } };

			for (int k = 0; k < 4; k++)
				pn.workers[k] = dike_bench_hosts[k].gpus;
			if (dike_eval(&m, dike_bench_hosts, 4, &pn, &cn))
				return 1;
		}
		fprintf(csv, "%s,%u,%.0f,%.3f,%.3f,%.6f,%.6f,%.3f,%u,%u,%.3f\n", pr->name,
			pr->nlayers, pr->params, cs.throughput, co.throughput,
			ratio, ts, te, wt, ps.nparts, cn.throughput);
		printf("%-13s %3u layers: search %.1f/s, optimum %.1f/s: %.2f%% (naive %.1f/s; %u workers, %u partitions)\n",
		       pr->name, pr->nlayers, cs.throughput, co.throughput,
		       100 * ratio, cn.throughput, wt, ps.nparts);
	}
	fclose(csv);
	csv = bench_open(out, "dike_random.csv");
	if (!csv)
		return 1;
	fprintf(csv, "instance,hosts,layers,max_parts,search_tput,optimum_tput,ratio\n");
	for (int t = 0; t < inst; t++) {
		struct dike_layer layers[DIKE_RANDOM_LAYERS];
		struct dike_host h[DIKE_RANDOM_HOSTS];
		struct dike_model m;
		struct dike_place ps, po;
		struct dike_cost cs, co;
		unsigned int nh, mp;
		double ratio;

		dike_random(DIKE_RANDOM_SEED + (uint64_t)t, &m, layers, h, &nh, &mp);
		if (dike_search(&m, h, nh, mp, &ps, &cs) ||
		    dike_exhaustive(&m, h, nh, mp, &po, &co))
			return 1;
		ratio = cs.throughput / co.throughput;
		sum_ratio += ratio;
		min_ratio = fmin(min_ratio, ratio);
		below += ratio < 0.95;
		fprintf(csv, "%d,%u,%u,%u,%.6g,%.6g,%.6f\n", t, nh, m.nlayers, mp,
			cs.throughput, co.throughput, ratio);
	}
	fclose(csv);
	js = bench_open(out, "dike.json");
	if (!js)
		return 1;
	fprintf(js, "{\"profiles\": %d, \"profile_min_ratio\": %.6f,\n"
		" \"random_instances\": %d, \"random_mean_ratio\": %.6f, \"random_min_ratio\": %.6f,\n"
		" \"random_below_0.95\": %d, \"target\": 0.95, \"met\": %s}\n",
		DIKE_NPROFILES, prof_min, inst, sum_ratio / inst, min_ratio, below,
		prof_min >= 0.95 && sum_ratio / inst >= 0.95 ? "true" : "false");
	fclose(js);
	printf("dike: profiles min %.2f%% of optimum; %d random: mean %.2f%%, min %.2f%%, %d below 95%%\n",
	       100 * prof_min, inst, 100 * sum_ratio / inst, 100 * min_ratio, below);
	return 0;
}
