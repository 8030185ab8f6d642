// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias on the host, with Slurm replaced by a fake: the GPU
 * counts read from TRES strings, the ledger of attained service across a
 * requeue and across a restart (state file), live decisions against
 * spare-sim's (tir_step) for the same job states, the stale-view rule
 * (nothing is changed, nothing requeued, while Slurm cannot be read),
 * preemption with its reason, jobs left to Slurm, dry-run, bad state files
 * and bad config lines.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spare_conf.h"
#include "spare_log.h"
#include "spare_util.h"
#include "tap.h"
#include "tird.h"
#include "tird_conf.h"

/* ---- a fake Slurm ---- */

#define MAXV 64

struct fake {
	struct tird_view v[MAXV];
	size_t n;
	bool fail;			/* slurm_load_jobs fails */
	int64_t cluster_gpus;		/* what slurm_load_node finds; -1: it fails */
	unsigned int loads, sets, requeues;
	uint32_t requeued[MAXV];
	uint32_t set_id[4 * MAXV], set_prio[4 * MAXV];
};

static int fake_load(void *ctx, struct tird_view **out, size_t *n)
{
	struct fake *f = ctx;

	f->loads++;
	if (f->fail)
		return -1;
	*out = malloc((f->n ? f->n : 1) * sizeof(**out));
	if (!*out)
		return -1;
	memcpy(*out, f->v, f->n * sizeof(**out));
	*n = f->n;
	return 0;
}

static int fake_gpus(void *ctx, int64_t *gpus)
{
	struct fake *f = ctx;

	*gpus = f->cluster_gpus;
	return f->cluster_gpus < 0 ? -1 : 0;
}

static int fake_set(void *ctx, uint32_t id, uint32_t prio)
{
	struct fake *f = ctx;

	if (f->sets < 4 * MAXV) {
		f->set_id[f->sets] = id;
		f->set_prio[f->sets] = prio;
	}
	f->sets++;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].id == id)
			f->v[i].priority = prio;
	return 0;
}

static int fake_requeue(void *ctx, uint32_t id)
{
	struct fake *f = ctx;

	if (f->requeues < MAXV)
		f->requeued[f->requeues] = id;
	f->requeues++;
	return 0;
}

static struct tird_view *job(struct fake *f, uint32_t id, enum tird_vstate st, int64_t gpus,
			     int64_t submit, int64_t start)
{
	struct tird_view *v = NULL;

	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].id == id)
			v = &f->v[i];
	if (!v)
		v = &f->v[f->n++];
	v->id = id;
	v->state = st;
	v->gpus = gpus;
	v->time_ok = true;
	v->requeue_ok = true;
	v->submit = submit;
	v->start = start;
	if (!v->priority)
		v->priority = 4294901758u - id;	/* as priority/basic gives */
	return v;
}

static void setup(struct tird *d, struct fake *f, int64_t gpus)
{
	memset(d, 0, sizeof(*d));
	memset(f, 0, sizeof(*f));
	tir_config_init(&d->cfg.tir, TIR_DLAS_GPU, gpus);
	d->cfg.gpus = gpus;
	d->cfg.time_scale = 1;
	d->cfg.priority_top = 1000000;
	d->ops = (struct tird_ops){ fake_load, fake_gpus, fake_set, fake_requeue, f };
}

#define T0 1000000		/* Unix seconds */
#define MS(s) ((int64_t)(s) * 1000)

/* ---- TRES strings ---- */

static void gpus_from_tres(void)
{
	EXPECT_EQ(tird_gpus_from_tres("gres:gpu:4", NULL, 1, NULL), 4);
	EXPECT_EQ(tird_gpus_from_tres("gres/gpu:4", NULL, 1, NULL), 4);
	EXPECT_EQ(tird_gpus_from_tres("gres:gpu:a100:2", NULL, 1, NULL), 2);
	EXPECT_EQ(tird_gpus_from_tres("license/x:1,gres:gpu:3", NULL, 1, NULL), 3);
	EXPECT_EQ(tird_gpus_from_tres(NULL, "gres:gpu:2", 3, NULL), 6);
	EXPECT_EQ(tird_gpus_from_tres(NULL, NULL, 1, "cpu=1,mem=100M,node=1,billing=1,gres/gpu=8"), 8);
	EXPECT_EQ(tird_gpus_from_tres(NULL, NULL, 1, "cpu=1,gres/gpu=4,gres/gpu:a100=4"), 4);
	EXPECT_EQ(tird_gpus_from_tres(NULL, NULL, 1, "cpu=4,mem=1G,node=1"), 0);
	EXPECT_EQ(tird_gpus_from_tres("gres:gpumem:100", NULL, 1, NULL), 0);
	EXPECT_EQ(tird_gpus_from_tres(NULL, NULL, 1, NULL), 0);
	EXPECT_EQ(tird_gpus_from_tres("gres:gpu:x", NULL, 1, NULL), -1);
	EXPECT_EQ(tird_gpus_from_tres("gres:gpu", NULL, 1, NULL), -1);
	EXPECT_EQ(tird_gpus_from_tres(NULL, NULL, 1, "gres/gpu=lots"), -1);
	EXPECT_EQ(tird_gpus_of_node("gpu:4"), 4);
	EXPECT_EQ(tird_gpus_of_node("gpu:a100:4(S:0-1),gpu:v100:2"), 6);
	EXPECT_EQ(tird_gpus_of_node("(null)"), 0);
	EXPECT_EQ(tird_gpus_of_node("gpu:x"), -1);
}

/* ---- the ledger ---- */

static const struct tird_entry *entry(struct tird *d, uint32_t id)
{
	return tird_ledger_find(&d->led, id);
}

static void ledger_across_requeue_and_restart(void)
{
	static struct tird d, d2, d3;
	static struct fake f;
	char path[] = "/tmp/tirdaemon-test.XXXXXX";
	int fd = mkstemp(path);
	char why[256];

	EXPECT(fd >= 0);
	close(fd);
	unlink(path);
	setup(&d, &f, 8);
	job(&f, 1, TIRD_V_RUNNING, 2, T0 - 100, T0 - 50);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 50);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 100)), 0);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 150);
	/* requeued: Slurm says pending, and will give it a new start_time */
	job(&f, 1, TIRD_V_PENDING, 2, T0 - 100, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 150)), 0);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 150);
	job(&f, 1, TIRD_V_RUNNING, 2, T0 - 100, T0 + 200);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 260)), 0);
	/* 150 s before the requeue and 60 s since: Slurm's start_time says 60 */
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 210);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_attained == 210);
	/* waiting from the look that saw it run last to the new start */
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.pending_total == 100);

	/* a restart with the state file keeps it all */
	EXPECT_EQ(tird_state_save(&d.led, path), 0);
	memset(&d2, 0, sizeof(d2));
	d2.cfg = d.cfg;
	d2.ops = d.ops;
	EXPECT_EQ(tird_state_load(&d2.led, path, d2.cfg.tir.nqueues, why, sizeof(why)), 0);
	EXPECT_EQ(d2.led.n, 1);
	EXPECT_EQ(d2.led.seq, d.led.seq);
	EXPECT_EQ(tird_pass(&d2, MS(T0 + 300)), 0);
	EXPECT(entry(&d2, 1) && entry(&d2, 1)->acct.run_total == 250);

	/* without it, only the current run is known (what is lost) */
	memset(&d3, 0, sizeof(d3));
	d3.cfg = d.cfg;
	d3.ops = d.ops;
	unlink(path);
	EXPECT_EQ(tird_state_load(&d3.led, path, d3.cfg.tir.nqueues, why, sizeof(why)), 0);
	EXPECT_EQ(d3.led.n, 0);
	EXPECT_EQ(tird_pass(&d3, MS(T0 + 300)), 0);
	EXPECT(entry(&d3, 1) && entry(&d3, 1)->acct.run_total == 100);

	/* a job that is gone from Slurm's view leaves the ledger */
	f.n = 0;
	EXPECT_EQ(tird_pass(&d3, MS(T0 + 310)), 0);
	EXPECT_EQ(d3.led.n, 0);
	tird_free(&d);
	tird_free(&d2);
	tird_free(&d3);
}

static void bad_state_files(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "hello\n", ":1: not a spare-tiresias state file" },
		{ "spare-tiresias-state 1\nseq x\n", ":2: expected \"seq N\"" },
		{ "spare-tiresias-state 1\n", ":2: truncated" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 0 1 0 0 0 0 0 0\n", ":3: expected \"job\" and 10 numbers" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 3 1 0 0 0 0 0 0 0\n", ":3: job 1: a value out of range" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 0 1 0 10 20 0 0 0 0\n", ":3: job 1: a value out of range" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 0 9 0 0 0 0 0 0 0\n", ":3: job 1: a value out of range" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 0 1 0 0 0 0 0 0 0\njob 1 0 2 0 0 0 0 0 0 0\n",
		  ":4: job 1 twice" },
		{ "spare-tiresias-state 1\nseq 5\njob 1 0 1 0 0 0 0 0 0 0 junk\n", ":3: expected" },
	};
	char dir[] = "/tmp/tirdaemon-test.XXXXXX", path[300], why[512];
	struct tird_ledger l = { 0 };

	EXPECT(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/state", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tap_put_file(dir, "state", cases[i].text);
		why[0] = 0;
		EXPECT_EQ(tird_state_load(&l, path, 3, why, sizeof(why)), -1);
		if (!strstr(why, cases[i].want) || strncmp(why, path, strlen(path)))
			fprintf(stderr, "# case %zu: got \"%s\", want \"%s\"\n", i, why,
				cases[i].want), tap_case_failed = 1;
		EXPECT_EQ(l.n, 0);
	}
	tap_put_file(dir, "state", "spare-tiresias-state 1\nseq 5\njob 7 2 4 10 9 8 1 0 1 0\n");
	EXPECT_EQ(tird_state_load(&l, path, 3, why, sizeof(why)), 0);
	EXPECT_EQ(l.n, 1);
	EXPECT(l.n == 1 && l.e[0].id == 7 && l.e[0].acct.queue == 2 && l.e[0].acct.run_attained == 8);
	tird_ledger_free(&l);
	unlink(path);
	rmdir(dir);
}

/* ---- decisions ---- */

/* A job of queue 1 that runs, a job of queue 0 that waits and cannot fit. */
static void preempt_scenario(struct fake *f)
{
	/* 4 GPUs x 1000 s = 4000 GPU-s: past the first limit (3250) */
	job(f, 1, TIRD_V_RUNNING, 4, T0 - 2000, T0 - 1000);
	job(f, 2, TIRD_V_PENDING, 2, T0 - 10, 0);
}

static void preemption(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 4);
	preempt_scenario(&f);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 1);
	EXPECT_EQ(f.requeued[0], 1);
	EXPECT_EQ(d.st.preemptions, 1);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.queue == 1 && entry(&d, 1)->acct.preempt == 1);
	EXPECT(entry(&d, 2) && entry(&d, 2)->acct.queue == 0);
	/* job 2 first in Tiresias's order: the top priority */
	EXPECT_EQ(f.sets, 1);
	EXPECT(f.set_id[0] == 2 && f.set_prio[0] == 1000000);
	EXPECT_EQ(d.st.jobs_queue[0], 1);
	EXPECT_EQ(d.st.jobs_queue[1], 1);
	EXPECT_EQ(d.st.jobs_running[1], 1);

	/* a job that cannot be requeued is left running */
	tird_free(&d);
	setup(&d, &f, 4);
	preempt_scenario(&f);
	f.v[0].requeue_ok = false;
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 0);
	/* a same-queue job that waits does not preempt */
	tird_free(&d);
	setup(&d, &f, 4);
	job(&f, 1, TIRD_V_RUNNING, 4, T0 - 200, T0 - 100);
	job(&f, 2, TIRD_V_PENDING, 2, T0 - 10, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 0);
	tird_free(&d);
}

/*
 * Slurm's backfill starts a job between two passes that the last pass left
 * waiting behind another of its queue (issue 36): 8 GPUs, L (4) and S1, S2
 * (2 each) run; C (4) then D (2) wait, C first. S1 ends, and Slurm starts D
 * in its 2 GPUs (C does not fit); S2 ends. spare-sim, deciding at S1's end,
 * starts D and puts C behind it (requeue_pending): at S2's end C still does
 * not fit, and D runs on. The next pass must take D's start the same way,
 * not walk C first and requeue D for it.
 */
static void backfill_start_kept(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 8);
	job(&f, 1, TIRD_V_RUNNING, 4, T0 - 30, T0 - 20);	/* L */
	job(&f, 2, TIRD_V_RUNNING, 2, T0 - 30, T0 - 20);	/* S1 */
	job(&f, 3, TIRD_V_RUNNING, 2, T0 - 30, T0 - 20);	/* S2 */
	job(&f, 4, TIRD_V_PENDING, 4, T0 - 10, 0);		/* C */
	job(&f, 5, TIRD_V_PENDING, 2, T0 - 5, 0);		/* D */
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 0);
	EXPECT(f.v[3].priority > f.v[4].priority);		/* C ahead of D */
	job(&f, 2, TIRD_V_FINAL, 2, T0 - 30, T0 - 20);
	job(&f, 5, TIRD_V_RUNNING, 2, T0 - 5, T0 + 3);		/* backfill */
	job(&f, 3, TIRD_V_FINAL, 2, T0 - 30, T0 - 20);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 6)), 0);
	EXPECT_EQ(f.requeues, 0);
	EXPECT(entry(&d, 5) && entry(&d, 4) &&
	       entry(&d, 5)->acct.seq < entry(&d, 4)->acct.seq);	/* D ahead of C now */
	EXPECT(entry(&d, 4) && entry(&d, 4)->acct.preempt == 0 && entry(&d, 5)->acct.preempt == 0);
	/* a job C may displace still goes: L past queue 0's limit (3250 GPU-s) */
	EXPECT_EQ(tird_pass(&d, MS(T0 + 900)), 0);
	EXPECT_EQ(f.requeues, 1);
	EXPECT_EQ(f.requeued[0], 1);
	tird_free(&d);
}

/*
 * Slurm's start times are whole seconds: backfill starting D 0.5 s after
 * a pass that ran 0.3 s into a second gives D a start before that pass's
 * time. It is still a start since that pass (seen live: a job started
 * 0.7 s after the pass that left it waiting was requeued by the next).
 */
static void backfill_start_same_second(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 8);
	job(&f, 1, TIRD_V_RUNNING, 4, T0 - 30, T0 - 20);	/* L */
	job(&f, 2, TIRD_V_RUNNING, 2, T0 - 30, T0 - 20);	/* S1 */
	job(&f, 3, TIRD_V_RUNNING, 2, T0 - 30, T0 - 20);	/* S2 */
	job(&f, 4, TIRD_V_PENDING, 4, T0 - 10, 0);		/* C */
	job(&f, 5, TIRD_V_PENDING, 2, T0 - 5, 0);		/* D */
	EXPECT_EQ(tird_pass(&d, MS(T0) + 300), 0);
	job(&f, 2, TIRD_V_FINAL, 2, T0 - 30, T0 - 20);
	job(&f, 5, TIRD_V_RUNNING, 2, T0 - 5, T0);		/* at T0 + 0.8 s */
	job(&f, 3, TIRD_V_FINAL, 2, T0 - 30, T0 - 20);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 1) + 300), 0);
	EXPECT_EQ(f.requeues, 0);
	tird_free(&d);
}

/*
 * A first pass on a full cluster: 60 pending jobs, all new, with
 * priority/basic's priorities below the band. With max-priority-updates
 * 16 a pass sends 16 updates, the head of Tiresias's order first, and
 * every job it set outranks every job it left; after four passes the
 * whole order is set and a fifth sends nothing.
 */
static void first_pass_limited(void)
{
	static struct tird d;
	static struct fake f;
	unsigned int want[] = { 16, 16, 16, 12, 0 }, before;

	setup(&d, &f, 8);
	d.cfg.priority_top = TIRD_PRIO_TOP;
	d.cfg.priority_floor = TIRD_BASIC_TOP;
	d.cfg.max_updates = 16;
	job(&f, 1, TIRD_V_RUNNING, 8, T0 - 100, T0 - 50);
	for (uint32_t id = 2; id <= 61; id++)
		job(&f, id, TIRD_V_PENDING, 1 + id % 4, T0 - 100 + id, 0);
	for (size_t p = 0; p < ARRAY_SIZE(want); p++) {
		uint32_t lowest_set = UINT32_MAX, highest_left = 0;

		before = f.sets;
		EXPECT_EQ(tird_pass(&d, MS(T0 + (int64_t)p)), 0);
		EXPECT_EQ(f.sets - before, want[p]);
		for (size_t i = 1; i < f.n; i++) {
			uint32_t pr = f.v[i].priority;

			if (pr >= TIRD_BASIC_TOP && pr < lowest_set)
				lowest_set = pr;
			if (pr < TIRD_BASIC_TOP && pr > highest_left)
				highest_left = pr;
		}
		EXPECT(lowest_set > highest_left);
	}
	/* all set, in Tiresias's order (one queue: submission order) */
	for (size_t i = 2; i < f.n; i++)
		EXPECT(f.v[i - 1].priority > f.v[i].priority && f.v[i].priority >= TIRD_BASIC_TOP);
	EXPECT_EQ(f.requeues, 0);
	/* no limit: one pass sets them all */
	tird_free(&d);
	setup(&d, &f, 8);
	d.cfg.priority_top = TIRD_PRIO_TOP;
	d.cfg.priority_floor = TIRD_BASIC_TOP;
	job(&f, 1, TIRD_V_RUNNING, 8, T0 - 100, T0 - 50);
	for (uint32_t id = 2; id <= 61; id++)
		job(&f, id, TIRD_V_PENDING, 1 + id % 4, T0 - 100 + id, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.sets, 60);
	tird_free(&d);
}

/*
 * The cut keeps the order: a job past the first @max changes whose current
 * priority is above the last one set joins the head (and is set).
 */
static void limit_updates_cut(void)
{
	uint32_t cur[6] = { 10, 5, 900, 3, 2, 1 }, out[6] = { 1000, 990, 980, 970, 960, 950 };
	uint32_t tail[6];

	/* two set; the rest, all below 990, keep theirs */
	EXPECT_EQ(tird_limit_updates(cur, out, 6, 2, tail), 4);
	EXPECT(out[0] == 1000 && out[1] == 990 && out[2] == 900 && out[3] == 3 &&
	       out[4] == 2 && out[5] == 1);
	/* 995 would outrank 990: that job joins the head and is set */
	uint32_t cur2[6] = { 10, 5, 995, 3, 2, 1 }, out2[6] = { 1000, 990, 980, 970, 960, 950 };

	EXPECT_EQ(tird_limit_updates(cur2, out2, 6, 2, tail), 3);
	EXPECT(out2[0] == 1000 && out2[1] == 990 && out2[2] == 980 && out2[3] == 3 &&
	       out2[4] == 2 && out2[5] == 1);
	uint32_t cur3[4] = { 10, 5, 4, 3 }, out3[4] = { 1000, 990, 980, 970 };

	EXPECT_EQ(tird_limit_updates(cur3, out3, 4, 1, tail), 3);
	EXPECT(out3[0] == 1000 && out3[1] == 5 && out3[2] == 4 && out3[3] == 3);
	EXPECT_EQ(tird_limit_updates(cur3, out3, 4, 0, tail), 0);
}

static void priorities_in_order(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 4);
	job(&f, 10, TIRD_V_RUNNING, 4, T0 - 5000, T0 - 1900);	/* 7600 GPU-s: queue 2 */
	job(&f, 11, TIRD_V_PENDING, 1, T0 - 30, 0);
	job(&f, 12, TIRD_V_PENDING, 1, T0 - 40, 0);		/* submitted first */
	job(&f, 13, TIRD_V_PENDING, 2, T0 - 20, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT(entry(&d, 10) && entry(&d, 10)->acct.queue == 2);
	/* queue 0 in arrival order: 12, 11, 13; then the queue 2 job */
	EXPECT_EQ(f.sets, 3);
	EXPECT(f.set_id[0] == 12 && f.set_prio[0] == 1000000);
	EXPECT(f.set_id[1] == 11 && f.set_prio[1] == 1000000 - TIRD_PRIO_GAP);
	EXPECT(f.set_id[2] == 13 && f.set_prio[2] == 1000000 - 2 * TIRD_PRIO_GAP);
	EXPECT_EQ(f.requeues, 1);
	/* the next pass sets nothing that is already set */
	f.v[0].state = TIRD_V_PENDING;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 1)), 0);
	EXPECT_EQ(f.sets, 4);	/* only job 10, now waiting, gets its priority */
	EXPECT(f.set_id[3] == 10 && f.set_prio[3] == 1000000 - 3 * TIRD_PRIO_GAP);
	/* a new job joins queue 0 at its back: one update, between 13 and 10 */
	job(&f, 14, TIRD_V_PENDING, 1, T0 + 2, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 3)), 0);
	EXPECT_EQ(f.sets, 5);
	EXPECT(f.set_id[4] == 14 && f.set_prio[4] == 1000000 - 2 * TIRD_PRIO_GAP - TIRD_PRIO_GAP / 2);
	tird_free(&d);
}

/*
 * The jobs a pass starts go ahead of the jobs it leaves waiting (issue 36,
 * sched/builtin): 4 GPUs, R (queue 0, 2 GPUs) runs, C (queue 0, 4 GPUs)
 * waits behind it and does not fit, D (queue 1, 2 GPUs, requeued by an
 * admin) fits in the 2 GPUs left and Tiresias starts it, as spare-sim
 * does. Slurm's main loop stops at the first pending job that does not
 * fit: with C ranked above D, sched/builtin never starts D.
 */
static void starts_ranked_above_waiting(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 4);
	job(&f, 1, TIRD_V_RUNNING, 2, T0 - 2100, T0 - 2000);	/* D: 4000 GPU-s */
	job(&f, 2, TIRD_V_PENDING, 2, T0 - 10, 0);		/* R */
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 0);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.queue == 1);
	job(&f, 2, TIRD_V_RUNNING, 2, T0 - 10, T0 + 1);
	job(&f, 1, TIRD_V_PENDING, 2, T0 - 2100, 0);		/* requeued */
	job(&f, 3, TIRD_V_PENDING, 4, T0 + 2, 0);		/* C */
	EXPECT_EQ(tird_pass(&d, MS(T0 + 5)), 0);
	EXPECT_EQ(f.requeues, 0);
	EXPECT(entry(&d, 3) && entry(&d, 3)->acct.queue == 0);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.queue == 1);
	EXPECT(d.jobs[0].id == 1 && d.jobs[0].state == TIR_RUNNING);	/* D starts */
	EXPECT(d.jobs[2].id == 3 && d.jobs[2].state == TIR_PENDING);	/* C waits */
	EXPECT(f.v[0].priority > f.v[2].priority);		/* D ahead of C */
	EXPECT(f.v[0].priority <= 1000000 && f.v[2].priority <= 1000000);	/* both placed */
	/* D started as asked: it runs on, C still waits */
	job(&f, 1, TIRD_V_RUNNING, 2, T0 - 2100, T0 + 6);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 7)), 0);
	EXPECT_EQ(f.requeues, 0);
	tird_free(&d);
}

/*
 * Slurm's settings the daemon cannot work under, said at start: with
 * sched/builtin and priority/basic slurmctld schedules in its FIFO mode,
 * walking the job list in submission order and never reading a job's
 * priority (job_scheduler.c: fifo_sched), so no priority the daemon sets
 * reaches it; the live runs doubled the JCT (issue 36). builtin with
 * multifactor sorts by priority, and backfill does either way.
 */
static void slurm_conf_problems(void)
{
	const char *m = tird_slurm_conf_problem("sched/builtin", "priority/basic");

	EXPECT(m && strstr(m, "sched/builtin") && strstr(m, "priority/basic") &&
	       strstr(m, "submission order") && strstr(m, "priority/multifactor"));
	EXPECT(tird_slurm_conf_problem("sched/builtin", "priority/multifactor") == NULL);
	EXPECT(tird_slurm_conf_problem("sched/backfill", "priority/basic") == NULL);
	EXPECT(tird_slurm_conf_problem("sched/backfill", "priority/multifactor") == NULL);
	EXPECT(tird_slurm_conf_problem(NULL, NULL) == NULL);
}

static void stale_view_changes_nothing(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 4);
	job(&f, 1, TIRD_V_RUNNING, 4, T0 - 200, T0 - 100);	/* 400 GPU-s: queue 0 */
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(f.requeues, 0);
	unsigned int sets = f.sets;

	/* job 2 arrives while Slurm cannot be read; job 1 passes its limit */
	job(&f, 2, TIRD_V_PENDING, 2, T0 + 10, 0);
	f.fail = true;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 1000)), 1);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 1010)), 1);
	EXPECT_EQ(f.requeues, 0);
	EXPECT_EQ(f.sets, sets);
	EXPECT(d.stale);
	EXPECT_EQ(d.st.stale_passes, 2);
	EXPECT_EQ(d.st.passes, 1);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 100);	/* ledger untouched */
	/* a fresh view: now it acts */
	f.fail = false;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 1020)), 0);
	EXPECT(!d.stale);
	EXPECT_EQ(f.requeues, 1);
	EXPECT(entry(&d, 1) && entry(&d, 1)->acct.run_total == 1120 && entry(&d, 1)->acct.queue == 1);

	/* GPUs read from the nodes: none up, or the read fails, is no view either */
	unsigned int requeues = f.requeues;

	sets = f.sets;
	d.cfg.gpus = 0;
	job(&f, 1, TIRD_V_RUNNING, 4, T0 - 200, T0 + 1030);
	job(&f, 3, TIRD_V_PENDING, 4, T0 + 1030, 0);
	/* none up is Slurm's answer, not an error; a failed read is one */
	uint64_t errors = d.st.slurm_errors;

	f.cluster_gpus = 0;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 5000)), 1);
	EXPECT_EQ(d.st.slurm_errors, errors);
	f.cluster_gpus = -1;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 5001)), 1);
	EXPECT_EQ(d.st.slurm_errors, errors + 1);
	EXPECT_EQ(f.requeues, requeues);
	EXPECT_EQ(f.sets, sets);
	EXPECT_EQ(d.st.stale_passes, 4);
	f.cluster_gpus = 4;
	EXPECT_EQ(tird_pass(&d, MS(T0 + 5002)), 0);
	EXPECT(f.sets > sets);
	tird_free(&d);
}

static void left_to_slurm(void)
{
	static struct tird d;
	static struct fake f;

	setup(&d, &f, 4);
	job(&f, 1, TIRD_V_PENDING, 0, T0 - 10, 0);		/* no GPU */
	job(&f, 2, TIRD_V_PENDING, 1, T0 - 10, 0)->time_ok = false;
	job(&f, 3, TIRD_V_PENDING, -1, T0 - 10, 0);		/* unreadable */
	job(&f, 4, TIRD_V_PENDING, 8, T0 - 10, 0);		/* more than the cluster */
	job(&f, 5, TIRD_V_HELD, 1, T0 - 10, 0);
	job(&f, 6, TIRD_V_FINAL, 1, T0 - 10, 0);
	job(&f, 7, TIRD_V_PENDING, 1, T0 - 10, 0);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	EXPECT_EQ(d.led.n, 1);
	EXPECT(entry(&d, 7) != NULL);
	EXPECT_EQ(f.sets, 1);
	EXPECT_EQ(f.set_id[0], 7);
	EXPECT_EQ(d.st.jobs_ignored, 4);
	EXPECT_EQ(d.nignored, 4);
	EXPECT_EQ(tird_pass(&d, MS(T0 + 10)), 0);
	EXPECT_EQ(d.nignored, 4);
	tird_free(&d);
}

static void dry_run(void)
{
	static struct tird d;
	static struct fake f;
	char *out = NULL;
	size_t len = 0;

	setup(&d, &f, 4);
	preempt_scenario(&f);
	d.cfg.dry_run = true;
	d.cfg.dry_out = open_memstream(&out, &len);
	EXPECT_EQ(tird_pass(&d, MS(T0)), 0);
	fclose(d.cfg.dry_out);
	EXPECT_EQ(f.sets, 0);
	EXPECT_EQ(f.requeues, 0);
	EXPECT(out && strstr(out, "would set priority of job 2 to 1000000 (queue 0, was 4294901756)"));
	EXPECT(out && strstr(out, "would requeue job 1 (queue 1, 4000 GPU-s attained, 4 GPUs): "
			      "job 2 (queue 0, 2 GPUs) waits and does not fit"));
	free(out);
	tird_free(&d);
}

/* Priorities: in order, within bounds, and few changes. */
static void priority_assignment(void)
{
	static uint32_t cur[300], out[300], again[300];
	unsigned int seed = 3;

	for (int trial = 0; trial < 200; trial++) {
		size_t m = 1 + rand_r(&seed) % 300, changed = 0;
		uint32_t top = trial % 2 ? 1000000 : 400;	/* 400: no room for gaps */

		for (size_t k = 0; k < m; k++)
			cur[k] = rand_r(&seed) % 3 ? (uint32_t)rand_r(&seed) % 2000000 : 4294901758u;
		tird_assign_priorities(cur, out, m, top, 1);
		for (size_t k = 0; k < m; k++) {
			EXPECT(out[k] >= 1 && out[k] < top + TIRD_PRIO_GAP);
			EXPECT(k == 0 || out[k] < out[k - 1]);
		}
		/* applied, they stay */
		tird_assign_priorities(out, again, m, top, 1);
		for (size_t k = 0; k < m; k++)
			changed += again[k] != out[k];
		EXPECT_EQ(changed, 0);
		if (tap_case_failed) {
			fprintf(stderr, "# trial %d, m %zu\n", trial, m);
			return;
		}
	}
	/* one job inserted anywhere in a spaced order costs one update */
	for (size_t pos = 0; pos <= 100; pos++) {
		size_t changed = 0;

		for (size_t k = 0, src = 0; k <= 100; k++)
			cur[k] = k == pos ? 4294901758u : 1000000 - (uint32_t)(src++) * TIRD_PRIO_GAP;
		tird_assign_priorities(cur, out, 101, 1000000, 1);
		for (size_t k = 0; k <= 100; k++) {
			changed += out[k] != cur[k];
			EXPECT(k == 0 || out[k] < out[k - 1]);
		}
		EXPECT_EQ(changed, 1);
	}
	/*
	 * One job moved up the order with its old priority (a preempted job
	 * back at the head of its queue's waiting jobs, a backfilled one
	 * requeued) costs one update too, not one for every job it passed
	 * (seen in spare-tiresias-bench: 914 updates in one pass).
	 */
	for (size_t from = 1; from <= 100; from += 9) {
		for (size_t to = 0; to < from; to += 7) {
			size_t changed = 0;

			for (size_t k = 0, src = 0; k <= 100; k++) {
				if (src == from)
					src++;
				cur[k] = 1000000 - (uint32_t)(k == to ? from : src++) * TIRD_PRIO_GAP;
			}
			tird_assign_priorities(cur, out, 101, 1000000, 1);
			for (size_t k = 0; k <= 100; k++) {
				changed += out[k] != cur[k];
				EXPECT(k == 0 || out[k] < out[k - 1]);
			}
			EXPECT_EQ(changed, 1);
			if (tap_case_failed) {
				fprintf(stderr, "# moved from %zu to %zu\n", from, to);
				return;
			}
		}
	}
}

/*
 * The default band is above priority/basic's newcomers: a pass over jobs
 * that came with basic's priorities (TIRD_BASIC_TOP - 1 counting down)
 * places every one of them above the next newcomer's, also for 1,000
 * pending jobs, and a newcomer joining the order costs one update. With
 * the floor ignored (the daemon before the band, priority-top 1e9 or
 * spaced 1024 down from the top) 1,000 jobs went below the newcomers.
 */
static void priority_band(void)
{
	static uint32_t cur[1001], out[1001], again[1001];
	const uint32_t newcomer = TIRD_BASIC_TOP - 1 - 5000;	/* after 5,000 submissions */
	size_t changed = 0;

	for (size_t k = 0; k < 1000; k++)
		cur[k] = TIRD_BASIC_TOP - 1 - (uint32_t)k;
	tird_assign_priorities(cur, out, 1000, TIRD_PRIO_TOP, TIRD_BASIC_TOP);
	for (size_t k = 0; k < 1000; k++) {
		EXPECT(out[k] >= TIRD_BASIC_TOP && out[k] <= TIRD_PRIO_MAX);
		EXPECT(out[k] > newcomer);
		EXPECT(k == 0 || out[k] < out[k - 1]);
		if (tap_case_failed) {
			fprintf(stderr, "# job %zu of 1000: priority %u\n", k, out[k]);
			return;
		}
	}
	/* a newcomer with basic's priority in the middle of the order */
	for (size_t k = 0, src = 0; k <= 1000; k++)
		cur[k] = k == 500 ? newcomer : out[src++];
	tird_assign_priorities(cur, again, 1001, TIRD_PRIO_TOP, TIRD_BASIC_TOP);
	for (size_t k = 0; k <= 1000; k++) {
		changed += again[k] != cur[k];
		EXPECT(again[k] >= TIRD_BASIC_TOP && (k == 0 || again[k] < again[k - 1]));
	}
	EXPECT_EQ(changed, 1);
	/* more jobs than the band holds: the band's jobs are ordered, the rest kept */
	for (size_t k = 0; k < 10; k++)
		cur[k] = 5 + (uint32_t)k;
	tird_assign_priorities(cur, out, 10, 108, 100);
	for (size_t k = 0; k < 9; k++)
		EXPECT(out[k] >= 100 && out[k] <= 108 && (k == 0 || out[k] < out[k - 1]));
	EXPECT_EQ(out[9], 14);
}

/*
 * The live pass against spare-sim's step: at every event of a random
 * trace, the jobs as the simulator had them just before, given to
 * tir_live_pass() (arrivals added, completions gone, as the daemon sees
 * them), come out in the same queues, states, positions and order.
 */
static void live_matches_sim(void)
{
	static struct tir_job jobs[80], snap[80], live[80];
	static uint32_t active[80], scratch[160], walk[80], lscratch[80], map[80];
	static int64_t sample[100];
	static double table[101];
	struct tir_gittins g = { .dur = sample, .n = 100, .delta = 300, .table = table };
	unsigned int seed = 7, compared = 0;

	for (int i = 0; i < 100; i++)
		sample[i] = 20 + (i * 53) % 3000;
	for (int i = 1; i < 100; i++)	/* sorted */
		for (int k = i; k > 0 && sample[k - 1] > sample[k]; k--) {
			int64_t x = sample[k];

			sample[k] = sample[k - 1];
			sample[k - 1] = x;
		}
	EXPECT_EQ(tir_gittins_init(&g), 0);
	for (int trial = 0; trial < 30 && !tap_case_failed; trial++) {
		struct tir_config cfg;
		struct tir_sched s;
		struct tir_step_result res;
		int64_t gpus = 2 + rand_r(&seed) % 15, t = 0;
		size_t n = 40 + rand_r(&seed) % 40;

		tir_config_init(&cfg, trial % 2 ? TIR_DLAS_GPU_GITTINS : TIR_DLAS_GPU, gpus);
		cfg.gittins = &g;
		cfg.promote = trial % 3;
		cfg.limit[0] = 100 + rand_r(&seed) % 300;
		cfg.limit[1] = cfg.limit[0] + 1 + rand_r(&seed) % 900;
		for (size_t i = 0; i < n; i++) {
			memset(&jobs[i], 0, sizeof(jobs[i]));
			t += rand_r(&seed) % 30;
			jobs[i].id = (int64_t)i;
			jobs[i].num_gpu = 1 + rand_r(&seed) % gpus;
			jobs[i].submit = t;
			jobs[i].duration = 1 + rand_r(&seed) % 500;
		}
		EXPECT_EQ(tir_init(&s, &cfg, jobs, n, active, scratch), 0);
		while (!tir_done(&s) && !tap_case_failed) {
			int64_t now = tir_next_event(&s);
			uint64_t seq = s.seq;
			size_t m = 0;

			memcpy(snap, jobs, n * sizeof(jobs[0]));
			/* what the daemon would see: the active jobs not ending now */
			for (size_t i = 0; i < s.nactive; i++) {
				const struct tir_job *j = &snap[s.active[i]];

				if (j->state == TIR_RUNNING &&
				    j->acct.last_check + (j->duration - j->acct.run_total) == now)
					continue;
				map[m] = s.active[i];
				live[m++] = *j;
			}
			/* and the arrivals, joining queue 0 at the back */
			for (size_t i = s.next_arrival; i < n && jobs[i].submit == now; i++) {
				live[m] = snap[i];
				live[m].state = TIR_PENDING;
				live[m].acct.queue = 0;
				live[m].acct.last_check = now;
				live[m].acct.seq = ++seq;
				map[m++] = (uint32_t)i;
			}
			EXPECT_EQ(tir_step(&s, now, &res), 0);
			EXPECT_EQ(tir_live_pass(&cfg, live, m, walk, lscratch, &seq, now), 0);
			EXPECT_EQ(m, s.nwalk);
			for (size_t k = 0; k < m && !tap_case_failed; k++) {
				const struct tir_job *a = &live[k], *b = &jobs[map[k]];

				EXPECT_EQ(a->state, b->state);
				EXPECT_EQ(a->acct.queue, b->acct.queue);
				EXPECT_EQ(a->acct.seq, b->acct.seq);
				EXPECT_EQ(a->acct.run_attained, b->acct.run_attained);
				EXPECT_EQ(a->acct.pending_since_run, b->acct.pending_since_run);
				EXPECT_EQ(a->acct.promote, b->acct.promote);
				EXPECT_EQ(a->acct.preempt, b->acct.preempt);
				EXPECT(a->rank == b->rank);
				EXPECT_EQ(map[walk[k]], s.walk[k]);
			}
			EXPECT_EQ(seq, s.seq);
			compared++;
			if (tap_case_failed)
				fprintf(stderr, "# trial %d at %lld\n", trial, (long long)now);
		}
	}
	EXPECT(compared > 1000);
}

/* A job past two limits at the first look lands in the last queue at once. */
static void live_crosses_limits(void)
{
	struct tir_config cfg;
	struct tir_job j = { .id = 1, .num_gpu = 2, .state = TIR_RUNNING, .acct.seq = 1 };
	uint32_t walk[1], scratch[1];
	uint64_t seq = 1;

	tir_config_init(&cfg, TIR_DLAS_GPU, 4);
	j.acct.last_check = 0;
	EXPECT_EQ(tir_live_pass(&cfg, &j, 1, walk, scratch, &seq, 4000), 0);
	EXPECT_EQ(j.acct.queue, 2);	/* 8000 GPU-s > 7200 */
	EXPECT_EQ(j.state, TIR_RUNNING);
	EXPECT_EQ(j.acct.run_total, 4000);
	/* bad input is refused and changes nothing */
	j.acct.last_check = 5000;
	EXPECT_EQ(tir_live_pass(&cfg, &j, 1, walk, scratch, &seq, 6000 - 1001), -EINVAL);
	j.acct.last_check = 4000;
	j.num_gpu = 5;
	EXPECT_EQ(tir_live_pass(&cfg, &j, 1, walk, scratch, &seq, 5000), -EINVAL);
	tir_config_init(&cfg, TIR_FIFO, 4);
	j.num_gpu = 1;
	EXPECT_EQ(tir_live_pass(&cfg, &j, 1, walk, scratch, &seq, 5000), -EINVAL);
	EXPECT_EQ(j.acct.run_total, 4000);
	EXPECT_EQ(j.acct.last_check, 4000);
}

/* ---- config ---- */

static const char *conf_err(const char *text)
{
	static struct tird_conf c;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	tird_cfg_reset(&c);
	ret = spare_conf_parse_stream(f, "t.conf", tird_cfg_set, &c);
	fclose(f);
	return ret ? spare_conf_error() : NULL;
}

static void bad_config_lines(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "schedule = fifo\n", "t.conf:1: schedule: not dlas-gpu or dlas-gpu-gittins" },
		{ "# c\nqueue-limits = 7200,3250\n", "t.conf:2: queue-limits: not increasing" },
		{ "queue-limits = 1,2,3,4,5,6,7,8\n", "t.conf:1: queue-limits: not increasing" },
		{ "queue-limits = \n", "t.conf:1: queue-limits: not increasing" },
		{ "promote = -1\n", "t.conf:1: promote: not a number in range" },
		{ "interval = soon\n", "t.conf:1: interval: not a number in range" },
		{ "time-scale = 0\n", "t.conf:1: time-scale: not a number in range" },
		{ "state-file =\n", "t.conf:1: state-file: empty" },
		{ "metrics-listen = nowhere\n", "t.conf:1: metrics-listen:" },
		{ "gpus = many\n", "t.conf:1: gpus: not a number in range" },
		{ "priority-top = 1\n", "t.conf:1: priority-top: not a number in range" },
		{ "priority-top = 4294966270\n", "t.conf:1: priority-top: not a number in range" },
		{ "priority-floor = 0\n", "t.conf:1: priority-floor: not a number in range" },
		{ "dry-run = perhaps\n", "t.conf:1: dry-run:" },
		{ "sched = dlas-gpu\n", "t.conf:1: sched: unknown setting" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *e = conf_err(cases[i].text);

		if (!e || strncmp(e, cases[i].want, strlen(cases[i].want)))
			fprintf(stderr, "# case %zu: got \"%s\", want \"%s\"\n", i, e ? e : "(ok)",
				cases[i].want), tap_case_failed = 1;
	}
	EXPECT(conf_err("schedule = dlas-gpu-gittins\nqueue-limits = 100,200,300\n"
			"promote = 2\ninterval = 0.5\ntime-scale = 60\nstate-file = /x\n"
			"metrics-listen = 127.0.0.1:0\ngpus = 16\ndry-run = yes\n") == NULL);
}

int main(void)
{
	spare_log_init("test_tiresias_daemon", SPARE_LOG_ERR);
	TAP_RUN(gpus_from_tres);
	TAP_RUN(ledger_across_requeue_and_restart);
	TAP_RUN(bad_state_files);
	TAP_RUN(preemption);
	TAP_RUN(backfill_start_kept);
	TAP_RUN(backfill_start_same_second);
	TAP_RUN(priorities_in_order);
	TAP_RUN(starts_ranked_above_waiting);
	TAP_RUN(slurm_conf_problems);
	TAP_RUN(stale_view_changes_nothing);
	TAP_RUN(left_to_slurm);
	TAP_RUN(dry_run);
	TAP_RUN(priority_assignment);
	TAP_RUN(priority_band);
	TAP_RUN(first_pass_limited);
	TAP_RUN(limit_updates_cut);
	TAP_RUN(live_matches_sim);
	TAP_RUN(live_crosses_limits);
	TAP_RUN(bad_config_lines);
	return tap_done();
}
