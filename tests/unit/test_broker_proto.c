// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the spare-broker wire codec (userspace/lib/broker_proto.c):
 * header checks, each body's round trip and refusals, and the proofs.
 */
#include <errno.h>
#include <string.h>

#include <sodium.h>

#include "broker_proto.h"
#include "spare_grant_lib.h"
#include "tap.h"

static uint8_t buf[BROKER_MAX_BODY];

static void header(void)
{
	uint8_t h[BROKER_HDR_SIZE];
	struct broker_hdr hd;

	broker_hdr_encode(h, BROKER_GRANT_REQ, 77, 8);
	EXPECT_EQ(h[0], 'S');
	EXPECT_EQ(h[3], '1');
	EXPECT_EQ(broker_hdr_decode(h, &hd), 0);
	EXPECT_EQ(hd.type, BROKER_GRANT_REQ);
	EXPECT_EQ(hd.seq, 77);
	EXPECT_EQ(hd.len, 8);
	broker_hdr_encode(h, BROKER_GRANT_REQ, 1, BROKER_MAX_BODY);
	EXPECT_EQ(broker_hdr_decode(h, &hd), 0);
	broker_hdr_encode(h, BROKER_GRANT_REQ, 1, BROKER_MAX_BODY + 1);
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EMSGSIZE);
	broker_hdr_encode(h, 0, 1, 0);
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EBADMSG);
	broker_hdr_encode(h, BROKER_TYPE_MAX + 1, 1, 0);
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EBADMSG);
	broker_hdr_encode(h, BROKER_HELLO, 1, 0);
	h[4] = 2;
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EPROTONOSUPPORT);
	broker_hdr_encode(h, BROKER_HELLO, 1, 0);
	h[0] = 'X';
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EBADMSG);
}

static struct broker_donor donor(void)
{
	struct broker_donor d;

	memset(&d, 0, sizeof(d));
	d.free_slabs = 12;
	d.hb_interval_ms = 1000;
	d.slab_shift = 30;
	strcpy(d.donor_id, "prep-1");
	strcpy(d.addr, "10.1.0.1:18515");
	strcpy(d.domain, "rack-a");
	return d;
}

static void donor_body(void)
{
	struct broker_donor d = donor(), back;
	int n = broker_donor_encode(&d, buf, sizeof(buf));

	EXPECT_EQ(n, BROKER_DONOR_SIZE);
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), 0);
	EXPECT(memcmp(&d, &back, sizeof(d)) == 0);
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n - 1, &back), -EBADMSG);
	buf[13] = 1;	/* reserved */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	broker_donor_encode(&d, buf, sizeof(buf));
	buf[12] = 19;	/* slab shift out of range */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	broker_donor_encode(&d, buf, sizeof(buf));
	memset(buf + 96, 'r', BROKER_DOMAIN_LEN);	/* domain without NUL */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	broker_donor_encode(&d, buf, sizeof(buf));
	buf[32 + 3] = ' ';	/* blank in the address */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	broker_donor_encode(&d, buf, sizeof(buf));
	buf[16] = 0;	/* empty id */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	d.hb_interval_ms = 0;
	EXPECT_EQ(broker_donor_encode(&d, buf, sizeof(buf)), -EINVAL);
	d = donor();
	EXPECT_EQ(broker_donor_encode(&d, buf, 10), -ENOSPC);
}

static void hello_and_proofs(void)
{
	struct broker_challenge c = { .broker_id = "broker-a" }, c2;
	struct broker_hello h, h2;
	uint8_t key[BROKER_KEY_LEN], other[BROKER_KEY_LEN];
	int n;

	randombytes_buf(key, sizeof(key));
	randombytes_buf(other, sizeof(other));
	randombytes_buf(c.nonce, sizeof(c.nonce));
	c.nonce[0] |= 1;
	EXPECT_EQ(broker_challenge_encode(&c, buf, sizeof(buf)), BROKER_CHALLENGE_SIZE);
	EXPECT_EQ(broker_challenge_decode(buf, BROKER_CHALLENGE_SIZE, &c2), 0);
	EXPECT(memcmp(&c, &c2, sizeof(c)) == 0);
	memset(buf, 0, 16);	/* zero nonce */
	EXPECT_EQ(broker_challenge_decode(buf, BROKER_CHALLENGE_SIZE, &c2), -EBADMSG);

	memset(&h, 0, sizeof(h));
	h.role = BROKER_ROLE_CLIENT;
	strcpy(h.name, "trainer-1");
	randombytes_buf(h.nonce, sizeof(h.nonce));
	h.nonce[0] |= 1;
	broker_auth_mac(h.mac, key, BROKER_DIR_PEER, h.role, h.name, c.broker_id, h.nonce, c.nonce);
	n = broker_hello_encode(&h, buf, sizeof(buf));
	EXPECT_EQ(n, BROKER_HELLO_SIZE);
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), 0);
	EXPECT(memcmp(&h, &h2, sizeof(h)) == 0);
	EXPECT(broker_auth_mac_ok(h2.mac, key, BROKER_DIR_PEER, h2.role, h2.name, c.broker_id,
				  h2.nonce, c.nonce));
	/* wrong key, reflected direction, other role, other broker, other nonce */
	EXPECT(!broker_auth_mac_ok(h2.mac, other, BROKER_DIR_PEER, h2.role, h2.name,
				   c.broker_id, h2.nonce, c.nonce));
	EXPECT(!broker_auth_mac_ok(h2.mac, key, BROKER_DIR_BROKER, h2.role, h2.name,
				   c.broker_id, h2.nonce, c.nonce));
	EXPECT(!broker_auth_mac_ok(h2.mac, key, BROKER_DIR_PEER, BROKER_ROLE_DONOR, h2.name,
				   c.broker_id, h2.nonce, c.nonce));
	{
		char bid[BROKER_ID_LEN] = "broker-b";

		EXPECT(!broker_auth_mac_ok(h2.mac, key, BROKER_DIR_PEER, h2.role, h2.name,
					   bid, h2.nonce, c.nonce));
	}
	EXPECT(!broker_auth_mac_ok(h2.mac, key, BROKER_DIR_PEER, h2.role, h2.name,
				   c.broker_id, c.nonce, h2.nonce));
	buf[0] = 3;	/* bad role */
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), -EBADMSG);
	buf[0] = BROKER_ROLE_CLIENT;
	buf[5] = 1;	/* reserved */
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), -EBADMSG);
	h.role = 0;
	EXPECT_EQ(broker_hello_encode(&h, buf, sizeof(buf)), -EINVAL);
}

static void grant_req_rep(void)
{
	struct broker_grant_req r = { .slabs = 4, .copies = 2, .lease_s = 60 }, r2;
	struct broker_grant_rep rep;
	struct spare_grant_key k = { .id = 1 };
	struct spare_grant_info gi;
	int n;

	EXPECT_EQ(broker_grant_req_encode(&r, buf, sizeof(buf)), BROKER_GRANT_REQ_SIZE);
	EXPECT_EQ(broker_grant_req_decode(buf, BROKER_GRANT_REQ_SIZE, &r2), 0);
	EXPECT(r2.slabs == 4 && r2.copies == 2 && r2.lease_s == 60);
	r.slabs = 0;
	EXPECT_EQ(broker_grant_req_encode(&r, buf, sizeof(buf)), -EINVAL);
	r.slabs = BROKER_MAX_SLABS;
	r.copies = BROKER_MAX_COPIES;	/* 512 grants: too many */
	EXPECT_EQ(broker_grant_req_encode(&r, buf, sizeof(buf)), -EINVAL);
	buf[0] = 0; buf[1] = 1;	/* 256 slabs */
	EXPECT_EQ(broker_grant_req_decode(buf, BROKER_GRANT_REQ_SIZE, &r2), -EBADMSG);
	EXPECT_EQ(broker_grant_req_decode(buf, BROKER_GRANT_REQ_SIZE + 1, &r2), -EBADMSG);

	n = broker_grant_rep_encode_head(3, 2, buf, sizeof(buf));
	EXPECT_EQ(n, BROKER_GRANT_REP_HDR + 6 * SPARE_GRANT_SIZE);
	memset(&gi, 0, sizeof(gi));
	strcpy(gi.client_id, "c");
	strcpy(gi.donor_addr, "h:1");
	gi.slabs = 1;
	gi.expiry = 10;
	for (int i = 0; i < 6; i++) {
		snprintf(gi.donor_id, sizeof(gi.donor_id), "d%d", i);
		EXPECT_EQ(spare_grant_issue(&gi, &k, (struct spare_grant *)
					    (buf + BROKER_GRANT_REP_HDR + i * SPARE_GRANT_SIZE)), 0);
	}
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	EXPECT(rep.slabs == 3 && rep.copies == 2);
	EXPECT(strcmp(rep.grants[5].donor_id, "d5") == 0);
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n - 1, &rep), -EBADMSG);
	buf[BROKER_GRANT_REP_HDR + 3 * SPARE_GRANT_SIZE] ^= 1;	/* grant 3's magic */
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_encode_head(3, 2, buf, 100), -ENOSPC);
}

static void renew_req(void)
{
	struct broker_renew_req r = { .donor_addr = "10.0.0.2:18515", .slabs = 16,
				      .lease_s = 60 }, r2;
	uint8_t rb[BROKER_RENEW_REQ_SIZE + 8];

	EXPECT_EQ(broker_renew_req_encode(&r, rb, sizeof(rb)), BROKER_RENEW_REQ_SIZE);
	EXPECT_EQ(broker_renew_req_decode(rb, BROKER_RENEW_REQ_SIZE, &r2), 0);
	EXPECT(!strcmp(r2.donor_addr, r.donor_addr) && r2.slabs == 16 && r2.lease_s == 60);
	EXPECT_EQ(broker_renew_req_decode(rb, BROKER_RENEW_REQ_SIZE - 1, &r2), -EBADMSG);
	EXPECT_EQ(broker_renew_req_encode(&r, rb, BROKER_RENEW_REQ_SIZE - 1), -ENOSPC);
	/* no slabs, too many, an address without its NUL, one with garbage after it */
	rb[BROKER_ADDR_LEN] = 0;
	EXPECT_EQ(broker_renew_req_decode(rb, BROKER_RENEW_REQ_SIZE, &r2), -EBADMSG);
	r.slabs = BROKER_MAX_RENEW + 1;
	EXPECT_EQ(broker_renew_req_encode(&r, rb, sizeof(rb)), -EINVAL);
	r.slabs = 1;
	EXPECT_EQ(broker_renew_req_encode(&r, rb, sizeof(rb)), BROKER_RENEW_REQ_SIZE);
	memset(rb, 'a', BROKER_ADDR_LEN);
	EXPECT_EQ(broker_renew_req_decode(rb, BROKER_RENEW_REQ_SIZE, &r2), -EBADMSG);
	EXPECT_EQ(broker_renew_req_encode(&r, rb, sizeof(rb)), BROKER_RENEW_REQ_SIZE);
	rb[BROKER_ADDR_LEN - 1] = 'x';
	EXPECT_EQ(broker_renew_req_decode(rb, BROKER_RENEW_REQ_SIZE, &r2), -EBADMSG);
	r.donor_addr[0] = 0;
	EXPECT_EQ(broker_renew_req_encode(&r, rb, sizeof(rb)), -EINVAL);
	EXPECT(!strcmp(broker_type_name(BROKER_RENEW_REQ), "RENEW_REQ"));
}

static void error_body(void)
{
	struct broker_error e = { .code = BROKER_E_AUTH_REQUIRED }, e2;
	int n;

	strcpy(e.text, "authenticate first");
	n = broker_error_encode(&e, buf, sizeof(buf));
	EXPECT_EQ(n, 8 + 18);
	EXPECT_EQ(broker_error_decode(buf, (size_t)n, &e2), 0);
	EXPECT_EQ(e2.code, BROKER_E_AUTH_REQUIRED);
	EXPECT(strcmp(e2.text, "authenticate first") == 0);
	EXPECT_EQ(broker_error_decode(buf, (size_t)n + 1, &e2), -EBADMSG);
	buf[9] = '\n';
	EXPECT_EQ(broker_error_decode(buf, (size_t)n, &e2), -EBADMSG);
	e.code = 0;
	EXPECT_EQ(broker_error_encode(&e, buf, sizeof(buf)), -EINVAL);
	e.code = BROKER_E_MAX + 1;
	EXPECT_EQ(broker_error_encode(&e, buf, sizeof(buf)), -EINVAL);
	EXPECT(strcmp(broker_err_name(BROKER_E_TOO_BIG), "too-big") == 0);
	EXPECT(strcmp(broker_type_name(BROKER_GRANT_REP), "GRANT_REP") == 0);
	EXPECT(strcmp(broker_type_name(99), "?") == 0);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(header);
	TAP_RUN(donor_body);
	TAP_RUN(hello_and_proofs);
	TAP_RUN(grant_req_rep);
	TAP_RUN(renew_req);
	TAP_RUN(error_body);
	return tap_done();
}
