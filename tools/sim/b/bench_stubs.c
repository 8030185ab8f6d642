// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "bench.h"
int bench_specon(int argc, char **argv) { return 2; }
