start 1796010479.295145695
lock 1796010824.074380649
stamp 1796010863.418658246 vm/run: tests/vm/broker/move.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/broker-move@ublk-6.12.117+deb12-amd64.log)
stamp 1796010874.443992176 spare-guest: kernel 6.12.117+deb12-amd64, up 9.48 s
stamp 1796010874.464336194 spare-guest: running tests/vm/broker/move.sh at 9.50 s of uptime
stamp 1796010874.591898673 == a broker; donors 2 and 3 lend only against its grants [9.62s]
stamp 1796010882.391589475 == device create through the broker (ublk): 8 slabs x 1 copy, 12 s grants, a monitor [17.43s]
stamp 1796010893.604258825 == donor 2 gives every slab back: all 4 move to donor 3 [28.65s]
stamp 1796010902.659245962 == standby=0: donor 2's grants run out; donor 3 evicts one slab; it waits for a grant on 2 [37.71s]
stamp 1796010903.393886392 SPARE-EXIT: 1
stamp 1796010903.439185307 [   38.508081] reboot: Power down
rc 1
end 1796010903.533960579
done 1796010903.576871403
