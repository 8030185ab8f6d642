start 1796011939.161428173
lock 1796012687.551157016
stamp 1796012688.208000079 vm/run: tests/vm/client/cutlink.sh on 6.1.192-spare-debug (log: build/vm/logs/client-cutlink-6.1.192-spare-debug.log)
stamp 1796012702.685158964 spare-guest: kernel 6.1.192-spare-debug, up 12.24 s
stamp 1796012702.720673345 spare-guest: running tests/vm/client/cutlink.sh at 12.28 s of uptime
stamp 1796012702.970918723 == two donors, 2 copies per slab, swap on [12.52s]
stamp 1796012726.148017303 PASS: swapping on spare0
stamp 1796012726.196050085 == workload swapping; cut 10.0.0.2 for 10 s [35.75s]
stamp 1796012739.282605094 workload swapped out 3121 pages
stamp 1796012798.541064430 PASS: cut noticed, link healed
stamp 1796012798.645826760 == the workload finishes; donor 2 reconnects and its copies are mapped again [108.18s]
stamp 1796012808.429764635 spare-memtest: 8192 pages x 1 passes in 80.32 s, 0 bad pages
stamp 1796012809.576165764 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796012809.654548609 == teardown [119.19s]
stamp 1796012812.228858836 PASS: clean teardown
stamp 1796012813.667489192 SPARE-EXIT: 0
stamp 1796012814.064027442 [  123.782383] reboot: Power down
rc 0
end 1796012814.230080846
