// SPDX-License-Identifier: GPL-2.0
/*
 * What spare-ublk's threads share beside the request path (pager.h): its
 * threads' small stacks, the donor table's entries, and the broker's
 * grants: --grant and --grant-file read, a device placed by its grant
 * file, grants sent to a donor when it connects, and the file read again
 * on SIGHUP. Called by set-up (ublk_main.c) and by the lifecycle
 * (lifecycle.c), which hands SIGHUP's new donors back through a callback.
 */
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "grantplan.h"
#include "pager.h"
#include "spare_grant_lib.h"
#include "spare_log.h"
#include "spare_util.h"

/*
 * Every thread of the pager: its memory is locked (mlockall() in main()),
 * so a default 8 MiB stack would be 8 MiB of locked memory; none of them
 * needs more than a few KiB.
 */
#define PAGER_STACK	(512U * 1024)

int pager_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t a;
	int ret;

	if (pthread_attr_init(&a))
		return -1;
	ret = pthread_attr_setstacksize(&a, PAGER_STACK) ||
	      pthread_create(t, &a, fn, arg) ? -1 : 0;
	pthread_attr_destroy(&a);
	return ret;
}

const char *donor_parse(struct donor *dn, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	uint64_t port = SPARE_DEFAULT_PORT;
	size_t hl = colon ? (size_t)(colon - arg) : strlen(arg);

	if (!hl || hl >= sizeof(dn->host) ||
	    (colon && spare_parse_u64(colon + 1, 1, 65535, &port)))
		return "expected HOST[:PORT]";
	memcpy(dn->host, arg, hl);
	dn->host[hl] = 0;
	snprintf(dn->port, sizeof(dn->port), "%u", (unsigned int)port);
	return NULL;
}

const char *pager_add_donor(struct dev *d, const char *arg)
{
	const char *why;

	if (d->nr_donors == SPARE_MAX_DONORS)
		return "too many donors (at most " SPARE_STR(SPARE_MAX_DONORS) ")";
	why = donor_parse(&d->donors[d->nr_donors], arg);
	if (!why)
		d->nr_donors++;
	return why;
}

void pager_donor_init(struct dev *d, struct donor *dn)
{
	dn->source = d->source[0] ? d->source : NULL;
	dn->timeout_ms = d->timeout_ms;
	dn->ack_timeout = d->ack_timeout;
	dn->uuid = d->uuid;
	dn->key = d->has_key ? d->key : NULL;
	dn->hold = d->state_path[0] && d->hold_ms;
	dn->nr_data = d->nr_queues;	/* a DATA connection per queue */
}

#define UBLK_MAX_GRANTS	1024

struct grant_list {
	struct spare_grant	*g;
	u32			n;
};

static const char *grant_list_add(struct grant_list *l, const char *hex)
{
	if (l->n == UBLK_MAX_GRANTS)
		return "too many grants (at most " SPARE_STR(UBLK_MAX_GRANTS) ")";
	if (!l->g) {
		l->g = calloc(UBLK_MAX_GRANTS, sizeof(*l->g));
		if (!l->g)
			return "out of memory";
	}
	if (spare_grant_parse_hex(hex, &l->g[l->n]))
		return "not a grant (512 hex digits, as a broker issues it)";
	l->n++;
	return NULL;
}

static void grant_list_free(struct grant_list *l)
{
	if (l->g)
		sodium_memzero(l->g, (size_t)l->n * sizeof(*l->g));
	free(l->g);
	l->g = NULL;
	l->n = 0;
}

void pager_grants_free(struct dev *d)
{
	grant_list_free(&(struct grant_list){ d->grants, d->nr_grants });
	d->grants = NULL;
	d->nr_grants = 0;
}

const char *pager_add_grant(struct dev *d, const char *hex)
{
	struct grant_list l = { d->grants, d->nr_grants };
	const char *why = grant_list_add(&l, hex);

	d->grants = l.g;
	d->nr_grants = l.n;
	return why;
}

/*
 * A grant file (spare_grant_file_read(): a broker's grants, as `sparectl
 * device create --backend=ublk broker=...` writes it), appended to @l.
 */
static const char *grant_list_read(struct grant_list *l, const char *path)
{
	static __thread char why[96];

	if (!l->g && !(l->g = calloc(UBLK_MAX_GRANTS, sizeof(*l->g))))
		return "out of memory";
	return spare_grant_file_read(path, l->g, UBLK_MAX_GRANTS, &l->n, why,
				     sizeof(why)) ? why : NULL;
}

/* --grant-file: its grants join --grant's. */
const char *pager_read_grant_file(struct dev *d, const char *path)
{
	struct grant_list l = { d->grants, d->nr_grants };
	const char *why;

	if (strlen(path) >= sizeof(d->grant_path))
		return "path too long";
	why = grant_list_read(&l, path);
	d->grants = l.g;
	d->nr_grants = l.n;
	snprintf(d->grant_path, sizeof(d->grant_path), "%s", path);
	return why;
}

/*
 * Without --donor, a grant file places the device: its donors and the donor
 * of every slab copy come from its first slabs x copies grants (slab-major,
 * copy c of slab s is grant s * copies + c; later lines are renewals),
 * through the same plan sparectl makes for the module's configfs. With
 * --redundancy ec:K+R the same for coding groups of K slabs' worth of the
 * device and their K+R splits (group-major: split j of group g is grant
 * g * (K + R) + j, STRIPE_REQ's order; ec.c places the groups from it).
 * 0, or -1 (said why).
 */
int pager_place_by_grants(struct dev *d)
{
	bool ec = spare_ec_on(&d->ec_geom);
	uint32_t slabs = grantplan_nr_slabs(d->size, (1ULL << d->slab_shift) *
					    (ec ? d->ec_geom.k : 1));
	unsigned int copies = ec ? spare_ec_splits(&d->ec_geom) : d->copies;
	struct spare_grant_info *info = calloc(d->nr_grants ? d->nr_grants : 1, sizeof(*info));
	struct grantplan *p = malloc(sizeof(*p));
	unsigned int max = SPARE_MAX_DONORS < GRANTPLAN_MAX_DONORS ?
			   SPARE_MAX_DONORS : GRANTPLAN_MAX_DONORS;
	char why[256];
	const char *c, *err;
	int ret = -1;
	u64 n;
	u32 i;

	if (!info || !p) {
		log_err("out of memory");
		goto out;
	}
	n = (u64)slabs * copies;
	if (n > d->nr_grants)
		n = d->nr_grants;	/* refused by grantplan_build(), with the count */
	for (i = 0; i < n; i++)
		spare_grant_decode(&d->grants[i], &info[i]);	/* checked by pager_add_grant() */
	if (grantplan_check(slabs, copies, why, sizeof(why)) ||
	    grantplan_build(info, (size_t)n, slabs, copies, max, p, why, sizeof(why))) {
		log_err("--grant-file: the grants do not place %u %s x %u %s: %s",
			slabs, ec ? "coding group(s)" : "slab(s)", copies,
			ec ? "splits" : "copies", why);
		goto out;
	}
	for (c = p->donors; *c; ) {
		char one[SPARE_GRANT_ADDR_LEN + 1];
		size_t len = strcspn(c, ",");

		snprintf(one, sizeof(one), "%.*s", (int)len, c);
		if ((err = pager_add_donor(d, one))) {
			log_err("--grant-file: donor %s: %s", one, err);
			goto out;
		}
		c += len + (c[len] == ',');
	}
	d->placement = calloc((size_t)slabs * copies, sizeof(*d->placement));
	if (!d->placement) {
		log_err("out of memory");
		goto out;
	}
	for (i = 0; i < p->nwhere; i++)
		d->placement[d->nr_placement++] = p->where[i];
	log_info("--grant-file: %u %s x %u %s on %u donor(s) %s", slabs,
		 ec ? "coding group(s)" : "slab(s)", copies, ec ? "splits" : "copies",
		 p->ndonors, p->donors);
	ret = 0;
out:
	free(info);
	free(p);
	return ret;
}

/* Whether grant @g names donor @dn ("host:port"). */
static bool grant_names(const struct spare_grant *g, const struct donor *dn)
{
	char addr[SPARE_GRANT_ADDR_LEN + 16];

	snprintf(addr, sizeof(addr), "%s:%s", dn->host, dn->port);
	return !strncmp(g->donor_addr, addr, sizeof(g->donor_addr));
}

bool pager_grant_cover(struct dev *d, u32 nd, u32 *cover)
{
	bool any;
	u64 last;
	s64 c;

	pthread_mutex_lock(&d->grants_lock);
	any = d->nr_grants > 0;
	pthread_mutex_unlock(&d->grants_lock);
	for (u32 i = 0; any && i < nd; i++) {
		c = pager_grants_cover(d, &d->donors[i], &last);
		cover[i] = c > 0 ? (u32)c : 0;
	}
	return any;
}

/* Send @dn every unexpired grant for "host:port" in @g[from..n). */
static int send_grant_range(struct donor *dn, const struct spare_grant *g, u32 from, u32 n)
{
	unsigned int sent = 0, expired = 0;
	uint64_t now = (uint64_t)time(NULL);

	for (u32 i = from; i < n; i++) {
		if (!grant_names(&g[i], dn))
			continue;
		if (le64toh(g[i].expiry) <= now) {	/* the donor would refuse it */
			expired++;
			continue;
		}
		if (donor_send_grant(dn, &g[i]))
			return -1;
		sent++;
	}
	if (sent || expired)
		log_info("donor %s:%s: sent %u grant(s)%s", dn->host, dn->port, sent,
			 expired ? ", not those expired" : "");
	return 0;
}

/* Send @dn every unexpired grant for "host:port". 0, or -1. */
int send_grants(struct dev *d, struct donor *dn)
{
	int ret;

	pthread_mutex_lock(&d->grants_lock);
	ret = send_grant_range(dn, d->grants, 0, d->nr_grants);
	pthread_mutex_unlock(&d->grants_lock);
	return ret;
}

s64 pager_grants_cover(struct dev *d, const struct donor *dn, u64 *last)
{
	u64 now = (u64)time(NULL), exp;
	s64 cover = -1;

	*last = 0;
	pthread_mutex_lock(&d->grants_lock);
	for (u32 i = 0; i < d->nr_grants; i++) {
		if (!grant_names(&d->grants[i], dn))
			continue;
		exp = le64toh(d->grants[i].expiry);
		if (exp > *last)
			*last = exp;
		if (exp > now)
			cover = (cover < 0 ? 0 : cover) + le32toh(d->grants[i].slabs);
	}
	pthread_mutex_unlock(&d->grants_lock);
	return cover;
}

void pager_reload_grants(struct dev *d, bool (*live)(struct dev *d, u32 i),
			 int (*add)(struct dev *d, const char *addr))
{
	struct grant_list l = { NULL, 0 }, fresh = { NULL, 0 };
	const char *why;
	u32 i, j, k, file_n;

	if (!d->grant_path[0]) {
		log_info("SIGHUP: no --grant-file to read again");
		return;
	}
	why = grant_list_read(&l, d->grant_path);
	if (why) {
		log_err("SIGHUP: --grant-file %s: %s; the grants stay as they were",
			d->grant_path, why);
		grant_list_free(&l);
		return;
	}
	file_n = l.n;
	if (!l.g && !(l.g = calloc(UBLK_MAX_GRANTS, sizeof(*l.g)))) {
		log_err("SIGHUP: out of memory; the grants stay as they were");
		return;
	}
	pthread_mutex_lock(&d->grants_lock);
	/* the new ones, in the file's order: grant ids not held before, and
	 * renewals (RENEW_GRANT: an id held, a later expiry), which the donors
	 * must see to extend theirs */
	for (i = 0; i < l.n; i++) {
		for (j = 0; j < d->nr_grants; j++)
			if (!memcmp(l.g[i].grant_id, d->grants[j].grant_id,
				    sizeof(l.g[i].grant_id)))
				break;
		if (j < d->nr_grants &&
		    le64toh(l.g[i].expiry) <= le64toh(d->grants[j].expiry))
			continue;
		if (!fresh.g && !(fresh.g = calloc(UBLK_MAX_GRANTS, sizeof(*fresh.g))))
			break;
		fresh.g[fresh.n++] = l.g[i];
	}
	/* the file's list from now on (a reconnect sends it), and what was
	 * held besides (--grant's) while unexpired */
	for (j = 0; j < d->nr_grants && l.n < UBLK_MAX_GRANTS; j++) {
		if (le64toh(d->grants[j].expiry) <= (uint64_t)time(NULL))
			continue;
		for (i = 0; i < l.n; i++)
			if (!memcmp(l.g[i].grant_id, d->grants[j].grant_id,
				    sizeof(l.g[i].grant_id)))
				break;
		if (i == l.n)
			l.g[l.n++] = d->grants[j];
	}
	grant_list_free(&(struct grant_list){ d->grants, d->nr_grants });
	d->grants = l.g;
	d->nr_grants = l.n;
	for (k = 0; k < d->nr_donors; k++)
		if (fresh.n && live(d, k) &&
		    send_grant_range(&d->donors[k], fresh.g, 0, fresh.n))
			donor_fail(&d->donors[k], "sending a grant failed");
	pthread_mutex_unlock(&d->grants_lock);
	log_info("SIGHUP: %u grant(s) in %s, %u new", file_n, d->grant_path, fresh.n);
	/*
	 * A new grant naming a donor the device has not got: the donor is
	 * added (as configfs "donors" appends one to a spare.ko device), and
	 * connected by the lifecycle, which sends it its grants; moved copies
	 * may go there from then on.
	 */
	for (i = 0; i < fresh.n; i++) {
		char addr[SPARE_GRANT_ADDR_LEN + 1];

		for (k = 0; k < d->nr_donors; k++)
			if (grant_names(&fresh.g[i], &d->donors[k]))
				break;
		if (k < d->nr_donors)
			continue;
		snprintf(addr, sizeof(addr), "%.*s", (int)sizeof(fresh.g[i].donor_addr),
			 fresh.g[i].donor_addr);
		add(d, addr);
	}
	/* after the donors: a move waiting for a grant may find the new one */
	if (fresh.n)
		__atomic_add_fetch(&d->grants_seq, 1, __ATOMIC_RELEASE);
	grant_list_free(&fresh);
}
