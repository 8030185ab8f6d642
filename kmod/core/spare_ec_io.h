/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The erasure-coded I/O path's decisions (issue 34), sans-IO: the coding
 * groups, the per-split "current" bitmaps, and the steps of a write, a
 * late-binding read and a per-split repair. Events in (a split's write or
 * read completed, a split slab lost or mapped again), actions out (which
 * splits to post, whether to copy or decode, EIO). The drivers post the
 * RDMA and run the codec (spare_ec_encode(), spare_ec_recover()):
 * spare-ublk (userspace/ublk/ec.c) and spare.ko (kmod/spare_ec_blk.c).
 * Documentation/erasure-coding.md, "The I/O path".
 *
 * A coding group holds K * slab_size bytes of the device in K + R split
 * slabs of slab_size bytes, each on its own donor. Page p of the group
 * (p < pages_per_group = K * slab_size / 4096) has split j at byte
 * p * 4096 / K of split slab j. Issue 13's rule holds per split: split j
 * of page p is current only where its write landed.
 *
 * Locking: the calls that take a group expect the caller to hold its own
 * lock for that group; the read and write states are the caller's, one
 * per request. Counters go to the caller's struct spare_ec_stats (one per
 * queue or CPU), never to the map.
 */
#ifndef SPARE_EC_IO_H
#define SPARE_EC_IO_H

#include <linux/types.h>

#include "spare_ec.h"

/* The longest late-binding spare: Δ = R reads every split. */
#define SPARE_EC_MAX_DELTA	SPARE_EC_MAX_R

struct spare_ec_group {
	unsigned long *cur[SPARE_EC_MAX_SPLITS];	/* a bit per page */
	unsigned long *written;	/* a bit per page: a write began there */
	/* a bit per page: a write is in flight there (begin to commit) */
	unsigned long *writing;
	/*
	 * a bit per page: a committed write has splits still in flight
	 * there (commit to end): read from its landed splits, not written
	 */
	unsigned long *trailing;
	u16 lost;	/* split slabs gone (donor lost, evicting): never posted */
	/*
	 * moves at each loss of the split: a write begun on an older slab
	 * of it marks nothing on the one mapped since
	 */
	u8 epoch[SPARE_EC_MAX_SPLITS];
	u16 repair;	/* split slabs with pages to rebuild */
	/* the one repair in flight in this group, if any */
	bool rep_active, rep_spoiled;
	u8 rep_split;
	u32 rep_first, rep_n;
	bool eio_logged;	/* an unreadable page was logged once */
	/*
	 * the one move of an evicted split in flight (spare_ec_move_*()):
	 * the split's pages copied to its new slab and not written since
	 */
	bool mv_active, mv_chunk, mv_spoiled;
	u8 mv_split;
	u32 mv_first, mv_n;
	unsigned long *mv_copied;	/* the caller's, a bit per page */
};

struct spare_ec_map {
	struct spare_ec_geom g;
	u8 delta;		/* spare split reads beyond K (late binding) */
	u32 nr_groups;
	u32 pages_per_group;
	struct spare_ec_group *groups;
};

struct spare_ec_stats {
	u64 reads_decoded;	/* a parity split among the first K */
	u64 late_dropped;	/* split reads that came after the K-th */
	u64 eio_pages;		/* pages read or written as EIO */
	u64 writes_short;	/* writes that landed on K..K+R-1 splits */
	u64 repaired_pages;	/* split pages rebuilt and marked current */
};

/*
 * The ec_stat line, one format for both drivers (spare.ko's
 * /sys/block/spareN/spare/ec_stat, the pager's counters file), written
 * by spare_ec_stat_format(). A driver gives 0 for what it does not do.
 * Documentation/ABI/testing/sysfs-block-spare.
 */
#define SPARE_EC_STAT_VERSION	5

struct spare_ec_stat_line {
	u8 k, r, delta;		/* 0 0 0: not an ec device */
	u64 reads, writes;	/* requests */
	struct spare_ec_stats ec;
	u64 waits;		/* requests that waited for a write */
	u64 remapped;		/* lost split slabs mapped again or replaced */
	u32 lost_now, rebuilding;
	u64 moved, moves_given_up, copied_pages;
	u64 fills_deferred;	/* reads filled off the completion (spare.ko) */
};

/* Bitmask of all K + R splits of @g. */
static inline u16 spare_ec_all(const struct spare_ec_geom *g)
{
	return (u16)((1U << spare_ec_splits(g)) - 1);
}

/* Bitmask of the parity splits of @g. */
static inline u16 spare_ec_parity(const struct spare_ec_geom *g)
{
	return (u16)(spare_ec_all(g) & ~((1U << g->k) - 1));
}

/* Byte offset of page @page's split in each split slab of its group. */
static inline u64 spare_ec_split_off(const struct spare_ec_geom *g, u32 page)
{
	return (u64)page * spare_ec_split_bytes(g);
}

/**
 * spare_ec_map_init() - the coding groups of a device
 * @m: the map to fill
 * @g: the device's geometry (spare_ec_geom_valid())
 * @delta: spare split reads beyond K, 0..R
 * @nr_groups: coding groups of the device
 * @pages_per_group: pages one group holds (K * slab_size / 4096)
 *
 * Every split of every page starts not current: nothing was written.
 *
 * Return: 0, -EINVAL for a bad geometry or @delta, -ENOMEM.
 */
int spare_ec_map_init(struct spare_ec_map *m, const struct spare_ec_geom *g,
		      u8 delta, u32 nr_groups, u32 pages_per_group);
void spare_ec_map_free(struct spare_ec_map *m);

/* Whether split @j of page @p is current. */
bool spare_ec_current(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 j, u32 p);

/*
 * The splits current for every page of [first, first + n) and not lost:
 * the reads that may be posted for those pages.
 */
u16 spare_ec_readable(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 first, u32 n);

/*
 * Split slab @j of @grp is gone (its donor lost, its slab evicting or
 * unmapped): none of its pages is current any more, it is never posted,
 * and it waits for repair. A repair in flight onto it marks nothing.
 */
void spare_ec_split_lost(struct spare_ec_map *m, struct spare_ec_group *grp,
			 u32 j);

/* Split slab @j is mapped again (re-mapped or replaced, empty): it takes
 * writes again, and its pages become current as writes or repairs land.
 */
void spare_ec_split_mapped(struct spare_ec_map *m, struct spare_ec_group *grp,
			   u32 j);

/**
 * spare_ec_writing() - whether a write is in flight over [@first, @first + @n)
 *
 * Between spare_ec_write_begin() and spare_ec_write_commit() the pages of a
 * write are current on no split. A read of them waits
 * (spare_ec_read_plan() says -EAGAIN) and so may a second write of them,
 * until the write is committed: then they read what landed.
 */
bool spare_ec_writing(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 first, u32 n);

/**
 * spare_ec_write_waits() - whether a write of [@first, @first + @n) waits
 *
 * True while a write is in flight there (spare_ec_writing()) or a
 * committed write still has splits in flight there (between
 * spare_ec_write_commit() and spare_ec_write_end()): a second write must
 * not race the first's late splits, which are marked current when they
 * land. A driver that commits writes early calls this before
 * spare_ec_write_begin(); reads need not wait for late splits.
 */
bool spare_ec_write_waits(const struct spare_ec_map *m,
			  const struct spare_ec_group *grp, u32 first, u32 n);

/* One write of pages [first, first + n) of a group, from begin to end. */
struct spare_ec_write {
	u32 first, n;
	u16 posted;	/* the splits written */
	u16 landed;	/* those whose write completed */
	u16 failed;	/* those whose write failed (or was not posted) */
	u16 marked;	/* landed splits marked current (or stale) so far */
	/*
	 * landed splits not marked: their slab changed under the write (lost,
	 * mapped again, or a moving split switched to its new slab)
	 */
	u16 stale;
	u8 k;
	bool committed;	/* spare_ec_write_commit() ran */
	int result;	/* its answer */
	u8 epoch[SPARE_EC_MAX_SPLITS];	/* each split's, at begin */
};

/**
 * spare_ec_write_begin() - a write of pages [@first, @first + @n)
 *
 * Every split of those pages stops being current (the old bytes are being
 * overwritten); a repair of any of them marks nothing, and its split is
 * not written (the repair's own write there may land later, with older
 * bytes): it waits for the next repair.
 *
 * Return: the splits to write (every split slab not lost, nor being
 * repaired over those pages).
 */
u16 spare_ec_write_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			 u32 first, u32 n, struct spare_ec_write *wr);

/* Split @j's write completed: @ok when it landed. */
void spare_ec_write_done(struct spare_ec_write *wr, u32 j, bool ok);

/**
 * spare_ec_write_ready() - whether the write may complete now
 *
 * Once K splits landed the write is readable: it completes (the driver
 * answers the request after spare_ec_write_commit()) without waiting for
 * the other splits, which may be on a dead donor. Before K, only once
 * every posted split completed (then it fails).
 */
bool spare_ec_write_ready(const struct spare_ec_write *wr);

/**
 * spare_ec_write_commit() - the write completes (spare_ec_write_ready())
 *
 * At least K landed: the pages are current on exactly the splits that
 * landed (and whose slab is still the one the write began on: not lost,
 * nor lost and mapped again since); reads of them go on at once. Splits
 * still in flight are marked at spare_ec_write_end() if they land, and
 * until then a second write of the pages waits (spare_ec_write_waits())
 * and no repair takes them. Fewer than K (every split completed):
 * nothing is marked current, so the pages read as EIO until written
 * again. A second call answers the first's result.
 *
 * Return: 0, or -EIO (counted in @st->eio_pages).
 */
int spare_ec_write_commit(struct spare_ec_map *m, struct spare_ec_group *grp,
			  struct spare_ec_write *wr,
			  struct spare_ec_stats *st);

/**
 * spare_ec_write_end() - every posted split of the write completed
 *
 * Commits the write if spare_ec_write_commit() did not run (a driver
 * that answers at the end). Splits that landed after
 * the commit are marked current (same rule: not lost, same slab); those
 * that did not land, and those that landed on a slab since replaced (at
 * the commit or after), are flagged for repair here, never read stale
 * (a rebuild pass during the write may have cleared the flag its loss
 * or switch set: spare_ec_repair_idle()). A write that
 * landed on fewer than K + R splits is counted as short.
 *
 * Return: the commit's answer: 0, or -EIO.
 */
int spare_ec_write_end(struct spare_ec_map *m, struct spare_ec_group *grp,
		       struct spare_ec_write *wr,
		       struct spare_ec_stats *st);

/* One late-binding read of pages [first, first + n) of a group. */
struct spare_ec_read {
	u32 n;
	u16 todo;	/* readable splits not posted yet */
	u16 posted;	/* every split posted */
	u16 arrived;	/* posted and read, up to the K-th */
	u16 failed;	/* posted and failed */
	u16 late;	/* read after the read was done: dropped */
	u16 missing;	/* at SPARE_EC_DECODE: the splits not among the K */
	u8 k;
	bool done;	/* completed, copied, decoded or EIO */
};

/**
 * spare_ec_read_plan() - which splits a read of [@first, @first + @n) posts
 * @post: the splits to post now: K + delta of the readable ones (fewer if
 *	fewer are readable), data splits first
 *
 * Pages never written read as zeros without a post; the splits of a
 * range are chosen by its written pages (the others read whatever the
 * donor lent: zeroed memory).
 *
 * Return: 0; 1 when no page of the range was ever written (the driver
 * gives zeros, @rd is done, nothing to post); -EAGAIN when a write is in
 * flight over a page of the range (spare_ec_writing(): nothing posted,
 * nothing counted; the driver tries the read again once the write has
 * ended, with a new plan); -EIO when fewer than K
 * splits are current for the written pages (counted in @st->eio_pages;
 * @rd is done).
 */
int spare_ec_read_plan(const struct spare_ec_map *m,
		       const struct spare_ec_group *grp, u32 first, u32 n,
		       struct spare_ec_read *rd, u16 *post,
		       struct spare_ec_stats *st);

enum spare_ec_read_act {
	SPARE_EC_WAIT,		/* nothing to do: more splits are coming */
	SPARE_EC_POST,		/* post the split named: one posted failed */
	SPARE_EC_COPY,		/* the K data splits are in: copy them out */
	SPARE_EC_DECODE,	/* K splits, parity among them: recover @missing */
	SPARE_EC_LATE,		/* after the K-th: drop it */
	SPARE_EC_EIO,		/* fewer than K can still come: the pages fail */
};

/**
 * spare_ec_read_done() - split @j of a read completed
 * @ok: it was read (false: an RDMA error, a flush)
 * @post: at SPARE_EC_POST, the split to post in place of the failed one
 *
 * The first K splits to arrive complete the read; completions after that
 * (or after EIO) are dropped, counted as late when they were read.
 */
enum spare_ec_read_act spare_ec_read_done(struct spare_ec_read *rd, u32 j,
					  bool ok, u32 *post,
					  struct spare_ec_stats *st);

/* Whether the driver logs this unreadable page: once per group. */
bool spare_ec_eio_first(struct spare_ec_group *grp);

/**
 * spare_ec_eio_states() - the split states an EIO's log line gives
 * @buf: where they go, without a newline
 * @len: its size (96 bytes hold any)
 * @first: the first page of the range that was EIO
 * @n: its pages
 *
 * Names the first written page of the range with fewer than K splits
 * current and not lost (else the range's first page) and its masks, bit
 * j for split j: "page P: current 0x39, lost 0x06, to rebuild 0x00",
 * then ", writing" or ", trailing" while a write is in flight there.
 *
 * Return: the characters written (as snprintf()).
 */
int spare_ec_eio_states(char *buf, size_t len, const struct spare_ec_map *m,
			const struct spare_ec_group *grp, u32 first, u32 n);

/* One repair in flight: rebuild split @split of [first, first + n). */
struct spare_ec_repair {
	u32 first, n;
	u8 split;
	u16 src;	/* K current splits to read and decode from */
};

/**
 * spare_ec_repair_begin() - the next pages of split @j to rebuild
 * @from: the first page to look at
 * @max: the most pages in one repair
 *
 * Looks for pages from @from on where split @j is not current and K other
 * splits are, all current over the range. One repair per group at a time.
 *
 * Return: 0 with @rep set; -ENOENT when no page from @from on can be
 * rebuilt (pages with fewer than K current splits cannot: they read as
 * EIO until written); -EBUSY when a repair is in flight in the group, or
 * split @j is lost.
 */
int spare_ec_repair_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			  u32 j, u32 from, u32 max, struct spare_ec_repair *rep);

/**
 * spare_ec_repair_end() - the rebuilt split was written, or not
 * @ok: the sources were read, the split decoded and written
 *
 * Return: whether the pages were marked current: not when @ok is false,
 * nor when a write to any of them, or the loss of the split, came after
 * spare_ec_repair_begin() (the rebuilt bytes may be stale; the next
 * repair finds those pages again).
 */
bool spare_ec_repair_end(struct spare_ec_map *m, struct spare_ec_group *grp,
			 const struct spare_ec_repair *rep, bool ok,
			 struct spare_ec_stats *st);

/* Clear @j's repair flag once a pass found nothing more to rebuild
 * (-ENOENT from page 0) and it is not lost.
 */
void spare_ec_repair_idle(struct spare_ec_group *grp, u32 j);

/*
 * Moves. An evicted split slab moves to a new slab by copy before it is
 * given back, without a decode: the split stays current (read and
 * written on its old slab) while the caller copies its current pages
 * chunk by chunk to the new slab; a write to a page clears its "copied"
 * bit (and spoils a chunk in flight over it); the switch happens once
 * every current page of the split is copied. The group never runs a
 * split short. A loss of the split ends the move: it is rebuilt by a
 * decode, as any lost split.
 */

/**
 * spare_ec_move_begin() - split @j of @grp starts moving to a new slab
 * @copied: the caller's bitmap of pages_per_group bits, kept until
 *	spare_ec_move_switch() or spare_ec_move_end(); zeroed here
 *
 * Return: 0; -EINVAL for a bad @j; -EBUSY when a move is in flight in the
 * group already, or split @j is lost.
 */
int spare_ec_move_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			u32 j, unsigned long *copied);

/**
 * spare_ec_move_next() - the next pages of the moving split to copy
 * @from: the first page to look at
 * @max: the most pages in one chunk
 * @rep: the chunk: @rep->split the moving split, @rep->src that split
 *	alone (read it from its old slab, write it to the new one)
 *
 * Return: 0 with @rep set; -ENOENT when no page from @from on is current
 * and not copied; -EBUSY when no move is in flight, or a chunk is.
 */
int spare_ec_move_next(struct spare_ec_map *m, struct spare_ec_group *grp,
		       u32 from, u32 max, struct spare_ec_repair *rep);

/**
 * spare_ec_move_chunk_end() - the chunk was copied (@ok), or not
 *
 * Return: whether its pages were marked copied: not when @ok is false,
 * nor when a write to any of them, or the end of the move, came after
 * spare_ec_move_next().
 */
bool spare_ec_move_chunk_end(struct spare_ec_map *m, struct spare_ec_group *grp,
			     const struct spare_ec_repair *rep, bool ok);

/**
 * spare_ec_move_switch() - the new slab takes the moving split's place
 *
 * Only once every page current on the split is copied; then the pages
 * stay current (on the new slab), the move is over, and a write in
 * flight (begun on the old slab) marks nothing on the new one: its pages
 * wait for a repair, as the split is flagged for one.
 *
 * Return: 0, the caller switches the split to its new slab under the
 * same lock; -EAGAIN when pages are left to copy; -EBUSY when no move
 * is in flight, or a chunk is.
 */
int spare_ec_move_switch(struct spare_ec_map *m, struct spare_ec_group *grp);

/* The move ends without a switch (out of time, a donor lost): the split
 * stays on its old slab (the caller may then lose it); a chunk in flight
 * marks nothing.
 */
void spare_ec_move_end(struct spare_ec_group *grp);

/*
 * Why the move of an evicted split gives up, one list for both drivers
 * (spare_ec_move_why_name() says it, spare_ec_move_give_up_line() writes
 * the log line): the split then goes the old way, lost, decoded around,
 * given back and rebuilt by a decode.
 */
enum spare_ec_move_why {
	SPARE_EC_MOVE_GOES_ON,		/* not given up */
	SPARE_EC_MOVE_LOST,		/* the split's old slab was lost */
	SPARE_EC_MOVE_LATE,		/* 3/4 of the grace period are over */
	SPARE_EC_MOVE_STOPPING,		/* the device powers off */
	SPARE_EC_MOVE_NO_DONOR,		/* no donor may take it */
	SPARE_EC_MOVE_NO_GRANT,		/* one may, but no grant has room */
	SPARE_EC_MOVE_NO_SLOT,		/* no free slot for the new slab */
	SPARE_EC_MOVE_MAP_REFUSED,	/* the new donor refused or was lost */
	SPARE_EC_MOVE_NEW_LOST,		/* the new slab's donor was lost */
	SPARE_EC_MOVE_CHANGED,		/* spare_ec_move_begin() refused */
	SPARE_EC_MOVE_NOMEM,		/* the driver's memory ran out */
};

/* The reason @why, as the log lines of both drivers say it. */
const char *spare_ec_move_why_name(enum spare_ec_move_why why);

/**
 * spare_ec_move_check() - whether the move of split @j of @grp goes on
 * @now: the time now, ms
 * @due: when the move must be over (3/4 of the EVICT's grace period), ms
 * @stopping: the device powers off
 *
 * Return: SPARE_EC_MOVE_LOST when split @j is lost, else
 * SPARE_EC_MOVE_LATE when @now is at or past @due, else
 * SPARE_EC_MOVE_STOPPING when @stopping, else SPARE_EC_MOVE_GOES_ON.
 */
enum spare_ec_move_why spare_ec_move_check(const struct spare_ec_group *grp,
					   u32 j, u64 now, u64 due,
					   bool stopping);

/**
 * spare_ec_move_give_up_line() - the log line of a move given up, the
 *	same in both drivers (each puts its own prefix before it)
 * @buf: where it goes, without a newline
 * @len: its size (256 bytes hold any line)
 * @g: the coding group
 * @j: the split
 * @why: the reason (not SPARE_EC_MOVE_GOES_ON)
 *
 * Return: the characters written (as snprintf()).
 */
int spare_ec_move_give_up_line(char *buf, size_t len, u32 g, u32 j,
			       enum spare_ec_move_why why);

/**
 * spare_ec_stat_format() - the ec_stat line (version SPARE_EC_STAT_VERSION)
 * @buf: where it goes, with a newline
 * @len: its size (128 bytes hold any line)
 *
 * Return: the characters written (as snprintf()).
 */
int spare_ec_stat_format(char *buf, size_t len,
			 const struct spare_ec_stat_line *s);

#endif /* SPARE_EC_IO_H */
