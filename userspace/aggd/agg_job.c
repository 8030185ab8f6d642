// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd jobs and the partition state machine (agg_job.h).
 */
#include "agg_job.h"
#include "agg_sum.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void part_free(struct agg_part *p, unsigned int w)
{
	if (p->slots)
		for (unsigned int r = 0; r < w; r++)
			free(p->slots[r]);
	free(p->slots);
	free(p->in);
	free(p->loan);
	free(p->slot_iter);
	free(p->pulled);
	free(p->pull_pending);
	free(p->next_pull);
	free(p->momentum);
	free(p->sum);
	free(p->acc);
}

static void *alloc_buf(size_t bytes)
{
	void *p = NULL;

	/* 64-byte aligned: one cache line, one AVX-512 register */
	if (posix_memalign(&p, 64, bytes ? bytes : 64))
		return NULL;
	return p;
}

/* A partition's output in the job's region: each starts on a cache line. */
static size_t out_stride(size_t bytes)
{
	return (bytes + 63) / 64 * 64;
}

/*
 * The partitions' outputs, one page-aligned, zeroed allocation (the
 * partition offsets follow out_stride()). -1 on overflow or ENOMEM.
 */
static int out_region_alloc(struct agg_job *job, const struct agg_job_spec *s)
{
	size_t total = 0, esz = agg_dtype_size(s->dtype);

	for (uint32_t i = 0; i < s->n_parts; i++) {
		uint32_t t, nelem;
		uint64_t off;
		size_t b;

		if (agg_spec_part(s, i, &t, &off, &nelem))
			return -1;
		b = out_stride((size_t)nelem * esz);
		if (b > SIZE_MAX - total - 4095)
			return -1;
		total += b;
	}
	total = (total + 4095) / 4096 * 4096;
	if (!total)
		total = 4096;
	if (posix_memalign(&job->out_region, 4096, total))
		return -1;
	memset(job->out_region, 0, total);
	job->out_region_bytes = total;
	return 0;
}

static int part_init(struct agg_part *p, const struct agg_job_spec *s,
		     uint32_t index, uint8_t *out)
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
	p->out = out;
	if (!p->slot_iter || !p->pulled || !p->pull_pending || !p->next_pull ||
	    !p->slots || !p->in || !p->loan || !p->out)
		return -1;
	for (unsigned int r = 0; r < w; r++) {
		p->slot_iter[r] = AGG_SLOT_EMPTY;
		p->slots[r] = alloc_buf(p->bytes);
		if (!p->slots[r])
			return -1;
		p->in[r] = p->slots[r];
		/* fault the pages in now, not on the first push */
		memset(p->slots[r], 0, p->bytes);
	}
	if (s->opt == AGG_OPT_SGD_MOMENTUM) {
		p->momentum = calloc(p->nelem, sizeof(float));
		p->sum = alloc_buf(p->bytes);
		if (!p->momentum || !p->sum)
			return -1;
	} else if (s->dtype != AGG_DTYPE_F32) {
		p->acc = alloc_buf((size_t)p->nelem * sizeof(float));
		if (!p->acc)
			return -1;
		memset(p->acc, 0, (size_t)p->nelem * sizeof(float));
	}
	return 0;
}

struct agg_job *agg_job_create(uint32_t id, struct agg_job_spec *spec)
{
	struct agg_job *job = calloc(1, sizeof(*job));
	unsigned int w = spec->n_workers;
	size_t off = 0;

	if (!job)
		return NULL;
	job->id = id;
	job->parts = calloc(spec->n_parts, sizeof(*job->parts));
	job->rank_conn = calloc(w, sizeof(*job->rank_conn));
	job->rank_left = calloc(w, 1);
	if (!job->parts || !job->rank_conn || !job->rank_left)
		goto fail;
	job->spec = *spec;
	if (out_region_alloc(job, spec))
		goto fail;
	for (uint32_t p = 0; p < spec->n_parts; p++) {
		if (part_init(&job->parts[p], spec, p,
			      (uint8_t *)job->out_region + off)) {
			job->spec.n_parts = p + 1;
			goto fail_parts;
		}
		off += out_stride(job->parts[p].bytes);
	}
	job->mem_bytes = agg_job_mem_need(spec);
	memset(spec, 0, sizeof(*spec));	/* arrays now belong to the job */
	return job;
fail_parts:
	for (uint32_t p = 0; p < job->spec.n_parts; p++)
		part_free(&job->parts[p], w);
	job->spec.n_parts = spec->n_parts;
fail:
	free(job->out_region);
	free(job->parts);
	free(job->rank_conn);
	free(job->rank_left);
	free(job);
	return NULL;
}

void agg_job_free(struct agg_job *job)
{
	if (!job)
		return;
	for (uint32_t p = 0; p < job->spec.n_parts; p++)
		part_free(&job->parts[p], job->spec.n_workers);
	free(job->out_region);
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
