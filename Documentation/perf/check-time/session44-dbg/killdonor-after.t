start 1796011086.185989846
lock 1796011674.944836885
stamp 1796011676.016833481 vm/run: tests/vm/client/killdonor.sh on 6.1.192-spare-debug (log: build/vm/logs/client-killdonor@kmod-6.1.192-spare-debug.log)
stamp 1796011701.972932795 spare-guest: kernel 6.1.192-spare-debug, up 15.09 s
stamp 1796011702.091862138 spare-guest: running tests/vm/client/killdonor.sh at 15.24 s of uptime
stamp 1796011702.935591959 == two donors, 2 copies per slab, swap on [16.02s]
stamp 1796011734.105788286 PASS: swapping on spare0, 4 slabs x 2 copies
stamp 1796011734.175617346 == workload running; the donor on host 3 lost once 3000 pages went out [47.35s]
stamp 1796011748.287613737 workload swapped out 3065 pages
stamp 1796011754.978014264 PASS: donor 3 lost; 4 copies left on donor 2
stamp 1796011755.107071162 == the workload finishes on the surviving copies [68.27s]
stamp 1796011785.921549497 spare-memtest: 8192 pages x 1 passes in 50.02 s, 0 bad pages
stamp 1796011786.809465618 PASS: every page verified after the kill; 1300 reads from the survivors; uevent seen
stamp 1796011786.895046520 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [100.07s]
stamp 1796011810.899171677 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796011810.981134770 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [124.14s]
stamp 1796011834.810009500 workload swapped out 3178 pages
stamp 1796011886.519227177 PASS: donor 3 down 5 s: its 4 copies mapped on donor 4 and refilled
stamp 1796011886.577685819 == donor 2 killed: the job reads every page back from donor 4 alone [199.75s]
stamp 1796011934.134619479 spare-memtest: 8192 pages x 2 passes in 116.18 s, 0 bad pages
stamp 1796011934.375000851 PASS: every page verified from donor 4 alone (6144 pages read back)
stamp 1796011934.417111781 == the data is still all there (read back through swapoff) [247.61s]
stamp 1796011937.198481020 PASS: clean teardown
stamp 1796011938.600177498 SPARE-EXIT: 0
stamp 1796011938.820315453 [  252.009306] reboot: Power down
rc 0
end 1796011939.109729260
