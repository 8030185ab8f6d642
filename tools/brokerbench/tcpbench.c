// SPDX-License-Identifier: GPL-2.0
/*
 * brokerbench-tcp: spare-broker over TCP loopback, the whole path (sockets,
 * framing, authentication, placement, signing).
 *
 *   brokerbench-tcp keys DIR DONORS
 *       write DIR/hostkeys (donor0..donorN-1, role=donor, addr=10.0.0.0/8 as
 *       the bench registers them; "bench", role=client), DIR/client.key
 *       and DIR/grant.key for the broker to load
 *   brokerbench-tcp run HOST:PORT DIR DONORS REQUESTS [SLABS COPIES WINDOW DOMAINS [v3]]
 *       register DONORS donors, each on its own authenticated connection,
 *       keep them heartbeating once a second (a second thread), then send
 *       REQUESTS GRANT_REQs from one client connection with up to WINDOW in
 *       flight; latency is from a request's send to its reply's receipt.
 *       With v3 every donor announces it takes version 3 grants (a broker
 *       with grant-version 3 then issues those); grant_version= in the
 *       output is the version of the last reply's first grant.
 *
 * Prints one key=value line. tools/brokerbench/run drives both.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "spare_auth.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int write_key(FILE *f, const char *name)
{
	uint8_t k[SPARE_AUTH_KEY_LEN];
	char text[SPARE_KEY_TEXT_LEN + 1];

	spare_key_generate(k);
	spare_key_format(k, text, sizeof(text));
	sodium_memzero(k, sizeof(k));
	/* a donor key may register the bench's 10.x.y.z addresses (addr=) */
	return name ? fprintf(f, "%s %s role=donor addr=10.0.0.0/8\n", name, text) :
		      fprintf(f, "%s\n", text);
}

static int do_keys(const char *dir, unsigned int donors)
{
	char path[512], client[SPARE_KEY_TEXT_LEN + 2];
	FILE *hk, *f;

	umask(077);
	snprintf(path, sizeof(path), "%s/grant.key", dir);
	f = fopen(path, "w");
	if (!f || write_key(f, NULL) < 0 || fclose(f))
		return 1;
	snprintf(path, sizeof(path), "%s/client.key", dir);
	f = fopen(path, "w+");
	if (!f || write_key(f, NULL) < 0)
		return 1;
	rewind(f);
	if (!fgets(client, sizeof(client), f))
		return 1;
	fclose(f);
	snprintf(path, sizeof(path), "%s/hostkeys", dir);
	hk = fopen(path, "w");
	if (!hk)
		return 1;
	client[strcspn(client, "\n")] = 0;
	fprintf(hk, "bench %s role=client\n", client);
	for (unsigned int i = 0; i < donors; i++) {
		char name[32];

		snprintf(name, sizeof(name), "donor%u", i);
		write_key(hk, name);
	}
	return fclose(hk) ? 1 : 0;
}

struct donors {
	int		*fd;
	unsigned int	n, domains;
	atomic_bool	stop;
	uint64_t	sent;
};

static uint8_t donor_flags;	/* BROKER_DONOR_F_GRANT_V3 with "v3" */

static int donor_send(int fd, unsigned int i, unsigned int domains, uint16_t type, uint32_t seq)
{
	struct broker_donor d = { .free_slabs = 1000, .hb_interval_ms = 1000, .slab_shift = 30 };
	uint8_t body[BROKER_DONOR_SIZE];

	d.flags = donor_flags;
	snprintf(d.donor_id, sizeof(d.donor_id), "donor%u", i);
	snprintf(d.addr, sizeof(d.addr), "10.%u.%u.%u:18515", i >> 16, (i >> 8) & 255, i & 255);
	snprintf(d.domain, sizeof(d.domain), "rack%u", i % domains);
	broker_donor_encode(&d, body, sizeof(body));
	return broker_send(fd, type, seq, body, BROKER_DONOR_SIZE);
}

static int donor_ack(int fd)
{
	uint8_t body[BROKER_DONOR_SIZE + 64];
	struct broker_hdr h;

	return broker_recv(fd, &h, body, sizeof(body)) || h.type != BROKER_ACK ? -1 : 0;
}

static int donor_msg(int fd, unsigned int i, unsigned int domains, uint16_t type, uint32_t seq)
{
	return donor_send(fd, i, domains, type, seq) || donor_ack(fd) ? -1 : 0;
}

/*
 * Every donor once a second until told to stop: a round sends every
 * donor's HEARTBEAT first and then reads the ACKs, in slices of 1,000 so
 * that no socket buffer fills, as 10,000 independent donors would.
 */
static void *heartbeats(void *arg)
{
	struct donors *ds = arg;
	uint32_t seq = 2;

	while (!atomic_load(&ds->stop)) {
		uint64_t t0 = now_ns(), el;

		for (unsigned int b = 0; b < ds->n && !atomic_load(&ds->stop); b += 1000) {
			unsigned int e = b + 1000 < ds->n ? b + 1000 : ds->n;

			for (unsigned int i = b; i < e; i++)
				if (donor_send(ds->fd[i], i, ds->domains, BROKER_HEARTBEAT, seq)) {
					fprintf(stderr, "heartbeat of donor%u failed\n", i);
					return NULL;
				}
			for (unsigned int i = b; i < e; i++) {
				if (donor_ack(ds->fd[i])) {
					fprintf(stderr, "no ACK for donor%u\n", i);
					return NULL;
				}
				ds->sent++;
			}
		}
		seq++;
		el = now_ns() - t0;
		if (el < 1000000000ULL) {
			struct timespec ts = { .tv_nsec = (long)(1000000000ULL - el) };

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

static int do_run(const char *broker, const char *dir, unsigned int ndonors, unsigned int n,
		  unsigned int slabs, unsigned int copies, unsigned int window, unsigned int domains)
{
	struct spare_host_keys hk = { 0 };
	struct donors ds = { .n = ndonors, .domains = domains };
	uint8_t key[BROKER_KEY_LEN], req[BROKER_GRANT_REQ_SIZE];
	static uint8_t body[BROKER_MAX_BODY];
	char why[256] = "no key in hostkeys, or no ACK to REGISTER", path[512];
	uint64_t *sent_at, *lat, t0, secs_ns, errors = 0;
	unsigned int sent = 0, got = 0, version = 0;
	struct broker_grant_req r = { .slabs = (uint16_t)slabs, .copies = (uint16_t)copies };
	pthread_t th;
	int cfd;

	snprintf(path, sizeof(path), "%s/hostkeys", dir);
	if (spare_host_keys_load(path, &hk, why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	ds.fd = calloc(ndonors, sizeof(*ds.fd));
	if (!ds.fd)
		return 1;
	for (unsigned int i = 0; i < ndonors; i++) {
		char name[32];
		const uint8_t *k = NULL;

		snprintf(name, sizeof(name), "donor%u", i);
		for (unsigned int j = 0; j < hk.n; j++)
			if (!strcmp(hk.v[j].name, name))
				k = hk.v[j].key;
		ds.fd[i] = broker_connect(broker, 10000, why, sizeof(why));
		if (ds.fd[i] < 0 || !k ||
		    broker_authenticate(ds.fd[i], BROKER_ROLE_DONOR, name, k, NULL, why, sizeof(why)) ||
		    donor_msg(ds.fd[i], i, domains, BROKER_REGISTER, 1)) {
			fprintf(stderr, "donor%u: %s\n", i, why);
			free(ds.fd);
			return 1;
		}
	}
	spare_host_keys_free(&hk);
	snprintf(path, sizeof(path), "%s/client.key", dir);
	cfd = broker_connect(broker, 10000, why, sizeof(why));
	if (cfd < 0 || broker_read_key_file(path, key, why, sizeof(why)) ||
	    broker_authenticate(cfd, BROKER_ROLE_CLIENT, "bench", key, NULL, why, sizeof(why))) {
		fprintf(stderr, "client: %s\n", why);
		return 1;
	}
	pthread_create(&th, NULL, heartbeats, &ds);
	sent_at = calloc(n, sizeof(*sent_at));
	lat = calloc(n, sizeof(*lat));
	broker_grant_req_encode(&r, req, sizeof(req));
	t0 = now_ns();
	while (got < n) {
		struct broker_hdr h;

		while (sent < n && sent - got < window) {
			sent_at[sent] = now_ns();
			if (broker_send(cfd, BROKER_GRANT_REQ, sent, req, sizeof(req))) {
				fprintf(stderr, "send: %s\n", strerror(errno));
				return 1;
			}
			sent++;
		}
		if (broker_recv(cfd, &h, body, sizeof(body)) || h.seq >= n) {
			fprintf(stderr, "recv: %s\n", strerror(errno));
			return 1;
		}
		lat[got++] = now_ns() - sent_at[h.seq];
		if (h.type != BROKER_GRANT_REP)
			errors++;
		else if (h.len >= 8 + SPARE_GRANT_SIZE)
			version = body[12] | (unsigned int)body[13] << 8;	/* grant 0's */
	}
	secs_ns = now_ns() - t0;
	atomic_store(&ds.stop, true);
	pthread_join(th, NULL);
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("grant_version=%u ", version);
	printf("mode=tcp-loopback donors=%u domains=%u slabs=%u copies=%u window=%u requests=%u "
	       "errors=%" PRIu64 " heartbeats=%" PRIu64 " seconds=%.3f requests_per_s=%.0f "
	       "grants_per_s=%.0f p50_us=%.1f p99_us=%.1f p999_us=%.1f\n",
	       ndonors, domains, slabs, copies, window, n, errors, ds.sent, secs_ns / 1e9,
	       n / (secs_ns / 1e9), (double)(n - errors) * slabs * copies / (secs_ns / 1e9),
	       lat[n / 2] / 1e3, lat[(size_t)n * 99 / 100] / 1e3, lat[(size_t)n * 999 / 1000] / 1e3);
	for (unsigned int i = 0; i < ndonors; i++)
		close(ds.fd[i]);
	close(cfd);
	free(ds.fd);
	free(sent_at);
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	if (sodium_init() < 0)
		return 1;
	if (argc == 4 && !strcmp(argv[1], "keys"))
		return do_keys(argv[2], (unsigned int)strtoul(argv[3], NULL, 0));
	if (argc >= 6 && !strcmp(argv[1], "run")) {
		if (argc > 10 && strcmp(argv[10], "v3"))
			goto usage;
		donor_flags = argc > 10 ? BROKER_DONOR_F_GRANT_V3 : 0;
		return do_run(argv[2], argv[3], (unsigned int)strtoul(argv[4], NULL, 0),
			      (unsigned int)strtoul(argv[5], NULL, 0),
			      argc > 6 ? (unsigned int)strtoul(argv[6], NULL, 0) : 1,
			      argc > 7 ? (unsigned int)strtoul(argv[7], NULL, 0) : 2,
			      argc > 8 ? (unsigned int)strtoul(argv[8], NULL, 0) : 16,
			      argc > 9 ? (unsigned int)strtoul(argv[9], NULL, 0) : 100);
	}
usage:
	fprintf(stderr, "usage: brokerbench-tcp keys DIR DONORS | run HOST:PORT DIR DONORS REQUESTS "
		"[SLABS COPIES WINDOW DOMAINS [v3]]\n");
	return 2;
}
