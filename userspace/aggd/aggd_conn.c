// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd connection I/O (aggd_conn.h): accept, receive a header then
 * its body, queue and send replies, close. Every receive and send goes
 * through the loop's io_uring; an RDMA connection hands whole messages in
 * through conn_message() and sends through agg_rdma_send().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggd_conn.h"
#include "aggd_state.h"
#include "agg_job.h"
#include "agg_rdma.h"
#include "spare_log.h"

static const struct conn_ops *up;	/* the layer above */

void conn_set_ops(const struct conn_ops *o)
{
	up = o;
}

struct io_uring_sqe *get_sqe(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&g.ring);

	while (!sqe) {
		io_uring_submit(&g.ring);
		sqe = io_uring_get_sqe(&g.ring);
	}
	return sqe;
}

struct conn *conn_open(int fd, const char *peer)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fd = fd;
	c->id = ++g.next_conn_id;
	c->last_rx_ns = g.now_ns;
	c->opened_ns = g.now_ns;
	c->rx = RX_HDR;
	c->rx_op.kind = OP_RECV;
	c->rx_op.conn = c;
	c->tx_op.kind = OP_SEND;
	c->tx_op.conn = c;
	c->connect_op.kind = OP_CONNECT;
	c->connect_op.conn = c;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	c->next = g.conns;
	if (g.conns)
		g.conns->prev = c;
	g.conns = c;
	g.n_conns++;
	g.conns_total++;
	return c;
}

/* ---- sending ---- */

static void tx_kick(struct conn *c);

void tx_queue(struct conn *c, struct txmsg *m)
{
	m->next = NULL;
	c->answered = true;
	if (c->tx_tail)
		c->tx_tail->next = m;
	else
		c->tx_head = m;
	c->tx_tail = m;
	tx_kick(c);
}

struct txmsg *tx_new(const struct agg_hdr *h)
{
	struct txmsg *m = calloc(1, sizeof(*m));

	if (m)
		agg_hdr_encode(h, m->hdr);
	return m;
}

void tx_send(struct conn *c, const struct agg_hdr *h,
	     const void *payload, size_t len, void *owned)
{
	struct txmsg *m = tx_new(h);

	if (!m) {
		free(owned);
		conn_close(c, "out of memory for a reply");
		return;
	}
	m->payload = payload;
	m->owned = owned;
	m->len = len;
	tx_queue(c, m);
}

void queue_plain(struct conn *c, unsigned int type, const struct agg_hdr *tmpl,
		 const void *payload, size_t len, void *owned)
{
	struct agg_hdr h = *tmpl;

	h.magic = AGG_PROTO_MAGIC;
	h.version = AGG_PROTO_VERSION;
	h.type = (uint16_t)type;
	h.len = (uint32_t)len;
	tx_send(c, &h, payload, len, owned);
}

void send_error(struct conn *c, unsigned int status, uint32_t part,
		uint32_t iter, const char *fmt, ...)
{
	struct agg_hdr h;
	char *text = malloc(AGG_MAX_ERR_TEXT);
	va_list ap;
	int n;

	if (!text) {
		conn_close(c, "out of memory for an error reply");
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(text, AGG_MAX_ERR_TEXT, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n >= AGG_MAX_ERR_TEXT)
		n = AGG_MAX_ERR_TEXT - 1;
	agg_hdr_init(&h, AGG_MSG_ERROR, (uint32_t)n);
	h.status = status;
	h.part = part;
	h.iter = iter;
	h.job_id = c->job ? c->job->id : 0;
	tx_send(c, &h, text, (size_t)n, text);
}

/*
 * Refusals log at most REFUSAL_LINES lines a second; the next line that
 * gets out says how many were held back (a stranger cannot flood the log).
 */
#define REFUSAL_LINES	20

static bool refusal_log_ok(unsigned long *held_back)
{
	static uint64_t second;
	static unsigned int lines;
	static unsigned long quiet;
	uint64_t now = g.now_ns / 1000000000ULL;

	if (now != second) {
		second = now;
		lines = 0;
	}
	if (lines >= REFUSAL_LINES) {
		quiet++;
		return false;
	}
	lines++;
	*held_back = quiet;
	quiet = 0;
	return true;
}

void fail_conn(struct conn *c, unsigned int status, const char *what)
{
	unsigned long quiet = 0;
	bool log = refusal_log_ok(&quiet);

	g.refused_total++;
	if (status == AGG_EAUTH)
		g.refused_auth++;
	if (log && !quiet)
		log_warn("conn %u (%s): %s: %s; closing", c->id, c->peer, what,
			 agg_status_str(status));
	else if (log)
		log_warn("conn %u (%s): %s: %s; closing (%lu refusals before this one not logged)",
			 c->id, c->peer, what, agg_status_str(status), quiet);
	send_error(c, status, c->hdr.part, c->hdr.iter, "%s: %s", what,
		   agg_status_str(status));
	c->close_after_tx = true;
}

static void tx_kick(struct conn *c)
{
	struct txmsg *m = c->tx_head;
	struct io_uring_sqe *sqe;
	size_t hdr_left;

	if (c->tx_busy || c->closing || !m)
		return;
	if (c->rdma) {
		bool in_place = m->kind == TX_PULL && m->region && c->job;
		int ret = in_place ?
			agg_rdma_send_region(c->rdma, m->hdr, AGG_HDR_SIZE,
					     m->region, m->payload, m->len) :
			agg_rdma_send(c->rdma, m->hdr, AGG_HDR_SIZE, m->payload,
				      m->len);

		if (ret) {
			conn_close(c, "RDMA send failed");
			return;
		}
		if (in_place) {
			m->pinned = c->job;
			up->pin(m->pinned, m->part, true);
		}
		/*
		 * A pull is done at the send's completion (rdma_sent ->
		 * on_send), as over TCP: until then pull_pending[rank] stays
		 * set and the partition READY, so its output stays as sent.
		 * The completion can come after the worker's next request
		 * (the SEND is delivered before its ACK comes back): that
		 * request is an early push or pull of the next iteration.
		 */
		c->tx_busy = true;
		return;
	}
	hdr_left = m->off < AGG_HDR_SIZE ? AGG_HDR_SIZE - m->off : 0;
	memset(&c->tx_msg, 0, sizeof(c->tx_msg));
	if (hdr_left) {
		c->tx_iov[0].iov_base = m->hdr + m->off;
		c->tx_iov[0].iov_len = hdr_left;
		c->tx_iov[1].iov_base = (void *)m->payload;
		c->tx_iov[1].iov_len = m->len;
		c->tx_msg.msg_iovlen = m->len ? 2 : 1;
	} else {
		size_t poff = m->off - AGG_HDR_SIZE;

		c->tx_iov[0].iov_base = (uint8_t *)m->payload + poff;
		c->tx_iov[0].iov_len = m->len - poff;
		c->tx_msg.msg_iovlen = 1;
	}
	c->tx_msg.msg_iov = c->tx_iov;
	sqe = get_sqe();
	io_uring_prep_sendmsg(sqe, c->fd, &c->tx_msg, MSG_NOSIGNAL);
	io_uring_sqe_set_data(sqe, &c->tx_op);
	c->tx_busy = true;
}

/* The send of @m read its payload in place: it no longer does. */
static void tx_unpin(struct txmsg *m)
{
	struct agg_job *job = m->pinned;

	if (!job)
		return;
	m->pinned = NULL;
	up->pin(job, m->part, false);
}

/* ---- closing ---- */

static void preauth_release(struct conn *c)
{
	g.preauth_used -= c->preauth_bytes;
	c->preauth_bytes = 0;
}

bool conn_preauth(const struct conn *c)
{
	return !c->job && !c->peer_authed && !c->tenant_authed && !c->import_job &&
	       !c->mig_link && !c->mig_admin;
}

/* The oldest connection, other than @self, holding a pre-auth body. */
static struct conn *preauth_victim(const struct conn *self)
{
	struct conn *v = NULL;

	for (struct conn *c = g.conns; c; c = c->next)	/* newest first */
		if (c != self && c->preauth_bytes && !c->closing)
			v = c;
	return v;
}

bool conn_preauth_charge(struct conn *c, size_t len)
{
	unsigned long quiet;

	if (len > AGGD_PREAUTH_BUDGET)
		return false;
	while (g.preauth_used + len > AGGD_PREAUTH_BUDGET) {
		struct conn *v = preauth_victim(c);

		if (!v)
			return false;
		if (spare_ratelimit_ok(&g.preauth_log, g.now_ns / 1000000ULL,
				       SPARE_FD_LOG_MS, &quiet))
			log_warn("conn %u (%s): closed: its request is unfinished and %u KiB of requests from peers that proved nothing are pending; room for conn %u (%s) (%lu more such lines held back)",
				 v->id, v->peer, AGGD_PREAUTH_BUDGET >> 10, c->id,
				 c->peer, quiet);
		g.preauth_evicted++;
		preauth_release(v);	/* its buffer stays until its recv ends */
		conn_close(v, NULL);
	}
	c->preauth_bytes += len;
	g.preauth_used += len;
	return true;
}

void conn_destroy(struct conn *c)
{
	up->destroyed(c);
	preauth_release(c);
	/* the QP first: no SEND reads a pinned payload after this */
	if (c->rdma)
		agg_rdma_close(c->rdma);
	c->rdma = NULL;
	while (c->tx_head) {
		struct txmsg *m = c->tx_head;

		c->tx_head = m->next;
		tx_unpin(m);
		free(m->owned);
		free(m);
	}
	free(c->body);
	while (c->held_head) {
		struct held_msg *hm = c->held_head;

		c->held_head = hm->next;
		free(hm);
	}
	if (c->fd >= 0)
		close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		g.conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	g.n_conns--;
	free(c);
}

void conn_maybe_destroy(struct conn *c)
{
	if (c->closing && !c->rx_busy && !c->tx_busy && !c->replaying)
		conn_destroy(c);
}

void conn_close(struct conn *c, const char *why)
{
	if (c->closing)
		return;
	c->closing = true;
	if (why)
		log_info("conn %u (%s): closed: %s", c->id, c->peer, why);
	if (c->rdma) {
		struct txmsg *m = c->tx_busy ? c->tx_head : NULL;

		/* no completion names this connection after the close */
		agg_rdma_close(c->rdma);
		c->rdma = NULL;
		c->rx_busy = c->tx_busy = false;
		/*
		 * The QP is gone, so nothing reads a reply's payload any
		 * more: a pull reply in flight counts as sent (the worker
		 * left), or its partition would never leave READY.
		 */
		if (m && m->kind == TX_PULL) {
			m->kind = TX_PLAIN;
			up->pull_sent(c, m->part);
		}
		if (m)
			tx_unpin(m);
		up->closing(c, why);
	} else {
		up->closing(c, why);
		shutdown(c->fd, SHUT_RDWR);
	}
	conn_maybe_destroy(c);
}

/* ---- receiving ---- */

static void rx_post(struct conn *c)
{
	struct io_uring_sqe *sqe;

	if (c->closing || c->close_after_tx)
		return;
	if (c->rdma) {
		/* message transport: the next message comes as a whole */
		c->rmsg = NULL;
		agg_rdma_recv_done(c->rdma);
		return;
	}
	sqe = get_sqe();
	io_uring_prep_recv(sqe, c->fd, c->rx_dst + c->rx_off,
			   c->rx_len - c->rx_off, 0);
	io_uring_sqe_set_data(sqe, &c->rx_op);
	c->rx_busy = true;
}

void rx_expect_hdr(struct conn *c)
{
	c->rx = RX_HDR;
	c->rx_dst = c->hdr_buf;
	c->rx_len = AGG_HDR_SIZE;
	c->rx_off = 0;
	rx_post(c);
}

void rx_expect_body(struct conn *c, void *dst, size_t len)
{
	if (c->rdma) {
		/* the header's handler checked that the message holds exactly len */
		memcpy(dst, c->rmsg + AGG_HDR_SIZE, len);
		c->rx = RX_BODY;
		preauth_release(c);
		up->body(c);
		return;
	}
	c->rx = RX_BODY;
	c->rx_dst = dst;
	c->rx_len = len;
	c->rx_off = 0;
	rx_post(c);
}

bool rx_lend_body(struct conn *c, const void **body,
		  struct agg_rdma_loan **loan)
{
	if (!c->rdma || !c->rmsg)
		return false;
	*loan = agg_rdma_recv_lend(c->rdma, c->rmsg);
	if (!*loan)
		return false;
	*body = c->rmsg + AGG_HDR_SIZE;
	c->rx = RX_BODY;
	return true;
}

void rx_body_lent(struct conn *c)
{
	preauth_release(c);
	up->body(c);
}

void on_recv(struct conn *c, int res)
{
	c->rx_busy = false;
	if (c->closing) {
		conn_maybe_destroy(c);
		return;
	}
	if (res <= 0) {
		conn_close(c, res == 0 ? "peer closed the connection" :
			   strerror(-res));
		return;
	}
	c->last_rx_ns = g.now_ns;
	if (c->job)
		c->job->last_active_ns = g.now_ns;
	c->rx_off += (size_t)res;
	if (c->rx_off < c->rx_len) {
		rx_post(c);
		return;
	}
	if (c->rx == RX_HDR) {
		up->hdr(c);
	} else {
		preauth_release(c);
		up->body(c);
	}
}

void conn_message(struct conn *c, const uint8_t *msg, size_t len)
{
	if (c->closing || c->close_after_tx)
		return;
	c->rmsg = msg;
	c->rmsg_len = len;
	c->last_rx_ns = g.now_ns;
	if (c->job)
		c->job->last_active_ns = g.now_ns;
	if (len < AGG_HDR_SIZE) {
		fail_conn(c, AGG_EPROTO, "short message");
		return;
	}
	memcpy(c->hdr_buf, msg, AGG_HDR_SIZE);
	c->rx = RX_HDR;
	up->hdr(c);
}

static void tx_complete(struct conn *c, struct txmsg *m)
{
	if (m->kind == TX_PULL)
		up->pull_sent(c, m->part);
	tx_unpin(m);
	free(m->owned);
	free(m);
}

void on_send(struct conn *c, int res)
{
	struct txmsg *m = c->tx_head;

	c->tx_busy = false;
	if (c->closing) {
		conn_maybe_destroy(c);
		return;
	}
	if (res <= 0) {
		conn_close(c, res == 0 ? "send made no progress" : strerror(-res));
		return;
	}
	if (c->job)
		c->job->last_active_ns = g.now_ns;
	m->off += (size_t)res;
	if (m->off < AGG_HDR_SIZE + m->len) {
		tx_kick(c);
		return;
	}
	c->tx_head = m->next;
	if (!c->tx_head)
		c->tx_tail = NULL;
	tx_complete(c, m);
	if (!c->tx_head && c->close_after_tx) {
		conn_close(c, NULL);
		return;
	}
	tx_kick(c);
}

/* ---- holding requests while a job moves ---- */

void conn_hold(struct conn *c)
{
	struct held_msg *hm;

	if (!c->rdma) {
		c->held = true;		/* the rest stays in the socket */
		return;
	}
	hm = malloc(sizeof(*hm) + c->rmsg_len);
	if (!hm) {
		conn_close(c, "out of memory holding a request");
		return;
	}
	hm->next = NULL;
	hm->len = c->rmsg_len;
	memcpy(hm->msg, c->rmsg, c->rmsg_len);
	if (c->held_tail)
		c->held_tail->next = hm;
	else
		c->held_head = hm;
	c->held_tail = hm;
	c->held = true;
	rx_expect_hdr(c);	/* the slot goes back; later messages queue too */
}

void conn_release(struct conn *c)
{
	if (!c->held)
		return;
	c->held = false;
	c->replaying = true;
	if (!c->rdma) {
		if (!c->closing)
			up->hdr(c);	/* the header is still in hdr_buf */
	} else {
		while (c->held_head && !c->closing && !c->held) {
			struct held_msg *hm = c->held_head;

			c->held_head = hm->next;
			if (!c->held_head)
				c->held_tail = NULL;
			conn_message(c, hm->msg, hm->len);
			c->rmsg = NULL;
			free(hm);
		}
		if (c->held_head)
			c->held = true;	/* held again: the rest waits */
	}
	c->replaying = false;
	conn_maybe_destroy(c);
}

/* ---- listening ---- */

void accept_post(int fd, struct op *op)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_accept(sqe, fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data(sqe, op);
}

/* Wake up once the EMFILE back-off is over (one timeout for both listeners). */
static void resume_post(void)
{
	struct io_uring_sqe *sqe;

	if (g.resume_posted)
		return;
	g.resume_ts.tv_sec = 0;
	g.resume_ts.tv_nsec = SPARE_ACCEPT_BACKOFF_MS * 1000000LL;
	g.resume_op.kind = OP_ACCEPT_RESUME;
	sqe = get_sqe();
	io_uring_prep_timeout(sqe, &g.resume_ts, 0, 0);
	io_uring_sqe_set_data(sqe, &g.resume_op);
	g.resume_posted = true;
}

void accept_resume(void)
{
	uint64_t now_ms = g.now_ns / 1000000ULL;

	g.resume_posted = false;
	if (spare_accept_resume(&g.data_gate, now_ms))
		accept_post(g.listen_fd, &g.accept_op);
	if (g.admin_fd >= 0 && spare_accept_resume(&g.admin_gate, now_ms))
		accept_post(g.admin_fd, &g.admin_op);
	if (g.data_gate.resume_ms || g.admin_gate.resume_ms)
		resume_post();
}

/*
 * At the connection cap: the oldest TCP connection that has not made a
 * request yet (no reply sent, no job, no move) makes room, so that silent
 * strangers cannot keep workers out. NULL if every connection is in use.
 */
static struct conn *cap_victim(void)
{
	struct conn *v = NULL;

	for (struct conn *c = g.conns; c; c = c->next)	/* newest first */
		if (!c->answered && !c->job && !c->mig_link && !c->mig_admin &&
		    !c->import_job && !c->rdma && !c->closing && c->fd >= 0)
			v = c;
	return v;
}

/* Room for one more connection: true if there is (perhaps made now). */
static bool cap_room(const char *peer)
{
	struct conn *v;
	unsigned long quiet;
	bool log;

	if (g.n_conns < g.max_conns)
		return true;
	v = cap_victim();
	log = spare_ratelimit_ok(&g.cap_log, g.now_ns / 1000000ULL,
				 SPARE_FD_LOG_MS, &quiet);
	if (!v) {
		if (log)
			log_warn("connection from %s refused: --max-conns (%u) reached and every connection is in use (%lu more such lines held back)",
				 peer, g.max_conns, quiet);
		return false;
	}
	if (log)
		log_warn("--max-conns (%u) reached: closing conn %u (%s), which has made no request, for %s (%lu more such lines held back)",
			 g.max_conns, v->id, v->peer, peer, quiet);
	g.conns_evicted++;
	conn_close(v, NULL);
	return true;
}

void on_accept(int listen_fd, struct op *op, int res, bool admin)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char peer[AGG_HOST_LEN + 16] = "?";
	struct conn *c;
	int one = 1;

	if (res < 0) {
		struct spare_accept_gate *ag = admin ? &g.admin_gate : &g.data_gate;

		if (spare_accept_failed(ag, -res, g.now_ns / 1000000ULL))
			resume_post();	/* the listener waits: no spinning */
		else
			accept_post(listen_fd, op);
		return;
	}
	accept_post(listen_fd, op);
	if (!getpeername(res, (struct sockaddr *)&ss, &sl) &&
	    ss.ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(peer, sizeof(peer), "%s:%u", ip, ntohs(sin->sin_port));
	}
	if (!cap_room(peer)) {
		close(res);
		return;
	}
	c = conn_open(res, peer);
	if (!c) {
		log_warn("accept: out of memory; dropping connection");
		close(res);
		return;
	}
	c->admin = admin || g.stats_open;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	rx_expect_hdr(c);
}

int listen_on(const char *addr, unsigned int port, const char *port_file)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	int fd, one = 1;

	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		log_err("bad listen address '%s'", addr);
		return -1;
	}
	sin.sin_port = htons((uint16_t)port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_err("socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, 256)) {
		log_err("listen on %s:%u: %s", addr, port, strerror(errno));
		close(fd);
		return -1;
	}
	getsockname(fd, (struct sockaddr *)&sin, &sl);
	log_info("listening on %s:%u", addr, ntohs(sin.sin_port));
	if (port_file) {
		FILE *f = fopen(port_file, "w");

		if (!f || fprintf(f, "%u\n", ntohs(sin.sin_port)) < 0 ||
		    fclose(f)) {
			log_err("cannot write port file %s: %s", port_file,
				strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}
