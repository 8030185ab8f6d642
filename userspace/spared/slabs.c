// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: a client's slabs asked for and asked back. MAP (the
 * grant and budget checks) and UNMAP, EVICT and ACTIVITY_QUERY.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "slabmem.h"
#include "spare_fdlimit.h"
#include "hold.h"
#include "server.h"
#include "spared.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

static void reply_mapped_flags(struct session *sess, uint32_t seq,
			       uint32_t slab_id, enum spare_status st,
			       const struct slab *s, uint32_t flags)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_MAPPED, seq);
	m.mapped.slab_id = htole32(slab_id);
	m.mapped.status = htole32(st);
	if (st == SPARE_ST_OK) {
		m.mapped.addr = htole64((uintptr_t)s->mem);
		m.mapped.rkey = htole32(((struct ibv_mr *)s->mr)->rkey);
		m.mapped.flags = htole32(flags);
	}
	session_send(sess, &m);
}

static void reply_mapped(struct session *sess, uint32_t seq, uint32_t slab_id,
			 enum spare_status st, const struct slab *s)
{
	reply_mapped_flags(sess, seq, slab_id, st, s, 0);
}

uint64_t wall_seconds(void)
{
	return (uint64_t)time(NULL);
}

/* Slabs held (lent or being evicted) by any session of @owner. */
static uint64_t slabs_held(const struct spared *d, const char *owner)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < d->pool.nslabs; i++) {
		const struct slab *s = &d->pool.slabs[i];
		const struct session *o = s->owner;

		if ((s->state == SLAB_LENT || s->state == SLAB_EVICTING) && o &&
		    !strcmp(o->owner, owner))
			n++;
	}
	return n;
}

/* With a grant key: does a grant the client sent cover one more slab? */
static bool map_granted(struct session *sess, uint32_t id, uint64_t token)
{
	struct spared *d = sess->d;
	uint64_t now = wall_seconds(), budget, held;

	if (!d->grants_on)
		return true;
	if (!token) {
		log_warn("client %s: MAP slab %u refused: no grant (this donor lends only against a broker's grant)",
			 sess->name, id);
		return false;
	}
	if (!spared_grant_held(&d->grants, sess->owner, token, now)) {
		log_warn("client %s: MAP slab %u refused: grant %016" PRIx64
			 " was not accepted from this client, or has expired", sess->name, id, token);
		return false;
	}
	budget = spared_grant_budget(&d->grants, sess->owner, now);
	held = slabs_held(d, sess->owner);
	if (held >= budget) {
		log_warn("client %s: MAP slab %u refused: its grants cover %" PRIu64
			 " slab(s), all in use", sess->name, id, budget);
		return false;
	}
	return true;
}

void on_map(struct session *sess, const struct spare_msg *in, uint32_t seq)
{
	struct spared *d = sess->d;
	uint32_t id = le32toh(in->map.slab_id);
	uint64_t fill_ms;
	bool ready;
	struct slab *s;

	/*
	 * A slab held for this client (adopted at HELLO): it comes back with
	 * its contents, registered in this session's PD. It was granted and
	 * counted when first lent, so no grant is asked again.
	 */
	s = slab_pool_find(&d->pool, sess, id);
	if (s && s->kept) {
		if (slab_register(sess, s)) {
			slab_release(d, s, SLAB_RELEASE_RECLAIM);
			reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
			return;
		}
		s->kept = false;
		d->ctr.slabs_kept++;
		log_info("client %s: MAP slab %u -> donor slab %u, kept with its contents (rkey 0x%x)",
			 sess->name, id, s->index, ((struct ibv_mr *)s->mr)->rkey);
		reply_mapped_flags(sess, seq, id, SPARE_ST_OK, s, SPARE_MAPPED_F_KEPT);
		return;
	}
	if (!map_granted(sess, id, le64toh(in->map.grant))) {
		d->ctr.maps_no_grant++;
		reply_mapped(sess, seq, id, SPARE_ST_BAD_GRANT, NULL);
		return;
	}
	if (slab_pool_find(&d->pool, sess, id)) {
		log_warn("client %s: MAP slab %u: already mapped", sess->name, id);
		reply_mapped(sess, seq, id, SPARE_ST_BUSY, NULL);
		return;
	}
	s = slab_pool_take(&d->pool, sess, id);
	if (!s) {
		log_info("client %s: MAP slab %u: no free slab", sess->name, id);
		reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
		return;
	}
	ready = s->ready_bytes == d->pool.slab_size;
	if (slab_lend(sess, s, &fill_ms)) {
		slab_pool_untake(&d->pool, s);
		reply_mapped(sess, seq, id, SPARE_ST_NO_SPACE, NULL);
		return;
	}
	d->ctr.maps_unready += !ready;
	log_info("client %s: MAP slab %u -> donor slab %u (rkey 0x%x; memory populated %s%" PRIu64 " ms)",
		 sess->name, id, s->index, ((struct ibv_mr *)s->mr)->rkey,
		 fill_ms ? "now in " : "ahead, ", fill_ms);
	reply_mapped(sess, seq, id, SPARE_ST_OK, s);
}

void on_unmap(struct session *sess, const struct spare_msg *in)
{
	struct spared *d = sess->d;
	uint32_t id = le32toh(in->unmap.slab_id);
	struct slab *s = slab_pool_find(&d->pool, sess, id);

	if (!s) {
		/* Late answer to an EVICT whose deadline already passed. */
		log_info("client %s: UNMAP slab %u: not mapped (already revoked?)",
			 sess->name, id);
		return;
	}
	log_info("client %s: UNMAP slab %u (donor slab %u%s)", sess->name, id,
		 s->index, s->state == SLAB_EVICTING ? ", was being evicted" : "");
	slab_release(d, s, SLAB_RELEASE_UNMAP);
	spared_arm_timer(d);
}

bool spared_evict_slab(struct spared *d, struct slab *s,
		       enum spare_evict_reason reason)
{
	struct session *sess = (struct session *)s->owner;
	struct spare_msg m;

	if (s->state != SLAB_LENT)
		return false;
	if (sess->dead || s->kept) {	/* gone, or held for a resume */
		slab_release(d, s, SLAB_RELEASE_RECLAIM);
		return false;
	}
	spare_msg_init(&m, SPARE_MSG_EVICT, ++sess->tx_seq);
	m.evict.slab_id = htole32(s->client_id);
	m.evict.reason = htole32(reason);
	m.evict.deadline_ms = htole32(d->cfg.evict_deadline_ms);
	slab_pool_mark_evicting(&d->pool, s,
				spare_now_ms() + d->cfg.evict_deadline_ms);
	log_info("client %s: EVICT slab %u (donor slab %u), deadline %u ms",
		 sess->name, s->client_id, s->index, d->cfg.evict_deadline_ms);
	session_send(sess, &m);
	return true;
}

unsigned int spared_evict(struct spared *d, unsigned int n,
			  enum spare_evict_reason reason)
{
	unsigned int sent = 0;
	struct slab *s;

	while (sent < n && (s = slab_pool_pick_victim(&d->pool)))
		if (spared_evict_slab(d, s, reason))
			sent++;
	spared_arm_timer(d);
	return sent;
}

/* The backstop's view of a slab's holder: its grants' owner, or NULL
 * (leave it) for a session being torn down. */
static const char *backstop_owner(const void *holder)
{
	const struct session *sess = holder;

	return sess->dead ? NULL : sess->owner;
}

/* EVICT @sess's due slabs, saying why in one line (one per 10 s at most). */
static unsigned int backstop_evict(struct spared *d, struct session *sess, uint64_t now_s,
				   uint64_t now_ms)
{
	uint64_t grace_ms = (uint64_t)d->cfg.grant_grace_s * 1000;
	unsigned int n = 0, sent = 0;
	unsigned long held_back;
	struct slab *s = NULL;

	while ((s = slab_pool_next_owned(&d->pool, sess, s)))
		n += spared_backstop_due(s, now_ms, grace_ms);
	if (!n)
		return 0;
	if (spare_ratelimit_ok(&sess->lapse_log, now_ms, SPARE_FD_LOG_MS, &held_back))
		log_warn("client %s: %u slab(s) past its grants (they cover %" PRIu64
			 " slab(s) now) for more than grant-grace %u s: evicting them; a renewal of its grants lets it map again (%lu more such lines not logged)",
			 sess->name, n, spared_grant_budget(&d->grants, sess->owner, now_s),
			 d->cfg.grant_grace_s, held_back);
	while ((s = slab_pool_next_owned(&d->pool, sess, s)))
		if (spared_backstop_due(s, now_ms, grace_ms) &&
		    spared_evict_slab(d, s, SPARE_EVICT_ADMIN))
			sent++;
	return sent;
}

void spared_backstop_look(struct spared *d, uint64_t now_s, uint64_t now_ms)
{
	uint64_t grace_ms = (uint64_t)d->cfg.grant_grace_s * 1000;
	struct session *sess;

	if (!d->grants_on ||
	    !spared_backstop_scan(&d->backstop, &d->pool, &d->grants, backstop_owner,
				  now_s, now_ms, grace_ms))
		return;
	for (sess = d->sessions; sess; sess = sess->next)
		if (!sess->dead)
			d->ctr.lapsed_evictions += backstop_evict(d, sess, now_s, now_ms);
	spared_arm_timer(d);
}

bool spared_query_slab(struct spared *d, struct slab *s)
{
	struct session *sess = (struct session *)s->owner;
	struct spare_msg m;

	if (!slab_held(s) || sess->dead || s->kept)
		return false;
	spare_msg_init(&m, SPARE_MSG_ACTIVITY_QUERY, ++sess->tx_seq);
	m.activity_query.slab_id = htole32(s->client_id);
	session_send(sess, &m);
	return true;
}

unsigned int spared_query_activity(struct spared *d)
{
	unsigned int i, sent = 0;

	for (i = 0; i < d->pool.nslabs; i++) {
		struct slab *s = &d->pool.slabs[i];

		if (spared_query_slab(d, s))
			sent++;
	}
	return sent;
}
