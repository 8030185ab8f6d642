/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spared's hold/resume rule (pager restart): who may adopt the slabs held
 * for a client session that ended without giving them back. Pure, so that
 * it is unit-tested on the host (tests/unit/test_spared_pool.c); the
 * daemon's side is in server.c, Documentation/protocol.md says why.
 */
#ifndef SPARED_HOLD_H
#define SPARED_HOLD_H

#include <stdbool.h>
#include <stdint.h>

/* What a held session is known by, and what an asking session shows. */
struct hold_id {
	const uint8_t	*uuid;		/* 16 bytes: the client device's */
	const char	*client;	/* authenticated name, or "" (open donor) */
	const char	*owner;		/* grants' owner: the name, or the uuid in hex */
	uint64_t	token;		/* the held session's resume token / the one shown */
};

enum hold_verdict {
	HOLD_ADOPT,		/* the same client: it takes the slabs */
	HOLD_NOT_MINE,		/* another device (uuid): not a candidate */
	HOLD_BAD_NAME,		/* same uuid, another (or no) authenticated name */
	HOLD_BAD_OWNER,		/* same uuid, another grants' owner */
	HOLD_BAD_TOKEN,		/* same uuid, wrong resume token */
};

/* May @asker adopt what is held for @held? */
enum hold_verdict spared_hold_match(const struct hold_id *held,
				    const struct hold_id *asker);

const char *spared_hold_verdict_name(enum hold_verdict v);

/*
 * Does a new session of @asker (from @host) replace the live session of
 * @live (from @live_host)? Only a reconnect of the same client does:
 * same uuid and host, and the same authenticated name ("" when both are
 * open sessions). Tokens and owners play no part.
 */
bool spared_supersedes(const struct hold_id *live, const char *live_host,
		       const struct hold_id *asker, const char *host);

#endif /* SPARED_HOLD_H */
