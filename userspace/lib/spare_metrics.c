// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition writer. See spare_metrics.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "spare_metrics.h"

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

void spare_metrics_family(struct spare_metrics *m, const char *name,
			  enum spare_metric_type type, const char *help)
{
	if (!spare_metrics_valid_name(name)) {
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
		if (!spare_metrics_valid_label(labels[i]) || !labels[i + 1]) {
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
