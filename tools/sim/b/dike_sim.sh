#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Dike's profile figures from spare-sim: spare-sched-bench dike --export
# writes the nine CNN profiles and the 4-host cluster as spare-sim dike
# input; spare-sim dike --exhaustive places each one and finds the optimum.
# Per model, the harness's search and optimum throughput, workers and
# partitions (its dike_profiles.csv, from a run in a temporary directory)
# and spare-sim's (at the harness's %.3f) go to $D/sim.csv; spare-sim's
# outputs per model stay in $D/NAME/.
# Then spare-sim dike --random 1000 --seed 5000 (the harness's instances)
# writes $D/random/; the script checks its rows against the harness's
# dike_random.csv and fails unless spare-sim's summary.json gives a mean
# search / optimum ratio of at least 0.95 (issue 9's target).
#   tools/sim/b/dike_sim.sh [BIN [D]]
set -eu
B=${1:-build/bin}
D=${2:-Documentation/perf/sched/dike/sim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
"$B/spare-sched-bench" dike --out "$D" --export "$D" >/dev/null
"$B/spare-sched-bench" dike --out "$T" --instances 1000 >/dev/null
tail -n +2 "$D/models.csv" | while IFS=, read -r name flops batch bpp; do
	"$B/spare-sim" dike --model "$D/model-$name.csv" --hosts "$D/hosts.csv" \
		--flops-per-sample "$flops" --batch "$batch" --bytes-per-param "$bpp" \
		--max-parts 4 --exhaustive --out "$D/$name" >/dev/null
done
python3 - "$T/dike_profiles.csv" "$D" >"$D/sim.csv" <<'PY'
import csv, json, sys
h, d = sys.argv[1], sys.argv[2]
print("model,harness_search_tput,sim_search_tput,harness_optimum_tput,sim_optimum_tput,"
      "harness_workers,sim_workers,harness_partitions,sim_partitions,same")
for r in csv.DictReader(open(h)):
    js = json.load(open("%s/%s/summary.json" % (d, r["model"])))
    s, o = "%.3f" % js["throughput"], "%.3f" % js["optimum_throughput"]
    same = (s == r["search_tput"] and o == r["optimum_tput"] and
            int(r["workers"]) == js["workers"] and int(r["partitions"]) == js["partitions"])
    print("%s,%s,%s,%s,%s,%s,%d,%s,%d,%d" % (r["model"], r["search_tput"], s,
          r["optimum_tput"], o, r["workers"], js["workers"], r["partitions"],
          js["partitions"], same))
PY
cat "$D/sim.csv"

"$B/spare-sim" dike --random 1000 --seed 5000 --out "$D/random"
python3 - "$T/dike_random.csv" "$D/random" <<'PY'
import csv, json, sys
h = list(csv.DictReader(open(sys.argv[1])))
s = list(csv.DictReader(open(sys.argv[2] + "/random.csv")))
js = json.load(open(sys.argv[2] + "/summary.json"))
keys = ("hosts", "layers", "max_parts", "search_tput", "optimum_tput", "ratio")
diff = [r["instance"] for r, q in zip(h, s) if any(r[k] != q[k] for k in keys)]
if len(h) != len(s) or diff:
    sys.exit("dike_sim.sh: spare-sim's random instances differ from the harness's: %s"
             % (diff[:5] or "row count"))
print("random: %d instances, mean %.4f, min %.4f, %d below 0.95 (same as the harness)"
      % (js["instances"], js["mean_ratio"], js["min_ratio"], js["below_0.95"]))
if not js["mean_ratio"] >= 0.95:
    sys.exit("dike_sim.sh: mean ratio %.4f below the 0.95 target" % js["mean_ratio"])
PY
