#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The MIP allocator's figures from spare-sim: spare-sched-bench mip-sim
# --export writes each seed's jobs as a spare-sim mip trace; spare-sim mip
# runs them under greedy FIFO and under the MIP allocator (lp_solve). Per
# interarrival time and seed, the harness's mean queueing time and
# efficiency and spare-sim's (both at the harness's %.1f) go to
# $D/sim.csv; the means over the seeds, as the harness reports them, to
# $D/summary.csv. The interarrival-250 s traces and job.csv files are kept
# in $D (the allocation logs follow from them and are not).
#   tools/sim/b/mip_sim.sh [BIN [D]]
set -eu
B=${1:-build/bin}
D=${2:-Documentation/perf/sched/mip/sim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
echo "interarrival_s,seed,policy,harness_queue_s,sim_queue_s,harness_efficiency,sim_efficiency,same" \
	>"$T/sim.csv"
for ia in 200 250 300 400; do
	if [ "$ia" = 250 ]; then X=$D; else X=$T/ex-$ia; fi
	mkdir -p "$X" "$T/h-$ia"
	"$B/spare-sched-bench" mip-sim --out "$T/h-$ia" --seeds 10 --interarrival "$ia" \
		--export "$X" >/dev/null
	for t in "$X"/trace-*.csv; do
		s=${t##*/trace-}
		s=${s%.csv}
		for p in greedy mip; do
			"$B/spare-sim" mip --trace "$t" --gpus 128 --schedule $p \
				--out "$X/$p-$s" >/dev/null
			rm -f "$X/$p-$s/alloc.csv"
		done
	done
	python3 - "$T/h-$ia/mip_sim.csv" "$X" "$ia" >>"$T/sim.csv" <<'PY'
import csv, json, sys
h, x, ia = sys.argv[1], sys.argv[2], sys.argv[3]
for r in csv.DictReader(open(h)):
    js = json.load(open("%s/%s-%s/summary.json" % (x, r["policy"], r["seed"])))
    q, e = "%.1f" % js["mean_queue_s"], "%.1f" % js["efficiency"]
    same = q == r["mean_queue_s"] and e == r["efficiency"]
    print("%s,%s,%s,%s,%s,%s,%s,%d" % (ia, r["seed"], r["policy"], r["mean_queue_s"], q,
          r["efficiency"], e, same))
PY
done
mv "$T/sim.csv" "$D/sim.csv"
python3 - "$D/sim.csv" >"$D/summary.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("interarrival_s,seeds,harness_queue_reduction,sim_queue_reduction,"
      "harness_efficiency_gain,sim_efficiency_gain,rows_identical,rows")
for ia in sorted({r["interarrival_s"] for r in rows}, key=int):
    rr = [r for r in rows if r["interarrival_s"] == ia]
    def tot(src, col, pol):
        return sum(float(r[src + "_" + col]) for r in rr if r["policy"] == pol)
    out = [ia, str(len(rr) // 2)]
    for src in ("harness", "sim"):
        out.append("%.4f" % (1 - tot(src, "queue_s", "mip") / tot(src, "queue_s", "greedy")))
    for src in ("harness", "sim"):
        out.append("%.4f" % (tot(src, "efficiency", "mip") / tot(src, "efficiency", "greedy") - 1))
    out += [str(sum(int(r["same"]) for r in rr)), str(len(rr))]
    print(",".join(out))
PY
cat "$D/summary.csv"
