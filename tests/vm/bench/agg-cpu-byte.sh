# SPDX-License-Identifier: GPL-2.0
#
# spare-aggd's CPU per aggregated byte over RDMA (soft-RoCE) and over TCP,
# side by side in one boot (Documentation/perf-aggd.md section 5.3). Each
# round times STREAM copy (aggbench-sum -C), then, for each daemon binary
# and case, one aggbench-pool run over TCP and one over RDMA against a
# fresh daemon on 10.0.0.2 (--rdma, one pool core): one job of WORKERS
# workers on 10.0.0.1, ELEMS fp32 a push (partitions of 256 KiB, the RDMA
# limit), ITERS iterations, GAP_MS compute gaps (+-20%); "spread" or
# "rank0last" (aggbench-pool -Z 10). Printed per run: aggbench-pool's line
# (its daemon_cpu_s: the daemon's whole process CPU over the timed
# iterations, from its STATS), the daemon's process CPU over the whole run
# (/proc/PID/stat, ticks of 10 ms) and the whole guest's CPU time by kind
# over the run (/proc/stat: user, system, softirq...): soft-RoCE's own
# copies run in the kernel (tasklets on 6.1, a workqueue on 6.12), so they
# are in the guest's totals, and in the daemon's only where a softirq
# happened to interrupt it. Not run by make check:
#   /work/prompts/sNN/vmrun scripts/vm/run -t 2400 -k KVER \
#       tests/vm/bench/agg-cpu-byte.sh [ROUNDS [DAEMONS [CASES]]]
# DAEMONS, as spare-aggd,spare-aggd-base: binaries in /spare/bin (copied
# there from build/bin), alternating in each round.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

ROUNDS=${1:-3}
DAEMONS=$(echo "${2:-spare-aggd}" | tr , " ")
CASES=$(echo "${3:-spread,rank0last}" | tr , " ")
WORKERS=8
ELEMS=262144
ITERS=12
GAP_MS=20
SRC=$(host_addr 1)

step "soft-RoCE: workers on $SRC, spare-aggd on $AGG_ADDR"
agg_rig_up 2
pass "rig up"

# the guest's CPU ticks: user nice system idle iowait irq softirq steal
cpu_ticks() { head -n 1 /proc/stat | cut -d' ' -f3-10; }
proc_ticks() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f12,13; }

run_one() {	# run_one DAEMON CASE TRANSPORT
	local d=$1 case=$2 tr=$3 port=$((18600 + RUN)) extra= log=/tmp/aggd-$RUN.log
	local c0 c1 p0 p1 out

	RUN=$((RUN + 1))
	AGG_DAEMON=/spare/bin/$d agg_start "$port" "$log" "" "" \
		--min-cores 1 --max-cores 1 || fail "$d did not start"
	# busybox sh: no arrays; the words are plain
	[ "$case" = rank0last ] && extra="-Z 10"
	[ "$tr" = rdma ] && extra="$extra -r $SRC"
	p0=$(proc_ticks "$AGG_STARTED")
	c0=$(cpu_ticks)
	out=$(timeout 600 /spare/bin/aggbench-pool -h "$AGG_ADDR" -p "$port" -j 1 \
		-w "$WORKERS" -n "$ELEMS" -i "$ITERS" -g "$GAP_MS" \
		-t "$d-$case-$tr" $extra 2>&1) ||
		{ echo "$out"; tail -n 20 "$log"; fail "aggbench-pool against $d over $tr"; }
	c1=$(cpu_ticks)
	p1=$(proc_ticks "$AGG_STARTED")
	kill -TERM "$AGG_STARTED"
	wait "$AGG_STARTED" || { tail -n 20 "$log"; fail "$d exited $?"; }
	echo "$out" | grep -v '^# label'
	echo "daemon-ticks $d $case $tr $p0 $p1"
	echo "guest-ticks $d $case $tr $c0 $c1"
}

RUN=0
for r in $(seq "$ROUNDS"); do
	step "round $r"
	/spare/bin/aggbench-sum -C -r 5 || fail "aggbench-sum -C"
	for c in $CASES; do
		for d in $DAEMONS; do
			for t in tcp rdma; do
				run_one "$d" "$c" "$t"
			done
		done
	done
	# the next round starts with the other daemon
	DAEMONS=$(echo "$DAEMONS" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
done
pass "$ROUNDS rounds"
