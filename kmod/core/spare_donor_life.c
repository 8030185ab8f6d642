// SPDX-License-Identifier: GPL-2.0
/*
 * The donor life cycle (spare_donor_life.h): one transition table, the
 * back-off, the session generation and the re-home rule. Pure logic,
 * tested by KUnit (spare_donor_life_kunit.c) and, built for userspace, by
 * tests/unit/test_donor_life.c, from the same cases
 * (spare_donor_life_cases.h).
 */
#include <linux/errno.h>

#include "spare_donor_life.h"

static const char *const donor_state_names[] = {
	[SPARE_DONOR_OFFLINE]		= "offline",
	[SPARE_DONOR_CONNECTING]	= "connecting",
	[SPARE_DONOR_LIVE]		= "live",
	[SPARE_DONOR_ERROR]		= "error",
	[SPARE_DONOR_DELETING]		= "deleting",
	[SPARE_DONOR_ATTACHING]		= "attaching",
};

const char *spare_donor_state_name(int state)
{
	if (state < 0 || state >= SPARE_DONOR_NR_STATES)
		return "?";
	return donor_state_names[state];
}

#define T(st, a)	{ .to = SPARE_DONOR_##st, .act = SPARE_LIFE_ACT_##a }

/*
 * [from][event]; a zero entry ({OFFLINE, NONE}) is "does not apply": the
 * state stays (spare_life_next() turns it into {from, NONE}).
 */
static const struct spare_life_step life_table[SPARE_DONOR_NR_STATES]
					       [SPARE_LIFE_NR_EVS] = {
	[SPARE_DONOR_OFFLINE] = {
		[SPARE_LIFE_EV_CONNECT]		= T(CONNECTING, CONNECT),
		[SPARE_LIFE_EV_STOP]		= T(DELETING, STOP),
	},
	[SPARE_DONOR_CONNECTING] = {
		[SPARE_LIFE_EV_CONNECT_FAILED]	= T(OFFLINE, RETRY),
		[SPARE_LIFE_EV_CONNECTED]	= T(ATTACHING, ATTACH),
		[SPARE_LIFE_EV_UP]		= T(LIVE, UP),
		[SPARE_LIFE_EV_LOST]		= T(CONNECTING, ABORT),
		[SPARE_LIFE_EV_STOP]		= T(DELETING, STOP),
	},
	[SPARE_DONOR_ATTACHING] = {
		[SPARE_LIFE_EV_UP]		= T(LIVE, UP),
		[SPARE_LIFE_EV_LOST]		= T(ERROR, TEARDOWN),
		[SPARE_LIFE_EV_STOP]		= T(DELETING, STOP),
	},
	[SPARE_DONOR_LIVE] = {
		[SPARE_LIFE_EV_LOST]		= T(ERROR, TEARDOWN),
		[SPARE_LIFE_EV_STOP]		= T(DELETING, STOP),
	},
	[SPARE_DONOR_ERROR] = {
		[SPARE_LIFE_EV_TORN_DOWN]	= T(OFFLINE, RETRY),
		[SPARE_LIFE_EV_STOP]		= T(DELETING, STOP),
	},
	[SPARE_DONOR_DELETING] = {
		/* a connect that succeeded meanwhile is closed, not served */
		[SPARE_LIFE_EV_CONNECTED]	= T(DELETING, CLOSE),
		[SPARE_LIFE_EV_UP]		= T(DELETING, CLOSE),
	},
};

#undef T

/**
 * spare_life_init() - a donor of a device powering on, or added: OFFLINE,
 * its first CONNECT due at once, the back-off at its least
 * @l: the bookkeeping
 * @now: the driver's clock, ms
 */
void spare_life_init(struct spare_life *l, u64 now)
{
	*l = (struct spare_life){
		.backoff_ms = SPARE_LIFE_BACKOFF_MIN_MS,
		.retry_at = now,
		.down_since = now,
	};
}

/**
 * spare_life_next() - the transition table
 * @from: the donor's state
 * @ev: what happened
 *
 * Return: the state to go to and what the driver does then; {@from,
 * SPARE_LIFE_ACT_NONE} when the event does not apply in @from (a LOST on
 * a donor already being torn down, a second STOP, an unknown value).
 */
struct spare_life_step spare_life_next(enum spare_donor_state from,
				       enum spare_life_ev ev)
{
	struct spare_life_step st = { .to = from, .act = SPARE_LIFE_ACT_NONE };

	if ((unsigned int)from >= SPARE_DONOR_NR_STATES ||
	    (unsigned int)ev >= SPARE_LIFE_NR_EVS)
		return st;
	if (life_table[from][ev].act != SPARE_LIFE_ACT_NONE)
		st = life_table[from][ev];
	return st;
}

/**
 * spare_life_note() - the bookkeeping of a transition the driver published
 * @l: the bookkeeping
 * @from: the state it left
 * @st: spare_life_next()'s answer
 * @now: the driver's clock, ms
 *
 * Leaving LIVE (or ATTACHING) starts the down time. A RETRY waits the
 * back-off, then doubles it up to SPARE_LIFE_BACKOFF_MAX_MS: a donor that
 * fails again right after connecting keeps backing off, and only a MAP
 * it answers yes brings the back-off back to its least
 * (spare_life_mapped()). An UP begins a new session.
 */
void spare_life_note(struct spare_life *l, enum spare_donor_state from,
		     struct spare_life_step st, u64 now)
{
	switch (st.act) {
	case SPARE_LIFE_ACT_TEARDOWN:
		if (from != SPARE_DONOR_ERROR)
			l->down_since = now;
		break;
	case SPARE_LIFE_ACT_RETRY:
		if (l->backoff_ms < SPARE_LIFE_BACKOFF_MIN_MS)
			l->backoff_ms = SPARE_LIFE_BACKOFF_MIN_MS;
		/* a holding donor restarts: try again soon */
		if (spare_life_holding(l, now) &&
		    l->backoff_ms > SPARE_LIFE_HOLD_BACKOFF_MS)
			l->backoff_ms = SPARE_LIFE_HOLD_BACKOFF_MS;
		l->retry_at = now + l->backoff_ms;
		l->backoff_ms = l->backoff_ms >= SPARE_LIFE_BACKOFF_MAX_MS / 2 ?
				SPARE_LIFE_BACKOFF_MAX_MS : l->backoff_ms * 2;
		break;
	case SPARE_LIFE_ACT_UP:
		l->session++;
		break;
	default:
		break;
	}
}

/**
 * spare_life_set() - the one state change of a driver whose one thread
 * owns the state: the table, the new state, the bookkeeping
 * @l: the bookkeeping
 * @state: the donor's state, changed in place
 * @ev: what happened
 * @now: the driver's clock, ms
 *
 * Return: what the driver does now.
 */
enum spare_life_act spare_life_set(struct spare_life *l,
				   enum spare_donor_state *state,
				   enum spare_life_ev ev, u64 now)
{
	enum spare_donor_state from = *state;
	struct spare_life_step st = spare_life_next(from, ev);

	*state = st.to;
	spare_life_note(l, from, st, now);
	return st.act;
}

/**
 * spare_life_mapped() - the donor answered a MAP yes: useful progress, the
 * back-off starts again from its least
 * @l: the bookkeeping
 */
void spare_life_mapped(struct spare_life *l)
{
	l->backoff_ms = SPARE_LIFE_BACKOFF_MIN_MS;
}

/**
 * spare_life_current() - whether an answer belongs to the donor's session
 * @l: the bookkeeping
 * @state: the donor's state now
 * @session: @l->session when the request was sent
 *
 * Return: true when the donor is LIVE in the session the request went
 * out in; a reply of a session torn down (or of one before it) is
 * dropped, so that a dead session's rkey is never taken.
 */
bool spare_life_current(const struct spare_life *l,
			enum spare_donor_state state, u32 session)
{
	return state == SPARE_DONOR_LIVE && session == l->session;
}

/**
 * spare_life_rehome_due() - whether a donor down so long gives its copies
 * up to other donors
 * @l: the bookkeeping
 * @state: the donor's state
 * @now: the driver's clock, ms
 * @rehome_ms: the device's re-home delay (SPARE_LIFE_REHOME_MS unless
 *	configured; spare_life_rehome_check() bounds it)
 *
 * Return: true once the donor is out of LIVE for @rehome_ms, and not
 * being torn down right now (ERROR: its copies are not yet put back) nor
 * powering off, nor held (spare_life_holding()): the copies of a donor
 * restarting in place are waited for, never moved away, whatever the
 * delay.
 */
bool spare_life_rehome_due(const struct spare_life *l,
			   enum spare_donor_state state, u64 now, u32 rehome_ms)
{
	switch (state) {
	case SPARE_DONOR_OFFLINE:
	case SPARE_DONOR_CONNECTING:
	case SPARE_DONOR_ATTACHING:
		return now >= l->down_since &&
		       now - l->down_since >= rehome_ms &&
		       !spare_life_holding(l, now);
	default:
		return false;
	}
}

/**
 * spare_life_rehome_check() - whether a device may use a re-home delay
 * @rehome_ms: the delay asked for, ms
 * @hold_ms: the device's hold time when its donors hold its slabs over a
 *	restart (spare_life_hold()) and the delay must outlast it; 0: not
 *	checked against a hold
 *
 * Return: 0; -ERANGE outside SPARE_LIFE_REHOME_MIN_MS to
 * SPARE_LIFE_REHOME_MAX_MS; -EINVAL when the delay is not longer than
 * @hold_ms (the copies of a donor restarting in place would be moved
 * away while it is waited for).
 */
int spare_life_rehome_check(u32 rehome_ms, u32 hold_ms)
{
	if (rehome_ms < SPARE_LIFE_REHOME_MIN_MS ||
	    rehome_ms > SPARE_LIFE_REHOME_MAX_MS)
		return -ERANGE;
	if (hold_ms && rehome_ms <= hold_ms)
		return -EINVAL;
	return 0;
}

/**
 * spare_life_hold_check() - whether a device may use a hold time
 * @hold_ms: how long a lost donor that holds the device's slabs is waited
 *	for, ms; 0: the device asks no donor for a hold
 *
 * Return: 0; -ERANGE when not 0 and outside SPARE_LIFE_HOLD_MIN_MS to
 * SPARE_LIFE_HOLD_MAX_MS.
 */
int spare_life_hold_check(u32 hold_ms)
{
	if (hold_ms && (hold_ms < SPARE_LIFE_HOLD_MIN_MS ||
			hold_ms > SPARE_LIFE_HOLD_MAX_MS))
		return -ERANGE;
	return 0;
}

/**
 * spare_life_wait() - how long until OFFLINE's next CONNECT
 * @l: the bookkeeping
 * @now: the driver's clock, ms
 *
 * Return: ms, 0 when due.
 */
u32 spare_life_wait(const struct spare_life *l, u64 now)
{
	return l->retry_at > now ? (u32)(l->retry_at - now) : 0;
}

/**
 * spare_life_hold() - a donor was lost (ACT_TEARDOWN): hold or not
 * @l: the bookkeeping
 * @granted: it granted a hold (HELLO_REPLY carried a resume token)
 * @now: the driver's clock, ms
 * @hold_ms: the device's hold time (spare_life_hold_check()); 0: none
 *
 * Return: true when its copies are waited for, until @now + @hold_ms;
 * false: they fail, as without a hold.
 */
bool spare_life_hold(struct spare_life *l, bool granted, u64 now,
		     u32 hold_ms)
{
	granted = granted && hold_ms;
	l->hold_until = granted ? now + hold_ms : 0;
	return granted;
}

/**
 * spare_life_holding() - whether a lost donor's copies are waited for
 * @l: the bookkeeping
 * @now: the driver's clock, ms
 *
 * Return: true between spare_life_hold() (granted) and the end of its
 * time or spare_life_hold_end().
 */
bool spare_life_holding(const struct spare_life *l, u64 now)
{
	return l->hold_until && now < l->hold_until;
}

/**
 * spare_life_hold_expired() - whether a hold's time just ran out
 * @l: the bookkeeping
 * @now: the driver's clock, ms
 *
 * Return: true once, when a hold not ended by spare_life_hold_end() has
 * run out: the driver forgets what was kept and fails what waited.
 */
bool spare_life_hold_expired(struct spare_life *l, u64 now)
{
	if (!l->hold_until || now < l->hold_until)
		return false;
	l->hold_until = 0;
	return true;
}

/**
 * spare_life_hold_end() - the new session adopted what the donor kept (or
 * the donor answered that it kept nothing): the hold is over
 * @l: the bookkeeping
 */
void spare_life_hold_end(struct spare_life *l)
{
	l->hold_until = 0;
}

/**
 * spare_queue_next() - a queue's transition table
 * @from: its state
 * @ev: what happened
 *
 * Return: the state to go to; @from when the event does not apply (an UP
 * of a queue closed meanwhile, a CONNECT of a live one).
 */
enum spare_queue_state spare_queue_next(enum spare_queue_state from,
					enum spare_queue_ev ev)
{
	switch (ev) {
	case SPARE_Q_EV_CONNECT:
		return from == SPARE_Q_NEW ? SPARE_Q_CONNECTING : from;
	case SPARE_Q_EV_UP:
		return from == SPARE_Q_CONNECTING ? SPARE_Q_LIVE : from;
	case SPARE_Q_EV_CLOSE:
		return SPARE_Q_ERROR;
	case SPARE_Q_EV_RESET:
		return SPARE_Q_NEW;
	}
	return from;
}
