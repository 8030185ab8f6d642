# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# (On the newest kernel only since session 18, for make check's time: the
# bios dm-crypt sends spare.ko take the path every other scenario tests on
# both kernels; SPARE_VM_ALL_KERNELS=1 runs it on 6.1 too.)
#
# Confidentiality by composition: swap on dm-crypt over /dev/spareN with a
# random key per boot (what crypttab's "swap" option sets up), and the same
# workload on /dev/spareN directly as the control.
#
# The workload writes a recognisable plaintext marker into 48 MiB of tmpfs
# inside a 14 MiB cgroup (was 80 in 24 until session 20: the same
# over-commit, 40 s less guest time), so the shmem pages go out to swap, then reads it
# all back and compares. Each donor's lent memory is then read from outside
# (/proc/<spared>/mem over its slab mappings, as anyone with root on the
# donor could) and searched for the marker:
#   - through dm-crypt: the marker must not be found anywhere;
#   - directly:         it must be found (so the search itself can fail).
# Each run starts on a fresh device (the donors zero released slabs), the
# encrypted run first. Timings of both are printed as RESULT lines.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

MARKER=SPARE-PLAINTEXT-MARKER-4f1c2a9e
# usage: client/dmcrypt.sh [MiB CGROUP]: the benchmark in perf-swap.md ran
# "96 24M" (scripts/vm/run ... tests/vm/client/dmcrypt.sh 96 24M)
WL_MB=${1:-48}
WL_CG=${2:-14M}

# slab_hits N: how many of donor N's slab mappings hold the marker.
slab_hits() {
	local pid hits=0 n=0 range start end
	pid=$(donor_pid "$1")
	# slabs: spared's shared mappings of its "spare-slab" memfds (one per
	# slab, so that a restart in place keeps them: spared.md)
	for range in $(awk '$2 == "rw-s" && $6 == "/memfd:spare-slab" {print $1}' "/proc/$pid/maps"); do
		start=$((0x${range%-*})); end=$((0x${range#*-}))
		n=$((n + 1))
		dd if="/proc/$pid/mem" of=/tmp/slab bs=4096 skip=$((start / 4096)) \
			count=$(((end - start) / 4096)) 2>/dev/null || fail "cannot read donor $1's slab at $range"
		grep -a -q -F "$MARKER" /tmp/slab && hits=$((hits + 1))
	done
	rm -f /tmp/slab
	[ $n -gt 0 ] || fail "donor $1 has no slab mappings"
	echo "$hits"
}

# workload DEV: swap on DEV, marker file in tmpfs under the cgroup, read back.
workload() {
	local dev=$1 out0 t0 t1 t2
	mkswap "$dev" >/dev/null && swapon "$dev" || fail "swapon $dev"
	mkdir -p /mnt/t && mount -t tmpfs -o size=256m tmpfs /mnt/t || fail "tmpfs"
	out0=$(vmstat_get pswpout)
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run work sh -c "yes $MARKER | head -c $((WL_MB << 20)) >/mnt/t/f" || fail "writing the marker file"
	t1=$(cut -d' ' -f1 /proc/uptime)
	out=$(( $(vmstat_get pswpout) - out0 ))
	cg_run work sh -c "yes $MARKER | head -c $((WL_MB << 20)) | cmp - /mnt/t/f" ||
		fail "marker file read back differs"
	t2=$(cut -d' ' -f1 /proc/uptime)
	echo "pswpout +$out"
	# at least 70 % of what does not fit the cgroup
	[ "$out" -gt $(( (WL_MB - ${WL_CG%M}) * 256 * 7 / 10 )) ] || fail "only $out pages swapped out"
	W=$(echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}')
	R=$(echo "$t1 $t2" | awk '{printf "%.2f", $2 - $1}')
}

workload_off() {
	rm -f /mnt/t/f
	umount /mnt/t || fail "umount tmpfs"
	swapoff "$1" || fail "swapoff $1"
}

step "two donors, spare.ko, cgroup of $WL_CG"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
spare_load
modprobe dm_crypt || fail "modprobe dm_crypt"
cg_new work $WL_CG
pass "ready"

step "swap through dm-crypt (aes-xts-plain64, random 512-bit key per boot)"
disk=$(spare_create swap0 size=256M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
key=$(dd if=/dev/urandom bs=64 count=1 2>/dev/null | od -An -tx1 | tr -d ' \n')
[ ${#key} = 128 ] || fail "key generation"
sectors=$(cat "/sys/block/$disk/size")
dmsetup create cswap --noudevsync --table "0 $sectors crypt aes-xts-plain64 $key 0 /dev/$disk 0" ||
	fail "dmsetup create crypt"
unset key
dmsetup mknodes cswap 2>/dev/null
[ -b /dev/mapper/cswap ] || fail "no /dev/mapper/cswap"
workload /dev/mapper/cswap
CW=$W; CR=$R
h2=$(slab_hits 2); h3=$(slab_hits 3)
echo "slabs holding the marker: donor 2: $h2, donor 3: $h3"
[ "$h2" = 0 ] && [ "$h3" = 0 ] || fail "plaintext found in a donor's memory through dm-crypt"
workload_off /dev/mapper/cswap
dmsetup remove cswap || fail "dmsetup remove"
spare_destroy swap0
pass "dm-crypt: no plaintext in either donor's lent memory (write ${CW}s, read ${CR}s)"

step "control: the same workload straight on /dev/spareN"
disk=$(spare_create swap0 size=256M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
workload "/dev/$disk"
PW=$W; PR=$R
h2=$(slab_hits 2); h3=$(slab_hits 3)
echo "slabs holding the marker: donor 2: $h2, donor 3: $h3"
[ $((h2 + h3)) -gt 0 ] || fail "the search found no plaintext even without dm-crypt"
workload_off "/dev/$disk"
spare_destroy swap0
pass "plain: the marker is readable in $((h2 + h3)) lent slabs (write ${PW}s, read ${PR}s)"

echo "RESULT dmcrypt write_s $CW"
echo "RESULT dmcrypt read_s $CR"
echo "RESULT plain write_s $PW"
echo "RESULT plain read_s $PR"

step "teardown"
rmmod spare || fail "rmmod"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
check_dmesg
pass "clean teardown"
