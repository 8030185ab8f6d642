// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd host integration scenarios over TCP (driven by tests/agg/run).
 *
 *   spare-agg-itest [-h HOST] -p PORT [-R [-S SRC]] SCENARIO
 *
 * Scenarios: many, dead-worker, early-leave, bad-push, wrong-token,
 * optimizer, stats, idle (daemon with a short --idle-timeout), migrate
 * (two daemons: -p is the source, -q the target), rollback (-k: the
 * daemons' key file; moves to fake targets that die must roll back),
 * state-token, move-fallback, move-cut, move-kill, move-term and
 * move-srcterm (a move's RDMA state transfer and its failures), move-pause (a bench: a move's pause by state size),
 * move-bystander (another job keeps its rounds while a large job moves),
 * reg-stall (a bench: a bystander's rounds while a large job's outputs are
 * registered for RDMA).
 * -R: the workers of many, dead-worker, early-leave, optimizer, stats,
 * migrate and rollback connect over
 * RDMA (from source address SRC); bad-push and wrong-token always use raw
 * TCP sockets.
 * Each prints what it checks and exits 0 on success, 1 on failure. Every
 * socket has a receive/send timeout, so no scenario can hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "agg_proto.h"
#include "agg_state_rdma.h"
#include "agg_sum.h"
#include "spare_agg.h"

#include <sodium.h>

#define TIMEOUT_MS 20000

static const char *host = "127.0.0.1";
static const char *rdma_src;	/* with -R: RDMA from this source address */
static int use_rdma;
static unsigned int port, port2;
static const char *host2;	/* -H: the target daemon's address (else host) */

/* The address of the daemon on @p: the target's is -H's when given. */
static const char *host_of(unsigned int p)
{
	return p == port2 && host2 ? host2 : host;
}
static int failures;
static unsigned int worker_timeout_ms = TIMEOUT_MS;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("FAIL-DETAIL: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static struct spare_agg *connect_or_fail(void)
{
	char err[256];
	struct spare_agg *a = use_rdma ?
		spare_agg_connect_rdma(host, port, rdma_src, err, sizeof(err)) :
		spare_agg_connect(host, port, err, sizeof(err));

	if (!a) {
		failf("%s", err);
		return NULL;
	}
	spare_agg_set_timeout(a, worker_timeout_ms);
	return a;
}

/* Deterministic gradient value of (job, rank, iter, element). */
static float gval(unsigned int job, unsigned int rank, unsigned int iter,
		  uint64_t i)
{
	uint32_t x = (uint32_t)(job * 2654435761U ^ rank * 40503U ^
				iter * 97U ^ (uint32_t)i * 2246822519U);

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return ((float)(int32_t)x) * 0x1p-31f * (float)(1 + (i % 7));
}

static void fill(unsigned int dtype, void *buf, uint64_t n, unsigned int job,
		 unsigned int rank, unsigned int iter)
{
	for (uint64_t i = 0; i < n; i++) {
		float f = gval(job, rank, iter, i);

		if (dtype == AGG_DTYPE_F32)
			((float *)buf)[i] = f;
		else if (dtype == AGG_DTYPE_F16)
			((uint16_t *)buf)[i] = agg_f32_to_f16(f);
		else
			((uint16_t *)buf)[i] = agg_f32_to_bf16(f);
	}
}

/* The defined summation order, computed independently of the daemon. */
static int verify(unsigned int dtype, const void *got, uint64_t n,
		  unsigned int job, unsigned int w, unsigned int iter)
{
	size_t esz = agg_dtype_size(dtype);
	uint8_t *one = malloc(esz);

	for (uint64_t i = 0; i < n; i++) {
		float acc = 0;

		for (unsigned int r = 0; r < w; r++) {
			float x = gval(job, r, iter, i);

			if (dtype == AGG_DTYPE_F16)
				x = agg_f16_to_f32(agg_f32_to_f16(x));
			else if (dtype == AGG_DTYPE_BF16)
				x = agg_bf16_to_f32(agg_f32_to_bf16(x));
			acc = r ? acc + x : x;
		}
		if (dtype == AGG_DTYPE_F32)
			memcpy(one, &acc, 4);
		else if (dtype == AGG_DTYPE_F16) {
			uint16_t h = agg_f32_to_f16(acc);

			memcpy(one, &h, 2);
		} else {
			uint16_t h = agg_f32_to_bf16(acc);

			memcpy(one, &h, 2);
		}
		if (memcmp(one, (const uint8_t *)got + i * esz, esz)) {
			failf("job %u iter %u element %llu: sum differs from the reference",
			      job, iter, (unsigned long long)i);
			free(one);
			return -1;
		}
	}
	free(one);
	return 0;
}

/* ---- one worker of a regular job ---- */

struct worker {
	pthread_t tid;
	unsigned int job, rank, n_workers, dtype, iters;
	const char *token;
	unsigned int part_elems;
	uint64_t nelem[2];
	int die_at_iter;	/* >= 0: close without LEAVE after pushing */
	bool no_leave;		/* after the last iteration: close, no LEAVE */
	unsigned int final_delay_ms;	/* last pull: push, wait, then pull */
	bool expect_fail;	/* the job should fail with EJOBFAIL */
	unsigned int iter_pause_ms;	/* sleep after each iteration */
	unsigned int slow_iter, slow_ms;	/* tensor 0 of that iteration:
					 * push, wait slow_ms, pull */
	unsigned int *in_slow;	/* set when that wait begins */
	unsigned int *progress;	/* if set: iterations done, for others */
	bool wait_out_reg;	/* after REGISTER: wait until the daemon has
				 * no outputs' registration running */
	unsigned int got_status;
	char got_err[300];
	int result;		/* 0 ok */
};

/*
 * allreduce of tensor ti with a pause between the pushes and the pulls, so
 * that the other workers finish the iteration (and may go) first.
 */
static int allreduce_slow_pull(struct spare_agg *a, unsigned int ti,
			       unsigned int it, void *buf, size_t esz,
			       unsigned int delay_ms, unsigned int *in_delay)
{
	uint32_t n = spare_agg_n_parts(a), t;
	uint64_t off;
	uint32_t nelem;
	bool pulled;

again:
	pulled = false;
	for (uint32_t p = 0; p < n; p++)
		if (!spare_agg_part_info(a, p, &t, &off, &nelem) && t == ti &&
		    spare_agg_push(a, p, it, (uint8_t *)buf + off * esz,
				   spare_agg_part_bytes(a, p)))
			return -1;
	if (in_delay) {
		char *text = NULL;

		/* a round trip: the daemon has taken the pushes above */
		if (spare_agg_stats(a, &text))
			return -1;
		free(text);
		__atomic_store_n(in_delay, 1, __ATOMIC_RELEASE);
	}
	usleep(delay_ms * 1000);
	delay_ms = 0;
	for (uint32_t p = 0; p < n; p++) {
		if (spare_agg_part_info(a, p, &t, &off, &nelem) || t != ti)
			continue;
		if (spare_agg_pull(a, p, it, (uint8_t *)buf + off * esz,
				   spare_agg_part_bytes(a, p))) {
			/*
			 * The job moved: the low-level calls say so instead of
			 * repeating, and the new instance wants this
			 * iteration's pushes again (buf is untouched as long
			 * as no pull of it has landed).
			 */
			if (spare_agg_status(a) == AGG_EMOVED && !pulled)
				goto again;
			return -1;
		}
		pulled = true;
	}
	return 0;
}

static double metric(const char *text, const char *name);

enum { OUT_REG_WAIT_S = 120 };

/*
 * The daemon registers a job's outputs off its event loop, started by the
 * first RDMA worker's REGISTER (so started once REGISTER is answered), and
 * copies the job's replies until it ends: wait for
 * spare_aggd_rdma_output_regs_running to be 0. 0, or -1 after
 * OUT_REG_WAIT_S or a failed STATS.
 */
static int wait_out_regs(struct spare_agg *a)
{
	for (unsigned int i = 0; i < OUT_REG_WAIT_S * 100; i++) {
		char *text = NULL;
		double running;

		if (spare_agg_stats(a, &text))
			return -1;
		running = metric(text, "spare_aggd_rdma_output_regs_running");
		free(text);
		if (running == 0)
			return 0;
		usleep(10000);
	}
	return -1;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct spare_agg_tensor t[2] = {
		{ "layer.weight", wk->nelem[0] }, { "layer.bias", wk->nelem[1] },
	};
	char name[32];
	struct spare_agg_job job = {
		.name = name, .token = wk->token, .n_workers = wk->n_workers,
		.rank = wk->rank, .dtype = wk->dtype,
		.part_elems = wk->part_elems, .weight = 1 + wk->job % 3,
	};
	size_t esz = agg_dtype_size(wk->dtype);
	void *buf[2] = { malloc(wk->nelem[0] * esz), malloc(wk->nelem[1] * esz) };
	struct spare_agg *a = connect_or_fail();

	snprintf(name, sizeof(name), "itest-job-%u", wk->job);
	wk->result = -1;
	if (!a)
		goto out;
	if (spare_agg_register(a, &job, t, 2)) {
		failf("job %u rank %u: register: %s", wk->job, wk->rank,
		      spare_agg_error(a));
		goto out;
	}
	if (wk->wait_out_reg && wait_out_regs(a)) {
		failf("job %u rank %u: the job's outputs still being registered after %d s",
		      wk->job, wk->rank, OUT_REG_WAIT_S);
		goto out;
	}
	for (unsigned int it = 0; it < wk->iters; it++) {
		for (unsigned int ti = 0; ti < 2; ti++) {
			fill(wk->dtype, buf[ti], wk->nelem[ti], wk->job, wk->rank, it);
			if ((int)it == wk->die_at_iter && ti == 0) {
				/* push half the partitions, then die */
				spare_agg_push(a, 0, it, buf[0],
					       spare_agg_part_bytes(a, 0));
				spare_agg_close(a);
				a = NULL;
				wk->result = 0;
				goto out;
			}
			if (wk->final_delay_ms && it == wk->iters - 1 && ti == 1 ?
			    allreduce_slow_pull(a, ti, it, buf[ti], esz,
						wk->final_delay_ms, NULL) :
			    wk->slow_ms && it == wk->slow_iter && ti == 0 ?
			    allreduce_slow_pull(a, ti, it, buf[ti], esz, wk->slow_ms,
						wk->in_slow) :
			    spare_agg_allreduce(a, ti, it, buf[ti], buf[ti])) {
				wk->got_status = spare_agg_status(a);
				snprintf(wk->got_err, sizeof(wk->got_err), "%s",
					 spare_agg_error(a));
				if (!wk->expect_fail)
					failf("job %u rank %u iter %u: %s", wk->job,
					      wk->rank, it, spare_agg_error(a));
				else
					wk->result = 0;
				goto out;
			}
			if (verify(wk->dtype, buf[ti], wk->nelem[ti], wk->job,
				   wk->n_workers, it))
				goto out;
		}
		if (wk->progress)
			__atomic_store_n(wk->progress, it + 1, __ATOMIC_RELEASE);
		if (wk->iter_pause_ms)
			usleep(wk->iter_pause_ms * 1000);
	}
	if (wk->expect_fail) {
		failf("job %u rank %u: expected the job to fail", wk->job, wk->rank);
		goto out;
	}
	if (!wk->no_leave)
		spare_agg_leave(a);
	wk->result = 0;
out:
	spare_agg_close(a);
	free(buf[0]);
	free(buf[1]);
	return NULL;
}

static struct worker *start_job(unsigned int job, unsigned int w,
				unsigned int dtype, unsigned int iters,
				uint64_t n0, uint64_t n1, unsigned int part_elems)
{
	struct worker *wk = calloc(w, sizeof(*wk));

	for (unsigned int r = 0; r < w; r++) {
		wk[r] = (struct worker){
			.job = job, .rank = r, .n_workers = w, .dtype = dtype,
			.iters = iters, .token = "tok", .part_elems = part_elems,
			.nelem = { n0, n1 }, .die_at_iter = -1,
		};
	}
	return wk;
}

static void run_workers(struct worker *wk, unsigned int w)
{
	for (unsigned int r = 0; r < w; r++)
		pthread_create(&wk[r].tid, NULL, worker_main, &wk[r]);
}

static int join_workers(struct worker *wk, unsigned int w)
{
	int bad = 0;

	for (unsigned int r = 0; r < w; r++) {
		pthread_join(wk[r].tid, NULL);
		bad |= wk[r].result;
	}
	return bad;
}

static int scenario_many(void)
{
	enum { JOBS = 6, W = 4 };
	static const unsigned int dtypes[3] = {
		AGG_DTYPE_F32, AGG_DTYPE_F16, AGG_DTYPE_BF16,
	};
	struct worker *jobs[JOBS];
	int bad = 0;

	for (unsigned int j = 0; j < JOBS; j++) {
		jobs[j] = start_job(100 + j, W, dtypes[j % 3], 5,
				    10000 + 977 * j, 33 + j, 4096);
		run_workers(jobs[j], W);
	}
	for (unsigned int j = 0; j < JOBS; j++) {
		bad |= join_workers(jobs[j], W);
		free(jobs[j]);
	}
	printf("many: %d jobs x %d workers x 5 iterations, fp32/fp16/bf16: %s\n",
	       JOBS, W, bad ? "errors" : "all sums exact");
	return bad;
}

/*
 * Enough summing to keep more than one core of the pool busy for a while:
 * four jobs of two workers push 1 Mi fp32 elements each, 20 times.  The
 * test that calls it watches the pool scale up and back down.
 */
static int scenario_load(void)
{
	enum { JOBS = 4, W = 2 };
	struct worker *jobs[JOBS];
	int bad = 0;

	for (unsigned int j = 0; j < JOBS; j++) {
		jobs[j] = start_job(150 + j, W, AGG_DTYPE_F32, 20,
				    1u << 20, 4096 + j, 65536);
		run_workers(jobs[j], W);
	}
	for (unsigned int j = 0; j < JOBS; j++) {
		bad |= join_workers(jobs[j], W);
		free(jobs[j]);
	}
	printf("load: %d jobs x %d workers x 20 iterations of 1 Mi fp32: %s\n",
	       JOBS, W, bad ? "errors" : "all sums exact");
	return bad;
}

static int scenario_dead_worker(void)
{
	struct worker *a = start_job(200, 3, AGG_DTYPE_F32, 4, 50000, 10, 8192);
	struct worker *b = start_job(201, 3, AGG_DTYPE_BF16, 6, 50000, 10, 8192);
	int bad = 0;

	a[2].die_at_iter = 1;
	a[0].expect_fail = a[1].expect_fail = true;
	run_workers(a, 3);
	run_workers(b, 3);
	bad |= join_workers(a, 3);
	bad |= join_workers(b, 3);
	for (int r = 0; r < 2; r++) {
		printf("dead-worker: job 200 rank %d got: %s\n", r, a[r].got_err);
		if (a[r].got_status != AGG_EJOBFAIL ||
		    !strstr(a[r].got_err, "rank 2 disconnected")) {
			failf("job 200 rank %d: want EJOBFAIL naming rank 2, got status %u",
			      r, a[r].got_status);
			bad = 1;
		}
	}
	printf("dead-worker: job 201 %s\n", bad ? "disturbed" : "finished all iterations exactly");
	free(a);
	free(b);
	return bad;
}

/*
 * Workers that are done may go while the others still pull the last
 * iteration: job 210's rank 0 closes without LEAVE and rank 1 sends LEAVE
 * right after their last pull, while ranks 2 and 3 wait 200 ms between
 * pushing and pulling it; job 210 must finish exactly. Job 211's rank 2
 * stops (no LEAVE) after 3 of 5 iterations: its job must fail naming it,
 * not hang.
 */
static int scenario_early_leave(void)
{
	struct worker *a = start_job(210, 4, AGG_DTYPE_BF16, 6, 50000, 10, 8192);
	struct worker *b = start_job(211, 3, AGG_DTYPE_F32, 5, 30000, 10, 8192);
	int bad = 0;

	a[0].no_leave = true;
	a[2].final_delay_ms = a[3].final_delay_ms = 200;
	b[2].iters = 3;
	b[2].no_leave = true;
	b[0].expect_fail = b[1].expect_fail = true;
	run_workers(a, 4);
	run_workers(b, 3);
	bad |= join_workers(a, 4);
	bad |= join_workers(b, 3);
	printf("early-leave: job 210 %s\n", bad ? "disturbed" :
	       "finished all iterations exactly after ranks 0 and 1 went");
	for (int r = 0; r < 2; r++) {
		printf("early-leave: job 211 rank %d got: %s\n", r, b[r].got_err);
		if (b[r].got_status != AGG_EJOBFAIL ||
		    !strstr(b[r].got_err, "rank 2 disconnected")) {
			failf("job 211 rank %d: want EJOBFAIL naming rank 2, got status %u",
			      r, b[r].got_status);
			bad = 1;
		}
	}
	free(a);
	free(b);
	return bad;
}

/* ---- raw protocol access for malformed input ---- */

static int raw_connect(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = TIMEOUT_MS / 1000 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, host, &sin.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		failf("raw connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

static int raw_recv(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Returns the status of an ERROR, 0 for any other message, -1 on EOF. */
static int raw_read_msg(int fd, struct agg_hdr *h, char *text, size_t text_len)
{
	uint8_t hb[AGG_HDR_SIZE];
	uint8_t *body;

	if (raw_recv(fd, hb, sizeof(hb)) ||
	    agg_hdr_decode(hb, h, AGG_MAX_PART_ELEMS * 4))
		return -1;
	body = malloc(h->len + 1);
	if (raw_recv(fd, body, h->len)) {
		free(body);
		return -1;
	}
	body[h->len] = 0;
	if (text)
		snprintf(text, text_len, "%s", (char *)body);
	free(body);
	return h->type == AGG_MSG_ERROR ? (int)h->status : 0;
}

static int raw_register(int fd, const char *name, const char *token,
			unsigned int w, unsigned int rank, uint32_t *job_id,
			char *text, size_t text_len)
{
	struct agg_tensor_desc t[1] = { { "g", 1000 } };
	struct agg_job_spec s = {
		.n_workers = (uint16_t)w, .rank = (uint16_t)rank,
		.dtype = AGG_DTYPE_F32, .weight = 1, .part_elems = 256,
		.n_tensors = 1, .tensors = t,
	};
	uint8_t buf[AGG_REG_FIXED_SIZE + AGG_REG_TENSOR_SIZE];
	uint8_t hb[AGG_HDR_SIZE];
	struct agg_hdr h;
	int len, st;

	snprintf(s.name, sizeof(s.name), "%s", name);
	snprintf(s.token, sizeof(s.token), "%s", token);
	len = agg_register_encode(&s, buf, sizeof(buf));
	agg_hdr_init(&h, AGG_MSG_REGISTER, (uint32_t)len);
	agg_hdr_encode(&h, hb);
	if (send(fd, hb, sizeof(hb), MSG_NOSIGNAL) != sizeof(hb) ||
	    send(fd, buf, (size_t)len, MSG_NOSIGNAL) != len)
		return -1;
	st = raw_read_msg(fd, &h, text, text_len);
	if (st == 0 && h.type == AGG_MSG_REGISTER_REPLY)
		*job_id = h.job_id;
	return st;
}

struct bad_case {
	const char *what;
	unsigned int want;
	/* fills the header (and maybe garbage) to send after registering */
	void (*make)(struct agg_hdr *h, uint32_t job_id, uint8_t *raw,
		     size_t *raw_len);
};

static void push_hdr(struct agg_hdr *h, uint32_t job_id, uint32_t len)
{
	agg_hdr_init(h, AGG_MSG_PUSH, len);
	h->job_id = job_id;
}

/* partition 0 holds 256 fp32 elements = 1024 bytes */
static void mk_oversize(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1028);
}

static void mk_undersize(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1020);
}

static void mk_huge(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 0xfffffff0U);
}

static void mk_bad_part(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1024);
	h->part = 4;	/* 1000 elements / 256 = 4 partitions: 0..3 */
}

static void mk_bad_iter(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1024);
	h->iter = 5;
}

static void mk_bad_magic(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1024);
	h->magic = 0xdeadbeef;
}

static void mk_bad_version(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 1024);
	h->version = 9;
}

static void mk_bad_type(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j, 0);
	h->type = 77;
}

static void mk_wrong_job(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)r; (void)l;
	push_hdr(h, j + 1000, 1024);
}

static void mk_garbage(struct agg_hdr *h, uint32_t j, uint8_t *r, size_t *l)
{
	(void)h; (void)j;
	for (size_t i = 0; i < 64; i++)
		r[i] = (uint8_t)(i * 37 + 11);
	*l = 64;
}

static const struct bad_case bad_cases[] = {
	{ "oversize push", AGG_ESIZE, mk_oversize },
	{ "undersize push", AGG_ESIZE, mk_undersize },
	{ "push over the daemon's limit", AGG_ESIZE, mk_huge },
	{ "push to a partition out of range", AGG_EINVAL, mk_bad_part },
	{ "push of a future iteration", AGG_ESEQ, mk_bad_iter },
	{ "bad magic", AGG_EPROTO, mk_bad_magic },
	{ "bad version", AGG_EVERSION, mk_bad_version },
	{ "unknown type", AGG_EPROTO, mk_bad_type },
	{ "push naming another job", AGG_EINVAL, mk_wrong_job },
	{ "garbage bytes", AGG_EPROTO, mk_garbage },
};

static int one_bad_case(unsigned int idx, const struct bad_case *bc)
{
	char name[32], text[300] = "";
	int fd0 = raw_connect(), fd1 = raw_connect();
	uint32_t job_id = 0, j1;
	uint8_t raw[64], hb[AGG_HDR_SIZE];
	size_t raw_len = 0;
	struct agg_hdr h;
	int st, bad = 0;

	if (fd0 < 0 || fd1 < 0)
		return 1;
	snprintf(name, sizeof(name), "bad-%u", idx);
	if (raw_register(fd0, name, "t", 2, 0, &job_id, NULL, 0) ||
	    raw_register(fd1, name, "t", 2, 1, &j1, NULL, 0)) {
		failf("%s: register failed", bc->what);
		bad = 1;
		goto out;
	}
	memset(&h, 0, sizeof(h));
	bc->make(&h, job_id, raw, &raw_len);
	if (!raw_len) {
		agg_hdr_encode(&h, hb);
		memcpy(raw, hb, sizeof(hb));
		raw_len = sizeof(hb);
	}
	send(fd0, raw, raw_len, MSG_NOSIGNAL);
	st = raw_read_msg(fd0, &h, text, sizeof(text));
	if (st != (int)bc->want) {
		failf("%s: want ERROR %s, got %d (%s)", bc->what,
		      agg_status_str(bc->want), st, text);
		bad = 1;
	} else {
		printf("bad-push: %s -> ERROR %s: %s\n", bc->what,
		       agg_status_str((unsigned int)st), text);
	}
	/* the offender's connection is closed after the error */
	errno = 0;
	while (raw_read_msg(fd0, &h, NULL, 0) != -1)
		;
	if (errno == EAGAIN || errno == EWOULDBLOCK) {
		failf("%s: offender's connection not closed", bc->what);
		bad = 1;
	}
	/* the other worker of the same job learns that its job failed */
	st = raw_read_msg(fd1, &h, text, sizeof(text));
	if (st != AGG_EJOBFAIL) {
		failf("%s: other worker: want EJOBFAIL, got %d (%s)", bc->what, st,
		      text);
		bad = 1;
	}
out:
	close(fd0);
	close(fd1);
	return bad;
}

static int scenario_bad_push(void)
{
	struct worker *good = start_job(300, 2, AGG_DTYPE_F16, 30, 20000, 5, 4096);
	int bad = 0, fd;
	struct agg_hdr h;
	char text[300] = "";
	uint8_t hb[AGG_HDR_SIZE];

	run_workers(good, 2);
	for (unsigned int i = 0; i < sizeof(bad_cases) / sizeof(*bad_cases); i++)
		bad |= one_bad_case(i, &bad_cases[i]);
	/* a push before any REGISTER */
	fd = raw_connect();
	if (fd >= 0) {
		push_hdr(&h, 1, 1024);
		agg_hdr_encode(&h, hb);
		send(fd, hb, sizeof(hb), MSG_NOSIGNAL);
		if (raw_read_msg(fd, &h, text, sizeof(text)) != AGG_ENOJOB) {
			failf("push without REGISTER: want ENOJOB (%s)", text);
			bad = 1;
		} else {
			printf("bad-push: push without REGISTER -> %s\n", text);
		}
		close(fd);
	}
	bad |= join_workers(good, 2);
	printf("bad-push: concurrent job 300 %s\n",
	       good[0].result || good[1].result ? "disturbed" : "finished all iterations exactly");
	free(good);
	return bad;
}

static int scenario_wrong_token(void)
{
	char text[300] = "";
	int fd0 = raw_connect(), fd1 = raw_connect(), fd2 = raw_connect();
	uint32_t j0 = 0, j1 = 0;
	int st, bad = 0;

	if (fd0 < 0 || fd1 < 0 || fd2 < 0)
		return 1;
	if (raw_register(fd0, "tokjob", "right-token", 2, 0, &j0, NULL, 0)) {
		failf("wrong-token: first register failed");
		bad = 1;
	}
	st = raw_register(fd1, "tokjob", "wrong-token", 2, 1, &j1, text, sizeof(text));
	if (st != AGG_EAUTH) {
		failf("wrong-token: want EAUTH, got %d (%s)", st, text);
		bad = 1;
	} else {
		printf("wrong-token: -> ERROR %s: %s\n", agg_status_str(AGG_EAUTH), text);
	}
	/* the job is untouched: rank 1 with the right token still gets in */
	st = raw_register(fd2, "tokjob", "right-token", 2, 1, &j1, text, sizeof(text));
	if (st != 0 || j1 != j0) {
		failf("wrong-token: right token after a wrong one: %d (%s)", st, text);
		bad = 1;
	} else {
		printf("wrong-token: right token afterwards joins job %u\n", j1);
	}
	close(fd0);
	close(fd1);
	close(fd2);
	return bad;
}

static int scenario_optimizer(void)
{
	enum { W = 2, N = 3000, ITERS = 4 };
	struct spare_agg *a[W];
	struct spare_agg_tensor t = { "w", N };
	static float w0[N], grad[W][N], ref_w[N], ref_v[N], got[N];
	int bad = 0;

	for (int i = 0; i < N; i++)
		ref_w[i] = w0[i] = gval(1, 9, 9, (uint64_t)i);
	for (int r = 0; r < W; r++) {
		struct spare_agg_job job = {
			.name = "sgd-job", .token = "t", .n_workers = W, .rank = (unsigned)r,
			.dtype = AGG_DTYPE_F32, .part_elems = 1024,
			.opt = AGG_OPT_SGD_MOMENTUM, .lr = 0.1f, .momentum = 0.9f,
		};

		a[r] = connect_or_fail();
		if (!a[r] || spare_agg_register(a[r], &job, &t, 1)) {
			failf("optimizer: register rank %d: %s", r,
			      a[r] ? spare_agg_error(a[r]) : "no connection");
			return 1;
		}
	}
	for (uint32_t p = 0; p < spare_agg_n_parts(a[0]); p++) {
		uint32_t ti, n;
		uint64_t off;

		spare_agg_part_info(a[0], p, &ti, &off, &n);
		if (spare_agg_set_weights(a[0], p, w0 + off, n * 4))
			bad = 1;
	}
	for (int it = 0; it < ITERS && !bad; it++) {
		for (int r = 0; r < W; r++) {
			for (int i = 0; i < N; i++)
				grad[r][i] = gval(2, (unsigned)r, (unsigned)it, (uint64_t)i);
			/* single-threaded client: push from both, then pull */
			for (uint32_t p = 0; p < spare_agg_n_parts(a[r]); p++) {
				uint32_t ti, n;
				uint64_t off;

				spare_agg_part_info(a[r], p, &ti, &off, &n);
				if (spare_agg_push(a[r], p, (uint32_t)it, grad[r] + off, n * 4))
					bad = 1;
			}
		}
		for (int r = 0; r < W && !bad; r++)
			for (uint32_t p = 0; p < spare_agg_n_parts(a[r]); p++) {
				uint32_t ti, n;
				uint64_t off;

				spare_agg_part_info(a[r], p, &ti, &off, &n);
				if (spare_agg_pull(a[r], p, (uint32_t)it, got + off, n * 4)) {
					failf("optimizer: pull: %s", spare_agg_error(a[r]));
					bad = 1;
					break;
				}
			}
		for (int i = 0; i < N; i++) {
			float g = (grad[0][i] + grad[1][i]) / 2.0f;

			ref_v[i] = 0.9f * ref_v[i] + g;
			ref_w[i] = ref_w[i] - 0.1f * ref_v[i];
			if (!bad && fabsf(got[i] - ref_w[i]) > 1e-6f * (1 + fabsf(ref_w[i]))) {
				failf("optimizer: iter %d element %d: %g, want %g", it, i,
				      (double)got[i], (double)ref_w[i]);
				bad = 1;
			}
		}
	}
	for (int r = 0; r < W; r++) {
		spare_agg_leave(a[r]);
		spare_agg_close(a[r]);
	}
	printf("optimizer: SGD momentum on the server, %d iterations: %s\n", ITERS,
	       bad ? "wrong" : "weights match");
	return bad;
}

static int stats_push_counts(void);

static int scenario_stats(void)
{
	struct spare_agg *a = connect_or_fail();
	char *text = NULL;
	int bad = 0;

	if (!a)
		return 1;
	/*
	 * The cores-over-time history starts at the pool's first tick
	 * (--tick-ms after start): a daemon just started may have none yet.
	 */
	for (int tries = 0; tries < 50; tries++) {
		free(text);
		text = NULL;
		if (spare_agg_stats(a, &text) || strstr(text, "# hist "))
			break;
		usleep(100 * 1000);
	}
	if (!text) {
		failf("stats: %s", spare_agg_error(a));
		bad = 1;
	} else if (!strstr(text, "spare_aggd_cores_active ") ||
		   !strstr(text, "spare_aggd_cpu_seconds_total ") ||
		   !strstr(text, "# hist ")) {
		failf("stats: metrics missing in:\n%s", text);
		bad = 1;
	} else if (getenv("AGG_ITEST_DUMP")) {
		fputs(text, stdout);
	} else {
		printf("stats: %zu bytes of metrics\n", strlen(text));
	}
	free(text);
	spare_agg_close(a);
	return bad || stats_push_counts();
}

/* ---- idle timeout (the daemon runs with --idle-timeout 1) ---- */

static int raw_send_hdr(int fd, const struct agg_hdr *h)
{
	uint8_t hb[AGG_HDR_SIZE];

	agg_hdr_encode(h, hb);
	return send(fd, hb, sizeof(hb), MSG_NOSIGNAL) == sizeof(hb) ? 0 : -1;
}

static int raw_push(int fd, uint32_t job_id, uint32_t part, uint32_t iter)
{
	uint8_t hb[AGG_HDR_SIZE], body[1024] = { 0 };
	struct agg_hdr h;

	push_hdr(&h, job_id, sizeof(body));
	h.part = part;
	h.iter = iter;
	agg_hdr_encode(&h, hb);
	if (send(fd, hb, sizeof(hb), MSG_NOSIGNAL) != sizeof(hb) ||
	    send(fd, body, sizeof(body), MSG_NOSIGNAL) != sizeof(body))
		return -1;
	return 0;
}

/* A metric's value in STATS text, or -1. */
static double metric(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p += n;
	}
	return -1;
}

/* How much the counter @name grew from @before to @after. */
static double metric_delta(const char *before, const char *after,
			   const char *name)
{
	return metric(after, name) - metric(before, name);
}

static char *stats_of(unsigned int on_port)
{
	char err[256], *text = NULL;
	struct spare_agg *a = spare_agg_connect(host_of(on_port), on_port, err,
						sizeof(err));

	if (!a) {
		failf("stats: %s", err);
		return NULL;
	}
	spare_agg_set_timeout(a, TIMEOUT_MS);
	if (spare_agg_stats(a, &text)) {
		failf("stats: %s", spare_agg_error(a));
		text = NULL;
	}
	spare_agg_close(a);
	return text;
}

/*
 * Run the @w workers of @wk (freed here) between two STATS reads
 * (*before, *after: NULL when a read failed, workers not run if the
 * first did). 1 if a worker failed.
 */
static int run_between_stats(struct worker *wk, unsigned int w,
			     char **before, char **after)
{
	int bad;

	*after = NULL;
	*before = stats_of(port);
	if (!*before) {
		free(wk);
		return 1;
	}
	run_workers(wk, w);
	bad = join_workers(wk, w);
	free(wk);
	*after = stats_of(port);
	return bad;
}

/*
 * The lent/copied counters of RDMA pushes: a 4-worker job of 4 partitions
 * (3000 + 77 elements, 1024 a partition), 6 iterations. Over RDMA (-R)
 * each of its 96 pushes is folded from its receive slot or copied, so the
 * two counters grow by 96 together, and some must be lent (a worker has
 * at most a tensor's 3 pushes unfolded, fewer than the 6 slots it may
 * lend); over TCP neither moves. Its 96 pull replies over RDMA are all
 * sent from the registered outputs in place (the daemon runs with its
 * locked-memory limit, so the registration must succeed; it runs off the
 * daemon's event loop and the workers wait for its end before their
 * rounds, wait_out_regs): the in-place counter grows by 96, the copied
 * one and the registration failures not.
 */
static int stats_push_counts(void)
{
	enum { W = 4, ITERS = 6, PUSHES = W * ITERS * (3 + 1) };
	char *before, *after;
	double lent, copied, in_place, r_copied, reg_failed;
	struct worker *wk = start_job(630, W, AGG_DTYPE_F32, ITERS, 3000, 77,
				      1024);
	int bad;

	for (unsigned int r = 0; r < W; r++)
		wk[r].wait_out_reg = use_rdma;
	bad = run_between_stats(wk, W, &before, &after);

	if (!before || !after) {
		free(before);
		free(after);
		return 1;
	}
	lent = metric_delta(before, after, "spare_aggd_rdma_pushes_lent_total");
	copied = metric_delta(before, after, "spare_aggd_rdma_pushes_copied_total");
	in_place = metric_delta(before, after, "spare_aggd_rdma_replies_in_place_total");
	r_copied = metric_delta(before, after, "spare_aggd_rdma_replies_copied_total");
	reg_failed = metric_delta(before, after, "spare_aggd_rdma_output_reg_failures_total");
	printf("stats: %d pushes over %s: %.0f folded from a lent receive slot, %.0f copied\n",
	       PUSHES, use_rdma ? "RDMA" : "TCP", lent, copied);
	printf("stats: %d pull replies over %s: %.0f sent in place, %.0f copied, %.0f failed registrations\n",
	       PUSHES, use_rdma ? "RDMA" : "TCP", in_place, r_copied, reg_failed);
	if (metric(after, "spare_aggd_rdma_replies_in_place_total") < 0 ||
	    metric(after, "spare_aggd_rdma_replies_copied_total") < 0 ||
	    metric(after, "spare_aggd_rdma_output_reg_failures_total") < 0) {
		failf("stats: no spare_aggd_rdma_replies_{in_place,copied}_total or spare_aggd_rdma_output_reg_failures_total");
		bad = 1;
	} else if (use_rdma ? in_place != PUSHES || r_copied != 0 || reg_failed != 0 :
		   in_place != 0 || r_copied != 0) {
		failf("stats: want %s", use_rdma ?
		      "every RDMA pull reply sent in place, none copied" :
		      "no RDMA reply counted for TCP workers");
		bad = 1;
	}
	if (metric(after, "spare_aggd_rdma_pushes_lent_total") < 0 ||
	    metric(after, "spare_aggd_rdma_pushes_copied_total") < 0) {
		failf("stats: no spare_aggd_rdma_pushes_{lent,copied}_total");
		bad = 1;
	} else if (use_rdma ? lent + copied != PUSHES || !(lent > 0) :
		   lent != 0 || copied != 0) {
		failf("stats: want %s", use_rdma ?
		      "every RDMA push counted once, lent or copied, some lent" :
		      "no RDMA push counted for TCP workers");
		bad = 1;
	}
	free(before);
	free(after);
	return bad;
}

/*
 * A daemon that may not pin a job's outputs (run under an RLIMIT_MEMLOCK
 * that holds its two connection buffers, about 2.3 MiB each, but not the
 * 8 MiB of outputs as well: agg/rdma-faults gives it 6 MiB) copies its
 * RDMA pull replies into the send slot instead: a 2-worker job with 8 MiB
 * of fp32 outputs, 2 iterations, every sum exact (verify()), every reply
 * copied and none sent in place, and the registration tried and counted
 * failed once for the job (not once per reply or connection; the workers
 * wait for its end, which is off the daemon's event loop, so that it is
 * counted before the second STATS read).
 */
static int scenario_copied_replies(void)
{
	enum { W = 2, ITERS = 2, N0 = 2000000, N1 = 77, PART = 32768,
	       PUSHES = W * ITERS * ((N0 + PART - 1) / PART + 1) };
	char *before, *after;
	double in_place, r_copied, reg_failed;
	struct worker *wk;
	int bad;

	if (!use_rdma) {
		failf("copied-replies: needs -R (RDMA workers)");
		return 1;
	}
	wk = start_job(640, W, AGG_DTYPE_F32, ITERS, N0, N1, PART);
	for (unsigned int r = 0; r < W; r++)
		wk[r].wait_out_reg = true;	/* its failure counted first */
	bad = run_between_stats(wk, W, &before, &after);
	if (!before || !after) {
		free(before);
		free(after);
		return 1;
	}
	in_place = metric_delta(before, after, "spare_aggd_rdma_replies_in_place_total");
	r_copied = metric_delta(before, after, "spare_aggd_rdma_replies_copied_total");
	reg_failed = metric_delta(before, after, "spare_aggd_rdma_output_reg_failures_total");
	printf("copied-replies: %d pull replies over RDMA: %.0f sent in place, %.0f copied, %.0f failed registrations\n",
	       PUSHES, in_place, r_copied, reg_failed);
	if (in_place != 0 || r_copied != PUSHES || reg_failed != 1) {
		failf("copied-replies: want every reply copied (%d), none in place, one failed registration",
		      PUSHES);
		bad = 1;
	}
	free(before);
	free(after);
	return bad;
}

/*
 * The fold that completes a partition's sum runs on the event loop that
 * received the last push, not on a pool thread (aggd_jobs.c fold_part),
 * when nothing waits in the pool's queue. One job alone on the daemon,
 * 4 workers, two tensors of one partition each, reduced one after the
 * other: when a partition's last fold is ready nothing else is queued,
 * so every sum's last fold must be a receive fold, the sums stay exact
 * (verify()) and the loop's time on them is counted.
 */
static int scenario_receive_fold(void)
{
	enum { W = 4, ITERS = 12 };
	char *before, *after;
	double sums, folds, secs;
	int bad = run_between_stats(start_job(620, W, AGG_DTYPE_F32, ITERS, 3000,
					      77, 4096), W, &before, &after);

	if (!before || !after) {
		free(before);
		free(after);
		return 1;
	}
	sums = metric_delta(before, after, "spare_aggd_sums_total");
	folds = metric_delta(before, after, "spare_aggd_receive_folds_total");
	secs = metric_delta(before, after, "spare_aggd_receive_fold_seconds_total");
	printf("receive-fold: %.0f sums, %.0f of their last folds on the receiving thread (%.6f s), pool folds %.0f\n",
	       sums, folds, secs,
	       metric(after, "spare_aggd_reductions_total") -
	       metric(before, "spare_aggd_reductions_total"));
	if (metric(after, "spare_aggd_receive_folds_total") < 0 ||
	    sums != 2 * ITERS || folds != sums || !(secs > 0)) {
		failf("receive-fold: want %d sums, each finished on the receiving thread with its time counted",
		      2 * ITERS);
		bad = 1;
	}
	free(before);
	free(after);
	return bad;
}

/*
 * Job "idle-job": rank 0 pushes one partition, then both ranks fall silent
 * with their connections open, and a third connection sends half a header.
 * After the timeout the job is reclaimed (both ranks get EJOBFAIL saying
 * so, then EOF), its name can be registered again, and the half-header
 * connection is closed. Job 500 keeps iterating with pauses shorter than
 * the timeout and is not touched.
 */
static int scenario_idle(void)
{
	struct worker *keep = start_job(500, 2, AGG_DTYPE_F32, 30, 3000, 7, 1024);
	int fd0 = raw_connect(), fd1 = raw_connect(), fd2 = raw_connect(), fd3;
	uint32_t j0 = 0, j1 = 0, j2 = 0;
	char text[300] = "", *st;
	struct agg_hdr h;
	uint8_t half[16] = { 0x53, 0x41, 0x47, 0x47 };
	int bad = 0, ret;

	if (fd0 < 0 || fd1 < 0 || fd2 < 0)
		return 1;
	keep[0].iter_pause_ms = keep[1].iter_pause_ms = 60;	/* ~1.8 s */
	run_workers(keep, 2);
	if (raw_register(fd0, "idle-job", "t", 2, 0, &j0, NULL, 0) ||
	    raw_register(fd1, "idle-job", "t", 2, 1, &j1, NULL, 0) ||
	    raw_push(fd0, j0, 0, 0)) {
		failf("idle: setting up the silent job failed");
		bad = 1;
	}
	send(fd2, half, sizeof(half), MSG_NOSIGNAL);
	sleep(3);	/* timeout 1 s, ticks of 0.25 s, 1 s grace */
	for (int i = 0; i < 2; i++) {
		int fd = i ? fd1 : fd0;

		ret = raw_read_msg(fd, &h, text, sizeof(text));
		if (ret != AGG_EJOBFAIL || !strstr(text, "reclaimed")) {
			failf("idle: rank %d: want EJOBFAIL 'reclaimed', got %d (%s)",
			      i, ret, text);
			bad = 1;
		} else {
			printf("idle: rank %d of the silent job got: %s\n", i, text);
		}
		if (raw_read_msg(fd, &h, NULL, 0) != -1) {
			failf("idle: rank %d: connection not closed", i);
			bad = 1;
		}
	}
	errno = 0;
	if (raw_read_msg(fd2, &h, NULL, 0) != -1 ||
	    errno == EAGAIN || errno == EWOULDBLOCK) {
		failf("idle: the half-header connection was not closed");
		bad = 1;
	} else {
		printf("idle: the half-header connection was closed\n");
	}
	st = stats_of(port);
	if (!st || metric(st, "spare_aggd_jobs_reclaimed_total") < 1 ||
	    strstr(st, "job_name=\"idle-job\"")) {
		failf("idle: STATS does not show the job reclaimed and gone");
		bad = 1;
	}
	free(st);
	/* the name is free again */
	fd3 = raw_connect();
	if (fd3 < 0 || raw_register(fd3, "idle-job", "other-token", 1, 0, &j2,
				    text, sizeof(text)) || j2 == j0) {
		failf("idle: registering 'idle-job' again: %s", text);
		bad = 1;
	} else {
		printf("idle: 'idle-job' registered again as job %u (was %u)\n",
		       j2, j0);
	}
	if (fd3 >= 0)
		close(fd3);
	close(fd0);
	close(fd1);
	close(fd2);
	bad |= join_workers(keep, 2);
	printf("idle: job 500 %s\n", keep[0].result || keep[1].result ?
	       "disturbed" : "finished all iterations exactly");
	free(keep);
	return bad;
}

/* ---- moving jobs between instances (-p source, -q target) ---- */

#define MIG_ITERS	60

static unsigned int mig_progress[3];	/* iterations done by rank 0 */
static unsigned int mig_in_slow;	/* job 410 rank 1 waits mid-iteration */

/*
 * A worker of job "mig-sgd": server-side SGD with momentum over two fp32
 * tensors, every iteration checked bit for bit against the same arithmetic
 * done here (agg_sum() in rank order, then agg_sgd_momentum()), so the
 * weights and momentum must survive the move exactly.
 */
struct sgd_worker {
	pthread_t tid;
	unsigned int rank, n_workers;
	const char *name;	/* default "mig-sgd" */
	unsigned int iters;	/* default MIG_ITERS */
	unsigned int *progress;	/* iterations done, if set */
	uint64_t hash;		/* FNV-1a of every iteration's weights */
	int result;
};

static uint64_t fnv1a(uint64_t h, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static void *sgd_worker_main(void *arg)
{
	enum { N0 = 20000, N1 = 300 };
	static const uint64_t n[2] = { N0, N1 };
	struct sgd_worker *wk = arg;
	struct spare_agg_tensor t[2] = { { "w.a", N0 }, { "w.b", N1 } };
	struct spare_agg_job job = {
		.name = wk->name ? wk->name : "mig-sgd", .token = "mt",
		.n_workers = wk->n_workers,
		.rank = wk->rank, .dtype = AGG_DTYPE_F32, .part_elems = 4096,
		.opt = AGG_OPT_SGD_MOMENTUM, .lr = 0.05f, .momentum = 0.9f,
	};
	unsigned int w = wk->n_workers, iters = wk->iters ? wk->iters : MIG_ITERS;
	float *ref_w[2], *ref_v[2], *sum[2], *got[2], *grads[2][8];
	struct spare_agg *a = connect_or_fail();

	wk->result = -1;
	wk->hash = 0xcbf29ce484222325ULL;
	for (int ti = 0; ti < 2; ti++) {
		ref_w[ti] = calloc(n[ti], 4);
		ref_v[ti] = calloc(n[ti], 4);
		sum[ti] = calloc(n[ti], 4);
		got[ti] = calloc(n[ti], 4);
		for (unsigned int r = 0; r < w; r++)
			grads[ti][r] = calloc(n[ti], 4);
		for (uint64_t i = 0; i < n[ti]; i++)
			ref_w[ti][i] = gval(77, 9, (unsigned int)ti, i);
	}
	if (!a || spare_agg_register(a, &job, t, 2)) {
		failf("%s rank %u: register: %s", job.name, wk->rank,
		      a ? spare_agg_error(a) : "no connection");
		goto out;
	}
	if (wk->rank == 0)
		for (uint32_t p = 0; p < spare_agg_n_parts(a); p++) {
			uint32_t ti, cnt;
			uint64_t off;

			spare_agg_part_info(a, p, &ti, &off, &cnt);
			if (spare_agg_set_weights(a, p, ref_w[ti] + off, cnt * 4)) {
				failf("mig-sgd: set_weights: %s", spare_agg_error(a));
				goto out;
			}
		}
	for (unsigned int it = 0; it < iters; it++) {
		for (int ti = 0; ti < 2; ti++) {
			const void *in[8];

			for (unsigned int r = 0; r < w; r++) {
				for (uint64_t i = 0; i < n[ti]; i++)
					grads[ti][r][i] = gval(78 + (unsigned int)ti, r, it, i);
				in[r] = grads[ti][r];
			}
			if (spare_agg_allreduce(a, (uint32_t)ti, it, grads[ti][wk->rank],
						got[ti])) {
				failf("%s rank %u iter %u: %s", job.name, wk->rank, it,
				      spare_agg_error(a));
				goto out;
			}
			wk->hash = fnv1a(wk->hash, got[ti], n[ti] * 4);
			agg_sum(AGG_DTYPE_F32, sum[ti], in, w, n[ti]);
			agg_sgd_momentum(ref_w[ti], ref_v[ti], sum[ti], n[ti], w,
					 0.05f, 0.9f);
			if (memcmp(got[ti], ref_w[ti], n[ti] * 4)) {
				failf("%s rank %u iter %u tensor %d: weights differ from the local reference",
				      job.name, wk->rank, it, ti);
				goto out;
			}
		}
		if (wk->progress)
			__atomic_store_n(wk->progress, it + 1, __ATOMIC_RELEASE);
		usleep(2000);
	}
	spare_agg_leave(a);
	wk->result = 0;
out:
	spare_agg_close(a);
	for (int ti = 0; ti < 2; ti++) {
		free(ref_w[ti]);
		free(ref_v[ti]);
		free(sum[ti]);
		free(got[ti]);
		for (unsigned int r = 0; r < w; r++)
			free(grads[ti][r]);
	}
	return NULL;
}

static int migrate_one(const char *job, const char *token, unsigned int to_port,
		       uint32_t *iter, char *msg, size_t msg_len,
		       unsigned int *status)
{
	char err[256];
	struct spare_agg *a = spare_agg_connect(host, port, err, sizeof(err));
	int ret;

	if (!a) {
		snprintf(msg, msg_len, "%s", err);
		*status = 0;
		return -1;
	}
	spare_agg_set_timeout(a, 60000);
	ret = spare_agg_migrate(a, job, token, host_of(to_port), to_port, iter,
				msg, msg_len);
	*status = spare_agg_status(a);
	if (ret)
		snprintf(msg, msg_len, "%s", spare_agg_error(a));
	spare_agg_close(a);
	return ret;
}

static void wait_progress(unsigned int *p, unsigned int at_least)
{
	for (int i = 0; i < 120000 && __atomic_load_n(p, __ATOMIC_ACQUIRE) < at_least; i++)
		usleep(1000);
}

/* A port nobody listens on (bound, read, closed). */
static unsigned int closed_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned int p = 0;

	inet_pton(AF_INET, host, &sin.sin_addr);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sin, sizeof(sin)) &&
	    !getsockname(fd, (struct sockaddr *)&sin, &sl))
		p = ntohs(sin.sin_port);
	if (fd >= 0)
		close(fd);
	return p;
}

struct late_arg {
	struct spare_agg *a;
	float *buf;
	int ret;
};

static void *late_allreduce(void *arg)
{
	struct late_arg *la = arg;

	la->ret = spare_agg_allreduce(la->a, 0, 0, la->buf, la->buf);
	return NULL;
}

/*
 * A job that has not started moves at once (barrier 0). Its rank 0 learns
 * of it from the REDIRECT waiting on its connection, its rank 1 registers
 * at the old instance afterwards and is sent on by a REDIRECT reply; the
 * first allreduce then happens at the new instance.
 */
static int migrate_unstarted(void)
{
	enum { N = 5000 };
	struct spare_agg_tensor t = { "g", N };
	struct spare_agg *a[2] = { connect_or_fail(), NULL };
	struct late_arg la[2];
	pthread_t tid;
	char msg[300];
	unsigned int status;
	uint32_t it = 99;
	int bad = 0;

	for (int r = 0; r < 2; r++) {
		struct spare_agg_job job = {
			.name = "mig-late", .token = "lt", .n_workers = 2,
			.rank = (unsigned int)r, .dtype = AGG_DTYPE_F32,
			.part_elems = 1000,
		};

		if (r == 1) {
			if (migrate_one("mig-late", "lt", port2, &it, msg, sizeof(msg),
					&status) || it != 0) {
				failf("migrate: unstarted job: %s (iteration %u)", msg, it);
				return 1;
			}
			printf("migrate: %s\n", msg);
			a[1] = connect_or_fail();
		}
		if (!a[r] || spare_agg_register(a[r], &job, &t, 1)) {
			failf("migrate: mig-late rank %d register: %s", r,
			      a[r] ? spare_agg_error(a[r]) : "no connection");
			spare_agg_close(a[0]);
			spare_agg_close(a[1]);
			return 1;
		}
	}
	for (int r = 0; r < 2; r++) {
		la[r].a = a[r];
		la[r].buf = malloc(N * 4);
		fill(AGG_DTYPE_F32, la[r].buf, N, 600, (unsigned int)r, 0);
	}
	pthread_create(&tid, NULL, late_allreduce, &la[1]);
	late_allreduce(&la[0]);
	pthread_join(tid, NULL);
	for (int r = 0; r < 2; r++) {
		if (la[r].ret) {
			failf("migrate: mig-late rank %d: %s", r, spare_agg_error(a[r]));
			bad = 1;
		} else if (verify(AGG_DTYPE_F32, la[r].buf, N, 600, 2, 0)) {
			bad = 1;
		}
		free(la[r].buf);
		spare_agg_leave(a[r]);
		spare_agg_close(a[r]);
	}
	if (!bad)
		printf("migrate: mig-late: a late REGISTER was redirected; both ranks summed exactly at the new instance\n");
	return bad;
}

/* Close *arg once the source's STATS show mig-abort draining. */
static void *close_when_draining(void *arg)
{
	for (int i = 0; i < 500; i++) {
		char *st = stats_of(port);
		bool draining = st && strstr(st, "spare_aggd_job_moving{job_name=\"mig-abort\"");

		free(st);
		if (draining)
			break;
		usleep(20 * 1000);
	}
	close(*(int *)arg);
	return NULL;
}

/*
 * Moves that fail: to the source itself (the "target" refuses: the name is
 * in use there; the job goes on), and a move that has started draining when
 * a worker dies (the job fails, the admin is told why, and the target drops
 * the job it had reserved).
 */
static int migrate_failures(void)
{
	char msg[300] = "", text[300] = "", *st;
	int fd0 = raw_connect(), fd1 = raw_connect();
	unsigned int status;
	uint32_t it, j0 = 0, j1 = 0;
	struct agg_hdr h;
	pthread_t tid;
	int bad = 0, ret;

	if (fd0 < 0 || fd1 < 0)
		return 1;
	/* rank 0 pushes partition 0 of iteration 0; rank 1 never does; a
	 * STATS round trip makes sure the push is in before the MIGRATE */
	agg_hdr_init(&h, AGG_MSG_STATS, 0);
	if (raw_register(fd0, "mig-abort", "t", 2, 0, &j0, NULL, 0) ||
	    raw_register(fd1, "mig-abort", "t", 2, 1, &j1, NULL, 0) ||
	    raw_push(fd0, j0, 0, 0) || raw_send_hdr(fd0, &h) ||
	    raw_read_msg(fd0, &h, NULL, 0) != 0 || h.type != AGG_MSG_STATS_REPLY) {
		failf("migrate: setting up mig-abort failed");
		close(fd0);
		close(fd1);
		return 1;
	}
	if (!migrate_one("mig-abort", "t", port, &it, msg, sizeof(msg),
			 &status) || !strstr(msg, "refused") ||
	    !strstr(msg, "goes on here")) {
		failf("migrate: to itself: want a refusal leaving the job, got %u (%s)",
		      status, msg);
		bad = 1;
	} else {
		printf("migrate: to itself -> %s\n", msg);
	}
	pthread_create(&tid, NULL, close_when_draining, &fd1);
	ret = migrate_one("mig-abort", "t", port2, &it, msg, sizeof(msg), &status);
	pthread_join(tid, NULL);
	if (!ret || status != AGG_EJOBFAIL || !strstr(msg, "rank 1")) {
		failf("migrate: a worker dying while draining: want EJOBFAIL naming rank 1, got %u (%s)",
		      status, msg);
		bad = 1;
	} else {
		printf("migrate: a worker died while draining -> %s\n", msg);
	}
	if (raw_read_msg(fd0, &h, text, sizeof(text)) != AGG_EJOBFAIL) {
		failf("migrate: mig-abort rank 0: want EJOBFAIL (%s)", text);
		bad = 1;
	}
	close(fd0);
	usleep(300 * 1000);
	st = stats_of(port2);
	if (!st || strstr(st, "job_name=\"mig-abort\"")) {
		failf("migrate: the target still holds the abandoned import");
		bad = 1;
	}
	free(st);
	return bad;
}

/*
 * Two jobs move from the daemon on -p to the one on -q while they train:
 * "mig-sgd" (3 workers, server optimizer: weights and momentum move) and
 * job 410 (fp16 sums, 2 workers). Job 400 (bf16, 3 workers) stays and must
 * not notice; asking to move it to a dead port, or with a wrong token,
 * fails cleanly and leaves it where it is. Every result of every iteration
 * is checked bit for bit.
 */
static int scenario_migrate(void)
{
	enum { W = 3 };
	struct worker *stay = start_job(400, 3, AGG_DTYPE_BF16, MIG_ITERS, 30000, 11, 4096);
	struct worker *mv = start_job(410, 2, AGG_DTYPE_F16, MIG_ITERS, 20000, 5, 2048);
	struct sgd_worker sgd[W];
	char msg[300], *sa, *sb;
	unsigned int status;
	uint32_t it = 0;
	int bad = 0;

	if (!port2) {
		failf("migrate: needs -q PORT of the target daemon");
		return 1;
	}
	for (unsigned int r = 0; r < 3; r++)
		stay[r].iter_pause_ms = 2;
	stay[0].progress = &mig_progress[2];
	for (unsigned int r = 0; r < 2; r++) {
		mv[r].iter_pause_ms = 3;
		mv[r].progress = r == 0 ? &mig_progress[1] : NULL;
	}
	/* job 410 is asked to move while rank 1 sits between its push and
	 * its pull of iteration 15: the move starts mid-iteration */
	mv[1].slow_iter = 15;
	mv[1].slow_ms = 300;
	mv[1].in_slow = &mig_in_slow;
	run_workers(stay, 3);
	run_workers(mv, 2);
	for (unsigned int r = 0; r < W; r++) {
		sgd[r] = (struct sgd_worker){ .rank = r, .n_workers = W,
			.progress = r == 0 ? &mig_progress[0] : NULL };
		pthread_create(&sgd[r].tid, NULL, sgd_worker_main, &sgd[r]);
	}

	/* The job must be registered before it can be asked to move: over
	 * RDMA in a slow guest the workers take a while to connect. */
	wait_progress(&mig_progress[2], 1);
	/* failures first: the job stays and goes on */
	if (!migrate_one("itest-job-400", "wrong", port2, &it, msg, sizeof(msg),
			 &status) || status != AGG_EAUTH) {
		failf("migrate: wrong token: want EAUTH, got %u (%s)", status, msg);
		bad = 1;
	} else {
		printf("migrate: wrong token -> %s\n", msg);
	}
	if (!migrate_one("itest-job-400", "tok", closed_port(), &it, msg,
			 sizeof(msg), &status) || !strstr(msg, "goes on here")) {
		failf("migrate: to a dead port: want a failure leaving the job, got %u (%s)",
		      status, msg);
		bad = 1;
	} else {
		printf("migrate: to a dead port -> %s\n", msg);
	}

	wait_progress(&mig_progress[0], 10);
	if (migrate_one("mig-sgd", "mt", port2, &it, msg, sizeof(msg), &status)) {
		failf("migrate: mig-sgd: %s", msg);
		bad = 1;
	} else {
		printf("migrate: %s (rank 0 had done %u iterations when asked)\n",
		       msg, 10u);
		if (it < 10 || it >= MIG_ITERS) {
			failf("migrate: mig-sgd moved at iteration %u, not mid-training", it);
			bad = 1;
		}
	}
	wait_progress(&mig_in_slow, 1);
	if (migrate_one("itest-job-410", "tok", port2, &it, msg, sizeof(msg), &status)) {
		failf("migrate: job 410: %s", msg);
		bad = 1;
	} else {
		printf("migrate: %s (asked while rank 1 was inside iteration 15)\n", msg);
		if (it <= 15 || it >= MIG_ITERS) {
			failf("migrate: job 410 moved at iteration %u, not after the one in flight", it);
			bad = 1;
		}
	}

	for (unsigned int r = 0; r < W; r++) {
		pthread_join(sgd[r].tid, NULL);
		bad |= sgd[r].result;
	}
	printf("migrate: mig-sgd %s\n", bad ? "failed" :
	       "finished all iterations; weights equal the local reference bit for bit after the move");
	if (join_workers(mv, 2)) {
		bad = 1;
		printf("migrate: job 410 failed\n");
	} else {
		printf("migrate: job 410 finished all iterations exactly after the move\n");
	}
	if (join_workers(stay, 3)) {
		bad = 1;
		printf("migrate: job 400 (stayed) was disturbed\n");
	} else {
		printf("migrate: job 400 stayed and finished all iterations exactly\n");
	}
	bad |= migrate_unstarted();
	bad |= migrate_failures();
	sa = stats_of(port);
	sb = stats_of(port2);
	if (!sa || !sb || metric(sa, "spare_aggd_jobs_moved_out_total") != 3 ||
	    metric(sb, "spare_aggd_jobs_moved_in_total") != 3) {
		failf("migrate: STATS: want 3 jobs moved out of the source and into the target");
		bad = 1;
	}
	free(sa);
	free(sb);
	free(stay);
	free(mv);
	return bad;
}

/*
 * ---- a move whose target dies rolls back (-k KEYFILE: the daemons' key) ----
 *
 * The same fake target as tests/agg/rollback.py, for the VM rig (no Python
 * there): it holds the daemons' key, speaks the target's side of a move and
 * "dies" (closes) before IMPORT (after the PEER_HELLO), during the drain
 * (0.5 s after accepting the IMPORT) or after the state and IMPORT_COMMIT
 * but before confirming, so before the source would REDIRECT the workers.
 */
enum { RB_BEFORE, RB_DURING, RB_AFTER, RB_MODES };
static const char *const rb_mode[RB_MODES] = { "before", "during", "after" };
static const char *key_file;
static uint8_t rb_key[256];
static size_t rb_key_len;

#define RB_ITERS	40
#define RB_MOVE_AT	10

struct fake_target {
	pthread_t tid;
	int mode, lfd;
	unsigned int port, n_state;
	bool hello, import, commit, bad_proof;
};

static int ft_read(int fd, struct agg_hdr *h, uint8_t **body)
{
	uint8_t hb[AGG_HDR_SIZE];

	*body = NULL;
	if (raw_recv(fd, hb, sizeof(hb)) ||
	    agg_hdr_decode(hb, h, AGG_MAX_PART_ELEMS * 4))
		return -1;
	*body = malloc(h->len + 1);
	if (!*body || raw_recv(fd, *body, h->len)) {
		free(*body);
		*body = NULL;
		return -1;
	}
	return 0;
}

static int ft_send(int fd, unsigned int type, const void *body, uint32_t len,
		   uint32_t job_id)
{
	uint8_t hb[AGG_HDR_SIZE];
	struct agg_hdr h;

	agg_hdr_init(&h, type, len);
	h.job_id = job_id;
	agg_hdr_encode(&h, hb);
	if (send(fd, hb, sizeof(hb), MSG_NOSIGNAL) != (ssize_t)sizeof(hb) ||
	    (len && send(fd, body, len, MSG_NOSIGNAL) != (ssize_t)len))
		return -1;
	return 0;
}

/* The link's addresses bound into the proofs (aggd_migrate.c peer_ids):
 * the source's IPv4 address and port, then the target's (ours). */
static int link_ids(int fd, uint8_t ids[12])
{
	struct sockaddr_in here, there;
	socklen_t hl = sizeof(here), tl = sizeof(there);

	if (getsockname(fd, (struct sockaddr *)&here, &hl) ||
	    getpeername(fd, (struct sockaddr *)&there, &tl))
		return -1;
	memcpy(ids, &there.sin_addr, 4);
	memcpy(ids + 4, &there.sin_port, 2);
	memcpy(ids + 6, &here.sin_addr, 4);
	memcpy(ids + 10, &here.sin_port, 2);
	return 0;
}

static void peer_mac(const char *label, const uint8_t *a, const uint8_t *b,
		     const uint8_t ids[12], uint8_t out[AGG_PEER_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, rb_key, rb_key_len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label, strlen(label));
	crypto_auth_hmacsha256_update(&st, a, AGG_PEER_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, b, AGG_PEER_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, ids, 12);
	crypto_auth_hmacsha256_final(&st, out);
}

static void *fake_target_main(void *arg)
{
	struct fake_target *ft = arg;
	struct timeval tv = { .tv_sec = TIMEOUT_MS / 1000 };
	uint8_t nonce_s[AGG_PEER_NONCE_LEN], chal[AGG_PEER_CHALLENGE_SIZE];
	uint8_t want[AGG_PEER_MAC_LEN], ids[12], *body = NULL;
	struct agg_hdr h;
	int fd;

	setsockopt(ft->lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	fd = accept(ft->lfd, NULL, NULL);
	close(ft->lfd);
	if (fd < 0)
		return NULL;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (ft_read(fd, &h, &body) || h.type != AGG_MSG_PEER_HELLO ||
	    h.len != AGG_PEER_NONCE_LEN)
		goto out;
	ft->hello = true;
	if (ft->mode == RB_BEFORE)
		goto out;
	memcpy(nonce_s, body, sizeof(nonce_s));
	randombytes_buf(chal, AGG_PEER_NONCE_LEN);
	if (link_ids(fd, ids))
		goto out;
	peer_mac("spare-aggd target 3", nonce_s, chal, ids, chal + AGG_PEER_NONCE_LEN);
	free(body);
	if (ft_send(fd, AGG_MSG_PEER_CHALLENGE, chal, sizeof(chal), 0) ||
	    ft_read(fd, &h, &body) || h.type != AGG_MSG_PEER_PROOF ||
	    h.len != AGG_PEER_MAC_LEN)
		goto out;
	peer_mac("spare-aggd source 3", chal, nonce_s, ids, want);
	if (sodium_memcmp(body, want, sizeof(want))) {
		ft->bad_proof = true;
		goto out;
	}
	free(body);
	if (ft_read(fd, &h, &body) || h.type != AGG_MSG_IMPORT)
		goto out;
	ft->import = true;
	if (ft_send(fd, AGG_MSG_IMPORT_REPLY, NULL, 0, 7))
		goto out;
	if (ft->mode == RB_DURING) {
		usleep(500 * 1000);	/* the source drains meanwhile */
		goto out;
	}
	for (;;) {			/* after: take the state and the commit */
		free(body);
		if (ft_read(fd, &h, &body))
			goto out;
		ft->n_state += h.type == AGG_MSG_IMPORT_STATE;
		if (h.type == AGG_MSG_IMPORT_COMMIT) {
			ft->commit = true;
			goto out;
		}
	}
out:
	free(body);
	close(fd);
	return NULL;
}

static int fake_target_start(struct fake_target *ft, int mode)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);

	*ft = (struct fake_target){ .mode = mode };
	ft->lfd = socket(AF_INET, SOCK_STREAM, 0);
	inet_pton(AF_INET, host, &sin.sin_addr);
	if (ft->lfd < 0 || bind(ft->lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(ft->lfd, 1) ||
	    getsockname(ft->lfd, (struct sockaddr *)&sin, &sl)) {
		failf("rollback: fake target: %s", strerror(errno));
		if (ft->lfd >= 0)
			close(ft->lfd);
		return -1;
	}
	ft->port = ntohs(sin.sin_port);
	pthread_create(&ft->tid, NULL, fake_target_main, ft);
	return 0;
}

static int read_key(void)
{
	FILE *f = key_file ? fopen(key_file, "re") : NULL;

	if (!f) {
		failf("rollback: needs -k KEYFILE, the daemons' key");
		return -1;
	}
	rb_key_len = fread(rb_key, 1, sizeof(rb_key), f);
	fclose(f);
	while (rb_key_len && (rb_key[rb_key_len - 1] == '\n' ||
			      rb_key[rb_key_len - 1] == '\r'))
		rb_key_len--;
	return sodium_init() < 0 ? -1 : 0;
}

struct rb_move {
	pthread_t tid;
	int mode, bad;
	unsigned int progress;		/* of the job's rank 0 */
};

/* Move job rb-MODE to a fake target dying at MODE: it must roll back. */
static void *rb_move_main(void *arg)
{
	struct rb_move *mv = arg;
	const char *m = rb_mode[mv->mode];
	struct fake_target ft;
	char job[32], msg[300];
	unsigned int status;
	uint32_t it = 0;
	int ret;

	snprintf(job, sizeof(job), "rb-%s", m);
	wait_progress(&mv->progress, RB_MOVE_AT);
	if (fake_target_start(&ft, mv->mode)) {
		mv->bad = 1;
		return NULL;
	}
	ret = migrate_one(job, "mt", ft.port, &it, msg, sizeof(msg), &status);
	pthread_join(ft.tid, NULL);
	printf("rollback: %s: target saw%s%s%s (%u state messages); the move: %s\n",
	       m, ft.hello ? " PEER_HELLO" : "", ft.import ? " IMPORT" : "",
	       ft.commit ? " IMPORT_COMMIT" : "", ft.n_state, msg);
	if (!ret) {
		failf("rollback: %s: the move succeeded", m);
		mv->bad = 1;
	} else if (!strstr(msg, mv->mode == RB_BEFORE ? "the job goes on here" :
			   "rolled back")) {
		failf("rollback: %s: the admin is not told the job goes on / rolled back", m);
		mv->bad = 1;
	}
	if (ft.bad_proof || !ft.hello ||
	    (mv->mode == RB_DURING && !ft.import) ||
	    (mv->mode == RB_AFTER && !ft.commit)) {
		failf("rollback: %s: the fake target did not get as far as it should", m);
		mv->bad = 1;
	}
	return NULL;
}

/*
 * Job rb-ref is not moved; jobs rb-before, rb-during and rb-after (same
 * spec, same gradients: server SGD with momentum, 2 workers, two tensors)
 * are asked at iteration RB_MOVE_AT to move to a target that dies then.
 * Each move must fail, its workers must go on at the source without
 * noticing, and every iteration's weights must equal, bit for bit, both the
 * local reference and rb-ref's. The source counts three failed moves.
 */
static int scenario_rollback(void)
{
	enum { W = 2 };
	struct sgd_worker ref[W], wk[RB_MODES][W];
	struct rb_move mv[RB_MODES];
	double failed0, failed1;
	char *st;
	int bad = 0;

	if (read_key())
		return 1;
	st = stats_of(port);
	failed0 = st ? metric(st, "spare_aggd_moves_failed_total") : -1;
	free(st);
	for (unsigned int r = 0; r < W; r++) {
		ref[r] = (struct sgd_worker){ .rank = r, .n_workers = W,
			.name = "rb-ref", .iters = RB_ITERS };
		pthread_create(&ref[r].tid, NULL, sgd_worker_main, &ref[r]);
	}
	for (int m = 0; m < RB_MODES; m++) {
		static char names[RB_MODES][16];

		snprintf(names[m], sizeof(names[m]), "rb-%s", rb_mode[m]);
		mv[m] = (struct rb_move){ .mode = m };
		for (unsigned int r = 0; r < W; r++) {
			wk[m][r] = (struct sgd_worker){ .rank = r, .n_workers = W,
				.name = names[m], .iters = RB_ITERS,
				.progress = r == 0 ? &mv[m].progress : NULL };
			pthread_create(&wk[m][r].tid, NULL, sgd_worker_main, &wk[m][r]);
		}
		pthread_create(&mv[m].tid, NULL, rb_move_main, &mv[m]);
	}
	for (unsigned int r = 0; r < W; r++) {
		pthread_join(ref[r].tid, NULL);
		bad |= ref[r].result;
	}
	for (int m = 0; m < RB_MODES; m++) {
		int jb = 0;

		pthread_join(mv[m].tid, NULL);
		bad |= mv[m].bad;
		for (unsigned int r = 0; r < W; r++) {
			pthread_join(wk[m][r].tid, NULL);
			jb |= wk[m][r].result;
			if (!wk[m][r].result && !ref[r].result &&
			    wk[m][r].hash != ref[r].hash) {
				failf("rollback: %s rank %u: weights differ from the unmoved job's",
				      rb_mode[m], r);
				jb = 1;
			}
		}
		if (!jb)
			printf("rollback: %s: both %sworkers went on at the source; all %u iterations bit-identical to the unmoved job\n",
			       rb_mode[m], use_rdma ? "RDMA " : "", RB_ITERS);
		bad |= jb;
	}
	st = stats_of(port);
	failed1 = st ? metric(st, "spare_aggd_moves_failed_total") : -1;
	free(st);
	if (failed0 < 0 || failed1 - failed0 != RB_MODES) {
		failf("rollback: STATS: want %d more failed moves, got %g -> %g",
		      RB_MODES, failed0, failed1);
		bad = 1;
	}
	return bad;
}

/* ---- progress reports (REPORT) and FlowCon ---- */

/* A REPORT's bytes, built by hand so that invalid values can be sent. */
static void report_bytes(uint8_t b[AGG_REPORT_SIZE], const char *name,
			 const char *token, uint64_t iter, double loss,
			 double cpu, uint64_t iter_total)
{
	uint64_t u;

	memset(b, 0, AGG_REPORT_SIZE);
	memcpy(b, name, strlen(name));
	memcpy(b + 32, token, strlen(token));
	b[64] = AGG_REPORT_VERSION;
	for (int i = 0; i < 8; i++)
		b[72 + i] = (uint8_t)(iter >> (8 * i));
	memcpy(&u, &loss, 8);
	for (int i = 0; i < 8; i++)
		b[80 + i] = (uint8_t)(u >> (8 * i));
	memcpy(&u, &cpu, 8);
	for (int i = 0; i < 8; i++)
		b[88 + i] = (uint8_t)(u >> (8 * i));
	for (int i = 0; i < 8; i++)
		b[96 + i] = (uint8_t)(iter_total >> (8 * i));
}

/* Send a REPORT; the ERROR status, 0 for a REPORT_REPLY (share, flags
 * filled), -1 for anything else or a closed connection. */
static int raw_report(int fd, const uint8_t b[AGG_REPORT_SIZE], uint32_t len,
		      double *share, uint32_t *flags, char *text, size_t tl)
{
	uint8_t hb[AGG_HDR_SIZE], body[AGG_REPORT_REPLY_SIZE];
	struct agg_hdr h;

	agg_hdr_init(&h, AGG_MSG_REPORT, len);
	agg_hdr_encode(&h, hb);
	if (send(fd, hb, sizeof(hb), MSG_NOSIGNAL) != sizeof(hb) ||
	    send(fd, b, len, MSG_NOSIGNAL) != (ssize_t)len)
		return -1;
	if (raw_recv(fd, hb, sizeof(hb)) || agg_hdr_decode(hb, &h, AGG_MAX_PART_ELEMS * 4))
		return -1;
	if (h.type == AGG_MSG_ERROR) {
		char *t = malloc(h.len + 1);

		if (!t || raw_recv(fd, t, h.len)) {
			free(t);
			return -1;
		}
		t[h.len] = 0;
		if (text)
			snprintf(text, tl, "%s", t);
		free(t);
		return (int)h.status;
	}
	if (h.type != AGG_MSG_REPORT_REPLY || raw_recv(fd, body, h.len) ||
	    agg_report_reply_decode(body, h.len, share, flags))
		return -1;
	return 0;
}

static double job_metric(const char *text, const char *name, const char *job)
{
	char key[160];

	snprintf(key, sizeof(key), "%s{job_name=\"%s\"}", name, job);
	return metric(text, key);
}

/*
 * Bad REPORTs: each gets an ERROR with the right status on the same
 * connection, the job's report state and its workers are untouched, and a
 * good REPORT afterwards is accepted. A REPORT header of the wrong size
 * breaks the header rule: ERROR, then that connection (only) is closed.
 */
static int scenario_report_bad(void)
{
	static const struct {
		const char *what, *name, *token;
		uint64_t iter;
		double loss, cpu;
		uint64_t total;
		int byte, val;		/* byte >= 0: then set b[byte] = val */
		unsigned int want;
	} cases[] = {
		{ "NaN loss", "rep-job", "tok-r", 20, NAN, 6, 0, -1, 0, AGG_EINVAL },
		{ "inf loss", "rep-job", "tok-r", 20, INFINITY, 6, 0, -1, 0, AGG_EINVAL },
		{ "negative loss", "rep-job", "tok-r", 20, -1.0, 6, 0, -1, 0, AGG_EINVAL },
		{ "NaN CPU-seconds", "rep-job", "tok-r", 20, 1.0, NAN, 0, -1, 0, AGG_EINVAL },
		{ "same iteration", "rep-job", "tok-r", 10, 1.0, 6, 0, -1, 0, AGG_ESEQ },
		{ "iteration backwards", "rep-job", "tok-r", 5, 1.0, 6, 0, -1, 0, AGG_ESEQ },
		{ "CPU-seconds backwards", "rep-job", "tok-r", 20, 1.0, 4, 0, -1, 0, AGG_EINVAL },
		{ "iter_total below iteration", "rep-job", "tok-r", 20, 1.0, 6, 19, -1, 0, AGG_EINVAL },
		{ "payload version 2", "rep-job", "tok-r", 20, 1.0, 6, 0, 64, 2, AGG_EVERSION },
		{ "reserved byte set", "rep-job", "tok-r", 20, 1.0, 6, 0, 68, 1, AGG_EPROTO },
	};
	uint8_t b[AGG_REPORT_SIZE];
	char text[300], *st = NULL;
	uint32_t job_id = 0, flags = 99;
	double share = 0;
	int fdw, fdr, bad = 0, r;

	fdw = raw_connect();
	fdr = raw_connect();
	if (fdw < 0 || fdr < 0)
		return 1;
	if (raw_register(fdw, "rep-job", "tok-r", 1, 0, &job_id, text, sizeof(text))) {
		failf("register rep-job: %s", text);
		return 1;
	}
	report_bytes(b, "rep-job", "tok-r", 10, 2.0, 5, 1000);
	r = raw_report(fdr, b, AGG_REPORT_SIZE, &share, &flags, text, sizeof(text));
	if (r) {
		failf("first REPORT: %d %s", r, r > 0 ? text : "");
		return 1;
	}
	/* without --flowcon: no share, no flags */
	if (!(share < 0) || flags != 0)
		failf("REPORT_REPLY without FlowCon: share %g flags %u", share, flags), bad = 1;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		report_bytes(b, cases[i].name, cases[i].token, cases[i].iter,
			     cases[i].loss, cases[i].cpu, cases[i].total);
		if (cases[i].byte >= 0)
			b[cases[i].byte] = (uint8_t)cases[i].val;
		text[0] = 0;
		r = raw_report(fdr, b, AGG_REPORT_SIZE, &share, &flags, text, sizeof(text));
		if (r != (int)cases[i].want) {
			failf("%s: got %d (%s), want ERROR %s", cases[i].what, r,
			      text, agg_status_str(cases[i].want));
			bad = 1;
		} else {
			printf("%s: ERROR %s: %s\n", cases[i].what,
			       agg_status_str(cases[i].want), text);
		}
	}
	/* an unknown job and a wrong token: one answer, and the connection
	 * closes (no guessing names or tokens on one connection) */
	{
		static const char *const who[2][2] = {
			{ "no-such-job", "tok-r" }, { "rep-job", "tok-x" },
		};
		char said[2][300];

		for (int i = 0; i < 2; i++) {
			int fd = raw_connect();
			char byte;

			if (fd < 0)
				return 1;
			report_bytes(b, who[i][0], who[i][1], 20, 1.0, 6, 0);
			said[i][0] = 0;
			r = raw_report(fd, b, AGG_REPORT_SIZE, &share, &flags,
				       said[i], sizeof(said[i]));
			if (r != AGG_EAUTH) {
				failf("REPORT %s/%s: got %d (%s), want ERROR EAUTH",
				      who[i][0], who[i][1], r, said[i]);
				bad = 1;
			} else if (recv(fd, &byte, 1, 0) != 0) {
				failf("REPORT %s/%s: the connection stayed open",
				      who[i][0], who[i][1]);
				bad = 1;
			} else {
				printf("REPORT %s/%s: ERROR EAUTH: %s; closed\n",
				       who[i][0], who[i][1], said[i]);
			}
			close(fd);
		}
		/* the same words, the name aside */
		if (strncmp(said[0], "REPORT: no job '", 16) ||
		    strcmp(strchr(said[0] + 16, '\''), strchr(said[1] + 16, '\''))) {
			failf("unknown job and wrong token answered differently: '%s' / '%s'",
			      said[0], said[1]);
			bad = 1;
		}
	}
	st = stats_of(port);
	if (!st)
		return 1;
	if (job_metric(st, "spare_aggd_job_report_iteration", "rep-job") != 10 ||
	    job_metric(st, "spare_aggd_job_report_loss", "rep-job") != 2.0 ||
	    job_metric(st, "spare_aggd_job_report_cpu_seconds", "rep-job") != 5 ||
	    job_metric(st, "spare_aggd_job_failed", "rep-job") != 0) {
		failf("a refused REPORT changed the job:\n%s", st);
		bad = 1;
	}
	if (metric(st, "spare_aggd_reports_refused_total") < (double)(sizeof(cases) / sizeof(cases[0]))) {
		failf("spare_aggd_reports_refused_total %g", metric(st, "spare_aggd_reports_refused_total"));
		bad = 1;
	}
	free(st);
	/* the same connection goes on; the worker's own connection may report */
	report_bytes(b, "rep-job", "tok-r", 11, 1.5, 6, 1000);
	r = raw_report(fdr, b, AGG_REPORT_SIZE, &share, &flags, text, sizeof(text));
	if (r)
		failf("good REPORT after the bad ones: %d %s", r, text), bad = 1;
	report_bytes(b, "rep-job", "tok-r", 12, 1.25, 7, 1000);
	r = raw_report(fdw, b, AGG_REPORT_SIZE, &share, &flags, text, sizeof(text));
	if (r)
		failf("REPORT on the worker's connection: %d %s", r, text), bad = 1;
	/* the library: a refused report leaves the connection usable */
	{
		struct spare_agg *a = connect_or_fail();

		if (!a)
			return 1;
		if (!spare_agg_report(a, "rep-job", "tok-r", 12, 1.0, 8, 0, NULL, NULL) ||
		    spare_agg_status(a) != AGG_ESEQ)
			failf("spare_agg_report of an old iteration: status %u", spare_agg_status(a)), bad = 1;
		if (spare_agg_report(a, "rep-job", "tok-r", 13, 1.0, 8, 1000, &share, &flags))
			failf("spare_agg_report: %s", spare_agg_error(a)), bad = 1;
		spare_agg_close(a);
	}
	st = stats_of(port);
	if (!st)
		return 1;
	if (job_metric(st, "spare_aggd_job_report_iteration", "rep-job") != 13 ||
	    job_metric(st, "spare_aggd_job_report_prev_loss", "rep-job") != 1.25 ||
	    job_metric(st, "spare_aggd_job_report_remaining_cpu_seconds", "rep-job") <= 0) {
		failf("good REPORTs not taken:\n%s", st);
		bad = 1;
	}
	free(st);
	/* a REPORT header of the wrong size: ERROR, then this connection closes */
	r = raw_report(fdr, b, AGG_REPORT_SIZE - 8, &share, &flags, text, sizeof(text));
	if (r != AGG_ESIZE)
		failf("short REPORT: got %d, want ESIZE", r), bad = 1;
	{
		struct agg_hdr h;

		if (raw_read_msg(fdr, &h, NULL, 0) != -1)
			failf("the connection of a short REPORT stayed open"), bad = 1;
	}
	close(fdr);
	/* the daemon and the job live on */
	st = stats_of(port);
	if (!st || job_metric(st, "spare_aggd_job_failed", "rep-job") != 0) {
		failf("after the short REPORT: %s", st ? st : "no stats");
		bad = 1;
	}
	free(st);
	close(fdw);
	if (!bad)
		printf("report-bad: %zu bad REPORTs refused, the job untouched\n",
		       sizeof(cases) / sizeof(cases[0]));
	return bad;
}

static bool wait_file(const char *path, int seconds)
{
	for (int i = 0; i < seconds * 10; i++) {
		if (!access(path, F_OK))
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * FlowCon live (the daemon at -p runs --flowcon; -q is a second daemon).
 * Jobs fc-fast1, fc-fast2 (loss x 0.8 per interval) and fc-slow (loss
 * down by 0.01 %) report 1 CPU-s per interval of 0.1 s and more (so each
 * wants more cores than a daemon's two) on -p, fc-other
 * (fast) on -q. After 8 intervals fc-slow must be on the watch list with
 * the smallest share and weight. Then, if $AGG_ITEST_READY is set, the
 * jobs stay until $AGG_ITEST_DONE exists (the run script's spare-aggctl
 * checks happen meanwhile).
 */
static int scenario_flowcon(void)
{
	static const char *const names[4] = { "fc-fast1", "fc-fast2", "fc-slow", "fc-other" };
	const char *ready = getenv("AGG_ITEST_READY"), *done = getenv("AGG_ITEST_DONE");
	int fdw[4], fdr[4], bad = 0;
	uint32_t flags[4] = { 0 };
	double share[4] = { 0 };
	char text[300], *st;
	unsigned int save = port;

	if (!port2) {
		failf("flowcon needs -q PORT2");
		return 1;
	}
	for (int j = 0; j < 4; j++) {
		uint32_t id;

		port = j == 3 ? port2 : save;
		fdw[j] = raw_connect();
		fdr[j] = raw_connect();
		if (fdw[j] < 0 || fdr[j] < 0)
			return 1;
		if (raw_register(fdw[j], names[j], "tok-fc", 1, 0, &id, text, sizeof(text))) {
			failf("register %s: %s", names[j], text);
			return 1;
		}
	}
	port = save;
	for (unsigned int r = 1; r <= 8; r++) {
		for (int j = 0; j < 4; j++) {
			uint8_t b[AGG_REPORT_SIZE];
			double loss = j == 2 ? 10.0 - 0.001 * r : 10.0 * pow(0.8, r);
			int ret;

			report_bytes(b, names[j], "tok-fc", 10 * r, loss, 1.0 * r, 1000000);
			ret = raw_report(fdr[j], b, AGG_REPORT_SIZE, &share[j], &flags[j],
					 text, sizeof(text));
			if (ret) {
				failf("REPORT %s interval %u: %d %s", names[j], r, ret, text);
				return 1;
			}
		}
		usleep(100000);
	}
	printf("REPORT_REPLY shares: fast1 %.3f fast2 %.3f slow %.3f (flags %u) other %g\n",
	       share[0], share[1], share[2], flags[2], share[3]);
	if (!(flags[2] & AGG_REPORT_WATCHED) || (flags[0] & AGG_REPORT_WATCHED) ||
	    !(flags[0] & AGG_REPORT_FLOWCON) || (flags[3] & AGG_REPORT_FLOWCON)) {
		failf("REPORT_REPLY flags: fast1 %u slow %u other %u", flags[0], flags[2], flags[3]);
		bad = 1;
	}
	st = stats_of(port);
	if (!st)
		return 1;
	{
		double s1 = job_metric(st, "spare_aggd_job_flowcon_share", "fc-fast1");
		double s2 = job_metric(st, "spare_aggd_job_flowcon_share", "fc-fast2");
		double ss = job_metric(st, "spare_aggd_job_flowcon_share", "fc-slow");
		double w1 = job_metric(st, "spare_aggd_job_weight", "fc-fast1");
		double ws = job_metric(st, "spare_aggd_job_weight", "fc-slow");
		double total = metric(st, "spare_aggd_cores_max");

		printf("stats: shares %.3f %.3f %.3f of %g cores, weights %g %g\n",
		       s1, s2, ss, total, w1, ws);
		if (job_metric(st, "spare_aggd_job_flowcon_watched", "fc-slow") != 1 ||
		    job_metric(st, "spare_aggd_job_flowcon_watched", "fc-fast1") != 0 ||
		    job_metric(st, "spare_aggd_job_flowcon_watched", "fc-fast2") != 0) {
			failf("watch list wrong:\n%s", st);
			bad = 1;
		}
		if (!(ss > 0 && ss < total / 3 && ss < s1 && ss < s2) ||
		    fabs(s1 + s2 + ss - total) > 1e-3 || fabs(ss - share[2]) > 1e-5) {
			failf("shares wrong: %g %g %g of %g (reply %g)", s1, s2, ss, total, share[2]);
			bad = 1;
		}
		if (!(ws >= 1 && ws < w1 && w1 > 100)) {
			failf("weights wrong: fast1 %g slow %g", w1, ws);
			bad = 1;
		}
		if (metric(st, "spare_aggd_flowcon") != 1 || metric(st, "spare_aggd_flowcon_decisions_total") < 3) {
			failf("spare_aggd_flowcon / decisions:\n%s", st);
			bad = 1;
		}
	}
	free(st);
	if (ready && done) {
		FILE *f = fopen(ready, "w");

		if (f)
			fclose(f);
		if (!wait_file(done, 90))
			failf("%s never appeared", done), bad = 1;
	}
	for (int j = 0; j < 4; j++) {
		close(fdr[j]);
		close(fdw[j]);
	}
	return bad;
}

/*
 * ---- a move's one-time token (-k KEYFILE, -R -S SRC) ----
 *
 * Plays a source that holds the daemons' key: proves it, IMPORTs an
 * optimizer job (2 partitions of 1024 fp32) offering the RDMA state
 * transfer, and gets the target's buffers and token. Then, over RDMA:
 * a connection with a wrong token and one naming another job are
 * rejected (no QP in the move's PD: nothing is written); the right token
 * connects and WRITEs all four buffers; the same token again is rejected
 * (one connection per move). Closing the link abandons the import, and
 * the token of an abandoned import is refused (token_after_abandon()).
 */
static int send_hdr_rank(int fd, unsigned int type, const void *body,
			 uint32_t len, uint32_t rank)
{
	uint8_t hb[AGG_HDR_SIZE];
	struct agg_hdr h;

	agg_hdr_init(&h, type, len);
	h.rank = rank;
	agg_hdr_encode(&h, hb);
	if (send(fd, hb, sizeof(hb), MSG_NOSIGNAL) != (ssize_t)sizeof(hb) ||
	    (len && send(fd, body, len, MSG_NOSIGNAL) != (ssize_t)len))
		return -1;
	return 0;
}

/*
 * A link to the daemon as a source that holds the daemons' key: PEER_HELLO,
 * the proof, then IMPORT of @spec offering RDMA_STATE. Returns the link
 * with the answer in @h and @body (an IMPORT_REPLY or an ERROR), or -1.
 */
static int peer_import(const struct agg_job_spec *spec, struct agg_hdr *h,
		       uint8_t **body)
{
	uint8_t nonce_s[AGG_PEER_NONCE_LEN], proof[AGG_PEER_MAC_LEN], ids[12];
	struct sockaddr_in here, there;
	socklen_t hl = sizeof(here), tl = sizeof(there);
	size_t ilen = AGG_IMPORT_TENANT_LEN + agg_register_size(spec->n_tensors);
	uint8_t *imp;
	int fd = raw_connect();

	*body = NULL;
	if (fd < 0)
		return -1;
	randombytes_buf(nonce_s, sizeof(nonce_s));
	if (ft_send(fd, AGG_MSG_PEER_HELLO, nonce_s, sizeof(nonce_s), 0) ||
	    ft_read(fd, h, body) || h->type != AGG_MSG_PEER_CHALLENGE ||
	    getsockname(fd, (struct sockaddr *)&here, &hl) ||
	    getpeername(fd, (struct sockaddr *)&there, &tl)) {
		failf("peer import: no PEER_CHALLENGE");
		goto fail;
	}
	memcpy(ids, &here.sin_addr, 4);
	memcpy(ids + 4, &here.sin_port, 2);
	memcpy(ids + 6, &there.sin_addr, 4);
	memcpy(ids + 10, &there.sin_port, 2);
	peer_mac("spare-aggd source 3", *body, nonce_s, ids, proof);
	free(*body);
	*body = NULL;
	imp = calloc(1, ilen);
	if (!imp || ft_send(fd, AGG_MSG_PEER_PROOF, proof, sizeof(proof), 0) ||
	    agg_register_encode(spec, imp + AGG_IMPORT_TENANT_LEN,
				ilen - AGG_IMPORT_TENANT_LEN) < 0 ||
	    send_hdr_rank(fd, AGG_MSG_IMPORT, imp, (uint32_t)ilen,
			  AGG_PEER_CAP_RDMA_STATE) ||
	    ft_read(fd, h, body)) {
		free(imp);
		failf("peer import: no answer to the IMPORT");
		goto fail;
	}
	free(imp);
	return fd;
fail:
	free(*body);
	*body = NULL;
	close(fd);
	return -1;
}

/* An IMPORT_REPLY that took RDMA_STATE for @n buffers of @want bytes. */
static int took_rdma(const struct agg_hdr *h, const uint8_t *body, uint32_t n,
		     const uint32_t *want, struct agg_state_rdma *r)
{
	return h->type == AGG_MSG_IMPORT_REPLY &&
	       h->rank == AGG_PEER_CAP_RDMA_STATE &&
	       !agg_state_rdma_decode(body, h->len, n, want, r) ? 0 : -1;
}

/* state_send() must be refused by rdma_cm before any WRITE. */
static int want_rejected(const struct sockaddr_in *src,
			 const struct agg_state_rdma *r, uint32_t job_id,
			 const struct state_local *lb, const char *what)
{
	char why[200];
	enum state_send_result res = state_send(src, r, job_id, lb, 4, 5000,
						why, sizeof(why));

	if (res != STATE_NOT_SENT || !strstr(why, "REJECTED")) {
		failf("state-token: %s: want rejected before any WRITE, got %d (%s)",
		      what, res, res == STATE_SENT ? "every WRITE completed" : why);
		return 1;
	}
	printf("state-token: %s -> %s\n", what, why);
	return 0;
}

/*
 * The token of an import the source abandoned (its link closed before the
 * commit) is dead: the target dropped the move's PD and MRs. Import job
 * "state-token-ab" and close the link without connecting; once the
 * daemon has retired the job (a new IMPORT of the name is taken, not
 * ESTATE), the old token is refused under the old job id and the new
 * one, and the new import's own token still WRITEs.
 */
static int token_after_abandon(struct agg_job_spec spec,
			       const struct sockaddr_in *src,
			       const struct state_local *lb, const uint32_t *want)
{
	struct agg_state_buf b1[4], b2[4];
	struct agg_state_rdma r1 = { .bufs = b1 }, r2 = { .bufs = b2 };
	uint8_t *body = NULL;
	struct agg_hdr h;
	uint32_t old_id;
	char why[200];
	int fd, bad = 0;

	snprintf(spec.name, sizeof(spec.name), "state-token-ab");
	fd = peer_import(&spec, &h, &body);
	if (fd < 0 || took_rdma(&h, body, 4, want, &r1)) {
		failf("state-token: the second import did not take RDMA_STATE");
		goto out;
	}
	old_id = h.job_id;
	close(fd);
	free(body);
	body = NULL;
	for (int i = 0; i < 100; i++) {
		fd = peer_import(&spec, &h, &body);
		if (fd < 0 || h.type == AGG_MSG_IMPORT_REPLY)
			break;
		close(fd);
		free(body);
		body = NULL;
		usleep(100 * 1000);
	}
	if (fd < 0 || took_rdma(&h, body, 4, want, &r2)) {
		failf("state-token: the abandoned import's job was not retired within 10 s");
		goto out;
	}
	printf("state-token: import of job %u abandoned; the name imported again as job %u\n",
	       old_id, h.job_id);
	bad |= want_rejected(src, &r1, old_id, lb, "the abandoned import's token");
	bad |= want_rejected(src, &r1, h.job_id, lb,
			     "the abandoned import's token for the new import");
	if (state_send(src, &r2, h.job_id, lb, 4, 5000, why, sizeof(why)) != STATE_SENT) {
		failf("state-token: the new import's token: want the WRITEs done (%s)", why);
		bad = 1;
	} else {
		printf("state-token: the new import's own token: 4 WRITEs completed\n");
	}
	close(fd);
	free(body);
	return bad;
out:
	if (fd >= 0)
		close(fd);
	free(body);
	return 1;
}

static int scenario_state_token(void)
{
	struct agg_tensor_desc t = { "w", 2048 };
	struct agg_job_spec spec = {
		.name = "state-token", .token = "st", .n_workers = 1,
		.dtype = AGG_DTYPE_F32, .opt = AGG_OPT_SGD_MOMENTUM, .weight = 1,
		.part_elems = 1024, .n_tensors = 1, .lr = 0.1f, .momentum = 0.9f,
		.tensors = &t,
	};
	uint8_t *body = NULL;
	struct agg_state_buf dbufs[4];
	struct agg_state_rdma r = { .bufs = dbufs }, bad;
	uint32_t want[4] = { 4096, 4096, 4096, 4096 };
	static float src_buf[4][1024];
	struct state_local lb[4];
	struct sockaddr_in src = { .sin_family = AF_INET };
	enum state_send_result res;
	struct agg_hdr h;
	char why[200];
	int fd, bad_n = 0;

	if (read_key() || !rdma_src || inet_pton(AF_INET, rdma_src, &src.sin_addr) != 1) {
		failf("state-token: needs -k KEYFILE and -R -S SRC");
		return 1;
	}
	fd = peer_import(&spec, &h, &body);
	if (fd < 0)
		return 1;
	if (took_rdma(&h, body, 4, want, &r)) {
		failf("state-token: IMPORT_REPLY type %u caps 0x%x len %u: not the RDMA buffers",
		      h.type, h.rank, h.len);
		goto fail;
	}
	printf("state-token: the target took RDMA_STATE: 4 buffers at %u.%u.%u.%u:%u\n",
	       r.addr[0], r.addr[1], r.addr[2], r.addr[3], r.port);
	for (unsigned int i = 0; i < 4; i++) {
		for (unsigned int k = 0; k < 1024; k++)
			src_buf[i][k] = (float)(i * 1024 + k);
		lb[i] = (struct state_local){ src_buf[i], 4096 };
	}
	bad = r;
	bad.token[5] ^= 0x40;
	bad_n += want_rejected(&src, &bad, h.job_id, lb, "a wrong token");
	bad_n += want_rejected(&src, &r, h.job_id + 1000, lb,
			       "the token with another job's id");
	res = state_send(&src, &r, h.job_id, lb, 4, 5000, why, sizeof(why));
	if (res != STATE_SENT) {
		failf("state-token: the right token: want the WRITEs done, got %d (%s)", res, why);
		bad_n++;
	} else {
		printf("state-token: the right token: 4 WRITEs completed\n");
	}
	bad_n += want_rejected(&src, &r, h.job_id, lb, "the token replayed");
	free(body);
	close(fd);
	return bad_n + token_after_abandon(spec, &src, lb, want);
fail:
	free(body);
	close(fd);
	return 1;
}

/*
 * ---- a move's RDMA state transfer under faults (-H/-q: the target) ----
 *
 * The shell (tests/vm/agg/rdma-faults.sh) sets the fault up at the target
 * or on the wire. Job ref-MODE stays; job mv-MODE (the same spec and
 * gradients: server SGD with momentum, 2 workers, two tensors) is asked at
 * iteration RB_MOVE_AT to move to the target. move-fallback: the move must
 * succeed (the fault made its state go over TCP after all); move-cut: it
 * must fail after the state transfer began, the admin told it rolled back;
 * move-kill: the same, the target killed while the WRITEs hang, and the
 * move must fail on the lost link within @max_ms, and the job go on (an
 * iteration done) within @max_ms too (not after the WRITEs' own 30 s
 * bound: the source's transfer is stopped, aggd.md "Who owns what while
 * the state moves"); move-term: the same, the target stopped
 * by SIGTERM. move-srcterm: the source is stopped by SIGTERM while the
 * WRITEs hang, so the job ends with its source and this fails; only the
 * shell's checks (the source's exit, the target's abandon) say anything.
 * Either way every iteration's weights equal the local reference and the
 * unmoved job's, bit for bit.
 */
/*
 * After a failed move: the job's rank 0 must finish another iteration
 * before @max_ms from @t0 (the move's request). The admin's answer comes
 * at once (mig_fail), but the held workers go on only once the source's
 * transfer thread has ended: a transfer that ignores its cancel holds
 * them for the WRITEs' own 30 s.
 */
static int resumed_within(const char *mode, unsigned int *progress, double t0,
			  double max_ms)
{
	unsigned int p = __atomic_load_n(progress, __ATOMIC_ACQUIRE);
	double ms;

	if (p >= RB_ITERS)
		return 0;
	while (__atomic_load_n(progress, __ATOMIC_ACQUIRE) <= p &&
	       mono_ms() - t0 < max_ms)
		usleep(1000);
	ms = mono_ms() - t0;
	if (__atomic_load_n(progress, __ATOMIC_ACQUIRE) <= p) {
		failf("%s: the job did not go on: no iteration after %u within %.0f ms of the move",
		      mode, p, max_ms);
		return 1;
	}
	printf("%s: the job went on: iteration %u done %.0f ms after the move's request\n",
	       mode, p + 1, ms);
	return 0;
}

static int scenario_move_fault(const char *mode, bool want_moved,
			       const char *want_text, double max_ms)
{
	enum { W = 2 };
	struct sgd_worker ref[W], wk[W];
	char names[2][32], msg[300];
	unsigned int progress = 0, status;
	uint32_t it = 0;
	int bad = 0, ret;
	double t0, ms;

	if (!port2) {
		failf("%s: needs -q PORT of the target daemon", mode);
		return 1;
	}
	/* the workers wait at the barrier while the WRITEs time out */
	worker_timeout_ms = 90000;
	snprintf(names[0], sizeof(names[0]), "ref-%s", mode);
	snprintf(names[1], sizeof(names[1]), "mv-%s", mode);
	for (unsigned int r = 0; r < W; r++) {
		ref[r] = (struct sgd_worker){ .rank = r, .n_workers = W,
			.name = names[0], .iters = RB_ITERS };
		wk[r] = (struct sgd_worker){ .rank = r, .n_workers = W,
			.name = names[1], .iters = RB_ITERS,
			.progress = r == 0 ? &progress : NULL };
		pthread_create(&ref[r].tid, NULL, sgd_worker_main, &ref[r]);
		pthread_create(&wk[r].tid, NULL, sgd_worker_main, &wk[r]);
	}
	wait_progress(&progress, RB_MOVE_AT);
	t0 = mono_ms();
	ret = migrate_one(names[1], "mt", port2, &it, msg, sizeof(msg), &status);
	ms = mono_ms() - t0;
	printf("%s: the move (%.0f ms): %s\n", mode, ms, msg);
	if (max_ms && ms > max_ms) {
		failf("%s: the move took %.0f ms, more than %.0f", mode, ms, max_ms);
		bad = 1;
	}
	if (max_ms && ret)
		bad |= resumed_within(mode, &progress, t0, max_ms);
	if (want_moved && ret) {
		failf("%s: the move failed: %s", mode, msg);
		bad = 1;
	} else if (!want_moved && !ret) {
		failf("%s: the move succeeded", mode);
		bad = 1;
	} else if (!want_moved && (!strstr(msg, want_text) || !strstr(msg, "rolled back"))) {
		failf("%s: want \"%s ... rolled back\" from the source", mode, want_text);
		bad = 1;
	}
	for (unsigned int r = 0; r < W; r++) {
		pthread_join(ref[r].tid, NULL);
		pthread_join(wk[r].tid, NULL);
		if (ref[r].result || wk[r].result) {
			bad = 1;
		} else if (wk[r].hash != ref[r].hash) {
			failf("%s rank %u: weights differ from the unmoved job's", mode, r);
			bad = 1;
		}
	}
	if (!bad)
		printf("%s: the job %s; all %u iterations of both %sworkers bit-identical to the unmoved job\n",
		       mode, want_moved ? "moved with its state over TCP" :
		       "went on at the source", RB_ITERS, use_rdma ? "RDMA " : "");
	return bad;
}

/*
 * ---- a move's pause by state size and transport (a bench, not a test) ----
 *
 * tests/vm/bench/agg-move-pause.sh: for each run, each state size in
 * $AGG_BENCH_SIZES_MIB (weights + momentum, MiB; default 64 128 256) and
 * both transports, one job of one worker with server SGD: iteration 0 at
 * the source (-p), the move, iteration 1 at the target. The target is -H
 * at -q PORT2 (a daemon with --rdma: the state by RDMA WRITE) or at
 * PORT2 + 1 (one without: over the TCP link); the order alternates from
 * run to run. $AGG_BENCH_FIRST_RUN numbers the first run (1), and
 * $AGG_BENCH_TAG (up to 4 letters) ends every job's name, so that several
 * sources' moves in one boot have names of their own. The worker waits
 * for the move to finish before iteration 1, so the job is quiescent at
 * once and the source's pause is the state transfer and the commit
 * alone. Prints the admin's time for each move;
 * the source's log has the pause ("... ms from the barrier to the
 * target's commit, state over ...").
 */
struct mp_worker {
	pthread_t tid;
	char name[32];
	uint64_t nelem;
	unsigned int iter0_done, go;
	bool failed;
	int result;
};

static void *mp_worker_main(void *arg)
{
	struct mp_worker *w = arg;
	struct spare_agg_tensor t = { "w", w->nelem };
	struct spare_agg_job job = {
		.name = w->name, .token = "mp", .n_workers = 1, .rank = 0,
		.dtype = AGG_DTYPE_F32, .part_elems = AGG_MAX_PART_ELEMS,
		.opt = AGG_OPT_SGD_MOMENTUM, .lr = 0.01f, .momentum = 0.9f,
	};
	float *buf = malloc(w->nelem * sizeof(float));
	struct spare_agg *a = connect_or_fail();

	w->result = -1;
	if (!a || !buf || spare_agg_register(a, &job, &t, 1)) {
		failf("%s: register: %s", w->name, a ? spare_agg_error(a) : "no connection");
		goto out;
	}
	for (unsigned int it = 0; it < 2; it++) {
		for (uint64_t i = 0; i < w->nelem; i++)
			buf[i] = 1e-3f * (float)(it + 1);
		if (spare_agg_allreduce(a, 0, it, buf, buf)) {
			failf("%s iteration %u: %s", w->name, it, spare_agg_error(a));
			goto out;
		}
		if (it)
			break;
		__atomic_store_n(&w->iter0_done, 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE))
			usleep(1000);
	}
	spare_agg_leave(a);
	w->result = 0;
out:
	w->failed = w->result != 0;
	__atomic_store_n(&w->iter0_done, 1, __ATOMIC_RELEASE);
	spare_agg_close(a);
	free(buf);
	return NULL;
}

static int move_pause_one(unsigned int mib, bool rdma, unsigned int run)
{
	struct mp_worker w = { .nelem = (uint64_t)mib << 17 };	/* 8 bytes each */
	char err[256], msg[300];
	struct spare_agg *a;
	uint32_t it = 0;
	const char *tag = getenv("AGG_BENCH_TAG");
	double t0;
	int ret;

	snprintf(w.name, sizeof(w.name), "mp-%u-%s-%u%.4s", mib, rdma ? "rdma" : "tcp",
		 run, tag ? tag : "");
	pthread_create(&w.tid, NULL, mp_worker_main, &w);
	/* unbounded: the worker's calls have timeouts, and it sets this when
	 * it fails too */
	while (!__atomic_load_n(&w.iter0_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	a = spare_agg_connect(host, port, err, sizeof(err));
	if (w.failed || !a) {	/* the worker failed before its move */
		__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
		pthread_join(w.tid, NULL);
		if (!a)
			failf("move-pause: %s", err);
		spare_agg_close(a);
		return 1;
	}
	spare_agg_set_timeout(a, 600000);
	t0 = mono_ms();
	ret = spare_agg_migrate(a, w.name, "mp", host_of(port2),
				rdma ? port2 : port2 + 1, &it, msg, sizeof(msg));
	if (ret)
		failf("move-pause: %s: %s", w.name, spare_agg_error(a));
	else
		printf("move-pause: %s: %u MiB of state, target with%s --rdma: the admin waited %.1f ms (%s)\n",
		       w.name, mib, rdma ? "" : "out", mono_ms() - t0, msg);
	spare_agg_close(a);
	__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
	pthread_join(w.tid, NULL);
	return ret || w.result;
}

static int scenario_move_pause(void)
{
	const char *env = getenv("AGG_BENCH_SIZES_MIB");
	const char *runs_env = getenv("AGG_BENCH_RUNS");
	const char *first_env = getenv("AGG_BENCH_FIRST_RUN");
	unsigned int sizes[8], n = 0, runs = runs_env ? (unsigned int)atoi(runs_env) : 3;
	unsigned int first = first_env ? (unsigned int)atoi(first_env) : 1;
	char list[128], *save = NULL;
	int bad = 0;

	snprintf(list, sizeof(list), "%s", env ? env : "64 128 256");
	for (char *tok = strtok_r(list, " ,", &save); tok && n < 8;
	     tok = strtok_r(NULL, " ,", &save))
		sizes[n++] = (unsigned int)atoi(tok);
	if (!port2 || !n || !runs) {
		failf("move-pause: needs -H HOST -q PORT2 (PORT2 + 1: the target without --rdma)");
		return 1;
	}
	worker_timeout_ms = 600000;
	for (unsigned int run = first; run < first + runs; run++)
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int k = 0; k < 2; k++)
				bad |= move_pause_one(sizes[i], (k == 0) == (run % 2 == 1), run);
	return bad;
}

/*
 * ---- a bystander job on the source while a large job moves ----
 *
 * tests/vm/agg/move-bystander.sh: another job of the source daemon (-p)
 * must keep completing rounds while a job with $AGG_MOVE_MIB MiB of state
 * (weights + momentum, default 64) moves to -H: to -q PORT2 (a target
 * with --rdma: the state by RDMA WRITE), then one with $AGG_MOVE_TCP_MIB
 * (default 4 x $AGG_MOVE_MIB) to PORT2 + 1 (one without: over the TCP
 * link). The TCP move is the faster by far (64 MiB in 120-170 ms under
 * TCG, against 1.1-2 s by RDMA on soft-RoCE), so it moves more: in a
 * pause of 120 ms one scheduling wait of a guest sharing 2 cores is half
 * of it (session 56's CI), while the stall this catches is all of it. The bystander (one TCP worker, no optimizer, 64 KiB)
 * runs rounds back to back and notes when each completed. The window is
 * the moving job's pause, read from the source's log ($AGG_SRC_LOG: "...
 * 'NAME' moved to ... (Y ms from the barrier to the target's commit,
 * state over VIA)") and ending when the admin's MIGRATE was answered (the
 * source answers when it logs that line). Passes when the bystander
 * completed at least 3 rounds in the window and never waited more than
 * half of it for one (a loop blocked by the move waits nearly all of it:
 * 0.99 of the pause on the daemon this caught; a third, before session
 * 49, failed once on a busy machine with one scheduling wait of 0.38 of a
 * short TCP pause, perf/agg-move-bystander). The figures: rounds in the window, the longest
 * wait, and the bystander's round time p50/max before the move and in
 * the window. $AGG_BENCH_TAG (up to 4 letters) ends the jobs' names, so
 * that two sources in one boot move jobs of their own.
 */
#define BY_ELEMS	16384
#define BY_MAX_ROUNDS	200000

struct bystander {
	pthread_t tid;
	char name[32];
	unsigned int stop;
	double *done_ms;	/* when each round completed */
	unsigned int n;
	int result;
};

static void *bystander_main(void *arg)
{
	struct bystander *b = arg;
	struct spare_agg_tensor t = { "g", BY_ELEMS };
	struct spare_agg_job job = {
		.name = b->name, .token = "by", .n_workers = 1, .rank = 0,
		.dtype = AGG_DTYPE_F32, .part_elems = BY_ELEMS,
	};
	float *buf = malloc(BY_ELEMS * sizeof(float));
	struct spare_agg *a = connect_or_fail();

	b->result = -1;
	if (!a || !buf || spare_agg_register(a, &job, &t, 1)) {
		failf("%s: register: %s", b->name, a ? spare_agg_error(a) : "no connection");
		goto out;
	}
	for (uint32_t it = 0; !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE) &&
	     b->n < BY_MAX_ROUNDS; it++) {
		fill(AGG_DTYPE_F32, buf, BY_ELEMS, 77, 0, it);
		if (spare_agg_allreduce(a, 0, it, buf, buf)) {
			failf("%s round %u: %s", b->name, it, spare_agg_error(a));
			goto out;
		}
		/* read once the thread is joined */
		b->done_ms[b->n++] = mono_ms();
	}
	spare_agg_leave(a);
	b->result = 0;
out:
	spare_agg_close(a);
	free(buf);
	return NULL;
}

/* The pause of the move of @name (ms) and its transport, from the source's
 * log; -1 if the line is not there. */
static double logged_pause(const char *log, const char *name, char via[8])
{
	char want[64], line[1024];
	double pause = -1;
	FILE *f = fopen(log, "r");

	snprintf(want, sizeof(want), "'%s' moved to", name);
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, want), *q;

		if (!p || !(q = strstr(p, " ms (")))
			continue;
		if (sscanf(q, " ms (%lf ms from the barrier to the target's commit, state over %7[A-Z]",
			   &pause, via) != 2)
			pause = -1;
	}
	if (f)
		fclose(f);
	return pause;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Round times (gaps between completions) in [from, to]: count, p50, max. */
static unsigned int round_times(const struct bystander *b, double from,
				double to, double *p50, double *max)
{
	double *d = malloc((b->n + 1) * sizeof(*d));
	unsigned int k = 0;

	for (unsigned int i = 1; d && i < b->n; i++)
		if (b->done_ms[i] >= from && b->done_ms[i] <= to)
			d[k++] = b->done_ms[i] - b->done_ms[i - 1];
	*p50 = *max = 0;
	if (k) {
		qsort(d, k, sizeof(*d), cmp_double);
		*p50 = d[k / 2];
		*max = d[k - 1];
	}
	free(d);
	return k;
}

static int move_bystander_one(unsigned int mib, bool rdma, const char *log,
			      const char *tag)
{
	struct bystander b = { 0 };
	struct mp_worker w = { .nelem = (uint64_t)mib << 17 };	/* 8 bytes each */
	char err[256], msg[300], via[8] = "";
	double t_mover, t1 = 0, pause = -1, gap = 0, p50, max, b50, bmax, last;
	unsigned int in_window = 0, n_before;
	struct spare_agg *a;
	uint32_t it = 0;
	int bad = 0;

	snprintf(b.name, sizeof(b.name), "by-%s%.4s", rdma ? "rdma" : "tcp", tag);
	snprintf(w.name, sizeof(w.name), "mb-%u-%s%.4s", mib, rdma ? "rdma" : "tcp", tag);
	b.done_ms = malloc(BY_MAX_ROUNDS * sizeof(*b.done_ms));
	if (!b.done_ms)
		return 1;
	pthread_create(&b.tid, NULL, bystander_main, &b);
	sleep(2);
	t_mover = mono_ms();
	pthread_create(&w.tid, NULL, mp_worker_main, &w);
	while (!__atomic_load_n(&w.iter0_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	a = spare_agg_connect(host, port, err, sizeof(err));
	if (w.failed || !a) {
		if (!a)
			failf("move-bystander: %s", err);
		bad = 1;
		goto out;
	}
	spare_agg_set_timeout(a, 600000);
	if (spare_agg_migrate(a, w.name, "mp", host_of(port2),
			      rdma ? port2 : port2 + 1, &it, msg, sizeof(msg))) {
		failf("move-bystander: %s: %s", w.name, spare_agg_error(a));
		bad = 1;
	}
	t1 = mono_ms();
	sleep(1);
out:
	spare_agg_close(a);
	__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
	pthread_join(w.tid, NULL);
	__atomic_store_n(&b.stop, 1, __ATOMIC_RELEASE);
	pthread_join(b.tid, NULL);
	if (bad || w.result || b.result)
		goto done;
	for (int i = 0; i < 20 && pause < 0; i++, usleep(100 * 1000))
		pause = logged_pause(log, w.name, via);
	if (pause < 0) {
		failf("move-bystander: no pause line for '%s' in %s", w.name, log);
		bad = 1;
		goto done;
	}
	/* the longest wait in the window: its edges count as completions */
	last = t1 - pause;
	for (unsigned int i = 0; i < b.n; i++) {
		if (b.done_ms[i] < t1 - pause || b.done_ms[i] > t1)
			continue;
		in_window++;
		gap = b.done_ms[i] - last > gap ? b.done_ms[i] - last : gap;
		last = b.done_ms[i];
	}
	gap = t1 - last > gap ? t1 - last : gap;
	n_before = round_times(&b, 0, t_mover, &b50, &bmax);
	round_times(&b, t1 - pause, t1, &p50, &max);
	printf("move-bystander: %s: %u MiB of state over %s, pause %.1f ms: bystander '%s' completed %u rounds in it, longest wait %.1f ms, round p50 %.1f ms max %.1f ms; before the move: %u rounds, p50 %.1f ms max %.1f ms\n",
	       w.name, mib, via, pause, b.name, in_window, gap, p50, max,
	       n_before, b50, bmax);
	if (strcmp(via, rdma ? "RDMA" : "TCP")) {
		failf("move-bystander: %s: the state went over %s", w.name, via);
		bad = 1;
	}
	if (in_window < 3 || gap > pause / 2) {
		failf("move-bystander: %s: the bystander job stalled while the state moved (%u rounds in %.1f ms, one wait of %.1f ms)",
		      w.name, in_window, pause, gap);
		bad = 1;
	}
done:
	free(b.done_ms);
	return bad || w.result || b.result;
}

static int scenario_move_bystander(void)
{
	const char *mib_env = getenv("AGG_MOVE_MIB");
	const char *tcp_mib_env = getenv("AGG_MOVE_TCP_MIB");
	const char *log = getenv("AGG_SRC_LOG");
	const char *tag = getenv("AGG_BENCH_TAG");
	unsigned int mib = mib_env ? (unsigned int)atoi(mib_env) : 64;
	int bad = 0;

	if (!port2 || !log || !mib || (tcp_mib_env && atoi(tcp_mib_env) <= 0)) {
		failf("move-bystander: needs -H HOST -q PORT2 (PORT2 + 1: the target without --rdma) and AGG_SRC_LOG");
		return 1;
	}
	worker_timeout_ms = 120000;
	bad |= move_bystander_one(mib, true, log, tag ? tag : "");
	bad |= move_bystander_one(tcp_mib_env ? (unsigned int)atoi(tcp_mib_env) : 4 * mib,
				  false, log, tag ? tag : "");
	return bad;
}

/*
 * ---- a bystander job while a large job's outputs are registered ----
 *
 * tests/vm/bench/agg-reg-stall.sh (perf-aggd.md 5.5): how long the daemon's
 * event loop stalls while a large job's partition outputs are registered
 * for RDMA (ibv_reg_mr of the whole output region, started by the job's
 * first RDMA REGISTER: on the loop, before the REGISTER is answered, up to
 * c2309ea0; on a thread of its own since). A bystander job of one TCP
 * worker (64 KiB, no optimizer) runs rounds back to back and notes each
 * round's start and end (CLOCK_MONOTONIC, ns). After a second, the large
 * job (2 workers, one fp32 tensor of $AGG_STALL_MIB MiB, default 256) goes
 * through three windows, a second apart:
 *   alloc: rank 0 REGISTERs over TCP: the daemon creates the job, its
 *          outputs and each rank's slots allocated and faulted in (on the
 *          loop up to 766ef291, on a thread since: the REGISTER is
 *          answered when they are ready; no registration: not an RDMA
 *          connection);
 *   reg:   rank 1 REGISTERs over RDMA (-R, -S): the registration starts;
 *          the window printed ends when the REGISTER is answered (a daemon
 *          that registers on its loop has registered then); a daemon that
 *          registers off its loop logs how long it took, and
 *          tools/aggbench/regstall extends the window to that. Nothing
 *          polls the daemon in the window (a STATS costs the loop time);
 *          a second later spare_aggd_rdma_output_regs_running must be 0
 *          (or not there: the old daemon has no such gauge);
 *   free:  both ranks LEAVE and close; it ends when spare_aggd_jobs is
 *          back to what it was before alloc (the region deregistered and
 *          the job freed, on the loop up to 766ef291; since, the job
 *          leaves the table and a thread deregisters and unmaps it).
 * AGG_STALL_TCP=1 without -R: rank 1 over TCP too (a host without RDMA:
 * the reg window is then a plain REGISTER; alloc and free as above).
 * Printed, for tools/aggbench/regstall: "RS-WIN TAG RUN MIB KIND T0 T1"
 * per window and "RS-ROUND TAG RUN MIB START END" per bystander round that
 * ends or starts within 300 ms of a window (ns since the bystander
 * started).
 * $AGG_BENCH_TAG names the daemon, $AGG_BENCH_FIRST_RUN the run's number.
 * Fails only if a step fails; the figures are not judged here.
 */
#define RS_MARGIN_NS	300000000ULL
#define RS_POLL_US	5000

struct rs_bystander {
	pthread_t tid;
	unsigned int stop;
	uint64_t t0;			/* ns: the bystander's start */
	uint64_t (*round)[2];		/* start, end, ns since t0 */
	unsigned int n;
	int result;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *rs_bystander_main(void *arg)
{
	struct rs_bystander *b = arg;
	const char *tag = getenv("AGG_BENCH_TAG");
	struct spare_agg_tensor t = { "g", BY_ELEMS };
	char name[32];
	struct spare_agg_job job = {
		.name = name, .token = "by", .n_workers = 1, .rank = 0,
		.dtype = AGG_DTYPE_F32, .part_elems = BY_ELEMS,
	};
	float *buf = malloc(BY_ELEMS * sizeof(float));
	char err[256];
	struct spare_agg *a = spare_agg_connect(host, port, err, sizeof(err));

	snprintf(name, sizeof(name), "rs-by%.4s", tag ? tag : "");
	b->result = -1;
	if (!a) {
		failf("reg-stall: bystander: %s", err);
		goto out;
	}
	spare_agg_set_timeout(a, worker_timeout_ms);
	if (!buf || spare_agg_register(a, &job, &t, 1)) {
		failf("%s: register: %s", name, spare_agg_error(a));
		goto out;
	}
	for (uint32_t it = 0; !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE) &&
	     b->n < BY_MAX_ROUNDS; it++) {
		uint64_t s = now_ns() - b->t0;

		fill(AGG_DTYPE_F32, buf, BY_ELEMS, 77, 0, it);
		if (spare_agg_allreduce(a, 0, it, buf, buf)) {
			failf("%s round %u: %s", name, it, spare_agg_error(a));
			goto out;
		}
		/* read once the thread is joined */
		b->round[b->n][0] = s;
		b->round[b->n][1] = now_ns() - b->t0;
		b->n++;
	}
	spare_agg_leave(a);
	b->result = 0;
out:
	spare_agg_close(a);
	free(buf);
	return NULL;
}

/* A STATS metric read on @a: its value, -1 if absent, -2 if STATS failed. */
static double rs_metric(struct spare_agg *a, const char *name)
{
	char *text = NULL;
	double v;

	if (spare_agg_stats(a, &text))
		return -2;
	v = metric(text, name);
	free(text);
	return v;
}

/* Poll @name on @a every RS_POLL_US until it is @want (or absent, if
 * @absent_ok). 0, or -1 after 120 s or a failed STATS. */
static int rs_wait_metric(struct spare_agg *a, const char *name, double want,
			  bool absent_ok)
{
	for (unsigned int i = 0; i < 120 * 1000000 / RS_POLL_US; i++) {
		double v = rs_metric(a, name);

		if (v == -2)
			return -1;
		if (v == want || (v == -1 && absent_ok))
			return 0;
		usleep(RS_POLL_US);
	}
	return -1;
}

static struct spare_agg *rs_connect(bool rdma, char *err, size_t len)
{
	struct spare_agg *a = rdma ?
		spare_agg_connect_rdma(host, port, rdma_src, err, len) :
		spare_agg_connect(host, port, err, len);

	if (a)
		spare_agg_set_timeout(a, worker_timeout_ms);
	return a;
}

static int scenario_reg_stall(void)
{
	const char *mib_env = getenv("AGG_STALL_MIB");
	const char *tag_env = getenv("AGG_BENCH_TAG");
	const char *run_env = getenv("AGG_BENCH_FIRST_RUN");
	const char *tag = tag_env && *tag_env ? tag_env : "-";
	unsigned int mib = mib_env ? (unsigned int)atoi(mib_env) : 256;
	unsigned int run = run_env ? (unsigned int)atoi(run_env) : 1;
	static const char *const kinds[3] = { "alloc", "reg", "free" };
	uint64_t win[3][2] = { { 0 } };
	struct rs_bystander b = { 0 };
	struct spare_agg *st = NULL, *rk[2] = { NULL, NULL };
	struct spare_agg_tensor t = { "w", (uint64_t)mib << 18 };	/* fp32 */
	char name[32], err[256];
	struct spare_agg_job job = {
		.name = name, .token = "rs", .n_workers = 2,
		.dtype = AGG_DTYPE_F32, .part_elems = AGG_MAX_PART_ELEMS,
	};
	double jobs_before;
	int bad = 1;

	if ((!use_rdma || !rdma_src) && !getenv("AGG_STALL_TCP")) {
		failf("reg-stall: needs -R -S SRC (the large job's rank 1 over RDMA), or AGG_STALL_TCP=1 (rank 1 over TCP too: no registration)");
		return 1;
	}
	if (!mib) {
		failf("reg-stall: AGG_STALL_MIB must be above 0");
		return 1;
	}
	snprintf(name, sizeof(name), "rs-%u-%u%.4s", mib, run,
		 tag_env ? tag_env : "");
	worker_timeout_ms = 120000;
	b.round = malloc(BY_MAX_ROUNDS * sizeof(*b.round));
	st = rs_connect(false, err, sizeof(err));
	if (!b.round || !st) {
		failf("reg-stall: %s", st ? "out of memory" : err);
		goto out_st;
	}
	b.t0 = now_ns();
	pthread_create(&b.tid, NULL, rs_bystander_main, &b);
	sleep(1);
	jobs_before = rs_metric(st, "spare_aggd_jobs");
	if (jobs_before < 0) {
		failf("reg-stall: no spare_aggd_jobs in STATS");
		goto out;
	}

	/*
	 * alloc (window 0): the job created by rank 0 over TCP; reg (window
	 * 1): rank 1 over RDMA starts the outputs' registration
	 */
	for (unsigned int r = 0; r < 2; r++) {
		rk[r] = rs_connect(r == 1 && use_rdma, err, sizeof(err));
		if (!rk[r]) {
			failf("reg-stall: rank %u%s: %s", r, r ? " over RDMA" : "", err);
			goto out;
		}
		job.rank = r;
		win[r][0] = now_ns() - b.t0;
		if (spare_agg_register(rk[r], &job, &t, 1)) {
			failf("reg-stall: %s rank %u: register: %s", name, r,
			      spare_agg_error(rk[r]));
			goto out;
		}
		win[r][1] = now_ns() - b.t0;
		sleep(1);
	}
	if (rs_wait_metric(st, "spare_aggd_rdma_output_regs_running", 0, true)) {
		failf("reg-stall: %s: the outputs' registration did not end", name);
		goto out;
	}

	/* free: both ranks leave; the region deregistered, the job freed */
	win[2][0] = now_ns() - b.t0;
	for (unsigned int r = 0; r < 2; r++) {
		spare_agg_leave(rk[r]);
		spare_agg_close(rk[r]);
		rk[r] = NULL;
	}
	if (rs_wait_metric(st, "spare_aggd_jobs", jobs_before, false)) {
		failf("reg-stall: %s: the job was not freed", name);
		goto out;
	}
	win[2][1] = now_ns() - b.t0;
	sleep(1);
	bad = 0;
out:
	for (unsigned int r = 0; r < 2; r++)
		spare_agg_close(rk[r]);
	__atomic_store_n(&b.stop, 1, __ATOMIC_RELEASE);
	pthread_join(b.tid, NULL);
	if (b.result)
		bad = 1;
	for (unsigned int k = 0; !bad && k < 3; k++) {
		unsigned int in = 0;

		printf("RS-WIN %s %u %u %s %" PRIu64 " %" PRIu64 "\n", tag, run,
		       mib, kinds[k], win[k][0], win[k][1]);
		for (unsigned int i = 0; i < b.n; i++) {
			if (b.round[i][1] + RS_MARGIN_NS < win[k][0] ||
			    b.round[i][0] > win[k][1] + RS_MARGIN_NS)
				continue;
			printf("RS-ROUND %s %u %u %" PRIu64 " %" PRIu64 "\n", tag,
			       run, mib, b.round[i][0], b.round[i][1]);
			in += b.round[i][1] >= win[k][0] && b.round[i][1] <= win[k][1];
		}
		printf("reg-stall: %s: %u MiB, %s window %.1f ms: bystander completed %u rounds in it\n",
		       name, mib, kinds[k], (win[k][1] - win[k][0]) / 1e6, in);
	}
out_st:
	spare_agg_close(st);
	free(b.round);
	return bad;
}

/*
 * ---- a job created off the event loop (issue 35) ----
 *
 * tests/agg/run agg-create-*: the daemon runs with the test hook
 * SPARE_AGGD_TEST_CREATE_GATE=$AGG_CREATE_GATE and
 * SPARE_AGGD_TEST_CREATE_JOB=cg (aggd_jobs.c): job cg's creation writes
 * GATE.wait, then waits until GATE exists (or it is cancelled) before
 * allocating its buffers; other jobs are created at once. So "a slow creation" is one
 * this test holds, for as long as it likes, deterministically.
 *   create-bystander: while job cg's creation is held, a bystander job's
 *     20 rounds complete (each within 5 s: a daemon that creates on its
 *     event loop answers none), a second rank's REGISTER of cg comes in,
 *     and neither of cg's REGISTERs is answered; STATS counts cg. Then
 *     the gate opens: both are answered and cg's sums are right.
 *   create-leave: cg's only worker gives up (its REGISTER's wait over the
 *     register limit it set, 1.5 s: "still being created ... gave up") and
 *     closes while the creation is held: the job goes without the gate
 *     ever opening (the creation was cancelled), and the bystander goes on.
 *   create-wait: both of cg's ranks REGISTER with a 2 s timeout and the
 *     creation is held for 3 x that: neither REGISTER gives up (the daemon
 *     says every second that cg is being created, REGISTER_WAIT); STATS
 *     meanwhile counts cg in spare_aggd_jobs_creating (1), its buffers in
 *     spare_aggd_jobs_creating_bytes and none made yet. The gate opens,
 *     both are answered (creating 0 again) and cg's sums are right. Then
 *     a 12 MiB job (freed on a helper thread) comes and goes:
 *     spare_aggd_jobs_freeing and _freeing_bytes are back at 0 after.
 *   create-term: SIGTERM (to $AGG_DAEMON_PID) while the creation is held:
 *     the REGISTER fails (the connection closes); tests/agg/run checks the
 *     daemon exits 0 with no sanitizer report (no leak, no hang).
 */
#define CG_ELEMS	(1u << 18)	/* 1 MiB of fp32 */
#define CW_TIMEOUT_MS	2000		/* create-wait's REGISTER timeout */

struct cg_reg {
	pthread_t tid;
	unsigned int rank, timeout_ms;
	unsigned int limit_ms;		/* spare_agg_set_register_limit, or 0 */
	struct spare_agg *a;
	unsigned int done;		/* spare_agg_register returned */
	double took_ms;
	int result;
	unsigned int status;
	char err[256];
};

static void *cg_reg_main(void *arg)
{
	struct cg_reg *r = arg;
	struct spare_agg_tensor t = { "w", CG_ELEMS };
	struct spare_agg_job job = {
		.name = "cg", .token = "cg", .n_workers = 2, .rank = r->rank,
		.dtype = AGG_DTYPE_F32, .part_elems = CG_ELEMS / 4,
	};
	char err[256];

	r->result = -1;
	r->a = spare_agg_connect(host, port, err, sizeof(err));
	if (!r->a) {
		snprintf(r->err, sizeof(r->err), "%s", err);
	} else {
		double t0 = mono_ms();

		spare_agg_set_timeout(r->a, r->timeout_ms);
		if (r->limit_ms)
			spare_agg_set_register_limit(r->a, r->limit_ms);
		r->result = spare_agg_register(r->a, &job, &t, 1);
		r->took_ms = mono_ms() - t0;
		if (r->result) {
			r->status = spare_agg_status(r->a);
			snprintf(r->err, sizeof(r->err), "%s",
				 spare_agg_error(r->a));
		}
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* 0 once @path exists; -1 after @ms. */
static int cg_wait_file(const char *path, unsigned int ms)
{
	for (unsigned int i = 0; i < ms / 10; i++) {
		if (!access(path, F_OK))
			return 0;
		usleep(10000);
	}
	return -1;
}

/* @n rounds of the bystander (one worker: the sum is its own push). */
static int cg_bystander(struct spare_agg *a, float *buf, uint32_t *it,
			unsigned int n)
{
	for (unsigned int k = 0; k < n; k++, (*it)++) {
		fill(AGG_DTYPE_F32, buf, BY_ELEMS, 77, 0, *it);
		if (spare_agg_allreduce(a, 0, *it, buf, buf)) {
			failf("bystander round %u: %s", *it, spare_agg_error(a));
			return -1;
		}
		if (verify(AGG_DTYPE_F32, buf, BY_ELEMS, 77, 1, *it))
			return -1;
	}
	return 0;
}

/* Both ranks of cg push iteration @it, then pull it: the sums checked. */
static int cg_round(struct cg_reg *rk, float *in, float *out, uint32_t it)
{
	uint32_t n = spare_agg_n_parts(rk[0].a), t, nelem;
	uint64_t off;

	for (unsigned int r = 0; r < 2; r++) {
		fill(AGG_DTYPE_F32, in, CG_ELEMS, 78, r, it);
		for (uint32_t p = 0; p < n; p++)
			if (spare_agg_part_info(rk[r].a, p, &t, &off, &nelem) ||
			    spare_agg_push(rk[r].a, p, it, in + off,
					   spare_agg_part_bytes(rk[r].a, p))) {
				failf("cg rank %u push: %s", r, spare_agg_error(rk[r].a));
				return -1;
			}
	}
	for (unsigned int r = 0; r < 2; r++) {
		for (uint32_t p = 0; p < n; p++)
			if (spare_agg_part_info(rk[r].a, p, &t, &off, &nelem) ||
			    spare_agg_pull(rk[r].a, p, it, out + off,
					   spare_agg_part_bytes(rk[r].a, p))) {
				failf("cg rank %u pull: %s", r, spare_agg_error(rk[r].a));
				return -1;
			}
		if (verify(AGG_DTYPE_F32, out, CG_ELEMS, 78, 2, it))
			return -1;
	}
	return 0;
}

/* Open the gate; both ranks' REGISTERs of cg must then be answered. */
static int cg_open_gate(const char *gate, struct cg_reg *rk, bool *started,
			const char *mode)
{
	int fd = open(gate, O_WRONLY | O_CREAT, 0600);

	if (fd < 0) {
		failf("%s: cannot open the gate", mode);
		return -1;
	}
	close(fd);
	for (unsigned int r = 0; r < 2; r++) {
		pthread_join(rk[r].tid, NULL);
		started[r] = false;
		if (rk[r].result) {
			failf("%s: rank %u's REGISTER of cg: %s", mode, r, rk[r].err);
			return -1;
		}
	}
	return 0;
}

/* STATS: @n jobs being created; held at the gate: nothing made yet. */
static int cw_creating(struct spare_agg *st, const char *mode, double n,
		       bool held)
{
	double jobs = rs_metric(st, "spare_aggd_jobs_creating");
	double bytes = rs_metric(st, "spare_aggd_jobs_creating_bytes");
	double made = rs_metric(st, "spare_aggd_jobs_creating_made_bytes");

	if (jobs != n || (n ? bytes < 3.0 * CG_ELEMS * 4 : bytes != 0) ||
	    (held ? made != 0 : made != bytes)) {
		failf("%s: spare_aggd_jobs_creating %.0f, _bytes %.0f, _made_bytes %.0f; want %.0f, %s, %s",
		      mode, jobs, bytes, made, n,
		      n ? ">= cg's 3 x 1 MiB" : "0", held ? "0" : "as many");
		return -1;
	}
	printf("%s: spare_aggd_jobs_creating %.0f, _bytes %.0f, _made_bytes %.0f\n",
	       mode, jobs, bytes, made);
	return 0;
}

/* A 12 MiB job (over the 8 MiB from which frees go off the loop) comes and
 * goes: once it is out of the table the freeing gauges are back at 0. */
static int cw_freed(struct spare_agg *st, const char *mode)
{
	struct spare_agg_tensor t = { "w", 3u << 20 };
	struct spare_agg_job job = {
		.name = "cw-free", .token = "cf", .n_workers = 1, .rank = 0,
		.dtype = AGG_DTYPE_F32, .part_elems = 1u << 20,
	};
	double before = rs_metric(st, "spare_aggd_jobs"), v = -1, n = -1, b = -1;
	struct spare_agg *a;
	char err[256];

	a = spare_agg_connect(host, port, err, sizeof(err));
	if (!a || spare_agg_set_timeout(a, 20000) ||
	    spare_agg_register(a, &job, &t, 1) || spare_agg_leave(a)) {
		failf("%s: the 12 MiB job: %s", mode, a ? spare_agg_error(a) : err);
		spare_agg_close(a);
		return -1;
	}
	spare_agg_close(a);
	for (unsigned int i = 0; i < 1000; i++) {
		v = rs_metric(st, "spare_aggd_jobs");
		n = rs_metric(st, "spare_aggd_jobs_freeing");
		b = rs_metric(st, "spare_aggd_jobs_freeing_bytes");
		if (v == before && n == 0 && b == 0)
			break;
		usleep(10000);
	}
	if (v != before || n != 0 || b != 0) {
		failf("%s: after the 12 MiB job left: jobs %.0f (want %.0f), spare_aggd_jobs_freeing %.0f, _bytes %.0f (want 0)",
		      mode, v, before, n, b);
		return -1;
	}
	return 0;
}

static int scenario_create_gate(const char *mode)
{
	const char *gate = getenv("AGG_CREATE_GATE");
	const char *pid_env = getenv("AGG_DAEMON_PID");
	struct spare_agg_tensor bt = { "g", BY_ELEMS };
	struct spare_agg_job bj = {
		.name = "cg-by", .token = "by", .n_workers = 1, .rank = 0,
		.dtype = AGG_DTYPE_F32, .part_elems = BY_ELEMS,
	};
	struct cg_reg rk[2] = {
		{ .rank = 0, .timeout_ms = 60000 },
		{ .rank = 1, .timeout_ms = 60000 },
	};
	float *buf = malloc(BY_ELEMS * sizeof(float));
	float *in = malloc(CG_ELEMS * sizeof(float));
	float *out = malloc(CG_ELEMS * sizeof(float));
	struct spare_agg *by = NULL, *st = NULL;
	bool started[2] = { false, false };
	char wait_path[4200], err[256];
	double jobs_before, v;
	uint32_t it = 0;
	int bad = 1;

	if (!gate || !buf || !in || !out) {
		failf("%s: needs AGG_CREATE_GATE (and memory)", mode);
		goto out;
	}
	snprintf(wait_path, sizeof(wait_path), "%s.wait", gate);
	by = spare_agg_connect(host, port, err, sizeof(err));
	st = by ? spare_agg_connect(host, port, err, sizeof(err)) : NULL;
	if (!st) {
		failf("%s: %s", mode, err);
		goto out;
	}
	/* 5 s a round: the gate holds a creation far longer than that */
	spare_agg_set_timeout(by, 5000);
	spare_agg_set_timeout(st, 5000);
	if (spare_agg_register(by, &bj, &bt, 1)) {
		failf("%s: bystander register: %s", mode, spare_agg_error(by));
		goto out;
	}
	if (cg_bystander(by, buf, &it, 1))
		goto out;
	jobs_before = rs_metric(st, "spare_aggd_jobs");
	if (jobs_before < 0) {
		failf("%s: no spare_aggd_jobs in STATS", mode);
		goto out;
	}
	if (!strcmp(mode, "create-leave"))
		rk[0].timeout_ms = rk[0].limit_ms = 1500;
	if (!strcmp(mode, "create-wait"))
		rk[0].timeout_ms = rk[1].timeout_ms = CW_TIMEOUT_MS;
	pthread_create(&rk[0].tid, NULL, cg_reg_main, &rk[0]);
	started[0] = true;
	if (cg_wait_file(wait_path, 10000)) {
		failf("%s: the creation of cg never reached the gate", mode);
		goto out;
	}
	printf("%s: cg's creation is held at the gate\n", mode);

	if (!strcmp(mode, "create-term")) {
		pid_t pid = pid_env ? (pid_t)atoi(pid_env) : 0;

		if (pid <= 0 || kill(pid, SIGTERM)) {
			failf("%s: cannot SIGTERM the daemon (AGG_DAEMON_PID)", mode);
			goto out;
		}
		pthread_join(rk[0].tid, NULL);
		started[0] = false;
		if (!rk[0].result) {
			failf("%s: cg's REGISTER answered though its creation never ended", mode);
			goto out;
		}
		printf("%s: SIGTERM while held: cg's REGISTER failed (%s)\n",
		       mode, rk[0].err);
		bad = 0;
		goto out;
	}

	if (!strcmp(mode, "create-leave")) {
		pthread_join(rk[0].tid, NULL);
		started[0] = false;
		if (!rk[0].result) {
			failf("%s: cg's REGISTER answered though its creation is held", mode);
			goto out;
		}
		if (!strstr(rk[0].err, "still being created")) {
			failf("%s: cg's REGISTER failed otherwise than at its limit: %s",
			      mode, rk[0].err);
			goto out;
		}
		printf("%s: cg's REGISTER gave up at its limit: %s\n", mode, rk[0].err);
		spare_agg_close(rk[0].a);	/* the only worker goes */
		rk[0].a = NULL;
		for (unsigned int i = 0; i < 1000; i++) {
			v = rs_metric(st, "spare_aggd_jobs");
			if (v == jobs_before)
				break;
			usleep(10000);
		}
		if (v != jobs_before) {
			failf("%s: cg was not freed with its creation held (jobs %.0f, before %.0f)",
			      mode, v, jobs_before);
			goto out;
		}
		if (cg_bystander(by, buf, &it, 3))
			goto out;
		printf("%s: cg's worker gave up and closed: cg cancelled and freed, the gate never opened; the bystander goes on\n",
		       mode);
		bad = 0;
		goto out;
	}

	if (!strcmp(mode, "create-wait")) {
		pthread_create(&rk[1].tid, NULL, cg_reg_main, &rk[1]);
		started[1] = true;
		usleep(3 * CW_TIMEOUT_MS * 1000);	/* held 3 x the timeout */
		if (cw_creating(st, mode, 1, true))
			goto out;
		for (unsigned int r = 0; r < 2; r++)
			if (__atomic_load_n(&rk[r].done, __ATOMIC_ACQUIRE)) {
				failf("%s: rank %u's REGISTER of cg returned after %.0f ms (%s) while its creation is held",
				      mode, r, rk[r].took_ms,
				      rk[r].result ? rk[r].err : "answered");
				goto out;
			}
		if (cg_open_gate(gate, rk, started, mode))
			goto out;
		if (cw_creating(st, mode, 0, false))
			goto out;
		for (uint32_t i = 0; i < 2; i++)
			if (cg_round(rk, in, out, i))
				goto out;
		if (cw_freed(st, mode))
			goto out;
		printf("%s: cg's creation held %u ms, its REGISTERs' timeout %u ms: both answered (after %.0f and %.0f ms), cg's sums exact\n",
		       mode, 3 * CW_TIMEOUT_MS, CW_TIMEOUT_MS, rk[0].took_ms,
		       rk[1].took_ms);
		bad = 0;
		goto out;
	}

	/* create-bystander */
	if (cg_bystander(by, buf, &it, 20)) {
		failf("%s: the bystander stalled while cg was being created", mode);
		goto out;
	}
	pthread_create(&rk[1].tid, NULL, cg_reg_main, &rk[1]);
	started[1] = true;
	if (cg_bystander(by, buf, &it, 5))
		goto out;
	/* a STATS round trip after rank 1's connect: the daemon is serving */
	v = rs_metric(st, "spare_aggd_jobs");
	if (v != jobs_before + 1) {
		failf("%s: spare_aggd_jobs %.0f while cg is created, want %.0f",
		      mode, v, jobs_before + 1);
		goto out;
	}
	for (unsigned int r = 0; r < 2; r++)
		if (__atomic_load_n(&rk[r].done, __ATOMIC_ACQUIRE)) {
			failf("%s: rank %u's REGISTER of cg answered (%s) while its creation is held",
			      mode, r, rk[r].result ? rk[r].err : "ok");
			goto out;
		}
	printf("%s: 25 bystander rounds done while cg's creation was held; cg's 2 REGISTERs wait\n",
	       mode);
	if (cg_open_gate(gate, rk, started, mode))
		goto out;
	for (uint32_t i = 0; i < 2; i++)
		if (cg_round(rk, in, out, i))
			goto out;
	if (cg_bystander(by, buf, &it, 1))
		goto out;
	printf("%s: gate opened: both REGISTERs answered, cg's sums exact\n", mode);
	bad = 0;
out:
	for (unsigned int r = 0; r < 2; r++) {
		if (started[r])
			pthread_join(rk[r].tid, NULL);
		if (rk[r].a) {
			if (!bad && strcmp(mode, "create-term"))
				spare_agg_leave(rk[r].a);
			spare_agg_close(rk[r].a);
		}
	}
	if (by && !bad && strcmp(mode, "create-term"))
		spare_agg_leave(by);
	spare_agg_close(by);
	spare_agg_close(st);
	free(buf);
	free(in);
	free(out);
	return bad;
}

/*
 * create-fail: the daemon runs with SPARE_AGGD_TEST_CREATE_FAIL=1 (every
 * creation fails as if out of memory): REGISTER gets AGG_ENOMEM, as an
 * allocation failure always did, and the job is gone (tests/agg/run
 * checks the daemon's clean exit: nothing leaked).
 */
static int scenario_create_fail(void)
{
	struct cg_reg r = { .rank = 0, .timeout_ms = 20000 };
	struct spare_agg *st;
	char err[256];
	double v = -1;
	int bad = 1;

	st = spare_agg_connect(host, port, err, sizeof(err));
	if (!st) {
		failf("create-fail: %s", err);
		return 1;
	}
	spare_agg_set_timeout(st, 5000);
	cg_reg_main(&r);
	if (!r.result) {
		failf("create-fail: REGISTER answered though its buffers could not be made");
	} else if (r.status != AGG_ENOMEM) {
		failf("create-fail: REGISTER failed with status %u (%s), want AGG_ENOMEM",
		      r.status, r.err);
	} else {
		for (unsigned int i = 0; i < 500; i++) {
			v = rs_metric(st, "spare_aggd_jobs");
			if (v == 0)
				break;
			usleep(10000);
		}
		if (v != 0)
			failf("create-fail: spare_aggd_jobs %.0f after the failure, want 0", v);
		else
			bad = 0;
	}
	if (!bad)
		printf("create-fail: REGISTER refused with AGG_ENOMEM (%s); no job left\n",
		       r.err);
	spare_agg_close(r.a);
	spare_agg_close(st);
	return bad;
}

int main(int argc, char **argv)
{
	int opt, ret;

	/* one line at a time, so a log interleaves it with the daemon's */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "h:H:k:p:q:RS:")) != -1) {
		switch (opt) {
		case 'h': host = optarg; break;
		case 'H': host2 = optarg; break;
		case 'k': key_file = optarg; break;
		case 'R': use_rdma = 1; break;
		case 'S': rdma_src = optarg; break;
		case 'p': port = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'q': port2 = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || !port)
		goto usage;
	if (!strcmp(argv[optind], "many"))
		ret = scenario_many();
	else if (!strcmp(argv[optind], "load"))
		ret = scenario_load();
	else if (!strcmp(argv[optind], "dead-worker"))
		ret = scenario_dead_worker();
	else if (!strcmp(argv[optind], "early-leave"))
		ret = scenario_early_leave();
	else if (!strcmp(argv[optind], "bad-push"))
		ret = scenario_bad_push();
	else if (!strcmp(argv[optind], "wrong-token"))
		ret = scenario_wrong_token();
	else if (!strcmp(argv[optind], "optimizer"))
		ret = scenario_optimizer();
	else if (!strcmp(argv[optind], "stats"))
		ret = scenario_stats();
	else if (!strcmp(argv[optind], "receive-fold"))
		ret = scenario_receive_fold();
	else if (!strcmp(argv[optind], "copied-replies"))
		ret = scenario_copied_replies();
	else if (!strcmp(argv[optind], "idle"))
		ret = scenario_idle();
	else if (!strcmp(argv[optind], "migrate"))
		ret = scenario_migrate();
	else if (!strcmp(argv[optind], "rollback"))
		ret = scenario_rollback();
	else if (!strcmp(argv[optind], "report-bad"))
		ret = scenario_report_bad();
	else if (!strcmp(argv[optind], "flowcon"))
		ret = scenario_flowcon();
	else if (!strcmp(argv[optind], "state-token"))
		ret = scenario_state_token();
	else if (!strcmp(argv[optind], "move-fallback"))
		ret = scenario_move_fault("move-fallback", true, NULL, 0);
	else if (!strcmp(argv[optind], "move-cut"))
		ret = scenario_move_fault("move-cut", false, "after its first WRITE", 0);
	else if (!strcmp(argv[optind], "move-kill"))
		ret = scenario_move_fault("move-kill", false, "connection to the target", 20000);
	else if (!strcmp(argv[optind], "move-term"))
		ret = scenario_move_fault("move-term", false, "connection to the target", 20000);
	else if (!strcmp(argv[optind], "move-srcterm"))
		ret = scenario_move_fault("move-srcterm", false, "", 0);
	else if (!strcmp(argv[optind], "move-pause"))
		ret = scenario_move_pause();
	else if (!strcmp(argv[optind], "move-bystander"))
		ret = scenario_move_bystander();
	else if (!strcmp(argv[optind], "reg-stall"))
		ret = scenario_reg_stall();
	else if (!strcmp(argv[optind], "create-bystander") ||
		 !strcmp(argv[optind], "create-leave") ||
		 !strcmp(argv[optind], "create-wait") ||
		 !strcmp(argv[optind], "create-term"))
		ret = scenario_create_gate(argv[optind]);
	else if (!strcmp(argv[optind], "create-fail"))
		ret = scenario_create_fail();
	else
		goto usage;
	return ret || failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: spare-agg-itest [-h HOST] -p PORT [-H HOST2] [-q PORT2] [-k KEYFILE] [-R [-S SRC]] "
		"many|load|dead-worker|early-leave|bad-push|wrong-token|optimizer|stats|copied-replies|idle|migrate|\n"
		"rollback|report-bad|flowcon|state-token|move-fallback|move-cut|move-kill|move-term|\n"
		"move-srcterm|move-pause|move-bystander|reg-stall|create-bystander|create-leave|\n"
		"create-term|create-wait|create-fail\n");
	return 2;
}
