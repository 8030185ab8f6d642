/* SPDX-License-Identifier: GPL-2.0 */
/* Nine CNN tensor profiles for Dike (see tools/sim/b/cnn_profiles.py). */
#ifndef SPARE_DIKE_PROFILES_H
#define SPARE_DIKE_PROFILES_H

#include "dike.h"

#define DIKE_NPROFILES 9

struct dike_profile {
	const char *name;
	const struct dike_layer *layers;
	unsigned int nlayers;
	double params;			/* sum over layers */
	double flops_per_sample;	/* 6 x forward MACs */
};

extern const struct dike_profile dike_profiles[DIKE_NPROFILES];

#endif
