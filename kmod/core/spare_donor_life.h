/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The donor life cycle, as one sans-IO state machine shared by spare.ko
 * (spare_life.c, spare_donor.c) and spare-ublk (userspace/ublk/lifecycle.c): which state
 * a donor goes to on an event, what the driver does then, the reconnect
 * back-off, the session generation that tells a stale reply, and when a
 * donor down too long gives its copies up (re-home).
 *
 *            CONNECT               CONNECTED             ATTACHED
 *   OFFLINE ---------> CONNECTING ----------> ATTACHING ---------> LIVE
 *      ^                | |  UP (no attach step) ^                  |
 *      |  CONNECT_FAILED| +----------------------|----------------->|
 *      +----------------+                        |            LOST  |
 *      |                                         | LOST             v
 *      +--------------- TORN_DOWN ---------------+------------- ERROR
 *   STOP from any state: DELETING, which nothing leaves.
 *
 * A LOST while CONNECTING changes no state: the connect in flight fails
 * (SPARE_LIFE_ACT_ABORT) and goes back to OFFLINE by CONNECT_FAILED.
 *
 * spare_life_next() is the table: a pure function of a state and an
 * event. A driver that publishes the state for other contexts to read
 * lock-free (spare.ko's atomic_t, changed from softirq on the error road)
 * runs it in its own compare-and-exchange loop, then spare_life_note()
 * under its connect lock for the bookkeeping; a driver whose one thread
 * owns the state (spare-ublk's lifecycle loop) calls spare_life_set(),
 * which does both. Nothing here sleeps, allocates, takes a lock or reads
 * a clock: time is the driver's clock in milliseconds, passed in.
 */
#ifndef SPARE_DONOR_LIFE_H
#define SPARE_DONOR_LIFE_H

#include <linux/types.h>

#define SPARE_LIFE_BACKOFF_MIN_MS	500
#define SPARE_LIFE_BACKOFF_MAX_MS	16000
#define SPARE_LIFE_REHOME_MS		30000	/* default: down this long, copies move */
#define SPARE_LIFE_REHOME_MIN_MS	1000	/* a device's re-home delay: bounds */
#define SPARE_LIFE_REHOME_MAX_MS	3600000
#define SPARE_LIFE_HOLD_MS		20000	/* default: a holding donor is waited for */
#define SPARE_LIFE_HOLD_MIN_MS		1000	/* a device's hold: bounds (0: none) */
#define SPARE_LIFE_HOLD_MAX_MS		600000
#define SPARE_LIFE_HOLD_BACKOFF_MS	1000	/* the back-off's cap meanwhile */

/* The order is the ABI of the sysfs "donors" file and sparectl's codes. */
enum spare_donor_state {
	SPARE_DONOR_OFFLINE,	/* not connected; a connect at retry_at */
	SPARE_DONOR_CONNECTING,	/* a connect runs */
	SPARE_DONOR_LIVE,
	SPARE_DONOR_ERROR,	/* lost: the driver tears it down */
	SPARE_DONOR_DELETING,	/* the device powers off; never left */
	SPARE_DONOR_ATTACHING,	/* connected; the I/O paths take the links */
	SPARE_DONOR_NR_STATES,
};

enum spare_life_ev {
	SPARE_LIFE_EV_CONNECT,		/* retry_at came: try to connect */
	SPARE_LIFE_EV_CONNECT_FAILED,	/* the try failed */
	SPARE_LIFE_EV_CONNECTED,	/* connected; links to be attached */
	SPARE_LIFE_EV_UP,		/* connected (and attached): serve */
	SPARE_LIFE_EV_LOST,		/* link down, RDMA error, bad message */
	SPARE_LIFE_EV_TORN_DOWN,	/* the teardown of a lost donor is over */
	SPARE_LIFE_EV_STOP,		/* power-off */
	SPARE_LIFE_NR_EVS,
};

/* What the driver does after a transition. */
enum spare_life_act {
	SPARE_LIFE_ACT_NONE,	/* nothing: the event does not apply */
	SPARE_LIFE_ACT_CONNECT,	/* run a connect (connect work, thread) */
	SPARE_LIFE_ACT_RETRY,	/* back off: the next CONNECT at retry_at */
	SPARE_LIFE_ACT_ATTACH,	/* let the I/O paths take the new links */
	SPARE_LIFE_ACT_UP,	/* serve: map its copies, count, log */
	SPARE_LIFE_ACT_TEARDOWN,/* fail its copies, tear its links down */
	SPARE_LIFE_ACT_ABORT,	/* fail the connect in flight */
	SPARE_LIFE_ACT_CLOSE,	/* powering off: close what was just made */
	SPARE_LIFE_ACT_STOP,	/* wake every wait on the donor */
};

struct spare_life_step {
	enum spare_donor_state to;
	enum spare_life_act act;
};

/* The bookkeeping a driver keeps beside the state. */
struct spare_life {
	u32 backoff_ms;		/* the next retry's wait */
	u32 session;		/* grows at every UP */
	u64 retry_at;		/* ms: OFFLINE's next CONNECT */
	u64 down_since;		/* ms: when it last left LIVE (or was added) */
	u64 hold_until;		/* ms: its held copies are waited for; 0: none */
};

void spare_life_init(struct spare_life *l, u64 now);
struct spare_life_step spare_life_next(enum spare_donor_state from,
				       enum spare_life_ev ev);
void spare_life_note(struct spare_life *l, enum spare_donor_state from,
		     struct spare_life_step st, u64 now);
enum spare_life_act spare_life_set(struct spare_life *l,
				   enum spare_donor_state *state,
				   enum spare_life_ev ev, u64 now);
void spare_life_mapped(struct spare_life *l);
bool spare_life_current(const struct spare_life *l,
			enum spare_donor_state state, u32 session);
bool spare_life_rehome_due(const struct spare_life *l,
			   enum spare_donor_state state, u64 now, u32 rehome_ms);
int spare_life_rehome_check(u32 rehome_ms, u32 hold_ms);
int spare_life_hold_check(u32 hold_ms);
u32 spare_life_wait(const struct spare_life *l, u64 now);

/*
 * A donor that holds our slabs if the session ends (HELLO F_HOLD answered
 * with a resume token: spared restarted in place keeps them). A device
 * has its own hold time (spare.ko's hold_ms, the pager's --hold;
 * SPARE_LIFE_HOLD_MS unless set, spare_life_hold_check() bounds it; 0: the
 * driver does not ask for a hold). At LOST the driver calls
 * spare_life_hold(): with the hold granted, the I/O that only that
 * donor's copies can serve waits (the copies' kept pages, spare_slab.h)
 * for the hold time, the reconnect backs off by at most
 * SPARE_LIFE_HOLD_BACKOFF_MS, and no copy is re-homed (the hold ends
 * before the device's re-home delay, which spare_life_rehome_check()
 * keeps above the hold where the driver asks it to); the new session
 * resumes (HELLO F_RESUME) and adopts the kept slabs (MAPPED F_KEPT), then
 * spare_life_hold_end(). spare_life_hold_expired() says, once, that the
 * time passed: the driver forgets what was kept and fails what waited, as
 * without a hold.
 */
bool spare_life_hold(struct spare_life *l, bool granted, u64 now,
		     u32 hold_ms);
bool spare_life_holding(const struct spare_life *l, u64 now);
bool spare_life_hold_expired(struct spare_life *l, u64 now);
void spare_life_hold_end(struct spare_life *l);

const char *spare_donor_state_name(int state);

/*
 * One RC connection of a donor (spare.ko's control and data queues): its
 * state, published in an atomic_t that completions read. The same
 * discipline: spare_queue_next() is the table, the driver publishes.
 */
enum spare_queue_state {
	SPARE_Q_NEW,
	SPARE_Q_CONNECTING,
	SPARE_Q_LIVE,
	SPARE_Q_ERROR,
};

enum spare_queue_ev {
	SPARE_Q_EV_CONNECT,	/* NEW (or claimed CONNECTING): connect it */
	SPARE_Q_EV_UP,		/* the connect succeeded */
	SPARE_Q_EV_CLOSE,	/* teardown begins: no send, no repost */
	SPARE_Q_EV_RESET,	/* torn down, or not wanted: NEW again */
};

enum spare_queue_state spare_queue_next(enum spare_queue_state from,
					enum spare_queue_ev ev);

#endif /* SPARE_DONOR_LIFE_H */
