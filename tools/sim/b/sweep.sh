#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The FlowCon and SpeCon sweeps of Documentation/perf-sched-policies.md:
# runs spare-sched-bench for each setting and collects its JSON into
# $D/flowcon/sweep.csv, $D/specon/sweep.csv and (SpeCon's cool-down against
# ping-pong) $D/specon/cooldown.csv.
#   tools/sim/b/sweep.sh [BENCH [D]]
set -eu
B=${1:-build/bin/spare-sched-bench}
D=${2:-Documentation/perf/sched}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

echo "alpha,beta,k,seeds_meeting_target,mean_best_reduction,max_best_reduction,max_makespan_change,mean_moved_cpu_fraction" \
	>"$T/flowcon.csv"
for a in 0.1 0.3 0.5 1.0; do
	for b in 0.5 0.8; do
		mkdir -p "$T/f"
		"$B" flowcon --out "$T/f" --alpha $a --beta $b >/dev/null
		python3 - "$T/f/flowcon.json" >>"$T/flowcon.csv" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["seeds"]
best = [x["best_jct_reduction"] for x in s]
print("%g,%g,%d,%d,%.4f,%.4f,%.4f,%.4f" % (
    j["alpha"], j["beta"], j["k"], j["seeds_meeting_target"],
    sum(best) / len(best), max(best),
    max(x["makespan_change"] for x in s),
    sum(x["moved_cpu_fraction"] for x in s) / len(s)))
EOF
	done
done

echo "interval_s,move_cost_s,alpha,seeds,mean_makespan_reduction,seeds_meeting_target" \
	>"$T/specon.csv"
for i in 10 30; do
	for m in 0 5 30 120; do
		for a in 0.1 0.01; do
			mkdir -p "$T/s"
			"$B" specon --out "$T/s" --seeds 100 --interval $i \
				--move-cost $m --alpha $a >/dev/null
			python3 - "$T/s/specon.json" >>"$T/specon.csv" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print("%g,%g,%g,%d,%.4f,%d" % (j["interval_s"], j["move_cost_s"], j["alpha"],
    j["seeds"], j["mean_makespan_reduction"], j["seeds_meeting_target"]))
EOF
		done
	done
done

echo "interval_s,cooldown_s,seeds,mean_makespan_reduction,seeds_meeting_target,moves" \
	>"$T/cooldown.csv"
for i in 10 30; do
	for c in 0 30 60 120 300 600 1e9; do
		mkdir -p "$T/s"
		"$B" specon --out "$T/s" --seeds 100 --interval $i --cooldown $c >/dev/null
		python3 - "$T/s/specon.json" "$T/s/specon.csv" >>"$T/cooldown.csv" <<'EOF'
import csv, json, sys
j = json.load(open(sys.argv[1]))
moves = sum(int(r["moves"]) for r in csv.DictReader(open(sys.argv[2])))
print("%g,%g,%d,%.4f,%d,%d" % (j["interval_s"], j["cooldown_s"], j["seeds"],
    j["mean_makespan_reduction"], j["seeds_meeting_target"], moves))
EOF
	done
done
cp "$T/flowcon.csv" "$D/flowcon/sweep.csv"
cp "$T/specon.csv" "$D/specon/sweep.csv"
cp "$T/cooldown.csv" "$D/specon/cooldown.csv"
