start 1796036741.053657238
stamp 1796037190.833161998 vm/run: tests/vm/client/cutlink.sh on 6.1.192-spare-debug (log: build/vm/logs/client-cutlink-6.1.192-spare-debug.log)
stamp 1796037195.153248991 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796037195.165833678 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796037195.177981508 [    0.000000] BIOS-provided physical RAM map:
stamp 1796037195.189637096 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796037195.204315628 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796037195.217426511 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796037195.234121850 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796037195.251004595 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796037195.265000454 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796037195.279206050 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796037195.290121757 [    0.000000] NX (Execute Disable) protection: active
stamp 1796037195.301877214 [    0.000000] SMBIOS 2.8 present.
stamp 1796037195.312634361 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796037195.326484033 [    0.000000] tsc: Fast TSC calibration using PIT
stamp 1796037195.343285393 [    0.000000] tsc: Detected 2096.012 MHz processor
stamp 1796037195.359636772 [    0.009719] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796037195.373485483 [    0.010985] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796037195.389284405 [    0.021817] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796037195.402553768 [    0.024404] Using GB pages for direct mapping
stamp 1796037195.416639608 [    0.032434] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796037195.430999245 [    0.034296] ACPI: Early table checksum verification disabled
stamp 1796037195.447170753 [    0.035002] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796037195.464028761 [    0.035668] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.480656302 [    0.036827] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.498345785 [    0.038294] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.518641692 [    0.038517] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796037195.549498354 [    0.038663] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.566144009 [    0.038711] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.584132337 [    0.038762] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037195.601032194 [    0.038965] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796037195.647996443 [    0.039039] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796037195.678872442 [    0.039057] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796037195.693494967 [    0.039072] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796037195.709632701 [    0.039273] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796037195.757102998 [    0.039286] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796037195.775255046 [    0.043467] No NUMA configuration found
stamp 1796037195.792986798 [    0.043538] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796037195.807990906 [    0.044831] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796037195.832605109 [    0.047879] Zone ranges:
stamp 1796037195.845596335 [    0.047950]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796037195.861132190 [    0.048098]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796037195.873479277 [    0.048126]   Normal   empty
stamp 1796037195.888413914 [    0.048169] Movable zone start for each node
stamp 1796037195.902431153 [    0.048201] Early memory node ranges
stamp 1796037195.919010263 [    0.048244]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796037195.945375751 [    0.048619]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796037195.964438313 [    0.049072] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796037195.979155277 [    0.051333] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796037196.004675836 [    0.052521] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796037196.024418916 [    0.178592] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796037196.037432104 [    0.721490] kasan: KernelAddressSanitizer initialized
stamp 1796037196.052669264 [    0.722910] ACPI: PM-Timer IO Port: 0x608
stamp 1796037196.067272021 [    0.724248] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796037196.089107413 [    0.725604] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796037196.136984441 [    0.726010] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796037196.154995411 [    0.726696] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796037196.187724157 [    0.726806] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796037196.211567921 [    0.727014] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796037196.233647666 [    0.727040] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796037196.248470160 [    0.727437] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796037196.262495224 [    0.727680] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796037196.299075974 [    0.728448] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796037196.320530274 [    0.730343] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796037196.343446562 [    0.730825] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796037196.354416501 [    0.748458] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796037196.365894844 [    0.751104] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796037196.376503289 [    0.757821] Fallback order for Node 0: 0 
stamp 1796037196.388584833 [    0.758290] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796037196.396829123 [    0.758379] Policy zone: DMA32
stamp 1796037196.404026620 [    0.758970] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796037196.412992044 [    0.760858] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796037196.419689064 [    0.762017] random: crng init done
stamp 1796037196.430340771 [    0.763395] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796037196.441946825 [    0.764091] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796037196.454951739 [    0.766441] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796037196.469149079 [    0.768697] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796037196.485000200 [    2.701125] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796037196.501448802 [    2.709915] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796037196.523627454 [    2.744457] Dynamic Preempt: voluntary
stamp 1796037196.543654793 [    2.753777] Running RCU self tests
stamp 1796037196.620122602 [    2.754854] rcu: Preemptible hierarchical RCU implementation.
stamp 1796037196.742740628 [    2.754945] rcu: 	RCU event tracing is enabled.
stamp 1796037196.808853943 [    2.754964] rcu: 	RCU lockdep checking is enabled.
stamp 1796037196.833065754 [    2.755008] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796037196.847449337 [    2.755080] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796037196.871051904 [    2.755258] 	Trampoline variant of Tasks RCU enabled.
stamp 1796037196.888917350 [    2.755422] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796037196.903558801 [    2.755490] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796037196.917860048 [    2.798447] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796037196.934723206 [    2.822417] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796037196.949269376 [    2.838984] Console: colour VGA+ 80x25
stamp 1796037196.965151557 [    2.883077] printk: console [ttyS0] enabled
stamp 1796037196.981691041 [    2.887869] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796037196.997283383 [    2.888324] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796037197.010302552 [    2.888526] ... MAX_LOCK_DEPTH:          48
stamp 1796037197.026288369 [    2.888747] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796037197.040806647 [    2.888929] ... CLASSHASH_SIZE:          4096
stamp 1796037197.054850146 [    2.889186] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796037197.100972220 [    2.889392] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796037197.140714015 [    2.889650] ... CHAINHASH_SIZE:          32768
stamp 1796037197.182430218 [    2.889864]  memory used by lock dependency info: 6493 kB
stamp 1796037197.212409548 [    2.890152]  memory used for stack traces: 4224 kB
stamp 1796037197.246981354 [    2.890495]  per task-struct memory footprint: 1920 bytes
stamp 1796037197.275326622 [    2.896086] ACPI: Core revision 20220331
stamp 1796037197.307344362 [    2.914924] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796037197.326723523 [    2.935977] APIC: Switch to symmetric I/O mode setup
stamp 1796037197.344607293 [    2.953645] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796037197.361418632 [    2.959224] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796037197.374680621 [    2.962180] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.02 BogoMIPS (lpj=2096012)
stamp 1796037197.386701401 [    2.973619] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796037197.403029446 [    2.979712] process: using AMD E400 aware idle routine
stamp 1796037197.418934840 [    2.981544] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796037197.433490999 [    2.982180] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796037197.447418518 [    2.987314] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796037197.461068522 [    2.989272] Spectre V2 : Mitigation: Retpolines
stamp 1796037197.475042270 [    2.989699] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796037197.491463521 [    3.003387] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796037197.506705809 [    3.008720] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796037197.518901269 [    3.009295] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796037197.530658820 [    3.009825] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796037197.545394149 [    3.010625] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796037197.562640643 [    3.011180] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796037197.575718203 [    3.011180] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796037197.595429432 [    3.012427] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796037197.612718236 [    3.013131] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796037197.625863084 [    3.014262] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796037197.641511882 [    3.014825] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796037197.654290977 [    3.241977] Freeing SMP alternatives memory: 24K
stamp 1796037197.673620674 [    3.243336] pid_max: default: 32768 minimum: 301
stamp 1796037197.712994332 [    3.284641] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796037197.769067457 [    3.286472] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796037197.790984303 [    3.498593] APIC calibration not consistent with PM-Timer: 106ms instead of 100ms
stamp 1796037197.811521217 [    3.499180] APIC delta adjusted to PM-Timer: 6250190 (6636774)
stamp 1796037197.867929156 [    3.500180] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796037197.883542787 [    3.547232] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796037197.902088200 [    3.550342] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796037197.919302623 [    3.554499] Running RCU-tasks wait API self tests
stamp 1796037197.944051521 [    3.684294] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796037197.962557398 [    3.694915] signal: max sigframe size: 3232
stamp 1796037197.981719939 [    3.706511] rcu: Hierarchical SRCU implementation.
stamp 1796037198.002852921 [    3.707322] rcu: 	Max phase no-delay instances is 400.
stamp 1796037198.015573195 [    3.731394] smp: Bringing up secondary CPUs ...
stamp 1796037198.029371400 [    3.758965] x86: Booting SMP configuration:
stamp 1796037198.044002390 [    3.760072] .... node  #0, CPUs:      #1
stamp 1796037198.057652665 [    0.115277] calibrate_delay_direct() dropping max bogoMips estimate 3 = 7743078
stamp 1796037198.070741547 [    0.115277] calibrate_delay_direct() dropping max bogoMips estimate 4 = 7169639
stamp 1796037198.089753092 [    3.868180] Callback from call_rcu_tasks() invoked.
stamp 1796037198.110349117 [    3.903204] smp: Brought up 1 node, 2 CPUs
stamp 1796037198.136311983 [    3.904240] smpboot: Max logical packages: 1
stamp 1796037198.152003142 [    3.904877] smpboot: Total of 2 processors activated (12998.47 BogoMIPS)
stamp 1796037198.167457672 [    4.004509] devtmpfs: initialized
stamp 1796037198.187482677 [    4.080483] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796037198.205318746 [    4.083037] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796037198.224640429 [    4.144657] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796037198.237484577 [    4.206766] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796037198.251877017 [    4.207387] thermal_sys: Registered thermal governor 'user_space'
stamp 1796037198.265739092 [    4.211823] cpuidle: using governor menu
stamp 1796037198.279957151 [    4.242180] PCI: Using configuration type 1 for base access
stamp 1796037198.293928775 [    4.264372] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796037198.307043054 [    4.266411] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796037198.337618103 [    4.267239] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796037198.371309111 [    4.267602] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796037198.384430554 [    4.268237] mtrr: corrected configuration.
stamp 1796037198.397001285 [    4.546689] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796037198.439222133 [    4.547359] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796037198.471375811 [    4.695524] ACPI: Added _OSI(Module Device)
stamp 1796037198.487512012 [    4.696180] ACPI: Added _OSI(Processor Device)
stamp 1796037198.499531589 [    4.696180] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796037198.802112445 [    5.000956] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796037198.966490057 [    5.130807] ACPI: Interpreter enabled
stamp 1796037198.985497745 [    5.137788] ACPI: PM: (supports S0 S5)
stamp 1796037199.003906319 [    5.139777] ACPI: Using IOAPIC for interrupt routing
stamp 1796037199.026001041 [    5.148679] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796037199.039368450 [    5.150421] PCI: Using E820 reservations for host bridge windows
stamp 1796037199.051843400 [    5.173180] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796037199.648369001 [    5.719209] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796037199.661463122 [    5.721180] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796037199.675019880 [    5.722442] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796037199.689036118 [    5.731884] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796037199.703024512 [    5.771343] PCI host bridge to bus 0000:00
stamp 1796037199.717000183 [    5.772180] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796037199.733843723 [    5.772180] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796037199.747958587 [    5.772180] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796037199.760982065 [    5.772180] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796037199.785627948 [    5.772180] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796037199.849949510 [    5.773382] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796037199.875396009 [    5.788670] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796037200.048965584 [    5.967966] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796037200.151338319 [    6.061635] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796037200.217962512 [    6.070902] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796037200.236840504 [    6.072180] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796037200.256669256 [    6.072180] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796037200.271147509 [    6.073274] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796037200.298523089 [    6.073795] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796037200.331645160 [    6.081562] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796037200.354527865 [    6.084180] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796037200.372189324 [    6.085365] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796037200.391169210 [    6.089073] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796037200.417052224 [    6.090180] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796037200.434575943 [    6.093180] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796037200.455619725 [    6.094180] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796037200.474436021 [    6.095456] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796037200.495040132 [    6.251655] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796037200.516099093 [    6.266485] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796037200.535628108 [    6.277578] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796037200.558005186 [    6.288928] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796037200.581931796 [    6.294859] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796037200.605598536 [    6.342995] iommu: Default domain type: Translated 
stamp 1796037200.629037995 [    6.344192] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796037200.649402180 [    6.362555] pps_core: LinuxPPS API ver. 1 registered
stamp 1796037200.675981744 [    6.362983] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796037200.694595597 [    6.365624] PTP clock support registered
stamp 1796037200.726426433 [    6.420153] PCI: Using ACPI for IRQ routing
stamp 1796037200.769856480 [    6.446180] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796037200.788714295 [    6.446180] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796037200.820670338 [    6.446180] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796037200.853064461 [    6.446180] vgaarb: loaded
stamp 1796037200.897775874 [    6.448113] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796037200.921184485 [    6.449780] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796037200.941175464 [    6.462835] clocksource: Switched to clocksource hpet
stamp 1796037200.977202395 [    6.631195] pnp: PnP ACPI init
stamp 1796037201.217032925 [    6.850453] pnp: PnP ACPI: found 6 devices
stamp 1796037202.013836409 [    7.648239] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796037202.031560457 [    7.683209] NET: Registered PF_INET protocol family
stamp 1796037202.085716432 [    7.750975] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796037202.187203490 [    7.851003] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796037202.202285877 [    7.853763] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796037202.248232108 [    7.866352] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796037202.267733872 [    7.929564] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796037202.373132396 [    8.035206] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796037202.399844290 [    8.061583] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796037202.451621041 [    8.093457] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796037202.493327015 [    8.159068] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796037202.512109576 [    8.177353] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796037202.532215333 [    8.179242] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796037202.548458146 [    8.179555] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796037202.560983451 [    8.179555] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796037202.577184775 [    8.179555] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796037202.590364038 [    8.196853] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796037202.606353011 [    8.197463] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796037202.620067847 [    8.197463] PCI: CLS 0 bytes, default 64
stamp 1796037202.661561399 [    8.324305] Trying to unpack rootfs image as initramfs...
stamp 1796037202.791547185 [    8.457817] Initialise system trusted keyrings
stamp 1796037202.815391871 [    8.482088] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796037203.652124825 [    9.317287] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796037203.753975542 [    9.418520] Key type asymmetric registered
stamp 1796037203.769933556 [    9.419420] Asymmetric key parser 'x509' registered
stamp 1796037203.786172422 [    9.430674] io scheduler mq-deadline registered
stamp 1796037203.803783856 [    9.431269] io scheduler kyber registered
stamp 1796037203.845687864 [    9.509934] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796037203.869684518 [    9.510580] ACPI: button: Power Button [PWRF]
stamp 1796037203.970111529 [    9.633114] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796037204.000377493 [    9.664110] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796037204.181991780 [    9.848005] Non-volatile memory driver v1.3
stamp 1796037204.250675791 [    9.906247] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796037204.301353902 [    9.956249] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796037204.315278516 [    9.958394] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796037204.327856029 [    9.969443] rtc_cmos 00:05: RTC can wake from S4
stamp 1796037204.366776278 [   10.031860] rtc_cmos 00:05: registered as rtc0
stamp 1796037204.385187317 [   10.051574] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796037204.436925844 [   10.101868] NET: Registered PF_INET6 protocol family
stamp 1796037204.632385165 [   10.274141] Segment Routing with IPv6
stamp 1796037204.657119024 [   10.280344] In-situ OAM (IOAM) with IPv6
stamp 1796037204.675227760 [   10.312167] NET: Registered PF_PACKET protocol family
stamp 1796037204.689959913 [   10.324903] Key type dns_resolver registered
stamp 1796037204.707927501 [   10.324903] IPI shorthand broadcast: enabled
stamp 1796037204.722935316 [   10.381962] registered taskstats version 1
stamp 1796037204.754911428 [   10.384022] Loading compiled-in X.509 certificates
stamp 1796037204.985182107 [   10.648220] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796037205.051076556 [   10.717546] Unstable clock detected, switching default tracing clock to "global"
stamp 1796037205.064282981 [   10.717546] If you want to keep using the local clock, then add:
stamp 1796037205.079866596 [   10.717546]   "trace_clock=local"
stamp 1796037205.094191879 [   10.717546] on the kernel command line
stamp 1796037207.813084849 [   13.455326] Freeing initrd memory: 44948K
stamp 1796037208.654898672 [   14.282631] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796037208.753319376 [   14.292700] Write protecting the kernel read-only data: 32768k
stamp 1796037208.797755929 [   14.318893] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796037208.830811554 [   14.331712] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796037208.901888176 [   14.554539] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796037208.951658568 [   14.558952] Run /init as init process
stamp 1796037209.979957731 [   15.589622] mount (66) used greatest stack depth: 27696 bytes left
stamp 1796037211.970215061 spare-guest: kernel 6.1.192-spare-debug, up 17.44 s
stamp 1796037212.059374980 spare-guest: running tests/vm/client/cutlink.sh at 17.54 s of uptime
stamp 1796037212.559254218 == two donors, 2 copies per slab, swap on [18.06s]
stamp 1796037259.110587181 PASS: swapping on spare0
stamp 1796037259.325951268 == workload swapping; cut 10.0.0.2 for 10 s [64.75s]
stamp 1796037289.357219774 workload swapped out 3134 pages
stamp 1796037326.024705372 		ip daddr 10.0.0.2 udp dport 4791 counter packets 918 bytes 3685328 drop
stamp 1796037326.050015302 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796037329.827125329 Terminated
stamp 1796037330.170197870 io_stat:    2 620 572 0 0 0 1 1 0 34344960 31211520 1986 0 0 0 0
stamp 1796037330.515050441 slab_stat:  1 4 24 2 5 3 0 0 0 20480
stamp 1796037330.529141580 donor_stat:
stamp 1796037331.036187297 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 4 5284 0
stamp 1796037331.057653449 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037331.605352786 PASS: cut noticed, link healed
stamp 1796037331.997658852 == the workload finishes; donor 2 reconnects and its copies are mapped again [137.48s]
stamp 1796037373.123423377 spare-memtest: 8192 pages x 1 passes in 107.90 s, 0 bad pages
stamp 1796037373.343369939 pswpout +8857, pswpin +8265
stamp 1796037373.495115955 io_stat:    2 1622 676 0 0 0 1 1 0 64139264 36282368 1986 2432 0 0 0
stamp 1796037373.657690853 slab_stat:  1 4 24 2 8 0 0 0 0 32768
stamp 1796037373.704908933 donor_stat:
stamp 1796037373.778563516 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 4 5284 0
stamp 1796037373.809958477 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037374.303471842 redrives 1, failovers 1
stamp 1796037374.637979867 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796037374.723415756 == teardown [180.21s]
stamp 1796037379.311956722 PASS: clean teardown
stamp 1796037380.805623542 SPARE-EXIT: 0
stamp 1796037381.185336064 [  186.822251] reboot: Power down
rc 0
end 1796037381.468044726
