/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From a broker's grants to a device's configfs strings, for
 * `sparectl device create ... broker=...`: the `donors` list (each grant's
 * donor_addr, distinct, in order of first appearance) and the `placement`
 * list (slab-major, `copies` donor indices per slab). Pure: no I/O, no
 * allocation, no logging; tested in tests/unit/test_grantplan.c.
 */
#ifndef SPARECTL_GRANTPLAN_H
#define SPARECTL_GRANTPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "spare_grant_lib.h"

/* One configfs write: at most 4095 bytes of text, so 4096 with the NUL. */
#define GRANTPLAN_ATTR_MAX	4096
/* Donors one device can list (kmod/spare_slab.h SPARE_MAX_DONORS). */
#define GRANTPLAN_MAX_DONORS	8

struct grantplan {
	char		donors[GRANTPLAN_ATTR_MAX];	/* "a:p,b:p,..." */
	char		placement[GRANTPLAN_ATTR_MAX];	/* "0,1,1,2,..." */
	unsigned int	ndonors;
};

/*
 * Slabs of a device of @size bytes in slabs of @slab_size: size / slab_size
 * rounded up. 0 if either is 0 or the count does not fit 32 bits.
 */
uint32_t grantplan_nr_slabs(uint64_t size, uint64_t slab_size);

/* Slabs per GRANT_REQ for @copies copies within the broker's limits (0 if
 * @copies is 0 or above BROKER_MAX_COPIES). */
unsigned int grantplan_batch_slabs(unsigned int copies);

/*
 * Can a device of @slabs slabs x @copies copies be placed by one
 * `placement` write and asked of a broker at all? Checked before asking:
 * 0, or -1 with the reason in @why.
 */
int grantplan_check(uint32_t slabs, unsigned int copies, char *why, size_t whylen);

/*
 * Build @p from @n decoded grants, slab-major (grant s * copies + c is
 * copy c of slab s). Refused (-1, reason in @why): n != slabs * copies,
 * a grant for no slab, an empty or unlistable donor_addr (a ',', blank
 * or control character in it), one address under two donor ids, two
 * copies of a slab on one donor, more than @max_donors donors (at most
 * GRANTPLAN_MAX_DONORS), or a string that would not fit one configfs
 * write. 0 on success.
 */
int grantplan_build(const struct spare_grant_info *g, size_t n, uint32_t slabs,
		    unsigned int copies, unsigned int max_donors, struct grantplan *p,
		    char *why, size_t whylen);

/*
 * Renewal: how many slab copies each donor holds, from the device's
 * @placement ("" for the kernel's round robin: copy c of slab s on donor
 * (s + c) mod @ndonors) into @count[0 .. @ndonors). 0, or -1 with the
 * reason in @why (wrong number of entries, an index out of range).
 */
int grantplan_counts(const char *placement, uint32_t slabs, unsigned int copies,
		     unsigned int ndonors, uint32_t *count, char *why, size_t whylen);

/*
 * Where the copy of a slab being moved should go, for `device monitor` on
 * the kernel's slab_moving uevent (no donor's grants had room for it): of
 * @nd donors, not in the bit mask @skip (the evicting donor, those holding
 * a copy of the slab, those a broker would not renew), the one holding the
 * fewest copies (@count), the lowest index on a tie. -1 if none is left.
 */
int grantplan_move_target(const uint32_t *count, unsigned int nd, uint32_t skip);

#endif /* SPARECTL_GRANTPLAN_H */
