// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's --integrity crc32c: the checksum table's set-up and the
 * CRC itself (integrity.h). The checks are on the request paths: io.c
 * (copies) and ec.c (splits).
 */
#include <inttypes.h>
#include <isa-l/crc.h>

#include "integrity.h"
#include "pager.h"
#include "spare_log.h"

u32 integ_crc32c(const void *buf, size_t len)
{
	/* ISA-L's iSCSI CRC is CRC-32C; seeded and inverted as the kernel's */
	return ~crc32_iscsi((unsigned char *)buf, (int)len, 0xffffffffU);
}

int integ_init(struct dev *d)
{
	u64 pages;
	u32 per_page, shift;

	if (!d->integrity)
		return 0;
	if (ec_on(d)) {
		pages = (u64)d->ec->map.nr_groups * d->ec->map.pages_per_group;
		per_page = spare_ec_splits(&d->ec_geom);
		shift = d->ec->gshift - SPARE_PAGE_SHIFT;
	} else {
		pages = d->size >> SPARE_PAGE_SHIFT;
		per_page = 1;
		shift = d->slab_shift - SPARE_PAGE_SHIFT;
	}
	if (spare_crc_table_init(&d->crc, pages, per_page, shift)) {
		log_err("--integrity crc32c: no memory for the checksums of %" PRIu64 " pages",
			pages);
		return -1;
	}
	log_info("integrity crc32c: %" PRIu64 " KiB of checksums (%u per page)%s",
		 spare_crc_table_bytes(&d->crc) >> 10, per_page,
		 d->recovering ? "; taken back after a restart: the pages written before it are not checked until written again" : "");
	return 0;
}

void integ_fini(struct dev *d)
{
	spare_crc_table_free(&d->crc);
}
