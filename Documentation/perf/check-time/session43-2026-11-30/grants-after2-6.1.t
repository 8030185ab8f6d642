lock 1796000960.070552072
stamp 1796000960.776742346 vm/run: tests/vm/client/grants.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-grants-6.1.0-57-amd64.log)
stamp 1796000965.536331454 spare-guest: kernel 6.1.0-57-amd64, up 4.09 s
stamp 1796000965.557821922 spare-guest: running tests/vm/client/grants.sh at 4.11 s of uptime
stamp 1796000965.643202136 == grant key, host keys, two donors that lend only against grants [4.20s]
stamp 1796000969.019687107 == configfs: malformed, non-hex and expired grants and a bad placement are refused [7.58s]
stamp 1796000969.564059956 == a known grant id with a later expiry is a renewal, not a new entry [8.12s]
stamp 1796000970.107463690 == a full grant table: 1023 short grants and a long one fill it; a 1025th is refused [8.67s]
stamp 1796000973.074256488 == no grant, and a forged grant: the device does not start [11.63s]
stamp 1796000973.719654631 == placement, not round robin: 4 one-copy slabs all on donor 3, granted there only [12.28s]
stamp 1796000975.040998976 == a device placed by 'placement', its grants covering every copy, swaps [13.58s]
stamp 1796000983.403151397 == a grant written while powered reaches the live donors at once [21.96s]
stamp 1796000984.591264421 == a grant renewed while powered replaces it and reaches the live donor at once [23.15s]
stamp 1796000985.961842371 == the short grant expires; a copy donor 3 evicts is mapped again under its long grant [24.52s]
stamp 1796001004.192431571 == a full grant table drops its expired grants (renewal for a device's life) [42.75s]
stamp 1796001004.367766177 == donor 3 restarts with an empty ledger; the unexpired grants are sent again, copies refilled [42.93s]
stamp 1796001006.984536596 == teardown [45.55s]
stamp 1796001008.068143235 SPARE-EXIT: 0
stamp 1796001008.085782512 [   46.673422] reboot: Power down
rc 0
end 1796001008.247760831
start 1796000621.869151971
