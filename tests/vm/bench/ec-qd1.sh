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

ublk_require
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

step "replicas=3: lent memory"
run replicas3 --copies 3
step "replicas=2: lent memory, QD1 read"
run replicas2 --copies 2
step "ec:4+2: lent memory, QD1 read"
run ec42 --redundancy ec:4+2

# krun NAME ATTR=VALUE...: run's steps on spare.ko.
krun() {
	local name=$1 list= n; shift
	for n in 2 3 4 5 6 7; do list=$list${list:+,}10.0.0.$n:$DONOR_PORT; done
	disk=$(spare_create bench size=96M slab_size=8M donors="$list" \
		source=10.0.0.1 "$@")
	measure "$name"
	echo "io_stat: $(cat "/sys/block/$disk/spare/io_stat")"
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	spare_destroy bench
}

spare_load
step "spare.ko replicas=3: lent memory"
krun kmod-replicas3 replicas=3
step "spare.ko replicas=2: lent memory, QD1 read"
krun kmod-replicas2 replicas=2
step "spare.ko ec:4+2: lent memory, QD1 read"
krun kmod-ec42 redundancy=ec:4+2
pass "done"
