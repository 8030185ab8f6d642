// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim dike: Dike's placement (userspace/sched/dike.c) of a model on
 * hosts, written out; with --exhaustive also the exact optimum for the
 * same inputs. The model of spare-sched-bench dike driven by files. With
 * --random N, the search against the optimum on N random instances.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "sim.h"
#include "b/dike_random.h"

static void add_cost(struct json_object *j, const char *prefix, const struct dike_cost *c)
{
	char k[64];

	snprintf(k, sizeof(k), "%sthroughput", prefix);
	json_object_object_add(j, k, json_object_new_double(c->throughput));
	snprintf(k, sizeof(k), "%scompute_s", prefix);
	json_object_object_add(j, k, json_object_new_double(c->compute));
	snprintf(k, sizeof(k), "%snic_s", prefix);
	json_object_object_add(j, k, json_object_new_double(c->nic));
	snprintf(k, sizeof(k), "%ssum_s", prefix);
	json_object_object_add(j, k, json_object_new_double(c->sum));
}

int sim_dike_write(const struct dike_model *m, const struct dike_host *h,
		   unsigned int nhosts, unsigned int max_parts,
		   const struct dike_place *p, const struct dike_cost *c,
		   const struct dike_cost *opt, FILE *placement, FILE *parts,
		   char **json)
{
	double hosted[DIKE_MAX_HOSTS] = { 0 }, total = 0;
	unsigned int nparts_on[DIKE_MAX_HOSTS] = { 0 }, workers = 0, first = 0;
	struct json_object *j;

	for (unsigned int i = 0; i < m->nlayers; i++)
		total += m->layers[i].params;
	fputs("partition,first_layer,last_layer,params,host\n", parts);
	for (unsigned int q = 0; q < p->nparts; q++) {
		double s = 0;

		for (unsigned int i = first; i < p->end[q]; i++)
			s += m->layers[i].params;
		fprintf(parts, "%u,%u,%u,%.0f,%u\n", q, first, p->end[q] - 1, s, p->host[q]);
		hosted[p->host[q]] += s;
		nparts_on[p->host[q]]++;
		first = p->end[q];
	}
	fputs("host,workers,partitions,params\n", placement);
	for (unsigned int k = 0; k < nhosts; k++) {
		fprintf(placement, "%u,%u,%u,%.0f\n", k, p->workers[k], nparts_on[k], hosted[k]);
		workers += p->workers[k];
	}
	j = json_object_new_object();
	if (!j)
		return -ENOMEM;
	json_object_object_add(j, "layers", json_object_new_int64(m->nlayers));
	json_object_object_add(j, "params", json_object_new_double(total));
	json_object_object_add(j, "flops_per_sample",
			       json_object_new_double(m->flops_per_sample));
	json_object_object_add(j, "batch", json_object_new_double(m->batch));
	json_object_object_add(j, "bytes_per_param", json_object_new_double(m->bytes_per_param));
	json_object_object_add(j, "hosts", json_object_new_int64(nhosts));
	json_object_object_add(j, "max_parts", json_object_new_int64(max_parts));
	json_object_object_add(j, "workers", json_object_new_int64(workers));
	json_object_object_add(j, "partitions", json_object_new_int64(p->nparts));
	add_cost(j, "", c);
	if (opt) {
		add_cost(j, "optimum_", opt);
		json_object_object_add(j, "ratio",
				       json_object_new_double(c->throughput / opt->throughput));
	}
	*json = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return *json ? 0 : -ENOMEM;
}

int sim_dike_random(unsigned int n, uint64_t seed, FILE *csv,
		    struct sim_dike_random_summary *sum)
{
	double total = 0;

	memset(sum, 0, sizeof(*sum));
	sum->min_ratio = 1;
	if (!n)
		return -EINVAL;
	fputs("instance,seed,hosts,gpus,layers,params,max_parts,search_tput,"
	      "optimum_tput,ratio,search_workers,search_partitions,"
	      "optimum_workers,optimum_partitions\n", csv);
	for (unsigned int i = 0; i < n; i++) {
		struct dike_layer layers[DIKE_RANDOM_LAYERS];
		struct dike_host h[DIKE_RANDOM_HOSTS];
		unsigned int nh, mp, gpus = 0, ws = 0, wo = 0;
		struct dike_place ps, po;
		struct dike_cost cs, co;
		struct dike_model m;
		double params = 0, ratio;

		dike_random(seed + i, &m, layers, h, &nh, &mp);
		if (dike_search(&m, h, nh, mp, &ps, &cs) ||
		    dike_exhaustive(&m, h, nh, mp, &po, &co) ||
		    !(co.throughput > 0))
			return -EINVAL;
		for (unsigned int k = 0; k < nh; k++) {
			gpus += h[k].gpus;
			ws += ps.workers[k];
			wo += po.workers[k];
		}
		for (unsigned int l = 0; l < m.nlayers; l++)
			params += layers[l].params;
		ratio = cs.throughput / co.throughput;
		total += ratio;
		if (ratio < sum->min_ratio || i == 0) {
			sum->min_ratio = ratio;
			sum->worst_seed = seed + i;
		}
		sum->below += ratio < 0.95;
		fprintf(csv, "%u,%llu,%u,%u,%u,%.0f,%u,%.6g,%.6g,%.6f,%u,%u,%u,%u\n",
			i, (unsigned long long)(seed + i), nh, gpus, m.nlayers,
			params, mp, cs.throughput, co.throughput, ratio, ws,
			ps.nparts, wo, po.nparts);
	}
	sum->instances = n;
	sum->mean_ratio = total / n;
	return 0;
}

char *sim_dike_random_json(uint64_t seed, const struct sim_dike_random_summary *sum)
{
	struct json_object *j = json_object_new_object();
	char *out;

	if (!j)
		return NULL;
	json_object_object_add(j, "instances", json_object_new_int64(sum->instances));
	json_object_object_add(j, "seed", json_object_new_int64((int64_t)seed));
	json_object_object_add(j, "mean_ratio", json_object_new_double(sum->mean_ratio));
	json_object_object_add(j, "min_ratio", json_object_new_double(sum->min_ratio));
	json_object_object_add(j, "worst_seed",
			       json_object_new_int64((int64_t)sum->worst_seed));
	json_object_object_add(j, "below_0.95", json_object_new_int64(sum->below));
	out = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return out;
}
