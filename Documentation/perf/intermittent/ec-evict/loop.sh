#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# client/ec-evict@kmod on 6.1, N rounds: each round once on the tree
# before the fix (OLD_TOP) and once on this one, through the machine's
# guest slots; each guest's log goes to raw/, a line per run to
# summary.txt (README.md beside this says what the lines mean).
#
# usage, from this tree's top after make -j2 and make kmod:
#   Documentation/perf/intermittent/ec-evict/loop.sh N OLD_TOP
# OLD_TOP: a clone at the commit before the fix with its spare.ko built
# for 6.1 and this tree's programs, e.g.
#   top=$PWD; git clone -q --shared . /tmp/old && cd /tmp/old &&
#   git checkout -q 9cb5dda && mkdir build &&
#   ln -s "$top/build/kernels" build/kernels && ln -s "$top/build/bin" build/bin &&
#   make kmod KVER=6.1.0-57-amd64; cd "$top"
# (ec-evict@kmod runs no program the fix changed.)
set -u
N=$1
OLD_TOP=$2
KVER=6.1.0-57-amd64
LOGNAME_=client-ec-evict@kmod-$KVER.log
HERE=$(cd "$(dirname "$0")" && pwd)
NEW_TOP=$(cd "$HERE/../../../.." && pwd)
VMRUN=${VMRUN:-/work/prompts/s45/vmrun}
mkdir -p "$HERE/raw"
for i in $(seq 1 "$N"); do
	for which in before after; do
		top=$NEW_TOP
		[ $which = before ] && top=$OLD_TOP
		(cd "$top" && $VMRUN scripts/vm/run -k $KVER -b kmod tests/vm/client/ec-evict.sh >/dev/null 2>&1)
		rc=$?
		out=$HERE/raw/loop$i-$which-fix.log
		cp "$top/build/vm/logs/$LOGNAME_" "$out"
		rebuilt=$(sed -n 's/^PASS: moved by copy in .*copied, \([0-9]*\) rebuilt.*/\1/p' "$out")
		fail=$(grep -m1 '^FAIL' "$out")
		eio=$(grep -m1 -o 'page [0-9]*: fewer than.*' "$out")
		echo "$(date -u +%FT%TZ) round $i $which the fix: rc=$rc, split pages rebuilt after the move: ${rebuilt:--}; ${fail:-every step passed}${eio:+ ($eio)}" |
			tee -a "$HERE/summary.txt"
	done
done
