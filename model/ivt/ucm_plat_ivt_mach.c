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

/* Power (docs/invariants.md): TDP from Intel's specification of the part;
 * the idle powers (every core in C6, no package C-state) and the energy of
 * a DRAM access are the model's figures; a core in C0 draws what keeps
 * every core busy plus the DRAM traffic at its peak within TDP (Intel's
 * definition of TDP: all cores at the base frequency). */
#define TDP_W 130
#define PKG_IDLE_W 20.0
#define PP0_IDLE_W 2.0
#define DRAM_IDLE_W 4.0
#define UNCORE_NJ 5.0
#define DRAM_NJ 35.84      /* 70 pJ/bit x 512 bits: a DDR3 RDIMM at full bandwidth */
#define PEAK_LINES_S (4 * 1866e6 / 8)  /* four channels of DDR3-1866 */
#define NCORES 12
#define CORE_W ((TDP_W - PKG_IDLE_W - UNCORE_NJ * 1e-9 * PEAK_LINES_S) / NCORES)

static const struct ucm_act_term ivt_act[] = { UCM_XEON_ACT };
static const struct ucm_thermal ivt_thermal = UCM_XEON_THERMAL(TDP_W);

static const struct ucm_cpuid ivt_cpuid[] = {
	{ 0x0, 0, 0xD, UCM_VENDOR_INTEL },
	/* stepping 4, model 0x3E, family 6; 32 IDs a package; F16C and
	 * RDRAND (ECX 29, 30); no hypervisor bit; VMX (ECX 5)
	 * clear: the machine runs no virtual machines and has none of VMX's
	 * capability MSRs, 0x480-0x491 (docs/tools.md, CPUID) */
	{ 0x1, 0, 0x000306E4, 0x00200800, 0x7FBEE3DF, 0xBFEBFBFF },
	{ 0x2, 0, 0x76035A01, 0x00F0B2FF, 0x00000000, 0x00CA0000 },
	/* MONITOR/MWAIT (leaf 1 ECX bit 3): 64-byte monitor lines, MWAIT
	 * extensions and interrupt break-event; sub-C-states C1 2, C2 1, C3 2
	 * (EDX nibbles) */
	{ 0x5, 0, 0x00000040, 0x00000040, 0x00000003, 0x00002120 },
	{ 0x6, 0, 0x00000077, 0x00000002, 0x00000009, 0x00000000 },
	/* FSGSBASE, SMEP, ERMS */
	{ 0x7, 0, 0, 0x00000281, 0, 0 },
	/* XSAVE (leaf 1 ECX bit 26): x87, SSE, AVX (EAX 7), 832 bytes;
	 * XSAVEOPT (subleaf 1); AVX's 256 bytes at 576 (subleaf 2) */
	{ 0xD, 0, 0x00000007, 0x00000340, 0x00000340, 0 },
	{ 0xD, 1, 0x00000001, 0, 0, 0 },
	{ 0xD, 2, 0x00000100, 0x00000240, 0, 0 },
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
	UCM_XEON_SYSMSR_LOW
	RO(0x8B, 0x42E00000000ull, "IA32_BIOS_SIGN_ID"),
	UCM_XEON_SYSMSR_MID
	/* 35, 35, 33, 32, 31, 30, 30, 30 for 1..8 active cores; 30 for 9..12
	 * (TURBO_RATIO_LIMIT1; bit 63, the override semaphore, clear) */
	RO(0x1AD, 0x1E1E1E1F20212323ull, "MSR_TURBO_RATIO_LIMIT"),
	RO(0x1AE, 0x1E1E1E1Eull, "MSR_TURBO_RATIO_LIMIT1"),
	UCM_XEON_SYSMSR_HIGH
	UCM_SYSMSR_DS_AREA
	/* as the E5-2600's: 10 variable MTRRs, fixed ranges, WC, SMRR; 46
	 * address bits (leaf 0x80000008) */
	UCM_SYSMSR_MTRR(0xD0A, 46)
	/* 20 banks (the E5-2600 v2 datasheet vol. 1, 2.5.2.7.4: banks 0-19),
	 * with the E5-2600's capabilities: CMCI, threshold-based error
	 * status, software error recovery */
	UCM_SYSMSR_MCA(0x1000C14)
	UCM_SYSMSR_SNB_PM
	UCM_SYSMSR_IRTL(58, 81, 81)
	RW(0x618, 1, 0, 0x80FFFFFF, "MSR_DRAM_POWER_LIMIT"),   /* not programmed (Table 2-24) */
};

/* Idle states: Linux intel_idle's ivt_cstates (IVYBRIDGE_X, two sockets;
 * its _4s and _8s tables are for larger systems). */
static const struct ucm_cstate ivt_cstates[] = {
	{ "C1", "MWAIT 0x00", 1, 1 },
	{ "C1E", "MWAIT 0x01", 10, 80 },
	{ "C3", "MWAIT 0x10", 59, 156 },
	{ "C6", "MWAIT 0x20", 82, 300 },
};

const struct ucm_machine ucm_mach_ivt = {
	.brand = "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz",
	.stepping = 4,
	.tsc_mhz = 2700,
	.core_mhz = 2700,
	.mem_mb = 65536, /* four channels of 16 GiB DDR3-1866 RDIMMs a socket */
	.tolm_mb = 2048, /* a 2 GiB PCI MMIO hole below 4 GiB (docs/tools.md) */
	.cpuinfo_flags =
		"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
		"fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon pebs bts "
		"rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl "
		"smx est tm2 ssse3 cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic popcnt tsc_deadline_timer aes "
		"xsave avx f16c rdrand lahf_lm epb fsgsbase smep erms xsaveopt dtherm ida arat pln pts",
	.ncpuid = ARRAY_LEN(ivt_cpuid),
	.cpuid = ivt_cpuid,
	.ncaches = ARRAY_LEN(ivt_caches),
	.caches = ivt_caches,
	.nsysmsr = ARRAY_LEN(ivt_msrs),
	.sysmsr = ivt_msrs,
	.nact = ARRAY_LEN(ivt_act),
	.act = ivt_act,
	.thermal = &ivt_thermal,
	.ncstates = ARRAY_LEN(ivt_cstates),
	.cstates = ivt_cstates,
};
