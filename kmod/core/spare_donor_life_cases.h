/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The donor life cycle's test cases (spare_donor_life.c), written once
 * and replayed twice: by KUnit (spare_donor_life_kunit.c) and, built for
 * userspace, by the host test tests/unit/test_donor_life.c. They are the
 * cases both drivers meet: a donor failing during connect, during map and
 * while live; the back-off's growth and cap; re-home after an address
 * change; power-off racing the error road; a stale reply from a previous
 * session; spare-ublk's attach step; the queue table.
 *
 * The includer defines the harness:
 *   LIFE_T                  the case's argument (struct kunit *, or int)
 *   LIFE_CHECK(t, cond)     a check that goes on after a failure
 *   LIFE_EQ(t, a, b)        the same for a == b (as long long)
 * and runs every case of spare_donor_life_cases[].
 */
#ifndef SPARE_DONOR_LIFE_CASES_H
#define SPARE_DONOR_LIFE_CASES_H

#include <linux/errno.h>

#include "spare_donor_life.h"

#define LF_T0	100000		/* ms: the clock when a case begins */

/* A donor brought up through spare.ko's road (no attach step). */
static void lf_up(struct spare_life *l, enum spare_donor_state *st, u64 now)
{
	spare_life_init(l, now);
	*st = SPARE_DONOR_OFFLINE;
	spare_life_set(l, st, SPARE_LIFE_EV_CONNECT, now);
	spare_life_set(l, st, SPARE_LIFE_EV_UP, now);
}

/* A connect that fails: it backs off, and the next try waits longer. */
static void life_connect_fails(LIFE_T t)
{
	enum spare_donor_state st = SPARE_DONOR_OFFLINE;
	struct spare_life l;

	spare_life_init(&l, LF_T0);
	LIFE_EQ(t, spare_life_wait(&l, LF_T0), 0);	/* due at once */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0),
		SPARE_LIFE_ACT_CONNECT);
	LIFE_EQ(t, st, SPARE_DONOR_CONNECTING);
	/* a second CONNECT (a connect work queued twice) does nothing */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0),
		SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, st, SPARE_DONOR_CONNECTING);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED,
				  LF_T0 + 3), SPARE_LIFE_ACT_RETRY);
	LIFE_EQ(t, st, SPARE_DONOR_OFFLINE);
	LIFE_EQ(t, l.retry_at, LF_T0 + 3 + 500);
	LIFE_EQ(t, spare_life_wait(&l, LF_T0 + 3), 500);
	LIFE_EQ(t, spare_life_wait(&l, LF_T0 + 700), 0);
	LIFE_EQ(t, l.session, 0);		/* never up */
	/* the handshake broke (LOST while CONNECTING): abort, state kept */
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0 + 503);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 504),
		SPARE_LIFE_ACT_ABORT);
	LIFE_EQ(t, st, SPARE_DONOR_CONNECTING);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED,
				  LF_T0 + 510), SPARE_LIFE_ACT_RETRY);
	LIFE_EQ(t, l.retry_at, LF_T0 + 510 + 1000);
	/* not torn down: it was never live */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN,
				  LF_T0 + 511), SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, st, SPARE_DONOR_OFFLINE);
}

/*
 * Lost while its copies are being mapped: the MAP's answer arrives after
 * the loss, or after the reconnect, and is dropped; one of the new
 * session is taken.
 */
static void life_lost_during_map(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;
	u32 sent;

	lf_up(&l, &st, LF_T0);
	LIFE_EQ(t, st, SPARE_DONOR_LIVE);
	LIFE_EQ(t, l.session, 1);
	sent = l.session;			/* a MAP goes out */
	LIFE_CHECK(t, spare_life_current(&l, st, sent));
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 10),
		SPARE_LIFE_ACT_TEARDOWN);
	LIFE_CHECK(t, !spare_life_current(&l, st, sent));	/* ERROR */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN,
				  LF_T0 + 20), SPARE_LIFE_ACT_RETRY);
	LIFE_CHECK(t, !spare_life_current(&l, st, sent));	/* OFFLINE */
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0 + 520);
	LIFE_CHECK(t, !spare_life_current(&l, st, sent));	/* CONNECTING */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_UP, LF_T0 + 530),
		SPARE_LIFE_ACT_UP);
	LIFE_EQ(t, l.session, 2);
	/* live again, but the answer is the dead session's: dropped */
	LIFE_CHECK(t, !spare_life_current(&l, st, sent));
	LIFE_CHECK(t, spare_life_current(&l, st, l.session));
	/* the next session's MAP answered yes: the back-off starts over */
	LIFE_EQ(t, l.backoff_ms, 1000);
	spare_life_mapped(&l);
	LIFE_EQ(t, l.backoff_ms, SPARE_LIFE_BACKOFF_MIN_MS);
}

/* Lost while live: one teardown, however many contexts see the loss. */
static void life_lost_live(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;

	lf_up(&l, &st, LF_T0);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 7),
		SPARE_LIFE_ACT_TEARDOWN);
	LIFE_EQ(t, st, SPARE_DONOR_ERROR);
	LIFE_EQ(t, l.down_since, LF_T0 + 7);
	/* an RDMA error and a heartbeat failure after it: nothing more */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 8),
		SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, l.down_since, LF_T0 + 7);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_UP, LF_T0 + 8),
		SPARE_LIFE_ACT_NONE);		/* no UP out of ERROR */
	LIFE_EQ(t, st, SPARE_DONOR_ERROR);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN,
				  LF_T0 + 30), SPARE_LIFE_ACT_RETRY);
	LIFE_EQ(t, st, SPARE_DONOR_OFFLINE);
	LIFE_EQ(t, l.retry_at, LF_T0 + 30 + 500);
	/* a late LOST (a completion of the old session) changes nothing */
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 31),
		SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, st, SPARE_DONOR_OFFLINE);
}

/* The back-off doubles from 0.5 s to 16 s and stays; a MAP resets it. */
static void life_backoff(LIFE_T t)
{
	static const u32 waits[] = { 500, 1000, 2000, 4000, 8000, 16000,
				     16000, 16000 };
	enum spare_donor_state st = SPARE_DONOR_OFFLINE;
	struct spare_life l;
	u64 now = LF_T0;
	unsigned int i;

	spare_life_init(&l, now);
	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED, now);
		LIFE_EQ(t, spare_life_wait(&l, now), waits[i]);
		now = l.retry_at;
	}
	/* up, and lost before it mapped anything: it keeps backing off */
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
	spare_life_set(&l, &st, SPARE_LIFE_EV_UP, now);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now + 1);
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now + 2);
	LIFE_EQ(t, spare_life_wait(&l, now + 2), 16000);
	/* up, a MAP answered yes, then lost: the least wait again */
	now = l.retry_at;
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
	spare_life_set(&l, &st, SPARE_LIFE_EV_UP, now);
	spare_life_mapped(&l);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now + 1);
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now + 2);
	LIFE_EQ(t, spare_life_wait(&l, now + 2), 500);
	/* then 1 s: the schedule doubles from the wait just taken */
	now = l.retry_at;
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED, now);
	LIFE_EQ(t, spare_life_wait(&l, now), 1000);
}

/*
 * The donor's address changed (RDMA_CM_EVENT_ADDR_CHANGE: a loss), and it
 * does not come back: after the device's re-home delay out of LIVE its
 * copies go to other donors. Not before; not while its teardown runs; not
 * once it is live again; never while powering off. The default delay
 * (SPARE_LIFE_REHOME_MS) and a configured shorter one.
 */
static void life_rehome_after(LIFE_T t, u32 delay)
{
	enum spare_donor_state st;
	struct spare_life l;
	u64 lost = LF_T0 + 50, now;

	lf_up(&l, &st, LF_T0);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, LF_T0 + 10 * 60000, delay));
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, lost);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, lost + delay + 10000,
					     delay)); /* ERROR */
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, lost + 5);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, lost + delay - 1, delay));
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, lost + delay, delay));
	/* reconnect tries fail all along: still due, from the first loss */
	for (now = lost + 5; now < lost + delay + 1000; now = l.retry_at) {
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
		LIFE_CHECK(t, spare_life_rehome_due(&l, st, now, delay) ==
			   (now - lost >= delay));
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED, now + 1);
	}
	LIFE_EQ(t, l.down_since, lost);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
	spare_life_set(&l, &st, SPARE_LIFE_EV_UP, now + 1);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, now + 60000, delay));
	spare_life_set(&l, &st, SPARE_LIFE_EV_STOP, now + 2);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, now + 60000, delay));
	/* a clock that went back is not a long down time */
	spare_life_init(&l, LF_T0);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, SPARE_DONOR_OFFLINE, 5, delay));
}

static void life_rehome(LIFE_T t)
{
	life_rehome_after(t, SPARE_LIFE_REHOME_MS);
	LIFE_EQ(t, SPARE_LIFE_REHOME_MS, 30000);	/* the documented default */
}

/* A device's delay of 5 s (client/killdonor's): due at 5 s, not at 30. */
static void life_rehome_short(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;

	life_rehome_after(t, 5000);
	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 1);
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, LF_T0 + 2);
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, LF_T0 + 5001, 5000));
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, LF_T0 + 5001,
					     SPARE_LIFE_REHOME_MS));
}

/*
 * A held donor (restarting in place) is waited for, never re-homed, even
 * with a delay shorter than the hold (spare.ko holds on every device but
 * an ec one and takes any delay in bounds): due only once the hold ran
 * out, or as usual once it ended without adoption.
 */
static void life_rehome_not_while_held(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;
	u64 lost = LF_T0 + 1;

	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, lost);
	LIFE_CHECK(t, spare_life_hold(&l, true, lost, SPARE_LIFE_HOLD_MS));
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, lost + 1);
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, lost + 5000, 5000));
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st,
					     lost + SPARE_LIFE_HOLD_MS - 1,
					     5000));
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, lost + SPARE_LIFE_HOLD_MS,
					    5000));
	/* a hold not granted changes nothing */
	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, lost);
	LIFE_CHECK(t, !spare_life_hold(&l, false, lost, SPARE_LIFE_HOLD_MS));
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, lost + 1);
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, lost + 5000, 5000));
}

/*
 * Which delays a device may take: within the bounds, and, when its donors
 * may hold its slabs over a restart, longer than the hold (else a donor
 * restarting in place would lose its copies while it is waited for).
 */
static void life_rehome_check(LIFE_T t)
{
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MS, 0), 0);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MS, SPARE_LIFE_HOLD_MS), 0);
	LIFE_EQ(t, spare_life_rehome_check(5000, 0), 0);
	LIFE_EQ(t, spare_life_rehome_check(5000, SPARE_LIFE_HOLD_MS), -EINVAL);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_HOLD_MS, SPARE_LIFE_HOLD_MS), -EINVAL);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_HOLD_MS + 1, SPARE_LIFE_HOLD_MS), 0);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MIN_MS, 0), 0);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MIN_MS - 1, 0),
		-ERANGE);
	LIFE_EQ(t, spare_life_rehome_check(0, 0), -ERANGE);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MAX_MS, SPARE_LIFE_HOLD_MS), 0);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MAX_MS + 1, 0),
		-ERANGE);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MAX_MS + 1, SPARE_LIFE_HOLD_MS),
		-ERANGE);
	/* a device's own hold: the delay must outlast that one */
	LIFE_EQ(t, spare_life_rehome_check(5000, 3000), 0);
	LIFE_EQ(t, spare_life_rehome_check(3000, 3000), -EINVAL);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_REHOME_MIN_MS,
					   SPARE_LIFE_HOLD_MAX_MS), -EINVAL);
	LIFE_EQ(t, spare_life_rehome_check(SPARE_LIFE_HOLD_MAX_MS + 1,
					   SPARE_LIFE_HOLD_MAX_MS), 0);
}

/*
 * Which holds a device may ask for: 0 (none) or within the bounds, and
 * the bounds leave room for a re-home delay above the longest hold.
 */
static void life_hold_check(LIFE_T t)
{
	LIFE_EQ(t, spare_life_hold_check(SPARE_LIFE_HOLD_MS), 0);
	LIFE_EQ(t, spare_life_hold_check(0), 0);
	LIFE_EQ(t, spare_life_hold_check(SPARE_LIFE_HOLD_MIN_MS), 0);
	LIFE_EQ(t, spare_life_hold_check(SPARE_LIFE_HOLD_MIN_MS - 1), -ERANGE);
	LIFE_EQ(t, spare_life_hold_check(1), -ERANGE);
	LIFE_EQ(t, spare_life_hold_check(SPARE_LIFE_HOLD_MAX_MS), 0);
	LIFE_EQ(t, spare_life_hold_check(SPARE_LIFE_HOLD_MAX_MS + 1), -ERANGE);
	LIFE_EQ(t, spare_life_hold_check(0xffffffffu), -ERANGE);
	LIFE_CHECK(t, SPARE_LIFE_HOLD_MIN_MS <= SPARE_LIFE_HOLD_MS);
	LIFE_CHECK(t, SPARE_LIFE_HOLD_MS <= SPARE_LIFE_HOLD_MAX_MS);
	LIFE_CHECK(t, SPARE_LIFE_HOLD_MAX_MS < SPARE_LIFE_REHOME_MAX_MS);
}

/*
 * A device's own hold time: a short hold is waited for that long and
 * expires then; a hold of 0 waits for nothing even when the donor granted
 * one (a driver with hold 0 does not ask, this is the core's half).
 */
static void life_hold_ms(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;
	u64 now = LF_T0 + 3;

	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now);
	LIFE_CHECK(t, spare_life_hold(&l, true, now, 3000));
	LIFE_EQ(t, l.hold_until, now + 3000);
	LIFE_CHECK(t, spare_life_holding(&l, now + 2999));
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now + 1);
	/* not re-homed while held, even past a short delay */
	LIFE_CHECK(t, !spare_life_rehome_due(&l, st, now + 2000, 1000));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, now + 2999));
	LIFE_CHECK(t, spare_life_hold_expired(&l, now + 3000));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, now + 3001));
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, now + 3000, 1000));

	/* hold 0: granted or not, nothing is waited for */
	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now);
	LIFE_CHECK(t, !spare_life_hold(&l, true, now, 0));
	LIFE_EQ(t, l.hold_until, 0);
	LIFE_CHECK(t, !spare_life_holding(&l, now + 1));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, now + SPARE_LIFE_HOLD_MS));
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now + 1);
	LIFE_CHECK(t, spare_life_rehome_due(&l, st, now + 1000, 1000));
}

/*
 * Power-off racing the error road, as spare.ko's compare-and-exchange
 * meets it: the error road read LIVE and computed ERROR, power-off wrote
 * DELETING first; the exchange fails and the step is taken again from
 * DELETING, where a loss does nothing. No reconnect is ever scheduled
 * out of DELETING, and a connect that finished meanwhile is closed.
 */
static void life_stop_races_error(LIFE_T t)
{
	enum spare_donor_state st, seen;
	struct spare_life_step s;
	struct spare_life l;

	lf_up(&l, &st, LF_T0);
	seen = st;
	s = spare_life_next(seen, SPARE_LIFE_EV_LOST);
	LIFE_EQ(t, s.to, SPARE_DONOR_ERROR);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_STOP, LF_T0 + 1),
		SPARE_LIFE_ACT_STOP);
	LIFE_CHECK(t, st != seen);		/* the exchange fails */
	s = spare_life_next(st, SPARE_LIFE_EV_LOST);
	LIFE_EQ(t, s.to, SPARE_DONOR_DELETING);
	LIFE_EQ(t, s.act, SPARE_LIFE_ACT_NONE);

	/* the other order: the loss first, then power-off mid-teardown */
	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 1);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_STOP, LF_T0 + 2),
		SPARE_LIFE_ACT_STOP);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN,
				  LF_T0 + 3), SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, st, SPARE_DONOR_DELETING);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0 + 4),
		SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_STOP, LF_T0 + 5),
		SPARE_LIFE_ACT_NONE);		/* once */

	/* power-off while a connect runs: its success is closed */
	spare_life_init(&l, LF_T0);
	st = SPARE_DONOR_OFFLINE;
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_STOP, LF_T0 + 1);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_UP, LF_T0 + 2),
		SPARE_LIFE_ACT_CLOSE);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECTED,
				  LF_T0 + 2), SPARE_LIFE_ACT_CLOSE);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED,
				  LF_T0 + 3), SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, st, SPARE_DONOR_DELETING);
	LIFE_EQ(t, l.session, 0);
}

/* spare-ublk's road: connected, the queue threads attach, then live. */
static void life_attach(LIFE_T t)
{
	enum spare_donor_state st = SPARE_DONOR_OFFLINE;
	struct spare_life l;

	spare_life_init(&l, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECTED, LF_T0 + 1),
		SPARE_LIFE_ACT_ATTACH);
	LIFE_EQ(t, st, SPARE_DONOR_ATTACHING);
	LIFE_EQ(t, l.session, 0);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_UP, LF_T0 + 2),
		SPARE_LIFE_ACT_UP);
	LIFE_EQ(t, st, SPARE_DONOR_LIVE);
	LIFE_EQ(t, l.session, 1);
	/* lost while attaching: torn down like a live one */
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 3);
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, LF_T0 + 4);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, LF_T0 + 600);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECTED, LF_T0 + 601);
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 602),
		SPARE_LIFE_ACT_TEARDOWN);
	LIFE_EQ(t, st, SPARE_DONOR_ERROR);
	LIFE_EQ(t, l.down_since, LF_T0 + 602);
	LIFE_EQ(t, l.session, 1);
}

/* The queue table, and what is out of range. */
static void life_queue_and_names(LIFE_T t)
{
	struct spare_life_step s;

	LIFE_EQ(t, spare_queue_next(SPARE_Q_NEW, SPARE_Q_EV_CONNECT),
		SPARE_Q_CONNECTING);
	LIFE_EQ(t, spare_queue_next(SPARE_Q_CONNECTING, SPARE_Q_EV_CONNECT),
		SPARE_Q_CONNECTING);	/* claimed by the I/O path first */
	LIFE_EQ(t, spare_queue_next(SPARE_Q_LIVE, SPARE_Q_EV_CONNECT),
		SPARE_Q_LIVE);
	LIFE_EQ(t, spare_queue_next(SPARE_Q_CONNECTING, SPARE_Q_EV_UP),
		SPARE_Q_LIVE);
	LIFE_EQ(t, spare_queue_next(SPARE_Q_ERROR, SPARE_Q_EV_UP),
		SPARE_Q_ERROR);		/* closed meanwhile */
	LIFE_EQ(t, spare_queue_next(SPARE_Q_LIVE, SPARE_Q_EV_CLOSE),
		SPARE_Q_ERROR);
	LIFE_EQ(t, spare_queue_next(SPARE_Q_ERROR, SPARE_Q_EV_RESET),
		SPARE_Q_NEW);

	s = spare_life_next(SPARE_DONOR_NR_STATES, SPARE_LIFE_EV_UP);
	LIFE_EQ(t, s.act, SPARE_LIFE_ACT_NONE);
	s = spare_life_next(SPARE_DONOR_LIVE, SPARE_LIFE_NR_EVS);
	LIFE_EQ(t, s.act, SPARE_LIFE_ACT_NONE);
	LIFE_EQ(t, s.to, SPARE_DONOR_LIVE);
	LIFE_CHECK(t, !strcmp(spare_donor_state_name(SPARE_DONOR_LIVE), "live"));
	LIFE_CHECK(t, !strcmp(spare_donor_state_name(SPARE_DONOR_DELETING),
			      "deleting"));
	LIFE_CHECK(t, !strcmp(spare_donor_state_name(SPARE_DONOR_NR_STATES),
			      "?"));
	LIFE_CHECK(t, !strcmp(spare_donor_state_name(-1), "?"));
}

/*
 * A donor that holds our slabs (issue 33): lost with the hold granted, its
 * copies are waited for SPARE_LIFE_HOLD_MS, the reconnect retries at
 * least every SPARE_LIFE_HOLD_BACKOFF_MS, and nothing is re-homed; the
 * new session ends the hold. Lost again and not back in time: the hold
 * expires once. A donor that granted no hold is not waited for.
 */
static void life_hold(LIFE_T t)
{
	enum spare_donor_state st;
	struct spare_life l;
	u64 now = LF_T0 + 7;
	int i;

	lf_up(&l, &st, LF_T0);
	LIFE_CHECK(t, !spare_life_holding(&l, LF_T0));
	LIFE_EQ(t, spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now),
		SPARE_LIFE_ACT_TEARDOWN);
	LIFE_CHECK(t, spare_life_hold(&l, true, now, SPARE_LIFE_HOLD_MS));
	LIFE_EQ(t, l.hold_until, now + SPARE_LIFE_HOLD_MS);
	LIFE_CHECK(t, spare_life_holding(&l, now + 1));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, now + SPARE_LIFE_HOLD_MS - 1));
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now);
	/* the restart takes a while: tries at most a second apart */
	for (i = 0; i < 6; i++) {
		now = l.retry_at;
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED, now);
		LIFE_CHECK(t, l.retry_at - now <= SPARE_LIFE_HOLD_BACKOFF_MS);
	}
	LIFE_CHECK(t, spare_life_holding(&l, now));
	LIFE_CHECK(t, SPARE_LIFE_HOLD_MS < SPARE_LIFE_REHOME_MS);
	spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, l.retry_at);
	spare_life_set(&l, &st, SPARE_LIFE_EV_UP, l.retry_at);
	LIFE_EQ(t, l.session, 2);
	spare_life_hold_end(&l);	/* its copies adopted */
	LIFE_CHECK(t, !spare_life_holding(&l, l.retry_at));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, l.retry_at + SPARE_LIFE_HOLD_MS));

	/* lost again, not back in time: the hold expires, once */
	now = l.retry_at + 100;
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, now);
	LIFE_CHECK(t, spare_life_hold(&l, true, now, SPARE_LIFE_HOLD_MS));
	LIFE_CHECK(t, spare_life_hold_expired(&l, now + SPARE_LIFE_HOLD_MS));
	LIFE_CHECK(t, !spare_life_holding(&l, now + SPARE_LIFE_HOLD_MS));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, now + SPARE_LIFE_HOLD_MS + 1));
	/* and the back-off grows as without a hold */
	spare_life_set(&l, &st, SPARE_LIFE_EV_TORN_DOWN, now + SPARE_LIFE_HOLD_MS);
	for (i = 0; i < 6; i++) {
		now = l.retry_at;
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT, now);
		spare_life_set(&l, &st, SPARE_LIFE_EV_CONNECT_FAILED, now);
	}
	LIFE_EQ(t, l.retry_at - now, SPARE_LIFE_BACKOFF_MAX_MS);

	/* no hold granted (a token of 0): not waited for */
	lf_up(&l, &st, LF_T0);
	spare_life_set(&l, &st, SPARE_LIFE_EV_LOST, LF_T0 + 1);
	LIFE_CHECK(t, !spare_life_hold(&l, false, LF_T0 + 1, SPARE_LIFE_HOLD_MS));
	LIFE_CHECK(t, !spare_life_holding(&l, LF_T0 + 2));
	LIFE_CHECK(t, !spare_life_hold_expired(&l, LF_T0 + SPARE_LIFE_HOLD_MS + 2));
}

/* Every case, in the order they run; each harness goes through this table. */
struct spare_donor_life_case {
	const char *name;
	void (*run)(LIFE_T t);
};

static const struct spare_donor_life_case spare_donor_life_cases[] = {
	{ "connect_fails", life_connect_fails },
	{ "lost_during_map", life_lost_during_map },
	{ "lost_live", life_lost_live },
	{ "backoff", life_backoff },
	{ "rehome", life_rehome },
	{ "rehome_short", life_rehome_short },
	{ "rehome_check", life_rehome_check },
	{ "rehome_not_while_held", life_rehome_not_while_held },
	{ "stop_races_error", life_stop_races_error },
	{ "attach", life_attach },
	{ "queue_and_names", life_queue_and_names },
	{ "hold", life_hold },
	{ "hold_check", life_hold_check },
	{ "hold_ms", life_hold_ms },
};

#endif /* SPARE_DONOR_LIFE_CASES_H */
