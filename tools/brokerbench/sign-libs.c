// SPDX-License-Identifier: GPL-2.0
/*
 * One Ed25519 signature over a grant's 192 signed bytes with each Ed25519
 * library Debian 12 ships that spare could link (libsodium, which the
 * broker uses; nettle), and its parts in libsodium: the fixed-base scalar
 * multiplication that makes R, and SHA-512 over 192 bytes (a signature
 * hashes twice), with HMAC-SHA-256 (version 1 grants) beside them. One
 * thread, N iterations each; microseconds of the thread's CPU time per
 * call (CLOCK_THREAD_CPUTIME_ID: on a shared machine the wall clock
 * measures the load) on one line.
 * Built and run by Documentation/perf/broker-trust/sign-libs (not by make:
 * nettle is not one of spare's dependencies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nettle/eddsa.h>
#include <sodium.h>

#define N 20000

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	unsigned char pk[32], sk[64], seed[32], m[192], sig[64], npk[32], tag[32], key[32] = { 1 };
	unsigned char h[64], sc[32], pt[32];
	double t, sodium_sign, sodium_verify, nettle_sign, hmac, sha, base;
	int bad = 0;

	if (sodium_init() < 0)
		return 1;
	randombytes_buf(seed, sizeof(seed));
	crypto_sign_seed_keypair(pk, sk, seed);
	ed25519_sha512_public_key(npk, seed);
	memset(m, 7, sizeof(m));
	t = now();
	for (int i = 0; i < N; i++) {
		m[0] = (unsigned char)i;
		crypto_sign_detached(sig, NULL, m, sizeof(m), sk);
	}
	sodium_sign = (now() - t) / N * 1e6;
	t = now();
	for (int i = 0; i < N; i++)
		bad += crypto_sign_verify_detached(sig, m, sizeof(m), pk) != 0;
	sodium_verify = (now() - t) / N * 1e6;
	t = now();
	for (int i = 0; i < N; i++) {
		m[0] = (unsigned char)i;
		ed25519_sha512_sign(npk, seed, sizeof(m), m, sig);
	}
	nettle_sign = (now() - t) / N * 1e6;
	/* the same key and message: nettle's signature is libsodium's */
	bad += crypto_sign_verify_detached(sig, m, sizeof(m), pk) != 0;
	t = now();
	for (int i = 0; i < 10 * N; i++) {
		m[0] = (unsigned char)i;
		crypto_auth_hmacsha256(tag, m, sizeof(m), key);
	}
	hmac = (now() - t) / N / 10 * 1e6;
	t = now();
	for (int i = 0; i < 10 * N; i++) {
		m[0] = (unsigned char)i;
		crypto_hash_sha512(h, m, sizeof(m));
	}
	sha = (now() - t) / N / 10 * 1e6;
	randombytes_buf(sc, sizeof(sc));
	sc[31] &= 0x0f;
	t = now();
	for (int i = 0; i < N; i++) {
		sc[0] = (unsigned char)i;
		bad += crypto_scalarmult_ed25519_base_noclamp(pt, sc) != 0;
	}
	base = (now() - t) / N * 1e6;
	printf("sodium_sign_us=%.2f sodium_verify_us=%.2f nettle_sign_us=%.2f "
	       "sodium_base_scalarmult_us=%.2f sha512_192B_us=%.2f hmac_sha256_192B_us=%.2f bad=%d\n",
	       sodium_sign, sodium_verify, nettle_sign, base, sha, hmac, bad);
	return bad != 0;
}
