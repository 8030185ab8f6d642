# SPDX-License-Identifier: GPL-2.0
#
# Swap benchmark, all backends in one guest boot so that ratios are fair.
# Run from the host with tools/bench/swap-bench (it makes the table).
#
# For each backend it measures, on the raw block device:
#   fio 4 KiB random read at QD1 (p50, p99 completion latency, µs) and at
#   QD32 (MB/s); then, with the device as the only swap:
#   the time of spare-memtest (SIZE, PASSES) in a cgroup with memory.max=MAX.
# For RDMA it also runs ib_read_lat / ib_read_bw on the same link, and for
# spare the donors' CPU time during the workload.
#
# Every result is printed as "RESULT <backend> <metric> <value>".
# Arguments: backend names to run (default: all):
#   rdma-raw spare spare-base spare-ublk spare-ublk-poll spare-ublk-q2
#   spare-ublk-split
#   nvme-rdma nbd zram dm-delay
# (a name given twice runs twice)
# and settings, BENCH_NAME=VALUE: BENCH_SIZE, BENCH_PASSES, BENCH_MAX
# (memory.max), BENCH_HIGH (memory.high, default none), BENCH_FIO_SECS,
# BENCH_DELAY_MS (dm-delay).
. /spare/tests/vm/lib.sh
[ -f /spare/tests/vm/spare.inc ] && . /spare/tests/vm/spare.inc
set -u

names=
for a in "$@"; do
	case $a in
	BENCH_[A-Z_]*=*) export "${a?}" ;;
	*) names="$names $a" ;;
	esac
done
set -- $names

SIZE=${BENCH_SIZE:-192m}
PASSES=${BENCH_PASSES:-2}
MAX=${BENCH_MAX:-48M}
HIGH=${BENCH_HIGH:-max}
FIO_SECS=${BENCH_FIO_SECS:-10}
DELAY_MS=${BENCH_DELAY_MS:-1}
DEV_MB=256
backends=${*:-rdma-raw spare nvme-rdma nbd zram dm-delay}

result() { echo "RESULT $1 $2 $3"; }

# fio_json FILE KEY: the first number after "KEY" in fio's JSON (the read
# section comes first for a read-only job).
fio_json() { grep -m1 "\"$2\"" "$1" | sed 's/.*: *//; s/[,}].*//'; }
# fio_pct FILE SECTION PCT: percentile PCT (e.g. 50.000000, or "mean") of SECTION
# (clat_ns: from submission done to completion; lat_ns: end to end, with
# the submission) in fio's JSON, in ns.
fio_pct() {
	awk -v s="\"$2\"" -v p="\"$3\"" 'index($0, s) {f = 1}
		f && index($0, p) {sub(/.*: */, ""); sub(/[,}].*/, ""); print; exit}' "$1"
}

bench_fio_qd1() {	# bench_fio_qd1 NAME DEV
	local name=$1 dev=$2
	fio --name=qd1 --filename="$dev" --direct=1 --rw=randread --bs=4k \
		--iodepth=1 --ioengine=libaio --time_based --runtime="$FIO_SECS" \
		--percentile_list=50:99 --clat_percentiles=1 --lat_percentiles=1 \
		--output-format=json >/tmp/fio1.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; echo "fio failed on $dev"; return 1; }
	# qd1_*: completion latency (fio's clat); qd1_lat_*: end to end,
	# submission included (fio's lat), the figure to set against
	# ib_read_lat, which times a whole read too
	result "$name" qd1_p50_us $(( $(fio_pct /tmp/fio1.json clat_ns 50.000000) / 1000 ))
	result "$name" qd1_p99_us $(( $(fio_pct /tmp/fio1.json clat_ns 99.000000) / 1000 ))
	result "$name" qd1_lat_p50_us $(( $(fio_pct /tmp/fio1.json lat_ns 50.000000) / 1000 ))
	result "$name" qd1_lat_p99_us $(( $(fio_pct /tmp/fio1.json lat_ns 99.000000) / 1000 ))
	result "$name" qd1_mean_us "$(fio_pct /tmp/fio1.json clat_ns mean | awk '{printf "%d", $1 / 1000}')"
	result "$name" qd1_lat_mean_us "$(fio_pct /tmp/fio1.json lat_ns mean | awk '{printf "%d", $1 / 1000}')"
}

bench_fio() {	# bench_fio NAME DEV
	local name=$1 dev=$2
	bench_fio_qd1 "$name" "$dev" || return 1
	fio --name=qd32 --filename="$dev" --direct=1 --rw=randread --bs=4k \
		--iodepth=32 --ioengine=libaio --time_based --runtime="$FIO_SECS" \
		--output-format=json >/tmp/fio32.json 2>/tmp/fio.err ||
		{ cat /tmp/fio.err; echo "fio failed on $dev"; return 1; }
	result "$name" qd32_MBps $(( $(fio_json /tmp/fio32.json bw_bytes) / 1000000 ))
}

bench_swap() {	# bench_swap NAME DEV
	swap_run "$2" bench "$SIZE" "$PASSES"
	local rc=$?
	result "$1" swap_verified "$SWAP_RESULT"
	[ $rc = 0 ] || return 1
	result "$1" swap_s "$SWAP_SECONDS"
	result "$1" pswpout "$SWAP_OUT"
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The client's CPU time during the swap workload, whatever backend: every
# busy tick of the guest (user, nice, system, irq, softirq: /proc/stat)
# less the donors' processes' own, per GiB that went through swap (pages
# out plus pages in). It includes the workload itself and soft-RoCE's
# kernel work for both ends, alike for every backend run this way.
busy_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
donor_ticks() { echo $(( $(cpu_ticks "$(donor_pid 2)") + $(cpu_ticks "$(donor_pid 3)") )); }
client_cpu_begin() {
	CC_B0=$(busy_ticks); CC_D0=$(donor_ticks)
	CC_O0=$(vmstat_get pswpout); CC_I0=$(vmstat_get pswpin)
}
client_cpu_end() {	# client_cpu_end NAME
	local ticks pages
	ticks=$(( $(busy_ticks) - CC_B0 - ($(donor_ticks) - CC_D0) ))
	pages=$(( $(vmstat_get pswpout) - CC_O0 + $(vmstat_get pswpin) - CC_I0 ))
	result "$1" client_cpu_ms $(( ticks * 10 ))
	[ "$pages" -gt 0 ] && result "$1" client_cpu_ms_per_gib $(( ticks * 10 * 262144 / pages ))
	return 0
}

with_brd() { modprobe brd rd_nr=1 rd_size=$((DEV_MB * 1024)) || fail "modprobe brd"; }
without_brd() { rmmod brd 2>/dev/null; }

run_rdma_raw() {
	local o
	# columns: bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9
	o=$(perftest ib_read_lat 18700 -s 4096 -n 1000 | grep -E '^ *4096 +1000') || return 1
	result rdma-raw read_lat_typical_us "$(echo "$o" | awk '{print $5}')"
	result rdma-raw read_lat_p99_us "$(echo "$o" | awk '{print $8}')"
	o=$(perftest ib_read_bw 18701 -s 4096 -n 2000 | grep -E '^ *4096 +2000') || return 1
	result rdma-raw read_bw_MBps "$(echo "$o" | awk '{print $4}')"
}

run_spare() {
	local disk t2 t3 rc=0 spare=${SPARE_NAME:-spare}
	command -v spare_create >/dev/null || { echo "spare.inc missing"; return 1; }
	donor_start 2 --budget 320M --slab-size 16M
	donor_start 3 --budget 320M --slab-size 16M
	spare_load
	disk=$(spare_create bench0 size=${DEV_MB}M slab_size=16M replicas=1 \
		donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1) || return 1
	bench_fio "$spare" "/dev/$disk" || rc=1
	t2=$(( $(cpu_ticks "$(donor_pid 2)") + $(cpu_ticks "$(donor_pid 3)") ))
	client_cpu_begin
	bench_swap "$spare" "/dev/$disk" || rc=1
	client_cpu_end "$spare"
	t3=$(( $(cpu_ticks "$(donor_pid 2)") + $(cpu_ticks "$(donor_pid 3)") ))
	result "$spare" donor_cpu_ms $(( (t3 - t2) * 10 ))
	result "$spare" write_waits "$(io_stat "$disk" write_waits)"
	spare_destroy bench0
	kill "$(donor_pid 2)" "$(donor_pid 3)"; wait "$(donor_pid 2)" "$(donor_pid 3)" 2>/dev/null
	rmmod spare
	return $rc
}

# The same with another build of spare.ko, to compare two in one boot: the
# module at build/bin/spare-base.ko on the host (/spare/bin in the guest;
# Documentation/perf/qrq-backpressure/ has the commands).
run_spare_base() {
	[ -f /spare/bin/spare-base.ko ] || { echo "no /spare/bin/spare-base.ko"; return 1; }
	# what spare_load does before its insmod: without the codec's modules
	# a first spare-base round failed with "unknown symbol" (session 39)
	modprobe configfs 2>/dev/null
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config
	spare_deps
	insmod /spare/bin/spare-base.ko || return 1
	SPARE_NAME=spare-base run_spare
}

# split_results NAME LOG: the pager's own split of its reads' time, from
# the line it logs at exit, as RESULT lines.
split_results() {
	set -- "$1" $(sed -n 's/.*reads served by RDMA: \([0-9]*\); held by the pager p50 \([0-9]*\) us, p99 \([0-9]*\) us; of that, RDMA p50 \([0-9]*\) us, p99 \([0-9]*\) us.*/\1 \2 \3 \4 \5/p' "$2")
	[ $# = 6 ] || { echo "no read split in the pager's log"; return 1; }
	result "$1" split_reads "$2"
	result "$1" held_p50_us "$3"
	result "$1" held_p99_us "$4"
	result "$1" rdma_p50_us "$5"
	result "$1" rdma_p99_us "$6"
}

# spare-ublk (the userspace pager) on the same two donors, one copy, as
# run_spare; also its own CPU time during the swap workload (the pager's
# threads, including the io_uring and ublk work done in its context).
run_spare_ublk() {
	local pid t0 t1 rc=0 name=${UBLK_NAME:-spare-ublk}
	modprobe ublk_drv || { echo "no ublk in $(uname -r)"; return 1; }
	donor_start 2 --budget 320M --slab-size 16M
	donor_start 3 --budget 320M --slab-size 16M
	spare-ublk --size ${DEV_MB}M --slab-size 16M --source 10.0.0.1 \
		--donor 10.0.0.2:18515 --donor 10.0.0.3:18515 ${UBLK_ARGS:-} >/tmp/ublk.out 2>/tmp/ublk.log &
	pid=$!
	wait_for 150 grep -q '^ublkb' /tmp/ublk.out || { cat /tmp/ublk.log; return 1; }
	wait_for 50 test -b "/dev/$(head -1 /tmp/ublk.out)" || return 1
	if [ -n "${UBLK_QD1_ONLY:-}" ]; then
		bench_fio_qd1 "$name" "/dev/$(head -1 /tmp/ublk.out)" || rc=1
	else
		bench_fio "$name" "/dev/$(head -1 /tmp/ublk.out)" || rc=1
		t0=$(cpu_ticks "$pid")
		client_cpu_begin
		bench_swap "$name" "/dev/$(head -1 /tmp/ublk.out)" || rc=1
		client_cpu_end "$name"
		t1=$(cpu_ticks "$pid")
		result "$name" pager_cpu_ms $(( (t1 - t0) * 10 ))
	fi
	kill -TERM "$pid"; wait "$pid" || rc=1
	cat /tmp/ublk.log; grep '^spare-ublk:' /tmp/ublk.out
	if [ -n "${UBLK_QD1_ONLY:-}" ]; then
		split_results "$name" /tmp/ublk.log || rc=1
	fi
	kill "$(donor_pid 2)" "$(donor_pid 3)"; wait "$(donor_pid 2)" "$(donor_pid 3)" 2>/dev/null
	return $rc
}

# The same with --poll-us 200 (reap completions before sleeping).
run_spare_ublk_poll() { UBLK_NAME=spare-ublk-poll UBLK_ARGS="--poll-us 200" run_spare_ublk; }
# The same with two ublk queues, one per guest CPU (--queues 2).
run_spare_ublk_q2() { UBLK_NAME=spare-ublk-q2 UBLK_ARGS="--queues 2" run_spare_ublk; }

# QD1 alone, then the pager's split of its reads' time (logged at exit):
# how long the pager held them, and how much of that was RDMA. What fio
# sees beyond "held" is the ublk driver and io_uring.
run_spare_ublk_split() { UBLK_NAME=spare-ublk-split UBLK_QD1_ONLY=1 run_spare_ublk; }


# nvme-rdma, striped like spare: a 128 MiB brd namespace exported by
# nvmet-rdma on each donor address (10.0.0.2 and 10.0.0.3), both connected,
# and dm-stripe over them in 16 MiB chunks, as spare's replicas=1 device
# puts its 16 MiB slabs on the two donors in turn.
NVME_HOSTS="2 3"
run_nvme_rdma() {
	local n=/sys/kernel/config/nvmet h i rc=0 half=$((DEV_MB / 2)) dev2= dev3= d
	modprobe brd rd_nr=2 rd_size=$((half * 1024)) || fail "modprobe brd"
	modprobe nvmet && modprobe nvmet_rdma && modprobe nvme_rdma || { echo "nvme modules"; return 1; }
	i=0
	for h in $NVME_HOSTS; do
		mkdir "$n/subsystems/spare-bench-$h" &&
		echo 1 >"$n/subsystems/spare-bench-$h/attr_allow_any_host" &&
		mkdir "$n/subsystems/spare-bench-$h/namespaces/1" &&
		echo "/dev/ram$i" >"$n/subsystems/spare-bench-$h/namespaces/1/device_path" &&
		echo 1 >"$n/subsystems/spare-bench-$h/namespaces/1/enable" &&
		mkdir "$n/ports/$h" &&
		echo "$(host_addr "$h")" >"$n/ports/$h/addr_traddr" &&
		echo rdma >"$n/ports/$h/addr_trtype" &&
		echo 4420 >"$n/ports/$h/addr_trsvcid" &&
		echo ipv4 >"$n/ports/$h/addr_adrfam" &&
		ln -s "$n/subsystems/spare-bench-$h" "$n/ports/$h/subsystems/spare-bench-$h" ||
			{ echo "nvmet configuration failed"; return 1; }
		echo "transport=rdma,traddr=$(host_addr "$h"),trsvcid=4420,nqn=spare-bench-$h,host_traddr=$(host_addr 1)" \
			>/dev/nvme-fabrics || { echo "nvme connect to host $h failed"; return 1; }
		i=$((i + 1))
	done
	i=0
	while [ "$(ls /dev/nvme*n1 2>/dev/null | wc -l)" -lt 2 ]; do
		i=$((i + 1)); [ $i -gt 100 ] && { echo "not two nvme namespaces"; return 1; }; sleep 0.1
	done
	# which controller reached which donor (busybox sh: no arrays)
	for d in /sys/class/nvme/nvme*; do
		grep -q "traddr=$(host_addr 2)," "$d/address" && dev2=/dev/$(basename "$d")n1
		grep -q "traddr=$(host_addr 3)," "$d/address" && dev3=/dev/$(basename "$d")n1
	done
	[ -b "$dev2" ] && [ -b "$dev3" ] || { cat /sys/class/nvme/nvme*/address; echo "nvme namespaces not found"; return 1; }
	dmsetup create nvstripe --noudevsync --table \
		"0 $((DEV_MB * 2048)) striped 2 32768 $dev2 0 $dev3 0" ||
		{ echo "dm-stripe failed"; return 1; }
	dmsetup mknodes nvstripe 2>/dev/null
	bench_fio nvme-rdma /dev/mapper/nvstripe || rc=1
	bench_swap nvme-rdma /dev/mapper/nvstripe || rc=1
	dmsetup remove nvstripe
	for d in /sys/class/nvme/nvme*; do echo 1 >"$d/delete_controller"; done
	for h in $NVME_HOSTS; do
		rm "$n/ports/$h/subsystems/spare-bench-$h"; rmdir "$n/ports/$h"
		echo 0 >"$n/subsystems/spare-bench-$h/namespaces/1/enable"
		rmdir "$n/subsystems/spare-bench-$h/namespaces/1" "$n/subsystems/spare-bench-$h"
	done
	without_brd
	return $rc
}

run_nbd() {
	local rc=0
	with_brd
	modprobe nbd || { echo "modprobe nbd"; return 1; }
	mkdir -p /etc/nbd-server
	printf '[generic]\nuser = root\ngroup = root\nlistenaddr = %s\n[swap]\nexportname = /dev/ram0\n' \
		"$(host_addr 2)" >/etc/nbd-server/config
	nbd-server -C /etc/nbd-server/config || { echo "nbd-server failed"; return 1; }
	sleep 1
	nbd-client "$(host_addr 2)" /dev/nbd0 -N swap -swap >/dev/null 2>&1 ||
		{ echo "nbd-client failed"; return 1; }
	bench_fio nbd /dev/nbd0 || rc=1
	bench_swap nbd /dev/nbd0 || rc=1
	nbd-client -d /dev/nbd0 >/dev/null 2>&1
	killall nbd-server 2>/dev/null
	sleep 1
	without_brd
	return $rc
}

run_zram() {
	local rc=0
	modprobe zram num_devices=1 || { echo "modprobe zram"; return 1; }
	echo ${DEV_MB}M >/sys/block/zram0/disksize
	bench_fio zram /dev/zram0 || rc=1
	bench_swap zram /dev/zram0 || rc=1
	echo 1 >/sys/block/zram0/reset
	rmmod zram
	return $rc
}

run_dm_delay() {
	local sectors=$((DEV_MB * 2048)) rc=0
	with_brd
	modprobe dm_delay || { echo "modprobe dm_delay"; return 1; }
	dmsetup create slowdisk --noudevsync --table "0 $sectors delay /dev/ram0 0 $DELAY_MS" ||
		{ echo "dmsetup failed"; return 1; }
	dmsetup mknodes slowdisk 2>/dev/null
	result dm-delay delay_ms "$DELAY_MS"
	bench_fio dm-delay /dev/mapper/slowdisk || rc=1
	bench_swap dm-delay /dev/mapper/slowdisk || rc=1
	dmsetup remove --noudevsync slowdisk
	without_brd
	return $rc
}

step "set-up: client 10.0.0.1, donors 10.0.0.2 and 10.0.0.3; workload $SIZE x $PASSES passes in memory.max=$MAX, memory.high=$HIGH"
rxe_up 3
cg_new bench "$MAX"
echo "$HIGH" >/sys/fs/cgroup/bench/memory.high || fail "memory.high=$HIGH"
result config memory_max "$MAX"
result config memory_high "$HIGH"
for b in $backends; do
	step "backend $b"
	if "run_$(echo "$b" | tr - _)"; then
		pass "$b"
	else
		echo "FAIL: $b (continuing with the others)"
	fi
done
