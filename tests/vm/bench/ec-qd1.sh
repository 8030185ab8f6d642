# SPDX-License-Identifier: GPL-2.0
#
# Erasure-coded pages against copies on spare-ublk and on spare.ko, in one
# boot (issue 34):
#   - the donors' own lent-memory counter (spare_donor_slabs_lent, 8 MiB
#     slabs) for a 96 MiB device as replicas=3 (--copies 3) and as ec:4+2;
#   - fio 4 KiB random read at QD1 (completion latency p50, p99, µs) of
#     the device written whole, as replicas=2 (--copies 2) and as ec:4+2;
#   - the same three on spare.ko (configfs replicas=3, replicas=2,
#     redundancy=ec:4+2), names prefixed "kmod-".
# Six donors (spared on hosts 2..7). Prints RESULT lines:
#   flock /tmp/spare-vm.lock scripts/vm/run -k 6.12.117+deb12-amd64 tests/vm/bench/ec-qd1.sh
# With the argument "split", spare.ko alone, where a read's time goes:
# ib_read_lat of one 1 KiB and one 4 KiB READ (-e, completion events, as
# a block driver waits), then replicas=2, ec:4+2 with ec_delta 1 and 0,
# untraced and then with the spare_ec_read tracepoint on (per split:
# post, completion; the K-th, the copy or decode, the block completion;
# medians as RESULT lines, "split_" names, µs, and the first 20 events
# raw), and replicas=2 again:
#   scripts/vm/run -k 6.12.117+deb12-amd64 tests/vm/bench/ec-qd1.sh split
# Raw results: Documentation/perf/ec-io/.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
FIO_SECS=${BENCH_FIO_SECS:-20}

result() { echo "RESULT $1 $2 $3"; }
# fio_pct FILE SECTION PCT: percentile PCT of SECTION in fio's JSON, in ns
# (as bench/swap-bench's).
fio_pct() {
	awk -v s="\"$2\"" -v p="\"$3\"" 'index($0, s) {f = 1}
		f && index($0, p) {sub(/.*: */, ""); sub(/[,}].*/, ""); print; exit}' "$1"
}

MODE=${1:-all}
TRACE=/sys/kernel/tracing
HAVE_UBLK=1
if [ "$MODE" = swap ]; then
	modprobe ublk_drv 2>/dev/null || HAVE_UBLK=0
else
	ublk_require
fi
rxe_up 7
DONORS=
for n in 2 3 4 5 6 7; do
	donor_start $n --budget 128M --slab-size 8M
	DONORS="$DONORS --donor 10.0.0.$n:$DONOR_PORT"
done
dd if=/dev/urandom of=/tmp/want bs=1M count=96 2>/dev/null || fail "pattern"

lent() {
	local n t=0 l
	for n in 2 3 4 5 6 7; do
		l=$(donor_metric $n spare_donor_slabs_lent)
		t=$((t + ${l:-0}))
	done
	echo $t
}

# measure NAME: /dev/$disk written whole; the donors' lent slabs and its
# QD1 read latency, as results of NAME.
measure() {
	local name=$1
	dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $name"
	result "$name" slabs_lent "$(lent)"
	result "$name" lent_mib "$(( $(lent) * 8 ))"
	fio --name=qd1 --filename="/dev/$disk" --direct=1 --rw=randread --bs=4k \
		--iodepth=1 --ioengine=libaio --time_based --runtime="$FIO_SECS" \
		--output-format=json >/tmp/fio1.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; fail "fio on $name"; }
	cp /tmp/fio1.json "/tmp/fio-$name.json"
	result "$name" qd1_p50_us $(( $(fio_pct /tmp/fio1.json clat_ns 50.000000) / 1000 ))
	result "$name" qd1_p99_us $(( $(fio_pct /tmp/fio1.json clat_ns 99.000000) / 1000 ))
}

# run NAME ARGS...: a 96 MiB device with ARGS, written whole; its lent
# slabs and its QD1 read latency.
run() {
	local name=$1; shift
	# shellcheck disable=SC2086
	ublk_up --size 96M --slab-size 8M --state-file none "$@" $DONORS
	measure "$name"
	ublk_down
	echo "$UBLK_STATS"
	grep '^spare-ublk: ec ' /tmp/ublk.out || true
}

if [ "$MODE" = all ]; then
	step "replicas=3: lent memory"
	run replicas3 --copies 3
	step "replicas=2: lent memory, QD1 read"
	run replicas2 --copies 2
	step "ec:4+2: lent memory, QD1 read"
	run ec42 --redundancy ec:4+2
fi

# With the argument "write", the pager alone: fio 4 KiB random write at
# QD1 over the first 32 MiB (coding group 0: host 7 holds its split 5)
# of an ec:4+2 device, p50 and p99 completion latency (µs) and IOPS, for
# the pager of this tree ("new") and, when the guest has one, an older
# build put in build/bin as spare-ublk-old ("old"), every link as it is
# ("plain") and with host 7's link delayed 5 ms by netem ("slow"), in
# rounds (the argument after "write", default 2) that alternate which
# binary goes first, all in one boot; results named
# ec42w-<bin>-<link>-<round>:
#   scripts/vm/run -k 6.12.117+deb12-amd64 tests/vm/bench/ec-qd1.sh write 4
# fio_wkey FILE KEY: KEY (a percentile, or "iops") of fio's write section.
fio_wkey() {
	awk -v k="\"$2\"" 'index($0, "\"write\" :") {w = 1}
		w && k != "\"iops\"" && index($0, "\"clat_ns\"") {c = 1}
		w && (c || k == "\"iops\"") && index($0, k) {
			sub(/.*: */, ""); sub(/[,}].*/, ""); print; exit}' "$1"
}
wrun() {
	local name=$1 bin=$2 path=$PATH
	if [ "$bin" = old ]; then
		mkdir -p /tmp/oldbin
		ln -sf /spare/bin/spare-ublk-old /tmp/oldbin/spare-ublk
		PATH=/tmp/oldbin:$PATH
	fi
	# shellcheck disable=SC2086
	ublk_up --size 96M --slab-size 8M --state-file none --redundancy ec:4+2 $DONORS
	PATH=$path
	fio --name=qd1w --filename="/dev/$disk" --direct=1 --rw=randwrite --bs=4k \
		--size=32M --iodepth=1 --ioengine=libaio --time_based \
		--runtime="${BENCH_WRITE_SECS:-10}" --output-format=json \
		>/tmp/fio1.json 2>/tmp/fio.err || { cat /tmp/fio.err; fail "fio on $name"; }
	result "$name" qd1w_p50_us $(( $(fio_wkey /tmp/fio1.json 50.000000) / 1000 ))
	result "$name" qd1w_p99_us $(( $(fio_wkey /tmp/fio1.json 99.000000) / 1000 ))
	result "$name" qd1w_iops "$(fio_wkey /tmp/fio1.json iops)"
	ublk_down
	grep '^spare-ublk: ec ' /tmp/ublk.out || true
}
if [ "$MODE" = write ]; then
	modprobe sch_netem || fail "modprobe sch_netem"
	for round in $(seq "${2:-2}"); do
		# old first in odd rounds, new first in even ones: the load drifts
		bins=new
		if [ -x /spare/bin/spare-ublk-old ]; then
			bins="old new"
			[ $((round % 2)) = 0 ] && bins="new old"
		fi
		for link in plain slow; do
			[ $link = slow ] && { ip netns exec switch tc qdisc add dev p7 root netem delay 5ms || fail "netem on p7"; }
			for bin in $bins; do
				step "ec:4+2 QD1 random write: $bin pager, $link link, round $round"
				wrun "ec42w-$bin-$link-$round" $bin
			done
			[ $link = slow ] && { ip netns exec switch tc qdisc del dev p7 root || fail "netem off p7"; }
		done
	done
	pass "done"
	exit 0
fi

# With the argument "swap", the issue's second latency target: the time
# of a swap workload (spare-memtest, 64 MiB, 2 passes, in a cgroup of 32
# MiB with memory.high at 28) on a 96 MiB device as replicas=2 and as
# ec:4+2, on spare.ko and, where the kernel has ublk (6.12), on the
# pager, in rounds (the argument after "swap", default 3) that alternate
# which goes first, all in one boot; results named
# swap-<driver>-<redundancy>-<round> swap_s (seconds, the job's wall
# time; pages swapped out and in beside it):
#   scripts/vm/run -k 6.12.118+deb12-amd64 tests/vm/bench/ec-qd1.sh swap 3
# srun NAME DRIVER ATTRS: one device, swapon, the job timed, swapoff, down.
srun() {
	local name=$1 drv=$2 list= n t0 t1 out0 in0; shift 2
	if [ "$drv" = kmod ]; then
		for n in 2 3 4 5 6 7; do list=$list${list:+,}10.0.0.$n:$DONOR_PORT; done
		disk=$(spare_create bench size=96M slab_size=8M donors="$list" \
			source=10.0.0.1 "$@")
	else
		# shellcheck disable=SC2086
		ublk_up --size 96M --slab-size 8M --state-file none "$@" $DONORS
	fi
	mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon $name"
	cg_new_high work 32M
	out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run work spare-memtest -p 2 64m >/tmp/memtest.out 2>&1 ||
		{ cat /tmp/memtest.out; why_died work; fail "memtest on $name"; }
	t1=$(cut -d' ' -f1 /proc/uptime)
	result "$name" swap_s "$(echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}')"
	result "$name" pswpout $(( $(vmstat_get pswpout) - out0 ))
	result "$name" pswpin $(( $(vmstat_get pswpin) - in0 ))
	swapoff "/dev/$disk" || fail "swapoff $name"
	rmdir /sys/fs/cgroup/work 2>/dev/null
	if [ "$drv" = kmod ]; then
		echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
		spare_destroy bench
	else
		ublk_down
	fi
}
if [ "$MODE" = swap ]; then
	spare_load
	for round in $(seq "${2:-3}"); do
		order="r2 ec"
		[ $((round % 2)) = 0 ] && order="ec r2"
		drivers=kmod
		[ $HAVE_UBLK = 1 ] && drivers="kmod ublk"
		for drv in $drivers; do
			for red in $order; do
				step "swap workload: $drv, $red, round $round"
				if [ $drv = kmod ] && [ $red = r2 ]; then
					srun "swap-$drv-$red-$round" kmod replicas=2
				elif [ $drv = kmod ]; then
					srun "swap-$drv-$red-$round" kmod redundancy=ec:4+2
				elif [ $red = r2 ]; then
					srun "swap-$drv-$red-$round" ublk --copies 2
				else
					srun "swap-$drv-$red-$round" ublk --redundancy ec:4+2
				fi
			done
		done
	done
	pass "done"
	exit 0
fi

# krun NAME ATTR=VALUE...: run's steps on spare.ko; with TRACED=1, the
# spare_ec_read events of its reads of TRACED_OPS operations summed up
# (split_summary).
krun() {
	local name=$1 list= n; shift
	for n in 2 3 4 5 6 7; do list=$list${list:+,}10.0.0.$n:$DONOR_PORT; done
	disk=$(spare_create bench size=96M slab_size=8M donors="$list" \
		source=10.0.0.1 "$@")
	if [ "${TRACED:-0}" = 1 ]; then
		echo 0 >$TRACE/tracing_on
		: >$TRACE/trace
		echo 1 >$TRACE/events/spare/spare_ec_read/enable ||
			fail "no spare_ec_read tracepoint"
		# the write is not traced (reads only); the fio reads are
		echo 1 >$TRACE/tracing_on
	fi
	measure "$name"
	echo "io_stat: $(cat "/sys/block/$disk/spare/io_stat")"
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	if [ "${TRACED:-0}" = 1 ]; then
		echo 0 >$TRACE/tracing_on
		echo 0 >$TRACE/events/spare/spare_ec_read/enable
		grep ' spare_ec_read: ' $TRACE/trace >/tmp/ec-trace.txt
		split_summary "$name" /tmp/ec-trace.txt "$TRACED_OPS"
	fi
	spare_destroy bench
}

# median FILE COLUMN: the median of one column of numbers.
median() {
	cut -d' ' -f"$2" "$1" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# split_summary NAME FILE NOPS: from spare_ec_read events (kmod/spare_trace.h),
# per read in ns after the request started: the first post; each
# operation's ib_post_send() (its own time); the completions in the order
# they came, after the first post; the K-th split (after the first post);
# the copy or decode; the block completion (blk_mq_end_request()); the
# last split. Medians in µs (one decimal) as RESULT lines, and how often
# each split was among the first K; reads of NOPS operations (K + delta,
# none failed) only.
split_summary() {
	local name=$1 f=$2 nops=$3 c
	echo "spare_ec_read events: $(wc -l <"$f"); the first 20:"
	head -20 "$f"
	# columns: 1 first post, 2-6 post cost of ops 0-4, 7-11 completions
	# 1st..5th after the first post (0 past NOPS), 12 kth, 13 fill, 14
	# end, 15 last, 16 posting of all (last op's return after the first
	# post)
	awk -v nops="$nops" '{
		delete d; n = 0; ops = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^ops=/) { ops = substr($i, 5) }
			if ($i ~ /^o[0-9]=/) {
				split(substr($i, 4), a, ":")
				o = substr($i, 2, 1)
				sp[o] = a[1]; pt[o] = a[3]; rt[o] = a[4]; dn[o] = a[5]
			}
			if ($i ~ /^(kth|fill|end|last)=/) {
				split($i, a, "="); t[a[1]] = a[2]
			}
		}
		if (ops != nops) next
		p0 = pt[0]
		for (o = 0; o < 5; o++) d[o] = o < nops ? dn[o] - p0 : 0
		# completions sorted (insertion sort)
		for (o = 1; o < nops; o++) {
			v = d[o]; k = o - 1
			while (k >= 0 && d[k] > v) { d[k + 1] = d[k]; k-- }
			d[k + 1] = v
		}
		printf "%d", p0
		for (o = 0; o < 5; o++) printf " %d", o < nops ? rt[o] - pt[o] : 0
		for (o = 0; o < 5; o++) printf " %d", d[o]
		printf " %d %d %d %d %d\n", t["kth"] - p0, t["fill"] - t["kth"],
			t["end"] - t["fill"], t["last"] - p0, rt[nops - 1] - p0
	}' "$f" >/tmp/ec-cols.txt
	result "$name" split_reads "$(wc -l </tmp/ec-cols.txt)"
	for c in 1:first_post 2:post0 3:post1 4:post2 5:post3 6:post4 \
		7:done1st 8:done2nd 9:done3rd 10:done4th 11:done5th \
		12:kth 13:fill 14:end 15:last 16:posting; do
		result "$name" "split_${c#*:}_us" \
			"$(median /tmp/ec-cols.txt "${c%%:*}" | awk '{printf "%.1f", $1 / 1000}')"
	done
	# how often split j (0..4) was among the first K = 4 to complete
	awk -v nops="$nops" '{
		n = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^ops=/ && substr($i, 5) != nops) next
		for (i = 1; i <= NF; i++) if ($i ~ /^o[0-9]=/ && n < nops) {
			split(substr($i, 4), a, ":"); s[n] = a[1]; t[n] = a[5]; n++
		}
		reads++
		for (x = 0; x < n; x++) {
			r = 0
			for (y = 0; y < n; y++) if (t[y] < t[x]) r++
			if (r < 4) first[s[x]]++
		}
	} END {
		for (j = 0; j < 6; j++)
			printf "RESULT '"$name"' split%d_in_first_k_pct %.1f\n", j, 100 * first[j] / reads
	}' "$f"
}

# read_lat SIZE: one RDMA READ of SIZE bytes between hosts 1 and 2,
# ib_read_lat with completion events (-e), 1000 of them: typical, p99 µs.
read_lat() {
	perftest ib_read_lat 18700 -s "$1" -n 1000 -e >/tmp/lat.out ||
		{ cat /tmp/lat.out; fail "ib_read_lat -s $1"; }
	cat /tmp/lat.out
	awk -v s="$1" '$1 == s {print "RESULT ib_read_lat_" s " typical_us " $5;
		print "RESULT ib_read_lat_" s " p99_us " $8}' /tmp/lat.out
}

spare_load
if [ "$MODE" = split ]; then
	mount -t tracefs nodev $TRACE 2>/dev/null
	[ -d $TRACE/events/spare ] || fail "no tracefs events/spare"
	echo 16384 >$TRACE/buffer_size_kb
	step "ib_read_lat: one 1 KiB and one 4 KiB READ"
	read_lat 1024
	read_lat 4096
	# A/B: ec_delta 1 and 0 one after the other, untraced then traced
	# (the tracepoint's own cost), between two runs of replicas=2 (how
	# much the machine's load moved meanwhile)
	step "spare.ko replicas=2: QD1 read"
	krun kmod-replicas2 replicas=2
	step "spare.ko ec:4+2 (ec_delta 1): QD1 read"
	krun kmod-ec42 redundancy=ec:4+2
	step "spare.ko ec:4+2, ec_delta=0: QD1 read"
	krun kmod-ec42-d0 redundancy=ec:4+2 ec_delta=0
	step "spare.ko ec:4+2 (ec_delta 1): QD1 read, per split"
	TRACED=1 TRACED_OPS=5 krun kmod-ec42-traced redundancy=ec:4+2
	step "spare.ko ec:4+2, ec_delta=0: QD1 read, per split"
	TRACED=1 TRACED_OPS=4 krun kmod-ec42-d0-traced redundancy=ec:4+2 ec_delta=0
	step "spare.ko replicas=2 again: QD1 read"
	krun kmod-replicas2-again replicas=2
	pass "done"
	exit 0
fi
step "spare.ko replicas=3: lent memory"
krun kmod-replicas3 replicas=3
step "spare.ko replicas=2: lent memory, QD1 read"
krun kmod-replicas2 replicas=2
step "spare.ko ec:4+2: lent memory, QD1 read"
krun kmod-ec42 redundancy=ec:4+2
pass "done"
