/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for <linux/errno.h>: the UAPI header plus kcompat.h. */
#include_next <linux/errno.h>
#include "../kcompat.h"
