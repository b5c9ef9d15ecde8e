/*
 * ucm_plat_ivt_mach.c - the machine around the Xeon E5-2600 v2 uncore, as
 * `uncore run` presents it to tools: Xeon E5-2697 v2 packages (family 6,
 * model 0x3E, stepping 4; 12 cores each, Hyper-Threading off, 2.7 GHz
 * nominal, 3.5 GHz single-core turbo, 30 MB L3, 130 W) - CPUID leaves,
 * caches and the MSRs outside the uncore PMU that tools read (Intel SDM
 * Vol. 4, Tables 2-2, 2-20, 2-24, 2-26 (Ivy Bridge-EP); docs/tools.md).
 * What differs from the E5-2680 of model/snbep: the signature, F16C and
 * RDRAND (leaf 1), FSGSBASE, SMEP and ERMS (leaf 7), the cache size, the
 * turbo ratios (MSR_TURBO_RATIO_LIMIT and, for 9-12 active cores,
 * MSR_TURBO_RATIO_LIMIT1, SDM Table 2-26), the microcode revision.
 */
#include "ucm_mach.h"

#define TSC_HZ 2700000000ull

static const struct ucm_cpuid ivt_cpuid[] = {
	{ 0x0, 0, 0xD, UCM_VENDOR_INTEL },
	/* stepping 4, model 0x3E, family 6; 32 IDs a package; F16C and
	 * RDRAND (ECX 29, 30); no hypervisor bit */
	{ 0x1, 0, 0x000306E4, 0x00200800, 0x7FBEE3FF, 0xBFEBFBFF },
	{ 0x2, 0, 0x76035A01, 0x00F0B2FF, 0x00000000, 0x00CA0000 },
	{ 0x6, 0, 0x00000077, 0x00000002, 0x00000009, 0x00000000 },
	/* FSGSBASE, SMEP, ERMS */
	{ 0x7, 0, 0, 0x00000281, 0, 0 },
	/* architectural perfmon v3: 8 counters a core with HT off, 48 bits */
	{ 0xA, 0, 0x07300803, 0x00000000, 0x00000000, 0x00000603 },
	{ 0x80000000, 0, 0x80000008, 0, 0, 0 },
	{ 0x80000001, 0, 0, 0, 0x00000001, 0x2C100800 },
	{ 0x80000006, 0, 0, 0, 0x01006040, 0 },
	{ 0x80000007, 0, 0, 0, 0, 0x00000100 },   /* invariant TSC */
	{ 0x80000008, 0, 0x0000302E, 0, 0, 0 },
};

static const struct ucm_cache ivt_caches[] = {
	{ 1, 1, 8, 32, 0 }, { 1, 2, 8, 32, 0 }, { 2, 3, 8, 256, 0 }, { 3, 3, 20, 30720, 1 },
};

static const struct ucm_sysmsr ivt_msrs[] = {
	TIME(0x10, 1, 64, TSC_HZ, "IA32_TIME_STAMP_COUNTER"),
	RO(0x17, 0, "IA32_PLATFORM_ID"),
	RO(0x1B, 0xFEE00900, "IA32_APIC_BASE"),
	RO(0x34, 0, "MSR_SMI_COUNT"),
	RO(0x3A, 0x5, "IA32_FEATURE_CONTROL"),
	RW(0x48, 1, 0, 0x7, "IA32_SPEC_CTRL"),
	RO(0x8B, 0x42E00000000ull, "IA32_BIOS_SIGN_ID"),
	/* maximum non-turbo ratio 27 (x 100 MHz), minimum 12 */
	RO(0xCE, (12ull << 40) | (1ull << 28) | (27ull << 8), "MSR_PLATFORM_INFO"),
	TIME(0xE7, 1, 64, TSC_HZ, "IA32_MPERF"),
	TIME(0xE8, 1, 64, TSC_HZ, "IA32_APERF"),
	RW(0xC1, 8, 0, 0xFFFFFFFFFFFFull, "IA32_PMC0..7"),
	RW(0x186, 8, 0, 0xFFFFFFFFull, "IA32_PERFEVTSEL0..7"),
	RO(0x198, 27ull << 8, "IA32_PERF_STATUS"),
	RW(0x199, 1, 27ull << 8, 0x10000FFFFull, "IA32_PERF_CTL"),
	{ 0x19C, 1, UCM_SM_WI, 0, 0, 0x883C0000, 0, 0, "IA32_THERM_STATUS" },
	RO(0x1A0, 0x850089, "IA32_MISC_ENABLE"),
	RO(0x1A2, 92ull << 16, "MSR_TEMPERATURE_TARGET"),
	RW(0x1A4, 1, 0, 0xF, "MSR_MISC_FEATURE_CONTROL"),
	RW(0x1A6, 2, 0, 0x3FFFFFBFFFull, "MSR_OFFCORE_RSP_0..1"),
	/* 35, 35, 33, 32, 31, 30, 30, 30 for 1..8 active cores; 30 for 9..12
	 * (TURBO_RATIO_LIMIT1; bit 63, the override semaphore, clear) */
	RO(0x1AD, 0x1E1E1E1F20212323ull, "MSR_TURBO_RATIO_LIMIT"),
	RO(0x1AE, 0x1E1E1E1Eull, "MSR_TURBO_RATIO_LIMIT1"),
	RW(0x1B0, 1, 6, 0xF, "IA32_ENERGY_PERF_BIAS"),
	{ 0x1B1, 1, UCM_SM_WI, 0, 0, 0x883C0000, 0, 0, "IA32_PACKAGE_THERM_STATUS" },
	RW(0x1C8, 1, 0, 0x3FF, "MSR_LBR_SELECT"),
	RW(0x1D9, 1, 0, 0xFFFF, "IA32_DEBUGCTL"),
	{ 0x309, 1, UCM_SM_FIXED, 48, 0, 0, 0, TSC_HZ, "IA32_FIXED_CTR0" },
	{ 0x30A, 1, UCM_SM_FIXED, 48, 1, 0, 0, TSC_HZ, "IA32_FIXED_CTR1" },
	{ 0x30B, 1, UCM_SM_FIXED, 48, 2, 0, 0, TSC_HZ, "IA32_FIXED_CTR2" },
	RO(0x345, 0x31C3, "IA32_PERF_CAPABILITIES"),
	RW(0x38D, 1, 0, 0xFFF, "IA32_FIXED_CTR_CTRL"),
	RO(0x38E, 0, "IA32_PERF_GLOBAL_STATUS"),
	RW(0x38F, 1, 0xFF, 0x7000000FFull, "IA32_PERF_GLOBAL_CTRL"),
	{ 0x390, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_PERF_GLOBAL_OVF_CTRL" },
	RW(0x3F1, 1, 0, 0xF000000FFull, "IA32_PEBS_ENABLE"),
	RW(0x3F6, 1, 3, 0xFFFF, "MSR_PEBS_LD_LAT"),
	/* no package C-state residency while the tool runs (the core
	 * residency counters 0x3FC/0x3FD are the model's PCU boxes) */
	TIME(0x3F8, 3, 64, 0, "MSR_PKG_C3..C7_RESIDENCY"),
	TIME(0x60D, 1, 64, 0, "MSR_PKG_C2_RESIDENCY"),
	TIME(0x3FE, 1, 64, 0, "MSR_CORE_C7_RESIDENCY"),
	/* RAPL: power 1/8 W, energy 2^-16 J, time 2^-10 s */
	RO(0x606, 0xA1003, "MSR_RAPL_POWER_UNIT"),
	RW(0x610, 1, 0x0001820000158410ull, 0x80FFFFFF00FFFFFFull, "MSR_PKG_POWER_LIMIT"),
	TIME(0x611, 1, 32, 60ull << 16, "MSR_PKG_ENERGY_STATUS"),     /* 60 W */
	RO(0x614, 130 * 8, "MSR_PKG_POWER_INFO"),                      /* 130 W TDP */
	TIME(0x619, 1, 32, 10ull << 16, "MSR_DRAM_ENERGY_STATUS"),     /* 10 W */
	RO(0x61C, 0, "MSR_DRAM_POWER_INFO"),
	TIME(0x639, 1, 32, 40ull << 16, "MSR_PP0_ENERGY_STATUS"),      /* 40 W */
};

const struct ucm_machine ucm_mach_ivt = {
	.brand = "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz",
	.stepping = 4,
	.tsc_mhz = 2700,
	.core_mhz = 2700,
	.mem_mb = 65536, /* four channels of 16 GiB DDR3-1866 RDIMMs a socket */
	.cpuinfo_flags =
		"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
		"fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon pebs bts "
		"rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl vmx "
		"smx est tm2 ssse3 cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic popcnt tsc_deadline_timer aes "
		"xsave avx f16c rdrand lahf_lm epb fsgsbase smep erms xsaveopt dtherm ida arat pln pts",
	.ncpuid = ARRAY_LEN(ivt_cpuid),
	.cpuid = ivt_cpuid,
	.ncaches = ARRAY_LEN(ivt_caches),
	.caches = ivt_caches,
	.nsysmsr = ARRAY_LEN(ivt_msrs),
	.sysmsr = ivt_msrs,
};
