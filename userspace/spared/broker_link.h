/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's side of spare-broker: REGISTER and HEARTBEAT to every broker in
 * its config (one thread per broker, blocking I/O with timeouts, reconnect
 * with exponential back-off). The grant check is grants.h's.
 * Documentation/spared.md "Brokers".
 */
#ifndef SPARED_BROKER_LINK_H
#define SPARED_BROKER_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "broker_proto.h"

#define BROKER_LINK_MAX		8	/* brokers in "brokers = a:p,b:p" */

struct broker_link_cfg {
	char		brokers[BROKER_LINK_MAX][128];
	unsigned int	nbrokers;
	uint8_t		key[BROKER_KEY_LEN];	/* this donor's secret at the brokers */
	char		donor_id[BROKER_ID_LEN];	/* its name there */
	char		addr[BROKER_ADDR_LEN];	/* where clients reach it */
	char		domain[BROKER_DOMAIN_LEN];
	uint8_t		slab_shift;
	uint32_t	hb_interval_ms;
	uint8_t		flags;		/* BROKER_DONOR_F_* in REGISTER and HEARTBEAT */
	uint32_t	backoff_min_ms, backoff_max_ms;
};

/*
 * Split "host:port,host:port" into cfg->brokers. NULL, or why it is
 * refused (empty item, too many, too long, no port).
 */
const char *broker_link_parse_list(struct broker_link_cfg *cfg, const char *list);

struct broker_link;

/* Start one thread per broker; NULL on failure (logged). */
struct broker_link *broker_link_start(const struct broker_link_cfg *cfg, uint64_t free_slabs);
/*
 * The free slab count the next heartbeats carry; a change is reported at
 * once (at most one heartbeat per 100 ms), not at the next interval. Any
 * thread.
 */
void broker_link_set_free(struct broker_link *l, uint64_t free_slabs);
/* Brokers that acknowledged this donor's last heartbeat. */
unsigned int broker_link_connected(const struct broker_link *l);
/* Stop and join the threads, wipe the key. NULL is fine. */
void broker_link_stop(struct broker_link *l);

struct spared;
/*
 * The link for this spared from its settings (brokers, broker-key-file,
 * domain; the donor id is its host name, the address its listen address or
 * host name and port). NULL with the reason logged.
 */
struct broker_link *spared_broker_link_start(const struct spared *d);

#endif /* SPARED_BROKER_LINK_H */
