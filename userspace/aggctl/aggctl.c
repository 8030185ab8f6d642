// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl: admin client of spare-aggd (Documentation/aggd.md).
 *
 *   spare-aggctl [-a HOST] [-p PORT] stats
 *   spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] migrate JOB TO_HOST:TO_PORT
 *   spare-aggctl [-a HOST] [-p PORT] flowcon --cgroup PATTERN [--root DIR]
 *                [--dry-run]
 *   spare-aggctl [-a HOST] [-p PORT] [-s STATS_PORT] [-t TOKEN] specon
 *                --peer HOST:PORT[:STATS_PORT]... [--alpha A]
 *                [--move-cost SEC] [--dry-run]
 *
 * stats prints the daemon's metrics. migrate asks the daemon at HOST:PORT
 * to move job JOB to the spare-aggd at TO_HOST:TO_PORT (numeric IPv4, as
 * the job's workers reach it) and waits until it has moved; the job's
 * token comes from -t or $SPARE_AGG_TOKEN.
 *
 * flowcon reads the FlowCon shares of a daemon running --flowcon (its
 * metrics) and writes each job's share to the cpu.max of its trainers'
 * cgroup, PATTERN with %j replaced by the job's name. The cgroup must lie
 * under /sys/fs/cgroup, or under --root DIR; no symlink is followed out of
 * that root (openat2 RESOLVE_BENEATH).
 *
 * specon reads the REPORT-derived progress of the jobs of this daemon and
 * of every --peer, runs libspare-sched's SpeCon decision and, when it says
 * move, performs the migrate (without --dry-run).
 *
 * Exit status 0 on success, 1 if a daemon refused or an action failed
 * (the reason on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/openat2.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agg_proto.h"
#include "spare_agg.h"
#include "specon.h"

#define CPU_PERIOD_US	100000	/* cpu.max period written */
#define CPU_QUOTA_MIN	1000	/* the kernel's smallest quota */
#define MAX_HOSTS	8
#define MAX_JOBS	1024

static void usage(void)
{
	fprintf(stderr,
		"usage: spare-aggctl [-a HOST] [-p PORT] stats\n"
		"       spare-aggctl [-a HOST] [-p PORT] [-t TOKEN] migrate JOB TO_HOST:TO_PORT\n"
		"       spare-aggctl [-a HOST] [-p PORT] flowcon --cgroup PATTERN [--root DIR] [--dry-run]\n"
		"       spare-aggctl [-a HOST] [-p PORT] [-s STATS_PORT] [-t TOKEN] specon\n"
		"                    --peer HOST:PORT[:STATS_PORT]... [--alpha A] [--move-cost SEC] [--dry-run]\n");
	exit(2);
}

/* ---- the daemon's metrics (Prometheus text) ---- */

enum {
	M_SHARE, M_LOSS, M_PREV_LOSS, M_CPU_RATE, M_REMAINING, M_WATCHED,
	M_N,
};

static const char *const job_metric[M_N] = {
	[M_SHARE] = "aggd_job_flowcon_share",
	[M_LOSS] = "aggd_job_report_loss",
	[M_PREV_LOSS] = "aggd_job_report_prev_loss",
	[M_CPU_RATE] = "aggd_job_report_cpu_rate",
	[M_REMAINING] = "aggd_job_report_remaining_cpu_seconds",
	[M_WATCHED] = "aggd_job_flowcon_watched",
};

struct job_metrics {
	char name[AGG_NAME_LEN + 1];
	double v[M_N];
	unsigned int have;	/* bit per M_* */
};

struct daemon_metrics {
	double cores_max;
	bool flowcon;
	struct job_metrics *jobs;
	unsigned int n_jobs;
};

/* The value of a label job="..." starting at p (after the quote). */
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
	if (d->n_jobs == MAX_JOBS)
		return NULL;
	memset(&d->jobs[d->n_jobs], 0, sizeof(d->jobs[0]));
	snprintf(d->jobs[d->n_jobs].name, sizeof(d->jobs[0].name), "%s", name);
	return &d->jobs[d->n_jobs++];
}

/* 0, or -1 with a reason on stderr for text that is not the daemon's. */
static int parse_metrics(const char *text, struct daemon_metrics *d)
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
			if (strncmp(p, "{job=\"", 6))
				goto next;
			p = parse_job_label(p + 6, job, sizeof(job));
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
			if (!strcmp(name, "aggd_cores_max"))
				d->cores_max = v;
			else if (!strcmp(name, "aggd_flowcon"))
				d->flowcon = v == 1;
			goto next;
		}
		for (unsigned int m = 0; m < M_N; m++) {
			struct job_metrics *jm;

			if (strcmp(name, job_metric[m]))
				continue;
			jm = job_slot(d, job);
			if (!jm) {
				fprintf(stderr, "spare-aggctl: more than %d jobs\n", MAX_JOBS);
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

static int fetch_metrics(const char *host, unsigned int port,
			 struct daemon_metrics *d)
{
	char err[256], *text = NULL;
	struct spare_agg *a = spare_agg_connect(host, port, err, sizeof(err));
	int ret;

	if (!a) {
		fprintf(stderr, "spare-aggctl: %s:%u: %s\n", host, port, err);
		return -1;
	}
	spare_agg_set_timeout(a, 10000);
	if (spare_agg_stats(a, &text)) {
		fprintf(stderr, "spare-aggctl: %s:%u: %s\n", host, port,
			spare_agg_error(a));
		spare_agg_close(a);
		return -1;
	}
	spare_agg_close(a);
	ret = parse_metrics(text, d);
	free(text);
	return ret;
}

/* ---- flowcon: cpu.max ---- */

/* PATTERN with %j = job, %% = %; -1 if it is malformed. */
static int expand(const char *pattern, const char *job, char *out, size_t len)
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

/* Job names become one path component: no '/', not "." or "..". */
static bool name_fits_path(const char *job)
{
	return !strchr(job, '/') && job[0] != '.';
}

/*
 * The cgroup directory relative to root (a pointer into @path), or NULL
 * when @path is not strictly inside @root or has a "." or ".." component.
 */
static const char *under_root(const char *path, const char *root)
{
	size_t rl = strlen(root);
	const char *rel, *c;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (strncmp(path, root, rl) || (rl > 1 && path[rl] != '/') ||
	    (rl == 1 && root[0] != '/'))
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

static int write_cpu_max(int root_fd, const char *rel, const char *value)
{
	struct open_how how = {
		.flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	char path[PATH_MAX];
	size_t len = strlen(value);
	ssize_t w;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/cpu.max", rel) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = (int)syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
	if (fd < 0)
		return -1;
	w = write(fd, value, len);
	if (w != (ssize_t)len) {
		int e = w < 0 ? errno : EIO;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static int cmd_flowcon(const char *host, unsigned int port, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pattern = NULL, *root = "/sys/fs/cgroup";
	struct daemon_metrics d = { 0 };
	bool dry = false;
	int opt, root_fd = -1, ret = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (opt) {
		case 'c': pattern = optarg; break;
		case 'r': root = optarg; break;
		case 'n': dry = true; break;
		default: usage();
		}
	}
	if (optind != argc || !pattern)
		usage();
	if (root[0] != '/') {
		fprintf(stderr, "spare-aggctl: --root must be an absolute path\n");
		return 2;
	}
	{
		char probe[PATH_MAX];

		if (expand(pattern, "job", probe, sizeof(probe)) ||
		    !under_root(probe, root)) {
			fprintf(stderr,
				"spare-aggctl: --cgroup '%s' must contain %%j and lie under %s (use --root to change it)\n",
				pattern, root);
			return 2;
		}
	}
	d.jobs = calloc(MAX_JOBS, sizeof(*d.jobs));
	if (!d.jobs) {
		fprintf(stderr, "spare-aggctl: out of memory\n");
		return 1;
	}
	if (fetch_metrics(host, port, &d)) {
		free(d.jobs);
		return 1;
	}
	if (!d.flowcon) {
		fprintf(stderr, "spare-aggctl: %s:%u does not run FlowCon (start spare-aggd with --flowcon)\n",
			host, port);
		free(d.jobs);
		return 1;
	}
	if (!dry) {
		root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root_fd < 0) {
			fprintf(stderr, "spare-aggctl: %s: %s\n", root, strerror(errno));
			free(d.jobs);
			return 1;
		}
	}
	for (unsigned int i = 0; i < d.n_jobs; i++) {
		const struct job_metrics *j = &d.jobs[i];
		char path[PATH_MAX], value[64];
		const char *rel;
		long quota;

		if (!(j->have & (1U << M_SHARE)))
			continue;
		if (!(j->v[M_SHARE] >= 0) || !isfinite(j->v[M_SHARE])) {
			fprintf(stderr, "spare-aggctl: job '%s': bad share %g\n",
				j->name, j->v[M_SHARE]);
			ret = 1;
			continue;
		}
		if (!name_fits_path(j->name) ||
		    expand(pattern, j->name, path, sizeof(path)) ||
		    !(rel = under_root(path, root))) {
			fprintf(stderr, "spare-aggctl: job '%s': its name does not make a path under %s; skipped\n",
				j->name, root);
			ret = 1;
			continue;
		}
		quota = lround(j->v[M_SHARE] * CPU_PERIOD_US);
		if (quota < CPU_QUOTA_MIN)
			quota = CPU_QUOTA_MIN;
		snprintf(value, sizeof(value), "%ld %d\n", quota, CPU_PERIOD_US);
		if (dry) {
			printf("%s: %s/cpu.max <- %ld %d (share %.3f cores%s)\n", j->name,
			       path, quota, CPU_PERIOD_US, j->v[M_SHARE],
			       (j->have & (1U << M_WATCHED)) && j->v[M_WATCHED] == 1 ?
			       ", watched" : "");
			continue;
		}
		if (write_cpu_max(root_fd, rel, value)) {
			fprintf(stderr, "spare-aggctl: job '%s': %s/cpu.max: %s\n",
				j->name, path,
				errno == EXDEV || errno == ELOOP ?
				"a symlink or '..' leads out of the root; not written" :
				strerror(errno));
			ret = 1;
			continue;
		}
		printf("%s: %s/cpu.max = %ld %d\n", j->name, path, quota, CPU_PERIOD_US);
	}
	if (root_fd >= 0)
		close(root_fd);
	free(d.jobs);
	return ret;
}

/* ---- specon ---- */

struct host {
	char addr[AGG_HOST_LEN + 1];
	unsigned int port, stats_port;
};

/* HOST:PORT[:STATS_PORT] */
static int parse_host(const char *s, struct host *h)
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

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || !*s || *end || !isfinite(*v) || *v < 0 ? -1 : 0;
}

static int cmd_specon(const struct host *self, const char *token, int argc,
		      char **argv)
{
	static const struct option lopts[] = {
		{ "peer", required_argument, NULL, 'P' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "move-cost", required_argument, NULL, 'C' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct specon_params sp = specon_defaults;
	struct host hosts[MAX_HOSTS];
	struct specon_host sh[MAX_HOSTS];
	struct specon_job *sj;
	struct daemon_metrics d = { 0 };
	const char **names;
	unsigned int nh = 1, n = 0;
	struct specon_move mv;
	bool dry = false;
	int opt, ret = 0;

	hosts[0] = *self;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (opt) {
		case 'P':
			if (nh == MAX_HOSTS || parse_host(optarg, &hosts[nh])) {
				fprintf(stderr, "spare-aggctl: bad --peer '%s' (HOST:PORT[:STATS_PORT], at most %d)\n",
					optarg, MAX_HOSTS - 1);
				return 2;
			}
			nh++;
			break;
		case 'A':
			if (parse_double(optarg, &sp.alpha) || sp.alpha > 1)
				usage();
			break;
		case 'C':
			if (parse_double(optarg, &sp.move_cost))
				usage();
			break;
		case 'n': dry = true; break;
		default: usage();
		}
	}
	if (optind != argc || nh < 2)
		usage();
	if (!dry && !token) {
		fprintf(stderr, "spare-aggctl: specon moves a job: give its token (-t or $SPARE_AGG_TOKEN), or --dry-run\n");
		return 2;
	}
	d.jobs = calloc(MAX_JOBS, sizeof(*d.jobs));
	sj = calloc(MAX_JOBS, sizeof(*sj));
	names = calloc(MAX_JOBS, sizeof(*names));
	if (!d.jobs || !sj || !names) {
		fprintf(stderr, "spare-aggctl: out of memory\n");
		ret = 1;
		goto out;
	}
	/* every host's jobs; names point into per-host copies kept below */
	for (unsigned int h = 0; h < nh; h++) {
		if (fetch_metrics(hosts[h].addr, hosts[h].stats_port, &d)) {
			ret = 1;
			goto out;
		}
		sh[h].cores = d.cores_max;
		if (!(d.cores_max > 0)) {
			fprintf(stderr, "spare-aggctl: %s:%u reports no cores\n",
				hosts[h].addr, hosts[h].stats_port);
			ret = 1;
			goto out;
		}
		for (unsigned int i = 0; i < d.n_jobs; i++) {
			const struct job_metrics *j = &d.jobs[i];
			const unsigned int need = 1U << M_LOSS | 1U << M_CPU_RATE |
						  1U << M_REMAINING;

			if ((j->have & need) != need || !(j->v[M_CPU_RATE] > 0)) {
				if (j->have & (1U << M_LOSS))
					printf("%s on %s:%u: not counted (needs two REPORTs with CPU used and an iter_total)\n",
					       j->name, hosts[h].addr, hosts[h].port);
				continue;
			}
			if (n == MAX_JOBS)
				break;
			names[n] = strdup(j->name);
			if (!names[n]) {
				ret = 1;
				goto out;
			}
			sj[n] = (struct specon_job){
				.active = true, .host = h,
				.demand = j->v[M_CPU_RATE],
				.remaining = j->v[M_REMAINING],
				.loss = j->v[M_LOSS],
				.prev_loss = (j->have & (1U << M_PREV_LOSS)) ?
					     j->v[M_PREV_LOSS] : 0,
			};
			printf("%s on %s:%u: loss %.6g -> %.6g, %.3f cores, %.1f CPU-s left%s\n",
			       names[n], hosts[h].addr, hosts[h].port,
			       sj[n].prev_loss, sj[n].loss, sj[n].demand,
			       sj[n].remaining,
			       specon_slow(&sp, &sj[n]) ? ", slow-growing" : "");
			n++;
		}
	}
	if (specon_decide(&sp, sh, nh, sj, n, &mv)) {
		fprintf(stderr, "spare-aggctl: SpeCon refused the inputs (a bad demand or remaining work)\n");
		ret = 1;
		goto out;
	}
	if (mv.job < 0) {
		printf("decision: no move\n");
		goto out;
	}
	printf("decision: move %s from %s:%u to %s:%u (modelled gain %.1f s)\n",
	       names[mv.job], hosts[mv.from].addr, hosts[mv.from].port,
	       hosts[mv.to].addr, hosts[mv.to].port, mv.gain);
	if (!dry) {
		char err[256], msg[300];
		struct spare_agg *a = spare_agg_connect(hosts[mv.from].addr,
							hosts[mv.from].port,
							err, sizeof(err));
		uint32_t iter;

		if (!a) {
			fprintf(stderr, "spare-aggctl: %s\n", err);
			ret = 1;
			goto out;
		}
		if (spare_agg_migrate(a, names[mv.job], token, hosts[mv.to].addr,
				      hosts[mv.to].port, &iter, msg, sizeof(msg))) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			printf("%s\n", msg);
		}
		spare_agg_close(a);
	}
out:
	for (unsigned int i = 0; names && i < n; i++)
		free((void *)names[i]);
	free(names);
	free(sj);
	free(d.jobs);
	return ret;
}

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1", *token = getenv("SPARE_AGG_TOKEN");
	unsigned long port = AGG_DEFAULT_PORT, stats_port = 0;
	struct spare_agg *a;
	char err[256];
	int opt, ret = 0;

	/* '+': options after the command are the command's */
	while ((opt = getopt(argc, argv, "+a:p:s:t:")) != -1) {
		switch (opt) {
		case 'a': host = optarg; break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 's': stats_port = strtoul(optarg, NULL, 0); break;
		case 't': token = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc || !port || port > 65535 || stats_port > 65535)
		usage();
	if (!strcmp(argv[optind], "flowcon"))
		return cmd_flowcon(host, (unsigned int)port, argc - optind,
				   argv + optind);
	if (!strcmp(argv[optind], "specon")) {
		struct host self;

		if (strlen(host) > AGG_HOST_LEN)
			usage();
		strcpy(self.addr, host);
		self.port = (unsigned int)port;
		self.stats_port = stats_port ? (unsigned int)stats_port : self.port;
		return cmd_specon(&self, token, argc - optind, argv + optind);
	}
	a = spare_agg_connect(host, (unsigned int)port, err, sizeof(err));
	if (!a) {
		fprintf(stderr, "spare-aggctl: %s\n", err);
		return 1;
	}
	if (!strcmp(argv[optind], "stats") && optind + 1 == argc) {
		char *text = NULL;

		spare_agg_set_timeout(a, 10000);
		if (spare_agg_stats(a, &text)) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			fputs(text, stdout);
			free(text);
		}
	} else if (!strcmp(argv[optind], "migrate") && optind + 3 == argc) {
		char to[AGG_HOST_LEN + 16], msg[300], *colon;
		unsigned long to_port;
		uint32_t iter;

		snprintf(to, sizeof(to), "%s", argv[optind + 2]);
		colon = strrchr(to, ':');
		if (!token || !colon)
			usage();
		*colon = '\0';
		to_port = strtoul(colon + 1, NULL, 0);
		if (!to_port || to_port > 65535)
			usage();
		/* no timeout: the move waits for the job's iteration barrier */
		if (spare_agg_migrate(a, argv[optind + 1], token, to,
				      (unsigned int)to_port, &iter, msg, sizeof(msg))) {
			fprintf(stderr, "spare-aggctl: %s\n", spare_agg_error(a));
			ret = 1;
		} else {
			printf("%s\n", msg);
		}
	} else {
		spare_agg_close(a);
		usage();
	}
	spare_agg_close(a);
	return ret;
}
