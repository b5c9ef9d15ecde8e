/*
 * ucm_plat_snbep_mach.c - the machine around the Xeon E5-2600 uncore, as
 * `uncore run` presents it to tools: Xeon E5-2680 packages (family 6,
 * model 0x2D, stepping 7; 8 cores each, Hyper-Threading off, 2.7 GHz
 * nominal) - CPUID leaves, caches and the MSRs outside the uncore PMU that
 * tools read (Intel SDM Vol. 4, Tables 2-2, 2-20, 2-24; docs/tools.md).
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
#define PEAK_LINES_S (4 * 1600e6 / 8)  /* four channels of DDR3-1600: 1600 MT/s x 8 B / 64 B */
#define NCORES 8
#define CORE_W ((TDP_W - PKG_IDLE_W - UNCORE_NJ * 1e-9 * PEAK_LINES_S) / NCORES)

static const struct ucm_act_term snbep_act[] = { UCM_XEON_ACT };
static const struct ucm_thermal snbep_thermal = UCM_XEON_THERMAL(TDP_W);

static const struct ucm_cpuid snbep_cpuid[] = {
	{ 0x0, 0, 0xD, UCM_VENDOR_INTEL },
	/* stepping 7, model 0x2D, family 6; 32 IDs a package; no hypervisor
	 * bit; VMX (ECX 5) clear: the machine runs no virtual machines and has
	 * none of VMX's capability MSRs, 0x480-0x491 (docs/tools.md, CPUID) */
	{ 0x1, 0, 0x000206D7, 0x00200800, 0x1FBEE3DF, 0xBFEBFBFF },
	{ 0x2, 0, 0x76035A01, 0x00F0B2FF, 0x00000000, 0x00CA0000 },
	/* MONITOR/MWAIT (leaf 1 ECX bit 3): 64-byte monitor lines, MWAIT
	 * extensions and interrupt break-event; sub-C-states C1 2, C2 1, C3 2
	 * (EDX nibbles) */
	{ 0x5, 0, 0x00000040, 0x00000040, 0x00000003, 0x00002120 },
	{ 0x6, 0, 0x00000077, 0x00000002, 0x00000009, 0x00000000 },
	{ 0x7, 0, 0, 0, 0, 0 },
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

static const struct ucm_cache snbep_caches[] = {
	{ 1, 1, 8, 32, 0 }, { 1, 2, 8, 32, 0 }, { 2, 3, 8, 256, 0 }, { 3, 3, 20, 20480, 1 },
};

static const struct ucm_sysmsr snbep_msrs[] = {
	UCM_XEON_SYSMSR_LOW
	RO(0x8B, 0x71000000000ull, "IA32_BIOS_SIGN_ID"),
	UCM_XEON_SYSMSR_MID
	RO(0x1AD, 0x1F1F1F2021222323ull, "MSR_TURBO_RATIO_LIMIT"),
	/* bit 0: ENABLE_PEBS_NUM_ALT (Table 2-20, 06_2DH); PCM sets it on the
	 * E5-2600 with its JKT workaround (R27) */
	RW(0x39C, 1, 0, 0x1, "MSR_PEBS_NUM_ALT"),
	UCM_XEON_SYSMSR_HIGH
	UCM_SYSMSR_DS_AREA
	/* 10 variable MTRRs, fixed ranges, WC, SMRR; 46 address bits (leaf
	 * 0x80000008) */
	UCM_SYSMSR_MTRR(0xD0A, 46)
	/* 20 banks (the E5-2600 datasheet vol. 1, 2.5.2.7.4: banks 0-19),
	 * CMCI (10), threshold-based error status (11), software error
	 * recovery (24): 0x1000C14, as mcelog prints a model 0x2D's */
	UCM_SYSMSR_MCA(0x1000C14)
	UCM_SYSMSR_SNB_PM
	UCM_SYSMSR_IRTL(79, 102, 107)
	RW(0x618, 1, 0, 0x80FFFFFF, "MSR_DRAM_POWER_LIMIT"),   /* not programmed (Table 2-24) */
};

/* Idle states: Linux intel_idle's snb_cstates, which it uses for the
 * E5-2600 (SANDYBRIDGE_X, idle_cpu_snx), without its C7 (MWAIT 0x30):
 * leaf 5 EDX lists no C7 sub-state (bits 19:16 are 0), so intel_idle
 * leaves it out. */
static const struct ucm_cstate snbep_cstates[] = {
	{ "C1", "MWAIT 0x00", 2, 2 },
	{ "C1E", "MWAIT 0x01", 10, 20 },
	{ "C3", "MWAIT 0x10", 80, 211 },
	{ "C6", "MWAIT 0x20", 104, 345 },
};

const struct ucm_machine ucm_mach_snbep = {
	.brand = "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz",
	.stepping = 7,
	.tsc_mhz = 2700,
	.core_mhz = 2700,
	.mem_mb = 32768, /* four channels of 8 GiB DDR3-1600 RDIMMs a socket */
	.tolm_mb = 2048, /* a 2 GiB PCI MMIO hole below 4 GiB (docs/tools.md) */
	.cpuinfo_flags =
		"fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx "
		"fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc arch_perfmon pebs bts "
		"rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq dtes64 monitor ds_cpl "
		"smx est tm2 ssse3 cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic popcnt tsc_deadline_timer aes "
		"xsave avx lahf_lm epb xsaveopt dtherm ida arat pln pts",
	.ncpuid = ARRAY_LEN(snbep_cpuid),
	.cpuid = snbep_cpuid,
	.ncaches = ARRAY_LEN(snbep_caches),
	.caches = snbep_caches,
	.nsysmsr = ARRAY_LEN(snbep_msrs),
	.sysmsr = snbep_msrs,
	.nact = ARRAY_LEN(snbep_act),
	.act = snbep_act,
	.thermal = &snbep_thermal,
	.ncstates = ARRAY_LEN(snbep_cstates),
	.cstates = snbep_cstates,
};
