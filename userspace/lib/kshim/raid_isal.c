// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's RAID-6 and XOR calls (linux/raid/pq.h, linux/raid/xor.h)
 * for the userspace build of kmod/core/spare_ec.c, computed by ISA-L
 * (Debian's libisal2, BSD-3-Clause): pq_gen and xor_gen for parity, and
 * for lost data the usual ISA-L recovery: the RAID-6 generator matrix
 * (identity; P's row of ones; Q's row 2^0, 2^1, ...), the rows of K
 * surviving splits inverted by gf_invert_matrix, and the lost rows of the
 * inverse applied by ec_encode_data. Same field as the kernel's lib/raid6
 * (GF(2^8), 0x11d), so the same bytes: tests/unit/test_ec.c checks both
 * against a shared table that KUnit checks the kernel against.
 *
 * Lengths and alignment are spare_ec.c's (a multiple of 512 bytes,
 * 64-byte aligned buffers), inside ISA-L's (32). A call outside them is a
 * caller's bug, as in the kernel: it is reported and aborts.
 */
#include <isa-l/erasure_code.h>
#include <isa-l/raid.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linux/raid/pq.h"
#include "linux/raid/xor.h"

#define EC_MAX_DATA	8	/* spare_ec.c's K: 2, 4 or 8 */
#define EC_MAX_DISKS	(EC_MAX_DATA + 2)

/*
 * The decode tables of one loss pattern: the inverse and ec_init_tables
 * cost over ten times the decode of a page itself (8+2: Documentation/
 * perf/ec-codec/), and a device meets few patterns (at most 45 per geometry),
 * so each is made once, under decode_lock, and published with a release
 * store; the queue threads read it without the lock.
 */
struct decode_tables {
	int rows;				/* survivors, K */
	unsigned char src[EC_MAX_DATA];		/* their split indices */
	unsigned char tbls[32 * EC_MAX_DATA * 2];
};

static struct decode_tables *decode_cache[EC_MAX_DATA + 1][2][1u << EC_MAX_DISKS];
static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;

static void isal_failed(const char *what, size_t bytes)
{
	fprintf(stderr, "raid_isal: %s refused %zu bytes (length or alignment)\n",
		what, bytes);
	abort();
}

static void isal_gen_syndrome(int disks, size_t bytes, void **ptrs)
{
	if (pq_gen(disks, (int)bytes, ptrs))
		isal_failed("pq_gen", bytes);
}

const struct raid6_calls raid6_call = {
	.gen_syndrome	= isal_gen_syndrome,
	.name		= "isa-l",
};

void xor_blocks(unsigned int count, unsigned int bytes, void *dest, void **srcs)
{
	void *array[MAX_XOR_BLOCKS + 2];
	unsigned int i;

	/* xor_gen writes its last vector from all the others: dest in both. */
	array[0] = dest;
	for (i = 0; i < count; i++)
		array[i + 1] = srcs[i];
	array[count + 1] = dest;
	if (xor_gen((int)count + 2, (int)bytes, array))
		isal_failed("xor_gen", bytes);
}

/* The tables that rebuild lost[0..nout) from the first K splits not lost. */
static struct decode_tables *make_tables(int k, const int *lost, int nlost,
					 int nout)
{
	unsigned char gen[EC_MAX_DISKS * EC_MAX_DATA];
	unsigned char surv[EC_MAX_DATA * EC_MAX_DATA];
	unsigned char inv[EC_MAX_DATA * EC_MAX_DATA];
	unsigned char dec[2 * EC_MAX_DATA], q = 1;
	struct decode_tables *t = calloc(1, sizeof(*t));
	int i, j;

	if (!t)
		return NULL;
	memset(gen, 0, sizeof(gen));
	for (i = 0; i < k; i++) {
		gen[i * k + i] = 1;		/* D_i */
		gen[k * k + i] = 1;		/* P */
		gen[(k + 1) * k + i] = q;	/* Q: 2^i */
		q = gf_mul(q, 2);
	}
	for (i = 0; i < k + 2 && t->rows < k; i++) {
		for (j = 0; j < nlost && lost[j] != i; j++)
			;
		if (j < nlost)
			continue;
		memcpy(surv + t->rows * k, gen + i * k, k);
		t->src[t->rows++] = (unsigned char)i;
	}
	if (t->rows < k || gf_invert_matrix(surv, inv, k)) {
		free(t);
		return NULL;
	}
	for (j = 0; j < nout; j++)
		memcpy(dec + j * k, inv + lost[j] * k, k);
	ec_init_tables(k, nout, dec, t->tbls);
	return t;
}

/*
 * Rebuild the data splits lost[0..nout) of a K + 2 array (data, P, Q)
 * from the first K splits not in lost[0..nlost).
 */
static void isal_decode(int disks, size_t bytes, const int *lost, int nlost,
			int nout, void **ptrs)
{
	unsigned char *src[EC_MAX_DATA], *out[2];
	struct decode_tables **slot, *t;
	unsigned int mask = 0;
	int k = disks - 2, j;

	if (k < 2 || k > EC_MAX_DATA)
		isal_failed("decode", bytes);
	for (j = 0; j < nlost; j++)
		mask |= 1u << lost[j];
	slot = &decode_cache[k][nout - 1][mask];
	t = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!t) {
		pthread_mutex_lock(&decode_lock);
		t = *slot;
		if (!t) {
			t = make_tables(k, lost, nlost, nout);
			if (t)
				__atomic_store_n(slot, t, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&decode_lock);
		if (!t)
			isal_failed("gf_invert_matrix", bytes);
	}
	for (j = 0; j < k; j++)
		src[j] = ptrs[t->src[j]];
	for (j = 0; j < nout; j++)
		out[j] = ptrs[lost[j]];
	ec_encode_data((int)bytes, k, nout, (unsigned char *)t->tbls, src, out);
}

static void isal_2data_recov(int disks, size_t bytes, int faila, int failb,
			     void **ptrs)
{
	const int lost[2] = { faila, failb };

	isal_decode(disks, bytes, lost, 2, 2, ptrs);
}

static void isal_datap_recov(int disks, size_t bytes, int faila, void **ptrs)
{
	const int lost[2] = { faila, disks - 2 };

	/* D_a from the other data and Q; then P = XOR of the data. */
	isal_decode(disks, bytes, lost, 2, 1, ptrs);
	if (xor_gen(disks - 1, (int)bytes, ptrs))
		isal_failed("xor_gen", bytes);
}

void (*raid6_2data_recov)(int disks, size_t bytes, int faila, int failb,
			  void **ptrs) = isal_2data_recov;
void (*raid6_datap_recov)(int disks, size_t bytes, int faila,
			  void **ptrs) = isal_datap_recov;
