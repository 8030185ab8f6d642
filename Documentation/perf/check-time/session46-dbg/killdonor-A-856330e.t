start 1796035953.813961513
stamp 1796036225.162137437 mkinitramfs: note: module ublk_drv not in 6.1.192-spare-debug
stamp 1796036226.613368160 mkinitramfs: note: module aesni_intel not in 6.1.192-spare-debug
stamp 1796036226.740706895 mkinitramfs: note: module crc32c_intel not in 6.1.192-spare-debug
stamp 1796036228.286495819 mkinitramfs: note: module nft_counter not in 6.1.192-spare-debug
stamp 1796036228.349698723 mkinitramfs: note: module raid6_pq not in 6.1.192-spare-debug
stamp 1796036228.435185338 mkinitramfs: note: module xor not in 6.1.192-spare-debug
stamp 1796036243.726819596 mkinitramfs: /work/wt/dbg31-base/build/vm/6.1.192-spare-debug/base.cpio (40M), /work/wt/dbg31-base/build/vm/6.1.192-spare-debug/bench.cpio (69M), /work/wt/dbg31-base/build/vm/6.1.192-spare-debug/systemd.cpio (13M)
stamp 1796036245.331581054 vm/run: tests/vm/client/killdonor.sh on 6.1.192-spare-debug (log: build/vm/logs/client-killdonor@kmod-6.1.192-spare-debug.log)
stamp 1796036251.527391948 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796036251.555103936 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796036251.576759167 [    0.000000] BIOS-provided physical RAM map:
stamp 1796036251.598900378 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796036251.632610402 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796036251.659900562 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796036251.687765319 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796036251.713929246 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796036251.772112096 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796036251.813222692 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796036251.869201888 [    0.000000] NX (Execute Disable) protection: active
stamp 1796036251.886590642 [    0.000000] SMBIOS 2.8 present.
stamp 1796036251.904714256 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796036251.922951044 [    0.000000] tsc: Fast TSC calibration failed
stamp 1796036251.943710268 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796036251.964582526 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796036251.982702974 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796036252.002513462 [    0.000000] Using GB pages for direct mapping
stamp 1796036252.021412304 [    0.000000] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796036252.039427422 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796036252.070829096 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796036252.086859678 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.102892453 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.134722928 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.153942548 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796036252.175661579 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.195447971 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.236462405 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036252.259688059 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796036252.276801100 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796036252.319649787 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796036252.344615355 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796036252.364028130 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796036252.397024523 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796036252.484999058 [    0.000000] No NUMA configuration found
stamp 1796036252.547530671 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796036252.586620872 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796036252.644786769 [    0.000000] Zone ranges:
stamp 1796036252.706373473 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796036252.738474041 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796036252.772528086 [    0.000000]   Normal   empty
stamp 1796036252.817544577 [    0.000000] Movable zone start for each node
stamp 1796036252.846555264 [    0.000000] Early memory node ranges
stamp 1796036252.882521991 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796036252.908399867 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796036252.928742011 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796036252.956400618 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796036252.973917373 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796036253.000368414 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796036253.024604651 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796036253.048671357 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796036253.098601732 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796036253.153720831 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796036253.186922924 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796036253.213124361 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796036253.237282611 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796036253.272845824 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796036253.287949060 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796036253.306424039 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796036253.323769810 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796036253.338700549 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796036253.362840374 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796036253.379387854 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796036253.401965721 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796036253.431368711 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796036253.455403597 [    0.000000] Fallback order for Node 0: 0 
stamp 1796036253.490299417 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796036253.526587903 [    0.000000] Policy zone: DMA32
stamp 1796036253.565670950 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/killdonor.sh
stamp 1796036253.695614927 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796036253.814850199 [    0.000000] random: crng init done
stamp 1796036253.872376886 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796036253.977850042 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796036254.043291114 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796036254.097425188 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796036254.142264573 [    0.000000] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796036254.182427125 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796036254.219274469 [    0.000000] Dynamic Preempt: voluntary
stamp 1796036254.256064625 [    0.000000] Running RCU self tests
stamp 1796036254.281911331 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796036254.311898667 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796036254.347475877 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796036254.381552916 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796036254.436877444 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796036254.477825181 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796036254.510441405 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796036254.545237535 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796036254.594000580 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796036254.629030103 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796036254.669055484 [    0.000000] Console: colour VGA+ 80x25
stamp 1796036254.706570303 [    0.000000] printk: console [ttyS0] enabled
stamp 1796036254.743386568 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796036254.773517296 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796036254.813138642 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796036254.861477203 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796036254.909297202 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796036254.957137319 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796036254.999841292 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796036255.056435704 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796036255.129457509 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796036255.169425491 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796036255.211312557 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796036255.236983772 [    0.000000] ACPI: Core revision 20220331
stamp 1796036255.271143668 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796036255.292035693 [    0.008000] APIC: Switch to symmetric I/O mode setup
stamp 1796036255.341225276 [    0.024000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796036255.381892753 [    0.027000] tsc: Unable to calibrate against PIT
stamp 1796036255.431164971 [    0.028000] tsc: using HPET reference calibration
stamp 1796036255.485602250 [    0.028000] tsc: Detected 2096.029 MHz processor
stamp 1796036255.533682942 [    0.002215] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796036255.617493945 [    0.004893] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.05 BogoMIPS (lpj=2096029)
stamp 1796036255.696073111 [    0.019893] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796036255.764976287 [    0.037273] process: using AMD E400 aware idle routine
stamp 1796036255.821689484 [    0.040036] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796036255.877892716 [    0.040959] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796036255.911915352 [    0.046998] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796036255.947818659 [    0.049590] Spectre V2 : Mitigation: Retpolines
stamp 1796036255.984732840 [    0.049893] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796036256.019215277 [    0.067893] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796036256.052615584 [    0.074202] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796036256.073157628 [    0.075066] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796036256.097908619 [    0.076000] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796036256.135267452 [    0.076410] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796036256.184064180 [    0.078042] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796036256.198426503 [    0.079633] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796036256.240777858 [    0.081007] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796036256.291288282 [    0.081413] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796036256.342917723 [    0.082193] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796036256.396279775 [    0.082893] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796036256.448038712 [    0.379502] Freeing SMP alternatives memory: 24K
stamp 1796036256.520137990 [    0.382268] pid_max: default: 32768 minimum: 301
stamp 1796036256.562434251 [    0.434009] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036256.594589421 [    0.436198] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036256.637814882 [    0.653893] APIC calibration not consistent with PM-Timer: 101ms instead of 100ms
stamp 1796036256.678947911 [    0.653893] APIC delta adjusted to PM-Timer: 6250033 (6348091)
stamp 1796036256.715313904 [    0.655055] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796036256.786275066 [    0.726948] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796036256.901414654 [    0.728163] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796036256.942278433 [    0.733322] Running RCU-tasks wait API self tests
stamp 1796036256.982938787 [    0.772434] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796036257.023742972 [    0.784459] signal: max sigframe size: 3232
stamp 1796036257.084274809 [    0.794429] rcu: Hierarchical SRCU implementation.
stamp 1796036257.129453307 [    0.794998] rcu: 	Max phase no-delay instances is 400.
stamp 1796036257.189152006 [    0.824135] smp: Bringing up secondary CPUs ...
stamp 1796036257.208555103 [    0.860239] x86: Booting SMP configuration:
stamp 1796036257.230332525 [    0.861169] .... node  #0, CPUs:      #1
stamp 1796036257.261479998 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 2 = 5257047
stamp 1796036257.284145531 [    0.976193] Callback from call_rcu_tasks() invoked.
stamp 1796036257.305317216 [    1.026025] smp: Brought up 1 node, 2 CPUs
stamp 1796036257.323839024 [    1.027264] smpboot: Max logical packages: 1
stamp 1796036257.344167122 [    1.029299] smpboot: Total of 2 processors activated (13180.10 BogoMIPS)
stamp 1796036257.363603892 [    1.215141] devtmpfs: initialized
stamp 1796036257.384026900 [    1.392213] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796036257.403545665 [    1.396358] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796036257.437927772 [    1.470383] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796036257.481511230 [    1.544411] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796036257.529514497 [    1.545046] thermal_sys: Registered thermal governor 'user_space'
stamp 1796036257.593589732 [    1.555215] cpuidle: using governor menu
stamp 1796036257.634320389 [    1.611269] PCI: Using configuration type 1 for base access
stamp 1796036257.667549743 [    1.633438] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796036257.692469414 [    1.635942] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796036257.705612839 [    1.637038] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796036257.721178069 [    1.638119] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796036257.743151142 [    1.639153] mtrr: corrected configuration.
stamp 1796036257.763360685 [    2.034255] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796036257.780586208 [    2.036928] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796036257.802397605 [    2.189893] ACPI: Added _OSI(Module Device)
stamp 1796036257.820084863 [    2.193201] ACPI: Added _OSI(Processor Device)
stamp 1796036257.838471615 [    2.194994] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796036257.855861089 [    2.667042] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796036257.889037363 [    2.798342] ACPI: Interpreter enabled
stamp 1796036257.907583717 [    2.798893] ACPI: PM: (supports S0 S5)
stamp 1796036257.928443391 [    2.798893] ACPI: Using IOAPIC for interrupt routing
stamp 1796036257.957837014 [    2.798893] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796036258.011181893 [    2.798991] PCI: Using E820 reservations for host bridge windows
stamp 1796036258.037038689 [    2.812893] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796036258.474122884 [    3.272496] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796036258.514314210 [    3.275671] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796036258.545365381 [    3.276270] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796036258.567809003 [    3.282115] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796036258.608861801 [    3.309363] PCI host bridge to bus 0000:00
stamp 1796036258.662350793 [    3.311020] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796036258.791923607 [    3.312082] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796036258.865346652 [    3.312404] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796036259.000508107 [    3.312981] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796036259.033150911 [    3.314035] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796036259.056510679 [    3.317446] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796036259.084367320 [    3.327061] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796036259.103931863 [    3.466451] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796036259.133287333 [    3.600425] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796036259.167348672 [    3.613503] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796036259.199942242 [    3.618076] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796036259.265308803 [    3.619024] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796036259.331191311 [    3.619311] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796036259.373166885 [    3.619942] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796036259.406822807 [    3.627109] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796036259.439435032 [    3.630088] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796036259.484897889 [    3.630469] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796036259.703313242 [    3.634358] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796036259.733922886 [    3.637938] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796036259.787818648 [    3.645968] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796036259.839858588 [    3.651315] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796036259.897356780 [    3.654277] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796036259.951428316 [    3.800535] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796036259.984879881 [    3.819237] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796036260.023495894 [    3.827893] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796036260.053713556 [    3.846174] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796036260.101716632 [    3.855275] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796036260.175791630 [    3.897270] iommu: Default domain type: Translated 
stamp 1796036260.210545662 [    3.897911] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796036260.233192500 [    3.910354] pps_core: LinuxPPS API ver. 1 registered
stamp 1796036260.265849651 [    3.910938] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796036260.302198721 [    3.911533] PTP clock support registered
stamp 1796036260.330544159 [    3.957454] PCI: Using ACPI for IRQ routing
stamp 1796036260.407344337 [    3.979893] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796036260.479349958 [    3.979893] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796036260.498593512 [    3.979893] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796036260.512008541 [    3.979944] vgaarb: loaded
stamp 1796036260.574958967 [    3.984444] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796036260.588556091 [    3.985048] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796036260.616046459 [    3.992726] clocksource: Switched to clocksource hpet
stamp 1796036260.643394669 [    4.073867] pnp: PnP ACPI init
stamp 1796036260.665083924 [    4.258534] pnp: PnP ACPI: found 6 devices
stamp 1796036260.692365547 [    4.783396] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796036260.712860741 [    4.793469] NET: Registered PF_INET protocol family
stamp 1796036260.733193899 [    4.817824] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796036260.760391463 [    5.060265] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796036260.778002947 [    5.073814] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796036260.803297338 [    5.089965] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796036260.831625553 [    5.183384] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796036260.881372741 [    5.308804] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796036260.935955273 [    5.346406] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036260.981723047 [    5.352869] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036261.001936458 [    5.376458] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796036261.039351247 [    5.386437] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796036261.065841271 [    5.400462] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796036261.115283993 [    5.400848] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796036261.141990326 [    5.401119] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796036261.191616816 [    5.401119] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796036261.240419025 [    5.419655] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796036261.265561287 [    5.423105] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796036261.297371374 [    5.423965] PCI: CLS 0 bytes, default 64
stamp 1796036261.327030910 [    5.568200] Trying to unpack rootfs image as initramfs...
stamp 1796036261.399017725 [    5.816824] Initialise system trusted keyrings
stamp 1796036261.501649972 [    5.903030] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796036263.287157112 [    7.652606] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796036263.438859245 [    7.863551] Key type asymmetric registered
stamp 1796036263.467414048 [    7.872524] Asymmetric key parser 'x509' registered
stamp 1796036263.533020253 [    7.948595] io scheduler mq-deadline registered
stamp 1796036263.565330076 [    7.955558] io scheduler kyber registered
stamp 1796036263.733665101 [    8.155905] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796036263.764213739 [    8.183997] ACPI: button: Power Button [PWRF]
stamp 1796036263.952942275 [    8.376879] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796036264.014906213 [    8.432741] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796036264.263317058 [    8.680410] Non-volatile memory driver v1.3
stamp 1796036264.428133260 [    8.824477] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796036264.536701666 [    8.955684] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796036264.574872827 [    8.964165] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796036264.628685522 [    9.046028] rtc_cmos 00:05: RTC can wake from S4
stamp 1796036264.756137892 [    9.156675] hpet: Lost 1 RTC interrupts
stamp 1796036264.815328399 [    9.237606] rtc_cmos 00:05: registered as rtc0
stamp 1796036264.848978781 [    9.265299] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796036264.966000973 [    9.386389] NET: Registered PF_INET6 protocol family
stamp 1796036265.300619828 [    9.719611] Segment Routing with IPv6
stamp 1796036265.314703433 [    9.739946] In-situ OAM (IOAM) with IPv6
stamp 1796036265.343060743 [    9.768433] NET: Registered PF_PACKET protocol family
stamp 1796036265.370739337 [    9.775569] Key type dns_resolver registered
stamp 1796036265.394689182 [    9.787259] IPI shorthand broadcast: enabled
stamp 1796036265.441685793 [    9.860655] registered taskstats version 1
stamp 1796036265.476597722 [    9.867397] Loading compiled-in X.509 certificates
stamp 1796036266.192908929 [   10.609677] Unstable clock detected, switching default tracing clock to "global"
stamp 1796036266.228745589 [   10.609677] If you want to keep using the local clock, then add:
stamp 1796036266.259522640 [   10.609677]   "trace_clock=local"
stamp 1796036266.285969283 [   10.609677] on the kernel command line
stamp 1796036271.401538630 [   15.835712] Freeing initrd memory: 44948K
stamp 1796036272.032228215 [   16.453937] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796036272.082660300 [   16.460936] Write protecting the kernel read-only data: 32768k
stamp 1796036272.160394607 [   16.550982] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796036272.185678398 [   16.583935] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796036272.530568991 [   16.939828] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796036272.603720420 [   16.943542] Run /init as init process
stamp 1796036273.249535814 [   17.657492] mount (65) used greatest stack depth: 27984 bytes left
stamp 1796036275.138163425 spare-guest: kernel 6.1.192-spare-debug, up 19.54 s
stamp 1796036275.221388989 spare-guest: running tests/vm/client/killdonor.sh at 19.63 s of uptime
stamp 1796036275.581486414 client backend: kmod
stamp 1796036275.656725216 == two donors, 2 copies per slab, swap on [20.04s]
stamp 1796036320.480547866 PASS: swapping on spare0, 4 slabs x 2 copies
stamp 1796036320.749683349 == workload running; the donor on host 3 lost once 3000 pages went out [65.10s]
stamp 1796036350.406613429 workload swapped out 3206 pages
stamp 1796036378.170822588 io_stat:    2 2 446 0 0 0 0 0 0 8192 21573632 355 0 0 0 0
stamp 1796036378.472368664 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796036378.576511782 donor_stat:
stamp 1796036378.735712893 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036378.837018699 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 0
stamp 1796036379.124816886 PASS: donor 3 lost; 4 copies left on donor 2
stamp 1796036379.287829203 == the workload finishes on the surviving copies [123.64s]
stamp 1796036431.287809321 spare-memtest: 8192 pages x 1 passes in 105.55 s, 0 bad pages
stamp 1796036431.548076594 pswpout +8917, pswpin +8254
stamp 1796036431.724415382 io_stat:    2 1215 759 0 0 0 0 0 0 33816576 36528128 364 0 0 0 0
stamp 1796036431.833356653 slab_stat:  1 4 24 2 4 0 4 0 0 16384
stamp 1796036431.870991569 donor_stat:
stamp 1796036431.919397678 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036431.949885592 2 1 10.0.0.3:18515 offline 1 1 0 0 0 0 0 0 0 1
stamp 1796036432.322885915 PASS: every page verified after the kill; 1213 reads from the survivors; uevent seen
stamp 1796036432.375535108 == spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again [176.80s]
stamp 1796036450.339305371 io_stat:    2 1215 759 0 0 0 0 0 0 33816576 36528128 364 384 0 0 0
stamp 1796036451.181048531 slab_stat:  1 4 24 2 8 0 0 0 0 24430
stamp 1796036451.209940713 donor_stat:
stamp 1796036451.619679976 2 0 10.0.0.2:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036451.649827606 2 1 10.0.0.3:18515 live 2 1 0 0 0 0 0 0 0 1
stamp 1796036452.582293374 PASS: donor 3 reconnected and every copy is mapped again
stamp 1796036452.645468887 == donor 4 appended; donor 3 lost again and kept down: its copies re-home to donor 4 [197.05s]
stamp 1796036488.373653914 workload swapped out 3025 pages
stamp 1796036516.588176406     donor 3's copies looked at 24.8 s after its kill, past the delay: the module's down time decides
stamp 1796036530.819361941     [  258.532253] spare: donor 10.0.0.3:18515: down 5 s: 4 slab copies re-homed to other donors; resync refills them
stamp 1796036586.320640504     copies on donor 4: 4
stamp 1796036586.709460479     re-homed 19 s after the loss was noticed
stamp 1796036586.807006887 PASS: donor 3 down 5 s: its 4 copies mapped on donor 4 and refilled
stamp 1796036586.931043260 == donor 2 killed: the job reads every page back from donor 4 alone [331.33s]
stamp 1796036695.232463913 spare-memtest: 8192 pages x 2 passes in 224.47 s, 0 bad pages
stamp 1796036697.109412983 pswpout +17177, pswpin +16438
stamp 1796036697.242910708 PASS: every page verified from donor 4 alone (6144 pages read back)
stamp 1796036697.989491765 == the data is still all there (read back through swapoff) [441.91s]
stamp 1796036701.729335034 PASS: clean teardown
stamp 1796036704.448967554 SPARE-EXIT: 0
stamp 1796036704.826484620 [  449.254749] reboot: Power down
rc 0
end 1796036705.300619846
