lock 1796001116.384931123
stamp 1796001117.385901162 vm/run: tests/vm/client/auth.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-auth-6.12.117+deb12-amd64.log)
stamp 1796001123.302987328 spare-guest: kernel 6.12.117+deb12-amd64, up 4.89 s
stamp 1796001123.330564701 spare-guest: running tests/vm/client/auth.sh at 4.91 s of uptime
stamp 1796001123.390338643 == keys and donors: 10.0.0.2 with host-keys, 10.0.0.3 open [4.99s]
stamp 1796001126.695228240 == malformed host-keys: spared refuses to start and says why [8.29s]
stamp 1796001127.024203460 == key files: readable by others refused at start with the fix; gen-key writes 0600; --check reads host-keys [8.61s]
stamp 1796001127.698166186 == configfs key: malformed secrets refused with a reason, never shown [9.29s]
stamp 1796001128.461655566 == device A (key KA) authenticates to donor 2 and swaps [10.04s]
stamp 1796001134.404949792 == while A swaps: B (unknown key), C (no key), D (key, open donor) powered at once [16.01s]
stamp 1796001152.199621344 SPARE-EXIT: 1
stamp 1796001152.252366107 [   33.872657] reboot: Power down
rc 1
end 1796001152.743769157
start 1796001008.352476141
