// SPDX-License-Identifier: GPL-2.0
/*
 * Placement of an erasure-coded device's split slabs (spare_ec_place.h).
 */
#include <linux/errno.h>
#include <linux/kernel.h>

#include "spare_ec_place.h"

u32 spare_ec_nr_domains(const u16 *domain, u32 n)
{
	u32 i, j, count = 0;

	if (!domain)
		return 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && domain[j] != domain[i]; j++)
			;
		count += j == i;
	}
	return count;
}

/* Whether donor @d may join the splits @taken[0..@n) of one group. */
static bool fits(u16 d, const u16 *taken, u32 n, const u16 *domain,
		 bool by_domain)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (taken[i] == d || (by_domain && domain[taken[i]] == domain[d]))
			return false;
	return true;
}

int spare_ec_place(const struct spare_ec_geom *g, u32 nr_groups,
		   u32 nr_donors, const u16 *domain, u16 *out)
{
	u32 n = spare_ec_splits(g), grp, i;
	bool by_domain = spare_ec_nr_domains(domain, nr_donors) > 1;

	if (!spare_ec_geom_valid(g) || !nr_donors)
		return -EINVAL;
	for (grp = 0; grp < nr_groups; grp++) {
		u16 *taken = out + (size_t)grp * n;
		u32 got = 0;

		for (i = 0; i < nr_donors && got < n; i++) {
			u16 d = (u16)((grp + i) % nr_donors);

			if (fits(d, taken, got, domain, by_domain))
				taken[got++] = d;
		}
		if (got < n)
			return -EINVAL;
	}
	return 0;
}

int spare_ec_place_check(const struct spare_ec_geom *g, u32 nr_groups,
			 u32 nr_donors, const u16 *domain, const u16 *place,
			 u32 n, u32 *bad)
{
	u32 splits = spare_ec_splits(g), grp, j;
	bool by_domain = spare_ec_nr_domains(domain, nr_donors) > 1;

	*bad = U32_MAX;
	if (!spare_ec_geom_valid(g) || n != nr_groups * splits)
		return -EINVAL;
	for (grp = 0; grp < nr_groups; grp++) {
		const u16 *p = place + (size_t)grp * splits;

		for (j = 0; j < splits; j++)
			if (p[j] >= nr_donors ||
			    !fits(p[j], p, j, domain, by_domain)) {
				*bad = grp;
				return -EINVAL;
			}
	}
	return 0;
}

/*
 * Whether donor @d may take split @j of a group on @group: it holds no
 * other split of it, nor shares a domain with one (@by_domain), the
 * splits of @gone aside.
 */
static bool rehome_fits(u32 d, const u32 *group, u32 n, u32 j, u16 gone,
			const u16 *domain, u32 nr_donors, bool by_domain)
{
	u32 k;

	for (k = 0; k < n; k++) {
		u32 o = group[k];

		if (k == j || (gone & (1U << k)) || o >= nr_donors)
			continue;
		if (o == d || (by_domain && domain[o] == domain[d]))
			return false;
	}
	return true;
}

int spare_ec_rehome_pick(const struct spare_ec_geom *g, u32 nr_donors,
			 const u16 *domain, const u32 *group, u32 j, u16 gone,
			 u32 ok, const u32 *load)
{
	u32 n = spare_ec_splits(g), d;
	bool by_domain;
	int best = -ENOENT;

	if (!spare_ec_geom_valid(g) || j >= n || nr_donors > 32)
		return -EINVAL;
	by_domain = spare_ec_nr_domains(domain, nr_donors) > 1;
	/* a donor back keeps its split: the group stays as it was placed */
	d = group[j];
	if (d < nr_donors && (ok & (1U << d)) &&
	    rehome_fits(d, group, n, j, gone, domain, nr_donors, by_domain))
		return (int)d;
	for (d = 0; d < nr_donors; d++) {
		if (!(ok & (1U << d)) ||
		    !rehome_fits(d, group, n, j, gone, domain, nr_donors,
				 by_domain))
			continue;
		if (best < 0 || (load && load[d] < load[best]))
			best = (int)d;
	}
	return best;
}

int spare_ec_rehome_pick_granted(const struct spare_ec_geom *g, u32 nr_donors,
				 const u16 *domain, const u32 *group, u32 j,
				 u16 gone, u32 ok, const u32 *held,
				 const u32 *cover, bool *roomy)
{
	u32 granted = 0, room = 0, d;
	int t;

	*roomy = true;
	if (!cover)
		return spare_ec_rehome_pick(g, nr_donors, domain, group, j,
					    gone, ok, held);
	if (!held || nr_donors > 32)
		return -EINVAL;
	for (d = 0; d < nr_donors; d++) {
		if (cover[d])
			granted |= 1U << d;
		if (cover[d] > held[d])
			room |= 1U << d;
	}
	t = spare_ec_rehome_pick(g, nr_donors, domain, group, j, gone,
				 ok & room, held);
	if (t != -ENOENT)
		return t;
	*roomy = false;
	t = spare_ec_rehome_pick(g, nr_donors, domain, group, j, gone,
				 ok & granted, held);
	if (t == -ENOENT &&
	    spare_ec_rehome_pick(g, nr_donors, domain, group, j, gone, ok,
				 held) >= 0)
		return -ENOSPC;
	return t;
}

bool spare_ec_wait_donor(u64 *waiting, int pick, bool granted, u64 since)
{
	bool news;

	if (!granted || (pick != -ENOENT && pick != -ENOSPC)) {
		*waiting = 0;
		return false;
	}
	news = *waiting != since;
	*waiting = since;
	return news;
}

int spare_moving_line(char *buf, size_t len, u32 slab, u32 donor,
		      const char *addr)
{
	return snprintf(buf, len, "%u %u %u %s\n", SPARE_MOVING_VERSION, slab,
			donor, addr);
}
