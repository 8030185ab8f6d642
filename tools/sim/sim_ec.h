/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-sim ecsim: data loss under correlated donor failures for
 * erasure-coded stripes of K+R splits, random placement against coding
 * groups (userspace/sched/ecgroup.h). Documentation/ec-placement.md.
 *
 * The cluster: n donors in `racks` failure domains of near-equal size
 * (donor i is in rack i mod racks). A stripe's K+R splits are on K+R
 * donors in distinct racks.
 *   random placement: each stripe on K+R racks drawn uniformly, a donor
 *                     drawn uniformly in each (every such set is used);
 *   group placement:  each stripe on one of the groups ec_groups_build()
 *                     makes of the cluster, the stripes spread evenly.
 * Failure models: f donors drawn uniformly fail at once; or one rack
 * (drawn uniformly) fails with x donors drawn uniformly from the rest.
 *
 * Exact where it is a product of small polynomials (everything about
 * groups, and the expected fraction lost for both); Monte Carlo over the
 * failure sets (fixed seed, 95% confidence interval) for random
 * placement's probability of any loss, whose terms depend on how the
 * failed donors spread over racks.
 */
#ifndef SPARE_SIM_EC_H
#define SPARE_SIM_EC_H

#include <stddef.h>
#include <stdint.h>

struct sim_ec_cluster {
	unsigned int	donors;		/* 1 .. SIM_EC_MAX_DONORS */
	unsigned int	racks;		/* 1 .. donors */
	unsigned int	k, r;		/* K + R <= EC_GROUP_MAX_WIDTH */
	uint64_t	stripes;	/* stripes stored in the cluster (>= groups) */
	/* built by sim_ec_init() */
	uint32_t	*groups;	/* [ngroups * (k + r)] donor indices */
	size_t		ngroups;
};

#define SIM_EC_MAX_DONORS	100000
#define SIM_EC_MAX_FAIL		16

enum sim_ec_model {
	SIM_EC_RANDOM_F,	/* f donors of n */
	SIM_EC_RACK_PLUS,	/* a whole rack and f donors of the rest */
};

struct sim_ec_point {
	enum sim_ec_model model;
	unsigned int	f;
	/* exact */
	double		p_loss_group;	/* P(some stripe loses more than R splits) */
	double		frac_group;	/* expected fraction of stripes lost */
	double		frac_random;
	/* Monte Carlo, mean and 95% half-width */
	double		p_loss_random, p_loss_random_ci;	/* with c->stripes stripes */
	double		p_loss_allsets, p_loss_allsets_ci;	/* every rack-distinct set used */
	uint64_t	samples;
};

/* Build the groups. 0, -EINVAL (a bad field) or -ENOMEM. */
int sim_ec_init(struct sim_ec_cluster *c);
void sim_ec_free(struct sim_ec_cluster *c);

/* Rack of donor i, and the donors in rack q. */
static inline unsigned int sim_ec_rack_of(const struct sim_ec_cluster *c, unsigned int i)
{
	return i % c->racks;
}

unsigned int sim_ec_rack_size(const struct sim_ec_cluster *c, unsigned int q);

/*
 * Exact: with the donors flagged in failed[] down (nfailed of them) and
 * @x more drawn uniformly from the others, P(no group loses more than R),
 * and the expected fraction of groups that do.
 */
double sim_ec_group_no_loss(const struct sim_ec_cluster *c, const uint8_t *failed,
			    unsigned int nfailed, unsigned int x);
double sim_ec_group_frac(const struct sim_ec_cluster *c, const uint8_t *failed,
			 unsigned int nfailed, unsigned int x);

/*
 * Exact: the probability that a randomly placed stripe has more than R of
 * its splits on donors in failed[] (the fraction of random stripes lost
 * for this failure set).
 */
double sim_ec_random_q(const struct sim_ec_cluster *c, const uint8_t *failed);

/*
 * One point: model, f, @samples Monte Carlo draws from @seed. 0 or
 * -EINVAL (f too large for the model) / -ENOMEM.
 */
int sim_ec_point(const struct sim_ec_cluster *c, enum sim_ec_model model, unsigned int f,
		 uint64_t samples, uint64_t seed, struct sim_ec_point *out);

#endif /* SPARE_SIM_EC_H */
