start 1796036220.856827251
stamp 1796036330.721564643 vm/run: tests/vm/client/killdonor.sh on 6.1.192-spare-debug (log: build/vm/logs/client-killdonor@kmod-6.1.192-spare-debug.log)
stamp 1796036344.785527962 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796036344.805586569 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796036344.821239565 [    0.000000] BIOS-provided physical RAM map:
stamp 1796036344.857176165 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796036344.894524037 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796036344.918531792 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796036344.957239168 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796036345.014074036 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796036345.048974103 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796036345.095879581 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796036345.155246652 [    0.000000] NX (Execute Disable) protection: active
stamp 1796036345.203023810 [    0.000000] SMBIOS 2.8 present.
stamp 1796036345.244431118 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796036345.309585377 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796036345.351641483 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796036345.396271192 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796036345.438245774 [    0.000000] Using GB pages for direct mapping
stamp 1796036345.461590734 [    0.000000] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796036345.494147564 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796036345.529819984 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796036345.564438739 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.593811481 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.638282530 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.668803978 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796036345.692764492 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.726439591 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.756134864 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036345.785055811 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796036345.828439461 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796036345.856284400 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796036345.886258501 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796036345.916457418 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796036345.957401449 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796036345.990755669 [    0.000000] No NUMA configuration found
stamp 1796036346.025585714 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796036346.062626304 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796036346.169764543 [    0.000000] Zone ranges:
stamp 1796036346.277777227 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796036346.342203066 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796036346.387329546 [    0.000000]   Normal   empty
stamp 1796036346.421854052 [    0.000000] Movable zone start for each node
stamp 1796036346.507387776 [    0.000000] Early memory node ranges
stamp 1796036346.663036551 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796036346.792067740 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796036346.850718966 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796036346.925980882 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796036347.042845476 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796036347.139615664 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796036347.208685997 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796036347.305473187 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796036347.367182053 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796036347.413757165 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796036347.553286100 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796036347.704400950 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796036347.831384753 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796036347.926493857 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796036347.960456108 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796036348.011432283 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796036348.092331903 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796036348.176199602 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796036348.230385264 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796036348.287275787 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796036348.375390136 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796036348.425685914 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796036348.463068541 [    0.000000] Fallback order for Node 0: 0 
stamp 1796036348.489710073 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796036348.514389439 [    0.000000] Policy zone: DMA32
stamp 1796036348.529551034 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796036348.544220118 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796036348.557616291 [    0.000000] random: crng init done
stamp 1796036348.570470138 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796036348.583499848 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796036348.596616883 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796036348.610619374 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796036348.624269739 [    0.000000] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796036348.659333937 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796036348.674422003 [    0.000000] Dynamic Preempt: voluntary
stamp 1796036348.687144712 [    0.000000] Running RCU self tests
stamp 1796036348.700041560 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796036348.711802657 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796036348.725548343 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796036348.756163788 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796036348.781448170 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796036348.822495776 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796036348.857757509 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796036348.897156044 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796036348.936573203 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796036348.980636269 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796036349.021381965 [    0.000000] Console: colour VGA+ 80x25
stamp 1796036349.058384884 [    0.000000] printk: console [ttyS0] enabled
stamp 1796036349.098668614 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796036349.167105688 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796036349.230555109 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796036349.299995112 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796036349.361826079 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796036349.424035431 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796036349.483627379 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796036349.531268539 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796036349.646693167 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796036349.747653689 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796036349.873590409 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796036349.951330587 [    0.000000] ACPI: Core revision 20220331
stamp 1796036350.040374867 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796036350.154745359 [    0.011000] APIC: Switch to symmetric I/O mode setup
stamp 1796036350.244211879 [    0.031000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796036350.307800443 [    0.038000] tsc: Unable to calibrate against PIT
stamp 1796036350.418425433 [    0.038000] tsc: using HPET reference calibration
stamp 1796036350.472990453 [    0.039000] tsc: Detected 2096.271 MHz processor
stamp 1796036350.601578312 [    0.003936] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796036350.730916303 [    0.010005] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.54 BogoMIPS (lpj=2096271)
stamp 1796036350.847086632 [    0.029770] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796036350.974610718 [    0.040463] process: using AMD E400 aware idle routine
stamp 1796036351.067274050 [    0.042503] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796036351.115550954 [    0.043021] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796036351.159674695 [    0.050179] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796036351.215527443 [    0.052447] Spectre V2 : Mitigation: Retpolines
stamp 1796036351.264357505 [    0.053174] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796036351.353852749 [    0.074311] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796036351.427166777 [    0.087581] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796036351.447564897 [    0.088984] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796036351.461611512 [    0.089319] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796036351.476229469 [    0.090020] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796036351.491618655 [    0.091060] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796036351.508503664 [    0.092971] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796036351.526179390 [    0.094212] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796036351.542850044 [    0.095401] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796036351.569908063 [    0.095958] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796036351.594253738 [    0.097021] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796036351.639244741 [    0.408326] Freeing SMP alternatives memory: 24K
stamp 1796036351.659557500 [    0.410357] pid_max: default: 32768 minimum: 301
stamp 1796036351.731816861 [    0.465276] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036351.749401985 [    0.467064] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036351.768622937 [    0.737191] APIC calibration not consistent with PM-Timer: 132ms instead of 100ms
stamp 1796036351.803803465 [    0.737892] APIC delta adjusted to PM-Timer: 6250076 (8255946)
stamp 1796036351.855341504 [    0.740153] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796036351.932041462 [    0.825040] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796036352.046632882 [    0.827021] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796036352.078576001 [    0.833564] Running RCU-tasks wait API self tests
stamp 1796036352.184638002 [    0.873183] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796036352.241308789 [    0.888614] signal: max sigframe size: 3232
stamp 1796036352.282541566 [    0.902222] rcu: Hierarchical SRCU implementation.
stamp 1796036352.315052290 [    0.902734] rcu: 	Max phase no-delay instances is 400.
stamp 1796036352.358282178 [    0.941393] smp: Bringing up secondary CPUs ...
stamp 1796036352.402500238 [    0.989372] x86: Booting SMP configuration:
stamp 1796036352.457646688 [    0.991009] .... node  #0, CPUs:      #1
stamp 1796036352.524521304 [    0.996186] Callback from call_rcu_tasks() invoked.
stamp 1796036352.591528622 [    0.000000] calibrate_delay_direct() failed to get a good estimate for loops_per_jiffy.
stamp 1796036352.641450601 [    0.000000] Probably due to long platform interrupts. Consider using "lpj=" boot option.
stamp 1796036352.691711351 [    1.197892] smp: Brought up 1 node, 2 CPUs
stamp 1796036352.721951977 [    1.206023] smpboot: Max logical packages: 1
stamp 1796036352.771729021 [    1.209138] smpboot: Total of 2 processors activated (4192.81 BogoMIPS)
stamp 1796036352.822803792 [    1.416959] devtmpfs: initialized
stamp 1796036352.913406304 [    1.570934] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796036352.991734955 [    1.574088] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796036353.081274864 [    1.668462] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796036353.119837356 [    1.792372] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796036353.147576025 [    1.792942] thermal_sys: Registered thermal governor 'user_space'
stamp 1796036353.173581411 [    1.798418] cpuidle: using governor menu
stamp 1796036353.201847088 [    1.851974] PCI: Using configuration type 1 for base access
stamp 1796036353.268249640 [    1.889080] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796036353.333478389 [    1.889967] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796036353.396119049 [    1.891940] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796036353.443804945 [    1.892939] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796036353.497844400 [    1.894024] mtrr: corrected configuration.
stamp 1796036353.560036519 [    2.372354] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796036353.636068965 [    2.373967] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796036353.673596717 [    2.480021] ACPI: Added _OSI(Module Device)
stamp 1796036353.719630014 [    2.481044] ACPI: Added _OSI(Processor Device)
stamp 1796036353.812390590 [    2.481933] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796036353.891890099 [    2.775756] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796036353.918296195 [    2.932382] ACPI: Interpreter enabled
stamp 1796036353.980408174 [    2.935892] ACPI: PM: (supports S0 S5)
stamp 1796036354.056793116 [    2.935892] ACPI: Using IOAPIC for interrupt routing
stamp 1796036354.175604435 [    2.936892] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796036354.251219630 [    2.936892] PCI: Using E820 reservations for host bridge windows
stamp 1796036354.287108560 [    2.951892] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796036354.317859000 [    3.539471] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796036354.352333071 [    3.543473] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796036354.398268623 [    3.544524] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796036354.443107287 [    3.551573] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796036354.477588110 [    3.582509] PCI host bridge to bus 0000:00
stamp 1796036354.506908243 [    3.584166] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796036354.539214841 [    3.585018] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796036354.568313684 [    3.585589] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796036354.608070708 [    3.586927] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796036354.647115322 [    3.587387] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796036354.665660745 [    3.588521] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796036354.689680412 [    3.599591] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796036354.733563196 [    3.778077] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796036354.764695240 [    3.906750] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796036354.795557813 [    3.919527] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796036354.824651056 [    3.924657] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796036354.853803291 [    3.925977] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796036354.884776874 [    3.926989] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796036354.914606492 [    3.928002] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796036354.945753523 [    3.935667] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796036354.977013208 [    3.939282] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796036355.005784282 [    3.939975] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796036355.033349222 [    3.940892] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796036355.071612848 [    3.940892] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796036355.112284613 [    3.940892] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796036355.141762805 [    3.940892] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796036355.169669181 [    3.944327] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796036355.195974365 [    4.164020] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796036355.223419337 [    4.179446] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796036355.253240419 [    4.192892] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796036355.288936102 [    4.207057] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796036355.322471997 [    4.213600] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796036355.345592743 [    4.256371] iommu: Default domain type: Translated 
stamp 1796036355.371642103 [    4.256959] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796036355.403459032 [    4.279702] pps_core: LinuxPPS API ver. 1 registered
stamp 1796036355.441513182 [    4.280951] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796036355.484153184 [    4.281892] PTP clock support registered
stamp 1796036355.528815795 [    4.348892] PCI: Using ACPI for IRQ routing
stamp 1796036355.567720033 [    4.370892] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796036355.597635444 [    4.370892] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796036355.639527008 [    4.370892] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796036355.690567234 [    4.370997] vgaarb: loaded
stamp 1796036355.726186904 [    4.372148] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796036355.759816186 [    4.373008] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796036355.781449505 [    4.378959] clocksource: Switched to clocksource hpet
stamp 1796036355.809829858 [    4.498141] pnp: PnP ACPI init
stamp 1796036355.841926368 [    4.736849] pnp: PnP ACPI: found 6 devices
stamp 1796036355.911206157 [    5.220361] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796036355.947731833 [    5.242151] NET: Registered PF_INET protocol family
stamp 1796036355.986911272 [    5.296599] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796036356.076499322 [    5.383202] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796036356.119347238 [    5.392095] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796036356.193626182 [    5.409338] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796036356.246710218 [    5.536800] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796036356.351733943 [    5.622476] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796036356.397148678 [    5.703530] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036356.427660277 [    5.717795] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036356.457501456 [    5.751069] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796036356.492536699 [    5.761114] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796036356.523241444 [    5.764102] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796036356.559654867 [    5.766417] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796036356.604957440 [    5.768533] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796036356.694776727 [    5.772052] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796036356.781259688 [    5.782214] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796036356.851962131 [    5.786094] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796036356.901091500 [    5.788728] PCI: CLS 0 bytes, default 64
stamp 1796036356.951406613 [    5.882553] Trying to unpack rootfs image as initramfs...
stamp 1796036356.994389514 [    6.104628] Initialise system trusted keyrings
stamp 1796036357.057355650 [    6.346897] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796036358.841735295 [    8.114392] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796036359.192170937 [    8.502705] Key type asymmetric registered
stamp 1796036359.217374175 [    8.509843] Asymmetric key parser 'x509' registered
stamp 1796036359.277647172 [    8.534770] io scheduler mq-deadline registered
stamp 1796036359.345164304 [    8.541721] io scheduler kyber registered
stamp 1796036359.455941963 [    8.632470] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796036359.499273113 [    8.642209] ACPI: button: Power Button [PWRF]
stamp 1796036359.556804269 [    8.822556] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796036359.598821622 [    8.860198] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796036359.686740311 [    8.958205] Non-volatile memory driver v1.3
stamp 1796036359.762271236 [    9.022508] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796036359.827340153 [    9.052066] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796036359.951983665 [    9.056789] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796036360.034733048 [    9.072525] rtc_cmos 00:05: RTC can wake from S4
stamp 1796036360.057580756 [    9.131313] rtc_cmos 00:05: registered as rtc0
stamp 1796036360.136290559 [    9.145645] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796036360.189014423 [    9.271528] NET: Registered PF_INET6 protocol family
stamp 1796036360.286298254 [    9.589877] Segment Routing with IPv6
stamp 1796036360.325053951 [    9.605706] In-situ OAM (IOAM) with IPv6
stamp 1796036360.349757133 [    9.615629] NET: Registered PF_PACKET protocol family
stamp 1796036360.380121312 [    9.618928] Key type dns_resolver registered
stamp 1796036360.403695557 [    9.622656] IPI shorthand broadcast: enabled
stamp 1796036360.425479321 [    9.682480] registered taskstats version 1
stamp 1796036360.449885750 [    9.682991] Loading compiled-in X.509 certificates
stamp 1796036361.189768123 [   10.494368] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796036361.365509731 [   10.612876] Unstable clock detected, switching default tracing clock to "global"
stamp 1796036361.425262443 [   10.612876] If you want to keep using the local clock, then add:
stamp 1796036361.515357443 [   10.612876]   "trace_clock=local"
stamp 1796036361.603447767 [   10.612876] on the kernel command line
stamp 1796036363.651295024 [   12.914884] hrtimer: interrupt took 4034180 ns
stamp 1796036364.105597651 [   13.415784] Freeing initrd memory: 44948K
stamp 1796036364.847344324 [   14.111183] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796036364.921818228 [   14.122102] Write protecting the kernel read-only data: 32768k
stamp 1796036365.017310537 [   14.147560] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796036365.066763798 [   14.161812] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796036365.113320466 [   14.415685] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796036365.148440249 [   14.416252] Run /init as init process
stamp 1796036365.525415949 [   14.824763] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796036368.228918821 spare-guest: kernel 6.1.192-spare-debug, up 15.97 s
stamp 1796036368.296821113 spare-guest: running tests/vm/client/killdonor.sh at 16.04 s of uptime
stamp 1796036368.340554255 client backend: kmod
stamp 1796036368.368356493 == two donors, 2 copies per slab, swap on [16.35s]
stamp 1796036410.658627066 PASS: swapping on spare0, 4 slabs x 2 copies
stamp 1796036410.770644392 == workload running; the donor on host 3 lost once 3000 pages went out [60.06s]
stamp 1796036440.935389344 workload swapped out 3121 pages
stamp 1796036455.424520226 io_stat:    2 3 426 0 0 0 0 0 0 12288 21131264 517 0 0 0 0
stamp 1796036455.717957812 slab_stat:  1 4 24 2 4 0 4 0 0 16326
stamp 1796036455.746667088 donor_stat:
stamp 1796036455.940519144 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036456.033518884 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796036456.249977772 PASS: donor 3 lost; 4 copies left on donor 2
stamp 1796036456.519154865 == the workload finishes on the surviving copies [105.74s]
stamp 1796036500.709921739 spare-memtest: 8192 pages x 1 passes in 85.57 s, 0 bad pages
stamp 1796036500.790009953 pswpout +8938, pswpin +8256
stamp 1796036500.831735553 io_stat:    2 1192 739 0 0 0 0 0 0 33824768 36614144 517 0 0 0 0
stamp 1796036500.889139188 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796036500.926826242 donor_stat:
stamp 1796036500.986428779 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036501.032089290 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796036501.057344337 PASS: every page verified after the kill; 1189 reads from the survivors; uevent seen
stamp 1796036501.109735170 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [149.78s]
stamp 1796036513.151412787 io_stat:    2 1192 739 0 0 0 0 0 0 33824768 36614144 517 0 0 0 0
stamp 1796036513.369238484 slab_stat:  1 4 24 2 8 0 0 0 0 23833
stamp 1796036513.402422382 donor_stat:
stamp 1796036513.880150721 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036513.927003699 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796036514.865365911 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796036515.082593426 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [164.35s]
stamp 1796036572.160362961 workload swapped out 3106 pages
stamp 1796036606.112090152     donor 3's copies looked at 29.8 s after its kill, past the delay: the module's down time decides
stamp 1796036625.600975074     [  251.082585] spare: donor 10.0.0.3:18515: down 5 s: 4 slab copies re-homed to other donors; resync refills them
stamp 1796036664.488273527     copies on donor 4: 4
stamp 1796036664.584098746     re-homed 17 s after the loss was noticed
stamp 1796036664.681340778 PASS: donor 3 down 5 s: its 4 copies mapped on donor 4 and refilled
stamp 1796036664.774604958 == donor 2 killed: the job reads every page back from donor 4 alone [314.07s]
stamp 1796036696.725802340 spare-memtest: the last pass cut at page 384 of 8192 (-c)
stamp 1796036696.801250999 spare-memtest: 8192 pages x 2 passes in 165.80 s, 0 bad pages
stamp 1796036696.957176458 pswpout +9207, pswpin +8256
stamp 1796036697.205862293 PASS: every page verified from donor 4 alone (7879 pages read back, 6144 or more wanted)
stamp 1796036697.929849993 == the data is still all there (read back through swapoff) [346.87s]
stamp 1796036702.425368157 PASS: clean teardown
stamp 1796036703.175709673 SPARE-EXIT: 0
stamp 1796036703.383936366 [  352.686385] reboot: Power down
rc 0
end 1796036704.188579123
