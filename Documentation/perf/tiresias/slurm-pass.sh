#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One spare-tiresias pass against a real slurmctld holding N pending GPU
# jobs: a private munged and slurmctld (no slurmd: the jobs wait with
# Reason=BeginTime, an hour ahead, so none starts) under a scratch
# directory, on ports 16917/16918, then
#   1. spare-tiresias --once --dry-run   (read and decide, change nothing)
#   2. spare-tiresias --once             (first pass: sets N priorities, or
#                                         max-priority-updates of them)
#   3. spare-tiresias --once             (steady state: nothing to set; with
#                                         a limit, repeated until a pass
#                                         sets nothing, each pass a line)
# each under /usr/bin/time (the process's user+system CPU, and wall time)
# and with the pass's own CPU time and priority updates from its debug log.
# Everything is stopped and removed at the end. Needs root (munged runs as
# munge, slurmctld as root), Debian's slurmctld, slurm-client and munge.
#
#   Documentation/perf/tiresias/slurm-pass.sh [N] [DIR]
#
# OLD_BIN=path: first the same on another build (before/after in one run,
# each on a fresh slurmctld with N new jobs). EXTRA="--opt val": options
# for every spare-tiresias run (e.g. --max-priority-updates 0).
set -euo pipefail
N=${1:-1000}
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
D0=${2:-$(mktemp -d /tmp/tirdaemon.slurm.XXXXXX)}
NEW_BIN=$TOP/build/bin/spare-tiresias
[ -x "$NEW_BIN" ] || { echo "build spare-tiresias first (make userspace)" >&2; exit 1; }

cleanup() {
	local f
	for f in "$D0"/*/slurmctld.pid "$D0"/*/munge/run/munged.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	[ -n "${KEEP:-}" ] || rm -rf "$D0"
}
trap cleanup EXIT

# measure BIN LABEL: a fresh munged and slurmctld in $D, N jobs, the passes.
measure() {
BIN=$1
D=$D0/$2
mkdir -p "$D"/{munge/key,munge/run,state,log}
chmod 0755 "$D0" "$D"
chown -R munge:munge "$D/munge"
chmod 0700 "$D/munge/key"
chmod 0755 "$D/munge/run" "$D/munge"
mungekey -c -k "$D/munge/key/munge.key" -f 2>/dev/null ||
	dd if=/dev/urandom of="$D/munge/key/munge.key" bs=1024 count=1 status=none
chown munge:munge "$D/munge/key/munge.key"
chmod 0400 "$D/munge/key/munge.key"
runuser -u munge -- munged --key-file="$D/munge/key/munge.key" --socket="$D/munge/run/munge.sock" \
	--pid-file="$D/munge/run/munged.pid" --log-file="$D/munge/munged.log" --seed-file="$D/munge/seed"
cat >"$D/slurm.conf" <<CONF
ClusterName=tirperf
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16917
SlurmdPort=16918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/run/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmctldLogFile=$D/log/slurmctld.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
PriorityType=priority/basic
GresTypes=gpu
MaxJobCount=20000
NodeName=p[1-16] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=64 Gres=gpu:4 RealMemory=1000 State=UNKNOWN
PartitionName=gpu Nodes=p[1-16] Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$D/slurm.conf
slurmctld -f "$D/slurm.conf" -i
for _ in $(seq 50); do squeue >/dev/null 2>&1 && break; sleep 0.2; done
printf '#!/bin/sh\nsleep 60\n' >"$D/job.sh"
for i in $(seq "$N"); do
	sbatch -Q --begin=now+1hour --time=10 --gpus=$((1 << (i % 3))) -J "j$i" -o /dev/null "$D/job.sh" >/dev/null
done
echo "# $2: $BIN ${EXTRA:-}"
echo "# $(date -u +%FT%TZ) $(uname -r) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); slurmctld $(slurmctld -V | cut -d' ' -f2); jobs pending: $(squeue -h -t PD | wc -l)"
printf 'gpus = 64\nstate-file = %s/tiresias.state\nlog-level = debug\n' "$D" >"$D/tiresias.conf"
run() {
	local name=$1; shift
	# shellcheck disable=SC2086
	/usr/bin/time -f "time user_s=%U sys_s=%S wall_s=%e" "$BIN" --config "$D/tiresias.conf" --once ${EXTRA:-} "$@" \
		>"$D/out.$name" 2>"$D/err.$name"
	echo "$name: $(grep -o 'pass: .*' "$D/err.$name" | tail -1); $(grep '^time' "$D/err.$name");" \
		"lines on stdout: $(wc -l <"$D/out.$name")"
}
run dry-run --dry-run
run first
k=2
while [ $k -le $((N / 8 + 2)) ]; do
	run "pass$k"
	grep -q ' 0 priorities set' "$D/err.pass$k" 2>/dev/null && break
	grep -q 'priorities set' "$D/err.pass$k" 2>/dev/null || break	# an older build: one steady pass
	k=$((k + 1))
done
echo "# priorities now: $(squeue -h -t PD -o %Q | sort -n | uniq | wc -l) distinct of $(squeue -h -t PD | wc -l) jobs"
kill "$(cat "$D/slurmctld.pid")" 2>/dev/null || true
kill "$(cat "$D/munge/run/munged.pid")" 2>/dev/null || true
sleep 1
}

[ -n "${OLD_BIN:-}" ] && measure "$OLD_BIN" before
measure "$NEW_BIN" after
