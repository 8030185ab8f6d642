/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File descriptors for spare's daemons: every daemon raises its soft
 * RLIMIT_NOFILE to the hard limit at start, caps its connections below
 * what is left after its own files, and when accept() fails for lack of
 * descriptors or memory it stops polling that listener for a short
 * back-off instead of spinning on a listener that stays readable. Each
 * of these events is one log line at most per SPARE_FD_LOG_MS, saying how
 * many were not logged.
 */
#ifndef SPARE_FDLIMIT_H
#define SPARE_FDLIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define SPARE_ACCEPT_BACKOFF_MS	100	/* listener paused after EMFILE */
#define SPARE_FD_LOG_MS		10000	/* one line per 10 s at most */
#define SPARE_FD_RESERVE	64	/* descriptors kept for everything but peers */

/* A line allowed once per interval; @quiet counts the ones held back. */
struct spare_ratelimit {
	uint64_t next_ms;
	unsigned long quiet;
};

/*
 * True when a line may be printed at @now_ms (then *@held_back is how many
 * were not printed since the last one, and the count restarts).
 */
bool spare_ratelimit_ok(struct spare_ratelimit *rl, uint64_t now_ms,
			unsigned int interval_ms, unsigned long *held_back);

/*
 * Raise the soft RLIMIT_NOFILE to the hard limit (one info line saying
 * both). Returns the soft limit now in force (1024 if it cannot be read).
 */
unsigned long spare_fd_raise_limit(void);

/*
 * The connection cap for a daemon allowed @nofile descriptors: @wanted, or
 * @nofile less SPARE_FD_RESERVE if that is smaller (at least 1; a warning
 * names the setting @what that was lowered).
 */
unsigned int spare_fd_conn_cap(const char *what, unsigned int wanted,
			       unsigned long nofile);

/* One listener's state after failed accepts. */
struct spare_accept_gate {
	const char *name;		/* "data port", "control socket", ... */
	uint64_t resume_ms;		/* 0: listening */
	struct spare_ratelimit log;
	uint64_t pauses;		/* back-offs so far */
};

/*
 * accept() on @ag's listener failed with @err at @now_ms. Returns true if
 * the caller must stop polling the listener until spare_accept_resume()
 * says so (EMFILE, ENFILE, ENOBUFS, ENOMEM: the listener stays readable
 * and polling it again at once would spin); false for errors that concern
 * one connection only (EAGAIN, ECONNABORTED, EINTR, ...), on which the
 * caller goes on. Either way the error is logged, rate-limited.
 */
bool spare_accept_failed(struct spare_accept_gate *ag, int err, uint64_t now_ms);

/* True once (and then the gate is open again) when a paused listener may be polled again. */
bool spare_accept_resume(struct spare_accept_gate *ag, uint64_t now_ms);

#endif /* SPARE_FDLIMIT_H */
