# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# The operations kit in a guest: spared configured from a spared.conf file
# (the command line winning over it) refuses a broken file and names the
# line; started with its unit's ExecStart line, serves /metrics over HTTP
# in valid Prometheus text next to its control socket; spare-aggd, started
# the same way from its unit and /etc/spare/spare-aggd.conf, serves its
# /metrics too; sparectl creates, lists, shows (table and JSON), scrapes
# (metrics -o) and destroys a real spare device, with exit codes 0/1/2;
# the module's two parameters are set at load time and through sysfs.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

METRICS_PORT=9465
AGGD_METRICS_PORT=9466
wget_metrics() { busybox wget -q -O - "http://$(host_addr 2):${1:-$METRICS_PORT}/metrics"; }
# unit_exec UNIT: the ExecStart line of dist/UNIT.in, as `make install`
# writes it with the programs in /spare/bin. No systemd runs in the guest,
# so the scenario runs that line as it is (systemd-analyze verify checks
# the units on the host, scripts/units-check).
unit_exec() {
	sed -n 's|^ExecStart=@SBINDIR@/|/spare/bin/|p' "/spare/dist/$1.in" | head -1
}

step "a broken config refuses to start and names file, line and key"
rxe_up 2
mkdir -p /etc/spare
printf 'budget = 64M\nslab-size = 16M\nbudgte = 1G\n' >/etc/spare/broken.conf
out=$(spared -f /etc/spare/broken.conf 2>&1); rc=$?
echo "  $out"
[ $rc = 2 ] || fail "spared exited $rc on a broken config, expected 2"
echo "$out" | grep -q '/etc/spare/broken.conf:3: budgte: unknown setting' || fail "error does not name file:line:key"
printf 'budget = 64M\nslab-size = 3M\n' >/etc/spare/broken.conf
out=$(spared -f /etc/spare/broken.conf 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'broken.conf:2: slab-size: ' || fail "bad value not refused: $rc $out"
pass "broken config refused (exit 2, file:line:key)"

step "spared from a config file, metrics over HTTP"
cat >/etc/spare/spared.conf <<CONF
# written by ops/kit.sh
listen = $(host_addr 2)
port = $DONOR_PORT
budget = 32M          ; overridden below
slab-size = 16M
ctl = /run/spare/spared-2.sock
metrics-listen = $(host_addr 2):$METRICS_PORT
CONF
cmd=$(unit_exec spared.service)
[ "$cmd" = /spare/bin/spared ] || fail "spared.service's ExecStart is '$cmd'"
echo "  spared.service: ExecStart=$cmd (+ --budget 64M, which must win over the file)"
$cmd --budget 64M >/tmp/spared-2.log 2>&1 &
DONOR_PID_2=$!
wait_for 100 test -S /run/spare/spared-2.sock || { cat /tmp/spared-2.log; fail "spared did not start"; }
donor_ctl 2 status | grep -qx 'spare_donor_slabs 4' || fail "command line did not win over the file (want 4 slabs of 16M)"
page=$(wget_metrics) || { cat /tmp/spared-2.log; fail "GET /metrics"; }
echo "$page" | head -6
echo "$page" | grep -qx '# TYPE spare_donor_maps_total counter' || fail "no TYPE line"
echo "$page" | grep -qx 'spare_donor_slabs 4' || fail "no spare_donor_slabs 4 in /metrics"
[ "$(echo "$page" | grep -c '^# HELP ')" = "$(echo "$page" | grep -c '^# TYPE ')" ] || fail "HELP/TYPE mismatch"
[ "$(echo "$page" | grep -vc '^#')" -ge 20 ] || fail "too few samples"
busybox wget -q -O - "http://$(host_addr 2):$METRICS_PORT/nope" 2>/dev/null && fail "/nope answered"
pass "config file + command line, /metrics"

step "spare-aggd from its unit's ExecStart and /etc/spare/spare-aggd.conf, metrics over HTTP"
cat >/etc/spare/spare-aggd.conf <<CONF
# written by ops/kit.sh
addr = $(host_addr 2)
max-cores = 1
policy = wfs
metrics-listen = $(host_addr 2):$AGGD_METRICS_PORT
CONF
cmd=$(unit_exec spare-aggd.service)
[ "$cmd" = /spare/bin/spare-aggd ] || fail "spare-aggd.service's ExecStart is '$cmd'"
echo "  spare-aggd.service: ExecStart=$cmd"
$cmd >/tmp/aggd.log 2>&1 &
AGGD_PID=$!
wait_for 100 sh -c "busybox wget -q -O /dev/null http://$(host_addr 2):$AGGD_METRICS_PORT/metrics" ||
	{ cat /tmp/aggd.log; fail "spare-aggd's /metrics did not answer"; }
page=$(wget_metrics $AGGD_METRICS_PORT) || fail "GET spare-aggd /metrics"
echo "$page" | head -4
echo "$page" | grep -qx '# TYPE spare_aggd_cores_active gauge' || fail "no TYPE line for spare_aggd_cores_active"
echo "$page" | grep -qx 'spare_aggd_cores_max 1' || fail "spare_aggd_cores_max is not the file's 1"
[ "$(echo "$page" | grep -c '^# HELP ')" = "$(echo "$page" | grep -c '^# TYPE ')" ] || fail "HELP/TYPE mismatch"
kill -TERM "$AGGD_PID"
wait "$AGGD_PID" || { cat /tmp/aggd.log; fail "spare-aggd exit status"; }
pass "spare-aggd: unit command + config file, /metrics"

step "sparectl device create/list/show/metrics/destroy on a real device"
spare_load
sparectl device create bad0 size=64M slab_size=3M; rc=$?
[ $rc = 1 ] || fail "create with a bad slab_size: exit $rc, expected 1"
[ -e "$CFS/bad0" ] && fail "half-made device left behind"
sparectl device create bad0 colour=red; rc=$?
[ $rc = 2 ] || fail "create with an unknown key: exit $rc, expected 2"
disk=$(sparectl device create ops0 size=64M slab_size=16M donors="$(host_addr 2):$DONOR_PORT") ||
	{ dmesg | tail; fail "device create"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
dd if=/dev/urandom of="/dev/$disk" bs=1M count=8 oflag=direct 2>/dev/null || fail "write"
dd if="/dev/$disk" of=/dev/null bs=1M count=8 iflag=direct 2>/dev/null || fail "read"
sparectl device list
sparectl device list | grep -q "^ops0 *$disk *on " || fail "device list"
sparectl device show ops0
json=$(sparectl -j device show ops0) || fail "device show -j"
echo "$json"
case $json in '{"name":"ops0","disk":"'"$disk"'","power":true,"size":67108864,'*'"io_stat":{"rdma_reads":'*'"donor_stat":[{"index":0,'*'"state":"live"'*) ;;
	*) fail "unexpected JSON" ;; esac
sparectl metrics -o /tmp/spare.prom || fail "metrics -o"
grep -E '^spare_(bytes_written_total|donor_up|slab_copies)' /tmp/spare.prom
w=$(awk -v d="$disk" '$1 == "spare_device_bytes_written_total{device=\"ops0\",disk=\"" d "\"}" {print $2}' /tmp/spare.prom)
[ "$w" = "$(io_stat "$disk" bytes_written)" ] && [ "$w" -ge 8388608 ] || fail "spare_device_bytes_written_total '$w'"
grep -q "^spare_device_donor_up{device=\"ops0\",disk=\"$disk\",donor=\"$(host_addr 2):$DONOR_PORT\"} 1\$" /tmp/spare.prom ||
	fail "spare_device_donor_up"
# the state is a value (2: live), not a label
grep -q "^spare_device_donor_state{device=\"ops0\",disk=\"$disk\",donor=\"$(host_addr 2):$DONOR_PORT\"} 2\$" /tmp/spare.prom ||
	fail "spare_device_donor_state"
sparectl device show nosuch; rc=$?
[ $rc = 1 ] || fail "show of a missing device: exit $rc"
sparectl device destroy ops0 || fail "device destroy"
[ -e "$CFS/ops0" ] && fail "ops0 still there"
pass "sparectl device and metrics"

step "stop"
kill -TERM "$DONOR_PID_2"
wait "$DONOR_PID_2" || { cat /tmp/spared-2.log; fail "spared exit status"; }
rmmod spare || fail "rmmod"

step "module parameters at load time and through sysfs"
# The admin guide's `modprobe spare write_window_kb=N ack_timeout=...`,
# as insmod: the guest has spare.ko in /spare, not under /lib/modules.
P=/sys/module/spare/parameters
spare_deps
for bad in ack_timeout=11 ack_timeout=23 ack_timeout=x; do
	insmod /spare/spare.ko $bad 2>/dev/null && fail "insmod accepted $bad"
done
dmesg | grep -q "spare: .*ack_timeout" || fail "no log line for the refused ack_timeout"
insmod /spare/spare.ko write_window_kb=256 ack_timeout=18 || fail "insmod with parameters"
[ "$(cat $P/write_window_kb)" = 256 ] && [ "$(cat $P/ack_timeout)" = 18 ] ||
	fail "parameters at load: write_window_kb $(cat $P/write_window_kb), ack_timeout $(cat $P/ack_timeout)"
echo 1024 >$P/write_window_kb && echo 16 >$P/ack_timeout ||
	fail "writing the parameters"
(echo 30 >$P/ack_timeout) 2>/dev/null && fail "ack_timeout 30 accepted through sysfs"
[ "$(cat $P/write_window_kb)" = 1024 ] && [ "$(cat $P/ack_timeout)" = 16 ] ||
	fail "parameters after writing: $(cat $P/write_window_kb) $(cat $P/ack_timeout)"
# reclaim_wait went with BLK_MQ_F_BLOCKING (session 39): no such file
[ ! -e $P/reclaim_wait ] || fail "reclaim_wait is still a parameter"
rmmod spare || fail "rmmod"
pass "module parameters"
check_dmesg
pass "ops kit"
