/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare devices as sparectl sees them: the configfs attributes of each
 * device (/sys/kernel/config/spare/<name>/) and, while it is powered on,
 * its versioned stat files (/sys/block/<disk>/spare/{io,slab,donor}_stat,
 * Documentation/ABI/testing/sysfs-block-spare). Reading is separate from
 * printing so that the printers (table, JSON, Prometheus text) are tested
 * on the host against a fake tree (tests/unit/test_sparectl.c).
 */
#ifndef SPARECTL_DEVSTAT_H
#define SPARECTL_DEVSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#define SPARE_CONFIGFS_ROOT	"/sys/kernel/config/spare"
#define SPARE_SYSFS_BLOCK	"/sys/block"
#define DEV_MAX_DONORS		8
#define DEV_IO_FIELDS		14	/* io_stat version 2, after the version */
#define DEV_IO_FIELDS_V1	12	/* version 1 lacks backup_waits, integrity_errors */
#define DEV_SLAB_FIELDS		9	/* slab_stat version 1, after the version */

/*
 * spare-ublk devices (the userspace pager) are not in configfs: each pager
 * keeps a counters file, UBLK_RUN_DIR/NAME, in the same versioned lines
 * as spare.ko's stat files (Documentation/ublk.md, "Live counters").
 */
#define SPARE_UBLK_RUN_DIR	"/run/spare/ublk"

/* Where to look: the real paths, or a test's fake tree. */
struct dev_roots {
	const char	*configfs;
	const char	*sysfs_block;
	const char	*ublk_run;	/* NULL: no spare-ublk devices */
};

struct dev_donor_stat {
	unsigned int	index;
	char		address[64];
	char		state[16];
	uint64_t	connects, losses, evictions, bad_msgs, maps_refused;
	uint64_t	moves, moves_short;	/* version 2; 0 from version 1 */
};

struct dev_info {
	char		name[64];	/* configfs directory */
	char		disk[32];	/* "" while powered off */
	bool		power;
	uint64_t	size, slab_size;
	unsigned int	replicas;
	/* spare-ublk's "redundancy ec:K+R" line; 0, 0: none (its renewals
	 * count coding groups x (K + R) split slabs, not slab copies) */
	unsigned int	ec_k, ec_r;
	char		donors[DEV_MAX_DONORS * 24];	/* as configfs shows it */
	char		source[64];
	char		backup[256];
	char		backup_mode[16];
	bool		ublk;		/* served by spare-ublk, not spare.ko */
	long		pid;		/* spare-ublk's, from its counters file */

	bool		has_stats;	/* the three files below were read */
	uint64_t	io[DEV_IO_FIELDS];
	uint64_t	slab[DEV_SLAB_FIELDS];
	struct dev_donor_stat donor[DEV_MAX_DONORS];
	unsigned int	ndonors;
};

extern const char *const dev_io_fields[DEV_IO_FIELDS];
extern const char *const dev_slab_fields[DEV_SLAB_FIELDS];

/* The configfs attributes `device create` accepts, in the order written. */
extern const char *const dev_attrs[];

/*
 * Read device @name. 0, or -1 with errno and a reason in @why
 * ("no such device", "io_stat: version 0 not understood", ...).
 */
int dev_read(const struct dev_roots *r, const char *name, struct dev_info *d,
	     char *why, size_t whylen);

/* One numeric configfs attribute of device @name; 0 or -1 (@why). */
/* One configfs attribute's text, trailing newlines cut. 0, or -1 (@why). */
int dev_attr_text(const struct dev_roots *r, const char *name, const char *a,
		  char *buf, size_t len, char *why, size_t whylen);
int dev_attr_u64(const struct dev_roots *r, const char *name, const char *a,
		 uint64_t *v, char *why, size_t whylen);

/* The names of every device, sorted; *@n of them, or NULL + errno. */
char **dev_names(const struct dev_roots *r, unsigned int *n);
void dev_names_free(char **names, unsigned int n);

/*
 * Parse a spare-ublk counters file's text into @d (name, disk, settings,
 * stats; not power). 0, or -1 with a reason.
 */
int dev_parse_ublk(const char *text, struct dev_info *d, char *why, size_t whylen);
/* Whether process @pid exists and is not a zombie. */
bool dev_pid_running(long pid);
/* Whether @name may name a spare-ublk device ("" "." ".." "a/b" "x.tmp" "x.log": no). */
bool dev_ublk_name_ok(const char *name);

/* Parsers of one stat file's text; 0 or -1 (reason in @why). */
int dev_parse_io_stat(const char *text, uint64_t io[DEV_IO_FIELDS],
		      char *why, size_t whylen);
int dev_parse_slab_stat(const char *text, uint64_t slab[DEV_SLAB_FIELDS],
			char *why, size_t whylen);
int dev_parse_donor_stat(const char *text, struct dev_donor_stat *donor,
			 unsigned int *n, char *why, size_t whylen);

/* One line of slab_map: where a slab's copy lives now. */
struct dev_slab_copy {
	unsigned int	slab, slot, donor;
	char		address[64];
	char		state[16];
	uint64_t	current_pages;
};

/*
 * Parse slab_map text into a malloc'd array (*@out, *@n; free() it).
 * 0, or -1 with a reason.
 */
int dev_parse_slab_map(const char *text, struct dev_slab_copy **out,
		       unsigned int *n, char *why, size_t whylen);
/* Read and parse /sys/block/DISK/spare/slab_map. */
int dev_read_slab_map(const struct dev_roots *r, const char *disk,
		      struct dev_slab_copy **out, unsigned int *n,
		      char *why, size_t whylen);
/* The same for spare-ublk device NAME: its pager's UBLK_RUN/NAME.map. */
int dev_read_ublk_slab_map(const struct dev_roots *r, const char *name,
			   struct dev_slab_copy **out, unsigned int *n,
			   char *why, size_t whylen);
void dev_print_slab_map(FILE *f, const struct dev_slab_copy *c, unsigned int n);

/*
 * One line of a pager's NAME.moving or spare.ko's sysfs `moving` (the
 * core's spare_moving_line()): a move or a lost ec split waiting for a
 * donor.
 */
struct dev_move_wait {
	unsigned int	slab, donor;	/* the slab; the donor evicting it (lost on) */
	char		address[64];	/* that donor's */
};

/*
 * Parse NAME.moving text: its first @max moves into @out (*@n of them;
 * more are left out). 0, or -1 with a reason.
 */
int dev_parse_moving(const char *text, struct dev_move_wait *out, unsigned int max,
		     unsigned int *n, char *why, size_t whylen);
/*
 * Read spare-ublk device NAME's UBLK_RUN/NAME.moving: the moves waiting
 * for a donor to be added (none: no file, 0 with *@n 0). 0, or -1 (@why).
 */
int dev_read_ublk_moving(const struct dev_roots *r, const char *name,
			 struct dev_move_wait *out, unsigned int max, unsigned int *n,
			 char *why, size_t whylen);
/*
 * Read spare.ko disk DISK's /sys/block/DISK/spare/moving: its split slabs
 * waiting for a donor (none, or a module without it: 0 with *@n 0). 0, or
 * -1 (@why).
 */
int dev_read_moving(const struct dev_roots *r, const char *disk,
		    struct dev_move_wait *out, unsigned int max, unsigned int *n,
		    char *why, size_t whylen);
struct json_object *dev_slab_map_json(const struct dev_slab_copy *c,
				      unsigned int n);

/* Printers. */
void dev_print_table(FILE *f, const struct dev_info *devs, unsigned int n);
void dev_print_show(FILE *f, const struct dev_info *d);
struct json_object *dev_json(const struct dev_info *d, bool stats);
/* Prometheus text of every device; 0 or -1 (a bug: bad name). */
int dev_print_metrics(FILE *f, const struct dev_info *devs, unsigned int n);
/* spare_device_donor_state's code for a donor state name, or -1. */
int dev_donor_state_code(const char *state);

#endif /* SPARECTL_DEVSTAT_H */
