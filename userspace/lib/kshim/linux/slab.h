/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/slab.h>: see userspace/ublk/kcompat.h. */
#include "../../kcompat.h"
