/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared: the donor daemon. Lends slabs of its memory budget to clients
 * over rdma_cm (see kmod/uapi/spare.h for the protocol and
 * Documentation/spared.md for operation).
 *
 * One thread, one epoll loop. Event sources: the rdma_cm event channel,
 * one completion channel per client session, a signalfd, a timerfd for
 * eviction deadlines and the unix control socket (plus its connections).
 */
#ifndef SPARED_H
#define SPARED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/un.h>

#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>

#include "backstop.h"
#include "config.h"
#include "grants.h"
#include "lend.h"
#include "linger.h"
#include "pool.h"
#include "spare_auth.h"
#include "spare_fdlimit.h"
#include "spare_proto.h"


/* Control QP depths. The client is told nothing: it must keep at most
 * SPARED_RECV_DEPTH messages in flight toward us (RNR retry covers a
 * burst), and we keep at most its announced queue_depth toward it.
 * Receives are many and cheap (64 bytes each): while one loop turn is
 * busy (lending a slab populates and pins it), a client's renewal sends
 * each grant in 7 GRANT parts, and 32 receives could run out (RNR NAKs,
 * seen in session 43's broker/fair-share@kmod runs). */
#define SPARED_RECV_DEPTH	256
#define SPARED_SEND_DEPTH	32
#define SPARED_BACKLOG		128	/* queued sends before we give up on a client */
#define SPARED_ESTABLISH_WAIT_MS 5000	/* a disconnect waits this long for ESTABLISHED */
#define SPARED_CM_FD_CEIL	65536	/* the rdma_cm channel just below (server.c) */
#define SPARED_MAX_DEVICES	16	/* RDMA devices watched for async events */


struct spared;

/* Anything the loop waits on. */
struct ev_source {
	int	fd;
	void	(*handle)(struct spared *d, struct ev_source *src, uint32_t events);
};

struct session;

/* One rdma_cm connection: the session's CONTROL one or one of its DATA ones. */
struct conn {
	enum spare_conn_kind	kind;
	struct session		*sess;
	struct rdma_cm_id	*id;
	struct conn		*next;		/* in sess->data */
	bool			established;
	bool			disconnected;	/* our DREQ sent, no answer seen */
};

struct session {
	struct spared		*d;
	struct session		*next;
	uint64_t		serial;		/* for logs */
	char			name[96];	/* "peer-addr#serial" */
	uint64_t		cookie;
	uint8_t			uuid[16];
	char			host[64];	/* peer address, no port */
	uint64_t		created_ms;

	struct conn		ctrl;
	struct conn		*data;
	unsigned int		ndata;

	struct ibv_context	*verbs;
	struct ibv_device_attr	dev_attr;
	struct ibv_pd		*pd;
	struct ibv_comp_channel	*channel;
	struct ev_source	channel_src;
	bool			channel_in_epoll;
	struct ibv_cq		*cq;
	unsigned int		cq_unacked;

	/* Message buffers: SPARED_RECV_DEPTH receive, then send slots. */
	struct spare_msg	*bufs;
	struct ibv_mr		*bufs_mr;
	uint32_t		send_free[SPARED_SEND_DEPTH];
	unsigned int		nsend_free;
	unsigned int		send_limit;	/* min(client queue_depth, SEND_DEPTH) */
	struct spare_msg	backlog[SPARED_BACKLOG];
	unsigned int		backlog_head, backlog_len;

	bool			hello_done;
	enum {
		AUTH_NONE,		/* no HELLO yet, or open mode */
		AUTH_WAIT_RESPONSE,	/* AUTH_CHALLENGE sent */
		AUTH_DONE,		/* both proofs checked */
		AUTH_REFUSED,		/* told so in HELLO_REPLY; nothing more */
	}			auth;
	uint8_t			nonce_c[SPARE_AUTH_NONCE_LEN];
	uint8_t			nonce_d[SPARE_AUTH_NONCE_LEN];
	uint8_t			hello_shift;	/* slab size asked in HELLO */
	char			client[SPARE_GRANT_CLIENT_LEN]; /* authenticated name, or "" */
	char			owner[SPARE_GRANT_CLIENT_LEN];	/* grants' owner: client or uuid */
	struct spare_grant_rx	grx;		/* a grant arriving in parts */
	bool			dead;		/* torn down at the end of the loop turn */
	bool			disconnect_pending; /* dead before ESTABLISHED */
	uint64_t		dead_ms;
	uint32_t		tx_seq;
	uint64_t		msgs_in, msgs_out;

	/* Pager restart (HELLO F_HOLD / F_RESUME): hold.h, server.c. */
	bool			hold;		/* keep our slabs if we vanish */
	uint64_t		resume_token;	/* ours, sent in HELLO_REPLY */
	uint64_t		resume_shown;	/* F_RESUME: the token shown */
	bool			resume_open;	/* F_RESUME, nothing adopted yet */
	uint64_t		hold_until_ms;	/* parked: hold ends then */

	struct spare_ratelimit	lapse_log;	/* the backstop's line about it */
};

struct spared_counters {
	uint64_t	sessions;		/* CONTROL connections accepted */
	uint64_t	data_conns;		/* DATA connections accepted */
	uint64_t	conn_rejected;		/* connection requests refused */
	uint64_t	superseded;		/* sessions replaced by a reconnect */
	uint64_t	bad_msgs;		/* malformed or out-of-place messages */
	uint64_t	heartbeats;
	uint64_t	auth_ok;		/* clients authenticated */
	uint64_t	auth_refused;		/* wrong key or no key */
	uint64_t	grants_accepted;	/* grants verified and recorded */
	uint64_t	grants_refused;		/* forged, expired, replayed, ... */
	uint64_t	maps_no_grant;		/* MAPs refused: no grant covers them */
	uint64_t	maps_unready;		/* MAPs that populated their slab */
	uint64_t	holds;			/* sessions whose slabs were held */
	uint64_t	resumes;		/* held slabs adopted by a new session */
	uint64_t	resumes_refused;	/* F_RESUME of another identity */
	uint64_t	holds_expired;		/* held slabs freed at resume-hold */
	uint64_t	slabs_kept;		/* MAPPED with F_KEPT */
	uint64_t	slabs_adopted;		/* held slabs taken over from the image before */
	uint64_t	lapsed_evictions;	/* EVICTs of slabs past lapsed grants */
};

/* What a restart for an upgrade hands to the next image (restart.c). */
#define SPARED_HANDOFF_MAX	4096
struct spared_handoff {
	unsigned int	n;
	int		fd[SPARED_HANDOFF_MAX];
	char		name[SPARED_HANDOFF_MAX][24];
};

#define SPARED_LEND_MAX_SAMPLE	256	/* E+E' at most */

/* Lending what is idle (lending.c); off unless max-lend is set. */
struct spared_lend {
	bool			enabled;
	struct lend_params	params;
	struct lend_state	st;
	struct spare_rng		rng;
	struct ev_source	tick_src;
	struct ev_source	psi_src;	/* PSI trigger, POLLPRI */
	char			psi_path[320];	/* "" = no PSI */
	bool			psi_read_warned, meminfo_warned;
	unsigned int		psi_events;	/* since the last decision */
	uint32_t		*cand, *scratch; /* nslabs each, for sampling */
	/* the batch eviction under way */
	bool			batch_active;
	unsigned int		batch_want, batch_pending;
	uint64_t		batch_deadline_ms;
	/* last readings and counters */
	uint64_t		mem_available;
	double			psi_some, psi_full;
	uint64_t		ticks, psi_events_total, pressure_readings;
	uint64_t		batches, evicted, no_replies;
};

/*
 * What the server tells the lending policy (lending.c registers it when
 * lending is on), so that the RDMA side (session.c, messages.c) calls
 * into lending.c only through it.
 */
struct spared_lend_ops {
	/* a sampled slab's client answered its ACTIVITY_QUERY */
	void (*activity_reply)(struct spared *d);
	/* when the batch under way must be decided without the missing
	 * replies (ms), or 0 */
	uint64_t (*next_timer)(struct spared *d);
	void (*timer_work)(struct spared *d, uint64_t now_ms);
};

struct spared {
	struct spared_config	cfg;
	int			epfd;
	bool			stopping;
	bool			upgrading;	/* SIGUSR2: stopping to exec again */
	struct spared_handoff	handoff;	/* ... and what goes over */

	struct rdma_event_channel *cm_channel;
	struct ev_source	cm_src;
	struct rdma_cm_id	*listen_id;
	struct spared_linger	linger;		/* disconnected control ids (linger.h) */

	struct slab_pool	pool;
	struct spare_host_keys	keys;		/* empty: open mode */
	uint8_t			donor_id[SPARE_AUTH_ID_LEN]; /* host name */
	struct spared_grants	grants;		/* with grant-key-file */
	bool			grants_on;	/* MAPs need grants */
	struct spared_backstop	backstop;	/* with grants: lapsed grants' slabs */
	uint64_t		backstop_next_ms; /* its next look; 0: none */
	struct session		*sessions;
	unsigned int		nsessions;
	struct session		*held;		/* ended, slabs kept for a resume */
	uint64_t		next_serial;
	struct spared_counters	ctr;

	struct ev_source	sig_src;
	struct ev_source	timer_src;
	struct ev_source	ctl_src;

	/* Async event channels of the RDMA devices sessions use. */
	struct spared_async {
		struct ev_source	src;
		struct ibv_context	*verbs;
	}			async[SPARED_MAX_DEVICES];
	unsigned int		nasync;
	uint64_t		start_ms;
	struct spared_lend	lend;
	const struct spared_lend_ops *lend_ops;	/* NULL: not lending */
};

/* main.c */
struct spare_metrics;
/* Every counter of @d into @m (metrics.c). */
void spared_metrics(struct spared *d, struct spare_metrics *m);
/* The HTTP /metrics page (a spare_http_metrics_fn; @ctx is the spared). */
int spared_metrics_page(void *ctx, FILE *f);

/* loop.c: the event loop's plumbing */
int spared_epoll_add(struct spared *d, struct ev_source *src);
void spared_epoll_del(struct spared *d, struct ev_source *src);
/* Arm the timer for @next_ms (spare_now_ms() clock; 0: disarm). */
void spared_timer_set(struct spared *d, uint64_t next_ms);

/* server.c, session.c, conn.c, messages.c, slabs.c (server.h inside):
 * rdma_cm, sessions, messages */
int spared_server_start(struct spared *d);
/* The grant keys cfg names (grant-public-keys, grant-key-file), logging why not. 0 or -1. */
int spared_grant_keys_read(const struct spared_config *cfg, struct spare_grant_keys *k);
void spared_server_stop(struct spared *d);
void spared_reap_sessions(struct spared *d);
/*
 * Populate a piece (1 MiB) of the next free slab short of map-ready ready
 * ones, so that a MAP finds its memory there (a move's MAP must be quick:
 * it spends the evicting donor's grace period). The loop calls it once a
 * turn, without waiting for events while it returns true.
 */
bool spared_ready_step(struct spared *d);
void spared_timer_work(struct spared *d, uint64_t now_ms);
/* When spared_timer_work() next has something to do (ms), or 0. */
uint64_t spared_next_timer(struct spared *d);
/* (Re)arm the timer for the next eviction deadline or HELLO timeout. */
void spared_arm_timer(struct spared *d);
/* Ask @n lent slabs back (UINT32_MAX: all); returns how many EVICTs went out. */
unsigned int spared_evict(struct spared *d, unsigned int n,
			  enum spare_evict_reason reason);
/* EVICT one LENT slab; false if it is not LENT or its owner is gone
 * (then it is reclaimed). */
bool spared_evict_slab(struct spared *d, struct slab *s,
		       enum spare_evict_reason reason);
/* With grants: EVICT the slabs past their clients' lapsed grants for
 * longer than grant-grace (backstop.h); one look, once a second, at wall
 * time @now_s and monotonic @now_ms. */
void spared_backstop_look(struct spared *d, uint64_t now_s, uint64_t now_ms);
/* ACTIVITY_QUERY for one lent slab; false if not sent. */
bool spared_query_slab(struct spared *d, struct slab *s);
/* Send ACTIVITY_QUERY for every lent slab; returns how many went out. */
unsigned int spared_query_activity(struct spared *d);

/* restart.c: restarting for an upgrade (SIGUSR2) keeping held slabs.
 * spared_server_stop() calls spared_keep_save() when d->upgrading, with
 * every F_HOLD session held; main() then calls spared_keep_exec(), which
 * returns only if the exec failed. At start, spared_keep_adopt() parks
 * what the image before handed over (0; a refusal is logged). */
int spared_keep_save(struct spared *d);
void spared_keep_exec(struct spared *d, char **argv);
int spared_keep_adopt(struct spared *d);
void spared_handoff_close(struct spared_handoff *h);

/* lending.c: lend what is idle (no-ops unless max-lend is set); with
 * max-lend it registers d->lend_ops */
int spared_lend_start(struct spared *d);
void spared_lend_stop(struct spared *d);

/* ctl.c: the unix control socket and the status report */
int spared_ctl_start(struct spared *d);
void spared_ctl_stop(struct spared *d);
/* Write the status report (counters, and each slab if @slabs) to @f. */
void spared_print_status(struct spared *d, FILE *f, bool slabs);

#endif /* SPARED_H */
