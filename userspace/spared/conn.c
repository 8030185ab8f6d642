// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: connections. rdma_cm events (a CONTROL connection
 * makes a session, a DATA connection joins one by its cookie), the
 * completion channel, and the device's asynchronous events.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
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

static void reject(struct spared *d, struct rdma_cm_id *id)
{
	d->ctr.conn_rejected++;
	if (rdma_reject(id, NULL, 0))
		log_warn("rdma_reject: %s", strerror(errno));
	if (rdma_destroy_id(id))
		log_warn("rdma_destroy_id: %s", strerror(errno));
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
	/*
	 * In RTS now. The CM's RNR NAK delay is 655 ms: a burst beyond our
	 * posted receives (GRANT parts of a renewal, MAPs) would stall the
	 * client that long per round, while its ACK timeout (spare.ko: 7
	 * tries of 268 ms, not re-armed by RNR NAKs) runs on; a failure
	 * here only costs speed.
	 */
	if (spare_rdma_fast_rnr(id->qp))
		log_warn("client %s: cannot shorten the RNR NAK delay: %s",
			 sess->name, strerror(errno));

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

	c->disconnected = false;	/* answered: nothing left to resend */
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

void cm_handler(struct spared *d, struct ev_source *src, uint32_t events)
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
		/* Any event of a lingering id (its DISCONNECTED: the peer's
		 * DREP, or the DREQ's retries run out) ends its linger. */
		if (spared_linger_take(&d->linger, id)) {
			spared_cm_id_release(d, id, false);
			continue;
		}
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
				conn_disconnect(c->sess, c);
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

/*
 * Destroy a cm_id whose QP is gone. With @linger (a control connection
 * we disconnected, no answer yet), keep it instead until its next event
 * or SPARED_DREQ_LINGER_MS, so that the CM resends the DREQ if it was
 * lost (linger.h); at most SPARED_DREQ_LINGER_MAX such ids, the rest are
 * destroyed at once.
 */
void spared_cm_id_release(struct spared *d, struct rdma_cm_id *id, bool linger)
{
	char peer[80];

	if (linger) {
		id->context = NULL;
		if (spared_linger_add(&d->linger, id,
				      spare_now_ms() + SPARED_DREQ_LINGER_MS)) {
			spared_arm_timer(d);
			return;
		}
	}
	peer_name(id, peer, sizeof(peer));	/* the id is gone after */
	if (linger)
		log_dbg("%s: %u disconnected ids kept already; destroying this one at once",
			peer, d->linger.n);
	if (rdma_destroy_id(id))
		log_warn("%s: rdma_destroy_id: %s", peer, strerror(errno));
}

/* The lingering ids whose peers did not answer in time. */
void spared_linger_expire(struct spared *d, uint64_t now_ms)
{
	struct rdma_cm_id *id;
	char peer[80];

	while ((id = spared_linger_expired(&d->linger, now_ms))) {
		log_info("%s: no answer to our disconnect within %u ms; dropping the connection",
			 peer_name(id, peer, sizeof(peer)), SPARED_DREQ_LINGER_MS);
		spared_cm_id_release(d, id, false);
	}
}

/*
 * Stopping: the lingering ids' answers, for SPARED_DREQ_LINGER_MS at most
 * (the channel's other events handled as usual: a new connection is
 * refused), then whatever is left destroyed.
 */
void spared_linger_drain(struct spared *d)
{
	uint64_t end = spare_now_ms() + SPARED_DREQ_LINGER_MS, now;

	d->stopping = true;
	while (d->linger.n && (now = spare_now_ms()) < end) {
		struct pollfd p = { .fd = d->cm_channel->fd, .events = POLLIN };

		if (poll(&p, 1, (int)(end - now)) <= 0)
			break;
		cm_handler(d, &d->cm_src, POLLIN);
	}
	spared_linger_expire(d, UINT64_MAX);
}
