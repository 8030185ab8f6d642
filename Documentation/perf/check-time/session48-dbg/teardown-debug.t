start 1796060852.309699587
stamp 1796061312.949920100 vm/run: tests/vm/client/teardown.sh on 6.1.192-spare-debug (log: build/vm/logs/client-teardown-6.1.192-spare-debug.log)
stamp 1796061322.561145652 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796061322.614668178 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/teardown.sh
stamp 1796061322.637255202 [    0.000000] BIOS-provided physical RAM map:
stamp 1796061322.709154692 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796061322.743307154 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796061322.787850269 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796061322.839194200 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796061323.078483685 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796061323.126400357 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796061323.159638719 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796061323.239482740 [    0.000000] NX (Execute Disable) protection: active
stamp 1796061323.316659040 [    0.000000] SMBIOS 2.8 present.
stamp 1796061323.397851335 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796061323.483124666 [    0.000000] tsc: Fast TSC calibration failed
stamp 1796061323.545112910 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796061323.576214946 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796061323.607515118 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796061323.661131682 [    0.000000] Using GB pages for direct mapping
stamp 1796061323.729378947 [    0.000000] RAMDISK: [mem 0xbd3f4000-0xbffdffff]
stamp 1796061324.085652822 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796061324.101229163 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796061324.133420943 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.156520568 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.185781449 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.211385896 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796061324.470645792 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.552883816 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.666888505 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796061324.782621596 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796061324.857550441 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796061324.981240287 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796061325.296370734 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796061325.401399849 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796061325.435315734 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796061325.466342097 [    0.000000] No NUMA configuration found
stamp 1796061325.495489913 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796061325.556544400 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3f0000-0xbd3f3fff]
stamp 1796061325.606877457 [    0.000000] Zone ranges:
stamp 1796061325.663457011 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796061325.732650878 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796061325.774256181 [    0.000000]   Normal   empty
stamp 1796061325.813530650 [    0.000000] Movable zone start for each node
stamp 1796061325.874465711 [    0.000000] Early memory node ranges
stamp 1796061325.934012272 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796061325.990892816 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796061326.057732576 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796061326.149231904 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796061326.199299880 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796061326.246418081 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796061326.277466976 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796061326.363053671 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796061326.422767178 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796061326.501892288 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796061326.601593896 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796061326.669877851 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796061326.750940860 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796061326.833157975 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796061326.860644135 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796061326.909179369 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796061326.968510973 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796061327.010855315 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796061327.073253084 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796061327.152711586 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796061327.246579900 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796061327.287451053 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796061327.329084799 [    0.000000] Fallback order for Node 0: 0 
stamp 1796061327.404877861 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796061327.451480695 [    0.000000] Policy zone: DMA32
stamp 1796061327.491317951 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/teardown.sh
stamp 1796061327.522731187 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796061327.582175865 [    0.000000] random: crng init done
stamp 1796061327.648391063 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796061327.711603505 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796061327.779652975 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796061327.829675624 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796061327.890431606 [    0.000000] Memory: 2575112K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569840K reserved, 0K cma-reserved)
stamp 1796061327.954255526 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796061328.012158115 [    0.000000] Dynamic Preempt: voluntary
stamp 1796061328.070577532 [    0.000000] Running RCU self tests
stamp 1796061328.129506043 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796061328.196737194 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796061328.256480759 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796061328.376169129 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796061328.424506778 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796061328.501184485 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796061328.583941842 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796061328.616834809 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796061328.659067199 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796061328.742676820 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796061328.826584936 [    0.000000] Console: colour VGA+ 80x25
stamp 1796061328.906622283 [    0.000000] printk: console [ttyS0] enabled
stamp 1796061328.984759904 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796061329.100945281 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796061329.205228094 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796061329.307540755 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796061329.440734656 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796061329.507612027 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796061329.539400904 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796061329.573822807 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796061329.637650393 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796061329.697244405 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796061329.768255352 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796061329.848620179 [    0.000000] ACPI: Core revision 20220331
stamp 1796061329.929623876 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796061330.008310336 [    0.011000] APIC: Switch to symmetric I/O mode setup
stamp 1796061330.084864719 [    0.028000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796061330.179303844 [    0.032000] tsc: Unable to calibrate against PIT
stamp 1796061330.273390000 [    0.033000] tsc: using HPET reference calibration
stamp 1796061330.349780402 [    0.035000] tsc: Detected 2093.569 MHz processor
stamp 1796061330.468237381 [    0.001867] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796061330.545141085 [    0.004231] Calibrating delay loop (skipped), value calculated using timer frequency.. 4187.13 BogoMIPS (lpj=2093569)
stamp 1796061330.642732368 [    0.014810] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796061330.728476320 [    0.024955] process: using AMD E400 aware idle routine
stamp 1796061330.789381805 [    0.026923] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796061330.813695879 [    0.027546] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796061330.878940278 [    0.033045] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796061330.913754263 [    0.035084] Spectre V2 : Mitigation: Retpolines
stamp 1796061330.951259563 [    0.036651] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796061330.988844443 [    0.051800] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796061331.079384025 [    0.058014] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796061331.152267148 [    0.058642] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796061331.193102712 [    0.059580] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796061331.247423359 [    0.059854] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796061331.286877640 [    0.060195] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796061331.319935540 [    0.061925] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796061331.394302471 [    0.062590] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796061331.468633655 [    0.062911] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796061331.617988293 [    0.063178] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796061331.707470813 [    0.063683] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796061331.795677337 [    0.271707] Freeing SMP alternatives memory: 24K
stamp 1796061331.904150643 [    0.272733] pid_max: default: 32768 minimum: 301
stamp 1796061331.969849232 [    0.303116] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796061332.010902991 [    0.304492] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796061332.090794743 [    0.530452] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796061332.151902570 [    0.565500] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796061332.217710316 [    0.566560] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796061332.295933449 [    0.570659] Running RCU-tasks wait API self tests
stamp 1796061332.364607261 [    0.705790] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796061332.430363069 [    0.714262] signal: max sigframe size: 3232
stamp 1796061332.499454892 [    0.724134] rcu: Hierarchical SRCU implementation.
stamp 1796061332.579534640 [    0.724452] rcu: 	Max phase no-delay instances is 400.
stamp 1796061332.674929645 [    0.747452] smp: Bringing up secondary CPUs ...
stamp 1796061332.721726898 [    0.773690] x86: Booting SMP configuration:
stamp 1796061332.748966120 [    0.775629] .... node  #0, CPUs:      #1
stamp 1796061332.817840072 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 2 = 6292689
stamp 1796061332.905572228 [    0.882916] Callback from call_rcu_tasks() invoked.
stamp 1796061332.974634025 [    0.922675] smp: Brought up 1 node, 2 CPUs
stamp 1796061333.033597593 [    0.923802] smpboot: Max logical packages: 1
stamp 1796061333.115207838 [    0.925650] smpboot: Total of 2 processors activated (12904.27 BogoMIPS)
stamp 1796061333.189535235 [    1.029269] devtmpfs: initialized
stamp 1796061333.253948540 [    1.109535] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796061333.347243449 [    1.113640] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796061333.404736572 [    1.157588] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796061333.434493583 [    1.198815] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796061333.521656821 [    1.198990] thermal_sys: Registered thermal governor 'user_space'
stamp 1796061333.569340382 [    1.202057] cpuidle: using governor menu
stamp 1796061333.663389047 [    1.226663] PCI: Using configuration type 1 for base access
stamp 1796061333.806758273 [    1.238896] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796061333.865855494 [    1.239524] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796061333.941383775 [    1.240504] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796061334.001213592 [    1.240752] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796061334.096304080 [    1.241491] mtrr: corrected configuration.
stamp 1796061334.128003437 [    1.501645] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796061334.186654223 [    1.502548] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796061334.263258440 [    1.620544] ACPI: Added _OSI(Module Device)
stamp 1796061334.341605557 [    1.621541] ACPI: Added _OSI(Processor Device)
stamp 1796061334.423296846 [    1.621735] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796061334.516157683 [    1.984035] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796061334.604328079 [    2.122962] ACPI: Interpreter enabled
stamp 1796061334.786491886 [    2.131056] ACPI: PM: (supports S0 S5)
stamp 1796061334.860069683 [    2.132594] ACPI: Using IOAPIC for interrupt routing
stamp 1796061334.901753014 [    2.136898] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796061334.945160959 [    2.138524] PCI: Using E820 reservations for host bridge windows
stamp 1796061335.028621487 [    2.155452] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796061335.157018145 [    2.862695] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796061335.216265199 [    2.865620] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796061335.272919345 [    2.866666] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796061335.339895223 [    2.873674] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796061335.389898696 [    2.905013] PCI host bridge to bus 0000:00
stamp 1796061335.562381143 [    2.908640] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796061335.642603410 [    2.909955] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796061335.696530522 [    2.911553] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796061335.733545814 [    2.912545] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796061335.799700797 [    2.913639] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796061335.867896535 [    2.915638] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796061335.980190074 [    2.926541] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796061336.073677717 [    3.090970] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796061336.135852756 [    3.212767] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796061336.171189169 [    3.226051] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796061336.203806254 [    3.230677] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796061336.296455760 [    3.231560] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796061336.327433923 [    3.232560] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796061336.410804560 [    3.233686] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796061336.439997412 [    3.242488] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796061336.474962994 [    3.245500] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796061336.507088488 [    3.246677] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796061336.566691086 [    3.254749] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796061336.636222171 [    3.257521] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796061336.698904139 [    3.262992] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796061336.746863242 [    3.269803] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796061336.802591283 [    3.272809] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796061336.864460373 [    3.465673] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796061336.927423302 [    3.482346] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796061336.961687425 [    3.498181] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796061337.021302146 [    3.511575] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796061337.084566607 [    3.517695] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796061337.139452333 [    3.584796] iommu: Default domain type: Translated 
stamp 1796061337.255311213 [    3.585524] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796061337.348571806 [    3.600304] pps_core: LinuxPPS API ver. 1 registered
stamp 1796061337.441349716 [    3.601510] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796061337.529927954 [    3.602857] PTP clock support registered
stamp 1796061337.591127916 [    3.648809] PCI: Using ACPI for IRQ routing
stamp 1796061337.631946108 [    3.673452] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796061337.712666018 [    3.673452] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796061337.805357915 [    3.673452] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796061337.864506663 [    3.673560] vgaarb: loaded
stamp 1796061337.921278481 [    3.685545] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796061337.994719499 [    3.686606] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796061338.142440695 [    3.748784] clocksource: Switched to clocksource hpet
stamp 1796061338.232346817 [    3.818375] pnp: PnP ACPI init
stamp 1796061338.523748458 [    3.983158] pnp: PnP ACPI: found 6 devices
stamp 1796061338.561227919 [    4.519870] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796061338.875806771 [    4.530122] NET: Registered PF_INET protocol family
stamp 1796061338.949881900 [    4.558100] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796061339.120316440 [    4.656261] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796061339.207702531 [    4.662268] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796061339.279598643 [    4.669395] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796061339.358873818 [    4.711026] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796061339.420221560 [    4.783039] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796061339.499031142 [    4.823558] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796061339.578867490 [    4.823558] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796061339.651039004 [    4.932353] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796061339.787035020 [    5.027752] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796061339.944788340 [    5.038810] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796061340.011600226 [    5.041444] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796061340.047998992 [    5.043175] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796061340.085180979 [    5.043429] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796061340.113900595 [    5.056188] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796061340.161820253 [    5.059690] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796061340.400013743 [    5.062116] PCI: CLS 0 bytes, default 64
stamp 1796061340.460896955 [    5.156935] Trying to unpack rootfs image as initramfs...
stamp 1796061340.505454427 [    5.247968] hrtimer: interrupt took 6844920 ns
stamp 1796061340.577637383 [    5.377267] Initialise system trusted keyrings
stamp 1796061340.663297677 [    5.414036] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796061340.736455699 [    6.109634] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796061340.788204317 [    6.244216] Key type asymmetric registered
stamp 1796061340.861480283 [    6.248325] Asymmetric key parser 'x509' registered
stamp 1796061340.928208291 [    6.264051] io scheduler mq-deadline registered
stamp 1796061341.031809783 [    6.267175] io scheduler kyber registered
stamp 1796061341.138621443 [    6.376324] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796061341.193023324 [    6.389025] ACPI: button: Power Button [PWRF]
stamp 1796061341.231034793 [    6.494112] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796061341.273203472 [    6.522456] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796061341.346930682 [    6.648092] Non-volatile memory driver v1.3
stamp 1796061341.375526734 [    6.775337] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796061341.393328048 [    6.824055] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796061341.409312512 [    6.830247] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796061341.424987710 [    6.853669] rtc_cmos 00:05: RTC can wake from S4
stamp 1796061341.439627769 [    6.953231] rtc_cmos 00:05: registered as rtc0
stamp 1796061341.454528922 [    6.969446] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796061341.469682713 [    7.018336] NET: Registered PF_INET6 protocol family
stamp 1796061341.486905270 [    7.146095] Segment Routing with IPv6
stamp 1796061341.505615986 [    7.151954] In-situ OAM (IOAM) with IPv6
stamp 1796061341.537619720 [    7.164350] NET: Registered PF_PACKET protocol family
stamp 1796061341.603542354 [    7.168425] Key type dns_resolver registered
stamp 1796061341.657271871 [    7.173684] IPI shorthand broadcast: enabled
stamp 1796061341.692631930 [    7.193969] registered taskstats version 1
stamp 1796061341.720231505 [    7.195853] Loading compiled-in X.509 certificates
stamp 1796061341.752631719 [    7.540276] Unstable clock detected, switching default tracing clock to "global"
stamp 1796061341.811888732 [    7.540276] If you want to keep using the local clock, then add:
stamp 1796061341.853515236 [    7.540276]   "trace_clock=local"
stamp 1796061341.873770265 [    7.540276] on the kernel command line
stamp 1796061341.916799313 [   13.141859] Freeing initrd memory: 44976K
stamp 1796061341.985970006 [   14.418182] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796061342.042174440 [   14.423112] Write protecting the kernel read-only data: 32768k
stamp 1796061342.104985352 [   14.464384] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796061342.157664721 [   14.483252] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796061342.223577086 [   14.877871] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796061342.300512600 [   14.894226] Run /init as init process
stamp 1796061343.568289274 [   17.571319] mount (66) used greatest stack depth: 27984 bytes left
stamp 1796061347.945403590 spare-guest: kernel 6.1.192-spare-debug, up 21.70 s
stamp 1796061348.168769256 spare-guest: running tests/vm/client/teardown.sh at 22.03 s of uptime
stamp 1796061348.761926320 debug kernel: 5 rounds, FLIP=0 (round 1's backup is sync)
stamp 1796061349.025498690 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [22.89s]
stamp 1796061419.753757329 PASS: donors up, backup /dev/mapper/slow
stamp 1796061435.451249431 round 1: kill, backup sync: off and removed [109.46s]
stamp 1796061466.441245749 round 2: cut, backup async: off and removed [140.46s]
stamp 1796061485.297646749 round 3: evict, backup sync: off and removed [159.31s]
stamp 1796061504.372541129 round 4: none, backup async: off and removed [178.37s]
stamp 1796061540.737229139 round 5: restart, backup sync: off and removed [214.74s]
stamp 1796061541.774881391 error roads taken: 3; slabs evicted: 2
stamp 1796061541.799506003 PASS: 5 rounds powered off and removed under I/O, 4 with a fault in flight
stamp 1796061541.925723866 == unload [215.92s]
stamp 1796061547.098000389 PASS: spare.ko unloaded; no splat
stamp 1796061548.864448864 SPARE-EXIT: 0
stamp 1796061549.226672214 [  223.229854] reboot: Power down
end 1796061549.927317649 rc=0
