/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/types.h>: the UAPI header plus kcompat.h. */
#include_next <linux/types.h>
#include "../kcompat.h"
