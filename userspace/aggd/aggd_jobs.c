// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd's jobs (aggd_jobs.h): the job table and memory budget, the
 * reductions handed to the pool, pull replies, failing a job, the record
 * of jobs that moved away.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggd_jobs.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "agg_rdma.h"
#include "spare_log.h"
#include "spare_util.h"

struct reduce_task {
	struct agg_task task;
	struct agg_job *job;
	struct agg_part *part;
};

static const struct job_mig_ops *mig_hooks;

void jobs_set_mig_ops(const struct job_mig_ops *ops)
{
	mig_hooks = ops;
}

static const struct job_report_ops *report_ops;

void jobs_set_report_ops(const struct job_report_ops *ops)
{
	report_ops = ops;
}

bool agg_token_equal(const char *a, const char *b)
{
	/* every byte compared: no early exit on the first mismatch */
	return sodium_memcmp(a, b, AGG_TOKEN_LEN + 1) == 0;
}

struct job_entry *job_find(const char *tenant, const char *name)
{
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (!e->dead && !strcmp(e->job->spec.name, name) &&
		    !strcmp(e->tenant, tenant))
			return e;
	return NULL;
}

struct job_entry *job_find_authed(const char *tenant, const char *name,
				  const char *token)
{
	static const char none[AGG_TOKEN_LEN + 1];
	struct job_entry *e = job_find(tenant, name);
	/* a token is compared either way: the answer takes as long */
	bool ok = agg_token_equal(token, e ? e->job->spec.token : none);

	return e && ok ? e : NULL;
}

struct job_entry *job_entry_of(struct agg_job *job)
{
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (e->job == job)
			return e;
	return NULL;
}

/* Ranks first..end-1 of the partition are folded: their receive slots go back. */
static void return_loans(struct agg_part *part, unsigned int first,
			 unsigned int end)
{
	for (unsigned int r = first; r < end; r++) {
		struct agg_rdma_loan *l = agg_part_take_loan(part, r);

		if (l)
			agg_rdma_loan_return(l);
	}
}

/* Before the job's buffers go: pushes never folded give their slots back. */
static void job_return_loans(struct agg_job *job)
{
	for (uint32_t i = 0; i < job->spec.n_parts; i++)
		return_loans(&job->parts[i], 0, job->spec.n_workers);
}

/* Free a job whose memory nothing reads any more (inflight 0). */
static void job_free(struct agg_job *job)
{
	if (job && job->out_reg) {
		agg_rdma_region_dereg(job->out_reg);
		job->out_reg = NULL;
	}
	agg_job_free(job);
}

static void job_free_off_loop(struct agg_job *job);

void job_maybe_free(struct job_entry *e)
{
	struct job_entry **pp;

	/* a reduction, a reply sent in place, a migration link or the
	 * registration of its outputs may still read its buffers */
	if (!e->dead || e->job->inflight || e->job->mig || e->job->out_reg_busy ||
	    e->job->creating)
		return;
	for (pp = &g.jobs; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	g.mem_used -= e->job->mem_bytes;
	log_info("job %u '%s' freed (%zu bytes)", e->job->id, e->job->spec.name,
		 e->job->mem_bytes);
	job_return_loans(e->job);
	job_free_off_loop(e->job);
	free(e);
}

void job_pin(struct agg_job *job, uint32_t part, bool pinned)
{
	struct job_entry *e;

	if (pinned) {
		job->inflight++;
		job->parts[part].sending++;
		return;
	}
	job->parts[part].sending--;
	job->inflight--;
	e = job_entry_of(job);
	if (e)
		job_maybe_free(e);
}

/*
 * Helper threads: work that would hold the event loop for milliseconds to
 * seconds runs off it, one detached thread per item, signals blocked
 * (they stay with the loop's thread). Four kinds: a job's buffers made
 * (create_work), its outputs registered for RDMA (out_reg_work), a large
 * job's buffers freed (free_work), an RDMA worker connection set up
 * (offload_work, for agg_rdma.c). An item's run() runs on its thread;
 * then the item goes on helper_done and the loop learns of it through the
 * eventfd: handle_done_regs() calls each item's done() there, in the
 * order they finished, and done() frees the item. helper_running counts
 * threads started and not ended: jobs_wait_regs() and jobs_free_all()
 * wait for none to be left. With no thread to be had, run() runs on the
 * loop at once and done() follows at the next drain, as for a thread.
 */
struct helper_work {
	struct helper_work *next;
	void (*run)(struct helper_work *w);	/* off the loop */
	/* on the loop, after run(); frees the item. @exiting: from
	 * jobs_free_all(), which frees every job itself afterwards */
	void (*done)(struct helper_work *w, bool exiting);
};

static pthread_mutex_t helper_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cond = PTHREAD_COND_INITIALIZER;
/* finished items for the loop, oldest first */
static struct helper_work *helper_done, **helper_done_tail = &helper_done;
static unsigned int helper_running;

/* run(), then hand the item to the loop and wake it. */
static void helper_exec(struct helper_work *w)
{
	uint64_t one = 1;

	w->run(w);
	w->next = NULL;
	pthread_mutex_lock(&helper_lock);
	*helper_done_tail = w;		/* the loop's from now on */
	helper_done_tail = &w->next;
	pthread_mutex_unlock(&helper_lock);
	/* an eventfd write only fails on counter overflow (or, in the tests'
	 * harness, on no eventfd: they wait with jobs_wait_regs) */
	if (write(g.event_fd, &one, sizeof(one)) < 0)
		(void)0;
}

static void *helper_thread(void *arg)
{
	helper_exec(arg);
	/* last: after it, jobs_wait_regs() may let the daemon close the
	 * eventfd and the RDMA device */
	pthread_mutex_lock(&helper_lock);
	helper_running--;
	pthread_cond_broadcast(&helper_cond);
	pthread_mutex_unlock(&helper_lock);
	return NULL;
}

/* Run @w off the loop. 0, or the errno of having no thread: then it has
 * run here, now (the caller may say so). */
static int helper_submit(struct helper_work *w)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t tid;
	int err;

	pthread_mutex_lock(&helper_lock);
	helper_running++;
	pthread_mutex_unlock(&helper_lock);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_attr_init(&attr);
	if (!err) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&tid, &attr, helper_thread, w);
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pthread_mutex_lock(&helper_lock);
		helper_running--;
		pthread_mutex_unlock(&helper_lock);
		helper_exec(w);
	}
	return err;
}

/* Take the finished items' results (on the loop). */
static void helper_drain(bool exiting)
{
	struct helper_work *w;

	pthread_mutex_lock(&helper_lock);
	w = helper_done;
	helper_done = NULL;
	helper_done_tail = &helper_done;
	pthread_mutex_unlock(&helper_lock);
	while (w) {
		struct helper_work *next = w->next;

		w->done(w, exiting);
		w = next;
	}
}

void handle_done_regs(void)
{
	helper_drain(false);
}

/* Until no helper thread is left (their items are then on helper_done). */
static void helper_wait_all(void)
{
	pthread_mutex_lock(&helper_lock);
	while (helper_running)
		pthread_cond_wait(&helper_cond, &helper_lock);
	pthread_mutex_unlock(&helper_lock);
}

/*
 * A job's outputs registered off the event loop: pinning a large job's
 * outputs takes milliseconds to seconds, which no other job's traffic
 * waits for. One item per registration (a job registers once). Until
 * out_reg_done() takes the result the job's replies are copied, and the
 * job stays allocated (out_reg_busy holds job_maybe_free).
 */
struct out_reg_work {
	struct helper_work hw;
	struct agg_job *job;
	struct agg_rdma_srv *srv;
	void *buf;
	size_t len;
	struct agg_rdma_region *region;	/* the result, or NULL */
	int err;			/* errno when NULL */
	uint64_t start_ns, took_ns;
};

static void out_reg_run(struct helper_work *hw)
{
	struct out_reg_work *w = (struct out_reg_work *)hw;

	w->region = agg_rdma_region_reg(w->srv, w->buf, w->len);
	w->err = w->region ? 0 : errno;
	w->took_ns = spare_now_ns() - w->start_ns;
}

static void out_reg_failed(struct agg_job *job, int err)
{
	job->out_reg_failed = true;
	g.rdma_output_reg_failed++;
	log_warn("job %u '%s': cannot register its %zu bytes of partition outputs for RDMA: %s; its RDMA pull replies are copied into the send buffer (raise RLIMIT_MEMLOCK, systemd's LimitMEMLOCK=, to send them in place)",
		 job->id, job->spec.name, job->out_region_bytes, strerror(err));
}

/*
 * A registration that ended: a live job's replies go in place from now on
 * (or stay copied, counted once, if it failed); a retired job's is dropped
 * and the job freed if nothing else reads it.
 */
static void out_reg_done(struct helper_work *hw, bool exiting)
{
	struct out_reg_work *w = (struct out_reg_work *)hw;
	struct agg_job *job = w->job;
	struct job_entry *e = job_entry_of(job);

	job->out_reg_busy = false;
	g.rdma_output_regs_running--;
	if (e && e->dead) {
		if (w->region)
			agg_rdma_region_dereg(w->region);
	} else if (w->region) {
		job->out_reg = w->region;
		log_info("job %u '%s': its %zu bytes of partition outputs registered for RDMA in %" PRIu64 " ms (off the event loop); its pull replies are sent in place",
			 job->id, job->spec.name, job->out_region_bytes,
			 w->took_ns / 1000000);
	} else {
		out_reg_failed(job, w->err);
	}
	free(w);
	if (e && !exiting)
		job_maybe_free(e);
}

void job_register_output(struct conn *c)
{
	struct agg_job *job = c->job;
	struct out_reg_work *w;
	int err;

	if (!c->rdma || !job || job->out_reg || job->out_reg_failed ||
	    job->out_reg_busy || job->creating)
		return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		out_reg_failed(job, ENOMEM);
		return;
	}
	w->hw.run = out_reg_run;
	w->hw.done = out_reg_done;
	w->job = job;
	w->srv = g.rdma;	/* every RDMA connection's listener and PD */
	w->buf = job->out_region;
	w->len = job->out_region_bytes;
	w->start_ns = spare_now_ns();
	job->out_reg_busy = true;
	g.rdma_output_regs_running++;
	err = helper_submit(&w->hw);
	if (err)
		log_warn("job %u '%s': no thread to register its outputs for RDMA (%s): registered them on the event loop",
			 job->id, job->spec.name, strerror(err));
}

/*
 * Creating a job off the event loop. The shell (agg_job_create_shell: spec,
 * per-rank arrays) is made on the loop and the job is in the table at
 * once, so that its other ranks find it; its buffers (agg_job_alloc_bufs:
 * one mapping, its pages faulted in, 3 x the job's size and more) are
 * made on a helper thread, which no other job's traffic waits for. Until
 * create_done() takes the result, job->creating is set: its
 * REGISTERs are not answered (c->reg_pending; their connections' further
 * requests held, conn_hold), an IMPORT is not answered, MIGRATE is
 * refused, and job_maybe_free() keeps the job. A job retired meanwhile
 * (every rank gone) tells the thread to stop (create_cancel) and is freed
 * when it has. Freeing a job's buffers and its registration goes to a
 * helper thread too (job_free_off_loop), once the job is out of the table.
 *
 * Test hooks, in the sanitizer build only (SPARE_TEST_HOOKS: the tests'
 * spare-aggd-san and unit tests; tests/agg/run agg-create-*,
 * test_aggd_create): SPARE_AGGD_TEST_CREATE_GATE=PATH
 * makes the creation of the job named $SPARE_AGGD_TEST_CREATE_JOB write
 * PATH.wait and wait until PATH exists (or it is cancelled) before
 * allocating; SPARE_AGGD_TEST_CREATE_FAIL=1 makes each creation fail as
 * if out of memory.
 */
struct create_work {
	struct helper_work hw;
	struct agg_job *job;
	int err;			/* 0, -ENOMEM or -ECANCELED */
	uint64_t start_ns, took_ns;
	bool fail_hook;
	char *gate;			/* test hook, or NULL */
};

static const struct job_create_ops *create_ops;

void jobs_set_create_ops(const struct job_create_ops *ops)
{
	create_ops = ops;
}

/* The test hook's gate: 0 once PATH exists, -ECANCELED if cancelled. */
static int create_gate(const char *gate, const int *cancel)
{
	char wait_path[4200];
	int fd;

	snprintf(wait_path, sizeof(wait_path), "%s.wait", gate);
	fd = open(wait_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	while (access(gate, F_OK)) {
		if (__atomic_load_n(cancel, __ATOMIC_ACQUIRE))
			return -ECANCELED;
		usleep(10000);
	}
	return 0;
}

static void create_run(struct helper_work *hw)
{
	struct create_work *w = (struct create_work *)hw;
	struct agg_job *job = w->job;

	w->err = w->gate ? create_gate(w->gate, &job->create_cancel) : 0;
	if (!w->err)
		w->err = w->fail_hook ? -ENOMEM :
			 agg_job_alloc_bufs(job, &job->create_cancel);
	w->took_ns = spare_now_ns() - w->start_ns;
}

static void create_done(struct helper_work *hw, bool exiting);

/* Start making @job's buffers; job->creating until create_done().
 * -1 if there is no memory even for that. */
static int create_start(struct agg_job *job)
{
	struct create_work *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -1;
	w->hw.run = create_run;
	w->hw.done = create_done;
	job->creating = true;
	w->job = job;
	w->start_ns = spare_now_ns();
#ifdef SPARE_TEST_HOOKS
	{
		const char *gate = getenv("SPARE_AGGD_TEST_CREATE_GATE");
		const char *gated = getenv("SPARE_AGGD_TEST_CREATE_JOB");
		const char *fail = getenv("SPARE_AGGD_TEST_CREATE_FAIL");

		w->fail_hook = fail && !strcmp(fail, "1");
		w->gate = gate && *gate && gated &&
			  !strcmp(gated, job->spec.name) ? strdup(gate) : NULL;
	}
#endif
	err = helper_submit(&w->hw);
	if (err)
		log_warn("job %u '%s': no thread to allocate its buffers (%s): allocated them on the event loop",
			 job->id, job->spec.name, strerror(err));
	return 0;
}

void job_send_reg_wait(struct conn *c)
{
	struct agg_job *job = c->job;
	uint8_t *body = malloc(AGG_REG_WAIT_SIZE);
	struct agg_hdr h;

	if (!body) {
		conn_close(c, "out of memory");
		return;
	}
	agg_reg_wait_encode(__atomic_load_n(&job->create_made, __ATOMIC_RELAXED),
			    job->arena_bytes, body);
	agg_hdr_init(&h, AGG_MSG_REGISTER_WAIT, AGG_REG_WAIT_SIZE);
	h.job_id = job->id;
	h.rank = c->rank;
	c->reg_wait_ns = g.now_ns;
	tx_send(c, &h, body, AGG_REG_WAIT_SIZE, body);
}

void jobs_reg_wait_tick(void)
{
	/* the timer ticks at least every second: every tick at most half
	 * an interval after the last one sends again */
	const uint64_t again_ns = AGG_REG_WAIT_INTERVAL_MS * 1000000ULL / 2;

	for (struct job_entry *e = g.jobs; e; e = e->next) {
		struct agg_job *job = e->job;

		if (e->dead || !job->creating)
			continue;	/* a creating job stays in the table */
		for (unsigned int r = 0; r < job->spec.n_workers; r++) {
			struct conn *c = job->rank_conn[r];

			if (c && c->reg_pending && c->reg_wait && !c->closing &&
			    g.now_ns - c->reg_wait_ns >= again_ns)
				job_send_reg_wait(c);
		}
	}
}

/* Close the job's waiting connections with @status and let the job go. */
static void create_failed(struct job_entry *e)
{
	struct agg_job *job = e->job;
	struct conn *now[AGG_MAX_WORKERS];
	unsigned int n = 0;

	for (unsigned int r = 0; r < job->spec.n_workers; r++)
		if (job->rank_conn[r])
			now[n++] = job->rank_conn[r];
	if (create_ops && job->importing)
		create_ops->created(e, -ENOMEM);	/* may retire it */
	if (!n) {
		if (!e->dead)
			job_retire(e);
		else
			job_maybe_free(e);
		return;
	}
	/* the last detach retires the job, and frees it */
	for (unsigned int i = 0; i < n; i++) {
		struct conn *c = now[i];
		bool pending = c->reg_pending;

		c->reg_pending = false;
		conn_detach(c);
		if (pending)
			fail_conn(c, AGG_ENOMEM, "REGISTER");
		else
			conn_close(c, "its job could not be created");
	}
}

/* The buffers are ready: answer the job's REGISTERs (or its IMPORT). */
static void create_ready(struct job_entry *e, uint64_t took_ns)
{
	struct agg_job *job = e->job;

	job->last_active_ns = g.now_ns;
	log_info("job %u '%s'%s%s created: %u workers, %u tensors, %u partitions, %s, %zu bytes (allocated in %" PRIu64 " ms, off the event loop)",
		 job->id, job->spec.name, e->tenant[0] ? " of tenant " : "",
		 e->tenant, job->spec.n_workers, job->spec.n_tensors,
		 job->spec.n_parts, agg_dtype_name(job->spec.dtype),
		 job->mem_bytes, took_ns / 1000000);
	/* a held request replayed may close a connection and retire the job */
	job->inflight++;
	if (create_ops && job->importing)
		create_ops->created(e, 0);
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (!c || !c->reg_pending)
			continue;
		c->reg_pending = false;
		if (c->closing)
			continue;
		job_register_reply(c);
		conn_release(c);	/* what it sent meanwhile, in order */
	}
	job->inflight--;
	e = job_entry_of(job);
	if (e)
		job_maybe_free(e);
}

/* A creation that ended: answer its REGISTERs, or fail them, or (every
 * worker gone) free the job; exiting, the job goes with the rest. */
static void create_done(struct helper_work *hw, bool exiting)
{
	struct create_work *w = (struct create_work *)hw;
	struct agg_job *job = w->job;
	struct job_entry *e = job_entry_of(job);

	job->creating = false;
	if (exiting || !e) {
		/* jobs_free_all() frees it */
	} else if (e->dead) {
		log_info("job %u '%s': its creation %s: every worker has gone",
			 job->id, job->spec.name, w->err == -ECANCELED ?
			 "stopped" : "ended");
		job_maybe_free(e);
	} else if (w->err) {
		log_warn("job %u '%s': cannot allocate its %zu bytes: %s",
			 job->id, job->spec.name, job->mem_bytes,
			 strerror(-w->err));
		create_failed(e);
	} else {
		create_ready(e, w->took_ns);
	}
	free(w->gate);
	free(w);
}

/* Freeing a job off the loop: its registration dropped, its buffers unmapped. */
struct free_work {
	struct helper_work hw;
	struct agg_job *job;
	size_t bytes;			/* its arena, for the metrics */
};

static void free_run(struct helper_work *hw)
{
	job_free(((struct free_work *)hw)->job);
}

static void free_done(struct helper_work *hw, bool exiting)
{
	g.jobs_freeing--;
	g.jobs_freeing_bytes -= ((struct free_work *)hw)->bytes;
	free(hw);
}

/* From this size a job's buffers are freed off the loop. */
#define JOB_FREE_OFF_LOOP_MIN	(8UL << 20)

static void job_free_off_loop(struct agg_job *job)
{
	struct free_work *w;

	/* a small job is not worth a thread: its munmap and deregistration
	 * take microseconds */
	if (job->arena_bytes < JOB_FREE_OFF_LOOP_MIN ||
	    !(w = calloc(1, sizeof(*w)))) {
		job_free(job);
		return;
	}
	w->hw.run = free_run;
	w->hw.done = free_done;
	w->job = job;
	w->bytes = job->arena_bytes;
	g.jobs_freeing++;
	g.jobs_freeing_bytes += w->bytes;
	helper_submit(&w->hw);
}

/*
 * Transport work off the loop (agg_rdma_ops.offload: an RDMA worker
 * connection's set-up): the caller's run() on a helper, its done() on the
 * loop, counted in g.rdma_setups_running meanwhile.
 */
struct offload_work {
	struct helper_work hw;
	void (*run)(void *arg);
	void (*done)(void *arg, bool exiting);
	void *arg;
};

static void offload_run(struct helper_work *hw)
{
	struct offload_work *w = (struct offload_work *)hw;

	w->run(w->arg);
}

static void offload_done(struct helper_work *hw, bool exiting)
{
	struct offload_work *w = (struct offload_work *)hw;

	g.rdma_setups_running--;
	w->done(w->arg, exiting);
	free(w);
}

int jobs_offload(void (*run)(void *arg), void (*done)(void *arg, bool exiting),
		 void *arg)
{
	struct offload_work *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	w->hw.run = offload_run;
	w->hw.done = offload_done;
	w->run = run;
	w->done = done;
	w->arg = arg;
	g.rdma_setups_running++;
	helper_submit(&w->hw);
	return 0;
}

void job_register_reply(struct conn *c)
{
	struct agg_job *job = c->job;
	struct agg_hdr h;
	struct txmsg *m;
	uint8_t *reply;

	job_register_output(c);
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
}

void jobs_wait_regs(void)
{
	helper_wait_all();
	helper_drain(false);
}

void job_drop_queued(struct agg_job *job)
{
	struct agg_task *t = agg_pool_remove_job(g.pool, job->id);

	while (t) {
		struct agg_task *next = t->next;

		job->inflight--;
		free(t->ctx);
		t = next;
	}
}

void job_retire(struct job_entry *e)
{
	e->dead = true;
	if (e->job->creating)	/* its buffers are not wanted any more */
		__atomic_store_n(&e->job->create_cancel, 1, __ATOMIC_RELEASE);
	if (report_ops)
		report_ops->changed();
	job_drop_queued(e->job);
	agg_pool_remove_job(g.pool, e->job->id);
	job_maybe_free(e);
}

void job_fail(struct agg_job *job, const char *fmt, ...)
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
	log_warn("job %u '%s' failed: %s", job->id, job->spec.name, msg);
	if (job->mig) {
		char why[200];

		snprintf(why, sizeof(why), "the job failed: %s", msg);
		mig_hooks->abort(job->mig, AGG_EJOBFAIL, why);
	}
	job_drop_queued(job);
	for (unsigned int r = 0; r < job->spec.n_workers; r++) {
		struct conn *c = job->rank_conn[r];

		if (c && !c->closing && !c->close_after_tx)
			send_error(c, AGG_EJOBFAIL, 0, 0, "job '%s' failed: %s",
				   job->spec.name, msg);
	}
}

/* The partition's sum is complete: count it and its tail. */
static void sum_done(struct agg_job *job, struct agg_part *part)
{
	uint64_t tail = spare_now_ns() - part->last_push_ns;

	job->reduces++;
	g.sum_tail_ns += tail;
	g.sum_tails++;
	if (tail > g.sum_tail_max_ns)
		g.sum_tail_max_ns = tail;
}

/* A fold's cost for the policies: its inputs, the running sum read and written. */
static uint64_t fold_cost(const struct agg_part *part)
{
	return (uint64_t)part->bytes * (part->fold_to - part->fold_from) +
	       2 * (uint64_t)part->bytes;
}

static void submit_reduce(struct agg_job *job, struct agg_part *part)
{
	struct reduce_task *rt = calloc(1, sizeof(*rt));

	if (!rt) {
		job_fail(job, "out of memory queueing partition %u", part->index);
		return;
	}
	rt->job = job;
	rt->part = part;
	rt->task.job = job->id;
	rt->task.cost = fold_cost(part);
	rt->task.ctx = rt;
	job->inflight++;
	if (agg_pool_submit(g.pool, &rt->task)) {
		job->inflight--;
		free(rt);
		job_fail(job, "scheduler does not know the job");
	}
}

void pool_run(struct agg_task *t)
{
	struct reduce_task *rt = t->ctx;

	agg_part_reduce(rt->job, rt->part);
}

/*
 * The partition's output has left for this rank (its send completed, over
 * TCP or RDMA, or its QP is gone): the rank has pulled it.
 */
void pull_reply_done(struct conn *c, uint32_t part_index)
{
	struct agg_job *job = c->job;
	struct agg_part *part;
	uint32_t before;
	int ret;

	if (!job || job->failed)
		return;
	part = &job->parts[part_index];
	before = part->iter;
	ret = agg_part_pull_done(part, job->spec.n_workers, c->rank);
	if (part->iter != before && part->state == AGG_PART_REDUCING)
		part->last_push_ns = spare_now_ns();	/* all came early */
	if (ret)
		fold_part(job, part);
	/* the last pull of barrier - 1 brought the partition to the barrier */
	if (job->migrating && part->iter != before &&
	    part->iter == job->mig_barrier) {
		job->mig_ready++;
		mig_hooks->progress(job->mig);
	}
}

void queue_pull_reply(struct conn *c, struct agg_part *part)
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
	if (c->rdma) {
		/* in place from the registered outputs, else copied */
		m->region = c->job->out_reg;
		if (m->region)
			g.rdma_replies_in_place++;
		else
			g.rdma_replies_copied++;
	}
	tx_queue(c, m);
}

/*
 * A fold of the partition is done (by the pool or here): the sum may be
 * complete, and pushes that came meanwhile make the next fold.
 */
static void fold_done(struct agg_job *job, struct agg_part *part)
{
	int more;

	job->last_active_ns = g.now_ns;
	return_loans(part, part->fold_from, part->fold_to);
	more = agg_part_reduced(part, job->spec.n_workers);
	if (part->state == AGG_PART_READY) {
		uint32_t iter = part->iter;

		sum_done(job, part);
		/*
		 * A reply's send can close its connection, which counts that
		 * pull (conn_close), and the last pull moves the partition on
		 * (pull_reply_done), which answers its own pulls: stop if
		 * that happened.
		 */
		for (unsigned int r = 0; r < job->spec.n_workers && !job->failed &&
		     part->iter == iter; r++) {
			struct conn *c = job->rank_conn[r];

			if (c && part->pull_pending[r] && !c->closing)
				queue_pull_reply(c, part);
		}
	}
	if (more && !job->failed)
		fold_part(job, part);	/* pushes came meanwhile */
}

void fold_part(struct agg_job *job, struct agg_part *part)
{
	struct job_entry *e;
	uint64_t t0, dt;

	/*
	 * Only the fold that completes the sum (the last push's, the tail)
	 * runs here; the folds before it are the pool's, under its policy.
	 */
	if (part->fold_to != job->spec.n_workers ||
	    !agg_pool_charge_if_idle(g.pool, job->id, fold_cost(part))) {
		submit_reduce(job, part);
		return;
	}
	/* a reply's send may close a connection and retire the job: keep it */
	job->inflight++;
	t0 = spare_now_ns();
	agg_part_reduce(job, part);
	dt = spare_now_ns() - t0;
	job->recv_folds++;
	job->recv_fold_ns += dt;
	g.recv_folds++;
	g.recv_fold_ns += dt;
	fold_done(job, part);
	job->inflight--;
	e = job_entry_of(job);
	if (e)
		job_maybe_free(e);
}

void handle_done_tasks(void)
{
	struct agg_task *t = agg_pool_take_done(g.pool);

	while (t) {
		struct agg_task *next = t->next;
		struct reduce_task *rt = t->ctx;
		struct agg_job *job = rt->job;
		struct job_entry *e = job_entry_of(job);

		fold_done(job, rt->part);
		job->inflight--;
		free(rt);
		if (e)
			job_maybe_free(e);
		t = next;
	}
}

void conn_detach(struct conn *c)
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
		mig_hooks->abort(job->mig, AGG_EJOBFAIL, "every worker of the job left");
	job_retire(e);
}

struct job_entry *job_new(struct conn *c, const char *tenant,
			  struct agg_job_spec *spec, const char *what)
{
	size_t need = agg_job_mem_need(spec);
	struct job_entry *e;
	struct agg_job *job;

	if (!need || need > g.job_mem_max || need > g.mem_max - g.mem_used) {
		log_warn("job '%s' needs %zu bytes: over budget (job max %zu, free %zu)",
			 spec->name, need, g.job_mem_max, g.mem_max - g.mem_used);
		fail_conn(c, AGG_ENOMEM, what);
		return NULL;
	}
	if (!tenant_may_create(c, tenant, spec, need, what))
		return NULL;
	e = calloc(1, sizeof(*e));
	job = e ? agg_job_create_shell(++g.next_job_id, spec) : NULL;
	if (job) {
		job_report_init(&e->rep);
		/* under FlowCon every job starts at an equal share's weight */
		e->rep.weight = report_ops ? report_ops->first_weight(job) : job->spec.weight;
	}
	if (!job || agg_pool_add_job(g.pool, job->id, e->rep.weight)) {
		job_free(job);
		free(e);
		fail_conn(c, AGG_ENOMEM, what);
		return NULL;
	}
	if (create_start(job)) {
		agg_pool_remove_job(g.pool, job->id);
		job_free(job);
		free(e);
		fail_conn(c, AGG_ENOMEM, what);
		return NULL;
	}
	e->job = job;
	snprintf(e->tenant, sizeof(e->tenant), "%s", tenant);
	if (report_ops)
		report_ops->changed();
	e->next = g.jobs;
	g.jobs = e;
	/* charged now: the memory is being taken */
	g.mem_used += job->mem_bytes;
	g.jobs_created++;
	job->last_active_ns = g.now_ns;
	log_info("job %u '%s'%s%s being created: its %zu bytes allocated off the event loop",
		 job->id, job->spec.name, tenant[0] ? " of tenant " : "", tenant,
		 job->mem_bytes);
	return e;
}

const struct moved_job *moved_find(const char *tenant, const char *name)
{
	for (const struct moved_job *m = g.moved; m; m = m->next)
		if (!strcmp(m->name, name) && !strcmp(m->tenant, tenant))
			return m;
	return NULL;
}

void moved_add(const struct job_entry *e, const struct agg_target *to,
	       uint32_t iter)
{
	struct moved_job *m = calloc(1, sizeof(*m)), **pp;
	const struct agg_job *job = e->job;

	if (!m)
		return;		/* only late REGISTERs would notice */
	memcpy(m->tenant, e->tenant, sizeof(m->tenant));
	snprintf(m->name, sizeof(m->name), "%s", job->spec.name);
	memcpy(m->token, job->spec.token, sizeof(m->token));
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

void send_redirect(struct conn *c, const struct agg_target *to, uint32_t iter)
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

void jobs_free_all(void)
{
	/* creations stop at their next step; helpers read their jobs */
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (e->job->creating)
			__atomic_store_n(&e->job->create_cancel, 1, __ATOMIC_RELEASE);
	helper_wait_all();
	helper_drain(true);
	while (g.jobs) {
		struct job_entry *e = g.jobs;

		g.jobs = e->next;
		job_return_loans(e->job);
		job_free(e->job);
		free(e);
	}
	while (g.moved) {
		struct moved_job *m = g.moved;

		g.moved = m->next;
		free(m);
	}
	free(g.sink);
	g.sink = NULL;
}
