start 1796012814.264525151
lock 1796013552.480944520
stamp 1796013552.964240971 vm/run: tests/vm/client/evict.sh on 6.1.192-spare-debug (log: build/vm/logs/client-evict-6.1.192-spare-debug.log)
stamp 1796013566.150508539 spare-guest: kernel 6.1.192-spare-debug, up 11.63 s
stamp 1796013566.186377410 spare-guest: running tests/vm/client/evict.sh at 11.67 s of uptime
stamp 1796013566.455118618 == two donors, 2 copies per slab, swap on [11.90s]
stamp 1796013585.065700720 PASS: swapping on spare0
stamp 1796013585.116078441 == workload running; donor 2 evicts 1 slabs, then all of them [30.61s]
stamp 1796013593.382898166 workload swapped out 3138 pages
stamp 1796013599.031793286 PASS: 4 slabs given back to donor 2
stamp 1796013599.102720174 == the workload finishes; the evicted copies are mapped again [44.58s]
stamp 1796013629.083953288 spare-memtest: 8192 pages x 1 passes in 42.73 s, 0 bad pages
stamp 1796013630.215731912 PASS: every page verified through the evictions; every copy mapped again
stamp 1796013630.250883926 == teardown [75.74s]
stamp 1796013632.139823418 PASS: clean teardown
stamp 1796013633.029824346 SPARE-EXIT: 0
stamp 1796013633.171123132 [   78.767609] reboot: Power down
rc 0
end 1796013633.298428123
