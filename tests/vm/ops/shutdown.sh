# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
# vm-backends: ublk kmod
# vm-init: systemd
#
# An operator's `systemctl poweroff` on a trainer whose swap is on spare
# (issue 33): the guest powers itself off through systemd (Debian 12's
# 252 as PID 1, systemd-shutdown at the end), with a job's pages on the
# swap device, and watches it from a unit of its own that stops last.
#   - the units of dist/ under systemd: spare-broker, spared (donor 2),
#     donor 3 by hand; spare-swap@sw0 (the backend of -b: spare-ublk@sw0 or
#     spare.ko) swapped on through the broker;
#   - a job (64 MiB in a 32 MiB cgroup) has swapped out; it is frozen and
#     its limit lifted, so that its pages stay on the device until the
#     shutdown's swapoff reads them back;
#   - `systemctl poweroff`; a judge unit ordered Before= every spare unit
#     stops after all of them, and asserts from what systemd recorded:
#     spare-swap@sw0 stopped successfully, its own swapoff ("swapped off",
#     not "was not swapped on": nobody swapped the device off under it),
#     and was done before spare-ublk@sw0, spared and spare-broker began to
#     stop; no swap left, no I/O error in the kernel log, no splat; the
#     pager or the module device gone; the job thawed verifies every page;
#   - then the shutdown goes on to systemd-shutdown and the power-off: a
#     hang there is the guest's time-out (scripts/vm/run, 124).
# The judge prints SPARE-EXIT itself (the scenario's service is not stopped
# by a shutdown: DefaultDependencies=no), then ends the scenario's service.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/ops/units.inc
set -u
BACKEND=$(cat /spare/scenario.backend 2>/dev/null)
ENV=/tmp/shutdown.env

# "--judge": the judge unit's ExecStop (below), once spare's units stopped.
if [ "${1:-}" = --judge ]; then
	. "$ENV"
	mono() { systemctl show -P "$2" "$1"; }	# µs, CLOCK_MONOTONIC
	secs() { awk -v u="$1" 'BEGIN {printf "%.3f", u / 1e6}'; }
	judge() {
		step "the shutdown, seen once spare's units stopped"
		units="spare-swap@sw0 sparectl-monitor@sw0 spared spare-broker"
		[ "$BACKEND" = ublk ] && units="spare-swap@sw0 sparectl-monitor@sw0 spare-ublk@sw0 spared spare-broker"
		for u in $units; do
			echo "    $u: stop began $(secs "$(mono "$u" ActiveExitTimestampMonotonic)") s, ended $(secs "$(mono "$u" InactiveEnterTimestampMonotonic)") s, $(systemctl is-active "$u"), result $(mono "$u" Result)"
		done
		systemctl list-units --all --type=swap --no-legend --no-pager | sed 's/^/    systemd: /'
		journalctl -u "dev-$disk.swap" -o short-monotonic --no-pager | tail -5 | sed 's/^/    /'
		jlog spare-swap@sw0 | tail -4 | sed 's/^/    spare-swap@sw0: /'
		for u in $units; do
			[ "$(mono "$u" Result)" = success ] && [ "$(systemctl is-active "$u")" = inactive ] ||
				{ journalctl -u "$u" -o short-monotonic --no-pager | tail -30
				  fail "$u: $(systemctl is-active "$u"), result $(mono "$u" Result)"; }
		done
		jlog spare-swap@sw0 | grep -q "device sw0: /dev/$disk swapped off$" ||
			fail "spare-swap@sw0 did not swap /dev/$disk off itself"
		off=$(mono spare-swap@sw0 InactiveEnterTimestampMonotonic)
		for u in $units; do
			case $u in spare-swap@sw0|sparectl-monitor@sw0) continue ;; esac
			began=$(mono "$u" ActiveExitTimestampMonotonic)
			[ "$began" -ge "$off" ] ||
				fail "$u began to stop at $(secs "$began") s, before the swap on /dev/$disk was off ($(secs "$off") s)"
		done
		grep -q "^/dev/$disk " /proc/swaps && fail "/dev/$disk is still a swap"
		dmesg | grep -i -E 'I/O error|(read|write)-error on swap|bad swap' >/tmp/ioerr &&
			{ cat /tmp/ioerr; fail "the kernel logged errors during the shutdown"; }
		if [ "$BACKEND" = ublk ]; then
			[ -e "/dev/$disk" ] && fail "/dev/$disk still there after its pager stopped"
		else
			[ -e "$CFS/sw0" ] && fail "$CFS/sw0 still there"
		fi
		pager=
		[ "$BACKEND" = ublk ] && pager="the pager, "
		pass "spare-swap@sw0 swapped /dev/$disk off ($used_kib KiB swapped) at $(secs "$off") s, before ${pager}spared and the broker began to stop; no error"
		step "the job, thawed: every page it had on /dev/$disk read back by the shutdown's swapoff"
		echo 0 >/sys/fs/cgroup/work/cgroup.freeze
		rm -f /tmp/hold
		wait_until 120 test -s /tmp/memtest.rc || fail "the job did not end"
		cat /tmp/memtest.out
		[ "$(cat /tmp/memtest.rc)" = 0 ] || fail "the job exited $(cat /tmp/memtest.rc): pages lost"
		check_dmesg
		pass "every page of the job verified after the poweroff's swapoff"
	}
	(judge)
	rc=$?
	# the scenario's service (and its /init) must not print a verdict of
	# their own when systemd-shutdown ends them
	systemctl kill -s KILL spare-scenario.service
	echo "SPARE-EXIT: $rc"
	exit 0
fi

watchdog 900
case $BACKEND in
ublk) ublk_require; SWAP_BACKEND=ublk ;;
kmod) SWAP_BACKEND=module ;;
*) fail "backend '$BACKEND': run with -b ublk or -b kmod" ;;
esac
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: not run under scripts/vm/run?"

step "spare's units under systemd: the broker, spared as donor 2 (donor 3 by hand)"
units_install
# systemd swaps its swap units (dev-*.swap, one for every line of
# /proc/swaps) off with /sbin/swapoff at a shutdown, as on a Debian host
# (/sbin is /usr/sbin there); the rig's base has it in /usr/sbin only
for t in swapon swapoff; do
	[ -e "/sbin/$t" ] || ln -s "/usr/sbin/$t" "/sbin/$t" || fail "/sbin/$t"
done
rxe_up 3
[ "$BACKEND" = kmod ] && spare_load	# after rxe_up: it needs the RDMA core
units_keys
units_configs
systemctl start spare-broker spared || fail "systemctl start spare-broker spared"
grant_donor 3 donor3 --domain rack3 --resume-hold 60
for d in donor2 donor3; do
	wait_for 150 sh -c "journalctl -u spare-broker -o cat | grep -q 'donor $d at'" || fail "the broker does not know $d"
done
pass "broker and donors up"

step "spare-swap@sw0 ($SWAP_BACKEND) swapped on; a job of 64 MiB in 32 MiB swaps onto it"
units_swap_conf sw0 "$SWAP_BACKEND" 40
systemctl enable --now spare-swap@sw0 || { jlog spare-swap@sw0; fail "systemctl enable --now spare-swap@sw0"; }
disk=$(jlog spare-swap@sw0 | sed -n 's|.*device sw0: /dev/\([a-z0-9]*\) swapped on at priority 40$|\1|p')
[ -n "$disk" ] || { jlog spare-swap@sw0; fail "spare-swap@sw0 does not say it swapped on"; }
ublk_cg work 32M
: >/tmp/hold
rm -f /tmp/memtest.rc
cg_run work sh -c 'spare-memtest -p 1 -u /tmp/hold 64m >/tmp/memtest.out 2>&1; echo $? >/tmp/memtest.rc' &
swapped_kib() { awk -v d="/dev/$disk" '$1 == d {print $4}' /proc/swaps; }
wait_until 180 sh -c "[ \$(awk '\$1 == \"/dev/$disk\" {print \$4}' /proc/swaps) -ge 24576 ]" ||
	{ cat /proc/swaps /tmp/memtest.out; fail "the job did not swap 24 MiB onto /dev/$disk"; }
echo 1 >/sys/fs/cgroup/work/cgroup.freeze
wait_until 30 grep -q '^frozen 1' /sys/fs/cgroup/work/cgroup.events || fail "the job did not freeze"
# its limit lifted: the shutdown's swapoff brings its pages back into it
echo max >/sys/fs/cgroup/work/memory.high
echo max >/sys/fs/cgroup/work/memory.max
used_kib=$(swapped_kib)
[ -s /tmp/memtest.rc ] && { cat /tmp/memtest.out; fail "the job ended before the shutdown"; }
pass "/dev/$disk holds $used_kib KiB of the frozen job's pages"
# systemd's own unit for this swap (from /proc/swaps), which a shutdown
# stops too (umount.target)
systemctl show -p Id,ActiveState,Before,Conflicts "dev-$disk.swap" | sed 's/^/    /'

step "systemctl poweroff: the judge unit stops after every spare unit"
printf 'disk=%s\nBACKEND=%s\nused_kib=%s\n' "$disk" "$BACKEND" "$used_kib" >"$ENV"
cat >/etc/systemd/system/spare-shutdown-judge.service <<EOF
[Unit]
Description=spare: judge the shutdown (tests/vm/ops/shutdown.sh)
Before=spare-swap@sw0.service sparectl-monitor@sw0.service spare-ublk@sw0.service spared.service spare-broker.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/true
ExecStop=/bin/sh /spare/tests/vm/ops/shutdown.sh --judge
Environment=PATH=/spare/bin:/usr/sbin:/usr/bin:/sbin:/bin
TimeoutStopSec=300
StandardOutput=tty
StandardError=inherit
TTYPath=/dev/console
TTYReset=no
TTYVHangup=no
EOF
systemctl daemon-reload && systemctl start spare-shutdown-judge || fail "the judge unit"
systemctl poweroff || fail "systemctl poweroff"
# the judge ends this service and says how it went
sleep 900
