// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the resync plan (kmod/core/spare_resync_plan.c) as
 * libspare builds it for spare-ublk: the cases of
 * kmod/core/spare_resync_plan_cases.h, which KUnit replays in the kernel.
 */
#include "core_cases.h"

#define PLAN_T			CASE_T
#define PLAN_CHECK		CASE_CHECK
#define PLAN_EQ			CASE_EQ
#define PLAN_ASSERT		CASE_ASSERT

#include "spare_resync_plan_cases.h"

CASES_MAIN(spare_resync_plan_cases)
