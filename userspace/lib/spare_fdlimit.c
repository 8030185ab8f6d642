// SPDX-License-Identifier: GPL-2.0
/* File descriptor limits and accept back-off for spare's daemons (spare_fdlimit.h). */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "spare_fdlimit.h"
#include "spare_log.h"

bool spare_ratelimit_ok(struct spare_ratelimit *rl, uint64_t now_ms,
			unsigned int interval_ms, unsigned long *held_back)
{
	if (rl->next_ms && now_ms < rl->next_ms) {
		rl->quiet++;
		return false;
	}
	*held_back = rl->quiet;
	rl->quiet = 0;
	rl->next_ms = now_ms + interval_ms;
	if (!rl->next_ms)
		rl->next_ms = 1;
	return true;
}

unsigned long spare_fd_raise_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		log_warn("getrlimit(RLIMIT_NOFILE): %s; assuming 1024 descriptors",
			 strerror(errno));
		return 1024;
	}
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t was = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			log_warn("cannot raise the descriptor limit from %llu to %llu: %s",
				 (unsigned long long)was,
				 (unsigned long long)rl.rlim_max, strerror(errno));
			rl.rlim_cur = was;
		}
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1UL << 30))
		rl.rlim_cur = 1UL << 30;
	log_info("descriptor limit %llu (RLIMIT_NOFILE; LimitNOFILE= in the unit)",
		 (unsigned long long)rl.rlim_cur);
	return (unsigned long)rl.rlim_cur;
}

unsigned int spare_fd_conn_cap(const char *what, unsigned int wanted,
			       unsigned long nofile)
{
	unsigned long room = nofile > 2 * SPARE_FD_RESERVE ?
			     nofile - SPARE_FD_RESERVE : nofile / 2;

	if (!room)
		room = 1;
	if (wanted <= room)
		return wanted;
	log_warn("%s %u is above what %lu descriptors allow: %lu connections at most (raise LimitNOFILE= to allow more)",
		 what, wanted, nofile, room);
	return (unsigned int)room;
}

static bool accept_err_is_exhaustion(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM;
}

bool spare_accept_failed(struct spare_accept_gate *ag, int err, uint64_t now_ms)
{
	bool pause = accept_err_is_exhaustion(err);
	unsigned long quiet;

	if (err == EAGAIN || err == EWOULDBLOCK || err == EINTR)
		return false;
	if (pause) {
		ag->resume_ms = now_ms + SPARE_ACCEPT_BACKOFF_MS;
		ag->pauses++;
	}
	if (spare_ratelimit_ok(&ag->log, now_ms, SPARE_FD_LOG_MS, &quiet)) {
		if (pause)
			log_warn("%s: accept: %s; not accepting for %u ms (%lu more such lines held back)",
				 ag->name, strerror(err), SPARE_ACCEPT_BACKOFF_MS, quiet);
		else
			log_warn("%s: accept: %s (%lu more such lines held back)",
				 ag->name, strerror(err), quiet);
	}
	return pause;
}

bool spare_accept_resume(struct spare_accept_gate *ag, uint64_t now_ms)
{
	if (!ag->resume_ms || now_ms < ag->resume_ms)
		return false;
	ag->resume_ms = 0;
	return true;
}
