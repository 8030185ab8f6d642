/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/raid/xor.h> (the xor module):
 * xor_blocks(count, bytes, dest, srcs) XORs srcs[0..count) into dest, by
 * ISA-L's xor_gen (raid_isal.c).
 */
#ifndef SPARE_KSHIM_RAID_XOR_H
#define SPARE_KSHIM_RAID_XOR_H

#define MAX_XOR_BLOCKS 4

void xor_blocks(unsigned int count, unsigned int bytes, void *dest,
		void **srcs);

#endif /* SPARE_KSHIM_RAID_XOR_H */
