// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for spared's settings (userspace/spared/config.c): the
 * defaults, every setting's accepted and refused values, the config-file
 * path through the same table, and the cross-checks.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "spare_conf.h"
#include "spare_log.h"
#include "spare_proto.h"
#include "tap.h"

static struct spared_config cfg;

static void test_defaults(void)
{
	unsigned int i;

	EXPECT_EQ(spared_config_defaults(&cfg), 0);
	EXPECT_EQ(cfg.port, SPARE_DEFAULT_PORT);
	EXPECT_EQ(cfg.budget, 1ULL << 30);
	EXPECT_EQ(cfg.slab_size, 1ULL << 30);
	EXPECT_EQ(cfg.slab_shift, SPARE_SLAB_SHIFT_DEFAULT);
	EXPECT_EQ(cfg.evict_deadline_ms, 5000);
	EXPECT(cfg.max_clients > 0 && cfg.max_data_conns > 0);
	EXPECT_EQ(cfg.listen_addr[0], '\0');
	/* Every setting has a key, help and a unique name. */
	for (i = 0; i < spared_nsettings; i++) {
		unsigned int j;

		EXPECT(spared_settings[i].key && spared_settings[i].help);
		for (j = i + 1; j < spared_nsettings; j++)
			EXPECT(strcmp(spared_settings[i].key, spared_settings[j].key));
	}
	/* The defaults alone make a working donor: one 1G slab. */
	EXPECT(spared_config_finish(&cfg) == NULL);
	EXPECT(!strcmp(cfg.ctl_path, "/run/spare/spared-18515.sock"));
}

static void test_values(void)
{
	spared_config_defaults(&cfg);
	EXPECT(spared_config_set(&cfg, "budget", "4G") == NULL);
	EXPECT_EQ(cfg.budget, 4ULL << 30);
	EXPECT(spared_config_set(&cfg, "budget", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "budget", "lots") != NULL);
	/* the donor's name, grant key settings */
	EXPECT(spared_config_set(&cfg, "name", "donor-7") == NULL);
	EXPECT(!strcmp(cfg.name, "donor-7"));
	EXPECT(spared_config_set(&cfg, "name", "a-name-of-16-chr") != NULL);
	EXPECT(spared_config_set(&cfg, "name", "two words") != NULL);
	EXPECT(!strcmp(cfg.name, "donor-7"));
	EXPECT(spared_config_set(&cfg, "grant-key-id", "7") == NULL);
	EXPECT_EQ(cfg.grant_key_id, 7);
	EXPECT(spared_config_set(&cfg, "grant-key-id", "-1") != NULL);
	EXPECT(spared_config_set(&cfg, "grant-public-keys", "/etc/spare/grant.pub") == NULL);
	EXPECT(!strcmp(cfg.grant_public_keys, "/etc/spare/grant.pub"));
	{
		char longpath[300];

		memset(longpath, 'p', sizeof(longpath) - 1);
		longpath[sizeof(longpath) - 1] = 0;
		EXPECT(spared_config_set(&cfg, "grant-public-keys", longpath) != NULL);
	}
	EXPECT(spared_config_set(&cfg, "max-grants", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "max-grants", "10") == NULL);
	EXPECT_EQ(cfg.max_grants, 10);
	EXPECT(spared_config_set(&cfg, "slab-size", "1M") == NULL);
	EXPECT_EQ(cfg.slab_shift, 20);
	EXPECT(spared_config_set(&cfg, "slab-size", "16G") == NULL);
	EXPECT_EQ(cfg.slab_shift, 34);
	EXPECT(spared_config_set(&cfg, "slab-size", "512K") != NULL);
	EXPECT(spared_config_set(&cfg, "slab-size", "32G") != NULL);
	EXPECT(spared_config_set(&cfg, "slab-size", "3M") != NULL);
	EXPECT_EQ(cfg.slab_shift, 34);		/* refused values change nothing */
	EXPECT(spared_config_set(&cfg, "port", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "port", "65536") != NULL);
	EXPECT(spared_config_set(&cfg, "port", "4791") == NULL);
	EXPECT_EQ(cfg.port, 4791);
	EXPECT(spared_config_set(&cfg, "evict-deadline", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "evict-deadline", "250") == NULL);
	EXPECT_EQ(cfg.evict_deadline_ms, 250);
	EXPECT(spared_config_set(&cfg, "max-clients", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "hello-timeout", "x") != NULL);
	EXPECT(spared_config_set(&cfg, "log-level", "chatty") != NULL);
	EXPECT(spared_config_set(&cfg, "log-level", "err") == NULL);
	EXPECT(spared_config_set(&cfg, "listen", "10.0.0.2") == NULL);
	EXPECT(!strcmp(cfg.listen_addr, "10.0.0.2"));
	EXPECT(spared_config_set(&cfg, "listen",
		"0123456789012345678901234567890123456789012345678901234567890123456789") != NULL);
	EXPECT(spared_config_set(&cfg, "nonsense", "1") != NULL);
}

static void test_finish(void)
{
	spared_config_defaults(&cfg);
	spared_config_set(&cfg, "budget", "3M");
	spared_config_set(&cfg, "slab-size", "1M");
	spared_config_set(&cfg, "port", "20000");
	EXPECT(spared_config_finish(&cfg) == NULL);
	EXPECT(!strcmp(cfg.ctl_path, "/run/spare/spared-20000.sock"));
	/* An explicit control socket is kept. */
	spared_config_set(&cfg, "ctl", "/tmp/x.sock");
	EXPECT(spared_config_finish(&cfg) == NULL);
	EXPECT(!strcmp(cfg.ctl_path, "/tmp/x.sock"));
	spared_config_set(&cfg, "budget", "512K");
	EXPECT(spared_config_finish(&cfg) != NULL);
	/* grant-v3: off by default; on, it needs broker-key-file (its key) */
	spared_config_defaults(&cfg);
	EXPECT(!cfg.grant_v3);
	EXPECT(spared_config_set(&cfg, "grant-v3", "maybe") != NULL);
	EXPECT(spared_config_set(&cfg, "grant-v3", "yes") == NULL);
	EXPECT(cfg.grant_v3);
	EXPECT(spared_config_finish(&cfg) != NULL &&
	       strstr(spared_config_finish(&cfg), "broker-key-file") != NULL);
	spared_config_set(&cfg, "broker-key-file", "/etc/spare/broker.key");
	EXPECT(spared_config_finish(&cfg) == NULL);
}

static const char *conf_setting(const char *key, const char *value, void *ctx)
{
	return spared_config_set(ctx, key, value);
}

static void test_config_file(void)
{
	const char *good = "# donor\nbudget = 64M\nslab-size=1M\nlisten = 10.0.0.2\n";
	const char *bad = "budget = 64M\nslab-size = 3M\n";
	FILE *f;

	spared_config_defaults(&cfg);
	f = fmemopen((void *)good, strlen(good), "r");
	EXPECT(f != NULL);
	if (!f)
		return;
	EXPECT_EQ(spare_conf_parse_stream(f, "spared.conf", conf_setting, &cfg), 0);
	fclose(f);
	EXPECT_EQ(cfg.budget, 64ULL << 20);
	EXPECT_EQ(cfg.slab_shift, 20);
	f = fmemopen((void *)bad, strlen(bad), "r");
	if (!f)
		return;
	EXPECT_EQ(spare_conf_parse_stream(f, "spared.conf", conf_setting, &cfg), -1);
	fclose(f);
}

/* The example that make install puts in /etc/spare/spared.conf parses,
 * sets what it shows (8G in 1G slabs) and passes the cross-checks. */
static void test_example_config(void)
{
	FILE *f = fopen(SPARED_EXAMPLE_CONF, "re");

	spared_config_defaults(&cfg);
	EXPECT(f != NULL);
	if (!f)
		return;
	EXPECT_EQ(spare_conf_parse_stream(f, SPARED_EXAMPLE_CONF, conf_setting, &cfg), 0);
	fclose(f);
	EXPECT_EQ(cfg.budget, 8ULL << 30);
	EXPECT_EQ(cfg.slab_size, 1ULL << 30);
	EXPECT(spared_config_finish(&cfg) == NULL);
}

/* Lending what is idle: its settings and cross-checks; the fixed budget
 * stays the default. */
static void test_lend_settings(void)
{
	spared_config_defaults(&cfg);
	EXPECT_EQ(cfg.max_lend, 0);
	EXPECT_EQ(cfg.headroom, 2ULL << 30);
	EXPECT_EQ(cfg.evict_batch, 2);
	EXPECT_EQ(cfg.evict_sample_extra, 2);
	EXPECT_EQ(cfg.psi_stall_ms, 150);
	EXPECT_EQ(cfg.psi_window_ms, 1000);
	EXPECT(cfg.psi_some == 10.0 && cfg.psi_full == 2.0 && cfg.psi_some_idle == 1.0);
	EXPECT(spared_config_finish(&cfg) == NULL);
	EXPECT_EQ(cfg.budget, 1ULL << 30);		/* fixed budget */

	EXPECT(spared_config_set(&cfg, "slab-size", "64M") == NULL);
	EXPECT(spared_config_set(&cfg, "max-lend", "8G") == NULL);
	EXPECT(spared_config_set(&cfg, "min-lend", "128M") == NULL);
	EXPECT(spared_config_set(&cfg, "headroom", "512M") == NULL);
	EXPECT(spared_config_set(&cfg, "lend-grow-margin", "1G") == NULL);
	EXPECT_EQ(cfg.lend_grow_margin, 1ULL << 30);
	EXPECT(spared_config_set(&cfg, "lend-grow-margin", "-1") != NULL);
	EXPECT(spared_config_set(&cfg, "psi-some", "12.5") == NULL);
	EXPECT(cfg.psi_some == 12.5);
	EXPECT(spared_config_set(&cfg, "psi-some", "101") != NULL);
	EXPECT(spared_config_set(&cfg, "psi-some", "-1") != NULL);
	EXPECT(spared_config_set(&cfg, "psi-full", "x") != NULL);
	EXPECT(spared_config_set(&cfg, "psi-some", "nan") != NULL);
	EXPECT(cfg.psi_some == 12.5);
	EXPECT(spared_config_set(&cfg, "evict-batch", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "evict-batch", "4") == NULL);
	EXPECT(spared_config_set(&cfg, "evict-sample-extra", "0") == NULL);
	EXPECT(spared_config_set(&cfg, "lend-idle", "0") != NULL);
	EXPECT(spared_config_set(&cfg, "lend-idle", "5000") == NULL);
	EXPECT(spared_config_set(&cfg, "max-lend", "8 G") != NULL);
	EXPECT(spared_config_finish(&cfg) == NULL);
	EXPECT_EQ(cfg.budget, 8ULL << 30);		/* max-lend replaces it */
	EXPECT_EQ(cfg.lend_idle_ms, 5000);

	EXPECT(spared_config_set(&cfg, "min-lend", "9G") == NULL);
	EXPECT(spared_config_finish(&cfg) != NULL);
	EXPECT(spared_config_set(&cfg, "min-lend", "0") == NULL);
	EXPECT(spared_config_set(&cfg, "psi-some-idle", "20") == NULL);
	EXPECT(spared_config_finish(&cfg) != NULL);
	EXPECT(spared_config_set(&cfg, "psi-some-idle", "1") == NULL);
	EXPECT(spared_config_set(&cfg, "psi-window", "200") == NULL);
	EXPECT(spared_config_finish(&cfg) != NULL);
	EXPECT(spared_config_set(&cfg, "psi-window", "2000") == NULL);
	EXPECT(spared_config_set(&cfg, "psi-stall", "3000") == NULL);
	EXPECT(spared_config_finish(&cfg) != NULL);
	EXPECT(spared_config_set(&cfg, "psi-stall", "100") == NULL);
	EXPECT(spared_config_set(&cfg, "max-lend", "32M") == NULL);
	EXPECT(spared_config_finish(&cfg) != NULL);		/* < one slab */
}

int main(void)
{
	spare_log_init("test_spared_config", SPARE_LOG_ERR);
	TAP_RUN(test_defaults);
	TAP_RUN(test_values);
	TAP_RUN(test_finish);
	TAP_RUN(test_config_file);
	TAP_RUN(test_example_config);
	TAP_RUN(test_lend_settings);
	return tap_done();
}
