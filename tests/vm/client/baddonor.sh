# SPDX-License-Identifier: GPL-2.0
#
# A malformed donor message closes only that connection: donor 10.0.0.2 is
# a real spared, 10.0.0.3 is spare-baddonor, which breaks the protocol
# (first in its HELLO_REPLY, then, in a second round, with a malformed EVICT
# on a live session). spare.ko drops the bad donor's connection, keeps
# serving I/O from the good one, and keeps retrying the bad one with back-off.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 400

# io_check: 16 MiB of random data through the device and back.
io_check() {
	dd if=/dev/urandom of=/tmp/pattern bs=1M count=16 2>/dev/null
	dd if=/tmp/pattern of="/dev/$disk" bs=1M seek=100 conv=fsync 2>/dev/null || fail "write to $disk"
	echo 3 >/proc/sys/vm/drop_caches
	dd if="/dev/$disk" of=/tmp/back bs=1M skip=100 count=16 2>/dev/null || fail "read from $disk"
	cmp /tmp/pattern /tmp/back || fail "data read back differs"
}

rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
spare_load

# backoff_check FROM: the kernel log's lines after line FROM that retry the
# bad donor ("...; retrying in N ms" after a failed connect, "...;
# reconnecting in N ms" after an error on a live session) show the
# exponential back-off of spare.ko: 500 ms first, each delay twice the
# one before up to 16 s, and each retry logged no sooner than the delay the
# one before announced (kernel timestamps: a lower bound, which a slow
# machine cannot break).
backoff_check() {
	dmesg | tail -n +"$(( $1 + 1 ))" | grep 'donor 10.0.0.3:18515: ' |
		grep -E '(retrying|reconnecting) in [0-9]+ ms' >/tmp/retries
	cat /tmp/retries
	awk '{
		t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t)
		d = $0; sub(/.* in /, "", d); sub(/ ms.*/, "", d)
		n++
		if (n == 1 && d != 500) { print "first delay " d " ms, not 500"; bad = 1 }
		if (n > 1) {
			want = 2 * prev; if (want > 16000) want = 16000
			if (d != want) { print "retry " n ": delay " d " ms after " prev " ms"; bad = 1 }
			if (t - pt < prev / 1000 - 0.005) {
				printf "retry %d logged %.3f s after the one before, which announced %d ms\n", n, t - pt, prev
				bad = 1
			}
		}
		prev = d; pt = t
	}
	END {
		if (n < 3) { print "only " n " retries logged"; bad = 1 }
		exit bad
	}' /tmp/retries
}

for m in hello live; do
	step "bad donor on 10.0.0.3 in mode '$m'"
	spare-baddonor -l 10.0.0.3 -m "$m" >/tmp/bad.log 2>&1 &
	bad=$!
	sleep 1
	log0=$(dmesg | wc -l)
	disk=$(spare_create swap0 size=256M slab_size=16M replicas=2 \
		donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
	wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$8}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
		{ show_stats "$disk"; cat /tmp/bad.log; fail "no bad message counted"; }
	show_stats "$disk"
	cat /tmp/bad.log
	dmesg | grep 'donor 10.0.0.3:18515' | tail -4
	dmesg | grep -q 'donor 10.0.0.3:18515: malformed message' || fail "no log line for the malformed message"
	[ "$(donor_field 10.0.0.2 state)" = live ] || fail "the good donor was disturbed"
	[ "$(donor_field 10.0.0.2 losses)" = 0 ] || fail "the good donor lost its connection"
	[ "$(donor_field 10.0.0.3 state)" != live ] || fail "the bad donor is still live"
	[ "$(slab_stat mapped)" = 16 ] || fail "expected the 16 copies on the good donor"
	grep -q 'client closed the connection' /tmp/bad.log || fail "the bad donor's connection was not closed"
	io_check
	[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
	pass "mode $m: bad donor disconnected, good donor untouched, I/O verified"

	step "mode $m: the bad donor is retried with exponential back-off"
	wait_until 60 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$8}' /sys/block/$disk/spare/donor_stat)\" -ge 4 ]" ||
		{ show_stats "$disk"; cat /tmp/bad.log; fail "fewer than 4 bad messages counted in 60 s"; }
	backoff_check "$log0" || fail "no exponential back-off"
	pass "mode $m: $(wc -l </tmp/retries) retries, delays doubling from 500 ms, none early"
	spare_destroy swap0
	kill "$bad"; wait "$bad" 2>/dev/null
done

rmmod spare || fail "rmmod"
check_dmesg
pass "clean teardown"
