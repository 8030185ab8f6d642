start 1796060557.670157456
stamp 1796060665.186510495 mkinitramfs: note: module ublk_drv not in 6.1.0-57-amd64
stamp 1796060667.341007325 mkinitramfs: note: module lzo_rle not in 6.1.0-57-amd64
stamp 1796060674.481386101 mkinitramfs: note: module nft_counter not in 6.1.0-57-amd64
stamp 1796060705.149823652 mkinitramfs: /work/wt/dbg48/build/vm/6.1.0-57-amd64/base.cpio (36M), /work/wt/dbg48/build/vm/6.1.0-57-amd64/bench.cpio (69M), /work/wt/dbg48/build/vm/6.1.0-57-amd64/systemd.cpio (13M)
stamp 1796060709.581697615 vm/run: tests/vm/client/cutlink.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-cutlink-6.1.0-57-amd64.log)
stamp 1796060722.129338480 spare-guest: kernel 6.1.0-57-amd64, up 7.88 s
stamp 1796060722.199752317 spare-guest: running tests/vm/client/cutlink.sh at 7.93 s of uptime
stamp 1796060722.504398785 == two donors, 2 copies per slab, swap on [8.26s]
stamp 1796060748.461751151 PASS: swapping on spare0
stamp 1796060748.529475486 == workload swapping; cut 10.0.0.2 for 10 s [34.19s]
stamp 1796060760.745877605 workload swapped out 6143 pages
stamp 1796060777.429711542 		ip daddr 10.0.0.2 udp dport 4791 counter packets 632 bytes 2553504 drop
stamp 1796060777.476432460 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796060780.388144040 Terminated
stamp 1796060780.649748364 io_stat:    2 771 1147 0 0 0 1 1 0 46862336 56967168 0 0 0 0 0
stamp 1796060780.695454020 slab_stat:  1 16 24 2 16 0 16 0 0 65472
stamp 1796060780.735578910 donor_stat:
stamp 1796060780.796806895 2 0 10.0.0.2:18515 connecting 1 1 0 0 0 0 0 0 0 0
stamp 1796060780.859297210 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796060780.914660651 PASS: cut noticed, link healed
stamp 1796060780.971536987 == the workload finishes; donor 2 reconnects and its copies are mapped again [66.69s]
stamp 1796060845.951915153 spare-memtest: 16384 pages x 2 passes in 96.97 s, 0 bad pages
stamp 1796060845.985010003 pswpout +32792, pswpin +32799
stamp 1796060846.017032922 io_stat:    2 5102 2703 0 0 0 1 1 0 178065408 134320128 0 6902 0 0 0
stamp 1796060846.060592675 slab_stat:  1 16 24 2 32 0 0 0 0 131072
stamp 1796060846.085489453 donor_stat:
stamp 1796060846.097047577 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 16 7239 0
stamp 1796060846.147789769 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796060846.196694401 redrives 1, failovers 1
stamp 1796060846.263658306 PASS: every page verified; donor 2 reconnected (2 connects) and all 32 copies are mapped
stamp 1796060846.281593795 == teardown [132.09s]
stamp 1796060847.421149654 PASS: clean teardown
stamp 1796060847.888094796 SPARE-EXIT: 0
stamp 1796060848.186191893 [  133.953912] reboot: Power down
end 1796060849.213349174 rc=0
