start 1796062173.013590963
stamp 1796062174.791717258 vm/run: tests/vm/client/cutlink.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-cutlink-6.12.117+deb12-amd64.log)
stamp 1796062181.537866337 spare-guest: kernel 6.12.117+deb12-amd64, up 5.68 s
stamp 1796062181.560316532 spare-guest: running tests/vm/client/cutlink.sh at 5.70 s of uptime
stamp 1796062181.625746243 == two donors, 2 copies per slab, swap on [5.78s]
stamp 1796062194.298676632 PASS: swapping on spare0
stamp 1796062194.334446607 == workload swapping; cut 10.0.0.2 for 10 s [18.45s]
stamp 1796062196.832704170 workload swapped out 6554 pages
stamp 1796062201.071618838 [   25.266393] rxe1: qp#22 make_send_cqe: non-flush error status = 12
stamp 1796062209.831453433 		ip daddr 10.0.0.2 udp dport 4791 counter packets 763 bytes 3087804 drop
stamp 1796062209.849599961 		ip saddr 10.0.0.2 udp dport 4791 counter packets 19 bytes 66392 drop
stamp 1796062210.621706746 Terminated
stamp 1796062210.703298146 io_stat:    2 3297 1578 0 0 0 1 1 0 176214016 89403392 0 0 0 0 0
stamp 1796062210.741894602 slab_stat:  1 16 24 2 16 0 16 0 0 65536
stamp 1796062210.780746071 donor_stat:
stamp 1796062210.837384636 2 0 10.0.0.2:18515 connecting 1 1 0 0 0 0 0 0 0 0
stamp 1796062210.901770320 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796062210.956218729 PASS: cut noticed, link healed
stamp 1796062211.011931202 == the workload finishes; donor 2 reconnects and its copies are mapped again [34.95s]
stamp 1796062225.503043435 spare-memtest: 16384 pages x 2 passes in 30.93 s, 0 bad pages
stamp 1796062225.552236053 pswpout +32805, pswpin +32851
stamp 1796062225.573539768 io_stat:    2 6600 2520 0 0 0 1 1 0 275337216 134373376 0 11528 0 0 0
stamp 1796062225.614407855 slab_stat:  1 16 24 2 32 0 0 0 0 131072
stamp 1796062225.638831427 donor_stat:
stamp 1796062225.659437721 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 16 4875 0
stamp 1796062225.690603018 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796062225.715604463 redrives 1, failovers 1
stamp 1796062225.779322373 PASS: every page verified; donor 2 reconnected (2 connects) and all 32 copies are mapped
stamp 1796062225.807004815 == teardown [49.92s]
stamp 1796062226.726238671 PASS: clean teardown
stamp 1796062227.024576514 SPARE-EXIT: 0
stamp 1796062227.070293401 [   51.279790] reboot: Power down
end 1796062227.654646496 rc=0
