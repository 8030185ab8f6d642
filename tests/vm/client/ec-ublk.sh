# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
#
# Erasure-coded pages on spare-ublk (issue 34): --redundancy ec:4+2.
# The guest holds the pager (host 1) and eight donors (spared on hosts
# 2..9, 8 MiB slabs). A 96 MiB device is 3 coding groups of 32 MiB, group
# g's six split slabs on donors g..g+5 of its donor list.
#  - bad input: ec:3+5, too few donors, --copies 2 with it, --ec-delta
#    above R, --backup with it: refused with a reason, no device left;
#  - swap, with the donors listed 2-7, 9, 8 (group 0 on hosts 2-7, group 1
#    on 3-7 and 9, group 2 on 4-7, 9 and 8): a 64 MiB job in a 32 MiB
#    cgroup swaps; host 9's donor killed during it and kept down: once it
#    has been down --rehome-delay (2 s, no hold), groups 1 and 2 each
#    get a new split slab on host 2 (the core's spare_ec_rehome_pick():
#    the donor of the fewest splits that the group does not use), rebuilt
#    from four others (decoded); then
#    host 8 evicts its split (group 2's): moved by copy to host 3 before
#    it is given back, never lost (no split short, nothing replaced or
#    decoded for it). The pager's counters file says every split is
#    current again each time. Then hosts 4 and 5 are killed: every group
#    is left exactly four splits, groups 1 and 2 among them the rebuilt
#    and the moved ones, so the job's pages verify only if the rebuilds
#    and the move wrote the right bytes;
#  - then (a new pager, hosts 4 and 5 restarted) on hosts 2..8, group 0
#    on 2-7, group 1 on 3-8, group 2 on 4-8 and 2: a random pattern over
#    the whole device, read back whole (direct I/O);
#  - host 6's link delayed 100 ms (netem): 64 one-page writes to group 1
#    take well under 64 x 100 ms, each answered once K splits landed
#    (issue 34), the late split landing after the answer; the next step
#    reads those pages from four splits, host 6's among them;
#  - hosts 2, 3 and 5 cut off and their donors killed at once (at once:
#    one by one, the rebuild would give group 0 a split on host 8 between
#    the losses): groups 1 and 2 lose two splits each and have nowhere to
#    rebuild them (hosts 4, 6, 7, 8 left, all in both); they read back,
#    decoded from the survivors; a write after the loss lands on four
#    splits (short, counted) and reads back; group 0 has lost three
#    splits, so its pages read as EIO, never as other data, logged once.
#
# spare.ko (@kmod) runs its own steps through configfs (redundancy=ec:4+2,
# the same 96 MiB over seven donors on hosts 2-8): a pattern written and
# read back; host 6's donor (a split of every group) killed while 8 MiB
# are written over and over (no write fails: one completes at K splits
# landed), the writes after it on five splits, the donor restarted: its three split slabs mapped again
# and rebuilt (ec_stat), every page verifies; every read's fill sent to a
# work item (ec_defer_fill=1: the count of such fills equals the reads',
# late splits land meanwhile); reads racing writes of the
# same pages wait, never EIO; then hosts 3 and 5 killed (every page
# verifies: groups 0 and 1 are left four splits, host 6's rebuilt one
# among them, so the rebuild wrote the right bytes; a write lands on four
# splits), the device read whole twice, every read decoded, while two
# loops write and read back random bytes through dm-crypt (aes-xts) on
# both CPUs: a decode in the RDMA completion's softirq must not clobber
# dm-crypt's FPU registers (their bytes stay right, no kernel_fpu_begin
# warning; the old module failed here), a third killed (group 0 reads
# EIO, logged once, its fills in the work item; groups 1 and 2 verify). Then re-home, on a new 64 MiB device (2 groups, hosts 2-8,
# rehome_delay_ms=2000, hold_ms=0): host 4 killed and kept down, its two
# split slabs re-homed to hosts 8 and 2 and rebuilt (ec_stat remapped 2,
# lost 0, rebuilding 0; dmesg names the donors), then hosts 3 and 5
# killed: every page verifies, which it could not with host 4's splits
# still lost (group 0 would have three gone). Its steps are the
# block guarded by BACKEND = kmod below, which ends the scenario; the
# pager's follow it.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

# lent_all N: the donors on hosts 2-9 that run lend N slabs together
# (their own gauge, read now); sets LENT, and LENT_EACH (" host:slabs"...)
lent_all() {
	local n l p
	LENT=0 LENT_EACH=
	for n in 2 3 4 5 6 7 8 9; do
		p=$(donor_pid $n 2>/dev/null)
		[ -n "$p" ] && kill -0 "$p" 2>/dev/null || continue
		l=$(donor_metric $n spare_donor_slabs_lent)
		LENT=$((LENT + ${l:-0})) LENT_EACH="$LENT_EACH $n:${l:-0}"
	done
	[ "$LENT" = "$1" ]
}
# swapped_in_since N PAGES: PAGES or more swapped in since pswpin read N
swapped_in_since() { [ $(( $(vmstat_get pswpin) - $1 )) -ge "$2" ]; }
# ec_cut_heal AT: a step of either driver. Host 7 holds a split of every
# group (0: hosts 2-7, 1: 3-8, 2: 4-8 and 2). Its link is cut while 8 MiB
# are written over and over at AT (64-KiB blocks) into $disk; its donor
# stays alive behind the netfilter cut, so the loss is seen by the
# transport's timeouts, not by a reset, and once the link heals the same
# donor process answers again. The writes during the cut land on five
# splits (counted short, none fails); after the heal (well inside the
# re-home delay) host 7's three split slabs are mapped again on host 7 and
# rebuilt, and the donors lend the 18 split slabs, no more (nothing left
# lent for nothing). The next step's losses leave groups four splits,
# host 7's among them: right only if its rebuild caught up the writes of
# the cut, and only if the split stayed on host 7 (the core's pick keeps
# a split on its own donor once it is back).
ec_cut_heal() {
	local l0="" r0 p0 s0 lost=60 heal=120
	# the pager's timeouts (--io-timeout 2000) see the cut later
	[ "$BACKEND" = kmod ] || lost=120 heal=240
	losses7() { awk -v d="10.0.0.7:$DONOR_PORT" '$3 == d {print $6}' "/sys/block/$disk/spare/donor_stat"; }
	lost7() {
		[ "$(ecs lost_now)" = 3 ] || return 1
		# spare.ko also counts the donor's loss in donor_stat
		[ "$BACKEND" != kmod ] || [ "$(losses7)" -gt "$l0" ]
	}
	healed7() {
		[ "$(ecs remapped)" -ge $((r0 + 3)) ] && [ "$(ecs lost_now)" = 0 ] &&
			[ "$(ecs rebuilding)" = 0 ]
	}
	[ "$BACKEND" != kmod ] || l0=$(losses7)
	r0=$(ecs remapped); p0=$(ecs repaired_pages); s0=$(ecs writes_short)
	ec_writes_start "$1"
	cut_link 7
	wait_until $lost lost7 ||
		{ touch /tmp/wstop; ec_stat_show all; client_log; fail "host 7's cut was not noticed (3 split slabs lost)"; }
	sleep 1
	ec_writes_stop "while host 7 was cut off"
	[ "$(ecs writes_short)" -gt "$s0" ] || fail "no write counted short with host 7 cut off"
	kill -0 "$(donor_pid 7)" || fail "host 7's donor died behind the cut"
	heal_link
	wait_until $heal healed7 ||
		{ ec_stat_show all; client_log 40; fail "host 7's splits were not rebuilt after the heal"; }
	ec_stat_show
	client_log 400 | grep -E 'now on donor|re-homed|mapped again|current again' | tail -8 | sed 's/^/    /'
	[ "$(($(ecs repaired_pages) - p0))" -ge 24576 ] ||
		fail "only $(($(ecs repaired_pages) - p0)) split pages rebuilt after the heal, expected 3 x 8192"
	wait_until 30 lent_all 18 ||
		{ client_log 40; fail "the donors lend $LENT slabs after the heal, expected 18:$LENT_EACH"; }
	want_verify "after host 7's link healed"
	pass "host 7 cut off and healed, its donor alive throughout: 3 split slabs mapped again and rebuilt ($(($(ecs repaired_pages) - p0)) split pages)"
}

# spare.ko's steps (the pager's are below this block).
if [ "$BACKEND" = kmod ]; then
	step "soft-RoCE: spare.ko on 10.0.0.1, seven donors on 10.0.0.2-8"
	rxe_up 8
	spare_load
	LIST=
	for n in 2 3 4 5 6 7 8; do
		donor_start $n --budget 64M --slab-size 8M
		LIST=$LIST${LIST:+,}10.0.0.$n:$DONOR_PORT
	done
	pass "donors up"

	step "bad input: refused with a reason, no device left behind"
	# kbad PATTERN ATTR=VALUE...: the attributes written, one of them
	# refused or else power on refused; PATTERN in the kernel log.
	kbad() {
		local pat=$1 kv took=1; shift
		dmesg -c >/dev/null
		mkdir "$CFS/bad" || fail "mkdir $CFS/bad"
		for kv in "$@"; do
			echo "${kv#*=}" >"$CFS/bad/${kv%%=*}" 2>/dev/null || { took=0; break; }
		done
		if [ $took = 1 ] && echo 1 >"$CFS/bad/power" 2>/dev/null; then
			echo 0 >"$CFS/bad/power"
			rmdir "$CFS/bad"
			fail "$*: powered on"
		fi
		rmdir "$CFS/bad" || fail "rmdir $CFS/bad"
		dmesg | grep -q -- "$pat" || { dmesg | tail; fail "$*: no '$pat'"; }
		ls /dev/spare* >/dev/null 2>&1 && fail "$*: left a device"
		echo "refused: $(dmesg | grep -m1 -- "$pat")"
	}
	kbad 'K (data splits per page) must be 2, 4 or 8' size=96M slab_size=8M \
		donors="$LIST" redundancy=ec:3+5
	kbad 'needs 6 distinct donors, the device has 5 (1 missing)' size=96M \
		slab_size=8M redundancy=ec:4+2 \
		donors=10.0.0.2:$DONOR_PORT,10.0.0.3:$DONOR_PORT,10.0.0.4:$DONOR_PORT,10.0.0.5:$DONOR_PORT,10.0.0.6:$DONOR_PORT
	kbad 'set replicas=1' size=96M slab_size=8M donors="$LIST" \
		redundancy=ec:4+2 replicas=2
	kbad 'with a backup device: not built yet' size=96M slab_size=8M \
		donors="$LIST" redundancy=ec:4+2 backup=/dev/null
	pass "bad values refused"

	step "ec:4+2 over 7 donors: a pattern over the whole device"
	dmesg -c >/dev/null
	# no re-home here (the last step's device has one): host 6 comes
	# back to its own splits, and the steps after count on where each is
	ec_kdev 96M rehome_delay_ms=3600000
	want_verify "when read back"
	lent_all 18 || fail "the donors lend $LENT slabs, expected 18 (1.5x of 96 MiB in 8 MiB slabs)"
	echo "donors lend:$LENT_EACH"
	pass "96 MiB written and read back; the donors lend 18 x 8 MiB (1.5x)"

	[ "$(ecs version)" = 5 ] && [ "$(ecs k)" = 4 ] && [ "$(ecs r)" = 2 ] &&
		[ "$(ecs delta)" = 1 ] && [ "$(ecs moved)" = 0 ] ||
		fail "ec_stat is not version 5 of ec:4+2, delta 1: $(cat "/sys/block/$disk/spare/ec_stat")"
	[ "$(wc -w <"/sys/block/$disk/spare/ec_stat")" = 19 ] ||
		fail "ec_stat has not 19 fields: $(cat "/sys/block/$disk/spare/ec_stat")"

	step "host 6's donor killed during writes, then restarted: its split of each group rebuilt"
	# host 6 holds a split of all three groups (0: hosts 2-7, 1: 3-8,
	# 2: 4-8 and 2); it dies while 8 MiB are written over and over: a
	# write completes once K splits landed, so none fails, and the
	# writes after the loss land on five splits
	ec_writes_start
	kill -KILL "$(donor_pid 6)"
	wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.6:$DONOR_PORT\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
		{ touch /tmp/wstop; client_log; fail "the loss of donor 6 was not noticed"; }
	sleep 2
	ec_writes_stop "while donor 6 died"
	[ "$(ecs writes_short)" -gt 0 ] || fail "no write counted short with donor 6 down"
	# the write found group 0's split lost; the rebuild work's next look
	# (every second) finds groups 1 and 2's
	lost3() { [ "$(ecs lost_now)" = 3 ]; }
	wait_until 10 lost3 ||
		fail "expected 3 split slabs lost, ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	donor_start 6 --budget 64M --slab-size 8M
	rebuilt() {
		[ "$(ecs remapped)" -ge 3 ] && [ "$(ecs lost_now)" = 0 ] &&
			[ "$(ecs rebuilding)" = 0 ]
	}
	wait_until 120 rebuilt ||
		{ cat "/sys/block/$disk/spare/ec_stat"; client_log 40; fail "donor 6's splits were not rebuilt"; }
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	dmesg | grep -E 'mapped again|current again' | sed 's/^/    /'
	# 96 MiB written: 8192 pages a group, each split of each group
	[ "$(ecs repaired_pages)" -ge 24576 ] ||
		fail "only $(ecs repaired_pages) split pages rebuilt, expected 3 x 8192"
	want_verify "after the rebuild"
	pass "donor 6 back: its 3 split slabs mapped again and rebuilt ($(ecs repaired_pages) split pages)"

	step "ec_defer_fill=1: every read filled in a work item, its late split landing meanwhile"
	# the path a read takes when its K-th split completes in a softirq
	# that interrupted another kernel FPU section (the step with dm-crypt
	# below), taken by every read: each posts K + 1 splits (delta 1), so
	# the fifth lands late, often while the fill is queued
	echo 1 >/sys/module/spare/parameters/ec_defer_fill || fail "no ec_defer_fill parameter"
	d0=$(ecs fills_deferred); r0=$(ecs reads); l0=$(ecs late_dropped)
	want_verify "with every fill in the work item"
	[ "$(($(ecs fills_deferred) - d0))" = "$(($(ecs reads) - r0))" ] ||
		fail "$(($(ecs reads) - r0)) reads, $(($(ecs fills_deferred) - d0)) filled in the work item"
	[ "$(ecs late_dropped)" -gt "$l0" ] || fail "no late split came"
	echo 0 >/sys/module/spare/parameters/ec_defer_fill
	pass "$(($(ecs reads) - r0)) reads, each filled in the work item ($(($(ecs late_dropped) - l0)) late splits), every page right"

	step "a read racing writes of the same pages waits, never EIO"
	dd if=/dev/urandom of=/tmp/race bs=64K count=1 2>/dev/null || fail "pattern"
	(for _ in $(seq 200); do
		dd if=/tmp/race of="/dev/$disk" bs=64K seek=1000 oflag=direct conv=notrunc 2>/dev/null || exit 1
	done) &
	wpid=$!
	err=0
	for _ in $(seq 200); do
		dd if="/dev/$disk" of=/tmp/rpage bs=4K skip=16000 count=16 iflag=direct 2>/dev/null || err=$((err + 1))
	done
	wait $wpid || fail "a racing write failed"
	dd if=/tmp/race of=/tmp/want bs=64K seek=1000 conv=notrunc 2>/dev/null
	[ $err = 0 ] || { client_log; fail "$err of 200 reads racing writes failed"; }
	echo "requests that waited for a write: $(ecs waits)"
	pass "200 reads raced 200 writes of the same 64 KiB without an error ($(ecs waits) waited)"

	step "host 7's link cut while writes go on, then healed: its splits rebuilt"
	# 4 MiB in: group 0's first pages (ec_cut_heal above)
	ec_cut_heal 64

	step "hosts 3 and 5 cut off and their donors killed at once"
	cut_link 3
	cut_link 5
	kill -KILL "$(donor_pid 3)" "$(donor_pid 5)"
	dd if="/dev/$disk" of=/tmp/back bs=64K iflag=direct 2>/tmp/dd.err ||
		{ cat /tmp/dd.err; client_log; fail "read after two losses"; }
	cmp /tmp/back /tmp/want || fail "$disk: wrong data after two losses"
	rm -f /tmp/back
	[ "$(ecs reads_decoded)" -gt 0 ] || fail "no read was decoded"
	dd if=/dev/urandom of=/tmp/new bs=1M count=4 2>/dev/null || fail "pattern"
	dd if=/tmp/new of="/dev/$disk" bs=64K seek=0 oflag=direct conv=notrunc 2>/dev/null ||
		{ client_log; fail "write after two losses"; }
	dd if=/tmp/new of=/tmp/want bs=64K seek=0 conv=notrunc 2>/dev/null
	want_verify "after a write on four splits"
	[ "$(ecs writes_short)" -gt 0 ] || fail "no write counted short"
	pass "every page read back with two donors lost ($(ecs reads_decoded) reads decoded), and a write on the survivors"

	step "decoded reads beside dm-crypt's AES-NI on both CPUs: neither's data is hurt"
	# Every read now decodes (each group has lost two splits). A read's
	# fill runs in the RDMA completion, in softirq, and its decode takes
	# the FPU without asking (raid6_pq, xor_blocks): where the softirq
	# interrupted another kernel_fpu_begin() section on that CPU, here
	# dm-crypt's aes-xts encrypting or decrypting in kcryptd, that
	# section's registers would be clobbered; spare.ko fills such a read
	# in a work item instead (ec_stat fills_deferred). Two loops write
	# random bytes through dm-crypt over a RAM disk and read them back
	# while the device is read whole, decoded, twice.
	modprobe dm_crypt || fail "modprobe dm_crypt"
	modprobe brd rd_nr=1 rd_size=16384 || fail "modprobe brd"
	key=$(dd if=/dev/urandom bs=64 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')
	dmsetup create fpuv --noudevsync --table "0 32768 crypt aes-xts-plain64 $key 0 /dev/ram0 0" ||
		fail "dmsetup create crypt"
	dmsetup mknodes fpuv 2>/dev/null
	[ -b /dev/mapper/fpuv ] || fail "no /dev/mapper/fpuv"
	dd if=/dev/urandom of=/tmp/vict bs=1M count=4 2>/dev/null || fail "pattern"
	rm -f /tmp/fstop /tmp/fbad.*
	for half in 0 1; do
		(n=0
		while [ ! -e /tmp/fstop ]; do
			dd if=/tmp/vict of=/dev/mapper/fpuv bs=64K seek=$((half * 64)) oflag=direct conv=notrunc 2>/dev/null || { echo "write failed" >/tmp/fbad.$half; exit 1; }
			dd if=/dev/mapper/fpuv of=/tmp/vback.$half bs=64K skip=$((half * 64)) count=64 iflag=direct 2>/dev/null || { echo "read failed" >/tmp/fbad.$half; exit 1; }
			cmp -s /tmp/vict /tmp/vback.$half || { echo "round $n: the bytes read back through dm-crypt differ" >/tmp/fbad.$half; exit 1; }
			n=$((n + 1))
		done
		echo $n >/tmp/frounds.$half) &
		eval "fpid$half=\$!"
	done
	d0=$(ecs fills_deferred)
	dec0=$(ecs reads_decoded)
	bad=0
	for _ in 1 2; do
		dd if="/dev/$disk" of=/tmp/back bs=64K iflag=direct 2>/dev/null || bad=1
		cmp -s /tmp/back /tmp/want || bad=1
	done
	rm -f /tmp/back
	touch /tmp/fstop
	wait "$fpid0" "$fpid1" || true
	dmsetup remove fpuv || fail "dmsetup remove"
	[ $bad = 0 ] || { client_log; fail "$disk: a decoded read beside dm-crypt failed or read wrong bytes"; }
	cat /tmp/fbad.* 2>/dev/null && fail "dm-crypt's data was hurt while decoded reads ran beside it"
	dmesg | grep -Eq 'kernel_fpu_(begin|end)' &&
		{ dmesg | grep -B 5 -A 20 'kernel_fpu_' | head -60; fail "a kernel FPU section was entered twice"; }
	[ "$(ecs reads_decoded)" -gt "$dec0" ] || fail "no read decoded in this step"
	echo "dm-crypt rounds: $(cat /tmp/frounds.0) and $(cat /tmp/frounds.1); reads filled in the work item: $(($(ecs fills_deferred) - d0)) of $(($(ecs reads_decoded) - dec0)) decoded extents"
	pass "96 MiB read back decoded twice beside dm-crypt, whose bytes stayed right ($(($(ecs fills_deferred) - d0)) reads filled in the work item)"

	step "host 2's donor killed too: group 0 is lost, groups 1 and 2 are not"
	# every fill in the work item again (ec_defer_fill=1): EIO goes that way too
	echo 1 >/sys/module/spare/parameters/ec_defer_fill
	d0=$(ecs fills_deferred); r0=$(ecs reads)
	cut_link 2
	kill -KILL "$(donor_pid 2)"
	bad=0
	for p in 0 1 100 4095 8191; do
		if dd if="/dev/$disk" of=/tmp/page bs=4K skip=$p count=1 iflag=direct 2>/dev/null; then
			echo "page $p of group 0 read without error"
			bad=1
		fi
	done
	[ $bad = 0 ] || { client_log; fail "a page of group 0 read with three splits lost"; }
	dmesg | grep -q 'coding group 0: page .* fewer than 4 splits current, EIO' ||
		{ client_log; fail "no EIO line for coding group 0"; }
	[ "$(dmesg | grep -c 'coding group 0: page')" = 1 ] ||
		fail "group 0's EIO logged more than once"
	dd if="/dev/$disk" of=/tmp/back bs=64K skip=512 iflag=direct 2>/tmp/dd.err ||
		{ cat /tmp/dd.err; client_log; fail "groups 1 and 2 after a third loss"; }
	dd if=/tmp/want of=/tmp/want12 bs=64K skip=512 2>/dev/null
	cmp /tmp/back /tmp/want12 || fail "groups 1 and 2: wrong data after a third loss"
	rm -f /tmp/back /tmp/want12
	[ "$(ecs eio_pages)" -ge 5 ] || fail "fewer than 5 EIO pages counted"
	[ "$(($(ecs fills_deferred) - d0))" = "$(($(ecs reads) - r0))" ] ||
		fail "$(($(ecs reads) - r0)) reads, $(($(ecs fills_deferred) - d0)) filled in the work item"
	echo 0 >/sys/module/spare/parameters/ec_defer_fill
	pass "group 0 reads as EIO; groups 1 and 2 (64 MiB) read back (every fill in the work item)"

	step "spare.ko's counters; power off with three donors gone"
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	[ "$(client_stat io_errors)" -gt 0 ] || fail "no I/O error counted"
	client_down
	pass "device down"

	step "re-home: host 4's donor kept down past rehome_delay_ms, its split slabs rebuilt on other donors"
	# A new 64 MiB device over the same seven donors (hosts 2, 3 and 5
	# back): 2 coding groups, 0 on hosts 2-7 and 1 on 3-8, re-homed after
	# 2 s, no hold. Host 4 holds split 2 of group 0 and split 1 of group 1
	# and stays down: each goes to the one donor its group does not use
	# (group 0's to host 8, group 1's to host 2), rebuilt from four others.
	heal_link
	for n in 2 3 5; do donor_start $n --budget 64M --slab-size 8M; done
	spare_load
	dmesg -c >/dev/null
	ec_kdev 64M hold_ms=0 rehome_delay_ms=2000
	kill -KILL "$(donor_pid 4)"
	rehomed() {
		[ "$(ecs remapped)" = 2 ] && [ "$(ecs lost_now)" = 0 ] &&
			[ "$(ecs rebuilding)" = 0 ]
	}
	wait_until 180 rehomed ||
		{ cat "/sys/block/$disk/spare/ec_stat"; client_log 40; fail "host 4's split slabs were not re-homed and rebuilt"; }
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	dmesg | grep -E 're-homed|mapped again|current again' | sed 's/^/    /'
	dmesg | grep -qE "coding group 0: split 2 re-homed from donor 10\.0\.0\.4[^ ]* \(down\) to donor 10\.0\.0\.8" &&
		dmesg | grep -qE "coding group 1: split 1 re-homed from donor 10\.0\.0\.4[^ ]* \(down\) to donor 10\.0\.0\.2" ||
		fail "groups 0 and 1 not re-homed to hosts 8 and 2"
	# 64 MiB written: 8192 pages a group, one split of each rebuilt
	[ "$(ecs repaired_pages)" -ge 16384 ] ||
		fail "only $(ecs repaired_pages) split pages rebuilt, expected 2 x 8192"
	pass "host 4 down: its 2 split slabs re-homed to hosts 8 and 2 and rebuilt ($(ecs repaired_pages) split pages)"

	step "hosts 3 and 5 killed too: every page verifies, from the re-homed splits"
	# Without the re-home group 0 would have lost three splits (hosts 3,
	# 4, 5) and read as EIO; with it each group keeps four (group 0 on
	# hosts 2, 6, 7 and 8, group 1 on 2, 6, 7 and 8), the re-homed one
	# among them, so every page verifies only if its rebuild wrote the
	# right bytes there.
	ec_lose_verify 3 5
	client_down
	pass "every page of 64 MiB read back with hosts 3, 4 and 5 gone ($DEC reads decoded)"

	step "swap on ec:4+2: hosts 3 and 4 killed at once while a 64 MiB job swaps, every page verified"
	# The issue's rig test on spare.ko as on the pager: a job in a 32
	# MiB cgroup swaps onto a 96 MiB ec:4+2 device (no re-home: each
	# group keeps its K+R donors); two donors are cut off and killed at
	# once in the middle of it (group 0 and 1 lose two splits each,
	# group 2 one) and the job goes on swapping, its pages written on
	# the survivors and read decoded, each one verified by spare-memtest.
	heal_link
	for n in 3 4 5; do donor_start $n --budget 64M --slab-size 8M; done
	spare_load
	dmesg -c >/dev/null
	ec_kdev 96M rehome_delay_ms=3600000
	client_swap_on
	WL_SIZE_MB=64 WL_CG_MB=32
	cg_new_high work ${WL_CG_MB}M
	workload_start 1 hold cut
	workload_swapped 2000
	cut_link 3
	cut_link 4
	kill -KILL "$(donor_pid 3)" "$(donor_pid 4)"
	in1=$(vmstat_get pswpin)
	wait_until 120 swapped_in_since "$in1" 2000 ||
		{ workload_alive; client_log; fail "no swapping after hosts 3 and 4 went"; }
	workload_wait
	client_swap_off
	echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
	[ "$(ecs eio_pages)" = 0 ] || fail "$(ecs eio_pages) pages EIO with K splits left"
	[ "$(ecs reads_decoded)" -gt 0 ] || fail "no swap-in was decoded"
	[ "$(ecs writes_short)" -gt 0 ] || fail "no swap-out counted short"
	dec=$(ecs reads_decoded)
	client_down
	pass "the job's every page verified with hosts 3 and 4 lost mid-swap ($dec reads decoded)"
	exit 0
fi

ublk_require

step "soft-RoCE: the pager on 10.0.0.1, eight donors on 10.0.0.2-9"
rxe_up 9
DONORS=
for n in 2 3 4 5 6 7 8 9; do
	donor_start $n --budget 64M --slab-size 8M
	[ $n = 9 ] || DONORS="$DONORS --donor 10.0.0.$n:$DONOR_PORT"
done
pass "donors up"

step "bad input: refused with a reason, no device left behind"
bad_run() {
	local pat=$1 rc=0; shift
	spare-ublk --source 10.0.0.1 --size 96M --slab-size 8M --state-file none "$@" \
		>/tmp/bad.out 2>/tmp/bad.log || rc=$?
	[ "$rc" = 2 ] || { cat /tmp/bad.log; fail "spare-ublk $*: exit $rc, expected 2"; }
	grep -q -- "$pat" /tmp/bad.log || { cat /tmp/bad.log; fail "spare-ublk $*: no '$pat'"; }
	ls /dev/ublkb* >/dev/null 2>&1 && fail "spare-ublk $*: left a device"
	echo "refused: $(grep -m1 -- "$pat" /tmp/bad.log)"
}
# shellcheck disable=SC2086
bad_run 'K (data splits per page) must be 2, 4 or 8' --redundancy ec:3+5 $DONORS
bad_run 'needs 6 distinct donors, the device has 5 (1 missing)' --redundancy ec:4+2 \
	--donor 10.0.0.2 --donor 10.0.0.3 --donor 10.0.0.4 --donor 10.0.0.5 --donor 10.0.0.6
# shellcheck disable=SC2086
bad_run 'set replicas=1' --redundancy ec:4+2 --copies 2 $DONORS
# shellcheck disable=SC2086
bad_run '--ec-delta 2: at most R = 1' --redundancy ec:2+1 --ec-delta 2 $DONORS
# shellcheck disable=SC2086
bad_run 'with --backup: not built yet' --redundancy ec:4+2 --backup /dev/null $DONORS
pass "bad values refused"

# ecf NAME: a field of the live counters' ec_stat line (ec_field, the
# same format as spare.ko's); ec_whole N: N replaced and every split
# current again.
ecf() { awk -v f="$(($(ec_field "$1") + 1))" '$1 == "ec_stat" {print $f}' /run/spare/ublk/ec0; }
ec_whole() { [ "$(ecf remapped)" = "$1" ] && [ "$(ecf lost_now)" = 0 ] && [ "$(ecf rebuilding)" = 0 ]; }
lends_none() { [ "$(donor_metric "$1" spare_donor_slabs_lent)" = 0 ]; }

step "swap on ec:4+2: host 9's donor killed while the job swaps, its splits rebuilt"
t0=$(cut -d' ' -f1 /proc/uptime)
# shellcheck disable=SC2086
ublk_up --name ec0 --size 96M --slab-size 8M --redundancy ec:4+2 --io-timeout 2000 \
	--rehome-delay 2000 --hold 0 \
	${DONORS% --donor 10.0.0.8:*} --donor 10.0.0.9:$DONOR_PORT --donor 10.0.0.8:$DONOR_PORT
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
WL_SIZE_MB=64 WL_CG_MB=32
ublk_cg work ${WL_CG_MB}M
workload_start 1 hold cut
workload_swapped 2000
kill -KILL "$(donor_pid 9)"
wait_for 300 ec_whole 2 ||
	{ cat /run/spare/ublk/ec0; tail -30 /tmp/ublk.log; fail "host 9's splits not rebuilt in 60 s"; }
workload_alive
grep 'coding group 1: split 5 now on donor 10.0.0.2' /tmp/ublk.log &&
	grep 'coding group 2: split 4 now on donor 10.0.0.2' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "groups 1 and 2 not rebuilt on host 2"; }
[ "$(ecf version)" = 5 ] && [ "$(ecf k)" = 4 ] && [ "$(ecf r)" = 2 ] &&
	[ "$(ecf delta)" = 1 ] && [ "$(ecf writes)" -gt 0 ] && [ "$(ecf waits)" -ge 0 ] ||
	{ grep ec_stat /run/spare/ublk/ec0; fail "the pager's ec_stat is not version 5 of ec:4+2, delta 1, with writes"; }
[ "$(awk '$1 == "ec_stat"' /run/spare/ublk/ec0 | wc -w)" = 20 ] ||
	{ grep ec_stat /run/spare/ublk/ec0; fail "the pager's ec_stat has not 19 fields"; }
pass "host 9's splits rebuilt on host 2: $(ecf repaired_pages) split pages, every split current"

step "host 8 evicts its split (group 2's): moved by copy to host 3, given back, never lost"
moved_one() { [ "$(ecf moved)" = 1 ] && ec_whole 2; }
donor_ctl 8 evict 1
wait_for 300 moved_one ||
	{ cat /run/spare/ublk/ec0; tail -30 /tmp/ublk.log; fail "host 8's split not moved in 60 s"; }
wait_for 100 lends_none 8 ||
	{ donor_ctl 8 status; fail "host 8's split not given back"; }
grep 'coding group 2: split 5 moved by copy from donor 10.0.0.8 to donor 10.0.0.3' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "group 2's split not moved to host 3"; }
# the copy path, not the decode: never lost, so never replaced
[ "$(ecf remapped)" = 2 ] && [ "$(ecf moves_given_up)" = 0 ] ||
	{ cat /run/spare/ublk/ec0; fail "host 8's split was lost and rebuilt, not moved"; }
grep 'cannot move by copy\|split 5 now on donor' /tmp/ublk.log | grep -v 'coding group 1:' &&
	fail "host 8's split went the decode way"
[ "$(ecf copied_pages)" -gt 0 ] || fail "no split page copied"
workload_alive
pass "host 8's split moved by copy to host 3 ($(ecf copied_pages) split pages copied), given back; replaced still 2, every split current"

step "hosts 4 and 5 killed: four splits left in each group, the rebuilt ones among them"
in1=$(vmstat_get pswpin)
kill -KILL "$(donor_pid 4)" "$(donor_pid 5)"
wait_for 600 swapped_in_since "$in1" 2000 ||
	{ workload_alive; tail -30 /tmp/ublk.log; fail "no swapping after hosts 4 and 5 went"; }
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
[ "$(ecf eio_pages)" = 0 ] || { cat /run/spare/ublk/ec0; fail "$(ecf eio_pages) pages EIO with K splits left"; }
dec=$(ecf reads_decoded)
[ "$dec" -gt 0 ] || fail "no read decoded"
ublk_down
t1=$(cut -d' ' -f1 /proc/uptime)
grep -q 'Assertion\|AddressSanitizer' /tmp/ublk.log && fail "unexpected line in the pager's log"
donor_start 4 --budget 64M --slab-size 8M
donor_start 5 --budget 64M --slab-size 8M
pass "every page of the job verified, $dec reads decoded ($(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s)"

step "ec:4+2 over 7 donors: a pattern over the whole device"
# shellcheck disable=SC2086
ublk_up --size 96M --slab-size 8M --redundancy ec:4+2 --io-timeout 2000 $DONORS
grep 'redundancy ec:4+2' /tmp/ublk.log || fail "no word of the coding groups"
dd if=/dev/urandom of=/tmp/want bs=1M count=96 2>/dev/null || fail "pattern"
dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $disk"
want_verify "when read back"
# 3 groups x 6 split slabs of 8 MiB: 144 MiB for 96 MiB, 1.5x
lent_all 18 || fail "the donors lend $LENT slabs, expected 18 (1.5x of 96 MiB in 8 MiB slabs)"
echo "donors lend:$LENT_EACH"
pass "96 MiB written and read back; the donors lend 18 x 8 MiB (1.5x)"

step "writes answered once K splits landed: host 6's link delayed 100 ms"
# 64 writes of 4 KiB, one at a time, to pages 100-163 of group 1 (hosts
# 3-8, host 6 its split 3, a data split): each is answered at the 4th
# landed split, not after host 6's 100 ms (6.4 s if it waited for it).
# The late splits land afterwards from the requests' slots; the step
# below reads these pages from hosts 4, 6, 7 and 8 alone, so they verify
# only if host 6's late splits landed the right bytes and were marked.
modprobe sch_netem || fail "modprobe sch_netem"
ip netns exec switch tc qdisc add dev p6 root netem delay 100ms || fail "netem on p6"
dd if=/dev/urandom of=/tmp/slow bs=4K count=64 2>/dev/null || fail "pattern"
t0=$(cut -d' ' -f1 /proc/uptime)
dd if=/tmp/slow of="/dev/$disk" bs=4K seek=8292 oflag=direct conv=notrunc 2>/dev/null ||
	{ tail -30 /tmp/ublk.log; fail "write with host 6 delayed"; }
t1=$(cut -d' ' -f1 /proc/uptime)
sleep 1		# the late splits land before the delay goes
ip netns exec switch tc qdisc del dev p6 root || fail "netem off p6"
dd if=/tmp/slow of=/tmp/want bs=4K seek=8292 conv=notrunc 2>/dev/null
rm -f /tmp/slow
ms=$(echo "$t0 $t1" | awk '{printf "%d", ($2 - $1) * 1000}')
[ "$ms" -lt 4000 ] ||
	fail "64 writes took $ms ms with host 6 delayed 100 ms: answered after the slow split, not at K"
pass "64 writes of 4 KiB in $ms ms with host 6 delayed 100 ms (6400 ms if each waited for it)"

step "host 7's link cut while writes go on, then healed: its splits rebuilt"
# 68 MiB in: group 2, whose split the pager once re-mapped by load onto
# host 3 once host 7 was back, so that the next step's losses took three
# of its splits (ec_cut_heal above)
ec_cut_heal 1088

step "hosts 2, 3 and 5 cut off and their donors killed at once"
# Three at once, because the pager rebuilds: killed one by one, group 0
# would get a split rebuilt on host 8 between the losses and never reach
# three lost. Now group 0 has lost three splits (EIO, below); groups 1 and
# 2 two each, and nowhere to rebuild them (hosts 4, 6, 7 and 8 left, all
# in both groups): they read decoded from four splits.
cut_link 2
cut_link 3
cut_link 5
kill -KILL "$(donor_pid 2)" "$(donor_pid 3)" "$(donor_pid 5)"
dd if="/dev/$disk" of=/tmp/back bs=64K skip=512 iflag=direct 2>/tmp/dd.err ||
	{ cat /tmp/dd.err; tail -30 /tmp/ublk.log; fail "groups 1 and 2 after two losses each"; }
dd if=/tmp/want of=/tmp/want12 bs=64K skip=512 2>/dev/null
cmp /tmp/back /tmp/want12 || fail "groups 1 and 2: wrong data after two losses each"
rm -f /tmp/back
grep -q 'donor 10.0.0.3' /tmp/ublk.log && grep -q 'donor 10.0.0.5' /tmp/ublk.log &&
	grep -q 'donor 10.0.0.2' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "the pager did not notice the three losses"; }
# a write after the losses lands on four splits of group 1
dd if=/dev/urandom of=/tmp/new bs=1M count=4 2>/dev/null || fail "pattern"
dd if=/tmp/new of="/dev/$disk" bs=64K seek=512 oflag=direct conv=notrunc 2>/dev/null ||
	fail "write after two losses"
dd if=/tmp/new of=/tmp/want12 bs=64K seek=0 conv=notrunc 2>/dev/null
dd if="/dev/$disk" of=/tmp/back bs=64K skip=512 iflag=direct 2>/dev/null || fail "read $disk"
cmp /tmp/back /tmp/want12 || fail "$disk: wrong data after a write on four splits"
rm -f /tmp/back /tmp/want12
pass "groups 1 and 2 (64 MiB) read back with two splits lost each, and a write on the survivors"

step "group 0 has lost three splits: its pages read as EIO, never as other data"
bad=0
for p in 0 1 100 4095 8191; do
	if dd if="/dev/$disk" of=/tmp/page bs=4K skip=$p count=1 iflag=direct 2>/dev/null; then
		echo "page $p of group 0 read without error"
		bad=1
	fi
done
[ $bad = 0 ] || { tail -30 /tmp/ublk.log; fail "a page of group 0 read with three splits lost"; }
grep -q 'coding group 0: page .* fewer than 4 splits current, EIO' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "no EIO line for coding group 0"; }
[ "$(grep -c 'coding group 0: page' /tmp/ublk.log)" = 1 ] ||
	fail "group 0's EIO logged more than once"
grep -q 'coding group [12]: page' /tmp/ublk.log && fail "groups 1 or 2 logged EIO"
pass "group 0 reads as EIO; groups 1 and 2 do not"

step "the pager's counters"
ublk_down
ec=$(grep '^spare-ublk: ec ' /tmp/ublk.out) || fail "no ec counters at exit"
echo "$ec"
ecstat() { echo "$ec" | awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}'; }
[ "$(ecstat reads_decoded)" -gt 0 ] || fail "no read was decoded"
[ "$(ecstat eio_pages)" -ge 5 ] || fail "fewer than 5 EIO pages counted"
[ "$(ecstat writes_short)" -gt 0 ] || fail "no write counted short"
grep -q 'EVICT\|Assertion\|AddressSanitizer' /tmp/ublk.log && fail "unexpected line in the pager's log"
pass "reads decoded $(ecstat reads_decoded), late splits $(ecstat late_dropped), EIO pages $(ecstat eio_pages), short writes $(ecstat writes_short)"
