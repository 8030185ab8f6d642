/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd idle reclaim: a timer (io_uring timeout) ticks the idle
 * timeout. A job none of whose workers has moved a byte for --idle-timeout
 * seconds is reclaimed, and so is a connection without a job that stays
 * silent that long.
 */
#ifndef SPARE_AGGD_RECLAIM_H
#define SPARE_AGGD_RECLAIM_H

#define RECLAIM_GRACE_NS 1000000000ULL	/* to send a reclaimed job's ERROR */

void timer_post(void);
void on_timer(void);

#endif /* SPARE_AGGD_RECLAIM_H */
