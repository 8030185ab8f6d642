/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare.ko's uevents for `sparectl device monitor`: KOBJ_CHANGE on the disk
 * with SPARE_EVENT (donor_lost, donor_up, slab_moving, slab_evicted),
 * SPARE_DONOR (address:port) and, for slab events, SPARE_SLAB. Read from
 * the kernel's netlink group through libudev, so no udevd is needed.
 */
#ifndef SPARECTL_UEVENT_H
#define SPARECTL_UEVENT_H

#include <stddef.h>
#include <stdint.h>

enum spare_ev_kind {
	SPARE_EV_OTHER,		/* an event of this disk we do not act on */
	SPARE_EV_DONOR_LOST,
	SPARE_EV_DONOR_UP,
	SPARE_EV_SLAB_MOVING,	/* a move found no donor whose grants have room */
	SPARE_EV_SLAB_EVICTED,	/* a copy was given back (moved or not) */
};

struct spare_ev {
	enum spare_ev_kind kind;
	int64_t	slab;		/* -1 if the event names none */
	char	donor[64];	/* "" if none */
};

/*
 * Decode the properties of one uevent (each may be NULL). 0, or -1 when
 * they are not a spare event or are malformed (the reason in @why).
 */
int spare_ev_parse(const char *event, const char *slab, const char *donor,
		   struct spare_ev *ev, char *why, size_t whylen);
const char *spare_ev_name(enum spare_ev_kind kind);

struct spare_uevents;

/* Listen for the uevents of block disk @disk. NULL (errno set) on failure. */
struct spare_uevents *spare_uevents_open(const char *disk);
/* The descriptor to poll for POLLIN. */
int spare_uevents_fd(const struct spare_uevents *u);
/*
 * The next queued event of the disk into @ev: 1, 0 when none is queued
 * (or it was another device's), -1 for a malformed one (reason in @why).
 */
int spare_uevents_next(struct spare_uevents *u, struct spare_ev *ev, char *why,
		       size_t whylen);
void spare_uevents_close(struct spare_uevents *u);

#endif /* SPARECTL_UEVENT_H */
