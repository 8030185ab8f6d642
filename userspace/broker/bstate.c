// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker's soft state and grant issue (bstate.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <sodium.h>

#include "bstate.h"
#include "spare_grant_pool.h"
#include "ecgroup.h"

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
	if (!max_donors || max_donors > (1u << 24) || !missed_hb || !lease_s)
		return -EINVAL;
	st->max_donors = max_donors;
	st->missed_hb = missed_hb;
	st->max_hb_ms = BSTATE_MAX_HB_MS;
	st->lease_s = lease_s;
	st->skew_s = skew_s;
	if (key) {
		st->keys.hmac = *key;
		st->keys.has_hmac = true;
	}
	st->rng.s = seed ? seed : 1;
	st->donors = calloc(max_donors, sizeof(*st->donors));
	st->pd = calloc(max_donors, sizeof(*st->pd));
	st->bit = calloc(max_donors + 1, sizeof(*st->bit));
	st->w = calloc(max_donors, sizeof(*st->w));
	st->domains = calloc(max_donors, sizeof(*st->domains));
	st->domain_users = calloc(max_donors, sizeof(*st->domain_users));
	st->domain_free = calloc(max_donors, sizeof(*st->domain_free));
	st->max_clients = BSTATE_MAX_CLIENTS;
	st->clients = calloc(st->max_clients, sizeof(*st->clients));
	st->client_share_pct = BSTATE_CLIENT_SHARE;
	st->fair_share = true;
	st->max_client_grants = BSTATE_CLIENT_GRANTS;
	st->max_donor_bytes = BSTATE_MAX_DONOR_BYTES;
	if (!st->donors || !st->pd || !st->bit || !st->w || !st->domains ||
	    !st->domain_users || !st->domain_free || !st->clients ||
	    map_init(&st->by_client, st->max_clients) ||
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

int bstate_set_grant_keys(struct bstate *st, const struct spare_grant_keys *keys)
{
	if (!keys->has_sign && !keys->has_hmac)
		return -EINVAL;
	st->keys = *keys;
	return 0;
}

void bstate_set_grant_v3(struct bstate *st, bool on)
{
	st->grant_v3 = on;
}

/*
 * Encode grant @gi on donor @b: version 3, tagged now (one HMAC), if we
 * issue those and @b takes them; else as st->keys sign, unsigned yet
 * (spare_grant_keys_seal() and the pool leave version 3 grants alone).
 */
static int grant_encode(const struct bstate *st, const struct bdonor *b,
			const struct spare_grant_info *gi, struct spare_grant *g)
{
	if (st->grant_v3 && b->v3)
		return spare_grant_v3_issue(gi, b->gkey, g);
	return spare_grant_keys_encode(&st->keys, gi, g);
}

int bstate_set_sign_threads(struct bstate *st, unsigned int threads)
{
	struct spare_grant_pool *p = NULL;

	if (threads > SPARE_GRANT_POOL_MAX_THREADS)
		return -EINVAL;
	if (threads) {
		p = spare_grant_pool_new(threads);
		if (!p)
			return -errno;
	}
	spare_grant_pool_free(st->pool);
	st->pool = p;
	return 0;
}

void bstate_free(struct bstate *st)
{
	spare_grant_pool_free(st->pool);
	if (st->donors)
		sodium_memzero(st->donors, st->max_donors * sizeof(*st->donors));
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
	for (size_t i = 0; st->clients && i < st->nclients; i++)
		free(st->clients[i].heap);
	free(st->clients);
	free(st->by_client.slot);
	spare_grant_keys_wipe(&st->keys);
	memset(st, 0, sizeof(*st));
}

int bstate_set_caps(struct bstate *st, uint64_t max_donor_bytes, uint32_t share_pct,
		    uint32_t max_grants)
{
	if (share_pct > 100 || (max_donor_bytes && max_donor_bytes < (UINT64_C(1) << 34)))
		return -EINVAL;	/* at least one slab of the largest size */
	if (max_donor_bytes)
		st->max_donor_bytes = max_donor_bytes;
	if (share_pct)
		st->client_share_pct = share_pct;
	if (max_grants)
		st->max_client_grants = max_grants;
	return 0;
}

uint64_t bstate_donor_cap(const struct bstate *st, uint8_t slab_shift)
{
	uint64_t cap = st->max_donor_bytes >> (slab_shift < 63 ? slab_shift : 63);

	return cap < UINT32_MAX ? cap : UINT32_MAX;
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
	return bstate_heartbeat_v3(st, d, NULL, now_ms);
}

int bstate_heartbeat_v3(struct bstate *st, const struct broker_donor *d,
			const uint8_t *kg, uint64_t now_ms)
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
	if (b->reported > bstate_donor_cap(st, d->slab_shift)) {
		b->reported = bstate_donor_cap(st, d->slab_shift);
		st->donors_clamped++;
	}
	b->last_hb_ms = now_ms;
	b->hb_interval_ms = d->hb_interval_ms < st->max_hb_ms ? d->hb_interval_ms : st->max_hb_ms;
	b->slab_shift = d->slab_shift;
	if (kg && (d->flags & BROKER_DONOR_F_GRANT_V3)) {
		if (!b->v3 || memcmp(b->gkey, kg, sizeof(b->gkey)))
			memcpy(b->gkey, kg, sizeof(b->gkey));
		b->v3 = true;
	} else if (b->v3) {
		sodium_memzero(b->gkey, sizeof(b->gkey));
		b->v3 = false;
	}
	if (!b->live) {
		b->live = true;
		st->live++;
	}
	set_free(st, i, b->reported);
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

size_t bstate_donors_page(const struct bstate *st, size_t start, uint64_t now_ms,
			  struct broker_donor_info *out, size_t max)
{
	size_t i, n = 0;

	for (i = start; i < st->n && n < max; i++, n++) {
		const struct bdonor *d = &st->donors[i];
		struct broker_donor_info *e = &out[n];

		memset(e, 0, sizeof(*e));
		e->d.free_slabs = st->pd[i].free_slabs;
		e->d.hb_interval_ms = d->hb_interval_ms;
		e->d.slab_shift = d->slab_shift;
		memcpy(e->d.donor_id, d->id, BROKER_ID_LEN);
		memcpy(e->d.addr, d->addr, BROKER_ADDR_LEN);
		memcpy(e->d.domain, d->domain, BROKER_DOMAIN_LEN);
		e->hb_age_ms = now_ms > d->last_hb_ms ? now_ms - d->last_hb_ms : 0;
		e->live = d->live;
	}
	return n;
}

uint64_t bstate_free_slabs(const struct bstate *st, size_t i)
{
	return i < st->n ? st->pd[i].free_slabs : 0;
}

uint64_t bstate_total_free(const struct bstate *st)
{
	return st->tree.total;
}

/* ---- per-client caps ---- */

#define CLIENT_BASE(st)	((const char *)(st)->clients)

static void heap_pop(struct bstate *st, struct bclient *c)
{
	struct blease *h = c->heap;
	uint32_t i = 0, n = --c->nheap;

	c->slabs -= h[0].slabs;
	st->held -= h[0].slabs;
	c->grants -= h[0].grants;
	if (h[0].moving) {
		c->moving -= h[0].slabs;
		st->moving -= h[0].slabs;
	}
	h[0] = h[n];
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		struct blease t;

		if (l < n && h[l].expiry < h[m].expiry)
			m = l;
		if (l + 1 < n && h[l + 1].expiry < h[m].expiry)
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Room in @c's heap for @n more leases, so that pushing them cannot fail. */
static int heap_reserve(struct bclient *c, uint32_t n)
{
	uint32_t cap = c->capheap ? c->capheap : 16;
	struct blease *h;

	if (c->nheap + (uint64_t)n <= c->capheap)
		return 0;
	while (cap < c->nheap + (uint64_t)n)
		cap *= 2;
	h = realloc(c->heap, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	c->heap = h;
	c->capheap = cap;
	return 0;
}

/* Push lease @e (room reserved by heap_reserve()). */
static void heap_push(struct bstate *st, struct bclient *c, const struct blease *e)
{
	uint32_t i = c->nheap++;

	while (i && c->heap[(i - 1) / 2].expiry > e->expiry) {
		c->heap[i] = c->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->heap[i] = *e;
	c->slabs += e->slabs;
	st->held += e->slabs;
	c->grants += e->grants;
}

/* Drop @c's leases that ran out by @now_s. */
static void client_expire(struct bstate *st, struct bclient *c, uint64_t now_s)
{
	while (c->nheap && c->heap[0].expiry <= now_s) {
		if (c->heap[0].moving) {
			if (now_s >= st->moved_gone_s + st->lease_s)
				st->moved_gone = 0;
			st->moved_gone += c->heap[0].slabs;
			st->moved_gone_s = now_s;
		}
		heap_pop(st, c);
	}
	if (!c->nheap && c->capheap > 16) {	/* a burst's memory goes back */
		free(c->heap);
		c->heap = NULL;
		c->capheap = 0;
	}
}

/* Count @c in nactive and nwaiting as it stands at @now_s. */
static void client_mark(struct bstate *st, struct bclient *c, uint64_t now_s)
{
	bool waiting = c->wait_until > now_s, active = c->nheap || waiting;

	if (active != c->active) {
		st->nactive = active ? st->nactive + 1 : st->nactive - 1;
		c->active = active;
	}
	if (waiting != c->waiting) {
		st->nwaiting = waiting ? st->nwaiting + 1 : st->nwaiting - 1;
		c->waiting = waiting;
	}
}

/*
 * Judge every client's leases and wait at @now_s, at most once a second
 * (O(clients)), so that the counts of active and waiting clients follow
 * the clock and not only the clients that ask.
 */
static void clients_sweep(struct bstate *st, uint64_t now_s)
{
	if (now_s == st->swept_s)
		return;
	st->swept_s = now_s;
	for (size_t i = 0; i < st->nclients; i++) {
		client_expire(st, &st->clients[i], now_s);
		client_mark(st, &st->clients[i], now_s);
	}
}

/*
 * Make room in a full client table: drop the clients that hold no lease
 * and wait for none now (O(clients); only when a new client finds the
 * table full).
 */
static void clients_compact(struct bstate *st, uint64_t now_s)
{
	size_t j = 0;

	for (size_t i = 0; i < st->nclients; i++) {
		client_expire(st, &st->clients[i], now_s);
		client_mark(st, &st->clients[i], now_s);
		if (!st->clients[i].active) {
			free(st->clients[i].heap);
			continue;
		}
		st->clients[j++] = st->clients[i];
	}
	memset(st->clients + j, 0, (st->nclients - j) * sizeof(*st->clients));
	st->nclients = j;
	memset(st->by_client.slot, 0, st->by_client.cap * sizeof(*st->by_client.slot));
	for (size_t i = 0; i < j; i++) {
		bool found;
		size_t s = map_find(&st->by_client, st->clients[i].name, SPARE_GRANT_CLIENT_LEN,
				    CLIENT_BASE(st), sizeof(*st->clients), &found);

		st->by_client.slot[s] = (uint32_t)(i + 1);
	}
}

/*
 * @client's entry, its run-out leases dropped; added if new. NULL if the
 * table is full of clients holding leases.
 */
static struct bclient *client_get(struct bstate *st, const char *client, uint64_t now_s)
{
	char key[SPARE_GRANT_CLIENT_LEN] = "";
	struct bclient *c;
	bool found;
	size_t s;

	clients_sweep(st, now_s);
	strncpy(key, client, sizeof(key) - 1);
	s = map_find(&st->by_client, key, sizeof(key), CLIENT_BASE(st), sizeof(*st->clients),
		     &found);
	if (found) {
		c = &st->clients[st->by_client.slot[s] - 1];
		client_expire(st, c, now_s);
		client_mark(st, c, now_s);
		return c;
	}
	if (st->nclients == st->max_clients) {
		clients_compact(st, now_s);
		s = map_find(&st->by_client, key, sizeof(key), CLIENT_BASE(st),
			     sizeof(*st->clients), &found);
		if (st->nclients == st->max_clients)
			return NULL;
	}
	c = &st->clients[st->nclients];
	memset(c, 0, sizeof(*c));
	memcpy(c->name, key, sizeof(key));
	st->by_client.slot[s] = (uint32_t)++st->nclients;
	return c;
}

/* @c's fair share: the pool over the active clients, @c counted. */
static uint64_t fair_share(const struct bstate *st, const struct bclient *c)
{
	uint64_t n = st->nactive + !c->active;

	return (bstate_total_free(st) + st->held) / (n ? n : 1);
}

/*
 * May @c take @slabs more slab copies from the pool and @grants more
 * grants? The grant cap; max-client-share: what it holds plus @slabs at
 * most client_share_pct percent of the pool's free slabs plus what it
 * holds (at 100 the pool alone caps it, and a request it cannot hold is
 * -ENOSPC from placement); and the fair share: while another client waits
 * (client_wait()), not past the pool divided among the active clients.
 * 0 or -EDQUOT (st->capped_why says which).
 */
static int client_may(struct bstate *st, const struct bclient *c, uint64_t slabs,
		      uint64_t grants)
{
	unsigned __int128 pool = (unsigned __int128)bstate_total_free(st) + c->slabs;

	if (c->grants + grants > st->max_client_grants) {
		st->refused_grants++;
		st->capped_why = BSTATE_CAP_GRANTS;
		return -EDQUOT;
	}
	if (slabs && st->client_share_pct < 100 &&
	    (unsigned __int128)(c->slabs + slabs) * 100 > pool * st->client_share_pct) {
		st->refused_share++;
		st->capped_why = BSTATE_CAP_PCT;
		return -EDQUOT;
	}
	if (slabs && st->fair_share && st->nwaiting > (c->waiting ? 1u : 0u) &&
	    c->slabs + slabs > fair_share(st, c)) {
		st->refused_fair++;
		st->capped_why = BSTATE_CAP_FAIR;
		return -EDQUOT;
	}
	return 0;
}

/*
 * @c was refused for lack of room at @now_s: below its fair share it
 * waits for a lease (lease_s), which holds the others to their shares.
 */
static void client_wait(struct bstate *st, struct bclient *c, uint64_t now_s)
{
	if (c->slabs < fair_share(st, c)) {
		c->wait_until = now_s + st->lease_s;
		st->waited_s = now_s;
	}
	client_mark(st, c, now_s);
}

/*
 * A lease for grant @g (@slabs slabs) of @c until @expiry (room reserved).
 * A grant it holds already (a renewal: the same id) hands its slabs over to
 * the new lease, so that they are counted once.
 */
static void client_charge(struct bstate *st, struct bclient *c, const struct spare_grant *g,
			  uint32_t slabs, uint64_t expiry, bool renewal, uint64_t now_s)
{
	struct blease e = { .expiry = expiry, .slabs = slabs, .grants = 1 };

	memcpy(&e.token, g->grant_id, sizeof(e.token));
	for (uint32_t i = 0; renewal && slabs && i < c->nheap; i++) {
		struct blease *h = &c->heap[i];

		if (h->slabs && h->token == e.token) {
			if (h->moving) {	/* renewed all the same: it stays */
				c->moving -= h->slabs;
				st->moving -= h->slabs;
			}
			h->moving = false;
			c->slabs -= h->slabs;
			st->held -= h->slabs;
			h->slabs = 0;
			h->token = 0;
			break;
		}
	}
	if (!slabs)
		e.token = 0;
	heap_push(st, c, &e);
	/* served: it waits no more */
	if (!renewal)
		c->wait_until = 0;
	client_mark(st, c, now_s);
}

void bstate_set_fair_share(struct bstate *st, bool on)
{
	st->fair_share = on;
}

static const struct bclient *client_find(const struct bstate *st, const char *client)
{
	char key[SPARE_GRANT_CLIENT_LEN] = "";
	bool found;
	size_t s;

	strncpy(key, client, sizeof(key) - 1);
	s = map_find(&st->by_client, key, sizeof(key), CLIENT_BASE(st), sizeof(*st->clients),
		     &found);
	return found ? &st->clients[st->by_client.slot[s] - 1] : NULL;
}

uint64_t bstate_client_slabs(const struct bstate *st, const char *client)
{
	const struct bclient *c = client_find(st, client);

	return c ? c->slabs : 0;
}

uint64_t bstate_client_grants(const struct bstate *st, const char *client)
{
	const struct bclient *c = client_find(st, client);

	return c ? c->grants : 0;
}

uint64_t bstate_client_fair_share(const struct bstate *st, const char *client)
{
	static const struct bclient none;
	const struct bclient *c = client_find(st, client);

	return fair_share(st, c ? c : &none);
}

uint32_t bstate_clients_sharing(const struct bstate *st, const char *client)
{
	const struct bclient *c = client_find(st, client);

	return st->nactive + !(c && c->active);
}

static uint32_t lease_of(const struct bstate *st, uint32_t lease_s)
{
	return !lease_s || lease_s > st->lease_s ? st->lease_s : lease_s;
}

int bstate_grant(struct bstate *st, const char *client, unsigned int slabs,
		 unsigned int copies, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char (*domains)[BROKER_DOMAIN_LEN])
{
	struct spare_grant_info gi;
	uint32_t idx[BROKER_MAX_GRANTS];
	unsigned int s, done = 0;
	struct bclient *cl;
	int ret = 0;

	if (!slabs || slabs > BROKER_MAX_SLABS || !copies || copies > BROKER_MAX_COPIES ||
	    copies > PLACE_MAX_COPIES || slabs * copies > BROKER_MAX_GRANTS ||
	    strnlen(client, SPARE_GRANT_CLIENT_LEN) >= SPARE_GRANT_CLIENT_LEN || !client[0])
		return -EINVAL;
	lease_s = lease_of(st, lease_s);
	cl = client_get(st, client, now_s);
	if (!cl)
		return -EUSERS;
	ret = client_may(st, cl, slabs * copies, slabs * copies);
	if (ret)
		return ret;
	if (heap_reserve(cl, slabs * copies))
		return -ENOMEM;
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
		if (ret == -ENOSPC)
			client_wait(st, cl, now_s);
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
		if (grant_encode(st, b, &gi, &out[k]))
			return -EINVAL;	/* not reached: fields checked on heartbeat */
		client_charge(st, cl, &out[k], 1, gi.expiry, false, now_s);
		if (domains)
			memcpy(domains[k], b->domain, BROKER_DOMAIN_LEN);
	}
	spare_grant_pool_seal(st->pool, &st->keys, out, done);
	st->grants_issued += done;
	st->requests_ok++;
	return 0;
}

static bool client_ok(const char *client)
{
	return client[0] && strnlen(client, SPARE_GRANT_CLIENT_LEN) < SPARE_GRANT_CLIENT_LEN;
}

/*
 * One grant for @slabs slabs on donor @b for @client, encoded but not yet
 * signed (spare_grant_keys_seal()), and @b's domain into @domain (if not
 * NULL). 0 or -EINVAL.
 */
static int encode_one(struct bstate *st, const struct bdonor *b, const char *client,
		      uint32_t slabs, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		      char domain[BROKER_DOMAIN_LEN])
{
	struct spare_grant_info gi;

	lease_s = lease_of(st, lease_s);
	memset(&gi, 0, sizeof(gi));
	strncpy(gi.client_id, client, sizeof(gi.client_id) - 1);
	spare_grant_new_id(gi.id);
	memcpy(gi.donor_id, b->id, sizeof(gi.donor_id));
	memcpy(gi.donor_addr, b->addr, sizeof(gi.donor_addr));
	gi.slabs = slabs;
	gi.not_before = now_s > st->skew_s ? now_s - st->skew_s : 0;
	gi.expiry = now_s + lease_s;
	if (grant_encode(st, b, &gi, out))
		return -EINVAL;	/* not reached: fields checked on heartbeat */
	if (domain)
		memcpy(domain, b->domain, BROKER_DOMAIN_LEN);
	st->grants_issued++;
	return 0;
}

/* encode_one(), signed (renewals, rooms and moves: one grant each). */
static int issue_one(struct bstate *st, const struct bdonor *b, const char *client,
		     uint32_t slabs, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		     char domain[BROKER_DOMAIN_LEN])
{
	int ret = encode_one(st, b, client, slabs, lease_s, now_s, out, domain);

	if (!ret)
		spare_grant_keys_seal(&st->keys, out);
	return ret;
}

/* The live donor registered at @addr: its index, or -1. */
static ssize_t donor_at(const struct bstate *st, const char *addr)
{
	char key[BROKER_ADDR_LEN + 1] = "";
	bool found;
	size_t s;

	strncpy(key, addr, sizeof(key) - 1);
	s = addr_find(st, key, &found);
	return found ? (ssize_t)st->by_addr.slot[s] - 1 : -1;
}

int bstate_room(struct bstate *st, const char *client, const char *addr,
		unsigned int slabs, uint32_t lease_s, uint64_t now_s,
		struct spare_grant *out, char domain[BROKER_DOMAIN_LEN])
{
	struct bclient *c;
	ssize_t i;
	int ret;

	if (!slabs || slabs > BROKER_MAX_RENEW || !client_ok(client))
		return -EINVAL;
	i = donor_at(st, addr);
	if (i < 0)
		return -ENOENT;
	c = client_get(st, client, now_s);
	if (!c)
		return -EUSERS;
	if (st->pd[i].free_slabs < slabs) {
		st->requests_nospace++;
		client_wait(st, c, now_s);
		return -ENOSPC;
	}
	ret = client_may(st, c, slabs, 1);
	if (ret)
		return ret;
	if (heap_reserve(c, 1))
		return -ENOMEM;
	ret = issue_one(st, &st->donors[i], client, slabs, lease_s, now_s, out, domain);
	if (ret)
		return ret;
	client_charge(st, c, out, slabs, now_s + lease_of(st, lease_s), false, now_s);
	set_free(st, (size_t)i, st->pd[i].free_slabs - slabs);
	st->rooms++;
	return 0;
}

int bstate_renew(struct bstate *st, const char *client, const char *addr,
		 unsigned int slabs, uint32_t lease_s, uint64_t now_s,
		 struct spare_grant *out, char domain[BROKER_DOMAIN_LEN])
{
	const struct bdonor *b = NULL;
	struct bclient *c;
	ssize_t i;
	int ret;

	if (!slabs || slabs > BROKER_MAX_RENEW || !client_ok(client))
		return -EINVAL;
	i = donor_at(st, addr);
	if (i < 0)
		return -ENOENT;
	b = &st->donors[i];
	if (slabs > bstate_donor_cap(st, b->slab_shift)) {
		st->refused_renewals++;
		return -E2BIG;
	}
	c = client_get(st, client, now_s);
	if (!c)
		return -EUSERS;
	ret = client_may(st, c, 0, 1);
	if (!ret && heap_reserve(c, 1))
		ret = -ENOMEM;
	if (!ret)
		ret = issue_one(st, b, client, slabs, lease_s, now_s, out, domain);
	if (ret)
		return ret;
	/* it cannot know the client holds those slabs: a grant, no slabs */
	client_charge(st, c, out, 0, now_s + lease_of(st, lease_s), true, now_s);
	st->renewals++;
	return 0;
}

/*
 * How long after its expiry grant @gi may still be renewed: one lease,
 * the broker's or the grant's own (expiry - not_before, the clock skew
 * included) if that is longer, so that a grant sparectl keeps for its own
 * lease (Documentation/broker.md, "Lapsed grants") is never refused for
 * a skew or a lease since shortened.
 */
static uint64_t renew_grace(const struct bstate *st, const struct spare_grant_info *gi)
{
	uint64_t own = gi->expiry - gi->not_before;	/* > 0: checked by the caller */

	return own > st->lease_s ? own : st->lease_s;
}

/*
 * Is @old one @client may have renewed at @now_s? Decoded into @gi and its
 * donor's index into @at; changes nothing. 0 or bstate_renew_grant()'s
 * errors but -EDQUOT and -EUSERS.
 */
static int renew_check(const struct bstate *st, const char *client, const struct spare_grant *old,
		       uint64_t now_s, struct spare_grant_info *gi, size_t *at)
{
	const struct bdonor *b;

	if (spare_grant_decode(old, gi) || gi->expiry <= gi->not_before)
		return -EBADMSG;
	/*
	 * Version 3: the tag of its donor's key, which we hold while that
	 * donor, live, says it takes version 3 (renewed as what it takes now).
	 */
	if (gi->version == SPARE_GRANT_VERSION_DONOR_MAC) {
		b = bstate_find(st, gi->donor_id);
		if (!b || !b->v3 || spare_grant_v3_tag_check(old, b->gkey))
			return -EBADMSG;
	} else
	/*
	 * Our signature, whatever the time: checked at a moment inside the
	 * grant's own validity, against this client and donor (the time is
	 * judged below, with a grace of one lease). A version 2 grant with
	 * the public half of our signing key or a public key we were given
	 * (rotation); a version 1 grant only while we hold a version 1 key.
	 * The renewal is signed with what we sign with now.
	 */
	if (spare_grant_check(old, &st->keys, gi->donor_id, NULL, gi->not_before, NULL, NULL)) {
		return -EBADMSG;
	}
	if (strncmp(gi->client_id, client, SPARE_GRANT_CLIENT_LEN))
		return -EACCES;
	if (now_s >= gi->expiry && now_s - gi->expiry >= renew_grace(st, gi))
		return -ETIME;
	b = bstate_find(st, gi->donor_id);
	if (!b || !b->live || strncmp(b->addr, gi->donor_addr, BROKER_ADDR_LEN))
		return -ENOENT;
	if (gi->slabs > bstate_donor_cap(st, b->slab_shift))
		return -E2BIG;
	*at = (size_t)(b - st->donors);
	return 0;
}

int bstate_renew_grants(struct bstate *st, const char *client, const struct spare_grant *old,
			unsigned int n, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
			char (*domains)[BROKER_DOMAIN_LEN], unsigned int *failed)
{
	struct spare_grant_info gi[BROKER_MAX_RENEW_GRANTS];
	size_t at[BROKER_MAX_RENEW_GRANTS];
	struct bclient *c;
	unsigned int i;
	int ret = 0;

	*failed = 0;
	if (!client_ok(client) || !n || n > BROKER_MAX_RENEW_GRANTS)
		return -EINVAL;
	/* every grant judged before anything is charged or signed: all or none */
	for (i = 0; i < n && !ret; i++) {
		ret = renew_check(st, client, &old[i], now_s, &gi[i], &at[i]);
		*failed = i;
	}
	if (!ret) {
		c = client_get(st, client, now_s);
		ret = c ? client_may(st, c, 0, n) : -EUSERS;
		lease_s = lease_of(st, lease_s);
		if (!ret && heap_reserve(c, n))
			ret = -ENOMEM;
	}
	if (ret) {
		st->refused_renewals++;
		goto wipe;
	}
	for (i = 0; i < n; i++) {
		gi[i].not_before = now_s > st->skew_s ? now_s - st->skew_s : 0;
		gi[i].expiry = now_s + lease_s;
		if (grant_encode(st, &st->donors[at[i]], &gi[i], &out[i])) {
			ret = -EINVAL;	/* not reached: decoded from a well-formed grant */
			goto wipe;
		}
		/* its slabs held on: counted once, under the new lease */
		client_charge(st, c, &out[i], gi[i].slabs, gi[i].expiry, true, now_s);
		if (domains)
			memcpy(domains[i], st->donors[at[i]].domain, BROKER_DOMAIN_LEN);
	}
	spare_grant_pool_seal(st->pool, &st->keys, out, n);
	st->grants_issued += n;
	st->renewals += n;
wipe:
	memset(gi, 0, sizeof(gi));
	return ret;
}

/* @c's lease of the grant whose id starts with @token, not marked yet; or NULL. */
static struct blease *lease_of_token(struct bclient *c, uint64_t token)
{
	for (uint32_t i = 0; token && i < c->nheap; i++)
		if (c->heap[i].slabs && c->heap[i].token == token && !c->heap[i].moving)
			return &c->heap[i];
	return NULL;
}

/*
 * Open @c's reclaim window at @now_s if the last one ended: a lease long,
 * BSTATE_RECLAIM_PCT percent of the largest excess (@excess now) since
 * others began waiting.
 */
static void reclaim_window(const struct bstate *st, struct bclient *c, uint64_t excess,
			   uint64_t now_s)
{
	uint64_t unit = (excess * BSTATE_RECLAIM_PCT + 99) / 100;

	if (unit > c->reclaim_unit)
		c->reclaim_unit = unit;
	if (now_s >= c->reclaim_until) {
		c->reclaim_until = now_s + st->lease_s;
		c->reclaim_left = c->reclaim_unit;
	}
}

uint64_t bstate_reclaim_pick(struct bstate *st, const char *client, const struct spare_grant *g,
			     unsigned int n, uint64_t now_s, bool *move)
{
	struct spare_grant_info gi;
	struct bclient *c;
	uint64_t share, excess, marked = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		move[i] = false;
	if (!client_ok(client) || !st->fair_share)
		return 0;
	clients_sweep(st, now_s);
	c = (struct bclient *)client_find(st, client);
	if (!c)
		return 0;
	client_expire(st, c, now_s);
	client_mark(st, c, now_s);
	if (st->nwaiting <= (c->waiting ? 1u : 0u)) {
		/*
		 * Nobody else waits now: nothing is marked, and the pool is
		 * taken afresh when someone does. A waiter served one slab of
		 * a burst waits no more until its next request is refused, a
		 * moment later: the window (a share of the largest excess) is
		 * over only once nobody began to wait for a lease, so that a
		 * renewal landing in that moment does not start it afresh
		 * smaller.
		 */
		c->reclaim_pool = 0;
		if (now_s >= st->waited_s + st->lease_s)
			c->reclaim_unit = c->reclaim_left = c->reclaim_until = 0;
		return 0;
	}
	/*
	 * The share over the largest pool since the episode began: slabs
	 * whose leases ran out after a move leave the broker's books before
	 * the donor counts them free again, and that dip must not make the
	 * hog's excess look larger than it is. A slab marked to move is
	 * counted once: a client that unmapped it at once has it counted
	 * free by the donor while its lease still runs (and until the donor
	 * says so it is in the maximum already). But never more than the
	 * donors' free slabs, the leases, and the marked leases that ran out
	 * within a lease (moved_gone: the dip above) now: a copy given back
	 * under a lease that is not marked (a mark renewed all the same by a
	 * monitor that had not seen the copy go, or a copy given back beyond
	 * the marks) is counted twice, free and held, until that lease runs
	 * out, and the maximum alone kept that for as long as others waited:
	 * a share too large, and the hog above its real share for good
	 * (broker/fair-share's stuck hog, test reclaim_stale_monitor).
	 */
	share = bstate_total_free(st) + st->held - st->moving;
	if (share > c->reclaim_pool)
		c->reclaim_pool = share;
	share = bstate_total_free(st) + st->held;
	if (now_s < st->moved_gone_s + st->lease_s)
		share += st->moved_gone;
	if (share > c->reclaim_pool)
		share = c->reclaim_pool;
	share /= st->nactive + !c->active;
	if (c->slabs <= c->moving + share)
		return 0;
	excess = c->slabs - c->moving - share;
	reclaim_window(st, c, excess, now_s);
	for (i = 0; i < n && excess && c->reclaim_left; i++) {
		struct blease *e;
		uint64_t token;

		if (spare_grant_decode(&g[i], &gi) ||
		    strncmp(gi.client_id, client, SPARE_GRANT_CLIENT_LEN))
			continue;
		memcpy(&token, g[i].grant_id, sizeof(token));
		e = lease_of_token(c, token);
		/*
		 * Never below its share; within the window's budget, except one
		 * grant larger than the whole budget, taken alone.
		 */
		if (!e || e->slabs > excess ||
		    (e->slabs > c->reclaim_left && c->reclaim_left < c->reclaim_unit))
			continue;
		e->moving = true;
		c->moving += e->slabs;
		st->moving += e->slabs;
		excess -= e->slabs;
		c->reclaim_left -= e->slabs < c->reclaim_left ? e->slabs : c->reclaim_left;
		marked += e->slabs;
		move[i] = true;
	}
	memset(&gi, 0, sizeof(gi));
	st->reclaim_marked += marked;
	return marked;
}

int bstate_renew_grant(struct bstate *st, const char *client, const struct spare_grant *old,
		       uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		       char domain[BROKER_DOMAIN_LEN])
{
	unsigned int failed;

	return bstate_renew_grants(st, client, old, 1, lease_s, now_s, out,
				   (char (*)[BROKER_DOMAIN_LEN])domain, &failed);
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
	struct bclient *c;
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
	c = client_get(st, client, now_s);
	if (!c)
		return -EUSERS;
	if (!total[tier]) {
		client_wait(st, c, now_s);
		return -ENOSPC;
	}
	ret = client_may(st, c, slabs, 1);
	if (ret)
		return ret;
	if (heap_reserve(c, 1))
		return -ENOMEM;
	/* power of two choices: the one with more free slabs, the lower index on a tie */
	a = move_draw(st, &m, tier, total[tier]);
	b = move_draw(st, &m, tier, total[tier]);
	if (st->pd[b].free_slabs > st->pd[a].free_slabs ||
	    (st->pd[b].free_slabs == st->pd[a].free_slabs && b < a))
		a = b;
	ret = issue_one(st, &st->donors[a], client, slabs, lease_s, now_s, out, domain);
	if (ret)
		return ret;
	client_charge(st, c, out, slabs, now_s + lease_of(st, lease_s), false, now_s);
	set_free(st, a, st->pd[a].free_slabs - slabs);
	st->moves++;
	return 0;
}

/* ---- Erasure-coded stripes on coding groups (STRIPE_REQ) ---- */

/* The live donors as coding-group members; their table indices in @at. */
static size_t stripe_members(const struct bstate *st, struct ec_member *m, uint32_t *at)
{
	size_t n = 0;

	for (size_t i = 0; i < st->n; i++) {
		if (!st->donors[i].live)
			continue;
		m[n].key = str_hash(st->donors[i].id, BROKER_ID_LEN);
		/* one label for all: the cluster has no domains, donors are distinct */
		m[n].domain = st->ndomains > 1 ? st->pd[i].domain : (uint32_t)i;
		at[n++] = (uint32_t)i;
	}
	return n;
}

/* What a stripe request lacks, or "" if it is not a shortage of donors or domains. */
static void stripe_why(const struct bstate *st, unsigned int k, unsigned int r, size_t live,
		       long groups, char *why, size_t why_len)
{
	unsigned int w = k + r;

	if (live < w)
		snprintf(why, why_len, "ec %u+%u needs %u live donors; the broker knows %zu",
			 k, r, w, live);
	else if (st->ndomains > 1 && st->ndomains < w)
		snprintf(why, why_len,
			 "ec %u+%u needs donors in %u failure domains; the %zu live donors are in %zu",
			 k, r, w, live, st->ndomains);
	else if (groups <= 0)
		snprintf(why, why_len,
			 "ec %u+%u: the %zu live donors in %zu failure domains make no coding group of %u donors in distinct domains",
			 k, r, live, st->ndomains, w);
	else
		snprintf(why, why_len,
			 "ec %u+%u: none of the %ld coding groups of %u donors has a free slab on every donor",
			 k, r, groups, w);
}

int bstate_stripe(struct bstate *st, const char *client, unsigned int stripes, unsigned int k,
		  unsigned int r, uint32_t lease_s, uint64_t now_s, struct spare_grant *out,
		  char (*domains)[BROKER_DOMAIN_LEN], char *why, size_t why_len)
{
	unsigned int w = k + r, done = 0;
	uint32_t idx[BROKER_MAX_GRANTS];
	struct place_donor *mfree = NULL;
	struct ec_member *m = NULL;
	uint32_t *at = NULL, *scratch = NULL, *groups = NULL;
	struct bclient *cl;
	long ng = 0;
	size_t live;
	int ret;

	if (why_len)
		why[0] = 0;
	if (!stripes || stripes > BROKER_MAX_SLABS || (k != 2 && k != 4 && k != 8) ||
	    (r != 1 && r != 2) || stripes * w > BROKER_MAX_GRANTS || !client_ok(client))
		return -EINVAL;
	lease_s = lease_of(st, lease_s);
	cl = client_get(st, client, now_s);
	if (!cl)
		return -EUSERS;
	ret = client_may(st, cl, stripes * w, stripes * w);
	if (ret)
		return ret;
	if (heap_reserve(cl, stripes * w))
		return -ENOMEM;
	m = calloc(st->n ? st->n : 1, sizeof(*m));
	at = calloc(st->n ? st->n : 1, sizeof(*at));
	mfree = calloc(st->n ? st->n : 1, sizeof(*mfree));
	groups = calloc(st->n ? st->n : 1, sizeof(*groups));
	scratch = calloc(ec_groups_scratch(st->n ? st->n : 1), sizeof(*scratch));
	if (!m || !at || !mfree || !groups || !scratch) {
		ret = -ENOMEM;
		goto out;
	}
	live = stripe_members(st, m, at);
	if (live >= w && !(st->ndomains > 1 && st->ndomains < w))
		ng = ec_groups_build(m, live, w, scratch, groups);
	for (size_t j = 0; j < live; j++)
		mfree[j].free_slabs = st->pd[at[j]].free_slabs;
	ret = ng > 0 ? 0 : -ENOSPC;
	for (unsigned int s = 0; s < stripes && !ret; s++) {
		long g = ec_group_pick(groups, (size_t)ng, w, mfree, &st->rng, scratch);

		if (g < 0) {
			ret = (int)g;
			break;
		}
		for (unsigned int j = 0; j < w; j++, done++) {
			uint32_t mj = groups[(size_t)g * w + j];

			idx[done] = at[mj];
			mfree[mj].free_slabs--;
			set_free(st, at[mj], st->pd[at[mj]].free_slabs - 1);
		}
	}
	if (ret) {
		for (unsigned int j = 0; j < done; j++)
			set_free(st, idx[j], st->pd[idx[j]].free_slabs + 1);
		if (ret == -ENOSPC) {
			st->requests_nospace++;
			client_wait(st, cl, now_s);
			stripe_why(st, k, r, live, ng, why, why_len);
		}
		goto out;
	}
	for (unsigned int j = 0; j < done && !ret; j++) {
		ret = encode_one(st, &st->donors[idx[j]], client, 1, lease_s, now_s, &out[j],
				 domains ? domains[j] : NULL);
		if (!ret)
			client_charge(st, cl, &out[j], 1, now_s + lease_s, false, now_s);
	}
	if (!ret) {
		spare_grant_pool_seal(st->pool, &st->keys, out, done);
		st->requests_ok++;
	}
out:
	free(m);
	free(at);
	free(mfree);
	free(groups);
	free(scratch);
	return ret;
}
