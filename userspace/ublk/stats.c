// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's live counters for sparectl: one small text file,
 * RUN_DIR/NAME (default /run/spare/ublk/NAME), rewritten by the main thread
 * at most once a second (write to NAME.tmp, then rename: a reader sees a
 * whole snapshot, never a half-written file) and removed at exit, with
 * NAME.map beside it, the slab map (map_write()), and NAME.moving while
 * a move waits for a donor (moving_write()). Its
 * lines are "key value"; io_stat, slab_stat and donor_stat carry exactly
 * the versioned lines of spare.ko's /sys/block/DISK/spare/ files, so
 * sparectl reads both kinds of device with the same parsers
 * (Documentation/ublk.md, "Live counters").
 *
 * Each queue thread owns its counters (struct stats); it copies them under
 * st_lock once per turn of its loop (stats_publish()), and the main
 * thread adds those copies up with the lifecycle's (stats_sum()). The
 * file is written from the main thread, never from the request path: a
 * tmpfs page can itself be swapped out, and a queue thread must never
 * wait for a page that only it can bring back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backup.h"
#include "pager.h"
#include "spare_ec_place.h"
#include "spare_log.h"
#include "stats.h"

#define UBLK_STAT_VERSION	1
#define IO_STAT_VERSION		2	/* as spare.ko's io_stat */
#define SLAB_STAT_VERSION	1
#define DONOR_STAT_VERSION	2
#define SLAB_MAP_VERSION	1	/* as spare.ko's slab_map */

void stats_publish(struct queue *q)
{
	pthread_mutex_lock(&q->d->st_lock);
	q->st_pub = q->st;
	pthread_mutex_unlock(&q->d->st_lock);
}

#define STATS_WORDS	(sizeof(struct stats) / sizeof(u64))
_Static_assert(sizeof(struct stats) % sizeof(u64) == 0, "struct stats: u64 counters only");

void stats_sum(struct dev *d, struct stats *st, bool live)
{
	u64 *sum = (u64 *)st, held_max = 0;

	/* the lifecycle's (the queues' fields of d->st stay 0) */
	for (unsigned int w = 0; w < STATS_WORDS; w++)
		sum[w] = __atomic_load_n(&((u64 *)&d->st)[w], __ATOMIC_RELAXED);
	if (live)
		pthread_mutex_lock(&d->st_lock);
	for (unsigned int i = 0; d->queues && i < d->nr_queues; i++) {
		const struct stats *qs = live ? &d->queues[i].st_pub : &d->queues[i].st;
		const u64 *w = (const u64 *)qs;

		for (unsigned int k = 0; k < STATS_WORDS; k++)
			sum[k] += w[k];
		if (qs->writes_held_max > held_max)
			held_max = qs->writes_held_max;
	}
	if (live)
		pthread_mutex_unlock(&d->st_lock);
	/* a maximum, not a count: the largest of one queue's */
	st->writes_held_max = held_max;
}

int stats_path(const char *dir, const char *name, char *path, size_t len)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || strlen(name) > 63)
		return -1;
	if ((size_t)snprintf(path, len, "%s/%s", dir, name) >= len)
		return -1;
	return 0;
}

/*
 * A snapshot file's end: @f (written to @tmp) flushed, closed and renamed
 * over @dst, so that a reader sees the old file or the new one whole. 0,
 * or -1 (errno; @tmp removed).
 */
static int snap_commit(FILE *f, const char *tmp, const char *dst)
{
	if (fflush(f) || ferror(f)) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	fclose(f);
	if (rename(tmp, dst)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void slab_line(struct dev *d, FILE *f)
{
	struct spare_slab_map *map = &d->map;
	u32 count[SPARE_COPY_NR_STATES] = { 0 };
	u64 current_pages = 0;

	for (u32 s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];

		spin_lock(&slab->lock);
		for (u32 c = 0; c < map->nr_slots; c++) {
			if (slab->copy[c].donor == SPARE_NO_DONOR)
				continue;	/* the spare slot */
			count[slab->copy[c].state]++;
			current_pages += spare_copy_current_pages(map, &slab->copy[c]);
		}
		spin_unlock(&slab->lock);
	}
	fprintf(f, "slab_stat %u %u %u %u %u %u %u %u %u %" PRIu64 "\n",
		SLAB_STAT_VERSION, map->nr_slabs, map->slab_shift, map->nr_copies,
		count[SPARE_COPY_MAPPED], count[SPARE_COPY_MAPPING],
		count[SPARE_COPY_UNMAPPED], count[SPARE_COPY_EVICTING],
		count[SPARE_COPY_FAILED], current_pages);
}

static void map_line(FILE *f, struct dev *d, u32 s, u32 c, u32 donor,
		     enum spare_copy_state state, u32 pages)
{
	fprintf(f, "%u %u %u %u %s:%s %s %u\n", SLAB_MAP_VERSION, s, c, donor,
		d->donors[donor].host, d->donors[donor].port,
		spare_copy_state_name(state), pages);
}

/*
 * An ec device's split slabs, one line each, as spare.ko lists them: slab
 * g * (K + R) + j for split j of group g, slot 0.
 */
static void ec_map_lines(struct dev *d, FILE *f)
{
	u32 n = spare_ec_splits(&d->ec_geom), s, donor, pages;
	enum spare_copy_state state;

	for (s = 0; d->ec && s < d->ec->map.nr_groups * n; s++) {
		ec_split_snap(d->ec, n, s, &donor, &state, &pages);
		if (donor < d->nr_donors)
			map_line(f, d, s, 0, donor, state, pages);
	}
}

/*
 * PATH.map: one line per slab copy (with --redundancy ec:K+R, per split
 * slab), where it lives now (copies move, splits move and re-home), as
 * spare.ko's sysfs slab_map: version, slab, slot, donor index, donor,
 * state, current pages. `sparectl device show` prints it, and the
 * monitor renews each donor's grants for the copies it holds. Written as
 * the counters file is (tmp, rename). 0 or -1 (errno).
 */
static int map_write(struct dev *d, const char *path)
{
	struct spare_slab_map *map = &d->map;
	char tmp[PATH_MAX_STATS + 16], dst[PATH_MAX_STATS + 8];
	FILE *f;

	snprintf(dst, sizeof(dst), "%s.map", path);
	snprintf(tmp, sizeof(tmp), "%s.map.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	if (ec_on(d))
		ec_map_lines(d, f);
	for (u32 s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		struct { u32 donor, pages; enum spare_copy_state state; } v[SPARE_MAX_SLOTS];
		u32 c, n = 0;

		/* copied under the lock, printed after it: the queue thread
		 * takes it, and a write to tmpfs may wait on reclaim */
		spin_lock(&slab->lock);
		for (c = 0; c < map->nr_slots && c < SPARE_MAX_SLOTS; c++) {
			const struct spare_copy *cp = &slab->copy[c];

			v[c].donor = cp->donor;
			v[c].state = cp->state;
			v[c].pages = spare_copy_current_pages(map, cp);
			n++;
		}
		spin_unlock(&slab->lock);
		for (c = 0; c < n; c++) {
			if (v[c].donor >= d->nr_donors)
				continue;	/* the spare slot */
			map_line(f, d, s, c, v[c].donor, v[c].state, v[c].pages);
		}
	}
	return snap_commit(f, tmp, dst);
}

/*
 * PATH.moving, only while a move waits for a donor to be added
 * (lifecycle.c, a move in WAIT_DONOR), or a lost split of an ec device
 * under grants waits for one (ec.c, replace_split()): one line per such
 * move or split slab, "version slab donor-index host:port" of the donor
 * evicting it (the split's: that it was lost on), for `sparectl device
 * monitor`, which asks a broker for a donor outside the device (MOVE_REQ)
 * and adds it with a grant. Removed when none waits. Written as the map
 * is. 0 or -1 (errno).
 */
/* One line of PATH.moving: the core's, as spare.ko's sysfs "moving" */
static void moving_line(FILE *f, struct dev *d, u32 slab, u32 donor)
{
	char addr[160], line[256];

	snprintf(addr, sizeof(addr), "%s:%s", d->donors[donor].host,
		 d->donors[donor].port);
	spare_moving_line(line, sizeof(line), slab, donor, addr);
	fputs(line, f);
}

static int moving_write(struct dev *d, const char *path)
{
	char tmp[PATH_MAX_STATS + 16], dst[PATH_MAX_STATS + 8];
	u32 n = d->nr_waiting, k = spare_ec_splits(&d->ec_geom), s, donor;
	u32 ns = ec_on(d) && d->ec ? d->ec->map.nr_groups * k : 0, nw = 0;
	FILE *f;

	for (s = 0; s < ns; s++)
		nw += ec_split_waits_donor(d->ec, k, s, &donor);
	snprintf(dst, sizeof(dst), "%s.moving", path);
	if (!n && !nw)
		return unlink(dst) && errno != ENOENT ? -1 : 0;
	snprintf(tmp, sizeof(tmp), "%s.moving.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	for (unsigned int i = 0; i < n; i++)
		moving_line(f, d, d->waiting_slab[i], d->waiting_from[i]);
	/* an ec device's split slabs waiting for a donor, with the donor
	 * they were lost on */
	for (s = 0; s < ns; s++)
		if (ec_split_waits_donor(d->ec, k, s, &donor) && donor < d->nr_donors)
			moving_line(f, d, s, donor);
	return snap_commit(f, tmp, dst);
}

int stats_write(struct dev *d, const struct stats_id *id)
{
	char tmp[PATH_MAX_STATS + 8];
	struct stats st;
	FILE *f;
	u32 i;

	if (!id->path[0])
		return 0;
	stats_sum(d, &st, true);
	snprintf(tmp, sizeof(tmp), "%s.tmp", id->path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	fprintf(f, "spare-ublk %u\nname %s\npid %ld\ndisk %s\n", UBLK_STAT_VERSION,
		id->name, (long)getpid(), id->disk);
	fprintf(f, "size %" PRIu64 "\nslab_size %" PRIu64 "\nreplicas %u\n",
		d->size, (u64)1 << d->slab_shift, d->copies);
	fprintf(f, "donors ");
	for (i = 0; i < d->nr_donors; i++)
		fprintf(f, "%s%s:%s", i ? "," : "", d->donors[i].host,
			d->donors[i].port);
	fprintf(f, "\nsource %s\nbackup %s\nbackup_mode %s\nqueues %u\n", d->source,
		id->backup, id->backup[0] ? id->backup_mode : "", d->nr_queues);
	/* spare.ko's io_stat fields (sparectl's dev_io_fields), in order */
	fprintf(f, "io_stat %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		IO_STAT_VERSION, st.rdma_reads, st.rdma_writes, st.backup_reads,
		st.backup_writes, st.zero_reads, st.redrives, (u64)0 /* failovers */,
		st.io_errors, st.bytes_read, st.bytes_written, (u64)0 /* write_waits */,
		st.resync_pages, st.backup_waits, st.integrity_errors);
	slab_line(d, f);
	if (ec_on(d)) {
		struct spare_ec_stat_line l = {
			.k = d->ec_geom.k, .r = d->ec_geom.r,
			.delta = d->ec_delta,
			.reads = st.reads, .writes = st.writes,
			.ec = st.ec,
			.waits = st.ec_waits,
			.remapped = st.remaps,
			.moved = st.ec_moved,
			.moves_given_up = st.ec_move_gave_up,
			.copied_pages = st.ec_copied_pages,
		};
		char line[160];

		/* one format with spare.ko's ec_stat (the core's) */
		ec_split_counts(d->ec, &l.lost_now, &l.rebuilding);
		spare_ec_stat_format(line, sizeof(line), &l);
		fprintf(f, "redundancy ec:%u+%u\nec_stat %s", d->ec_geom.k,
			d->ec_geom.r, line);
	}
	for (i = 0; i < d->nr_donors; i++) {
		struct donor *dn = &d->donors[i];
		bool failed = __atomic_load_n(&dn->failed, __ATOMIC_RELAXED);

		fprintf(f, "donor_stat %u %u %s:%s %s 1 %u 0 0 0 0 0\n",
			DONOR_STAT_VERSION, i, dn->host, dn->port,
			failed ? "error" : "live", failed ? 1U : 0U);
	}
	if (snap_commit(f, tmp, id->path))
		return -1;
	return map_write(d, id->path) || moving_write(d, id->path) ? -1 : 0;
}

void stats_remove(const struct stats_id *id)
{
	char map[PATH_MAX_STATS + 8];

	if (!id->path[0])
		return;
	unlink(id->path);
	snprintf(map, sizeof(map), "%s.map", id->path);
	unlink(map);
	snprintf(map, sizeof(map), "%s.moving", id->path);
	unlink(map);
}

static void split_add(u32 *h, unsigned long long ns)
{
	unsigned long long b = ns / 1000 / READ_SPLIT_US;

	h[b < READ_SPLIT_BUCKETS ? b : READ_SPLIT_BUCKETS - 1]++;
}

void read_split_note(struct read_split *s, unsigned long long held_ns,
		     unsigned long long rdma_ns)
{
	s->n++;
	split_add(s->held, held_ns);
	split_add(s->rdma, rdma_ns);
}

unsigned int read_split_quantile(const struct read_split *s, bool rdma, double q)
{
	const u32 *h = rdma ? s->rdma : s->held;
	u64 want = (u64)(q * (double)s->n), seen = 0;
	unsigned int b;

	for (b = 0; b < READ_SPLIT_BUCKETS - 1; b++) {
		seen += h[b];
		if (seen > want)
			break;
	}
	return b * READ_SPLIT_US + READ_SPLIT_US / 2;
}

void read_split_add(struct read_split *to, const struct read_split *from)
{
	to->n += from->n;
	for (unsigned int b = 0; b < READ_SPLIT_BUCKETS; b++) {
		to->held[b] += from->held[b];
		to->rdma[b] += from->rdma[b];
	}
}

void read_split_log(const struct read_split *s)
{
	if (!s->n)
		return;
	log_info("reads served by RDMA: %" PRIu64 "; held by the pager p50 %u us, "
		 "p99 %u us; of that, RDMA p50 %u us, p99 %u us", s->n,
		 read_split_quantile(s, false, 0.5), read_split_quantile(s, false, 0.99),
		 read_split_quantile(s, true, 0.5), read_split_quantile(s, true, 0.99));
}
