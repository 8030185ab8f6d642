// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's VERSION, for --version. See spare_version.h.
 */
#include "spare_version.h"

const char *spare_version(void)
{
	return SPARE_VERSION;
}
