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
		p->where[p->nwhere++] = (uint8_t)d;	/* fits: the string did */
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

int grantplan_domains(const struct spare_grant_info *g, const char (*label)[BROKER_DOMAIN_LEN],
		      size_t n, struct grantplan *p, char *why, size_t whylen)
{
	size_t first[GRANTPLAN_MAX_DONORS], len = 0, i;	/* each donor's first grant */
	unsigned int num[GRANTPLAN_MAX_DONORS], nd = 0, ndom = 0, d, e;

	p->domains[0] = 0;
	for (i = 0; i < n; i++) {
		if (!memchr(label[i], 0, BROKER_DOMAIN_LEN) || !label[i][0])
			return refuse(why, whylen, "grant %zu (donor %.*s): no failure domain", i,
				      (int)strnlen(g[i].donor_addr, sizeof(g[i].donor_addr)),
				      g[i].donor_addr);
		for (d = 0; d < nd; d++)
			if (!strncmp(g[first[d]].donor_addr, g[i].donor_addr,
				     sizeof(g[i].donor_addr)))
				break;
		if (d == nd) {
			if (nd == p->ndonors || nd == GRANTPLAN_MAX_DONORS)
				return refuse(why, whylen, "the grants name more donors than the "
					      "plan's %u", p->ndonors);
			first[nd++] = i;
		} else if (strcmp(label[first[d]], label[i])) {
			return refuse(why, whylen, "donor %.*s is in failure domain '%s' in grant "
				      "%zu and '%s' in grant %zu",
				      (int)strnlen(g[i].donor_addr, sizeof(g[i].donor_addr)),
				      g[i].donor_addr, label[first[d]], first[d], label[i], i);
		}
	}
	if (nd != p->ndonors)
		return refuse(why, whylen, "the grants name %u donors, the plan %u", nd,
			      p->ndonors);
	/* at most GRANTPLAN_MAX_DONORS one-digit numbers: always fits */
	for (d = 0; d < nd; d++) {
		for (e = 0; e < d && strcmp(label[first[e]], label[first[d]]); e++)
			;
		num[d] = e < d ? num[e] : ndom++;
		len += (size_t)snprintf(p->domains + len, sizeof(p->domains) - len, "%s%u",
					d ? "," : "", num[d]);
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

int grantplan_parse_domains(const char *text, unsigned int nd, uint8_t *dom, char *why,
			    size_t whylen)
{
	static const char sep[] = ", \t\n";
	const char *p = text;
	unsigned int got = 0, i;

	if (nd > GRANTPLAN_MAX_DONORS)
		return refuse(why, whylen, "%u donors, more than %u", nd, GRANTPLAN_MAX_DONORS);
	for (;;) {
		unsigned long v;
		char *end;

		p += strspn(p, sep);
		if (!*p)
			break;
		if (*p < '0' || *p > '9')
			return refuse(why, whylen, "domains entry %u is not a number", got);
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v > GRANTPLAN_MAX_DOMAIN)
			return refuse(why, whylen, "domains entry %u is above %u", got,
				      GRANTPLAN_MAX_DOMAIN);
		if (*end && !strchr(sep, *end))
			return refuse(why, whylen, "domains has '%c' after entry %u", *end, got);
		if (got == nd)
			return refuse(why, whylen, "domains has more entries than the %u donors",
				      nd);
		dom[got++] = (uint8_t)v;
		p = end;
	}
	if (!got) {	/* the default: every donor its own domain */
		for (i = 0; i < nd; i++)
			dom[i] = (uint8_t)i;
		return 0;
	}
	if (got != nd)
		return refuse(why, whylen, "domains has %u entries for %u donors", got, nd);
	return 0;
}

uint32_t grantplan_domain_mask(const uint8_t *dom, unsigned int nd, uint32_t holders)
{
	uint64_t in = 0;	/* domains (0..63) holding a copy */
	uint32_t m = 0;
	unsigned int i;

	for (i = 0; i < nd && i < 32; i++)
		if (holders & (UINT32_C(1) << i) && dom[i] <= GRANTPLAN_MAX_DOMAIN)
			in |= UINT64_C(1) << dom[i];
	for (i = 0; i < nd && i < 32; i++)
		if ((holders & (UINT32_C(1) << i)) ||
		    (dom[i] <= GRANTPLAN_MAX_DOMAIN && in & (UINT64_C(1) << dom[i])))
			m |= UINT32_C(1) << i;
	return m;
}

int grantplan_move_target(const uint32_t *count, unsigned int nd, uint32_t skip,
			  uint32_t crowded)
{
	/* first in a failure domain without a copy, then anywhere */
	const uint32_t pass[2] = { skip | crowded, skip };

	for (unsigned int k = 0; k < 2; k++) {
		int best = -1;

		for (unsigned int i = 0; i < nd && i < 32; i++)
			if (!(pass[k] & (UINT32_C(1) << i)) &&
			    (best < 0 || count[i] < count[best]))
				best = (int)i;
		if (best >= 0)
			return best;
	}
	return -1;
}

int grantplan_domain_for(const uint8_t *dom, const char (*labels)[BROKER_DOMAIN_LEN],
			 unsigned int nd, const char *label, unsigned int max_number)
{
	unsigned int i, next = 0;

	if (!label[0] || !memchr(label, 0, BROKER_DOMAIN_LEN))
		return -1;
	for (i = 0; i < nd && i < GRANTPLAN_MAX_DONORS; i++) {
		if (labels[i][0] && !strncmp(labels[i], label, BROKER_DOMAIN_LEN))
			return dom[i];
		if (dom[i] + 1U > next)
			next = dom[i] + 1U;
	}
	return next <= max_number ? (int)next : -1;
}
