/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sparectl asks spare-broker(s) for grants (`device create ... broker=`):
 * the brokers in turn, in batches within one GRANT_REQ's limits. Logs
 * which broker failed and why; never logs a key or a grant.
 */
#ifndef SPARECTL_BROKERASK_H
#define SPARECTL_BROKERASK_H

#include <stdbool.h>
#include <stdint.h>

#include "broker_proto.h"

#define BROKERASK_MAX_BROKERS	16
/* sparectl's broker time-out unless --timeout or SPARECTL_TIMEOUT says */
#define BROKERASK_TIMEOUT_MS	5000
#define BROKERASK_TIMEOUT_MIN_MS	100
#define BROKERASK_TIMEOUT_MAX_MS	3600000

struct brokerask {
	const char	*brokers;	/* "HOST:PORT[,HOST:PORT...]" */
	const char	*name;		/* our name in the brokers' host-keys */
	const uint8_t	*key;		/* its BROKER_KEY_LEN-byte secret */
	uint32_t	lease_s;	/* 0: the broker's default */
	unsigned int	timeout_ms;	/* connect, and every send and receive */
};

/*
 * A time-out in seconds, "N" or "N.D" (up to 3 decimals: ms), within
 * BROKERASK_TIMEOUT_MIN_MS..BROKERASK_TIMEOUT_MAX_MS, into *@ms: NULL, or
 * what is wrong with @s (--timeout, SPARECTL_TIMEOUT).
 */
const char *brokerask_parse_timeout(const char *s, unsigned int *ms);

/*
 * Check the brokers list (1..BROKERASK_MAX_BROKERS "HOST:PORT" entries,
 * blanks around commas allowed): NULL, or what is wrong with it.
 */
const char *brokerask_check_list(const char *brokers);

/*
 * Fill @grants[0 .. slabs * copies), slab-major: copy c of slab s is
 * grants[s * copies + c], and (@domains not NULL) @domains[] alike with
 * the failure-domain label of each grant's donor (NUL padded, as the
 * broker sent it). Each batch goes to the broker that granted the last
 * one; on a refusal or a broken connection the next broker is asked, and
 * the grants already held are kept. Each grant is checked for form and
 * for being issued to @a->name. 0, or -1 when no broker granted a batch
 * (each failure logged).
 */
int brokerask_grants(const struct brokerask *a, uint32_t slabs, unsigned int copies,
		     struct spare_grant *grants, char (*domains)[BROKER_DOMAIN_LEN]);

/*
 * STRIPE_REQ: @stripes coding groups of an erasure-coded device, each K + R
 * one-slab grants on K + R distinct donors (in distinct failure domains
 * where the broker's donors have them), into @grants[0 .. stripes * (K+R))
 * group-major: split j of group g is grants[g * (K + R) + j] (j < K data,
 * then P, then Q), and @domains[] alike. Batched and failed over as
 * brokerask_grants(). 0, or -1 when no broker granted a batch (each
 * failure logged; a broker's refusal says what its donors lack).
 */
int brokerask_stripes(const struct brokerask *a, uint32_t stripes, unsigned int k,
		      unsigned int r, struct spare_grant *grants,
		      char (*domains)[BROKER_DOMAIN_LEN]);

/*
 * ROOM_REQ: one grant for @slabs new slabs on the donor at @donor_addr
 * (debited from its free count at the broker), from the first broker that
 * gives it, and (@domain not NULL) that donor's failure-domain label. 0,
 * or -1 with the last broker's reason in @why: nothing is logged (a
 * refused room is the caller's to report, once).
 */
int brokerask_room(const struct brokerask *a, const char *donor_addr, uint32_t slabs,
		   struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN], char *why,
		   size_t whylen);

/*
 * RENEW_GRANT: grants @old[0 .. n) (this client's, as a broker issued
 * them) sent back and each re-issued into @out[i]: the same id, client,
 * donor and slabs, a new expiry (now + the lease); nothing minted. In batches of
 * BROKER_MAX_RENEW_GRANTS, each from the first broker that renews it all
 * (a broker renews all of a batch or none). (@domain not NULL) the first
 * grant's donor's failure-domain label. 0, or -1 (each failure logged;
 * @out partly written).
 */
int brokerask_reissue(const struct brokerask *a, const struct spare_grant *old, unsigned int n,
		      struct spare_grant *out, char domain[BROKER_DOMAIN_LEN]);
/*
 * The same asking for the broker's move marks (RENEW_GRANT flags MOVE,
 * protocol 3; Documentation/protocol.md "Taking excess back"): @move[i]
 * (@move not NULL) set when the broker asks the client to take grant i's
 * slab copies off the pool. An answer without marks, or a broker older
 * than protocol 3 (which refuses the flag as a bad frame), counts as a
 * failure and the next broker is asked; when none gave marks the batch
 * is asked again without them (logged), so that the grants do not lapse.
 */
int brokerask_reissue_marks(const struct brokerask *a, const struct spare_grant *old,
			    unsigned int n, struct spare_grant *out,
			    char domain[BROKER_DOMAIN_LEN], bool *move);

/*
 * Move: one grant for @slabs slabs (1..BROKER_MAX_RENEW: the copies to put
 * there plus a standby) on a donor whose address is none of
 * avoid[0 .. n_avoid) (the donors holding a copy of the slab, and the one
 * evicting it), preferably in a failure domain that is none of
 * avoid_dom[0 .. n_avoid_dom) (the domains of the copies that stay), from
 * the first broker that gives it (MOVE_REQ); and (@domain not NULL) that
 * donor's failure-domain label. n_avoid and n_avoid_dom are at most
 * BROKER_MAX_AVOID; each entry is a string ending within its field (bytes
 * after its NUL are ignored). The grant is checked for form, for being
 * issued to @a->name for @slabs slabs, and for naming a donor not in
 * @avoid: a broker that breaks a rule counts as a failure (logged) and the
 * next broker is asked. A broker older than MOVE_REQ refuses it as a bad
 * frame and closes; that is logged too. 0, or -1 (each failure logged;
 * @grant and @domain untouched).
 */
int brokerask_move(const struct brokerask *a, uint32_t slabs,
		   const char (*avoid)[BROKER_ADDR_LEN], unsigned int n_avoid,
		   const char (*avoid_dom)[BROKER_DOMAIN_LEN], unsigned int n_avoid_dom,
		   struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN]);

/*
 * When sparectl device monitor asks a broker again for what waits for a
 * donor the device does not have (spare.ko's sysfs `moving`, read every
 * round): at once when something begins to wait; after an ask that gave
 * a donor (or room), not before @add_wait seconds (MONITOR_ADD_WAIT_S:
 * the donor is being added, connected, moved to); after a refused one
 * (no free donor yet), after BROKERASK_MOVE_RETRY_S seconds, doubling on
 * each refusal in a row up to BROKERASK_MOVE_RETRY_MAX_S. Nothing waiting
 * starts it over.
 */
#define BROKERASK_MOVE_RETRY_S		5
#define BROKERASK_MOVE_RETRY_MAX_S	60

struct brokerask_backoff {
	uint64_t	next;		/* no ask before (s); 0: any time */
	uint64_t	retry;		/* the wait after the next refusal (s) */
};

/* Whether to ask now, with @n waiting at @now (s); @n 0 starts it over. */
bool brokerask_backoff_due(struct brokerask_backoff *b, unsigned int n, uint64_t now);
/* An ask at @now: a donor (or room) given (@given), else refused. */
void brokerask_backoff_asked(struct brokerask_backoff *b, bool given, uint64_t now,
			     uint64_t add_wait);

#endif /* SPARECTL_BROKERASK_H */
