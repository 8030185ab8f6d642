# SPDX-License-Identifier: GPL-2.0
#
# Count cgroup OOM kills of client/swap's workload on spare-ublk (the
# measurements behind spare-ublk's default queue depth in
# Documentation/ublk.md). Not run by make check:
#   scripts/vm/run -k 6.12.117+deb12-amd64 -t 1600 tests/vm/bench/ublk-oom-count.sh \
#       RUNS DEPTH DELAY HOG WINDOW [SIZE MAX PASSES LRU HIGH]
# RUNS runs of spare-memtest -p PASSES (default 2) SIZE (default 96m) in a cgroup of
# memory.max=MAX (default 32M), each on a fresh swap; DEPTH for
# spare-ublk --queue-depth; DELAY netem delay on the donor's link (or -);
# HOG 1 to keep one busy loop beside the workload (a loaded machine), 0 not;
# WINDOW for spare-ublk --write-window (KiB; 0: none); LRU: keep, or a
# value for /sys/kernel/mm/lru_gen/enabled (n: the classic LRU); HIGH the
# cgroup's memory.high (default max: none).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 1500
runs=${1:-4}; depth=${2:-16}; delay=${3:--}; hog=${4:-0}; win=${5:-1024}; size=${6:-96m}; cgmax=${7:-32M}
passes=${8:-2}; lru=${9:-keep}; high=${10:-max}
ublk_require
[ "$lru" = keep ] || echo "$lru" > /sys/kernel/mm/lru_gen/enabled || fail "lru_gen"
echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)"
rxe_up 2
sparectl gen-key >/tmp/grant.key && chmod 600 /tmp/grant.key || fail "gen-key"
donor_start 2 --budget 256M --slab-size 16M --grant-key-file /tmp/grant.key
GRANT=$(ublk_mint ok:8 10.0.0.2) || fail "mint"
if [ "$delay" != - ]; then
	modprobe sch_netem
	ip netns exec switch tc qdisc add dev p2 root netem delay "$delay" || fail "tc"
fi
ublk_up --size 128M --slab-size 16M --queue-depth "$depth" --write-window "$win" --state-file none \
	--donor 10.0.0.2:$DONOR_PORT --grant "$GRANT"
cg_new work "$cgmax"
echo "$high" >/sys/fs/cgroup/work/memory.high || fail "memory.high $high"
grep 'write window' /tmp/ublk.log
echo "depth $depth, window $win, delay $delay, hog $hog, $passes x $size in $cgmax, memory.high $high"
hogpid=
if [ "$hog" = 1 ]; then sh -c 'while :; do :; done' & hogpid=$!; fi
# OOM kills are the figure this bench measures, not a failure. A run fails
# the bench when it ended with a non-zero status while memory.events counted
# no OOM kill for it (a page read back wrong, or another death).
ooms=0
bad=
for i in $(seq "$runs"); do
	mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
	t0=$(cut -d' ' -f1 /proc/uptime)
	o0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	rc=0; cg_run work spare-memtest -p "$passes" "$size" >/tmp/memtest.out 2>&1 || rc=$?
	o1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	t1=$(cut -d' ' -f1 /proc/uptime)
	swapoff "/dev/$disk" || bad="$bad swapoff$i"
	echo "RUN $i rc=$rc oom=$((o1-o0)) secs=$(echo $t0 $t1 | awk '{print $2-$1}')"
	if [ "$o1" != "$o0" ]; then
		ooms=$((ooms+1))
		oom_report | sed 's/^/  /'
		dmesg -c >/dev/null
	elif [ "$rc" != 0 ]; then
		cat /tmp/memtest.out
		bad="$bad run$i(rc=$rc)"
	fi
done
[ -z "$hogpid" ] || kill "$hogpid"
ublk_down
echo "OOMS $ooms of $runs (depth $depth, window $win, delay $delay, hog $hog, $passes x $size in $cgmax, memory.high $high, lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)); writes held at most $(ublk_stat writes_held_max)"
[ "$(ublk_stat io_errors)" = 0 ] || bad="$bad io_errors=$(ublk_stat io_errors)"
[ -z "$bad" ] || fail "runs that failed without an OOM kill:$bad"
pass "$runs runs: $ooms OOM-killed, every other page verified"
