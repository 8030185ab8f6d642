// SPDX-License-Identifier: GPL-2.0
/*
 * Logging to stderr with levels. See spare_log.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "spare_log.h"

static const char *log_prog = "spare";
static enum spare_log_level log_level = SPARE_LOG_INFO;
static bool log_journal;
static bool log_plain;		/* a CLI's "prog: message" */
static __thread char *cap_buf;
static __thread unsigned int cap_len;

/* syslog(3) priorities: LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG. */
static const int level_prio[] = {
	[SPARE_LOG_ERR]		= 3,
	[SPARE_LOG_WARN]	= 4,
	[SPARE_LOG_INFO]	= 6,
	[SPARE_LOG_DEBUG]	= 7,
};

static const char *const level_names[] = {
	[SPARE_LOG_ERR]		= "err",
	[SPARE_LOG_WARN]	= "warn",
	[SPARE_LOG_INFO]	= "info",
	[SPARE_LOG_DEBUG]	= "debug",
};

void spare_log_init(const char *prog, enum spare_log_level level)
{
	const char *slash;

	if (prog) {
		slash = strrchr(prog, '/');
		log_prog = slash ? slash + 1 : prog;
	}
	log_level = level;
	log_journal = spare_log_stderr_is_journal();
}

void spare_log_init_cli(const char *prog, enum spare_log_level level)
{
	spare_log_init(prog, level);
	log_plain = true;
}

bool spare_log_stderr_is_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	int used = 0;

	/* systemd sets JOURNAL_STREAM=<dev>:<inode> of the stream it gave us
	 * as stderr; if stderr was redirected since, it no longer matches. */
	if (!env || sscanf(env, "%llu:%llu%n", &dev, &ino, &used) != 2 ||
	    env[used] || fstat(2, &st))
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

void spare_log_set_level(enum spare_log_level level)
{
	log_level = level;
}

enum spare_log_level spare_log_get_level(void)
{
	return log_level;
}

int spare_log_parse_level(const char *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (!strcasecmp(s, level_names[i]))
			return (int)i;
	if (s[0] >= '0' && s[0] <= '3' && s[1] == '\0')
		return s[0] - '0';
	return -1;
}

void spare_log_thread_capture(char *buf, unsigned int len)
{
	cap_buf = len ? buf : NULL;
	cap_len = len;
	if (cap_buf)
		cap_buf[0] = 0;
}

void spare_log(enum spare_log_level level, const char *fmt, ...)
{
	char line[1024];
	int saved_errno = errno;
	struct timespec ts;
	va_list ap;

	if (cap_buf && level <= SPARE_LOG_WARN) {
		if (!cap_buf[0]) {
			va_start(ap, fmt);
			vsnprintf(cap_buf, cap_len, fmt, ap);
			va_end(ap);
		}
		errno = saved_errno;
		return;
	}
	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (log_journal) {
		/* The journal stamps time and program itself and reads the
		 * priority from the "<N>" prefix (sd-daemon(3)). */
		fprintf(stderr, "<%d>%s: %s\n", level_prio[level],
			level_names[level], line);
		errno = saved_errno;
		return;
	}
	if (log_plain) {
		fprintf(stderr, "%s: %s%s\n", log_prog,
			level == SPARE_LOG_WARN ? "warning: " : "", line);
		errno = saved_errno;
		return;
	}
	/* CLOCK_MONOTONIC matches the kernel's printk time stamps (and
	 * /proc/uptime), so daemon and kernel logs line up. One fprintf
	 * per line so that lines of concurrent writers never mix. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(stderr, "%s[%lld.%03ld]: %s: %s\n", log_prog, (long long)ts.tv_sec,
		ts.tv_nsec / 1000000, level_names[level], line);
	errno = saved_errno;
}
