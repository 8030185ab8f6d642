start 1796059450.660630050
stamp 1796059570.601987652 vm/run: tests/vm/client/zz-cl-A.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zz-cl-A-6.1.192-spare-debug.log)
stamp 1796059579.731700240 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796059579.767317575 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zz-cl-A.sh
stamp 1796059579.822340071 [    0.000000] BIOS-provided physical RAM map:
stamp 1796059579.877330816 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796059579.933789551 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796059579.977435067 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796059580.008596997 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796059580.069251446 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796059580.132568887 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796059580.189327790 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796059580.204645151 [    0.000000] NX (Execute Disable) protection: active
stamp 1796059580.219577864 [    0.000000] SMBIOS 2.8 present.
stamp 1796059580.267913770 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796059580.285884705 [    0.000000] tsc: Fast TSC calibration failed
stamp 1796059580.300751002 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796059580.316093170 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796059580.332681177 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796059580.347112059 [    0.000000] Using GB pages for direct mapping
stamp 1796059580.361710759 [    0.000000] RAMDISK: [mem 0xbd3f3000-0xbffdffff]
stamp 1796059580.431685975 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796059580.463708124 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796059580.505329747 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.525797711 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.591025328 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.674252044 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796059580.723290370 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.738419704 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.757092970 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059580.774013025 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796059580.795829992 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796059580.812645599 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796059580.828262497 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796059580.846613251 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796059580.862989748 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796059580.878752962 [    0.000000] No NUMA configuration found
stamp 1796059580.893737092 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796059580.909247619 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3ef000-0xbd3f2fff]
stamp 1796059580.922898725 [    0.000000] Zone ranges:
stamp 1796059580.937727881 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796059580.952128056 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796059580.966684897 [    0.000000]   Normal   empty
stamp 1796059580.979827400 [    0.000000] Movable zone start for each node
stamp 1796059580.994985589 [    0.000000] Early memory node ranges
stamp 1796059581.008396271 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796059581.023140987 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796059581.068793442 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796059581.099466757 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796059581.152074802 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796059581.194786178 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796059581.231676615 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796059581.295096519 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796059581.333113709 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796059581.389460472 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796059581.449083258 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796059581.508362523 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796059581.558752117 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796059581.610293552 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796059581.658914859 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796059581.701770569 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796059581.757461390 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796059581.813267129 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796059581.849566896 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796059581.886821161 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796059581.900643541 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796059581.921744112 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796059581.959632327 [    0.000000] Fallback order for Node 0: 0 
stamp 1796059582.004000250 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796059582.055406790 [    0.000000] Policy zone: DMA32
stamp 1796059582.101149877 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zz-cl-A.sh
stamp 1796059582.139449792 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796059582.172161065 [    0.000000] random: crng init done
stamp 1796059582.202886018 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796059582.242451778 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796059582.276651089 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796059582.323717752 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796059582.369076601 [    0.000000] Memory: 2575108K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569844K reserved, 0K cma-reserved)
stamp 1796059582.416034278 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796059582.430460842 [    0.000000] Dynamic Preempt: voluntary
stamp 1796059582.460848777 [    0.000000] Running RCU self tests
stamp 1796059582.516156503 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796059582.533166929 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796059582.584265997 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796059582.637756172 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796059582.688922306 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796059582.762513238 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796059582.795082853 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796059582.827486103 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796059582.842744673 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796059582.873779262 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796059582.937611026 [    0.000000] Console: colour VGA+ 80x25
stamp 1796059583.017170900 [    0.000000] printk: console [ttyS0] enabled
stamp 1796059583.061122044 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796059583.078111040 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796059583.148807872 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796059583.165380140 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796059583.183033713 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796059583.200157986 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796059583.215198142 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796059583.231129605 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796059583.246260503 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796059583.260881004 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796059583.275960685 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796059583.292997903 [    0.000000] ACPI: Core revision 20220331
stamp 1796059583.308991624 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796059583.325935294 [    0.009000] APIC: Switch to symmetric I/O mode setup
stamp 1796059583.345296952 [    0.018000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796059583.407793208 [    0.024000] tsc: Unable to calibrate against PIT
stamp 1796059583.474414474 [    0.026000] tsc: using HPET reference calibration
stamp 1796059583.545186229 [    0.027000] tsc: Detected 2096.022 MHz processor
stamp 1796059583.619195924 [    0.001885] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796059583.691970761 [    0.004983] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.04 BogoMIPS (lpj=2096022)
stamp 1796059583.771472755 [    0.021983] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796059583.817011695 [    0.040077] process: using AMD E400 aware idle routine
stamp 1796059583.859339365 [    0.040983] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796059583.909147589 [    0.040983] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796059583.951777982 [    0.049582] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796059584.007475767 [    0.051965] Spectre V2 : Mitigation: Retpolines
stamp 1796059584.066948799 [    0.053114] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796059584.117112266 [    0.064983] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796059584.237795268 [    0.070427] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796059584.324851835 [    0.071017] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796059584.359746553 [    0.071277] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796059584.391075900 [    0.071691] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796059584.420695319 [    0.072091] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796059584.494205759 [    0.073045] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796059584.551433350 [    0.073445] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796059584.610930277 [    0.073748] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796059584.663852737 [    0.074026] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796059584.716399356 [    0.074308] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796059584.789694989 [    0.267743] Freeing SMP alternatives memory: 24K
stamp 1796059584.832216546 [    0.269156] pid_max: default: 32768 minimum: 301
stamp 1796059584.875462014 [    0.299235] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796059584.932486270 [    0.300134] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796059584.969903313 [    0.526983] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796059585.008389680 [    0.571027] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796059585.039473763 [    0.571590] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796059585.082558727 [    0.571983] Running RCU-tasks wait API self tests
stamp 1796059585.119961974 [    0.709374] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796059585.166887480 [    0.717214] signal: max sigframe size: 3232
stamp 1796059585.194685039 [    0.723421] rcu: Hierarchical SRCU implementation.
stamp 1796059585.236341429 [    0.724053] rcu: 	Max phase no-delay instances is 400.
stamp 1796059585.282712275 [    0.742983] smp: Bringing up secondary CPUs ...
stamp 1796059585.326838821 [    0.771200] x86: Booting SMP configuration:
stamp 1796059585.369570546 [    0.772113] .... node  #0, CPUs:      #1
stamp 1796059585.437881311 [    0.000000] calibrate_delay_direct() dropping min bogoMips estimate 2 = 4207570
stamp 1796059585.482721088 [    0.887462] Callback from call_rcu_tasks() invoked.
stamp 1796059585.517125166 [    0.920761] smp: Brought up 1 node, 2 CPUs
stamp 1796059585.552409181 [    0.921451] smpboot: Max logical packages: 1
stamp 1796059585.593841005 [    0.922093] smpboot: Total of 2 processors activated (14213.46 BogoMIPS)
stamp 1796059585.635830435 [    1.044116] devtmpfs: initialized
stamp 1796059585.676643758 [    1.164061] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796059585.716520628 [    1.170473] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796059585.749859009 [    1.264727] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796059585.785871082 [    1.364349] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796059585.843655557 [    1.364544] thermal_sys: Registered thermal governor 'user_space'
stamp 1796059585.889321738 [    1.368422] cpuidle: using governor menu
stamp 1796059585.934989502 [    1.396122] PCI: Using configuration type 1 for base access
stamp 1796059585.978839886 [    1.410719] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796059586.023816853 [    1.414102] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796059586.078346716 [    1.416029] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796059586.112223215 [    1.417159] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796059586.155434118 [    1.418024] mtrr: corrected configuration.
stamp 1796059586.188860555 [    1.716350] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796059586.219187985 [    1.718028] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796059586.280847437 [    1.842453] ACPI: Added _OSI(Module Device)
stamp 1796059586.341935006 [    1.844061] ACPI: Added _OSI(Processor Device)
stamp 1796059586.430179773 [    1.846027] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796059586.453534761 [    2.172287] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796059586.549815934 [    2.338000] ACPI: Interpreter enabled
stamp 1796059586.609927215 [    2.343396] ACPI: PM: (supports S0 S5)
stamp 1796059586.679096986 [    2.345090] ACPI: Using IOAPIC for interrupt routing
stamp 1796059586.713895832 [    2.349251] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796059586.744182846 [    2.351069] PCI: Using E820 reservations for host bridge windows
stamp 1796059586.772379932 [    2.377983] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796059586.804753916 [    3.026796] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796059586.835787944 [    3.032664] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796059586.864695376 [    3.036263] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796059586.903145244 [    3.044614] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796059586.946514476 [    3.074014] PCI host bridge to bus 0000:00
stamp 1796059586.990447356 [    3.076395] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796059587.022785142 [    3.078125] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796059587.057416601 [    3.078125] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796059587.099448281 [    3.078680] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796059587.139140241 [    3.078983] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796059587.176142168 [    3.078983] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796059587.215451133 [    3.088033] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796059587.256498069 [    3.290332] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796059587.293469929 [    3.435772] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796059587.332143531 [    3.447292] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796059587.374542587 [    3.453533] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796059587.411637509 [    3.457141] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796059587.458001342 [    3.458092] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796059587.521170391 [    3.460308] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796059587.561289109 [    3.469194] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796059587.647185530 [    3.470983] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796059587.677146036 [    3.470983] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796059587.708201073 [    3.478317] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796059587.755643788 [    3.481052] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796059587.817429098 [    3.488056] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796059587.902911595 [    3.496055] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796059587.934450719 [    3.498539] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796059587.964665976 [    3.765230] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796059588.012743433 [    3.780775] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796059588.091560750 [    3.794783] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796059588.141848281 [    3.811106] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796059588.203489088 [    3.817882] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796059588.246833553 [    3.864814] iommu: Default domain type: Translated 
stamp 1796059588.288862929 [    3.866050] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796059588.361865768 [    3.882983] pps_core: LinuxPPS API ver. 1 registered
stamp 1796059588.395733621 [    3.883057] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796059588.471805090 [    3.884653] PTP clock support registered
stamp 1796059588.528510071 [    3.936099] PCI: Using ACPI for IRQ routing
stamp 1796059588.588827843 [    3.957983] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796059588.644676213 [    3.957983] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796059588.684225954 [    3.957983] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796059588.740122284 [    3.958080] vgaarb: loaded
stamp 1796059588.834745126 [    3.961797] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796059588.903354967 [    3.963083] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796059588.959096825 [    3.976689] clocksource: Switched to clocksource hpet
stamp 1796059588.984022498 [    4.047513] pnp: PnP ACPI init
stamp 1796059589.007094171 [    4.207545] pnp: PnP ACPI: found 6 devices
stamp 1796059589.029788398 [    4.827833] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796059589.072968462 [    4.842394] NET: Registered PF_INET protocol family
stamp 1796059589.122494482 [    4.880465] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796059589.179202278 [    4.963744] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796059589.226600759 [    4.971881] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796059589.271486323 [    4.983393] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796059589.334941184 [    5.023451] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796059589.392374635 [    5.094881] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796059589.482321053 [    5.118308] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796059589.545542433 [    5.128487] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796059589.619653699 [    5.182407] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796059589.696682531 [    5.239986] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796059589.767651198 [    5.244492] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796059589.831569197 [    5.246465] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796059589.929487157 [    5.248441] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796059590.078150106 [    5.250524] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796059590.117420448 [    5.264604] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796059590.165814864 [    5.278441] pci 0000:00:00.0: quirk_passive_release+0x0/0xd0 took 13703 usecs
stamp 1796059590.248249391 [    5.284372] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796059590.300706018 [    5.286665] PCI: CLS 0 bytes, default 64
stamp 1796059590.375858988 [    5.394473] Trying to unpack rootfs image as initramfs...
stamp 1796059590.429769188 [    5.469452] Initialise system trusted keyrings
stamp 1796059590.485785095 [    5.530630] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796059590.571372871 [    6.351912] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796059590.611885385 [    6.448141] Key type asymmetric registered
stamp 1796059590.648109148 [    6.454894] Asymmetric key parser 'x509' registered
stamp 1796059590.681401051 [    6.478610] io scheduler mq-deadline registered
stamp 1796059590.720307664 [    6.481298] io scheduler kyber registered
stamp 1796059590.778685733 [    6.548333] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796059590.833222590 [    6.569335] ACPI: button: Power Button [PWRF]
stamp 1796059590.910587959 [    6.643677] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796059590.962601768 [    6.706969] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796059590.985627463 [    6.847502] Non-volatile memory driver v1.3
stamp 1796059591.020481063 [    6.981388] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796059591.059165485 [    7.031611] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796059591.209971942 [    7.037198] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796059591.256995123 [    7.051778] rtc_cmos 00:05: RTC can wake from S4
stamp 1796059591.282809187 [    7.151869] rtc_cmos 00:05: registered as rtc0
stamp 1796059591.295593362 [    7.173238] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796059591.311667897 [    7.250501] NET: Registered PF_INET6 protocol family
stamp 1796059591.383756273 [    7.476318] Segment Routing with IPv6
stamp 1796059591.395879758 [    7.480471] In-situ OAM (IOAM) with IPv6
stamp 1796059591.410578848 [    7.490779] NET: Registered PF_PACKET protocol family
stamp 1796059591.429319350 [    7.496330] Key type dns_resolver registered
stamp 1796059591.559047729 [    7.500435] IPI shorthand broadcast: enabled
stamp 1796059591.571607669 [    7.526607] registered taskstats version 1
stamp 1796059591.583792789 [    7.528780] Loading compiled-in X.509 certificates
stamp 1796059591.644334886 [    7.758501] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796059591.657515731 [    7.837579] Unstable clock detected, switching default tracing clock to "global"
stamp 1796059591.669720920 [    7.837579] If you want to keep using the local clock, then add:
stamp 1796059591.786503288 [    7.837579]   "trace_clock=local"
stamp 1796059591.969071430 [    7.837579] on the kernel command line
stamp 1796059594.974981139 [   11.747831] Freeing initrd memory: 44980K
stamp 1796059595.985555513 [   12.771821] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796059596.058382198 [   12.785331] Write protecting the kernel read-only data: 32768k
stamp 1796059596.083460650 [   12.824321] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796059596.124115844 [   12.838591] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796059596.368963391 [   13.143755] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796059596.425887628 [   13.175044] Run /init as init process
stamp 1796059597.689070534 [   14.460896] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796059600.612045179 spare-guest: kernel 6.1.192-spare-debug, up 17.33 s
stamp 1796059600.730972979 spare-guest: running tests/vm/client/zz-cl-A.sh at 17.49 s of uptime
stamp 1796059601.397503233 == two donors, 2 copies per slab, swap on [18.09s]
stamp 1796059655.297978982   t 72.04 setup-done
stamp 1796059655.318153119 PASS: swapping on spare0
stamp 1796059655.737013521 == workload swapping; cut 10.0.0.2 for 10 s [72.46s]
stamp 1796059698.819286127 workload swapped out 3115 pages
stamp 1796059701.057490413   t 117.77 cut-start
stamp 1796059717.613244442   t 134.39 cut-done
stamp 1796059736.941817270 		ip daddr 10.0.0.2 udp dport 4791 counter packets 1032 bytes 4149672 drop
stamp 1796059736.968366546 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796059737.148349273   t 153.96 heal-start
stamp 1796059742.028352776   t 158.83 heal-done
stamp 1796059742.615051152 Terminated
stamp 1796059742.965003498 io_stat:    2 284 522 0 0 0 1 1 0 18432000 26214400 1806 0 0 0 0
stamp 1796059743.454630465 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796059743.490567977 donor_stat:
stamp 1796059744.020907336 2 0 10.0.0.2:18515 connecting 1 1 0 0 0 0 0 0 0 0
stamp 1796059744.049860705 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796059744.740546673 PASS: cut noticed, link healed
stamp 1796059745.169624090 == the workload finishes; donor 2 reconnects and its copies are mapped again [161.79s]
stamp 1796059801.370714548 spare-memtest: 8192 pages x 1 passes in 138.72 s, 0 bad pages
stamp 1796059801.777771102 pswpout +8922, pswpin +8261
stamp 1796059801.899821604 io_stat:    2 1489 731 0 0 0 1 1 0 52260864 36548608 1806 2644 0 0 0
stamp 1796059802.063108291 slab_stat:  1 4 24 2 8 0 0 0 0 32768
stamp 1796059802.096534367 donor_stat:
stamp 1796059802.304214525 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 4 3895 0
stamp 1796059802.373462865 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796059802.492693989 redrives 1, failovers 1
stamp 1796059802.877485768 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796059802.939335561 == teardown [219.74s]
stamp 1796059806.221283592 PASS: clean teardown
stamp 1796059807.583379604 SPARE-EXIT: 0
stamp 1796059807.866262525 [  224.660763] reboot: Power down
end 1796059808.135524467 rc=0
