/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab map of a spare device: pure logic, no RDMA and no block layer, so that
 * KUnit can test it (spare_slab_kunit.c).
 *
 * The device is cut into slabs of 2^slab_shift bytes. Each slab has
 * nr_copies remote copies; copy c of slab s lives on donor
 * spare_slab_place(s, c, nr_donors) (or where configfs "placement" says).
 * A slab has one copy slot more than it has copies (nr_slots): the spare
 * slot, with no donor (SPARE_NO_DONOR), lets a copy move to another donor
 * while the one that asked it back still serves it (spare_slab_move_*()).
 * Which slot holds which copy is not fixed: after a move, the spare slot is
 * the one the old copy left. Each copy has its own state:
 *
 *   UNMAPPED --MAP sent--> MAPPING --MAPPED ok--> MAPPED --EVICT--> EVICTING
 *      ^                      |                     |                  |
 *      |<------refused--------+                     |                  |
 *      |<--------------- drained, UNMAP sent ------+------------------+
 *      |                                            v                  v
 *      +<------- connection torn down ---------- FAILED <--- any error-+
 *
 * and a per-page bitmap "this copy holds the last written data" (current).
 * A per-slab bitmap "written" remembers pages written at least once: a copy
 * freshly lent by a donor is zero filled, so it is current exactly for the
 * pages never written. The state of a slab as a whole (spare_slab_state())
 * is the best state among its copies.
 *
 * Locking: every function taking a struct spare_slab expects slab->lock held
 * (spin_lock_irqsave), except spare_slab_map_init()/_free().
 */
#ifndef SPARE_SLAB_H
#define SPARE_SLAB_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/bitops.h>

/*
 * spare_slab_changed(map): a copy's state or donor just changed, under the
 * slab's lock. Nothing for the kernel. spare-ublk, which builds this file
 * for userspace, counts the changes to know when its state file must be
 * written again (userspace/lib/kshim/kcompat.h).
 */
#ifndef spare_slab_changed
#define spare_slab_changed(map) do { } while (0)
#endif

#define SPARE_PAGE_SHIFT	12	/* device page: the 4 KiB block */
#define SPARE_PAGE_SIZE		(1U << SPARE_PAGE_SHIFT)
#define SPARE_MAX_REPLICAS	3
#define SPARE_MAX_DONORS	8
#define SPARE_MAX_SLOTS		(SPARE_MAX_REPLICAS + 1)
#define SPARE_NO_DONOR		U32_MAX	/* a slot that holds no copy */

enum spare_copy_state {
	SPARE_COPY_UNMAPPED,
	SPARE_COPY_MAPPING,
	SPARE_COPY_MAPPED,
	SPARE_COPY_EVICTING,
	SPARE_COPY_FAILED,
	SPARE_COPY_NR_STATES,
};

struct spare_copy {
	enum spare_copy_state state;
	u32 donor;		/* index in the device's donor table, or NO_DONOR */
	u32 gen;		/* bumped on every state change */
	u32 rkey;
	u64 addr;		/* remote address of the slab */
	u32 inflight;		/* RDMA operations posted on this copy */
	unsigned long *current_map; /* per page: remote copy is current */
	/* a resync of pages [rs_first, rs_first + rs_n) in flight; rs_n = 0: none */
	u32 rs_first, rs_n;
	u32 rs_gen;		/* the copy's gen when the resync began */
	bool rs_dirty;		/* a write touched those pages meanwhile */
	/* pages the donor may keep for us (see spare_copy_adopt_kept()) */
	unsigned long *kept_map;
	u32 kept_gen;		/* the gen the copy failed at */
	bool kept;		/* kept_map means something */
};

struct spare_slab {
	spinlock_t lock;
	u32 id;
	u32 writes_inflight;	/* write requests between begin and done */
	atomic64_t accesses;	/* pages read or written since last query */
	unsigned long *written;	/* per page: written at least once */
	struct spare_copy copy[SPARE_MAX_SLOTS];
};

struct spare_slab_map {
	u32 nr_slabs;
	u32 nr_copies;
	u32 nr_slots;		/* nr_copies + 1: see the spare slot above */
	u32 nr_donors;
	u8 slab_shift;
	u32 pages_per_slab;
	u32 hold_donors;	/* donors that keep our slabs if we vanish */
	struct spare_slab *slabs;
};

/* Donor of copy @copy of slab @slab when copies are spread round robin. */
static inline u32 spare_slab_place(u32 slab, u32 copy, u32 nr_donors)
{
	return (slab + copy) % nr_donors;
}

int spare_slab_map_init(struct spare_slab_map *map, u64 dev_bytes,
			u8 slab_shift, u32 nr_copies, u32 nr_donors);
void spare_slab_map_free(struct spare_slab_map *map);
/*
 * Replace the round robin by an explicit placement (from a broker, through
 * configfs "placement"): @donor holds @n donor indices, slab-major,
 * nr_copies per slab. Returns 0, or -EINVAL and changes nothing when @n is
 * not nr_slabs * nr_copies, an index is not below nr_donors, or a slab has
 * two copies on one donor. Only before the map is in use.
 */
int spare_slab_map_place(struct spare_slab_map *map, const u16 *donor, u32 n);
/*
 * Donors appended to a running device (configfs "donors"): from now on
 * donors up to @nr_donors - 1 may take a moved copy. Only more, and at most
 * SPARE_MAX_DONORS: -EINVAL otherwise. Existing copies stay where they are.
 */
int spare_slab_map_grow_donors(struct spare_slab_map *map, u32 nr_donors);

const char *spare_copy_state_name(enum spare_copy_state s);
bool spare_copy_transition_ok(enum spare_copy_state from,
			      enum spare_copy_state to);
/*
 * The one function that changes a copy's state. Returns -EINVAL (and changes
 * nothing) for a transition the diagram above does not allow. Entering
 * MAPPED makes the copy current for never-written pages; leaving it makes
 * the copy current for no page.
 */
int spare_copy_set_state(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 c,
			 enum spare_copy_state to);
enum spare_copy_state spare_slab_state(const struct spare_slab_map *map,
				       const struct spare_slab *slab);

/* Bitmap queries over pages [first, first + n) of one slab. */
bool spare_copy_is_current(const struct spare_copy *cp, u32 first, u32 n);
bool spare_slab_ever_written(const struct spare_slab *slab, u32 first, u32 n);
u32 spare_copy_current_pages(const struct spare_slab_map *map,
			     const struct spare_copy *cp);

/*
 * Pick a copy to read pages [first, first + n) from: MAPPED or EVICTING (the
 * donor still holds the data until we UNMAP) and current for every page.
 * Copies are tried starting at @hint, to spread reads. Returns the copy
 * index, or -ENODATA if no copy is current.
 */
int spare_slab_pick_read(const struct spare_slab_map *map,
			 const struct spare_slab *slab, u32 first, u32 n,
			 u32 hint);

/*
 * The slot to try on a read's @k-th try (k counts re-drives and fallbacks)
 * among the readable slots in @mask: the (k mod popcount)-th set bit, so
 * that successive tries go round the readable copies, whichever slots
 * (the spare one included) hold them. @mask must not be 0.
 */
static inline u32 spare_read_slot(u32 mask, u32 k)
{
	u32 c;

	k %= hweight32(mask);
	for (c = 0; c < 32; c++)
		if ((mask & (1U << c)) && !k--)
			break;
	return c;
}

/*
 * Bitmask of the copies a read of pages [first, first + n) may use: MAPPED
 * or EVICTING and current for every page.
 */
u32 spare_slab_readable_mask(const struct spare_slab_map *map,
			     const struct spare_slab *slab, u32 first, u32 n);

/*
 * A write of pages [first, first + n) starts: no copy is current for them any
 * more until the write lands on it. Returns the bitmask of MAPPED copies the
 * write must go to and stores their generations in gens[].
 */
u32 spare_slab_write_begin(const struct spare_slab_map *map,
			   struct spare_slab *slab, u32 first, u32 n,
			   u32 gens[SPARE_MAX_SLOTS]);
/*
 * The write landed on copy @c (generation @gen at begin): mark it current,
 * unless the copy changed state meanwhile (then it is current for nothing
 * the write touched). spare_slab_write_end() closes the write once every
 * copy has answered.
 */
void spare_slab_write_landed(const struct spare_slab_map *map,
			     struct spare_slab *slab, u32 c, u32 gen,
			     u32 first, u32 n);
void spare_slab_write_end(struct spare_slab *slab);

/*
 * How one RDMA operation on copy @c ended, as the request that posted it
 * settles:
 *  - SPARE_OP_DONE:     it completed successfully;
 *  - SPARE_OP_UNSENT:   it never reached the wire (not posted, or cut short
 *                       before the post), so the copy holds what it held;
 *  - SPARE_OP_COPY_FAULT: the copy broke under it (an error completion,
 *                       a flush, a failed post).
 */
enum spare_op_result {
	SPARE_OP_DONE,
	SPARE_OP_UNSENT,
	SPARE_OP_COPY_FAULT,
};

/*
 * Settle one operation of a request on copy @c (generation @gen when the
 * request began) over pages [first, first + n): a fault fails the copy; a
 * write makes the copy current only for pages it actually wrote (result
 * DONE); anything else changes nothing. Returns true when the copy moved to
 * FAILED.
 */
bool spare_slab_op_settle(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c, u32 gen,
			  u32 first, u32 n, bool write,
			  enum spare_op_result result);

/*
 * Resynchronisation: refill a MAPPED copy that is not current for pages
 * another copy is current for (it was mapped again after a failure).
 *
 * spare_slab_resync_begin() picks up to @max such pages, contiguous, with
 * one source copy current for all of them. That source being current
 * proves no write to those pages is in flight (write_begin clears every
 * copy's bits, and a write lands only when its whole request has settled).
 * The chunk is recorded on the target copy. Until spare_slab_resync_end(),
 * a write overlapping it leaves the target out (and marks the chunk dirty):
 * only the resync writes those pages of the target, so a foreground write
 * can never land there first and be overwritten with older data.
 * Returns 0 and fills @rs, or -ENOENT if the slab needs nothing.
 *
 * spare_slab_resync_end() closes the chunk; with @ok, the target becomes
 * current for it unless a write touched it or the copy changed generation.
 * Returns true if it did.
 */
struct spare_resync {
	u32 target, source;	/* copy indexes, or SPARE_RESYNC_BACKUP */
	u32 first, n;		/* pages of the slab */
};

#define SPARE_RESYNC_BACKUP	U32_MAX	/* the source is the backup device */

int spare_slab_resync_begin(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 max,
			    struct spare_resync *rs);
/*
 * The same from the backup device, for written pages no copy is current
 * for (a one-copy slab mapped again after a failure, or every copy lost):
 * only while no write is in flight in the slab, so that every write that
 * ended is on the backup (the caller also checks that no async backup
 * write of those pages is in flight). -EBUSY while writes are in flight,
 * -ENOENT if nothing needs it. Closed by spare_slab_resync_end().
 */
int spare_slab_resync_begin_backup(const struct spare_slab_map *map,
				   struct spare_slab *slab, u32 max,
				   struct spare_resync *rs);
/* Some written page current on no readable copy: the backup's alone. */
bool spare_slab_backup_only(const struct spare_slab_map *map,
			    const struct spare_slab *slab);
/* Every written page current on a copy in @slots (a mask of slots). */
bool spare_slab_written_held(const struct spare_slab_map *map,
			     const struct spare_slab *slab, u32 slots);
/*
 * Whether @slab is whole: as many MAPPED copies as the map keeps, each
 * current wherever another is, and (@backup) no written page on the backup
 * alone. A slab with writes in flight is judged by its mapped copies only
 * (their pages are stale until the writes land). *@mapped: MAPPED copies.
 * For a caller that tells when a resync is over. Under the slab's lock.
 */
enum spare_slab_gap {
	SPARE_SLAB_WHOLE,
	SPARE_SLAB_UNMAPPED,	/* fewer MAPPED copies than nr_copies */
	SPARE_SLAB_STALE,	/* a copy stale where another is current */
	SPARE_SLAB_BACKUP_ONLY,	/* a written page current on no copy */
};
enum spare_slab_gap spare_slab_gap(const struct spare_slab_map *map,
				    const struct spare_slab *slab, bool backup,
				    u32 *mapped);
bool spare_slab_resync_end(const struct spare_slab_map *map,
			   struct spare_slab *slab, const struct spare_resync *rs,
			   bool ok);

/*
 * Copy @c failed at generation @gen (an RDMA error): move it to FAILED unless
 * it already changed generation. Returns true if the state changed.
 */
bool spare_copy_fail(const struct spare_slab_map *map, struct spare_slab *slab,
		     u32 c, u32 gen);

/*
 * Page @p of copy @c (generation @gen when the read was posted) came back
 * with the wrong checksum (integrity=crc32c): the copy stops being current
 * for that page, so that no read, resync or move takes the page from it
 * and a resync refills it from a good copy or the backup. Only while some
 * other source holds the page (another readable copy current for it, or a
 * backup device: @backup): otherwise nothing could refill it, and the page
 * stays as it is (each read of it fails its check, so it is never
 * returned). Returns true if the copy was demoted for the page.
 */
bool spare_slab_page_bad(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 c, u32 gen, u32 p,
			 bool backup);

/*
 * Moving a copy (after an EVICT, while the donor still serves it):
 *
 * spare_slab_move_begin() puts copy @from's slab on donor @to in the spare
 * slot (state UNMAPPED, for the caller's MAP) and returns that slot, or
 * -EBUSY when no slot is free, -EEXIST when @to holds a copy of the slab
 * already, -EINVAL when @from is not MAPPED. @from stays MAPPED: writes
 * keep landing on it, and once the new copy is MAPPED they land on both,
 * while resync fills the new copy from the old one.
 *
 * spare_slab_move_ready() says whether the new copy @to_slot holds every
 * page the old one @from is current for, with no write in flight in the
 * slab (a write that began before the new copy was mapped would land on
 * the old copy only).
 *
 * spare_slab_move_release() takes @from out of use once the caller has
 * decided it goes (ready, or out of time): EVICTING with no page current,
 * so that no new read picks it while operations already posted to it
 * drain. spare_slab_slot_free() then empties the slot (UNMAPPED, no
 * donor) after the caller sent UNMAP; it is the new spare slot.
 *
 * spare_slab_move_abort() gives up a move whose new copy never got mapped:
 * the spare slot is emptied again (only from UNMAPPED; false otherwise).
 */
int spare_slab_move_begin(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 from, u32 to);
bool spare_slab_move_ready(const struct spare_slab_map *map,
			   const struct spare_slab *slab, u32 from, u32 to_slot);
int spare_slab_move_release(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 from);
void spare_slab_slot_free(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c);
/*
 * spare_slab_slot_take() puts a new, empty copy of the slab on donor @to
 * in the first slot that names no donor (UNMAPPED, its generation moved,
 * for the caller's MAP) and returns that slot: spare_slab_move_begin()'s
 * last step, without a source copy. -EEXIST when @to holds a copy of the
 * slab already, -EINVAL when @to is no donor of the map, -EBUSY when no
 * empty slot is idle.
 */
int spare_slab_slot_take(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 to);
bool spare_slab_move_abort(const struct spare_slab_map *map,
			   struct spare_slab *slab, u32 to_slot);
/*
 * A donor that holds our slabs over a session's end (it answered HELLO
 * F_HOLD with a resume token; spared restarted in place keeps them):
 *
 * spare_slab_map_hold() says so for donor @donor (@on), or that it no
 * longer does (its hold passed, or its new session gave no token). The
 * caller writes it from one context; set_state reads it under a slab's
 * lock.
 *
 * When a MAPPED copy on such a donor fails, the pages it was current for
 * are remembered in its kept_map (->kept), less every page written since
 * (spare_slab_write_begin() clears them there too; a write of the failed
 * session that landed before the failure sets them again as it settles).
 * spare_copy_has_kept() tells the I/O path that the copy may come back
 * with those pages: a request that found no copy to serve it waits
 * instead of failing. When the copy is MAPPED again and the donor says it
 * kept the slab (MAPPED F_KEPT), spare_copy_adopt_kept() makes it current
 * for them (no resync) and returns how many; any other answer, a hold that
 * passed, or a move of the slot forgets them (spare_copy_forget_kept()).
 */
void spare_slab_map_hold(struct spare_slab_map *map, u32 donor, bool on);
bool spare_copy_has_kept(const struct spare_copy *cp);
u32 spare_copy_adopt_kept(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c);
void spare_copy_forget_kept(struct spare_copy *cp);

/*
 * The slot of @slab holding a copy on @donor, or -1. Safe without the slab
 * lock (a slot's donor changes only under it, by a move); recheck under it.
 */
int spare_slab_donor_slot(const struct spare_slab_map *map,
			  const struct spare_slab *slab, u32 donor);

/*
 * Whether donor @to's failure domain holds no copy of @slab but the one on
 * donor @from (the copy being moved away; SPARE_NO_DONOR: none). @domain
 * gives the domain number of donors 0 .. @nr_domain - 1; a donor beyond
 * them (one appended to a running device without a domain) and every donor
 * when @domain is NULL is its own domain.
 */
bool spare_slab_domain_fresh(const struct spare_slab_map *map,
			     const struct spare_slab *slab, const u16 *domain,
			     u32 nr_domain, u32 to, u32 from);

/*
 * Where a moved copy goes: one candidate per donor of the device.
 * @ok: live, holds no copy of the slab, not asked yet for this move.
 * @fresh: its failure domain holds no other copy of the slab.
 * @load: slab copies it holds. @room: how many more slabs the device's
 * unexpired grants for it cover (cover - load, may be <= 0), or
 * SPARE_ROOM_OPEN when the device holds no grant for it (a donor without a
 * grant key, or none written).
 */
#define SPARE_ROOM_OPEN	S64_MAX
struct spare_move_cand {
	bool ok;
	bool fresh;
	u32 load;
	s64 room;
};

/*
 * The donor a move asks first, or -1 if no candidate is @ok: those whose
 * grants have room (or who need none) before those whose grants are used
 * up (a grant-only donor refuses the MAP until a new grant comes), then
 * those in a fresh failure domain, then the fewest copies, then the lowest
 * index. *@roomy (if not NULL) says whether the pick has room: false tells
 * the caller to ask for a grant.
 */
int spare_move_pick(const struct spare_move_cand *c, u32 n, bool *roomy);

#endif /* SPARE_SLAB_H */
