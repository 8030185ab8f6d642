// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for spared's lending policy and batch eviction choice
 * (userspace/spared/lend.c).
 */
#include <stdint.h>
#include <string.h>

#include "lend.h"
#include "tap.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static struct lend_params params(void)
{
	struct lend_params p = {
		.slab_size	= 1 * GiB,
		.headroom	= 4 * GiB,
		.min_slabs	= 1,
		.max_slabs	= 16,
		.psi_some_high	= 10.0,
		.psi_full_high	= 2.0,
		.psi_some_idle	= 1.0,
		.idle_ms	= 60000,
		.grow_step	= 2,
		.evict_batch	= 2,
	};
	return p;
}

static struct lend_input reading(uint64_t now, uint64_t avail, unsigned int cap,
				 unsigned int lent)
{
	struct lend_input in = {
		.now_ms = now, .mem_available = avail, .psi_valid = true,
		.cap = cap, .lent = lent,
	};
	return in;
}

static void test_params_check(void)
{
	struct lend_params p = params();

	EXPECT(lend_params_check(&p) == NULL);
	p.min_slabs = 17;
	EXPECT(lend_params_check(&p) != NULL);
	p = params();
	p.slab_size = 0;
	EXPECT(lend_params_check(&p) != NULL);
	p = params();
	p.psi_some_idle = 20;
	EXPECT(lend_params_check(&p) != NULL);
}

/* Growth only after idle_ms of idle readings, in steps, up to max. */
static void test_grow_hysteresis(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(1000, 20 * GiB, 1, 0);
	struct lend_decision d;

	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);		/* idle clock starts */
	in.now_ms = 1000 + 59999;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
	in.now_ms = 1000 + 60000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 2);
	EXPECT(!d.pressure);
	/* The next step needs another idle_ms. */
	in.cap = 3;
	in.now_ms += 30000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
	/* One busy reading (PSI some above idle) resets the clock. */
	in.psi_some_avg10 = 1.5;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
	in.psi_some_avg10 = 0.0;
	in.now_ms += 30000;		/* 60 s since the last step, but reset */
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
	in.now_ms += 60000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 2);
}

/* Growth is capped by max_slabs and by the memory above the headroom. */
static void test_grow_limits(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 20 * GiB, 15, 10);
	struct lend_decision d;

	lend_decide(&p, &st, &in);
	in.now_ms = 60000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 1);			/* 16 - 15 */
	in.cap = 16;
	in.now_ms = 200000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);		/* at max */

	/* 5.5 GiB available, 4 headroom: room for 1 slab, 0 unlent yet. */
	memset(&st, 0, sizeof(st));
	in = reading(0, 5 * GiB + 512 * MiB, 4, 4);
	lend_decide(&p, &st, &in);
	in.now_ms = 60000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 1);
	/* ...and with that one slab unlent, nothing more. */
	in.cap = 5;
	in.now_ms = 200000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
}

/* The growth band: no growth within grow_margin of the headroom, and the
 * margin does not make the donor take anything back. */
static void test_grow_margin(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 10 * GiB, 4, 4);
	struct lend_decision d;

	p.grow_margin = 6 * GiB;
	lend_decide(&p, &st, &in);
	in.now_ms = 100000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);		/* 6 above headroom, margin 6 */
	EXPECT(!d.pressure);
	in.mem_available = 12 * GiB;
	lend_decide(&p, &st, &in);
	in.now_ms = 200000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 2);			/* 8 - 6 */
	in.mem_available = 5 * GiB;		/* inside the band: hold */
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
}

/* Without PSI the decision runs on MemAvailable alone. */
static void test_no_psi(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 20 * GiB, 2, 0);
	struct lend_decision d;

	in.psi_valid = false;
	in.psi_some_avg10 = 99;		/* ignored */
	in.psi_events = 3;
	d = lend_decide(&p, &st, &in);
	EXPECT(!d.pressure);
	in.now_ms = 60000;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
}

/* Below the floor: grow to it at once. */
static void test_floor(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 1 * GiB, 0, 0);
	struct lend_decision d;

	p.min_slabs = 3;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_GROW);
	EXPECT_EQ(d.grow, 3);
	/* Pressure never takes the capacity below the floor. */
	in.cap = 3;
	in.lent = 3;
	d = lend_decide(&p, &st, &in);
	EXPECT(d.pressure);
	EXPECT_EQ(d.action, LEND_HOLD);
	EXPECT_EQ(d.evict, 0);
	/* 3 short; 2 unlent above the floor go, and nothing lent. */
	in.cap = 5;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_RELEASE);
	EXPECT_EQ(d.release, 2);
	EXPECT_EQ(d.evict, 0);
	/* All 5 lent: 2 evicted, down to the floor, not the 3 needed. */
	in.lent = 5;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_EVICT);
	EXPECT_EQ(d.evict, 2);
}

/* Headroom breached: unlent first, then as many lent as the deficit needs. */
static void test_headroom_breach(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 3 * GiB, 10, 7);
	struct lend_decision d;

	/* 1 GiB short: 3 unlent go, and one lent slab is evicted. */
	d = lend_decide(&p, &st, &in);
	EXPECT(d.pressure);
	EXPECT_EQ(d.action, LEND_EVICT);
	EXPECT_EQ(d.release, 3);
	EXPECT_EQ(d.evict, 1);
	/* 2.5 GiB short: rounds up to 3 slabs. */
	in = reading(0, 1 * GiB + 512 * MiB, 7, 7);
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.release, 0);
	EXPECT_EQ(d.evict, 3);
	/* Slabs already being evicted count as memory on its way back. */
	in.evicting = 3;
	d = lend_decide(&p, &st, &in);
	EXPECT(!d.pressure);
	EXPECT_EQ(d.evict, 0);
	in.evicting = 2;
	d = lend_decide(&p, &st, &in);
	EXPECT(d.pressure);
	EXPECT_EQ(d.evict, 1);
	/* Never more than what is lent and not already evicting. */
	in = reading(0, 0, 4, 4);
	in.evicting = 1;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.evict, 3);
}

/* PSI over a threshold or a trigger event: one batch E, not while one is
 * in flight. */
static void test_psi_pressure(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 20 * GiB, 8, 6);
	struct lend_decision d;

	in.psi_some_avg10 = 10.0;
	d = lend_decide(&p, &st, &in);
	EXPECT(d.pressure);
	EXPECT_EQ(d.release, 2);
	EXPECT_EQ(d.evict, 2);
	in.psi_some_avg10 = 0;
	in.psi_full_avg10 = 2.5;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.evict, 2);
	in.psi_full_avg10 = 0;
	in.psi_events = 1;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_EVICT);
	/* A batch in flight: release only, wait for it to land. */
	in.cap = 6;
	in.evicting = 2;
	d = lend_decide(&p, &st, &in);
	EXPECT(d.pressure);
	EXPECT_EQ(d.action, LEND_HOLD);
	in.cap = 8;
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_RELEASE);
	EXPECT_EQ(d.release, 2);
	/* Pressure resets the idle clock: no growth right after. */
	in = reading(100000, 20 * GiB, 8, 6);
	d = lend_decide(&p, &st, &in);
	EXPECT_EQ(d.action, LEND_HOLD);
}

/* Unlent capacity MemAvailable can no longer back is released, without
 * touching lent slabs. */
static void test_release_shortfall(void)
{
	struct lend_params p = params();
	struct lend_state st = { 0 };
	struct lend_input in = reading(0, 6 * GiB, 10, 5);
	struct lend_decision d;

	/* room = 2 slabs, unlent = 5: release 3. */
	d = lend_decide(&p, &st, &in);
	EXPECT(!d.pressure);
	EXPECT_EQ(d.action, LEND_RELEASE);
	EXPECT_EQ(d.release, 3);
	EXPECT_EQ(d.evict, 0);
}

static void test_sample(void)
{
	struct spare_rng r = { 42 };
	uint32_t scratch[10], out[10];
	unsigned int seen[10] = { 0 }, i, t;
	size_t k;

	k = lend_sample(10, 4, &r, scratch, out);
	EXPECT_EQ(k, 4);
	for (i = 0; i < 4; i++) {
		EXPECT(out[i] < 10);
		seen[out[i]]++;
	}
	for (i = 0; i < 10; i++)
		EXPECT(seen[i] <= 1);		/* distinct */
	k = lend_sample(3, 8, &r, scratch, out);
	EXPECT_EQ(k, 3);
	EXPECT_EQ(out[0] + out[1] + out[2], 0 + 1 + 2);
	EXPECT_EQ(lend_sample(0, 8, &r, scratch, out), 0);
	/* Roughly uniform: every index drawn over many samples. */
	memset(seen, 0, sizeof(seen));
	for (t = 0; t < 2000; t++) {
		lend_sample(10, 2, &r, scratch, out);
		seen[out[0]]++;
		seen[out[1]]++;
	}
	for (i = 0; i < 10; i++)
		EXPECT(seen[i] > 300 && seen[i] < 500);
	/* Same seed, same sample. */
	{
		struct spare_rng a = { 7 }, b = { 7 };
		uint32_t oa[5], ob[5];

		lend_sample(10, 5, &a, scratch, oa);
		lend_sample(10, 5, &b, scratch, ob);
		EXPECT(!memcmp(oa, ob, sizeof(oa)));
	}
}

static void test_choose_victims(void)
{
	struct lend_candidate c[] = {
		{ .id = 0, .replied = true,  .accesses = 500, .lent_seq = 1 },
		{ .id = 1, .replied = true,  .accesses = 3,   .lent_seq = 9 },
		{ .id = 2, .replied = false, .accesses = 900, .lent_seq = 8 },
		{ .id = 3, .replied = true,  .accesses = 3,   .lent_seq = 2 },
		{ .id = 4, .replied = true,  .accesses = 70,  .lent_seq = 3 },
	};

	EXPECT_EQ(lend_choose_victims(c, 5, 3), 3);
	/* Silent client = idle, first; then 3 accesses, older first. */
	EXPECT_EQ(c[0].id, 2);
	EXPECT_EQ(c[1].id, 3);
	EXPECT_EQ(c[2].id, 1);
	EXPECT_EQ(c[3].id, 4);
	EXPECT_EQ(c[4].id, 0);
	EXPECT_EQ(lend_choose_victims(c, 2, 5), 2);
	EXPECT_EQ(lend_choose_victims(c, 0, 5), 0);
}

static void test_parse(void)
{
	const char *mi = "MemTotal:       24568724 kB\nMemFree:         1000 kB\n"
			 "MemAvailable:   12345678 kB\nBuffers: 1 kB\n";
	const char *psi = "some avg10=12.34 avg60=1.00 avg300=0.10 total=123\n"
			  "full avg10=0.50 avg60=0.00 avg300=0.00 total=45\n";
	uint64_t avail = 0;
	double some = -1, full = -1;

	EXPECT_EQ(lend_parse_meminfo(mi, &avail), 0);
	EXPECT_EQ(avail, 12345678ULL * 1024);
	EXPECT_EQ(lend_parse_meminfo("MemTotal: 5 kB\n", &avail), -1);
	EXPECT_EQ(lend_parse_meminfo("MemAvailable: lots\n", &avail), -1);
	EXPECT_EQ(lend_parse_meminfo("", &avail), -1);
	EXPECT_EQ(lend_parse_psi(psi, &some, &full), 0);
	EXPECT(some == 12.34 && full == 0.5);
	EXPECT_EQ(lend_parse_psi("some avg10=3.00 avg60=0 avg300=0 total=0\n",
				 &some, &full), 0);
	EXPECT(some == 3.0 && full == 0);
	EXPECT_EQ(lend_parse_psi("full avg10=3.00\n", &some, &full), -1);
	EXPECT_EQ(lend_parse_psi("garbage", &some, &full), -1);
}

int main(void)
{
	TAP_RUN(test_params_check);
	TAP_RUN(test_grow_hysteresis);
	TAP_RUN(test_grow_limits);
	TAP_RUN(test_grow_margin);
	TAP_RUN(test_no_psi);
	TAP_RUN(test_floor);
	TAP_RUN(test_headroom_breach);
	TAP_RUN(test_psi_pressure);
	TAP_RUN(test_release_shortfall);
	TAP_RUN(test_sample);
	TAP_RUN(test_choose_victims);
	TAP_RUN(test_parse);
	return tap_done();
}
