// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the wire codec: spare_msg_check() and
 * spare_conn_priv_check() must never crash, read out of bounds or hit
 * undefined behaviour on any input, and whatever they accept must obey the
 * protocol's invariants (checked here independently of the codec).
 */
#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spare_proto.h"

/* Whether @len bytes at @p hold any non-zero byte. */
static int memchr_inv_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return 1;
	return 0;
}

static void check_msg(const uint8_t *data, size_t size)
{
	struct spare_msg hdr_only;
	const struct spare_msg *m;
	unsigned int type = 0;
	int err;

	err = spare_msg_check(data, size, &type);
	if (err < 0 || err >= SPARE_PROTO_EMAX)
		abort();
	if (!spare_proto_strerror(err))
		abort();
	if (err)
		return;
	/* Accepted: exactly one message, of a known type ... */
	if (size != SPARE_MSG_SIZE || type < 1 || type > SPARE_MSG_TYPE_MAX)
		abort();
	/* ... whose header is exactly what spare_msg_init() produces. */
	m = (const struct spare_msg *)data;
	spare_msg_init(&hdr_only, type, le32toh(m->hdr.seq));
	if (memcmp(&hdr_only.hdr, &m->hdr, sizeof(m->hdr)))
		abort();
	if (type == SPARE_MSG_EVICT &&
	    (!m->evict.reason || le32toh(m->evict.reason) > SPARE_EVICT_REASON_MAX))
		abort();
	if (type == SPARE_MSG_HELLO &&
	    (m->hello.slab_shift < SPARE_SLAB_SHIFT_MIN ||
	     m->hello.slab_shift > SPARE_SLAB_SHIFT_MAX))
		abort();
	if (type == SPARE_MSG_MAPPED &&
	    le32toh(m->mapped.status) == SPARE_ST_OK && !m->mapped.addr)
		abort();
	/* Version 2: a nonce travels with, and only with, the auth flag ... */
	if (type == SPARE_MSG_HELLO &&
	    (m->hello.flags & ~SPARE_HELLO_FLAGS ||
	     !(m->hello.flags & SPARE_HELLO_F_AUTH) !=
	     !memchr_inv_zero(m->hello.nonce, sizeof(m->hello.nonce))))
		abort();
	/* Pager restart: a resume token with, and only with, F_RESUME,
	 * which needs F_HOLD; F_KEPT only on a successful MAPPED. */
	if (type == SPARE_MSG_HELLO &&
	    (!(m->hello.flags & SPARE_HELLO_F_RESUME) != !m->hello.resume_token ||
	     ((m->hello.flags & SPARE_HELLO_F_RESUME) &&
	      !(m->hello.flags & SPARE_HELLO_F_HOLD))))
		abort();
	if (type == SPARE_MSG_HELLO_REPLY && m->hello_reply.resume_token &&
	    le32toh(m->hello_reply.status) != SPARE_ST_OK)
		abort();
	if (type == SPARE_MSG_MAPPED &&
	    (le32toh(m->mapped.flags) & ~SPARE_MAPPED_F_KEPT ||
	     (m->mapped.flags && le32toh(m->mapped.status) != SPARE_ST_OK)))
		abort();
	/* ... and a challenge always has one. */
	if (type == SPARE_MSG_AUTH_CHALLENGE &&
	    !memchr_inv_zero(m->auth_challenge.nonce,
			     sizeof(m->auth_challenge.nonce)))
		abort();
	if (type == SPARE_MSG_HELLO_REPLY &&
	    le32toh(m->hello_reply.status) > SPARE_ST_MAX)
		abort();
	/* Version 3: an accepted GRANT part is exactly what
	 * spare_grant_part_init() makes of the same grant bytes. */
	if (type == SPARE_MSG_GRANT) {
		uint8_t grant[SPARE_GRANT_PARTS * SPARE_GRANT_PART_LEN] = { 0 };
		struct spare_msg again;

		if (m->grant.parts != SPARE_GRANT_PARTS ||
		    m->grant.part >= SPARE_GRANT_PARTS)
			abort();
		memcpy(grant + m->grant.part * SPARE_GRANT_PART_LEN, m->grant.data,
		       SPARE_GRANT_PART_LEN);
		spare_grant_part_init(&again, grant, m->grant.part,
				      le32toh(m->hdr.seq));
		if (memcmp(&again, m, sizeof(again)))
			abort();
	}
}

static void check_priv(const uint8_t *data, size_t size)
{
	const struct spare_conn_priv *p;
	struct spare_conn_priv again;
	int err;

	err = spare_conn_priv_check(data, size);
	if (err < 0 || err >= SPARE_PROTO_EMAX)
		abort();
	if (err)
		return;
	if (size < sizeof(*p))
		abort();
	/* Accepted private data re-encodes to the same bytes. */
	p = (const struct spare_conn_priv *)data;
	spare_conn_priv_init(&again, le16toh(p->kind), p->client_uuid,
			     le64toh(p->session_cookie), le32toh(p->queue_depth));
	if (memcmp(&again, p, sizeof(again)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Receive buffers are aligned; give the codec the same. */
	uint64_t buf[(2 * SPARE_MSG_SIZE) / sizeof(uint64_t)];

	if (size > sizeof(buf)) {
		/* Still exercise the length rules on big inputs. */
		if (spare_msg_check(data, size, NULL) != SPARE_PROTO_ELONG)
			abort();
		return 0;
	}
	memcpy(buf, data, size);
	check_msg((const uint8_t *)buf, size);
	check_priv((const uint8_t *)buf, size);
	return 0;
}
