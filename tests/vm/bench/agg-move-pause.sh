# SPDX-License-Identifier: GPL-2.0
#
# A move's pause with the optimizer state by RDMA WRITE against over the TCP
# link, side by side in one boot (Documentation/aggd.md, "Moving over
# RDMA"). Source A on 10.0.0.2 with --rdma; on 10.0.0.3 target B with
# --rdma (the state by RDMA WRITE) and target C without (over TCP). For each
# run, each state size (weights + momentum) and both targets, in an order
# that alternates by run: one job of one TCP worker with server SGD,
# iteration 0 at A, the move, iteration 1 at the target. The figure is
# A's "ms from the barrier to the target's commit" (the workers' pause);
# the admin's whole wait is printed too. Not run by make check:
#   flock /tmp/spare-vm.lock scripts/vm/run -m 3G -t 2400 -k KVER \
#       tests/vm/bench/agg-move-pause.sh [RUNS [SIZES_MIB, as 64,128]]
# (3G: the 256 MiB job is held at A and at the target at once, with its
# sums and slots, about 5 times the weights each.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

RUNS=${1:-3}
SIZES=$(echo "${2:-64 128 256}" | tr , " ")
C_PORT=18518
C_LOG=/tmp/aggd-c.log

step "soft-RoCE; A on $AGG_ADDR, B (--rdma) and C (TCP only) on $B_ADDR"
agg_rig_up 3
agg_start_pair
/spare/bin/spare-aggd -a "$B_ADDR" -p "$C_PORT" --max-cores 2 --open \
	--peer-key-file "$AGG_KEY" --peers "$AGG_ADDR,$B_ADDR" >"$C_LOG" 2>&1 &
C_PID=$!
wait_for 100 grep -q "listening on" "$C_LOG" || { tail "$C_LOG"; fail "spare-aggd C did not start"; }
free -m
pass "three daemons"

step "moves: $RUNS runs x sizes $SIZES MiB x {RDMA, TCP}"
AGG_BENCH_RUNS=$RUNS AGG_BENCH_SIZES_MIB=$SIZES \
	timeout -s KILL 2000 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p "$AGG_PORT" \
	-H "$B_ADDR" -q "$B_PORT" move-pause || { tail -n 30 "$AGG_LOG"; fail "move-pause"; }
pass "every move done"

step "raw: A's log lines of the moves"
echo "RAW-BEGIN"
grep "'mp-[0-9]*-[a-z]*-[0-9]*' moved to" "$AGG_LOG"
echo "RAW-END"

step "table: the pause (barrier to the target's commit), ms"
# job mp-SIZE-VIA-RUN; "(Y ms from the barrier ..., state over VIA)"
grep "'mp-[0-9]*-[a-z]*-[0-9]*' moved to" "$AGG_LOG" |
	sed -n "s/.*'mp-\([0-9]*\)-\([a-z]*\)-\([0-9]*\)' moved to .* in \([0-9.]*\) ms (\([0-9.]*\) ms from the barrier to the target's commit, state over \([A-Z]*\)).*/\1 \2 \3 \4 \5 \6/p" \
	>/tmp/pause.txt
cat /tmp/pause.txt
# every move's state went the way its target says
awk '($2 == "rdma") != ($6 == "RDMA") { bad = 1 } END { exit bad }' /tmp/pause.txt ||
	fail "a move's state did not go over its target's transport"
echo "size_mib  via   n  median_ms  min_ms  max_ms  mib_per_s(median)"
for s in $SIZES; do
	for v in rdma tcp; do
		awk -v s="$s" -v v="$v" '$1 == s && $2 == v { print $5 }' /tmp/pause.txt | sort -n |
			awk -v s="$s" -v v="$v" '{ x[NR] = $1 } END {
				if (!NR) exit 1
				m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
				printf "%8d  %-4s %2d  %9.1f  %6.1f  %6.1f  %6.1f\n", s, v, NR, m, x[1], x[NR], s / (m / 1000) }'
	done
done
[ "$(wc -l </tmp/pause.txt)" -eq "$((RUNS * $(echo $SIZES | wc -w) * 2))" ] ||
	fail "not every move has a pause line"

step "SIGTERM: the daemons exit"
for p in "$A_PID" "$B_PID" "$C_PID"; do kill -TERM "$p"; done
for p in "$A_PID" "$B_PID" "$C_PID"; do wait "$p" || fail "a daemon exited $?"; done
pass "agg-move-pause"
