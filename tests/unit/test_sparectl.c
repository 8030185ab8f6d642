// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl's device view (userspace/sparectl/devstat.c) against a fake
 * configfs/sysfs tree: parsing of the versioned stat files (and refusing
 * what it does not understand), the JSON shape documented in sparectl(8),
 * and `sparectl metrics` as valid Prometheus text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devstat.h"
#include "promparse.h"
#include "tap.h"

static char root[64];
static struct dev_roots roots;
static char cfs[128], blk[128];

static void make_dev(const char *name, const char *disk)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", cfs, name);
	mkdir(dir, 0755);
	tap_put_file(dir, "size", "268435456\n");
	tap_put_file(dir, "slab_size", "16777216\n");
	tap_put_file(dir, "replicas", "2\n");
	tap_put_file(dir, "donors", "10.0.0.2:18515,10.0.0.3:18515\n");
	tap_put_file(dir, "source", "\n");
	tap_put_file(dir, "backup", "/dev/vdb\n");
	tap_put_file(dir, "backup_mode", "async\n");
	tap_put_file(dir, "power", disk ? "1\n" : "0\n");
	tap_put_file(dir, "disk", disk ? disk : "\n");
	if (!disk)
		return;
	snprintf(dir, sizeof(dir), "%s/%s", blk, disk);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/%s/spare", blk, disk);
	mkdir(dir, 0755);
	tap_put_file(dir, "io_stat", "1 10 20 0 0 3 1 1 0 40960 81920 2 0\n");
	tap_put_file(dir, "slab_stat", "1 16 24 2 30 1 1 0 0 1234\n");
	tap_put_file(dir, "donor_stat", "1 0 10.0.0.2:18515 live 1 0 0 0 0\n"
			       "1 1 10.0.0.3:18515 connecting 2 1 3 0 1\n");
}

static void test_parse(void)
{
	struct dev_donor_stat donors[DEV_MAX_DONORS];
	uint64_t io[DEV_IO_FIELDS], slab[DEV_SLAB_FIELDS];
	unsigned int n;
	char why[256];

	EXPECT_EQ(dev_parse_io_stat("1 1 2 3 4 5 6 7 8 9 10 11 12\n", io, why, sizeof(why)), 0);
	EXPECT_EQ(io[0], 1);
	EXPECT_EQ(io[11], 12);
	EXPECT_EQ(io[12], 0);	/* version 1 has no backup_waits */
	EXPECT_EQ(dev_parse_io_stat("2 1 2 3 4 5 6 7 8 9 10 11 12 13 14", io, why, sizeof(why)), 0);
	EXPECT_EQ(io[12], 13);
	EXPECT_EQ(io[13], 14);
	/* version 2 needs its 14 fields */
	EXPECT_EQ(dev_parse_io_stat("2 1 2 3 4 5 6 7 8 9 10 11 12", io, why, sizeof(why)), -1);
	EXPECT(strstr(why, "version 2 has 15") != NULL);
	/* A later version appends fields: the known ones still read. */
	EXPECT_EQ(dev_parse_io_stat("3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", io, why, sizeof(why)), 0);
	EXPECT_EQ(io[13], 14);
	EXPECT_EQ(dev_parse_io_stat("0 1 2 3 4 5 6 7 8 9 10 11 12", io, why, sizeof(why)), -1);
	EXPECT(strstr(why, "io_stat: version 0 not understood") != NULL);
	EXPECT_EQ(dev_parse_io_stat("1 1 2 3", io, why, sizeof(why)), -1);
	EXPECT(strstr(why, "4 fields") != NULL);
	EXPECT_EQ(dev_parse_io_stat("1 1 x 3 4 5 6 7 8 9 10 11 12", io, why, sizeof(why)), -1);
	EXPECT_EQ(dev_parse_slab_stat("1 16 24 2 30 1 1 0 0 1234", slab, why, sizeof(why)), 0);
	EXPECT_EQ(slab[8], 1234);
	EXPECT_EQ(dev_parse_donor_stat("1 0 a:1 live 1 2 3 4 5\n1 1 b:2 error 0 0 0 0 0\n",
				       donors, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 2);
	EXPECT(!strcmp(donors[1].state, "error") && donors[0].maps_refused == 5);
	EXPECT_EQ(donors[0].moves, 0);
	/* version 2 appends moves and moves_short */
	EXPECT_EQ(dev_parse_donor_stat("2 0 a:1 live 1 2 3 4 5 6 7\n3 1 b:2 live 0 0 0 0 0 8 9 10\n",
				       donors, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 2);
	EXPECT(donors[0].moves == 6 && donors[0].moves_short == 7 && donors[1].moves == 8);
	EXPECT_EQ(dev_parse_donor_stat("2 0 a:1 live 1 2 3 4 5 6\n", donors, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, "donor_stat: version 2 line not understood") != NULL);
	EXPECT_EQ(dev_parse_donor_stat("1 0 a:1 live 1 2\n", donors, &n, why, sizeof(why)), -1);
	EXPECT(strstr(why, "donor_stat: line not understood: 1 0 a:1 live 1 2") != NULL);
	{
		struct dev_slab_copy *sc;
		unsigned int ns;

		EXPECT_EQ(dev_parse_slab_map("1 0 0 1 10.0.0.3:18515 mapped 4096\n"
					     "1 0 1 0 10.0.0.2:18515 evicting 0\n"
					     "2 1 2 1 10.0.0.3:18515 mapping 7 99\n",
					     &sc, &ns, why, sizeof(why)), 0);
		EXPECT_EQ(ns, 3);
		if (ns == 3) {
			EXPECT(sc[0].slab == 0 && sc[0].slot == 0 && sc[0].donor == 1 &&
			       sc[0].current_pages == 4096 && !strcmp(sc[0].state, "mapped"));
			EXPECT(!strcmp(sc[1].address, "10.0.0.2:18515") && sc[2].slab == 1);
		}
		free(sc);
		EXPECT_EQ(dev_parse_slab_map("1 0 0 1 a:1 mapped\n", &sc, &ns, why, sizeof(why)), -1);
		EXPECT(strstr(why, "slab_map: line not understood: 1 0 0 1 a:1 mapped") != NULL);
		EXPECT(sc == NULL && ns == 0);
		EXPECT_EQ(dev_parse_slab_map("", &sc, &ns, why, sizeof(why)), 0);
		EXPECT_EQ(ns, 0);
		free(sc);
	}
	EXPECT_EQ(dev_parse_donor_stat("", donors, &n, why, sizeof(why)), 0);
	EXPECT_EQ(n, 0);
}

static void test_read(void)
{
	struct dev_info d;
	char why[256], **names;
	unsigned int n;

	names = dev_names(&roots, &n);
	EXPECT(names != NULL);
	EXPECT_EQ(n, 2);
	if (names && n == 2)
		EXPECT(!strcmp(names[0], "off0") && !strcmp(names[1], "swap0"));
	dev_names_free(names, n);
	EXPECT_EQ(dev_read(&roots, "swap0", &d, why, sizeof(why)), 0);
	EXPECT(d.power && !strcmp(d.disk, "spare0") && d.has_stats);
	EXPECT_EQ(d.size, 256 << 20);
	EXPECT_EQ(d.ndonors, 2);
	EXPECT_EQ(d.io[9], 81920);
	EXPECT_EQ(dev_read(&roots, "off0", &d, why, sizeof(why)), 0);
	EXPECT(!d.power && !d.has_stats && !strcmp(d.backup_mode, "async"));
	EXPECT_EQ(dev_read(&roots, "gone", &d, why, sizeof(why)), -1);
	EXPECT(strstr(why, "no device 'gone'") != NULL);
	EXPECT_EQ(dev_read(&roots, "../x", &d, why, sizeof(why)), -1);
}

static void test_json_shape(void)
{
	struct json_object *o, *v, *a;
	struct dev_info d;
	char why[256];

	EXPECT_EQ(dev_read(&roots, "swap0", &d, why, sizeof(why)), 0);
	o = dev_json(&d, true);
	EXPECT(json_object_object_get_ex(o, "name", &v) && !strcmp(json_object_get_string(v), "swap0"));
	EXPECT(json_object_object_get_ex(o, "power", &v) && json_object_is_type(v, json_type_boolean));
	EXPECT(json_object_object_get_ex(o, "size", &v) && json_object_get_int64(v) == 268435456);
	EXPECT(json_object_object_get_ex(o, "donors", &a) && json_object_array_length(a) == 2);
	EXPECT(json_object_object_get_ex(o, "source", &v) && v == NULL);	/* null */
	EXPECT(json_object_object_get_ex(o, "io_stat", &v) &&
	       json_object_object_length(v) == DEV_IO_FIELDS);
	EXPECT(json_object_object_get_ex(v, "bytes_written", &v) && json_object_get_int64(v) == 81920);
	EXPECT(json_object_object_get_ex(o, "donor_stat", &a) && json_object_array_length(a) == 2);
	v = json_object_array_get_idx(a, 1);
	EXPECT(json_object_object_get_ex(v, "state", &v) &&
	       !strcmp(json_object_get_string(v), "connecting"));
	json_object_put(o);
	/* Without stats (device list): no stat keys. */
	o = dev_json(&d, false);
	EXPECT(!json_object_object_get_ex(o, "io_stat", NULL));
	json_object_put(o);
}

static void test_metrics(void)
{
	struct dev_info devs[2];
	char why[256] = "", *page = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	EXPECT_EQ(dev_read(&roots, "off0", &devs[0], why, sizeof(why)), 0);
	EXPECT_EQ(dev_read(&roots, "swap0", &devs[1], why, sizeof(why)), 0);
	f = open_memstream(&page, &len);
	if (!f)
		return;
	EXPECT_EQ(dev_print_metrics(f, devs, 2), 0);
	fclose(f);
	n = prom_check(page, why, sizeof(why));
	if (n < 0)
		fprintf(stderr, "# %s\n", why);
	/*
	 * 1 build_info + 2 powered + 2 size + 14 io + 4 slab + 5 copies +
	 * 2 donors x (1 up + 1 state + 7 counters).
	 */
	EXPECT_EQ(n, 1 + 2 + 2 + 14 + 4 + 5 + 18);
	/* the test device's donor_stat is version 1: moves read 0 */
	EXPECT(strstr(page, "\nspare_device_donor_moves_total{device=\"swap0\",disk=\"spare0\",donor=\"10.0.0.3:18515\"} 0\n"));
	/* the test device's io_stat is version 1: the v2 counters read 0 */
	EXPECT(strstr(page, "\nspare_device_integrity_errors_total{device=\"swap0\",disk=\"spare0\"} 0\n"));
	EXPECT(strstr(page, "\nspare_device_bytes_written_total{device=\"swap0\",disk=\"spare0\"} 81920\n"));
	EXPECT(strstr(page, "\nspare_device_slab_copies{device=\"swap0\",disk=\"spare0\",state=\"mapping\"} 1\n"));
	EXPECT(strstr(page, "\nspare_device_donor_up{device=\"swap0\",disk=\"spare0\",donor=\"10.0.0.3:18515\"} 0\n"));
	/* the state is a value (1: connecting), not a label that churns */
	EXPECT(strstr(page, "\nspare_device_donor_state{device=\"swap0\",disk=\"spare0\",donor=\"10.0.0.3:18515\"} 1\n"));
	EXPECT(!strstr(page, "state=\"connecting\""));
	EXPECT(strstr(page, "\nspare_build_info{program=\"sparectl\",version=\""));
	EXPECT(strstr(page, "\nspare_device_slab_size_bytes{device=\"swap0\",disk=\"spare0\"} 16777216\n"));
	/* SPARE_METRICS_DUMP=FILE: keep the page for tests/metrics/run (promtool) */
	if (getenv("SPARE_METRICS_DUMP")) {
		FILE *d = fopen(getenv("SPARE_METRICS_DUMP"), "w");

		EXPECT(d != NULL);
		if (d) {
			fputs(page, d);
			EXPECT_EQ(fclose(d), 0);
		}
	}
	free(page);
	/* No device at all: still a valid page (families, no samples). */
	page = NULL;
	f = open_memstream(&page, &len);
	if (!f)
		return;
	EXPECT_EQ(dev_print_metrics(f, NULL, 0), 0);
	fclose(f);
	EXPECT_EQ(prom_check(page, why, sizeof(why)), 1);	/* spare_build_info */
	free(page);
}

int main(void)
{
	char cmd[256];
	int ret;

	snprintf(root, sizeof(root), "/tmp/spare-sparectl-%d", (int)getpid());
	snprintf(cfs, sizeof(cfs), "%s/cfs", root);
	snprintf(blk, sizeof(blk), "%s/blk", root);
	mkdir(root, 0755);
	mkdir(cfs, 0755);
	mkdir(blk, 0755);
	roots.configfs = cfs;
	roots.sysfs_block = blk;
	make_dev("swap0", "spare0");
	make_dev("off0", NULL);
	TAP_RUN(test_parse);
	TAP_RUN(test_read);
	TAP_RUN(test_json_shape);
	TAP_RUN(test_metrics);
	ret = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", root);
	return ret;
}
