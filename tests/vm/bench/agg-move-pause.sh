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
#       tests/vm/bench/agg-move-pause.sh [RUNS [SIZES_MIB, as 64,128 [SOURCES]]]
# (3G: the 256 MiB job is held at A and at the target at once, with its
# sums and slots, about 5 times the weights each.)
# SOURCES, as spare-aggd,spare-aggd-old: binaries in /spare/bin (copied
# there from build/bin) that each run a source of their own on A's
# address (ports 18520, 18521, ...), for an A/B in one boot: run by run
# each source moves every size both ways, the sources' order alternating
# by run; the table has a row per source, size and transport.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

RUNS=${1:-3}
SIZES=$(echo "${2:-64 128 256}" | tr , " ")
SOURCES=$(echo "${3:-spare-aggd}" | tr , " ")

step "soft-RoCE; A on $AGG_ADDR, B (--rdma) and C (TCP only) on $B_ADDR"
agg_rig_up 3
agg_start_trio
# one source per binary, tagged a, b, ... (the last letter of its jobs'
# names); without SOURCES, A is the one source and the names untagged
SRC_PIDS=
TAGS=
SRC_PORT_a=$AGG_PORT
SRC_LOG_a=$AGG_LOG
if [ "$SOURCES" != spare-aggd ]; then
	n=0
	for b in $SOURCES; do
		tag=$(echo abcdefgh | cut -c$((n + 1)))
		AGG_DAEMON=/spare/bin/$b agg_start $((18520 + n)) "/tmp/aggd-src-$tag.log" ||
			fail "source $b did not start"
		SRC_PIDS="$SRC_PIDS $AGG_STARTED"
		eval "SRC_PORT_$tag=$((18520 + n)) SRC_LOG_$tag=/tmp/aggd-src-$tag.log"
		echo "source $tag: /spare/bin/$b (md5 $(md5sum </spare/bin/$b | cut -c1-12)) on $AGG_ADDR:$((18520 + n))"
		TAGS="$TAGS $tag"
		n=$((n + 1))
	done
fi
free -m
pass "three daemons and the sources"

step "moves: $RUNS runs x sizes $SIZES MiB x {RDMA, TCP} x sources ${TAGS:-A}"
for run in $(seq 1 "$RUNS"); do
	order=$TAGS
	[ $((run % 2)) -eq 0 ] && order=$(echo $TAGS | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
	for tag in ${order:-_}; do
		[ "$tag" = _ ] && tag=a && TAG= || TAG=$tag
		eval "port=\$SRC_PORT_$tag log=\$SRC_LOG_$tag"
		AGG_BENCH_RUNS=1 AGG_BENCH_FIRST_RUN=$run AGG_BENCH_SIZES_MIB=$SIZES AGG_BENCH_TAG=$TAG \
			timeout -s KILL 2000 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p "$port" \
			-H "$B_ADDR" -q "$B_PORT" move-pause || { tail -n 30 "$log"; fail "move-pause"; }
	done
done
pass "every move done"

step "raw: the sources' log lines of the moves"
echo "RAW-BEGIN"
cat "$AGG_LOG" /tmp/aggd-src-*.log 2>/dev/null | grep "'mp-[0-9]*-[a-z]*-[0-9]*[a-z]*' moved to"
echo "RAW-END"

step "table: the pause (barrier to the target's commit), ms"
# job mp-SIZE-VIA-RUN[TAG]; "(Y ms from the barrier ..., state over VIA)"
cat "$AGG_LOG" /tmp/aggd-src-*.log 2>/dev/null | grep "'mp-[0-9]*-[a-z]*-[0-9]*[a-z]*' moved to" |
	sed -n "s/.*'mp-\([0-9]*\)-\([a-z]*\)-\([0-9]*\)\([a-z]*\)' moved to .* in \([0-9.]*\) ms (\([0-9.]*\) ms from the barrier to the target's commit, state over \([A-Z]*\)).*/\1 \2 \3 \5 \6 \7 \4/p" \
	>/tmp/pause.txt
cat /tmp/pause.txt
# every move's state went the way its target says
awk '($2 == "rdma") != ($6 == "RDMA") { bad = 1 } END { exit bad }' /tmp/pause.txt ||
	fail "a move's state did not go over its target's transport"
echo "source  size_mib  via   n  median_ms  min_ms  max_ms  mib_per_s(median)"
for tag in ${TAGS:-_}; do
	[ "$tag" = _ ] && t= || t=$tag
	for s in $SIZES; do
		for v in rdma tcp; do
			awk -v s="$s" -v v="$v" -v t="$t" '$1 == s && $2 == v && $7 == t { print $5 }' /tmp/pause.txt | sort -n |
				awk -v s="$s" -v v="$v" -v t="${t:-A}" '{ x[NR] = $1 } END {
					if (!NR) exit 1
					m = NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
					printf "%-6s  %8d  %-4s %2d  %9.1f  %6.1f  %6.1f  %6.1f\n", t, s, v, NR, m, x[1], x[NR], s / (m / 1000) }'
		done
	done
done
[ "$(wc -l </tmp/pause.txt)" -eq "$((RUNS * $(echo $SIZES | wc -w) * 2 * $(echo ${TAGS:-_} | wc -w)))" ] ||
	fail "not every move has a pause line"

step "SIGTERM: the daemons exit"
for p in "$A_PID" "$B_PID" "$C_PID" $SRC_PIDS; do kill -TERM "$p"; done
for p in "$A_PID" "$B_PID" "$C_PID" $SRC_PIDS; do wait "$p" || fail "a daemon exited $?"; done
pass "agg-move-pause"
