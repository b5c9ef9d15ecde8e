/*
 * ucm_plat_skl_mach.c - the machine around the Skylake-client uncore, as
 * `uncore run` presents it to tools: a Core i7-6700K (family 6, model 0x5E,
 * stepping 3; 4 cores, Hyper-Threading off, 4.0 GHz nominal) - its CPUID
 * leaves, caches and the MSRs outside the uncore PMU that tools read
 * (Intel SDM Vol. 4, Tables 2-2, 2-20, 2-39; docs/tools.md).
 */
#include "ucm_mach.h"

#define TSC_HZ 4000000000ull

static const struct ucm_cpuid skl_cpuid[] = {
	{ 0x0, 0, 0x16, UCM_VENDOR_INTEL },
	/* stepping 3, model 0x5E, family 6; 8-line CLFLUSH, 16 IDs a package;
	 * ECX without the hypervisor bit (31) */
	{ 0x1, 0, 0x000506E3, 0x00100800, 0x7FFAFBBF, 0xBFEBFBFF },
	{ 0x2, 0, 0x76036301, 0x00F0B5FF, 0x00000000, 0x00C30000 },
	/* MONITOR/MWAIT (leaf 1 ECX bit 3): 64-byte monitor lines, MWAIT
	 * extensions and interrupt break-event; sub-C-states C1 2, C2 1, C3 2,
	 * C4 4, C5-C7 1 (EDX nibbles) */
	{ 0x5, 0, 0x00000040, 0x00000040, 0x00000003, 0x11142120 },
	{ 0x6, 0, 0x000027F7, 0x00000002, 0x00000009, 0x00000000 },
	/* no RDT monitoring (EBX bit 12): the client part has none */
	{ 0x7, 0, 0x00000000, 0x029C6FBF, 0x00000000, 0x9C000000 },
	/* XSAVE (leaf 1 ECX bit 26): x87, SSE, AVX, MPX's BNDREGS and BNDCSR
	 * (EAX 0x1F), 832 bytes for what Linux 6.1 enables (x87, SSE, AVX: it
	 * dropped MPX), 1088 for all; XSAVEOPT, XSAVEC, XGETBV1, XSAVES and
	 * Processor Trace's supervisor state (subleaf 1); each component's
	 * size and offset (subleaves 2-4, 8) */
	{ 0xD, 0, 0x0000001F, 0x00000340, 0x00000440, 0 },
	{ 0xD, 1, 0x0000000F, 0x00000340, 0x00000100, 0 },
	{ 0xD, 2, 0x00000100, 0x00000240, 0, 0 },
	{ 0xD, 3, 0x00000040, 0x000003C0, 0, 0 },
	{ 0xD, 4, 0x00000040, 0x00000400, 0, 0 },
	{ 0xD, 8, 0x00000080, 0, 0x00000001, 0 },
	/* architectural perfmon v4: 8 counters a core with HT off, 48 bits,
	 * 7 events; 3 fixed counters of 48 bits */
	{ 0xA, 0, 0x07300804, 0x00000000, 0x00000000, 0x00000603 },
	/* TSC = 24 MHz crystal * 500 / 3 = 4.0 GHz */
	{ 0x15, 0, 3, 500, 24000000, 0 },
	{ 0x16, 0, 4000, 4200, 100, 0 },
	{ 0x80000000, 0, 0x80000008, 0, 0, 0 },
	{ 0x80000001, 0, 0, 0, 0x00000121, 0x2C100800 },
	{ 0x80000006, 0, 0, 0, 0x01006040, 0 },
	{ 0x80000007, 0, 0, 0, 0, 0x00000100 },   /* invariant TSC */
	{ 0x80000008, 0, 0x00003027, 0, 0, 0 },
};

static const struct ucm_cache skl_caches[] = {
	{ 1, 1, 8, 32, 0 }, { 1, 2, 8, 32, 0 }, { 2, 3, 4, 256, 0 }, { 3, 3, 16, 8192, 1 },
};

static const struct ucm_sysmsr skl_msrs[] = {
	TIME(0x10, 1, 64, TSC_HZ, "IA32_TIME_STAMP_COUNTER"),
	RO(0x17, 0, "IA32_PLATFORM_ID"),
	RO(0x1B, 0xFEE00900, "IA32_APIC_BASE"),
	RO(0x34, 0, "MSR_SMI_COUNT"),
	RO(0x3A, 0x5, "IA32_FEATURE_CONTROL"),
	RW(0x48, 1, 0, 0x7, "IA32_SPEC_CTRL"),
	RO(0x8B, 0xC200000000ull, "IA32_BIOS_SIGN_ID"),
	/* maximum non-turbo ratio 40 (x 100 MHz), minimum 8 */
	RO(0xCE, (8ull << 40) | (1ull << 29) | (1ull << 28) | (40ull << 8), "MSR_PLATFORM_INFO"),
	/* package C-state limit 8 (C10), C1/C3 auto-demotion and undemotion
	 * on (bits 28:25), locked (bit 15: bits 15:0 read only until reset) */
	RW(0xE2, 1, (0xFull << 25) | (1ull << 15) | 0x8, 0x1E000000, "MSR_PKG_CST_CONFIG_CONTROL"),
	TIME(0xE7, 1, 64, TSC_HZ, "IA32_MPERF"),
	TIME(0xE8, 1, 64, TSC_HZ, "IA32_APERF"),
	RW(0xC1, 8, 0, 0xFFFFFFFFFFFFull, "IA32_PMC0..7"),
	RW(0x186, 8, 0, 0xFFFFFFFFull, "IA32_PERFEVTSEL0..7"),
	RO(0x198, 40ull << 8, "IA32_PERF_STATUS"),
	RW(0x199, 1, 40ull << 8, 0x10000FFFFull, "IA32_PERF_CTL"),
	UCM_SYSMSR_THERM_CTL
	{ 0x19C, 1, UCM_SM_WI, 0, 0, 0x88440000, 0, 0, "IA32_THERM_STATUS", 0, 0 },
	RO(0x1A0, 0x850089, "IA32_MISC_ENABLE"),
	RO(0x1A2, 100ull << 16, "MSR_TEMPERATURE_TARGET"),
	RW(0x1A4, 1, 0, 0xF, "MSR_MISC_FEATURE_CONTROL"),
	RW(0x1A6, 2, 0, 0x3FFFFFBFFFull, "MSR_OFFCORE_RSP_0..1"),
	RO(0x1AD, 0x2A2A2A2A, "MSR_TURBO_RATIO_LIMIT"),
	RW(0x1B0, 1, 6, 0xF, "IA32_ENERGY_PERF_BIAS"),
	{ 0x1B1, 1, UCM_SM_WI, 0, 0, 0x88440000, 0, 0, "IA32_PACKAGE_THERM_STATUS", 0, 0 },
	UCM_SYSMSR_PKG_THERM_INT
	RW(0x1C8, 1, 0, 0x3FF, "MSR_LBR_SELECT"),
	RW(0x1D9, 1, 0, 0xFFFF, "IA32_DEBUGCTL"),
	/* fixed counters: instructions at an IPC of 1, core and reference cycles */
	{ 0x309, 1, UCM_SM_FIXED, 48, 0, 0, 0, TSC_HZ, "IA32_FIXED_CTR0", 0, 0 },
	{ 0x30A, 1, UCM_SM_FIXED, 48, 1, 0, 0, TSC_HZ, "IA32_FIXED_CTR1", 0, 0 },
	{ 0x30B, 1, UCM_SM_FIXED, 48, 2, 0, 0, TSC_HZ, "IA32_FIXED_CTR2", 0, 0 },
	RO(0x345, 0x33C5, "IA32_PERF_CAPABILITIES"),
	RW(0x38D, 1, 0, 0xFFF, "IA32_FIXED_CTR_CTRL"),
	RO(0x38E, 0, "IA32_PERF_GLOBAL_STATUS"),
	RO(0x392, 0, "IA32_PERF_GLOBAL_INUSE"),
	RW(0x38F, 1, 0xFF, 0x7000000FFull, "IA32_PERF_GLOBAL_CTRL"),
	{ 0x390, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_PERF_GLOBAL_OVF_CTRL", 0, 0 },
	RW(0x3F1, 1, 0, 0xF000000FFull, "IA32_PEBS_ENABLE"),
	RW(0x3F6, 1, 3, 0xFFFF, "MSR_PEBS_LD_LAT"),
	RW(0x3F7, 1, 0, 0xFFFFFF, "MSR_PEBS_FRONTEND"),
	/* no package or core C-state residency while the tool runs */
	TIME(0x3F8, 3, 64, 0, "MSR_PKG_C3..C7_RESIDENCY"),
	TIME(0x3FC, 3, 64, 0, "MSR_CORE_C3..C7_RESIDENCY"),
	TIME(0x60D, 1, 64, 0, "MSR_PKG_C2_RESIDENCY"),
	TIME(0x630, 3, 64, 0, "MSR_PKG_C8..C10_RESIDENCY"),
	/* RAPL: power 1/8 W, energy 2^-14 J, time 2^-10 s */
	RO(0x606, 0xA0E03, "MSR_RAPL_POWER_UNIT"),
	RW(0x610, 1, 0x0042821800DD8398ull, 0x80FFFFFF00FFFFFFull, "MSR_PKG_POWER_LIMIT"),
	TIME(0x611, 1, 32, 20ull << 14, "MSR_PKG_ENERGY_STATUS"),    /* 20 W */
	TIME(0x613, 1, 32, 0, "MSR_PKG_PERF_STATUS"),                 /* never throttled */
	RO(0x614, 91 * 8, "MSR_PKG_POWER_INFO"),                      /* 91 W TDP */
	TIME(0x619, 1, 32, 2ull << 14, "MSR_DRAM_ENERGY_STATUS"),     /* 2 W */
	TIME(0x61B, 1, 32, 0, "MSR_DRAM_PERF_STATUS"),                /* never throttled */
	TIME(0x639, 1, 32, 12ull << 14, "MSR_PP0_ENERGY_STATUS"),     /* 12 W */
	TIME(0x641, 1, 32, 1ull << 14, "MSR_PP1_ENERGY_STATUS"),      /* 1 W */
	/* HWP and HDC, which leaf 6 advertises (EAX bits 7-10 and 13; Table
	 * 2-2, SDM Vol. 3B 14.4 and 14.5): HWP enabled as Linux's
	 * intel_pstate leaves it (IA32_PM_ENABLE is write-once: a write of 0
	 * changes nothing); the capabilities from the tables above - highest
	 * 42 (the 1-core turbo ratio), guaranteed 40 (MSR_PLATFORM_INFO's
	 * base), most efficient and lowest 8 (its minimum); each cpu's request
	 * min 8, max 42, desired 0 (autonomous), EPP 0x80, no activity window
	 * (bits 41:0 writable: no package request, leaf 6 bit 11 clear); no
	 * HWP interrupt or status to clear; HDC off, every cpu allowed in it,
	 * no cycle stalled by it */
	{ 0x770, 1, UCM_SM_WI, 0, 0, 1, 0, 0, "IA32_PM_ENABLE", 0, 0 },
	RO(0x771, 0x0808282Aull, "IA32_HWP_CAPABILITIES"),
	RW(0x773, 1, 0, 0x3, "IA32_HWP_INTERRUPT"),
	RW(0x774, 1, 0x80002A08ull, 0x3FFFFFFFFFFull, "IA32_HWP_REQUEST"),
	{ 0x777, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_HWP_STATUS", 0, 0 },
	RW(0xDB0, 1, 0, 0x1, "IA32_PKG_HDC_CTL"),
	RW(0xDB1, 1, 1, 0x1, "IA32_PM_CTL1"),
	TIME(0xDB2, 1, 64, 0, "IA32_THREAD_STALL"),
	UCM_SYSMSR_DS_AREA
	UCM_SYSMSR_SNB_PM
	/* C3 70 us, C6 85, C7s 124; C8 200, C9 480, C10 890 (0x633-0x635,
	 * Table 2-39) */
	UCM_SYSMSR_IRTL(69, 84, 122)
	RO(0x633, 0x8800 | 196, "MSR_PKGC8_IRTL"),
	RO(0x634, 0x8800 | 469, "MSR_PKGC9_IRTL"),
	RO(0x635, 0x8800 | 870, "MSR_PKGC10_IRTL"),
	/* the DRAM and graphics (PP1) power limits and policy not programmed */
	RW(0x618, 1, 0, 0x80FFFFFF, "MSR_DRAM_POWER_LIMIT"),
	RW(0x640, 1, 0, 0x80FFFFFF, "MSR_PP1_POWER_LIMIT"),
	RW(0x642, 1, 0, 0x1F, "MSR_PP1_POLICY"),
	/* configurable TDP (Ivy Bridge's, Table 2-25): the nominal ratio is
	 * MSR_PLATFORM_INFO's base (40), no other level on this part, the
	 * nominal level selected, no turbo activation ratio, unlocked */
	RO(0x648, 40, "MSR_CONFIG_TDP_NOMINAL"),
	RO(0x649, 0, "MSR_CONFIG_TDP_LEVEL_1"),
	RO(0x64A, 0, "MSR_CONFIG_TDP_LEVEL_2"),
	RW(0x64B, 1, 0, 0x80000003, "MSR_CONFIG_TDP_CONTROL"),
	RW(0x64C, 1, 0, 0x800000FF, "MSR_TURBO_ACTIVATION_RATIO"),
	/* package C0 residencies at the TSC's rate (Table 2-39): every core
	 * is in C0 all the time (MPERF runs with the TSC), the GT never */
	TIME(0x658, 1, 64, TSC_HZ, "MSR_PKG_WEIGHTED_CORE_C0_RES"),
	TIME(0x659, 1, 64, TSC_HZ, "MSR_PKG_ANY_CORE_C0_RES"),
	TIME(0x65A, 1, 64, 0, "MSR_PKG_ANY_GFXE_C0_RES"),
	TIME(0x65B, 1, 64, 0, "MSR_PKG_BOTH_CORE_GFXE_C0_RES"),
};

const struct ucm_machine ucm_mach_skl = {
	.brand = "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz",
	.stepping = 3,
	.tsc_mhz = 4000,
	.core_mhz = 4000,
	.mem_mb = 16384,
	.cpuinfo_flags =
		"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
		"fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts "
		"rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl vmx "
		"est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt "
		"tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch epb invpcid_single "
		"fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm mpx rdseed adx smap clflushopt "
		"intel_pt xsaveopt xsavec xgetbv1 xsaves dtherm ida arat pln pts hwp hwp_notify "
		"hwp_act_window hwp_epp",
	.ncpuid = ARRAY_LEN(skl_cpuid),
	.cpuid = skl_cpuid,
	.ncaches = ARRAY_LEN(skl_caches),
	.caches = skl_caches,
	.nsysmsr = ARRAY_LEN(skl_msrs),
	.sysmsr = skl_msrs,
};
