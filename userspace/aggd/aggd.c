// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: the shared gradient-aggregation pool.
 *
 * One event-loop thread owns every connection and every job and does all
 * network I/O through io_uring (accept, recv, sendmsg, and a read of the
 * pool's eventfd). Pushes are received straight into the partition's
 * per-rank slot; when a partition has all its pushes the loop hands a
 * reduction task to the pool (agg_pool.c), whose pinned threads run the
 * summation kernels in the order the policy chooses. Finished tasks come
 * back through the eventfd and parked pulls are answered.
 *
 * A peer's mistake never stops the daemon: a malformed header closes that
 * connection after an ERROR reply; a worker that dies or misbehaves fails
 * its own job (every other worker of the job gets an ERROR naming the
 * cause) and no other job notices.
 *
 * A timer (io_uring timeout) ticks the idle timeout: a job none of whose
 * workers has moved a byte for --idle-timeout seconds is reclaimed, and so
 * is a connection without a job that stays silent that long.
 *
 * Moving a job to another instance (agg_proto.h): the source talks to the
 * target over an ordinary outgoing connection of this loop (the "link"),
 * so the move never blocks the other jobs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "agg_job.h"
#include "agg_pool.h"
#include "agg_proto.h"
#include "agg_rdma.h"
#include "agg_sum.h"

#define RING_DEPTH	512

enum op_kind {
	OP_ACCEPT,
	OP_RECV,
	OP_SEND,
	OP_EVENT,
	OP_RDMA_CM,
	OP_RDMA_CQ,
	OP_TIMER,
	OP_CONNECT,
};

struct op {
	enum op_kind kind;
	struct conn *conn;
};

enum tx_kind {
	TX_PLAIN,	/* header (+ owned payload) */
	TX_PULL,	/* header + partition output; pull_done on completion */
};

struct txmsg {
	struct txmsg *next;
	enum tx_kind kind;
	uint8_t hdr[AGG_HDR_SIZE];
	const void *payload;
	size_t len;		/* payload bytes */
	size_t off;		/* bytes of hdr + payload sent */
	void *owned;		/* freed when done */
	uint32_t part;
};

enum rx_stage {
	RX_HDR,
	RX_BODY,
};

struct conn {
	struct conn *next, *prev;
	int fd;
	uint32_t id;
	char peer[AGG_HOST_LEN + 16];
	struct op rx_op, tx_op;
	bool rx_busy, tx_busy;
	bool closing, close_after_tx;
	/* receive */
	enum rx_stage rx;
	uint8_t hdr_buf[AGG_HDR_SIZE];
	struct agg_hdr hdr;
	uint8_t *rx_dst;
	size_t rx_len, rx_off;
	uint8_t *body;		/* REGISTER body */
	/* send */
	struct txmsg *tx_head, *tx_tail;
	struct msghdr tx_msg;
	struct iovec tx_iov[2];
	/* RDMA transport (NULL for TCP): the message being handled */
	struct agg_rdma_conn *rdma;
	const uint8_t *rmsg;
	size_t rmsg_len;
	/* job binding */
	struct agg_job *job;
	unsigned int rank;
	bool left;
	/* idle timeout */
	uint64_t last_rx_ns;		/* last byte received */
	uint64_t reclaim_ns;		/* its job was reclaimed: close by then */
	/* moving jobs */
	bool sinking;			/* receiving a push that is dropped */
	bool redirected;		/* its job moved away: told where */
	struct migration *mig_link;	/* outgoing link to a target */
	struct migration *mig_admin;	/* asked for this migration */
	struct agg_job *import_job;	/* job being imported over this */
	struct op connect_op;
};

enum mig_state {
	MIG_CONNECT,	/* connecting to the target */
	MIG_IMPORT,	/* IMPORT sent, waiting for the target to accept */
	MIG_DRAIN,	/* holding back iterations >= barrier until quiescent */
	MIG_COMMIT,	/* state and IMPORT_COMMIT sent */
	MIG_DONE,	/* moved, or failed: the link is closing */
};

struct migration {
	struct agg_job *job;		/* NULL once the job is gone */
	struct conn *link, *admin;
	struct agg_target to;
	struct sockaddr_in addr;
	enum mig_state state;
	uint64_t start_ns;
};

/* Jobs that moved away: a late REGISTER is redirected, not re-created. */
struct moved_job {
	struct moved_job *next;
	char name[AGG_NAME_LEN + 1];
	char token[AGG_TOKEN_LEN + 1];
	struct agg_target to;
	uint32_t iter;
};

#define MOVED_KEEP	64	/* most recent moves remembered */
#define RECLAIM_GRACE_NS 1000000000ULL	/* to send a reclaimed job's ERROR */

struct reduce_task {
	struct agg_task task;
	struct agg_job *job;
	struct agg_part *part;
};

struct job_entry {
	struct job_entry *next;
	struct agg_job *job;
	bool dead;		/* no connections left; freed at inflight 0 */
};

static struct {
	struct io_uring ring;
	int listen_fd, event_fd;
	struct op accept_op, event_op;
	uint64_t event_buf;
	struct conn *conns;
	uint32_t next_conn_id, next_job_id;
	struct job_entry *jobs;
	struct agg_pool *pool;
	size_t mem_used, mem_max, job_mem_max;
	uint32_t max_push;
	volatile sig_atomic_t stop;
	unsigned int n_conns;
	uint64_t jobs_created, jobs_failed, conns_total;
	FILE *cores_log;
	struct agg_rdma_srv *rdma;
	struct op rdma_cm_op, rdma_cq_op;
	bool rdma_cq_armed;
	/* idle timeout; 0: never */
	uint64_t idle_ns, now_ns;
	struct op timer_op;
	struct __kernel_timespec timer_ts;
	uint64_t jobs_reclaimed, jobs_moved_out, jobs_moved_in;
	/* moving jobs */
	void *sink;			/* dropped pushes land here */
	struct moved_job *moved;
	unsigned int n_moved;
} g;

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void logmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("spare-aggd: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static struct io_uring_sqe *get_sqe(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&g.ring);

	while (!sqe) {
		io_uring_submit(&g.ring);
		sqe = io_uring_get_sqe(&g.ring);
	}
	return sqe;
}

/* ---- sending ---- */

static void tx_kick(struct conn *c);

static void tx_queue(struct conn *c, struct txmsg *m)
{
	m->next = NULL;
	if (c->tx_tail)
		c->tx_tail->next = m;
	else
		c->tx_head = m;
	c->tx_tail = m;
	tx_kick(c);
}

static struct txmsg *tx_new(const struct agg_hdr *h)
{
	struct txmsg *m = calloc(1, sizeof(*m));

	if (m)
		agg_hdr_encode(h, m->hdr);
	return m;
}

static void conn_close(struct conn *c, const char *why);

/* Queue one message whose payload is @owned's (freed when sent, or now). */
static void tx_send(struct conn *c, const struct agg_hdr *h,
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

static void submit_reduce(struct agg_job *job, struct agg_part *part);
static void mig_fail(struct migration *m, unsigned int status,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void mig_check(struct migration *m);

/*
 * The partition's output has left for this rank (sent over TCP, or copied
 * into the RDMA send buffer): the rank has pulled it.
 */
static void pull_reply_done(struct conn *c, uint32_t part_index)
{
	struct agg_job *job = c->job;
	struct agg_part *part;
	uint32_t before;

	if (!job || job->failed)
		return;
	part = &job->parts[part_index];
	before = part->iter;
	if (agg_part_pull_done(part, job->spec.n_workers, c->rank))
		submit_reduce(job, part);
	/* the last pull of barrier - 1 brought the partition to the barrier */
	if (job->migrating && part->iter != before &&
	    part->iter == job->mig_barrier) {
		job->mig_ready++;
		mig_check(job->mig);
	}
}

static void send_error(struct conn *c, unsigned int status, uint32_t part,
		       uint32_t iter, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void send_error(struct conn *c, unsigned int status, uint32_t part,
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

/* ERROR reply, then close the connection once it is sent. */
static void fail_conn(struct conn *c, unsigned int status, const char *what)
{
	logmsg("conn %u (%s): %s: %s; closing", c->id, c->peer, what,
	       agg_status_str(status));
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
		if (agg_rdma_send(c->rdma, m->hdr, AGG_HDR_SIZE, m->payload, m->len)) {
			conn_close(c, "RDMA send failed");
			return;
		}
		c->tx_busy = true;
		/*
		 * The payload is copied: account the pull now. Its completion
		 * can come after the worker's next request (the SEND is
		 * delivered before its ACK comes back).
		 */
		if (m->kind == TX_PULL) {
			m->kind = TX_PLAIN;
			pull_reply_done(c, m->part);
		}
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

/* ---- jobs ---- */

static struct job_entry *job_find(const char *name)
{
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (!e->dead && !strcmp(e->job->spec.name, name))
			return e;
	return NULL;
}

static struct job_entry *job_entry_of(struct agg_job *job)
{
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (e->job == job)
			return e;
	return NULL;
}

static void job_maybe_free(struct job_entry *e)
{
	struct job_entry **pp;

	/* a reduction or a migration link may still read its buffers */
	if (!e->dead || e->job->inflight || e->job->mig)
		return;
	for (pp = &g.jobs; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	g.mem_used -= e->job->mem_bytes;
	logmsg("job %u '%s' freed (%zu bytes)", e->job->id, e->job->spec.name,
	       e->job->mem_bytes);
	agg_job_free(e->job);
	free(e);
}

static void job_drop_queued(struct agg_job *job)
{
	struct agg_task *t = agg_pool_remove_job(g.pool, job->id);

	while (t) {
		struct agg_task *next = t->next;

		job->inflight--;
		free(t->ctx);
		t = next;
	}
}

/* Fail a job and tell every attached worker why. */
static void job_fail(struct agg_job *job, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void job_fail(struct agg_job *job, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (job->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	agg_job_fail(job, "%s", msg);
	g.jobs_failed++;
	logmsg("job %u '%s' failed: %s", job->id, job->spec.name, msg);
	if (job->mig)
		mig_fail(job->mig, AGG_EJOBFAIL, "the job failed: %s", msg);
	job_drop_queued(job);
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (c && !c->closing && !c->close_after_tx)
			send_error(c, AGG_EJOBFAIL, 0, 0, "job '%s' failed: %s",
				   job->spec.name, msg);
	}
}

static void submit_reduce(struct agg_job *job, struct agg_part *part)
{
	struct reduce_task *rt = calloc(1, sizeof(*rt));
	size_t in_bytes = part->bytes * job->spec.n_workers;

	if (!rt) {
		job_fail(job, "out of memory queueing partition %u", part->index);
		return;
	}
	rt->job = job;
	rt->part = part;
	rt->task.job = job->id;
	rt->task.cost = in_bytes + part->bytes;
	rt->task.ctx = rt;
	job->inflight++;
	if (agg_pool_submit(g.pool, &rt->task)) {
		job->inflight--;
		free(rt);
		job_fail(job, "scheduler does not know the job");
	}
}

static void pool_run(struct agg_task *t)
{
	struct reduce_task *rt = t->ctx;

	agg_part_reduce(rt->job, rt->part);
}

static void queue_pull_reply(struct conn *c, struct agg_part *part)
{
	struct agg_hdr h;
	struct txmsg *m;

	agg_hdr_init(&h, AGG_MSG_PULL_REPLY, (uint32_t)part->bytes);
	h.job_id = c->job->id;
	h.part = part->index;
	h.iter = part->iter;
	h.rank = c->rank;
	m = tx_new(&h);
	if (!m) {
		job_fail(c->job, "out of memory replying to rank %u", c->rank);
		return;
	}
	m->kind = TX_PULL;
	m->payload = part->out;
	m->len = part->bytes;
	m->part = part->index;
	tx_queue(c, m);
}

static void handle_done_tasks(void)
{
	struct agg_task *t = agg_pool_take_done(g.pool);

	while (t) {
		struct agg_task *next = t->next;
		struct reduce_task *rt = t->ctx;
		struct agg_job *job = rt->job;
		struct agg_part *part = rt->part;
		struct job_entry *e = job_entry_of(job);

		job->inflight--;
		job->reduces++;
		job->last_active_ns = g.now_ns;
		agg_part_reduced(part);
		if (!job->failed) {
			for (unsigned int r = 0; r < job->spec.n_workers; r++) {
				struct conn *c = job->rank_conn[r];

				if (c && part->pull_pending[r] && !c->closing)
					queue_pull_reply(c, part);
			}
		}
		free(rt);
		if (e)
			job_maybe_free(e);
		t = next;
	}
}

static void conn_detach(struct conn *c)
{
	struct agg_job *job = c->job;
	struct job_entry *e;

	if (!job)
		return;
	job->rank_conn[c->rank] = NULL;
	job->n_attached--;
	c->job = NULL;
	if (job->n_attached || !g.pool)	/* no pool: exiting, jobs go last */
		return;
	e = job_entry_of(job);
	if (!e)
		return;
	if (job->mig)
		mig_fail(job->mig, AGG_EJOBFAIL, "every worker of the job left");
	e->dead = true;
	job_drop_queued(job);
	agg_pool_remove_job(g.pool, job->id);
	job_maybe_free(e);
}

/* ---- connections ---- */

static void mig_link_gone(struct migration *m);
static void import_abandoned(struct conn *c);

static void conn_destroy(struct conn *c)
{
	conn_detach(c);
	if (c->mig_link)
		mig_link_gone(c->mig_link);
	if (c->mig_admin)
		c->mig_admin->admin = NULL;
	if (c->import_job)
		import_abandoned(c);
	while (c->tx_head) {
		struct txmsg *m = c->tx_head;

		c->tx_head = m->next;
		free(m->owned);
		free(m);
	}
	free(c->body);
	if (c->rdma)
		agg_rdma_close(c->rdma);
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

static void conn_maybe_destroy(struct conn *c)
{
	if (c->closing && !c->rx_busy && !c->tx_busy)
		conn_destroy(c);
}

static void conn_close(struct conn *c, const char *why)
{
	struct agg_job *job = c->job;

	if (c->closing)
		return;
	c->closing = true;
	if (why)
		logmsg("conn %u (%s): closed: %s", c->id, c->peer, why);
	if (c->mig_link && c->mig_link->state != MIG_DONE)
		mig_fail(c->mig_link, AGG_EPROTO, "connection to the target closed: %s",
			 why ? why : "closed");
	if (job && !c->left && !job->failed) {
		/*
		 * A rank closed for a protocol error fails its job. Otherwise
		 * fail it only if the job still waits on this rank: a rank
		 * that has done its share may go while the others pull.
		 */
		if (c->close_after_tx || agg_job_needs_rank(job, c->rank)) {
			job_fail(job, "worker rank %u disconnected (%s)", c->rank,
				 why ? why : "closed");
		} else {
			job->rank_left[c->rank] = AGG_RANK_GONE;
			logmsg("job %u '%s': worker rank %u disconnected owing nothing; the others go on",
			       job->id, job->spec.name, c->rank);
		}
	}
	if (c->rdma) {
		/* no completion names this connection after the close */
		agg_rdma_close(c->rdma);
		c->rdma = NULL;
		c->rx_busy = c->tx_busy = false;
	} else {
		shutdown(c->fd, SHUT_RDWR);
	}
	conn_maybe_destroy(c);
}

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

static void rx_expect_hdr(struct conn *c)
{
	c->rx = RX_HDR;
	c->rx_dst = c->hdr_buf;
	c->rx_len = AGG_HDR_SIZE;
	c->rx_off = 0;
	rx_post(c);
}

static void handle_body(struct conn *c);

static void rx_expect_body(struct conn *c, void *dst, size_t len)
{
	if (c->rdma) {
		/* handle_hdr() checked that the message holds exactly len */
		memcpy(dst, c->rmsg + AGG_HDR_SIZE, len);
		c->rx = RX_BODY;
		handle_body(c);
		return;
	}
	c->rx = RX_BODY;
	c->rx_dst = dst;
	c->rx_len = len;
	c->rx_off = 0;
	rx_post(c);
}

/* A new job from a spec (REGISTER or IMPORT); NULL after an ERROR reply. */
static struct job_entry *job_new(struct conn *c, struct agg_job_spec *spec,
				 const char *what)
{
	size_t need = agg_job_mem_need(spec);
	struct job_entry *e;
	struct agg_job *job;

	if (!need || need > g.job_mem_max || need > g.mem_max - g.mem_used) {
		logmsg("job '%s' needs %zu bytes: over budget (job max %zu, free %zu)",
		       spec->name, need, g.job_mem_max, g.mem_max - g.mem_used);
		fail_conn(c, AGG_ENOMEM, what);
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	job = e ? agg_job_create(++g.next_job_id, spec) : NULL;
	if (!job || agg_pool_add_job(g.pool, job->id, job->spec.weight)) {
		agg_job_free(job);
		free(e);
		fail_conn(c, AGG_ENOMEM, what);
		return NULL;
	}
	e->job = job;
	e->next = g.jobs;
	g.jobs = e;
	g.mem_used += job->mem_bytes;
	g.jobs_created++;
	job->last_active_ns = g.now_ns;
	logmsg("job %u '%s' created: %u workers, %u tensors, %u partitions, %s, %zu bytes",
	       job->id, job->spec.name, job->spec.n_workers,
	       job->spec.n_tensors, job->spec.n_parts,
	       agg_dtype_name(job->spec.dtype), job->mem_bytes);
	return e;
}

static const struct moved_job *moved_find(const char *name)
{
	for (const struct moved_job *m = g.moved; m; m = m->next)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static void moved_add(const struct agg_job *job, const struct agg_target *to,
		      uint32_t iter)
{
	struct moved_job *m = calloc(1, sizeof(*m)), **pp;

	if (!m)
		return;		/* only late REGISTERs would notice */
	snprintf(m->name, sizeof(m->name), "%s", job->spec.name);
	snprintf(m->token, sizeof(m->token), "%s", job->spec.token);
	m->to = *to;
	m->iter = iter;
	m->next = g.moved;
	g.moved = m;
	if (++g.n_moved <= MOVED_KEEP)
		return;
	for (pp = &g.moved; (*pp)->next; pp = &(*pp)->next)
		;
	free(*pp);
	*pp = NULL;
	g.n_moved--;
}

static void send_redirect(struct conn *c, const struct agg_target *to,
			  uint32_t iter)
{
	uint8_t *body = malloc(AGG_REDIRECT_SIZE);
	struct agg_hdr h;

	if (!body || agg_redirect_encode(to, body) < 0) {
		free(body);
		conn_close(c, "cannot build a redirect (out of memory or bad target)");
		return;
	}
	agg_hdr_init(&h, AGG_MSG_REDIRECT, AGG_REDIRECT_SIZE);
	h.iter = iter;
	tx_send(c, &h, body, AGG_REDIRECT_SIZE, body);
}

static void handle_register(struct conn *c)
{
	struct agg_job_spec spec;
	struct job_entry *e;
	struct agg_job *job;
	struct agg_hdr h;
	struct txmsg *m;
	uint8_t *reply;
	unsigned int rank;
	int ret;

	ret = agg_register_decode(c->body, c->hdr.len, &spec);
	free(c->body);
	c->body = NULL;
	if (ret) {
		fail_conn(c, (unsigned int)-ret, "REGISTER rejected");
		return;
	}
	if (c->job) {
		agg_spec_free(&spec);
		fail_conn(c, AGG_ESTATE, "REGISTER on a registered connection");
		return;
	}
	rank = spec.rank;	/* agg_job_create() takes spec over */
	e = job_find(spec.name);
	if (e) {
		job = e->job;
		/* every byte compared: no early exit on the first mismatch */
		unsigned char diff = 0;

		for (size_t i = 0; i < sizeof(spec.token); i++)
			diff |= (unsigned char)(spec.token[i] ^ job->spec.token[i]);
		if (diff) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_EAUTH, "REGISTER");
			return;
		}
		if (!agg_spec_same_job(&spec, &job->spec)) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ESPEC, "REGISTER");
			return;
		}
		if (job->failed) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_EJOBFAIL, "REGISTER");
			return;
		}
		if (job->importing) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ESTATE, "REGISTER of a job still being imported");
			return;
		}
		if (job->rank_conn[spec.rank] || job->rank_left[spec.rank]) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ERANK, "REGISTER");
			return;
		}
	} else {
		const struct moved_job *mv = moved_find(spec.name);

		if (mv && !strcmp(mv->token, spec.token)) {
			/* it moved away: tell the worker where it went */
			logmsg("conn %u (%s): REGISTER of job '%s', which moved to %s:%u",
			       c->id, c->peer, spec.name, mv->to.host, mv->to.port);
			agg_spec_free(&spec);
			send_redirect(c, &mv->to, mv->iter);
			rx_expect_hdr(c);
			return;
		}
		e = job_new(c, &spec, "REGISTER");
		if (!e) {
			agg_spec_free(&spec);
			return;
		}
		job = e->job;
	}
	c->job = job;
	c->rank = rank;
	job->rank_conn[rank] = c;
	job->n_attached++;
	agg_spec_free(&spec);

	agg_hdr_init(&h, AGG_MSG_REGISTER_REPLY, AGG_REG_REPLY_SIZE);
	h.job_id = job->id;
	h.rank = c->rank;
	reply = malloc(AGG_REG_REPLY_SIZE);
	m = reply ? tx_new(&h) : NULL;
	if (!m) {
		free(reply);
		conn_close(c, "out of memory");
		return;
	}
	agg_reg_reply_encode(job->spec.n_parts, reply);
	m->payload = reply;
	m->owned = reply;
	m->len = AGG_REG_REPLY_SIZE;
	tx_queue(c, m);
	rx_expect_hdr(c);
}

static void handle_stats(struct conn *c)
{
	static struct agg_pool_stats st;	/* large; the loop is single-threaded */
	struct agg_hdr h;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		conn_close(c, "out of memory");
		return;
	}
	agg_pool_stats(g.pool, &st);
	fprintf(f, "# HELP aggd_cores_active Pool threads awake now.\n"
		   "# TYPE aggd_cores_active gauge\naggd_cores_active %u\n",
		st.active);
	fprintf(f, "aggd_cores_max %u\n", st.max);
	fprintf(f, "# TYPE aggd_busy_seconds_total counter\n"
		   "aggd_busy_seconds_total %.6f\n", (double)st.busy_ns / 1e9);
	fprintf(f, "aggd_cpu_seconds_total %.6f\n", st.cpu_seconds);
	fprintf(f, "aggd_reductions_total %llu\n", (unsigned long long)st.tasks);
	fprintf(f, "aggd_queue_wait_seconds_total %.6f\n",
		(double)st.queue_ns / 1e9);
	fprintf(f, "aggd_queued %zu\n", st.queued);
	fprintf(f, "aggd_connections %u\n", g.n_conns);
	fprintf(f, "aggd_jobs_created_total %llu\naggd_jobs_failed_total %llu\n",
		(unsigned long long)g.jobs_created,
		(unsigned long long)g.jobs_failed);
	fprintf(f, "aggd_jobs_reclaimed_total %llu\n",
		(unsigned long long)g.jobs_reclaimed);
	fprintf(f, "aggd_jobs_moved_out_total %llu\naggd_jobs_moved_in_total %llu\n",
		(unsigned long long)g.jobs_moved_out,
		(unsigned long long)g.jobs_moved_in);
	fprintf(f, "aggd_memory_bytes %zu\n", g.mem_used);
	fprintf(f, "aggd_isa{isa=\"%s\"} 1\n", agg_isa_name(agg_isa_selected()));
	for (struct job_entry *e = g.jobs; e; e = e->next) {
		struct agg_job *j = e->job;

		fprintf(f, "aggd_job_pushes_total{job=\"%s\"} %llu\n",
			j->spec.name, (unsigned long long)j->pushes);
		fprintf(f, "aggd_job_reductions_total{job=\"%s\"} %llu\n",
			j->spec.name, (unsigned long long)j->reduces);
		fprintf(f, "aggd_job_failed{job=\"%s\"} %d\n", j->spec.name,
			j->failed);
		if (j->migrating || j->importing)
			fprintf(f, "aggd_job_moving{job=\"%s\",barrier=\"%u\"} 1\n",
				j->spec.name, j->mig_barrier);
	}
	fprintf(f, "# cores over time: t_ms active busy queued\n");
	for (unsigned int i = 0; i < st.n_hist; i++)
		fprintf(f, "# hist %llu %u %.3f %zu\n",
			(unsigned long long)st.hist[i].t_ms, st.hist[i].active,
			st.hist[i].busy, st.hist[i].queued);
	fclose(f);
	if (len > AGG_MAX_STATS_TEXT)
		len = AGG_MAX_STATS_TEXT;
	if (c->rdma && len > AGG_RDMA_MAX_PAYLOAD)
		len = AGG_RDMA_MAX_PAYLOAD;
	agg_hdr_init(&h, AGG_MSG_STATS_REPLY, (uint32_t)len);
	tx_send(c, &h, text, len, text);
}

/* ---- moving a job to another instance (source side) ---- */

static void queue_plain(struct conn *c, unsigned int type, const struct agg_hdr *tmpl,
			const void *payload, size_t len, void *owned)
{
	struct agg_hdr h = *tmpl;

	h.magic = AGG_PROTO_MAGIC;
	h.version = AGG_PROTO_VERSION;
	h.type = (uint16_t)type;
	h.len = (uint32_t)len;
	tx_send(c, &h, payload, len, owned);
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

/* The migration's link connection is gone: forget the migration. */
static void mig_link_gone(struct migration *m)
{
	struct agg_job *job = m->job;

	if (m->state != MIG_DONE)
		mig_fail(m, AGG_EPROTO, "connection to the target lost");
	if (m->admin)
		m->admin->mig_admin = NULL;
	if (job) {
		struct job_entry *e = job_entry_of(job);

		job->mig = NULL;
		job->migrating = false;
		if (e)
			job_maybe_free(e);
	}
	free(m);
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
	char why[160], text[2 * AGG_MAX_ERR_TEXT];
	bool drained;
	va_list ap;

	if (m->state == MIG_DONE)
		return;
	drained = m->state >= MIG_DRAIN;
	m->state = MIG_DONE;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(text, sizeof(text), "moving job '%s' to %s:%u failed: %s%s",
		 job ? job->spec.name : "?", m->to.host, m->to.port, why,
		 drained || !job || job->failed ? "" : "; the job goes on here");
	logmsg("%s", text);
	mig_reply(m, status, text);
	if (job && drained && !job->failed)
		job_fail(job, "moving it to %s:%u failed: %s", m->to.host,
			 m->to.port, why);
	if (job)
		job->migrating = false;
	if (m->link)
		conn_close(m->link, NULL);
}

/* Every partition is at the barrier: send the state, then commit. */
static void mig_check(struct migration *m)
{
	struct agg_job *job = m ? m->job : NULL;
	struct agg_hdr h;

	if (!job || m->state != MIG_DRAIN || job->mig_ready < job->spec.n_parts)
		return;
	memset(&h, 0, sizeof(h));
	if (job->spec.opt != AGG_OPT_NONE) {
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
	logmsg("job %u '%s': quiescent at iteration %u; state sent to %s:%u",
	       job->id, job->spec.name, job->mig_barrier, m->to.host, m->to.port);
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
	m->state = MIG_DRAIN;
	logmsg("job %u '%s': moving to %s:%u at iteration %u (%u of %u partitions there)",
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

	snprintf(text, sizeof(text), "job '%s' moved to %s:%u at iteration %u",
		 job->spec.name, m->to.host, m->to.port, job->mig_barrier);
	logmsg("job %u '%s' moved to %s:%u at iteration %u in %.1f ms; redirecting %u workers",
	       job->id, job->spec.name, m->to.host, m->to.port,
	       job->mig_barrier, ms, job->n_attached);
	mig_reply(m, AGG_OK, text);
	m->state = MIG_DONE;
	g.jobs_moved_out++;
	moved_add(job, &m->to, job->mig_barrier);
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
	}
	job->migrating = false;
	if (e) {
		e->dead = true;		/* freed once the link is gone */
		agg_pool_remove_job(g.pool, job->id);
	}
	conn_close(m->link, NULL);
}

static void handle_migrate(struct conn *c)
{
	struct agg_migrate_req req;
	struct job_entry *e;
	struct migration *m;
	struct conn *l;
	unsigned char diff = 0;
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
	e = job_find(req.name);
	if (!e) {
		send_error(c, AGG_ENOJOB, 0, 0, "MIGRATE: no job '%s' here", req.name);
		return;
	}
	for (size_t i = 0; i < sizeof(req.token); i++)
		diff |= (unsigned char)(req.token[i] ^ e->job->spec.token[i]);
	if (diff) {
		send_error(c, AGG_EAUTH, 0, 0, "MIGRATE: wrong token for job '%s'",
			   req.name);
		return;
	}
	if (c->job || c->mig_admin || e->job->failed || e->job->mig ||
	    e->job->importing) {
		send_error(c, AGG_ESTATE, 0, 0,
			   "MIGRATE: job '%s' is failed, moving or arriving, or this connection is busy",
			   req.name);
		return;
	}
	m = calloc(1, sizeof(*m));
	l = calloc(1, sizeof(*l));
	if (!m || !l) {
		free(m);
		free(l);
		send_error(c, AGG_ENOMEM, 0, 0, "MIGRATE: out of memory");
		return;
	}
	m->to = req.to;
	m->addr.sin_family = AF_INET;
	m->addr.sin_port = htons(req.to.port);
	if (inet_pton(AF_INET, req.to.host, &m->addr.sin_addr) != 1) {
		free(m);
		free(l);
		send_error(c, AGG_EINVAL, 0, 0,
			   "MIGRATE: the target must be a numeric IPv4 address, not '%s'",
			   req.to.host);
		return;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		free(m);
		free(l);
		send_error(c, AGG_ENOMEM, 0, 0, "MIGRATE: socket: %s", strerror(errno));
		return;
	}
	/* the link: an ordinary connection of this loop, without a job */
	l->fd = fd;
	l->id = ++g.next_conn_id;
	l->rx_op.kind = OP_RECV;
	l->rx_op.conn = l;
	l->tx_op.kind = OP_SEND;
	l->tx_op.conn = l;
	l->connect_op.kind = OP_CONNECT;
	l->connect_op.conn = l;
	l->mig_link = m;
	l->last_rx_ns = g.now_ns;
	snprintf(l->peer, sizeof(l->peer), "%s:%u", req.to.host, req.to.port);
	l->next = g.conns;
	if (g.conns)
		g.conns->prev = l;
	g.conns = l;
	g.n_conns++;
	m->job = e->job;
	m->link = l;
	m->admin = c;
	m->start_ns = g.now_ns;
	m->state = MIG_CONNECT;
	c->mig_admin = m;
	e->job->mig = m;
	logmsg("job %u '%s': asked by conn %u (%s) to move to %s:%u",
	       e->job->id, e->job->spec.name, c->id, c->peer, req.to.host,
	       req.to.port);
	sqe = get_sqe();
	io_uring_prep_connect(sqe, fd, (struct sockaddr *)&m->addr, sizeof(m->addr));
	io_uring_sqe_set_data(sqe, &l->connect_op);
	l->tx_busy = true;	/* until the connect completes */
}

static void on_connect(struct conn *l, int res)
{
	struct migration *m = l->mig_link;
	struct agg_job *job = m->job;
	struct agg_job_spec spec;
	struct agg_hdr h;
	uint8_t *body;
	size_t len;
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
	spec = job->spec;
	spec.rank = 0;		/* nobody registers with an IMPORT */
	len = agg_register_size(spec.n_tensors);
	body = malloc(len);
	if (!body || agg_register_encode(&spec, body, len) != (int)len) {
		free(body);
		mig_fail(m, AGG_ENOMEM, "cannot encode the job");
		return;
	}
	memset(&h, 0, sizeof(h));
	queue_plain(l, AGG_MSG_IMPORT, &h, body, len, body);
	m->state = MIG_IMPORT;
	rx_expect_hdr(l);
}

/* A message from the target on the link. */
static void link_hdr(struct conn *l)
{
	struct migration *m = l->mig_link;
	struct agg_hdr *h = &l->hdr;

	if (h->type == AGG_MSG_ERROR) {
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
	rx_expect_hdr(l);
	if (m->state == MIG_IMPORT && m->job)
		mig_drain(m);
	else if (m->state == MIG_COMMIT && m->job && h->iter == m->job->mig_barrier)
		mig_done(m);
	else if (m->state != MIG_DONE)
		mig_fail(m, AGG_EPROTO, "unexpected IMPORT_REPLY from the target");
}

/* ---- receiving a job from another instance (target side) ---- */

static void import_abandoned(struct conn *c)
{
	struct agg_job *job = c->import_job;
	struct job_entry *e = job_entry_of(job);

	c->import_job = NULL;
	if (!e || !job->importing || !g.pool)	/* no pool: exiting */
		return;
	logmsg("job %u '%s': import abandoned by %s before its commit",
	       job->id, job->spec.name, c->peer);
	e->dead = true;
	job_drop_queued(job);
	agg_pool_remove_job(g.pool, job->id);
	job_maybe_free(e);
}

static void import_reply(struct conn *c, uint32_t job_id, uint32_t iter)
{
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	h.job_id = job_id;
	h.iter = iter;
	queue_plain(c, AGG_MSG_IMPORT_REPLY, &h, NULL, 0, NULL);
}

static void handle_import(struct conn *c)
{
	struct agg_job_spec spec;
	struct job_entry *e;
	int ret;

	ret = agg_register_decode(c->body, c->hdr.len, &spec);
	free(c->body);
	c->body = NULL;
	if (ret) {
		fail_conn(c, (unsigned int)-ret, "IMPORT rejected");
		return;
	}
	if (job_find(spec.name)) {
		logmsg("conn %u (%s): IMPORT of job '%s': a job of that name is here",
		       c->id, c->peer, spec.name);
		agg_spec_free(&spec);
		fail_conn(c, AGG_ESTATE, "IMPORT of a job whose name is in use");
		return;
	}
	e = job_new(c, &spec, "IMPORT");
	agg_spec_free(&spec);
	if (!e)
		return;
	e->job->importing = true;
	c->import_job = e->job;
	logmsg("job %u '%s': being imported from %s", e->job->id,
	       e->job->spec.name, c->peer);
	import_reply(c, e->job->id, 0);
	rx_expect_hdr(c);
}

static void handle_import_commit(struct conn *c)
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
	agg_job_import_start(job, c->hdr.iter);
	job->importing = false;
	job->last_active_ns = g.now_ns;
	c->import_job = NULL;
	g.jobs_moved_in++;
	logmsg("job %u '%s': imported from %s at iteration %u; waiting for its workers",
	       job->id, job->spec.name, c->peer, c->hdr.iter);
	import_reply(c, job->id, c->hdr.iter);
	rx_expect_hdr(c);
}

/* Where an IMPORT_STATE payload goes, or NULL after failing the link. */
static void *import_state_buf(struct conn *c)
{
	struct agg_job *job = c->import_job;
	struct agg_part *p;

	if (!job || job->spec.opt == AGG_OPT_NONE ||
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

static void *sink_buf(void)
{
	if (!g.sink)
		g.sink = malloc(g.max_push ? g.max_push : 1);
	return g.sink;
}

/* Drop a push's payload (the job moved, or moves at this iteration). */
static void sink_push(struct conn *c)
{
	void *sink;

	if (!c->hdr.len) {
		rx_expect_hdr(c);
		return;
	}
	sink = sink_buf();
	if (!sink) {
		conn_close(c, "out of memory for a dropped push");
		return;
	}
	c->sinking = true;
	rx_expect_body(c, sink, c->hdr.len);
}

/* ---- idle timeout ---- */

static void timer_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_timeout(sqe, &g.timer_ts, 0, 0);
	io_uring_sqe_set_data(sqe, &g.timer_op);
}

static void job_reclaim(struct job_entry *e)
{
	struct agg_job *job = e->job;
	double idle = (double)(g.now_ns - job->last_active_ns) / 1e9;

	g.jobs_reclaimed++;
	logmsg("job %u '%s' reclaimed: no byte from any of its workers for %.1f s (%u of %u attached); freeing %zu bytes",
	       job->id, job->spec.name, idle, job->n_attached,
	       job->spec.n_workers, job->mem_bytes);
	job_fail(job, "reclaimed: no message from any worker for %.0f s", idle);
	job->last_active_ns = g.now_ns;	/* the grace below rules its conns */
	if (!job->n_attached) {
		e->dead = true;
		job_drop_queued(job);
		agg_pool_remove_job(g.pool, job->id);
		job_maybe_free(e);
		return;
	}
	/* each worker gets its EJOBFAIL, then the connection closes; the
	 * job is freed with the last one (closing may free it: collect first) */
	{
		struct conn *now[AGG_MAX_WORKERS];
		unsigned int n = 0;

		for (unsigned int r = 0; r < job->spec.n_workers; r++) {
			struct conn *c = job->rank_conn[r];

			if (!c || c->closing)
				continue;
			c->close_after_tx = true;
			c->reclaim_ns = g.now_ns + RECLAIM_GRACE_NS;
			if (!c->tx_head && !c->tx_busy)
				now[n++] = c;
		}
		for (unsigned int i = 0; i < n; i++)
			conn_close(now[i], "its job was reclaimed");
	}
}

static void on_timer(void)
{
	struct job_entry *e, *next;
	struct conn *c, *cn;

	timer_post();
	if (!g.idle_ns)
		return;
	for (e = g.jobs; e; e = next) {
		struct agg_job *job = e->job;

		next = e->next;
		if (e->dead || job->importing || job->failed)
			continue;
		if (job->inflight) {
			job->last_active_ns = g.now_ns;
			continue;
		}
		if (g.now_ns - job->last_active_ns >= g.idle_ns)
			job_reclaim(e);
	}
	for (c = g.conns; c; c = cn) {
		cn = c->next;
		if (c->closing)
			continue;
		if (c->reclaim_ns && g.now_ns >= c->reclaim_ns) {
			conn_close(c, "its job was reclaimed and it did not take the error");
			continue;
		}
		/* a silent connection without a job: half a header, or a
		 * monitor gone quiet; links, imports and admins wait on us */
		if (!c->job && !c->mig_link && !c->import_job && !c->mig_admin &&
		    g.now_ns - c->last_rx_ns >= g.idle_ns)
			conn_close(c, "idle timeout");
	}
	/* failed jobs whose workers stay connected and silent: their memory
	 * goes with the last connection (closing may free the job and others'
	 * entries: start over after each close) */
again:
	for (e = g.jobs; e; e = e->next) {
		struct agg_job *job = e->job;

		if (e->dead || !job->failed || job->importing ||
		    g.now_ns - job->last_active_ns < g.idle_ns)
			continue;
		for (unsigned int r = 0; r < job->spec.n_workers; r++) {
			c = job->rank_conn[r];
			if (c && !c->closing) {
				conn_close(c, "idle timeout after its job failed");
				goto again;
			}
		}
	}
}

/* Checks common to PUSH, PULL and SET_WEIGHTS. */
static struct agg_part *job_part(struct conn *c, const char *what)
{
	struct agg_job *job = c->job;

	if (!job) {
		fail_conn(c, AGG_ENOJOB, what);
		return NULL;
	}
	if (c->hdr.job_id != job->id) {
		fail_conn(c, AGG_EINVAL, what);
		return NULL;
	}
	if (c->hdr.part >= job->spec.n_parts) {
		fail_conn(c, AGG_EINVAL, what);
		return NULL;
	}
	return &job->parts[c->hdr.part];
}

/*
 * Fail the job if partition 'part' can never complete iteration 'iter'
 * because a departed rank's share of it is missing. Returns 1 if so.
 */
static int job_check_departed(struct agg_job *job, struct agg_part *part,
			      uint32_t iter)
{
	int r = agg_part_departed_blocks(job, part, iter);

	if (r < 0)
		return 0;
	job_fail(job, "worker rank %d %s before partition %u iteration %u was complete",
		 r, job->rank_left[r] == AGG_RANK_LEFT ? "left" : "disconnected",
		 part->index, iter);
	return 1;
}

static void job_misbehaved(struct conn *c, unsigned int status,
			   const char *what)
{
	struct agg_job *job = c->job;

	fail_conn(c, status, what);
	job_fail(job, "rank %u sent a bad %s for partition %u iteration %u: %s",
		 c->rank, what, c->hdr.part, c->hdr.iter, agg_status_str(status));
}

static void handle_hdr(struct conn *c)
{
	struct agg_hdr *h = &c->hdr;
	struct agg_part *part;
	int ret;

	ret = agg_hdr_decode(c->hdr_buf, h, c->rdma && g.max_push > AGG_RDMA_MAX_PAYLOAD ?
			     AGG_RDMA_MAX_PAYLOAD : g.max_push);
	if (!ret && c->rdma && c->rmsg_len != AGG_HDR_SIZE + (size_t)h->len)
		ret = -AGG_EPROTO;	/* the SEND is not exactly one message */
	if (ret) {
		if (c->job)
			job_misbehaved(c, (unsigned int)-ret, "header");
		else
			fail_conn(c, (unsigned int)-ret, "header");
		return;
	}
	if (c->mig_link) {
		link_hdr(c);
		return;
	}
	switch (h->type) {
	case AGG_MSG_REGISTER:
	case AGG_MSG_MIGRATE:
	case AGG_MSG_IMPORT:
		if (h->type == AGG_MSG_MIGRATE && h->len != AGG_MIGRATE_SIZE) {
			fail_conn(c, AGG_ESIZE, "MIGRATE");
			return;
		}
		if (h->type == AGG_MSG_IMPORT && (c->job || c->import_job)) {
			fail_conn(c, AGG_ESTATE, "IMPORT");
			return;
		}
		c->body = malloc(h->len);
		if (!c->body) {
			fail_conn(c, AGG_ENOMEM, agg_msg_type_name(h->type));
			return;
		}
		rx_expect_body(c, c->body, h->len);
		return;
	case AGG_MSG_IMPORT_STATE: {
		void *buf = import_state_buf(c);

		if (buf)
			rx_expect_body(c, buf, h->len);
		return;
	}
	case AGG_MSG_IMPORT_COMMIT:
		if (!c->import_job || h->len != c->import_job->spec.n_workers) {
			fail_conn(c, c->import_job ? AGG_ESIZE : AGG_ESTATE,
				  "IMPORT_COMMIT");
			return;
		}
		c->body = malloc(h->len);
		if (!c->body) {
			fail_conn(c, AGG_ENOMEM, "IMPORT_COMMIT");
			return;
		}
		rx_expect_body(c, c->body, h->len);
		return;
	case AGG_MSG_STATS:
		handle_stats(c);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_PUSH:
		if (c->redirected && !c->job) {
			sink_push(c);	/* sent before it read the REDIRECT */
			return;
		}
		part = job_part(c, "PUSH");
		if (!part)
			return;
		if (c->job->failed) {
			if (c->rdma) {
				/* whole message already here: drop it, the
				 * worker's next PULL gets EJOBFAIL */
				rx_expect_hdr(c);
				return;
			}
			fail_conn(c, AGG_EJOBFAIL, c->job->fail_msg);
			return;
		}
		if (h->len != part->bytes) {
			job_misbehaved(c, AGG_ESIZE, "PUSH");
			return;
		}
		if (c->job->migrating && h->iter >= c->job->mig_barrier) {
			/* repeated at the target after the REDIRECT */
			sink_push(c);
			return;
		}
		ret = agg_part_push_check(part, c->rank, h->iter);
		if (ret) {
			job_misbehaved(c, (unsigned int)-ret, "PUSH");
			return;
		}
		rx_expect_body(c, agg_part_push_buf(part, c->rank), h->len);
		return;
	case AGG_MSG_SET_WEIGHTS:
		if (c->redirected && !c->job) {
			sink_push(c);
			return;
		}
		part = job_part(c, "SET_WEIGHTS");
		if (!part)
			return;
		if (h->len != part->bytes) {
			job_misbehaved(c, AGG_ESIZE, "SET_WEIGHTS");
			return;
		}
		ret = agg_part_weights_check(c->job, part, c->rank);
		if (ret) {
			job_misbehaved(c, (unsigned int)-ret, "SET_WEIGHTS");
			return;
		}
		rx_expect_body(c, part->out, h->len);
		return;
	case AGG_MSG_PULL:
		if (c->redirected && !c->job) {
			rx_expect_hdr(c);	/* the REDIRECT is on its way */
			return;
		}
		part = job_part(c, "PULL");
		if (!part)
			return;
		if (c->job->failed) {
			send_error(c, AGG_EJOBFAIL, h->part, h->iter, "job '%s' failed: %s",
				   c->job->spec.name, c->job->fail_msg);
			rx_expect_hdr(c);
			return;
		}
		if (c->job->migrating && h->iter >= c->job->mig_barrier) {
			/* held: answered by the REDIRECT once the job moved */
			rx_expect_hdr(c);
			return;
		}
		ret = agg_part_pull_check(part, c->rank, h->iter);
		if (ret < 0) {
			job_misbehaved(c, (unsigned int)-ret, "PULL");
			return;
		}
		c->job->pulls++;
		if (ret == 0)
			queue_pull_reply(c, part);
		else
			job_check_departed(c->job, part, h->iter);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_LEAVE:
		if (c->job) {
			c->left = true;
			c->job->rank_left[c->rank] = AGG_RANK_LEFT;
		}
		conn_close(c, NULL);
		return;
	default:
		fail_conn(c, AGG_EPROTO, "unexpected message type");
		return;
	}
}

static void handle_body(struct conn *c)
{
	struct agg_hdr *h = &c->hdr;
	struct agg_job *job = c->job;
	struct agg_part *part;

	if (c->sinking) {
		c->sinking = false;
		rx_expect_hdr(c);
		return;
	}
	if (c->mig_link) {
		/* an ERROR from the target */
		c->body[h->len] = '\0';
		mig_fail(c->mig_link, h->status ? h->status : AGG_EPROTO,
			 "the target refused: %s", (char *)c->body);
		return;
	}
	switch (h->type) {
	case AGG_MSG_REGISTER:
		handle_register(c);
		return;
	case AGG_MSG_MIGRATE:
		handle_migrate(c);
		return;
	case AGG_MSG_IMPORT:
		handle_import(c);
		return;
	case AGG_MSG_IMPORT_STATE:
		rx_expect_hdr(c);
		return;
	case AGG_MSG_IMPORT_COMMIT:
		handle_import_commit(c);
		return;
	case AGG_MSG_PUSH:
		if (!job) {
			/* cannot happen: a job moves only with no push under way */
			conn_close(c, "internal: push payload without a job");
			return;
		}
		part = &job->parts[h->part];
		job->pushes++;
		job->bytes_in += h->len;
		if (job->failed || job_check_departed(job, part, h->iter)) {
			rx_expect_hdr(c);
			return;
		}
		if (agg_part_push_done(part, job->spec.n_workers, c->rank, h->iter))
			submit_reduce(job, part);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_SET_WEIGHTS:
		if (!job) {
			conn_close(c, "internal: weights payload without a job");
			return;
		}
		job->parts[h->part].weights_set = true;
		rx_expect_hdr(c);
		return;
	default:
		conn_close(c, "internal: body for a message without one");
		return;
	}
}

static void on_recv(struct conn *c, int res)
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
	if (c->rx == RX_HDR)
		handle_hdr(c);
	else
		handle_body(c);
}

static void tx_complete(struct conn *c, struct txmsg *m)
{
	if (m->kind == TX_PULL)
		pull_reply_done(c, m->part);
	free(m->owned);
	free(m);
}

static void on_send(struct conn *c, int res)
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

/* ---- RDMA transport callbacks (agg_rdma.h) ---- */

static void *rdma_accepted(struct agg_rdma_conn *rc, const char *peer)
{
	struct conn *c = calloc(1, sizeof(*c));

	if (!c) {
		logmsg("%s: out of memory; rejected", peer);
		return NULL;
	}
	c->fd = -1;
	c->rdma = rc;
	c->id = ++g.next_conn_id;
	c->last_rx_ns = g.now_ns;
	c->rx = RX_HDR;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	c->next = g.conns;
	if (g.conns)
		g.conns->prev = c;
	g.conns = c;
	g.n_conns++;
	g.conns_total++;
	return c;
}

static void rdma_received(void *cookie, const uint8_t *msg, size_t len)
{
	struct conn *c = cookie;

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
	handle_hdr(c);
}

static void rdma_sent(void *cookie)
{
	struct conn *c = cookie;

	if (c->tx_head)
		on_send(c, (int)(AGG_HDR_SIZE + c->tx_head->len - c->tx_head->off));
}

static void rdma_failed(void *cookie, const char *why)
{
	conn_close(cookie, why);
}

static const struct agg_rdma_ops rdma_ops = {
	.accepted = rdma_accepted,
	.received = rdma_received,
	.sent = rdma_sent,
	.failed = rdma_failed,
};

static void rdma_arm(struct op *op, int fd)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data(sqe, op);
}

static void rdma_arm_cq(void)
{
	int fd = agg_rdma_cq_fd(g.rdma);

	if (fd >= 0 && !g.rdma_cq_armed) {
		rdma_arm(&g.rdma_cq_op, fd);
		g.rdma_cq_armed = true;
	}
}

/*
 * The CQ still holds completions after a budgeted batch: come back after the
 * other events of this loop turn, through a NOP (no channel event would
 * come for completions already queued).
 */
static void rdma_cq_again(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data(sqe, &g.rdma_cq_op);
	g.rdma_cq_armed = true;
}

static void accept_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_accept(sqe, g.listen_fd, NULL, NULL, SOCK_CLOEXEC);
	io_uring_sqe_set_data(sqe, &g.accept_op);
}

static void on_accept(int res)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct conn *c;
	int one = 1;

	accept_post();
	if (res < 0) {
		logmsg("accept: %s", strerror(-res));
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		logmsg("accept: out of memory; dropping connection");
		close(res);
		return;
	}
	c->fd = res;
	c->id = ++g.next_conn_id;
	c->last_rx_ns = g.now_ns;
	c->rx_op.kind = OP_RECV;
	c->rx_op.conn = c;
	c->tx_op.kind = OP_SEND;
	c->tx_op.conn = c;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (!getpeername(c->fd, (struct sockaddr *)&ss, &sl) &&
	    ss.ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(c->peer, sizeof(c->peer), "%s:%u", ip,
			 ntohs(sin->sin_port));
	} else {
		snprintf(c->peer, sizeof(c->peer), "?");
	}
	c->next = g.conns;
	if (g.conns)
		g.conns->prev = c;
	g.conns = c;
	g.n_conns++;
	g.conns_total++;
	rx_expect_hdr(c);
}

static void event_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_read(sqe, g.event_fd, &g.event_buf, sizeof(g.event_buf), 0);
	io_uring_sqe_set_data(sqe, &g.event_op);
}

static void on_signal(int sig)
{
	(void)sig;
	g.stop = 1;
}

static int listen_on(const char *addr, unsigned int port, const char *port_file)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	int fd, one = 1;

	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		logmsg("bad listen address '%s'", addr);
		return -1;
	}
	sin.sin_port = htons((uint16_t)port);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		logmsg("socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, 256)) {
		logmsg("listen on %s:%u: %s", addr, port, strerror(errno));
		close(fd);
		return -1;
	}
	getsockname(fd, (struct sockaddr *)&sin, &sl);
	logmsg("listening on %s:%u", addr, ntohs(sin.sin_port));
	if (port_file) {
		FILE *f = fopen(port_file, "w");

		if (!f || fprintf(f, "%u\n", ntohs(sin.sin_port)) < 0 ||
		    fclose(f)) {
			logmsg("cannot write port file %s: %s", port_file,
			       strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spare-aggd [options]\n"
"  -a, --addr ADDR         listen address (default 0.0.0.0)\n"
"  -p, --port PORT         TCP port (default %u; 0 picks one)\n"
"      --port-file FILE    write the bound port to FILE\n"
"  -P, --policy NAME       fifo | wfs | las (default wfs)\n"
"      --min-cores N       pool threads always awake (default 1)\n"
"      --max-cores N       pool threads at most (default: online CPUs)\n"
"      --tick-ms MS        controller period (default 100)\n"
"      --first-core N      pin pool thread i to core (N + i) mod CPUs (default 0)\n"
"      --rdma ADDR         also serve RDMA (rdma_cm) on ADDR, same port number\n"
"      --cores-log FILE    append 't_ms active busy queued' every tick\n"
"      --max-mem MIB       memory for all jobs (default 4096)\n"
"      --max-job-mem MIB   memory for one job (default 1024)\n"
"      --max-part-mib MIB  largest partition payload (default 16)\n"
"      --idle-timeout SEC  reclaim a job none of whose workers moved a byte\n"
"                          for SEC seconds, and close a silent connection\n"
"                          without a job; 0 never (default 600)\n",
		AGG_DEFAULT_PORT);
}

/* Orderly exit: stop the pool, then free every connection and job. */
static void shutdown_all(void)
{
	struct agg_task *t = agg_pool_stop(g.pool);

	g.pool = NULL;
	while (t) {
		struct agg_task *next = t->next;

		free(t->ctx);
		t = next;
	}
	io_uring_queue_exit(&g.ring);	/* cancels every pending operation */
	for (struct conn *c = g.conns; c; c = c->next)
		if (c->mig_link)
			c->mig_link->state = MIG_DONE;
	while (g.conns) {
		struct conn *c = g.conns;

		c->closing = true;
		c->rx_busy = c->tx_busy = false;
		c->left = true;		/* exiting is not the worker's fault */
		conn_destroy(c);
	}
	while (g.jobs) {
		struct job_entry *e = g.jobs;

		g.jobs = e->next;
		agg_job_free(e->job);
		free(e);
	}
	while (g.moved) {
		struct moved_job *m = g.moved;

		g.moved = m->next;
		free(m);
	}
	free(g.sink);
	agg_rdma_stop(g.rdma);
	g.rdma = NULL;
	close(g.listen_fd);
	close(g.event_fd);
	if (g.cores_log)
		fclose(g.cores_log);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "port-file", required_argument, NULL, 'F' },
		{ "policy", required_argument, NULL, 'P' },
		{ "min-cores", required_argument, NULL, 'm' },
		{ "max-cores", required_argument, NULL, 'M' },
		{ "tick-ms", required_argument, NULL, 't' },
		{ "first-core", required_argument, NULL, 'c' },
		{ "rdma", required_argument, NULL, 'R' },
		{ "cores-log", required_argument, NULL, 'L' },
		{ "max-mem", required_argument, NULL, 'x' },
		{ "max-job-mem", required_argument, NULL, 'j' },
		{ "max-part-mib", required_argument, NULL, 'k' },
		{ "idle-timeout", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct agg_pool_opts po = {
		.policy = AGG_POLICY_WFS,
		.min_cores = 1,
		.tick_ms = 100,
	};
	const char *addr = "0.0.0.0", *port_file = NULL, *cores_log = NULL;
	const char *rdma_addr = NULL;
	unsigned long port = AGG_DEFAULT_PORT, max_mem = 4096, job_mem = 1024;
	unsigned long part_mib = 16;
	double idle_s = 600;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct sigaction sa = { .sa_handler = on_signal };
	int opt;

	po.max_cores = ncpu > 0 ? (unsigned int)ncpu : 1;
	while ((opt = getopt_long(argc, argv, "a:p:P:h", lopts, NULL)) != -1) {
		char *end = NULL;
		unsigned long v = 0;

		if (opt == 'I') {
			errno = 0;
			idle_s = strtod(optarg, &end);
			if (errno || !*optarg || *end || !(idle_s >= 0) ||
			    idle_s > 1e7) {
				fprintf(stderr, "spare-aggd: bad --idle-timeout '%s'\n",
					optarg);
				return 2;
			}
			continue;
		}
		if (optarg && opt != 'a' && opt != 'F' && opt != 'P' && opt != 'L' &&
		    opt != 'R') {
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || !*optarg || *end) {
				fprintf(stderr, "spare-aggd: bad number '%s'\n", optarg);
				return 2;
			}
		}
		switch (opt) {
		case 'a': addr = optarg; break;
		case 'p': port = v; break;
		case 'F': port_file = optarg; break;
		case 'P':
			if (agg_policy_parse(optarg, &po.policy)) {
				fprintf(stderr, "spare-aggd: unknown policy '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm': po.min_cores = (unsigned int)v; break;
		case 'M': po.max_cores = (unsigned int)v; break;
		case 't': po.tick_ms = (unsigned int)v; break;
		case 'c': po.first_core = (unsigned int)v; break;
		case 'R': rdma_addr = optarg; break;
		case 'L': cores_log = optarg; break;
		case 'x': max_mem = v; break;
		case 'j': job_mem = v; break;
		case 'k': part_mib = v; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (port > 65535 || !po.min_cores || po.max_cores < po.min_cores ||
	    po.max_cores > 1024 || !po.tick_ms || !part_mib || part_mib > 64 ||
	    !max_mem || !job_mem) {
		fprintf(stderr, "spare-aggd: option out of range\n");
		usage(stderr);
		return 2;
	}
	g.mem_max = (size_t)max_mem << 20;
	g.job_mem_max = (size_t)job_mem << 20;
	g.max_push = (uint32_t)(part_mib << 20);
	g.idle_ns = (uint64_t)(idle_s * 1e9);
	{
		/* tick a quarter of the timeout, 10 ms..1 s */
		uint64_t tick = g.idle_ns ? g.idle_ns / 4 : 1000000000ULL;

		if (tick < 10000000ULL)
			tick = 10000000ULL;
		if (tick > 1000000000ULL)
			tick = 1000000000ULL;
		g.timer_ts.tv_sec = (long long)(tick / 1000000000ULL);
		g.timer_ts.tv_nsec = (long long)(tick % 1000000000ULL);
	}
	g.now_ns = mono_ns();
	if (cores_log) {
		po.log = g.cores_log = fopen(cores_log, "a");
		if (!po.log) {
			logmsg("cannot open %s: %s", cores_log, strerror(errno));
			return 1;
		}
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	g.listen_fd = listen_on(addr, (unsigned int)port, port_file);
	if (g.listen_fd < 0)
		return 1;
	g.event_fd = eventfd(0, EFD_CLOEXEC);
	if (g.event_fd < 0) {
		logmsg("eventfd: %s", strerror(errno));
		return 1;
	}
	opt = io_uring_queue_init(RING_DEPTH, &g.ring, 0);
	if (opt < 0) {
		logmsg("io_uring_queue_init: %s", strerror(-opt));
		return 1;
	}
	g.pool = agg_pool_start(&po, pool_run, g.event_fd);
	if (!g.pool) {
		logmsg("cannot start the pool: %s", strerror(errno));
		return 1;
	}
	logmsg("pool: %u..%u cores, policy %s, kernels %s", po.min_cores,
	       po.max_cores, agg_policy_name(po.policy),
	       agg_isa_name(agg_isa_selected()));
	if (g.idle_ns)
		logmsg("idle timeout %.3f s", idle_s);
	else
		logmsg("idle timeout off");
	g.accept_op.kind = OP_ACCEPT;
	g.event_op.kind = OP_EVENT;
	g.timer_op.kind = OP_TIMER;
	accept_post();
	event_post();
	timer_post();
	if (rdma_addr) {
		struct sockaddr_in sin;
		socklen_t sl = sizeof(sin);

		getsockname(g.listen_fd, (struct sockaddr *)&sin, &sl);
		g.rdma = agg_rdma_listen(rdma_addr, ntohs(sin.sin_port), &rdma_ops);
		if (!g.rdma) {
			shutdown_all();
			return 1;
		}
		g.rdma_cm_op.kind = OP_RDMA_CM;
		g.rdma_cq_op.kind = OP_RDMA_CQ;
		rdma_arm(&g.rdma_cm_op, agg_rdma_cm_fd(g.rdma));
	}

	while (!g.stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		bool timer = false;
		int ret = io_uring_submit_and_wait(&g.ring, 1);

		if (ret < 0 && ret != -EINTR) {
			logmsg("io_uring_submit_and_wait: %s", strerror(-ret));
			break;
		}
		g.now_ns = mono_ns();
		io_uring_for_each_cqe(&g.ring, head, cqe) {
			struct op *op = io_uring_cqe_get_data(cqe);
			int res = cqe->res;

			seen++;
			switch (op->kind) {
			case OP_TIMER:
				/* after the batch: if the loop was held up, the
				 * activity that came meanwhile counts first */
				timer = true;
				break;
			case OP_CONNECT:
				on_connect(op->conn, res);
				break;
			case OP_ACCEPT:
				on_accept(res);
				break;
			case OP_EVENT:
				handle_done_tasks();
				event_post();
				break;
			case OP_RECV:
				on_recv(op->conn, res);
				break;
			case OP_SEND:
				on_send(op->conn, res);
				break;
			case OP_RDMA_CM:
				agg_rdma_cm_event(g.rdma);
				rdma_arm(&g.rdma_cm_op, agg_rdma_cm_fd(g.rdma));
				rdma_arm_cq();
				break;
			case OP_RDMA_CQ:
				g.rdma_cq_armed = false;
				if (agg_rdma_cq_event(g.rdma))
					rdma_cq_again();
				else
					rdma_arm_cq();
				break;
			}
		}
		io_uring_cq_advance(&g.ring, seen);
		if (timer)
			on_timer();
	}
	logmsg("stopping: %u connections, %llu jobs created, %llu failed",
	       g.n_conns, (unsigned long long)g.jobs_created,
	       (unsigned long long)g.jobs_failed);
	shutdown_all();
	return 0;
}
