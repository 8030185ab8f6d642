// SPDX-License-Identifier: GPL-2.0
/*
 * spare-probe: a scriptable spare client for testing donors (spared).
 *
 * It speaks the protocol of kmod/uapi/spare.h from userspace: a CONTROL
 * connection for messages and a DATA connection for one-sided RDMA READ and
 * WRITE into lent slabs. It can also misbehave on purpose (malformed
 * messages, bad connection private data, foreign rkeys) so that tests can
 * check that a donor closes only the offending connection.
 *
 *   spare-probe [options] ADDR STEP...
 *
 * Each step either succeeds or makes the probe exit 1 with one line saying
 * why. See usage() for the steps.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
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

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "broker_client.h"
#include "spare_auth.h"
#include "spare_grant_lib.h"
#include "spare_log.h"
#include "spare_proto.h"
#include "spare_rdma.h"
#include "spare_util.h"

#define RECV_DEPTH	16
#define MAX_SLABS	64
#define CHUNK		((size_t)64 * 1024)
#define WINDOW		8
/* recv_msg(): any handshake message (HELLO_REPLY, AUTH_*) */
#define RECV_HANDSHAKE	0x10000

struct probe_slab {
	uint32_t id;
	uint64_t addr;
	uint32_t rkey;
	bool	 mapped;
	bool	 evicted;	/* EVICT received and not yet answered */
};

/* One rdma_cm connection with its own event channel, CQ and QP. */
struct link {
	struct rdma_event_channel *ev;
	struct rdma_cm_id	*id;
	struct ibv_comp_channel	*cc;
	struct ibv_cq		*cq;
	bool			up;
	bool			closed;	/* the donor disconnected it */
	char			events[160];	/* CM events after connecting */
};

struct probe {
	const char	*host;
	const char	*source;	/* local address to connect from, or NULL */
	uint16_t	port;
	uint64_t	slab_size;
	unsigned int	slab_shift;
	unsigned int	timeout_ms;
	uint8_t		uuid[16];
	uint64_t	cookie;
	uint32_t	seq;
	bool		hello_done;
	bool		has_key;	/* --key: authenticate in HELLO */
	uint8_t		reply_shift;	/* slab_shift of the last HELLO_REPLY */
	uint8_t		key[SPARE_AUTH_KEY_LEN];

	/* Grants (--grant-key): minted here as a broker would. */
	struct spare_grant_key grant_key;
	bool		has_grant_key;
	/* --grant-v3: version 3 grants, keyed from a donor's broker key */
	uint8_t		grant_v3_kd[SPARE_GRANT_KEY_LEN];
	bool		grant_v3;
	const char	*grant_client;	/* client_id written into grants */
	const char	*grant_donor;	/* donor_id written into grants */
	uint8_t		grant_id[SPARE_GRANT_ID_LEN];	/* --grant-id, or random */
	bool		has_grant_id;
	struct spare_grant last_grant;	/* the last one sent */
	uint64_t	token;		/* MAPs name this grant; 0: none */
	uint64_t	resume;		/* --resume: HELLO F_HOLD|F_RESUME with it */

	struct ibv_pd	*pd;
	struct link	ctrl, data;

	struct spare_msg *bufs;		/* RECV_DEPTH receive + 1 send */
	struct ibv_mr	*bufs_mr;
	uint8_t		*local;		/* slab-sized RDMA buffer */
	struct ibv_mr	*local_mr;

	struct probe_slab slabs[MAX_SLABS];

	/* Messages that arrived while we waited for a send to complete. */
	struct spare_msg pending[RECV_DEPTH];
	uint32_t	pending_len[RECV_DEPTH];
	unsigned int	npending;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_err("%s", msg);
	exit(1);
}

/* ---- rdma_cm ---- */

static void resolve(struct probe *p, struct link *l, const char *what)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV }, *ai, *src = NULL;
	struct spare_rdma_err e;
	char port[8], why[160];
	int ret;

	if (spare_rdma_open(&l->ev, &l->id, NULL, false, &e))
		die("%s: %s", what, spare_rdma_strerr(&e, why, sizeof(why)));
	snprintf(port, sizeof(port), "%u", p->port);
	ret = getaddrinfo(p->host, port, &hints, &ai);
	if (ret)
		die("%s: %s: %s", what, p->host, gai_strerror(ret));
	if (p->source) {
		ret = getaddrinfo(p->source, NULL, &hints, &src);
		if (ret)
			die("%s: --source %s: %s", what, p->source, gai_strerror(ret));
	}
	ret = spare_rdma_resolve(l->ev, l->id, src ? src->ai_addr : NULL,
				 ai->ai_addr, (int)p->timeout_ms, p->timeout_ms,
				 0, &e);
	if (src)
		freeaddrinfo(src);
	freeaddrinfo(ai);
	if (ret)
		die("%s: %s", what, spare_rdma_strerr(&e, why, sizeof(why)));
	if (!p->pd) {
		p->pd = ibv_alloc_pd(l->id->verbs);
		if (!p->pd)
			die("ibv_alloc_pd: %s", strerror(errno));
	}
}

static void make_qp(struct probe *p, struct link *l, unsigned int send,
		    unsigned int recv, const char *what)
{
	struct spare_rdma_err e;
	char why[160];

	if (spare_rdma_cq(l->id->verbs, (int)(send + recv), NULL,
			  SPARE_RDMA_CQ_CHANNEL, &l->cc, &l->cq, &e))
		die("%s: %s", what, spare_rdma_strerr(&e, why, sizeof(why)));
	if (spare_rdma_qp(l->id, p->pd, l->cq, send, recv))
		die("%s: rdma_create_qp: %s", what, strerror(errno));
}

/* Connect; returns the event that answered (ESTABLISHED or a refusal). */
static enum rdma_cm_event_type connect_link(struct probe *p, struct link *l,
					    const void *priv, size_t priv_len,
					    uint8_t initiator_depth)
{
	struct spare_rdma_err e;
	char why[160];

	if (!spare_rdma_connect(l->ev, l->id, priv, (uint8_t)priv_len,
				initiator_depth, p->timeout_ms, &e)) {
		l->up = true;
		return RDMA_CM_EVENT_ESTABLISHED;
	}
	if (e.err)
		die("%s", spare_rdma_strerr(&e, why, sizeof(why)));
	l->up = false;
	return e.got;
}

static void link_destroy(struct link *l)
{
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.ec = l->ev, .id = l->id, .cq = l->cq, .cc = l->cc, .up = l->up });
	memset(l, 0, sizeof(*l));
}

/* ---- completions ---- */

/* Note a CM event that came after the connection was made; a disconnect
 * closes the link. */
static void link_event(struct link *l, enum rdma_cm_event_type t, int status)
{
	size_t n = strlen(l->events);

	snprintf(l->events + n, sizeof(l->events) - n, "%s%s (status %d)",
		 n ? ", " : "", rdma_event_str(t), status);
	if (t == RDMA_CM_EVENT_DISCONNECTED ||
	    t == RDMA_CM_EVENT_DEVICE_REMOVAL) {
		l->up = false;
		l->closed = true;
	}
}

/*
 * Next completion on @l within the timeout: 0, or -1 with errno (ETIMEDOUT,
 * or ECONNRESET once the donor disconnected the control link).
 *
 * The control link's rdma_cm events are watched meanwhile: a donor that
 * closes a session right after taking a message may leave that send
 * without its ACK (rxe does not ACK on a QP already in error, and a
 * destroyed QP answers no retry), and the send fails only after 7 ACK
 * timeouts (retry_count 6; until session 46 it was 7, which rxe takes to
 * mean retry forever); the DREQ is what tells us, at once. The data link is
 * left alone: its tests look at the completion status a bad rkey gets.
 */
static int cq_next(struct probe *p, struct link *l, struct ibv_wc *wc,
		   unsigned int timeout_ms)
{
	uint64_t end = spare_now_ms() + timeout_ms;
	int cm_fd = l == &p->ctrl && l->ev ? l->ev->fd : -1;

	for (;;) {
		uint64_t now = spare_now_ms();
		enum rdma_cm_event_type t;
		int n, st;

		if (l->closed) {
			errno = ECONNRESET;
			return -1;
		}
		/* past the end, one last look at the CQ alone */
		n = spare_rdma_cq_wait(l->cq, l->cc, now < end ? cm_fd : -1, wc,
				       now < end ? (unsigned int)(end - now) : 0);
		if (n == 1)
			return 0;
		if (n == 0)
			errno = ETIMEDOUT;
		if (n != 2)
			return -1;
		if (!spare_rdma_wait(l->ev, 0, &t, &st))
			link_event(l, t, st);
	}
}

/* What @l looked like when a wait for it failed, for the failure line. */
static const char *link_report(struct link *l, char *buf, size_t len)
{
	static const char *const states[] = { "RESET", "INIT", "RTR", "RTS",
					      "SQD", "SQE", "ERR" };
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	const char *state = "unknown";

	if (l->id && l->id->qp &&
	    !ibv_query_qp(l->id->qp, &attr, IBV_QP_STATE, &init) &&
	    (unsigned int)attr.qp_state < sizeof(states) / sizeof(states[0]))
		state = states[attr.qp_state];
	snprintf(buf, len, "QP %s, CM events since connecting: %s", state,
		 l->events[0] ? l->events : "none");
	return buf;
}

/* ---- control messages ---- */

/* bufs is one 4 KiB page: RECV_DEPTH receive slots, then the send slot
 * (with room to overrun for bad:long). */
static struct spare_msg *send_slot(struct probe *p)
{
	return &p->bufs[RECV_DEPTH];
}

static void post_recv(struct probe *p, uint32_t i)
{
	struct ibv_sge sge = { (uintptr_t)&p->bufs[i], SPARE_MSG_SIZE,
			       p->bufs_mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 },
			   *bad;

	if (ibv_post_recv(p->ctrl.id->qp, &wr, &bad))
		die("ibv_post_recv failed");
}

static struct probe_slab *slab_get(struct probe *p, uint32_t id, bool create)
{
	struct probe_slab *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < MAX_SLABS; i++) {
		if (p->slabs[i].mapped && p->slabs[i].id == id)
			return &p->slabs[i];
		if (!p->slabs[i].mapped && !free_slot)
			free_slot = &p->slabs[i];
	}
	if (!create)
		return NULL;
	if (!free_slot)
		die("more than %u slabs", MAX_SLABS);
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->id = id;
	return free_slot;
}

/* Send @len bytes of the send slot (normally SPARE_MSG_SIZE). Returns 0 or
 * -1 if the send did not complete (the donor may have closed on us). */
static int send_raw(struct probe *p, size_t len)
{
	struct ibv_sge sge = { (uintptr_t)send_slot(p), (uint32_t)len,
			       p->bufs_mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1000, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;

	if (ibv_post_send(p->ctrl.id->qp, &wr, &bad))
		die("ibv_post_send failed");
	/* Receives may complete first; handle_unsolicited keeps them. */
	for (;;) {
		char why[256];

		if (cq_next(p, &p->ctrl, &wc, p->timeout_ms)) {
			if (errno != ETIMEDOUT) {
				printf("send: no completion: %s (%s)\n",
				       strerror(errno),
				       link_report(&p->ctrl, why, sizeof(why)));
				return -1;
			}
			die("send: no completion within %u ms (%s)",
			    p->timeout_ms, link_report(&p->ctrl, why, sizeof(why)));
		}
		if (wc.wr_id == 1000 && wc.status != IBV_WC_SUCCESS)
			printf("send: completion status %s\n",
			       ibv_wc_status_str(wc.status));
		if (wc.wr_id == 1000)
			return wc.status == IBV_WC_SUCCESS ? 0 : -1;
		if (wc.status != IBV_WC_SUCCESS)
			return -1;
		/* A message arrived while sending: keep it for recv_msg(). */
		if (wc.wr_id < RECV_DEPTH && p->npending < RECV_DEPTH) {
			p->pending[p->npending] = p->bufs[wc.wr_id];
			p->pending_len[p->npending++] = wc.byte_len;
		}
		if (wc.wr_id < RECV_DEPTH)
			post_recv(p, (uint32_t)wc.wr_id);
	}
}

static void send_msg(struct probe *p, const struct spare_msg *m)
{
	*send_slot(p) = *m;
	if (send_raw(p, SPARE_MSG_SIZE))
		die("send %s: failed (connection closed?)",
		    spare_msg_type_name(le16toh(m->hdr.type)));
}

static void answer_query(struct probe *p, const struct spare_msg *q)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_ACTIVITY_REPLY, le32toh(q->hdr.seq));
	m.activity_reply.slab_id = q->activity_query.slab_id;
	m.activity_reply.accesses = htole64(1);
	send_msg(p, &m);
}

/*
 * Receive the next message of type @want (EVICTs are recorded, queries
 * answered, heartbeats ignored on the way). Returns 0, or -1 if the
 * connection failed or nothing came within @timeout_ms.
 */
static int recv_msg(struct probe *p, unsigned int want, struct spare_msg *out,
		    unsigned int timeout_ms)
{
	uint64_t end = spare_now_ms() + timeout_ms;
	struct ibv_wc wc;

	for (;;) {
		struct spare_msg m;
		unsigned int type;
		uint32_t len;
		uint64_t now = spare_now_ms();
		int err;

		if (p->npending) {
			m = p->pending[0];
			len = p->pending_len[0];
			p->npending--;
			memmove(p->pending, p->pending + 1,
				p->npending * sizeof(p->pending[0]));
			memmove(p->pending_len, p->pending_len + 1,
				p->npending * sizeof(p->pending_len[0]));
		} else {
			if (now >= end) {
				errno = ETIMEDOUT;
				return -1;
			}
			if (cq_next(p, &p->ctrl, &wc, (unsigned int)(end - now)))
				return -1;
			if (wc.status != IBV_WC_SUCCESS) {
				errno = ECONNRESET;
				return -1;
			}
			if (wc.wr_id >= RECV_DEPTH)
				continue;
			m = p->bufs[wc.wr_id];
			len = wc.byte_len;
			post_recv(p, (uint32_t)wc.wr_id);
		}
		err = spare_msg_check(&m, len, &type);
		if (err)
			die("donor sent a malformed message: %s",
			    spare_proto_strerror(err));
		log_dbg("got %s seq %u", spare_msg_type_name(type),
			le32toh(m.hdr.seq));
		if (type == SPARE_MSG_EVICT) {
			struct probe_slab *s = slab_get(p, le32toh(m.evict.slab_id),
							false);

			printf("evict slab %u reason %u deadline %u ms\n",
			       le32toh(m.evict.slab_id), le32toh(m.evict.reason),
			       le32toh(m.evict.deadline_ms));
			if (s)
				s->evicted = true;
		} else if (type == SPARE_MSG_ACTIVITY_QUERY) {
			answer_query(p, &m);
		}
		if (type == want ||
		    (want == RECV_HANDSHAKE &&
		     (type == SPARE_MSG_HELLO_REPLY ||
		      type == SPARE_MSG_AUTH_CHALLENGE ||
		      type == SPARE_MSG_AUTH_RESPONSE))) {
			*out = m;
			return 0;
		}
	}
}

/* ---- setup ---- */

static void ctrl_connect(struct probe *p, const void *priv, size_t priv_len,
			 bool expect_refusal)
{
	struct spare_conn_priv cpriv;
	enum rdma_cm_event_type t;
	uint32_t i;

	resolve(p, &p->ctrl, "control");
	make_qp(p, &p->ctrl, 4, RECV_DEPTH, "control");
	p->bufs = aligned_alloc(4096, 4096);
	if (!p->bufs)
		die("out of memory");
	memset(p->bufs, 0, 4096);
	p->bufs_mr = ibv_reg_mr(p->pd, p->bufs, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!p->bufs_mr)
		die("ibv_reg_mr: %s", strerror(errno));
	for (i = 0; i < RECV_DEPTH; i++)
		post_recv(p, i);
	if (!priv) {
		spare_conn_priv_init(&cpriv, SPARE_CONN_CONTROL, p->uuid, 0,
				     RECV_DEPTH);
		priv = &cpriv;
		priv_len = sizeof(cpriv);
	}
	t = connect_link(p, &p->ctrl, priv, priv_len, 0);
	if (expect_refusal) {
		if (t == RDMA_CM_EVENT_ESTABLISHED)
			die("donor accepted bad private data");
		printf("control connection refused (%s): ok\n", rdma_event_str(t));
		return;
	}
	if (t != RDMA_CM_EVENT_ESTABLISHED)
		die("control connection: %s", rdma_event_str(t));
}

/* What an authenticated HELLO saves for a later replay: Nc and MACc. */
struct auth_record {
	uint8_t nonce_c[SPARE_AUTH_NONCE_LEN];
	uint8_t mac[SPARE_AUTH_MAC_LEN];
};

/* --resume: ask to adopt the slabs held for this uuid. */
static void hello_resume(const struct probe *p, struct spare_msg *m)
{
	if (!p->resume)
		return;
	m->hello.flags |= SPARE_HELLO_F_HOLD | SPARE_HELLO_F_RESUME;
	m->hello.resume_token = htole64(p->resume);
}

/*
 * HELLO, with --key the authenticated handshake. @save: write Nc and our
 * proof there; @replay: send that old Nc and proof instead of fresh ones;
 * @truncate: stop after the challenge. Returns the HELLO_REPLY status (or
 * 0 after a truncated handshake); dies on anything unexpected.
 */
static uint32_t hello_auth(struct probe *p, const char *save,
			   const char *replay, bool truncate)
{
	struct auth_record rec;
	uint8_t nonce_d[SPARE_AUTH_NONCE_LEN], donor_id[SPARE_AUTH_ID_LEN];
	struct spare_msg m;
	bool proven = false;
	uint32_t st;
	FILE *f;

	if (replay) {
		f = fopen(replay, "rb");
		if (!f || fread(&rec, sizeof(rec), 1, f) != 1)
			die("%s: cannot read a saved handshake", replay);
		fclose(f);
	} else {
		spare_auth_nonce(rec.nonce_c);
	}
	spare_msg_init(&m, SPARE_MSG_HELLO, ++p->seq);
	memcpy(m.hello.client_uuid, p->uuid, sizeof(p->uuid));
	m.hello.slab_shift = (uint8_t)p->slab_shift;
	m.hello.flags = SPARE_HELLO_F_AUTH;
	memcpy(m.hello.nonce, rec.nonce_c, sizeof(rec.nonce_c));
	hello_resume(p, &m);
	send_msg(p, &m);
	if (recv_msg(p, RECV_HANDSHAKE, &m, p->timeout_ms))
		die("HELLO: no answer: %s", strerror(errno));
	if (le16toh(m.hdr.type) == SPARE_MSG_AUTH_CHALLENGE) {
		memcpy(nonce_d, m.auth_challenge.nonce, sizeof(nonce_d));
		memcpy(donor_id, m.auth_challenge.donor_id, sizeof(donor_id));
		printf("hello: challenge from donor %.16s\n", (char *)donor_id);
		if (truncate)
			return 0;
		if (!replay)
			spare_auth_mac(rec.mac, p->key, SPARE_AUTH_DIR_CLIENT,
				       p->uuid, donor_id, rec.nonce_c, nonce_d);
		spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, ++p->seq);
		memcpy(m.auth_response.mac, rec.mac, sizeof(rec.mac));
		send_msg(p, &m);
		if (recv_msg(p, RECV_HANDSHAKE, &m, p->timeout_ms))
			die("AUTH_RESPONSE: no answer: %s", strerror(errno));
		if (le16toh(m.hdr.type) == SPARE_MSG_AUTH_RESPONSE) {
			if (!spare_auth_mac_ok(m.auth_response.mac, p->key,
					       SPARE_AUTH_DIR_DONOR, p->uuid,
					       donor_id, rec.nonce_c, nonce_d))
				die("donor's proof is wrong");
			proven = true;
			if (recv_msg(p, SPARE_MSG_HELLO_REPLY, &m, p->timeout_ms))
				die("HELLO: no reply: %s", strerror(errno));
		}
	}
	if (le16toh(m.hdr.type) != SPARE_MSG_HELLO_REPLY)
		die("HELLO: got %s", spare_msg_type_name(le16toh(m.hdr.type)));
	st = le32toh(m.hello_reply.status);
	p->reply_shift = m.hello_reply.slab_shift;
	if (st == SPARE_ST_OK && !proven)
		die("donor accepted us without proving itself");
	if (st == SPARE_ST_OK && save) {
		f = fopen(save, "wb");
		if (!f || fwrite(&rec, sizeof(rec), 1, f) != 1 || fclose(f))
			die("%s: cannot save the handshake", save);
	}
	if (st == SPARE_ST_OK) {
		p->cookie = le64toh(m.hello_reply.session_cookie);
		p->hello_done = true;
		printf("hello: authenticated both ways, session ready, %u slabs free\n",
		       le32toh(m.hello_reply.free_slabs));
	}
	return st;
}

/* HELLO (authenticated with --key); returns the HELLO_REPLY status. */
static uint32_t hello_status(struct probe *p)
{
	struct spare_msg m;
	uint32_t st;

	if (p->has_key)
		return hello_auth(p, NULL, NULL, false);
	spare_msg_init(&m, SPARE_MSG_HELLO, ++p->seq);
	memcpy(m.hello.client_uuid, p->uuid, sizeof(p->uuid));
	m.hello.slab_shift = (uint8_t)p->slab_shift;
	hello_resume(p, &m);
	send_msg(p, &m);
	if (recv_msg(p, SPARE_MSG_HELLO_REPLY, &m, p->timeout_ms))
		die("HELLO: no reply: %s", strerror(errno));
	st = le32toh(m.hello_reply.status);
	p->reply_shift = m.hello_reply.slab_shift;
	if (st == SPARE_ST_OK) {
		p->cookie = le64toh(m.hello_reply.session_cookie);
		p->hello_done = true;
		printf("hello: session ready, %u slabs free\n",
		       le32toh(m.hello_reply.free_slabs));
	}
	return st;
}

static void do_hello(struct probe *p)
{
	uint32_t st = hello_status(p);

	if (st != SPARE_ST_OK)
		die("HELLO refused: status %u (donor serves slabs of 2^%u)", st,
		    p->reply_shift);
}

static void data_connect(struct probe *p)
{
	struct spare_conn_priv priv;
	enum rdma_cm_event_type t;

	if (p->data.up)
		return;
	link_destroy(&p->data);
	resolve(p, &p->data, "data");
	make_qp(p, &p->data, 2 * WINDOW, 1, "data");
	spare_conn_priv_init(&priv, SPARE_CONN_DATA, p->uuid, p->cookie, 1);
	t = connect_link(p, &p->data, &priv, sizeof(priv), WINDOW);
	if (t != RDMA_CM_EVENT_ESTABLISHED)
		die("data connection: %s", rdma_event_str(t));
	if (!p->local) {
		p->local = aligned_alloc(4096, p->slab_size);
		if (!p->local)
			die("out of memory for a %" PRIu64 "-byte buffer",
			    p->slab_size);
		p->local_mr = ibv_reg_mr(p->pd, p->local, p->slab_size,
					 IBV_ACCESS_LOCAL_WRITE);
		if (!p->local_mr)
			die("ibv_reg_mr(local): %s", strerror(errno));
	}
}

/*
 * RDMA READ or WRITE @len bytes between the local buffer and remote
 * @addr/@rkey, WINDOW chunks in flight. Returns 0, or -1 with the failing
 * completion status in *status (the data connection is then dead).
 */
static int rdma_xfer(struct probe *p, bool write, uint64_t addr, uint32_t rkey,
		     size_t len, enum ibv_wc_status *status)
{
	size_t posted = 0, done = 0;
	unsigned int inflight = 0;
	struct ibv_wc wc;

	data_connect(p);
	while (done < len) {
		while (inflight < WINDOW && posted < len) {
			size_t n = len - posted < CHUNK ? len - posted : CHUNK;
			struct ibv_sge sge = { (uintptr_t)p->local + posted,
					       (uint32_t)n, p->local_mr->lkey };
			struct ibv_send_wr wr = {
				.wr_id = posted, .sg_list = &sge, .num_sge = 1,
				.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
				.send_flags = IBV_SEND_SIGNALED,
				.wr.rdma = { .remote_addr = addr + posted,
					     .rkey = rkey },
			}, *bad;

			if (ibv_post_send(p->data.id->qp, &wr, &bad))
				die("ibv_post_send(rdma) failed");
			posted += n;
			inflight++;
		}
		if (cq_next(p, &p->data, &wc, p->timeout_ms))
			die("RDMA %s: %s", write ? "WRITE" : "READ", strerror(errno));
		inflight--;
		if (wc.status != IBV_WC_SUCCESS) {
			*status = wc.status;
			/* Drain the flushed rest, then drop the dead link. */
			while (inflight && !cq_next(p, &p->data, &wc, 1000))
				inflight--;
			link_destroy(&p->data);
			return -1;
		}
		done += wc.wr_id + CHUNK > len ? len - wc.wr_id : CHUNK;
	}
	return 0;
}

/* ---- steps ---- */

static uint32_t parse_id(const char *s, const char *step)
{
	uint64_t v;

	if (!s || spare_parse_u64(s, 0, UINT32_MAX, &v))
		die("%s: bad slab id '%s'", step, s ? s : "");
	return (uint32_t)v;
}

static uint8_t parse_byte(const char *s, const char *step)
{
	uint64_t v;

	if (!s || spare_parse_u64(s, 0, 255, &v))
		die("%s: bad byte value '%s'", step, s ? s : "");
	return (uint8_t)v;
}

static enum spare_status do_map(struct probe *p, uint32_t id)
{
	struct probe_slab *s;
	struct spare_msg m;
	uint32_t st;

	spare_msg_init(&m, SPARE_MSG_MAP, ++p->seq);
	m.map.slab_id = htole32(id);
	m.map.grant = htole64(p->token);
	send_msg(p, &m);
	if (recv_msg(p, SPARE_MSG_MAPPED, &m, p->timeout_ms))
		die("MAP %u: no reply: %s", id, strerror(errno));
	if (le32toh(m.mapped.slab_id) != id)
		die("MAP %u: reply is for slab %u", id, le32toh(m.mapped.slab_id));
	st = le32toh(m.mapped.status);
	if (st != SPARE_ST_OK) {
		printf("map slab %u: status %u\n", id, st);
		return (enum spare_status)st;
	}
	s = slab_get(p, id, true);
	s->addr = le64toh(m.mapped.addr);
	s->rkey = le32toh(m.mapped.rkey);
	s->mapped = true;
	printf("map slab %u: addr 0x%" PRIx64 " rkey 0x%x%s\n", id, s->addr, s->rkey,
	       le32toh(m.mapped.flags) & SPARE_MAPPED_F_KEPT ? " kept" : "");
	return SPARE_ST_OK;
}

static struct probe_slab *mapped_slab(struct probe *p, uint32_t id,
				      const char *step)
{
	struct probe_slab *s = slab_get(p, id, false);

	if (!s)
		die("%s: slab %u is not mapped", step, id);
	return s;
}

static void do_write(struct probe *p, uint32_t id, uint8_t byte)
{
	struct probe_slab *s = mapped_slab(p, id, "write");
	enum ibv_wc_status st;

	data_connect(p);
	memset(p->local, byte, p->slab_size);
	if (rdma_xfer(p, true, s->addr, s->rkey, p->slab_size, &st))
		die("write slab %u: %s", id, ibv_wc_status_str(st));
	printf("write slab %u: %" PRIu64 " bytes of 0x%02x\n", id, p->slab_size,
	       byte);
}

static void do_read(struct probe *p, uint32_t id, uint8_t byte)
{
	struct probe_slab *s = mapped_slab(p, id, "read");
	enum ibv_wc_status st;
	size_t bad;

	data_connect(p);
	memset(p->local, byte ^ 0xff, p->slab_size);
	if (rdma_xfer(p, false, s->addr, s->rkey, p->slab_size, &st))
		die("read slab %u: %s", id, ibv_wc_status_str(st));
	bad = spare_find_not_byte(p->local, p->slab_size, byte);
	if (bad != p->slab_size)
		die("read slab %u: byte %zu is 0x%02x, expected 0x%02x", id, bad,
		    p->local[bad], byte);
	printf("read slab %u: all %" PRIu64 " bytes are 0x%02x\n", id,
	       p->slab_size, byte);
}

/* An RDMA READ that must fail: a revoked slab or someone else's rkey. */
static void do_read_fails(struct probe *p, uint64_t addr, uint32_t rkey,
			  const char *what)
{
	enum ibv_wc_status st;

	if (rdma_xfer(p, false, addr, rkey, 4096, &st) == 0)
		die("%s: RDMA READ of 0x%" PRIx64 " rkey 0x%x succeeded", what,
		    addr, rkey);
	printf("%s: RDMA READ refused (%s): ok\n", what, ibv_wc_status_str(st));
}

static void do_unmap(struct probe *p, uint32_t id)
{
	struct probe_slab *s = mapped_slab(p, id, "unmap");
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_UNMAP, ++p->seq);
	m.unmap.slab_id = htole32(id);
	send_msg(p, &m);
	s->mapped = false;
	printf("unmap slab %u\n", id);
}

static void do_heartbeat(struct probe *p)
{
	struct spare_msg m;
	uint32_t seq = ++p->seq;

	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, seq);
	m.heartbeat.now_ns = htole64(spare_now_ns());
	send_msg(p, &m);
	if (recv_msg(p, SPARE_MSG_HEARTBEAT, &m, p->timeout_ms))
		die("HEARTBEAT: no reply: %s", strerror(errno));
	if (le32toh(m.hdr.seq) != seq)
		die("HEARTBEAT: reply seq %u, sent %u", le32toh(m.hdr.seq), seq);
	printf("heartbeat: ok\n");
}

/* Wait for an EVICT of any mapped slab; answer with UNMAP if @answer. */
static void do_wait_evict(struct probe *p, unsigned int ms, bool answer)
{
	uint64_t end = spare_now_ms() + ms;
	struct spare_msg m;
	unsigned int i;

	for (;;) {
		for (i = 0; i < MAX_SLABS; i++) {
			struct probe_slab *s = &p->slabs[i];

			if (!s->mapped || !s->evicted)
				continue;
			s->evicted = false;
			if (answer)
				do_unmap(p, s->id);
			else
				printf("evict of slab %u left unanswered\n", s->id);
			return;
		}
		if (spare_now_ms() >= end)
			die("no EVICT within %u ms", ms);
		/* recv_msg marks the slab of an EVICT; the loop answers it. */
		if (recv_msg(p, SPARE_MSG_EVICT, &m,
			     (unsigned int)(end - spare_now_ms())) &&
		    errno != ETIMEDOUT)
			die("waiting for EVICT: connection failed");
	}
}

/* Did the donor close the control connection within the timeout? */
static void expect_closed(struct probe *p, const char *why)
{
	uint64_t end = spare_now_ms() + p->timeout_ms;
	enum rdma_cm_event_type t;
	char report[256];
	int st;

	/* A wait for a completion may have taken the DISCONNECTED already. */
	while (!p->ctrl.closed && spare_now_ms() < end) {
		if (spare_rdma_wait(p->ctrl.ev, (unsigned int)(end - spare_now_ms()),
				    &t, &st))
			break;
		link_event(&p->ctrl, t, st);
	}
	if (p->ctrl.closed) {
		printf("%s: donor closed the connection: ok\n", why);
		return;
	}
	die("%s: donor did not close the connection within %u ms (%s)", why,
	    p->timeout_ms, link_report(&p->ctrl, report, sizeof(report)));
}

static void do_bad(struct probe *p, const char *kind)
{
	struct spare_msg *m = send_slot(p);
	size_t len = SPARE_MSG_SIZE;

	spare_msg_init(m, SPARE_MSG_HEARTBEAT, ++p->seq);
	if (!strcmp(kind, "magic"))
		m->hdr.magic = htole32(0xdeadbeef);
	else if (!strcmp(kind, "version"))
		m->hdr.version = htole16(SPARE_PROTO_VERSION + 1);
	else if (!strcmp(kind, "type"))
		m->hdr.type = htole16(200);
	else if (!strcmp(kind, "reserved"))
		m->hdr.reserved = htole32(1);
	else if (!strcmp(kind, "pad"))
		m->pad[40] = 1;
	else if (!strcmp(kind, "short"))
		len = SPARE_MSG_SIZE / 2;
	else if (!strcmp(kind, "long"))
		len = SPARE_MSG_SIZE + 64;	/* overruns the donor's buffer */
	else if (!strcmp(kind, "shift")) {
		spare_msg_init(m, SPARE_MSG_HELLO, p->seq);
		m->hello.slab_shift = 5;
	} else if (!strcmp(kind, "donor-msg")) {
		spare_msg_init(m, SPARE_MSG_EVICT, p->seq);
		m->evict.reason = htole32(SPARE_EVICT_ADMIN);
	} else if (!strcmp(kind, "second-hello")) {
		spare_msg_init(m, SPARE_MSG_HELLO, p->seq);
		memcpy(m->hello.client_uuid, p->uuid, sizeof(p->uuid));
		m->hello.slab_shift = (uint8_t)p->slab_shift;
	} else if (!strcmp(kind, "map-before-hello")) {
		if (p->hello_done)
			die("bad:map-before-hello needs --no-hello");
		spare_msg_init(m, SPARE_MSG_MAP, p->seq);
	} else if (!strcmp(kind, "grant-order")) {
		/* part 1 of a grant whose part 0 never came */
		uint8_t zero[SPARE_GRANT_SIZE] = { 0 };

		spare_grant_part_init(m, zero, 1, p->seq);
	} else if (!strcmp(kind, "garbage")) {
		if (spare_random_bytes(m, SPARE_MSG_SIZE))
			die("getrandom: %s", strerror(errno));
	} else {
		die("bad: unknown kind '%s'", kind);
	}
	/* The send itself may fail if the donor closes first: fine. */
	if (send_raw(p, len))
		printf("bad %s: send did not complete\n", kind);
	expect_closed(p, kind);
}

static uint64_t grant_token_of(const struct spare_grant *g)
{
	uint64_t t;

	memcpy(&t, g->grant_id, sizeof(t));
	return le64toh(t);
}

/* Send @g in its GRANT parts; MAPs then name it. */
static void send_grant(struct probe *p, const struct spare_grant *g)
{
	struct spare_msg m;

	for (unsigned int part = 0; part < SPARE_GRANT_PARTS; part++) {
		spare_grant_part_init(&m, g, part, ++p->seq);
		send_msg(p, &m);
	}
	p->last_grant = *g;
	p->token = grant_token_of(g);
	printf("grant %016" PRIx64 " sent\n", p->token);
}

/*
 * grant:KIND[:SLABS]: mint a grant with --grant-key and send it. KIND ok,
 * or a bad one: forged (another key), expired, not-yet, other-donor,
 * other-client.
 */
static void mint_grant(struct probe *p, const char *kind, const char *slabs,
		       struct spare_grant *g);

static void do_grant(struct probe *p, const char *kind, const char *slabs)
{
	struct spare_grant g;

	mint_grant(p, kind, slabs, &g);
	send_grant(p, &g);
}

/* --mint KIND[:SLABS]: print @count grants in hex (as configfs takes them). */
static void print_grant(struct probe *p, char *arg, unsigned int count)
{
	char hex[SPARE_GRANT_HEX_LEN + 1], *save = NULL;
	const char *kind = strtok_r(arg, ":", &save);
	const char *slabs = strtok_r(NULL, ":", &save);
	struct spare_grant g;

	while (count--) {
		mint_grant(p, kind ? kind : "", slabs, &g);
		spare_grant_to_hex(&g, hex, sizeof(hex));
		printf("%s\n", hex);
	}
	if (fflush(stdout))
		die("--mint: writing the grant: %s", strerror(errno));
}

static void mint_grant(struct probe *p, const char *kind, const char *slabs,
		       struct spare_grant *out)
{
	struct spare_grant_key forger = p->grant_key;
	const struct spare_grant_key *k = &p->grant_key;
	struct spare_grant_info gi;
	uint64_t now = (uint64_t)time(NULL), v = 1;

	if (!(p->has_grant_key || p->grant_v3) || !p->grant_donor)
		die("grant: needs --grant-key (or --grant-v3) and --grant-donor");
	if (slabs && spare_parse_u64(slabs, 1, 1 << 20, &v))
		die("grant: bad slab count '%s'", slabs);
	memset(&gi, 0, sizeof(gi));
	if (p->has_grant_id)
		memcpy(gi.id, p->grant_id, sizeof(gi.id));
	else
		spare_grant_new_id(gi.id);
	snprintf(gi.client_id, sizeof(gi.client_id), "%s", p->grant_client);
	snprintf(gi.donor_id, sizeof(gi.donor_id), "%s", p->grant_donor);
	snprintf(gi.donor_addr, sizeof(gi.donor_addr), "%s:%u", p->host, p->port);
	gi.slabs = (uint32_t)v;
	gi.not_before = now - 60;
	gi.expiry = now + 600;
	if (!strcmp(kind, "forged")) {
		forger.key[0] ^= 1;
		k = &forger;
	} else if (!strcmp(kind, "expired")) {
		gi.not_before = now - 600;
		gi.expiry = now - 1;
	} else if (!strcmp(kind, "short")) {
		gi.expiry = now + 8;
	} else if (!strcmp(kind, "long")) {
		gi.expiry = now + 1200;	/* a renewal of an "ok" grant */
	} else if (!strcmp(kind, "short30")) {
		gi.expiry = now + 30;	/* for steps that write many before it ends */
	} else if (!strcmp(kind, "not-yet")) {
		gi.not_before = now + 300;
	} else if (!strcmp(kind, "other-donor")) {
		snprintf(gi.donor_id, sizeof(gi.donor_id), "not-%s", p->grant_donor);
	} else if (!strcmp(kind, "other-client")) {
		snprintf(gi.client_id, sizeof(gi.client_id), "not-%s", p->grant_client);
	} else if (strcmp(kind, "ok")) {
		die("grant: unknown kind '%s'", kind);
	}
	if (p->grant_v3) {
		/* the tag's key: the one the donor named derives from its
		 * broker key (a forged grant: from another broker key) */
		uint8_t kd[SPARE_GRANT_KEY_LEN], kg[SPARE_GRANT_KEY_LEN];

		memcpy(kd, p->grant_v3_kd, sizeof(kd));
		if (!strcmp(kind, "forged"))
			kd[0] ^= 1;
		if (spare_grant_v3_key(kg, kd, gi.donor_id) ||
		    spare_grant_v3_issue(&gi, kg, out))
			die("grant: cannot encode a version 3 grant (names too long?)");
		sodium_memzero(kd, sizeof(kd));
		sodium_memzero(kg, sizeof(kg));
	} else if (spare_grant_issue(&gi, k, out)) {
		die("grant: cannot encode (names too long?)");
	}
	sodium_memzero(&forger, sizeof(forger));
}

/* grant-save:FILE writes the last grant as hex; grant-load:FILE sends one. */
static void grant_file(struct probe *p, const char *path, bool save)
{
	char hex[SPARE_GRANT_HEX_LEN + 2];
	struct spare_grant g;
	FILE *f;

	if (!path)
		die("grant-%s: needs a file", save ? "save" : "load");
	f = fopen(path, save ? "w" : "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	if (save) {
		spare_grant_to_hex(&p->last_grant, hex, sizeof(hex));
		fprintf(f, "%s\n", hex);
	} else if (!fgets(hex, sizeof(hex), f)) {
		die("%s: empty", path);
	}
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
	if (save)
		return;
	hex[strcspn(hex, "\n")] = 0;
	if (spare_grant_from_hex(hex, &g))
		die("%s: not a grant", path);
	send_grant(p, &g);
}

/* Connect with bad private data and expect the donor to refuse. */
static void bad_priv(struct probe *p, const char *kind)
{
	union { struct spare_conn_priv c; uint8_t b[56]; } u;
	size_t len = sizeof(u.c);

	memset(&u, 0, sizeof(u));
	spare_conn_priv_init(&u.c, SPARE_CONN_CONTROL, p->uuid, 0, RECV_DEPTH);
	if (!strcmp(kind, "garbage")) {
		if (spare_random_bytes(u.b, sizeof(u.b)))
			die("getrandom: %s", strerror(errno));
		len = sizeof(u.b);
	} else if (!strcmp(kind, "none")) {
		len = 0;
	} else if (!strcmp(kind, "short")) {
		len = 8;
	} else if (!strcmp(kind, "magic")) {
		u.c.magic = htole32(0x12345678);
	} else if (!strcmp(kind, "version")) {
		u.c.version = htole16(99);
	} else if (!strcmp(kind, "kind")) {
		u.c.kind = htole16(7);
	} else if (!strcmp(kind, "depth")) {
		u.c.queue_depth = 0;
	} else if (!strcmp(kind, "cookie")) {
		/* A DATA connection for a session that does not exist. */
		spare_conn_priv_init(&u.c, SPARE_CONN_DATA, p->uuid,
				     0x5eed5eed5eed5eedULL, 1);
	} else {
		die("--bad-priv: unknown kind '%s'", kind);
	}
	ctrl_connect(p, len ? (void *)&u : (void *)"", len, true);
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [options] ADDR STEP...\n"
"A scriptable spare client for testing donors. HELLO is sent first unless\n"
"--no-hello; then each STEP runs in order; any failure exits 1.\n\n"
"options:\n"
"  -p, --port PORT          donor port [18515]\n"
"  -S, --source ADDR        local address to connect from\n"
"  -s, --slab-size SIZE     slab size to ask for [1G]\n"
"  -u, --uuid N             client uuid (every byte N) [random]\n"
"      --uuid-hex HEX       client uuid, 32 hex digits\n"
"      --resume TOKEN       HELLO asks to adopt the slabs a donor holds for this\n"
"                           uuid (F_HOLD|F_RESUME, hex token); map prints \"kept\"\n"
"  -t, --timeout MS         per-step timeout [10000]\n"
"      --no-hello           do not send HELLO on connect\n"
"  -k, --key SECRET         authenticate with this SPARE-1: secret\n"
"  -G, --grant-key FILE     the brokers' grant key (SPARE-1: file), to mint grants\n"
"      --grant-key-id N     its key id [1]\n"
"      --grant-v3 FILE      mint version 3 grants instead, keyed from the\n"
"                           donor's broker key (SPARE-1: file; its broker-key-file)\n"
"      --grant-client NAME  client_id written into grants [probe]\n"
"      --grant-donor ID     donor_id written into grants (the donor's host name)\n"
"      --mint KIND[:SLABS]  print a grant for ADDR in hex (as configfs takes it)\n"
"                           and exit without connecting; KIND as grant:\n"
"      --mint-count N       --mint prints N grants, each its own id [1]\n"
"      --grant-id HEX       minted grants have this id (32 hex digits; a\n"
"                           renewal is the same id with a later expiry)\n"
"      --bad-priv KIND      connect with bad private data and expect a refusal\n"
"                           (garbage none short magic version kind depth cookie)\n"
"  -v, --log-level LEVEL\n\n"
"steps:\n"
"  hello                    send HELLO (with --no-hello)\n"
"  map:ID                   MAP slab ID; must succeed\n"
"  map-refused:ID           MAP slab ID; must be refused (no space, busy)\n"
"  map-bad-grant:ID         MAP slab ID; must be refused for want of a grant\n"
"  grant:KIND[:SLABS]       send a grant minted with --grant-key; MAPs name it\n"
"                           (ok long short short30 forged expired not-yet other-donor\n"
"                           other-client)\n"
"  grant-save:FILE          write the last grant sent to FILE (hex)\n"
"  grant-load:FILE          send the grant in FILE; MAPs name it\n"
"  token:none|bogus         MAPs name no grant, or one never sent\n"
"  write:ID:BYTE            RDMA WRITE BYTE over the whole slab\n"
"  read:ID:BYTE             RDMA READ the whole slab; every byte must be BYTE\n"
"  read-fails:ID            an RDMA READ of the slab must fail (revoked)\n"
"  steal:ADDR:RKEY          an RDMA READ of another client's slab must fail\n"
"  unmap:ID                 UNMAP slab ID\n"
"  heartbeat                HEARTBEAT and wait for the answer\n"
"  wait-evict:MS            wait for an EVICT, then UNMAP that slab\n"
"  ignore-evict:MS          wait for an EVICT and do not answer\n"
"  sleep:MS                 sleep (answering queries, recording EVICTs)\n"
"  wait-file:PATH:MS        wait until PATH exists (as sleep meanwhile)\n"
"  expect-closed            the donor must close the connection\n"
"  hello-refused:WHY        HELLO must be refused (auth-required, auth-failed)\n"
"  auth-save:FILE           authenticated HELLO; keep its nonce and proof\n"
"  auth-replay:FILE         HELLO replaying a saved nonce and proof: refused\n"
"  auth-truncate            stop the handshake after the donor's challenge\n"
"  auth-again               send AUTH_RESPONSE after the handshake\n"
"  bad:KIND                 send a malformed message; the donor must close\n"
"                           (magic version type reserved pad short long shift\n"
"                            donor-msg second-hello map-before-hello garbage\n"
"                            grant-order)\n",
		prog);
}

static void run_step(struct probe *p, char *step)
{
	char *save = NULL, *verb, *a1, *a2;
	uint64_t v, addr;

	verb = strtok_r(step, ":", &save);
	a1 = strtok_r(NULL, ":", &save);
	a2 = strtok_r(NULL, ":", &save);
	if (!verb)
		die("empty step");
	if (!strcmp(verb, "hello")) {
		do_hello(p);
	} else if (!strcmp(verb, "map")) {
		uint32_t id = parse_id(a1, verb);

		if (do_map(p, id) != SPARE_ST_OK)
			die("map slab %u: refused", id);
	} else if (!strcmp(verb, "map-bad-grant")) {
		uint32_t id = parse_id(a1, verb);
		enum spare_status st = do_map(p, id);

		if (st != SPARE_ST_BAD_GRANT)
			die("map slab %u: %s, expected a grant refusal", id,
			    spare_status_name(st));
	} else if (!strcmp(verb, "grant")) {
		do_grant(p, a1 ? a1 : "", a2);
	} else if (!strcmp(verb, "grant-save") || !strcmp(verb, "grant-load")) {
		grant_file(p, a1, !strcmp(verb, "grant-save"));
	} else if (!strcmp(verb, "token")) {
		if (a1 && !strcmp(a1, "none"))
			p->token = 0;
		else if (a1 && !strcmp(a1, "bogus"))
			p->token = 0x0123456789abcdefULL;
		else
			die("token: none or bogus");
	} else if (!strcmp(verb, "map-refused")) {
		uint32_t id = parse_id(a1, verb);

		if (do_map(p, id) == SPARE_ST_OK)
			die("map slab %u: granted, expected a refusal", id);
	} else if (!strcmp(verb, "write")) {
		do_write(p, parse_id(a1, verb), parse_byte(a2, verb));
	} else if (!strcmp(verb, "read")) {
		do_read(p, parse_id(a1, verb), parse_byte(a2, verb));
	} else if (!strcmp(verb, "read-fails")) {
		struct probe_slab *s = mapped_slab(p, parse_id(a1, verb), verb);

		do_read_fails(p, s->addr, s->rkey, "read-fails");
	} else if (!strcmp(verb, "steal")) {
		if (!a1 || !a2 || spare_parse_u64(a1, 0, UINT64_MAX, &addr) ||
		    spare_parse_u64(a2, 0, UINT32_MAX, &v))
			die("steal: usage steal:ADDR:RKEY");
		do_read_fails(p, addr, (uint32_t)v, "steal");
	} else if (!strcmp(verb, "unmap")) {
		do_unmap(p, parse_id(a1, verb));
	} else if (!strcmp(verb, "heartbeat")) {
		do_heartbeat(p);
	} else if (!strcmp(verb, "wait-evict") || !strcmp(verb, "ignore-evict")) {
		if (!a1 || spare_parse_u64(a1, 1, 3600000, &v))
			die("%s: bad time '%s'", verb, a1 ? a1 : "");
		do_wait_evict(p, (unsigned int)v, !strcmp(verb, "wait-evict"));
	} else if (!strcmp(verb, "sleep")) {
		struct spare_msg m;

		if (!a1 || spare_parse_u64(a1, 0, 3600000, &v))
			die("sleep: bad time '%s'", a1 ? a1 : "");
		if (recv_msg(p, 0, &m, (unsigned int)v) && errno != ETIMEDOUT)
			die("sleep: connection failed");
	} else if (!strcmp(verb, "wait-file")) {
		struct spare_msg m;
		uint64_t end;

		if (!a1 || !a2 || spare_parse_u64(a2, 1, 3600000, &v))
			die("wait-file: usage wait-file:PATH:MS");
		end = spare_now_ms() + v;
		while (access(a1, F_OK)) {
			if (spare_now_ms() >= end)
				die("wait-file: no %s after %" PRIu64 " ms", a1, v);
			if (recv_msg(p, 0, &m, 200) && errno != ETIMEDOUT)
				die("wait-file: connection failed");
		}
	} else if (!strcmp(verb, "expect-closed")) {
		expect_closed(p, "expect-closed");
	} else if (!strcmp(verb, "hello-refused")) {
		uint32_t want = !a1 ? 0 : !strcmp(a1, "auth-required") ?
				SPARE_ST_AUTH_REQUIRED : !strcmp(a1, "auth-failed") ?
				SPARE_ST_AUTH_FAILED : 0, st;

		if (!want)
			die("hello-refused: auth-required or auth-failed");
		st = hello_status(p);
		if (st != want)
			die("HELLO: status %u, expected %u", st, want);
		printf("hello: refused with status %u: ok\n", st);
	} else if (!strcmp(verb, "auth-save") || !strcmp(verb, "auth-replay")) {
		bool saving = !strcmp(verb, "auth-save");
		uint32_t st;

		if (!a1 || !p->has_key)
			die("%s: needs a file and --key", verb);
		st = hello_auth(p, saving ? a1 : NULL, saving ? NULL : a1, false);
		if (saving && st != SPARE_ST_OK)
			die("auth-save: HELLO refused: status %u", st);
		if (!saving && st != SPARE_ST_AUTH_FAILED)
			die("auth-replay: status %u, expected AUTH_FAILED", st);
		if (!saving)
			printf("auth-replay: replayed proof refused: ok\n");
	} else if (!strcmp(verb, "auth-truncate")) {
		if (!p->has_key)
			die("auth-truncate: needs --key");
		hello_auth(p, NULL, NULL, true);
	} else if (!strcmp(verb, "auth-again")) {
		struct spare_msg m;

		/* A proof after the handshake is over: a protocol error. */
		spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, ++p->seq);
		send_msg(p, &m);
	} else if (!strcmp(verb, "bad")) {
		if (!a1)
			die("bad: which kind?");
		do_bad(p, a1);
	} else {
		die("unknown step '%s' (see --help)", verb);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "source", required_argument, NULL, 'S' },
		{ "slab-size", required_argument, NULL, 's' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "uuid-hex", required_argument, NULL, 'U' },
		{ "resume", required_argument, NULL, 'R' },
		{ "timeout", required_argument, NULL, 't' },
		{ "no-hello", no_argument, NULL, 'H' },
		{ "bad-priv", required_argument, NULL, 'B' },
		{ "log-level", required_argument, NULL, 'v' },
		{ "key", required_argument, NULL, 'k' },
		{ "grant-key", required_argument, NULL, 'G' },
		{ "grant-key-id", required_argument, NULL, 'I' },
		{ "grant-v3", required_argument, NULL, 'V' },
		{ "grant-client", required_argument, NULL, 'C' },
		{ "grant-donor", required_argument, NULL, 'D' },
		{ "mint", required_argument, NULL, 'M' },
		{ "mint-count", required_argument, NULL, 'N' },
		{ "grant-id", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct probe p;
	const char *bad_priv_kind = NULL;
	char *mint = NULL;
	unsigned int mint_count = 1;
	bool hello = true, uuid_set = false;
	uint64_t v;
	int opt, i, level;

	spare_log_init(argv[0], SPARE_LOG_INFO);
	setvbuf(stdout, NULL, _IOLBF, 0);
	p.port = SPARE_DEFAULT_PORT;
	p.slab_shift = SPARE_SLAB_SHIFT_DEFAULT;
	p.timeout_ms = 10000;
	p.grant_client = "probe";
	p.grant_key.id = 1;
	while ((opt = getopt_long(argc, argv, "p:S:s:u:t:v:k:G:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'G': {
			char why[256];

			if (spare_auth_init())
				die("libsodium cannot initialise");
			if (broker_read_key_file(optarg, p.grant_key.key, why, sizeof(why)))
				die("--grant-key %s", why);
			p.has_grant_key = true;
			break;
		}
		case 'V': {
			char why[256];

			if (spare_auth_init())
				die("libsodium cannot initialise");
			if (broker_read_key_file(optarg, p.grant_v3_kd, why, sizeof(why)))
				die("--grant-v3 %s", why);
			p.grant_v3 = true;
			break;
		}
		case 'I':
			if (spare_parse_u64(optarg, 0, UINT32_MAX, &v))
				die("--grant-key-id %s: not a key id", optarg);
			p.grant_key.id = (uint32_t)v;
			break;
		case 'C':
			p.grant_client = optarg;
			break;
		case 'D':
			p.grant_donor = optarg;
			break;
		case 'M':
			mint = optarg;
			break;
		case 'N':
			if (spare_parse_u64(optarg, 1, 100000, &v))
				die("--mint-count %s: not a count from 1 to 100000", optarg);
			mint_count = (unsigned int)v;
			break;
		case 'X':
			if (strlen(optarg) != 2 * SPARE_GRANT_ID_LEN)
				die("--grant-id %s: 32 hex digits expected", optarg);
			for (unsigned int b = 0; b < SPARE_GRANT_ID_LEN; b++)
				if (sscanf(optarg + 2 * b, "%2hhx", &p.grant_id[b]) != 1)
					die("--grant-id %s: 32 hex digits expected", optarg);
			p.has_grant_id = true;
			break;
		case 'k': {
			const char *why;

			if (spare_auth_init())
				die("libsodium cannot initialise");
			why = spare_key_parse(optarg, p.key);
			if (why)
				die("--key: %s", why);
			p.has_key = true;
			break;
		}
		case 'p':
			if (spare_parse_u64(optarg, 1, 65535, &v))
				die("--port %s: not a port", optarg);
			p.port = (uint16_t)v;
			break;
		case 'S':
			p.source = optarg;
			break;
		case 's':
			if (spare_parse_size(optarg, &v) ||
			    spare_ilog2_exact(v) < SPARE_SLAB_SHIFT_MIN ||
			    spare_ilog2_exact(v) > SPARE_SLAB_SHIFT_MAX)
				die("--slab-size %s: not a power of two from 1M to 16G",
				    optarg);
			p.slab_shift = (unsigned int)spare_ilog2_exact(v);
			break;
		case 'u':
			if (spare_parse_u64(optarg, 0, 255, &v))
				die("--uuid %s: not a byte", optarg);
			memset(p.uuid, (int)v, sizeof(p.uuid));
			uuid_set = true;
			break;
		case 'U':
			if (strlen(optarg) != 32)
				die("--uuid-hex %s: 32 hex digits expected", optarg);
			for (unsigned int b = 0; b < 16; b++)
				if (sscanf(optarg + 2 * b, "%2hhx", &p.uuid[b]) != 1)
					die("--uuid-hex %s: 32 hex digits expected", optarg);
			uuid_set = true;
			break;
		case 'R': {
			char *end;

			errno = 0;
			p.resume = strtoull(optarg, &end, 16);
			if (errno || *end || !p.resume)
				die("--resume %s: a non-zero hex token expected", optarg);
			break;
		}
		case 't':
			if (spare_parse_u64(optarg, 1, 3600000, &v))
				die("--timeout %s: not a time in ms", optarg);
			p.timeout_ms = (unsigned int)v;
			break;
		case 'H':
			hello = false;
			break;
		case 'B':
			bad_priv_kind = optarg;
			break;
		case 'v':
			level = spare_log_parse_level(optarg);
			if (level < 0)
				die("--log-level %s: unknown", optarg);
			spare_log_set_level((enum spare_log_level)level);
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr, argv[0]);
		return 2;
	}
	p.host = argv[optind++];
	p.slab_size = 1ULL << p.slab_shift;
	if (!uuid_set && spare_random_bytes(p.uuid, sizeof(p.uuid)))
		die("getrandom: %s", strerror(errno));

	if (mint) {
		print_grant(&p, mint, mint_count);
		return 0;
	}
	if (bad_priv_kind) {
		bad_priv(&p, bad_priv_kind);
		return 0;
	}
	ctrl_connect(&p, NULL, 0, false);
	if (hello)
		do_hello(&p);
	for (i = optind; i < argc; i++)
		run_step(&p, argv[i]);
	link_destroy(&p.data);
	link_destroy(&p.ctrl);
	printf("done\n");
	return 0;
}
