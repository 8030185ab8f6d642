# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# Resynchronisation: two copies of every slab, one on each donor. 64 MiB of
# random data is written to the raw device; the donor on 10.0.0.3 is killed
# and started again, so its copies come back empty, and spare.ko refills
# them from the copies on 10.0.0.2. Then 10.0.0.2 is killed: every byte
# must read back from 10.0.0.3 alone. Without the refill those pages would
# have had no copy left and read as I/O errors.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600
DATA_MB=$((64 / WL_DIV))		# half on the debug kernel (spare.inc)
PAGES=$(( DATA_MB * 256 ))		# in 4 KiB pages
FULL=$(( 2 * SLABS * 4096 ))		# current pages with both copies whole

step "two donors, 2 copies per slab; $DATA_MB MiB written to the raw device"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
spare_load
disk=$(spare_create swap0 size=${DEV_MB}M slab_size=16M replicas=2 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
dd if=/dev/urandom of=/tmp/data bs=1M count=$DATA_MB 2>/dev/null || fail "no random data"
dd if=/tmp/data of="/dev/$disk" bs=1M oflag=direct conv=fsync 2>/dev/null ||
	fail "writing the device"
[ "$(slab_current)" = "$FULL" ] || { show_stats "$disk"; fail "both copies should be whole"; }
pass "written; both copies current"

step "donor 3 killed and started again: its copies are mapped again, then refilled"
kill -KILL "$(donor_pid 3)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 3 was not noticed"; }
[ "$(slab_current)" = $(( FULL / 2 )) ] || { show_stats "$disk"; fail "one copy should be left"; }
donor_start 3 --budget 256M --slab-size 16M
wait_until 60 sh -c "[ \"\$(cut -d' ' -f5 /sys/block/$disk/spare/slab_stat)\" = $((2 * SLABS)) ]" ||
	{ show_stats "$disk"; fail "slabs not mapped again on donor 3"; }
wait_until 120 sh -c "[ \"\$(cut -d' ' -f10 /sys/block/$disk/spare/slab_stat)\" = $FULL ]" ||
	{ show_stats "$disk"; fail "the copies on donor 3 were not refilled"; }
show_stats "$disk"
[ "$(io_stat "$disk" resync_pages)" -ge "$PAGES" ] ||
	fail "only $(io_stat "$disk" resync_pages) pages resynced, $PAGES written"
pass "$(io_stat "$disk" resync_pages) pages copied to donor 3; both copies whole again"

step "donor 2 killed: every byte reads back from donor 3's refilled copies"
kill -KILL "$(donor_pid 2)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 2 was not noticed"; }
dd if="/dev/$disk" of=/tmp/back bs=1M count=$DATA_MB iflag=direct 2>/dev/null ||
	{ show_stats "$disk"; dmesg | tail -20; fail "reading the device back"; }
cmp /tmp/data /tmp/back || fail "data read back differs"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
pass "$DATA_MB MiB read back intact from the resynced copies alone"

step "teardown"
spare_destroy swap0
rmmod spare || fail "rmmod"
check_dmesg
pass "clean teardown"
