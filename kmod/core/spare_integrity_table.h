/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integrity (integrity=crc32c in spare.ko, --integrity crc32c in the
 * pager), the part both drivers share: the table of checksums kept in the
 * client's own memory, the verdict on a checksum read back, the decision
 * after a bad read (another copy, the backup, or EIO), a bad split of an
 * erasure-coded page treated as missing, and "logged once per slab".
 *
 * The drivers compute the CRC-32C (the kernel's crypto API, ISA-L in the
 * pager) and feed it here. One checksum per device page for copies, one
 * per split of a page (K + R of them) for an erasure-coded device: entry
 * page * per_page + j. A stored 0 means "never written": such an entry is
 * not checked, and a CRC that comes out 0 is stored as 1 on both sides.
 *
 * Entries are read and written with READ_ONCE()/WRITE_ONCE(), no lock:
 * the block layer does not run a read and a write of one page at once.
 */
#ifndef SPARE_INTEGRITY_TABLE_H
#define SPARE_INTEGRITY_TABLE_H

#include <linux/types.h>

struct spare_ec_map;
struct spare_ec_group;

struct spare_crc_table {
	u32 *crc;		/* nr_pages * per_page entries */
	unsigned long *logged;	/* a bit per slab (group): a mismatch logged */
	u64 nr_pages;
	u32 per_page;		/* 1 (copies) or K + R (splits) */
	u32 unit_shift;		/* log2 of the pages of a slab (group) */
	u32 nr_units;
};

/**
 * spare_crc_table_init() - checksums of @nr_pages pages, @per_page each
 * @unit_shift: log2 of the pages a mismatch is logged once for (a slab,
 *	or a coding group)
 *
 * Return: 0, -EINVAL (no pages, 0 or more than 16 per page, a shift past
 * 40), -ENOMEM.
 */
int spare_crc_table_init(struct spare_crc_table *t, u64 nr_pages,
			 u32 per_page, u32 unit_shift);
void spare_crc_table_free(struct spare_crc_table *t);

/* Bytes the table keeps in memory (for the driver's start-up line). */
static inline u64 spare_crc_table_bytes(const struct spare_crc_table *t)
{
	return t->nr_pages * t->per_page * sizeof(u32);
}

/* The value stored for a computed CRC: 0 is "never written". */
static inline u32 spare_crc_stored(u32 crc)
{
	return crc ? crc : 1;
}

/* Record the checksum of entry @j of page @page (a write being sent). */
void spare_crc_set(struct spare_crc_table *t, u64 page, u32 j, u32 crc);

enum spare_crc_verdict {
	SPARE_CRC_UNCHECKED,	/* never written (or out of range): no check */
	SPARE_CRC_OK,
	SPARE_CRC_BAD,		/* the bytes read back are not those written */
};

/* Entry @j of page @page came back with checksum @crc. */
enum spare_crc_verdict spare_crc_check(const struct spare_crc_table *t,
				       u64 page, u32 j, u32 crc);

/*
 * Whether this mismatch on @page is the first of its slab (or group): the
 * driver logs it then, and only counts the later ones.
 */
bool spare_crc_log_first(struct spare_crc_table *t, u64 page);

enum spare_bad_next {
	SPARE_BAD_OTHER_COPY,	/* read it again from another copy */
	SPARE_BAD_BACKUP,	/* every copy was bad: the backup device */
	SPARE_BAD_EIO,		/* no good source is left: an I/O error */
};

/**
 * spare_integrity_next() - where a read goes after a bad page
 * @bad_reads: reads of the request that failed their check so far
 * @nr_copies: the device's copies
 * @backup: the page is on a backup device
 * @from_backup: the bad read came from the backup (the last source)
 */
enum spare_bad_next spare_integrity_next(u32 bad_reads, u32 nr_copies,
					 bool backup, bool from_backup);

/**
 * spare_ec_split_bad() - split @j of page @p of @grp failed its check
 *
 * The split stops being current for the page and is flagged for repair
 * (which rebuilds it by a decode from K others), as a lost split's pages
 * are; only while K other splits of the page are current and not lost:
 * otherwise nothing could rebuild it, and it stays as it is (each read of
 * it fails its check, so it is never used). The caller holds the group's
 * lock.
 *
 * Return: whether the split was demoted for the page.
 */
bool spare_ec_split_bad(const struct spare_ec_map *m,
			struct spare_ec_group *grp, u32 j, u32 p);

/* Pages of one split a check takes at once (a bit each in its answer). */
#define SPARE_EC_CHECK_PAGES	64

/* The driver's CRC-32C of @len bytes at @buf (@ctx: its own state). */
typedef u32 (*spare_crc32c_fn)(void *ctx, const void *buf, u32 len);

/**
 * spare_ec_split_verify() - split @j of pages [@first, @first + @n) of
 * coding group @g, read back into @buf (@sb bytes a page, one after the
 * other), against its checksums
 * @crc32c: computes each split page's CRC-32C (@ctx handed to it)
 *
 * No lock: the entries of pages being read are not written meanwhile. At
 * most SPARE_EC_CHECK_PAGES pages: the drivers' extents and repair ranges
 * are no longer (they assert it).
 *
 * Return: the pages that do not match, bit i for page @first + i (pages
 * never written are not checked); 0 when all match.
 */
u64 spare_ec_split_verify(const struct spare_crc_table *t,
			  const struct spare_ec_map *m, u32 g, u32 j,
			  u32 first, u32 n, const void *buf, u32 sb,
			  spare_crc32c_fn crc32c, void *ctx);

/**
 * spare_ec_split_set() - page @p of coding group @g written: the checksum
 * of each of its K + R splits, as sent
 * @split: split j's @sb bytes at @split[j], j < K + R
 * @crc32c: computes each split's CRC-32C (@ctx handed to it)
 *
 * The entries spare_ec_split_verify() checks a read back against. No lock:
 * a write of the page is the only one in flight (the drivers order them).
 */
void spare_ec_split_set(struct spare_crc_table *t,
			const struct spare_ec_map *m, u32 g, u32 p,
			void *const *split, u32 sb, spare_crc32c_fn crc32c,
			void *ctx);

/* What the driver logs of a split's bad pages (spare_ec_split_demote()). */
struct spare_ec_bad_log {
	bool log;	/* the group's first mismatch: log it, else stay quiet */
	bool demoted;	/* ... and that page was demoted (it is rebuilt) */
	u32 page;	/* ... its page in the group */
};

/**
 * spare_ec_split_demote() - split @j's pages @bad (from
 * spare_ec_split_verify() of pages from @first) treated as missing
 *
 * Each is spare_ec_split_bad(): no longer current, flagged for repair,
 * while K other splits of it are current. The caller holds group @g's
 * lock, counts the bad pages (hweight64(@bad)) and, when @log->log, logs
 * @log->page once (once per group: spare_crc_log_first()).
 *
 * Return: the pages demoted (the driver's repair rebuilds them).
 */
u32 spare_ec_split_demote(struct spare_crc_table *t,
			  const struct spare_ec_map *m,
			  struct spare_ec_group *grp, u32 g, u32 j, u32 first,
			  u64 bad, struct spare_ec_bad_log *log);

#endif /* SPARE_INTEGRITY_TABLE_H */
