start 1796048276.201582358
stamp 1796049923.495609294 vm/run: tests/vm/client/zztrace.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zztrace@kmod-6.1.192-spare-debug.log)
stamp 1796049928.856428099 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796049928.900946237 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049928.945626962 [    0.000000] BIOS-provided physical RAM map:
stamp 1796049928.965189111 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796049928.980751916 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796049929.008742641 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796049929.036798050 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796049929.076605929 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796049929.104297309 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796049929.124276125 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796049929.138475589 [    0.000000] NX (Execute Disable) protection: active
stamp 1796049929.151389800 [    0.000000] SMBIOS 2.8 present.
stamp 1796049929.167291607 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796049929.196185544 [    0.000000] tsc: Fast TSC calibration using PIT
stamp 1796049929.227572379 [    0.000000] tsc: Detected 2096.015 MHz processor
stamp 1796049929.249716716 [    0.017375] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796049929.263354226 [    0.019164] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796049929.276285921 [    0.037281] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796049929.302357452 [    0.040232] Using GB pages for direct mapping
stamp 1796049929.336392262 [    0.050663] RAMDISK: [mem 0xbd3f5000-0xbffdffff]
stamp 1796049929.377404432 [    0.055862] ACPI: Early table checksum verification disabled
stamp 1796049929.411594915 [    0.056650] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796049929.448581303 [    0.057428] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.499709686 [    0.060595] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.552969965 [    0.066398] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.583352560 [    0.066782] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796049929.609200218 [    0.066920] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.643432220 [    0.067128] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.699535613 [    0.067173] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049929.771382904 [    0.067294] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796049929.836796955 [    0.067361] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796049929.911950294 [    0.067381] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796049930.049739786 [    0.067397] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796049930.140137990 [    0.067410] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796049930.175834936 [    0.067424] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796049930.204977873 [    0.071527] No NUMA configuration found
stamp 1796049930.226872307 [    0.071638] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796049930.249271066 [    0.072937] NODE_DATA(0) allocated [mem 0xbd3f1000-0xbd3f4fff]
stamp 1796049930.266897598 [    0.076428] Zone ranges:
stamp 1796049930.284222790 [    0.076518]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796049930.301066281 [    0.076672]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796049930.317636834 [    0.076703]   Normal   empty
stamp 1796049930.335842884 [    0.076746] Movable zone start for each node
stamp 1796049930.362778293 [    0.076780] Early memory node ranges
stamp 1796049930.392026990 [    0.076832]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796049930.426625346 [    0.077310]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796049930.461792700 [    0.077743] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796049930.611105479 [    0.079913] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796049930.642859059 [    0.081150] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796049930.671965296 [    0.226639] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796049930.709756227 [    1.105682] kasan: KernelAddressSanitizer initialized
stamp 1796049930.757707134 [    1.107213] ACPI: PM-Timer IO Port: 0x608
stamp 1796049930.832038959 [    1.108896] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796049930.904733635 [    1.110765] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796049930.960807401 [    1.111307] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796049931.019833286 [    1.111959] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796049931.094974453 [    1.112117] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796049931.213561318 [    1.112281] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796049931.282005035 [    1.112315] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796049931.373764376 [    1.112739] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796049931.490927655 [    1.112933] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796049931.541203233 [    1.113781] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796049931.586832315 [    1.116009] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796049931.627492197 [    1.116540] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796049931.666507816 [    1.135784] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796049931.712897558 [    1.145376] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796049931.745805905 [    1.153982] Fallback order for Node 0: 0 
stamp 1796049931.794308666 [    1.154765] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796049931.854929873 [    1.155300] Policy zone: DMA32
stamp 1796049931.871952723 [    1.155994] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049931.899950852 [    1.158539] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796049931.936046834 [    1.160122] random: crng init done
stamp 1796049931.965068672 [    1.176479] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796049931.981251391 [    1.184697] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796049931.997083206 [    1.196098] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796049932.026378101 [    1.228245] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796049932.041812874 [    3.347032] Memory: 2575116K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569836K reserved, 0K cma-reserved)
stamp 1796049932.081913177 [    3.364892] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796049932.117622988 [    3.431173] Dynamic Preempt: voluntary
stamp 1796049932.151968796 [    3.459752] Running RCU self tests
stamp 1796049932.169767145 [    3.477593] rcu: Preemptible hierarchical RCU implementation.
stamp 1796049932.197054278 [    3.477698] rcu: 	RCU event tracing is enabled.
stamp 1796049932.213485027 [    3.477717] rcu: 	RCU lockdep checking is enabled.
stamp 1796049932.229365474 [    3.477764] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796049932.245724497 [    3.478186] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796049932.259994535 [    3.478379] 	Trampoline variant of Tasks RCU enabled.
stamp 1796049932.273587150 [    3.478875] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796049932.292540656 [    3.479214] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796049932.307431418 [    3.514306] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796049932.324361303 [    3.541755] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796049932.355712010 [    3.589487] Console: colour VGA+ 80x25
stamp 1796049932.415849510 [    3.686409] printk: console [ttyS0] enabled
stamp 1796049932.509218709 [    3.686753] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796049932.540700434 [    3.691265] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796049932.565138654 [    3.691486] ... MAX_LOCK_DEPTH:          48
stamp 1796049932.580784567 [    3.691660] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796049932.596812293 [    3.691837] ... CLASSHASH_SIZE:          4096
stamp 1796049932.616457868 [    3.691994] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796049932.649732689 [    3.692193] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796049932.720376501 [    3.692351] ... CHAINHASH_SIZE:          32768
stamp 1796049932.776272040 [    3.692508]  memory used by lock dependency info: 6493 kB
stamp 1796049932.829940853 [    3.692695]  memory used for stack traces: 4224 kB
stamp 1796049932.873811725 [    3.692862]  per task-struct memory footprint: 1920 bytes
stamp 1796049932.918886437 [    3.705201] ACPI: Core revision 20220331
stamp 1796049932.968668812 [    3.729423] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796049933.022299241 [    3.801660] APIC: Switch to symmetric I/O mode setup
stamp 1796049933.087500920 [    3.850430] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796049933.136668050 [    3.863607] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796049933.201051138 [    3.868520] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.03 BogoMIPS (lpj=2096015)
stamp 1796049933.235721180 [    3.879463] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796049933.272547485 [    3.888908] process: using AMD E400 aware idle routine
stamp 1796049933.322013100 [    3.890009] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796049933.369053353 [    3.890520] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796049933.416558866 [    3.891845] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796049933.441584579 [    3.893520] Spectre V2 : Mitigation: Retpolines
stamp 1796049933.464751611 [    3.894975] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796049933.519478467 [    3.912623] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796049933.597289159 [    3.918988] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796049933.689286381 [    3.919357] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796049933.751496064 [    3.919580] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796049933.800348578 [    3.919842] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796049933.831353551 [    3.920981] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796049933.847647691 [    3.922107] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796049933.879463529 [    3.922587] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796049933.906903763 [    3.923613] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796049933.936355325 [    3.923959] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796049933.969756544 [    3.924710] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796049934.013255311 [    4.114323] Freeing SMP alternatives memory: 24K
stamp 1796049934.057369946 [    4.115717] pid_max: default: 32768 minimum: 301
stamp 1796049934.082352786 [    4.147255] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049934.095762335 [    4.148666] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049934.107322843 [    4.370520] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796049934.123331312 [    4.428593] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796049934.141503478 [    4.430349] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796049934.164819684 [    4.434560] Running RCU-tasks wait API self tests
stamp 1796049934.191223134 [    4.576813] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796049934.213706783 [    4.587255] signal: max sigframe size: 3232
stamp 1796049934.246919245 [    4.596248] rcu: Hierarchical SRCU implementation.
stamp 1796049934.279122987 [    4.596955] rcu: 	Max phase no-delay instances is 400.
stamp 1796049934.305751063 [    4.625520] smp: Bringing up secondary CPUs ...
stamp 1796049934.326855601 [    4.658407] x86: Booting SMP configuration:
stamp 1796049934.340103784 [    4.659636] .... node  #0, CPUs:      #1
stamp 1796049934.353037903 [    0.282744] calibrate_delay_direct() dropping max bogoMips estimate 1 = 8235683
stamp 1796049934.365294650 [    4.771494] Callback from call_rcu_tasks() invoked.
stamp 1796049934.382587711 [    4.841543] smp: Brought up 1 node, 2 CPUs
stamp 1796049934.403025957 [    4.842755] smpboot: Max logical packages: 1
stamp 1796049934.422685149 [    4.845727] smpboot: Total of 2 processors activated (13070.86 BogoMIPS)
stamp 1796049934.440917629 [    4.995553] devtmpfs: initialized
stamp 1796049934.465842029 [    5.042520] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796049934.482432520 [    5.045089] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796049934.498898426 [    5.088544] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796049934.561994949 [    5.164520] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796049934.596841525 [    5.164520] thermal_sys: Registered thermal governor 'user_space'
stamp 1796049934.623642989 [    5.169101] cpuidle: using governor menu
stamp 1796049934.663805290 [    5.200553] PCI: Using configuration type 1 for base access
stamp 1796049934.689363890 [    5.219520] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796049934.715272695 [    5.219520] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796049934.738872737 [    5.219747] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796049934.759552671 [    5.220543] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796049934.779770340 [    5.220977] mtrr: corrected configuration.
stamp 1796049934.797957694 [    5.619690] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796049934.824162620 [    5.619690] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796049934.847049261 [    5.808722] ACPI: Added _OSI(Module Device)
stamp 1796049934.877669766 [    5.810109] ACPI: Added _OSI(Processor Device)
stamp 1796049934.904644519 [    5.810564] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796049934.927404681 [    6.182945] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796049934.950717791 [    6.334520] ACPI: Interpreter enabled
stamp 1796049934.976787519 [    6.340686] ACPI: PM: (supports S0 S5)
stamp 1796049934.993644735 [    6.341670] ACPI: Using IOAPIC for interrupt routing
stamp 1796049935.009337177 [    6.345520] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796049935.033874314 [    6.345520] PCI: Using E820 reservations for host bridge windows
stamp 1796049935.058438983 [    6.363520] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796049935.387834999 [    6.971520] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796049935.412968846 [    6.973799] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796049935.437136083 [    6.974782] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796049935.457113035 [    6.982878] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796049935.480694834 [    7.020193] PCI host bridge to bus 0000:00
stamp 1796049935.506644254 [    7.022827] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796049935.531853704 [    7.023697] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796049935.557645627 [    7.024669] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796049935.577642167 [    7.025520] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796049935.589723872 [    7.025954] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796049935.601879617 [    7.027349] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796049935.613452669 [    7.041420] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796049935.772706479 [    7.239064] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796049935.938512856 [    7.398842] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796049935.969672572 [    7.409520] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796049936.007265608 [    7.413716] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796049936.035721734 [    7.415767] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796049936.070328536 [    7.416346] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796049936.097918484 [    7.416520] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796049936.116689383 [    7.417520] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796049936.140700905 [    7.419520] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796049936.164792418 [    7.419520] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796049936.183144705 [    7.419520] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796049936.199617875 [    7.419520] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796049936.214375215 [    7.420520] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796049936.228385631 [    7.422520] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796049936.243839009 [    7.423520] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796049936.390139415 [    7.624342] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796049936.423991449 [    7.647968] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796049936.447561414 [    7.655520] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796049936.468796039 [    7.666656] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796049936.488958653 [    7.667520] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796049936.537934210 [    7.720724] iommu: Default domain type: Translated 
stamp 1796049936.555322291 [    7.722656] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796049936.579896819 [    7.739076] pps_core: LinuxPPS API ver. 1 registered
stamp 1796049936.610563080 [    7.739520] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796049936.639081094 [    7.741272] PTP clock support registered
stamp 1796049936.713079057 [    7.827921] PCI: Using ACPI for IRQ routing
stamp 1796049936.917940058 [    7.856520] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796049937.012810579 [    7.856520] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796049937.073741522 [    7.856520] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796049937.144197358 [    7.859579] vgaarb: loaded
stamp 1796049937.173904604 [    7.864925] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796049937.229967910 [    7.866640] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796049937.299459702 [    7.881165] clocksource: Switched to clocksource hpet
stamp 1796049937.346567132 [    7.968170] pnp: PnP ACPI init
stamp 1796049937.417955784 [    8.139026] pnp: PnP ACPI: found 6 devices
stamp 1796049937.555803415 [    8.627364] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796049937.600414298 [    8.637454] NET: Registered PF_INET protocol family
stamp 1796049937.706714240 [    8.777456] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796049937.846428095 [    8.931706] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796049937.875023185 [    8.947539] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796049937.908584026 [    8.948198] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796049937.953056318 [    9.051375] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796049938.116644685 [    9.227533] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796049938.167250178 [    9.260425] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049938.200424468 [    9.268431] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049938.231462213 [    9.324215] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796049938.249062095 [    9.340676] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796049938.282974242 [    9.342414] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796049938.339547684 [    9.342649] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796049938.397702882 [    9.342921] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796049938.454145987 [    9.342921] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796049938.480840298 [    9.370157] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796049938.517718311 [    9.372427] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796049938.544908872 [    9.374245] PCI: CLS 0 bytes, default 64
stamp 1796049938.576647704 [    9.546637] Trying to unpack rootfs image as initramfs...
stamp 1796049938.669732204 [    9.765320] Initialise system trusted keyrings
stamp 1796049938.729604532 [    9.807460] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796049939.461203132 [   10.565419] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796049939.577322384 [   10.674549] Key type asymmetric registered
stamp 1796049939.638220224 [   10.676755] Asymmetric key parser 'x509' registered
stamp 1796049939.689322408 [   10.728603] io scheduler mq-deadline registered
stamp 1796049939.781057222 [   10.730561] io scheduler kyber registered
stamp 1796049939.850989347 [   10.803550] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796049939.914829658 [   10.812382] ACPI: button: Power Button [PWRF]
stamp 1796049939.981295871 [   10.919246] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796049940.109604602 [   10.953541] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796049940.195598647 [   11.078416] Non-volatile memory driver v1.3
stamp 1796049940.265530672 [   11.256317] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796049940.331763623 [   11.339621] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796049940.441412465 [   11.354250] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796049940.508990292 [   11.382364] rtc_cmos 00:05: RTC can wake from S4
stamp 1796049940.540445267 [   11.462594] rtc_cmos 00:05: registered as rtc0
stamp 1796049940.570734464 [   11.488579] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796049940.599174301 [   11.614904] NET: Registered PF_INET6 protocol family
stamp 1796049940.741474953 [   11.847470] Segment Routing with IPv6
stamp 1796049940.774743802 [   11.871741] In-situ OAM (IOAM) with IPv6
stamp 1796049940.829941901 [   11.926446] NET: Registered PF_PACKET protocol family
stamp 1796049940.896778955 [   11.937165] Key type dns_resolver registered
stamp 1796049940.993755444 [   11.939650] IPI shorthand broadcast: enabled
stamp 1796049941.067975627 [   11.960356] registered taskstats version 1
stamp 1796049941.139949228 [   11.960707] Loading compiled-in X.509 certificates
stamp 1796049941.225226496 [   12.304000] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796049941.318778631 [   12.415951] Unstable clock detected, switching default tracing clock to "global"
stamp 1796049941.364538820 [   12.415951] If you want to keep using the local clock, then add:
stamp 1796049941.416888967 [   12.415951]   "trace_clock=local"
stamp 1796049941.448362096 [   12.415951] on the kernel command line
stamp 1796049945.514829323 [   16.608628] Freeing initrd memory: 44972K
stamp 1796049946.233443499 [   17.345573] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796049946.252796501 [   17.356245] Write protecting the kernel read-only data: 32768k
stamp 1796049946.282248373 [   17.396365] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796049946.300734855 [   17.414708] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796049946.533462675 [   17.628654] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796049946.625821853 [   17.638742] Run /init as init process
stamp 1796049947.567624649 [   18.652722] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796049949.467011291 spare-guest: kernel 6.1.192-spare-debug, up 20.25 s
stamp 1796049949.511688629 spare-guest: running tests/vm/client/zztrace.sh at 20.32 s of uptime
stamp 1796049949.904759073 debug kernel: 5 rounds, FLIP=0 (round 1's backup is sync)
stamp 1796049949.947245504 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [20.75s]
stamp 1796049969.809974277 PASS: donors up, backup /dev/mapper/slow
stamp 1796049969.953993694   t 40.78 r1 cfg-done
stamp 1796049971.624032784   t 42.42 r1 powered
stamp 1796049972.719682194   t 43.44 r1 fault-kill
stamp 1796049973.936641433   t 44.75 r1 fault-done
stamp 1796049975.689358170   t 46.49 r1 io-dead
stamp 1796049976.336307260   t 47.14 r1 off-removed
stamp 1796049976.421348993   t 47.24 r1 old3-reaped
stamp 1796049979.623374644   t 50.45 r1 restored
stamp 1796049981.019174648 round 1: kill, backup sync: off and removed [51.76s]
stamp 1796049981.499736762   t 52.25 r2 cfg-done
stamp 1796049986.912714432   t 57.71 r2 powered
stamp 1796049989.132198426   t 59.93 r2 fault-cut
stamp 1796050017.268451768   t 88.05 r2 fault-done
stamp 1796050023.451572264   t 94.26 r2 io-dead
stamp 1796050024.049459544   t 94.86 r2 off-removed
stamp 1796050026.375219553   t 97.16 r2 restored
stamp 1796050026.841708121 round 2: cut, backup async: off and removed [97.65s]
stamp 1796050026.987201508   t 97.79 r3 cfg-done
stamp 1796050027.871557119   t 98.66 r3 powered
stamp 1796050029.021502999   t 99.79 r3 fault-evict
stamp 1796050036.393407160   t 107.09 r3 fault-done
stamp 1796050038.501860284   t 109.20 r3 io-dead
stamp 1796050039.883800638   t 110.68 r3 off-removed
stamp 1796050039.907519626   t 110.69 r3 restored
stamp 1796050041.728272788 round 3: evict, backup sync: off and removed [112.53s]
stamp 1796050041.983249394   t 112.80 r4 cfg-done
stamp 1796050045.080499220   t 115.86 r4 powered
stamp 1796050046.648752976   t 117.39 r4 fault-none
stamp 1796050047.785009388   t 118.38 r4 fault-done
stamp 1796050049.096959537   t 119.90 r4 io-dead
stamp 1796050050.595724980   t 121.41 r4 off-removed
stamp 1796050050.617241146   t 121.42 r4 restored
stamp 1796050053.044589496 round 4: none, backup async: off and removed [123.79s]
stamp 1796050053.834653050   t 124.61 r5 cfg-done
stamp 1796050058.814701370   t 129.50 r5 powered
stamp 1796050061.140658762   t 131.87 r5 fault-restart
stamp 1796050083.281756748   t 153.88 r5 old3-reaped
stamp 1796050106.604723695   t 177.22 r5 fault-done
stamp 1796050108.993882498   t 179.77 r5 io-dead
stamp 1796050109.845331365   t 180.62 r5 off-removed
stamp 1796050109.930945571   t 180.65 r5 restored
stamp 1796050112.827995351 round 5: restart, backup sync: off and removed [183.60s]
stamp 1796050114.883953916 error roads taken: 3; slabs evicted: 2
stamp 1796050114.908438543 PASS: 5 rounds powered off and removed under I/O, 4 with a fault in flight
stamp 1796050115.009736264 == unload [185.78s]
stamp 1796050118.183564338 PASS: spare.ko unloaded; no splat
stamp 1796050118.253844983 ---- dmesg
stamp 1796050118.775753519 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796050118.796901900 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796050118.811098810 [    1.155994] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796050118.824388251 [   21.790623] rdma_rxe: loaded
stamp 1796050118.840855770 [   26.801561] infiniband rxe1: set active
stamp 1796050118.859842679 [   26.803459] infiniband rxe1: added h1
stamp 1796050118.882357487 [   28.180716] infiniband rxe2: set active
stamp 1796050118.907503536 [   28.181114] infiniband rxe2: added h2
stamp 1796050118.933269229 [   29.637086] infiniband rxe3: set active
stamp 1796050118.960635132 [   29.638730] infiniband rxe3: added h3
stamp 1796050118.983595073 [   40.863760] spare: loading out-of-tree module taints kernel.
stamp 1796050119.008922476 [   40.894397] spare: loaded; configure devices in /sys/kernel/config/spare/
stamp 1796050119.057057021 [   41.958179] spare: donor 10.0.0.2:18515: connected (session 87acc4fb24fb2364)
stamp 1796050119.081878106 [   42.008266] spare: donor 10.0.0.3:18515: connected (session 57ffade36b1e1a99)
stamp 1796050119.123366366 [   42.457546] spare: t1: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796050119.170503483 [   46.603302] spare: donor 10.0.0.3:18515: data connection rejected: consumer defined
stamp 1796050119.203732316 [   46.694082] spare: donor 10.0.0.3:18515: data connection for queue 1 failed: -111
stamp 1796050119.244525030 [   46.705605] spare: donor 10.0.0.3:18515: disconnected; 2 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796050119.295244348 [   47.139316] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050119.362332840 [   53.273458] spare: donor 10.0.0.2:18515: connected (session 1bc1f1d94739264d)
stamp 1796050119.420721128 [   53.859711] spare: donor 10.0.0.3:18515: connected (session 8a5dec6547f26ae5)
stamp 1796050119.444998142 [   57.734119] spare: t2: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796050119.484000968 [   94.370088] spare: donor 10.0.0.3:18515: RDMA WRITE of slab 0 failed: transport retry counter exceeded
stamp 1796050119.517147886 [   94.422624] spare: donor 10.0.0.3:18515: RDMA operation failed; 1 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796050119.541600222 [   94.700129] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050119.578180131 [   98.246291] spare: donor 10.0.0.2:18515: connected (session cddc649ad95172bf)
stamp 1796050119.615208187 [   98.273332] spare: donor 10.0.0.3:18515: connected (session 2ac30637bc0e82f8)
stamp 1796050119.649705121 [   98.403440] spare: t3: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796050119.706386688 [  104.956192] spare: donor 10.0.0.2:18515: slab 0 cannot move (no other donor takes it): given back
stamp 1796050119.732065968 [  105.013103] spare: donor 10.0.0.2:18515: slab 0 evicted; using other copies and backup
stamp 1796050119.760769694 [  105.068386] spare: donor 10.0.0.2:18515: slab 1 cannot move (no other donor takes it): given back
stamp 1796050119.793234209 [  105.083641] spare: donor 10.0.0.2:18515: slab 1 evicted; using other copies and backup
stamp 1796050119.840618233 [  110.133499] spare: donor 10.0.0.2:18515: 0 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050119.876292326 [  110.477393] spare: donor 10.0.0.3:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050119.905370170 [  113.710373] spare: donor 10.0.0.2:18515: connected (session 122dcf821f510634)
stamp 1796050119.959486701 [  114.606362] spare: donor 10.0.0.3:18515: connected (session 2a7d022f580dbe93)
stamp 1796050119.996996750 [  115.608593] spare: t4: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796050120.045099945 [  120.607354] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050120.087908406 [  121.090747] spare: donor 10.0.0.3:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050120.137539875 [  125.826485] spare: donor 10.0.0.2:18515: connected (session 786de9af3a042ec2)
stamp 1796050120.180140792 [  126.243194] spare: donor 10.0.0.3:18515: connected (session 51c00d7b3dd457ad)
stamp 1796050120.210447203 [  129.295745] spare: t5: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796050120.247874325 [  153.651796] spare: donor 10.0.0.3:18515: disconnected; 2 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796050120.311320319 [  155.000462] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.363043438 [  155.700490] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 1000 ms
stamp 1796050120.384630750 [  157.895491] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.418991116 [  158.169959] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.440150568 [  159.924164] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.493759457 [  160.208698] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.599230970 [  161.452235] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.625985856 [  161.923675] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.674391264 [  163.488662] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.713540326 [  163.532081] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.744177482 [  165.030966] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.775117421 [  165.186733] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.824556306 [  166.428530] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050120.873967057 [  166.471274] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050120.957002110 [  168.005579] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050121.036339141 [  168.120735] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050121.109550385 [  169.632193] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050121.225385148 [  169.686065] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050121.347397278 [  171.051450] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050121.445254193 [  171.268333] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050121.542796023 [  172.568142] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050121.634957926 [  172.631606] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050121.693926132 [  173.895960] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796050121.769757597 [  174.009522] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796050121.843089128 [  174.044031] spare: donor 10.0.0.3:18515 lost: 2 slab copies failed: not back within 20000 ms of its restart (hold_ms), the copies it held are given up, as without a hold (I/O that only they could serve fails)
stamp 1796050121.879399105 [  179.764148] spare: donor 10.0.0.3:18515: connected (session 7fc4d800d8b5719f)
stamp 1796050121.926890672 [  180.349298] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050121.993328901 [  180.615535] spare: donor 10.0.0.3:18515: data connection for queue 0 failed: -108
stamp 1796050122.027297446 [  180.631626] spare: donor 10.0.0.3:18515: 0 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796050122.077548277 SPARE-EXIT: 0
stamp 1796050122.121620761 [  191.336687] reboot: Power down
end 1796050122.187553424
