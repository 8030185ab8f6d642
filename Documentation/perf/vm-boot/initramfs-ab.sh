#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A/B of the VM rig's initramfs, boots alternated in one run:
#   old: everything in one gzip -1 archive (the base before session 13:
#        base + fio and its libraries), the way mkinitramfs made it;
#   new: the uncompressed base without fio (scripts/vm/mkinitramfs now).
# Both get the same overlay (our programs and tests/vm) and a scenario that
# does nothing. Prints CSV: variant, run, guest uptime when the scenario
# started, wall time of the whole QEMU run (boot to power-off).
#
# usage: Documentation/perf/vm-boot/initramfs-ab.sh [KVER] [RUNS]
# (after a scripts/vm/run on KVER has built build/vm/KVER/{base,bench}.cpio)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
K=${1:-6.12.117+deb12-amd64}
RUNS=${2:-6}
V=$TOP/build/vm/$K
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/o/spare/tests"
cp -a "$TOP/tests/vm" "$W/o/spare/tests/"
printf '. /spare/tests/vm/lib.sh\n' >"$W/o/spare/tests/vm/zz-noop.sh"
[ -d "$TOP/build/bin" ] && cp -a "$TOP/build/bin" "$W/o/spare/"
(cd "$W/o" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$W/overlay"
# the old base was one archive of base and bench contents, gzip -1
( mkdir "$W/x" && cd "$W/x" && cpio -id --quiet <"$V/base.cpio" && cpio -id --quiet <"$V/bench.cpio" &&
  find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1 ) >"$W/old-base"
cat "$W/old-base" "$W/overlay" >"$W/old"
cat "$V/base.cpio" "$W/overlay" >"$W/new"
echo "variant,run,uptime_at_init_s,wall_s"
for i in $(seq "$RUNS"); do
	for v in old new; do
		t0=$(date +%s.%N)
		up=$(timeout 120 qemu-system-x86_64 -m 2G -smp 2 -accel tcg,thread=single \
			-cpu max -no-reboot -kernel "$TOP/build/kernels/$K/boot/vmlinuz-$K" \
			-initrd "$W/$v" -nic none -display none -serial stdio -monitor none \
			-append "console=ttyS0 panic=-1 quiet loglevel=4 spare.scenario=tests/vm/zz-noop.sh" \
			</dev/null 2>&1 |
			sed -n 's/^spare-guest: running .* at \([0-9.]*\) s.*/\1/p')
		t1=$(date +%s.%N)
		echo "$v,$i,$up,$(echo "$t1 - $t0" | bc)"
	done
done
