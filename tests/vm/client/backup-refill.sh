# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# A one-copy device with a backup refills a failed copy from the backup:
# 64 MiB of random data go to the device (O_DIRECT), half of it on each of
# two donors; the donor on 10.0.0.3 is killed and started again, spare maps
# its slabs again (zero filled) and resync copies the written pages into
# them from the backup. Then the backup is overwritten with zeros: the data
# must still read back, all of it from the donors. Without the refill the
# reads of donor 3's half would come from the zeroed backup.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 300

step "two donors, 1 copy per slab, a sync backup on /dev/ram0"
modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
spare_load
disk=$(spare_create swap0 size=256M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1 \
	backup=/dev/ram0 backup_mode=sync)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
dd if=/dev/urandom of=/tmp/pattern bs=1M count=64 2>/dev/null || fail "no pattern"
dd if=/tmp/pattern of="/dev/$disk" bs=1M oflag=direct conv=fsync 2>/dev/null ||
	fail "writing the pattern"
[ "$(slab_current)" = 65536 ] || { show_stats "$disk"; fail "not every page current after the write"; }
pass "64 MiB written to both donors and the backup"

step "donor 3 killed and started again: its slabs come back empty"
kill -KILL "$(donor_pid 3)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 3 was not noticed"; }
lost=$((65536 - $(slab_current)))
echo "pages with no current copy after the loss: $lost"
[ "$lost" -ge 8192 ] || fail "only $lost pages lost their copy; want donor 3's half of 64 MiB"
rs0=$(io_stat "$disk" resync_pages)
donor_start 3 --budget 256M --slab-size 16M
pass "donor 3 back"

step "resync refills donor 3's copies from the backup"
wait_until 60 sh -c "[ \"\$(cut -d' ' -f10 /sys/block/$disk/spare/slab_stat)\" = 65536 ]" ||
	{ show_stats "$disk"; dmesg | tail -20; fail "donor 3's copies not refilled"; }
show_stats "$disk"
rs=$(( $(io_stat "$disk" resync_pages) - rs0 ))
echo "resync copied $rs pages from the backup"
[ "$rs" -ge 8192 ] || fail "resync copied only $rs pages"
pass "every page current on a donor again"

step "the backup is zeroed: every byte still reads back, from the donors"
dd if=/dev/zero of=/dev/ram0 bs=1M count=256 oflag=direct 2>/dev/null || fail "zeroing the backup"
b0=$(io_stat "$disk" backup_reads)
dd if="/dev/$disk" of=/tmp/back bs=1M count=64 iflag=direct 2>/dev/null || fail "reading back"
cmp /tmp/pattern /tmp/back || { show_stats "$disk"; fail "data read back differs"; }
[ "$(io_stat "$disk" backup_reads)" = "$b0" ] || fail "reads went to the backup"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
pass "64 MiB verified, none of it read from the backup"

step "teardown"
spare_destroy swap0
rmmod spare || fail "rmmod"
rmmod brd || fail "rmmod brd"
check_dmesg
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" 2>/dev/null
done
pass "clean teardown"
