lock 1795999909.864535247
stamp 1795999910.592446435 vm/run: tests/vm/client/auth.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-auth-6.1.0-57-amd64.log)
stamp 1795999914.815420552 spare-guest: kernel 6.1.0-57-amd64, up 3.19 s
stamp 1795999914.827342695 spare-guest: running tests/vm/client/auth.sh at 3.21 s of uptime
stamp 1795999914.884695704 == keys and donors: 10.0.0.2 with host-keys, 10.0.0.3 open [3.27s]
stamp 1795999917.069072667 == malformed host-keys: spared refuses to start and says why [5.45s]
stamp 1795999917.236528106 == key files: readable by others refused at start with the fix; gen-key writes 0600; --check reads host-keys [5.62s]
stamp 1795999917.825836212 == configfs key: malformed secrets refused with a reason, never shown [6.21s]
stamp 1795999918.360735194 == device A (key KA) authenticates to donor 2 and swaps [6.74s]
stamp 1795999923.772440656 == while A swaps: B (unknown key), C (no key), D (key, open donor) powered at once [12.15s]
stamp 1795999924.420084932 == B: wrong key: one line per attempt on donor 2, 'refused our key' on the client [12.79s]
stamp 1795999924.877359615 == C: no key: AUTH_REQUIRED, a clear line on both sides [13.24s]
stamp 1795999925.005389569 == D: a client with a key uses nothing from the open donor 3 [13.38s]
stamp 1795999925.439561531 == E: a valid key bound by addr= to another host is refused where it connects from [13.81s]
stamp 1795999925.785310890 == open mode: a keyless device uses the open donor [14.15s]
stamp 1795999930.212914809 == A's workload verifies every page [18.58s]
stamp 1795999937.421449487 == no secret in any log [25.80s]
stamp 1795999937.551460792 == teardown [25.93s]
stamp 1795999938.225072433 SPARE-EXIT: 0
stamp 1795999938.244010399 [   26.606085] reboot: Power down
rc 0
end 1795999938.370673634
start 1795999029.645624600
