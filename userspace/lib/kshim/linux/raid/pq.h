/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/raid/pq.h> (raid6_pq), the
 * calls kmod/core/spare_ec.c makes, with the kernel's signatures and
 * pointer-array layout (data..., P, Q; disks = data + 2), computed by
 * ISA-L (raid_isal.c): P+Q by pq_gen, the recovery of lost data splits by
 * ec_encode_data with a decode matrix. ISA-L's field is the kernel's:
 * GF(2^8), polynomial 0x11d, Q's coefficient of data split i is 2^i.
 */
#ifndef SPARE_KSHIM_RAID_PQ_H
#define SPARE_KSHIM_RAID_PQ_H

#include <stddef.h>

#include "../../kcompat.h"

struct raid6_calls {
	void (*gen_syndrome)(int disks, size_t bytes, void **ptrs);
	const char *name;
};

extern const struct raid6_calls raid6_call;
extern void (*raid6_2data_recov)(int disks, size_t bytes, int faila,
				 int failb, void **ptrs);
extern void (*raid6_datap_recov)(int disks, size_t bytes, int faila,
				 void **ptrs);

#endif /* SPARE_KSHIM_RAID_PQ_H */
