// SPDX-License-Identifier: GPL-2.0
/*
 * Grants to configfs strings (grantplan.h). Pure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker_proto.h"
#include "grantplan.h"

static int refuse(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

uint32_t grantplan_nr_slabs(uint64_t size, uint64_t slab_size)
{
	uint64_t n;

	if (!size || !slab_size)
		return 0;
	n = size / slab_size + (size % slab_size != 0);
	return n > UINT32_MAX ? 0 : (uint32_t)n;
}

unsigned int grantplan_batch_slabs(unsigned int copies)
{
	unsigned int n;

	if (!copies || copies > BROKER_MAX_COPIES)
		return 0;
	n = BROKER_MAX_GRANTS / copies;
	return n < BROKER_MAX_SLABS ? n : BROKER_MAX_SLABS;
}

int grantplan_check(uint32_t slabs, unsigned int copies, char *why, size_t whylen)
{
	uint64_t entries = (uint64_t)slabs * copies;

	if (!slabs)
		return refuse(why, whylen, "the device has no slabs");
	if (!copies || copies > BROKER_MAX_COPIES)
		return refuse(why, whylen, "replicas %u: a broker grants 1 to %u copies of a slab",
			      copies, BROKER_MAX_COPIES);
	/* the shortest placement: one digit per entry and a comma between */
	if (2 * entries - 1 >= GRANTPLAN_ATTR_MAX)
		return refuse(why, whylen,
			      "%u slabs x %u copies need a placement of at least %llu bytes, "
			      "more than one configfs write (%u): use a larger slab_size",
			      slabs, copies, (unsigned long long)(2 * entries - 1),
			      GRANTPLAN_ATTR_MAX - 1);
	return 0;
}

/* May @a stand in the comma-separated `donors` list? */
static int addr_listable(const char *a, size_t cap)
{
	size_t i;

	if (!memchr(a, 0, cap) || !a[0])
		return 0;
	for (i = 0; a[i]; i++)
		if (a[i] == ',' || (unsigned char)a[i] <= ' ' || (unsigned char)a[i] >= 0x7f)
			return 0;
	return 1;
}

static int build(const struct spare_grant_info *g, size_t n, uint32_t slabs,
		 unsigned int copies, unsigned int max_donors, struct grantplan *p,
		 char *why, size_t whylen)
{
	const char *addr[GRANTPLAN_MAX_DONORS];
	const char *id[GRANTPLAN_MAX_DONORS];
	size_t dlen = 0, plen = 0, i;
	unsigned int nd = 0;

	memset(p, 0, sizeof(*p));
	if (grantplan_check(slabs, copies, why, whylen))
		return -1;
	if (n != (uint64_t)slabs * copies)
		return refuse(why, whylen, "%zu grants for %u slabs x %u copies (want %llu)",
			      n, slabs, copies, (unsigned long long)slabs * copies);
	if (!max_donors || max_donors > GRANTPLAN_MAX_DONORS)
		max_donors = GRANTPLAN_MAX_DONORS;
	for (i = 0; i < n; i++) {
		size_t slab = i / copies, c;
		unsigned int d;
		int w;

		if (!g[i].slabs)
			return refuse(why, whylen, "grant %zu (slab %zu) covers no slab", i, slab);
		if (!addr_listable(g[i].donor_addr, sizeof(g[i].donor_addr)))
			return refuse(why, whylen,
				      "grant %zu (slab %zu): donor address '%.*s' cannot be "
				      "listed in donors", i, slab,
				      (int)strnlen(g[i].donor_addr, sizeof(g[i].donor_addr)),
				      g[i].donor_addr);
		for (d = 0; d < nd; d++)
			if (!strcmp(addr[d], g[i].donor_addr))
				break;
		if (d < nd && strncmp(id[d], g[i].donor_id, sizeof(g[i].donor_id)))
			return refuse(why, whylen,
				      "grant %zu (slab %zu): donor address %s is both donor '%.*s' "
				      "and donor '%.*s'", i, slab, g[i].donor_addr,
				      (int)strnlen(id[d], SPARE_GRANT_DONOR_LEN), id[d],
				      (int)strnlen(g[i].donor_id, sizeof(g[i].donor_id)),
				      g[i].donor_id);
		if (d == nd) {
			if (nd == max_donors)
				return refuse(why, whylen,
					      "the grants name more than %u donors, more than a "
					      "device can list", max_donors);
			w = snprintf(p->donors + dlen, sizeof(p->donors) - dlen, "%s%s",
				     nd ? "," : "", g[i].donor_addr);
			if (w < 0 || (size_t)w >= sizeof(p->donors) - dlen)
				return refuse(why, whylen,
					      "the donors list does not fit one configfs write "
					      "(%u bytes)", GRANTPLAN_ATTR_MAX - 1);
			dlen += (size_t)w;
			addr[nd] = g[i].donor_addr;
			id[nd] = g[i].donor_id;
			nd++;
		}
		/* copies of one slab on distinct donors */
		for (c = slab * copies; c < i; c++)
			if (!strcmp(g[c].donor_addr, g[i].donor_addr))
				return refuse(why, whylen, "slab %zu: copies %zu and %zu both on "
					      "donor %s", slab, c - slab * copies, i - slab * copies,
					      g[i].donor_addr);
		w = snprintf(p->placement + plen, sizeof(p->placement) - plen, "%s%u",
			     i ? "," : "", d);
		if (w < 0 || (size_t)w >= sizeof(p->placement) - plen)
			return refuse(why, whylen,
				      "the placement does not fit one configfs write (%u bytes)",
				      GRANTPLAN_ATTR_MAX - 1);
		plen += (size_t)w;
	}
	p->ndonors = nd;
	return 0;
}

int grantplan_build(const struct spare_grant_info *g, size_t n, uint32_t slabs,
		    unsigned int copies, unsigned int max_donors, struct grantplan *p,
		    char *why, size_t whylen)
{
	if (build(g, n, slabs, copies, max_donors, p, why, whylen)) {
		memset(p, 0, sizeof(*p));	/* nothing half built is written */
		return -1;
	}
	return 0;
}

int grantplan_counts(const char *placement, uint32_t slabs, unsigned int copies,
		     unsigned int ndonors, uint32_t *count, char *why, size_t whylen)
{
	uint64_t want = (uint64_t)slabs * copies, got = 0;
	const char *p = placement;

	if (!ndonors || !copies || copies > ndonors) {
		snprintf(why, whylen, "%u copies over %u donors", copies, ndonors);
		return -1;
	}
	memset(count, 0, ndonors * sizeof(*count));
	if (!*p) {
		for (uint64_t k = 0; k < want; k++)
			count[(k / copies + k % copies) % ndonors]++;
		return 0;
	}
	while (*p) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v >= ndonors) {
			snprintf(why, whylen, "placement entry %llu is not a donor index below %u",
				 (unsigned long long)got, ndonors);
			return -1;
		}
		count[v]++;
		got++;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',') {
			snprintf(why, whylen, "placement has '%c' after entry %llu", *end,
				 (unsigned long long)got);
			return -1;
		}
	}
	if (got != want) {
		snprintf(why, whylen, "placement has %llu entries, the device %llu",
			 (unsigned long long)got, (unsigned long long)want);
		return -1;
	}
	return 0;
}

int grantplan_move_target(const uint32_t *count, unsigned int nd, uint32_t skip)
{
	int best = -1;

	for (unsigned int i = 0; i < nd && i < 32; i++)
		if (!(skip & (UINT32_C(1) << i)) && (best < 0 || count[i] < count[best]))
			best = (int)i;
	return best;
}
