#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# crc-speed.sh: the guest kernel's own speed test (tcrypt, mode 300) of the
# "crc32" shash by each driver soft-RoCE could take: crc32-generic and
# crc32-pclmul, one after the other in one boot, 1 s per block size.
# tcrypt is in no initramfs: add it to scripts/vm/mkinitramfs's MODULES
# for the run, then copy this file to tests/vm/bench/ and
#   scripts/vm/run -k KVER tests/vm/bench/crc-speed.sh
modprobe crc32_generic || exit 1
modprobe crc32_pclmul || exit 1
grep -A6 '^name *: crc32$' /proc/crypto | grep -E 'driver|priority'
for a in crc32-generic crc32-pclmul; do
	echo "crc-speed: $a"
	dmesg -c >/dev/null
	modprobe tcrypt mode=300 alg="$a" sec=1 2>/dev/null	# always "fails"
	dmesg | grep -E 'testing speed|test *[0-9]+ \('
done
exit 0
