// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for integrity's shared part
 * (kmod/core/spare_integrity_table.c) as libspare builds it for
 * spare-ublk: the cases of kmod/core/spare_integrity_cases.h, which KUnit
 * replays in the kernel.
 */
#include "core_cases.h"

#define INTEG_T			CASE_T
#define INTEG_CHECK		CASE_CHECK
#define INTEG_EQ		CASE_EQ
#define INTEG_ASSERT		CASE_ASSERT

#include "spare_integrity_cases.h"

CASES_MAIN(spare_integrity_cases)
