/* SPDX-License-Identifier: GPL-2.0 */
/*
 * integrity: spare-ublk's --integrity crc32c, as spare.ko's
 * integrity=crc32c. A CRC-32C of every page written (of every split of a
 * page with --redundancy ec:K+R) is kept in the pager's memory, in the
 * core's table (kmod/core/spare_integrity_table.h), and checked when an
 * RDMA READ completes. A copy whose page does not match stops being a
 * source of it (resync refills it from a good one); a split that does not
 * match is treated as missing (the read decodes from the others) and
 * rebuilt. Counted (io_stat's integrity_errors), logged once per slab or
 * coding group; an I/O error only when no good source is left.
 * Documentation/ublk.md, "Integrity".
 */
#ifndef SPARE_UBLK_INTEGRITY_H
#define SPARE_UBLK_INTEGRITY_H

#include <stddef.h>

#include "spare_integrity_table.h"

struct dev;

/* The CRC-32C of @len bytes (ISA-L's crc32_iscsi): spare.ko's values. */
u32 integ_crc32c(const void *buf, size_t len);
/* The table, if --integrity crc32c, once the slabs or splits are known. 0 or -1. */
int integ_init(struct dev *d);
void integ_fini(struct dev *d);
/* Whether the device checks what it reads. */
static inline bool integ_on(const struct spare_crc_table *t)
{
	return t->crc != NULL;
}

#endif /* SPARE_UBLK_INTEGRITY_H */
