# SPDX-License-Identifier: GPL-2.0
#
# How long a SIGKILLed spared takes to exit, and spare.ko to notice its
# loss, by the number of slabs it lends (session 46, kill46). Not run by
# make check:
#   scripts/vm/run -k KVER tests/vm/bench/spared-kill.sh [COUNTS] [RUNS] [BUSY] [SIGS] [READS] [BINS]
# COUNTS: comma list of slab counts (default 1,8,32); RUNS per case
# (default 2); BUSY: comma list (default 0) of how many spinning shell
# loops run from just before the kill to the loss line (the guest's CPUs
# busy, as under killdonor's swapping job); SIGS: comma list of the signals
# sent (default KILL; TERM is spared's clean stop); READS (default 0): 1
# reads the slabs' first pages back meanwhile (up to 40 O_DIRECT reads in
# turn, until the first error; each result marked in /dev/kmsg); BINS
# (default spared): comma list of spared binaries in build/bin, run in
# turn for every case (an A/B in one boot: copy an older build to, say,
# build/bin/spared-main first). Every count is run at every level,
# signal and binary, in one boot.
# Each run: a fresh spared on host 2 (16 MiB slabs, a budget of N + 1), a
# spare.ko device of N slabs, one copy each, hold_ms 0; a 4 KiB write to
# every slab, all mapped; then the signal. Marks go to /dev/kmsg so that
# every stamp is on the kernel's clock:
#   "spared-kill: N=.. busy=.. sig=.. run=.. kill pid .."  just before it
#   "spared-kill: ... zombie"   the task seen as a zombie or gone (its fds
#                               and memory all released)
#   "donor 10.0.0.2:18515: <why>; N slab copies dropped"  spare.ko's loss
# and, from tracefs, the rdma_cm events (the DREQ sent and received) and,
# where the kernel has kprobes (the debug kernel has none), entry probes on
# exit_mmap, shmem_evict_inode (a slab's memfd freed), ib_uverbs_close,
# ib_dereg_mr_user, ib_umem_release and ucma_close. While it dies, the
# task's state and stack are sampled. Each run prints
#   RESULT n=N busy=B sig=S run=R exit_s=X lost_s=Y why=... exit_cpu_s=C bin=SPARED
# (seconds from the signal; C: the dying task's system CPU time from the
# signal to the last sample before it was gone, 1/100 s resolution).
# Raw results and the commands: Documentation/perf/spared-kill/.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
counts=$(echo "${1:-1,8,32}" | tr , ' '); runs=${2:-2}; levels=$(echo "${3:-0}" | tr , ' ')
sigs=$(echo "${4:-KILL}" | tr , ' ')
reads=${5:-0}
bins=$(echo "${6:-spared}" | tr , ' ')
for b in $bins; do
	command -v "$b" >/dev/null || fail "no spared binary $b in /spare/bin"
	mkdir -p "/tmp/ab/$b" && ln -sf "$(command -v "$b")" "/tmp/ab/$b/spared"
done
path0=$PATH
watchdog 1700
rxe_up 2
spare_load
echo "+memory" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null

T=/sys/kernel/tracing
grep -q ' /sys/kernel/tracing ' /proc/mounts || mount -t tracefs nodev $T 2>/dev/null
if [ -d $T/events ]; then
	# entry probes only: a return probe pending while /proc/PID/stack is
	# read warns (rethook_find_ret_addr, seen on 6.1)
	for p in 'p:exit_mmap exit_mmap' 'p:shmem_evict shmem_evict_inode' \
		'p:uv_close ib_uverbs_close' 'p:dereg ib_dereg_mr_user' \
		'p:umem_rel ib_umem_release' 'p:ucma_close ucma_close'; do
		echo "$p" >>$T/kprobe_events 2>/dev/null || echo "no kprobe: $p"
	done
	echo 'comm == "spared"' >$T/events/kprobes/filter 2>/dev/null
	echo 1 >$T/events/kprobes/enable 2>/dev/null
	for e in rdma_cma ib_cm; do echo 1 >$T/events/$e/enable 2>/dev/null || echo "no events $e"; done
	echo 4096 >$T/buffer_size_kb 2>/dev/null
else
	echo "no tracefs"
fi

now() { cut -d' ' -f1 /proc/uptime; }
kmsg() { echo "spared-kill: $*" >/dev/kmsg; }
# kt PATTERN: the kernel time of the last dmesg line matching PATTERN
kt() { dmesg | grep -- "$1" | tail -1 | sed 's/^\[ *\([0-9.]*\)\].*/\1/'; }

for n in $counts; do
for busy in $levels; do
for sig in $sigs; do
	for r in $(seq 1 "$runs"); do
	for bin in $bins; do
		step "N=$n busy=$busy sig=$sig run $r bin $bin"
		PATH=/tmp/ab/$bin:$path0
		donor_start 2 --budget $(((n + 1) * 16))M --slab-size 16M
		PATH=$path0
		disk=$(spare_create k$n-$busy-$sig-$r size=$((n * 16))M slab_size=16M hold_ms=0 \
			donors=10.0.0.2:$DONOR_PORT source=10.0.0.1)
		i=0
		while [ $i -lt "$n" ]; do
			dd if=/dev/urandom of=/tmp/w$i bs=4k count=1 2>/dev/null
			dd if=/tmp/w$i of="/dev/$disk" bs=4k count=1 seek=$((i * 4096)) \
				oflag=direct 2>/dev/null || fail "write slab $i"
			i=$((i + 1))
		done
		wait_until 60 sh -c "[ \$(awk '\$6 == \"mapped\"' /sys/block/$disk/spare/slab_map | wc -l) = $n ]" ||
			{ cat "/sys/block/$disk/spare/slab_map"; fail "not all $n slabs mapped"; }
		pid=$(donor_pid 2)
		echo "spared pid $pid: $(grep -E 'VmRSS|VmPin|VmLck|Threads' /proc/$pid/status | tr -s ' \t' ' ' | tr '\n' ' ')"
		echo "fds: $(ls -l /proc/$pid/fd | awk 'NR > 1 {print $9 "->" $11}' | tr '\n' ' ')"
		read -r stl </proc/$pid/stat
		set -- ${stl#*) }
		stime0=${13}
		# the load from just before the kill to the loss line
		spin=
		i=0
		while [ $i -lt "$busy" ]; do sh -c 'while :; do :; done' & spin="$spin $!"; i=$((i + 1)); done
		[ -d $T/events ] && echo >$T/trace
		# the loss lines so far: the wait below is for a new one
		lost0=$(dmesg | grep -c 'donor 10.0.0.2:18515: .*slab copies dropped\|donor 10.0.0.2:18515 lost')
		kmsg "N=$n busy=$busy sig=$sig run=$r kill pid $pid"
		k0=$(now)
		kill -"$sig" "$pid"
		# READS=1: the first page of each slab read back (O_DIRECT) in
		# turn, again and again, while it dies: what the device serves in
		# the window (each read's end and result marked in /dev/kmsg)
		rd=
		if [ "$reads" = 1 ]; then
			(j=0; while [ $j -lt 40 ]; do
				i=$((j % n))
				if dd if="/dev/$disk" of=/tmp/r bs=4k count=1 skip=$((i * 4096)) \
					iflag=direct 2>/dev/null; then
					cmp -s /tmp/r /tmp/w$i && res=same || res=differs
				else
					res=error
				fi
				kmsg "read slab $i: $res"
				# after the loss a lost slab's read fails only after
				# about 20 s: the first error ends the reads
				[ $res = error ] && break
				j=$((j + 1))
			done) &
			rd=$!
		fi
		last= nR=0 nD=0 nS=0 stime=
		# builtins only (a fork costs much on the debug kernel): the
		# state and the CPU time spent (stime, in 1/100 s), and the top 8
		# frames of the stack when there is one (a task on a CPU shows
		# none) and it changed
		while read -r stl </proc/$pid/stat 2>/dev/null; do
			set -- ${stl#*) }
			[ "$1" = Z ] && break
			case $1 in R) nR=$((nR + 1)) ;; D) nD=$((nD + 1)) ;; *) nS=$((nS + 1)) ;; esac
			stime=${13}
			w=; i=0
			while [ $i -lt 8 ] && read -r _ fn; do w="$w $fn"; i=$((i + 1)); done \
				</proc/$pid/stack 2>/dev/null
			if [ -n "$w" ] && [ "$w" != "$last" ]; then
				read -r up _ </proc/uptime
				echo "  stack at $up ($1):$w"
				last=$w
			fi
			sleep 0.05
		done 2>/dev/null
		echo "  samples: R $nR, D $nD, S/other $nS; system CPU from the kill to the last sample: $(( ${stime:-0} - stime0 ))/100 s"
		kmsg "N=$n busy=$busy sig=$sig run=$r pid $pid zombie"
		wait "$pid" 2>/dev/null
		ok=1
		wait_until 120 sh -c "[ \$(dmesg | grep -c 'donor 10.0.0.2:18515: .*slab copies dropped\|donor 10.0.0.2:18515 lost') -gt $lost0 ]" || ok=0
		sleep 1
		tk=$(kt "spared-kill: N=$n busy=$busy sig=$sig run=$r kill")
		tz=$(kt "spared-kill: N=$n busy=$busy sig=$sig run=$r pid $pid zombie")
		line=$(dmesg | grep 'donor 10.0.0.2:18515: .*slab copies dropped' | tail -1)
		tl=$(echo "$line" | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
		why=$(echo "$line" | sed 's/.*18515: \([^;]*\);.*/\1/' | tr ' ' _)
		[ $ok = 1 ] || { tl=$tk; why=none_in_120s; }
		dmesg | grep -A0 "spared-kill: N=$n busy=$busy sig=$sig run=$r\|10.0.0.2:18515" | tail -8
		if [ -d $T/events ]; then
			echo "---- trace: spared's probes and the cm events"
			grep -v '^#' $T/trace | grep -e "spared-$pid " -e ' cm_' | grep -v ' cm_id_attach\| cm_event_done'
			echo "---- dereg calls: $(grep -c ' dereg:' $T/trace) umem releases: $(grep -c ' umem_rel:' $T/trace)"
		fi
		echo "RESULT n=$n busy=$busy sig=$sig run=$r exit_s=$(awk -v a="$tz" -v b="$tk" 'BEGIN {printf "%.2f", a - b}')" \
			"lost_s=$(awk -v a="$tl" -v b="$tk" 'BEGIN {printf "%.2f", a - b}') why=$why exit_cpu_s=$(awk -v a="${stime:-0}" -v b="$stime0" 'BEGIN {printf "%.2f", (a - b) / 100}') bin=$bin"
		[ -n "$rd" ] && { wait $rd; dmesg | grep 'spared-kill: read slab' | awk '{print $NF}' | uniq -c |
			tr '\n' ' '; echo; dmesg | grep 'spared-kill: read slab' | sed -n '1p;$p'
			dmesg | grep 'spared-kill: read slab' | grep -B1 -A1 -m1 error; dmesg -c >/dev/null; }
		[ -n "$spin" ] && { kill $spin; wait $spin 2>/dev/null; }
		spare_destroy k$n-$busy-$sig-$r
		sleep 1
	done
	done
done
done
done
echo 0 >$T/events/enable 2>/dev/null
pass "spared-kill bench done"
