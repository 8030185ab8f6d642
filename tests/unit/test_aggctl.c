// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl's pure parts (userspace/aggctl/aggctl_util.c): reading
 * spare-aggd's metrics, the --cgroup pattern and the root it must stay
 * beneath, and HOST:PORT[:STATS_PORT].
 */
#include <stdlib.h>
#include <string.h>

#include "aggctl.h"
#include "tap.h"

static struct job_metrics jobs[AGGCTL_MAX_JOBS];

static const struct job_metrics *find(const struct daemon_metrics *d,
				      const char *name)
{
	for (unsigned int i = 0; i < d->n_jobs; i++)
		if (!strcmp(d->jobs[i].name, name))
			return &d->jobs[i];
	return NULL;
}

static void test_metrics(void)
{
	static const char text[] =
		"# HELP spare_aggd_cores_max Pool threads at most (--max-cores).\n"
		"# TYPE spare_aggd_cores_max gauge\n"
		"spare_aggd_cores_max 4\n"
		"spare_aggd_flowcon 1\n"
		"spare_aggd_job_moving{job_name=\"a\",barrier=\"3\"} 1\n"
		"spare_aggd_job_flowcon_share{job_name=\"a\"} 1.500000\n"
		"spare_aggd_job_flowcon_share{job_name=\"we\\\"ird\\\\job\"} 0.25\n"
		"spare_aggd_job_flowcon_watched{job_name=\"we\\\"ird\\\\job\"} 1\n"
		"spare_aggd_job_report_loss{job_name=\"a\"} 0.5\n"
		"spare_aggd_job_report_prev_loss{job_name=\"a\"} 0.75\n"
		"spare_aggd_job_report_cpu_rate{job_name=\"a\"} 2.5\n"
		"spare_aggd_job_report_remaining_cpu_seconds{job_name=\"a\"} 100\n"
		"spare_aggd_job_pushes_total{job_name=\"b\"} 7\n"
		"# hist 100 1 0.000 0\n";
	struct daemon_metrics d = { .jobs = jobs };
	const struct job_metrics *a, *w;

	EXPECT_EQ(parse_metrics(text, &d), 0);
	EXPECT(d.cores_max == 4 && d.flowcon);
	EXPECT_EQ(d.n_jobs, 2);		/* b has none of the metrics read */
	a = find(&d, "a");
	w = find(&d, "we\"ird\\job");
	EXPECT(a && w);
	if (!a || !w)
		return;
	EXPECT(a->v[M_SHARE] == 1.5 && a->v[M_LOSS] == 0.5 &&
	       a->v[M_PREV_LOSS] == 0.75 && a->v[M_CPU_RATE] == 2.5 &&
	       a->v[M_REMAINING] == 100);
	EXPECT(!(a->have & (1U << M_WATCHED)));
	EXPECT(w->v[M_SHARE] == 0.25 && w->v[M_WATCHED] == 1);
	EXPECT_EQ(w->have, (1U << M_SHARE) | (1U << M_WATCHED));
	/* without FlowCon */
	EXPECT_EQ(parse_metrics("spare_aggd_flowcon 0\nspare_aggd_cores_max 2\n", &d), 0);
	EXPECT(!d.flowcon && d.n_jobs == 0 && d.cores_max == 2);
	/* a label that is not the daemon's escaping */
	EXPECT_EQ(parse_metrics("spare_aggd_job_report_loss{job_name=\"a\\x\"} 1\n", &d), -1);
	EXPECT_EQ(parse_metrics("spare_aggd_job_report_loss{job_name=\"a\n", &d), -1);
}

static void test_expand(void)
{
	char out[64];

	EXPECT_EQ(cgroup_expand("/sys/fs/cgroup/train-%j", "j1", out, sizeof(out)), 0);
	EXPECT(!strcmp(out, "/sys/fs/cgroup/train-j1"));
	EXPECT_EQ(cgroup_expand("/r/%j/x%%y/%j", "a", out, sizeof(out)), 0);
	EXPECT(!strcmp(out, "/r/a/x%y/a"));
	EXPECT_EQ(cgroup_expand("/sys/fs/cgroup/train", "a", out, sizeof(out)), -1);
	EXPECT_EQ(cgroup_expand("/r/%d-%j", "a", out, sizeof(out)), -1);
	EXPECT_EQ(cgroup_expand("/r/%j%", "a", out, sizeof(out)), -1);
	EXPECT_EQ(cgroup_expand("/r/%j", "0123456789012345678901234567890123456789"
				"0123456789012345678901234", out, sizeof(out)), -1);
	EXPECT(cgroup_name_ok("job-1") && cgroup_name_ok("a.b"));
	EXPECT(!cgroup_name_ok("a/b") && !cgroup_name_ok("..") &&
	       !cgroup_name_ok(".hidden"));
}

static void test_under_root(void)
{
	const char *rel;

	rel = cgroup_under_root("/sys/fs/cgroup/train-a", "/sys/fs/cgroup");
	EXPECT(rel && !strcmp(rel, "train-a"));
	rel = cgroup_under_root("/sys/fs/cgroup//x/y", "/sys/fs/cgroup/");
	EXPECT(rel && !strcmp(rel, "x/y"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroupX/a", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroup", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroup/", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroup/../etc", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroup/a/../../etc", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/sys/fs/cgroup/./a", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("/tmp/a", "/sys/fs/cgroup"));
	EXPECT(!cgroup_under_root("sys/fs/cgroup/a", "sys/fs/cgroup"));
	rel = cgroup_under_root("/sys/fs/cgroup/a..b", "/sys/fs/cgroup");
	EXPECT(rel && !strcmp(rel, "a..b"));
	rel = cgroup_under_root("/a", "/");
	EXPECT(rel && !strcmp(rel, "a"));
}

static void test_host(void)
{
	struct host h;

	EXPECT_EQ(parse_host("10.0.0.2:18516", &h), 0);
	EXPECT(!strcmp(h.addr, "10.0.0.2") && h.port == 18516 && h.stats_port == 18516);
	EXPECT_EQ(parse_host("10.0.0.2:18516:9000", &h), 0);
	EXPECT(h.port == 18516 && h.stats_port == 9000);
	EXPECT_EQ(parse_host("10.0.0.2", &h), -1);
	EXPECT_EQ(parse_host(":1", &h), -1);
	EXPECT_EQ(parse_host("h:0", &h), -1);
	EXPECT_EQ(parse_host("h:65536", &h), -1);
	EXPECT_EQ(parse_host("h:1:x", &h), -1);
	EXPECT_EQ(parse_host("h:1x", &h), -1);
}

static void test_nonneg(void)
{
	double v;

	EXPECT(!parse_nonneg("0.5", &v) && v == 0.5);
	EXPECT_EQ(parse_nonneg("-1", &v), -1);
	EXPECT_EQ(parse_nonneg("nan", &v), -1);
	EXPECT_EQ(parse_nonneg("inf", &v), -1);
	EXPECT_EQ(parse_nonneg("", &v), -1);
	EXPECT_EQ(parse_nonneg("1s", &v), -1);
}

/* -j stats: every sample, labels unescaped, integers kept, bad lines refused. */
static void test_stats_json(void)
{
	static const char text[] =
		"# HELP aggd_cores_max Pool threads.\n"
		"# TYPE aggd_cores_max gauge\n"
		"aggd_cores_max 2\n"
		"aggd_cpu_seconds_total 0.5\n"
		"aggd_job_failed{job=\"we\\\"ird\\\\job\",x=\"a\\nb\"} 0\n"
		"aggd_nan NaN\n";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	EXPECT(f != NULL);
	if (!f)
		return;
	EXPECT_EQ(stats_print_json(text, f), 0);
	fclose(f);
	EXPECT(out && strstr(out, "{\"name\":\"aggd_cores_max\",\"labels\":{},\"value\":2}"));
	EXPECT(out && strstr(out, "\"value\":0.5"));
	EXPECT(out && strstr(out, "\"labels\":{\"job\":\"we\\\"ird\\\\job\",\"x\":\"a\\nb\"}"));
	EXPECT(out && strstr(out, "\"value\":\"NaN\""));
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	if (!f)
		return;
	EXPECT_EQ(stats_print_json("aggd_x{job=\"unterminated} 1\n", f), -1);
	EXPECT_EQ(stats_print_json("aggd_x\n", f), -1);
	EXPECT_EQ(stats_print_json("aggd_x one\n", f), -1);
	fclose(f);
	free(out);
}

int main(void)
{
	TAP_RUN(test_metrics);
	TAP_RUN(test_expand);
	TAP_RUN(test_under_root);
	TAP_RUN(test_host);
	TAP_RUN(test_nonneg);
	TAP_RUN(test_stats_json);
	return tap_done();
}
