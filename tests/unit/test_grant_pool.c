// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for signing grants on several threads
 * (userspace/lib/spare_grant_pool.c): every grant of a batch comes out
 * byte for byte as spare_grant_keys_seal() alone makes it (Ed25519 is
 * deterministic, so a grant signed twice, skipped, or signed over another
 * grant's bytes shows), for batches of 1 to 64 grants on 1, 2 and 4
 * threads, many batches in a row; version 1 (HMAC) keys too; a donor
 * holding only the public key accepts every one; bad thread counts are
 * refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "spare_grant_lib.h"
#include "spare_grant_pool.h"
#include "tap.h"

#define BATCH	64

/* @n grants for distinct donors, encoded (unsigned) with @k. */
static void encode_batch(const struct spare_grant_keys *k, struct spare_grant *g, unsigned int n)
{
	struct spare_grant_info gi;

	memset(&gi, 0, sizeof(gi));
	strcpy(gi.client_id, "trainer-7");
	gi.slabs = 1;
	gi.not_before = 1000;
	gi.expiry = 1600;
	for (unsigned int i = 0; i < n; i++) {
		spare_grant_new_id(gi.id);
		snprintf(gi.donor_id, sizeof(gi.donor_id), "prep-%u", i);
		snprintf(gi.donor_addr, sizeof(gi.donor_addr), "10.0.0.%u:18515", i);
		EXPECT_EQ(spare_grant_keys_encode(k, &gi, &g[i]), 0);
	}
}

/* Batches of every size through a pool of @threads: as signed alone. */
static void batches_as_alone(const struct spare_grant_keys *k, const struct spare_grant_keys *check,
			     unsigned int threads)
{
	static struct spare_grant got[BATCH], want[BATCH];
	struct spare_grant_pool *p = spare_grant_pool_new(threads);
	unsigned int bad = 0, unchecked = 0;
	char donor[32];

	EXPECT(p != NULL);
	if (!p)
		return;
	for (unsigned int round = 0; round < 4; round++) {
		for (unsigned int n = 1; n <= BATCH; n++) {
			encode_batch(k, want, n);
			memcpy(got, want, n * sizeof(got[0]));
			for (unsigned int i = 0; i < n; i++)
				spare_grant_keys_seal(k, &want[i]);
			spare_grant_pool_seal(p, k, got, n);
			bad += memcmp(got, want, n * sizeof(got[0])) != 0;
			for (unsigned int i = 0; i < n; i++) {
				snprintf(donor, sizeof(donor), "prep-%u", i);
				unchecked += spare_grant_check(&got[i], check, donor, "trainer-7",
							       1200, NULL, NULL) != 0;
			}
		}
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(unchecked, 0);
	spare_grant_pool_free(p);
}

static void ed25519_batches(void)
{
	struct spare_grant_keys k = { 0 }, donor = { 0 };
	uint8_t seed[32];

	memset(seed, 0x42, sizeof(seed));
	spare_grant_signkey_from_seed(&k.sign, 7, seed);
	k.has_sign = true;
	donor.pub[donor.npub++] = spare_grant_signkey_public(&k.sign);
	batches_as_alone(&k, &donor, 1);
	batches_as_alone(&k, &donor, 2);
	batches_as_alone(&k, &donor, 4);
}

static void hmac_batches(void)
{
	struct spare_grant_keys k = { 0 };

	k.has_hmac = true;
	k.hmac.id = 3;
	memset(k.hmac.key, 0x33, sizeof(k.hmac.key));
	batches_as_alone(&k, &k, 2);
}

/* No pool: the caller signs alone; an unsigned grant is refused. */
static void no_pool(void)
{
	struct spare_grant_keys k = { 0 }, donor = { 0 };
	struct spare_grant g[3];
	uint8_t seed[32];

	memset(seed, 0x24, sizeof(seed));
	spare_grant_signkey_from_seed(&k.sign, 9, seed);
	k.has_sign = true;
	donor.pub[donor.npub++] = spare_grant_signkey_public(&k.sign);
	encode_batch(&k, g, 3);
	EXPECT_EQ(spare_grant_check(&g[0], &donor, "prep-0", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	spare_grant_pool_seal(NULL, &k, g, 3);
	for (unsigned int i = 0; i < 3; i++) {
		char d[16];

		snprintf(d, sizeof(d), "prep-%u", i);
		EXPECT_EQ(spare_grant_check(&g[i], &donor, d, "trainer-7", 1200, NULL, NULL), 0);
	}
	EXPECT_EQ(spare_grant_pool_by_threads(NULL), 0);
}

static void thread_counts(void)
{
	errno = 0;
	EXPECT(spare_grant_pool_new(0) == NULL && errno == EINVAL);
	errno = 0;
	EXPECT(spare_grant_pool_new(SPARE_GRANT_POOL_MAX_THREADS + 1) == NULL && errno == EINVAL);
	spare_grant_pool_free(NULL);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(ed25519_batches);
	TAP_RUN(hmac_batches);
	TAP_RUN(no_pool);
	TAP_RUN(thread_counts);
	return tap_done();
}
