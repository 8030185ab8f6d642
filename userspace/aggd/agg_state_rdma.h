/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd: a moving job's optimizer state by RDMA WRITE (aggd.md,
 * "Moving over RDMA"). The target registers the imported job's fresh,
 * empty buffers for REMOTE_WRITE in a protection domain of this move alone
 * and accepts one rdma_cm connection that names its one-time token; the
 * source WRITEs its partition buffers, registered for local access only,
 * into them. rdma-core calls only; nothing here logs.
 */
#ifndef SPARE_AGG_STATE_RDMA_H
#define SPARE_AGG_STATE_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "agg_proto.h"

struct ibv_context;
struct rdma_cm_id;
struct state_target;

/* A local buffer of the job's state: a partition's weights or momentum. */
struct state_local {
	void *addr;
	uint32_t len;
};

/*
 * The target's side of one move: a PD on @verbs, @n buffers registered for
 * REMOTE_WRITE, a fresh token. NULL with @why filled on failure.
 */
struct state_target *state_target_new(struct ibv_context *verbs,
				      const struct state_local *bufs,
				      uint32_t n, char *why, size_t why_len);
/* What the IMPORT_REPLY carries; @r->bufs has room for every buffer. */
void state_target_describe(const struct state_target *t, const uint8_t addr[4],
			   uint32_t port, struct agg_state_rdma *r);
/*
 * A connect request naming this move: 0 when @token is the move's and
 * none was accepted before (the QP is made in the move's PD and the
 * connection accepted; @id is the target's until state_target_free()),
 * else -1 (the caller rejects @id). The token is good for one connection.
 */
int state_target_accept(struct state_target *t, struct rdma_cm_id *id,
			const uint8_t *token);
/* Deregisters the MRs (their rkeys die), then the QP, cm_id and PD. */
void state_target_free(struct state_target *t);

enum state_send_result {
	STATE_SENT,		/* every WRITE completed */
	STATE_NOT_SENT,		/* failed before the first WRITE: use TCP */
	STATE_BROKEN,		/* failed after a WRITE was posted */
};

/*
 * The source's side: connect from @src to the target's rdma_cm address in
 * @r with @job_id and the token (at most @connect_ms for each rdma_cm
 * step), register @bufs for local access, WRITE each into @r's buffer of
 * the same index, wait for every completion, tear everything down. @why
 * says what failed.
 */
enum state_send_result state_send(const struct sockaddr_in *src,
				  const struct agg_state_rdma *r, uint32_t job_id,
				  const struct state_local *bufs, uint32_t n,
				  unsigned int connect_ms, char *why,
				  size_t why_len);

/*
 * state_send() on a thread of its own, so that the caller's event loop
 * goes on (aggd.md, "Moving over RDMA", "Who owns what while the state
 * moves"). @r and @bufs (the list, not the bytes) are copied; the bytes
 * are read until state_sender_finish() returns, so the caller must not
 * change or free them before. NULL with @why filled when the thread could
 * not start. The thread takes no signals.
 */
struct state_sender;
struct state_sender *state_send_start(const struct sockaddr_in *src,
				      const struct agg_state_rdma *r,
				      uint32_t job_id,
				      const struct state_local *bufs,
				      uint32_t n, unsigned int connect_ms,
				      char *why, size_t why_len);
/* An eventfd that becomes readable (1) once the transfer has ended. */
int state_sender_fd(const struct state_sender *s);
/*
 * Ask the transfer to stop: it does so before its next rdma_cm step, or
 * within 50 ms while it waits for completions (a failure: STATE_BROKEN
 * after a WRITE was posted, else STATE_NOT_SENT).
 */
void state_sender_cancel(struct state_sender *s);
/* Join the thread (blocks until the transfer ended), free @s; @why says
 * what failed. */
enum state_send_result state_sender_finish(struct state_sender *s, char *why,
					   size_t why_len);

#endif /* SPARE_AGG_STATE_RDMA_H */
