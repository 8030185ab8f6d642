// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: rdma_cm events, client sessions, the control
 * protocol, and lending/revoking slabs.
 *
 * Every client session owns one protection domain. Its CONTROL connection
 * carries the messages; its DATA connections are bound to it by the
 * session cookie and live in the same PD, so the rkeys of its slabs are
 * valid on them and nowhere else. A client that breaks the protocol loses
 * its session and nothing else: the rest of the daemon never depends on a
 * peer behaving.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "slabmem.h"
#include "spare_fdlimit.h"
#include "hold.h"
#include "spared.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

#define WRID_SEND	(1ULL << 32)
#define WRID_INDEX(w)	((uint32_t)((w) & 0xffffffffULL))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static const char *peer_host(struct rdma_cm_id *id, char *buf, size_t len)
{
	struct sockaddr *sa = rdma_get_peer_addr(id);
	const void *a = NULL;

	if (sa && sa->sa_family == AF_INET)
		a = &((struct sockaddr_in *)sa)->sin_addr;
	else if (sa && sa->sa_family == AF_INET6)
		a = &((struct sockaddr_in6 *)sa)->sin6_addr;
	if (!a || !inet_ntop(sa->sa_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

static const char *peer_name(struct rdma_cm_id *id, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	snprintf(buf, len, "%s:%u", peer_host(id, host, sizeof(host)),
		 ntohs(rdma_get_dst_port(id)));
	return buf;
}

/* ---- failing a session ---- */

static void session_fail(struct session *sess, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Close one client's session: log why, disconnect its control connection
 * now (so the peer learns at once) and leave the teardown to
 * spared_reap_sessions() at the end of this loop turn, when no handler
 * still holds a pointer into it.
 */
/*
 * Mark a session for teardown and disconnect its control connection.
 *
 * A client may send before our ESTABLISHED event (its RTU still in
 * flight). The CM cannot send a DREQ before that, and destroying the id
 * then would leave the client believing it is connected; forcing the state
 * with rdma_notify() makes rdma_destroy_id() hang in the kernel (seen on
 * 6.1 rxe). So the disconnect waits for ESTABLISHED, or at most
 * SPARED_LINGER_MS, and the session is reaped only after it.
 */
static void session_mark_dead(struct session *sess)
{
	sess->dead = true;
	sess->dead_ms = spare_now_ms();
	if (!sess->ctrl.established) {
		sess->disconnect_pending = true;
		spared_arm_timer(sess->d);
		return;
	}
	if (sess->ctrl.id && rdma_disconnect(sess->ctrl.id))
		log_dbg("client %s: rdma_disconnect: %s", sess->name,
			strerror(errno));
}

static void session_fail(struct session *sess, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (sess->dead)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_warn("client %s: closing session: %s", sess->name, why);
	session_mark_dead(sess);
}

/* The peer broke the protocol: count it, then close only its session. */
static void session_bad_msg(struct session *sess, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void session_bad_msg(struct session *sess, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	sess->d->ctr.bad_msgs++;
	session_fail(sess, "bad message: %s", why);
}

/* ---- message buffers ---- */

static struct spare_msg *recv_buf(struct session *sess, uint32_t i)
{
	return &sess->bufs[i];
}

static struct spare_msg *send_buf(struct session *sess, uint32_t i)
{
	return &sess->bufs[SPARED_RECV_DEPTH + i];
}

static int post_recv(struct session *sess, uint32_t i)
{
	struct ibv_sge sge = {
		.addr	= (uintptr_t)recv_buf(sess, i),
		.length	= SPARE_MSG_SIZE,
		.lkey	= sess->bufs_mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id	 = i,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	int ret;

	ret = ibv_post_recv(sess->ctrl.id->qp, &wr, &bad);
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

static int post_send(struct session *sess, const struct spare_msg *m)
{
	uint32_t i = sess->send_free[--sess->nsend_free];
	struct ibv_sge sge = {
		.addr	= (uintptr_t)send_buf(sess, i),
		.length	= SPARE_MSG_SIZE,
		.lkey	= sess->bufs_mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id	    = WRID_SEND | i,
		.sg_list    = &sge,
		.num_sge    = 1,
		.opcode	    = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	int ret;

	memcpy(send_buf(sess, i), m, sizeof(*m));
	ret = ibv_post_send(sess->ctrl.id->qp, &wr, &bad);
	if (ret) {
		sess->send_free[sess->nsend_free++] = i;
		errno = ret;
		return -1;
	}
	sess->msgs_out++;
	return 0;
}

static bool can_send_now(const struct session *sess)
{
	unsigned int outstanding = SPARED_SEND_DEPTH - sess->nsend_free;

	return sess->nsend_free && outstanding < sess->send_limit;
}

static void session_send(struct session *sess, const struct spare_msg *m)
{
	unsigned int tail;

	if (sess->dead)
		return;
	if (!sess->backlog_len && can_send_now(sess)) {
		if (post_send(sess, m))
			session_fail(sess, "ibv_post_send: %s", strerror(errno));
		return;
	}
	if (sess->backlog_len == SPARED_BACKLOG) {
		session_fail(sess, "client does not take its messages (%u queued)",
			     SPARED_BACKLOG);
		return;
	}
	tail = (sess->backlog_head + sess->backlog_len) % SPARED_BACKLOG;
	sess->backlog[tail] = *m;
	sess->backlog_len++;
}

static void drain_backlog(struct session *sess)
{
	while (!sess->dead && sess->backlog_len && can_send_now(sess)) {
		if (post_send(sess, &sess->backlog[sess->backlog_head])) {
			session_fail(sess, "ibv_post_send: %s", strerror(errno));
			return;
		}
		sess->backlog_head = (sess->backlog_head + 1) % SPARED_BACKLOG;
		sess->backlog_len--;
	}
}

/* ---- slabs ---- */

/* Register the slab's memory in the client's PD. */
static int slab_register(struct session *sess, struct slab *s)
{
	struct ibv_mr *mr;

	mr = ibv_reg_mr(sess->pd, s->mem, sess->d->pool.slab_size,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_WRITE);
	if (!mr) {
		log_err("slab %u: ibv_reg_mr for client %s: %s", s->index,
			sess->name, strerror(errno));
		return -1;
	}
	s->mr = mr;
	return 0;
}

/* Map (first time) or populate the slab's memory and register it in the
 * client's PD. The memory is zero: fresh, or scrubbed when last released. */
static int slab_lend(struct session *sess, struct slab *s)
{
	struct spared *d = sess->d;
	size_t size = d->pool.slab_size;

	if (!s->mem) {
		s->mem = slab_mem_alloc(size, &s->memfd);
		if (!s->mem) {
			log_err("slab %u: mmap of %zu bytes: %s", s->index, size,
				strerror(errno));
			return -1;
		}
	} else {
		slab_mem_populate(s->mem, size);
	}
	return slab_register(sess, s);
}

/* Revoke the client's access (deregister the MR), zero the memory and
 * return the slab to the pool. */
static void slab_release(struct spared *d, struct slab *s,
			 enum slab_release_why why)
{
	struct ibv_mr *mr = s->mr;
	int ret;

	if (mr) {
		ret = ibv_dereg_mr(mr);
		if (ret) {
			/* Still registered: the client may still reach it.
			 * Zero it, and never lend this memory again. */
			log_err("slab %u: ibv_dereg_mr: %s; retiring its memory",
				s->index, strerror(ret));
			memset(s->mem, 0, d->pool.slab_size);
			s->mem = NULL;
		}
		s->mr = NULL;
	}
	if (s->mem)
		slab_mem_scrub(s->mem, s->memfd, d->pool.slab_size);
	slab_pool_put(&d->pool, s, why);
	if (s->state == SLAB_OFFLINE) {
		/* Above the capacity: the host gets the mapping back. */
		slab_mem_free(s->mem, s->memfd, d->pool.slab_size);
		s->mem = NULL;
		log_info("slab %u retired: the pool shrinks to %u slabs",
			 s->index, slab_pool_in_service(&d->pool));
	}
}

/* ---- messages from a client ---- */

static void reply_mapped_flags(struct session *sess, uint32_t seq,
			       uint32_t slab_id, enum spare_status st,
			       const struct slab *s, uint32_t flags)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_MAPPED, seq);
	m.mapped.slab_id = htole32(slab_id);
	m.mapped.status = htole32(st);
	if (st == SPARE_ST_OK) {
		m.mapped.addr = htole64((uintptr_t)s->mem);
		m.mapped.rkey = htole32(((struct ibv_mr *)s->mr)->rkey);
		m.mapped.flags = htole32(flags);
	}
	session_send(sess, &m);
}

static void reply_mapped(struct session *sess, uint32_t seq, uint32_t slab_id,
			 enum spare_status st, const struct slab *s)
{
	reply_mapped_flags(sess, seq, slab_id, st, s, 0);
}

static bool try_resume(struct session *sess);

static void supersede_sessions(struct spared *d, const uint8_t *uuid,
			       const char *host, const char *client, const char *peer,
			       const struct session *keep);

/* HELLO_REPLY, once the client is known (or the donor is open). */
static void finish_hello(struct session *sess, uint32_t seq, uint8_t slab_shift)
{
	struct spared *d = sess->d;
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, seq);
	m.hello_reply.slab_shift = (uint8_t)d->cfg.slab_shift;
	if (slab_shift != d->cfg.slab_shift) {
		log_warn("client %s: HELLO asks for slabs of 2^%u bytes, this donor serves 2^%u",
			 sess->name, slab_shift, d->cfg.slab_shift);
		m.hello_reply.status = htole32(SPARE_ST_BAD_SLAB_SIZE);
		session_send(sess, &m);
		return;
	}
	sess->hello_done = true;
	if (sess->client[0]) {
		strcpy(sess->owner, sess->client);
	} else {
		for (unsigned int i = 0; i < sizeof(sess->uuid); i++)
			sprintf(sess->owner + 2 * i, "%02x", sess->uuid[i]);
	}
	if (sess->resume_open)
		try_resume(sess);
	/* A resumed session keeps its token; a new one gets a fresh one. */
	if (sess->hold && !sess->resume_token &&
	    (spare_random_bytes(&sess->resume_token, sizeof(sess->resume_token)) ||
	     !sess->resume_token)) {
		log_warn("client %s: no resume token could be drawn: its slabs will not be held",
			 sess->name);
		sess->resume_token = 0;
		sess->hold = false;
	}
	m.hello_reply.status = htole32(SPARE_ST_OK);
	m.hello_reply.session_cookie = htole64(sess->cookie);
	m.hello_reply.resume_token = htole64(sess->hold ? sess->resume_token : 0);
	m.hello_reply.free_slabs = htole32(d->pool.nfree);
	session_send(sess, &m);
	log_info("client %s: HELLO: session ready, %u slabs free", sess->name,
		 d->pool.nfree);
}

/*
 * Refuse a client that did not authenticate: say why in HELLO_REPLY and
 * take nothing more from it. The client closes the connection on reading
 * the status; one that does not is closed at hello-timeout. (Closing here
 * would flush the reply before it leaves.)
 */
static void refuse_auth_quiet(struct session *sess, uint32_t seq, enum spare_status st)
{
	struct spare_msg m;

	sess->d->ctr.auth_refused++;
	sess->auth = AUTH_REFUSED;
	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, seq);
	m.hello_reply.status = htole32(st);
	session_send(sess, &m);
}

static void refuse_auth(struct session *sess, uint32_t seq,
			enum spare_status st, const char *why)
{
	log_warn("client %s: refused: %s", sess->name, why);
	refuse_auth_quiet(sess, seq, st);
}

/*
 * refuse_auth() for a refusal a key holder can repeat at will (its
 * addr=): one line per SPARE_FD_LOG_MS, saying how many were held back.
 */
static void refuse_auth_limited(struct session *sess, uint32_t seq,
				enum spare_status st, const char *why)
{
	static struct spare_ratelimit rl;
	unsigned long held;

	if (spare_ratelimit_ok(&rl, spare_now_ms(), SPARE_FD_LOG_MS, &held))
		log_warn("client %s: refused: %s (%lu more such refusals not logged)",
			 sess->name, why, held);
	refuse_auth_quiet(sess, seq, st);
}

static void on_hello(struct session *sess, const struct spare_msg *in, uint32_t seq)
{
	struct spared *d = sess->d;
	struct spare_msg m;

	if (sess->hello_done || sess->auth != AUTH_NONE) {
		session_bad_msg(sess, "second HELLO");
		return;
	}
	if (memcmp(in->hello.client_uuid, sess->uuid, sizeof(sess->uuid))) {
		session_bad_msg(sess, "HELLO uuid differs from the connection's");
		return;
	}
	/* Held slabs only if this donor holds at all (resume-hold 0: never). */
	sess->hold = (in->hello.flags & SPARE_HELLO_F_HOLD) &&
		     d->cfg.resume_hold_s;
	sess->resume_open = in->hello.flags & SPARE_HELLO_F_RESUME;
	sess->resume_shown = le64toh(in->hello.resume_token);
	if (!(in->hello.flags & SPARE_HELLO_F_AUTH)) {
		if (d->keys.n) {
			refuse_auth(sess, seq, SPARE_ST_AUTH_REQUIRED,
				    "no key (this donor has host-keys; give the client a key)");
			return;
		}
		finish_hello(sess, seq, in->hello.slab_shift);
		return;
	}
	if (!d->keys.n) {
		/* Open donor: the client will refuse an unproven donor itself. */
		log_info("client %s: asks to authenticate; this donor has no host-keys (open mode)",
			 sess->name);
		finish_hello(sess, seq, in->hello.slab_shift);
		return;
	}
	memcpy(sess->nonce_c, in->hello.nonce, sizeof(sess->nonce_c));
	do
		spare_auth_nonce(sess->nonce_d);
	while (!memcmp(sess->nonce_d, sess->nonce_c, sizeof(sess->nonce_d)));
	sess->auth = AUTH_WAIT_RESPONSE;
	sess->hello_shift = in->hello.slab_shift;
	spare_msg_init(&m, SPARE_MSG_AUTH_CHALLENGE, seq);
	memcpy(m.auth_challenge.nonce, sess->nonce_d, sizeof(sess->nonce_d));
	memcpy(m.auth_challenge.donor_id, d->donor_id, sizeof(d->donor_id));
	session_send(sess, &m);
}

static void on_auth_response(struct session *sess, const struct spare_msg *in,
			     uint32_t seq)
{
	struct spared *d = sess->d;
	const struct spare_host_key *k;
	struct spare_msg m;
	char why[256];

	if (sess->auth != AUTH_WAIT_RESPONSE) {
		session_bad_msg(sess, "AUTH_RESPONSE without a challenge outstanding");
		return;
	}
	k = spare_host_keys_match(&d->keys, in->auth_response.mac, sess->uuid,
				  d->donor_id, sess->nonce_c, sess->nonce_d);
	if (!k) {
		refuse_auth(sess, seq, SPARE_ST_AUTH_FAILED,
			    "authentication failed (wrong key, or a host not in host-keys)");
		return;
	}
	/* a key with addr= binds where its client connects from */
	if (spare_host_key_from_refused(k, sess->host, why, sizeof(why))) {
		refuse_auth_limited(sess, seq, SPARE_ST_AUTH_FAILED, why);
		return;
	}
	sess->auth = AUTH_DONE;
	d->ctr.auth_ok++;
	snprintf(sess->client, sizeof(sess->client), "%s", k->name);
	log_info("client %s: authenticated as %s", sess->name, k->name);
	/* Only a proven client may end its own earlier session. */
	supersede_sessions(d, sess->uuid, sess->host, sess->client, sess->name, sess);
	spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, seq);
	spare_auth_mac(m.auth_response.mac, k->key, SPARE_AUTH_DIR_DONOR,
		       sess->uuid, d->donor_id, sess->nonce_c, sess->nonce_d);
	session_send(sess, &m);
	finish_hello(sess, seq, sess->hello_shift);
}

static uint64_t wall_seconds(void)
{
	return (uint64_t)time(NULL);
}

/* A whole grant arrived: verify it and add it to the client's budget. */
static void grant_arrived(struct session *sess)
{
	struct spared *d = sess->d;
	struct spare_grant_info info;
	bool known;
	int ret;

	if (!d->grants_on) {
		log_info("client %s: sent a grant; this donor has no grant-key-file and needs none",
			 sess->name);
		return;
	}
	ret = spared_grant_accept(&d->grants, sess->grx.buf, sizeof(sess->grx.buf), false,
				  sess->client[0] ? sess->client : NULL, sess->owner,
				  wall_seconds(), &info, &known);
	if (ret) {
		d->ctr.grants_refused++;
		log_warn("client %s: grant refused: %s", sess->name, spare_grant_strerror(ret));
		return;
	}
	if (!known)
		d->ctr.grants_accepted++;
	log_info("client %s: grant %016" PRIx64 " for %u slab(s) until %" PRIu64 "%s; %" PRIu64
		 " slab(s) granted in all", sess->name, spared_grant_token(info.id), info.slabs,
		 info.expiry, known ? " (known already)" : "",
		 spared_grant_budget(&d->grants, sess->owner, wall_seconds()));
}

static void on_grant(struct session *sess, const struct spare_msg *in)
{
	int ret = spare_grant_part_take(&sess->grx, in);

	if (ret < 0) {
		session_bad_msg(sess, "GRANT part %u out of order", in->grant.part);
		return;
	}
	if (ret > 0)
		grant_arrived(sess);
}

/* Slabs held (lent or being evicted) by any session of @owner. */
static uint64_t slabs_held(const struct spared *d, const char *owner)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < d->pool.nslabs; i++) {
		const struct slab *s = &d->pool.slabs[i];
		const struct session *o = s->owner;

		if ((s->state == SLAB_LENT || s->state == SLAB_EVICTING) && o &&
		    !strcmp(o->owner, owner))
			n++;
	}
	return n;
}

/* With a grant key: does a grant the client sent cover one more slab? */
static bool map_granted(struct session *sess, uint32_t id, uint64_t token)
{
	struct spared *d = sess->d;
	uint64_t now = wall_seconds(), budget, held;

	if (!d->grants_on)
		return true;
	if (!token) {
		log_warn("client %s: MAP slab %u refused: no grant (this donor lends only against a broker's grant)",
			 sess->name, id);
		return false;
	}
	if (!spared_grant_held(&d->grants, sess->owner, token, now)) {
		log_warn("client %s: MAP slab %u refused: grant %016" PRIx64
			 " was not accepted from this client, or has expired", sess->name, id, token);
		return false;
	}
	budget = spared_grant_budget(&d->grants, sess->owner, now);
	held = slabs_held(d, sess->owner);
	if (held >= budget) {
		log_warn("client %s: MAP slab %u refused: its grants cover %" PRIu64
			 " slab(s), all in use", sess->name, id, budget);
		return false;
	}
	return true;
}

static void on_map(struct session *sess, const struct spare_msg *in, uint32_t seq)
{
	struct spared *d = sess->d;
	uint32_t id = le32toh(in->map.slab_id);
	struct slab *s;

	/*
	 * A slab held for this client (adopted at HELLO): it comes back with
	 * its contents, registered in this session's PD. It was granted and
	 * counted when first lent, so no grant is asked again.
	 */
	s = slab_pool_find(&d->pool, sess, id);
	if (s && s->kept) {
		if (slab_register(sess, s)) {
			slab_release(d, s, SLAB_RELEASE_RECLAIM);
			reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
			return;
		}
		s->kept = false;
		d->ctr.slabs_kept++;
		log_info("client %s: MAP slab %u -> donor slab %u, kept with its contents (rkey 0x%x)",
			 sess->name, id, s->index, ((struct ibv_mr *)s->mr)->rkey);
		reply_mapped_flags(sess, seq, id, SPARE_ST_OK, s, SPARE_MAPPED_F_KEPT);
		return;
	}
	if (!map_granted(sess, id, le64toh(in->map.grant))) {
		d->ctr.maps_no_grant++;
		reply_mapped(sess, seq, id, SPARE_ST_BAD_GRANT, NULL);
		return;
	}
	if (slab_pool_find(&d->pool, sess, id)) {
		log_warn("client %s: MAP slab %u: already mapped", sess->name, id);
		reply_mapped(sess, seq, id, SPARE_ST_BUSY, NULL);
		return;
	}
	s = slab_pool_take(&d->pool, sess, id);
	if (!s) {
		log_info("client %s: MAP slab %u: no free slab", sess->name, id);
		reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
		return;
	}
	if (slab_lend(sess, s)) {
		slab_pool_untake(&d->pool, s);
		reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
		return;
	}
	log_info("client %s: MAP slab %u -> donor slab %u (rkey 0x%x)",
		 sess->name, id, s->index, ((struct ibv_mr *)s->mr)->rkey);
	reply_mapped(sess, seq, id, SPARE_ST_OK, s);
}

static void on_unmap(struct session *sess, const struct spare_msg *in)
{
	struct spared *d = sess->d;
	uint32_t id = le32toh(in->unmap.slab_id);
	struct slab *s = slab_pool_find(&d->pool, sess, id);

	if (!s) {
		/* Late answer to an EVICT whose deadline already passed. */
		log_info("client %s: UNMAP slab %u: not mapped (already revoked?)",
			 sess->name, id);
		return;
	}
	log_info("client %s: UNMAP slab %u (donor slab %u%s)", sess->name, id,
		 s->index, s->state == SLAB_EVICTING ? ", was being evicted" : "");
	slab_release(d, s, SLAB_RELEASE_UNMAP);
	spared_arm_timer(d);
}

static void on_activity_reply(struct session *sess, const struct spare_msg *in)
{
	uint32_t id = le32toh(in->activity_reply.slab_id);
	struct slab *s = slab_pool_find(&sess->d->pool, sess, id);

	if (!s) {
		log_dbg("client %s: ACTIVITY_REPLY for slab %u it does not hold",
			sess->name, id);
		return;
	}
	s->accesses = le64toh(in->activity_reply.accesses);
	if (s->sampled && !s->replied) {
		s->replied = true;
		if (sess->d->lend_ops)
			sess->d->lend_ops->activity_reply(sess->d);
	}
}

static void on_heartbeat(struct session *sess, uint32_t seq)
{
	struct spare_msg m;

	/* Answer, never initiate: two answering sides cannot ping-pong. */
	sess->d->ctr.heartbeats++;
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, seq);
	m.heartbeat.now_ns = htole64(spare_now_ns());
	session_send(sess, &m);
}

static void handle_msg(struct session *sess, const struct spare_msg *m,
		       unsigned int type)
{
	uint32_t seq = le32toh(m->hdr.seq);

	log_dbg("client %s: got %s seq %u", sess->name,
		spare_msg_type_name(type), seq);
	if (sess->auth == AUTH_REFUSED) {
		session_bad_msg(sess, "%s after its authentication was refused",
				spare_msg_type_name(type));
		return;
	}
	if (type != SPARE_MSG_HELLO && type != SPARE_MSG_HEARTBEAT &&
	    type != SPARE_MSG_AUTH_RESPONSE && !sess->hello_done) {
		session_bad_msg(sess, "%s before a successful HELLO",
				spare_msg_type_name(type));
		return;
	}
	switch (type) {
	case SPARE_MSG_HELLO:
		on_hello(sess, m, seq);
		return;
	case SPARE_MSG_AUTH_RESPONSE:
		if (sess->hello_done) {
			session_bad_msg(sess, "AUTH_RESPONSE after HELLO_REPLY");
			return;
		}
		on_auth_response(sess, m, seq);
		return;
	case SPARE_MSG_MAP:
		on_map(sess, m, seq);
		return;
	case SPARE_MSG_UNMAP:
		on_unmap(sess, m);
		return;
	case SPARE_MSG_ACTIVITY_REPLY:
		on_activity_reply(sess, m);
		return;
	case SPARE_MSG_HEARTBEAT:
		on_heartbeat(sess, seq);
		return;
	case SPARE_MSG_GRANT:
		on_grant(sess, m);
		return;
	}
	session_bad_msg(sess, "%s is a donor's message",
			spare_msg_type_name(type));
}

/* ---- completions ---- */

static void handle_wc(struct session *sess, const struct ibv_wc *wc)
{
	bool is_send = wc->wr_id & WRID_SEND;
	uint32_t i = WRID_INDEX(wc->wr_id);
	struct spare_msg m;
	unsigned int type;
	int err;

	if (wc->qp_num != sess->ctrl.id->qp->qp_num) {
		/* DATA QPs post nothing; nothing of theirs should complete. */
		log_warn("client %s: unexpected completion on qp %u: %s",
			 sess->name, wc->qp_num, ibv_wc_status_str(wc->status));
		return;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		if (sess->dead && wc->status == IBV_WC_WR_FLUSH_ERR)
			return;
		/* A SEND longer than our receive buffer: mlx5 reports a length
		 * error, rxe a QP operation error. Either way it is the
		 * peer's doing. */
		if (!is_send && (wc->status == IBV_WC_LOC_LEN_ERR ||
				 wc->status == IBV_WC_LOC_QP_OP_ERR)) {
			session_bad_msg(sess, "does not fit a %u-byte receive (%s)",
					SPARE_MSG_SIZE,
					ibv_wc_status_str(wc->status));
			return;
		}
		session_fail(sess, "%s completion: %s", is_send ? "send" : "receive",
			     ibv_wc_status_str(wc->status));
		return;
	}
	if (is_send) {
		if (i >= SPARED_SEND_DEPTH) {
			session_fail(sess, "bad send completion id");
			return;
		}
		sess->send_free[sess->nsend_free++] = i;
		drain_backlog(sess);
		return;
	}
	if (i >= SPARED_RECV_DEPTH) {
		session_fail(sess, "bad receive completion id");
		return;
	}
	sess->msgs_in++;
	memcpy(&m, recv_buf(sess, i), sizeof(m));
	err = spare_msg_check(&m, wc->byte_len, &type);
	if (post_recv(sess, i)) {
		session_fail(sess, "ibv_post_recv: %s", strerror(errno));
		return;
	}
	if (err) {
		session_bad_msg(sess, "%s (%u bytes, type field %u)",
				spare_proto_strerror(err), wc->byte_len,
				le16toh(m.hdr.type));
		return;
	}
	handle_msg(sess, &m, type);
}

static void channel_handler(struct spared *d, struct ev_source *src,
			    uint32_t events)
{
	struct session *sess = container_of(src, struct session, channel_src);
	struct ibv_wc wc[16];
	struct ibv_cq *cq;
	void *ctx;
	int n, k, ret;

	if (ibv_get_cq_event(sess->channel, &cq, &ctx)) {
		if (errno != EAGAIN)
			session_fail(sess, "ibv_get_cq_event: %s", strerror(errno));
		return;
	}
	if (++sess->cq_unacked >= 64) {
		ibv_ack_cq_events(sess->cq, sess->cq_unacked);
		sess->cq_unacked = 0;
	}
	/* A dead session's CQ is not re-armed: its channel goes quiet. */
	if (sess->dead)
		return;
	ret = ibv_req_notify_cq(sess->cq, 0);
	if (ret) {
		session_fail(sess, "ibv_req_notify_cq: %s", strerror(ret));
		return;
	}
	do {
		n = ibv_poll_cq(sess->cq, (int)ARRAY_SIZE(wc), wc);
		if (n < 0) {
			session_fail(sess, "ibv_poll_cq failed");
			return;
		}
		for (k = 0; k < n && !sess->dead; k++)
			handle_wc(sess, &wc[k]);
	} while (n > 0 && !sess->dead);
}

/* ---- device async events ---- */

static const char *qp_owner(struct spared *d, uint32_t qp_num, char *buf,
			    size_t len)
{
	struct session *s;
	struct conn *c;

	for (s = d->sessions; s; s = s->next) {
		if (s->ctrl.id && s->ctrl.id->qp && s->ctrl.id->qp->qp_num == qp_num) {
			snprintf(buf, len, "client %s control qp %u", s->name, qp_num);
			return buf;
		}
		for (c = s->data; c; c = c->next) {
			if (c->id->qp && c->id->qp->qp_num == qp_num) {
				snprintf(buf, len, "client %s data qp %u", s->name,
					 qp_num);
				return buf;
			}
		}
	}
	snprintf(buf, len, "qp %u", qp_num);
	return buf;
}

/*
 * Asynchronous events of a device: read and ack them, so they never pile
 * up, and log the ones that say a client misused its access (a DATA QP
 * that touched a revoked or foreign slab goes to the error state; the
 * client sees the error and rdma_cm tells us of the disconnect).
 */
static void async_handler(struct spared *d, struct ev_source *src,
			  uint32_t events)
{
	struct spared_async *a = container_of(src, struct spared_async, src);
	struct ibv_async_event ev;
	char who[128];

	while (ibv_get_async_event(a->verbs, &ev) == 0) {
		switch (ev.event_type) {
		case IBV_EVENT_QP_FATAL:
		case IBV_EVENT_QP_REQ_ERR:
		case IBV_EVENT_QP_ACCESS_ERR:
			log_info("%s: %s", qp_owner(d, ev.element.qp->qp_num,
						     who, sizeof(who)),
				 ibv_event_type_str(ev.event_type));
			break;
		case IBV_EVENT_CQ_ERR:
			log_warn("CQ error on %s", ibv_get_device_name(a->verbs->device));
			break;
		case IBV_EVENT_DEVICE_FATAL:
			log_err("RDMA device %s: fatal error",
				ibv_get_device_name(a->verbs->device));
			break;
		default:
			log_dbg("RDMA device %s: %s",
				ibv_get_device_name(a->verbs->device),
				ibv_event_type_str(ev.event_type));
			break;
		}
		ibv_ack_async_event(&ev);
	}
	if (errno != EAGAIN)
		log_warn("ibv_get_async_event: %s", strerror(errno));
}

/* Watch @verbs for async events, once per device. Failure is not fatal:
 * the events then queue in the kernel unread, as before. */
static void watch_device(struct spared *d, struct ibv_context *verbs)
{
	struct spared_async *a;
	unsigned int i;

	for (i = 0; i < d->nasync; i++)
		if (d->async[i].verbs == verbs)
			return;
	if (d->nasync == SPARED_MAX_DEVICES) {
		log_warn("more than %u RDMA devices: not watching %s for async events",
			 SPARED_MAX_DEVICES, ibv_get_device_name(verbs->device));
		return;
	}
	a = &d->async[d->nasync];
	a->verbs = verbs;
	a->src.fd = verbs->async_fd;
	a->src.handle = async_handler;
	if (spare_rdma_nonblock(a->src.fd) || spared_epoll_add(d, &a->src)) {
		log_warn("RDMA device %s: cannot watch async events: %s",
			 ibv_get_device_name(verbs->device), strerror(errno));
		return;
	}
	d->nasync++;
}

/* ---- sessions ---- */

static struct session *find_session(struct spared *d, uint64_t cookie)
{
	struct session *s;

	for (s = d->sessions; s; s = s->next)
		if (!s->dead && s->cookie == cookie)
			return s;
	return NULL;
}

static int new_cookie(struct spared *d, uint64_t *cookie)
{
	do {
		if (spare_random_bytes(cookie, sizeof(*cookie)))
			return -1;
	} while (!*cookie || find_session(d, *cookie));
	return 0;
}

/* Disconnect (if asked and still up) and free one DATA connection that is
 * no longer on its session's list. */
static void data_conn_free(struct session *sess, struct conn *c, bool disconnect)
{
	if (disconnect && c->established && rdma_disconnect(c->id))
		log_dbg("client %s: data rdma_disconnect: %s", sess->name,
			strerror(errno));
	if (c->id->qp)
		rdma_destroy_qp(c->id);
	if (rdma_destroy_id(c->id))
		log_warn("client %s: rdma_destroy_id: %s", sess->name,
			 strerror(errno));
	free(c);
}

static void data_conn_destroy(struct conn *c, bool disconnect)
{
	struct session *sess = c->sess;
	struct conn **pp;

	for (pp = &sess->data; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			sess->ndata--;
			break;
		}
	}
	data_conn_free(sess, c, disconnect);
}

/* Free what session_create() set up, but not the session itself; the
 * control cm_id last. */
static void session_free_rdma(struct session *sess)
{
	struct spared *d = sess->d;
	int ret;

	if (sess->ctrl.id && sess->ctrl.id->qp)
		rdma_destroy_qp(sess->ctrl.id);
	if (sess->bufs_mr && (ret = ibv_dereg_mr(sess->bufs_mr)))
		log_warn("client %s: ibv_dereg_mr(buffers): %s", sess->name,
			 strerror(ret));
	free(sess->bufs);
	if (sess->cq) {
		if (sess->cq_unacked)
			ibv_ack_cq_events(sess->cq, sess->cq_unacked);
		ret = ibv_destroy_cq(sess->cq);
		if (ret)
			log_warn("client %s: ibv_destroy_cq: %s", sess->name,
				 strerror(ret));
	}
	if (sess->channel_in_epoll)
		spared_epoll_del(d, &sess->channel_src);
	if (sess->channel && ibv_destroy_comp_channel(sess->channel))
		log_warn("client %s: ibv_destroy_comp_channel: %s", sess->name,
			 strerror(errno));
	if (sess->pd && (ret = ibv_dealloc_pd(sess->pd)))
		log_warn("client %s: ibv_dealloc_pd: %s", sess->name,
			 strerror(ret));
	if (sess->ctrl.id && rdma_destroy_id(sess->ctrl.id))
		log_warn("client %s: rdma_destroy_id: %s", sess->name,
			 strerror(errno));
	sess->ctrl.id = NULL;
	sess->bufs = NULL;
	sess->bufs_mr = NULL;
	sess->cq = NULL;
	sess->channel = NULL;
	sess->channel_in_epoll = false;
	sess->pd = NULL;
}

static void session_free(struct session *sess)
{
	session_free_rdma(sess);
	free(sess);
}

/*
 * Keep a vanished session's slabs for a resume (it asked with F_HOLD and
 * did not UNMAP them): revoke every access (deregister the MRs: its PD
 * goes with it), keep the memory as it is. Returns how many are kept; a
 * slab whose MR cannot be deregistered is released as before.
 */
static unsigned int session_keep_slabs(struct session *sess)
{
	struct spared *d = sess->d;
	unsigned int kept = 0;
	struct slab *s;
	int ret;

	for (s = slab_pool_next_owned(&d->pool, sess, NULL); s;
	     s = slab_pool_next_owned(&d->pool, sess, s)) {
		if (s->state != SLAB_LENT) {
			/* being evicted: the donor wants it back anyway */
			slab_release(d, s, SLAB_RELEASE_RECLAIM);
			continue;
		}
		if (s->mr) {
			ret = ibv_dereg_mr(s->mr);
			if (ret) {
				log_err("slab %u: ibv_dereg_mr: %s", s->index,
					strerror(ret));
				s->mr = NULL;
				memset(s->mem, 0, d->pool.slab_size);
				s->mem = NULL;
				slab_release(d, s, SLAB_RELEASE_RECLAIM);
				continue;
			}
			s->mr = NULL;
		}
		s->kept = true;
		kept++;
	}
	return kept;
}

/* Take back everything a finished session held; then free it. With
 * F_HOLD and resume-hold, its slabs are kept instead (see above) and the
 * session waits on d->held, without any RDMA resource, for a resume. */
static void session_destroy(struct session *sess)
{
	struct spared *d = sess->d;
	unsigned int reclaimed = 0, kept = 0;
	struct slab *s;
	struct conn *c;

	if (sess->hold && sess->hello_done && (!d->stopping || d->upgrading))
		kept = session_keep_slabs(sess);
	for (s = slab_pool_next_owned(&d->pool, sess, NULL); s;
	     s = slab_pool_next_owned(&d->pool, sess, s)) {
		if (s->kept)
			continue;
		slab_release(d, s, SLAB_RELEASE_RECLAIM);
		reclaimed++;
	}
	while ((c = sess->data)) {
		sess->data = c->next;
		sess->ndata--;
		data_conn_free(sess, c, true);
	}
	if (sess->ctrl.established && rdma_disconnect(sess->ctrl.id))
		log_dbg("client %s: rdma_disconnect: %s", sess->name,
			strerror(errno));
	log_info("client %s: session closed: %u slabs reclaimed, %" PRIu64
		 " messages in, %" PRIu64 " out", sess->name, reclaimed,
		 sess->msgs_in, sess->msgs_out);
	if (!kept) {
		session_free(sess);
		return;
	}
	session_free_rdma(sess);
	sess->dead = true;
	sess->hold_until_ms = spare_now_ms() + (uint64_t)d->cfg.resume_hold_s * 1000;
	sess->next = d->held;
	d->held = sess;
	d->ctr.holds++;
	log_info("client %s: %u slab(s) held for a resume for %u s", sess->name,
		 kept, d->cfg.resume_hold_s);
	/* A new session of the same client may be waiting for them. */
	for (struct session *n = d->sessions; n; n = n->next)
		if (!n->dead && n->resume_open && try_resume(n))
			break;
}

/* Free a held session: its slabs go back to the pool, scrubbed. */
static void held_free(struct spared *d, struct session *h, const char *why)
{
	unsigned int n = 0;
	struct slab *s;

	for (s = slab_pool_next_owned(&d->pool, h, NULL); s;
	     s = slab_pool_next_owned(&d->pool, h, s)) {
		slab_release(d, s, SLAB_RELEASE_RECLAIM);
		n++;
	}
	if (n)
		log_info("client %s: %u held slab(s) freed: %s", h->name, n, why);
	free(h);
}

static void held_unlink(struct spared *d, struct session *h)
{
	struct session **pp;

	for (pp = &d->held; *pp; pp = &(*pp)->next)
		if (*pp == h) {
			*pp = h->next;
			return;
		}
}

/*
 * F_RESUME: adopt the slabs held for this client, if a held session
 * matches it (hold.h: same uuid, same authenticated name, same grants'
 * owner, its token). Sessions of this client that are dead but not yet
 * reaped are reaped (and so held) first. Returns true if it adopted.
 */
static bool try_resume(struct session *sess)
{
	struct spared *d = sess->d;
	struct hold_id asker = { sess->uuid, sess->client, sess->owner,
				 sess->resume_shown };
	struct session *h;
	bool refused = false;

	if (!sess->resume_open || !sess->hello_done)
		return false;
	for (h = d->sessions; h; h = h->next)
		if (h != sess && h->dead && !h->disconnect_pending &&
		    !memcmp(h->uuid, sess->uuid, sizeof(h->uuid)))
			break;
	if (h) {
		sess->resume_open = false;	/* no recursion from the reap */
		spared_reap_sessions(d);
		sess->resume_open = true;
	}
	for (h = d->held; h; h = h->next) {
		struct hold_id held = { h->uuid, h->client, h->owner,
					h->resume_token };
		enum hold_verdict v = spared_hold_match(&held, &asker);
		unsigned int n;

		if (v == HOLD_NOT_MINE)
			continue;
		if (v != HOLD_ADOPT) {
			refused = true;
			log_warn("client %s: may not resume the slabs held for %s: %s",
				 sess->name, h->name, spared_hold_verdict_name(v));
			continue;
		}
		held_unlink(d, h);
		n = slab_pool_reown(&d->pool, h, sess);
		sess->resume_token = h->resume_token;
		sess->resume_open = false;
		d->ctr.resumes++;
		log_info("client %s: resumes %u slab(s) held for %s", sess->name,
			 n, h->name);
		free(h);
		return true;
	}
	if (refused)
		d->ctr.resumes_refused++;
	return false;
}

void spared_reap_sessions(struct spared *d)
{
	struct session **pp = &d->sessions, *s;
	bool any = false;

	while ((s = *pp)) {
		if (!s->dead || s->disconnect_pending) {
			pp = &s->next;
			continue;
		}
		*pp = s->next;
		d->nsessions--;
		session_destroy(s);
		any = true;
	}
	if (any)
		spared_arm_timer(d);
}

static void reject(struct spared *d, struct rdma_cm_id *id)
{
	d->ctr.conn_rejected++;
	if (rdma_reject(id, NULL, 0))
		log_warn("rdma_reject: %s", strerror(errno));
	if (rdma_destroy_id(id))
		log_warn("rdma_destroy_id: %s", strerror(errno));
}

static unsigned int live_sessions(const struct spared *d)
{
	const struct session *s;
	unsigned int n = 0;

	for (s = d->sessions; s; s = s->next)
		n += !s->dead;
	return n;
}

/*
 * A client that comes back (after a cut link, or its module's reconnect
 * after any error) sends the same UUID from the same address while its old
 * session may still look alive here: nothing told us the link died, and
 * our heartbeats would take a while to find out. That old session's slabs
 * are lent to nobody, and the new session's MAPs would be refused for want
 * of budget. The new session replaces the old one: its slabs are released
 * (and zeroed before they are lent again) at the end of this loop turn,
 * before the new session can ask for any.
 *
 * The UUID is the client's word, so the address must match too: another
 * host cannot end a session by claiming its UUID. (Hosts able to spoof
 * addresses on the RDMA network are outside what spared defends against;
 * see Documentation/spared.md.) With host-keys, the authenticated name
 * must match as well (@client): another key holder on the same host never
 * ends someone else's session (spared_supersedes()).
 */
static void supersede_sessions(struct spared *d, const uint8_t *uuid,
			       const char *host, const char *client, const char *peer,
			       const struct session *keep)
{
	const struct hold_id asker = { .uuid = uuid, .client = client };
	struct session *s;

	for (s = d->sessions; s; s = s->next) {
		const struct hold_id live = { .uuid = s->uuid, .client = s->client };

		if (s == keep || s->dead || !spared_supersedes(&live, s->host, &asker, host))
			continue;
		d->ctr.superseded++;
		session_fail(s, "superseded by a new session of the same client from %s",
			     peer);
	}
}

static void session_create(struct spared *d, struct rdma_cm_id *id,
			   const struct spare_conn_priv *p, const char *peer)
{
	char host[INET6_ADDRSTRLEN];
	struct spare_rdma_err e;
	struct session *sess;
	const char *step;
	size_t bytes;
	uint32_t i;
	int ret;

	peer_host(id, host, sizeof(host));
	/* With host-keys, only after the new session has authenticated. */
	if (!d->keys.n)
		supersede_sessions(d, p->client_uuid, host, "", peer, NULL);
	if (live_sessions(d) >= d->cfg.max_clients) {
		log_warn("%s: connection refused: already %u clients (max_clients)",
			 peer, live_sessions(d));
		reject(d, id);
		return;
	}
	sess = calloc(1, sizeof(*sess));
	if (!sess) {
		log_err("%s: connection refused: out of memory", peer);
		reject(d, id);
		return;
	}
	sess->d = d;
	sess->serial = ++d->next_serial;
	snprintf(sess->name, sizeof(sess->name), "%s#%" PRIu64, peer,
		 sess->serial);
	sess->created_ms = spare_now_ms();
	sess->ctrl.kind = SPARE_CONN_CONTROL;
	sess->ctrl.sess = sess;
	sess->ctrl.id = id;
	id->context = &sess->ctrl;
	memcpy(sess->uuid, p->client_uuid, sizeof(sess->uuid));
	snprintf(sess->host, sizeof(sess->host), "%s", host);
	sess->send_limit = le32toh(p->queue_depth);
	if (sess->send_limit > SPARED_SEND_DEPTH)
		sess->send_limit = SPARED_SEND_DEPTH;
	sess->verbs = id->verbs;

	step = "ibv_query_device";
	ret = ibv_query_device(sess->verbs, &sess->dev_attr);
	if (ret) {
		errno = ret;
		goto fail;
	}
	watch_device(d, sess->verbs);
	step = "ibv_alloc_pd";
	sess->pd = ibv_alloc_pd(sess->verbs);
	if (!sess->pd)
		goto fail;
	if (spare_rdma_cq(sess->verbs, SPARED_RECV_DEPTH + SPARED_SEND_DEPTH,
			  sess, SPARE_RDMA_CQ_CHANNEL | SPARE_RDMA_CQ_NONBLOCK |
			  SPARE_RDMA_CQ_ARM, &sess->channel, &sess->cq, &e)) {
		step = e.step;
		goto fail;
	}
	sess->channel_src.fd = sess->channel->fd;
	sess->channel_src.handle = channel_handler;
	step = "epoll_ctl";
	if (spared_epoll_add(d, &sess->channel_src))
		goto fail;
	sess->channel_in_epoll = true;
	step = "rdma_create_qp";
	if (spare_rdma_qp(id, sess->pd, sess->cq, SPARED_SEND_DEPTH,
			  SPARED_RECV_DEPTH))
		goto fail;
	step = "message buffers";
	bytes = (SPARED_RECV_DEPTH + SPARED_SEND_DEPTH) * sizeof(struct spare_msg);
	sess->bufs = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
	if (!sess->bufs)
		goto fail;
	memset(sess->bufs, 0, bytes);
	sess->bufs_mr = ibv_reg_mr(sess->pd, sess->bufs, bytes,
				   IBV_ACCESS_LOCAL_WRITE);
	if (!sess->bufs_mr)
		goto fail;
	for (i = 0; i < SPARED_SEND_DEPTH; i++)
		sess->send_free[sess->nsend_free++] = SPARED_SEND_DEPTH - 1 - i;
	step = "ibv_post_recv";
	for (i = 0; i < SPARED_RECV_DEPTH; i++)
		if (post_recv(sess, i))
			goto fail;
	step = "session cookie";
	if (new_cookie(d, &sess->cookie))
		goto fail;
	step = "rdma_accept";
	if (spare_rdma_accept(id, 0, 0))
		goto fail;

	sess->next = d->sessions;
	d->sessions = sess;
	d->nsessions++;
	d->ctr.sessions++;
	spared_arm_timer(d);
	log_info("client %s: control connection accepted (%u clients)",
		 sess->name, d->nsessions);
	return;
fail:
	log_err("%s: connection refused: %s: %s", peer, step, strerror(errno));
	d->ctr.conn_rejected++;
	if (rdma_reject(id, NULL, 0))
		log_warn("%s: rdma_reject: %s", peer, strerror(errno));
	session_free(sess);
}

static uint8_t min_u8(uint32_t a, int b)
{
	uint32_t m = b < 0 ? 0 : (uint32_t)b;

	if (a < m)
		m = a;
	return m > 255 ? 255 : (uint8_t)m;
}

static void data_conn_create(struct spared *d, struct rdma_cm_id *id,
			     const struct spare_conn_priv *p,
			     const struct rdma_conn_param *req, const char *peer)
{
	uint8_t responder_resources, initiator_depth;
	struct session *sess;
	struct conn *c;

	sess = find_session(d, le64toh(p->session_cookie));
	if (!sess) {
		log_warn("%s: DATA connection refused: unknown session cookie",
			 peer);
		reject(d, id);
		return;
	}
	if (memcmp(p->client_uuid, sess->uuid, sizeof(sess->uuid))) {
		log_warn("%s: DATA connection refused: uuid differs from session %s",
			 peer, sess->name);
		reject(d, id);
		return;
	}
	if (id->verbs != sess->verbs) {
		log_warn("%s: DATA connection refused: arrived on another RDMA device than session %s",
			 peer, sess->name);
		reject(d, id);
		return;
	}
	if (sess->ndata >= d->cfg.max_data_conns) {
		log_warn("%s: DATA connection refused: session %s already has %u (max_data_conns)",
			 peer, sess->name, sess->ndata);
		reject(d, id);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		log_err("%s: DATA connection refused: out of memory", peer);
		reject(d, id);
		return;
	}
	c->kind = SPARE_CONN_DATA;
	c->sess = sess;
	c->id = id;
	id->context = c;
	/* The donor posts nothing here: the client's one-sided READ/WRITE
	 * are served by the responder, bounded by responder_resources. */
	if (spare_rdma_qp(id, sess->pd, sess->cq, 1, 1)) {
		log_err("%s: DATA connection refused: rdma_create_qp: %s", peer,
			strerror(errno));
		goto fail;
	}
	responder_resources = min_u8(req->responder_resources,
				     sess->dev_attr.max_qp_rd_atom);
	initiator_depth = min_u8(req->initiator_depth,
				 sess->dev_attr.max_qp_init_rd_atom);
	if (!responder_resources)
		log_warn("%s: DATA connection asks for no RDMA READ depth", peer);
	if (spare_rdma_accept(id, responder_resources, initiator_depth)) {
		log_err("%s: DATA connection refused: rdma_accept: %s", peer,
			strerror(errno));
		goto fail;
	}
	c->next = sess->data;
	sess->data = c;
	sess->ndata++;
	d->ctr.data_conns++;
	log_info("client %s: data connection from %s accepted (%u, read depth %u)",
		 sess->name, peer, sess->ndata, responder_resources);
	return;
fail:
	d->ctr.conn_rejected++;
	if (rdma_reject(id, NULL, 0))
		log_warn("%s: rdma_reject: %s", peer, strerror(errno));
	if (id->qp)
		rdma_destroy_qp(id);
	if (rdma_destroy_id(id))
		log_warn("%s: rdma_destroy_id: %s", peer, strerror(errno));
	free(c);
}

static void on_connect_request(struct spared *d, struct rdma_cm_id *id,
			       const struct rdma_conn_param *req,
			       const void *priv, size_t priv_len)
{
	const struct spare_conn_priv *p = priv;
	char peer[80];
	int err;

	peer_name(id, peer, sizeof(peer));
	id->context = NULL;
	err = spare_conn_priv_check(priv, priv_len);
	if (err) {
		log_warn("%s: connection refused: bad private data (%zu bytes): %s",
			 peer, priv_len, spare_proto_strerror(err));
		d->ctr.bad_msgs++;
		reject(d, id);
		return;
	}
	if (d->stopping) {
		reject(d, id);
		return;
	}
	if (le16toh(p->kind) == SPARE_CONN_CONTROL)
		session_create(d, id, p, peer);
	else
		data_conn_create(d, id, p, req, peer);
}

static void on_conn_gone(struct spared *d, struct conn *c,
			 enum rdma_cm_event_type ev, int status)
{
	struct session *sess = c->sess;

	if (sess->dead)
		return;		/* being torn down this turn */
	if (c->kind == SPARE_CONN_CONTROL) {
		/* The connection is already down: nothing to disconnect and
		 * no ESTABLISHED to wait for. Reaped at the end of this turn. */
		if (ev == RDMA_CM_EVENT_DISCONNECTED)
			log_info("client %s: disconnected", sess->name);
		else
			log_warn("client %s: closing session: control connection %s (status %d)",
				 sess->name, rdma_event_str(ev), status);
		c->established = false;
		sess->dead = true;
		sess->dead_ms = spare_now_ms();
		sess->disconnect_pending = false;
		return;
	}
	log_info("client %s: data connection %s", sess->name, rdma_event_str(ev));
	c->established = false;
	data_conn_destroy(c, false);
}

static void cm_handler(struct spared *d, struct ev_source *src, uint32_t events)
{
	for (;;) {
		/* private data of RC connect requests fits in 56 bytes */
		union {
			struct spare_conn_priv p;
			uint8_t b[256];
		} priv;
		struct rdma_conn_param param;
		enum rdma_cm_event_type type;
		struct rdma_cm_event *ev;
		struct rdma_cm_id *id;
		size_t priv_len = 0;
		struct conn *c;
		int status;

		if (rdma_get_cm_event(d->cm_channel, &ev)) {
			if (errno != EAGAIN && errno != EINTR)
				log_err("rdma_get_cm_event: %s", strerror(errno));
			return;
		}
		/* Copy what we need and ack at once: rdma_destroy_id() waits
		 * for the acks of its events. */
		type = ev->event;
		id = ev->id;
		status = ev->status;
		param = ev->param.conn;
		memset(&priv, 0, sizeof(priv));
		if (type == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    ev->param.conn.private_data) {
			priv_len = ev->param.conn.private_data_len;
			if (priv_len > sizeof(priv.b))
				priv_len = sizeof(priv.b);
			memcpy(priv.b, ev->param.conn.private_data, priv_len);
		}
		param.private_data = NULL;
		param.private_data_len = 0;
		if (rdma_ack_cm_event(ev))
			log_warn("rdma_ack_cm_event: %s", strerror(errno));

		log_dbg("cm event %s status %d", rdma_event_str(type), status);
		if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			on_connect_request(d, id, &param, priv.b, priv_len);
			continue;
		}
		c = id == d->listen_id ? NULL : id->context;
		switch (type) {
		case RDMA_CM_EVENT_ESTABLISHED:
			if (!c)
				break;
			c->established = true;
			if (c->kind == SPARE_CONN_CONTROL &&
			    c->sess->disconnect_pending) {
				c->sess->disconnect_pending = false;
				if (rdma_disconnect(id))
					log_dbg("client %s: rdma_disconnect: %s",
						c->sess->name, strerror(errno));
			}
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_REJECTED:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			if (c) {
				on_conn_gone(d, c, type, status);
			} else if (type == RDMA_CM_EVENT_DEVICE_REMOVAL) {
				log_err("RDMA device removed under the listener; stopping");
				d->stopping = true;
			}
			break;
		default:
			break;	/* TIMEWAIT_EXIT, ADDR_CHANGE: nothing to do */
		}
	}
}

/* ---- eviction, activity, timers ---- */

bool spared_evict_slab(struct spared *d, struct slab *s,
		       enum spare_evict_reason reason)
{
	struct session *sess = (struct session *)s->owner;
	struct spare_msg m;

	if (s->state != SLAB_LENT)
		return false;
	if (sess->dead || s->kept) {	/* gone, or held for a resume */
		slab_release(d, s, SLAB_RELEASE_RECLAIM);
		return false;
	}
	spare_msg_init(&m, SPARE_MSG_EVICT, ++sess->tx_seq);
	m.evict.slab_id = htole32(s->client_id);
	m.evict.reason = htole32(reason);
	m.evict.deadline_ms = htole32(d->cfg.evict_deadline_ms);
	slab_pool_mark_evicting(&d->pool, s,
				spare_now_ms() + d->cfg.evict_deadline_ms);
	log_info("client %s: EVICT slab %u (donor slab %u), deadline %u ms",
		 sess->name, s->client_id, s->index, d->cfg.evict_deadline_ms);
	session_send(sess, &m);
	return true;
}

unsigned int spared_evict(struct spared *d, unsigned int n,
			  enum spare_evict_reason reason)
{
	unsigned int sent = 0;
	struct slab *s;

	while (sent < n && (s = slab_pool_pick_victim(&d->pool)))
		if (spared_evict_slab(d, s, reason))
			sent++;
	spared_arm_timer(d);
	return sent;
}

bool spared_query_slab(struct spared *d, struct slab *s)
{
	struct session *sess = (struct session *)s->owner;
	struct spare_msg m;

	if (!slab_held(s) || sess->dead || s->kept)
		return false;
	spare_msg_init(&m, SPARE_MSG_ACTIVITY_QUERY, ++sess->tx_seq);
	m.activity_query.slab_id = htole32(s->client_id);
	session_send(sess, &m);
	return true;
}

unsigned int spared_query_activity(struct spared *d)
{
	unsigned int i, sent = 0;

	for (i = 0; i < d->pool.nslabs; i++) {
		struct slab *s = &d->pool.slabs[i];

		if (spared_query_slab(d, s))
			sent++;
	}
	return sent;
}

uint64_t spared_next_timer(struct spared *d)
{
	uint64_t next = slab_pool_next_deadline(&d->pool);
	uint64_t batch = d->lend_ops ? d->lend_ops->next_timer(d) : 0;
	struct session *s;

	if (batch && (!next || batch < next))
		next = batch;
	for (s = d->held; s; s = s->next)
		if (!next || s->hold_until_ms < next)
			next = s->hold_until_ms;
	for (s = d->sessions; s; s = s->next) {
		uint64_t t = s->created_ms + d->cfg.hello_timeout_ms;

		if (s->disconnect_pending)
			t = s->dead_ms + SPARED_LINGER_MS;
		else if (s->hello_done || s->dead)
			continue;
		if (!next || t < next)
			next = t;
	}
	return next;
}

void spared_arm_timer(struct spared *d)
{
	spared_timer_set(d, spared_next_timer(d));
}

void spared_timer_work(struct spared *d, uint64_t now_ms)
{
	struct session *sess;
	struct slab *s;

	while ((s = slab_pool_next_expired(&d->pool, now_ms))) {
		sess = (struct session *)s->owner;
		log_warn("client %s: slab %u not returned within %u ms of EVICT; revoking",
			 sess->name, s->client_id, d->cfg.evict_deadline_ms);
		slab_release(d, s, SLAB_RELEASE_REVOKE);
	}
	if (d->lend_ops)
		d->lend_ops->timer_work(d, now_ms);
	for (struct session **pp = &d->held; (sess = *pp);) {
		if (now_ms < sess->hold_until_ms) {
			pp = &sess->next;
			continue;
		}
		*pp = sess->next;
		d->ctr.holds_expired++;
		held_free(d, sess, "no resume within resume-hold");
	}
	for (sess = d->sessions; sess; sess = sess->next) {
		if (sess->disconnect_pending &&
		    now_ms >= sess->dead_ms + SPARED_LINGER_MS) {
			log_info("client %s: never established; dropping it",
				 sess->name);
			sess->disconnect_pending = false;
		}
		if (!sess->hello_done &&
		    now_ms >= sess->created_ms + d->cfg.hello_timeout_ms)
			session_fail(sess, "no completed HELLO (and authentication) within %u ms",
				     d->cfg.hello_timeout_ms);
	}
}

/* ---- start and stop ---- */

/* Host keys from the config, the donor's name for the transcript. */
static int auth_start(struct spared *d)
{
	char why[512], name[256] = "";
	unsigned int clients = 0;

	if (spare_auth_init()) {
		log_err("libsodium cannot initialise");
		return -1;
	}
	if (d->cfg.name[0])
		snprintf(name, sizeof(name), "%s", d->cfg.name);
	else if (gethostname(name, sizeof(name) - 1))
		strcpy(name, "spared");
	memset(d->donor_id, 0, sizeof(d->donor_id));
	memcpy(d->donor_id, name, strnlen(name, sizeof(d->donor_id)));
	if (!d->cfg.host_keys[0]) {
		log_warn("open mode: no host-keys, so any host that reaches port %u can borrow memory (see 'sparectl gen-key' and Documentation/spared.md)",
			 d->cfg.port);
		return 0;
	}
	if (spare_host_keys_load(d->cfg.host_keys, &d->keys, why, sizeof(why))) {
		log_err("host-keys %s", why);
		return -1;
	}
	for (unsigned int i = 0; i < d->keys.n; i++)
		clients += !!(d->keys.v[i].roles & SPARE_ROLE_CLIENT);
	log_info("host-keys %s: %u clients may connect, each must authenticate%s",
		 d->cfg.host_keys, clients,
		 clients < d->keys.n ? " (keys of role=donor only cannot borrow)" : "");
	return 0;
}

int spared_grant_keys_read(const struct spared_config *cfg, struct spare_grant_keys *k)
{
	char why[512];

	if (spare_grant_keys_load(k, cfg->grant_key_file, NULL, cfg->grant_key_id,
				  cfg->grant_public_keys, why, sizeof(why))) {
		log_err("%s", why);	/* names the setting and the file */
		return -1;
	}
	if (k->has_hmac)
		log_warn("grant-key-file: accepting version 1 (HMAC) grants, which anyone holding that key (every donor) can forge; deprecated: give grant-public-keys and drop grant-key-file once the brokers sign with grant-signing-key");
	return 0;
}

/* With grant-public-keys (or grant-key-file), MAPs need the brokers' grants. */
static int grants_start(struct spared *d)
{
	struct spare_grant_keys keys;
	char id[SPARE_AUTH_ID_LEN + 1] = "";
	int ret;

	if (!d->cfg.grant_key_file[0] && !d->cfg.grant_public_keys[0])
		return 0;
	if (spared_grant_keys_read(&d->cfg, &keys))
		return -1;
	/* As broker_link registers it: at most 15 characters. */
	memcpy(id, d->donor_id, SPARE_AUTH_ID_LEN - 1);
	ret = spared_grants_init(&d->grants, NULL, id, d->cfg.max_grants);
	if (!ret)
		spared_grants_set_keys(&d->grants, &keys);
	spare_grant_keys_wipe(&keys);
	if (ret) {
		log_err("grants: %s", strerror(-ret));
		return -1;
	}
	d->grants_on = true;
	log_info("grants: %u public keys from %s%s%s: lending only against grants for donor %s",
		 d->grants.keys.npub,
		 d->cfg.grant_public_keys[0] ? d->cfg.grant_public_keys : "(none)",
		 d->grants.keys.has_hmac ? ", version 1 key from " : "",
		 d->grants.keys.has_hmac ? d->cfg.grant_key_file : "", id);
	return 0;
}

int spared_server_start(struct spared *d)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	struct spare_rdma_err e;
	char port[8];
	int ret;

	if (auth_start(d) || grants_start(d))
		return -1;

	if (spare_rdma_open(&d->cm_channel, &d->listen_id, NULL, true, &e)) {
		log_err("%s: %s%s", e.step, strerror(e.err), d->cm_channel ? "" :
			" (is an RDMA device up? try 'rdma link')");
		return -1;
	}
	d->cm_src.fd = d->cm_channel->fd;
	d->cm_src.handle = cm_handler;
	if (spared_epoll_add(d, &d->cm_src))
		return -1;
	snprintf(port, sizeof(port), "%u", d->cfg.port);
	hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_family = d->cfg.listen_addr[0] ? AF_UNSPEC : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	ret = getaddrinfo(d->cfg.listen_addr[0] ? d->cfg.listen_addr : NULL,
			  port, &hints, &ai);
	if (ret) {
		log_err("listen address '%s': %s", d->cfg.listen_addr,
			gai_strerror(ret));
		return -1;
	}
	ret = spare_rdma_listen(d->listen_id, ai->ai_addr, 64, &e);
	freeaddrinfo(ai);
	if (ret) {
		log_err("%s %s port %u: %s", e.step,
			d->cfg.listen_addr[0] ? d->cfg.listen_addr : "*",
			d->cfg.port, strerror(e.err));
		return -1;
	}
	return 0;
}

void spared_server_stop(struct spared *d)
{
	struct session *s;

	for (s = d->sessions; s; s = s->next) {
		session_fail(s, "donor shutting down");
		s->disconnect_pending = false;
	}
	spared_reap_sessions(d);
	/* Restarting for an upgrade: the held slabs go to the next image,
	 * their memory as it is (restart.c). */
	if (d->upgrading && !spared_keep_save(d)) {
		while ((s = d->held)) {
			d->held = s->next;
			free(s);
		}
	}
	while ((s = d->held)) {
		d->held = s->next;
		held_free(d, s, "donor shutting down");
	}
	while (d->nasync)
		spared_epoll_del(d, &d->async[--d->nasync].src);
	if (d->listen_id && rdma_destroy_id(d->listen_id))
		log_warn("rdma_destroy_id(listener): %s", strerror(errno));
	d->listen_id = NULL;
	spare_host_keys_free(&d->keys);
	if (d->grants_on)
		spared_grants_free(&d->grants);
	d->grants_on = false;
	if (d->cm_channel) {
		if (d->cm_src.fd > 0)
			spared_epoll_del(d, &d->cm_src);
		rdma_destroy_event_channel(d->cm_channel);
		d->cm_channel = NULL;
	}
}
