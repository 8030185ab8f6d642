#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# spare-sim alone: fjf against dlas-gpu, cost-free and told the rig's costs
# at scale 10 (--start-cost 7 --requeue-delay 50 --decision-interval 10),
# queue limits 500,2000, on
#  - Philly-like traces from spare-sim gen alone (its GPU mix, durations
#    log-uniform 1 min-1 h): 30 jobs, g8 and g16, load 0.8 and 1.2, seeds 1-4;
#  - the premise traces of tests/sched/hol-trace: N short jobs from spare-sim
#    gen (1-10 min) and two 16-GPU jobs of L s every L s, for (N, L) =
#    (60, 1800), (45, 1200), (40, 1500), seeds 1-5; hol_job.csv is (40, 1500)
#    seed 1.
# One line per trace: average JCT and makespan of each run, trace seconds.
#
#   Documentation/perf/tiresias-live/hol-g16/sweep.sh > sweep.txt   (from the top)
set -euo pipefail
SIM=${SPARE_SIM:-build/bin/spare-sim}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

runs() {	# runs TRACE SPEC LABEL
	local line="$3" sch c r
	for sch in fjf dlas-gpu; do
		for c in free costs; do
			if [ $c = free ]; then x=(); else x=(--start-cost 7 --requeue-delay 50 --decision-interval 10); fi
			r=$("$SIM" --cluster-spec "tests/sched/specs/$2.csv" --trace "$1" --schedule $sch \
				--queue-limits 500,2000 "${x[@]}" --out "$W/o")
			line="$line $sch/$c $(sed 's/.*average JCT \([0-9.]*\) s, makespan \([0-9]*\) s/\1 m\2/' <<<"$r")"
		done
	done
	echo "$line"
}

for sp in g8 g16; do
	g=${sp#g}
	for load in 0.8 1.2; do
		for seed in 1 2 3 4; do
			"$SIM" gen --jobs 30 --gpus "$g" --load $load --seed $seed \
				--dur-min 60 --dur-max 3600 --out "$W/t.csv"
			runs "$W/t.csv" $sp "philly-like 30 jobs $sp load $load seed $seed:"
		done
	done
done
for v in "60 1800" "45 1200" "40 1500"; do
	set -- $v
	for seed in 1 2 3 4 5; do
		"$SIM" gen --jobs "$1" --gpus 16 --load 0.8 --seed $seed \
			--dur-min 60 --dur-max 600 --out "$W/s.csv"
		tests/sched/hol-trace --trace "$W/s.csv" --gpus 16 --long 2 --long-dur "$2" \
			--every "$2" >"$W/t.csv"
		runs "$W/t.csv" g16 "hol $1 short + 2 x 16 GPUs x $2 s, g16, seed $seed:"
	done
done
