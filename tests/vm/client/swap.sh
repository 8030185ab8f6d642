# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
#
# Plain swap, on both backends: the device backed by RDMA donors, a
# workload in a small cgroup writes a per-page pattern and verifies every
# page on the next pass; pswpout/pswpin must show swapping, the device's
# counters that RDMA (not a backup) served it with no I/O error. Fresh
# pages read as zero.
#  - spare.ko (every kernel): /dev/spareN on two donors (spared on
#    10.0.0.2 and 10.0.0.3), two copies of every slab, a 128 MiB job in
#    memory.max=32M; the io_stat format; one DATA connection per hardware
#    queue and donor at most. On a kernel without ublk (Debian's 6.1) this
#    run also checks that spare-ublk refuses at once, with exit status 3
#    and a message naming what is missing (the pager's own run is on the
#    newest kernel only, so the refusal is checked here).
#  - spare-ublk (issue 10; newest kernel): /dev/ublkbN on one donor
#    (spared on 10.0.0.2, which lends only against a broker's grant:
#    without one spare-ublk is refused, with one it maps), one copy of
#    every slab, a 96 MiB job in memory.max=32M with memory.high at 7/8 of
#    it (ublk.inc's ublk_cg: a bare memory.max OOM-kills jobs on the
#    pager). Bad options and donors are refused with one clear line; the
#    write window holds (at most 4 write requests at once) and is set again
#    when nr_requests or the scheduler changes under the pager; two queues
#    serve the workload; a donor breaking the protocol on a live session;
#    two grants to one donor, the later one short: the MAPs name the one
#    that expires last.
# (Was client/swap and client/swap-ublk: tests/vm/renames.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

# spare-ublk's refusal needs a kernel without ublk, and the pager's run is
# on the newest kernel only: spare.ko's run checks it where ublk is missing.
if [ "$BACKEND" = kmod ] && ! modprobe ublk_drv 2>/dev/null; then
	step "no ublk in $(uname -r): spare-ublk must refuse clearly"
	[ -e /dev/ublk-control ] && fail "/dev/ublk-control exists without ublk_drv"
	rc=0
	spare-ublk --size 64M --slab-size 16M --donor 10.0.0.2 \
		>/tmp/ublk.out 2>/tmp/ublk.log || rc=$?
	cat /tmp/ublk.log
	[ "$rc" = 3 ] || fail "spare-ublk exited $rc, expected 3 (kernel refused)"
	grep -q '/dev/ublk-control is missing' /tmp/ublk.log || fail "no word of /dev/ublk-control"
	grep -q 'CONFIG_BLK_DEV_UBLK is not set' /tmp/ublk.log || fail "no word of Debian 6.1's config"
	[ -s /tmp/ublk.out ] && fail "spare-ublk printed a device"
	pass "spare-ublk refused: no ublk in this kernel"
elif [ "$BACKEND" = kmod ]; then
	modprobe -r ublk_drv 2>/dev/null	# loaded just to ask; spare.ko's run needs none
fi

if [ "$BACKEND" = kmod ]; then
	step "soft-RoCE: client 10.0.0.1, donors 10.0.0.2 and 10.0.0.3"
	rxe_up 3
	client_require	# spare.ko needs the RDMA core rxe_up loads
	donor_start 2 --budget 256M --slab-size 16M
	donor_start 3 --budget 256M --slab-size 16M
	pass "two donors up"
else
	# the pager's run also proves lending against a broker's grant
	step "soft-RoCE: client 10.0.0.1, donor 10.0.0.2, which lends only against grants"
	client_require
	rxe_up 3
	sparectl gen-key >/tmp/grant.key && chmod 600 /tmp/grant.key || fail "gen-key"
	donor_start 2 --budget 256M --slab-size 16M --grant-key-file /tmp/grant.key
	# a broker's grant for the 8 slabs, minted with the grant key as the broker does
	GRANT=$(ublk_mint ok:8 10.0.0.2) || fail "mint"
	pass "donor up"

	# the pager's options and set-up (spare.ko's configfs: client/badinput)
	step "bad input: refused with one clear line, no device left behind"
	[ -c /dev/ublk-control ] || fail "ublk_drv loaded but no /dev/ublk-control"
	# bad_run STATUS PATTERN ARGS...: spare-ublk exits STATUS saying PATTERN.
	printf '# a comment, then a line that is no grant\nabcd\n' >/tmp/badgrants
	bad_run() {
		local want=$1 pat=$2 rc=0; shift 2
		spare-ublk "$@" >/tmp/bad.out 2>/tmp/bad.log || rc=$?
		[ "$rc" = "$want" ] || { cat /tmp/bad.log; fail "spare-ublk $*: exit $rc, expected $want"; }
		grep -q "$pat" /tmp/bad.log || { cat /tmp/bad.log; fail "spare-ublk $*: no '$pat'"; }
		ls /dev/ublkb* >/dev/null 2>&1 && fail "spare-ublk $*: left a device"
		echo "refused ($rc): $(grep -m1 "$pat" /tmp/bad.log)"
	}
	bad_run 2 'needs as many donors' --size 64M --slab-size 16M --copies 2 --donor 10.0.0.2
	bad_run 2 'power of two' --size 64M --slab-size 3M --donor 10.0.0.2
	bad_run 2 'expected HOST' --size 64M --donor 10.0.0.2:notaport
	bad_run 1 'BAD_SLAB_SIZE\|slab size' --size 64M --slab-size 32M --source 10.0.0.1 \
		--donor 10.0.0.2:$DONOR_PORT
	bad_run 1 'donor 10.0.0.2' --size 64M --slab-size 16M --source 10.0.0.1 --timeout 2000 \
		--donor 10.0.0.2:$((DONOR_PORT + 1))
	bad_run 2 'not a grant' --size 64M --slab-size 16M --donor 10.0.0.2 --grant abcd
	bad_run 2 '12..22' --size 64M --slab-size 16M --donor 10.0.0.2 --ack-timeout 23
	bad_run 2 '1\.\.8' --size 64M --slab-size 16M --donor 10.0.0.2 --queues 9
	bad_run 2 'line 2: not a grant' --size 64M --slab-size 16M --grant-file /tmp/badgrants
	bad_run 1 'MAP slab 0 refused: no valid grant covers it' --size 64M --slab-size 16M \
		--source 10.0.0.1 --donor 10.0.0.2:$DONOR_PORT
	# A donor that breaks the protocol (spare-baddonor on host 3 answers HELLO
	# with a bad magic): the pager drops the message with a line naming that
	# donor, ends at set-up, leaves no device, and the good donor is left
	# holding nothing of it.
	# (its own grant: a grant belongs to the first client that sends it)
	GRANT_BD=$(ublk_mint ok:8 10.0.0.2) || fail "mint"
	spare-baddonor -l 10.0.0.3 -m hello >/tmp/baddonor.log 2>&1 &
	bd=$!
	wait_for 50 grep -q listening /tmp/baddonor.log || fail "spare-baddonor did not start"
	bad_run 1 'donor 10.0.0.3: malformed message dropped: bad magic' --size 32M --slab-size 16M \
		--copies 2 --source 10.0.0.1 --timeout 3000 --state-file none --grant "$GRANT_BD" \
		--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
	kill "$bd"; wait "$bd" 2>/dev/null
	grep -q 'HELLO_REPLY with a bad magic' /tmp/baddonor.log ||
		{ cat /tmp/baddonor.log; fail "spare-baddonor never got to break the protocol"; }
	wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status |
		awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" ||
		fail "donor 2 still lends slabs of the refused pager"
	pass "bad options, a refusing or absent donor, no grant, a donor breaking the protocol: clear errors, no device"

fi

if [ "$BACKEND" = kmod ]; then
	step "spare.ko: 256 MiB device, 16 MiB slabs, 2 copies"
	client_up 256M 16M 2 10.0.0.2:18515 10.0.0.3:18515
	show_stats "$disk"
	[ "$(io_stat "$disk" version)" = 2 ] || fail "io_stat version"
	# 16 fields since session 40 (field 16 held_waits, appended; ABI
	# sysfs-block-spare); none waited on a device that lost no donor
	[ "$(wc -w <"/sys/block/$disk/spare/io_stat")" = 16 ] || fail "io_stat: not 16 fields"
	[ "$(io_stat "$disk" held_waits)" = 0 ] || fail "io_stat held_waits not 0 before any loss"
	mapped=$(cut -d' ' -f5 "/sys/block/$disk/spare/slab_stat")
	[ "$mapped" = 32 ] || fail "expected 32 mapped slab copies, got $mapped"
	donor_ctl 2 status | grep -E '^spare_donor_(slabs|maps)' || true
	pass "$disk up with every slab copy mapped"
else
	step "spare-ublk: 128 MiB device, 16 MiB slabs, 1 copy"
	ublk_up --size 128M --slab-size 16M --donor 10.0.0.2:$DONOR_PORT --grant "$GRANT"
	grep -q 'donor 10.0.0.2:18515: sent 1 grant(s)' /tmp/ublk.log || fail "the grant was not sent"
	cat /tmp/ublk.log
	[ "$(cat "/sys/block/$disk/size")" = $((128 * 2048)) ] || fail "/dev/$disk: wrong size"
	lent=$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')
	[ "${lent:-0}" = 8 ] || fail "donor lends ${lent:-no} slabs, expected 8"
	pass "/dev/$disk up, 8 slabs lent"

	# the pager's write window is mq-deadline's async_depth; spare.ko
	# bounds its writes itself (write_window_kb)
	step "the write window kept when nr_requests or the scheduler changes under the pager"
	q=/sys/block/$disk/queue
	[ "$(cat "$q/scheduler")" = "none [mq-deadline] " ] || [ "$(cat "$q/scheduler")" = "[mq-deadline] none" ] ||
		fail "scheduler $(cat "$q/scheduler")"
	[ "$(cat "$q/iosched/async_depth")" = 4 ] || fail "async_depth $(cat "$q/iosched/async_depth"), want 4"
	agains() { [ "$(grep -c 'the write window is 4 request(s) again' /tmp/ublk.log)" = "$1" ]; }
	# mq-deadline sets async_depth to 3/4 of nr_requests when it changes
	echo 16 >"$q/nr_requests" || fail "nr_requests 16"
	wait_until 5 agains 1 ||
		{ cat /tmp/ublk.log; fail "the window was not set again after nr_requests changed"; }
	[ "$(cat "$q/iosched/async_depth")" = 4 ] || fail "async_depth $(cat "$q/iosched/async_depth") after nr_requests"
	echo none >"$q/scheduler" || fail "scheduler none"
	wait_for 25 grep -q 'no async_depth now (not mq-deadline): the write window is lost' /tmp/ublk.log ||
		{ cat /tmp/ublk.log; fail "a lost window not said"; }
	echo mq-deadline >"$q/scheduler" || fail "scheduler mq-deadline"
	wait_until 5 agains 2 ||
		{ cat /tmp/ublk.log; fail "the window was not set again under mq-deadline"; }
	[ "$(cat "$q/iosched/async_depth")" = 4 ] || fail "async_depth $(cat "$q/iosched/async_depth") under mq-deadline again"
	[ "$(grep -c 'write window is lost' /tmp/ublk.log)" = 1 ] || fail "the lost window said more than once"
	grep 'async_depth was\|window is lost' /tmp/ublk.log
	pass "set again after nr_requests 16 and after none, then mq-deadline; the loss said once"

fi

step "reads of never-written pages are zero"
[ "$(dd if="/dev/$disk" bs=4096 count=16 skip=1000 iflag=direct 2>/dev/null |
     od -An -v -tx1 | tr -d ' \n' | tr -d 0 | wc -c)" = 0 ] || fail "fresh device is not zero"
pass "zero before any write"

step "mkswap + swapon /dev/$disk"
client_swap_on
cat /proc/swaps
grep -q "/dev/$disk" /proc/swaps || fail "not in /proc/swaps"
pass "swapping on $disk"

if [ "$BACKEND" = kmod ]; then
	step "workload: 128 MiB, 2 passes, in a cgroup with memory.max=32M (memory.high 28M)"
	cg_new_high work 32M
	out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run work spare-memtest -p 2 128m || { show_stats "$disk"; why_died work; fail "memtest found bad pages (or died)"; }
	t1=$(cut -d' ' -f1 /proc/uptime)
	out=$(( $(vmstat_get pswpout) - out0 )); in=$(( $(vmstat_get pswpin) - in0 ))
	echo "pswpout +$out, pswpin +$in, $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
	[ "$out" -gt 30000 ] || fail "pswpout grew by only $out pages"
	[ "$in" -gt 20000 ] || fail "pswpin grew by only $in pages"
	pass "every page verified after swapping ($out out, $in in)"
else
	# memory.high beside memory.max: a bare memory.max OOM-kills a job
	# swapping onto the pager (ublk.inc's ublk_cg, Documentation/ublk.md)
	step "workload: 96 MiB, 2 passes, in a cgroup with memory.max=32M (memory.high 28M)"
	WL_SIZE_MB=96 WL_CG_MB=32
	ublk_cg work ${WL_CG_MB}M
	workload_start 2
	workload_wait
	pass "every page verified after swapping"
fi

if [ "$BACKEND" = kmod ]; then
	step "device stats: reads served by RDMA"
	show_stats "$disk"
	rr=$(client_stat rdma_reads); rw=$(client_stat rdma_writes)
	br=$(client_stat backup_reads); err=$(client_stat io_errors)
	[ "$rr" -gt 1000 ] || fail "only $rr RDMA reads"
	[ "$rw" -gt 1000 ] || fail "only $rw RDMA writes"
	[ "$br" = 0 ] || fail "$br reads came from a backup"
	[ "$err" = 0 ] || fail "$err I/O errors"
	for n in 2 3; do
		donor_ctl $n status | grep -E '^spare_donor_(slabs_lent|maps_total|clients|data_conns_total)' || true
	done
	# One RC QP per (hardware queue, donor), connected lazily
	# (Documentation/kmod.md): each donor accepted at least one DATA
	# connection and never more than the device has hardware queues.
	nq=$(ls -d /sys/block/"$disk"/mq/*/ | wc -l)
	for n in 2 3; do
		dc=$(donor_metric $n spare_donor_data_conns_total)
		[ "${dc:-0}" -ge 1 ] && [ "$dc" -le "$nq" ] ||
			fail "donor $n accepted ${dc:-no} DATA connections for $nq hardware queues"
		echo "donor $n: $dc DATA connections, $nq hardware queues"
	done
	check_dmesg
	pass "$rr RDMA reads, $rw RDMA writes, 0 backup reads, 0 errors"

	step "teardown: swapoff, power off, rmmod, donors stop"
	client_swap_off
	client_down
	for n in 2 3; do
		kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
	done
	check_dmesg
	pass "clean teardown"
	exit 0
fi

# The pager's counters are printed at its exit, so they are read after it.
step "teardown: swapoff, SIGTERM, counters, device gone, slabs returned"
client_swap_off
client_down
cat /tmp/ublk.log
[ "$(client_stat rdma_reads)" -gt 1000 ] || fail "only $(client_stat rdma_reads) RDMA reads"
[ "$(client_stat rdma_writes)" -gt 1000 ] || fail "only $(client_stat rdma_writes) RDMA writes"
[ "$(client_stat io_errors)" = 0 ] || fail "$(client_stat io_errors) I/O errors"
# The default write window (1024 KiB, 4 requests of up to 256 KiB) holds
# while the swap-out ran: the block layer never handed the pager more
# writes at once (without it, up to the queue depth: 16).
grep -q 'write window 1024 KiB: at most 4 write request' /tmp/ublk.log ||
	fail "the write window was not set"
[ "$(ublk_stat writes_held_max)" -le 4 ] ||
	fail "$(ublk_stat writes_held_max) write requests held at once, beyond the window's 4"
TD="$(ublk_stat rdma_reads) RDMA reads, $(ublk_stat rdma_writes) RDMA writes, 0 errors, at most $(ublk_stat writes_held_max) writes at once"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status |
	awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" ||
	fail "donor still lends slabs after spare-ublk stopped"

# The pager's own features (its queues are threads with io_uring, and its
# grants are its own): spare.ko's counterparts are client/killdonor,
# client/grants and donor/badpeer.
step "two queues (--queues 2): a thread, an io_uring and a QP to the donor each; the swap workload on both"
# As spare.ko has a hardware queue (and a QP per donor) per CPU. Each CPU
# submits to its own queue: direct I/O pinned to CPU 0 and to CPU 1 reaches
# both, and the swap workload runs on both as well.
GRANT_Q=$(ublk_mint ok:8 10.0.0.2) || fail "mint"
conns0=$(donor_metric 2 spare_donor_data_conns_total)
ublk_up --size 128M --slab-size 16M --queues 2 --state-file none --name twoq \
	--donor 10.0.0.2:$DONOR_PORT --grant "$GRANT_Q"
[ "$(ls "/sys/block/$disk/mq" | wc -l)" = 2 ] ||
	fail "/dev/$disk has $(ls "/sys/block/$disk/mq" | wc -l) hardware queue(s), not 2"
grep -qx 'queues 2' /run/spare/ublk/twoq || fail "the counters file does not say 'queues 2'"
# a DATA connection per queue, and resync's own
[ "$(donor_metric 2 spare_donor_data_conns_total)" = $((conns0 + 3)) ] ||
	fail "donor 2 took $(( $(donor_metric 2 spare_donor_data_conns_total) - conns0 )) DATA connections, not 3"
# several queues start without a scheduler: the pager chooses mq-deadline
# for the window, whose async_depth bounds each queue (4 requests / 2)
q=/sys/block/$disk/queue
grep -q '\[mq-deadline\]' "$q/scheduler" || fail "scheduler $(cat "$q/scheduler")"
[ "$(cat "$q/iosched/async_depth")" = 2 ] || fail "async_depth $(cat "$q/iosched/async_depth"), want 2"
grep -q 'at most 2 write request(s) of up to 256 KiB in flight per queue' /tmp/ublk.log ||
	{ cat /tmp/ublk.log; fail "the window per queue was not said"; }
for c in 0 1; do
	yes "SPAREQ$c" | head -c $((32 << 20)) | taskset -c $c dd of="/dev/$disk" bs=256k \
		seek=$((c * 128)) oflag=direct iflag=fullblock status=none || fail "writing on CPU $c"
done
for c in 0 1; do
	[ "$(taskset -c $((1 - c)) dd if="/dev/$disk" bs=256k skip=$((c * 128)) count=128 \
	     iflag=direct status=none | sha256sum)" = \
	  "$(yes "SPAREQ$c" | head -c $((32 << 20)) | sha256sum)" ] ||
		fail "the 32 MiB written on CPU $c read back differently on CPU $((1 - c))"
done
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
WL_SIZE_MB=64	# in the same 32 MiB cgroup: a shorter job than above
workload_start 2
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
for k in q0_reads q0_writes q1_reads q1_writes; do
	[ "$(ublk_stat $k)" -gt 0 ] || fail "$k is $(ublk_stat $k): a queue served nothing"
done
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
[ "$(ublk_stat writes_held_max)" -le 2 ] ||
	fail "$(ublk_stat writes_held_max) write requests held at once by a queue, beyond its window of 2"
pass "2 queues: $(ublk_stat q0_reads)/$(ublk_stat q0_writes) and $(ublk_stat q1_reads)/$(ublk_stat q1_writes) reads/writes, 3 DATA connections, every page verified"

step "a donor that breaks the protocol on a live session: the message is dropped, no data lost"
# spare-baddonor -m live-map serves two MAPs with real memory, answers
# heartbeats, and 2 s after the first MAP sends 50 EVICTs whose reason is
# out of range, while the marker is being written through both copies.
spare-baddonor -l 10.0.0.3 -m live-map -d 2 -n 50 >/tmp/baddonor.log 2>&1 &
bd=$!
wait_for 50 grep -q listening /tmp/baddonor.log || fail "spare-baddonor did not start"
GRANT_LV=$(ublk_mint ok:2 10.0.0.2) || fail "mint"
ublk_up --size 32M --slab-size 16M --copies 2 --state-file none --name live \
	--grant "$GRANT_LV" --donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
want=$(yes SPARELIVE | head -c $((32 << 20)) | sha256sum)
yes SPARELIVE | head -c $((32 << 20)) | dd of="/dev/$disk" bs=1M oflag=direct iflag=fullblock status=none ||
	fail "writing /dev/$disk"
wait_for 100 grep -q 'donor 10.0.0.3: malformed message dropped' /tmp/ublk.log ||
	{ cat /tmp/baddonor.log /tmp/ublk.log; fail "the pager did not name the bad message"; }
got=$(dd if="/dev/$disk" bs=1M iflag=direct status=none | sha256sum)
[ "$got" = "$want" ] || fail "the data read back differs"
grep 'malformed\|lost' /tmp/ublk.log
grep -q 'donor 10.0.0.2.* lost' /tmp/ublk.log && fail "the good donor was disturbed"
# 50 bad messages in well under 10 s: one line (or two, across a 10 s edge)
n=$(grep -c 'donor 10.0.0.3: malformed message dropped' /tmp/ublk.log)
[ "$n" -le 2 ] || fail "$n log lines for the bad messages: the log is not rate-limited"
ublk_down
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
grep -q 'live session: sending 50 EVICT(s) with reason 0' /tmp/baddonor.log ||
	{ cat /tmp/baddonor.log; fail "spare-baddonor never got to break the protocol"; }
kill "$bd"; wait "$bd" 2>/dev/null
pass "50 bad EVICTs dropped, $n line(s) naming donor 10.0.0.3; 32 MiB read back intact, 0 I/O errors"

step "two grants to one donor, the later one short: the MAPs name the one that expires last"
# Donor 3 (lending only against grants) is sent a grant for 3 slabs, then
# one that expires 8 s after it is minted. Once the short one has expired,
# donor 3 evicts a slab: its copy has nowhere else to go (donor 2 holds the
# other copy of every slab), so the pager unmaps it and maps it on donor 3
# again, in the same session, with no grant sent in between. A MAP that
# named the grant sent last, as spare-ublk's did before 2026-11-27, would
# name the expired one and be refused; it must name the long one.
donor_start 3 --budget 256M --slab-size 16M --grant-key-file /tmp/grant.key
G2=$(ublk_mint ok:2 10.0.0.2) || fail "mint"
G3L=$(ublk_mint ok:3 10.0.0.3) || fail "mint"
t_short=$(date +%s)
G3S=$(ublk_mint short:2 10.0.0.3) || fail "mint"
ublk_up --size 32M --slab-size 16M --copies 2 --state-file none --name grants \
	--grant "$G2" --grant "$G3L" --grant "$G3S" \
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
grep -q 'donor 10.0.0.3:18515: sent 2 grant(s)' /tmp/ublk.log ||
	{ cat /tmp/ublk.log; fail "donor 3 was not sent both grants"; }
[ "$(donor_metric 3 spare_donor_slabs_lent)" = 2 ] || fail "donor 3 lends $(donor_metric 3 spare_donor_slabs_lent) slabs, not 2"
yes SPAREGRANT | head -c $((32 << 20)) | dd of="/dev/$disk" bs=1M oflag=direct iflag=fullblock status=none ||
	fail "writing /dev/$disk"
while [ "$(date +%s)" -le $((t_short + 9)) ]; do sleep 1; done
maps0=$(donor_metric 3 spare_donor_maps_total)
donor_ctl 3 evict 1 >/dev/null || fail "donor 3: evict"
remapped() {
	[ "$(donor_metric 3 spare_donor_maps_total)" -gt "$maps0" ] &&
		[ "$(donor_metric 3 spare_donor_slabs_lent)" = 2 ]
}
wait_until 75 remapped ||
	{ cat /tmp/ublk.log; donor_logs; fail "the copy donor 3 evicted was not mapped on it again"; }
grep 'evict\|EVICT\|refused' /tmp/ublk.log
[ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	{ donor_logs; fail "donor 3 refused a MAP: it named the expired grant"; }
[ "$(dd if="/dev/$disk" bs=1M iflag=direct status=none | sha256sum)" = \
  "$(yes SPAREGRANT | head -c $((32 << 20)) | sha256sum)" ] || fail "the data read back differs"
ublk_down
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
kill -TERM "$(donor_pid 3)"; wait "$(donor_pid 3)" || { cat /tmp/spared-3.log; fail "spared 3 exit"; }
pass "the evicted copy was mapped again under the long grant; 32 MiB read back intact"

kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared exit"; }
check_dmesg
pass "clean teardown: $TD"
