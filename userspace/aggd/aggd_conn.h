/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd connection I/O: one struct conn per peer (TCP through io_uring,
 * or an RDMA connection), its send queue and its receive state machine
 * (header, then body). This layer knows bytes and messages, not jobs: what a
 * message means is decided by the conn_ops the dispatcher registers
 * (aggd_dispatch.c), so the layers above call down and never the reverse.
 */
#ifndef SPARE_AGGD_CONN_H
#define SPARE_AGGD_CONN_H

#include <liburing.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "agg_proto.h"

struct agg_job;
struct agg_rdma_conn;
struct agg_rdma_loan;
struct agg_rdma_region;
struct migration;

struct held_msg {
	struct held_msg *next;
	size_t len;
	uint8_t msg[];
};

enum op_kind {
	OP_ACCEPT,
	OP_RECV,
	OP_SEND,
	OP_EVENT,
	OP_RDMA_CM,
	OP_RDMA_CQ,
	OP_TIMER,
	OP_CONNECT,
	OP_ACCEPT_ADMIN,
	OP_HTTP,
	OP_ACCEPT_RESUME,	/* a listener's back-off after EMFILE is over */
	OP_STATE_SENT,		/* a move's RDMA transfer ended (aggd_migrate.c) */
};

/* What an io_uring completion is for (its user_data). */
struct op {
	enum op_kind kind;
	struct conn *conn;
};

enum tx_kind {
	TX_PLAIN,	/* header (+ owned payload) */
	TX_PULL,	/* header + partition output; pull_sent on completion */
};

struct txmsg {
	struct txmsg *next;
	enum tx_kind kind;
	uint8_t hdr[AGG_HDR_SIZE];
	const void *payload;
	size_t len;		/* payload bytes */
	size_t off;		/* bytes of hdr + payload sent */
	void *owned;		/* freed when done */
	uint32_t part;
	/* RDMA: the payload lies in this registered region (a job's
	 * outputs) and is sent from there in place; NULL: copied */
	const struct agg_rdma_region *region;
	/* sent in place: the job whose memory the SEND reads, pinned
	 * (conn_ops.pin) from the post until the send ends */
	struct agg_job *pinned;
};

enum rx_stage {
	RX_HDR,
	RX_BODY,
};

struct conn {
	struct conn *next, *prev;
	int fd;
	uint32_t id;
	char peer[AGG_HOST_LEN + 16];
	struct op rx_op, tx_op;
	bool rx_busy, tx_busy;
	bool closing, close_after_tx;
	bool admin;		/* came in on the operator's listen address */
	bool answered;		/* a reply was queued: it made a request */
	uint64_t opened_ns;		/* accepted or connected */
	size_t preauth_bytes;	/* body memory charged before it proved itself */
	/* receive */
	enum rx_stage rx;
	uint8_t hdr_buf[AGG_HDR_SIZE];
	struct agg_hdr hdr;
	uint8_t *rx_dst;
	size_t rx_len, rx_off;
	uint8_t *body;		/* REGISTER/MIGRATE/IMPORT body */
	/* send */
	struct txmsg *tx_head, *tx_tail;
	struct msghdr tx_msg;
	struct iovec tx_iov[2];
	/* RDMA transport (NULL for TCP): the message being handled */
	struct agg_rdma_conn *rdma;
	const uint8_t *rmsg;
	size_t rmsg_len;
	/* job binding */
	struct agg_job *job;
	unsigned int rank;
	bool left;
	/* its REGISTER waits for the job's buffers (aggd_jobs.c: job_new);
	 * requests sent meanwhile are held (conn_hold); reg_wait: it asked
	 * for REGISTER_WAIT meanwhile (AGG_REG_WANT_WAIT), last sent then */
	bool reg_pending;
	bool reg_wait;
	uint64_t reg_wait_ns;
	/* idle timeout */
	uint64_t last_rx_ns;		/* last byte received */
	uint64_t reclaim_ns;		/* its job was reclaimed: close by then */
	/* moving jobs */
	bool sinking;			/* receiving a push that is dropped */
	bool redirected;		/* its job moved away: told where */
	struct migration *mig_link;	/* outgoing link to a target */
	struct migration *mig_admin;	/* asked for this migration */
	struct agg_job *import_job;	/* job being imported over this */
	uint32_t import_offered;	/* its IMPORT's capabilities */
	struct op connect_op;
	/* held while its job moves (conn_hold): TCP stops reading after the
	 * header; RDMA keeps copies of the messages, in order */
	bool held, replaying;
	struct held_msg *held_head, *held_tail;
	/* daemon-to-daemon authentication (aggd_migrate.c) */
	uint8_t peer_nonce[32];		/* the challenge we sent */
	uint8_t peer_hello[32];		/* the challenge it sent */
	bool peer_challenged;		/* PEER_CHALLENGE sent */
	bool peer_authed;		/* proved it holds the shared key */
	/* tenants (aggd_tenants.c) */
	char tenant[AGG_NAME_LEN + 1];	/* proved; "" before, or open */
	char tenant_claim[AGG_NAME_LEN + 1];	/* TENANT_HELLO's, unproved */
	uint8_t tenant_nc[32];		/* the client's nonce */
	uint8_t tenant_nd[32];		/* ours */
	bool tenant_challenged;		/* TENANT_CHALLENGE sent */
	bool tenant_authed;		/* proved the tenant's key */
};

/* What the layer above does with a connection's events. */
struct conn_ops {
	void (*hdr)(struct conn *c);		/* c->hdr_buf holds a header */
	void (*body)(struct conn *c);		/* the body asked for is in */
	void (*pull_sent)(struct conn *c, uint32_t part); /* TX_PULL left */
	/* a SEND reads partition @part's output of @job in place from now
	 * (pinned: posted) until it ends (!pinned: completed, or its QP
	 * destroyed) */
	void (*pin)(struct agg_job *job, uint32_t part, bool pinned);
	void (*closing)(struct conn *c, const char *why);
	void (*destroyed)(struct conn *c);	/* about to be freed */
};

void conn_set_ops(const struct conn_ops *ops);

struct io_uring_sqe *get_sqe(void);

/* A new connection in the daemon's list (fd < 0 for RDMA); NULL: no memory. */
struct conn *conn_open(int fd, const char *peer);

struct txmsg *tx_new(const struct agg_hdr *h);
void tx_queue(struct conn *c, struct txmsg *m);
/* Queue one message whose payload is @owned's (freed when sent, or now). */
void tx_send(struct conn *c, const struct agg_hdr *h, const void *payload,
	     size_t len, void *owned);
/* Same, with magic, version, @type and @len filled into a copy of @tmpl. */
void queue_plain(struct conn *c, unsigned int type, const struct agg_hdr *tmpl,
		 const void *payload, size_t len, void *owned);
void send_error(struct conn *c, unsigned int status, uint32_t part,
		uint32_t iter, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* ERROR reply, one log line, then close the connection once it is sent. */
void fail_conn(struct conn *c, unsigned int status, const char *what);

/*
 * Before a connection has a job or has proved the daemons' key, the bodies
 * it is sent share one budget (AGGD_PREAUTH_BUDGET): charge @len bytes to
 * @c, making room by closing the oldest such connection holding a body.
 * False if there is no room even so (the caller refuses the request). The
 * charge is released when the body is in, or the connection goes.
 */
bool conn_preauth_charge(struct conn *c, size_t len);
/* Whether @c has proved nothing yet (no job, no key, no move). */
bool conn_preauth(const struct conn *c);

void rx_expect_hdr(struct conn *c);
void rx_expect_body(struct conn *c, void *dst, size_t len);
/*
 * RDMA: the body stays where it landed. True and *body, *loan set (the
 * transport lent its receive slot: agg_rdma_recv_lend()) when so; then
 * rx_body_lent() goes on as rx_expect_body() would have. False when the
 * transport lends no more (or this is no RDMA message): rx_expect_body().
 */
bool rx_lend_body(struct conn *c, const void **body,
		  struct agg_rdma_loan **loan);
void rx_body_lent(struct conn *c);

/*
 * Keep the message just received (header in c->hdr_buf; RDMA: the whole
 * message) unanswered and read no further request of @c until
 * conn_release(), which hands it (and, over RDMA, whatever came after it)
 * to the layer above again, as if just received. Returns with @c possibly
 * closed; @c is not freed before conn_release() returns.
 */
void conn_hold(struct conn *c);
void conn_release(struct conn *c);

void conn_close(struct conn *c, const char *why);
void conn_maybe_destroy(struct conn *c);
void conn_destroy(struct conn *c);

/* io_uring completions of a connection */
void on_recv(struct conn *c, int res);
void on_send(struct conn *c, int res);

/* A whole message from a message transport (RDMA). */
void conn_message(struct conn *c, const uint8_t *msg, size_t len);

/* TCP listeners: bind (-1 on error, logged) and accept. */
int listen_on(const char *addr, unsigned int port, const char *port_file);
void accept_post(int fd, struct op *op);
void on_accept(int listen_fd, struct op *op, int res, bool admin);
/* OP_ACCEPT_RESUME: accept again on the listeners paused after EMFILE. */
void accept_resume(void);

#endif /* SPARE_AGGD_CONN_H */
