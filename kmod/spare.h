/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare.ko private definitions: the device, its donors and their RDMA
 * queues, and the per-request command. Files:
 *   spare_main.c    module init/exit, configfs
 *   spare_blk.c     gendisk, blk-mq queue, request life cycle
 *   spare_life.c, spare_ctrl.c, spare_queue.c, spare_evict.c, spare_donor.c:
 *                   the RDMA transport, by layer (spare_rdma.h)
 *   spare_backup.c  backup block device I/O
 *   spare_giveback.c copies given back on a broker's move marks (configfs)
 *   spare_sysfs.c   versioned stats under /sys/block/spareN/spare/
 *   spare_resync.c  refilling copies mapped again after a failure
 *   spare_slab.c, spare_split.c, spare_proto.c: pure logic (KUnit tested)
 */
#ifndef SPARE_H
#define SPARE_H

#undef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/completion.h>
#include <linux/configfs.h>
#include <linux/inet.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/socket.h>
#include <linux/sysfs.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "spare_compat.h"
#include "spare_donor_life.h"
#include "spare_ec.h"
#include "spare_grant_table.h"
#include "spare_integrity_table.h"
#include "spare_proto.h"
#include "spare_slab.h"
#include "spare_split.h"

#define SPARE_QUEUE_DEPTH	64	/* tags per hardware queue */
#define SPARE_MAX_SEGS		16	/* segments per request */
#define SPARE_MAX_GRANTS	1024	/* grants one device holds */
#define SPARE_MAX_IO_BYTES	(SPARE_MAX_SEGS * SPARE_PAGE_SIZE)
#define SPARE_MAX_EXTENTS	2	/* a request spans at most two slabs */
#define SPARE_MAX_OPS		(SPARE_MAX_EXTENTS * SPARE_MAX_SLOTS)
#define SPARE_CTRL_RECVS	32	/* control receive buffers posted */
#define SPARE_CTRL_SENDS	16	/* control sends outstanding */
#define SPARE_MAPS_INFLIGHT	8	/* MAP requests awaiting MAPPED */
#define SPARE_CM_TIMEOUT_MS	5000
#define SPARE_CONNECT_WAIT_MS	15000
#define SPARE_HEARTBEAT_MS	2000
#define SPARE_REMAP_DELAY_MS	5000	/* after a refusal or an eviction */
#define SPARE_HOLD_POLL_MS	250	/* a held donor's resume is looked at */
#define SPARE_HOLD_RETRY_MS	100	/* a request waiting for it is re-run */
/*
 * Re-driving a request that landed nowhere: after 20, 40, 80 ... ms, at
 * most 500 ms apart, until SPARE_IO_LOSS_TMO_MS after its first attempt.
 * The time bound governs; the count is only a backstop (other kicks of the
 * requeue list can re-drive sooner than the request's own delay).
 */
#define SPARE_REDRIVE_DELAY_MS	20
#define SPARE_REDRIVE_DELAY_MAX_MS 500
#define SPARE_REDRIVE_MAX	4096
#define SPARE_IO_LOSS_TMO_MS	20000	/* give up on a write with no target */
#define SPARE_RESYNC_PAGES	16	/* bounce blocks (one SGE each) */
#define SPARE_RESYNC_ORDER	2	/* a block is 2^order pages */
#define SPARE_RESYNC_MAX	(SPARE_RESYNC_PAGES << SPARE_RESYNC_ORDER)
#define SPARE_ACK_TIMEOUT	16	/* 4.096us << 16 = 268 ms per try */
#define SPARE_ASYNC_COPY_PAGES	1024	/* async backup copies in flight (4 MiB) */

struct spare_dev;
struct spare_donor;
struct spare_ec_dev;

/* A control message buffer: a receive slot or a send slot. */
struct spare_ctrl_buf {
	struct ib_cqe cqe;
	struct spare_queue *q;
	struct spare_msg *msg;
	u64 dma;
	int index;
};

/* One RC connection to a donor: the CONTROL queue or a DATA queue. */
struct spare_queue {
	struct spare_donor *donor;
	enum spare_conn_kind kind;
	int hctx;			/* DATA: hardware queue index */
	struct rdma_cm_id *cm_id;
	/* cm_id's device, kept until the queue's last completion has run */
	struct ib_device *ibdev;
	struct ib_cq *cq;
	struct ib_qp *qp;
	atomic_t state;			/* enum spare_queue_state: queue_set_state() */
	int cm_error;
	struct completion cm_done;
	u32 sq_size;
	struct work_struct connect_work; /* DATA: lazy connect */

	/* CONTROL only */
	struct spare_ctrl_buf *recv;
	struct spare_ctrl_buf *send;
	unsigned long send_free;	/* bitmap of free send slots */
	spinlock_t send_lock;
	wait_queue_head_t send_wait;
};

struct spare_donor_stats {
	atomic64_t connects;
	atomic64_t losses;		/* times the error road was taken */
	atomic64_t evictions;
	atomic64_t bad_msgs;
	atomic64_t maps_refused;
	atomic64_t moves;		/* evicted copies moved to another donor */
	atomic64_t moves_short;		/* ... cut short by the EVICT deadline */
	atomic64_t kept_copies;		/* copies it kept over a restart, adopted */
	atomic64_t kept_pages;		/* ... their pages made current again */
	atomic64_t holds_expired;	/* holds that ran out: copies given up */
};

struct spare_donor {
	struct spare_dev *dev;
	u32 idx;
	char name[64];			/* "10.0.0.2:18515" */
	struct sockaddr_storage addr;
	/* enum spare_donor_state (spare_donor_life.h): donor_set_state() */
	atomic_t state;
	struct mutex lock;		/* connect / teardown */
	struct ib_device *ibdev;
	struct ib_pd *pd;
	u64 session_cookie;
	u8 slab_shift;
	struct spare_queue ctrl;
	struct spare_queue *data;	/* [nr_hw_queues] */
	u32 nr_data;
	atomic_t seq;
	atomic_t maps_inflight;
	wait_queue_head_t map_wait;
	struct completion hello_done;	/* one count per handshake message */
	int hello_status;		/* < 0: the handshake failed */
	/* Handshake messages (HELLO_REPLY, AUTH_*) from the CQ to connect work. */
	spinlock_t hs_lock;
	struct spare_msg hs_ring[4];
	unsigned int hs_count, hs_taken;
	struct spare_life life;		/* back-off, session: under lock */
	unsigned long remap_after;	/* jiffies */
	const char *error_reason;

	struct delayed_work connect_work;
	struct work_struct error_work;
	struct work_struct map_work;
	struct work_struct evict_work;
	struct delayed_work heartbeat_work;
	/* re-home: copies given up after cfg.rehome_delay_ms down */
	struct delayed_work rehome_work;
	u32 rehome_left;		/* copies it could not give up yet */
	/* map_work: grants sent in this session (spare_grants.c) */
	u32 grant_gen, grants_sent;
	u64 grant_token;		/* MAP names this grant; 0: none */
	u64 grant_expiry;		/* its expiry (wall clock, s) */
	/*
	 * Holding over a donor restart (Documentation/kmod.md, "Holding"):
	 * the token its HELLO_REPLY gave (0: it holds nothing for us), shown
	 * back with F_RESUME; hold_work ends the hold when every copy kept
	 * there was answered, or gives them up when the hold runs out.
	 */
	u64 resume_token;
	bool hold_refused;		/* said once that it holds nothing */
	atomic_t hold_kept, hold_not_kept;	/* this resume's answers */
	struct delayed_work hold_work;
	unsigned long *evict_pending;	/* slabs the donor asked back */
	unsigned long *evict_at;	/* [nr_slabs]: jiffies the EVICT came */
	/*
	 * [nr_slabs]: copies given back the old way (UNMAPPED, still in their
	 * slot on this donor) whose UNMAP is not sent yet: set under the
	 * slab's lock with the step that made the copy UNMAPPED, cleared once
	 * the UNMAP is sent (evict_done()); map_work maps none of them, or
	 * its MAP would reach the donor before the UNMAP.
	 */
	unsigned long *unmap_owed;
	struct spare_kmove *moves;	/* [nr_slabs]: evict_work's moves */
	u32 evict_deadline_ms;		/* the donor's grace period (EVICT) */
	unsigned long *activity_pending; /* slabs the donor asked about */
	/*
	 * Refusals a power-on need not wait out (spare_donors_start()): the
	 * donor refused our key in its HELLO_REPLY (or did not prove its
	 * own), or refused these slabs' MAP for want of a valid grant.
	 * Cleared by a session that comes up, a MAP it accepts.
	 */
	bool key_refused;
	unsigned long *grant_refused;	/* [nr_slabs] */
	spinlock_t pending_lock;
	/*
	 * Move marks (spare_giveback.c): copies on this donor a broker's
	 * marks ask back and not yet on their way (pending_lock); those
	 * given back (moving, or draining); evict work's next look at them
	 * (ms); kept copies logged since the count last changed; the drop
	 * without a move (no room granted) logged since then.
	 */
	u32 giveback;
	atomic_t giveback_leaving;
	u64 giveback_next;
	u32 giveback_kept_said;
	bool giveback_nomove_said;	/* "no room: given back without a move" */
	/*
	 * Until then (wall clock, s) the donor's grants may include marked
	 * ones: no mark's move goes there (the last expiry of its grants
	 * when copies were last asked of it).
	 */
	u64 giveback_until;
	u64 evict_seen;		/* wall clock, s: the last EVICT it sent */
	struct spare_donor_stats stats;
};

struct spare_io_stats {
	atomic64_t rdma_reads;		/* requests served by RDMA READ */
	atomic64_t rdma_writes;
	atomic64_t backup_reads;
	atomic64_t backup_writes;
	atomic64_t zero_reads;		/* never-written pages, no copy */
	atomic64_t redrives;		/* requests re-driven after a failure */
	atomic64_t failovers;		/* reads served by another copy */
	atomic64_t io_errors;
	atomic64_t bytes_read;
	atomic64_t bytes_written;
	atomic64_t write_waits;		/* writes held back by the window */
	atomic64_t resync_pages;	/* pages copied to a re-mapped copy */
	atomic64_t backup_waits;	/* waits for async-copy room or an older
					 * backup write of the same pages */
	atomic64_t integrity_errors;	/* pages read back with a wrong crc32c */
	atomic64_t held_waits;		/* requests that waited for a held donor */
};

enum spare_backup_mode {
	SPARE_BACKUP_SYNC,
	SPARE_BACKUP_ASYNC,
};

struct crypto_shash;

/* Configuration, set through configfs while powered off. */
/* ec_delta unless set (configfs; spare_main.c writes it, spare_blk.c checks) */
#define SPARE_EC_DELTA_DEFAULT	1

struct spare_config {
	u64 size;
	u8 slab_shift;
	u32 replicas;
	struct spare_ec_geom ec;	/* redundancy=: none (k 0) or ec:K+R */
	u32 ec_delta;			/* ec: split reads posted beyond K */
	char backup[256];
	enum spare_backup_mode backup_mode;
	struct sockaddr_storage source;	/* local address, or AF_UNSPEC */
	u32 nr_donors;
	struct sockaddr_storage donor_addr[SPARE_MAX_DONORS];
	char donor_name[SPARE_MAX_DONORS][64];
	u16 *placement;			/* donor per slab copy, or NULL */
	u32 nr_placement;
	u16 domain[SPARE_MAX_DONORS];	/* failure domain per donor */
	u32 nr_domains;			/* 0: each donor its own */
	bool integrity;			/* crc32c per page (spare_integrity.c) */
	u32 rehome_delay_ms;		/* a lost donor's copies move then */
	u32 hold_ms;			/* a holding donor is waited for; 0: no hold asked */
};

struct spare_dev {
	struct config_item item;
	struct mutex lock;		/* config and power */
	struct spare_config cfg;
	bool powered;
	struct mutex open_lock;		/* openers and dying */
	bool dying;			/* powering off: refuse opens */
	unsigned int openers;
	int index;			/* spareN */
	struct list_head powered_node;	/* spare_blk.c's powered devices */
	u8 uuid[16];
	struct crypto_shash *auth_tfm;	/* hmac(sha256) keyed; NULL: no key */
	struct spare_crc_table crc;	/* crc32c per page; .crc NULL: off */
	struct crypto_shash *crc_tfm;

	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
	struct spare_slab_map map;	/* ec:K+R: over split slabs */
	struct spare_ec_dev *ec;	/* spare_ec_blk.c, or NULL */
	struct spare_donor *donors;	/* [SPARE_MAX_DONORS], cfg.nr_donors
					 * of them in use (more may be
					 * appended while running) */
	atomic_t donor_ups;		/* donors that came up, ever: a move
					 * waiting for a target asks again */
	struct spare_bdev_handle backup;
	bool has_backup;
	struct bio_set backup_bs;	/* bios to the backup device */
	struct workqueue_struct *wq;
	struct spare_io_stats stats;
	unsigned long *backup_busy;	/* pages with an async backup write */
	unsigned long *backup_stale;	/* pages whose backup write failed */
	mempool_t *async_pool;		/* pages for async backup copies */
	atomic_t async_pages;		/* ... reserved by requests in flight */
	spinlock_t backup_lock;
	wait_queue_head_t backup_wait;
	/* backup bios made inside submit_bio(), submitted from dev->wq */
	struct bio_list backup_punt;	/* under backup_lock */
	struct work_struct backup_punt_work;
	wait_queue_head_t inflight_wait; /* a copy's inflight count dropped */
	atomic_t write_pages;		/* pages of write requests in flight */
	/*
	 * ->queue_rq() refused a request for lack of window or async room:
	 * the next release of that room re-runs the hardware queues.
	 */
	atomic_t window_refused;
	atomic_t async_refused;
	bool queue_runnable;		/* backup_lock: the disk may be run */

	/* spare_grants.c: grants to send the donors; dev->lock for writers */
	struct spare_grant_slot *grants;	/* [SPARE_MAX_GRANTS], or NULL */
	u32 nr_grants, grant_gen;	/* grant_lock */
	u32 grant_seq;			/* grant_lock; changes with any write */
	spinlock_t grant_lock;

	/* spare_resync.c: refilling copies mapped again after a failure */
	struct delayed_work resync_work;
	bool resync_stop;
	struct page *resync_pages[SPARE_RESYNC_PAGES];	/* bounce blocks */
};

/* Per-request command (blk-mq PDU). */
struct spare_op {
	struct ib_cqe cqe;
	struct spare_cmd *cmd;
	struct spare_queue *q;		/* data queue it is posted on */
	struct ib_device *ibdev;	/* the segments are mapped for */
	u8 ext;
	u8 copy;
	u8 nsge;
	bool failed;			/* did not land */
	bool copy_fault;		/* ... because the copy broke */
	bool done;
	u32 gen;
	u32 rkey;
	u64 raddr;			/* remote address of the extent */
	struct ib_sge sge[SPARE_MAX_SEGS + 1];
};

struct spare_cmd {
	struct spare_dev *dev;
	atomic_t pending;
	unsigned long start;		/* jiffies of the first attempt */
	unsigned int attempts;
	unsigned int bad_reads;		/* reads that failed their crc32c */
	bool is_write;
	bool use_backup;
	bool held;			/* only a held donor's kept copy serves it */
	bool held_counted;		/* in held_waits already */
	unsigned int window_pages;	/* write window pages this request holds */
	unsigned int async_pages;	/* async backup copy pages it reserved */
	blk_status_t backup_status;
	struct work_struct backup_work;	/* the backup part, when it waits */
	unsigned int nr_ext;
	unsigned int nr_ops;
	struct spare_extent ext[SPARE_MAX_EXTENTS];
	u32 gens[SPARE_MAX_EXTENTS][SPARE_MAX_SLOTS];
	u32 targets[SPARE_MAX_EXTENTS];	/* write: copies written */
	bool began[SPARE_MAX_EXTENTS];	/* write_begin done on this extent */
	bool zero[SPARE_MAX_EXTENTS];	/* read: never written, no copy */
	struct spare_op ops[SPARE_MAX_OPS];
};

/* spare_main.c */
extern struct configfs_subsystem spare_subsys;

/* Take @pages of @used unless that passes @limit; a request fits if empty. */
static inline bool spare_room_take(atomic_t *used, int limit, int pages)
{
	int cur = atomic_read(used);

	do {
		if (cur && cur + pages > limit)
			return false;
	} while (!atomic_try_cmpxchg(used, &cur, cur + pages));
	return true;
}

/*
 * ->queue_rq()'s room (the write window, async backup copies), never
 * waited for: take @pages of @used, or count a refusal in @stat, flag
 * *@refused so that the next spare_room_put() re-runs the hardware queues,
 * and try once more (a put between the first try and the flag did not see
 * the flag). On false the caller answers BLK_STS_RESOURCE before
 * blk_mq_start_request(); blk-mq keeps the request on its dispatch list.
 */
static inline bool spare_room_try(atomic_t *used, int limit, int pages,
				  atomic_t *refused, atomic64_t *stat)
{
	if (spare_room_take(used, limit, pages))
		return true;
	atomic64_inc(stat);
	atomic_set(refused, 1);
	smp_mb();	/* flag before the retry; pairs with spare_room_put() */
	return spare_room_take(used, limit, pages);
}

/* Give back @pages of @used; true when a refused request waits for it. */
static inline bool spare_room_put(atomic_t *used, int pages,
				  atomic_t *refused)
{
	atomic_sub(pages, used);
	smp_mb__after_atomic();	/* room before the flag; pairs with _try() */
	return atomic_read(refused) && atomic_xchg(refused, 0);
}

/* spare_blk.c */
extern unsigned int spare_write_window_kb;
int spare_blk_init(void);
void spare_blk_exit(void);
int spare_dev_power_on(struct spare_dev *dev);
int spare_dev_power_off(struct spare_dev *dev);

/*
 * spare_ec_blk.c: the erasure-coded request path, built in where the
 * kernel has the codec's libraries (Kbuild: SPARE_EC_CODEC); without it
 * check_redundancy() refuses ec:K+R before any of these is called.
 */
#ifdef SPARE_EC_CODEC
int spare_ec_power_on(struct spare_dev *dev);
void spare_ec_ready(struct spare_dev *dev);
void spare_ec_stop(struct spare_dev *dev);
void spare_ec_free(struct spare_dev *dev);
blk_status_t spare_ec_queue_rq(struct blk_mq_hw_ctx *hctx,
			       const struct blk_mq_queue_data *bd);
ssize_t spare_ec_stat_show(struct spare_dev *dev, char *buf);
struct spare_donor *spare_ec_rehome(struct spare_donor *d, u32 s);
size_t spare_ec_moving(struct spare_dev *dev, char *text, size_t cap);
size_t spare_ec_moving_cap(struct spare_dev *dev);
bool spare_ec_evict(struct spare_donor *d, u32 s);
void spare_ec_crc_shape(struct spare_dev *dev, u64 *pages, u32 *per_page,
			u32 *unit_shift);
#else
static inline int spare_ec_power_on(struct spare_dev *dev)
{
	return -EOPNOTSUPP;
}

static inline void spare_ec_ready(struct spare_dev *dev) {}
static inline void spare_ec_stop(struct spare_dev *dev) {}
static inline void spare_ec_free(struct spare_dev *dev) {}
static inline struct spare_donor *spare_ec_rehome(struct spare_donor *d,
						  u32 s)
{
	return NULL;
}
static inline size_t spare_ec_moving(struct spare_dev *dev, char *text,
				     size_t cap)
{
	return 0;
}
static inline size_t spare_ec_moving_cap(struct spare_dev *dev)
{
	return 1;
}
static inline bool spare_ec_evict(struct spare_donor *d, u32 s)
{
	return false;
}
static inline void spare_ec_crc_shape(struct spare_dev *dev, u64 *pages,
				      u32 *per_page, u32 *unit_shift) {}
static inline blk_status_t spare_ec_queue_rq(struct blk_mq_hw_ctx *hctx,
					     const struct blk_mq_queue_data *bd)
{
	return BLK_STS_NOTSUPP;
}

static inline ssize_t spare_ec_stat_show(struct spare_dev *dev, char *buf)
{
	/* spare_ec_stat_format()'s line for a device that is not ec */
	return sysfs_emit(buf, "4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
}
#endif

/* spare_auth.c: host authentication */
int spare_auth_set_key(struct spare_dev *dev, const char *page, size_t count);
void spare_auth_free(struct spare_dev *dev);
int spare_auth_mac(struct spare_dev *dev, u8 *mac, unsigned int dir,
		   const u8 *donor_id, const u8 *nonce_c, const u8 *nonce_d);
bool spare_auth_donor_ok(struct spare_dev *dev, const u8 *mac,
			 const u8 *donor_id, const u8 *nonce_c,
			 const u8 *nonce_d);

/* spare_grants.c: a broker's grants, from configfs to the donors */
int spare_grants_store(struct spare_dev *dev, const char *page, size_t count);
ssize_t spare_grants_show(struct spare_dev *dev, char *page);
/*
 * Copy grant @i to @out if it is for the donor at @addr and unexpired:
 * 1 copied, 0 not this donor's or expired, -ENOENT no grant @i, -ESTALE
 * the list was cleared since generation *@gen (now updated: start again
 * from 0).
 */
int spare_grant_take(struct spare_dev *dev, u32 *gen, u32 i,
		     const struct sockaddr_in *addr, struct spare_grant *out,
		     u64 *token);
void spare_grants_free(struct spare_dev *dev);
s64 spare_grants_cover(struct spare_dev *dev, const struct sockaddr_in *addr);
u64 spare_grants_last_expiry(struct spare_dev *dev,
			     const struct sockaddr_in *addr);
u32 spare_grants_seq(struct spare_dev *dev);

/* spare_main.c */
int spare_parse_donor(const char *s, size_t len, struct sockaddr_in *sin);

/* spare_giveback.c: configfs "giveback" (move marks) */
int spare_giveback_store(struct spare_dev *dev, const char *page, size_t count);
ssize_t spare_giveback_show(struct spare_dev *dev, char *page);

/* spare_integrity.c: crc32c per page */
int spare_integrity_start(struct spare_dev *dev);
void spare_integrity_stop(struct spare_dev *dev);
void spare_integrity_write(struct spare_dev *dev, struct request *rq);
bool spare_integrity_read_ok(struct spare_dev *dev, struct spare_cmd *cmd,
			     struct request *rq);
bool spare_integrity_want_backup(struct spare_dev *dev,
				 const struct spare_cmd *cmd);
bool spare_integrity_no_source(struct spare_dev *dev,
			       const struct spare_cmd *cmd);
u32 spare_integrity_crc32c(void *tfm, const void *buf, u32 len);
void spare_cmd_put(struct spare_cmd *cmd);
void spare_kick_queues(struct spare_dev *dev);
void spare_uevent(struct spare_dev *dev, const char *event,
		  const struct spare_donor *donor, s64 slab);

/* the RDMA transport (spare_rdma.h lists its files) */
int spare_donors_start(struct spare_dev *dev);
void spare_donors_stop(struct spare_dev *dev);
int spare_donors_add(struct spare_dev *dev, u32 nr);
void spare_donors_free(struct spare_dev *dev);
/* New grants were written: live donors' map work sends them. */
void spare_donors_grants_added(struct spare_dev *dev);
struct spare_queue *spare_data_queue(struct spare_donor *donor, int hctx);
void spare_donor_error(struct spare_donor *donor, const char *why);
unsigned int spare_rdma_giveup_ms(void);
void spare_op_post(struct spare_op *op, bool write);
void spare_op_unmap(struct spare_op *op, bool write);

/* spare_resync.c */
int spare_resync_init(struct spare_dev *dev);
void spare_resync_stop(struct spare_dev *dev);
void spare_resync_kick(struct spare_dev *dev);
void spare_resync_kick_now(struct spare_dev *dev);

/* spare_backup.c */
int spare_backup_open(struct spare_dev *dev);
void spare_backup_close(struct spare_dev *dev);
void spare_backup_start(struct spare_cmd *cmd);
void spare_backup_work(struct work_struct *w);
bool spare_backup_reserve(struct spare_dev *dev, struct spare_cmd *cmd,
			  struct request *rq);
bool spare_backup_unreserve(struct spare_dev *dev, struct spare_cmd *cmd);
void spare_backup_undo(struct spare_dev *dev, struct spare_cmd *cmd);
bool spare_backup_range_ok(struct spare_dev *dev, u64 first, u64 n);
int spare_backup_read_pages(struct spare_dev *dev, u64 first, u32 n,
			    struct page **blocks, unsigned int order);

/* spare_sysfs.c */
extern const struct attribute_group *spare_disk_groups[];

static inline struct spare_dev *to_spare_dev(struct config_item *item)
{
	return container_of(item, struct spare_dev, item);
}

#endif /* SPARE_H */
