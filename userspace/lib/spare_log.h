/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logging for spare's daemons and tools: one line per event, to stderr,
 * where systemd's journal (or the VM rig's console) picks it up.
 *
 *   spared[812.345]: warn: client 10.0.0.1:4711#3: MAP slab 3: already mapped
 *
 * The time stamp is CLOCK_MONOTONIC seconds, as in the kernel's log.
 * Under systemd (stderr is the stream named by $JOURNAL_STREAM) a line is
 * "<N>level: message" instead, N the syslog priority (3 err, 4 warn,
 * 6 info, 7 debug), so that the journal keeps the levels.
 */
#ifndef SPARE_LOG_H
#define SPARE_LOG_H

enum spare_log_level {
	SPARE_LOG_ERR	= 0,
	SPARE_LOG_WARN	= 1,
	SPARE_LOG_INFO	= 2,
	SPARE_LOG_DEBUG	= 3,
};

#include <stdbool.h>

/* @prog prefixes every line; it must outlive the program (argv[0] is fine). */
void spare_log_init(const char *prog, enum spare_log_level level);

/*
 * For a command-line tool: lines are "prog: message" ("prog: warning:
 * message" for a warning), without the daemons' time stamp and level,
 * as CLIs print errors. Under systemd's journal, as spare_log_init().
 */
void spare_log_init_cli(const char *prog, enum spare_log_level level);
void spare_log_set_level(enum spare_log_level level);
enum spare_log_level spare_log_get_level(void);

/* Whether stderr is systemd's journal stream (checked by spare_log_init). */
bool spare_log_stderr_is_journal(void);

/* "err", "warn", "info" or "debug" (or 0..3); returns -1 if unknown. */
int spare_log_parse_level(const char *s);

/*
 * For a thread that retries something and should log once per change, not
 * per try: while @buf is set, this thread's errors and warnings are not
 * printed; the first one since the call is kept in @buf (NUL terminated,
 * "" if none). NULL ends it.
 */
void spare_log_thread_capture(char *buf, unsigned int len);

void spare_log(enum spare_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_err(...)	spare_log(SPARE_LOG_ERR, __VA_ARGS__)
#define log_warn(...)	spare_log(SPARE_LOG_WARN, __VA_ARGS__)
#define log_info(...)	spare_log(SPARE_LOG_INFO, __VA_ARGS__)
#define log_dbg(...)	spare_log(SPARE_LOG_DEBUG, __VA_ARGS__)

#endif /* SPARE_LOG_H */
