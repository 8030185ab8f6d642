start 1796013996.767012693
lock 1796014088.934341585
stamp 1796014101.760025949 vm/run: tests/vm/client/cutlink.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-cutlink-6.1.0-57-amd64.log)
stamp 1796014105.847488167 spare-guest: kernel 6.1.0-57-amd64, up 3.16 s
stamp 1796014105.859053003 spare-guest: running tests/vm/client/cutlink.sh at 3.17 s of uptime
stamp 1796014105.908123951 == two donors, 2 copies per slab, swap on [3.22s]
stamp 1796014112.557895513 PASS: swapping on spare0
stamp 1796014112.568736449 == workload swapping; cut 10.0.0.2 for 10 s [9.88s]
stamp 1796014114.775400319 workload swapped out 7308 pages
stamp 1796014130.188644506 PASS: cut noticed, link healed
stamp 1796014130.204776899 == the workload finishes; donor 2 reconnects and its copies are mapped again [27.50s]
stamp 1796014135.660346290 spare-memtest: 16384 pages x 2 passes in 22.92 s, 0 bad pages
stamp 1796014135.749624603 PASS: every page verified; donor 2 reconnected (2 connects) and all 32 copies are mapped
stamp 1796014135.758000301 == teardown [33.07s]
stamp 1796014136.158515040 PASS: clean teardown
stamp 1796014136.297292953 SPARE-EXIT: 0
stamp 1796014136.348264949 [   33.687210] reboot: Power down
rc 0
end 1796014136.505674488
