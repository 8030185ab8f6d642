start 1796058738.017854579
stamp 1796058752.432665369 mkinitramfs: note: module ublk_drv not in 6.1.192-spare-debug
stamp 1796058756.096592363 mkinitramfs: note: module aesni_intel not in 6.1.192-spare-debug
stamp 1796058756.570752987 mkinitramfs: note: module crc32c_intel not in 6.1.192-spare-debug
stamp 1796058760.056798453 mkinitramfs: note: module nft_counter not in 6.1.192-spare-debug
stamp 1796058760.267737350 mkinitramfs: note: module raid6_pq not in 6.1.192-spare-debug
stamp 1796058760.440138523 mkinitramfs: note: module xor not in 6.1.192-spare-debug
stamp 1796058797.989628098 mkinitramfs: /work/wt/dbg48/build/vm/6.1.192-spare-debug/base.cpio (40M), /work/wt/dbg48/build/vm/6.1.192-spare-debug/bench.cpio (69M), /work/wt/dbg48/build/vm/6.1.192-spare-debug/systemd.cpio (13M)
stamp 1796058801.737418293 vm/run: tests/vm/client/zzprobe.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zzprobe@kmod-6.1.192-spare-debug.log)
stamp 1796058815.329726702 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796058815.397399609 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zzprobe.sh
stamp 1796058815.435735401 [    0.000000] BIOS-provided physical RAM map:
stamp 1796058815.466312584 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796058815.488221234 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796058815.524801733 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796058815.566545969 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796058815.603363797 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796058815.662448054 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796058815.705383004 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796058815.776873299 [    0.000000] NX (Execute Disable) protection: active
stamp 1796058815.827741690 [    0.000000] SMBIOS 2.8 present.
stamp 1796058815.873290919 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796058815.902765064 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796058815.931691251 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796058815.957883802 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796058815.977212678 [    0.000000] Using GB pages for direct mapping
stamp 1796058816.001948511 [    0.000000] RAMDISK: [mem 0xbd3f3000-0xbffdffff]
stamp 1796058816.018900066 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796058816.076375887 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796058816.175410653 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.211218970 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.226312217 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.241765645 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796058816.255830405 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.269920271 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.286169857 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796058816.300634273 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796058816.315127944 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796058816.329321007 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796058816.404054041 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796058816.456969457 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796058816.500493202 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796058816.523249427 [    0.000000] No NUMA configuration found
stamp 1796058816.539253399 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796058816.612629193 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3ef000-0xbd3f2fff]
stamp 1796058816.697898596 [    0.000000] Zone ranges:
stamp 1796058816.811552732 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796058816.879175765 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796058816.916971385 [    0.000000]   Normal   empty
stamp 1796058816.975219588 [    0.000000] Movable zone start for each node
stamp 1796058817.012552321 [    0.000000] Early memory node ranges
stamp 1796058817.042200645 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796058817.127604083 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796058817.169825502 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796058817.207965794 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796058817.283013725 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796058817.354831549 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796058817.409017933 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796058817.466718368 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796058817.541839328 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796058817.587217694 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796058817.654878498 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796058817.726346611 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796058817.803246779 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796058817.888585503 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796058817.947671403 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796058817.981743513 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796058818.039379537 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796058818.083069297 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796058818.128631581 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796058818.181448551 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796058818.268922929 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796058818.335400673 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796058818.407122607 [    0.000000] Fallback order for Node 0: 0 
stamp 1796058818.438675217 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796058818.509844564 [    0.000000] Policy zone: DMA32
stamp 1796058818.579637365 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zzprobe.sh
stamp 1796058818.633347326 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796058818.696381651 [    0.000000] random: crng init done
stamp 1796058818.745356336 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796058818.795081293 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796058818.844574108 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796058818.895622430 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796058818.956410312 [    0.000000] Memory: 2575108K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569844K reserved, 0K cma-reserved)
stamp 1796058819.003006284 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796058819.040289803 [    0.000000] Dynamic Preempt: voluntary
stamp 1796058819.073651428 [    0.000000] Running RCU self tests
stamp 1796058819.119797839 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796058819.164386981 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796058819.208106186 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796058819.260421266 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796058819.340565556 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796058819.456974196 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796058819.516369120 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796058819.551543477 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796058819.581354530 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796058819.615842747 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796058819.687990396 [    0.000000] Console: colour VGA+ 80x25
stamp 1796058819.755481290 [    0.000000] printk: console [ttyS0] enabled
stamp 1796058819.822008698 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796058819.864764399 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796058819.896735932 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796058819.928523165 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796058819.969984666 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796058820.058500235 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796058820.118728798 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796058820.175952992 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796058820.228692656 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796058820.281120400 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796058820.350651104 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796058820.428016824 [    0.000000] ACPI: Core revision 20220331
stamp 1796058820.528630608 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796058820.559867000 [    0.006000] APIC: Switch to symmetric I/O mode setup
stamp 1796058820.592121328 [    0.016000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796058820.625009376 [    0.019000] tsc: Unable to calibrate against PIT
stamp 1796058820.669781915 [    0.019000] tsc: using HPET reference calibration
stamp 1796058820.733784934 [    0.021000] tsc: Detected 2096.026 MHz processor
stamp 1796058820.811333890 [    0.001256] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796058820.888368964 [    0.003430] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.05 BogoMIPS (lpj=2096026)
stamp 1796058820.965113987 [    0.007846] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796058821.039424892 [    0.012846] process: using AMD E400 aware idle routine
stamp 1796058821.090593932 [    0.012846] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796058821.125527323 [    0.012846] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796058821.152485324 [    0.014846] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796058821.181993893 [    0.015989] Spectre V2 : Mitigation: Retpolines
stamp 1796058821.212239619 [    0.016321] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796058821.264787559 [    0.019846] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796058821.318836382 [    0.025846] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796058821.386345689 [    0.025846] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796058821.454623181 [    0.025846] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796058821.505045147 [    0.025846] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796058821.560796302 [    0.025846] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796058821.665815849 [    0.025846] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796058821.697160796 [    0.025846] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796058821.732117701 [    0.025846] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796058821.761953139 [    0.026846] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796058821.794929004 [    0.026846] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796058821.849414733 [    0.205846] Freeing SMP alternatives memory: 24K
stamp 1796058821.919980918 [    0.207092] pid_max: default: 32768 minimum: 301
stamp 1796058821.977301205 [    0.251905] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796058822.066009820 [    0.255373] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796058822.139709708 [    0.476846] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796058822.193982274 [    0.548917] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796058822.278626384 [    0.550050] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796058822.363353530 [    0.555469] Running RCU-tasks wait API self tests
stamp 1796058822.456229806 [    0.591196] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796058822.522271194 [    0.604077] signal: max sigframe size: 3232
stamp 1796058822.550005765 [    0.617846] rcu: Hierarchical SRCU implementation.
stamp 1796058822.624504757 [    0.618019] rcu: 	Max phase no-delay instances is 400.
stamp 1796058822.653889091 [    0.656600] smp: Bringing up secondary CPUs ...
stamp 1796058822.707430022 [    0.704188] Callback from call_rcu_tasks() invoked.
stamp 1796058822.754333165 [    0.719110] x86: Booting SMP configuration:
stamp 1796058822.785418450 [    0.720003] .... node  #0, CPUs:      #1
stamp 1796058822.827170911 [    0.882315] smp: Brought up 1 node, 2 CPUs
stamp 1796058822.868505041 [    0.886946] smpboot: Max logical packages: 1
stamp 1796058822.891287556 [    0.888362] smpboot: Total of 2 processors activated (13105.38 BogoMIPS)
stamp 1796058822.939421229 [    0.993846] devtmpfs: initialized
stamp 1796058822.985795110 [    1.094125] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796058823.040029423 [    1.099280] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796058823.106564527 [    1.150140] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796058823.167363108 [    1.201254] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796058823.220229021 [    1.201909] thermal_sys: Registered thermal governor 'user_space'
stamp 1796058823.274918647 [    1.207183] cpuidle: using governor menu
stamp 1796058823.393801402 [    1.238078] PCI: Using configuration type 1 for base access
stamp 1796058823.455067078 [    1.254998] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796058823.505160611 [    1.255908] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796058823.563018576 [    1.256163] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796058823.624320632 [    1.257016] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796058823.678528314 [    1.258869] mtrr: corrected configuration.
stamp 1796058823.708619537 [    1.506078] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796058823.767967613 [    1.506965] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796058823.844464647 [    1.593618] ACPI: Added _OSI(Module Device)
stamp 1796058823.954679551 [    1.595097] ACPI: Added _OSI(Processor Device)
stamp 1796058824.075842122 [    1.595872] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796058824.151309697 [    1.906061] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796058824.215179023 [    2.026937] ACPI: Interpreter enabled
stamp 1796058824.282232217 [    2.031487] ACPI: PM: (supports S0 S5)
stamp 1796058824.340880528 [    2.032070] ACPI: Using IOAPIC for interrupt routing
stamp 1796058824.381158478 [    2.035996] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796058824.422652660 [    2.036938] PCI: Using E820 reservations for host bridge windows
stamp 1796058824.484764398 [    2.058846] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796058824.558918967 [    2.765378] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796058824.619915725 [    2.770170] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796058824.692916429 [    2.771908] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796058824.724419265 [    2.779041] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796058824.753388072 [    2.806306] PCI host bridge to bus 0000:00
stamp 1796058824.784127472 [    2.810965] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796058824.826558678 [    2.813122] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796058824.863763119 [    2.817024] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796058824.926726409 [    2.817960] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796058824.959961294 [    2.818846] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796058824.996019063 [    2.818846] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796058825.028611271 [    2.828846] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796058825.069829702 [    3.027949] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796058825.161567401 [    3.199356] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796058825.201279801 [    3.212421] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796058825.241060559 [    3.216979] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796058825.270644631 [    3.217960] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796058825.337497987 [    3.219942] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796058825.369265934 [    3.220907] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796058825.429549120 [    3.227870] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796058825.492470191 [    3.231135] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796058825.542254028 [    3.231959] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796058825.554448427 [    3.238507] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796058825.581048840 [    3.241948] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796058825.626406737 [    3.247955] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796058825.661276548 [    3.254019] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796058825.703831668 [    3.256916] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796058825.760235259 [    3.446047] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796058825.811478590 [    3.462322] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796058825.987016031 [    3.476397] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796058826.054260226 [    3.492724] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796058826.118516725 [    3.495537] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796058826.168650155 [    3.552181] iommu: Default domain type: Translated 
stamp 1796058826.266876009 [    3.552931] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796058826.369067922 [    3.565846] pps_core: LinuxPPS API ver. 1 registered
stamp 1796058826.496359718 [    3.565983] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796058826.549803425 [    3.568255] PTP clock support registered
stamp 1796058826.623497863 [    3.630702] PCI: Using ACPI for IRQ routing
stamp 1796058826.673949905 [    3.654823] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796058826.741287909 [    3.654846] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796058826.783444466 [    3.654846] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796058826.816747479 [    3.654903] vgaarb: loaded
stamp 1796058826.969495522 [    3.660247] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796058827.023501062 [    3.661943] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796058827.073360974 [    3.672856] clocksource: Switched to clocksource hpet
stamp 1796058827.126565488 [    3.745632] pnp: PnP ACPI init
stamp 1796058827.180973020 [    4.003284] pnp: PnP ACPI: found 6 devices
stamp 1796058827.219915520 [    4.507368] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796058827.261969563 [    4.522207] NET: Registered PF_INET protocol family
stamp 1796058827.343527329 [    4.550276] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796058827.389891091 [    4.633103] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796058827.444158848 [    4.637414] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796058827.481777773 [    4.644812] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796058827.516954334 [    4.675238] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796058827.541929330 [    4.748608] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796058827.583474839 [    4.779289] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796058827.627187733 [    4.783811] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796058827.681807466 [    4.801055] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796058827.837276991 [    4.807603] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796058827.919361515 [    4.809226] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796058827.957497749 [    4.809485] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796058827.996723196 [    4.809729] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796058828.048239774 [    4.811228] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796058828.097370455 [    4.819839] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796058828.157469081 [    4.823334] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796058828.205263813 [    4.823847] PCI: CLS 0 bytes, default 64
stamp 1796058828.267805576 [    4.939625] Trying to unpack rootfs image as initramfs...
stamp 1796058828.329264338 [    5.049558] Initialise system trusted keyrings
stamp 1796058828.426670179 [    5.111822] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796058828.524237867 [    5.913641] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796058828.605604401 [    6.140269] Key type asymmetric registered
stamp 1796058828.664216514 [    6.147240] Asymmetric key parser 'x509' registered
stamp 1796058828.695372322 [    6.166078] io scheduler mq-deadline registered
stamp 1796058828.725707817 [    6.166677] io scheduler kyber registered
stamp 1796058828.772683478 [    6.246308] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796058828.822873705 [    6.254790] ACPI: button: Power Button [PWRF]
stamp 1796058828.862511301 [    6.350048] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796058828.891817127 [    6.451018] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796058828.960018555 [    6.648672] Non-volatile memory driver v1.3
stamp 1796058829.011670560 [    6.737816] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796058829.071165493 [    6.786666] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796058829.121892527 [    6.796106] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796058829.168675933 [    6.810591] rtc_cmos 00:05: RTC can wake from S4
stamp 1796058829.207978717 [    6.870708] rtc_cmos 00:05: registered as rtc0
stamp 1796058829.240833963 [    6.886149] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796058829.299495929 [    6.938143] NET: Registered PF_INET6 protocol family
stamp 1796058829.373064519 [    7.111124] Segment Routing with IPv6
stamp 1796058829.409442174 [    7.113717] In-situ OAM (IOAM) with IPv6
stamp 1796058829.449936263 [    7.123035] NET: Registered PF_PACKET protocol family
stamp 1796058829.507382016 [    7.127616] Key type dns_resolver registered
stamp 1796058829.541597448 [    7.131531] IPI shorthand broadcast: enabled
stamp 1796058829.593294348 [    7.151309] registered taskstats version 1
stamp 1796058829.629868264 [    7.153372] Loading compiled-in X.509 certificates
stamp 1796058829.673432656 [    7.342331] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796058829.757105526 [    7.440436] Unstable clock detected, switching default tracing clock to "global"
stamp 1796058829.799647904 [    7.440436] If you want to keep using the local clock, then add:
stamp 1796058829.835823216 [    7.440436]   "trace_clock=local"
stamp 1796058829.881883292 [    7.440436] on the kernel command line
stamp 1796058830.457669478 [   11.710858] Freeing initrd memory: 44980K
stamp 1796058831.328935464 [   12.542817] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796058831.380837812 [   12.587649] Write protecting the kernel read-only data: 32768k
stamp 1796058831.417091533 [   12.618534] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796058831.489873093 [   12.634956] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796058831.817099452 [   12.841631] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796058831.912597361 [   12.845628] Run /init as init process
stamp 1796058832.467952903 [   13.692524] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796058835.415124993 spare-guest: kernel 6.1.192-spare-debug, up 16.60 s
stamp 1796058835.523748473 spare-guest: running tests/vm/client/zzprobe.sh at 16.73 s of uptime
stamp 1796058836.773704316 == rxe up [18.01s]
stamp 1796058836.805297742   t 18.05 rxe-start
stamp 1796058888.282161697   t 69.50 rxe-done
stamp 1796058889.647413364 
stamp 1796058889.721568704 == first nft (cut_link 3), then heal, then cut again [70.92s]
stamp 1796058889.757329882   t 70.98 nft1-start
stamp 1796058899.573197460   t 80.82 nft1-done
stamp 1796058902.861227957   t 84.08 heal-done
stamp 1796058906.013233614   t 87.22 nft2-done
stamp 1796058909.891026598   t 91.10 heal2-done
stamp 1796058910.409845044   modreq 54.30 start -q -- netdev-10.0.0.1
stamp 1796058910.465538110   modreq 54.57 end rc=1 -q -- netdev-10.0.0.1
stamp 1796058910.495051698   modreq 54.87 start -q -- 10.0.0.1
stamp 1796058910.527571249   modreq 55.55 end rc=1 -q -- 10.0.0.1
stamp 1796058910.584927363   modreq 56.93 start -q -- netdev-10.0.0.1
stamp 1796058910.643159155   modreq 57.29 end rc=1 -q -- netdev-10.0.0.1
stamp 1796058910.700294071   modreq 57.58 start -q -- 10.0.0.1
stamp 1796058910.748533655   modreq 57.91 end rc=1 -q -- 10.0.0.1
stamp 1796058910.813663376   modreq 59.26 start -q -- netdev-10.0.0.2
stamp 1796058911.018465716   modreq 59.65 end rc=1 -q -- netdev-10.0.0.2
stamp 1796058911.060169786   modreq 60.09 start -q -- 10.0.0.2
stamp 1796058911.113600077   modreq 60.75 end rc=1 -q -- 10.0.0.2
stamp 1796058911.187459087   modreq 61.93 start -q -- netdev-10.0.0.2
stamp 1796058911.251119177   modreq 62.14 end rc=1 -q -- netdev-10.0.0.2
stamp 1796058911.315101937   modreq 62.68 start -q -- 10.0.0.2
stamp 1796058911.448655859   modreq 63.39 end rc=1 -q -- 10.0.0.2
stamp 1796058911.506577023   modreq 65.09 start -q -- netdev-10.0.0.3
stamp 1796058911.550463164   modreq 65.77 end rc=1 -q -- netdev-10.0.0.3
stamp 1796058911.576607955   modreq 66.04 start -q -- 10.0.0.3
stamp 1796058911.614947024   modreq 66.79 end rc=1 -q -- 10.0.0.3
stamp 1796058911.692918650   modreq 67.94 start -q -- netdev-10.0.0.3
stamp 1796058911.729484711   modreq 68.32 end rc=1 -q -- netdev-10.0.0.3
stamp 1796058911.797693444   modreq 68.75 start -q -- 10.0.0.3
stamp 1796058911.849569151   modreq 69.23 end rc=1 -q -- 10.0.0.3
stamp 1796058911.909561717   modreq 76.68 start -q -- net-pf-16-proto-12
stamp 1796058911.967860156   modreq 77.61 end rc=0 -q -- net-pf-16-proto-12
stamp 1796058912.035230210   modreq 78.28 start -q -- nfnetlink-subsys-10
stamp 1796058912.084638787   modreq 79.39 end rc=0 -q -- nfnetlink-subsys-10
stamp 1796058912.129886826 nf_tables nfnetlink 
stamp 1796058912.172675299 == donors 2 and 3 (fresh starts) [93.19s]
stamp 1796058912.226660862   t 93.23 d2-start
stamp 1796058923.841969211   t 105.05 d2-up
stamp 1796058923.901388942   t 105.05 d3-start
stamp 1796058944.377536201   t 125.49 d3-up
stamp 1796058960.335476439   t 141.50 power-on
stamp 1796058975.571293005   t 156.78 powered
stamp 1796059051.749136454   t 233.00 filled
stamp 1796059051.854726752 == round 1: I/O running, donor 3 SIGKILLed, reaped, started again [233.08s]
stamp 1796059053.172705194   t 234.39 kill-209
stamp 1796059053.886227449   s 234.74 old st=R (running) wchan=0 sys=running stack: tlb_batch_pages_flush+0xb3/0x160 unmap_page_range+0x15db/0x2d20 unmap_vmas+0x223/0x370 exit_mmap+0x142/0x5f0 mmput+0x59/0x290 do_exit+0x933/0x2570
stamp 1796059056.013505225   s 236.51 old st=R (running) wchan=0 sys=running stack: unmap_page_range+0xec7/0x2d20 unmap_vmas+0x223/0x370 exit_mmap+0x142/0x5f0 mmput+0x59/0x290 do_exit+0x933/0x2570 do_group_exit+0xb0/0x250
stamp 1796059058.078383828   s 238.83 old st=R (running) wchan=0 sys=running stack: shmem_undo_range+0x32a/0xd80 shmem_evict_inode+0x369/0xad0 evict+0x327/0x7a0 __dentry_kill+0x314/0x560 __fput+0x2f8/0x9c0 task_work_run+0x116/0x200
stamp 1796059059.209106873   s 240.21 old st=R (running) wchan=0 sys=running stack: shmem_undo_range+0x32a/0xd80 shmem_evict_inode+0x369/0xad0 evict+0x327/0x7a0 __dentry_kill+0x314/0x560 __fput+0x2f8/0x9c0 task_work_run+0x116/0x200
stamp 1796059060.772565552   s 241.61 old st=R (running) wchan=0 sys=running stack: unpin_user_page_range_dirty_lock+0x1a6/0x2f0 __ib_umem_release+0x147/0x2c0 [ib_uverbs] ib_umem_release+0x7a/0x1d0 [ib_uverbs] rxe_mr_cleanup+0x74/0x240 [rdma_rxe] __rxe_cleanup+0x1b4/0x320 [rdma_rxe] rxe_dereg_mr+0x64/0x80 [rdma_rxe]
stamp 1796059061.706608977   t 242.92 reaped
stamp 1796059062.494797270   t 243.71 new-start
stamp 1796059062.940139381   s 243.87 new st=R (running) wchan=0 sys=running stack: unlink_file_vma+0x67/0xf0 free_pgtables+0x136/0x370 unmap_region+0x239/0x2e0 do_mas_align_munmap+0x5c9/0xde0 do_mas_munmap+0x15e/0x210 __vm_munmap+0x133/0x230
stamp 1796059064.211390843   s 245.21 new st=R (running) wchan=0 sys=running stack: unmap_vmas+0x183/0x370 unmap_region+0x1d9/0x2e0 do_mas_align_munmap+0x5c9/0xde0 do_mas_munmap+0x15e/0x210 mmap_region+0x16d/0x1350 do_mmap+0x718/0x1040
stamp 1796059066.153357303   s 246.59 new st=R (running) wchan=0 sys=running stack: exit_to_user_mode_prepare+0x9c/0x1b0 irqentry_exit_to_user_mode+0x5/0x20 asm_sysvec_apic_timer_interrupt+0x16/0x20
stamp 1796059067.841501202   s 249.03 new st=R (running) wchan=0 sys=running stack:
stamp 1796059069.337433169   t 250.53 new-sock
stamp 1796059069.499142138 spared[249.030]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059069.529403884 spared[249.180]: warn: open mode: no host-keys, so any host that reaches port 18515 can borrow memory (see 'sparectl gen-key' and Documentation/spared.md)
stamp 1796059069.780610683 spared[250.000]: info: lending 256M in 16 slabs of 16M on 10.0.0.3 port 18515; control socket /run/spare/spared-3.sock
stamp 1796059069.837212879   t 250.95 io-dead
stamp 1796059072.453672008   t 253.69 off
stamp 1796059072.736979724 == round 2 without a device: idle donor 3 killed and started again [253.86s]
stamp 1796059072.825625399   t 254.07 kill-247
stamp 1796059073.627737345   s 254.68 old st=R (running) wchan=0 sys=running stack:
stamp 1796059075.297442773   t 256.54 reaped
stamp 1796059076.335546349   t 257.54 new-start
stamp 1796059077.741222603   s 257.93 new st=R (running) wchan=0 sys=running stack: __alloc_pages+0x496/0x5f0 pte_alloc_one+0xe/0x100 do_fault+0xc41/0x1440 __handle_mm_fault+0x559/0x17c0 handle_mm_fault+0x223/0x7b0 do_user_addr_fault+0x2fb/0xad0
stamp 1796059079.912886346   s 261.02 new st=R (running) wchan=0 sys=running stack:
stamp 1796059080.833219313   s 262.00 new st=R (running) wchan=0 sys=running stack:
stamp 1796059082.129079778   s 263.10 new st=R (running) wchan=0 sys=running stack:
stamp 1796059083.012318033   t 264.18 new-sock
stamp 1796059088.857171678   t 270.10 powered
stamp 1796059089.589150147 == round 2: I/O running, donor 3 SIGKILLed, reaped, started again [270.77s]
stamp 1796059091.880203805   t 273.11 kill-259
stamp 1796059093.188432428   s 273.48 old st=R (running) wchan=0 sys=running stack: tlb_batch_pages_flush+0xb3/0x160 unmap_page_range+0x15db/0x2d20 unmap_vmas+0x223/0x370 exit_mmap+0x142/0x5f0 mmput+0x59/0x290 do_exit+0x933/0x2570
stamp 1796059095.368740668   s 276.41 old st=R (running) wchan=0 sys=running stack:
stamp 1796059097.559863273   s 278.29 old st=R (running) wchan=0 sys=running stack: shmem_undo_range+0x32a/0xd80 shmem_evict_inode+0x369/0xad0 evict+0x327/0x7a0 __dentry_kill+0x314/0x560 __fput+0x2f8/0x9c0 task_work_run+0x116/0x200
stamp 1796059099.760272020   s 280.54 old st=R (running) wchan=0 sys=running stack: rdmacg_uncharge_hierarchy+0x2c/0x390 destroy_hw_idr_uobject+0xce/0x130 [ib_uverbs] uverbs_destroy_uobject+0x165/0x7a0 [ib_uverbs] __uverbs_cleanup_ufile+0xfa/0x2e0 [ib_uverbs] uverbs_destroy_ufile_hw+0x75/0x270 [ib_uverbs] ib_uverbs_close+0x48/0x250 [ib_uverbs]
stamp 1796059099.806662803   t 281.03 reaped
stamp 1796059101.237628768   t 282.46 new-start
stamp 1796059101.820057219   s 282.66 new st=R (running) wchan=0 sys=running stack:
stamp 1796059103.535194085   s 284.16 new st=R (running) wchan=0 sys=running stack: unmap_vmas+0x183/0x370 unmap_region+0x1d9/0x2e0 do_mas_align_munmap+0x5c9/0xde0 do_mas_munmap+0x15e/0x210 mmap_region+0x16d/0x1350 do_mmap+0x718/0x1040
stamp 1796059106.225898275   s 286.93 new st=R (running) wchan=0 sys=running stack: mmap_region+0x4e3/0x1350 do_mmap+0x718/0x1040 vm_mmap_pgoff+0x119/0x200 ksys_mmap_pgoff+0x260/0x370 do_syscall_64+0x34/0x90 entry_SYSCALL_64_after_hwframe+0x6e/0xd8
stamp 1796059108.964056310   s 289.51 new st=R (running) wchan=0 sys=running stack: exit_to_user_mode_prepare+0x9c/0x1b0 irqentry_exit_to_user_mode+0x5/0x20 asm_exc_page_fault+0x22/0x30
stamp 1796059110.746498547   s 291.62 new st=R (running) wchan=0 sys=running stack: exit_to_user_mode_prepare+0x9c/0x1b0 irqentry_exit_to_user_mode+0x5/0x20 asm_sysvec_apic_timer_interrupt+0x16/0x20
stamp 1796059112.761861110   s 293.50 new st=R (running) wchan=0 sys=running stack: __kmem_cache_alloc_node+0x259/0x2c0 __kmalloc_node_track_caller+0x49/0x150 kmalloc_reserve+0x99/0x130 __alloc_skb+0xd0/0x270 nldev_get_chardev+0x689/0x9f0 [ib_core] rdma_nl_rcv_msg+0x2b5/0x500 [ib_core]
stamp 1796059113.827901760   t 295.05 new-sock
stamp 1796059113.961159812 spared[292.815]: info: descriptor limit 4096 (RLIMIT_NOFILE; LimitNOFILE= in the unit)
stamp 1796059114.017779211 spared[292.944]: warn: open mode: no host-keys, so any host that reaches port 18515 can borrow memory (see 'sparectl gen-key' and Documentation/spared.md)
stamp 1796059114.081965868 spared[294.653]: info: lending 256M in 16 slabs of 16M on 10.0.0.3 port 18515; control socket /run/spare/spared-3.sock
stamp 1796059114.131880052   t 295.30 io-dead
stamp 1796059114.460548200 == a fresh donor 4 on a fresh address, for comparison [295.65s]
stamp 1796059116.609342484   t 297.85 d4-start
stamp 1796059116.771529718   s 297.91 fresh st=R (running) wchan=0 sys=running stack:
stamp 1796059117.973365003   s 298.92 fresh st=R (running) wchan=0 sys=running stack: kmem_cache_alloc_bulk+0x44a/0x610 mas_alloc_nodes+0x2d0/0x690 mas_preallocate+0x9b/0x260 do_mas_align_munmap+0x184/0xde0 do_mas_munmap+0x15e/0x210 mmap_region+0x16d/0x1350
stamp 1796059119.167791199   s 300.40 fresh st=R (running) wchan=0 sys=running stack:
stamp 1796059120.447126588   s 301.50 fresh st=R (running) wchan=0 sys=running stack: exit_to_user_mode_prepare+0x9c/0x1b0 irqentry_exit_to_user_mode+0x5/0x20 asm_sysvec_apic_timer_interrupt+0x16/0x20
stamp 1796059122.597000415   s 303.34 fresh st=R (running) wchan=0 sys=running stack: exit_to_user_mode_prepare+0x9c/0x1b0 irqentry_exit_to_user_mode+0x5/0x20 asm_sysvec_apic_timer_interrupt+0x16/0x20
stamp 1796059124.129960660   t 305.32 d4-up
stamp 1796059128.576736037 PASS: probe done
stamp 1796059132.696986955 SPARE-EXIT: 0
stamp 1796059134.057681253 [  315.293211] reboot: Power down
end 1796059134.640104514 rc=0
