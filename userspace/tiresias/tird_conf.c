// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias's settings (see tird_conf.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "spare_http.h"
#include "spare_log.h"
#include "spare_util.h"
#include "tird.h"
#include "tird_conf.h"


const struct spare_setting tird_settings[] = {
	{ "schedule",	's', "NAME", "dlas-gpu or dlas-gpu-gittins", "dlas-gpu" },
	{ "queue-limits", 'q', "A,B,...", "2D-LAS queue limits in GPU-seconds (trace seconds), as spare-sim's", "3250,7200" },
	{ "promote",	'p', "K", "starvation guard: back to queue 0 after waiting K x attained service (0: off)", "0" },
	{ "gittins-dist", 0, "FILE", "job-size sample for dlas-gpu-gittins (spare-sim's --gittins-dist CSV)", "" },
	{ "gittins-delta", 0, "D", "Gittins service quantum (GPU-seconds)", "3250" },
	{ "interval",	'i', "SECONDS", "time between scheduling passes", "10" },
	{ "state-file",	0,  "PATH", "the per-job ledger of attained service, saved after each pass", "/var/lib/spare-tiresias/tiresias.state" },
	{ "metrics-listen", 'm', "ADDR:PORT", "serve Prometheus /metrics over HTTP here (default: off)", "" },
	{ "time-scale",	0,  "X", "trace seconds per wall second (a compressed replay)", "1" },
	{ "slurm-conf",	0,  "PATH", "slurm.conf of the cluster (default: $SLURM_CONF, else Slurm's own)", "" },
	{ "gpus",	0,  "N", "GPUs of the cluster (0: the sum of the nodes' gpu gres, each pass)", "0" },
	{ "priority-top", 0, "N", "Slurm priority of the first job in Tiresias's order; the next get less", "4294966269" },
	{ "priority-floor", 0, "N", "no job in Tiresias's order gets a lower Slurm priority (4294901760: above all of priority/basic's new jobs)", "4294901760" },
	{ "max-priority-updates", 0, "N", "priority updates a pass sends at most, the head of the order first (0: no limit)", "64" },
	{ "dry-run",	'n', NULL, "print what would be set or requeued; change no job", "no" },
	{ "once",	0,  NULL, "one pass, then exit (1 if Slurm could not be read)", "no" },
	{ "log-level",	'v', "LEVEL", "err, warn, info or debug", "info" },
};

static const char *set_double(const char *value, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !(v >= min) || !(v <= max))
		return "not a number in range";
	*out = v;
	return NULL;
}

const char *tird_cfg_set(const char *key, const char *value, void *ctx)
{
	struct tird_conf *c = ctx;
	uint64_t u;
	int level;

	if (!strcmp(key, "schedule")) {
		if (tir_schedule_parse(value, &c->schedule) ||
		    (c->schedule != TIR_DLAS_GPU && c->schedule != TIR_DLAS_GPU_GITTINS))
			return "not dlas-gpu or dlas-gpu-gittins";
		return NULL;
	}
	if (!strcmp(key, "queue-limits")) {
		if (tir_parse_limits(value, &c->limits))
			return "not increasing positive integers a,b,... (at most 7)";
		return NULL;
	}
	if (!strcmp(key, "promote"))
		return set_double(value, 0, 1e6, &c->promote);
	if (!strcmp(key, "gittins-dist"))
		return spare_conf_str(c->gittins_dist, sizeof(c->gittins_dist), value);
	if (!strcmp(key, "gittins-delta")) {
		if (spare_parse_u64(value, 1, TIR_MAX_TIME, &u))
			return "not a positive integer";
		c->gittins_delta = (int64_t)u;
		return NULL;
	}
	if (!strcmp(key, "interval"))
		return set_double(value, 0.1, 86400, &c->interval);
	if (!strcmp(key, "state-file")) {
		if (!value[0])
			return "empty";
		return spare_conf_str(c->state_file, sizeof(c->state_file), value);
	}
	if (!strcmp(key, "metrics-listen")) {
		char host[128];
		uint16_t port;
		const char *why;

		if (value[0] && spare_http_parse_listen(value, host, sizeof(host), &port, &why))
			return why;
		return spare_conf_str(c->metrics_listen, sizeof(c->metrics_listen), value);
	}
	if (!strcmp(key, "time-scale"))
		return set_double(value, 0.001, 1e6, &c->time_scale);
	if (!strcmp(key, "slurm-conf"))
		return spare_conf_str(c->slurm_conf, sizeof(c->slurm_conf), value);
	if (!strcmp(key, "gpus")) {
		if (spare_parse_u64(value, 0, 1u << 24, &u))
			return "not a number in range";
		c->gpus = (int64_t)u;
		return NULL;
	}
	if (!strcmp(key, "priority-top")) {
		if (spare_parse_u64(value, 2, TIRD_PRIO_TOP, &u))
			return "not a number in range";
		c->priority_top = (uint32_t)u;
		return NULL;
	}
	if (!strcmp(key, "priority-floor")) {
		if (spare_parse_u64(value, 1, TIRD_PRIO_TOP - 1, &u))
			return "not a number in range";
		c->priority_floor = (uint32_t)u;
		return NULL;
	}
	if (!strcmp(key, "max-priority-updates")) {
		if (spare_parse_u64(value, 0, UINT32_MAX, &u))
			return "not a number in range";
		c->max_updates = (uint32_t)u;
		return NULL;
	}
	if (!strcmp(key, "dry-run"))
		return spare_conf_bool(value, &c->dry_run);
	if (!strcmp(key, "once"))
		return spare_conf_bool(value, &c->once);
	if (!strcmp(key, "log-level")) {
		level = spare_log_parse_level(value);
		if (level < 0)
			return "not a level (err, warn, info, debug)";
		c->log_level = level;
		return NULL;
	}
	return "unknown setting";
}

int tird_cfg_check(const struct tird_conf *c)
{
	if (c->priority_floor >= c->priority_top) {
		log_err("priority-floor %" PRIu32 " is not below priority-top %" PRIu32,
			c->priority_floor, c->priority_top);
		return -1;
	}
	return 0;
}

const unsigned int tird_nsettings = ARRAY_SIZE(tird_settings);

void tird_cfg_reset(void *ctx)
{
	struct tird_conf *c = ctx;

	memset(c, 0, sizeof(*c));
	tir_config_init(&c->limits, TIR_DLAS_GPU, 1);
}

