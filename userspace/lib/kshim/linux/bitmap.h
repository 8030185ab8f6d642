/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/bitmap.h>: see userspace/ublk/kcompat.h. */
#include "../../kcompat.h"
