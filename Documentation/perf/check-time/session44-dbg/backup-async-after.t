start 1796013724.752815889
lock 1796013761.905962505
stamp 1796013762.536113821 vm/run: tests/vm/client/backup-async.sh on 6.1.192-spare-debug (log: build/vm/logs/client-backup-async-6.1.192-spare-debug.log)
stamp 1796013782.811443716 spare-guest: kernel 6.1.192-spare-debug, up 17.69 s
stamp 1796013782.846870260 spare-guest: running tests/vm/client/backup-async.sh at 17.75 s of uptime
stamp 1796013783.184084930 == backup /dev/ram0 (async), 1 copy per slab over two donors [18.07s]
stamp 1796013805.079793953 PASS: swapping on spare0 with a async backup
stamp 1796013805.125484460 == workload running; SIGKILL the donor on 10.0.0.3 once 3000 pages went out [40.03s]
stamp 1796013818.242238475 workload swapped out 3204 pages
stamp 1796013824.004510466 PASS: donor 3 lost: its slabs have no remote copy left
stamp 1796013824.151193936 == the workload finishes from donor 2 and the backup [59.03s]
stamp 1796013849.124127660 spare-memtest: 8192 pages x 1 passes in 42.62 s, 0 bad pages
stamp 1796013850.271869057 PASS: every page verified: 618 reads from the backup, 667 by RDMA
stamp 1796013850.332781264 == teardown [85.23s]
stamp 1796013853.052923751 PASS: clean teardown
stamp 1796013853.140099393 == a failed async backup write: those pages are never read back stale [88.03s]
stamp 1796013879.596354248 PASS: the failed backup write left its pages stale: EIO, not older data; a new write cleared them
stamp 1796013880.178996754 SPARE-EXIT: 0
stamp 1796013880.298858904 [  115.336585] reboot: Power down
rc 0
end 1796013880.872941743
