/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host harness of the client core's sans-IO steps: a test includes
 * this, names its checks (e.g. #define MOVE_CHECK CASE_CHECK), includes
 * the step's kmod/core/<step>_cases.h, the table KUnit replays too, and
 * runs it with CASES_MAIN(table). The kernel's harness is each step's
 * kmod/core/<step>_kunit.c.
 */
#ifndef SPARE_CORE_CASES_H
#define SPARE_CORE_CASES_H

#include <errno.h>
#include <stdbool.h>

#include "tap.h"

#define CASE_T			int
#define CASE_CHECK(t, cond)	EXPECT(cond)
#define CASE_EQ(t, a, b)	EXPECT_EQ(a, b)
#define CASE_ASSERT(t, cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "# %s:%d: %s failed, case ends\n", \
				__FILE__, __LINE__, #cond);		\
			tap_case_failed = 1;				\
			return;						\
		}							\
	} while (0)

/* Every case of @table ({ name, run }), one TAP line each. */
#define CASES_MAIN(table)						\
int main(void)								\
{									\
	size_t i;							\
									\
	for (i = 0; i < ARRAY_SIZE(table); i++) {			\
		tap_case_failed = 0;					\
		table[i].run(0);					\
		tap_n++;						\
		printf("%sok %d - %s\n", tap_case_failed ? "not " : "", \
		       tap_n, table[i].name);				\
		fflush(stdout);						\
		tap_failed += tap_case_failed;				\
	}								\
	return tap_done();						\
}

#endif /* SPARE_CORE_CASES_H */
