// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for grants (userspace/lib/spare_grant.c): the wire form, sign
 * and verify with each refusal (forged, expired, not yet valid, wrong
 * donor/client, unknown key, replayed), hex, and the replay cache (lease
 * expiry, bounded memory), and the grant file reader.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	EXPECT_EQ(spare_grant_decode(&g, &back), 0);
	gi.key_id = 1;
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
	g.version = htole16(2);
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
	for (int r = SPARE_GRANT_OK; r >= SPARE_GRANT_OWNER_FULL; r--)
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
	return tap_done();
}
