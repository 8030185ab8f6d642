// SPDX-License-Identifier: GPL-2.0
/*
 * Grant keys from their files (spare_grant_lib.h, spare_grant_keys_load()):
 * apart from spare_grant.c so that programs that only carry grants do not
 * link the key-file readers.
 */
#include <string.h>

#include <sodium.h>

#include "spare_auth.h"
#include "spare_grant_lib.h"
#include "spare_keyfile.h"

/* A "SPARE-1:" secret file into @key: 0, or -1 with @why. */
static int read_secret(const char *setting, const char *path, uint8_t key[32],
		       char *why, size_t whylen)
{
	char text[256], err[320];
	const char *bad;

	if (spare_key_file_read(path, text, sizeof(text), err, sizeof(err)) < 0) {
		snprintf(why, whylen, "%s %s", setting, err);
		return -1;
	}
	bad = spare_key_parse(text, key);
	sodium_memzero(text, sizeof(text));
	if (bad) {
		snprintf(why, whylen, "%s %s: %s", setting, path, bad);
		return -1;
	}
	return 0;
}

int spare_grant_keys_load(struct spare_grant_keys *k, const char *hmac_file,
			  const char *sign_file, uint32_t key_id, const char *pub_file,
			  char *why, size_t whylen)
{
	uint8_t seed[SPARE_AUTH_KEY_LEN];

	_Static_assert(SPARE_AUTH_KEY_LEN == SPARE_GRANT_KEY_LEN, "key sizes");
	memset(k, 0, sizeof(*k));
	if (hmac_file && hmac_file[0]) {
		if (read_secret("grant-key-file", hmac_file, k->hmac.key, why, whylen))
			goto fail;
		k->hmac.id = key_id;
		k->has_hmac = true;
	}
	if (sign_file && sign_file[0]) {
		int ret = read_secret("grant-signing-key", sign_file, seed, why, whylen);

		if (!ret)
			spare_grant_signkey_from_seed(&k->sign, key_id, seed);
		sodium_memzero(seed, sizeof(seed));
		if (ret)
			goto fail;
		k->has_sign = true;
	}
	if (pub_file && pub_file[0]) {
		char inner[384];

		if (spare_grant_pubkeys_read(pub_file, k->pub, SPARE_GRANT_MAX_PUBKEYS, &k->npub,
					     inner, sizeof(inner))) {
			snprintf(why, whylen, "grant-public-keys %s", inner);
			goto fail;
		}
	}
	return 0;
fail:
	spare_grant_keys_wipe(k);
	return -1;
}
