start 1796010800.719301373
lock 1796010903.574259127
stamp 1796010934.801378548 vm/run: tests/vm/client/teardown.sh on 6.1.192-spare-debug (log: build/vm/logs/client-teardown-6.1.192-spare-debug.log)
stamp 1796010961.023337974 spare-guest: kernel 6.1.192-spare-debug, up 17.24 s
stamp 1796010961.116461418 spare-guest: running tests/vm/client/teardown.sh at 17.35 s of uptime
stamp 1796010961.660375869 debug kernel: 5 rounds, FLIP=1 (round 1's backup is async)
stamp 1796010961.775747095 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [17.98s]
stamp 1796010985.887402823 PASS: donors up, backup /dev/mapper/slow
stamp 1796011000.593257656 round 1: kill, backup async: off and removed [56.85s]
stamp 1796011030.744782168 round 2: cut, backup sync: off and removed [87.01s]
stamp 1796011047.464608329 round 3: evict, backup async: off and removed [103.73s]
stamp 1796011054.084020031 round 4: none, backup sync: off and removed [110.36s]
stamp 1796011081.391415820 round 5: restart, backup async: off and removed [137.67s]
stamp 1796011082.317234272 PASS: 5 rounds powered off and removed under I/O, 4 with a fault in flight
stamp 1796011082.407645430 == unload [138.66s]
stamp 1796011084.963207131 PASS: spare.ko unloaded; no splat
stamp 1796011085.772248385 SPARE-EXIT: 0
stamp 1796011085.981964407 [  142.246628] reboot: Power down
rc 0
end 1796011086.142191841
