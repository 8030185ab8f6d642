/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grants (kmod/uapi/spare_grant.h) for userspace: encode, decode, sign,
 * verify, the broker's and donors' grant keys, and the donor's replay
 * cache. Version 2 grants are signed with Ed25519 (libsodium's
 * crypto_sign_detached); version 1 grants (deprecated) carry an HMAC-SHA-256
 * tag, compared in constant time. Programs that use this file link
 * -lsodium. Nothing here logs, and no error text quotes a key. (Named
 * spare_grant_lib.h: "spare_grant.h" is the uapi header on the include
 * path.)
 */
#ifndef SPARE_GRANT_LIB_H
#define SPARE_GRANT_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_grant.h"	/* uapi: kmod/uapi/spare_grant.h */

/* A grant in host byte order. Strings are NUL terminated. */
struct spare_grant_info {
	uint8_t		id[SPARE_GRANT_ID_LEN];
	char		client_id[SPARE_GRANT_CLIENT_LEN];
	char		donor_id[SPARE_GRANT_DONOR_LEN];
	char		donor_addr[SPARE_GRANT_ADDR_LEN];
	uint32_t	slabs;
	uint32_t	key_id;
	uint64_t	not_before;
	uint64_t	expiry;
	uint16_t	version;	/* decode fills it; encode ignores it */
};

/* A version 1 grant key (HMAC), as the broker and the donors both hold it. */
struct spare_grant_key {
	uint32_t	id;
	uint8_t		key[SPARE_GRANT_KEY_LEN];
};

/* A broker's public key (version 2), as donors and clients hold it. */
struct spare_grant_pubkey {
	uint32_t	id;
	uint8_t		pk[SPARE_GRANT_PUBKEY_LEN];
};

/* The broker's Ed25519 signing key: secret (from a 32-byte seed) and public. */
struct spare_grant_signkey {
	uint32_t	id;
	uint8_t		sk[64];
	uint8_t		pk[SPARE_GRANT_PUBKEY_LEN];
};

/* Public keys a host trusts at once (rotation: old and new). */
#define SPARE_GRANT_MAX_PUBKEYS	16

/*
 * Every grant key a program holds. A donor: pub[] (and, while version 1
 * grants are still accepted, hmac). The broker: sign (issues version 2),
 * or only hmac (issues version 1, deprecated); it checks the grants it is
 * asked to renew with sign's public key, pub[] and hmac.
 */
struct spare_grant_keys {
	/* version 3: this donor's own grant key (spare_grant_v3_key()) */
	bool				has_v3;
	char				v3_donor[SPARE_GRANT_DONOR_LEN];
	uint8_t				v3_key[SPARE_GRANT_KEY_LEN];
	bool				has_hmac;
	struct spare_grant_key		hmac;
	bool				has_sign;
	struct spare_grant_signkey	sign;
	unsigned int			npub;
	struct spare_grant_pubkey	pub[SPARE_GRANT_MAX_PUBKEYS];
};

/* Results of verification; each refusal has its own code. */
enum spare_grant_result {
	SPARE_GRANT_OK		 = 0,
	SPARE_GRANT_MALFORMED	 = -1,	/* bad magic/version/size/strings/reserved */
	SPARE_GRANT_UNKNOWN_KEY	 = -2,	/* key_id names no key we hold */
	SPARE_GRANT_FORGED	 = -3,	/* tag does not match */
	SPARE_GRANT_NOT_YET	 = -4,	/* now < not_before */
	SPARE_GRANT_EXPIRED	 = -5,	/* now >= expiry */
	SPARE_GRANT_WRONG_DONOR	 = -6,	/* issued for another donor */
	SPARE_GRANT_WRONG_CLIENT = -7,	/* issued for another client */
	SPARE_GRANT_REPLAYED	 = -8,	/* grant id seen before */
	SPARE_GRANT_CACHE_FULL	 = -9,	/* replay cache full of live grants */
	SPARE_GRANT_OWNER_FULL	 = -10,	/* this client holds its share of the cache */
	SPARE_GRANT_V1_OFF	 = -11,	/* a version 1 grant, and no version 1 key */
	SPARE_GRANT_V3_OFF	 = -12,	/* a version 3 grant, and no broker key here */
};

/*
 * Version 3 (per-donor MAC): the label of the key derivation, and the
 * derivation: @kg = HMAC-SHA-256(key @kd, "spare-grant-v3" || donor_id
 * NUL padded to SPARE_GRANT_DONOR_LEN bytes), @kd the donor's 32-byte
 * secret at the brokers (its broker-key-file, the broker's host-keys entry
 * for it). 0, or SPARE_GRANT_MALFORMED if @donor_id is empty or does not
 * fit its field.
 */
#define SPARE_GRANT_V3_LABEL	"spare-grant-v3"
int spare_grant_v3_key(uint8_t kg[SPARE_GRANT_KEY_LEN], const uint8_t kd[SPARE_GRANT_KEY_LEN],
		       const char *donor_id);

/*
 * Encode and tag a version 3 grant with @kg (the key of info->donor_id,
 * from spare_grant_v3_key()); key_id is 0 whatever @info says. 0 or
 * SPARE_GRANT_MALFORMED.
 */
int spare_grant_v3_issue(const struct spare_grant_info *info,
			 const uint8_t kg[SPARE_GRANT_KEY_LEN], struct spare_grant *g);

/*
 * Does version 3 grant @g carry the tag of @kg (constant-time compare)?
 * Only the tag: the form is spare_grant_decode()'s. 0 or SPARE_GRANT_FORGED.
 */
int spare_grant_v3_tag_check(const struct spare_grant *g, const uint8_t kg[SPARE_GRANT_KEY_LEN]);

/*
 * A donor's keys accept version 3 grants naming @donor_id, tagged with the
 * key derived from @kd (its broker key). 0 or SPARE_GRANT_MALFORMED.
 */
int spare_grant_keys_set_v3(struct spare_grant_keys *k, const uint8_t kd[SPARE_GRANT_KEY_LEN],
			    const char *donor_id);

/* A short text for a result ("forged", "expired", ...). */
const char *spare_grant_strerror(int result);

/*
 * Fill @g from @info (zero reserved, magic, version, size), no tag yet.
 * Returns 0, or SPARE_GRANT_MALFORMED if a string does not fit (it must
 * leave its field's last byte NUL), slabs is 0, or expiry <= not_before.
 */
int spare_grant_encode(const struct spare_grant_info *info, struct spare_grant *g);

/*
 * Structural checks and conversion to host order; the tag is NOT checked
 * (use spare_grant_verify). Returns 0 or SPARE_GRANT_MALFORMED.
 */
int spare_grant_decode(const struct spare_grant *g, struct spare_grant_info *info);

/* Sign @g in place with @key (also sets key_id to key->id). Version 1. */
void spare_grant_sign(struct spare_grant *g, const struct spare_grant_key *key);

/* Encode and sign a version 1 grant: 0 or SPARE_GRANT_MALFORMED. */
int spare_grant_issue(const struct spare_grant_info *info,
		      const struct spare_grant_key *key, struct spare_grant *g);

/* The signing key (and its public half) from a 32-byte secret seed. */
void spare_grant_signkey_from_seed(struct spare_grant_signkey *k, uint32_t id,
				   const uint8_t seed[32]);
/* The public half of @k. */
struct spare_grant_pubkey spare_grant_signkey_public(const struct spare_grant_signkey *k);

/* Encode and sign a version 2 grant (key_id = k->id): 0 or SPARE_GRANT_MALFORMED. */
int spare_grant_issue_ed25519(const struct spare_grant_info *info,
			      const struct spare_grant_signkey *k, struct spare_grant *g);

/*
 * Issue with what @k holds: version 2 with sign, else version 1 with hmac.
 * 0 or SPARE_GRANT_MALFORMED (also when @k holds neither).
 */
int spare_grant_keys_issue(const struct spare_grant_keys *k,
			   const struct spare_grant_info *info, struct spare_grant *g);

/*
 * spare_grant_keys_issue() in two steps, so that the signing (the costly
 * part of a version 2 grant) can run elsewhere (spare_grant_pool.h):
 * encode as @k would issue it (version, key id), unsigned, with
 * spare_grant_keys_issue()'s returns; then seal (sign) @g with the same @k.
 * The grant id is in @g after the first step. Seal leaves a version 3
 * grant as it is (tagged when issued: spare_grant_v3_issue()).
 */
int spare_grant_keys_encode(const struct spare_grant_keys *k,
			    const struct spare_grant_info *info, struct spare_grant *g);
void spare_grant_keys_seal(const struct spare_grant_keys *k, struct spare_grant *g);

/* A fresh random grant id. */
void spare_grant_new_id(uint8_t id[SPARE_GRANT_ID_LEN]);

/* Lowercase hex (SPARE_GRANT_HEX_LEN chars + NUL) and back. */
void spare_grant_to_hex(const struct spare_grant *g, char *hex, size_t len);
int spare_grant_from_hex(const char *hex, struct spare_grant *g);

/*
 * A grant as a client takes it (a line of a grant file, `--grant HEX`):
 * spare_grant_from_hex(), then spare_grant_decode() to see that its fields
 * are well formed (not verified: the donor does that). 0 or
 * SPARE_GRANT_MALFORMED; nothing decoded is left on the stack.
 */
int spare_grant_parse_hex(const char *hex, struct spare_grant *g);

/*
 * A grant file: grants as lowercase hex, one per line, blank lines and '#'
 * comments skipped (what `sparectl device create --backend=ublk broker=...`
 * writes for spare-ublk). Appends to @g[*n...] up to @max in all; every
 * grant is decoded (not verified: the donor does that). 0, or -1 with a
 * reason in @why that names the line, never its text (a grant is a
 * credential). Nothing read is left on the stack.
 */
int spare_grant_file_read(const char *path, struct spare_grant *g, uint32_t max,
			  uint32_t *n, char *why, size_t whylen);

/*
 * The donor's replay cache: the ids of grants accepted, each kept until its
 * expiry. Memory is bounded by the capacity given at init; when it is full
 * of grants that have not expired, new grants are refused
 * (SPARE_GRANT_CACHE_FULL) rather than forgetting one that could be
 * replayed.
 */
struct spare_grant_replay_slot;
struct spare_grant_replay {
	struct spare_grant_replay_slot	*v;
	size_t				cap;	/* power of two */
	size_t				n;
	size_t				max;	/* live entries allowed */
	uint8_t				hkey[16];
};

/* 0, or -ENOMEM/-EINVAL. @max_entries >= 1. */
int spare_grant_replay_init(struct spare_grant_replay *rc, size_t max_entries);
void spare_grant_replay_free(struct spare_grant_replay *rc);
/* Drop entries whose expiry has passed. */
void spare_grant_replay_purge(struct spare_grant_replay *rc, uint64_t now);
/* Is @id recorded (and not yet expired at @now)? */
bool spare_grant_replay_seen(const struct spare_grant_replay *rc,
			     const uint8_t id[SPARE_GRANT_ID_LEN], uint64_t now);
/* Record @id until @expiry: 0, SPARE_GRANT_REPLAYED or SPARE_GRANT_CACHE_FULL. */
int spare_grant_replay_add(struct spare_grant_replay *rc,
			   const uint8_t id[SPARE_GRANT_ID_LEN], uint64_t expiry,
			   uint64_t now);

/*
 * Verify @g for donor @donor_id and client @client_id at time @now
 * (seconds since the epoch), with any of @keys. Checks in order: form,
 * key, tag (constant time), not-before, expiry, donor, client, and then,
 * if @rc is not NULL, replay: an accepted grant's id is recorded in @rc.
 * @client_id may be NULL to skip the client check (a donor without host
 * authentication does not know the client). Fills @info (may be NULL) on
 * success. Returns SPARE_GRANT_OK or a negative enum spare_grant_result.
 */
int spare_grant_verify(const struct spare_grant *g,
		       const struct spare_grant_key *keys, unsigned int nkeys,
		       const char *donor_id, const char *client_id, uint64_t now,
		       struct spare_grant_replay *rc, struct spare_grant_info *info);

/*
 * As spare_grant_verify(), for either version, with the keys in @k: a
 * version 2 grant is checked with the public key (pub[], or sign's public
 * half) whose id is its key_id (none: SPARE_GRANT_UNKNOWN_KEY); a version 1
 * grant only if @k has an hmac key (else SPARE_GRANT_V1_OFF), with it; a
 * version 3 grant only if @k has a version 3 key (else SPARE_GRANT_V3_OFF),
 * and only one naming k->v3_donor (else SPARE_GRANT_WRONG_DONOR), with it.
 */
int spare_grant_check(const struct spare_grant *g, const struct spare_grant_keys *k,
		      const char *donor_id, const char *client_id, uint64_t now,
		      struct spare_grant_replay *rc, struct spare_grant_info *info);

/*
 * Public keys: "<key_id> <64 hex digits>" lines, '#' comments and blank
 * lines skipped (what `sparectl gen-key --grant` prints). At most @max
 * keys, ids distinct. Appends to @v from *@n. 0, or -1 with a reason that
 * names the line in @why.
 */
int spare_grant_pubkeys_parse(const char *text, struct spare_grant_pubkey *v,
			      unsigned int max, unsigned int *n, char *why, size_t whylen);
/*
 * The same from file @path, which may be world-readable (nothing in it is
 * secret) but must not be writable by group or others (whoever can write
 * it decides which grants are good). @why names the file.
 */
int spare_grant_pubkeys_read(const char *path, struct spare_grant_pubkey *v,
			     unsigned int max, unsigned int *n, char *why, size_t whylen);
/* "<key_id> <64 hex digits>" into @line (at least 80 bytes). */
void spare_grant_pubkey_format(const struct spare_grant_pubkey *p, char *line, size_t len);

/*
 * A program's grant keys from its files ("" or NULL: not given): @hmac_file
 * (version 1 secret, "SPARE-1:..."), @sign_file (the broker's signing key,
 * a "SPARE-1:..." 32-byte seed), both read through spare_key_file_read()
 * and given id @key_id; @pub_file (public keys). 0, or -1 with the reason
 * (naming the file and the setting) in @why. Nothing secret is left on the
 * stack; spare_grant_keys_wipe() wipes @k.
 */
int spare_grant_keys_load(struct spare_grant_keys *k, const char *hmac_file,
			  const char *sign_file, uint32_t key_id, const char *pub_file,
			  char *why, size_t whylen);
void spare_grant_keys_wipe(struct spare_grant_keys *k);

#endif /* SPARE_GRANT_LIB_H */
