/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the split slabs of an erasure-coded device live (issue 34), pure
 * logic for spare.ko's split table, KUnit and the host test. A device of
 * ec:K+R in split slabs of 2^slab_shift bytes has
 * spare_ec_nr_groups() coding groups; group g holds K * 2^slab_shift bytes
 * of the device in K + R split slabs, numbered g * (K + R) + j for split j,
 * group-major, as sparectl hands the broker's grants over (grant
 * g * (K + R) + j is split j of group g). Documentation/erasure-coding.md.
 */
#ifndef SPARE_EC_PLACE_H
#define SPARE_EC_PLACE_H

#include <linux/types.h>

#include "spare_ec.h"

/* Coding groups of a device of @size bytes, split slabs of 2^@shift bytes. */
static inline u32 spare_ec_nr_groups(const struct spare_ec_geom *g, u64 size,
				     u8 shift)
{
	u64 group = (u64)g->k << shift;

	return (u32)((size + group - 1) / group);
}

/* Distinct values among @domain[0..@n), 0 for none (@domain NULL). */
u32 spare_ec_nr_domains(const u16 *domain, u32 n);

/**
 * spare_ec_place() - the donor of every split slab, group-major
 * @g: the geometry (spare_ec_geom_valid())
 * @nr_groups: coding groups
 * @nr_donors: donors of the device
 * @domain: failure domain per donor, or NULL
 * @out: nr_groups * (K + R) donor indices: split j of group g at
 *	g * (K + R) + j
 *
 * Group g takes distinct donors from donor g mod @nr_donors on, round the
 * table, so that groups spread over all donors. Where the donors are in
 * more than one domain, a donor whose domain a split of the group holds
 * already is skipped; in one domain (or none given) distinct donors are
 * enough.
 *
 * Return: 0; -EINVAL, @out partly written, when a group finds fewer than
 * K + R donors (or domains) to take.
 */
int spare_ec_place(const struct spare_ec_geom *g, u32 nr_groups,
		   u32 nr_donors, const u16 *domain, u16 *out);

/**
 * spare_ec_place_check() - whether a given placement is one spare_ec_place()
 *	could accept
 * @place: @n donor indices, group-major (configfs "placement")
 * @bad: on -EINVAL, the first group that is wrong, or U32_MAX when @n is
 *	not nr_groups * (K + R)
 *
 * Return: 0 when every index is below @nr_donors and each group's splits
 * are on distinct donors, and in distinct domains where the donors are in
 * more than one; -EINVAL otherwise.
 */
int spare_ec_place_check(const struct spare_ec_geom *g, u32 nr_groups,
			 u32 nr_donors, const u16 *domain, const u16 *place,
			 u32 n, u32 *bad);

/**
 * spare_ec_rehome_pick() - the donor a split slab goes to when its donor
 *	stays down (or evicted it): spare.ko's rehome work and the pager's
 *	lifecycle thread, Documentation/erasure-coding.md, "Re-home"
 * @g: the geometry (spare_ec_geom_valid())
 * @nr_donors: donors of the device (at most 32)
 * @domain: failure domain per donor, or NULL
 * @group: the donor of each of the group's K + R splits now
 * @j: the split that goes
 * @gone: splits of the group whose slab is gone with its donor (lost and
 *	not mapped elsewhere yet): their donors and domains hold nothing of
 *	the group any more; split @j counts as gone whatever @gone says
 * @ok: a bit per donor that may take it: the caller's part (live; not the
 *	donor that evicted it)
 * @load: split slabs each donor holds now, or NULL
 *
 * The donor holds no other split of the group (gone ones aside) and,
 * where the donors are in more than one failure domain, is in a domain
 * none of the group's other splits uses, as spare_ec_place() places a
 * group. The split's own donor (@group[@j]) first, when @ok allows it
 * (live again, not its evictor): a donor back keeps its split, so the
 * group stays where it was placed (a broker's coding groups too).
 * Otherwise the one holding the fewest split slabs; the lowest index on
 * a tie.
 *
 * Return: the donor's index; -ENOENT when no donor may take it (the
 * split waits, its pages decoded from the others); -EINVAL for a bad
 * geometry, @j or @nr_donors.
 */
int spare_ec_rehome_pick(const struct spare_ec_geom *g, u32 nr_donors,
			 const u16 *domain, const u32 *group, u32 j, u16 gone,
			 u32 ok, const u32 *load);

/**
 * spare_ec_rehome_pick_granted() - spare_ec_rehome_pick() for a device
 *	that lends under a broker's grants: only a donor it holds a grant
 *	for, one with room in its grants first
 * @cover: slabs the device's unexpired grants cover on each donor (0 for
 *	a donor it holds none for), or NULL when the device runs without
 *	grants (then as spare_ec_rehome_pick(), *@roomy true)
 * @held: split slabs each donor holds for the device now, every slot
 *	counted (a moving split's new slab too); also the pick's load
 * @roomy: set true when the donor's grants cover one more split slab
 *	(@cover above @held), false when the pick had to take a granted
 *	donor whose grants are used up: its MAP is refused until the broker
 *	gives room there (sparectl device monitor asks for it, counting the
 *	slab on that donor)
 *
 * A donor the device holds no grant for is never taken: a donor that
 * lends only against grants refuses its MAP, and nothing would ask the
 * broker for room there.
 *
 * Return: the donor's index; -ENOSPC when a donor would fit the group
 * but the device holds no grant on any of those (the split waits,
 * decoded around); otherwise as spare_ec_rehome_pick().
 */
int spare_ec_rehome_pick_granted(const struct spare_ec_geom *g, u32 nr_donors,
				 const u16 *domain, const u32 *group, u32 j,
				 u16 gone, u32 ok, const u32 *held,
				 const u32 *cover, bool *roomy);

/**
 * spare_ec_wait_donor() - whether a lost split waits for a donor the
 *	device does not have, and whether that is news to tell
 * @waiting: the split's wait: 0 while none, else the @since it began at;
 *	updated
 * @pick: spare_ec_rehome_pick_granted()'s answer for it
 * @granted: the device lends under a broker's grants (there is a broker
 *	to ask for a donor: sparectl device monitor, MOVE_REQ)
 * @since: when its donor went down (ms, not 0): a new loss is a new wait
 *
 * It waits when, under grants, no donor fits the group (-ENOENT) or only
 * donors the device holds no grant for do (-ENOSPC). Said once per wait,
 * not on every retry of the re-home: spare.ko's slab_moving uevent.
 *
 * Return: true when the split begins to wait (tell userspace).
 */
bool spare_ec_wait_donor(u64 *waiting, int pick, bool granted, u64 since);

/* The version of a "moving" line, its first field; fields only appended */
#define SPARE_MOVING_VERSION	1

/**
 * spare_moving_line() - one line of a device's list of what waits for a
 *	donor the device does not have: spare.ko's
 *	/sys/block/spareN/spare/moving and spare-ublk's NAME.moving, which
 *	sparectl device monitor reads every round to ask a broker for one
 *	(MOVE_REQ)
 * @buf: where it goes, with a newline
 * @len: its size (96 bytes hold any line with a donor name of 63)
 * @slab: the slab (an ec device's split slab) that waits
 * @donor: the index of the donor it was lost on, or that evicts it
 * @addr: that donor's address, "host:port" (no blanks)
 *
 * "version slab donor-index host:port\n".
 *
 * Return: the characters written (as snprintf()).
 */
int spare_moving_line(char *buf, size_t len, u32 slab, u32 donor,
		      const char *addr);

#endif /* SPARE_EC_PLACE_H */
