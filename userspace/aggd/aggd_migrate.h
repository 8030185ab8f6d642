/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd: moving a job to another instance (agg_proto.h, "Moving a
 * job"). The source talks to the target over an ordinary outgoing
 * connection of the loop, the "link"; the target receives the job over an
 * incoming one. Both ends prove they hold the daemons' shared key before
 * anything of the job crosses (aggd.md, "Daemon-to-daemon authentication").
 */
#ifndef SPARE_AGGD_MIGRATE_H
#define SPARE_AGGD_MIGRATE_H

#include <netinet/in.h>
#include <stdint.h>

#include "aggd_conn.h"
#include "agg_proto.h"

struct rdma_cm_id;
struct state_sender;

enum mig_state {
	MIG_CONNECT,	/* connecting to the target */
	MIG_AUTH,	/* HELLO sent, waiting for the target's proof */
	MIG_IMPORT,	/* IMPORT sent, waiting for the target to accept */
	MIG_DRAIN,	/* holding back iterations >= barrier until quiescent */
	MIG_COMMIT,	/* state and IMPORT_COMMIT sent */
	MIG_DONE,	/* moved, or failed: the link is closing */
};

struct migration {
	struct agg_job *job;		/* NULL once the job is gone */
	struct conn *link, *admin;
	struct agg_target to;
	struct sockaddr_in addr;
	enum mig_state state;
	uint64_t start_ns;
	uint64_t barrier_ns;		/* when the barrier was set (mig_drain) */
	uint8_t nonce[32];		/* our challenge to the target */
	uint32_t caps_offered;		/* AGG_PEER_CAP_* sent in IMPORT */
	const char *tcp_why;		/* why the state goes over TCP */
	/* the target took AGG_PEER_CAP_RDMA_STATE: where to WRITE */
	bool rdma;
	uint32_t target_job;		/* the job's id at the target */
	struct agg_state_rdma dst;	/* dst.bufs allocated */
	const char *state_via;		/* "TCP" or "RDMA", for the log */
	/*
	 * The RDMA WRITEs, on a thread of their own while the loop goes on
	 * (aggd.md, "Who owns what while the state moves"): while @xfer is
	 * set the job's buffers are the thread's to read, so the job stays
	 * held and the migration (with @xfer_op, the eventfd's read) is not
	 * freed, even when the move fails or its link goes meanwhile.
	 */
	struct state_sender *xfer;
	struct migration *xfer_next;	/* transfers under way */
	struct op xfer_op;		/* OP_STATE_SENT */
	uint64_t xfer_buf;
};

/* Registers the migration's hooks with the job layer. */
void migrate_init(void);

/* source side */
void handle_migrate(struct conn *c);
void on_connect(struct conn *l, int res);
void link_hdr(struct conn *l);
void link_body(struct conn *l);
void mig_link_closing(struct conn *l, const char *why);
void mig_link_gone(struct migration *m);
void mig_admin_gone(struct conn *c);
/* OP_STATE_SENT: a move's RDMA transfer has ended. */
void mig_state_sent(struct op *op);
/* Exiting (the ring is gone): stop and join every transfer. */
void mig_stop_transfers(void);

/* target side */
void handle_peer_hello(struct conn *c);
void handle_peer_proof(struct conn *c);
void handle_import(struct conn *c);
void handle_import_commit(struct conn *c);
/* Where an IMPORT_STATE payload goes, or NULL after failing the link. */
void *import_state_buf(struct conn *c);
void import_abandoned(struct conn *c);
/* A state connection's request (agg_rdma_ops.state_request). */
int import_rdma_request(struct rdma_cm_id *id, uint32_t job_id,
			const uint8_t *token, const char *peer);

#endif /* SPARE_AGGD_MIGRATE_H */
