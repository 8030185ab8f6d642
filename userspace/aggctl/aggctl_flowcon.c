// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl flowcon: FlowCon's shares, read from a spare-aggd running
 * --flowcon, written to each job's trainer cgroup as cpu.max, never through
 * a symlink out of the root (openat2 RESOLVE_BENEATH).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/openat2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aggctl.h"

#define CPU_PERIOD_US	100000	/* cpu.max period written */
#define CPU_QUOTA_MIN	1000	/* the kernel's smallest quota */

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

int cmd_flowcon(const char *host, unsigned int port, int argc, char **argv)
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

		if (cgroup_expand(pattern, "job", probe, sizeof(probe)) ||
		    !cgroup_under_root(probe, root)) {
			fprintf(stderr,
				"spare-aggctl: --cgroup '%s' must contain %%j and lie under %s (use --root to change it)\n",
				pattern, root);
			return 2;
		}
	}
	d.jobs = calloc(AGGCTL_MAX_JOBS, sizeof(*d.jobs));
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
		if (!cgroup_name_ok(j->name) ||
		    cgroup_expand(pattern, j->name, path, sizeof(path)) ||
		    !(rel = cgroup_under_root(path, root))) {
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
