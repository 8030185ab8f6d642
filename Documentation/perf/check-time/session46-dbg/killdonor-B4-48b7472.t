start 1796036779.389142164
stamp 1796037477.237937141 vm/run: tests/vm/client/killdonor.sh on 6.1.192-spare-debug (log: build/vm/logs/client-killdonor@kmod-6.1.192-spare-debug.log)
stamp 1796037482.408394849 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796037482.435381334 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796037482.468948107 [    0.000000] BIOS-provided physical RAM map:
stamp 1796037482.503370249 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796037482.550229690 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796037482.575321798 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796037482.649516043 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796037482.710599454 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796037482.808005706 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796037482.836987849 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796037482.886470917 [    0.000000] NX (Execute Disable) protection: active
stamp 1796037482.939131551 [    0.000000] SMBIOS 2.8 present.
stamp 1796037483.018602226 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796037483.095429234 [    0.000000] tsc: Fast TSC calibration failed
stamp 1796037483.152175023 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796037483.203487154 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796037483.255296456 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796037483.296886631 [    0.000000] Using GB pages for direct mapping
stamp 1796037483.310642885 [    0.000000] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796037483.366838473 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796037483.384940516 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796037483.411106416 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.431594938 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.466625833 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.490398433 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796037483.515352449 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.534556018 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.614283118 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796037483.645736780 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796037483.681236583 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796037483.712597059 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796037483.746620476 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796037483.767505008 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796037483.785664981 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796037483.801146673 [    0.000000] No NUMA configuration found
stamp 1796037483.825861566 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796037483.849415922 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796037483.865102783 [    0.000000] Zone ranges:
stamp 1796037483.880277734 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796037483.908923200 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796037483.933230702 [    0.000000]   Normal   empty
stamp 1796037483.972609740 [    0.000000] Movable zone start for each node
stamp 1796037484.002596765 [    0.000000] Early memory node ranges
stamp 1796037484.034177778 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796037484.062713877 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796037484.075020497 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796037484.086744655 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796037484.097701750 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796037484.110178713 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796037484.121550464 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796037484.162594224 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796037484.188621782 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796037484.241513333 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796037484.298947135 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796037484.339301750 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796037484.388611329 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796037484.446993967 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796037484.473727543 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796037484.517171777 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796037484.549517628 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796037484.581371609 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796037484.627345673 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796037484.662476968 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796037484.691747978 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796037484.737293180 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796037484.778848799 [    0.000000] Fallback order for Node 0: 0 
stamp 1796037484.810504554 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796037484.885990634 [    0.000000] Policy zone: DMA32
stamp 1796037485.064927782 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796037485.098994531 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796037485.134472513 [    0.000000] random: crng init done
stamp 1796037485.154253454 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796037485.171356997 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796037485.199148917 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796037485.233153349 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796037485.260286661 [    0.000000] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796037485.289316113 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796037485.329390197 [    0.000000] Dynamic Preempt: voluntary
stamp 1796037485.385189023 [    0.000000] Running RCU self tests
stamp 1796037485.446409623 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796037485.479414122 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796037485.539083837 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796037485.614977709 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796037485.671597650 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796037485.731302140 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796037485.787956516 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796037485.807140377 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796037485.822466745 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796037485.855650523 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796037485.880243956 [    0.000000] Console: colour VGA+ 80x25
stamp 1796037485.898963068 [    0.000000] printk: console [ttyS0] enabled
stamp 1796037485.926680636 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796037485.945541426 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796037485.982918013 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796037486.031710253 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796037486.109604363 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796037486.136286290 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796037486.192944403 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796037486.268612027 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796037486.346282262 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796037486.379630161 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796037486.402673600 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796037486.426374955 [    0.000000] ACPI: Core revision 20220331
stamp 1796037486.458205360 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796037486.485194449 [    0.006000] APIC: Switch to symmetric I/O mode setup
stamp 1796037486.512601771 [    0.018000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796037486.533898673 [    0.022000] tsc: Unable to calibrate against PIT
stamp 1796037486.560297965 [    0.022000] tsc: using HPET reference calibration
stamp 1796037486.599343391 [    0.022000] tsc: Detected 2096.022 MHz processor
stamp 1796037486.643140894 [    0.001527] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796037486.685512518 [    0.003443] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.04 BogoMIPS (lpj=2096022)
stamp 1796037486.724726523 [    0.003567] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796037486.752263871 [    0.023167] process: using AMD E400 aware idle routine
stamp 1796037486.795267010 [    0.024567] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796037486.851203486 [    0.024567] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796037486.911151608 [    0.030412] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796037486.953324065 [    0.032867] Spectre V2 : Mitigation: Retpolines
stamp 1796037487.001468298 [    0.034046] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796037487.053614288 [    0.050785] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796037487.105041236 [    0.058744] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796037487.136821968 [    0.059101] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796037487.188744655 [    0.059363] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796037487.208316520 [    0.059619] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796037487.270404133 [    0.059974] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796037487.285940829 [    0.061011] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796037487.305254627 [    0.061949] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796037487.320683168 [    0.062224] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796037487.347925557 [    0.062874] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796037487.362298430 [    0.063353] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796037487.379121461 [    0.267896] Freeing SMP alternatives memory: 24K
stamp 1796037487.413932520 [    0.269740] pid_max: default: 32768 minimum: 301
stamp 1796037487.443747079 [    0.302381] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796037487.478523503 [    0.303335] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796037487.507427107 [    0.501927] APIC calibration not consistent with PM-Timer: 102ms instead of 100ms
stamp 1796037487.537891936 [    0.502567] APIC delta adjusted to PM-Timer: 6250029 (6430989)
stamp 1796037487.570822716 [    0.504567] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796037487.589484518 [    0.565706] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796037487.651133120 [    0.566567] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796037487.678977288 [    0.566928] Running RCU-tasks wait API self tests
stamp 1796037487.713354616 [    0.695894] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796037487.756110236 [    0.704743] signal: max sigframe size: 3232
stamp 1796037487.800021886 [    0.713948] rcu: Hierarchical SRCU implementation.
stamp 1796037487.827414439 [    0.714297] rcu: 	Max phase no-delay instances is 400.
stamp 1796037487.852383544 [    0.735056] smp: Bringing up secondary CPUs ...
stamp 1796037487.888336304 [    0.774137] x86: Booting SMP configuration:
stamp 1796037487.929737230 [    0.775375] .... node  #0, CPUs:      #1
stamp 1796037487.965116525 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 3 = 7137841
stamp 1796037488.000956362 [    0.893688] Callback from call_rcu_tasks() invoked.
stamp 1796037488.045013216 [    0.934310] smp: Brought up 1 node, 2 CPUs
stamp 1796037488.090359332 [    0.935163] smpboot: Max logical packages: 1
stamp 1796037488.142459544 [    0.935917] smpboot: Total of 2 processors activated (13024.05 BogoMIPS)
stamp 1796037488.185649938 [    1.052613] devtmpfs: initialized
stamp 1796037488.235345789 [    1.122915] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796037488.264343582 [    1.125067] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796037488.295487677 [    1.172406] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796037488.338336645 [    1.208958] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796037488.387881209 [    1.209370] thermal_sys: Registered thermal governor 'user_space'
stamp 1796037488.416670156 [    1.213897] cpuidle: using governor menu
stamp 1796037488.467241034 [    1.235424] PCI: Using configuration type 1 for base access
stamp 1796037488.489751895 [    1.247608] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796037488.513395640 [    1.248050] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796037488.540168751 [    1.248622] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796037488.577121254 [    1.248903] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796037488.639364371 [    1.249090] mtrr: corrected configuration.
stamp 1796037488.660200250 [    1.465567] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796037488.730546259 [    1.465567] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796037488.786981289 [    1.587295] ACPI: Added _OSI(Module Device)
stamp 1796037488.834643890 [    1.589705] ACPI: Added _OSI(Processor Device)
stamp 1796037488.860807336 [    1.591862] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796037488.888989585 [    1.950010] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796037488.915346316 [    2.087148] ACPI: Interpreter enabled
stamp 1796037488.954634613 [    2.100609] ACPI: PM: (supports S0 S5)
stamp 1796037488.981553268 [    2.109131] ACPI: Using IOAPIC for interrupt routing
stamp 1796037489.037776588 [    2.115567] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796037489.108626150 [    2.115567] PCI: Using E820 reservations for host bridge windows
stamp 1796037489.157707126 [    2.148567] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796037489.216414890 [    2.773046] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796037489.269409587 [    2.777993] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796037489.325984422 [    2.778803] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796037489.434917107 [    2.782567] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796037489.492995799 [    2.814652] PCI host bridge to bus 0000:00
stamp 1796037489.563175052 [    2.816672] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796037489.633384653 [    2.818594] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796037489.685819198 [    2.819171] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796037489.730145874 [    2.819632] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796037489.795351539 [    2.819995] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796037489.871319022 [    2.822673] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796037489.941652967 [    2.835772] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796037490.015371871 [    3.046896] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796037490.075394795 [    3.198946] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796037490.120451242 [    3.218615] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796037490.165133450 [    3.224887] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796037490.226500248 [    3.225704] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796037490.299286747 [    3.227824] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796037490.379534813 [    3.228115] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796037490.437605631 [    3.239379] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796037490.501251143 [    3.243028] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796037490.591705573 [    3.243698] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796037490.675295226 [    3.250009] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796037490.741939145 [    3.250685] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796037490.807182784 [    3.257654] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796037490.861781577 [    3.265652] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796037490.901710937 [    3.268858] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796037490.948336424 [    3.503075] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796037490.976599125 [    3.517567] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796037491.028180155 [    3.517567] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796037491.064795931 [    3.520822] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796037491.109645576 [    3.529683] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796037491.177825563 [    3.595897] iommu: Default domain type: Translated 
stamp 1796037491.211369734 [    3.596567] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796037491.236248718 [    3.611567] pps_core: LinuxPPS API ver. 1 registered
stamp 1796037491.271286356 [    3.611567] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796037491.292133306 [    3.614997] PTP clock support registered
stamp 1796037491.315921516 [    3.671127] PCI: Using ACPI for IRQ routing
stamp 1796037491.349987904 [    3.698567] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796037491.402650151 [    3.698567] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796037491.448861555 [    3.698567] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796037491.484723283 [    3.704720] vgaarb: loaded
stamp 1796037491.531549982 [    3.710415] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796037491.565797093 [    3.712667] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796037491.623852020 [    3.721104] clocksource: Switched to clocksource hpet
stamp 1796037491.686724249 [    3.823902] pnp: PnP ACPI init
stamp 1796037491.751604729 [    3.974506] pnp: PnP ACPI: found 6 devices
stamp 1796037491.792723020 [    4.460986] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796037491.835276778 [    4.473509] NET: Registered PF_INET protocol family
stamp 1796037491.889642300 [    4.517804] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796037491.960378547 [    4.610326] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796037492.000153745 [    4.615523] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796037492.051258263 [    4.621126] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796037492.092228984 [    4.657237] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796037492.128446405 [    4.728851] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796037492.179803201 [    4.757848] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796037492.232354989 [    4.767877] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796037492.280680435 [    4.781989] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796037492.320234214 [    4.793796] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796037492.356965599 [    4.796388] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796037492.392931343 [    4.798281] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796037492.425422660 [    4.798790] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796037492.482266865 [    4.801733] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796037492.529676959 [    4.812807] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796037492.757639328 [    4.817099] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796037492.796866207 [    4.819493] PCI: CLS 0 bytes, default 64
stamp 1796037492.817904399 [    4.930271] Trying to unpack rootfs image as initramfs...
stamp 1796037492.848544121 [    5.085350] Initialise system trusted keyrings
stamp 1796037492.877507779 [    5.120886] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796037492.905999242 [    6.070736] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796037492.969643712 [    6.186555] Key type asymmetric registered
stamp 1796037493.020671665 [    6.194410] Asymmetric key parser 'x509' registered
stamp 1796037493.064681200 [    6.223403] io scheduler mq-deadline registered
stamp 1796037493.113307686 [    6.228258] io scheduler kyber registered
stamp 1796037493.137549765 [    6.294844] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796037493.173219519 [    6.321471] ACPI: button: Power Button [PWRF]
stamp 1796037493.211204698 [    6.378005] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796037493.253248110 [    6.414783] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796037493.297303111 [    6.521512] Non-volatile memory driver v1.3
stamp 1796037493.338775401 [    6.602843] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796037493.380511582 [    6.634053] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796037493.433332420 [    6.640256] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796037493.492863582 [    6.673335] rtc_cmos 00:05: RTC can wake from S4
stamp 1796037493.536499510 [    6.714070] rtc_cmos 00:05: registered as rtc0
stamp 1796037493.584356879 [    6.759239] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796037493.621484354 [    6.831865] NET: Registered PF_INET6 protocol family
stamp 1796037493.677154806 [    6.963248] Segment Routing with IPv6
stamp 1796037493.733778825 [    6.967427] In-situ OAM (IOAM) with IPv6
stamp 1796037493.803891251 [    6.975831] NET: Registered PF_PACKET protocol family
stamp 1796037493.897201268 [    6.981016] Key type dns_resolver registered
stamp 1796037493.933554527 [    6.985097] IPI shorthand broadcast: enabled
stamp 1796037493.980738782 [    7.006297] registered taskstats version 1
stamp 1796037494.017936230 [    7.008233] Loading compiled-in X.509 certificates
stamp 1796037494.144941573 [    7.082500] cryptomgr_test (44) used greatest stack depth: 29344 bytes left
stamp 1796037494.279368858 [    7.267883] Unstable clock detected, switching default tracing clock to "global"
stamp 1796037494.308728526 [    7.267883] If you want to keep using the local clock, then add:
stamp 1796037494.329828876 [    7.267883]   "trace_clock=local"
stamp 1796037494.352747769 [    7.267883] on the kernel command line
stamp 1796037495.845941121 [   10.488847] Freeing initrd memory: 44948K
stamp 1796037496.553975417 [   11.166334] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796037496.607106552 [   11.170938] Write protecting the kernel read-only data: 32768k
stamp 1796037496.657969292 [   11.191384] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796037496.724844619 [   11.202832] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796037496.812622491 [   11.432465] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796037496.849792577 [   11.439154] Run /init as init process
stamp 1796037497.215242966 [   11.853038] mount (65) used greatest stack depth: 27984 bytes left
stamp 1796037498.764886177 spare-guest: kernel 6.1.192-spare-debug, up 13.38 s
stamp 1796037498.796821040 spare-guest: running tests/vm/client/killdonor.sh at 13.44 s of uptime
stamp 1796037499.107885099 client backend: kmod
stamp 1796037499.214492672 == two donors, 2 copies per slab, swap on [13.83s]
stamp 1796037530.028145814 PASS: swapping on spare0, 4 slabs x 2 copies
stamp 1796037530.302653168 == workload running; the donor on host 3 lost once 3000 pages went out [44.88s]
stamp 1796037547.813390508 workload swapped out 3056 pages
stamp 1796037558.416980627 io_stat:    2 2 439 0 0 0 0 0 0 8192 21671936 501 0 0 0 0
stamp 1796037558.646605654 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796037558.662815414 donor_stat:
stamp 1796037558.981421501 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037559.030514902 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796037559.354673181 PASS: donor 3 lost; 4 copies left on donor 2
stamp 1796037559.716907993 == the workload finishes on the surviving copies [74.26s]
stamp 1796037600.595075083 spare-memtest: 8192 pages x 1 passes in 67.19 s, 0 bad pages
stamp 1796037600.809642570 pswpout +8853, pswpin +8229
stamp 1796037600.898797360 io_stat:    2 1166 721 0 0 0 0 0 0 33714176 36265984 508 0 0 0 0
stamp 1796037600.980076909 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796037601.012806227 donor_stat:
stamp 1796037601.075773014 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037601.109549724 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796037601.536377963 PASS: every page verified after the kill; 1164 reads from the survivors; uevent seen
stamp 1796037601.589034829 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [116.23s]
stamp 1796037611.788287893 io_stat:    2 1166 721 0 0 0 0 0 0 33714176 36265984 508 0 0 0 0
stamp 1796037612.175402000 slab_stat:  1 4 24 2 8 0 0 0 0 23917
stamp 1796037612.196237277 donor_stat:
stamp 1796037612.377557798 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796037612.412874294 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796037613.184293387 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796037613.447185319 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [128.03s]
stamp 1796037649.166294634 workload swapped out 3014 pages
stamp 1796037668.856604201     donor 3's copies looked at 6.3 s after its loss, past the delay: the module's down time decides
stamp 1796037678.817577402     [  183.766826] spare: donor 10.0.0.3:18515: down 5 s: 4 slab copies re-homed to other donors; resync refills them
stamp 1796037738.833136912     copies on donor 4: 4
stamp 1796037738.941654000     re-homed 12 s after the loss was noticed
stamp 1796037739.022549522 PASS: donor 3 down 5 s: its 4 copies mapped on donor 4 and refilled
stamp 1796037739.219065032 == donor 2 killed: the job reads every page back from donor 4 alone [253.82s]
stamp 1796037794.672355517 spare-memtest: the last pass cut at page 640 of 8192 (-c)
stamp 1796037794.789178872 spare-memtest: 8192 pages x 2 passes in 167.96 s, 0 bad pages
stamp 1796037794.947448469 pswpout +9428, pswpin +8257
stamp 1796037795.105036636 PASS: every page verified from donor 4 alone (7670 pages read back, 6144 or more wanted)
stamp 1796037795.155731097 == the data is still all there (read back through swapoff) [309.80s]
stamp 1796037798.365459663 PASS: clean teardown
stamp 1796037800.205194164 SPARE-EXIT: 0
stamp 1796037800.711881261 [  315.340116] reboot: Power down
rc 0
end 1796037801.124438580
