// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd pure logic: ordering policies (FIFO, WFS, LAS), the core-count
 * controller, the partition push/pull state machine, and the iteration
 * barrier of a job that moves to another instance.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "agg_job.h"
#include "agg_sched.h"
#include "tap.h"

static struct agg_task tasks[1000];

static struct agg_task *task(int i, uint32_t job, uint64_t cost)
{
	memset(&tasks[i], 0, sizeof(tasks[i]));
	tasks[i].job = job;
	tasks[i].cost = cost;
	tasks[i].ctx = &tasks[i];
	return &tasks[i];
}

static void test_fifo(void)
{
	struct agg_sched s;
	int order[6], n = 0;
	struct agg_task *t;

	agg_sched_init(&s, AGG_POLICY_FIFO);
	EXPECT_EQ(agg_sched_add_job(&s, 1, 1), 0);
	EXPECT_EQ(agg_sched_add_job(&s, 2, 100), 0);
	EXPECT_EQ(agg_sched_add_job(&s, 2, 1), -EEXIST);
	EXPECT_EQ(agg_sched_enqueue(&s, task(0, 1, 10)), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, task(1, 2, 10)), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, task(2, 1, 10)), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, task(3, 2, 10)), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, task(4, 9, 10)), -ENOENT);
	EXPECT_EQ(s.queued, 4);
	while ((t = agg_sched_pick(&s)))
		order[n++] = (int)(t - tasks);
	EXPECT_EQ(n, 4);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(order[i], i);
	EXPECT_EQ(s.queued, 0);
	agg_sched_destroy(&s);
}

static void test_wfs_weights(void)
{
	struct agg_sched s;
	int got[3] = { 0 };

	agg_sched_init(&s, AGG_POLICY_WFS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 3);
	for (int i = 0; i < 200; i++)
		agg_sched_enqueue(&s, task(i, 1 + (i & 1), 100));
	for (int i = 0; i < 80; i++)
		got[agg_sched_pick(&s)->job]++;
	/* weight 3 gets three quarters of the service */
	EXPECT(got[2] >= 58 && got[2] <= 62);
	EXPECT_EQ(got[1] + got[2], 80);
	agg_sched_destroy(&s);
}

/* FlowCon's path: weights changed while both jobs stay backlogged. */
static void test_wfs_set_weight(void)
{
	struct agg_sched s;
	int got[3] = { 0 };

	agg_sched_init(&s, AGG_POLICY_WFS);
	agg_sched_add_job(&s, 1, 100);
	agg_sched_add_job(&s, 2, 100);
	EXPECT_EQ(agg_sched_set_weight(&s, 9, 10), -ENOENT);
	EXPECT_EQ(agg_sched_set_weight(&s, 1, 0), -EINVAL);
	for (int i = 0; i < 400; i++)
		agg_sched_enqueue(&s, task(i, 1 + (i & 1), 100));
	for (int i = 0; i < 40; i++)
		got[agg_sched_pick(&s)->job]++;
	EXPECT(got[1] >= 19 && got[1] <= 21);	/* equal so far */
	/* job 1 on the watch list: 50 against 150 */
	EXPECT_EQ(agg_sched_set_weight(&s, 1, 50), 0);
	EXPECT_EQ(agg_sched_set_weight(&s, 2, 150), 0);
	got[1] = got[2] = 0;
	for (int i = 0; i < 200; i++)
		got[agg_sched_pick(&s)->job]++;
	/* the bigger share gets three quarters of the summation from now on */
	EXPECT(got[2] >= 145 && got[2] <= 155);
	agg_sched_destroy(&s);
}

static void test_wfs_cost(void)
{
	struct agg_sched s;
	uint64_t served[3] = { 0 };

	/* equal weights, one job has 4x larger tasks: equal bytes, not tasks */
	agg_sched_init(&s, AGG_POLICY_WFS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 1);
	for (int i = 0; i < 400; i++)
		agg_sched_enqueue(&s, task(i, 1 + (i & 1), (i & 1) ? 400 : 100));
	for (int i = 0; i < 100; i++) {
		struct agg_task *t = agg_sched_pick(&s);

		served[t->job] += t->cost;
	}
	EXPECT(served[1] >= served[2] - 400 && served[1] <= served[2] + 400);
	agg_sched_destroy(&s);
}

static void test_wfs_no_idle_credit(void)
{
	struct agg_sched s;
	int b = 0;

	agg_sched_init(&s, AGG_POLICY_WFS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 1);
	for (int i = 0; i < 50; i++) {
		agg_sched_enqueue(&s, task(i, 1, 100));
		EXPECT_EQ(agg_sched_pick(&s)->job, 1);
	}
	/* job 2 wakes up after job 1 ran alone: it must not own the pool */
	for (int i = 50; i < 70; i++)
		agg_sched_enqueue(&s, task(i, 2, 100));
	for (int i = 70; i < 90; i++)
		agg_sched_enqueue(&s, task(i, 1, 100));
	for (int i = 0; i < 10; i++)
		b += agg_sched_pick(&s)->job == 2;
	EXPECT(b >= 4 && b <= 6);
	agg_sched_destroy(&s);
}

static void test_las(void)
{
	struct agg_sched s;

	agg_sched_init(&s, AGG_POLICY_LAS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 1);
	agg_sched_add_job(&s, 3, 1);
	for (int i = 0; i < 10; i++)
		agg_sched_enqueue(&s, task(i, 1, 1000));
	for (int i = 0; i < 5; i++)
		EXPECT_EQ(agg_sched_pick(&s)->job, 1);
	/* a new small job has attained nothing: it goes first, all of it */
	agg_sched_enqueue(&s, task(10, 2, 10));
	agg_sched_enqueue(&s, task(11, 2, 10));
	agg_sched_enqueue(&s, task(12, 3, 10));
	EXPECT_EQ(agg_sched_pick(&s)->job, 2);	/* tie with 3: older first */
	EXPECT_EQ(agg_sched_pick(&s)->job, 3);
	EXPECT_EQ(agg_sched_pick(&s)->job, 2);
	EXPECT_EQ(agg_sched_pick(&s)->job, 1);
	agg_sched_destroy(&s);
}

/*
 * Work done outside the queue (a sum's last fold on the event loop) is
 * charged as a task picked through it would be: the same vtime and
 * attained bytes, and the charged job then waits behind one that was not.
 */
static void test_charge(void)
{
	static const enum agg_policy pol[] = { AGG_POLICY_WFS, AGG_POLICY_LAS };

	for (unsigned int k = 0; k < 2; k++) {
		struct agg_sched s;

		agg_sched_init(&s, pol[k]);
		agg_sched_add_job(&s, 1, 2);
		agg_sched_add_job(&s, 2, 2);
		agg_sched_add_job(&s, 3, 2);
		/* job 1 through the queue, job 2 charged: the same service */
		for (int i = 0; i < 2; i++) {
			agg_sched_enqueue(&s, task(i, 1, 500));
			EXPECT_EQ(agg_sched_pick(&s)->job, 1);
			EXPECT_EQ(agg_sched_charge(&s, 2, 500), 0);
		}
		EXPECT(s.jobs[0].vtime == s.jobs[1].vtime);
		EXPECT_EQ(s.jobs[1].attained, 1000);
		EXPECT_EQ(agg_sched_charge(&s, 9, 500), -ENOENT);
		/* job 2 queued first, job 3 never served: job 3 goes first */
		agg_sched_enqueue(&s, task(10, 2, 100));
		agg_sched_enqueue(&s, task(11, 3, 100));
		EXPECT_EQ(agg_sched_pick(&s)->job, 3);
		EXPECT_EQ(agg_sched_pick(&s)->job, 2);
		agg_sched_destroy(&s);
	}
}

static void test_remove_job(void)
{
	struct agg_sched s;
	struct agg_task *list;
	int n = 0;

	agg_sched_init(&s, AGG_POLICY_WFS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 1);
	for (int i = 0; i < 6; i++)
		agg_sched_enqueue(&s, task(i, 1 + i % 2, 1));
	list = agg_sched_remove_job(&s, 1);
	for (; list; list = list->next)
		n++;
	EXPECT_EQ(n, 3);
	EXPECT_EQ(s.queued, 3);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(agg_sched_pick(&s)->job, 2);
	EXPECT(agg_sched_pick(&s) == NULL);
	EXPECT(agg_sched_remove_job(&s, 1) == NULL);
	EXPECT_EQ(agg_policy_parse("las", &s.policy), 0);
	EXPECT_EQ(s.policy, AGG_POLICY_LAS);
	EXPECT_EQ(agg_policy_parse("lifo", &s.policy), -EINVAL);
	agg_sched_destroy(&s);
}

static void test_scale(void)
{
	struct agg_scale sc;

	agg_scale_init(&sc, 1, 4);
	EXPECT_EQ(sc.active, 1);
	EXPECT_EQ(agg_scale_update(&sc, 0.5, 0), 1);
	EXPECT_EQ(agg_scale_update(&sc, 1.5, 0), 3);	/* ceil(1.5/0.7) */
	EXPECT_EQ(agg_scale_update(&sc, 9.0, 0), 4);	/* capped */
	/* quiet: one core less only after down_ticks ticks in a row */
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(agg_scale_update(&sc, 0.1, 0), 4);
	EXPECT_EQ(agg_scale_update(&sc, 0.1, 0), 3);
	EXPECT_EQ(agg_scale_update(&sc, 2.0, 0), 3);	/* exactly enough */
	for (int i = 0; i < 20; i++)
		agg_scale_update(&sc, 0.0, 0);
	EXPECT_EQ(sc.active, 1);	/* never below min */
	/* a backlog at tick end adds a core even when busy looks low */
	EXPECT_EQ(agg_scale_update(&sc, 0.2, 5), 2);
	EXPECT_EQ(agg_scale_update(&sc, -1.0, 0), 2);	/* nonsense input */
}

static struct agg_job *make_job(unsigned int w, unsigned int opt)
{
	static struct agg_tensor_desc t[1];
	struct agg_job_spec s;

	memset(&s, 0, sizeof(s));
	strcpy(s.name, "j");
	strcpy(s.token, "t");
	s.n_workers = (uint16_t)w;
	s.dtype = AGG_DTYPE_F32;
	s.opt = (uint8_t)opt;
	if (opt) {
		s.lr = 0.5f;
		s.momentum = 0.5f;
	}
	s.weight = 1;
	s.part_elems = 3;
	s.n_tensors = 1;
	s.tensors = calloc(1, sizeof(*t));
	strcpy(s.tensors[0].name, "x");
	s.tensors[0].nelem = 5;
	if (agg_spec_finish(&s))
		return NULL;
	return agg_job_create(7, &s);
}

/* want_fold: push_done hands a fold of arrived pushes to the pool */
static void push(struct agg_job *j, unsigned int r, uint32_t part, uint32_t it,
		 float v, int want_fold)
{
	struct agg_part *p = &j->parts[part];
	float *buf;

	EXPECT_EQ(agg_part_push_check(p, r, it), 0);
	buf = agg_part_push_buf(p, r);
	for (uint32_t i = 0; i < p->nelem; i++)
		buf[i] = v + (float)i;
	EXPECT_EQ(agg_part_push_done(p, j->spec.n_workers, r, it), want_fold);
}

/* The pool runs the folds handed over until the sum is done. */
static void finish(struct agg_job *j, struct agg_part *p)
{
	do {
		EXPECT(p->folding);
		agg_part_reduce(j, p);
	} while (agg_part_reduced(p, j->spec.n_workers));
	EXPECT_EQ(p->state, AGG_PART_READY);
}

static void test_part_cycle(void)
{
	struct agg_job *j = make_job(3, 0);
	struct agg_part *p;

	EXPECT(j != NULL);
	if (!j)
		return;
	EXPECT_EQ(j->spec.n_parts, 2);
	p = &j->parts[1];
	EXPECT_EQ(p->nelem, 2);
	EXPECT_EQ(p->bytes, 8);
	push(j, 0, 1, 0, 1.0f, 1);	/* rank 0 in: a fold starts */
	EXPECT_EQ(agg_part_push_check(p, 0, 0), -AGG_ESEQ);	/* duplicate */
	EXPECT_EQ(agg_part_push_check(p, 1, 1), -AGG_ESEQ);	/* future */
	EXPECT_EQ(agg_part_pull_check(p, 0, 0), 1);		/* parks */
	EXPECT_EQ(agg_part_pull_check(p, 0, 0), -AGG_ESEQ);	/* twice */
	push(j, 2, 1, 0, 10.0f, 0);	/* waits for rank 1 */
	push(j, 1, 1, 0, 100.0f, 0);	/* waits for rank 0's fold */
	EXPECT_EQ(p->state, AGG_PART_REDUCING);
	EXPECT_EQ(agg_part_pull_check(p, 1, 0), 1);
	agg_part_reduce(j, p);				/* rank 0 */
	EXPECT_EQ(agg_part_reduced(p, 3), 1);		/* ranks 1, 2 next */
	EXPECT_EQ(p->state, AGG_PART_REDUCING);
	EXPECT(p->fold_from == 1 && p->fold_to == 3);
	agg_part_reduce(j, p);
	EXPECT_EQ(agg_part_reduced(p, 3), 0);
	EXPECT_EQ(p->state, AGG_PART_READY);
	EXPECT(((float *)p->out)[0] == 111.0f && ((float *)p->out)[1] == 114.0f);
	EXPECT_EQ(agg_part_pull_check(p, 2, 0), 0);		/* ready */
	EXPECT_EQ(agg_part_pull_done(p, 3, 0), 0);
	/* rank 0 pulled 0: it may push and pull 1 while others still pull 0 */
	push(j, 0, 1, 1, 2.0f, 0);
	EXPECT_EQ(agg_part_pull_check(p, 0, 2), -AGG_ESEQ);	/* two ahead */
	EXPECT_EQ(agg_part_pull_check(p, 0, 1), 1);	/* early: parks */
	EXPECT_EQ(agg_part_pull_check(p, 0, 1), -AGG_ESEQ);	/* twice */
	/* rank 1's reply of 0 is on its way (pull pending in READY): the
	 * worker may already have it and push and pull iteration 1 */
	push(j, 1, 1, 1, 20.0f, 0);
	EXPECT_EQ(agg_part_push_check(p, 1, 1), -AGG_ESEQ);	/* duplicate */
	EXPECT_EQ(agg_part_pull_check(p, 1, 1), 1);
	EXPECT_EQ(agg_part_pull_done(p, 3, 1), 0);
	/* iter 1: 2 of 3 in, ranks 0 and 1 are folded at once */
	EXPECT_EQ(agg_part_pull_done(p, 3, 2), 1);
	EXPECT_EQ(p->iter, 1);
	EXPECT_EQ(p->n_pushed, 2);
	EXPECT_EQ(p->state, AGG_PART_COLLECT);
	EXPECT(p->fold_from == 0 && p->fold_to == 2);
	push(j, 2, 1, 1, 200.0f, 0);	/* the fold is still running */
	finish(j, p);
	/* the early pulls of ranks 0 and 1 wait for iteration 1 */
	EXPECT(p->pull_pending[0] && p->pull_pending[1] && !p->pull_pending[2]);
	EXPECT(((float *)p->out)[0] == 222.0f);
	EXPECT_EQ(agg_part_pull_check(p, 2, 1), 0);
	EXPECT_EQ(agg_part_pull_check(p, 1, 1), -AGG_ESEQ);	/* already */
	agg_job_free(j);
}

static void test_part_all_early(void)
{
	struct agg_job *j = make_job(2, 0);
	struct agg_part *p = &j->parts[0];

	push(j, 0, 0, 0, 1.0f, 1);
	push(j, 1, 0, 0, 2.0f, 0);
	finish(j, p);
	EXPECT_EQ(agg_part_pull_check(p, 0, 0), 0);
	EXPECT_EQ(agg_part_pull_done(p, 2, 0), 0);
	push(j, 0, 0, 1, 1.0f, 0);
	/* rank 1 has not asked for iteration 0: it may not move on to 1 */
	EXPECT_EQ(agg_part_push_check(p, 1, 1), -AGG_ESEQ);
	EXPECT_EQ(agg_part_pull_check(p, 1, 1), -AGG_ESEQ);
	EXPECT_EQ(agg_part_pull_check(p, 1, 0), 0);
	push(j, 1, 0, 1, 1.0f, 0);	/* its reply is on its way: allowed */
	/* the last reply sent: iteration 1 is complete at once */
	EXPECT_EQ(agg_part_pull_done(p, 2, 1), 1);
	EXPECT_EQ(p->iter, 1);
	agg_job_free(j);
}

static void test_optimizer_part(void)
{
	struct agg_job *j = make_job(2, AGG_OPT_SGD_MOMENTUM);
	struct agg_part *p = &j->parts[1];
	float *w = p->out;

	EXPECT_EQ(agg_part_weights_check(j, p, 1), -AGG_ESTATE);
	EXPECT_EQ(agg_part_weights_check(j, p, 0), 0);
	w[0] = 1.0f;
	w[1] = 2.0f;
	push(j, 0, 1, 0, 1.0f, 1);
	push(j, 1, 1, 0, 3.0f, 0);
	EXPECT_EQ(agg_part_weights_check(j, p, 0), -AGG_ESTATE);
	agg_part_reduce(j, p);		/* rank 0 only: no step yet */
	EXPECT(w[0] == 1.0f && w[1] == 2.0f);
	EXPECT_EQ(agg_part_reduced(p, 2), 1);
	agg_part_reduce(j, p);
	/* g = {2, 3}; v = g; w -= 0.5 v */
	EXPECT(w[0] == 0.0f && w[1] == 0.5f);
	agg_job_free(j);
	j = make_job(2, 0);
	EXPECT_EQ(agg_part_weights_check(j, &j->parts[0], 0), -AGG_ESTATE);
	agg_job_free(j);
}

static void test_job_mem(void)
{
	struct agg_job *j = make_job(4, 0);

	/* 5 elements x (4 slots + out) x 4 bytes */
	EXPECT_EQ(j->mem_bytes, 100);
	agg_job_fail(j, "first %d", 1);
	agg_job_fail(j, "second");
	EXPECT(j->failed && !strcmp(j->fail_msg, "first 1"));
	agg_job_free(j);
}

/* Every rank pulls partition part's current iteration (it is READY). */
static void pull_all(struct agg_job *j, uint32_t part)
{
	struct agg_part *p = &j->parts[part];

	for (unsigned int r = 0; r < j->spec.n_workers; r++) {
		EXPECT(agg_part_pull_check(p, r, p->iter) >= 0);
		agg_part_pull_done(p, j->spec.n_workers, r);
	}
}

static void test_barrier(void)
{
	struct agg_job *j = make_job(2, 0);	/* 2 partitions */
	struct agg_part *p0 = &j->parts[0], *p1 = &j->parts[1];

	/* nothing done yet: move at once, before iteration 0 */
	EXPECT_EQ(agg_job_barrier(j), 0);
	EXPECT(agg_part_at_barrier(p0, 2, 0) && agg_part_at_barrier(p1, 2, 0));
	/* one push of iteration 0 in partition 1: iteration 0 runs here */
	push(j, 0, 1, 0, 1.0f, 1);
	EXPECT_EQ(agg_job_barrier(j), 1);
	EXPECT(!agg_part_at_barrier(p1, 2, 1));
	/* a pull alone also counts as work of that iteration */
	EXPECT_EQ(agg_part_pull_check(p0, 1, 0), 1);
	EXPECT_EQ(agg_job_barrier(j), 1);
	push(j, 0, 0, 0, 1.0f, 1);
	push(j, 1, 0, 0, 1.0f, 0);
	push(j, 1, 1, 0, 1.0f, 0);
	finish(j, p0);
	finish(j, p1);
	EXPECT_EQ(agg_job_barrier(j), 1);	/* READY: replies going out */
	/* rank 0 done with partition 0 pushes iteration 1 early: 2 */
	EXPECT_EQ(agg_part_pull_check(p0, 0, 0), 0);
	agg_part_pull_done(p0, 2, 0);
	push(j, 0, 0, 1, 1.0f, 0);
	EXPECT_EQ(agg_job_barrier(j), 2);
	/* an early pull of iteration 1 counts the same */
	pull_all(j, 1);
	EXPECT_EQ(p1->iter, 1);
	EXPECT_EQ(agg_part_pull_check(p1, 0, 1), 1);
	EXPECT_EQ(agg_job_barrier(j), 2);
	agg_job_free(j);

	/* partitions at different iterations: the barrier is past all work
	 * and at least every partition's iteration */
	j = make_job(2, 0);
	p0 = &j->parts[0];
	for (uint32_t it = 0; it < 3; it++) {
		push(j, 0, 0, it, 1.0f, 1);
		push(j, 1, 0, it, 1.0f, 0);
		finish(j, p0);
		pull_all(j, 0);
	}
	EXPECT_EQ(p0->iter, 3);
	EXPECT_EQ(agg_job_barrier(j), 3);
	EXPECT(agg_part_at_barrier(p0, 2, 3));
	EXPECT(!agg_part_at_barrier(&j->parts[1], 2, 3));	/* still at 0 */
	agg_job_free(j);

	/* with a server optimizer SET_WEIGHTS must be over: at least 1 */
	j = make_job(2, AGG_OPT_SGD_MOMENTUM);
	EXPECT_EQ(agg_job_barrier(j), 1);
	agg_job_free(j);
}

static void test_import_start(void)
{
	struct agg_job *j = make_job(3, AGG_OPT_SGD_MOMENTUM);
	struct agg_part *p = &j->parts[0];

	agg_job_import_start(j, 7);
	EXPECT_EQ(p->iter, 7);
	EXPECT(p->weights_set);
	EXPECT(agg_part_at_barrier(p, 3, 7));
	/* it goes on like a job that ran 7 iterations here */
	EXPECT_EQ(agg_part_push_check(p, 0, 6), -AGG_ESEQ);
	EXPECT_EQ(agg_part_weights_check(j, p, 0), -AGG_ESTATE);
	push(j, 0, 0, 7, 1.0f, 1);
	push(j, 1, 0, 7, 1.0f, 0);
	push(j, 2, 0, 7, 1.0f, 0);
	finish(j, p);
	for (unsigned int r = 0; r < 3; r++) {
		EXPECT_EQ(agg_part_pull_check(p, r, 7), 0);
		agg_part_pull_done(p, 3, r);
	}
	EXPECT_EQ(p->iter, 8);
	agg_job_free(j);
}

int main(void)
{
	TAP_RUN(test_fifo);
	TAP_RUN(test_wfs_weights);
	TAP_RUN(test_wfs_set_weight);
	TAP_RUN(test_wfs_cost);
	TAP_RUN(test_wfs_no_idle_credit);
	TAP_RUN(test_las);
	TAP_RUN(test_charge);
	TAP_RUN(test_remove_job);
	TAP_RUN(test_scale);
	TAP_RUN(test_part_cycle);
	TAP_RUN(test_part_all_early);
	TAP_RUN(test_optimizer_part);
	TAP_RUN(test_job_mem);
	TAP_RUN(test_barrier);
	TAP_RUN(test_import_start);
	return tap_done();
}
