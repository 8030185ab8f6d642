/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager: spare-ublk's device state, shared by the queue thread (io.c: the
 * request path) and the main thread (ublk_main.c: set-up, the donors'
 * control connections, signals).
 */
#ifndef SPARE_UBLK_PAGER_H
#define SPARE_UBLK_PAGER_H

#include <pthread.h>
#include <stdbool.h>

#include "donor.h"
#include "ec.h"
#include "integrity.h"
#include "lifecycle.h"
#include "spare_auth.h"
#include "spare_slab.h"
#include "spare_split.h"
#include "spare_util.h"
#include "ublk_dev.h"


#define MAX_IO		(256U * 1024)	/* bytes per request */
#define MAX_EXT		2		/* MAX_IO <= the smallest slab */
#define MAX_OPS		(MAX_EXT * SPARE_MAX_SLOTS)	/* a moving copy: one slot more */
#define UD_POLL_CQ	(1ULL << 32)	/* user_data: + donor index */
#define UD_STOP		(2ULL << 32)
#define UD_TIMER	(3ULL << 32)
#define UD_LINKS	(4ULL << 32)	/* the lifecycle asks about data links */
#define UD_NOP		(5ULL << 32)	/* a POLL_REMOVE's own completion */
#define UD_KICK		(6ULL << 32)	/* another queue's kick (backup.h) */
#define STALL_CHECK_MS	1000	/* how often in-flight RDMA is checked */
#define PAGER_MAX_QUEUES	8	/* --queues */
#define PAGER_MAX_WAITING	64	/* moves NAME.moving lists, at most */

_Static_assert(UBLK_EXTRA_SQES >= SPARE_MAX_DONORS + 6,
	       "the queue ring needs a poll per donor, the stop event, the timer, "
	       "the link requests, the kicks and a poll removal");

/*
 * A donor's data link between the lifecycle (lifecycle.c, main thread) and
 * the queue thread, which owns it while ATTACHED: the lifecycle asks to
 * DETACH after failing every copy on the donor; the queue thread answers
 * DETACHED once nothing it posted there is outstanding and its CQ poll is
 * gone, and only then is the link destroyed; after a reconnect the
 * lifecycle asks to ATTACH the new link.
 */
enum dn_link_state {
	DN_ATTACHED,
	DN_DETACH_REQ,
	DN_DETACHED,
	DN_ATTACH_REQ,
};

/* One RDMA operation of a request. */
struct rq_op {
	u32 ext, copy, gen;
	enum spare_op_result res;
	bool settled;		/* a re-driven read's failed op, settled early */
};

struct rq {
	bool	write;
	/* for struct read_split: the FETCH's completion reaped, the first
	 * RDMA operation posted, the last one reaped (ns) */
	u64	t_start, t_post, t_done;
	u64	pos;
	u32	len;
	int	err;			/* -errno for the request, or 0 */
	bool	parked;			/* waits for a holding donor (io.c) */
	bool	ec_waited;		/* waited for a write of its pages (ec.c) */
	unsigned int nr_ext, nr_ops, inflight;
	unsigned int bad_reads;		/* reads that failed their crc32c */
	struct spare_extent ext[MAX_EXT];
	struct rq_op ops[MAX_OPS];	/* a read re-driven per failed copy */
};

struct stats {
	u64 reads, writes, rdma_reads, rdma_writes, io_errors, copy_faults;
	u64 redrives;
	/* the backup device (backup.c); kicks: waits another queue ended */
	u64 backup_reads, backup_writes, backup_waits, backup_errors, backup_kicks;
	u64 zero_reads, bytes_read, bytes_written;
	/* the most write requests held at once (--write-window's check) */
	u64 writes_held_max;
	/* lifecycle (lifecycle.c, resync.c); atomic */
	u64 losses, reconnects, remaps, resync_pages, evictions, moves,
	    moves_short;
	/* copies given back to the pool on a broker's move mark */
	u64 reclaims;
	/* held donors (lifecycle.c): requests that waited for one; copies
	 * and pages adopted (MAPPED F_KEPT); holds that ran out */
	u64 held_waits, kept_copies, kept_pages, holds_expired;
	/* erasure-coded pages (ec.c): decoded, late splits, EIO pages */
	struct spare_ec_stats ec;
	/* evicted split slabs moved by copy, and moves given up (those
	 * rebuilt by a decode instead); split pages copied (ec.c); atomic */
	u64 ec_moved, ec_move_gave_up, ec_copied_pages;
	/* requests that waited for a write of their pages (ec.c) */
	u64 ec_waits;
	/* --integrity: pages (or splits) read back with a wrong crc32c */
	u64 integrity_errors;
};

/*
 * Where a read's time goes inside the pager, for the benchmark (logged at
 * exit, stats.c): histograms in READ_SPLIT_US buckets of the time from
 * reaping the ublk request to committing it ("held"), and of the part of
 * it from posting the first RDMA READ to reaping the last ("rdma"). The
 * rest of what fio sees is the ublk driver and io_uring: getting the
 * request to the pager and the answer back.
 */
#define READ_SPLIT_US		10
#define READ_SPLIT_BUCKETS	1000	/* 10 ms; the last bucket: longer */
struct read_split {
	u64	n;
	u32	held[READ_SPLIT_BUCKETS], rdma[READ_SPLIT_BUCKETS];
};

struct backup;
struct life;
struct resync;
struct dev;

/*
 * One ublk queue (--queues), served by its own thread (io.c) on its own
 * io_uring, with its own tags, its own RDMA QP and CQ to every donor
 * (donor.h: data[id]) and its own counters: queues share no lock on the
 * request path but each slab's, as spare.ko's hardware queues share only
 * theirs. Its tag @tag is the device-wide tag id * depth + tag where the
 * device keeps one array for every queue (the backup's buffers, dev.rqs).
 */
struct queue {
	struct dev	*d;
	unsigned int	id;
	struct ublk_queue q;
	struct rq	*rqs;		/* depth of them: d->rqs + id * depth */
	char		**tag_addr;	/* async backup: d->tag_addr + id * depth */
	struct stats	st;
	struct stats	st_pub;		/* a copy of st, under d->st_lock */
	struct read_split split;	/* read at exit */
	unsigned int	rdma_inflight;	/* RDMA operations posted, not reaped */
	unsigned int	writes_held;	/* write requests fetched, not committed */
	unsigned int	parked;		/* requests waiting for a held donor */
	/* per donor: operations in flight, and when one last completed */
	unsigned int	dn_inflight[SPARE_MAX_DONORS];
	u64		dn_progress_ns[SPARE_MAX_DONORS];
	bool		timer_armed;
	struct __kernel_timespec timer_ts;
	/* enum dn_link_state per donor (atomic): the lifecycle asks every
	 * queue, and a link is detached once every queue said so */
	int		dn_link[SPARE_MAX_DONORS];
	int		links_fd;	/* eventfd: lifecycle -> this queue */
	int		kick_fd;	/* eventfd: another queue -> this one (backup.h) */
	/* its CQ poll per donor */
	u32		dn_poll_gen[SPARE_MAX_DONORS];
	bool		dn_poll_armed[SPARE_MAX_DONORS];
	bool		dn_poll_removing[SPARE_MAX_DONORS];
	pthread_t	th;
	bool		th_up;
	/* --redundancy ec: its bounce slots and the tags waiting for one */
	struct ec_slot	*ec_slots;
	unsigned int	*ec_wait;	/* a ring of depth tags */
	unsigned int	ec_wait_head, ec_wait_n;
	/* the tags waiting for a write of their pages (ec.c, ec_kicked());
	 * ec_wwait_n is read by the other queues' threads (atomic) */
	unsigned int	*ec_wwait;
	unsigned int	ec_wwait_head, ec_wwait_n;
	bool		ec_waking, ec_wake_again;
};

struct dev {
	/* options */
	u64		size;
	u8		slab_shift;
	u32		copies;
	struct spare_ec_geom ec_geom;	/* --redundancy; k == 0: none */
	u8		ec_delta;	/* --ec-delta: spare split reads */
	struct ec_dev	*ec;		/* set up: erasure-coded pages */
	unsigned int	depth;		/* tags per queue */
	unsigned int	nr_queues;	/* --queues */
	char		source[64];	/* local address, or "" */
	unsigned int	timeout_ms;
	unsigned int	io_timeout_ms;	/* a donor's RDMA may stall this long */
	u32		rehome_ms;	/* --rehome-delay: a lost donor's copies move */
	u32		hold_ms;	/* --hold: a holding donor is waited for; 0: none */
	unsigned int	poll_us;	/* reap the CQs this long before sleeping */
	unsigned int	write_window_kb;	/* 0: only the depth bounds writes */
	u8		ack_timeout;	/* --ack-timeout: as spare.ko's ack_timeout */
	/* --integrity crc32c (integrity.h): the checksums, once set up */
	bool		integrity;
	struct spare_crc_table crc;
	u8		uuid[16];
	u8		key[SPARE_AUTH_KEY_LEN];
	bool		has_key;

	struct donor	donors[SPARE_MAX_DONORS];
	u32		nr_donors;
	struct spare_grant *grants;	/* a broker's, sent to their donors */
	u32		nr_grants;
	char		grant_path[256];	/* --grant-file, or "" */
	/* d->grants and nr_grants: the lifecycle thread reloads them (SIGHUP)
	 * while a connect thread may be sending them */
	pthread_mutex_t	grants_lock;
	/* moves once a SIGHUP brought new grants (a move waiting for one
	 * asks again); atomic */
	u32		grants_seq;
	u16		*placement;	/* from the grants: donor per slab copy, or NULL */
	u32		nr_placement;
	/* --domains: the failure domain of each donor (nr_domains of them, 0:
	 * every donor its own), for the donor a moved copy goes to */
	u16		domain[SPARE_MAX_DONORS];
	u32		nr_domains;
	struct ibv_pd	*pd;
	struct spare_slab_map map;

	struct ublk_ctrl ctrl;
	struct queue	*queues;	/* nr_queues of them */
	char		*bufs;		/* every queue's tags, then the backup's spares */
	struct ibv_mr	*bufs_mr;
	struct rq	*rqs;		/* nr_queues * depth */
	int		stop_fd;	/* eventfd: the queue threads end */
	/* the lifecycle's counters (atomic); the queues count the rest */
	struct stats	st;

	/* lifecycle (lifecycle.c): reconnect, re-map, resync, moves */
	int		life_fd;	/* eventfd: wakes the lifecycle */
	/* a copy left the map: the counters file and NAME.map are written at
	 * the lifecycle's next turn, not up to a second later (a monitor that
	 * reads them would renew a grant for a copy given back already) */
	bool		stats_now;
	struct life	*life;
	struct resync	*rsync;
	/* the moves waiting for a donor to be added (NAME.moving): their
	 * slabs and evicting donors, as the lifecycle last stepped them */
	u32		waiting_slab[PAGER_MAX_WAITING];
	u32		waiting_from[PAGER_MAX_WAITING];
	unsigned int	nr_waiting;

	pthread_mutex_t	 start_lock;	/* queue threads -> main: fetched */
	pthread_cond_t	 start_cond;
	/* queues that fetched every tag; -1 once one failed */
	int		 start_state;

	/* the backup device (backup.c), or NULL */
	struct backup	*bk;
	char		**tag_addr;	/* each tag's buffer, if not bufs + tag * MAX_IO */
	/* live counters for the main thread (stats.c): the queues' st_pub */
	pthread_mutex_t	 st_lock;

	/* Pager restart (recover.c, state.h) */
	char		state_path[256];	/* "" (--state-file none): no restart */
	struct ublk_state *state;	/* as last written */
	pthread_mutex_t	state_lock;
	u64		state_changes;	/* spare_ublk_map_changes at the last write */
	bool		state_broken;	/* a save failed: the file is gone */
	bool		recovering;	/* taking an orphaned device back */
};

/*
 * An RDMA operation of request @r posted on @q to donor @dn (io.c's
 * copies, ec.c's splits): the request's first post timed (t_post, its
 * latency), the operation counted in flight, and an idle donor's stall
 * clock started at this post's own time. Not the request's first post: a
 * read re-driven to another copy or split after one failed (which may
 * take longer than --io-timeout) would start its healthy donor's clock
 * already run out, and check_stalls() would fail that donor too. The
 * clock is read only when one of the two needs it.
 */
static inline void dn_posted(struct queue *q, struct rq *r, u32 dn)
{
	u64 now = 0;

	if (!r->t_post || !q->dn_inflight[dn])
		now = spare_now_ns();
	if (!r->t_post)
		r->t_post = now;
	if (q->dn_inflight[dn]++ == 0)
		q->dn_progress_ns[dn] = now;
}

/* Whether @d serves erasure-coded pages (ec.c), not copies. */
static inline bool ec_on(const struct dev *d)
{
	return d->ec != NULL;
}

/* A failure domain no donor of @d is in yet (for a donor added later). */
static inline u16 pager_domain_next(const struct dev *d)
{
	u16 next = 0;

	for (u32 i = 0; i < d->nr_domains; i++)
		if (d->domain[i] >= next)
			next = (u16)(d->domain[i] + 1);
	return next;
}

/* The device-wide number of queue @q's tag @tag (pager.h, struct queue). */
static inline unsigned int q_gtag(const struct queue *q, unsigned int tag)
{
	return q->id * q->d->depth + tag;
}

/* The buffer tag @tag of queue @q uses now. */
static inline char *tag_buf(const struct queue *q, unsigned int tag)
{
	return q->tag_addr ? q->tag_addr[tag] :
	       q->d->bufs + (size_t)q_gtag(q, tag) * MAX_IO;
}

/* pthread_create() with the pager's small stack (its memory is locked;
 * pager.c). */
int pager_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

/* A queue thread (arg: its struct queue): serves it until told to stop (io.c). */
void *queue_thread(void *arg);
void stats_publish(struct queue *q);	/* stats.c */
/* One operation of @tag's request ended: finish it if it was the last (io.c). */
void rq_put(struct queue *q, unsigned int tag);
/* Answer the kernel for @tag's request: r->err, or its length (io.c). */
void rq_ec_commit(struct queue *q, unsigned int tag);
/* Start @tag's request again, after it waited (io.c). */
void rq_restart(struct queue *q, unsigned int tag);

/*
 * recover.c: the state file and taking a device back after a restart.
 * Anything that changes a copy's state while the device runs moves
 * spare_ublk_map_changes; the queue thread calls pager_state_sync() before
 * it commits a request to the kernel when it moved, so that the file never
 * says "whole" of a copy a committed request saw fail.
 */
struct ublk_state;
/* 0: start a new device; 1: @st is an orphaned device to take back (its
 * info in d->ctrl.info); -1: refused, said why. */
int pager_state_open(struct dev *d, struct ublk_state *st);
/* Copy states from @st after the donors' HELLO: MAP every whole copy, a
 * copy the donor no longer holds (no F_KEPT) fails. 0, or -1. */
int pager_restore_map(struct dev *d, const struct ublk_state *st);
/* Write the state file now (set-up). 0, or -1. */
int pager_state_save(struct dev *d);
/*
 * Whether the state file must be written before a request is committed:
 * some copy changed state or place since the last write. Every such
 * change (a copy failed under a request, or by the lifecycle; re-maps,
 * resyncs, moves) goes through spare_slab_changed(), counted in kcompat.h.
 * A change made under a slab's lock is seen by every request that saw it.
 */
static inline bool pager_state_stale(const struct dev *d)
{
	return d->state && !d->state_broken &&
	       __atomic_load_n(&spare_ublk_map_changes, __ATOMIC_ACQUIRE) !=
	       d->state_changes;
}
void pager_state_sync(struct dev *d);
/* Clean stop, or a new device never started: the file goes. */
void pager_state_remove(struct dev *d);


/* pager.c: the donor table's entries and the broker's grants. */
/* HOST[:PORT] into @dn's host and port: NULL, or why not. */
const char *donor_parse(struct donor *dn, const char *arg);
/* --donor: one more donor at HOST[:PORT]. NULL, or why not. */
const char *pager_add_donor(struct dev *d, const char *arg);
/* @dn's settings from the device's options (before donor_connect()). */
void pager_donor_init(struct dev *d, struct donor *dn);
/* --grant HEX, --grant-file PATH: NULL, or why not. */
const char *pager_add_grant(struct dev *d, const char *hex);
const char *pager_read_grant_file(struct dev *d, const char *path);
/* Without --donor: the grant file names the donors and places every
 * copy. 0, or -1 (said why). */
int pager_place_by_grants(struct dev *d);
void pager_grants_free(struct dev *d);
/*
 * What the device's unexpired grants cover on each of its first @nd
 * donors (0 where it holds none); false, @cover untouched, when it holds
 * no grant at all (no broker).
 */
bool pager_grant_cover(struct dev *d, u32 nd, u32 *cover);
/* Send @dn every grant named for it. 0, or -1. */
int send_grants(struct dev *d, struct donor *dn);
/*
 * The slabs the unexpired grants for @dn cover together, or -1 when none
 * is unexpired; *@last: the latest expiry of any grant for it (0: none).
 */
s64 pager_grants_cover(struct dev *d, const struct donor *dn, u64 *last);
/*
 * SIGHUP: read --grant-file again; send its new grants to the donors for
 * which @live says so (the others get them when they reconnect); a donor
 * a new grant names that the device has not got goes to @add.
 */
void pager_reload_grants(struct dev *d, bool (*live)(struct dev *d, u32 i),
			 int (*add)(struct dev *d, const char *addr));

/* lifecycle.c: before the device starts, after every donor is connected */
int life_init(struct dev *d);
/* Serve the control connections, reconnect, re-map, move, until a
 * signal; @tick (the live counters file, ublk_main.c) at least once a
 * second. */
void life_loop(struct dev *d, int sfd, void (*tick)(struct dev *d));
/*
 * On the lifecycle thread (SIGHUP): add the donor at "host:port" @addr,
 * which a new grant names, down at first: connected like a lost donor,
 * then a target for moves. 0, or -1 (logged: no room, a bad address).
 */
int life_add_donor(struct dev *d, const char *addr);
void life_stop(struct dev *d);
/* resync.c */
int resync_init(struct dev *d);
void resync_kick(struct dev *d);
void resync_stop(struct dev *d);
/*
 * Donor @i's resync link goes away (after donor_fail(): a chunk in progress
 * on it ends at once, flushed) or is back (after a reconnect). Resync posts
 * only to donors that are up.
 */
void resync_donor_down(struct dev *d, u32 i);
void resync_donor_up(struct dev *d, u32 i);
/*
 * One RDMA operation on donor @i's resync link, by the resync thread
 * (resync.c's chunks, ec.c's rebuilds). 0, -EAGAIN (the donor is not up,
 * or its link busy), -EIO.
 */
int resync_rdma(struct dev *d, u32 i, bool write, void *local, u32 lkey,
		u32 len, u64 raddr, u32 rkey);

#endif /* SPARE_UBLK_PAGER_H */
