start 1796048278.189493016
stamp 1796050131.925163954 mkinitramfs: note: module lzo_rle not in 6.12.117+deb12-amd64
stamp 1796050137.352464142 mkinitramfs: note: module nft_counter not in 6.12.117+deb12-amd64
stamp 1796050163.293621416 mkinitramfs: /work/wt/dbg47/build/vm/6.12.117+deb12-amd64/base.cpio (36M), /work/wt/dbg47/build/vm/6.12.117+deb12-amd64/bench.cpio (69M), /work/wt/dbg47/build/vm/6.12.117+deb12-amd64/systemd.cpio (13M)
stamp 1796050165.644146382 vm/run: tests/vm/client/teardown.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-teardown-6.12.117+deb12-amd64.log)
stamp 1796050175.320242627 spare-guest: kernel 6.12.117+deb12-amd64, up 6.80 s
stamp 1796050175.348927978 spare-guest: running tests/vm/client/teardown.sh at 6.86 s of uptime
stamp 1796050175.543012444 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [7.05s]
stamp 1796050180.853634401 PASS: donors up, backup /dev/mapper/slow
stamp 1796050184.038256902 round 1: kill, backup sync: off and removed [15.54s]
stamp 1796050189.650308245 [   21.153740] rxe1: qp#28 make_send_cqe: non-flush error status = 12
stamp 1796050190.088419135 round 2: cut, backup async: off and removed [21.61s]
stamp 1796050193.928233894 round 3: evict, backup sync: off and removed [25.34s]
stamp 1796050196.053561858 round 4: none, backup async: off and removed [27.55s]
stamp 1796050200.372582473 round 5: restart, backup sync: off and removed [31.51s]
stamp 1796050201.820626323 round 6: kill, backup async: off and removed [33.32s]
stamp 1796050206.183023504 [   37.665347] rxe1: qp#58 make_send_cqe: non-flush error status = 12
stamp 1796050206.207289237 [   37.668480] rxe1: qp#59 make_send_cqe: non-flush error status = 12
stamp 1796050206.527886664 round 7: cut, backup sync: off and removed [38.05s]
stamp 1796050209.691442941 round 8: evict, backup async: off and removed [41.21s]
stamp 1796050212.332642922 round 9: none, backup sync: off and removed [43.86s]
stamp 1796050216.737976266 round 10: restart, backup async: off and removed [47.76s]
stamp 1796050217.071413805 error roads taken: 6; slabs evicted: 8
stamp 1796050217.119433952 PASS: 10 rounds powered off and removed under I/O, 8 with a fault in flight
stamp 1796050217.138502876 == unload [48.60s]
stamp 1796050218.059587106 PASS: spare.ko unloaded; no splat
stamp 1796050218.195324692 SPARE-EXIT: 0
stamp 1796050218.253657676 [   49.738081] reboot: Power down
end 1796050218.907874827
