start 1796013880.927013450
lock 1796013880.973696095
stamp 1796013881.803170327 vm/run: tests/vm/client/badinput.sh on 6.1.192-spare-debug (log: build/vm/logs/client-badinput-6.1.192-spare-debug.log)
stamp 1796013897.030494685 spare-guest: kernel 6.1.192-spare-debug, up 10.10 s
stamp 1796013897.088218846 spare-guest: running tests/vm/client/badinput.sh at 10.17 s of uptime
stamp 1796013897.396342777 == one donor on 10.0.0.2, spare.ko loaded [10.47s]
stamp 1796013906.474149450 PASS: ready
stamp 1796013906.522803849 == invalid configfs writes [19.62s]
stamp 1796013917.060908231 PASS: every invalid write refused with EINVAL and one log line
stamp 1796013917.108751424 == redundancy=ec:K+R: refused beside replicas, beyond the donors, with integrity (not built with it), and without the codec [30.20s]
stamp 1796013919.282989000 PASS: ec:K+R refused with a reason; the device stays off
stamp 1796013919.319923930 == a device in use: power off, rmdir and rmmod are refused [32.42s]
stamp 1796013925.393566660 PASS: in-use device protected; released after swapoff
stamp 1796013925.508756743 == 10 create / power on / power off / destroy cycles [38.55s]
stamp 1796013952.863748156 PASS: 10 cycles: refcount 0, kmalloc growth 5836768 bytes, donor has every slab back, rmmod ok
stamp 1796013953.329080886 SPARE-EXIT: 0
stamp 1796013953.442687882 [   66.503444] reboot: Power down
rc 0
end 1796013953.604660831
