// SPDX-License-Identifier: GPL-2.0
/*
 * The erasure codec of a 4 KiB page (spare_ec.h). Nothing here computes a
 * Galois field product by hand: the parity and the recovery are the
 * kernel's raid6_pq (gen_syndrome, raid6_2data_recov, raid6_datap_recov)
 * and the xor module's xor_blocks; built for userspace, ISA-L behind the
 * same calls (userspace/lib/kshim/raid_isal.c).
 *
 * R = 1 is P alone, by xor_blocks, not gen_syndrome with a scratch Q: the
 * Q it would compute and throw away costs as much again as P, and the
 * recovery of one lost data split from P is an XOR either way.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/raid/pq.h>
#include <linux/raid/xor.h>

#include "spare_ec.h"

/* P = D_0 ^ ... ^ D_{n-1} (n >= 1), through xor_blocks' batches. */
static void xor_into(void *p, void **src, unsigned int n, u32 bytes)
{
	unsigned int done, batch;

	memcpy(p, src[0], bytes);
	for (done = 1; done < n; done += batch) {
		batch = min_t(unsigned int, n - done, MAX_XOR_BLOCKS);
		xor_blocks(batch, bytes, p, src + done);
	}
}

/* The parity splits of @splits (K data, then P and Q) from its data. */
static void gen_parity(const struct spare_ec_geom *g, void **splits, u32 bytes)
{
	if (g->r == 1)
		xor_into(splits[g->k], splits, g->k, bytes);
	else	/* gen_syndrome's array: the data, P, Q; disks = K + 2. */
		raid6_call.gen_syndrome(g->k + 2, bytes, splits);
}

int spare_ec_encode(const struct spare_ec_geom *g, void *page, void **parity)
{
	void *ptrs[SPARE_EC_MAX_SPLITS];
	u32 bytes, i;

	if (!spare_ec_geom_valid(g))
		return -EINVAL;
	bytes = spare_ec_split_bytes(g);
	for (i = 0; i < g->k; i++)
		ptrs[i] = (u8 *)page + i * bytes;
	for (i = 0; i < g->r; i++)
		ptrs[g->k + i] = parity[i];
	gen_parity(g, ptrs, bytes);
	return 0;
}

/* D_a from P and the other data splits. */
static void recover_from_p(const struct spare_ec_geom *g, void **splits,
			   unsigned int a, u32 bytes)
{
	void *src[SPARE_EC_MAX_SPLITS];
	unsigned int i, n = 0;

	src[n++] = splits[g->k];
	for (i = 0; i < g->k; i++)
		if (i != a)
			src[n++] = splits[i];
	xor_into(splits[a], src, n, bytes);
}

int spare_ec_recover(const struct spare_ec_geom *g, void **splits,
		     unsigned long missing)
{
	unsigned long data_mask;
	unsigned int a, b, n;
	u32 bytes;

	if (!spare_ec_geom_valid(g) || missing >> spare_ec_splits(g))
		return -EINVAL;
	n = hweight32((u32)missing);
	if (n > g->r)
		return -EIO;
	if (!n)
		return 0;
	bytes = spare_ec_split_bytes(g);
	data_mask = missing & ((1UL << g->k) - 1);

	if (!data_mask) {
		/* The data is whole: only parity to compute again. */
		gen_parity(g, splits, bytes);
		return 0;
	}
	a = __ffs(data_mask);
	if (hweight32((u32)data_mask) == 2) {
		/* Two data splits (so R = 2, P and Q present). */
		b = __ffs(data_mask & (data_mask - 1));
		raid6_2data_recov(g->k + 2, bytes, a, b, splits);
		return 0;
	}
	if (!(missing & (1UL << g->k))) {
		/* One data split, P present: XOR; then Q if it was missing. */
		recover_from_p(g, splits, a, bytes);
		if (g->r == 2 && (missing & (1UL << (g->k + 1))))
			gen_parity(g, splits, bytes);
		return 0;
	}
	/* One data split and P (R = 2, Q present). */
	raid6_datap_recov(g->k + 2, bytes, a, splits);
	return 0;
}
