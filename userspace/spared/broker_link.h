/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's side of spare-broker: REGISTER and HEARTBEAT to every broker in
 * its config (one thread per broker, blocking I/O with timeouts, reconnect
 * with exponential back-off), and the grant check for the MAP path.
 * Documentation/spared.md "Brokers".
 */
#ifndef SPARED_BROKER_LINK_H
#define SPARED_BROKER_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "broker_proto.h"
#include "spare_grant_lib.h"

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
/* The free slab count the next heartbeats carry. Any thread. */
void broker_link_set_free(struct broker_link *l, uint64_t free_slabs);
/* Brokers that acknowledged this donor's last heartbeat. */
unsigned int broker_link_connected(const struct broker_link *l);
/* Stop and join the threads, wipe the key. NULL is fine. */
void broker_link_stop(struct broker_link *l);

/*
 * The MAP path's grant check (not wired to MAP yet: the kernel does not send
 * grants). A donor with a grant key verifies each grant's form, key, tag,
 * time window, donor (this one) and client (the authenticated one, or any
 * when the session is not authenticated: @client_id NULL), and records it
 * in the replay cache.
 */
struct spared_grants {
	struct spare_grant_key		key;
	char				donor_id[SPARE_GRANT_DONOR_LEN];
	struct spare_grant_replay	replay;
};

/* 0, or -errno. @max_live: grants remembered for replay at once. */
int spared_grants_init(struct spared_grants *g, const struct spare_grant_key *key,
		       const char *donor_id, size_t max_live);
void spared_grants_free(struct spared_grants *g);

/*
 * Check the grant in @buf (@len bytes: SPARE_GRANT_SIZE, or
 * SPARE_GRANT_HEX_LEN hex digits when @hex) at wall-clock @now. Returns
 * SPARE_GRANT_OK or a negative enum spare_grant_result; fills @info on
 * success.
 */
int spared_grant_check(struct spared_grants *g, const void *buf, size_t len, bool hex,
		       const char *client_id, uint64_t now, struct spare_grant_info *info);



struct spared;
/*
 * The link for this spared from its settings (brokers, broker-key-file,
 * domain; the donor id is its host name, the address its listen address or
 * host name and port). NULL with the reason logged.
 */
struct broker_link *spared_broker_link_start(const struct spared *d);

#endif /* SPARED_BROKER_LINK_H */
