lock 1795999003.249575955
stamp 1795999003.820795835 vm/run: tests/vm/client/auth.sh on 6.12.117+deb12-amd64 (log: build/vm/logs/client-auth-6.12.117+deb12-amd64.log)
stamp 1795999008.128963321 spare-guest: kernel 6.12.117+deb12-amd64, up 3.71 s
stamp 1795999008.141071756 spare-guest: running tests/vm/client/auth.sh at 3.72 s of uptime
stamp 1795999008.191949846 == keys and donors: 10.0.0.2 with host-keys, 10.0.0.3 open [3.78s]
stamp 1795999010.944776604 == malformed host-keys: spared refuses to start and says why [6.54s]
stamp 1795999011.269265089 == key files: readable by others refused at start with the fix; gen-key writes 0600; --check reads host-keys [6.86s]
stamp 1795999012.036537320 == configfs key: malformed secrets refused with a reason, never shown [7.63s]
stamp 1795999012.733130864 == device A (key KA) authenticates to donor 2 and swaps [8.31s]
stamp 1795999018.301088042 == while A swaps: B (unknown key), C (no key), D (key, open donor) powered at once [13.88s]
stamp 1795999018.977505726 == B: wrong key: one line per attempt on donor 2, 'refused our key' on the client [14.55s]
stamp 1795999019.334229954 == C: no key: AUTH_REQUIRED, a clear line on both sides [14.92s]
stamp 1795999019.431230028 == D: a client with a key uses nothing from the open donor 3 [15.00s]
stamp 1795999019.690635638 == E: a valid key bound by addr= to another host is refused where it connects from [15.25s]
stamp 1795999019.962823491 == open mode: a keyless device uses the open donor [15.53s]
stamp 1795999023.627677561 == A's workload verifies every page [19.22s]
stamp 1795999028.789463742 == no secret in any log [24.38s]
stamp 1795999028.912952938 == teardown [24.50s]
stamp 1795999029.438544478 SPARE-EXIT: 0
stamp 1795999029.453022400 [   25.069116] reboot: Power down
rc 0
end 1795999029.579999049
start 1795998658.717117079
