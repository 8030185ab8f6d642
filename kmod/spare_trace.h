/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare.ko's tracepoints (the kernel's tracing: events/spare/ in tracefs).
 * Off, they cost a static branch; Documentation/erasure-coding.md,
 * "Where a read's time goes".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM spare

#ifndef SPARE_TRACE_TYPES_H
#define SPARE_TRACE_TYPES_H
#include <linux/blkdev.h>
#include <linux/types.h>

/* the operations of a read traced (ec:4+2 posts 5, or 6 after a failure) */
#define SPARE_EC_TRACE_OPS	6

/*
 * One erasure-coded read, its times in ns after the request started
 * (blk_mq_start_request()): per operation in posting order, its split, the
 * time just before ib_post_send(), just after it, and its completion; the
 * time K splits had arrived, the copy or decode into the request's pages,
 * the block completion returned, and the last split's completion.
 */
struct spare_ec_read_trace {
	const char *disk;
	u32 group, first, n;
	u8 nr_ext, nr_ops, decoded;
	u8 split[SPARE_EC_TRACE_OPS];
	u8 ok[SPARE_EC_TRACE_OPS];
	u32 post[SPARE_EC_TRACE_OPS], ret[SPARE_EC_TRACE_OPS];
	u32 done[SPARE_EC_TRACE_OPS];
	u32 kth, fill, end, last;
};
#endif

#if !defined(SPARE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define SPARE_TRACE_H

#include <linux/tracepoint.h>

#define SPARE_EC_OP_FMT " o%u=%u:%u:%u:%u:%u"

/*
 * spare_ec_read - an erasure-coded read whose every split completed.
 * Printed: "o<i>=<split>:<ok>:<post>:<posted>:<done>" for operation i
 * (ns; 0:0:0:0:0 past nr_ops), then kth, fill, end and last (ns).
 */
TRACE_EVENT(spare_ec_read,
	TP_PROTO(const struct spare_ec_read_trace *t),
	TP_ARGS(t),
	TP_STRUCT__entry(
		__array(char, disk, DISK_NAME_LEN)
		__field(u32, group)
		__field(u32, first)
		__field(u32, n)
		__field(u8, nr_ext)
		__field(u8, nr_ops)
		__field(u8, decoded)
		__array(u8, split, SPARE_EC_TRACE_OPS)
		__array(u8, ok, SPARE_EC_TRACE_OPS)
		__array(u32, post, SPARE_EC_TRACE_OPS)
		__array(u32, ret, SPARE_EC_TRACE_OPS)
		__array(u32, done, SPARE_EC_TRACE_OPS)
		__field(u32, kth)
		__field(u32, fill)
		__field(u32, end)
		__field(u32, last)
	),
	TP_fast_assign(
		strscpy(__entry->disk, t->disk, sizeof(__entry->disk));
		__entry->group = t->group;
		__entry->first = t->first;
		__entry->n = t->n;
		__entry->nr_ext = t->nr_ext;
		__entry->nr_ops = t->nr_ops;
		__entry->decoded = t->decoded;
		memcpy(__entry->split, t->split, sizeof(t->split));
		memcpy(__entry->ok, t->ok, sizeof(t->ok));
		memcpy(__entry->post, t->post, sizeof(t->post));
		memcpy(__entry->ret, t->ret, sizeof(t->ret));
		memcpy(__entry->done, t->done, sizeof(t->done));
		__entry->kth = t->kth;
		__entry->fill = t->fill;
		__entry->end = t->end;
		__entry->last = t->last;
	),
	TP_printk("%s group=%u page=%u+%u ext=%u ops=%u decoded=%u"
		  SPARE_EC_OP_FMT SPARE_EC_OP_FMT SPARE_EC_OP_FMT
		  SPARE_EC_OP_FMT SPARE_EC_OP_FMT SPARE_EC_OP_FMT
		  " kth=%u fill=%u end=%u last=%u",
		  __entry->disk, __entry->group, __entry->first, __entry->n,
		  __entry->nr_ext, __entry->nr_ops, __entry->decoded,
		  0, __entry->split[0], __entry->ok[0], __entry->post[0],
		  __entry->ret[0], __entry->done[0],
		  1, __entry->split[1], __entry->ok[1], __entry->post[1],
		  __entry->ret[1], __entry->done[1],
		  2, __entry->split[2], __entry->ok[2], __entry->post[2],
		  __entry->ret[2], __entry->done[2],
		  3, __entry->split[3], __entry->ok[3], __entry->post[3],
		  __entry->ret[3], __entry->done[3],
		  4, __entry->split[4], __entry->ok[4], __entry->post[4],
		  __entry->ret[4], __entry->done[4],
		  5, __entry->split[5], __entry->ok[5], __entry->post[5],
		  __entry->ret[5], __entry->done[5],
		  __entry->kth, __entry->fill, __entry->end, __entry->last)
);

#endif /* SPARE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE spare_trace
#include <trace/define_trace.h>
