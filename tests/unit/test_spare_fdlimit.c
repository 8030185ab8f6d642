// SPDX-License-Identifier: GPL-2.0
/*
 * userspace/lib/spare_fdlimit.c: the soft descriptor limit raised to the
 * hard one, the connection cap below it, the accept back-off and its
 * rate-limited log line.
 */
#include <errno.h>
#include <sys/resource.h>

#include "spare_fdlimit.h"
#include "spare_log.h"
#include "tap.h"

static void test_raise_limit(void)
{
	struct rlimit rl, now;

	EXPECT(!getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_max > 64 && rl.rlim_max != RLIM_INFINITY) {
		rl.rlim_cur = 64;		/* start below the hard limit */
		EXPECT(!setrlimit(RLIMIT_NOFILE, &rl));
	}
	EXPECT_EQ(spare_fd_raise_limit(), rl.rlim_max == RLIM_INFINITY ||
		  rl.rlim_max > (1UL << 30) ? 1UL << 30 : rl.rlim_max);
	EXPECT(!getrlimit(RLIMIT_NOFILE, &now));
	EXPECT_EQ(now.rlim_cur, now.rlim_max);
}

static void test_conn_cap(void)
{
	EXPECT_EQ(spare_fd_conn_cap("max-conns", 4096, 1024), 1024 - SPARE_FD_RESERVE);
	EXPECT_EQ(spare_fd_conn_cap("max-conns", 100, 1024), 100);
	EXPECT_EQ(spare_fd_conn_cap("max-conns", 4096, 65536), 4096);
	/* a tiny limit still leaves half for the daemon's own files */
	EXPECT_EQ(spare_fd_conn_cap("max-conns", 4096, 100), 50);
	EXPECT_EQ(spare_fd_conn_cap("max-conns", 4096, 1), 1);
}

static void test_ratelimit(void)
{
	struct spare_ratelimit rl = { 0 };
	unsigned long held = 99;

	EXPECT(spare_ratelimit_ok(&rl, 1000, 10000, &held));
	EXPECT_EQ(held, 0);
	EXPECT(!spare_ratelimit_ok(&rl, 1001, 10000, &held));
	EXPECT(!spare_ratelimit_ok(&rl, 10999, 10000, &held));
	EXPECT(spare_ratelimit_ok(&rl, 11000, 10000, &held));
	EXPECT_EQ(held, 2);
	EXPECT(!spare_ratelimit_ok(&rl, 11001, 10000, &held));
	EXPECT(spare_ratelimit_ok(&rl, 30000, 10000, &held));
	EXPECT_EQ(held, 1);
}

static void test_accept_backoff(void)
{
	struct spare_accept_gate ag = { .name = "test listener" };

	/* one connection's trouble: go on accepting */
	EXPECT(!spare_accept_failed(&ag, ECONNABORTED, 1000));
	EXPECT(!spare_accept_failed(&ag, EAGAIN, 1000));
	EXPECT(!spare_accept_resume(&ag, 1000));
	/* out of descriptors or memory: pause, then resume once */
	EXPECT(spare_accept_failed(&ag, EMFILE, 2000));
	EXPECT_EQ(ag.pauses, 1);
	EXPECT(!spare_accept_resume(&ag, 2000 + SPARE_ACCEPT_BACKOFF_MS - 1));
	EXPECT(spare_accept_resume(&ag, 2000 + SPARE_ACCEPT_BACKOFF_MS));
	EXPECT(!spare_accept_resume(&ag, 2000 + SPARE_ACCEPT_BACKOFF_MS + 1));
	EXPECT(spare_accept_failed(&ag, ENFILE, 3000));
	EXPECT(spare_accept_failed(&ag, ENOBUFS, 3000));
	EXPECT(spare_accept_failed(&ag, ENOMEM, 3000));
	EXPECT_EQ(ag.pauses, 4);
	/* the lines after the first in 10 s are held back and counted */
	EXPECT(ag.log.quiet >= 3);
}

int main(void)
{
	spare_log_init("test_spare_fdlimit", SPARE_LOG_ERR);
	TAP_RUN(test_raise_limit);
	TAP_RUN(test_conn_cap);
	TAP_RUN(test_ratelimit);
	TAP_RUN(test_accept_backoff);
	return tap_done();
}
