// SPDX-License-Identifier: GPL-2.0
/*
 * ublk_dev: control and queue commands of the kernel's ublk driver, through
 * liburing. See ublk_dev.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "spare_log.h"
#include "ublk_dev.h"

/* The ioctl encoding of the commands (Linux 6.3+; uapi ublk_cmd.h). */
#ifndef UBLK_U_CMD_ADD_DEV
#define UBLK_U_CMD_ADD_DEV	_IOWR('u', UBLK_CMD_ADD_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_DEL_DEV	_IOWR('u', UBLK_CMD_DEL_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_START_DEV	_IOWR('u', UBLK_CMD_START_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_STOP_DEV	_IOWR('u', UBLK_CMD_STOP_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_SET_PARAMS	_IOWR('u', UBLK_CMD_SET_PARAMS, struct ublksrv_ctrl_cmd)
#define UBLK_U_IO_FETCH_REQ	_IOWR('u', UBLK_IO_FETCH_REQ, struct ublksrv_io_cmd)
#define UBLK_U_IO_COMMIT_AND_FETCH_REQ \
	_IOWR('u', UBLK_IO_COMMIT_AND_FETCH_REQ, struct ublksrv_io_cmd)
#endif
#ifndef UBLK_U_CMD_GET_FEATURES
#define UBLK_U_CMD_GET_FEATURES	_IOR('u', 0x13, struct ublksrv_ctrl_cmd)
#endif
#ifndef UBLK_U_CMD_GET_DEV_INFO
#define UBLK_U_CMD_GET_DEV_INFO	_IOR('u', UBLK_CMD_GET_DEV_INFO, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_START_USER_RECOVERY \
	_IOWR('u', UBLK_CMD_START_USER_RECOVERY, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_END_USER_RECOVERY \
	_IOWR('u', UBLK_CMD_END_USER_RECOVERY, struct ublksrv_ctrl_cmd)
#endif

static struct io_uring_sqe *cmd_sqe(struct io_uring *ring, int fd, uint32_t op)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		return NULL;
	memset(sqe, 0, 2 * sizeof(*sqe));	/* SQE128 */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	return sqe;
}

/* One control command, synchronously. Returns the result (>= 0) or -errno. */
static int ctrl_cmd(struct ublk_ctrl *c, uint32_t op, int dev_id,
		    void *addr, uint16_t len, uint64_t data0)
{
	struct io_uring_sqe *sqe = cmd_sqe(&c->ring, c->fd, op);
	struct ublksrv_ctrl_cmd *cmd;
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	cmd = (struct ublksrv_ctrl_cmd *)sqe->cmd;
	cmd->dev_id = (uint32_t)dev_id;
	cmd->queue_id = (uint16_t)-1;
	cmd->addr = (uintptr_t)addr;
	cmd->len = len;
	cmd->data[0] = data0;
	ret = io_uring_submit(&c->ring);
	if (ret < 0)
		return ret;
	do {
		ret = io_uring_wait_cqe(&c->ring, &cqe);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&c->ring, cqe);
	return ret;
}

int ublk_check_kernel(struct ublk_ctrl *c, char *why, size_t whylen)
{
	struct utsname u;
	uint64_t features = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->cdev_fd = -1;
	uname(&u);
	c->fd = open(UBLK_CONTROL_PATH, O_RDWR | O_CLOEXEC);
	if (c->fd < 0) {
		if (errno == ENOENT)
			snprintf(why, whylen,
				 "this kernel (%s) has no ublk: %s is missing. "
				 "spare-ublk needs the ublk driver (CONFIG_BLK_DEV_UBLK, "
				 "module ublk_drv, Linux 6.5+ for UBLK_F_USER_RECOVERY "
				 "and GET_FEATURES): try 'modprobe ublk_drv'. Debian 12's "
				 "6.1 kernel is built without ublk (CONFIG_BLK_DEV_UBLK "
				 "is not set): use the 6.12 kernel from bookworm-backports, "
				 "or spare.ko", u.release,
				 UBLK_CONTROL_PATH);
		else
			snprintf(why, whylen, "%s: %s", UBLK_CONTROL_PATH,
				 strerror(errno));
		return -1;
	}
	ret = io_uring_queue_init(4, &c->ring, IORING_SETUP_SQE128);
	if (ret) {
		snprintf(why, whylen,
			 "io_uring with 128-byte SQEs is not available: %s "
			 "(ublk needs Linux 5.19+ io_uring URING_CMD)",
			 strerror(-ret));
		return -1;
	}
	c->ring_ok = true;
	ret = ctrl_cmd(c, UBLK_U_CMD_GET_FEATURES, -1, &features,
		       sizeof(features), 0);
	if (ret < 0) {
		/* GET_FEATURES came with 6.5; UBLK_F_USER_RECOVERY with 6.0/6.1. */
		snprintf(why, whylen,
			 "this kernel's ublk driver (%s) cannot report its features "
			 "(GET_FEATURES: %s), so UBLK_F_USER_RECOVERY cannot be "
			 "confirmed: spare-ublk needs Linux 6.5+", u.release,
			 strerror(-ret));
		return -1;
	}
	if (!(features & UBLK_F_USER_RECOVERY) ||
	    !(features & UBLK_F_USER_RECOVERY_REISSUE)) {
		snprintf(why, whylen,
			 "this kernel's ublk driver (%s) lacks UBLK_F_USER_RECOVERY "
			 "or UBLK_F_USER_RECOVERY_REISSUE (features 0x%llx): a "
			 "restarted pager could not take the device back",
			 u.release, (unsigned long long)features);
		return -1;
	}
	c->features = features;
	log_dbg("ublk features 0x%llx", (unsigned long long)features);
	return 0;
}

int ublk_add_dev(struct ublk_ctrl *c, unsigned int nr_queues,
		 unsigned int depth, unsigned int max_io, uint64_t flags)
{
	int ret;

	memset(&c->info, 0, sizeof(c->info));
	c->info.nr_hw_queues = (uint16_t)nr_queues;
	c->info.queue_depth = (uint16_t)depth;
	c->info.max_io_buf_bytes = max_io;
	c->info.dev_id = (uint32_t)-1;
	c->info.flags = flags;
	ret = ctrl_cmd(c, UBLK_U_CMD_ADD_DEV, -1, &c->info, sizeof(c->info), 0);
	if (ret < 0)
		return ret;
	c->added = true;
	return 0;
}

int ublk_set_params(struct ublk_ctrl *c, uint64_t bytes, unsigned int max_io)
{
	struct ublk_params p;

	memset(&p, 0, sizeof(p));
	p.len = sizeof(p);
	p.types = UBLK_PARAM_TYPE_BASIC;
	p.basic.logical_bs_shift = 12;
	p.basic.physical_bs_shift = 12;
	p.basic.io_opt_shift = 12;
	p.basic.io_min_shift = 12;
	p.basic.max_sectors = max_io >> 9;
	p.basic.dev_sectors = bytes >> 9;
	return ctrl_cmd(c, UBLK_U_CMD_SET_PARAMS, (int)c->info.dev_id, &p,
			sizeof(p), 0);
}

int ublk_start_dev(struct ublk_ctrl *c)
{
	int ret = ctrl_cmd(c, UBLK_U_CMD_START_DEV, (int)c->info.dev_id, NULL,
			   0, (uint64_t)getpid());

	if (!ret)
		c->started = true;
	return ret;
}

/* The disk's mq-deadline async_depth file. */
static void depth_path(unsigned int dev_id, char *path, size_t len)
{
	snprintf(path, len, "/sys/block/ublkb%u/queue/iosched/async_depth", dev_id);
}

int ublk_get_write_depth(unsigned int dev_id, unsigned int *nr)
{
	char path[96], buf[16];
	ssize_t n;
	int fd;

	depth_path(dev_id, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = 0;
	*nr = (unsigned int)strtoul(buf, NULL, 10);
	return 0;
}

int ublk_set_write_depth(unsigned int dev_id, unsigned int nr)
{
	char path[96], buf[16];
	unsigned int now;
	int fd, len, err = 0;

	depth_path(dev_id, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%u\n", nr);
	if (write(fd, buf, (size_t)len) != len)
		err = -errno;
	close(fd);
	if (!err && !(err = ublk_get_write_depth(dev_id, &now)) && now != nr)
		err = -EINVAL;	/* taken but not kept: say so */
	return err;
}

int ublk_set_scheduler(unsigned int dev_id, const char *name)
{
	char path[96];
	int fd, err = 0;
	ssize_t len = (ssize_t)strlen(name);

	snprintf(path, sizeof(path), "/sys/block/ublkb%u/queue/scheduler", dev_id);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, name, (size_t)len) != len)
		err = -errno;
	close(fd);
	return err;
}

int ublk_stop_dev(struct ublk_ctrl *c)
{
	return ctrl_cmd(c, UBLK_U_CMD_STOP_DEV, (int)c->info.dev_id, NULL, 0, 0);
}

int ublk_get_dev_info(struct ublk_ctrl *c, unsigned int dev_id)
{
	struct ublksrv_ctrl_dev_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = ctrl_cmd(c, UBLK_U_CMD_GET_DEV_INFO, (int)dev_id, &info,
		       sizeof(info), 0);
	if (ret < 0)
		return ret;
	c->info = info;
	return 0;
}

int ublk_start_recovery(struct ublk_ctrl *c, unsigned int timeout_ms)
{
	unsigned int waited = 0;
	int ret;

	for (;;) {
		ret = ctrl_cmd(c, UBLK_U_CMD_START_USER_RECOVERY,
			       (int)c->info.dev_id, NULL, 0, 0);
		/* -EBUSY: the old pager's files are still being released,
		 * or the driver has not quiesced the device yet. */
		if (ret != -EBUSY || waited >= timeout_ms)
			return ret;
		usleep(100000);
		waited += 100;
	}
}

int ublk_del_dev(struct ublk_ctrl *c, unsigned int dev_id)
{
	return ctrl_cmd(c, UBLK_U_CMD_DEL_DEV, (int)dev_id, NULL, 0, 0);
}

int ublk_end_recovery(struct ublk_ctrl *c)
{
	int ret = ctrl_cmd(c, UBLK_U_CMD_END_USER_RECOVERY, (int)c->info.dev_id,
			   NULL, 0, (uint64_t)getpid());

	if (!ret)
		c->added = c->started = true;
	return ret;
}

void ublk_ctrl_close(struct ublk_ctrl *c)
{
	int ret;

	ublk_cdev_close(c);	/* DEL_DEV waits for the char device's release */
	if (c->added && c->ring_ok) {
		ret = ctrl_cmd(c, UBLK_U_CMD_DEL_DEV, (int)c->info.dev_id, NULL,
			       0, 0);
		if (ret < 0)
			log_warn("ublk: DEL_DEV %u: %s", c->info.dev_id,
				 strerror(-ret));
	}
	c->added = false;
	if (c->ring_ok)
		io_uring_queue_exit(&c->ring);
	c->ring_ok = false;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int ublk_cdev_open(struct ublk_ctrl *c)
{
	char path[64];
	int ret, i;

	snprintf(path, sizeof(path), "/dev/ublkc%u", c->info.dev_id);
	/* The char device appears with ADD_DEV; devtmpfs may lag a little. */
	for (i = 0; i < 100; i++) {
		c->cdev_fd = open(path, O_RDWR | O_CLOEXEC);
		if (c->cdev_fd >= 0 || errno != ENOENT)
			break;
		usleep(10000);
	}
	if (c->cdev_fd < 0) {
		ret = -errno;
		log_err("ublk: %s: %s", path, strerror(errno));
		return ret;
	}
	return 0;
}

void ublk_cdev_close(struct ublk_ctrl *c)
{
	if (c->cdev_fd >= 0)
		close(c->cdev_fd);
	c->cdev_fd = -1;
}

int ublk_queue_open(struct ublk_queue *q, int cdev_fd, unsigned int q_id,
		    unsigned int depth, char *bufs, unsigned int max_io)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t per_q = (size_t)UBLK_MAX_QUEUE_DEPTH * sizeof(struct ublksrv_io_desc);
	void *m;
	int ret;

	memset(q, 0, sizeof(*q));
	q->q_id = q_id;
	q->depth = depth;
	q->bufs = bufs;
	q->max_io = max_io;
	q->cdev_fd = cdev_fd;
	per_q = (per_q + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
	q->iod_len = ((size_t)depth * sizeof(struct ublksrv_io_desc) +
		      (size_t)pg - 1) / (size_t)pg * (size_t)pg;
	m = mmap(NULL, q->iod_len, PROT_READ, MAP_SHARED | MAP_POPULATE,
		 q->cdev_fd, (off_t)(UBLKSRV_CMD_BUF_OFFSET + q_id * per_q));
	if (m == MAP_FAILED) {
		ret = -errno;
		log_err("ublk: mmap of queue %u descriptors: %s", q_id,
			strerror(errno));
		return ret;
	}
	q->iod = m;
	ret = io_uring_queue_init(2 * depth + UBLK_EXTRA_SQES, &q->ring, IORING_SETUP_SQE128);
	if (ret) {
		log_err("ublk: io_uring for queue %u: %s", q_id, strerror(-ret));
		return ret;
	}
	q->ring_ok = true;
	return 0;
}

void ublk_queue_close(struct ublk_queue *q)
{
	if (q->ring_ok)
		io_uring_queue_exit(&q->ring);
	q->ring_ok = false;
	if (q->iod)
		munmap((void *)q->iod, q->iod_len);
	q->iod = NULL;
	q->cdev_fd = -1;	/* the control's (ublk_cdev_close()) */
}

static int queue_io_cmd(struct ublk_queue *q, uint32_t op, unsigned int tag,
			int result)
{
	struct io_uring_sqe *sqe = cmd_sqe(&q->ring, q->cdev_fd, op);
	struct ublksrv_io_cmd *cmd;

	if (!sqe)
		return -EBUSY;
	cmd = (struct ublksrv_io_cmd *)sqe->cmd;
	cmd->q_id = (uint16_t)q->q_id;
	cmd->tag = (uint16_t)tag;
	cmd->result = result;
	cmd->addr = (uintptr_t)(q->tag_addr ? q->tag_addr[tag] :
				q->bufs + (size_t)tag * q->max_io);
	io_uring_sqe_set_data64(sqe, tag);
	return 0;
}

int ublk_queue_fetch(struct ublk_queue *q, unsigned int tag)
{
	return queue_io_cmd(q, UBLK_U_IO_FETCH_REQ, tag, -1);
}

int ublk_queue_commit_fetch(struct ublk_queue *q, unsigned int tag, int result)
{
	return queue_io_cmd(q, UBLK_U_IO_COMMIT_AND_FETCH_REQ, tag, result);
}
