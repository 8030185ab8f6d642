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

/* One peer's secret from a host-keys file. */
struct spare_host_key {
	char	name[64];
	uint8_t	key[SPARE_AUTH_KEY_LEN];
};

struct spare_host_keys {
	struct spare_host_key	*v;
	unsigned int		n;
};

/*
 * Load a host-keys file: one "<name> <secret>" per line, '#' comments and
 * blank lines allowed, names unique, secrets unique. Returns 0, or -1 with
 * the reason ("line 3: bad checksum") in @why.
 */
int spare_host_keys_load(const char *path, struct spare_host_keys *hk,
			 char *why, size_t whylen);
/* Same, from a string (for tests and for load). */
int spare_host_keys_parse(const char *text, struct spare_host_keys *hk,
			  char *why, size_t whylen);
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
 * The client's proof checked against every key of @hk; the matching entry,
 * or NULL. Each check is constant-time.
 */
const struct spare_host_key *
spare_host_keys_match(const struct spare_host_keys *hk,
		      const uint8_t mac[SPARE_AUTH_MAC_LEN],
		      const uint8_t client_uuid[16],
		      const uint8_t donor_id[SPARE_AUTH_ID_LEN],
		      const uint8_t client_nonce[SPARE_AUTH_NONCE_LEN],
		      const uint8_t donor_nonce[SPARE_AUTH_NONCE_LEN]);

#endif /* SPARE_AUTH_H */
