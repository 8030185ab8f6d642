/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ublk_dev: the kernel's ublk driver seen from spare-ublk. The control
 * commands (ADD_DEV, SET_PARAMS, START_DEV, STOP_DEV, DEL_DEV, GET_FEATURES)
 * go through a small io_uring of 128-byte SQEs on /dev/ublk-control; each
 * queue's I/O commands (FETCH_REQ, COMMIT_AND_FETCH_REQ) go through that
 * queue's own io_uring on /dev/ublkcN (ublk_queue_*()).
 *
 * The UAPI header of the build host (Debian 12: linux-libc-dev 6.1) has the
 * structures but only the legacy command numbers; the ioctl-encoded numbers
 * (Linux 6.3+) are derived here from them, exactly as the kernel defines
 * them, and the driver of 6.12 accepts both.
 */
#ifndef SPARE_UBLK_DEV_H
#define SPARE_UBLK_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include <liburing.h>
#include <linux/ublk_cmd.h>

#define UBLK_CONTROL_PATH	"/dev/ublk-control"
/*
 * A queue's ring has room for a command per tag twice over, plus the
 * pager's own entries: a poll per donor's CQ, the stop event, the timer.
 */
#define UBLK_EXTRA_SQES		16	/* spare-ublk asserts it is enough */

struct ublk_ctrl {
	int			fd;		/* /dev/ublk-control */
	struct io_uring		ring;
	bool			ring_ok;
	struct ublksrv_ctrl_dev_info info;	/* dev_id filled by ADD_DEV */
	bool			added, started;
	int			cdev_fd;	/* /dev/ublkcN: every queue's */
	uint64_t		features;	/* GET_FEATURES */
};

/*
 * Check that this kernel can serve spare-ublk: /dev/ublk-control exists and
 * the driver offers UBLK_F_USER_RECOVERY. Returns 0, or -1 with a sentence
 * naming what is missing in @why.
 */
int ublk_check_kernel(struct ublk_ctrl *c, char *why, size_t whylen);

/* ADD_DEV with @nr_queues queues of @depth tags of @max_io bytes each. */
int ublk_add_dev(struct ublk_ctrl *c, unsigned int nr_queues,
		 unsigned int depth, unsigned int max_io, uint64_t flags);
/* SET_PARAMS: 4 KiB blocks, @bytes long, non-rotational. */
int ublk_set_params(struct ublk_ctrl *c, uint64_t bytes, unsigned int max_io);
/* START_DEV: every queue must have fetched its tags first. */
int ublk_start_dev(struct ublk_ctrl *c);
int ublk_stop_dev(struct ublk_ctrl *c);
/*
 * Bound the write requests the block layer keeps allocated for disk
 * ublkb@dev_id to @nr, through its I/O scheduler's async_depth (mq-deadline,
 * the default for a single queue; spare-ublk chooses it for several): a
 * task that would start one more
 * sleeps in the block layer, as spare.ko's write window makes it sleep in
 * ->queue_rq(). Reads are not bounded by it. Returns 0, -ENOENT when the
 * disk's scheduler has no async_depth (none, bfq, kyber), or -errno.
 */
int ublk_set_write_depth(unsigned int dev_id, unsigned int nr);
/* Choose the I/O scheduler of disk ublkb@dev_id by @name: 0 or -errno. */
int ublk_set_scheduler(unsigned int dev_id, const char *name);
/* Its async_depth now into @nr: 0, -ENOENT (no such scheduler), or -errno. */
int ublk_get_write_depth(unsigned int dev_id, unsigned int *nr);

/*
 * Pager restart (UBLK_F_USER_RECOVERY). GET_DEV_INFO of device @dev_id
 * into c->info: 0, -ENODEV if there is no such device. START_USER_RECOVERY
 * (retried while the driver still quiesces the device after the old
 * pager's death, up to @timeout_ms): then the queues are opened and every
 * tag fetched again, and END_USER_RECOVERY makes the device live, with
 * the requests the dead pager held re-issued (UBLK_F_USER_RECOVERY_REISSUE).
 */
int ublk_get_dev_info(struct ublk_ctrl *c, unsigned int dev_id);
int ublk_start_recovery(struct ublk_ctrl *c, unsigned int timeout_ms);
int ublk_end_recovery(struct ublk_ctrl *c);
/* DEL_DEV of device @dev_id (not the one c->info describes). */
int ublk_del_dev(struct ublk_ctrl *c, unsigned int dev_id);
/* DEL_DEV and close. Safe on a half-set-up control. */
void ublk_ctrl_close(struct ublk_ctrl *c);

/* One queue: its io_uring, the mapped I/O descriptors, one buffer per tag. */
struct ublk_queue {
	unsigned int		q_id, depth;
	int			cdev_fd;	/* /dev/ublkcN (the control's) */
	struct io_uring		ring;
	bool			ring_ok;
	const struct ublksrv_io_desc *iod;	/* mmap of the descriptors */
	size_t			iod_len;
	char			*bufs;		/* depth * max_io, page aligned */
	unsigned int		max_io;
	char			**tag_addr;	/* if set: each tag's buffer (it may change) */
};

/*
 * Open the device's char device /dev/ublkcN, once (the driver lets one
 * process hold it: every queue maps and commands through the same fd).
 * 0 or -errno. It must be closed before DEL_DEV, which waits for it.
 */
int ublk_cdev_open(struct ublk_ctrl *c);
void ublk_cdev_close(struct ublk_ctrl *c);
/* Map queue @q_id's descriptors from @cdev_fd, set up its io_uring. */
int ublk_queue_open(struct ublk_queue *q, int cdev_fd, unsigned int q_id,
		    unsigned int depth, char *bufs, unsigned int max_io);
void ublk_queue_close(struct ublk_queue *q);

/*
 * Queue (without submitting) FETCH_REQ for @tag, or COMMIT_AND_FETCH_REQ
 * with @result (bytes done, or -errno). The user_data of its completion is
 * @tag. Returns 0 or -EBUSY if the submission queue is full.
 */
int ublk_queue_fetch(struct ublk_queue *q, unsigned int tag);
int ublk_queue_commit_fetch(struct ublk_queue *q, unsigned int tag,
			    int result);

#endif /* SPARE_UBLK_DEV_H */
