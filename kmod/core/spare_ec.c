// SPDX-License-Identifier: GPL-2.0
/*
 * Erasure coding of a 4 KiB page: the redundancy option and the check of
 * a device's settings against it (spare_ec.h). The codec itself is
 * spare_ec_code.c, apart so that spare.ko links raid6_pq and xor only
 * once its I/O path codes pages (Documentation/erasure-coding.md).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "spare_ec.h"

/* One decimal digit at *s, or -1. */
static int digit(const char *s, const char *end)
{
	return s < end && *s >= '0' && *s <= '9' ? *s - '0' : -1;
}

int spare_ec_parse(const char *s, size_t len, struct spare_ec_geom *g,
		   const char **why)
{
	const char *end = s + len;
	int k, r;

	if (len && end[-1] == '\n')
		end--;
	if (end - s == 4 && !memcmp(s, "none", 4)) {
		g->k = 0;
		g->r = 0;
		return 0;
	}
	/* "ec:" K "+" R, one digit each: the only values are single digits. */
	k = end - s == 6 ? digit(s + 3, end) : -1;
	r = end - s == 6 ? digit(s + 5, end) : -1;
	if (k < 0 || r < 0 || memcmp(s, "ec:", 3) || s[4] != '+') {
		*why = "not 'none' or 'ec:K+R' (e.g. ec:4+2)";
		return -EINVAL;
	}
	if (k != 2 && k != 4 && k != 8) {
		*why = "K (data splits per page) must be 2, 4 or 8";
		return -EINVAL;
	}
	if (r != 1 && r != 2) {
		*why = "R (parity splits per page) must be 1 or 2";
		return -EINVAL;
	}
	g->k = k;
	g->r = r;
	return 0;
}

int spare_ec_format(const struct spare_ec_geom *g, char *buf, size_t size)
{
	if (!spare_ec_on(g))
		return snprintf(buf, size, "none");
	return snprintf(buf, size, "ec:%u+%u", g->k, g->r);
}

int spare_ec_check(const struct spare_ec_geom *g, u32 replicas, u32 nr_donors,
		   u32 nr_domains, char *why, size_t size)
{
	u32 n = spare_ec_splits(g);

	if (!spare_ec_on(g))
		return 0;
	if (!spare_ec_geom_valid(g)) {
		snprintf(why, size, "redundancy ec:%u+%u is not a valid geometry",
			 g->k, g->r);
		return -EINVAL;
	}
	if (replicas > 1) {
		snprintf(why, size,
			 "redundancy=ec:%u+%u and replicas=%u both set: a page is either copied or split, set replicas=1",
			 g->k, g->r, replicas);
		return -EINVAL;
	}
	if (n > nr_donors) {
		snprintf(why, size,
			 "redundancy=ec:%u+%u needs %u distinct donors, the device has %u (%u missing)",
			 g->k, g->r, n, nr_donors, n - nr_donors);
		return -EINVAL;
	}
	/* donors all in one domain: distinct donors are what can be had */
	if (nr_domains > 1 && n > nr_domains) {
		snprintf(why, size,
			 "redundancy=ec:%u+%u needs %u distinct failure domains, the device's donors are in %u (%u missing)",
			 g->k, g->r, n, nr_domains, n - nr_domains);
		return -EINVAL;
	}
	return 0;
}
