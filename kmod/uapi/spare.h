/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * spare wire protocol: the messages exchanged between a client (spare.ko or
 * spare-ublk) and a donor (spared), and the rdma_cm private data that opens
 * each connection.
 *
 * This header is the one place these facts live. The kernel module and the
 * userspace programs include it unchanged.
 *
 * Rules:
 *  - every multi-byte field is little-endian;
 *  - every message is exactly SPARE_MSG_SIZE bytes: a fixed header followed
 *    by a type-specific body, zero padded; receive buffers are that size;
 *  - every reserved field must be zero on send and is checked on receipt;
 *  - a message that fails any check closes the connection it came on and
 *    nothing else (see spare_msg_check() in kmod/spare_proto.c).
 *
 * Connections (RDMA RC, set up with rdma_cm):
 *  - one CONTROL connection per (client, donor); it carries the messages;
 *  - DATA connections, one per (client CPU, donor), created lazily; they
 *    carry only one-sided RDMA READ/WRITE issued by the client and are bound
 *    to the client's session (and so its protection domain) by the session
 *    cookie the donor returned in HELLO_REPLY.
 *
 * Message flow:
 *   client                         donor
 *   HELLO            ------->
 *   (with a key: the handshake below, before the donor's HELLO_REPLY)
 *                    <-------      AUTH_CHALLENGE (donor nonce, donor id)
 *   AUTH_RESPONSE    ------->      (client's proof)
 *                    <-------      AUTH_RESPONSE (donor's proof)
 *                    <-------      HELLO_REPLY (session cookie, slab size)
 *   GRANT(part 0..6) ------->      (a broker's grant, 40 bytes a part; no reply)
 *   MAP(slab, grant) ------->
 *                    <-------      MAPPED(slab, addr, rkey) or status != 0
 *   (HELLO F_HOLD: slabs kept a while if the session ends without UNMAP;
 *    HELLO F_RESUME + token: a new session adopts them, MAPPED F_KEPT)
 *   UNMAP(slab)      ------->      (MR deregistered, memory zeroed)
 *                    <-------      EVICT(slab): donor wants the slab back
 *   UNMAP(slab)      ------->      client has stopped using it
 *                    <-------      ACTIVITY_QUERY(slab)
 *   ACTIVITY_REPLY   ------->
 *   HEARTBEAT        <------>      HEARTBEAT (either side, any time)
 */
#ifndef _UAPI_SPARE_H
#define _UAPI_SPARE_H

#include <linux/types.h>

#define SPARE_PROTO_MAGIC	0x31525053U	/* "SPR1" little-endian */
#define SPARE_PROTO_VERSION	3	/* 2: host authentication; 3: GRANT */
#define SPARE_MSG_SIZE		64
#define SPARE_DEFAULT_PORT	18515

/* Slab sizes are powers of two within these bounds (bytes, as log2). */
#define SPARE_SLAB_SHIFT_MIN	20	/* 1 MiB: tests and small donors */
#define SPARE_SLAB_SHIFT_MAX	34	/* 16 GiB */
#define SPARE_SLAB_SHIFT_DEFAULT 30	/* 1 GiB */

enum spare_msg_type {
	SPARE_MSG_HELLO		 = 1,
	SPARE_MSG_HELLO_REPLY	 = 2,
	SPARE_MSG_MAP		 = 3,
	SPARE_MSG_MAPPED	 = 4,
	SPARE_MSG_UNMAP		 = 5,
	SPARE_MSG_EVICT		 = 6,
	SPARE_MSG_ACTIVITY_QUERY = 7,
	SPARE_MSG_ACTIVITY_REPLY = 8,
	SPARE_MSG_HEARTBEAT	 = 9,
	SPARE_MSG_AUTH_CHALLENGE = 10,
	SPARE_MSG_AUTH_RESPONSE	 = 11,
	SPARE_MSG_GRANT		 = 12,
	SPARE_MSG_TYPE_MAX	 = 12,
};

/* Status codes carried in replies. */
enum spare_status {
	SPARE_ST_OK		= 0,
	SPARE_ST_NO_SPACE	= 1,	/* donor has no free slab */
	SPARE_ST_BAD_GRANT	= 2,	/* grant token refused */
	SPARE_ST_BAD_SLAB_SIZE	= 3,	/* donor cannot serve this slab size */
	SPARE_ST_BUSY		= 4,	/* slab id already mapped */
	SPARE_ST_VERSION	= 5,	/* protocol version not supported */
	SPARE_ST_AUTH_REQUIRED	= 6,	/* donor has keys; HELLO offered none */
	SPARE_ST_AUTH_FAILED	= 7,	/* unknown client or wrong proof */
	SPARE_ST_MAX		= 7,
};

/* Why a donor evicts a slab. */
enum spare_evict_reason {
	SPARE_EVICT_PRESSURE	= 1,	/* host memory pressure */
	SPARE_EVICT_ADMIN	= 2,	/* operator asked */
	SPARE_EVICT_SHUTDOWN	= 3,	/* donor is stopping */
	SPARE_EVICT_REASON_MAX	= 3,
};

struct spare_msg_hdr {
	__le32	magic;		/* SPARE_PROTO_MAGIC */
	__le16	version;	/* SPARE_PROTO_VERSION */
	__le16	type;		/* enum spare_msg_type */
	__le32	seq;		/* sender's sequence number, echoed in replies */
	__le32	reserved;
};

/*
 * Host authentication (protocol version 2), after NVMe's DH-HMAC-CHAP
 * without the Diffie-Hellman part. Each client has a 32-byte secret, known
 * to it and to the donors that serve it (see Documentation/protocol.md for
 * the "SPARE-1:" text form). Each side proves it knows the secret with
 * HMAC-SHA-256(secret, transcript), the transcript being
 *   SPARE_AUTH_LABEL (16 bytes, NUL padded) | direction (1 byte) |
 *   client_uuid (16) | donor_id (16) | client nonce (16) | donor nonce (16)
 * (see spare_auth_transcript()). The direction byte keeps one side's proof
 * from being reflected as the other's; fresh nonces on both sides keep a
 * recorded proof from being replayed.
 */
#define SPARE_AUTH_LABEL	"spare-auth-v1"
#define SPARE_AUTH_KEY_LEN	32
#define SPARE_AUTH_NONCE_LEN	16
#define SPARE_AUTH_ID_LEN	16
#define SPARE_AUTH_MAC_LEN	32	/* HMAC-SHA-256 */
#define SPARE_AUTH_TRANSCRIPT_LEN	(16 + 1 + 16 + 16 + 16 + 16)

enum spare_auth_dir {
	SPARE_AUTH_DIR_CLIENT	= 1,	/* the client's proof */
	SPARE_AUTH_DIR_DONOR	= 2,	/* the donor's proof */
};

/* HELLO flags */
#define SPARE_HELLO_F_AUTH	0x01	/* client has a key: authenticate both ways */
/*
 * Pager restart (spare-ublk): F_HOLD asks the donor to keep this session's
 * slabs, contents and all, for a while (spared's resume-hold) if the
 * session ends without UNMAPping them; the donor that agrees answers with a
 * non-zero resume_token in HELLO_REPLY. F_RESUME (with F_HOLD) asks it to
 * give this new session the slabs held for the earlier one: resume_token is
 * that session's token, and the identity must match (same uuid; with host
 * authentication the same name; with grants the same owner). The slabs
 * come back through MAP of the same slab ids, answered MAPPED with
 * SPARE_MAPPED_F_KEPT.
 */
#define SPARE_HELLO_F_HOLD	0x02	/* keep my slabs if I vanish */
#define SPARE_HELLO_F_RESUME	0x04	/* adopt the slabs held for me */
#define SPARE_HELLO_FLAGS	(SPARE_HELLO_F_AUTH | SPARE_HELLO_F_HOLD | \
				 SPARE_HELLO_F_RESUME)

/* client -> donor, first message on the control connection */
struct spare_msg_hello {
	__u8	client_uuid[16];	/* stable per client device */
	__u8	slab_shift;		/* log2 of the slab size wanted */
	__u8	flags;			/* SPARE_HELLO_F_* */
	__u8	reserved[6];
	__u8	nonce[SPARE_AUTH_NONCE_LEN]; /* random with F_AUTH, else 0 */
	__le64	resume_token;		/* with F_RESUME (never 0), else 0 */
};

/* donor -> client, answer to a HELLO with F_AUTH */
struct spare_msg_auth_challenge {
	__u8	nonce[SPARE_AUTH_NONCE_LEN];	/* random, never 0 */
	__u8	donor_id[SPARE_AUTH_ID_LEN];	/* donor's name, NUL padded */
};

/* either way: HMAC-SHA-256(client secret, transcript of the direction) */
struct spare_msg_auth_response {
	__u8	mac[SPARE_AUTH_MAC_LEN];
};

/* donor -> client */
struct spare_msg_hello_reply {
	__le64	session_cookie;		/* binds DATA connections to the session */
	__le32	status;			/* enum spare_status */
	__le32	free_slabs;		/* slabs the donor could lend now */
	__u8	slab_shift;		/* slab size the donor serves */
	__u8	reserved[7];
	__le64	resume_token;		/* F_HOLD granted: the proof for F_RESUME; else 0 */
};

/*
 * client -> donor: one part of a grant (kmod/uapi/spare_grant.h), which is
 * larger than a message. The SPARE_GRANT_PARTS parts of one grant are sent
 * back to back, in order, part p carrying bytes [40p, 40p + 40) of it (the
 * last part's bytes past the grant are zero). The donor verifies the grant
 * when the last part arrives and sends nothing back: a grant it refused
 * (logged there with the reason) makes the MAPs that name it fail with
 * SPARE_ST_BAD_GRANT. Grants are sent after HELLO_REPLY, before the MAPs
 * they cover, again on every new session.
 */
#define SPARE_GRANT_PART_LEN	40
#define SPARE_GRANT_PARTS	7	/* DIV_ROUND_UP(SPARE_GRANT_SIZE, 40) */

struct spare_msg_grant {
	__u8	part;			/* 0 .. SPARE_GRANT_PARTS - 1 */
	__u8	parts;			/* SPARE_GRANT_PARTS */
	__u8	reserved[6];
	__u8	data[SPARE_GRANT_PART_LEN];
};

/*
 * client -> donor: lend me one slab, identified by the client's slab id.
 * A donor with a grant key lends only against grants: @grant names one the
 * client sent in this session (the first 8 bytes of its grant_id, as a
 * little-endian number), and the client may hold at most as many slabs as
 * the grants it sent and that have not expired cover together. A donor
 * without a grant key ignores @grant.
 */
struct spare_msg_map {
	__le64	grant;			/* a grant's token, or 0 */
	__le32	slab_id;		/* client-chosen, unique per session */
	__le32	reserved;
};

/* MAPPED flags */
#define SPARE_MAPPED_F_KEPT	0x01	/* a held slab, back with its contents */

/* donor -> client */
struct spare_msg_mapped {
	__le64	addr;			/* remote virtual address of the slab */
	__le32	rkey;
	__le32	slab_id;
	__le32	status;			/* enum spare_status; addr/rkey 0 if != OK */
	__le32	flags;			/* SPARE_MAPPED_F_*, only with OK */
};

/* client -> donor: release (also the answer to EVICT) */
struct spare_msg_unmap {
	__le32	slab_id;
	__le32	reserved;
};

/* donor -> client: give the slab back */
struct spare_msg_evict {
	__le32	slab_id;
	__le32	reason;			/* enum spare_evict_reason */
	__le32	deadline_ms;		/* donor revokes the MR after this */
	__le32	reserved;
};

struct spare_msg_activity_query {
	__le32	slab_id;
	__le32	reserved;
};

struct spare_msg_activity_reply {
	__le64	accesses;		/* pages read or written since last query */
	__le32	slab_id;
	__le32	reserved;
};

struct spare_msg_heartbeat {
	__le64	now_ns;			/* sender's clock, for round-trip stats */
};

struct spare_msg {
	struct spare_msg_hdr hdr;
	union {
		struct spare_msg_hello		 hello;
		struct spare_msg_hello_reply	 hello_reply;
		struct spare_msg_map		 map;
		struct spare_msg_mapped		 mapped;
		struct spare_msg_unmap		 unmap;
		struct spare_msg_evict		 evict;
		struct spare_msg_activity_query	 activity_query;
		struct spare_msg_activity_reply	 activity_reply;
		struct spare_msg_heartbeat	 heartbeat;
		struct spare_msg_auth_challenge	 auth_challenge;
		struct spare_msg_auth_response	 auth_response;
		struct spare_msg_grant		 grant;
		__u8 pad[SPARE_MSG_SIZE - sizeof(struct spare_msg_hdr)];
	};
};

/* rdma_cm private data of a connect request (fits RC's 56 bytes). */
enum spare_conn_kind {
	SPARE_CONN_CONTROL = 1,
	SPARE_CONN_DATA	   = 2,
};

struct spare_conn_priv {
	__le32	magic;			/* SPARE_PROTO_MAGIC */
	__le16	version;
	__le16	kind;			/* enum spare_conn_kind */
	__le64	session_cookie;		/* 0 for CONTROL */
	__u8	client_uuid[16];
	__le32	queue_depth;		/* sends the peer may have outstanding */
	__le32	reserved;
};

#endif /* _UAPI_SPARE_H */
