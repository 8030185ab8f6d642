# SPDX-License-Identifier: GPL-2.0
#
# The event loop's stall while a large job's outputs are registered for
# RDMA, old daemon against new in one boot (Documentation/perf-aggd.md
# 5.5; issue 35). Each daemon in SOURCES (binaries in /spare/bin, copied
# there from build/bin; default this tree's spare-aggd and a
# spare-aggd-base built from c2309ea0^, whose registration runs on the
# event loop; for the job's creation and freeing, which left the loop in
# session 55, one built from 766ef291) serves on A's address, port 18520, 18521, ..., with --rdma.
# Run by run, the daemons' order alternating, spare-agg-itest reg-stall
# runs, for each size, a bystander job (one TCP worker, 64 KiB, rounds
# back to back, each round's start and end noted) while a job of 2 workers
# and MIB MiB of fp32 outputs is created (rank 0 over TCP: "alloc"), has
# its outputs registered (rank 1 over RDMA: "reg") and leaves ("free").
# The raw lines go between RAW-BEGIN and RAW-END; tools/aggbench/regstall
# makes the table from them on the host. Not run by make check:
#   cp BASE/build/bin/spare-aggd build/bin/spare-aggd-base
#   scripts/vm/run -m 5G -t 900 -k KVER tests/vm/bench/agg-reg-stall.sh \
#       [RUNS [SIZES_MIB, as 256,1024 [SOURCES, as spare-aggd,spare-aggd-base [THP]]]]
# THP: always, madvise or never, written to
# /sys/kernel/mm/transparent_hugepage/enabled first (Debian's kernels
# default to always: the job's zeroed outputs are then mostly huge pages,
# which pin cheaply).
# (5G: a 1024 MiB job holds its outputs and two slots, 3 GiB, at once;
# the daemons run with --max-job-mem 4096 for it.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/agg.inc
set -u

RUNS=${1:-4}
SIZES=$(echo "${2:-256,1024}" | tr , " ")
SOURCES=$(echo "${3:-spare-aggd,spare-aggd-base}" | tr , " ")
THP=${4:-}

step "soft-RoCE; the daemons on $AGG_ADDR, the workers on $(host_addr 1)"
agg_rig_up 2
THP_FILE=/sys/kernel/mm/transparent_hugepage/enabled
if [ -n "$THP" ]; then
	echo "$THP" >"$THP_FILE" || fail "cannot set transparent huge pages to $THP"
fi
TAGS=
PIDS=
n=0
for b in $SOURCES; do
	[ -x "/spare/bin/$b" ] || fail "no /spare/bin/$b (copy it into build/bin)"
	tag=$(echo abcdefgh | cut -c$((n + 1)))
	AGG_DAEMON=/spare/bin/$b agg_start $((18520 + n)) "/tmp/aggd-rs-$tag.log" "" "" \
		--max-job-mem 4096 --max-mem 8192 ||
		fail "daemon $b did not start"
	PIDS="$PIDS $AGG_STARTED"
	eval "PORT_$tag=$((18520 + n)) LOG_$tag=/tmp/aggd-rs-$tag.log"
	echo "RS-DAEMON $tag $b $(md5sum </spare/bin/$b | cut -c1-12) $AGG_ADDR:$((18520 + n))" |
		tee -a /tmp/rs-daemons.txt
	TAGS="$TAGS $tag"
	n=$((n + 1))
done
free -m
pass "the daemons:$TAGS"

step "$RUNS runs x sizes $SIZES MiB x daemons$TAGS: a bystander while a job is created, registered, freed"
for run in $(seq 1 "$RUNS"); do
	order=$TAGS
	[ $((run % 2)) -eq 0 ] && order=$(echo $TAGS | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
	for mib in $SIZES; do
		for tag in $order; do
			eval "port=\$PORT_$tag log=\$LOG_$tag"
			out=/tmp/rs-$run-$mib-$tag.txt
			AGG_STALL_MIB=$mib AGG_BENCH_TAG=$tag AGG_BENCH_FIRST_RUN=$run \
				timeout -s KILL 600 /spare/bin/spare-agg-itest -R -S "$(host_addr 1)" \
				-h "$AGG_ADDR" -p "$port" reg-stall >"$out" ||
				{ grep -v "^RS-" "$out"; tail -n 30 "$log"; fail "reg-stall, run $run, $mib MiB, daemon $tag"; }
			grep "^reg-stall:" "$out"
		done
	done
done
pass "every run done"
for tag in $TAGS; do
	eval "log=\$LOG_$tag"
	echo "daemon $tag: $(grep -c "'rs-[0-9]*-[0-9]*$tag': .*registered for RDMA in" "$log") outputs' registrations logged (the new daemon logs one a run and size, the old none)"
done

step "raw: the windows, the bystander's rounds near them, the daemons' lines"
echo "RAW-BEGIN"
echo "RS-ARGS runs=$RUNS sizes_mib=$(echo $SIZES | tr ' ' ,) kernel=$(uname -r) cpus=$(nproc) thp=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP_FILE")"
cat /tmp/rs-daemons.txt
for tag in $TAGS; do
	eval "log=\$LOG_$tag"
	grep "'rs-[0-9]*-[0-9]*$tag'\|'rs-by$tag'" "$log" | sed "s/^/RS-LOG $tag /"
done
for run in $(seq 1 "$RUNS"); do
	for mib in $SIZES; do
		for tag in $TAGS; do
			grep "^RS-" "/tmp/rs-$run-$mib-$tag.txt"
		done
	done
done
echo "RAW-END"
pass "raw printed"

step "SIGTERM: the daemons exit"
for p in $PIDS; do kill -TERM "$p"; done
for p in $PIDS; do wait "$p" || fail "a daemon exited $?"; done
pass "agg-reg-stall"
