// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for what a restarting spared hands to its next image
 * (userspace/spared/keep.c, slabmem.c, pool.c): the table of held slabs
 * written and read back, every malformed table refused with a reason and
 * its line, a slab's memfd adopted with its contents, a slot taken over
 * by index.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keep.h"
#include "pool.h"
#include "slabmem.h"
#include "spare_util.h"
#include "tap.h"

#define MiB (1ULL << 20)
#define SLAB (16 * MiB)

static const char good[] =
	"spared-keep 1\n"
	"slab-size 16777216\n"
	"held 0 uuid=00112233445566778899aabbccddeeff client=trainer owner=trainer token=0123456789abcdef until=1800000000 host=10.0.0.1\n"
	"held 1 uuid=ffeeddccbbaa99887766554433221100 client= owner=ffeeddccbbaa99887766554433221100 token=0000000000000001 until=0 host=10.0.0.9\n"
	"slab 3 held=0 id=7\n"
	"slab 0 held=1 id=0\n"
	"slab 15 held=0 id=4294967295\n";

static void test_parse_good(void)
{
	struct keep_table t;
	unsigned int line = 99;
	const char *why;

	why = keep_table_parse(good, strlen(good), SLAB, 16, &t, &line);
	EXPECT(why == NULL);
	if (why) {
		printf("# refused: line %u: %s\n", line, why);
		return;
	}
	EXPECT_EQ(t.slab_size, SLAB);
	EXPECT_EQ(t.nheld, 2);
	EXPECT_EQ(t.nslabs, 3);
	EXPECT_EQ(t.held[0].uuid[0], 0x00);
	EXPECT_EQ(t.held[0].uuid[15], 0xff);
	EXPECT(!strcmp(t.held[0].client, "trainer"));
	EXPECT(!strcmp(t.held[0].owner, "trainer"));
	EXPECT_EQ(t.held[0].token, 0x0123456789abcdefULL);
	EXPECT_EQ(t.held[0].until_s, 1800000000);
	EXPECT(!strcmp(t.held[0].host, "10.0.0.1"));
	EXPECT(!strcmp(t.held[1].client, ""));	/* an open donor's client */
	EXPECT_EQ(t.held[1].token, 1);
	EXPECT_EQ(t.slab[0].index, 3);
	EXPECT_EQ(t.slab[0].held, 0);
	EXPECT_EQ(t.slab[0].id, 7);
	EXPECT_EQ(t.slab[1].held, 1);
	EXPECT_EQ(t.slab[2].id, UINT32_MAX);
	keep_table_free(&t);
}

/* What keep_table_write() writes, keep_table_parse() reads back the same. */
static void test_round_trip(void)
{
	struct keep_table t, back;
	char *buf = NULL;
	size_t len = 0;
	unsigned int line;
	const char *why;
	FILE *f;

	why = keep_table_parse(good, strlen(good), SLAB, 16, &t, &line);
	EXPECT(why == NULL);
	if (why)
		return;
	f = open_memstream(&buf, &len);
	EXPECT(f != NULL);
	if (!f)
		return;
	EXPECT_EQ(keep_table_write(f, &t), 0);
	fclose(f);
	EXPECT_EQ(len, strlen(good));
	EXPECT(!strcmp(buf, good));
	why = keep_table_parse(buf, len, SLAB, 16, &back, &line);
	EXPECT(why == NULL);
	if (!why) {
		EXPECT_EQ(back.nheld, t.nheld);
		EXPECT_EQ(back.nslabs, t.nslabs);
		EXPECT(!memcmp(back.held, t.held, t.nheld * sizeof(*t.held)));
		EXPECT(!memcmp(back.slab, t.slab, t.nslabs * sizeof(*t.slab)));
		keep_table_free(&back);
	}
	keep_table_free(&t);
	free(buf);
}

struct bad_case {
	const char	*text;
	unsigned int	line;
	const char	*why;	/* a word of the reason */
};

#define HDR "spared-keep 1\nslab-size 16777216\n"
#define HELD0 "held 0 uuid=00112233445566778899aabbccddeeff client=a owner=a token=00000000000000aa until=5 host=10.0.0.1\n"

static const struct bad_case bad[] = {
	{ "", 0, "cut short" },
	{ "spared-keep 1\nslab-size 16777216", 0, "cut short" },
	{ "spared-keep 1\0\n", 0, "NUL" },
	{ "spared-keep 2\nslab-size 16777216\n", 1, "version" },
	{ "spare-keep 1\nslab-size 16777216\n", 1, "not a spared-keep" },
	{ "spared-keep 1\n", 1, "slab-size" },
	{ "spared-keep 1\nslab-size 1048576\n", 2, "differs" },
	{ HDR "slab 3 held=0 id=7\n", 3, "held=" },		/* no held session */
	{ HDR HELD0 "slab 16 held=0 id=7\n", 4, "not a slab of this pool" },
	{ HDR HELD0 "slab 3 held=0 id=7\nslab 3 held=0 id=8\n", 5, "twice" },
	{ HDR HELD0 "slab 3 held=1 id=7\n", 4, "held=" },
	{ HDR HELD0 "slab 3 held=0 id=-1\n", 4, "id=" },
	{ HDR HELD0 "slab 3 held=0 id=4294967296\n", 4, "id=" },
	{ HDR HELD0 "slab 3 held=0\n", 4, "4 words" },
	{ HDR "held 1 uuid=00112233445566778899aabbccddeeff client=a owner=a token=00000000000000aa until=5 host=h\n", 3, "numbered" },
	{ HDR "held 0 uuid=0011223344556677 client=a owner=a token=00000000000000aa until=5 host=h\n", 3, "uuid=" },
	{ HDR "held 0 uuid=00112233445566778899AABBCCDDEEFF client=a owner=a token=00000000000000aa until=5 host=h\n", 3, "uuid=" },
	{ HDR "held 0 uuid=00112233445566778899aabbccddeeff client=a owner=a token=0000000000000000 until=5 host=h\n", 3, "token=" },
	{ HDR "held 0 uuid=00112233445566778899aabbccddeeff client=a owner= token=00000000000000aa until=5 host=h\n", 3, "owner=" },
	{ HDR "held 0 uuid=00112233445566778899aabbccddeeff client=a owner=a token=00000000000000aa until=x host=h\n", 3, "until=" },
	{ HDR "held 0 uuid=00112233445566778899aabbccddeeff owner=a client=a token=00000000000000aa until=5 host=h\n", 3, "client=" },
	{ HDR HELD0 "slab 3 held=0 id=7\n" "held 1 uuid=00112233445566778899aabbccddeeff client=a owner=a token=00000000000000aa until=5 host=h\n", 5, "after a slab" },
	{ HDR HELD0 "\n", 4, "empty" },
	{ HDR HELD0 "grant 1\n", 4, "unknown" },
};

static void test_parse_bad(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t len = strlen(bad[i].text);
		struct keep_table t;
		unsigned int line = 99;
		const char *why;

		if (i == 2)	/* the one with a NUL inside */
			len = sizeof("spared-keep 1\0\n") - 1;
		why = keep_table_parse(bad[i].text, len, SLAB, 16, &t, &line);
		EXPECT(why != NULL);
		if (!why) {
			printf("# case %u accepted\n", i);
			keep_table_free(&t);
			continue;
		}
		if (line != bad[i].line || !strstr(why, bad[i].why))
			printf("# case %u: line %u: %s (wanted line %u, \"%s\")\n",
			       i, line, why, bad[i].line, bad[i].why);
		EXPECT_EQ(line, bad[i].line);
		EXPECT(strstr(why, bad[i].why) != NULL);
		/* refused: nothing left allocated, nothing to use */
		EXPECT(t.held == NULL && t.slab == NULL);
		EXPECT_EQ(t.nheld + t.nslabs, 0);
	}
}

/* A slab's memfd, mapped again as a new image does: the contents stay;
 * a scrub zeroes them; a file of another size is refused. */
static void test_memfd_adopt(void)
{
	size_t size = 1 * MiB;
	unsigned char *mem, *again;
	int fd = -1, fd2;

	mem = slab_mem_alloc(size, &fd);
	EXPECT(mem != NULL && fd >= 0);
	if (!mem)
		return;
	memset(mem, 0x5a, size);
	fd2 = dup(fd);
	EXPECT(fd2 >= 0);
	slab_mem_free(mem, fd, size);	/* the old image's mapping goes */
	again = slab_mem_adopt(fd2, size);
	EXPECT(again != NULL);
	if (!again)
		return;
	EXPECT_EQ(spare_find_not_byte(again, size, 0x5a), size);
	EXPECT(slab_mem_adopt(fd2, size / 2) == NULL);
	slab_mem_scrub(again, fd2, size);
	EXPECT_EQ(spare_find_not_byte(again, size, 0), size);
	slab_mem_free(again, fd2, size);
}

static void test_take_index(void)
{
	static int owner;
	struct slab_pool p;
	struct slab *s;

	EXPECT_EQ(slab_pool_init_cap(&p, 8 * MiB, 1 * MiB, 2), 0);
	s = slab_pool_take_index(&p, 1, &owner, 7);
	EXPECT(s && s->index == 1 && s->state == SLAB_LENT && s->client_id == 7);
	EXPECT(slab_pool_find(&p, &owner, 7) == s);
	EXPECT(slab_pool_take_index(&p, 1, &owner, 8) == NULL);	/* lent */
	EXPECT(slab_pool_take_index(&p, 8, &owner, 8) == NULL);	/* no slot */
	/* an OFFLINE slot (above min-lend) comes into service */
	s = slab_pool_take_index(&p, 6, &owner, 9);
	EXPECT(s && s->state == SLAB_LENT);
	EXPECT_EQ(slab_pool_lent(&p), 2);
	EXPECT_EQ(slab_pool_in_service(&p), 3);
	EXPECT_EQ(p.nfree, 1);
	/* given back above the capacity: retired */
	slab_pool_put(&p, s, SLAB_RELEASE_UNMAP);
	EXPECT_EQ(s->state, SLAB_OFFLINE);
	EXPECT_EQ(slab_pool_in_service(&p), 2);
	slab_pool_destroy(&p);
}

int main(void)
{
	TAP_RUN(test_parse_good);
	TAP_RUN(test_round_trip);
	TAP_RUN(test_parse_bad);
	TAP_RUN(test_memfd_adopt);
	TAP_RUN(test_take_index);
	return tap_done();
}
