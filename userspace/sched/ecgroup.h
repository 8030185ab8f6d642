/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coding groups for erasure-coded devices (CodingSets, after Hydra, FAST'22):
 * the donors are split into a bounded number of disjoint groups of K+R
 * donors, each group in K+R distinct failure domains, and the K+R splits of
 * a stripe always land on one group. With random placement every set of
 * K+R donors in distinct domains ends up holding some stripe, so any R+1
 * failures in distinct domains lose data; with groups only R+1 failures
 * inside one group do (Documentation/ec-placement.md has the numbers).
 *
 * One implementation for spare-broker (bstate_stripe()) and the simulator
 * (spare-sim ecsim). Pure: the caller owns every array; nothing is
 * allocated.
 */
#ifndef SPARE_SCHED_ECGROUP_H
#define SPARE_SCHED_ECGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "place.h"
#include "spare_rng.h"

/* The widest group: K+R with K <= 8 and R <= 2 (redundancy=ec:K+R). */
#define EC_GROUP_MAX_WIDTH	10

struct ec_member {
	uint64_t	key;	/* a stable order within a domain (a hash of the id) */
	uint32_t	domain;	/* failure domain */
};

/* uint32_t entries of scratch ec_groups_build() needs for @n donors. */
static inline size_t ec_groups_scratch(size_t n)
{
	return 4 * n;
}

/*
 * The most disjoint groups of @width donors in distinct domains that
 * members[0..n) can form: the largest G <= n / width with
 * sum over domains of min(donors in it, G) >= G * width.
 */
size_t ec_groups_max(const struct ec_member *members, size_t n, unsigned int width,
		     uint32_t *scratch);

/*
 * Build the groups: as many as ec_groups_max(), each of @width donors in
 * distinct domains, disjoint. Group g's members are out[g * width ..
 * g * width + width) (indices into members[]); out holds n entries.
 * Deterministic: the same members (in any order of their keys) give the
 * same groups. Donors left over (fewer than a group's worth, or in a
 * domain that already has one donor in every group) are in no group.
 * The domains that give donors first are the largest, and within a domain
 * the donors with the lowest keys.
 * Returns the number of groups (0 when fewer than @width domains), or
 * -EINVAL (@width 0 or above EC_GROUP_MAX_WIDTH, n above UINT32_MAX).
 */
long ec_groups_build(const struct ec_member *members, size_t n, unsigned int width,
		     uint32_t *scratch, uint32_t *out);

/*
 * One group for a stripe: among the groups whose every member has a free
 * slab in donors[] (indexed as members[] were), two drawn uniformly, and
 * the one whose fullest member has more free slabs wins (the lower index
 * on a tie). scratch holds ngroups entries. Returns the group's index, or
 * -ENOSPC (no group has a free slab on every member) or -EINVAL.
 */
long ec_group_pick(const uint32_t *groups, size_t ngroups, unsigned int width,
		   const struct place_donor *donors, struct spare_rng *rng, uint32_t *scratch);

#endif /* SPARE_SCHED_ECGROUP_H */
