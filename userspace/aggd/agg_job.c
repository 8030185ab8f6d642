// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd jobs and the partition state machine (agg_job.h).
 */
#include "agg_job.h"
#include "agg_sum.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t agg_job_mem_need(const struct agg_job_spec *s)
{
	size_t total = 0, per_elem, w = s->n_workers;

	for (uint32_t i = 0; i < s->n_tensors; i++) {
		size_t n = (size_t)s->tensors[i].nelem;

		/* W push slots + the output, plus fp32 momentum and scratch
		 * (the running sum), or fp16/bf16's binary32 running sum */
		per_elem = (w + 1) * agg_dtype_size(s->dtype);
		if (s->opt == AGG_OPT_SGD_MOMENTUM)
			per_elem += 8;
		else if (s->dtype != AGG_DTYPE_F32)
			per_elem += 4;
		if (n > (SIZE_MAX - total) / per_elem)
			return 0;
		total += n * per_elem;
	}
	return total;
}

static void part_free(struct agg_part *p)
{
	free(p->slots);
	free(p->in);
	free(p->loan);
	free(p->slot_iter);
	free(p->pulled);
	free(p->pull_pending);
	free(p->next_pull);
}

/* A partition's output in the job's region: each starts on a cache line. */
static size_t out_stride(size_t bytes)
{
	return (bytes + 63) / 64 * 64;
}

/* Bytes of the arena from @off on for @bytes: each piece on a cache line. */
static int arena_take(size_t *off, size_t bytes)
{
	size_t b = out_stride(bytes);

	if (b < bytes || b > SIZE_MAX - *off)
		return -1;
	*off += b;
	return 0;
}

/*
 * The arena's layout: the partitions' outputs first (out_region, the
 * partition offsets follow out_stride(), page-rounded, one region for
 * the RDMA registration), then per partition the W push slots, then the
 * optimizer's momentum and scratch or fp16/bf16's binary32 running sum.
 * -1 on overflow.
 */
static int arena_layout(const struct agg_job_spec *s, struct agg_job *job,
			uint8_t *base)
{
	size_t off = 0;

	for (uint32_t i = 0; i < s->n_parts; i++) {
		struct agg_part *p = &job->parts[i];

		if (base)
			p->out = base + off;
		if (arena_take(&off, p->bytes))
			return -1;
	}
	if (off > SIZE_MAX - 4095)
		return -1;
	off = off ? (off + 4095) / 4096 * 4096 : 4096;
	job->out_region_bytes = off;
	for (uint32_t i = 0; i < s->n_parts; i++) {
		struct agg_part *p = &job->parts[i];

		for (unsigned int r = 0; r < s->n_workers; r++) {
			if (base) {
				p->slots[r] = base + off;
				p->in[r] = p->slots[r];
			}
			if (arena_take(&off, p->bytes))
				return -1;
		}
		if (s->opt == AGG_OPT_SGD_MOMENTUM) {
			if (base)
				p->momentum = (float *)(base + off);
			if (arena_take(&off, (size_t)p->nelem * sizeof(float)))
				return -1;
			if (base)
				p->sum = (float *)(base + off);
			if (arena_take(&off, p->bytes))
				return -1;
		} else if (s->dtype != AGG_DTYPE_F32) {
			if (base)
				p->acc = (float *)(base + off);
			if (arena_take(&off, (size_t)p->nelem * sizeof(float)))
				return -1;
		}
	}
	if (off > SIZE_MAX - 4095)
		return -1;
	job->arena_bytes = (off + 4095) / 4096 * 4096;
	return 0;
}

static int part_init(struct agg_part *p, const struct agg_job_spec *s,
		     uint32_t index)
{
	unsigned int w = s->n_workers;
	uint32_t t;
	uint64_t off;

	memset(p, 0, sizeof(*p));
	p->index = index;
	if (agg_spec_part(s, index, &t, &off, &p->nelem))
		return -1;
	p->bytes = (size_t)p->nelem * agg_dtype_size(s->dtype);
	p->slot_iter = malloc(w * sizeof(*p->slot_iter));
	p->pulled = calloc(w, sizeof(*p->pulled));
	p->pull_pending = calloc(w, 1);
	p->next_pull = calloc(w, 1);
	p->slots = calloc(w, sizeof(*p->slots));
	p->in = calloc(w, sizeof(*p->in));
	p->loan = calloc(w, sizeof(*p->loan));
	if (!p->slot_iter || !p->pulled || !p->pull_pending || !p->next_pull ||
	    !p->slots || !p->in || !p->loan)
		return -1;
	for (unsigned int r = 0; r < w; r++)
		p->slot_iter[r] = AGG_SLOT_EMPTY;
	return 0;
}

struct agg_job *agg_job_create_shell(uint32_t id, struct agg_job_spec *spec)
{
	struct agg_job *job = calloc(1, sizeof(*job));
	unsigned int w = spec->n_workers;

	if (!job)
		return NULL;
	job->id = id;
	job->parts = calloc(spec->n_parts, sizeof(*job->parts));
	job->rank_conn = calloc(w, sizeof(*job->rank_conn));
	job->rank_left = calloc(w, 1);
	if (!job->parts || !job->rank_conn || !job->rank_left)
		goto fail;
	job->spec = *spec;
	for (uint32_t p = 0; p < spec->n_parts; p++) {
		if (part_init(&job->parts[p], spec, p)) {
			job->spec.n_parts = p + 1;
			goto fail_parts;
		}
	}
	if (arena_layout(spec, job, NULL))
		goto fail_parts;
	job->mem_bytes = agg_job_mem_need(spec);
	memset(spec, 0, sizeof(*spec));	/* arrays now belong to the job */
	return job;
fail_parts:
	for (uint32_t p = 0; p < job->spec.n_parts; p++)
		part_free(&job->parts[p]);
	job->spec.n_parts = spec->n_parts;
fail:
	free(job->parts);
	free(job->rank_conn);
	free(job->rank_left);
	free(job);
	return NULL;
}

#define HUGE_2M	(2UL << 20)

/*
 * @len bytes of anonymous memory, zero as the kernel maps it: nothing to
 * clear. From 4 MiB on, aligned to 2 MiB and marked for transparent huge
 * pages (also where THP is "madvise"): faulting them in and pinning them
 * for RDMA cost far less per byte. NULL on ENOMEM.
 */
static uint8_t *arena_map(size_t len)
{
	uint8_t *p, *a;
	size_t head;

	if (len < 2 * HUGE_2M || len > SIZE_MAX - HUGE_2M) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	p = mmap(NULL, len + HUGE_2M, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)(((uintptr_t)p + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	head = (size_t)(a - p);
	if (head)
		munmap(p, head);
	if (HUGE_2M - head)
		munmap(a + len, HUGE_2M - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, len, MADV_HUGEPAGE);	/* a hint: THP may be off */
#endif
	return a;
}

/* Pages prefaulted per step: a cancel is seen within one step. */
#define ARENA_STEP	(32UL << 20)

int agg_job_alloc_bufs(struct agg_job *job, const int *cancel)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *base;

	if (pg <= 0)
		pg = 4096;
	base = arena_map(job->arena_bytes);
	if (!base)
		return -ENOMEM;
	/*
	 * Fault the pages in now (this runs off the event loop), not on the
	 * first push: the kernel's zeroing of each page is the cost, and the
	 * first iteration would pay it.
	 */
	for (size_t off = 0; off < job->arena_bytes; off += ARENA_STEP) {
		size_t n = job->arena_bytes - off;

		/* made so far (REGISTER_WAIT, the metrics) */
		__atomic_store_n(&job->create_made, (uint64_t)off, __ATOMIC_RELAXED);
		if (cancel && __atomic_load_n(cancel, __ATOMIC_ACQUIRE)) {
			munmap(base, job->arena_bytes);
			return -ECANCELED;
		}
		if (n > ARENA_STEP)
			n = ARENA_STEP;
#ifdef MADV_POPULATE_WRITE
		if (!madvise(base + off, n, MADV_POPULATE_WRITE))
			continue;
		if (errno == ENOMEM || errno == EFAULT) {
			munmap(base, job->arena_bytes);
			return -ENOMEM;
		}
#endif
		/* before Linux 5.14: a write per page */
		for (size_t b = 0; b < n; b += (size_t)pg)
			((volatile uint8_t *)base)[off + b] = 0;
	}
	__atomic_store_n(&job->create_made, (uint64_t)job->arena_bytes,
			 __ATOMIC_RELAXED);
	job->arena = base;
	job->out_region = base;
	if (arena_layout(&job->spec, job, base)) {
		/* cannot fail: the shell's layout succeeded */
		agg_job_free_bufs(job);
		return -ENOMEM;
	}
	return 0;
}

void agg_job_free_bufs(struct agg_job *job)
{
	if (job->arena)
		munmap(job->arena, job->arena_bytes);
	job->arena = NULL;
	job->out_region = NULL;
}

struct agg_job *agg_job_create(uint32_t id, struct agg_job_spec *spec)
{
	struct agg_job *job = agg_job_create_shell(id, spec);

	if (job && agg_job_alloc_bufs(job, NULL)) {
		/* the arrays go back to the caller, as on any failure */
		*spec = job->spec;
		job->spec.tensors = NULL;
		job->spec.tensor_first_part = NULL;
		agg_job_free(job);
		return NULL;
	}
	return job;
}

void agg_job_free(struct agg_job *job)
{
	if (!job)
		return;
	agg_job_free_bufs(job);
	for (uint32_t p = 0; p < job->spec.n_parts; p++)
		part_free(&job->parts[p]);
	free(job->parts);
	free(job->rank_conn);
	free(job->rank_left);
	agg_spec_free(&job->spec);
	free(job);
}

void agg_job_fail(struct agg_job *job, const char *fmt, ...)
{
	va_list ap;

	if (job->failed)
		return;		/* keep the first cause */
	job->failed = true;
	va_start(ap, fmt);
	vsnprintf(job->fail_msg, sizeof(job->fail_msg), fmt, ap);
	va_end(ap);
}

/*
 * Has rank got (or is it being sent) the result of the current iteration?
 * In READY a pending pull is a reply on its way: it is answered at once.
 */
static int done_with_iter(const struct agg_part *p, unsigned int rank)
{
	return p->state == AGG_PART_READY &&
	       (p->pulled[rank] == p->iter + 1ULL || p->pull_pending[rank]);
}

int agg_part_push_check(const struct agg_part *p, unsigned int rank,
			uint32_t iter)
{
	if (p->state == AGG_PART_COLLECT && iter == p->iter &&
	    p->slot_iter[rank] != iter)
		return 0;
	/* early push of the next iteration by a rank done with this one */
	if (done_with_iter(p, rank) && iter == p->iter + 1ULL &&
	    p->slot_iter[rank] != iter)
		return 0;
	return -AGG_ESEQ;
}

void *agg_part_push_buf(struct agg_part *p, unsigned int rank)
{
	return p->slots[rank];
}

void agg_part_push_lent(struct agg_part *p, unsigned int rank,
			const void *data, void *loan)
{
	p->in[rank] = data;
	p->loan[rank] = loan;
}

void *agg_part_take_loan(struct agg_part *p, unsigned int rank)
{
	void *loan = p->loan[rank];

	p->loan[rank] = NULL;
	p->in[rank] = p->slots[rank];
	return loan;
}

/*
 * Start the next fold if the rank after the summed ones is in: it takes
 * every rank in from there on, in rank order. 1 if a fold must be run.
 */
static int fold_next(struct agg_part *p, unsigned int n_workers)
{
	uint32_t r = p->n_folded;

	if (p->folding || p->state == AGG_PART_READY)
		return 0;
	while (r < n_workers && p->slot_iter[r] == p->iter)
		r++;
	if (r == p->n_folded)
		return 0;
	p->fold_from = p->n_folded;
	p->fold_to = r;
	p->folding = true;
	return 1;
}

int agg_part_push_done(struct agg_part *p, unsigned int n_workers,
		       unsigned int rank, uint32_t iter)
{
	p->slot_iter[rank] = iter;
	if (p->state != AGG_PART_COLLECT || iter != p->iter)
		return 0;
	if (++p->n_pushed == n_workers)
		p->state = AGG_PART_REDUCING;
	return fold_next(p, n_workers);
}

int agg_part_reduced(struct agg_part *p, unsigned int n_workers)
{
	p->folding = false;
	p->n_folded = p->fold_to;
	if (p->n_folded < n_workers)
		return fold_next(p, n_workers);
	p->state = AGG_PART_READY;
	p->n_pulled = 0;
	return 0;
}

int agg_part_pull_check(struct agg_part *p, unsigned int rank, uint32_t iter)
{
	if (iter == p->iter && !p->pull_pending[rank] &&
	    p->pulled[rank] != p->iter + 1ULL) {
		p->pull_pending[rank] = 1;
		return p->state == AGG_PART_READY ? 0 : 1;
	}
	/* early pull of the next iteration by a rank done with this one */
	if (iter == p->iter + 1ULL && done_with_iter(p, rank) &&
	    !p->next_pull[rank]) {
		p->next_pull[rank] = 1;
		return 1;
	}
	return -AGG_ESEQ;
}

int agg_part_pull_done(struct agg_part *p, unsigned int n_workers,
		       unsigned int rank)
{
	p->pull_pending[rank] = 0;
	p->pulled[rank] = p->iter + 1ULL;
	if (++p->n_pulled < n_workers)
		return 0;
	p->iter++;
	p->state = AGG_PART_COLLECT;
	p->n_pulled = 0;
	p->n_pushed = 0;
	p->n_folded = 0;
	for (unsigned int r = 0; r < n_workers; r++) {
		if (p->slot_iter[r] == p->iter)
			p->n_pushed++;
		/* parked early pulls now wait for this iteration */
		p->pull_pending[r] = p->next_pull[r];
		p->next_pull[r] = 0;
	}
	if (p->n_pushed == n_workers)
		p->state = AGG_PART_REDUCING;
	return fold_next(p, n_workers);
}

/* Does p's iteration 'iter' lack rank's share? */
static bool lacks_rank(const struct agg_part *p, unsigned int rank,
		       uint64_t iter)
{
	if (iter == p->iter)
		return p->state == AGG_PART_COLLECT && p->slot_iter[rank] != iter;
	if (iter == p->iter + 1ULL)
		/* p must first move on, which takes every rank's pull */
		return p->slot_iter[rank] != iter ||
		       p->pulled[rank] != p->iter + 1ULL;
	return true;
}

bool agg_job_needs_rank(const struct agg_job *job, unsigned int rank)
{
	unsigned int w = job->spec.n_workers;

	for (uint32_t i = 0; i < job->spec.n_parts; i++) {
		const struct agg_part *p = &job->parts[i];

		for (unsigned int r = 0; r < w; r++) {
			if (r == rank)
				continue;
			/* r pushed or pulls the current iteration, unfinished */
			if (p->state == AGG_PART_COLLECT &&
			    (p->slot_iter[r] == p->iter || p->pull_pending[r]) &&
			    lacks_rank(p, rank, p->iter))
				return true;
			/* r pushed or pulls the next one early */
			if ((p->slot_iter[r] == p->iter + 1ULL || p->next_pull[r]) &&
			    lacks_rank(p, rank, p->iter + 1ULL))
				return true;
		}
	}
	return false;
}

int agg_part_departed_blocks(const struct agg_job *job,
			     const struct agg_part *p, uint32_t iter)
{
	for (unsigned int r = 0; r < job->spec.n_workers; r++)
		if (job->rank_left[r] && lacks_rank(p, r, iter))
			return (int)r;
	return -1;
}

int agg_part_weights_check(const struct agg_job *job, const struct agg_part *p,
			   unsigned int rank)
{
	if (job->spec.opt == AGG_OPT_NONE || rank != 0 || p->iter != 0 ||
	    p->state != AGG_PART_COLLECT || p->sending)
		return -AGG_ESTATE;
	return 0;
}

uint32_t agg_job_barrier(const struct agg_job *job)
{
	unsigned int w = job->spec.n_workers;
	uint64_t barrier = job->spec.opt == AGG_OPT_NONE ? 0 : 1;

	for (uint32_t i = 0; i < job->spec.n_parts; i++) {
		const struct agg_part *p = &job->parts[i];
		uint64_t next = p->iter;	/* first iteration not touched */

		if (p->state != AGG_PART_COLLECT || p->n_pushed)
			next = p->iter + 1ULL;
		for (unsigned int r = 0; r < w; r++) {
			if (p->pull_pending[r] && next < p->iter + 1ULL)
				next = p->iter + 1ULL;
			if (p->slot_iter[r] == p->iter + 1ULL || p->next_pull[r])
				next = p->iter + 2ULL;
		}
		if (next > barrier)
			barrier = next;
	}
	return barrier > UINT32_MAX ? UINT32_MAX : (uint32_t)barrier;
}

bool agg_part_at_barrier(const struct agg_part *p, unsigned int n_workers,
			 uint32_t barrier)
{
	if (p->iter != barrier || p->state != AGG_PART_COLLECT || p->n_pushed)
		return false;
	for (unsigned int r = 0; r < n_workers; r++)
		if (p->pull_pending[r] || p->next_pull[r] ||
		    p->slot_iter[r] == barrier)
			return false;
	return true;
}

void agg_job_import_start(struct agg_job *job, uint32_t iter)
{
	unsigned int w = job->spec.n_workers;

	for (uint32_t i = 0; i < job->spec.n_parts; i++) {
		struct agg_part *p = &job->parts[i];

		p->iter = iter;
		p->state = AGG_PART_COLLECT;
		p->n_pushed = p->n_pulled = 0;
		p->n_folded = 0;
		p->folding = false;
		for (unsigned int r = 0; r < w; r++) {
			p->slot_iter[r] = AGG_SLOT_EMPTY;
			p->pulled[r] = iter;
			p->pull_pending[r] = p->next_pull[r] = 0;
		}
		if (job->spec.opt != AGG_OPT_NONE)
			p->weights_set = true;
	}
}

void agg_part_reduce(const struct agg_job *job, struct agg_part *p)
{
	const struct agg_job_spec *s = &job->spec;
	const void *const *in = &p->in[p->fold_from];
	unsigned int n_in = p->fold_to - p->fold_from;
	bool last = p->fold_to == s->n_workers, first = p->fold_from == 0;
	enum agg_isa isa = agg_isa_selected();

	if (s->opt == AGG_OPT_SGD_MOMENTUM) {
		agg_fold(isa, AGG_DTYPE_F32, p->sum, NULL, in, n_in, first,
			 p->nelem);
		if (last)
			agg_sgd_momentum(p->out, p->momentum, p->sum, p->nelem,
					 s->n_workers, s->lr, s->momentum);
	} else if (s->dtype == AGG_DTYPE_F32) {
		agg_fold(isa, AGG_DTYPE_F32, p->out, NULL, in, n_in, first,
			 p->nelem);
	} else {
		agg_fold(isa, s->dtype, p->acc, last ? p->out : NULL, in, n_in,
			 first, p->nelem);
	}
}
