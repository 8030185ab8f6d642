// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the spare-broker wire codec (userspace/lib/
 * broker_proto.c). Self-contained: it includes the codec and grant sources.
 * Input: a 16-byte header followed by a body; the body is offered to every
 * body decoder.
 * fuzz-ldlibs: -lsodium
 *
 * Checks beyond "no crash": a header that decodes has len <= the maximum
 * and re-encodes to the same bytes; every fixed body that decodes
 * re-encodes to the same bytes, GRANT_REP too (its grants and their
 * domains, each domain a non-empty string NUL-padded to its field; with
 * protocol 3's move marks, one copy per grant and a bitmap with bits only
 * below the count); a decoded RENEW_GRANT re-encodes from its grants and
 * its flags to the same bytes; a decoded MOVE_REQ's entries within its
 * counts are strings and the rest all zero; a decoded DONORS_REP's page
 * re-encodes from its entries; a decoded ERROR's text is printable.
 * Until session 44 the target re-encoded RENEW_GRANT without its flags and
 * sized GRANT_REP without the marks, from before protocol 3 (ec25ea6):
 * seeds/fuzz_broker_proto/renew-grant-move and grant-rep-move, valid
 * protocol 3 bodies, trapped it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userspace/lib/broker_proto.c"
#include "../../userspace/lib/spare_grant.c"

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

static uint8_t out[BROKER_MAX_BODY];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct broker_hdr h;
	const uint8_t *body;
	size_t len;
	int n;

	if (size < BROKER_HDR_SIZE)
		return 0;
	if (broker_hdr_decode(data, &h) == 0) {
		uint8_t again[BROKER_HDR_SIZE];

		check(h.len <= BROKER_MAX_BODY && h.type >= 1 && h.type <= BROKER_TYPE_MAX);
		broker_hdr_encode(again, h.type, h.seq, h.len);
		check(memcmp(again, data, BROKER_HDR_SIZE) == 0);
	}
	body = data + BROKER_HDR_SIZE;
	len = size - BROKER_HDR_SIZE;
	{
		struct broker_challenge m;

		if (!broker_challenge_decode(body, len, &m)) {
			n = broker_challenge_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_hello m;

		if (!broker_hello_decode(body, len, &m)) {
			n = broker_hello_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_donor m;

		if (!broker_donor_decode(body, len, &m)) {
			n = broker_donor_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_grant_req m;

		if (!broker_grant_req_decode(body, len, &m)) {
			n = broker_grant_req_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
			check(m.slabs * m.copies <= BROKER_MAX_GRANTS);
		}
	}
	{
		struct broker_stripe_req m;

		if (!broker_stripe_req_decode(body, len, &m)) {
			n = broker_stripe_req_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
			check(m.stripes * (m.k + m.r) <= BROKER_MAX_GRANTS);
		}
	}
	{
		struct broker_renew_req m;

		if (!broker_renew_req_decode(body, len, &m)) {
			n = broker_renew_req_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
			check(m.slabs >= 1 && m.slabs <= BROKER_MAX_RENEW);
		}
	}
	{
		struct broker_renew_grant m;

		if (!broker_renew_grant_decode(body, len, &m)) {
			static struct spare_grant g[BROKER_MAX_RENEW_GRANTS];

			check(m.n >= 1 && m.n <= BROKER_MAX_RENEW_GRANTS);
			check(len == BROKER_RENEW_GRANT_SIZE(m.n));
			check(!(m.flags & ~BROKER_RENEW_F_ALL));
			for (unsigned int i = 0; i < m.n; i++)
				broker_renew_grant_get(&m, i, &g[i]);
			n = broker_renew_grant_encode_flags(m.lease_s, m.n, g, m.flags, out,
							    sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_move_req m;

		if (!broker_move_req_decode(body, len, &m)) {
			n = broker_move_req_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
			check(m.slabs >= 1 && m.slabs <= BROKER_MAX_RENEW);
			check(m.n_avoid <= BROKER_MAX_AVOID && m.n_avoid_domains <= BROKER_MAX_AVOID);
			/* entries within the counts are strings, the rest all zero */
			for (unsigned int i = 0; i < BROKER_MAX_AVOID; i++) {
				check(i < m.n_avoid ? broker_str_ok(m.avoid[i], BROKER_ADDR_LEN)
						    : zero((const uint8_t *)m.avoid[i],
							   BROKER_ADDR_LEN));
				check(i < m.n_avoid_domains
					      ? broker_str_ok(m.avoid_domains[i], BROKER_DOMAIN_LEN)
					      : zero((const uint8_t *)m.avoid_domains[i],
						     BROKER_DOMAIN_LEN));
			}
		}
	}
	{
		static struct spare_grant g[BROKER_MAX_GRANTS];
		static char dom[BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];
		static bool move[BROKER_MAX_GRANTS];
		struct broker_grant_rep m;

		if (!broker_grant_rep_decode(body, len, &m)) {
			unsigned int nr = (unsigned int)m.slabs * m.copies;
			bool marks = m.flags & BROKER_REP_F_MOVE;

			check(nr >= 1 && nr <= BROKER_MAX_GRANTS);
			check(!(m.flags & ~BROKER_REP_F_MOVE));
			check(len == BROKER_GRANT_REP_HDR +
				     nr * (SPARE_GRANT_SIZE + BROKER_DOMAIN_LEN) +
				     (marks ? BROKER_REP_MOVE_SIZE : 0));
			/* marks: a renewal's answer, one copy each, a bit each */
			check(marks ? m.copies == 1 && nr <= BROKER_MAX_RENEW_GRANTS &&
				      (nr >= 64 || !(m.move >> nr))
				    : !m.move);
			for (unsigned int i = 0; i < nr; i++) {
				size_t k;

				broker_grant_rep_entry(&m, i, &g[i], dom[i]);
				check(g[i].donor_id[SPARE_GRANT_DONOR_LEN - 1] == 0);
				k = strnlen(dom[i], BROKER_DOMAIN_LEN);
				check(k >= 1 && k < BROKER_DOMAIN_LEN);
				for (size_t b = 0; b < BROKER_DOMAIN_LEN; b++)
					check(b < k ? dom[i][b] > ' ' && dom[i][b] < 0x7f
						    : dom[i][b] == 0);
			}
			for (unsigned int i = 0; i < nr; i++)
				move[i] = i < 64 && (m.move >> i) & 1;
			n = marks ? broker_grant_rep_encode_move(m.slabs, g, dom, move, out,
								 sizeof(out))
				  : broker_grant_rep_encode(m.slabs, m.copies, g, dom, out,
							    sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_welcome m;

		if (!broker_welcome_decode(body, len, &m)) {
			n = broker_welcome_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_ack m;

		if (!broker_ack_decode(body, len, &m)) {
			n = broker_ack_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_donors_req m;

		if (!broker_donors_req_decode(body, len, &m)) {
			n = broker_donors_req_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		static struct broker_donor_info v[BROKER_DONORS_PAGE];
		struct broker_donors_rep m;

		if (!broker_donors_rep_decode(body, len, &m)) {
			check(m.n <= BROKER_DONORS_PAGE && m.next <= m.total);
			for (unsigned int i = 0; i < m.n; i++)
				broker_donors_rep_entry(&m, i, &v[i]);
			n = broker_donors_rep_encode(m.total, m.next, m.n, v, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct broker_error m;

		if (!broker_error_decode(body, len, &m)) {
			check(strlen(m.text) == len - 8);
			n = broker_error_encode(&m, out, sizeof(out));
			check(n == (int)len && !memcmp(out, body, len));
		}
	}
	{
		struct spare_grant g;
		struct spare_grant_info gi;

		if (len == sizeof(g)) {
			memcpy(&g, body, sizeof(g));
			if (!spare_grant_decode(&g, &gi)) {
				struct spare_grant g2;

				check(spare_grant_encode(&gi, &g2) == 0);
				/* encode writes the signed fields of a version 1
				 * grant; a version 2 one differs only in its
				 * version and its signature (v1: zero reserved
				 * bytes, which decode checked, then the tag) */
				check(gi.version == le16toh(g.version));
				g2.version = g.version;
				memcpy(g2.sig, g.sig, sizeof(g.sig));
				check(!memcmp(&g, &g2, sizeof(g)));
			}
		}
	}
	return 0;
}
