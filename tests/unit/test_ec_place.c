// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the split table's placement
 * (kmod/core/spare_ec_place.c): the cases of
 * kmod/core/spare_ec_place_cases.h, which KUnit replays in the kernel.
 */
#include "core_cases.h"

#define ECPL_T			CASE_T
#define ECPL_CHECK		CASE_CHECK
#define ECPL_EQ			CASE_EQ

#include "spare_ec_place_cases.h"

CASES_MAIN(spare_ec_place_cases)
