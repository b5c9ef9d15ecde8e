/*
 * ucm_plat_skl_mach.c - the machine around the Skylake-client uncore, as
 * `uncore run` presents it to tools: a Core i7-6700K (family 6, model 0x5E,
 * stepping 3; 4 cores, Hyper-Threading off, 4.0 GHz nominal) - its CPUID
 * leaves, caches and the MSRs outside the uncore PMU that tools read
 * (Intel SDM Vol. 4, Tables 2-2, 2-20, 2-39; docs/tools.md).
 */
#include "ucm_mach.h"

#define TSC_HZ 4000000000ull

/* Power (docs/invariants.md, "skl"): TDP from Intel's specification of the
 * i7-6700K; the idle powers (every core in C6, no package C-state, the GT
 * in RC6) and the energies of a DRAM access and of a GT memory request are
 * the model's figures; a core in C0 draws what keeps every core busy plus
 * the DRAM traffic (all of it the GT's) at its peak within TDP, Intel's
 * definition of TDP. */
#define TDP_W 91
#define PKG_IDLE_W 8.0
#define PP0_IDLE_W 0.5
#define PP1_IDLE_W 0.5
#define DRAM_IDLE_W 1.0
#define UNCORE_NJ 5.0
#define GT_NJ 5.0
#define DRAM_NJ 35.84      /* 70 pJ/bit x 512 bits, the Xeons' figure */
#define PEAK_LINES_S (2 * 2133.33e6 / 8)  /* two channels of DDR4-2133: MT/s x 8 B / 64 B */
#define NCORES 4
#define CORE_W ((TDP_W - PKG_IDLE_W - (UNCORE_NJ + GT_NJ) * 1e-9 * PEAK_LINES_S) / NCORES)
#define TJMAX 100
/* RAPL energy unit 2^-14 J (MSR_RAPL_POWER_UNIT 0xA0E03, bits 12:8) */
#define SKL_RAPL_J 16384.0
#define SKL_RAPL_W(w) ((uint64_t)((w) * SKL_RAPL_J))

/* The activity of the socket: the cores' states and instructions are the
 * "cores" box's (model/ucm_cores.h); a core in C0 draws CORE_W on the
 * cores' rail and in the package; a 64-byte DRAM read or write costs
 * UNCORE_NJ in the package and DRAM_NJ in the DIMMs; a GT request to
 * memory GT_NJ on the graphics rail and in the package. */
#define DRAM_TERMS(act, per) \
	{ act, 0, "imc", "DRAM_DATA_READS", (per) * 1e-9 }, { act, 0, "imc", "DRAM_DATA_WRITES", (per) * 1e-9 }
static const struct ucm_act_term skl_act[] = {
	{ UCM_ACT_C0, 1, "cores", "CORE_STATE.C0", 1.0 },
	{ UCM_ACT_INST, 1, "cores", "INST_RETIRED", 1.0 / UCM_CORES_IPC_UNIT },
	{ UCM_ACT_CC3, 1, "cores", "CORE_STATE.C3", 1.0 },
	{ UCM_ACT_CC6, 1, "cores", "CORE_STATE.C6", 1.0 },
	{ UCM_ACT_CC7, 1, "cores", "CORE_STATE.C7", 1.0 },
	{ UCM_ACT_PKG_C0, 1, "cores", "CORE_STATE.C0", 1.0 / NCORES },
	{ UCM_ACT_PC2, 1, "cores", "PKG_STATE.C2", 1.0 },
	{ UCM_ACT_PC3, 1, "cores", "PKG_STATE.C3", 1.0 },
	{ UCM_ACT_PC6, 1, "cores", "PKG_STATE.C6", 1.0 },
	{ UCM_ACT_PC7, 1, "cores", "PKG_STATE.C7", 1.0 },
	{ UCM_ACT_ANY_C0, 1, "cores", "PKG_STATE.ANY_C0", 1.0 },
	{ UCM_ACT_PKG, 1, "cores", "CORE_STATE.C0", CORE_W },
	{ UCM_ACT_PP0, 1, "cores", "CORE_STATE.C0", CORE_W },
	DRAM_TERMS(UCM_ACT_PKG, UNCORE_NJ),
	{ UCM_ACT_PKG, 0, "imc", "DRAM_GT_REQUESTS", GT_NJ * 1e-9 },
	{ UCM_ACT_PP1, 0, "imc", "DRAM_GT_REQUESTS", GT_NJ * 1e-9 },
	DRAM_TERMS(UCM_ACT_DRAM, DRAM_NJ),
};
static const struct ucm_thermal skl_thermal = UCM_THERMAL(TJMAX, TDP_W);

static const struct ucm_cpuid skl_cpuid[] = {
	{ 0x0, 0, 0x16, UCM_VENDOR_INTEL },
	/* stepping 3, model 0x5E, family 6; 8-line CLFLUSH, 16 IDs a package;
	 * ECX without the hypervisor bit (31); VMX (ECX 5)
	 * clear: the machine runs no virtual machines and has none of VMX's
	 * capability MSRs, 0x480-0x491 (docs/tools.md, CPUID) */
	{ 0x1, 0, 0x000506E3, 0x00100800, 0x7FFAFB9F, 0xBFEBFBFF },
	{ 0x2, 0, 0x76036301, 0x00F0B5FF, 0x00000000, 0x00C30000 },
	/* MONITOR/MWAIT (leaf 1 ECX bit 3): 64-byte monitor lines, MWAIT
	 * extensions and interrupt break-event; sub-C-states C1 2, C2 1, C3 2,
	 * C4 4, C5-C7 1 (EDX nibbles) */
	{ 0x5, 0, 0x00000040, 0x00000040, 0x00000003, 0x11142120 },
	{ 0x6, 0, 0x000027F7, 0x00000002, 0x00000009, 0x00000000 },
	/* no RDT monitoring (EBX bit 12): the client part has none; SGX
	 * (EBX bit 2) and Intel PT (bit 25) clear: the machine has no
	 * enclave page cache, no leaf 0x12 or 0x14 and no trace MSRs, as
	 * a board whose firmware disabled SGX shows it (docs/tools.md) */
	{ 0x7, 0, 0x00000000, 0x009C6FBB, 0x00000000, 0x9C000000 },
	/* XSAVE (leaf 1 ECX bit 26): x87, SSE, AVX, MPX's BNDREGS and BNDCSR
	 * (EAX 0x1F), 832 bytes for what Linux 6.1 enables (x87, SSE, AVX: it
	 * dropped MPX), 1088 for all; XSAVEOPT, XSAVEC, XGETBV1 and XSAVES,
	 * no supervisor state (subleaf 1: Processor Trace's left with PT);
	 * each component's size and offset (subleaves 2-4) */
	{ 0xD, 0, 0x0000001F, 0x00000340, 0x00000440, 0 },
	{ 0xD, 1, 0x0000000F, 0x00000340, 0x00000000, 0 },
	{ 0xD, 2, 0x00000100, 0x00000240, 0, 0 },
	{ 0xD, 3, 0x00000040, 0x000003C0, 0, 0 },
	{ 0xD, 4, 0x00000040, 0x00000400, 0, 0 },
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
	UCM_SYSMSR_APIC_BASE
	RO(0x34, 0, "MSR_SMI_COUNT"),
	RO(0x3A, 0x5, "IA32_FEATURE_CONTROL"),
	RW(0x48, 1, 0, 0x7, "IA32_SPEC_CTRL"),
	RO(0x8B, 0xC200000000ull, "IA32_BIOS_SIGN_ID"),
	/* maximum non-turbo ratio 40 (x 100 MHz), minimum 8 */
	RO(0xCE, (8ull << 40) | (1ull << 29) | (1ull << 28) | (40ull << 8), "MSR_PLATFORM_INFO"),
	/* package C-state limit 8 (C10), C1/C3 auto-demotion and undemotion
	 * on (bits 28:25), locked (bit 15: bits 15:0 read only until reset) */
	RW(0xE2, 1, (0xFull << 25) | (1ull << 15) | 0x8, 0x1E000000, "MSR_PKG_CST_CONFIG_CONTROL"),
	/* at the nominal ratio (never in turbo): both at TSC_HZ in C0 */
	ACT(0xE7, 64, 0, UCM_ACT_C0, TSC_HZ, "IA32_MPERF"),
	ACT(0xE8, 64, 0, UCM_ACT_C0, TSC_HZ, "IA32_APERF"),
	RW(0xC1, 8, 0, 0xFFFFFFFFFFFFull, "IA32_PMC0..7"),
	RW(0x186, 8, 0, 0xFFFFFFFFull, "IA32_PERFEVTSEL0..7"),
	RO(0x198, 40ull << 8, "IA32_PERF_STATUS"),
	RW(0x199, 1, 40ull << 8, 0x10000FFFFull, "IA32_PERF_CTL"),
	UCM_SYSMSR_THERM_CTL
	/* the package's temperature below TjMax (SDM Vol. 3B 14.7.5.2) */
	THERM(0x19C, "IA32_THERM_STATUS"),
	RO(0x1A0, 0x850089, "IA32_MISC_ENABLE"),
	RO(0x1A2, (uint64_t)TJMAX << 16, "MSR_TEMPERATURE_TARGET"),
	RW(0x1A4, 1, 0, 0xF, "MSR_MISC_FEATURE_CONTROL"),
	RW(0x1A6, 2, 0, 0x3FFFFFBFFFull, "MSR_OFFCORE_RSP_0..1"),
	RO(0x1AD, 0x2A2A2A2A, "MSR_TURBO_RATIO_LIMIT"),
	RW(0x1B0, 1, 6, 0xF, "IA32_ENERGY_PERF_BIAS"),
	THERM(0x1B1, "IA32_PACKAGE_THERM_STATUS"),
	UCM_SYSMSR_PKG_THERM_INT
	RW(0x1C8, 1, 0, 0x3FF, "MSR_LBR_SELECT"),
	RW(0x1D9, 1, 0, 0xFFFF, "IA32_DEBUGCTL"),
	/* fixed counters: instructions (the phases' IPC), core and reference
	 * cycles, in C0 only */
	FIXED_INST(0x309, TSC_HZ, "IA32_FIXED_CTR0"),
	FIXED_C0(0x30A, 1, TSC_HZ, "IA32_FIXED_CTR1"),
	FIXED_C0(0x30B, 2, TSC_HZ, "IA32_FIXED_CTR2"),
	RO(0x345, 0x33C5, "IA32_PERF_CAPABILITIES"),
	RW(0x38D, 1, 0, 0xFFF, "IA32_FIXED_CTR_CTRL"),
	RO(0x38E, 0, "IA32_PERF_GLOBAL_STATUS"),
	RO(0x392, 0, "IA32_PERF_GLOBAL_INUSE"),
	/* perfmon v4's status set (Table 2-2, CPUID.0AH:EAX[7:0] > 3): no
	 * overflow bit is kept (IA32_PERF_GLOBAL_STATUS reads 0), so a
	 * write is taken and ignored, as IA32_PERF_GLOBAL_OVF_CTRL's */
	{ 0x391, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_PERF_GLOBAL_STATUS_SET", 0, 0 },
	RW(0x38F, 1, 0xFF, 0x7000000FFull, "IA32_PERF_GLOBAL_CTRL"),
	{ 0x390, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_PERF_GLOBAL_OVF_CTRL", 0, 0 },
	RW(0x3F1, 1, 0, 0xF000000FFull, "IA32_PEBS_ENABLE"),
	RW(0x3F6, 1, 3, 0xFFFF, "MSR_PEBS_LD_LAT"),
	RW(0x3F7, 1, 0, 0xFFFFFF, "MSR_PEBS_FRONTEND"),
	/* the package's C2..C7 residency, derived from the cores' states
	 * (docs/invariants.md, "Package C-states"), and each core's C3, C6
	 * and C7 residency, at the TSC's rate (Table 2-20, 2-39); C8-C10
	 * need the display and platform idle the model lacks: 0 */
	ACT(0x3F8, 64, 0, UCM_ACT_PC3, TSC_HZ, "MSR_PKG_C3_RESIDENCY"),
	ACT(0x3F9, 64, 0, UCM_ACT_PC6, TSC_HZ, "MSR_PKG_C6_RESIDENCY"),
	ACT(0x3FA, 64, 0, UCM_ACT_PC7, TSC_HZ, "MSR_PKG_C7_RESIDENCY"),
	ACT(0x3FC, 64, 0, UCM_ACT_CC3, TSC_HZ, "MSR_CORE_C3_RESIDENCY"),
	ACT(0x3FD, 64, 0, UCM_ACT_CC6, TSC_HZ, "MSR_CORE_C6_RESIDENCY"),
	ACT(0x3FE, 64, 0, UCM_ACT_CC7, TSC_HZ, "MSR_CORE_C7_RESIDENCY"),
	ACT(0x60D, 64, 0, UCM_ACT_PC2, TSC_HZ, "MSR_PKG_C2_RESIDENCY"),
	TIME(0x630, 3, 64, 0, "MSR_PKG_C8..C10_RESIDENCY"),
	/* RAPL: power 1/8 W, energy 2^-14 J, time 2^-10 s */
	RO(0x606, 0xA0E03, "MSR_RAPL_POWER_UNIT"),
	RW(0x610, 1, 0x0042821800DD8398ull, 0x80FFFFFF00FFFFFFull, "MSR_PKG_POWER_LIMIT"),
	ACT(0x611, 32, SKL_RAPL_W(PKG_IDLE_W), UCM_ACT_PKG, SKL_RAPL_J, "MSR_PKG_ENERGY_STATUS"),
	TIME(0x613, 1, 32, 0, "MSR_PKG_PERF_STATUS"),                 /* never throttled */
	RO(0x614, TDP_W * 8, "MSR_PKG_POWER_INFO"),                    /* thermal spec power */
	ACT(0x619, 32, SKL_RAPL_W(DRAM_IDLE_W), UCM_ACT_DRAM, SKL_RAPL_J, "MSR_DRAM_ENERGY_STATUS"),
	TIME(0x61B, 1, 32, 0, "MSR_DRAM_PERF_STATUS"),                /* never throttled */
	ACT(0x639, 32, SKL_RAPL_W(PP0_IDLE_W), UCM_ACT_PP0, SKL_RAPL_J, "MSR_PP0_ENERGY_STATUS"),
	ACT(0x641, 32, SKL_RAPL_W(PP1_IDLE_W), UCM_ACT_PP1, SKL_RAPL_J, "MSR_PP1_ENERGY_STATUS"),
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
	UCM_SYSMSR_KERNEL
	UCM_SYSMSR_A_PMC(8)
	/* what leaf 7 and leaf 1 advertise besides (Table 2-2): IA32_TSC_ADJUST
	 * (EBX[1]) 0, a write ignored (the TSC is never moved); the
	 * write-only commands IA32_PRED_CMD (EDX[26], IBPB) and
	 * IA32_FLUSH_CMD (EDX[28], L1D_FLUSH); IA32_DEBUG_INTERFACE (01H:ECX[11],
	 * SDBG) disabled and locked by the firmware (bit 30); IA32_BNDCFGS
	 * (EBX[14], MPX) 0, as Linux 6.1 leaves it (it dropped MPX); IA32_XSS
	 * (0DH.1:EAX[3], XSAVES) 0, no supervisor state (0DH.1:ECX) to set */
	{ 0x3B, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_TSC_ADJUST", 0, 0 },
	{ 0x49, 1, UCM_SM_WO, 0, 0, 0, 0x1, 0, "IA32_PRED_CMD", 0, 0 },
	{ 0x10B, 1, UCM_SM_WO, 0, 0, 0, 0x1, 0, "IA32_FLUSH_CMD", 0, 0 },
	RO(0xC80, 0x40000000, "IA32_DEBUG_INTERFACE"),
	RW(0xD90, 1, 0, 0xFFFFFFFFFFFFF003ull, "IA32_BNDCFGS"),
	RW(0xDA0, 1, 0, 0, "IA32_XSS"),
	/* 10 variable MTRRs, fixed ranges, WC, SMRR (bit 12, PRMRR, clear:
	 * the machine serves no PRMRR; docs/tools.md); 39 address bits (leaf
	 * 0x80000008) */
	UCM_SYSMSR_MTRR(0xD0A, 39)
	/* 10 banks, CMCI (10), threshold-based error status (11): 0xC0A, as
	 * mcelog prints a Kaby Lake's (model 0x9E, the Skylake client's core
	 * and uncore) */
	UCM_SYSMSR_MCA(0xC0A)
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
	/* package C0 residencies at the TSC's rate (Table 2-39): the cores'
	 * C0 averaged over them (weighted); any core's counted the same, its
	 * lower bound, exact while the cores are in C0 together (every
	 * built-in phase); the GT never in C0 */
	ACT(0x658, 64, 0, UCM_ACT_PKG_C0, TSC_HZ, "MSR_PKG_WEIGHTED_CORE_C0_RES"),
	ACT(0x659, 64, 0, UCM_ACT_ANY_C0, TSC_HZ, "MSR_PKG_ANY_CORE_C0_RES"),
	TIME(0x65A, 1, 64, 0, "MSR_PKG_ANY_GFXE_C0_RES"),
	TIME(0x65B, 1, 64, 0, "MSR_PKG_BOTH_CORE_GFXE_C0_RES"),
};

/* Idle states: Linux intel_idle's skl_cstates (SKYLAKE); leaf 5 EDX lists
 * sub-states for every one of their MWAIT hints. */
static const struct ucm_cstate skl_cstates[] = {
	{ "C1", "MWAIT 0x00", 2, 2 },
	{ "C1E", "MWAIT 0x01", 10, 20 },
	{ "C3", "MWAIT 0x10", 70, 100 },
	{ "C6", "MWAIT 0x20", 85, 200 },
	{ "C7s", "MWAIT 0x33", 124, 800 },
	{ "C8", "MWAIT 0x40", 200, 800 },
	{ "C9", "MWAIT 0x50", 480, 5000 },
	{ "C10", "MWAIT 0x60", 890, 5000 },
};

const struct ucm_machine ucm_mach_skl = {
	.brand = "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz",
	.stepping = 3,
	.tsc_mhz = 4000,
	.core_mhz = 4000,
	.mem_mb = 16384,
	.tolm_mb = 2048, /* a 2 GiB PCI MMIO hole below 4 GiB (docs/tools.md) */
	.cpuinfo_flags =
		"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
		"fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts "
		"rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl "
		"est tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt "
		"tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch epb invpcid_single "
		"fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm mpx rdseed adx smap clflushopt "
		"xsaveopt xsavec xgetbv1 xsaves dtherm ida arat pln pts hwp hwp_notify "
		"hwp_act_window hwp_epp",
	.ncpuid = ARRAY_LEN(skl_cpuid),
	.cpuid = skl_cpuid,
	.ncaches = ARRAY_LEN(skl_caches),
	.caches = skl_caches,
	.nsysmsr = ARRAY_LEN(skl_msrs),
	.sysmsr = skl_msrs,
	.nact = ARRAY_LEN(skl_act),
	.act = skl_act,
	.thermal = &skl_thermal,
	.ncstates = ARRAY_LEN(skl_cstates),
	.cstates = skl_cstates,
};
