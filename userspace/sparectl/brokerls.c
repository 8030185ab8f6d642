// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl broker donors: what a broker knows of its donors, asked over
 * the authenticated broker protocol (DONORS_REQ, pages of at most
 * BROKER_DONORS_PAGE) with a role=admin key. A table, or with -j a JSON
 * array (sparectl(8)).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "broker_proto.h"
#include "brokerls.h"
#include "spare_log.h"

#define BROKERLS_MAX_PAGES	4096	/* 1M donors: a broker never has more */

/* The donors, in table order, appended page by page. */
struct dlist {
	struct broker_donor_info *v;
	size_t n, cap;
};

static int dlist_add(struct dlist *l, const struct broker_donor_info *e)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct broker_donor_info *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *e;
	return 0;
}

/* Every page from the broker on @fd into @l; 0, or 1 (said why). */
static int fetch(int fd, const char *broker, struct dlist *l, uint8_t *body)
{
	struct broker_donor_info e;
	struct broker_donors_req r = { 0 };
	struct broker_donors_rep rep;
	struct broker_error err;
	uint8_t req[BROKER_DONORS_REQ_SIZE];
	struct broker_hdr h;
	unsigned int page, i;
	uint32_t seq = 1;

	for (page = 0; page < BROKERLS_MAX_PAGES; page++, seq++) {
		broker_donors_req_encode(&r, req, sizeof(req));
		if (broker_send(fd, BROKER_DONORS_REQ, seq, req, sizeof(req)) ||
		    broker_recv(fd, &h, body, BROKER_MAX_BODY)) {
			log_err("broker %s: connection lost: %s", broker, strerror(errno));
			return 1;
		}
		if (h.type == BROKER_ERROR) {
			if (broker_error_decode(body, h.len, &err))
				log_err("broker %s: malformed ERROR", broker);
			else
				log_err("broker %s: refused: %s: %s", broker, broker_err_name(err.code),
					err.text);
			return 1;
		}
		if (h.type != BROKER_DONORS_REP || h.seq != seq ||
		    broker_donors_rep_decode(body, h.len, &rep)) {
			log_err("broker %s: malformed reply (%s)", broker, broker_type_name(h.type));
			return 1;
		}
		for (i = 0; i < rep.n; i++) {
			broker_donors_rep_entry(&rep, i, &e);
			if (dlist_add(l, &e)) {
				log_err("broker %s: out of memory", broker);
				return 1;
			}
		}
		if (rep.next >= rep.total || !rep.n)
			return 0;
		r.start = rep.next;
	}
	log_err("broker %s: more than %u pages of donors", broker, BROKERLS_MAX_PAGES);
	return 1;
}

static int print_table(const struct dlist *l)
{
	size_t i;

	printf("%-15s %-22s %-16s %8s %6s %-5s %9s\n", "DONOR", "ADDRESS", "DOMAIN", "FREE",
	       "SLAB", "STATE", "HEARTBEAT");
	for (i = 0; i < l->n; i++) {
		const struct broker_donor_info *e = &l->v[i];
		char slab[24];

		if (e->d.slab_shift >= 30)
			snprintf(slab, sizeof(slab), "%" PRIu64 "G",
				 (uint64_t)1 << (e->d.slab_shift - 30));
		else
			snprintf(slab, sizeof(slab), "%" PRIu64 "M",
				 (uint64_t)1 << (e->d.slab_shift - 20));
		printf("%-15s %-22s %-16s %8" PRIu64 " %6s %-5s %7.1fs\n", e->d.donor_id,
		       e->d.addr, e->d.domain, e->d.free_slabs, slab, e->live ? "live" : "lost",
		       (double)e->hb_age_ms / 1000.0);
	}
	return 0;
}

static int print_jsonl(const struct dlist *l)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < l->n; i++) {
		const struct broker_donor_info *e = &l->v[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "donor", json_object_new_string(e->d.donor_id));
		json_object_object_add(o, "addr", json_object_new_string(e->d.addr));
		json_object_object_add(o, "domain", json_object_new_string(e->d.domain));
		json_object_object_add(o, "free_slabs", json_object_new_uint64(e->d.free_slabs));
		json_object_object_add(o, "slab_size",
				       json_object_new_uint64((uint64_t)1 << e->d.slab_shift));
		json_object_object_add(o, "live", json_object_new_boolean(e->live));
		json_object_object_add(o, "heartbeat_age_ms",
				       json_object_new_uint64(e->hb_age_ms));
		json_object_object_add(o, "heartbeat_interval_ms",
				       json_object_new_uint64(e->d.hb_interval_ms));
		json_object_array_add(a, o);
	}
	return print_json(a);
}

int cmd_broker(struct sparectl *c, int argc, char **argv)
{
	struct create_broker b = { 0 };
	uint8_t key[BROKER_KEY_LEN], *body = NULL;
	char why[256], id[BROKER_ID_LEN + 1] = "";
	struct dlist l = { 0 };
	int i, fd = -1, ret;

	if (argc < 2 || strcmp(argv[1], "donors"))
		return usage_error("broker: '%s' is not a broker command (donors)",
				   argc < 2 ? "" : argv[1]);
	for (i = 2; i < argc; i++)
		if (!broker_arg(argv[i], &b) || b.lease || b.dev_key_file)
			return usage_error("broker donors: unknown argument '%s' (broker=, broker-name=, broker-key=)",
					   argv[i]);
	if (!b.brokers || !b.name || !b.key_file)
		return usage_error("%s", "broker donors needs broker=HOST:PORT broker-name=NAME broker-key=FILE");
	if (strchr(b.brokers, ','))
		return usage_error("broker=%s: one broker (each broker knows its own donors)",
				   b.brokers);
	if (strlen(b.name) >= BROKER_NAME_LEN)
		return usage_error("broker-name=%s: too long", b.name);
	if (broker_read_key_file(b.key_file, key, why, sizeof(why))) {
		log_err("broker-key=%s: %s", b.key_file, why);
		return 1;
	}
	ret = 1;
	fd = broker_connect(b.brokers, c->broker_timeout_ms, why, sizeof(why));
	if (fd < 0) {
		log_err("broker %s: unreachable: %s", b.brokers, why);
		goto out;
	}
	if (broker_authenticate(fd, BROKER_ROLE_ADMIN, b.name, key, id, why, sizeof(why))) {
		log_err("broker %s: authentication as '%s' (role admin) failed: %s", b.brokers,
			b.name, why);
		goto out;
	}
	body = malloc(BROKER_MAX_BODY);
	if (!body) {
		log_err("out of memory");
		goto out;
	}
	if (fetch(fd, b.brokers, &l, body))
		goto out;
	ret = c->json ? print_jsonl(&l) : print_table(&l);
out:
	sodium_memzero(key, sizeof(key));
	if (fd >= 0)
		close(fd);
	free(body);
	free(l.v);
	return ret;
}
