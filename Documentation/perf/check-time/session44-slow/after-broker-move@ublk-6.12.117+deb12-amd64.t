start 1796011742.986770255
lock 1796012556.248997942
stamp 1796012557.053427366 vm/run: tests/vm/broker/move.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/broker-move@ublk-6.12.117+deb12-amd64.log)
stamp 1796012562.978481917 spare-guest: kernel 6.12.117+deb12-amd64, up 5.05 s
stamp 1796012563.008705712 spare-guest: running tests/vm/broker/move.sh at 5.08 s of uptime
stamp 1796012563.100354173 == a broker; donors 2 and 3 lend only against its grants [5.18s]
stamp 1796012566.997272667 == device create through the broker (ublk): 8 slabs x 1 copy, 12 s grants, a monitor [9.07s]
stamp 1796012579.209915961 == donor 2 gives every slab back: all 4 move to donor 3 [21.29s]
stamp 1796012586.025884870 == standby=0: donor 2's grants run out; donor 3 evicts one slab; it waits for a grant on 2 [28.10s]
stamp 1796012598.781550586 == destroy; the donors lend nothing; the monitor ends [40.85s]
stamp 1796012599.948395672 SPARE-EXIT: 0
stamp 1796012599.964192851 [   42.023817] reboot: Power down
rc 0
end 1796012600.109842745
done 1796012600.132853382
