# SPDX-License-Identifier: GPL-2.0
#
# Repeat agg/rdma's "many" step (6 jobs x 4 workers over soft-RoCE) against
# one spare-aggd and time each run: the measurement behind the RDMA figures
# in Documentation/aggd.md. Not run by make check:
#   scripts/vm/run -k KVER tests/vm/bench/agg-many-loop.sh [RUNS]
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u
agg_rig_up
agg_start "$AGG_PORT" "$AGG_LOG" || fail "spare-aggd did not start"
ok=0
bad=0
for i in $(seq 1 "${1:-12}"); do
	t0=$(cut -d' ' -f1 /proc/uptime)
	if $ITEST many >/tmp/it.log 2>&1; then
		ok=$((ok + 1))
		echo "run $i: ok in $(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
	else
		bad=$((bad + 1))
		echo "run $i: FAILED"
		tail -5 /tmp/it.log
		grep -i "rejected\|failed" "$AGG_LOG" | tail -8
	fi
done
echo "many: $ok passed, $bad failed; $(grep -c rejected "$AGG_LOG") connections rejected"
[ "$bad" = 0 ] || fail "many: $bad of $((ok + bad)) failed"
pass "agg-many-loop"
