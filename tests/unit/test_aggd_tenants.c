// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd's tenants (issue 32 item 5), through the daemon's own code
 * (tests/agg/aggd_harness.h):
 *
 *  - the tenants file: caps parsed, every bad line refused with its number
 *    and never with the secret;
 *  - a REGISTER without a tenant's proof is refused (EAUTH) in tenant mode;
 *  - job names are the tenant's: "x" of alice and "x" of bob are two jobs;
 *  - an unknown tenant and a wrong key get the same ERROR text, and the
 *    connection closes;
 *  - jobs= and conns= refuse with ECAP naming the cap.
 */
#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

static struct agg_hdr last;
static char last_text[AGG_MAX_ERR_TEXT + 1];
static uint8_t last_nonce[AGG_TENANT_NONCE_LEN];

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	last = *h;
	if (h->type == AGG_MSG_ERROR) {
		memcpy(last_text, payload, len < AGG_MAX_ERR_TEXT ? len : AGG_MAX_ERR_TEXT);
		last_text[len < AGG_MAX_ERR_TEXT ? len : AGG_MAX_ERR_TEXT] = 0;
	}
	if (h->type == AGG_MSG_TENANT_CHALLENGE && len == sizeof(last_nonce))
		memcpy(last_nonce, payload, len);
}

static uint8_t key_a[32], key_b[32];

static void setup(void)
{
	char text[512], ka[80], kb[80], why[200];
	struct aggd_tenants t;

	harness_reset("test_aggd_tenants");
	harness_sent = on_sent;
	spare_key_generate(key_a);
	spare_key_generate(key_b);
	spare_key_format(key_a, ka, sizeof(ka));
	spare_key_format(key_b, kb, sizeof(kb));
	snprintf(text, sizeof(text), "# test\nalice %s\nbob %s jobs=1 conns=2\n", ka, kb);
	check(tenants_parse(text, &t, why, sizeof(why)) == 0);
	tenants_install(&t);
}

/* TENANT_HELLO + TENANT_PROOF with @key; the last message's type. */
static unsigned int prove(struct conn *c, const char *tenant, const uint8_t *key)
{
	uint8_t hello[AGG_TENANT_HELLO_SIZE], mac[AGG_TENANT_MAC_LEN];
	struct agg_hdr h;

	agg_name_encode(hello, tenant);
	randombytes_buf(hello + AGG_NAME_LEN, AGG_TENANT_NONCE_LEN);
	memset(&h, 0, sizeof(h));
	deliver(c, AGG_MSG_TENANT_HELLO, &h, hello, sizeof(hello));
	if (last.type != AGG_MSG_TENANT_CHALLENGE)
		return last.type;
	agg_tenant_mac(mac, key, tenant, hello + AGG_NAME_LEN, last_nonce);
	memset(&h, 0, sizeof(h));
	deliver(c, AGG_MSG_TENANT_PROOF, &h, mac, sizeof(mac));
	return last.type;
}

static unsigned int reg(struct conn *c, const char *name, const char *token)
{
	harness_register_rank(c, name, token, 1, 0, 16, 16);
	return last.type == AGG_MSG_ERROR ? 100 + last.status : last.type;
}

static void test_parse(void)
{
	static const char *const bad[] = {
		"a SPARE-1:AAAA\n",					/* bad secret */
		"a\n",							/* no secret */
		"a %s\na %s\n",						/* twice */
		"a %s jobs=0\n",
		"a %s mem=lots\n",
		"a %s conns=x\n",
		"a %s colour=blue\n",
		"abcdefghijklmnopqrstuvwxyz0123456 %s\n",		/* 33 bytes */
	};
	struct aggd_tenants t;
	char key[80], text[400], why[200];
	uint8_t k[32];

	spare_key_generate(k);
	spare_key_format(k, key, sizeof(key));
	snprintf(text, sizeof(text), "\n# c\nx %s jobs=3 mem=1G conns=7 # note\n\ny %s\n", key, key);
	/* the same secret twice is allowed: tenants are names */
	EXPECT_EQ(tenants_parse(text, &t, why, sizeof(why)), 0);
	EXPECT_EQ(t.n, 2u);
	if (t.n == 2) {
		EXPECT_EQ(t.v[0].jobs_max, 3u);
		EXPECT_EQ(t.v[0].conns_max, 7u);
		EXPECT(t.v[0].mem_max == 1ULL << 30);
		EXPECT_EQ(t.v[0].line, 3u);
		EXPECT(!memcmp(t.v[0].key, k, 32));
		EXPECT_EQ(t.v[1].jobs_max, 0u);
		EXPECT(tenants_find(&t, "y") == &t.v[1]);
	}
	tenants_free(&t);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(text, sizeof(text), bad[i], key, key);
		why[0] = 0;
		EXPECT_EQ(tenants_parse(text, &t, why, sizeof(why)), -1);
		EXPECT(!strncmp(why, "line ", 5));
		/* the secret is never quoted (the format's name may be) */
		EXPECT(!strstr(why, key + 8));
		EXPECT(!strstr(why, "AAAA"));
	}
}

static void test_scoped_names(void)
{
	struct conn *a, *b, *n;

	setup();
	n = harness_peer();
	EXPECT_EQ(reg(n, "x", "t1"), 100u + AGG_EAUTH);
	EXPECT(!alive(n));
	a = harness_peer();
	b = harness_peer();
	EXPECT_EQ(prove(a, "alice", key_a), (unsigned int)AGG_MSG_TENANT_REPLY);
	EXPECT_EQ(prove(b, "bob", key_b), (unsigned int)AGG_MSG_TENANT_REPLY);
	EXPECT_EQ(reg(a, "x", "alice-token"), (unsigned int)AGG_MSG_REGISTER_REPLY);
	/* bob's "x" is his own job, whatever alice's token */
	EXPECT_EQ(reg(b, "x", "bob-token"), (unsigned int)AGG_MSG_REGISTER_REPLY);
	EXPECT(job_find("alice", "x") && job_find("bob", "x") &&
	       job_find("alice", "x") != job_find("bob", "x"));
	EXPECT(job_find("", "x") == NULL);
	teardown();
}

static void test_one_answer(void)
{
	char wrong[AGG_MAX_ERR_TEXT + 1];
	struct conn *c;
	uint8_t k[32];

	setup();
	spare_key_generate(k);
	c = harness_peer();
	EXPECT_EQ(prove(c, "alice", k), (unsigned int)AGG_MSG_ERROR);
	EXPECT_EQ(last.status, (uint32_t)AGG_EAUTH);
	EXPECT(!alive(c));
	strcpy(wrong, last_text);
	c = harness_peer();
	EXPECT_EQ(prove(c, "mallory", k), (unsigned int)AGG_MSG_ERROR);
	EXPECT_EQ(last.status, (uint32_t)AGG_EAUTH);
	EXPECT(!strcmp(wrong, last_text));
	EXPECT(!alive(c));
	teardown();
}

static void test_caps(void)
{
	struct conn *b1, *b2, *b3;

	setup();
	b1 = harness_peer();
	b2 = harness_peer();
	b3 = harness_peer();
	EXPECT_EQ(prove(b1, "bob", key_b), (unsigned int)AGG_MSG_TENANT_REPLY);
	EXPECT_EQ(prove(b2, "bob", key_b), (unsigned int)AGG_MSG_TENANT_REPLY);
	EXPECT_EQ(prove(b3, "bob", key_b), (unsigned int)AGG_MSG_ERROR);
	EXPECT_EQ(last.status, (uint32_t)AGG_ECAP);
	EXPECT(strstr(last_text, "conns cap") != NULL);
	EXPECT_EQ(reg(b1, "one", "t"), (unsigned int)AGG_MSG_REGISTER_REPLY);
	EXPECT_EQ(reg(b2, "two", "t"), 100u + AGG_ECAP);
	EXPECT(strstr(last_text, "jobs cap") != NULL);
	EXPECT(job_find("bob", "two") == NULL);
	teardown();
}

int main(void)
{
	TAP_RUN(test_parse);
	TAP_RUN(test_scoped_names);
	TAP_RUN(test_one_answer);
	TAP_RUN(test_caps);
	return tap_done();
}
