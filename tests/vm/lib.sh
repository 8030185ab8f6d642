# SPDX-License-Identifier: GPL-2.0
#
# Helpers for VM scenarios; source with ". /spare/tests/vm/lib.sh".
#
# Simulated hosts: host 1 (10.0.0.1) is the client, hosts 2.. are donors.
# All of them are addresses on one dummy device carrying one soft-RoCE link,
# so RDMA between them is real rxe traffic (UDP port 4791) that netfilter can
# drop per address.

# Swap workloads: use /spare/bin/spare-memtest (tests/tools/memtest), which
# writes a per-page pattern derived from (seed, pass, page) and verifies every
# page on the next pass; it exits 1 on any stale, misplaced or corrupt page.

SPARE_NET=10.0.0

# busybox's shell runs its own applets before anything on PATH; iproute2's
# ip is needed for netns, rules and veth.
ip() { /usr/sbin/ip "$@"; }
# diffutils' cmp: busybox's compares a byte at a time (128 MiB in 8.0 s in a
# 6.12 guest against 1.2 s; Documentation/perf/check-time/session44-lead.txt).
[ -x /usr/bin/cmp ] && cmp() { /usr/bin/cmp "$@"; }

step() { echo "== $* [$(cut -d' ' -f1 /proc/uptime)s]"; }
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; exit 1; }

# host_addr N: the address of simulated host N.
host_addr() { echo "$SPARE_NET.$1"; }

# rxe_up N: soft-RoCE for simulated hosts 1..N.
#
# Each host gets its own NIC (veth "h<i>", address 10.0.0.<i>, its own MAC)
# and its own rxe device ("rxe<i>"). The peers of the NICs meet on a bridge
# in a "switch" network namespace, so RDMA between hosts leaves through one
# NIC and comes back through another: real frames that netfilter (or tc) can
# drop per address. rxe only works in the initial namespace, so all hosts
# live there, and policy routing stops the kernel from short-cutting traffic
# between its own addresses:
#   - packets arriving on a NIC are delivered locally (table local);
#   - any other lookup from 10.0.0.<i> goes out through h<i>: sending, and
#     rdma_cm's check that a request's source is reachable through the NIC
#     it came in on;
#   - lookups with no source yet (rdma_cm address resolution) go out
#     through h1, the client;
#   - table local, moved after these rules, serves everything else;
#     accept_local lets a host receive from an address that is also local;
#   - ARP is answered only by the NIC that owns the address (arp_ignore=1,
#     arp_announce=2); otherwise h3 may answer for 10.0.0.2 and frames for
#     host 2 land on rxe3, which drops them.
# The links carry jumbo frames (MTU $RIG_MTU, 9000 unless a scenario sets
# it), so soft-RoCE's path MTU is 4096, as on RoCE fabrics run for storage
# traffic: a page is one packet, not four.
rxe_up() {
	local n=${1:-2} mtu=${RIG_MTU:-9000} i a
	modprobe crc32_generic || fail "modprobe crc32_generic"
	# soft-RoCE's ICRC: rdma_rxe takes the "crc32" shash of the highest
	# priority when each rxe device is added. crc32-pclmul is not loaded:
	# under QEMU 7.2's TCG it hashes 4 KiB at about half crc32-generic's
	# speed (perf/check-time/session49). spare.rxecrc=pclmul on the
	# kernel's command line (SPARE_VM_APPEND) loads it first, to measure
	# again (QEMU 8.2 and later emulate PCLMULQDQ with the host's).
	local cmdline
	read -r cmdline </proc/cmdline
	case " $cmdline " in
	*" spare.rxecrc=pclmul "*) modprobe crc32_pclmul || fail "modprobe crc32_pclmul" ;;
	esac
	modprobe veth && modprobe bridge || fail "modprobe veth bridge"
	modprobe rdma_rxe || fail "modprobe rdma_rxe"
	modprobe rdma_ucm && modprobe ib_uverbs || fail "modprobe rdma_ucm ib_uverbs"
	ip netns add switch || fail "netns switch"
	# The ip commands go in batches (one process each, not one per
	# command): on the debug kernel every process start costs about half a
	# second, and this set-up was 40 s of each debug guest.
	{
		for i in $(seq 1 "$n"); do
			echo "link add h$i mtu $mtu type veth peer name p$i mtu $mtu netns switch"
		done
	} >/tmp/rxe-up.host1
	ip -batch /tmp/rxe-up.host1 || fail "the hosts' veth pairs"
	{
		echo "link add br0 type bridge"
		echo "link set br0 up"
		for i in $(seq 1 "$n"); do echo "link set p$i master br0 up"; done
	} >/tmp/rxe-up.switch
	ip -n switch -batch /tmp/rxe-up.switch || fail "the switch's bridge"
	set -- net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		net.ipv4.conf.all.accept_local=1 net.ipv4.conf.default.accept_local=1 \
		net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
	for i in $(seq 1 "$n"); do
		set -- "$@" "net.ipv4.conf.h$i.rp_filter=0" "net.ipv4.conf.h$i.accept_local=1"
	done
	sysctl -qw "$@" || fail "sysctl"
	{
		for i in $(seq 1 "$n"); do
			a=$(host_addr "$i")
			echo "addr add $a/24 dev h$i"
			echo "link set h$i up"
			echo "route add default dev h$i src $a table $((100 + i))"
			echo "rule add pref 5 iif h$i lookup local"
			echo "rule add pref 10 from $a lookup $((100 + i))"
		done
		echo "rule add pref 20 to $SPARE_NET.0/24 lookup 101"
		echo "rule add pref 100 lookup local"
		echo "rule del pref 0 lookup local"
	} >/tmp/rxe-up.host2
	ip -batch /tmp/rxe-up.host2 || fail "the hosts' addresses, routes and rules"
	# Each host's own subnet route would also send 10.0.0.0/24 out of every NIC.
	for i in $(seq 2 "$n"); do echo "route del $SPARE_NET.0/24 dev h$i"; done >/tmp/rxe-up.host3
	ip -force -batch /tmp/rxe-up.host3 2>/dev/null
	for i in $(seq 1 "$n"); do
		rdma link add "rxe$i" type rxe netdev "h$i" || fail "rdma link add rxe$i"
	done
	# which crc32 the rxe devices took, when spare.rxecrc= asked for one
	case " $cmdline " in
	*" spare.rxecrc="*) awk '$1 == "name" { n = $3 } $1 == "driver" { d = $3 }
		$1 == "refcnt" && n == "crc32" { printf "rxe_up: crc32 %s refcnt %s\n", d, $3 }' /proc/crypto ;;
	esac
	i=0
	while [ "$(rdma link show | grep -c 'state ACTIVE')" -lt "$n" ]; do
		i=$((i + 1)); [ $i -gt 100 ] && { rdma link show; fail "rxe links did not come up"; }
		sleep 0.1
	done
	# Resolve every pair's neighbours now. A connection whose first CM
	# packets wait on ARP can take ~30 s or time out (seen in agg/rdma and
	# donor/isolation), which would test ARP, not our code.
	# busybox's ping first takes -I's address for a device name, and the
	# kernel asks modprobe for "netdev-10.0.0.N" and "10.0.0.N", which do
	# not exist: two failing modprobe processes a ping, n(n-1) pings
	# (36 pings in a guest: 0.9-1.0 s against 0.5 s on 6.1, 9.0-13.5 s
	# against 5.6 s on the debug kernel; session48-guest-cpu). An empty
	# modprobe path makes the kernel answer ENOENT at once; nothing else
	# asks for a module meanwhile (modprobe run by hand still works).
	local j mp
	mp=$(cat /proc/sys/kernel/modprobe)
	echo >/proc/sys/kernel/modprobe
	for i in $(seq 1 "$n"); do
		for j in $(seq 1 "$n"); do
			[ "$i" = "$j" ] && continue
			ping -c1 -W2 -I "$(host_addr "$i")" "$(host_addr "$j")" >/dev/null 2>&1 ||
				{ echo "$mp" >/proc/sys/kernel/modprobe; fail "host $i cannot reach host $j"; }
		done
	done
	echo "$mp" >/proc/sys/kernel/modprobe
}

# cut_link N / heal_link N: drop all RoCE (UDP 4791) traffic to and from
# host N. The drop is on arrival (the input hook), as a broken network would
# do it: the sender's NIC still takes the frame. Dropping in the output hook
# instead makes rxe on 6.12 stall its QP1, so no connection could be made
# after the link heals.
# The table, its chain and both rules go in one nft run, one transaction:
# the cut lands whole at once, not rule by rule. (On the debug kernel a
# boot's first cut took about 30 s in the check, four runs or one;
# session47-dbg in Documentation/perf/check-time.)
# A scenario that cuts a link calls cut_ready first, in its set-up: it
# loads nf_tables (and nfnetlink) in the background, so that the first
# cut does not. Left to nft, the kernel loads them through two
# request_module() calls in the middle of its transaction, which is then
# replayed: 2.7 s of a first cut's 9.8 s on the debug kernel, against
# 0.7 s for the one modprobe beside rxe_up (session48-dbg).
cut_ready() {
	modprobe nf_tables >/dev/null 2>&1 &
	CUT_READY_PID=$!
}
cut_link() {
	local a
	# its status is not checked: nft loads them itself if that failed
	if [ -n "${CUT_READY_PID:-}" ]; then wait "$CUT_READY_PID"; CUT_READY_PID=; fi
	a=$(host_addr "$1")
	printf '%s\n' "add table inet spare_cut" \
		"add chain inet spare_cut in { type filter hook input priority 0; }" \
		"add rule inet spare_cut in ip daddr $a udp dport 4791 counter drop" \
		"add rule inet spare_cut in ip saddr $a udp dport 4791 counter drop" >/tmp/spare-cut.nft
	nft -f /tmp/spare-cut.nft || fail "cannot install the netfilter cut"
}
heal_link() { nft delete table inet spare_cut || fail "cannot remove the netfilter cut"; }

# cut_attempt PORT: with host 2 cut off (cut_link 2), start an ib_read_lat
# pair on PORT across the cut and give it 8 s. Fails unless the cut dropped
# RoCE packets and the pair did not get through. The pair is left running,
# its pids in CUT_PIDS: its CM goes on resending the request for minutes.
cut_attempt() {
	local srv
	ib_read_lat -R -s 4096 -n 50 -F -p "$1" >/tmp/srv-cut.out 2>&1 &
	srv=$!
	sleep 1
	ib_read_lat -R -s 4096 -n 50 -F -p "$1" --source_ip "$(host_addr 1)" \
		"$(host_addr 2)" >/tmp/cli-cut.out 2>&1 &
	CUT_PIDS="$srv $!"
	sleep 8
	nft list table inet spare_cut | grep -q 'counter packets [1-9]' ||
		fail "the cut saw no RoCE packets"
	grep -qE '^ *4096 +50' /tmp/cli-cut.out && fail "ib_read_lat got through a cut link"
	return 0
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

# cg_new_high NAME MAX: cg_new NAME MAX (MAX in MiB: 16M) with memory.high at
# 7/8 of it. A job swapping in a bare memory.max is now and then OOM-killed
# with swap to spare when its swap-out completes from another context than
# the reclaimer's (spare-ublk always, spare.ko since its ->queue_rq() stopped
# sleeping in session 39) on 6.12's multi-generational LRU: the charge's 16
# reclaim retries come back empty while its writes are in flight
# (Documentation/kmod.md and ublk.md, "OOM kills under a bare memory.max";
# perf/oom-killdonor, session 45). Above memory.high the kernel throttles
# the job on its way back to user space while reclaim catches up, instead.
cg_new_high() {
	cg_new "$1" "$2"
	echo "$(( ${2%M} * 1024 * 7 / 8 ))K" >"/sys/fs/cgroup/$1/memory.high" ||
		fail "memory.high of $1"
}

# cg_run NAME CMD...: run CMD inside cgroup NAME.
cg_run() {
	local g=$1; shift
	sh -c 'echo $$ > /sys/fs/cgroup/'"$g"'/cgroup.procs && exec "$@"' sh "$@"
}

# oom_report: the last OOM-killer report in the kernel log, cut to what
# tells why reclaim failed (the console only shows its warning lines).
oom_report() {
	dmesg | awk '/invoked oom-killer/ {buf = ""; on = 1} on {buf = buf $0 "\n"}
		/oom-kill:constraint/ {on = 0} END {printf "%s", buf}' |
		grep -E 'invoked oom-killer|memory: usage|swap: usage|Memory cgroup stats| (anon|file|swapcached|anon_thp|inactive_anon|active_anon|unevictable|file_writeback|pgscan_direct|pgsteal_direct|pgrefill|pgactivate|workingset_refault_anon|workingset_activate_anon) [0-9]|oom-kill:'
}

# oom_dump CGROUP [DISK]: what tells why CGROUP's reclaim failed, now:
# memory.events; memory.current, .max, .high, .swap.current (bytes); from
# memory.stat the anon and swap-cache sizes, the pages under writeback
# (file_writeback, which counts swap-out too; bytes) and the reclaim and
# refault counters; /proc/vmstat's guest-wide swap, writeback and refault
# counters (pages); whether the multi-generational LRU is on; DISK's reads
# and writes in flight.
oom_dump() {
	local cg=/sys/fs/cgroup/$1
	echo "oom-dump at $(cut -d' ' -f1 /proc/uptime) s, cgroup $1"
	echo "  memory.events: $(tr '\n' ' ' <"$cg/memory.events")"
	echo "  memory.current $(cat "$cg/memory.current") max $(cat "$cg/memory.max")" \
		"high $(cat "$cg/memory.high") swap.current $(cat "$cg/memory.swap.current" 2>/dev/null)"
	echo "  memory.stat: $(awk '$1 ~ /^(anon|file|kernel|swapcached|anon_thp|zswapped|file_writeback|inactive_anon|active_anon|unevictable|pgscan|pgsteal|workingset_refault_anon|workingset_activate_anon|workingset_restore_anon)$/ {printf "%s %s ", $1, $2}' "$cg/memory.stat")"
	echo "  vmstat: $(awk '$1 ~ /^(nr_writeback|pswpin|pswpout|pgscan_direct|pgsteal_direct|workingset_refault_anon|workingset_activate_anon|workingset_restore_anon|oom_kill)$/ {printf "%s %s ", $1, $2}' /proc/vmstat)"
	echo "  lru_gen $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)"
	[ -z "${2:-}" ] || echo "  $2 in flight (reads writes): $(cat "/sys/block/$2/inflight" 2>/dev/null)"
}

# oom_watch CGROUP PID [DISK]: run in the background (&) beside a job; until
# PID ends, every 0.1 s, when CGROUP's memory.events counts a new "oom" (a
# charge that reclaim could not satisfy: counted as the OOM killer is
# invoked, before its victim dies) appends oom_dump's lines to
# /tmp/oom-dump.CGROUP; why_died prints them. The kernel's own report
# (oom_report) has the cgroup's memory.stat at the kill; this adds the
# guest-wide counters (cumulative: pswpout, refaults), the LRU in use and
# the device. It comes after the kill: 0.34 s after it in the one seen
# (6.12 under TCG, its report still printing), the victim's memory already
# freed, so its memory.stat is the cgroup's after the kill. Only shell
# builtins read the counter between samples.
oom_watch() {
	local cg=/sys/fs/cgroup/$1 n0=0 n k v
	while read -r k v; do [ "$k" = oom ] && n0=$v; done <"$cg/memory.events"
	rm -f "/tmp/oom-dump.$1"
	while :; do
		n=0
		while read -r k v; do [ "$k" = oom ] && n=$v; done <"$cg/memory.events"
		[ "$n" = "$n0" ] || { oom_dump "$1" "${3:-}" >>"/tmp/oom-dump.$1"; n0=$n; }
		kill -0 "$2" 2>/dev/null || break
		sleep 0.1
	done
}

# why_died CGROUP: whether CGROUP's OOM killer has run, on a line that starts
# with "why:" (scripts/check shows those lines of a failed scenario's log),
# then the OOM report or the kernel log's tail, and oom_watch's dump.
why_died() {
	local n
	n=$(awk '$1 == "oom_kill" {print $2}' "/sys/fs/cgroup/$1/memory.events")
	if [ "${n:-0}" != 0 ]; then
		echo "why: the OOM killer of cgroup $1 ran $n time(s)"
		oom_report
		sleep 0.2	# oom_watch's last sample
		if [ -s "/tmp/oom-dump.$1" ]; then
			cat "/tmp/oom-dump.$1"
		else
			oom_dump "$1"
		fi
	else
		echo "why: cgroup $1 was not OOM-killed (the workload's own output is above)"
		dmesg | tail -30
	fi
}

vmstat_get() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }

# swap_run DEV CGROUP SIZE PASSES: make DEV the only swap, run spare-memtest
# (SIZE, PASSES) inside CGROUP, then swapoff. Sets SWAP_RESULT (ok, bad,
# oom-killed or error), SWAP_SECONDS and SWAP_OUT / SWAP_IN (pages).
# Returns 0 only when every page verified.
swap_run() {
	local dev=$1 cg=$2 size=$3 passes=$4 t0 t1 out0 in0 oom0 rc
	SWAP_RESULT=error SWAP_SECONDS= SWAP_OUT= SWAP_IN=
	mkswap "$dev" >/dev/null || { echo "mkswap $dev failed"; return 1; }
	swapon "$dev" || { echo "swapon $dev failed"; return 1; }
	out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
	oom0=$(awk '$1 == "oom_kill" {print $2}' "/sys/fs/cgroup/$cg/memory.events")
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run "$cg" spare-memtest -p "$passes" "$size"
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	swapoff "$dev" || echo "swapoff $dev failed"
	SWAP_SECONDS=$(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')
	SWAP_OUT=$(( $(vmstat_get pswpout) - out0 )); SWAP_IN=$(( $(vmstat_get pswpin) - in0 ))
	if [ "$(awk '$1 == "oom_kill" {print $2}' "/sys/fs/cgroup/$cg/memory.events")" != "$oom0" ]; then
		SWAP_RESULT=oom-killed
	elif [ $rc = 0 ]; then
		SWAP_RESULT=ok
	else
		SWAP_RESULT=bad
	fi
	[ "$SWAP_RESULT" = ok ]
}

# perftest TOOL PORT ARGS...: run a perftest pair over rdma_cm, the server on
# host 2 and the client on host 1, each bounded in time; prints the client's
# output. Returns the client's status.
#
# A perftest client opens two rdma_cm connections to the same port, and the
# server closes its listener after the first and listens again for the
# second. A client whose request arrives while nothing listens (at the start,
# or in that gap) is REJECTED with reason 8, "invalid service ID", i.e. no
# listener. A trace of ib_cma/rdma_cma events on 6.12 showed the gap: the
# second request came 2 ms after the listener was closed and 5 ms before the
# new one existed. The client then crashes and the server is left waiting for
# a connection that never comes, so both are started again. Any other
# failure is returned at once.
perftest() {
	local tool=$1 port=$2 srv rc try
	shift 2
	for try in 1 2 3 4 5; do
		[ $try = 1 ] ||
			echo "perftest: $tool was rejected for want of a listener (reason 8), try $try" >&2
		timeout -s KILL 120 "$tool" -R -F -p "$port" "$@" >/tmp/perftest-srv.out 2>&1 &
		srv=$!
		sleep 1
		timeout -s KILL 100 "$tool" -R -F -p "$port" "$@" \
			--source_ip "$(host_addr 1)" "$(host_addr 2)" >/tmp/perftest-cli.out 2>&1
		rc=$?
		[ $rc = 0 ] && break
		kill -9 "$srv" 2>/dev/null
		wait "$srv" 2>/dev/null
		grep -q 'RDMA_CM_EVENT_REJECTED; error: 8\.' /tmp/perftest-cli.out || break
	done
	[ $rc = 0 ] && wait "$srv"
	cat /tmp/perftest-cli.out
	[ $rc = 0 ] || { echo "--- $tool server:"; cat /tmp/perftest-srv.out; }
	return $rc
}

# redrives_check: after a donor's link was cut under swap I/O, the
# operations in flight to it were flushed by the error road and their
# requests re-driven: io_stat's redrives is counted, and failovers (reads
# served by RDMA after a re-drive) never exceeds it
# (Documentation/ABI/testing/sysfs-block-spare). A SIGKILLed donor need not
# cause any: on 6.1 its loss in the write phase re-drove nothing.
# Needs $disk and io_stat from spare.inc.
redrives_check() {
	local r f
	r=$(io_stat "$disk" redrives); f=$(io_stat "$disk" failovers)
	echo "redrives $r, failovers $f"
	[ "$r" -ge 1 ] || fail "no re-drive counted after the cut"
	[ "$f" -le "$r" ] || fail "more failovers ($f) than re-drives ($r)"
}
