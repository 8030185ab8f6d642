start 1796037813.794001333
stamp 1796038194.726446710 vm/run: tests/vm/client/killdonor.sh on 6.1.192-spare-debug (log: build/vm/logs/client-killdonor@kmod-6.1.192-spare-debug.log)
stamp 1796038200.561836638 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796038200.599403634 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796038200.634566179 [    0.000000] BIOS-provided physical RAM map:
stamp 1796038200.655956127 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796038200.686846563 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796038200.704742046 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796038200.729205653 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796038200.760470347 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796038200.783014190 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796038200.798572498 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796038200.823031697 [    0.000000] NX (Execute Disable) protection: active
stamp 1796038200.842767353 [    0.000000] SMBIOS 2.8 present.
stamp 1796038200.878251747 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796038200.904202851 [    0.000000] tsc: Fast TSC calibration using PIT
stamp 1796038200.931040243 [    0.000000] tsc: Detected 2096.019 MHz processor
stamp 1796038200.960327394 [    0.013778] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796038200.986260995 [    0.015388] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796038201.012006689 [    0.029350] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796038201.042431805 [    0.033257] Using GB pages for direct mapping
stamp 1796038201.074507916 [    0.045583] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796038201.114387090 [    0.048808] ACPI: Early table checksum verification disabled
stamp 1796038201.162428568 [    0.049658] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796038201.198641301 [    0.050736] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.222150913 [    0.053176] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.245391054 [    0.055359] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.271657575 [    0.055586] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796038201.294470438 [    0.055683] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.317116644 [    0.055728] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.353593427 [    0.055768] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796038201.374838962 [    0.055932] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796038201.396539970 [    0.055994] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796038201.427105360 [    0.056037] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796038201.448121881 [    0.056077] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796038201.477738545 [    0.056091] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796038201.503893085 [    0.056129] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796038201.535188086 [    0.061441] No NUMA configuration found
stamp 1796038201.566339897 [    0.061557] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796038201.583381132 [    0.063753] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796038201.598951242 [    0.067537] Zone ranges:
stamp 1796038201.613912889 [    0.067646]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796038201.646971500 [    0.067927]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796038201.681383854 [    0.067981]   Normal   empty
stamp 1796038201.701307917 [    0.068110] Movable zone start for each node
stamp 1796038201.720333348 [    0.068168] Early memory node ranges
stamp 1796038201.745619443 [    0.068235]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796038201.781422610 [    0.068937]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796038201.808412932 [    0.069482] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796038201.832358168 [    0.072188] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796038201.853544280 [    0.073837] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796038201.866770763 [    0.277601] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796038201.884149497 [    1.155829] kasan: KernelAddressSanitizer initialized
stamp 1796038201.901182556 [    1.156962] ACPI: PM-Timer IO Port: 0x608
stamp 1796038201.915615762 [    1.159761] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796038201.936763703 [    1.161991] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796038201.965110924 [    1.162493] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796038201.987525492 [    1.163413] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796038202.011213752 [    1.163641] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796038202.031712763 [    1.163835] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796038202.045779075 [    1.163861] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796038202.061155388 [    1.164290] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796038202.078907659 [    1.164495] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796038202.091665964 [    1.165642] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796038202.109539445 [    1.167945] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796038202.131859114 [    1.168436] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796038202.171442618 [    1.190754] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796038202.207070314 [    1.195018] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796038202.230871477 [    1.208710] Fallback order for Node 0: 0 
stamp 1796038202.250451028 [    1.209354] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796038202.288039134 [    1.209468] Policy zone: DMA32
stamp 1796038202.301527803 [    1.210184] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796038202.331246621 [    1.212798] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796038202.360035307 [    1.214219] random: crng init done
stamp 1796038202.381955078 [    1.216271] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796038202.422515423 [    1.218312] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796038202.436008780 [    1.221820] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796038202.484485422 [    1.224434] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796038202.514922460 [    4.022094] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796038202.540409846 [    4.035522] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796038202.565772937 [    4.095946] Dynamic Preempt: voluntary
stamp 1796038202.618906907 [    4.139487] Running RCU self tests
stamp 1796038202.640469643 [    4.141425] rcu: Preemptible hierarchical RCU implementation.
stamp 1796038202.674398982 [    4.141511] rcu: 	RCU event tracing is enabled.
stamp 1796038202.698313129 [    4.141560] rcu: 	RCU lockdep checking is enabled.
stamp 1796038202.727454404 [    4.141604] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796038202.754473570 [    4.141669] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796038202.776333819 [    4.141771] 	Trampoline variant of Tasks RCU enabled.
stamp 1796038202.802543592 [    4.142141] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796038202.834434423 [    4.142290] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796038202.872038129 [    4.185958] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796038202.903073059 [    4.215390] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796038202.926619770 [    4.252305] Console: colour VGA+ 80x25
stamp 1796038202.943476937 [    4.315107] printk: console [ttyS0] enabled
stamp 1796038202.973040560 [    4.315658] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796038202.993604214 [    4.316115] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796038203.015266067 [    4.316273] ... MAX_LOCK_DEPTH:          48
stamp 1796038203.045780692 [    4.316424] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796038203.073050492 [    4.316609] ... CLASSHASH_SIZE:          4096
stamp 1796038203.102246670 [    4.316849] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796038203.131305188 [    4.317048] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796038203.154297640 [    4.317207] ... CHAINHASH_SIZE:          32768
stamp 1796038203.173144454 [    4.317493]  memory used by lock dependency info: 6493 kB
stamp 1796038203.190230543 [    4.317799]  memory used for stack traces: 4224 kB
stamp 1796038203.213061049 [    4.318123]  per task-struct memory footprint: 1920 bytes
stamp 1796038203.246450276 [    4.323679] ACPI: Core revision 20220331
stamp 1796038203.273087910 [    4.380182] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796038203.320991166 [    4.437053] APIC: Switch to symmetric I/O mode setup
stamp 1796038203.372358963 [    4.460016] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796038203.406313991 [    4.464472] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796038203.438469783 [    4.467196] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.03 BogoMIPS (lpj=2096019)
stamp 1796038203.457263776 [    4.479698] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796038203.477611652 [    4.490031] process: using AMD E400 aware idle routine
stamp 1796038203.497060254 [    4.491860] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796038203.526949955 [    4.493773] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796038203.553220053 [    4.502358] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796038203.581522249 [    4.504197] Spectre V2 : Mitigation: Retpolines
stamp 1796038203.606567998 [    4.505269] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796038203.627047693 [    4.512698] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796038203.661301798 [    4.523124] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796038203.684206855 [    4.523757] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796038203.700245572 [    4.524083] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796038203.721109544 [    4.524747] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796038203.755325867 [    4.525751] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796038203.777623213 [    4.526551] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796038203.797341997 [    4.527025] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796038203.832503179 [    4.527237] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796038203.860073259 [    4.527751] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796038203.893597341 [    4.528796] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796038203.915209039 [    4.746215] Freeing SMP alternatives memory: 24K
stamp 1796038203.940355179 [    4.746698] pid_max: default: 32768 minimum: 301
stamp 1796038203.962304626 [    4.786227] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796038203.999038847 [    4.787071] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796038204.015219251 [    5.015698] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796038204.034178427 [    5.064824] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796038204.049387864 [    5.066234] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796038204.066238468 [    5.069526] Running RCU-tasks wait API self tests
stamp 1796038204.088042390 [    5.194177] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796038204.103459800 [    5.202698] signal: max sigframe size: 3232
stamp 1796038204.118649991 [    5.212156] rcu: Hierarchical SRCU implementation.
stamp 1796038204.133442247 [    5.212784] rcu: 	Max phase no-delay instances is 400.
stamp 1796038204.153643214 [    5.238517] smp: Bringing up secondary CPUs ...
stamp 1796038204.180058487 [    5.270343] x86: Booting SMP configuration:
stamp 1796038204.206174444 [    5.271168] .... node  #0, CPUs:      #1
stamp 1796038204.228435982 [    0.220310] calibrate_delay_direct() failed to get a good estimate for loops_per_jiffy.
stamp 1796038204.248744693 [    0.220310] Probably due to long platform interrupts. Consider using "lpj=" boot option.
stamp 1796038204.268624933 [    5.395916] Callback from call_rcu_tasks() invoked.
stamp 1796038204.285629729 [    5.431698] smp: Brought up 1 node, 2 CPUs
stamp 1796038204.309069348 [    5.434138] smpboot: Max logical packages: 1
stamp 1796038204.340083628 [    5.434953] smpboot: Total of 2 processors activated (4200.23 BogoMIPS)
stamp 1796038204.382263279 [    5.532600] devtmpfs: initialized
stamp 1796038204.413351499 [    5.625131] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796038204.439416438 [    5.629769] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796038204.473522523 [    5.683151] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796038204.511581751 [    5.724698] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796038204.549094996 [    5.724861] thermal_sys: Registered thermal governor 'user_space'
stamp 1796038204.567145672 [    5.726698] cpuidle: using governor menu
stamp 1796038204.586992419 [    5.745698] PCI: Using configuration type 1 for base access
stamp 1796038204.612473934 [    5.756848] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796038204.630458996 [    5.758811] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796038204.654208892 [    5.759751] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796038204.683523424 [    5.761761] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796038204.705666198 [    5.762733] mtrr: corrected configuration.
stamp 1796038204.731703855 [    6.026996] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796038204.757207473 [    6.027841] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796038204.781385018 [    6.136904] ACPI: Added _OSI(Module Device)
stamp 1796038204.820688644 [    6.137764] ACPI: Added _OSI(Processor Device)
stamp 1796038204.846279776 [    6.138419] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796038204.995476115 [    6.466794] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796038205.166708003 [    6.589109] ACPI: Interpreter enabled
stamp 1796038205.197139801 [    6.595793] ACPI: PM: (supports S0 S5)
stamp 1796038205.213176544 [    6.596566] ACPI: Using IOAPIC for interrupt routing
stamp 1796038205.247132233 [    6.599479] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796038205.262516511 [    6.599698] PCI: Using E820 reservations for host bridge windows
stamp 1796038205.292675722 [    6.619698] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796038206.099326812 [    7.173479] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796038206.129905136 [    7.176698] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796038206.160154559 [    7.176863] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796038206.188642136 [    7.185601] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796038206.233080232 [    7.210914] PCI host bridge to bus 0000:00
stamp 1796038206.255921418 [    7.211698] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796038206.284391761 [    7.211698] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796038206.321780500 [    7.211698] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796038206.363956684 [    7.211698] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796038206.395144032 [    7.211698] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796038206.429366136 [    7.211698] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796038206.477392786 [    7.223928] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796038206.667912694 [    7.436427] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796038206.895745818 [    7.593209] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796038206.938995805 [    7.606750] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796038206.965871860 [    7.609825] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796038206.998543578 [    7.610738] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796038207.030147014 [    7.611222] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796038207.065240919 [    7.611881] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796038207.088671721 [    7.621243] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796038207.118431957 [    7.624698] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796038207.143426360 [    7.625770] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796038207.159629428 [    7.632181] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796038207.193478635 [    7.635760] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796038207.217030828 [    7.639740] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796038207.235652214 [    7.644851] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796038207.261620330 [    7.653777] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796038207.339191168 [    7.837989] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796038207.361972510 [    7.846292] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796038207.389101074 [    7.864104] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796038207.412965136 [    7.872883] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796038207.445369860 [    7.879698] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796038207.507407748 [    7.929698] iommu: Default domain type: Translated 
stamp 1796038207.528032678 [    7.929788] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796038207.540391757 [    7.941698] pps_core: LinuxPPS API ver. 1 registered
stamp 1796038207.567180578 [    7.941859] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796038207.583269289 [    7.946008] PTP clock support registered
stamp 1796038207.680980850 [    8.023058] PCI: Using ACPI for IRQ routing
stamp 1796038207.721295068 [    8.050698] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796038207.751499084 [    8.050698] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796038207.779258963 [    8.050698] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796038207.804561859 [    8.050942] vgaarb: loaded
stamp 1796038207.844921013 [    8.052518] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796038207.873698999 [    8.053761] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796038207.897404051 [    8.065623] clocksource: Switched to clocksource hpet
stamp 1796038207.937181122 [    8.248155] pnp: PnP ACPI init
stamp 1796038208.193683416 [    8.501474] pnp: PnP ACPI: found 6 devices
stamp 1796038209.291643271 [    9.597891] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796038209.321193058 [    9.625073] NET: Registered PF_INET protocol family
stamp 1796038209.364427255 [    9.670357] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796038209.499577099 [    9.816425] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796038209.526478712 [    9.832769] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796038209.551112853 [    9.837639] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796038209.578643918 [    9.893174] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796038209.636417884 [    9.950027] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796038209.675191956 [    9.987084] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796038209.690984677 [   10.000742] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796038209.743119946 [   10.060414] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796038209.785704974 [   10.071558] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796038209.838328167 [   10.072375] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796038209.867016664 [   10.093140] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796038209.885504608 [   10.094389] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796038209.924396773 [   10.102270] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796038209.952029041 [   10.151819] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796038209.976399111 [   10.151819] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796038210.001600686 [   10.151819] PCI: CLS 0 bytes, default 64
stamp 1796038210.091006672 [   10.236696] Trying to unpack rootfs image as initramfs...
stamp 1796038210.176338934 [   10.440866] Initialise system trusted keyrings
stamp 1796038210.189175398 [   10.509436] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796038211.558299596 [   11.854916] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796038211.894945338 [   12.211500] Key type asymmetric registered
stamp 1796038211.911913756 [   12.221884] Asymmetric key parser 'x509' registered
stamp 1796038211.949409758 [   12.263766] io scheduler mq-deadline registered
stamp 1796038211.975520754 [   12.267709] io scheduler kyber registered
stamp 1796038212.071615574 [   12.388439] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796038212.089255933 [   12.405558] ACPI: button: Power Button [PWRF]
stamp 1796038212.231531458 [   12.543365] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796038212.280033018 [   12.593029] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796038212.407555210 [   12.719242] Non-volatile memory driver v1.3
stamp 1796038212.485060523 [   12.799857] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796038212.547191949 [   12.869374] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796038212.561286845 [   12.881623] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796038212.634349828 [   12.935252] rtc_cmos 00:05: RTC can wake from S4
stamp 1796038212.803996535 [   13.108804] rtc_cmos 00:05: registered as rtc0
stamp 1796038212.855474170 [   13.161380] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796038212.972700628 [   13.282872] NET: Registered PF_INET6 protocol family
stamp 1796038213.109598902 [   13.422206] Segment Routing with IPv6
stamp 1796038213.133510114 [   13.432003] In-situ OAM (IOAM) with IPv6
stamp 1796038213.151153670 [   13.447723] NET: Registered PF_PACKET protocol family
stamp 1796038213.172084919 [   13.459447] Key type dns_resolver registered
stamp 1796038213.199948935 [   13.487839] IPI shorthand broadcast: enabled
stamp 1796038213.233757696 [   13.528859] registered taskstats version 1
stamp 1796038213.252384363 [   13.531211] Loading compiled-in X.509 certificates
stamp 1796038213.573726481 [   13.892977] Unstable clock detected, switching default tracing clock to "global"
stamp 1796038213.599257249 [   13.892977] If you want to keep using the local clock, then add:
stamp 1796038213.621862899 [   13.892977]   "trace_clock=local"
stamp 1796038213.652176573 [   13.892977] on the kernel command line
stamp 1796038217.496984876 [   17.811573] Freeing initrd memory: 44948K
stamp 1796038218.147802931 [   18.464491] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796038218.175260287 [   18.474416] Write protecting the kernel read-only data: 32768k
stamp 1796038218.202575474 [   18.516986] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796038218.226453223 [   18.531218] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796038218.497442726 [   18.797882] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796038218.530981656 [   18.806204] Run /init as init process
stamp 1796038219.259025215 [   19.566191] mount (65) used greatest stack depth: 27984 bytes left
stamp 1796038221.937426020 spare-guest: kernel 6.1.192-spare-debug, up 21.95 s
stamp 1796038222.230538079 spare-guest: running tests/vm/client/killdonor.sh at 22.26 s of uptime
stamp 1796038222.716907228 client backend: kmod
stamp 1796038222.759258173 == two donors, 2 copies per slab, swap on [22.74s]
stamp 1796038253.297867084 PASS: swapping on spare0, 4 slabs x 2 copies
stamp 1796038253.533764977 == workload running; the donor on host 3 lost once 3000 pages went out [53.56s]
stamp 1796038278.547398018 workload swapped out 3118 pages
stamp 1796038290.256258232 io_stat:    2 2 427 0 0 0 0 0 0 8192 21684224 303 0 0 0 0
stamp 1796038290.564912337 slab_stat:  1 4 24 2 4 0 4 0 0 16335
stamp 1796038290.687680338 donor_stat:
stamp 1796038290.909073449 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038290.932599782 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796038291.629755360 PASS: donor 3 lost; 4 copies left on donor 2
stamp 1796038291.844623156 == the workload finishes on the surviving copies [91.85s]
stamp 1796038334.189349932 spare-memtest: 8192 pages x 1 passes in 76.48 s, 0 bad pages
stamp 1796038334.496291094 pswpout +8741, pswpin +8256
stamp 1796038334.756494025 io_stat:    2 1174 695 0 0 0 0 0 0 33824768 35807232 310 0 0 0 0
stamp 1796038334.844025441 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796038334.897322591 donor_stat:
stamp 1796038334.994323375 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038335.017688994 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796038335.664727824 PASS: every page verified after the kill; 1172 reads from the survivors; uevent seen
stamp 1796038335.724053838 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [135.61s]
stamp 1796038347.356755398 io_stat:    2 1174 695 0 0 0 0 0 0 33824768 35807232 310 193 0 0 0
stamp 1796038347.870097315 slab_stat:  1 4 24 2 8 0 0 0 0 24286
stamp 1796038347.884475057 donor_stat:
stamp 1796038348.769488833 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796038348.815912439 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796038351.499941970 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796038351.715730249 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [151.68s]
stamp 1796038418.835374879 workload swapped out 3258 pages
stamp 1796038436.422741023     all 4 of donor 3's copies still on it 3.8 s after its loss
stamp 1796038440.284419267     donor 3's copies looked at 7.6 s after its loss, past the delay: the module's down time decides
stamp 1796038452.911087396     [  238.915581] spare: donor 10.0.0.3:18515: down 5 s: 4 slab copies re-homed to other donors; resync refills them
stamp 1796038519.020215873     copies on donor 4: 4
stamp 1796038519.472303686     re-homed 16 s after the loss was noticed
stamp 1796038519.716132435 PASS: donor 3 down 5 s: its 4 copies mapped on donor 4 and refilled
stamp 1796038520.009567646 == donor 2 killed: the job reads every page back from donor 4 alone [320.01s]
stamp 1796038564.793764932 spare-memtest: the last pass cut at page 960 of 8192 (-c)
stamp 1796038564.809233860 spare-memtest: 8192 pages x 2 passes in 191.76 s, 0 bad pages
stamp 1796038565.009462720 pswpout +9888, pswpin +8260
stamp 1796038565.146861271 PASS: every page verified from donor 4 alone (7324 pages read back, 6144 or more wanted)
stamp 1796038565.187077534 == the data is still all there (read back through swapoff) [365.27s]
stamp 1796038566.671027445 PASS: clean teardown
stamp 1796038567.298113298 SPARE-EXIT: 0
stamp 1796038567.473582460 [  367.796674] reboot: Power down
rc 0
end 1796038567.681723360
