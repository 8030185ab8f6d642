/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The donor's grant ledger: the broker's grants (kmod/uapi/spare_grant.h)
 * that clients presented, and what they allow. Pure: no I/O, no clock (the
 * caller passes "now", seconds since the epoch), no logging.
 *
 * A donor with grant keys (the brokers' public keys, or a deprecated
 * version 1 key) lends only against grants. A client sends its
 * grants (GRANT messages) and then MAPs, each naming one of them. The
 * client may hold as many slabs as its unexpired grants cover together.
 *
 * Replay. A grant's id is recorded when it is accepted and kept until the
 * grant expires. The same grant presented again by the same client (a new
 * session after a reconnect does that) adds nothing: the budget counts each
 * grant once. Presented by another client, it is refused as replayed. The
 * ledger's size is bounded; when it is full of unexpired grants a new one
 * is refused (cache full) rather than forgetting one that could be
 * replayed.
 *
 * Fair share. One owner holds at most spared_grants_share(max) entries at
 * once (a sixteenth of the ledger, but at least 16, or the whole of a
 * smaller ledger); past that its new grants are refused as
 * SPARE_GRANT_OWNER_FULL while other clients' are still taken. So one
 * client, however many valid grants it holds, cannot crowd the others out.
 *
 * Cost. Grants are indexed by id (a hash on the id's first 8 bytes, the
 * MAP token) and owners by name, so accept and held are O(1) expected;
 * expired grants are dropped by a scan at most once per second of "now".
 *
 * "Owner" is how the donor knows the client: its authenticated host name
 * when host authentication is on, else its client uuid in hex.
 */
#ifndef SPARED_GRANTS_H
#define SPARED_GRANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_grant_lib.h"

struct spared_grant {
	uint8_t		id[SPARE_GRANT_ID_LEN];
	char		owner[SPARE_GRANT_CLIENT_LEN];
	uint32_t	slabs;
	uint64_t	expiry;
};

struct spared_owner {
	char		name[SPARE_GRANT_CLIENT_LEN];
	uint32_t	grants;		/* entries of v[] it holds */
	uint64_t	slabs;		/* what they cover together */
};

#define SPARED_GRANTS_SHARE_DIV	16	/* an owner's share: max / this ... */
#define SPARED_GRANTS_SHARE_MIN	16	/* ... but at least this many */

struct spared_grants {
	struct spare_grant_keys	keys;		/* public keys, and hmac for version 1 */
	char			donor_id[SPARE_GRANT_DONOR_LEN];
	struct spared_grant	*v;
	size_t			n, max, share;
	uint32_t		*by_id;		/* [cap]: v index + 1, 0 = empty */
	struct spared_owner	*owners;	/* [max]: owners holding a grant */
	uint32_t		*by_owner;	/* [cap]: owners index + 1, 0 = empty */
	size_t			nowners, cap;	/* cap: a power of two >= 2 max */
	uint64_t		purged_at;	/* "now" of the last purge */
};

/* Entries one owner may hold in a ledger of @max. */
size_t spared_grants_share(size_t max);

/*
 * 0, or -EINVAL (no donor id, or too long; max 0 or above 2^30) / -ENOMEM.
 * @key: a version 1 key, or NULL (then spared_grants_set_keys()).
 */
int spared_grants_init(struct spared_grants *g, const struct spare_grant_key *key,
		       const char *donor_id, size_t max);
/* The keys grants are checked with from now on (copied; @k holds no secret
 * but a version 1 key). Grants already accepted stay. */
void spared_grants_set_keys(struct spared_grants *g, const struct spare_grant_keys *k);
/* Frees the ledger and wipes the keys. */
void spared_grants_free(struct spared_grants *g);

/*
 * Verify the grant in @buf (SPARE_GRANT_SIZE bytes, or SPARE_GRANT_HEX_LEN
 * hex digits when @hex) at @now for this donor and @client_id (NULL: the
 * session is not authenticated, any client named in the grant is taken),
 * then record it for @owner. Returns SPARE_GRANT_OK (also when @owner had
 * presented it before; *@known is then true) or a negative enum
 * spare_grant_result: SPARE_GRANT_OWNER_FULL when @owner holds its share
 * already, SPARE_GRANT_CACHE_FULL when the ledger is full. Fills @info
 * (may be NULL) on success.
 */
int spared_grant_accept(struct spared_grants *g, const void *buf, size_t len, bool hex,
			const char *client_id, const char *owner, uint64_t now,
			struct spare_grant_info *info, bool *known);

/* Slabs @owner's unexpired grants cover together. */
uint64_t spared_grant_budget(const struct spared_grants *g, const char *owner, uint64_t now);

/* Does @owner hold an unexpired grant whose token (the first 8 bytes of
 * its id, little-endian) is @token? */
bool spared_grant_held(const struct spared_grants *g, const char *owner, uint64_t token,
		       uint64_t now);

/* The token MAP carries for grant id @id. */
uint64_t spared_grant_token(const uint8_t id[SPARE_GRANT_ID_LEN]);

/* Drop grants expired at @now; returns how many are left. */
size_t spared_grants_purge(struct spared_grants *g, uint64_t now);

#endif /* SPARED_GRANTS_H */
