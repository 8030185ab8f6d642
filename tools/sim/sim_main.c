// SPDX-License-Identifier: GPL-2.0
/* spare-sim: trace-driven simulator for libspare-sched (see sim_cli.c). */
#include "sim.h"

int main(int argc, char **argv)
{
	return spare_sim_main(argc, argv);
}
