// SPDX-License-Identifier: GPL-2.0
/*
 * spared's counters (userspace/spared/metrics.c): the /metrics page is
 * valid Prometheus text (strict checker in promparse.h) and the control
 * socket's `status` lines are the same samples without HELP/TYPE, in the
 * names the VM scenarios read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promparse.h"
#include "spared.h"
#include "spare_metrics.h"
#include "tap.h"

static struct spared d;
static char ready_mem;	/* stands for a slab's mapped memory */
static struct spared_grant grants[2] = {
	{ .owner = "c1", .slabs = 2, .expiry = 1700000600 },
	{ .owner = "c2", .slabs = 1, .expiry = 1700000000 },
};

static char *page(bool meta)
{
	struct spare_metrics m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (meta) {
		if (spared_metrics_page(&d, f))
			fprintf(f, "FAILED");
	} else {
		spare_metrics_begin(&m, f, false);
		spared_metrics(&d, &m);
		if (spare_metrics_end(&m))
			fprintf(f, "FAILED");
	}
	fclose(f);
	return buf;
}

/* SPARE_METRICS_DUMP=FILE: keep the page for tests/metrics/run (promtool). */
static void dump(const char *p)
{
	const char *path = getenv("SPARE_METRICS_DUMP");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (!f)
		return;
	fputs(p, f);
	EXPECT_EQ(fclose(f), 0);
}

static void test_page(void)
{
	char why[128] = "", *p;
	int n;

	p = page(true);
	EXPECT(p != NULL);
	if (!p)
		return;
	n = prom_check(p, why, sizeof(why));
	if (n < 0)
		fprintf(stderr, "# %s\n%s", why, p);
	EXPECT(n >= 20);
	EXPECT(strstr(p, "# TYPE spare_donor_maps_total counter\nspare_donor_maps_total 3\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_slabs_free 3\n") != NULL);
	/* Lending what is idle: 6 slots, 5 in service, 2 of them lent. */
	EXPECT(strstr(p, "\nspare_donor_slabs_capacity 5\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_slabs_lent 2\n") != NULL);
	/* map-ready: one free slab populated ahead; two MAPs found none */
	EXPECT(strstr(p, "# TYPE spare_donor_slabs_ready gauge\nspare_donor_slabs_ready 1\n") != NULL);
	EXPECT(strstr(p, "# TYPE spare_donor_maps_unready_total counter\nspare_donor_maps_unready_total 2\n") != NULL);
	/* disconnected ids destroyed at once: the linger table was full */
	EXPECT(strstr(p, "# TYPE spare_donor_dreq_linger_full_total counter\n"
		       "spare_donor_dreq_linger_full_total 4\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_lend_slabs_released_total 5\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_pressure_events_total 7\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_psi_some_avg10_percent 12.500\n") != NULL);
	/* two grants held: the first to expire is the earlier */
	EXPECT(strstr(p, "\nspare_donor_grants_held 2\n") != NULL);
	EXPECT(strstr(p, "\nspare_donor_grant_next_expiry_timestamp_seconds 1700000000\n") != NULL);
	EXPECT(strstr(p, "\nspare_build_info{program=\"spared\",version=\"") != NULL);
	EXPECT(strstr(p, "\nprocess_start_time_seconds ") != NULL);
	dump(p);
	free(p);
}

static void test_status_lines(void)
{
	char *p = page(false);
	const char *line;
	int lines = 0;

	EXPECT(p != NULL);
	if (!p)
		return;
	EXPECT(!strncmp(p, "spare_donor_port 18515\nspare_donor_uptime_seconds ", 50));
	EXPECT(strstr(p, "\nspare_donor_revocations_total 0\n") != NULL);
	EXPECT(strchr(p, '#') == NULL);
	for (line = p; *line; line = strchr(line, '\n') + 1)
		lines++;
	EXPECT(lines >= 20);
	free(p);
}

int main(void)
{
	d.cfg.port = 18515;
	if (slab_pool_init(&d.pool, 6 << 20, 1 << 20))
		return 1;
	d.pool.stats.maps = 3;
	d.pool.nfree = 3;
	TAP_RUN(test_status_lines);
	/* The same pool shrunk to 5 slabs in service, as lending does. */
	slab_pool_destroy(&d.pool);
	if (slab_pool_init_cap(&d.pool, 6 << 20, 1 << 20, 5))
		return 1;
	d.pool.stats.maps = 3;
	d.pool.nfree = 3;
	d.pool.stats.retired = 5;
	d.pool.slabs[4].mem = &ready_mem;
	slab_pool_set_ready(&d.pool, &d.pool.slabs[4], 1 << 20);
	d.ctr.maps_unready = 2;
	d.linger.full = 4;
	d.lend.psi_events_total = 7;
	d.lend.psi_some = 12.5;
	d.grants_on = true;
	d.grants.v = grants;
	d.grants.n = 2;
	TAP_RUN(test_page);
	d.grants.v = NULL;
	d.grants.n = 0;
	slab_pool_destroy(&d.pool);
	return tap_done();
}
