# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# The failure paths of a move's state by RDMA WRITE (Documentation/aggd.md,
# "Moving over RDMA"), each forced by a real condition: the source A on
# 10.0.0.2, targets on 10.0.0.3, workers on 10.0.0.1.
#  - a move's token: wrong, another job's, replayed, and the token of an
#    import whose source abandoned it, all refused; the right one WRITEs;
#  - a target that may not pin the job's state (RLIMIT_MEMLOCK without
#    CAP_IPC_LOCK): its registration fails, the state goes over TCP, the
#    job moves, bit for bit;
#  - the target cut off after the state connection is up (netfilter drops
#    A's RoCE packets to the target's QPs, not those to its QP1, so
#    rdma_cm connects): the WRITEs fail, the move rolls back and the job
#    trains on at A, bit for bit; the target abandons the import;
#  - the same cut, and the target killed while the WRITEs hang: the move
#    fails on the lost link at once (A stops its transfer, which runs off
#    its event loop), not after the WRITEs' 30 s, and rolls back, bit for
#    bit.
# Each step runs in a subshell: one failing does not hide the others.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

C_PORT=18518
C_LOG=/tmp/aggd-c.log
D_PORT=18519
D_LOG=/tmp/aggd-d.log
# 64 KiB: less than the test job's 162 KB of state (20300 fp32 weights and
# as much momentum), more than the daemon needs without RDMA workers
C_MEMLOCK_KIB=64

# since LOG N: the lines of LOG after its first N (as counted by lines_of)
lines_of() { wc -l <"$1"; }
since() { tail -n +"$(($2 + 1))" "$1"; }
# expect LOG N PATTERN WHAT: a line of LOG after its first N matches
# PATTERN (printed), else the log's tail is printed and the step fails: WHAT
expect() {
	since "$1" "$2" | grep -- "$3" && return 0
	since "$1" "$2" | tail -n 20
	fail "$4"
}

# cut_on: drop A's RoCE packets to $B_ADDR except those to QP 1. RoCE
# v2's BTH follows the UDP header; its destination QP number is bits
# 40-63 of it. QP1 carries the CM's MADs: let them through, so rdma_cm
# connects and no WRITE lands. cut_off: remove the rule, saying how many
# packets it dropped in CUT_DROPPED.
cut_on() {
	nft add table inet spare_rc &&
		nft add chain inet spare_rc in '{ type filter hook input priority 0; }' &&
		nft add rule inet spare_rc in ip saddr "$AGG_ADDR" ip daddr "$B_ADDR" udp dport 4791 \
			@th,104,24 != 1 counter drop ||
		fail "cannot install the netfilter rule"
}
cut_off() {
	CUT_DROPPED=$(nft list table inet spare_rc | grep -o 'packets [0-9]*' | head -1)
	nft delete table inet spare_rc || fail "cannot remove the netfilter rule"
	CUT_DROPPED=${CUT_DROPPED#packets }
}

step "soft-RoCE: workers on 10.0.0.1, spare-aggd A on $AGG_ADDR, targets on $B_ADDR"
agg_rig_up 3
agg_start_pair
agg_start "$C_PORT" "$C_LOG" "$B_ADDR" "$C_MEMLOCK_KIB" ||
	fail "spare-aggd C (RLIMIT_MEMLOCK $C_MEMLOCK_KIB KiB) did not start"
C_PID=$AGG_STARTED
pass "three daemons with --rdma; C may pin $C_MEMLOCK_KIB KiB"

failed=

step "a move's RDMA token: wrong, another job's, replayed, abandoned: refused; the right one WRITEs"
# spare-agg-itest plays a source holding the daemons' key against B: it
# IMPORTs optimizer jobs offering RDMA_STATE and tries B's rdma_cm
# listener with the tokens it got, and with others.
(
	from=$(lines_of "$B_LOG")
	timeout -s KILL 180 /spare/bin/spare-agg-itest -R -S "$AGG_ADDR" -h "$B_ADDR" \
		-p "$B_PORT" -k "$AGG_KEY" state-token || { since "$B_LOG" "$from" | tail -n 30; fail "state-token"; }
	n=$(since "$B_LOG" "$from" | grep -c "a state connection for job [0-9]* refused")
	[ "$n" -eq 5 ] || { since "$B_LOG" "$from" | tail -n 30; fail "B logged $n refused state connections, not 5"; }
	expect "$B_LOG" "$from" "'state-token': import abandoned" \
		"the fake source's first import was not abandoned"
	expect "$B_LOG" "$from" "'state-token-ab': import abandoned" \
		"the import whose token was then tried was not abandoned"
	pass "wrong, other job's, replayed and abandoned tokens refused; the right tokens' WRITEs completed"
) || failed="$failed token"

step "a target that may not pin the job's state: its registration fails, the state goes over TCP"
(
	from_a=$(lines_of "$AGG_LOG")
	from_c=$(lines_of "$C_LOG")
	# TCP workers: C may not pin an RDMA worker's buffers either
	timeout -s KILL 300 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p "$AGG_PORT" \
		-H "$B_ADDR" -q "$C_PORT" move-fallback ||
		{ since "$C_LOG" "$from_c" | tail -n 20; since "$AGG_LOG" "$from_a" | tail -n 20; fail "move-fallback"; }
	expect "$C_LOG" "$from_c" "'mv-move-fallback': cannot take its state over RDMA: ibv_reg_mr of [0-9]* bytes: " \
		"C did not log its failed registration"
	expect "$C_LOG" "$from_c" "'mv-move-fallback': being imported .*taken 0x0: its state comes over TCP); RDMA not taken: registering its buffers failed" \
		"C did not answer the offer with 0 and why"
	expect "$AGG_LOG" "$from_a" "'mv-move-fallback': its state goes to $B_ADDR:$C_PORT over TCP: the target does not take RDMA" \
		"A did not log why the state went over TCP"
	expect "$AGG_LOG" "$from_a" "'mv-move-fallback' moved to $B_ADDR:$C_PORT at iteration [0-9]* in .*state over TCP)" \
		"no 'moved ... state over TCP' line at A"
	pass "C's registration failed (RLIMIT_MEMLOCK), the offer was declined, the job moved over TCP bit for bit"
) || failed="$failed fallback"

step "the target cut off after the state connection is up: the WRITEs fail, the move rolls back"
(
	from_a=$(lines_of "$AGG_LOG")
	from_b=$(lines_of "$B_LOG")
	cut_on
	timeout -s KILL 300 $ITEST -H "$B_ADDR" -q "$B_PORT" move-cut
	rc=$?
	cut_off
	[ "$rc" = 0 ] || { since "$B_LOG" "$from_b" | tail -n 20; since "$AGG_LOG" "$from_a" | tail -n 20; fail "move-cut"; }
	echo "the rule dropped: $CUT_DROPPED packets"
	[ "$CUT_DROPPED" -gt 0 ] || fail "the rule dropped no RoCE packet"
	expect "$B_LOG" "$from_b" "connected to write its state" "the state connection was not up at B"
	expect "$AGG_LOG" "$from_a" "'mv-move-cut' to $B_ADDR:$B_PORT failed: the RDMA state transfer failed after its first WRITE: .*; rolled back: the job goes on here from iteration [0-9]*" \
		"A did not log the roll-back after the first WRITE"
	expect "$B_LOG" "$from_b" "'mv-move-cut': import abandoned" "B did not abandon the import"
	pass "the WRITEs failed, the move rolled back, the RDMA workers trained on at A bit for bit; B abandoned the import"
) || failed="$failed cut"

step "the target killed while the WRITEs hang: the move fails on the lost link at once and rolls back"
(
	from_a=$(lines_of "$AGG_LOG")
	agg_start "$D_PORT" "$D_LOG" "$B_ADDR" || fail "spare-aggd D did not start"
	D_PID=$AGG_STARTED
	cut_on
	timeout -s KILL 300 $ITEST -H "$B_ADDR" -q "$D_PORT" move-kill &
	it=$!
	wait_for 300 grep -q "connected to write its state" "$D_LOG" ||
		{ cut_off; kill -KILL "$D_PID"; wait "$it"; tail -n 20 "$D_LOG"; fail "the state connection did not come up at D"; }
	sleep 1		# WRITEs posted, none completing
	kill -KILL "$D_PID"
	wait "$it"
	rc=$?
	cut_off
	[ "$rc" = 0 ] || { tail -n 20 "$D_LOG"; since "$AGG_LOG" "$from_a" | tail -n 20; fail "move-kill"; }
	expect "$AGG_LOG" "$from_a" "'mv-move-kill' to $B_ADDR:$D_PORT failed: connection to the target .*; rolled back: the job goes on here from iteration [0-9]*" \
		"A did not roll back on the lost link"
	if since "$AGG_LOG" "$from_a" | grep "'mv-move-kill'.*no WRITE completion"; then
		fail "A waited for the WRITEs' own bound"
	fi
	pass "D killed during the WRITEs: A failed the move on the lost link, stopped its transfer and rolled back; the RDMA workers trained on at A bit for bit"
) || failed="$failed kill"

step "SIGTERM: the three daemons exit cleanly"
for p in "$A_PID" "$B_PID" "$C_PID"; do kill -TERM "$p"; done
for p in "$A_PID" "$B_PID" "$C_PID"; do
	wait "$p" || { tail -n 10 "$AGG_LOG" "$B_LOG" "$C_LOG"; fail "a daemon exited $?"; }
done
[ -z "$failed" ] || fail "failed steps:$failed"
pass "agg/rdma-faults"
