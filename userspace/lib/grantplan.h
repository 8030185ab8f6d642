/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From a broker's grants to a device's configfs strings, for
 * `sparectl device create ... broker=...` (and to spare-ublk's donors and
 * placement, from its --grant-file): the `donors` list (each grant's
 * donor_addr, distinct, in order of first appearance), the `placement`
 * list (slab-major, `copies` donor indices per slab) and the `domains`
 * list (one failure-domain number per donor). And for `sparectl device
 * monitor`, where a copy being moved should go. Pure: no I/O, no
 * allocation, no logging; tested in tests/unit/test_grantplan.c.
 */
#ifndef SPARE_GRANTPLAN_H
#define SPARE_GRANTPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "broker_proto.h"
#include "spare_grant_lib.h"

/* One configfs write: at most 4095 bytes of text, so 4096 with the NUL. */
#define GRANTPLAN_ATTR_MAX	4096
/* Donors one device can list (kmod/spare_slab.h SPARE_MAX_DONORS). */
#define GRANTPLAN_MAX_DONORS	8
/* Failure-domain numbers in configfs `domains`: 0 .. GRANTPLAN_MAX_DOMAIN. */
#define GRANTPLAN_MAX_DOMAIN	63

/* Entries a placement can have: one digit and a comma each. */
#define GRANTPLAN_MAX_ENTRIES	(GRANTPLAN_ATTR_MAX / 2)

struct grantplan {
	char		donors[GRANTPLAN_ATTR_MAX];	/* "a:p,b:p,..." */
	char		placement[GRANTPLAN_ATTR_MAX];	/* "0,1,1,2,..." */
	char		domains[4 * GRANTPLAN_MAX_DONORS];	/* "0,0,1", or "" */
	unsigned int	ndonors;
	/* the placement as numbers: donor index of entry k (spare-ublk's) */
	uint8_t		where[GRANTPLAN_MAX_ENTRIES];
	uint32_t	nwhere;
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
 * The `domains` string of a plan that grantplan_build() made from the same
 * @n grants @g: @label[i] is the failure-domain label (BROKER_DOMAIN_LEN
 * bytes, NUL padded) of grant i's donor, as the broker sent it. The
 * distinct labels are numbered 0, 1, 2, ... in the order the donors list
 * first shows them, and @p->domains gets one number per donor, in the
 * order of @p->donors: donors A,B,C in "rack-1", "rack-1", "rack-2" give
 * "0,0,1". Refused (-1, reason in @why, @p->domains ""): a label that is
 * empty or not NUL terminated, a donor under two labels, or grants that
 * do not match @p. 0 on success.
 */
int grantplan_domains(const struct spare_grant_info *g, const char (*label)[BROKER_DOMAIN_LEN],
		      size_t n, struct grantplan *p, char *why, size_t whylen);

/*
 * Renewal: how many slab copies each donor holds, from the device's
 * @placement ("" for the kernel's round robin: copy c of slab s on donor
 * (s + c) mod @ndonors) into @count[0 .. @ndonors). 0, or -1 with the
 * reason in @why (wrong number of entries, an index out of range).
 */
int grantplan_counts(const char *placement, uint32_t slabs, unsigned int copies,
		     unsigned int ndonors, uint32_t *count, char *why, size_t whylen);

/*
 * A device's configfs `domains` (@text, trailing newline cut) as one
 * failure-domain number per donor into @dom[0 .. @nd): numbers 0 ..
 * GRANTPLAN_MAX_DOMAIN separated by commas or blanks, exactly @nd of them.
 * "" (the default) means every donor is its own domain: @dom[i] = i.
 * 0, or -1 with the reason in @why.
 */
int grantplan_parse_domains(const char *text, unsigned int nd, uint8_t *dom, char *why,
			    size_t whylen);

/*
 * The donors (bit mask, of @nd, with domains @dom) that share a failure
 * domain with any donor in the bit mask @holders: those in @holders too.
 */
uint32_t grantplan_domain_mask(const uint8_t *dom, unsigned int nd, uint32_t holders);

/*
 * Where the copy of a slab being moved should go, for `device monitor` on
 * the kernel's slab_moving uevent (no donor's grants had room for it): of
 * @nd donors, not in the bit mask @skip (the evicting donor, those holding
 * a copy of the slab, those a broker would not renew), one not in the bit
 * mask @crowded (a donor whose failure domain holds another copy of the
 * slab: grantplan_domain_mask() of the donors that keep one) if any is
 * left, and of those the one holding the fewest copies (@count), the
 * lowest index on a tie. -1 if none is left.
 */
int grantplan_move_target(const uint32_t *count, unsigned int nd, uint32_t skip,
			  uint32_t crowded);

/*
 * The failure-domain number for a donor appended to a running device
 * (`device monitor`, a copy moving to a donor the device did not use),
 * whose broker label is @label: the number of a donor of the device with
 * the same label (@labels[i], "" where not known; @dom[i] its number), else
 * one more than the largest number in use. -1 if that would pass
 * @max_number (the module takes 0 .. SPARE_MAX_DONORS - 1) or @label is
 * empty or unterminated.
 */
int grantplan_domain_for(const uint8_t *dom, const char (*labels)[BROKER_DOMAIN_LEN],
			 unsigned int nd, const char *label, unsigned int max_number);

#endif /* SPARE_GRANTPLAN_H */
