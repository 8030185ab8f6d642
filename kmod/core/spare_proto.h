/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Codec for the spare wire protocol (uapi/spare.h).
 *
 * Pure logic: no allocation, no RDMA, no block layer. The same source is
 * built into spare.ko, into the KUnit suite and into userspace's libspare,
 * so the kernel and the daemons check messages with one set of rules.
 */
#ifndef SPARE_PROTO_H
#define SPARE_PROTO_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#endif

#include "../uapi/spare.h"
#include "../uapi/spare_grant.h"

/*
 * Errors returned by spare_msg_check(); each names the first rule broken.
 * They are positive codes so that callers can log spare_proto_strerror().
 */
enum spare_proto_err {
	SPARE_PROTO_OK = 0,
	SPARE_PROTO_ESHORT,		/* fewer than SPARE_MSG_SIZE bytes */
	SPARE_PROTO_ELONG,		/* more than SPARE_MSG_SIZE bytes */
	SPARE_PROTO_EMAGIC,
	SPARE_PROTO_EVERSION,
	SPARE_PROTO_ETYPE,		/* unknown message type */
	SPARE_PROTO_ERESERVED,		/* a reserved field or pad is not zero */
	SPARE_PROTO_ESTATUS,		/* status code out of range */
	SPARE_PROTO_ESLAB_SHIFT,	/* slab size out of range */
	SPARE_PROTO_EREASON,		/* eviction reason out of range */
	SPARE_PROTO_EFIELD,		/* other field out of range */
	SPARE_PROTO_EKIND,		/* connection kind unknown or inconsistent */
	SPARE_PROTO_EMAX,
};

const char *spare_proto_strerror(int err);
const char *spare_msg_type_name(unsigned int type);
/* What a status code (enum spare_status) means, for logs. */
const char *spare_status_name(unsigned int status);

/* Zero @m and fill its header. */
void spare_msg_init(struct spare_msg *m, enum spare_msg_type type, u32 seq);

/*
 * Check every field of a received message of @len bytes at @buf.
 * On success returns SPARE_PROTO_OK and, if @type is not NULL, stores the
 * message type there. The caller may then read the body through
 * struct spare_msg with the le*_to_cpu helpers.
 */
int spare_msg_check(const void *buf, size_t len, unsigned int *type);

/* Build and check the rdma_cm private data of a connection request. */
void spare_conn_priv_init(struct spare_conn_priv *p, enum spare_conn_kind kind,
			  const u8 client_uuid[16], u64 session_cookie,
			  u32 queue_depth);
int spare_conn_priv_check(const void *buf, size_t len);

/*
 * Grants travel in SPARE_GRANT_PARTS GRANT messages (uapi/spare.h).
 * spare_grant_part_init() builds part @part of the SPARE_GRANT_SIZE bytes
 * at @grant. The receiver feeds each checked GRANT message to
 * spare_grant_part_take(): 1 when @rx->buf holds a whole grant, 0 when
 * more parts are due, -1 when the part is out of order (the partial grant
 * is dropped; the next part 0 starts over).
 */
struct spare_grant_rx {
	u8		buf[SPARE_GRANT_SIZE];
	unsigned int	next;		/* part expected */
};

void spare_grant_part_init(struct spare_msg *m, const void *grant,
			   unsigned int part, u32 seq);
int spare_grant_part_take(struct spare_grant_rx *rx, const struct spare_msg *m);

/*
 * Lay out the bytes both sides feed to HMAC-SHA-256 for the proof of
 * direction @dir (enum spare_auth_dir); see uapi/spare.h.
 */
void spare_auth_transcript(u8 out[SPARE_AUTH_TRANSCRIPT_LEN], unsigned int dir,
			   const u8 client_uuid[16],
			   const u8 donor_id[SPARE_AUTH_ID_LEN],
			   const u8 client_nonce[SPARE_AUTH_NONCE_LEN],
			   const u8 donor_nonce[SPARE_AUTH_NONCE_LEN]);

#endif /* SPARE_PROTO_H */
