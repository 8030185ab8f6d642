// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for giving a copy back on a broker's move mark
 * (kmod/core/spare_reclaim.c) as libspare builds it for spare-ublk: the
 * cases of kmod/core/spare_reclaim_cases.h, which KUnit replays in the
 * kernel.
 */
#include "core_cases.h"

#define RECLAIM_T		CASE_T
#define RECLAIM_CHECK		CASE_CHECK
#define RECLAIM_EQ		CASE_EQ
#define RECLAIM_ASSERT		CASE_ASSERT

#include "spare_reclaim_cases.h"

CASES_MAIN(spare_reclaim_cases)
