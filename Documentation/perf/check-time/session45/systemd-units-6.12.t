start 1796025158.548756064
lock 1796025348.030684045
stamp 1796025370.251901954 vm/run: tests/vm/ops/systemd-units.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/ops-systemd-units-6.12.117+deb12-amd64.log)
stamp 1796025377.330180814 spare-guest: kernel 6.12.117+deb12-amd64, up 5.64 s
stamp 1796025377.558330057 spare-guest: handing over to systemd (systemd 252 (252.39-1~deb12u2))
stamp 1796025379.258607618 spare-guest: running tests/vm/ops/systemd-units.sh at 7.55 s of uptime
stamp 1796025379.449911941 == the units, filled in as make install does; programs in /usr/sbin; systemd loads them all [7.73s]
stamp 1796025381.276775984 == spare-broker.service, its keys readable by root only: ready, and donors register [9.58s]
stamp 1796025385.453465649 == spared.service as donor 2, ready, its control socket answering; donor 3 by hand [13.75s]
stamp 1796025389.710778851 == sparectl device create --backend=ublk through the broker: systemd starts spare-ublk@ub0 [17.97s]
stamp 1796025400.481154401 == sparectl-monitor@ub0 renews the grants and tells the pager; so does systemctl reload [28.78s]
stamp 1796025402.763461408 == the pager SIGKILLed: systemd starts it again; it takes /dev/ublkb0 back [30.92s]
stamp 1796025408.586844373 == systemctl kill -s USR2 spared: an upgrade in place under systemd, the pager's slabs held over it [36.90s]
stamp 1796025433.709686773 == destroy stops the pager's unit; its monitor ends [62.01s]
stamp 1796025436.344477781 == systemctl reload: the broker rotates trainer's key, donors keep their sessions; spared reloads [64.63s]
stamp 1796025445.733403976 == systemctl reload spared: trainer's host key rotated; its authenticated session stays, a new one needs the new key [74.03s]
stamp 1796025450.256065071 == the module backend: sparectl-monitor@swap0 renews a spare.ko device's grants through configfs [78.55s]
stamp 1796025459.541890461 == systemctl restart spare-broker (the guide's upgrade step): a new process, both donors register again [87.83s]
stamp 1796025463.091168277 == spare-swap@sw0 (backend=ublk, through the broker): enabled and started, swapped on at its priority [91.37s]
stamp 1796025470.887395553 == a workload swaps onto /dev/ublkb0: 64 MiB, 2 passes, in a cgroup with memory.max=32M (memory.high 28M) [99.20s]
stamp 1796025487.588415007 == systemctl stop spare-swap@sw0: swapped off, then the device, its pager and its files gone [115.90s]
stamp 1796025490.498394698 == spare-swap@sw3 (backend=module, the default): swapped on at its priority, then off and the device removed [118.78s]
stamp 1796025494.617354902 == a bad swap config: the unit fails with file, line and key in its journal, is not retried, leaves nothing [122.91s]
stamp 1796025498.657224432 == a broker that does not answer: the unit fails with the reason and retries, nothing waits, nothing is left [126.94s]
stamp 1796025514.432602488 == the broker comes back: spare-swap@sw2's retried start succeeds with nobody starting it again; its shutdown order [142.73s]
stamp 1796025528.853897564 == the guide's tuning commands: vm.swappiness, and a job's memory limits through systemctl set-property [157.14s]
stamp 1796025530.281849633 == spared's watchdog after the upgrade in place; spare-aggd enabled and started; every daemon stops cleanly [158.57s]
stamp 1796025534.637242182 SPARE-EXIT: 0
stamp 1796025534.667858169 [  162.957824] reboot: Power down
rc 0
end 1796025534.920942181
