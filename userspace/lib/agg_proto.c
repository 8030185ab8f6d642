// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd wire codec: byte-level encode/decode of agg_proto.h messages,
 * with every size and count checked. Pure logic, no I/O; shared by the
 * daemon, libspare-agg, the fuzz target and the unit tests.
 */
#include "agg_proto.h"
#include "agg_bits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

size_t agg_dtype_size(unsigned int dtype)
{
	switch (dtype) {
	case AGG_DTYPE_F32:
		return 4;
	case AGG_DTYPE_F16:
	case AGG_DTYPE_BF16:
		return 2;
	}
	return 0;
}

const char *agg_dtype_name(unsigned int dtype)
{
	switch (dtype) {
	case AGG_DTYPE_F32:
		return "fp32";
	case AGG_DTYPE_F16:
		return "fp16";
	case AGG_DTYPE_BF16:
		return "bf16";
	}
	return "?";
}

const char *agg_status_str(unsigned int status)
{
	static const char *const str[] = {
		[AGG_OK]	= "ok",
		[AGG_EPROTO]	= "malformed message",
		[AGG_EVERSION]	= "unsupported protocol version",
		[AGG_EAUTH]	= "not authorised (wrong job token, or not the daemons' key)",
		[AGG_EINVAL]	= "invalid argument",
		[AGG_ESIZE]	= "payload size does not match the partition",
		[AGG_ENOJOB]	= "no such job on this connection",
		[AGG_ESEQ]	= "iteration out of order or duplicate push",
		[AGG_EJOBFAIL]	= "job failed",
		[AGG_ENOMEM]	= "out of memory or over the job memory budget",
		[AGG_ESPEC]	= "job spec differs from the registered job",
		[AGG_ERANK]	= "rank out of range or already attached",
		[AGG_ESTATE]	= "request not valid in this state",
		[AGG_EMOVED]	= "job moved to another spare-aggd instance",
		[AGG_ECAP]	= "over the tenant's cap",
	};

	if (status < sizeof(str) / sizeof(str[0]) && str[status])
		return str[status];
	return "unknown status";
}

const char *agg_msg_type_name(unsigned int type)
{
	static const char *const str[] = {
		[AGG_MSG_REGISTER]	 = "REGISTER",
		[AGG_MSG_REGISTER_REPLY] = "REGISTER_REPLY",
		[AGG_MSG_PUSH]		 = "PUSH",
		[AGG_MSG_PULL]		 = "PULL",
		[AGG_MSG_PULL_REPLY]	 = "PULL_REPLY",
		[AGG_MSG_SET_WEIGHTS]	 = "SET_WEIGHTS",
		[AGG_MSG_LEAVE]		 = "LEAVE",
		[AGG_MSG_STATS]		 = "STATS",
		[AGG_MSG_STATS_REPLY]	 = "STATS_REPLY",
		[AGG_MSG_ERROR]		 = "ERROR",
		[AGG_MSG_MIGRATE]	 = "MIGRATE",
		[AGG_MSG_MIGRATE_REPLY]	 = "MIGRATE_REPLY",
		[AGG_MSG_IMPORT]	 = "IMPORT",
		[AGG_MSG_IMPORT_STATE]	 = "IMPORT_STATE",
		[AGG_MSG_IMPORT_COMMIT]	 = "IMPORT_COMMIT",
		[AGG_MSG_IMPORT_REPLY]	 = "IMPORT_REPLY",
		[AGG_MSG_REDIRECT]	 = "REDIRECT",
		[AGG_MSG_PEER_HELLO]	 = "PEER_HELLO",
		[AGG_MSG_PEER_CHALLENGE] = "PEER_CHALLENGE",
		[AGG_MSG_PEER_PROOF]	 = "PEER_PROOF",
		[AGG_MSG_REPORT]	 = "REPORT",
		[AGG_MSG_REPORT_REPLY]	 = "REPORT_REPLY",
		[AGG_MSG_TENANT_HELLO]	 = "TENANT_HELLO",
		[AGG_MSG_TENANT_CHALLENGE] = "TENANT_CHALLENGE",
		[AGG_MSG_TENANT_PROOF]	 = "TENANT_PROOF",
		[AGG_MSG_TENANT_REPLY]	 = "TENANT_REPLY",
		[AGG_MSG_REGISTER_WAIT]	 = "REGISTER_WAIT",
	};

	if (type < sizeof(str) / sizeof(str[0]) && str[type])
		return str[type];
	return "?";
}

void agg_hdr_init(struct agg_hdr *h, unsigned int type, uint32_t len)
{
	memset(h, 0, sizeof(*h));
	h->magic = AGG_PROTO_MAGIC;
	h->version = AGG_PROTO_VERSION;
	h->type = (uint16_t)type;
	h->len = len;
}

void agg_hdr_encode(const struct agg_hdr *h, uint8_t out[AGG_HDR_SIZE])
{
	put32(out + 0, h->magic);
	put16(out + 4, h->version);
	put16(out + 6, h->type);
	put32(out + 8, h->len);
	put32(out + 12, h->job_id);
	put32(out + 16, h->part);
	put32(out + 20, h->iter);
	put32(out + 24, h->rank);
	put32(out + 28, h->status);
}

int agg_hdr_decode(const uint8_t in[AGG_HDR_SIZE], struct agg_hdr *h,
		   uint32_t max_push)
{
	uint32_t max_len;

	h->magic = get32(in + 0);
	h->version = get16(in + 4);
	h->type = get16(in + 6);
	h->len = get32(in + 8);
	h->job_id = get32(in + 12);
	h->part = get32(in + 16);
	h->iter = get32(in + 20);
	h->rank = get32(in + 24);
	h->status = get32(in + 28);

	if (h->magic != AGG_PROTO_MAGIC)
		return -AGG_EPROTO;
	if (h->version != AGG_PROTO_VERSION)
		return -AGG_EVERSION;
	switch (h->type) {
	case AGG_MSG_REGISTER:
		max_len = AGG_REG_MAX_SIZE;
		if (h->len < AGG_REG_FIXED_SIZE)
			return -AGG_EPROTO;
		break;
	case AGG_MSG_REGISTER_REPLY:
		max_len = AGG_REG_REPLY_SIZE;
		break;
	case AGG_MSG_PUSH:
	case AGG_MSG_SET_WEIGHTS:
	case AGG_MSG_PULL_REPLY:
	case AGG_MSG_IMPORT_STATE:
		max_len = max_push;
		break;
	case AGG_MSG_PULL:
	case AGG_MSG_LEAVE:
	case AGG_MSG_STATS:
		max_len = 0;
		break;
	case AGG_MSG_IMPORT_REPLY:	/* a payload only with RDMA_STATE taken */
		max_len = AGG_STATE_RDMA_MAX_SIZE;
		break;
	case AGG_MSG_IMPORT_COMMIT:
		max_len = AGG_MAX_WORKERS;
		break;
	case AGG_MSG_STATS_REPLY:
		max_len = AGG_MAX_STATS_TEXT;
		break;
	case AGG_MSG_ERROR:
	case AGG_MSG_MIGRATE_REPLY:
		max_len = AGG_MAX_ERR_TEXT;
		break;
	case AGG_MSG_MIGRATE:
		max_len = AGG_MIGRATE_SIZE;
		break;
	case AGG_MSG_REDIRECT:
		max_len = AGG_REDIRECT_SIZE;
		break;
	case AGG_MSG_PEER_HELLO:
	case AGG_MSG_PEER_CHALLENGE:
	case AGG_MSG_PEER_PROOF:
		max_len = h->type == AGG_MSG_PEER_CHALLENGE ?
			  AGG_PEER_CHALLENGE_SIZE : AGG_PEER_HELLO_SIZE;
		if (h->len != max_len)
			return -AGG_ESIZE;
		break;
	case AGG_MSG_REPORT:
	case AGG_MSG_REPORT_REPLY:
		max_len = h->type == AGG_MSG_REPORT ? AGG_REPORT_SIZE :
			  AGG_REPORT_REPLY_SIZE;
		if (h->len != max_len)
			return -AGG_ESIZE;
		break;
	case AGG_MSG_IMPORT:
		max_len = AGG_IMPORT_TENANT_LEN + AGG_REG_MAX_SIZE;
		if (h->len < AGG_IMPORT_TENANT_LEN + AGG_REG_FIXED_SIZE)
			return -AGG_EPROTO;
		break;
	case AGG_MSG_REGISTER_WAIT:
		max_len = AGG_REG_WAIT_SIZE;
		if (h->len != max_len)
			return -AGG_ESIZE;
		break;
	case AGG_MSG_TENANT_HELLO:
	case AGG_MSG_TENANT_CHALLENGE:
	case AGG_MSG_TENANT_PROOF:
	case AGG_MSG_TENANT_REPLY:
		max_len = h->type == AGG_MSG_TENANT_HELLO ? AGG_TENANT_HELLO_SIZE :
			  h->type == AGG_MSG_TENANT_REPLY ? 0 : AGG_TENANT_NONCE_LEN;
		if (h->len != max_len)
			return -AGG_ESIZE;
		break;
	default:
		return -AGG_EPROTO;
	}
	if (h->len > max_len)
		return -AGG_ESIZE;
	if (h->status > AGG_STATUS_MAX)
		return -AGG_EPROTO;
	return 0;
}

size_t agg_register_size(uint32_t n_tensors)
{
	return AGG_REG_FIXED_SIZE + (size_t)n_tensors * AGG_REG_TENSOR_SIZE;
}

/* A name field: 1..len printable non-blank bytes, then only NULs. */
static int check_name(const uint8_t *field, size_t len, char *out)
{
	size_t n = 0;

	while (n < len && field[n])
		n++;
	if (n == 0)
		return -AGG_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (field[i] < 0x21 || field[i] > 0x7e)
			return -AGG_EINVAL;
	for (size_t i = n; i < len; i++)
		if (field[i])
			return -AGG_EPROTO;
	memcpy(out, field, n);
	out[n] = '\0';
	return 0;
}

static void put_name(uint8_t *field, size_t len, const char *name)
{
	size_t n = strnlen(name, len);

	memset(field, 0, len);
	memcpy(field, name, n);
}

int agg_name_decode(const uint8_t *in, char *out)
{
	if (!in[0]) {
		for (size_t i = 1; i < AGG_NAME_LEN; i++)
			if (in[i])
				return -AGG_EPROTO;
		out[0] = '\0';
		return 0;
	}
	return check_name(in, AGG_NAME_LEN, out);
}

void agg_name_encode(uint8_t *out, const char *name)
{
	put_name(out, AGG_NAME_LEN, name);
}

int agg_register_encode(const struct agg_job_spec *s, uint8_t *out,
			size_t out_len)
{
	size_t need;

	if (s->n_tensors == 0 || s->n_tensors > AGG_MAX_TENSORS)
		return -AGG_EINVAL;
	need = agg_register_size(s->n_tensors);
	if (out_len < need)
		return -AGG_ESIZE;
	put_name(out, AGG_NAME_LEN, s->name);
	put_name(out + 32, AGG_TOKEN_LEN, s->token);
	put16(out + 64, s->n_workers);
	put16(out + 66, s->rank);
	out[68] = s->dtype;
	out[69] = s->opt;
	put16(out + 70, s->weight);
	put32(out + 72, s->part_elems);
	put32(out + 76, s->n_tensors);
	put32(out + 80, f32_bits(s->lr));
	put32(out + 84, f32_bits(s->momentum));
	for (uint32_t i = 0; i < s->n_tensors; i++) {
		uint8_t *t = out + AGG_REG_FIXED_SIZE + i * AGG_REG_TENSOR_SIZE;

		put_name(t, AGG_NAME_LEN, s->tensors[i].name);
		put64(t + 32, s->tensors[i].nelem);
	}
	return (int)need;
}

void agg_spec_free(struct agg_job_spec *s)
{
	free(s->tensors);
	free(s->tensor_first_part);
	s->tensors = NULL;
	s->tensor_first_part = NULL;
}

int agg_spec_finish(struct agg_job_spec *s)
{
	uint64_t parts = 0;

	free(s->tensor_first_part);
	s->tensor_first_part = NULL;
	if (!s->name[0] || !s->token[0])
		return -AGG_EINVAL;
	if (s->n_workers == 0 || s->n_workers > AGG_MAX_WORKERS ||
	    s->rank >= s->n_workers)
		return -AGG_EINVAL;
	if (!agg_dtype_size(s->dtype))
		return -AGG_EINVAL;
	if (s->weight == 0 || s->weight > AGG_MAX_WEIGHT)
		return -AGG_EINVAL;
	if (s->part_elems == 0 || s->part_elems > AGG_MAX_PART_ELEMS)
		return -AGG_EINVAL;
	if (s->n_tensors == 0 || s->n_tensors > AGG_MAX_TENSORS || !s->tensors)
		return -AGG_EINVAL;
	switch (s->opt) {
	case AGG_OPT_NONE:
		if (s->lr != 0.0f || s->momentum != 0.0f)
			return -AGG_EINVAL;
		break;
	case AGG_OPT_SGD_MOMENTUM:
		if (s->dtype != AGG_DTYPE_F32)
			return -AGG_EINVAL;
		if (!isfinite(s->lr) || !(s->lr > 0.0f) ||
		    !isfinite(s->momentum) || s->momentum < 0.0f ||
		    s->momentum >= 1.0f)
			return -AGG_EINVAL;
		break;
	default:
		return -AGG_EINVAL;
	}
	s->tensor_first_part = calloc(s->n_tensors + 1, sizeof(uint32_t));
	if (!s->tensor_first_part)
		return -AGG_ENOMEM;
	for (uint32_t i = 0; i < s->n_tensors; i++) {
		uint64_t n = s->tensors[i].nelem;

		if (n == 0 || n > AGG_MAX_TENSOR_ELEMS)
			goto inval;
		s->tensor_first_part[i] = (uint32_t)parts;
		parts += (n + s->part_elems - 1) / s->part_elems;
		if (parts > AGG_MAX_PARTS)
			goto inval;
	}
	s->tensor_first_part[s->n_tensors] = (uint32_t)parts;
	s->n_parts = (uint32_t)parts;
	return 0;
inval:
	free(s->tensor_first_part);
	s->tensor_first_part = NULL;
	return -AGG_EINVAL;
}

int agg_register_decode(const uint8_t *in, size_t len, struct agg_job_spec *s)
{
	uint32_t n;
	int ret;

	memset(s, 0, sizeof(*s));
	if (len < AGG_REG_FIXED_SIZE)
		return -AGG_EPROTO;
	n = get32(in + 76);
	if (n == 0 || n > AGG_MAX_TENSORS)
		return -AGG_EINVAL;
	if (len != agg_register_size(n))
		return -AGG_ESIZE;
	ret = check_name(in, AGG_NAME_LEN, s->name);
	if (ret)
		return ret;
	ret = check_name(in + 32, AGG_TOKEN_LEN, s->token);
	if (ret)
		return ret;
	s->n_workers = get16(in + 64);
	s->rank = get16(in + 66);
	s->dtype = in[68];
	s->opt = in[69];
	s->weight = get16(in + 70);
	s->part_elems = get32(in + 72);
	s->n_tensors = n;
	s->lr = bits_f32(get32(in + 80));
	s->momentum = bits_f32(get32(in + 84));
	s->tensors = calloc(n, sizeof(*s->tensors));
	if (!s->tensors)
		return -AGG_ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *t = in + AGG_REG_FIXED_SIZE +
				   (size_t)i * AGG_REG_TENSOR_SIZE;

		ret = check_name(t, AGG_NAME_LEN, s->tensors[i].name);
		if (ret)
			goto err;
		s->tensors[i].nelem = get64(t + 32);
	}
	ret = agg_spec_finish(s);
	if (ret)
		goto err;
	return 0;
err:
	agg_spec_free(s);
	return ret;
}

int agg_spec_same_job(const struct agg_job_spec *a,
		      const struct agg_job_spec *b)
{
	if (strcmp(a->name, b->name) || a->n_workers != b->n_workers ||
	    a->dtype != b->dtype || a->opt != b->opt || a->weight != b->weight ||
	    a->part_elems != b->part_elems || a->n_tensors != b->n_tensors ||
	    f32_bits(a->lr) != f32_bits(b->lr) ||
	    f32_bits(a->momentum) != f32_bits(b->momentum))
		return 0;
	for (uint32_t i = 0; i < a->n_tensors; i++)
		if (strcmp(a->tensors[i].name, b->tensors[i].name) ||
		    a->tensors[i].nelem != b->tensors[i].nelem)
			return 0;
	return 1;
}

int agg_spec_part(const struct agg_job_spec *s, uint32_t p,
		  uint32_t *tensor, uint64_t *offset, uint32_t *nelem)
{
	uint32_t lo = 0, hi = s->n_tensors;
	uint64_t off, left;

	if (!s->tensor_first_part || p >= s->n_parts)
		return -AGG_EINVAL;
	/* last tensor whose first partition is <= p */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->tensor_first_part[mid] <= p)
			lo = mid;
		else
			hi = mid;
	}
	off = (uint64_t)(p - s->tensor_first_part[lo]) * s->part_elems;
	left = s->tensors[lo].nelem - off;
	*tensor = lo;
	*offset = off;
	*nelem = left < s->part_elems ? (uint32_t)left : s->part_elems;
	return 0;
}

size_t agg_spec_push_bytes(const struct agg_job_spec *s, uint32_t p)
{
	uint32_t t, n;
	uint64_t off;

	if (agg_spec_part(s, p, &t, &off, &n))
		return 0;
	return (size_t)n * agg_dtype_size(s->dtype);
}

size_t agg_spec_pull_bytes(const struct agg_job_spec *s, uint32_t p)
{
	/* the optimizer is fp32-only, so weights and sums share the dtype */
	return agg_spec_push_bytes(s, p);
}

void agg_reg_reply_encode(uint32_t n_parts, uint8_t out[AGG_REG_REPLY_SIZE])
{
	put32(out, n_parts);
	put32(out + 4, 0);
}

int agg_reg_reply_decode(const uint8_t *in, size_t len, uint32_t *n_parts)
{
	if (len != AGG_REG_REPLY_SIZE || get32(in + 4) != 0)
		return -AGG_EPROTO;
	*n_parts = get32(in);
	if (*n_parts == 0 || *n_parts > AGG_MAX_PARTS)
		return -AGG_EPROTO;
	return 0;
}

void agg_reg_wait_encode(uint64_t made, uint64_t total,
			 uint8_t out[AGG_REG_WAIT_SIZE])
{
	put64(out, made);
	put64(out + 8, total);
}

int agg_reg_wait_decode(const uint8_t *in, size_t len, uint64_t *made,
			uint64_t *total)
{
	if (len != AGG_REG_WAIT_SIZE)
		return -AGG_ESIZE;
	*made = get64(in);
	*total = get64(in + 8);
	return *made > *total ? -AGG_EPROTO : 0;
}

/* A port field: u32 on the wire, 1..65535. */
static int get_port(const uint8_t *in, uint16_t *port)
{
	uint32_t v = get32(in);

	if (v == 0 || v > 65535)
		return -AGG_EINVAL;
	*port = (uint16_t)v;
	return 0;
}

static int check_target(const struct agg_target *t)
{
	size_t n = strnlen(t->host, sizeof(t->host));

	if (!t->port || n == 0 || n > AGG_HOST_LEN)
		return -AGG_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (t->host[i] < 0x21 || t->host[i] > 0x7e)
			return -AGG_EINVAL;
	return 0;
}

int agg_migrate_encode(const struct agg_migrate_req *m,
		       uint8_t out[AGG_MIGRATE_SIZE])
{
	if (!m->name[0] || !m->token[0] || check_target(&m->to))
		return -AGG_EINVAL;
	put_name(out, AGG_NAME_LEN, m->name);
	put_name(out + 32, AGG_TOKEN_LEN, m->token);
	put_name(out + 64, AGG_HOST_LEN, m->to.host);
	put32(out + 128, m->to.port);
	put32(out + 132, 0);
	return AGG_MIGRATE_SIZE;
}

int agg_migrate_decode(const uint8_t *in, size_t len, struct agg_migrate_req *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	if (len != AGG_MIGRATE_SIZE)
		return -AGG_ESIZE;
	if (get32(in + 132))
		return -AGG_EPROTO;
	ret = check_name(in, AGG_NAME_LEN, m->name);
	if (!ret)
		ret = check_name(in + 32, AGG_TOKEN_LEN, m->token);
	if (!ret)
		ret = check_name(in + 64, AGG_HOST_LEN, m->to.host);
	if (!ret)
		ret = get_port(in + 128, &m->to.port);
	return ret;
}

int agg_redirect_encode(const struct agg_target *t,
			uint8_t out[AGG_REDIRECT_SIZE])
{
	if (check_target(t))
		return -AGG_EINVAL;
	put32(out, t->port);
	put32(out + 4, 0);
	put_name(out + 8, AGG_HOST_LEN, t->host);
	return AGG_REDIRECT_SIZE;
}

int agg_redirect_decode(const uint8_t *in, size_t len, struct agg_target *t)
{
	int ret;

	memset(t, 0, sizeof(*t));
	if (len != AGG_REDIRECT_SIZE)
		return -AGG_ESIZE;
	if (get32(in + 4))
		return -AGG_EPROTO;
	ret = get_port(in, &t->port);
	if (!ret)
		ret = check_name(in + 8, AGG_HOST_LEN, t->host);
	return ret;
}

int agg_departed_check(const uint8_t *in, size_t len, unsigned int n_workers)
{
	if (len != n_workers)
		return -AGG_ESIZE;
	for (size_t r = 0; r < len; r++)
		if (in[r] > AGG_DEPARTED_GONE)
			return -AGG_EINVAL;
	return 0;
}

uint32_t agg_peer_caps_answer(uint32_t offered, uint32_t target_has)
{
	return offered & target_has & AGG_PEER_CAPS_KNOWN;
}

int agg_peer_caps_check(uint32_t offered, uint32_t taken)
{
	return (taken & ~offered) ? -AGG_EPROTO : 0;
}

size_t agg_state_rdma_size(uint32_t n_bufs)
{
	return AGG_STATE_RDMA_FIXED + (size_t)AGG_STATE_RDMA_ENTRY * n_bufs;
}

void agg_state_rdma_encode(const struct agg_state_rdma *r, uint8_t *out)
{
	memcpy(out, r->token, AGG_STATE_TOKEN_LEN);
	memcpy(out + 32, r->addr, 4);
	put32(out + 36, r->port);
	put32(out + 40, r->n_bufs);
	put32(out + 44, 0);
	for (uint32_t i = 0; i < r->n_bufs; i++) {
		uint8_t *e = out + AGG_STATE_RDMA_FIXED + (size_t)AGG_STATE_RDMA_ENTRY * i;

		put64(e, r->bufs[i].addr);
		put32(e + 8, r->bufs[i].rkey);
		put32(e + 12, r->bufs[i].len);
	}
}

int agg_state_rdma_decode(const uint8_t *in, size_t len, uint32_t want_bufs,
			  const uint32_t *want_len, struct agg_state_rdma *r)
{
	static const uint8_t any[4];

	if (len < AGG_STATE_RDMA_FIXED || len != agg_state_rdma_size(want_bufs) ||
	    get32(in + 40) != want_bufs)
		return -AGG_ESIZE;
	if (get32(in + 44))
		return -AGG_EPROTO;
	memcpy(r->token, in, AGG_STATE_TOKEN_LEN);
	memcpy(r->addr, in + 32, 4);
	r->port = get32(in + 36);
	r->n_bufs = want_bufs;
	if (!memcmp(r->addr, any, 4) || !r->port || r->port > 65535)
		return -AGG_EINVAL;
	for (uint32_t i = 0; i < want_bufs; i++) {
		const uint8_t *e = in + AGG_STATE_RDMA_FIXED +
				   (size_t)AGG_STATE_RDMA_ENTRY * i;

		r->bufs[i].addr = get64(e);
		r->bufs[i].rkey = get32(e + 8);
		r->bufs[i].len = get32(e + 12);
		if (!r->bufs[i].addr || r->bufs[i].len != want_len[i])
			return -AGG_EINVAL;
	}
	return 0;
}

void agg_state_priv_encode(uint32_t job_id, const uint8_t *token, uint8_t *out)
{
	put32(out, AGG_STATE_PRIV_MAGIC);
	put32(out + 4, job_id);
	memcpy(out + 8, token, AGG_STATE_TOKEN_LEN);
}

int agg_state_priv_decode(const uint8_t *in, size_t len, uint32_t *job_id,
			  uint8_t *token)
{
	if (!in || len < AGG_STATE_PRIV_SIZE || get32(in) != AGG_STATE_PRIV_MAGIC)
		return -1;
	*job_id = get32(in + 4);
	memcpy(token, in + 8, AGG_STATE_TOKEN_LEN);
	return 0;
}

static void put_f64(uint8_t *p, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	put64(p, u);
}

static double get_f64(const uint8_t *p)
{
	uint64_t u = get64(p);
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

static int report_check(const struct agg_report *r)
{
	if (!isfinite(r->loss) || r->loss < 0 || !isfinite(r->cpu_seconds) ||
	    r->cpu_seconds < 0 || (r->iter_total && r->iter_total < r->iter))
		return -AGG_EINVAL;
	return 0;
}

int agg_report_encode(const struct agg_report *r, uint8_t out[AGG_REPORT_SIZE])
{
	if (!r->name[0] || !r->token[0] || strlen(r->name) > AGG_NAME_LEN ||
	    strlen(r->token) > AGG_TOKEN_LEN || report_check(r))
		return -AGG_EINVAL;
	put_name(out, AGG_NAME_LEN, r->name);
	put_name(out + 32, AGG_TOKEN_LEN, r->token);
	put16(out + 64, AGG_REPORT_VERSION);
	put16(out + 66, 0);
	put32(out + 68, 0);
	put64(out + 72, r->iter);
	put_f64(out + 80, r->loss);
	put_f64(out + 88, r->cpu_seconds);
	put64(out + 96, r->iter_total);
	return AGG_REPORT_SIZE;
}

int agg_report_decode(const uint8_t *in, size_t len, struct agg_report *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	if (len != AGG_REPORT_SIZE)
		return -AGG_ESIZE;
	r->version = get16(in + 64);
	if (r->version != AGG_REPORT_VERSION)
		return -AGG_EVERSION;
	if (get16(in + 66) || get32(in + 68))
		return -AGG_EPROTO;
	ret = check_name(in, AGG_NAME_LEN, r->name);
	if (!ret)
		ret = check_name(in + 32, AGG_TOKEN_LEN, r->token);
	if (ret)
		return ret;
	r->iter = get64(in + 72);
	r->loss = get_f64(in + 80);
	r->cpu_seconds = get_f64(in + 88);
	r->iter_total = get64(in + 96);
	return report_check(r);
}

void agg_report_reply_encode(double share, uint32_t flags,
			     uint8_t out[AGG_REPORT_REPLY_SIZE])
{
	put_f64(out, share);
	put32(out + 8, flags);
	put32(out + 12, 0);
}

int agg_report_reply_decode(const uint8_t *in, size_t len, double *share,
			    uint32_t *flags)
{
	if (len != AGG_REPORT_REPLY_SIZE)
		return -AGG_ESIZE;
	if (get32(in + 12) || (get32(in + 8) & ~(AGG_REPORT_WATCHED | AGG_REPORT_FLOWCON)))
		return -AGG_EPROTO;
	*share = get_f64(in);
	*flags = get32(in + 8);
	if (isnan(*share))
		return -AGG_EPROTO;
	return 0;
}
