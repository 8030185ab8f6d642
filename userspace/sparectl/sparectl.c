// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl: spare's control CLI, by object, in the shape of iproute2 and
 * nvme-cli:
 *
 *   sparectl [-j] device list | show NAME | create NAME [KEY=VALUE...] | destroy NAME
 *       (create ... broker=HOST:PORT,... broker-name=N broker-key=F: brokerask.c, grantplan.c)
 *   sparectl [-j] donor [-p PORT | -S SOCKET] status | slabs | evict N | evict all | query
 *   sparectl metrics [-o FILE]
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
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "brokerask.h"
#include "devstat.h"
#include "grantplan.h"
#include "spare_grant_lib.h"
#include "spare_json.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "uevent.h"
#include "ublkdev.h"
#include "uapi/spare.h"

#define EXIT_USAGE 2

struct sparectl {
	bool		json;
	struct dev_roots roots;
	struct ublk_paths ublk;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: sparectl [-j] OBJECT COMMAND [ARGS]\n"
"  sparectl [-j] device list\n"
"  sparectl [-j] device show NAME\n"
"  sparectl [-j] device create NAME [--backend=module|ublk] [size=SIZE] [slab_size=SIZE] [replicas=N]\n"
"                [donors=ADDR[:PORT],... [placement=I,I,...]] [source=ADDR] [backup=PATH]\n"
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
"  sparectl metrics [-o FILE]\n"
"  sparectl gen-key [--check]     a new host secret; --check: validate stdin\n"
"Options:\n"
"  -j, --json          print one JSON value (shapes in sparectl(8))\n"
"  -p, --port PORT     donor: the local spared on this port [%u]\n"
"  -S, --socket PATH   donor: the spared control socket\n"
"  -o, --output FILE   metrics: write FILE atomically (node_exporter textfile)\n"
"  -h, --help\n"
"Exit status: 0 ok, 1 failure, 2 usage.\n", (unsigned int)SPARE_DEFAULT_PORT);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "sparectl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (sparectl --help)\n");
	return EXIT_USAGE;
}

static int print_json(struct json_object *o)
{
	if (!o) {
		log_err("out of memory");
		return 1;
	}
	return spare_json_print(stdout, o) ? 1 : 0;
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

/* One write of @value to attribute @a; @oflags adds to O_WRONLY. */
static int put_attr(const struct sparectl *c, const char *name, const char *a,
		    const char *value, int oflags)
{
	char path[512];
	size_t len = strlen(value);
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", c->roots.configfs, name, a);
	fd = open(path, O_WRONLY | O_CLOEXEC | oflags);
	if (fd < 0)
		return -1;
	if (write(fd, value, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

static int write_attr(const struct sparectl *c, const char *name, const char *a,
		      const char *value)
{
	return put_attr(c, name, a, value, 0);
}

static const char *power_hint(int err)
{
	switch (err) {
	case EHOSTUNREACH:	return " (some slab has no reachable donor and there is no backup)";
	case EINVAL:		return " (a setting is missing or inconsistent; see dmesg)";
	case EBUSY:		return " (the block device is open: swapoff or close it first)";
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

/* `device create` settings that are sparectl's own, not configfs's. */
struct create_broker {
	const char	*brokers, *name, *key_file, *lease;
	const char	*dev_key_file;	/* key-file=: the device's host key */
};

static bool broker_arg(const char *arg, struct create_broker *b)
{
	static const struct {
		const char	*key;
		size_t		off;
	} keys[] = {
		{ "broker=",		offsetof(struct create_broker, brokers) },
		{ "broker-name=",	offsetof(struct create_broker, name) },
		{ "broker-key=",	offsetof(struct create_broker, key_file) },
		{ "lease=",		offsetof(struct create_broker, lease) },
		{ "key-file=",		offsetof(struct create_broker, dev_key_file) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(arg, keys[i].key, strlen(keys[i].key))) {
			*(const char **)((char *)b + keys[i].off) = arg + strlen(keys[i].key);
			return true;
		}
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

/*
 * Append one line to attribute @a (configfs `grants` takes one per write).
 * O_APPEND: configfs ignores the offset; a fake tree's file grows.
 */
static int append_attr(const struct sparectl *c, const char *name, const char *a,
		       const char *value)
{
	return put_attr(c, name, a, value, O_APPEND);
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
 * Grants for @slabs slabs x @copies copies of device @name from the brokers
 * in @b, checked to place as a plan (donors, placement, domains). 0, or -1
 * (logged; @g freed).
 */
static int broker_grants_get(const char *name, const struct create_broker *b,
			     const uint8_t *key, uint32_t slabs, unsigned int copies,
			     struct broker_grants *g)
{
	struct brokerask a = { .brokers = b->brokers, .name = b->name, .key = key,
			       .timeout_ms = 5000 };
	uint64_t lease = 0;
	char why[512];
	size_t i;

	memset(g, 0, sizeof(*g));
	if (b->lease)
		spare_parse_u64(b->lease, 1, UINT32_MAX, &lease);	/* checked by the caller */
	a.lease_s = (uint32_t)lease;
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
	if (brokerask_grants(&a, slabs, copies, g->grants, g->domains))
		goto fail;
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
	return 0;
fail:
	broker_grants_free(g);
	return -1;
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
	uint32_t slabs;
	size_t i;
	int ret = -1;

	/* what the kernel took: the values given, or its defaults */
	if (dev_attr_u64(&c->roots, name, "size", &size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "slab_size", &slab_size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "replicas", &replicas, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	slabs = grantplan_nr_slabs(size, slab_size);
	if (replicas > UINT32_MAX ||
	    broker_grants_get(name, b, key, slabs, (unsigned int)replicas, &g))
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
			log_err("device %s: grant %zu (slab %zu copy %zu) refused: %s "
				"(the kernel log says why)", name, i, i / replicas, i % replicas,
				strerror(errno));
			goto out;
		}
	}
	log_info("device %s: %u slabs x %u copies granted on %u donors (domains %s)", name,
		 slabs, (unsigned int)replicas, plan->ndonors, plan->domains);
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
	char buf[128] = "";
	size_t n;
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		log_err("device %s: key-file=%s: %s", name, path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
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
	bool placed = false;
	int i, n = 0, ret;

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
		ret = broker_grants_get(name, &b, key, grantplan_nr_slabs(geo.size, geo.slab_size),
					geo.copies, &g);
		sodium_memzero(key, sizeof(key));
		if (ret)
			return 1;
		/*
		 * spare-ublk places by the grants (and their plan) itself; it
		 * numbers the donors as this plan does (the same grants, in
		 * the same order), so the plan's failure domains are its
		 */
		log_info("device %s: %u slabs x %u copies granted on %u donors %s (domains %s)",
			 name, grantplan_nr_slabs(geo.size, geo.slab_size), geo.copies,
			 g.plan->ndonors, g.plan->donors, g.plan->domains);
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

static int device_create(struct sparectl *c, const char *name, int argc, char **argv)
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
					   "slab_size, replicas, donors, placement, domains, source, backup, "
					   "backup_mode, integrity, key-file, broker, broker-name, "
					   "broker-key, lease",
					   argv[i]);
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
	/* Leave nothing half made behind. */
	if (tmpl)
		fake_unpopulate(path);
	if (rmdir(path))
		log_warn("device %s: could not remove %s: %s", name, path, strerror(errno));
fail:
	sodium_memzero(key, sizeof(key));
	return 1;
}

/* What renewing a device needs: its brokers, key and the per-donor counts. */
struct renew_ctx {
	struct create_broker b;
	struct brokerask a;
	uint8_t key[BROKER_KEY_LEN];
	char donors[GRANTPLAN_ATTR_MAX];
	char *addr[GRANTPLAN_MAX_DONORS];
	uint32_t count[GRANTPLAN_MAX_DONORS];
	unsigned int nd;
};

/*
 * The broker arguments of renew and monitor (@extra: monitor's own keys,
 * left for it in @rest). 0, or the exit status of a usage error or a bad
 * key file (logged).
 */
static int renew_args(struct renew_ctx *r, const char *cmd, int argc, char **argv,
		      bool (*extra)(const char *arg, void *ctx), void *ctx)
{
	uint64_t lease = 0;
	char why[512];
	int i;

	for (i = 0; i < argc; i++) {
		if (extra && extra(argv[i], ctx))
			continue;
		if (!broker_arg(argv[i], &r->b) || r->b.dev_key_file) {
			fprintf(stderr, "sparectl: %s: '%s': expected broker=, broker-name=, "
				"broker-key=%s or lease= (sparectl --help)\n", cmd, argv[i],
				extra ? ", renew-before=, interval=, standby=, once" : "");
			return EXIT_USAGE;
		}
	}
	if (!r->b.brokers || !r->b.name || !r->b.key_file) {
		fprintf(stderr, "sparectl: %s needs broker=, broker-name= and broker-key= "
			"(sparectl --help)\n", cmd);
		return EXIT_USAGE;
	}
	if (brokerask_check_list(r->b.brokers))
		return usage_error("broker=%s", brokerask_check_list(r->b.brokers));
	if (r->b.lease && spare_parse_u64(r->b.lease, 1, UINT32_MAX, &lease))
		return usage_error("lease=%s: not a number of seconds", r->b.lease);
	if (sodium_init() < 0 || broker_read_key_file(r->b.key_file, r->key, why, sizeof(why))) {
		log_err("broker-key=%s", why);
		return 1;
	}
	r->a.brokers = r->b.brokers;
	r->a.name = r->b.name;
	r->a.key = r->key;
	r->a.lease_s = (uint32_t)lease;
	r->a.timeout_ms = 5000;
	return 0;
}

/* The device's donors and the slab copies placed on each. 0, or -1 (logged). */
/*
 * A powered device's copies move when a donor evicts them: count each
 * donor's copies from slab_map, where they are now, rather than from the
 * placement written at create time. A device powered off, or a module
 * without slab_map, keeps the placement's counts.
 */
static int renew_live_counts(const struct sparectl *c, const char *name,
			     struct renew_ctx *r)
{
	struct dev_slab_copy *sc;
	char disk[64], why[512];
	unsigned int n, i;

	if (dev_attr_text(&c->roots, name, "disk", disk, sizeof(disk), why,
			  sizeof(why)) || !disk[0])
		return 0;
	if (dev_read_slab_map(&c->roots, disk, &sc, &n, why, sizeof(why))) {
		if (errno == ENOENT)
			return 0;
		log_err("device %s: %s", name, why);
		return -1;
	}
	memset(r->count, 0, sizeof(r->count));
	for (i = 0; i < n; i++) {
		if (sc[i].donor >= r->nd) {
			log_err("device %s: slab_map names donor %u of %u", name,
				sc[i].donor, r->nd);
			free(sc);
			return -1;
		}
		r->count[sc[i].donor]++;
	}
	free(sc);
	return 0;
}

static int renew_plan(const struct sparectl *c, const char *name, struct renew_ctx *r)
{
	char placement[GRANTPLAN_ATTR_MAX], why[512], *save = NULL, *t;
	uint64_t size, slab_size, replicas;

	r->nd = 0;
	if (dev_attr_u64(&c->roots, name, "size", &size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "slab_size", &slab_size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "replicas", &replicas, why, sizeof(why)) ||
	    dev_attr_text(&c->roots, name, "donors", r->donors, sizeof(r->donors), why,
			  sizeof(why)) ||
	    dev_attr_text(&c->roots, name, "placement", placement, sizeof(placement), why,
			  sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	for (t = strtok_r(r->donors, ",", &save); t && r->nd < GRANTPLAN_MAX_DONORS;
	     t = strtok_r(NULL, ",", &save))
		r->addr[r->nd++] = t;
	if (grantplan_counts(placement, grantplan_nr_slabs(size, slab_size),
			     replicas > UINT32_MAX ? 0 : (unsigned int)replicas, r->nd,
			     r->count, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	return renew_live_counts(c, name, r);
}

/* Append grant @g (for donor @addr) to the device's grants. 0, or -1 (logged). */
static int add_grant(const struct sparectl *c, const char *name, const struct spare_grant *g,
		     const char *addr)
{
	char hex[SPARE_GRANT_HEX_LEN + 2];
	int ret = 0;

	spare_grant_to_hex(g, hex, sizeof(hex));
	strcat(hex, "\n");
	if (append_attr(c, name, "grants", hex)) {
		log_err("device %s: the grant for %s was refused: %s "
			"(the kernel log says why)", name, addr, strerror(errno));
		ret = -1;
	}
	sodium_memzero(hex, sizeof(hex));
	return ret;
}

/*
 * One fresh grant for @slabs slabs on donor @i, appended to the device's
 * grants. 0 with the grant's lease in @g, or -1 (logged).
 */
static int renew_donor(const struct sparectl *c, const char *name, struct renew_ctx *r,
		       unsigned int i, uint32_t slabs, struct spare_grant *g,
		       char domain[BROKER_DOMAIN_LEN])
{
	if (brokerask_renew(&r->a, r->addr[i], slabs, g, domain))
		return -1;
	return add_grant(c, name, g, r->addr[i]);
}


static void renew_ctx_wipe(struct renew_ctx *r)
{
	sodium_memzero(r->key, sizeof(r->key));
}

/*
 * The pager's slab map of device @name (where each copy is now) into
 * *@live, *@nlive (free() it); none (NULL, 0) from a pager older than its
 * NAME.map, whose copies are counted from the placement. 0, or -1 (logged).
 */
static int ublk_live_map(const struct sparectl *c, const char *name,
			 struct dev_slab_copy **live, unsigned int *nlive)
{
	char why[512];

	if (!dev_read_ublk_slab_map(&c->roots, name, live, nlive, why, sizeof(why)))
		return 0;
	if (errno == ENOENT)
		return 0;
	log_err("device %s: %s", name, why);
	return -1;
}

/*
 * sparectl device renew NAME broker=... broker-name=... broker-key=...
 * [lease=S]: fresh grants for the slabs the device holds on each of its
 * donors, written to its grants while it runs (the kernel sends them to
 * the live donors at once). `device monitor` does it before they expire:
 * a copy mapped again after a reconnect or an eviction needs an unexpired
 * grant.
 */
/* ublk_device_renew()'s broker. */
static int renew_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	const struct renew_ctx *r = ctx;

	return brokerask_renew(&r->a, addr, slabs, g, NULL);
}

static int device_renew(struct sparectl *c, const char *name, int argc, char **argv)
{
	struct renew_ctx r = { 0 };
	struct spare_grant g;
	struct dev_info d;
	uint32_t renewed = 0;
	char why[256];
	unsigned int i;
	int ret;

	ret = renew_args(&r, "renew", argc, argv, NULL, NULL);
	if (ret)
		return ret;
	ret = 1;
	if (!dev_read(&c->roots, name, &d, why, sizeof(why)) && d.ublk) {
		uint32_t slabs = grantplan_nr_slabs(d.size, d.slab_size);
		struct dev_slab_copy *live = NULL;
		unsigned int nlive = 0;

		if (!slabs || !d.replicas || d.replicas > 64) {
			log_err("device %s: its counters file gives no geometry", name);
			goto out;
		}
		/* as the module's renewal: the copies where they are now */
		if (ublk_live_map(c, name, &live, &nlive))
			goto out;
		ret = ublk_device_renew(&c->ublk, name, d.pid, slabs * (uint32_t)d.replicas,
					live, nlive, 0, renew_ask, &r, &renewed);
		free(live);
		if (ret)
			goto out;	/* its exit status, 1 */
		log_info("device %s: %u slab copies renewed; spare-ublk told to read its "
			 "grants again", name, renewed);
		ret = c->json ? print_json(json_object_new_object()) : 0;
		goto out;
	}
	if (renew_plan(c, name, &r))
		goto out;
	for (i = 0; i < r.nd; i++) {
		if (!r.count[i])
			continue;
		if (renew_donor(c, name, &r, i, r.count[i], &g, NULL))
			goto out;
		renewed += r.count[i];
	}
	log_info("device %s: %u slab copies renewed on %u donors", name, renewed, r.nd);
	ret = c->json ? print_json(json_object_new_object()) : 0;
out:
	renew_ctx_wipe(&r);
	sodium_memzero(&g, sizeof(g));
	return ret;
}

/* ---- device monitor ---- */

struct monitor_opts {
	const char	*renew_before, *interval, *standby;
	bool		once;
};

static bool monitor_arg(const char *arg, void *ctx)
{
	struct monitor_opts *o = ctx;

	if (!strncmp(arg, "renew-before=", 13))
		o->renew_before = arg + 13;
	else if (!strncmp(arg, "interval=", 9))
		o->interval = arg + 9;
	else if (!strncmp(arg, "standby=", 8))
		o->standby = arg + 8;
	else if (!strcmp(arg, "once"))
		o->once = true;
	else
		return false;
	return true;
}

static volatile sig_atomic_t monitor_stop;

static void monitor_signal(int sig)
{
	monitor_stop = sig;
}

/* What the monitor knows of each donor's grants. */
struct monitor_state {
	uint64_t	standby;
	uint64_t	expiry[GRANTPLAN_MAX_DONORS], lease[GRANTPLAN_MAX_DONORS];
	uint32_t	covered[GRANTPLAN_MAX_DONORS];	/* slabs of the newest grant */
	bool		warned[GRANTPLAN_MAX_DONORS];
	/* each donor's failure-domain label, as the broker last said ("") */
	char		label[GRANTPLAN_MAX_DONORS][BROKER_DOMAIN_LEN];
};

/*
 * When donor @i is due: @before seconds (else a third of its lease) before
 * its newest grant ends; 0 before the monitor has seen one.
 */
static uint64_t monitor_due(const struct monitor_state *m, unsigned int i, uint64_t before)
{
	uint64_t margin = before ? before : m->lease[i] / 3;

	return m->expiry[i] > margin ? m->expiry[i] - margin : 0;
}

/* Remember donor @i's newest grant @g, for @slabs slabs. */
static void monitor_note(struct monitor_state *m, unsigned int i, const struct spare_grant *g,
			 uint32_t slabs)
{
	m->expiry[i] = le64toh(g->expiry);
	m->lease[i] = m->expiry[i] > le64toh(g->not_before) ?
		      m->expiry[i] - le64toh(g->not_before) : 0;
	m->covered[i] = slabs;
	m->warned[i] = false;
}

/*
 * Renew donor @i for @slabs slabs and remember the grant. 0, or -1
 * (logged; retried at the next round).
 */
static int monitor_renew(struct sparectl *c, const char *name, struct renew_ctx *r,
			 struct monitor_state *m, unsigned int i, uint32_t slabs,
			 const char *why)
{
	struct spare_grant g;
	uint64_t now = (uint64_t)time(NULL);

	if (renew_donor(c, name, r, i, slabs, &g, m->label[i])) {
		if (m->expiry[i] && m->expiry[i] <= now && !m->warned[i]) {
			log_err("device %s: the grants for %s have expired: a copy mapped "
				"there again will be refused", name, r->addr[i]);
			m->warned[i] = true;
		}
		return -1;
	}
	monitor_note(m, i, &g, slabs);
	sodium_memzero(&g, sizeof(g));
	log_info("device %s: %s: %u slab(s) on %s (%u held) granted until %llu", name, why,
		 slabs, r->addr[i], r->count[i], (unsigned long long)m->expiry[i]);
	return 0;
}

/* slab_moving events acted on together, at most */
#define MONITOR_MOVES_MAX	64

/*
 * The device's failure domains (configfs `domains`, one number per donor)
 * into @dom[0 .. r->nd). Absent (a module without it), empty or not
 * understood: every donor its own domain (the last logged), so that a move
 * still finds a target.
 */
static bool monitor_domains(const struct sparectl *c, const char *name,
			    const struct renew_ctx *r, uint8_t *dom)
{
	char text[GRANTPLAN_ATTR_MAX], why[512];

	if (dev_attr_text(&c->roots, name, "domains", text, sizeof(text), why, sizeof(why))) {
		if (errno != ENOENT)
			log_warn("device %s: %s", name, why);
		text[0] = 0;
	}
	if (!grantplan_parse_domains(text, r->nd, dom, why, sizeof(why)))
		return text[0] != 0;
	log_warn("device %s: %s: moving copies as if every donor were its own failure domain",
		 name, why);
	grantplan_parse_domains("", r->nd, dom, why, sizeof(why));
	return false;
}

/* Attribute @a's text, its newline cut. 0, or -1 (logged). */
static int attr_line(const struct sparectl *c, const char *name, const char *a, char *text,
		     size_t len)
{
	char why[512];

	if (dev_attr_text(&c->roots, name, a, text, len, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	text[strcspn(text, "\n")] = 0;
	return 0;
}

/* Add @item at the end of the list in attribute @a. 0, or -1 (logged). */
static int attr_append_item(const struct sparectl *c, const char *name, const char *a,
			    const char *item)
{
	char text[GRANTPLAN_ATTR_MAX];
	size_t len;

	if (attr_line(c, name, a, text, sizeof(text)))
		return -1;
	len = strlen(text);
	if (snprintf(text + len, sizeof(text) - len, "%s%s", len ? "," : "", item) >=
	    (int)(sizeof(text) - len)) {
		log_err("device %s: %s: too long to add %s", name, a, item);
		return -1;
	}
	if (write_attr(c, name, a, text)) {
		log_err("device %s: %s: cannot add %s: %s (the kernel log says why)", name, a,
			item, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * No donor of the device can take @copies copies that must move (each holds
 * a copy of its slab already, or is the one evicting it): ask the brokers
 * for a grant of @copies + standby slabs on a donor the device does not use
 * (MOVE_REQ: all of the device's donors avoided, and where possible the
 * failure domains @avoid_dom of the copies that stay), then add it to the
 * running device: its grant, then `donors`, then `domains` (the number of
 * a donor of the device with the same label, else a new one; only if the
 * device has domains, @has_dom, numbered @dom). The kernel, whose moves
 * wait for a grant or a donor coming up, moves the copies there. Reloads
 * @r. 0, or -1 (logged).
 */
static int monitor_new_donor(struct sparectl *c, const char *name, struct renew_ctx *r,
			     struct monitor_state *m, uint32_t copies, const uint8_t *dom,
			     bool has_dom, const char (*avoid_dom)[BROKER_DOMAIN_LEN],
			     unsigned int n_avoid_dom)
{
	char avoid[GRANTPLAN_MAX_DONORS][BROKER_ADDR_LEN];
	char label[BROKER_DOMAIN_LEN], addr[BROKER_ADDR_LEN], num[16];
	uint32_t slabs = copies + (uint32_t)m->standby;
	unsigned int i, nd = r->nd;
	struct spare_grant g;
	int d, ret = -1;

	if (nd >= GRANTPLAN_MAX_DONORS) {
		log_err("device %s: no donor of the device can take %u moving cop%s, and it "
			"lists %u donors already, the most it can", name, copies,
			copies == 1 ? "y" : "ies", nd);
		return -1;
	}
	memset(avoid, 0, sizeof(avoid));
	for (i = 0; i < nd; i++)
		snprintf(avoid[i], sizeof(avoid[i]), "%s", r->addr[i]);
	if (brokerask_move(&r->a, slabs, (const char (*)[BROKER_ADDR_LEN])avoid, nd, avoid_dom,
			   n_avoid_dom, &g, label))
		return -1;
	memcpy(addr, g.donor_addr, sizeof(addr));
	addr[sizeof(addr) - 1] = 0;
	if (add_grant(c, name, &g, addr) || attr_append_item(c, name, "donors", addr))
		goto out;
	if (has_dom) {		/* a device without domains keeps none */
		d = grantplan_domain_for(dom, (const char (*)[BROKER_DOMAIN_LEN])m->label, nd,
					 label, GRANTPLAN_MAX_DONORS - 1);
		if (d < 0)
			log_warn("device %s: %s's failure domain cannot be numbered: the "
				 "kernel counts it as its own", name, addr);
		snprintf(num, sizeof(num), "%d", d);
		if (d >= 0 && attr_append_item(c, name, "domains", num))
			goto out;
	}
	monitor_note(m, nd, &g, slabs);
	memcpy(m->label[nd], label, sizeof(label));
	log_info("device %s: %u cop%s moving to %s, a donor the device did not use: "
		 "%u slab(s) granted until %llu", name, copies, copies == 1 ? "y" : "ies",
		 addr, slabs, (unsigned long long)m->expiry[nd]);
	ret = renew_plan(c, name, r);
out:
	sodium_memzero(&g, sizeof(g));
	return ret;
}

/* Add failure-domain label @l ("": unknown, skipped) to the set, once. */
static void avoid_dom_add(char (*set)[BROKER_DOMAIN_LEN], unsigned int *n, const char *l)
{
	unsigned int i;

	if (!l[0] || *n == BROKER_MAX_AVOID)
		return;
	for (i = 0; i < *n; i++)
		if (!strncmp(set[i], l, BROKER_DOMAIN_LEN))
			return;
	memset(set[*n], 0, BROKER_DOMAIN_LEN);
	memcpy(set[*n], l, strnlen(l, BROKER_DOMAIN_LEN - 1));
	(*n)++;
}

/*
 * The kernel found no donor whose grants have room for the copies of the
 * slabs in @ev[0 .. @nev) (slab_moving uevents, taken together so that one
 * grant per donor covers them all). Each copy's target: the donor the
 * module is asking already (the slab's new copy, "unmapped" or "mapping" in
 * slab_map on a donor other than the evicting one), else, of the donors
 * that hold none of the slab, one in a failure domain (configfs `domains`)
 * where no other copy of the slab stays (the evicting donor's copy leaves,
 * so its domain is free unless another copy is there) if there is one, and
 * of those the one with the fewest copies (counting those assigned here); a
 * slab asked for twice counts once. Then one grant per target donor for
 * its copies (slab_map's, with the new copies already on it), the standby
 * and the copies assigned here. Copies no donor of the device can take
 * (each holds the slab or evicts it) go to a donor the broker finds
 * outside the device, which is added to it (monitor_new_donor()). 0, or -1
 * (logged).
 */
static int monitor_move_grants(struct sparectl *c, const char *name, const char *disk,
			       struct renew_ctx *r, struct monitor_state *m,
			       const struct spare_ev *ev, unsigned int nev)
{
	uint32_t extra[GRANTPLAN_MAX_DONORS] = { 0 }, load[GRANTPLAN_MAX_DONORS];
	char avoid_dom[BROKER_MAX_AVOID][BROKER_DOMAIN_LEN];
	bool touched[GRANTPLAN_MAX_DONORS] = { 0 };
	unsigned int n_avoid_dom = 0;
	uint32_t elsewhere = 0;		/* copies for a donor the device lacks */
	uint8_t dom[GRANTPLAN_MAX_DONORS];
	struct dev_slab_copy *sc;
	char why[512];
	unsigned int n, i, e, k;
	bool has_dom;
	int ret = 0;

	if (dev_read_slab_map(&c->roots, disk, &sc, &n, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	has_dom = monitor_domains(c, name, r, dom);
	memcpy(load, r->count, sizeof(load));
	for (e = 0; e < nev; e++) {
		uint32_t skip = 0, stay = 0;	/* stay: donors keeping a copy */
		int t = -1, from = -1;

		for (k = 0; k < e && ev[k].slab != ev[e].slab; k++)
			;
		if (k < e)
			continue;	/* asked again after a grant: once is enough */
		for (i = 0; i < r->nd; i++)
			if (!strcmp(r->addr[i], ev[e].donor))
				from = (int)i;
		if (from >= 0)
			skip |= UINT32_C(1) << from;
		for (i = 0; i < n; i++) {
			if (sc[i].slab != ev[e].slab || sc[i].donor >= r->nd)
				continue;
			skip |= UINT32_C(1) << sc[i].donor;
			if ((int)sc[i].donor != from)
				stay |= UINT32_C(1) << sc[i].donor;
			if ((int)sc[i].donor != from && (!strcmp(sc[i].state, "mapping") ||
							 !strcmp(sc[i].state, "unmapped")))
				t = (int)sc[i].donor;
		}
		if (t >= 0) {
			touched[t] = true;	/* slab_map counted that copy */
			continue;
		}
		t = grantplan_move_target(load, r->nd, skip,
					  grantplan_domain_mask(dom, r->nd, stay));
		if (t < 0) {
			/* every donor of the device holds the slab or evicts it */
			log_info("device %s: no donor of the device can take the copy of slab "
				 "%lld that %s evicts", name, (long long)ev[e].slab, ev[e].donor);
			elsewhere++;
			for (i = 0; i < r->nd; i++)
				if (stay & (UINT32_C(1) << i))
					avoid_dom_add(avoid_dom, &n_avoid_dom, m->label[i]);
			continue;
		}
		load[t]++;
		extra[t]++;
		touched[t] = true;
	}
	free(sc);
	for (i = 0; i < r->nd; i++) {
		uint32_t want = r->count[i] + (uint32_t)m->standby + extra[i];

		if (!touched[i])
			continue;
		/* its newest grant covers them already (for a while yet): the
		 * donor's budget, the sum of the unexpired ones, does too */
		if (m->covered[i] >= want && m->expiry[i] > (uint64_t)time(NULL) + 2) {
			log_info("device %s: %s's grant covers %u slab(s) already", name,
				 r->addr[i], m->covered[i]);
			continue;
		}
		if (monitor_renew(c, name, r, m, i, want, "copies moving there"))
			ret = -1;
	}
	if (elsewhere && monitor_new_donor(c, name, r, m, elsewhere, dom, has_dom,
					   (const char (*)[BROKER_DOMAIN_LEN])avoid_dom,
					   n_avoid_dom))
		ret = -1;
	return ret;
}

/* SIGTERM or SIGINT ended a monitor: said, and its exit status (0). */
static int monitor_stopped(const char *name, unsigned long rounds)
{
	spare_notify_stopping();
	log_info("device %s: %s: monitor ends after %lu rounds", name, strsignal(monitor_stop),
		 rounds);
	return 0;
}

/* A new donor given to a ublk device's waiting moves: its add is waited
 * for this long (connected, then moved to) before another is asked for */
#define MONITOR_ADD_WAIT_S	15

/* What a spare-ublk device's monitor keeps between rounds. */
struct ublk_watch {
	struct renew_ctx	*r;
	/* each donor's failure-domain label, as the broker last said */
	char			addr[GRANTPLAN_MAX_DONORS][BROKER_ADDR_LEN];
	char			label[GRANTPLAN_MAX_DONORS][BROKER_DOMAIN_LEN];
	unsigned int		nlabels;
	uint64_t		added_at;	/* a donor given for moves, s */
};

/* Donor @addr's label in @w ("" unknown); @set: remember it as that. */
static const char *watch_label(struct ublk_watch *w, const char *addr, const char *set)
{
	unsigned int i;

	for (i = 0; i < w->nlabels; i++)
		if (!strncmp(w->addr[i], addr, BROKER_ADDR_LEN))
			break;
	if (set && i == w->nlabels && i < GRANTPLAN_MAX_DONORS)
		snprintf(w->addr[w->nlabels++], BROKER_ADDR_LEN, "%s", addr);
	if (set && i < w->nlabels)
		snprintf(w->label[i], BROKER_DOMAIN_LEN, "%s", set);
	return i < w->nlabels ? w->label[i] : "";
}

/* ublk_device_renew()'s broker for the monitor: the labels remembered. */
static int watch_renew_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	struct ublk_watch *w = ctx;
	char label[BROKER_DOMAIN_LEN] = "";

	if (brokerask_renew(&w->r->a, addr, slabs, g, label))
		return -1;
	watch_label(w, addr, label);
	return 0;
}

/*
 * Moves of ublk device @name that wait for a donor (its pager's
 * NAME.moving: every donor of the device holds a copy of the slab, or
 * evicts it, or is down): as the module's monitor_new_donor(), one grant
 * from a broker for the slabs waiting plus @standby on a donor the device
 * does not use (MOVE_REQ, avoiding every donor its grants or slab map
 * name, and where possible the failure domains of the copies that stay),
 * added to its grants file; SIGHUP, and the pager adds the donor and
 * moves the copies there. The next is asked for only MONITOR_ADD_WAIT_S
 * after. 0 (nothing waits, or done), or -1 (logged; the round fails).
 */
static int monitor_ublk_moves(struct sparectl *c, const char *name, struct ublk_watch *w,
			      const struct dev_info *d, uint32_t placed,
			      const struct dev_slab_copy *live, unsigned int nlive,
			      uint32_t standby, uint64_t now)
{
	char avoid[GRANTPLAN_MAX_DONORS][SPARE_GRANT_ADDR_LEN];
	char avoid_dom[BROKER_MAX_AVOID][BROKER_DOMAIN_LEN];
	char label[BROKER_DOMAIN_LEN] = "", addr[BROKER_ADDR_LEN], why[512];
	char doms[BROKER_MAX_AVOID * BROKER_DOMAIN_LEN + BROKER_MAX_AVOID];
	struct dev_move_wait mv[MONITOR_MOVES_MAX];
	unsigned int n, nd, n_avoid_dom = 0, i, k;
	uint32_t slabs = 0;
	struct spare_grant g;
	int ret;

	if (dev_read_ublk_moving(&c->roots, name, mv, MONITOR_MOVES_MAX, &n, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	if (!n || now < w->added_at + MONITOR_ADD_WAIT_S)
		return 0;	/* none waits, or a donor given is being added */
	if (ublk_device_donors(&c->ublk, name, placed, live, nlive, avoid,
			       GRANTPLAN_MAX_DONORS, &nd))
		return -1;
	if (nd >= GRANTPLAN_MAX_DONORS) {
		log_err("device %s: %u cop%s wait for a donor, and the device has %u donors "
			"already, the most it can", name, n, n == 1 ? "y" : "ies", nd);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && mv[k].slab != mv[i].slab; k++)
			;
		slabs += k == i;
		/* the domains of the copies that stay */
		for (k = 0; k < nlive; k++)
			if (live[k].slab == mv[i].slab && strcmp(live[k].address, mv[i].address))
				avoid_dom_add(avoid_dom, &n_avoid_dom,
					      watch_label(w, live[k].address, NULL));
	}
	doms[0] = 0;
	for (i = 0; i < n_avoid_dom; i++)
		snprintf(doms + strlen(doms), sizeof(doms) - strlen(doms), "%s%s", i ? "," : "",
			 avoid_dom[i]);
	log_info("device %s: %u cop%s wait for a donor (slab %u first, which %s evicts): "
		 "asking for one the device does not use, avoiding %u donor(s) and failure "
		 "domain(s) \"%s\"", name, slabs, slabs == 1 ? "y" : "ies", mv[0].slab,
		 mv[0].address, nd, doms);
	if (brokerask_move(&w->r->a, slabs + standby, (const char (*)[BROKER_ADDR_LEN])avoid, nd,
			   (const char (*)[BROKER_DOMAIN_LEN])avoid_dom, n_avoid_dom, &g, label))
		return -1;
	memcpy(addr, g.donor_addr, sizeof(addr));
	addr[sizeof(addr) - 1] = 0;
	watch_label(w, addr, label);
	ret = ublk_device_add_grant(&c->ublk, name, d->pid, placed, &g);
	if (!ret) {
		w->added_at = now;
		log_info("device %s: %u slab(s) on %s granted until %llu; spare-ublk told to "
			 "read its grants again, to add the donor and move there", name,
			 slabs + standby, addr, (unsigned long long)le64toh(g.expiry));
	}
	sodium_memzero(&g, sizeof(g));
	return ret ? -1 : 0;
}

/*
 * The monitor of a spare-ublk device placed by a broker (its config names
 * a grants file): the pager sends no uevents, so its slab map drives it.
 * A round a second reads the slab map and the grants file, and renews
 * every donor (ublk_device_renew(), covering the copies it holds now plus
 * @standby) once one is due (ublk_grants_due()): when its grants would
 * stop covering them within the margin, or at once when a copy moved
 * beyond them, or waits there for one (the pager's move_wait_grant()).
 * Copies that wait for a donor (NAME.moving) get one the device does not
 * use (monitor_ublk_moves()). A round that failed, or a renewal still
 * short, is tried again after @interval seconds. A pager that is not
 * running (a restart) is waited for; the monitor ends when the device's
 * config is removed (destroy).
 */
static int monitor_ublk(struct sparectl *c, const char *name, struct renew_ctx *r,
			uint64_t before, uint64_t interval, uint32_t standby, bool once)
{
	struct ublk_watch w = { .r = r };
	unsigned long rounds = 0;
	bool down_said = false;
	char conf[512], why[256];
	int ret = 1;

	snprintf(conf, sizeof(conf), "%s/ublk-%s.conf", c->ublk.conf_dir, name);
	log_info("device %s: monitoring the grants of a spare-ublk device, %u slab(s) "
		 "standby on each donor", name, standby);
	for (;;) {
		uint64_t now = (uint64_t)time(NULL), next = now + interval, due;
		uint32_t placed, renewed = 0;
		struct dev_slab_copy *live = NULL;
		unsigned int nlive = 0;
		struct dev_info d;
		bool failed = false;

		if (access(conf, F_OK)) {
			log_info("device %s: removed; monitor ends", name);
			ret = 0;
			break;
		}
		snprintf(why, sizeof(why), "not a spare-ublk device now");
		if (dev_read(&c->roots, name, &d, why, sizeof(why)) || !d.ublk) {
			if (!down_said)
				log_warn("device %s: %s: waiting for its pager", name, why);
			down_said = true;
			failed = true;
		} else if ((placed = grantplan_nr_slabs(d.size, d.slab_size) *
				     (uint32_t)d.replicas) == 0 ||
			   ublk_live_map(c, name, &live, &nlive) ||
			   ublk_grants_due(&c->ublk, name, placed, live, nlive, standby,
					   before, now, &due)) {
			failed = true;	/* logged (a counters file without geometry: not) */
		} else {
			down_said = false;
			next = now + 1;		/* the slab map again in a second */
			if (monitor_ublk_moves(c, name, &w, &d, placed, live, nlive, standby,
					       now)) {
				failed = true;	/* asked again at the next interval */
				next = now + interval;
			}
			if (due <= now) {
				if (ublk_device_renew(&c->ublk, name, d.pid, placed, live, nlive,
						      standby, watch_renew_ask, &w, &renewed)) {
					failed = true;	/* retried at the next interval */
					next = now + interval;
				} else {
					log_info("device %s: %u slab copies renewed, %u standby "
						 "per donor; spare-ublk told to read its grants "
						 "again", name, renewed, standby);
					/* still short: not asked again at once */
					if (ublk_grants_due(&c->ublk, name, placed, live, nlive,
							    standby, before, now, &due) || due <= now)
						next = now + interval;
				}
			}
		}
		free(live);
		live = NULL;
		if (!rounds++)
			spare_notify_ready("device %s: grants %s", name,
					   failed ? "not renewed yet" : "renewed");
		if (once) {
			ret = failed ? 1 : 0;
			break;
		}
		while (!monitor_stop && (uint64_t)time(NULL) < next) {
			sleep(1);
			if (access(conf, F_OK))
				break;	/* destroyed: said above */
		}
		if (monitor_stop) {
			ret = monitor_stopped(name, rounds);
			break;
		}
	}
	return ret;
}

/*
 * sparectl device monitor NAME broker=... broker-name=... broker-key=...
 * [lease=S] [renew-before=S] [interval=S] [standby=N] [once]: keeps the
 * device's grants alive while it runs, and its copies movable.
 *   - Each donor's grant covers the copies it holds plus `standby` (default
 *     1), so that the kernel can move a copy a donor evicts onto any other
 *     donor without waiting for a grant. At start every donor is renewed,
 *     then each again when its newest grant has renew-before seconds left
 *     (default: a third of its lease), or when it holds more copies than
 *     that grant covers less the standby.
 *   - The module's uevents wake it: on slab_evicted and donor_up it counts
 *     each donor's copies again (slab_map); on slab_moving (no donor's
 *     grants had room) it grants more on a target for each such copy
 *     (monitor_move_grants()); the kernel, which waits for its grants to
 *     change, moves the copies there.
 * A failed renewal is retried every interval seconds (default 5) with the
 * brokers in turn; an expired grant is logged, and the device keeps running
 * on what it has mapped. Ends on SIGTERM/SIGINT (0), or when the device is
 * removed (0). `once`: one round, then exit (1 if a donor could not be
 * renewed).
 */
static int device_monitor(struct sparectl *c, const char *name, int argc, char **argv)
{
	struct monitor_opts o = { 0 };
	struct renew_ctx r = { 0 };
	struct monitor_state m = { .standby = 1 };
	uint64_t before = 0, interval = 5;
	struct sigaction sa = { .sa_handler = monitor_signal };
	struct spare_uevents *ue = NULL;
	unsigned long rounds = 0;
	char disk[64] = "", why[512];
	int ret;

	ret = renew_args(&r, "monitor", argc, argv, monitor_arg, &o);
	if (ret)
		return ret;
	ret = EXIT_USAGE;
	if (o.renew_before && spare_parse_u64(o.renew_before, 1, UINT32_MAX, &before)) {
		usage_error("renew-before=%s: not a number of seconds", o.renew_before);
		goto out;
	}
	if (o.interval && spare_parse_u64(o.interval, 1, 3600, &interval)) {
		usage_error("interval=%s: not a number of seconds (1-3600)", o.interval);
		goto out;
	}
	if (o.standby && spare_parse_u64(o.standby, 0, 64, &m.standby)) {
		usage_error("standby=%s: not a number of slabs (0-64)", o.standby);
		goto out;
	}
	ret = 1;
	{
		struct dev_info d;

		if (!dev_read(&c->roots, name, &d, why, sizeof(why)) && d.ublk) {
			sigaction(SIGTERM, &sa, NULL);
			sigaction(SIGINT, &sa, NULL);
			ret = monitor_ublk(c, name, &r, before, interval, (uint32_t)m.standby,
					   o.once);
			goto out;
		}
	}
	if (renew_plan(c, name, &r))
		goto out;
	if (!dev_attr_text(&c->roots, name, "disk", disk, sizeof(disk), why, sizeof(why)) &&
	    disk[0] && !o.once) {
		ue = spare_uevents_open(disk);
		if (!ue)
			log_warn("device %s: cannot listen for %s's uevents (%s): renewing on "
				 "the timer only", name, disk, strerror(errno));
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	log_info("device %s: monitoring the grants of %u donors, %llu slab(s) standby on each",
		 name, r.nd, (unsigned long long)m.standby);
	/* under systemd (Type=notify): ready once the first round is done */
	for (;;) {
		uint64_t now = (uint64_t)time(NULL), next = now + interval;
		unsigned int i, failed = 0;
		struct stat st;
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", c->roots.configfs, name);
		if (stat(path, &st)) {
			log_info("device %s: removed; monitor ends", name);
			ret = 0;
			break;
		}
		for (i = 0; i < r.nd; i++) {
			uint64_t due = monitor_due(&m, i, before);
			uint32_t want = r.count[i] + (uint32_t)m.standby;

			if (!want)
				continue;
			if (due <= now || want > m.covered[i]) {
				if (monitor_renew(c, name, &r, &m, i, want,
						  due <= now ? "renewed" : "more copies")) {
					failed++;	/* retried at the next interval */
					continue;
				}
				due = monitor_due(&m, i, before);
			}
			if (due < next)
				next = due;
		}
		if (!rounds++)
			spare_notify_ready("device %s: %u of %u donors renewed", name,
					   r.nd - failed, r.nd);
		else
			spare_notify_status("device %s: %u donors failed to renew", name, failed);
		if (o.once) {
			ret = failed ? 1 : 0;
			break;
		}
		while (!monitor_stop && (uint64_t)time(NULL) < next) {
			struct pollfd pfd = { .fd = ue ? spare_uevents_fd(ue) : -1,
					      .events = POLLIN };
			struct spare_ev ev, moving[MONITOR_MOVES_MAX];
			unsigned int nmoving = 0;
			bool recount = false;
			int k;

			if (poll(&pfd, 1, 1000) <= 0 || !(pfd.revents & POLLIN))
				continue;
			while ((k = spare_uevents_next(ue, &ev, why, sizeof(why))) != 0) {
				if (k < 0) {
					log_warn("device %s: a uevent ignored: %s", name, why);
					continue;
				}
				log_info("device %s: uevent %s%s%s", name, spare_ev_name(ev.kind),
					 ev.donor[0] ? " from " : "", ev.donor);
				if (ev.kind == SPARE_EV_SLAB_MOVING && nmoving < MONITOR_MOVES_MAX)
					moving[nmoving++] = ev;
				recount |= ev.kind == SPARE_EV_SLAB_EVICTED ||
					   ev.kind == SPARE_EV_DONOR_UP;
			}
			if ((!nmoving && !recount) || renew_plan(c, name, &r))
				continue;
			if (nmoving)
				monitor_move_grants(c, name, disk, &r, &m, moving, nmoving);
			if (recount)
				break;	/* a round now: a donor may hold more */
		}
		if (monitor_stop) {
			ret = monitor_stopped(name, rounds);
			break;
		}
	}
out:
	spare_uevents_close(ue);
	renew_ctx_wipe(&r);
	return ret;
}

static int device_destroy(struct sparectl *c, const char *name)
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
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct sparectl c = {
		.roots = { SPARE_CONFIGFS_ROOT, SPARE_SYSFS_BLOCK, SPARE_UBLK_RUN_DIR },
		.ublk = { SPARE_UBLK_CONF_DIR, "spare-ublk" },
	};
	const char *env;
	unsigned int i;
	int opt;

	spare_log_init("sparectl", SPARE_LOG_INFO);
	/* Fake trees for the tests; never needed on a real host. */
	if ((env = getenv("SPARECTL_CONFIGFS")))
		c.roots.configfs = env;
	if ((env = getenv("SPARECTL_SYSFS_BLOCK")))
		c.roots.sysfs_block = env;
	if ((env = getenv("SPARECTL_UBLK_RUN")))
		c.roots.ublk_run = env;
	if ((env = getenv("SPARECTL_UBLK_CONF_DIR")))
		c.ublk.conf_dir = env;
	while ((opt = getopt_long(argc, argv, "+jh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			c.json = true;
			break;
		case 'h':
			usage(stdout);
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
	return usage_error("unknown object '%s' (device, donor, metrics, gen-key)", argv[optind]);
}
