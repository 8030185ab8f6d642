// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for spared's table of disconnected cm_ids kept for their
 * DREQ's resends (userspace/spared/linger.c).
 */
#include <stdint.h>
#include <string.h>

#include "linger.h"
#include "tap.h"

static int ids[SPARED_DREQ_LINGER_MAX + 4];

/* Kept until its deadline, then given back once, and only then. */
static void test_expiry(void)
{
	struct spared_linger l;

	memset(&l, 0, sizeof(l));
	EXPECT(spared_linger_add(&l, &ids[0], 3000));
	EXPECT(spared_linger_add(&l, &ids[1], 2000));
	EXPECT_EQ(spared_linger_next(&l), 2000);
	EXPECT(spared_linger_expired(&l, 1999) == NULL);
	EXPECT(spared_linger_expired(&l, 2000) == &ids[1]);
	EXPECT(spared_linger_expired(&l, 2999) == NULL);
	EXPECT_EQ(spared_linger_next(&l), 3000);
	EXPECT(spared_linger_expired(&l, 5000) == &ids[0]);
	EXPECT(spared_linger_expired(&l, 5000) == NULL);
	EXPECT_EQ(spared_linger_next(&l), 0);
	EXPECT_EQ(l.n, 0);
}

/* Its DISCONNECTED event ends a linger: the id is not given back again. */
static void test_take(void)
{
	struct spared_linger l;

	memset(&l, 0, sizeof(l));
	EXPECT(spared_linger_add(&l, &ids[0], 1000));
	EXPECT(spared_linger_add(&l, &ids[1], 1000));
	EXPECT(spared_linger_add(&l, &ids[2], 1000));
	EXPECT(spared_linger_take(&l, &ids[0]));
	EXPECT(!spared_linger_take(&l, &ids[0]));
	EXPECT(!spared_linger_take(&l, &ids[3]));	/* never there */
	EXPECT_EQ(l.n, 2);
	EXPECT(spared_linger_expired(&l, 1000) != &ids[0]);
	EXPECT(spared_linger_expired(&l, 1000) != &ids[0]);
	EXPECT(spared_linger_expired(&l, 1000) == NULL);
}

/* Taking one from the middle keeps every other id's own deadline. */
static void test_take_keeps_deadlines(void)
{
	struct spared_linger l;

	memset(&l, 0, sizeof(l));
	EXPECT(spared_linger_add(&l, &ids[0], 1000));
	EXPECT(spared_linger_add(&l, &ids[1], 2000));
	EXPECT(spared_linger_add(&l, &ids[2], 3000));
	EXPECT(spared_linger_take(&l, &ids[0]));
	EXPECT_EQ(spared_linger_next(&l), 2000);
	EXPECT(spared_linger_expired(&l, 2000) == &ids[1]);
	EXPECT(spared_linger_expired(&l, 2999) == NULL);
	EXPECT(spared_linger_expired(&l, 3000) == &ids[2]);
}

/* A flood: never more than the cap, the rest refused and counted. */
static void test_cap(void)
{
	struct spared_linger l;
	unsigned int i, got = 0;

	memset(&l, 0, sizeof(l));
	for (i = 0; i < SPARED_DREQ_LINGER_MAX + 4; i++)
		got += spared_linger_add(&l, &ids[i], 100 + i);
	EXPECT_EQ(got, SPARED_DREQ_LINGER_MAX);
	EXPECT_EQ(l.n, SPARED_DREQ_LINGER_MAX);
	EXPECT_EQ(l.full, 4);
	EXPECT(!spared_linger_take(&l, &ids[SPARED_DREQ_LINGER_MAX]));
	/* room again once one goes */
	EXPECT(spared_linger_take(&l, &ids[5]));
	EXPECT(spared_linger_add(&l, &ids[SPARED_DREQ_LINGER_MAX], 1));
	EXPECT_EQ(spared_linger_next(&l), 1);
	for (i = 0; spared_linger_expired(&l, UINT64_MAX); i++)
		;
	EXPECT_EQ(i, SPARED_DREQ_LINGER_MAX);
	EXPECT_EQ(l.n, 0);
}

int main(void)
{
	TAP_RUN(test_expiry);
	TAP_RUN(test_take);
	TAP_RUN(test_take_keeps_deadlines);
	TAP_RUN(test_cap);
	return tap_done();
}
