# SPDX-License-Identifier: GPL-2.0
#
# A donor lost while its copies are being mapped (issue 31, 2.1), on both
# backends: spare.ko on every kernel, then spare-ublk where the kernel has
# ublk (6.12). Two donors (hosts 2 and 3), 128 MiB of 2 MiB slabs, two
# copies of every slab: 64 slabs, 128 copies, MAPs in flight for a while.
# A donor is SIGKILLed a moment after it began answering MAPs:
#  (a) during the power-on mapping (spare.ko only: the pager maps every
#      copy before its device exists, and a donor lost there fails its
#      start with a message; nothing is left half-mapped);
#  (b) during the remap after a reconnect;
#  (c) during the remap after an eviction (every slab asked back).
# Each time it is started again, and every slab must end with both copies
# mapped and current in the slab map (spare.ko's sysfs slab_map, the
# pager's NAME.map: a copy left "mapping" by the dead session was skipped
# for ever before the fix), and the data written (the first 128 KiB of
# every slab) must read back. Host 2 is only killed once host 3's copies
# are current again, so a copy always holds every page.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 500

NSLABS=64
NCOPIES=$((2 * NSLABS))
PAGES=512	# 4 KiB pages per 2 MiB slab

rxe_up 3
# The data: 128 KiB at the head of each slab (little for resync to copy),
# and the image of the whole device it makes, against which one read of
# the device is compared (never-written pages read as zeros, without RDMA).
dd if=/dev/urandom of=/tmp/want bs=128K count=$NSLABS 2>/dev/null || fail "no test data"
dd if=/dev/zero of=/tmp/image bs=1M count=0 seek=128 2>/dev/null || fail "no device image"
for s in $(seq 0 $((NSLABS - 1))); do
	dd if=/tmp/want of=/tmp/image bs=128K count=1 skip="$s" seek=$((s * 16)) \
		conv=notrunc 2>/dev/null || fail "device image"
done

donors_up() {
	donor_start 2 --budget 256M --slab-size 2M
	donor_start 3 --budget 256M --slab-size 2M
}

# map_file: the slab map of the device under test.
map_file() {
	if [ "$BACKEND" = kmod ]; then echo "/sys/block/$disk/spare/slab_map"
	else echo "/run/spare/ublk/$disk.map"; fi
}
# all_current: every copy of every slab mapped and current for every page.
all_current() {
	[ "$(awk -v p=$PAGES '$6 == "mapped" && $7 == p' "$(map_file)" | wc -l)" = $NCOPIES ]
}
# map_states: how many copies are in each state.
map_states() { awk '{n[$6]++} END {for (s in n) printf "%s %d  ", s, n[s]; print ""}' "$(map_file)"; }

# kill_mid_map N MAPS0: SIGKILL donor N once it has granted MAPS0 + 4 MAPs
# (its log counts them), while the rest of its MAPs are in flight.
kill_mid_map() {
	local n=$1 want=$(($2 + 4)) i
	for i in $(seq 1500); do
		[ "$(grep -c ': MAP slab' "/tmp/spared-$n.log")" -ge "$want" ] && break
		sleep 0.02
	done
	kill -KILL "$(donor_pid "$n")"
	wait "$(donor_pid "$n")" 2>/dev/null
	echo "donor $n killed after $(grep -c ': MAP slab' "/tmp/spared-$n.log") MAPs granted"
}

# copies_gone N: no copy on donor N is mapped any more (its loss was seen).
copies_gone() { ! grep -q " 10.0.0.$1:$DONOR_PORT mapped " "$(map_file)"; }

# settle WHAT: wait for every copy to be mapped and current.
settle() {
	wait_until 90 all_current || {
		echo "slab map: $(map_states)"
		grep -v " mapped $PAGES\$" "$(map_file)" | head -10
		show_stats "$disk"
		fail "$BACKEND: $1: not every copy mapped and current 90 s on"
	}
	echo "slab map: $(map_states)"
}

data_write() {
	local s
	for s in $(seq 0 $((NSLABS - 1))); do
		dd if=/tmp/want of="/dev/$disk" bs=128K count=1 skip="$s" seek=$((s * 16)) \
			oflag=direct 2>/dev/null || fail "$BACKEND: write slab $s"
	done
}
data_verify() {
	dd if="/dev/$disk" of=/tmp/back bs=1M iflag=direct 2>/dev/null ||
		fail "$BACKEND: $1: cannot read the device"
	cmp /tmp/back /tmp/image || fail "$BACKEND: $1: the device does not read back as written"
	rm -f /tmp/back
	echo "$BACKEND: $1: all $NSLABS slabs read back"
}

# The rounds (b) and (c), common to both backends.
rounds_bc() {
	step "$BACKEND (b): donor 3 lost, back, and lost again while its copies are mapped again"
	kill -KILL "$(donor_pid 3)"; wait "$(donor_pid 3)" 2>/dev/null
	wait_until 30 copies_gone 3 || fail "$BACKEND: the loss of donor 3 was not noticed"
	donor_start 3 --budget 256M --slab-size 2M
	kill_mid_map 3 0
	donor_start 3 --budget 256M --slab-size 2M
	settle "(b) remap after a reconnect"
	data_verify "(b)"
	pass "$BACKEND (b): every copy mapped and current after the loss mid-remap"

	step "$BACKEND (c): donor 2 asks every slab back, then is lost while they are mapped again"
	maps0=$(grep -c ': MAP slab' /tmp/spared-2.log)
	donor_ctl 2 evict all >/dev/null || fail "$BACKEND: evict all"
	kill_mid_map 2 "$maps0"
	donor_start 2 --budget 256M --slab-size 2M
	settle "(c) remap after an eviction"
	data_verify "(c)"
	pass "$BACKEND (c): every copy mapped and current after the loss mid-remap"
}

# ---- spare.ko ----
BACKEND=kmod
step "kmod (a): power on; donor 3 SIGKILLed while the power-on MAPs are in flight"
donors_up
spare_load
mkdir "$CFS/fence" || fail "mkdir $CFS/fence"
# hold_ms=0: a SIGKILLed spared keeps nothing; the hold is tested by
# donor/restart-live and client/killdonor
for kv in size=128M slab_size=2M replicas=2 donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1 hold_ms=0; do
	echo "${kv#*=}" >"$CFS/fence/${kv%%=*}" || fail "${kv%%=*} refused"
done
( echo 1 >"$CFS/fence/power" ) &
POWER=$!
kill_mid_map 3 0
donor_start 3 --budget 256M --slab-size 2M
wait "$POWER" || { dmesg | tail -20; fail "power on refused"; }
disk=$(cat "$CFS/fence/disk")
settle "(a) power-on mapping"
[ "$(donor_field 10.0.0.3 losses)" -ge 1 ] || fail "the kill of donor 3 was not noticed"
data_write
data_verify "(a)"
pass "kmod (a): every copy mapped and current after the loss mid-mapping"

rounds_bc
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "kmod: I/O errors"
spare_destroy fence
rmmod spare || fail "rmmod"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" 2>/dev/null
done
check_dmesg
pass "kmod: clean teardown"

# ---- spare-ublk ----
modprobe ublk_drv 2>/dev/null || {
	echo "SKIP: spare-ublk part: no ublk in $(uname -r)"
	exit 0
}
BACKEND=ublk
step "ublk: two donors, 64 slabs x 2 copies"
donors_up
ublk_up --size 128M --slab-size 2M --copies 2 --queues 1 --io-timeout 2000 \
	--timeout 3000 --state-file none \
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
wait_until 10 test -f "$(map_file)" || fail "ublk: no $(map_file)"
settle "start"
data_write
data_verify "start"
pass "ublk: up, every copy mapped"

rounds_bc
ublk_down
tail -15 /tmp/ublk.log
[ "$(ublk_stat io_errors)" = 0 ] || fail "ublk: $(ublk_stat io_errors) I/O errors"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" 2>/dev/null
done
check_dmesg
pass "ublk: clean teardown"
