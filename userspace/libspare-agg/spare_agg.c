// SPDX-License-Identifier: GPL-2.0
/*
 * libspare-agg: blocking TCP client of spare-aggd (spare_agg.h).
 */
#include "spare_agg.h"
#include "agg_auth.h"
#include "agg_proto.h"
#include "spare_auth.h"
#include "spare_keyfile.h"
#include "spare_rdma.h"

#include <sodium.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

/* RDMA transport: one message per SEND (agg_proto.h, AGG_RDMA_*). */
#define RSLOT_SIZE	(AGG_HDR_SIZE + AGG_RDMA_MAX_PAYLOAD)
#define RSEND_SLOT	AGG_RDMA_RECV_DEPTH
#define RN_SLOTS	(AGG_RDMA_RECV_DEPTH + 1)
/* rdma_cm gives up after 15 REQ retries of about 4.3 s each */
#define RDMA_CONNECT_MS	90000
/* empty CQ polls before sleeping on the completion channel */
#define RDMA_SPINS	2000

struct agg_rdma_cli {
	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;	/* to sleep once spinning is over */
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;
	bool connected;
	/* the CM event that closed the connection (DISCONNECTED...), or 0 */
	enum rdma_cm_event_type closed_by;
	bool closed;
	/* received messages not consumed yet, in arrival order */
	int ready[AGG_RDMA_RECV_DEPTH];
	uint32_t ready_len[AGG_RDMA_RECV_DEPTH];
	unsigned int n_ready;
	int cur;		/* slot being read, or -1 */
	size_t cur_len, cur_off;
	/* a message being gathered for sending */
	size_t tx_len;
};

struct spare_agg {
	int fd;
	struct agg_rdma_cli *r;
	unsigned int timeout_ms;
	/* spare_agg_set_register_limit(); 0: the default rule */
	unsigned int reg_limit_ms;
	/* while a REGISTER hears REGISTER_WAIT: no receive timeout below it */
	unsigned int floor_ms;
	bool broken;
	unsigned int status;
	char err[AGG_MAX_ERR_TEXT + 64];
	uint32_t job_id;
	bool registered;
	struct agg_job_spec spec;
	/* where we are connected, to follow a REDIRECT the same way */
	struct agg_target at;
	bool rdma_src_set;
	char rdma_src[AGG_HOST_LEN + 1];
	unsigned int redirects;		/* followed so far */
	/* spare_agg_tenant(): proved again on every new connection */
	bool tenant_set;
	char tenant[AGG_NAME_LEN + 1];
	uint8_t tenant_key[AGG_TENANT_KEY_LEN];
};

/* A job moves a few times in its life, not in a loop. */
#define MAX_REDIRECTS	16

static int fail(struct spare_agg *a, unsigned int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct spare_agg *a, unsigned int status, const char *fmt, ...)
{
	va_list ap;

	a->broken = true;
	a->status = status;
	va_start(ap, fmt);
	vsnprintf(a->err, sizeof(a->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* The receive timeout: the connection's, raised to floor_ms meanwhile. */
static unsigned int recv_timeout_ms(const struct spare_agg *a)
{
	return a->timeout_ms && a->timeout_ms < a->floor_ms ? a->floor_ms :
	       a->timeout_ms;
}

/* ---- RDMA transport ---- */

static void rdma_cli_free(struct agg_rdma_cli *r)
{
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.ec = r->ec, .id = r->id, .mr = r->mr, .cq = r->cq, .cc = r->cc,
		.pd = r->pd, .up = r->connected });
	free(r->buf);
	free(r);
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int rdma_post_recv(struct agg_rdma_cli *r, int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(r->buf + (size_t)slot * RSLOT_SIZE),
		.length = RSLOT_SIZE, .lkey = r->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = (uint64_t)slot, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(r->id->qp, &wr, &bad);
}

struct spare_agg *spare_agg_connect_rdma(const char *host, unsigned int port,
					 const char *src, char *err,
					 size_t err_len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICSERV }, *dst = NULL, *sa = NULL;
	struct spare_rdma_err e;
	struct agg_rdma_cli *r = calloc(1, sizeof(*r));
	struct spare_agg *a = NULL;
	char portstr[16];
	int ret;

	if (err_len)
		err[0] = '\0';
	if (!r) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	r->cur = -1;
	snprintf(portstr, sizeof(portstr), "%u", port);
	ret = getaddrinfo(host, portstr, &hints, &dst);
	if (!ret && src)
		ret = getaddrinfo(src, NULL, &hints, &sa);
	if (ret) {
		snprintf(err, err_len, "resolve %s: %s", ret && !dst ? host : src,
			 gai_strerror(ret));
		goto fail;
	}
	if (spare_rdma_open(&r->ec, &r->id, NULL, false, &e)) {
		snprintf(err, err_len, "rdma_cm: %s", strerror(e.err));
		goto fail;
	}
	if (spare_rdma_resolve(r->ec, r->id, sa ? sa->ai_addr : NULL,
			       dst->ai_addr, 5000, 6000, 0, &e))
		goto fail_rdma;
	r->pd = ibv_alloc_pd(r->id->verbs);
	if (!r->pd || spare_rdma_cq(r->id->verbs, 64, NULL,
				    SPARE_RDMA_CQ_CHANNEL | SPARE_RDMA_CQ_NONBLOCK,
				    &r->cc, &r->cq, &e)) {
		snprintf(err, err_len, "verbs setup: %s", strerror(errno));
		goto fail;
	}
	r->buf = aligned_alloc(4096, (size_t)RN_SLOTS * RSLOT_SIZE);
	r->mr = r->buf ? ibv_reg_mr(r->pd, r->buf, (size_t)RN_SLOTS * RSLOT_SIZE,
				    IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!r->mr || spare_rdma_qp(r->id, r->pd, r->cq, 4, AGG_RDMA_RECV_DEPTH)) {
		snprintf(err, err_len, "verbs setup: %s", strerror(errno));
		goto fail;
	}
	for (int i = 0; i < AGG_RDMA_RECV_DEPTH; i++)
		if (rdma_post_recv(r, i)) {
			snprintf(err, err_len, "ibv_post_recv failed");
			goto fail;
		}
	/*
	 * rdma_cm retries the REQ and reports REJECTED or UNREACHABLE by
	 * itself, like a TCP connect; the deadline only guards against a
	 * lost event. A short one gave up on a daemon that was merely slow
	 * (soft-RoCE under load: 10 s was missed), and the daemon then
	 * failed to set up a connection whose peer had already left.
	 */
	if (spare_rdma_connect(r->ec, r->id, NULL, 0, 0, RDMA_CONNECT_MS, &e))
		goto fail_rdma;
	r->connected = true;
	if (spare_rdma_fast_rnr(r->id->qp)) {
		snprintf(err, err_len, "cannot shorten the RNR timer: %s",
			 strerror(errno));
		goto fail;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, err_len, "out of memory");
		goto fail;
	}
	a->fd = -1;
	a->r = r;
	snprintf(a->at.host, sizeof(a->at.host), "%s", host);
	a->at.port = (uint16_t)port;
	if (src) {
		a->rdma_src_set = true;
		snprintf(a->rdma_src, sizeof(a->rdma_src), "%s", src);
	}
	freeaddrinfo(dst);
	if (sa)
		freeaddrinfo(sa);
	return a;
fail_rdma:
	{
		char why[160];

		snprintf(err, err_len, "rdma connect %s:%u: %s", host, port,
			 spare_rdma_strerr(&e, why, sizeof(why)));
	}
fail:
	if (dst)
		freeaddrinfo(dst);
	if (sa)
		freeaddrinfo(sa);
	rdma_cli_free(r);
	return NULL;
}

/*
 * A transport failure while an ERROR from the daemon is already received:
 * report the daemon's reason, which is the useful one.
 */
static int rdma_fail(struct spare_agg *a, const char *what)
{
	struct agg_rdma_cli *r = a->r;

	for (unsigned int i = 0; i < r->n_ready; i++) {
		const uint8_t *m = r->buf + (size_t)r->ready[i] * RSLOT_SIZE;
		struct agg_hdr h;

		if (r->ready_len[i] >= AGG_HDR_SIZE &&
		    !agg_hdr_decode(m, &h, AGG_RDMA_MAX_PAYLOAD) &&
		    h.type == AGG_MSG_ERROR &&
		    r->ready_len[i] == AGG_HDR_SIZE + h.len)
			return fail(a, h.status ? h.status : AGG_EPROTO,
				    "spare-aggd: %.*s (%s)", (int)h.len,
				    (const char *)m + AGG_HDR_SIZE,
				    agg_status_str(h.status));
	}
	return fail(a, AGG_OK, "%s", what);
}

/*
 * Sleep on the completion channel until a completion may be there, or the
 * deadline. Arming and then polling once more closes the race with a
 * completion that came in between; events are acked at once. The CM event
 * channel is watched too: a daemon that closes the connection may leave
 * our send without its ACK (rxe sends none from a QP in error), and the
 * DREQ is then what tells us; r->closed is set for the caller, who looks
 * at the CQ once more first.
 */
static int rdma_sleep(struct agg_rdma_cli *r, double deadline)
{
	struct pollfd pfd[2] = { { .fd = r->cc->fd, .events = POLLIN },
				 { .fd = r->ec->fd, .events = POLLIN } };
	enum rdma_cm_event_type t;
	struct ibv_cq *cq;
	void *ctx;
	double left = deadline - mono_ms();
	int st;

	if (left <= 0)
		return 0;
	if (poll(pfd, 2, left > 1e9 ? -1 : (int)left + 1) < 0 && errno != EINTR)
		return -1;
	while (!ibv_get_cq_event(r->cc, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	if ((pfd[1].revents & (POLLIN | POLLERR | POLLHUP)) &&
	    !spare_rdma_wait(r->ec, 0, &t, &st) &&
	    (t == RDMA_CM_EVENT_DISCONNECTED ||
	     t == RDMA_CM_EVENT_DEVICE_REMOVAL)) {
		r->closed = true;
		r->closed_by = t;
	}
	return 0;
}

/*
 * Poll the CQ until the send completes (want_send) or a message arrives,
 * within the connection's timeout. Received messages are queued in order.
 * It spins for a short while, for latency, and then sleeps on the
 * completion channel: 24 workers spinning on 2 CPUs (with 20 us naps) left
 * soft-RoCE and the daemon so little CPU that connections took seconds.
 */
static int rdma_poll(struct spare_agg *a, bool want_send)
{
	struct agg_rdma_cli *r = a->r;
	unsigned int t = recv_timeout_ms(a);
	double deadline = mono_ms() + (t ? t : 1e12);
	unsigned int spins = 0;
	bool sent = false, armed = false;

	for (;;) {
		struct ibv_wc wc[8];
		int n = ibv_poll_cq(r->cq, 8, wc);

		if (n < 0)
			return rdma_fail(a, "ibv_poll_cq failed");
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				char what[96];

				snprintf(what, sizeof(what), "RDMA %s failed: %s",
					 wc[i].wr_id == RSEND_SLOT ? "send" : "receive",
					 ibv_wc_status_str(wc[i].status));
				return rdma_fail(a, what);
			}
			if (wc[i].wr_id == RSEND_SLOT) {
				sent = true;
				continue;
			}
			r->ready[r->n_ready] = (int)wc[i].wr_id;
			r->ready_len[r->n_ready++] = wc[i].byte_len;
		}
		if (want_send ? sent : r->n_ready > 0)
			return 0;
		if (n)
			continue;
		if (r->closed) {
			char what[96];

			snprintf(what, sizeof(what),
				 "RDMA: spare-aggd closed the connection (%s)",
				 rdma_event_str(r->closed_by));
			return rdma_fail(a, what);
		}
		if (mono_ms() > deadline)
			return rdma_fail(a, "RDMA: timed out");
		if (++spins < RDMA_SPINS)
			continue;
		/* arm, then poll again before sleeping */
		if (!armed) {
			if (ibv_req_notify_cq(r->cq, 0))
				return rdma_fail(a, "ibv_req_notify_cq failed");
			armed = true;
			continue;
		}
		if (rdma_sleep(r, deadline))
			return rdma_fail(a, "waiting for a completion failed");
		armed = false;
	}
}

static int rdma_send_msg(struct spare_agg *a, const uint8_t *hdr,
			 const void *payload, size_t len)
{
	struct agg_rdma_cli *r = a->r;
	uint8_t *slot = r->buf + (size_t)RSEND_SLOT * RSLOT_SIZE;
	struct ibv_sge sge = { .addr = (uintptr_t)slot,
			       .length = (uint32_t)(AGG_HDR_SIZE + len),
			       .lkey = r->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = RSEND_SLOT, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	if (len > AGG_RDMA_MAX_PAYLOAD)
		return fail(a, AGG_ESIZE, "RDMA: %zu-byte payload over the %u-byte limit",
			    len, AGG_RDMA_MAX_PAYLOAD);
	memcpy(slot, hdr, AGG_HDR_SIZE);
	if (len)
		memcpy(slot + AGG_HDR_SIZE, payload, len);
	if (ibv_post_send(r->id->qp, &wr, &bad))
		return fail(a, AGG_OK, "ibv_post_send: %s", strerror(errno));
	/* wait for the send: the slot is reused by the next message */
	return rdma_poll(a, true);
}

static int rdma_recv_all(struct spare_agg *a, void *buf, size_t len)
{
	struct agg_rdma_cli *r = a->r;
	uint8_t *p = buf;

	while (len) {
		size_t n;

		if (r->cur < 0) {
			if (!r->n_ready && rdma_poll(a, false))
				return -1;
			r->cur = r->ready[0];
			r->cur_len = r->ready_len[0];
			r->cur_off = 0;
			memmove(r->ready, r->ready + 1, --r->n_ready * sizeof(int));
			memmove(r->ready_len, r->ready_len + 1,
				r->n_ready * sizeof(uint32_t));
		}
		n = r->cur_len - r->cur_off;
		if (n > len)
			n = len;
		memcpy(p, r->buf + (size_t)r->cur * RSLOT_SIZE + r->cur_off, n);
		p += n;
		len -= n;
		r->cur_off += n;
		if (r->cur_off == r->cur_len) {
			if (rdma_post_recv(r, r->cur))
				return fail(a, AGG_OK, "ibv_post_recv failed");
			r->cur = -1;
		}
		if (len && !n)
			return fail(a, AGG_EPROTO, "RDMA: empty message");
	}
	return 0;
}

unsigned int spare_agg_status(const struct spare_agg *a)
{
	return a->status;
}

const char *spare_agg_error(const struct spare_agg *a)
{
	return a->err[0] ? a->err : "no error";
}

struct spare_agg *spare_agg_connect(const char *host, unsigned int port,
				    char *err, size_t err_len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	struct spare_agg *a;
	char portstr[16];
	int fd = -1, ret, one = 1;

	snprintf(portstr, sizeof(portstr), "%u", port);
	ret = getaddrinfo(host, portstr, &hints, &res);
	if (ret) {
		snprintf(err, err_len, "resolve %s: %s", host, gai_strerror(ret));
		return NULL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0)
			continue;
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		ret = errno;
		close(fd);
		fd = -1;
		errno = ret;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, err_len, "connect %s:%u: %s", host, port,
			 strerror(errno));
		return NULL;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	a = calloc(1, sizeof(*a));
	if (!a) {
		close(fd);
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	a->fd = fd;
	snprintf(a->at.host, sizeof(a->at.host), "%s", host);
	a->at.port = (uint16_t)port;
	return a;
}

void spare_agg_close(struct spare_agg *a)
{
	if (!a)
		return;
	if (a->r)
		rdma_cli_free(a->r);
	else
		close(a->fd);
	agg_spec_free(&a->spec);
	sodium_memzero(a->tenant_key, sizeof(a->tenant_key));
	free(a);
}

int spare_agg_set_timeout(struct spare_agg *a, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	a->timeout_ms = ms;
	if (a->r)
		return 0;
	if (setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(a->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return fail(a, AGG_OK, "setsockopt: %s", strerror(errno));
	return 0;
}

/* Set floor_ms and, over TCP, the socket's receive timeout to match. */
static void set_floor(struct spare_agg *a, unsigned int ms)
{
	unsigned int t;
	struct timeval tv;

	a->floor_ms = ms;
	if (a->r || !a->timeout_ms)
		return;		/* RDMA reads it in rdma_poll() */
	t = recv_timeout_ms(a);
	tv.tv_sec = t / 1000;
	tv.tv_usec = (t % 1000) * 1000;
	/* a failure leaves the connection's own timeout: a shorter wait */
	(void)setsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int spare_agg_set_register_limit(struct spare_agg *a, unsigned int ms)
{
	a->reg_limit_ms = ms;
	return 0;
}

static void rdma_cli_free(struct agg_rdma_cli *r);
static int rdma_send_msg(struct spare_agg *a, const uint8_t *hdr,
			 const void *payload, size_t len);
static int rdma_recv_all(struct spare_agg *a, void *buf, size_t len);

static int io_error(struct spare_agg *a, const char *what, ssize_t n)
{
	if (n == 0)
		return fail(a, AGG_OK, "%s: daemon closed the connection", what);
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return fail(a, AGG_OK, "%s: timed out", what);
	return fail(a, AGG_OK, "%s: %s", what, strerror(errno));
}

/*
 * A send failed because the daemon closed the connection: it does that
 * right after an ERROR, which may be waiting in our receive queue behind
 * replies we have not read yet. Report the daemon's reason if it is there.
 */
static int send_error_reason(struct spare_agg *a, ssize_t n)
{
	enum { PEEK = 64 << 10 };
	int saved = errno;	/* the send's */
	uint8_t *buf = malloc(PEEK);
	ssize_t got = buf ? recv(a->fd, buf, PEEK, MSG_PEEK | MSG_DONTWAIT) : -1;
	size_t off = 0;

	while (got > 0 && off + AGG_HDR_SIZE <= (size_t)got) {
		struct agg_hdr h;

		if (agg_hdr_decode(buf + off, &h, AGG_MAX_PART_ELEMS * 4))
			break;
		if (off + AGG_HDR_SIZE + h.len > (size_t)got)
			break;
		if (h.type == AGG_MSG_ERROR) {
			int ret = fail(a, h.status ? h.status : AGG_EPROTO,
				       "spare-aggd: %.*s (%s)", (int)h.len,
				       (const char *)buf + off + AGG_HDR_SIZE,
				       agg_status_str(h.status));

			free(buf);
			return ret;
		}
		off += AGG_HDR_SIZE + h.len;
	}
	free(buf);
	errno = saved;
	return io_error(a, "send", n);
}

static int send_msg(struct spare_agg *a, const struct agg_hdr *h,
		    const void *payload, size_t len)
{
	uint8_t hdr[AGG_HDR_SIZE];
	struct iovec iov[2] = {
		{ .iov_base = hdr, .iov_len = sizeof(hdr) },
		{ .iov_base = (void *)payload, .iov_len = len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

	if (a->broken)
		return -1;
	agg_hdr_encode(h, hdr);
	if (a->r)
		return rdma_send_msg(a, hdr, payload, len);
	while (msg.msg_iovlen) {
		ssize_t n = sendmsg(a->fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && (errno == EPIPE || errno == ECONNRESET) ?
			       send_error_reason(a, n) : io_error(a, "send", n);
		while (msg.msg_iovlen && (size_t)n >= msg.msg_iov->iov_len) {
			n -= (ssize_t)msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			msg.msg_iov->iov_base = (uint8_t *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static int recv_all(struct spare_agg *a, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (a->r)
		return rdma_recv_all(a, buf, len);
	while (len) {
		ssize_t n = recv(a->fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return io_error(a, "receive", n);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Receive one message header. An ERROR is consumed here and turned into a
 * failure carrying the daemon's status and text. A REDIRECT is returned to
 * the caller (recv_hdr() below follows it).
 */
static int recv_hdr_raw(struct spare_agg *a, struct agg_hdr *h)
{
	uint8_t hdr[AGG_HDR_SIZE];
	char text[AGG_MAX_ERR_TEXT + 1];
	uint32_t max = AGG_MAX_PART_ELEMS * 4;
	int ret;

	if (a->broken)
		return -1;
	if (recv_all(a, hdr, sizeof(hdr)))
		return -1;
	ret = agg_hdr_decode(hdr, h, max);
	if (ret)
		return fail(a, (unsigned int)-ret, "bad header from daemon: %s",
			    agg_status_str((unsigned int)-ret));
	if (h->type != AGG_MSG_ERROR)
		return 0;
	if (recv_all(a, text, h->len))
		return -1;
	text[h->len] = '\0';
	return fail(a, h->status ? h->status : AGG_EPROTO, "spare-aggd: %s (%s)",
		    text, agg_status_str(h->status));
}

/* The payload of a REDIRECT whose header is in h. */
static int recv_redirect(struct spare_agg *a, const struct agg_hdr *h,
			 struct agg_target *to)
{
	uint8_t body[AGG_REDIRECT_SIZE];

	if (h->len != AGG_REDIRECT_SIZE)
		return fail(a, AGG_EPROTO, "REDIRECT of %u bytes", h->len);
	if (recv_all(a, body, sizeof(body)))
		return -1;
	if (agg_redirect_decode(body, sizeof(body), to))
		return fail(a, AGG_EPROTO, "malformed REDIRECT");
	return 0;
}

static int do_tenant(struct spare_agg *a);

/* Replace the transport by a connection to 'to' of the same kind. */
static int reconnect(struct spare_agg *a, const struct agg_target *to)
{
	struct spare_agg *n;
	char err[256];

	if (++a->redirects > MAX_REDIRECTS)
		return fail(a, AGG_EMOVED, "more than %d redirects", MAX_REDIRECTS);
	n = a->r ? spare_agg_connect_rdma(to->host, to->port,
					  a->rdma_src_set ? a->rdma_src : NULL,
					  err, sizeof(err)) :
		   spare_agg_connect(to->host, to->port, err, sizeof(err));
	if (!n)
		return fail(a, AGG_EMOVED, "the job moved to %s:%u: %s", to->host,
			    to->port, err);
	if (a->r)
		rdma_cli_free(a->r);
	else
		close(a->fd);
	a->fd = n->fd;
	a->r = n->r;
	a->at = *to;
	free(n);
	if (a->timeout_ms && spare_agg_set_timeout(a, a->timeout_ms))
		return -1;
	return a->tenant_set ? do_tenant(a) : 0;
}

/* TENANT_HELLO, _CHALLENGE, _PROOF, _REPLY on the current connection. */
static int do_tenant(struct spare_agg *a)
{
	uint8_t hello[AGG_TENANT_HELLO_SIZE], nd[AGG_TENANT_NONCE_LEN];
	uint8_t mac[AGG_TENANT_MAC_LEN];
	struct agg_hdr h;

	agg_name_encode(hello, a->tenant);
	randombytes_buf(hello + AGG_NAME_LEN, AGG_TENANT_NONCE_LEN);
	agg_hdr_init(&h, AGG_MSG_TENANT_HELLO, sizeof(hello));
	if (send_msg(a, &h, hello, sizeof(hello)) || recv_hdr_raw(a, &h))
		return -1;
	if (h.type != AGG_MSG_TENANT_CHALLENGE || h.len != sizeof(nd))
		return fail(a, AGG_EPROTO, "tenant: unexpected %s reply",
			    agg_msg_type_name(h.type));
	if (recv_all(a, nd, sizeof(nd)))
		return -1;
	agg_tenant_mac(mac, a->tenant_key, a->tenant, hello + AGG_NAME_LEN, nd);
	agg_hdr_init(&h, AGG_MSG_TENANT_PROOF, sizeof(mac));
	if (send_msg(a, &h, mac, sizeof(mac)) || recv_hdr_raw(a, &h))
		return -1;
	if (h.type != AGG_MSG_TENANT_REPLY)
		return fail(a, AGG_EPROTO, "tenant: unexpected %s reply",
			    agg_msg_type_name(h.type));
	return 0;
}

int spare_agg_tenant(struct spare_agg *a, const char *tenant, const char *key_file)
{
	char text[256], why[256];
	const char *bad;
	long n;

	if (!tenant || !*tenant || strlen(tenant) > AGG_NAME_LEN || !key_file)
		return fail(a, AGG_EINVAL, "tenant: a name of 1..%d bytes and a key file, please",
			    AGG_NAME_LEN);
	for (const char *p = tenant; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			return fail(a, AGG_EINVAL, "tenant: the name has a byte that is not printable");
	if (sodium_init() < 0)
		return fail(a, AGG_EINVAL, "tenant: libsodium failed to initialise");
	n = spare_key_file_read(key_file, text, sizeof(text), why, sizeof(why));
	if (n < 0)
		return fail(a, AGG_EINVAL, "tenant: %s", why);
	bad = spare_key_parse(text, a->tenant_key);
	sodium_memzero(text, sizeof(text));
	if (bad)
		return fail(a, AGG_EINVAL, "tenant: %s: %s", key_file, bad);
	strcpy(a->tenant, tenant);
	a->tenant_set = true;
	return do_tenant(a);
}

static int do_register(struct spare_agg *a);

/*
 * recv_hdr_raw(), following a REDIRECT: reconnect, register again, and
 * fail with AGG_EMOVED without breaking the connection, so that the caller
 * repeats what the old instance dropped.
 */
static int recv_hdr(struct spare_agg *a, struct agg_hdr *h)
{
	struct agg_target to;
	uint32_t iter;

	if (recv_hdr_raw(a, h))
		return -1;
	if (h->type != AGG_MSG_REDIRECT)
		return 0;
	iter = h->iter;
	if (recv_redirect(a, h, &to) || reconnect(a, &to))
		return -1;
	if (a->registered) {
		a->registered = false;
		if (do_register(a))
			return -1;
	}
	a->status = AGG_EMOVED;
	snprintf(a->err, sizeof(a->err),
		 "the job moved to %s:%u at iteration %u; repeat from there",
		 a->at.host, a->at.port, iter);
	return -1;
}

/* Did the last call fail only because the job moved (connection usable)? */
static bool moved(const struct spare_agg *a)
{
	return !a->broken && a->status == AGG_EMOVED;
}

static void clear_moved(struct spare_agg *a)
{
	a->status = AGG_OK;
	a->err[0] = '\0';
}

int spare_agg_register(struct spare_agg *a, const struct spare_agg_job *job,
		       const struct spare_agg_tensor *tensors,
		       unsigned int n_tensors)
{
	struct agg_job_spec *s = &a->spec;
	int ret;

	if (a->registered)
		return fail(a, AGG_ESTATE, "already registered");
	if (!job->name || !job->token || strlen(job->name) > AGG_NAME_LEN ||
	    strlen(job->token) > AGG_TOKEN_LEN || !n_tensors ||
	    n_tensors > AGG_MAX_TENSORS || job->n_workers > AGG_MAX_WORKERS ||
	    job->rank >= job->n_workers || job->dtype > 255 || job->opt > 255 ||
	    job->weight > AGG_MAX_WEIGHT)
		return fail(a, AGG_EINVAL, "register: argument out of range");
	agg_spec_free(s);
	memset(s, 0, sizeof(*s));
	strcpy(s->name, job->name);
	strcpy(s->token, job->token);
	s->n_workers = (uint16_t)job->n_workers;
	s->rank = (uint16_t)job->rank;
	s->dtype = (uint8_t)job->dtype;
	s->opt = (uint8_t)job->opt;
	s->weight = (uint16_t)(job->weight ? job->weight : 1);
	s->part_elems = job->part_elems;
	s->n_tensors = n_tensors;
	s->lr = job->lr;
	s->momentum = job->momentum;
	s->tensors = calloc(n_tensors, sizeof(*s->tensors));
	if (!s->tensors)
		return fail(a, AGG_ENOMEM, "register: out of memory");
	for (unsigned int i = 0; i < n_tensors; i++) {
		if (!tensors[i].name || strlen(tensors[i].name) > AGG_NAME_LEN)
			return fail(a, AGG_EINVAL, "register: tensor %u name", i);
		strcpy(s->tensors[i].name, tensors[i].name);
		s->tensors[i].nelem = tensors[i].nelem;
	}
	ret = agg_spec_finish(s);
	if (ret)
		return fail(a, (unsigned int)-ret, "register: invalid job: %s",
			    agg_status_str((unsigned int)-ret));
	return do_register(a);
}

/* How long a REGISTER waits for a job of @total bytes being created; 0:
 * for ever. */
static double register_limit_ms(const struct spare_agg *a, uint64_t total)
{
	double gib = (double)(1ULL << 30);
	double ms;

	if (a->reg_limit_ms)
		return a->reg_limit_ms;
	if (!a->timeout_ms)
		return 0;
	ms = SPARE_AGG_REGISTER_LIMIT_BASE_MS +
	     SPARE_AGG_REGISTER_LIMIT_PER_GIB_MS * ((double)total / gib);
	return ms > a->timeout_ms ? ms : a->timeout_ms;
}

/* A REGISTER_WAIT's gap, at most: a few of the daemon's intervals. */
#define REG_WAIT_GAP_MS		(5 * AGG_REG_WAIT_INTERVAL_MS)

/*
 * The answer to a REGISTER: its REGISTER_WAITs (the job is being created,
 * agg_proto.h) are taken here while the wait is within the limit
 * (register_limit_ms(), checked as each arrives), and the receive timeout
 * meanwhile is the connection's, but not below REG_WAIT_GAP_MS.
 */
static int recv_register_answer(struct spare_agg *a, struct agg_hdr *h)
{
	uint8_t body[AGG_REG_WAIT_SIZE];
	double start = mono_ms(), limit, waited;
	uint64_t made, total;
	int ret;

	for (;;) {
		ret = recv_hdr_raw(a, h);
		if (ret || h->type != AGG_MSG_REGISTER_WAIT)
			break;
		ret = recv_all(a, body, sizeof(body));
		if (ret)
			break;
		if (agg_reg_wait_decode(body, sizeof(body), &made, &total)) {
			ret = fail(a, AGG_EPROTO, "register: malformed REGISTER_WAIT");
			break;
		}
		limit = register_limit_ms(a, total);
		waited = mono_ms() - start;
		if (limit && waited > limit) {
			ret = fail(a, AGG_OK,
				   "register: job '%s' still being created after %.1f s (%" PRIu64 " of %" PRIu64 " bytes made): gave up at the limit of %.1f s",
				   a->spec.name, waited / 1e3, made, total,
				   limit / 1e3);
			break;
		}
		if (!a->floor_ms)
			set_floor(a, REG_WAIT_GAP_MS);
	}
	if (a->floor_ms)
		set_floor(a, 0);
	return ret;
}

/* Send REGISTER of a->spec; a REDIRECT reply (the job moved) is followed. */
static int do_register(struct spare_agg *a)
{
	struct agg_job_spec *s = &a->spec;
	uint8_t reply[AGG_REG_REPLY_SIZE];
	uint32_t n_parts;
	struct agg_hdr h;
	uint8_t *body;
	int len, ret;

	body = malloc(agg_register_size(s->n_tensors));
	if (!body)
		return fail(a, AGG_ENOMEM, "register: out of memory");
	len = agg_register_encode(s, body, agg_register_size(s->n_tensors));
	if (len < 0) {
		free(body);
		return fail(a, (unsigned int)-len, "register: encode failed");
	}
	for (;;) {
		struct agg_target to;

		agg_hdr_init(&h, AGG_MSG_REGISTER, (uint32_t)len);
		h.rank = s->rank;
		h.part = AGG_REG_WANT_WAIT;	/* flags */
		if (send_msg(a, &h, body, (size_t)len) ||
		    recv_register_answer(a, &h))
			goto err;
		if (h.type != AGG_MSG_REDIRECT)
			break;
		if (recv_redirect(a, &h, &to) || reconnect(a, &to))
			goto err;
	}
	free(body);
	if (h.type != AGG_MSG_REGISTER_REPLY || h.len != AGG_REG_REPLY_SIZE)
		return fail(a, AGG_EPROTO, "register: unexpected %s reply",
			    agg_msg_type_name(h.type));
	if (recv_all(a, reply, sizeof(reply)))
		return -1;
	ret = agg_reg_reply_decode(reply, sizeof(reply), &n_parts);
	if (ret || n_parts != s->n_parts)
		return fail(a, AGG_EPROTO,
			    "register: daemon counts %u partitions, we count %u",
			    n_parts, s->n_parts);
	a->job_id = h.job_id;
	a->registered = true;
	return 0;
err:
	free(body);
	return -1;
}

uint32_t spare_agg_job_id(const struct spare_agg *a)
{
	return a->job_id;
}

uint32_t spare_agg_n_parts(const struct spare_agg *a)
{
	return a->registered ? a->spec.n_parts : 0;
}

int spare_agg_part_info(const struct spare_agg *a, uint32_t part,
			uint32_t *tensor, uint64_t *offset, uint32_t *nelem)
{
	if (!a->registered)
		return -1;
	return agg_spec_part(&a->spec, part, tensor, offset, nelem) ? -1 : 0;
}

size_t spare_agg_part_bytes(const struct spare_agg *a, uint32_t part)
{
	return a->registered ? agg_spec_push_bytes(&a->spec, part) : 0;
}

static int check_part(struct spare_agg *a, const char *what, uint32_t part,
		      size_t len)
{
	if (!a->registered)
		return fail(a, AGG_ENOJOB, "%s: not registered", what);
	if (part >= a->spec.n_parts)
		return fail(a, AGG_EINVAL, "%s: partition %u out of range", what,
			    part);
	if (len != agg_spec_push_bytes(&a->spec, part))
		return fail(a, AGG_ESIZE, "%s: partition %u takes %zu bytes, not %zu",
			    what, part, agg_spec_push_bytes(&a->spec, part), len);
	return 0;
}

static int send_part(struct spare_agg *a, unsigned int type, uint32_t part,
		     uint32_t iter, const void *buf, size_t len)
{
	struct agg_hdr h;

	agg_hdr_init(&h, type, (uint32_t)len);
	h.job_id = a->job_id;
	h.part = part;
	h.iter = iter;
	h.rank = a->spec.rank;
	return send_msg(a, &h, buf, len);
}

int spare_agg_push(struct spare_agg *a, uint32_t part, uint32_t iter,
		   const void *buf, size_t len)
{
	if (check_part(a, "push", part, len))
		return -1;
	return send_part(a, AGG_MSG_PUSH, part, iter, buf, len);
}

int spare_agg_set_weights(struct spare_agg *a, uint32_t part,
			  const void *buf, size_t len)
{
	if (check_part(a, "set_weights", part, len))
		return -1;
	return send_part(a, AGG_MSG_SET_WEIGHTS, part, 0, buf, len);
}

/* Receive one PULL_REPLY of iteration iter for a partition in [lo, hi). */
static int recv_pull_reply(struct spare_agg *a, uint32_t lo, uint32_t hi,
			   uint32_t iter, uint32_t *part)
{
	struct agg_hdr h;

	if (recv_hdr(a, &h))
		return -1;
	if (h.type != AGG_MSG_PULL_REPLY || h.part < lo || h.part >= hi ||
	    h.iter != iter || h.len != agg_spec_push_bytes(&a->spec, h.part))
		return fail(a, AGG_EPROTO,
			    "pull: unexpected %s (partition %u iteration %u, %u bytes)",
			    agg_msg_type_name(h.type), h.part, h.iter, h.len);
	*part = h.part;
	return 0;
}

int spare_agg_pull(struct spare_agg *a, uint32_t part, uint32_t iter,
		   void *buf, size_t len)
{
	uint32_t got;

	if (check_part(a, "pull", part, len) ||
	    send_part(a, AGG_MSG_PULL, part, iter, NULL, 0) ||
	    recv_pull_reply(a, part, part + 1, iter, &got))
		return -1;
	return recv_all(a, buf, len);
}

static int allreduce_once(struct spare_agg *a, uint32_t tensor, uint32_t iter,
			  const void *in, void *out);

int spare_agg_allreduce(struct spare_agg *a, uint32_t tensor, uint32_t iter,
			const void *in, void *out)
{
	/*
	 * A REDIRECT comes before any reply of an iteration the old
	 * instance dropped, so nothing of out was written: do it all again
	 * at the new instance.
	 */
	for (;;) {
		if (!allreduce_once(a, tensor, iter, in, out))
			return 0;
		if (!moved(a))
			return -1;
		clear_moved(a);
	}
}

static int allreduce_once(struct spare_agg *a, uint32_t tensor, uint32_t iter,
			  const void *in, void *out)
{
	size_t esz;
	uint32_t lo, hi;

	if (!a->registered)
		return fail(a, AGG_ENOJOB, "allreduce: not registered");
	if (tensor >= a->spec.n_tensors)
		return fail(a, AGG_EINVAL, "allreduce: tensor %u out of range",
			    tensor);
	esz = agg_dtype_size(a->spec.dtype);
	lo = a->spec.tensor_first_part[tensor];
	hi = a->spec.tensor_first_part[tensor + 1];
	for (uint32_t p = lo; p < hi; p++) {
		uint64_t off = (uint64_t)(p - lo) * a->spec.part_elems * esz;

		if (send_part(a, AGG_MSG_PUSH, p, iter, (const uint8_t *)in + off,
			      agg_spec_push_bytes(&a->spec, p)))
			return -1;
	}
	for (uint32_t p = lo; p < hi; p++)
		if (send_part(a, AGG_MSG_PULL, p, iter, NULL, 0))
			return -1;
	/* replies come in the order partitions finish, not request order */
	for (uint32_t i = lo; i < hi; i++) {
		uint32_t p;
		uint64_t off;

		if (recv_pull_reply(a, lo, hi, iter, &p)) {
			if (moved(a) && i > lo)
				/* out is half written: cannot repeat */
				return fail(a, AGG_EMOVED,
					    "allreduce: the job moved after %u of %u replies",
					    i - lo, hi - lo);
			return -1;
		}
		off = (uint64_t)(p - lo) * a->spec.part_elems * esz;
		if (recv_all(a, (uint8_t *)out + off,
			     agg_spec_push_bytes(&a->spec, p)))
			return -1;
	}
	return 0;
}

static int allreduce_many_once(struct spare_agg *a, unsigned int n,
			       const uint32_t *tensors, uint32_t iter,
			       const void *const *in, void *const *out)
{
	size_t esz = agg_dtype_size(a->spec.dtype);
	uint32_t total = 0;

	if (!a->registered)
		return fail(a, AGG_ENOJOB, "allreduce: not registered");
	for (unsigned int i = 0; i < n; i++) {
		if (tensors[i] >= a->spec.n_tensors)
			return fail(a, AGG_EINVAL, "allreduce: tensor %u out of range",
				    tensors[i]);
		for (unsigned int j = 0; j < i; j++)
			if (tensors[j] == tensors[i])
				return fail(a, AGG_EINVAL,
					    "allreduce: tensor %u given twice", tensors[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		uint32_t lo = a->spec.tensor_first_part[tensors[i]];
		uint32_t hi = a->spec.tensor_first_part[tensors[i] + 1];

		for (uint32_t p = lo; p < hi; p++) {
			uint64_t off = (uint64_t)(p - lo) * a->spec.part_elems * esz;

			if (send_part(a, AGG_MSG_PUSH, p, iter,
				      (const uint8_t *)in[i] + off,
				      agg_spec_push_bytes(&a->spec, p)))
				return -1;
		}
		total += hi - lo;
	}
	for (unsigned int i = 0; i < n; i++)
		for (uint32_t p = a->spec.tensor_first_part[tensors[i]];
		     p < a->spec.tensor_first_part[tensors[i] + 1]; p++)
			if (send_part(a, AGG_MSG_PULL, p, iter, NULL, 0))
				return -1;
	/* replies come in the order partitions finish, not request order */
	for (uint32_t got = 0; got < total; got++) {
		struct agg_hdr h;
		unsigned int i;
		uint32_t lo;

		if (recv_hdr(a, &h)) {
			if (moved(a) && got)
				/* out is partly written: cannot repeat */
				return fail(a, AGG_EMOVED,
					    "allreduce: the job moved after %u of %u replies",
					    got, total);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (h.part >= a->spec.tensor_first_part[tensors[i]] &&
			    h.part < a->spec.tensor_first_part[tensors[i] + 1])
				break;
		if (h.type != AGG_MSG_PULL_REPLY || i == n || h.iter != iter ||
		    h.len != agg_spec_push_bytes(&a->spec, h.part))
			return fail(a, AGG_EPROTO,
				    "pull: unexpected %s (partition %u iteration %u, %u bytes)",
				    agg_msg_type_name(h.type), h.part, h.iter, h.len);
		lo = a->spec.tensor_first_part[tensors[i]];
		if (recv_all(a, (uint8_t *)out[i] +
			     (uint64_t)(h.part - lo) * a->spec.part_elems * esz,
			     h.len))
			return -1;
	}
	return 0;
}

int spare_agg_allreduce_many(struct spare_agg *a, unsigned int n,
			     const uint32_t *tensors, uint32_t iter,
			     const void *const *in, void *const *out)
{
	/* as spare_agg_allreduce(): nothing of out was written before a REDIRECT */
	for (;;) {
		if (!allreduce_many_once(a, n, tensors, iter, in, out))
			return 0;
		if (!moved(a))
			return -1;
		clear_moved(a);
	}
}

int spare_agg_stats(struct spare_agg *a, char **text)
{
	struct agg_hdr h;
	char *buf;

	agg_hdr_init(&h, AGG_MSG_STATS, 0);
	if (send_msg(a, &h, NULL, 0) || recv_hdr(a, &h)) {
		if (!moved(a))
			return -1;
		/* a REDIRECT was waiting: ask the new instance */
		clear_moved(a);
		agg_hdr_init(&h, AGG_MSG_STATS, 0);
		if (send_msg(a, &h, NULL, 0) || recv_hdr(a, &h))
			return -1;
	}
	if (h.type != AGG_MSG_STATS_REPLY)
		return fail(a, AGG_EPROTO, "stats: unexpected %s",
			    agg_msg_type_name(h.type));
	buf = malloc((size_t)h.len + 1);
	if (!buf)
		return fail(a, AGG_ENOMEM, "stats: out of memory");
	if (recv_all(a, buf, h.len)) {
		free(buf);
		return -1;
	}
	buf[h.len] = '\0';
	*text = buf;
	return 0;
}

int spare_agg_leave(struct spare_agg *a)
{
	struct agg_hdr h;

	agg_hdr_init(&h, AGG_MSG_LEAVE, 0);
	return send_msg(a, &h, NULL, 0);
}

int spare_agg_migrate(struct spare_agg *a, const char *job, const char *token,
		      const char *host, unsigned int port, uint32_t *iter,
		      char *msg, size_t msg_len)
{
	struct agg_migrate_req req;
	uint8_t body[AGG_MIGRATE_SIZE];
	char text[AGG_MAX_ERR_TEXT + 1];
	struct agg_hdr h;

	memset(&req, 0, sizeof(req));
	if (!job || !token || !host || strlen(job) > AGG_NAME_LEN ||
	    strlen(token) > AGG_TOKEN_LEN || strlen(host) > AGG_HOST_LEN ||
	    !port || port > 65535)
		return fail(a, AGG_EINVAL, "migrate: argument out of range");
	strcpy(req.name, job);
	strcpy(req.token, token);
	strcpy(req.to.host, host);
	req.to.port = (uint16_t)port;
	if (agg_migrate_encode(&req, body) < 0)
		return fail(a, AGG_EINVAL, "migrate: invalid job, token or host");
	agg_hdr_init(&h, AGG_MSG_MIGRATE, sizeof(body));
	if (send_msg(a, &h, body, sizeof(body)) || recv_hdr_raw(a, &h))
		return -1;
	if (h.type != AGG_MSG_MIGRATE_REPLY)
		return fail(a, AGG_EPROTO, "migrate: unexpected %s reply",
			    agg_msg_type_name(h.type));
	if (recv_all(a, text, h.len))
		return -1;
	text[h.len] = '\0';
	if (iter)
		*iter = h.iter;
	if (msg && msg_len)
		snprintf(msg, msg_len, "%s", text);
	return 0;
}

int spare_agg_report(struct spare_agg *a, const char *job, const char *token,
		     uint64_t iter, double loss, double cpu_seconds,
		     uint64_t iter_total, double *share, uint32_t *flags)
{
	struct agg_report r;
	uint8_t body[AGG_REPORT_SIZE], reply[AGG_REPORT_REPLY_SIZE];
	char text[AGG_MAX_ERR_TEXT + 1];
	uint8_t hb[AGG_HDR_SIZE];
	struct agg_hdr h;
	double sh;
	uint32_t fl;
	int ret;

	if (a->broken)
		return -1;
	memset(&r, 0, sizeof(r));
	if (!job || !token || strlen(job) > AGG_NAME_LEN ||
	    strlen(token) > AGG_TOKEN_LEN) {
		a->status = AGG_EINVAL;
		snprintf(a->err, sizeof(a->err), "report: job or token too long");
		return -1;
	}
	strcpy(r.name, job);
	strcpy(r.token, token);
	r.iter = iter;
	r.loss = loss;
	r.cpu_seconds = cpu_seconds;
	r.iter_total = iter_total;
	if (agg_report_encode(&r, body) < 0) {
		/* nothing sent: the connection stays usable */
		a->status = AGG_EINVAL;
		snprintf(a->err, sizeof(a->err),
			 "report: invalid job, token, loss, CPU-seconds or iter_total");
		return -1;
	}
	agg_hdr_init(&h, AGG_MSG_REPORT, sizeof(body));
	if (send_msg(a, &h, body, sizeof(body)) || recv_all(a, hb, sizeof(hb)))
		return -1;
	ret = agg_hdr_decode(hb, &h, AGG_MAX_PART_ELEMS * 4);
	if (ret)
		return fail(a, (unsigned int)-ret, "bad header from daemon: %s",
			    agg_status_str((unsigned int)-ret));
	if (h.type == AGG_MSG_ERROR) {
		if (recv_all(a, text, h.len))
			return -1;
		text[h.len] = '\0';
		/* the daemon refused the report and reads on */
		a->status = h.status ? h.status : AGG_EPROTO;
		snprintf(a->err, sizeof(a->err), "spare-aggd: %s (%s)", text,
			 agg_status_str(a->status));
		return -1;
	}
	if (h.type != AGG_MSG_REPORT_REPLY)
		return fail(a, AGG_EPROTO, "report: unexpected %s reply",
			    agg_msg_type_name(h.type));
	if (recv_all(a, reply, h.len))
		return -1;
	if (agg_report_reply_decode(reply, h.len, &sh, &fl))
		return fail(a, AGG_EPROTO, "report: malformed REPORT_REPLY");
	a->status = AGG_OK;
	a->err[0] = '\0';
	if (share)
		*share = sh;
	if (flags)
		*flags = fl;
	return 0;
}
