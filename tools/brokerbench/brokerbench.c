// SPDX-License-Identifier: GPL-2.0
/*
 * brokerbench: spare-broker's grant path in process: placement on the
 * Fenwick tree (place_slab_tree), the debit, and signing every grant
 * (Ed25519, version 2, or with --sign hmac the deprecated version 1
 * HMAC-SHA-256, or with --sign v3 version 3, HMAC-SHA-256 with each
 * donor's own key: every donor announces it, grant-version 3), exactly as the daemon runs it (userspace/broker/bstate.c),
 * with the donors' heartbeats interleaved at their real rate. No sockets:
 * this is the broker's CPU cost per grant, not the network's.
 *
 *   brokerbench [-d DONORS] [-D DOMAINS] [-s SLABS] [-r COPIES]
 *               [-n REQUESTS] [-H HEARTBEATS_PER_S] [-f FREE] [--scan]
 *               [--sign ed25519|hmac|v3] [-t SIGN_THREADS]
 *
 * One request asks for SLABS x COPIES grants. Heartbeats: every donor
 * once per second of simulated time, where the simulated clock advances by
 * the measured wall time. --scan uses place_slab (the O(n) scan) instead,
 * for comparison. -t signs each request's grants on that many threads
 * beside the loop (bstate_set_sign_threads(); default 0, the loop alone,
 * as the daemon's sign-threads default). Prints one key=value line; cpu_s
 * is the CPU time of all its threads over the requests, by_threads the
 * grants the signing threads signed (the rest the loop did). With v3 each
 * donor's key is derived once at its first heartbeat, as spare-broker
 * derives it once per donor connection, and passed on every heartbeat.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <sodium.h>

#include "bstate.h"
#include "spare_grant_pool.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CPU seconds (user + system) of every thread of this process so far. */
static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* place_slab (O(n)) in place of the tree: the same debits and signing. */
static int grant_scan(struct bstate *st, unsigned int slabs, unsigned int copies,
		      struct spare_grant *out)
{
	struct spare_grant_info gi;
	uint32_t idx[BROKER_MAX_GRANTS];
	unsigned int done = 0;

	for (unsigned int s = 0; s < slabs; s++) {
		if (place_slab(st->pd, st->n, copies, &st->rng, idx + done))
			return -ENOSPC;
		for (unsigned int c = 0; c < copies; c++, done++) {
			st->pd[idx[done]].free_slabs--;
			place_tree_set(&st->tree, idx[done], st->pd[idx[done]].free_slabs);
		}
	}
	memset(&gi, 0, sizeof(gi));
	strcpy(gi.client_id, "bench");
	gi.slabs = 1;
	gi.expiry = 1000;
	for (unsigned int k = 0; k < done; k++) {
		spare_grant_new_id(gi.id);
		memcpy(gi.donor_id, st->donors[idx[k]].id, sizeof(gi.donor_id));
		memcpy(gi.donor_addr, st->donors[idx[k]].addr, sizeof(gi.donor_addr));
		spare_grant_keys_issue(&st->keys, &gi, &out[k]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = { { "scan", no_argument, NULL, 'S' },
					    { "sign", required_argument, NULL, 'K' },
					    { NULL, 0, NULL, 0 } };
	struct spare_grant_keys keys = { 0 };
	const char *sign = "ed25519";
	uint8_t seed[32];
	unsigned int donors = 10000, domains = 100, slabs = 1, copies = 2, n = 200000, free_slabs = 1000;
	unsigned int hb_rate = 0;	/* default: every donor once a second */
	unsigned int sign_threads = 0;
	bool scan = false;
	struct spare_grant_key key = { .id = 1 };
	static struct spare_grant out[BROKER_MAX_GRANTS];
	struct broker_donor d;
	struct bstate st;
	uint64_t *lat, t0, t_end, hb_due = 0, hbs = 0, nospace = 0;
	char client[16];
	double secs, cpu0, cpu;
	unsigned int next_hb = 0;
	uint8_t (*kg)[SPARE_GRANT_KEY_LEN] = NULL;	/* v3: each donor's key */
	bool v3;
	int c;

	while ((c = getopt_long(argc, argv, "d:D:s:r:n:H:f:t:", lo, NULL)) != -1) {
		switch (c) {
		case 'd': donors = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'D': domains = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': slabs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'r': copies = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'n': n = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'H': hb_rate = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'f': free_slabs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': sign_threads = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'S': scan = true; break;
		case 'K': sign = optarg; break;
		default:
			fprintf(stderr, "usage: brokerbench [-d donors] [-D domains] [-s slabs] "
				"[-r copies] [-n requests] [-H heartbeats/s] [-f free] [--scan] "
				"[--sign ed25519|hmac|v3] [-t sign-threads]\n");
			return 2;
		}
	}
	if (!hb_rate)
		hb_rate = donors;
	if (sodium_init() < 0 || !donors || !domains || !n ||
	    (strcmp(sign, "ed25519") && strcmp(sign, "hmac") && strcmp(sign, "v3")))
		return 1;
	v3 = !strcmp(sign, "v3");
	randombytes_buf(key.key, sizeof(key.key));
	if (bstate_init(&st, donors, 3, 300, 5, &key, 12345)) {
		fprintf(stderr, "bstate_init failed\n");
		return 1;
	}
	if (strcmp(sign, "hmac")) {	/* v3: version 2 for donors that do not take it */
		randombytes_buf(seed, sizeof(seed));
		spare_grant_signkey_from_seed(&keys.sign, 1, seed);
		keys.has_sign = true;
		bstate_set_grant_keys(&st, &keys);
	}
	if (v3) {
		uint8_t kd[SPARE_GRANT_KEY_LEN];

		kg = calloc(donors, sizeof(*kg));
		if (!kg)
			return 1;
		for (unsigned int i = 0; i < donors; i++) {
			char id[SPARE_GRANT_DONOR_LEN];

			randombytes_buf(kd, sizeof(kd));	/* its host key */
			snprintf(id, sizeof(id), "donor%u", i);
			spare_grant_v3_key(kg[i], kd, id);
		}
		sodium_memzero(kd, sizeof(kd));
		bstate_set_grant_v3(&st, true);
	}
	if (bstate_set_sign_threads(&st, sign_threads)) {
		fprintf(stderr, "cannot start %u signing threads\n", sign_threads);
		return 1;
	}
	memset(&d, 0, sizeof(d));
	d.hb_interval_ms = 1000;
	d.slab_shift = 30;
	d.free_slabs = free_slabs;
	d.flags = v3 ? BROKER_DONOR_F_GRANT_V3 : 0;
	for (unsigned int i = 0; i < donors; i++) {
		snprintf(d.donor_id, sizeof(d.donor_id), "donor%u", i);
		snprintf(d.addr, sizeof(d.addr), "10.%u.%u.%u:18515", i >> 16, (i >> 8) & 255, i & 255);
		snprintf(d.domain, sizeof(d.domain), "rack%u", i % domains);
		bstate_heartbeat_v3(&st, &d, kg ? kg[i] : NULL, 0);
	}
	lat = calloc(n, sizeof(*lat));
	if (!lat)
		return 1;
	cpu0 = cpu_s();
	t0 = now_ns();
	for (unsigned int i = 0; i < n; i++) {
		uint64_t a = now_ns(), el = a - t0;
		int ret;

		/* heartbeats due by now at hb_rate per second, round-robin */
		hb_due = el * hb_rate / 1000000000ULL;
		while (hbs < hb_due) {
			unsigned int k = next_hb++ % donors;

			snprintf(d.donor_id, sizeof(d.donor_id), "donor%u", k);
			snprintf(d.addr, sizeof(d.addr), "10.%u.%u.%u:18515", k >> 16, (k >> 8) & 255, k & 255);
			snprintf(d.domain, sizeof(d.domain), "rack%u", k % domains);
			bstate_heartbeat_v3(&st, &d, kg ? kg[k] : NULL, el / 1000000);
			hbs++;
		}
		/* 1,000 clients in turn: each within the per-client caps'
		 * defaults, as a fleet's clients are, so the caps' bookkeeping
		 * (a table lookup and a heap push per request) is measured */
		snprintf(client, sizeof(client), "bench%u", i % 1000);
		ret = scan ? grant_scan(&st, slabs, copies, out)
			   : bstate_grant(&st, client, slabs, copies, 0, 1000, out, NULL);
		if (ret)
			nospace++;
		lat[i] = now_ns() - a;
	}
	t_end = now_ns();
	cpu = cpu_s() - cpu0;
	secs = (double)(t_end - t0) / 1e9;
	qsort(lat, n, sizeof(*lat), cmp_u64);
	/* what the last request got: the version the bench says it measures */
	printf("grant_version=%u ", (unsigned int)le16toh(out[0].version));
	printf("mode=in-process sign=%s sign_threads=%u placement=%s donors=%u domains=%u slabs=%u copies=%u requests=%u "
	       "nospace=%" PRIu64 " heartbeats=%" PRIu64 " seconds=%.3f requests_per_s=%.0f "
	       "grants_per_s=%.0f cpu_s=%.3f cpu_us_per_grant=%.2f by_threads=%llu p50_us=%.2f p99_us=%.2f p999_us=%.2f\n",
	       sign, sign_threads, scan ? "scan" : "tree", donors, domains, slabs, copies, n, nospace, hbs, secs,
	       n / secs, (double)(n - nospace) * slabs * copies / secs,
	       cpu, cpu * 1e6 / ((double)n * slabs * copies),
	       spare_grant_pool_by_threads(st.pool),
	       lat[n / 2] / 1e3, lat[(size_t)n * 99 / 100] / 1e3, lat[(size_t)n * 999 / 1000] / 1e3);
	free(lat);
	free(kg);
	bstate_free(&st);
	return 0;
}
