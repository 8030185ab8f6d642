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
#    bit;
#  - a daemon that may not pin a job's outputs (RLIMIT_MEMLOCK again)
#    copies its RDMA pull replies into the send slot, every sum exact;
#  - SIGTERM to the source, then to the target, while the WRITEs hang:
#    each exits within 5 s with status 0 (and no sanitizer report in its
#    log); the other side abandons the import, or rolls back bit for bit.
# An argument (a daemon binary in /spare/bin) runs the SIGTERM steps with
# it first, unchecked: a broken build's failure beside the real result.
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
# mute_back: also drop $B_ADDR's RoCE packets to A's address, QP1's too,
# once the state connection is up: the target's rdma_cm disconnect (a CM
# MAD on QP1) never reaches the source, which learns of the target's end
# from the TCP link alone and must stop its own transfer. cut_off removes
# it with the cut.
mute_back() {
	nft add rule inet spare_rc in ip saddr "$B_ADDR" ip daddr "$AGG_ADDR" udp dport 4791 \
		counter drop || fail "cannot install the netfilter rule back"
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

# term_timed PID: SIGTERM PID and reap it; its exit status in TERM_RC and
# the seconds from the signal to its end in TERM_S
term_timed() {
	local t0
	t0=$(cut -d' ' -f1 /proc/uptime)
	kill -TERM "$1"
	wait "$1"
	TERM_RC=$?
	TERM_S=$(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime)
}
# exited_cleanly PID LOG WHO: SIGTERM PID; it must end within TERM_MAX_S
# with status 0 and no sanitizer report in LOG. Returns 1 (saying why)
# if not, so that the caller cleans up before it fails.
TERM_MAX_S=5
exited_cleanly() {
	term_timed "$1"
	echo "$3 exited $TERM_RC, $TERM_S s after SIGTERM"
	if grep -q "Sanitizer" "$2"; then
		grep -A 20 "Sanitizer" "$2" | head -n 40
		echo "$3: a sanitizer report"
		return 1
	fi
	[ "$TERM_RC" = 0 ] || { tail -n 10 "$2"; echo "$3 exited $TERM_RC"; return 1; }
	awk -v s="$TERM_S" -v m="$TERM_MAX_S" 'BEGIN { exit !(s < m) }' && return 0
	tail -n 10 "$2"
	echo "$3 took $TERM_S s to exit, not under $TERM_MAX_S s"
	return 1
}

# move_under_cut DAEMON MODE PORT: a source (DAEMON, a binary in
# /spare/bin) on $AGG_ADDR:PORT and a target on $B_ADDR:PORT+1, pids in
# src and dst, logs in src_log and dst_log; the cut on; spare-agg-itest
# MODE in the background (pid in it, output in it_log) until the target
# logs the state connection: the WRITEs are then posted and hang.
move_under_cut() {
	src_log=/tmp/aggd-$2-src-$1.log
	dst_log=/tmp/aggd-$2-dst-$1.log
	it_log=/tmp/itest-$2-$1.log
	AGG_DAEMON=/spare/bin/$1 agg_start "$3" "$src_log" || fail "the source did not start"
	src=$AGG_STARTED
	AGG_DAEMON=/spare/bin/$1 agg_start "$(($3 + 1))" "$dst_log" "$B_ADDR" ||
		{ kill -KILL "$src"; fail "the target did not start"; }
	dst=$AGG_STARTED
	cut_on
	timeout -s KILL 300 /spare/bin/spare-agg-itest -R -S "$(host_addr 1)" -h "$AGG_ADDR" \
		-p "$3" -H "$B_ADDR" -q "$(($3 + 1))" "$2" >"$it_log" 2>&1 &
	it=$!
	wait_for 300 grep -q "connected to write its state" "$dst_log" && return 0
	cut_off
	kill -KILL "$src" "$dst"
	wait "$it"
	tail -n 20 "$it_log" "$dst_log"
	fail "the state connection did not come up at the target"
}

# term_steps DAEMON PORT: SIGTERM while a move's WRITEs hang (the cut),
# with DAEMON (a binary in /spare/bin) as every daemon: sources on
# $AGG_ADDR, targets on $B_ADDR, from PORT on (one fresh pair per step).
#  - the source: it exits at once (it cancels and joins its transfer,
#    aggd.md "Who owns what while the state moves") with status 0; the
#    target, the surviving side, abandons the import (commits nothing)
#    and serves on;
#  - the target: it exits at once with status 0; the source, the
#    surviving side, fails the move on the lost link and rolls back: the
#    job must go on (an iteration done) within 20 s of the move's request
#    (the WRITEs' own bound is 30 s, and the held workers wait for the
#    transfer thread's end) and train on there bit for bit
#    (spare-agg-itest move-term checks both against an unmoved job). The target's RoCE packets to the source are dropped too
#    (mute_back), so that the source's transfer ends on its cancel, not on
#    the target's rdma_cm disconnect.
term_steps() {
	local bad=

	step "$1: the source stopped by SIGTERM while its WRITEs hang: it exits at once, the target abandons"
	(
		late=
		move_under_cut "$1" move-srcterm "$2"
		sleep 1		# WRITEs posted, none completing
		exited_cleanly "$src" "$src_log" "the source ($1)" || late="the source's exit"
		src_s=$TERM_S
		wait "$it"
		echo "spare-agg-itest move-srcterm (its source gone) exited $?"
		cut_off
		wait_for 100 grep -q "'mv-move-srcterm': import abandoned" "$dst_log" ||
			{ tail -n 20 "$dst_log"; kill -KILL "$dst"; fail "the target did not abandon the import"; }
		grep "'mv-move-srcterm'" "$dst_log"
		if grep "'mv-move-srcterm': imported from" "$dst_log"; then
			kill -KILL "$dst"
			fail "the target took the job of a source that stopped mid-transfer"
		fi
		kill -0 "$dst" || fail "the target is gone"
		exited_cleanly "$dst" "$dst_log" "the target ($1)" || late="$late; the target's exit"
		[ -z "$late" ] || fail "$1: $late"
		pass "$1: the source exited 0 in $src_s s during the WRITEs; the target abandoned the import"
	) || bad="$bad srcterm"

	step "$1: the target stopped by SIGTERM while the WRITEs hang: it exits at once, the source rolls back"
	(
		late=
		move_under_cut "$1" move-term "$(($2 + 2))"
		mute_back
		sleep 1		# WRITEs posted, none completing
		exited_cleanly "$dst" "$dst_log" "the target ($1)" || late="the target's exit"
		dst_s=$TERM_S
		wait "$it"
		rc=$?
		cat "$it_log"
		cut_off
		[ "$rc" = 0 ] || { tail -n 20 "$src_log"; late="$late; move-term"; }
		grep "'mv-move-term' to $B_ADDR:$(($2 + 3)) failed: connection to the target .*; rolled back" "$src_log" ||
			{ tail -n 20 "$src_log"; late="$late; no roll-back on the lost link at the source"; }
		exited_cleanly "$src" "$src_log" "the source ($1)" || late="$late; the source's exit"
		[ -z "$late" ] || fail "$1: $late"
		pass "$1: the target exited 0 in $dst_s s during the WRITEs; the source rolled back, the job trained on bit for bit"
	) || bad="$bad term"
	[ -z "$bad" ] || fail "$1:$bad"
}

step "a daemon that may not pin a job's outputs: its RDMA pull replies are copied, every sum exact"
# E may pin 6 MiB: the two RDMA workers' connection buffers (about 2.3 MiB
# each) but not the job's 8 MiB of outputs besides. The registration of
# the outputs fails once, is logged once and counted, and every reply goes
# through the send slot (spare-agg-itest copied-replies checks the
# counters and every sum).
(
	E_PORT=18521 E_LOG=/tmp/aggd-e.log
	agg_start "$E_PORT" "$E_LOG" "" 6144 || fail "spare-aggd E (RLIMIT_MEMLOCK 6144 KiB) did not start"
	E_PID=$AGG_STARTED
	timeout -s KILL 300 /spare/bin/spare-agg-itest -R -S "$(host_addr 1)" -h "$AGG_ADDR" \
		-p "$E_PORT" copied-replies || { tail -n 20 "$E_LOG"; fail "copied-replies"; }
	n=$(grep -c "cannot register its [0-9]* bytes of partition outputs for RDMA: .*its RDMA pull replies are copied" "$E_LOG")
	[ "$n" = 1 ] || { tail -n 20 "$E_LOG"; fail "E logged its failed output registration $n times, not once"; }
	kill -TERM "$E_PID"
	wait "$E_PID" || { tail -n 10 "$E_LOG"; fail "spare-aggd E exited $?"; }
	pass "E copied every RDMA pull reply (its outputs not registered), logged once, every sum exact"
) || failed="$failed copied-replies"

# With an argument, a daemon binary in /spare/bin (a deliberately broken
# build, e.g. one whose transfer ignores its cancel flag): the SIGTERM
# steps run with it first, on other ports, and their result is printed,
# not checked, to show that the steps can fail.
if [ -n "${1:-}" ]; then
	step "baseline: the SIGTERM steps with /spare/bin/$1 (printed, not checked)"
	(term_steps "$1" 18530)
	echo "baseline $1: the SIGTERM steps exited $?"
fi

step "SIGTERM while a move's WRITEs hang, at the source and at the target"
(term_steps spare-aggd 18520) || failed="$failed sigterm"

step "SIGTERM: the three daemons exit cleanly"
for p in "$A_PID" "$B_PID" "$C_PID"; do kill -TERM "$p"; done
for p in "$A_PID" "$B_PID" "$C_PID"; do
	wait "$p" || { tail -n 10 "$AGG_LOG" "$B_LOG" "$C_LOG"; fail "a daemon exited $?"; }
done
[ -z "$failed" ] || fail "failed steps:$failed"
pass "agg/rdma-faults"
