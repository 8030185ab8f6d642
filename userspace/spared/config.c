// SPDX-License-Identifier: GPL-2.0
/*
 * spared's settings: one table for the command line, the config file and
 * the defaults. Pure logic, unit-tested in tests/unit/test_spared_config.c.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
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
	{ "host-keys",	0,  "PATH",  "clients' secrets, \"<name> SPARE-1:...\" lines (default: none, open to any host)", "" },
	{ "log-level",	'v', "LEVEL", "err, warn, info or debug", "info" },
	{ "metrics-listen", 'm', "ADDR:PORT", "serve Prometheus /metrics over HTTP here (default: off)", "" },
	{ "brokers",	0,  "HOST:PORT,...", "spare-brokers to register and heartbeat with (default: none)", "" },
	{ "broker-key-file", 0, "PATH", "this donor's \"SPARE-1:...\" secret at the brokers", "" },
	{ "domain",	0,  "LABEL", "failure domain (rack, PDU) reported to the brokers", "default" },
};

const unsigned int spared_nsettings = ARRAY_SIZE(spared_settings);
_Static_assert(ARRAY_SIZE(spared_settings) <= SPARED_MAX_SETTINGS,
	       "raise SPARED_MAX_SETTINGS");

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
	} else if (!strcmp(key, "domain")) {
		if (!value[0] || strlen(value) >= sizeof(cfg->domain) || strpbrk(value, " \t"))
			return "a label of 1-31 characters without blanks";
		strcpy(cfg->domain, value);
	} else if (!strcmp(key, "log-level")) {
		level = spare_log_parse_level(value);
		if (level < 0)
			return "not one of err, warn, info, debug";
		spare_log_set_level((enum spare_log_level)level);
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
	if (cfg->budget < cfg->slab_size)
		return "budget is smaller than one slab";
	if (!cfg->ctl_path[0])
		snprintf(cfg->ctl_path, sizeof(cfg->ctl_path),
			 SPARED_CTL_DIR "/spared-%u.sock", cfg->port);
	return NULL;
}
