/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_cm/verbs set-up shared by spared, spare-aggd, libspare-agg,
 * spare-ublk's donor links, spare-probe and spare-baddonor
 * (Documentation/spared.md, "RDMA set-up helper").
 *
 * Every connection is RC, port space TCP, one SGE per work request, one CQ
 * for sends and receives, a bounded transport retry and an infinite RNR
 * retry (a peer that reposts late is not fatal). Calls return 0, or -1 with errno set; the ones that
 * can fail at several steps say which in a struct spare_rdma_err. Nothing
 * here logs (libspare-agg links it without the daemons' logging); what a
 * failed call made is left for spare_rdma_teardown() or the caller's own.
 */
#ifndef SPARE_RDMA_H
#define SPARE_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>

/*
 * retry_count of every connection: 6 retransmissions after the first try,
 * each after one local ACK timeout (spare_rdma_resolve()'s @ack_timeout,
 * else the CM's default from the RoCE path's packet lifetime: 4.096 us
 * << 19, 2.1 s, on 6.1; << 17, 0.54 s, on 6.12), then the work request
 * fails with IBV_WC_RETRY_EXC_ERR. Not 7: the IB spec gives 7 the meaning
 * "forever" only for rnr_retry, but rxe reads it so for retry_count too
 * (rxe_comp.c), and a send whose ACK was lost then never ends
 * (Documentation/perf/intermittent/badpeer). spare.ko uses the same pair.
 */
#define SPARE_RDMA_RETRY	6
/* rnr_retry_count: 7 is "retry forever on RNR" (a peer that reposts its
 * receives late is slow, not dead). */
#define SPARE_RDMA_RNR_RETRY	7

/*
 * The RNR NAK delay a sender waits when this end has no receive posted, as
 * IB's 5-bit code: 12 is 0.64 ms. The kernel's CM moves RC QPs to RTR with
 * code 0, which means 655 ms, and userspace rdma_cm has no option to change
 * it. With 8 receives per connection, an aggd worker pushing 11 partitions
 * in a row met that delay about once per iteration (1.2 s per iteration of
 * a job that needs milliseconds).
 */
#define SPARE_RDMA_MIN_RNR_TIMER	12

/* Which step of a set-up failed, and how. */
struct spare_rdma_err {
	const char *step;	/* the call, e.g. "rdma_resolve_addr" */
	int err;		/* its errno; 0 when another event came */
	enum rdma_cm_event_type want;	/* when waiting for an event */
	enum rdma_cm_event_type got;	/* when err is 0 */
	int status;			/* got's status */
	int ack_err;	/* spare_rdma_resolve(): errno of setting the ACK
			 * timeout (not fatal), else 0 */
};

/* "STEP: strerror", "waiting for WANT: strerror" or
 * "GOT (status N) instead of WANT", in @buf; returns @buf. */
const char *spare_rdma_strerr(const struct spare_rdma_err *e, char *buf,
			      size_t len);

/* O_NONBLOCK on @fd (event and completion channels): 0 or -1. */
int spare_rdma_nonblock(int fd);

/* An event channel (non-blocking if @nonblock) and a TCP-port-space cm_id
 * on it with @context. */
int spare_rdma_open(struct rdma_event_channel **ec, struct rdma_cm_id **id,
		    void *context, bool nonblock, struct spare_rdma_err *e);

/* Server side: bind @id to @addr and listen. */
int spare_rdma_listen(struct rdma_cm_id *id, const struct sockaddr *addr,
		      int backlog, struct spare_rdma_err *e);

/* The next event on a blocking @ec within @timeout_ms, acked at once: its
 * type and status, or -1 with errno (ETIMEDOUT). */
int spare_rdma_wait(struct rdma_event_channel *ec, unsigned int timeout_ms,
		    enum rdma_cm_event_type *type, int *status);

/* spare_rdma_wait() for an event of type @want; another is an error. */
int spare_rdma_expect(struct rdma_event_channel *ec,
		      enum rdma_cm_event_type want, unsigned int timeout_ms,
		      struct spare_rdma_err *e);

/*
 * Client side: resolve the address (from @src, or any when NULL) and the
 * route to @dst, each with rdma_cm's @timeout_ms and a wait of @wait_ms
 * for its event. A nonzero @ack_timeout is set as the local ACK timeout
 * (4.096 us << @ack_timeout) once the address is resolved.
 */
int spare_rdma_resolve(struct rdma_event_channel *ec, struct rdma_cm_id *id,
		       const struct sockaddr *src, const struct sockaddr *dst,
		       int timeout_ms, unsigned int wait_ms, uint8_t ack_timeout,
		       struct spare_rdma_err *e);

#define SPARE_RDMA_CQ_CHANNEL	0x1	/* with a completion channel, *cc */
#define SPARE_RDMA_CQ_NONBLOCK	0x2	/* ... whose fd does not block */
#define SPARE_RDMA_CQ_ARM	0x4	/* ibv_req_notify_cq() it at once */

/* A CQ of @depth entries on @verbs, as @flags say. */
int spare_rdma_cq(struct ibv_context *verbs, int depth, void *cq_context,
		  unsigned int flags, struct ibv_comp_channel **cc,
		  struct ibv_cq **cq, struct spare_rdma_err *e);

/*
 * The next completion of @cq, whose channel @cc an event loop may also
 * poll: 1 (in *@wc), 0 if none came within @timeout_ms (0: do not wait),
 * -1 on an error (errno). The CQ is armed before any wait and polled again
 * after arming, so no completion is missed; a notification taken from @cc
 * is acknowledged and the CQ armed again at once, so @cc wakes its other
 * poller for the next one. Bounded by @timeout_ms whatever @cc does.
 */
int spare_rdma_cq_next(struct ibv_cq *cq, struct ibv_comp_channel *cc,
		       struct ibv_wc *wc, unsigned int timeout_ms);

/*
 * spare_rdma_cq_next() that also watches @other_fd (a connection's rdma_cm
 * event channel, so that a peer's disconnect is not missed while a send
 * waits for an ACK that will never come; -1: none): 2 when @other_fd is
 * readable and no completion is in the CQ. The fd is not read.
 */
int spare_rdma_cq_wait(struct ibv_cq *cq, struct ibv_comp_channel *cc,
		       int other_fd, struct ibv_wc *wc, unsigned int timeout_ms);

/* @id's RC QP on @pd, both queues on @cq, @send and @recv work requests
 * of one SGE, only signalled sends completing. */
int spare_rdma_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_cq *cq,
		  uint32_t send, uint32_t recv);
/*
 * spare_rdma_qp() whose send work requests may gather up to @send_sge
 * SGEs (a header from one buffer, a payload from another registered one);
 * receives still take one. -1 (errno set by rdma_create_qp) when the
 * device cannot.
 */
int spare_rdma_qp_sge(struct rdma_cm_id *id, struct ibv_pd *pd,
		      struct ibv_cq *cq, uint32_t send, uint32_t recv,
		      uint32_t send_sge);

/* Server side: accept a connect request whose QP is made. */
int spare_rdma_accept(struct rdma_cm_id *id, uint8_t responder_resources,
		      uint8_t initiator_depth);

/* Client side: connect with @priv as private data, initiating up to
 * @initiator_depth RDMA READs, and wait up to @wait_ms for ESTABLISHED
 * (e->got says what came instead: REJECTED, UNREACHABLE...). */
int spare_rdma_connect(struct rdma_event_channel *ec, struct rdma_cm_id *id,
		       const void *priv, uint8_t priv_len,
		       uint8_t initiator_depth, unsigned int wait_ms,
		       struct spare_rdma_err *e);

/* The RNR NAK delay to SPARE_RDMA_MIN_RNR_TIMER, on a QP in RTS (after
 * rdma_accept(), or once ESTABLISHED). */
int spare_rdma_fast_rnr(struct ibv_qp *qp);

/* What one connection holds; any member may be NULL. */
struct spare_rdma_objs {
	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;		/* and its QP */
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_comp_channel *cc;
	struct ibv_pd *pd;
	bool up;			/* established: disconnect first */
};

/* Disconnect if up, then destroy the QP, MR, CQ, completion channel, PD,
 * cm_id and event channel, in that order. */
void spare_rdma_teardown(const struct spare_rdma_objs *o);

#endif
