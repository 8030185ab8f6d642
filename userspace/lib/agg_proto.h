/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd wire protocol: the messages exchanged between a training job's
 * workers (libspare-agg) and the shared aggregation pool (spare-aggd).
 *
 * This header is the one place these facts live; the daemon, the client
 * library, the fuzz target and the tests include it unchanged.
 *
 * Rules:
 *  - every multi-byte field is little-endian; the codec in agg_proto.c
 *    reads and writes bytes, never casts a buffer to a struct;
 *  - every message is a fixed AGG_HDR_SIZE-byte header followed by exactly
 *    hdr.len payload bytes; hdr.len is checked against a per-type bound
 *    before any payload is read (agg_hdr_decode());
 *  - reserved bytes are zero on send and checked on receipt;
 *  - a header that fails a check closes the connection it came on and
 *    nothing else; a well-formed request that the job cannot accept gets an
 *    AGG_MSG_ERROR reply naming the reason.
 *
 * Message flow (one TCP connection per worker):
 *   worker                          spare-aggd
 *   REGISTER(spec, token, rank) --->          first one creates the job, the
 *                               <---  REGISTER_WAIT(made, total)...
 *                                     while the job's buffers are made
 *                                     (asked for by a flag in REGISTER)
 *                               <---  REGISTER_REPLY(job_id, n_parts)
 *   SET_WEIGHTS(part)           --->          (rank 0, only with a server
 *                                              optimizer, before iter 0)
 *   PUSH(part, iter, grad)      --->          no reply unless an error
 *   PULL(part, iter)            --->
 *                               <---  PULL_REPLY(part, iter, sum|weights)
 *   LEAVE                       --->          orderly end: not a failure
 *   STATS                       --->          (any connection, no job)
 *                               <---  STATS_REPLY(Prometheus text)
 *                               <---  ERROR(status, text) at any time
 *                               <---  REDIRECT(host, port): the job moved
 *   REPORT(job, token, iter,    --->          (any connection; every interval)
 *          loss, cpu_s)         <---  REPORT_REPLY(share) or ERROR; a bad
 *                                     REPORT changes nothing and the
 *                                     connection stays up
 *
 * Moving a job between instances (admin, source A, target B):
 *   admin --MIGRATE(job, token, B)--> A
 *   A --IMPORT(spec)--> B <--IMPORT_REPLY--    (job reserved on B)
 *   A serves every iteration below a barrier (1 + the highest iteration
 *   any partition has accepted work of, and at least every partition's
 *   current one); pushes of later iterations are dropped and their pulls
 *   held. When every partition has finished the iteration before it:
 *   A --IMPORT_STATE(part, weights|momentum)...--> B   (optimizer jobs)
 *   A --IMPORT_COMMIT(iter = barrier, departed ranks)--> B <--IMPORT_REPLY--
 *   A --REDIRECT(B, iter = barrier)--> every worker; admin <--MIGRATE_REPLY
 *   The workers reconnect to B, REGISTER again and repeat the requests of
 *   iterations >= the barrier there (libspare-agg does this by itself).
 *
 * Partitioning: tensors are cut, in registration order, into partitions of
 * at most part_elems elements; partition numbers run consecutively over
 * all tensors (agg_spec_part()).
 *
 * Summation order (what "the sum" is, bit for bit): for each element,
 * acc = x[rank 0]; acc += x[rank 1]; ... acc += x[rank W-1], every step an
 * IEEE-754 binary32 addition with round-to-nearest-even; fp16 and bf16
 * inputs are widened exactly to binary32 first and the result is rounded
 * once, to nearest even, back to the job's dtype.
 *
 * Server optimizer (AGG_OPT_SGD_MOMENTUM, fp32 jobs only): with g the sum
 * above divided by W (the mean gradient),
 *   v = momentum * v + g;  w = w - lr * v   (binary32, in that order)
 * and PULL returns w instead of the sum.
 */
#ifndef SPARE_AGG_PROTO_H
#define SPARE_AGG_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define AGG_PROTO_MAGIC		0x47474153U	/* "SAGG" little-endian */
#define AGG_PROTO_VERSION	1
#define AGG_HDR_SIZE		32
#define AGG_DEFAULT_PORT	18516

#define AGG_NAME_LEN		32	/* job and tensor names, NUL padded */
#define AGG_TOKEN_LEN		32	/* job token, NUL padded */
#define AGG_MAX_WORKERS		256
#define AGG_MAX_TENSORS		4096
#define AGG_MAX_PARTS		65536
#define AGG_MAX_PART_ELEMS	(4U << 20)	/* 16 MiB of fp32 */
#define AGG_MAX_TENSOR_ELEMS	(1ULL << 32)
#define AGG_MAX_WEIGHT		1000
#define AGG_MAX_ERR_TEXT	256
#define AGG_MAX_STATS_TEXT	(1U << 20)

/* RDMA transport: one message per SEND, so payloads are bounded by the
 * receive buffers both sides post. */
#define AGG_RDMA_MAX_PAYLOAD	(256U << 10)
#define AGG_RDMA_RECV_DEPTH	8

/* REGISTER payload: fixed part, then n_tensors tensor descriptors. */
#define AGG_REG_FIXED_SIZE	88
#define AGG_REG_TENSOR_SIZE	40
#define AGG_REG_MAX_SIZE	(AGG_REG_FIXED_SIZE + \
				 AGG_MAX_TENSORS * AGG_REG_TENSOR_SIZE)
#define AGG_REG_REPLY_SIZE	8

/* MIGRATE: name[32] token[32] host[64] port u32 reserved u32 */
#define AGG_HOST_LEN		64	/* host name or address, NUL padded */
#define AGG_MIGRATE_SIZE	136
/* REDIRECT: port u32 reserved u32 host[64] */
#define AGG_REDIRECT_SIZE	72
/* IMPORT carries a REGISTER payload (its rank field 0). IMPORT_COMMIT
 * carries one byte per worker: 0, or how that rank departed on the source
 * (AGG_DEPARTED_LEFT: sent LEAVE; AGG_DEPARTED_GONE: disconnected owing
 * nothing), so the target fails the job instead of waiting for it. */
#define AGG_DEPARTED_LEFT	1
#define AGG_DEPARTED_GONE	2

enum agg_msg_type {
	AGG_MSG_REGISTER	= 1,
	AGG_MSG_REGISTER_REPLY	= 2,
	AGG_MSG_PUSH		= 3,
	AGG_MSG_PULL		= 4,
	AGG_MSG_PULL_REPLY	= 5,
	AGG_MSG_SET_WEIGHTS	= 6,
	AGG_MSG_LEAVE		= 7,
	AGG_MSG_STATS		= 8,
	AGG_MSG_STATS_REPLY	= 9,
	AGG_MSG_ERROR		= 10,
	AGG_MSG_MIGRATE		= 11,	/* admin -> source instance */
	AGG_MSG_MIGRATE_REPLY	= 12,	/* text; hdr.iter = barrier */
	AGG_MSG_IMPORT		= 13,	/* source -> target: REGISTER payload */
	AGG_MSG_IMPORT_STATE	= 14,	/* hdr.part; hdr.rank = AGG_STATE_* */
	AGG_MSG_IMPORT_COMMIT	= 15,	/* hdr.iter = barrier; departed */
	AGG_MSG_IMPORT_REPLY	= 16,	/* answers IMPORT and IMPORT_COMMIT */
	AGG_MSG_REDIRECT	= 17,	/* host, port; hdr.iter = barrier */
	AGG_MSG_PEER_HELLO	= 18,	/* source -> target: nonce_s */
	AGG_MSG_PEER_CHALLENGE	= 19,	/* target -> source: nonce_t, mac_t */
	AGG_MSG_PEER_PROOF	= 20,	/* source -> target: mac_s */
	AGG_MSG_REPORT		= 21,	/* job's progress: iteration, loss, CPU */
	AGG_MSG_REPORT_REPLY	= 22,	/* its FlowCon share */
	AGG_MSG_TENANT_HELLO	= 23,	/* client -> daemon: tenant, nonce_c */
	AGG_MSG_TENANT_CHALLENGE = 24,	/* daemon -> client: nonce_d */
	AGG_MSG_TENANT_PROOF	= 25,	/* client -> daemon: mac */
	AGG_MSG_TENANT_REPLY	= 26,	/* the proof held: the connection is the tenant's */
	AGG_MSG_REGISTER_WAIT	= 27,	/* daemon -> worker: the job is being created */
	AGG_MSG_TYPE_MAX	= AGG_MSG_REGISTER_WAIT,
};

/*
 * A REGISTER that waits for its job's buffers (aggd.md, "Wire protocol"):
 * REGISTER's hdr.part carries the worker's flags (a daemon that predates
 * them ignores the field; a daemon ignores bits it does not know).
 * With AGG_REG_WANT_WAIT, while the job's buffers are being made the
 * daemon sends REGISTER_WAIT at once and then at least every
 * AGG_REG_WAIT_INTERVAL_MS, before the REGISTER_REPLY (or ERROR):
 *   REGISTER_WAIT  made u64  total u64   bytes of the job's buffers made
 *                                        so far and in all (made <= total)
 * hdr.job_id is the job's id. A worker never sends it.
 */
#define AGG_REG_WANT_WAIT	1U
#define AGG_REG_WAIT_SIZE	16
#define AGG_REG_WAIT_INTERVAL_MS 1000

/*
 * Daemon-to-daemon authentication, before IMPORT (both ways, a shared key
 * K, HMAC-SHA-256, 32-byte random nonces):
 *   PEER_HELLO      nonce_s
 *   PEER_CHALLENGE  nonce_t | HMAC(K, "spare-aggd target" | nonce_s | nonce_t)
 *   PEER_PROOF      HMAC(K, "spare-aggd source" | nonce_t | nonce_s)
 * The source sends nothing of the job before the target's MAC checked out;
 * the target refuses IMPORT on a connection whose PEER_PROOF did not.
 */
#define AGG_PEER_NONCE_LEN	32
#define AGG_PEER_MAC_LEN	32
#define AGG_PEER_HELLO_SIZE	AGG_PEER_NONCE_LEN
#define AGG_PEER_CHALLENGE_SIZE	(AGG_PEER_NONCE_LEN + AGG_PEER_MAC_LEN)
#define AGG_PEER_PROOF_SIZE	AGG_PEER_MAC_LEN

/*
 * REPORT (FlowCon/SpeCon progress reports, Documentation/protocol.md):
 *   name[32] token[32] version u16 (AGG_REPORT_VERSION) reserved u16
 *   reserved u32 iteration u64 loss f64 cpu_seconds f64 iter_total u64
 * f64 is IEEE-754 binary64, little-endian. loss finite and >= 0;
 * cpu_seconds (cumulative, the job's trainers) finite and >= 0; iter_total
 * 0 (unknown) or >= iteration. A newer payload version is refused with
 * AGG_EVERSION, so the message can grow without a new header version.
 * REPORT_REPLY: share f64 (cores; < 0 when the daemon runs without
 * FlowCon) flags u32 (AGG_REPORT_*) reserved u32.
 */
#define AGG_REPORT_VERSION	1
#define AGG_REPORT_SIZE		104
#define AGG_REPORT_REPLY_SIZE	16
#define AGG_REPORT_WATCHED	1U	/* the job is on FlowCon's watch list */
#define AGG_REPORT_FLOWCON	2U	/* the daemon runs FlowCon */

/*
 * Tenants (a daemon with a tenants file, Documentation/aggd.md "Tenants"):
 * a connection proves a tenant's key before it may REGISTER, REPORT or
 * MIGRATE; job names are the tenant's own.
 *   TENANT_HELLO      tenant[32] (NUL padded, printable) nonce_c[32]
 *   TENANT_CHALLENGE  nonce_d[32]  (sent for any name, known or not)
 *   TENANT_PROOF      HMAC-SHA-256(K_tenant, AGG_TENANT_LABEL | tenant[32]
 *                                  | nonce_c | nonce_d)
 *   TENANT_REPLY      (empty) the connection is the tenant's; else ERROR
 *                     EAUTH (the same for an unknown tenant and a wrong
 *                     key) or ECAP (its conns= cap), and the daemon closes
 * A fresh nonce_d per connection keeps a recorded proof from being
 * replayed. IMPORT carries the job's tenant before the REGISTER payload.
 */
#define AGG_TENANT_LABEL	"spare-aggd tenant 1"
#define AGG_TENANT_NONCE_LEN	32
#define AGG_TENANT_MAC_LEN	32
#define AGG_TENANT_HELLO_SIZE	(AGG_NAME_LEN + AGG_TENANT_NONCE_LEN)
#define AGG_TENANT_CHALLENGE_SIZE AGG_TENANT_NONCE_LEN
#define AGG_TENANT_PROOF_SIZE	AGG_TENANT_MAC_LEN
/* IMPORT: tenant[32] (all zero: the job of an open daemon), then REGISTER */
#define AGG_IMPORT_TENANT_LEN	AGG_NAME_LEN

/*
 * Capabilities of a move (aggd.md, "Moving over RDMA"), exchanged only
 * after both daemons proved the shared key: IMPORT's hdr.rank carries the
 * bits the source offers, the IMPORT_REPLY that answers it the bits the
 * target takes (a subset of the offer; a daemon that predates them sends
 * and answers 0). Neither end acts on a bit the other did not send.
 */
#define AGG_PEER_CAP_RDMA_STATE	1U	/* the optimizer state by RDMA WRITE */
#define AGG_PEER_CAPS_KNOWN	AGG_PEER_CAP_RDMA_STATE	/* bits this code acts on */

/* The target's answer to an offer: what both ends can act on. */
uint32_t agg_peer_caps_answer(uint32_t offered, uint32_t target_has);
/* 0, or -AGG_EPROTO when the target took a bit the source did not offer. */
int agg_peer_caps_check(uint32_t offered, uint32_t taken);

/*
 * The IMPORT_REPLY that takes AGG_PEER_CAP_RDMA_STATE carries where the
 * source WRITEs the job's state (any other IMPORT_REPLY has no payload):
 *   0  token[32]    one-time move token (rdma_cm private data, below)
 *  32  addr[4]      the target's --rdma IPv4 address, network order
 *  36  port u32     its rdma_cm port, 1..65535
 *  40  n_bufs u32   2 x the job's partitions: weights, momentum, per part
 *  44  reserved u32 zero
 *  48  n_bufs x { addr u64, rkey u32, len u32 }
 * The source connects with private data AGG_STATE_PRIV_SIZE bytes:
 * "SAGS", job id u32 (the target's, from the reply's header), token[32].
 */
#define AGG_STATE_TOKEN_LEN	32
#define AGG_STATE_RDMA_FIXED	48
#define AGG_STATE_RDMA_ENTRY	16
#define AGG_STATE_RDMA_MAX_SIZE	(AGG_STATE_RDMA_FIXED + \
				 AGG_STATE_RDMA_ENTRY * 2 * AGG_MAX_PARTS)
#define AGG_STATE_PRIV_MAGIC	0x53474153U	/* "SAGS" little-endian */
#define AGG_STATE_PRIV_SIZE	(8 + AGG_STATE_TOKEN_LEN)

struct agg_state_buf {
	uint64_t addr;
	uint32_t rkey, len;
};

struct agg_state_rdma {
	uint8_t token[AGG_STATE_TOKEN_LEN];
	uint8_t addr[4];
	uint32_t port;
	uint32_t n_bufs;
	struct agg_state_buf *bufs;	/* n_bufs, the caller's array */
};

/* Returns the payload's size, AGG_STATE_RDMA_FIXED + 16 * n_bufs. */
size_t agg_state_rdma_size(uint32_t n_bufs);
/* Writes agg_state_rdma_size(r->n_bufs) bytes to @out. */
void agg_state_rdma_encode(const struct agg_state_rdma *r, uint8_t *out);
/*
 * Decodes @len bytes into @r, whose bufs has room for @want_bufs entries:
 * -AGG_ESIZE unless @len is the size of exactly @want_bufs entries,
 * -AGG_EINVAL for port 0 or > 65535, an address 0, a zero rkey-less
 * buffer (addr 0) or a length other than @want_len[i], -AGG_EPROTO for
 * a reserved bit set.
 */
int agg_state_rdma_decode(const uint8_t *in, size_t len, uint32_t want_bufs,
			  const uint32_t *want_len, struct agg_state_rdma *r);
/* rdma_cm private data: AGG_STATE_PRIV_SIZE bytes */
void agg_state_priv_encode(uint32_t job_id, const uint8_t *token, uint8_t *out);
/* 0 with *job_id and token, or -1 when @in is not a state connection's */
int agg_state_priv_decode(const uint8_t *in, size_t len, uint32_t *job_id,
			  uint8_t *token);

/* IMPORT_STATE payloads (hdr.rank): a partition's optimizer state, fp32 */
#define AGG_STATE_WEIGHTS	0
#define AGG_STATE_MOMENTUM	1

enum agg_dtype {
	AGG_DTYPE_F32	= 1,
	AGG_DTYPE_F16	= 2,
	AGG_DTYPE_BF16	= 3,
};

enum agg_opt {
	AGG_OPT_NONE		= 0,
	AGG_OPT_SGD_MOMENTUM	= 1,
};

/* Status codes: hdr.status of ERROR and replies; functions return -code. */
enum agg_status {
	AGG_OK		= 0,
	AGG_EPROTO	= 1,	/* malformed header or payload */
	AGG_EVERSION	= 2,	/* unsupported protocol version */
	AGG_EAUTH	= 3,	/* wrong job token, or not the daemons' key */
	AGG_EINVAL	= 4,	/* bad field value */
	AGG_ESIZE	= 5,	/* payload size does not match the partition */
	AGG_ENOJOB	= 6,	/* no such job / not registered */
	AGG_ESEQ	= 7,	/* iteration out of order, or duplicate push */
	AGG_EJOBFAIL	= 8,	/* the job failed (a worker died or misbehaved) */
	AGG_ENOMEM	= 9,	/* daemon out of memory or over its job budget */
	AGG_ESPEC	= 10,	/* spec differs from the registered job's */
	AGG_ERANK	= 11,	/* rank out of range or already attached */
	AGG_ESTATE	= 12,	/* request not valid in this state */
	AGG_EMOVED	= 13,	/* the job moved to another instance */
	AGG_ECAP	= 14,	/* over one of the tenant's caps (jobs, mem, conns) */
	AGG_STATUS_MAX	= AGG_ECAP,
};

struct agg_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;		/* payload bytes that follow */
	uint32_t job_id;
	uint32_t part;
	uint32_t iter;
	uint32_t rank;
	uint32_t status;
};

struct agg_tensor_desc {
	char name[AGG_NAME_LEN + 1];
	uint64_t nelem;
};

/* A job as registered; tensors and the partition index are heap arrays. */
struct agg_job_spec {
	char name[AGG_NAME_LEN + 1];
	char token[AGG_TOKEN_LEN + 1];
	uint16_t n_workers;
	uint16_t rank;		/* the registering worker's rank */
	uint8_t dtype;
	uint8_t opt;
	uint16_t weight;	/* fair-share weight, 1..AGG_MAX_WEIGHT */
	uint32_t part_elems;
	uint32_t n_tensors;
	float lr;
	float momentum;
	struct agg_tensor_desc *tensors;
	/* derived by agg_spec_finish() */
	uint32_t n_parts;
	uint32_t *tensor_first_part;	/* n_tensors + 1 entries */
};

size_t agg_dtype_size(unsigned int dtype);
const char *agg_dtype_name(unsigned int dtype);
const char *agg_status_str(unsigned int status);
const char *agg_msg_type_name(unsigned int type);

void agg_hdr_init(struct agg_hdr *h, unsigned int type, uint32_t len);
void agg_hdr_encode(const struct agg_hdr *h, uint8_t out[AGG_HDR_SIZE]);
/*
 * Decode and check a header. max_push is the largest PUSH/PULL_REPLY/
 * SET_WEIGHTS payload the receiver accepts. Returns 0 or -AGG_E*.
 */
int agg_hdr_decode(const uint8_t in[AGG_HDR_SIZE], struct agg_hdr *h,
		   uint32_t max_push);

/* REGISTER payload. encode returns the byte count or -AGG_E*. */
size_t agg_register_size(uint32_t n_tensors);
int agg_register_encode(const struct agg_job_spec *s, uint8_t *out,
			size_t out_len);
/* Fills s (allocating its arrays) and runs agg_spec_finish(). */
int agg_register_decode(const uint8_t *in, size_t len,
			struct agg_job_spec *s);
/* Validate a spec built in memory and derive the partition index. */
int agg_spec_finish(struct agg_job_spec *s);
void agg_spec_free(struct agg_job_spec *s);
/* 1 when both describe the same job (name, workers, dtype, layout, opt). */
int agg_spec_same_job(const struct agg_job_spec *a,
		      const struct agg_job_spec *b);
/* Where partition p lives: its tensor, element offset and element count. */
int agg_spec_part(const struct agg_job_spec *s, uint32_t p,
		  uint32_t *tensor, uint64_t *offset, uint32_t *nelem);
/* Bytes of partition p on the wire for a push (dtype) and a pull. */
size_t agg_spec_push_bytes(const struct agg_job_spec *s, uint32_t p);
size_t agg_spec_pull_bytes(const struct agg_job_spec *s, uint32_t p);

void agg_reg_reply_encode(uint32_t n_parts, uint8_t out[AGG_REG_REPLY_SIZE]);
int agg_reg_reply_decode(const uint8_t *in, size_t len, uint32_t *n_parts);
void agg_reg_wait_encode(uint64_t made, uint64_t total,
			 uint8_t out[AGG_REG_WAIT_SIZE]);
/* 0, -AGG_ESIZE or -AGG_EPROTO (made over total). */
int agg_reg_wait_decode(const uint8_t *in, size_t len, uint64_t *made,
			uint64_t *total);

/* Where a job goes (MIGRATE) or went (REDIRECT). */
struct agg_target {
	char host[AGG_HOST_LEN + 1];
	uint16_t port;			/* 1..65535 */
};

struct agg_migrate_req {
	char name[AGG_NAME_LEN + 1];
	char token[AGG_TOKEN_LEN + 1];
	struct agg_target to;
};

int agg_migrate_encode(const struct agg_migrate_req *m,
		       uint8_t out[AGG_MIGRATE_SIZE]);
int agg_migrate_decode(const uint8_t *in, size_t len, struct agg_migrate_req *m);
int agg_redirect_encode(const struct agg_target *t,
			uint8_t out[AGG_REDIRECT_SIZE]);
int agg_redirect_decode(const uint8_t *in, size_t len, struct agg_target *t);
struct agg_report {
	char name[AGG_NAME_LEN + 1];
	char token[AGG_TOKEN_LEN + 1];
	uint16_t version;
	uint64_t iter;
	double loss;
	double cpu_seconds;
	uint64_t iter_total;	/* 0: unknown */
};

/* REPORT: encode returns AGG_REPORT_SIZE or -AGG_E*; decode validates every
 * field (-AGG_ESIZE, -AGG_EPROTO reserved bits, -AGG_EVERSION, -AGG_EINVAL). */
int agg_report_encode(const struct agg_report *r, uint8_t out[AGG_REPORT_SIZE]);
int agg_report_decode(const uint8_t *in, size_t len, struct agg_report *r);
void agg_report_reply_encode(double share, uint32_t flags,
			     uint8_t out[AGG_REPORT_REPLY_SIZE]);
int agg_report_reply_decode(const uint8_t *in, size_t len, double *share,
			    uint32_t *flags);

/* A printable, NUL-padded name field of AGG_NAME_LEN bytes into @out
 * (AGG_NAME_LEN + 1); -AGG_EPROTO if it is not one (an empty one is). */
int agg_name_decode(const uint8_t *in, char *out);
void agg_name_encode(uint8_t *out, const char *name);

/* IMPORT_COMMIT payload: n_workers bytes, each 0 or AGG_DEPARTED_*. */
int agg_departed_check(const uint8_t *in, size_t len, unsigned int n_workers);

#endif /* SPARE_AGG_PROTO_H */
