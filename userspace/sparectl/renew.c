// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl device renew and device monitor: keeping the grants of a
 * broker-placed device alive (both backends), and for a spare-ublk device
 * finding moved copies a donor outside the device (MOVE_REQ).
 *
 *   sparectl device renew NAME broker=... broker-name=N broker-key=F [lease=S]
 *   sparectl device monitor NAME broker=... [renew-before=S] [interval=S]
 *                                           [standby=N] [once]
 *
 * spare.ko's devices are watched through the module's uevents, spare-ublk's
 * on a timer (the pager sends none). Shapes and exit status in sparectl(8).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "brokerask.h"
#include "cli.h"
#include "devstat.h"
#include "grantplan.h"
#include "renew.h"
#include "spare_grant_lib.h"
#include "spare_json.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "spare.h"
#include "ublkdev.h"
#include "uevent.h"

/* What renewing a device needs: its brokers, key and the per-donor counts. */
struct renew_ctx {
	const char *name;		/* the device's */
	struct create_broker b;
	struct brokerask a;
	uint8_t key[BROKER_KEY_LEN];
	char donors[GRANTPLAN_ATTR_MAX];
	char *addr[GRANTPLAN_MAX_DONORS];
	uint32_t count[GRANTPLAN_MAX_DONORS];
	unsigned int nd;
	unsigned int ec_width;		/* K + R of an ec:K+R device, else 0 */
};

/*
 * The broker arguments of renew and monitor (@extra: monitor's own keys,
 * left for it in @rest). 0, or the exit status of a usage error or a bad
 * key file (logged).
 */
static int renew_args(const struct sparectl *c, struct renew_ctx *r, const char *cmd,
		      int argc, char **argv, bool (*extra)(const char *arg, void *ctx),
		      void *ctx)
{
	uint64_t lease = 0;
	char why[512];
	int i;

	for (i = 0; i < argc; i++) {
		if (extra && extra(argv[i], ctx))
			continue;
		if (!broker_arg(argv[i], &r->b) || r->b.dev_key_file) {
			fprintf(stderr, "sparectl: %s: '%s': expected broker=, broker-name=, "
				"broker-key=%s or lease= (sparectl --help)\n", cmd, argv[i],
				extra ? ", renew-before=, interval=, standby=, once" : "");
			return EXIT_USAGE;
		}
	}
	if (!r->b.brokers || !r->b.name || !r->b.key_file) {
		fprintf(stderr, "sparectl: %s needs broker=, broker-name= and broker-key= "
			"(sparectl --help)\n", cmd);
		return EXIT_USAGE;
	}
	if (brokerask_check_list(r->b.brokers))
		return usage_error("broker=%s", brokerask_check_list(r->b.brokers));
	if (r->b.lease && spare_parse_u64(r->b.lease, 1, UINT32_MAX, &lease))
		return usage_error("lease=%s: not a number of seconds", r->b.lease);
	if (sodium_init() < 0 || broker_read_key_file(r->b.key_file, r->key, why, sizeof(why))) {
		log_err("broker-key=%s", why);
		return 1;
	}
	r->a.brokers = r->b.brokers;
	r->a.name = r->b.name;
	r->a.key = r->key;
	r->a.lease_s = (uint32_t)lease;
	r->a.timeout_ms = c->broker_timeout_ms;
	return 0;
}

/* The device's donors and the slab copies placed on each. 0, or -1 (logged). */
/*
 * A powered device's copies move when a donor evicts them: count each
 * donor's copies from slab_map, where they are now, rather than from the
 * placement written at create time. A device powered off, or a module
 * without slab_map, keeps the placement's counts.
 */
static int renew_live_counts(const struct sparectl *c, const char *name,
			     struct renew_ctx *r)
{
	struct dev_slab_copy *sc;
	char disk[64], why[512];
	unsigned int n, i;

	if (dev_attr_text(&c->roots, name, "disk", disk, sizeof(disk), why,
			  sizeof(why)) || !disk[0])
		return 0;
	if (dev_read_slab_map(&c->roots, disk, &sc, &n, why, sizeof(why))) {
		if (errno == ENOENT)
			return 0;
		log_err("device %s: %s", name, why);
		return -1;
	}
	memset(r->count, 0, sizeof(r->count));
	for (i = 0; i < n; i++) {
		if (sc[i].donor >= r->nd) {
			log_err("device %s: slab_map names donor %u of %u", name,
				sc[i].donor, r->nd);
			free(sc);
			return -1;
		}
		r->count[sc[i].donor]++;
	}
	free(sc);
	return 0;
}

static int renew_plan(const struct sparectl *c, const char *name, struct renew_ctx *r)
{
	char placement[GRANTPLAN_ATTR_MAX], why[512], ec[32], *save = NULL, *t;
	uint64_t size, slab_size, replicas;
	unsigned int k = 0, ecr = 0, width;
	uint32_t units;

	r->nd = 0;
	/* an erasure-coded device holds K + R split slabs per coding group */
	if (dev_attr_text(&c->roots, name, "redundancy", ec, sizeof(ec), why, sizeof(why))) {
		if (errno != ENOENT) {	/* a module without it: none */
			log_err("device %s: %s", name, why);
			return -1;
		}
	} else if (ublk_parse_redundancy(ec, &k, &ecr, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	if (dev_attr_u64(&c->roots, name, "size", &size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "slab_size", &slab_size, why, sizeof(why)) ||
	    dev_attr_u64(&c->roots, name, "replicas", &replicas, why, sizeof(why)) ||
	    dev_attr_text(&c->roots, name, "donors", r->donors, sizeof(r->donors), why,
			  sizeof(why)) ||
	    dev_attr_text(&c->roots, name, "placement", placement, sizeof(placement), why,
			  sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	r->ec_width = k ? k + ecr : 0;
	for (t = strtok_r(r->donors, ",", &save); t && r->nd < GRANTPLAN_MAX_DONORS;
	     t = strtok_r(NULL, ",", &save))
		r->addr[r->nd++] = t;
	if (ublk_broker_units(size, slab_size, replicas > UINT32_MAX ? 0 : (unsigned int)replicas,
			      k, ecr, &units, &width, why, sizeof(why)) ||
	    grantplan_counts(placement, units, width, r->nd, r->count, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	return renew_live_counts(c, name, r);
}

/* Append grant @g (for donor @addr) to the device's grants. 0, or -1 (logged). */
static int add_grant(const struct sparectl *c, const char *name, const struct spare_grant *g,
		     const char *addr)
{
	char hex[SPARE_GRANT_HEX_LEN + 2];
	int ret = 0;

	spare_grant_to_hex(g, hex, sizeof(hex));
	strcat(hex, "\n");
	if (append_attr(c, name, "grants", hex)) {
		log_err("device %s: the grant for %s was refused: %s "
			"(the kernel log says why)", name, addr, strerror(errno));
		ret = -1;
	}
	sodium_memzero(hex, sizeof(hex));
	return ret;
}

/*
 * Room on a donor refused, reported once: the donors whose refusal was
 * logged since their room was last given (a monitor asks again every
 * round).
 */
static char room_refused[2 * GRANTPLAN_MAX_DONORS][SPARE_GRANT_ADDR_LEN];

/* Room for @slabs more slabs on donor @addr (ROOM_REQ). 0, or -1 (logged once). */
static int ask_room(const struct brokerask *a, const char *name, const char *addr,
		    uint32_t slabs, struct spare_grant *g, char domain[BROKER_DOMAIN_LEN])
{
	unsigned int i, free_i = ARRAY_SIZE(room_refused);
	char why[600];

	for (i = 0; i < ARRAY_SIZE(room_refused); i++) {
		if (!strncmp(room_refused[i], addr, SPARE_GRANT_ADDR_LEN))
			break;
		if (!room_refused[i][0] && free_i == ARRAY_SIZE(room_refused))
			free_i = i;
	}
	if (!brokerask_room(a, addr, slabs, g, domain, why, sizeof(why))) {
		if (i < ARRAY_SIZE(room_refused)) {
			log_info("device %s: room on %s given again", name, addr);
			room_refused[i][0] = 0;
		}
		return 0;
	}
	if (i == ARRAY_SIZE(room_refused)) {
		log_warn("device %s: no room for %u more slab(s) on %s (%s); its grants are "
			 "renewed, the room is asked again each round (logged once)", name,
			 slabs, addr, why);
		if (free_i < ARRAY_SIZE(room_refused))
			snprintf(room_refused[free_i], SPARE_GRANT_ADDR_LEN, "%s", addr);
	}
	return -1;
}

/* kmod_grants_renew()'s broker calls, with the donor's failure-domain label. */
struct kmod_call {
	struct renew_ctx	*r;
	char			*domain;	/* or NULL */
	const struct sparectl	*c;
	const char		*name;
};

static int kmod_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	struct kmod_call *k = ctx;

	return ask_room(&k->r->a, k->name, addr, slabs, g, k->domain);
}

/* spare.ko gives copies back on the broker's move marks: asked for */
static int kmod_reissue(void *ctx, const struct spare_grant *old, unsigned int n,
			struct spare_grant *out, bool *move)
{
	struct kmod_call *k = ctx;

	return brokerask_reissue_marks(&k->r->a, old, n, out, k->domain, move);
}

static int kmod_put(void *ctx, const struct spare_grant *g, const char *addr)
{
	const struct kmod_call *k = ctx;

	return add_grant(k->c, k->name, g, addr);
}

/*
 * The copies on donor @addr the broker's marks ask back (@n, 0: none)
 * written to the device's "giveback" (spare.ko gives back what it can
 * without losing a page). A module without the attribute is told nothing
 * (logged once). 0, or -1 (logged).
 */
static int kmod_giveback(const struct sparectl *c, const char *name, const char *addr,
			 uint32_t n)
{
	static bool absent_said;
	char line[SPARE_GRANT_ADDR_LEN + 16];

	snprintf(line, sizeof(line), "%s %u\n", addr, n);
	if (!write_attr(c, name, "giveback", line))
		return 0;
	if (errno == ENOENT) {
		if (n && !absent_said)
			log_warn("device %s: the module has no \"giveback\": the %u cop%s the "
				 "broker's marks ask back on %s stay (logged once)", name, n,
				 n == 1 ? "y" : "ies", addr);
		absent_said = true;
		return 0;
	}
	log_err("device %s: giveback %s %u refused: %s (the kernel log says why)", name, addr,
		n, strerror(errno));
	return -1;
}

/*
 * Donor @i's grants renewed to cover @slabs slabs: the grants sparectl
 * keeps for the device sent back (RENEW_GRANT, asking for move marks) and
 * written to it again (the module replaces them in place), the room they
 * leave short asked for; the copies the marks ask back told to the module
 * (kmod_giveback()). 0 with the renewed grant that ends last in @g, 1
 * (room refused), or -1 (logged).
 */
static int renew_donor(const struct sparectl *c, const char *name, struct renew_ctx *r,
		       unsigned int i, uint32_t slabs, struct spare_grant *g,
		       char domain[BROKER_DOMAIN_LEN])
{
	struct kmod_call k = { .r = r, .domain = domain, .c = c, .name = name };
	uint32_t giveback = 0;
	int ret;

	ret = kmod_grants_renew(c->ublk.grants_dir, name, r->addr[i], r->count[i], slabs,
				kmod_ask, kmod_reissue, &k, kmod_put, &k, g, &giveback);
	if (ret >= 0 && kmod_giveback(c, name, r->addr[i], giveback))
		return -1;
	return ret;
}

static void renew_ctx_wipe(struct renew_ctx *r)
{
	sodium_memzero(r->key, sizeof(r->key));
}

/*
 * The pager's slab map of device @name (where each copy is now) into
 * *@live, *@nlive (free() it); none (NULL, 0) from a pager older than its
 * NAME.map, whose copies are counted from the placement. 0, or -1 (logged).
 */
static int ublk_live_map(const struct sparectl *c, const char *name,
			 struct dev_slab_copy **live, unsigned int *nlive)
{
	char why[512];

	if (!dev_read_ublk_slab_map(&c->roots, name, live, nlive, why, sizeof(why)))
		return 0;
	if (errno == ENOENT)
		return 0;
	log_err("device %s: %s", name, why);
	return -1;
}

/*
 * sparectl device renew NAME broker=... broker-name=... broker-key=...
 * [lease=S]: fresh grants for the slabs the device holds on each of its
 * donors, written to its grants while it runs (the kernel sends them to
 * the live donors at once). `device monitor` does it before they expire:
 * a copy mapped again after a reconnect or an eviction needs an unexpired
 * grant.
 */
/* ublk_device_renew()'s broker: ROOM_REQ. */
static int renew_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	const struct renew_ctx *r = ctx;

	return ask_room(&r->a, r->name, addr, slabs, g, NULL);
}

/* ublk_device_renew_grants()'s broker: RENEW_GRANT, nothing minted; the
 * pager acts on the broker's move marks, so they are asked for */
static int renew_reissue(void *ctx, const struct spare_grant *old, unsigned int n,
			 struct spare_grant *out, bool *move)
{
	const struct renew_ctx *r = ctx;

	return brokerask_reissue_marks(&r->a, old, n, out, NULL, move);
}

/*
 * The grants a spare-ublk device places, from its counters file: slabs x
 * replicas, or with "redundancy ec:K+R" its coding groups x (K + R) split
 * slabs (ublk_broker_units(), as for spare.ko). 0: no geometry there.
 */
static uint32_t ublk_placed(const struct dev_info *d)
{
	unsigned int width;
	uint32_t units;
	char why[128];

	if (!d->replicas || d->replicas > 64 ||
	    ublk_broker_units(d->size, d->slab_size, d->replicas, d->ec_k, d->ec_r,
			      &units, &width, why, sizeof(why)))
		return 0;
	return units * width;
}

int device_renew(struct sparectl *c, const char *name, int argc, char **argv)
{
	struct renew_ctx r = { 0 };
	struct spare_grant g = { 0 };
	struct dev_info d;
	uint32_t renewed = 0, short_of = 0;
	char why[256];
	unsigned int i;
	int ret;

	r.name = name;
	ret = renew_args(c, &r, "renew", argc, argv, NULL, NULL);
	if (ret)
		return ret;
	ret = 1;
	if (!dev_read(&c->roots, name, &d, why, sizeof(why)) && d.ublk) {
		uint32_t placed = ublk_placed(&d);
		struct dev_slab_copy *live = NULL;
		unsigned int nlive = 0;

		if (!placed) {
			log_err("device %s: its counters file gives no geometry", name);
			goto out;
		}
		/* as the module's renewal: the copies where they are now */
		if (ublk_live_map(c, name, &live, &nlive))
			goto out;
		ret = ublk_device_renew_grants(&c->ublk, name, d.pid,
					       placed, live, nlive, 0,
					       renew_ask, renew_reissue, &r, &renewed);
		free(live);
		if (ret)
			goto out;	/* its exit status, 1 */
		log_info("device %s: %u slab copies renewed; spare-ublk told to read its "
			 "grants again", name, renewed);
		ret = c->json ? print_json(json_object_new_object()) : 0;
		goto out;
	}
	if (renew_plan(c, name, &r))
		goto out;
	for (i = 0; i < r.nd; i++) {
		int k;

		if (!r.count[i])
			continue;
		k = renew_donor(c, name, &r, i, r.count[i], &g, NULL);
		if (k < 0)
			goto out;
		short_of += k;	/* a refused room (logged): the others go on */
		if (!k)
			renewed += r.count[i];
	}
	log_info("device %s: %u slab copies renewed on %u donors%s", name, renewed, r.nd,
		 short_of ? ", some short of room" : "");
	if (short_of)
		goto out;	/* 1 */
	ret = c->json ? print_json(json_object_new_object()) : 0;
out:
	renew_ctx_wipe(&r);
	sodium_memzero(&g, sizeof(g));
	return ret;
}

/* ---- device monitor ---- */

struct monitor_opts {
	const char	*renew_before, *interval, *standby;
	bool		once;
};

static bool monitor_arg(const char *arg, void *ctx)
{
	struct monitor_opts *o = ctx;

	if (!strncmp(arg, "renew-before=", 13))
		o->renew_before = arg + 13;
	else if (!strncmp(arg, "interval=", 9))
		o->interval = arg + 9;
	else if (!strncmp(arg, "standby=", 8))
		o->standby = arg + 8;
	else if (!strcmp(arg, "once"))
		o->once = true;
	else
		return false;
	return true;
}

static volatile sig_atomic_t monitor_stop, monitor_hup;

/* SIGTERM/SIGINT end the monitor; SIGHUP asks for a round now. */
static void monitor_signal(int sig)
{
	if (sig == SIGHUP)
		monitor_hup = 1;
	else
		monitor_stop = sig;
}

static void monitor_signals(const struct sigaction *sa)
{
	sigaction(SIGTERM, sa, NULL);
	sigaction(SIGINT, sa, NULL);
	sigaction(SIGHUP, sa, NULL);
}

/* After a wait: a SIGHUP is logged once and starts the next round at once. */
static void monitor_hup_take(const char *name)
{
	if (monitor_hup && !monitor_stop) {
		monitor_hup = 0;
		log_info("device %s: SIGHUP: a round now", name);
	}
}

/* What the monitor knows of each donor's grants. */
struct monitor_state {
	uint64_t	standby;
	uint64_t	expiry[GRANTPLAN_MAX_DONORS], lease[GRANTPLAN_MAX_DONORS];
	uint32_t	covered[GRANTPLAN_MAX_DONORS];	/* slabs of the newest grant */
	bool		warned[GRANTPLAN_MAX_DONORS];
	/* each donor's failure-domain label, as the broker last said ("") */
	char		label[GRANTPLAN_MAX_DONORS][BROKER_DOMAIN_LEN];
};

/*
 * When donor @i is due: @before seconds (else a third of its lease) before
 * its newest grant ends; 0 before the monitor has seen one.
 */
static uint64_t monitor_due(const struct monitor_state *m, unsigned int i, uint64_t before)
{
	uint64_t margin = before ? before : m->lease[i] / 3;

	return m->expiry[i] > margin ? m->expiry[i] - margin : 0;
}

/* Remember donor @i's newest grant @g, for @slabs slabs. */
static void monitor_note(struct monitor_state *m, unsigned int i, const struct spare_grant *g,
			 uint32_t slabs)
{
	m->expiry[i] = le64toh(g->expiry);
	m->lease[i] = m->expiry[i] > le64toh(g->not_before) ?
		      m->expiry[i] - le64toh(g->not_before) : 0;
	m->covered[i] = slabs;
	m->warned[i] = false;
}

/*
 * Renew donor @i for @slabs slabs and remember the grant. 0, or -1
 * (logged; retried at the next round).
 */
static int monitor_renew(struct sparectl *c, const char *name, struct renew_ctx *r,
			 struct monitor_state *m, unsigned int i, uint32_t slabs,
			 const char *why)
{
	struct spare_grant g;
	uint64_t now = (uint64_t)time(NULL);

	int k = renew_donor(c, name, r, i, slabs, &g, m->label[i]);

	if (k > 0 && g.expiry) {
		/* the room was refused (logged once): the grants held are
		 * renewed; the room is asked again at the next renewal */
		monitor_note(m, i, &g, slabs);
		sodium_memzero(&g, sizeof(g));
		log_info("device %s: %s: %u slab(s) on %s (%u held) granted until %llu, short "
			 "of room", name, why, slabs, r->addr[i], r->count[i],
			 (unsigned long long)m->expiry[i]);
		return -1;
	}
	if (k) {
		if (m->expiry[i] && m->expiry[i] <= now && !m->warned[i]) {
			log_err("device %s: the grants for %s have expired: a copy mapped "
				"there again will be refused", name, r->addr[i]);
			m->warned[i] = true;
		}
		return -1;
	}
	monitor_note(m, i, &g, slabs);
	sodium_memzero(&g, sizeof(g));
	log_info("device %s: %s: %u slab(s) on %s (%u held) granted until %llu", name, why,
		 slabs, r->addr[i], r->count[i], (unsigned long long)m->expiry[i]);
	return 0;
}

/* slab_moving events acted on together, at most */
#define MONITOR_MOVES_MAX	64

/*
 * The device's failure domains (configfs `domains`, one number per donor)
 * into @dom[0 .. r->nd). Absent (a module without it), empty or not
 * understood: every donor its own domain (the last logged), so that a move
 * still finds a target.
 */
static bool monitor_domains(const struct sparectl *c, const char *name,
			    const struct renew_ctx *r, uint8_t *dom)
{
	char text[GRANTPLAN_ATTR_MAX], why[512];

	if (dev_attr_text(&c->roots, name, "domains", text, sizeof(text), why, sizeof(why))) {
		if (errno != ENOENT)
			log_warn("device %s: %s", name, why);
		text[0] = 0;
	}
	if (!grantplan_parse_domains(text, r->nd, dom, why, sizeof(why)))
		return text[0] != 0;
	log_warn("device %s: %s: moving copies as if every donor were its own failure domain",
		 name, why);
	grantplan_parse_domains("", r->nd, dom, why, sizeof(why));
	return false;
}

/* Attribute @a's text, its newline cut. 0, or -1 (logged). */
static int attr_line(const struct sparectl *c, const char *name, const char *a, char *text,
		     size_t len)
{
	char why[512];

	if (dev_attr_text(&c->roots, name, a, text, len, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	text[strcspn(text, "\n")] = 0;
	return 0;
}

/* Add @item at the end of the list in attribute @a. 0, or -1 (logged). */
static int attr_append_item(const struct sparectl *c, const char *name, const char *a,
			    const char *item)
{
	char text[GRANTPLAN_ATTR_MAX];
	size_t len;

	if (attr_line(c, name, a, text, sizeof(text)))
		return -1;
	len = strlen(text);
	if (snprintf(text + len, sizeof(text) - len, "%s%s", len ? "," : "", item) >=
	    (int)(sizeof(text) - len)) {
		log_err("device %s: %s: too long to add %s", name, a, item);
		return -1;
	}
	if (write_attr(c, name, a, text)) {
		log_err("device %s: %s: cannot add %s: %s (the kernel log says why)", name, a,
			item, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * No donor of the device can take @copies copies that must move (each holds
 * a copy of its slab already, or is the one evicting it): ask the brokers
 * for a grant of @copies + standby slabs on a donor the device does not use
 * (MOVE_REQ: all of the device's donors avoided, and where possible the
 * failure domains @avoid_dom of the copies that stay), then add it to the
 * running device: its grant, then `donors`, then `domains` (the number of
 * a donor of the device with the same label, else a new one; only if the
 * device has domains, @has_dom, numbered @dom). The kernel, whose moves
 * wait for a grant or a donor coming up, moves the copies there. Reloads
 * @r. 0, or -1 (logged).
 */
static int monitor_new_donor(struct sparectl *c, const char *name, struct renew_ctx *r,
			     struct monitor_state *m, uint32_t copies, const uint8_t *dom,
			     bool has_dom, const char (*avoid_dom)[BROKER_DOMAIN_LEN],
			     unsigned int n_avoid_dom)
{
	char avoid[GRANTPLAN_MAX_DONORS][BROKER_ADDR_LEN];
	char label[BROKER_DOMAIN_LEN], addr[BROKER_ADDR_LEN], num[16];
	uint32_t slabs = copies + (uint32_t)m->standby;
	unsigned int i, nd = r->nd;
	const char *what = r->ec_width ? (copies == 1 ? "split slab" : "split slabs") :
			   (copies == 1 ? "copy" : "copies");
	struct spare_grant g;
	int d, ret = -1;

	if (nd >= GRANTPLAN_MAX_DONORS) {
		log_err("device %s: no donor of the device can take %u moving %s, and it "
			"lists %u donors already, the most it can", name, copies, what, nd);
		return -1;
	}
	memset(avoid, 0, sizeof(avoid));
	for (i = 0; i < nd; i++)
		snprintf(avoid[i], sizeof(avoid[i]), "%s", r->addr[i]);
	if (brokerask_move(&r->a, slabs, (const char (*)[BROKER_ADDR_LEN])avoid, nd, avoid_dom,
			   n_avoid_dom, &g, label))
		return -1;
	memcpy(addr, g.donor_addr, sizeof(addr));
	addr[sizeof(addr) - 1] = 0;
	if (add_grant(c, name, &g, addr) || attr_append_item(c, name, "donors", addr))
		goto out;
	if (has_dom) {		/* a device without domains keeps none */
		d = grantplan_domain_for(dom, (const char (*)[BROKER_DOMAIN_LEN])m->label, nd,
					 label, GRANTPLAN_MAX_DONORS - 1);
		if (d < 0)
			log_warn("device %s: %s's failure domain cannot be numbered: the "
				 "kernel counts it as its own", name, addr);
		snprintf(num, sizeof(num), "%d", d);
		if (d >= 0 && attr_append_item(c, name, "domains", num))
			goto out;
	}
	monitor_note(m, nd, &g, slabs);
	memcpy(m->label[nd], label, sizeof(label));
	log_info("device %s: %u %s moving to %s, a donor the device did not use: "
		 "%u slab(s) granted until %llu", name, copies, what, addr, slabs,
		 (unsigned long long)m->expiry[nd]);
	ret = renew_plan(c, name, r);
out:
	sodium_memzero(&g, sizeof(g));
	return ret;
}

/* Add failure-domain label @l ("": unknown, skipped) to the set, once. */
static void avoid_dom_add(char (*set)[BROKER_DOMAIN_LEN], unsigned int *n, const char *l)
{
	unsigned int i;

	if (!l[0] || *n == BROKER_MAX_AVOID)
		return;
	for (i = 0; i < *n; i++)
		if (!strncmp(set[i], l, BROKER_DOMAIN_LEN))
			return;
	memset(set[*n], 0, BROKER_DOMAIN_LEN);
	memcpy(set[*n], l, strnlen(l, BROKER_DOMAIN_LEN - 1));
	(*n)++;
}

/*
 * The donors of device @name (in @r's order, by address) that donor_stat
 * does not show live: an ec split re-homes only to a live donor
 * (spare_ec_rehome_pick()), so a donor down, say one an earlier loss left
 * dead, is no target for a waiting split. None when it cannot be read
 * (logged).
 */
static uint32_t monitor_down_donors(const struct sparectl *c, const char *name,
				    const struct renew_ctx *r)
{
	struct dev_info *d = calloc(1, sizeof(*d));
	uint32_t down = 0;
	unsigned int i, k;
	char why[512];

	snprintf(why, sizeof(why), "%s", d ? "no donor_stat" : strerror(ENOMEM));
	if (!d || dev_read(&c->roots, name, d, why, sizeof(why)) || !d->has_stats) {
		log_warn("device %s: its donors' states not read (%s): counting every donor "
			 "as live", name, why);
		free(d);
		return 0;
	}
	for (i = 0; i < r->nd; i++)
		for (k = 0; k < d->ndonors; k++)
			if (!strcmp(d->donor[k].address, r->addr[i]) &&
			    strcmp(d->donor[k].state, "live"))
				down |= UINT32_C(1) << i;
	free(d);
	return down;
}

/*
 * The kernel found no donor whose grants have room for the copies of the
 * slabs in @ev[0 .. @nev) (slab_moving uevents, taken together so that one
 * grant per donor covers them all). Each copy's target: the donor the
 * module is asking already (the slab's new copy, "unmapped" or "mapping" in
 * slab_map on a donor other than the evicting one), else, of the donors
 * that hold none of the slab, one in a failure domain (configfs `domains`)
 * where no other copy of the slab stays (the evicting donor's copy leaves,
 * so its domain is free unless another copy is there) if there is one, and
 * of those the one with the fewest copies (counting those assigned here); a
 * slab asked for twice counts once. Then one grant per target donor for
 * its copies (slab_map's, with the new copies already on it), the standby
 * and the copies assigned here. Copies no donor of the device can take
 * (each holds the slab or evicts it) go to a donor the broker finds
 * outside the device, which is added to it (monitor_new_donor()). An ec
 * device's slab_moving names a lost split slab that no donor the device
 * holds a grant for can take (and the donor it was lost on): the donors
 * of its coding group's other splits are skipped too, their failure
 * domains avoided (ublk_move_stays(), as the pager's monitor). 0, or -1
 * (logged).
 */
static int monitor_move_grants(struct sparectl *c, const char *name, const char *disk,
			       struct renew_ctx *r, struct monitor_state *m,
			       const struct spare_ev *ev, unsigned int nev)
{
	uint32_t extra[GRANTPLAN_MAX_DONORS] = { 0 }, load[GRANTPLAN_MAX_DONORS];
	char avoid_dom[BROKER_MAX_AVOID][BROKER_DOMAIN_LEN];
	bool touched[GRANTPLAN_MAX_DONORS] = { 0 };
	unsigned int n_avoid_dom = 0;
	uint32_t elsewhere = 0;		/* copies for a donor the device lacks */
	uint32_t down = 0;		/* an ec device's donors not live */
	uint8_t dom[GRANTPLAN_MAX_DONORS];
	struct dev_slab_copy *sc;
	char why[512];
	unsigned int n, i, e, k;
	bool has_dom;
	int ret = 0;

	if (dev_read_slab_map(&c->roots, disk, &sc, &n, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	if (r->ec_width)
		down = monitor_down_donors(c, name, r);
	has_dom = monitor_domains(c, name, r, dom);
	memcpy(load, r->count, sizeof(load));
	for (e = 0; e < nev; e++) {
		uint32_t skip = 0, stay = 0;	/* stay: donors keeping a copy */
		int t = -1, from = -1;

		for (k = 0; k < e && ev[k].slab != ev[e].slab; k++)
			;
		if (k < e)
			continue;	/* asked again after a grant: once is enough */
		for (i = 0; i < r->nd; i++)
			if (!strcmp(r->addr[i], ev[e].donor))
				from = (int)i;
		if (from >= 0)
			skip |= UINT32_C(1) << from;
		skip |= down;	/* as the module's pick: live donors only */
		for (i = 0; i < n; i++) {
			/* an ec split's group: its other split slabs stay */
			bool group = r->ec_width && ublk_move_stays(r->ec_width, sc[i].slab,
								     (unsigned int)ev[e].slab);

			if ((sc[i].slab != ev[e].slab && !group) || sc[i].donor >= r->nd)
				continue;
			skip |= UINT32_C(1) << sc[i].donor;
			if ((int)sc[i].donor != from)
				stay |= UINT32_C(1) << sc[i].donor;
			if (!group && (int)sc[i].donor != from &&
			    (!strcmp(sc[i].state, "mapping") || !strcmp(sc[i].state, "unmapped")))
				t = (int)sc[i].donor;
		}
		if (t >= 0) {
			touched[t] = true;	/* slab_map counted that copy */
			continue;
		}
		t = grantplan_move_target(load, r->nd, skip,
					  grantplan_domain_mask(dom, r->nd, stay));
		if (t < 0) {
			/* every donor of the device holds the slab or evicts it
			 * (an ec split: holds its group or was its donor) */
			if (r->ec_width)
				log_info("device %s: no donor of the device can take split "
					 "slab %lld, lost on %s", name, (long long)ev[e].slab,
					 ev[e].donor);
			else
				log_info("device %s: no donor of the device can take the copy "
					 "of slab %lld that %s evicts", name,
					 (long long)ev[e].slab, ev[e].donor);
			elsewhere++;
			for (i = 0; i < r->nd; i++)
				if (stay & (UINT32_C(1) << i))
					avoid_dom_add(avoid_dom, &n_avoid_dom, m->label[i]);
			continue;
		}
		load[t]++;
		extra[t]++;
		touched[t] = true;
	}
	free(sc);
	for (i = 0; i < r->nd; i++) {
		uint32_t want = r->count[i] + (uint32_t)m->standby + extra[i];

		if (!touched[i])
			continue;
		/* its newest grant covers them already (for a while yet): the
		 * donor's budget, the sum of the unexpired ones, does too */
		if (m->covered[i] >= want && m->expiry[i] > (uint64_t)time(NULL) + 2) {
			log_info("device %s: %s's grant covers %u slab(s) already", name,
				 r->addr[i], m->covered[i]);
			continue;
		}
		if (monitor_renew(c, name, r, m, i, want, "copies moving there"))
			ret = -1;
	}
	if (elsewhere && monitor_new_donor(c, name, r, m, elsewhere, dom, has_dom,
					   (const char (*)[BROKER_DOMAIN_LEN])avoid_dom,
					   n_avoid_dom))
		ret = -1;
	return ret;
}

/* SIGTERM or SIGINT ended a monitor: said, and its exit status (0). */
static int monitor_stopped(const char *name, unsigned long rounds)
{
	spare_notify_stopping();
	log_info("device %s: %s: monitor ends after %lu rounds", name, strsignal(monitor_stop),
		 rounds);
	return 0;
}

/* A new donor given to a ublk device's waiting moves: its add is waited
 * for this long (connected, then moved to) before another is asked for */
#define MONITOR_ADD_WAIT_S	15

/*
 * The split slabs of spare.ko disk @disk that wait for a donor the device
 * does not have (sysfs `moving`, read every round): the broker asked for
 * one again (monitor_move_grants(), as on their slab_moving uevent) once
 * @bo says so, so that a split whose uevent no monitor heard (started
 * later, restarted) or whose MOVE_REQ was refused (no free donor yet)
 * still gets a donor. After a donor or room given, not again before
 * MONITOR_ADD_WAIT_S (it is being added); after a refusal, 5 s doubling
 * to a minute (brokerask_backoff_asked()). Reloads @r when it asks.
 */
static void monitor_waiting(struct sparectl *c, const char *name, const char *disk,
			    struct renew_ctx *r, struct monitor_state *m,
			    struct brokerask_backoff *bo, uint64_t now)
{
	struct dev_move_wait mv[MONITOR_MOVES_MAX];
	struct spare_ev ev[MONITOR_MOVES_MAX];
	unsigned int n, i;
	char why[512];
	bool given;

	if (!disk[0] || !r->nd)
		return;
	if (dev_read_moving(&c->roots, disk, mv, MONITOR_MOVES_MAX, &n, why, sizeof(why))) {
		log_warn("device %s: %s", name, why);
		return;
	}
	if (!brokerask_backoff_due(bo, n, now))
		return;		/* none waits, or too soon after the last ask */
	for (i = 0; i < n; i++) {
		ev[i] = (struct spare_ev){ .kind = SPARE_EV_SLAB_MOVING, .slab = mv[i].slab };
		snprintf(ev[i].donor, sizeof(ev[i].donor), "%s", mv[i].address);
	}
	log_info("device %s: %u split slab(s) wait for a donor (sysfs moving: slab %u "
		 "first, lost on %s): asking a broker", name, n, mv[0].slab, mv[0].address);
	given = !monitor_move_grants(c, name, disk, r, m, ev, n);
	brokerask_backoff_asked(bo, given, now, MONITOR_ADD_WAIT_S);
	if (!given)
		log_info("device %s: no donor for them yet: asked again in %llu s", name,
			 (unsigned long long)(bo->next - now));
	if (renew_plan(c, name, r))
		r->nd = 0;	/* logged; the next round counts again */
}

/* What a spare-ublk device's monitor keeps between rounds. */
struct ublk_watch {
	struct renew_ctx	*r;
	/* each donor's failure-domain label, as the broker last said */
	char			addr[GRANTPLAN_MAX_DONORS][BROKER_ADDR_LEN];
	char			label[GRANTPLAN_MAX_DONORS][BROKER_DOMAIN_LEN];
	unsigned int		nlabels;
	/* the next MOVE_REQ for waiting moves: MONITOR_ADD_WAIT_S after a
	 * donor given, 5 s doubling to a minute after a refusal */
	struct brokerask_backoff bo;
};

/* Donor @addr's label in @w ("" unknown); @set: remember it as that. */
static const char *watch_label(struct ublk_watch *w, const char *addr, const char *set)
{
	unsigned int i;

	for (i = 0; i < w->nlabels; i++)
		if (!strncmp(w->addr[i], addr, BROKER_ADDR_LEN))
			break;
	if (set && i == w->nlabels && i < GRANTPLAN_MAX_DONORS)
		snprintf(w->addr[w->nlabels++], BROKER_ADDR_LEN, "%s", addr);
	if (set && i < w->nlabels)
		snprintf(w->label[i], BROKER_DOMAIN_LEN, "%s", set);
	return i < w->nlabels ? w->label[i] : "";
}

/* ublk_device_renew()'s broker for the monitor: the labels remembered. */
static int watch_renew_ask(void *ctx, const char *addr, uint32_t slabs, struct spare_grant *g)
{
	struct ublk_watch *w = ctx;
	char label[BROKER_DOMAIN_LEN] = "";

	if (ask_room(&w->r->a, w->r->name, addr, slabs, g, label))
		return -1;
	watch_label(w, addr, label);
	return 0;
}

/* ublk_device_renew_grants()'s RENEW_GRANT for the monitor: the label kept. */
static int watch_reissue(void *ctx, const struct spare_grant *old, unsigned int n,
			 struct spare_grant *out, bool *move)
{
	struct ublk_watch *w = ctx;
	char label[BROKER_DOMAIN_LEN] = "", addr[BROKER_ADDR_LEN];

	if (brokerask_reissue_marks(&w->r->a, old, n, out, label, move))
		return -1;
	memcpy(addr, out[0].donor_addr, sizeof(addr));
	addr[sizeof(addr) - 1] = 0;
	watch_label(w, addr, label);
	return 0;
}

/*
 * Moves of ublk device @name that wait for a donor (its pager's
 * NAME.moving: every donor of the device holds a copy of the slab, or
 * evicts it, or is down): as the module's monitor_new_donor(), one grant
 * from a broker for the slabs waiting plus @standby on a donor the device
 * does not use (MOVE_REQ, avoiding every donor its grants or slab map
 * name, and where possible the failure domains of the copies that stay),
 * added to its grants file; SIGHUP, and the pager adds the donor and
 * moves the copies there. Asked again as the kernel device's waiting
 * splits are (monitor_waiting()): not before MONITOR_ADD_WAIT_S after a
 * donor given, 5 s doubling to a minute after a refusal (@w's back-off).
 * 0 (nothing waits, too soon, or done), or -1 (logged; the round fails).
 */
static int monitor_ublk_moves(struct sparectl *c, const char *name, struct ublk_watch *w,
			      const struct dev_info *d, uint32_t placed,
			      const struct dev_slab_copy *live, unsigned int nlive,
			      uint32_t standby, uint64_t now)
{
	char avoid[GRANTPLAN_MAX_DONORS][SPARE_GRANT_ADDR_LEN];
	char avoid_dom[BROKER_MAX_AVOID][BROKER_DOMAIN_LEN];
	char label[BROKER_DOMAIN_LEN] = "", addr[BROKER_ADDR_LEN], why[512];
	char doms[BROKER_MAX_AVOID * BROKER_DOMAIN_LEN + BROKER_MAX_AVOID];
	struct dev_move_wait mv[MONITOR_MOVES_MAX];
	unsigned int n, nd, n_avoid_dom = 0, i, k;
	uint32_t slabs = 0;
	struct spare_grant g;
	int ret;

	if (dev_read_ublk_moving(&c->roots, name, mv, MONITOR_MOVES_MAX, &n, why, sizeof(why))) {
		log_err("device %s: %s", name, why);
		return -1;
	}
	if (!brokerask_backoff_due(&w->bo, n, now))
		return 0;	/* none waits, a donor given is being added, or refused lately */
	if (ublk_device_donors(&c->ublk, name, placed, live, nlive, avoid,
			       GRANTPLAN_MAX_DONORS, &nd))
		return -1;
	if (nd >= GRANTPLAN_MAX_DONORS) {
		log_err("device %s: %u cop%s wait for a donor, and the device has %u donors "
			"already, the most it can", name, n, n == 1 ? "y" : "ies", nd);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && mv[k].slab != mv[i].slab; k++)
			;
		slabs += k == i;
		/* the domains of the copies that stay (an ec split's: the other
		 * splits of its coding group) */
		for (k = 0; k < nlive; k++)
			if (ublk_move_stays(d->ec_k ? d->ec_k + d->ec_r : 0, live[k].slab,
					    mv[i].slab) &&
			    strcmp(live[k].address, mv[i].address))
				avoid_dom_add(avoid_dom, &n_avoid_dom,
					      watch_label(w, live[k].address, NULL));
	}
	doms[0] = 0;
	for (i = 0; i < n_avoid_dom; i++)
		snprintf(doms + strlen(doms), sizeof(doms) - strlen(doms), "%s%s", i ? "," : "",
			 avoid_dom[i]);
	log_info("device %s: %u %s wait for a donor (slab %u first, which %s %s): "
		 "asking for one the device does not use, avoiding %u donor(s) and failure "
		 "domain(s) \"%s\"", name, slabs,
		 d->ec_k ? (slabs == 1 ? "split slab" : "split slabs") :
		 (slabs == 1 ? "copy" : "copies"), mv[0].slab, mv[0].address,
		 d->ec_k ? "was lost on" : "evicts", nd, doms);
	if (brokerask_move(&w->r->a, slabs + standby, (const char (*)[BROKER_ADDR_LEN])avoid, nd,
			   (const char (*)[BROKER_DOMAIN_LEN])avoid_dom, n_avoid_dom, &g, label)) {
		brokerask_backoff_asked(&w->bo, false, now, MONITOR_ADD_WAIT_S);
		log_info("device %s: no donor for them yet: asked again in %llu s", name,
			 (unsigned long long)(w->bo.next - now));
		return -1;
	}
	memcpy(addr, g.donor_addr, sizeof(addr));
	addr[sizeof(addr) - 1] = 0;
	watch_label(w, addr, label);
	ret = ublk_device_add_grant(&c->ublk, name, d->pid, placed, &g);
	if (!ret) {
		brokerask_backoff_asked(&w->bo, true, now, MONITOR_ADD_WAIT_S);
		log_info("device %s: %u slab(s) on %s granted until %llu; spare-ublk told to "
			 "read its grants again, to add the donor and move there", name,
			 slabs + standby, addr, (unsigned long long)le64toh(g.expiry));
	}
	sodium_memzero(&g, sizeof(g));
	return ret ? -1 : 0;
}

/*
 * The monitor of a spare-ublk device placed by a broker (its config names
 * a grants file): the pager sends no uevents, so its slab map drives it.
 * A round a second reads the slab map and the grants file, and renews
 * every donor (ublk_device_renew(), covering the copies it holds now plus
 * @standby) once one is due (ublk_grants_due()): when its grants would
 * stop covering them within the margin, or at once when a copy moved
 * beyond them, or waits there for one (the pager's move_wait_grant()).
 * Copies that wait for a donor (NAME.moving) get one the device does not
 * use (monitor_ublk_moves()). A round that failed, or a renewal still
 * short, is tried again after @interval seconds. A pager that is not
 * running (a restart) is waited for; the monitor ends when the device's
 * config is removed (destroy).
 */
static int monitor_ublk(struct sparectl *c, const char *name, struct renew_ctx *r,
			uint64_t before, uint64_t interval, uint32_t standby, bool once)
{
	struct ublk_watch w = { .r = r };
	unsigned long rounds = 0;
	bool down_said = false;
	char conf[512], why[256];
	int ret = 1;

	snprintf(conf, sizeof(conf), "%s/ublk-%s.conf", c->ublk.conf_dir, name);
	log_info("device %s: monitoring the grants of a spare-ublk device, %u slab(s) "
		 "standby on each donor", name, standby);
	for (;;) {
		uint64_t now = (uint64_t)time(NULL), next = now + interval, due;
		uint32_t placed, renewed = 0;
		struct dev_slab_copy *live = NULL;
		unsigned int nlive = 0;
		struct dev_info d;
		bool failed = false;

		if (access(conf, F_OK)) {
			log_info("device %s: removed; monitor ends", name);
			ret = 0;
			break;
		}
		snprintf(why, sizeof(why), "not a spare-ublk device now");
		if (dev_read(&c->roots, name, &d, why, sizeof(why)) || !d.ublk) {
			if (!down_said)
				log_warn("device %s: %s: waiting for its pager", name, why);
			down_said = true;
			failed = true;
		} else if ((placed = ublk_placed(&d)) == 0 ||
			   ublk_live_map(c, name, &live, &nlive) ||
			   ublk_grants_due(&c->ublk, name, placed, live, nlive, standby,
					   before, now, &due)) {
			failed = true;	/* logged (a counters file without geometry: not) */
		} else {
			down_said = false;
			next = now + 1;		/* the slab map again in a second */
			if (monitor_ublk_moves(c, name, &w, &d, placed, live, nlive, standby,
					       now)) {
				failed = true;	/* asked again at the next interval */
				next = now + interval;
			}
			if (due <= now) {
				if (ublk_device_renew_grants(&c->ublk, name, d.pid, placed, live,
							     nlive, standby, watch_renew_ask,
							     watch_reissue, &w, &renewed)) {
					failed = true;	/* retried at the next interval */
					next = now + interval;
				} else {
					log_info("device %s: %u slab copies renewed, %u standby "
						 "per donor; spare-ublk told to read its grants "
						 "again", name, renewed, standby);
					/* still short: not asked again at once */
					if (ublk_grants_due(&c->ublk, name, placed, live, nlive,
							    standby, before, now, &due) || due <= now)
						next = now + interval;
				}
			}
		}
		free(live);
		live = NULL;
		if (!rounds++)
			spare_notify_ready("device %s: grants %s", name,
					   failed ? "not renewed yet" : "renewed");
		if (once) {
			ret = failed ? 1 : 0;
			break;
		}
		while (!monitor_stop && !monitor_hup && (uint64_t)time(NULL) < next) {
			sleep(1);
			if (access(conf, F_OK))
				break;	/* destroyed: said above */
		}
		if (monitor_stop) {
			ret = monitor_stopped(name, rounds);
			break;
		}
		monitor_hup_take(name);
	}
	return ret;
}

/*
 * sparectl device monitor NAME broker=... broker-name=... broker-key=...
 * [lease=S] [renew-before=S] [interval=S] [standby=N] [once]: keeps the
 * device's grants alive while it runs, and its copies movable.
 *   - Each donor's grant covers the copies it holds plus `standby` (default
 *     1), so that the kernel can move a copy a donor evicts onto any other
 *     donor without waiting for a grant. At start every donor is renewed,
 *     then each again when its newest grant has renew-before seconds left
 *     (default: a third of its lease), or when it holds more copies than
 *     that grant covers less the standby; each round (at least every
 *     interval seconds) counts the copies again from slab_map, so that a
 *     split re-homed onto a donor whose grants are used up gets room there.
 *   - The module's uevents wake it: on slab_evicted and donor_up it counts
 *     each donor's copies again (slab_map); on slab_moving (no donor's
 *     grants had room) it grants more on a target for each such copy
 *     (monitor_move_grants()); the kernel, which waits for its grants to
 *     change, moves the copies there.
 * A failed renewal is retried every interval seconds (default 5) with the
 * brokers in turn; an expired grant is logged, and the device keeps running
 * on what it has mapped. Ends on SIGTERM/SIGINT (0), or when the device is
 * removed (0). `once`: one round, then exit (1 if a donor could not be
 * renewed).
 */
int device_monitor(struct sparectl *c, const char *name, int argc, char **argv)
{
	struct monitor_opts o = { 0 };
	struct renew_ctx r = { 0 };
	struct monitor_state m = { .standby = 1 };
	uint64_t before = 0, interval = 5;
	struct sigaction sa = { .sa_handler = monitor_signal };
	struct spare_uevents *ue = NULL;
	struct brokerask_backoff bo = { 0 };
	unsigned long rounds = 0;
	char disk[64] = "", why[512];
	int ret;

	r.name = name;
	ret = renew_args(c, &r, "monitor", argc, argv, monitor_arg, &o);
	if (ret)
		return ret;
	ret = EXIT_USAGE;
	if (o.renew_before && spare_parse_u64(o.renew_before, 1, UINT32_MAX, &before)) {
		usage_error("renew-before=%s: not a number of seconds", o.renew_before);
		goto out;
	}
	if (o.interval && spare_parse_u64(o.interval, 1, 3600, &interval)) {
		usage_error("interval=%s: not a number of seconds (1-3600)", o.interval);
		goto out;
	}
	if (o.standby && spare_parse_u64(o.standby, 0, 64, &m.standby)) {
		usage_error("standby=%s: not a number of slabs (0-64)", o.standby);
		goto out;
	}
	ret = 1;
	{
		struct dev_info d;

		if (!dev_read(&c->roots, name, &d, why, sizeof(why)) && d.ublk) {
			monitor_signals(&sa);
			ret = monitor_ublk(c, name, &r, before, interval, (uint32_t)m.standby,
					   o.once);
			goto out;
		}
	}
	if (renew_plan(c, name, &r))
		goto out;
	if (!dev_attr_text(&c->roots, name, "disk", disk, sizeof(disk), why, sizeof(why)) &&
	    disk[0] && !o.once) {
		ue = spare_uevents_open(disk);
		if (!ue)
			log_warn("device %s: cannot listen for %s's uevents (%s): renewing on "
				 "the timer only", name, disk, strerror(errno));
	}
	monitor_signals(&sa);
	log_info("device %s: monitoring the grants of %u donors, %llu slab(s) standby on each",
		 name, r.nd, (unsigned long long)m.standby);
	/* under systemd (Type=notify): ready once the first round is done */
	for (;;) {
		uint64_t now = (uint64_t)time(NULL), next = now + interval;
		unsigned int i, failed = 0;
		struct stat st;
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", c->roots.configfs, name);
		if (stat(path, &st)) {
			log_info("device %s: removed; monitor ends", name);
			ret = 0;
			break;
		}
		/* each round counts the copies where slab_map has them now: a
		 * split the module re-homed onto a donor whose grants are used
		 * up is asked room for there ("more copies") */
		if (rounds && renew_plan(c, name, &r))
			r.nd = 0;	/* logged; the next round counts again */
		for (i = 0; i < r.nd; i++) {
			uint64_t due = monitor_due(&m, i, before);
			uint32_t want = r.count[i] + (uint32_t)m.standby;

			if (!want)
				continue;
			if (due <= now || want > m.covered[i]) {
				if (monitor_renew(c, name, &r, &m, i, want,
						  due <= now ? "renewed" : "more copies")) {
					failed++;	/* retried at the next interval */
					continue;
				}
				due = monitor_due(&m, i, before);
			}
			if (due < next)
				next = due;
		}
		if (!rounds++)
			spare_notify_ready("device %s: %u of %u donors renewed", name,
					   r.nd - failed, r.nd);
		else
			spare_notify_status("device %s: %u donors failed to renew", name, failed);
		/* split slabs waiting for a donor: asked for every round, not
		 * only on their uevent (a round comes at least every interval) */
		monitor_waiting(c, name, disk, &r, &m, &bo, now);
		if (bo.next > now && bo.next < next)
			next = bo.next;
		if (o.once) {
			ret = failed ? 1 : 0;
			break;
		}
		while (!monitor_stop && !monitor_hup && (uint64_t)time(NULL) < next) {
			struct pollfd pfd = { .fd = ue ? spare_uevents_fd(ue) : -1,
					      .events = POLLIN };
			struct spare_ev ev, moving[MONITOR_MOVES_MAX];
			unsigned int nmoving = 0;
			bool recount = false;
			int k;

			if (poll(&pfd, 1, 1000) <= 0 || !(pfd.revents & POLLIN))
				continue;
			while ((k = spare_uevents_next(ue, &ev, why, sizeof(why))) != 0) {
				if (k < 0) {
					log_warn("device %s: a uevent ignored: %s", name, why);
					continue;
				}
				log_info("device %s: uevent %s%s%s", name, spare_ev_name(ev.kind),
					 ev.donor[0] ? " from " : "", ev.donor);
				/* an ec device's slab_moving is a split waiting for
				 * a donor, listed in sysfs moving: a round asks for
				 * it (monitor_waiting()), so that it is not asked
				 * twice while a donor given is being added */
				if (ev.kind == SPARE_EV_SLAB_MOVING && !r.ec_width &&
				    nmoving < MONITOR_MOVES_MAX)
					moving[nmoving++] = ev;
				recount |= ev.kind == SPARE_EV_SLAB_EVICTED ||
					   ev.kind == SPARE_EV_DONOR_UP ||
					   (ev.kind == SPARE_EV_SLAB_MOVING && r.ec_width);
			}
			if ((!nmoving && !recount) || renew_plan(c, name, &r))
				continue;
			if (nmoving)
				monitor_move_grants(c, name, disk, &r, &m, moving, nmoving);
			if (recount)
				break;	/* a round now: a donor may hold more */
		}
		if (monitor_stop) {
			ret = monitor_stopped(name, rounds);
			break;
		}
		monitor_hup_take(name);
	}
out:
	spare_uevents_close(ue);
	renew_ctx_wipe(&r);
	return ret;
}
