#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The slab pool before (BASE, default 856330e: session 45's pool.c) and
# after (this tree), side by side: both built with the same flags, run in
# turns, 5 rounds each, for 64 and 4096 slabs. Raw lines on stdout.
#   tools/spared-ready/run.sh > Documentation/perf/spared-ready/results.txt
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASE:-856330e}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir "$W/old"
git -C "$TOP" show "$BASE:userspace/spared/pool.c" > "$W/old/pool.c"
git -C "$TOP" show "$BASE:userspace/spared/pool.h" > "$W/old/pool.h"
CFLAGS="-std=gnu11 -O2 -Wall -Wextra -Werror"
cc $CFLAGS -DOLD_POOL -I"$W/old" -o "$W/bench-old" "$TOP/tools/spared-ready/bench.c" "$W/old/pool.c"
cc $CFLAGS -I"$TOP/userspace/spared" -o "$W/bench-new" "$TOP/tools/spared-ready/bench.c" "$TOP/userspace/spared/pool.c"
echo "# base $BASE vs $(git -C "$TOP" rev-parse --short HEAD)$(git -C "$TOP" diff --quiet -- userspace/spared/pool.c || echo +dirty); $(date -u +%FT%TZ); $(nproc) cpus; loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# tree kind slabs ns"
for round in 1 2 3 4 5; do
	for n in 64 4096; do
		for tree in old new; do
			"$W/bench-$tree" "$n" 100000 | sed "s/^/$tree /"
		done
	done
done
