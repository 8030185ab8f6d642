start 1796048277.204438880
stamp 1796049506.438989598 mkinitramfs: note: module ublk_drv not in 6.1.0-57-amd64
stamp 1796049507.226420697 mkinitramfs: note: module lzo_rle not in 6.1.0-57-amd64
stamp 1796049514.508771985 mkinitramfs: note: module nft_counter not in 6.1.0-57-amd64
stamp 1796049554.416200343 mkinitramfs: /work/wt/dbg47/build/vm/6.1.0-57-amd64/base.cpio (36M), /work/wt/dbg47/build/vm/6.1.0-57-amd64/bench.cpio (69M), /work/wt/dbg47/build/vm/6.1.0-57-amd64/systemd.cpio (13M)
stamp 1796049559.356103295 vm/run: tests/vm/client/teardown.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-teardown-6.1.0-57-amd64.log)
stamp 1796049571.281634359 spare-guest: kernel 6.1.0-57-amd64, up 6.74 s
stamp 1796049571.316895250 spare-guest: running tests/vm/client/teardown.sh at 6.75 s of uptime
stamp 1796049571.407580617 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [6.86s]
stamp 1796049576.029870892 PASS: donors up, backup /dev/mapper/slow
stamp 1796049581.670518458 round 1: kill, backup sync: off and removed [17.17s]
stamp 1796049590.773162516 round 2: cut, backup async: off and removed [26.29s]
stamp 1796049594.111244497 round 3: evict, backup sync: off and removed [29.62s]
stamp 1796049597.509236639 round 4: none, backup async: off and removed [33.04s]
stamp 1796049605.974179656 round 5: restart, backup sync: off and removed [41.51s]
stamp 1796049611.947232625 round 6: kill, backup async: off and removed [47.44s]
stamp 1796049617.649916205 round 7: cut, backup sync: off and removed [53.19s]
stamp 1796049621.360885256 round 8: evict, backup async: off and removed [56.90s]
stamp 1796049624.394543872 round 9: none, backup sync: off and removed [59.94s]
stamp 1796049632.381462931 round 10: restart, backup async: off and removed [67.85s]
stamp 1796049632.495116616 error roads taken: 5; slabs evicted: 8
stamp 1796049632.557382356 PASS: 10 rounds powered off and removed under I/O, 8 with a fault in flight
stamp 1796049632.663247594 == unload [68.04s]
stamp 1796049633.019934751 PASS: spare.ko unloaded; no splat
stamp 1796049633.204673684 SPARE-EXIT: 0
stamp 1796049633.262451556 [   68.758294] reboot: Power down
end 1796049633.920347884
