/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-broker wire protocol (Documentation/protocol.md, "Broker
 * protocol"): framing, message bodies, and the HMAC challenge-response that
 * authenticates a peer before the broker changes any state.
 *
 * TCP. Every frame is a 16-byte header followed by exactly `len` body bytes
 * (len <= BROKER_MAX_BODY). All integers little-endian; reserved fields are
 * zero on send and checked on receipt; strings are NUL padded in fixed
 * fields, with at least one NUL. Any check that fails is a protocol error:
 * the broker answers ERROR and closes the connection.
 *
 * Pure codec: no I/O, no allocation. The MAC functions use libsodium.
 */
#ifndef BROKER_PROTO_H
#define BROKER_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_grant.h"	/* uapi */

#define BROKER_MAGIC		0x31524253U	/* "SBR1" little-endian */
#define BROKER_VERSION		2	/* 2: GRANT_REP carries each donor's domain */
#define BROKER_HDR_SIZE		16
#define BROKER_MAX_BODY		(64 * 1024)
#define BROKER_MAX_FRAME	(BROKER_HDR_SIZE + BROKER_MAX_BODY)
#define BROKER_DEFAULT_PORT	18517

#define BROKER_NONCE_LEN	16
#define BROKER_ID_LEN		16	/* broker and donor ids */
#define BROKER_NAME_LEN		64	/* peer (host) name, as in host-keys */
#define BROKER_ADDR_LEN		SPARE_GRANT_ADDR_LEN
#define BROKER_DOMAIN_LEN	32	/* failure-domain label */
#define BROKER_MAC_LEN		32
#define BROKER_KEY_LEN		32
#define BROKER_ERR_TEXT_MAX	200

/* Limits of one GRANT_REQ. */
#define BROKER_MAX_SLABS	64
#define BROKER_MAX_COPIES	8
#define BROKER_MAX_GRANTS	128	/* slabs * copies */
/* Limits of one STRIPE_REQ: K data + R parity splits per stripe. */
#define BROKER_MAX_SPLITS	10	/* K + R: 8 + 2 */

enum broker_msg_type {
	BROKER_CHALLENGE	= 1,	/* broker -> peer, on connect */
	BROKER_HELLO		= 2,	/* peer -> broker: who, and proof */
	BROKER_WELCOME		= 3,	/* broker -> peer: broker's proof */
	BROKER_REGISTER		= 4,	/* donor -> broker */
	BROKER_HEARTBEAT	= 5,	/* donor -> broker */
	BROKER_ACK		= 6,	/* broker -> donor */
	BROKER_GRANT_REQ	= 7,	/* client -> broker */
	BROKER_GRANT_REP	= 8,	/* broker -> client */
	BROKER_ERROR		= 9,	/* broker -> peer; then closes */
	BROKER_RENEW_REQ	= 10,	/* client -> broker: grants on a given donor */
	BROKER_MOVE_REQ		= 11,	/* client -> broker: a grant on a donor not in a set */
	BROKER_RENEW_GRANT	= 12,	/* client -> broker: these grants, a new expiry */
	BROKER_ROOM_REQ		= 13,	/* client -> broker: new slabs on a given donor */
	BROKER_DONORS_REQ	= 14,	/* admin -> broker: the donors it knows, a page */
	BROKER_DONORS_REP	= 15,	/* broker -> admin */
	BROKER_STRIPE_REQ	= 16,	/* client -> broker: K+R splits on a coding group */
	BROKER_TYPE_MAX		= 16,
};

enum broker_role {
	BROKER_ROLE_DONOR	= 1,
	BROKER_ROLE_CLIENT	= 2,
	BROKER_ROLE_ADMIN	= 3,	/* reads the broker's state; changes nothing */
};

enum broker_err {
	BROKER_E_BAD_FRAME	= 1,	/* bad magic, type, length or field */
	BROKER_E_VERSION	= 2,	/* protocol version not supported */
	BROKER_E_TOO_BIG	= 3,	/* frame longer than BROKER_MAX_FRAME */
	BROKER_E_AUTH_REQUIRED	= 4,	/* request before authentication */
	BROKER_E_AUTH_FAILED	= 5,	/* unknown peer or wrong proof */
	BROKER_E_BAD_REQUEST	= 6,	/* well formed but not allowed */
	BROKER_E_NO_SPACE	= 7,	/* not enough donors / domains */
	BROKER_E_INTERNAL	= 8,
	BROKER_E_MAX		= 8,
};

enum broker_auth_dir {
	BROKER_DIR_PEER		= 1,
	BROKER_DIR_BROKER	= 2,
};

struct broker_hdr {
	uint32_t	magic;
	uint16_t	version;
	uint16_t	type;
	uint32_t	seq;	/* sender's; replies echo the request's */
	uint32_t	len;	/* body bytes */
};

struct broker_challenge {
	uint8_t	nonce[BROKER_NONCE_LEN];
	char	broker_id[BROKER_ID_LEN];
};
#define BROKER_CHALLENGE_SIZE	32

struct broker_hello {
	uint8_t	role;			/* enum broker_role */
	char	name[BROKER_NAME_LEN];	/* the peer's key name */
	uint8_t	nonce[BROKER_NONCE_LEN];
	uint8_t	mac[BROKER_MAC_LEN];
};
#define BROKER_HELLO_SIZE	(8 + BROKER_NAME_LEN + BROKER_NONCE_LEN + BROKER_MAC_LEN)

struct broker_welcome {
	uint8_t	mac[BROKER_MAC_LEN];
};
#define BROKER_WELCOME_SIZE	BROKER_MAC_LEN

/*
 * REGISTER and HEARTBEAT share this body. flags (byte 13, reserved and
 * zero before it was added): BROKER_DONOR_F_GRANT_V3, the donor takes
 * version 3 grants (per-donor MAC; Documentation/protocol.md, "Grants");
 * any other bit is a bad frame. A broker that does not know the flag
 * refuses it as a non-zero reserved byte, so a donor sets it only when
 * told to (spared's grant-v3).
 */
#define BROKER_DONOR_F_GRANT_V3	0x01
#define BROKER_DONOR_F_ALL	BROKER_DONOR_F_GRANT_V3
struct broker_donor {
	uint64_t	free_slabs;
	uint32_t	hb_interval_ms;	/* donor's heartbeat period, > 0 */
	uint8_t		slab_shift;
	uint8_t		flags;		/* BROKER_DONOR_F_* */
	char		donor_id[BROKER_ID_LEN];
	char		addr[BROKER_ADDR_LEN];
	char		domain[BROKER_DOMAIN_LEN];
};
#define BROKER_DONOR_SIZE	(16 + BROKER_ID_LEN + BROKER_ADDR_LEN + BROKER_DOMAIN_LEN)

struct broker_ack {
	uint32_t	donors;		/* donors the broker knows now */
	uint32_t	expire_ms;	/* forgets this donor after this silence */
};
#define BROKER_ACK_SIZE		8

struct broker_grant_req {
	uint16_t	slabs;		/* 1..BROKER_MAX_SLABS */
	uint16_t	copies;		/* 1..BROKER_MAX_COPIES */
	uint32_t	lease_s;	/* 0: broker's default; else capped by it */
};
#define BROKER_GRANT_REQ_SIZE	8

/*
 * STRIPE_REQ: @stripes stripes of an erasure-coded device, each K data and
 * R parity slabs on K+R distinct donors in distinct failure domains (where
 * the broker's live donors are in more than one), all on one of the
 * broker's coding groups (Documentation/ec-placement.md). Answered by a
 * GRANT_REP of @stripes slabs x K+R copies: entry s * (K+R) + j is split j
 * of stripe s (j < K data, then parity), each a one-slab grant, debited as
 * GRANT_REQ's are. A broker older than this message answers ERROR
 * (bad frame: an unknown type).
 */
struct broker_stripe_req {
	uint16_t	stripes;	/* 1..BROKER_MAX_SLABS, stripes * (K+R) <= BROKER_MAX_GRANTS */
	uint8_t		k;		/* data splits: 2, 4 or 8 */
	uint8_t		r;		/* parity splits: 1 or 2 */
	uint32_t	lease_s;	/* as GRANT_REQ's */
};
#define BROKER_STRIPE_REQ_SIZE	8

/*
 * RENEW_REQ (legacy): a grant for @slabs slabs on the donor at @donor_addr,
 * naming no grant. Answered by a GRANT_REP of one slab, one copy: a single
 * grant covering @slabs, with the donor's domain. The broker cannot check
 * that the client holds those slabs, so it serves this only with
 * legacy-renew on; RENEW_GRANT renews by naming the grants.
 */
#define BROKER_MAX_RENEW	4096	/* slabs in one RENEW_REQ */
struct broker_renew_req {
	char		donor_addr[BROKER_ADDR_LEN];
	uint32_t	slabs;		/* 1..BROKER_MAX_RENEW */
	uint32_t	lease_s;	/* 0: broker's default; else capped by it */
};
#define BROKER_RENEW_REQ_SIZE	(BROKER_ADDR_LEN + 8)

/*
 * ROOM_REQ: RENEW_REQ's body (broker_renew_req_encode/_decode), asking for
 * @slabs new slabs on the donor at @donor_addr (a monitor's standby slabs,
 * copies moving onto a donor of its device). Answered as RENEW_REQ, but
 * served as GRANT_REQ is: debited from that donor's free count, never
 * beyond it, within the client's share and grant caps, whatever
 * legacy-renew says.
 */

/*
 * RENEW_GRANT: the client sends back @n grants the broker issued it (1..
 * BROKER_MAX_RENEW_GRANTS, the grant bodies as it got them) and gets each
 * re-issued: the same grant id, client, donor, address and slab count,
 * a new not_before and expiry, a new tag. Answered by a GRANT_REP of @n
 * slabs x 1 copy, entry i the renewal of grant i. RENEW_REQ (type 10),
 * which named only a donor and a count, is refused by a broker that has
 * legacy-renew off.
 */
#define BROKER_MAX_RENEW_GRANTS	BROKER_MAX_SLABS	/* grants in one RENEW_GRANT */
#define BROKER_RENEW_GRANT_HDR	8
#define BROKER_RENEW_GRANT_SIZE(n) (BROKER_RENEW_GRANT_HDR + (size_t)(n) * SPARE_GRANT_SIZE)
/*
 * RENEW_GRANT's flags (protocol 3; version 2 sent zero there): with
 * BROKER_RENEW_F_MOVE the answer carries a move mark per grant
 * (GRANT_REP with BROKER_REP_F_MOVE): "Taking excess back" in
 * Documentation/protocol.md. A client that does not set it gets version
 * 2's answer. A broker older than protocol 3 refuses a non-zero flags
 * field as a malformed RENEW_GRANT.
 */
#define BROKER_RENEW_F_MOVE	0x0001U
#define BROKER_RENEW_F_ALL	BROKER_RENEW_F_MOVE
struct broker_renew_grant {
	uint32_t		lease_s;	/* 0: broker's default; else capped by it */
	uint16_t		n;		/* 1..BROKER_MAX_RENEW_GRANTS */
	uint16_t		flags;		/* BROKER_RENEW_F_* */
	const uint8_t		*grants;	/* decode: points into the body */
};

/*
 * MOVE_REQ: one grant for @slabs slabs on a live donor whose address is
 * none of avoid[0 .. n_avoid) (the donors holding a copy of the slab
 * already, and the one evicting it), on one whose failure domain is none
 * of avoid_domains[0 .. n_avoid_domains) if any can take @slabs (the
 * domains of the copies that stay). Answered as RENEW_REQ is (a GRANT_REP
 * of one slab, one copy, with the donor's domain), but it debits @slabs
 * from that donor's free count, as GRANT_REQ does. Entries at and after
 * n_avoid (n_avoid_domains) are all zero on the wire; encode writes them
 * so whatever the struct holds there, decode leaves them zero.
 */
#define BROKER_MAX_AVOID	8	/* addresses, and domains, in one MOVE_REQ */
struct broker_move_req {
	uint32_t	slabs;		/* 1..BROKER_MAX_RENEW */
	uint32_t	lease_s;	/* 0: broker's default; else capped by it */
	uint8_t		n_avoid;	/* 0..BROKER_MAX_AVOID */
	uint8_t		n_avoid_domains;	/* 0..BROKER_MAX_AVOID */
	char		avoid[BROKER_MAX_AVOID][BROKER_ADDR_LEN];
	char		avoid_domains[BROKER_MAX_AVOID][BROKER_DOMAIN_LEN];
};
#define BROKER_MOVE_REQ_SIZE	(12 + BROKER_MAX_AVOID * (BROKER_ADDR_LEN + BROKER_DOMAIN_LEN))

/*
 * GRANT_REP: header fields, then slabs * copies entries, slab-major (copy c
 * of slab s is entry s * copies + c): each a grant and the failure-domain
 * label of the donor it names, as that donor reports it in its heartbeats.
 */
struct broker_grant_rep {
	uint16_t		slabs;
	uint16_t		copies;
	uint32_t		flags;		/* BROKER_REP_F_* */
	uint64_t		move;		/* with BROKER_REP_F_MOVE: bit i, entry i */
	const uint8_t		*entries;	/* decode: points into the body */
};
/*
 * GRANT_REP's flags (protocol 3; zero in version 2). BROKER_REP_F_MOVE:
 * the answer to a RENEW_GRANT that asked for marks (BROKER_RENEW_F_MOVE),
 * one copy per entry, followed by a 64-bit little-endian bitmap, bit i set
 * when the broker asks that entry i's slab copy leave the pool (an
 * advisory mark: the grant is renewed all the same). Sent only to a
 * client that asked, so a version-2 client never sees it.
 */
#define BROKER_REP_F_MOVE	0x00000001U
#define BROKER_REP_MOVE_SIZE	8
#define BROKER_GRANT_REP_HDR	8
#define BROKER_GRANT_REP_ENTRY	(SPARE_GRANT_SIZE + BROKER_DOMAIN_LEN)	/* 288 */
#define BROKER_GRANT_REP_SIZE(n) (BROKER_GRANT_REP_HDR + (size_t)(n) * BROKER_GRANT_REP_ENTRY)

/*
 * DONORS_REQ (admin only): the donors the broker knows, live or not yet
 * forgotten, from table index @start. Answered by a DONORS_REP of at most
 * BROKER_DONORS_PAGE entries; the admin asks again from @next until @next
 * is @total. The table is soft state, so a page boundary may skip or
 * repeat a donor that registers or is forgotten between two requests.
 */
#define BROKER_DONORS_PAGE	256
struct broker_donors_req {
	uint32_t	start;
};
#define BROKER_DONORS_REQ_SIZE	8

/*
 * One donor as the broker knows it: what it declared (as REGISTER's body,
 * with free_slabs the broker's own count: the donor's last report less
 * what was granted since), how long ago its last heartbeat came, and
 * whether it is live (counted for placement).
 */
struct broker_donor_info {
	struct broker_donor	d;
	uint64_t		hb_age_ms;
	uint8_t			live;	/* 0 or 1 */
};
#define BROKER_DONORS_REP_HDR	16
#define BROKER_DONORS_ENTRY	(BROKER_DONOR_SIZE + 16)	/* 144 */
#define BROKER_DONORS_REP_SIZE(n) (BROKER_DONORS_REP_HDR + (size_t)(n) * BROKER_DONORS_ENTRY)
struct broker_donors_rep {
	uint32_t		total;	/* donors in the table */
	uint32_t		next;	/* start of the next page; total at the end */
	uint16_t		n;	/* entries here, <= BROKER_DONORS_PAGE */
	const uint8_t		*entries;	/* decode: points into the body */
};

struct broker_error {
	uint32_t	code;		/* enum broker_err */
	char		text[BROKER_ERR_TEXT_MAX + 1];
};

/* Header. decode: 0, -EBADMSG (magic, type, reserved), -EPROTONOSUPPORT
 * (version), -EMSGSIZE (len > BROKER_MAX_BODY). */
void broker_hdr_encode(uint8_t out[BROKER_HDR_SIZE], uint16_t type, uint32_t seq,
		       uint32_t len);
int broker_hdr_decode(const uint8_t in[BROKER_HDR_SIZE], struct broker_hdr *h);

/*
 * Bodies. encode writes into out[0..cap) and returns the body size, or
 * -EINVAL (bad field) / -ENOSPC (cap too small). decode takes the exact
 * body and returns 0 or -EBADMSG.
 */
int broker_challenge_encode(const struct broker_challenge *m, uint8_t *out, size_t cap);
int broker_challenge_decode(const uint8_t *in, size_t len, struct broker_challenge *m);
int broker_hello_encode(const struct broker_hello *m, uint8_t *out, size_t cap);
int broker_hello_decode(const uint8_t *in, size_t len, struct broker_hello *m);
int broker_welcome_encode(const struct broker_welcome *m, uint8_t *out, size_t cap);
int broker_welcome_decode(const uint8_t *in, size_t len, struct broker_welcome *m);
int broker_donor_encode(const struct broker_donor *m, uint8_t *out, size_t cap);
int broker_donor_decode(const uint8_t *in, size_t len, struct broker_donor *m);
int broker_ack_encode(const struct broker_ack *m, uint8_t *out, size_t cap);
int broker_ack_decode(const uint8_t *in, size_t len, struct broker_ack *m);
int broker_grant_req_encode(const struct broker_grant_req *m, uint8_t *out, size_t cap);
int broker_grant_req_decode(const uint8_t *in, size_t len, struct broker_grant_req *m);
int broker_stripe_req_encode(const struct broker_stripe_req *m, uint8_t *out, size_t cap);
int broker_stripe_req_decode(const uint8_t *in, size_t len, struct broker_stripe_req *m);
int broker_renew_req_encode(const struct broker_renew_req *m, uint8_t *out, size_t cap);
int broker_renew_req_decode(const uint8_t *in, size_t len, struct broker_renew_req *m);
/*
 * RENEW_GRANT of @n grants (each's form checked, not its tag: the broker
 * checks that). broker_renew_grant_get() copies grant @i (< n) of a
 * decoded RENEW_GRANT out.
 */
int broker_renew_grant_encode(uint32_t lease_s, uint16_t n, const struct spare_grant *grants,
			      uint8_t *out, size_t cap);
/* The same with @flags (BROKER_RENEW_F_*; another bit: -EINVAL). */
int broker_renew_grant_encode_flags(uint32_t lease_s, uint16_t n,
				    const struct spare_grant *grants, uint16_t flags,
				    uint8_t *out, size_t cap);
int broker_renew_grant_decode(const uint8_t *in, size_t len, struct broker_renew_grant *m);
void broker_renew_grant_get(const struct broker_renew_grant *m, unsigned int i,
			    struct spare_grant *grant);
int broker_move_req_encode(const struct broker_move_req *m, uint8_t *out, size_t cap);
int broker_move_req_decode(const uint8_t *in, size_t len, struct broker_move_req *m);
/*
 * GRANT_REP of @slabs x @copies entries: grants[i] and domains[i] for entry
 * i. encode checks each grant's form and each domain string as decode
 * does; decode checks each grant's form (not its tag: the client cannot).
 * broker_grant_rep_entry() copies entry @i (< slabs * copies) of a decoded
 * GRANT_REP out; either of @grant and @domain may be NULL.
 */
int broker_grant_rep_encode(uint16_t slabs, uint16_t copies, const struct spare_grant *grants,
			    const char (*domains)[BROKER_DOMAIN_LEN], uint8_t *out, size_t cap);
/*
 * GRANT_REP of @n (1..BROKER_MAX_RENEW_GRANTS) slabs x 1 copy with move
 * marks move[0 .. n) (BROKER_REP_F_MOVE): the answer to a RENEW_GRANT that
 * asked for them. Decode reads either form: flags 0 (move 0), or
 * BROKER_REP_F_MOVE with one copy per slab and the bitmap's bits only
 * below the count; anything else is -EBADMSG.
 */
int broker_grant_rep_encode_move(uint16_t n, const struct spare_grant *grants,
				 const char (*domains)[BROKER_DOMAIN_LEN], const bool *move,
				 uint8_t *out, size_t cap);
int broker_grant_rep_decode(const uint8_t *in, size_t len, struct broker_grant_rep *m);
void broker_grant_rep_entry(const struct broker_grant_rep *m, unsigned int i,
			    struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN]);
int broker_donors_req_encode(const struct broker_donors_req *m, uint8_t *out, size_t cap);
int broker_donors_req_decode(const uint8_t *in, size_t len, struct broker_donors_req *m);
/*
 * DONORS_REP of @n entries v[0 .. n): encode checks each as REGISTER's
 * encode does, and next <= total, n <= BROKER_DONORS_PAGE; decode checks
 * every entry, so broker_donors_rep_entry() (entry @i < n) cannot fail.
 */
int broker_donors_rep_encode(uint32_t total, uint32_t next, uint16_t n,
			     const struct broker_donor_info *v, uint8_t *out, size_t cap);
int broker_donors_rep_decode(const uint8_t *in, size_t len, struct broker_donors_rep *m);
void broker_donors_rep_entry(const struct broker_donors_rep *m, unsigned int i,
			     struct broker_donor_info *out);
int broker_error_encode(const struct broker_error *m, uint8_t *out, size_t cap);
int broker_error_decode(const uint8_t *in, size_t len, struct broker_error *m);

/* Name of a message type / error code, for logs. */
const char *broker_type_name(unsigned int type);
const char *broker_err_name(unsigned int code);

/* Is @s a valid fixed-field string of @len bytes ("" not allowed)? */
bool broker_str_ok(const char *s, size_t len);

/*
 * Proofs: HMAC-SHA-256(key, "spare-broker-v1" (16, NUL padded) | dir |
 * role | name (64) | broker_id (16) | peer nonce | broker nonce).
 */
void broker_auth_mac(uint8_t mac[BROKER_MAC_LEN], const uint8_t key[BROKER_KEY_LEN],
		     unsigned int dir, unsigned int role, const char name[BROKER_NAME_LEN],
		     const char broker_id[BROKER_ID_LEN],
		     const uint8_t peer_nonce[BROKER_NONCE_LEN],
		     const uint8_t broker_nonce[BROKER_NONCE_LEN]);
bool broker_auth_mac_ok(const uint8_t mac[BROKER_MAC_LEN], const uint8_t key[BROKER_KEY_LEN],
			unsigned int dir, unsigned int role, const char name[BROKER_NAME_LEN],
			const char broker_id[BROKER_ID_LEN],
			const uint8_t peer_nonce[BROKER_NONCE_LEN],
			const uint8_t broker_nonce[BROKER_NONCE_LEN]);

#endif /* BROKER_PROTO_H */
