/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/string.h>: see userspace/lib/kshim/kcompat.h. */
#include "../kcompat.h"
