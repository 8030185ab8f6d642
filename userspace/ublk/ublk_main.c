// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk: the userspace pager (issue 10). It serves a spare swap device
 * through the kernel's ublk driver, for hosts that cannot load spare.ko,
 * with the same donors and the same protocol (kmod/uapi/spare.h).
 *
 *   spare-ublk --size 256M --slab-size 16M --donor 10.0.0.2[:18515] ...
 *
 * Logic shared with spare.ko, from the very same sources (kmod/core/, in
 * libspare):
 * the slab map and copy states, the per-page "current" bitmaps that forbid
 * stale reads, request splitting at slab boundaries, the wire codec.
 *
 * Threads:
 *  - a queue thread per ublk queue (io.c) owns its io_uring: it fetches
 *    requests (FETCH_REQ / COMMIT_AND_FETCH_REQ), posts RDMA READ/WRITE
 *    straight into the tag's ublk buffer (one memory region registered
 *    once for all of them), and reaps the data CQs through
 *    IORING_OP_POLL_ADD on their completion channels, so an idle device
 *    sleeps in io_uring_enter();
 *  - the main thread sets up (this file), then runs the lifecycle
 *    (lifecycle.c): the donors' control connections (ACTIVITY_QUERY,
 *    EVICT), reconnects, re-maps, moves, SIGHUP's grants, and the signals;
 *    SIGTERM/SIGINT stop the device (STOP_DEV, DEL_DEV) and release the
 *    slabs;
 *  - the resync thread (resync.c) refills copies mapped again.
 * The donor table's entries and the broker's grants are pager.c's; the
 * backup device backup.c's, the state file for a restart recover.c's.
 * Documentation/ublk.md describes it all and what is missing.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backup.h"
#include "grantplan.h"
#include "spare_donor_life.h"
#include "spare_ec.h"
#include "pager.h"
#include "stats.h"
#include "spare_conf.h"
#include "spare_keyfile.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "state.h"

/* ---- set-up and the control loop (main thread); io.c has the request path ---- */

/* Options kept until set-up (backup.c opens the device; stats.c's file). */
static struct stats_id g_id;
static bool g_state_given;	/* --state-file, else the default per --name */
static char g_run_dir[PATH_MAX_STATS - 72] = UBLK_RUN_DIR;
static enum backup_mode g_backup_mode = BACKUP_SYNC;
static u64 g_stats_ns;	/* when the counters file was last written */
static char g_domains[4 * SPARE_MAX_DONORS];	/* --domains, read once the donors are known */
static bool g_delta_given;		/* --ec-delta */
/* the write window's async_depth (0: none), and what keeping it last saw */
static unsigned int g_win_nr;
static int g_win_seen;		/* 0 kept, or the -errno last logged */
static u64 g_win_ns;		/* when it was last looked at */

/*
 * The pager serves swap. A page of its own swapped out to its own device
 * could only come back through the pager, which would be waiting for it:
 * so all its memory is locked, now and as it grows (and its stacks are
 * small, above). PR_SET_IO_FLUSHER (Linux 5.6) makes the kernel treat its
 * allocations as an I/O path's (no reclaim that waits on I/O), as it asks
 * of userspace block servers; without CAP_SYS_RESOURCE it is only a
 * warning.
 */
static int pager_lock_memory(void)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		log_err("mlockall: %s: the pager's memory must not be swapped out (to its own device it could never come back); run it as root, or with CAP_IPC_LOCK and LimitMEMLOCK=infinity",
			strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0))
		log_warn("PR_SET_IO_FLUSHER: %s: allocations of the pager may wait on reclaim",
			 strerror(errno));
	return 0;
}

/*
 * Once a second: keep the write window. A change of the disk's scheduler
 * or of its nr_requests (an administrator, a udev rule) resets or removes
 * async_depth; set it again, and say so once per change. Under a scheduler
 * without it the window is lost until mq-deadline is back.
 */
static void keep_write_window(struct dev *d, u64 now)
{
	unsigned int dev = d->ctrl.info.dev_id, cur = 0;
	int ret;

	if (!g_win_nr || now - g_win_ns < 1000000000ULL)
		return;
	g_win_ns = now;
	ret = ublk_get_write_depth(dev, &cur);
	if (!ret && cur != g_win_nr) {
		ret = ublk_set_write_depth(dev, g_win_nr);
		if (!ret)
			log_info("/dev/ublkb%u: async_depth was %u (its I/O scheduler or nr_requests changed): the write window is %u request(s) again",
				 dev, cur, g_win_nr);
	}
	if (ret && ret != g_win_seen)
		log_warn("/dev/ublkb%u: %s: the write window is lost until it can be set again (only --queue-depth bounds writes in flight)",
			 dev, ret == -ENOENT ? "its I/O scheduler has no async_depth now (not mq-deadline)" :
			 strerror(-ret));
	g_win_seen = ret;
}

/* The counters file, at most once a second unless a copy left the map
 * (d->stats_now; stats.c); life_loop() calls it. */
static void pager_tick(struct dev *d)
{
	u64 now = spare_now_ns();

	keep_write_window(d, now);
	if (!g_id.path[0] || (!d->stats_now && now - g_stats_ns < 1000000000ULL))
		return;
	g_stats_ns = now;
	d->stats_now = false;
	if (stats_write(d, &g_id))
		log_warn("%s: %s", g_id.path, strerror(errno));
}

static int map_slabs(struct dev *d)
{
	u32 s, c;

	for (s = 0; s < d->map.nr_slabs; s++) {
		struct spare_slab *slab = &d->map.slabs[s];

		for (c = 0; c < d->copies; c++) {
			struct spare_copy *cp = &slab->copy[c];
			struct donor *dn = &d->donors[cp->donor];
			int ok;

			spare_copy_set_state(&d->map, slab, c, SPARE_COPY_MAPPING);
			/* slab ids are per session: copy c of slab s */
			ok = donor_map(dn, pager_wire_id(s, c), &cp->addr,
				       &cp->rkey) == 0;
			spare_copy_set_state(&d->map, slab, c,
					     ok ? SPARE_COPY_MAPPED : SPARE_COPY_UNMAPPED);
			if (!ok)
				return -1;
		}
	}
	return 0;
}

/*
 * The slabs given back (UNMAP) as the pager stops. A donor one UNMAP could
 * not reach gets no more: each try waits out the control time-out (10 s),
 * and with a donor stopping beside the pager (a local spared at a
 * shutdown) 8 slabs made the pager's stop outlast its unit's 60 s
 * TimeoutStopSec= (tests/vm/ops/shutdown.sh). That donor frees them when
 * the session ends, as for a client that vanished.
 */
static void unmap_slabs(struct dev *d)
{
	bool lost[SPARE_MAX_DONORS] = { false };
	u32 s, c;

	for (s = 0; s < d->map.nr_slabs; s++)
		for (c = 0; c < d->map.nr_slots; c++) {
			struct spare_copy *cp = &d->map.slabs[s].copy[c];

			if ((cp->state == SPARE_COPY_MAPPED ||
			     cp->state == SPARE_COPY_EVICTING) &&
			    cp->donor < d->nr_donors &&
			    cp->donor < SPARE_MAX_DONORS && !lost[cp->donor] &&
			    !d->donors[cp->donor].abandoned &&
			    d->donors[cp->donor].ctrl.up &&
			    !d->donors[cp->donor].failed &&
			    donor_unmap(&d->donors[cp->donor],
					pager_wire_id(s, c)))
				lost[cp->donor] = true;
		}
}

/* The secret never reaches a log line: only the reason does. */
static const char *read_key(struct dev *d, const char *path)
{
	static char err[320];
	char buf[256];
	const char *why;

	if (spare_key_file_read(path, buf, sizeof(buf), err, sizeof(err)) < 0)
		return err;
	why = spare_key_parse(buf, d->key);
	memset(buf, 0, sizeof(buf));
	if (why)
		return why;
	d->has_key = true;
	return NULL;
}

/*
 * Settings: every key of the config file (/etc/spare/spare-ublk.conf, or
 * --config PATH, e.g. one per device for spare-ublk@.service) is a long
 * option too, and the command line wins; "donor" lines add up.
 */
#define UBLK_DEFAULT_CONF	"/etc/spare/spare-ublk.conf"

static const struct spare_setting ublk_settings[] = {
	{ "size", 's', "SIZE", "device size (e.g. 256M; required)", "" },
	{ "slab-size", 'S', "SIZE", "slab size, a power of two of 1M..16G", "1G" },
	{ "donor", 'd', "HOST[:PORT]", "a donor (spared); repeat for more, max " SPARE_STR(SPARE_MAX_DONORS) " (required)", "" },
	{ "copies", 'c', "N", "copies of every slab, 1.." SPARE_STR(SPARE_MAX_REPLICAS) ", at most the donors", "1" },
	{ "redundancy", 'E', "none|ec:K+R", "erasure coding instead of copies: K (2, 4, 8) data and R (1, 2) parity splits of a page on K+R distinct donors (and domains); without a backup or a state file", "none" },
	{ "ec-delta", 'e', "N", "with --redundancy ec:K+R: split reads posted beyond K, 0..R; a read completes on the first K", "1" },
	{ "integrity", 0, "none|crc32c", "a crc32c of every page (every split with ec:K+R) kept in the pager's memory and checked on every read; a bad copy or split is read from another source and refilled, never returned", "none" },
	{ "source", 'b', "ADDR", "local address to connect from", "" },
	{ "queue-depth", 'q', "N", "ublk queue depth, 1..1024 (x 256 KiB x --queues: the most data in flight)", "16" },
	{ "queues", 'Q', "N", "ublk queues, 1.." SPARE_STR(PAGER_MAX_QUEUES) ", each with its own thread, io_uring and RDMA connection to every donor, as spare.ko's hardware queues", "1" },
	{ "write-window", 'W', "KIB", "the most write data in flight, through the disk's I/O scheduler (mq-deadline's async_depth), as spare.ko's write_window_kb (0: only --queue-depth bounds it)", "1024" },
	{ "key-file", 'k', "PATH", "this host's SPARE-1: secret (authenticate donors)", "" },
	{ "grant", 'g', "HEX", "a broker's grant (512 hex digits), sent to the donor it names; repeat for more", "" },
	{ "grant-file", 'G', "PATH", "a file of a broker's grants, one per line; without --donor its grants name the donors and place every slab copy", "" },
	{ "domains", 'D', "LIST", "the failure domain of each donor, in --donor order (or the grants'), e.g. 0,0,1: a moved copy goes first to a domain holding no other copy of its slab; \"\": every donor its own", "" },
	{ "timeout", 't', "MS", "set-up timeout per step", "10000" },
	{ "io-timeout", 'T', "MS", "fail a donor whose RDMA makes no progress this long: its requests fail over to the other copies", "10000" },
	{ "rehome-delay", 0, "MS", "a lost donor down this long gives its copies up to other donors, " SPARE_STR(SPARE_LIFE_REHOME_MIN_MS) ".." SPARE_STR(SPARE_LIFE_REHOME_MAX_MS) "; with a state file and a hold, more than --hold", SPARE_STR(SPARE_LIFE_REHOME_MS) },
	{ "hold", 0, "MS", "with a state file, a lost donor that holds the device's slabs over its restart is waited for this long before its copies fail, 0 or " SPARE_STR(SPARE_LIFE_HOLD_MIN_MS) ".." SPARE_STR(SPARE_LIFE_HOLD_MAX_MS) " (0: no donor is asked to hold)", SPARE_STR(SPARE_LIFE_HOLD_MS) },
	{ "ack-timeout", 'A', "N", "RDMA ACK timeout per try, 4.096 us << N, 12..22 (16: 268 ms), as spare.ko's ack_timeout; longer on a slow link (retransmits), shorter to notice a dead donor sooner", "16" },
	{ "poll-us", 'P', "US", "reap RDMA completions this long before sleeping, only while RDMA is in flight (0: never)", "0" },
	{ "backup", 'B', "PATH", "backup block device or file (O_DIRECT), at least --size long", "" },
	{ "backup-mode", 'M', "MODE", "sync: a write waits for the backup; async: it does not", "sync" },
	{ "name", 'n', "NAME", "name of the live counters file RUN-DIR/NAME (default: the disk's name)", "" },
	{ "run-dir", 'R', "DIR", "where the live counters file goes (\"\": none)", UBLK_RUN_DIR },
	/* no default here: one given as the table's would count as --state-file */
	{ "state-file", 'F', "PATH", "the state a restarted pager takes its device back with (default: " UBLK_STATE_DIR "/ublk-NAME.state with --name, else " UBLK_STATE_DEFAULT "); one pager per file; \"none\": no restart (its donors free the slabs at once)", "" },
	{ "verbose", 'v', NULL, "debug logging", "" },
};

static const char *ublk_set(const char *key, const char *value, void *ctx)
{
	struct dev *d = ctx;
	uint64_t v;
	bool on;
	int sh;

	if (!strcmp(key, "size")) {
		if (spare_parse_size(value, &d->size) || !d->size ||
		    d->size % SPARE_PAGE_SIZE)
			return "a size in 4 KiB units";
	} else if (!strcmp(key, "slab-size")) {
		if (spare_parse_size(value, &v))
			return "not a size";
		sh = spare_ilog2_exact(v);
		if (sh < SPARE_SLAB_SHIFT_MIN || sh > SPARE_SLAB_SHIFT_MAX)
			return "a power of two from 1M to 16G";
		d->slab_shift = (u8)sh;
	} else if (!strcmp(key, "donor")) {
		return pager_add_donor(d, value);
	} else if (!strcmp(key, "grant")) {
		return value[0] ? pager_add_grant(d, value) : NULL;
	} else if (!strcmp(key, "grant-file")) {
		return value[0] ? pager_read_grant_file(d, value) : NULL;
	} else if (!strcmp(key, "domains")) {
		return spare_conf_str(g_domains, sizeof(g_domains), value);
	} else if (!strcmp(key, "copies")) {
		if (spare_parse_u64(value, 1, SPARE_MAX_REPLICAS, &v))
			return "1.." SPARE_STR(SPARE_MAX_REPLICAS);
		d->copies = (u32)v;
	} else if (!strcmp(key, "redundancy")) {
		const char *why;

		if (spare_ec_parse(value, strlen(value), &d->ec_geom, &why))
			return why;
	} else if (!strcmp(key, "ec-delta")) {
		if (spare_parse_u64(value, 0, SPARE_EC_MAX_DELTA, &v))
			return "0.." SPARE_STR(SPARE_EC_MAX_DELTA);
		d->ec_delta = (u8)v;
		g_delta_given = strcmp(value, "1") != 0;
	} else if (!strcmp(key, "integrity")) {
		if (strcmp(value, "crc32c") && strcmp(value, "none"))
			return "none or crc32c";
		d->integrity = !strcmp(value, "crc32c");
	} else if (!strcmp(key, "source")) {
		return spare_conf_str(d->source, sizeof(d->source), value);
	} else if (!strcmp(key, "queue-depth")) {
		if (spare_parse_u64(value, 1, 1024, &v))
			return "1..1024";
		d->depth = (unsigned int)v;
	} else if (!strcmp(key, "queues")) {
		if (spare_parse_u64(value, 1, PAGER_MAX_QUEUES, &v))
			return "1.." SPARE_STR(PAGER_MAX_QUEUES);
		d->nr_queues = (unsigned int)v;
	} else if (!strcmp(key, "write-window")) {
		if (spare_parse_u64(value, 0, 1048576, &v))
			return "0..1048576 KiB";
		d->write_window_kb = (unsigned int)v;
	} else if (!strcmp(key, "key-file")) {
		return value[0] ? read_key(d, value) : NULL;
	} else if (!strcmp(key, "timeout")) {
		if (spare_parse_u64(value, 100, 600000, &v))
			return "100..600000 ms";
		d->timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "io-timeout")) {
		if (spare_parse_u64(value, 1000, 600000, &v))
			return "1000..600000 ms";
		d->io_timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "rehome-delay")) {
		if (spare_parse_u64(value, SPARE_LIFE_REHOME_MIN_MS,
				    SPARE_LIFE_REHOME_MAX_MS, &v))
			return SPARE_STR(SPARE_LIFE_REHOME_MIN_MS) ".."
			       SPARE_STR(SPARE_LIFE_REHOME_MAX_MS) " ms";
		d->rehome_ms = (u32)v;
	} else if (!strcmp(key, "hold")) {
		if (spare_parse_u64(value, 0, SPARE_LIFE_HOLD_MAX_MS, &v) ||
		    spare_life_hold_check((u32)v))
			return "0 (no hold) or " SPARE_STR(SPARE_LIFE_HOLD_MIN_MS)
			       ".." SPARE_STR(SPARE_LIFE_HOLD_MAX_MS) " ms";
		d->hold_ms = (u32)v;
	} else if (!strcmp(key, "ack-timeout")) {
		if (spare_parse_u64(value, 12, 22, &v))
			return "12..22 (4.096 us << N per try)";
		d->ack_timeout = (u8)v;
	} else if (!strcmp(key, "poll-us")) {
		if (spare_parse_u64(value, 0, 1000000, &v))
			return "0..1000000";
		d->poll_us = (unsigned int)v;
	} else if (!strcmp(key, "backup")) {
		if (value[0] && value[0] != '/')
			return "an absolute path";
		return spare_conf_str(g_id.backup, sizeof(g_id.backup), value);
	} else if (!strcmp(key, "backup-mode")) {
		if (!strcmp(value, "sync"))
			g_backup_mode = BACKUP_SYNC;
		else if (!strcmp(value, "async"))
			g_backup_mode = BACKUP_ASYNC;
		else
			return "sync or async";
	} else if (!strcmp(key, "name")) {
		char path[PATH_MAX_STATS];

		if (value[0] && stats_path("/", value, path, sizeof(path)))
			return "a plain name of at most 63 characters";
		return spare_conf_str(g_id.name, sizeof(g_id.name), value);
	} else if (!strcmp(key, "run-dir")) {
		if (value[0] && value[0] != '/')
			return "an absolute path, or \"\"";
		return spare_conf_str(g_run_dir, sizeof(g_run_dir), value);
	} else if (!strcmp(key, "state-file")) {
		g_state_given = true;
		if (!strcmp(value, "none")) {
			d->state_path[0] = 0;
			return NULL;
		}
		if (value[0] != '/')
			return "an absolute path, or none";
		return spare_conf_str(d->state_path, sizeof(d->state_path), value);
	} else if (!strcmp(key, "verbose")) {
		const char *why = spare_conf_bool(value, &on);

		if (why)
			return why;
		spare_log_set_level(on ? SPARE_LOG_DEBUG : SPARE_LOG_INFO);
	} else {
		return "unknown setting";
	}
	return NULL;
}

/*
 * --domains, once the donors are known (from --donor, or the grants): one
 * number per donor, 0 .. SPARE_MAX_DONORS - 1 as the module's configfs
 * "domains". 0, or -1 (said why).
 */
static int set_domains(struct dev *d)
{
	uint8_t dom[GRANTPLAN_MAX_DONORS];
	char why[128];
	u32 i;

	if (!g_domains[0])
		return 0;
	if (grantplan_parse_domains(g_domains, d->nr_donors, dom, why, sizeof(why))) {
		log_err("--domains %s: %s", g_domains, why);
		return -1;
	}
	for (i = 0; i < d->nr_donors; i++) {
		if (dom[i] >= SPARE_MAX_DONORS) {
			log_err("--domains %s: entry %u is above %u", g_domains, i,
				SPARE_MAX_DONORS - 1);
			return -1;
		}
		d->domain[i] = dom[i];
	}
	d->nr_domains = d->nr_donors;
	log_info("failure domains %s of donors 0..%u", g_domains, d->nr_donors - 1);
	return 0;
}

/*
 * --redundancy against the donors, the domains and --copies, once they are
 * known; then the parts of the pager erasure-coded pages do not work with
 * yet (Documentation/erasure-coding.md): a device asked to survive donor
 * losses by coding must not run unprotected. 0, or -1 (said why).
 */
static int check_redundancy(struct dev *d)
{
	const struct spare_ec_geom *g = &d->ec_geom;
	char name[SPARE_EC_NAME_MAX], why[192];
	u32 i, j, domains = 0;

	if (!spare_ec_on(g)) {
		if (g_delta_given) {
			log_err("--ec-delta is for --redundancy ec:K+R only");
			return -1;
		}
		return 0;
	}
	for (i = 0; d->nr_domains && i < d->nr_donors; i++) {
		for (j = 0; j < i && d->domain[j] != d->domain[i]; j++)
			;
		domains += j == i;
	}
	spare_ec_format(g, name, sizeof(name));
	if (spare_ec_check(g, d->copies, d->nr_donors, domains, why, sizeof(why))) {
		log_err("--redundancy %s: %s", name, why);
		return -1;
	}
	if (d->ec_delta > g->r) {
		log_err("--ec-delta %u: at most R = %u with --redundancy %s",
			d->ec_delta, g->r, name);
		return -1;
	}
	/* not built for split slabs yet: refused, never run half-protected */
	if (g_id.backup[0] || (g_state_given && d->state_path[0])) {
		log_err("--redundancy %s with %s: not built yet (%s): leave it out",
			name, g_id.backup[0] ? "--backup" :
			"--state-file (a restart taking the device back)",
			strerror(EOPNOTSUPP));
		return -1;
	}
	return 0;
}

/* 0 configured, 1 --help printed, -1 refused (said why). */
static int parse_args(struct dev *d, int argc, char **argv)
{
	const struct spare_cli cli = {
		.usage = "Serve a spare remote-memory swap device through ublk (/dev/ublkbN).\n"
			 "Needs --size and at least one --donor, or a --grant-file that names them.\n",
		.default_conf = UBLK_DEFAULT_CONF,
		.settings = ublk_settings,
		.nsettings = ARRAY_SIZE(ublk_settings),
		.set = ublk_set,
		.ctx = d,
	};
	int ret = spare_cli_configure(&cli, argc, argv);

	if (ret)
		return ret;
	if (d->size && !d->nr_donors && d->grant_path[0] && pager_place_by_grants(d))
		return -1;
	if (!d->size || !d->nr_donors) {
		log_err("--size and at least one --donor (or --grant-file) are required (--help)");
		return -1;
	}
	if (d->copies > d->nr_donors) {
		log_err("--copies %u needs as many donors (%u given)", d->copies,
			d->nr_donors);
		return -1;
	}
	if (set_domains(d))
		return -1;
	return check_redundancy(d);
}

/* The queues (nr_queues of them), before the donors connect. 0 or -1. */
static int queues_init(struct dev *d)
{
	d->queues = calloc(d->nr_queues, sizeof(*d->queues));
	if (!d->queues)
		return -1;
	for (unsigned int i = 0; i < d->nr_queues; i++)
		d->queues[i].links_fd = d->queues[i].kick_fd = -1;
	for (unsigned int i = 0; i < d->nr_queues; i++) {
		struct queue *q = &d->queues[i];

		q->d = d;
		q->id = i;
		q->q.cdev_fd = -1;
		q->links_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		q->kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (q->links_fd < 0 || q->kick_fd < 0) {
			log_err("eventfd: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int setup_rdma(struct dev *d, const struct ublk_state *st)
{
	size_t len;
	u32 i, up = 0;

	if (g_id.backup[0]) {
		char why[512];

		if (backup_open(d, g_id.backup, g_backup_mode, why, sizeof(why))) {
			log_err("%s", why);
			return -1;
		}
		snprintf(g_id.backup_mode, sizeof(g_id.backup_mode), "%s",
			 g_backup_mode == BACKUP_ASYNC ? "async" : "sync");
		if (d->recovering)
			backup_distrust(d);
	}
	len = (size_t)(d->nr_queues * d->depth + backup_extra_bufs(d)) * MAX_IO;

	if (d->has_key && spare_auth_init())
		return -1;
	if (d->recovering)
		memcpy(d->uuid, st->uuid, sizeof(d->uuid));	/* the same client */
	else if (spare_random_bytes(d->uuid, sizeof(d->uuid)))
		return -1;
	if (spare_ec_on(&d->ec_geom)) {
		/* no whole-page copies: the split slabs are ec.c's */
		d->map.nr_copies = 1;
		d->map.nr_slots = 2;
		d->map.nr_donors = d->nr_donors;
		d->map.slab_shift = d->slab_shift;
		d->map.pages_per_slab = 1U << (d->slab_shift - 12);
	} else if (spare_slab_map_init(&d->map, d->size, d->slab_shift, d->copies,
				       d->nr_donors)) {
		log_err("cannot build a slab map for %" PRIu64 " bytes", d->size);
		return -1;
	}
	/* a restart takes the placement from its state file instead */
	if (d->placement && !d->recovering && !spare_ec_on(&d->ec_geom) &&
	    spare_slab_map_place(&d->map, d->placement, d->nr_placement)) {
		log_err("--grant-file: %u placements for %u slab(s) x %u copies on %u donor(s) refused",
			d->nr_placement, d->map.nr_slabs, d->copies, d->nr_donors);
		return -1;
	}
	for (i = 0; i < d->nr_donors; i++) {
		struct donor *dn = &d->donors[i];

		pager_donor_init(d, dn);
		dn->resume_token = d->recovering ? st->donors[i].token : 0;
		if (donor_connect(dn, &d->pd, d->slab_shift,
				  d->depth * MAX_OPS + 1) ||
		    donor_connect_rs(dn, 2) || send_grants(d, dn)) {
			if (!d->recovering)
				return -1;
			/* Taking a device back: its copies there fail, the
			 * others serve (EIO only where none is left), and the
			 * lifecycle reconnects it (life_init()). */
			log_err("donor %s: unreachable on restart: its copies are failed",
				dn->host);
			dn->ctrl.up = false;
			continue;
		}
		up++;
	}
	if (d->recovering && !up) {
		log_err("no donor reachable: /dev/ublkb%u stays as it is (quiesced) for the next try",
			d->ctrl.info.dev_id);
		return -1;
	}
	if ((d->recovering ? pager_restore_map(d, st) :
	     spare_ec_on(&d->ec_geom) ? ec_init(d) : map_slabs(d)) ||
	    integ_init(d) || life_init(d) || resync_init(d))
		return -1;
	/* Every tag's ublk buffer, registered once for RDMA. */
	d->bufs = aligned_alloc(4096, len);
	if (!d->bufs)
		return -1;
	memset(d->bufs, 0, len);
	d->bufs_mr = ibv_reg_mr(d->pd, d->bufs, len, IBV_ACCESS_LOCAL_WRITE);
	if (!d->bufs_mr) {
		log_err("ibv_reg_mr of %zu bytes: %s", len, strerror(errno));
		return -1;
	}
	d->rqs = calloc((size_t)d->nr_queues * d->depth, sizeof(*d->rqs));
	if (!d->rqs || backup_bufs_init(d))
		return -1;
	for (i = 0; i < d->nr_queues; i++) {
		struct queue *q = &d->queues[i];

		q->rqs = d->rqs + (size_t)i * d->depth;
		q->tag_addr = d->tag_addr ? d->tag_addr + (size_t)i * d->depth : NULL;
	}
	return 0;
}

/*
 * A pager that dies while it holds every tag leaves no ublk command for
 * io_uring to cancel: the driver then learns of the death only when a
 * request times out (ublk_timeout(), which re-arms the timer while the
 * pager lives), 30 s by default. A shorter timeout makes a restart take the
 * device back sooner; for a live pager it only re-arms timers.
 */
#define UBLK_IO_TIMEOUT_MS	5000

static void set_io_timeout(const struct dev *d)
{
	char path[96], val[16];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/ublkb%u/queue/io_timeout",
		 d->ctrl.info.dev_id);
	snprintf(val, sizeof(val), "%u", UBLK_IO_TIMEOUT_MS);
	f = fopen(path, "w");
	if (f) {
		bool ok = fputs(val, f) >= 0;

		if (fclose(f) == 0 && ok)
			return;
	}
	log_warn("%s: %s: a dead pager holding every request is noticed only at the kernel's default timeout",
		 path, strerror(errno));
}

/*
 * --write-window: spare.ko makes a task that would put more than
 * write_window_kb of writes in flight sleep in ->queue_rq(); ublk_drv's
 * ->queue_rq() never waits for the pager, so the bound is set where the
 * block layer itself makes the submitter sleep: the scheduler's tags for
 * writes. Pages under writeback cannot be reclaimed, and a cgroup whose
 * pages are mostly in flight to the pager finds nothing to free in its
 * reclaim retries and OOM-kills (Documentation/ublk.md, "Write window";
 * the kills counted since had little in flight: the window bounds the
 * writes, it does not end those). A scheduler without async_depth leaves
 * only the queue depth as the bound.
 */
static void set_write_window(struct dev *d)
{
	unsigned int nr = (unsigned int)(((u64)d->write_window_kb * 1024 +
					  MAX_IO - 1) / MAX_IO);
	int ret;

	if (!d->write_window_kb)
		return;
	/* mq-deadline's async_depth bounds each hardware queue's writes */
	nr = (nr + d->nr_queues - 1) / d->nr_queues;
	ret = ublk_set_write_depth(d->ctrl.info.dev_id, nr);
	if (ret == -ENOENT && d->nr_queues > 1) {
		/* a device of several queues starts without a scheduler */
		ret = ublk_set_scheduler(d->ctrl.info.dev_id, "mq-deadline");
		if (ret)
			log_warn("/dev/ublkb%u: cannot choose mq-deadline: %s",
				 d->ctrl.info.dev_id, strerror(-ret));
		else
			ret = ublk_set_write_depth(d->ctrl.info.dev_id, nr);
	}
	g_win_nr = nr;		/* kept from now on: keep_write_window() */
	g_win_seen = ret;
	if (ret == -ENOENT)
		log_warn("/dev/ublkb%u: its I/O scheduler has no async_depth (not mq-deadline): --write-window is not applied, only --queue-depth bounds writes in flight (%u x %u KiB)",
			 d->ctrl.info.dev_id, d->depth, MAX_IO >> 10);
	else if (ret)
		log_warn("/dev/ublkb%u: setting the write window (async_depth %u): %s: only --queue-depth bounds writes in flight",
			 d->ctrl.info.dev_id, nr, strerror(-ret));
	else
		log_info("/dev/ublkb%u: write window %u KiB: at most %u write request(s) of up to %u KiB in flight%s",
			 d->ctrl.info.dev_id, d->write_window_kb, nr, MAX_IO >> 10,
			 d->nr_queues > 1 ? " per queue" : "");
}

static void print_stats(struct dev *d)
{
	struct stats st;

	stats_sum(d, &st, false);
	printf("spare-ublk: reads %" PRIu64 " writes %" PRIu64
	       " rdma_reads %" PRIu64 " rdma_writes %" PRIu64
	       " io_errors %" PRIu64 " copy_faults %" PRIu64
	       " redrives %" PRIu64 " backup_reads %" PRIu64
	       " backup_writes %" PRIu64 " backup_waits %" PRIu64
	       " backup_errors %" PRIu64 " backup_kicks %" PRIu64 " zero_reads %" PRIu64
	       " losses %" PRIu64 " reconnects %" PRIu64
	       " remaps %" PRIu64 " resync_pages %" PRIu64 " evictions %" PRIu64
	       " moves %" PRIu64 " moves_short %" PRIu64
	       " writes_held_max %" PRIu64 " held_waits %" PRIu64
	       " kept_copies %" PRIu64 " kept_pages %" PRIu64
	       " holds_expired %" PRIu64 " integrity_errors %" PRIu64 "\n",
	       st.reads, st.writes, st.rdma_reads, st.rdma_writes,
	       st.io_errors, st.copy_faults, st.redrives,
	       st.backup_reads, st.backup_writes, st.backup_waits,
	       st.backup_errors, st.backup_kicks, st.zero_reads,
	       st.losses, st.reconnects, st.remaps,
	       st.resync_pages, st.evictions, st.moves,
	       st.moves_short, st.writes_held_max, st.held_waits,
	       st.kept_copies, st.kept_pages, st.holds_expired,
	       st.integrity_errors);
	if (spare_ec_on(&d->ec_geom))
		printf("spare-ublk: ec reads_decoded %" PRIu64 " late_dropped %" PRIu64
		       " eio_pages %" PRIu64 " writes_short %" PRIu64
		       " repaired_pages %" PRIu64 " replaced %" PRIu64
		       " moved %" PRIu64 " moves_given_up %" PRIu64
		       " copied_pages %" PRIu64 "\n",
		       st.ec.reads_decoded, st.ec.late_dropped, st.ec.eio_pages,
		       st.ec.writes_short,
		       st.ec.repaired_pages, st.remaps,
		       st.ec_moved, st.ec_move_gave_up, st.ec_copied_pages);
	/* each queue's requests, on a line of their own */
	printf("spare-ublk: queues %u", d->nr_queues);
	for (unsigned int i = 0; i < d->nr_queues; i++)
		printf(" q%u_reads %" PRIu64 " q%u_writes %" PRIu64, i,
		       d->queues ? d->queues[i].st.reads : 0, i,
		       d->queues ? d->queues[i].st.writes : 0);
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static struct dev dev;
	static struct ublk_state st;
	struct dev *d = &dev;
	char why[512];
	struct read_split split = { 0 };
	sigset_t sigs;
	int sfd, ret, rc = 1;
	u32 i;

	spare_log_init("spare-ublk", SPARE_LOG_INFO);
	snprintf(d->state_path, sizeof(d->state_path), "%s", UBLK_STATE_DEFAULT);
	d->nr_queues = 1;
	pthread_mutex_init(&d->state_lock, NULL);
	ret = parse_args(d, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (!g_state_given && g_id.name[0])
		snprintf(d->state_path, sizeof(d->state_path),
			 UBLK_STATE_DIR "/ublk-%s.state", g_id.name);
	if (spare_ec_on(&d->ec_geom) && d->state_path[0]) {
		log_info("--redundancy: no state file: a restart does not take an erasure-coded device back yet");
		d->state_path[0] = 0;
	}
	/* with a state file and a hold, its donors hold its slabs over a restart */
	if (!d->state_path[0])
		d->hold_ms = 0;
	if (spare_life_rehome_check(d->rehome_ms, d->hold_ms)) {
		log_err("--rehome-delay %u: must be more than the %u ms (--hold) a donor holding the device's slabs over a restart is waited for (state file %s): give a longer delay, a shorter --hold, or --hold 0",
			d->rehome_ms, d->hold_ms, d->state_path);
		return 2;
	}
	if (ublk_check_kernel(&d->ctrl, why, sizeof(why))) {
		log_err("%s", why);
		ublk_ctrl_close(&d->ctrl);
		return 3;
	}
	if (pager_lock_memory()) {
		ublk_ctrl_close(&d->ctrl);
		return 1;
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);	/* read --grant-file again */
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	d->stop_fd = eventfd(0, EFD_CLOEXEC);
	d->life_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&d->start_lock, NULL);
	pthread_cond_init(&d->start_cond, NULL);
	pthread_mutex_init(&d->st_lock, NULL);
	pthread_mutex_init(&d->grants_lock, NULL);
	if (sfd < 0 || d->stop_fd < 0 || d->life_fd < 0)
		goto out;
	ret = pager_state_open(d, &st);
	if (ret < 0) {
		rc = 2;
		goto out;
	}
	d->recovering = ret > 0;
	if (d->recovering) {
		d->depth = st.depth;
		if (d->nr_queues != d->ctrl.info.nr_hw_queues)
			log_info("/dev/ublkb%u has %u queue(s): serving that many",
				 st.dev_id, d->ctrl.info.nr_hw_queues);
		d->nr_queues = d->ctrl.info.nr_hw_queues;
	}
	if (queues_init(d))
		goto out;
	if (setup_rdma(d, &st))
		goto out;

	if (d->recovering) {
		/* The state first: the copies lost in the meantime are failed
		 * in it before the device serves again. */
		if (pager_state_save(d))
			goto out;
		{
			uint64_t t0 = spare_now_ms();

			ret = ublk_start_recovery(&d->ctrl, 120000);
			if (ret) {
				log_err("ublk START_USER_RECOVERY of /dev/ublkb%u: %s",
					d->ctrl.info.dev_id, strerror(-ret));
				goto out;
			}
			log_info("ublk START_USER_RECOVERY of /dev/ublkb%u after %" PRIu64 " ms",
				 d->ctrl.info.dev_id, spare_now_ms() - t0);
		}
	} else {
		ret = ublk_add_dev(&d->ctrl, d->nr_queues, d->depth, MAX_IO,
				   d->state_path[0] ? UBLK_F_USER_RECOVERY |
				   UBLK_F_USER_RECOVERY_REISSUE : 0);
		if (ret) {
			log_err("ublk ADD_DEV: %s", strerror(-ret));
			goto out;
		}
		/* Before the device can be used: a restart can find it. */
		if (pager_state_save(d))
			goto out;
		ret = ublk_set_params(&d->ctrl, d->size, MAX_IO);
		if (ret) {
			log_err("ublk SET_PARAMS: %s", strerror(-ret));
			goto out;
		}
	}
	if (ublk_cdev_open(&d->ctrl))
		goto out;
	for (i = 0; i < d->nr_queues; i++) {
		struct queue *q = &d->queues[i];

		if (ublk_queue_open(&q->q, d->ctrl.cdev_fd, i, d->depth,
				    d->bufs + (size_t)i * d->depth * MAX_IO, MAX_IO))
			goto out;
		q->q.tag_addr = q->tag_addr;	/* the async backup swaps buffers */
		backup_ring_init(q);
	}
	for (i = 0; i < d->nr_queues; i++) {
		if (pager_thread_create(&d->queues[i].th, queue_thread, &d->queues[i]))
			goto out;
		d->queues[i].th_up = true;
	}
	/* every queue fetched its tags (START_DEV needs it), or one failed */
	pthread_mutex_lock(&d->start_lock);
	while (d->start_state >= 0 && d->start_state < (int)d->nr_queues)
		pthread_cond_wait(&d->start_cond, &d->start_lock);
	pthread_mutex_unlock(&d->start_lock);
	if (d->start_state < 0)
		goto out;
	ret = d->recovering ? ublk_end_recovery(&d->ctrl) : ublk_start_dev(&d->ctrl);
	if (ret) {
		log_err("ublk %s: %s", d->recovering ? "END_USER_RECOVERY" :
			"START_DEV", strerror(-ret));
		goto out;
	}
	if (d->recovering)
		log_info("/dev/ublkb%u taken back: the requests the old pager held are re-issued",
			 d->ctrl.info.dev_id);
	set_write_window(d);
	/* (kept by the queue across a restart; set while no I/O is queued) */
	if (d->state_path[0] && !d->recovering)
		set_io_timeout(d);
	if (ec_on(d))	/* no copies: K + R splits of each coding group */
		log_info("/dev/ublkb%u ready: %" PRIu64 " MiB, ec:%u+%u, %u coding group%s in split slabs of %u MiB on %u donor%s",
			 d->ctrl.info.dev_id, d->size >> 20, d->ec->map.g.k,
			 d->ec->map.g.r, d->ec->map.nr_groups,
			 d->ec->map.nr_groups == 1 ? "" : "s",
			 1U << (d->slab_shift - 20), d->nr_donors,
			 d->nr_donors == 1 ? "" : "s");
	else
		log_info("/dev/ublkb%u ready: %" PRIu64 " MiB, %u slabs of %u MiB, "
			 "%u cop%s on %u donor%s", d->ctrl.info.dev_id, d->size >> 20,
			 d->map.nr_slabs, 1U << (d->slab_shift - 20), d->copies,
			 d->copies == 1 ? "y" : "ies", d->nr_donors,
			 d->nr_donors == 1 ? "" : "s");
	printf("ublkb%u\n", d->ctrl.info.dev_id);
	fflush(stdout);
	spare_notify_ready("/dev/ublkb%u ready", d->ctrl.info.dev_id);
	snprintf(g_id.disk, sizeof(g_id.disk), "ublkb%u", d->ctrl.info.dev_id);
	if (!g_id.name[0])
		snprintf(g_id.name, sizeof(g_id.name), "%s", g_id.disk);
	if (g_run_dir[0]) {
		if (spare_mkdir_p(g_run_dir, 0755))
			log_warn("%s: %s: no live counters", g_run_dir, strerror(errno));
		else if (stats_path(g_run_dir, g_id.name, g_id.path, sizeof(g_id.path)))
			log_warn("no live counters: bad name %s", g_id.name);
	}

	life_loop(d, sfd, pager_tick);
	spare_notify_stopping();
	rc = 0;
out:
	if (d->ctrl.started) {
		ret = ublk_stop_dev(&d->ctrl);
		if (ret)
			log_warn("ublk STOP_DEV: %s", strerror(-ret));
	}
	if (d->queues) {
		uint64_t one = 1;

		/* never read: every queue's poll of it completes */
		if (write(d->stop_fd, &one, sizeof(one)) != sizeof(one))
			log_warn("stop: %s", strerror(errno));
		for (i = 0; i < d->nr_queues; i++) {
			struct queue *q = &d->queues[i];

			if (!q->th_up)
				continue;
			pthread_join(q->th, NULL);
			q->th_up = false;
			read_split_add(&split, &q->split);
		}
		read_split_log(&split);
		for (i = 0; i < d->nr_queues; i++)
			ublk_queue_close(&d->queues[i].q);
	}
	ublk_cdev_close(&d->ctrl);
	resync_stop(d);
	life_stop(d);
	/*
	 * A device taken back only half (END_USER_RECOVERY not done) is left
	 * as it is, quiesced, with its state file, for the next try: deleting
	 * it would fail every page swapped out to it.
	 */
	if (d->recovering && !d->ctrl.started) {
		d->ctrl.added = false;
		log_err("/dev/ublkb%u left quiesced; state file %s kept for the next try",
			d->ctrl.info.dev_id, d->state_path);
	} else {
		ublk_ctrl_close(&d->ctrl);
		unmap_slabs(d);
		ec_fini(d);
		pager_state_remove(d);
	}
	stats_remove(&g_id);
	print_stats(d);
	backup_close(d);
	integ_fini(d);
	for (i = 0; i < d->nr_donors; i++)
		donor_close(&d->donors[i]);
	if (d->bufs_mr)
		ibv_dereg_mr(d->bufs_mr);
	if (d->pd)
		ibv_dealloc_pd(d->pd);
	spare_slab_map_free(&d->map);
	ublk_state_free(&st);
	if (d->state) {
		ublk_state_free(d->state);
		free(d->state);
	}
	free(d->bufs);
	pager_grants_free(d);
	free(d->placement);
	free(d->rqs);
	if (d->queues)
		for (i = 0; i < d->nr_queues; i++) {
			if (d->queues[i].links_fd >= 0)
				close(d->queues[i].links_fd);
			if (d->queues[i].kick_fd >= 0)
				close(d->queues[i].kick_fd);
		}
	free(d->queues);
	memset(d->key, 0, sizeof(d->key));
	return rc;
}
