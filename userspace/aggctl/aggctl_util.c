// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl: reading spare-aggd's metrics (the Prometheus text format,
 * job names unescaped from their labels) and checking cgroup paths. Pure
 * functions, unit-tested in tests/unit/test_aggctl.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "aggctl.h"

static const char *const job_metric[M_N] = {
	[M_SHARE] = "spare_aggd_job_flowcon_share",
	[M_LOSS] = "spare_aggd_job_report_loss",
	[M_PREV_LOSS] = "spare_aggd_job_report_prev_loss",
	[M_CPU_RATE] = "spare_aggd_job_report_cpu_rate",
	[M_REMAINING] = "spare_aggd_job_report_remaining_cpu_seconds",
	[M_WATCHED] = "spare_aggd_job_flowcon_watched",
};

/* The value of a label job_name="..." starting at p (after the quote). */
static const char *parse_job_label(const char *p, char *out, size_t len)
{
	size_t n = 0;

	for (; *p && *p != '"'; p++) {
		char ch = *p;

		if (ch == '\\') {
			p++;
			if (*p == 'n')
				ch = '\n';
			else if (*p == '\\' || *p == '"')
				ch = *p;
			else
				return NULL;
		}
		if (n + 1 >= len)
			return NULL;
		out[n++] = ch;
	}
	if (*p != '"')
		return NULL;
	out[n] = '\0';
	return p + 1;
}

static struct job_metrics *job_slot(struct daemon_metrics *d, const char *name)
{
	for (unsigned int i = 0; i < d->n_jobs; i++)
		if (!strcmp(d->jobs[i].name, name))
			return &d->jobs[i];
	if (d->n_jobs == AGGCTL_MAX_JOBS)
		return NULL;
	memset(&d->jobs[d->n_jobs], 0, sizeof(d->jobs[0]));
	snprintf(d->jobs[d->n_jobs].name, sizeof(d->jobs[0].name), "%s", name);
	return &d->jobs[d->n_jobs++];
}

/* 0, or -1 with a reason on stderr for text that is not the daemon's. */
int parse_metrics(const char *text, struct daemon_metrics *d)
{
	const char *line = text;

	d->cores_max = 0;
	d->flowcon = false;
	d->n_jobs = 0;
	while (*line) {
		const char *end = strchr(line, '\n'), *p;
		char name[128], job[AGG_NAME_LEN + 1];
		size_t nl;
		double v;
		char *vend;

		if (!end)
			end = line + strlen(line);
		if (*line == '#' || line == end)
			goto next;
		nl = strcspn(line, "{ ");
		if (nl >= sizeof(name) || line + nl >= end)
			goto next;
		memcpy(name, line, nl);
		name[nl] = '\0';
		p = line + nl;
		job[0] = '\0';
		if (*p == '{') {
			if (strncmp(p, "{job_name=\"", 11))
				goto next;
			p = parse_job_label(p + 11, job, sizeof(job));
			if (!p) {
				fprintf(stderr, "spare-aggctl: malformed job label in the metrics\n");
				return -1;
			}
			p = strchr(p, '}');
			if (!p || p > end)
				goto next;
			p++;
		}
		errno = 0;
		v = strtod(p, &vend);
		if (errno || vend == p)
			goto next;
		if (!job[0]) {
			if (!strcmp(name, "spare_aggd_cores_max"))
				d->cores_max = v;
			else if (!strcmp(name, "spare_aggd_flowcon"))
				d->flowcon = v == 1;
			goto next;
		}
		for (unsigned int m = 0; m < M_N; m++) {
			struct job_metrics *jm;

			if (strcmp(name, job_metric[m]))
				continue;
			jm = job_slot(d, job);
			if (!jm) {
				fprintf(stderr, "spare-aggctl: more than %d jobs\n", AGGCTL_MAX_JOBS);
				return -1;
			}
			jm->v[m] = v;
			jm->have |= 1U << m;
		}
next:
		line = *end ? end + 1 : end;
	}
	return 0;
}

int cgroup_expand(const char *pattern, const char *job, char *out, size_t len)
{
	size_t n = 0;
	bool has_job = false;

	for (const char *p = pattern; *p; p++) {
		const char *add = NULL;
		char one[2] = { *p, 0 };

		if (*p == '%') {
			p++;
			if (*p == 'j') {
				add = job;
				has_job = true;
			} else if (*p == '%') {
				add = "%";
			} else {
				return -1;
			}
		} else {
			add = one;
		}
		if (n + strlen(add) >= len)
			return -1;
		memcpy(out + n, add, strlen(add));
		n += strlen(add);
	}
	out[n] = '\0';
	return has_job ? 0 : -1;
}

bool cgroup_name_ok(const char *job)
{
	return !strchr(job, '/') && job[0] != '.';
}

const char *cgroup_under_root(const char *path, const char *root)
{
	size_t rl = strlen(root);
	const char *rel, *c;

	if (root[0] != '/' || path[0] != '/')
		return NULL;	/* both absolute */
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (strncmp(path, root, rl) || (rl > 1 && path[rl] != '/'))
		return NULL;
	rel = path + rl;
	while (*rel == '/')
		rel++;
	if (!*rel)
		return NULL;
	for (c = rel; *c; ) {
		size_t cl = strcspn(c, "/");

		if ((cl == 1 && c[0] == '.') || (cl == 2 && c[0] == '.' && c[1] == '.'))
			return NULL;
		c += cl;
		while (*c == '/')
			c++;
	}
	return rel;
}

int parse_host(const char *s, struct host *h)
{
	char buf[AGG_HOST_LEN + 32], *c1, *c2, *end;
	unsigned long p;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	c1 = strchr(buf, ':');
	if (!c1 || c1 == buf)
		return -1;
	*c1++ = '\0';
	c2 = strchr(c1, ':');
	if (c2)
		*c2++ = '\0';
	if (strlen(buf) > AGG_HOST_LEN)
		return -1;
	strcpy(h->addr, buf);
	errno = 0;
	p = strtoul(c1, &end, 10);
	if (errno || *end || !p || p > 65535)
		return -1;
	h->port = h->stats_port = (unsigned int)p;
	if (c2) {
		p = strtoul(c2, &end, 10);
		if (errno || *end || !p || p > 65535)
			return -1;
		h->stats_port = (unsigned int)p;
	}
	return 0;
}

int parse_nonneg(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || !*s || *end || !isfinite(*v) || *v < 0 ? -1 : 0;
}
