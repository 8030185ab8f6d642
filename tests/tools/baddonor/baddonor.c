// SPDX-License-Identifier: GPL-2.0
/*
 * spare-baddonor: a donor that breaks the protocol on purpose, to test that
 * a client closes the connection it came on and nothing else
 * (tests/vm/client/baddonor.sh). Never use it for anything else.
 *
 * usage: spare-baddonor -l ADDR [-p PORT] -m MODE
 *   MODE hello: answer HELLO with a HELLO_REPLY whose magic is wrong;
 *   MODE live:  answer HELLO correctly, refuse every MAP (NO_SPACE), then
 *               send an EVICT whose reason is 0 (out of range).
 *   MODE live-map: a working donor for a while: HELLO answered, every MAP
 *               granted with real registered memory that the client's DATA
 *               connections read and write, HEARTBEATs answered; then, -d
 *               SECONDS (default 3) after the first MAP, -n COUNT (default
 *               1) EVICTs whose reason is 0 on the live session (a client
 *               that set up everything before the donor misbehaves:
 *               spare-ublk).
 * It accepts connections forever and prints one line per event.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "spare_proto.h"
#include "spare_rdma.h"

#define NRECV	16

struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct spare_msg bufs[NRECV + 1];	/* last one: send buffer */
	unsigned int seq;
};

static const char *mode = "";
static unsigned int bad_delay_s = 3;
static unsigned int bad_count = 1;	/* live-map: bad EVICTs sent, back to back */

static void die(const char *what)
{
	fprintf(stderr, "spare-baddonor: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int post_recv(struct conn *c, int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)&c->bufs[i],
		.length = SPARE_MSG_SIZE,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(c->id->qp, &wr, &bad);
}

static int send_msg(struct conn *c, const struct spare_msg *m)
{
	struct spare_msg *b = &c->bufs[NRECV];
	struct ibv_sge sge = {
		.addr = (uintptr_t)b,
		.length = SPARE_MSG_SIZE,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = NRECV, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad;

	memcpy(b, m, sizeof(*m));
	return ibv_post_send(c->id->qp, &wr, &bad);
}

/* Accept a CONTROL connection on @pd (or a PD of its own, if NULL). */
static void accept_conn(struct conn *c, struct rdma_cm_id *id, struct ibv_pd *pd)
{
	struct spare_rdma_err e;
	int i;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->pd = pd ? pd : ibv_alloc_pd(id->verbs);
	if (!c->pd || spare_rdma_cq(id->verbs, 64, NULL, 0, NULL, &c->cq, &e))
		die("verbs set-up");
	c->mr = ibv_reg_mr(c->pd, c->bufs, sizeof(c->bufs), IBV_ACCESS_LOCAL_WRITE);
	if (!c->mr)
		die("verbs set-up");
	if (spare_rdma_qp(id, c->pd, c->cq, 8, NRECV))
		die("rdma_create_qp");
	for (i = 0; i < NRECV; i++)
		if (post_recv(c, i))
			die("ibv_post_recv");
	if (spare_rdma_accept(id, 0, 0))
		die("rdma_accept");
}

static void close_conn(struct conn *c)
{
	if (!c->id)
		return;
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.id = c->id, .mr = c->mr, .cq = c->cq, .pd = c->pd });
	c->id = NULL;
}

/* React to one received message; returns 1 once the bad message is sent. */
static int on_msg(struct conn *c, const struct spare_msg *in, unsigned int len)
{
	struct spare_msg m;
	unsigned int type;

	if (spare_msg_check(in, len, &type)) {
		printf("client sent a bad message\n");
		return 0;
	}
	if (type == SPARE_MSG_HELLO) {
		spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, le32toh(in->hdr.seq));
		m.hello_reply.session_cookie = htole64(0x5ba5ba5ba5ba5ba5ULL);
		m.hello_reply.slab_shift = in->hello.slab_shift;
		if (!strcmp(mode, "hello")) {
			m.hdr.magic = htole32(0x12345678);
			printf("HELLO: sending a HELLO_REPLY with a bad magic\n");
			send_msg(c, &m);
			return 1;
		}
		printf("HELLO: session ready\n");
		return send_msg(c, &m) ? -1 : 0;
	}
	if (type == SPARE_MSG_MAP) {
		spare_msg_init(&m, SPARE_MSG_MAPPED, le32toh(in->hdr.seq));
		m.mapped.slab_id = in->map.slab_id;
		m.mapped.status = htole32(SPARE_ST_NO_SPACE);
		send_msg(c, &m);
		usleep(200000);
		spare_msg_init(&m, SPARE_MSG_EVICT, ++c->seq);
		m.evict.slab_id = in->map.slab_id;
		printf("MAP slab %u refused; sending an EVICT with reason 0\n",
		       le32toh(in->map.slab_id));
		send_msg(c, &m);
		return 1;
	}
	return 0;
}

/* ---- MODE live-map ---- */

#define MAXC		8	/* connections at once: a CONTROL and its DATA */
#define MAX_SLABS	64

static struct conn lm[MAXC];
static struct ibv_pd *lm_pd;		/* one PD: DATA QPs use the slabs' rkeys */
static struct ibv_mr *lm_mr[MAX_SLABS];
static unsigned int lm_nslabs;
static double lm_bad_at;		/* when the bad EVICT goes; 0: not armed */
static unsigned int lm_bad_sent;
static struct conn *lm_ctrl;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct conn *lm_slot(void)
{
	for (int i = 0; i < MAXC; i++)
		if (!lm[i].id)
			return &lm[i];
	return NULL;
}

static void lm_connect(struct rdma_cm_event *ev)
{
	const struct spare_conn_priv *p = ev->param.conn.private_data;
	struct rdma_cm_id *id = ev->id;
	struct ibv_device_attr da;
	struct spare_rdma_err e;
	struct conn *c = lm_slot();

	if (!c || !p || ev->param.conn.private_data_len < sizeof(*p) ||
	    spare_conn_priv_check(p, ev->param.conn.private_data_len)) {
		printf("connect request refused\n");
		rdma_reject(id, NULL, 0);
		return;
	}
	if (!lm_pd && !(lm_pd = ibv_alloc_pd(id->verbs)))
		die("ibv_alloc_pd");
	if (le16toh(p->kind) == SPARE_CONN_DATA) {
		memset(c, 0, sizeof(*c));
		c->id = id;
		c->pd = lm_pd;
		id->context = c;
		if (spare_rdma_cq(id->verbs, 64, NULL, 0, NULL, &c->cq, &e))
			die("verbs set-up");
		if (ibv_query_device(id->verbs, &da) ||
		    spare_rdma_qp(id, c->pd, c->cq, 1, 1))
			die("DATA QP");
		if (spare_rdma_accept(id, (uint8_t)(ev->param.conn.responder_resources <
						     da.max_qp_rd_atom ?
						     ev->param.conn.responder_resources :
						     da.max_qp_rd_atom), 0))
			die("rdma_accept");
		printf("DATA connection accepted\n");
		return;
	}
	accept_conn(c, id, lm_pd);
	id->context = c;
	lm_ctrl = c;
	printf("CONTROL connection accepted\n");
}

static void lm_close(struct rdma_cm_id *id)
{
	struct conn *c = id->context;

	if (!c)
		return;
	if (c == lm_ctrl)
		lm_ctrl = NULL;
	rdma_disconnect(id);
	rdma_destroy_qp(id);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	ibv_destroy_cq(c->cq);
	rdma_destroy_id(id);
	memset(c, 0, sizeof(*c));
}

static void lm_msg(struct conn *c, const struct spare_msg *in, unsigned int len)
{
	static unsigned int slab_shift;
	struct spare_msg m;
	unsigned int type;

	if (spare_msg_check(in, len, &type)) {
		printf("client sent a bad message\n");
		return;
	}
	switch (type) {
	case SPARE_MSG_HELLO:
		slab_shift = in->hello.slab_shift;
		spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, le32toh(in->hdr.seq));
		m.hello_reply.session_cookie = htole64(0x5ba5ba5ba5ba5ba5ULL);
		m.hello_reply.slab_shift = in->hello.slab_shift;
		m.hello_reply.free_slabs = htole32(MAX_SLABS - lm_nslabs);
		printf("HELLO: session ready\n");
		send_msg(c, &m);
		break;
	case SPARE_MSG_MAP: {
		size_t sz = (size_t)1 << slab_shift;
		void *mem = NULL;
		struct ibv_mr *mr = NULL;

		spare_msg_init(&m, SPARE_MSG_MAPPED, le32toh(in->hdr.seq));
		m.mapped.slab_id = in->map.slab_id;
		if (lm_nslabs < MAX_SLABS && slab_shift >= 12 && slab_shift <= 30 &&
		    !posix_memalign(&mem, 4096, sz)) {
			memset(mem, 0, sz);
			mr = ibv_reg_mr(lm_pd, mem, sz, IBV_ACCESS_LOCAL_WRITE |
					IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
		}
		if (!mr) {
			free(mem);
			m.mapped.status = htole32(SPARE_ST_NO_SPACE);
			printf("MAP slab %u refused\n", le32toh(in->map.slab_id));
		} else {
			lm_mr[lm_nslabs++] = mr;
			m.mapped.addr = htole64((uintptr_t)mem);
			m.mapped.rkey = htole32(mr->rkey);
			m.mapped.status = htole32(SPARE_ST_OK);
			printf("MAP slab %u granted\n", le32toh(in->map.slab_id));
			if (!lm_bad_at)
				lm_bad_at = now_s() + bad_delay_s;
		}
		send_msg(c, &m);
		break;
	}
	case SPARE_MSG_HEARTBEAT:
		spare_msg_init(&m, SPARE_MSG_HEARTBEAT, le32toh(in->hdr.seq));
		m.heartbeat.now_ns = in->heartbeat.now_ns;
		send_msg(c, &m);
		break;
	default:
		break;		/* GRANT parts, UNMAP: nothing to answer */
	}
}

static void run_live_map(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	struct spare_msg m;
	int i;

	if (fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK))
		die("event channel");
	for (;;) {
		while (!rdma_get_cm_event(ch, &ev)) {
			struct rdma_cm_id *id = ev->id;
			enum rdma_cm_event_type t = ev->event;

			if (t == RDMA_CM_EVENT_CONNECT_REQUEST)
				lm_connect(ev);
			rdma_ack_cm_event(ev);
			if (t == RDMA_CM_EVENT_ESTABLISHED)
				printf("connection established\n");
			else if (t == RDMA_CM_EVENT_DISCONNECTED) {
				printf("client closed the connection\n");
				lm_close(id);
			}
		}
		for (i = 0; i < MAXC; i++) {
			struct ibv_wc wc;

			if (!lm[i].id || !lm[i].mr)
				continue;	/* DATA QPs post nothing */
			while (lm[i].id && ibv_poll_cq(lm[i].cq, 1, &wc) > 0) {
				if (wc.status != IBV_WC_SUCCESS)
					break;
				if (wc.opcode & IBV_WC_RECV) {
					lm_msg(&lm[i], &lm[i].bufs[wc.wr_id], wc.byte_len);
					post_recv(&lm[i], (int)wc.wr_id);
				}
			}
		}
		if (lm_bad_at && lm_bad_sent < bad_count && lm_ctrl &&
		    now_s() >= lm_bad_at) {
			/* one per turn: the send buffer is reused */
			spare_msg_init(&m, SPARE_MSG_EVICT, ++lm_ctrl->seq);
			if (!lm_bad_sent)
				printf("live session: sending %u EVICT(s) with reason 0\n",
				       bad_count);
			send_msg(lm_ctrl, &m);
			lm_bad_sent++;
		}
		usleep(1000);
	}
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdma_cm_event *ev;
	struct spare_rdma_err e;
	const char *addr = NULL;
	struct conn c = { 0 };
	int port = SPARE_DEFAULT_PORT, opt;

	while ((opt = getopt(argc, argv, "l:p:m:d:n:")) != -1) {
		switch (opt) {
		case 'l': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'm': mode = optarg; break;
		case 'd': bad_delay_s = (unsigned int)atoi(optarg); break;
		case 'n': bad_count = (unsigned int)atoi(optarg); break;
		default: goto usage;
		}
	}
	if (!addr || (strcmp(mode, "hello") && strcmp(mode, "live") &&
		      strcmp(mode, "live-map")))
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sin.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		goto usage;
	if (spare_rdma_open(&ch, &listen_id, NULL, false, &e))
		die("rdma_cm");
	if (spare_rdma_listen(listen_id, (struct sockaddr *)&sin, 4, &e))
		die("listen");
	printf("listening on %s:%d, mode %s\n", addr, port, mode);
	if (!strcmp(mode, "live-map"))
		run_live_map(ch);

	while (!rdma_get_cm_event(ch, &ev)) {
		struct rdma_cm_id *id = ev->id;
		enum rdma_cm_event_type t = ev->event;

		if (t == RDMA_CM_EVENT_CONNECT_REQUEST && c.id) {
			rdma_reject(id, NULL, 0);	/* one client at a time */
			rdma_ack_cm_event(ev);
			continue;
		}
		rdma_ack_cm_event(ev);
		if (t == RDMA_CM_EVENT_CONNECT_REQUEST) {
			accept_conn(&c, id, NULL);
		} else if (t == RDMA_CM_EVENT_ESTABLISHED) {
			struct ibv_wc wc;
			int done = 0, n;

			printf("connection established\n");
			/* Busy-poll until the bad message is out. */
			while (done <= 0) {
				n = ibv_poll_cq(c.cq, 1, &wc);
				if (n < 0)
					break;
				if (!n) {
					usleep(1000);
					continue;
				}
				if (wc.status != IBV_WC_SUCCESS) {
					printf("completion error %s\n",
					       ibv_wc_status_str(wc.status));
					break;
				}
				if (wc.opcode & IBV_WC_RECV) {
					done = on_msg(&c, &c.bufs[wc.wr_id], wc.byte_len);
					post_recv(&c, (int)wc.wr_id);
				}
			}
		} else if (t == RDMA_CM_EVENT_DISCONNECTED) {
			printf("client closed the connection\n");
			close_conn(&c);
		}
	}
	return 0;
usage:
	fprintf(stderr, "usage: spare-baddonor -l ADDR [-p PORT] -m hello|live|live-map [-d SECONDS] [-n COUNT]\n");
	return 2;
}
