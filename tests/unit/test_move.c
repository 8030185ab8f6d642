// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the move machine (kmod/core/spare_move.c) as
 * libspare builds it for spare-ublk: the cases of
 * kmod/core/spare_move_cases.h, which KUnit replays in the kernel.
 */
#include "core_cases.h"

#define MOVE_T			CASE_T
#define MOVE_CHECK		CASE_CHECK
#define MOVE_EQ			CASE_EQ
#define MOVE_ASSERT		CASE_ASSERT

#include "spare_move_cases.h"

CASES_MAIN(spare_move_cases)
