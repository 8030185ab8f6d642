// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the move machine (kmod/core/spare_move.c) as
 * libspare builds it for spare-ublk: the cases of
 * kmod/core/spare_move_cases.h, which KUnit replays in the kernel.
 */
#include <errno.h>
#include <stdbool.h>

#include "tap.h"

#define MOVE_T			int
#define MOVE_CHECK(t, cond)	EXPECT(cond)
#define MOVE_EQ(t, a, b)	EXPECT_EQ(a, b)
#define MOVE_ASSERT(t, cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "# %s:%d: %s failed, case ends\n", \
				__FILE__, __LINE__, #cond);		\
			tap_case_failed = 1;				\
			return;						\
		}							\
	} while (0)

#include "spare_move_cases.h"

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(spare_move_cases); i++) {
		const struct spare_move_case *c = &spare_move_cases[i];

		tap_case_failed = 0;
		c->run(0);
		tap_n++;
		printf("%sok %d - %s\n", tap_case_failed ? "not " : "", tap_n,
		       c->name);
		fflush(stdout);
		tap_failed += tap_case_failed;
	}
	return tap_done();
}
