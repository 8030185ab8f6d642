start 1796049436.960921226
stamp 1796050222.214445177 vm/run: tests/vm/client/cutlink.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-cutlink-6.1.0-57-amd64.log)
stamp 1796050232.120377777 spare-guest: kernel 6.1.0-57-amd64, up 7.26 s
stamp 1796050232.159024899 spare-guest: running tests/vm/client/cutlink.sh at 7.28 s of uptime
stamp 1796050232.259802946 == two donors, 2 copies per slab, swap on [7.44s]
stamp 1796050249.292227079 PASS: swapping on spare0
stamp 1796050249.312139941 == workload swapping; cut 10.0.0.2 for 10 s [24.49s]
stamp 1796050252.247090189 workload swapped out 6534 pages
stamp 1796050267.201285744 		ip daddr 10.0.0.2 udp dport 4791 counter packets 322 bytes 1277632 drop
stamp 1796050267.214774473 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796050268.265825523 Terminated
stamp 1796050268.319770488 io_stat:    2 3543 1842 0 0 0 1 1 0 189534208 90427392 0 0 0 0 0
stamp 1796050268.369940527 slab_stat:  1 16 24 2 16 0 16 0 0 65536
stamp 1796050268.396359116 donor_stat:
stamp 1796050268.586006021 2 0 10.0.0.2:18515 connecting 1 1 0 0 0 0 0 0 0 0
stamp 1796050268.699446602 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796050268.751906115 PASS: cut noticed, link healed
stamp 1796050268.798674052 == the workload finishes; donor 2 reconnects and its copies are mapped again [43.67s]
stamp 1796050285.822831635 spare-memtest: 16384 pages x 2 passes in 36.27 s, 0 bad pages
stamp 1796050285.860156383 pswpout +32792, pswpin +32801
stamp 1796050285.877900278 io_stat:    2 6723 2690 0 0 0 1 1 0 288043008 134320128 0 13679 0 0 0
stamp 1796050285.891153361 slab_stat:  1 16 24 2 32 0 0 0 0 131072
stamp 1796050285.904562899 donor_stat:
stamp 1796050286.031273916 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 0 0 0
stamp 1796050286.263278988 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796050286.285807222 redrives 1, failovers 1
stamp 1796050286.310676467 PASS: every page verified; donor 2 reconnected (2 connects) and all 32 copies are mapped
stamp 1796050286.336203699 == teardown [61.24s]
stamp 1796050286.968987199 PASS: clean teardown
stamp 1796050287.261662581 SPARE-EXIT: 0
stamp 1796050287.425567458 [   62.599907] reboot: Power down
end 1796050288.055723453
