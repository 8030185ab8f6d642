// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim dike: Dike's placement (userspace/sched/dike.c) of a model on
 * hosts, written out; with --exhaustive also the exact optimum for the
 * same inputs. The model of spare-sched-bench dike driven by files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "sim.h"

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
