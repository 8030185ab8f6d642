#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two lanes of refill-loop.sh (RUNS boots each, default 2) beside two
# niced busy loops; raw consoles to OUT (default build/refill-race).
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${OUT:-$TOP/build/refill-race} RUNS=${RUNS:-2}
mkdir -p "$OUT"
for i in 1 2; do (exec nice -n 10 bash -c 'while :; do :; done') & done
hogs=$(jobs -p)
lane() {
	for i in $(seq 1 "$RUNS"); do
		"$TOP/scripts/vm/run" -k 6.12.117+deb12-amd64 -t 1000 \
			tests/vm/bench/refill-loop.sh >"$OUT/loop-$1-$i.out" 2>&1
		echo "lane $1 run $i rc=$?"
	done
}
lane a & a=$!
sleep 15
lane b
wait "$a"
kill $hogs
grep -ho 'in [0-9.]* s$' "$OUT"/loop-*.out | sort -k2 -n | uniq -c
