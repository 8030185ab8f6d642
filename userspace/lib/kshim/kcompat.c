// SPDX-License-Identifier: GPL-2.0
/* kcompat.c: the state of userspace/lib/kshim/kcompat.h. */
#include "kcompat.h"

uint64_t spare_ublk_map_changes;
