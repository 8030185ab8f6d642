// SPDX-License-Identifier: GPL-2.0
/*
 * Integrity's shared part: the checksum table, the verdicts and the
 * decisions after a bad read (spare_integrity_table.h).
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "spare_ec_io.h"
#include "spare_integrity_table.h"

int spare_crc_table_init(struct spare_crc_table *t, u64 nr_pages,
			 u32 per_page, u32 unit_shift)
{
	u64 units;

	memset(t, 0, sizeof(*t));
	if (!nr_pages || !per_page || per_page > 16 || unit_shift > 40)
		return -EINVAL;
	units = ((nr_pages - 1) >> unit_shift) + 1;
	if (units > U32_MAX)
		return -EINVAL;
	t->crc = kvcalloc(nr_pages * per_page, sizeof(u32), GFP_KERNEL);
	t->logged = bitmap_zalloc((unsigned int)units, GFP_KERNEL);
	if (!t->crc || !t->logged) {
		spare_crc_table_free(t);
		return -ENOMEM;
	}
	t->nr_pages = nr_pages;
	t->per_page = per_page;
	t->unit_shift = unit_shift;
	t->nr_units = (u32)units;
	return 0;
}

void spare_crc_table_free(struct spare_crc_table *t)
{
	kvfree(t->crc);
	bitmap_free(t->logged);
	t->crc = NULL;
	t->logged = NULL;
	t->nr_pages = 0;
}

void spare_crc_set(struct spare_crc_table *t, u64 page, u32 j, u32 crc)
{
	if (page < t->nr_pages && j < t->per_page)
		WRITE_ONCE(t->crc[page * t->per_page + j], spare_crc_stored(crc));
}

/* The stored value of entry @j of @page: 0 if never written or out of range. */
static u32 crc_want(const struct spare_crc_table *t, u64 page, u32 j)
{
	if (!t->crc || page >= t->nr_pages || j >= t->per_page)
		return 0;
	return READ_ONCE(t->crc[page * t->per_page + j]);
}

enum spare_crc_verdict spare_crc_check(const struct spare_crc_table *t,
				       u64 page, u32 j, u32 crc)
{
	u32 want = crc_want(t, page, j);

	if (!want)
		return SPARE_CRC_UNCHECKED;
	return spare_crc_stored(crc) == want ? SPARE_CRC_OK : SPARE_CRC_BAD;
}

bool spare_crc_log_first(struct spare_crc_table *t, u64 page)
{
	if (page >= t->nr_pages)
		return false;
	return !test_and_set_bit((unsigned long)(page >> t->unit_shift),
				 t->logged);
}

enum spare_bad_next spare_integrity_next(u32 bad_reads, u32 nr_copies,
					 bool backup, bool from_backup)
{
	if (from_backup)
		return SPARE_BAD_EIO;
	if (bad_reads < nr_copies)
		return SPARE_BAD_OTHER_COPY;
	return backup ? SPARE_BAD_BACKUP : SPARE_BAD_EIO;
}

/*
 * Only the group's bitmaps are read here (no call into spare_ec_io.c, which
 * spare.ko builds only with the codec).
 */
static bool split_current(const struct spare_ec_map *m,
			  const struct spare_ec_group *grp, u32 j, u32 p)
{
	return !(grp->lost & (1U << j)) && test_bit(p, grp->cur[j]);
}

bool spare_ec_split_bad(const struct spare_ec_map *m,
			struct spare_ec_group *grp, u32 j, u32 p)
{
	u32 n = spare_ec_splits(&m->g), i, others = 0;

	if (j >= n || p >= m->pages_per_group || !test_bit(p, grp->cur[j]))
		return false;
	for (i = 0; i < n; i++)
		if (i != j && split_current(m, grp, i, p))
			others++;
	if (others < m->g.k)
		return false;
	__clear_bit(p, grp->cur[j]);
	grp->repair |= 1U << j;
	return true;
}

/* Entry index of page @p of group @g (pages of a group are consecutive). */
static u64 ec_page(const struct spare_ec_map *m, u32 g, u32 p)
{
	return (u64)g * m->pages_per_group + p;
}

void spare_ec_split_set(struct spare_crc_table *t,
			const struct spare_ec_map *m, u32 g, u32 p,
			void *const *split, u32 sb, spare_crc32c_fn crc32c,
			void *ctx)
{
	u32 j;

	for (j = 0; j < spare_ec_splits(&m->g); j++)
		spare_crc_set(t, ec_page(m, g, p), j, crc32c(ctx, split[j], sb));
}

u64 spare_ec_split_verify(const struct spare_crc_table *t,
			  const struct spare_ec_map *m, u32 g, u32 j,
			  u32 first, u32 n, const void *buf, u32 sb,
			  spare_crc32c_fn crc32c, void *ctx)
{
	const u8 *b = buf;
	u64 bad = 0;
	u32 i;

	if (n > SPARE_EC_CHECK_PAGES)
		n = SPARE_EC_CHECK_PAGES;
	for (i = 0; i < n; i++) {
		u32 want = crc_want(t, ec_page(m, g, first + i), j);

		/* never written (or the table is off): nothing to compute */
		if (want && spare_crc_stored(crc32c(ctx, b + (size_t)i * sb,
						    sb)) != want)
			bad |= 1ULL << i;
	}
	return bad;
}

u32 spare_ec_split_demote(struct spare_crc_table *t,
			  const struct spare_ec_map *m,
			  struct spare_ec_group *grp, u32 g, u32 j, u32 first,
			  u64 bad, struct spare_ec_bad_log *log)
{
	u32 i, demoted = 0;
	bool seen = false;

	log->log = false;
	for (i = 0; i < SPARE_EC_CHECK_PAGES; i++) {
		bool dem;

		if (!(bad & (1ULL << i)))
			continue;
		dem = spare_ec_split_bad(m, grp, j, first + i);
		demoted += dem;
		if (seen)
			continue;
		seen = true;
		if (spare_crc_log_first(t, ec_page(m, g, first + i))) {
			log->log = true;
			log->demoted = dem;
			log->page = first + i;
		}
	}
	return demoted;
}
