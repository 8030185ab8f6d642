start 1796049438.033326106
stamp 1796049734.422617835 vm/run: tests/vm/client/cutlink.sh on 6.1.192-spare-debug (log: build/vm/logs/client-cutlink-6.1.192-spare-debug.log)
stamp 1796049740.093460029 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796049740.129712146 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796049740.153069220 [    0.000000] BIOS-provided physical RAM map:
stamp 1796049740.195826674 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796049740.221418998 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796049740.253783265 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796049740.285771589 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796049740.313436919 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796049740.339066474 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796049740.354936531 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796049740.368732812 [    0.000000] NX (Execute Disable) protection: active
stamp 1796049740.382519675 [    0.000000] SMBIOS 2.8 present.
stamp 1796049740.396614111 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796049740.410100014 [    0.000000] tsc: Fast TSC calibration using PIT
stamp 1796049740.427666373 [    0.000000] tsc: Detected 2096.023 MHz processor
stamp 1796049740.450918988 [    0.013289] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796049740.485529527 [    0.015229] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796049740.510872520 [    0.033947] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796049740.542515591 [    0.038139] Using GB pages for direct mapping
stamp 1796049740.572405172 [    0.052018] RAMDISK: [mem 0xbd3f5000-0xbffdffff]
stamp 1796049740.600896786 [    0.055531] ACPI: Early table checksum verification disabled
stamp 1796049740.641105344 [    0.056601] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796049740.665922041 [    0.058061] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.716207117 [    0.060212] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.752964831 [    0.062621] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.778528923 [    0.063222] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796049740.808930253 [    0.063635] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.845048587 [    0.063808] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.880578277 [    0.063889] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049740.915685947 [    0.064049] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796049740.994939871 [    0.064137] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796049741.032079649 [    0.064166] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796049741.055688027 [    0.064186] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796049741.080834468 [    0.064204] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796049741.115047575 [    0.064222] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796049741.151580534 [    0.069631] No NUMA configuration found
stamp 1796049741.189456426 [    0.069844] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796049741.232382299 [    0.072078] NODE_DATA(0) allocated [mem 0xbd3f1000-0xbd3f4fff]
stamp 1796049741.268850154 [    0.076357] Zone ranges:
stamp 1796049741.309017885 [    0.076483]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796049741.345699426 [    0.076788]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796049741.389838586 [    0.076834]   Normal   empty
stamp 1796049741.419300177 [    0.076891] Movable zone start for each node
stamp 1796049741.433235510 [    0.076941] Early memory node ranges
stamp 1796049741.449191751 [    0.077001]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796049741.465016663 [    0.077547]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796049741.479495246 [    0.078151] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796049741.494167876 [    0.080560] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796049741.510481483 [    0.082338] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796049741.525146629 [    0.296125] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796049741.539744447 [    1.032950] kasan: KernelAddressSanitizer initialized
stamp 1796049741.554843174 [    1.033995] ACPI: PM-Timer IO Port: 0x608
stamp 1796049741.569818939 [    1.035555] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796049741.583902083 [    1.037227] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796049741.597322462 [    1.037798] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796049741.611428600 [    1.038600] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796049741.626220947 [    1.038798] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796049741.639954599 [    1.039027] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796049741.658732311 [    1.039062] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796049741.673931459 [    1.039724] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796049741.726727569 [    1.039994] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796049741.761050925 [    1.041082] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796049741.785463956 [    1.043744] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796049741.842974843 [    1.044364] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796049741.884070451 [    1.076204] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796049741.958854393 [    1.084822] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796049741.995151415 [    1.097094] Fallback order for Node 0: 0 
stamp 1796049742.086786119 [    1.097645] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796049742.112589153 [    1.097835] Policy zone: DMA32
stamp 1796049742.141461919 [    1.098499] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796049742.176170344 [    1.101380] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796049742.222916760 [    1.103010] random: crng init done
stamp 1796049742.277055293 [    1.105043] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796049742.312457922 [    1.106064] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796049742.345710761 [    1.110929] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796049742.389387235 [    1.114894] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796049742.438476587 [    3.889456] Memory: 2575116K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569836K reserved, 0K cma-reserved)
stamp 1796049742.465584671 [    3.899185] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796049742.512050346 [    3.936615] Dynamic Preempt: voluntary
stamp 1796049742.549709027 [    3.955066] Running RCU self tests
stamp 1796049742.589992978 [    3.963361] rcu: Preemptible hierarchical RCU implementation.
stamp 1796049742.624148365 [    3.963432] rcu: 	RCU event tracing is enabled.
stamp 1796049742.675077150 [    3.963450] rcu: 	RCU lockdep checking is enabled.
stamp 1796049742.705380344 [    3.963493] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796049742.737870630 [    3.963566] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796049742.772546623 [    3.963750] 	Trampoline variant of Tasks RCU enabled.
stamp 1796049742.809725315 [    3.963904] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796049742.843277220 [    3.963966] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796049742.892494474 [    3.994712] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796049742.930879099 [    4.011567] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796049742.978289693 [    4.046840] Console: colour VGA+ 80x25
stamp 1796049743.015713820 [    4.108575] printk: console [ttyS0] enabled
stamp 1796049743.037523813 [    4.108978] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796049743.087498702 [    4.109255] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796049743.126821553 [    4.109401] ... MAX_LOCK_DEPTH:          48
stamp 1796049743.170723384 [    4.109547] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796049743.203842079 [    4.109748] ... CLASSHASH_SIZE:          4096
stamp 1796049743.237350341 [    4.109900] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796049743.265439213 [    4.110053] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796049743.292511239 [    4.110205] ... CHAINHASH_SIZE:          32768
stamp 1796049743.321022901 [    4.110358]  memory used by lock dependency info: 6493 kB
stamp 1796049743.340214036 [    4.110556]  memory used for stack traces: 4224 kB
stamp 1796049743.378129262 [    4.110757]  per task-struct memory footprint: 1920 bytes
stamp 1796049743.400989064 [    4.120532] ACPI: Core revision 20220331
stamp 1796049743.437068253 [    4.148796] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796049743.480080009 [    4.182808] APIC: Switch to symmetric I/O mode setup
stamp 1796049743.519218231 [    4.211374] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796049743.553808401 [    4.214735] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796049743.598935422 [    4.221225] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.04 BogoMIPS (lpj=2096023)
stamp 1796049743.627437486 [    4.225263] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796049743.681545250 [    4.237263] process: using AMD E400 aware idle routine
stamp 1796049743.776304411 [    4.237263] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796049743.825544188 [    4.238978] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796049743.876428649 [    4.242880] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796049743.909575297 [    4.244468] Spectre V2 : Mitigation: Retpolines
stamp 1796049743.963790384 [    4.244849] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796049743.989077682 [    4.247263] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796049744.023249480 [    4.262762] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796049744.043279674 [    4.263431] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796049744.072841875 [    4.263672] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796049744.101892106 [    4.264314] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796049744.137617947 [    4.264709] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796049744.176354599 [    4.265445] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796049744.265933823 [    4.265854] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796049744.312419796 [    4.266058] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796049744.355027767 [    4.266306] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796049744.391300693 [    4.266626] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796049744.427737701 [    4.488340] Freeing SMP alternatives memory: 24K
stamp 1796049744.442188992 [    4.489512] pid_max: default: 32768 minimum: 301
stamp 1796049744.455332226 [    4.520771] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049744.467017641 [    4.523400] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049744.478818714 [    4.764263] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796049744.498599065 [    4.820332] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796049744.528764489 [    4.821842] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796049744.567590139 [    4.824707] Running RCU-tasks wait API self tests
stamp 1796049744.603510738 [    4.964774] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796049744.628089604 [    4.979263] signal: max sigframe size: 3232
stamp 1796049744.651408745 [    4.989453] rcu: Hierarchical SRCU implementation.
stamp 1796049744.776487952 [    4.989872] rcu: 	Max phase no-delay instances is 400.
stamp 1796049744.810370443 [    5.017027] smp: Bringing up secondary CPUs ...
stamp 1796049744.927532278 [    5.052380] x86: Booting SMP configuration:
stamp 1796049744.955942769 [    5.054370] .... node  #0, CPUs:      #1
stamp 1796049745.008946703 [    0.193015] calibrate_delay_direct() dropping max bogoMips estimate 0 = 6206337
stamp 1796049745.044909182 [    5.155904] Callback from call_rcu_tasks() invoked.
stamp 1796049745.073001711 [    5.199856] smp: Brought up 1 node, 2 CPUs
stamp 1796049745.105048206 [    5.200471] smpboot: Max logical packages: 1
stamp 1796049745.162496404 [    5.202280] smpboot: Total of 2 processors activated (12880.72 BogoMIPS)
stamp 1796049745.195281728 [    5.310572] devtmpfs: initialized
stamp 1796049745.229204615 [    5.406894] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796049745.256732043 [    5.410663] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796049745.311305469 [    5.456877] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796049745.351527422 [    5.491345] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796049745.383061307 [    5.491748] thermal_sys: Registered thermal governor 'user_space'
stamp 1796049745.410246969 [    5.494925] cpuidle: using governor menu
stamp 1796049745.445799822 [    5.513912] PCI: Using configuration type 1 for base access
stamp 1796049745.488628571 [    5.528323] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796049745.525064637 [    5.529661] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796049745.565630081 [    5.530732] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796049745.623874196 [    5.531306] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796049745.660643442 [    5.532296] mtrr: corrected configuration.
stamp 1796049745.697760588 [    5.773462] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796049745.747968067 [    5.776385] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796049745.784845438 [    5.863263] ACPI: Added _OSI(Module Device)
stamp 1796049745.823454357 [    5.866293] ACPI: Added _OSI(Processor Device)
stamp 1796049745.862780034 [    5.867311] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796049745.899474990 [    6.209131] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796049745.939181928 [    6.348263] ACPI: Interpreter enabled
stamp 1796049745.972943761 [    6.354412] ACPI: PM: (supports S0 S5)
stamp 1796049746.015141645 [    6.355523] ACPI: Using IOAPIC for interrupt routing
stamp 1796049746.053850554 [    6.362263] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796049746.076111241 [    6.362437] PCI: Using E820 reservations for host bridge windows
stamp 1796049746.118998501 [    6.380263] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796049746.153609642 [    6.947288] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796049746.200146792 [    6.955064] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796049746.232396011 [    6.956556] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796049746.257954401 [    6.969626] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796049746.296457821 [    7.004459] PCI host bridge to bus 0000:00
stamp 1796049746.327305696 [    7.008109] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796049746.363047567 [    7.009520] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796049746.404991812 [    7.012307] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796049746.482372108 [    7.013396] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796049746.528996895 [    7.015331] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796049746.576263186 [    7.016451] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796049746.613242790 [    7.028520] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796049746.653971413 [    7.186611] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796049746.689759842 [    7.355309] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796049746.728819916 [    7.365537] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796049746.762573844 [    7.366263] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796049746.784046088 [    7.366263] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796049746.812846406 [    7.366263] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796049746.846395185 [    7.366263] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796049746.873860586 [    7.378639] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796049746.897989862 [    7.384422] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796049746.952117523 [    7.385529] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796049746.973168380 [    7.390263] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796049746.996430833 [    7.390263] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796049747.015948546 [    7.397355] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796049747.037571626 [    7.407263] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796049747.065757571 [    7.407263] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796049747.093384469 [    7.679397] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796049747.116320735 [    7.694829] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796049747.148655054 [    7.707825] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796049747.186321850 [    7.724433] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796049747.199206755 [    7.732538] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796049747.210756493 [    7.778833] iommu: Default domain type: Translated 
stamp 1796049747.223837159 [    7.780411] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796049747.236206278 [    7.798682] pps_core: LinuxPPS API ver. 1 registered
stamp 1796049747.257887257 [    7.800319] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796049747.275494363 [    7.802656] PTP clock support registered
stamp 1796049747.288216280 [    7.857739] PCI: Using ACPI for IRQ routing
stamp 1796049747.300576181 [    7.882163] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796049747.313203660 [    7.882263] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796049747.325869931 [    7.882263] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796049747.341780345 [    7.886350] vgaarb: loaded
stamp 1796049747.379747830 [    7.891420] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796049747.399273648 [    7.892409] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796049747.412377899 [    7.908198] clocksource: Switched to clocksource hpet
stamp 1796049747.427454524 [    8.036850] pnp: PnP ACPI init
stamp 1796049747.472296856 [    8.151462] pnp: PnP ACPI: found 6 devices
stamp 1796049747.502919965 [    8.691693] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796049747.559616401 [    8.703506] NET: Registered PF_INET protocol family
stamp 1796049747.608841180 [    8.732427] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796049747.641091851 [    8.826661] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796049747.686477311 [    8.831750] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796049747.710302690 [    8.841267] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796049747.736977594 [    8.885780] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796049747.773492910 [    9.005787] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796049747.801509646 [    9.109356] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049747.822436236 [    9.118431] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049747.844858589 [    9.170393] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796049747.895341140 [    9.187380] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796049747.928526811 [    9.187850] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796049747.962198543 [    9.189912] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796049747.994267901 [    9.194530] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796049748.055814138 [    9.194844] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796049748.133484454 [    9.219317] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796049748.183561697 [    9.221777] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796049748.212498404 [    9.225328] PCI: CLS 0 bytes, default 64
stamp 1796049748.251052970 [    9.366568] hrtimer: interrupt took 10368800 ns
stamp 1796049748.301281289 [    9.518766] Trying to unpack rootfs image as initramfs...
stamp 1796049748.355531042 [    9.831150] Initialise system trusted keyrings
stamp 1796049748.399553932 [    9.883907] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796049748.809150285 [   10.869937] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796049749.134004943 [   11.203533] Key type asymmetric registered
stamp 1796049749.165154569 [   11.207355] Asymmetric key parser 'x509' registered
stamp 1796049749.189604912 [   11.262016] io scheduler mq-deadline registered
stamp 1796049749.224198639 [   11.264003] io scheduler kyber registered
stamp 1796049749.333069548 [   11.397540] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796049749.374527192 [   11.419813] ACPI: button: Power Button [PWRF]
stamp 1796049749.467431811 [   11.525398] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796049749.509353032 [   11.575419] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796049749.608584330 [   11.675439] Non-volatile memory driver v1.3
stamp 1796049749.748820915 [   11.760817] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796049749.777501686 [   11.822751] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796049749.808894423 [   11.838700] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796049749.872750695 [   11.951446] rtc_cmos 00:05: RTC can wake from S4
stamp 1796049749.975859183 [   12.031933] rtc_cmos 00:05: registered as rtc0
stamp 1796049750.018089760 [   12.067556] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796049750.060524113 [   12.135490] NET: Registered PF_INET6 protocol family
stamp 1796049750.245014635 [   12.312079] Segment Routing with IPv6
stamp 1796049750.287321676 [   12.318856] In-situ OAM (IOAM) with IPv6
stamp 1796049750.328186176 [   12.332441] NET: Registered PF_PACKET protocol family
stamp 1796049750.348159492 [   12.347971] Key type dns_resolver registered
stamp 1796049750.366878012 [   12.355432] IPI shorthand broadcast: enabled
stamp 1796049750.383638806 [   12.384948] registered taskstats version 1
stamp 1796049750.443670646 [   12.391563] Loading compiled-in X.509 certificates
stamp 1796049750.671898408 [   12.730421] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796049750.784827901 [   12.845965] Unstable clock detected, switching default tracing clock to "global"
stamp 1796049750.829476075 [   12.845965] If you want to keep using the local clock, then add:
stamp 1796049750.864341476 [   12.845965]   "trace_clock=local"
stamp 1796049750.900593113 [   12.845965] on the kernel command line
stamp 1796049753.907300451 [   15.976290] Freeing initrd memory: 44972K
stamp 1796049754.797960178 [   16.855568] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796049754.848704714 [   16.862503] Write protecting the kernel read-only data: 32768k
stamp 1796049754.894235379 [   16.893596] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796049754.936094742 [   16.905934] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796049755.135068997 [   17.185257] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796049755.203195312 [   17.190617] Run /init as init process
stamp 1796049755.571661251 [   17.622492] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796049757.332609342 spare-guest: kernel 6.1.192-spare-debug, up 19.15 s
stamp 1796049757.452020959 spare-guest: running tests/vm/client/cutlink.sh at 19.24 s of uptime
stamp 1796049758.033536562 == two donors, 2 copies per slab, swap on [19.83s]
stamp 1796049791.720695397 PASS: swapping on spare0
stamp 1796049791.859817602 == workload swapping; cut 10.0.0.2 for 10 s [53.67s]
stamp 1796049810.025467038 workload swapped out 3557 pages
stamp 1796049832.801847145 		ip daddr 10.0.0.2 udp dport 4791 counter packets 911 bytes 3656580 drop
stamp 1796049832.856826448 		ip saddr 10.0.0.2 udp dport 4791 counter packets 12 bytes 49684 drop
stamp 1796049838.255619874 Terminated
stamp 1796049838.655401323 io_stat:    2 403 545 0 0 0 1 1 0 23154688 29114368 2836 0 0 0 0
stamp 1796049839.041698883 slab_stat:  1 4 24 2 4 0 4 0 0 16280
stamp 1796049839.069821939 donor_stat:
stamp 1796049839.421185798 2 0 10.0.0.2:18515 connecting 1 1 0 0 0 0 0 0 0 0
stamp 1796049839.452687611 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796049839.769136144 PASS: cut noticed, link healed
stamp 1796049840.041730666 == the workload finishes; donor 2 reconnects and its copies are mapped again [101.82s]
stamp 1796049881.960748213 spare-memtest: 8192 pages x 1 passes in 86.45 s, 0 bad pages
stamp 1796049882.230822143 pswpout +8880, pswpin +8257
stamp 1796049882.314266030 io_stat:    2 1470 670 0 0 0 1 1 0 54800384 36376576 2836 2472 0 0 0
stamp 1796049882.397167771 slab_stat:  1 4 24 2 8 0 0 0 0 32768
stamp 1796049882.441432067 donor_stat:
stamp 1796049882.495859868 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 4 4835 0
stamp 1796049882.542977567 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796049882.830958060 redrives 1, failovers 1
stamp 1796049883.113044143 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796049883.169833665 == teardown [144.97s]
stamp 1796049886.175985100 PASS: clean teardown
stamp 1796049887.669431723 SPARE-EXIT: 0
stamp 1796049887.995297415 [  150.059925] reboot: Power down
end 1796049888.272731881
