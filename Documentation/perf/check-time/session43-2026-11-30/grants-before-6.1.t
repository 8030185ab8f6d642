lock 1796000591.323969954
stamp 1796000591.986403181 vm/run: tests/vm/client/grants.sh on 6.1.0-57-amd64 (log: build/vm/logs/client-grants-6.1.0-57-amd64.log)
stamp 1796000595.565640269 spare-guest: kernel 6.1.0-57-amd64, up 2.99 s
stamp 1796000595.578278368 spare-guest: running tests/vm/client/grants.sh at 3.01 s of uptime
stamp 1796000595.627555235 == grant key, host keys, two donors that lend only against grants [3.06s]
stamp 1796000598.004289355 == configfs: malformed, non-hex and expired grants and a bad placement are refused [5.44s]
stamp 1796000598.366536078 == a known grant id with a later expiry is a renewal, not a new entry [5.80s]
stamp 1796000598.851090832 == a full grant table: 1023 short grants and a long one fill it; a 1025th is refused [6.26s]
stamp 1796000601.153529185 == no grant, and a forged grant: the device does not start [8.59s]
stamp 1796000617.212145486 SPARE-EXIT: 1
stamp 1796000617.231961925 [   24.670555] reboot: Power down
rc 1
end 1796000617.311845151
start 1795999938.467038044
