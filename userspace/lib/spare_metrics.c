// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition writer. See spare_metrics.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spare_metrics.h"
#include "spare_version.h"

static bool name_ok(const char *s, bool colon)
{
	const char *p;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (p = s; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || (colon && c == ':')))
			return false;
	}
	return true;
}

bool spare_metrics_valid_name(const char *name)
{
	return name_ok(name, true);
}

bool spare_metrics_valid_label(const char *name)
{
	/* Names starting with "__" are reserved for Prometheus itself. */
	return name_ok(name, false) && strncmp(name, "__", 2);
}

void spare_metrics_escape(FILE *f, const char *s, bool label)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '"' && label)
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

static void fail(struct spare_metrics *m, int err)
{
	if (!m->err)
		m->err = err;
}

void spare_metrics_begin(struct spare_metrics *m, FILE *f, bool meta)
{
	memset(m, 0, sizeof(*m));
	m->f = f;
	m->meta = meta;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

void spare_metrics_family(struct spare_metrics *m, const char *name,
			  enum spare_metric_type type, const char *help)
{
	/* _total is the counters' suffix, and only theirs. */
	if (!spare_metrics_valid_name(name) ||
	    ends_with(name, "_total") != (type == SPARE_COUNTER)) {
		m->family = NULL;
		fail(m, EINVAL);
		return;
	}
	m->family = name;
	if (!m->meta)
		return;
	fprintf(m->f, "# HELP %s ", name);
	spare_metrics_escape(m->f, help, false);
	fprintf(m->f, "\n# TYPE %s %s\n", name,
		type == SPARE_COUNTER ? "counter" : "gauge");
}

/* The name and labels of a sample; false if nothing may be written. */
static bool sample_head(struct spare_metrics *m, const char *const *labels)
{
	unsigned int i;

	if (!m->family) {
		fail(m, EINVAL);
		return false;
	}
	for (i = 0; labels && labels[i]; i += 2)
		if (!spare_metrics_valid_label(labels[i]) || !labels[i + 1] ||
		    !strcmp(labels[i], "job") || !strcmp(labels[i], "instance")) {
			fail(m, EINVAL);
			return false;
		}
	fputs(m->family, m->f);
	for (i = 0; labels && labels[i]; i += 2) {
		fprintf(m->f, "%s%s=\"", i ? "," : "{", labels[i]);
		spare_metrics_escape(m->f, labels[i + 1], true);
		fputc('"', m->f);
	}
	if (labels && labels[0])
		fputc('}', m->f);
	return true;
}

void spare_metrics_u64(struct spare_metrics *m, const char *const *labels,
		       uint64_t value)
{
	if (sample_head(m, labels))
		fprintf(m->f, " %" PRIu64 "\n", value);
}

void spare_metrics_f3(struct spare_metrics *m, const char *const *labels,
		      double value)
{
	if (sample_head(m, labels))
		fprintf(m->f, " %.3f\n", value);
}

void spare_metrics_double(struct spare_metrics *m, const char *const *labels,
			  double value)
{
	if (!sample_head(m, labels))
		return;
	if (isnan(value))
		fputs(" NaN\n", m->f);
	else if (isinf(value))
		fputs(value > 0 ? " +Inf\n" : " -Inf\n", m->f);
	else
		fprintf(m->f, " %.17g\n", value);
}

void spare_metrics_one_u64(struct spare_metrics *m, const char *name,
			   enum spare_metric_type type, const char *help, uint64_t value)
{
	spare_metrics_family(m, name, type, help);
	spare_metrics_u64(m, NULL, value);
}

void spare_metrics_one_f3(struct spare_metrics *m, const char *name,
			  enum spare_metric_type type, const char *help, double value)
{
	spare_metrics_family(m, name, type, help);
	spare_metrics_f3(m, NULL, value);
}

void spare_metrics_one_double(struct spare_metrics *m, const char *name,
			      enum spare_metric_type type, const char *help, double value)
{
	spare_metrics_family(m, name, type, help);
	spare_metrics_double(m, NULL, value);
}

/*
 * When this process started, in seconds since the epoch: the boot time
 * (btime in /proc/stat) plus the start time in clock ticks after boot
 * (field 22 of /proc/self/stat). 0 if either cannot be read.
 */
static double process_start(void)
{
	static double start;
	unsigned long long btime = 0, ticks = 0;
	char line[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	int field;

	if (start > 0 || hz <= 0)
		return start;
	f = fopen("/proc/stat", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	f = fopen("/proc/self/stat", "re");
	if (!f)
		return 0;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	/*
	 * After "pid (comm)" come fields 3, 4, ...: the space after ')'
	 * precedes field 3, so 20 more spaces on is the one before field 22
	 * (the loop once stopped one short, at field 21, itrealvalue, always
	 * 0, which gave the machine's boot time).
	 */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || !btime || sscanf(p, " %llu", &ticks) != 1)
		return 0;
	start = (double)btime + (double)ticks / (double)hz;
	return start;
}

void spare_metrics_process(struct spare_metrics *m, const char *program)
{
	double start = process_start();

	spare_metrics_family(m, "spare_build_info", SPARE_GAUGE,
			     "Always 1; the labels name the program and its version.");
	spare_metrics_u64(m, (const char *const[]){ "program", program,
			  "version", spare_version(), NULL }, 1);
	if (start <= 0)
		return;
	spare_metrics_family(m, "process_start_time_seconds", SPARE_GAUGE,
			     "Start time of the process since the Unix epoch, in seconds.");
	spare_metrics_f3(m, NULL, start);
}

int spare_metrics_end(struct spare_metrics *m)
{
	if (!m->err && (fflush(m->f) || ferror(m->f)))
		fail(m, errno ? errno : EIO);
	if (m->err) {
		errno = m->err;
		return -1;
	}
	return 0;
}
