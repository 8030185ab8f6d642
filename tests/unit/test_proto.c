// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the wire codec (kmod/spare_proto.c): every message
 * type round-trips through spare_msg_init() + spare_msg_check(), and every
 * rule of spare_msg_check() and spare_conn_priv_check() is broken once by a
 * crafted message and reported with the right error.
 */
#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "spare_proto.h"
#include "tap.h"

/* A receive buffer larger than a message, aligned like the kernel's. */
static union {
	struct spare_msg m;
	uint8_t b[2 * SPARE_MSG_SIZE];
} rx;

static int check(const struct spare_msg *m)
{
	unsigned int type = 0xdead;
	int err;

	memcpy(rx.b, m, SPARE_MSG_SIZE);
	err = spare_msg_check(rx.b, SPARE_MSG_SIZE, &type);
	/* The type is only reported for a good message. */
	if (err)
		EXPECT_EQ(type, 0xdead);
	else
		EXPECT_EQ(type, le16toh(m->hdr.type));
	return err;
}

/* A valid message of each type, with every body field set non-trivially. */
static void make_valid(struct spare_msg *m, unsigned int type)
{
	spare_msg_init(m, type, 0x01020304);
	switch (type) {
	case SPARE_MSG_HELLO:
		memset(m->hello.client_uuid, 0xab, sizeof(m->hello.client_uuid));
		m->hello.slab_shift = 20;
		break;
	case SPARE_MSG_HELLO_REPLY:
		m->hello_reply.session_cookie = htole64(0x1122334455667788ULL);
		m->hello_reply.status = htole32(SPARE_ST_OK);
		m->hello_reply.free_slabs = htole32(7);
		m->hello_reply.slab_shift = 30;
		break;
	case SPARE_MSG_MAP:
		m->map.grant = htole64(0xfeedULL << 32);
		m->map.slab_id = htole32(42);
		break;
	case SPARE_MSG_MAPPED:
		m->mapped.addr = htole64(0x7f0000001000ULL);
		m->mapped.rkey = htole32(0x1234);
		m->mapped.slab_id = htole32(42);
		m->mapped.status = htole32(SPARE_ST_OK);
		break;
	case SPARE_MSG_UNMAP:
		m->unmap.slab_id = htole32(42);
		break;
	case SPARE_MSG_EVICT:
		m->evict.slab_id = htole32(42);
		m->evict.reason = htole32(SPARE_EVICT_ADMIN);
		m->evict.deadline_ms = htole32(5000);
		break;
	case SPARE_MSG_ACTIVITY_QUERY:
		m->activity_query.slab_id = htole32(42);
		break;
	case SPARE_MSG_ACTIVITY_REPLY:
		m->activity_reply.accesses = htole64(1ULL << 40);
		m->activity_reply.slab_id = htole32(42);
		break;
	case SPARE_MSG_HEARTBEAT:
		m->heartbeat.now_ns = htole64(123456789ULL);
		break;
	case SPARE_MSG_AUTH_CHALLENGE:
		memset(m->auth_challenge.nonce, 0x5a,
		       sizeof(m->auth_challenge.nonce));
		memcpy(m->auth_challenge.donor_id, "donor-1", 7);
		break;
	case SPARE_MSG_AUTH_RESPONSE:
		memset(m->auth_response.mac, 0xc3,
		       sizeof(m->auth_response.mac));
		break;
	case SPARE_MSG_GRANT:
		m->grant.part = 1;
		m->grant.parts = SPARE_GRANT_PARTS;
		memset(m->grant.data, 0x77, sizeof(m->grant.data));
		break;
	}
}

/* Bytes of each type's body that carry meaning (the rest is padding). */
static size_t body_len(unsigned int type)
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

static void test_layout(void)
{
	struct spare_msg m;
	const uint8_t *b = (const uint8_t *)&m;

	EXPECT_EQ(sizeof(struct spare_msg), SPARE_MSG_SIZE);
	EXPECT_EQ(sizeof(struct spare_msg_hdr), 16);
	EXPECT(sizeof(struct spare_conn_priv) <= 56);
	EXPECT_EQ(offsetof(struct spare_msg, hello), 16);
	/* Little-endian on the wire whatever the host: "SPR1", version 3. */
	spare_msg_init(&m, SPARE_MSG_UNMAP, 0x0a0b0c0d);
	EXPECT(!memcmp(b, "SPR1", 4));
	EXPECT_EQ(b[4], 3);
	EXPECT_EQ(b[5], 0);
	EXPECT_EQ(b[6], SPARE_MSG_UNMAP);
	EXPECT_EQ(b[7], 0);
	EXPECT_EQ(b[8], 0x0d);
	EXPECT_EQ(b[11], 0x0a);
}

static void test_init_zeroes(void)
{
	struct spare_msg m;
	unsigned int i;

	memset(&m, 0xff, sizeof(m));
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, 9);
	EXPECT_EQ(m.hdr.reserved, 0);
	for (i = 0; i < sizeof(m.pad); i++)
		EXPECT_EQ(m.pad[i], 0);
}

static void test_roundtrip_all_types(void)
{
	unsigned int t;

	for (t = 1; t <= SPARE_MSG_TYPE_MAX; t++) {
		struct spare_msg m;

		make_valid(&m, t);
		EXPECT_EQ(check(&m), SPARE_PROTO_OK);
		/* The received copy decodes to what was sent. */
		EXPECT_EQ(le32toh(rx.m.hdr.seq), 0x01020304);
		EXPECT(!memcmp(&rx.m, &m, sizeof(m)));
		EXPECT(strcmp(spare_msg_type_name(t), "?") != 0);
		/* A bare init'd message of the type is valid too, except
		 * those whose zero body breaks a field rule. */
		spare_msg_init(&m, t, 0);
		if (t != SPARE_MSG_HELLO && t != SPARE_MSG_HELLO_REPLY &&
		    t != SPARE_MSG_MAPPED && t != SPARE_MSG_EVICT &&
		    t != SPARE_MSG_AUTH_CHALLENGE && t != SPARE_MSG_GRANT)
			EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	}
	/* Type argument is optional. */
	make_valid(&rx.m, SPARE_MSG_MAP);
	EXPECT_EQ(spare_msg_check(&rx.m, SPARE_MSG_SIZE, NULL), SPARE_PROTO_OK);
}

static void test_fields_decode(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_MAPPED);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(le64toh(rx.m.mapped.addr), 0x7f0000001000ULL);
	EXPECT_EQ(le32toh(rx.m.mapped.rkey), 0x1234);
	EXPECT_EQ(le32toh(rx.m.mapped.slab_id), 42);
	make_valid(&m, SPARE_MSG_EVICT);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(le32toh(rx.m.evict.deadline_ms), 5000);
	EXPECT_EQ(le32toh(rx.m.evict.reason), SPARE_EVICT_ADMIN);
}

static void test_length(void)
{
	struct spare_msg m;
	unsigned int type = 77;

	make_valid(&m, SPARE_MSG_HEARTBEAT);
	memcpy(rx.b, &m, sizeof(m));
	EXPECT_EQ(spare_msg_check(rx.b, 0, &type), SPARE_PROTO_ESHORT);
	EXPECT_EQ(spare_msg_check(rx.b, 16, &type), SPARE_PROTO_ESHORT);
	EXPECT_EQ(spare_msg_check(rx.b, SPARE_MSG_SIZE - 1, &type),
		  SPARE_PROTO_ESHORT);
	EXPECT_EQ(spare_msg_check(rx.b, SPARE_MSG_SIZE + 1, &type),
		  SPARE_PROTO_ELONG);
	EXPECT_EQ(spare_msg_check(rx.b, sizeof(rx.b), &type), SPARE_PROTO_ELONG);
	EXPECT_EQ(type, 77);
}

static void test_header_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_MAP);
	m.hdr.magic = htole32(SPARE_PROTO_MAGIC ^ 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_EMAGIC);
	/* Right magic in the wrong byte order is still wrong. */
	make_valid(&m, SPARE_MSG_MAP);
	m.hdr.magic = htobe32(SPARE_PROTO_MAGIC);
	EXPECT_EQ(check(&m), SPARE_PROTO_EMAGIC);

	make_valid(&m, SPARE_MSG_MAP);
	m.hdr.version = htole16(0);
	EXPECT_EQ(check(&m), SPARE_PROTO_EVERSION);
	m.hdr.version = htole16(SPARE_PROTO_VERSION + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_EVERSION);

	make_valid(&m, SPARE_MSG_MAP);
	m.hdr.type = htole16(0);
	EXPECT_EQ(check(&m), SPARE_PROTO_ETYPE);
	m.hdr.type = htole16(SPARE_MSG_TYPE_MAX + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ETYPE);
	m.hdr.type = htole16(0xffff);
	EXPECT_EQ(check(&m), SPARE_PROTO_ETYPE);

	make_valid(&m, SPARE_MSG_MAP);
	m.hdr.reserved = htole32(1u << 31);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
}

/* A nonzero byte anywhere after each type's body is refused. */
static void test_padding_rule(void)
{
	unsigned int t;
	size_t off;

	for (t = 1; t <= SPARE_MSG_TYPE_MAX; t++) {
		for (off = body_len(t); off < sizeof(rx.m.pad); off++) {
			struct spare_msg m;

			make_valid(&m, t);
			m.pad[off] = 0x80;
			if (check(&m) != SPARE_PROTO_ERESERVED) {
				fprintf(stderr, "# type %u pad byte %zu accepted\n",
					t, off);
				tap_case_failed = 1;
			}
		}
	}
}

/* Version 3: a grant in SPARE_GRANT_PARTS GRANT messages. */
static void test_grant_rules(void)
{
	struct spare_grant_rx grx = { .next = 0 };
	uint8_t grant[SPARE_GRANT_SIZE];
	struct spare_msg m;
	unsigned int p;
	size_t i;

	EXPECT_EQ(sizeof(struct spare_msg_grant), SPARE_MSG_SIZE - 16);
	make_valid(&m, SPARE_MSG_GRANT);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.grant.reserved[0] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_GRANT);
	m.grant.parts = SPARE_GRANT_PARTS + 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	make_valid(&m, SPARE_MSG_GRANT);
	m.grant.part = SPARE_GRANT_PARTS;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);

	/* round trip, and the last part's tail is padding */
	for (i = 0; i < sizeof(grant); i++)
		grant[i] = (uint8_t)(i * 7 + 1);
	for (p = 0; p < SPARE_GRANT_PARTS; p++) {
		spare_grant_part_init(&m, grant, p, p);
		EXPECT_EQ(check(&m), SPARE_PROTO_OK);
		if (p == SPARE_GRANT_PARTS - 1) {
			struct spare_msg bad = m;

			bad.grant.data[SPARE_GRANT_PART_LEN - 1] = 1;
			EXPECT_EQ(check(&bad), SPARE_PROTO_ERESERVED);
		}
		EXPECT_EQ(spare_grant_part_take(&grx, &m), p + 1 == SPARE_GRANT_PARTS);
	}
	EXPECT(memcmp(grx.buf, grant, sizeof(grant)) == 0);
	EXPECT_EQ(grx.next, 0);

	/* out of order: dropped, and part 0 starts over */
	spare_grant_part_init(&m, grant, 0, 0);
	EXPECT_EQ(spare_grant_part_take(&grx, &m), 0);
	spare_grant_part_init(&m, grant, 2, 0);
	EXPECT_EQ(spare_grant_part_take(&grx, &m), -1);
	EXPECT_EQ(grx.next, 0);
	spare_grant_part_init(&m, grant, 1, 0);
	EXPECT_EQ(spare_grant_part_take(&grx, &m), -1);
}

static void test_hello_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.reserved[5] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_MIN - 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_ESLAB_SHIFT);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_MAX + 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_ESLAB_SHIFT);
	m.hello.slab_shift = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_ESLAB_SHIFT);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_MAX;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_MIN;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
}

/* Version 2: HELLO's auth flag and nonce, and the AUTH_* messages. */
static void test_auth_rules(void)
{
	struct spare_msg m;

	/* A nonce with the flag is good, each without the other is not. */
	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.flags = SPARE_HELLO_F_AUTH;
	m.hello.nonce[15] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(rx.m.hello.nonce[15], 1);
	m.hello.nonce[15] = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.hello.flags = 0;
	m.hello.nonce[0] = 9;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	/* Unknown flags are reserved. */
	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.flags = 0x80;
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	/* A challenge must carry a nonce; the donor id may be anything. */
	make_valid(&m, SPARE_MSG_AUTH_CHALLENGE);
	memset(m.auth_challenge.donor_id, 0xff,
	       sizeof(m.auth_challenge.donor_id));
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	memset(m.auth_challenge.nonce, 0, sizeof(m.auth_challenge.nonce));
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.auth_challenge.nonce[7] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	/* The new statuses are in range, the next one is not. */
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.status = htole32(SPARE_ST_AUTH_FAILED);
	m.hello_reply.session_cookie = 0;
	m.hello_reply.slab_shift = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.hello_reply.status = htole32(SPARE_ST_AUTH_REQUIRED);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.hello_reply.status = htole32(SPARE_ST_AUTH_FAILED + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ESTATUS);
	/* A version 1 peer is refused by the version check. */
	make_valid(&m, SPARE_MSG_HELLO);
	m.hdr.version = htole16(1);
	EXPECT_EQ(check(&m), SPARE_PROTO_EVERSION);
	EXPECT_EQ(strcmp(spare_msg_type_name(SPARE_MSG_AUTH_CHALLENGE),
			 "AUTH_CHALLENGE"), 0);
	EXPECT_EQ(strcmp(spare_msg_type_name(SPARE_MSG_AUTH_RESPONSE),
			 "AUTH_RESPONSE"), 0);
}

/* The transcript layout of uapi/spare.h, byte for byte. */
static void test_auth_transcript(void)
{
	uint8_t t[SPARE_AUTH_TRANSCRIPT_LEN], uuid[16], id[16], nc[16], nd[16];

	EXPECT_EQ(SPARE_AUTH_TRANSCRIPT_LEN, 81);
	memset(uuid, 0x11, 16);
	memset(id, 0x22, 16);
	memset(nc, 0x33, 16);
	memset(nd, 0x44, 16);
	memset(t, 0xee, sizeof(t));
	spare_auth_transcript(t, SPARE_AUTH_DIR_DONOR, uuid, id, nc, nd);
	EXPECT(!memcmp(t, "spare-auth-v1\0\0\0", 16));
	EXPECT_EQ(t[16], SPARE_AUTH_DIR_DONOR);
	EXPECT(!memcmp(t + 17, uuid, 16));
	EXPECT(!memcmp(t + 33, id, 16));
	EXPECT(!memcmp(t + 49, nc, 16));
	EXPECT(!memcmp(t + 65, nd, 16));
	spare_auth_transcript(t, SPARE_AUTH_DIR_CLIENT, uuid, id, nc, nd);
	EXPECT_EQ(t[16], SPARE_AUTH_DIR_CLIENT);
}

static void test_hello_reply_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.reserved[0] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.status = htole32(SPARE_ST_MAX + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ESTATUS);
	m.hello_reply.status = htole32(0xffffffff);
	EXPECT_EQ(check(&m), SPARE_PROTO_ESTATUS);
	/* Success needs a valid slab size and a cookie. */
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.slab_shift = SPARE_SLAB_SHIFT_MAX + 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.session_cookie = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	/* A refusal needs neither. */
	m.hello_reply.status = htole32(SPARE_ST_BAD_SLAB_SIZE);
	m.hello_reply.slab_shift = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
}

static void test_map_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_MAP);
	m.map.reserved = htole32(1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
}

/* Pager restart: HELLO F_HOLD/F_RESUME and its token, HELLO_REPLY's
 * token, MAPPED's F_KEPT. */
static void test_resume_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.flags = SPARE_HELLO_F_HOLD;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.hello.flags = SPARE_HELLO_F_HOLD | SPARE_HELLO_F_AUTH;
	m.hello.nonce[3] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	/* resume: with hold and a token, each alone refused */
	m.hello.flags |= SPARE_HELLO_F_RESUME;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.hello.resume_token = htole64(0x0102030405060708ULL);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(le64toh(rx.m.hello.resume_token), 0x0102030405060708ULL);
	m.hello.flags &= (uint8_t)~SPARE_HELLO_F_HOLD;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.hello.flags = SPARE_HELLO_F_HOLD;
	m.hello.nonce[3] = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);	/* token, no F_RESUME */
	/* the token is the body's last 8 bytes: offset 40 */
	make_valid(&m, SPARE_MSG_HELLO);
	m.pad[40] = 1;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.hello.flags = SPARE_HELLO_F_HOLD | SPARE_HELLO_F_RESUME;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	make_valid(&m, SPARE_MSG_HELLO);
	m.hello.flags = 0x08;
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);

	/* HELLO_REPLY: a token with OK, none with a refusal; at offset 24 */
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.hello_reply.resume_token = htole64(99);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(m.pad[24], 99);
	m.hello_reply.status = htole32(SPARE_ST_AUTH_FAILED);
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	make_valid(&m, SPARE_MSG_HELLO_REPLY);
	m.pad[32] = 1;			/* past the token: padding */
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);

	/* MAPPED: F_KEPT only with OK; other flags reserved; offset 44 */
	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.flags = htole32(SPARE_MAPPED_F_KEPT);
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	EXPECT_EQ(m.pad[20], SPARE_MAPPED_F_KEPT);
	m.mapped.flags = htole32(SPARE_MAPPED_F_KEPT | 0x100);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.status = htole32(SPARE_ST_NO_SPACE);
	m.mapped.addr = 0;
	m.mapped.rkey = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	m.mapped.flags = htole32(SPARE_MAPPED_F_KEPT);
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
}

static void test_mapped_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.flags = htole32(2);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.status = htole32(SPARE_ST_MAX + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ESTATUS);
	/* OK without an address. */
	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.addr = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	/* A refusal with an address or an rkey. */
	make_valid(&m, SPARE_MSG_MAPPED);
	m.mapped.status = htole32(SPARE_ST_NO_SPACE);
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.mapped.addr = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EFIELD);
	m.mapped.rkey = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_OK);
}

static void test_unmap_activity_rules(void)
{
	struct spare_msg m;

	make_valid(&m, SPARE_MSG_UNMAP);
	m.unmap.reserved = htole32(2);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_ACTIVITY_QUERY);
	m.activity_query.reserved = htole32(2);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_ACTIVITY_REPLY);
	m.activity_reply.reserved = htole32(2);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
}

static void test_evict_rules(void)
{
	struct spare_msg m;
	unsigned int r;

	make_valid(&m, SPARE_MSG_EVICT);
	m.evict.reserved = htole32(1);
	EXPECT_EQ(check(&m), SPARE_PROTO_ERESERVED);
	make_valid(&m, SPARE_MSG_EVICT);
	m.evict.reason = 0;
	EXPECT_EQ(check(&m), SPARE_PROTO_EREASON);
	m.evict.reason = htole32(SPARE_EVICT_REASON_MAX + 1);
	EXPECT_EQ(check(&m), SPARE_PROTO_EREASON);
	for (r = 1; r <= SPARE_EVICT_REASON_MAX; r++) {
		m.evict.reason = htole32(r);
		EXPECT_EQ(check(&m), SPARE_PROTO_OK);
	}
}

static void test_strerror(void)
{
	int e;

	for (e = 0; e < SPARE_PROTO_EMAX; e++) {
		EXPECT(spare_proto_strerror(e) != NULL);
		EXPECT(strcmp(spare_proto_strerror(e), "unknown error") != 0);
	}
	EXPECT(!strcmp(spare_proto_strerror(-1), "unknown error"));
	EXPECT(!strcmp(spare_proto_strerror(SPARE_PROTO_EMAX), "unknown error"));
	EXPECT(!strcmp(spare_msg_type_name(0), "?"));
	EXPECT(!strcmp(spare_msg_type_name(SPARE_MSG_TYPE_MAX + 1), "?"));
	EXPECT(!strcmp(spare_msg_type_name(SPARE_MSG_MAP), "MAP"));
	for (e = 0; e <= SPARE_ST_MAX; e++)
		EXPECT(spare_status_name(e) != NULL &&
		       strcmp(spare_status_name(e), "unknown status") != 0);
	EXPECT(!strcmp(spare_status_name(SPARE_ST_MAX + 1), "unknown status"));
}

/* ---- connection private data ---- */

static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
				  14, 15, 16 };

static union {
	struct spare_conn_priv p;
	uint8_t b[56];		/* what rdma_cm may hand over for RC */
} cp;

static int priv_check(const struct spare_conn_priv *p, size_t len)
{
	memset(cp.b, 0, sizeof(cp.b));
	memcpy(cp.b, p, sizeof(*p));
	return spare_conn_priv_check(cp.b, len);
}

static void test_conn_priv_roundtrip(void)
{
	struct spare_conn_priv p;

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 0, 16);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_OK);
	/* rdma_cm pads private data: a longer buffer is fine. */
	EXPECT_EQ(priv_check(&p, sizeof(cp.b)), SPARE_PROTO_OK);
	EXPECT(!memcmp(cp.p.client_uuid, uuid, sizeof(uuid)));
	EXPECT_EQ(le32toh(cp.p.queue_depth), 16);

	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 0x8000000000000001ULL,
			     4096);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_OK);
	EXPECT_EQ(le64toh(cp.p.session_cookie), 0x8000000000000001ULL);
	EXPECT_EQ(le16toh(cp.p.kind), SPARE_CONN_DATA);
}

static void test_conn_priv_rules(void)
{
	struct spare_conn_priv p;

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 0, 16);
	EXPECT_EQ(priv_check(&p, 0), SPARE_PROTO_ESHORT);
	EXPECT_EQ(priv_check(&p, sizeof(p) - 1), SPARE_PROTO_ESHORT);

	p.magic = htole32(0x12345678);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EMAGIC);

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 0, 16);
	p.version = htole16(SPARE_PROTO_VERSION + 1);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EVERSION);

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 0, 16);
	p.reserved = htole32(1);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_ERESERVED);

	/* CONTROL carries no cookie; DATA must. */
	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 5, 16);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EKIND);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 0, 16);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EKIND);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 5, 16);
	p.kind = htole16(0);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EKIND);
	p.kind = htole16(3);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EKIND);

	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 5, 0);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EFIELD);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 5, 4097);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_EFIELD);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 5, 4096);
	EXPECT_EQ(priv_check(&p, sizeof(p)), SPARE_PROTO_OK);

	/* Garbage is refused, whatever it is. */
	memset(&p, 0xa5, sizeof(p));
	EXPECT(priv_check(&p, sizeof(p)) != SPARE_PROTO_OK);
}

int main(void)
{
	TAP_RUN(test_layout);
	TAP_RUN(test_init_zeroes);
	TAP_RUN(test_roundtrip_all_types);
	TAP_RUN(test_fields_decode);
	TAP_RUN(test_length);
	TAP_RUN(test_header_rules);
	TAP_RUN(test_padding_rule);
	TAP_RUN(test_hello_rules);
	TAP_RUN(test_grant_rules);
	TAP_RUN(test_auth_rules);
	TAP_RUN(test_auth_transcript);
	TAP_RUN(test_hello_reply_rules);
	TAP_RUN(test_map_rules);
	TAP_RUN(test_mapped_rules);
	TAP_RUN(test_resume_rules);
	TAP_RUN(test_unmap_activity_rules);
	TAP_RUN(test_evict_rules);
	TAP_RUN(test_strerror);
	TAP_RUN(test_conn_priv_roundtrip);
	TAP_RUN(test_conn_priv_rules);
	return tap_done();
}
