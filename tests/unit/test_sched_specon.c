// SPDX-License-Identifier: GPL-2.0
/* SpeCon (userspace/sched/specon.c): slow growth, the model, the move. */
#include <errno.h>
#include <math.h>

#include "tap.h"
#include "specon.h"

static const struct specon_params *P = &specon_defaults;

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static void slow_growth(void)
{
	struct specon_job j = { .active = true };

	EXPECT_EQ(specon_report(&j, 2.0), 0);
	EXPECT(!specon_slow(P, &j));		/* one report: unknown */
	EXPECT_EQ(specon_report(&j, 1.7), 0);	/* 15% drop */
	EXPECT(!specon_slow(P, &j));
	EXPECT_EQ(specon_report(&j, 1.6), 0);	/* 5.9% drop */
	EXPECT(specon_slow(P, &j));
	EXPECT_EQ(specon_report(&j, 1.7), 0);	/* got worse */
	EXPECT(specon_slow(P, &j));
	EXPECT_EQ(specon_report(&j, 0), -EINVAL);
	EXPECT_EQ(specon_report(&j, NAN), -EINVAL);
	EXPECT(j.loss == 1.7 && j.prev_loss == 1.6);
}

/* Two 8-core hosts; three 4-core jobs on host 0, none on host 1. */
static void setup(struct specon_host *h, struct specon_job *j)
{
	h[0].cores = 8;
	h[1].cores = 8;
	for (int i = 0; i < 3; i++)
		j[i] = (struct specon_job){ .active = true, .host = 0,
					    .demand = 4, .remaining = 1200,
					    .prev_loss = 1.0, .loss = 0.99 };
}

static void rates(void)
{
	struct specon_host h[2];
	struct specon_job j[3];

	setup(h, j);
	/* 12 cores wanted on 8: each gets 8/3. */
	EXPECT(near(specon_rate(h, 2, j, 3, 0), 8.0 / 3));
	j[2].host = 1;
	EXPECT(near(specon_rate(h, 2, j, 3, 0), 4));
	EXPECT(near(specon_rate(h, 2, j, 3, 2), 4));
	j[2].moving = true;			/* in flight: no cores */
	EXPECT(specon_rate(h, 2, j, 3, 2) == 0);
}

static void moves_when_it_pays(void)
{
	struct specon_host h[2];
	struct specon_job j[3];
	struct specon_move mv;

	setup(h, j);
	/*
	 * Before: 3 x 1200 / (8/3) = 1350 s summed. Moving one: the two left
	 * run at 4 (600 s each), the mover 1200 / 4 + 5 = 305 s: gain 445 s.
	 */
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT(mv.job >= 0);
	EXPECT_EQ(mv.from, 0);
	EXPECT_EQ(mv.to, 1);
	EXPECT(near(mv.gain, 445));
	/* Fast-growing jobs are not moved. */
	for (int i = 0; i < 3; i++)
		j[i].loss = 0.5;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, -1);
	/* Almost done: the move cost outweighs the gain. */
	for (int i = 0; i < 3; i++) {
		j[i].loss = 0.99;
		j[i].remaining = 2;
	}
	/* Before 3 x 0.75 = 2.25 s; after 0.5 + 0.5 + 0.5 + 5. */
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, -1);
	/* Balanced hosts: no gain either. */
	setup(h, j);
	j[2].active = false;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, -1);
}

static void least_loaded_target(void)
{
	struct specon_host h[3] = { { 8 }, { 8 }, { 16 } };
	struct specon_job j[5];
	struct specon_move mv;

	setup(h, j);
	h[2].cores = 16;
	/* Host 1 carries 4 of 8 cores; host 2 4 of 16: host 2 is less loaded. */
	j[3] = (struct specon_job){ .active = true, .host = 1, .demand = 4,
				    .remaining = 100, .prev_loss = 1, .loss = 0.5 };
	j[4] = j[3];
	j[4].host = 2;
	EXPECT_EQ(specon_decide(P, h, 3, j, 5, &mv), 0);
	EXPECT(mv.job >= 0 && mv.job <= 2);
	EXPECT_EQ(mv.from, 0);
	EXPECT_EQ(mv.to, 2);
}

static void bad_input(void)
{
	struct specon_host h[2];
	struct specon_job j[3];
	struct specon_move mv;
	struct specon_params p = *P;

	setup(h, j);
	j[1].host = 2;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	EXPECT_EQ(mv.job, -1);
	j[1].host = 0;
	j[1].demand = 0;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	j[1].demand = 4;
	j[1].remaining = -1;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	j[1].remaining = 1;
	h[1].cores = 0;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	h[1].cores = 8;
	p.move_cost = -1;
	EXPECT_EQ(specon_decide(&p, h, 2, j, 3, &mv), -EINVAL);
	p = *P;
	p.cooldown = NAN;
	EXPECT_EQ(specon_decide(&p, h, 2, j, 3, &mv), -EINVAL);
	j[1].moved = true;
	j[1].left = 1;
	j[1].since_move = -1;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	j[1].since_move = 0;
	j[1].left = 2;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), -EINVAL);
	j[1].left = 1;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
}

/*
 * Ping-pong (spare-sim seed 1, job 4, before the cool-down: host 0 -> 1 at
 * 190 s, 1 -> 0 at 320 s). Job 0 has just come to host 1 from host 0, which
 * is now empty while host 1 is crowded: the model would send it straight
 * back. Within the cool-down it stays; with a third host it goes there;
 * after the cool-down, or with none, it may return.
 */
static void no_ping_pong(void)
{
	struct specon_host h[3] = { { 8 }, { 8 }, { 8 } };
	struct specon_params p = *P;
	struct specon_job j[3];
	struct specon_move mv;

	setup(h, j);
	for (int i = 0; i < 3; i++)
		j[i].host = 1;
	j[0].moved = true;
	j[0].left = 0;
	j[0].since_move = 130;
	/* Jobs 1 and 2 never moved: either may go to host 0. */
	j[1].loss = j[2].loss = 0.5;
	EXPECT(P->cooldown > 130);
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, -1);
	/* A third, empty host is allowed. */
	EXPECT_EQ(specon_decide(P, h, 3, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, 0);
	EXPECT_EQ(mv.to, 2);
	/* Once the cool-down is over, host 0 is open again. */
	j[0].since_move = P->cooldown;
	EXPECT_EQ(specon_decide(P, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, 0);
	EXPECT_EQ(mv.to, 0);
	/* And with no cool-down at all (the old behaviour). */
	j[0].since_move = 0;
	p.cooldown = 0;
	EXPECT_EQ(specon_decide(&p, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, 0);
	EXPECT_EQ(mv.to, 0);
	/* A job that moved before may still go elsewhere than back. */
	p.cooldown = INFINITY;
	j[0].since_move = 1e9;
	EXPECT_EQ(specon_decide(&p, h, 2, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, -1);
	EXPECT_EQ(specon_decide(&p, h, 3, j, 3, &mv), 0);
	EXPECT_EQ(mv.job, 0);
	EXPECT_EQ(mv.to, 2);
}

int main(void)
{
	TAP_RUN(slow_growth);
	TAP_RUN(rates);
	TAP_RUN(moves_when_it_pays);
	TAP_RUN(least_loaded_target);
	TAP_RUN(bad_input);
	TAP_RUN(no_ping_pong);
	return tap_done();
}
