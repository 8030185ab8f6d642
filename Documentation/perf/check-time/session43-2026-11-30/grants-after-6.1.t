lock 1795998613.038803312
stamp 1795998613.691212711 vm/run: tests/vm/client/grants.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-grants-6.1.0-57-amd64.log)
stamp 1795998617.805173579 spare-guest: kernel 6.1.0-57-amd64, up 3.24 s
stamp 1795998617.834309503 spare-guest: running tests/vm/client/grants.sh at 3.25 s of uptime
stamp 1795998617.896977455 == grant key, host keys, two donors that lend only against grants [3.33s]
stamp 1795998620.328937686 == configfs: malformed, non-hex and expired grants and a bad placement are refused [5.77s]
stamp 1795998620.656037826 == a known grant id with a later expiry is a renewal, not a new entry [6.10s]
stamp 1795998621.041214854 == a full grant table: 1023 short grants and a long one fill it; a 1025th is refused [6.48s]
stamp 1795998623.294328108 == no grant, and a forged grant: the device does not start [8.73s]
stamp 1795998623.848004512 == placement, not round robin: 4 one-copy slabs all on donor 3, granted there only [9.28s]
stamp 1795998624.852814251 == a device placed by 'placement', its grants covering every copy, swaps [10.29s]
stamp 1795998630.508231561 == a grant written while powered reaches the live donors at once [15.95s]
stamp 1795998631.404042209 == a grant renewed while powered replaces it and reaches the live donor at once [16.84s]
stamp 1795998632.352748225 == the short grant expires; a copy donor 3 evicts is mapped again under its long grant [17.79s]
stamp 1795998651.852708667 == a full grant table drops its expired grants (renewal for a device's life) [37.29s]
stamp 1795998651.978916611 == donor 3 restarts with an empty ledger; the unexpired grants are sent again, copies refilled [37.42s]
stamp 1795998656.675496562 == teardown [42.11s]
stamp 1795998658.255093234 SPARE-EXIT: 0
stamp 1795998658.314216204 [   43.728538] reboot: Power down
rc 0
end 1795998658.581473331
start 1795998388.702152659
