start 1796059810.038457043
stamp 1796060172.138829953 vm/run: tests/vm/client/zz-cl-B.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zz-cl-B-6.1.192-spare-debug.log)
stamp 1796060183.962142603 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796060184.750839579 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zz-cl-B.sh
stamp 1796060185.087793095 [    0.000000] BIOS-provided physical RAM map:
stamp 1796060185.214080359 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796060185.326413943 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796060185.457085378 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796060185.634016898 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796060185.951237252 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796060186.210461069 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796060186.429239008 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796060186.621893277 [    0.000000] NX (Execute Disable) protection: active
stamp 1796060187.013670071 [    0.000000] SMBIOS 2.8 present.
stamp 1796060187.226856915 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796060187.464594371 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796060187.810365962 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796060188.080418752 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796060188.325954012 [    0.000000] Using GB pages for direct mapping
stamp 1796060188.533682311 [    0.000000] RAMDISK: [mem 0xbd3f2000-0xbffdffff]
stamp 1796060188.580177362 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796060188.597168301 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796060188.692097714 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060188.753425037 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060188.804862275 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060188.852514346 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796060188.888556015 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060188.940935156 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060189.112499906 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796060189.233507563 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796060189.281654421 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796060189.325895014 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796060189.603626021 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796060189.636130914 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796060189.664848555 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796060189.712080511 [    0.000000] No NUMA configuration found
stamp 1796060189.785993383 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796060189.906335721 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3ee000-0xbd3f1fff]
stamp 1796060191.652066120 [    0.000000] Zone ranges:
stamp 1796060192.249129511 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796060192.444614669 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796060192.616866288 [    0.000000]   Normal   empty
stamp 1796060192.980592523 [    0.000000] Movable zone start for each node
stamp 1796060193.007725936 [    0.000000] Early memory node ranges
stamp 1796060193.072761089 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796060193.103049315 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796060193.149812984 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796060193.206736940 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796060193.270492320 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796060193.322868697 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796060193.439461806 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796060193.535499477 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796060193.635553012 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796060193.670121642 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796060193.707928192 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796060193.753802728 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796060193.793645984 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796060193.854774371 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796060193.876109846 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796060193.902999918 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796060193.935166400 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796060193.950843532 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796060193.969158619 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796060193.988231179 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796060194.011044342 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796060194.028746408 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796060194.048300340 [    0.000000] Fallback order for Node 0: 0 
stamp 1796060194.111680260 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796060194.133820699 [    0.000000] Policy zone: DMA32
stamp 1796060194.175355387 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zz-cl-B.sh
stamp 1796060194.232552992 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796060194.259808556 [    0.000000] random: crng init done
stamp 1796060194.311715743 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796060194.352057263 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796060194.385704248 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796060194.447121281 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796060194.526932430 [    0.000000] Memory: 2575104K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569848K reserved, 0K cma-reserved)
stamp 1796060194.680316157 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796060194.800600295 [    0.000000] Dynamic Preempt: voluntary
stamp 1796060194.861296863 [    0.000000] Running RCU self tests
stamp 1796060194.942513934 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796060194.991288280 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796060195.051005315 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796060195.100006881 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796060195.172668433 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796060195.201494762 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796060195.270881443 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796060195.311624814 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796060195.409014025 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796060195.481730952 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796060195.562848174 [    0.000000] Console: colour VGA+ 80x25
stamp 1796060195.609666226 [    0.000000] printk: console [ttyS0] enabled
stamp 1796060195.632770490 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796060195.650203947 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796060195.667844577 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796060195.743996418 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796060195.941199189 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796060196.022201422 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796060196.071253975 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796060196.135750379 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796060196.180434982 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796060196.221872156 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796060196.272635027 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796060196.325688605 [    0.000000] ACPI: Core revision 20220331
stamp 1796060196.390531484 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796060196.456610303 [    0.002000] APIC: Switch to symmetric I/O mode setup
stamp 1796060196.494195395 [    0.150000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796060196.535838078 [    0.162000] tsc: Unable to calibrate against PIT
stamp 1796060196.585211118 [    0.166000] tsc: using HPET reference calibration
stamp 1796060196.640459471 [    0.172000] tsc: Detected 2096.009 MHz processor
stamp 1796060196.664463438 [    0.014037] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796060196.687245112 [    0.039657] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.01 BogoMIPS (lpj=2096009)
stamp 1796060196.715001214 [    0.077048] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796060196.737786403 [    0.109671] process: using AMD E400 aware idle routine
stamp 1796060196.763078159 [    0.114459] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796060196.782384132 [    0.119570] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796060196.809915648 [    0.208048] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796060196.837049902 [    0.236439] Spectre V2 : Mitigation: Retpolines
stamp 1796060196.862472095 [    0.242880] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796060196.877887632 [    0.375048] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796060196.903435712 [    0.426406] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796060196.918934407 [    0.433048] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796060196.971580132 [    0.433048] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796060197.023681017 [    0.433577] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796060197.078738659 [    0.434048] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796060197.133580504 [    0.436612] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796060197.192123695 [    0.438048] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796060197.264050737 [    0.438048] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796060197.298455106 [    0.438048] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796060197.311979673 [    0.438048] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796060197.349857047 [    0.825566] Freeing SMP alternatives memory: 24K
stamp 1796060197.373493499 [    0.835239] pid_max: default: 32768 minimum: 301
stamp 1796060197.412449836 [    0.893477] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796060197.452988479 [    0.895525] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796060197.487448854 [    1.196048] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796060197.530429050 [    1.230099] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796060197.568716661 [    1.231125] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796060197.615683605 [    1.233834] Running RCU-tasks wait API self tests
stamp 1796060197.660594156 [    1.360469] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796060197.705030068 [    1.367269] signal: max sigframe size: 3232
stamp 1796060197.737902436 [    1.374120] rcu: Hierarchical SRCU implementation.
stamp 1796060197.791656821 [    1.375175] rcu: 	Max phase no-delay instances is 400.
stamp 1796060197.831759770 [    1.394282] smp: Bringing up secondary CPUs ...
stamp 1796060197.874961114 [    1.417300] x86: Booting SMP configuration:
stamp 1796060197.909502993 [    1.418168] .... node  #0, CPUs:      #1
stamp 1796060197.956049151 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 2 = 12380932
stamp 1796060198.010878831 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 3 = 7932124
stamp 1796060198.044324185 [    1.558289] Callback from call_rcu_tasks() invoked.
stamp 1796060198.101892501 [    1.608802] smp: Brought up 1 node, 2 CPUs
stamp 1796060198.187490607 [    1.610234] smpboot: Max logical packages: 1
stamp 1796060198.270217115 [    1.612227] smpboot: Total of 2 processors activated (13028.10 BogoMIPS)
stamp 1796060198.324834144 [    1.810189] devtmpfs: initialized
stamp 1796060198.360450146 [    1.913322] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796060198.399141903 [    1.917302] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796060198.427691547 [    1.971391] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796060198.484207440 [    2.016945] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796060198.548920714 [    2.017184] thermal_sys: Registered thermal governor 'user_space'
stamp 1796060198.584416669 [    2.021185] cpuidle: using governor menu
stamp 1796060198.655273796 [    2.051048] PCI: Using configuration type 1 for base access
stamp 1796060198.714236221 [    2.074048] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796060198.753709728 [    2.075192] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796060198.781043159 [    2.076168] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796060198.807248404 [    2.077205] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796060198.865199926 [    2.078127] mtrr: corrected configuration.
stamp 1796060198.900441089 [    2.541387] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796060198.940194386 [    2.542169] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796060198.981781073 [    2.693624] ACPI: Added _OSI(Module Device)
stamp 1796060199.056925396 [    2.695097] ACPI: Added _OSI(Processor Device)
stamp 1796060199.101906781 [    2.695379] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796060199.168221878 [    3.253133] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796060199.243250452 [    3.472661] ACPI: Interpreter enabled
stamp 1796060199.303981065 [    3.480337] ACPI: PM: (supports S0 S5)
stamp 1796060199.357803889 [    3.481446] ACPI: Using IOAPIC for interrupt routing
stamp 1796060199.417266732 [    3.488146] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796060199.473159315 [    3.489208] PCI: Using E820 reservations for host bridge windows
stamp 1796060199.515705690 [    3.520048] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796060199.579025045 [    4.562512] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796060199.627135835 [    4.576206] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796060199.677163975 [    4.577680] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796060199.724612861 [    4.587360] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796060199.773373982 [    4.640653] PCI host bridge to bus 0000:00
stamp 1796060199.819193243 [    4.644287] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796060199.860736107 [    4.646269] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796060199.883123465 [    4.647164] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796060199.942718427 [    4.648164] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796060199.985486993 [    4.648603] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796060200.016042694 [    4.650631] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796060200.043161960 [    4.667048] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796060200.064212776 [    5.007519] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796060200.129337149 [    5.288431] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796060200.150014047 [    5.308198] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796060200.170684122 [    5.313048] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796060200.196073383 [    5.315354] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796060200.223850484 [    5.316679] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796060200.264149013 [    5.317048] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796060200.278882939 [    5.335249] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796060200.295078593 [    5.340996] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796060200.312693754 [    5.343429] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796060200.329109926 [    5.357102] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796060200.345942676 [    5.363370] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796060200.441582944 [    5.372201] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796060200.499751997 [    5.380048] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796060200.524071893 [    5.387436] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796060201.044005350 [    5.798353] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796060201.091726061 [    5.818330] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796060201.136186540 [    5.842988] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796060201.164813431 [    5.860048] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796060201.202815020 [    5.872517] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796060201.378914676 [    5.962237] iommu: Default domain type: Translated 
stamp 1796060201.468400211 [    5.962835] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796060201.563754359 [    5.971048] pps_core: LinuxPPS API ver. 1 registered
stamp 1796060201.644059183 [    5.971048] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796060201.696401163 [    5.971048] PTP clock support registered
stamp 1796060201.754916512 [    6.076261] PCI: Using ACPI for IRQ routing
stamp 1796060201.797886509 [    6.116048] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796060201.869237530 [    6.116048] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796060201.909187789 [    6.116048] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796060201.957706651 [    6.117130] vgaarb: loaded
stamp 1796060202.014750434 [    6.125399] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796060202.060992376 [    6.128109] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796060202.115802680 [    6.145810] clocksource: Switched to clocksource hpet
stamp 1796060202.159764424 [    6.275716] pnp: PnP ACPI init
stamp 1796060202.201184376 [    6.454752] pnp: PnP ACPI: found 6 devices
stamp 1796060202.849025646 [    7.264637] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796060202.905041442 [    7.276709] NET: Registered PF_INET protocol family
stamp 1796060202.981447785 [    7.319355] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796060203.076371416 [    7.492026] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796060203.139133907 [    7.503507] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796060203.184569301 [    7.516796] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796060203.229439917 [    7.577514] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796060203.269273384 [    7.681677] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796060203.310755804 [    7.729886] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796060203.369714853 [    7.741857] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796060203.424304930 [    7.763210] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796060203.477205769 [    7.778502] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796060203.522147129 [    7.781686] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796060203.552838919 [    7.785348] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796060203.596847511 [    7.787629] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796060203.648675770 [    7.790319] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796060203.722965214 [    7.808938] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796060203.781421511 [    7.814720] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796060203.822220087 [    7.815250] PCI: CLS 0 bytes, default 64
stamp 1796060203.853944953 [    7.917939] Trying to unpack rootfs image as initramfs...
stamp 1796060203.885891799 [    8.117605] Initialise system trusted keyrings
stamp 1796060203.940093801 [    8.167707] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796060205.697543989 [   10.151277] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796060205.783236814 [   10.240733] Key type asymmetric registered
stamp 1796060205.812622231 [   10.244627] Asymmetric key parser 'x509' registered
stamp 1796060205.861533436 [   10.266695] io scheduler mq-deadline registered
stamp 1796060205.908608745 [   10.268772] io scheduler kyber registered
stamp 1796060205.956408356 [   10.372623] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796060206.024952563 [   10.390679] ACPI: button: Power Button [PWRF]
stamp 1796060206.087872181 [   10.498619] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796060206.160590161 [   10.530971] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796060206.272970554 [   10.706848] Non-volatile memory driver v1.3
stamp 1796060206.357799403 [   10.793899] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796060206.398953972 [   10.829482] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796060206.440998136 [   10.835540] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796060206.487137063 [   10.853578] rtc_cmos 00:05: RTC can wake from S4
stamp 1796060206.537502621 [   10.925584] rtc_cmos 00:05: registered as rtc0
stamp 1796060206.587397879 [   10.938014] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796060206.637202006 [   11.008970] NET: Registered PF_INET6 protocol family
stamp 1796060206.698787657 [   11.127695] Segment Routing with IPv6
stamp 1796060206.754725506 [   11.131398] In-situ OAM (IOAM) with IPv6
stamp 1796060206.800636922 [   11.139680] NET: Registered PF_PACKET protocol family
stamp 1796060206.847112746 [   11.141988] Key type dns_resolver registered
stamp 1796060206.967408557 [   11.145618] IPI shorthand broadcast: enabled
stamp 1796060207.376845306 [   11.176886] registered taskstats version 1
stamp 1796060207.634416064 [   11.180451] Loading compiled-in X.509 certificates
stamp 1796060207.733695733 [   11.542611] Unstable clock detected, switching default tracing clock to "global"
stamp 1796060207.791479727 [   11.542611] If you want to keep using the local clock, then add:
stamp 1796060207.805868851 [   11.542611]   "trace_clock=local"
stamp 1796060207.833629892 [   11.542611] on the kernel command line
stamp 1796060212.448968336 [   16.889821] Freeing initrd memory: 44984K
stamp 1796060213.457618266 [   17.899643] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796060213.582552809 [   17.902491] Write protecting the kernel read-only data: 32768k
stamp 1796060213.638901585 [   17.946947] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796060213.697306104 [   17.961424] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796060213.774000002 [   18.198685] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796060213.839988069 [   18.204553] Run /init as init process
stamp 1796060214.326770871 [   18.771751] mount (65) used greatest stack depth: 27984 bytes left
stamp 1796060216.543403165 spare-guest: kernel 6.1.192-spare-debug, up 21.12 s
stamp 1796060216.609629824 spare-guest: running tests/vm/client/zz-cl-B.sh at 21.20 s of uptime
stamp 1796060217.131767915 == two donors, 2 copies per slab, swap on [21.70s]
stamp 1796060305.766754176   t 110.29 setup-done
stamp 1796060305.789123277 PASS: swapping on spare0
stamp 1796060306.148748969 == workload swapping; cut 10.0.0.2 for 10 s [110.47s]
stamp 1796060373.033614775 workload swapped out 3096 pages
stamp 1796060375.877576651   t 180.44 cut-start
stamp 1796060390.289348277   t 194.90 cut-done
stamp 1796060412.971464571 		ip daddr 10.0.0.2 udp dport 4791 counter packets 1130 bytes 4563776 drop
stamp 1796060413.016735183 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796060413.515040701   t 218.11 heal-start
stamp 1796060421.717403687   t 226.31 heal-done
stamp 1796060423.087293185 Terminated
stamp 1796060423.689860806 io_stat:    2 247 484 0 0 0 1 1 0 16064512 24068096 823 0 0 0 0
stamp 1796060424.359184729 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796060424.387939551 donor_stat:
stamp 1796060425.044913081 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 0 0 0
stamp 1796060425.095668067 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796060425.557712692 PASS: cut noticed, link healed
stamp 1796060426.298354022 == the workload finishes; donor 2 reconnects and its copies are mapped again [230.41s]
stamp 1796060524.128794652 spare-memtest: 8192 pages x 1 passes in 206.22 s, 0 bad pages
stamp 1796060524.492878043 pswpout +8832, pswpin +8259
stamp 1796060524.651666262 io_stat:    2 1485 745 0 0 0 1 1 0 49893376 36179968 830 2342 0 0 0
stamp 1796060524.827373454 slab_stat:  1 4 24 2 8 0 0 0 0 32768
stamp 1796060524.851333628 donor_stat:
stamp 1796060524.909857844 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 4 3680 0
stamp 1796060524.961509799 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796060525.211870074 redrives 1, failovers 1
stamp 1796060525.799961688 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796060525.950313443 == teardown [330.52s]
stamp 1796060538.543908445 PASS: clean teardown
stamp 1796060546.281979020 SPARE-EXIT: 0
stamp 1796060546.797976145 [  351.236750] reboot: Power down
end 1796060547.510866974 rc=0
