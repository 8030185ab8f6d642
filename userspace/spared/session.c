// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: a client's session. Its name for the log, failing it
 * (only it: the rest of the daemon never depends on a peer behaving), its
 * message buffers and sends, its slabs (registered, lent, released), and
 * its life: resume of a held session, teardown, holding its slabs for a
 * pager's restart, reaping. And the daemon's timer (EVICT deadlines,
 * resume-hold, HELLO timeouts), which acts on sessions alone.
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
#include "server.h"
#include "spared.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

const char *peer_host(struct rdma_cm_id *id, char *buf, size_t len)
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

const char *peer_name(struct rdma_cm_id *id, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	snprintf(buf, len, "%s:%u", peer_host(id, host, sizeof(host)),
		 ntohs(rdma_get_dst_port(id)));
	return buf;
}

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
 * SPARED_ESTABLISH_WAIT_MS, and the session is reaped only after it.
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
	conn_disconnect(sess, &sess->ctrl);
}

/*
 * Every disconnect spared starts (a bad message, failed authentication,
 * a superseded or timed-out session, shutdown) comes here: the DREQ once,
 * and ->disconnected so that a control cm_id is kept for its resends
 * until the peer answers (spared_cm_id_release(), linger.h).
 */
void conn_disconnect(struct session *sess, struct conn *c)
{
	if (!c->id || !c->established || c->disconnected)
		return;
	if (rdma_disconnect(c->id))
		log_dbg("client %s: %s rdma_disconnect: %s", sess->name,
			c->kind == SPARE_CONN_CONTROL ? "control" : "data",
			strerror(errno));
	else
		c->disconnected = true;
}

void session_fail(struct session *sess, const char *fmt, ...)
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

void session_bad_msg(struct session *sess, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	sess->d->ctr.bad_msgs++;
	session_fail(sess, "bad message: %s", why);
}

struct spare_msg *recv_buf(struct session *sess, uint32_t i)
{
	return &sess->bufs[i];
}

static struct spare_msg *send_buf(struct session *sess, uint32_t i)
{
	return &sess->bufs[SPARED_RECV_DEPTH + i];
}

int post_recv(struct session *sess, uint32_t i)
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

void session_send(struct session *sess, const struct spare_msg *m)
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

void drain_backlog(struct session *sess)
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

/* Register the slab's memory in the client's PD. */
int slab_register(struct session *sess, struct slab *s)
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

/* Map @s's memory if it has none (a memfd, not populated), and populate it
 * from s->ready_bytes up to @upto. 0, or -1 with errno if it cannot be
 * mapped (then nothing changed). The caller records how far it got. */
static int slab_populate_to(struct spared *d, struct slab *s, uint64_t upto)
{
	if (!s->mem) {
		s->mem = slab_mem_map(d->pool.slab_size, &s->memfd);
		if (!s->mem)
			return -1;
	}
	if (upto > s->ready_bytes)
		slab_mem_populate((char *)s->mem + s->ready_bytes,
				  upto - s->ready_bytes);
	return 0;
}

/* Map (first time) or populate the slab's memory and register it in the
 * client's PD. The memory is zero: fresh, or scrubbed when last released.
 * A slab made ready ahead (spared_ready_step()) is only registered;
 * *@fill_ms: the time spent populating it now (0 if it was ready). */
int slab_lend(struct session *sess, struct slab *s, uint64_t *fill_ms)
{
	struct spared *d = sess->d;
	size_t size = d->pool.slab_size;
	uint64_t t0 = spare_now_ms();

	if (slab_populate_to(d, s, size)) {
		log_err("slab %u: mmap of %zu bytes: %s", s->index, size,
			strerror(errno));
		return -1;
	}
	s->ready_bytes = 0;	/* lent: scrubbed when it comes back */
	*fill_ms = spare_now_ms() - t0;
	return slab_register(sess, s);
}

/* Populated per step of spared_ready_step(): a loop turn stays short. */
#define SPARED_READY_STEP	(1u << 20)

bool spared_ready_step(struct spared *d)
{
	struct slab *s = slab_pool_next_unready(&d->pool, d->cfg.map_ready);
	uint64_t size = d->pool.slab_size, upto;

	if (!s)
		return false;
	upto = s->ready_bytes + SPARED_READY_STEP;
	if (upto > size)
		upto = size;
	if (slab_populate_to(d, s, upto)) {
		/* a MAP maps it (and says why if it fails) */
		log_warn("slab %u: cannot map its memory ahead of a MAP: %s; stopped populating ahead",
			 s->index, strerror(errno));
		d->cfg.map_ready = 0;
		return false;
	}
	slab_pool_set_ready(&d->pool, s, upto);
	if (upto == size)
		log_dbg("slab %u: populated ahead of a MAP", s->index);
	return true;
}

/* Revoke the client's access (deregister the MR), zero the memory and
 * return the slab to the pool. */
void slab_release(struct spared *d, struct slab *s,
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

struct session *find_session(struct spared *d, uint64_t cookie)
{
	struct session *s;

	for (s = d->sessions; s; s = s->next)
		if (!s->dead && s->cookie == cookie)
			return s;
	return NULL;
}

int new_cookie(struct spared *d, uint64_t *cookie)
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
	if (disconnect)
		conn_disconnect(sess, c);
	if (c->id->qp)
		rdma_destroy_qp(c->id);
	if (rdma_destroy_id(c->id))
		log_warn("client %s: rdma_destroy_id: %s", sess->name,
			 strerror(errno));
	free(c);
}

void data_conn_destroy(struct conn *c, bool disconnect)
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
	if (sess->ctrl.id)
		spared_cm_id_release(d, sess->ctrl.id, sess->ctrl.disconnected);
	sess->ctrl.id = NULL;
	sess->bufs = NULL;
	sess->bufs_mr = NULL;
	sess->cq = NULL;
	sess->channel = NULL;
	sess->channel_in_epoll = false;
	sess->pd = NULL;
}

void session_free(struct session *sess)
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
	conn_disconnect(sess, &sess->ctrl);
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
void held_free(struct spared *d, struct session *h, const char *why)
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
bool try_resume(struct session *sess)
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

unsigned int live_sessions(const struct spared *d)
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
void supersede_sessions(struct spared *d, const uint8_t *uuid,
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

uint64_t spared_next_timer(struct spared *d)
{
	uint64_t next = slab_pool_next_deadline(&d->pool);
	uint64_t batch = d->lend_ops ? d->lend_ops->next_timer(d) : 0;
	struct session *s;

	if (batch && (!next || batch < next))
		next = batch;
	if (d->backstop_next_ms && (!next || d->backstop_next_ms < next))
		next = d->backstop_next_ms;
	if (d->linger.n && (!next || spared_linger_next(&d->linger) < next))
		next = spared_linger_next(&d->linger);
	for (s = d->held; s; s = s->next)
		if (!next || s->hold_until_ms < next)
			next = s->hold_until_ms;
	for (s = d->sessions; s; s = s->next) {
		uint64_t t = s->created_ms + d->cfg.hello_timeout_ms;

		if (s->disconnect_pending)
			t = s->dead_ms + SPARED_ESTABLISH_WAIT_MS;
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
	spared_linger_expire(d, now_ms);
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
		    now_ms >= sess->dead_ms + SPARED_ESTABLISH_WAIT_MS) {
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
