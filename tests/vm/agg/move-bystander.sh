# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# Another job of the source keeps completing rounds while a large job's
# state moves (Documentation/aggd.md, "Moving over RDMA": the transfer runs
# off the event loop). Source A on 10.0.0.2 with --rdma; on 10.0.0.3 target
# B with --rdma (the state by RDMA WRITE) and target C without (over the
# TCP link). A bystander job of one TCP worker runs rounds back to back at
# A while a job of one worker with server SGD and 64 MiB of state
# (weights + momentum) moves to B, then to C. The bystander must complete
# at least 3 rounds within the moving job's pause and never wait more than
# a third of it (spare-agg-itest move-bystander).
# AGG_MOVE_MIB (the state's size) may be given as the first argument.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

MIB=${1:-64}

step "soft-RoCE; A on $AGG_ADDR, B (--rdma) and C (TCP only) on $B_ADDR"
agg_rig_up 3
agg_start_trio
pass "three daemons"

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
