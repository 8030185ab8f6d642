// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sched-bench SUBCOMMAND --out DIR [options]
 *
 * Harnesses for the part-B policies of libspare-sched. Each writes raw CSV
 * and a summary JSON under DIR and prints the summary on stdout. The clock
 * is read here, never inside the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: spare-sched-bench mip-decide|mip-sim|dike|flowcon|specon --out DIR [--seeds N]\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return 2;
	}
	if (!strcmp(argv[1], "mip-decide") || !strcmp(argv[1], "mip-sim"))
		return bench_mip(argc, argv);
	if (!strcmp(argv[1], "dike"))
		return bench_dike(argc, argv);
	if (!strcmp(argv[1], "flowcon"))
		return bench_flowcon(argc, argv);
	if (!strcmp(argv[1], "specon"))
		return bench_specon(argc, argv);
	usage();
	return 2;
}
