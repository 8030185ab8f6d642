/* SPDX-License-Identifier: GPL-2.0 */
/*
 * state: spare-ublk's state file, what a restarted pager needs to take its
 * ublk device back (Documentation/ublk.md, "Pager restart"): the device's
 * uuid, ublk id and geometry, the donors with the resume token each gave
 * (HELLO_REPLY), and where every copy of every slab lives and whether it
 * is whole (M), failed (F) or never mapped (U).
 *
 * Written atomically (a temporary file, fsync, rename, fsync of the
 * directory) before the device starts and again at every copy state change,
 * before the request that saw the change is committed to the kernel: a
 * restarted pager never reads a copy that had failed. A file that is torn
 * or damaged (its CRC-32 line missing or wrong) or that does not parse is
 * refused with the reason; it is never overwritten by a refused start.
 *
 * Text, one fact a line:
 *   spare-ublk-state 1
 *   uuid <32 hex>
 *   dev <ublk id>
 *   size <bytes>
 *   slab-shift <n>
 *   copies <n>
 *   depth <n>
 *   donor <i> <host> <port> <resume token, 16 hex>   (one per donor, in order)
 *   slab <s> <donor|->:<M|F|U> ...                    (one per slab, a pair per slot)
 *   crc <CRC-32 of every byte before this line, 8 hex>
 */
#ifndef SPARE_UBLK_STATE_H
#define SPARE_UBLK_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spare_slab.h"

#define UBLK_STATE_VERSION	1
#define UBLK_STATE_DIR		"/var/lib/spare"
/* without --state-file: UBLK_STATE_DIR/ublk-NAME.state with --name (as the
 * systemd unit), this without */
#define UBLK_STATE_DEFAULT	UBLK_STATE_DIR "/spare-ublk.state"

enum ublk_slot_state {
	UBLK_SLOT_UNMAPPED = 'U',	/* no copy here (or never mapped) */
	UBLK_SLOT_WHOLE	   = 'M',	/* mapped, current for every written page */
	UBLK_SLOT_FAILED   = 'F',	/* failed, or behind another copy */
};

struct ublk_state_donor {
	char		host[64];
	char		port[8];
	uint64_t	token;		/* the donor's resume token; 0: it holds nothing */
};

struct ublk_state_slot {
	uint32_t	donor;		/* SPARE_NO_DONOR for none */
	char		state;		/* enum ublk_slot_state */
};

struct ublk_state {
	uint8_t		uuid[16];
	uint32_t	dev_id;
	uint64_t	size;
	uint8_t		slab_shift;
	uint32_t	copies;
	uint32_t	depth;
	uint32_t	nr_donors;
	struct ublk_state_donor donors[SPARE_MAX_DONORS];
	uint32_t	nr_slabs;
	uint32_t	nr_slots;	/* per slab: copies + 1 (the spare slot) */
	struct ublk_state_slot *slots;	/* nr_slabs * nr_slots, slab-major */
};

/* Allocate st->slots for @nr_slabs x @nr_slots (zeroed: no donor, U). */
int ublk_state_alloc(struct ublk_state *st, uint32_t nr_slabs, uint32_t nr_slots);
void ublk_state_free(struct ublk_state *st);

/*
 * Fill the copies of @st (allocated to the map's size) from @map: each
 * slot's donor, and M for a copy that is MAPPED or EVICTING and current for
 * every page some other copy is current for, else F (U for an empty slot
 * or one never mapped). Takes each slab's lock.
 */
void ublk_state_from_map(struct ublk_state *st, struct spare_slab_map *map);

/* Write @st to @path atomically. 0, or -errno with @why filled. */
int ublk_state_save(const char *path, const struct ublk_state *st,
		    char *why, size_t whylen);

/*
 * Read @path into @st. 0; -ENOENT if there is no such file; any other
 * -errno with @why saying what is wrong (torn, damaged, malformed).
 */
int ublk_state_load(const char *path, struct ublk_state *st, char *why,
		    size_t whylen);

#endif /* SPARE_UBLK_STATE_H */
