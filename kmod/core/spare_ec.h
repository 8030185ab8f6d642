/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Erasure coding of a 4 KiB page (issue 34): the split layout, the
 * redundancy=ec:K+R option and the codec, one source for spare.ko, KUnit
 * and spare-ublk (libspare). Documentation/erasure-coding.md.
 *
 * A page is cut into K data splits of 4096/K bytes (split i is bytes
 * [i * 4096/K, (i + 1) * 4096/K) of the page) and R parity splits of the
 * same size: split K is P, the XOR of the data splits; split K + 1 (R = 2)
 * is Q, the RAID-6 Reed-Solomon syndrome over GF(2^8) with polynomial
 * 0x11d and generator 2, Q = sum of 2^i * D_i, as the kernel's lib/raid6
 * computes it. Any K of the K + R splits give the page back.
 *
 * The coding calls (spare_ec_code.c) are the kernel's own libraries:
 * raid6_pq's raid6_call.gen_syndrome, raid6_2data_recov and
 * raid6_datap_recov, and the xor module's xor_blocks. Built for userspace,
 * the kernel-call shim (userspace/lib/kshim/linux/raid/) maps those calls
 * onto ISA-L. spare.ko links the option and the check (spare_ec.c) only,
 * until its I/O path codes pages.
 */
#ifndef SPARE_EC_H
#define SPARE_EC_H

#include <linux/types.h>

#define SPARE_EC_PAGE		4096
#define SPARE_EC_MAX_K		8
#define SPARE_EC_MAX_R		2
#define SPARE_EC_MAX_SPLITS	(SPARE_EC_MAX_K + SPARE_EC_MAX_R)
/* The longest "ec:K+R" spare_ec_format() writes, with its NUL. */
#define SPARE_EC_NAME_MAX	8

/*
 * A device's redundancy: k == 0 is none (the device keeps whole-page
 * copies, replicas=N); else K data and R parity splits per page.
 */
struct spare_ec_geom {
	u8 k;
	u8 r;
};

static inline bool spare_ec_on(const struct spare_ec_geom *g)
{
	return g->k != 0;
}

/* K is 2, 4 or 8 and R is 1 or 2. */
static inline bool spare_ec_geom_valid(const struct spare_ec_geom *g)
{
	return (g->k == 2 || g->k == 4 || g->k == 8) &&
	       (g->r == 1 || g->r == 2);
}

/* Bytes in one split of a page. */
static inline u32 spare_ec_split_bytes(const struct spare_ec_geom *g)
{
	return SPARE_EC_PAGE / g->k;
}

/* Splits per page, data and parity. */
static inline u32 spare_ec_splits(const struct spare_ec_geom *g)
{
	return (u32)g->k + g->r;
}

/**
 * spare_ec_parse() - read a redundancy setting
 * @s: "none" or "ec:K+R", one trailing newline allowed (a configfs write)
 * @len: bytes of @s
 * @g: the geometry read; unchanged on error
 * @why: on error, what is wrong, for the caller's message
 *
 * Return: 0, or -EINVAL with @why set: K must be 2, 4 or 8 (a 4 KiB page
 * in equal splits of at least 512 bytes), R must be 1 or 2.
 */
int spare_ec_parse(const char *s, size_t len, struct spare_ec_geom *g,
		   const char **why);

/* "none" or "ec:K+R" into @buf of @size bytes; returns its length. */
int spare_ec_format(const struct spare_ec_geom *g, char *buf, size_t size);

/**
 * spare_ec_check() - whether a device's settings allow its redundancy
 * @g: the device's redundancy
 * @replicas: its replicas= setting
 * @nr_donors: donors the device has at power-on
 * @nr_domains: distinct failure domains among them, 0 if it has none
 *	(1, every donor in one domain, is as none: distinct donors are what
 *	can be had, as where a broker names one domain for all)
 * @why: a message naming what is wrong or missing
 * @size: bytes of @why
 *
 * Each of a page's K + R splits lives on a distinct donor and, where the
 * device has failure domains, in a distinct domain; and whole-page copies
 * do not combine with splits.
 *
 * Return: 0, or -EINVAL with @why written.
 */
int spare_ec_check(const struct spare_ec_geom *g, u32 replicas, u32 nr_donors,
		   u32 nr_domains, char *why, size_t size);

/* The codec: spare_ec_code.c. */

/**
 * spare_ec_encode() - compute a page's parity splits
 * @g: the geometry (spare_ec_on())
 * @page: the 4 KiB page, its data splits in place, 64-byte aligned
 * @parity: @g->r buffers of spare_ec_split_bytes() bytes, 64-byte aligned
 *
 * Return: 0, or -EINVAL for a geometry spare_ec_parse() does not give.
 */
int spare_ec_encode(const struct spare_ec_geom *g, void *page, void **parity);

/**
 * spare_ec_recover() - rebuild a page's missing splits from the others
 * @g: the geometry
 * @splits: K + R buffers of spare_ec_split_bytes() bytes, 64-byte aligned:
 *	data splits 0..K-1, then P, then Q. The missing ones are written.
 * @missing: bit i set when split i is missing
 *
 * Any K present splits rebuild the page exactly. Present parity splits
 * may be written again with the bytes they hold (the kernel's recovery
 * routines regenerate P with the data).
 *
 * Return: 0; -EIO, touching nothing, when more than R splits are missing
 * (the page is lost: never wrong data); -EINVAL for a bad geometry or a
 * bit beyond K + R.
 */
int spare_ec_recover(const struct spare_ec_geom *g, void **splits,
		     unsigned long missing);

#endif /* SPARE_EC_H */
