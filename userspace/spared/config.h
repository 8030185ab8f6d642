/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's settings. Each is a long option and, with the same name, a key
 * of /etc/spare/spared.conf; the table below holds its default and help.
 */
#ifndef SPARED_CONFIG_H
#define SPARED_CONFIG_H

#include <stdint.h>
#include <sys/un.h>

#include "spare_conf.h"

#define SPARED_DEFAULT_CONF	"/etc/spare/spared.conf"
#define SPARED_CTL_DIR		"/run/spare"

struct spared_config {
	char		listen_addr[64];	/* "" = any */
	uint16_t	port;
	uint64_t	budget;
	uint64_t	slab_size;
	unsigned int	slab_shift;
	char		ctl_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	unsigned int	evict_deadline_ms;
	unsigned int	max_clients;
	unsigned int	max_data_conns;		/* per client session */
	unsigned int	hello_timeout_ms;
	unsigned int	resume_hold_s;		/* keep a vanished F_HOLD session's slabs; 0: never */
	char		metrics_listen[128];	/* "" = no HTTP /metrics */
	char		host_keys[256];		/* clients' secrets; "" = open */
	char		brokers[1024];		/* "host:port,..."; "" = none */
	char		broker_key_file[256];	/* this donor's secret at the brokers */
	char		domain[32];		/* failure-domain label for the brokers */
	char		name[16];		/* donor id; "" = host name */
	char		grant_public_keys[256];	/* brokers' public keys; "" = none */
	char		grant_key_file[256];	/* version 1 key, deprecated; "" = none */
	uint32_t	grant_key_id;
	bool		grant_v3;		/* take version 3 grants (broker-key-file's) */
	unsigned int	max_grants;		/* ledger size */
	unsigned int	grant_grace_s;		/* slabs past lapsed grants: EVICT after */
	unsigned int	map_ready;		/* free slabs populated ahead of MAPs */

	/* Lending what is idle (lend.h); max_lend 0: the fixed budget. */
	uint64_t	max_lend;
	uint64_t	min_lend;
	uint64_t	headroom;
	uint64_t	lend_grow_margin;
	char		cgroup[256];		/* donor cgroup dir; "" = host */
	unsigned int	lend_interval_ms;
	unsigned int	lend_idle_ms;
	unsigned int	lend_grow_step;
	double		psi_some;		/* % avg10: pressure */
	double		psi_full;
	double		psi_some_idle;		/* % avg10: idle below */
	unsigned int	psi_stall_ms;		/* trigger: stall ... */
	unsigned int	psi_window_ms;		/* ... within window */
	unsigned int	evict_batch;		/* E */
	unsigned int	evict_sample_extra;	/* E' */
	unsigned int	activity_timeout_ms;
	int		log_level;		/* applied once every setting is in */
};

#define SPARED_MAX_SETTINGS	SPARE_CLI_MAX_SETTINGS

extern const struct spare_setting spared_settings[];
extern const unsigned int spared_nsettings;

/* Reset @cfg to the defaults; 0, or -1 if a default is invalid (a bug). */
int spared_config_defaults(struct spared_config *cfg);

/* Apply one setting; NULL, or why @value is refused ("unknown setting"). */
const char *spared_config_set(struct spared_config *cfg, const char *key,
			      const char *value);

/* spared_config_set() in the shape of spare_conf_fn (@ctx is the config). */
const char *spared_config_apply(const char *key, const char *value, void *ctx);

/* Cross-checks and derived values once all settings are in; NULL or why. */
const char *spared_config_finish(struct spared_config *cfg);

#endif /* SPARED_CONFIG_H */
