/* SPDX-License-Identifier: GPL-2.0 */
/*
 * donor: spare-ublk's connections to one donor (spared), in the protocol of
 * kmod/uapi/spare.h: a CONTROL connection for messages (HELLO and the
 * optional authentication, MAP, UNMAP, EVICT, ACTIVITY_QUERY) and a DATA
 * connection for one-sided RDMA READ and WRITE into lent slabs.
 *
 * Set-up (donor_connect(), donor_map()) is synchronous and runs before the
 * device starts. Afterwards the control connection belongs to the control
 * thread (donor_poll_ctrl()) and each DATA connection (one per ublk queue,
 * as spare.ko has one per hardware queue) to its queue thread, which posts
 * with donor_post_rdma() and reaps that link's CQ itself.
 */
#ifndef SPARE_UBLK_DONOR_H
#define SPARE_UBLK_DONOR_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "spare_proto.h"

#define DONOR_RECV_DEPTH	16
#define DONOR_MAX_DATA		8	/* DATA connections: one per queue */

/* One rdma_cm connection with its own event channel, CQ and QP. */
struct donor_link {
	struct rdma_event_channel *ev;
	struct rdma_cm_id	*id;
	struct ibv_comp_channel	*cc;
	struct ibv_cq		*cq;
	bool			up;
	/* a wait on the control link took its DISCONNECTED or DEVICE_REMOVAL
	 * (cq_next()): the lifecycle loop fails the donor */
	bool			lost;
};

struct donor {
	char		host[64];
	char		port[8];
	const char	*source;	/* local address, or NULL */
	unsigned int	timeout_ms;
	uint8_t		ack_timeout;	/* RC local ACK timeout: 4.096 us << this */
	const uint8_t	*uuid;		/* 16 bytes, the device's */
	const uint8_t	*key;		/* SPARE_AUTH_KEY_LEN bytes, or NULL */
	uint64_t	cookie;
	uint32_t	seq;
	uint32_t	free_slabs;
	uint64_t	grant_token;	/* MAPs name this grant; 0: none */
	uint64_t	grant_expiry;	/* its expiry (wall clock, s) */
	/* Pager restart: HELLO F_HOLD, and F_RESUME with a token. */
	bool		hold;		/* ask the donor to hold our slabs */
	uint64_t	resume_token;	/* in: resume with it (0: do not);
					 * out: the donor's (0: it holds nothing) */

	struct ibv_pd	*pd;		/* shared by every donor on a device */
	struct donor_link ctrl;
	struct donor_link data[DONOR_MAX_DATA];	/* one per queue */
	unsigned int	nr_data;	/* set before donor_connect() */
	int		failed;		/* donor_fail() ran (atomic) */
	u32		fail_seq;	/* donor_fail()s so far (atomic) */
	/* resync's own DATA connection (resync.c), besides the queue's */
	struct donor_link rs;
	int		*notify_fd;	/* eventfd donor_fail() writes, or NULL */
	/* EVICTs that arrived while a set-up step waited for its answer */
	struct { uint32_t id, reason, deadline_ms; } evq[DONOR_RECV_DEPTH];
	unsigned int	nevq;
	bool		abandoned;	/* a connect thread still owns it at exit */
	/* malformed messages dropped, and when the last line about them was
	 * logged (a donor sending garbage in a loop floods no log) */
	uint64_t	bad_msgs;
	uint64_t	bad_logged_ms;

	struct spare_msg *bufs;		/* RECV_DEPTH receive slots + 1 send */
	struct ibv_mr	*bufs_mr;
	/* messages that arrived while a send was completing */
	struct spare_msg pending[DONOR_RECV_DEPTH];
	uint32_t	pending_len[DONOR_RECV_DEPTH];
	unsigned int	npending;
};

/*
 * Connect the control link, HELLO (authenticated if d->key), and connect
 * d->nr_data data links, each with room for @data_depth RDMA operations. @pd may point to
 * NULL: it is then allocated on the device of the first donor. Returns 0,
 * or -1 after logging why.
 */
int donor_connect(struct donor *d, struct ibv_pd **pd, uint8_t slab_shift,
		  unsigned int data_depth);
/* Send a broker's grant (GRANT parts); MAPs then name it. 0, or -1. */
struct spare_grant;
int donor_send_grant(struct donor *d, const struct spare_grant *g);
/* MAP slab @id; 0 and addr/rkey, or -1 after logging why. */
int donor_map(struct donor *d, uint32_t id, uint64_t *addr, uint32_t *rkey);
/* The same, with MAPPED's flags (SPARE_MAPPED_F_KEPT: a held slab came
 * back with its contents). */
int donor_map_flags(struct donor *d, uint32_t id, uint64_t *addr,
		    uint32_t *rkey, uint32_t *flags);
/* UNMAP slab @id (no answer expected). */
int donor_unmap(struct donor *d, uint32_t id);
/*
 * Handle what arrived on the control connection without blocking: answer
 * ACTIVITY_QUERY, report EVICT through @on_evict. Returns 0, or -1 if the
 * connection failed.
 */
int donor_poll_ctrl(struct donor *d,
		    void (*on_evict)(struct donor *d, uint32_t slab_id,
				     uint32_t reason, uint32_t deadline_ms,
				     void *arg),
		    void *arg);
/* Whether every data link is up. */
bool donor_data_up(const struct donor *d);
/* Post one signalled RDMA READ or WRITE on data link @q (queue @q's). */
int donor_post_rdma(struct donor *d, unsigned int q, bool write,
		    uint64_t wr_id, void *local,
		    uint32_t lkey, uint32_t len, uint64_t raddr, uint32_t rkey);
/*
 * Connect the resync link (d->rs): a second DATA connection of the session
 * for @depth operations, used by one thread at a time (resync.c). 0, or -1.
 */
int donor_connect_rs(struct donor *d, unsigned int depth);
/*
 * One signalled RDMA READ or WRITE on the resync link, waited for up to
 * @timeout_ms. 0 once it completed well; -EIO if it failed (a flush of a
 * failed link, or an error: then the donor is failed); -ETIMEDOUT.
 */
int donor_rs_rdma(struct donor *d, bool write, void *local, uint32_t lkey,
		  uint32_t len, uint64_t raddr, uint32_t rkey,
		  unsigned int timeout_ms);
int donor_cm_event(struct donor *d, struct donor_link *l);
void donor_fail(struct donor *d, const char *why);
void donor_close(struct donor *d);

#endif /* SPARE_UBLK_DONOR_H */
