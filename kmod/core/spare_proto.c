// SPDX-License-Identifier: GPL-2.0
/*
 * Codec for the spare wire protocol. See spare_proto.h.
 */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#define SPARE_STATIC_ASSERT(c, msg)	static_assert(c, msg)
#else
#include <assert.h>
#include <endian.h>
#include <string.h>
#define SPARE_STATIC_ASSERT(c, msg)	_Static_assert(c, msg)
#define cpu_to_le16(x)	htole16(x)
#define cpu_to_le32(x)	htole32(x)
#define cpu_to_le64(x)	htole64(x)
#define le16_to_cpu(x)	le16toh(x)
#define le32_to_cpu(x)	le32toh(x)
#define le64_to_cpu(x)	le64toh(x)
#endif

#include "spare_proto.h"

SPARE_STATIC_ASSERT(sizeof(struct spare_msg_hdr) == 16, "header size");
SPARE_STATIC_ASSERT(SPARE_GRANT_PARTS * SPARE_GRANT_PART_LEN >= SPARE_GRANT_SIZE &&
		    (SPARE_GRANT_PARTS - 1) * SPARE_GRANT_PART_LEN < SPARE_GRANT_SIZE,
		    "grant parts");
SPARE_STATIC_ASSERT(sizeof(struct spare_msg_grant) ==
		    SPARE_MSG_SIZE - sizeof(struct spare_msg_hdr), "grant part size");
SPARE_STATIC_ASSERT(sizeof(struct spare_msg) == SPARE_MSG_SIZE, "message size");
SPARE_STATIC_ASSERT(sizeof(struct spare_conn_priv) <= 56, "RC private data");

static const char *const proto_err_names[SPARE_PROTO_EMAX] = {
	[SPARE_PROTO_OK]		= "ok",
	[SPARE_PROTO_ESHORT]		= "message too short",
	[SPARE_PROTO_ELONG]		= "message too long",
	[SPARE_PROTO_EMAGIC]		= "bad magic",
	[SPARE_PROTO_EVERSION]		= "unsupported protocol version",
	[SPARE_PROTO_ETYPE]		= "unknown message type",
	[SPARE_PROTO_ERESERVED]		= "reserved field not zero",
	[SPARE_PROTO_ESTATUS]		= "status out of range",
	[SPARE_PROTO_ESLAB_SHIFT]	= "slab size out of range",
	[SPARE_PROTO_EREASON]		= "eviction reason out of range",
	[SPARE_PROTO_EFIELD]		= "field out of range",
	[SPARE_PROTO_EKIND]		= "bad connection kind",
};

const char *spare_proto_strerror(int err)
{
	if (err < 0 || err >= SPARE_PROTO_EMAX)
		return "unknown error";
	return proto_err_names[err];
}

static const char *const msg_type_names[SPARE_MSG_TYPE_MAX + 1] = {
	[SPARE_MSG_HELLO]		= "HELLO",
	[SPARE_MSG_HELLO_REPLY]		= "HELLO_REPLY",
	[SPARE_MSG_MAP]			= "MAP",
	[SPARE_MSG_MAPPED]		= "MAPPED",
	[SPARE_MSG_UNMAP]		= "UNMAP",
	[SPARE_MSG_EVICT]		= "EVICT",
	[SPARE_MSG_ACTIVITY_QUERY]	= "ACTIVITY_QUERY",
	[SPARE_MSG_ACTIVITY_REPLY]	= "ACTIVITY_REPLY",
	[SPARE_MSG_HEARTBEAT]		= "HEARTBEAT",
	[SPARE_MSG_AUTH_CHALLENGE]	= "AUTH_CHALLENGE",
	[SPARE_MSG_AUTH_RESPONSE]	= "AUTH_RESPONSE",
	[SPARE_MSG_GRANT]		= "GRANT",
};

const char *spare_msg_type_name(unsigned int type)
{
	if (type == 0 || type > SPARE_MSG_TYPE_MAX)
		return "?";
	return msg_type_names[type];
}

static const char *const status_names[SPARE_ST_MAX + 1] = {
	[SPARE_ST_OK]		= "ok",
	[SPARE_ST_NO_SPACE]	= "no free slab",
	[SPARE_ST_BAD_GRANT]	= "no valid grant covers it",
	[SPARE_ST_BAD_SLAB_SIZE] = "slab size not served",
	[SPARE_ST_BUSY]		= "slab id already mapped",
	[SPARE_ST_VERSION]	= "protocol version not supported",
	[SPARE_ST_AUTH_REQUIRED] = "authentication required",
	[SPARE_ST_AUTH_FAILED]	= "authentication failed",
};

const char *spare_status_name(unsigned int status)
{
	if (status > SPARE_ST_MAX)
		return "unknown status";
	return status_names[status];
}

void spare_msg_init(struct spare_msg *m, enum spare_msg_type type, u32 seq)
{
	memset(m, 0, sizeof(*m));
	m->hdr.magic = cpu_to_le32(SPARE_PROTO_MAGIC);
	m->hdr.version = cpu_to_le16(SPARE_PROTO_VERSION);
	m->hdr.type = cpu_to_le16(type);
	m->hdr.seq = cpu_to_le32(seq);
}

static bool all_zero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/* Size of the meaningful body of each type; the rest of the pad must be 0. */
static size_t body_size(unsigned int type)
{
	switch (type) {
	case SPARE_MSG_HELLO:		return sizeof(struct spare_msg_hello);
	case SPARE_MSG_HELLO_REPLY:	return sizeof(struct spare_msg_hello_reply);
	case SPARE_MSG_MAP:		return sizeof(struct spare_msg_map);
	case SPARE_MSG_MAPPED:		return sizeof(struct spare_msg_mapped);
	case SPARE_MSG_UNMAP:		return sizeof(struct spare_msg_unmap);
	case SPARE_MSG_EVICT:		return sizeof(struct spare_msg_evict);
	case SPARE_MSG_ACTIVITY_QUERY:	return sizeof(struct spare_msg_activity_query);
	case SPARE_MSG_ACTIVITY_REPLY:	return sizeof(struct spare_msg_activity_reply);
	case SPARE_MSG_HEARTBEAT:	return sizeof(struct spare_msg_heartbeat);
	case SPARE_MSG_AUTH_CHALLENGE:	return sizeof(struct spare_msg_auth_challenge);
	case SPARE_MSG_AUTH_RESPONSE:	return sizeof(struct spare_msg_auth_response);
	case SPARE_MSG_GRANT:		return sizeof(struct spare_msg_grant);
	}
	return 0;
}

static bool slab_shift_ok(u8 shift)
{
	return shift >= SPARE_SLAB_SHIFT_MIN && shift <= SPARE_SLAB_SHIFT_MAX;
}

static int check_body(const struct spare_msg *m, unsigned int type)
{
	u32 st;

	switch (type) {
	case SPARE_MSG_HELLO:
		if (!all_zero(m->hello.reserved, sizeof(m->hello.reserved)) ||
		    (m->hello.flags & ~SPARE_HELLO_FLAGS))
			return SPARE_PROTO_ERESERVED;
		if (!slab_shift_ok(m->hello.slab_shift))
			return SPARE_PROTO_ESLAB_SHIFT;
		/* A nonce goes with, and only with, a request to authenticate. */
		if (!(m->hello.flags & SPARE_HELLO_F_AUTH) !=
		    all_zero(m->hello.nonce, sizeof(m->hello.nonce)))
			return SPARE_PROTO_EFIELD;
		/* Resuming needs holding, and a token goes with, and only
		 * with, a request to resume. */
		if ((m->hello.flags & SPARE_HELLO_F_RESUME) &&
		    !(m->hello.flags & SPARE_HELLO_F_HOLD))
			return SPARE_PROTO_EFIELD;
		if (!(m->hello.flags & SPARE_HELLO_F_RESUME) !=
		    !m->hello.resume_token)
			return SPARE_PROTO_EFIELD;
		return SPARE_PROTO_OK;
	case SPARE_MSG_HELLO_REPLY:
		if (!all_zero(m->hello_reply.reserved,
			      sizeof(m->hello_reply.reserved)))
			return SPARE_PROTO_ERESERVED;
		st = le32_to_cpu(m->hello_reply.status);
		if (st > SPARE_ST_MAX)
			return SPARE_PROTO_ESTATUS;
		if (st == SPARE_ST_OK &&
		    (!slab_shift_ok(m->hello_reply.slab_shift) ||
		     !m->hello_reply.session_cookie))
			return SPARE_PROTO_EFIELD;
		/* A refusal holds nothing. */
		if (st != SPARE_ST_OK && m->hello_reply.resume_token)
			return SPARE_PROTO_EFIELD;
		return SPARE_PROTO_OK;
	case SPARE_MSG_MAP:
		if (m->map.reserved)
			return SPARE_PROTO_ERESERVED;
		return SPARE_PROTO_OK;
	case SPARE_MSG_MAPPED:
		if (le32_to_cpu(m->mapped.flags) & ~SPARE_MAPPED_F_KEPT)
			return SPARE_PROTO_ERESERVED;
		st = le32_to_cpu(m->mapped.status);
		if (st > SPARE_ST_MAX)
			return SPARE_PROTO_ESTATUS;
		/* A refusal carries no address; a grant must carry one. */
		if ((st == SPARE_ST_OK) != (m->mapped.addr != 0))
			return SPARE_PROTO_EFIELD;
		if (st != SPARE_ST_OK && (m->mapped.rkey || m->mapped.flags))
			return SPARE_PROTO_EFIELD;
		return SPARE_PROTO_OK;
	case SPARE_MSG_UNMAP:
		return m->unmap.reserved ? SPARE_PROTO_ERESERVED : SPARE_PROTO_OK;
	case SPARE_MSG_EVICT:
		if (m->evict.reserved)
			return SPARE_PROTO_ERESERVED;
		st = le32_to_cpu(m->evict.reason);
		if (st == 0 || st > SPARE_EVICT_REASON_MAX)
			return SPARE_PROTO_EREASON;
		return SPARE_PROTO_OK;
	case SPARE_MSG_ACTIVITY_QUERY:
		return m->activity_query.reserved ? SPARE_PROTO_ERESERVED :
						    SPARE_PROTO_OK;
	case SPARE_MSG_ACTIVITY_REPLY:
		return m->activity_reply.reserved ? SPARE_PROTO_ERESERVED :
						    SPARE_PROTO_OK;
	case SPARE_MSG_HEARTBEAT:
		return SPARE_PROTO_OK;
	case SPARE_MSG_AUTH_CHALLENGE:
		if (all_zero(m->auth_challenge.nonce,
			     sizeof(m->auth_challenge.nonce)))
			return SPARE_PROTO_EFIELD;
		return SPARE_PROTO_OK;
	case SPARE_MSG_AUTH_RESPONSE:
		return SPARE_PROTO_OK;
	case SPARE_MSG_GRANT:
		if (!all_zero(m->grant.reserved, sizeof(m->grant.reserved)))
			return SPARE_PROTO_ERESERVED;
		if (m->grant.parts != SPARE_GRANT_PARTS ||
		    m->grant.part >= SPARE_GRANT_PARTS)
			return SPARE_PROTO_EFIELD;
		/* The last part's bytes past the grant are padding. */
		if (m->grant.part == SPARE_GRANT_PARTS - 1) {
			size_t used = SPARE_GRANT_SIZE -
				      (SPARE_GRANT_PARTS - 1) * SPARE_GRANT_PART_LEN;

			if (!all_zero(m->grant.data + used,
				      SPARE_GRANT_PART_LEN - used))
				return SPARE_PROTO_ERESERVED;
		}
		return SPARE_PROTO_OK;
	}
	return SPARE_PROTO_ETYPE;
}

int spare_msg_check(const void *buf, size_t len, unsigned int *type)
{
	const struct spare_msg *m = buf;
	unsigned int t;
	size_t body;
	int err;

	if (len < SPARE_MSG_SIZE)
		return SPARE_PROTO_ESHORT;
	if (len > SPARE_MSG_SIZE)
		return SPARE_PROTO_ELONG;
	if (le32_to_cpu(m->hdr.magic) != SPARE_PROTO_MAGIC)
		return SPARE_PROTO_EMAGIC;
	if (le16_to_cpu(m->hdr.version) != SPARE_PROTO_VERSION)
		return SPARE_PROTO_EVERSION;
	t = le16_to_cpu(m->hdr.type);
	if (t == 0 || t > SPARE_MSG_TYPE_MAX)
		return SPARE_PROTO_ETYPE;
	if (m->hdr.reserved)
		return SPARE_PROTO_ERESERVED;
	body = body_size(t);
	if (!all_zero(m->pad + body, sizeof(m->pad) - body))
		return SPARE_PROTO_ERESERVED;
	err = check_body(m, t);
	if (err)
		return err;
	if (type)
		*type = t;
	return SPARE_PROTO_OK;
}

static size_t grant_part_len(unsigned int part)
{
	size_t off = (size_t)part * SPARE_GRANT_PART_LEN;

	return SPARE_GRANT_SIZE - off < SPARE_GRANT_PART_LEN ?
	       SPARE_GRANT_SIZE - off : SPARE_GRANT_PART_LEN;
}

void spare_grant_part_init(struct spare_msg *m, const void *grant,
			   unsigned int part, u32 seq)
{
	spare_msg_init(m, SPARE_MSG_GRANT, seq);
	m->grant.part = (u8)part;
	m->grant.parts = SPARE_GRANT_PARTS;
	memcpy(m->grant.data, (const u8 *)grant + part * SPARE_GRANT_PART_LEN,
	       grant_part_len(part));
}

int spare_grant_part_take(struct spare_grant_rx *rx, const struct spare_msg *m)
{
	unsigned int part = m->grant.part;

	if (part != rx->next) {
		rx->next = 0;
		return -1;
	}
	memcpy(rx->buf + part * SPARE_GRANT_PART_LEN, m->grant.data,
	       grant_part_len(part));
	if (part + 1 < SPARE_GRANT_PARTS) {
		rx->next = part + 1;
		return 0;
	}
	rx->next = 0;
	return 1;
}

void spare_conn_priv_init(struct spare_conn_priv *p, enum spare_conn_kind kind,
			  const u8 client_uuid[16], u64 session_cookie,
			  u32 queue_depth)
{
	memset(p, 0, sizeof(*p));
	p->magic = cpu_to_le32(SPARE_PROTO_MAGIC);
	p->version = cpu_to_le16(SPARE_PROTO_VERSION);
	p->kind = cpu_to_le16(kind);
	p->session_cookie = cpu_to_le64(session_cookie);
	memcpy(p->client_uuid, client_uuid, sizeof(p->client_uuid));
	p->queue_depth = cpu_to_le32(queue_depth);
}

int spare_conn_priv_check(const void *buf, size_t len)
{
	const struct spare_conn_priv *p = buf;
	u16 kind;

	/* rdma_cm may pad private data beyond what the sender wrote. */
	if (len < sizeof(*p))
		return SPARE_PROTO_ESHORT;
	if (le32_to_cpu(p->magic) != SPARE_PROTO_MAGIC)
		return SPARE_PROTO_EMAGIC;
	if (le16_to_cpu(p->version) != SPARE_PROTO_VERSION)
		return SPARE_PROTO_EVERSION;
	if (p->reserved)
		return SPARE_PROTO_ERESERVED;
	kind = le16_to_cpu(p->kind);
	if (kind == SPARE_CONN_CONTROL && p->session_cookie)
		return SPARE_PROTO_EKIND;
	if (kind == SPARE_CONN_DATA && !p->session_cookie)
		return SPARE_PROTO_EKIND;
	if (kind != SPARE_CONN_CONTROL && kind != SPARE_CONN_DATA)
		return SPARE_PROTO_EKIND;
	if (!le32_to_cpu(p->queue_depth) || le32_to_cpu(p->queue_depth) > 4096)
		return SPARE_PROTO_EFIELD;
	return SPARE_PROTO_OK;
}

void spare_auth_transcript(u8 out[SPARE_AUTH_TRANSCRIPT_LEN], unsigned int dir,
			   const u8 client_uuid[16],
			   const u8 donor_id[SPARE_AUTH_ID_LEN],
			   const u8 client_nonce[SPARE_AUTH_NONCE_LEN],
			   const u8 donor_nonce[SPARE_AUTH_NONCE_LEN])
{
	u8 *p = out;

	SPARE_STATIC_ASSERT(sizeof(SPARE_AUTH_LABEL) <= 16, "label fits");
	memset(p, 0, 16);
	memcpy(p, SPARE_AUTH_LABEL, sizeof(SPARE_AUTH_LABEL) - 1);
	p += 16;
	*p++ = (u8)dir;
	memcpy(p, client_uuid, 16);
	p += 16;
	memcpy(p, donor_id, SPARE_AUTH_ID_LEN);
	p += SPARE_AUTH_ID_LEN;
	memcpy(p, client_nonce, SPARE_AUTH_NONCE_LEN);
	p += SPARE_AUTH_NONCE_LEN;
	memcpy(p, donor_nonce, SPARE_AUTH_NONCE_LEN);
}
