// SPDX-License-Identifier: GPL-2.0
/*
 * Strict readers for spare-sim's inputs: the Tiresias trace
 * (job_id,num_gpu,submit_time,iterations,model_name,duration,interval),
 * its cluster spec (num_switch,num_node_p_switch,num_gpu_p_node,
 * num_cpu_p_node,mem_p_node) and a duration sample for the Gittins index.
 *
 * Comma-separated, one header line, no quoting; LF or CRLF line ends; the
 * last line may lack its newline. Every problem is reported as
 * "FILE:LINE:COL: field: reason" and the input is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace_csv.h"

#define MAX_COLS 64

struct field {
	const char *p;
	size_t len;
	size_t col;	/* 1-based byte column */
};

struct line {
	const char *p;
	size_t len;
	size_t no;	/* 1-based */
	struct field f[MAX_COLS];
	size_t nf;	/* fields; MAX_COLS + 1 if there were more */
};

static void report(struct sim_errs *e, size_t line, size_t col, const char *field,
		   const char *fmt, ...)
{
	va_list ap;

	if (e->count++ >= SIM_MAX_ERRORS || !e->out)
		return;
	fprintf(e->out, "%s:%zu:%zu: %s: ", e->file ? e->file : "<input>", line, col, field);
	va_start(ap, fmt);
	vfprintf(e->out, fmt, ap);
	va_end(ap);
	fputc('\n', e->out);
}

/* Next line from *pos; false at the end of the buffer. */
static bool next_line(const char *buf, size_t len, size_t *pos, struct line *l)
{
	const char *nl;
	size_t start = *pos, n;

	if (start >= len)
		return false;
	nl = memchr(buf + start, '\n', len - start);
	n = nl ? (size_t)(nl - (buf + start)) : len - start;
	*pos = start + n + (nl ? 1 : 0);
	if (n && buf[start + n - 1] == '\r')
		n--;
	l->p = buf + start;
	l->len = n;
	l->no++;
	l->nf = 0;
	for (size_t i = 0, fs = 0;; i++) {
		if (i == n || l->p[i] == ',') {
			if (l->nf < MAX_COLS)
				l->f[l->nf] = (struct field){ l->p + fs, i - fs, fs + 1 };
			l->nf += l->nf <= MAX_COLS;
			fs = i + 1;
			if (i == n)
				break;
		}
	}
	return true;
}

static bool field_is(const struct field *f, const char *name)
{
	return f->len == strlen(name) && memcmp(f->p, name, f->len) == 0;
}

/*
 * Map the header's columns to the wanted names: idx[k] is the field index
 * of names[k]. Unknown columns are allowed and ignored.
 */
static int parse_header(const struct line *l, const char *const *names, size_t nnames,
			size_t *idx, struct sim_errs *e)
{
	int ret = 0;

	if (l->nf > MAX_COLS) {
		report(e, l->no, 1, "header", "more than %d columns", MAX_COLS);
		return -EINVAL;
	}
	for (size_t k = 0; k < nnames; k++) {
		idx[k] = SIZE_MAX;
		for (size_t i = 0; i < l->nf; i++) {
			if (!field_is(&l->f[i], names[k]))
				continue;
			if (idx[k] != SIZE_MAX) {
				report(e, l->no, l->f[i].col, names[k],
				       "header column repeated (first at column %zu)",
				       l->f[idx[k]].col);
				ret = -EINVAL;
			} else {
				idx[k] = i;
			}
		}
		if (idx[k] == SIZE_MAX) {
			report(e, l->no, 1, names[k], "header column missing");
			ret = -EINVAL;
		}
	}
	return ret;
}

/* A non-negative decimal integer that fits int64. */
static int parse_int(const struct line *l, const struct field *f, const char *name,
		     int64_t *out, struct sim_errs *e)
{
	int64_t v = 0;

	if (f->len == 0) {
		report(e, l->no, f->col, name, "empty, expected a non-negative integer");
		return -EINVAL;
	}
	for (size_t i = 0; i < f->len; i++) {
		int d = f->p[i] - '0';

		if (d < 0 || d > 9) {
			report(e, l->no, f->col, name, "'%.*s' is not a non-negative integer",
			       (int)(f->len > 40 ? 40 : f->len), f->p);
			return -EINVAL;
		}
		if (v > (INT64_MAX - d) / 10) {
			report(e, l->no, f->col, name, "value past int64");
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static bool row_shape_ok(const struct line *l, size_t ncols, struct sim_errs *e)
{
	if (l->nf == ncols)
		return true;
	if (l->nf > MAX_COLS)
		report(e, l->no, 1, "row", "more than %d fields, header has %zu", MAX_COLS,
		       ncols);
	else
		report(e, l->no, 1, "row", "%zu fields, header has %zu", l->nf, ncols);
	return false;
}

static bool header_line(const char *buf, size_t len, size_t *pos, struct line *l,
			struct sim_errs *e)
{
	if (!next_line(buf, len, pos, l)) {
		report(e, 1, 1, "header", "empty file");
		return false;
	}
	return true;
}

static const char *const spec_cols[] = {
	"num_switch", "num_node_p_switch", "num_gpu_p_node", "num_cpu_p_node", "mem_p_node",
};

int sim_parse_spec(const char *buf, size_t len, struct sim_spec *spec, struct sim_errs *e)
{
	struct line l;
	size_t pos = 0, idx[5], ncols, rows = 0;
	int64_t v[5] = { 0 };
	unsigned int before = e->count;

	memset(&l, 0, sizeof(l));
	if (!header_line(buf, len, &pos, &l, e))
		return -EINVAL;
	if (parse_header(&l, spec_cols, 5, idx, e))
		return -EINVAL;
	ncols = l.nf;
	while (next_line(buf, len, &pos, &l)) {
		if (++rows > 1) {
			report(e, l.no, 1, "spec", "more than one row (exactly one is needed)");
			return -EINVAL;
		}
		if (!row_shape_ok(&l, ncols, e))
			continue;
		for (int k = 0; k < 5; k++) {
			const struct field *f = &l.f[idx[k]];

			if (parse_int(&l, f, spec_cols[k], &v[k], e) == 0 && v[k] < 1)
				report(e, l.no, f->col, spec_cols[k], "must be at least 1");
		}
	}
	if (rows == 0) {
		report(e, l.no + 1, 1, "spec", "no row (exactly one is needed)");
		return -EINVAL;
	}
	if (e->count != before)
		return -EINVAL;
	spec->num_switch = v[0];
	spec->nodes_per_switch = v[1];
	spec->gpus_per_node = v[2];
	spec->cpus_per_node = v[3];
	spec->mem_per_node = v[4];
	if (__builtin_mul_overflow(v[0], v[1], &spec->nodes) ||
	    __builtin_mul_overflow(spec->nodes, v[2], &spec->gpus)) {
		report(e, l.no, 1, "spec", "cluster size past int64");
		return -EINVAL;
	}
	return 0;
}

enum { T_JOB_ID, T_NUM_GPU, T_SUBMIT, T_ITER, T_MODEL, T_DURATION, T_INTERVAL, T_NCOLS };

static const char *const trace_cols[T_NCOLS] = {
	"job_id", "num_gpu", "submit_time", "iterations", "model_name", "duration", "interval",
};

struct job_pos {
	int64_t id;
	size_t line, col, index;
};

static int cmp_id(const void *pa, const void *pb)
{
	const struct job_pos *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * What every trace reader checks once all rows are read: a trace without
 * jobs (reported at @end_line, after the last line, when no other error
 * explains it), and each job_id seen twice, at the later line.
 */
static void trace_end_checks(struct sim_errs *e, struct job_pos *pos_of, size_t n)
{
	if (n < 2)
		return;
	qsort(pos_of, n, sizeof(*pos_of), cmp_id);
	for (size_t i = 1; i < n; i++)
		if (pos_of[i].id == pos_of[i - 1].id)
			report(e, pos_of[i].line, pos_of[i].col, "job_id",
			       "duplicate of line %zu", pos_of[i - 1].line);
}

/* Submission order; ties in trace order (id holds the row index here). */
static int cmp_submit(const void *pa, const void *pb)
{
	const struct tir_job *a = pa, *b = pb;

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	return a->acct.seq < b->acct.seq ? -1 : a->acct.seq > b->acct.seq;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *np;
	size_t ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	np = reallocarray(*p, ncap, size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

/*
 * One reader for both job traces: the header, the row loop, the growing
 * job array, the end checks (no jobs, duplicate ids) and the sort into
 * submission order. A trace supplies its columns and how one row becomes
 * a job.
 */
/*
 * One row of a table, its columns where the header put them (@idx): 1 when
 * the row is taken, 0 when it is not (its problems reported), a negative
 * errno to stop reading.
 */
typedef int (*table_row_fn)(const struct line *l, const size_t *idx, void *ctx,
			    struct sim_errs *e);

/*
 * The table in @buf: a header naming the @ncols columns @cols (idx[k] is
 * where cols[k] is), then rows of its width, each given to @row until the
 * end or SIM_MAX_ERRORS problems. A table with no row taken and no other
 * problem is reported as @none_field: @none at the line after the last
 * (unless @none is NULL). *@end is that line, or 0 when the header was
 * refused. 0; -EINVAL with the problems reported; or what @row stopped
 * with.
 */
static int read_table(const char *buf, size_t len, const char *const *cols, size_t ncols,
		      size_t *idx, table_row_fn row, void *ctx, const char *none_field,
		      const char *none, size_t *end, struct sim_errs *e)
{
	struct line l;
	size_t pos = 0, width, taken = 0;
	unsigned int before = e->count;
	int ret = 0;

	memset(&l, 0, sizeof(l));
	*end = 0;
	if (!header_line(buf, len, &pos, &l, e) || parse_header(&l, cols, ncols, idx, e))
		return -EINVAL;
	width = l.nf;
	while (ret >= 0 && next_line(buf, len, &pos, &l) && e->count < SIM_MAX_ERRORS) {
		if (!row_shape_ok(&l, width, e))
			continue;
		ret = row(&l, idx, ctx, e);
		taken += ret > 0;
	}
	if (ret < 0)
		return ret;
	*end = l.no + 1;
	if (!taken && e->count == before && none)
		report(e, *end, 1, none_field, "%s", none);
	return e->count != before ? -EINVAL : 0;
}

struct job_reader {
	const char *const *cols;
	size_t ncols;
	size_t id_col;		/* which of cols is job_id */
	size_t size;		/* of one job */
	/*
	 * Fill @job (zeroed) from row @l; @seq is its trace order. false
	 * (the reason reported) skips the row.
	 */
	bool (*row)(const struct line *l, const size_t *idx, void *job, size_t seq,
		    int64_t *id, void *ctx, struct sim_errs *e);
	int (*cmp)(const void *, const void *);	/* submission order */
};

/* read_jobs()'s rows: the jobs so far. */
struct jobs_ctx {
	const struct job_reader	*r;
	void			*ctx;	/* r->row's */
	unsigned char		*jobs;
	struct job_pos		*pos_of;
	size_t			n, cap, pcap;
};

static int job_row(const struct line *l, const size_t *idx, void *ctx, struct sim_errs *e)
{
	struct jobs_ctx *c = ctx;
	const struct job_reader *r = c->r;
	void *job;
	int64_t id;

	if (grow((void **)&c->jobs, &c->cap, c->n + 1, r->size) ||
	    grow((void **)&c->pos_of, &c->pcap, c->n + 1, sizeof(*c->pos_of)))
		return -ENOMEM;
	job = c->jobs + c->n * r->size;
	memset(job, 0, r->size);
	if (!r->row(l, idx, job, c->n, &id, c->ctx, e))
		return 0;
	c->pos_of[c->n] = (struct job_pos){ id, l->no, l->f[idx[r->id_col]].col, c->n };
	c->n++;
	return 1;
}

static int read_jobs(const char *buf, size_t len, const struct job_reader *r, void *ctx,
		     void **out, size_t *nout, struct sim_errs *e)
{
	struct jobs_ctx c = { .r = r, .ctx = ctx };
	size_t idx[MAX_COLS], end;
	unsigned int before = e->count;
	int ret;

	*out = NULL;
	*nout = 0;
	ret = read_table(buf, len, r->cols, r->ncols, idx, job_row, &c, "trace", "no jobs",
			 &end, e);
	if (!ret) {
		trace_end_checks(e, c.pos_of, c.n);
		ret = e->count != before ? -EINVAL : 0;
	}
	if (!ret) {
		qsort(c.jobs, c.n, r->size, r->cmp);
		*out = c.jobs;
		*nout = c.n;
		c.jobs = NULL;
	}
	free(c.jobs);
	free(c.pos_of);
	return ret;
}

struct trace_ctx {
	int64_t gpus, total, max_submit;
};

static bool trace_row(const struct line *l, const size_t *idx, void *job, size_t seq,
		      int64_t *id, void *ctx, struct sim_errs *e)
{
	struct trace_ctx *c = ctx;
	struct tir_job *j = job;
	const struct field *f;
	bool ok = true;

	ok &= parse_int(l, &l->f[idx[T_JOB_ID]], "job_id", &j->id, e) == 0;
	f = &l->f[idx[T_NUM_GPU]];
	if (parse_int(l, f, "num_gpu", &j->num_gpu, e) == 0) {
		if (j->num_gpu == 0) {
			report(e, l->no, f->col, "num_gpu", "must be at least 1");
			ok = false;
		} else if (j->num_gpu > c->gpus) {
			report(e, l->no, f->col, "num_gpu",
			       "%lld GPUs, larger than the cluster (%lld)",
			       (long long)j->num_gpu, (long long)c->gpus);
			ok = false;
		}
	} else {
		ok = false;
	}
	ok &= parse_int(l, &l->f[idx[T_SUBMIT]], "submit_time", &j->submit, e) == 0;
	f = &l->f[idx[T_DURATION]];
	if (parse_int(l, f, "duration", &j->duration, e) == 0) {
		if (j->duration == 0) {
			report(e, l->no, f->col, "duration", "must be at least 1 second");
			ok = false;
		} else if (j->num_gpu >= 1 && j->duration > TIR_MAX_TIME / j->num_gpu) {
			report(e, l->no, f->col, "duration", "num_gpu x duration past int64 / 4");
			ok = false;
		} else if (j->submit > TIR_MAX_TIME - c->total - j->duration ||
			   c->total > TIR_MAX_TIME - j->duration ||
			   c->max_submit > TIR_MAX_TIME - c->total - j->duration) {
			report(e, l->no, f->col, "duration",
			       "the trace's last submit_time plus all durations pass int64 / 4");
			ok = false;
		}
	} else {
		ok = false;
	}
	if (!ok)
		return false;
	c->total += j->duration;
	if (j->submit > c->max_submit)
		c->max_submit = j->submit;
	j->acct.seq = seq;	/* trace order, for a stable sort */
	*id = j->id;
	return true;
}

static const struct job_reader trace_reader = {
	.cols = trace_cols, .ncols = T_NCOLS, .id_col = T_JOB_ID,
	.size = sizeof(struct tir_job), .row = trace_row, .cmp = cmp_submit,
};

int sim_parse_trace(const char *buf, size_t len, int64_t gpus, struct sim_trace *t,
		    struct sim_errs *e)
{
	struct trace_ctx c = { .gpus = gpus };
	void *jobs;
	int ret = read_jobs(buf, len, &trace_reader, &c, &jobs, &t->n, e);

	t->jobs = jobs;
	return ret;
}

void sim_trace_free(struct sim_trace *t)
{
	free(t->jobs);
	*t = (struct sim_trace){ 0 };
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* sim_parse_durations()'s rows: the samples so far. */
struct durations_ctx {
	int64_t	*d;
	size_t	n, cap;
};

static int duration_row(const struct line *l, const size_t *idx, void *ctx,
			struct sim_errs *e)
{
	struct durations_ctx *c = ctx;
	const struct field *f = &l->f[idx[0]];
	int64_t v;

	if (parse_int(l, f, "duration", &v, e))
		return 0;
	if (v < 1 || v > INT64_MAX / 4) {
		report(e, l->no, f->col, "duration", "must be between 1 and int64 / 4");
		return 0;
	}
	if (grow((void **)&c->d, &c->cap, c->n + 1, sizeof(*c->d)))
		return -ENOMEM;
	c->d[c->n++] = v;
	return 1;
}

int sim_parse_durations(const char *buf, size_t len, int64_t **dur, size_t *n,
			struct sim_errs *e)
{
	static const char *const cols[] = { "duration" };
	struct durations_ctx c = { 0 };
	size_t idx[1], end;
	int ret;

	*dur = NULL;
	*n = 0;
	ret = read_table(buf, len, cols, 1, idx, duration_row, &c, "duration", "no samples",
			 &end, e);
	if (ret) {
		free(c.d);
		return ret;
	}
	qsort(c.d, c.n, sizeof(*c.d), cmp_i64);
	*dur = c.d;
	*n = c.n;
	return 0;
}

/* A finite decimal number (strtod syntax, no spaces). */
static int parse_num(const struct line *l, const struct field *f, const char *name,
		     double *out, struct sim_errs *e)
{
	char tmp[64], *end;
	double v;

	if (f->len == 0 || f->len >= sizeof(tmp) || f->p[0] == ' ' ||
	    f->p[f->len - 1] == ' ') {
		report(e, l->no, f->col, name, "'%.*s' is not a number",
		       (int)(f->len > 40 ? 40 : f->len), f->p);
		return -EINVAL;
	}
	memcpy(tmp, f->p, f->len);
	tmp[f->len] = '\0';
	errno = 0;
	v = strtod(tmp, &end);
	if (errno || *end || !isfinite(v)) {
		report(e, l->no, f->col, name, "'%s' is not a finite number", tmp);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

struct id_pos {
	int64_t id;
	size_t idx;
};

static int cmp_id_pos(const void *pa, const void *pb)
{
	const struct id_pos *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* sim_parse_loss()'s rows: the trace's jobs by id, and which have a curve. */
struct loss_ctx {
	const struct sim_trace	*t;
	struct sim_loss		*loss;
	struct id_pos		*ix;
	unsigned char		*seen;
};

static int loss_row(const struct line *l, const size_t *idx, void *ctx, struct sim_errs *e)
{
	struct loss_ctx *c = ctx;
	struct id_pos key, *hit;
	struct sim_loss v;
	const struct field *f;

	if (parse_int(l, &l->f[idx[0]], "job_id", &key.id, e))
		return 0;
	hit = bsearch(&key, c->ix, c->t->n, sizeof(*c->ix), cmp_id_pos);
	if (!hit) {
		report(e, l->no, l->f[idx[0]].col, "job_id", "%lld is not in the trace",
		       (long long)key.id);
		return 0;
	}
	if (c->seen[hit->idx]) {
		report(e, l->no, l->f[idx[0]].col, "job_id", "duplicate %lld",
		       (long long)key.id);
		return 0;
	}
	c->seen[hit->idx] = 1;
	if (parse_num(l, &l->f[idx[1]], "loss0", &v.loss0, e) ||
	    parse_num(l, &l->f[idx[2]], "loss_final", &v.final, e) ||
	    parse_num(l, &l->f[idx[3]], "tau_s", &v.tau, e))
		return 0;
	f = &l->f[idx[1]];
	if (!(v.loss0 > 0)) {
		report(e, l->no, f->col, "loss0", "must be > 0");
		return 0;
	}
	f = &l->f[idx[2]];
	if (!(v.final >= 0 && v.final <= v.loss0)) {
		report(e, l->no, f->col, "loss_final", "must be in [0, loss0]");
		return 0;
	}
	f = &l->f[idx[3]];
	if (!(v.tau > 0)) {
		report(e, l->no, f->col, "tau_s", "must be > 0");
		return 0;
	}
	c->loss[hit->idx] = v;
	return 1;
}

int sim_parse_loss(const char *buf, size_t len, const struct sim_trace *t,
		   struct sim_loss *loss, struct sim_errs *e)
{
	static const char *const cols[] = { "job_id", "loss0", "loss_final", "tau_s" };
	struct loss_ctx c = { .t = t, .loss = loss };
	size_t idx[4], end;
	unsigned int before = e->count;

	c.ix = calloc(t->n ? t->n : 1, sizeof(*c.ix));
	c.seen = calloc(t->n ? t->n : 1, 1);
	if (!c.ix || !c.seen) {
		free(c.ix);
		free(c.seen);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++)
		c.ix[i] = (struct id_pos){ .id = t->jobs[i].id, .idx = i };
	qsort(c.ix, t->n, sizeof(*c.ix), cmp_id_pos);
	read_table(buf, len, cols, 4, idx, loss_row, &c, NULL, NULL, &end, e);
	/* every job needs a curve, once the header is right */
	for (size_t i = 0; end && i < t->n && e->count < SIM_MAX_ERRORS; i++)
		if (!c.seen[i])
			report(e, end, 1, "job_id", "no loss curve for job %lld",
			       (long long)t->jobs[i].id);
	free(c.ix);
	free(c.seen);
	return e->count != before ? -EINVAL : 0;
}

enum { M_JOB_ID, M_SUBMIT, M_WORK, M_GPUS, M_TPUT, M_NCOLS };

static const char *const mip_cols[M_NCOLS] = {
	"job_id", "submit_time", "work", "gpus", "tput",
};

static int cmp_mip_submit(const void *pa, const void *pb)
{
	const struct sim_mip_job *a = pa, *b = pb;

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Split a ';' list into sub-fields; the count, or MIP_MAX_OPT + 1 if more. */
static size_t split_list(const struct field *f, struct field *sub)
{
	size_t n = 0;

	for (size_t i = 0, s = 0;; i++) {
		if (i == f->len || f->p[i] == ';') {
			if (n < MIP_MAX_OPT)
				sub[n] = (struct field){ f->p + s, i - s, f->col + s };
			n++;
			s = i + 1;
			if (i == f->len || n > MIP_MAX_OPT)
				break;
		}
	}
	return n;
}

/* The gpus and tput lists of one row into m; false (reported) if bad. */
static bool parse_options(const struct line *l, const struct field *fg,
			  const struct field *ft, int64_t gpus, struct mip_job *m,
			  struct sim_errs *e)
{
	struct field sg[MIP_MAX_OPT], st[MIP_MAX_OPT];
	size_t ng = split_list(fg, sg), nt = split_list(ft, st);

	if (ng > MIP_MAX_OPT) {
		report(e, l->no, fg->col, "gpus", "more than %d options", MIP_MAX_OPT);
		return false;
	}
	if (nt != ng) {
		report(e, l->no, ft->col, "tput", "%zu%s rates for %zu GPU options", nt,
		       nt > MIP_MAX_OPT ? " or more" : "", ng);
		return false;
	}
	m->nopt = (unsigned int)ng;
	for (size_t o = 0; o < ng; o++) {
		int64_t g;

		if (parse_int(l, &sg[o], "gpus", &g, e) ||
		    parse_num(l, &st[o], "tput", &m->tput[o], e))
			return false;
		if (g < 1 || g > gpus) {
			report(e, l->no, sg[o].col, "gpus",
			       "%lld is not between 1 and the cluster's %lld GPUs",
			       (long long)g, (long long)gpus);
			return false;
		}
		if (o && (unsigned int)g <= m->gpus[o - 1]) {
			report(e, l->no, sg[o].col, "gpus", "options must increase");
			return false;
		}
		if (!(m->tput[o] >= 1e-6 && m->tput[o] <= 1e12)) {
			report(e, l->no, st[o].col, "tput", "must be in [1e-6, 1e12]");
			return false;
		}
		m->gpus[o] = (unsigned int)g;
	}
	return true;
}

static bool mip_row(const struct line *l, const size_t *idx, void *job, size_t seq,
		    int64_t *id, void *ctx, struct sim_errs *e)
{
	const int64_t *gpus = ctx;
	struct sim_mip_job *j = job;
	const struct field *f;

	if (parse_int(l, &l->f[idx[M_JOB_ID]], "job_id", &j->id, e))
		return false;
	f = &l->f[idx[M_SUBMIT]];
	if (parse_num(l, f, "submit_time", &j->submit, e))
		return false;
	if (!(j->submit >= 0 && j->submit <= 1e15)) {
		report(e, l->no, f->col, "submit_time", "must be in [0, 1e15]");
		return false;
	}
	f = &l->f[idx[M_WORK]];
	if (parse_num(l, f, "work", &j->work, e))
		return false;
	if (!(j->work >= 1e-6 && j->work <= 1e15)) {
		report(e, l->no, f->col, "work", "must be in [1e-6, 1e15]");
		return false;
	}
	if (!parse_options(l, &l->f[idx[M_GPUS]], &l->f[idx[M_TPUT]], *gpus, &j->m, e))
		return false;
	j->m.remaining = j->work;
	j->m.running = false;
	j->seq = seq;
	*id = j->id;
	return true;
}

static const struct job_reader mip_reader = {
	.cols = mip_cols, .ncols = M_NCOLS, .id_col = M_JOB_ID,
	.size = sizeof(struct sim_mip_job), .row = mip_row, .cmp = cmp_mip_submit,
};

/* As sim_parse_trace(), with read_jobs() on the elastic columns. */
int sim_parse_mip_trace(const char *buf, size_t len, int64_t gpus,
			struct sim_mip_trace *t, struct sim_errs *e)
{
	void *jobs;
	int ret = read_jobs(buf, len, &mip_reader, &gpus, &jobs, &t->n, e);

	t->jobs = jobs;
	return ret;
}

void sim_mip_trace_free(struct sim_mip_trace *t)
{
	free(t->jobs);
	*t = (struct sim_mip_trace){ 0 };
}

/* Whether header line @l names column @name. */
static bool header_names(const struct line *l, const char *name)
{
	for (size_t i = 0; i < l->nf && i < MAX_COLS; i++)
		if (field_is(&l->f[i], name))
			return true;
	return false;
}

enum sim_trace_kind sim_trace_kind_of(const char *buf, size_t len, struct sim_errs *e)
{
	struct line l;
	size_t pos = 0;
	bool rigid, elastic;

	memset(&l, 0, sizeof(l));
	if (!header_line(buf, len, &pos, &l, e))
		return SIM_TRACE_UNKNOWN;
	rigid = header_names(&l, "num_gpu");	/* the elastic trace's is "gpus" */
	elastic = header_names(&l, "work");
	if (rigid && !elastic)
		return SIM_TRACE_RIGID;
	if (elastic && !rigid)
		return SIM_TRACE_ELASTIC;
	report(e, 1, 1, "header", "%s: a trace has the columns %s or %s",
	       rigid ? "num_gpu and work: columns of both trace formats" :
	       "neither num_gpu nor work: not a known trace",
	       "job_id,num_gpu,submit_time,iterations,model_name,duration,interval (Tiresias's)",
	       "job_id,submit_time,work,gpus,tput (elastic)");
	return SIM_TRACE_UNKNOWN;
}

int sim_parse_any_trace(const char *buf, size_t len, int64_t gpus, struct sim_any_trace *t,
			struct sim_errs *e)
{
	memset(t, 0, sizeof(*t));
	t->kind = sim_trace_kind_of(buf, len, e);
	switch (t->kind) {
	case SIM_TRACE_RIGID:
		return sim_parse_trace(buf, len, gpus, &t->rigid, e);
	case SIM_TRACE_ELASTIC:
		return sim_parse_mip_trace(buf, len, gpus, &t->elastic, e);
	default:
		return -EINVAL;
	}
}

void sim_any_trace_free(struct sim_any_trace *t)
{
	sim_trace_free(&t->rigid);
	sim_mip_trace_free(&t->elastic);
	t->kind = SIM_TRACE_UNKNOWN;
}

/* A finite number in [lo, hi] (lo itself allowed only if lo_ok). */
static bool num_in(const struct line *l, const struct field *f, const char *name,
		   double lo, bool lo_ok, double hi, double *out, struct sim_errs *e)
{
	if (parse_num(l, f, name, out, e))
		return false;
	if (!((lo_ok ? *out >= lo : *out > lo) && *out <= hi)) {
		report(e, l->no, f->col, name, "must be in %s%g, %g]", lo_ok ? "[" : "(",
		       lo, hi);
		return false;
	}
	return true;
}

/* A problem of a whole table, at line @end: -EINVAL. */
static int table_problem(struct sim_errs *e, size_t end, const char *field, const char *what)
{
	report(e, end, 1, field, "%s", what);
	return -EINVAL;
}

/* sim_parse_dike_model()'s rows: the layers so far. */
struct model_ctx {
	struct dike_layer	*layers;
	unsigned int		n;
	double			total;	/* parameters */
};

static int model_row(const struct line *l, const size_t *idx, void *ctx, struct sim_errs *e)
{
	struct model_ctx *c = ctx;
	const struct field *f = &l->f[idx[1]];
	struct dike_layer ly;

	if (c->n >= DIKE_MAX_LAYERS) {
		report(e, l->no, 1, "layer", "more than %d layers", DIKE_MAX_LAYERS);
		return -EINVAL;
	}
	if (field_is(f, "conv")) {
		ly.type = DIKE_CONV;
	} else if (field_is(f, "fc")) {
		ly.type = DIKE_FC;
	} else if (field_is(f, "other")) {
		ly.type = DIKE_OTHER;
	} else {
		report(e, l->no, f->col, "type", "'%.*s' is not conv, fc or other",
		       (int)(f->len > 40 ? 40 : f->len), f->p);
		return 0;
	}
	if (!num_in(l, &l->f[idx[2]], "params", 0, true, 1e13, &ly.params, e))
		return 0;
	c->total += ly.params;
	c->layers[c->n++] = ly;
	return 1;
}

int sim_parse_dike_model(const char *buf, size_t len, struct dike_layer *layers,
			 unsigned int *n, struct sim_errs *e)
{
	static const char *const cols[] = { "layer", "type", "params" };
	struct model_ctx c = { .layers = layers };
	size_t idx[3], end;
	int ret = read_table(buf, len, cols, 3, idx, model_row, &c, "model", "no layers",
			     &end, e);

	if (!ret && !(c.total > 0))
		ret = table_problem(e, end, "params", "the model has no parameters");
	*n = ret ? 0 : c.n;
	return ret;
}

/* sim_parse_dike_hosts()'s rows: the hosts so far. */
struct hosts_ctx {
	struct dike_host	*h;
	unsigned int		n;
	int64_t			gpus;
};

static int host_row(const struct line *l, const size_t *idx, void *ctx, struct sim_errs *e)
{
	struct hosts_ctx *c = ctx;
	const struct field *f;
	struct dike_host x;
	int64_t g, cores;

	if (c->n >= DIKE_MAX_HOSTS) {
		report(e, l->no, 1, "host", "more than %d hosts", DIKE_MAX_HOSTS);
		return -EINVAL;
	}
	f = &l->f[idx[1]];
	if (parse_int(l, f, "gpus", &g, e))
		return 0;
	if (g > 1024) {
		report(e, l->no, f->col, "gpus", "more than 1024");
		return 0;
	}
	f = &l->f[idx[3]];
	if (parse_int(l, f, "cores", &cores, e))
		return 0;
	if (cores < 1 || cores > 1000000) {
		report(e, l->no, f->col, "cores", "must be in [1, 1000000]");
		return 0;
	}
	if (!num_in(l, &l->f[idx[2]], "gpu_flops", 0, false, 1e18, &x.gpu_flops, e) ||
	    !num_in(l, &l->f[idx[4]], "sum_rate", 0, false, 1e15, &x.sum_rate, e) ||
	    !num_in(l, &l->f[idx[5]], "nic_bytes_per_s", 0, false, 1e15, &x.nic_bps, e))
		return 0;
	x.gpus = (unsigned int)g;
	x.cores = (unsigned int)cores;
	c->gpus += g;
	c->h[c->n++] = x;
	return 1;
}

int sim_parse_dike_hosts(const char *buf, size_t len, struct dike_host *h,
			 unsigned int *n, struct sim_errs *e)
{
	static const char *const cols[] = {
		"host", "gpus", "gpu_flops", "cores", "sum_rate", "nic_bytes_per_s",
	};
	struct hosts_ctx c = { .h = h };
	size_t idx[6], end;
	int ret = read_table(buf, len, cols, 6, idx, host_row, &c, "hosts", "no hosts", &end, e);

	if (!ret && c.gpus == 0)
		ret = table_problem(e, end, "gpus", "no host has a GPU");
	*n = ret ? 0 : c.n;
	return ret;
}
