# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# Another job of the source keeps completing rounds while a large job's
# state moves (Documentation/aggd.md, "Moving over RDMA": the transfer runs
# off the event loop). Source A on 10.0.0.2 with --rdma; on 10.0.0.3 target
# B with --rdma (the state by RDMA WRITE) and target C without (over the
# TCP link). A bystander job of one TCP worker runs rounds back to back at
# A while a job of one worker with server SGD and 64 MiB of state
# (weights + momentum) moves to B, then one with 4 x MIB (256) to C. The bystander must complete
# at least 3 rounds within the moving job's pause and never wait more than
# half of it (spare-agg-itest move-bystander; a third before session 49).
# Arguments: [MIB [BASELINE]]: the state's size (64), and a daemon binary
# in /spare/bin (copied there from build/bin, e.g. main's spare-aggd as
# spare-aggd-main) that runs the same steps first, as a second source on
# A's address, for figures side by side in one boot; its result is
# printed, not checked.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

MIB=${1:-64}
BASELINE=${2:-}

step "soft-RoCE; A on $AGG_ADDR, B (--rdma) and C (TCP only) on $B_ADDR"
agg_rig_up 3
agg_start_trio
pass "three daemons"

if [ -n "$BASELINE" ]; then
	step "baseline: the same with /spare/bin/$BASELINE as the source (not checked)"
	AGG_DAEMON=/spare/bin/$BASELINE agg_start 18520 /tmp/aggd-base.log ||
		fail "the baseline source did not start"
	BASE_PID=$AGG_STARTED
	AGG_MOVE_MIB=$MIB AGG_SRC_LOG=/tmp/aggd-base.log AGG_BENCH_TAG=b \
		timeout -s KILL 600 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p 18520 \
		-H "$B_ADDR" -q "$B_PORT" move-bystander
	echo "baseline: spare-agg-itest exited $?"
	kill -TERM "$BASE_PID"
	wait "$BASE_PID"
fi

step "a bystander job at A while $MIB MiB of state moves, over RDMA then TCP"
AGG_MOVE_MIB=$MIB AGG_SRC_LOG=$AGG_LOG \
	timeout -s KILL 600 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p "$AGG_PORT" \
	-H "$B_ADDR" -q "$B_PORT" move-bystander ||
	{ grep "moved to\|failed\|transfer" "$AGG_LOG" | tail -n 10; fail "move-bystander"; }
grep "'mb-[0-9]*-[a-z]*' moved to" "$AGG_LOG"
pass "the bystander kept its rounds during both moves"

step "SIGTERM: the daemons exit"
for p in "$A_PID" "$B_PID" "$C_PID"; do kill -TERM "$p"; done
for p in "$A_PID" "$B_PID" "$C_PID"; do wait "$p" || fail "a daemon exited $?"; done
pass "agg-move-bystander"
