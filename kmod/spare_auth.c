// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko host authentication: the device's secret and the HMAC-SHA-256
 * proofs of the CONTROL handshake (uapi/spare.h, Documentation/protocol.md).
 *
 * The secret comes in through the write-only configfs attribute "key" in
 * the "SPARE-1:" text form that "sparectl gen-key" prints. It is kept only
 * inside an hmac(sha256) transform keyed once, while the device is powered
 * off; connect work then computes proofs with on-stack descriptors, so
 * donors connecting in parallel share the transform read-only. The secret
 * never reaches a log.
 */
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <linux/base64.h>
#include <linux/crc32.h>
#include <linux/ctype.h>
#include <linux/string.h>

#include "spare.h"

#define SPARE_KEY_PREFIX	"SPARE-1:"
#define SPARE_KEY_B64_LEN	48	/* base64 of secret + CRC-32 */
#define SPARE_KEY_BLOB_LEN	(SPARE_AUTH_KEY_LEN + 4)

/*
 * Decode the text form into @key; NULL or why it is refused. The CRC is
 * zlib's CRC-32 (as "sparectl gen-key" writes it), little-endian.
 */
static const char *parse_key(const char *s, size_t len,
			     u8 key[SPARE_AUTH_KEY_LEN])
{
	const size_t plen = sizeof(SPARE_KEY_PREFIX) - 1;
	u8 blob[SPARE_KEY_BLOB_LEN];
	const char *why = NULL;
	u32 crc;

	if (len < plen || memcmp(s, SPARE_KEY_PREFIX, plen))
		return "does not start with " SPARE_KEY_PREFIX;
	if (len != plen + SPARE_KEY_B64_LEN)
		return "wrong length (want " SPARE_KEY_PREFIX " and 48 base64 characters)";
	if (base64_decode(s + plen, SPARE_KEY_B64_LEN, blob) != sizeof(blob))
		return "not base64";
	crc = (u32)blob[32] | (u32)blob[33] << 8 | (u32)blob[34] << 16 |
	      (u32)blob[35] << 24;
	if (crc != ~crc32_le(~0U, blob, SPARE_AUTH_KEY_LEN))
		why = "bad checksum (mistyped or truncated secret?)";
	else
		memcpy(key, blob, SPARE_AUTH_KEY_LEN);
	memzero_explicit(blob, sizeof(blob));
	return why;
}

/**
 * spare_auth_set_key() - take a secret from the configfs "key" attribute
 * @dev: the device, powered off, dev->lock held
 * @page: "SPARE-1:..." to set, or an empty line to clear
 * @count: bytes in @page
 *
 * Return: 0, or -EINVAL (one line logged with the reason, never the
 * secret), -ENOMEM, or the crypto API's error.
 */
int spare_auth_set_key(struct spare_dev *dev, const char *page, size_t count)
{
	u8 key[SPARE_AUTH_KEY_LEN];
	struct crypto_shash *tfm;
	const char *why;
	size_t len = count;
	int ret;

	while (len && isspace(page[len - 1]))
		len--;
	if (!len) {
		spare_auth_free(dev);
		pr_info("%s: key cleared; donors are not authenticated\n",
			config_item_name(&dev->item));
		return 0;
	}
	why = parse_key(page, len, key);
	if (why) {
		pr_warn("%s: key: %s\n", config_item_name(&dev->item), why);
		return -EINVAL;
	}
	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(tfm)) {
		ret = PTR_ERR(tfm);
		pr_warn("%s: key: no hmac(sha256) in this kernel (%d)\n",
			config_item_name(&dev->item), ret);
		goto out;
	}
	ret = crypto_shash_setkey(tfm, key, sizeof(key));
	if (ret) {
		crypto_free_shash(tfm);
		goto out;
	}
	spare_auth_free(dev);
	dev->auth_tfm = tfm;
	pr_info("%s: key set; donors must authenticate\n",
		config_item_name(&dev->item));
out:
	memzero_explicit(key, sizeof(key));
	return ret;
}

void spare_auth_free(struct spare_dev *dev)
{
	if (dev->auth_tfm)
		crypto_free_shash(dev->auth_tfm);	/* zeroes the key */
	dev->auth_tfm = NULL;
}

/**
 * spare_auth_mac() - one side's proof
 * @dev: a device with a key
 * @mac: out, SPARE_AUTH_MAC_LEN bytes
 * @dir: enum spare_auth_dir
 * @donor_id: the donor's name from AUTH_CHALLENGE
 * @nonce_c: our nonce from HELLO
 * @nonce_d: the donor's nonce from AUTH_CHALLENGE
 *
 * Return: 0 or the crypto API's error.
 */
int spare_auth_mac(struct spare_dev *dev, u8 *mac, unsigned int dir,
		   const u8 *donor_id, const u8 *nonce_c, const u8 *nonce_d)
{
	u8 t[SPARE_AUTH_TRANSCRIPT_LEN];
	int ret;

	SHASH_DESC_ON_STACK(desc, dev->auth_tfm);

	spare_auth_transcript(t, dir, dev->uuid, donor_id, nonce_c, nonce_d);
	desc->tfm = dev->auth_tfm;
	ret = crypto_shash_digest(desc, t, sizeof(t), mac);
	shash_desc_zero(desc);
	return ret;
}

/* Constant-time check of the donor's proof. */
bool spare_auth_donor_ok(struct spare_dev *dev, const u8 *mac,
			 const u8 *donor_id, const u8 *nonce_c,
			 const u8 *nonce_d)
{
	u8 want[SPARE_AUTH_MAC_LEN];
	bool ok;

	ok = !spare_auth_mac(dev, want, SPARE_AUTH_DIR_DONOR, donor_id,
			     nonce_c, nonce_d) &&
	     !crypto_memneq(want, mac, sizeof(want));
	memzero_explicit(want, sizeof(want));
	return ok;
}
