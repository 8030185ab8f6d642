#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SpeCon's figures from spare-sim: spare-sched-bench specon --export writes
# each seed's jobs as a spare-sim trace and loss file; spare-sim specon runs
# them without migration and with SpeCon (4 hosts x 8 cores, 5 s move cost);
# per seed, the makespans, mean JCTs and moves go to $D/sim.csv (the
# harness's own figures for the same seeds are in $D/../specon.csv).
#   tools/sim/b/specon_sim.sh [BIN [D [SEEDS]]]
set -eu
B=${1:-build/bin}
D=${2:-Documentation/perf/sched/specon/sim}
N=${3:-10}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D" "$T/h"
"$B/spare-sched-bench" specon --out "$T/h" --seeds "$N" --export "$D" >/dev/null
: >"$T/sim.csv"
for t in "$D"/trace-*.csv; do
	s=${t##*/trace-}
	s=${s%.csv}
	for sc in static specon; do
		"$B/spare-sim" specon --trace "$t" --loss "$D/loss-$s.csv" --hosts 4 \
			--cores-per-host 8 --schedule $sc --move-cost 5 \
			--out "$D/$sc-$s" >/dev/null
	done
	python3 - "$D" "$s" >>"$T/sim.csv" <<'PY'
import json, sys
d, s = sys.argv[1], sys.argv[2]
a = json.load(open("%s/static-%s/summary.json" % (d, s)))
b = json.load(open("%s/specon-%s/summary.json" % (d, s)))
print("%s,%.1f,%.1f,%.4f,%.1f,%.1f,%d" % (
    s, a["makespan"], b["makespan"], 1 - b["makespan"] / a["makespan"],
    a["avg_jct"], b["avg_jct"], b["moves"]))
PY
done
{
	echo "seed,makespan_static_s,makespan_specon_s,reduction,mean_jct_static_s,mean_jct_specon_s,moves"
	sort -t, -k1,1n "$T/sim.csv"
} >"$D/sim.csv"
cat "$D/sim.csv"
