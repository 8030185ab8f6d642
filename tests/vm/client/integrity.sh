# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
# vm-backends: kmod ublk
#
# Per-page integrity (configfs integrity=crc32c). The fault is real and
# comes from outside spare: after 32 MiB of random data are written, one
# donor's lent memory is overwritten through /proc/<spared>/mem (as a
# faulty DIMM or a stray writer on the donor would), with no hook in spared.
#   - control, integrity=none: the corrupted data is returned silently (so
#     the corruption does reach readers);
#   - crc32c, 2 copies: every byte reads back right, the bad pages were
#     detected (io_stat integrity_errors) and re-read from the other copy;
#   - crc32c, 1 copy and a backup device: right data, from the backup;
#   - crc32c, 1 copy and a backup device, both corrupted: an I/O error
#     (pages read from the backup are checked too);
#   - crc32c, 1 copy, no backup: the read fails with an I/O error; the bad
#     data is never returned.
#   - crc32c and O_DIRECT whose buffers start 512 bytes past a page (the
#     block layer then builds sub-page segments, unless the device's DMA
#     alignment refuses them with EINVAL): either outcome is allowed, but
#     every page must then read back as the device last accepted it, with
#     no integrity error, in the middle and at the device's last pages.
#   - crc32c with redundancy=ec:4+2 (a checksum per split of each page; six
#     donors on hosts 2-7, which replace the two above): the donor of split
#     0 corrupted: every page reads right, decoded around it, the bad
#     splits counted, logged once per group and rebuilt (ec_stat); then
#     the donors of splits 1 and 2 corrupted too: every page still reads
#     right, which it can only if split 0 was rebuilt with the right bytes.
# The pager (--integrity crc32c, BACKEND=ublk; its own block below, which
# ends the scenario): bad input; the control without it (corrupted data
# returned); 2 copies (right data, errors counted, the bad copy refilled
# by resync until every page is current on both again); 1 copy (EIO,
# logged once per slab); ec:4+2 with a checksum per split: the donor of
# split 0 corrupted (every read decodes around it, its pages rebuilt),
# then the donors of splits 1 and 2 corrupted too: every page still reads
# right, which it can only if split 0 was rebuilt with the right bytes.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

MB=32

# integrity_errors DISK: io_stat field 15 (appended after backup_waits).
integrity_errors() { io_stat "$1" integrity_errors; }

# corrupt N: overwrite every slab mapping of donor N with random bytes
# (16 MiB pieces; the kernel may merge neighbours into one mapping).
corrupt() {
	local pid n=0 range start end
	pid=$(donor_pid "$1")
	# slabs: spared's shared mappings of its "spare-slab" memfds (one per
	# slab, so that a restart in place keeps them: spared.md)
	for range in $(awk '$2 == "rw-s" && $6 == "/memfd:spare-slab" {print $1}' "/proc/$pid/maps"); do
		start=$((0x${range%-*})); end=$((0x${range#*-}))
		dd if=/dev/urandom of="/proc/$pid/mem" bs=4096 seek=$((start / 4096)) \
			count=$(((end - start) / 4096)) conv=notrunc 2>/dev/null || fail "cannot write donor $1's slab at $range"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || fail "donor $1 lends no slab"
	echo "corrupted $n slabs of donor $1"
}

# fill DISK: 32 MiB of random data at offset 0, then the page cache dropped.
fill() {
	dd if=/dev/urandom of=/tmp/pattern bs=1M count=$MB 2>/dev/null
	dd if=/tmp/pattern of="/dev/$1" bs=1M conv=fsync 2>/dev/null || fail "write $1"
	echo 3 >/proc/sys/vm/drop_caches
}

# readback DISK: 0 if the data reads back right, 1 if it differs, 2 on EIO.
readback() {
	rm -f /tmp/back
	echo 3 >/proc/sys/vm/drop_caches
	dd if="/dev/$1" of=/tmp/back bs=1M count=$MB 2>/dev/null || return 2
	cmp -s /tmp/pattern /tmp/back || return 1
	return 0
}

# ---- the pager (BACKEND=ublk) ------------------------------------------
if [ "$BACKEND" = ublk ]; then
	ublk_require
	step "soft-RoCE: the pager on 10.0.0.1, six donors on 10.0.0.2-7"
	rxe_up 7
	DONORS=
	for n in 2 3 4 5 6 7; do
		donor_start $n --budget 64M --slab-size 8M
		DONORS="$DONORS --donor 10.0.0.$n:$DONOR_PORT"
	done
	pass "donors up"

	# uf LINE N: field N of a line of the live counters file of device
	# $UNAME (io_stat: 10 io_errors, 14 resync_pages, 16 integrity_errors;
	# slab_stat: 11 current pages; ec_stat version 5: 10 EIO pages, 13
	# split pages rebuilt, 16 split slabs waiting for a rebuild)
	uf() { awk -v k="$1" -v f="$2" '$1 == k {print $f}' "/run/spare/ublk/$UNAME"; }
	up() { UNAME=$1; shift; ublk_up --name "$UNAME" --size ${MB}M --slab-size 8M --state-file none "$@"; }
	# the main thread writes the live counters once a second: a value
	# read right after a read may be the second before's
	uf_fresh() { counters_fresh "/run/spare/ublk/$UNAME"; }

	step "bad --integrity: refused with a reason"
	rc=0
	spare-ublk --source 10.0.0.1 --size 32M --slab-size 8M --state-file none --integrity md5 \
		--donor 10.0.0.2:$DONOR_PORT >/tmp/bad.out 2>/tmp/bad.log || rc=$?
	[ $rc = 2 ] && grep -q 'none or crc32c' /tmp/bad.log || { cat /tmp/bad.log; fail "--integrity md5: exit $rc"; }
	pass "refused: $(grep -m1 'none or crc32c' /tmp/bad.log)"

	step "control: no --integrity, 1 copy: the corrupted data reaches the reader"
	up i0 --donor 10.0.0.2:$DONOR_PORT
	fill "$disk"
	corrupt 2
	rc=0; readback "$disk" || rc=$?
	[ $rc = 1 ] || fail "without --integrity the read gave rc $rc, expected corrupted data"
	ublk_down
	pass "corruption on the donor reaches the reader without integrity"

	step "crc32c, 2 copies: bad pages read from the other copy, the bad copy refilled"
	up i1 --copies 2 --integrity crc32c --donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
	grep -q 'integrity crc32c: 32 KiB of checksums (1 per page)' /tmp/ublk.log ||
		{ cat /tmp/ublk.log; fail "no checksum table (4 bytes a page)"; }
	fill "$disk"
	corrupt 2
	readback "$disk" || { cat "/run/spare/ublk/$UNAME"; fail "read back differs or failed with crc32c and 2 copies (rc $?)"; }
	uf_fresh
	ie=$(uf io_stat 16)
	[ "$ie" -gt 0 ] || fail "no integrity error counted although donor 2 was corrupted"
	[ "$(uf io_stat 10)" = 0 ] || fail "I/O errors"
	# the demoted pages come back on donor 2's copy: every page current twice
	wait_for 300 sh -c "[ \"\$(awk '\$1 == \"slab_stat\" {print \$11}' /run/spare/ublk/i1)\" = $((2 * MB * 256)) ]" ||
		{ cat /run/spare/ublk/i1; tail -20 /tmp/ublk.log; fail "the bad pages were not refilled"; }
	grep 'copy .* (donor 10.0.0.2): page .* failed its crc32c check; read from another source, the copy refilled' /tmp/ublk.log ||
		{ tail -20 /tmp/ublk.log; fail "no line for donor 2's bad pages"; }
	[ "$(grep -c 'failed its crc32c check' /tmp/ublk.log)" -le 4 ] || fail "more than one line per slab"
	ublk_down
	[ "$(ublk_stat resync_pages)" -gt 0 ] || fail "nothing resynced"
	pass "every byte right; $ie bad pages caught, read from donor 3 and refilled on donor 2"

	step "crc32c, 1 copy, no backup: an I/O error, never the bad data"
	up i2 --integrity crc32c --donor 10.0.0.3:$DONOR_PORT
	fill "$disk"
	corrupt 3
	rc=0; readback "$disk" || rc=$?
	[ $rc = 2 ] || fail "expected an I/O error, got rc $rc (1 = corrupted data returned)"
	uf_fresh
	[ "$(uf io_stat 16)" -gt 0 ] || fail "no integrity error counted"
	[ "$(uf io_stat 10)" -gt 0 ] || fail "no I/O error counted"
	grep -q 'failed its crc32c check; no other source holds it' /tmp/ublk.log || fail "no line for the bad page"
	ublk_down
	pass "no good source: EIO, never wrong data"

	step "crc32c, ec:4+2: split 0's donor corrupted: decoded around and rebuilt"
	up i3 --redundancy ec:4+2 --integrity crc32c --io-timeout 2000 $DONORS
	grep -q 'integrity crc32c: 192 KiB of checksums (6 per page)' /tmp/ublk.log ||
		{ cat /tmp/ublk.log; fail "no checksum table (4 bytes a split)"; }
	fill "$disk"
	corrupt 2	# the group's split 0 (round robin from donor 0)
	readback "$disk" || { cat "/run/spare/ublk/$UNAME"; fail "read back differs or failed with one bad split (rc $?)"; }
	uf_fresh
	[ "$(uf ec_stat 2)" = 5 ] || fail "ec_stat version $(uf ec_stat 2), this step reads version 5's fields"
	ie=$(uf io_stat 16)
	[ "$ie" -ge $((MB * 256)) ] || fail "$ie integrity errors, expected one per page ($((MB * 256)))"
	[ "$(uf io_stat 10)" = 0 ] || fail "I/O errors"
	wait_for 300 sh -c "[ \"\$(awk '\$1 == \"ec_stat\" {print \$16}' /run/spare/ublk/i3)\" = 0 ]" ||
		{ cat /run/spare/ublk/i3; tail -20 /tmp/ublk.log; fail "split 0 not rebuilt"; }
	rebuilt=$(uf ec_stat 13)
	[ "$rebuilt" -ge $((MB * 256)) ] || fail "$rebuilt split pages rebuilt, expected $((MB * 256))"
	grep -q 'coding group 0: split 0 of page .* (donor 10.0.0.2) failed its crc32c check; treated as missing and rebuilt' /tmp/ublk.log ||
		{ tail -20 /tmp/ublk.log; fail "no line for split 0"; }
	pass "every byte right; $ie bad splits caught, $rebuilt split pages rebuilt"

	step "ec:4+2: splits 1 and 2 corrupted too: only K good splits, split 0's rebuilt pages among them"
	corrupt 3
	corrupt 4
	readback "$disk" || { cat "/run/spare/ublk/$UNAME"; fail "read back differs or failed (rc $?): split 0's pages were not rebuilt right"; }
	uf_fresh
	[ "$(uf io_stat 10)" = 0 ] || fail "I/O errors"
	[ "$(uf ec_stat 10)" = 0 ] || fail "$(uf ec_stat 10) EIO pages"
	ublk_down
	grep -q 'Assertion\|AddressSanitizer' /tmp/ublk.log && fail "unexpected line in the pager's log"
	pass "every byte right from splits 0 (rebuilt), 3, 4 and 5; $(ublk_stat integrity_errors) bad splits in all"

	step "teardown"
	for n in 2 3 4 5 6 7; do
		kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
	done
	pass "clean teardown"
	exit 0
fi

# ---- spare.ko (BACKEND=kmod) ---------------------------------------------
step "soft-RoCE, two donors, a backup ramdisk"
rxe_up 7	# hosts 4-7: the ec step's donors
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
spare_load
modprobe brd rd_nr=1 rd_size=$((64 * 1024)) || fail "modprobe brd"
pass "ready"

step "crc32c: O_DIRECT with buffers 512 bytes past a page boundary"
disk=$(spare_create d5 size=32M slab_size=16M replicas=1 integrity=crc32c \
	donors=10.0.0.2:18515 source=10.0.0.1)
# (and, while a device is up: slab_map, built whole under every slab's
# lock at each read, is root's only)
[ "$(stat -c %a "/sys/block/$disk/spare/slab_map")" = 400 ] ||
	fail "slab_map has mode $(stat -c %a "/sys/block/$disk/spare/slab_map"), not 400"
dd if=/dev/urandom of=/tmp/expect bs=1M count=32 2>/dev/null
dd if=/tmp/expect of="/dev/$disk" bs=1M conv=fsync 2>/dev/null || fail "write $disk"
# dio OP OFFSET LENGTH: one O_DIRECT transfer with a buffer 512 bytes into
# a page; a write that the device took goes into the expected image, one it
# refused (EINVAL, spare-dio's 3) leaves the image as it was.
dio() {
	local rc=0
	if [ "$1" = write ]; then
		dd if=/dev/urandom of=/tmp/dio bs=4096 count=$(($3 / 4096)) 2>/dev/null
		spare-dio write "/dev/$disk" /tmp/dio "$2" "$3" 512 || rc=$?
		case $rc in
		0) dd if=/tmp/dio of=/tmp/expect bs=4096 seek=$(($2 / 4096)) conv=notrunc 2>/dev/null ;;
		3) ;;
		*) fail "O_DIRECT write of $3 bytes at $2 (buffer at page offset 512): rc $rc" ;;
		esac
	else
		spare-dio read "/dev/$disk" /tmp/dio "$2" "$3" 512 || rc=$?
		case $rc in
		0) dd if=/tmp/expect of=/tmp/want bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) 2>/dev/null
		   cmp -s /tmp/want /tmp/dio || fail "O_DIRECT read of $3 bytes at $2 (buffer at page offset 512) returned wrong data" ;;
		3) ;;
		*) fail "O_DIRECT read of $3 bytes at $2 (buffer at page offset 512): rc $rc" ;;
		esac
	fi
	echo "O_DIRECT $1 of $3 bytes at $2, buffer at page offset 512: $([ $rc = 0 ] && echo done || echo refused, EINVAL)"
}
dio write 0 65536
dio write $((1 << 20)) $((1 << 20))
dio write $(((32 << 20) - 65536)) 65536	# the device's last 16 pages
dio read 0 65536
dio read $((1 << 20)) $((1 << 20))
dio read $(((32 << 20) - 65536)) 65536
echo 3 >/proc/sys/vm/drop_caches
rm -f /tmp/back
dd if="/dev/$disk" of=/tmp/back bs=1M 2>/dev/null || { show_stats "$disk"; fail "reading $disk back failed"; }
cmp -s /tmp/expect /tmp/back || fail "$disk does not read back as written"
show_stats "$disk"
[ "$(integrity_errors "$disk")" = 0 ] || fail "integrity errors on pages written with sub-page buffers"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
! dmesg | grep -q "$disk: page .* failed its crc32c check" || fail "a crc32c mismatch was logged"
check_dmesg
spare_destroy d5
rm -f /tmp/expect /tmp/back /tmp/dio /tmp/want
pass "every page of the device verifies after sub-page O_DIRECT I/O"

step "control: integrity=none returns corrupted data"
disk=$(spare_create d0 size=64M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515 source=10.0.0.1)
[ "$(cat "$CFS/d0/integrity")" = none ] || fail "integrity is not off by default"
fill "$disk"
corrupt 2
rc=0; readback "$disk" || rc=$?
[ $rc = 1 ] || fail "without integrity the read gave rc $rc, expected corrupted data"
spare_destroy d0
pass "corruption on the donor reaches the reader without integrity"

step "crc32c, 2 copies: bad pages re-read from the other copy"
disk=$(spare_create d1 size=64M slab_size=16M replicas=2 integrity=crc32c \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
dmesg | grep -q 'd1: integrity crc32c: 64 KiB of checksums' || fail "no checksum array (1 MiB per GiB)"
fill "$disk"
corrupt 2
readback "$disk" || fail "read back differs or failed with crc32c and 2 copies (rc $?)"
show_stats "$disk"
ie=$(integrity_errors "$disk")
[ "$ie" -gt 0 ] || fail "no integrity error counted although donor 2 was corrupted"
[ "$(io_stat "$disk" failovers)" -gt 0 ] || fail "no failover counted"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
spare_destroy d1
pass "every byte right; $ie bad pages caught and read from the other copy"

step "crc32c, 1 copy + backup: bad pages read from the backup"
disk=$(spare_create d2 size=64M slab_size=16M replicas=1 integrity=crc32c \
	backup=/dev/ram0 donors=10.0.0.3:18515 source=10.0.0.1)
fill "$disk"
corrupt 3
readback "$disk" || fail "read back differs or failed with crc32c and a backup (rc $?)"
show_stats "$disk"
[ "$(integrity_errors "$disk")" -gt 0 ] || fail "no integrity error counted"
[ "$(io_stat "$disk" backup_reads)" -gt 0 ] || fail "nothing read from the backup"
spare_destroy d2
pass "every byte right, from the backup"

step "crc32c, 1 copy + backup, both corrupted: an I/O error, never the bad data"
disk=$(spare_create d4 size=64M slab_size=16M replicas=1 integrity=crc32c \
	backup=/dev/ram0 donors=10.0.0.3:18515 source=10.0.0.1)
fill "$disk"
corrupt 3
# the backup too, behind the module's back (it holds /dev/ram0, not
# exclusively for writers)
dd if=/dev/urandom of=/dev/ram0 bs=1M count=$MB conv=fsync 2>/dev/null ||
	fail "cannot overwrite the backup ramdisk"
rc=0; readback "$disk" || rc=$?
[ $rc = 2 ] || fail "expected an I/O error, got rc $rc (1 = corrupted data returned from the backup)"
show_stats "$disk"
[ "$(integrity_errors "$disk")" -gt 0 ] || fail "no integrity error counted"
[ "$(io_stat "$disk" io_errors)" -gt 0 ] || fail "no I/O error counted"
dmesg | grep -q "$disk: page .* from the backup device failed its crc32c check" ||
	fail "no line for the bad backup page"
spare_destroy d4
pass "a bad backup page is caught too: EIO, never wrong data"

step "crc32c, 1 copy, no backup: an I/O error, never the bad data"
disk=$(spare_create d3 size=64M slab_size=16M replicas=1 integrity=crc32c \
	donors=10.0.0.2:18515 source=10.0.0.1)
fill "$disk"
corrupt 2
rc=0; readback "$disk" || rc=$?
[ $rc = 2 ] || fail "expected an I/O error, got rc $rc (1 = corrupted data returned)"
show_stats "$disk"
[ "$(integrity_errors "$disk")" -gt 0 ] || fail "no integrity error counted"
[ "$(io_stat "$disk" io_errors)" -gt 0 ] || fail "no I/O error counted"
spare_destroy d3
pass "no good source: EIO, never wrong data"

step "crc32c, ec:4+2: split 0's donor corrupted: decoded around and rebuilt"
# six donors in 8 MiB slabs: the two above go, hosts 2-7 lend afresh
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
LIST=
for n in 2 3 4 5 6 7; do
	donor_start $n --budget 64M --slab-size 8M
	LIST=$LIST${LIST:+,}10.0.0.$n:$DONOR_PORT
done
dmesg -c >/dev/null
# one coding group (32 MiB), split j in slab j
disk=$(spare_create e0 size=${MB}M slab_size=8M redundancy=ec:4+2 integrity=crc32c \
	donors="$LIST" source=10.0.0.1)
dmesg | grep -q 'e0: integrity crc32c: 192 KiB of checksums (6 per page)' ||
	{ dmesg | tail; fail "no checksum table (4 bytes a split)"; }
# split_host J: the host whose donor holds split J (slab_map: slab J)
split_host() {
	awk -v s="$1" '$2 == s && $6 == "mapped" {split($5, a, "[.:]"); print a[4]}' \
		"/sys/block/$disk/spare/slab_map"
}
h0=$(split_host 0); h1=$(split_host 1); h2=$(split_host 2)
[ -n "$h0" ] && [ -n "$h1" ] && [ -n "$h2" ] || { cat "/sys/block/$disk/spare/slab_map"; fail "splits 0-2 not mapped"; }
echo "split 0 on host $h0, split 1 on host $h1, split 2 on host $h2"
fill "$disk"
corrupt "$h0"
readback "$disk" || { show_stats "$disk"; cat "/sys/block/$disk/spare/ec_stat"; client_log 40; fail "read back differs or failed with one bad split (rc $?)"; }
show_stats "$disk"
echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
ie=$(integrity_errors "$disk")
[ "$ie" -ge $((MB * 256)) ] || fail "$ie integrity errors, expected one per page ($((MB * 256)))"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(ecs eio_pages)" = 0 ] || fail "$(ecs eio_pages) EIO pages"
[ "$(ecs reads_decoded)" -gt 0 ] || fail "no read decoded around the bad split"
rebuilt() { [ "$(ecs rebuilding)" = 0 ] && [ "$(ecs lost_now)" = 0 ]; }
wait_until 120 rebuilt ||
	{ cat "/sys/block/$disk/spare/ec_stat"; client_log 40; fail "split 0 not rebuilt"; }
rebuilt=$(ecs repaired_pages)
[ "$rebuilt" -ge $((MB * 256)) ] || fail "$rebuilt split pages rebuilt, expected $((MB * 256))"
dmesg | grep 'e0\|spare' | grep 'crc32c' | sed 's/^/    /'
dmesg | grep -q "$disk: coding group 0: split 0 of page [0-9]* (donor 10.0.0.$h0:$DONOR_PORT) failed its crc32c check; treated as missing and rebuilt" ||
	{ client_log 20; fail "no line for split 0"; }
[ "$(dmesg | grep -c 'failed its crc32c check')" = 1 ] || fail "more than one line for the group"
pass "every byte right; $ie bad splits caught, $rebuilt split pages rebuilt"

step "ec:4+2: splits 1 and 2 corrupted too: only K good splits, split 0's rebuilt pages among them"
corrupt "$h1"
corrupt "$h2"
readback "$disk" || { show_stats "$disk"; cat "/sys/block/$disk/spare/ec_stat"; client_log 40; fail "read back differs or failed (rc $?): split 0's pages were not rebuilt right"; }
show_stats "$disk"
echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(ecs eio_pages)" = 0 ] || fail "$(ecs eio_pages) EIO pages"
[ "$(integrity_errors "$disk")" -ge $((3 * MB * 256)) ] ||
	fail "$(integrity_errors "$disk") integrity errors, expected one per page and bad split"
spare_destroy e0
pass "every byte right from splits 0 (rebuilt), 3, 4 and 5"

step "teardown"
rmmod spare || fail "rmmod"
rmmod brd
for n in 2 3 4 5 6 7; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
# the only warnings are the expected crc32c and I/O error lines
check_dmesg
pass "clean teardown"
