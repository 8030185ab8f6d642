# SPDX-License-Identifier: GPL-2.0
#
# make demo: a memory-starved trainer swaps onto two donors' memory.
#
# Hosts (one guest, each host its own NIC and soft-RoCE device):
#   10.0.0.1  the trainer: spare.ko, /dev/spare0 as its only swap
#   10.0.0.2  donor A: spared lending 320 MiB
#   10.0.0.3  donor B: spared lending 320 MiB
# The trainer's job (spare-memtest) needs 4x the memory its cgroup may use:
# it writes a pattern into every page and verifies every page on the next
# pass. The same job then swaps to a local disk that answers in 1 ms
# (dm-delay over a RAM disk), for comparison.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u

SIZE=192m; PASSES=2; MAX=48M

cat <<'TXT'

  spare demo: remote-memory swap over RDMA
  ========================================
  A training host is short of memory; two data-preparation hosts have
  memory to spare. The trainer runs `swapon /dev/spare0` and its pages go,
  over RDMA, into memory the donors lend. Every page is checked when it
  comes back.

TXT

step "three hosts on soft-RoCE: trainer 10.0.0.1, donors 10.0.0.2 and 10.0.0.3"
rxe_up 3
rdma link show | sed 's/^/    /'
donor_start 2 --budget 320M --slab-size 16M
donor_start 3 --budget 320M --slab-size 16M
pass "donors lend 320 MiB each, in 16 MiB slabs"

step "the trainer creates /dev/spare0 through configfs (256 MiB, 2 copies of every slab)"
spare_load
disk=$(spare_create demo0 size=256M slab_size=16M replicas=2 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
echo "    /sys/kernel/config/spare/demo0: $(cd /sys/kernel/config/spare/demo0 &&
	for a in size slab_size replicas donors; do printf '%s=%s ' $a "$(cat $a)"; done)"
pass "/dev/$disk is up"

step "the job: $SIZE, $PASSES passes, verified page by page, in a cgroup with memory.max=$MAX"
cg_new trainer "$MAX"
cpu0=$(( $(awk '{print $14 + $15}' "/proc/$(donor_pid 2)/stat") + $(awk '{print $14 + $15}' "/proc/$(donor_pid 3)/stat") ))
swap_run "/dev/$disk" trainer "$SIZE" "$PASSES" || fail "the job on spare: $SWAP_RESULT"
cpu1=$(( $(awk '{print $14 + $15}' "/proc/$(donor_pid 2)/stat") + $(awk '{print $14 + $15}' "/proc/$(donor_pid 3)/stat") ))
spare_s=$SWAP_SECONDS
pass "every page verified: $SWAP_OUT pages swapped out, $SWAP_IN swapped in, in $spare_s s"

step "where the pages went"
show_stats "$disk" | sed 's/^/    /'
echo "    RDMA reads $(io_stat "$disk" rdma_reads), RDMA writes $(io_stat "$disk" rdma_writes), backup reads $(io_stat "$disk" backup_reads), I/O errors $(io_stat "$disk" io_errors)"
for n in 2 3; do
	echo "    donor $(host_addr $n):"
	donor_ctl $n status | grep -E '^spared_(slabs|bytes|maps|clients)' | sed 's/^/      /'
done
echo "    donors' CPU time while the job ran: $(( (cpu1 - cpu0) * 10 )) ms (one-sided RDMA: the donors' CPUs do not touch pages)"
spare_destroy demo0

step "the same job, swapping to a local disk with 1 ms latency (dm-delay over a RAM disk)"
modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
modprobe dm_delay || fail "modprobe dm_delay"
dmsetup create slowdisk --noudevsync --table "0 524288 delay /dev/ram0 0 1" || fail "dmsetup"
dmsetup mknodes slowdisk 2>/dev/null
swap_run /dev/mapper/slowdisk trainer "$SIZE" "$PASSES" || fail "the job on the disk: $SWAP_RESULT"
disk_s=$SWAP_SECONDS
dmsetup remove --noudevsync slowdisk
pass "every page verified in $disk_s s"

cat <<TXT

  What happened
  -------------
  job on spare (remote memory over RDMA):  $spare_s s
  job on a 1 ms local disk:                $disk_s s
  speed-up:                                $(echo "$spare_s $disk_s" | awk '{printf "%.2fx", $2 / $1}')
  All figures come from an emulated machine (QEMU without KVM, soft-RoCE):
  compare the ratio, not the seconds. Documentation/perf-swap.md has the
  full benchmark against nvme-rdma, nbd and zram.

TXT
