/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd RDMA transport, server side (rdma_cm + verbs, RC QPs).
 *
 * The messages are those of agg_proto.h, one message per SEND: header and
 * payload together (copied into the send slot, or the payload gathered in
 * place from a registered region: agg_rdma_send_region()), at most
 * AGG_RDMA_MAX_PAYLOAD payload bytes. Each
 * connection keeps AGG_RDMA_RECV_DEPTH receive buffers posted and one send
 * in flight; peers set an infinite RNR retry, so a burst of messages waits
 * for a buffer instead of failing. Completions of every connection share
 * one CQ; the event loop polls its completion channel and the rdma_cm
 * event channel (both non-blocking fds) and calls agg_rdma_cq_event() /
 * agg_rdma_cm_event() when they are readable. Callbacks run from those
 * calls; after agg_rdma_close() no callback names that connection again.
 */
#ifndef SPARE_AGG_RDMA_H
#define SPARE_AGG_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agg_proto.h"

struct agg_rdma_srv;
struct agg_rdma_conn;
struct agg_rdma_region;
struct ibv_context;
struct rdma_cm_id;

struct agg_rdma_ops {
	/* A new connection; return the caller's cookie, or NULL to reject. */
	void *(*accepted)(struct agg_rdma_conn *rc, const char *peer);
	/* One whole message; valid until agg_rdma_recv_done(). */
	void (*received)(void *cookie, const uint8_t *msg, size_t len);
	/* The send in flight completed. */
	void (*sent)(void *cookie);
	/* The connection is gone (peer disconnect or a transport error). */
	void (*failed)(void *cookie, const char *why);
	/*
	 * A connect request whose private data names a move's state
	 * transfer (agg_state_priv_decode()): 0 when the callee took @id
	 * (accepted it; its events are ignored here from now on), else -1
	 * and the request is rejected. Not a worker connection either way.
	 */
	int (*state_request)(struct rdma_cm_id *id, uint32_t job_id,
			     const uint8_t *token, const char *peer);
	/*
	 * Run @run(@arg) off the event loop, then @done(@arg, @exiting) on
	 * it: a worker connection's set-up (its receive buffer made and
	 * registered unless a cached one is free, its QP, its receives
	 * posted). 0, or -1 when it cannot (then both run on the loop at
	 * once). NULL: every set-up runs on the loop. @done must run before
	 * agg_rdma_stop(); @exiting: the daemon is stopping (the request is
	 * rejected).
	 */
	int (*offload)(void (*run)(void *arg),
		       void (*done)(void *arg, bool exiting), void *arg);
};

/* Returns NULL and logs the reason on failure. */
struct agg_rdma_srv *agg_rdma_listen(const char *addr, unsigned int port,
				     const struct agg_rdma_ops *ops);
int agg_rdma_cm_fd(const struct agg_rdma_srv *s);
/* -1 until the first connection has opened the device. */
int agg_rdma_cq_fd(const struct agg_rdma_srv *s);
/*
 * A worker's CONNECT_REQUEST: its device checked, its connection slot
 * taken here; its set-up then runs through ops->offload, at most
 * AGG_RDMA_SETUP_HELPERS at once (the others wait in order: 24 helpers
 * registering at once held a 2-vCPU guest's loop longer than one), and
 * its done() calls accepted() and rdma_accept() on the loop, then starts
 * the next. Events for a request being set up or waiting (the peer gave
 * up, the device went) only mark it: done() or its turn destroys it, so
 * nothing frees what a helper uses.
 */
#define AGG_RDMA_SETUP_HELPERS	2
void agg_rdma_cm_event(struct agg_rdma_srv *s);
/*
 * Handles at most a bounded batch of completions. Returns 1 when more may be
 * waiting: call again soon (the completion channel will not signal those).
 */
int agg_rdma_cq_event(struct agg_rdma_srv *s);
/* Only once every offloaded set-up's done() has run. */
void agg_rdma_stop(struct agg_rdma_srv *s);
/*
 * Connect requests waiting for a set-up helper (beyond
 * AGG_RDMA_SETUP_HELPERS at once); one withdrawn while it waits counts
 * until its turn lets it go.
 */
unsigned int agg_rdma_setups_queued(const struct agg_rdma_srv *s);
/* The listener's device (NULL when bound to no one device) and address. */
struct ibv_context *agg_rdma_verbs(const struct agg_rdma_srv *s);
void agg_rdma_addr(const struct agg_rdma_srv *s, uint8_t addr[4], uint32_t *port);

/* 0, or -1 when the message is too long or the post failed. */
int agg_rdma_send(struct agg_rdma_conn *rc, const void *hdr, size_t hdr_len,
		  const void *payload, size_t len);
/*
 * Register @len bytes at @buf (local access only) on the PD of @s's
 * device, which every connection of the listener shares, for
 * agg_rdma_send_region(). NULL (errno set) when registration fails
 * (RLIMIT_MEMLOCK, ...). Pinning is slow (0.5-1.6 s for 2.3 MiB on a
 * loaded guest): never on the event loop. Safe from any thread while @s
 * is not stopped.
 */
struct agg_rdma_region *agg_rdma_region_reg(struct agg_rdma_srv *s,
					    void *buf, size_t len);
/* Only once no send reads it: after its sent() or agg_rdma_close(). */
void agg_rdma_region_dereg(struct agg_rdma_region *r);
/*
 * agg_rdma_send() without the payload's copy: the header goes through the
 * connection's send slot, the payload (which must lie inside @r) is the
 * SEND's second SGE, read in place. It must stay unchanged, and @r
 * registered, until the sent() callback or agg_rdma_close() (which
 * destroys the QP: no read of it after that). 0, or -1 as agg_rdma_send().
 */
int agg_rdma_send_region(struct agg_rdma_conn *rc, const void *hdr,
			 size_t hdr_len, const struct agg_rdma_region *r,
			 const void *payload, size_t len);
void agg_rdma_recv_done(struct agg_rdma_conn *rc);
/*
 * Keep @msg, the message being handled (as received()
 * gave it), where it is (no copy): its receive slot
 * is not posted again by agg_rdma_recv_done() but by
 * agg_rdma_loan_return(), and the message stays valid until then, also
 * after agg_rdma_close() (the buffer is freed by the last return; return
 * every loan before agg_rdma_stop()). NULL when AGG_RDMA_MAX_LENT slots of
 * the connection are lent already, or @msg is not the received message
 * (a copy held back): copy the message then; the limit leaves the peer
 * receive slots for its next requests whatever happens to the loans.
 */
#define AGG_RDMA_MAX_LENT	(AGG_RDMA_RECV_DEPTH - 2)
struct agg_rdma_loan;
struct agg_rdma_loan *agg_rdma_recv_lend(struct agg_rdma_conn *rc,
					 const uint8_t *msg);
void agg_rdma_loan_return(struct agg_rdma_loan *l);
void agg_rdma_close(struct agg_rdma_conn *rc);

#endif /* SPARE_AGG_RDMA_H */
