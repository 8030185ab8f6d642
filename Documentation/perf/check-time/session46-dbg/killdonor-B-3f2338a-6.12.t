start 1796037537.044995068
stamp 1796038198.125670905 mkinitramfs: note: module lzo_rle not in 6.12.117+deb12-amd64
stamp 1796038200.861020462 mkinitramfs: note: module nft_counter not in 6.12.117+deb12-amd64
stamp 1796038218.995556531 mkinitramfs: /work/wt/dbg31/build/vm/6.12.117+deb12-amd64/base.cpio (36M), /work/wt/dbg31/build/vm/6.12.117+deb12-amd64/bench.cpio (69M), /work/wt/dbg31/build/vm/6.12.117+deb12-amd64/systemd.cpio (13M)
stamp 1796038221.943532532 vm/run: tests/vm/client/killdonor.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-killdonor@kmod-6.12.117+deb12-amd64.log)
stamp 1796038231.039006044 spare-guest: kernel 6.12.117+deb12-amd64, up 5.40 s
stamp 1796038231.063623613 spare-guest: running tests/vm/client/killdonor.sh at 5.43 s of uptime
stamp 1796038231.136439628 client backend: kmod
stamp 1796038231.165340327 == two donors, 2 copies per slab, swap on [5.53s]
stamp 1796038242.365073193 PASS: swapping on spare0, 16 slabs x 2 copies
stamp 1796038242.394862744 == workload running; the donor on host 3 lost once 6000 pages went out [16.74s]
stamp 1796038244.881305629 workload swapped out 8401 pages
stamp 1796038246.141638198 io_stat:    2 14 962 0 0 0 0 0 0 356352 54784000 0 0 0 0 0
stamp 1796038246.192132400 slab_stat:  1 16 24 2 16 0 16 0 0 65536
stamp 1796038246.223322313 donor_stat:
stamp 1796038246.277804056 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038246.309805635 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796038246.348367316 PASS: donor 3 lost; 16 copies left on donor 2
stamp 1796038246.369613872 == the workload finishes on the surviving copies [20.73s]
stamp 1796038258.804454468 spare-memtest: 16384 pages x 2 passes in 15.95 s, 0 bad pages
stamp 1796038258.826944650 pswpout +32805, pswpin +32866
stamp 1796038258.841846695 io_stat:    2 4433 2501 0 0 0 0 0 0 134627328 134373376 0 0 0 0 0
stamp 1796038258.873851671 slab_stat:  1 16 24 2 16 0 16 0 0 65536
stamp 1796038258.973039186 donor_stat:
stamp 1796038259.111974406 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038259.258518333 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796038259.427133948 PASS: every page verified after the kill; 4431 reads from the survivors; uevent seen
stamp 1796038259.535000325 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [33.80s]
stamp 1796038268.751036773 io_stat:    2 4433 2501 0 0 0 0 0 0 134627328 134373376 0 0 0 0 0
stamp 1796038268.811031343 slab_stat:  1 16 24 2 32 0 0 0 0 114663
stamp 1796038268.879552957 donor_stat:
stamp 1796038268.944470577 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038269.035213655 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796038269.106722694 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796038269.153246069 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [43.16s]
stamp 1796038272.491901666 workload swapped out 6553 pages
stamp 1796038274.928906018     all 16 of donor 3's copies still on it 1.4 s after its loss
stamp 1796038277.117550801     all 16 of donor 3's copies still on it 3.6 s after its loss
stamp 1796038282.552391425     [   52.923562] spare: donor 10.0.0.3:18515: down 5 s: 16 slab copies re-homed to other donors; resync refills them
stamp 1796038291.309868137     copies on donor 4: 16
stamp 1796038291.357217385     re-homed 8 s after the loss was noticed
stamp 1796038291.381288820 PASS: donor 3 down 5 s: its 16 copies mapped on donor 4 and refilled
stamp 1796038291.405074083 == donor 2 killed: the job reads every page back from donor 4 alone [65.70s]
stamp 1796038300.750334625 spare-memtest: the last pass cut at page 11648 of 16384 (-c)
stamp 1796038300.779289737 spare-memtest: 16384 pages x 2 passes in 30.75 s, 0 bad pages
stamp 1796038300.838365487 pswpout +28069, pswpin +28123
stamp 1796038300.890644739 PASS: every page verified from donor 4 alone (16451 pages read back, 12288 or more wanted)
stamp 1796038300.910851487 == the data is still all there (read back through swapoff) [75.27s]
stamp 1796038301.486803295 PASS: clean teardown
stamp 1796038301.613251183 SPARE-EXIT: 0
stamp 1796038301.653063572 [   76.000527] reboot: Power down
rc 0
end 1796038302.140035702
