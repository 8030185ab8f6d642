// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko per-page integrity (configfs "integrity=crc32c", off by
 * default): a CRC-32C of every page written, kept in local memory (4 bytes
 * per 4 KiB page: 1 MiB per GiB of device), computed when the write is
 * submitted (the queue asks for stable writes then, so that the page
 * cache does not change a page under writeback), checked when an RDMA
 * read completes. Checksums are per device page by byte position, however
 * the request's memory is cut into segments. A page that does not match
 * is never returned: the request is re-driven, from another copy first,
 * then from the backup device if there is one, and fails with an I/O
 * error when no source has the right data; the copy it came from stops
 * being a source of that page (no resync or move copies it from there).
 * Each mismatch counts in io_stat's integrity_errors. The checksum table,
 * the verdict on a page and where a read goes after a bad one are the
 * client core's (core/spare_integrity_table.c), shared with spare-ublk's
 * --integrity; this file walks a request's segments and feeds it.
 *
 * With redundancy=ec:K+R the table holds a checksum per split of each
 * page (K + R a page, 4 bytes each): spare_ec_blk.c sets them when a
 * write's splits are encoded and checks each split as its RDMA read
 * completes, with spare_integrity_crc32c() below; a bad split is treated
 * as missing (the core's spare_ec_split_verify() and
 * spare_ec_split_demote()), the page decoded from K others.
 *
 * This catches pages corrupted on a donor or on the way; it is not
 * authentication (a donor that can rewrite pages can rewrite them with
 * their CRCs only if it can also write this memory, which it cannot).
 * A stored value of 0 means "never written" (a CRC that comes out 0 is
 * stored as 1 on both sides), and such pages are not checked: they are
 * read as zeros without touching a donor.
 */
#include <crypto/hash.h>
#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/mm.h>

#include "spare.h"

int spare_integrity_start(struct spare_dev *dev)
{
	const char *name = config_item_name(&dev->item);
	u64 pages = dev->cfg.size >> PAGE_SHIFT;
	u32 per_page = 1, shift = dev->cfg.slab_shift - PAGE_SHIFT;
	struct crypto_shash *tfm;
	int ret;

	if (!dev->cfg.integrity)
		return 0;
	tfm = crypto_alloc_shash("crc32c", 0, 0);
	if (IS_ERR(tfm)) {
		pr_warn("%s: integrity: no crc32c in this kernel (%ld)\n", name,
			PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	if (dev->ec)	/* a checksum per split, logged once per group */
		spare_ec_crc_shape(dev, &pages, &per_page, &shift);
	ret = spare_crc_table_init(&dev->crc, pages, per_page, shift);
	if (ret) {
		crypto_free_shash(tfm);
		return ret;
	}
	dev->crc_tfm = tfm;
	pr_info("%s: integrity crc32c: %llu KiB of checksums (%u per page)\n",
		name, spare_crc_table_bytes(&dev->crc) >> 10, per_page);
	return 0;
}

void spare_integrity_stop(struct spare_dev *dev)
{
	spare_crc_table_free(&dev->crc);
	if (dev->crc_tfm)
		crypto_free_shash(dev->crc_tfm);
	dev->crc_tfm = NULL;
}

/**
 * spare_integrity_crc32c() - the CRC-32C of @len bytes at @buf
 * @tfm: the device's crc_tfm
 *
 * The core's spare_crc32c_fn, for an erasure-coded device's split pages
 * (spare_ec_blk.c): in ->queue_rq() and in RDMA completions, never sleeps.
 */
u32 spare_integrity_crc32c(void *tfm, const void *buf, u32 len)
{
	SHASH_DESC_ON_STACK(desc, (struct crypto_shash *)tfm);
	__le32 crc;

	desc->tfm = tfm;
	crypto_shash_digest(desc, buf, len, (u8 *)&crc);
	return le32_to_cpu(crc);
}

/*
 * Called with each device page of a request and its checksum; false stops
 * the walk.
 */
typedef bool (*page_crc_fn)(struct spare_dev *dev, struct spare_cmd *cmd,
			    u64 idx, u32 crc);

/*
 * The CRC-32C of every device page of @rq, in order, by byte position: a
 * page may be made of several segments (a buffer that is not page aligned
 * gives sub-page segments) and a segment may end in the next page, so the
 * digest of a page is fed piece by piece until its 4 KiB are in.
 */
static bool walk_page_crcs(struct spare_dev *dev, struct spare_cmd *cmd,
			      struct request *rq, page_crc_fn fn)
{
	SHASH_DESC_ON_STACK(desc, dev->crc_tfm);
	u64 idx = blk_rq_pos(rq) >> (PAGE_SHIFT - SECTOR_SHIFT);
	u64 nr_pages = dev->cfg.size >> PAGE_SHIFT;
	unsigned int filled = 0;	/* bytes of page idx digested */
	struct req_iterator iter;
	struct bio_vec bv;
	__le32 crc;

	desc->tfm = dev->crc_tfm;
	rq_for_each_segment(bv, rq, iter) {
		unsigned int off = 0;

		while (off < bv.bv_len) {
			unsigned int n = min(bv.bv_len - off,
					     (unsigned int)PAGE_SIZE - filled);
			void *p;

			if (idx >= nr_pages)
				return true;	/* never past the array */
			if (!filled)
				crypto_shash_init(desc);
			p = kmap_local_page(bv.bv_page);
			crypto_shash_update(desc, p + bv.bv_offset + off, n);
			kunmap_local(p);
			off += n;
			filled += n;
			if (filled < PAGE_SIZE)
				continue;
			crypto_shash_final(desc, (u8 *)&crc);
			if (!fn(dev, cmd, idx, le32_to_cpu(crc)))
				return false;
			idx++;
			filled = 0;
		}
	}
	return true;
}

static bool store_crc(struct spare_dev *dev, struct spare_cmd *cmd, u64 idx,
		      u32 crc)
{
	spare_crc_set(&dev->crc, idx, 0, crc);
	return true;
}

/**
 * spare_integrity_write() - record the checksums of a write being submitted
 * @dev: the device
 * @rq: a write request, whole device pages (the queue's logical block size)
 *
 * The queue asks for stable writes while integrity is on, so the data
 * cannot change between this digest and its transfer.
 */
void spare_integrity_write(struct spare_dev *dev, struct request *rq)
{
	if (dev->crc.crc)
		walk_page_crcs(dev, NULL, rq, store_crc);
}

/*
 * Page @idx failed its check on the copy the read took it from: that copy
 * is no longer current for it (spare_slab_page_bad()), so that neither a
 * resync nor a move copies the bad page, while another source holds it.
 */
static void demote_page(struct spare_dev *dev, struct spare_cmd *cmd, u64 idx)
{
	struct spare_slab_map *map = &dev->map;
	u32 shift = map->slab_shift - SPARE_PAGE_SHIFT;
	u32 s = idx >> shift, p = idx & (map->pages_per_slab - 1);
	struct spare_slab *slab;
	unsigned long flags;
	unsigned int i;
	bool backup, demoted;

	for (i = 0; i < cmd->nr_ops; i++) {
		const struct spare_op *op = &cmd->ops[i];
		const struct spare_extent *x = &cmd->ext[op->ext];

		if (!op->failed && x->slab == s && p >= x->first_page &&
		    p - x->first_page < x->nr_pages)
			break;
	}
	if (i == cmd->nr_ops)
		return;
	backup = dev->has_backup && spare_backup_range_ok(dev, idx, 1);
	slab = &map->slabs[s];
	spin_lock_irqsave(&slab->lock, flags);
	demoted = spare_slab_page_bad(map, slab, cmd->ops[i].copy,
				      cmd->ops[i].gen, p, backup);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (demoted)
		spare_resync_kick(dev);
}

static bool check_crc(struct spare_dev *dev, struct spare_cmd *cmd, u64 idx,
		      u32 crc)
{
	if (spare_crc_check(&dev->crc, idx, 0, crc) != SPARE_CRC_BAD)
		return true;
	atomic64_inc(&dev->stats.integrity_errors);
	if (cmd->use_backup) {
		/* the last source: the caller fails the read */
		pr_warn_ratelimited("%s: page %llu from the backup device failed its crc32c check: I/O error\n",
				    dev->disk->disk_name, idx);
		return false;
	}
	cmd->bad_reads++;
	demote_page(dev, cmd, idx);
	pr_warn_ratelimited("%s: page %llu failed its crc32c check; reading it from another source\n",
			    dev->disk->disk_name, idx);
	return false;
}

/**
 * spare_integrity_read_ok() - check the pages an RDMA read brought back
 * @dev: the device
 * @cmd: the settled command
 * @rq: its request
 *
 * Pages read from the backup device are checked too: it is the last
 * source, so a mismatch there fails the read (spare_cmd_put()). A copy
 * whose page does not match stops being a source for that page.
 *
 * Return: false (counted, and for an RDMA read remembered in @cmd so that
 * the re-drive tries another source) if a page does not match its
 * checksum.
 */
bool spare_integrity_read_ok(struct spare_dev *dev, struct spare_cmd *cmd,
			     struct request *rq)
{
	if (!dev->crc.crc || cmd->is_write || (!cmd->use_backup && !cmd->nr_ops))
		return true;
	return walk_page_crcs(dev, cmd, rq, check_crc);
}

/*
 * After as many bad reads as there are copies, read from the backup
 * device if there is one (plan_read()).
 */
bool spare_integrity_want_backup(struct spare_dev *dev,
				 const struct spare_cmd *cmd)
{
	return cmd->bad_reads &&
	       spare_integrity_next(cmd->bad_reads, dev->map.nr_copies,
				    dev->has_backup, false) == SPARE_BAD_BACKUP;
}

/*
 * Every copy has failed its check and there is no backup: no source is
 * left, and re-driving would read the same bad pages again until the
 * re-drive time runs out, so the read fails now.
 */
bool spare_integrity_no_source(struct spare_dev *dev,
			       const struct spare_cmd *cmd)
{
	return cmd->bad_reads &&
	       spare_integrity_next(cmd->bad_reads, dev->map.nr_copies,
				    dev->has_backup, false) == SPARE_BAD_EIO;
}
