// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker: tells clients which donors to map slabs on, and signs the
 * grants the donors check. TCP, one thread, epoll, non-blocking sockets
 * with bounded per-peer buffers. Soft state only (bstate.h). See
 * Documentation/broker.md and Documentation/protocol.md "Broker protocol".
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bstate.h"
#include "broker_proto.h"
#include "spare_auth.h"
#include "spare_conf.h"
#include "spare_fdlimit.h"
#include "spare_grant_pool.h"
#include "spare_http.h"
#include "spare_keyfile.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_notify.h"
#include "spare_util.h"

#define BROKER_DEFAULT_CONF	"/etc/spare/spare-broker.conf"
#define OUT_CAP			(2 * BROKER_MAX_FRAME)	/* most a peer's output may hold */
#define BUF_START		4096	/* buffers grow to a frame's size when one needs it */
#define LINGER_MS		1000	/* drain a refused peer this long */
#define TICK_MS			250

struct cfg {
	char		listen[128];
	char		port_file[256];
	char		broker_id[BROKER_ID_LEN];
	char		host_keys[256];
	char		grant_key_file[256];	/* version 1, deprecated */
	char		grant_signing_key[256];	/* version 2 (Ed25519) */
	char		grant_public_keys[256];	/* older keys RENEW_GRANT still takes */
	uint32_t	grant_key_id;
	uint32_t	lease_s;
	uint32_t	skew_s;
	uint32_t	missed_hb;
	uint32_t	max_hb_ms;
	uint32_t	max_donors;
	uint32_t	max_conns;
	uint32_t	hello_timeout_ms;
	uint32_t	max_handshakes;
	uint32_t	client_share_pct;
	uint32_t	max_client_grants;
	uint32_t	sign_threads;
	uint32_t	grant_version;	/* 2, or 3: per-donor MAC to donors that take it */
	uint64_t	max_donor_bytes;
	bool		legacy_renew;
	bool		fair_share;
	char		metrics_listen[128];
	int		log_level;	/* applied once every setting is in */
};

static const struct spare_setting settings[] = {
	{ "listen",	'l', "ADDR:PORT", "address and TCP port to listen on", "0.0.0.0:18517" },
	{ "port-file",	0,  "PATH",  "write the bound port here (for listen port 0)", "" },
	{ "broker-id",	'i', "ID",    "this broker's name in proofs (max 15 chars; default: host name)", "" },
	{ "host-keys",	'k', "PATH",  "peers' secrets, \"<name> SPARE-1:...\" lines (required)", "" },
	{ "grant-signing-key", 0, "PATH", "Ed25519 grant signing key, a \"SPARE-1:...\" seed only the broker holds: version 2 grants", "" },
	{ "grant-public-keys", 0, "PATH", "\"<key id> <hex>\" lines: earlier signing keys whose grants RENEW_GRANT still renews", "" },
	{ "grant-key-file", 'g', "PATH", "version 1 grant secret shared with the donors (deprecated: grant-signing-key)", "" },
	{ "grant-key-id", 0, "N",     "key id written into grants", "1" },
	{ "grant-version", 0, "2|3", "3: version 3 grants (HMAC with each donor's own key) to the donors that announce they take them, version 2 (or 1) to the others", "2" },
	{ "sign-threads", 0, "N",    "threads that sign a request's grants beside the event loop (0: the loop alone; a restart applies it)", "0" },
	{ "lease",	0,  "SECONDS", "grant lifetime, and the longest a client may ask for", "300" },
	{ "clock-skew",	0,  "SECONDS", "grants start this long before issue", "5" },
	{ "missed-heartbeats", 0, "K", "forget a donor after K heartbeat periods of silence", "3" },
	{ "max-heartbeat", 0, "MS",  "a donor's declared heartbeat period counts as at most this", "10000" },
	{ "max-donors",	0,  "N",     "donors remembered at once", "16384" },
	{ "max-conns",	0,  "N",     "peer connections at once", "4096" },
	{ "hello-timeout", 0, "MS",  "time a new peer has to authenticate", "5000" },
	{ "max-handshakes", 0, "N",  "peers still authenticating at once; the oldest makes way", "256" },
	{ "max-client-share", 0, "PERCENT", "most of the pool one client may hold: of the free slabs plus its own (100: no cap)", "100" },
	{ "fair-share", 0, "yes|no", "while a client below its share waits for room, no client takes more than the pool divided among the active clients", "yes" },
	{ "max-client-grants", 0, "N", "grants one client may hold within their leases (renewals count)", "4096" },
	{ "max-donor-bytes", 0, "SIZE", "most a donor may declare free (slabs x slab size); more is clamped", "16T" },
	{ "legacy-renew", 0, "yes|no", "serve RENEW_REQ, which names a donor and a count but no grant (only for clients older than RENEW_GRANT)", "no" },
	{ "log-level",	'v', "LEVEL", "err, warn, info or debug", "info" },
	{ "metrics-listen", 'm', "ADDR:PORT", "serve Prometheus /metrics over HTTP here (default: off)", "" },
};

static const char *set_u32(const char *value, uint64_t min, uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (spare_parse_u64(value, min, max, &v))
		return "not a number in range";
	*out = (uint32_t)v;
	return NULL;
}

static const char *cfg_set(const char *key, const char *value, void *ctx)
{
	struct cfg *c = ctx;
	char host[128];
	uint16_t port;
	const char *why;
	int level;

	if (!strcmp(key, "listen")) {
		if (spare_http_parse_listen(value, host, sizeof(host), &port, &why))
			return why;
		return spare_conf_str(c->listen, sizeof(c->listen), value);
	}
	if (!strcmp(key, "port-file"))
		return spare_conf_str(c->port_file, sizeof(c->port_file), value);
	if (!strcmp(key, "broker-id")) {
		char id[BROKER_ID_LEN] = "";

		if (strlen(value) >= BROKER_ID_LEN)
			return "1-15 printable characters, no blanks";
		strcpy(id, value);
		if (value[0] && !broker_str_ok(id, sizeof(id)))
			return "1-15 printable characters, no blanks";
		memcpy(c->broker_id, id, sizeof(id));
		return NULL;
	}
	if (!strcmp(key, "host-keys"))
		return spare_conf_str(c->host_keys, sizeof(c->host_keys), value);
	if (!strcmp(key, "grant-key-file"))
		return spare_conf_str(c->grant_key_file, sizeof(c->grant_key_file), value);
	if (!strcmp(key, "grant-signing-key"))
		return spare_conf_str(c->grant_signing_key, sizeof(c->grant_signing_key), value);
	if (!strcmp(key, "grant-public-keys"))
		return spare_conf_str(c->grant_public_keys, sizeof(c->grant_public_keys), value);
	if (!strcmp(key, "grant-key-id"))
		return set_u32(value, 0, UINT32_MAX, &c->grant_key_id);
	if (!strcmp(key, "lease"))
		return set_u32(value, 1, 30 * 86400, &c->lease_s);
	if (!strcmp(key, "clock-skew"))
		return set_u32(value, 0, 3600, &c->skew_s);
	if (!strcmp(key, "missed-heartbeats"))
		return set_u32(value, 1, 1000, &c->missed_hb);
	if (!strcmp(key, "max-heartbeat"))
		return set_u32(value, 100, 3600000, &c->max_hb_ms);
	if (!strcmp(key, "max-donors"))
		return set_u32(value, 1, 1u << 24, &c->max_donors);
	if (!strcmp(key, "grant-version"))
		return set_u32(value, 2, 3, &c->grant_version);
	if (!strcmp(key, "sign-threads"))
		return set_u32(value, 0, SPARE_GRANT_POOL_MAX_THREADS, &c->sign_threads);
	if (!strcmp(key, "max-conns"))
		return set_u32(value, 1, 1u << 20, &c->max_conns);
	if (!strcmp(key, "hello-timeout"))
		return set_u32(value, 10, 3600000, &c->hello_timeout_ms);
	if (!strcmp(key, "max-handshakes"))
		return set_u32(value, 1, 1u << 20, &c->max_handshakes);
	if (!strcmp(key, "max-client-share"))
		return set_u32(value, 1, 100, &c->client_share_pct);
	if (!strcmp(key, "max-client-grants"))
		return set_u32(value, 1, 1u << 24, &c->max_client_grants);
	if (!strcmp(key, "max-donor-bytes")) {
		if (spare_parse_size(value, &c->max_donor_bytes) ||
		    c->max_donor_bytes < (UINT64_C(1) << 34))
			return "a size of at least 16G (one slab of the largest size)";
		return NULL;
	}
	if (!strcmp(key, "legacy-renew"))
		return spare_conf_bool(value, &c->legacy_renew);
	if (!strcmp(key, "fair-share"))
		return spare_conf_bool(value, &c->fair_share);
	if (!strcmp(key, "log-level")) {
		level = spare_log_parse_level(value);
		if (level < 0)
			return "not a level (err, warn, info, debug)";
		c->log_level = level;
		return NULL;
	}
	if (!strcmp(key, "metrics-listen")) {
		if (value[0] && spare_http_parse_listen(value, host, sizeof(host), &port, &why))
			return why;
		return spare_conf_str(c->metrics_listen, sizeof(c->metrics_listen), value);
	}
	return "unknown setting";
}

/* ---- connections ---- */

enum src_kind { SRC_LISTEN, SRC_SIGNAL, SRC_TICK, SRC_HTTP, SRC_WATCHDOG, SRC_CONN };

struct src {
	enum src_kind	kind;
	int		fd;
};

enum conn_state { C_HELLO, C_READY, C_CLOSING, C_DEAD };

struct conn {
	struct src	src;		/* first: epoll's data.ptr */
	enum conn_state	state;
	uint8_t		role;
	char		name[BROKER_NAME_LEN];
	char		peer[80];	/* address, for logs */
	char		ip[INET6_ADDRSTRLEN];	/* numeric, for addr= checks */
	const uint8_t	*key;		/* into the host-keys table */
	const struct spare_host_key *hkey;	/* its role= and addr= */
	/* a donor's version 3 grant key, from the key it proved at HELLO */
	bool		has_gkey;
	uint8_t		gkey[SPARE_GRANT_KEY_LEN];
	uint8_t		bnonce[BROKER_NONCE_LEN];
	uint8_t		*in;
	size_t		in_len, in_cap;
	uint8_t		*out;
	size_t		out_len, out_off, out_cap;
	uint64_t	deadline_ms;	/* hello timeout, or end of linger */
	bool		in_handshake;	/* counted in broker.nhandshakes */
	uint32_t	events;		/* registered with epoll */
	struct conn	*prev, *next;
};

/* One log line per LOG_LIMIT_MS for a repeated event; the rest counted. */
struct log_limit {
	uint64_t	next_ms;
	uint64_t	quiet;
};

#define LOG_LIMIT_MS	10000

struct broker {
	struct cfg		cfg;
	struct bstate		st;
	struct spare_host_keys	hk;
	int			epfd;
	struct src		listen_src, sig_src, tick_src, http_src, wd_src;
	struct spare_http	*http;
	struct conn		*conns;
	struct conn		*dead;		/* closed in this epoll batch; freed after it */
	unsigned int		nconns;
	unsigned int		nhandshakes;	/* peers not authenticated yet */
	struct spare_accept_gate accept_gate;	/* EMFILE back-off (spare_fdlimit.h) */
	struct spare_ratelimit	cap_log;	/* the max-conns line */
	struct spare_ratelimit	hs_log;		/* the max-handshakes line */
	struct spare_ratelimit	clamp_log;	/* donors declaring too much */
	struct log_limit	role_log, addr_log;	/* role= and addr= refusals */
	struct log_limit	from_log;	/* clients outside their addr= */
	bool			stopping;
	uint64_t		start_ms;
	/* counters */
	uint64_t		accepted, auth_ok, auth_fail, heartbeats, refused[BROKER_E_MAX + 1];
	uint64_t		grant_reqs;
	uint64_t		stripe_reqs;
	struct log_limit	donors_full;
	struct log_limit	client_capped;	/* per-client caps' refusals */
	struct log_limit	marked_log;	/* renewals answered with move marks */
	uint8_t			dummy_key[BROKER_KEY_LEN];	/* for unknown names */
	struct spare_grant	grants[BROKER_MAX_GRANTS];
	char			domains[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];	/* each grant's donor's */
	uint8_t			frame[BROKER_MAX_FRAME];
};

static int ep_mod(struct broker *b, struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = &c->src };

	if (c->events == events)
		return 0;
	if (epoll_ctl(b->epfd, EPOLL_CTL_MOD, c->src.fd, &ev)) {
		log_warn("%s: epoll_ctl: %s", c->peer, strerror(errno));
		return -1;
	}
	c->events = events;
	return 0;
}

/* @c is no longer a peer in the handshake (it authenticated, or it goes). */
static void handshake_done(struct broker *b, struct conn *c)
{
	if (c->in_handshake) {
		c->in_handshake = false;
		b->nhandshakes--;
	}
}

static void conn_close(struct broker *b, struct conn *c)
{
	handshake_done(b, c);
	epoll_ctl(b->epfd, EPOLL_CTL_DEL, c->src.fd, NULL);
	close(c->src.fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		b->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c->in);
	free(c->out);
	c->in = c->out = NULL;
	c->state = C_DEAD;	/* a later event of this batch may still name it */
	c->src.fd = -1;
	c->next = b->dead;
	b->dead = c;
	b->nconns--;
}

static void free_dead(struct broker *b)
{
	while (b->dead) {
		struct conn *c = b->dead;

		b->dead = c->next;
		sodium_memzero(c, sizeof(*c));
		free(c);
	}
}

/* Queue one frame; -1 if the peer's output buffer is full (slow reader). */
static int queue(struct conn *c, uint16_t type, uint32_t seq, const uint8_t *body, size_t len)
{
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + len > OUT_CAP)
		return -1;
	if (c->out_off && c->out_len + BROKER_HDR_SIZE + len > OUT_CAP) {
		memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
		c->out_len -= c->out_off;
		c->out_off = 0;
	}
	if (c->out_len + BROKER_HDR_SIZE + len > c->out_cap) {
		size_t cap = c->out_cap;
		uint8_t *p;

		while (cap < c->out_len + BROKER_HDR_SIZE + len)
			cap *= 2;
		if (cap > OUT_CAP)
			cap = OUT_CAP;
		p = realloc(c->out, cap);
		if (!p)
			return -1;
		c->out = p;
		c->out_cap = cap;
	}
	broker_hdr_encode(c->out + c->out_len, type, seq, (uint32_t)len);
	if (len)
		memcpy(c->out + c->out_len + BROKER_HDR_SIZE, body, len);
	c->out_len += BROKER_HDR_SIZE + len;
	return 0;
}

/*
 * Refuse: queue ERROR, stop reading requests, close once it is sent (and
 * the peer has had LINGER_MS to read it). Nothing the peer sent after the
 * refused frame is acted on.
 */
static void vrefuse(struct broker *b, struct conn *c, uint32_t seq, unsigned int code,
		    struct log_limit *limit, const char *fmt, va_list ap)
{
	struct broker_error e = { .code = code };
	uint8_t body[8 + BROKER_ERR_TEXT_MAX];
	uint64_t now = spare_now_ms();
	int n;

	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	for (char *p = e.text; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	if (!limit) {
		log_info("%s%s%s: refused (%s): %s", c->peer, c->name[0] ? " " : "", c->name,
			 broker_err_name(code), e.text);
	} else if (now >= limit->next_ms) {
		log_warn("%s%s%s: refused (%s): %s (%" PRIu64 " more like it since the last line)",
			 c->peer, c->name[0] ? " " : "", c->name, broker_err_name(code), e.text,
			 limit->quiet);
		limit->next_ms = now + LOG_LIMIT_MS;
		limit->quiet = 0;
	} else {
		limit->quiet++;
	}
	b->refused[code]++;
	n = broker_error_encode(&e, body, sizeof(body));
	if (n > 0)
		queue(c, BROKER_ERROR, seq, body, (size_t)n);
	handshake_done(b, c);
	c->state = C_CLOSING;
	c->deadline_ms = now + LINGER_MS;
}

static void refuse(struct broker *b, struct conn *c, uint32_t seq, unsigned int code,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void refuse(struct broker *b, struct conn *c, uint32_t seq, unsigned int code,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrefuse(b, c, seq, code, NULL, fmt, ap);
	va_end(ap);
}

/*
 * A refusal because a table is full: the newcomer is not at fault and a
 * crowd of them must not flood the log, so one line per LOG_LIMIT_MS per
 * @limit, counting the ones it stood for.
 */
static void refuse_full(struct broker *b, struct conn *c, uint32_t seq, struct log_limit *limit,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void refuse_full(struct broker *b, struct conn *c, uint32_t seq, struct log_limit *limit,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrefuse(b, c, seq, BROKER_E_NO_SPACE, limit, fmt, ap);
	va_end(ap);
}

/* A refusal of a peer's own doing that a peer can repeat: one line per LOG_LIMIT_MS. */
static void refuse_limited(struct broker *b, struct conn *c, uint32_t seq, unsigned int code,
			   struct log_limit *limit, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void refuse_limited(struct broker *b, struct conn *c, uint32_t seq, unsigned int code,
			   struct log_limit *limit, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrefuse(b, c, seq, code, limit, fmt, ap);
	va_end(ap);
}

static void send_challenge(struct broker *b, struct conn *c)
{
	struct broker_challenge ch;
	uint8_t body[BROKER_CHALLENGE_SIZE];

	memset(&ch, 0, sizeof(ch));
	do
		randombytes_buf(c->bnonce, sizeof(c->bnonce));
	while (sodium_is_zero(c->bnonce, sizeof(c->bnonce)));
	memcpy(ch.nonce, c->bnonce, sizeof(ch.nonce));
	memcpy(ch.broker_id, b->cfg.broker_id, BROKER_ID_LEN);
	if (broker_challenge_encode(&ch, body, sizeof(body)) == BROKER_CHALLENGE_SIZE)
		queue(c, BROKER_CHALLENGE, 0, body, sizeof(body));
}

/* The host-keys role (SPARE_ROLE_*) a HELLO role needs. */
static unsigned int role_bit(unsigned int role)
{
	return role == BROKER_ROLE_DONOR ? SPARE_ROLE_DONOR :
	       role == BROKER_ROLE_ADMIN ? SPARE_ROLE_ADMIN : SPARE_ROLE_CLIENT;
}

/* "a donor", "a client", "an admin": for "GRANT_REQ from a donor". */
static const char *role_a(unsigned int role)
{
	return role == BROKER_ROLE_DONOR ? "a donor" :
	       role == BROKER_ROLE_ADMIN ? "an admin" : "a client";
}

static void on_hello(struct broker *b, struct conn *c, const struct broker_hdr *h,
		     const uint8_t *body)
{
	struct broker_hello m;
	struct broker_welcome w;
	const struct spare_host_key *k = NULL;
	uint8_t out[BROKER_WELCOME_SIZE];
	char why[256];

	if (broker_hello_decode(body, h->len, &m)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME, "malformed HELLO");
		return;
	}
	for (unsigned int i = 0; i < b->hk.n; i++)
		if (!strncmp(b->hk.v[i].name, m.name, BROKER_NAME_LEN))
			k = &b->hk.v[i];
	/*
	 * One answer, and one HMAC, for unknown names and wrong proofs: an
	 * unknown name is checked against a random key no peer holds, so
	 * its refusal takes as long as a wrong proof's.
	 */
	if (!broker_auth_mac_ok(m.mac, k ? k->key : b->dummy_key, BROKER_DIR_PEER, m.role,
				m.name, b->cfg.broker_id, m.nonce, c->bnonce) || !k) {
		b->auth_fail++;
		memcpy(c->name, m.name, sizeof(c->name));
		refuse(b, c, h->seq, BROKER_E_AUTH_FAILED, "authentication failed");
		return;
	}
	/* the key proved the name; host-keys says what that name may be */
	if (!(k->roles & role_bit(m.role))) {
		memcpy(c->name, m.name, sizeof(c->name));
		refuse_limited(b, c, h->seq, BROKER_E_BAD_REQUEST, &b->role_log,
			       "key %s may not act as %s (its role is %s on host-keys line %u)",
			       k->name, role_a(m.role),
			       spare_role_name(k->roles), k->line);
		return;
	}
	/* a key with addr= binds where its client connects from, as at spared */
	if (m.role == BROKER_ROLE_CLIENT &&
	    spare_host_key_from_refused(k, c->ip, why, sizeof(why))) {
		memcpy(c->name, m.name, sizeof(c->name));
		refuse_limited(b, c, h->seq, BROKER_E_BAD_REQUEST, &b->from_log, "%s", why);
		return;
	}
	c->key = k->key;
	c->hkey = k;
	c->role = m.role;
	/*
	 * A donor's version 3 grant key, derived once from the key it just
	 * proved it holds (and kept for this session, as a rotated host key
	 * keeps the session: the donor holds this one until it reconnects).
	 * A name too long for a donor id derives none: it cannot register.
	 */
	c->has_gkey = m.role == BROKER_ROLE_DONOR &&
		      !spare_grant_v3_key(c->gkey, k->key, m.name);
	memcpy(c->name, m.name, sizeof(c->name));
	broker_auth_mac(w.mac, k->key, BROKER_DIR_BROKER, m.role, m.name, b->cfg.broker_id,
			m.nonce, c->bnonce);
	broker_welcome_encode(&w, out, sizeof(out));
	queue(c, BROKER_WELCOME, h->seq, out, sizeof(out));
	sodium_memzero(&w, sizeof(w));
	c->state = C_READY;
	b->auth_ok++;
	log_dbg("%s: %s authenticated as %s", c->peer, c->name, role_a(c->role));
}

/* A donor that declared more than max-donor-bytes: said, rate-limited. */
static void note_clamp(struct broker *b, const struct conn *c, const struct broker_donor *d)
{
	const struct bdonor *bd = bstate_find(&b->st, d->donor_id);
	unsigned long quiet;

	if (!bd || bd->reported >= d->free_slabs ||
	    !spare_ratelimit_ok(&b->clamp_log, spare_now_ms(), LOG_LIMIT_MS, &quiet))
		return;
	log_warn("%s %s: declares %" PRIu64 " free slabs of 2^%u bytes, more than max-donor-bytes (%" PRIu64 ") allows: counted as %" PRIu64 " (%lu more such lines held back)",
		 c->peer, c->name, d->free_slabs, d->slab_shift, b->cfg.max_donor_bytes,
		 bd->reported, quiet);
}

static void on_donor(struct broker *b, struct conn *c, const struct broker_hdr *h,
		     const uint8_t *body)
{
	struct broker_donor d;
	struct broker_ack a;
	uint8_t out[BROKER_ACK_SIZE];
	char why[256];
	bool known;
	int ret;

	if (c->role != BROKER_ROLE_DONOR) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "%s from %s", broker_type_name(h->type),
		       role_a(c->role));
		return;
	}
	if (broker_donor_decode(body, h->len, &d)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME, "malformed %s", broker_type_name(h->type));
		return;
	}
	/* a donor speaks for itself only */
	if (strncmp(d.donor_id, c->name, BROKER_NAME_LEN)) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "donor id must be the name the donor authenticated as");
		return;
	}
	if (spare_host_key_addr_refused(c->hkey, d.addr, c->ip, why, sizeof(why))) {
		refuse_limited(b, c, h->seq, BROKER_E_BAD_REQUEST, &b->addr_log, "%s", why);
		return;
	}
	known = bstate_find(&b->st, d.donor_id) != NULL;
	ret = bstate_heartbeat_v3(&b->st, &d, c->has_gkey ? c->gkey : NULL, spare_now_ms());
	if (ret == -ENOSPC) {
		refuse_full(b, c, h->seq, &b->donors_full,
			    "donor table full: max-donors (%u) donors are live",
			    b->cfg.max_donors);
		return;
	}
	if (ret == -EADDRINUSE) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "address %s is held by another live donor", d.addr);
		return;
	}
	if (ret) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME, "bad donor fields");
		return;
	}
	if (!known)
		log_info("donor %s at %s in %s: %" PRIu64 " free slabs", d.donor_id, d.addr,
			 d.domain, d.free_slabs);
	b->heartbeats++;
	note_clamp(b, c, &d);
	a.donors = b->st.live;
	/* the period the broker holds the donor to, not the one it declared */
	a.expire_ms = (uint32_t)(b->st.missed_hb *
				 (uint64_t)bstate_find(&b->st, d.donor_id)->hb_interval_ms);
	broker_ack_encode(&a, out, sizeof(out));
	queue(c, BROKER_ACK, h->seq, out, sizeof(out));
}

/* Not the peer's mistake (no room, no such donor): answer NO_SPACE and
 * keep the connection. */
static void answer_no_space(struct conn *c, uint32_t seq, const char *text)
{
	struct broker_error e = { .code = BROKER_E_NO_SPACE };
	uint8_t eb[8 + BROKER_ERR_TEXT_MAX];
	int en;

	snprintf(e.text, sizeof(e.text), "%s", text);
	en = broker_error_encode(&e, eb, sizeof(eb));
	if (en > 0)
		queue(c, BROKER_ERROR, seq, eb, (size_t)en);
}

/*
 * The client's caps refused its request (bstate's -EDQUOT or -EUSERS):
 * NO_SPACE with the reason, the connection kept (others are served, and it
 * may ask again when its leases run out); one log line per LOG_LIMIT_MS.
 */
static void answer_capped(struct broker *b, struct conn *c, uint32_t seq, int ret)
{
	uint64_t now = spare_now_ms();
	char text[BROKER_ERR_TEXT_MAX + 1];

	if (ret == -EUSERS)
		snprintf(text, sizeof(text), "client table full: %zu clients hold leases",
			 b->st.max_clients);
	else if (b->st.capped_why == BSTATE_CAP_FAIR)
		snprintf(text, sizeof(text),
			 "client %s holds %" PRIu64 " of %" PRIu64
			 " slabs shared by %u clients: past its fair share while another waits",
			 c->name, bstate_client_slabs(&b->st, c->name),
			 bstate_total_free(&b->st) + b->st.held,
			 bstate_clients_sharing(&b->st, c->name));
	else
		snprintf(text, sizeof(text),
			 "client %s holds its share: %" PRIu64 " slab(s) in %" PRIu64
			 " grant(s) within their leases (max-client-share %u%%, max-client-grants %u)",
			 c->name, bstate_client_slabs(&b->st, c->name),
			 bstate_client_grants(&b->st, c->name), b->cfg.client_share_pct,
			 b->cfg.max_client_grants);
	if (now >= b->client_capped.next_ms) {
		log_warn("%s %s: refused (no-space): %s (%" PRIu64 " more like it since the last line)",
			 c->peer, c->name, text, b->client_capped.quiet);
		b->client_capped.next_ms = now + LOG_LIMIT_MS;
		b->client_capped.quiet = 0;
	} else {
		b->client_capped.quiet++;
	}
	answer_no_space(c, seq, text);
}

/*
 * GRANT_REP with the @slabs x @copies grants bstate left in b->grants, each
 * with its donor's failure domain (b->domains).
 */
static void reply_grants(struct broker *b, struct conn *c, uint32_t seq,
			 unsigned int slabs, unsigned int copies)
{
	int n = broker_grant_rep_encode((uint16_t)slabs, (uint16_t)copies, b->grants,
					b->domains, b->frame, sizeof(b->frame));

	if (n < 0) {	/* not reached: bstate issued them from checked fields */
		refuse(b, c, seq, BROKER_E_INTERNAL, "cannot encode the grants");
		return;
	}
	queue(c, BROKER_GRANT_REP, seq, b->frame, (size_t)n);
}

static void on_grant_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			 const uint8_t *body)
{
	struct broker_grant_req r;
	size_t n;
	int ret;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "GRANT_REQ from %s", role_a(c->role));
		return;
	}
	if (broker_grant_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed GRANT_REQ (1-%u slabs, 1-%u copies, at most %u grants)",
		       BROKER_MAX_SLABS, BROKER_MAX_COPIES, BROKER_MAX_GRANTS);
		return;
	}
	b->grant_reqs++;
	n = BROKER_GRANT_REP_SIZE(r.slabs * r.copies);
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + n > OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	ret = bstate_grant(&b->st, c->name, r.slabs, r.copies, r.lease_s, (uint64_t)time(NULL),
			   b->grants, b->domains);
	if (ret == -EDQUOT || ret == -EUSERS) {
		answer_capped(b, c, h->seq, ret);
		return;
	}
	if (ret) {
		char text[BROKER_ERR_TEXT_MAX + 1];

		snprintf(text, sizeof(text),
			 "cannot place %u slabs x %u copies on distinct donors and domains now",
			 r.slabs, r.copies);
		answer_no_space(c, h->seq, text);
		log_dbg("%s: no space for %ux%u", c->name, r.slabs, r.copies);
		return;
	}
	reply_grants(b, c, h->seq, r.slabs, r.copies);
	log_dbg("%s: granted %u slab(s) x %u copies", c->name, r.slabs, r.copies);
}

/* STRIPE_REQ: K+R splits per stripe on one coding group (bstate_stripe). */
static void on_stripe_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			  const uint8_t *body)
{
	char why[BROKER_ERR_TEXT_MAX + 1];
	struct broker_stripe_req r;
	unsigned int w;
	int ret;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "STRIPE_REQ from %s", role_a(c->role));
		return;
	}
	if (broker_stripe_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed STRIPE_REQ (ec K+R with K 2, 4 or 8 and R 1 or 2; 1-%u stripes, at most %u splits)",
		       BROKER_MAX_SLABS, BROKER_MAX_GRANTS);
		return;
	}
	b->stripe_reqs++;
	w = (unsigned int)r.k + r.r;
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + BROKER_GRANT_REP_SIZE(r.stripes * w) >
	    OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	ret = bstate_stripe(&b->st, c->name, r.stripes, r.k, r.r, r.lease_s, (uint64_t)time(NULL),
			    b->grants, b->domains, why, sizeof(why));
	if (ret == -EDQUOT || ret == -EUSERS) {
		answer_capped(b, c, h->seq, ret);
		return;
	}
	if (ret == -ENOSPC) {
		answer_no_space(c, h->seq, why);
		log_dbg("%s: no stripes: %s", c->name, why);
		return;
	}
	if (ret) {
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "cannot place the stripes: %s",
		       strerror(-ret));
		return;
	}
	reply_grants(b, c, h->seq, r.stripes, (uint16_t)w);
	log_dbg("%s: granted %u stripe(s) of ec %u+%u", c->name, r.stripes, r.k, r.r);
}

static void on_renew_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			 const uint8_t *body)
{
	struct broker_renew_req r;
	int ret;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "RENEW_REQ from %s", role_a(c->role));
		return;
	}
	if (!b->cfg.legacy_renew) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "RENEW_REQ (a donor and a count) is not served here (legacy-renew no): renew the grants themselves with RENEW_GRANT (an older sparectl or spare-ublk: upgrade it)");
		return;
	}
	if (broker_renew_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed RENEW_REQ (a donor address, 1-%u slabs)", BROKER_MAX_RENEW);
		return;
	}
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + BROKER_GRANT_REP_SIZE(1) > OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	ret = bstate_renew(&b->st, c->name, r.donor_addr, r.slabs, r.lease_s,
			   (uint64_t)time(NULL), b->grants, b->domains[0]);
	if (ret == -EDQUOT || ret == -EUSERS) {
		answer_capped(b, c, h->seq, ret);
		return;
	}
	if (ret == -E2BIG) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "%u slabs on %s: more than the donor may lend", r.slabs, r.donor_addr);
		return;
	}
	if (ret) {
		char text[BROKER_ERR_TEXT_MAX + 1];

		snprintf(text, sizeof(text), "no live donor at %s", r.donor_addr);
		answer_no_space(c, h->seq, text);
		return;
	}
	reply_grants(b, c, h->seq, 1, 1);
	log_dbg("%s: renewed %u slab(s) on %s", c->name, r.slabs, r.donor_addr);
}

/*
 * ROOM_REQ: new slabs on a donor the client names (bstate_room): debited
 * and capped as GRANT_REQ is, so served whatever legacy-renew says.
 */
static void on_room_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			const uint8_t *body)
{
	char text[BROKER_ERR_TEXT_MAX + 1];
	struct broker_renew_req r;
	int ret;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "ROOM_REQ from a donor");
		return;
	}
	if (broker_renew_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed ROOM_REQ (a donor address, 1-%u slabs)", BROKER_MAX_RENEW);
		return;
	}
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + BROKER_GRANT_REP_SIZE(1) > OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	ret = bstate_room(&b->st, c->name, r.donor_addr, r.slabs, r.lease_s,
			  (uint64_t)time(NULL), b->grants, b->domains[0]);
	switch (ret) {
	case 0:
		reply_grants(b, c, h->seq, 1, 1);
		log_dbg("%s: room for %u slab(s) on %s", c->name, r.slabs, r.donor_addr);
		return;
	case -EDQUOT:
	case -EUSERS:
		answer_capped(b, c, h->seq, ret);
		return;
	case -ENOSPC:
		snprintf(text, sizeof(text), "the donor at %s has fewer than %u slab(s) free",
			 r.donor_addr, r.slabs);
		break;
	case -ENOENT:
		snprintf(text, sizeof(text), "no live donor at %s", r.donor_addr);
		break;
	default:
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "cannot grant room on %s", r.donor_addr);
		return;
	}
	answer_no_space(c, h->seq, text);
}

/*
 * MOVE_REQ: one grant on a donor outside the given set, in a fresh failure
 * domain if one has room (bstate_move). A linear scan of the donors: moves
 * are rare.
 */
static void on_move_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			const uint8_t *body)
{
	struct broker_move_req r;
	int ret;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "MOVE_REQ from %s", role_a(c->role));
		return;
	}
	if (broker_move_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed MOVE_REQ (1-%u slabs, at most %u donor addresses and %u domains to avoid)",
		       BROKER_MAX_RENEW, BROKER_MAX_AVOID, BROKER_MAX_AVOID);
		return;
	}
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + BROKER_GRANT_REP_SIZE(1) > OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	ret = bstate_move(&b->st, c->name, r.slabs, r.avoid, r.n_avoid, r.avoid_domains,
			  r.n_avoid_domains, r.lease_s, (uint64_t)time(NULL), b->grants,
			  b->domains[0]);
	if (ret == -EDQUOT || ret == -EUSERS) {
		answer_capped(b, c, h->seq, ret);
		return;
	}
	if (ret && ret != -ENOSPC) {	/* not reached: decode checked every field */
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "cannot issue the grant");
		return;
	}
	if (ret) {
		char text[BROKER_ERR_TEXT_MAX + 1];

		snprintf(text, sizeof(text), "no live donor outside the %u given can take %u slab(s)",
			 r.n_avoid, r.slabs);
		answer_no_space(c, h->seq, text);
		log_dbg("%s: no donor for a move of %u slab(s) avoiding %u donor(s)", c->name,
			r.slabs, r.n_avoid);
		return;
	}
	reply_grants(b, c, h->seq, 1, 1);
	log_dbg("%s: move of %u slab(s) granted on %s", c->name, r.slabs, b->grants[0].donor_addr);
}

/*
 * A version-3 RENEW_GRANT's answer (it asked for marks): the @n grants
 * renewed in b->grants, and which of them the broker asks the client to
 * move off the pool (bstate_reclaim_pick(): a hog's excess while another
 * client waits). The marks are advisory: every grant is renewed.
 */
static void reply_renewed_marked(struct broker *b, struct conn *c, uint32_t seq,
				 unsigned int n, uint64_t now)
{
	bool move[BROKER_MAX_RENEW_GRANTS];
	uint64_t marked = bstate_reclaim_pick(&b->st, c->name, b->grants, n, now, move);
	int len = broker_grant_rep_encode_move((uint16_t)n, b->grants, b->domains, move,
					       b->frame, sizeof(b->frame));

	if (len < 0) {	/* not reached: bstate issued them from checked fields */
		refuse(b, c, seq, BROKER_E_INTERNAL, "cannot encode the grants");
		return;
	}
	if (marked && spare_now_ms() >= b->marked_log.next_ms) {
		log_info("%s %s: above its fair share while another client waits: %" PRIu64
			 " slab(s) of %u renewed grant(s) marked to move off the pool (%" PRIu64
			 " more like it since the last line)", c->peer, c->name, marked, n,
			 b->marked_log.quiet);
		b->marked_log.next_ms = spare_now_ms() + LOG_LIMIT_MS;
		b->marked_log.quiet = 0;
	} else if (marked) {
		b->marked_log.quiet++;
	}
	queue(c, BROKER_GRANT_REP, seq, b->frame, (size_t)len);
}

/*
 * RENEW_GRANT: each grant sent back is re-issued with a new expiry
 * (bstate_renew_grants), all or none: a refusal charges nothing. A grant
 * this broker did not sign as it stands, or another client's, is the
 * peer's mistake (refused, closed); a donor gone, or the caps, get
 * NO_SPACE and the connection stays.
 */
static void on_renew_grant(struct broker *b, struct conn *c, const struct broker_hdr *h,
			   const uint8_t *body)
{
	struct broker_renew_grant r;
	uint64_t now = (uint64_t)time(NULL);
	char text[BROKER_ERR_TEXT_MAX + 1];
	struct spare_grant old;
	unsigned int i;
	int ret = 0;

	if (c->role != BROKER_ROLE_CLIENT) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "RENEW_GRANT from %s", role_a(c->role));
		return;
	}
	if (broker_renew_grant_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME,
		       "malformed RENEW_GRANT (1-%u well-formed grants)", BROKER_MAX_RENEW_GRANTS);
		return;
	}
	if (c->out_len - c->out_off + BROKER_HDR_SIZE + BROKER_GRANT_REP_SIZE(r.n) +
	    BROKER_REP_MOVE_SIZE > OUT_CAP) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "requests sent faster than replies are read");
		return;
	}
	for (i = 0; i < r.n; i++)
		broker_renew_grant_get(&r, i, &b->grants[i]);
	ret = bstate_renew_grants(&b->st, c->name, b->grants, r.n, r.lease_s, now, b->grants,
				  b->domains, &i);
	old = b->grants[i];
	switch (ret) {
	case 0:
		if (r.flags & BROKER_RENEW_F_MOVE)
			reply_renewed_marked(b, c, h->seq, r.n, now);
		else
			reply_grants(b, c, h->seq, r.n, 1);
		log_dbg("%s: renewed %u grant(s)", c->name, r.n);
		break;
	case -EBADMSG:
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "grant %u is not one this broker signed (forged, altered, or another key's)", i);
		break;
	case -EACCES:
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "grant %u was issued to another client", i);
		break;
	case -E2BIG:
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "grant %u is for %u slabs, more than its donor may lend", i,
		       le32toh(old.slabs));
		break;
	case -ETIME:
		snprintf(text, sizeof(text),
			 "grant %u expired more than a lease ago: ask for new grants", i);
		answer_no_space(c, h->seq, text);
		break;
	case -ENOENT:
		snprintf(text, sizeof(text), "grant %u: its donor is not live at that address now", i);
		answer_no_space(c, h->seq, text);
		break;
	case -EDQUOT:
	case -EUSERS:
		answer_capped(b, c, h->seq, ret);
		break;
	default:
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "cannot renew grant %u", i);
	}
	sodium_memzero(&old, sizeof(old));
}

/*
 * DONORS_REQ: a page of the donor table, for an admin key only (it reads
 * the cluster's layout: addresses, free memory, domains).
 */
static void on_donors_req(struct broker *b, struct conn *c, const struct broker_hdr *h,
			  const uint8_t *body)
{
	struct broker_donor_info *v = NULL;
	struct broker_donors_req r;
	uint8_t *out = NULL;
	size_t n = 0, total = b->st.n;
	int len;

	if (c->role != BROKER_ROLE_ADMIN) {
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST,
		       "DONORS_REQ from %s: only a role=admin key may list donors", role_a(c->role));
		return;
	}
	if (broker_donors_req_decode(body, h->len, &r)) {
		refuse(b, c, h->seq, BROKER_E_BAD_FRAME, "malformed DONORS_REQ");
		return;
	}
	v = calloc(BROKER_DONORS_PAGE, sizeof(*v));
	out = malloc(BROKER_DONORS_REP_SIZE(BROKER_DONORS_PAGE));
	if (!v || !out) {
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "out of memory");
		goto out;
	}
	if (r.start < total)
		n = bstate_donors_page(&b->st, r.start, spare_now_ms(), v, BROKER_DONORS_PAGE);
	len = broker_donors_rep_encode((uint32_t)total, (uint32_t)(n ? r.start + n : total),
				       (uint16_t)n, v, out, BROKER_DONORS_REP_SIZE(n));
	if (len < 0 || queue(c, BROKER_DONORS_REP, h->seq, out, (size_t)len))
		refuse(b, c, h->seq, BROKER_E_INTERNAL, "cannot answer DONORS_REQ");
	else
		log_dbg("%s: listed donors %u..%zu of %zu", c->name, r.start, r.start + n, total);
out:
	free(v);
	free(out);
}

/* One complete frame in c->in. */
static void on_frame(struct broker *b, struct conn *c, const struct broker_hdr *h,
		     const uint8_t *body)
{
	if (c->state == C_HELLO) {
		if (h->type != BROKER_HELLO)
			refuse(b, c, h->seq, BROKER_E_AUTH_REQUIRED,
			       "%s before HELLO: authenticate first", broker_type_name(h->type));
		else
			on_hello(b, c, h, body);
		if (c->state != C_HELLO)
			handshake_done(b, c);
		return;
	}
	switch (h->type) {
	case BROKER_REGISTER:
	case BROKER_HEARTBEAT:
		on_donor(b, c, h, body);
		break;
	case BROKER_RENEW_REQ:
		on_renew_req(b, c, h, body);
		break;
	case BROKER_GRANT_REQ:
		on_grant_req(b, c, h, body);
		break;
	case BROKER_STRIPE_REQ:
		on_stripe_req(b, c, h, body);
		break;
	case BROKER_MOVE_REQ:
		on_move_req(b, c, h, body);
		break;
	case BROKER_ROOM_REQ:
		on_room_req(b, c, h, body);
		break;
	case BROKER_RENEW_GRANT:
		on_renew_grant(b, c, h, body);
		break;
	case BROKER_DONORS_REQ:
		on_donors_req(b, c, h, body);
		break;
	default:
		refuse(b, c, h->seq, BROKER_E_BAD_REQUEST, "%s is not a request",
		       broker_type_name(h->type));
	}
}

static int flush(struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->src.fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -1;
		}
		c->out_off += (size_t)n;
	}
	c->out_off = c->out_len = 0;
	return 0;
}

/* Handle every complete frame buffered; 0, or -1 to drop the peer. */
static void parse(struct broker *b, struct conn *c)
{
	size_t off = 0;

	while (c->state != C_CLOSING && c->in_len - off >= BROKER_HDR_SIZE &&
	       c->out_len - c->out_off < BROKER_MAX_FRAME) {
		struct broker_hdr h;
		int ret = broker_hdr_decode(c->in + off, &h);

		if (ret == -EMSGSIZE) {
			refuse(b, c, h.seq, BROKER_E_TOO_BIG, "frame body of %" PRIu32
			       " bytes is over the %u-byte limit", h.len, BROKER_MAX_BODY);
			break;
		}
		if (ret == -EPROTONOSUPPORT) {
			refuse(b, c, h.seq, BROKER_E_VERSION, "protocol version %u not supported (want %u)",
			       h.version, BROKER_VERSION);
			break;
		}
		if (ret) {
			refuse(b, c, h.seq, BROKER_E_BAD_FRAME, "bad frame header (magic or type)");
			break;
		}
		/*
		 * Before authentication only a HELLO is taken, and its header
		 * is judged before any body is buffered: an unauthenticated
		 * peer costs the broker BUF_START bytes, never a 64 KiB frame.
		 */
		if (c->state == C_HELLO && h.type != BROKER_HELLO) {
			refuse(b, c, h.seq, BROKER_E_AUTH_REQUIRED, "%s before HELLO: authenticate first",
			       broker_type_name(h.type));
			break;
		}
		if (c->state == C_HELLO && h.len > BROKER_HELLO_SIZE) {
			refuse(b, c, h.seq, BROKER_E_TOO_BIG, "HELLO of %" PRIu32
			       " bytes: before authentication a frame is at most %u bytes",
			       h.len, (unsigned int)BROKER_HELLO_SIZE);
			break;
		}
		if (c->in_len - off < BROKER_HDR_SIZE + h.len) {
			/* room for the whole frame (h.len <= BROKER_MAX_BODY) */
			if (BROKER_HDR_SIZE + h.len > c->in_cap) {
				uint8_t *p = realloc(c->in, BROKER_MAX_FRAME);

				if (!p) {
					refuse(b, c, h.seq, BROKER_E_INTERNAL, "out of memory");
					break;
				}
				c->in = p;
				c->in_cap = BROKER_MAX_FRAME;
			}
			break;
		}
		on_frame(b, c, &h, c->in + off + BROKER_HDR_SIZE);
		off += BROKER_HDR_SIZE + h.len;
	}
	if (off) {
		memmove(c->in, c->in + off, c->in_len - off);
		c->in_len -= off;
	}
}

static void conn_event(struct broker *b, struct conn *c, uint32_t events)
{
	uint8_t junk[4096];

	if (events & (EPOLLERR | EPOLLHUP) && !(events & EPOLLIN)) {
		conn_close(b, c);
		return;
	}
	if (events & EPOLLIN) {
		for (;;) {
			ssize_t n;

			if (c->state == C_CLOSING) {
				n = recv(c->src.fd, junk, sizeof(junk), 0);	/* drain */
			} else {
				if (c->in_len == c->in_cap)
					break;	/* a full frame waits for room to reply */
				n = recv(c->src.fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
			}
			if (n == 0) {
				conn_close(b, c);
				return;
			}
			if (n < 0) {
				if (errno == EAGAIN || errno == EINTR)
					break;
				conn_close(b, c);
				return;
			}
			if (c->state != C_CLOSING) {
				c->in_len += (size_t)n;
				parse(b, c);
			}
		}
	}
	if (flush(c)) {
		conn_close(b, c);
		return;
	}
	if (c->state == C_CLOSING && c->out_len == 0) {
		shutdown(c->src.fd, SHUT_WR);	/* the ERROR is out; drain until EOF */
	}
	/* frames left unparsed for lack of output room: try again after sending */
	if (c->state != C_CLOSING && c->in_len >= BROKER_HDR_SIZE && c->out_len == 0) {
		parse(b, c);
		if (flush(c)) {
			conn_close(b, c);
			return;
		}
	}
	/* a full input buffer waits for the output to drain, without spinning */
	ep_mod(b, c, (c->in_len < c->in_cap || c->state == C_CLOSING ? EPOLLIN : 0) |
		     (c->out_len ? EPOLLOUT : 0));
}

/* "ADDR:PORT" of an accepted peer, in @buf. */
static const char *peer_name(const struct sockaddr_storage *ss, socklen_t sl,
			     char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN], serv[8];

	if (getnameinfo((const struct sockaddr *)ss, sl, host, sizeof(host), serv,
			sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s:%s", host, serv);
	return buf;
}

/* ADDR of an accepted peer (what a donor key without addr= may register). */
static void peer_ip(const struct sockaddr_storage *ss, socklen_t sl, char ip[INET6_ADDRSTRLEN])
{
	if (getnameinfo((const struct sockaddr *)ss, sl, ip, INET6_ADDRSTRLEN, NULL, 0,
			NI_NUMERICHOST))
		ip[0] = '\0';
}

/*
 * Out of descriptors (or memory): the listener stays readable, so it leaves
 * the epoll set until on_tick() finds the back-off over (accept_resume()).
 */
static void accept_pause(struct broker *b)
{
	struct epoll_event ev = { .events = 0, .data.ptr = &b->listen_src };

	if (epoll_ctl(b->epfd, EPOLL_CTL_MOD, b->listen_src.fd, &ev))
		log_warn("epoll_ctl(listener): %s", strerror(errno));
}

static void accept_resume(struct broker *b, uint64_t now)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &b->listen_src };

	if (spare_accept_resume(&b->accept_gate, now) &&
	    epoll_ctl(b->epfd, EPOLL_CTL_MOD, b->listen_src.fd, &ev))
		log_warn("epoll_ctl(listener): %s", strerror(errno));
}

/* The oldest peer still in the handshake, or NULL. */
static struct conn *oldest_handshake(struct broker *b)
{
	struct conn *v = NULL;

	for (struct conn *c = b->conns; c; c = c->next)	/* newest first */
		if (c->state == C_HELLO)
			v = c;
	return v;
}

/*
 * At max-handshakes: the oldest peer still in the handshake makes way for
 * the new one, so that strangers holding handshakes open cannot keep a
 * donor or a client from authenticating (nor hold more than max-handshakes
 * small buffers and one HMAC each).
 */
static void handshake_room(struct broker *b, const char *peer)
{
	struct conn *v = oldest_handshake(b);
	unsigned long quiet;

	if (!v)
		return;
	if (spare_ratelimit_ok(&b->hs_log, spare_now_ms(), SPARE_FD_LOG_MS, &quiet))
		log_warn("max-handshakes (%u) reached: closing %s, the oldest not authenticated yet, for %s (%lu more such lines held back)",
			 b->cfg.max_handshakes, v->peer, peer, quiet);
	conn_close(b, v);
}

/*
 * At max-conns: the oldest peer that has not authenticated yet makes room,
 * so that strangers who connect and say nothing cannot keep donors and
 * clients out until their hello-timeout. False if every peer has
 * authenticated (the new one is dropped).
 */
static bool cap_room(struct broker *b, const char *peer)
{
	struct conn *v = oldest_handshake(b);
	unsigned long quiet;
	bool log = spare_ratelimit_ok(&b->cap_log, spare_now_ms(), SPARE_FD_LOG_MS, &quiet);

	if (!v) {
		if (log)
			log_warn("max-conns (%u) reached and every peer has authenticated: connection from %s dropped (%lu more such lines held back)",
				 b->cfg.max_conns, peer, quiet);
		return false;
	}
	if (log)
		log_warn("max-conns (%u) reached: closing %s, not authenticated yet, for %s (%lu more such lines held back)",
			 b->cfg.max_conns, v->peer, peer, quiet);
	conn_close(b, v);
	return true;
}

static void on_accept(struct broker *b)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct epoll_event ev;
		struct conn *c;
		char host[INET6_ADDRSTRLEN + 8];
		int one = 1;
		int fd = accept4(b->listen_src.fd, (struct sockaddr *)&ss, &sl,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			if (spare_accept_failed(&b->accept_gate, errno, spare_now_ms()))
				accept_pause(b);
			return;
		}
		if (b->nconns >= b->cfg.max_conns && !cap_room(b, peer_name(&ss, sl, host, sizeof(host)))) {
			close(fd);
			continue;
		}
		if (b->nhandshakes >= b->cfg.max_handshakes)
			handshake_room(b, peer_name(&ss, sl, host, sizeof(host)));
		c = calloc(1, sizeof(*c));
		if (c) {
			c->in_cap = c->out_cap = BUF_START;
			c->in = malloc(c->in_cap);
			c->out = malloc(c->out_cap);
		}
		if (!c || !c->in || !c->out) {
			log_warn("out of memory: connection dropped");
			if (c) {
				free(c->in);
				free(c->out);
			}
			free(c);
			close(fd);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		peer_name(&ss, sl, c->peer, sizeof(c->peer));
		peer_ip(&ss, sl, c->ip);
		c->src.kind = SRC_CONN;
		c->src.fd = fd;
		c->state = C_HELLO;
		c->deadline_ms = spare_now_ms() + b->cfg.hello_timeout_ms;
		c->events = EPOLLIN | EPOLLOUT;
		ev.events = c->events;
		ev.data.ptr = &c->src;
		if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			log_warn("epoll_ctl: %s", strerror(errno));
			free(c->in);
			free(c->out);
			free(c);
			close(fd);
			continue;
		}
		c->next = b->conns;
		if (b->conns)
			b->conns->prev = c;
		b->conns = c;
		b->nconns++;
		b->accepted++;
		c->in_handshake = true;
		b->nhandshakes++;
		send_challenge(b, c);
	}
}

static void on_tick(struct broker *b)
{
	uint64_t now = spare_now_ms(), x;
	struct conn *c, *next;
	unsigned int gone;

	if (read(b->tick_src.fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
		log_warn("timerfd read: %s", strerror(errno));
	accept_resume(b, now);
	gone = bstate_expire(&b->st, now);
	if (gone)
		log_info("%u donor(s) forgotten after %u missed heartbeats; %u live", gone,
			 b->st.missed_hb, b->st.live);
	for (c = b->conns; c; c = next) {
		next = c->next;
		if (c->state == C_HELLO && now >= c->deadline_ms) {
			refuse(b, c, 0, BROKER_E_AUTH_REQUIRED, "no HELLO within %u ms",
			       b->cfg.hello_timeout_ms);
			conn_event(b, c, 0);
		} else if (c->state == C_CLOSING && now >= c->deadline_ms) {
			conn_close(b, c);
		}
	}
	if (b->http)
		spare_http_run(b->http);
	spare_notify_status("%u donors live, %" PRIu64 " free slabs, %" PRIu64 " grants issued",
			    b->st.live, bstate_total_free(&b->st), b->st.grants_issued);
}

static int metrics_page(void *ctx, FILE *f)
{
	struct broker *b = ctx;
	struct spare_metrics m;

	spare_metrics_begin(&m, f, true);
	spare_metrics_process(&m, "spare-broker");
#define U64(name, type, help, v) spare_metrics_one_u64(&m, name, type, help, v)
	U64("spare_broker_donors", SPARE_GAUGE, "Donors heard from within their heartbeat lease.",
	    b->st.live);
	U64("spare_broker_donors_expired_total", SPARE_COUNTER,
	    "Donors forgotten after missed heartbeats.", b->st.donors_expired);
	U64("spare_broker_domains", SPARE_GAUGE, "Failure domains of live donors.", b->st.ndomains);
	U64("spare_broker_free_slabs", SPARE_GAUGE,
	    "Free slabs on live donors, as reported minus granted since.", bstate_total_free(&b->st));
	U64("spare_broker_heartbeats_total", SPARE_COUNTER, "REGISTER and HEARTBEAT messages.",
	    b->heartbeats);
	U64("spare_broker_grant_requests_total", SPARE_COUNTER, "GRANT_REQ messages.", b->grant_reqs);
	U64("spare_broker_stripe_requests_total", SPARE_COUNTER,
	    "STRIPE_REQ messages (erasure-coded stripes).", b->stripe_reqs);
	U64("spare_broker_grant_requests_no_space_total", SPARE_COUNTER,
	    "GRANT_REQ and STRIPE_REQ that could not be placed.", b->st.requests_nospace);
	U64("spare_broker_grants_total", SPARE_COUNTER, "Grants issued (one per slab copy).",
	    b->st.grants_issued);
	U64("spare_broker_connections", SPARE_GAUGE, "Peer connections open.", b->nconns);
	U64("spare_broker_connections_total", SPARE_COUNTER, "Peer connections accepted.", b->accepted);
	U64("spare_broker_auth_failures_total", SPARE_COUNTER, "HELLOs refused.", b->auth_fail);
	spare_metrics_family(&m, "spare_broker_refused_total", SPARE_COUNTER,
			     "Connections refused and closed, by error.");
	for (unsigned int e = 1; e <= BROKER_E_MAX; e++) {
		const char *labels[] = { "error", broker_err_name(e), NULL };

		spare_metrics_u64(&m, labels, b->refused[e]);
	}
	spare_metrics_family(&m, "spare_broker_client_refusals_total", SPARE_COUNTER,
			     "Client requests refused by a per-client cap (no-space), by cap.");
	{
		static const char *const cap[] = { "fair-share", "max-client-share",
						   "max-client-grants" };
		const uint64_t n[] = { b->st.refused_fair, b->st.refused_share,
				       b->st.refused_grants };

		for (unsigned int i = 0; i < 3; i++) {
			const char *labels[] = { "cap", cap[i], NULL };

			spare_metrics_u64(&m, labels, n[i]);
		}
	}
	U64("spare_broker_reclaim_marked_slabs_total", SPARE_COUNTER,
	    "Slabs of renewed grants marked to move off the pool (a client above its fair share while another waits).",
	    b->st.reclaim_marked);
	spare_metrics_family(&m, "spare_broker_uptime_seconds", SPARE_GAUGE,
			     "Seconds since spare-broker started.");
	spare_metrics_f3(&m, NULL, (double)(spare_now_ms() - b->start_ms) / 1000.0);
#undef U64
	return spare_metrics_end(&m);
}

/*
 * The grant keys @c names: grant-signing-key (version 2), else
 * grant-key-file (version 1, deprecated); grant-public-keys optional.
 */
static int read_grant_keys(const struct cfg *c, struct spare_grant_keys *k)
{
	char why[512];

	if (!c->grant_signing_key[0] && !c->grant_key_file[0]) {
		log_err("grant-signing-key (or the deprecated grant-key-file) is required (see spare-broker(8))");
		return -1;
	}
	if (spare_grant_keys_load(k, c->grant_key_file, c->grant_signing_key, c->grant_key_id,
				  c->grant_public_keys, why, sizeof(why))) {
		log_err("%s", why);	/* names the setting and the file */
		return -1;
	}
	if (!k->has_sign)
		log_warn("grant-key-file without grant-signing-key: issuing version 1 (HMAC) grants, which any donor holding the same key can forge; deprecated (Documentation/admin-guide.md, \"Grant keys\")");
	return 0;
}

static int open_listener(struct broker *b)
{
	char host[128], port_s[8];
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const char *why;
	uint16_t port;
	int fd, one = 1, ret;

	if (spare_http_parse_listen(b->cfg.listen, host, sizeof(host), &port, &why)) {
		log_err("listen %s: %s", b->cfg.listen, why);
		return -1;
	}
	snprintf(port_s, sizeof(port_s), "%u", port);
	ret = getaddrinfo(host[0] ? host : NULL, port_s, &hints, &ai);
	if (ret) {
		log_err("listen %s: %s", b->cfg.listen, gai_strerror(ret));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1024) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		log_err("listen %s: %s", b->cfg.listen, strerror(errno));
		freeaddrinfo(ai);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	freeaddrinfo(ai);
	port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					      : ((struct sockaddr_in *)&ss)->sin_port);
	b->listen_src.kind = SRC_LISTEN;
	b->listen_src.fd = fd;
	log_info("listening on %s (port %u) as broker %s", b->cfg.listen, port, b->cfg.broker_id);
	if (b->cfg.port_file[0]) {
		char tmp[300];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", b->cfg.port_file);
		f = fopen(tmp, "we");
		if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f) || rename(tmp, b->cfg.port_file)) {
			log_err("port-file %s: %s", b->cfg.port_file, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int add_src(struct broker *b, struct src *s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = s };

	if (epoll_ctl(b->epfd, EPOLL_CTL_ADD, s->fd, &ev)) {
		log_err("epoll_ctl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int periodic(struct src *s, enum src_kind kind, uint64_t ms)
{
	struct itimerspec its = {
		.it_value.tv_sec = (time_t)(ms / 1000),
		.it_value.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	its.it_interval = its.it_value;
	s->kind = kind;
	s->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->fd < 0 || timerfd_settime(s->fd, 0, &its, NULL)) {
		log_err("timerfd: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int setup(struct broker *b)
{
	struct spare_grant_keys keys;
	char why[512];
	sigset_t mask;
	uint64_t seed;
	uint64_t wd = spare_notify_watchdog_ms();
	int ret;

	if (!b->cfg.host_keys[0]) {
		log_err("host-keys is required (see spare-broker(8))");
		return -1;
	}
	if (spare_host_keys_load(b->cfg.host_keys, &b->hk, why, sizeof(why))) {
		log_err("host-keys %s", why);
		return -1;
	}
	if (read_grant_keys(&b->cfg, &keys))
		return -1;
	randombytes_buf(&seed, sizeof(seed));
	randombytes_buf(b->dummy_key, sizeof(b->dummy_key));
	if (bstate_init(&b->st, b->cfg.max_donors, b->cfg.missed_hb, b->cfg.lease_s,
			b->cfg.skew_s, NULL, seed)) {
		spare_grant_keys_wipe(&keys);
		log_err("out of memory for %u donors", b->cfg.max_donors);
		return -1;
	}
	bstate_set_grant_keys(&b->st, &keys);	/* it signs: read_grant_keys() saw to it */
	bstate_set_grant_v3(&b->st, b->cfg.grant_version == 3);
	log_info("grants: version %d, key id %u from %s; %u more public keys for renewals%s",
		 keys.has_sign ? 2 : 1, b->cfg.grant_key_id,
		 keys.has_sign ? b->cfg.grant_signing_key : b->cfg.grant_key_file, keys.npub,
		 b->cfg.grant_version == 3 ?
		 "; version 3 (each donor's own key) to donors that take it (grant-version 3)" : "");
	spare_grant_keys_wipe(&keys);
	b->st.max_hb_ms = b->cfg.max_hb_ms;
	if (bstate_set_caps(&b->st, b->cfg.max_donor_bytes, b->cfg.client_share_pct,
			    b->cfg.max_client_grants)) {
		log_err("max-donor-bytes, max-client-share or max-client-grants out of range");
		return -1;
	}
	bstate_set_fair_share(&b->st, b->cfg.fair_share);
	ret = bstate_set_sign_threads(&b->st, b->cfg.sign_threads);
	if (ret) {
		log_err("sign-threads %u: cannot start the signing threads: %s",
			b->cfg.sign_threads, strerror(-ret));
		return -1;
	}
	if (b->cfg.sign_threads)
		log_info("grants: a request's grants signed on %u threads beside the event loop (sign-threads)",
			 b->cfg.sign_threads);
	b->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (b->epfd < 0) {
		log_err("epoll_create1: %s", strerror(errno));
		return -1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	b->sig_src.kind = SRC_SIGNAL;
	b->sig_src.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (b->sig_src.fd < 0 || add_src(b, &b->sig_src))
		return -1;
	b->cfg.max_conns = spare_fd_conn_cap("max-conns", b->cfg.max_conns, spare_fd_raise_limit());
	b->accept_gate.name = "listener";
	if (open_listener(b) || add_src(b, &b->listen_src))
		return -1;
	if (periodic(&b->tick_src, SRC_TICK, TICK_MS) || add_src(b, &b->tick_src))
		return -1;
	b->http_src.fd = b->wd_src.fd = -1;
	if (b->cfg.metrics_listen[0]) {
		b->http = spare_http_start(b->cfg.metrics_listen, metrics_page, b);
		if (!b->http)
			return -1;
		b->http_src.kind = SRC_HTTP;
		b->http_src.fd = spare_http_fd(b->http);
		if (add_src(b, &b->http_src))
			return -1;
	}
	if (wd) {
		if (periodic(&b->wd_src, SRC_WATCHDOG, wd) || add_src(b, &b->wd_src))
			return -1;
	}
	return 0;
}

/* ---- SIGHUP: the settings and key files again ---- */

/* What a reload may change while peers stay connected. */
static const char *const live_keys[] = {
	"host-keys", "grant-key-file", "grant-signing-key", "grant-public-keys",
	"grant-key-id", "grant-version", "lease", "clock-skew",
	"missed-heartbeats", "max-heartbeat", "max-conns", "hello-timeout",
	"max-handshakes", "max-client-share", "fair-share", "max-client-grants",
	"max-donor-bytes", "legacy-renew", "log-level", NULL
};

static struct spare_cli broker_cli;	/* main()'s, for a reload */
static struct spare_conf_vals running_vals;
static int main_argc;
static char **main_argv;

static void cfg_reset(void *ctx)
{
	memset(ctx, 0, sizeof(struct cfg));
}

static unsigned long nofile_now(void)
{
	struct rlimit rl;

	return getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ?
	       1024 : (unsigned long)rl.rlim_cur;
}

/*
 * Read the config and the key files again; apply all of it or none. The
 * peers that authenticated stay (their proofs were checked at HELLO);
 * new HELLOs are checked against the new host-keys.
 */
static void reload(struct broker *b)
{
	static struct cfg nc;
	struct spare_cli cli = broker_cli;
	struct spare_conf_vals nv = { 0 };
	struct spare_host_keys hk = { 0 };
	struct spare_grant_keys keys;
	char why[256];

	spare_notify_reloading();
	log_info("SIGHUP: reading the settings and key files again");
	cli.ctx = &nc;
	cli.vals = &nv;
	if (spare_cli_reload(&cli, main_argc, main_argv, &running_vals, cfg_reset))
		goto refuse;
	if (!nc.broker_id[0])	/* the host name, as at start */
		memcpy(nc.broker_id, b->cfg.broker_id, sizeof(nc.broker_id));
	if (!nc.host_keys[0]) {
		log_err("SIGHUP: host-keys is required");
		goto refuse;
	}
	if (spare_host_keys_load(nc.host_keys, &hk, why, sizeof(why))) {
		log_err("host-keys %s", why);	/* @why names the file */
		goto refuse;
	}
	if (read_grant_keys(&nc, &keys))
		goto refuse;

	/* All read: apply it all. Nothing below fails (the caps were parsed in range). */
	nc.max_conns = spare_fd_conn_cap("max-conns", nc.max_conns, nofile_now());
	spare_host_keys_free(&b->hk);
	b->hk = hk;
	/*
	 * c->key and c->hkey pointed into the old table. A session whose
	 * name is still there, in a role that still allows it, keeps going on
	 * the new entry (a rotated key does not drop it: it proved itself
	 * under the old one); a revoked name or role ends its session.
	 */
	for (struct conn *c = b->conns, *next; c; c = next) {
		const struct spare_host_key *k = NULL;

		next = c->next;
		c->key = NULL;
		if (!c->hkey)
			continue;
		for (unsigned int i = 0; i < b->hk.n; i++)
			if (!strncmp(b->hk.v[i].name, c->name, BROKER_NAME_LEN))
				k = &b->hk.v[i];
		if (k && (k->roles & role_bit(c->role))) {
			c->hkey = k;
			continue;
		}
		log_warn("SIGHUP: %.*s (%s) is no longer in host-keys as %s: closing its session",
			 BROKER_NAME_LEN, c->name, c->peer, role_a(c->role));
		c->hkey = NULL;
		conn_close(b, c);
	}
	bstate_set_grant_keys(&b->st, &keys);
	spare_grant_keys_wipe(&keys);
	bstate_set_grant_v3(&b->st, nc.grant_version == 3);
	b->st.lease_s = nc.lease_s;
	b->st.skew_s = nc.skew_s;
	b->st.missed_hb = nc.missed_hb;
	b->st.max_hb_ms = nc.max_hb_ms;
	bstate_set_caps(&b->st, nc.max_donor_bytes, nc.client_share_pct, nc.max_client_grants);
	bstate_set_fair_share(&b->st, nc.fair_share);
	spare_log_set_level((enum spare_log_level)nc.log_level);
	b->cfg = nc;
	spare_cli_log_changes(&cli, &running_vals);
	spare_conf_vals_free(&running_vals);
	running_vals = nv;
	log_info("SIGHUP: reloaded: %u peers in host-keys %s, grant key id %u from %s (version %d grants), %u public keys for renewals",
		 b->hk.n, b->cfg.host_keys, b->cfg.grant_key_id,
		 b->st.keys.has_sign ? b->cfg.grant_signing_key : b->cfg.grant_key_file,
		 b->st.keys.has_sign ? 2 : 1, b->st.keys.npub);
	spare_notify_ready("listening on %s", b->cfg.listen);
	return;
refuse:
	spare_host_keys_free(&hk);
	spare_conf_vals_free(&nv);
	log_err("SIGHUP: reload refused: still running on the previous settings and keys");
	spare_notify_ready("listening on %s (last reload refused)", b->cfg.listen);
}

static void run(struct broker *b)
{
	struct epoll_event ev[64];

	while (!b->stopping) {
		int n = epoll_wait(b->epfd, ev, 64, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_err("epoll_wait: %s", strerror(errno));
			return;
		}
		for (int i = 0; i < n; i++) {
			struct src *s = ev[i].data.ptr;
			struct signalfd_siginfo si;
			uint64_t x;

			switch (s->kind) {
			case SRC_LISTEN:
				on_accept(b);
				break;
			case SRC_SIGNAL:
				if (read(s->fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
					if (si.ssi_signo == SIGHUP) {
						reload(b);
					} else {
						log_info("%s: stopping", strsignal((int)si.ssi_signo));
						spare_notify_stopping();
						b->stopping = true;
					}
				}
				break;
			case SRC_TICK:
				on_tick(b);
				break;
			case SRC_HTTP:
				spare_http_run(b->http);
				break;
			case SRC_WATCHDOG:
				if (read(s->fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
					log_warn("watchdog timerfd: %s", strerror(errno));
				spare_notify_watchdog();
				break;
			case SRC_CONN:
				if (((struct conn *)s)->state != C_DEAD)
					conn_event(b, (struct conn *)s, ev[i].events);
				break;
			}
		}
		free_dead(b);
	}
}

static void teardown(struct broker *b)
{
	while (b->conns)
		conn_close(b, b->conns);
	free_dead(b);
	spare_http_stop(b->http);
	for (struct src *s = &b->listen_src; s <= &b->wd_src; s++)
		if (s->fd > 0)
			close(s->fd);
	if (b->epfd > 0)
		close(b->epfd);
	spare_host_keys_free(&b->hk);
	bstate_free(&b->st);
	sodium_memzero(b->dummy_key, sizeof(b->dummy_key));
}

int main(int argc, char **argv)
{
	static struct broker b;
	struct spare_cli cli = {
		.usage = "Place slabs on donors for spare clients and sign their grants.\n",
		.epilog = "\nSIGHUP reads the settings and key files again; SIGTERM/SIGINT stop.\n"
			  "State is soft: it is rebuilt from donors' heartbeats.\n",
		.default_conf = BROKER_DEFAULT_CONF,
		.settings = settings,
		.nsettings = ARRAY_SIZE(settings),
		.set = cfg_set,
		.ctx = &b.cfg,
		.vals = &running_vals,
		.live_keys = live_keys,
	};
	int ret;

	spare_log_init("spare-broker", SPARE_LOG_INFO);
	if (sodium_init() < 0) {
		log_err("libsodium cannot start");
		return 1;
	}
	ret = spare_cli_configure(&cli, argc, argv);
	if (ret) {
		spare_conf_vals_free(&running_vals);
		return ret > 0 ? 0 : 2;
	}
	spare_log_set_level((enum spare_log_level)b.cfg.log_level);
	broker_cli = cli;
	main_argc = argc;
	main_argv = argv;
	if (!b.cfg.broker_id[0]) {
		char h[256] = "";

		gethostname(h, sizeof(h) - 1);
		h[BROKER_ID_LEN - 1] = 0;
		for (char *p = h; *p; p++)
			if (*p < 0x21 || *p > 0x7e)
				*p = '_';
		if (!h[0])
			strcpy(h, "broker");
		memcpy(b.cfg.broker_id, h, BROKER_ID_LEN);
	}
	b.start_ms = spare_now_ms();
	if (setup(&b)) {
		teardown(&b);
		spare_conf_vals_free(&running_vals);
		return 1;
	}
	spare_notify_ready("listening on %s", b.cfg.listen);
	run(&b);
	teardown(&b);
	spare_conf_vals_free(&running_vals);
	log_dbg("stopped");
	return 0;
}
