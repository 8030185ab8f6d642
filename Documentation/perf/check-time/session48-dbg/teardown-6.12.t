start 1796061975.724898125
stamp 1796062056.318896757 mkinitramfs: note: module lzo_rle not in 6.12.117+deb12-amd64
stamp 1796062061.587437029 mkinitramfs: note: module nft_counter not in 6.12.117+deb12-amd64
stamp 1796062093.821761214 mkinitramfs: /work/wt/dbg48/build/vm/6.12.117+deb12-amd64/base.cpio (36M), /work/wt/dbg48/build/vm/6.12.117+deb12-amd64/bench.cpio (69M), /work/wt/dbg48/build/vm/6.12.117+deb12-amd64/systemd.cpio (13M)
stamp 1796062097.702933316 vm/run: tests/vm/client/teardown.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-teardown-6.12.117+deb12-amd64.log)
stamp 1796062112.521555876 spare-guest: kernel 6.12.117+deb12-amd64, up 10.35 s
stamp 1796062112.568001523 spare-guest: running tests/vm/client/teardown.sh at 10.38 s of uptime
stamp 1796062112.636574945 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [10.45s]
stamp 1796062122.365900781 PASS: donors up, backup /dev/mapper/slow
stamp 1796062127.995894485 round 1: kill, backup sync: off and removed [25.87s]
stamp 1796062134.336449368 [   32.174757] rxe1: qp#28 make_send_cqe: non-flush error status = 12
stamp 1796062135.235977274 round 2: cut, backup async: off and removed [33.07s]
stamp 1796062139.814446351 round 3: evict, backup sync: off and removed [37.67s]
stamp 1796062142.836564808 round 4: none, backup async: off and removed [40.70s]
stamp 1796062149.668786050 round 5: restart, backup sync: off and removed [47.55s]
stamp 1796062151.810932155 round 6: kill, backup async: off and removed [49.69s]
stamp 1796062156.820959106 [   54.672406] rxe1: qp#61 make_send_cqe: non-flush error status = 12
stamp 1796062156.840938393 [   54.673424] rxe1: qp#63 make_send_cqe: non-flush error status = 12
stamp 1796062157.153724802 round 7: cut, backup sync: off and removed [55.05s]
stamp 1796062160.149044941 round 8: evict, backup async: off and removed [58.03s]
stamp 1796062162.923700208 round 9: none, backup sync: off and removed [60.81s]
stamp 1796062169.131250348 round 10: restart, backup async: off and removed [66.99s]
stamp 1796062169.438827134 error roads taken: 6; slabs evicted: 8
stamp 1796062169.460275964 PASS: 10 rounds powered off and removed under I/O, 8 with a fault in flight
stamp 1796062169.482607986 == unload [67.35s]
stamp 1796062170.350288053 PASS: spare.ko unloaded; no splat
stamp 1796062170.689484705 SPARE-EXIT: 0
stamp 1796062170.724891322 [   68.576415] reboot: Power down
end 1796062171.491196813 rc=0
