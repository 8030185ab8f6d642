// SPDX-License-Identifier: GPL-2.0
/* spare-ublk's read-time split (stats.c): the quantiles of its histograms. */
#include "pager.h"
#include "stats.h"
#include "tap.h"

static struct read_split s;

static void quantiles(void)
{
	unsigned int i;

	/* 99 reads held 20-29 µs (RDMA 0-9 µs), one held 5 ms (RDMA 4 ms) */
	for (i = 0; i < 99; i++)
		read_split_note(&s, 20000 + i * 90, 5000);
	read_split_note(&s, 5000000, 4000000);
	EXPECT_EQ(s.n, 100);
	EXPECT_EQ(read_split_quantile(&s, false, 0.5), 25);
	EXPECT_EQ(read_split_quantile(&s, true, 0.5), 5);
	EXPECT_EQ(read_split_quantile(&s, false, 0.99), 5005);
	EXPECT_EQ(read_split_quantile(&s, true, 0.99), 4005);
	EXPECT_EQ(read_split_quantile(&s, false, 0.98), 25);
	/* longer than the histogram: counted in its last bucket */
	read_split_note(&s, 60ULL * 1000000000, 60ULL * 1000000000);
	EXPECT_EQ(read_split_quantile(&s, false, 1.0),
		  (READ_SPLIT_BUCKETS - 1) * READ_SPLIT_US + READ_SPLIT_US / 2);
}

int main(void)
{
	TAP_RUN(quantiles);
	return tap_done();
}
