/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's RDMA side, inside: what server.c, session.c, conn.c, messages.c
 * and slabs.c share, each file using only those listed above it. The rest
 * of the daemon uses spared.h.
 *   session.c   a session: its log name, failing it, sends, its slabs, its
 *               life, reaping; the timer
 *   conn.c      rdma_cm events, completions, the device's async events
 *   messages.c  the control messages from a client (MAP/UNMAP: slabs.c)
 *   slabs.c     MAP/UNMAP, EVICT/ACTIVITY_QUERY
 *   server.c    start and stop
 */
#ifndef SPARED_SERVER_H
#define SPARED_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "spared.h"

#define WRID_SEND	(1ULL << 32)
#define WRID_INDEX(w)	((uint32_t)((w) & 0xffffffffULL))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* session.c */
const char *peer_host(struct rdma_cm_id *id, char *buf, size_t len);
const char *peer_name(struct rdma_cm_id *id, char *buf, size_t len);
void session_fail(struct session *sess, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void session_bad_msg(struct session *sess, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct spare_msg *recv_buf(struct session *sess, uint32_t i);
int post_recv(struct session *sess, uint32_t i);
void session_send(struct session *sess, const struct spare_msg *m);
void drain_backlog(struct session *sess);
int slab_register(struct session *sess, struct slab *s);
int slab_lend(struct session *sess, struct slab *s, uint64_t *fill_ms);
void slab_release(struct spared *d, struct slab *s,
		  enum slab_release_why why);
struct session *find_session(struct spared *d, uint64_t cookie);
int new_cookie(struct spared *d, uint64_t *cookie);
void data_conn_destroy(struct conn *c, bool disconnect);
void conn_disconnect(struct session *sess, struct conn *c);
void session_free(struct session *sess);
bool try_resume(struct session *sess);
void held_free(struct spared *d, struct session *h, const char *why);
unsigned int live_sessions(const struct spared *d);
void supersede_sessions(struct spared *d, const uint8_t *uuid,
			const char *host, const char *client, const char *peer,
			const struct session *keep);

/* conn.c */
void cm_handler(struct spared *d, struct ev_source *src, uint32_t events);
void spared_cm_id_release(struct spared *d, struct rdma_cm_id *id, bool linger);
void spared_linger_expire(struct spared *d, uint64_t now_ms);
void spared_linger_drain(struct spared *d);

/* messages.c */
void handle_msg(struct session *sess, const struct spare_msg *m,
		unsigned int type);

/* slabs.c */
uint64_t wall_seconds(void);
void on_map(struct session *sess, const struct spare_msg *in, uint32_t seq);
void on_unmap(struct session *sess, const struct spare_msg *in);

#endif /* SPARED_SERVER_H */
