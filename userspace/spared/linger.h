/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disconnected cm_ids kept a while before they are destroyed. The CM
 * resends a DREQ until the peer answers (DREP) or its retries run out,
 * but only while the cm_id lives: destroying it in the turn of
 * rdma_disconnect() cancels the resends, and a peer whose first DREQ was
 * lost waits out its own time-outs. So a disconnected id lingers until
 * its DISCONNECTED event or SPARED_DREQ_LINGER_MS, whichever is first:
 * long enough for one resend (spared is the CM's passive side, so its DREQ
 * time-out is the client's CM response time-out, 4.1 s with rdma_cm's
 * default, CMA_CM_RESPONSE_TIMEOUT 20: drivers/infiniband/core/cm.c);
 * at most SPARED_DREQ_LINGER_MAX of them (a flood of bad peers must not
 * pile them up): beyond, an id is destroyed at once, as before. Pure, so
 * that it is unit-tested on the host (tests/unit/test_spared_linger.c);
 * the daemon's side is in conn.c.
 */
#ifndef SPARED_LINGER_H
#define SPARED_LINGER_H

#include <stdbool.h>
#include <stdint.h>

#define SPARED_DREQ_LINGER_MS	5000
#define SPARED_DREQ_LINGER_MAX	64

struct spared_linger {
	void		*id[SPARED_DREQ_LINGER_MAX];
	uint64_t	until_ms[SPARED_DREQ_LINGER_MAX];
	unsigned int	n;
	uint64_t	full;		/* ids not kept: the table was full (a metric) */
};

/* Keep @id until @until_ms. False (and ->full counted) when full. */
bool spared_linger_add(struct spared_linger *l, void *id, uint64_t until_ms);

/* Forget @id if it lingers here; true if it did. */
bool spared_linger_take(struct spared_linger *l, const void *id);

/* One id whose time is up at @now_ms, forgotten; NULL if none. */
void *spared_linger_expired(struct spared_linger *l, uint64_t now_ms);

/* The earliest deadline, or 0 when nothing lingers. */
uint64_t spared_linger_next(const struct spared_linger *l);

#endif /* SPARED_LINGER_H */
