// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk devices from sparectl: see ublkdev.h and Documentation/ublk.md
 * ("sparectl and the live counters").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include <sodium.h>

#include "devstat.h"
#include "grantplan.h"
#include "spare_ec.h"
#include "spare_grant_lib.h"
#include "spare_log.h"
#include "spare_util.h"
#include "ublkdev.h"

static int say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A value the config dialect carries as it is: no comment, no newline. */
static const char *value_problem(const char *v)
{
	if (!*v)
		return "empty";
	if (strpbrk(v, "\n\r#;"))
		return "contains a newline, '#' or ';', which the config file cannot carry";
	if (strlen(v) > 180)
		return "longer than 180 characters";
	return NULL;
}

/*
 * redundancy=VALUE (spare_ec.c) read before anything is created: a bad
 * value, or one beside replicas=N above 1. 0, or -1 with @why.
 */
int redundancy_problem(const char *value, int argc, char *const *argv,
		       char *why, size_t whylen)
{
	struct spare_ec_geom g;
	const char *reason;
	uint64_t replicas;
	int i;

	if (spare_ec_parse(value, strlen(value), &g, &reason)) {
		snprintf(why, whylen, "redundancy=%s: %s", value, reason);
		return -1;
	}
	for (i = 0; spare_ec_on(&g) && i < argc; i++)
		if (!strncmp(argv[i], "replicas=", 9) &&
		    !spare_parse_u64(argv[i] + 9, 2, UINT32_MAX, &replicas)) {
			snprintf(why, whylen, "redundancy=%s with %s: a page is copied or "
				 "split, not both (replicas=1)", value, argv[i]);
			return -1;
		}
	return 0;
}

/* Module attribute (sparectl's name) -> spare-ublk's option. */
static const struct {
	const char	*attr, *key;
	bool		abs_path;
} simple[] = {
	{ "size",	 "size",	false },
	{ "slab_size",	 "slab-size",	false },
	{ "replicas",	 "copies",	false },
	{ "redundancy",	 "redundancy",	false },	/* checked below */
	{ "source",	 "source",	false },
	{ "domains",	 "domains",	false },
	{ "backup",	 "backup",	true },
	{ "backup_mode", "backup-mode",	false },
	{ "key-file",	 "key-file",	true },
	{ "queues",	 "queues",	false },	/* ublk only: the module has one per CPU */
};

int ublk_conf_write(FILE *f, const char *name, int argc, char *const *argv,
		    const char *grant_file, char *why, size_t whylen)
{
	bool size = false, donors = false;
	const char *bad;
	int i;

	if (!dev_ublk_name_ok(name))
		return say(why, whylen, "'%s' is not a name for a spare-ublk device", name);
	fprintf(f, "# spare-ublk device %s, written by `sparectl device create %s "
		"--backend=ublk`;\n# removed by `sparectl device destroy %s`. "
		"Keys: spare-ublk(8).\nname = %s\n", name, name, name, name);
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *eq = strchr(arg, '='), *v;
		size_t kl;
		unsigned int k;

		if (!eq)
			return say(why, whylen, "'%s': expected KEY=VALUE", arg);
		kl = (size_t)(eq - arg);
		v = eq + 1;
		if ((bad = value_problem(v)))
			return say(why, whylen, "%.*s=: the value is %s", (int)kl, arg, bad);
		for (k = 0; k < sizeof(simple) / sizeof(simple[0]); k++)
			if (strlen(simple[k].attr) == kl && !strncmp(arg, simple[k].attr, kl))
				break;
		if (k < sizeof(simple) / sizeof(simple[0])) {
			if (!strcmp(simple[k].attr, "redundancy") &&
			    redundancy_problem(v, argc, argv, why, whylen))
				return -1;
			if (simple[k].abs_path && v[0] != '/')
				return say(why, whylen, "%s=%s: an absolute path (the pager "
					   "does not run in this directory)", simple[k].attr, v);
			fprintf(f, "%s = %s\n", simple[k].key, v);
			size |= !strcmp(simple[k].attr, "size");
			continue;
		}
		if (kl == 6 && !strncmp(arg, "donors", 6)) {
			const char *p = v;

			if (grant_file)
				return say(why, whylen, "broker= places the slabs: not with donors=");

			while (*p) {
				size_t n = strcspn(p, ",");

				if (!n)
					return say(why, whylen, "donors=%s: an empty donor", v);
				fprintf(f, "donor = %.*s\n", (int)n, p);
				p += n + (p[n] == ',');
			}
			donors = true;
		} else if (kl == 9 && !strncmp(arg, "integrity", 9)) {
			/* spare-ublk --integrity: a crc32c per page (per split) */
			if (strcmp(v, "none") && strcmp(v, "crc32c"))
				return say(why, whylen, "integrity=%s: none or crc32c", v);
			fprintf(f, "integrity = %s\n", v);
		} else if (kl == 9 && !strncmp(arg, "placement", 9)) {
			return say(why, whylen, "placement=: spare-ublk places copies "
				   "round robin and takes no placement");
		} else {
			return say(why, whylen, "'%s': KEY is one of size, slab_size, replicas, "
				   "redundancy, donors, domains, source, backup, backup_mode, integrity, "
				   "key-file with --backend=ublk", arg);
		}
	}
	if (grant_file) {
		if ((bad = value_problem(grant_file)))
			return say(why, whylen, "the grants file's path is %s", bad);
		fprintf(f, "grant-file = %s\n", grant_file);
		donors = true;
	}
	if (!size || !donors)
		return say(why, whylen, "--backend=ublk needs size= and donors= (or broker=)");
	return ferror(f) ? say(why, whylen, "write: %s", strerror(errno)) : 0;
}

int ublk_parse_redundancy(const char *text, unsigned int *k, unsigned int *r, char *why,
			  size_t whylen)
{
	struct spare_ec_geom g;
	const char *reason;

	if (spare_ec_parse(text, strlen(text), &g, &reason))
		return say(why, whylen, "redundancy=%s: %s", text, reason);
	*k = g.k;
	*r = g.r;
	return 0;
}

int ublk_broker_units(uint64_t size, uint64_t slab_size, unsigned int replicas,
		      unsigned int ec_k, unsigned int ec_r, uint32_t *units,
		      unsigned int *width, char *why, size_t whylen)
{
	uint64_t per = slab_size;

	if (ec_k) {
		if (slab_size > UINT64_MAX / ec_k)
			return say(why, whylen, "slab_size %llu x %u splits is too large",
				   (unsigned long long)slab_size, ec_k);
		per = slab_size * ec_k;	/* a group holds K slabs of the device */
	}
	*units = grantplan_nr_slabs(size, per);
	*width = ec_k ? ec_k + ec_r : replicas;
	if (!*units)
		return say(why, whylen, "size %llu in %s of %llu bytes: none, or too many",
			   (unsigned long long)size, ec_k ? "coding groups" : "slabs",
			   (unsigned long long)per);
	return 0;
}

int ublk_conf_geometry(int argc, char *const *argv, struct ublk_geometry *g,
		       char *why, size_t whylen)
{
	uint64_t copies = 1;
	int i;

	g->size = 0;
	g->slab_size = 1ULL << 30;	/* spare-ublk's default */
	g->ec_k = g->ec_r = 0;
	for (i = 0; i < argc; i++) {
		const char *v = strchr(argv[i], '=');

		if (!v)
			continue;
		v++;
		if (!strncmp(argv[i], "size=", 5)) {
			if (spare_parse_size(v, &g->size) || !g->size)
				return say(why, whylen, "size=%s: not a size", v);
		} else if (!strncmp(argv[i], "slab_size=", 10)) {
			if (spare_parse_size(v, &g->slab_size) || !g->slab_size ||
			    (g->slab_size & (g->slab_size - 1)))
				return say(why, whylen, "slab_size=%s: not a power of two", v);
		} else if (!strncmp(argv[i], "replicas=", 9)) {
			if (spare_parse_u64(v, 1, 64, &copies))
				return say(why, whylen, "replicas=%s: not a copy count", v);
		} else if (!strncmp(argv[i], "redundancy=", 11)) {
			if (ublk_parse_redundancy(v, &g->ec_k, &g->ec_r, why, whylen))
				return -1;
		}
	}
	if (!g->size)
		return say(why, whylen, "--backend=ublk needs size=");
	g->copies = (unsigned int)copies;
	return 0;
}

/* @tmp created (truncated) mode 0600 for writing, or NULL (logged). */
static FILE *open_private(const char *name, const char *tmp)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		log_err("device %s: %s: %s", name, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/*
 * The broker's grants for spare-ublk's --grant-file: one per line, mode
 * 0600 (a grant is a credential), written whole or not at all. 0, or -1
 * (logged).
 */
static int write_grants_as(const char *name, const char *path,
			   const struct spare_grant *grants, size_t n, const char *what)
{
	char tmp[560], hex[SPARE_GRANT_HEX_LEN + 1];
	size_t i;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = open_private(name, tmp);
	if (!f)
		return -1;
	fprintf(f, "# a broker's grants for %s device %s, %s\n", what, name,
		strcmp(what, "spare-ublk") ? "kept by sparectl to renew them (RENEW_GRANT)" :
		"slab-major; written by sparectl device create, removed by sparectl device "
		"destroy");
	for (i = 0; i < n; i++) {
		spare_grant_to_hex(&grants[i], hex, sizeof(hex));
		fprintf(f, "%s\n", hex);
	}
	sodium_memzero(hex, sizeof(hex));
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		log_err("device %s: %s: %s", name, path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int write_grants(const char *name, const char *path,
			const struct spare_grant *grants, size_t n)
{
	return write_grants_as(name, path, grants, n, "spare-ublk");
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Run @argv, wait for it; its exit status, or -1. Output goes to ours. */
static int run(char *const argv[])
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The same, output discarded. */
static int run_quiet(char *const argv[])
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}


static void print_log_tail(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "re");
	long n = 0, skip;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		n++;
	rewind(f);
	skip = n > 10 ? n - 10 : 0;
	while (fgets(line, sizeof(line), f))
		if (skip-- <= 0)
			fprintf(stderr, "  %s", line);
	fclose(f);
}

/* Remove a device's config (@conf, if given) and grants file (@grants). */
static void forget(const char *conf, const char *grants)
{
	if (conf)
		unlink(conf);
	if (grants)
		unlink(grants);
}

#define START_WAIT_MS	60000	/* set-up: connect, HELLO, MAP every slab copy */
#define STOP_WAIT_MS	70000	/* the unit's TimeoutStopSec, and some */

int ublk_device_create(const struct dev_roots *r, const struct ublk_paths *p,
		       const char *name, int argc, char *const *argv,
		       const struct spare_grant *grants, size_t ngrants, char *disk,
		       size_t disklen)
{
	char conf[512], tmp[530], gpath[512], log[512], unit[128], why[512];
	bool systemd = sd_booted() > 0;
	struct dev_info d;
	pid_t child = -1;
	unsigned int waited;
	FILE *f;

	if (!dev_ublk_name_ok(name)) {
		log_err("device %s: not a name for a spare-ublk device", name);
		return 2;
	}
	if (!dev_read(r, name, &d, why, sizeof(why))) {
		log_err("device %s: exists already (%s; destroy it first)", name,
			d.ublk ? "spare-ublk" : "spare.ko");
		return 1;
	}
	snprintf(conf, sizeof(conf), "%s/ublk-%s.conf", p->conf_dir, name);
	snprintf(gpath, sizeof(gpath), "%s/ublk-%s.grants", p->conf_dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", conf);
	if (!access(conf, F_OK)) {
		log_err("device %s: %s exists: not overwritten (remove it, or "
			"start spare-ublk@%s with it)", name, conf, name);
		return 1;
	}
	if (spare_mkdir_p(p->conf_dir, 0755)) {
		log_err("device %s: %s: %s", name, p->conf_dir, strerror(errno));
		return 1;
	}
	if (ngrants && write_grants(name, gpath, grants, ngrants))
		return 1;
	f = open_private(name, tmp);
	if (!f) {
		forget(NULL, ngrants ? gpath : NULL);
		return 1;
	}
	if (ublk_conf_write(f, name, argc, argv, ngrants ? gpath : NULL, why, sizeof(why))) {
		fclose(f);
		unlink(tmp);
		forget(NULL, ngrants ? gpath : NULL);
		log_err("device %s: %s (sparectl --help)", name, why);
		return 2;
	}
	if (fclose(f) || rename(tmp, conf)) {
		log_err("device %s: %s: %s", name, conf, strerror(errno));
		unlink(tmp);
		forget(NULL, ngrants ? gpath : NULL);
		return 1;
	}

	snprintf(unit, sizeof(unit), "spare-ublk@%s.service", name);
	snprintf(log, sizeof(log), "%s/%s.log", r->ublk_run, name);
	if (systemd) {
		char *const argv_start[] = { "systemctl", "start", unit, NULL };

		/* Type=notify: returns once /dev/ublkbN is live, or failed. */
		if (run(argv_start)) {
			log_err("device %s: systemctl start %s failed (journalctl -u %s "
				"says why); %s removed", name, unit, unit, conf);
			forget(conf, gpath);
			return 1;
		}
	} else {
		if (spare_mkdir_p(r->ublk_run, 0755)) {
			log_err("device %s: %s: %s", name, r->ublk_run, strerror(errno));
			forget(conf, gpath);
			return 1;
		}
		child = fork();
		if (child < 0) {
			log_err("device %s: fork: %s", name, strerror(errno));
			forget(conf, gpath);
			return 1;
		}
		if (!child) {
			int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
			int nfd = open("/dev/null", O_RDONLY | O_CLOEXEC);

			setsid();
			if (chdir("/"))
				_exit(127);
			if (lfd >= 0) {
				dup2(lfd, 1);
				dup2(lfd, 2);
			}
			if (nfd >= 0)
				dup2(nfd, 0);
			execlp(p->bin, p->bin, "--config", conf, (char *)NULL);
			dprintf(2, "sparectl: cannot run %s: %s\n", p->bin, strerror(errno));
			_exit(127);
		}
	}
	/* Up once its counters file names the disk. */
	for (waited = 0; waited < START_WAIT_MS; waited += 100) {
		int st;

		if (!dev_read(r, name, &d, why, sizeof(why)) && d.ublk && d.power &&
		    d.disk[0]) {
			snprintf(disk, disklen, "%s", d.disk);
			return 0;
		}
		if (child > 0 && waitpid(child, &st, WNOHANG) == child) {
			log_err("device %s: spare-ublk exited (%s %d) before its device "
				"was up; %s removed. Its log, %s:", name,
				WIFEXITED(st) ? "status" : "signal",
				WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), conf, log);
			print_log_tail(log);
			forget(conf, gpath);
			return 1;
		}
		if (systemd && waited >= 10000)
			break;
		sleep_ms(100);
	}
	log_err("device %s: spare-ublk did not bring its device up in %u s; stopping it",
		name, waited / 1000);
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
		print_log_tail(log);
	} else {
		char *const argv_stop[] = { "systemctl", "stop", unit, NULL };

		run(argv_stop);
	}
	forget(conf, gpath);
	return 1;
}

/* Is @pid a spare-ublk process? Its /proc comm says. */
static bool is_pager(long pid, char *comm, size_t commlen)
{
	char cpath[64];
	FILE *f;

	comm[0] = 0;
	snprintf(cpath, sizeof(cpath), "/proc/%ld/comm", pid);
	f = fopen(cpath, "re");
	if (f) {
		if (!fgets(comm, (int)commlen, f))
			comm[0] = 0;
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = 0;
	return !strcmp(comm, "spare-ublk");
}

int ublk_device_destroy(const struct dev_roots *r, const struct ublk_paths *p,
			const char *name, const char *disk, long pid, int power)
{
	char conf[512], path[512], unit[128], comm[32] = "";
	char *const argv_active[] = { "systemctl", "is-active", "--quiet", unit, NULL };
	char *const argv_stop[] = { "systemctl", "stop", unit, NULL };
	unsigned int waited;

	snprintf(unit, sizeof(unit), "spare-ublk@%s.service", name);
	snprintf(conf, sizeof(conf), "%s/ublk-%s.conf", p->conf_dir, name);
	snprintf(path, sizeof(path), "%s/%s", r->ublk_run, name);
	if (power && disk[0]) {
		char dev[64];
		int fd;

		/* As the module refuses to power off a device in use. */
		snprintf(dev, sizeof(dev), "/dev/%s", disk);
		fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd < 0 && errno == EBUSY) {
			log_err("device %s: %s is in use (swapped on or mounted): "
				"swapoff or close it first", name, dev);
			return 1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (power && sd_booted() > 0 && run_quiet(argv_active) == 0) {
		if (run(argv_stop)) {
			log_err("device %s: systemctl stop %s failed", name, unit);
			return 1;
		}
	} else if (power) {
		if (!is_pager(pid, comm, sizeof(comm))) {
			log_err("device %s: process %ld is not spare-ublk (%s): not signalled",
				name, pid, comm[0] ? comm : "gone");
			return 1;
		}
		if (kill((pid_t)pid, SIGTERM)) {
			log_err("device %s: kill %ld: %s", name, pid, strerror(errno));
			return 1;
		}
	}
	/* A clean stop removes the counters file; the pager's pid goes too. */
	for (waited = 0; power && waited < STOP_WAIT_MS; waited += 100) {
		if (access(path, F_OK) && !dev_pid_running(pid))
			break;
		sleep_ms(100);
	}
	if (power && waited >= STOP_WAIT_MS) {
		log_err("device %s: spare-ublk (pid %ld) still running after %u s",
			name, pid, STOP_WAIT_MS / 1000);
		return 1;
	}
	if (unlink(path) && errno != ENOENT)	/* left by a pager that died */
		log_warn("device %s: %s: %s", name, path, strerror(errno));
	if (unlink(conf) && errno != ENOENT)
		log_warn("device %s: %s: %s", name, conf, strerror(errno));
	/* placed by a broker: its grants, and the move marks beside them */
	for (unsigned int k = 0; k < 3; k++) {
		static const char *const ext[3] = { "grants", "marks", "giveback" };

		snprintf(conf, sizeof(conf), "%s/ublk-%s.%s", p->conf_dir, name, ext[k]);
		if (unlink(conf) && errno != ENOENT)
			log_warn("device %s: %s: %s", name, conf, strerror(errno));
	}
	return 0;
}

#define RENEW_MAX_GRANTS	1024	/* spare-ublk's UBLK_MAX_GRANTS */
#define RENEW_MAX_DONORS	8

/* A broker-placed device's grants file, as the pager reads it. */
struct grants_read {
	char			path[512];
	struct spare_grant	*g;	/* RENEW_MAX_GRANTS */
	uint32_t		n;	/* kept: the placement, then live renewals */
	char			addr[RENEW_MAX_DONORS][SPARE_GRANT_ADDR_LEN];
	uint32_t		count[RENEW_MAX_DONORS];	/* copies placed there */
	uint32_t		nd;
	/* what each kept grant allows: its donor (index in addr), slabs,
	 * expiry and lease */
	struct grant_room {
		uint64_t	expiry, lease;
		uint32_t	slabs, donor;
		bool		marked;	/* the broker asked it off the pool */
	} *room;			/* n of them */
	/* copies the pager is asked to give back on each donor (marks), and
	 * the copies the grants left there cover (what it may keep) */
	uint32_t		giveback[RENEW_MAX_DONORS];
	uint32_t		keep[RENEW_MAX_DONORS];
	uint32_t		marked_now;	/* grants marked by this round */
};

/*
 * Donor @addr's index in @gr, named there if new. -1 (logged) when
 * @gr names RENEW_MAX_DONORS already.
 */
static int gr_donor(const char *name, struct grants_read *gr, const char *addr)
{
	uint32_t k;

	for (k = 0; k < gr->nd; k++)
		if (!strncmp(gr->addr[k], addr, sizeof(gr->addr[k])))
			return (int)k;
	if (gr->nd == RENEW_MAX_DONORS) {
		log_err("device %s: %s: grants on more than %u donors", name, addr,
			RENEW_MAX_DONORS);
		return -1;
	}
	snprintf(gr->addr[gr->nd], sizeof(gr->addr[0]), "%s", addr);
	return (int)gr->nd++;
}

/*
 * Each donor's copies as the pager's slab map has them now. A copy on a
 * donor no kept grant names (its last renewal expired) names it: it is
 * renewed as the others are. -1 (logged): more donors than fit.
 */
static int live_counts(const char *name, struct grants_read *gr,
		       const struct dev_slab_copy *live, unsigned int nlive)
{
	unsigned int i;
	int k;

	memset(gr->count, 0, sizeof(gr->count));
	for (i = 0; i < nlive; i++) {
		k = gr_donor(name, gr, live[i].address);
		if (k < 0)
			return -1;
		gr->count[k]++;
	}
	return 0;
}

static void grants_read_free(struct grants_read *gr)
{
	if (gr->g)
		sodium_memzero(gr->g, RENEW_MAX_GRANTS * sizeof(*gr->g));
	free(gr->g);
	free(gr->room);
	gr->g = NULL;
	gr->room = NULL;
}

/* a grant sent back must end this much later than a lease ago: the
 * broker refuses one that ended a lease ago (-ETIME) by its own clock */
#define REISSUE_MARGIN_S	5

/*
 * Can a grant ending at @expiry after a lease of @lease s still be sent
 * back at @now (RENEW_GRANT)? Until its expiry plus its lease: the broker
 * re-issues it until then (Documentation/broker.md, "Lapsed grants").
 */
static bool grant_renewable(uint64_t expiry, uint64_t lease, uint64_t now)
{
	return expiry + lease > now + REISSUE_MARGIN_S;
}

/*
 * Read device @name's grants file into @gr: its first @placed grants place
 * the device (one slab copy each: the donors and their counts), later ones
 * are renewals, kept at @now until a lease after they end (they can be
 * sent back until then: grant_renewable()); a donor only a kept renewal
 * names (one a move added) is a donor of the device too. With the pager's
 * slab map (@live, @nlive copies; NULL: none) each donor's count is the
 * copies it holds now instead: copies move. 0, or -1 (logged; @gr freed).
 */
static int grants_read_at(const char *path, const char *name, uint32_t placed,
			  const struct dev_slab_copy *live, unsigned int nlive,
			  uint64_t now, bool missing_ok, struct grants_read *gr)
{
	uint32_t i, nread = 0;
	char why[96];

	memset(gr, 0, sizeof(*gr));
	snprintf(gr->path, sizeof(gr->path), "%s", path);
	gr->g = calloc(RENEW_MAX_GRANTS, sizeof(*gr->g));
	gr->room = calloc(RENEW_MAX_GRANTS, sizeof(*gr->room));
	if (!gr->g || !gr->room) {
		log_err("out of memory");
		grants_read_free(gr);
		return -1;
	}
	if (missing_ok && access(gr->path, F_OK) && errno == ENOENT) {
		nread = 0;	/* none kept (yet): the room is asked for */
	} else if (spare_grant_file_read(gr->path, gr->g, RENEW_MAX_GRANTS, &nread, why,
					 sizeof(why))) {
		log_err("device %s: %s: %s%s", name, gr->path, why,
			access(gr->path, F_OK) ? " (a spare-ublk device placed by a broker has one)" : "");
		goto fail;
	}
	for (i = 0; i < nread; i++) {
		struct spare_grant_info gi;
		uint64_t lease;
		int k;

		spare_grant_decode(&gr->g[i], &gi);	/* decoded once already */
		lease = gi.expiry > gi.not_before ? gi.expiry - gi.not_before : 0;
		if (i >= placed && !grant_renewable(gi.expiry, lease, now))
			continue;	/* lapsed more than a lease ago: dropped */
		/* the placement's donors, then any a kept renewal names (a
		 * donor added by a move, monitor_ublk_moves()) */
		k = gr_donor(name, gr, gi.donor_addr);
		if (k < 0)
			goto fail;
		if (i < placed)
			gr->count[k]++;
		gr->room[gr->n] = (struct grant_room){
			.expiry = gi.expiry, .slabs = gi.slabs, .donor = (uint32_t)k,
			.lease = lease,
		};
		gr->g[gr->n++] = gr->g[i];	/* n <= i */
	}
	if (gr->n < placed) {
		log_err("device %s: %s holds %u grants, the device has %u slab copies", name,
			gr->path, gr->n, placed);
		goto fail;
	}
	if (live && live_counts(name, gr, live, nlive))
		goto fail;
	return 0;
fail:
	grants_read_free(gr);
	return -1;
}

/*
 * The file beside device @name's grants file (@gr->path, ".grants") whose
 * name ends in @ext instead, into @path.
 */
static void beside_grants(const struct grants_read *gr, const char *ext, char *path,
			  size_t len)
{
	size_t n = strlen(gr->path);

	if (n > 7 && !strcmp(gr->path + n - 7, ".grants"))
		n -= 7;
	snprintf(path, len, "%.*s%s", (int)n, gr->path, ext);
}

/*
 * The broker's marks kept for @gr's grants (NAME.marks: one grant id a
 * line, 32 hex digits): each kept grant whose id is there is marked. A
 * missing file marks none; a line that is not an id is skipped (the file
 * is sparectl's own, rewritten each renewal).
 */
static void marks_read(const char *name, struct grants_read *gr)
{
	char path[560], line[80];
	FILE *f;

	beside_grants(gr, ".marks", path, sizeof(path));
	f = fopen(path, "re");
	if (!f) {
		if (errno != ENOENT)
			log_warn("device %s: %s: %s; no grant counts as marked", name, path,
				 strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		uint8_t id[SPARE_GRANT_ID_LEN];
		unsigned int b, j;

		for (j = 0; j < SPARE_GRANT_ID_LEN && sscanf(line + 2 * j, "%2x", &b) == 1; j++)
			id[j] = (uint8_t)b;
		if (j < SPARE_GRANT_ID_LEN)
			continue;
		for (uint32_t i = 0; i < gr->n; i++)
			if (!memcmp(gr->g[i].grant_id, id, sizeof(id)))
				gr->room[i].marked = true;
	}
	fclose(f);
}

/*
 * @gr's marks (NAME.marks) and, for a pager (@files 2), the copies it is
 * asked to give back on each donor (NAME.giveback: "ADDR COUNT KEEP"
 * lines, one per donor asked: COUNT beyond the KEEP copies its unmarked
 * grants cover; a pager gives back what it holds there beyond KEEP, so
 * that a count read off a map that has not caught up with a copy given
 * back already asks nothing twice; one before session 49 reads COUNT
 * alone), written whole or not at all. spare.ko (@files 1)
 * is told through configfs instead. 0, or -1 (logged).
 */
static int marks_write(const char *name, const struct grants_read *gr, unsigned int files)
{
	static const char *const ext[2] = { ".marks", ".giveback" };

	for (unsigned int w = 0; w < files && w < 2; w++) {
		char path[560], tmp[600];
		FILE *f;

		beside_grants(gr, ext[w], path, sizeof(path));
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		f = open_private(name, tmp);
		if (!f)
			return -1;
		for (uint32_t i = 0; !w && i < gr->n; i++) {
			if (!gr->room[i].marked)
				continue;
			for (unsigned int j = 0; j < SPARE_GRANT_ID_LEN; j++)
				fprintf(f, "%02x", gr->g[i].grant_id[j]);
			fputc('\n', f);
		}
		for (uint32_t k = 0; w && k < gr->nd; k++)
			if (gr->giveback[k])
				fprintf(f, "%s %u %u\n", gr->addr[k], gr->giveback[k],
					gr->keep[k]);
		if (ferror(f) | fclose(f) || rename(tmp, path)) {
			log_err("device %s: %s: %s", name, path, strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	return 0;
}

static int grants_read(const struct ublk_paths *p, const char *name, uint32_t placed,
		       const struct dev_slab_copy *live, unsigned int nlive,
		       uint64_t now, struct grants_read *gr)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/ublk-%s.grants", p->conf_dir, name);
	if (grants_read_at(path, name, placed, live, nlive, now, false, gr))
		return -1;
	marks_read(name, gr);
	return 0;
}

static int later_first(const void *a, const void *b)
{
	const struct grant_room *x = a, *y = b;

	return x->expiry < y->expiry ? 1 : x->expiry > y->expiry ? -1 : 0;
}

/*
 * Until when donor @k's unexpired grants together (the donor's budget for
 * this client: spared_grant_budget()) cover @need slabs: taking them
 * latest-ending first, the expiry of the one at which they reach it, with
 * that grant's lease in @lease; @now (lease 0) if they never do.
 */
static uint64_t covered_until(const struct grants_read *gr, uint32_t k, uint64_t need,
			      uint64_t now, uint64_t *lease)
{
	struct grant_room *v = calloc(gr->n ? gr->n : 1, sizeof(*v));
	uint64_t sum = 0, until = now;
	uint32_t i, m = 0;

	*lease = 0;
	if (!v)
		return now;	/* renew: the safe side */
	for (i = 0; i < gr->n; i++)
		if (gr->room[i].donor == k && gr->room[i].expiry > now)
			v[m++] = gr->room[i];
	qsort(v, m, sizeof(*v), later_first);
	for (i = 0; i < m && sum < need; i++) {
		sum += v[i].slabs;
		if (sum >= need) {
			until = v[i].expiry;
			*lease = v[i].lease;
		}
	}
	free(v);
	return until;
}

int ublk_grants_due(const struct ublk_paths *p, const char *name, uint32_t placed,
		    const struct dev_slab_copy *live, unsigned int nlive,
		    uint32_t standby, uint64_t before, uint64_t now, uint64_t *due)
{
	struct grants_read gr;
	uint32_t k;

	if (grants_read(p, name, placed, live, nlive, now, &gr))
		return -1;
	*due = UINT64_MAX;
	for (k = 0; k < gr.nd; k++) {
		uint64_t lease, until, margin, at;

		if (!(gr.count[k] + standby))
			continue;	/* its copies all moved away: it needs nothing */
		until = covered_until(&gr, k, gr.count[k] + standby, now, &lease);
		margin = before ? before : lease / 3;
		at = until > now + margin ? until - margin : now;

		if (at < *due)
			*due = at;
	}
	grants_read_free(&gr);
	return 0;
}

/*
 * @gr's grants written back as the device's grants file, and its pager
 * (@pid, checked to be spare-ublk) told to read them again (SIGHUP). The
 * exit status (logged).
 */
static int grants_commit(const char *name, const struct grants_read *gr, long pid)
{
	char comm[32];

	if (write_grants(name, gr->path, gr->g, gr->n))
		return 1;
	if (!is_pager(pid, comm, sizeof(comm))) {
		log_err("device %s: process %ld is not spare-ublk (%s): the new grants wait in "
			"%s for its next start", name, pid, comm[0] ? comm : "gone", gr->path);
		return 1;
	}
	if (kill((pid_t)pid, SIGHUP)) {
		log_err("device %s: kill -HUP %ld: %s", name, pid, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * Which of donor @k's grants in @gr that ended less than a lease ago are
 * sent back, into @idx (their count returned): every grant not marked
 * to move, and marked ones only while the unmarked ones do not cover the
 * copies there (a mark is a request: a copy the pager keeps keeps its
 * grant).
 */
static uint32_t reissue_pick(const struct grants_read *gr, uint32_t k, uint64_t now,
			     uint32_t *idx)
{
	uint64_t cover = 0;
	uint32_t i, m = 0;

	for (i = 0; i < gr->n; i++)
		if (gr->room[i].donor == k && !gr->room[i].marked &&
		    grant_renewable(gr->room[i].expiry, gr->room[i].lease, now)) {
			idx[m++] = i;
			cover += gr->room[i].slabs;
		}
	for (i = 0; i < gr->n && cover < gr->count[k]; i++)
		if (gr->room[i].donor == k && gr->room[i].marked &&
		    grant_renewable(gr->room[i].expiry, gr->room[i].lease, now)) {
			idx[m++] = i;
			cover += gr->room[i].slabs;
		}
	return m;
}

/*
 * The copies on donor @k the broker's marks ask back: none while no grant
 * of @k is marked (copies beyond the grants, e.g. moved in on an EVICT,
 * are room to ask for, not a mark); else those beyond what its unmarked
 * unexpired grants and the room just granted for copies (@granted) cover
 * (*@keep: those covered).
 */
static uint32_t giveback_of(const struct grants_read *gr, uint32_t k, uint64_t now,
			    uint64_t granted, uint32_t *keep)
{
	uint64_t cover = granted;
	bool marked = false;

	for (uint32_t i = 0; i < gr->n; i++) {
		if (gr->room[i].donor != k)
			continue;
		if (gr->room[i].marked)
			marked = true;
		else if (gr->room[i].expiry > now)
			cover += gr->room[i].slabs;
	}
	*keep = cover < UINT32_MAX ? (uint32_t)cover : UINT32_MAX;
	return marked && gr->count[k] > cover ? (uint32_t)(gr->count[k] - cover) : 0;
}

/*
 * Donor @k's grants in @gr that ended less than a lease ago (reissue_pick())
 * re-issued through @reissue and rewritten in place, the broker's marks
 * noted (*@marked grants of *@mslabs slabs marked now); the slabs they
 * cover, in *@covered. 0, or -1 (logged; @gr's grants as they were).
 */
static int reissue_donor(const char *name, struct grants_read *gr, uint32_t k, uint64_t now,
			 ublk_renew_reissue reissue, void *ctx, uint64_t *covered,
			 uint32_t *marked, uint32_t *mslabs)
{
	struct spare_grant *old = NULL, *out = NULL;
	uint32_t *idx = calloc(gr->n ? gr->n : 1, sizeof(*idx));
	uint32_t i, m = 0;
	bool *move = NULL;
	int ret = -1;

	*covered = 0;
	*marked = *mslabs = 0;
	if (!idx)
		goto oom;
	m = reissue_pick(gr, k, now, idx);
	if (!m) {
		free(idx);
		return 0;
	}
	old = calloc(m, sizeof(*old));
	out = calloc(m, sizeof(*out));
	move = calloc(m, sizeof(*move));
	if (!old || !out || !move)
		goto oom;
	for (i = 0; i < m; i++)
		old[i] = gr->g[idx[i]];
	if (reissue(ctx, old, m, out, move))
		goto out;
	for (i = 0; i < m; i++) {
		struct spare_grant_info was, gi;

		/* the broker's answer: the same grant, a new expiry (brokerask
		 * checked; a shorter lease may end it earlier: the donor keeps
		 * the later one, the file the broker's) */
		if (spare_grant_decode(&old[i], &was) || spare_grant_decode(&out[i], &gi) ||
		    memcmp(was.id, gi.id, sizeof(gi.id)) || was.slabs != gi.slabs ||
		    strcmp(was.donor_addr, gi.donor_addr)) {
			log_err("device %s: renewal %u of %u for %s is not the grant sent back",
				name, i, m, gr->addr[k]);
			goto out;
		}
	}
	for (i = 0; i < m; i++) {
		struct spare_grant_info gi;

		spare_grant_decode(&out[i], &gi);
		gr->g[idx[i]] = out[i];
		gr->room[idx[i]].expiry = gi.expiry;
		gr->room[idx[i]].lease = gi.expiry > gi.not_before ? gi.expiry - gi.not_before : 0;
		if (move[i] && !gr->room[idx[i]].marked) {
			gr->room[idx[i]].marked = true;
			(*marked)++;
			*mslabs += gi.slabs;
		}
		*covered += gi.slabs;
	}
	gr->marked_now += *marked;
	ret = 0;
	goto out;
oom:
	log_err("out of memory");
out:
	if (old)
		sodium_memzero(old, m * sizeof(*old));
	if (out)
		sodium_memzero(out, m * sizeof(*out));
	free(old);
	free(out);
	free(move);
	free(idx);
	return ret;
}

/*
 * Donor @k of @gr covered for @need slabs: with @reissue, its grants that
 * ended less than a lease ago re-issued in place (RENEW_GRANT); the room
 * they leave short asked of @ask (ROOM_REQ), one grant appended. The one
 * renewal of both back-ends: spare-ublk's grants file, spare.ko's kept
 * grants (kmod_grants_renew()). 0; 1 when the room was refused (@ask
 * reported it; the re-issued grants stand, and the round goes on); or -1
 * (logged).
 */
static int renew_donor_grants(const char *name, struct grants_read *gr, uint32_t k,
			      uint64_t need, uint64_t now, ublk_renew_ask ask,
			      ublk_renew_reissue reissue, void *ctx)
{
	uint64_t covered = 0, granted = 0;
	uint32_t marked = 0, mslabs = 0;
	int ret = 0;

	if (reissue && reissue_donor(name, gr, k, now, reissue, ctx, &covered, &marked, &mslabs))
		return -1;
	if (covered < need && gr->n == RENEW_MAX_GRANTS) {
		log_err("device %s: %s is full", name, gr->path);
		return -1;
	}
	if (covered < need && ask(ctx, gr->addr[k], (uint32_t)(need - covered), &gr->g[gr->n])) {
		ret = 1;
	} else if (covered < need) {
		gr->n++;
		/* the room asked covers the copies first, then the standby */
		granted = gr->count[k] > covered ? gr->count[k] - covered : 0;
	}
	gr->giveback[k] = giveback_of(gr, k, now, granted, &gr->keep[k]);
	if (marked)
		log_info("device %s: the broker marks %u grant(s) on %s (%u slab(s)) to move off "
			 "the pool; %u cop%s there beyond the unmarked grants, asked of the device",
			 name, marked, gr->addr[k], mslabs, gr->giveback[k],
			 gr->giveback[k] == 1 ? "y" : "ies");
	return ret;
}

int ublk_device_renew_grants(const struct ublk_paths *p, const char *name, long pid,
			     uint32_t placed, const struct dev_slab_copy *live,
			     unsigned int nlive, uint32_t standby, ublk_renew_ask ask,
			     ublk_renew_reissue reissue, void *ctx, uint32_t *renewed)
{
	uint64_t now = (uint64_t)time(NULL);
	struct grants_read gr;
	uint32_t k, short_of = 0;
	int ret = 1, r;

	*renewed = 0;
	if (grants_read(p, name, placed, live, nlive, now, &gr))
		return 1;
	for (k = 0; k < gr.nd; k++) {
		uint64_t need = (uint64_t)gr.count[k] + standby;

		if (!need)
			continue;	/* its copies all moved away: nothing to ask */
		r = renew_donor_grants(name, &gr, k, need, now, ask, reissue, ctx);
		if (r < 0)
			goto out;
		short_of += r;	/* a refused room: the other donors still renewed */
		*renewed += gr.count[k];
	}
	if (marks_write(name, &gr, 2))
		goto out;
	ret = grants_commit(name, &gr, pid);
	if (!ret && short_of)
		ret = 1;
out:
	grants_read_free(&gr);
	return ret;
}

int ublk_device_renew(const struct ublk_paths *p, const char *name, long pid,
		      uint32_t placed, const struct dev_slab_copy *live, unsigned int nlive,
		      uint32_t standby, ublk_renew_ask ask, void *ctx, uint32_t *renewed)
{
	return ublk_device_renew_grants(p, name, pid, placed, live, nlive, standby, ask, NULL,
					ctx, renewed);
}

int ublk_device_donors(const struct ublk_paths *p, const char *name, uint32_t placed,
		       const struct dev_slab_copy *live, unsigned int nlive,
		       char (*addr)[SPARE_GRANT_ADDR_LEN], unsigned int max, unsigned int *n)
{
	struct grants_read gr;

	*n = 0;
	if (grants_read(p, name, placed, live, nlive, (uint64_t)time(NULL), &gr))
		return -1;
	for (; *n < gr.nd && *n < max; (*n)++)
		memcpy(addr[*n], gr.addr[*n], sizeof(addr[0]));
	grants_read_free(&gr);
	return 0;
}

int ublk_device_add_grant(const struct ublk_paths *p, const char *name, long pid,
			  uint32_t placed, const struct spare_grant *g)
{
	struct grants_read gr;
	int ret = 1;

	if (grants_read(p, name, placed, NULL, 0, (uint64_t)time(NULL), &gr))
		return 1;
	if (gr.n == RENEW_MAX_GRANTS)
		log_err("device %s: %s is full", name, gr.path);
	else {
		gr.g[gr.n++] = *g;
		ret = grants_commit(name, &gr, pid);
	}
	grants_read_free(&gr);
	return ret;
}

/* ---- spare.ko devices: the grants sparectl keeps for them ---- */

/* Device @name's kept grants file under @dir, into @path. */
static void kmod_grants_path(const char *dir, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s.grants", dir, name);
}

/* @dir made (mode 0700) if it is missing. 0, or -1 (logged). */
static int kmod_grants_dir(const char *dir, const char *name)
{
	if (!mkdir(dir, 0700) || errno == EEXIST)
		return 0;
	log_err("device %s: mkdir %s: %s", name, dir, strerror(errno));
	return -1;
}

int kmod_grants_save(const char *dir, const char *name, const struct spare_grant *g, size_t n)
{
	char path[512];

	kmod_grants_path(dir, name, path, sizeof(path));
	if (kmod_grants_dir(dir, name))
		return -1;
	return write_grants_as(name, path, g, n, "spare.ko");
}

void kmod_grants_forget(const char *dir, const char *name)
{
	char path[512];

	/* the grants, and the broker's marks kept beside them */
	for (unsigned int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s.%s", dir, name, k ? "marks" : "grants");
		if (unlink(path) && errno != ENOENT)
			log_warn("device %s: %s: %s", name, path, strerror(errno));
	}
}

int kmod_grants_renew(const char *dir, const char *name, const char *addr, uint32_t copies,
		      uint32_t need, ublk_renew_ask ask, ublk_renew_reissue reissue, void *ctx,
		      kmod_grant_put put, void *pctx, struct spare_grant *newest,
		      uint32_t *giveback)
{
	uint64_t now = (uint64_t)time(NULL), until = 0;
	struct spare_grant *was = NULL;
	struct grants_read gr;
	uint32_t i, n0 = 0;
	char path[512];
	int k, short_of = 0, ret = -1;

	memset(newest, 0, sizeof(*newest));
	*giveback = 0;

	kmod_grants_path(dir, name, path, sizeof(path));
	if (access(path, F_OK) && errno == ENOENT)
		log_info("device %s: no kept grants in %s (a device made by an older sparectl, "
			 "or the file removed): asking for fresh ones", name, path);
	/* every grant kept is a renewal: kept until a lease after it ends */
	if (grants_read_at(path, name, 0, NULL, 0, now, true, &gr))
		return -1;
	marks_read(name, &gr);
	k = gr_donor(name, &gr, addr);
	if (k >= 0)
		gr.count[k] = copies;	/* a marked grant is renewed while they need it */
	n0 = gr.n;
	was = calloc(n0 ? n0 : 1, sizeof(*was));
	if (k < 0 || !was) {
		if (!was)
			log_err("out of memory");
		goto out;
	}
	memcpy(was, gr.g, n0 * sizeof(*was));
	short_of = renew_donor_grants(name, &gr, (uint32_t)k, need, now, ask, reissue, ctx);
	if (short_of < 0)
		goto out;
	/* the file first: what the broker renewed is kept even if the kernel
	 * then refuses a grant */
	if (kmod_grants_dir(dir, name) || write_grants_as(name, path, gr.g, gr.n, "spare.ko") ||
	    marks_write(name, &gr, 1))
		goto out;
	*giveback = gr.giveback[k];
	for (i = 0; i < gr.n; i++) {
		if (gr.room[i].donor == (uint32_t)k || i >= n0) {
			struct spare_grant_info gi;

			if (!spare_grant_decode(&gr.g[i], &gi) && gi.expiry > until) {
				until = gi.expiry;
				*newest = gr.g[i];
			}
		}
		if (i < n0 && !memcmp(&was[i], &gr.g[i], sizeof(was[i])))
			continue;	/* the kernel holds it as it is */
		if (put(pctx, &gr.g[i], addr))
			goto out;
	}
	ret = short_of;
out:
	if (was)
		sodium_memzero(was, n0 * sizeof(*was));
	free(was);
	grants_read_free(&gr);
	return ret;
}
