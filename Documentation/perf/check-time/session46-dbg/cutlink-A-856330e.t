start 1796035954.809533482
stamp 1796036707.325262539 vm/run: tests/vm/client/cutlink.sh on 6.1.192-spare-debug (log: build/vm/logs/client-cutlink-6.1.192-spare-debug.log)
stamp 1796036714.914738927 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796036714.937012108 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796036714.984870649 [    0.000000] BIOS-provided physical RAM map:
stamp 1796036715.062392444 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796036715.109390166 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796036715.136818437 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796036715.157421946 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796036715.189296976 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796036715.208657011 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796036715.236761553 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796036715.267529477 [    0.000000] NX (Execute Disable) protection: active
stamp 1796036715.294573931 [    0.000000] SMBIOS 2.8 present.
stamp 1796036715.327480624 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796036715.355717256 [    0.000000] tsc: Fast TSC calibration using PIT
stamp 1796036715.441691975 [    0.000000] tsc: Detected 2096.024 MHz processor
stamp 1796036715.475861458 [    0.022427] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796036715.504801362 [    0.027008] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796036715.535817466 [    0.038063] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796036715.890172768 [    0.041292] Using GB pages for direct mapping
stamp 1796036716.005870873 [    0.049886] RAMDISK: [mem 0xbd3fb000-0xbffdffff]
stamp 1796036716.058890798 [    0.054332] ACPI: Early table checksum verification disabled
stamp 1796036716.223038664 [    0.061929] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796036716.316950551 [    0.068414] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036716.494597375 [    0.070199] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036716.640830333 [    0.072447] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036716.741173676 [    0.072823] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796036716.826252078 [    0.072929] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036716.913808762 [    0.072978] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036717.022895389 [    0.073020] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796036717.122743555 [    0.073127] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796036717.214882876 [    0.073186] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796036717.297451916 [    0.073205] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796036717.389892948 [    0.073220] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796036717.444983433 [    0.073233] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796036717.498906898 [    0.073245] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796036717.570474158 [    0.076786] No NUMA configuration found
stamp 1796036717.623079077 [    0.076861] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796036717.709117928 [    0.078030] NODE_DATA(0) allocated [mem 0xbd3f7000-0xbd3fafff]
stamp 1796036717.881285638 [    0.080848] Zone ranges:
stamp 1796036717.999144694 [    0.080906]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796036718.060451248 [    0.081037]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796036718.116744250 [    0.081066]   Normal   empty
stamp 1796036718.156817321 [    0.081104] Movable zone start for each node
stamp 1796036718.216064877 [    0.081137] Early memory node ranges
stamp 1796036718.288475073 [    0.081179]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796036718.333458011 [    0.087772]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796036718.377490489 [    0.088138] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796036718.439452494 [    0.095823] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796036718.499133490 [    0.096950] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796036718.538510834 [    0.599234] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796036718.574507839 [    1.035734] kasan: KernelAddressSanitizer initialized
stamp 1796036718.633401224 [    1.036738] ACPI: PM-Timer IO Port: 0x608
stamp 1796036718.748379646 [    1.037866] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796036718.808473864 [    1.040730] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796036718.877430052 [    1.041103] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796036718.925436764 [    1.041723] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796036718.977720595 [    1.041813] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796036719.084155361 [    1.041940] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796036719.143653711 [    1.041961] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796036719.189906153 [    1.042334] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796036719.235265142 [    1.042559] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796036719.268903842 [    1.043353] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796036719.296988545 [    1.045129] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796036719.325730634 [    1.045580] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796036719.358220448 [    1.064246] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796036719.438541091 [    1.067333] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796036719.760543649 [    1.074081] Fallback order for Node 0: 0 
stamp 1796036719.847288206 [    1.074608] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796036719.889428572 [    1.074810] Policy zone: DMA32
stamp 1796036720.032538156 [    1.075349] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/cutlink.sh
stamp 1796036720.065317969 [    1.077244] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796036720.177981308 [    1.078586] random: crng init done
stamp 1796036720.246869958 [    1.080203] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796036720.307009391 [    1.080904] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796036720.359013733 [    1.083245] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796036720.421683708 [    1.085530] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796036720.472810247 [    4.870865] Memory: 2575140K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569812K reserved, 0K cma-reserved)
stamp 1796036720.507142901 [    4.879567] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796036720.522666813 [    4.913962] Dynamic Preempt: voluntary
stamp 1796036720.551037889 [    4.936781] Running RCU self tests
stamp 1796036720.576004679 [    4.937908] rcu: Preemptible hierarchical RCU implementation.
stamp 1796036720.617167524 [    4.937962] rcu: 	RCU event tracing is enabled.
stamp 1796036720.648762524 [    4.937981] rcu: 	RCU lockdep checking is enabled.
stamp 1796036720.691636729 [    4.938022] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796036720.748273442 [    4.938109] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796036720.790861104 [    4.938208] 	Trampoline variant of Tasks RCU enabled.
stamp 1796036720.834205629 [    4.938353] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796036721.213229679 [    4.938406] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796036721.302384238 [    4.967844] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796036721.367281991 [    4.982767] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796036721.442809940 [    5.006227] Console: colour VGA+ 80x25
stamp 1796036721.490660397 [    5.058391] printk: console [ttyS0] enabled
stamp 1796036721.531934713 [    5.059387] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796036721.589514351 [    5.060686] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796036721.600568389 [    5.060870] ... MAX_LOCK_DEPTH:          48
stamp 1796036721.639991450 [    5.061020] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796036721.667296648 [    5.061171] ... CLASSHASH_SIZE:          4096
stamp 1796036721.696668158 [    5.061321] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796036721.739668232 [    5.061474] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796036721.789630988 [    5.061672] ... CHAINHASH_SIZE:          32768
stamp 1796036721.913497098 [    5.061827]  memory used by lock dependency info: 6493 kB
stamp 1796036722.006789341 [    5.062008]  memory used for stack traces: 4224 kB
stamp 1796036722.075688650 [    5.062170]  per task-struct memory footprint: 1920 bytes
stamp 1796036722.158206644 [    5.069186] ACPI: Core revision 20220331
stamp 1796036722.240676698 [    5.101691] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796036722.361920342 [    5.131188] APIC: Switch to symmetric I/O mode setup
stamp 1796036722.435752772 [    5.149722] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796036722.492043279 [    5.160695] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796036722.539332402 [    5.164822] Calibrating delay loop (skipped), value calculated using timer frequency.. 4192.04 BogoMIPS (lpj=2096024)
stamp 1796036722.571135055 [    5.173382] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796036722.589909352 [    5.180468] process: using AMD E400 aware idle routine
stamp 1796036722.662323165 [    5.180468] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796036722.739025668 [    5.180605] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796036722.788839092 [    5.188757] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796036722.861492209 [    5.191049] Spectre V2 : Mitigation: Retpolines
stamp 1796036722.931226488 [    5.191468] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796036722.977062241 [    5.203825] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796036723.021656743 [    5.209071] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796036723.079087229 [    5.209434] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796036723.144100380 [    5.209468] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796036723.197999479 [    5.209468] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796036723.225543869 [    5.209468] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796036723.299759094 [    5.209553] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796036723.528216941 [    5.210016] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796036723.591677262 [    5.210550] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796036723.636950149 [    5.210789] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796036723.662894530 [    5.211075] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796036723.684742656 [    5.414010] Freeing SMP alternatives memory: 24K
stamp 1796036723.713768371 [    5.415697] pid_max: default: 32768 minimum: 301
stamp 1796036723.739732731 [    5.440855] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036723.840055675 [    5.441741] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796036724.611608011 [    5.655468] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796036724.650140606 [    5.692543] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796036724.696164624 [    5.693593] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796036724.756611862 [    5.697177] Running RCU-tasks wait API self tests
stamp 1796036724.828029408 [    5.832756] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796036724.899325807 [    5.839526] signal: max sigframe size: 3232
stamp 1796036724.940897886 [    5.845786] rcu: Hierarchical SRCU implementation.
stamp 1796036725.003256291 [    5.846541] rcu: 	Max phase no-delay instances is 400.
stamp 1796036725.080044777 [    5.864852] smp: Bringing up secondary CPUs ...
stamp 1796036725.132269767 [    5.888024] x86: Booting SMP configuration:
stamp 1796036725.180549326 [    5.889582] .... node  #0, CPUs:      #1
stamp 1796036725.205024806 [    5.976179] Callback from call_rcu_tasks() invoked.
stamp 1796036725.257508956 [    6.008049] smp: Brought up 1 node, 2 CPUs
stamp 1796036725.300818716 [    6.009931] smpboot: Max logical packages: 1
stamp 1796036725.346282565 [    6.010915] smpboot: Total of 2 processors activated (12946.84 BogoMIPS)
stamp 1796036725.376564688 [    6.136610] devtmpfs: initialized
stamp 1796036725.433533239 [    6.249762] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796036725.502494976 [    6.253522] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796036725.539837188 [    6.306514] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796036725.602971452 [    6.356702] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796036725.657874862 [    6.356950] thermal_sys: Registered thermal governor 'user_space'
stamp 1796036725.744535700 [    6.359005] cpuidle: using governor menu
stamp 1796036725.794572316 [    6.388175] PCI: Using configuration type 1 for base access
stamp 1796036725.824324598 [    6.401828] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796036725.881869699 [    6.402244] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796036725.975276389 [    6.402514] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796036726.082599488 [    6.403505] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796036726.155303491 [    6.404255] mtrr: corrected configuration.
stamp 1796036726.220601141 [    6.675776] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796036726.311189044 [    6.676468] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796036726.379586994 [    6.810807] ACPI: Added _OSI(Module Device)
stamp 1796036726.423284168 [    6.811546] ACPI: Added _OSI(Processor Device)
stamp 1796036726.469463129 [    6.812771] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796036726.561932736 [    7.107515] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796036726.653735549 [    7.232222] ACPI: Interpreter enabled
stamp 1796036726.700778045 [    7.238014] ACPI: PM: (supports S0 S5)
stamp 1796036726.767618897 [    7.238803] ACPI: Using IOAPIC for interrupt routing
stamp 1796036726.841326491 [    7.243335] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796036726.893799079 [    7.244303] PCI: Using E820 reservations for host bridge windows
stamp 1796036726.941865194 [    7.261468] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796036726.999771370 [    7.877817] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796036727.057379170 [    7.882379] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796036727.095154642 [    7.883547] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796036727.124379595 [    7.889825] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796036727.169153216 [    7.923562] PCI host bridge to bus 0000:00
stamp 1796036727.215762193 [    7.925963] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796036727.271247314 [    7.927165] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796036727.344449280 [    7.928038] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796036727.384247962 [    7.928532] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796036727.429872675 [    7.928892] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796036727.469505934 [    7.930968] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796036727.526745107 [    7.939790] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796036727.576056750 [    8.111544] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796036727.645322683 [    8.271051] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796036727.724815229 [    8.286704] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796036727.749381461 [    8.292633] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796036727.778772178 [    8.293554] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796036727.805170319 [    8.294923] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796036727.928211657 [    8.295487] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796036727.980388465 [    8.302629] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796036728.061304366 [    8.305663] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796036728.133276963 [    8.306114] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796036728.161989405 [    8.310826] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796036728.277636724 [    8.313680] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796036728.332349875 [    8.316527] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796036728.491352250 [    8.325709] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796036728.549586175 [    8.331068] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796036728.684137766 [    8.524362] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796036728.918613567 [    8.540678] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796036729.060385148 [    8.553681] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796036729.111108364 [    8.563357] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796036729.248091659 [    8.569843] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796036729.451057551 [    8.615028] iommu: Default domain type: Translated 
stamp 1796036729.523584128 [    8.615538] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796036729.594662363 [    8.630354] pps_core: LinuxPPS API ver. 1 registered
stamp 1796036729.659870223 [    8.631502] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796036729.752572279 [    8.631748] PTP clock support registered
stamp 1796036729.828731363 [    8.673040] PCI: Using ACPI for IRQ routing
stamp 1796036729.893773340 [    8.694468] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796036729.972384237 [    8.694468] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796036730.055861035 [    8.694468] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796036730.149541744 [    8.700611] vgaarb: loaded
stamp 1796036730.217276659 [    8.708489] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796036730.278974414 [    8.710630] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796036730.332920321 [    8.726422] clocksource: Switched to clocksource hpet
stamp 1796036730.379887676 [    8.837855] pnp: PnP ACPI init
stamp 1796036730.431362215 [    8.943829] pnp: PnP ACPI: found 6 devices
stamp 1796036730.468892762 [    9.376993] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796036730.513493266 [    9.396125] NET: Registered PF_INET protocol family
stamp 1796036730.582889376 [    9.461626] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796036730.613485224 [    9.793976] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796036730.674123192 [    9.798844] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796036730.701741342 [    9.805861] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796036730.769334629 [    9.840962] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796036730.825437130 [    9.906791] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796036730.888415418 [    9.925241] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036730.967298170 [    9.932912] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796036731.003112288 [    9.947925] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796036731.064170461 [    9.954171] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796036731.116779828 [    9.957709] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796036731.190571691 [    9.959838] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796036731.288246502 [    9.962252] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796036731.369632493 [    9.965623] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796036731.457460250 [    9.975982] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796036731.526575498 [    9.978184] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796036731.584360825 [    9.980698] PCI: CLS 0 bytes, default 64
stamp 1796036731.620415168 [   10.084816] Trying to unpack rootfs image as initramfs...
stamp 1796036731.644311722 [   10.269929] Initialise system trusted keyrings
stamp 1796036731.712301750 [   10.308046] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796036731.794956253 [   11.405966] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796036731.861396947 [   11.526001] Key type asymmetric registered
stamp 1796036731.896935122 [   11.536124] Asymmetric key parser 'x509' registered
stamp 1796036731.920177919 [   11.575853] io scheduler mq-deadline registered
stamp 1796036731.949150333 [   11.577499] io scheduler kyber registered
stamp 1796036731.981730338 [   11.652256] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796036732.077733725 [   11.660270] ACPI: button: Power Button [PWRF]
stamp 1796036732.145273560 [   11.740728] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796036732.194010635 [   11.784811] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796036732.228766019 [   11.949672] Non-volatile memory driver v1.3
stamp 1796036732.285322248 [   12.016210] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796036732.329084535 [   12.051699] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796036732.381299696 [   12.056397] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796036732.421715085 [   12.079756] rtc_cmos 00:05: RTC can wake from S4
stamp 1796036732.467969531 [   12.131054] rtc_cmos 00:05: registered as rtc0
stamp 1796036732.540750058 [   12.144671] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796036732.580789727 [   12.223380] NET: Registered PF_INET6 protocol family
stamp 1796036732.619392775 [   12.360718] Segment Routing with IPv6
stamp 1796036732.653634917 [   12.363001] In-situ OAM (IOAM) with IPv6
stamp 1796036732.697025740 [   12.370736] NET: Registered PF_PACKET protocol family
stamp 1796036732.733933469 [   12.373168] Key type dns_resolver registered
stamp 1796036732.795246756 [   12.376459] IPI shorthand broadcast: enabled
stamp 1796036732.864166905 [   12.392876] registered taskstats version 1
stamp 1796036732.928427351 [   12.393221] Loading compiled-in X.509 certificates
stamp 1796036732.968151282 [   12.581994] cryptomgr_test (64) used greatest stack depth: 29664 bytes left
stamp 1796036732.989539326 [   12.771265] Unstable clock detected, switching default tracing clock to "global"
stamp 1796036733.034674893 [   12.771265] If you want to keep using the local clock, then add:
stamp 1796036733.055717193 [   12.771265]   "trace_clock=local"
stamp 1796036733.128505466 [   12.771265] on the kernel command line
stamp 1796036733.153432390 [   16.008067] Freeing initrd memory: 44948K
stamp 1796036733.211719166 [   16.707140] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796036733.260899421 [   16.712196] Write protecting the kernel read-only data: 32768k
stamp 1796036733.313216305 [   16.763824] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796036733.383374066 [   16.791696] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796036733.411643991 [   17.044626] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796036733.445740928 [   17.051971] Run /init as init process
stamp 1796036733.479876728 [   17.598783] mount (66) used greatest stack depth: 27904 bytes left
stamp 1796036733.541978768 spare-guest: kernel 6.1.192-spare-debug, up 18.90 s
stamp 1796036733.575625072 spare-guest: running tests/vm/client/cutlink.sh at 18.97 s of uptime
stamp 1796036733.608385358 == two donors, 2 copies per slab, swap on [19.25s]
stamp 1796036777.963303125 PASS: swapping on spare0
stamp 1796036778.643478083 == workload swapping; cut 10.0.0.2 for 10 s [67.25s]
stamp 1796036852.760692985 workload swapped out 3025 pages
stamp 1796036898.004920693 		ip daddr 10.0.0.2 udp dport 4791 counter packets 1089 bytes 4381620 drop
stamp 1796036898.061969485 		ip saddr 10.0.0.2 udp dport 4791 counter packets 0 bytes 0 drop
stamp 1796036915.013960392 io_stat:    2 662 606 0 0 0 1 1 0 37548032 30748672 1872 1152 0 0 0
stamp 1796036915.388462699 slab_stat:  1 4 24 2 8 0 0 0 0 30478
stamp 1796036915.411375080 donor_stat:
stamp 1796036915.581583672 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 1 3841 1
stamp 1796036915.603144394 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036916.340806133 PASS: cut noticed, link healed
stamp 1796036916.487667631 == the workload finishes; donor 2 reconnects and its copies are mapped again [205.21s]
stamp 1796036960.841002050 spare-memtest: 8192 pages x 1 passes in 176.71 s, 0 bad pages
stamp 1796036961.120376018 pswpout +8955, pswpin +8264
stamp 1796036961.241037150 io_stat:    2 1692 727 0 0 0 1 1 0 67411968 36683776 1872 3448 0 0 0
stamp 1796036961.396436513 slab_stat:  1 4 24 2 8 0 0 0 0 32768
stamp 1796036961.424303604 donor_stat:
stamp 1796036961.505012984 2 0 10.0.0.2:18515 live 2 1 0 0 0 0 0 1 3841 1
stamp 1796036961.545823702 2 1 10.0.0.3:18515 live 1 0 0 0 0 0 0 0 0 0
stamp 1796036961.896648550 redrives 1, failovers 1
stamp 1796036962.164797967 PASS: every page verified; donor 2 reconnected (2 connects) and all 8 copies are mapped
stamp 1796036962.332077943 == teardown [251.05s]
stamp 1796036969.488152316 PASS: clean teardown
stamp 1796036971.761914586 SPARE-EXIT: 0
stamp 1796036972.466612975 [  261.396045] reboot: Power down
rc 0
end 1796036973.191710326
