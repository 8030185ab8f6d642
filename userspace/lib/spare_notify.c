// SPDX-License-Identifier: GPL-2.0
/*
 * sd_notify(3) for spare's daemons. See spare_notify.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "spare_log.h"
#include "spare_notify.h"

static void notify(const char *state)
{
	int ret = sd_notify(0, state);

	if (ret < 0)
		log_warn("sd_notify: %s", strerror(-ret));
}

static void notify_status(const char *prefix, const char *fmt, va_list ap)
{
	char status[256], msg[300];

	vsnprintf(status, sizeof(status), fmt, ap);
	/* STATUS= ends at a newline: keep it one line. */
	status[strcspn(status, "\n")] = '\0';
	snprintf(msg, sizeof(msg), "%sSTATUS=%s", prefix, status);
	notify(msg);
}

void spare_notify_ready(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notify_status("READY=1\n", fmt, ap);
	va_end(ap);
}

void spare_notify_status(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notify_status("", fmt, ap);
	va_end(ap);
}

void spare_notify_reloading(void)
{
	struct timespec ts;
	char msg[64];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)ts.tv_sec * 1000000ULL +
		 (unsigned long long)ts.tv_nsec / 1000ULL);
	notify(msg);
}

void spare_notify_stopping(void)
{
	notify("STOPPING=1");
}

uint64_t spare_notify_watchdog_ms(void)
{
	uint64_t usec = 0;

	if (sd_watchdog_enabled(0, &usec) <= 0 || !usec)
		return 0;
	return usec / 2000 ? usec / 2000 : 1;
}

void spare_notify_watchdog(void)
{
	notify("WATCHDOG=1");
}
