// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the shared wire codec (spare_proto.c), as built into the
 * kernel: every field of a received message is checked.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "spare_proto.h"

static void proto_roundtrip_every_type(struct kunit *test)
{
	struct spare_msg m;
	unsigned int t, got;

	for (t = 1; t <= SPARE_MSG_TYPE_MAX; t++) {
		spare_msg_init(&m, t, 42);
		switch (t) {
		case SPARE_MSG_HELLO:
			m.hello.slab_shift = SPARE_SLAB_SHIFT_DEFAULT;
			break;
		case SPARE_MSG_HELLO_REPLY:
			m.hello_reply.slab_shift = 26;
			m.hello_reply.session_cookie = cpu_to_le64(7);
			break;
		case SPARE_MSG_MAPPED:
			m.mapped.addr = cpu_to_le64(0x10000);
			m.mapped.rkey = cpu_to_le32(5);
			break;
		case SPARE_MSG_EVICT:
			m.evict.reason = cpu_to_le32(SPARE_EVICT_ADMIN);
			break;
		case SPARE_MSG_AUTH_CHALLENGE:
			m.auth_challenge.nonce[3] = 1;
			break;
		case SPARE_MSG_GRANT:
			m.grant.parts = SPARE_GRANT_PARTS;
			break;
		}
		got = 0;
		KUNIT_EXPECT_EQ_MSG(test, spare_msg_check(&m, sizeof(m), &got),
				    SPARE_PROTO_OK, "type %s",
				    spare_msg_type_name(t));
		KUNIT_EXPECT_EQ(test, got, t);
		KUNIT_EXPECT_EQ(test, le32_to_cpu(m.hdr.seq), 42U);
	}
}

static void proto_rejects_bad_header(struct kunit *test)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m) - 1, NULL),
			SPARE_PROTO_ESHORT);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m) + 1, NULL),
			SPARE_PROTO_ELONG);
	m.hdr.magic = cpu_to_le32(0xdeadbeef);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EMAGIC);
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, 1);
	m.hdr.version = cpu_to_le16(SPARE_PROTO_VERSION + 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EVERSION);
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, 1);
	m.hdr.type = cpu_to_le16(0);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ETYPE);
	m.hdr.type = cpu_to_le16(SPARE_MSG_TYPE_MAX + 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ETYPE);
	spare_msg_init(&m, SPARE_MSG_HEARTBEAT, 1);
	m.hdr.reserved = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);
}

static void proto_rejects_nonzero_padding(struct kunit *test)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_UNMAP, 1);
	m.pad[sizeof(m.pad) - 1] = 1;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);
	spare_msg_init(&m, SPARE_MSG_UNMAP, 1);
	m.unmap.reserved = cpu_to_le32(3);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);
}

static void proto_checks_bodies(struct kunit *test)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO, 1);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_MIN - 1;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ESLAB_SHIFT);

	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, 1);
	m.hello_reply.status = cpu_to_le32(SPARE_ST_MAX + 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ESTATUS);
	/* an accepted session must carry a cookie */
	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, 1);
	m.hello_reply.slab_shift = 26;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);
	/* a refusal needs neither */
	m.hello_reply.slab_shift = 0;
	m.hello_reply.status = cpu_to_le32(SPARE_ST_VERSION);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);

	spare_msg_init(&m, SPARE_MSG_MAPPED, 1);	/* OK without address */
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);
	m.mapped.status = cpu_to_le32(SPARE_ST_NO_SPACE);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.mapped.rkey = cpu_to_le32(9);		/* refusal with a key */
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);

	spare_msg_init(&m, SPARE_MSG_EVICT, 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EREASON);
	m.evict.reason = cpu_to_le32(SPARE_EVICT_REASON_MAX + 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EREASON);
}

static void proto_conn_priv(struct kunit *test)
{
	static const u8 uuid[16] = { 1, 2, 3 };
	struct spare_conn_priv p;
	u8 padded[56];

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 0, 32);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p)), SPARE_PROTO_OK);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p) - 1),
			SPARE_PROTO_ESHORT);
	/* rdma_cm pads private data: longer is fine */
	memset(padded, 0, sizeof(padded));
	memcpy(padded, &p, sizeof(p));
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(padded, sizeof(padded)),
			SPARE_PROTO_OK);

	spare_conn_priv_init(&p, SPARE_CONN_CONTROL, uuid, 5, 32);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p)),
			SPARE_PROTO_EKIND);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 0, 32);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p)),
			SPARE_PROTO_EKIND);
	spare_conn_priv_init(&p, SPARE_CONN_DATA, uuid, 5, 0);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p)),
			SPARE_PROTO_EFIELD);
	spare_conn_priv_init(&p, 3, uuid, 5, 8);
	KUNIT_EXPECT_EQ(test, spare_conn_priv_check(&p, sizeof(p)),
			SPARE_PROTO_EKIND);
}

static void proto_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, spare_msg_type_name(SPARE_MSG_EVICT), "EVICT");
	KUNIT_EXPECT_STREQ(test, spare_msg_type_name(0), "?");
	KUNIT_EXPECT_STREQ(test, spare_proto_strerror(SPARE_PROTO_EMAGIC),
			   "bad magic");
	KUNIT_EXPECT_STREQ(test, spare_proto_strerror(-1), "unknown error");
}

/* Protocol version 2: the handshake messages and HELLO's auth fields. */
static void proto_auth_messages(struct kunit *test)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO, 1);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_DEFAULT;
	m.hello.flags = SPARE_HELLO_F_AUTH;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* auth without a nonce */
	m.hello.nonce[0] = 0x42;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.hello.flags = 0;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* a nonce without auth */
	m.hello.flags = 0x08;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);	/* unknown flag */

	spare_msg_init(&m, SPARE_MSG_AUTH_CHALLENGE, 2);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* zero nonce */
	m.auth_challenge.nonce[15] = 1;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.pad[sizeof(m.auth_challenge)] = 1;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);

	spare_msg_init(&m, SPARE_MSG_AUTH_RESPONSE, 3);
	memset(m.auth_response.mac, 0xff, sizeof(m.auth_response.mac));
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.pad[SPARE_AUTH_MAC_LEN] = 1;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);

	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, 4);
	m.hello_reply.status = cpu_to_le32(SPARE_ST_AUTH_FAILED);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.hello_reply.status = cpu_to_le32(SPARE_ST_AUTH_FAILED + 1);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ESTATUS);
}

/* The bytes both sides feed to HMAC-SHA-256, as uapi/spare.h lays out. */
static void proto_auth_transcript(struct kunit *test)
{
	u8 t[SPARE_AUTH_TRANSCRIPT_LEN], uuid[16], id[16], nc[16], nd[16];

	memset(uuid, 1, sizeof(uuid));
	memset(id, 2, sizeof(id));
	memset(nc, 3, sizeof(nc));
	memset(nd, 4, sizeof(nd));
	memset(t, 0xee, sizeof(t));
	spare_auth_transcript(t, SPARE_AUTH_DIR_CLIENT, uuid, id, nc, nd);
	KUNIT_EXPECT_EQ(test, sizeof(t), (size_t)81);
	KUNIT_EXPECT_EQ(test, memcmp(t, "spare-auth-v1\0\0\0", 16), 0);
	KUNIT_EXPECT_EQ(test, t[16], (u8)SPARE_AUTH_DIR_CLIENT);
	KUNIT_EXPECT_EQ(test, memcmp(t + 17, uuid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t + 33, id, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t + 49, nc, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t + 65, nd, 16), 0);
	spare_auth_transcript(t, SPARE_AUTH_DIR_DONOR, uuid, id, nc, nd);
	KUNIT_EXPECT_EQ(test, t[16], (u8)SPARE_AUTH_DIR_DONOR);
}

/* Pager restart: HELLO's hold/resume, HELLO_REPLY's token, MAPPED F_KEPT. */
static void proto_resume_messages(struct kunit *test)
{
	struct spare_msg m;

	spare_msg_init(&m, SPARE_MSG_HELLO, 1);
	m.hello.slab_shift = SPARE_SLAB_SHIFT_DEFAULT;
	m.hello.flags = SPARE_HELLO_F_HOLD;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.hello.resume_token = cpu_to_le64(7);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* a token without F_RESUME */
	m.hello.flags |= SPARE_HELLO_F_RESUME;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.hello.flags = SPARE_HELLO_F_RESUME;
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* resume without hold */

	spare_msg_init(&m, SPARE_MSG_HELLO_REPLY, 1);
	m.hello_reply.status = cpu_to_le32(SPARE_ST_NO_SPACE);
	m.hello_reply.resume_token = cpu_to_le64(7);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_EFIELD);	/* a refusal with a token */

	spare_msg_init(&m, SPARE_MSG_MAPPED, 1);
	m.mapped.addr = cpu_to_le64(0x1000);
	m.mapped.flags = cpu_to_le32(SPARE_MAPPED_F_KEPT);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_OK);
	m.mapped.flags = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, spare_msg_check(&m, sizeof(m), NULL),
			SPARE_PROTO_ERESERVED);
}

static struct kunit_case proto_cases[] = {
	KUNIT_CASE(proto_resume_messages),
	KUNIT_CASE(proto_roundtrip_every_type),
	KUNIT_CASE(proto_rejects_bad_header),
	KUNIT_CASE(proto_rejects_nonzero_padding),
	KUNIT_CASE(proto_checks_bodies),
	KUNIT_CASE(proto_conn_priv),
	KUNIT_CASE(proto_names),
	KUNIT_CASE(proto_auth_messages),
	KUNIT_CASE(proto_auth_transcript),
	{}
};

static struct kunit_suite proto_suite = {
	.name = "spare_proto",
	.test_cases = proto_cases,
};

kunit_test_suite(proto_suite);

MODULE_LICENSE("GPL");
