/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-tiresias's settings: one table for the config file and the command
 * line (spare_conf.h), and the function that applies one setting.
 */
#ifndef SPARE_TIRD_CONF_H
#define SPARE_TIRD_CONF_H

#include <stdbool.h>
#include <stdint.h>

#include "spare_conf.h"
#include "tiresias.h"

#define TIRD_DEFAULT_CONF	"/etc/spare/spare-tiresias.conf"

struct tird_conf {
	enum tir_schedule schedule;
	struct tir_config limits;	/* nqueues and limit[] only */
	double promote;
	char gittins_dist[4096];
	int64_t gittins_delta;
	double interval;		/* seconds */
	char state_file[4096];
	char metrics_listen[128];
	double time_scale;
	char slurm_conf[4096];
	int64_t gpus;
	uint32_t priority_top, priority_floor;
	uint32_t max_updates;
	bool dry_run, once;
	int log_level;
};

extern const struct spare_setting tird_settings[];
extern const unsigned int tird_nsettings;

/* spare_conf_fn for struct tird_conf. */
const char *tird_cfg_set(const char *key, const char *value, void *ctx);
/* Settings that must agree: 0, or -1 (logged). */
int tird_cfg_check(const struct tird_conf *c);
/* The state before the defaults are applied (for spare_cli_reload()). */
void tird_cfg_reset(void *ctx);

#endif /* SPARE_TIRD_CONF_H */
