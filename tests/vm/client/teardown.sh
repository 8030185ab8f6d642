# SPDX-License-Identifier: GPL-2.0
#
# Teardown under fire: ROUNDS times (10), a device with two
# copies of every slab and a slow backup (brd behind dm-delay, 20 ms, so
# async backup writes are still on their way) is powered on, written and
# read with O_DIRECT, hit by a fault, then powered off and removed
# (rmdir) the moment its I/O is killed: while its donors' error work,
# reconnects, evictions, resyncs and the backup's writes are in flight.
# Rounds alternate sync/async backup; the faults rotate: donor 3 killed,
# the link to donor 3 cut, donor 2 evicting every slab, none, donor 3
# killed and restarted at once (reconnect and resync in flight).
#
# Asserts every round: power-on and power-off/rmdir succeed, no I/O error,
# no kernel splat; at the end spare.ko unloads. On the debug kernel
# (lockdep, KASAN, DEBUG_OBJECTS) the splat check is what gives it teeth.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 1500
# 10 rounds on Debian's kernels: each fault twice, once with each backup
# mode (they would not report a race, only its damage). On the debug
# kernel, where a race shows as a splat, a round takes ~20 s: 5 rounds
# there, each fault once, and which backup mode meets which fault is drawn
# per boot (FLIP, printed; SPARE_TEARDOWN_FLIP repeats a run's pairs), so that checks in turn
# cover all ten pairs where one check covered them at twice the guest time
# (session 44; a 45-round run is in NEWS.md).
# The device: 64 MiB, 4 slabs of 2 copies; 32 MiB (2 slabs) on the debug
# kernel, where each copy's MAP at power-on costs about 1 s and the writer
# reaches no more than the first slab before the fault anyway.
ROUNDS=${SPARE_TEARDOWN_ROUNDS:-10} FLIP=0 TD_MB=64
if [ -n "$DEBUG_KERNEL" ]; then
	TD_MB=32
	ROUNDS=${SPARE_TEARDOWN_ROUNDS:-5}
	FLIP=${SPARE_TEARDOWN_FLIP:-$(( $(od -An -N1 -tu1 /dev/urandom) % 2 ))}
	echo "debug kernel: $ROUNDS rounds, FLIP=$FLIP (round 1's backup is $( [ $FLIP = 0 ] && echo sync || echo async))"
fi

step "three hosts; a slow backup (brd behind dm-delay, 20 ms)"
cut_ready
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
modprobe brd rd_nr=1 rd_size=65536 || fail "modprobe brd"
modprobe dm-delay 2>/dev/null
dmsetup create slow --noudevsync --table "0 131072 delay /dev/ram0 0 20" || fail "dm-delay"
dmsetup mknodes slow 2>/dev/null
[ -b /dev/mapper/slow ] || fail "no /dev/mapper/slow"
spare_load
pass "donors up, backup /dev/mapper/slow"

# power_off_now NAME: power off (retried while the killed I/O still holds
# the device open), then rmdir.
power_off_now() {
	local t=0
	until echo 0 >"$CFS/$1/power" 2>/dev/null; do
		t=$((t + 1))
		[ $t -gt 100 ] && { dmesg | tail -20; fail "$1: power off refused for 10 s"; }
		sleep 0.1
	done
	rmdir "$CFS/$1" || fail "rmdir $CFS/$1"
}

faults="kill cut evict none restart"
n_faults=0
for r in $(seq 1 "$ROUNDS"); do
	mode=sync; [ $(( (r + FLIP) % 2 )) = 0 ] && mode=async
	set -- $faults
	shift $(( (r - 1) % 5 ))
	fault=$1
	name=t$r
	mkdir "$CFS/$name" || fail "mkdir $name"
	for kv in size=${TD_MB}M slab_size=16M replicas=2 backup=/dev/mapper/slow \
		backup_mode=$mode donors=10.0.0.2:18515,10.0.0.3:18515 \
		source=10.0.0.1; do
		echo "${kv#*=}" >"$CFS/$name/${kv%%=*}" || fail "$name: $kv refused"
	done
	echo 1 >"$CFS/$name/power" || { dmesg | tail -20; donor_logs; fail "round $r: power on refused"; }
	disk=$(cat "$CFS/$name/disk")
	dd if=/dev/urandom of="/dev/$disk" bs=64k count=1024 oflag=direct 2>/dev/null &
	w=$!
	dd if="/dev/$disk" of=/dev/null bs=16k count=4096 iflag=direct 2>/dev/null &
	rd=$!
	sleep "0.$(( (r * 3) % 8 + 1 ))"
	case $fault in
	kill)    kill -KILL "$(donor_pid 3)" ;;
	cut)     cut_link 3 ;;
	evict)   donor_ctl 2 evict all >/dev/null || fail "round $r: evict" ;;
	restart) kill -KILL "$(donor_pid 3)"; wait "$(donor_pid 3)" 2>/dev/null
		 donor_start 3 --budget 256M --slab-size 16M ;;
	esac
	sleep "0.$(( (r * 7) % 6 + 1 ))"
	errs=$(io_stat "$disk" io_errors)
	kill -KILL $w $rd 2>/dev/null
	wait $w $rd 2>/dev/null
	power_off_now "$name"
	[ "$errs" = 0 ] || fail "round $r ($fault, $mode): $errs I/O errors"
	case $fault in
	kill) wait "$(donor_pid 3)" 2>/dev/null
	      donor_start 3 --budget 256M --slab-size 16M ;;
	cut)  heal_link ;;
	esac
	[ "$fault" = none ] || n_faults=$((n_faults + 1))
	check_dmesg
	read -r up _ </proc/uptime
	echo "round $r: $fault, backup $mode: off and removed [${up}s]"
done
# The faults must have been live at some power-offs: donor losses taken
# (error road) and evictions answered, in the module's own log.
losses=$(dmesg | grep -c 'slab copies dropped')
evicted=$(dmesg | grep -c 'evicted; using other copies')
echo "error roads taken: $losses; slabs evicted: $evicted"
[ "$losses" -gt 0 ] || fail "no donor loss was ever handled: the faults were not in flight"
[ "$evicted" -gt 0 ] || fail "no eviction was ever handled"
pass "$ROUNDS rounds powered off and removed under I/O, $n_faults with a fault in flight"

step "unload"
dmsetup remove --noudevsync slow || fail "dmsetup remove"
rmmod spare || fail "rmmod spare"
check_dmesg
pass "spare.ko unloaded; no splat"
