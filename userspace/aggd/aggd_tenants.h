/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd's tenants (Documentation/aggd.md, "Tenants"): the tenants
 * file, a connection's proof of a tenant's key (TENANT_HELLO, _CHALLENGE,
 * _PROOF, agg_proto.h) and each tenant's caps on jobs, memory and
 * connections. Without a tenants file the daemon is open: every
 * connection is the one anonymous tenant "" without caps.
 */
#ifndef SPARE_AGGD_TENANTS_H
#define SPARE_AGGD_TENANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agg_proto.h"

struct conn;
struct agg_job_spec;

#define AGGD_TENANTS_MAX	4096	/* lines with a tenant in one file */
#define AGGD_TENANT_KEY_LEN	32

struct aggd_tenant {
	char name[AGG_NAME_LEN + 1];
	uint8_t key[AGGD_TENANT_KEY_LEN];
	unsigned int jobs_max;		/* jobs=; 0: no cap */
	unsigned int conns_max;		/* conns=; 0: no cap */
	uint64_t mem_max;		/* mem= bytes; 0: no cap */
	unsigned int line;
};

struct aggd_tenants {
	struct aggd_tenant *v;
	unsigned int n;
};

/*
 * Parse a tenants file's text: one "NAME SECRET [jobs=N] [mem=SIZE]
 * [conns=N]" per line, '#' comments and blank lines allowed. NAME is a job
 * name's alphabet (1..32 printable bytes), unique; SECRET is the
 * "SPARE-1:" text of sparectl gen-key; SIZE as spare_parse_size(). Returns
 * 0, or -1 with "line N: why" in @why (never quoting a secret).
 */
int tenants_parse(const char *text, struct aggd_tenants *t, char *why,
		  size_t whylen);
/* Same from @path, read with spare_key_file_read(); @why names the file. */
int tenants_load(const char *path, struct aggd_tenants *t, char *why,
		 size_t whylen);
/* Wipe the keys and free. */
void tenants_free(struct aggd_tenants *t);
const struct aggd_tenant *tenants_find(const struct aggd_tenants *t,
				       const char *name);
/* ---- the daemon's side (g.tenants) ---- */

/* Whether the daemon runs with a tenants file. */
bool tenants_on(void);
/* Install @t (taken over) as the daemon's tenants; the old ones are freed. */
void tenants_install(struct aggd_tenants *t);
/* TENANT_HELLO / TENANT_PROOF whose body is in c->body (freed here). */
void handle_tenant_hello(struct conn *c);
void handle_tenant_proof(struct conn *c);
/*
 * May the job @spec of @tenant, needing @need bytes, be created at @c's
 * request (a REGISTER on a connection of @tenant, or an IMPORT from a
 * proven peer)? True, or false after an ERROR (EAUTH: no tenant proved, or
 * a tenant unknown here; ECAP naming the cap) and the connection closing.
 * @what names the request.
 */
bool tenant_may_create(struct conn *c, const char *tenant,
		       const struct agg_job_spec *spec, size_t need,
		       const char *what);
/* The tenant @c proved, or NULL (none, or removed by a reload). */
const struct aggd_tenant *tenant_of(const struct conn *c);

#endif /* SPARE_AGGD_TENANTS_H */
