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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spare_grant.h"

struct dev_slab_copy;

#define SPARE_UBLK_CONF_DIR	"/etc/spare"

/*
 * Write spare-ublk's config for device @name from `device create`'s
 * KEY=VALUE arguments (size, slab_size, replicas, donors, source, backup,
 * backup_mode, integrity, key-file) to @f. With @grant_file (a
 * broker's grants, written by ublk_device_create()) the grants place the
 * device and donors= is refused; without it donors= is required. 0, or -1
 * with a sentence in @why (a setting spare-ublk does not have, a value that
 * cannot go in the file); nothing is started then.
 */
/*
 * redundancy=VALUE (kmod/core/spare_ec.c) as `device create` reads it for
 * either backend, before anything is created: a bad value, or one beside
 * replicas=N above 1 in @argv. 0, or -1 with the reason in @why.
 */
int redundancy_problem(const char *value, int argc, char *const *argv,
		       char *why, size_t whylen);

int ublk_conf_write(FILE *f, const char *name, int argc, char *const *argv,
		    const char *grant_file, char *why, size_t whylen);

/* The geometry `device create --backend=ublk` asks a broker to grant. */
struct ublk_geometry {
	uint64_t	size, slab_size;	/* bytes */
	unsigned int	copies;
	unsigned int	ec_k, ec_r;		/* redundancy=ec:K+R; 0, 0: none */
};

/*
 * @g from size=, slab_size=, replicas= and redundancy= among @argv, with
 * spare-ublk's defaults (1 GiB slabs, 1 copy, no erasure coding). 0, or -1
 * with a sentence in @why.
 */
int ublk_conf_geometry(int argc, char *const *argv, struct ublk_geometry *g,
		       char *why, size_t whylen);

/*
 * What a broker places for a device (Documentation/erasure-coding.md,
 * "Grants for an erasure-coded device"): @units units of @width grants,
 * unit-major. Whole-page copies: the device's slabs (size / slab_size,
 * rounded up), @width = replicas. Erasure-coded (ec_k > 0): its coding
 * groups, size / (K * slab_size) rounded up, of @width = K + R one-slab
 * grants, split j of group g at g * (K + R) + j. 0, or -1 with @why (no
 * units, or more than 32 bits of them).
 */
int ublk_broker_units(uint64_t size, uint64_t slab_size, unsigned int replicas,
		      unsigned int ec_k, unsigned int ec_r, uint32_t *units,
		      unsigned int *width, char *why, size_t whylen);

/*
 * A redundancy setting's text ("none", "ec:K+R", a trailing newline
 * allowed) into @k and @r (0, 0 for none). 0, or -1 with @why.
 */
int ublk_parse_redundancy(const char *text, unsigned int *k, unsigned int *r, char *why,
			  size_t whylen);

struct dev_roots;

struct ublk_paths {
	const char	*conf_dir;	/* SPARE_UBLK_CONF_DIR */
	const char	*bin;		/* "spare-ublk", looked up in PATH */
	const char	*grants_dir;	/* SPARECTL_GRANTS_DIR: spare.ko's kept grants */
};

/*
 * `device create NAME --backend=ublk ARGS`: the exit status. With @ngrants
 * grants (a broker's, slab-major), they go to CONF_DIR/ublk-NAME.grants
 * (mode 0600, removed with the config) for spare-ublk's --grant-file.
 */
int ublk_device_create(const struct dev_roots *r, const struct ublk_paths *p,
		       const char *name, int argc, char *const *argv,
		       const struct spare_grant *grants, size_t ngrants, char *disk,
		       size_t disklen);
/* `device destroy NAME` of a spare-ublk device: the exit status. */
int ublk_device_destroy(const struct dev_roots *r, const struct ublk_paths *p,
			const char *name, const char *disk, long pid, int power);

/*
 * A fresh grant for @slabs more slabs on donor @addr (ROOM_REQ: the room
 * a renewal's grants leave short): 0 with it in @g, or -1 (reported by
 * the callee; the renewal goes on with the other donors).
 */
typedef int (*ublk_renew_ask)(void *ctx, const char *addr, uint32_t slabs,
			      struct spare_grant *g);

/*
 * `device renew NAME` of a spare-ublk device placed by a broker: the
 * grants file's first @placed grants place the device (one slab copy
 * each); a renewal asks @ask for one grant per donor covering the copies
 * those name there (or, given the pager's slab map @live of @nlive copies,
 * the copies there now: copies move) plus @standby (room for copies moved
 * there), rewrites
 * the file as the placement grants, the later grants not yet expired and
 * the new ones (0600, whole or not at all), and sends the pager (@pid,
 * checked to be spare-ublk) SIGHUP to read it again. @renewed gets the
 * copies renewed. The exit status (logged): 1 also when a donor's room
 * was refused, after the rest was renewed and committed.
 */
int ublk_device_renew(const struct ublk_paths *p, const char *name, long pid,
		      uint32_t placed, const struct dev_slab_copy *live, unsigned int nlive,
		      uint32_t standby, ublk_renew_ask ask, void *ctx, uint32_t *renewed);

/*
 * The broker's RENEW_GRANT: grants @old[0 .. n), all on one donor, each
 * re-issued into @out[i] (the same id, client, donor and slabs, a new
 * expiry), and @move[i] set when the broker marked grant i to move off
 * the pool (a caller that does not ask for marks sets none). 0, or -1
 * (logged).
 */
typedef int (*ublk_renew_reissue)(void *ctx, const struct spare_grant *old, unsigned int n,
				  struct spare_grant *out, bool *move);

/*
 * ublk_device_renew() without minting: for each donor whose copies (plus
 * @standby) need room, the grants the file holds on it that ended less
 * than a lease ago are sent to @reissue and rewritten in place; only the
 * room they leave short (a grant that ended too long ago, standby slabs,
 * copies moved there) is asked of @ask, one grant appended per donor.
 * The file is written whole or not at all, and the pager told, as there.
 *
 * Move marks (Documentation/protocol.md, "Taking excess back"): a grant
 * the broker marked (@reissue's @move) is kept in CONF_DIR/ublk-NAME.marks
 * and renewed no more once the donor's unmarked grants cover its copies;
 * the copies beyond what they cover are asked of the pager in
 * CONF_DIR/ublk-NAME.giveback ("ADDR COUNT" lines, rewritten each
 * renewal), which gives back what it can without losing a page
 * (spare-ublk(8)); what it keeps keeps its marked grants renewed.
 */
int ublk_device_renew_grants(const struct ublk_paths *p, const char *name, long pid,
			     uint32_t placed, const struct dev_slab_copy *live,
			     unsigned int nlive, uint32_t standby, ublk_renew_ask ask,
			     ublk_renew_reissue reissue, void *ctx, uint32_t *renewed);

/*
 * The donors of such a device: its placement's, then those its kept
 * renewals name, then those of copies in the pager's slab map (@live, as
 * for ublk_device_renew()), their addresses as the broker gave them, into
 * @addr[0 .. *@n) (at most @max). 0, or -1 (logged).
 */
int ublk_device_donors(const struct ublk_paths *p, const char *name, uint32_t placed,
		       const struct dev_slab_copy *live, unsigned int nlive,
		       char (*addr)[SPARE_GRANT_ADDR_LEN], unsigned int max, unsigned int *n);

/*
 * Grant @g (a broker's answer to a move: a donor the device does not use)
 * added to such a device's grants file, rewritten as ublk_device_renew()
 * does, and the pager (@pid) sent SIGHUP: it adds the donor and moves
 * there the copies that wait for one. The exit status (logged).
 */
int ublk_device_add_grant(const struct ublk_paths *p, const char *name, long pid,
			  uint32_t placed, const struct spare_grant *g);

/*
 * When `device monitor` must renew such a device (wall clock, s), in
 * @due: the earliest over its donors of the newest grant's expiry less
 * @before seconds (0: a third of that grant's lease), or @now when a
 * donor's newest grant covers fewer slabs than its copies (@live: as for
 * ublk_device_renew()) plus @standby. 0, or -1 (logged: no readable
 * grants file).
 */
int ublk_grants_due(const struct ublk_paths *p, const char *name, uint32_t placed,
		    const struct dev_slab_copy *live, unsigned int nlive,
		    uint32_t standby, uint64_t before, uint64_t now, uint64_t *due);

/*
 * spare.ko's devices: the module keeps grants it cannot show back (a grant
 * is a credential), so sparectl keeps their bodies itself, one file per
 * device, DIR/NAME.grants (SPARECTL_GRANTS_DIR, /run/spare/grants: a
 * configfs device lasts until a reboot, and so does /run), mode 0600 in a
 * 0700 directory, written whole or not at all (renamed into place).
 * Grants are leases: a missing file (a device made by an older sparectl,
 * the file removed) is not an error; its renewal asks for fresh room.
 */
#define SPARECTL_GRANTS_DIR	"/run/spare/grants"

/* Device @name's grants @g[0 .. n) kept. 0, or -1 (logged). */
int kmod_grants_save(const char *dir, const char *name, const struct spare_grant *g, size_t n);
/* Device @name's kept grants (and marks) removed (device destroy). */
void kmod_grants_forget(const char *dir, const char *name);

/* Grant @g (for donor @addr) written to the device. 0, or -1 (logged). */
typedef int (*kmod_grant_put)(void *pctx, const struct spare_grant *g, const char *addr);

/*
 * The kept grants of device @name on donor @addr, which holds @copies of
 * its slab copies now, renewed to cover @need slabs (the copies and any
 * standby), as ublk_device_renew_grants() does for one donor: the grants
 * kept there that ended less than a lease ago sent back to @reissue
 * (RENEW_GRANT) and replaced, the room they leave short asked of @ask and
 * appended; the expired ones dropped. The file is rewritten, then every
 * grant that changed or is new written through @put (the module replaces
 * a grant whose id it holds). @newest gets the renewed grant that ends
 * last (zero: none). Move marks as for a pager: the grants the broker
 * marked are kept in DIR/NAME.marks and renewed only while the unmarked
 * ones do not cover @copies; *@giveback gets the copies there beyond what
 * the unmarked ones cover, for the module's configfs "giveback". 0; 1
 * when the room was refused (reported by @ask; the re-issued grants are
 * kept and written); or -1 (logged).
 */
int kmod_grants_renew(const char *dir, const char *name, const char *addr, uint32_t copies,
		      uint32_t need, ublk_renew_ask ask, ublk_renew_reissue reissue, void *ctx,
		      kmod_grant_put put, void *pctx, struct spare_grant *newest,
		      uint32_t *giveback);

/*
 * Whether the copy in slab-map slab @live stays beside slab @moving that
 * waits for a donor (NAME.moving), for the failure domains a MOVE_REQ
 * avoids: another copy of the same slab; with @width K + R (an ec:K+R
 * device, 0 otherwise), another split slab of the same coding group.
 */
static inline bool ublk_move_stays(unsigned int width, unsigned int live,
				   unsigned int moving)
{
	return width ? live / width == moving / width && live != moving :
		       live == moving;
}

#endif /* SPARECTL_UBLKDEV_H */
