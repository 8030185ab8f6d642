/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grants (kmod/uapi/spare_grant.h) for userspace: encode, decode, sign,
 * verify, and the donor's replay cache. The HMAC is libsodium's; the tag is
 * compared in constant time. Programs that use this file link -lsodium.
 * Nothing here logs, and no error text quotes a key. (Named
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
};

/* A grant key, as the broker and the donors both hold it. */
struct spare_grant_key {
	uint32_t	id;
	uint8_t		key[SPARE_GRANT_KEY_LEN];
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
};

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

/* Sign @g in place with @key (also sets key_id to key->id). */
void spare_grant_sign(struct spare_grant *g, const struct spare_grant_key *key);

/* Encode and sign: 0 or SPARE_GRANT_MALFORMED. */
int spare_grant_issue(const struct spare_grant_info *info,
		      const struct spare_grant_key *key, struct spare_grant *g);

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

#endif /* SPARE_GRANT_LIB_H */
