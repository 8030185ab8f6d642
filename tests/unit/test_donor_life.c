// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the donor life cycle (kmod/core/spare_donor_life.c)
 * as libspare builds it for spare-ublk: the cases of
 * kmod/core/spare_donor_life_cases.h, which KUnit replays in the kernel.
 */
#include <string.h>

#include "core_cases.h"

#define LIFE_T			CASE_T
#define LIFE_CHECK		CASE_CHECK
#define LIFE_EQ			CASE_EQ

#include "spare_donor_life_cases.h"

CASES_MAIN(spare_donor_life_cases)
