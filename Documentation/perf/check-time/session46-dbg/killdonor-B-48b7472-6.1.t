start 1796036972.697769562
stamp 1796037388.056423451 mkinitramfs: note: module ublk_drv not in 6.1.0-57-amd64
stamp 1796037388.307937482 mkinitramfs: note: module lzo_rle not in 6.1.0-57-amd64
stamp 1796037391.656605145 mkinitramfs: note: module nft_counter not in 6.1.0-57-amd64
stamp 1796037408.388962453 mkinitramfs: /work/wt/dbg31/build/vm/6.1.0-57-amd64/base.cpio (36M), /work/wt/dbg31/build/vm/6.1.0-57-amd64/bench.cpio (69M), /work/wt/dbg31/build/vm/6.1.0-57-amd64/systemd.cpio (13M)
stamp 1796037410.885597204 vm/run: tests/vm/client/killdonor.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-killdonor@kmod-6.1.0-57-amd64.log)
stamp 1796037417.211371773 spare-guest: kernel 6.1.0-57-amd64, up 3.85 s
stamp 1796037417.272346007 spare-guest: running tests/vm/client/killdonor.sh at 3.86 s of uptime
stamp 1796037417.312735528 client backend: kmod
stamp 1796037417.345104002 == two donors, 2 copies per slab, swap on [3.94s]
stamp 1796037426.222836327 PASS: swapping on spare0, 16 slabs x 2 copies
stamp 1796037426.267503568 == workload running; the donor on host 3 lost once 6000 pages went out [13.39s]
stamp 1796037429.214714540 workload swapped out 7008 pages
stamp 1796037431.146531313 io_stat:    2 3 836 0 0 0 0 0 0 16384 40488960 0 0 0 0 0
stamp 1796037431.177964526 slab_stat:  1 16 24 2 16 0 16 0 0 65478
stamp 1796037431.189429964 donor_stat:
stamp 1796037431.237351475 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037431.264760129 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796037431.342445924 PASS: donor 3 lost; 16 copies left on donor 2
stamp 1796037431.381326628 == the workload finishes on the surviving copies [18.50s]
stamp 1796037442.961205357 spare-memtest: 16384 pages x 2 passes in 16.41 s, 0 bad pages
stamp 1796037442.985447886 pswpout +32793, pswpin +32803
stamp 1796037443.022802491 io_stat:    2 4465 2726 0 0 0 0 0 0 134369280 134324224 0 0 0 0 0
stamp 1796037443.062144428 slab_stat:  1 16 24 2 16 0 16 0 0 65536
stamp 1796037443.091571113 donor_stat:
stamp 1796037443.125326603 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037443.162205457 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796037443.187267197 PASS: every page verified after the kill; 4462 reads from the survivors; uevent seen
stamp 1796037443.213381871 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [30.27s]
stamp 1796037450.698660537 io_stat:    2 4465 2726 0 0 0 0 0 0 134369280 134324224 0 0 0 0 0
stamp 1796037450.730630137 slab_stat:  1 16 24 2 32 0 0 0 0 114665
stamp 1796037450.761147316 donor_stat:
stamp 1796037450.782702497 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037450.865918993 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796037450.905053147 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796037450.956879382 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [37.96s]
stamp 1796037456.098207038 workload swapped out 6124 pages
stamp 1796037460.011726654     all 16 of donor 3's copies still on it 2.8 s after its loss
stamp 1796037464.956859469     [   49.611799] spare: donor 10.0.0.3:18515: down 5 s: 16 slab copies re-homed to other donors; resync refills them
stamp 1796037474.745572473     copies on donor 4: 16
stamp 1796037474.786705643     re-homed 7 s after the loss was noticed
stamp 1796037474.815695991 PASS: donor 3 down 5 s: its 16 copies mapped on donor 4 and refilled
stamp 1796037474.841496620 == donor 2 killed: the job reads every page back from donor 4 alone [61.96s]
stamp 1796037480.857135790 spare-memtest: the last pass cut at page 9280 of 16384 (-c)
stamp 1796037480.884663869 spare-memtest: 16384 pages x 2 passes in 28.48 s, 0 bad pages
stamp 1796037480.906582709 pswpout +25687, pswpin +25701
stamp 1796037480.931250634 PASS: every page verified from donor 4 alone (16402 pages read back, 12288 or more wanted)
stamp 1796037480.945697095 == the data is still all there (read back through swapoff) [68.06s]
stamp 1796037481.277844381 PASS: clean teardown
stamp 1796037481.398611864 SPARE-EXIT: 0
stamp 1796037481.454408936 [   68.607674] reboot: Power down
rc 0
end 1796037481.761997334
