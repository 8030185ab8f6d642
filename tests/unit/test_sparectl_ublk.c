// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl and spare-ublk devices, on the host: the config file that
 * `device create NAME --backend=ublk` writes (in the daemon kit's dialect,
 * read back with the kit's own parser, and refusing what spare-ublk cannot
 * do), and the pager's live counters file read as a device (parsing,
 * bad files refused, listing beside configfs devices, power from the pid).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>
#include <time.h>

#include "devstat.h"
#include "spare_conf.h"
#include "spare_ec_place.h"
#include "spare_grant_lib.h"
#include "tap.h"
#include "ublkdev.h"

/* ---- the config file ---- */

struct seen {
	char	text[2048];
	size_t	len;
};

static const char *collect(const char *key, const char *value, void *ctx)
{
	struct seen *s = ctx;

	s->len += (size_t)snprintf(s->text + s->len, sizeof(s->text) - s->len, "%s=%s|",
				   key, value);
	return NULL;
}

static int conf_g(const char *name, int argc, char *const *argv, const char *grant_file,
		  char *out, size_t outlen, char *why, size_t whylen)
{
	FILE *f = fmemopen(out, outlen, "w");
	int ret;

	if (!f)
		return -2;
	ret = ublk_conf_write(f, name, argc, argv, grant_file, why, whylen);
	fclose(f);
	return ret;
}

static int conf(const char *name, int argc, char *const *argv, char *out, size_t outlen,
		char *why, size_t whylen)
{
	return conf_g(name, argc, argv, NULL, out, outlen, why, whylen);
}

/*
 * The config sparectl writes for these settings, read back by the kit's
 * own parser (every key a spare-ublk option), must be @want: each key=value
 * followed by '|', in order.
 */
static void expect_conf(const char *name, int argc, char *const *argv,
			const char *grant_file, const char *want)
{
	char out[2048] = "", why[256] = "", file[64];
	struct seen s = { .len = 0 };
	FILE *f;

	EXPECT_EQ(conf_g(name, argc, argv, grant_file, out, sizeof(out), why, sizeof(why)), 0);
	if (why[0])
		fprintf(stderr, "# refused: %s\n", why);
	f = fmemopen(out, strlen(out), "r");
	EXPECT(f != NULL);
	if (!f)
		return;
	snprintf(file, sizeof(file), "ublk-%s.conf", name);
	EXPECT_EQ(spare_conf_parse_stream(f, file, collect, &s), 0);
	fclose(f);
	EXPECT(!strcmp(s.text, want));
	if (strcmp(s.text, want))
		fprintf(stderr, "# got %s\n", s.text);
}

static void test_conf_good(void)
{
	char *const argv[] = {
		"size=256M", "slab_size=16M", "replicas=2",
		"donors=10.0.0.2:18515,10.0.0.3", "source=10.0.0.1",
		"backup=/dev/vdb", "backup_mode=async", "integrity=none",
		"key-file=/etc/spare/host.key", "domains=0,1", "queues=2",
	};
	expect_conf("swap0", 11, argv, NULL,
		    "name=swap0|size=256M|slab-size=16M|copies=2|"
		    "donor=10.0.0.2:18515|donor=10.0.0.3|source=10.0.0.1|"
		    "backup=/dev/vdb|backup-mode=async|integrity=none|"
		    "key-file=/etc/spare/host.key|domains=0,1|queues=2|");
}

/*
 * integrity=crc32c: the pager checks every page (every split with
 * ec:K+R) against its checksum table, so sparectl passes it on.
 */
static void test_conf_integrity(void)
{
	char *const argv[] = { "size=96M", "donors=10.0.0.2,10.0.0.3",
			       "redundancy=ec:2+1", "integrity=crc32c" };
	expect_conf("swap0", 4, argv, NULL,
		    "name=swap0|size=96M|donor=10.0.0.2|donor=10.0.0.3|"
		    "redundancy=ec:2+1|integrity=crc32c|");
}

static void test_conf_refused(void)
{
	static const struct {
		const char *args[3];
		const char *says;
	} bad[] = {
		{ { "size=1G", "donors=a", "placement=0" }, "placement" },
		/* sparectl takes its broker settings out before: not spare-ublk's */
		{ { "size=1G", "donors=a", "broker=b:1" }, "KEY is one of" },
		{ { "size=1G", "donors=a", "lease=60" }, "KEY is one of" },
		{ { "size=1G", "donors=a", "integrity=md5" }, "integrity=md5: none or crc32c" },
		{ { "size=1G", "donors=a", "backup=dev/vdb" }, "absolute path" },
		{ { "size=1G", "donors=a", "key-file=host.key" }, "absolute path" },
		{ { "size=1G", "donors=a", "source=10.0.0.1 # x" }, "'#'" },
		{ { "size=1G", "donors=a,,b", "replicas=2" }, "empty donor" },
		{ { "size=1G", "donors=", "replicas=1" }, "empty" },
		{ { "size=1G", "donors=a", "colour=red" }, "KEY is one of" },
		{ { "size=1G", "donors=a", "justaword" }, "KEY=VALUE" },
		{ { "size=1G", "replicas=1", "source=x" }, "needs size= and donors=" },
		{ { "donors=a", "replicas=1", "source=x" }, "needs size= and donors=" },
		/* redundancy= (issue 34): read by kmod/core/spare_ec.c */
		{ { "size=1G", "donors=a", "redundancy=ec:3+5" }, "redundancy=ec:3+5: K (data" },
		{ { "size=1G", "donors=a", "redundancy=ec:4+0" }, "redundancy=ec:4+0: R (parity" },
		{ { "size=1G", "donors=a", "redundancy=raid6" }, "not 'none' or 'ec:K+R'" },
		{ { "replicas=2", "donors=a", "redundancy=ec:4+2" }, "not both" },
	};
	char out[2048], why[256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		EXPECT_EQ(conf("swap0", 3, (char *const *)bad[i].args, out, sizeof(out), why,
			       sizeof(why)), -1);
		EXPECT(strstr(why, bad[i].says) != NULL);
		if (!strstr(why, bad[i].says))
			fprintf(stderr, "# case %u: %s\n", i, why);
	}
	EXPECT_EQ(conf("a/b", 0, NULL, out, sizeof(out), why, sizeof(why)), -1);
	EXPECT_EQ(conf("x.log", 0, NULL, out, sizeof(out), why, sizeof(why)), -1);
	EXPECT(!dev_ublk_name_ok("") && !dev_ublk_name_ok(".hidden") &&
	       !dev_ublk_name_ok("n.tmp") && !dev_ublk_name_ok("n.map") &&
	       dev_ublk_name_ok("swap0") &&
	       dev_ublk_name_ok("a.b"));
}

/* redundancy= goes to the pager's --redundancy, which checks the donors. */
static void test_conf_redundancy(void)
{
	char *const argv[] = { "size=64M", "donors=a,b", "replicas=1", "redundancy=ec:2+1" };
	expect_conf("swap0", 4, argv, NULL,
		    "name=swap0|size=64M|donor=a|donor=b|copies=1|redundancy=ec:2+1|");
}

/* A broker-placed device: the grants file, not donors=, names the donors. */
static void test_conf_broker(void)
{
	/* the plan's failure domains, which sparectl adds to the settings */
	char *const argv[] = { "size=64M", "slab_size=16M", "replicas=2", "domains=0,0,1" };
	char *const with_donors[] = { "size=64M", "donors=a" };
	char out[2048] = "", why[256] = "";

	expect_conf("u0", 4, argv, "/etc/spare/ublk-u0.grants",
		    "name=u0|size=64M|slab-size=16M|copies=2|domains=0,0,1|"
		    "grant-file=/etc/spare/ublk-u0.grants|");
	/* without grants, no donors is still refused (above); with them, donors= is */
	why[0] = 0;
	EXPECT_EQ(conf_g("u0", 2, with_donors, "/etc/spare/ublk-u0.grants", out, sizeof(out),
			 why, sizeof(why)), -1);
	EXPECT(strstr(why, "not with donors=") != NULL);
	why[0] = 0;
	EXPECT_EQ(conf_g("u0", 3, argv, "/etc/spare/a#b", out, sizeof(out), why,
			 sizeof(why)), -1);
	EXPECT(strstr(why, "grants file") != NULL);
}

/* What a broker is asked for: the settings given, else spare-ublk's defaults. */
static void test_geometry(void)
{
	char *const full[] = { "size=256M", "slab_size=16M", "replicas=2", "source=x" };
	char *const dflt[] = { "size=4G" };
	char *const bad[][2] = {
		{ "slab_size=16M", "replicas=1" },	/* no size */
		{ "size=1G", "slab_size=3M" },
		{ "size=1G", "replicas=0" },
		{ "size=lots", "replicas=1" },
	};
	struct ublk_geometry g;
	char why[256];
	unsigned int i;

	EXPECT_EQ(ublk_conf_geometry(4, full, &g, why, sizeof(why)), 0);
	EXPECT(g.size == 256ULL << 20 && g.slab_size == 16ULL << 20 && g.copies == 2);
	EXPECT_EQ(ublk_conf_geometry(1, dflt, &g, why, sizeof(why)), 0);
	EXPECT(g.size == 4ULL << 30 && g.slab_size == 1ULL << 30 && g.copies == 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		EXPECT_EQ(ublk_conf_geometry(2, bad[i], &g, why, sizeof(why)), -1);
		EXPECT(why[0] != 0);
	}
}

/*
 * What a broker places: slabs x copies, or coding groups (K slabs of the
 * device each) x K+R splits; redundancy= read into the geometry.
 */
static void test_broker_units(void)
{
	char *const ec[] = { "size=100M", "slab_size=1M", "redundancy=ec:4+2" };
	char *const badec[] = { "size=100M", "redundancy=ec:3+5" };
	struct ublk_geometry g;
	unsigned int w;
	uint32_t u;
	char why[256];

	EXPECT_EQ(ublk_conf_geometry(3, ec, &g, why, sizeof(why)), 0);
	EXPECT(g.ec_k == 4 && g.ec_r == 2 && g.copies == 1);
	EXPECT_EQ(ublk_conf_geometry(2, badec, &g, why, sizeof(why)), -1);
	EXPECT(strstr(why, "redundancy=ec:3+5") != NULL);
	/* 100 slabs of 1 MiB: 25 groups of 4 data + 2 parity slabs */
	EXPECT_EQ(ublk_broker_units(100 << 20, 1 << 20, 1, 4, 2, &u, &w, why, sizeof(why)), 0);
	EXPECT(u == 25 && w == 6);
	/* a partial group counts whole */
	EXPECT_EQ(ublk_broker_units((100 << 20) + 1, 1 << 20, 1, 4, 2, &u, &w, why,
				    sizeof(why)), 0);
	EXPECT(u == 26 && w == 6);
	EXPECT_EQ(ublk_broker_units(3 << 20, 1 << 20, 1, 8, 1, &u, &w, why, sizeof(why)), 0);
	EXPECT(u == 1 && w == 9);
	/* whole-page copies: slabs x replicas */
	EXPECT_EQ(ublk_broker_units(100 << 20, 1 << 20, 2, 0, 0, &u, &w, why, sizeof(why)), 0);
	EXPECT(u == 100 && w == 2);
	EXPECT_EQ(ublk_broker_units(0, 1 << 20, 1, 4, 2, &u, &w, why, sizeof(why)), -1);
	EXPECT_EQ(ublk_broker_units(1 << 20, UINT64_MAX / 2, 1, 4, 2, &u, &w, why, sizeof(why)),
		  -1);
}

/* ---- renewing a broker-placed device's grants ---- */

static struct spare_grant mk_grant(const char *addr, uint32_t slabs, uint64_t expiry)
{
	struct spare_grant_info gi;
	struct spare_grant g;

	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	snprintf(gi.client_id, sizeof(gi.client_id), "trainer");
	snprintf(gi.donor_id, sizeof(gi.donor_id), "donor");
	snprintf(gi.donor_addr, sizeof(gi.donor_addr), "%s", addr);
	gi.slabs = slabs;
	gi.key_id = 1;
	gi.expiry = expiry;
	gi.not_before = expiry > 900 ? expiry - 900 : 0;	/* a 900 s lease */
	memset(&g, 0, sizeof(g));
	EXPECT_EQ(spare_grant_encode(&gi, &g), 0);
	return g;
}

struct asked {
	char		addr[4][64];
	uint32_t	slabs[4];
	unsigned int	n;
	bool		refuse;
};

static int fake_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	struct asked *a = ctx;

	if (a->refuse || a->n == 4)
		return -1;
	snprintf(a->addr[a->n], sizeof(a->addr[0]), "%s", addr);
	a->slabs[a->n++] = slabs;
	*g = mk_grant(addr, slabs, (uint64_t)time(NULL) + 900);
	return 0;
}

/* The grants in @path (decoded), or -1. */
static int read_grants(const char *path, struct spare_grant_info *gi, unsigned int max)
{
	char line[600];
	unsigned int n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct spare_grant g;

		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		/* the callers memcmp whole entries: no stale padding (the
		 * struct ends in a uint16_t version) */
		if (n < max)
			memset(&gi[n], 0, sizeof(gi[n]));
		if (n == max || spare_grant_from_hex(line, &g) || spare_grant_decode(&g, &gi[n]))
			break;
		n++;
	}
	fclose(f);
	return (int)n;
}

/* A fresh grants file DIR/ublk-u0.grants (@dir a mkdtemp template), or NULL. */
static FILE *grants_file_new(char *dir, char *path, size_t len)
{
	FILE *f;

	EXPECT(sodium_init() >= 0 && mkdtemp(dir) != NULL);
	snprintf(path, len, "%s/ublk-u0.grants", dir);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	return f;
}

/* One grant line: @slabs on @addr, ending at @expiry (a 900 s lease). */
static void grant_line(FILE *f, const char *addr, uint32_t slabs, uint64_t expiry)
{
	char hex[SPARE_GRANT_HEX_LEN + 1];
	struct spare_grant g = mk_grant(addr, slabs, expiry);

	spare_grant_to_hex(&g, hex, sizeof(hex));
	fprintf(f, "%s\n", hex);
}

/* The placement of 2 slabs x 2 copies on A and B, one slab each, to @now + 600. */
static void placement_2x2(FILE *f, uint64_t now)
{
	for (int i = 0; i < 4; i++)
		grant_line(f, i % 2 ? "10.0.0.3:18515" : "10.0.0.2:18515", 1, now + 600);
}

/* What fake_reissue() was sent, and how it answers. */
struct reissued {
	uint8_t		id[16][SPARE_GRANT_ID_LEN];
	unsigned int	n, calls;
	bool		refuse;
	uint32_t	mark;	/* the grants sent (bit: order sent) to mark */
};

/* A broker's RENEW_GRANT: each grant back with a new 900 s lease, the
 * ones @mark names marked to move. */
static int fake_reissue(void *ctx, const struct spare_grant *old, unsigned int n,
			struct spare_grant *out, bool *move)
{
	struct reissued *r = ctx;

	r->calls++;
	if (r->refuse)
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		struct spare_grant_info gi;

		if (r->n == 16 || spare_grant_decode(&old[i], &gi))
			return -1;
		move[i] = r->mark & (1U << r->n);
		memcpy(r->id[r->n++], gi.id, SPARE_GRANT_ID_LEN);
		gi.not_before = (uint64_t)time(NULL);
		gi.expiry = gi.not_before + 900;
		if (spare_grant_encode(&gi, &out[i]))
			return -1;
	}
	return 0;
}

/* The extra room of a reissuing renewal, asked of fake_ask() through @r. */
struct both {
	struct asked	a;
	struct reissued	r;
};

static int both_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	return fake_ask(&((struct both *)ctx)->a, addr, slabs, g);
}

static int both_reissue(void *ctx, const struct spare_grant *old, unsigned int n,
			struct spare_grant *out, bool *move)
{
	return fake_reissue(&((struct both *)ctx)->r, old, n, out, move);
}

/*
 * With a re-issuer (RENEW_GRANT), a renewal sends back the grants the
 * device holds on each donor and rewrites each in place (the same id, a
 * later expiry): nothing is minted. A grant that ended more than a lease
 * ago is not sent (the broker would refuse it); only the room its
 * renewed grants leave short (that one, standby slabs) is asked for.
 */
static void test_renew_reissue(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128];
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	uint64_t now = (uint64_t)time(NULL);
	struct spare_grant_info gi[16], was[16];
	struct both b;
	uint32_t renewed = 99;
	int i, n0;
	FILE *f;

	memset(&b, 0, sizeof(b));
	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	/* A B A B, one slab each; B's second ended 2,000 s ago (lease 900) */
	for (i = 0; i < 4; i++)
		grant_line(f, i % 2 ? "10.0.0.3:18515" : "10.0.0.2:18515", 1,
			   i == 3 ? now - 2000 : now + 600);
	fclose(f);
	n0 = read_grants(path, was, 16);
	EXPECT_EQ(n0, 4);
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, NULL, 0, 0, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(renewed, 4);
	EXPECT_EQ(b.r.n, 3);		/* A's two and B's live one, sent back */
	EXPECT(b.r.n == 3 && !memcmp(b.r.id[0], was[0].id, SPARE_GRANT_ID_LEN) &&
	       !memcmp(b.r.id[1], was[2].id, SPARE_GRANT_ID_LEN) &&
	       !memcmp(b.r.id[2], was[1].id, SPARE_GRANT_ID_LEN));
	EXPECT_EQ(b.a.n, 1);		/* B's room short by the one not sent */
	EXPECT(b.a.n == 1 && !strcmp(b.a.addr[0], "10.0.0.3:18515") && b.a.slabs[0] == 1);
	EXPECT_EQ(read_grants(path, gi, 16), 5);	/* renewed in place, one added */
	for (i = 0; i < 4; i++)
		EXPECT(!memcmp(gi[i].id, was[i].id, SPARE_GRANT_ID_LEN) &&
		       !strcmp(gi[i].donor_addr, was[i].donor_addr) && gi[i].slabs == 1);
	EXPECT(gi[0].expiry >= now + 900 && gi[1].expiry >= now + 900 &&
	       gi[2].expiry >= now + 900 && gi[3].expiry == now - 2000);
	/* again with a standby slab: everything live is sent back (the added
	 * grant too), and each donor asked for one more */
	memset(&b, 0, sizeof(b));
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, NULL, 0, 1, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(b.r.n, 4);
	EXPECT(b.a.n == 2 && b.a.slabs[0] == 1 && b.a.slabs[1] == 1);
	EXPECT_EQ(read_grants(path, gi, 16), 7);
	/* a broker that refuses: the file is left as it was */
	b.r.refuse = true;
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, NULL, 0, 0, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(read_grants(path, was, 16), 7);
	EXPECT(!memcmp(was, gi, sizeof(gi[0]) * 7));
	unlink(path);
	rmdir(dir);
}

/* The whole of file @path (at most @len - 1 bytes) into @buf; "" if none. */
static const char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

/*
 * Move marks (protocol 3): a grant the broker marks is kept in NAME.marks;
 * the copies on its donor beyond the unmarked grants go to NAME.giveback
 * for the pager, with the copies those grants cover (it may keep 1 of 2). While the pager keeps them (the slab map still shows
 * them), the marked grant is renewed; once they are gone it is not sent
 * back any more, and the pager is asked nothing.
 */
static void test_renew_marks(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128], mpath[160], gpath[160];
	char text[512], hex[2 * SPARE_GRANT_ID_LEN + 1];
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	uint64_t now = (uint64_t)time(NULL);
	struct dev_slab_copy live[4];
	struct spare_grant_info was[8];
	struct both b;
	uint32_t renewed;
	FILE *f;
	int i;

	memset(&b, 0, sizeof(b));
	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	placement_2x2(f, now);	/* A B A B */
	fclose(f);
	EXPECT_EQ(read_grants(path, was, 8), 4);
	snprintf(mpath, sizeof(mpath), "%s/ublk-u0.marks", dir);
	snprintf(gpath, sizeof(gpath), "%s/ublk-u0.giveback", dir);
	/* every copy where the placement put it */
	memset(live, 0, sizeof(live));
	for (i = 0; i < 4; i++) {
		live[i].slab = (unsigned int)i / 2;
		live[i].slot = (unsigned int)i % 2;
		snprintf(live[i].address, sizeof(live[i].address), "%s",
			 i % 2 ? "10.0.0.3:18515" : "10.0.0.2:18515");
	}
	/* the broker marks A's first grant (sent first: A's are sent first) */
	b.r.mark = 1U << 0;
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, live, 4, 0, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(b.r.n, 4);
	EXPECT(!memcmp(b.r.id[0], was[0].id, SPARE_GRANT_ID_LEN));
	for (i = 0; i < SPARE_GRANT_ID_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", was[0].id[i]);
	slurp(mpath, text, sizeof(text));
	EXPECT(!strncmp(text, hex, 2 * SPARE_GRANT_ID_LEN) && text[32] == '\n' && !text[33]);
	EXPECT(!strcmp(slurp(gpath, text, sizeof(text)), "10.0.0.2:18515 1 1\n"));

	/* the pager kept the copy: the marked grant is still sent back */
	memset(&b, 0, sizeof(b));
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, live, 4, 0, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(b.r.n, 4);
	EXPECT(!strcmp(slurp(gpath, text, sizeof(text)), "10.0.0.2:18515 1 1\n"));

	/* it gave back slab 0's copy on A: A's marked grant is not renewed */
	memset(&b, 0, sizeof(b));
	live[0] = live[3];
	EXPECT_EQ(ublk_device_renew_grants(&p, "u0", (long)getpid(), 4, live + 1, 3, 0, both_ask,
					   both_reissue, &b, &renewed), 1);
	EXPECT_EQ(b.r.n, 3);
	for (i = 0; i < (int)b.r.n; i++)
		EXPECT(memcmp(b.r.id[i], was[0].id, SPARE_GRANT_ID_LEN));
	EXPECT_EQ(b.a.n, 0);		/* no room asked: the others cover it */
	EXPECT(!strcmp(slurp(gpath, text, sizeof(text)), ""));
	EXPECT(!strncmp(slurp(mpath, text, sizeof(text)), hex, 2 * SPARE_GRANT_ID_LEN));
	unlink(mpath);
	unlink(gpath);
	unlink(path);
	rmdir(dir);
}

/* What kmod_grants_renew() wrote to the "device". */
struct put_seen {
	struct spare_grant_info	gi[8];
	unsigned int		n;
};

static int fake_put(void *pctx, const struct spare_grant *g, const char *addr)
{
	struct put_seen *s = pctx;

	if (s->n == 8 || spare_grant_decode(g, &s->gi[s->n]) ||
	    strcmp(s->gi[s->n].donor_addr, addr))
		return -1;
	s->n++;
	return 0;
}

/*
 * spare.ko's kept grants: one that lapsed less than a lease ago is kept
 * and sent back (RENEW_GRANT), so a full donor (every ROOM_REQ refused)
 * still renews it; one that lapsed more than a lease ago is dropped and
 * its room asked for. Another donor's lapsed grant stays in the file.
 */
static void test_kmod_renew_lapsed(void)
{
	char dir[] = "/tmp/sparectl-kmod-XXXXXX", path[160], hex[SPARE_GRANT_HEX_LEN + 1];
	uint64_t now = (uint64_t)time(NULL);
	struct spare_grant_info gi[8], was[8];
	struct spare_grant g[3], newest, nb;
	struct put_seen seen;
	struct both b;
	uint32_t gb = 99;
	FILE *f;
	int i;

	EXPECT(sodium_init() >= 0 && mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/k0.grants", dir);
	/* A: lapsed 30 s ago, and 2,000 s ago (a 900 s lease); B: lapsed 30 s ago */
	g[0] = mk_grant("10.0.0.2:18515", 1, now - 30);
	g[1] = mk_grant("10.0.0.2:18515", 1, now - 2000);
	g[2] = mk_grant("10.0.0.3:18515", 1, now - 30);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (!f)
		return;
	for (i = 0; i < 3; i++) {
		spare_grant_to_hex(&g[i], hex, sizeof(hex));
		fprintf(f, "%s\n", hex);
	}
	fclose(f);
	EXPECT_EQ(read_grants(path, was, 8), 3);

	/* a full donor: no room; the recent one is renewed by id all the same */
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	b.a.refuse = true;
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 1, 1, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 0);
	EXPECT_EQ(gb, 0);
	EXPECT_EQ(b.r.n, 1);
	EXPECT(b.r.n == 1 && !memcmp(b.r.id[0], was[0].id, SPARE_GRANT_ID_LEN));
	EXPECT_EQ(b.a.n, 0);
	EXPECT_EQ(seen.n, 1);
	EXPECT(seen.n == 1 && !memcmp(seen.gi[0].id, was[0].id, SPARE_GRANT_ID_LEN) &&
	       seen.gi[0].expiry >= now + 900);
	memset(&nb, 0, sizeof(nb));
	EXPECT(memcmp(&newest, &nb, sizeof(nb)));
	/* the file: A's renewed in place, A's old one dropped, B's kept */
	EXPECT_EQ(read_grants(path, gi, 8), 2);
	EXPECT(!memcmp(gi[0].id, was[0].id, SPARE_GRANT_ID_LEN) && gi[0].expiry >= now + 900);
	EXPECT(!memcmp(gi[1].id, was[2].id, SPARE_GRANT_ID_LEN) && gi[1].expiry == now - 30);

	/* two slabs on the full donor: the renewed one covers one, the room
	 * for the other is refused (1); the long-lapsed grant was not sent */
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	b.a.refuse = true;
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 2, 2, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 1);
	EXPECT(b.r.n == 1 && !memcmp(b.r.id[0], was[0].id, SPARE_GRANT_ID_LEN));
	for (i = 0; i < (int)b.r.n; i++)
		EXPECT(memcmp(b.r.id[i], was[1].id, SPARE_GRANT_ID_LEN));
	kmod_grants_forget(dir, "k0");
	EXPECT(rmdir(dir) == 0);	/* the grants and the marks file gone */
}

/* The kept grants file DIR/k0.grants of spare.ko's device k0: @n grants of
 * one slab, A's first then B's, each to @expiry. */
static void kmod_grants_file(const char *dir, unsigned int na, unsigned int nb,
			     uint64_t expiry)
{
	char path[160], hex[SPARE_GRANT_HEX_LEN + 1];
	FILE *f;

	snprintf(path, sizeof(path), "%s/k0.grants", dir);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (!f)
		return;
	for (unsigned int i = 0; i < na + nb; i++) {
		struct spare_grant g = mk_grant(i < na ? "10.0.0.2:18515" : "10.0.0.3:18515", 1,
						expiry);

		spare_grant_to_hex(&g, hex, sizeof(hex));
		fprintf(f, "%s\n", hex);
	}
	fclose(f);
}

/*
 * Device k0's grants on A renewed for @copies copies (no standby), the
 * broker marking @mark (bits of the grants sent back) and refusing room
 * if @refuse: kmod_grants_renew()'s answer, @b what was asked.
 */
static int renew_a(const char *dir, uint32_t copies, uint32_t mark, bool refuse, struct both *b,
		   uint32_t *gb)
{
	struct spare_grant newest;
	struct put_seen seen;

	memset(b, 0, sizeof(*b));
	memset(&seen, 0, sizeof(seen));
	b->r.mark = mark;
	b->a.refuse = refuse;
	return kmod_grants_renew(dir, "k0", "10.0.0.2:18515", copies, copies, both_ask,
				 both_reissue, b, fake_put, &seen, &newest, gb);
}

/*
 * Move marks for spare.ko (protocol 3): its renewal asks for them; a
 * grant the broker marks is kept in DIR/NAME.marks, and the copies on its
 * donor beyond the unmarked grants are the module's to give back
 * (*giveback, written to configfs "giveback"). While the module keeps the
 * copy, the marked grant is renewed and asked back again; once the copy
 * is gone it is not sent back any more, and nothing is asked. B's grants
 * are not touched by A's renewal.
 */
static void test_kmod_renew_marks(void)
{
	char dir[] = "/tmp/sparectl-kmod-XXXXXX", path[160], mpath[160], text[512];
	char hex[2 * SPARE_GRANT_ID_LEN + 1];
	uint64_t now = (uint64_t)time(NULL);
	struct spare_grant_info was[8], gi[8];
	struct spare_grant newest;
	struct put_seen seen;
	struct both b;
	uint32_t gb = 99;
	int i;

	EXPECT(sodium_init() >= 0 && mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/k0.grants", dir);
	snprintf(mpath, sizeof(mpath), "%s/k0.marks", dir);
	kmod_grants_file(dir, 2, 2, now + 600);	/* A A B B */
	EXPECT_EQ(read_grants(path, was, 8), 4);

	/* A holds 2 copies; the broker marks the first grant sent back */
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	b.r.mark = 1U << 0;
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 2, 2, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 0);
	EXPECT_EQ(b.r.n, 2);
	EXPECT(!memcmp(b.r.id[0], was[0].id, SPARE_GRANT_ID_LEN));
	EXPECT_EQ(b.a.n, 0);
	EXPECT_EQ(gb, 1);		/* one copy beyond the unmarked grant */
	EXPECT_EQ(seen.n, 2);		/* both renewed, written to the module */
	for (i = 0; i < SPARE_GRANT_ID_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", was[0].id[i]);
	slurp(mpath, text, sizeof(text));
	EXPECT(!strncmp(text, hex, 2 * SPARE_GRANT_ID_LEN) && text[32] == '\n' && !text[33]);

	/* the module kept the copy: the marked grant is renewed, asked again */
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 2, 2, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 0);
	EXPECT_EQ(b.r.n, 2);
	EXPECT_EQ(gb, 1);

	/* it gave the copy back: 1 copy, the marked grant not sent back */
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 1, 1, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 0);
	EXPECT_EQ(b.r.n, 1);
	EXPECT(b.r.n == 1 && !memcmp(b.r.id[0], was[1].id, SPARE_GRANT_ID_LEN));
	EXPECT_EQ(b.a.n, 0);
	EXPECT_EQ(gb, 0);
	for (i = 0; i < (int)seen.n; i++)	/* renewed in the same second: maybe none */
		EXPECT(memcmp(seen.gi[i].id, was[0].id, SPARE_GRANT_ID_LEN));
	EXPECT(!strncmp(slurp(mpath, text, sizeof(text)), hex, 2 * SPARE_GRANT_ID_LEN));
	/* B's grants as they were */
	EXPECT_EQ(read_grants(path, gi, 8), 4);
	EXPECT(!memcmp(&gi[2], &was[2], sizeof(gi[2])) && !memcmp(&gi[3], &was[3], sizeof(gi[3])));

	/* a broker that gives no marks: nothing is asked back */
	kmod_grants_forget(dir, "k0");
	kmod_grants_file(dir, 1, 0, now + 600);
	memset(&b, 0, sizeof(b));
	memset(&seen, 0, sizeof(seen));
	EXPECT_EQ(kmod_grants_renew(dir, "k0", "10.0.0.2:18515", 1, 1, both_ask, both_reissue, &b,
				    fake_put, &seen, &newest, &gb), 0);
	EXPECT_EQ(gb, 0);
	EXPECT(!strcmp(slurp(mpath, text, sizeof(text)), ""));

	/*
	 * Copies moved in (an EVICT elsewhere): 3 on A, its one grant covers
	 * 1, no mark. The room for 2 is asked for and nothing is asked back,
	 * whether the broker grants that room or not: only a mark asks a
	 * copy back (broker/move@kmod gave such copies back as if marked).
	 */
	EXPECT_EQ(renew_a(dir, 3, 0, false, &b, &gb), 0);
	EXPECT(b.a.n == 1 && b.a.slabs[0] == 2);
	EXPECT_EQ(gb, 0);
	kmod_grants_forget(dir, "k0");
	kmod_grants_file(dir, 1, 0, now + 600);
	EXPECT_EQ(renew_a(dir, 3, 0, true, &b, &gb), 1);
	EXPECT_EQ(gb, 0);
	EXPECT(!strcmp(slurp(mpath, text, sizeof(text)), ""));

	/*
	 * A marked grant on A beside copies moved in: the room granted for
	 * the copies beyond what was renewed counts as cover, so only the
	 * copy the mark asks for goes back. A A A B, the first marked; 4
	 * copies on A: 3 renewed (the marked one too, while needed), room
	 * for 1 granted; 4 - (2 unmarked + 1 granted) = 1.
	 */
	kmod_grants_forget(dir, "k0");
	kmod_grants_file(dir, 3, 1, now + 600);
	EXPECT_EQ(renew_a(dir, 4, 1U << 0, false, &b, &gb), 0);
	EXPECT_EQ(b.r.n, 3);
	EXPECT(b.a.n == 1 && b.a.slabs[0] == 1);
	EXPECT_EQ(gb, 1);
	kmod_grants_forget(dir, "k0");
	EXPECT(rmdir(dir) == 0);
}

static void test_renew(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128], before[8192] = "", after[8192] = "";
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	uint64_t now = (uint64_t)time(NULL);
	struct spare_grant_info gi[16];
	struct asked a = { .n = 0 };
	uint32_t renewed = 99;
	uint64_t due = 0;
	struct stat st;
	FILE *f;
	int i;

	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	fprintf(f, "# placement: 2 slabs x 2 copies\n");
	/* placement A B A B, then a renewal of A that lapsed more than a
	 * lease ago (900 s) and a good one of B */
	for (i = 0; i < 6; i++)
		grant_line(f, i % 2 ? "10.0.0.3:18515" : "10.0.0.2:18515", i < 4 ? 1 : 2,
			   i == 4 ? now - 1000 : now + 600);
	fclose(f);
	/* what a donor lends against is all its unexpired grants together:
	 * A's two (one slab each, 900 s leases ending at now + 600) cover its
	 * 2 copies, so a renewal is due a third of a lease before they end;
	 * with a standby slab they cover too few: due now */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 1, 0, now, &due), 0);
	EXPECT(due == now);
	/* a pid that is not spare-ublk: the file is renewed, nobody is signalled */
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, NULL, 0, 0, fake_ask, &a, &renewed), 1);
	EXPECT_EQ(a.n, 2);
	EXPECT(!strcmp(a.addr[0], "10.0.0.2:18515") && a.slabs[0] == 2);
	EXPECT(!strcmp(a.addr[1], "10.0.0.3:18515") && a.slabs[1] == 2);
	EXPECT_EQ(renewed, 4);
	EXPECT_EQ(read_grants(path, gi, 16), 7);	/* 4 placed + 1 still good + 2 new */
	EXPECT(gi[4].expiry == now + 600 && gi[4].slabs == 2);
	EXPECT(gi[5].slabs == 2 && gi[6].slabs == 2 && gi[6].expiry > now + 600);
	EXPECT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	/* the new grants (2 slabs, ending at now + 900) cover the copies
	 * alone: due a third of the lease before they end, or @before
	 * seconds; a standby slab also needs a placement grant (now + 600);
	 * 50 standby slabs are more than every grant together */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 0, 0, now, &due), 0);
	EXPECT(due >= now + 600 && due <= now + 602);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 0, 100, now, &due), 0);
	EXPECT(due >= now + 800 && due <= now + 802);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 1, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 50, 0, now, &due), 0);
	EXPECT(due == now);
	EXPECT_EQ(ublk_grants_due(&p, "none", 4, NULL, 0, 0, 0, now, &due), -1);

	/* a refusing broker, or a device with more copies than grants: the
	 * file is left as it was */
	f = fopen(path, "r");
	if (f) {
		before[fread(before, 1, sizeof(before) - 1, f)] = 0;
		fclose(f);
	}
	a.refuse = true;
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, NULL, 0, 0, fake_ask, &a, &renewed), 1);
	a.refuse = false;
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 12, NULL, 0, 0, fake_ask, &a, &renewed), 1);
	f = fopen(path, "r");
	if (f) {
		after[fread(after, 1, sizeof(after) - 1, f)] = 0;
		fclose(f);
	}
	EXPECT(before[0] && !strcmp(before, after));
	/* the monitor's renewal: each donor's copies and one standby slab */
	a.n = 0;
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, NULL, 0, 1, fake_ask, &a, &renewed), 1);
	EXPECT(a.n == 2 && a.slabs[0] == 3 && a.slabs[1] == 3 && renewed == 4);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 1, 0, now, &due), 0);
	EXPECT(due >= now + 600 && due <= now + 602);
	EXPECT_EQ(ublk_device_renew(&p, "none", (long)getpid(), 4, NULL, 0, 0, fake_ask, &a, &renewed), 1);

	unlink(path);
	rmdir(dir);
}

/* ---- the counters file ---- */

#define GOOD_FILE							\
	"spare-ublk 1\nname u0\npid %ld\ndisk ublkb3\nsize 134217728\n"	\
	"slab_size 16777216\nreplicas 1\ndonors 10.0.0.2:18515,10.0.0.3:18515\n" \
	"source 10.0.0.1\nbackup /dev/ram0\nbackup_mode async\n"	\
	"io_stat 2 2772 500 2650 895 0 0 0 0 167895040 196067328 0 0 7 0\n" \
	"slab_stat 1 8 24 1 4 0 0 0 4 16384\n"				\
	"donor_stat 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0\n"		\
	"donor_stat 2 1 10.0.0.3:18515 error 1 1 0 0 0 0 0\n"

static void test_parse_file(void)
{
	char text[1024], why[256];
	struct dev_info d;

	snprintf(text, sizeof(text), GOOD_FILE, 42L);
	memset(&d, 0, sizeof(d));
	EXPECT_EQ(dev_parse_ublk(text, &d, why, sizeof(why)), 0);
	EXPECT(d.ublk && d.has_stats && d.pid == 42 && !strcmp(d.disk, "ublkb3"));
	EXPECT_EQ(d.size, 134217728);
	EXPECT_EQ(d.slab_size, 16777216);
	EXPECT_EQ(d.replicas, 1);
	EXPECT(!strcmp(d.backup, "/dev/ram0") && !strcmp(d.backup_mode, "async"));
	EXPECT_EQ(d.io[2], 2650);	/* backup_reads */
	EXPECT_EQ(d.io[12], 7);		/* backup_waits */
	EXPECT_EQ(d.slab[7], 4);	/* failed */
	EXPECT_EQ(d.ndonors, 2);
	EXPECT(!strcmp(d.donor[1].state, "error") && d.donor[1].losses == 1);

	memset(&d, 0, sizeof(d));
	EXPECT_EQ(dev_parse_ublk("name u0\nio_stat 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
				 "slab_stat 1 8 24 1 8 0 0 0 0 0\n", &d, why, sizeof(why)), -1);
	EXPECT(strstr(why, "not a spare-ublk counters file") != NULL);
	EXPECT_EQ(dev_parse_ublk("spare-ublk 1\nio_stat 2 1 2\n"
				 "slab_stat 1 8 24 1 8 0 0 0 0 0\n", &d, why, sizeof(why)), -1);
	EXPECT(strstr(why, "io_stat") != NULL);
	EXPECT_EQ(dev_parse_ublk("spare-ublk 1\nslab_stat 1 8 24 1 8 0 0 0 0 0\n", &d, why,
				 sizeof(why)), -1);
	EXPECT(strstr(why, "no io_stat") != NULL);
	snprintf(text, sizeof(text), GOOD_FILE "donor_stat 2 x\n", 42L);
	EXPECT_EQ(dev_parse_ublk(text, &d, why, sizeof(why)), -1);
	EXPECT(strstr(why, "donor_stat") != NULL);
}

static void test_list(void)
{
	char root[64], cfs[128], run[160], text[1024], why[256], cmd[200], **names;
	struct dev_roots r;
	struct dev_info d;
	unsigned int n;

	snprintf(root, sizeof(root), "/tmp/spare-sparectl-ublk-%d", (int)getpid());
	snprintf(cfs, sizeof(cfs), "%s/cfs", root);
	snprintf(run, sizeof(run), "%s/run", root);
	mkdir(root, 0755);
	mkdir(run, 0755);
	r = (struct dev_roots){ cfs, "/nonexistent", run };

	/* no spare.ko (no configfs): the pager's devices only */
	snprintf(text, sizeof(text), GOOD_FILE, (long)getpid());
	tap_put_file(run, "u0", text);
	snprintf(text, sizeof(text), GOOD_FILE, 999999999L);	/* no such process */
	tap_put_file(run, "dead", text);
	tap_put_file(run, "u0.tmp", "half");
	tap_put_file(run, "u0.log", "log");
	names = dev_names(&r, &n);
	EXPECT(names != NULL);
	EXPECT_EQ(n, 2);
	if (names && n == 2)
		EXPECT(!strcmp(names[0], "dead") && !strcmp(names[1], "u0"));
	dev_names_free(names, n);
	EXPECT_EQ(dev_read(&r, "u0", &d, why, sizeof(why)), 0);
	EXPECT(d.ublk && d.power && !strcmp(d.name, "u0") && !strcmp(d.disk, "ublkb3"));
	EXPECT_EQ(dev_read(&r, "dead", &d, why, sizeof(why)), 0);
	EXPECT(d.ublk && !d.power && !d.disk[0]);
	EXPECT_EQ(dev_read(&r, "u0.tmp", &d, why, sizeof(why)), -1);
	EXPECT_EQ(dev_read(&r, "nope", &d, why, sizeof(why)), -1);
	EXPECT(strstr(why, "no device 'nope'") != NULL);

	/* with configfs: both kinds, sorted, a configfs name not listed twice */
	mkdir(cfs, 0755);
	snprintf(cmd, sizeof(cmd), "%s/u0", cfs);
	mkdir(cmd, 0755);
	snprintf(cmd, sizeof(cmd), "%s/m0", cfs);
	mkdir(cmd, 0755);
	names = dev_names(&r, &n);
	EXPECT_EQ(n, 3);
	if (names && n == 3)
		EXPECT(!strcmp(names[0], "dead") && !strcmp(names[1], "m0") &&
		       !strcmp(names[2], "u0"));
	dev_names_free(names, n);

	/* neither directory: ENOENT, as before */
	r = (struct dev_roots){ "/nonexistent/a", "/nonexistent", "/nonexistent/b" };
	errno = 0;
	names = dev_names(&r, &n);
	EXPECT(names == NULL && errno == ENOENT);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", root);
}

/*
 * Copies move: given the pager's slab map, each donor's count is the copies
 * it holds now, not the placement's. Placement A B A B (one slab each, a
 * 900 s lease ending at now + 600); slab 1's copy left A for B: A holds 1,
 * B 3. B's grants (2 slabs) cover its placed copies and nothing more, so
 * with the map a renewal is due now, and it asks A for 1 + standby, B for
 * 3 + standby.
 */
static void test_renew_moves(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128];
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	static const struct dev_slab_copy moved[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 0, 1, 1, "10.0.0.3:18515", "mapped", 0 },
		{ 1, 0, 1, "10.0.0.3:18515", "mapping", 0 },
		{ 1, 1, 1, "10.0.0.3:18515", "mapped", 0 },
	};
	/* a move waiting for a grant (the pager's move_wait_grant()): its new
	 * copy unmapped on the donor that refused it, beside the evicting one */
	static const struct dev_slab_copy waiting[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 0, 1, 1, "10.0.0.3:18515", "mapped", 0 },
		{ 1, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 1, 1, 1, "10.0.0.3:18515", "mapped", 0 },
		{ 1, 2, 0, "10.0.0.2:18515", "unmapped", 0 },
	};
	static const struct dev_slab_copy stranger[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 0, 1, 2, "10.0.0.9:18515", "failed", 0 },
	};
	uint64_t now = (uint64_t)time(NULL), due = 0;
	struct asked a = { .n = 0 };
	uint32_t renewed = 99;
	FILE *f;

	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	placement_2x2(f, now);
	fclose(f);
	/* by the placement: 2 copies each, covered until now + 600 */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, NULL, 0, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	/* the same map as the placement: the same due time */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, moved, 2, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, moved, 4, 0, 0, now, &due), 0);
	EXPECT(due == now);
	/* the waiting copy counts on its target: due at once */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, waiting, 4, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, waiting, 5, 0, 0, now, &due), 0);
	EXPECT(due == now);
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, moved, 4, 1, fake_ask, &a,
				    &renewed), 1);
	EXPECT(a.n == 2 && !strcmp(a.addr[0], "10.0.0.2:18515") && a.slabs[0] == 2 &&
	       !strcmp(a.addr[1], "10.0.0.3:18515") && a.slabs[1] == 4);
	EXPECT_EQ(renewed, 4);
	/* B's new grant (4 slabs to now + 900) covers its 3 and a standby */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, moved, 4, 1, 0, now, &due), 0);
	EXPECT(due >= now + 600 && due <= now + 602);
	/* a copy on a donor no kept grant names (one a move added, whose
	 * renewal ran out) is renewed there, at once; a donor left with no
	 * copy and no standby is asked for nothing */
	a.n = 0;
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, stranger, 2, 0, fake_ask, &a,
				    &renewed), 1);
	EXPECT(a.n == 2 && !strcmp(a.addr[0], "10.0.0.2:18515") && a.slabs[0] == 1 &&
	       !strcmp(a.addr[1], "10.0.0.9:18515") && a.slabs[1] == 1 && renewed == 2);
	unlink(path);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (!f)
		return;
	placement_2x2(f, now);
	fclose(f);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, stranger, 2, 0, 0, now, &due), 0);
	EXPECT(due == now);
	unlink(path);
	rmdir(dir);
}

/*
 * An ec device's split re-homed onto a donor whose grants are used up
 * (session 50): the pager lists it on that donor, "unmapped", as soon as
 * it picks it (test_ublk_ec rehome_lists_picked_split), and the monitor,
 * which counts each donor's splits from that map, is due at once and asks
 * the broker (ROOM_REQ) for room for both on it. Placement A B A B (one
 * slab each, to now + 600), a grant of 1 slab on C (10.0.0.8) that took
 * split 1 when B died; split 3 picked C too. With the map before session
 * 50 (split 3 "failed" on B, where it was lost) nothing is due before the
 * usual third of the lease, and C is never asked for more.
 */
static void test_renew_rehome(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128];
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	static const struct dev_slab_copy listed[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 1, 0, 2, "10.0.0.8:18515", "mapped", 0 },
		{ 2, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 3, 0, 2, "10.0.0.8:18515", "unmapped", 0 },
	};
	static const struct dev_slab_copy failed_on_b[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 1, 0, 2, "10.0.0.8:18515", "mapped", 0 },
		{ 2, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 3, 0, 1, "10.0.0.3:18515", "failed", 0 },
	};
	uint64_t now = (uint64_t)time(NULL), due = 0;
	struct asked a = { .n = 0 };
	uint32_t renewed = 99;
	unsigned int i;
	FILE *f;

	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	placement_2x2(f, now);
	grant_line(f, "10.0.0.8:18515", 1, now + 600);
	fclose(f);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, failed_on_b, 4, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, listed, 4, 0, 0, now, &due), 0);
	EXPECT(due == now);
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, listed, 4, 0, fake_ask, &a,
				    &renewed), 1);
	for (i = 0; i < a.n && strcmp(a.addr[i], "10.0.0.8:18515"); i++)
		;
	EXPECT(i < a.n && a.slabs[i] == 2);
	for (i = 0; i < a.n; i++)
		EXPECT(strcmp(a.addr[i], "10.0.0.3:18515"));	/* B holds nothing now */
	unlink(path);
	rmdir(dir);
}

/*
 * The copies that stay beside a slab waiting for a donor (NAME.moving),
 * whose failure domains the monitor's MOVE_REQ avoids: the slab's other
 * copies; for an ec:4+2 device (6 split slabs a group), the other split
 * slabs of its coding group (session 50: before, the same slab only, so
 * a split's group was not avoided).
 */
static void test_move_stays(void)
{
	EXPECT(ublk_move_stays(0, 3, 3));
	EXPECT(!ublk_move_stays(0, 2, 3));
	EXPECT(ublk_move_stays(6, 0, 5) && ublk_move_stays(6, 5, 0));
	EXPECT(!ublk_move_stays(6, 5, 5));
	EXPECT(!ublk_move_stays(6, 6, 5) && ublk_move_stays(6, 6, 11));
}

/* A donor a move added: named by its grant, renewed, its grant appended. */
static void test_added_donor(void)
{
	char dir[] = "/tmp/sparectl-ublk-XXXXXX", path[128];
	const struct ublk_paths p = { .conf_dir = dir, .bin = "spare-ublk" };
	static const struct dev_slab_copy live[] = {
		{ 0, 0, 0, "10.0.0.2:18515", "mapped", 0 },
		{ 0, 1, 1, "10.0.0.3:18515", "mapped", 0 },
		{ 1, 0, 2, "10.0.0.4:18515", "mapped", 0 },
		{ 1, 1, 1, "10.0.0.3:18515", "mapped", 0 },
		{ 2, 0, 3, "10.0.0.5:18515", "mapping", 0 },
	};
	char addr[8][SPARE_GRANT_ADDR_LEN];
	uint64_t now = (uint64_t)time(NULL), due = 0;
	struct spare_grant_info gi[16];
	struct asked a = { .n = 0 };
	struct spare_grant g;
	uint32_t renewed;
	unsigned int nd = 0;
	FILE *f;

	f = grants_file_new(dir, path, sizeof(path));
	if (!f)
		return;
	placement_2x2(f, now);
	grant_line(f, "10.0.0.4:18515", 2, now + 600);	/* a move's donor */
	grant_line(f, "10.0.0.6:18515", 2, now - 1000);	/* lapsed a lease ago: gone */
	fclose(f);
	EXPECT_EQ(ublk_device_donors(&p, "u0", 4, NULL, 0, addr, 8, &nd), 0);
	EXPECT(nd == 3 && !strcmp(addr[0], "10.0.0.2:18515") &&
	       !strcmp(addr[1], "10.0.0.3:18515") && !strcmp(addr[2], "10.0.0.4:18515"));
	/* the slab map names one more: a donor whose grant ran out */
	EXPECT_EQ(ublk_device_donors(&p, "u0", 4, live, 5, addr, 8, &nd), 0);
	EXPECT(nd == 4 && !strcmp(addr[3], "10.0.0.5:18515"));
	EXPECT_EQ(ublk_device_donors(&p, "u0", 4, live, 5, addr, 2, &nd), 0);
	EXPECT_EQ(nd, 2);
	/* the added donor's grant covers its copy (due a third of its lease
	 * before it ends, as the others); the one with no grant is due now,
	 * and renewed with the others */
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, live, 4, 0, 0, now, &due), 0);
	EXPECT(due == now + 300);
	EXPECT_EQ(ublk_grants_due(&p, "u0", 4, live, 5, 0, 0, now, &due), 0);
	EXPECT(due == now);
	EXPECT_EQ(ublk_device_renew(&p, "u0", (long)getpid(), 4, live, 5, 0, fake_ask, &a,
				    &renewed), 1);
	EXPECT(a.n == 4 && !strcmp(a.addr[2], "10.0.0.4:18515") && a.slabs[2] == 1 &&
	       !strcmp(a.addr[3], "10.0.0.5:18515") && a.slabs[3] == 1 && renewed == 5);
	/* a move's grant appended: kept, the expired one dropped; a pid that
	 * is not spare-ublk is not signalled (1) */
	g = mk_grant("10.0.0.7:18515", 3, now + 900);
	EXPECT_EQ(ublk_device_add_grant(&p, "u0", (long)getpid(), 4, &g), 1);
	EXPECT_EQ(read_grants(path, gi, 16), 4 + 1 + 4 + 1);
	EXPECT(!strcmp(gi[9].donor_addr, "10.0.0.7:18515") && gi[9].slabs == 3);
	EXPECT_EQ(ublk_device_donors(&p, "u0", 4, NULL, 0, addr, 8, &nd), 0);
	EXPECT(nd == 5 && !strcmp(addr[4], "10.0.0.7:18515"));
	EXPECT_EQ(ublk_device_add_grant(&p, "none", (long)getpid(), 4, &g), 1);
	unlink(path);
	rmdir(dir);
}

/* The pager's NAME.moving: the moves waiting for a donor. */
static void test_moving(void)
{
	char root[64], run[128], why[256];
	struct dev_move_wait mv[4];
	struct dev_roots r;
	unsigned int n = 9;

	EXPECT_EQ(dev_parse_moving("1 3 0 10.0.0.2:18515\n1 5 1 10.0.0.3:18515\n", mv, 4, &n,
				   why, sizeof(why)), 0);
	EXPECT(n == 2 && mv[0].slab == 3 && mv[0].donor == 0 &&
	       !strcmp(mv[0].address, "10.0.0.2:18515") && mv[1].slab == 5 && mv[1].donor == 1);
	EXPECT_EQ(dev_parse_moving("1 3 0 a\n1 5 1 b\n", mv, 1, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(dev_parse_moving("1 3 x a\n", mv, 4, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, "moving: line not understood") != NULL);
	EXPECT_EQ(dev_parse_moving("0 3 0 a\n", mv, 4, &n, why, sizeof(why)), -1);
	EXPECT_EQ(dev_parse_moving("1 3 0 a b\n", mv, 4, &n, why, sizeof(why)), 0);

	snprintf(root, sizeof(root), "/tmp/spare-sparectl-moving-%d", (int)getpid());
	snprintf(run, sizeof(run), "%s/run", root);
	mkdir(root, 0755);
	mkdir(run, 0755);
	r = (struct dev_roots){ "/nonexistent", "/nonexistent", run };
	n = 9;
	EXPECT_EQ(dev_read_ublk_moving(&r, "u0", mv, 4, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 0);	/* no file: nothing waits */
	tap_put_file(run, "u0.moving", "1 7 1 10.0.0.3:18515\n");
	EXPECT_EQ(dev_read_ublk_moving(&r, "u0", mv, 4, &n, why, sizeof(why)), 0);
	EXPECT(n == 1 && mv[0].slab == 7);
	tap_put_file(run, "u0.moving", "garbage\n");
	EXPECT_EQ(dev_read_ublk_moving(&r, "u0", mv, 4, &n, why, sizeof(why)), -1);
	EXPECT_EQ(dev_read_ublk_moving(&r, "../u0", mv, 4, &n, why, sizeof(why)), -1);
	unlink(strcat(run, "/u0.moving"));
	rmdir(strcat(strcpy(run, root), "/run"));
	rmdir(root);
}

/*
 * spare.ko's /sys/block/DISK/spare/moving: the split slabs waiting for a
 * donor, in the lines of the core's spare_moving_line() (as NAME.moving),
 * read by the monitor every round.
 */
static void test_kmod_moving(void)
{
	char root[64], dir[160], text[256], why[256];
	struct dev_move_wait mv[4];
	struct dev_roots r;
	unsigned int n = 9;
	int len;

	snprintf(root, sizeof(root), "/tmp/spare-sparectl-kmoving-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s/spare0", root);
	mkdir(root, 0755);
	mkdir(dir, 0755);
	strcat(dir, "/spare");
	mkdir(dir, 0755);
	r = (struct dev_roots){ "/nonexistent", root, NULL };
	/* a module without the attribute: nothing read, no error */
	EXPECT_EQ(dev_read_moving(&r, "spare0", mv, 4, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 0);
	tap_put_file(dir, "moving", "");
	n = 9;
	EXPECT_EQ(dev_read_moving(&r, "spare0", mv, 4, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 0);	/* none waits */
	len = spare_moving_line(text, sizeof(text), 13, 0, "10.0.0.2:18515");
	spare_moving_line(text + len, sizeof(text) - len, 20, 5, "10.0.0.7:18515");
	tap_put_file(dir, "moving", text);
	EXPECT_EQ(dev_read_moving(&r, "spare0", mv, 4, &n, why, sizeof(why)), 0);
	EXPECT(n == 2 && mv[0].slab == 13 && mv[0].donor == 0 &&
	       !strcmp(mv[0].address, "10.0.0.2:18515") && mv[1].slab == 20 &&
	       mv[1].donor == 5 && !strcmp(mv[1].address, "10.0.0.7:18515"));
	tap_put_file(dir, "moving", "1 13 zero 10.0.0.2:18515\n");
	EXPECT_EQ(dev_read_moving(&r, "spare0", mv, 4, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, "moving: line not understood") != NULL);
	EXPECT_EQ(dev_read_moving(&r, "../spare0", mv, 4, &n, why, sizeof(why)), -1);
	EXPECT_EQ(dev_read_moving(&r, "", mv, 4, &n, why, sizeof(why)), -1);
	unlink(strcat(dir, "/moving"));
	rmdir(strcat(strcpy(dir, root), "/spare0/spare"));
	rmdir(strcat(strcpy(dir, root), "/spare0"));
	rmdir(root);
}

int main(void)
{
	TAP_RUN(test_conf_good);
	TAP_RUN(test_conf_integrity);
	TAP_RUN(test_conf_refused);
	TAP_RUN(test_conf_redundancy);
	TAP_RUN(test_conf_broker);
	TAP_RUN(test_geometry);
	TAP_RUN(test_broker_units);
	TAP_RUN(test_renew);
	TAP_RUN(test_renew_reissue);
	TAP_RUN(test_renew_rehome);
	TAP_RUN(test_renew_marks);
	TAP_RUN(test_kmod_renew_marks);
	TAP_RUN(test_kmod_renew_lapsed);
	TAP_RUN(test_renew_moves);
	TAP_RUN(test_added_donor);
	TAP_RUN(test_moving);
	TAP_RUN(test_kmod_moving);
	TAP_RUN(test_move_stays);
	TAP_RUN(test_parse_file);
	TAP_RUN(test_list);
	return tap_done();
}
