/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-broker's soft state: the donors it has heard from, their free
 * slabs and failure domains, and grant issue (placement + signing +
 * debit). Pure logic over caller-supplied clocks: no I/O, no logging, so
 * the unit tests and tools/brokerbench drive it directly.
 *
 * Soft state only: a donor is added by its first REGISTER or HEARTBEAT,
 * its free count is what it last reported minus what the broker granted
 * on it since, and it is forgotten after missed_hb heartbeat periods of
 * silence. A restarted broker rebuilds all of this from heartbeats.
 */
#ifndef SPARE_BROKER_STATE_H
#define SPARE_BROKER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "broker_proto.h"
#include "place_tree.h"
#include "spare_grant_lib.h"

struct bdonor {
	char		id[BROKER_ID_LEN];
	char		addr[BROKER_ADDR_LEN];
	char		domain[BROKER_DOMAIN_LEN];
	uint64_t	reported;	/* free slabs in the last heartbeat */
	uint64_t	last_hb_ms;	/* monotonic */
	uint32_t	hb_interval_ms;
	uint8_t		slab_shift;
	bool		live;
	/* version 3: it announced it takes them and we hold its key */
	bool		v3;
	uint8_t		gkey[SPARE_GRANT_KEY_LEN];	/* its grant key (spare_grant_v3_key()) */
};

/*
 * One grant the broker signed for a client, until its lease runs out: the
 * slabs it covers (0 once a renewal of the same grant took them over, so
 * that a renewed grant is counted once) and the grant it counts towards
 * max_client_grants (renewals count, each for its own lease).
 */
struct blease {
	uint64_t	expiry;		/* wall clock, s */
	uint64_t	token;		/* the grant id's first 8 bytes; 0 with no slabs */
	uint32_t	slabs;		/* slab copies it covers */
	uint32_t	grants;		/* grants signed (1) */
	bool		moving;		/* bstate_reclaim_pick() marked it: counted in moving */
};

/*
 * A client (by its authenticated name) and what it holds from this broker:
 * the leases of the grants issued to it that have not run out, a min-heap
 * by expiry. Soft state like the rest: a restarted broker starts from 0.
 */
struct bclient {
	char		name[SPARE_GRANT_CLIENT_LEN];
	uint64_t	slabs;		/* sum over the heap */
	uint64_t	grants;		/* sum over the heap */
	struct blease	*heap;
	uint32_t	nheap, capheap;
	/* refused for lack of room below its fair share: waits until then (s) */
	uint64_t	wait_until;
	/* bstate_reclaim_pick(): slabs marked to move, still within their leases;
	 * the lease it counts in, what it may still mark */
	uint64_t	moving;
	uint64_t	reclaim_until;	/* s */
	uint64_t	reclaim_left;	/* slabs */
	uint64_t	reclaim_unit;	/* slabs a lease: a share of the largest excess */
	uint64_t	reclaim_pool;	/* the largest pool since others began waiting */
	bool		active;		/* counted in bstate.nactive */
	bool		waiting;	/* counted in bstate.nwaiting */
};

/* String -> index, open addressing; keys are owned by the caller's table. */
struct bstr_map {
	uint32_t	*slot;		/* index + 1, 0 = empty */
	size_t		cap;		/* power of two */
};

struct bstate {
	struct bdonor		*donors;	/* [max_donors]; forgotten ones are dropped
						 * when a new donor finds the table full */
	struct place_donor	*pd;		/* [max_donors]: free and domain index */
	uint64_t		*bit, *w;	/* the placement tree's arrays */
	struct place_tree	tree;
	size_t			n, max_donors;	/* slots used, slots allowed */
	struct bstr_map		by_id;
	/*
	 * Failure domains, [max_donors] each: a label's index is held by the
	 * live donors in it and freed (for another label) when the last one
	 * relabels or is forgotten, so churn cannot grow the table.
	 */
	char			(*domains)[BROKER_DOMAIN_LEN];
	uint32_t		*domain_users;	/* live donors in each domain */
	uint32_t		*domain_free;	/* stack of unused indices */
	size_t			ndomains;	/* domains in use */
	size_t			ndomain_free;
	struct bstr_map		by_domain;
	struct bstr_map		by_addr;	/* live donors by address: one each */
	struct spare_rng	rng;
	unsigned int		live;		/* donors live now */
	/* settings */
	unsigned int		missed_hb;	/* forget after this many periods */
	uint32_t		max_hb_ms;	/* a longer declared period counts as this */
	uint32_t		lease_s;	/* default and longest lease */
	uint32_t		skew_s;		/* not_before = now - skew */
	struct spare_grant_keys	keys;		/* signs grants, checks renewals */
	bool			grant_v3;	/* version 3 to donors that take it */
	struct spare_grant_pool	*pool;		/* signing threads, or NULL */
	/* per-client caps (bstate_set_caps) */
	struct bclient		*clients;	/* [max_clients] */
	size_t			nclients, max_clients;
	struct bstr_map		by_client;
	uint32_t		client_share_pct;	/* of free + its own; 100: no cap */
	bool			fair_share;	/* the pool divided among active clients */
	uint64_t		held;		/* slabs all clients hold (sum of slabs) */
	uint64_t		moving;		/* of those, marked to move (sum of moving) */
	/* slabs of marked leases that ran out within a lease of moved_gone_s
	 * (the last): the donor may not count them free yet */
	uint64_t		moved_gone;
	uint64_t		moved_gone_s;
	uint32_t		nactive;	/* clients holding a lease or waiting */
	uint32_t		nwaiting;	/* clients waiting below their share */
	uint64_t		waited_s;	/* s: a client last began to wait (client_wait()) */
	uint64_t		swept_s;	/* clients' leases and waits last judged */
	int			capped_why;	/* the last -EDQUOT: BSTATE_CAP_* */
	uint32_t		max_client_grants;	/* grants within their leases */
	uint64_t		max_donor_bytes;	/* a donor lends at most this */
	/* counters */
	uint64_t		grants_issued, requests_ok, requests_nospace;
	uint64_t		donors_expired, renewals, moves, rooms;
	uint64_t		refused_share, refused_grants, refused_renewals, donors_clamped;
	uint64_t		refused_fair;
	uint64_t		reclaim_marked;	/* slabs bstate_reclaim_pick() marked */
};

/*
 * The longest heartbeat period a donor may declare (spared sends one a
 * second): a donor that declares more is held to this, so a silent donor
 * is forgotten within missed_hb x max_hb_ms whatever it declared.
 */
#define BSTATE_MAX_HB_MS	10000

/*
 * The most a donor may declare it can lend, in bytes (free slabs x slab
 * size): 16 TiB, above any one host's memory today. A heartbeat declaring
 * more is clamped to it (bstate_heartbeat()).
 */
#define BSTATE_MAX_DONOR_BYTES	(UINT64_C(1) << 44)
/* Why the last -EDQUOT (bstate.capped_why). */
enum { BSTATE_CAP_GRANTS = 1, BSTATE_CAP_PCT, BSTATE_CAP_FAIR };

/* Per-client caps' defaults (bstate_set_caps()). */
#define BSTATE_MAX_CLIENTS	4096	/* clients with leases at once */
#define BSTATE_CLIENT_SHARE	100	/* percent; 100: the pool is the only cap */
#define BSTATE_CLIENT_GRANTS	4096	/* as a donor's ledger share (spared) */

/*
 * 0, -EINVAL or -ENOMEM. @key (a version 1 grant key; NULL: none, then
 * bstate_set_grant_keys() before the first grant) is copied; max_hb_ms is
 * BSTATE_MAX_HB_MS, the caps are the defaults above.
 */
int bstate_init(struct bstate *st, size_t max_donors, unsigned int missed_hb,
		uint32_t lease_s, uint32_t skew_s, const struct spare_grant_key *key,
		uint64_t seed);
void bstate_free(struct bstate *st);

/*
 * The grant keys (copied): grants are signed with keys->sign (version 2)
 * if it has one, else with keys->hmac (version 1, deprecated); RENEW_GRANT
 * checks a grant with sign's public half, keys->pub[] and keys->hmac.
 * 0, or -EINVAL if @keys can sign nothing.
 */
int bstate_set_grant_keys(struct bstate *st, const struct spare_grant_keys *keys);

/*
 * Issue version 3 grants (per-donor MAC) to the donors that announced
 * they take them and whose key the broker holds (bstate_heartbeat_v3());
 * the others keep getting what bstate_set_grant_keys()'s keys sign. Off
 * by default. Renewals of version 3 grants are checked with their donor's
 * key whatever this says.
 */
void bstate_set_grant_v3(struct bstate *st, bool on);

/*
 * Sign the grants of one request on @threads threads beside the caller
 * (spare_grant_pool.h; 0: the caller alone, as by default). Every call
 * still returns with all its grants signed. 0, -EINVAL (more than
 * SPARE_GRANT_POOL_MAX_THREADS) or -errno from starting a thread (the
 * old setting kept).
 */
int bstate_set_sign_threads(struct bstate *st, unsigned int threads);

/*
 * Caps (0: keep the current one): @max_donor_bytes, the most a donor may
 * lend (its free count is clamped to max_donor_bytes >> slab_shift);
 * @share_pct (1..100), the most of the pool a client may hold, in percent
 * of the free slabs plus its own; @max_grants, the grants a client may
 * hold within their leases (renewals count). 0 or -EINVAL.
 */
int bstate_set_caps(struct bstate *st, uint64_t max_donor_bytes, uint32_t share_pct,
		    uint32_t max_grants);

/*
 * The fair share (on by default; Documentation/protocol.md, "Per-client
 * caps"): the pool is the free slabs plus the slabs clients hold within
 * their leases, and a client's share is the pool divided among the active
 * clients (those holding a lease, and those refused for lack of room within
 * the last lease). A client refused for lack of room while below its share
 * waits, for a lease or until it is granted something; while another
 * client waits, a request that would take a client past its share is
 * refused (-EDQUOT, capped_why BSTATE_CAP_FAIR). A lone client's share is
 * the whole pool.
 */
void bstate_set_fair_share(struct bstate *st, bool on);

/* @client's fair share now: the pool over the active clients (itself counted). */
uint64_t bstate_client_fair_share(const struct bstate *st, const char *client);
/* The clients the pool is divided among, as @client's share counts them. */
uint32_t bstate_clients_sharing(const struct bstate *st, const char *client);

/* What @client holds within its leases (0 for a client not seen). */
uint64_t bstate_client_slabs(const struct bstate *st, const char *client);
uint64_t bstate_client_grants(const struct bstate *st, const char *client);

/* The most free slabs the broker believes a donor with @slab_shift has. */
uint64_t bstate_donor_cap(const struct bstate *st, uint8_t slab_shift);

/*
 * A REGISTER or HEARTBEAT from donor @d at monotonic @now_ms: adds it or
 * refreshes it, and sets its free count to what it reported (the donor is
 * the authority; the broker's debits since are forgotten). Its period is
 * what it declared, at most max_hb_ms. A free count above what
 * max_donor_bytes allows at its slab size is clamped to that (the donor's
 * `reported` then is below d->free_slabs; donors_clamped counts). Returns 0,
 * -ENOSPC when max_donors donors are live already, -EADDRINUSE when another
 * live donor holds its address (nothing changes), -EINVAL for a bad field.
 */
int bstate_heartbeat(struct bstate *st, const struct broker_donor *d, uint64_t now_ms);

/*
 * bstate_heartbeat() with the donor's version 3 grant key @kg (NULL: the
 * broker holds none): the donor takes version 3 grants from now on if it
 * set BROKER_DONOR_F_GRANT_V3 and @kg is given, else not (its key is
 * wiped). The caller derives @kg once (spare_grant_v3_key() from the key
 * the donor authenticated with) and passes it on every heartbeat.
 */
int bstate_heartbeat_v3(struct bstate *st, const struct broker_donor *d,
			const uint8_t *kg, uint64_t now_ms);

/* Forget donors silent for missed_hb periods; returns how many. */
unsigned int bstate_expire(struct bstate *st, uint64_t now_ms);

/* The donor with this id, or NULL. */
const struct bdonor *bstate_find(const struct bstate *st, const char *id);

/*
 * Donors @start .. of the table (live, and silent ones not yet forgotten)
 * as DONORS_REP shows them, at most @max into @out, at monotonic @now_ms.
 * Returns how many; st->n is the table's size.
 */
size_t bstate_donors_page(const struct bstate *st, size_t start, uint64_t now_ms,
			  struct broker_donor_info *out, size_t max);

/* Free slabs the broker believes donor @i has now. */
uint64_t bstate_free_slabs(const struct bstate *st, size_t i);
uint64_t bstate_total_free(const struct bstate *st);

/*
 * Grants for @slabs slabs x @copies copies for @client at wall-clock
 * @now_s, each copy on a distinct donor in a distinct domain, slab-major
 * into out[slabs * copies], and (@domains not NULL) the failure domain of
 * each grant's donor into domains[slabs * copies]. @lease_s 0 or above the
 * broker's lease gets the broker's lease. All or nothing: on -ENOSPC
 * nothing is debited. Returns 0, -ENOSPC, -EINVAL, or -EDQUOT (the
 * client's caps: it would hold more than its share of the pool, or more
 * grants than max_client_grants; nothing debited), -EUSERS (the client
 * table is full of clients holding leases).
 */
int bstate_grant(struct bstate *st, const char *client, unsigned int slabs,
		 unsigned int copies, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char (*domains)[BROKER_DOMAIN_LEN]);

/*
 * Legacy renewal (RENEW_REQ, legacy-renew on): one grant for @slabs slabs
 * on the live donor whose address is @addr, for @client, at @now_s (lease
 * as bstate_grant). Debits nothing; it cannot know the client holds those
 * slabs, so it is bounded only by the donor's cap (@slabs above
 * bstate_donor_cap(): -E2BIG) and the client's grant cap (-EDQUOT). The
 * donor's failure domain goes to @domain (if not NULL). Returns 0,
 * -ENOENT (no live donor there), -E2BIG, -EDQUOT, -EUSERS or -EINVAL.
 */
int bstate_renew(struct bstate *st, const char *client, const char *addr,
		 unsigned int slabs, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char domain[BROKER_DOMAIN_LEN]);

/*
 * Room (ROOM_REQ): one grant for @slabs slabs (1..BROKER_MAX_RENEW) on the
 * live donor whose address is @addr, for @client, at @now_s (lease as
 * bstate_grant): new slabs on a donor the client names (a monitor's
 * standby slabs, copies moving onto a donor of its device), so served as
 * GRANT_REQ is: debited from that donor's free count and within the
 * client's caps. The donor's domain goes to @domain (if not NULL).
 * Returns 0, -ENOENT (no live donor there), -ENOSPC (it has fewer than
 * @slabs free; nothing debited), -EDQUOT, -EUSERS, -ENOMEM or -EINVAL.
 */
int bstate_room(struct bstate *st, const char *client, const char *addr,
		unsigned int slabs, uint32_t lease_s, uint64_t now_s,
		struct spare_grant *out, char domain[BROKER_DOMAIN_LEN]);

/*
 * Renewal of the @n (1..BROKER_MAX_RENEW_GRANTS) grants old[] (RENEW_GRANT)
 * for @client at @now_s, all or none. Each old[i] must carry this broker's
 * tag (its key id and key), be @client's, and not have expired one lease
 * ago or more (the broker's lease, or the grant's own, expiry - not_before,
 * if longer); its donor must be live under the same id at the same
 * address; its slab count must be within the donor's cap. Then out[i] is
 * old[i] re-issued: the same grant id, client, donor, address and slab
 * count, a new not_before and expiry (lease as bstate_grant), a new tag,
 * and its donor's domain goes to domains[i] (if not NULL). @out may be
 * @old. Debits nothing, and the donor counts a grant id once however
 * often it is renewed, so renewing cannot add slabs. The @n count towards
 * the client's grant cap, and only when all are renewed: a refusal
 * charges nothing and signs nothing. Returns 0, or (*failed the index of
 * the grant refused, for the errors about one grant):
 *   -EBADMSG  not a well-formed grant, or not this broker's tag (forged,
 *             altered, another key)
 *   -EACCES   issued to another client
 *   -ETIME    expired one lease ago or more
 *   -ENOENT   its donor is not live, or not at that address now
 *   -E2BIG    more slabs than the donor may lend
 *   -EDQUOT, -EUSERS  the client's grant cap, the client table
 *   -EINVAL   @client, @n
 */
int bstate_renew_grants(struct bstate *st, const char *client, const struct spare_grant *old,
			unsigned int n, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
			char (*domains)[BROKER_DOMAIN_LEN], unsigned int *failed);

/*
 * Taking a hog's excess back (Documentation/protocol.md, "Taking excess
 * back"): of the @n grants g[] that @client renews at @now_s, which the
 * broker would have it move off their donors (move[i] true). Only with
 * fair share on, while another client waits, and only from a client above
 * its fair share: its excess is what it holds beyond the share. At most
 * BSTATE_RECLAIM_PCT percent of the largest excess it had since others
 * began waiting (at least one slab) per lease, so that the pool does not
 * churn, and never below its share. Grants that are not @client's or not
 * well formed are never marked. Returns the slabs marked (counted in
 * st->reclaim_marked).
 *
 * The daemon calls it for a RENEW_GRANT that asks for marks (protocol 3,
 * BROKER_RENEW_F_MOVE) and sends them in its answer; a version-2 client's
 * renewal is answered without it, so its window is not spent on marks
 * nobody reads. spared does not yet evict the slab of a lapsed grant.
 */
#define BSTATE_RECLAIM_PCT	25
uint64_t bstate_reclaim_pick(struct bstate *st, const char *client, const struct spare_grant *g,
			     unsigned int n, uint64_t now_s, bool *move);

/* One grant: bstate_renew_grants() with @n 1. */
int bstate_renew_grant(struct bstate *st, const char *client, const struct spare_grant *old,
		       uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		       char domain[BROKER_DOMAIN_LEN]);

/*
 * Move: one grant for @slabs slabs (1..BROKER_MAX_RENEW) for @client, at
 * @now_s (lease as bstate_grant), on a live donor whose address is none of
 * avoid[0 .. n_avoid) and that has at least @slabs free. Among those, the
 * donors whose failure domain is none of avoid_dom[0 .. n_avoid_dom) come
 * first; only if none of them has room are the others drawn from. The
 * draw is place_slab()'s: power of two choices weighted by free slabs.
 * Debits @slabs from the chosen donor, as bstate_grant does, so that the
 * next move does not count them free again. The donor's failure domain
 * goes to @domain (if not NULL).
 *
 * O(donors x n_avoid): a linear scan over the table, not the placement
 * tree (whose draws cannot skip a set of donors); moves are rare (one per
 * copy a donor evicts and no donor of the device can take).
 *
 * Returns 0, -ENOSPC (no live donor outside @avoid has @slabs free;
 * nothing debited), -EDQUOT or -EUSERS (the client's caps, as
 * bstate_grant) or -EINVAL (@slabs, a count above BROKER_MAX_AVOID, an
 * entry that is not a valid NUL-padded string, @client).
 */
int bstate_move(struct bstate *st, const char *client, uint32_t slabs,
		const char (*avoid)[BROKER_ADDR_LEN], unsigned int n_avoid,
		const char (*avoid_dom)[BROKER_DOMAIN_LEN], unsigned int n_avoid_dom,
		uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		char domain[BROKER_DOMAIN_LEN]);

/*
 * Stripes of an erasure-coded device (STRIPE_REQ): @stripes stripes of @k
 * data (2, 4, 8) and @r parity (1, 2) slabs for @client at @now_s, lease
 * as bstate_grant. Each stripe's K+R slabs are on the K+R donors of one
 * coding group (userspace/sched/ecgroup.h: ec_groups_build() over the live
 * donors, ec_group_pick() among the groups with a free slab on every
 * member): distinct donors, in distinct failure domains unless every live
 * donor has the same label (then only distinct donors). At most live / (K+R)
 * groups exist, so stripes share donor sets. Split j of stripe s goes to
 * out[s * (K+R) + j], its donor's domain to domains[] (if not NULL); each
 * grant is for one slab and debited. All or nothing.
 *
 * Returns 0, -EINVAL (a bad code or count), -EDQUOT, -EUSERS (as
 * bstate_grant), -ENOMEM, or -ENOSPC with @why (why_len bytes) saying
 * what is missing: live donors, failure domains, or a group with room.
 *
 * O(live donors x log) per request: the groups are built afresh from the
 * live donors each time (deterministic for the same donors, so a stable
 * cluster keeps the same groups).
 */
int bstate_stripe(struct bstate *st, const char *client, unsigned int stripes, unsigned int k,
		  unsigned int r, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		  char (*domains)[BROKER_DOMAIN_LEN], char *why, size_t why_len);

#endif /* SPARE_BROKER_STATE_H */
