#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# FlowCon's figures from spare-sim: spare-sched-bench flowcon --export writes
# each seed's jobs as a spare-sim trace and loss file; spare-sim flowcon runs
# them under a fair share and under FlowCon; per seed, the best job's JCT
# reduction and the makespan change go to $D/sim.csv (the harness's own
# figures for the same seeds are in $D/../flowcon.json). The same seeds with
# a report interval of 5, 10, 30 and 60 s go to $D/interval.csv.
#   tools/sim/b/flowcon_sim.sh [BIN [D]]
set -eu
B=${1:-build/bin}
D=${2:-Documentation/perf/sched/flowcon/sim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D" "$T/h"
"$B/spare-sched-bench" flowcon --out "$T/h" --export "$D" >/dev/null
: >"$T/sim.csv"
for t in "$D"/trace-*.csv; do
	s=${t##*/trace-}
	s=${s%.csv}
	for sc in fair flowcon; do
		"$B/spare-sim" flowcon --trace "$t" --loss "$D/loss-$s.csv" --cores 16 \
			--schedule $sc --out "$D/$sc-$s" >/dev/null
	done
	python3 - "$D" "$s" >>"$T/sim.csv" <<'PY'
import csv, json, sys
d, s = sys.argv[1], sys.argv[2]
jct = {}
for sc in ("fair", "flowcon"):
    jct[sc] = {r["job_id"]: float(r["JCT"])
               for r in csv.DictReader(open("%s/%s-%s/job.csv" % (d, sc, s)))}
red = {j: 1 - jct["flowcon"][j] / jct["fair"][j] for j in jct["fair"]}
best = max(red, key=lambda j: red[j])
mf = json.load(open("%s/fair-%s/summary.json" % (d, s)))
mc = json.load(open("%s/flowcon-%s/summary.json" % (d, s)))
print("%s,%s,%.4f,%.4f,%.1f,%.1f,%.4f,%d" % (
    s, best, red[best], mc["avg_jct"] / mf["avg_jct"] - 1, mf["makespan"],
    mc["makespan"], mc["makespan"] / mf["makespan"] - 1, mc["jobs_watched"]))
PY
done
# The per-interval shares are large and follow from the inputs: not kept.
rm -f "$D"/fair-*/shares.csv "$D"/flowcon-*/shares.csv
{
	echo "seed,best_job,best_jct_reduction,mean_jct_change,makespan_fair_s,makespan_flowcon_s,makespan_change,jobs_watched"
	sort -t, -k1,1n "$T/sim.csv"
} >"$D/sim.csv"
cat "$D/sim.csv"

# Interval sensitivity: mean and largest best-job gain over the seeds.
echo "interval_s,seeds,mean_best_reduction,max_best_reduction,seeds_meeting_target,max_makespan_change" \
	>"$D/interval.csv"
for iv in 5 10 30 60; do
	for t in "$D"/trace-*.csv; do
		s=${t##*/trace-}
		s=${s%.csv}
		for sc in fair flowcon; do
			"$B/spare-sim" flowcon --trace "$t" --loss "$D/loss-$s.csv" \
				--cores 16 --schedule $sc --interval $iv \
				--out "$T/$iv-$sc-$s" >/dev/null
		done
	done
	python3 - "$T" "$iv" >>"$D/interval.csv" <<'PY'
import csv, glob, json, sys
t, iv = sys.argv[1], sys.argv[2]
best, mk = [], []
for d in sorted(glob.glob("%s/%s-fair-*" % (t, iv))):
    s = d.rsplit("-", 1)[1]
    f = {r["job_id"]: float(r["JCT"]) for r in csv.DictReader(open(d + "/job.csv"))}
    c = {r["job_id"]: float(r["JCT"])
         for r in csv.DictReader(open("%s/%s-flowcon-%s/job.csv" % (t, iv, s)))}
    best.append(max(1 - c[j] / f[j] for j in f))
    a = json.load(open(d + "/summary.json"))["makespan"]
    b = json.load(open("%s/%s-flowcon-%s/summary.json" % (t, iv, s)))["makespan"]
    mk.append(b / a - 1)
print("%s,%d,%.4f,%.4f,%d,%.4f" % (iv, len(best), sum(best) / len(best), max(best),
      sum(1 for x, m in zip(best, mk) if x >= 0.2 and m <= 0.05), max(mk)))
PY
done
cat "$D/interval.csv"
