// SPDX-License-Identifier: GPL-2.0
/*
 * Grants from spare-broker for `sparectl device create` (brokerask.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker_client.h"
#include "brokerask.h"
#include "grantplan.h"
#include "spare_grant_lib.h"
#include "spare_log.h"

struct blist {
	char		text[BROKERASK_MAX_BROKERS * 80];
	const char	*v[BROKERASK_MAX_BROKERS];
	unsigned int	n;
};

static const char *split(const char *brokers, struct blist *l)
{
	char *p, *rest;

	l->n = 0;
	if (strlen(brokers) >= sizeof(l->text))
		return "the brokers list is too long";
	strcpy(l->text, brokers);
	rest = l->text;
	/* strsep, not strtok: "a:1,,b:2" has an empty entry, refused */
	while ((p = strsep(&rest, ","))) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		if (!*p)
			return "an empty entry in the brokers list";
		if (!strchr(p, ':') || p[strlen(p) - 1] == ':' || p[0] == ':')
			return "a broker is not HOST:PORT";
		if (l->n == BROKERASK_MAX_BROKERS)
			return "more than 16 brokers";
		l->v[l->n++] = p;
	}
	return l->n ? NULL : "no broker given";
}

const char *brokerask_parse_timeout(const char *s, unsigned int *ms)
{
	uint64_t v = 0;
	unsigned int frac = 0;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return "not a number of seconds (e.g. 5, or 0.5)";
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > BROKERASK_TIMEOUT_MAX_MS / 1000)
			return "over 3600 seconds";
	}
	v *= 1000;
	if (*p == '.') {
		unsigned int scale = 100;

		if (!isdigit((unsigned char)p[1]))
			return "not a number of seconds (e.g. 5, or 0.5)";
		for (p++; isdigit((unsigned char)*p); p++, frac++) {
			if (frac == 3)
				return "more than 3 decimals (a millisecond is the finest)";
			v += (uint64_t)(*p - '0') * scale;
			scale /= 10;
		}
	}
	if (*p)
		return "not a number of seconds (e.g. 5, or 0.5)";
	if (v < BROKERASK_TIMEOUT_MIN_MS)
		return "under 0.1 seconds";
	if (v > BROKERASK_TIMEOUT_MAX_MS)
		return "over 3600 seconds";
	*ms = (unsigned int)v;
	return NULL;
}

const char *brokerask_check_list(const char *brokers)
{
	struct blist l;

	return split(brokers, &l);
}

/* Connect and authenticate as a client: the fd, or -1 (reason in @why). */
static int open_broker(const struct brokerask *a, const char *b, char *why, size_t whylen)
{
	char err[256], id[BROKER_ID_LEN + 1] = "";
	int fd = broker_connect(b, a->timeout_ms, err, sizeof(err));

	if (fd < 0) {
		snprintf(why, whylen, "unreachable: %s", err);
		return -1;
	}
	if (broker_authenticate(fd, BROKER_ROLE_CLIENT, a->name, a->key, id, err,
				sizeof(err))) {
		snprintf(why, whylen, "authentication as '%s' failed: %s", a->name, err);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The reply to request @seq: a GRANT_REP of @slabs x @copies grants, each
 * well formed and for us, into @out, and their donors' domains into
 * @domains (if not NULL). 0, or -1 (reason in @why; and, @code not NULL,
 * the ERROR's code if the broker refused, else 0).
 */
static int take_reply(int fd, const struct brokerask *a, uint32_t seq, unsigned int slabs,
		      unsigned int copies, struct spare_grant *out,
		      char (*domains)[BROKER_DOMAIN_LEN], uint8_t *body, unsigned int *code,
		      uint64_t *marks, char *why, size_t whylen)
{
	struct broker_grant_rep rep;
	struct broker_error e;
	struct broker_hdr h;
	unsigned int i;

	if (code)
		*code = 0;
	if (broker_recv(fd, &h, body, BROKER_MAX_BODY)) {
		snprintf(why, whylen, "connection lost: %s", strerror(errno));
		return -1;
	}
	if (h.type == BROKER_ERROR) {
		if (broker_error_decode(body, h.len, &e)) {
			snprintf(why, whylen, "malformed ERROR");
		} else {
			snprintf(why, whylen, "refused: %s: %s", broker_err_name(e.code), e.text);
			if (code)
				*code = e.code;
		}
		return -1;
	}
	if (h.type != BROKER_GRANT_REP || h.seq != seq ||
	    broker_grant_rep_decode(body, h.len, &rep)) {
		snprintf(why, whylen, "malformed reply (%s)", broker_type_name(h.type));
		return -1;
	}
	/* protocol 3's marks answer only a RENEW_GRANT that asks (@marks) */
	if (!marks && rep.flags) {
		snprintf(why, whylen, "malformed reply (GRANT_REP): move marks not asked for");
		return -1;
	}
	if (marks && rep.flags != BROKER_REP_F_MOVE) {
		snprintf(why, whylen, "malformed reply (GRANT_REP): move marks asked for, "
			 "none sent");
		return -1;
	}
	if (marks)
		*marks = rep.move;
	if (rep.slabs != slabs || rep.copies != copies) {
		snprintf(why, whylen, "granted %u slabs x %u copies, asked for %u x %u",
			 rep.slabs, rep.copies, slabs, copies);
		return -1;
	}
	for (i = 0; i < slabs * copies; i++) {
		struct spare_grant_info gi;

		broker_grant_rep_entry(&rep, i, &out[i], domains ? domains[i] : NULL);
		if (spare_grant_decode(&out[i], &gi)) {
			snprintf(why, whylen, "grant %u is malformed", i);
			return -1;
		}
		if (strcmp(gi.client_id, a->name)) {
			snprintf(why, whylen, "grant %u is for client '%s', not '%s'", i,
				 gi.client_id, a->name);
			return -1;
		}
	}
	return 0;
}

static uint8_t body[BROKER_MAX_BODY];

/*
 * One GRANT_REQ for @slabs x @copies, or (@ec_k not 0) one STRIPE_REQ for
 * @slabs stripes of ec:@ec_k+(@copies - @ec_k): 0, or -1 (reason in @why).
 */
static int ask(int fd, const struct brokerask *a, uint32_t seq, unsigned int slabs,
	       unsigned int copies, unsigned int ec_k, struct spare_grant *out,
	       char (*domains)[BROKER_DOMAIN_LEN], char *why, size_t whylen)
{
	struct broker_grant_req r = { .slabs = (uint16_t)slabs, .copies = (uint16_t)copies,
				      .lease_s = a->lease_s };
	struct broker_stripe_req sr = { .stripes = (uint16_t)slabs, .k = (uint8_t)ec_k,
					.r = (uint8_t)(copies - ec_k), .lease_s = a->lease_s };
	int n = ec_k ? broker_stripe_req_encode(&sr, body, sizeof(body)) :
		       broker_grant_req_encode(&r, body, sizeof(body));

	if (n < 0) {
		if (ec_k)
			snprintf(why, whylen, "cannot ask for %u stripes of ec %u+%u", slabs,
				 ec_k, copies - ec_k);
		else
			snprintf(why, whylen, "cannot ask for %u slabs x %u copies", slabs,
				 copies);
		return -1;
	}
	if (broker_send(fd, ec_k ? BROKER_STRIPE_REQ : BROKER_GRANT_REQ, seq, body, (size_t)n)) {
		snprintf(why, whylen, "connection lost: %s", strerror(errno));
		return -1;
	}
	return take_reply(fd, a, seq, slabs, copies, out, domains, body, NULL, NULL, why, whylen);
}

/* One ROOM_REQ (@type; the message RENEW_REQ shared, which sparectl no longer sends): 0, or -1 (reason in @why). */
static int ask_renew(int fd, const struct brokerask *a, uint32_t seq, uint16_t type,
		     const char *addr, uint32_t slabs, struct spare_grant *out, char *domain,
		     char *why, size_t whylen)
{
	char dom[1][BROKER_DOMAIN_LEN];
	struct broker_renew_req r = { .slabs = slabs, .lease_s = a->lease_s };
	struct spare_grant_info gi;
	int n;

	snprintf(r.donor_addr, sizeof(r.donor_addr), "%s", addr);
	n = broker_renew_req_encode(&r, body, sizeof(body));
	if (n < 0) {
		snprintf(why, whylen, "cannot ask to renew %u slabs on %s", slabs, addr);
		return -1;
	}
	if (broker_send(fd, type, seq, body, (size_t)n)) {
		snprintf(why, whylen, "connection lost: %s", strerror(errno));
		return -1;
	}
	if (take_reply(fd, a, seq, 1, 1, out, dom, body, NULL, NULL, why, whylen))
		return -1;
	spare_grant_decode(out, &gi);	/* checked by take_reply */
	if (gi.slabs != slabs || strcmp(gi.donor_addr, addr)) {
		snprintf(why, whylen, "renewed %u slabs on %s, asked for %u on %s", gi.slabs,
			 gi.donor_addr, slabs, addr);
		return -1;
	}
	if (domain)
		memcpy(domain, dom[0], BROKER_DOMAIN_LEN);
	return 0;
}

/*
 * One request on a fresh connection to each broker in turn (@one), until
 * one answers: 0, or -1 (each failure logged as a warning).
 */
typedef int (*ask_one_fn)(int fd, const struct brokerask *a, void *ctx, char *why,
			  size_t whylen);
/* ask_in_turn() that logs nothing: the last broker's reason in @last. */
static int ask_in_turn_quiet(const struct brokerask *a, ask_one_fn one, void *ctx,
			     char *last, size_t lastlen)
{
	struct blist l;
	const char *err = split(a->brokers, &l);

	if (err) {
		snprintf(last, lastlen, "broker=%s: %s", a->brokers, err);
		return -1;
	}
	snprintf(last, lastlen, "no broker");
	for (unsigned int i = 0; i < l.n; i++) {
		char why[512];
		int fd = open_broker(a, l.v[i], why, sizeof(why));

		if (fd >= 0) {
			int ret = one(fd, a, ctx, why, sizeof(why));

			close(fd);
			if (!ret)
				return 0;
		}
		snprintf(last, lastlen, "broker %s: %s", l.v[i], why);
	}
	return -1;
}

static int ask_in_turn(const struct brokerask *a, ask_one_fn one, void *ctx)
{
	char why[512];
	struct blist l;
	const char *err = split(a->brokers, &l);

	if (err) {
		log_err("broker=%s: %s", a->brokers, err);
		return -1;
	}
	for (unsigned int i = 0; i < l.n; i++) {
		int fd = open_broker(a, l.v[i], why, sizeof(why));

		if (fd >= 0) {
			int ret = one(fd, a, ctx, why, sizeof(why));

			close(fd);
			if (!ret)
				return 0;
		}
		log_warn("broker %s: %s%s", l.v[i], why, i + 1 < l.n ? "; trying the next broker" : "");
	}
	return -1;
}

struct renew_call {
	const char		*addr;
	uint32_t		slabs;
	struct spare_grant	*grant;
	char			*domain;
};

static int room_one(int fd, const struct brokerask *a, void *ctx, char *why, size_t whylen)
{
	struct renew_call *c = ctx;

	return ask_renew(fd, a, 2, BROKER_ROOM_REQ, c->addr, c->slabs, c->grant, c->domain,
			 why, whylen);
}

int brokerask_room(const struct brokerask *a, const char *donor_addr, uint32_t slabs,
		   struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN], char *why,
		   size_t whylen)
{
	struct renew_call c = { donor_addr, slabs, grant, domain };

	return ask_in_turn_quiet(a, room_one, &c, why, whylen);
}

/*
 * One RENEW_GRANT of @n grants @old: each answer the same grant (id,
 * client, donor, address, slabs) with the broker's new expiry (a shorter
 * lease may end it earlier: the donor keeps the later), into @out. 0, or -1
 * (reason in @why).
 */
static int ask_reissue(int fd, const struct brokerask *a, uint32_t seq,
		       const struct spare_grant *old, unsigned int n, struct spare_grant *out,
		       char (*domains)[BROKER_DOMAIN_LEN], uint64_t *marks, unsigned int *code,
		       char *why, size_t whylen)
{
	int len = broker_renew_grant_encode_flags(a->lease_s, (uint16_t)n, old,
						  marks ? BROKER_RENEW_F_MOVE : 0, body,
						  sizeof(body));

	if (len < 0) {
		snprintf(why, whylen, "cannot send back %u grants", n);
		return -1;
	}
	if (broker_send(fd, BROKER_RENEW_GRANT, seq, body, (size_t)len)) {
		snprintf(why, whylen, "connection lost: %s", strerror(errno));
		return -1;
	}
	if (take_reply(fd, a, seq, n, 1, out, domains, body, code, marks, why, whylen))
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		struct spare_grant_info was, gi;

		spare_grant_decode(&out[i], &gi);	/* checked by take_reply */
		if (spare_grant_decode(&old[i], &was) || memcmp(was.id, gi.id, sizeof(gi.id)) ||
		    strcmp(was.donor_addr, gi.donor_addr) || strcmp(was.donor_id, gi.donor_id) ||
		    was.slabs != gi.slabs || strcmp(was.client_id, gi.client_id)) {
			snprintf(why, whylen, "renewal %u is not grant %u re-issued", i, i);
			return -1;
		}
	}
	return 0;
}

struct reissue_call {
	const struct spare_grant	*old;
	unsigned int			n;
	struct spare_grant		*out;
	char				(*domains)[BROKER_DOMAIN_LEN];
	uint64_t			*marks;		/* NULL: none asked */
	bool				flag_refused;	/* a broker took it for a bad frame */
};

static int reissue_one(int fd, const struct brokerask *a, void *ctx, char *why, size_t whylen)
{
	struct reissue_call *c = ctx;
	unsigned int code = 0;
	int ret = ask_reissue(fd, a, 2, c->old, c->n, c->out, c->domains, c->marks, &code, why,
			      whylen);

	/* what a broker older than protocol 3 answers RENEW_GRANT's flags
	 * (its decoder refuses any): a bad frame, not a refusal of the grants */
	if (ret && c->marks && code == BROKER_E_BAD_FRAME)
		c->flag_refused = true;
	return ret;
}

int brokerask_reissue_marks(const struct brokerask *a, const struct spare_grant *old,
			    unsigned int n, struct spare_grant *out,
			    char domain[BROKER_DOMAIN_LEN], bool *move)
{
	char dom[BROKER_MAX_RENEW_GRANTS][BROKER_DOMAIN_LEN];

	for (unsigned int done = 0; done < n;) {
		unsigned int m = n - done < BROKER_MAX_RENEW_GRANTS ? n - done :
								       BROKER_MAX_RENEW_GRANTS;
		uint64_t marks = 0;
		struct reissue_call c = { old + done, m, out + done, dom,
					  move ? &marks : NULL, false };
		int failed = ask_in_turn(a, reissue_one, &c);

		/* a broker older than protocol 3 refuses the flag and closes:
		 * the grants are renewed without marks rather than lapse. A
		 * broker that refused the grants themselves (expired, another
		 * client's, a donor gone) is not asked again: the refusal is
		 * logged, and no older broker is blamed for it */
		if (failed && move && c.flag_refused) {
			log_warn("no broker renewed %u grant(s) with move marks (a broker "
				 "older than protocol 3?): asking without them", m);
			c.marks = NULL;
			failed = ask_in_turn(a, reissue_one, &c);
		}
		if (failed) {
			log_err("no broker renewed %u grant(s) (RENEW_GRANT; %u of %u renewed)",
				m, done, n);
			return -1;
		}
		for (unsigned int i = 0; move && i < m; i++)
			move[done + i] = marks & (1ULL << i);
		if (domain && !done)
			memcpy(domain, dom[0], BROKER_DOMAIN_LEN);
		done += m;
	}
	return 0;
}

int brokerask_reissue(const struct brokerask *a, const struct spare_grant *old, unsigned int n,
		      struct spare_grant *out, char domain[BROKER_DOMAIN_LEN])
{
	return brokerask_reissue_marks(a, old, n, out, domain, NULL);
}

/* One MOVE_REQ @r: 0, or -1 (reason in @why). */
static int ask_move(int fd, const struct brokerask *a, uint32_t seq,
		    const struct broker_move_req *r, struct spare_grant *out, char *domain,
		    char *why, size_t whylen)
{
	char dom[1][BROKER_DOMAIN_LEN];
	struct spare_grant_info gi;
	unsigned int code;
	int n = broker_move_req_encode(r, body, sizeof(body));

	if (n < 0) {	/* not reached: brokerask_move checked the fields */
		snprintf(why, whylen, "cannot ask to move %u slabs", r->slabs);
		return -1;
	}
	if (broker_send(fd, BROKER_MOVE_REQ, seq, body, (size_t)n)) {
		snprintf(why, whylen, "connection lost: %s", strerror(errno));
		return -1;
	}
	if (take_reply(fd, a, seq, 1, 1, out, dom, body, &code, NULL, why, whylen)) {
		/* what a broker older than MOVE_REQ answers an unknown type */
		if (code == BROKER_E_BAD_FRAME) {
			size_t k = strlen(why);

			snprintf(why + k, whylen - k, " (a broker older than MOVE_REQ?)");
		}
		return -1;
	}
	spare_grant_decode(out, &gi);	/* checked by take_reply */
	if (gi.slabs != r->slabs) {
		snprintf(why, whylen, "granted %u slabs on %s, asked for %u", gi.slabs,
			 gi.donor_addr, r->slabs);
		return -1;
	}
	for (unsigned int i = 0; i < r->n_avoid; i++)
		if (!strncmp(gi.donor_addr, r->avoid[i], BROKER_ADDR_LEN)) {
			snprintf(why, whylen, "granted a move to %s, one of the donors to avoid",
				 gi.donor_addr);
			return -1;
		}
	if (domain)
		memcpy(domain, dom[0], BROKER_DOMAIN_LEN);
	return 0;
}

/* Copy a caller's string into a zeroed fixed field: false if it does not end within it. */
static bool put_field(char *dst, const char *src, size_t len)
{
	size_t k = strnlen(src, len);

	if (k == len)
		return false;
	memcpy(dst, src, k);
	return broker_str_ok(dst, len);
}

struct move_call {
	const struct broker_move_req	*r;
	struct spare_grant		*g;
	char				*domain;
};

static int move_one(int fd, const struct brokerask *a, void *ctx, char *why, size_t whylen)
{
	struct move_call *c = ctx;

	return ask_move(fd, a, 2, c->r, c->g, c->domain, why, whylen);
}

int brokerask_move(const struct brokerask *a, uint32_t slabs,
		   const char (*avoid)[BROKER_ADDR_LEN], unsigned int n_avoid,
		   const char (*avoid_dom)[BROKER_DOMAIN_LEN], unsigned int n_avoid_dom,
		   struct spare_grant *grant, char domain[BROKER_DOMAIN_LEN])
{
	struct broker_move_req r;
	struct spare_grant g;	/* a broker's answer, until it passes the checks */
	struct move_call c = { &r, &g, domain };

	memset(&r, 0, sizeof(r));
	r.slabs = slabs;
	r.lease_s = a->lease_s;
	if (!slabs || slabs > BROKER_MAX_RENEW || n_avoid > BROKER_MAX_AVOID ||
	    n_avoid_dom > BROKER_MAX_AVOID) {
		log_err("a move asks for 1-%u slabs avoiding at most %u donors and %u domains, "
			"not %u slabs avoiding %u and %u", BROKER_MAX_RENEW, BROKER_MAX_AVOID,
			BROKER_MAX_AVOID, slabs, n_avoid, n_avoid_dom);
		return -1;
	}
	r.n_avoid = (uint8_t)n_avoid;
	r.n_avoid_domains = (uint8_t)n_avoid_dom;
	for (unsigned int i = 0; i < n_avoid; i++)
		if (!put_field(r.avoid[i], avoid[i], BROKER_ADDR_LEN)) {
			log_err("a move cannot avoid donor %u: not a donor address", i);
			return -1;
		}
	for (unsigned int i = 0; i < n_avoid_dom; i++)
		if (!put_field(r.avoid_domains[i], avoid_dom[i], BROKER_DOMAIN_LEN)) {
			log_err("a move cannot avoid domain %u: not a failure-domain label", i);
			return -1;
		}
	if (!ask_in_turn(a, move_one, &c)) {
		*grant = g;
		return 0;
	}
	log_err("no broker granted %u slab(s) on a donor outside the %u to avoid", slabs, n_avoid);
	return -1;
}

/*
 * brokerask_grants() (@ec_k 0) and brokerask_stripes(): @slabs units of
 * @copies grants, in batches of @batch units.
 */
static int ask_units(const struct brokerask *a, uint32_t slabs, unsigned int copies,
		     unsigned int ec_k, unsigned int batch, struct spare_grant *grants,
		     char (*domains)[BROKER_DOMAIN_LEN])
{
	unsigned int cur = 0;
	uint32_t done = 0, seq = 1;
	char why[512];
	struct blist l;
	const char *err = split(a->brokers, &l);
	int fd = -1;

	if (err) {
		log_err("broker=%s: %s", a->brokers, err);
		return -1;
	}
	while (done < slabs) {
		unsigned int n = slabs - done < batch ? slabs - done : batch;

		for (; cur < l.n; cur++) {
			if (fd < 0)
				fd = open_broker(a, l.v[cur], why, sizeof(why));
			if (fd >= 0 && !ask(fd, a, ++seq, n, copies, ec_k,
					    grants + (size_t)done * copies,
					    domains ? domains + (size_t)done * copies : NULL,
					    why, sizeof(why)))
				break;
			if (fd >= 0)
				close(fd);
			fd = -1;
			log_warn("broker %s: %s%s", l.v[cur], why,
				 cur + 1 < l.n ? "; trying the next broker" : "");
		}
		if (cur == l.n) {
			if (ec_k)
				log_err("no broker granted %u stripes of ec %u+%u (%u of %u "
					"coding groups granted)", n, ec_k, copies - ec_k, done,
					slabs);
			else
				log_err("no broker granted %u slabs x %u copies (%u of %u slabs "
					"granted)", n, copies, done, slabs);
			return -1;
		}
		done += n;
	}
	close(fd);
	return 0;
}

int brokerask_grants(const struct brokerask *a, uint32_t slabs, unsigned int copies,
		     struct spare_grant *grants, char (*domains)[BROKER_DOMAIN_LEN])
{
	unsigned int batch = grantplan_batch_slabs(copies);

	if (!batch) {
		log_err("replicas %u: a broker grants 1 to %u copies", copies, BROKER_MAX_COPIES);
		return -1;
	}
	return ask_units(a, slabs, copies, 0, batch, grants, domains);
}

int brokerask_stripes(const struct brokerask *a, uint32_t stripes, unsigned int k,
		      unsigned int r, struct spare_grant *grants,
		      char (*domains)[BROKER_DOMAIN_LEN])
{
	unsigned int w = k + r, batch;

	if (!k || !r || w > BROKER_MAX_SPLITS) {
		log_err("ec %u+%u: a broker places 2, 4 or 8 data and 1 or 2 parity splits", k, r);
		return -1;
	}
	/* STRIPE_REQ's limits: 64 stripes, 128 grants */
	batch = BROKER_MAX_GRANTS / w < BROKER_MAX_SLABS ? BROKER_MAX_GRANTS / w :
							   BROKER_MAX_SLABS;
	return ask_units(a, stripes, w, k, batch, grants, domains);
}

bool brokerask_backoff_due(struct brokerask_backoff *b, unsigned int n, uint64_t now)
{
	if (!n) {
		*b = (struct brokerask_backoff){ 0 };
		return false;
	}
	return now >= b->next;
}

void brokerask_backoff_asked(struct brokerask_backoff *b, bool given, uint64_t now,
			     uint64_t add_wait)
{
	uint64_t retry = b->retry ? b->retry : BROKERASK_MOVE_RETRY_S;

	if (given) {
		b->next = now + add_wait;
		b->retry = 0;
		return;
	}
	b->next = now + retry;
	b->retry = retry * 2 < BROKERASK_MOVE_RETRY_MAX_S ? retry * 2 : BROKERASK_MOVE_RETRY_MAX_S;
}
