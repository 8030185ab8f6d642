start 1796061554.021948389
stamp 1796061875.691449388 vm/run: tests/vm/client/teardown.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-teardown-6.1.0-57-amd64.log)
stamp 1796061885.432446250 spare-guest: kernel 6.1.0-57-amd64, up 7.36 s
stamp 1796061885.474838473 spare-guest: running tests/vm/client/teardown.sh at 7.38 s of uptime
stamp 1796061885.574982389 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [7.51s]
stamp 1796061892.321721203 PASS: donors up, backup /dev/mapper/slow
stamp 1796061896.606849899 round 1: kill, backup sync: off and removed [18.56s]
stamp 1796061904.269163191 round 2: cut, backup async: off and removed [26.22s]
stamp 1796061909.931982525 round 3: evict, backup sync: off and removed [31.86s]
stamp 1796061915.266659787 round 4: none, backup async: off and removed [37.22s]
stamp 1796061928.452438279 round 5: restart, backup sync: off and removed [50.40s]
stamp 1796061939.087433167 round 6: kill, backup async: off and removed [61.00s]
stamp 1796061947.857366193 round 7: cut, backup sync: off and removed [69.81s]
stamp 1796061953.488539340 round 8: evict, backup async: off and removed [75.43s]
stamp 1796061958.198133660 round 9: none, backup sync: off and removed [80.12s]
stamp 1796061972.287787670 round 10: restart, backup async: off and removed [94.23s]
stamp 1796061972.524858154 error roads taken: 6; slabs evicted: 8
stamp 1796061972.583548374 PASS: 10 rounds powered off and removed under I/O, 8 with a fault in flight
stamp 1796061972.633203256 == unload [94.49s]
stamp 1796061972.799420461 PASS: spare.ko unloaded; no splat
stamp 1796061972.901680614 SPARE-EXIT: 0
stamp 1796061972.933581432 [   94.895357] reboot: Power down
end 1796061973.547950749 rc=0
