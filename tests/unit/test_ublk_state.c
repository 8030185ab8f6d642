// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's state file (userspace/ublk/state.c), what a restarted pager
 * reads to take its device back: a round trip through a real slab map, a
 * copy that is behind another recorded as failed, and every kind of bad
 * file refused with a reason (torn at any byte, a flipped byte, garbage,
 * another version, a missing file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "state.h"
#include "tap.h"

static char dir[] = "/tmp/test_ublk_state.XXXXXX";
static char path[256];

static void make_state(struct ublk_state *st, struct spare_slab_map *map)
{
	u32 s, c;

	memset(st, 0, sizeof(*st));
	EXPECT_EQ(spare_slab_map_init(map, 5ULL << 20, 20, 2, 3), 0);
	for (s = 0; s < map->nr_slabs; s++)
		for (c = 0; c < 2; c++) {
			struct spare_slab *slab = &map->slabs[s];

			EXPECT_EQ(spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPING), 0);
			EXPECT_EQ(spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPED), 0);
		}
	for (c = 0; c < 16; c++)
		st->uuid[c] = (uint8_t)(0xa0 + c);
	st->dev_id = 7;
	st->size = 5ULL << 20;
	st->slab_shift = 20;
	st->copies = 2;
	st->depth = 64;
	st->nr_donors = 3;
	for (c = 0; c < 3; c++) {
		snprintf(st->donors[c].host, sizeof(st->donors[c].host), "10.0.0.%u", c + 2);
		strcpy(st->donors[c].port, "18515");
		st->donors[c].token = 0x1122334455667700ULL + c;
	}
	st->donors[2].token = 0;	/* a donor that holds nothing */
	EXPECT_EQ(ublk_state_alloc(st, map->nr_slabs, map->nr_slots), 0);
}

static void test_round_trip(void)
{
	struct spare_slab_map map;
	struct ublk_state st, back;
	char why[256] = "";
	u32 i;

	make_state(&st, &map);
	/* slab 1: copy 0 failed; slab 2: copy 1 behind copy 0 on page 3 */
	EXPECT_EQ(spare_copy_set_state(&map, &map.slabs[1], 0, SPARE_COPY_FAILED), 0);
	__clear_bit(3, map.slabs[2].copy[1].current_map);
	/* slab 3: a write in flight cleared page 5 on both copies: both whole */
	__clear_bit(5, map.slabs[3].copy[0].current_map);
	__clear_bit(5, map.slabs[3].copy[1].current_map);
	ublk_state_from_map(&st, &map);
	EXPECT_EQ(st.slots[0 * 3 + 0].state, 'M');
	EXPECT_EQ(st.slots[1 * 3 + 0].state, 'F');
	EXPECT_EQ(st.slots[1 * 3 + 1].state, 'M');
	EXPECT_EQ(st.slots[2 * 3 + 0].state, 'M');
	EXPECT_EQ(st.slots[2 * 3 + 1].state, 'F');
	EXPECT_EQ(st.slots[3 * 3 + 0].state, 'M');
	EXPECT_EQ(st.slots[3 * 3 + 1].state, 'M');
	EXPECT_EQ(st.slots[0 * 3 + 2].state, 'U');	/* the spare slot */
	EXPECT_EQ(st.slots[0 * 3 + 2].donor, SPARE_NO_DONOR);
	EXPECT_EQ(st.slots[4 * 3 + 1].donor, spare_slab_place(4, 1, 3));

	EXPECT_EQ(ublk_state_save(path, &st, why, sizeof(why)), 0);
	EXPECT_EQ(ublk_state_load(path, &back, why, sizeof(why)), 0);
	if (why[0])
		fprintf(stderr, "# %s\n", why);
	EXPECT(!memcmp(back.uuid, st.uuid, 16));
	EXPECT_EQ(back.dev_id, 7);
	EXPECT_EQ(back.size, 5ULL << 20);
	EXPECT_EQ(back.slab_shift, 20);
	EXPECT_EQ(back.copies, 2);
	EXPECT_EQ(back.depth, 64);
	EXPECT_EQ(back.nr_donors, 3);
	EXPECT_EQ(back.donors[1].token, 0x1122334455667701ULL);
	EXPECT_EQ(back.donors[2].token, 0);
	EXPECT(!strcmp(back.donors[2].host, "10.0.0.4"));
	EXPECT_EQ(back.nr_slabs, 5);
	EXPECT_EQ(back.nr_slots, 3);
	for (i = 0; back.slots && i < 5 * 3; i++) {
		EXPECT_EQ(back.slots[i].state, st.slots[i].state);
		EXPECT_EQ(back.slots[i].donor, st.slots[i].donor);
	}
	/* no temporary left behind */
	{
		char tmp[300];

		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		EXPECT(access(tmp, F_OK) != 0);
	}
	ublk_state_free(&back);
	ublk_state_free(&st);
	spare_slab_map_free(&map);
}

static char *slurp(size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(1 << 16);

	*len = f ? fread(buf, 1, 1 << 16, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static void spit(const char *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

/* Load must fail, with a reason containing @pat. */
static int refused(const char *pat)
{
	struct ublk_state st;
	char why[256] = "";
	int ret = ublk_state_load(path, &st, why, sizeof(why));

	if (ret == 0) {
		ublk_state_free(&st);
		return 0;
	}
	if (pat && !strstr(why, pat)) {
		fprintf(stderr, "# refused with '%s', expected '%s'\n", why, pat);
		return 0;
	}
	return 1;
}

static void test_torn_and_damaged(void)
{
	struct spare_slab_map map;
	struct ublk_state st;
	char why[256];
	size_t len, cut;
	char *good, *bad;
	unsigned int accepted = 0, flips = 0;

	make_state(&st, &map);
	ublk_state_from_map(&st, &map);
	EXPECT_EQ(ublk_state_save(path, &st, why, sizeof(why)), 0);
	good = slurp(&len);
	EXPECT(len > 100);
	/* torn at every byte: never accepted */
	for (cut = 0; cut < len; cut++) {
		spit(good, cut);
		if (!refused(NULL))
			accepted++;
	}
	EXPECT_EQ(accepted, 0);
	spit(good, len / 2);
	EXPECT(refused("torn"));
	/* every single flipped bit in the body: the checksum catches it */
	bad = malloc(len);
	accepted = 0;
	for (cut = 0; cut < len; cut += 7) {
		memcpy(bad, good, len);
		bad[cut] ^= 0x04;
		spit(bad, len);
		flips++;
		if (!refused(NULL))
			accepted++;
	}
	EXPECT_EQ(accepted, 0);
	EXPECT(flips > 20);
	memcpy(bad, good, len);
	bad[20] ^= 0x01;	/* inside the uuid */
	spit(bad, len);
	EXPECT(refused("checksum mismatch"));
	/* garbage */
	spit("\x7f" "ELF\x02\x01\x01\0\0\0", 10);
	EXPECT(refused("NUL"));
	spit("hello world\n", 12);
	EXPECT(refused("torn"));
	spit("", 0);
	EXPECT(refused(NULL));
	/* good again: the original loads */
	spit(good, len);
	EXPECT(!refused(NULL));
	/* a missing file is -ENOENT (a first start), not an error */
	{
		struct ublk_state x;

		unlink(path);
		EXPECT_EQ(ublk_state_load(path, &x, why, sizeof(why)), -ENOENT);
	}
	free(bad);
	free(good);
	ublk_state_free(&st);
	spare_slab_map_free(&map);
}

/* A well-checksummed file whose content breaks a rule. */
static void write_with_crc(const char *body)
{
	char buf[4096];
	size_t n = strlen(body);

	memcpy(buf, body, n);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "crc %08lx\n",
			      crc32(0, (const Bytef *)buf, (uInt)n));
	spit(buf, n);
}

#define HDR "spare-ublk-state 1\nuuid 000102030405060708090a0b0c0d0e0f\n" \
	    "dev 3\nsize 2097152\nslab-shift 20\ncopies 2\ndepth 64\n"
#define DONORS "donor 0 10.0.0.2 18515 0000000000000001\n" \
	       "donor 1 10.0.0.3 18515 0000000000000002\n"

static void test_bad_content(void)
{
	write_with_crc(HDR DONORS "slab 0 0:M 1:M -:U\nslab 1 1:M 0:F -:U\n");
	EXPECT(!refused(NULL));		/* the good one first */
	write_with_crc("spare-ublk-state 2\n");
	EXPECT(refused("version 2"));
	write_with_crc(HDR);
	EXPECT(refused("incomplete"));
	write_with_crc(HDR DONORS "slab 0 0:M 1:M -:U\n");
	EXPECT(refused("1 of 2 slabs"));
	write_with_crc(HDR DONORS "slab 0 0:M 0:M -:U\nslab 1 1:M 0:F -:U\n");
	EXPECT(refused("two copies on donor 0"));
	write_with_crc(HDR DONORS "slab 0 0:M 2:M -:U\nslab 1 1:M 0:F -:U\n");
	EXPECT(refused("out of range"));
	write_with_crc(HDR DONORS "slab 0 0:M 1:M -:M\nslab 1 1:M 0:F -:U\n");
	EXPECT(refused("without a donor"));
	write_with_crc(HDR DONORS "slab 0 0:M 1:X -:U\nslab 1 1:M 0:F -:U\n");
	EXPECT(refused("M|F|U"));
	write_with_crc(HDR DONORS "slab 0 0:M 1:M -:U\nslab 1 1:M 0:F -:U\nslab 2 0:M 1:M -:U\n");
	EXPECT(refused("more slabs"));
	write_with_crc(HDR DONORS "slab 1 0:M 1:M -:U\nslab 0 1:M 0:F -:U\n");
	EXPECT(refused("slab 0"));
	write_with_crc(HDR "donor 0 10.0.0.2 18515 xyz\n");
	EXPECT(refused("donor"));
	write_with_crc(HDR "copies 1\n" DONORS);
	EXPECT(refused("unexpected 'copies'"));
	write_with_crc(HDR DONORS "slab 0 0:M 1:M -:U\nwhat 1\n");
	EXPECT(refused("unexpected 'what'"));
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/state", dir);
	TAP_RUN(test_round_trip);
	TAP_RUN(test_torn_and_damaged);
	TAP_RUN(test_bad_content);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
