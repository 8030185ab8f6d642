/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd's state: one instance, owned by the event-loop thread (the
 * pool threads see only the tasks handed to them, a move's transfer
 * thread only its copies and the held job's buffers: aggd_migrate.h).
 * Each file of the daemon reads the fields of its concern; the comments
 * say whose they are.
 */
#ifndef SPARE_AGGD_STATE_H
#define SPARE_AGGD_STATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "aggd_conn.h"
#include "aggd_tenants.h"
#include "spare_fdlimit.h"
#include "spare_http.h"

struct agg_pool;
struct agg_rdma_srv;
struct job_entry;
struct moved_job;

/* body memory of all connections that proved nothing yet, at most */
#define AGGD_PREAUTH_BUDGET	(8U << 20)

#define AGGD_MAX_PEERS	64	/* --peers: daemons a job may move to */

#define AGGD_KEY_MIN	16	/* the daemons' shared key, bytes */
#define AGGD_KEY_MAX	256

struct aggd_state {
	/* main (aggd_main.c) */
	struct io_uring ring;
	volatile sig_atomic_t stop;
	uint64_t now_ns;		/* CLOCK_MONOTONIC at this loop turn */
	int listen_fd, admin_fd, event_fd;
	struct op accept_op, admin_op, event_op;
	uint64_t event_buf;
	FILE *cores_log;
	/* connections (aggd_conn.c) */
	struct conn *conns;
	uint32_t next_conn_id;
	unsigned int n_conns;
	uint64_t conns_total;
	uint32_t max_push;		/* largest payload a header may announce */
	unsigned int max_conns;		/* --max-conns, below RLIMIT_NOFILE */
	uint64_t conns_evicted;		/* closed at the cap to make room */
	struct spare_ratelimit cap_log;	/* the "cap reached" line */
	struct spare_accept_gate data_gate, admin_gate;	/* EMFILE back-off */
	struct op resume_op;		/* OP_ACCEPT_RESUME */
	struct __kernel_timespec resume_ts;
	bool resume_posted;
	uint64_t request_ns;		/* --request-timeout: a first request by then */
	size_t preauth_used;		/* charged by conn_preauth_charge() */
	uint64_t preauth_evicted, request_timeouts;
	struct spare_ratelimit preauth_log, request_log;
	/* jobs (aggd_jobs.c) */
	struct job_entry *jobs;
	struct agg_pool *pool;
	uint32_t next_job_id;
	size_t mem_used, mem_max, job_mem_max;
	uint64_t jobs_created, jobs_failed;
	struct moved_job *moved;
	unsigned int n_moved;
	void *sink;			/* dropped pushes land here */
	/* refusals (every connection closed for a peer's mistake) */
	uint64_t refused_total;
	uint64_t refused_auth;		/* bad token or failed peer proof */
	/* idle reclaim (aggd_reclaim.c); idle_ns 0: never */
	uint64_t idle_ns;
	struct op timer_op;
	struct __kernel_timespec timer_ts;
	uint64_t jobs_reclaimed;
	/* moving jobs (aggd_migrate.c) */
	uint64_t jobs_moved_out, jobs_moved_in, moves_failed;
	unsigned char peer_key[AGGD_KEY_MAX];	/* HMAC-SHA-256 key */
	size_t peer_key_len;		/* 0: no key; IMPORT and MIGRATE refused */
	bool stats_open;		/* --stats-on-data-port */
	uint32_t peers[AGGD_MAX_PEERS];	/* --peers: IPv4, network order */
	unsigned int n_peers;		/* 0: MIGRATE refused */
	/* progress reports and FlowCon (aggd_report.c) */
	uint64_t reports_total, reports_refused, flowcon_decisions;
	/* the tail: a partition's last push in to its sum done (aggd_jobs.c) */
	uint64_t sum_tail_ns, sum_tails, sum_tail_max_ns;
	/* folds run on the event loop, not the pool (aggd_jobs.c fold_part) */
	uint64_t recv_folds, recv_fold_ns;
	/* RDMA (aggd_rdma_cb.c) */
	struct agg_rdma_srv *rdma;
	/* RDMA pushes folded from their lent receive slot, or copied out of
	 * it (the connection's lendable slots all lent: aggd_dispatch.c) */
	uint64_t rdma_pushes_lent, rdma_pushes_copied;
	/* RDMA pull replies sent from the registered output in place, or
	 * copied; jobs whose outputs could not be registered */
	uint64_t rdma_replies_in_place, rdma_replies_copied;
	uint64_t rdma_output_reg_failed;
	uint64_t rdma_output_regs_running;	/* started, result not yet taken */
	uint64_t rdma_setups_running;	/* RDMA connections set up on helpers */
	/* jobs' buffers being freed on helper threads (aggd_jobs.c:
	 * job_free_off_loop): submitted, result not yet taken */
	uint64_t jobs_freeing, jobs_freeing_bytes;
	/* RDMA connection events handled on the loop (aggd_rdma_cm_ready:
	 * set-ups, ESTABLISHED, disconnects): batches, their time, the
	 * longest and how many connections it accepted; accepted in all */
	uint64_t rdma_cm_batches, rdma_cm_ns, rdma_cm_max_ns;
	uint64_t rdma_cm_max_accepts, rdma_accepts;
	struct op rdma_cm_op, rdma_cq_op;
	struct spare_http *http;	/* --metrics-listen, or NULL */
	struct op http_op;
	bool rdma_cq_armed;
	/* tenants (aggd_tenants.c); tenant_mode false: open (--open) */
	bool tenant_mode;
	struct aggd_tenants tenants;
};

extern struct aggd_state g;

#endif /* SPARE_AGGD_STATE_H */
