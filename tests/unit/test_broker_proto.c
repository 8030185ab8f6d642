// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the spare-broker wire codec (userspace/lib/broker_proto.c):
 * header checks, each body's round trip and refusals, and the proofs.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
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
	/* version 2 (GRANT_REP with domains); a version-1 peer is refused */
	EXPECT_EQ(h[4], 2);
	EXPECT_EQ(h[5], 0);
	broker_hdr_encode(h, BROKER_HELLO, 1, 0);
	h[4] = 1;
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EPROTONOSUPPORT);
	h[4] = 3;
	EXPECT_EQ(broker_hdr_decode(h, &hd), -EPROTONOSUPPORT);
	h[4] = 2;
	h[5] = 1;	/* version 258 */
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

	/* decode writes every field, not the padding the memcmp below reads */
	memset(&back, 0, sizeof(back));
	EXPECT_EQ(n, BROKER_DONOR_SIZE);
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), 0);
	EXPECT(memcmp(&d, &back, sizeof(d)) == 0);
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n - 1, &back), -EBADMSG);
	/* byte 13 is flags now: bit 0 (takes version 3 grants) round trips,
	 * any other bit is refused; bytes 14-15 stay reserved */
	d.flags = BROKER_DONOR_F_GRANT_V3;
	EXPECT_EQ(broker_donor_encode(&d, buf, sizeof(buf)), n);
	EXPECT_EQ(buf[13], 1);
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), 0);
	EXPECT_EQ(back.flags, BROKER_DONOR_F_GRANT_V3);
	d.flags = 2;
	EXPECT_EQ(broker_donor_encode(&d, buf, sizeof(buf)), -EINVAL);
	d = donor();
	for (int bit = 1; bit < 8; bit++) {
		broker_donor_encode(&d, buf, sizeof(buf));
		buf[13] = (uint8_t)(1u << bit);	/* an unknown flag */
		EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	}
	broker_donor_encode(&d, buf, sizeof(buf));
	buf[14] = 1;	/* reserved */
	EXPECT_EQ(broker_donor_decode(buf, (size_t)n, &back), -EBADMSG);
	broker_donor_encode(&d, buf, sizeof(buf));
	buf[15] = 1;	/* reserved */
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

/* DONORS_REQ and a full page of DONORS_REP, and what decode refuses. */
static void donors_bodies(void)
{
	static struct broker_donor_info v[BROKER_DONORS_PAGE + 1];
	struct broker_donors_req r = { .start = 300 }, rb;
	struct broker_donors_rep rep;
	struct broker_donor_info e;
	static uint8_t big[BROKER_DONORS_REP_SIZE(BROKER_DONORS_PAGE + 1)];
	unsigned int i;
	int n;

	EXPECT_EQ(BROKER_DONORS_REQ, 14);
	EXPECT_EQ(BROKER_DONORS_REP, 15);
	EXPECT_EQ(BROKER_STRIPE_REQ, 16);	/* added after DONORS_REP */
	EXPECT_EQ(BROKER_TYPE_MAX, BROKER_STRIPE_REQ);
	EXPECT(!strcmp(broker_type_name(BROKER_DONORS_REP), "DONORS_REP"));
	EXPECT_EQ(broker_donors_req_encode(&r, buf, sizeof(buf)), BROKER_DONORS_REQ_SIZE);
	EXPECT_EQ(broker_donors_req_decode(buf, BROKER_DONORS_REQ_SIZE, &rb), 0);
	EXPECT_EQ(rb.start, 300);
	buf[5] = 1;	/* reserved */
	EXPECT_EQ(broker_donors_req_decode(buf, BROKER_DONORS_REQ_SIZE, &rb), -EBADMSG);
	EXPECT_EQ(broker_donors_req_decode(buf, BROKER_DONORS_REQ_SIZE - 1, &rb), -EBADMSG);

	for (i = 0; i <= BROKER_DONORS_PAGE; i++) {
		v[i].d = donor();
		memset(v[i].d.donor_id, 0, sizeof(v[i].d.donor_id));
		snprintf(v[i].d.donor_id, sizeof(v[i].d.donor_id), "d%u", i);
		v[i].d.free_slabs = i;
		v[i].hb_age_ms = 1000 + i;
		v[i].live = i & 1;
	}
	n = broker_donors_rep_encode(1000, 256, BROKER_DONORS_PAGE, v, big, sizeof(big));
	EXPECT_EQ(n, (int)BROKER_DONORS_REP_SIZE(BROKER_DONORS_PAGE));
	EXPECT(n <= BROKER_MAX_BODY);
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n, &rep), 0);
	EXPECT_EQ(rep.total, 1000);
	EXPECT_EQ(rep.next, 256);
	EXPECT_EQ(rep.n, BROKER_DONORS_PAGE);
	broker_donors_rep_entry(&rep, 255, &e);
	EXPECT(strcmp(e.d.donor_id, "d255") == 0);
	EXPECT_EQ(e.d.free_slabs, 255);
	EXPECT_EQ(e.hb_age_ms, 1255);
	EXPECT_EQ(e.live, 1);
	/* a page too long, next beyond total, a bad entry: refused */
	EXPECT_EQ(broker_donors_rep_encode(1000, 257, BROKER_DONORS_PAGE + 1, v, big, sizeof(big)),
		  -EINVAL);
	EXPECT_EQ(broker_donors_rep_encode(10, 11, 1, v, big, sizeof(big)), -EINVAL);
	EXPECT_EQ(broker_donors_rep_encode(10, 1, 1, v, big, 20), -ENOSPC);
	n = broker_donors_rep_encode(10, 2, 2, v, big, sizeof(big));
	EXPECT_EQ(n, (int)BROKER_DONORS_REP_SIZE(2));
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n - 1, &rep), -EBADMSG);
	big[4] = 11;	/* next > total */
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n, &rep), -EBADMSG);
	big[4] = 2;
	big[BROKER_DONORS_REP_HDR + BROKER_DONORS_ENTRY + BROKER_DONOR_SIZE + 8] = 2;	/* live */
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n, &rep), -EBADMSG);
	big[BROKER_DONORS_REP_HDR + BROKER_DONORS_ENTRY + BROKER_DONOR_SIZE + 8] = 1;
	big[BROKER_DONORS_REP_HDR + BROKER_DONOR_SIZE + 12] = 1;	/* reserved */
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n, &rep), -EBADMSG);
	big[BROKER_DONORS_REP_HDR + BROKER_DONOR_SIZE + 12] = 0;
	big[BROKER_DONORS_REP_HDR + 16] = 0;	/* first entry: empty donor id */
	EXPECT_EQ(broker_donors_rep_decode(big, (size_t)n, &rep), -EBADMSG);
	v[0].live = 2;
	EXPECT_EQ(broker_donors_rep_encode(10, 1, 1, v, big, sizeof(big)), -EINVAL);
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
	buf[0] = 4;	/* bad role (1 donor, 2 client, 3 admin) */
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), -EBADMSG);
	buf[0] = 0;
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), -EBADMSG);
	buf[0] = BROKER_ROLE_ADMIN;
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), 0);
	buf[0] = BROKER_ROLE_CLIENT;
	buf[5] = 1;	/* reserved */
	EXPECT_EQ(broker_hello_decode(buf, (size_t)n, &h2), -EBADMSG);
	h.role = 0;
	EXPECT_EQ(broker_hello_encode(&h, buf, sizeof(buf)), -EINVAL);
}

static void grant_req(void)
{
	struct broker_grant_req r = { .slabs = 4, .copies = 2, .lease_s = 60 }, r2;

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
}

/* GRANT_REP (version 2): 8-byte head, then per grant 256 + 32 bytes. */
static struct spare_grant rep_g[BROKER_MAX_GRANTS];
static char rep_dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];

static void rep_fill(unsigned int n)
{
	struct spare_grant_key k = { .id = 1 };
	struct spare_grant_info gi;

	memset(&gi, 0, sizeof(gi));
	strcpy(gi.client_id, "c");
	gi.slabs = 1;
	gi.expiry = 10;
	memset(rep_dom, 0, sizeof(rep_dom));
	for (unsigned int i = 0; i < n; i++) {
		snprintf(gi.donor_id, sizeof(gi.donor_id), "d%u", i);
		snprintf(gi.donor_addr, sizeof(gi.donor_addr), "h%u:1", i);
		EXPECT_EQ(spare_grant_issue(&gi, &k, &rep_g[i]), 0);
		snprintf(rep_dom[i], sizeof(rep_dom[i]), "rack-%u", i / 2);
	}
}

static void grant_rep(void)
{
	static uint8_t want[BROKER_GRANT_REP_SIZE(6)];
	struct broker_grant_rep rep;
	struct spare_grant g;
	char dom[BROKER_DOMAIN_LEN];
	int n;

	EXPECT_EQ(BROKER_GRANT_REP_ENTRY, 288);
	rep_fill(6);
	n = broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, sizeof(buf));
	EXPECT_EQ(n, 8 + 6 * 288);
	/* the layout, byte by byte: slabs, copies, reserved, then per entry
	 * the grant and its domain, NUL padded to 32 */
	memset(want, 0, sizeof(want));
	want[0] = 3;
	want[2] = 2;
	for (int i = 0; i < 6; i++) {
		memcpy(want + 8 + 288 * i, &rep_g[i], 256);
		memcpy(want + 8 + 288 * i + 256, "rack-", 5);
		want[8 + 288 * i + 261] = (uint8_t)('0' + i / 2);
	}
	EXPECT(!memcmp(buf, want, sizeof(want)));
	/* round trip, and each entry read back */
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	EXPECT(rep.slabs == 3 && rep.copies == 2);
	for (unsigned int i = 0; i < 6; i++) {
		memset(dom, 0x55, sizeof(dom));
		broker_grant_rep_entry(&rep, i, &g, dom);
		EXPECT(!memcmp(&g, &rep_g[i], sizeof(g)));
		EXPECT(!memcmp(dom, rep_dom[i], sizeof(dom)));
	}
	broker_grant_rep_entry(&rep, 5, NULL, dom);
	EXPECT(!strcmp(dom, "rack-2"));
	broker_grant_rep_entry(&rep, 4, &g, NULL);
	EXPECT(!strcmp(g.donor_id, "d4"));

	/* lengths: one byte short or long, and version 1's (no domains) */
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n - 1, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n + 1, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(buf, 8 + 6 * 256, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(buf, 7, &rep), -EBADMSG);
	/* every reserved byte of the head */
	for (int b = 4; b < 8; b++) {
		buf[b] = 1;
		EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
		buf[b] = 0;
	}
	/* slabs x copies out of range */
	buf[0] = 0;
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
	buf[0] = 3;
	/* a grant's form: entry 3's magic (at 8 + 288 * 3, not 8 + 256 * 3) */
	buf[8 + 288 * 3] ^= 1;
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
	buf[8 + 288 * 3] ^= 1;
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	/* the domain ("rack-N", its NUL at 6): every pad byte after the NUL,
	 * of every entry */
	for (int i = 0; i < 6; i++)
		for (int b = 7; b < BROKER_DOMAIN_LEN; b++) {
			uint8_t *p = buf + 8 + 288 * i + 256 + b;

			*p = 'x';
			EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
			*p = 0;
		}
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	/* empty, no NUL, a blank, a control character, DEL, non-ASCII */
	{
		uint8_t *d = buf + 8 + 288 * 5 + 256, save[BROKER_DOMAIN_LEN];
		static const uint8_t bad[] = { ' ', '\t', 0x01, 0x7f, 0x80, 0xff };

		memcpy(save, d, sizeof(save));
		d[0] = 0;
		EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
		memset(d, 'r', BROKER_DOMAIN_LEN);
		EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
		for (unsigned int k = 0; k < sizeof(bad); k++) {
			memcpy(d, save, sizeof(save));
			d[2] = bad[k];
			EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
		}
		memcpy(d, save, sizeof(save));
		d[BROKER_DOMAIN_LEN - 2] = 'z';	/* "rack-2" NUL ... 'z' NUL */
		EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), -EBADMSG);
		memset(d + 6, 'z', BROKER_DOMAIN_LEN - 7);	/* 31 characters: fits */
		EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	}

	/* encode refuses what decode would */
	EXPECT_EQ(broker_grant_rep_encode(0, 2, rep_g, rep_dom, buf, sizeof(buf)), -EINVAL);
	EXPECT_EQ(broker_grant_rep_encode(BROKER_MAX_SLABS, BROKER_MAX_COPIES, rep_g, rep_dom,
					  buf, sizeof(buf)), -EINVAL);
	rep_dom[4][0] = 0;
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, sizeof(buf)), -EINVAL);
	rep_fill(6);
	rep_dom[4][20] = 'x';	/* garbage after the NUL */
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, sizeof(buf)), -EINVAL);
	rep_fill(6);
	rep_dom[1][3] = ' ';
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, sizeof(buf)), -EINVAL);
	rep_fill(6);
	rep_g[2].magic ^= 1;
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, sizeof(buf)), -EINVAL);
	rep_fill(6);
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, 8 + 6 * 288 - 1), -ENOSPC);
	EXPECT_EQ(broker_grant_rep_encode(3, 2, rep_g, rep_dom, buf, 8 + 6 * 288), 8 + 6 * 288);

	/* the largest reply (128 grants, 36,872 bytes) fits one frame */
	rep_fill(BROKER_MAX_GRANTS);
	n = broker_grant_rep_encode(BROKER_MAX_SLABS, BROKER_MAX_GRANTS / BROKER_MAX_SLABS,
				    rep_g, rep_dom, buf, sizeof(buf));
	EXPECT_EQ(n, 36872);
	EXPECT(n <= BROKER_MAX_BODY);
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	broker_grant_rep_entry(&rep, BROKER_MAX_GRANTS - 1, &g, dom);
	EXPECT(!strcmp(g.donor_id, "d127") && !strcmp(dom, "rack-63"));
	/* a renewal's answer: 1 x 1, with the domain */
	n = broker_grant_rep_encode(1, 1, rep_g, rep_dom, buf, sizeof(buf));
	EXPECT_EQ(n, 8 + 288);
	EXPECT_EQ(broker_grant_rep_decode(buf, (size_t)n, &rep), 0);
	broker_grant_rep_entry(&rep, 0, NULL, dom);
	EXPECT(!strcmp(dom, "rack-0"));
}

/* STRIPE_REQ: stripes, K, R, lease; only the codes the broker places. */
static void stripe_req(void)
{
	struct broker_stripe_req r = { .stripes = 3, .k = 4, .r = 2, .lease_s = 60 }, r2;
	static const uint8_t want[8] = { 3, 0, 4, 2, 60, 0, 0, 0 };
	static uint8_t rep[BROKER_GRANT_REP_SIZE(120)];

	EXPECT(!strcmp(broker_type_name(BROKER_STRIPE_REQ), "STRIPE_REQ"));
	EXPECT_EQ(broker_stripe_req_encode(&r, buf, sizeof(buf)), BROKER_STRIPE_REQ_SIZE);
	EXPECT(!memcmp(buf, want, sizeof(want)));
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE, &r2), 0);
	EXPECT(r2.stripes == 3 && r2.k == 4 && r2.r == 2 && r2.lease_s == 60);
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE - 1, &r2), -EBADMSG);
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE + 1, &r2), -EBADMSG);
	buf[2] = 3;	/* ec:3+2 */
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE, &r2), -EBADMSG);
	buf[2] = 4;
	buf[3] = 5;	/* ec:4+5 */
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE, &r2), -EBADMSG);
	buf[3] = 0;
	EXPECT_EQ(broker_stripe_req_decode(buf, BROKER_STRIPE_REQ_SIZE, &r2), -EBADMSG);
	r.stripes = 0;
	EXPECT_EQ(broker_stripe_req_encode(&r, buf, sizeof(buf)), -EINVAL);
	r = (struct broker_stripe_req){ .stripes = 13, .k = 8, .r = 2 };	/* 130 splits */
	EXPECT_EQ(broker_stripe_req_encode(&r, buf, sizeof(buf)), -EINVAL);
	r.stripes = 12;
	EXPECT_EQ(broker_stripe_req_encode(&r, buf, sizeof(buf)), BROKER_STRIPE_REQ_SIZE);
	/* its answer: a GRANT_REP of 12 slabs x 10 splits, above GRANT_REQ's 8 copies */
	rep_fill(120);
	EXPECT_EQ(broker_grant_rep_encode(12, 10, rep_g, rep_dom, rep, sizeof(rep)),
		  (int)BROKER_GRANT_REP_SIZE(120));
	EXPECT_EQ(broker_grant_rep_encode(1, BROKER_MAX_SPLITS + 1, rep_g, rep_dom, rep, sizeof(rep)),
		  -EINVAL);
	{
		struct broker_grant_rep gr;

		EXPECT_EQ(broker_grant_rep_decode(rep, BROKER_GRANT_REP_SIZE(120), &gr), 0);
		EXPECT(gr.slabs == 12 && gr.copies == 10);
	}
	/* and GRANT_REQ still stops at BROKER_MAX_COPIES */
	{
		struct broker_grant_req g = { .slabs = 1, .copies = BROKER_MAX_COPIES + 1 };

		EXPECT_EQ(broker_grant_req_encode(&g, buf, sizeof(buf)), -EINVAL);
	}
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

static struct broker_move_req move_req_example(void)
{
	struct broker_move_req r;

	memset(&r, 0, sizeof(r));
	r.slabs = 3;
	r.lease_s = 90;
	r.n_avoid = 2;
	r.n_avoid_domains = 1;
	strcpy(r.avoid[0], "10.0.0.1:18515");
	strcpy(r.avoid[1], "[fd00::2]:18515");
	strcpy(r.avoid_domains[0], "rack-a");
	return r;
}

/* Field by field: the struct has padding at its end. */
static bool move_eq(const struct broker_move_req *a, const struct broker_move_req *b)
{
	return a->slabs == b->slabs && a->lease_s == b->lease_s && a->n_avoid == b->n_avoid &&
	       a->n_avoid_domains == b->n_avoid_domains &&
	       !memcmp(a->avoid, b->avoid, sizeof(a->avoid)) &&
	       !memcmp(a->avoid_domains, b->avoid_domains, sizeof(a->avoid_domains));
}

static void move_req(void)
{
	struct broker_move_req r = move_req_example(), r2;
	uint8_t mb[BROKER_MOVE_REQ_SIZE + 8];
	const size_t dom0 = 12 + BROKER_MAX_AVOID * BROKER_ADDR_LEN;	/* avoid_domains[0] */

	EXPECT_EQ(BROKER_MOVE_REQ_SIZE, 780);
	EXPECT_EQ(BROKER_MAX_AVOID, 8);
	EXPECT(!strcmp(broker_type_name(BROKER_MOVE_REQ), "MOVE_REQ"));
	EXPECT_EQ(BROKER_MOVE_REQ + 1, BROKER_RENEW_GRANT);
	/* round trip, and the layout */
	memset(&r2, 0x55, sizeof(r2));
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE);
	EXPECT_EQ(mb[0], 3);
	EXPECT_EQ(mb[4], 90);
	EXPECT(mb[8] == 2 && mb[9] == 1 && mb[10] == 0 && mb[11] == 0);
	EXPECT(!memcmp(mb + 12, "10.0.0.1:18515", 15));
	EXPECT(!memcmp(mb + 12 + BROKER_ADDR_LEN, "[fd00::2]:18515", 16));
	EXPECT(!memcmp(mb + dom0, "rack-a", 7));
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0);
	EXPECT(move_eq(&r, &r2));	/* entries past the counts zeroed too */
	/* encode writes zeros past the counts, whatever the struct holds there */
	strcpy(r.avoid[5], "junk");
	strcpy(r.avoid_domains[7], "junk");
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0);
	EXPECT(r2.avoid[5][0] == 0 && r2.avoid_domains[7][0] == 0);
	/* none to avoid, and all eight of each */
	r = move_req_example();
	r.n_avoid = r.n_avoid_domains = 0;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0);
	EXPECT(r2.n_avoid == 0 && r2.avoid[0][0] == 0 && r2.avoid_domains[0][0] == 0);
	memset(r.avoid, 0, sizeof(r.avoid));
	memset(r.avoid_domains, 0, sizeof(r.avoid_domains));
	for (int i = 0; i < BROKER_MAX_AVOID; i++) {
		snprintf(r.avoid[i], sizeof(r.avoid[i]), "10.0.0.%d:18515", i);
		snprintf(r.avoid_domains[i], sizeof(r.avoid_domains[i]), "r%d", i);
	}
	r.n_avoid = r.n_avoid_domains = BROKER_MAX_AVOID;
	r.slabs = BROKER_MAX_RENEW;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0);
	EXPECT(move_eq(&r, &r2));
	EXPECT(!strcmp(r2.avoid[7], "10.0.0.7:18515") && !strcmp(r2.avoid_domains[7], "r7"));
	/* a count of 9 with all eight entries well formed */
	mb[8] = BROKER_MAX_AVOID + 1;
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), -EBADMSG);
	mb[8] = BROKER_MAX_AVOID;
	mb[9] = BROKER_MAX_AVOID + 1;
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), -EBADMSG);
	mb[9] = BROKER_MAX_AVOID;
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0);

	/* encode refuses what decode would */
	r = move_req_example();
	EXPECT_EQ(broker_move_req_encode(&r, mb, BROKER_MOVE_REQ_SIZE - 1), -ENOSPC);
	r.slabs = 0;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);
	r.slabs = BROKER_MAX_RENEW + 1;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);
	r = move_req_example();
	r.n_avoid = BROKER_MAX_AVOID + 1;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);
	r = move_req_example();
	r.n_avoid_domains = BROKER_MAX_AVOID + 1;
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);
	r = move_req_example();
	r.avoid[1][0] = 0;	/* an empty entry within the count */
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);
	r = move_req_example();
	r.avoid_domains[0][2] = ' ';	/* a blank */
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), -EINVAL);

	/* decode: every bad field refused */
#define BAD_MOVE(mutate) do {							\
		r = move_req_example();						\
		EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE); \
		EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), 0); \
		mutate;								\
		EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE, &r2), -EBADMSG); \
	} while (0)
	BAD_MOVE(memset(mb, 0, 4));				/* 0 slabs */
	BAD_MOVE(mb[0] = 1; mb[1] = 0x10);			/* 4097 slabs */
	BAD_MOVE(mb[3] = 0x80);					/* 2^31 + 3 slabs */
	BAD_MOVE(mb[8] = BROKER_MAX_AVOID + 1);			/* n_avoid 9 */
	BAD_MOVE(mb[8] = 0xff);
	BAD_MOVE(mb[9] = BROKER_MAX_AVOID + 1);			/* n_avoid_domains 9 */
	BAD_MOVE(mb[10] = 1);					/* reserved */
	BAD_MOVE(mb[11] = 0x80);
	BAD_MOVE(mb[8] = 1);				/* avoid[1] non-zero past n_avoid */
	BAD_MOVE(mb[12 + 2 * BROKER_ADDR_LEN + 40] = 'x');	/* a byte in avoid[2] */
	BAD_MOVE(mb[12 + 8 * BROKER_ADDR_LEN - 1] = 1);	/* the last byte of avoid[7] */
	BAD_MOVE(mb[9] = 0);				/* avoid_domains[0] non-zero past the count */
	BAD_MOVE(mb[dom0 + BROKER_DOMAIN_LEN] = 'r');		/* avoid_domains[1] */
	BAD_MOVE(mb[BROKER_MOVE_REQ_SIZE - 1] = 1);		/* the last byte of the body */
	BAD_MOVE(mb[8] = 3);				/* avoid[2] empty within the count */
	BAD_MOVE(mb[9] = 2);				/* avoid_domains[1] empty */
	BAD_MOVE(memset(mb + 12, 'a', BROKER_ADDR_LEN));	/* avoid[0] without its NUL */
	BAD_MOVE(mb[12 + BROKER_ADDR_LEN - 1] = 'x');		/* garbage after avoid[0]'s NUL */
	BAD_MOVE(mb[12 + 3] = ' ');				/* a blank in avoid[0] */
	BAD_MOVE(mb[12 + 3] = 0x7f);				/* not printable */
	BAD_MOVE(mb[12 + BROKER_ADDR_LEN] = 0);			/* avoid[1] empty */
	BAD_MOVE(mb[dom0] = 0);					/* avoid_domains[0] empty */
	BAD_MOVE(mb[dom0 + 3] = '\t');				/* a tab in it */
	BAD_MOVE(memset(mb + dom0, 'd', BROKER_DOMAIN_LEN));	/* no NUL */
#undef BAD_MOVE
	/* wrong lengths */
	r = move_req_example();
	EXPECT_EQ(broker_move_req_encode(&r, mb, sizeof(mb)), BROKER_MOVE_REQ_SIZE);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE - 1, &r2), -EBADMSG);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_MOVE_REQ_SIZE + 1, &r2), -EBADMSG);
	EXPECT_EQ(broker_move_req_decode(mb, BROKER_RENEW_REQ_SIZE, &r2), -EBADMSG);
	EXPECT_EQ(broker_move_req_decode(mb, 0, &r2), -EBADMSG);
	/* and a header of type 11 decodes, 12 does not */
	{
		uint8_t h[BROKER_HDR_SIZE];
		struct broker_hdr hd;

		broker_hdr_encode(h, BROKER_MOVE_REQ, 5, BROKER_MOVE_REQ_SIZE);
		EXPECT_EQ(broker_hdr_decode(h, &hd), 0);
		EXPECT_EQ(hd.type, 11);
		broker_hdr_encode(h, BROKER_TYPE_MAX + 1, 5, 0);
		EXPECT_EQ(broker_hdr_decode(h, &hd), -EBADMSG);
	}
}

/* A grant's fields for the RENEW_GRANT tests: trainer's 3 slabs on d0. */
static void trainer_grant_info(struct spare_grant_info *gi)
{
	memset(gi, 0, sizeof(*gi));
	strcpy(gi->client_id, "trainer");
	strcpy(gi->donor_id, "d0");
	strcpy(gi->donor_addr, "10.0.0.2:18515");
	gi->slabs = 3;
	gi->expiry = 100;
}

/*
 * RENEW_GRANT: lease, count, reserved, then the grants as they are; every
 * grant's form checked both ways, the count 1..64 and the length exact.
 */
static void renew_grant_body(void)
{
	static struct spare_grant g[BROKER_MAX_RENEW_GRANTS + 1], out;
	static uint8_t b[BROKER_RENEW_GRANT_SIZE(BROKER_MAX_RENEW_GRANTS + 1)];
	struct spare_grant_key k = { .id = 4, .key = "0123456789abcdef0123456789abcde" };
	struct spare_grant_info gi;
	struct broker_renew_grant r;
	uint8_t h[BROKER_HDR_SIZE];
	struct broker_hdr hd;

	EXPECT_EQ(BROKER_RENEW_GRANT, 12);
	EXPECT_EQ(BROKER_RENEW_GRANT + 1, BROKER_ROOM_REQ);
	EXPECT(!strcmp(broker_type_name(BROKER_ROOM_REQ), "ROOM_REQ"));
	EXPECT(!strcmp(broker_type_name(BROKER_RENEW_GRANT), "RENEW_GRANT"));
	broker_hdr_encode(h, BROKER_RENEW_GRANT, 5, 8);
	EXPECT_EQ(broker_hdr_decode(h, &hd), 0);
	trainer_grant_info(&gi);
	for (unsigned int i = 0; i <= BROKER_MAX_RENEW_GRANTS; i++) {
		spare_grant_new_id(gi.id);
		EXPECT_EQ(spare_grant_issue(&gi, &k, &g[i]), 0);
	}
	EXPECT_EQ(broker_renew_grant_encode(30, 2, g, b, sizeof(b)), 8 + 2 * 256);
	EXPECT_EQ(b[0], 30);
	EXPECT_EQ(b[4], 2);
	EXPECT(!memcmp(b + 8, &g[0], 256) && !memcmp(b + 264, &g[1], 256));
	EXPECT_EQ(broker_renew_grant_decode(b, 8 + 2 * 256, &r), 0);
	EXPECT_EQ(r.lease_s, 30);
	EXPECT_EQ(r.n, 2);
	broker_renew_grant_get(&r, 1, &out);
	EXPECT(!memcmp(&out, &g[1], sizeof(out)));
	/* the length must be exact; reserved zero; 1..64 grants */
	EXPECT_EQ(broker_renew_grant_decode(b, 8 + 2 * 256 - 1, &r), -EBADMSG);
	EXPECT_EQ(broker_renew_grant_decode(b, 8 + 3 * 256, &r), -EBADMSG);
	EXPECT_EQ(broker_renew_grant_decode(b, 7, &r), -EBADMSG);
	/* the flags (bit 0: move marks asked for, protocol 3); any other bit */
	for (int bit = 1; bit < 16; bit++) {
		b[6 + bit / 8] = (uint8_t)(1u << (bit % 8));
		EXPECT_EQ(broker_renew_grant_decode(b, 8 + 2 * 256, &r), -EBADMSG);
		b[6] = b[7] = 0;
	}
	b[4] = 0;
	EXPECT_EQ(broker_renew_grant_decode(b, 8, &r), -EBADMSG);
	EXPECT_EQ(broker_renew_grant_encode(30, 0, g, b, sizeof(b)), -EINVAL);
	EXPECT_EQ(broker_renew_grant_encode(30, BROKER_MAX_RENEW_GRANTS + 1, g, b, sizeof(b)), -EINVAL);
	EXPECT_EQ(broker_renew_grant_encode(30, BROKER_MAX_RENEW_GRANTS, g, b, sizeof(b)),
		  (int)BROKER_RENEW_GRANT_SIZE(BROKER_MAX_RENEW_GRANTS));
	EXPECT(BROKER_RENEW_GRANT_SIZE(BROKER_MAX_RENEW_GRANTS) <= BROKER_MAX_BODY);
	EXPECT_EQ(broker_renew_grant_decode(b, BROKER_RENEW_GRANT_SIZE(BROKER_MAX_RENEW_GRANTS), &r), 0);
	EXPECT_EQ(broker_renew_grant_encode(30, 2, g, b, 8 + 2 * 256 - 1), -ENOSPC);
	/* a grant not well formed (its magic, a string without NUL) */
	EXPECT_EQ(broker_renew_grant_encode(30, 2, g, b, sizeof(b)), 8 + 2 * 256);
	b[8 + 256] ^= 1;
	EXPECT_EQ(broker_renew_grant_decode(b, 8 + 2 * 256, &r), -EBADMSG);
	b[8 + 256] ^= 1;
	memset(b + 8 + 24, 'x', 64);	/* client_id */
	EXPECT_EQ(broker_renew_grant_decode(b, 8 + 2 * 256, &r), -EBADMSG);
	g[0].magic = 0;
	EXPECT_EQ(broker_renew_grant_encode(30, 1, g, b, sizeof(b)), -EINVAL);
}

/*
 * A grant's form in both directions (RENEW_GRANT's decoder and encoder,
 * GRANT_REP's decoder): version 1, 2 or 3 and the size; versions 1 and 3
 * refuse any reserved byte not zero, version 2 takes them (its signature);
 * version 3 refuses any key_id byte not zero, version 1 names its key there;
 * each string ends in a NUL and is not empty.
 */
static int renew_one(const struct spare_grant *g)
{
	static uint8_t b[BROKER_RENEW_GRANT_SIZE(1)];
	struct broker_renew_grant r;
	int enc, dec;

	enc = broker_renew_grant_encode(30, 1, g, b, sizeof(b));
	/* the decoder judges the bytes as they are, the encoder or not */
	memset(b, 0, BROKER_RENEW_GRANT_HDR);
	b[0] = 30;	/* lease */
	b[4] = 1;	/* 1 grant, flags 0 */
	memcpy(b + BROKER_RENEW_GRANT_HDR, g, SPARE_GRANT_SIZE);
	dec = broker_renew_grant_decode(b, sizeof(b), &r);
	EXPECT((enc > 0) == (dec == 0));
	return dec;
}

static int rep_one(const struct spare_grant *g)
{
	static uint8_t b[BROKER_GRANT_REP_SIZE(1)];
	struct broker_grant_rep rep;

	memset(b, 0, sizeof(b));
	b[0] = 1;	/* 1 slab x 1 copy */
	b[2] = 1;
	memcpy(b + BROKER_GRANT_REP_HDR, g, SPARE_GRANT_SIZE);
	memcpy(b + BROKER_GRANT_REP_HDR + SPARE_GRANT_SIZE, "rack-0", 6);
	return broker_grant_rep_decode(b, sizeof(b), &rep);
}

/* Both decoders agree: 0 or -EBADMSG for each. */
static int form_of(const struct spare_grant *g)
{
	int a = renew_one(g), b = rep_one(g);

	EXPECT_EQ(a, b);
	return a;
}

static void grant_form(void)
{
	struct spare_grant_key k = { .id = 4, .key = "0123456789abcdef0123456789abcde" };
	struct spare_grant_info gi;
	struct spare_grant v1, g;

	trainer_grant_info(&gi);
	spare_grant_new_id(gi.id);
	EXPECT_EQ(spare_grant_issue(&gi, &k, &v1), 0);
	EXPECT_EQ(le16toh(v1.version), SPARE_GRANT_VERSION);
	EXPECT_EQ(form_of(&v1), 0);

	/* versions: 1, 2 and 3 only; the size exactly 256 */
	for (unsigned int v = 0; v < 8; v++) {
		g = v1;
		g.version = htole16((uint16_t)v);
		g.key_id = 0;
		EXPECT_EQ(form_of(&g), v >= 1 && v <= 3 ? 0 : -EBADMSG);
	}
	g = v1;
	g.version = htole16(0x0100);	/* version 1 big-endian */
	EXPECT_EQ(form_of(&g), -EBADMSG);
	g = v1;
	g.size = htole16(SPARE_GRANT_SIZE - 1);
	EXPECT_EQ(form_of(&g), -EBADMSG);
	g.size = htole16(SPARE_GRANT_SIZE + 1);
	EXPECT_EQ(form_of(&g), -EBADMSG);

	/* reserved bytes: each refused in versions 1 and 3, taken in 2 */
	for (unsigned int i = 0; i < sizeof(v1.reserved); i++)
		for (unsigned int v = 1; v <= 3; v++) {
			g = v1;
			g.version = htole16((uint16_t)v);
			g.key_id = 0;
			g.reserved[i] = 0x80;
			EXPECT_EQ(form_of(&g), v == SPARE_GRANT_VERSION_ED25519 ? 0 : -EBADMSG);
		}
	/* key_id: each byte refused in version 3; version 1 and 2 name a key */
	for (unsigned int i = 0; i < sizeof(v1.key_id); i++)
		for (unsigned int v = 1; v <= 3; v++) {
			g = v1;
			g.version = htole16((uint16_t)v);
			g.key_id = 0;
			((uint8_t *)&g.key_id)[i] = 1;
			EXPECT_EQ(form_of(&g), v == SPARE_GRANT_VERSION_DONOR_MAC ? -EBADMSG : 0);
		}

	/* strings: empty, or their last byte not NUL */
	g = v1;
	g.client_id[0] = 0;
	EXPECT_EQ(form_of(&g), -EBADMSG);
	g = v1;
	memset(g.donor_id, 'd', sizeof(g.donor_id));
	EXPECT_EQ(form_of(&g), -EBADMSG);
	g = v1;
	g.donor_addr[sizeof(g.donor_addr) - 1] = '1';
	EXPECT_EQ(form_of(&g), -EBADMSG);
}

/*
 * RENEW_GRANT version 3: flags at 6 (BROKER_RENEW_F_MOVE asks for move
 * marks); a version-2 client's body (flags 0) still decodes as before.
 */
static void renew_grant_flags(void)
{
	static struct spare_grant g[2];
	static uint8_t b[BROKER_RENEW_GRANT_SIZE(2)];
	struct spare_grant_key k = { .id = 4 };
	struct spare_grant_info gi;
	struct broker_renew_grant r;

	memset(&gi, 0, sizeof(gi));
	strcpy(gi.client_id, "c");
	strcpy(gi.donor_id, "d0");
	strcpy(gi.donor_addr, "h:1");
	gi.slabs = 1;
	gi.expiry = 10;
	for (int i = 0; i < 2; i++) {
		spare_grant_new_id(gi.id);
		EXPECT_EQ(spare_grant_issue(&gi, &k, &g[i]), 0);
	}
	EXPECT_EQ(BROKER_RENEW_F_MOVE, 1);
	EXPECT_EQ(broker_renew_grant_encode_flags(30, 2, g, BROKER_RENEW_F_MOVE, b, sizeof(b)),
		  8 + 2 * 256);
	EXPECT_EQ(b[6], 1);
	EXPECT_EQ(b[7], 0);
	EXPECT_EQ(broker_renew_grant_decode(b, sizeof(b), &r), 0);
	EXPECT_EQ(r.flags, BROKER_RENEW_F_MOVE);
	EXPECT_EQ(r.n, 2);
	/* version 2's encoder: flags 0, decoded as 0 */
	EXPECT_EQ(broker_renew_grant_encode(30, 2, g, b, sizeof(b)), 8 + 2 * 256);
	EXPECT_EQ(b[6], 0);
	EXPECT_EQ(broker_renew_grant_decode(b, sizeof(b), &r), 0);
	EXPECT_EQ(r.flags, 0);
	/* an unknown flag is not sent */
	EXPECT_EQ(broker_renew_grant_encode_flags(30, 2, g, 2, b, sizeof(b)), -EINVAL);
	EXPECT_EQ(broker_renew_grant_encode_flags(30, 2, g, 0x8000, b, sizeof(b)), -EINVAL);
}

/*
 * GRANT_REP with move marks (the answer to a RENEW_GRANT that asked):
 * flags BROKER_REP_F_MOVE at 4, then the entries, then a 64-bit
 * little-endian bitmap, bit i for entry i. Refused: a bit at or past the
 * count, a bitmap missing, short or too long, marks on more than one copy
 * per slab, an unknown flag. A reply without the flag decodes with no
 * marks, as version 2's.
 */
static void grant_rep_move(void)
{
	static uint8_t mb[BROKER_GRANT_REP_SIZE(BROKER_MAX_RENEW_GRANTS) + 16];
	bool move[BROKER_MAX_RENEW_GRANTS] = { false };
	struct broker_grant_rep rep;
	size_t full;
	int n;

	rep_fill(BROKER_MAX_RENEW_GRANTS);
	move[0] = move[2] = move[5] = true;
	n = broker_grant_rep_encode_move(6, rep_g, rep_dom, move, mb, sizeof(mb));
	EXPECT_EQ(n, 8 + 6 * 288 + 8);
	EXPECT_EQ(mb[4], 1);	/* flags: move marks follow */
	EXPECT_EQ(mb[8 + 6 * 288], 0x25);	/* bits 0, 2, 5 */
	for (int b = 1; b < 8; b++)
		EXPECT_EQ(mb[8 + 6 * 288 + b], 0);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), 0);
	EXPECT(rep.slabs == 6 && rep.copies == 1);
	EXPECT_EQ(rep.flags, BROKER_REP_F_MOVE);
	EXPECT(rep.move == 0x25);
	/* the bitmap one byte short, one long, 8 bytes long, or absent */
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n - 1, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n + 1, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n + 8, &rep), -EBADMSG);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n - 8, &rep), -EBADMSG);
	/* a mark past the entries: bit 6 of 6, and bit 63 */
	mb[8 + 6 * 288] |= 0x40;
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), -EBADMSG);
	mb[8 + 6 * 288] &= (uint8_t)~0x40;
	mb[8 + 6 * 288 + 7] = 0x80;
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), -EBADMSG);
	mb[8 + 6 * 288 + 7] = 0;
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), 0);
	/* an unknown flag bit */
	for (int bit = 1; bit < 32; bit++) {
		mb[4 + bit / 8] |= (uint8_t)(1u << (bit % 8));
		EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), -EBADMSG);
		mb[4 + bit / 8] &= (uint8_t)~(1u << (bit % 8));
	}
	/* marks on a reply of 3 slabs x 2 copies: refused */
	mb[0] = 3;
	mb[2] = 2;
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), -EBADMSG);
	/* all 64 entries, all marked: every bit is an entry */
	memset(move, 1, sizeof(move));
	n = broker_grant_rep_encode_move(BROKER_MAX_RENEW_GRANTS, rep_g, rep_dom, move, mb,
					 sizeof(mb));
	full = BROKER_GRANT_REP_SIZE(BROKER_MAX_RENEW_GRANTS) + 8;
	EXPECT_EQ(n, (int)full);
	EXPECT_EQ(broker_grant_rep_decode(mb, full, &rep), 0);
	EXPECT(rep.move == UINT64_MAX);
	/* encode: the count 1..64, the room */
	EXPECT_EQ(broker_grant_rep_encode_move(0, rep_g, rep_dom, move, mb, sizeof(mb)), -EINVAL);
	EXPECT_EQ(broker_grant_rep_encode_move(BROKER_MAX_RENEW_GRANTS + 1, rep_g, rep_dom, move,
					       mb, sizeof(mb)), -EINVAL);
	EXPECT_EQ(broker_grant_rep_encode_move(6, rep_g, rep_dom, move, mb, 8 + 6 * 288 + 7),
		  -ENOSPC);
	/* version 2's reply: no flag, no marks */
	n = broker_grant_rep_encode(6, 1, rep_g, rep_dom, mb, sizeof(mb));
	EXPECT_EQ(n, 8 + 6 * 288);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), 0);
	EXPECT_EQ(rep.flags, 0);
	EXPECT(rep.move == 0);
	/* no marks set: the flag and a zero bitmap still go (the client asked) */
	memset(move, 0, sizeof(move));
	n = broker_grant_rep_encode_move(6, rep_g, rep_dom, move, mb, sizeof(mb));
	EXPECT_EQ(n, 8 + 6 * 288 + 8);
	EXPECT_EQ(broker_grant_rep_decode(mb, (size_t)n, &rep), 0);
	EXPECT(rep.flags == BROKER_REP_F_MOVE && rep.move == 0);
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

/*
 * A peer of the other version: broker_recv() says EPROTONOSUPPORT (not a
 * bad frame), and authenticating names both versions.
 */
static void other_version(void)
{
	struct broker_challenge c = { .broker_id = "old-broker", .nonce = { 1 } };
	uint8_t key[BROKER_KEY_LEN] = { 0 }, f[BROKER_HDR_SIZE + BROKER_CHALLENGE_SIZE];
	struct broker_hdr h;
	char why[128] = "";
	int sv[2];

	EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	broker_hdr_encode(f, BROKER_CHALLENGE, 0, BROKER_CHALLENGE_SIZE);
	f[4] = 1;	/* a version-1 broker's CHALLENGE */
	broker_challenge_encode(&c, f + BROKER_HDR_SIZE, BROKER_CHALLENGE_SIZE);
	EXPECT_EQ(write(sv[1], f, sizeof(f)), (ssize_t)sizeof(f));
	EXPECT_EQ(broker_authenticate(sv[0], BROKER_ROLE_CLIENT, "c1", key, NULL, why,
				      sizeof(why)), -1);
	EXPECT(!strcmp(why, "the broker speaks protocol version 1, we speak 2"));
	f[4] = 2;
	f[0] = 'X';	/* a bad magic stays a bad frame */
	EXPECT_EQ(write(sv[1], f, BROKER_HDR_SIZE), BROKER_HDR_SIZE);
	errno = 0;
	EXPECT_EQ(broker_recv(sv[0], &h, buf, sizeof(buf)), -1);
	EXPECT_EQ(errno, EBADMSG);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(header);
	TAP_RUN(donor_body);
	TAP_RUN(donors_bodies);
	TAP_RUN(hello_and_proofs);
	TAP_RUN(grant_req);
	TAP_RUN(grant_rep);
	TAP_RUN(stripe_req);
	TAP_RUN(renew_req);
	TAP_RUN(move_req);
	TAP_RUN(renew_grant_body);
	TAP_RUN(renew_grant_flags);
	TAP_RUN(grant_form);
	TAP_RUN(grant_rep_move);
	TAP_RUN(error_body);
	TAP_RUN(other_version);
	return tap_done();
}
