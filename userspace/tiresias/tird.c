// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias's pass, ledger and state file (see tird.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spare_log.h"
#include "tird.h"

int64_t tird_scaled(int64_t ms, double scale)
{
	double x = (double)ms / 1000.0 * scale;

	if (!(x > 0))
		return 0;
	return x >= (double)TIR_MAX_TIME ? TIR_MAX_TIME : (int64_t)x;
}

/* ------------------------------------------------------------------ */
/* GPU counts from Slurm's TRES strings */

/* A whole decimal count: -1 if not one. */
static int64_t count_of(const char *p, size_t len)
{
	int64_t v = 0;

	if (len == 0 || len > 9)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/*
 * Sum of the GPU counts in a TRES list: items separated by ',' (or ';'),
 * each "gres:gpu[:type]:N" or "gres/gpu[:type]:N" (tres_per_*), or
 * "gres/gpu[:type]=N" (tres_req_str, where a typed entry repeats the
 * untyped total: only the untyped one counts there). 0 if none, -1 if a
 * GPU item is unreadable.
 */
static int64_t gpus_in_list(const char *s, bool req)
{
	int64_t total = 0;
	bool untyped_seen = false;

	if (!s)
		return 0;
	while (*s) {
		size_t len = strcspn(s, ",;");
		const char *item = s;

		s += len;
		if (*s)
			s++;
		if (len < 8 || (strncmp(item, "gres:gpu", 8) && strncmp(item, "gres/gpu", 8)))
			continue;
		if (len > 8 && item[8] != ':' && item[8] != '=')
			continue;	/* "gres/gpumem" and the like */
		if (req) {
			/* gres/gpu=N, gres/gpu:type=N */
			const char *eq = memchr(item, '=', len);
			bool typed = item[8] == ':';
			int64_t v;

			if (!eq)
				return -1;
			v = count_of(eq + 1, len - (size_t)(eq + 1 - item));
			if (v < 0)
				return -1;
			if (!typed) {
				total = v;
				untyped_seen = true;
			} else if (!untyped_seen) {
				total += v;
			}
			continue;
		}
		/* gres:gpu:N, gres:gpu:type:N: the count is the last field */
		const char *last = item + len;

		while (last > item && last[-1] != ':')
			last--;
		if (last <= item + 8)
			return -1;	/* "gres:gpu" with no count */
		int64_t v = count_of(last, len - (size_t)(last - item));

		if (v < 0)
			return -1;
		total += v;
	}
	return total;
}

int64_t tird_gpus_from_tres(const char *per_job, const char *per_node, uint32_t nodes,
			    const char *req)
{
	int64_t v;

	v = gpus_in_list(per_job, false);
	if (v)
		return v;
	v = gpus_in_list(per_node, false);
	if (v > 0)
		return nodes > 1 ? v * nodes : v;
	if (v < 0)
		return v;
	return gpus_in_list(req, true);
}

int64_t tird_gpus_of_node(const char *gres)
{
	int64_t total = 0;

	if (!gres)
		return 0;
	while (*gres) {
		size_t len = strcspn(gres, ",");
		const char *item = gres, *end;

		gres += len;
		if (*gres)
			gres++;
		/* gpu:N, gpu:type:N, either followed by "(S:0-1)" */
		if (len < 4 || strncmp(item, "gpu:", 4))
			continue;
		end = memchr(item, '(', len);
		if (!end)
			end = item + len;
		const char *last = end;

		while (last > item && last[-1] != ':')
			last--;
		int64_t v = count_of(last, (size_t)(end - last));

		if (v < 0)
			return -1;
		total += v;
	}
	return total;
}

/* ------------------------------------------------------------------ */
/* The ledger */

static size_t ledger_pos(const struct tird_ledger *l, uint32_t id)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->e[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tird_entry *tird_ledger_find(struct tird_ledger *l, uint32_t id)
{
	size_t i = ledger_pos(l, id);

	return i < l->n && l->e[i].id == id ? &l->e[i] : NULL;
}

struct tird_entry *tird_ledger_add(struct tird_ledger *l, uint32_t id)
{
	size_t i = ledger_pos(l, id);

	if (i < l->n && l->e[i].id == id)
		return &l->e[i];
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct tird_entry *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return NULL;
		l->e = e;
		l->cap = cap;
	}
	memmove(&l->e[i + 1], &l->e[i], (l->n - i) * sizeof(*l->e));
	memset(&l->e[i], 0, sizeof(*l->e));
	l->e[i].id = id;
	l->n++;
	return &l->e[i];
}

void tird_ledger_free(struct tird_ledger *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

/* ------------------------------------------------------------------ */
/* The state file */

#define STATE_MAGIC "spare-tiresias-state 1"

int tird_state_save(const struct tird_ledger *l, const char *path)
{
	char tmp[4096];
	FILE *f;
	int fd, err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		log_err("state-file %s: path too long", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		log_err("state-file %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, STATE_MAGIC "\nseq %" PRIu64 "\n", l->seq);
	for (size_t i = 0; i < l->n; i++) {
		const struct tird_entry *e = &l->e[i];
		const struct tir_acct *a = &e->acct;

		fprintf(f, "job %" PRIu32 " %d %" PRIu64 " %" PRId64 " %" PRId64 " %" PRId64
			" %" PRId64 " %" PRId64 " %" PRIu32 " %" PRIu32 "\n",
			e->id, a->queue, a->seq, a->last_check, a->run_total, a->run_attained,
			a->pending_total, a->pending_since_run, a->preempt, a->promote);
	}
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		log_err("state-file %s: %s", path, strerror(err));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int tird_state_load(struct tird_ledger *l, const char *path, int nqueues,
		    char *why, size_t whylen)
{
	FILE *f = fopen(path, "re");
	char line[512];
	unsigned int no = 0;
	struct tird_ledger nl = { 0 };
	bool have_seq = false;

	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct tird_entry e = { 0 }, *p;
		struct tir_acct *a = &e.acct;
		int used = -1;

		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, whylen, "%s:%u: line too long", path, no);
			goto bad;
		}
		line[strcspn(line, "\n")] = 0;
		if (no == 1) {
			if (strcmp(line, STATE_MAGIC)) {
				snprintf(why, whylen, "%s:1: not a spare-tiresias state file", path);
				goto bad;
			}
			continue;
		}
		if (no == 2) {
			if (sscanf(line, "seq %" SCNu64 "%n", &nl.seq, &used) != 1 ||
			    used != (int)strlen(line)) {
				snprintf(why, whylen, "%s:2: expected \"seq N\"", path);
				goto bad;
			}
			have_seq = true;
			continue;
		}
		if (sscanf(line, "job %" SCNu32 " %d %" SCNu64 " %" SCNd64 " %" SCNd64 " %" SCNd64
			   " %" SCNd64 " %" SCNd64 " %" SCNu32 " %" SCNu32 "%n",
			   &e.id, &a->queue, &a->seq, &a->last_check, &a->run_total, &a->run_attained,
			   &a->pending_total, &a->pending_since_run, &a->preempt, &a->promote,
			   &used) != 10 || used != (int)strlen(line)) {
			snprintf(why, whylen, "%s:%u: expected \"job\" and 10 numbers", path, no);
			goto bad;
		}
		if (a->queue < 0 || a->queue >= nqueues || a->last_check < 0 || a->run_total < 0 ||
		    a->run_attained < 0 || a->run_attained > a->run_total ||
		    a->run_total > TIR_MAX_TIME || a->pending_total < 0 ||
		    a->pending_since_run < 0 || a->pending_total > TIR_MAX_TIME ||
		    a->pending_since_run > TIR_MAX_TIME || a->last_check > TIR_MAX_TIME ||
		    a->seq > nl.seq) {
			snprintf(why, whylen, "%s:%u: job %" PRIu32 ": a value out of range "
				 "(queue beyond queue-limits, or service negative)", path, no, e.id);
			goto bad;
		}
		if (tird_ledger_find(&nl, e.id)) {
			snprintf(why, whylen, "%s:%u: job %" PRIu32 " twice", path, no, e.id);
			goto bad;
		}
		p = tird_ledger_add(&nl, e.id);
		if (!p) {
			snprintf(why, whylen, "%s: out of memory", path);
			goto bad;
		}
		*p = e;
	}
	if (ferror(f)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		goto bad;
	}
	if (!have_seq) {
		snprintf(why, whylen, "%s:%u: truncated (no \"seq\" line)", path, no + 1);
		goto bad;
	}
	fclose(f);
	tird_ledger_free(l);
	*l = nl;
	return 0;
bad:
	fclose(f);
	tird_ledger_free(&nl);
	return -1;
}

/* ------------------------------------------------------------------ */
/* A pass */

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_view(const void *a, const void *b)
{
	const struct tird_view *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool in_set(const uint32_t *set, size_t n, uint32_t id)
{
	return n && bsearch(&id, set, n, sizeof(*set), cmp_u32) != NULL;
}

/* Why Tiresias leaves a job to Slurm, or NULL if it schedules it. */
static const char *ignore_reason(const struct tird_view *v, int64_t gpus)
{
	if (v->gpus == 0)
		return "no GPU request";
	if (v->gpus < 0)
		return "GPU request unreadable";
	if (!v->time_ok)
		return "no finite time limit";
	if (v->gpus > gpus)
		return "asks for more GPUs than the cluster has";
	return NULL;
}

static int grow(struct tird *d, size_t n)
{
	if (n <= d->cap)
		return 0;
	size_t cap = n < 256 ? 256 : n + n / 2;
	struct tir_job *jobs = realloc(d->jobs, cap * sizeof(*jobs));

	if (!jobs)
		return -1;
	d->jobs = jobs;
	uint32_t *w = realloc(d->walk, 6 * cap * sizeof(*w));

	if (!w)
		return -1;
	d->walk = w;
	d->scratch = w + cap;
	d->vidx = w + 2 * cap;
	d->prio_cur = w + 3 * cap;
	d->prio_new = w + 4 * cap;
	d->prio_tail = w + 5 * cap;
	d->cap = cap;
	return 0;
}

/* The first job ahead of @pos in the walk that is to start: who needs the GPUs. */
static const struct tir_job *waiting_ahead(const struct tird *d, const struct tird_view *v,
					   size_t pos, uint32_t *id)
{
	for (size_t k = 0; k < pos; k++) {
		uint32_t i = d->walk[k];

		if (d->jobs[i].state == TIR_RUNNING && v[d->vidx[i]].state == TIRD_V_PENDING) {
			*id = v[d->vidx[i]].id;
			return &d->jobs[i];
		}
	}
	return NULL;
}

static int64_t service(const struct tird *d, const struct tir_job *j)
{
	return d->cfg.tir.schedule == TIR_DLAS ? j->acct.run_attained : j->acct.run_attained * j->num_gpu;
}

/* How far ahead a job that moves looks for one that can stay. */
#define TIRD_PRIO_LOOKAHEAD	64

void tird_assign_priorities(const uint32_t *cur, uint32_t *out, size_t m, uint32_t top,
			    uint32_t floor)
{
	/* in band coordinates: floor is 1, a priority below the band is 0 */
	uint64_t base = floor > 1 ? floor - 1 : 0, band = top > base ? top - base : 0;
	uint64_t gap = band / ((uint64_t)m + 1), prev, n = m < band ? m : band;

	gap = gap < 1 ? 1 : gap > TIRD_PRIO_GAP ? TIRD_PRIO_GAP : gap;
	prev = band + gap;	/* headroom above the first */
	for (size_t k = n; k < m; k++)
		out[k] = cur[k];	/* no room in the band: left as they are */
	for (size_t k = 0; k < n; k++) {
		uint64_t room = n - k;	/* this job and those after need 1..room */
		uint64_t c = cur[k] > base ? cur[k] - base : 0, want;
		uint64_t next = k + 1 < n && cur[k + 1] > base ? cur[k + 1] - base : 0;

		/*
		 * Already in order: leave it, unless it is below the next one
		 * while the next one could stay (a job moved up the order with
		 * its old priority): then it moves, not all it passed.
		 */
		if (c < prev && c >= room &&
		    !(k + 1 < n && next > c && next + 1 < prev && next >= room - 1)) {
			out[k] = (uint32_t)(c + base);
			prev = c;
			continue;
		}
		size_t j = k + 1, lim = k + 1 + TIRD_PRIO_LOOKAHEAD;
		uint64_t cj = 0;

		/* the first job after it that can stay, with room for those between */
		for (; j < n && j < lim; j++) {
			cj = cur[j] > base ? cur[j] - base : 0;
			if (cj < prev && cj >= n - j && prev - cj > j - k)
				break;
		}
		if (j < n && j < lim) {
			/* between it and the previous, as far below the previous as fits */
			uint64_t step = (prev - cj) / (j - k + 1);

			want = prev - (step > gap ? gap : step);
		} else if (k == 0) {
			want = band;
		} else {
			want = prev > gap + room ? prev - gap : prev - 1;
		}
		out[k] = (uint32_t)(want + base);
		prev = want;
	}
}

size_t tird_limit_updates(const uint32_t *cur, uint32_t *out, size_t m, size_t max,
			  uint32_t *tail)
{
	size_t c, changes = 0, deferred = 0;

	if (!max)
		return 0;
	for (c = 0; c < m; c++)
		if (out[c] != cur[c] && changes++ == max)
			break;		/* the first change past @max */
	if (c == m)
		return 0;
	/* c >= 1 (max >= 1); tail[k]: the highest current priority from k on */
	tail[m - 1] = cur[m - 1];
	for (size_t k = m - 1; k-- > c;)
		tail[k] = cur[k] > tail[k + 1] ? cur[k] : tail[k + 1];
	while (c < m && tail[c] >= out[c - 1])
		c++;
	for (size_t k = c; k < m; k++) {
		if (out[k] != cur[k])
			deferred++;
		out[k] = cur[k];
	}
	return deferred;
}

const char *tird_slurm_conf_problem(const char *sched_type, const char *prio_type)
{
	if (sched_type && prio_type && !strcmp(sched_type, "sched/builtin") &&
	    !strcmp(prio_type, "priority/basic"))
		return "Slurm's SchedulerType is sched/builtin and its PriorityType "
		       "priority/basic: slurmctld then starts jobs in submission order and "
		       "ignores the priorities this daemon sets; use PriorityType="
		       "priority/multifactor (its weights may all be 0) or "
		       "SchedulerType=sched/backfill (admin guide, spare-tiresias)";
	return NULL;
}

/* Priorities the daemon may give, from priority-floor to priority-top. */
static uint64_t band_size(const struct tird_cfg *c)
{
	uint64_t floor = c->priority_floor ? c->priority_floor : 1;

	return c->priority_top >= floor ? (uint64_t)c->priority_top - floor + 1 : 0;
}

static void act(struct tird *d, const struct tird_view *v, size_t n)
{
	const struct tird_cfg *c = &d->cfg;
	unsigned int errs = 0;
	size_t deferred;

	/*
	 * Priorities first, so that the GPUs a requeue frees go to the right
	 * job. The pending jobs this pass starts go ahead of the ones it
	 * leaves waiting, each part in Tiresias's order: Slurm's main loop
	 * stops at the first job that does not fit (all of it under
	 * sched/builtin), so a waiting job of a higher queue ranked above a
	 * job Tiresias starts would hold that job back.
	 */
	size_t m = 0;

	for (int starts = 1; starts >= 0; starts--)
		for (size_t k = 0; k < n; k++) {
			uint32_t i = d->walk[k];

			if (v[d->vidx[i]].state == TIRD_V_PENDING &&
			    (d->jobs[i].state == TIR_RUNNING) == starts)
				d->scratch[m++] = i;
		}
	for (size_t k = 0; k < m; k++) {
		d->prio_cur[k] = v[d->vidx[d->scratch[k]]].priority;
	}
	if (m > band_size(c)) {
		if (!d->band_full)
			log_warn("%zu pending jobs and %" PRIu64 " priorities from priority-floor to "
				 "priority-top: the last %" PRIu64 " keep theirs until the band has room",
				 m, band_size(c), m - band_size(c));
		d->band_full = true;
	} else {
		d->band_full = false;
	}
	tird_assign_priorities(d->prio_cur, d->prio_new, m, c->priority_top, c->priority_floor);
	deferred = tird_limit_updates(d->prio_cur, d->prio_new, m, c->max_updates, d->prio_tail);
	if (deferred && !d->deferring)
		log_info("pass: %zu priority updates left to the next passes (max-priority-updates "
			 "%" PRIu32 "): the head of Tiresias's order is set first", deferred,
			 c->max_updates);
	d->deferring = deferred > 0;
	d->st.priority_deferred = deferred;
	for (size_t k = 0; k < m; k++) {
		uint32_t i = d->scratch[k];
		const struct tird_view *jv = &v[d->vidx[i]];
		uint32_t prio = d->prio_new[k];

		if (jv->priority == prio)
			continue;
		if (c->dry_run) {
			fprintf(c->dry_out, "would set priority of job %" PRIu32 " to %" PRIu32
				" (queue %d, was %" PRIu32 ")\n", jv->id, prio, d->jobs[i].acct.queue,
				jv->priority);
			continue;
		}
		if (d->ops.set_priority(d->ops.ctx, jv->id, prio)) {
			d->st.slurm_errors++;
			errs++;
			continue;
		}
		d->st.priority_sets++;
	}
	for (size_t k = 0; k < n; k++) {
		uint32_t i = d->walk[k], wid = 0;
		struct tir_job *j = &d->jobs[i];
		const struct tird_view *jv = &v[d->vidx[i]];
		const struct tir_job *w;
		char reason[160];

		if (jv->state != TIRD_V_RUNNING || j->state != TIR_PENDING)
			continue;
		w = waiting_ahead(d, v, k, &wid);
		if (w)
			snprintf(reason, sizeof(reason),
				 "job %" PRIu32 " (queue %d, %" PRId64 " GPUs) waits and does not fit",
				 wid, w->acct.queue, w->num_gpu);
		else
			snprintf(reason, sizeof(reason), "the cluster's GPUs go to higher queues");
		if (!jv->requeue_ok) {
			if (!in_set(d->ignored, d->nignored, jv->id))
				log_warn("job %" PRIu32 ": would be preempted (%s) but is not "
					 "requeueable (--no-requeue): left running", jv->id, reason);
			continue;
		}
		if (c->dry_run) {
			fprintf(c->dry_out, "would requeue job %" PRIu32 " (queue %d, %" PRId64
				" GPU-s attained, %" PRId64 " GPUs): %s\n", jv->id, j->acct.queue,
				service(d, j), j->num_gpu, reason);
			continue;
		}
		if (d->ops.requeue(d->ops.ctx, jv->id)) {
			d->st.slurm_errors++;
			errs++;
			continue;
		}
		d->st.preemptions++;
		log_info("preempt: requeued job %" PRIu32 " (queue %d, %" PRId64
			 " GPU-s attained, %" PRId64 " GPUs): %s", jv->id, j->acct.queue,
			 service(d, j), j->num_gpu, reason);
	}
	if (errs)
		log_warn("pass: %u Slurm updates failed (retried next pass)", errs);
}

/*
 * Remember which jobs were logged as left to Slurm (or as not
 * requeueable), and log the new ones: once per job, not per pass.
 */
static int note_ignored(struct tird *d, const struct tird_view *v, size_t n, int64_t gpus)
{
	uint32_t *set = NULL;
	size_t cnt = 0;
	uint64_t ignored = 0;

	for (size_t i = 0; i < n; i++) {
		const char *why;

		if (v[i].state == TIRD_V_FINAL || v[i].state == TIRD_V_HELD)
			continue;
		why = ignore_reason(&v[i], gpus);
		if (!why && !(v[i].state == TIRD_V_RUNNING && !v[i].requeue_ok))
			continue;
		if (!set && !(set = malloc(n * sizeof(*set))))
			return -1;
		if (!cnt || set[cnt - 1] != v[i].id)
			set[cnt++] = v[i].id;	/* the view is sorted by id */
		if (why) {
			ignored++;
			if (!in_set(d->ignored, d->nignored, v[i].id))
				log_info("job %" PRIu32 ": %s: left to Slurm's own policy",
					 v[i].id, why);
		}
	}
	/* act() reads the old set (not-requeueable warnings); swapped after it */
	free(d->ignored_next);
	d->ignored_next = set;
	d->nignored_next = cnt;
	d->st.jobs_ignored = ignored;
	return 0;
}

struct new_ctx {
	const struct tird_view *v;
	const uint32_t *vidx;
};

/* New jobs (indices into the pass's jobs) in submission order, then by id. */
static int cmp_new(const void *a, const void *b, void *arg)
{
	const struct new_ctx *c = arg;
	const struct tird_view *x = &c->v[c->vidx[*(const uint32_t *)a]];
	const struct tird_view *y = &c->v[c->vidx[*(const uint32_t *)b]];

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int tird_pass(struct tird *d, int64_t now_ms)
{
	const struct tird_cfg *c = &d->cfg;
	struct tird_view *v = NULL;
	struct tird_ledger nl = { 0 };
	size_t nv = 0, n = 0, nnew = 0;
	uint64_t t0 = cpu_ns(), sets0 = d->st.priority_sets;
	int64_t now, gpus = c->gpus;
	bool unreachable, no_gpus = false;
	int ret = -1;

	/* a failed read is an error; no GPU node up is Slurm's answer */
	unreachable = d->ops.load(d->ops.ctx, &v, &nv) ||
		      (!gpus && d->ops.cluster_gpus(d->ops.ctx, &gpus));
	if (!unreachable)
		no_gpus = gpus < 1;
	if (unreachable || no_gpus) {
		free(v);
		d->st.slurm_errors += !no_gpus;
		d->st.stale_passes++;
		if (!d->stale)
			log_warn("%s: keeping the priorities set, requeuing nothing until a "
				 "fresh view is read; retrying with back-off",
				 no_gpus ? "no GPU node is up" : "Slurm unreachable");
		d->stale = true;
		return 1;
	}
	if (d->stale)
		log_info("Slurm reachable again: scheduling on a fresh view");
	d->stale = false;
	now = tird_scaled(now_ms, c->time_scale);
	qsort(v, nv, sizeof(*v), cmp_view);
	if (grow(d, nv) || note_ignored(d, v, nv, gpus))
		goto out;

	/* The jobs Tiresias schedules, with their ledgers; held ones keep theirs. */
	nl.seq = d->led.seq;
	for (size_t i = 0; i < nv; i++) {
		const struct tird_view *jv = &v[i];
		struct tird_entry *old, *e;
		struct tir_job *j;

		if (jv->state == TIRD_V_FINAL || (i && jv->id == v[i - 1].id) ||
		    ignore_reason(jv, gpus))
			continue;
		old = tird_ledger_find(&d->led, jv->id);
		if (jv->state == TIRD_V_HELD) {
			if (old && !(e = tird_ledger_add(&nl, jv->id)))
				goto out;
			if (old)
				*e = *old;
			continue;
		}
		j = &d->jobs[n];
		memset(j, 0, sizeof(*j));
		d->vidx[n] = (uint32_t)i;
		j->id = jv->id;
		j->num_gpu = jv->gpus;
		j->submit = tird_scaled(jv->submit * 1000, c->time_scale);
		j->duration = 1;
		j->state = jv->state == TIRD_V_RUNNING ? TIR_RUNNING : TIR_PENDING;
		j->start = -1;
		j->end = -1;
		if (old) {
			j->acct = old->acct;
			if (j->acct.queue >= c->tir.nqueues)
				j->acct.queue = c->tir.nqueues - 1;
		} else {
			/* new: seq below, in submission order */
			j->acct.last_check = j->state == TIR_RUNNING ?
					tird_scaled(jv->start * 1000, c->time_scale) : j->submit;
			d->scratch[nnew++] = (uint32_t)n;
		}
		/*
		 * A run that began after the last look: the time before it
		 * waited. Slurm started it since the last pass (asked to, or
		 * on its own: backfill, a new job at its submission) if its
		 * start, in whole seconds, is not a second before that pass.
		 */
		if (j->state == TIR_RUNNING) {
			int64_t st = tird_scaled(jv->start * 1000, c->time_scale);
			int64_t st_end = tird_scaled((jv->start + 1) * 1000, c->time_scale);

			j->engine_started = !old || st_end > j->acct.last_check;
			if (st > j->acct.last_check && st <= now) {
				j->acct.pending_total += st - j->acct.last_check;
				if (j->acct.run_attained > 0)
					j->acct.pending_since_run += st - j->acct.last_check;
				j->acct.last_check = st;
			}
		}
		if (j->acct.last_check > now)
			j->acct.last_check = now;
		n++;
	}
	if (nnew) {
		struct new_ctx nc = { v, d->vidx };

		qsort_r(d->scratch, nnew, sizeof(*d->scratch), cmp_new, &nc);
		for (size_t k = 0; k < nnew; k++)
			d->jobs[d->scratch[k]].acct.seq = ++nl.seq;
	}
	d->cfg.tir.gpus = gpus;
	if (tir_live_pass(&d->cfg.tir, d->jobs, n, d->walk, d->scratch, &nl.seq, now)) {
		log_err("pass: the scheduler refused the view (a bug: please report)");
		goto out;
	}
	act(d, v, n);
	free(d->ignored);
	d->ignored = d->ignored_next;
	d->nignored = d->nignored_next;
	d->ignored_next = NULL;
	d->nignored_next = 0;

	memset(d->st.jobs_queue, 0, sizeof(d->st.jobs_queue));
	memset(d->st.jobs_running, 0, sizeof(d->st.jobs_running));
	for (size_t k = 0; k < n; k++) {
		const struct tir_job *j = &d->jobs[k];
		struct tird_entry *e = tird_ledger_add(&nl, v[d->vidx[k]].id);

		if (!e)
			goto out;
		e->acct = j->acct;
		d->st.jobs_queue[j->acct.queue]++;
		if (v[d->vidx[k]].state == TIRD_V_RUNNING)
			d->st.jobs_running[j->acct.queue]++;
	}
	tird_ledger_free(&d->led);
	d->led = nl;
	memset(&nl, 0, sizeof(nl));
	d->st.passes++;
	ret = 0;
out:
	if (ret)
		log_err("pass: out of memory");
	tird_ledger_free(&nl);
	free(v);
	d->st.last_pass_ns = cpu_ns() - t0;
	if (!ret)
		log_dbg("pass: %zu jobs in view, %zu scheduled, %" PRIu64 " priorities set, "
			"%.3f ms CPU", nv, n, d->st.priority_sets - sets0,
			(double)d->st.last_pass_ns / 1e6);
	return ret;
}

void tird_free(struct tird *d)
{
	tird_ledger_free(&d->led);
	free(d->ignored);
	free(d->ignored_next);
	free(d->jobs);
	free(d->walk);
	d->ignored = d->ignored_next = NULL;
	d->jobs = NULL;
	d->walk = NULL;
	d->cap = 0;
}
