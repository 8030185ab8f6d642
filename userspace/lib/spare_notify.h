/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readiness, status and watchdog for systemd (Type=notify units), through
 * libsystemd's sd_notify(3). Each call is a no-op when $NOTIFY_SOCKET is
 * unset, so the daemons run the same by hand and in the VM rig.
 */
#ifndef SPARE_NOTIFY_H
#define SPARE_NOTIFY_H

#include <stdint.h>

/* READY=1 plus STATUS=<text>: the daemon serves from now on. */
void spare_notify_ready(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* STATUS=<text>, shown by systemctl status. */
void spare_notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * RELOADING=1 (with MONOTONIC_USEC=, as systemd 253's Type=notify-reload
 * wants): a reload (SIGHUP) has begun; spare_notify_ready() ends it, so
 * that "systemctl reload" returns when it is done.
 */
void spare_notify_reloading(void);

/* STOPPING=1: shutdown has begun. */
void spare_notify_stopping(void);

/*
 * The interval at which to send WATCHDOG=1 (half of WatchdogSec=), in
 * milliseconds, or 0 if the unit has no watchdog.
 */
uint64_t spare_notify_watchdog_ms(void);

/* WATCHDOG=1: the event loop is alive. */
void spare_notify_watchdog(void);

#endif /* SPARE_NOTIFY_H */
