/* SPDX-License-Identifier: GPL-2.0 */
/* stats: spare-ublk's live counters file for sparectl (stats.c). */
#ifndef SPARE_UBLK_STATS_H
#define SPARE_UBLK_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct dev;

#define UBLK_RUN_DIR	"/run/spare/ublk"
#define PATH_MAX_STATS	320

/* What the file says about the device besides the counters. */
struct stats_id {
	char	name[64];		/* --name, or the disk's name */
	char	disk[32];		/* ublkbN */
	char	backup[256];
	char	backup_mode[8];
	char	path[PATH_MAX_STATS];	/* "" until the device is up */
};

/* A queue thread: copy its counters for the main thread. */
struct queue;
struct stats;
void stats_publish(struct queue *q);
/*
 * The device's counters into @st: the lifecycle's and every queue's
 * published ones (@live: false after the queue threads ended: their own).
 */
void stats_sum(struct dev *d, struct stats *st, bool live);
/* DIR/NAME into @path; -1 if NAME is not a plain file name. */
int stats_path(const char *dir, const char *name, char *path, size_t len);
/* The main thread: (re)write the file. 0 or -1 (errno). */
int stats_write(struct dev *d, const struct stats_id *id);
void stats_remove(const struct stats_id *id);

struct read_split;
/* The queue thread: one read served by RDMA, held @held_ns, @rdma_ns of it RDMA. */
void read_split_note(struct read_split *s, unsigned long long held_ns,
		     unsigned long long rdma_ns);
/* The middle of the bucket that holds quantile @q of held or RDMA time (µs). */
unsigned int read_split_quantile(const struct read_split *s, bool rdma, double q);
/* At exit: one log line with the medians and 99th percentiles. */
void read_split_log(const struct read_split *s);
/* Add @from's reads to @to (the queues' at exit). */
void read_split_add(struct read_split *to, const struct read_split *from);

#endif /* SPARE_UBLK_STATS_H */
