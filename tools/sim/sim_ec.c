// SPDX-License-Identifier: GPL-2.0
/* spare-sim ecsim: random against group placement of stripes (sim_ec.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ecgroup.h"
#include "sim_ec.h"
#include "spare_rng.h"

#define W(c)	((c)->k + (c)->r)

/* C(n, k) as a long double: exact below 2^64 (the products stay integers). */
static long double binom(unsigned int n, unsigned int k)
{
	long double v = 1;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (unsigned int i = 1; i <= k; i++)
		v = v * (n - k + i) / i;
	return v;
}

unsigned int sim_ec_rack_size(const struct sim_ec_cluster *c, unsigned int q)
{
	return c->donors / c->racks + (q < c->donors % c->racks);
}

int sim_ec_init(struct sim_ec_cluster *c)
{
	unsigned int w = W(c);
	struct ec_member *m;
	uint32_t *scratch;
	long g;

	c->groups = NULL;
	c->ngroups = 0;
	if (!c->donors || c->donors > SIM_EC_MAX_DONORS || !c->racks || c->racks > c->donors ||
	    !c->k || !c->r || w > EC_GROUP_MAX_WIDTH || c->racks < w)
		return -EINVAL;
	m = calloc(c->donors, sizeof(*m));
	scratch = calloc(ec_groups_scratch(c->donors), sizeof(*scratch));
	c->groups = calloc(c->donors, sizeof(*c->groups));
	if (!m || !scratch || !c->groups) {
		g = -ENOMEM;
		goto out;
	}
	for (unsigned int i = 0; i < c->donors; i++) {
		m[i].key = i;
		m[i].domain = sim_ec_rack_of(c, i);
	}
	g = ec_groups_build(m, c->donors, w, scratch, c->groups);
	if (g > 0 && c->stripes < (uint64_t)g)
		g = -EINVAL;	/* a group without a stripe cannot lose one */
	if (g > 0)
		c->ngroups = (size_t)g;
	else if (!g)
		g = -EINVAL;
out:
	free(m);
	free(scratch);
	if (g < 0) {
		free(c->groups);
		c->groups = NULL;
		return (int)g;
	}
	return 0;
}

void sim_ec_free(struct sim_ec_cluster *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}

/* Failed members of group g. */
static unsigned int group_down(const struct sim_ec_cluster *c, size_t g, const uint8_t *failed)
{
	unsigned int down = 0;

	for (unsigned int j = 0; j < W(c); j++)
		down += failed[c->groups[g * W(c) + j]] != 0;
	return down;
}

/* p[0..x] *= sum_{j <= top} C(n, j) t^j, truncated at degree x. */
static void poly_mul(long double *p, unsigned int x, unsigned int n, unsigned int top)
{
	long double q[SIM_EC_MAX_FAIL + 1] = { 0 };

	for (unsigned int a = 0; a <= x; a++) {
		if (p[a] == 0)
			continue;
		for (unsigned int j = 0; j <= top && j <= n && a + j <= x; j++)
			q[a + j] += p[a] * binom(n, j);
	}
	memcpy(p, q, (x + 1) * sizeof(*p));
}

double sim_ec_group_no_loss(const struct sim_ec_cluster *c, const uint8_t *failed,
			    unsigned int nfailed, unsigned int x)
{
	long double p[SIM_EC_MAX_FAIL + 1] = { 1 };
	unsigned int alive_in_groups = 0, rest;

	if (x > SIM_EC_MAX_FAIL || nfailed + x > c->donors)
		return NAN;
	for (size_t g = 0; g < c->ngroups; g++) {
		unsigned int down = group_down(c, g, failed);

		if (down > c->r)
			return 0;
		alive_in_groups += W(c) - down;
		poly_mul(p, x, W(c) - down, c->r - down);
	}
	rest = c->donors - nfailed - alive_in_groups;
	poly_mul(p, x, rest, x);
	return (double)(p[x] / binom(c->donors - nfailed, x));
}

/* P(X >= t) for X ~ hypergeometric: x drawn of n, of which m are marked. */
static long double hg_tail(unsigned int n, unsigned int m, unsigned int x, unsigned int t)
{
	long double s = 0;

	for (unsigned int j = t; j <= m && j <= x; j++)
		s += binom(m, j) * binom(n - m, x - j);
	return s / binom(n, x);
}

double sim_ec_group_frac(const struct sim_ec_cluster *c, const uint8_t *failed,
			 unsigned int nfailed, unsigned int x)
{
	long double lost = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		unsigned int down = group_down(c, g, failed);

		if (down > c->r)
			lost += 1;
		else
			lost += hg_tail(c->donors - nfailed, W(c) - down, x, c->r + 1 - down);
	}
	return (double)(lost / c->ngroups);
}

double sim_ec_random_q(const struct sim_ec_cluster *c, const uint8_t *failed)
{
	long double dp[EC_GROUP_MAX_WIDTH + 1][EC_GROUP_MAX_WIDTH + 1] = { { 1 } };
	unsigned int *down = calloc(c->racks, sizeof(*down));
	unsigned int w = W(c), clean = 0;
	long double q = 0;

	if (!down)
		return NAN;
	for (unsigned int i = 0; i < c->donors; i++)
		down[sim_ec_rack_of(c, i)] += failed[i] != 0;
	/* dp[n][j]: of n racks chosen among the racks with failures, j failed splits */
	for (unsigned int rk = 0; rk < c->racks; rk++) {
		long double p = (long double)down[rk] / sim_ec_rack_size(c, rk);

		if (!down[rk]) {
			clean++;
			continue;
		}
		for (int n = (int)w - 1; n >= 0; n--)
			for (int j = n; j >= 0; j--) {
				dp[n + 1][j + 1] += dp[n][j] * p;
				dp[n + 1][j] += dp[n][j] * (1 - p);
			}
	}
	free(down);
	for (unsigned int n = 0; n <= w; n++)
		for (unsigned int j = c->r + 1; j <= n; j++)
			q += dp[n][j] * binom(clean, w - n);
	return (double)(q / binom(c->racks, w));
}

/* Mark x donors drawn uniformly among those not yet failed. */
static void draw(const struct sim_ec_cluster *c, uint8_t *failed, unsigned int x,
		 struct spare_rng *rng)
{
	while (x) {
		unsigned int i = (unsigned int)spare_rng_below(rng, c->donors);

		if (!failed[i]) {
			failed[i] = 1;
			x--;
		}
	}
}

static void fail_rack(const struct sim_ec_cluster *c, uint8_t *failed, unsigned int q)
{
	for (unsigned int i = q; i < c->donors; i += c->racks)
		failed[i] = 1;
}

int sim_ec_point(const struct sim_ec_cluster *c, enum sim_ec_model model, unsigned int f,
		 uint64_t samples, uint64_t seed, struct sim_ec_point *out)
{
	struct spare_rng rng = { .s = seed };
	long double s1 = 0, s2 = 0, a1 = 0;
	unsigned int w = W(c);
	uint8_t *failed;

	memset(out, 0, sizeof(*out));
	out->model = model;
	out->f = f;
	out->samples = samples;
	if (!samples || f > SIM_EC_MAX_FAIL || f > c->donors ||
	    (model == SIM_EC_RACK_PLUS && f + sim_ec_rack_size(c, 0) > c->donors))
		return -EINVAL;
	failed = calloc(c->donors, 1);
	if (!failed)
		return -ENOMEM;
	if (model == SIM_EC_RANDOM_F) {
		out->p_loss_group = 1 - sim_ec_group_no_loss(c, failed, 0, f);
		out->frac_group = sim_ec_group_frac(c, failed, 0, f);
		out->frac_random = (double)hg_tail(c->donors, w, f, c->r + 1);
	} else {
		long double pl = 0, fg = 0, fr = 0;

		for (unsigned int q = 0; q < c->racks; q++) {
			unsigned int s = sim_ec_rack_size(c, q), rest = c->donors - s;

			memset(failed, 0, c->donors);
			fail_rack(c, failed, q);
			pl += 1 - sim_ec_group_no_loss(c, failed, s, f);
			fg += sim_ec_group_frac(c, failed, s, f);
			/* a random stripe uses rack q with probability w / racks */
			fr += (long double)w / c->racks * hg_tail(rest, w - 1, f, c->r) +
			      (1 - (long double)w / c->racks) * hg_tail(rest, w, f, c->r + 1);
		}
		out->p_loss_group = (double)(pl / c->racks);
		out->frac_group = (double)(fg / c->racks);
		out->frac_random = (double)(fr / c->racks);
	}
	for (uint64_t n = 0; n < samples; n++) {
		long double q, p;

		memset(failed, 0, c->donors);
		if (model == SIM_EC_RACK_PLUS)
			fail_rack(c, failed, (unsigned int)spare_rng_below(&rng, c->racks));
		draw(c, failed, f, &rng);
		q = sim_ec_random_q(c, failed);
		/* P(some of the stripes, placed independently, is lost) */
		p = q >= 1 ? 1 : -expm1l((long double)c->stripes * log1pl(-q));
		s1 += p;
		s2 += p * p;
		a1 += q > 0;
	}
	free(failed);
	out->p_loss_random = (double)(s1 / samples);
	out->p_loss_random_ci = 1.96 * sqrt(fmax(0, (double)(s2 / samples - (s1 / samples) *
							      (s1 / samples))) / (double)samples);
	out->p_loss_allsets = (double)(a1 / samples);
	/* a1 counts 0/1 outcomes: the variance is p (1 - p) */
	out->p_loss_allsets_ci = 1.96 * sqrt(out->p_loss_allsets * (1 - out->p_loss_allsets) /
					     (double)samples);
	return 0;
}
