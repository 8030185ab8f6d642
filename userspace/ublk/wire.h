/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How spare-ublk names a slab copy to its donor (MAP, UNMAP, HELLO's held
 * slabs, EVICT): used by the lifecycle and by a restart (recover.c).
 */
#ifndef SPARE_UBLK_WIRE_H
#define SPARE_UBLK_WIRE_H

#include <stdint.h>

#include "spare_slab.h"

/*
 * The slab id on the wire of slot @c of slab @s. A donor holds at most one
 * copy of a slab (spare_slab_move_begin() refuses a second), so
 * s * SPARE_MAX_REPLICAS plus anything below it names one copy per donor;
 * the spare slot (SPARE_MAX_REPLICAS, with 3 copies) shares the number of
 * slot 0. An EVICT names its slab by id / SPARE_MAX_REPLICAS, and the slot
 * is the one on that donor (spare_slab_donor_slot()).
 */
static inline uint32_t pager_wire_id(uint32_t s, uint32_t c)
{
	return s * SPARE_MAX_REPLICAS + c % SPARE_MAX_REPLICAS;
}

#endif /* SPARE_UBLK_WIRE_H */
