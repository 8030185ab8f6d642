/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `sparectl device create NAME --backend=ublk ...`: a spare-ublk device (the
 * userspace pager, spare-ublk(8)) with the module backend's settings. The
 * settings become spare-ublk's config file, /etc/spare/ublk-NAME.conf in the
 * daemon kit's dialect ("key = value", keys its long options), and the pager
 * runs as spare-ublk@NAME.service when systemd is PID 1, else as a detached
 * process. Its live counters file (/run/spare/ublk/NAME) makes it a device
 * like the others for list/show/metrics; destroy stops it.
 */
#ifndef SPARECTL_UBLKDEV_H
#define SPARECTL_UBLKDEV_H

#include <stddef.h>
#include <stdio.h>

#define SPARE_UBLK_CONF_DIR	"/etc/spare"

/*
 * Write spare-ublk's config for device @name from `device create`'s
 * KEY=VALUE arguments (size, slab_size, replicas, donors, source, backup,
 * backup_mode, integrity=none, key-file) to @f. 0, or -1 with a sentence
 * in @why (a setting spare-ublk does not have, a value that cannot go in
 * the file); nothing is started then.
 */
int ublk_conf_write(FILE *f, const char *name, int argc, char *const *argv,
		    char *why, size_t whylen);

struct dev_roots;

struct ublk_paths {
	const char	*conf_dir;	/* SPARE_UBLK_CONF_DIR */
	const char	*bin;		/* "spare-ublk", looked up in PATH */
};

/* `device create NAME --backend=ublk ARGS`: the exit status. */
int ublk_device_create(const struct dev_roots *r, const struct ublk_paths *p,
		       const char *name, int argc, char *const *argv, char *disk,
		       size_t disklen);
/* `device destroy NAME` of a spare-ublk device: the exit status. */
int ublk_device_destroy(const struct dev_roots *r, const struct ublk_paths *p,
			const char *name, const char *disk, long pid, int power);

#endif /* SPARECTL_UBLKDEV_H */
