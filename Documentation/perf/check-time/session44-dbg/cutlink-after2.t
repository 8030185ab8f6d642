start 1796013549.209855538
lock 1796013633.313485071
stamp 1796013633.728499241 vm/run: tests/vm/client/cutlink.sh on 6.1.192-spare-debug (log: build/vm/logs/client-cutlink-6.1.192-spare-debug.log)
stamp 1796013645.602078282 spare-guest: kernel 6.1.192-spare-debug, up 10.51 s
stamp 1796013645.659393769 spare-guest: running tests/vm/client/cutlink.sh at 10.56 s of uptime
stamp 1796013645.909133049 == two donors, 2 copies per slab, swap on [10.81s]
stamp 1796013666.272536416 PASS: swapping on spare0
stamp 1796013666.307178886 == workload swapping; cut 10.0.0.2 for 10 s [31.22s]
stamp 1796013673.686565764 workload swapped out 3164 pages
stamp 1796013705.622177517 PASS: cut noticed, link healed
stamp 1796013705.694758848 == the workload finishes; donor 2 reconnects and its copies are mapped again [70.60s]
stamp 1796013718.195053841 spare-memtest: 8192 pages x 1 passes in 50.70 s, 0 bad pages
stamp 1796013718.879588112 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796013718.941361000 == teardown [83.85s]
stamp 1796013721.362207618 PASS: clean teardown
stamp 1796013722.317155283 SPARE-EXIT: 0
stamp 1796013722.512110267 [   87.530391] reboot: Power down
rc 0
end 1796013722.766879931
