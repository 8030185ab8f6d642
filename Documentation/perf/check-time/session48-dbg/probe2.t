start 1796059203.627771783
stamp 1796059205.073871391 vm/run: tests/vm/client/zzprobe2.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zzprobe2@kmod-6.1.192-spare-debug.log)
stamp 1796059211.438714760 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796059211.451400539 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zzprobe2.sh
stamp 1796059211.468803278 [    0.000000] BIOS-provided physical RAM map:
stamp 1796059211.540004616 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796059211.594310746 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796059211.635866625 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796059211.659815829 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796059211.696374957 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796059211.750379606 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796059211.777205988 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796059211.798807206 [    0.000000] NX (Execute Disable) protection: active
stamp 1796059211.820217312 [    0.000000] SMBIOS 2.8 present.
stamp 1796059211.841351056 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796059211.866900078 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796059211.888828125 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796059211.905136332 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796059211.976553940 [    0.000000] Using GB pages for direct mapping
stamp 1796059212.009332931 [    0.000000] RAMDISK: [mem 0xbd3f3000-0xbffdffff]
stamp 1796059212.047471199 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796059212.086977508 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796059212.119588762 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.165568086 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.207997128 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.265101285 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796059212.372329455 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.414011953 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.461459918 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796059212.508570634 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796059212.555470291 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796059212.590906173 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796059212.684091494 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796059212.711343140 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796059212.747109147 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796059212.762512180 [    0.000000] No NUMA configuration found
stamp 1796059212.780050406 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796059212.858939319 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3ef000-0xbd3f2fff]
stamp 1796059212.897023044 [    0.000000] Zone ranges:
stamp 1796059212.932939636 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796059212.944793750 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796059212.963315648 [    0.000000]   Normal   empty
stamp 1796059212.987975607 [    0.000000] Movable zone start for each node
stamp 1796059213.008155835 [    0.000000] Early memory node ranges
stamp 1796059213.028138279 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796059213.089501710 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796059213.121988729 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796059213.172301568 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796059213.196769263 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796059213.212350274 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796059213.251169131 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796059213.282451739 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796059213.323144333 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796059213.362637287 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796059213.397803548 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796059213.436153898 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796059213.453106114 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796059213.476853316 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796059213.496285227 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796059213.529399253 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796059213.560653147 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796059213.583177313 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796059213.604556140 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796059213.625017400 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796059213.669324338 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796059213.725077347 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796059213.771013279 [    0.000000] Fallback order for Node 0: 0 
stamp 1796059213.824903831 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796059213.883311687 [    0.000000] Policy zone: DMA32
stamp 1796059213.937951699 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zzprobe2.sh
stamp 1796059213.990546859 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796059214.035149507 [    0.000000] random: crng init done
stamp 1796059214.102740008 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796059214.153437546 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796059214.214672293 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796059214.284082440 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796059214.345171652 [    0.000000] Memory: 2575108K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569844K reserved, 0K cma-reserved)
stamp 1796059214.387774653 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796059214.413664071 [    0.000000] Dynamic Preempt: voluntary
stamp 1796059214.457508794 [    0.000000] Running RCU self tests
stamp 1796059214.510418049 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796059214.553483636 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796059214.615047126 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796059214.641083181 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796059214.663978209 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796059214.726245752 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796059214.751441175 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796059214.797587316 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796059214.858748635 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796059214.897859725 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796059214.945450620 [    0.000000] Console: colour VGA+ 80x25
stamp 1796059214.964771191 [    0.000000] printk: console [ttyS0] enabled
stamp 1796059214.995717402 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796059215.012870038 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796059215.044139281 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796059215.089592989 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796059215.142531600 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796059215.186391261 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796059215.221734497 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796059215.268960392 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796059215.304074645 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796059215.354399246 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796059215.393068560 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796059215.421821078 [    0.000000] ACPI: Core revision 20220331
stamp 1796059215.453667424 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796059215.488132457 [    0.004000] APIC: Switch to symmetric I/O mode setup
stamp 1796059215.511548903 [    0.010000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796059215.533655638 [    0.013000] tsc: Unable to calibrate against PIT
stamp 1796059215.555240786 [    0.014000] tsc: using HPET reference calibration
stamp 1796059215.576477865 [    0.015000] tsc: Detected 2093.605 MHz processor
stamp 1796059215.600519454 [    0.001881] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796059215.619608084 [    0.008790] Calibrating delay loop (skipped), value calculated using timer frequency.. 4187.21 BogoMIPS (lpj=2093605)
stamp 1796059215.691599960 [    0.022953] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796059215.709482116 [    0.028974] process: using AMD E400 aware idle routine
stamp 1796059215.727421191 [    0.030891] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796059215.744883693 [    0.032470] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796059215.815081521 [    0.038454] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796059215.904475473 [    0.040867] Spectre V2 : Mitigation: Retpolines
stamp 1796059215.950782067 [    0.041431] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796059215.964027295 [    0.044339] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796059215.980949174 [    0.054589] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796059216.017510586 [    0.056590] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796059216.062524393 [    0.057244] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796059216.097789612 [    0.057339] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796059216.111128086 [    0.057339] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796059216.124417096 [    0.057339] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796059216.152218634 [    0.057339] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796059216.174313958 [    0.057339] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796059216.219976272 [    0.057339] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796059216.241186399 [    0.057339] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796059216.283846980 [    0.224767] Freeing SMP alternatives memory: 24K
stamp 1796059216.332982190 [    0.226575] pid_max: default: 32768 minimum: 301
stamp 1796059216.367879201 [    0.264006] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796059216.397998016 [    0.265469] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796059216.443819842 [    0.461588] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796059216.471921778 [    0.509413] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796059216.500773415 [    0.509931] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796059216.532683320 [    0.513122] Running RCU-tasks wait API self tests
stamp 1796059216.564829213 [    0.652411] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796059216.581916004 [    0.661214] signal: max sigframe size: 3232
stamp 1796059216.599934439 [    0.668829] rcu: Hierarchical SRCU implementation.
stamp 1796059216.642655444 [    0.669418] rcu: 	Max phase no-delay instances is 400.
stamp 1796059216.663040971 [    0.688339] smp: Bringing up secondary CPUs ...
stamp 1796059216.706560037 [    0.736457] x86: Booting SMP configuration:
stamp 1796059216.735421070 [    0.738400] .... node  #0, CPUs:      #1
stamp 1796059216.766342425 [    0.849598] Callback from call_rcu_tasks() invoked.
stamp 1796059216.789935264 [    0.890161] smp: Brought up 1 node, 2 CPUs
stamp 1796059216.865002511 [    0.891551] smpboot: Max logical packages: 1
stamp 1796059216.943809089 [    0.892202] smpboot: Total of 2 processors activated (13013.23 BogoMIPS)
stamp 1796059217.012824808 [    1.022369] devtmpfs: initialized
stamp 1796059217.051177152 [    1.151760] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796059217.088154422 [    1.155437] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796059217.115664568 [    1.238838] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796059217.143511481 [    1.298648] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796059217.163587082 [    1.299479] thermal_sys: Registered thermal governor 'user_space'
stamp 1796059217.183857069 [    1.303689] cpuidle: using governor menu
stamp 1796059217.203446578 [    1.342593] PCI: Using configuration type 1 for base access
stamp 1796059217.233055157 [    1.359463] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796059217.265719582 [    1.360384] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796059217.295342458 [    1.360953] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796059217.312257434 [    1.361200] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796059217.351571007 [    1.361427] mtrr: corrected configuration.
stamp 1796059217.377782915 [    1.737529] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796059217.407859190 [    1.738966] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796059217.444095247 [    1.844177] ACPI: Added _OSI(Module Device)
stamp 1796059217.488604918 [    1.844707] ACPI: Added _OSI(Processor Device)
stamp 1796059217.531115195 [    1.845162] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796059217.554384672 [    2.219608] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796059217.583024396 [    2.447458] ACPI: Interpreter enabled
stamp 1796059217.608014932 [    2.460472] ACPI: PM: (supports S0 S5)
stamp 1796059217.646369209 [    2.461500] ACPI: Using IOAPIC for interrupt routing
stamp 1796059217.692276496 [    2.469664] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796059217.730902579 [    2.470361] PCI: Using E820 reservations for host bridge windows
stamp 1796059217.751803240 [    2.492339] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796059219.171943530 [    3.526339] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796059219.217364576 [    3.526339] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796059219.245786258 [    3.526339] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796059219.270765112 [    3.539339] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796059219.375995477 [    3.579339] PCI host bridge to bus 0000:00
stamp 1796059219.470925772 [    3.582466] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796059219.492798154 [    3.586251] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796059219.569561462 [    3.586339] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796059219.594411783 [    3.586339] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796059219.647150455 [    3.586339] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796059219.673082041 [    3.586339] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796059219.715117799 [    3.599298] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796059220.377889687 [    3.869201] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796059220.551741407 [    4.009544] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796059220.613122562 [    4.023555] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796059220.665501161 [    4.032603] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796059220.725823642 [    4.034587] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796059220.749147743 [    4.036616] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796059220.765868420 [    4.038866] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796059220.785298638 [    4.050461] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796059220.814005239 [    4.055150] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796059220.871656662 [    4.056474] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796059220.966234400 [    4.064914] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796059221.039407330 [    4.067479] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796059221.074547963 [    4.075411] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796059221.127830705 [    4.088441] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796059221.220698234 [    4.091339] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796059222.287644299 [    4.551024] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796059222.443803671 [    4.589339] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796059222.662908920 [    4.638339] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796059222.788263037 [    4.668339] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796059222.834811399 [    4.683339] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796059223.092703243 [    4.772854] iommu: Default domain type: Translated 
stamp 1796059223.220284978 [    4.773410] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796059223.252449827 [    4.797384] pps_core: LinuxPPS API ver. 1 registered
stamp 1796059223.287219948 [    4.798128] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796059223.344464071 [    4.801184] PTP clock support registered
stamp 1796059223.361263357 [    4.903884] PCI: Using ACPI for IRQ routing
stamp 1796059223.435405443 [    4.930339] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796059223.457677231 [    4.930339] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796059223.543377760 [    4.930339] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796059223.660220513 [    4.932440] vgaarb: loaded
stamp 1796059223.763023974 [    4.936524] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796059223.826980886 [    4.938441] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796059223.885988387 [    4.951346] clocksource: Switched to clocksource hpet
stamp 1796059223.977770571 [    5.119769] pnp: PnP ACPI init
stamp 1796059224.033254440 [    5.262508] pnp: PnP ACPI: found 6 devices
stamp 1796059224.181732549 [    5.737965] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796059224.210525624 [    5.751846] NET: Registered PF_INET protocol family
stamp 1796059224.227394071 [    5.793239] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796059224.361738020 [    5.900568] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796059224.397540996 [    5.904629] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796059224.433903683 [    5.906804] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796059224.515710260 [    5.945976] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796059224.569794650 [    6.055998] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796059224.619696170 [    6.087221] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796059224.645812106 [    6.114272] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796059224.673204439 [    6.141522] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796059224.715837989 [    6.150203] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796059224.808682644 [    6.152003] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796059224.907234536 [    6.152250] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796059224.968929725 [    6.153820] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796059225.039937607 [    6.154064] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796059225.072211943 [    6.179952] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796059225.105502814 [    6.182137] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796059225.143910393 [    6.184128] PCI: CLS 0 bytes, default 64
stamp 1796059225.203392562 [    6.713795] Trying to unpack rootfs image as initramfs...
stamp 1796059225.501985958 [    7.041504] Initialise system trusted keyrings
stamp 1796059225.586403108 [    7.145099] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796059227.363833827 [    8.885944] cryptomgr_test (36) used greatest stack depth: 30032 bytes left
stamp 1796059227.464117467 [    9.025701] Key type asymmetric registered
stamp 1796059227.528874745 [    9.034364] Asymmetric key parser 'x509' registered
stamp 1796059227.611479613 [    9.049452] io scheduler mq-deadline registered
stamp 1796059227.673540174 [    9.057298] io scheduler kyber registered
stamp 1796059227.723511617 [    9.145070] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796059227.816272694 [    9.158266] ACPI: button: Power Button [PWRF]
stamp 1796059227.865357188 [    9.230069] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796059227.881264416 [    9.262327] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796059228.053153088 [    9.627034] Non-volatile memory driver v1.3
stamp 1796059228.272577692 [    9.840677] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796059228.349100835 [    9.902123] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796059228.384535705 [    9.912923] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796059228.425320004 [    9.978988] rtc_cmos 00:05: RTC can wake from S4
stamp 1796059228.552490820 [   10.112830] rtc_cmos 00:05: registered as rtc0
stamp 1796059228.570681882 [   10.147741] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796059228.726752827 [   10.289310] NET: Registered PF_INET6 protocol family
stamp 1796059229.038335426 [   10.602892] Segment Routing with IPv6
stamp 1796059229.374675450 [   10.611102] In-situ OAM (IOAM) with IPv6
stamp 1796059229.408564613 [   10.625810] NET: Registered PF_PACKET protocol family
stamp 1796059229.457525804 [   10.632070] Key type dns_resolver registered
stamp 1796059229.538705794 [   10.639921] IPI shorthand broadcast: enabled
stamp 1796059229.564147755 [   10.672125] registered taskstats version 1
stamp 1796059229.599210280 [   10.676347] Loading compiled-in X.509 certificates
stamp 1796059230.067471343 [   11.575893] cryptomgr_test (65) used greatest stack depth: 29664 bytes left
stamp 1796059230.133580690 [   11.676172] Unstable clock detected, switching default tracing clock to "global"
stamp 1796059230.179774250 [   11.676172] If you want to keep using the local clock, then add:
stamp 1796059230.296266199 [   11.676172]   "trace_clock=local"
stamp 1796059230.640926505 [   11.676172] on the kernel command line
stamp 1796059234.851330763 [   16.385577] Freeing initrd memory: 44980K
stamp 1796059238.924554443 [   20.180841] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796059239.009190637 [   20.195215] Write protecting the kernel read-only data: 32768k
stamp 1796059239.065766955 [   20.239190] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796059239.165031917 [   20.258782] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796059239.212885740 [   20.637777] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796059239.272275725 [   20.644050] Run /init as init process
stamp 1796059239.816158656 [   21.043499] hrtimer: interrupt took 76134310 ns
stamp 1796059240.671009565 [   22.194683] mount (67) used greatest stack depth: 27984 bytes left
stamp 1796059244.993075616 spare-guest: kernel 6.1.192-spare-debug, up 26.24 s
stamp 1796059245.612278583 spare-guest: running tests/vm/client/zzprobe2.sh at 26.72 s of uptime
stamp 1796059249.271409336 == polls: 10 x sleep 0.2 (a process each), 10 x read -t 0.2 (builtin) [30.53s]
stamp 1796059249.296936908   t 30.80 sleep-start
stamp 1796059256.264361174   t 37.69 sleep-done
stamp 1796059256.402845031   t 37.77 nap-start
stamp 1796059258.711757050   t 40.21 nap-done
stamp 1796059259.137491437 == process starts [40.57s]
stamp 1796059259.225902929   t 40.71 v1
stamp 1796059265.708132550   t 47.22 v2
stamp 1796059270.541613600   t 52.04 v3
stamp 1796059274.362861054   t 55.92 n1
stamp 1796059277.279830119   t 58.84 n2
stamp 1796059277.530931357   t 58.99 b1
stamp 1796059280.193916685   t 61.73 ip1
stamp 1796059283.213569845   t 64.73 ip2
stamp 1796059283.276342876 == nf_tables loaded in the background during rxe_up [64.79s]
stamp 1796059283.345339519   t 64.86 rxe-start
stamp 1796059284.158557382   t 65.63 modprobe-done (from 64.89)
stamp 1796059318.193995916   t 99.75 rxe-done
stamp 1796059318.245947097   t 99.78 nft1-start
stamp 1796059320.216303869   t 101.77 nft1-done
stamp 1796059321.477986034   t 103.04 heal-done
stamp 1796059321.813481148 nf_tables nfnetlink 
stamp 1796059321.912091400 == spared starts, alternating the wait [103.45s]
stamp 1796059322.063517850   t 103.60 d2-start-sleep
stamp 1796059324.985427429   t 106.55 d2-sock-sleep
stamp 1796059325.133501092 spared[105.986]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059325.504500297   t 107.05 d3-start-nap
stamp 1796059332.649535950   t 114.18 d3-sock-nap
stamp 1796059332.806835951 spared[113.354]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059336.096961686   t 117.64 d2-start-nap
stamp 1796059339.376836481   t 120.93 d2-sock-nap
stamp 1796059339.485885677 spared[120.249]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059339.733438417   t 121.28 d3-start-sleep
stamp 1796059346.193068199   t 127.69 d3-sock-sleep
stamp 1796059346.789509972 spared[126.697]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059349.235591198   t 130.80 d2-start-sleep
stamp 1796059352.772010038   t 134.18 d2-sock-sleep
stamp 1796059352.824863366 spared[133.357]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059352.848886891   t 134.32 d3-start-nap
stamp 1796059358.110368279   t 139.69 d3-sock-nap
stamp 1796059358.325406217 spared[138.592]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059361.338905596   t 142.90 d2-start-nap
stamp 1796059364.121809961   t 145.67 d2-sock-nap
stamp 1796059364.189686113 spared[145.348]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059364.353880808   t 145.91 d3-start-sleep
stamp 1796059370.020232329   t 151.55 d3-sock-sleep
stamp 1796059370.089977560 spared[150.302]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059372.819642796 PASS: probe2 done
stamp 1796059375.090694964 SPARE-EXIT: 0
stamp 1796059375.556329065 [  157.109284] reboot: Power down
end 1796059376.073240791 rc=0
