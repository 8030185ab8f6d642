// SPDX-License-Identifier: GPL-2.0
/*
 * spared's hold/resume rule. See hold.h.
 */
#include <string.h>

#include "hold.h"

/* Compare tokens without an early exit: a stranger learns nothing from the
 * time a refusal takes. */
static int token_differs(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ b;
	volatile uint64_t v = x;

	return v != 0;
}

enum hold_verdict spared_hold_match(const struct hold_id *held,
				    const struct hold_id *asker)
{
	int bad_token;

	if (memcmp(held->uuid, asker->uuid, 16))
		return HOLD_NOT_MINE;
	/* An authenticated client's slabs go only to the same name; an open
	 * session's only to an open session. */
	if (strcmp(held->client, asker->client))
		return HOLD_BAD_NAME;
	if (strcmp(held->owner, asker->owner))
		return HOLD_BAD_OWNER;
	bad_token = token_differs(held->token, asker->token);
	if (bad_token || !held->token)
		return HOLD_BAD_TOKEN;
	return HOLD_ADOPT;
}

bool spared_supersedes(const struct hold_id *live, const char *live_host,
		       const struct hold_id *asker, const char *host)
{
	/* the uuid and host are the client's word; the name is proven */
	return !memcmp(live->uuid, asker->uuid, 16) && !strcmp(live_host, host) &&
	       !strcmp(live->client, asker->client);
}

const char *spared_hold_verdict_name(enum hold_verdict v)
{
	switch (v) {
	case HOLD_ADOPT:	return "adopted";
	case HOLD_NOT_MINE:	return "another client";
	case HOLD_BAD_NAME:	return "another authenticated name";
	case HOLD_BAD_OWNER:	return "another grants' owner";
	case HOLD_BAD_TOKEN:	return "wrong resume token";
	}
	return "?";
}
