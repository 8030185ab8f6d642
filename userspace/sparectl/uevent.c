// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko's uevents through libudev's kernel monitor (uevent.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "spare_util.h"
#include "uevent.h"

struct spare_uevents {
	struct udev		*udev;
	struct udev_monitor	*mon;
	char			disk[64];
};

static const char *const names[] = {
	[SPARE_EV_OTHER] = "other",
	[SPARE_EV_DONOR_LOST] = "donor_lost",
	[SPARE_EV_DONOR_UP] = "donor_up",
	[SPARE_EV_SLAB_MOVING] = "slab_moving",
	[SPARE_EV_SLAB_EVICTED] = "slab_evicted",
};

const char *spare_ev_name(enum spare_ev_kind kind)
{
	return kind <= SPARE_EV_SLAB_EVICTED ? names[kind] : "?";
}

int spare_ev_parse(const char *event, const char *slab, const char *donor,
		   struct spare_ev *ev, char *why, size_t whylen)
{
	uint64_t v;
	int k;

	memset(ev, 0, sizeof(*ev));
	ev->slab = -1;
	if (!event) {
		snprintf(why, whylen, "not a spare event (no SPARE_EVENT)");
		return -1;
	}
	for (k = SPARE_EV_SLAB_EVICTED; k > SPARE_EV_OTHER; k--)
		if (!strcmp(event, names[k]))
			break;
	ev->kind = (enum spare_ev_kind)k;
	if (donor) {
		if (strlen(donor) >= sizeof(ev->donor)) {
			snprintf(why, whylen, "SPARE_DONOR: longer than %zu characters",
				 sizeof(ev->donor) - 1);
			return -1;
		}
		strcpy(ev->donor, donor);
	}
	if (slab) {
		if (spare_parse_u64(slab, 0, UINT32_MAX, &v)) {
			snprintf(why, whylen, "SPARE_SLAB=%.32s: not a slab number", slab);
			return -1;
		}
		ev->slab = (int64_t)v;
	}
	if ((ev->kind == SPARE_EV_SLAB_MOVING || ev->kind == SPARE_EV_SLAB_EVICTED) &&
	    (ev->slab < 0 || !ev->donor[0])) {
		snprintf(why, whylen, "%s without SPARE_SLAB or SPARE_DONOR", event);
		return -1;
	}
	return 0;
}

struct spare_uevents *spare_uevents_open(const char *disk)
{
	struct spare_uevents *u = calloc(1, sizeof(*u));
	int err;

	if (!u)
		return NULL;
	if (strlen(disk) >= sizeof(u->disk)) {
		free(u);
		errno = ENAMETOOLONG;
		return NULL;
	}
	strcpy(u->disk, disk);
	u->udev = udev_new();
	if (!u->udev)
		goto fail;
	/* "kernel": the kernel's own events, with or without udevd */
	u->mon = udev_monitor_new_from_netlink(u->udev, "kernel");
	if (!u->mon)
		goto fail;
	err = udev_monitor_filter_add_match_subsystem_devtype(u->mon, "block", "disk");
	if (!err)
		err = udev_monitor_enable_receiving(u->mon);
	if (err < 0) {
		errno = -err;
		goto fail;
	}
	return u;
fail:
	err = errno ? errno : ENOMEM;
	spare_uevents_close(u);
	errno = err;
	return NULL;
}

int spare_uevents_fd(const struct spare_uevents *u)
{
	return udev_monitor_get_fd(u->mon);
}

int spare_uevents_next(struct spare_uevents *u, struct spare_ev *ev, char *why,
		       size_t whylen)
{
	struct udev_device *dev = udev_monitor_receive_device(u->mon);
	const char *name;
	int ret = 0;

	if (!dev)
		return 0;
	name = udev_device_get_sysname(dev);
	if (name && !strcmp(name, u->disk) &&
	    udev_device_get_property_value(dev, "SPARE_EVENT"))
		ret = spare_ev_parse(udev_device_get_property_value(dev, "SPARE_EVENT"),
				     udev_device_get_property_value(dev, "SPARE_SLAB"),
				     udev_device_get_property_value(dev, "SPARE_DONOR"),
				     ev, why, whylen) ? -1 : 1;
	udev_device_unref(dev);
	return ret;
}

void spare_uevents_close(struct spare_uevents *u)
{
	if (!u)
		return;
	if (u->mon)
		udev_monitor_unref(u->mon);
	if (u->udev)
		udev_unref(u->udev);
	free(u);
}
