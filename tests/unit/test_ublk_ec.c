// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's erasure-coded request path (userspace/ublk/ec.c) on the
 * host, without ublk or RDMA: the test plays the transport (donor_map()
 * hands out slabs of its own memory, donor_post_rdma() queues the
 * operation, and the test completes each one when it chooses, copying
 * the bytes at completion time, as a NIC may read the local buffer
 * late) and stands in for io.c's rq_ec_commit() (it counts the answers).
 * One coding group of ec:4+2 over six donors, one queue.
 *
 *  - a write is answered once K splits landed, with one split held back;
 *    a read right after it returns the new data (decoded from the landed
 *    splits, never posted to the held one); the request's buffer is
 *    reused by the kernel after the answer, and the late split still
 *    lands the request's bytes (the slot's copy, not the buffer);
 *  - the held split fails: the write is not answered twice, and the
 *    split is flagged for repair, its page current on the other five;
 *  - a second write of the page while the first's late split is in
 *    flight waits (nothing posted), then goes once it completed;
 *  - a late split that lands is marked current for the page;
 *  - a read of a page whose write has fewer than K splits landed waits
 *    (nothing posted, no EIO), then reads the new data.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pager.h"
#include "spare_util.h"
#include "stats.h"
#include "tap.h"

#define DEPTH	4
#define NDONORS	6
#define NSLOTS	(NDONORS + 1)	/* a donor outside the group, for a re-home */
#define SLAB_SHIFT 20		/* 1 MiB split slabs: a 4 MiB coding group */
#define MAX_PENDING 64

static struct dev dev;
static struct queue q0;

/* the donors' memory: one slab per (donor, slab id) */
static char *remote[NSLOTS][NDONORS];

struct pend {
	u32 donor;
	bool write;
	u64 wr_id;
	char *local;
	u32 len;
	char *raddr;
	bool done;
};
static struct pend pend[MAX_PENDING];
static unsigned int nr_pend;

static unsigned int answered[DEPTH];
static int answer_err[DEPTH];
static unsigned int kicks, fails;
/* donors whose MAP is refused (a bit each); the grants' cover, when set */
static u32 map_refused;
static u32 *grant_cover_of;

/* ---- the transport and the rest of the pager, as ec.c uses them ---- */

int donor_map(struct donor *d, uint32_t id, uint64_t *addr, uint32_t *rkey)
{
	u32 i = (u32)(d - dev.donors);

	if (i >= NSLOTS || id >= NDONORS || (map_refused & (1U << i)))
		return -1;
	if (!remote[i][id])
		remote[i][id] = calloc(1, 1U << SLAB_SHIFT);
	*addr = (u64)(uintptr_t)remote[i][id];
	*rkey = id;
	return remote[i][id] ? 0 : -1;
}

int donor_unmap(struct donor *d, uint32_t id)
{
	return 0;
}

void donor_fail(struct donor *d, const char *why)
{
	fails++;
}

int donor_post_rdma(struct donor *d, unsigned int q, bool write,
		    uint64_t wr_id, void *local, uint32_t lkey, uint32_t len,
		    uint64_t raddr, uint32_t rkey)
{
	if (nr_pend == MAX_PENDING)
		return -1;
	pend[nr_pend++] = (struct pend){
		.donor = (u32)(d - dev.donors), .write = write, .wr_id = wr_id,
		.local = local, .len = len, .raddr = (char *)(uintptr_t)raddr,
	};
	return 0;
}

void resync_kick(struct dev *d)
{
	kicks++;
}

int resync_rdma(struct dev *d, u32 i, bool write, void *local, u32 lkey,
		u32 len, u64 raddr, u32 rkey)
{
	return -EAGAIN;
}

bool pager_grant_cover(struct dev *d, u32 nd, u32 *cover)
{
	if (!grant_cover_of)
		return false;
	memcpy(cover, grant_cover_of, nd * sizeof(*cover));
	return true;
}

void rq_ec_commit(struct queue *q, unsigned int tag)
{
	answered[tag]++;
	answer_err[tag] = q->rqs[tag].err;
}

#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	static struct ibv_mr mr;

	return &mr;
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	return 0;
}

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	return status == IBV_WC_SUCCESS ? "success" : "error";
}

/* ---- the test's side ---- */

/* The split each pending operation is for: its donor (group 0, split j
 * on donor j). */
static u32 op_split(const struct pend *p)
{
	return p->donor;
}

/* Pending operations not completed, of @write kind, on split @j (or any: -1). */
static unsigned int open_ops(int write, int j)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr_pend; i++)
		if (!pend[i].done && (write < 0 || pend[i].write == write) &&
		    (j < 0 || op_split(&pend[i]) == (u32)j))
			n++;
	return n;
}

/* Complete the open operation on split @j (the oldest), @st its status. */
static bool complete(u32 j, enum ibv_wc_status st)
{
	struct ibv_wc wc = { 0 };
	unsigned int i;

	for (i = 0; i < nr_pend; i++)
		if (!pend[i].done && op_split(&pend[i]) == j)
			break;
	if (i == nr_pend)
		return false;
	pend[i].done = true;
	if (st == IBV_WC_SUCCESS) {
		if (pend[i].write)
			memcpy(pend[i].raddr, pend[i].local, pend[i].len);
		else
			memcpy(pend[i].local, pend[i].raddr, pend[i].len);
	}
	wc.wr_id = pend[i].wr_id;
	wc.status = st;
	ec_rdma_done(&q0, pend[i].donor, &wc);
	return true;
}

/* Every open operation (of @write kind, or any: -1) completed well, oldest first. */
static void complete_all(int write)
{
	for (unsigned int i = 0; i < nr_pend; i++)
		if (!pend[i].done && (write < 0 || pend[i].write == write))
			complete(op_split(&pend[i]), IBV_WC_SUCCESS);
}

static void fill(char *buf, unsigned int seed)
{
	for (unsigned int i = 0; i < SPARE_EC_PAGE; i++)
		buf[i] = (char)(seed * 131 + i * 7 + (i >> 8));
}

/* A request of one page at page @page on @tag, as the kernel gives it. */
static void request(unsigned int tag, bool write, u32 page, unsigned int seed)
{
	struct rq *r = &q0.rqs[tag];

	memset(r, 0, sizeof(*r));
	r->write = write;
	r->pos = (u64)page * SPARE_EC_PAGE;
	r->len = SPARE_EC_PAGE;
	answered[tag] = 0;
	answer_err[tag] = 1;
	if (write)
		fill(tag_buf(&q0, tag), seed);
	else
		memset(tag_buf(&q0, tag), 0xee, SPARE_EC_PAGE);
	ec_rq_start(&q0, tag);
}

static bool page_is(unsigned int tag, unsigned int seed)
{
	char want[SPARE_EC_PAGE];

	fill(want, seed);
	return !memcmp(tag_buf(&q0, tag), want, SPARE_EC_PAGE);
}

static struct spare_ec_group *grp0(void)
{
	return &dev.ec->map.groups[0];
}

static void setup(void)
{
	memset(&dev, 0, sizeof(dev));
	memset(&q0, 0, sizeof(q0));
	memset(pend, 0, sizeof(pend));
	nr_pend = 0;
	kicks = 0;
	fails = 0;
	map_refused = 0;
	grant_cover_of = NULL;
	dev.size = 4ULL << 20;
	dev.slab_shift = SLAB_SHIFT;
	dev.copies = 1;
	dev.ec_geom.k = 4;
	dev.ec_geom.r = 2;
	dev.ec_delta = 1;
	dev.depth = DEPTH;
	dev.nr_queues = 1;
	dev.nr_donors = NDONORS;
	for (u32 i = 0; i < NDONORS; i++)
		snprintf(dev.donors[i].host, sizeof(dev.donors[i].host), "10.0.0.%u", i + 2);
	dev.queues = &q0;
	dev.bufs = aligned_alloc(4096, (size_t)DEPTH * MAX_IO);
	q0.d = &dev;
	q0.kick_fd = -1;
	q0.rqs = calloc(DEPTH, sizeof(*q0.rqs));
	if (!dev.bufs || !q0.rqs || ec_init(&dev)) {
		fprintf(stderr, "# set-up failed\n");
		exit(1);
	}
}

static void teardown(void)
{
	ec_fini(&dev);
	free(dev.bufs);
	free(q0.rqs);
	for (u32 i = 0; i < NSLOTS; i++)
		for (u32 j = 0; j < NDONORS; j++) {
			free(remote[i][j]);
			remote[i][j] = NULL;
		}
}

/*
 * Write page 0 with one data split (1) held back: answered at the K-th
 * landed split; a read then returns the new data, from the other five.
 */
static void write_answered_at_k(void)
{
	char want[SPARE_EC_PAGE];

	setup();
	request(0, true, 0, 1);
	EXPECT_EQ(open_ops(1, -1), 6);
	complete(0, IBV_WC_SUCCESS);
	complete(2, IBV_WC_SUCCESS);
	complete(3, IBV_WC_SUCCESS);
	EXPECT_EQ(answered[0], 0);		/* three landed: not yet */
	complete(4, IBV_WC_SUCCESS);
	EXPECT_EQ(answered[0], 1);		/* the K-th: answered */
	EXPECT_EQ(answer_err[0], 0);
	complete(5, IBV_WC_SUCCESS);
	EXPECT_EQ(answered[0], 1);
	EXPECT_EQ(open_ops(1, 1), 1);		/* split 1 still in flight */
	/* the kernel reuses tag 0's buffer once answered */
	memset(tag_buf(&q0, 0), 0x5a, SPARE_EC_PAGE);

	/*
	 * A read now: split 5 landed after the answer, so it is marked with
	 * the held one at the write's end; the read takes the K splits
	 * marked at the answer (0, 2, 3 and 4: decoded), never the held one.
	 */
	request(1, false, 0, 0);
	EXPECT_EQ(open_ops(0, -1), 4);
	EXPECT_EQ(open_ops(0, 1), 0);
	complete_all(0);
	EXPECT_EQ(answered[1], 1);
	EXPECT_EQ(answer_err[1], 0);
	EXPECT(page_is(1, 1));
	EXPECT(dev.ec ? q0.st.ec.reads_decoded == 1 : false);

	/* the held split lands late: the request's bytes, not the reused buffer */
	EXPECT(complete(1, IBV_WC_SUCCESS));
	fill(want, 1);
	EXPECT(!memcmp(remote[1][1], want + 1024, 1024));
	for (u32 j = 0; j < 6; j++)		/* every split current now */
		EXPECT(spare_ec_current(&dev.ec->map, grp0(), j, 0));
	EXPECT_EQ(answered[0], 1);
	EXPECT_EQ(q0.st.ec.writes_short, 0);
	teardown();
}

/* Tag 0 writes page @page (@seed), every split but @held landed: answered. */
static void write_holding(u32 page, unsigned int seed, u32 held)
{
	request(0, true, page, seed);
	for (u32 j = 0; j < 6; j++)
		if (j != held)
			complete(j, IBV_WC_SUCCESS);
	EXPECT_EQ(answered[0], 1);
	EXPECT_EQ(answer_err[0], 0);
	EXPECT_EQ(open_ops(1, (int)held), 1);
}

/*
 * The held split fails: the write was answered once, the split is flagged
 * for repair and its page is current on the five others, which a read
 * then uses.
 */
static void late_split_fails(void)
{
	setup();
	write_holding(0, 2, 1);
	kicks = 0;
	EXPECT(complete(1, IBV_WC_REM_ACCESS_ERR));
	EXPECT_EQ(fails, 1);			/* its donor failed */
	EXPECT_EQ(answered[0], 1);		/* not answered twice */
	EXPECT(grp0()->repair & (1U << 1));	/* flagged for the rebuild */
	EXPECT(kicks > 0);			/* and resync told */
	EXPECT_EQ(q0.st.ec.writes_short, 1);
	EXPECT(!spare_ec_current(&dev.ec->map, grp0(), 1, 0));
	for (u32 j = 0; j < 6; j++)
		if (j != 1)
			EXPECT(spare_ec_current(&dev.ec->map, grp0(), j, 0));
	request(1, false, 0, 0);
	EXPECT_EQ(open_ops(0, 1), 0);
	complete_all(-1);
	EXPECT_EQ(answered[1], 1);
	EXPECT_EQ(answer_err[1], 0);
	EXPECT(page_is(1, 2));
	teardown();
}

/*
 * A second write of a page while the first's late split is in flight
 * waits (nothing posted: its late split would be marked current over the
 * second's bytes), then goes once that split completed.
 */
static void second_write_waits(void)
{
	setup();
	write_holding(0, 2, 1);
	request(2, true, 0, 3);
	EXPECT_EQ(open_ops(1, -1), 1);		/* only the held split */
	EXPECT_EQ(answered[2], 0);
	EXPECT(complete(1, IBV_WC_SUCCESS));
	EXPECT_EQ(open_ops(1, -1), 6);		/* the second write went */
	complete_all(-1);
	EXPECT_EQ(answered[2], 1);
	EXPECT_EQ(answer_err[2], 0);
	for (u32 j = 0; j < 6; j++)
		EXPECT(spare_ec_current(&dev.ec->map, grp0(), j, 0));
	request(3, false, 0, 0);
	complete_all(-1);
	EXPECT_EQ(answered[3], 1);
	EXPECT_EQ(answer_err[3], 0);
	EXPECT(page_is(3, 3));
	teardown();
}

/* A read of a page whose write has fewer than K splits landed waits. */
static void read_waits_for_write(void)
{
	setup();
	request(0, true, 2, 4);
	complete(0, IBV_WC_SUCCESS);
	complete(1, IBV_WC_SUCCESS);
	request(1, false, 2, 0);
	EXPECT_EQ(open_ops(0, -1), 0);		/* waits: nothing posted */
	EXPECT_EQ(answered[1], 0);		/* and no EIO */
	complete(2, IBV_WC_SUCCESS);
	complete(3, IBV_WC_SUCCESS);		/* K landed: the write answered */
	EXPECT_EQ(answered[0], 1);
	EXPECT_EQ(answer_err[0], 0);
	EXPECT_EQ(open_ops(0, -1), 4);		/* the read went, on 0-3 */
	EXPECT_EQ(open_ops(0, 4) + open_ops(0, 5), 0);
	complete_all(-1);
	EXPECT_EQ(answered[1], 1);
	EXPECT_EQ(answer_err[1], 0);
	EXPECT(page_is(1, 4));
	EXPECT_EQ(q0.st.ec.eio_pages, 0);
	teardown();
}

static bool live_but_1(struct dev *d, u32 i)
{
	return i != 1;
}

static bool never_due(struct dev *d, u32 i)
{
	return false;
}

/*
 * NAME.map (stats.c) lists the split slabs, as spare.ko's slab_map does
 * for an ec device: one line per split (slab g * (K + R) + j, slot 0),
 * its donor, its state and the pages current on it, so that sparectl's
 * renew and monitor count each donor's splits where they are now. Page 0
 * written with split 1's write failed, then split 1's donor lost: split
 * 1 failed with no current page, the five others mapped with one. (Until
 * session 49 the file was empty for an ec device.)
 */
static void map_lists_splits(void)
{
	char dir[] = "/tmp/test_ublk_ec.XXXXXX", path[128], line[128];
	struct stats_id id = { .name = "ec0", .disk = "ublkb0" };
	unsigned int n = 0;
	FILE *f;

	setup();
	for (u32 i = 0; i < NDONORS; i++)
		snprintf(dev.donors[i].port, sizeof(dev.donors[i].port), "18515");
	write_holding(0, 2, 1);
	EXPECT(complete(1, IBV_WC_REM_ACCESS_ERR));
	dev.donors[1].failed = true;
	ec_life_step(&dev, live_but_1, never_due);
	EXPECT(grp0()->lost & (1U << 1));
	if (!mkdtemp(dir)) {
		EXPECT(false);
		teardown();
		return;
	}
	snprintf(id.path, sizeof(id.path), "%s/ec0", dir);
	EXPECT_EQ(stats_write(&dev, &id), 0);
	snprintf(path, sizeof(path), "%s/ec0.map", dir);
	f = fopen(path, "r");
	EXPECT(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		char want[128];

		snprintf(want, sizeof(want), "1 %u 0 %u 10.0.0.%u:18515 %s %u\n", n, n, n + 2,
			 n == 1 ? "failed" : "mapped", n == 1 ? 0 : 1);
		if (strcmp(line, want))
			fprintf(stderr, "# line %u: %s# want:    %s", n, line, want);
		EXPECT(!strcmp(line, want));
		n++;
	}
	EXPECT_EQ(n, 6);
	if (f)
		fclose(f);
	stats_remove(&id);
	rmdir(dir);
	teardown();
}

static bool always_due(struct dev *d, u32 i)
{
	return true;
}

/* NAME.map's line for split slab @s (stats.c's), into @line. */
static bool map_line(u32 s, char *line, size_t len)
{
	char dir[] = "/tmp/test_ublk_ec.XXXXXX", path[128];
	struct stats_id id = { .name = "ec0", .disk = "ublkb0" };
	bool found = false;
	u32 n = 0;
	FILE *f;

	if (!mkdtemp(dir))
		return false;
	snprintf(id.path, sizeof(id.path), "%s/ec0", dir);
	snprintf(path, sizeof(path), "%s/ec0.map", dir);
	if (!stats_write(&dev, &id)) {
		f = fopen(path, "r");
		while (f && !found && fgets(line, (int)len, f))
			found = n++ == s;
		if (f)
			fclose(f);
	}
	stats_remove(&id);
	rmdir(dir);
	return found;
}

/*
 * A lost split is listed on the donor the re-home picked as soon as it
 * is picked, before that donor maps it (as spare.ko's slab_map shows a
 * re-homed split, spare_slab_rehome_split()): so that sparectl's monitor,
 * which counts each donor's splits from NAME.map, asks the broker for
 * room there when the donor refuses the MAP for want of a grant. Six
 * donors hold group 0, a seventh (10.0.0.8) holds nothing, every donor
 * holds a grant of one slab; split 1's donor lost and its re-home due:
 * the pick is the seventh, whose MAP is refused. NAME.map shows split 1
 * "unmapped" there (until session 50: "failed" on its lost donor, so
 * nothing asked for room on the seventh); the MAP asked again is refused
 * again and the split stays there; once the donor takes it, it is mapped
 * there and resync is kicked to rebuild it.
 */
static void rehome_lists_picked_split(void)
{
	u32 cover[NSLOTS] = { 1, 1, 1, 1, 1, 1, 1 };
	char line[128];

	setup();
	dev.nr_donors = NSLOTS;
	snprintf(dev.donors[6].host, sizeof(dev.donors[6].host), "10.0.0.8");
	for (u32 i = 0; i < NSLOTS; i++)
		snprintf(dev.donors[i].port, sizeof(dev.donors[i].port), "18515");
	grant_cover_of = cover;
	write_holding(0, 2, 1);
	EXPECT(complete(1, IBV_WC_SUCCESS));
	dev.donors[1].failed = true;
	map_refused = 1U << 6;
	ec_life_step(&dev, live_but_1, always_due);
	EXPECT(grp0()->lost & (1U << 1));
	EXPECT(map_line(1, line, sizeof(line)));
	if (strcmp(line, "1 1 0 6 10.0.0.8:18515 unmapped 0\n"))
		fprintf(stderr, "# refused: %s", line);
	EXPECT(!strcmp(line, "1 1 0 6 10.0.0.8:18515 unmapped 0\n"));
	dev.ec->sp[1].retry_at = 0;
	ec_life_step(&dev, live_but_1, always_due);
	EXPECT(map_line(1, line, sizeof(line)));
	EXPECT(!strcmp(line, "1 1 0 6 10.0.0.8:18515 unmapped 0\n"));
	EXPECT_EQ(kicks, 0);
	map_refused = 0;
	dev.ec->sp[1].retry_at = 0;
	ec_life_step(&dev, live_but_1, always_due);
	EXPECT(map_line(1, line, sizeof(line)));
	if (strcmp(line, "1 1 0 6 10.0.0.8:18515 mapped 0\n"))
		fprintf(stderr, "# taken: %s", line);
	EXPECT(!strcmp(line, "1 1 0 6 10.0.0.8:18515 mapped 0\n"));
	EXPECT(grp0()->repair & (1U << 1));
	EXPECT(kicks > 0);
	teardown();
}

/* The whole of the pager's NAME@suffix (stats.c's) into @buf; "" if none. */
static void stats_file(const char *suffix, char *buf, size_t len)
{
	char dir[] = "/tmp/test_ublk_ec.XXXXXX", path[160];
	struct stats_id id = { .name = "ec0", .disk = "ublkb0" };
	size_t got = 0;
	FILE *f;

	buf[0] = 0;
	if (!mkdtemp(dir))
		return;
	snprintf(id.path, sizeof(id.path), "%s/ec0", dir);
	snprintf(path, sizeof(path), "%s/ec0%s", dir, suffix);
	if (!stats_write(&dev, &id)) {
		f = fopen(path, "r");
		if (f) {
			got = fread(buf, 1, len - 1, f);
			fclose(f);
		}
		buf[got] = 0;
	}
	stats_remove(&id);
	rmdir(dir);
}

/*
 * Under a broker's grants, a lost split that no donor the device holds a
 * grant for can take, while a donor without one could, waits for a donor
 * the monitor gets from a broker: it is listed in NAME.moving (slab, the
 * donor it was lost on), which the monitor reads every second (MOVE_REQ).
 * Donors 0-5 hold group 0 under grants, donor 6 (10.0.0.8) is live
 * without one; split 1's donor lost: NAME.moving lists split slab 1 on
 * donor 1 (before session 50 nothing did: the split waited for good).
 * A grant on donor 6 comes (the monitor's, SIGHUP): the next pass maps
 * the split there and NAME.moving goes.
 */
static void rehome_waits_for_donor(void)
{
	u32 cover[NSLOTS] = { 1, 1, 1, 1, 1, 1, 0 };
	char text[256];

	setup();
	dev.nr_donors = NSLOTS;
	snprintf(dev.donors[6].host, sizeof(dev.donors[6].host), "10.0.0.8");
	for (u32 i = 0; i < NSLOTS; i++)
		snprintf(dev.donors[i].port, sizeof(dev.donors[i].port), "18515");
	grant_cover_of = cover;
	write_holding(0, 2, 1);
	EXPECT(complete(1, IBV_WC_SUCCESS));
	dev.donors[1].failed = true;
	ec_life_step(&dev, live_but_1, always_due);
	EXPECT(grp0()->lost & (1U << 1));
	stats_file(".moving", text, sizeof(text));
	if (strcmp(text, "1 1 1 10.0.0.3:18515\n"))
		fprintf(stderr, "# NAME.moving: \"%s\"\n", text);
	EXPECT(!strcmp(text, "1 1 1 10.0.0.3:18515\n"));
	/* without grants (no broker to ask) nothing is listed */
	grant_cover_of = NULL;
	map_refused = 1U << 6;
	dev.ec->sp[1].retry_at = 0;
	ec_life_step(&dev, live_but_1, always_due);
	stats_file(".moving", text, sizeof(text));
	EXPECT(!strcmp(text, ""));
	map_refused = 0;
	grant_cover_of = cover;
	cover[6] = 1;
	dev.ec->sp[1].retry_at = 0;
	ec_life_step(&dev, live_but_1, always_due);
	stats_file(".moving", text, sizeof(text));
	EXPECT(!strcmp(text, ""));
	EXPECT(map_line(1, text, sizeof(text)));
	EXPECT(!strcmp(text, "1 1 0 6 10.0.0.8:18515 mapped 0\n"));
	teardown();
}

/*
 * A split read posted late in a request's life (another split failed and
 * the read goes to one more) gives its idle donor a fresh stall clock:
 * the post's time, not the request's first post. With the request's,
 * a read re-driven after a split failed slower than --io-timeout had its
 * healthy donor failed at the next stall check (client/ec-ublk@ublk,
 * 2026-12-01: three splits of a group failed, one of them a live donor's,
 * and the page read as EIO).
 */
static void redrive_stall_clock(void)
{
	u64 before;
	int spare = -1;

	setup();
	request(0, true, 0, 4);
	complete_all(-1);
	EXPECT_EQ(answer_err[0], 0);
	request(1, false, 0, 0);
	EXPECT_EQ(open_ops(0, -1), 5);		/* K + delta */
	for (u32 j = 0; j < 6; j++)
		if (!open_ops(0, (int)j))
			spare = (int)j;
	EXPECT(spare >= 0);
	if (spare < 0) {
		teardown();
		return;
	}
	EXPECT_EQ(q0.dn_inflight[spare], 0);
	/* the request went out 10 s ago; its splits are still in flight */
	q0.rqs[1].t_post -= 10000000000ULL;
	before = spare_now_ns();
	EXPECT(complete((u32)((spare + 1) % 6), IBV_WC_RETRY_EXC_ERR));
	EXPECT_EQ(open_ops(0, spare), 1);	/* the read went to the sixth */
	EXPECT(q0.dn_progress_ns[spare] >= before);
	complete_all(0);
	EXPECT_EQ(answered[1], 1);
	EXPECT_EQ(answer_err[1], 0);
	EXPECT(page_is(1, 4));
	teardown();
}

int main(void)
{
	TAP_RUN(write_answered_at_k);
	TAP_RUN(late_split_fails);
	TAP_RUN(second_write_waits);
	TAP_RUN(read_waits_for_write);
	TAP_RUN(map_lists_splits);
	TAP_RUN(rehome_lists_picked_split);
	TAP_RUN(rehome_waits_for_donor);
	TAP_RUN(redrive_stall_clock);
	return tap_done();
}
