// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the erasure-coded I/O path's decisions
 * (kmod/core/spare_ec_io.c) as libspare builds them for spare-ublk: the
 * cases of kmod/core/spare_ec_io_cases.h, which KUnit replays in the
 * kernel.
 */
#include "core_cases.h"

#define ECIO_T			CASE_T
#define ECIO_CHECK		CASE_CHECK
#define ECIO_EQ			CASE_EQ
#define ECIO_ASSERT		CASE_ASSERT

#include "spare_ec_io_cases.h"

CASES_MAIN(spare_ec_io_cases)
