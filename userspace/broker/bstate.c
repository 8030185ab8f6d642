// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker's soft state and grant issue (bstate.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bstate.h"

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (size_t i = 0; i < len && s[i]; i++) {
		h ^= (uint8_t)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int map_init(struct bstr_map *m, size_t entries)
{
	size_t cap = 16;

	while (cap < entries * 2)
		cap *= 2;
	m->slot = calloc(cap, sizeof(*m->slot));
	m->cap = cap;
	return m->slot ? 0 : -ENOMEM;
}

/*
 * Find @key among strings at base + idx * stride; the slot it is in, or
 * the empty slot where it would go (*found false).
 */
static size_t map_find(const struct bstr_map *m, const char *key, size_t len,
		       const char *base, size_t stride, bool *found)
{
	size_t i = (size_t)str_hash(key, len) & (m->cap - 1);

	while (m->slot[i]) {
		if (!strncmp(base + (size_t)(m->slot[i] - 1) * stride, key, len)) {
			*found = true;
			return i;
		}
		i = (i + 1) & (m->cap - 1);
	}
	*found = false;
	return i;
}

int bstate_init(struct bstate *st, size_t max_donors, unsigned int missed_hb,
		uint32_t lease_s, uint32_t skew_s, const struct spare_grant_key *key,
		uint64_t seed)
{
	memset(st, 0, sizeof(*st));
	if (!max_donors || max_donors > (1u << 24) || !missed_hb || !lease_s || !key)
		return -EINVAL;
	st->max_donors = max_donors;
	st->missed_hb = missed_hb;
	st->max_hb_ms = BSTATE_MAX_HB_MS;
	st->lease_s = lease_s;
	st->skew_s = skew_s;
	st->key = *key;
	st->rng.s = seed ? seed : 1;
	st->donors = calloc(max_donors, sizeof(*st->donors));
	st->pd = calloc(max_donors, sizeof(*st->pd));
	st->bit = calloc(max_donors + 1, sizeof(*st->bit));
	st->w = calloc(max_donors, sizeof(*st->w));
	st->domains = calloc(max_donors, sizeof(*st->domains));
	st->domain_users = calloc(max_donors, sizeof(*st->domain_users));
	st->domain_free = calloc(max_donors, sizeof(*st->domain_free));
	if (!st->donors || !st->pd || !st->bit || !st->w || !st->domains ||
	    !st->domain_users || !st->domain_free ||
	    map_init(&st->by_id, max_donors) || map_init(&st->by_domain, max_donors) ||
	    map_init(&st->by_addr, max_donors)) {
		bstate_free(st);
		return -ENOMEM;
	}
	/* free indices popped lowest first */
	for (size_t k = 0; k < max_donors; k++)
		st->domain_free[k] = (uint32_t)(max_donors - 1 - k);
	st->ndomain_free = max_donors;
	/* the tree covers every slot; unused slots weigh 0 */
	return place_tree_build(&st->tree, st->bit, st->w, st->pd, max_donors);
}

void bstate_free(struct bstate *st)
{
	free(st->donors);
	free(st->pd);
	free(st->bit);
	free(st->w);
	free(st->domains);
	free(st->domain_users);
	free(st->domain_free);
	free(st->by_id.slot);
	free(st->by_domain.slot);
	free(st->by_addr.slot);
	memset(&st->key, 0, sizeof(st->key));
	memset(st, 0, sizeof(*st));
}

const struct bdonor *bstate_find(const struct bstate *st, const char *id)
{
	bool found;
	size_t s = map_find(&st->by_id, id, BROKER_ID_LEN, (const char *)st->donors,
			    sizeof(*st->donors), &found);

	return found ? &st->donors[st->by_id.slot[s] - 1] : NULL;
}

static void set_free(struct bstate *st, size_t i, uint64_t free_slabs)
{
	st->pd[i].free_slabs = free_slabs;
	place_tree_set(&st->tree, i, free_slabs);
}

/*
 * Take @m's entry out of slot @i and shift the entries after it back so
 * that every key stays reachable from its home slot (linear probing has no
 * tombstones, so a table that sees endless inserts and deletes never fills).
 */
static void map_delete(struct bstr_map *m, size_t i, size_t len, const char *base,
		       size_t stride)
{
	size_t mask = m->cap - 1, j = i, home;

	for (;;) {
		m->slot[i] = 0;
		for (;;) {
			j = (j + 1) & mask;
			if (!m->slot[j])
				return;
			home = (size_t)str_hash(base + (size_t)(m->slot[j] - 1) * stride, len) & mask;
			/* stays if its home is cyclically in (i, j] */
			if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
				continue;
			break;
		}
		m->slot[i] = m->slot[j];
		i = j;
	}
}

/*
 * The index of failure domain @label, taken for one more live donor: a
 * known label gains a user, a new one gets a free index. Every live donor
 * holds exactly one domain and a donor releases its old one before taking
 * another, so max_donors indices always suffice. UINT32_MAX if none is
 * free (not reached).
 */
static uint32_t domain_get(struct bstate *st, const char *label)
{
	bool found;
	size_t s = map_find(&st->by_domain, label, BROKER_DOMAIN_LEN,
			    (const char *)st->domains, sizeof(*st->domains), &found);
	uint32_t k;

	if (found) {
		k = st->by_domain.slot[s] - 1;
	} else {
		if (!st->ndomain_free)
			return UINT32_MAX;
		k = st->domain_free[--st->ndomain_free];
		memcpy(st->domains[k], label, BROKER_DOMAIN_LEN);
		st->by_domain.slot[s] = k + 1;
		st->ndomains++;
	}
	st->domain_users[k]++;
	return k;
}

/* A live donor stops using domain @k; the last user frees it. */
static void domain_put(struct bstate *st, uint32_t k)
{
	bool found;
	size_t s;

	if (k >= st->max_donors || !st->domain_users[k] || --st->domain_users[k])
		return;
	s = map_find(&st->by_domain, st->domains[k], BROKER_DOMAIN_LEN,
		     (const char *)st->domains, sizeof(*st->domains), &found);
	if (found)
		map_delete(&st->by_domain, s, BROKER_DOMAIN_LEN, (const char *)st->domains,
			   sizeof(*st->domains));
	memset(st->domains[k], 0, BROKER_DOMAIN_LEN);
	st->domain_free[st->ndomain_free++] = k;
	st->ndomains--;
}

/* Live donors' addresses: donors[].addr, found through by_addr. */
#define ADDR_BASE(st)	((const char *)(st)->donors + offsetof(struct bdonor, addr))

static size_t addr_find(const struct bstate *st, const char *addr, bool *found)
{
	return map_find(&st->by_addr, addr, BROKER_ADDR_LEN, ADDR_BASE(st), sizeof(*st->donors),
			found);
}

/* Donor @i (live, its address set) takes its address. */
static void addr_take(struct bstate *st, size_t i)
{
	bool found;
	size_t s = addr_find(st, st->donors[i].addr, &found);

	if (!found)
		st->by_addr.slot[s] = (uint32_t)(i + 1);
}

/* Donor @i gives its address back (before it changes or is forgotten). */
static void addr_drop(struct bstate *st, size_t i)
{
	bool found;
	size_t s = addr_find(st, st->donors[i].addr, &found);

	if (found && st->by_addr.slot[s] == i + 1)
		map_delete(&st->by_addr, s, BROKER_ADDR_LEN, ADDR_BASE(st), sizeof(*st->donors));
}

/*
 * Drop forgotten donors from the table: live ones move down, the id map and
 * the tree are rebuilt. O(n); only when a new donor finds the table full.
 */
static void compact(struct bstate *st)
{
	size_t j = 0;

	for (size_t i = 0; i < st->n; i++) {
		if (!st->donors[i].live)
			continue;
		if (i != j) {
			st->donors[j] = st->donors[i];
			st->pd[j] = st->pd[i];
		}
		j++;
	}
	for (size_t i = j; i < st->n; i++) {
		memset(&st->donors[i], 0, sizeof(st->donors[i]));
		st->pd[i].free_slabs = 0;
		st->pd[i].domain = 0;
	}
	st->n = j;
	memset(st->by_id.slot, 0, st->by_id.cap * sizeof(*st->by_id.slot));
	memset(st->by_addr.slot, 0, st->by_addr.cap * sizeof(*st->by_addr.slot));
	for (size_t i = 0; i < j; i++) {
		bool found;
		size_t s = map_find(&st->by_id, st->donors[i].id, BROKER_ID_LEN,
				    (const char *)st->donors, sizeof(*st->donors), &found);

		st->by_id.slot[s] = (uint32_t)(i + 1);
		addr_take(st, i);	/* every donor left is live */
	}
	place_tree_build(&st->tree, st->bit, st->w, st->pd, st->max_donors);
}

int bstate_heartbeat(struct bstate *st, const struct broker_donor *d, uint64_t now_ms)
{
	struct bdonor *b;
	bool found, held;
	size_t s, a, i;

	if (!broker_str_ok(d->donor_id, BROKER_ID_LEN) || !broker_str_ok(d->addr, BROKER_ADDR_LEN) ||
	    !broker_str_ok(d->domain, BROKER_DOMAIN_LEN) || !d->hb_interval_ms)
		return -EINVAL;
	s = map_find(&st->by_id, d->donor_id, BROKER_ID_LEN, (const char *)st->donors,
		     sizeof(*st->donors), &found);
	/* an address is one live donor's: another id claiming it changes nothing */
	a = addr_find(st, d->addr, &held);
	if (held && (!found || st->by_addr.slot[a] != st->by_id.slot[s]))
		return -EADDRINUSE;
	if (found) {
		i = st->by_id.slot[s] - 1;
	} else {
		if (st->n >= st->max_donors && st->live < st->n) {
			compact(st);
			s = map_find(&st->by_id, d->donor_id, BROKER_ID_LEN,
				     (const char *)st->donors, sizeof(*st->donors), &found);
		}
		if (st->n >= st->max_donors)
			return -ENOSPC;
		i = st->n++;
		memcpy(st->donors[i].id, d->donor_id, BROKER_ID_LEN);
		st->by_id.slot[s] = (uint32_t)(i + 1);
	}
	b = &st->donors[i];
	if (!b->live || strncmp(b->addr, d->addr, BROKER_ADDR_LEN)) {
		if (b->live)
			addr_drop(st, i);
		memcpy(b->addr, d->addr, BROKER_ADDR_LEN);
		addr_take(st, i);
	}
	/* a live donor holds its domain; a relabel gives the old one back first */
	if (!b->live || strncmp(b->domain, d->domain, BROKER_DOMAIN_LEN)) {
		if (b->live)
			domain_put(st, st->pd[i].domain);
		memcpy(b->domain, d->domain, BROKER_DOMAIN_LEN);
		st->pd[i].domain = domain_get(st, d->domain);
	}
	b->reported = d->free_slabs;
	b->last_hb_ms = now_ms;
	b->hb_interval_ms = d->hb_interval_ms < st->max_hb_ms ? d->hb_interval_ms : st->max_hb_ms;
	b->slab_shift = d->slab_shift;
	if (!b->live) {
		b->live = true;
		st->live++;
	}
	set_free(st, i, d->free_slabs);
	return 0;
}

unsigned int bstate_expire(struct bstate *st, uint64_t now_ms)
{
	unsigned int gone = 0;

	for (size_t i = 0; i < st->n; i++) {
		struct bdonor *b = &st->donors[i];

		if (!b->live ||
		    now_ms - b->last_hb_ms <= (uint64_t)st->missed_hb * b->hb_interval_ms)
			continue;
		b->live = false;
		st->live--;
		set_free(st, i, 0);
		domain_put(st, st->pd[i].domain);
		addr_drop(st, i);
		gone++;
	}
	st->donors_expired += gone;
	return gone;
}

uint64_t bstate_free_slabs(const struct bstate *st, size_t i)
{
	return i < st->n ? st->pd[i].free_slabs : 0;
}

uint64_t bstate_total_free(const struct bstate *st)
{
	return st->tree.total;
}

int bstate_grant(struct bstate *st, const char *client, unsigned int slabs,
		 unsigned int copies, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char (*domains)[BROKER_DOMAIN_LEN])
{
	struct spare_grant_info gi;
	uint32_t idx[BROKER_MAX_GRANTS];
	unsigned int s, done = 0;
	int ret = 0;

	if (!slabs || slabs > BROKER_MAX_SLABS || !copies || copies > BROKER_MAX_COPIES ||
	    copies > PLACE_MAX_COPIES || slabs * copies > BROKER_MAX_GRANTS ||
	    strnlen(client, SPARE_GRANT_CLIENT_LEN) >= SPARE_GRANT_CLIENT_LEN || !client[0])
		return -EINVAL;
	if (!lease_s || lease_s > st->lease_s)
		lease_s = st->lease_s;
	for (s = 0; s < slabs; s++) {
		ret = place_slab_tree(st->pd, &st->tree, copies, &st->rng, idx + done);
		if (ret)
			break;
		for (unsigned int c = 0; c < copies; c++, done++)
			set_free(st, idx[done], st->pd[idx[done]].free_slabs - 1);
	}
	if (ret) {
		for (unsigned int k = 0; k < done; k++)
			set_free(st, idx[k], st->pd[idx[k]].free_slabs + 1);
		st->requests_nospace += ret == -ENOSPC;
		return ret;
	}
	memset(&gi, 0, sizeof(gi));
	strncpy(gi.client_id, client, sizeof(gi.client_id) - 1);
	gi.slabs = 1;
	gi.not_before = now_s > st->skew_s ? now_s - st->skew_s : 0;
	gi.expiry = now_s + lease_s;
	for (unsigned int k = 0; k < done; k++) {
		const struct bdonor *b = &st->donors[idx[k]];

		spare_grant_new_id(gi.id);
		memcpy(gi.donor_id, b->id, sizeof(gi.donor_id));
		memcpy(gi.donor_addr, b->addr, sizeof(gi.donor_addr));
		if (spare_grant_issue(&gi, &st->key, &out[k]))
			return -EINVAL;	/* not reached: fields checked on heartbeat */
		if (domains)
			memcpy(domains[k], b->domain, BROKER_DOMAIN_LEN);
	}
	st->grants_issued += done;
	st->requests_ok++;
	return 0;
}

static bool client_ok(const char *client)
{
	return client[0] && strnlen(client, SPARE_GRANT_CLIENT_LEN) < SPARE_GRANT_CLIENT_LEN;
}

/*
 * One grant for @slabs slabs on donor @b for @client (renewals and moves),
 * and @b's domain into @domain (if not NULL). 0 or -EINVAL.
 */
static int issue_one(struct bstate *st, const struct bdonor *b, const char *client,
		     uint32_t slabs, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		     char domain[BROKER_DOMAIN_LEN])
{
	struct spare_grant_info gi;

	if (!lease_s || lease_s > st->lease_s)
		lease_s = st->lease_s;
	memset(&gi, 0, sizeof(gi));
	strncpy(gi.client_id, client, sizeof(gi.client_id) - 1);
	spare_grant_new_id(gi.id);
	memcpy(gi.donor_id, b->id, sizeof(gi.donor_id));
	memcpy(gi.donor_addr, b->addr, sizeof(gi.donor_addr));
	gi.slabs = slabs;
	gi.not_before = now_s > st->skew_s ? now_s - st->skew_s : 0;
	gi.expiry = now_s + lease_s;
	if (spare_grant_issue(&gi, &st->key, out))
		return -EINVAL;	/* not reached: fields checked on heartbeat */
	if (domain)
		memcpy(domain, b->domain, BROKER_DOMAIN_LEN);
	st->grants_issued++;
	return 0;
}

int bstate_renew(struct bstate *st, const char *client, const char *addr,
		 unsigned int slabs, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char domain[BROKER_DOMAIN_LEN])
{
	const struct bdonor *b = NULL;
	int ret;

	if (!slabs || slabs > BROKER_MAX_RENEW || !client_ok(client))
		return -EINVAL;
	{
		char key[BROKER_ADDR_LEN + 1] = "";
		bool found;
		size_t s;

		strncpy(key, addr, sizeof(key) - 1);
		s = addr_find(st, key, &found);
		if (found)
			b = &st->donors[st->by_addr.slot[s] - 1];
	}
	if (!b)
		return -ENOENT;
	ret = issue_one(st, b, client, slabs, lease_s, now_s, out, domain);
	if (!ret)
		st->renewals++;
	return ret;
}

/* What a move may not use: addresses, and the indices of known domains. */
struct move_rule {
	const char	(*avoid)[BROKER_ADDR_LEN];
	unsigned int	n_avoid;
	uint32_t	dom[BROKER_MAX_AVOID];
	unsigned int	ndom;
	uint32_t	slabs;
};

/* Donor i for a move: 0 (in a fresh domain), 1 (in a domain to avoid), -1 (not at all). */
static int move_tier(const struct bstate *st, const struct move_rule *m, size_t i)
{
	const struct bdonor *b = &st->donors[i];

	if (!b->live || st->pd[i].free_slabs < m->slabs)
		return -1;
	for (unsigned int k = 0; k < m->n_avoid; k++)
		if (!strncmp(b->addr, m->avoid[k], BROKER_ADDR_LEN))
			return -1;
	for (unsigned int k = 0; k < m->ndom; k++)
		if (st->pd[i].domain == m->dom[k])
			return 1;
	return 0;
}

/* One donor of @tier drawn with probability free / @total (place.c's draw). */
static size_t move_draw(struct bstate *st, const struct move_rule *m, int tier, uint64_t total)
{
	uint64_t r = spare_rng_below(&st->rng, total);
	size_t last = 0;

	for (size_t i = 0; i < st->n; i++) {
		if (move_tier(st, m, i) != tier)
			continue;
		last = i;
		if (r < st->pd[i].free_slabs)
			return i;
		r -= st->pd[i].free_slabs;
	}
	return last;	/* not reached: r < total */
}

int bstate_move(struct bstate *st, const char *client, uint32_t slabs,
		const char (*avoid)[BROKER_ADDR_LEN], unsigned int n_avoid,
		const char (*avoid_dom)[BROKER_DOMAIN_LEN], unsigned int n_avoid_dom,
		uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		char domain[BROKER_DOMAIN_LEN])
{
	struct move_rule m = { .avoid = avoid, .n_avoid = n_avoid, .slabs = slabs };
	uint64_t total[2] = { 0, 0 };
	size_t a, b;
	int tier, ret;

	if (!slabs || slabs > BROKER_MAX_RENEW || n_avoid > BROKER_MAX_AVOID ||
	    n_avoid_dom > BROKER_MAX_AVOID || !client_ok(client))
		return -EINVAL;
	for (unsigned int k = 0; k < n_avoid; k++)
		if (!broker_str_ok(avoid[k], BROKER_ADDR_LEN))
			return -EINVAL;
	for (unsigned int k = 0; k < n_avoid_dom; k++) {
		bool found;
		size_t s;

		if (!broker_str_ok(avoid_dom[k], BROKER_DOMAIN_LEN))
			return -EINVAL;
		/* a domain no donor ever had holds no donor to avoid */
		s = map_find(&st->by_domain, avoid_dom[k], BROKER_DOMAIN_LEN,
			     (const char *)st->domains, sizeof(*st->domains), &found);
		if (found)
			m.dom[m.ndom++] = st->by_domain.slot[s] - 1;
	}
	for (size_t i = 0; i < st->n; i++) {
		tier = move_tier(st, &m, i);
		if (tier < 0)
			continue;
		/* not reached from the wire: 2^24 donors of at most 2^32 - 1 free */
		if (st->pd[i].free_slabs > UINT64_MAX - total[tier])
			return -EINVAL;
		total[tier] += st->pd[i].free_slabs;
	}
	tier = total[0] ? 0 : 1;
	if (!total[tier])
		return -ENOSPC;
	/* power of two choices: the one with more free slabs, the lower index on a tie */
	a = move_draw(st, &m, tier, total[tier]);
	b = move_draw(st, &m, tier, total[tier]);
	if (st->pd[b].free_slabs > st->pd[a].free_slabs ||
	    (st->pd[b].free_slabs == st->pd[a].free_slabs && b < a))
		a = b;
	ret = issue_one(st, &st->donors[a], client, slabs, lease_s, now_s, out, domain);
	if (ret)
		return ret;
	set_free(st, a, st->pd[a].free_slabs - slabs);
	st->moves++;
	return 0;
}
