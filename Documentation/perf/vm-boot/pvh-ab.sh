#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A/B of how QEMU starts the guest kernel, boots alternated in one run:
#   vmlinuz: Debian's compressed image (6.1: xz, 6.12: zstd), which
#            unpacks itself under TCG before the guest's clock starts;
#   vmlinux: the uncompressed ELF started at its PVH entry point (what
#            scripts/vm/run boots since session 17).
# Both get the same initramfs (the base, our programs and tests/vm) and a
# scenario that does nothing. Prints CSV: variant, run, guest uptime when
# the scenario started (the clocks start at different points, so only the
# wall time compares), wall time of the whole QEMU run (boot to power-off).
#
# usage: Documentation/perf/vm-boot/pvh-ab.sh [KVER] [RUNS]
# (after a scripts/vm/run on KVER has built build/vm/KVER/{base.cpio,vmlinux})
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
K=${1:-6.1.0-56-amd64}
RUNS=${2:-6}
V=$TOP/build/vm/$K
[ -f "$V/vmlinux" ] || { echo "no $V/vmlinux: run scripts/vm/run -k $K first" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/o/spare/tests"
cp -a "$TOP/tests/vm" "$W/o/spare/tests/"
printf '. /spare/tests/vm/lib.sh\n' >"$W/o/spare/tests/vm/zz-noop.sh"
[ -d "$TOP/build/bin" ] && cp -a "$TOP/build/bin" "$W/o/spare/"
(cd "$W/o" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$W/overlay"
cat "$V/base.cpio" "$W/overlay" >"$W/initrd"
echo "variant,run,uptime_at_init_s,wall_s"
for i in $(seq "$RUNS"); do
	for v in vmlinuz vmlinux; do
		case $v in
		vmlinuz) kernel=$TOP/build/kernels/$K/boot/vmlinuz-$K ;;
		vmlinux) kernel=$V/vmlinux ;;
		esac
		t0=$(date +%s.%N)
		up=$(timeout 120 qemu-system-x86_64 -m 2G -smp 2 -accel tcg,thread=single \
			-cpu max -no-reboot -kernel "$kernel" \
			-initrd "$W/initrd" -nic none -display none -serial stdio -monitor none \
			-append "console=ttyS0 panic=-1 quiet loglevel=4 spare.scenario=tests/vm/zz-noop.sh" \
			</dev/null 2>&1 |
			sed -n 's/^spare-guest: running .* at \([0-9.]*\) s.*/\1/p')
		t1=$(date +%s.%N)
		echo "$v,$i,$up,$(echo "$t1 - $t0" | bc)"
	done
done
