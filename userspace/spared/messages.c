// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: the control protocol's messages from a client, checked
 * and dispatched. HELLO and its authentication, GRANT, ACTIVITY_REPLY and
 * HEARTBEAT here; MAP and UNMAP in slabs.c.
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

/* HELLO_REPLY, once the client is known (or the donor is open). */
static void finish_hello(struct session *sess, uint32_t seq, uint8_t slab_shift)
{
	struct spared *d = sess->d;
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, seq);
	m.hello_reply.slab_shift = (uint8_t)d->cfg.slab_shift;
	if (slab_shift != d->cfg.slab_shift) {
		log_warn("client %s: HELLO asks for slabs of 2^%u bytes, this donor serves 2^%u",
			 sess->name, slab_shift, d->cfg.slab_shift);
		m.hello_reply.status = htole32(SPARE_ST_BAD_SLAB_SIZE);
		session_send(sess, &m);
		return;
	}
	sess->hello_done = true;
	if (sess->client[0]) {
		strcpy(sess->owner, sess->client);
	} else {
		for (unsigned int i = 0; i < sizeof(sess->uuid); i++)
			sprintf(sess->owner + 2 * i, "%02x", sess->uuid[i]);
	}
	if (sess->resume_open)
		try_resume(sess);
	/* A resumed session keeps its token; a new one gets a fresh one. */
	if (sess->hold && !sess->resume_token &&
	    (spare_random_bytes(&sess->resume_token, sizeof(sess->resume_token)) ||
	     !sess->resume_token)) {
		log_warn("client %s: no resume token could be drawn: its slabs will not be held",
			 sess->name);
		sess->resume_token = 0;
		sess->hold = false;
	}
	m.hello_reply.status = htole32(SPARE_ST_OK);
	m.hello_reply.session_cookie = htole64(sess->cookie);
	m.hello_reply.resume_token = htole64(sess->hold ? sess->resume_token : 0);
	m.hello_reply.free_slabs = htole32(d->pool.nfree);
	session_send(sess, &m);
	log_info("client %s: HELLO: session ready, %u slabs free", sess->name,
		 d->pool.nfree);
}

/*
 * Refuse a client that did not authenticate: say why in HELLO_REPLY and
 * take nothing more from it. The client closes the connection on reading
 * the status; one that does not is closed at hello-timeout. (Closing here
 * would flush the reply before it leaves.)
 */
static void refuse_auth_quiet(struct session *sess, uint32_t seq, enum spare_status st)
{
	struct spare_msg m;

	sess->d->ctr.auth_refused++;
	sess->auth = AUTH_REFUSED;
	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, seq);
	m.hello_reply.status = htole32(st);
	session_send(sess, &m);
}

static void refuse_auth(struct session *sess, uint32_t seq,
			enum spare_status st, const char *why)
{
	log_warn("client %s: refused: %s", sess->name, why);
	refuse_auth_quiet(sess, seq, st);
}

/*
 * refuse_auth() for a refusal a key holder can repeat at will (its
 * addr=): one line per SPARE_FD_LOG_MS, saying how many were held back.
 */
static void refuse_auth_limited(struct session *sess, uint32_t seq,
				enum spare_status st, const char *why)
{
	static struct spare_ratelimit rl;
	unsigned long held;

	if (spare_ratelimit_ok(&rl, spare_now_ms(), SPARE_FD_LOG_MS, &held))
		log_warn("client %s: refused: %s (%lu more such refusals not logged)",
			 sess->name, why, held);
	refuse_auth_quiet(sess, seq, st);
}

static void on_hello(struct session *sess, const struct spare_msg *in, uint32_t seq)
{
	struct spared *d = sess->d;
	struct spare_msg m;

	if (sess->hello_done || sess->auth != AUTH_NONE) {
		session_bad_msg(sess, "second HELLO");
		return;
	}
	if (memcmp(in->hello.client_uuid, sess->uuid, sizeof(sess->uuid))) {
		session_bad_msg(sess, "HELLO uuid differs from the connection's");
		return;
	}
	/* Held slabs only if this donor holds at all (resume-hold 0: never). */
	sess->hold = (in->hello.flags & SPARE_HELLO_F_HOLD) &&
		     d->cfg.resume_hold_s;
	sess->resume_open = in->hello.flags & SPARE_HELLO_F_RESUME;
	sess->resume_shown = le64toh(in->hello.resume_token);
	if (!(in->hello.flags & SPARE_HELLO_F_AUTH)) {
		if (d->keys.n) {
			refuse_auth(sess, seq, SPARE_ST_AUTH_REQUIRED,
				    "no key (this donor has host-keys; give the client a key)");
			return;
		}
		finish_hello(sess, seq, in->hello.slab_shift);
		return;
	}
	if (!d->keys.n) {
		/* Open donor: the client will refuse an unproven donor itself. */
		log_info("client %s: asks to authenticate; this donor has no host-keys (open mode)",
			 sess->name);
		finish_hello(sess, seq, in->hello.slab_shift);
		return;
	}
	memcpy(sess->nonce_c, in->hello.nonce, sizeof(sess->nonce_c));
	do
		spare_auth_nonce(sess->nonce_d);
	while (!memcmp(sess->nonce_d, sess->nonce_c, sizeof(sess->nonce_d)));
	sess->auth = AUTH_WAIT_RESPONSE;
	sess->hello_shift = in->hello.slab_shift;
	spare_msg_init(&m, SPARE_MSG_AUTH_CHALLENGE, seq);
	memcpy(m.auth_challenge.nonce, sess->nonce_d, sizeof(sess->nonce_d));
	memcpy(m.auth_challenge.donor_id, d->donor_id, sizeof(d->donor_id));
	session_send(sess, &m);
}

static void on_auth_response(struct session *sess, const struct spare_msg *in,
			     uint32_t seq)
{
	struct spared *d = sess->d;
	const struct spare_host_key *k;
	struct spare_msg m;
	char why[256];

	if (sess->auth != AUTH_WAIT_RESPONSE) {
		session_bad_msg(sess, "AUTH_RESPONSE without a challenge outstanding");
		return;
	}
	k = spare_host_keys_match(&d->keys, in->auth_response.mac, sess->uuid,
				  d->donor_id, sess->nonce_c, sess->nonce_d);
	if (!k) {
		refuse_auth(sess, seq, SPARE_ST_AUTH_FAILED,
			    "authentication failed (wrong key, or a host not in host-keys)");
		return;
	}
	/* a key with addr= binds where its client connects from */
	if (spare_host_key_from_refused(k, sess->host, why, sizeof(why))) {
		refuse_auth_limited(sess, seq, SPARE_ST_AUTH_FAILED, why);
		return;
	}
	sess->auth = AUTH_DONE;
	d->ctr.auth_ok++;
	snprintf(sess->client, sizeof(sess->client), "%s", k->name);
	log_info("client %s: authenticated as %s", sess->name, k->name);
	/* Only a proven client may end its own earlier session. */
	supersede_sessions(d, sess->uuid, sess->host, sess->client, sess->name, sess);
	spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, seq);
	spare_auth_mac(m.auth_response.mac, k->key, SPARE_AUTH_DIR_DONOR,
		       sess->uuid, d->donor_id, sess->nonce_c, sess->nonce_d);
	session_send(sess, &m);
	finish_hello(sess, seq, sess->hello_shift);
}

/* A whole grant arrived: verify it and add it to the client's budget. */
static void grant_arrived(struct session *sess)
{
	struct spared *d = sess->d;
	struct spare_grant_info info;
	bool known;
	int ret;

	if (!d->grants_on) {
		log_info("client %s: sent a grant; this donor has no grant-key-file and needs none",
			 sess->name);
		return;
	}
	ret = spared_grant_accept(&d->grants, sess->grx.buf, sizeof(sess->grx.buf), false,
				  sess->client[0] ? sess->client : NULL, sess->owner,
				  wall_seconds(), &info, &known);
	if (ret) {
		/* one limiter per reason (the codes are -1..-12) */
		static struct spare_ratelimit rl[16];
		struct spare_ratelimit *r = &rl[(unsigned int)-ret % 16];
		unsigned long held;

		d->ctr.grants_refused++;
		/*
		 * A client can send refused grants at will: each reason is
		 * one line a period, so a flood of one kind hides no other.
		 */
		if (spare_ratelimit_ok(r, spare_now_ms(), SPARE_FD_LOG_MS, &held))
			log_warn("client %s: grant refused: %s (%lu more refused so not logged)",
				 sess->name, spare_grant_strerror(ret), held);
		return;
	}
	if (!known)
		d->ctr.grants_accepted++;
	log_info("client %s: grant %016" PRIx64 " for %u slab(s) until %" PRIu64 "%s; %" PRIu64
		 " slab(s) granted in all", sess->name, spared_grant_token(info.id), info.slabs,
		 info.expiry, known ? " (known already)" : "",
		 spared_grant_budget(&d->grants, sess->owner, wall_seconds()));
}

static void on_grant(struct session *sess, const struct spare_msg *in)
{
	int ret = spare_grant_part_take(&sess->grx, in);

	if (ret < 0) {
		session_bad_msg(sess, "GRANT part %u out of order", in->grant.part);
		return;
	}
	if (ret > 0)
		grant_arrived(sess);
}

static void on_activity_reply(struct session *sess, const struct spare_msg *in)
{
	uint32_t id = le32toh(in->activity_reply.slab_id);
	struct slab *s = slab_pool_find(&sess->d->pool, sess, id);

	if (!s) {
		log_dbg("client %s: ACTIVITY_REPLY for slab %u it does not hold",
			sess->name, id);
		return;
	}
	s->accesses = le64toh(in->activity_reply.accesses);
	if (s->sampled && !s->replied) {
		s->replied = true;
		if (sess->d->lend_ops)
			sess->d->lend_ops->activity_reply(sess->d);
	}
}

static void on_heartbeat(struct session *sess, uint32_t seq)
{
	struct spare_msg m;

	/* Answer, never initiate: two answering sides cannot ping-pong. */
	sess->d->ctr.heartbeats++;
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, seq);
	m.heartbeat.now_ns = htole64(spare_now_ns());
	session_send(sess, &m);
}

void handle_msg(struct session *sess, const struct spare_msg *m,
		unsigned int type)
{
	uint32_t seq = le32toh(m->hdr.seq);

	log_dbg("client %s: got %s seq %u", sess->name,
		spare_msg_type_name(type), seq);
	if (sess->auth == AUTH_REFUSED) {
		session_bad_msg(sess, "%s after its authentication was refused",
				spare_msg_type_name(type));
		return;
	}
	if (type != SPARE_MSG_HELLO && type != SPARE_MSG_HEARTBEAT &&
	    type != SPARE_MSG_AUTH_RESPONSE && !sess->hello_done) {
		session_bad_msg(sess, "%s before a successful HELLO",
				spare_msg_type_name(type));
		return;
	}
	switch (type) {
	case SPARE_MSG_HELLO:
		on_hello(sess, m, seq);
		return;
	case SPARE_MSG_AUTH_RESPONSE:
		if (sess->hello_done) {
			session_bad_msg(sess, "AUTH_RESPONSE after HELLO_REPLY");
			return;
		}
		on_auth_response(sess, m, seq);
		return;
	case SPARE_MSG_MAP:
		on_map(sess, m, seq);
		return;
	case SPARE_MSG_UNMAP:
		on_unmap(sess, m);
		return;
	case SPARE_MSG_ACTIVITY_REPLY:
		on_activity_reply(sess, m);
		return;
	case SPARE_MSG_HEARTBEAT:
		on_heartbeat(sess, seq);
		return;
	case SPARE_MSG_GRANT:
		on_grant(sess, m);
		return;
	}
	session_bad_msg(sess, "%s is a donor's message",
			spare_msg_type_name(type));
}
