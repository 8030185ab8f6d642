// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: moving a job to another instance (aggd_migrate.h), the
 * source's side (MIGRATE from an admin, the link to the target, draining to
 * a barrier, sending the state, redirecting the workers) and the target's
 * (IMPORT, IMPORT_STATE, IMPORT_COMMIT).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <sodium.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggd_jobs.h"
#include "aggd_migrate.h"
#include "aggd_report.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "agg_rdma.h"
#include "agg_state_rdma.h"
#include "spare_log.h"
#include "spare_util.h"

static void mig_fail(struct migration *m, unsigned int status,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void mig_check(struct migration *m);

/*
 * Both daemons' addresses on the link, as each end sees them: the source's
 * IPv4 address and port, then the target's (4 + 2 bytes each, network
 * order). Bound into the proofs, they make a proof relayed through a third
 * party's own connections fail: the relay's connections have other ends.
 */
#define PEER_IDS_LEN	12

static int peer_ids(int fd, bool source, uint8_t ids[PEER_IDS_LEN])
{
	struct sockaddr_in here, there;
	socklen_t hl = sizeof(here), tl = sizeof(there);
	const struct sockaddr_in *src, *dst;

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&here, &hl) ||
	    getpeername(fd, (struct sockaddr *)&there, &tl) ||
	    here.sin_family != AF_INET || there.sin_family != AF_INET)
		return -1;
	src = source ? &here : &there;
	dst = source ? &there : &here;
	memcpy(ids, &src->sin_addr, 4);
	memcpy(ids + 4, &src->sin_port, 2);
	memcpy(ids + 6, &dst->sin_addr, 4);
	memcpy(ids + 10, &dst->sin_port, 2);
	return 0;
}

/* HMAC-SHA-256(key, label | a | b | ids) over the two 32-byte nonces. */
static void peer_mac(const char *label, const uint8_t *a, const uint8_t *b,
		     const uint8_t ids[PEER_IDS_LEN], uint8_t out[AGG_PEER_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, g.peer_key, g.peer_key_len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label, strlen(label));
	crypto_auth_hmacsha256_update(&st, a, AGG_PEER_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, b, AGG_PEER_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, ids, PEER_IDS_LEN);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

/* "2": the proofs bind the link's addresses (a daemon before it fails them) */
/* 3: IMPORT carries the job's tenant (a daemon of version 2 fails the proof) */
#define PEER_LABEL_TARGET	"spare-aggd target 3"
#define PEER_LABEL_SOURCE	"spare-aggd source 3"

/* Whether @ip (network order) is one of --peers. */
static bool peer_configured(uint32_t ip)
{
	for (unsigned int i = 0; i < g.n_peers; i++)
		if (g.peers[i] == ip)
			return true;
	return false;
}

/* The rdma_cm connect and route waits of a state transfer (then TCP). */
#define STATE_CONNECT_MS	2000

/*
 * The capabilities this daemon offers a target (IMPORT's hdr.rank), and,
 * when it offers none, why its moves' state goes over the TCP link.
 */
static uint32_t mig_caps_offer(const struct agg_job *job, const char **tcp_why)
{
	uint8_t addr[4];
	uint32_t port;

	*tcp_why = NULL;
	if (!g.rdma) {
		*tcp_why = "this daemon runs without --rdma";
		return 0;
	}
	if (job->spec.opt == AGG_OPT_NONE) {
		*tcp_why = "the job has no server optimizer, so no state to move";
		return 0;
	}
	agg_rdma_addr(g.rdma, addr, &port);
	if (!agg_rdma_verbs(g.rdma) || !memcmp(addr, (uint8_t[4]){ 0 }, 4)) {
		*tcp_why = "this daemon's --rdma address is not one device's";
		return 0;
	}
	return AGG_PEER_CAP_RDMA_STATE;
}

/* Each partition's weights, then its momentum: the state, in wire order. */
static struct state_local *state_bufs(const struct agg_job *job)
{
	struct state_local *b = calloc((size_t)job->spec.n_parts * 2, sizeof(*b));

	for (uint32_t i = 0; b && i < job->spec.n_parts; i++) {
		const struct agg_part *p = &job->parts[i];

		b[2 * i] = (struct state_local){ p->out, (uint32_t)(p->nelem * sizeof(float)) };
		b[2 * i + 1] = (struct state_local){ p->momentum,
						     (uint32_t)(p->nelem * sizeof(float)) };
	}
	return b;
}

/* Answer the admin who asked for the migration (if still connected). */
static void mig_reply(struct migration *m, unsigned int status, const char *text)
{
	struct conn *a = m->admin;
	size_t n = strnlen(text, AGG_MAX_ERR_TEXT);
	struct agg_hdr h;
	char *copy;

	if (!a)
		return;
	m->admin = NULL;
	a->mig_admin = NULL;
	if (a->closing)
		return;
	if (status != AGG_OK) {
		send_error(a, status, 0, 0, "%s", text);
		return;
	}
	copy = malloc(n ? n : 1);
	if (!copy) {
		conn_close(a, "out of memory");
		return;
	}
	memcpy(copy, text, n);
	memset(&h, 0, sizeof(h));
	h.job_id = m->job ? m->job->id : 0;
	h.iter = m->job ? m->job->mig_barrier : 0;
	queue_plain(a, AGG_MSG_MIGRATE_REPLY, &h, copy, n, copy);
}

/* Transfers under way (m->xfer set), linked by xfer_next. */
static struct migration *xfers;

/* Forget the migration: its link is gone and no transfer reads the job. */
static void mig_free(struct migration *m)
{
	struct agg_job *job = m->job;

	if (m->admin)
		m->admin->mig_admin = NULL;
	free(m->dst.bufs);
	if (job) {
		struct job_entry *e = job_entry_of(job);

		job->mig = NULL;
		job->migrating = false;
		if (e)
			job_maybe_free(e);
	}
	free(m);
}

/* The migration's link connection is gone: forget the migration, once its
 * transfer (if one runs) has stopped (mig_state_sent). */
void mig_link_gone(struct migration *m)
{
	if (m->state != MIG_DONE)
		mig_fail(m, AGG_EPROTO, "connection to the target lost");
	m->link = NULL;
	if (!m->xfer)
		mig_free(m);
}

/*
 * Roll back a failed move: the source never let go of the job's state
 * (weights, optimizer state, the partitions at the barrier), so it simply
 * goes on. The requests held since the barrier are served now, in the
 * order they came, and every result is what it would have been without
 * the attempt.
 */
static void mig_rollback(struct agg_job *job, bool drained)
{
	struct conn *held[AGG_MAX_WORKERS];
	unsigned int n = 0;

	job->migrating = false;
	if (!drained)
		return;
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (c && c->held)
			held[n++] = c;
	}
	for (unsigned int i = 0; i < n; i++)
		conn_release(held[i]);
}

/*
 * The move failed. Before the barrier the job has not noticed and goes on
 * here; after it, workers wait at the barrier with their requests dropped,
 * and the job fails (there is no way back yet).
 */
static void mig_fail(struct migration *m, unsigned int status,
		     const char *fmt, ...)
{
	struct agg_job *job = m->job;
	char why[160], text[2 * AGG_MAX_ERR_TEXT], tail[80];
	bool drained, xfer;
	va_list ap;

	if (m->state == MIG_DONE)
		return;
	drained = m->state >= MIG_DRAIN;
	m->state = MIG_DONE;
	g.moves_failed++;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (job && !job->failed && drained)
		snprintf(tail, sizeof(tail),
			 "; rolled back: the job goes on here from iteration %u",
			 job->mig_barrier);
	else if (job && !job->failed)
		snprintf(tail, sizeof(tail), "; the job goes on here");
	else
		tail[0] = '\0';
	snprintf(text, sizeof(text), "moving job '%s' to %s:%u failed: %s%s",
		 job ? job->spec.name : "?", m->to.host, m->to.port, why, tail);
	log_warn("%s", text);
	mig_reply(m, status, text);
	/* the thread still reads the buffers: the job stays held until it
	 * has stopped (mig_state_sent rolls back), and so does @m */
	xfer = m->xfer != NULL;
	if (xfer)
		state_sender_cancel(m->xfer);
	/* without a transfer, @m may be freed here (mig_link_gone) */
	if (m->link)
		conn_close(m->link, NULL);
	if (job && !xfer)
		mig_rollback(job, drained);
}

/* The state is at the target, or goes over the link now: commit. */
static void mig_commit(struct migration *m)
{
	struct agg_job *job = m->job;
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	if (job->spec.opt != AGG_OPT_NONE && strcmp(m->state_via, "RDMA")) {
		/* zero copy: the job is quiescent until the link is gone */
		for (uint32_t i = 0; i < job->spec.n_parts; i++) {
			struct agg_part *p = &job->parts[i];

			h.part = i;
			h.rank = AGG_STATE_WEIGHTS;
			queue_plain(m->link, AGG_MSG_IMPORT_STATE, &h, p->out,
				    p->bytes, NULL);
			h.rank = AGG_STATE_MOMENTUM;
			queue_plain(m->link, AGG_MSG_IMPORT_STATE, &h, p->momentum,
				    (size_t)p->nelem * sizeof(float), NULL);
		}
	}
	h.part = 0;
	h.rank = 0;
	h.iter = job->mig_barrier;
	/* ranks that left meanwhile: the target must not wait for them */
	queue_plain(m->link, AGG_MSG_IMPORT_COMMIT, &h, job->rank_left,
		    job->spec.n_workers, NULL);
	m->state = MIG_COMMIT;
	log_info("job %u '%s': quiescent at iteration %u; state sent to %s:%u over %s",
	       job->id, job->spec.name, job->mig_barrier, m->to.host, m->to.port,
	       m->state_via);
}

/*
 * Start the RDMA WRITEs on a thread of their own (mig_state_sent goes on
 * when they end); -1 with the reason logged when it cannot start (then
 * the state goes over TCP).
 */
static int mig_send_start(struct migration *m)
{
	struct agg_job *job = m->job;
	struct state_local *bufs = state_bufs(job);
	struct sockaddr_in src = { .sin_family = AF_INET };
	char why[160] = "out of memory";
	struct io_uring_sqe *sqe;
	uint32_t port;

	agg_rdma_addr(g.rdma, (uint8_t *)&src.sin_addr, &port);
	if (bufs)
		m->xfer = state_send_start(&src, &m->dst, m->target_job, bufs,
					   job->spec.n_parts * 2,
					   STATE_CONNECT_MS, why, sizeof(why));
	free(bufs);
	if (!m->xfer) {
		log_warn("job %u '%s': its state goes to %s:%u over TCP after all: %s",
			 job->id, job->spec.name, m->to.host, m->to.port, why);
		return -1;
	}
	m->xfer_op.kind = OP_STATE_SENT;
	sqe = get_sqe();
	io_uring_prep_read(sqe, state_sender_fd(m->xfer), &m->xfer_buf,
			   sizeof(m->xfer_buf), 0);
	io_uring_sqe_set_data(sqe, &m->xfer_op);
	m->xfer_next = xfers;
	xfers = m;
	return 0;
}

/* Every partition is at the barrier: send the state, then commit. */
static void mig_check(struct migration *m)
{
	struct agg_job *job = m ? m->job : NULL;

	if (!job || m->state != MIG_DRAIN || m->xfer ||
	    job->mig_ready < job->spec.n_parts)
		return;
	m->state_via = "TCP";
	if (m->rdma && !mig_send_start(m))
		return;
	mig_commit(m);
}

/* Take @m off the list of transfers; the transfer's result. */
static enum state_send_result mig_send_finish(struct migration *m, char *why,
					      size_t why_len)
{
	for (struct migration **pp = &xfers; *pp; pp = &(*pp)->xfer_next)
		if (*pp == m) {
			*pp = m->xfer_next;
			break;
		}
	return state_sender_finish(m->xfer, why, why_len);
}

void mig_state_sent(struct op *op)
{
	struct migration *m = (struct migration *)((char *)op -
				offsetof(struct migration, xfer_op));
	struct agg_job *job = m->job;
	enum state_send_result r;
	char why[160];

	r = mig_send_finish(m, why, sizeof(why));
	m->xfer = NULL;
	if (m->state != MIG_DRAIN) {
		/* the move failed while the WRITEs ran (mig_fail) */
		if (job)
			mig_rollback(job, true);
		if (!m->link)
			mig_free(m);
		return;
	}
	if (r == STATE_BROKEN) {
		mig_fail(m, AGG_EPROTO, "the RDMA state transfer failed after its first WRITE: %s",
			 why);
		return;
	}
	if (r == STATE_SENT)
		m->state_via = "RDMA";
	else
		log_warn("job %u '%s': its state goes to %s:%u over TCP after all: %s",
			 job->id, job->spec.name, m->to.host, m->to.port, why);
	mig_commit(m);
}

void mig_stop_transfers(void)
{
	while (xfers) {
		struct migration *m = xfers;
		char why[160];

		state_sender_cancel(m->xfer);
		mig_send_finish(m, why, sizeof(why));
		m->xfer = NULL;
		if (!m->link)
			mig_free(m);
	}
}

/* The target accepted the job: start holding back the barrier. */
static void mig_drain(struct migration *m)
{
	struct agg_job *job = m->job;

	job->mig_barrier = agg_job_barrier(job);
	/* a push whose header was accepted and whose payload is still coming
	 * in is work of its iteration too (TCP; RDMA has it whole) */
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (c && c->rx == RX_BODY && c->hdr.type == AGG_MSG_PUSH &&
		    !c->sinking && c->hdr.iter >= job->mig_barrier)
			job->mig_barrier = c->hdr.iter + 1;
	}
	job->mig_ready = 0;
	for (uint32_t i = 0; i < job->spec.n_parts; i++)
		if (agg_part_at_barrier(&job->parts[i], job->spec.n_workers,
					job->mig_barrier))
			job->mig_ready++;
	job->migrating = true;
	m->barrier_ns = g.now_ns;
	m->state = MIG_DRAIN;
	log_info("job %u '%s': moving to %s:%u at iteration %u (%u of %u partitions there)",
	       job->id, job->spec.name, m->to.host, m->to.port,
	       job->mig_barrier, job->mig_ready, job->spec.n_parts);
	mig_check(m);
}

/* The target committed: send every worker there and let the job go. */
static void mig_done(struct migration *m)
{
	struct agg_job *job = m->job;
	struct job_entry *e = job_entry_of(job);
	char text[2 * AGG_MAX_ERR_TEXT];
	double ms = (double)(g.now_ns - m->start_ns) / 1e6;
	/* the workers' pause here: held at the barrier until B committed */
	double pause_ms = (double)(g.now_ns - m->barrier_ns) / 1e6;
	struct conn *held[AGG_MAX_WORKERS];
	unsigned int n_held = 0;

	snprintf(text, sizeof(text), "job '%s' moved to %s:%u at iteration %u",
		 job->spec.name, m->to.host, m->to.port, job->mig_barrier);
	log_info("job %u '%s' moved to %s:%u at iteration %u in %.1f ms (%.1f ms from the barrier to the target's commit, state over %s); redirecting %u workers",
		 job->id, job->spec.name, m->to.host, m->to.port,
		 job->mig_barrier, ms, pause_ms, m->state_via, job->n_attached);
	mig_reply(m, AGG_OK, text);
	m->state = MIG_DONE;
	g.jobs_moved_out++;
	if (job_entry_of(job))
		moved_add(job_entry_of(job), &m->to, job->mig_barrier);
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (!c)
			continue;
		/* detached: its later pushes are dropped, the rank may go */
		job->rank_conn[r] = NULL;
		job->n_attached--;
		c->job = NULL;
		c->redirected = true;
		if (!c->closing)
			send_redirect(c, &m->to, job->mig_barrier);
		held[n_held++] = c;
	}
	/* what they sent since the barrier is repeated at the target: the
	 * held requests go through the redirected path (dropped) */
	for (unsigned int i = 0; i < n_held; i++)
		conn_release(held[i]);
	job->migrating = false;
	if (e) {
		e->dead = true;		/* freed once the link is gone */
		report_jobs_changed();
		agg_pool_remove_job(g.pool, job->id);
	}
	conn_close(m->link, NULL);
}

void handle_migrate(struct conn *c)
{
	struct agg_migrate_req req;
	struct job_entry *e;
	struct migration *m;
	char peer[AGG_HOST_LEN + 16];
	struct conn *l;
	struct io_uring_sqe *sqe;
	int ret, fd;

	ret = agg_migrate_decode(c->body, c->hdr.len, &req);
	free(c->body);
	c->body = NULL;
	rx_expect_hdr(c);
	if (ret) {
		send_error(c, (unsigned int)-ret, 0, 0, "MIGRATE: %s",
			   agg_status_str((unsigned int)-ret));
		return;
	}
	e = job_find_authed(c->tenant, req.name, req.token);
	if (!e) {
		char what[AGG_NAME_LEN + 64];

		snprintf(what, sizeof(what), "MIGRATE: " AGGD_NO_JOB_TOKEN, req.name);
		fail_conn(c, AGG_EAUTH, what);
		return;
	}
	if (c->job || c->mig_admin || e->job->failed || e->job->mig ||
	    e->job->importing || e->job->creating) {
		send_error(c, AGG_ESTATE, 0, 0,
			   "MIGRATE: job '%s' is failed, being created, moving or arriving, or this connection is busy",
			   req.name);
		return;
	}
	if (!g.peer_key_len) {
		send_error(c, AGG_ESTATE, 0, 0,
			   "MIGRATE: this daemon has no --peer-key-file to prove itself to the target");
		return;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		send_error(c, AGG_ENOMEM, 0, 0, "MIGRATE: out of memory");
		return;
	}
	m->to = req.to;
	m->addr.sin_family = AF_INET;
	m->addr.sin_port = htons(req.to.port);
	if (inet_pton(AF_INET, req.to.host, &m->addr.sin_addr) != 1) {
		free(m);
		send_error(c, AGG_EINVAL, 0, 0,
			   "MIGRATE: the target must be a numeric IPv4 address, not '%s'",
			   req.to.host);
		return;
	}
	if (!peer_configured(m->addr.sin_addr.s_addr)) {
		free(m);
		log_warn("conn %u (%s): MIGRATE of job '%s' to %s refused: not one of --peers",
			 c->id, c->peer, req.name, req.to.host);
		send_error(c, AGG_EAUTH, 0, 0,
			   "MIGRATE: %s is not one of this daemon's --peers", req.to.host);
		return;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		free(m);
		send_error(c, AGG_ENOMEM, 0, 0, "MIGRATE: socket: %s", strerror(errno));
		return;
	}
	/* the link: an ordinary connection of this loop, without a job */
	snprintf(peer, sizeof(peer), "%s:%u", req.to.host, req.to.port);
	l = conn_open(fd, peer);
	if (!l) {
		close(fd);
		free(m);
		send_error(c, AGG_ENOMEM, 0, 0, "MIGRATE: out of memory");
		return;
	}
	l->mig_link = m;
	m->job = e->job;
	m->link = l;
	m->admin = c;
	m->start_ns = g.now_ns;
	m->state = MIG_CONNECT;
	c->mig_admin = m;
	e->job->mig = m;
	log_info("job %u '%s': asked by conn %u (%s) to move to %s:%u",
	       e->job->id, e->job->spec.name, c->id, c->peer, req.to.host,
	       req.to.port);
	sqe = get_sqe();
	io_uring_prep_connect(sqe, fd, (struct sockaddr *)&m->addr, sizeof(m->addr));
	io_uring_sqe_set_data(sqe, &l->connect_op);
	l->tx_busy = true;	/* until the connect completes */
}

void on_connect(struct conn *l, int res)
{
	struct migration *m = l->mig_link;
	struct agg_job *job = m->job;
	struct agg_hdr h;
	uint8_t *body;
	int one = 1;

	l->tx_busy = false;
	if (l->closing) {
		conn_maybe_destroy(l);
		return;
	}
	if (res < 0) {
		mig_fail(m, AGG_EINVAL, "connect: %s", strerror(-res));
		return;
	}
	if (!job || m->state != MIG_CONNECT)
		return;
	setsockopt(l->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* first the target proves it holds the shared key (link_body) */
	body = malloc(AGG_PEER_HELLO_SIZE);
	if (!body) {
		mig_fail(m, AGG_ENOMEM, "out of memory");
		return;
	}
	randombytes_buf(m->nonce, sizeof(m->nonce));
	memcpy(body, m->nonce, AGG_PEER_HELLO_SIZE);
	memset(&h, 0, sizeof(h));
	queue_plain(l, AGG_MSG_PEER_HELLO, &h, body, AGG_PEER_HELLO_SIZE, body);
	m->state = MIG_AUTH;
	rx_expect_hdr(l);
}

/* The target proved the key: prove ours, then send the job. */
static void mig_import(struct migration *m, const uint8_t *nonce_t)
{
	struct agg_job *job = m->job;
	struct conn *l = m->link;
	struct agg_job_spec spec;
	struct agg_hdr h;
	uint8_t *body;
	size_t len;

	uint8_t ids[PEER_IDS_LEN];

	if (peer_ids(l->fd, true, ids)) {
		mig_fail(m, AGG_EPROTO, "the link's addresses: %s", strerror(errno));
		return;
	}
	body = malloc(AGG_PEER_PROOF_SIZE);
	if (!body) {
		mig_fail(m, AGG_ENOMEM, "out of memory");
		return;
	}
	peer_mac(PEER_LABEL_SOURCE, nonce_t, m->nonce, ids, body);
	memset(&h, 0, sizeof(h));
	queue_plain(l, AGG_MSG_PEER_PROOF, &h, body, AGG_PEER_PROOF_SIZE, body);
	spec = job->spec;
	spec.rank = 0;		/* nobody registers with an IMPORT */
	len = AGG_IMPORT_TENANT_LEN + agg_register_size(spec.n_tensors);
	body = malloc(len);
	if (!body || !job_entry_of(job) ||
	    agg_register_encode(&spec, body + AGG_IMPORT_TENANT_LEN,
				len - AGG_IMPORT_TENANT_LEN) != (int)(len - AGG_IMPORT_TENANT_LEN)) {
		free(body);
		mig_fail(m, AGG_ENOMEM, "cannot encode the job");
		return;
	}
	agg_name_encode(body, job_entry_of(job)->tenant);
	/* the capabilities cross only now, after both proofs */
	m->caps_offered = mig_caps_offer(job, &m->tcp_why);
	h.rank = m->caps_offered;
	queue_plain(l, AGG_MSG_IMPORT, &h, body, len, body);
	m->state = MIG_IMPORT;
}

/* A message from the target on the link. */
void link_hdr(struct conn *l)
{
	struct migration *m = l->mig_link;
	struct agg_hdr *h = &l->hdr;

	if (h->type == AGG_MSG_ERROR ||
	    (h->type == AGG_MSG_PEER_CHALLENGE && m->state == MIG_AUTH)) {
		l->body = malloc((size_t)h->len + 1);
		if (!l->body) {
			mig_fail(m, AGG_ENOMEM, "out of memory");
			return;
		}
		rx_expect_body(l, l->body, h->len);
		return;
	}
	if (h->type != AGG_MSG_IMPORT_REPLY) {
		mig_fail(m, AGG_EPROTO, "unexpected %s from the target",
			 agg_msg_type_name(h->type));
		return;
	}
	if (m->state == MIG_IMPORT && m->job &&
	    agg_peer_caps_check(m->caps_offered, h->rank)) {
		mig_fail(m, AGG_EPROTO,
			 "the target took capabilities 0x%x this daemon did not offer (0x%x)",
			 h->rank, m->caps_offered);
		return;
	}
	/* where to WRITE the state comes with RDMA_STATE taken, only then */
	if ((h->len != 0) != (m->state == MIG_IMPORT && m->job &&
			      (h->rank & AGG_PEER_CAP_RDMA_STATE))) {
		mig_fail(m, AGG_EPROTO, "an IMPORT_REPLY of %u payload bytes with capabilities 0x%x",
			 h->len, h->rank);
		return;
	}
	if (h->len) {
		l->body = malloc(h->len);
		if (!l->body) {
			mig_fail(m, AGG_ENOMEM, "out of memory");
			return;
		}
		rx_expect_body(l, l->body, h->len);
		return;
	}
	rx_expect_hdr(l);
	if (m->state == MIG_IMPORT && m->job) {
		log_info("job %u '%s': its state goes to %s:%u over TCP: %s",
			 m->job->id, m->job->spec.name, m->to.host, m->to.port,
			 m->caps_offered ? "the target does not take RDMA" : m->tcp_why);
		mig_drain(m);
	} else if (m->state == MIG_COMMIT && m->job && h->iter == m->job->mig_barrier)
		mig_done(m);
	else if (m->state != MIG_DONE)
		mig_fail(m, AGG_EPROTO, "unexpected IMPORT_REPLY from the target");
}
/* ---- receiving a job from another instance (target side) ---- */

/* PEER_HELLO (body in c->body): answer with our nonce and proof. */
void handle_peer_hello(struct conn *c)
{
	uint8_t ids[PEER_IDS_LEN];
	uint8_t *reply;
	struct agg_hdr h;

	if (!g.peer_key_len || c->job || c->import_job || c->peer_authed) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, g.peer_key_len ? AGG_ESTATE : AGG_EAUTH,
			  g.peer_key_len ? "PEER_HELLO" :
			  "PEER_HELLO (this daemon has no --peer-key-file)");
		return;
	}
	if (peer_ids(c->fd, false, ids)) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, AGG_EPROTO, "PEER_HELLO (moves come over TCP/IPv4 only)");
		return;
	}
	reply = malloc(AGG_PEER_CHALLENGE_SIZE);
	if (!reply) {
		free(c->body);
		c->body = NULL;
		conn_close(c, "out of memory");
		return;
	}
	randombytes_buf(c->peer_nonce, sizeof(c->peer_nonce));
	memcpy(reply, c->peer_nonce, AGG_PEER_NONCE_LEN);
	peer_mac(PEER_LABEL_TARGET, c->body, c->peer_nonce, ids,
		 reply + AGG_PEER_NONCE_LEN);
	memcpy(c->peer_hello, c->body, sizeof(c->peer_hello));
	c->peer_challenged = true;
	free(c->body);
	c->body = NULL;
	memset(&h, 0, sizeof(h));
	queue_plain(c, AGG_MSG_PEER_CHALLENGE, &h, reply, AGG_PEER_CHALLENGE_SIZE,
		    reply);
	rx_expect_hdr(c);
}

/* PEER_PROOF (body in c->body): the source holds the key, or goes. */
void handle_peer_proof(struct conn *c)
{
	uint8_t want[AGG_PEER_MAC_LEN], ids[PEER_IDS_LEN];
	bool ok;

	if (!c->peer_challenged || c->peer_authed) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, AGG_ESTATE, "PEER_PROOF without a PEER_HELLO");
		return;
	}
	ok = !peer_ids(c->fd, false, ids);
	if (ok) {
		peer_mac(PEER_LABEL_SOURCE, c->peer_nonce, c->peer_hello, ids, want);
		ok = crypto_verify_32(want, c->body) == 0;
	}
	free(c->body);
	c->body = NULL;
	if (!ok) {
		fail_conn(c, AGG_EAUTH, "PEER_PROOF (not the daemons' shared key, or not made for this connection)");
		return;
	}
	c->peer_authed = true;
	log_info("conn %u (%s): authenticated as a spare-aggd peer", c->id,
		 c->peer);
	rx_expect_hdr(c);
}

/* Imports whose state may come by RDMA WRITE: their buffers' MRs. */
struct import_rdma {
	struct import_rdma *next;
	struct conn *c;
	uint32_t job_id;
	struct state_target *t;
};

static struct import_rdma *imports_rdma;

/* The import on @c is over (committed or abandoned): its rkeys die. */
static void import_rdma_drop(struct conn *c)
{
	for (struct import_rdma **pp = &imports_rdma; *pp; pp = &(*pp)->next) {
		struct import_rdma *ir = *pp;

		if (ir->c != c)
			continue;
		*pp = ir->next;
		state_target_free(ir->t);
		free(ir);
		return;
	}
}

int import_rdma_request(struct rdma_cm_id *id, uint32_t job_id,
			const uint8_t *token, const char *peer)
{
	for (struct import_rdma *ir = imports_rdma; ir; ir = ir->next) {
		if (ir->job_id != job_id)
			continue;
		if (!state_target_accept(ir->t, id, token)) {
			log_info("job %u: %s connected to write its state", job_id,
				 peer);
			return 0;
		}
		break;
	}
	/* the same words for an unknown job, a wrong token and a used one */
	g.refused_auth++;
	log_warn("%s: a state connection for job %u refused: no import of that job waits for one with that token",
		 peer, job_id);
	return -1;
}

/*
 * Registers the imported job's fresh buffers for the source's WRITEs and
 * fills the IMPORT_REPLY payload; 0, or -1 with @why (then over TCP).
 */
static int import_rdma_offer(struct conn *c, struct agg_job *job,
			     uint8_t **body, size_t *len, const char **why)
{
	struct state_local *bufs = state_bufs(job);
	uint32_t n = job->spec.n_parts * 2, port;
	struct agg_state_rdma r = { 0 };
	struct import_rdma *ir = calloc(1, sizeof(*ir));
	char err[160];
	uint8_t addr[4];

	*why = "out of memory";
	r.bufs = calloc(n, sizeof(*r.bufs));
	*len = agg_state_rdma_size(n);
	*body = malloc(*len);
	if (!bufs || !ir || !r.bufs || !*body)
		goto fail;
	agg_rdma_addr(g.rdma, addr, &port);
	ir->t = state_target_new(agg_rdma_verbs(g.rdma), bufs, n, err, sizeof(err));
	if (!ir->t) {
		log_warn("job %u '%s': cannot take its state over RDMA: %s",
			 job->id, job->spec.name, err);
		*why = "registering its buffers failed";
		goto fail;
	}
	state_target_describe(ir->t, addr, port, &r);
	agg_state_rdma_encode(&r, *body);
	ir->c = c;
	ir->job_id = job->id;
	ir->next = imports_rdma;
	imports_rdma = ir;
	free(r.bufs);
	free(bufs);
	return 0;
fail:
	free(*body);
	*body = NULL;
	*len = 0;	/* the IMPORT_REPLY goes without a payload */
	free(r.bufs);
	free(ir);
	free(bufs);
	return -1;
}

void import_abandoned(struct conn *c)
{
	struct agg_job *job = c->import_job;
	struct job_entry *e = job_entry_of(job);

	import_rdma_drop(c);
	c->import_job = NULL;
	if (!e || !job->importing || !g.pool)	/* no pool: exiting */
		return;
	log_info("job %u '%s': import abandoned by %s before its commit",
	       job->id, job->spec.name, c->peer);
	job_retire(e);
}

/* @caps: the capabilities taken (the answer to IMPORT), else 0; @body
 * (owned, @len bytes) where the state goes with RDMA_STATE taken */
static void import_reply(struct conn *c, uint32_t job_id, uint32_t iter,
			 uint32_t caps, uint8_t *body, size_t len)
{
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	h.job_id = job_id;
	h.iter = iter;
	h.rank = caps;
	queue_plain(c, AGG_MSG_IMPORT_REPLY, &h, body, len, body);
}

void handle_import(struct conn *c)
{
	char tenant[AGG_NAME_LEN + 1];
	struct agg_job_spec spec;
	struct job_entry *e;
	int ret;

	/* tenant[32], then the job's REGISTER payload */
	ret = agg_name_decode(c->body, tenant);
	if (!ret)
		ret = agg_register_decode(c->body + AGG_IMPORT_TENANT_LEN,
					  c->hdr.len - AGG_IMPORT_TENANT_LEN, &spec);
	free(c->body);
	c->body = NULL;
	if (ret) {
		fail_conn(c, (unsigned int)-ret, "IMPORT rejected");
		return;
	}
	if (job_find(tenant, spec.name)) {
		log_info("conn %u (%s): IMPORT of job '%s': a job of that name is here",
		       c->id, c->peer, spec.name);
		agg_spec_free(&spec);
		fail_conn(c, AGG_ESTATE, "IMPORT of a job whose name is in use");
		return;
	}
	e = job_new(c, tenant, &spec, "IMPORT");
	agg_spec_free(&spec);
	if (!e)
		return;
	e->job->importing = true;
	c->import_job = e->job;
	c->import_offered = c->hdr.rank;
	/* answered once the job's buffers are ready (import_created) */
	rx_expect_hdr(c);
}

/* job_create_ops.created: an IMPORTed job's buffers are ready (@err 0), or
 * could not be made: answer its IMPORT. */
static void import_created(struct job_entry *e, int err)
{
	uint32_t offered, taken, have = 0;
	const char *why = "this daemon runs without --rdma";
	uint8_t *body = NULL;
	size_t len = 0;
	struct conn *c;

	for (c = g.conns; c; c = c->next)
		if (c->import_job == e->job && !c->closing)
			break;
	if (!c)
		return;		/* gone: import_abandoned() retired the job */
	if (err) {
		c->import_job = NULL;
		fail_conn(c, AGG_ENOMEM, "IMPORT");
		return;		/* the job goes (create_failed) */
	}
	offered = c->import_offered;
	/* an authenticated peer's offer (IMPORT needs its proof); bits this
	 * daemon does not know are not taken */
	if (!(offered & AGG_PEER_CAP_RDMA_STATE))
		why = "not offered";
	else if (e->job->spec.opt == AGG_OPT_NONE)
		why = "the job has no optimizer state";
	else if (g.rdma && !agg_rdma_verbs(g.rdma))
		why = "this daemon's --rdma address is not one device's";
	else if (g.rdma && !import_rdma_offer(c, e->job, &body, &len, &why))
		have = AGG_PEER_CAP_RDMA_STATE;
	taken = agg_peer_caps_answer(offered, have);
	log_info("job %u '%s': being imported from %s (capabilities offered 0x%x, taken 0x%x: its state comes over %s)%s%s",
		 e->job->id, e->job->spec.name, c->peer, offered, taken,
		 taken ? "RDMA" : "TCP", taken ? "" : "; RDMA not taken: ",
		 taken ? "" : why);
	import_reply(c, e->job->id, 0, taken, body, len);
}

void handle_import_commit(struct conn *c)
{
	struct agg_job *job = c->import_job;
	int ret;

	/* c->body: the departed ranks (handle_hdr checked the length) */
	ret = agg_departed_check(c->body, c->hdr.len, job->spec.n_workers);
	if (ret) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, (unsigned int)-ret, "IMPORT_COMMIT");
		return;
	}
	memcpy(job->rank_left, c->body, job->spec.n_workers);
	free(c->body);
	c->body = NULL;
	/* the source's WRITEs have all completed: the rkeys die now */
	import_rdma_drop(c);
	agg_job_import_start(job, c->hdr.iter);
	job->importing = false;
	job->last_active_ns = g.now_ns;
	c->import_job = NULL;
	g.jobs_moved_in++;
	log_info("job %u '%s': imported from %s at iteration %u; waiting for its workers",
	       job->id, job->spec.name, c->peer, c->hdr.iter);
	import_reply(c, job->id, c->hdr.iter, 0, NULL, 0);
	rx_expect_hdr(c);
}

/* Where an IMPORT_STATE payload goes, or NULL after failing the link. */
void *import_state_buf(struct conn *c)
{
	struct agg_job *job = c->import_job;
	struct agg_part *p;

	if (!job || job->creating || job->spec.opt == AGG_OPT_NONE ||
	    c->hdr.part >= job->spec.n_parts || c->hdr.rank > AGG_STATE_MOMENTUM) {
		fail_conn(c, AGG_ESTATE, "IMPORT_STATE");
		return NULL;
	}
	p = &job->parts[c->hdr.part];
	if (c->hdr.len != (size_t)p->nelem * sizeof(float)) {
		fail_conn(c, AGG_ESIZE, "IMPORT_STATE");
		return NULL;
	}
	return c->hdr.rank == AGG_STATE_WEIGHTS ? p->out : (void *)p->momentum;
}


/* The IMPORT_REPLY that took RDMA_STATE: where the state goes. */
static void link_state_rdma(struct migration *m, struct conn *l)
{
	struct agg_job *job = m->job;
	uint32_t n = job->spec.n_parts * 2, *want;
	int ret = -AGG_ENOMEM;

	want = malloc((size_t)n * sizeof(*want));
	m->dst.bufs = calloc(n, sizeof(*m->dst.bufs));
	if (want && m->dst.bufs) {
		for (uint32_t i = 0; i < n; i++)
			want[i] = job->parts[i / 2].nelem * (uint32_t)sizeof(float);
		ret = agg_state_rdma_decode(l->body, l->hdr.len, n, want, &m->dst);
	}
	free(want);
	free(l->body);
	l->body = NULL;
	if (ret) {
		mig_fail(m, (unsigned int)-ret,
			 "the target's RDMA buffers do not match the job: %s",
			 agg_status_str((unsigned int)-ret));
		return;
	}
	rx_expect_hdr(l);
	m->rdma = true;
	m->target_job = l->hdr.job_id;
	log_info("job %u '%s': its state goes to %s:%u over RDMA (%u buffers, WRITEs to %u.%u.%u.%u:%u)",
		 job->id, job->spec.name, m->to.host, m->to.port, n,
		 m->dst.addr[0], m->dst.addr[1], m->dst.addr[2], m->dst.addr[3],
		 m->dst.port);
	mig_drain(m);
}

/* An ERROR, the PEER_CHALLENGE or an IMPORT_REPLY's payload from the
 * target, whole in l->body. */
void link_body(struct conn *l)
{
	struct migration *m = l->mig_link;

	if (l->hdr.type == AGG_MSG_IMPORT_REPLY) {
		link_state_rdma(m, l);
		return;
	}

	if (l->hdr.type == AGG_MSG_PEER_CHALLENGE) {
		uint8_t want[AGG_PEER_MAC_LEN], nonce_t[AGG_PEER_NONCE_LEN];

		uint8_t ids[PEER_IDS_LEN];

		memcpy(nonce_t, l->body, sizeof(nonce_t));
		if (!peer_ids(l->fd, true, ids))
			peer_mac(PEER_LABEL_TARGET, m->nonce, nonce_t, ids, want);
		if (peer_ids(l->fd, true, ids) ||
		    crypto_verify_32(want, l->body + AGG_PEER_NONCE_LEN)) {
			free(l->body);
			l->body = NULL;
			g.refused_auth++;
			mig_fail(m, AGG_EAUTH,
				 "the target did not prove the daemons' shared key for this connection (another key, or a relay)");
			return;
		}
		free(l->body);
		l->body = NULL;
		rx_expect_hdr(l);
		if (m->job)
			mig_import(m, nonce_t);
		return;
	}
	l->body[l->hdr.len] = '\0';
	mig_fail(l->mig_link, l->hdr.status ? l->hdr.status : AGG_EPROTO,
		 "the target refused: %s", (char *)l->body);
}

/* The link is closing (conn_close): a move under way fails. */
void mig_link_closing(struct conn *l, const char *why)
{
	if (l->mig_link->state != MIG_DONE)
		mig_fail(l->mig_link, AGG_EPROTO, "connection to the target closed: %s",
			 why ? why : "closed");
}

/* The admin who asked for a move is gone: the move goes on, unanswered. */
void mig_admin_gone(struct conn *c)
{
	c->mig_admin->admin = NULL;
	c->mig_admin = NULL;
}

static void mig_abort(struct migration *m, unsigned int status, const char *why)
{
	mig_fail(m, status, "%s", why);
}

static void mig_progress(struct migration *m)
{
	mig_check(m);
}

static const struct job_mig_ops mig_ops = {
	.abort = mig_abort,
	.progress = mig_progress,
};

static const struct job_create_ops create_ops_import = {
	.created = import_created,
};

void migrate_init(void)
{
	jobs_set_mig_ops(&mig_ops);
	jobs_set_create_ops(&create_ops_import);
}
