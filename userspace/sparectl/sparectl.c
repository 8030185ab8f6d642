// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl: spare's control CLI, by object, in the shape of iproute2 and
 * nvme-cli:
 *
 *   sparectl [-j] device list | show NAME | create NAME [KEY=VALUE...] | destroy NAME
 *       (create ... broker=HOST:PORT,... broker-name=N broker-key=F: brokerask.c, grantplan.c)
 *   sparectl device renew | monitor NAME broker=... (renew.c)
 *   sparectl [-j] donor [-p PORT | -S SOCKET] status | slabs | evict N | evict all | query
 *   sparectl metrics [-o FILE]
 *   sparectl [-j] broker donors broker=HOST:PORT broker-name=N broker-key=F (brokerls.c)
 *
 * A table by default, -j one JSON value (shapes in sparectl(8)). Exit
 * status: 0 ok, 1 failure (named on stderr), 2 usage.
 *
 * A new object is one row in `objects` below (the broker's commands, and
 * `gen-key` from genkey.c, plug in there).
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "brokerask.h"
#include "brokerls.h"
#include "cli.h"
#include "devstat.h"
#include "grantplan.h"
#include "renew.h"
#include "spare_grant_lib.h"
#include "spare_json.h"
#include "spare_keyfile.h"
#include "spare_log.h"
#include "spare_util.h"
#include "spare.h"
#include "spare_version.h"
#include "swap.h"
#include "ublkdev.h"


static void usage(FILE *f)
{
	fprintf(f,
"usage: sparectl [-j] OBJECT COMMAND [ARGS]\n"
"  sparectl [-j] device list\n"
"  sparectl [-j] device show NAME\n"
"  sparectl [-j] device create NAME [--backend=module|ublk] [size=SIZE] [slab_size=SIZE] [replicas=N]\n"
"                [redundancy=none|ec:K+R] [donors=ADDR[:PORT],... [placement=I,I,...]] [source=ADDR] [backup=PATH]\n"
"                [backup_mode=sync|async] [integrity=none|crc32c] [key-file=FILE]\n"
"                [broker=HOST:PORT[,HOST:PORT...] broker-name=NAME broker-key=FILE\n"
"                 [lease=SECONDS]]   slabs placed and granted by spare-broker\n"
"                --backend=ublk: served by the userspace pager spare-ublk (no placement=\n"
"                or integrity=crc32c), as unit spare-ublk@NAME under systemd\n"
"  sparectl [-j] device renew NAME broker=HOST:PORT[,...] broker-name=NAME broker-key=FILE\n"
"                [lease=SECONDS]   fresh grants for the slabs the device holds\n"
"  sparectl device monitor NAME broker=HOST:PORT[,...] broker-name=NAME broker-key=FILE\n"
"                [lease=SECONDS] [renew-before=SECONDS] [interval=SECONDS] [standby=N]\n"
"                [once]   renews the device's grants before they expire and when the\n"
"                module asks (uevents), N slabs spare on each donor, until SIGTERM\n"
"  sparectl [-j] device destroy NAME\n"
"  sparectl [-j] donor [-p PORT | -S SOCKET] status|slabs|evict N|evict all|query\n"
"  sparectl swap start NAME [--config FILE]   device NAME from /etc/spare/swap-NAME.conf,\n"
"                mkswap, swapon at its swap-priority= (spare-swap.conf(5))\n"
"  sparectl swap stop NAME    swapoff (waits for every page), then destroy\n"
"  sparectl metrics [-o FILE]\n"
"  sparectl [-j] broker donors broker=HOST:PORT broker-name=NAME broker-key=FILE\n"
"                what the broker knows of its donors (a role=admin key)\n"
"  sparectl gen-key [-o FILE [--force]]   a new host secret (file mode 0600)\n"
"  sparectl gen-key --check [FILE...]     check secrets or host-keys lines\n"
"  sparectl gen-key --grant [--key-id N] -o FILE   a broker's grant signing key;\n"
"                                         prints its public key line\n"
"  sparectl gen-key --grant-public [--key-id N] FILE   that line again\n"
"Options:\n"
"  -j, --json          print one JSON value (shapes in sparectl(8))\n"
"  -p, --port PORT     donor: the local spared on this port [%u]\n"
"  -S, --socket PATH   donor: the spared control socket\n"
"  -o, --output FILE   metrics: write FILE atomically (node_exporter textfile)\n"
"  -t, --timeout SECONDS  each broker's time-out to connect, and for every request\n"
"                      and answer (create, renew, monitor, broker donors) [5];\n"
"                      also SPARECTL_TIMEOUT (the option wins)\n"
"  -h, --help\n"
"      --version       print \"sparectl VERSION\"\n"
"Exit status: 0 ok, 1 failure, 2 usage.\n", (unsigned int)SPARE_DEFAULT_PORT);
}

/* ---- device ---- */

static int device_list(struct sparectl *c)
{
	struct dev_info *devs;
	unsigned int n, i, ok = 0;
	char why[256];
	char **names = dev_names(&c->roots, &n);
	int ret = 0;

	if (!names) {
		if (errno == ENOENT) {
			log_err("%s: no such directory (is spare.ko loaded and configfs mounted?)",
				c->roots.configfs);
			return 1;
		}
		log_err("%s: %s", c->roots.configfs, strerror(errno));
		return 1;
	}
	devs = calloc(n ? n : 1, sizeof(*devs));
	if (!devs) {
		dev_names_free(names, n);
		log_err("out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (dev_read(&c->roots, names[i], &devs[ok], why, sizeof(why))) {
			log_err("device %s: %s", names[i], why);
			ret = 1;
			continue;
		}
		ok++;
	}
	if (c->json) {
		struct json_object *o = json_object_new_object(), *a = json_object_new_array();

		for (i = 0; i < ok; i++)
			json_object_array_add(a, dev_json(&devs[i], false));
		json_object_object_add(o, "devices", a);
		if (print_json(o))
			ret = 1;
	} else {
		dev_print_table(stdout, devs, ok);
	}
	free(devs);
	dev_names_free(names, n);
	return ret;
}

static int device_show(struct sparectl *c, const char *name)
{
	struct dev_slab_copy *slabs = NULL;
	unsigned int nslabs = 0;
	bool have_map = false;
	struct dev_info d;
	char why[256];

	if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return 1;
	}
	if (d.has_stats) {
		/* A module older than slab_map (or a pager older than its
		 * NAME.map) has none: show the rest. */
		have_map = !(d.ublk ? dev_read_ublk_slab_map(&c->roots, name, &slabs, &nslabs,
							     why, sizeof(why)) :
			     dev_read_slab_map(&c->roots, d.disk, &slabs, &nslabs,
					       why, sizeof(why)));
		if (!have_map && errno != ENOENT) {
			log_err("device %s: %s", name, why);
			return 1;
		}
	}
	if (c->json) {
		struct json_object *o = dev_json(&d, true);

		if (have_map)
			json_object_object_add(o, "slabs",
					       dev_slab_map_json(slabs, nslabs));
		free(slabs);
		return print_json(o);
	}
	dev_print_show(stdout, &d);
	if (have_map)
		dev_print_slab_map(stdout, slabs, nslabs);
	free(slabs);
	return 0;
}

static const char *power_hint(int err)
{
	switch (err) {
	case EHOSTUNREACH:	return " (some slab has no reachable donor and there is no backup)";
	case EINVAL:		return " (a setting is missing or inconsistent; see dmesg)";
	case EBUSY:		return " (the block device is open: swapoff or close it first)";
	case EOPNOTSUPP:	return " (redundancy=ec:K+R: with backup or integrity, or on a kernel without raid6_pq and xor: the kernel log says which)";
	default:		return "";
	}
}

static bool known_attr(const char *key, size_t len)
{
	unsigned int i;

	for (i = 0; dev_attrs[i]; i++)
		if (strlen(dev_attrs[i]) == len && !strncmp(dev_attrs[i], key, len))
			return true;
	return false;
}

/*
 * Tests only (tests/broker/run): configfs makes a device's attribute files
 * on mkdir; a fake tree gets copies of the files in
 * $SPARECTL_CONFIGFS_TEMPLATE instead, and loses them again on undo.
 */
static int fake_populate(const char *tmpl, const char *dir)
{
	char buf[4096];
	struct dirent *e;
	DIR *d = opendir(tmpl);
	int to = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (!d || to < 0) {
		ret = -1;
		goto out;
	}
	while (!ret && (e = readdir(d))) {
		ssize_t n;
		int in, out;

		if (e->d_type != DT_REG)
			continue;
		in = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
		out = openat(to, e->d_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				ret = -1;
		if (in < 0 || out < 0)
			ret = -1;
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
	}
out:
	if (d)
		closedir(d);
	if (to >= 0)
		close(to);
	return ret;
}

static void fake_unpopulate(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_type == DT_REG)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/* A broker's grants for one device: what both backends are placed by. */
struct broker_grants {
	struct spare_grant	*grants;	/* slab-major: copy c of slab s at s * copies + c */
	struct spare_grant_info	*info;
	char			(*domains)[BROKER_DOMAIN_LEN];
	struct grantplan	*plan;
	size_t			n;
};

static void broker_grants_free(struct broker_grants *g)
{
	if (g->grants)
		sodium_memzero(g->grants, g->n * sizeof(*g->grants));
	free(g->grants);
	free(g->info);
	free(g->domains);
	free(g->plan);
	memset(g, 0, sizeof(*g));
}

/*
 * An erasure-coded device's grants: where its donors are in more than one
 * failure domain, each group's K+R splits in distinct domains (the
 * broker's rule; checked, not trusted). Donors all in one domain (spared's
 * "default" when none is named) have only distinct donors to give, which
 * grantplan_build() checks. 0, or -1 with @why.
 */
static int ec_domains_check(const struct grantplan *p, uint32_t groups, unsigned int w,
			    char *why, size_t whylen)
{
	uint8_t dom[GRANTPLAN_MAX_DONORS];
	unsigned int d;

	if (grantplan_parse_domains(p->domains, p->ndonors, dom, why, whylen))
		return -1;
	for (d = 1; d < p->ndonors && dom[d] == dom[0]; d++)
		;
	if (d == p->ndonors)
		return 0;	/* one domain */
	for (uint32_t g = 0; g < groups; g++)
		for (unsigned int j = 0; j < w; j++)
			for (unsigned int i = 0; i < j; i++)
				if (dom[p->where[g * w + i]] == dom[p->where[g * w + j]]) {
					snprintf(why, whylen, "group %u: splits %u and %u in one "
						 "failure domain", g, i, j);
					return -1;
				}
	return 0;
}

/*
 * Grants for @slabs slabs x @copies copies of device @name from the brokers
 * in @b, or (@ec_k not 0) for @slabs coding groups of ec:@ec_k+@ec_r
 * (@copies = K + R splits each, by STRIPE_REQ), checked to place as a plan
 * (donors, placement, domains): split j of group g is grant g * (K + R) +
 * j. 0, or -1 (logged; @g freed).
 */
static int broker_grants_get(const struct sparectl *c, const char *name,
			     const struct create_broker *b, const uint8_t *key,
			     uint32_t slabs, unsigned int copies, unsigned int ec_k,
			     unsigned int ec_r, struct broker_grants *g)
{
	struct brokerask a = { .brokers = b->brokers, .name = b->name, .key = key,
			       .timeout_ms = c->broker_timeout_ms };
	uint64_t lease = 0;
	char why[512];
	size_t i;

	memset(g, 0, sizeof(*g));
	if (b->lease)
		spare_parse_u64(b->lease, 1, UINT32_MAX, &lease);	/* checked by the caller */
	a.lease_s = (uint32_t)lease;
	if (ec_k && copies > GRANTPLAN_MAX_DONORS) {
		log_err("device %s: redundancy=ec:%u+%u needs %u donors, one per split; a device "
			"has at most %u", name, ec_k, ec_r, copies, GRANTPLAN_MAX_DONORS);
		return -1;
	}
	if (!slabs || grantplan_check(slabs, copies, why, sizeof(why))) {
		log_err("device %s: %u slabs x %u copies: %s", name, slabs, copies,
			slabs ? why : "no slabs");
		return -1;
	}
	g->n = (size_t)slabs * copies;
	g->grants = calloc(g->n, sizeof(*g->grants));
	g->info = calloc(g->n, sizeof(*g->info));
	g->domains = calloc(g->n, sizeof(*g->domains));
	g->plan = malloc(sizeof(*g->plan));
	if (!g->grants || !g->info || !g->domains || !g->plan) {
		log_err("out of memory");
		goto fail;
	}
	if (ec_k ? brokerask_stripes(&a, slabs, ec_k, ec_r, g->grants, g->domains) :
		   brokerask_grants(&a, slabs, copies, g->grants, g->domains)) {
		log_err("device %s: no broker of broker=%s granted its %s (the warnings above "
			"say why)", name, b->brokers, ec_k ? "coding groups" : "slabs");
		goto fail;
	}
	for (i = 0; i < g->n; i++)
		if (spare_grant_decode(&g->grants[i], &g->info[i])) {	/* checked by brokerask */
			log_err("device %s: grant %zu is malformed", name, i);
			goto fail;
		}
	if (grantplan_build(g->info, g->n, slabs, copies, GRANTPLAN_MAX_DONORS, g->plan,
			    why, sizeof(why))) {
		log_err("device %s: the brokers' grants cannot be placed: %s", name, why);
		goto fail;
	}
	if (grantplan_domains(g->info, g->domains, g->n, g->plan, why, sizeof(why))) {
		log_err("device %s: the donors' failure domains: %s", name, why);
		goto fail;
	}
	if (ec_k && ec_domains_check(g->plan, slabs, copies, why, sizeof(why))) {
		log_err("device %s: the brokers' stripes cannot be placed: %s", name, why);
		goto fail;
	}
	return 0;
fail:
	broker_grants_free(g);
	return -1;
}

/*
 * Device @name's redundancy from configfs into @k, @r (0, 0: none; also
 * for a module without the attribute). 0, or -1 with @why.
 */
static int dev_redundancy(const struct sparectl *c, const char *name, unsigned int *k,
			  unsigned int *r, char *why, size_t whylen)
{
	char text[32];

	*k = *r = 0;
	if (dev_attr_text(&c->roots, name, "redundancy", text, sizeof(text), why, whylen))
		return errno == ENOENT ? 0 : -1;
	return ublk_parse_redundancy(text, k, r, why, whylen);
}

/*
 * Grants for every slab of device @name from the brokers in @b, then its
 * donors, placement, domains and grants attributes. 0, or -1 (logged).
 */
static int place_by_broker(const struct sparectl *c, const char *name,
			   const struct create_broker *b, const uint8_t *key)
{
	struct broker_grants g;
	struct grantplan *plan;
	uint64_t size, slab_size, replicas;
	char why[512], hex[SPARE_GRANT_HEX_LEN + 2];
	unsigned int k, r, w;
	uint32_t slabs;
	size_t i;
	int ret = -1;

	/* what the kernel took: the values given, or its defaults */
	if (dev_attr_u64(&c->roots, name, "size", &size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "slab_size", &slab_size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "replicas", &replicas, why, sizeof(why)) ||
	    dev_redundancy(c, name, &k, &r, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	if (replicas > UINT32_MAX ||
	    ublk_broker_units(size, slab_size, (unsigned int)replicas, k, r, &slabs, &w, why,
			      sizeof(why))) {
		log_err("device %s: %s", name, replicas > UINT32_MAX ? "replicas" : why);
		return -1;
	}
	if (broker_grants_get(c, name, b, key, slabs, w, k, r, &g))
		return -1;
	plan = g.plan;
	if (write_attr(c, name, "donors", plan->donors)) {
		log_err("device %s: donors=%s refused: %s (the kernel log says why)", name,
			plan->donors, strerror(errno));
		goto out;
	}
	if (write_attr(c, name, "placement", plan->placement)) {
		log_err("device %s: placement=%s refused: %s (the kernel log says why)", name,
			plan->placement, strerror(errno));
		goto out;
	}
	/* a module without `domains` places moved copies without them */
	if (write_attr(c, name, "domains", plan->domains)) {
		if (errno != ENOENT) {
			log_err("device %s: domains=%s refused: %s (the kernel log says why)",
				name, plan->domains, strerror(errno));
			goto out;
		}
		log_warn("device %s: the module has no domains attribute: donors %s are in "
			 "failure domains %s, which it cannot use", name, plan->donors,
			 plan->domains);
	}
	for (i = 0; i < g.n; i++) {
		spare_grant_to_hex(&g.grants[i], hex, sizeof(hex));
		strcat(hex, "\n");
		if (append_attr(c, name, "grants", hex)) {
			/* the grant's id would do, but a grant is a credential: not its text */
			log_err("device %s: grant %zu (%s %zu %s %zu) refused: %s "
				"(the kernel log says why)", name, i, k ? "group" : "slab",
				i / w, k ? "split" : "copy", i % w, strerror(errno));
			goto out;
		}
	}
	if (k)
		log_info("device %s: %u coding groups of ec:%u+%u granted on %u donors "
			 "(domains %s)", name, slabs, k, r, plan->ndonors, plan->domains);
	else
		log_info("device %s: %u slabs x %u copies granted on %u donors (domains %s)",
			 name, slabs, w, plan->ndonors, plan->domains);
	/* kept for renewal (RENEW_GRANT): the module cannot show them back */
	if (kmod_grants_save(c->ublk.grants_dir, name, g.grants, g.n))
		log_warn("device %s: its grants are not kept: its first renewal asks for "
			 "fresh ones", name);
	ret = 0;
out:
	sodium_memzero(hex, sizeof(hex));
	broker_grants_free(&g);
	return ret;
}

/*
 * key-file=PATH: the device's "SPARE-1:" host key, from a file (a secret
 * on the command line would show in ps), into configfs "key". The kernel
 * checks it; nothing here prints it.
 */
static int write_key_file(struct sparectl *c, const char *name, const char *path)
{
	char buf[128] = "", why[320];
	int ret;

	if (spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why)) < 0) {
		log_err("device %s: key-file=%s", name, why);
		return -1;
	}
	buf[strcspn(buf, "\r\n")] = 0;
	ret = write_attr(c, name, "key", buf);
	if (ret)
		log_err("device %s: key-file=%s refused: %s (not a SPARE-1: key? the kernel log says why)",
			name, path, strerror(errno));
	sodium_memzero(buf, sizeof(buf));
	return ret;
}

/*
 * The broker settings of `device create`, checked; @key gets the broker
 * key when broker= is given. 0, or an exit status (said why).
 */
static int create_broker_check(const struct create_broker *b, bool placed, uint8_t *key)
{
	char why[256];
	uint64_t lease;

	if (b->brokers) {
		const char *err = brokerask_check_list(b->brokers);

		if (placed)
			return usage_error("%s", "broker= places the slabs: not with donors=, "
					   "placement= or domains=");
		if (err)
			return usage_error("broker=%s", err);
		if (!b->name || !*b->name || !b->key_file || !*b->key_file)
			return usage_error("%s", "broker= needs broker-name=NAME and "
					   "broker-key=FILE");
		if (strlen(b->name) >= BROKER_NAME_LEN)
			return usage_error("broker-name=%s: too long", b->name);
		if (b->lease && spare_parse_u64(b->lease, 1, UINT32_MAX, &lease))
			return usage_error("lease=%s: not a number of seconds", b->lease);
		if (sodium_init() < 0) {
			log_err("libsodium failed to initialise");
			return 1;
		}
		if (broker_read_key_file(b->key_file, key, why, sizeof(why))) {
			log_err("broker-key=%s", why);
			return 1;
		}
	} else if (b->name || b->key_file || b->lease) {
		return usage_error("%s", "broker-name=, broker-key= and lease= go with broker=");
	}
	return 0;
}

static int device_create_ublk(struct sparectl *c, const char *name, int argc, char **argv)
{
	struct create_broker b = { 0 };
	struct broker_grants g = { 0 };
	uint8_t key[BROKER_KEY_LEN];
	struct ublk_geometry geo;
	struct dev_info d;
	char disk[32], why[256], doms[16 + sizeof(g.plan->domains)];
	unsigned int width;
	bool placed = false;
	int i, n = 0, ret;
	uint32_t units;

	/* sparectl's own broker settings out; key-file= is spare-ublk's too */
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "key-file=", 9) && broker_arg(argv[i], &b))
			continue;
		placed |= !strncmp(argv[i], "donors=", 7) || !strncmp(argv[i], "domains=", 8);
		argv[n++] = argv[i];
	}
	argc = n;
	if ((ret = create_broker_check(&b, placed, key)))
		return ret;
	if (b.brokers) {
		if (ublk_conf_geometry(argc, argv, &geo, why, sizeof(why))) {
			sodium_memzero(key, sizeof(key));
			log_err("device %s: %s (sparectl --help)", name, why);
			return 2;
		}
		if (ublk_broker_units(geo.size, geo.slab_size, geo.copies, geo.ec_k, geo.ec_r,
				      &units, &width, why, sizeof(why))) {
			sodium_memzero(key, sizeof(key));
			log_err("device %s: %s", name, why);
			return 2;
		}
		ret = broker_grants_get(c, name, &b, key, units, width, geo.ec_k, geo.ec_r, &g);
		sodium_memzero(key, sizeof(key));
		if (ret)
			return 1;
		/*
		 * spare-ublk places by the grants (and their plan) itself; it
		 * numbers the donors as this plan does (the same grants, in
		 * the same order), so the plan's failure domains are its
		 */
		if (geo.ec_k)
			log_info("device %s: %u coding groups of ec:%u+%u granted on %u donors %s "
				 "(domains %s)", name, units, geo.ec_k, geo.ec_r, g.plan->ndonors,
				 g.plan->donors, g.plan->domains);
		else
			log_info("device %s: %u slabs x %u copies granted on %u donors %s "
				 "(domains %s)", name, units, width, g.plan->ndonors,
				 g.plan->donors, g.plan->domains);
		snprintf(doms, sizeof(doms), "domains=%s", g.plan->domains);
		argv[argc++] = doms;	/* argv has room: broker= was taken out */
	}
	ret = ublk_device_create(&c->roots, &c->ublk, name, argc, argv, g.grants, g.n, disk,
				 sizeof(disk));
	broker_grants_free(&g);
	if (ret)
		return ret;
	if (c->json) {
		if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
			log_err("device %s: created, but %s", name, why);
			return 1;
		}
		return print_json(dev_json(&d, false));
	}
	printf("%s\n", disk);
	return 0;
}

int device_create(struct sparectl *c, const char *name, int argc, char **argv)
{
	const char *tmpl = getenv("SPARECTL_CONFIGFS_TEMPLATE");
	struct create_broker b = { 0 };
	uint8_t key[BROKER_KEY_LEN];
	char path[512], why[256];
	bool placed = false;
	struct dev_info d;
	int i;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return usage_error("'%s' is not a device name", name);
	/* --backend=ublk|module, anywhere among the settings */
	for (i = 0; i < argc; i++) {
		const char *be;

		if (strncmp(argv[i], "--backend=", 10))
			continue;
		be = argv[i] + 10;
		if (strcmp(be, "ublk") && strcmp(be, "module"))
			return usage_error("--backend=%s: module or ublk", be);
		memmove(&argv[i], &argv[i + 1], (size_t)(argc - i - 1) * sizeof(*argv));
		argc--;
		if (!strcmp(be, "ublk"))
			return device_create_ublk(c, name, argc, argv);
		i--;
	}
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (broker_arg(argv[i], &b))
			continue;
		if (!eq || !known_attr(argv[i], (size_t)(eq - argv[i])))
			return usage_error("'%s': expected KEY=VALUE with KEY one of size, "
					   "slab_size, replicas, redundancy, donors, placement, domains, "
					   "source, backup, backup_mode, integrity, key-file, broker, "
					   "broker-name, broker-key, lease",
					   argv[i]);
		if (!strncmp(argv[i], "redundancy=", 11) &&
		    redundancy_problem(argv[i] + 11, argc, argv, why, sizeof(why)))
			return usage_error("%s", why);
		if (!strncmp(argv[i], "donors=", 7) || !strncmp(argv[i], "placement=", 10) ||
		    !strncmp(argv[i], "domains=", 8))
			placed = true;
	}
	if ((i = create_broker_check(&b, placed, key)))
		return i;
	snprintf(path, sizeof(path), "%s/%s", c->roots.configfs, name);
	if (mkdir(path, 0755)) {
		log_err("device %s: cannot create %s: %s%s", name, path, strerror(errno),
			errno == EEXIST ? " (destroy it first)" :
			errno == ENOENT ? " (is spare.ko loaded and configfs mounted?)" : "");
		goto fail;
	}
	if (tmpl && fake_populate(tmpl, path)) {
		log_err("device %s: fake configfs template %s: %s", name, tmpl, strerror(errno));
		goto undo;
	}
	for (i = 0; i < argc; i++) {
		struct create_broker sparectls_own;
		const char *eq = strchr(argv[i], '=');
		char attr[32];

		if (broker_arg(argv[i], &sparectls_own))	/* not for configfs */
			continue;
		snprintf(attr, sizeof(attr), "%.*s", (int)(eq - argv[i]), argv[i]);
		if (write_attr(c, name, attr, eq + 1)) {
			log_err("device %s: %s=%s refused: %s (the kernel log says why)",
				name, attr, eq + 1, strerror(errno));
			goto undo;
		}
	}
	if (b.dev_key_file && write_key_file(c, name, b.dev_key_file))
		goto undo;
	if (b.brokers && place_by_broker(c, name, &b, key))
		goto undo;
	sodium_memzero(key, sizeof(key));
	if (write_attr(c, name, "power", "1")) {
		int err = errno;

		log_err("device %s: power on failed: %s%s", name, strerror(err),
			power_hint(err));
		goto undo;
	}
	if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
		log_err("device %s: created, but %s", name, why);
		return 1;
	}
	if (c->json)
		return print_json(dev_json(&d, false));
	printf("%s\n", d.disk);
	return 0;
undo:
	/* Leave nothing half made behind: the grants kept for renewal too. */
	if (b.brokers)
		kmod_grants_forget(c->ublk.grants_dir, name);
	if (tmpl)
		fake_unpopulate(path);
	if (rmdir(path))
		log_warn("device %s: could not remove %s: %s", name, path, strerror(errno));
fail:
	sodium_memzero(key, sizeof(key));
	return 1;
}

int device_destroy(struct sparectl *c, const char *name)
{
	struct dev_info d;
	char path[512], why[256];

	if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return 1;
	}
	if (d.ublk) {
		if (ublk_device_destroy(&c->roots, &c->ublk, name, d.disk, d.pid, d.power))
			return 1;
		return c->json ? print_json(json_object_new_object()) : 0;
	}
	if (d.power && write_attr(c, name, "power", "0")) {
		int err = errno;

		log_err("device %s: power off failed: %s%s", name, strerror(err),
			power_hint(err));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", c->roots.configfs, name);
	if (rmdir(path)) {
		log_err("device %s: rmdir %s: %s%s", name, path, strerror(errno),
			power_hint(errno));
		return 1;
	}
	kmod_grants_forget(c->ublk.grants_dir, name);
	if (c->json)
		return print_json(json_object_new_object());
	return 0;
}

static int cmd_device(struct sparectl *c, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub)
		return usage_error("device: missing command%s", " (list, show, create, renew, monitor, destroy)");
	if (!strcmp(sub, "list") && argc == 2)
		return device_list(c);
	if (!strcmp(sub, "show") && argc == 3)
		return device_show(c, argv[2]);
	if (!strcmp(sub, "create") && argc >= 3)
		return device_create(c, argv[2], argc - 3, argv + 3);
	if (!strcmp(sub, "destroy") && argc == 3)
		return device_destroy(c, argv[2]);
	if (!strcmp(sub, "renew") && argc >= 3)
		return device_renew(c, argv[2], argc - 3, argv + 3);
	if (!strcmp(sub, "monitor") && argc >= 3)
		return device_monitor(c, argv[2], argc - 3, argv + 3);
	if (strcmp(sub, "list") && strcmp(sub, "show") && strcmp(sub, "create") &&
	    strcmp(sub, "destroy") && strcmp(sub, "renew") && strcmp(sub, "monitor"))
		return usage_error("device: unknown command '%s'", sub);
	return usage_error("device %s: wrong number of arguments", sub);
}

/* ---- metrics ---- */

static int cmd_metrics(struct sparectl *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ 0 }
	};
	const char *out = NULL;
	struct dev_info *devs = NULL;
	char **names, why[256], tmp[4096];
	unsigned int n = 0, i, ok = 0;
	FILE *f = stdout;
	int opt, ret = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+o:", longopts, NULL)) != -1) {
		if (opt != 'o')
			return usage_error("metrics: %s", "bad option");
		out = optarg;
	}
	if (optind != argc)
		return usage_error("metrics: unexpected argument '%s'", argv[optind]);
	names = dev_names(&c->roots, &n);
	if (!names && errno != ENOENT) {
		log_err("%s: %s", c->roots.configfs, strerror(errno));
		return 1;
	}
	/* No spare.ko loaded: an empty page with the families, not an error. */
	if (n) {
		devs = calloc(n, sizeof(*devs));
		if (!devs) {
			dev_names_free(names, n);
			log_err("out of memory");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		if (dev_read(&c->roots, names[i], &devs[ok], why, sizeof(why))) {
			log_err("device %s: %s", names[i], why);
			ret = 1;
			continue;
		}
		ok++;
	}
	dev_names_free(names, n);
	if (out) {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid());
		f = fopen(tmp, "we");
		if (!f) {
			log_err("%s: %s", tmp, strerror(errno));
			free(devs);
			return 1;
		}
	}
	if (dev_print_metrics(f, devs, ok)) {
		log_err("metrics: %s", strerror(errno));
		ret = 1;
	}
	free(devs);
	if (out) {
		if (fclose(f) || ret) {
			if (!ret)
				log_err("%s: %s", tmp, strerror(errno));
			unlink(tmp);
			return 1;
		}
		/* The textfile collector must never read a half-written file. */
		if (rename(tmp, out)) {
			log_err("%s: %s", out, strerror(errno));
			unlink(tmp);
			return 1;
		}
	}
	return ret;
}

/* ---- donor (a local spared's control socket) ---- */

static struct json_object *slabs_json(char *reply, char *why, size_t whylen)
{
	struct json_object *o, *counters, *slabs;
	char *table = strstr(reply, "\nSLAB ");
	char *line, *save = NULL;

	if (!table) {
		snprintf(why, whylen, "no slab table in the reply");
		return NULL;
	}
	table[1] = '\0';
	counters = spare_json_from_counters(reply, why, whylen);
	if (!counters)
		return NULL;
	slabs = json_object_new_array();
	line = strtok_r(table + 2, "\n", &save);	/* the header */
	while ((line = strtok_r(NULL, "\n", &save))) {
		char state[16], client[96], id[16], acc[24];
		unsigned int index;
		struct json_object *s;

		if (sscanf(line, "%u %15s %95s %15s %23s", &index, state, client, id, acc) != 5) {
			snprintf(why, whylen, "slab line not understood: %s", line);
			json_object_put(counters);
			json_object_put(slabs);
			return NULL;
		}
		s = json_object_new_object();
		json_object_object_add(s, "slab", json_object_new_int((int)index));
		json_object_object_add(s, "state", json_object_new_string(state));
		json_object_object_add(s, "client", strcmp(client, "-") ?
				       json_object_new_string(client) : NULL);
		json_object_object_add(s, "client_id", strcmp(id, "-") ?
				       json_object_new_int64(strtoll(id, NULL, 10)) : NULL);
		json_object_object_add(s, "accesses", strcmp(acc, "-") ?
				       json_object_new_int64(strtoll(acc, NULL, 10)) : NULL);
		json_object_array_add(slabs, s);
	}
	o = json_object_new_object();
	json_object_object_add(o, "counters", counters);
	json_object_object_add(o, "slabs", slabs);
	return o;
}

static int donor_request(const char *path, const char *line, size_t len,
			 char **reply, size_t *reply_len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096];
	FILE *out;
	ssize_t n;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_err("%s: path too long for a unix socket", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		log_err("%s: %s (is spared running?)", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (write(fd, line, len) != (ssize_t)len) {
		log_err("%s: write: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	out = open_memstream(reply, reply_len);
	if (!out) {
		log_err("open_memstream: %s", strerror(errno));
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, out);
	if (n < 0)
		log_err("%s: read: %s", path, strerror(errno));
	close(fd);
	if (fclose(out) || n < 0) {
		free(*reply);
		*reply = NULL;
		return -1;
	}
	return 0;
}

static int cmd_donor(struct sparectl *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "socket", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ 0 }
	};
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)] = "";
	char line[256] = "", *reply = NULL, why[256];
	size_t len = 0, reply_len = 0;
	uint64_t port = SPARE_DEFAULT_PORT;
	const char *cmd;
	int opt, i, ret = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+p:S:j", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (spare_parse_u64(optarg, 1, 65535, &port))
				return usage_error("--port %s: not a port number (1-65535)", optarg);
			break;
		case 'S':
			if (strlen(optarg) >= sizeof(path))
				return usage_error("--socket %s: path too long", optarg);
			strcpy(path, optarg);
			break;
		case 'j':
			c->json = true;
			break;
		default:
			return usage_error("donor: %s", "bad option");
		}
	}
	if (optind >= argc)
		return usage_error("donor: missing command%s", " (status, slabs, evict N|all, query)");
	cmd = argv[optind];
	if (!strcmp(cmd, "evict") ? argc - optind != 2 :
	    (strcmp(cmd, "status") && strcmp(cmd, "slabs") && strcmp(cmd, "query")) ||
	    argc - optind != 1)
		return usage_error("donor: '%s' is not status, slabs, evict N|all or query", cmd);
	for (i = optind; i < argc; i++) {
		int w = snprintf(line + len, sizeof(line) - len, "%s%s", i > optind ? " " : "",
				 argv[i]);

		if (w < 0 || (size_t)w >= sizeof(line) - len - 1)
			return usage_error("donor: %s", "command too long");
		len += (size_t)w;
	}
	line[len++] = '\n';
	if (!path[0])
		snprintf(path, sizeof(path), "/run/spare/spared-%u.sock", (unsigned int)port);
	if (donor_request(path, line, len, &reply, &reply_len))
		return 1;
	if (reply_len >= 6 && !memcmp(reply, "error:", 6)) {
		fprintf(stderr, "sparectl: spared (%s): %s", path, reply + 6);
		ret = 1;
	} else if (c->json) {
		struct json_object *o = !strcmp(cmd, "slabs") ?
			slabs_json(reply, why, sizeof(why)) :
			spare_json_from_counters(reply, why, sizeof(why));

		if (!o) {
			log_err("%s: reply to '%s' not understood: %s", path, cmd, why);
			ret = 1;
		} else {
			ret = print_json(o);
		}
	} else {
		fwrite(reply, 1, reply_len, stdout);
	}
	free(reply);
	return ret;
}

/* ---- dispatch ---- */

int sparectl_gen_key(int argc, char **argv);	/* genkey.c */

static int cmd_gen_key(struct sparectl *c, int argc, char **argv)
{
	return sparectl_gen_key(argc, argv);
}

static const struct {
	const char	*name;
	int		(*run)(struct sparectl *c, int argc, char **argv);
} objects[] = {
	{ "device",	cmd_device },
	{ "donor",	cmd_donor },
	{ "metrics",	cmd_metrics },
	{ "gen-key",	cmd_gen_key },
	{ "swap",	cmd_swap },
	{ "broker",	cmd_broker },
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	struct sparectl c = {
		.broker_timeout_ms = BROKERASK_TIMEOUT_MS,
		.roots = { SPARE_CONFIGFS_ROOT, SPARE_SYSFS_BLOCK, SPARE_UBLK_RUN_DIR },
		.ublk = { SPARE_UBLK_CONF_DIR, "spare-ublk", SPARECTL_GRANTS_DIR },
	};
	const char *env, *why;
	unsigned int i;
	int opt;

	spare_log_init_cli("sparectl", SPARE_LOG_INFO);
	/* Fake trees for the tests; never needed on a real host. */
	if ((env = getenv("SPARECTL_CONFIGFS")))
		c.roots.configfs = env;
	if ((env = getenv("SPARECTL_SYSFS_BLOCK")))
		c.roots.sysfs_block = env;
	if ((env = getenv("SPARECTL_UBLK_RUN")))
		c.roots.ublk_run = env;
	if ((env = getenv("SPARECTL_UBLK_CONF_DIR")))
		c.ublk.conf_dir = env;
	if ((env = getenv("SPARECTL_GRANTS_DIR")))
		c.ublk.grants_dir = env;
	if ((env = getenv("SPARECTL_TIMEOUT")) &&
	    (why = brokerask_parse_timeout(env, &c.broker_timeout_ms)))
		return usage_error("SPARECTL_TIMEOUT: %s", why);
	while ((opt = getopt_long(argc, argv, "+jht:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			c.json = true;
			break;
		case 't':
			why = brokerask_parse_timeout(optarg, &c.broker_timeout_ms);
			if (why)
				return usage_error("--timeout: %s", why);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("sparectl %s\n", spare_version());
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(argv[optind], objects[i].name))
			return objects[i].run(&c, argc - optind, argv + optind);
	return usage_error("unknown object '%s' (device, donor, metrics, gen-key, swap)", argv[optind]);
}
