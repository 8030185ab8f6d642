start 1796047381.501044996
stamp 1796049130.866498661 mkinitramfs: note: module ublk_drv not in 6.1.192-spare-debug
stamp 1796049135.476671704 mkinitramfs: note: module aesni_intel not in 6.1.192-spare-debug
stamp 1796049135.878704877 mkinitramfs: note: module crc32c_intel not in 6.1.192-spare-debug
stamp 1796049139.212991573 mkinitramfs: note: module nft_counter not in 6.1.192-spare-debug
stamp 1796049139.386413588 mkinitramfs: note: module raid6_pq not in 6.1.192-spare-debug
stamp 1796049139.536634857 mkinitramfs: note: module xor not in 6.1.192-spare-debug
stamp 1796049175.641457465 mkinitramfs: /work/wt/dbg47/build/vm/6.1.192-spare-debug/base.cpio (40M), /work/wt/dbg47/build/vm/6.1.192-spare-debug/bench.cpio (69M), /work/wt/dbg47/build/vm/6.1.192-spare-debug/systemd.cpio (13M)
stamp 1796049179.017203978 vm/run: tests/vm/client/zztrace.sh on 6.1.192-spare-debug (log: build/vm/logs/client-zztrace@kmod-6.1.192-spare-debug.log)
stamp 1796049195.504463133 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796049195.535214355 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049195.597658233 [    0.000000] BIOS-provided physical RAM map:
stamp 1796049195.705705963 [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable
stamp 1796049195.968321041 [    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved
stamp 1796049196.069985946 [    0.000000] BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved
stamp 1796049196.136672226 [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable
stamp 1796049196.193591793 [    0.000000] BIOS-e820: [mem 0x00000000bffe0000-0x00000000bfffffff] reserved
stamp 1796049196.285528850 [    0.000000] BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved
stamp 1796049196.400333093 [    0.000000] BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] reserved
stamp 1796049196.491366039 [    0.000000] NX (Execute Disable) protection: active
stamp 1796049196.533817784 [    0.000000] SMBIOS 2.8 present.
stamp 1796049196.604243895 [    0.000000] DMI: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
stamp 1796049196.640466236 [    0.000000] last_pfn = 0xbffe0 max_arch_pfn = 0x400000000
stamp 1796049196.656397709 [    0.000000] x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  
stamp 1796049196.672302412 [    0.000000] found SMP MP-table at [mem 0x000f5ba0-0x000f5baf]
stamp 1796049196.689447093 [    0.000000] Using GB pages for direct mapping
stamp 1796049196.705231217 [    0.000000] RAMDISK: [mem 0xbd3f5000-0xbffdffff]
stamp 1796049196.722356782 [    0.000000] ACPI: Early table checksum verification disabled
stamp 1796049196.746550649 [    0.000000] ACPI: RSDP 0x00000000000F59D0 000014 (v00 BOCHS )
stamp 1796049196.777148430 [    0.000000] ACPI: RSDT 0x00000000BFFE1B33 000034 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049196.846486430 [    0.000000] ACPI: FACP 0x00000000BFFE19DF 000074 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049196.916410119 [    0.000000] ACPI: DSDT 0x00000000BFFE0040 00199F (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049196.971600913 [    0.000000] ACPI: FACS 0x00000000BFFE0000 000040
stamp 1796049197.025521423 [    0.000000] ACPI: APIC 0x00000000BFFE1A53 000080 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049197.083333781 [    0.000000] ACPI: HPET 0x00000000BFFE1AD3 000038 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049197.139108732 [    0.000000] ACPI: WAET 0x00000000BFFE1B0B 000028 (v01 BOCHS  BXPC     00000001 BXPC 00000001)
stamp 1796049197.223315363 [    0.000000] ACPI: Reserving FACP table memory at [mem 0xbffe19df-0xbffe1a52]
stamp 1796049197.297191515 [    0.000000] ACPI: Reserving DSDT table memory at [mem 0xbffe0040-0xbffe19de]
stamp 1796049197.380489426 [    0.000000] ACPI: Reserving FACS table memory at [mem 0xbffe0000-0xbffe003f]
stamp 1796049197.422756561 [    0.000000] ACPI: Reserving APIC table memory at [mem 0xbffe1a53-0xbffe1ad2]
stamp 1796049197.449658025 [    0.000000] ACPI: Reserving HPET table memory at [mem 0xbffe1ad3-0xbffe1b0a]
stamp 1796049197.478657921 [    0.000000] ACPI: Reserving WAET table memory at [mem 0xbffe1b0b-0xbffe1b32]
stamp 1796049197.503247858 [    0.000000] No NUMA configuration found
stamp 1796049197.559024302 [    0.000000] Faking a node at [mem 0x0000000000000000-0x00000000bffdffff]
stamp 1796049197.611596449 [    0.000000] NODE_DATA(0) allocated [mem 0xbd3f1000-0xbd3f4fff]
stamp 1796049197.662399636 [    0.000000] Zone ranges:
stamp 1796049197.735464432 [    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
stamp 1796049197.828866814 [    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000bffdffff]
stamp 1796049198.303564695 [    0.000000]   Normal   empty
stamp 1796049198.444397038 [    0.000000] Movable zone start for each node
stamp 1796049199.103828711 [    0.000000] Early memory node ranges
stamp 1796049199.285918107 [    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
stamp 1796049199.518216235 [    0.000000]   node   0: [mem 0x0000000000100000-0x00000000bffdffff]
stamp 1796049199.548895962 [    0.000000] Initmem setup node 0 [mem 0x0000000000001000-0x00000000bffdffff]
stamp 1796049199.612947673 [    0.000000] On node 0, zone DMA: 1 pages in unavailable ranges
stamp 1796049199.708012002 [    0.000000] On node 0, zone DMA: 97 pages in unavailable ranges
stamp 1796049199.787382657 [    0.000000] On node 0, zone DMA32: 32 pages in unavailable ranges
stamp 1796049199.868342731 [    0.000000] kasan: KernelAddressSanitizer initialized
stamp 1796049199.956846037 [    0.000000] ACPI: PM-Timer IO Port: 0x608
stamp 1796049200.024501943 [    0.000000] ACPI: LAPIC_NMI (acpi_id[0xff] dfl dfl lint[0x1])
stamp 1796049200.091633465 [    0.000000] IOAPIC[0]: apic_id 0, version 32, address 0xfec00000, GSI 0-23
stamp 1796049200.184623025 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)
stamp 1796049200.249826687 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 5 high level)
stamp 1796049200.329173357 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)
stamp 1796049200.453902281 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 10 global_irq 10 high level)
stamp 1796049200.565222988 [    0.000000] ACPI: INT_SRC_OVR (bus 0 bus_irq 11 global_irq 11 high level)
stamp 1796049200.616818756 [    0.000000] ACPI: Using ACPI (MADT) for SMP configuration information
stamp 1796049200.695977379 [    0.000000] ACPI: HPET id: 0x8086a201 base: 0xfed00000
stamp 1796049200.767394576 [    0.000000] smpboot: Allowing 2 CPUs, 0 hotplug CPUs
stamp 1796049200.840348071 [    0.000000] [mem 0xc0000000-0xfffbffff] available for PCI devices
stamp 1796049200.933629123 [    0.000000] clocksource: refined-jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1910969940391419 ns
stamp 1796049200.991052485 [    0.000000] setup_percpu: NR_CPUS:64 nr_cpumask_bits:2 nr_cpu_ids:2 nr_node_ids:1
stamp 1796049201.060961586 [    0.000000] percpu: Embedded 66 pages/cpu s231008 r8192 d31136 u1048576
stamp 1796049201.141128349 [    0.000000] Fallback order for Node 0: 0 
stamp 1796049201.227845293 [    0.000000] Built 1 zonelists, mobility grouping on.  Total pages: 773856
stamp 1796049201.263342711 [    0.000000] Policy zone: DMA32
stamp 1796049201.284699797 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049201.316223972 [    0.000000] Unknown kernel command line parameters "no5lvl", will be passed to user space.
stamp 1796049201.386961833 [    0.000000] random: crng init done
stamp 1796049201.424140204 [    0.000000] Dentry cache hash table entries: 524288 (order: 10, 4194304 bytes, linear)
stamp 1796049201.498997614 [    0.000000] Inode-cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)
stamp 1796049201.601162556 [    0.000000] mem auto-init: stack:all(zero), heap alloc:off, heap free:off
stamp 1796049201.738612394 [    0.000000] stackdepot hash table entries: 1048576 (order: 11, 8388608 bytes, linear)
stamp 1796049201.765284244 [    0.000000] Memory: 2575116K/3145208K available (24582K kernel code, 4694K rwdata, 4432K rodata, 1732K init, 14024K bss, 569836K reserved, 0K cma-reserved)
stamp 1796049201.801924676 [    0.000000] SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1
stamp 1796049201.830297115 [    0.000000] Dynamic Preempt: voluntary
stamp 1796049201.852641309 [    0.000000] Running RCU self tests
stamp 1796049201.949370440 [    0.000000] rcu: Preemptible hierarchical RCU implementation.
stamp 1796049202.025800327 [    0.000000] rcu: 	RCU event tracing is enabled.
stamp 1796049202.081472834 [    0.000000] rcu: 	RCU lockdep checking is enabled.
stamp 1796049202.159956119 [    0.000000] rcu: 	RCU restricting CPUs from NR_CPUS=64 to nr_cpu_ids=2.
stamp 1796049202.226853778 [    0.000000] rcu: 	RCU callback double-/use-after-free debug is enabled.
stamp 1796049202.288679375 [    0.000000] 	Trampoline variant of Tasks RCU enabled.
stamp 1796049202.363659928 [    0.000000] rcu: RCU calculated value of scheduler-enlistment delay is 100 jiffies.
stamp 1796049202.416981063 [    0.000000] rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2
stamp 1796049202.607167730 [    0.000000] NR_IRQS: 4352, nr_irqs: 440, preallocated irqs: 16
stamp 1796049202.690799352 [    0.000000] rcu: srcu_init: Setting srcu_struct sizes based on contention.
stamp 1796049202.800275617 [    0.000000] Console: colour VGA+ 80x25
stamp 1796049202.876288886 [    0.000000] printk: console [ttyS0] enabled
stamp 1796049202.906238059 [    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
stamp 1796049202.939549098 [    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
stamp 1796049203.004088473 [    0.000000] ... MAX_LOCK_DEPTH:          48
stamp 1796049203.052770364 [    0.000000] ... MAX_LOCKDEP_KEYS:        8192
stamp 1796049203.089811104 [    0.000000] ... CLASSHASH_SIZE:          4096
stamp 1796049203.163272491 [    0.000000] ... MAX_LOCKDEP_ENTRIES:     32768
stamp 1796049203.221128171 [    0.000000] ... MAX_LOCKDEP_CHAINS:      65536
stamp 1796049203.283049198 [    0.000000] ... CHAINHASH_SIZE:          32768
stamp 1796049203.307940065 [    0.000000]  memory used by lock dependency info: 6493 kB
stamp 1796049203.365794483 [    0.000000]  memory used for stack traces: 4224 kB
stamp 1796049203.428779935 [    0.000000]  per task-struct memory footprint: 1920 bytes
stamp 1796049203.490844885 [    0.000000] ACPI: Core revision 20220331
stamp 1796049203.545310616 [    0.000000] clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 19112604467 ns
stamp 1796049203.647176382 [    0.008000] APIC: Switch to symmetric I/O mode setup
stamp 1796049203.673435199 [    0.020000] ..TIMER: vector=0x30 apic1=0 pin1=2 apic2=-1 pin2=-1
stamp 1796049203.707384507 [    0.025000] tsc: Unable to calibrate against PIT
stamp 1796049203.733181870 [    0.026000] tsc: using HPET reference calibration
stamp 1796049203.755568905 [    0.028000] tsc: Detected 2094.302 MHz processor
stamp 1796049203.774362398 [    0.001411] tsc: Marking TSC unstable due to TSCs unsynchronized
stamp 1796049203.816818050 [    0.004104] Calibrating delay loop (skipped), value calculated using timer frequency.. 4188.60 BogoMIPS (lpj=2094302)
stamp 1796049203.904792796 [    0.016364] x86/cpu: User Mode Instruction Prevention (UMIP) activated
stamp 1796049203.982632443 [    0.025911] process: using AMD E400 aware idle routine
stamp 1796049204.059999073 [    0.028669] Last level iTLB entries: 4KB 512, 2MB 255, 4MB 127
stamp 1796049204.078672087 [    0.032173] Last level dTLB entries: 4KB 512, 2MB 255, 4MB 127, 1GB 0
stamp 1796049204.103726875 [    0.041144] Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization
stamp 1796049204.202305577 [    0.043547] Spectre V2 : Mitigation: Retpolines
stamp 1796049204.419720425 [    0.044230] Spectre V2 : Spectre v2 / SpectreRSB: Filling RSB on context switch and VMEXIT
stamp 1796049204.555846337 [    0.060746] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
stamp 1796049204.608913511 [    0.065301] x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'
stamp 1796049204.675175497 [    0.066206] x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'
stamp 1796049204.726283442 [    0.067144] x86/fpu: Supporting XSAVE feature 0x008: 'MPX bounds registers'
stamp 1796049204.803372386 [    0.067482] x86/fpu: Supporting XSAVE feature 0x010: 'MPX CSR'
stamp 1796049204.862000890 [    0.069171] x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'
stamp 1796049204.900917051 [    0.070751] x86/fpu: xstate_offset[2]:  576, xstate_sizes[2]:  256
stamp 1796049204.960411193 [    0.072157] x86/fpu: xstate_offset[3]:  960, xstate_sizes[3]:   64
stamp 1796049205.010520226 [    0.072376] x86/fpu: xstate_offset[4]: 1024, xstate_sizes[4]:   64
stamp 1796049205.047574282 [    0.073141] x86/fpu: xstate_offset[9]: 2688, xstate_sizes[9]:    8
stamp 1796049205.168203944 [    0.074210] x86/fpu: Enabled xstate features 0x21f, context size is 2696 bytes, using 'standard' format.
stamp 1796049205.200391045 [    0.242379] Freeing SMP alternatives memory: 24K
stamp 1796049205.294698561 [    0.244630] pid_max: default: 32768 minimum: 301
stamp 1796049205.592180142 [    0.278308] Mount-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049205.981023011 [    0.280123] Mountpoint-cache hash table entries: 8192 (order: 4, 65536 bytes, linear)
stamp 1796049206.105698294 [    0.526104] smpboot: CPU0: AMD QEMU TCG CPU version 2.5+ (family: 0xf, model: 0x6b, stepping: 0x1)
stamp 1796049206.164933315 [    0.563169] cblist_init_generic: Setting adjustable number of callback queues.
stamp 1796049206.239083526 [    0.564245] cblist_init_generic: Setting shift to 1 and lim to 1 rcu_task_cpu_ids=2.
stamp 1796049206.299547034 [    0.569146] Running RCU-tasks wait API self tests
stamp 1796049206.370821240 [    0.696577] Performance Events: PMU not available due to virtualization, using software events only.
stamp 1796049206.430014021 [    0.706194] signal: max sigframe size: 3232
stamp 1796049206.511676986 [    0.713104] rcu: Hierarchical SRCU implementation.
stamp 1796049206.580703336 [    0.713104] rcu: 	Max phase no-delay instances is 400.
stamp 1796049206.618295200 [    0.740784] smp: Bringing up secondary CPUs ...
stamp 1796049206.668632956 [    0.786171] x86: Booting SMP configuration:
stamp 1796049206.745484271 [    0.788292] .... node  #0, CPUs:      #1
stamp 1796049206.804309186 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 3 = 14526747
stamp 1796049206.829990420 [    0.000000] calibrate_delay_direct() dropping max bogoMips estimate 1 = 9857715
stamp 1796049206.905758735 [    0.000000] calibrate_delay_direct() failed to get a good estimate for loops_per_jiffy.
stamp 1796049206.968648305 [    0.000000] Probably due to long platform interrupts. Consider using "lpj=" boot option.
stamp 1796049207.014802431 [    0.906279] Callback from call_rcu_tasks() invoked.
stamp 1796049207.068677484 [    0.949426] smp: Brought up 1 node, 2 CPUs
stamp 1796049207.127890994 [    0.950281] smpboot: Max logical packages: 1
stamp 1796049207.164256627 [    0.951305] smpboot: Total of 2 processors activated (4196.79 BogoMIPS)
stamp 1796049207.219571236 [    1.044677] devtmpfs: initialized
stamp 1796049207.277977799 [    1.141311] clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 1911260446275000 ns
stamp 1796049207.370847062 [    1.144308] futex hash table entries: 512 (order: 4, 65536 bytes, linear)
stamp 1796049207.459576997 [    1.179267] NET: Registered PF_NETLINK/PF_ROUTE protocol family
stamp 1796049207.549923563 [    1.214969] thermal_sys: Registered thermal governor 'step_wise'
stamp 1796049207.619078847 [    1.215242] thermal_sys: Registered thermal governor 'user_space'
stamp 1796049207.647443711 [    1.219219] cpuidle: using governor menu
stamp 1796049207.707141529 [    1.241702] PCI: Using configuration type 1 for base access
stamp 1796049207.737472195 [    1.248291] mtrr: your CPUs had inconsistent fixed MTRR settings
stamp 1796049207.793658785 [    1.249158] mtrr: your CPUs had inconsistent variable MTRR settings
stamp 1796049207.868897547 [    1.250142] mtrr: your CPUs had inconsistent MTRRdefType settings
stamp 1796049207.973027730 [    1.250732] mtrr: probably your BIOS does not setup all CPUs.
stamp 1796049208.036747794 [    1.251135] mtrr: corrected configuration.
stamp 1796049208.119309911 [    1.525168] HugeTLB: registered 2.00 MiB page size, pre-allocated 0 pages
stamp 1796049208.322868786 [    1.528151] HugeTLB: 28 KiB vmemmap can be freed for a 2.00 MiB page
stamp 1796049208.445815134 [    1.604974] ACPI: Added _OSI(Module Device)
stamp 1796049208.499824522 [    1.606148] ACPI: Added _OSI(Processor Device)
stamp 1796049208.713200494 [    1.607140] ACPI: Added _OSI(Processor Aggregator Device)
stamp 1796049208.801232628 [    1.831522] ACPI: 1 ACPI AML tables successfully acquired and loaded
stamp 1796049208.851532052 [    1.925429] ACPI: Interpreter enabled
stamp 1796049208.917472699 [    1.929743] ACPI: PM: (supports S0 S5)
stamp 1796049208.966946519 [    1.931207] ACPI: Using IOAPIC for interrupt routing
stamp 1796049209.015643309 [    1.934388] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug
stamp 1796049209.055555175 [    1.935184] PCI: Using E820 reservations for host bridge windows
stamp 1796049209.089209564 [    1.951104] ACPI: Enabled 2 GPEs in block 00 to 0F
stamp 1796049209.187457480 [    2.528777] ACPI: PCI Root Bridge [PCI0] (domain 0000 [bus 00-ff])
stamp 1796049209.299805693 [    2.535055] acpi PNP0A03:00: _OSC: OS supports [ASPM ClockPM Segments MSI HPX-Type3]
stamp 1796049209.381216000 [    2.537398] acpi PNP0A03:00: _OSC: not requesting OS control; OS requires [ExtendedConfig ASPM ClockPM MSI]
stamp 1796049209.527586248 [    2.543363] acpi PNP0A03:00: fail to add MMCONFIG information, can't access extended PCI configuration space under this bridge.
stamp 1796049209.632749827 [    2.567578] PCI host bridge to bus 0000:00
stamp 1796049209.752950116 [    2.569745] pci_bus 0000:00: root bus resource [io  0x0000-0x0cf7 window]
stamp 1796049209.910788938 [    2.572221] pci_bus 0000:00: root bus resource [io  0x0d00-0xffff window]
stamp 1796049210.034942442 [    2.573170] pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]
stamp 1796049210.048574942 [    2.574167] pci_bus 0000:00: root bus resource [mem 0xc0000000-0xfebfffff window]
stamp 1796049210.066990770 [    2.575195] pci_bus 0000:00: root bus resource [mem 0x100000000-0x17fffffff window]
stamp 1796049210.097909159 [    2.577640] pci_bus 0000:00: root bus resource [bus 00-ff]
stamp 1796049210.245446626 [    2.588775] pci 0000:00:00.0: [8086:1237] type 00 class 0x060000
stamp 1796049210.304881977 [    2.776769] pci 0000:00:01.0: [8086:7000] type 00 class 0x060100
stamp 1796049210.380520256 [    2.912249] pci 0000:00:01.1: [8086:7010] type 00 class 0x010180
stamp 1796049210.505210806 [    2.925836] pci 0000:00:01.1: BAR 4 [io  0xc000-0xc00f]
stamp 1796049210.589809390 [    2.929104] pci 0000:00:01.1: BAR 0 [io  0x01f0-0x01f7]: legacy IDE quirk
stamp 1796049210.713686070 [    2.931201] pci 0000:00:01.1: BAR 1 [io  0x03f6]: legacy IDE quirk
stamp 1796049210.931509692 [    2.933240] pci 0000:00:01.1: BAR 2 [io  0x0170-0x0177]: legacy IDE quirk
stamp 1796049210.973261943 [    2.934171] pci 0000:00:01.1: BAR 3 [io  0x0376]: legacy IDE quirk
stamp 1796049211.156692738 [    2.940456] pci 0000:00:01.3: [8086:7113] type 00 class 0x068000
stamp 1796049211.205236087 [    2.943644] pci 0000:00:01.3: quirk: [io  0x0600-0x063f] claimed by PIIX4 ACPI
stamp 1796049211.267337236 [    2.945254] pci 0000:00:01.3: quirk: [io  0x0700-0x070f] claimed by PIIX4 SMB
stamp 1796049211.329315842 [    2.949512] pci 0000:00:02.0: [1234:1111] type 00 class 0x030000
stamp 1796049211.389741728 [    2.952166] pci 0000:00:02.0: BAR 0 [mem 0xfd000000-0xfdffffff pref]
stamp 1796049211.477466109 [    2.958217] pci 0000:00:02.0: BAR 2 [mem 0xfebf0000-0xfebf0fff]
stamp 1796049211.704742149 [    2.965480] pci 0000:00:02.0: ROM [mem 0xfebe0000-0xfebeffff pref]
stamp 1796049211.882847331 [    2.968495] pci 0000:00:02.0: Video device with shadowed ROM at [mem 0x000c0000-0x000dffff]
stamp 1796049211.929731017 [    3.148409] ACPI: PCI: Interrupt link LNKA configured for IRQ 10
stamp 1796049212.061562228 [    3.166483] ACPI: PCI: Interrupt link LNKB configured for IRQ 10
stamp 1796049212.173161272 [    3.180510] ACPI: PCI: Interrupt link LNKC configured for IRQ 11
stamp 1796049212.267350514 [    3.194756] ACPI: PCI: Interrupt link LNKD configured for IRQ 11
stamp 1796049212.435105560 [    3.200558] ACPI: PCI: Interrupt link LNKS configured for IRQ 9
stamp 1796049212.500519280 [    3.244217] iommu: Default domain type: Translated 
stamp 1796049212.572343067 [    3.246175] iommu: DMA domain TLB invalidation policy: lazy mode 
stamp 1796049212.604019490 [    3.262498] pps_core: LinuxPPS API ver. 1 registered
stamp 1796049212.641187292 [    3.264212] pps_core: Software ver. 5.3.6 - Copyright 2005-2007 Rodolfo Giometti <giometti@linux.it>
stamp 1796049212.681282606 [    3.266184] PTP clock support registered
stamp 1796049212.714945210 [    3.317410] PCI: Using ACPI for IRQ routing
stamp 1796049212.799538232 [    3.341104] pci 0000:00:02.0: vgaarb: setting as boot VGA device
stamp 1796049212.847269323 [    3.341104] pci 0000:00:02.0: vgaarb: bridge control possible
stamp 1796049212.894901507 [    3.341104] pci 0000:00:02.0: vgaarb: VGA device added: decodes=io+mem,owns=io+mem,locks=none
stamp 1796049212.938785464 [    3.344436] vgaarb: loaded
stamp 1796049212.983271240 [    3.355233] hpet0: at MMIO 0xfed00000, IRQs 2, 8, 0
stamp 1796049213.010983409 [    3.357225] hpet0: 3 comparators, 64-bit 100.000000 MHz counter
stamp 1796049213.030848460 [    3.367394] clocksource: Switched to clocksource hpet
stamp 1796049213.051597264 [    3.436245] pnp: PnP ACPI init
stamp 1796049213.084887313 [    3.579906] pnp: PnP ACPI: found 6 devices
stamp 1796049213.149085212 [    4.125864] clocksource: acpi_pm: mask: 0xffffff max_cycles: 0xffffff, max_idle_ns: 2085701024 ns
stamp 1796049213.212483535 [    4.141029] NET: Registered PF_INET protocol family
stamp 1796049213.260725885 [    4.173646] IP idents hash table entries: 65536 (order: 7, 524288 bytes, linear)
stamp 1796049213.288914175 [    4.281898] tcp_listen_portaddr_hash hash table entries: 2048 (order: 6, 147456 bytes, linear)
stamp 1796049213.324913433 [    4.282198] Table-perturb hash table entries: 65536 (order: 6, 262144 bytes, linear)
stamp 1796049213.350881199 [    4.285711] TCP established hash table entries: 32768 (order: 6, 262144 bytes, linear)
stamp 1796049213.383279139 [    4.302986] TCP bind hash table entries: 32768 (order: 11, 4718592 bytes, vmalloc hugepage)
stamp 1796049213.447103139 [    4.456689] TCP: Hash tables configured (established 32768 bind 32768)
stamp 1796049213.492935455 [    4.587382] UDP hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049213.593089750 [    4.595385] UDP-Lite hash table entries: 2048 (order: 7, 327680 bytes, linear)
stamp 1796049213.657532432 [    4.611408] NET: Registered PF_UNIX/PF_LOCAL protocol family
stamp 1796049213.673836871 [    4.621398] pci_bus 0000:00: resource 4 [io  0x0000-0x0cf7 window]
stamp 1796049213.688520022 [    4.623682] pci_bus 0000:00: resource 5 [io  0x0d00-0xffff window]
stamp 1796049213.711168993 [    4.625465] pci_bus 0000:00: resource 6 [mem 0x000a0000-0x000bffff window]
stamp 1796049213.750892723 [    4.627692] pci_bus 0000:00: resource 7 [mem 0xc0000000-0xfebfffff window]
stamp 1796049213.836645282 [    4.629507] pci_bus 0000:00: resource 8 [mem 0x100000000-0x17fffffff window]
stamp 1796049213.921546719 [    4.639801] pci 0000:00:01.0: PIIX3: Enabling Passive Release
stamp 1796049213.984794377 [    4.643627] pci 0000:00:00.0: Limiting direct PCI/PCI transfers
stamp 1796049214.020533844 [    4.645439] PCI: CLS 0 bytes, default 64
stamp 1796049214.089168603 [    4.772696] Trying to unpack rootfs image as initramfs...
stamp 1796049214.125072310 [    4.916705] Initialise system trusted keyrings
stamp 1796049214.153355840 [    4.942693] workingset: timestamp_bits=40 max_order=20 bucket_order=0
stamp 1796049214.206937308 [    6.046369] cryptomgr_test (35) used greatest stack depth: 30032 bytes left
stamp 1796049214.261646361 [    6.114382] Key type asymmetric registered
stamp 1796049214.421506128 [    6.118938] Asymmetric key parser 'x509' registered
stamp 1796049214.475793081 [    6.135957] io scheduler mq-deadline registered
stamp 1796049214.526146437 [    6.139389] io scheduler kyber registered
stamp 1796049214.539321141 [    6.658315] input: Power Button as /devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
stamp 1796049214.565630934 [    6.688727] ACPI: button: Power Button [PWRF]
stamp 1796049214.588763082 [    7.504904] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled
stamp 1796049214.617298529 [    7.547940] 00:04: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A
stamp 1796049214.687991023 [    7.791085] Non-volatile memory driver v1.3
stamp 1796049214.728015863 [    7.942588] i8042: PNP: PS/2 Controller [PNP0303:KBD,PNP0f13:MOU] at 0x60,0x64 irq 1,12
stamp 1796049214.764675692 [    7.978875] serio: i8042 KBD port at 0x60,0x64 irq 1
stamp 1796049214.837825309 [    7.983432] serio: i8042 AUX port at 0x60,0x64 irq 12
stamp 1796049214.961172657 [    8.006861] rtc_cmos 00:05: RTC can wake from S4
stamp 1796049215.128132287 [    8.053483] rtc_cmos 00:05: registered as rtc0
stamp 1796049215.193317905 [    8.405215] rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs
stamp 1796049215.321036990 [    8.529534] NET: Registered PF_INET6 protocol family
stamp 1796049215.409549453 [    8.881580] Segment Routing with IPv6
stamp 1796049215.489810574 [    8.889528] In-situ OAM (IOAM) with IPv6
stamp 1796049215.567998911 [    8.899901] NET: Registered PF_PACKET protocol family
stamp 1796049215.684657876 [    8.907725] Key type dns_resolver registered
stamp 1796049215.804267136 [    8.913521] IPI shorthand broadcast: enabled
stamp 1796049215.940712221 [    8.936925] registered taskstats version 1
stamp 1796049215.966513622 [    8.939072] Loading compiled-in X.509 certificates
stamp 1796049215.996222080 [    9.200010] hrtimer: interrupt took 2697510 ns
stamp 1796049216.044631906 [    9.284736] Unstable clock detected, switching default tracing clock to "global"
stamp 1796049216.096612773 [    9.284736] If you want to keep using the local clock, then add:
stamp 1796049216.158810965 [    9.284736]   "trace_clock=local"
stamp 1796049216.177087018 [    9.284736] on the kernel command line
stamp 1796049216.208019162 [   18.716506] Freeing initrd memory: 44972K
stamp 1796049217.885911502 [   20.480716] Freeing unused kernel image (initmem) memory: 1732K
stamp 1796049217.919239673 [   20.485775] Write protecting the kernel read-only data: 32768k
stamp 1796049217.937344491 [   20.551310] Freeing unused kernel image (text/rodata gap) memory: 2040K
stamp 1796049217.966409912 [   20.564826] Freeing unused kernel image (rodata/data gap) memory: 1712K
stamp 1796049218.568501011 [   21.105857] x86/mm: Checked W+X mappings: passed, no W+X pages found.
stamp 1796049218.713167233 [   21.109933] Run /init as init process
stamp 1796049219.245554950 [   21.830639] mount (65) used greatest stack depth: 27696 bytes left
stamp 1796049225.425913478 spare-guest: kernel 6.1.192-spare-debug, up 27.98 s
stamp 1796049225.571292289 spare-guest: running tests/vm/client/zztrace.sh at 28.17 s of uptime
stamp 1796049227.358011753 debug kernel: 5 rounds, FLIP=1 (round 1's backup is async)
stamp 1796049227.480036908 == three hosts; a slow backup (brd behind dm-delay, 20 ms) [30.03s]
stamp 1796049282.940166491 PASS: donors up, backup /dev/mapper/slow
stamp 1796049283.524902491   t 86.11 r1 cfg-done
stamp 1796049287.553817449   t 90.13 r1 powered
stamp 1796049289.193829389   t 91.66 r1 fault-kill
stamp 1796049292.405830517   t 94.97 r1 fault-done
stamp 1796049300.382853840   t 102.92 r1 io-dead
stamp 1796049304.309202275   t 106.90 r1 off-removed
stamp 1796049304.550512155   t 107.11 r1 old3-reaped
stamp 1796049313.276775850   t 115.84 r1 restored
stamp 1796049315.450868993 round 1: kill, backup async: off and removed [117.99s]
stamp 1796049315.901717389   t 118.48 r2 cfg-done
stamp 1796049322.344530561   t 124.94 r2 powered
stamp 1796049325.116264307   t 127.72 r2 fault-cut
stamp 1796049356.214863726   t 158.71 r2 fault-done
stamp 1796049361.529041616   t 164.12 r2 io-dead
stamp 1796049363.514201635   t 166.03 r2 off-removed
stamp 1796049367.059304806   t 169.63 r2 restored
stamp 1796049369.834503853 round 2: cut, backup sync: off and removed [172.39s]
stamp 1796049369.861944036   t 172.47 r3 cfg-done
stamp 1796049371.725051630   t 174.34 r3 powered
stamp 1796049372.356133759   t 174.93 r3 fault-evict
stamp 1796049389.912957696   t 192.44 r3 fault-done
stamp 1796049391.038551160   t 193.64 r3 io-dead
stamp 1796049393.177306556   t 195.59 r3 off-removed
stamp 1796049393.232679596   t 195.77 r3 restored
stamp 1796049398.411561594 round 3: evict, backup async: off and removed [200.86s]
stamp 1796049400.224232395   t 202.78 r4 cfg-done
stamp 1796049412.465507396   t 215.03 r4 powered
stamp 1796049413.357154882   t 215.94 r4 fault-none
stamp 1796049414.631682338   t 216.88 r4 fault-done
stamp 1796049416.913623783   t 219.44 r4 io-dead
stamp 1796049417.688102829   t 220.27 r4 off-removed
stamp 1796049417.755951400   t 220.30 r4 restored
stamp 1796049419.917688959 round 4: none, backup sync: off and removed [222.53s]
stamp 1796049420.130561789   t 222.74 r5 cfg-done
stamp 1796049424.514656710   t 227.08 r5 powered
stamp 1796049427.679660156   t 230.04 r5 fault-restart
stamp 1796049452.191131088   t 254.73 r5 old3-reaped
stamp 1796049480.423237853   t 282.97 r5 fault-done
stamp 1796049481.205302150   t 283.82 r5 io-dead
stamp 1796049481.937767551   t 284.52 r5 off-removed
stamp 1796049481.994000309   t 284.60 r5 restored
stamp 1796049483.160341161 round 5: restart, backup async: off and removed [285.75s]
stamp 1796049484.568337387 error roads taken: 3; slabs evicted: 2
stamp 1796049484.655249761 PASS: 5 rounds powered off and removed under I/O, 4 with a fault in flight
stamp 1796049484.798873077 == unload [287.21s]
stamp 1796049487.783935716 PASS: spare.ko unloaded; no splat
stamp 1796049487.863521889 ---- dmesg
stamp 1796049489.117072999 [    0.000000] Linux version 6.1.192-spare-debug (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Sun Nov 29 21:31:54 UTC 2026
stamp 1796049489.145791162 [    0.000000] Command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049489.260167024 [    0.000000] Kernel command line: console=ttyS0 panic=-1 loglevel=7 no_timer_check no5lvl kasan_multi_shot spare.scenario=tests/vm/client/zztrace.sh
stamp 1796049489.389339811 [   31.545406] rdma_rxe: loaded
stamp 1796049489.552763827 [   48.404404] infiniband rxe1: set active
stamp 1796049489.647488172 [   48.405037] infiniband rxe1: added h1
stamp 1796049489.693003187 [   53.057308] infiniband rxe2: set active
stamp 1796049489.745153073 [   53.057308] infiniband rxe2: added h2
stamp 1796049489.785546723 [   56.066596] infiniband rxe3: set active
stamp 1796049489.846754369 [   56.072558] infiniband rxe3: added h3
stamp 1796049489.904394090 [   85.352598] spare: loading out-of-tree module taints kernel.
stamp 1796049489.961255006 [   85.436744] spare: loaded; configure devices in /sys/kernel/config/spare/
stamp 1796049490.018515940 [   88.068482] spare: donor 10.0.0.3:18515: connected (session 08d8a44a200f4549)
stamp 1796049490.071119928 [   88.327087] spare: donor 10.0.0.2:18515: connected (session 09c2d90f2bf60275)
stamp 1796049490.139669315 [   89.232652] spare: t1: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796049490.177844342 [  102.143975] spare: donor 10.0.0.3:18515: data connection rejected: consumer defined
stamp 1796049490.239518422 [  102.664377] spare: donor 10.0.0.3:18515: data connection for queue 0 failed: -111
stamp 1796049490.299523081 [  102.680124] spare: donor 10.0.0.3:18515: disconnected; 2 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796049490.356819402 [  104.840750] spare: donor 10.0.0.3:18515: connect failed: -108; retrying in 1000 ms
stamp 1796049490.407519394 [  104.937250] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049490.456434857 [  119.193994] spare: donor 10.0.0.2:18515: connected (session 63013a556cb02993)
stamp 1796049490.571537926 [  119.655354] spare: donor 10.0.0.3:18515: connected (session f5c3c61c85ace88f)
stamp 1796049490.649178595 [  123.818804] spare: t2: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796049490.745409572 [  163.872482] spare: donor 10.0.0.3:18515: RDMA WRITE of slab 0 failed: transport retry counter exceeded
stamp 1796049490.806366755 [  163.906069] spare: donor 10.0.0.3:18515: RDMA operation failed; 1 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796049490.841929076 [  164.514298] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049490.871460980 [  172.966867] spare: donor 10.0.0.2:18515: connected (session 913042b144ea79d1)
stamp 1796049490.899196582 [  172.992911] spare: donor 10.0.0.3:18515: connected (session 4785cc447afce974)
stamp 1796049490.939781734 [  173.316345] spare: t3: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796049490.989993081 [  186.846285] spare: donor 10.0.0.2:18515: slab 0 cannot move (no other donor takes it): given back
stamp 1796049491.017438063 [  186.846285] spare: donor 10.0.0.2:18515: slab 1 cannot move (no other donor takes it): given back
stamp 1796049491.096943303 [  186.913292] spare: donor 10.0.0.2:18515: slab 1 evicted; using other copies and backup
stamp 1796049491.228435933 [  187.131091] spare: donor 10.0.0.2:18515: slab 0 evicted; using other copies and backup
stamp 1796049491.332729014 [  194.301928] spare: donor 10.0.0.2:18515: 0 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049491.499843257 [  194.680577] spare: donor 10.0.0.3:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049491.586720785 [  203.930454] spare: donor 10.0.0.3:18515: connected (session 1a2432e206bc513f)
stamp 1796049491.675882728 [  206.164620] spare: donor 10.0.0.2:18515: connected (session c6cbea723b797b91)
stamp 1796049491.728307566 [  213.839689] spare: t4: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796049491.773690922 [  219.600906] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049491.817307552 [  219.749248] spare: donor 10.0.0.3:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049491.857759512 [  224.148959] spare: donor 10.0.0.2:18515: connected (session 620818eb3b06c125)
stamp 1796049491.905522613 [  224.460961] spare: donor 10.0.0.3:18515: connected (session 0ecea9dbe12ffe19)
stamp 1796049491.949738869 [  226.700482] spare: t5: spare0 up: 33554432 bytes, 2 slabs of 16 MiB, 2 copies, 2 donors, backup /dev/mapper/slow
stamp 1796049491.997019226 [  254.610483] spare: donor 10.0.0.3:18515: disconnected; 2 slab copies dropped; it holds our slabs over a restart: they are waited for up to 20000 ms (hold_ms; I/O no other copy serves waits); reconnecting
stamp 1796049492.069356796 [  255.899514] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.167781948 [  256.285540] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 1000 ms
stamp 1796049492.260852842 [  259.065064] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.302460459 [  259.413531] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049492.357568606 [  260.701045] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.428566500 [  260.722955] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049492.495986137 [  262.206773] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.553459043 [  262.434565] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049492.599628838 [  264.858744] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.656275448 [  265.015672] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049492.704695113 [  267.140043] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049492.821307719 [  267.200644] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049492.916116904 [  268.800652] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049493.009519527 [  269.443024] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049493.287618701 [  271.048805] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049493.382873160 [  271.160476] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049493.437805706 [  273.306632] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049493.492007978 [  273.386997] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049493.578346396 [  274.598817] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049493.652245271 [  274.812548] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 2000 ms
stamp 1796049493.755477754 [  275.108247] spare: donor 10.0.0.3:18515 lost: 2 slab copies failed: not back within 20000 ms of its restart (hold_ms), the copies it held are given up, as without a hold (I/O that only they could serve fails)
stamp 1796049493.845794384 [  278.655385] spare: donor 10.0.0.3:18515: control connection rejected: invalid service ID
stamp 1796049493.926895866 [  278.885331] spare: donor 10.0.0.3:18515: connect failed: -111; retrying in 4000 ms
stamp 1796049493.988898648 [  283.851093] spare: donor 10.0.0.3:18515: connected (session 9be881e4c68b4f53)
stamp 1796049494.044466737 [  283.980719] spare: donor 10.0.0.2:18515: 2 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049494.103688954 [  284.072540] spare: donor 10.0.0.3:18515: 0 slab copies given back (UNMAP): it holds nothing for this device
stamp 1796049494.177770435 SPARE-EXIT: 0
stamp 1796049494.244513071 [  293.512726] reboot: Power down
end 1796049494.362440247
