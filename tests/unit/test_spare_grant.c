// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for grants (userspace/lib/spare_grant.c): the wire form, sign
 * and verify with each refusal (forged, expired, not yet valid, wrong
 * donor/client, unknown key, replayed), hex, and the replay cache (lease
 * expiry, bounded memory), and the grant file reader. Version 2
 * (Ed25519): a donor holding only public keys cannot mint a grant another
 * donor accepts, every tampered byte is refused, rotation (two public keys,
 * then the old one retired), version 1 only while a version 1 key is held,
 * and the public-key file format. Version 3 (per-donor MAC): the key
 * derivation and the tag against known answers (computed with Python's
 * hmac, independently of libsodium), round trip, and each refusal.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "spare_grant_lib.h"
#include "tap.h"

static const struct spare_grant_key key1 = { .id = 1, .key = "0123456789abcdef0123456789abcde" };
static const struct spare_grant_key key2 = { .id = 2, .key = "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwv" };

static struct spare_grant_info sample(void)
{
	struct spare_grant_info gi;

	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	strcpy(gi.client_id, "trainer-7");
	strcpy(gi.donor_id, "prep-3");
	strcpy(gi.donor_addr, "10.0.0.3:18515");
	gi.slabs = 2;
	gi.not_before = 1000;
	gi.expiry = 1600;
	return gi;
}

static void layout(void)
{
	EXPECT_EQ(sizeof(struct spare_grant), 256);
	EXPECT_EQ(offsetof(struct spare_grant, grant_id), 8);
	EXPECT_EQ(offsetof(struct spare_grant, client_id), 24);
	EXPECT_EQ(offsetof(struct spare_grant, donor_id), 88);
	EXPECT_EQ(offsetof(struct spare_grant, donor_addr), 104);
	EXPECT_EQ(offsetof(struct spare_grant, slabs), 168);
	EXPECT_EQ(offsetof(struct spare_grant, key_id), 172);
	EXPECT_EQ(offsetof(struct spare_grant, not_before), 176);
	EXPECT_EQ(offsetof(struct spare_grant, expiry), 184);
	EXPECT_EQ(offsetof(struct spare_grant, tag), 224);
	EXPECT_EQ(offsetof(struct spare_grant, sig), 192);
	EXPECT_EQ(offsetof(struct spare_grant, reserved), 192);
	EXPECT_EQ(SPARE_GRANT_SIGNED_LEN_ED25519, 192);
	EXPECT_EQ(SPARE_GRANT_SIGNED_LEN, 224);
}

static void encode_decode(void)
{
	struct spare_grant_info gi = sample(), back;
	struct spare_grant g;
	const uint8_t *b = (const uint8_t *)&g;

	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	/* little-endian on the wire */
	EXPECT_EQ(b[0], 0x53);	/* 'S' */
	EXPECT_EQ(b[168], 2);
	EXPECT_EQ(b[172], 1);	/* key id from the key */
	EXPECT_EQ(b[176] | b[177] << 8, 1000);
	memset(&back, 0, sizeof(back));	/* its padding: compared below */
	EXPECT_EQ(spare_grant_decode(&g, &back), 0);
	gi.key_id = 1;
	gi.version = 1;	/* decode says which */
	EXPECT(memcmp(&gi, &back, sizeof(gi)) == 0);

	/* refused on encode */
	gi = sample();
	gi.slabs = 0;
	EXPECT_EQ(spare_grant_encode(&gi, &g), SPARE_GRANT_MALFORMED);
	gi = sample();
	gi.expiry = gi.not_before;
	EXPECT_EQ(spare_grant_encode(&gi, &g), SPARE_GRANT_MALFORMED);
	gi = sample();
	memset(gi.donor_id, 'x', sizeof(gi.donor_id));	/* no NUL */
	EXPECT_EQ(spare_grant_encode(&gi, &g), SPARE_GRANT_MALFORMED);
	gi = sample();
	gi.client_id[0] = 0;
	EXPECT_EQ(spare_grant_encode(&gi, &g), SPARE_GRANT_MALFORMED);

	/* refused on decode */
	gi = sample();
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	g.reserved[5] = 1;
	EXPECT_EQ(spare_grant_decode(&g, &back), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	g.version = htole16(3);	/* 1 and 2 are defined */
	EXPECT_EQ(spare_grant_decode(&g, &back), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	g.version = htole16(0);
	EXPECT_EQ(spare_grant_decode(&g, &back), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	g.donor_id[10] = 'q';	/* junk after the NUL */
	EXPECT_EQ(spare_grant_decode(&g, &back), SPARE_GRANT_MALFORMED);
}

static void verify_each_refusal(void)
{
	const struct spare_grant_key keys[] = { key1, key2 };
	struct spare_grant_info gi = sample(), out;
	struct spare_grant g, f;

	EXPECT_EQ(spare_grant_issue(&gi, &key2, &g), 0);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-3", "trainer-7", 1000, NULL, &out), 0);
	EXPECT_EQ(out.slabs, 2);
	EXPECT_EQ(out.key_id, 2);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-3", NULL, 1599, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-3", "trainer-7", 999, NULL, NULL),
		  SPARE_GRANT_NOT_YET);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-3", "trainer-7", 1600, NULL, NULL),
		  SPARE_GRANT_EXPIRED);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-4", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_DONOR);
	EXPECT_EQ(spare_grant_verify(&g, keys, 2, "prep-3", "trainer-8", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_CLIENT);
	EXPECT_EQ(spare_grant_verify(&g, keys, 1, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_UNKNOWN_KEY);

	/* forged: any signed byte changed, including the expiry, or the tag */
	for (size_t i = 0; i < sizeof(g); i++) {
		if (i >= offsetof(struct spare_grant, key_id) &&
		    i < offsetof(struct spare_grant, key_id) + 4)
			continue;	/* changes the key: unknown key */
		f = g;
		((uint8_t *)&f)[i] ^= 0x01;
		int r = spare_grant_verify(&f, keys, 2, "prep-3", "trainer-7", 1200, NULL, NULL);

		if (r != SPARE_GRANT_FORGED && r != SPARE_GRANT_MALFORMED) {
			fprintf(stderr, "# byte %zu: %d\n", i, r);
			EXPECT(0);
		}
	}
	f = g;
	f.expiry = htole64(1 << 30);	/* extend the lease: tag no longer fits */
	EXPECT_EQ(spare_grant_verify(&f, keys, 2, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* signed with another key but claiming key 2 */
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &f), 0);
	f.key_id = htole32(2);
	EXPECT_EQ(spare_grant_verify(&f, keys, 2, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	f = g;
	f.magic = 0;
	EXPECT_EQ(spare_grant_verify(&f, keys, 2, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_MALFORMED);
	for (int r = SPARE_GRANT_OK; r >= SPARE_GRANT_V3_OFF; r--)
		EXPECT(strcmp(spare_grant_strerror(r), "unknown grant error") != 0);
}

static void replay(void)
{
	struct spare_grant_replay rc;
	struct spare_grant_info gi = sample();
	struct spare_grant g;

	EXPECT_EQ(spare_grant_replay_init(&rc, 8), 0);
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	EXPECT_EQ(spare_grant_verify(&g, &key1, 1, "prep-3", "trainer-7", 1100, &rc, NULL), 0);
	EXPECT(spare_grant_replay_seen(&rc, gi.id, 1100));
	EXPECT_EQ(spare_grant_verify(&g, &key1, 1, "prep-3", "trainer-7", 1101, &rc, NULL),
		  SPARE_GRANT_REPLAYED);
	/* a refused grant is not recorded */
	gi = sample();
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	EXPECT_EQ(spare_grant_verify(&g, &key1, 1, "other", "trainer-7", 1100, &rc, NULL),
		  SPARE_GRANT_WRONG_DONOR);
	EXPECT(!spare_grant_replay_seen(&rc, gi.id, 1100));
	EXPECT_EQ(spare_grant_verify(&g, &key1, 1, "prep-3", "trainer-7", 1100, &rc, NULL), 0);
	spare_grant_replay_free(&rc);
}

/* Bounded memory: full of live grants it refuses; expired ones make room. */
static void replay_bounded_and_lease_expiry(void)
{
	struct spare_grant_replay rc;
	uint8_t ids[40][SPARE_GRANT_ID_LEN];

	EXPECT_EQ(spare_grant_replay_init(&rc, 32), 0);
	for (int i = 0; i < 40; i++)
		spare_grant_new_id(ids[i]);
	/* 32 grants with leases ending at 100 + i */
	for (int i = 0; i < 32; i++)
		EXPECT_EQ(spare_grant_replay_add(&rc, ids[i], 100 + (uint64_t)i, 50), 0);
	EXPECT_EQ(rc.n, 32);
	EXPECT_EQ(spare_grant_replay_add(&rc, ids[32], 500, 60), SPARE_GRANT_CACHE_FULL);
	for (int i = 0; i < 32; i++)
		EXPECT(spare_grant_replay_seen(&rc, ids[i], 60));
	/* at 110 the leases ending 100..110 are over: 11 slots free */
	EXPECT_EQ(spare_grant_replay_add(&rc, ids[32], 500, 110), 0);
	EXPECT_EQ(rc.n, 22);
	for (int i = 0; i < 32; i++)
		EXPECT_EQ(spare_grant_replay_seen(&rc, ids[i], 110), i > 10);
	/* every other id is still found after the deletions shifted them */
	for (int i = 11; i < 32; i++)
		EXPECT_EQ(spare_grant_replay_add(&rc, ids[i], 900, 110), SPARE_GRANT_REPLAYED);
	spare_grant_replay_purge(&rc, 1000);
	EXPECT_EQ(rc.n, 0);
	spare_grant_replay_free(&rc);
	EXPECT_EQ(spare_grant_replay_init(&rc, 0), -EINVAL);
}

/* Many inserts and purges against a reference list. */
static void replay_stress(void)
{
	struct spare_grant_replay rc;
	static uint8_t ids[2000][SPARE_GRANT_ID_LEN];
	static uint64_t exp[2000];
	uint64_t now = 0;

	EXPECT_EQ(spare_grant_replay_init(&rc, 500), 0);
	for (int i = 0; i < 2000; i++) {
		spare_grant_new_id(ids[i]);
		ids[i][0] = (uint8_t)i;
		now = (uint64_t)i / 4;
		exp[i] = now + 1 + (uint64_t)(i * 37 % 100);
		int r = spare_grant_replay_add(&rc, ids[i], exp[i], now);

		if (r == SPARE_GRANT_CACHE_FULL)
			exp[i] = 0;
		else
			EXPECT_EQ(r, 0);
		if (i % 97 == 0)
			spare_grant_replay_purge(&rc, now);
	}
	for (int i = 0; i < 2000; i++)
		EXPECT_EQ(spare_grant_replay_seen(&rc, ids[i], now), exp[i] > now);
	spare_grant_replay_free(&rc);
}

static void hex(void)
{
	struct spare_grant_info gi = sample();
	struct spare_grant g, back;
	char h[SPARE_GRANT_HEX_LEN + 1];

	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	spare_grant_to_hex(&g, h, sizeof(h));
	EXPECT_EQ(strlen(h), SPARE_GRANT_HEX_LEN);
	EXPECT(strncmp(h, "53475231", 8) == 0);
	EXPECT_EQ(spare_grant_from_hex(h, &back), 0);
	EXPECT(memcmp(&g, &back, sizeof(g)) == 0);
	EXPECT_EQ(spare_grant_parse_hex(h, &back), 0);
	EXPECT(memcmp(&g, &back, sizeof(g)) == 0);
	/* hex, but not a grant: the magic changed, then a hole in a field */
	h[1] = '4';
	EXPECT_EQ(spare_grant_from_hex(h, &back), 0);
	EXPECT_EQ(spare_grant_parse_hex(h, &back), SPARE_GRANT_MALFORMED);
	h[1] = '3';
	EXPECT_EQ(spare_grant_parse_hex(h, &back), 0);
	h[7] = 'g';
	EXPECT_EQ(spare_grant_from_hex(h, &back), SPARE_GRANT_MALFORMED);
	h[SPARE_GRANT_HEX_LEN - 1] = 0;
	EXPECT_EQ(spare_grant_from_hex(h, &back), SPARE_GRANT_MALFORMED);
}

/* A grant file of @text (where "G1"/"G2" stand for two grants' hex). */
static int grant_file(char *path, const char *text, const char *h1, const char *h2)
{
	int fd;
	FILE *f;

	strcpy(path, "/tmp/spare-grant-test.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return -1;
	for (; *text; text++) {
		if (text[0] == 'G' && (text[1] == '1' || text[1] == '2')) {
			fputs(text[1] == '1' ? h1 : h2, f);
			text++;
		} else {
			fputc(*text, f);
		}
	}
	return fclose(f);
}

static void file_read(void)
{
	struct spare_grant_info gi = sample();
	struct spare_grant g1, g2, got[3];
	char h1[SPARE_GRANT_HEX_LEN + 1], h2[SPARE_GRANT_HEX_LEN + 1];
	char path[64], why[96], *long_line;
	uint32_t n;

	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g1), 0);
	gi = sample();
	EXPECT_EQ(spare_grant_issue(&gi, &key2, &g2), 0);
	spare_grant_to_hex(&g1, h1, sizeof(h1));
	spare_grant_to_hex(&g2, h2, sizeof(h2));

	/* comments and blank lines skipped; appended after what is there */
	EXPECT_EQ(grant_file(path, "# header\nG1\n\nG2\r\n", h1, h2), 0);
	n = 1;
	got[0] = g2;
	EXPECT_EQ(spare_grant_file_read(path, got, 3, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 3);
	EXPECT(!memcmp(&got[0], &g2, sizeof(g2)) && !memcmp(&got[1], &g1, sizeof(g1)) &&
	       !memcmp(&got[2], &g2, sizeof(g2)));
	/* one more than fits: refused, naming the line */
	n = 2;
	EXPECT_EQ(spare_grant_file_read(path, got, 3, &n, why, sizeof(why)), -1);
	EXPECT(!strcmp(why, "line 4: more than 3 grants"));
	unlink(path);

	/* a bad line is named by number, and its text is not quoted */
	EXPECT_EQ(grant_file(path, "G1\nG1xyz\n", h1, h2), 0);
	n = 0;
	EXPECT_EQ(spare_grant_file_read(path, got, 3, &n, why, sizeof(why)), -1);
	EXPECT(!strncmp(why, "line 2: not a grant", 19));
	EXPECT(!strstr(why, "xyz") && !strstr(why, h1));
	unlink(path);

	/* a line too long to be a grant */
	long_line = malloc(2 * SPARE_GRANT_HEX_LEN + 2);
	memset(long_line, 'a', 2 * SPARE_GRANT_HEX_LEN);
	strcpy(long_line + 2 * SPARE_GRANT_HEX_LEN, "\n");
	EXPECT_EQ(grant_file(path, long_line, h1, h2), 0);
	n = 0;
	EXPECT_EQ(spare_grant_file_read(path, got, 3, &n, why, sizeof(why)), -1);
	EXPECT(!strcmp(why, "line 1: too long for a grant"));
	unlink(path);
	free(long_line);

	/* no file */
	n = 0;
	EXPECT_EQ(spare_grant_file_read(path, got, 3, &n, why, sizeof(why)), -1);
	EXPECT(!strcmp(why, strerror(ENOENT)));
	EXPECT_EQ(n, 0);
}

/* ---- version 2: Ed25519 ---- */

static void signkey(struct spare_grant_signkey *k, uint32_t id, uint8_t fill)
{
	uint8_t seed[32];

	memset(seed, fill, sizeof(seed));
	spare_grant_signkey_from_seed(k, id, seed);
}

/* What a donor holds: the broker's public keys, nothing secret. */
static struct spare_grant_keys donor_keys(const struct spare_grant_signkey *a,
					  const struct spare_grant_signkey *b)
{
	struct spare_grant_keys k;

	memset(&k, 0, sizeof(k));
	k.pub[k.npub++] = spare_grant_signkey_public(a);
	if (b)
		k.pub[k.npub++] = spare_grant_signkey_public(b);
	return k;
}

static void v2_sign_verify(void)
{
	struct spare_grant_signkey bk;
	struct spare_grant_keys dk;
	struct spare_grant_info gi = sample(), out;
	struct spare_grant g, f;
	const uint8_t *b = (const uint8_t *)&g;

	signkey(&bk, 5, 0x11);
	dk = donor_keys(&bk, NULL);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &g), 0);
	EXPECT_EQ(b[4], 2);		/* version 2 */
	EXPECT_EQ(b[172], 5);		/* key id from the signing key */
	EXPECT_EQ(spare_grant_decode(&g, &out), 0);
	EXPECT_EQ(out.version, 2);
	/* the signature is libsodium's over bytes [0, 192) */
	EXPECT_EQ(crypto_sign_verify_detached(g.sig, b, 192, dk.pub[0].pk), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1000, NULL, &out), 0);
	EXPECT_EQ(out.slabs, 2);
	EXPECT_EQ(out.key_id, 5);
	EXPECT_EQ(out.version, 2);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", NULL, 1599, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 999, NULL, NULL),
		  SPARE_GRANT_NOT_YET);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1600, NULL, NULL),
		  SPARE_GRANT_EXPIRED);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-4", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_DONOR);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-8", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_CLIENT);

	/* tampered: every byte, signed part or signature, is refused */
	for (size_t i = 0; i < sizeof(g); i++) {
		for (int bit = 0; bit < 8; bit += 7) {
			int r, want = SPARE_GRANT_FORGED;

			f = g;
			((uint8_t *)&f)[i] ^= (uint8_t)(1u << bit);
			r = spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL);
			if (i >= offsetof(struct spare_grant, key_id) &&
			    i < offsetof(struct spare_grant, key_id) + 4)
				want = SPARE_GRANT_UNKNOWN_KEY;
			if (r != want && r != SPARE_GRANT_MALFORMED) {
				fprintf(stderr, "# byte %zu bit %d: %d\n", i, bit, r);
				EXPECT(0);
			}
		}
	}
	f = g;
	f.expiry = htole64(1 << 30);	/* a longer lease: the signature no longer fits */
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	f = g;
	f.slabs = htole32(4096);
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* the replay cache works as for version 1 */
	{
		struct spare_grant_replay rc;

		EXPECT_EQ(spare_grant_replay_init(&rc, 4), 0);
		EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, &rc, NULL), 0);
		EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1201, &rc, NULL),
			  SPARE_GRANT_REPLAYED);
		spare_grant_replay_free(&rc);
	}
	/* the broker checks its own grants (RENEW_GRANT) with its public half */
	{
		struct spare_grant_keys brk;

		memset(&brk, 0, sizeof(brk));
		brk.has_sign = true;
		brk.sign = bk;
		EXPECT_EQ(spare_grant_check(&g, &brk, "prep-3", NULL, 1200, NULL, NULL), 0);
		EXPECT_EQ(spare_grant_keys_issue(&brk, &gi, &f), 0);
		EXPECT_EQ(le16toh(f.version), 2);
		EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	}
}

/*
 * A donor holds the broker's public key and its own anything. Nothing it
 * can make from them is a grant another donor accepts.
 */
static void donor_cannot_mint(void)
{
	struct spare_grant_signkey bk, mine;
	struct spare_grant_keys dk;
	struct spare_grant_key from_pub;
	struct spare_grant_info gi = sample();
	struct spare_grant g;

	signkey(&bk, 5, 0x11);
	dk = donor_keys(&bk, NULL);		/* both donors hold this */
	EXPECT(!dk.has_sign && !dk.has_hmac);

	/* its own Ed25519 key, claiming the broker's key id */
	signkey(&mine, 5, 0x22);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &mine, &g), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* the public key used as a version 1 secret */
	from_pub.id = 5;
	memcpy(from_pub.key, dk.pub[0].pk, sizeof(from_pub.key));
	EXPECT_EQ(spare_grant_issue(&gi, &from_pub, &g), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_V1_OFF);
	/* the public key as the seed of a signing key */
	spare_grant_signkey_from_seed(&mine, 5, dk.pub[0].pk);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &mine, &g), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* a genuine grant for donor prep-3, re-addressed by it to prep-4 */
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &bk, &g), 0);
	memset(g.donor_id, 0, sizeof(g.donor_id));
	strcpy(g.donor_id, "prep-4");
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-4", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* with the version 1 key still configured, v1 grants are as before */
	dk.has_hmac = true;
	dk.hmac = key1;
	EXPECT_EQ(spare_grant_issue(&gi, &key1, &g), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_issue(&gi, &key2, &g), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_UNKNOWN_KEY);
	EXPECT(strstr(spare_grant_strerror(SPARE_GRANT_V1_OFF), "version 1") != NULL);
}

/* Rotation: add the new public key, switch the broker, retire the old. */
static void rotation(void)
{
	struct spare_grant_signkey old, new;
	struct spare_grant_keys dk, brk;
	struct spare_grant_info gi = sample();
	struct spare_grant g_old, g_new, r;

	signkey(&old, 1, 0x31);
	signkey(&new, 2, 0x32);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &old, &g_old), 0);
	EXPECT_EQ(spare_grant_issue_ed25519(&gi, &new, &g_new), 0);
	/* before the switch: only the old key */
	dk = donor_keys(&old, NULL);
	EXPECT_EQ(spare_grant_check(&g_old, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_check(&g_new, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_UNKNOWN_KEY);
	/* both valid at once */
	dk = donor_keys(&old, &new);
	EXPECT_EQ(spare_grant_check(&g_old, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_check(&g_new, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	/* the broker switched to the new key still renews a grant of the old */
	memset(&brk, 0, sizeof(brk));
	brk.has_sign = true;
	brk.sign = new;
	brk.pub[brk.npub++] = spare_grant_signkey_public(&old);
	EXPECT_EQ(spare_grant_check(&g_old, &brk, "prep-3", NULL, 1200, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_keys_issue(&brk, &gi, &r), 0);
	EXPECT_EQ(le32toh(r.key_id), 2);
	/* the old key retired: its grants refused, with a reason that says so */
	dk = donor_keys(&new, NULL);
	EXPECT_EQ(spare_grant_check(&g_old, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_UNKNOWN_KEY);
	EXPECT(strstr(spare_grant_strerror(SPARE_GRANT_UNKNOWN_KEY), "retired") != NULL);
	EXPECT_EQ(spare_grant_check(&g_new, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	EXPECT_EQ(spare_grant_check(&r, &dk, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f))
		return -1;
	return chmod(path, mode);
}

static void pubkey_file(void)
{
	struct spare_grant_signkey a, b;
	struct spare_grant_pubkey pa, pb, v[SPARE_GRANT_MAX_PUBKEYS + 1];
	char la[96], lb[96], text[4096], why[256], path[64];
	unsigned int n;

	signkey(&a, 7, 0x41);
	signkey(&b, 4000000000u, 0x42);
	pa = spare_grant_signkey_public(&a);
	pb = spare_grant_signkey_public(&b);
	spare_grant_pubkey_format(&pa, la, sizeof(la));
	spare_grant_pubkey_format(&pb, lb, sizeof(lb));
	EXPECT_EQ(strlen(la), 2 + 64);
	EXPECT(!strncmp(la, "7 ", 2));

	snprintf(text, sizeof(text), "# the brokers' grant keys\n%s\n\n  %s  \r\n", la, lb);
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_parse(text, v, 4, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 2);
	EXPECT(v[0].id == 7 && !memcmp(v[0].pk, pa.pk, 32));
	EXPECT(v[1].id == 4000000000u && !memcmp(v[1].pk, pb.pk, 32));
	/* the same id twice */
	snprintf(text, sizeof(text), "%s\n%s\n", la, la);
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_parse(text, v, 4, &n, why, sizeof(why)), -1);
	EXPECT(!strncmp(why, "line 2:", 7));
	/* too many */
	snprintf(text, sizeof(text), "%s\n%s\n", la, lb);
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_parse(text, v, 1, &n, why, sizeof(why)), -1);
	EXPECT(!strncmp(why, "line 2:", 7));
	/* bad lines */
	static const char *const bad[] = {
		"7\n", "x 00\n", "-1 %s\n", "7 abc\n", "7 %s extra\n", "99999999999 %s\n",
		"7 SPARE-1:AAAA\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), bad[i], la + 2);
		n = 0;
		if (spare_grant_pubkeys_parse(text, v, 4, &n, why, sizeof(why)) != -1 ||
		    strncmp(why, "line 1:", 7)) {
			fprintf(stderr, "# bad[%zu] taken (%s)\n", i, why);
			EXPECT(0);
		}
	}
	/* no key at all */
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_parse("# nothing\n", v, 4, &n, why, sizeof(why)), -1);

	/* a file: readable by all is fine; writable by others is not */
	snprintf(path, sizeof(path), "/tmp/test_spare_grant.pub.%d", (int)getpid());
	snprintf(text, sizeof(text), "%s\n%s\n", la, lb);
	EXPECT_EQ(write_file(path, text, 0644), 0);
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_read(path, v, 4, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(chmod(path, 0666), 0);
	n = 0;
	EXPECT_EQ(spare_grant_pubkeys_read(path, v, 4, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, path) && strstr(why, "chmod"));
	unlink(path);
	EXPECT_EQ(spare_grant_pubkeys_read(path, v, 4, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, path) != NULL);
}

/* spare_grant_keys_load(): a broker's files and a donor's. */
/* Known answers: kd = 00 01 .. 1f, donor "prep-3", the grant of v3_fixed(). */
static const char v3_kg_hex[] =
	"650b130ac5dff8daa29bd9c597722021994d2c2d9e4e5a82a23ae799fda4d87f";
static const char v3_tag_hex[] =
	"b7deb1b7a3c57709a934a0b0895df5269da66e883a3b593a10b690d08498aebd";

static struct spare_grant_info v3_fixed(void)
{
	struct spare_grant_info gi = sample();

	for (int i = 0; i < SPARE_GRANT_ID_LEN; i++)
		gi.id[i] = (uint8_t)(0x40 + i);
	gi.key_id = 77;		/* ignored: version 3's key_id is 0 */
	return gi;
}

static void v3_kd(uint8_t kd[32], uint8_t base)
{
	for (int i = 0; i < 32; i++)
		kd[i] = (uint8_t)(base + i);
}

static void v3_known_answer(void)
{
	uint8_t kd[32], kg[32], kg2[32];
	char hex[65];
	struct spare_grant_info gi = v3_fixed(), out;
	struct spare_grant g;
	const uint8_t *b = (const uint8_t *)&g;

	v3_kd(kd, 0);
	EXPECT_EQ(spare_grant_v3_key(kg, kd, "prep-3"), 0);
	sodium_bin2hex(hex, sizeof(hex), kg, 32);
	EXPECT(strcmp(hex, v3_kg_hex) == 0);
	/* never the link key itself, and a different key for each donor */
	EXPECT(memcmp(kg, kd, 32) != 0);
	EXPECT_EQ(spare_grant_v3_key(kg2, kd, "prep-4"), 0);
	EXPECT(memcmp(kg, kg2, 32) != 0);
	EXPECT_EQ(spare_grant_v3_key(kg2, kd, ""), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spare_grant_v3_key(kg2, kd, "0123456789abcdef"), SPARE_GRANT_MALFORMED);

	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &g), 0);
	EXPECT_EQ(b[4], 3);		/* version 3 */
	EXPECT_EQ(le32toh(g.key_id), 0);
	for (int i = 192; i < 224; i++)
		EXPECT_EQ(b[i], 0);
	sodium_bin2hex(hex, sizeof(hex), g.tag, 32);
	EXPECT(strcmp(hex, v3_tag_hex) == 0);
	EXPECT_EQ(spare_grant_v3_tag_check(&g, kg), 0);
	EXPECT_EQ(spare_grant_decode(&g, &out), 0);
	EXPECT_EQ(out.version, 3);
	EXPECT_EQ(out.key_id, 0);
	sodium_memzero(kd, sizeof(kd));
}

static void v3_round_trip_and_refusals(void)
{
	uint8_t kd[32], other[32], kg[32], kg_other[32];
	struct spare_grant_keys dk = { 0 }, wrong = { 0 }, none = { 0 };
	struct spare_grant_signkey bk;
	struct spare_grant_info gi = sample(), out;
	struct spare_grant_replay rc;
	struct spare_grant g, f;
	char hex[SPARE_GRANT_HEX_LEN + 1];

	v3_kd(kd, 0);
	v3_kd(other, 0x80);
	EXPECT_EQ(spare_grant_v3_key(kg, kd, "prep-3"), 0);
	EXPECT_EQ(spare_grant_keys_set_v3(&dk, kd, "prep-3"), 0);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &g), 0);

	/* round trip: binary and hex, every field back */
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1000, NULL, &out), 0);
	EXPECT_EQ(memcmp(out.id, gi.id, SPARE_GRANT_ID_LEN), 0);
	EXPECT(strcmp(out.client_id, "trainer-7") == 0);
	EXPECT(strcmp(out.donor_addr, "10.0.0.3:18515") == 0);
	EXPECT_EQ(out.slabs, 2);
	EXPECT_EQ(out.expiry, 1600);
	EXPECT_EQ(out.version, 3);
	spare_grant_to_hex(&g, hex, sizeof(hex));
	EXPECT_EQ(spare_grant_parse_hex(hex, &f), 0);
	EXPECT_EQ(memcmp(&f, &g, sizeof(g)), 0);

	/* time, client as every version */
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 999, NULL, NULL),
		  SPARE_GRANT_NOT_YET);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1600, NULL, NULL),
		  SPARE_GRANT_EXPIRED);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-8", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_CLIENT);

	/* tag flipped, any bit of it; any covered byte changed */
	for (size_t i = 0; i < sizeof(g); i++) {
		int r;

		f = g;
		((uint8_t *)&f)[i] ^= 0x01;
		r = spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL);
		if (r == SPARE_GRANT_OK || (i >= 224 && r != SPARE_GRANT_FORGED)) {
			fprintf(stderr, "# v3 byte %zu: %d\n", i, r);
			EXPECT(0);
		}
	}
	f = g;
	f.expiry = htole64(1 << 30);
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);

	/* another donor's key: a grant it tags for prep-3 is forged here */
	EXPECT_EQ(spare_grant_v3_key(kg_other, other, "prep-3"), 0);
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg_other, &f), 0);
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	/* ... and a grant naming another donor is that donor's, not ours */
	EXPECT_EQ(spare_grant_keys_set_v3(&wrong, other, "prep-4"), 0);
	EXPECT_EQ(spare_grant_check(&g, &wrong, "prep-4", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_WRONG_DONOR);
	/* the same broker key under another donor id derives another key */
	EXPECT_EQ(spare_grant_keys_set_v3(&wrong, kd, "prep-4"), 0);
	gi.donor_id[5] = '4';
	EXPECT_EQ(spare_grant_v3_issue(&gi, kg, &f), 0);
	EXPECT_EQ(spare_grant_check(&f, &wrong, "prep-4", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	gi.donor_id[5] = '3';

	/* a donor without a broker key, or with only public keys */
	EXPECT_EQ(spare_grant_check(&g, &none, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_V3_OFF);
	signkey(&bk, 5, 0x11);
	none = donor_keys(&bk, NULL);
	EXPECT_EQ(spare_grant_check(&g, &none, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_V3_OFF);
	EXPECT(strstr(spare_grant_strerror(SPARE_GRANT_V3_OFF), "broker-key-file") != NULL);

	/* reserved bytes and key_id: checked, before any MAC */
	f = g;
	f.reserved[31] = 1;
	EXPECT_EQ(spare_grant_decode(&f, NULL), SPARE_GRANT_MALFORMED);
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_MALFORMED);
	f = g;
	f.key_id = htole32(1);
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_MALFORMED);

	/* a version 3 grant is not a version 1 grant under the same key */
	f = g;
	f.version = htole16(SPARE_GRANT_VERSION);
	dk.hmac.id = 0;
	memcpy(dk.hmac.key, kg, 32);
	dk.has_hmac = true;
	EXPECT_EQ(spare_grant_check(&f, &dk, "prep-3", "trainer-7", 1200, NULL, NULL),
		  SPARE_GRANT_FORGED);
	dk.has_hmac = false;

	/* replay through the ledger */
	EXPECT_EQ(spare_grant_replay_init(&rc, 4), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1200, &rc, NULL), 0);
	EXPECT_EQ(spare_grant_check(&g, &dk, "prep-3", "trainer-7", 1201, &rc, NULL),
		  SPARE_GRANT_REPLAYED);
	spare_grant_replay_free(&rc);

	/* seal leaves a version 3 grant as issued */
	f = g;
	spare_grant_keys_seal(&none, &f);
	EXPECT_EQ(memcmp(&f, &g, sizeof(g)), 0);
	sodium_memzero(kd, sizeof(kd));
	sodium_memzero(kg, sizeof(kg));
	spare_grant_keys_wipe(&dk);
}

static void keys_load(void)
{
	struct spare_grant_keys k;
	struct spare_grant_info gi = sample();
	struct spare_grant g;
	char sk_path[64], pub_path[64], why[320], line[96], text[128];
	struct spare_grant_pubkey p;

	snprintf(sk_path, sizeof(sk_path), "/tmp/test_spare_grant.sk.%d", (int)getpid());
	snprintf(pub_path, sizeof(pub_path), "/tmp/test_spare_grant.pk.%d", (int)getpid());
	/* a seed in the host-secret text form */
	EXPECT_EQ(write_file(sk_path, "SPARE-1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+KfiaR\n",
			     0600), 0);
	EXPECT_EQ(spare_grant_keys_load(&k, NULL, sk_path, 9, NULL, why, sizeof(why)), 0);
	EXPECT(k.has_sign && !k.has_hmac && k.npub == 0 && k.sign.id == 9);
	EXPECT_EQ(spare_grant_keys_issue(&k, &gi, &g), 0);
	p = spare_grant_signkey_public(&k.sign);
	spare_grant_keys_wipe(&k);
	spare_grant_pubkey_format(&p, line, sizeof(line));
	snprintf(text, sizeof(text), "%s\n", line);
	EXPECT_EQ(write_file(pub_path, text, 0644), 0);
	EXPECT_EQ(spare_grant_keys_load(&k, "", "", 0, pub_path, why, sizeof(why)), 0);
	EXPECT(!k.has_sign && !k.has_hmac && k.npub == 1);
	EXPECT_EQ(spare_grant_check(&g, &k, "prep-3", "trainer-7", 1200, NULL, NULL), 0);
	/* a secret readable by others is refused, naming the setting and file */
	EXPECT_EQ(chmod(sk_path, 0640), 0);
	EXPECT_EQ(spare_grant_keys_load(&k, NULL, sk_path, 9, NULL, why, sizeof(why)), -1);
	EXPECT(strstr(why, "grant-signing-key") && strstr(why, sk_path));
	unlink(sk_path);
	unlink(pub_path);
}

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	TAP_RUN(layout);
	TAP_RUN(encode_decode);
	TAP_RUN(verify_each_refusal);
	TAP_RUN(replay);
	TAP_RUN(replay_bounded_and_lease_expiry);
	TAP_RUN(replay_stress);
	TAP_RUN(hex);
	TAP_RUN(file_read);
	TAP_RUN(v2_sign_verify);
	TAP_RUN(donor_cannot_mint);
	TAP_RUN(rotation);
	TAP_RUN(pubkey_file);
	TAP_RUN(keys_load);
	TAP_RUN(v3_known_answer);
	TAP_RUN(v3_round_trip_and_refusals);
	return tap_done();
}
