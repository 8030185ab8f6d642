/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for spare's host unit tests.
 *
 * Each test binary prints "ok N - name" or "not ok N - name" per check group
 * and a plan line; scripts/check counts those lines. A binary that crashes
 * (ASan/UBSan abort) or exits non-zero counts as one extra failure.
 */
#ifndef SPARE_TAP_H
#define SPARE_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed, tap_case_failed;

/* Fail the current case with a message, without aborting it. */
#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "# %s:%d: expected %s\n",	\
				__FILE__, __LINE__, #cond);		\
			tap_case_failed = 1;				\
		}							\
	} while (0)

#define EXPECT_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			fprintf(stderr, "# %s:%d: %s == %lld, want %lld\n", \
				__FILE__, __LINE__, #a, _a, _b);	\
			tap_case_failed = 1;				\
		}							\
	} while (0)

/* Run one named case: a function taking no arguments. */
#define TAP_RUN(fn)							\
	do {								\
		tap_case_failed = 0;					\
		fn();							\
		tap_n++;						\
		printf("%sok %d - %s\n", tap_case_failed ? "not " : "",	\
		       tap_n, #fn);					\
		fflush(stdout);						\
		tap_failed += tap_case_failed;				\
	} while (0)

/* tap_put_file: DIR/FILE made to hold TEXT (a fixture; errors show up
 * as the test's own failures when it reads the file back). */
static inline void tap_put_file(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* SPARE_TAP_H */
