# SPDX-License-Identifier: GPL-2.0
#
# Helpers for VM scenarios; source with ". /spare/tests/vm/lib.sh".
#
# Simulated hosts: host 1 (10.0.0.1) is the client, hosts 2.. are donors.
# All of them are addresses on one dummy device carrying one soft-RoCE link,
# so RDMA between them is real rxe traffic (UDP port 4791) that netfilter can
# drop per address.

# Swap workloads: use /spare/bin/spare-memtest (userspace/memtest), which
# writes a per-page pattern derived from (seed, pass, page) and verifies every
# page on the next pass; it exits 1 on any stale, misplaced or corrupt page.

SPARE_NET=10.0.0

step() { echo "== $* [$(cut -d' ' -f1 /proc/uptime)s]"; }
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; exit 1; }

# host_addr N: the address of simulated host N.
host_addr() { echo "$SPARE_NET.$1"; }

# rxe_up N: soft-RoCE over dummy0 with addresses for hosts 1..N.
rxe_up() {
	local n=${1:-2} i
	modprobe crc32_generic || fail "modprobe crc32_generic"
	modprobe dummy || fail "modprobe dummy"
	modprobe rdma_rxe || fail "modprobe rdma_rxe"
	modprobe rdma_ucm && modprobe ib_uverbs || fail "modprobe rdma_ucm ib_uverbs"
	ip link set dummy0 up || fail "dummy0 up"
	for i in $(seq 1 "$n"); do
		ip addr add "$(host_addr "$i")/24" dev dummy0 || fail "address of host $i"
	done
	rdma link add rxe0 type rxe netdev dummy0 || fail "rdma link add rxe0"
	# Wait for the IPv4 GIDs to appear (they follow the addresses).
	i=0
	while ! ibv_devinfo -d rxe0 >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -gt 50 ] && fail "rxe0 did not come up"
		sleep 0.1
	done
}

# wait_port ADDR PORT: wait until a TCP/RDMA listener exists (by /proc/net).
# Scenarios mostly use "sleep" after starting servers; this is for TCP ones.
wait_for() {
	local tries=$1; shift
	while ! "$@" >/dev/null 2>&1; do
		tries=$((tries - 1)); [ $tries -le 0 ] && return 1
		sleep 0.2
	done
}

# cg_new NAME MAX: a cgroup v2 group with memory.max=MAX and swap allowed.
cg_new() {
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir -p "/sys/fs/cgroup/$1"
	echo "$2" >"/sys/fs/cgroup/$1/memory.max" || fail "memory.max of $1"
}

# cg_run NAME CMD...: run CMD inside cgroup NAME.
cg_run() {
	local g=$1; shift
	sh -c 'echo $$ > /sys/fs/cgroup/'"$g"'/cgroup.procs && exec "$@"' sh "$@"
}

vmstat_get() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }
