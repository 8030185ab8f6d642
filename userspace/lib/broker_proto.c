// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker wire codec (broker_proto.h, Documentation/protocol.md
 * "Broker protocol").
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include <sodium.h>

#include "broker_proto.h"

_Static_assert(BROKER_DONOR_SIZE == 128, "donor body");
_Static_assert(BROKER_HELLO_SIZE == 120, "hello body");
_Static_assert(BROKER_GRANT_REP_ENTRY == 288, "grant_rep entry");
_Static_assert(BROKER_MOVE_REQ_SIZE == 780, "move_req body");
_Static_assert(BROKER_GRANT_REP_SIZE(BROKER_MAX_GRANTS) <= BROKER_MAX_BODY,
	       "a full GRANT_REP fits a frame");	/* 36,872 bytes */

static void put16(uint8_t *p, uint16_t v) { v = htole16(v); memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { v = htole32(v); memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { v = htole64(v); memcpy(p, &v, 8); }
static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return le16toh(v); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return le32toh(v); }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return le64toh(v); }

static bool zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

bool broker_str_ok(const char *s, size_t len)
{
	const char *nul = memchr(s, 0, len);

	if (!nul || nul == s)
		return false;
	for (const char *p = s; p < nul; p++)
		if (*p < 0x21 || *p > 0x7e)	/* printable, no blanks */
			return false;
	return zero((const uint8_t *)nul, (size_t)(s + len - nul));
}

/* Copy a fixed string field in, checking it. */
static bool get_str(char *dst, const uint8_t *src, size_t len)
{
	memcpy(dst, src, len);
	return broker_str_ok(dst, len);
}

void broker_hdr_encode(uint8_t out[BROKER_HDR_SIZE], uint16_t type, uint32_t seq,
		       uint32_t len)
{
	put32(out, BROKER_MAGIC);
	put16(out + 4, BROKER_VERSION);
	put16(out + 6, type);
	put32(out + 8, seq);
	put32(out + 12, len);
}

int broker_hdr_decode(const uint8_t in[BROKER_HDR_SIZE], struct broker_hdr *h)
{
	h->magic = get32(in);
	h->version = get16(in + 4);
	h->type = get16(in + 6);
	h->seq = get32(in + 8);
	h->len = get32(in + 12);
	if (h->magic != BROKER_MAGIC)
		return -EBADMSG;
	if (h->version != BROKER_VERSION)
		return -EPROTONOSUPPORT;
	if (h->len > BROKER_MAX_BODY)
		return -EMSGSIZE;
	if (h->type < 1 || h->type > BROKER_TYPE_MAX)
		return -EBADMSG;
	return 0;
}

int broker_challenge_encode(const struct broker_challenge *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_CHALLENGE_SIZE)
		return -ENOSPC;
	if (!broker_str_ok(m->broker_id, BROKER_ID_LEN) || zero(m->nonce, BROKER_NONCE_LEN))
		return -EINVAL;
	memcpy(out, m->nonce, BROKER_NONCE_LEN);
	memcpy(out + 16, m->broker_id, BROKER_ID_LEN);
	return BROKER_CHALLENGE_SIZE;
}

int broker_challenge_decode(const uint8_t *in, size_t len, struct broker_challenge *m)
{
	if (len != BROKER_CHALLENGE_SIZE)
		return -EBADMSG;
	memcpy(m->nonce, in, BROKER_NONCE_LEN);
	if (zero(m->nonce, BROKER_NONCE_LEN) || !get_str(m->broker_id, in + 16, BROKER_ID_LEN))
		return -EBADMSG;
	return 0;
}

static bool role_ok(unsigned int role)
{
	return role == BROKER_ROLE_DONOR || role == BROKER_ROLE_CLIENT ||
	       role == BROKER_ROLE_ADMIN;
}

int broker_hello_encode(const struct broker_hello *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_HELLO_SIZE)
		return -ENOSPC;
	if (!role_ok(m->role) || !broker_str_ok(m->name, BROKER_NAME_LEN) ||
	    zero(m->nonce, BROKER_NONCE_LEN))
		return -EINVAL;
	memset(out, 0, 8);
	out[0] = m->role;
	memcpy(out + 8, m->name, BROKER_NAME_LEN);
	memcpy(out + 72, m->nonce, BROKER_NONCE_LEN);
	memcpy(out + 88, m->mac, BROKER_MAC_LEN);
	return BROKER_HELLO_SIZE;
}

int broker_hello_decode(const uint8_t *in, size_t len, struct broker_hello *m)
{
	if (len != BROKER_HELLO_SIZE || !role_ok(in[0]) || !zero(in + 1, 7))
		return -EBADMSG;
	m->role = in[0];
	if (!get_str(m->name, in + 8, BROKER_NAME_LEN))
		return -EBADMSG;
	memcpy(m->nonce, in + 72, BROKER_NONCE_LEN);
	memcpy(m->mac, in + 88, BROKER_MAC_LEN);
	return zero(m->nonce, BROKER_NONCE_LEN) ? -EBADMSG : 0;
}

int broker_welcome_encode(const struct broker_welcome *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_WELCOME_SIZE)
		return -ENOSPC;
	memcpy(out, m->mac, BROKER_MAC_LEN);
	return BROKER_WELCOME_SIZE;
}

int broker_welcome_decode(const uint8_t *in, size_t len, struct broker_welcome *m)
{
	if (len != BROKER_WELCOME_SIZE)
		return -EBADMSG;
	memcpy(m->mac, in, BROKER_MAC_LEN);
	return 0;
}

static bool shift_ok(unsigned int s)
{
	return s >= 20 && s <= 34;	/* SPARE_SLAB_SHIFT_MIN..MAX (uapi/spare.h) */
}

int broker_donor_encode(const struct broker_donor *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_DONOR_SIZE)
		return -ENOSPC;
	if (!m->hb_interval_ms || !shift_ok(m->slab_shift) ||
	    (m->flags & ~BROKER_DONOR_F_ALL) ||
	    !broker_str_ok(m->donor_id, BROKER_ID_LEN) ||
	    !broker_str_ok(m->addr, BROKER_ADDR_LEN) ||
	    !broker_str_ok(m->domain, BROKER_DOMAIN_LEN))
		return -EINVAL;
	memset(out, 0, BROKER_DONOR_SIZE);
	put64(out, m->free_slabs);
	put32(out + 8, m->hb_interval_ms);
	out[12] = m->slab_shift;
	out[13] = m->flags;
	memcpy(out + 16, m->donor_id, BROKER_ID_LEN);
	memcpy(out + 32, m->addr, BROKER_ADDR_LEN);
	memcpy(out + 96, m->domain, BROKER_DOMAIN_LEN);
	return BROKER_DONOR_SIZE;
}

int broker_donor_decode(const uint8_t *in, size_t len, struct broker_donor *m)
{
	if (len != BROKER_DONOR_SIZE || (in[13] & ~BROKER_DONOR_F_ALL) || !zero(in + 14, 2))
		return -EBADMSG;
	m->free_slabs = get64(in);
	m->hb_interval_ms = get32(in + 8);
	m->slab_shift = in[12];
	m->flags = in[13];
	if (!m->hb_interval_ms || !shift_ok(m->slab_shift) ||
	    m->free_slabs > UINT32_MAX ||
	    !get_str(m->donor_id, in + 16, BROKER_ID_LEN) ||
	    !get_str(m->addr, in + 32, BROKER_ADDR_LEN) ||
	    !get_str(m->domain, in + 96, BROKER_DOMAIN_LEN))
		return -EBADMSG;
	return 0;
}

int broker_ack_encode(const struct broker_ack *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_ACK_SIZE)
		return -ENOSPC;
	put32(out, m->donors);
	put32(out + 4, m->expire_ms);
	return BROKER_ACK_SIZE;
}

int broker_ack_decode(const uint8_t *in, size_t len, struct broker_ack *m)
{
	if (len != BROKER_ACK_SIZE)
		return -EBADMSG;
	m->donors = get32(in);
	m->expire_ms = get32(in + 4);
	return 0;
}

static bool req_ok(unsigned int slabs, unsigned int copies)
{
	return slabs >= 1 && slabs <= BROKER_MAX_SLABS && copies >= 1 &&
	       copies <= BROKER_MAX_COPIES && slabs * copies <= BROKER_MAX_GRANTS;
}

int broker_grant_req_encode(const struct broker_grant_req *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_GRANT_REQ_SIZE)
		return -ENOSPC;
	if (!req_ok(m->slabs, m->copies))
		return -EINVAL;
	put16(out, m->slabs);
	put16(out + 2, m->copies);
	put32(out + 4, m->lease_s);
	return BROKER_GRANT_REQ_SIZE;
}

int broker_grant_req_decode(const uint8_t *in, size_t len, struct broker_grant_req *m)
{
	if (len != BROKER_GRANT_REQ_SIZE)
		return -EBADMSG;
	m->slabs = get16(in);
	m->copies = get16(in + 2);
	m->lease_s = get32(in + 4);
	return req_ok(m->slabs, m->copies) ? 0 : -EBADMSG;
}

/* A code the broker places: K of 2, 4, 8 and R of 1, 2 (redundancy=ec:K+R). */
static bool stripe_ok(unsigned int stripes, unsigned int k, unsigned int r)
{
	return (k == 2 || k == 4 || k == 8) && (r == 1 || r == 2) && stripes >= 1 &&
	       stripes <= BROKER_MAX_SLABS && stripes * (k + r) <= BROKER_MAX_GRANTS;
}

int broker_stripe_req_encode(const struct broker_stripe_req *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_STRIPE_REQ_SIZE)
		return -ENOSPC;
	if (!stripe_ok(m->stripes, m->k, m->r))
		return -EINVAL;
	put16(out, m->stripes);
	out[2] = m->k;
	out[3] = m->r;
	put32(out + 4, m->lease_s);
	return BROKER_STRIPE_REQ_SIZE;
}

int broker_stripe_req_decode(const uint8_t *in, size_t len, struct broker_stripe_req *m)
{
	if (len != BROKER_STRIPE_REQ_SIZE)
		return -EBADMSG;
	m->stripes = get16(in);
	m->k = in[2];
	m->r = in[3];
	m->lease_s = get32(in + 4);
	return stripe_ok(m->stripes, m->k, m->r) ? 0 : -EBADMSG;
}

/* A GRANT_REP answers a GRANT_REQ (copies) or a STRIPE_REQ (K+R splits). */
static bool rep_ok(unsigned int slabs, unsigned int copies)
{
	return slabs >= 1 && slabs <= BROKER_MAX_SLABS && copies >= 1 &&
	       copies <= BROKER_MAX_SPLITS && slabs * copies <= BROKER_MAX_GRANTS;
}

int broker_renew_req_encode(const struct broker_renew_req *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_RENEW_REQ_SIZE)
		return -ENOSPC;
	if (!m->slabs || m->slabs > BROKER_MAX_RENEW ||
	    !broker_str_ok(m->donor_addr, BROKER_ADDR_LEN))
		return -EINVAL;
	memset(out, 0, BROKER_RENEW_REQ_SIZE);
	memcpy(out, m->donor_addr, BROKER_ADDR_LEN);
	put32(out + BROKER_ADDR_LEN, m->slabs);
	put32(out + BROKER_ADDR_LEN + 4, m->lease_s);
	return BROKER_RENEW_REQ_SIZE;
}

int broker_renew_req_decode(const uint8_t *in, size_t len, struct broker_renew_req *m)
{
	if (len != BROKER_RENEW_REQ_SIZE ||
	    !get_str(m->donor_addr, in, BROKER_ADDR_LEN))
		return -EBADMSG;
	m->slabs = get32(in + BROKER_ADDR_LEN);
	m->lease_s = get32(in + BROKER_ADDR_LEN + 4);
	return m->slabs && m->slabs <= BROKER_MAX_RENEW ? 0 : -EBADMSG;
}

/* MOVE_REQ's layout: the two lists follow the 12-byte fixed part. */
#define MOVE_AVOID_OFF		12
#define MOVE_DOMAINS_OFF	(MOVE_AVOID_OFF + BROKER_MAX_AVOID * BROKER_ADDR_LEN)

static bool move_counts_ok(uint32_t slabs, unsigned int n_avoid, unsigned int n_avoid_domains)
{
	return slabs >= 1 && slabs <= BROKER_MAX_RENEW && n_avoid <= BROKER_MAX_AVOID &&
	       n_avoid_domains <= BROKER_MAX_AVOID;
}

int broker_move_req_encode(const struct broker_move_req *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_MOVE_REQ_SIZE)
		return -ENOSPC;
	if (!move_counts_ok(m->slabs, m->n_avoid, m->n_avoid_domains))
		return -EINVAL;
	for (unsigned int i = 0; i < m->n_avoid; i++)
		if (!broker_str_ok(m->avoid[i], BROKER_ADDR_LEN))
			return -EINVAL;
	for (unsigned int i = 0; i < m->n_avoid_domains; i++)
		if (!broker_str_ok(m->avoid_domains[i], BROKER_DOMAIN_LEN))
			return -EINVAL;
	memset(out, 0, BROKER_MOVE_REQ_SIZE);
	put32(out, m->slabs);
	put32(out + 4, m->lease_s);
	out[8] = m->n_avoid;
	out[9] = m->n_avoid_domains;
	/* entries past the counts stay zero, whatever the struct holds there */
	for (unsigned int i = 0; i < m->n_avoid; i++)
		memcpy(out + MOVE_AVOID_OFF + (size_t)i * BROKER_ADDR_LEN, m->avoid[i],
		       BROKER_ADDR_LEN);
	for (unsigned int i = 0; i < m->n_avoid_domains; i++)
		memcpy(out + MOVE_DOMAINS_OFF + (size_t)i * BROKER_DOMAIN_LEN, m->avoid_domains[i],
		       BROKER_DOMAIN_LEN);
	return BROKER_MOVE_REQ_SIZE;
}

int broker_move_req_decode(const uint8_t *in, size_t len, struct broker_move_req *m)
{
	if (len != BROKER_MOVE_REQ_SIZE || get16(in + 10))
		return -EBADMSG;
	m->slabs = get32(in);
	m->lease_s = get32(in + 4);
	m->n_avoid = in[8];
	m->n_avoid_domains = in[9];
	if (!move_counts_ok(m->slabs, m->n_avoid, m->n_avoid_domains))
		return -EBADMSG;
	for (unsigned int i = 0; i < BROKER_MAX_AVOID; i++) {
		const uint8_t *a = in + MOVE_AVOID_OFF + (size_t)i * BROKER_ADDR_LEN;
		const uint8_t *d = in + MOVE_DOMAINS_OFF + (size_t)i * BROKER_DOMAIN_LEN;

		if (i < m->n_avoid ? !get_str(m->avoid[i], a, BROKER_ADDR_LEN)
				   : !zero(a, BROKER_ADDR_LEN))
			return -EBADMSG;
		if (i < m->n_avoid_domains ? !get_str(m->avoid_domains[i], d, BROKER_DOMAIN_LEN)
					   : !zero(d, BROKER_DOMAIN_LEN))
			return -EBADMSG;
		if (i >= m->n_avoid)
			memset(m->avoid[i], 0, BROKER_ADDR_LEN);
		if (i >= m->n_avoid_domains)
			memset(m->avoid_domains[i], 0, BROKER_DOMAIN_LEN);
	}
	return 0;
}

/*
 * A grant's form (spare_grant_form_check(): what a client can check), its
 * strings printable as every string of this protocol.
 */
static bool grant_form_ok(const uint8_t *p)
{
	struct spare_grant g;

	memcpy(&g, p, sizeof(g));
	return spare_grant_form_check(&g) == SPARE_GRANT_FORM_OK &&
	       broker_str_ok(g.donor_id, sizeof(g.donor_id)) &&
	       broker_str_ok(g.donor_addr, sizeof(g.donor_addr)) &&
	       broker_str_ok(g.client_id, sizeof(g.client_id));
}

int broker_renew_grant_encode(uint32_t lease_s, uint16_t n, const struct spare_grant *grants,
			      uint8_t *out, size_t cap)
{
	return broker_renew_grant_encode_flags(lease_s, n, grants, 0, out, cap);
}

int broker_renew_grant_encode_flags(uint32_t lease_s, uint16_t n,
				    const struct spare_grant *grants, uint16_t flags,
				    uint8_t *out, size_t cap)
{
	if (!n || n > BROKER_MAX_RENEW_GRANTS || (flags & ~BROKER_RENEW_F_ALL))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (!grant_form_ok((const uint8_t *)&grants[i]))
			return -EINVAL;
	if (cap < BROKER_RENEW_GRANT_SIZE(n))
		return -ENOSPC;
	put32(out, lease_s);
	put16(out + 4, n);
	put16(out + 6, flags);
	memcpy(out + BROKER_RENEW_GRANT_HDR, grants, (size_t)n * SPARE_GRANT_SIZE);
	return (int)BROKER_RENEW_GRANT_SIZE(n);
}

int broker_renew_grant_decode(const uint8_t *in, size_t len, struct broker_renew_grant *m)
{
	unsigned int n;

	if (len < BROKER_RENEW_GRANT_HDR || (get16(in + 6) & ~BROKER_RENEW_F_ALL))
		return -EBADMSG;
	n = get16(in + 4);
	if (!n || n > BROKER_MAX_RENEW_GRANTS || len != BROKER_RENEW_GRANT_SIZE(n))
		return -EBADMSG;
	for (unsigned int i = 0; i < n; i++)
		if (!grant_form_ok(in + BROKER_RENEW_GRANT_HDR + (size_t)i * SPARE_GRANT_SIZE))
			return -EBADMSG;
	m->lease_s = get32(in);
	m->n = (uint16_t)n;
	m->flags = get16(in + 6);
	m->grants = in + BROKER_RENEW_GRANT_HDR;
	return 0;
}

void broker_renew_grant_get(const struct broker_renew_grant *m, unsigned int i,
			    struct spare_grant *grant)
{
	memcpy(grant, m->grants + (size_t)i * SPARE_GRANT_SIZE, SPARE_GRANT_SIZE);
}

int broker_grant_rep_encode(uint16_t slabs, uint16_t copies, const struct spare_grant *grants,
			    const char (*domains)[BROKER_DOMAIN_LEN], uint8_t *out, size_t cap)
{
	unsigned int n = (unsigned int)slabs * copies;

	if (!rep_ok(slabs, copies))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (!grant_form_ok((const uint8_t *)&grants[i]) ||
		    !broker_str_ok(domains[i], BROKER_DOMAIN_LEN))
			return -EINVAL;
	if (cap < BROKER_GRANT_REP_SIZE(n))
		return -ENOSPC;
	put16(out, slabs);
	put16(out + 2, copies);
	put32(out + 4, 0);
	for (unsigned int i = 0; i < n; i++) {
		uint8_t *e = out + BROKER_GRANT_REP_HDR + (size_t)i * BROKER_GRANT_REP_ENTRY;

		memcpy(e, &grants[i], SPARE_GRANT_SIZE);
		memcpy(e + SPARE_GRANT_SIZE, domains[i], BROKER_DOMAIN_LEN);
	}
	return (int)BROKER_GRANT_REP_SIZE(n);
}

int broker_grant_rep_encode_move(uint16_t n, const struct spare_grant *grants,
				 const char (*domains)[BROKER_DOMAIN_LEN], const bool *move,
				 uint8_t *out, size_t cap)
{
	uint64_t bits = 0;
	int len;

	if (!n || n > BROKER_MAX_RENEW_GRANTS)
		return -EINVAL;
	if (cap < BROKER_GRANT_REP_SIZE(n) + BROKER_REP_MOVE_SIZE)
		return -ENOSPC;
	len = broker_grant_rep_encode(n, 1, grants, domains, out, cap);
	if (len < 0)
		return len;
	for (unsigned int i = 0; i < n; i++)
		if (move[i])
			bits |= 1ULL << i;
	put32(out + 4, BROKER_REP_F_MOVE);
	put64(out + len, bits);
	return len + BROKER_REP_MOVE_SIZE;
}

int broker_grant_rep_decode(const uint8_t *in, size_t len, struct broker_grant_rep *m)
{
	char domain[BROKER_DOMAIN_LEN];
	size_t marks = 0;
	unsigned int n;

	if (len < BROKER_GRANT_REP_HDR)
		return -EBADMSG;
	m->slabs = get16(in);
	m->copies = get16(in + 2);
	m->flags = get32(in + 4);
	m->move = 0;
	if (!rep_ok(m->slabs, m->copies) || (m->flags & ~BROKER_REP_F_MOVE))
		return -EBADMSG;
	n = (unsigned int)m->slabs * m->copies;
	if (m->flags & BROKER_REP_F_MOVE) {
		/* a renewal's answer: one copy per grant, a bit per grant */
		if (m->copies != 1 || n > BROKER_MAX_RENEW_GRANTS)
			return -EBADMSG;
		marks = BROKER_REP_MOVE_SIZE;
	}
	if (len != BROKER_GRANT_REP_SIZE(n) + marks)
		return -EBADMSG;
	if (marks) {
		m->move = get64(in + BROKER_GRANT_REP_SIZE(n));
		if (n < 64 && (m->move >> n))
			return -EBADMSG;	/* a mark for no entry */
	}
	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *e = in + BROKER_GRANT_REP_HDR + (size_t)i * BROKER_GRANT_REP_ENTRY;

		if (!grant_form_ok(e) || !get_str(domain, e + SPARE_GRANT_SIZE, BROKER_DOMAIN_LEN))
			return -EBADMSG;
	}
	m->entries = in + BROKER_GRANT_REP_HDR;
	return 0;
}

void broker_grant_rep_entry(const struct broker_grant_rep *m, unsigned int i,
			    struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN])
{
	const uint8_t *e = m->entries + (size_t)i * BROKER_GRANT_REP_ENTRY;

	if (grant)
		memcpy(grant, e, SPARE_GRANT_SIZE);
	if (domain)
		memcpy(domain, e + SPARE_GRANT_SIZE, BROKER_DOMAIN_LEN);
}

int broker_donors_req_encode(const struct broker_donors_req *m, uint8_t *out, size_t cap)
{
	if (cap < BROKER_DONORS_REQ_SIZE)
		return -ENOSPC;
	memset(out, 0, BROKER_DONORS_REQ_SIZE);
	put32(out, m->start);
	return BROKER_DONORS_REQ_SIZE;
}

int broker_donors_req_decode(const uint8_t *in, size_t len, struct broker_donors_req *m)
{
	if (len != BROKER_DONORS_REQ_SIZE || !zero(in + 4, 4))
		return -EBADMSG;
	m->start = get32(in);
	return 0;
}

int broker_donors_rep_encode(uint32_t total, uint32_t next, uint16_t n,
			     const struct broker_donor_info *v, uint8_t *out, size_t cap)
{
	unsigned int i;
	uint8_t *e;

	if (n > BROKER_DONORS_PAGE || next > total)
		return -EINVAL;
	if (cap < BROKER_DONORS_REP_SIZE(n))
		return -ENOSPC;
	memset(out, 0, BROKER_DONORS_REP_HDR);
	put32(out, total);
	put32(out + 4, next);
	put16(out + 8, n);
	for (i = 0; i < n; i++) {
		e = out + BROKER_DONORS_REP_SIZE(i);
		if (v[i].live > 1 || broker_donor_encode(&v[i].d, e, BROKER_DONOR_SIZE) < 0)
			return -EINVAL;
		memset(e + BROKER_DONOR_SIZE, 0, 16);
		put64(e + BROKER_DONOR_SIZE, v[i].hb_age_ms);
		e[BROKER_DONOR_SIZE + 8] = v[i].live;
	}
	return (int)BROKER_DONORS_REP_SIZE(n);
}

int broker_donors_rep_decode(const uint8_t *in, size_t len, struct broker_donors_rep *m)
{
	struct broker_donor d;
	const uint8_t *e;
	unsigned int i;

	if (len < BROKER_DONORS_REP_HDR || !zero(in + 10, 6))
		return -EBADMSG;
	m->total = get32(in);
	m->next = get32(in + 4);
	m->n = get16(in + 8);
	if (m->n > BROKER_DONORS_PAGE || m->next > m->total ||
	    len != BROKER_DONORS_REP_SIZE(m->n))
		return -EBADMSG;
	for (i = 0; i < m->n; i++) {
		e = in + BROKER_DONORS_REP_SIZE(i);
		if (broker_donor_decode(e, BROKER_DONOR_SIZE, &d) ||
		    e[BROKER_DONOR_SIZE + 8] > 1 || !zero(e + BROKER_DONOR_SIZE + 9, 7))
			return -EBADMSG;
	}
	m->entries = in + BROKER_DONORS_REP_HDR;
	return 0;
}

void broker_donors_rep_entry(const struct broker_donors_rep *m, unsigned int i,
			     struct broker_donor_info *out)
{
	const uint8_t *e = m->entries + (size_t)i * BROKER_DONORS_ENTRY;

	broker_donor_decode(e, BROKER_DONOR_SIZE, &out->d);	/* checked by decode */
	out->hb_age_ms = get64(e + BROKER_DONOR_SIZE);
	out->live = e[BROKER_DONOR_SIZE + 8];
}

static bool text_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

int broker_error_encode(const struct broker_error *m, uint8_t *out, size_t cap)
{
	size_t n = strnlen(m->text, sizeof(m->text));

	if (m->code < 1 || m->code > BROKER_E_MAX || n > BROKER_ERR_TEXT_MAX ||
	    !text_ok(m->text, n))
		return -EINVAL;
	if (cap < 8 + n)
		return -ENOSPC;
	put32(out, m->code);
	put16(out + 4, (uint16_t)n);
	put16(out + 6, 0);
	memcpy(out + 8, m->text, n);
	return (int)(8 + n);
}

int broker_error_decode(const uint8_t *in, size_t len, struct broker_error *m)
{
	size_t n;

	if (len < 8 || get16(in + 6))
		return -EBADMSG;
	m->code = get32(in);
	n = get16(in + 4);
	if (m->code < 1 || m->code > BROKER_E_MAX || n > BROKER_ERR_TEXT_MAX ||
	    len != 8 + n || !text_ok((const char *)in + 8, n))
		return -EBADMSG;
	memcpy(m->text, in + 8, n);
	m->text[n] = 0;
	return 0;
}

const char *broker_type_name(unsigned int type)
{
	static const char *const names[] = {
		[BROKER_CHALLENGE] = "CHALLENGE", [BROKER_HELLO] = "HELLO",
		[BROKER_WELCOME] = "WELCOME", [BROKER_REGISTER] = "REGISTER",
		[BROKER_HEARTBEAT] = "HEARTBEAT", [BROKER_ACK] = "ACK",
		[BROKER_GRANT_REQ] = "GRANT_REQ", [BROKER_GRANT_REP] = "GRANT_REP",
		[BROKER_ERROR] = "ERROR", [BROKER_RENEW_REQ] = "RENEW_REQ",
		[BROKER_MOVE_REQ] = "MOVE_REQ", [BROKER_RENEW_GRANT] = "RENEW_GRANT",
		[BROKER_ROOM_REQ] = "ROOM_REQ",
		[BROKER_DONORS_REQ] = "DONORS_REQ", [BROKER_DONORS_REP] = "DONORS_REP",
		[BROKER_STRIPE_REQ] = "STRIPE_REQ",
	};

	return type >= 1 && type <= BROKER_TYPE_MAX ? names[type] : "?";
}

const char *broker_err_name(unsigned int code)
{
	static const char *const names[] = {
		[BROKER_E_BAD_FRAME] = "bad-frame", [BROKER_E_VERSION] = "version",
		[BROKER_E_TOO_BIG] = "too-big", [BROKER_E_AUTH_REQUIRED] = "auth-required",
		[BROKER_E_AUTH_FAILED] = "auth-failed", [BROKER_E_BAD_REQUEST] = "bad-request",
		[BROKER_E_NO_SPACE] = "no-space", [BROKER_E_INTERNAL] = "internal",
	};

	return code >= 1 && code <= BROKER_E_MAX ? names[code] : "?";
}

#define BROKER_AUTH_LABEL	"spare-broker-v1"
#define BROKER_TRANSCRIPT_LEN	(16 + 1 + 1 + BROKER_NAME_LEN + BROKER_ID_LEN + 2 * BROKER_NONCE_LEN)

void broker_auth_mac(uint8_t mac[BROKER_MAC_LEN], const uint8_t key[BROKER_KEY_LEN],
		     unsigned int dir, unsigned int role, const char name[BROKER_NAME_LEN],
		     const char broker_id[BROKER_ID_LEN],
		     const uint8_t peer_nonce[BROKER_NONCE_LEN],
		     const uint8_t broker_nonce[BROKER_NONCE_LEN])
{
	uint8_t t[BROKER_TRANSCRIPT_LEN], *p = t;
	crypto_auth_hmacsha256_state st;

	memset(t, 0, sizeof(t));
	memcpy(p, BROKER_AUTH_LABEL, sizeof(BROKER_AUTH_LABEL) - 1);
	p += 16;
	*p++ = (uint8_t)dir;
	*p++ = (uint8_t)role;
	memcpy(p, name, BROKER_NAME_LEN);
	p += BROKER_NAME_LEN;
	memcpy(p, broker_id, BROKER_ID_LEN);
	p += BROKER_ID_LEN;
	memcpy(p, peer_nonce, BROKER_NONCE_LEN);
	p += BROKER_NONCE_LEN;
	memcpy(p, broker_nonce, BROKER_NONCE_LEN);
	crypto_auth_hmacsha256_init(&st, key, BROKER_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, t, sizeof(t));
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

bool broker_auth_mac_ok(const uint8_t mac[BROKER_MAC_LEN], const uint8_t key[BROKER_KEY_LEN],
			unsigned int dir, unsigned int role, const char name[BROKER_NAME_LEN],
			const char broker_id[BROKER_ID_LEN],
			const uint8_t peer_nonce[BROKER_NONCE_LEN],
			const uint8_t broker_nonce[BROKER_NONCE_LEN])
{
	uint8_t want[BROKER_MAC_LEN];
	bool ok;

	broker_auth_mac(want, key, dir, role, name, broker_id, peer_nonce, broker_nonce);
	ok = sodium_memcmp(want, mac, BROKER_MAC_LEN) == 0;
	sodium_memzero(want, sizeof(want));
	return ok;
}
