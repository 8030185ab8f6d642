start 1796010903.692423462
lock 1796011113.279076866
stamp 1796011113.970267590 vm/run: tests/vm/client/integrity.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-integrity@ublk-6.12.117+deb12-amd64.log)
stamp 1796011119.725167212 spare-guest: kernel 6.12.117+deb12-amd64, up 5.05 s
stamp 1796011119.759233972 spare-guest: running tests/vm/client/integrity.sh at 5.07 s of uptime
stamp 1796011119.862551206 == soft-RoCE: the pager on 10.0.0.1, six donors on 10.0.0.2-7 [5.19s]
stamp 1796011125.557312627 == bad --integrity: refused with a reason [10.89s]
stamp 1796011125.672637746 == control: no --integrity, 1 copy: the corrupted data reaches the reader [11.00s]
stamp 1796011130.761209809 == crc32c, 2 copies: bad pages read from the other copy, the bad copy refilled [16.10s]
stamp 1796011141.278301597 == crc32c, 1 copy, no backup: an I/O error, never the bad data [26.60s]
stamp 1796011146.176274682 == crc32c, ec:4+2: split 0's donor corrupted: decoded around and rebuilt [31.50s]
stamp 1796011158.489733512 == ec:4+2: splits 1 and 2 corrupted too: only K good splits, split 0's rebuilt pages among them [43.82s]
stamp 1796011171.198597205 == teardown [56.53s]
stamp 1796011171.686251317 SPARE-EXIT: 0
stamp 1796011171.711261409 [   57.067875] reboot: Power down
rc 0
end 1796011172.348427437
done 1796011172.384072285
