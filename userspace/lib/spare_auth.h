/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host authentication for userspace (spared, sparectl): the "SPARE-1:"
 * secret text form, the peers' key file, and the HMAC-SHA-256 proofs of
 * uapi/spare.h. Crypto is libsodium's; the CRC of the text form is zlib's.
 * Programs that use this file link -lsodium -lz.
 */
#ifndef SPARE_AUTH_H
#define SPARE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_proto.h"

/* "SPARE-1:" + base64 of the 32-byte secret and its CRC-32 (LE): 56 chars */
#define SPARE_KEY_PREFIX	"SPARE-1:"
#define SPARE_KEY_TEXT_LEN	(sizeof(SPARE_KEY_PREFIX) - 1 + 48)

/* libsodium's one-time set-up; 0, or -1 if it cannot run. */
int spare_auth_init(void);

/* A fresh random nonce. */
void spare_auth_nonce(uint8_t nonce[SPARE_AUTH_NONCE_LEN]);

/* Make a new random secret. */
void spare_key_generate(uint8_t key[SPARE_AUTH_KEY_LEN]);

/* Write the text form of @key to @out (at least SPARE_KEY_TEXT_LEN + 1). */
void spare_key_format(const uint8_t key[SPARE_AUTH_KEY_LEN], char *out,
		      size_t len);

/*
 * Parse the text form @s (surrounding blanks and a newline allowed).
 * Returns NULL and fills @key, or why @s is refused. The reason never
 * quotes the secret.
 */
const char *spare_key_parse(const char *s, uint8_t key[SPARE_AUTH_KEY_LEN]);

/*
 * A host's roles in a host-keys file (role=): a client borrows, a donor
 * lends and registers with brokers, an admin reads a broker's state
 * (`sparectl broker donors`) and can do nothing else, at a broker or at a
 * donor. `both` is client and donor, never admin.
 */
enum {
	SPARE_ROLE_CLIENT	= 1,
	SPARE_ROLE_DONOR	= 2,
	SPARE_ROLE_BOTH		= 3,
	SPARE_ROLE_ADMIN	= 4,
};

#define SPARE_HOST_ADDRS_MAX	64u	/* entries in one addr= */

/* One addr= entry: an IP address or prefix, or a host name. */
struct spare_host_addr {
	int	family;			/* AF_INET, AF_INET6; 0: @host */
	uint8_t	ip[16];
	uint8_t	bits;			/* prefix length */
	char	host[64];
};

/* One peer's secret from a host-keys file, and what the key may do. */
struct spare_host_key {
	char	name[64];
	uint8_t	key[SPARE_AUTH_KEY_LEN];
	uint8_t	roles;			/* SPARE_ROLE_* */
	unsigned int line;		/* in the file, for messages */
	/* addresses a donor may register; none: the one it connects from.
	 * With the client role: where it may connect from; none: anywhere */
	struct spare_host_addr *addrs;
	unsigned int naddrs;
};

struct spare_host_keys {
	struct spare_host_key	*v;
	unsigned int		n;
	/* lines without role= (read as role=both): how many, the first */
	unsigned int		old_lines, old_line;
};

/*
 * Load a host-keys file: one "<name> <secret> [role=R] [addr=A,...]" per
 * line, '#' comments and blank lines allowed, names unique, secrets
 * unique. R is donor, client or both; a line without role= is read as
 * role=both, and load logs one deprecation warning naming the file and
 * the first such line. addr= lists the IP addresses, CIDR prefixes and
 * host names a donor may register at a broker; for a key with the client
 * role, its IP and prefix entries are where the client may connect from
 * (spare_host_key_from_refused()), and a role=client line's addr= takes
 * no host names. The file is
 * read with spare_key_file_read() (refused if group or others can read
 * it). Returns 0, or -1 with the reason ("FILE: line 3: bad checksum") in
 * @why.
 */
int spare_host_keys_load(const char *path, struct spare_host_keys *hk,
			 char *why, size_t whylen);
/* Same, from a string (for tests and for load); logs nothing. */
int spare_host_keys_parse(const char *text, struct spare_host_keys *hk,
			  char *why, size_t whylen);
/*
 * May the donor of @k register at @addr ("HOST:PORT" or "[V6]:PORT"),
 * having connected from the numeric address @from? NULL if so, else the
 * reason, in @why (it never quotes the secret).
 */
const char *spare_host_key_addr_refused(const struct spare_host_key *k, const char *addr,
					const char *from, char *why, size_t whylen);
/*
 * May key @k's client connect from the numeric address @from (spared's
 * peer, the broker's)? A key without addr= may connect from anywhere; one
 * with addr= only from an address its IP and prefix entries cover (host
 * names are not resolved here, so they bind nothing for a client). NULL
 * if so, else the reason, in @why (never the secret).
 */
const char *spare_host_key_from_refused(const struct spare_host_key *k, const char *from,
					char *why, size_t whylen);
/* "client", "donor" or "both". */
const char *spare_role_name(unsigned int roles);
/* Wipe and free. */
void spare_host_keys_free(struct spare_host_keys *hk);

/* The proof of direction @dir (enum spare_auth_dir). */
void spare_auth_mac(uint8_t mac[SPARE_AUTH_MAC_LEN],
		    const uint8_t key[SPARE_AUTH_KEY_LEN], unsigned int dir,
		    const uint8_t client_uuid[16],
		    const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		    const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		    const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN]);

/* Constant-time check of a received proof. */
bool spare_auth_mac_ok(const uint8_t mac[SPARE_AUTH_MAC_LEN],
		       const uint8_t key[SPARE_AUTH_KEY_LEN], unsigned int dir,
		       const uint8_t client_uuid[16],
		       const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		       const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		       const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN]);

/*
 * The client's proof checked against every key of @hk that has the client
 * role; the matching entry, or NULL. Each check is constant-time.
 */
const struct spare_host_key *
spare_host_keys_match(const struct spare_host_keys *hk,
		      const uint8_t mac[SPARE_AUTH_MAC_LEN],
		      const uint8_t client_uuid[16],
		      const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		      const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		      const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN]);

#endif /* SPARE_AUTH_H */
