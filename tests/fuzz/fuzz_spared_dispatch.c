// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for spared's dispatch of one client session: the
 * daemon's own completion handler (userspace/spared/conn.c: handle_wc(),
 * which checks each message with spare_msg_check()), handle_msg() and
 * every handler behind it (messages.c, slabs.c: HELLO, AUTH_RESPONSE,
 * GRANT, MAP, UNMAP, ACTIVITY_REPLY, HEARTBEAT), over the daemon's own
 * session, slab pool and grant ledger (session.c, pool.c, grants.c,
 * slabmem.c, hold.c). No RDMA: the session's queue pair is a fake whose
 * post_send keeps what the donor sends, and ibv_reg_mr, ibv_dereg_mr and
 * rdma_disconnect are replaced below; no other verbs call is reached (a
 * stub that traps says so if one is).
 *
 * Each input is one session on a fresh donor of 8 slabs of 1 MiB. Byte 0
 * picks the donor and the harness's help:
 *   bit 0  host keys (the client must authenticate), else open mode
 *   bit 1  grants (MAPs need a broker's grant: a version 1 key)
 *   bit 2  the harness says a correct HELLO first (and, with host keys,
 *          answers the challenge with the right proof), so that the
 *          handlers behind the handshake are reached
 *   bit 3  the harness sends a valid grant for 4 slabs after that
 *   bits 4-7  the client's queue depth (send limit), 1..16
 * The rest is records, at most 512: a byte B, then
 *   B < 0xf0   a message of B % 65 bytes (zero-padded to 64) received;
 *   B = 0xf0   the oldest outstanding send completes;
 *   B = 0xf1   a receive completes with an error status;
 *   B = 0xf2   the next message sent gets the session's uuid and slab
 *              shift patched in (a HELLO the harness did not send);
 *   B = 0xf3   with grants: the backstop for lapsed grants looks now;
 *   B = 0xf4   with grants: it looks at a time when every grant lapsed
 *              long ago, and again a grace later;
 *   other      skipped.
 * fuzz-ldlibs: userspace/spared/messages.c userspace/spared/slabs.c userspace/spared/session.c userspace/spared/grants.c userspace/spared/backstop.c userspace/spared/pool.c userspace/spared/hold.c userspace/spared/slabmem.c userspace/spared/linger.c build/lib/libspare.a -lrdmacm -libverbs -linih -lsystemd -lsodium -lz -lm -lpthread
 *
 * Checks beyond "no crash": every message the donor sends passes
 * spare_msg_check() and is a donor's message; the pool's counts match its
 * slabs; every slab lent to the session is registered (it has an MR), at
 * most one per client slab id; with grants, the session never holds more
 * slabs than its grants cover (until 0xf4 let them lapse); the send queue
 * never holds more than the client's depth. The backstop (backstop.c,
 * slabs.c): a look now asks nothing back and stamps nothing (the grants
 * cover every slab); after the looks of 0xf4 no slab of the session is
 * still LENT unless it is held for a resume.
 */
#include "../../userspace/spared/conn.c"

#include "spare_grant_lib.h"

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

/* ---- the verbs calls the handlers make, faked ---- */

#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	static uint32_t next_key = 0x100;
	struct ibv_mr *mr = calloc(1, sizeof(*mr));

	if (!mr) {
		errno = ENOMEM;
		return NULL;
	}
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	mr->lkey = mr->rkey = next_key++;
	return mr;
}

int ibv_dereg_mr(struct ibv_mr *mr);
int ibv_dereg_mr(struct ibv_mr *mr)
{
	free(mr);
	return 0;
}

int rdma_disconnect(struct rdma_cm_id *id);
int rdma_disconnect(struct rdma_cm_id *id)
{
	return 0;
}

/* What the donor sent, in order; the wr_ids not yet completed. */
static uint64_t outstanding[SPARED_SEND_DEPTH];
static unsigned int nout;
static struct spare_msg last_sent;
static bool sent_any;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	const struct spare_msg *m = (const void *)(uintptr_t)wr->sg_list->addr;
	unsigned int type;

	check(wr->num_sge == 1 && wr->sg_list->length == SPARE_MSG_SIZE && !wr->next);
	check(!spare_msg_check(m, SPARE_MSG_SIZE, &type));
	/* a donor's message, never a client's */
	check(type == SPARE_MSG_HELLO_REPLY || type == SPARE_MSG_AUTH_CHALLENGE ||
	      type == SPARE_MSG_AUTH_RESPONSE || type == SPARE_MSG_MAPPED ||
	      type == SPARE_MSG_HEARTBEAT || type == SPARE_MSG_EVICT ||
	      type == SPARE_MSG_ACTIVITY_QUERY);
	check(nout < SPARED_SEND_DEPTH);
	outstanding[nout++] = wr->wr_id;
	last_sent = *m;
	sent_any = true;
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	check(wr->num_sge == 1 && wr->sg_list->length == SPARE_MSG_SIZE);
	return 0;
}

/* ---- the donor and its one session ---- */

static const struct spare_grant_key grant_key = {
	.id = 7, .key = "fuzz-grant-key-0123456789abcdef",
};
static struct spare_host_key host_key = {
	.name = "fuzzclient", .key = "fuzz-host-key-0123456789abcdef!",
	.roles = SPARE_ROLE_CLIENT,
};
static const uint8_t client_uuid[16] = { 0x5b, 0x1e, 0x5e, 0xd0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
#define FUZZ_SLAB_SHIFT	20

static struct spared d;
static struct ibv_context fake_ctx;
static struct ibv_qp fake_qp;
static struct rdma_cm_id fake_id;
static struct ibv_mr fake_bufs_mr;
static struct ibv_pd fake_pd;

/* spared's loop (loop.c) is not linked: nothing is watched or armed here. */
int spared_epoll_add(struct spared *dd, struct ev_source *src)
{
	return 0;
}

void spared_epoll_del(struct spared *dd, struct ev_source *src)
{
}

void spared_timer_set(struct spared *dd, uint64_t next_ms)
{
}

static struct session *session_new(unsigned int depth)
{
	struct session *s = calloc(1, sizeof(*s));

	check(s != NULL);
	s->bufs = calloc(SPARED_RECV_DEPTH + SPARED_SEND_DEPTH, sizeof(*s->bufs));
	check(s->bufs != NULL);
	s->d = &d;
	snprintf(s->name, sizeof(s->name), "10.0.0.9#1");
	snprintf(s->host, sizeof(s->host), "10.0.0.9");
	memcpy(s->uuid, client_uuid, sizeof(s->uuid));
	s->cookie = 0x1234;
	s->ctrl.kind = SPARE_CONN_CONTROL;
	s->ctrl.sess = s;
	s->ctrl.id = &fake_id;
	s->ctrl.established = true;
	s->pd = &fake_pd;
	s->bufs_mr = &fake_bufs_mr;
	for (unsigned int i = 0; i < SPARED_SEND_DEPTH; i++)
		s->send_free[i] = i;
	s->nsend_free = SPARED_SEND_DEPTH;
	s->send_limit = depth;
	d.sessions = s;
	d.nsessions = 1;
	return s;
}

/* Receive @m (@len bytes) in receive slot @slot, as a completion would. */
static void receive(struct session *s, const struct spare_msg *m, uint32_t len, unsigned int slot)
{
	struct ibv_wc wc = {
		.wr_id = slot, .status = IBV_WC_SUCCESS, .opcode = IBV_WC_RECV,
		.byte_len = len, .qp_num = fake_qp.qp_num,
	};

	memcpy(recv_buf(s, slot), m, sizeof(*m));
	handle_wc(s, &wc);
}

static void complete_send(struct session *s)
{
	struct ibv_wc wc = { .status = IBV_WC_SUCCESS, .opcode = IBV_WC_SEND,
			     .qp_num = fake_qp.qp_num };

	if (!nout)
		return;
	wc.wr_id = outstanding[0];
	memmove(outstanding, outstanding + 1, --nout * sizeof(outstanding[0]));
	handle_wc(s, &wc);
}

/* The harness's HELLO, and the proof if the donor challenges. */
static void handshake(struct session *s, unsigned int *slot)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO, 1);
	memcpy(m.hello.client_uuid, client_uuid, sizeof(client_uuid));
	m.hello.slab_shift = FUZZ_SLAB_SHIFT;
	if (d.keys.n) {
		m.hello.flags = SPARE_HELLO_F_AUTH;
		memset(m.hello.nonce, 0x42, sizeof(m.hello.nonce));
	}
	sent_any = false;
	receive(s, &m, SPARE_MSG_SIZE, (*slot)++ % SPARED_RECV_DEPTH);
	if (!d.keys.n || !sent_any || le16toh(last_sent.hdr.type) != SPARE_MSG_AUTH_CHALLENGE)
		return;
	spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, 2);
	spare_auth_mac(m.auth_response.mac, host_key.key, SPARE_AUTH_DIR_CLIENT, client_uuid,
		       d.donor_id, s->nonce_c, last_sent.auth_challenge.nonce);
	receive(s, &m, SPARE_MSG_SIZE, (*slot)++ % SPARED_RECV_DEPTH);
	check(s->auth == AUTH_DONE && s->hello_done);
}

/* A valid grant for 4 slabs, sent in its parts. */
static void send_grant(struct session *s, unsigned int *slot)
{
	struct spare_grant_info gi;
	struct spare_grant g;
	struct spare_msg m;
	uint64_t now = wall_seconds();

	memset(&gi, 0, sizeof(gi));
	memset(gi.id, 0x77, sizeof(gi.id));
	snprintf(gi.client_id, sizeof(gi.client_id), "fuzzclient");
	snprintf(gi.donor_id, sizeof(gi.donor_id), "fuzzdonor");
	snprintf(gi.donor_addr, sizeof(gi.donor_addr), "10.0.0.1:18515");
	gi.slabs = 4;
	gi.key_id = grant_key.id;
	gi.not_before = now - 10;
	gi.expiry = now + 3600;
	check(!spare_grant_issue(&gi, &grant_key, &g));
	for (unsigned int p = 0; p < SPARE_GRANT_PARTS; p++) {
		spare_grant_part_init(&m, &g, p, 10 + p);
		receive(s, &m, SPARE_MSG_SIZE, (*slot)++ % SPARED_RECV_DEPTH);
	}
}

static bool lapsed;	/* 0xf4 let every grant lapse */

/* The pool's counts, and what the session holds. */
static void check_state(const struct session *s)
{
	unsigned int nfree = 0, nevict = 0, noff = 0, held = 0;

	for (unsigned int i = 0; i < d.pool.nslabs; i++) {
		const struct slab *sl = &d.pool.slabs[i];

		nfree += sl->state == SLAB_FREE;
		nevict += sl->state == SLAB_EVICTING;
		noff += sl->state == SLAB_OFFLINE;
		if (sl->state == SLAB_FREE) {
			check(!sl->owner && !sl->mr);
			continue;
		}
		if (sl->owner != s)
			continue;
		held++;
		check(sl->mr != NULL && sl->mem != NULL);
		for (unsigned int j = i + 1; j < d.pool.nslabs; j++)
			check(d.pool.slabs[j].state == SLAB_FREE || d.pool.slabs[j].owner != s ||
			      d.pool.slabs[j].client_id != sl->client_id);
	}
	check(nfree == d.pool.nfree && nevict == d.pool.nevicting && noff == d.pool.noffline);
	if (d.grants_on && s->owner[0] && !lapsed)
		check(held <= spared_grant_budget(&d.grants, s->owner, wall_seconds()));
	check(s->backlog_len <= SPARED_BACKLOG);
	check(SPARED_SEND_DEPTH - s->nsend_free <= s->send_limit);
}

/* The backstop looks now: the grants cover every slab, so nothing changes. */
static void backstop_now(const struct session *s)
{
	unsigned int lent = 0, after = 0;

	for (unsigned int i = 0; i < d.pool.nslabs; i++)
		lent += d.pool.slabs[i].owner == s && d.pool.slabs[i].state == SLAB_LENT;
	if (lapsed)
		return;
	spared_backstop_look(&d, wall_seconds(), spare_now_ms());
	for (unsigned int i = 0; i < d.pool.nslabs; i++) {
		const struct slab *sl = &d.pool.slabs[i];

		after += sl->owner == s && sl->state == SLAB_LENT;
		check(!sl->uncovered_ms);
	}
	check(after == lent);
}

/* Every grant long lapsed: a look stamps, one a grace later asks back every
 * slab the session holds (none is held for a resume here). */
static void backstop_lapsed(const struct session *s)
{
	uint64_t far_s = wall_seconds() + 100000, far_ms = spare_now_ms() + 100000000;

	lapsed = true;
	spared_backstop_look(&d, far_s, far_ms);
	spared_backstop_look(&d, far_s, far_ms + (uint64_t)d.cfg.grant_grace_s * 1000);
	for (unsigned int i = 0; i < d.pool.nslabs; i++) {
		const struct slab *sl = &d.pool.slabs[i];

		check(sl->owner != s || sl->state != SLAB_LENT || sl->kept || s->dead);
	}
}

static void teardown(struct session *s)
{
	for (unsigned int i = 0; i < d.pool.nslabs; i++)
		if (d.pool.slabs[i].state != SLAB_FREE && d.pool.slabs[i].owner == s)
			slab_release(&d, &d.pool.slabs[i], SLAB_RELEASE_RECLAIM);
	for (unsigned int i = 0; i < d.pool.nslabs; i++)
		if (d.pool.slabs[i].mem)
			slab_mem_free(d.pool.slabs[i].mem, d.pool.slabs[i].memfd,
				      d.pool.slab_size);
	slab_pool_destroy(&d.pool);
	if (d.grants_on) {
		spared_grants_free(&d.grants);
		spared_backstop_free(&d.backstop);
	}
	free(s->bufs);
	free(s);
	d.sessions = NULL;
	d.nsessions = 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	spare_log_set_level(SPARE_LOG_ERR);	/* every refusal logs a line */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int slot = 0, records = 0;
	bool patch_next = false;
	struct session *s;
	size_t off = 1;

	if (!size)
		return 0;
	memset(&d, 0, sizeof(d));
	d.epfd = -1;
	d.cfg.slab_shift = FUZZ_SLAB_SHIFT;
	d.cfg.resume_hold_s = 0;
	snprintf((char *)d.donor_id, sizeof(d.donor_id), "fuzzdonor");
	check(!slab_pool_init(&d.pool, 8u << FUZZ_SLAB_SHIFT, 1u << FUZZ_SLAB_SHIFT));
	if (data[0] & 1) {
		d.keys.v = &host_key;
		d.keys.n = 1;
	}
	if (data[0] & 2) {
		check(!spared_grants_init(&d.grants, &grant_key, "fuzzdonor", 64));
		check(!spared_backstop_init(&d.backstop, d.pool.nslabs));
		d.grants_on = true;
		d.cfg.grant_grace_s = 4;
	}
	d.timer_src.fd = -1;
	lapsed = false;
	fake_ctx.ops.post_send = fake_post_send;
	fake_ctx.ops.post_recv = fake_post_recv;
	fake_qp.context = &fake_ctx;
	fake_qp.qp_num = 17;
	fake_id.qp = &fake_qp;
	nout = 0;
	s = session_new(1 + ((data[0] >> 4) % 16));

	if (data[0] & 4)
		handshake(s, &slot);
	if ((data[0] & 8) && s->hello_done)
		send_grant(s, &slot);
	check_state(s);
	while (off < size && records++ < 512 && !s->dead) {
		uint8_t b = data[off++];

		if (b < 0xf0) {
			struct spare_msg m;
			uint32_t len = b % (SPARE_MSG_SIZE + 1);
			size_t take = size - off < len ? size - off : len;

			memset(&m, 0, sizeof(m));
			memcpy(&m, data + off, take);
			off += take;
			if (patch_next) {
				memcpy(m.hello.client_uuid, client_uuid, sizeof(client_uuid));
				m.hello.slab_shift = FUZZ_SLAB_SHIFT;
				patch_next = false;
			}
			receive(s, &m, len, slot++ % SPARED_RECV_DEPTH);
		} else if (b == 0xf0) {
			complete_send(s);
		} else if (b == 0xf1) {
			struct ibv_wc wc = { .wr_id = slot++ % SPARED_RECV_DEPTH,
					     .status = IBV_WC_LOC_LEN_ERR, .qp_num = fake_qp.qp_num };

			handle_wc(s, &wc);
		} else if (b == 0xf2) {
			patch_next = true;
		} else if (b == 0xf3 && d.grants_on) {
			backstop_now(s);
		} else if (b == 0xf4 && d.grants_on) {
			backstop_lapsed(s);
		}
		check_state(s);
	}
	teardown(s);
	return 0;
}
