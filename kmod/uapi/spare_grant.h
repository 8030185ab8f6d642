/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * spare grant: a lease on donor memory, issued by spare-broker and checked
 * by the donor (spared) when a client maps a slab.
 *
 * A grant says: client <client_id> may map up to <slabs> slabs on donor
 * <donor_id> (reached at <donor_addr>) from <not_before> until <expiry>.
 * The broker signs it; the donor verifies the signature, the time window,
 * that it is the donor named, that the client is the one that
 * authenticated, and that it has not seen grant_id before (replay).
 *
 * Three versions share bytes [0, 192) (the fields up to and including
 * expiry) and differ in the last 64 bytes:
 *  - version 2 (SPARE_GRANT_VERSION_ED25519): sig = Ed25519 signature by the
 *    broker's secret signing key over bytes [0, 192); key_id names the
 *    broker public key to check it with. Donors and clients hold only
 *    public keys, so a donor cannot mint a grant another donor accepts.
 *  - version 1 (SPARE_GRANT_VERSION, deprecated): reserved[32] zero, then
 *    tag = HMAC-SHA-256 over bytes [0, 224) with a secret grant key that the
 *    broker shares with every donor (key_id names it). Any donor holding
 *    that key could mint grants; accepted only while a donor still has a
 *    version 1 key configured (Documentation/protocol.md, "Grants").
 *  - version 3 (SPARE_GRANT_VERSION_DONOR_MAC): reserved[32] zero, then
 *    tag = HMAC-SHA-256 over bytes [0, 224) with a key only the broker and
 *    the one donor named hold: Kg = HMAC-SHA-256(K_D, "spare-grant-v3" ||
 *    donor_id[16]), K_D that donor's secret at the brokers (its
 *    broker-key-file). key_id is 0. Only that donor and the broker can
 *    check it; a donor can mint grants only for itself.
 *
 * Rules:
 *  - every multi-byte field is little-endian;
 *  - a grant is exactly SPARE_GRANT_SIZE bytes; strings are NUL padded and
 *    the last byte of each string field is always NUL;
 *  - versions 1 and 3: reserved bytes are zero on issue and checked on
 *    receipt; version 3: key_id is 0, checked on receipt;
 *  - every reader checks the form with spare_grant_form_check() below.
 *
 * The kernel carries a grant opaque: in MAP, and in configfs
 * slabs/<i>/grant as 2 * SPARE_GRANT_SIZE lowercase hex digits. It checks
 * the form only (any version) and never the signature: the donor does
 * (Documentation/kmod.md, "Grants").
 */
#ifndef _UAPI_SPARE_GRANT_H
#define _UAPI_SPARE_GRANT_H

#include <linux/types.h>
#include <asm/byteorder.h>	/* __le16_to_cpu(), kernel and userspace */

#define SPARE_GRANT_MAGIC	0x31524753U	/* "SGR1" little-endian */
#define SPARE_GRANT_VERSION	1	/* HMAC-SHA-256 tag, deprecated */
#define SPARE_GRANT_VERSION_ED25519	2	/* Ed25519 signature */
#define SPARE_GRANT_VERSION_DONOR_MAC	3	/* HMAC-SHA-256, a key per donor */
#define SPARE_GRANT_SIZE	256
#define SPARE_GRANT_ID_LEN	16	/* random; the replay key */
#define SPARE_GRANT_CLIENT_LEN	64	/* host name, as in a host-keys file */
#define SPARE_GRANT_DONOR_LEN	16	/* donor id, as SPARE_AUTH_ID_LEN */
#define SPARE_GRANT_ADDR_LEN	64	/* "host:port" or "[v6]:port" */
#define SPARE_GRANT_KEY_LEN	32
#define SPARE_GRANT_TAG_LEN	32	/* HMAC-SHA-256 */
#define SPARE_GRANT_SIG_LEN	64	/* Ed25519 */
#define SPARE_GRANT_PUBKEY_LEN	32	/* Ed25519 public key */
#define SPARE_GRANT_HEX_LEN	(2 * SPARE_GRANT_SIZE)

struct spare_grant {
	__le32	magic;				/* SPARE_GRANT_MAGIC */
	__le16	version;			/* SPARE_GRANT_VERSION */
	__le16	size;				/* SPARE_GRANT_SIZE */
	__u8	grant_id[SPARE_GRANT_ID_LEN];
	char	client_id[SPARE_GRANT_CLIENT_LEN];
	char	donor_id[SPARE_GRANT_DONOR_LEN];
	char	donor_addr[SPARE_GRANT_ADDR_LEN];
	__le32	slabs;				/* slabs this grant covers, >= 1 */
	__le32	key_id;				/* which broker key signed it */
	__le64	not_before;			/* seconds since the epoch, UTC */
	__le64	expiry;				/* seconds since the epoch, UTC */
	union {
		__u8	sig[SPARE_GRANT_SIG_LEN];	/* v2: Ed25519 over [0, 192) */
		struct {				/* v1 and v3: */
			__u8	reserved[32];		/* zero */
			__u8	tag[SPARE_GRANT_TAG_LEN]; /* HMAC over [0, 224) */
		};
	};
};

/* Bytes the signature (v2) or the tag (v1, v3) covers. */
#define SPARE_GRANT_SIGNED_LEN_ED25519	(SPARE_GRANT_SIZE - SPARE_GRANT_SIG_LEN)
#define SPARE_GRANT_SIGNED_LEN	(SPARE_GRANT_SIZE - SPARE_GRANT_TAG_LEN)

#ifdef __KERNEL__
static_assert(sizeof(struct spare_grant) == SPARE_GRANT_SIZE);
#else
_Static_assert(sizeof(struct spare_grant) == SPARE_GRANT_SIZE,
	       "struct spare_grant must be SPARE_GRANT_SIZE bytes");
#endif

/* What spare_grant_form_check() finds wrong with a grant's form. */
enum spare_grant_form {
	SPARE_GRANT_FORM_OK = 0,
	SPARE_GRANT_FORM_BAD_MAGIC,	/* not a grant */
	SPARE_GRANT_FORM_BAD_VERSION,	/* a version or size not known */
	SPARE_GRANT_FORM_BAD_FIELD,	/* a string, zero bytes or key_id */
};

/* A string field: not empty, and its last byte NUL. */
static inline int spare_grant_str_ended(const char *field, unsigned int field_len)
{
	return field[0] && field[field_len - 1] == '\0';
}

/**
 * spare_grant_form_check() - the form every reader of a grant checks
 * @grant: the grant's SPARE_GRANT_SIZE bytes, as received
 *
 * The one rule for a grant's form, shared by spare.ko (configfs "grants"),
 * spare-broker's protocol (broker_proto.c) and the grant library
 * (spare_grant_decode()): the magic; version 1, 2 or 3 and the size; each
 * string field not empty and NUL-terminated; versions 1 and 3: the
 * reserved bytes zero (they are version 2's signature); version 3: key_id
 * 0 (its key is the donor's own). Neither the time window, the slab count,
 * the address nor the signature: each caller checks those it needs, and
 * words its own refusal. (Names unlike any program's globals: this is
 * built into every file that includes the header, under -Wshadow.)
 *
 * Return: SPARE_GRANT_FORM_OK, or the first thing wrong.
 */
static inline enum spare_grant_form
spare_grant_form_check(const struct spare_grant *grant)
{
	__u16 ver = __le16_to_cpu(grant->version);
	unsigned int at;

	if (__le32_to_cpu(grant->magic) != SPARE_GRANT_MAGIC)
		return SPARE_GRANT_FORM_BAD_MAGIC;
	if ((ver != SPARE_GRANT_VERSION && ver != SPARE_GRANT_VERSION_ED25519 &&
	     ver != SPARE_GRANT_VERSION_DONOR_MAC) ||
	    __le16_to_cpu(grant->size) != SPARE_GRANT_SIZE)
		return SPARE_GRANT_FORM_BAD_VERSION;
	if (!spare_grant_str_ended(grant->client_id, sizeof(grant->client_id)) ||
	    !spare_grant_str_ended(grant->donor_id, sizeof(grant->donor_id)) ||
	    !spare_grant_str_ended(grant->donor_addr, sizeof(grant->donor_addr)))
		return SPARE_GRANT_FORM_BAD_FIELD;
	if (ver != SPARE_GRANT_VERSION_ED25519)
		for (at = 0; at < sizeof(grant->reserved); at++)
			if (grant->reserved[at])
				return SPARE_GRANT_FORM_BAD_FIELD;
	if (ver == SPARE_GRANT_VERSION_DONOR_MAC && grant->key_id)
		return SPARE_GRANT_FORM_BAD_FIELD;
	return SPARE_GRANT_FORM_OK;
}

#endif /* _UAPI_SPARE_GRANT_H */
