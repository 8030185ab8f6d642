// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd wire codec (userspace/lib/agg_proto.c): exact byte layout,
 * every header and REGISTER check, the partition layout, and the messages
 * that move a job (MIGRATE, REDIRECT, IMPORT_COMMIT's departed ranks).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "agg_proto.h"
#include "tap.h"

static void test_hdr_layout(void)
{
	struct agg_hdr h, d;
	uint8_t b[AGG_HDR_SIZE];
	static const uint8_t want[AGG_HDR_SIZE] = {
		'S', 'A', 'G', 'G', 1, 0, 3, 0,
		0x10, 0, 0, 0, 0x04, 0x03, 0x02, 0x01,
		7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
		2, 0, 0, 0, 0, 0, 0, 0,
	};

	agg_hdr_init(&h, AGG_MSG_PUSH, 16);
	h.job_id = 0x01020304;
	h.part = 7;
	h.iter = 0xffffffff;
	h.rank = 2;
	agg_hdr_encode(&h, b);
	EXPECT(!memcmp(b, want, sizeof(b)));
	EXPECT_EQ(agg_hdr_decode(b, &d, 16), 0);
	EXPECT(!memcmp(&h, &d, sizeof(h)));
}

static int decode_with(void (*mut)(uint8_t *b), uint32_t max_push)
{
	struct agg_hdr h, d;
	uint8_t b[AGG_HDR_SIZE];

	agg_hdr_init(&h, AGG_MSG_PUSH, 64);
	agg_hdr_encode(&h, b);
	mut(b);
	return agg_hdr_decode(b, &d, max_push);
}

static void m_none(uint8_t *b) { (void)b; }
static void m_magic(uint8_t *b) { b[0] ^= 1; }
static void m_version(uint8_t *b) { b[4] = 2; }
static void m_type0(uint8_t *b) { b[6] = 0; }
static void m_type_next(uint8_t *b) { b[6] = AGG_MSG_TYPE_MAX + 1; }
static void m_typehi(uint8_t *b) { b[7] = 1; }
static void m_status(uint8_t *b) { b[28] = AGG_STATUS_MAX + 1; }
static void m_pull_len(uint8_t *b) { b[6] = AGG_MSG_PULL; }
static void m_reg_short(uint8_t *b) { b[6] = AGG_MSG_REGISTER; }
static void m_reg_huge(uint8_t *b)
{
	b[6] = AGG_MSG_REGISTER;
	b[8] = 0; b[9] = 0; b[10] = 0; b[11] = 0x10;
}
static void m_err_long(uint8_t *b) { b[6] = AGG_MSG_ERROR; b[9] = 1; }
/* the length stays 64: over each of these types' bounds */
static void m_migrate(uint8_t *b) { b[6] = AGG_MSG_MIGRATE; b[8] = 137; }
static void m_migrate_ok(uint8_t *b) { b[6] = AGG_MSG_MIGRATE; b[8] = 136; }
static void m_redirect(uint8_t *b) { b[6] = AGG_MSG_REDIRECT; b[8] = 73; }
static void m_commit(uint8_t *b) { b[6] = AGG_MSG_IMPORT_COMMIT; b[9] = 1; b[8] = 1; }
static void m_commit_ok(uint8_t *b) { b[6] = AGG_MSG_IMPORT_COMMIT; b[9] = 1; b[8] = 0; }
static void m_ireply(uint8_t *b) { b[6] = AGG_MSG_IMPORT_REPLY; }
/* one byte over the largest state-transfer answer (65536 partitions) */
static void m_ireply_long(uint8_t *b)
{
	b[6] = AGG_MSG_IMPORT_REPLY;
	b[8] = 0x31; b[9] = 0; b[10] = 0x20; b[11] = 0;
}
static void m_import_short(uint8_t *b) { b[6] = AGG_MSG_IMPORT; }
static void m_state(uint8_t *b) { b[6] = AGG_MSG_IMPORT_STATE; }

static void test_hdr_checks(void)
{
	EXPECT_EQ(decode_with(m_none, 64), 0);
	EXPECT_EQ(decode_with(m_none, 63), -AGG_ESIZE);	/* oversize push */
	EXPECT_EQ(decode_with(m_magic, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_version, 64), -AGG_EVERSION);
	EXPECT_EQ(decode_with(m_type0, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_type_next, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_typehi, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_status, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_pull_len, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_reg_short, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_reg_huge, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_err_long, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_migrate, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_migrate_ok, 64), 0);
	EXPECT_EQ(decode_with(m_redirect, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_commit, 64), -AGG_ESIZE);	/* 257 bytes */
	EXPECT_EQ(decode_with(m_commit_ok, 64), 0);		/* 256 */
	/* IMPORT_REPLY may carry a state-transfer answer; the link checks
	 * that it comes only with AGG_PEER_CAP_RDMA_STATE taken */
	EXPECT_EQ(decode_with(m_ireply, 64), 0);
	EXPECT_EQ(decode_with(m_ireply_long, 64), -AGG_ESIZE);
	EXPECT_EQ(decode_with(m_import_short, 64), -AGG_EPROTO);
	EXPECT_EQ(decode_with(m_state, 64), 0);
	EXPECT_EQ(decode_with(m_state, 63), -AGG_ESIZE);
}

static void test_migrate_msg(void)
{
	struct agg_migrate_req m = { .name = "job-a", .token = "tok",
				     .to = { .host = "10.0.0.2", .port = 18517 } }, d;
	uint8_t b[AGG_MIGRATE_SIZE], c[AGG_MIGRATE_SIZE];

	EXPECT_EQ(agg_migrate_encode(&m, b), AGG_MIGRATE_SIZE);
	EXPECT(!memcmp(b, "job-a\0", 6) && !memcmp(b + 32, "tok\0", 4));
	EXPECT(!memcmp(b + 64, "10.0.0.2\0", 9));
	EXPECT(b[128] == 0x55 && b[129] == 0x48 && b[130] == 0 && b[131] == 0);
	EXPECT_EQ(agg_migrate_decode(b, sizeof(b), &d), 0);
	EXPECT(!strcmp(d.name, "job-a") && !strcmp(d.token, "tok") &&
	       !strcmp(d.to.host, "10.0.0.2") && d.to.port == 18517);
	EXPECT_EQ(agg_migrate_decode(b, sizeof(b) - 1, &d), -AGG_ESIZE);
	memcpy(c, b, sizeof(b));
	c[132] = 1;					/* reserved */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EPROTO);
	memcpy(c, b, sizeof(b));
	c[128] = 0; c[129] = 0;				/* port 0 */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EINVAL);
	memcpy(c, b, sizeof(b));
	c[130] = 1;					/* port > 65535 */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EINVAL);
	memcpy(c, b, sizeof(b));
	c[64] = 0;					/* empty host */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EINVAL);
	memcpy(c, b, sizeof(b));
	c[100] = 'x';					/* after the NUL */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EPROTO);
	memcpy(c, b, sizeof(b));
	c[65] = ' ';					/* not printable */
	EXPECT_EQ(agg_migrate_decode(c, sizeof(c), &d), -AGG_EINVAL);
	m.to.port = 0;
	EXPECT_EQ(agg_migrate_encode(&m, b), -AGG_EINVAL);
}

static void test_redirect_msg(void)
{
	struct agg_target t = { .host = "192.168.1.20", .port = 7 }, d;
	uint8_t b[AGG_REDIRECT_SIZE];

	EXPECT_EQ(agg_redirect_encode(&t, b), AGG_REDIRECT_SIZE);
	EXPECT(b[0] == 7 && b[1] == 0 && b[4] == 0 && !memcmp(b + 8, "192.168.1.20", 13));
	EXPECT_EQ(agg_redirect_decode(b, sizeof(b), &d), 0);
	EXPECT(!strcmp(d.host, t.host) && d.port == 7);
	EXPECT_EQ(agg_redirect_decode(b, sizeof(b) - 1, &d), -AGG_ESIZE);
	b[5] = 1;
	EXPECT_EQ(agg_redirect_decode(b, sizeof(b), &d), -AGG_EPROTO);
	b[5] = 0;
	b[8] = 0;
	EXPECT_EQ(agg_redirect_decode(b, sizeof(b), &d), -AGG_EINVAL);
	t.host[0] = '\0';
	EXPECT_EQ(agg_redirect_encode(&t, b), -AGG_EINVAL);
}

static void test_departed(void)
{
	uint8_t d[4] = { 0, AGG_DEPARTED_LEFT, AGG_DEPARTED_GONE, 0 };

	EXPECT_EQ(agg_departed_check(d, 4, 4), 0);
	EXPECT_EQ(agg_departed_check(d, 3, 4), -AGG_ESIZE);
	d[3] = 3;
	EXPECT_EQ(agg_departed_check(d, 4, 4), -AGG_EINVAL);
}

/* A move's capabilities: only what both ends offered, never an unknown bit. */
static void test_peer_caps(void)
{
	/* an offer of everything, from a daemon of the future, to one that
	 * has everything: only bits this code can act on are taken */
	EXPECT_EQ(agg_peer_caps_answer(0xffffffffU, 0xffffffffU),
		  AGG_PEER_CAPS_KNOWN);
	EXPECT_EQ(agg_peer_caps_answer(AGG_PEER_CAP_RDMA_STATE, 0), 0U);
	EXPECT_EQ(agg_peer_caps_answer(0, AGG_PEER_CAP_RDMA_STATE), 0U);
	/* both ends have the RDMA state transfer: the bit is taken */
	EXPECT_EQ(agg_peer_caps_answer(AGG_PEER_CAP_RDMA_STATE,
				       AGG_PEER_CAP_RDMA_STATE),
		  AGG_PEER_CAP_RDMA_STATE);
	EXPECT_EQ(agg_peer_caps_check(0, 0), 0);
	EXPECT_EQ(agg_peer_caps_check(AGG_PEER_CAP_RDMA_STATE, 0), 0);
	EXPECT_EQ(agg_peer_caps_check(AGG_PEER_CAP_RDMA_STATE,
				      AGG_PEER_CAP_RDMA_STATE), 0);
	/* a target that takes what it was not offered breaks the protocol */
	EXPECT_EQ(agg_peer_caps_check(0, AGG_PEER_CAP_RDMA_STATE), -AGG_EPROTO);
	EXPECT_EQ(agg_peer_caps_check(AGG_PEER_CAP_RDMA_STATE, 0x80000001U),
		  -AGG_EPROTO);
}

/* The answer that takes RDMA_STATE: every field checked on the way in. */
static void test_state_rdma(void)
{
	struct agg_state_buf in[4] = {
		{ 0x7f0000001000ULL, 0x11, 16 }, { 0x7f0000002000ULL, 0x12, 16 },
		{ 0x7f0000003000ULL, 0x13, 8 }, { 0x7f0000004000ULL, 0x14, 8 },
	}, out[4];
	uint32_t want[4] = { 16, 16, 8, 8 };
	struct agg_state_rdma r = { .port = 18600, .n_bufs = 4, .bufs = in }, d;
	uint8_t buf[AGG_STATE_RDMA_FIXED + 4 * AGG_STATE_RDMA_ENTRY];
	uint8_t priv[AGG_STATE_PRIV_SIZE], tok[AGG_STATE_TOKEN_LEN];
	uint32_t id;

	memset(r.token, 0xa5, sizeof(r.token));
	memcpy(r.addr, (uint8_t[4]){ 10, 0, 0, 2 }, 4);
	EXPECT_EQ(agg_state_rdma_size(4), sizeof(buf));
	agg_state_rdma_encode(&r, buf);
	d.bufs = out;
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), 0);
	EXPECT_EQ(d.port, 18600U);
	EXPECT_EQ(d.n_bufs, 4U);
	EXPECT_EQ(memcmp(d.token, r.token, sizeof(r.token)), 0);
	EXPECT_EQ(memcmp(d.addr, r.addr, 4), 0);
	EXPECT_EQ(memcmp(out, in, sizeof(in)), 0);
	/* a length that is not the job's partition's */
	want[2] = 12;
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), -AGG_EINVAL);
	want[2] = 8;
	/* another buffer count than the job's, or a short payload */
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf) - 16, 3, want, &d), -AGG_ESIZE);
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 3, want, &d), -AGG_ESIZE);
	EXPECT_EQ(agg_state_rdma_decode(buf, 20, 0, want, &d), -AGG_ESIZE);
	buf[44] = 1;		/* reserved */
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), -AGG_EPROTO);
	buf[44] = 0;
	buf[36] = 0; buf[37] = 0;	/* port 0 */
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), -AGG_EINVAL);
	agg_state_rdma_encode(&r, buf);
	memset(buf + 32, 0, 4);		/* address 0.0.0.0 */
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), -AGG_EINVAL);
	agg_state_rdma_encode(&r, buf);
	memset(buf + AGG_STATE_RDMA_FIXED + 16, 0, 8);	/* a buffer at 0 */
	EXPECT_EQ(agg_state_rdma_decode(buf, sizeof(buf), 4, want, &d), -AGG_EINVAL);

	agg_state_priv_encode(77, r.token, priv);
	EXPECT_EQ(agg_state_priv_decode(priv, sizeof(priv), &id, tok), 0);
	EXPECT_EQ(id, 77U);
	EXPECT_EQ(memcmp(tok, r.token, sizeof(tok)), 0);
	EXPECT_EQ(agg_state_priv_decode(priv, sizeof(priv) - 1, &id, tok), -1);
	EXPECT_EQ(agg_state_priv_decode(NULL, 0, &id, tok), -1);
	priv[0] ^= 1;	/* a worker's connection: no magic */
	EXPECT_EQ(agg_state_priv_decode(priv, sizeof(priv), &id, tok), -1);
}

static struct agg_tensor_desc tensors[3] = {
	{ "fc1.weight", 10 }, { "fc1.bias", 7 }, { "out", 1 },
};

static void base_spec(struct agg_job_spec *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->name, "job-a");
	strcpy(s->token, "s3cret");
	s->n_workers = 4;
	s->rank = 3;
	s->dtype = AGG_DTYPE_F32;
	s->weight = 2;
	s->part_elems = 4;
	s->n_tensors = 3;
	s->tensors = tensors;
}

static int roundtrip(struct agg_job_spec *in, void (*mut)(uint8_t *b, size_t *len),
		     struct agg_job_spec *out)
{
	uint8_t buf[AGG_REG_FIXED_SIZE + 8 * AGG_REG_TENSOR_SIZE];
	int len = agg_register_encode(in, buf, sizeof(buf));
	size_t l;

	if (len < 0)
		return len;
	l = (size_t)len;
	if (mut)
		mut(buf, &l);
	return agg_register_decode(buf, l, out);
}

static void test_register_roundtrip(void)
{
	struct agg_job_spec in, out, in2;

	base_spec(&in);
	EXPECT_EQ(agg_spec_finish(&in), 0);
	EXPECT_EQ(agg_register_size(3), 88 + 3 * 40);
	EXPECT_EQ(roundtrip(&in, NULL, &out), 0);
	EXPECT(agg_spec_same_job(&in, &out));
	EXPECT_EQ(out.rank, 3);
	EXPECT_EQ(out.weight, 2);
	EXPECT_EQ(out.n_parts, 6);
	EXPECT(!strcmp(out.token, "s3cret"));
	EXPECT(!strcmp(out.tensors[1].name, "fc1.bias"));
	/* a different layout is a different job */
	base_spec(&in2);
	in2.part_elems = 5;
	EXPECT(!agg_spec_same_job(&in2, &out));
	agg_spec_free(&out);
	free(in.tensor_first_part);
}

static void m_trunc(uint8_t *b, size_t *l) { (void)b; *l -= 1; }
static void m_extra(uint8_t *b, size_t *l) { b[*l] = 0; *l += 1; }
static void m_name_pad(uint8_t *b, size_t *l) { (void)l; b[20] = 'x'; }
static void m_name_empty(uint8_t *b, size_t *l) { (void)l; memset(b, 0, 32); }
static void m_name_space(uint8_t *b, size_t *l) { (void)l; b[1] = ' '; }
static void m_token_empty(uint8_t *b, size_t *l) { (void)l; memset(b + 32, 0, 32); }
static void m_workers0(uint8_t *b, size_t *l) { (void)l; b[64] = 0; b[65] = 0; }
static void m_workers257(uint8_t *b, size_t *l) { (void)l; b[64] = 1; b[65] = 1; }
static void m_rank(uint8_t *b, size_t *l) { (void)l; b[66] = 4; }
static void m_dtype0(uint8_t *b, size_t *l) { (void)l; b[68] = 0; }
static void m_dtype4(uint8_t *b, size_t *l) { (void)l; b[68] = 4; }
static void m_opt9(uint8_t *b, size_t *l) { (void)l; b[69] = 9; }
static void m_weight0(uint8_t *b, size_t *l) { (void)l; b[70] = 0; }
static void m_part0(uint8_t *b, size_t *l) { (void)l; memset(b + 72, 0, 4); }
static void m_parthuge(uint8_t *b, size_t *l) { (void)l; b[75] = 0x10; }
static void m_ntensors0(uint8_t *b, size_t *l) { (void)l; memset(b + 76, 0, 4); }
static void m_ntensors_more(uint8_t *b, size_t *l) { (void)l; b[76] = 4; }
static void m_ntensors_huge(uint8_t *b, size_t *l) { (void)l; b[79] = 0x80; }
static void m_lr_without_opt(uint8_t *b, size_t *l) { (void)l; b[83] = 0x3f; }
static void m_nelem0(uint8_t *b, size_t *l) { (void)l; memset(b + 88 + 32, 0, 8); }
static void m_nelem_huge(uint8_t *b, size_t *l) { (void)l; b[88 + 39] = 1; }
/* 2^31 elements in 4-element partitions: far more than AGG_MAX_PARTS */
static void m_too_many_parts(uint8_t *b, size_t *l) { (void)l; b[88 + 35] = 0x80; }
static void m_tname_unterminated(uint8_t *b, size_t *l) { (void)l; memset(b + 88, 'a', 32); }

static void test_register_checks(void)
{
	struct {
		void (*mut)(uint8_t *b, size_t *l);
		int want;
	} cases[] = {
		{ m_trunc, -AGG_ESIZE }, { m_extra, -AGG_ESIZE },
		{ m_name_pad, -AGG_EPROTO }, { m_name_empty, -AGG_EINVAL },
		{ m_name_space, -AGG_EINVAL }, { m_token_empty, -AGG_EINVAL },
		{ m_workers0, -AGG_EINVAL }, { m_workers257, -AGG_EINVAL },
		{ m_rank, -AGG_EINVAL }, { m_dtype0, -AGG_EINVAL },
		{ m_dtype4, -AGG_EINVAL }, { m_opt9, -AGG_EINVAL },
		{ m_weight0, -AGG_EINVAL }, { m_part0, -AGG_EINVAL },
		{ m_parthuge, -AGG_EINVAL }, { m_ntensors0, -AGG_EINVAL },
		{ m_ntensors_more, -AGG_ESIZE }, { m_ntensors_huge, -AGG_EINVAL },
		{ m_lr_without_opt, -AGG_EINVAL }, { m_nelem0, -AGG_EINVAL },
		{ m_nelem_huge, -AGG_EINVAL }, { m_too_many_parts, -AGG_EINVAL },
		{ m_tname_unterminated, 0 },	/* exactly 32 chars is allowed */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct agg_job_spec in, out;
		int ret;

		base_spec(&in);
		ret = roundtrip(&in, cases[i].mut, &out);
		if (ret != cases[i].want)
			fprintf(stderr, "# case %zu: got %d want %d\n", i, ret,
				cases[i].want);
		EXPECT_EQ(ret, cases[i].want);
		if (!ret)
			agg_spec_free(&out);
	}
}

static void test_register_every_prefix(void)
{
	struct agg_job_spec in, out;
	uint8_t buf[AGG_REG_FIXED_SIZE + 3 * AGG_REG_TENSOR_SIZE];
	int len, bad = 0;

	base_spec(&in);
	len = agg_register_encode(&in, buf, sizeof(buf));
	EXPECT_EQ(len, (int)sizeof(buf));
	EXPECT_EQ(agg_register_encode(&in, buf, sizeof(buf) - 1), -AGG_ESIZE);
	for (int l = 0; l < len; l++)
		if (agg_register_decode(buf, (size_t)l, &out) == 0)
			bad++;
	EXPECT_EQ(bad, 0);
}

static void test_optimizer_spec(void)
{
	struct agg_job_spec s;

	base_spec(&s);
	s.opt = AGG_OPT_SGD_MOMENTUM;
	s.lr = 0.1f;
	s.momentum = 0.9f;
	EXPECT_EQ(agg_spec_finish(&s), 0);
	s.dtype = AGG_DTYPE_BF16;	/* optimizer is fp32-only */
	EXPECT_EQ(agg_spec_finish(&s), -AGG_EINVAL);
	s.dtype = AGG_DTYPE_F32;
	s.lr = NAN;
	EXPECT_EQ(agg_spec_finish(&s), -AGG_EINVAL);
	s.lr = 0.1f;
	s.momentum = 1.0f;
	EXPECT_EQ(agg_spec_finish(&s), -AGG_EINVAL);
	s.momentum = -0.5f;
	EXPECT_EQ(agg_spec_finish(&s), -AGG_EINVAL);
	free(s.tensor_first_part);
}

static void test_part_layout(void)
{
	struct agg_job_spec s;
	static const struct { uint32_t t; uint64_t off; uint32_t n; } want[] = {
		{ 0, 0, 4 }, { 0, 4, 4 }, { 0, 8, 2 }, { 1, 0, 4 }, { 1, 4, 3 },
		{ 2, 0, 1 },
	};
	uint32_t t, n;
	uint64_t off;

	base_spec(&s);
	s.dtype = AGG_DTYPE_BF16;
	EXPECT_EQ(agg_spec_finish(&s), 0);
	EXPECT_EQ(s.n_parts, 6);
	for (uint32_t p = 0; p < 6; p++) {
		EXPECT_EQ(agg_spec_part(&s, p, &t, &off, &n), 0);
		EXPECT_EQ(t, want[p].t);
		EXPECT_EQ(off, want[p].off);
		EXPECT_EQ(n, want[p].n);
		EXPECT_EQ(agg_spec_push_bytes(&s, p), want[p].n * 2);
	}
	EXPECT_EQ(agg_spec_part(&s, 6, &t, &off, &n), -AGG_EINVAL);
	EXPECT_EQ(agg_spec_push_bytes(&s, 6), 0);
	free(s.tensor_first_part);
}

static void test_reg_reply(void)
{
	uint8_t b[AGG_REG_REPLY_SIZE];
	uint32_t n;

	agg_reg_reply_encode(42, b);
	EXPECT_EQ(agg_reg_reply_decode(b, sizeof(b), &n), 0);
	EXPECT_EQ(n, 42);
	EXPECT_EQ(agg_reg_reply_decode(b, sizeof(b) - 1, &n), -AGG_EPROTO);
	b[5] = 1;
	EXPECT_EQ(agg_reg_reply_decode(b, sizeof(b), &n), -AGG_EPROTO);
	agg_reg_reply_encode(0, b);
	EXPECT_EQ(agg_reg_reply_decode(b, sizeof(b), &n), -AGG_EPROTO);
}

static void test_names(void)
{
	EXPECT(!strcmp(agg_status_str(AGG_EAUTH), "not authorised (wrong job token, or not the daemons' key)"));
	EXPECT(!strcmp(agg_status_str(999), "unknown status"));
	EXPECT(!strcmp(agg_msg_type_name(AGG_MSG_PUSH), "PUSH"));
	EXPECT(!strcmp(agg_msg_type_name(0), "?"));
	EXPECT_EQ(agg_dtype_size(AGG_DTYPE_BF16), 2);
	EXPECT_EQ(agg_dtype_size(7), 0);
}

/* Header of @type announcing @len bytes, through the decoder. */
static int tenant_hdr(unsigned int type, uint32_t len)
{
	struct agg_hdr h, d;
	uint8_t b[AGG_HDR_SIZE];

	agg_hdr_init(&h, type, len);
	agg_hdr_encode(&h, b);
	return agg_hdr_decode(b, &d, 4096);
}

/* Tenants (issue 32): sizes exact, the name field's rules, ECAP. */
static void test_tenant_msgs(void)
{
	uint8_t f[AGG_NAME_LEN];
	char out[AGG_NAME_LEN + 1];

	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_HELLO, 64), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_HELLO, 63), -AGG_ESIZE);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_HELLO, 65), -AGG_ESIZE);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_CHALLENGE, 32), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_CHALLENGE, 0), -AGG_ESIZE);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_PROOF, 32), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_PROOF, 31), -AGG_ESIZE);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_REPLY, 0), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_TENANT_REPLY, 1), -AGG_ESIZE);
	/* IMPORT: tenant[32] before at least a REGISTER's fixed part */
	EXPECT_EQ(tenant_hdr(AGG_MSG_IMPORT, AGG_IMPORT_TENANT_LEN + AGG_REG_FIXED_SIZE), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_IMPORT, AGG_REG_FIXED_SIZE), -AGG_EPROTO);
	EXPECT_EQ(tenant_hdr(AGG_MSG_IMPORT, AGG_IMPORT_TENANT_LEN + AGG_REG_MAX_SIZE + 1),
		  -AGG_ESIZE);
	agg_name_encode(f, "team-a");
	EXPECT_EQ(agg_name_decode(f, out), 0);
	EXPECT(!strcmp(out, "team-a"));
	memset(f, 0, sizeof(f));
	EXPECT_EQ(agg_name_decode(f, out), 0);		/* empty: an open daemon's */
	EXPECT(!strcmp(out, ""));
	f[5] = 'x';					/* bytes after the NULs */
	EXPECT_EQ(agg_name_decode(f, out), -AGG_EPROTO);
	agg_name_encode(f, "a b");			/* a blank */
	EXPECT_EQ(agg_name_decode(f, out), -AGG_EINVAL);
	EXPECT(!strcmp(agg_status_str(AGG_ECAP), "over the tenant's cap"));
	EXPECT(!strcmp(agg_msg_type_name(AGG_MSG_TENANT_PROOF), "TENANT_PROOF"));
}

static struct agg_report good_report(void)
{
	struct agg_report r = { .name = "job-a", .token = "tok", .iter = 12,
				.loss = 0.75, .cpu_seconds = 30.5, .iter_total = 1000 };
	return r;
}

static void test_report_layout(void)
{
	struct agg_report r = good_report(), d;
	uint8_t b[AGG_REPORT_SIZE];
	double loss = 0.75;
	uint8_t lb[8];
	uint64_t u;

	EXPECT_EQ(agg_report_encode(&r, b), AGG_REPORT_SIZE);
	EXPECT(!memcmp(b, "job-a\0", 6));
	EXPECT(!memcmp(b + 32, "tok\0", 4));
	EXPECT_EQ(b[64], AGG_REPORT_VERSION);
	EXPECT_EQ(b[65], 0);
	EXPECT_EQ(b[72], 12);
	EXPECT_EQ(b[96], 1000 & 0xff);
	EXPECT_EQ(b[97], 1000 >> 8);
	memcpy(&u, &loss, 8);
	for (int i = 0; i < 8; i++)
		lb[i] = (uint8_t)(u >> (8 * i));
	EXPECT(!memcmp(b + 80, lb, 8));	/* binary64, little-endian */
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), 0);
	EXPECT(!strcmp(d.name, "job-a") && !strcmp(d.token, "tok"));
	EXPECT_EQ(d.version, AGG_REPORT_VERSION);
	EXPECT_EQ(d.iter, 12);
	EXPECT(d.loss == 0.75 && d.cpu_seconds == 30.5);
	EXPECT_EQ(d.iter_total, 1000);
	/* a header announcing a REPORT of another size fails at the header */
	{
		struct agg_hdr h, hd;
		uint8_t hb[AGG_HDR_SIZE];

		agg_hdr_init(&h, AGG_MSG_REPORT, AGG_REPORT_SIZE);
		agg_hdr_encode(&h, hb);
		EXPECT_EQ(agg_hdr_decode(hb, &hd, 64), 0);
		agg_hdr_init(&h, AGG_MSG_REPORT, AGG_REPORT_SIZE - 1);
		agg_hdr_encode(&h, hb);
		EXPECT_EQ(agg_hdr_decode(hb, &hd, 64), -AGG_ESIZE);
		agg_hdr_init(&h, AGG_MSG_REPORT_REPLY, AGG_REPORT_REPLY_SIZE + 1);
		agg_hdr_encode(&h, hb);
		EXPECT_EQ(agg_hdr_decode(hb, &hd, 64), -AGG_ESIZE);
	}
	EXPECT(!strcmp(agg_msg_type_name(AGG_MSG_REPORT), "REPORT"));
}

static void put_f64_at(uint8_t *b, double v)
{
	uint64_t u;

	memcpy(&u, &v, 8);
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(u >> (8 * i));
}

static void test_report_checks(void)
{
	struct agg_report r = good_report(), d;
	uint8_t good[AGG_REPORT_SIZE], b[AGG_REPORT_SIZE];
	static const struct {
		const char *what;
		size_t off;
		double v;
	} bad_f64[] = {
		{ "NaN loss", 80, NAN }, { "inf loss", 80, INFINITY },
		{ "-inf loss", 80, -INFINITY }, { "negative loss", 80, -0.5 },
		{ "NaN cpu", 88, NAN }, { "inf cpu", 88, INFINITY },
		{ "negative cpu", 88, -1 },
	};

	EXPECT_EQ(agg_report_encode(&r, good), AGG_REPORT_SIZE);
	for (size_t i = 0; i < sizeof(bad_f64) / sizeof(bad_f64[0]); i++) {
		memcpy(b, good, sizeof(b));
		put_f64_at(b + bad_f64[i].off, bad_f64[i].v);
		if (agg_report_decode(b, sizeof(b), &d) != -AGG_EINVAL)
			EXPECT(!bad_f64[i].what);
	}
	/* loss 0 is a finished job, not an error */
	memcpy(b, good, sizeof(b));
	put_f64_at(b + 80, 0.0);
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), 0);
	/* iter_total below the iteration */
	memcpy(b, good, sizeof(b));
	b[96] = 11; b[97] = 0;
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EINVAL);
	/* iter_total 0: unknown */
	memcpy(b, good, sizeof(b));
	b[96] = 0; b[97] = 0;
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), 0);
	EXPECT_EQ(d.iter_total, 0);
	/* another payload version */
	memcpy(b, good, sizeof(b));
	b[64] = AGG_REPORT_VERSION + 1;
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EVERSION);
	memcpy(b, good, sizeof(b));
	b[64] = 0;
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EVERSION);
	/* reserved bytes */
	for (size_t off = 66; off < 72; off++) {
		memcpy(b, good, sizeof(b));
		b[off] = 1;
		EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EPROTO);
	}
	/* names */
	memcpy(b, good, sizeof(b));
	memset(b, 0, 32);
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EINVAL);
	memcpy(b, good, sizeof(b));
	b[2] = ' ';
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EINVAL);
	memcpy(b, good, sizeof(b));
	b[40] = 'x';	/* after the token's NUL */
	EXPECT_EQ(agg_report_decode(b, sizeof(b), &d), -AGG_EPROTO);
	/* size */
	EXPECT_EQ(agg_report_decode(good, sizeof(good) - 1, &d), -AGG_ESIZE);
	/* encode refuses what decode would */
	r.loss = NAN;
	EXPECT_EQ(agg_report_encode(&r, b), -AGG_EINVAL);
	r = good_report();
	r.name[0] = '\0';
	EXPECT_EQ(agg_report_encode(&r, b), -AGG_EINVAL);
}

static void test_report_reply(void)
{
	uint8_t b[AGG_REPORT_REPLY_SIZE];
	double share;
	uint32_t flags;

	agg_report_reply_encode(1.25, AGG_REPORT_WATCHED | AGG_REPORT_FLOWCON, b);
	EXPECT_EQ(agg_report_reply_decode(b, sizeof(b), &share, &flags), 0);
	EXPECT(share == 1.25);
	EXPECT_EQ(flags, AGG_REPORT_WATCHED | AGG_REPORT_FLOWCON);
	EXPECT_EQ(agg_report_reply_decode(b, sizeof(b) - 1, &share, &flags), -AGG_ESIZE);
	b[8] = 4;
	EXPECT_EQ(agg_report_reply_decode(b, sizeof(b), &share, &flags), -AGG_EPROTO);
	agg_report_reply_encode(NAN, 0, b);
	EXPECT_EQ(agg_report_reply_decode(b, sizeof(b), &share, &flags), -AGG_EPROTO);
}

/* REGISTER_WAIT (issue 35): exactly 16 bytes, made <= total. */
static void test_reg_wait(void)
{
	uint8_t b[AGG_REG_WAIT_SIZE];
	uint64_t made = 1, total = 1;

	EXPECT_EQ(tenant_hdr(AGG_MSG_REGISTER_WAIT, AGG_REG_WAIT_SIZE), 0);
	EXPECT_EQ(tenant_hdr(AGG_MSG_REGISTER_WAIT, AGG_REG_WAIT_SIZE - 1), -AGG_ESIZE);
	EXPECT_EQ(tenant_hdr(AGG_MSG_REGISTER_WAIT, 0), -AGG_ESIZE);
	agg_reg_wait_encode(3ULL << 33, 5ULL << 33, b);
	EXPECT_EQ(b[4], 6);	/* little-endian u64 */
	EXPECT_EQ(agg_reg_wait_decode(b, sizeof(b), &made, &total), 0);
	EXPECT_EQ(made, 3ULL << 33);
	EXPECT_EQ(total, 5ULL << 33);
	EXPECT_EQ(agg_reg_wait_decode(b, sizeof(b) - 1, &made, &total), -AGG_ESIZE);
	agg_reg_wait_encode(0, 0, b);
	EXPECT_EQ(agg_reg_wait_decode(b, sizeof(b), &made, &total), 0);
	agg_reg_wait_encode(2, 1, b);
	EXPECT_EQ(agg_reg_wait_decode(b, sizeof(b), &made, &total), -AGG_EPROTO);
	EXPECT(!strcmp(agg_msg_type_name(AGG_MSG_REGISTER_WAIT), "REGISTER_WAIT"));
}

int main(void)
{
	TAP_RUN(test_hdr_layout);
	TAP_RUN(test_hdr_checks);
	TAP_RUN(test_register_roundtrip);
	TAP_RUN(test_register_checks);
	TAP_RUN(test_register_every_prefix);
	TAP_RUN(test_optimizer_spec);
	TAP_RUN(test_part_layout);
	TAP_RUN(test_reg_reply);
	TAP_RUN(test_names);
	TAP_RUN(test_migrate_msg);
	TAP_RUN(test_redirect_msg);
	TAP_RUN(test_departed);
	TAP_RUN(test_peer_caps);
	TAP_RUN(test_state_rdma);
	TAP_RUN(test_report_layout);
	TAP_RUN(test_report_checks);
	TAP_RUN(test_report_reply);
	TAP_RUN(test_tenant_msgs);
	TAP_RUN(test_reg_wait);
	return tap_done();
}
