start 1796011172.447791366
lock 1796011939.145925010
stamp 1796011940.003886647 vm/run: tests/vm/client/backup.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-backup@ublk-6.12.117+deb12-amd64.log)
stamp 1796011945.689367256 spare-guest: kernel 6.12.117+deb12-amd64, up 4.87 s
stamp 1796011945.712593672 spare-guest: running tests/vm/client/backup.sh at 4.90 s of uptime
stamp 1796011947.856847409 == sync backup /dev/ram0, 1 queue(s), 1 copy per slab over two donors; donor 3 SIGKILLed under load [7.03s]
stamp 1796011964.744611482 == async backup /dev/mapper/slow, 2 queue(s), 1 copy per slab over two donors; donor 3 SIGKILLed under load [23.92s]
stamp 1796011991.249253340 == refill from the backup: 1 copy, sync backup, 2 queues; donor 3 killed and started again under load [50.44s]
stamp 1796012002.107033736 == bad --backup input: a clear refusal, no device [61.30s]
stamp 1796012002.944848990 == sparectl device create --backend=ublk, list, show, metrics, destroy [62.13s]
stamp 1796012007.677962350 SPARE-EXIT: 0
stamp 1796012007.698558786 [   66.878024] reboot: Power down
rc 0
end 1796012007.867327291
done 1796012007.890319643
