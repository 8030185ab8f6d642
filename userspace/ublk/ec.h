/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ec: spare-ublk's erasure-coded request path (--redundancy ec:K+R,
 * issue 34). The decisions are kmod/core/spare_ec_io.c's (current splits,
 * late-binding reads, writes that land on K..K+R splits); this file posts
 * them: K+R split slabs per coding group, one per donor, mapped at start;
 * writes encode into a bounce slot and post K+R RDMA WRITEs; reads post
 * K+Δ RDMA READs into a bounce slot and copy or decode the first K.
 * Documentation/erasure-coding.md, "The I/O path".
 */
#ifndef SPARE_UBLK_EC_H
#define SPARE_UBLK_EC_H

#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdbool.h>

#include "spare_ec_io.h"

struct dev;
struct queue;
struct ibv_wc;

/* wr_id of an erasure-coded RDMA operation: this bit, slot << 8, op. */
#define EC_WR_FLAG	(1ULL << 63)

/* One split slab: split j of coding group g, on one donor. */
struct ec_split {
	u32	donor;
	u32	id;		/* the slab id on the wire */
	u64	addr;
	u32	rkey;
	u32	fail_seq;	/* the donor's fail_seq when it was mapped */
	bool	mapped;
};

struct ec_dev {
	struct spare_ec_map map;
	u8	gshift;		/* log2 of a coding group's device bytes */
	struct ec_split *sp;	/* nr_groups * (K + R) */
	pthread_mutex_t *lock;	/* one per group */
	size_t	slot_bytes;
	unsigned int slots_per_queue;
	char	*slots;		/* every queue's bounce slots */
	struct ibv_mr *mr;
};

/*
 * After the donors connected: the coding groups, their split slabs placed
 * on distinct donors (and domains) and mapped, the bounce slots. 0, or -1
 * (said why).
 */
int ec_init(struct dev *d);
/* UNMAP the split slabs of live donors; free everything. */
void ec_fini(struct dev *d);
/* The queue's request @tag (read or write, fields of q->rqs[tag] set). */
void ec_rq_start(struct queue *q, unsigned int tag);
/* An RDMA completion whose wr_id has EC_WR_FLAG. */
void ec_rdma_done(struct queue *q, u32 dn, const struct ibv_wc *wc);
/* EVICT of slab id @id from donor @i: that split is lost, UNMAP sent. */
void ec_on_evict(struct dev *d, u32 i, u32 id);

#endif /* SPARE_UBLK_EC_H */
