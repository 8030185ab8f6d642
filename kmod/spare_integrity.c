// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko per-page integrity (configfs "integrity=crc32c", off by
 * default): a CRC-32C of every page written, kept in local memory (4 bytes
 * per 4 KiB page: 1 MiB per GiB of device), computed when the write is
 * submitted (swap and the page cache do not change a page under
 * writeback), checked when an RDMA read completes. A page that does not
 * match is never returned: the request is re-driven, from another copy
 * first, then from the backup device if there is one, and fails with an
 * I/O error when no source has the right data. Each mismatch counts in
 * io_stat's integrity_errors.
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
	struct crypto_shash *tfm;

	if (!dev->cfg.integrity)
		return 0;
	tfm = crypto_alloc_shash("crc32c", 0, 0);
	if (IS_ERR(tfm)) {
		pr_warn("%s: integrity: no crc32c in this kernel (%ld)\n", name,
			PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	dev->crc = kvcalloc(dev->cfg.size >> PAGE_SHIFT, sizeof(u32),
			    GFP_KERNEL);
	if (!dev->crc) {
		crypto_free_shash(tfm);
		return -ENOMEM;
	}
	dev->crc_tfm = tfm;
	pr_info("%s: integrity crc32c: %llu KiB of checksums\n", name,
		(dev->cfg.size >> PAGE_SHIFT) * sizeof(u32) >> 10);
	return 0;
}

void spare_integrity_stop(struct spare_dev *dev)
{
	kvfree(dev->crc);
	dev->crc = NULL;
	if (dev->crc_tfm)
		crypto_free_shash(dev->crc_tfm);
	dev->crc_tfm = NULL;
}

static u32 page_crc(struct spare_dev *dev, struct page *page,
		    unsigned int off, unsigned int len)
{
	SHASH_DESC_ON_STACK(desc, dev->crc_tfm);
	void *p = kmap_local_page(page);
	__le32 crc = 0;

	desc->tfm = dev->crc_tfm;
	crypto_shash_digest(desc, p + off, len, (u8 *)&crc);
	kunmap_local(p);
	return le32_to_cpu(crc) ?: 1;	/* 0 is "never written" */
}

/**
 * spare_integrity_write() - record the checksums of a write being submitted
 * @dev: the device
 * @rq: a write request, page aligned (the queue's logical block size)
 */
void spare_integrity_write(struct spare_dev *dev, struct request *rq)
{
	u64 idx = blk_rq_pos(rq) >> (PAGE_SHIFT - SECTOR_SHIFT);
	struct req_iterator iter;
	struct bio_vec bv;

	if (!dev->crc)
		return;
	rq_for_each_segment(bv, rq, iter) {
		if (bv.bv_len == PAGE_SIZE)
			WRITE_ONCE(dev->crc[idx],
				   page_crc(dev, bv.bv_page, bv.bv_offset,
					    PAGE_SIZE));
		else
			WRITE_ONCE(dev->crc[idx], 0);	/* not checkable */
		idx += DIV_ROUND_UP(bv.bv_len, PAGE_SIZE);
	}
}

/**
 * spare_integrity_read_ok() - check the pages an RDMA read brought back
 * @dev: the device
 * @cmd: the settled command
 * @rq: its request
 *
 * Pages read from the backup device are checked too: it is the last
 * source, so a mismatch there fails the read (spare_cmd_put()).
 *
 * Return: false (counted, and for an RDMA read remembered in @cmd so that
 * the re-drive tries another source) if a page does not match its
 * checksum.
 */
bool spare_integrity_read_ok(struct spare_dev *dev, struct spare_cmd *cmd,
			     struct request *rq)
{
	u64 idx = blk_rq_pos(rq) >> (PAGE_SHIFT - SECTOR_SHIFT);
	struct req_iterator iter;
	struct bio_vec bv;
	u32 want;

	if (!dev->crc || cmd->is_write || (!cmd->use_backup && !cmd->nr_ops))
		return true;
	rq_for_each_segment(bv, rq, iter) {
		want = READ_ONCE(dev->crc[idx]);
		if (want && bv.bv_len == PAGE_SIZE &&
		    page_crc(dev, bv.bv_page, bv.bv_offset, PAGE_SIZE) != want) {
			atomic64_inc(&dev->stats.integrity_errors);
			if (cmd->use_backup) {
				/* the last source: the caller fails the read */
				pr_warn_ratelimited("%s: page %llu from the backup device failed its crc32c check: I/O error\n",
						    dev->disk->disk_name, idx);
				return false;
			}
			cmd->bad_reads++;
			pr_warn_ratelimited("%s: page %llu failed its crc32c check; reading it from another source\n",
					    dev->disk->disk_name, idx);
			return false;
		}
		idx += DIV_ROUND_UP(bv.bv_len, PAGE_SIZE);
	}
	return true;
}

/*
 * After as many bad reads as there are copies, read from the backup
 * device if there is one (plan_read()).
 */
bool spare_integrity_want_backup(struct spare_dev *dev,
				 const struct spare_cmd *cmd)
{
	return dev->has_backup && cmd->bad_reads &&
	       cmd->bad_reads >= dev->map.nr_copies;
}

/*
 * Every copy has failed its check and there is no backup: no source is
 * left, and re-driving would read the same bad pages again until the
 * re-drive time runs out, so the read fails now.
 */
bool spare_integrity_no_source(struct spare_dev *dev,
			       const struct spare_cmd *cmd)
{
	return !dev->has_backup && cmd->bad_reads &&
	       cmd->bad_reads >= dev->map.nr_copies;
}
