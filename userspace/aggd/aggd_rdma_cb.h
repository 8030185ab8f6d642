/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd over RDMA: the transport's callbacks (agg_rdma.h) turned into
 * connections of the loop, and the loop's polls of the rdma_cm event
 * channel and the completion channel.
 */
#ifndef SPARE_AGGD_RDMA_CB_H
#define SPARE_AGGD_RDMA_CB_H

/* Serve RDMA on @addr, port @port; 0, or -1 (logged). */
int aggd_rdma_start(const char *addr, unsigned int port);
/* The rdma_cm channel, or the completion channel, is readable. */
void aggd_rdma_cm_ready(void);
void aggd_rdma_cq_ready(void);

#endif /* SPARE_AGGD_RDMA_CB_H */
