// SPDX-License-Identifier: GPL-2.0
/*
 * spared's event loop plumbing (spared.h, "loop.c"): sources added to and
 * taken from the epoll set, and the one timer armed. main.c runs the loop;
 * every room adds its sources here and calls nothing back.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>

#include "spare_log.h"
#include "spare_util.h"
#include "spared.h"

int spared_epoll_add(struct spared *d, struct ev_source *src)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = src };

	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, src->fd, &ev)) {
		log_err("epoll_ctl(ADD, fd %d): %s", src->fd, strerror(errno));
		return -1;
	}
	return 0;
}

void spared_epoll_del(struct spared *d, struct ev_source *src)
{
	if (epoll_ctl(d->epfd, EPOLL_CTL_DEL, src->fd, NULL))
		log_warn("epoll_ctl(DEL, fd %d): %s", src->fd, strerror(errno));
}

void spared_timer_set(struct spared *d, uint64_t next)
{
	struct itimerspec its = { 0 };
	uint64_t now = spare_now_ms();

	if (d->timer_src.fd < 0)
		return;
	if (next) {
		uint64_t delay = next > now ? next - now : 1;

		its.it_value.tv_sec = (time_t)(delay / 1000);
		its.it_value.tv_nsec = (long)(delay % 1000) * 1000000L;
	}
	if (timerfd_settime(d->timer_src.fd, 0, &its, NULL))
		log_err("timerfd_settime: %s", strerror(errno));
}
