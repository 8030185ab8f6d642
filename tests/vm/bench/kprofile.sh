#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# (the backend is the inner scenario's, when it takes one)
# kprofile.sh SCENARIO [ARGS...]: run another scenario under the kernel's
# own profiler and print its histogram on the console, for
# scripts/vm/kprofile to read. Needs the boot argument profile=2
# (SPARE_VM_APPEND=profile=2 scripts/vm/run ... tests/vm/bench/kprofile.sh
# tests/vm/client/swap.sh). The scenario's status is this one's.
# Under TCG a guest's CPU is the host's CPU: where the guest kernel spends
# its ticks is where the check's guest-seconds go.
inner=$1
shift
if [ ! -r /proc/profile ]; then
	echo "kprofile: no /proc/profile (boot with profile=2)"
	exit 2
fi
echo 0 >/proc/profile	# reset: count from the scenario's start
sh "/spare/$inner" "$@"
rc=$?
echo "kprofile: begin"
gzip -c /proc/profile | base64
echo "kprofile: end"
# the symbols of this boot (Debian ships no System.map outside its -dbg
# package); the kernel's own text only: module ticks are not resolved
echo "kprofile: symbols"
grep -v '\[' /proc/kallsyms | gzip -c | base64
echo "kprofile: symbols end"
exit "$rc"
