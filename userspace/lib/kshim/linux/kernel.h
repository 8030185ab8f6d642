/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/kernel.h>: the UAPI header plus kcompat.h. */
#include_next <linux/kernel.h>
#include "../kcompat.h"
