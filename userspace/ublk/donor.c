// SPDX-License-Identifier: GPL-2.0
/*
 * donor: spare-ublk's RDMA connections to one donor. See donor.h and
 * Documentation/protocol.md.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "donor.h"
#include "spare_auth.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

#define SEND_WR_ID	((uint64_t)1 << 40)
/*
 * The local ACK timeout (struct donor's ack_timeout, --ack-timeout) is, as
 * spare.ko's ack_timeout parameter, 4.096 us << 16 = 268 ms per try by
 * default. Without it rxe never retransmits, and an operation posted to a
 * donor that died never completes.
 */
#define BAD_MSG_LOG_MS		10000	/* a malformed message's line, at most */

/* ---- rdma_cm ---- */

static void link_err(struct donor *d, const char *what,
		     const struct spare_rdma_err *e)
{
	char why[160];

	log_err("donor %s: %s: %s", d->host, what,
		spare_rdma_strerr(e, why, sizeof(why)));
}

static int link_resolve(struct donor *d, struct donor_link *l,
			const char *what)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV }, *dst, *src = NULL;
	struct spare_rdma_err e;
	int ret;

	if (spare_rdma_open(&l->ev, &l->id, NULL, false, &e)) {
		log_err("donor %s: %s: rdma_cm: %s (is an RDMA device up?)",
			d->host, what, strerror(e.err));
		return -1;
	}
	ret = getaddrinfo(d->host, d->port, &hints, &dst);
	if (ret) {
		log_err("donor %s: %s", d->host, gai_strerror(ret));
		return -1;
	}
	if (d->source) {
		ret = getaddrinfo(d->source, NULL, &hints, &src);
		if (ret) {
			freeaddrinfo(dst);
			log_err("--source %s: %s", d->source, gai_strerror(ret));
			return -1;
		}
	}
	ret = spare_rdma_resolve(l->ev, l->id, src ? src->ai_addr : NULL,
				 dst->ai_addr, (int)d->timeout_ms, d->timeout_ms,
				 d->ack_timeout, &e);
	freeaddrinfo(dst);
	if (src)
		freeaddrinfo(src);
	if (e.ack_err)
		log_warn("donor %s: %s: cannot set the ACK timeout: %s",
			 d->host, what, strerror(e.ack_err));
	if (ret)
		link_err(d, what, &e);
	return ret;
}

static int link_make_qp(struct donor *d, struct donor_link *l,
			unsigned int send, unsigned int recv, const char *what)
{
	struct spare_rdma_err e;

	if (spare_rdma_cq(l->id->verbs, (int)(send + recv), NULL,
			  SPARE_RDMA_CQ_CHANNEL | SPARE_RDMA_CQ_ARM, &l->cc,
			  &l->cq, &e))
		goto fail;
	if (spare_rdma_qp(l->id, d->pd, l->cq, send, recv))
		goto fail;
	return 0;
fail:
	log_err("donor %s: %s: CQ/QP set-up: %s", d->host, what, strerror(errno));
	return -1;
}

static int link_connect(struct donor *d, struct donor_link *l,
			const struct spare_conn_priv *priv, uint8_t rd_depth,
			const char *what)
{
	struct spare_rdma_err e;

	if (spare_rdma_connect(l->ev, l->id, priv, sizeof(*priv), rd_depth,
			       d->timeout_ms, &e)) {
		if (e.err)
			link_err(d, what, &e);
		else
			log_err("donor %s: %s connection refused: %s (status %d)",
				d->host, what, rdma_event_str(e.got), e.status);
		return -1;
	}
	l->up = true;
	return 0;
}

static void link_destroy(struct donor_link *l)
{
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.ec = l->ev, .id = l->id, .cq = l->cq, .cc = l->cc, .up = l->up });
	memset(l, 0, sizeof(*l));
}

/* ---- control messages ---- */

/*
 * Next completion on @l within @timeout_ms (0: do not wait): 1, 0 if none,
 * -1 on an error.
 *
 * On the control link the rdma_cm events are watched meanwhile (every
 * wait on it runs in the thread that owns the link: the connect thread,
 * or the lifecycle loop once the donor is live). A donor that closes the
 * session right after taking our message may leave that send without its
 * ACK (rxe sends none from a QP in error, and a destroyed QP answers no
 * retry), so the send neither completes nor fails for 7 ACK timeouts; the
 * DREQ tells us at once. The event is taken here, so l->lost keeps it for
 * the lifecycle loop (life_loop()), which fails the donor. The resync
 * link's events belong to the lifecycle loop alone (its waits run in the
 * resync thread): donor_fail() flushes them instead.
 */
static int cq_next(struct donor *d, struct donor_link *l, struct ibv_wc *wc,
		   unsigned int timeout_ms)
{
	uint64_t end = spare_now_ms() + timeout_ms;
	int cm_fd = l == &d->ctrl && l->ev ? l->ev->fd : -1;

	for (;;) {
		uint64_t now = spare_now_ms();
		int n;

		if (l->lost) {
			errno = ECONNRESET;
			return -1;
		}
		/* past the end, one last look at the CQ alone */
		n = spare_rdma_cq_wait(l->cq, l->cc, now < end ? cm_fd : -1, wc,
				       now < end ? (unsigned int)(end - now) : 0);
		if (n != 2)
			return n;
		if (donor_cm_event(d, l) < 0)
			l->lost = true;
	}
}

static int post_recv(struct donor *d, uint32_t i)
{
	struct ibv_sge sge = { (uintptr_t)&d->bufs[i], SPARE_MSG_SIZE,
			       d->bufs_mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 },
			   *bad;

	return ibv_post_recv(d->ctrl.id->qp, &wr, &bad) ? -1 : 0;
}

/* A received message in slot @i: keep it for recv_msg(), re-post the slot. */
static int keep_recv(struct donor *d, const struct ibv_wc *wc)
{
	uint32_t i = (uint32_t)wc->wr_id;

	if (d->npending < DONOR_RECV_DEPTH) {
		d->pending[d->npending] = d->bufs[i];
		d->pending_len[d->npending++] = wc->byte_len;
	} else {
		log_warn("donor %s: control messages overflow; one dropped",
			 d->host);
	}
	return post_recv(d, i);
}

static int send_msg(struct donor *d, const struct spare_msg *m)
{
	struct spare_msg *slot = &d->bufs[DONOR_RECV_DEPTH];
	struct ibv_sge sge = { (uintptr_t)slot, SPARE_MSG_SIZE,
			       d->bufs_mr->lkey };
	struct ibv_send_wr wr = { .wr_id = SEND_WR_ID, .sg_list = &sge,
				  .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int n;

	*slot = *m;
	if (ibv_post_send(d->ctrl.id->qp, &wr, &bad))
		goto fail;
	for (;;) {
		n = cq_next(d, &d->ctrl, &wc, d->timeout_ms);
		if (n <= 0 || wc.status != IBV_WC_SUCCESS)
			goto fail;
		if (wc.wr_id == SEND_WR_ID)
			return 0;
		if (keep_recv(d, &wc))
			goto fail;
	}
fail:
	log_err("donor %s: sending %s failed (connection lost?)", d->host,
		spare_msg_type_name(le16toh(m->hdr.type)));
	return -1;
}

/* Take one message: from pending, or from the CQ within @timeout_ms.
 * Returns 1, 0 if none came, -1 if the connection failed. */
static int take_msg(struct donor *d, struct spare_msg *m, unsigned int timeout_ms)
{
	struct ibv_wc wc;
	unsigned int type;
	uint64_t now;
	uint32_t len;
	int n, err;

	for (;;) {
		if (d->npending) {
			*m = d->pending[0];
			len = d->pending_len[0];
			d->npending--;
			memmove(d->pending, d->pending + 1,
				d->npending * sizeof(d->pending[0]));
			memmove(d->pending_len, d->pending_len + 1,
				d->npending * sizeof(d->pending_len[0]));
		} else {
			n = cq_next(d, &d->ctrl, &wc, timeout_ms);
			if (n <= 0)
				return n;
			if (wc.status != IBV_WC_SUCCESS)
				return -1;
			if (wc.wr_id == SEND_WR_ID)
				continue;
			*m = d->bufs[wc.wr_id];
			len = wc.byte_len;
			if (post_recv(d, (uint32_t)wc.wr_id))
				return -1;
		}
		err = spare_msg_check(m, len, &type);
		if (!err)
			return 1;
		/* A peer's mistake: log it, drop the message, carry on. The
		 * first is logged, then at most a line every 10 s. */
		now = spare_now_ms();
		if (++d->bad_msgs == 1 || now - d->bad_logged_ms >= BAD_MSG_LOG_MS) {
			log_warn("donor %s: malformed message dropped: %s (%" PRIu64
				 " so far)", d->host, spare_proto_strerror(err),
				 d->bad_msgs);
			d->bad_logged_ms = now;
		}
	}
}

static void answer_query(struct donor *d, const struct spare_msg *q)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_ACTIVITY_REPLY, le32toh(q->hdr.seq));
	m.activity_reply.slab_id = q->activity_query.slab_id;
	m.activity_reply.accesses = htole64(1);
	send_msg(d, &m);
}

/* Wait for a message of type @want (or, with @want2, that one too). */
static int recv_msg(struct donor *d, unsigned int want, unsigned int want2,
		    struct spare_msg *out)
{
	uint64_t end = spare_now_ms() + d->timeout_ms;

	for (;;) {
		uint64_t now = spare_now_ms();
		unsigned int type;
		int n;

		if (now >= end) {
			log_err("donor %s: no %s within %u ms", d->host,
				spare_msg_type_name(want), d->timeout_ms);
			return -1;
		}
		n = take_msg(d, out, (unsigned int)(end - now));
		if (n < 0) {
			log_err("donor %s: control connection failed", d->host);
			return -1;
		}
		if (!n)
			continue;
		type = le16toh(out->hdr.type);
		if (type == want || (want2 && type == want2))
			return 0;
		if (type == SPARE_MSG_ACTIVITY_QUERY) {
			answer_query(d, out);
		} else if (type == SPARE_MSG_EVICT &&
			   d->nevq < DONOR_RECV_DEPTH) {
			/* for donor_poll_ctrl(): a move must not miss it */
			d->evq[d->nevq].id = le32toh(out->evict.slab_id);
			d->evq[d->nevq].reason = le32toh(out->evict.reason);
			d->evq[d->nevq++].deadline_ms =
				le32toh(out->evict.deadline_ms);
		} else {
			log_dbg("donor %s: %s ignored during set-up", d->host,
				spare_msg_type_name(type));
		}
	}
}

/* HELLO and, with a key, the two-way proof. */
static int hello(struct donor *d, uint8_t slab_shift)
{
	uint8_t nonce_c[SPARE_AUTH_NONCE_LEN], nonce_d[SPARE_AUTH_NONCE_LEN];
	uint8_t donor_id[SPARE_AUTH_ID_LEN], mac[SPARE_AUTH_MAC_LEN];
	bool proven = false;
	struct spare_msg m;
	uint32_t st;

	spare_msg_init(&m, SPARE_MSG_HELLO, ++d->seq);
	memcpy(m.hello.client_uuid, d->uuid, 16);
	m.hello.slab_shift = slab_shift;
	if (d->key) {
		spare_auth_nonce(nonce_c);
		m.hello.flags = SPARE_HELLO_F_AUTH;
		memcpy(m.hello.nonce, nonce_c, sizeof(nonce_c));
	}
	if (d->hold)
		m.hello.flags |= SPARE_HELLO_F_HOLD;
	if (d->hold && d->resume_token) {
		m.hello.flags |= SPARE_HELLO_F_RESUME;
		m.hello.resume_token = htole64(d->resume_token);
	}
	if (send_msg(d, &m) ||
	    recv_msg(d, SPARE_MSG_HELLO_REPLY,
		     d->key ? SPARE_MSG_AUTH_CHALLENGE : 0, &m))
		return -1;
	if (le16toh(m.hdr.type) == SPARE_MSG_AUTH_CHALLENGE) {
		memcpy(nonce_d, m.auth_challenge.nonce, sizeof(nonce_d));
		memcpy(donor_id, m.auth_challenge.donor_id, sizeof(donor_id));
		spare_auth_mac(mac, d->key, SPARE_AUTH_DIR_CLIENT, d->uuid,
			       donor_id, nonce_c, nonce_d);
		spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, ++d->seq);
		memcpy(m.auth_response.mac, mac, sizeof(mac));
		if (send_msg(d, &m) ||
		    recv_msg(d, SPARE_MSG_HELLO_REPLY, SPARE_MSG_AUTH_RESPONSE,
			     &m))
			return -1;
		if (le16toh(m.hdr.type) == SPARE_MSG_AUTH_RESPONSE) {
			if (!spare_auth_mac_ok(m.auth_response.mac, d->key,
					       SPARE_AUTH_DIR_DONOR, d->uuid,
					       donor_id, nonce_c, nonce_d)) {
				log_err("donor %s: its proof is wrong: not the "
					"donor our key is shared with", d->host);
				return -1;
			}
			proven = true;
			if (recv_msg(d, SPARE_MSG_HELLO_REPLY, 0, &m))
				return -1;
		}
	}
	st = le32toh(m.hello_reply.status);
	if (st != SPARE_ST_OK) {
		log_err("donor %s: HELLO refused: status %u%s", d->host, st,
			st == SPARE_ST_AUTH_REQUIRED ? " (the donor requires a key: --key-file)" :
			st == SPARE_ST_AUTH_FAILED ? " (the donor does not know our key)" :
			st == SPARE_ST_BAD_SLAB_SIZE ? " (slab size: see --slab-size)" : "");
		return -1;
	}
	if (d->key && !proven) {
		log_err("donor %s: accepted us without proving itself", d->host);
		return -1;
	}
	d->cookie = le64toh(m.hello_reply.session_cookie);
	d->free_slabs = le32toh(m.hello_reply.free_slabs);
	if (d->hold) {
		d->resume_token = le64toh(m.hello_reply.resume_token);
		if (!d->resume_token)
			log_warn("donor %s: it does not hold slabs for a restart (resume-hold 0, or an older spared): a restarted pager loses the copies there",
				 d->host);
	}
	log_info("donor %s: session ready%s, %u slabs free", d->host,
		 d->key ? " (authenticated both ways)" : "", d->free_slabs);
	return 0;
}

int donor_connect(struct donor *d, struct ibv_pd **pd, uint8_t slab_shift,
		  unsigned int data_depth)
{
	struct spare_conn_priv priv;
	uint32_t i;

	if (link_resolve(d, &d->ctrl, "control"))
		return -1;
	if (!*pd) {
		*pd = ibv_alloc_pd(d->ctrl.id->verbs);
		if (!*pd) {
			log_err("ibv_alloc_pd: %s", strerror(errno));
			return -1;
		}
	}
	d->pd = *pd;
	if (link_make_qp(d, &d->ctrl, 4, DONOR_RECV_DEPTH, "control"))
		return -1;
	d->bufs = aligned_alloc(4096, 4096);
	if (!d->bufs)
		return -1;
	memset(d->bufs, 0, 4096);
	d->npending = 0;
	d->nevq = 0;
	d->bufs_mr = ibv_reg_mr(d->pd, d->bufs, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!d->bufs_mr) {
		log_err("ibv_reg_mr: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < DONOR_RECV_DEPTH; i++)
		if (post_recv(d, i))
			return -1;
	spare_conn_priv_init(&priv, SPARE_CONN_CONTROL, d->uuid, 0,
			     DONOR_RECV_DEPTH);
	if (link_connect(d, &d->ctrl, &priv, 0, "control") ||
	    hello(d, slab_shift))
		return -1;

	if (!d->nr_data || d->nr_data > DONOR_MAX_DATA) {
		log_err("donor %s: %u data links asked for (1..%u)", d->host,
			d->nr_data, DONOR_MAX_DATA);
		return -1;
	}
	spare_conn_priv_init(&priv, SPARE_CONN_DATA, d->uuid, d->cookie, 1);
	for (i = 0; i < d->nr_data; i++)
		if (link_resolve(d, &d->data[i], "data") ||
		    link_make_qp(d, &d->data[i], data_depth, 1, "data") ||
		    link_connect(d, &d->data[i], &priv, 8, "data"))
			return -1;
	return 0;
}

bool donor_data_up(const struct donor *d)
{
	for (unsigned int i = 0; i < d->nr_data; i++)
		if (!d->data[i].up)
			return false;
	return d->nr_data > 0;
}

int donor_send_grant(struct donor *d, const struct spare_grant *g)
{
	struct spare_msg m;
	uint64_t token;

	for (unsigned int p = 0; p < SPARE_GRANT_PARTS; p++) {
		spare_grant_part_init(&m, g, p, ++d->seq);
		if (send_msg(d, &m))
			return -1;
	}
	/* MAPs name the grant sent that expires last (as spare.ko's do) */
	memcpy(&token, g->grant_id, sizeof(token));
	if (!d->grant_token || le64toh(g->expiry) >= d->grant_expiry) {
		d->grant_token = le64toh(token);
		d->grant_expiry = le64toh(g->expiry);
	}
	return 0;
}

int donor_map(struct donor *d, uint32_t id, uint64_t *addr, uint32_t *rkey)
{
	uint32_t flags;

	return donor_map_flags(d, id, addr, rkey, &flags);
}

int donor_map_flags(struct donor *d, uint32_t id, uint64_t *addr,
		    uint32_t *rkey, uint32_t *flags)
{
	struct spare_msg m;
	uint32_t st;

	spare_msg_init(&m, SPARE_MSG_MAP, ++d->seq);
	m.map.slab_id = htole32(id);
	m.map.grant = htole64(d->grant_token);
	if (send_msg(d, &m))
		return -1;
	for (;;) {
		if (recv_msg(d, SPARE_MSG_MAPPED, 0, &m))
			return -1;
		if (le32toh(m.mapped.slab_id) == id)
			break;
		log_warn("donor %s: MAPPED for slab %u, not %u: ignored",
			 d->host, le32toh(m.mapped.slab_id), id);
	}
	st = le32toh(m.mapped.status);
	if (st != SPARE_ST_OK) {
		log_err("donor %s: MAP slab %u refused: %s", d->host, id,
			spare_status_name(st));
		return -1;
	}
	*addr = le64toh(m.mapped.addr);
	*rkey = le32toh(m.mapped.rkey);
	*flags = le32toh(m.mapped.flags);
	return 0;
}

int donor_unmap(struct donor *d, uint32_t id)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_UNMAP, ++d->seq);
	m.unmap.slab_id = htole32(id);
	return send_msg(d, &m);
}

int donor_poll_ctrl(struct donor *d,
		    void (*on_evict)(struct donor *d, uint32_t slab_id,
				     uint32_t reason, uint32_t deadline_ms,
				     void *arg),
		    void *arg)
{
	struct spare_msg m;
	unsigned int i;
	int n;

	for (i = 0; i < d->nevq; i++)
		on_evict(d, d->evq[i].id, d->evq[i].reason,
			 d->evq[i].deadline_ms, arg);
	d->nevq = 0;
	while ((n = take_msg(d, &m, 0)) > 0) {
		switch (le16toh(m.hdr.type)) {
		case SPARE_MSG_ACTIVITY_QUERY:
			answer_query(d, &m);
			break;
		case SPARE_MSG_EVICT:
			on_evict(d, le32toh(m.evict.slab_id),
				 le32toh(m.evict.reason),
				 le32toh(m.evict.deadline_ms), arg);
			break;
		default:
			log_dbg("donor %s: %s ignored", d->host,
				spare_msg_type_name(le16toh(m.hdr.type)));
		}
	}
	return n;
}

int donor_post_rdma(struct donor *d, unsigned int q, bool write,
		    uint64_t wr_id, void *local,
		    uint32_t lkey, uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = { (uintptr_t)local, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;

	if (q >= d->nr_data || !d->data[q].id || !d->data[q].id->qp)
		return -1;
	return ibv_post_send(d->data[q].id->qp, &wr, &bad) ? -1 : 0;
}

int donor_connect_rs(struct donor *d, unsigned int depth)
{
	struct spare_conn_priv priv;

	if (link_resolve(d, &d->rs, "resync") ||
	    link_make_qp(d, &d->rs, depth, 1, "resync"))
		return -1;
	spare_conn_priv_init(&priv, SPARE_CONN_DATA, d->uuid, d->cookie, 1);
	return link_connect(d, &d->rs, &priv, 1, "resync");
}

int donor_rs_rdma(struct donor *d, bool write, void *local, uint32_t lkey,
		  uint32_t len, uint64_t raddr, uint32_t rkey,
		  unsigned int timeout_ms)
{
	struct ibv_sge sge = { (uintptr_t)local, len, lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;
	struct ibv_wc wc;
	int n;

	if (!d->rs.id || !d->rs.id->qp || ibv_post_send(d->rs.id->qp, &wr, &bad))
		return -EIO;
	n = cq_next(d, &d->rs, &wc, timeout_ms);
	if (n == 0)
		return -ETIMEDOUT;	/* the caller fails the donor: a flush */
	if (n < 0)
		return -EIO;
	if (wc.status == IBV_WC_SUCCESS)
		return 0;
	if (wc.status != IBV_WC_WR_FLUSH_ERR) {
		/* where to, as spared logs its MAPs: for a race's diagnosis */
		log_warn("donor %s: resync RDMA %s of %u bytes at 0x%" PRIx64
			 " (rkey 0x%x): %s", d->host, write ? "WRITE" : "READ",
			 len, raddr, rkey, ibv_wc_status_str(wc.status));
		donor_fail(d, "resync RDMA failed");
	}
	return -EIO;
}

/*
 * Take one rdma_cm event of @l (its channel polled readable). Returns -1
 * when the link is gone (the peer disconnected, the device went away),
 * 0 for an event that changes nothing.
 */
int donor_cm_event(struct donor *d, struct donor_link *l)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type t;

	if (rdma_get_cm_event(l->ev, &ev))
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	t = ev->event;
	rdma_ack_cm_event(ev);
	switch (t) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		log_warn("donor %s: %s link: %s", d->host,
			 l == &d->ctrl ? "control" : l == &d->rs ? "resync" : "data",
			 rdma_event_str(t));
		return -1;
	default:
		log_dbg("donor %s: %s ignored", d->host, rdma_event_str(t));
		return 0;
	}
}

/*
 * The donor is lost (its link went down, or the RDMA it was given stopped
 * completing): move both QPs to the error state, so that every operation
 * still posted to it completes now, flushed, and the requests fail over
 * to the other copies. Safe from either thread; acts once.
 */
void donor_fail(struct donor *d, const char *why)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };

	if (__atomic_exchange_n(&d->failed, 1, __ATOMIC_ACQ_REL))
		return;
	__atomic_add_fetch(&d->fail_seq, 1, __ATOMIC_ACQ_REL);
	log_warn("donor %s: %s: failing its copies", d->host, why);
	for (unsigned int i = 0; i < d->nr_data; i++)
		if (d->data[i].id && d->data[i].id->qp &&
		    ibv_modify_qp(d->data[i].id->qp, &attr, IBV_QP_STATE))
			log_err("donor %s: data QP %u to the error state: %s",
				d->host, i, strerror(errno));
	if (d->ctrl.id && d->ctrl.id->qp &&
	    ibv_modify_qp(d->ctrl.id->qp, &attr, IBV_QP_STATE))
		log_err("donor %s: control QP to the error state: %s", d->host,
			strerror(errno));
	if (d->rs.id && d->rs.id->qp &&
	    ibv_modify_qp(d->rs.id->qp, &attr, IBV_QP_STATE))
		log_err("donor %s: resync QP to the error state: %s", d->host,
			strerror(errno));
	if (d->notify_fd) {
		uint64_t one = 1;

		if (write(*d->notify_fd, &one, sizeof(one)) != sizeof(one))
			log_err("donor %s: cannot wake the control thread: %s",
				d->host, strerror(errno));
	}
}

void donor_close(struct donor *d)
{
	if (d->abandoned)
		return;		/* the process ends; its thread still runs */
	link_destroy(&d->rs);
	for (unsigned int i = 0; i < DONOR_MAX_DATA; i++)
		link_destroy(&d->data[i]);
	link_destroy(&d->ctrl);
	if (d->bufs_mr)
		ibv_dereg_mr(d->bufs_mr);
	d->bufs_mr = NULL;
	free(d->bufs);
	d->bufs = NULL;
}
