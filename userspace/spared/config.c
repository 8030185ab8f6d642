// SPDX-License-Identifier: GPL-2.0
/*
 * spared's settings: one table for the command line, the config file and
 * the defaults. Pure logic, unit-tested in tests/unit/test_spared_config.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "spare_conf.h"
#include "spare_http.h"
#include "spare_log.h"
#include "spare_proto.h"
#include "spare_util.h"

/*
 * Every setting, once: its long option (also its key in spared.conf), its
 * default and its help line.
 */
const struct spare_setting spared_settings[] = {
	{ "listen",	'l', "ADDR",  "address to listen on (default: any IPv4)", "" },
	{ "port",	'p', "PORT",  "rdma_cm port", "18515" },
	{ "budget",	'b', "SIZE",  "memory to lend, e.g. 256M, 8G", "1G" },
	{ "slab-size",	's', "SIZE",  "slab size, a power of two from 1M to 16G", "1G" },
	{ "ctl",	'c', "PATH",  "control socket (default /run/spare/spared-<port>.sock)", "" },
	{ "evict-deadline", 'e', "MS", "time a client has to return an evicted slab", "5000" },
	{ "max-clients", 0,  "N",     "client sessions served at once", "64" },
	{ "max-data-conns", 0, "N",   "DATA connections per client session", "256" },
	{ "hello-timeout", 0, "MS",   "time a new client has to send HELLO", "10000" },
	{ "resume-hold", 0, "SECONDS", "keep the slabs of a client that vanished without giving them back (and asked for it: a restartable spare-ublk) this long, for it to resume; 0: never", "120" },
	{ "host-keys",	0,  "PATH",  "clients' secrets, \"<name> SPARE-1:...\" lines (default: none, open to any host)", "" },
	{ "log-level",	'v', "LEVEL", "err, warn, info or debug", "info" },
	{ "metrics-listen", 'm', "ADDR:PORT", "serve Prometheus /metrics over HTTP here (default: off)", "" },
	{ "brokers",	0,  "HOST:PORT,...", "spare-brokers to register and heartbeat with (default: none)", "" },
	{ "broker-key-file", 0, "PATH", "this donor's \"SPARE-1:...\" secret at the brokers", "" },
	{ "domain",	0,  "LABEL", "failure domain (rack, PDU) reported to the brokers", "default" },
	{ "name",	0,  "NAME",  "this donor's name: at the brokers, in grants, to authenticated clients (default: the host name, cut to 15 characters)", "" },
	{ "grant-public-keys", 0, "PATH", "the brokers' grant public keys, \"<key id> <hex>\" lines: lend only against grants (default: none, no grants needed)", "" },
	{ "grant-key-file", 0, "PATH", "version 1 grant key shared with the brokers, \"SPARE-1:...\" (deprecated: grant-public-keys); lend only against grants", "" },
	{ "grant-key-id", 0, "N",    "the version 1 grant key's id, as the brokers' grant-key-id", "1" },
	{ "grant-v3",	0,  NULL, "take version 3 grants (an HMAC with a key derived from broker-key-file, which only this donor and the brokers hold) and tell the brokers so; needs broker-key-file, and brokers that know the flag (spare-broker with grant-version)", "no" },
	{ "max-grants",	0,  "N",     "with grants: unexpired grants remembered at once", "65536" },
	{ "grant-grace", 0, "SECONDS", "with grants: a lent slab no unexpired grant of its client covers is evicted after this long (a renewal within it cancels)", "300" },
	{ "map-ready",	0,  "N",     "free slabs kept populated (faulted in) ahead of MAPs, in idle time, so that a MAP (a client's move off an evicting donor) only registers one", "2" },
	{ "max-lend",	0,  "SIZE",  "lend what is idle, up to this much (default: off, lend the fixed budget)", "0" },
	{ "min-lend",	0,  "SIZE",  "with max-lend: always lend at least this much", "0" },
	{ "headroom",	0,  "SIZE",  "with max-lend: MemAvailable to keep for this host's jobs", "2G" },
	{ "lend-grow-margin", 0, "SIZE", "with max-lend: lend more only with this much free above the headroom", "0" },
	{ "cgroup",	0,  "PATH",  "with max-lend: the donor jobs' cgroup v2 directory to watch (default: the whole host)", "" },
	{ "lend-interval", 0, "MS",  "with max-lend: how often to look at memory when nothing happens", "1000" },
	{ "lend-idle",	0,  "MS",   "with max-lend: memory idle this long before lending more", "60000" },
	{ "lend-grow-step", 0, "N",  "with max-lend: slabs added per growth step", "1" },
	{ "psi-some",	0,  "PCT",   "with max-lend: PSI some avg10 that means pressure", "10" },
	{ "psi-full",	0,  "PCT",   "with max-lend: PSI full avg10 that means pressure", "2" },
	{ "psi-some-idle", 0, "PCT", "with max-lend: PSI some avg10 below which memory is idle", "1" },
	{ "psi-stall",	0,  "MS",    "with max-lend: PSI trigger: stall time ...", "150" },
	{ "psi-window",	0,  "MS",    "with max-lend: ... within this window", "1000" },
	{ "evict-batch", 0, "N",     "with max-lend: lent slabs evicted per batch (E)", "2" },
	{ "evict-sample-extra", 0, "N", "with max-lend: extra slabs sampled per batch (E')", "2" },
	{ "activity-timeout", 0, "MS", "with max-lend: wait this long for ACTIVITY_REPLY", "200" },
};

const unsigned int spared_nsettings = ARRAY_SIZE(spared_settings);
_Static_assert(ARRAY_SIZE(spared_settings) <= SPARED_MAX_SETTINGS,
	       "raise SPARED_MAX_SETTINGS");

/* A percentage, 0 to 100, decimals allowed. */
static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.0 && v <= 100.0))
		return -1;
	*out = v;
	return 0;
}

const char *spared_config_set(struct spared_config *cfg, const char *key,
			      const char *value)
{
	const char *why;
	uint64_t v;
	int level;

	if (!strcmp(key, "listen")) {
		if (strlen(value) >= sizeof(cfg->listen_addr))
			return "too long";
		strcpy(cfg->listen_addr, value);
	} else if (!strcmp(key, "port")) {
		if (spare_parse_u64(value, 1, 65535, &v))
			return "not a port number (1-65535)";
		cfg->port = (uint16_t)v;
	} else if (!strcmp(key, "budget")) {
		if (spare_parse_size(value, &v) || !v)
			return "not a size (e.g. 256M, 8G)";
		cfg->budget = v;
	} else if (!strcmp(key, "slab-size")) {
		int shift;

		if (spare_parse_size(value, &v))
			return "not a size (e.g. 1M, 1G)";
		shift = spare_ilog2_exact(v);
		if (shift < SPARE_SLAB_SHIFT_MIN || shift > SPARE_SLAB_SHIFT_MAX)
			return "must be a power of two from 1M to 16G";
		cfg->slab_size = v;
		cfg->slab_shift = (unsigned int)shift;
	} else if (!strcmp(key, "ctl")) {
		if (strlen(value) >= sizeof(cfg->ctl_path))
			return "path too long for a unix socket";
		strcpy(cfg->ctl_path, value);
	} else if (!strcmp(key, "evict-deadline")) {
		if (spare_parse_u64(value, 1, 3600000, &v))
			return "not a time in ms (1-3600000)";
		cfg->evict_deadline_ms = (unsigned int)v;
	} else if (!strcmp(key, "max-clients")) {
		if (spare_parse_u64(value, 1, 65536, &v))
			return "not a count (1-65536)";
		cfg->max_clients = (unsigned int)v;
	} else if (!strcmp(key, "max-data-conns")) {
		if (spare_parse_u64(value, 1, 65536, &v))
			return "not a count (1-65536)";
		cfg->max_data_conns = (unsigned int)v;
	} else if (!strcmp(key, "hello-timeout")) {
		if (spare_parse_u64(value, 1, 3600000, &v))
			return "not a time in ms (1-3600000)";
		cfg->hello_timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "resume-hold")) {
		if (spare_parse_u64(value, 0, 86400, &v))
			return "not a time in seconds (0-86400)";
		cfg->resume_hold_s = (unsigned int)v;
	} else if (!strcmp(key, "metrics-listen")) {
		char host[64];
		uint16_t port;

		if (strlen(value) >= sizeof(cfg->metrics_listen))
			return "too long";
		if (value[0] && spare_http_parse_listen(value, host, sizeof(host),
							&port, &why))
			return why;
		strcpy(cfg->metrics_listen, value);
	} else if (!strcmp(key, "host-keys")) {
		if (strlen(value) >= sizeof(cfg->host_keys))
			return "path too long";
		strcpy(cfg->host_keys, value);
	} else if (!strcmp(key, "brokers")) {	/* checked by broker_link at start */
		if (strlen(value) >= sizeof(cfg->brokers))
			return "too long";
		strcpy(cfg->brokers, value);
	} else if (!strcmp(key, "broker-key-file")) {
		if (strlen(value) >= sizeof(cfg->broker_key_file))
			return "path too long";
		strcpy(cfg->broker_key_file, value);
	} else if (!strcmp(key, "name")) {
		if (strlen(value) >= sizeof(cfg->name) || strpbrk(value, " \t"))
			return "a name of at most 15 characters without blanks";
		strcpy(cfg->name, value);
	} else if (!strcmp(key, "grant-public-keys")) {
		if (strlen(value) >= sizeof(cfg->grant_public_keys))
			return "path too long";
		strcpy(cfg->grant_public_keys, value);
	} else if (!strcmp(key, "grant-key-file")) {
		if (strlen(value) >= sizeof(cfg->grant_key_file))
			return "path too long";
		strcpy(cfg->grant_key_file, value);
	} else if (!strcmp(key, "grant-key-id")) {
		if (spare_parse_u64(value, 0, UINT32_MAX, &v))
			return "not a key id (0-4294967295)";
		cfg->grant_key_id = (uint32_t)v;
	} else if (!strcmp(key, "grant-v3")) {
		why = spare_conf_bool(value, &cfg->grant_v3);
		if (why)
			return why;
	} else if (!strcmp(key, "max-grants")) {
		if (spare_parse_u64(value, 1, 1 << 24, &v))
			return "not a count (1-16777216)";
		cfg->max_grants = (unsigned int)v;
	} else if (!strcmp(key, "grant-grace")) {
		if (spare_parse_u64(value, 0, 86400, &v))
			return "not a time in seconds (0-86400)";
		cfg->grant_grace_s = (unsigned int)v;
	} else if (!strcmp(key, "domain")) {
		if (!value[0] || strlen(value) >= sizeof(cfg->domain) || strpbrk(value, " \t"))
			return "a label of 1-31 characters without blanks";
		strcpy(cfg->domain, value);
	} else if (!strcmp(key, "max-lend") || !strcmp(key, "min-lend") ||
		   !strcmp(key, "headroom") || !strcmp(key, "lend-grow-margin")) {
		if (spare_parse_size(value, &v))
			return "not a size (e.g. 0, 256M, 8G)";
		if (key[0] == 'l')
			cfg->lend_grow_margin = v;
		else if (key[0] == 'h')
			cfg->headroom = v;
		else if (key[1] == 'a')
			cfg->max_lend = v;
		else
			cfg->min_lend = v;
	} else if (!strcmp(key, "cgroup")) {
		if (strlen(value) >= sizeof(cfg->cgroup) - 32)
			return "path too long";
		strcpy(cfg->cgroup, value);
	} else if (!strcmp(key, "psi-some") || !strcmp(key, "psi-full") ||
		   !strcmp(key, "psi-some-idle")) {
		double pct;

		if (parse_pct(value, &pct))
			return "not a percentage (0-100)";
		if (!strcmp(key, "psi-some"))
			cfg->psi_some = pct;
		else if (!strcmp(key, "psi-full"))
			cfg->psi_full = pct;
		else
			cfg->psi_some_idle = pct;
	} else if (!strcmp(key, "lend-interval") || !strcmp(key, "lend-idle") ||
		   !strcmp(key, "psi-stall") || !strcmp(key, "psi-window") ||
		   !strcmp(key, "activity-timeout")) {
		if (spare_parse_u64(value, 1, 3600000, &v))
			return "not a time in ms (1-3600000)";
		if (!strcmp(key, "lend-interval"))
			cfg->lend_interval_ms = (unsigned int)v;
		else if (!strcmp(key, "lend-idle"))
			cfg->lend_idle_ms = (unsigned int)v;
		else if (!strcmp(key, "psi-stall"))
			cfg->psi_stall_ms = (unsigned int)v;
		else if (!strcmp(key, "psi-window"))
			cfg->psi_window_ms = (unsigned int)v;
		else
			cfg->activity_timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "lend-grow-step") || !strcmp(key, "evict-batch")) {
		if (spare_parse_u64(value, 1, 65536, &v))
			return "not a count (1-65536)";
		if (key[0] == 'l')
			cfg->lend_grow_step = (unsigned int)v;
		else
			cfg->evict_batch = (unsigned int)v;
	} else if (!strcmp(key, "evict-sample-extra") ||
		   !strcmp(key, "map-ready")) {
		if (spare_parse_u64(value, 0, 65536, &v))
			return "not a count (0-65536)";
		if (key[0] == 'e')
			cfg->evict_sample_extra = (unsigned int)v;
		else
			cfg->map_ready = (unsigned int)v;
	} else if (!strcmp(key, "log-level")) {
		level = spare_log_parse_level(value);
		if (level < 0)
			return "not one of err, warn, info, debug";
		cfg->log_level = level;
	} else {
		return "unknown setting";
	}
	return NULL;
}

const char *spared_config_apply(const char *key, const char *value, void *ctx)
{
	return spared_config_set(ctx, key, value);
}

int spared_config_defaults(struct spared_config *cfg)
{
	unsigned int i;
	const char *why;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < spared_nsettings; i++) {
		if (!spared_settings[i].dflt[0])
			continue;
		why = spared_config_set(cfg, spared_settings[i].key,
					spared_settings[i].dflt);
		if (why) {
			log_err("default %s: %s", spared_settings[i].key, why);
			return -1;
		}
	}
	return 0;
}

const char *spared_config_finish(struct spared_config *cfg)
{
	if (cfg->max_lend) {
		/* Lending what is idle: max-lend replaces the budget. */
		if (cfg->max_lend < cfg->slab_size)
			return "max-lend is smaller than one slab";
		if (cfg->min_lend > cfg->max_lend)
			return "min-lend is above max-lend";
		if (cfg->psi_some_idle > cfg->psi_some)
			return "psi-some-idle is above psi-some";
		if (cfg->psi_stall_ms > cfg->psi_window_ms)
			return "psi-stall is longer than psi-window";
		if (cfg->psi_window_ms < 500 || cfg->psi_window_ms > 10000)
			return "psi-window must be 500-10000 ms (the kernel's limits)";
		cfg->budget = cfg->max_lend;
	}
	if (cfg->budget < cfg->slab_size)
		return "budget is smaller than one slab";
	if (cfg->grant_v3 && !cfg->broker_key_file[0])
		return "grant-v3 needs broker-key-file (version 3 grants are keyed from this donor's secret at the brokers)";
	if (!cfg->ctl_path[0])
		snprintf(cfg->ctl_path, sizeof(cfg->ctl_path),
			 SPARED_CTL_DIR "/spared-%u.sock", cfg->port);
	return NULL;
}
