// SPDX-License-Identifier: GPL-2.0
/*
 * spared <-> spare-broker: registration and heartbeats (broker_link.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "broker_link.h"
#include "spare_log.h"
#include "spared.h"

const char *broker_link_parse_list(struct broker_link_cfg *cfg, const char *list)
{
	const char *p = list;

	cfg->nbrokers = 0;
	if (!*list)
		return NULL;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *item;

		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n)
			return "empty broker in the list";
		if (cfg->nbrokers == BROKER_LINK_MAX)
			return "more than 8 brokers";
		if (n >= sizeof(cfg->brokers[0]))
			return "broker address too long";
		item = cfg->brokers[cfg->nbrokers++];
		memcpy(item, p, n);
		item[n] = 0;
		if (!strrchr(item, ':') || !strrchr(item, ':')[1] || strrchr(item, ':') == item)
			return "want host:port";
		if (!end)
			return NULL;
		p = end + 1;
	}
}

struct link_thread {
	struct broker_link	*l;
	const char		*broker;
	pthread_t		th;
	bool			started;
	atomic_bool		up;
};

struct broker_link {
	struct broker_link_cfg	cfg;
	_Atomic uint64_t	free_slabs;
	pthread_mutex_t		mu;
	pthread_cond_t		cv;
	bool			stop;
	struct link_thread	t[BROKER_LINK_MAX];
};

/*
 * Sleep @ms unless told to stop; true if stopping. With @until_change, wake
 * early too when the free count is no longer *@until_change.
 */
static bool nap_or_change(struct broker_link *l, uint64_t ms, const uint64_t *until_change)
{
	struct timespec ts;
	bool stop;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&l->mu);
	while (!l->stop &&
	       (!until_change || atomic_load(&l->free_slabs) == *until_change) &&
	       pthread_cond_timedwait(&l->cv, &l->mu, &ts) != ETIMEDOUT)
		;
	stop = l->stop;
	pthread_mutex_unlock(&l->mu);
	return stop;
}

static bool nap(struct broker_link *l, uint64_t ms)
{
	return nap_or_change(l, ms, NULL);
}

/*
 * Between heartbeats: the next one goes after hb_interval_ms, or as soon as
 * the free count changes (a donor that has just grown its lending is
 * granted from at once, not a heartbeat later), but never sooner than
 * BROKER_LINK_MIN_GAP_MS after the last. True if stopping.
 */
#define BROKER_LINK_MIN_GAP_MS	100
static bool nap_heartbeat(struct broker_link *l, uint64_t sent)
{
	uint64_t gap = l->cfg.hb_interval_ms < BROKER_LINK_MIN_GAP_MS ? l->cfg.hb_interval_ms :
									BROKER_LINK_MIN_GAP_MS;

	return nap(l, gap) || nap_or_change(l, l->cfg.hb_interval_ms - gap, &sent);
}

static bool stopping(struct broker_link *l)
{
	bool s;

	pthread_mutex_lock(&l->mu);
	s = l->stop;
	pthread_mutex_unlock(&l->mu);
	return s;
}

/* One connection: authenticate, REGISTER, HEARTBEAT until an error. */
static void session(struct link_thread *t, int fd, uint64_t *backoff)
{
	struct broker_link *l = t->l;
	struct broker_donor d;
	struct broker_hdr h;
	struct broker_ack a;
	uint8_t body[BROKER_DONOR_SIZE + BROKER_ERR_TEXT_MAX + 16];
	char why[256];
	uint32_t seq = 1;

	if (broker_authenticate(fd, BROKER_ROLE_DONOR, l->cfg.donor_id, l->cfg.key, NULL, why,
				sizeof(why))) {
		log_warn("broker %s: %s", t->broker, why);
		return;
	}
	memset(&d, 0, sizeof(d));
	memcpy(d.donor_id, l->cfg.donor_id, sizeof(d.donor_id));
	memcpy(d.addr, l->cfg.addr, sizeof(d.addr));
	memcpy(d.domain, l->cfg.domain, sizeof(d.domain));
	d.slab_shift = l->cfg.slab_shift;
	d.hb_interval_ms = l->cfg.hb_interval_ms;
	d.flags = l->cfg.flags;
	while (!stopping(l)) {
		int n;

		d.free_slabs = atomic_load(&l->free_slabs);
		n = broker_donor_encode(&d, body, sizeof(body));
		if (n < 0) {
			log_err("broker %s: cannot encode this donor's REGISTER (check donor id, address, domain)",
				t->broker);
			return;
		}
		if (broker_send(fd, seq == 1 ? BROKER_REGISTER : BROKER_HEARTBEAT, seq, body,
				(size_t)n) ||
		    broker_recv(fd, &h, body, sizeof(body))) {
			log_warn("broker %s: connection lost: %s", t->broker, strerror(errno));
			break;
		}
		if (h.type != BROKER_ACK || broker_ack_decode(body, h.len, &a)) {
			struct broker_error e;

			if (h.type == BROKER_ERROR && !broker_error_decode(body, h.len, &e))
				log_warn("broker %s refused this donor: %s: %s", t->broker,
					 broker_err_name(e.code), e.text);
			else
				log_warn("broker %s: unexpected %s", t->broker, broker_type_name(h.type));
			break;
		}
		if (seq == 1)
			log_info("broker %s: registered as %s (%u donors there)", t->broker,
				 l->cfg.donor_id, a.donors);
		atomic_store(&t->up, true);
		*backoff = l->cfg.backoff_min_ms;
		seq++;
		if (nap_heartbeat(l, d.free_slabs))
			break;
	}
	atomic_store(&t->up, false);
}

static void *link_main(void *arg)
{
	struct link_thread *t = arg;
	struct broker_link *l = t->l;
	uint64_t backoff = l->cfg.backoff_min_ms;
	bool warned = false;

	while (!stopping(l)) {
		char why[256];
		int fd = broker_connect(t->broker, 2000, why, sizeof(why));

		if (fd >= 0) {
			warned = false;
			session(t, fd, &backoff);
			close(fd);
		} else if (!warned) {
			log_warn("broker %s (retrying with back-off)", why);
			warned = true;
		}
		/* exponential back-off with jitter, so donors do not stampede a restarted broker */
		{
			uint64_t j = backoff / 2 + randombytes_uniform((uint32_t)(backoff / 2 + 1));

			if (nap(l, j))
				break;
		}
		backoff = backoff * 2 > l->cfg.backoff_max_ms ? l->cfg.backoff_max_ms : backoff * 2;
	}
	return NULL;
}

struct broker_link *broker_link_start(const struct broker_link_cfg *cfg, uint64_t free_slabs)
{
	struct broker_link *l = calloc(1, sizeof(*l));

	if (!l) {
		log_err("broker link: out of memory");
		return NULL;
	}
	l->cfg = *cfg;
	if (!l->cfg.backoff_min_ms)
		l->cfg.backoff_min_ms = 500;
	if (l->cfg.backoff_max_ms < l->cfg.backoff_min_ms)
		l->cfg.backoff_max_ms = 30000;
	if (!l->cfg.hb_interval_ms)
		l->cfg.hb_interval_ms = 1000;
	atomic_store(&l->free_slabs, free_slabs);
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	for (unsigned int i = 0; i < cfg->nbrokers; i++) {
		struct link_thread *t = &l->t[i];

		t->l = l;
		t->broker = l->cfg.brokers[i];
		if (pthread_create(&t->th, NULL, link_main, t)) {
			log_err("broker link: cannot start a thread");
			broker_link_stop(l);
			return NULL;
		}
		t->started = true;
	}
	return l;
}

void broker_link_set_free(struct broker_link *l, uint64_t free_slabs)
{
	if (!l || atomic_exchange(&l->free_slabs, free_slabs) == free_slabs)
		return;
	pthread_mutex_lock(&l->mu);	/* wake the links: report it now */
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

unsigned int broker_link_connected(const struct broker_link *l)
{
	unsigned int n = 0;

	if (!l)
		return 0;
	for (unsigned int i = 0; i < l->cfg.nbrokers; i++)
		n += atomic_load(&l->t[i].up);
	return n;
}

void broker_link_stop(struct broker_link *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = true;
	pthread_cond_broadcast(&l->cv);
	pthread_mutex_unlock(&l->mu);
	for (unsigned int i = 0; i < BROKER_LINK_MAX; i++)
		if (l->t[i].started)
			pthread_join(l->t[i].th, NULL);
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	sodium_memzero(l, sizeof(*l));
	free(l);
}

struct broker_link *spared_broker_link_start(const struct spared *d)
{
	struct broker_link_cfg c;
	const char *why;
	char err[512], host[256] = "";
	struct broker_link *l;

	memset(&c, 0, sizeof(c));
	why = broker_link_parse_list(&c, d->cfg.brokers);
	if (why) {
		log_err("brokers = %s: %s", d->cfg.brokers, why);
		return NULL;
	}
	if (!d->cfg.broker_key_file[0]) {
		log_err("brokers needs broker-key-file (this donor's secret at the brokers)");
		return NULL;
	}
	if (broker_read_key_file(d->cfg.broker_key_file, c.key, err, sizeof(err))) {
		log_err("broker-key-file %s", err);
		return NULL;
	}
	_Static_assert(sizeof(d->donor_id) == BROKER_ID_LEN, "donor id sizes");
	memcpy(c.donor_id, d->donor_id, BROKER_ID_LEN);
	c.donor_id[BROKER_ID_LEN - 1] = 0;
	if (d->cfg.listen_addr[0])
		snprintf(host, sizeof(host), "%s", d->cfg.listen_addr);
	else if (gethostname(host, sizeof(host) - 1))
		strcpy(host, "localhost");
	if ((size_t)snprintf(c.addr, sizeof(c.addr), strchr(host, ':') ? "[%s]:%u" : "%s:%u",
			     host, d->cfg.port) >= sizeof(c.addr)) {
		log_err("brokers: address %s:%u is too long to advertise", host, d->cfg.port);
		sodium_memzero(c.key, sizeof(c.key));
		return NULL;
	}
	snprintf(c.domain, sizeof(c.domain), "%s", d->cfg.domain);
	c.slab_shift = (uint8_t)d->cfg.slab_shift;
	c.hb_interval_ms = 1000;
	/* takes version 3 grants: grants_start() derived their key from c.key's file */
	c.flags = d->cfg.grant_v3 ? BROKER_DONOR_F_GRANT_V3 : 0;
	if (!broker_str_ok(c.donor_id, sizeof(c.donor_id)) || !broker_str_ok(c.addr, sizeof(c.addr))) {
		log_err("brokers: donor id \"%s\" or address \"%s\" has blanks or is empty",
			c.donor_id, c.addr);
		sodium_memzero(c.key, sizeof(c.key));
		return NULL;
	}
	l = broker_link_start(&c, d->pool.nfree);
	sodium_memzero(c.key, sizeof(c.key));
	if (l)
		log_info("reporting %u free slabs as %s at %s in domain %s to %u broker(s)",
			 d->pool.nfree, c.donor_id, c.addr, c.domain, c.nbrokers);
	return l;
}
