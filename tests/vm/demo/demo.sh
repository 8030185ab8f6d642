# SPDX-License-Identifier: GPL-2.0
#
# make demo: a memory-starved trainer swaps onto two donors' memory, placed
# and granted by a broker, while one donor takes memory back for its own
# jobs.
#
# Hosts (one guest, each host its own NIC and soft-RoCE device):
#   10.0.0.1  the trainer: spare.ko, /dev/spare0 as its only swap
#   10.0.0.2  donor A: spared lending what is idle (up to 320 MiB), and
#             spare-broker
#   10.0.0.3  donor B: spared lending a fixed 320 MiB
# Both donors register with the broker and lend only against its signed
# grants. "sparectl device create ... broker=" asks the broker for the
# slabs, writes the placement and the grants to configfs and powers the
# device on. The trainer's job (spare-memtest) needs 4x the memory its
# cgroup may use: it writes a pattern into every page and verifies every
# page on the next pass. Midway a job on donor A claims the host's memory:
# donor A releases its unlent slabs, then evicts lent ones; the trainer
# reads those pages from donor B. The same job then swaps to a local disk
# that answers in 1 ms (dm-delay over a RAM disk), for comparison.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u

SIZE=192m; PASSES=2; MAX=48M
metric() { donor_ctl "$1" status | awk -v k="$2" '$1 == k {print $2}'; }

cat <<'TXT'

  spare demo: remote-memory swap over RDMA
  ========================================
  A training host is short of memory; two data-preparation hosts have
  memory to spare. A broker knows what they can lend and signs grants for
  it. The trainer runs `swapon /dev/spare0` and its pages go, over RDMA,
  into memory the donors lend. When a donor's own jobs need their memory
  back, the donor takes it, and the trainer carries on. Every page is
  checked when it comes back.

TXT

step "three hosts on soft-RoCE: trainer 10.0.0.1, donors 10.0.0.2 and 10.0.0.3"
rxe_up 3
rdma link show | sed 's/^/    /'
broker_keys donorA donorB trainer
pass "keys: the broker's grant signing key, its public key for the donors, one secret per host"

step "spare-broker on 10.0.0.2; the donors register and lend only against its grants"
broker_up /tmp/broker.log
cg_new donor max
echo 0 >/sys/fs/cgroup/donor/memory.swap.max || fail "memory.swap.max of donor"
common="--slab-size 16M --host-keys /tmp/host-keys --grant-public-keys /tmp/grant.pub --brokers $BROKER"
# shellcheck disable=SC2086
donor_start 2 $common --name donorA --broker-key-file /tmp/b-donorA.key --domain rackA \
	--max-lend 320M --headroom 256M --lend-idle 300 --lend-interval 200 \
	--lend-grow-step 20 --cgroup /sys/fs/cgroup/donor
# shellcheck disable=SC2086
donor_start 3 $common --name donorB --broker-key-file /tmp/b-donorB.key --domain rackB \
	--budget 320M
wait_until 20 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_slabs_capacity\" {print \$2}')\" = 20 ]" ||
	{ donor_logs; fail "donor A did not grow to 20 slabs while idle"; }
broker_knows /tmp/broker.log donorA
broker_knows /tmp/broker.log donorB
grep 'info: donor ' /tmp/broker.log | sed 's/^.*info: /    broker: /'
pass "donor A lends what is idle (20 slabs now), donor B a fixed 320 MiB"

step "the trainer creates /dev/spare0 through the broker (256 MiB, 2 copies of every slab)"
spare_load
echo "    sparectl device create demo0 size=256M slab_size=16M replicas=2 source=10.0.0.1 \\"
echo "        key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
disk=$(sparectl device create demo0 size=256M slab_size=16M replicas=2 source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key) ||
	{ cat /tmp/broker.log; dmesg | tail -20; donor_logs; fail "device create through the broker"; }
echo "    configfs donors:    $(cat /sys/kernel/config/spare/demo0/donors)"
echo "    configfs placement: $(cut -c1-40 /sys/kernel/config/spare/demo0/placement)..."
echo "    configfs grants:    $(grep -c . /sys/kernel/config/spare/demo0/grants) signed leases, e.g."
head -2 /sys/kernel/config/spare/demo0/grants | sed 's/^/      /'
echo "    grants accepted by donor A: $(metric 2 spare_donor_grants_accepted_total), by donor B: $(metric 3 spare_donor_grants_accepted_total)"
pass "/dev/$disk is up, every copy where the broker placed it"

step "the job: $SIZE, $PASSES passes, verified page by page, in a cgroup with memory.max=$MAX"
echo "    midway, a job on donor A's host claims all of its available memory"
cg_new trainer "$MAX"
lent0=$(metric 2 spare_donor_slabs_lent)
# The hog starts once the trainer has swapped out 3000 pages.
(
	base=$(vmstat_get pswpout)
	while [ $(( $(vmstat_get pswpout) - base )) -lt 3000 ]; do sleep 0.5; done
	avail=$(awk '$1 == "MemAvailable:" {print int($2 / 1024)}' /proc/meminfo)
	echo "hog: ${avail} MiB" >/tmp/hog.out
	cg_run donor spare-memtest -p 1 "${avail}m" >>/tmp/hog.out 2>&1
) &
HOG_PID=$!
cpu0=$(( $(awk '{print $14 + $15}' "/proc/$(donor_pid 2)/stat") + $(awk '{print $14 + $15}' "/proc/$(donor_pid 3)/stat") ))
swap_run "/dev/$disk" trainer "$SIZE" "$PASSES" || fail "the job on spare: $SWAP_RESULT"
cpu1=$(( $(awk '{print $14 + $15}' "/proc/$(donor_pid 2)/stat") + $(awk '{print $14 + $15}' "/proc/$(donor_pid 3)/stat") ))
spare_s=$SWAP_SECONDS
wait "$HOG_PID"
pass "every page verified: $SWAP_OUT pages swapped out, $SWAP_IN swapped in, in $spare_s s"

step "donor A took its memory back"
sed 's/^/    /' /tmp/hog.out
oom=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/donor/memory.events)
echo "    donor A lent $lent0 slabs; it then released $(metric 2 spare_donor_lend_slabs_released_total) unlent slabs and evicted $(metric 2 spare_donor_lend_evictions_total) lent ones"
echo "    its own job was OOM-killed ${oom:-0} times; the trainer saw $(io_stat "$disk" io_errors) I/O errors"
grep -E 'lend: (pressure|less idle)' /tmp/spared-2.log | head -3 | sed 's/^.*info: /    donor A: /'

step "where the pages went"
show_stats "$disk" | sed 's/^/    /'
echo "    RDMA reads $(io_stat "$disk" rdma_reads), RDMA writes $(io_stat "$disk" rdma_writes), backup reads $(io_stat "$disk" backup_reads), I/O errors $(io_stat "$disk" io_errors)"
for n in 2 3; do
	echo "    donor $(host_addr $n):"
	donor_ctl $n status | grep -E '^spare_donor_(slabs|lent_bytes|maps|clients|grants_accepted)' | sed 's/^/      /'
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
  (the spare run includes donor A taking memory back midway)
  All figures come from an emulated machine (QEMU without KVM, soft-RoCE):
  compare the ratio, not the seconds. Documentation/perf-swap.md has the
  full benchmark against nvme-rdma, nbd and zram.

TXT
kill -TERM "$BROKER_PID" 2>/dev/null
