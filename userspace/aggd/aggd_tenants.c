// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd's tenants (aggd_tenants.h). The file is read with the one key
 * file reader (spare_key_file_read(): a file group or others may read is
 * refused), secrets are the "SPARE-1:" text of spare_key_parse(), the MACs,
 * nonces and compares are libsodium's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "agg_auth.h"
#include "aggd_conn.h"
#include "aggd_jobs.h"
#include "aggd_state.h"
#include "aggd_tenants.h"
#include "spare_auth.h"
#include "spare_keyfile.h"
#include "spare_log.h"
#include "spare_util.h"

#define TENANTS_FILE_MAX	(1U << 20)

static int cap_u32(const char *v, unsigned int *out)
{
	uint64_t n;

	if (spare_parse_u64(v, 1, 1u << 20, &n))
		return -1;
	*out = (unsigned int)n;
	return 0;
}

/* One line's words after NAME SECRET; NULL or why. */
static const char *parse_caps(char *rest, struct aggd_tenant *t)
{
	char *save = NULL;

	for (char *w = strtok_r(rest, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(w, "jobs=", 5)) {
			if (cap_u32(w + 5, &t->jobs_max))
				return "jobs= is not a number in 1..1048576";
		} else if (!strncmp(w, "conns=", 6)) {
			if (cap_u32(w + 6, &t->conns_max))
				return "conns= is not a number in 1..1048576";
		} else if (!strncmp(w, "mem=", 4)) {
			if (spare_parse_size(w + 4, &t->mem_max) || !t->mem_max)
				return "mem= is not a size above 0 (e.g. 512M, 4G)";
		} else {
			return "unknown word (want jobs=N, mem=SIZE, conns=N)";
		}
	}
	return NULL;
}

int tenants_parse(const char *text, struct aggd_tenants *out, char *why,
		  size_t whylen)
{
	struct aggd_tenants t = { 0 };
	char *buf = strdup(text), *line, *save = NULL;
	unsigned int lineno = 0;
	const char *err = NULL;

	if (!buf) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	t.v = calloc(AGGD_TENANTS_MAX, sizeof(*t.v));
	if (!t.v) {
		free(buf);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	/* strsep keeps empty lines, so the line numbers stay right */
	for (char *p = buf; (line = strsep(&p, "\n")) != NULL;) {
		struct aggd_tenant *e;
		char *name, *secret, *rest;

		lineno++;
		line[strcspn(line, "#")] = '\0';
		name = strtok_r(line, " \t\r", &save);
		if (!name)
			continue;
		secret = strtok_r(NULL, " \t\r", &save);
		rest = strtok_r(NULL, "\r", &save);
		if (t.n == AGGD_TENANTS_MAX) {
			err = "more than 4096 tenants";
			break;
		}
		e = &t.v[t.n];
		e->line = lineno;
		if (strlen(name) > AGG_NAME_LEN) {
			err = "tenant name longer than 32 bytes";
			break;
		}
		for (const char *c = name; *c; c++)
			if (*c < 0x21 || *c > 0x7e)
				err = "tenant name with a byte that is not printable";
		if (err)
			break;
		if (tenants_find(&t, name)) {
			err = "tenant named twice";
			break;
		}
		if (!secret) {
			err = "no secret after the name";
			break;
		}
		err = spare_key_parse(secret, e->key);
		if (err)
			break;
		if (rest) {
			err = parse_caps(rest, e);
			if (err)
				break;
		}
		strcpy(e->name, name);
		t.n++;
	}
	sodium_memzero(buf, strlen(text));
	free(buf);
	if (err) {
		snprintf(why, whylen, "line %u: %s", lineno, err);
		t.n++;		/* wipe the half-made entry too */
		tenants_free(&t);
		return -1;
	}
	*out = t;
	return 0;
}

int tenants_load(const char *path, struct aggd_tenants *t, char *why,
		 size_t whylen)
{
	char *buf = malloc(TENANTS_FILE_MAX);
	char sub[200];
	long n;
	int ret;

	if (!buf) {
		snprintf(why, whylen, "%s: out of memory", path);
		return -1;
	}
	n = spare_key_file_read(path, buf, TENANTS_FILE_MAX, why, whylen);
	if (n < 0) {
		free(buf);
		return -1;
	}
	ret = tenants_parse(buf, t, sub, sizeof(sub));
	if (ret)
		snprintf(why, whylen, "%s: %s", path, sub);
	sodium_memzero(buf, (size_t)n);
	free(buf);
	return ret;
}

void tenants_free(struct aggd_tenants *t)
{
	if (t->v)
		sodium_memzero(t->v, sizeof(*t->v) * (t->n < AGGD_TENANTS_MAX ? t->n : AGGD_TENANTS_MAX));
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

const struct aggd_tenant *tenants_find(const struct aggd_tenants *t,
				       const char *name)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

/* ---- the daemon's side ---- */

bool tenants_on(void)
{
	return g.tenant_mode;
}

void tenants_install(struct aggd_tenants *t)
{
	tenants_free(&g.tenants);
	g.tenants = *t;
	g.tenant_mode = true;
	memset(t, 0, sizeof(*t));
}

const struct aggd_tenant *tenant_of(const struct conn *c)
{
	if (!g.tenant_mode || !c->tenant_authed)
		return NULL;
	return tenants_find(&g.tenants, c->tenant);
}

void handle_tenant_hello(struct conn *c)
{
	uint8_t *reply;
	struct agg_hdr h;
	int ret;

	if (!g.tenant_mode || c->tenant_challenged || c->tenant_authed || c->job) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, AGG_ESTATE,
			  g.tenant_mode ? "TENANT_HELLO" :
			  "TENANT_HELLO (this daemon has no tenants file: it is open)");
		return;
	}
	ret = agg_name_decode(c->body, c->tenant_claim);
	if (!ret && !c->tenant_claim[0])
		ret = -AGG_EINVAL;
	if (ret) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, (unsigned int)-ret, "TENANT_HELLO (tenant name)");
		return;
	}
	memcpy(c->tenant_nc, c->body + AGG_NAME_LEN, AGG_TENANT_NONCE_LEN);
	free(c->body);
	c->body = NULL;
	reply = malloc(AGG_TENANT_CHALLENGE_SIZE);
	if (!reply) {
		conn_close(c, "out of memory");
		return;
	}
	randombytes_buf(c->tenant_nd, sizeof(c->tenant_nd));
	memcpy(reply, c->tenant_nd, AGG_TENANT_NONCE_LEN);
	c->tenant_challenged = true;
	memset(&h, 0, sizeof(h));
	queue_plain(c, AGG_MSG_TENANT_CHALLENGE, &h, reply,
		    AGG_TENANT_CHALLENGE_SIZE, reply);
	/* not a completed request: the deadline still runs until the proof */
	c->answered = false;
	rx_expect_hdr(c);
}

static unsigned int tenant_conns(const char *name)
{
	unsigned int n = 0;

	for (const struct conn *x = g.conns; x; x = x->next)
		if (x->tenant_authed && !x->closing && !strcmp(x->tenant, name))
			n++;
	return n;
}

void handle_tenant_proof(struct conn *c)
{
	static uint8_t nobody_key[AGGD_TENANT_KEY_LEN];
	static bool nobody_set;
	const struct aggd_tenant *t;
	uint8_t want[AGG_TENANT_MAC_LEN];
	char what[160];
	bool ok;

	if (!c->tenant_challenged || c->tenant_authed) {
		free(c->body);
		c->body = NULL;
		fail_conn(c, AGG_ESTATE, "TENANT_PROOF without a TENANT_HELLO");
		return;
	}
	if (!nobody_set) {
		randombytes_buf(nobody_key, sizeof(nobody_key));
		nobody_set = true;
	}
	/* an unknown name costs the same HMAC as a known one */
	t = tenants_find(&g.tenants, c->tenant_claim);
	agg_tenant_mac(want, t ? t->key : nobody_key, c->tenant_claim, c->tenant_nc,
		       c->tenant_nd);
	ok = crypto_verify_32(want, c->body) == 0 && t;
	sodium_memzero(want, sizeof(want));
	free(c->body);
	c->body = NULL;
	c->tenant_challenged = false;
	if (!ok) {
		fail_conn(c, AGG_EAUTH, "TENANT_PROOF (unknown tenant, or not its key)");
		return;
	}
	if (t->conns_max && tenant_conns(t->name) >= t->conns_max) {
		snprintf(what, sizeof(what),
			 "TENANT_PROOF: tenant '%s' has %u connections, its conns cap",
			 t->name, t->conns_max);
		fail_conn(c, AGG_ECAP, what);
		return;
	}
	memcpy(c->tenant, t->name, sizeof(c->tenant));
	c->tenant_authed = true;
	log_dbg("conn %u (%s): tenant '%s'", c->id, c->peer, c->tenant);
	queue_plain(c, AGG_MSG_TENANT_REPLY, &(struct agg_hdr){ 0 }, NULL, 0, NULL);
	rx_expect_hdr(c);
}

bool tenant_may_create(struct conn *c, const char *tenant,
		       const struct agg_job_spec *spec, size_t need,
		       const char *what)
{
	const struct aggd_tenant *t;
	unsigned int jobs = 0;
	uint64_t mem = 0;
	char msg[200];

	if (!g.tenant_mode) {
		if (!tenant[0])
			return true;
		snprintf(msg, sizeof(msg), "%s of a job of tenant '%s' (this daemon is open: it has no tenants)",
			 what, tenant);
		fail_conn(c, AGG_ESTATE, msg);
		return false;
	}
	t = c->peer_authed ? tenants_find(&g.tenants, tenant) : tenant_of(c);
	if (!t) {
		snprintf(msg, sizeof(msg), c->peer_authed ?
			 "%s of a job of a tenant unknown here" :
			 "%s without a tenant's proof (this daemon has a tenants file)",
			 what);
		fail_conn(c, AGG_EAUTH, msg);
		return false;
	}
	for (const struct job_entry *e = g.jobs; e; e = e->next) {
		if (e->dead || strcmp(e->tenant, t->name))
			continue;
		jobs++;
		mem += e->job->mem_bytes;
	}
	if (t->jobs_max && jobs >= t->jobs_max) {
		snprintf(msg, sizeof(msg), "%s of job '%s': tenant '%s' has %u jobs, its jobs cap",
			 what, spec->name, t->name, jobs);
		fail_conn(c, AGG_ECAP, msg);
		return false;
	}
	if (t->mem_max && need > t->mem_max - (mem < t->mem_max ? mem : t->mem_max)) {
		snprintf(msg, sizeof(msg),
			 "%s of job '%s': it needs %zu bytes, tenant '%s' holds %llu of its mem cap %llu",
			 what, spec->name, need, t->name, (unsigned long long)mem,
			 (unsigned long long)t->mem_max);
		fail_conn(c, AGG_ECAP, msg);
		return false;
	}
	return true;
}
