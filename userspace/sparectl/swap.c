// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl swap start|stop NAME: a spare device as swap, made from the
 * declarative config /etc/spare/swap-NAME.conf (spare-swap.conf(5)); what
 * spare-swap@NAME.service runs at boot and at shutdown.
 *
 * start: the config read (libinih, spare_conf.h), the device created as
 * `device create` would, mkswap, swapon at the configured priority. Any
 * failure after the device exists destroys it again: nothing half made.
 * stop: swapoff (it returns once every swapped page is back in memory),
 * then the device destroyed. A device still swapped on is never destroyed.
 */
#include <errno.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "cli.h"
#include "devstat.h"
#include "spare_conf.h"
#include "spare_log.h"
#include "spare_util.h"
#include "swap.h"

extern char **environ;

#define SWAP_CONF_FMT		"%s/swap-%s.conf"
#define SWAP_DEFAULT_PRIO	50	/* below zram/zswap (100), above disk */
#define SWAP_MAX_SETTINGS	24

/* The keys of `device create`, the same in the file (spare-swap.conf(5)). */
static const char *const create_keys[] = {
	"size", "slab_size", "replicas", "donors", "placement", "domains", "source",
	"backup", "backup_mode", "integrity", "key-file", "queues",
	"broker", "broker-name", "broker-key", "lease", NULL
};

struct swap_conf {
	char		*argv[SWAP_MAX_SETTINGS + 2];	/* room for --backend= and domains= */
	int		argc;
	bool		ublk;
	long		prio;
};

static const char *swap_conf_set(const char *key, const char *value, void *ctx)
{
	struct swap_conf *sc = ctx;
	unsigned int i;
	size_t kl = strlen(key);
	uint64_t v;
	char *kv;

	if (!strcmp(key, "backend")) {
		if (strcmp(value, "module") && strcmp(value, "ublk"))
			return "module or ublk";
		sc->ublk = !strcmp(value, "ublk");
		return NULL;
	}
	if (!strcmp(key, "swap-priority")) {
		if (spare_parse_u64(value, 0, 32767, &v))
			return "not a priority (0-32767)";
		sc->prio = (long)v;
		return NULL;
	}
	for (i = 0; create_keys[i]; i++)
		if (!strcmp(key, create_keys[i]))
			break;
	if (!create_keys[i])
		return "unknown setting (keys: sparectl device create's, backend=, swap-priority=)";
	for (i = 0; i < (unsigned int)sc->argc; i++)
		if (!strncmp(sc->argv[i], key, kl) && sc->argv[i][kl] == '=')
			return "given twice";
	if (sc->argc >= SWAP_MAX_SETTINGS)
		return "too many settings";
	if (asprintf(&kv, "%s=%s", key, value) < 0)
		return "out of memory";
	sc->argv[sc->argc++] = kv;
	return NULL;
}

static void swap_conf_free(struct swap_conf *sc)
{
	int i;

	for (i = 0; i < sc->argc; i++)
		free(sc->argv[i]);
	sc->argc = 0;
}

/* Run @argv (looked up in PATH) and wait: its exit status, or -1. */
static int spawn_wait(char *const argv[])
{
	pid_t pid;
	int st, err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);

	if (err) {
		log_err("cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * A spare-ublk device's pager, stopped without waiting: spare-swap@NAME is
 * ordered after spare-ublk@NAME, so the pager's stop job runs once this
 * unit's has ended (waiting for it here would wait for ourselves). Its
 * config and grants go now, as `device destroy` removes them; its monitor
 * (ordered after this unit, so its stop does not wait for ours) is stopped
 * first, and waited for, so that no renewal writes the grants file again.
 */
static int ublk_release(struct sparectl *c, const char *name)
{
	char unit[128], path[512], mon[128];
	char *const stop[] = { "systemctl", "stop", "--no-block", unit, NULL };
	char *const stop_mon[] = { "systemctl", "stop", mon, NULL };

	snprintf(mon, sizeof(mon), "sparectl-monitor@%s.service", name);
	if (spawn_wait(stop_mon))
		log_warn("device %s: systemctl stop %s failed", name, mon);
	snprintf(unit, sizeof(unit), "spare-ublk@%s.service", name);
	if (spawn_wait(stop)) {
		log_err("device %s: systemctl stop --no-block %s failed", name, unit);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/ublk-%s.conf", c->ublk.conf_dir, name);
	if (unlink(path) && errno != ENOENT)
		log_warn("device %s: %s: %s", name, path, strerror(errno));
	snprintf(path, sizeof(path), "%s/ublk-%s.grants", c->ublk.conf_dir, name);
	if (unlink(path) && errno != ENOENT)
		log_warn("device %s: %s: %s", name, path, strerror(errno));
	log_info("device %s: %s stops after this unit", name, unit);
	return 0;
}

/*
 * Device @name destroyed: a spare-ublk device's pager released without
 * waiting when this runs in a unit (spare-swap@NAME), else `device destroy`.
 */
static int destroy(struct sparectl *c, const char *name)
{
	char why[256];
	struct dev_info d;

	if (!dev_read(&c->roots, name, &d, why, sizeof(why)) && d.ublk && d.power &&
	    sd_booted() > 0 && getenv("INVOCATION_ID"))
		return ublk_release(c, name);
	c->json = false;
	return device_destroy(c, name);
}

static int swap_start(struct sparectl *c, const char *name, const char *conf)
{
	struct swap_conf sc = { .prio = SWAP_DEFAULT_PRIO };
	char path[512], dev[64], why[256];
	struct dev_info d;
	int ret;

	if (!conf) {
		snprintf(path, sizeof(path), SWAP_CONF_FMT, c->ublk.conf_dir, name);
		conf = path;
	}
	if (spare_conf_parse_file(conf, 0, swap_conf_set, &sc)) {
		swap_conf_free(&sc);
		return EXIT_USAGE;	/* said why: "<file>:<line>: <key>: <reason>" */
	}
	if (!sc.argc) {
		log_err("%s: no settings (size=, and donors= or broker=: spare-swap.conf(5))", conf);
		return EXIT_USAGE;
	}
	if (sc.ublk) {
		memmove(&sc.argv[1], &sc.argv[0], (size_t)sc.argc * sizeof(sc.argv[0]));
		sc.argv[0] = strdup("--backend=ublk");
		sc.argc++;
		if (!sc.argv[0]) {
			swap_conf_free(&sc);
			log_err("out of memory");
			return 1;
		}
	}
	/* device create shifts and adds entries in place: hand it a copy */
	{
		char *args[SWAP_MAX_SETTINGS + 2];

		memcpy(args, sc.argv, sizeof(args));
		c->json = false;
		ret = device_create(c, name, sc.argc, args);
	}
	swap_conf_free(&sc);
	if (ret)
		return ret;
	if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
		log_err("device %s: created, but %s", name, why);
		goto undo;
	}
	if (!d.disk[0]) {
		log_err("device %s: created, but it has no disk", name);
		goto undo;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", d.disk);
	{
		char *const mkswap[] = { "mkswap", dev, NULL };

		if (spawn_wait(mkswap)) {
			log_err("device %s: mkswap %s failed; destroying the device", name, dev);
			goto undo;
		}
	}
	if (swapon(dev, SWAP_FLAG_PREFER |
		   (((int)sc.prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
		log_err("device %s: swapon %s: %s; destroying the device", name, dev,
			strerror(errno));
		goto undo;
	}
	log_info("device %s: %s swapped on at priority %ld", name, dev, sc.prio);
	return 0;
undo:
	if (destroy(c, name))
		log_err("device %s: could not be destroyed again: destroy it by hand", name);
	return 1;
}

static int swap_stop(struct sparectl *c, const char *name)
{
	char dev[64], why[256];
	struct dev_info d;

	if (dev_read(&c->roots, name, &d, why, sizeof(why))) {
		log_warn("device %s: %s: nothing to stop", name, why);
		return 0;
	}
	/*
	 * swapoff(2) itself says whether it was swapped on (EINVAL if not):
	 * /proc/swaps names a swap by its path in the mount namespace where
	 * swapon ran, which need not be this one's.
	 */
	if (d.disk[0]) {
		snprintf(dev, sizeof(dev), "/dev/%s", d.disk);
		log_info("device %s: swapoff %s (every swapped page is read back first)", name, dev);
		if (!swapoff(dev)) {
			log_info("device %s: %s swapped off", name, dev);
		} else if (errno == EINVAL) {
			log_info("device %s: %s was not swapped on", name, dev);
		} else {
			log_err("device %s: swapoff %s: %s; the device is kept", name, dev,
				strerror(errno));
			return 1;
		}
	}
	return destroy(c, name);
}

int cmd_swap(struct sparectl *c, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL, *conf = NULL;

	if (!sub)
		return usage_error("swap: missing command%s", " (start, stop)");
	if (!strcmp(sub, "start") && argc == 5 && !strcmp(argv[3], "--config"))
		conf = argv[4];
	else if (!strcmp(sub, "start") && argc == 4 && !strncmp(argv[3], "--config=", 9))
		conf = argv[3] + 9;
	else if (argc != 3)
		return usage_error("swap %s: expected NAME [--config FILE]", sub);
	if (!strcmp(sub, "start"))
		return swap_start(c, argv[2], conf);
	if (!strcmp(sub, "stop"))
		return swap_stop(c, argv[2]);
	return usage_error("swap: unknown command '%s' (start, stop)", sub);
}
