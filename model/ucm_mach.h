/*
 * ucm_mach.h - shorthands for the machine tables of the platforms
 * (ucm_plat_*_mach.c): CPUID's vendor string and the rows of the MSR table.
 */
#ifndef UCM_MACH_H
#define UCM_MACH_H

#include "ucm_cores.h"
#include "ucm_types.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define UCM_VENDOR_INTEL 0x756E6547u, 0x6C65746Eu, 0x49656E69u /* ebx "Genu", ecx "ntel", edx "ineI" */

/* read-only value; per-cpu read/write value (reset, writable bits); a
 * counter of rate per second and width bits */
#define RO(a, v, n) { a, 1, UCM_SM_CONST, 0, 0, v, 0, 0, n, 0, 0 }
#define RW(a, c, v, m, n) { a, c, UCM_SM_RW, 0, 0, v, m, 0, n, 0, 0 }
#define TIME(a, c, w, rate, n) { a, c, UCM_SM_TIME, w, 0, 0, 0, rate, n, 0, 0 }
/* a counter of rate per second plus act_rate per unit of activity act
 * (enum ucm_act: seconds of C0 a core, joules above idle) */
#define ACT(a, w, rate, act, act_rate, n) { a, 1, UCM_SM_TIME, w, 0, 0, 0, rate, n, act, (uint64_t)(act_rate) }
#define FIXED_C0(a, i, act_rate, n) { a, 1, UCM_SM_FIXED, 48, i, 0, 0, 0, n, UCM_ACT_C0, act_rate }
/* IA32_FIXED_CTR0: instructions retired, the IPC-weighted C0 at the
 * nominal (TSC) rate: IPC x unhalted core cycles */
#define FIXED_INST(a, act_rate, n) { a, 1, UCM_SM_FIXED, 48, 0, 0, 0, 0, n, UCM_ACT_INST, act_rate }
#define THERM(a, n) { a, 1, UCM_SM_THERM, 0, 0, 0x88000000, 0, 0, n, 0, 0 }
/* RAPL energy units: 2^-16 J (MSR_RAPL_POWER_UNIT 0xA1003, bits 12:8) */
#define RAPL_J 65536.0
#define RAPL_W(w) ((uint64_t)((w) * RAPL_J))

/* IA32_APIC_BASE (SDM Vol. 3A 10.4.4): the local APIC at 0xFEE00000,
 * globally enabled (bit 11), xAPIC mode (x2APIC's bit 10 clear: no x2APIC
 * MSRs); the BSP flag (bit 8) on cpu 0 only */
#define UCM_SYSMSR_APIC_BASE \
	{ 0x1B, 1, UCM_SM_CONST, 0, UCM_CONST_BSP, 0xFEE00900, 0, 0, "IA32_APIC_BASE", 0, 0 },

/* Architectural thermal controls that CPUID advertises on all three parts
 * (Intel SDM Vol. 4, Table 2-2), each cpu's, off at reset:
 * IA32_CLOCK_MODULATION (CPUID.01H:EDX[22]; duty cycle 3:0 with the
 * extended bit 0, CPUID.06H:EAX[5], and its enable, bit 4) and
 * IA32_THERM_INTERRUPT (CPUID.01H:EDX[22]; enables 4:0, thresholds 14:8
 * and 22:16 with enables 15 and 23, power-limit notification 24,
 * CPUID.06H:EAX[4]). */
#define UCM_SYSMSR_THERM_CTL \
	RW(0x19A, 1, 0, 0x1F, "IA32_CLOCK_MODULATION"), \
	RW(0x19B, 1, 0, 0x1FFFF1F, "IA32_THERM_INTERRUPT"),
/* IA32_PACKAGE_THERM_INTERRUPT (CPUID.06H:EAX[6]; Table 2-2): the same
 * fields but bit 3 */
#define UCM_SYSMSR_PKG_THERM_INT \
	RW(0x1B2, 1, 0, 0x1FFFF17, "IA32_PACKAGE_THERM_INTERRUPT"),

/* Power-management MSRs of the Sandy Bridge family that turbostat --debug
 * and other tools read (Intel SDM Vol. 4, Table 2-20; the RAPL domains'
 * layout, SDM Vol. 3B 14.10): MSR_MISC_PWR_MGMT with IA32_ENERGY_PERF_BIAS
 * made visible (bit 1), as CPUID.06H:ECX[3] says it is, and EIST hardware
 * coordination on (bit 0 clear); MSR_POWER_CTL with C1E auto-promotion
 * on (bit 1), the C1E state the parts have; MSR_VR_CURRENT_CONFIG, the
 * PP0 (cores) power limit and policy not programmed (0), as firmware that
 * sets only the package limit leaves them.  Each cpu's. */
#define UCM_SYSMSR_SNB_PM \
	RW(0x1AA, 1, 0x2, 0x400003, "MSR_MISC_PWR_MGMT"), \
	RW(0x1FC, 1, 0x2, 0x2, "MSR_POWER_CTL"), \
	RW(0x601, 1, 0, 0x80001FFF, "MSR_VR_CURRENT_CONFIG"), \
	RW(0x638, 1, 0, 0x80FFFFFF, "MSR_PP0_POWER_LIMIT"), \
	RW(0x63A, 1, 0, 0x1F, "MSR_PP0_POLICY"),
/* Package C-state interrupt response time limits (Table 2-20: C3, C6, C7
 * at 0x60A-0x60C): valid (bit 15), in units of 1,024 ns (12:10 = 2), each
 * the state's exit latency in Linux's intel_idle (drivers/idle/
 * intel_idle.c), rounded up; the part defines them */
#define UCM_SYSMSR_IRTL(c3, c6, c7) \
	RO(0x60A, 0x8800 | (c3), "MSR_PKGC3_IRTL"), \
	RO(0x60B, 0x8800 | (c6), "MSR_PKGC6_IRTL"), \
	RO(0x60C, 0x8800 | (c7), "MSR_PKGC7_IRTL"),

/* IA32_DS_AREA (CPUID.01H:EDX[21], Table 2-2): the debug store's linear
 * address, each cpu's, 0 at reset (no canonical-address check) */
#define UCM_SYSMSR_DS_AREA \
	RW(0x600, 1, 0, ~0ull, "IA32_DS_AREA"),

/* The MSRs an x86-64 kernel programs at boot, which CPUID's SEP
 * (01H:EDX[11]), LM (80000001H:EDX[29]), RDTSCP (80000001H:EDX[27]) and
 * TSC-deadline (01H:ECX[24]) bits advertise (Table 2-2), each cpu's, as
 * Linux 6.1 leaves them (arch/x86/kernel/cpu/common.c, syscall_init and
 * setup_getcpu; docs/tools.md, "The kernel's MSRs"):
 * - IA32_SYSENTER_CS __KERNEL_CS (0x10); _ESP the top of the cpu's entry
 *   stack, the second page of its cpu_entry_area (the areas from
 *   0xfffffe0000001000, 53 pages each in 6.1's layout); _EIP
 *   entry_SYSENTER_compat, in the entry text;
 * - IA32_EFER: SCE, LME, LMA, NXE; LMA (10) is read-only but may be
 *   written back as read;
 * - IA32_STAR __USER32_CS (0x23) in 63:48, __KERNEL_CS in 47:32; IA32_LSTAR
 *   entry_SYSCALL_64, the start of the entry text; IA32_FMASK the flags
 *   cleared on SYSCALL (CF PF AF ZF SF TF IF DF OF IOPL NT RF AC ID);
 * - IA32_FS_BASE 0 and IA32_KERNEL_GS_BASE 0 (a kernel thread's, the idle
 *   task's), IA32_GS_BASE the cpu's per-cpu area in the direct map;
 * - IA32_TSC_AUX socket << 12 | cpu (RDTSCP's ECX);
 * - IA32_TSC_DEADLINE 0, disarmed.
 * The kernel addresses are those of a kernel without KASLR, which moves
 * them at every boot: any value in the same region is as right. */
#define UCM_SYSMSR_KERNEL \
	RW(0x174, 1, 0x10, ~0ull, "IA32_SYSENTER_CS"), \
	{ 0x175, 1, UCM_SM_RW, 0, 0, 0xFFFFFE0000003000ull, ~0ull, 53 * 4096, "IA32_SYSENTER_ESP", 0, 0 }, \
	RW(0x176, 1, 0xFFFFFFFF82001A40ull, ~0ull, "IA32_SYSENTER_EIP"), \
	RW(0x6E0, 1, 0, ~0ull, "IA32_TSC_DEADLINE"), \
	RW(0xC0000080, 1, 0xD01, 0xD01, "IA32_EFER"), \
	RW(0xC0000081, 1, 0x0023001000000000ull, ~0ull, "IA32_STAR"), \
	RW(0xC0000082, 1, 0xFFFFFFFF82000000ull, ~0ull, "IA32_LSTAR"), \
	RW(0xC0000084, 1, 0x257FD5, 0xFFFFFFFF, "IA32_FMASK"), \
	RW(0xC0000100, 1, 0, ~0ull, "IA32_FS_BASE"), \
	{ 0xC0000101, 1, UCM_SM_RW, 0, 0, 0xFFFF88803FC00000ull, ~0ull, 0x40000, "IA32_GS_BASE", 0, 0 }, \
	RW(0xC0000102, 1, 0, ~0ull, "IA32_KERNEL_GS_BASE"), \
	{ 0xC0000103, 1, UCM_SM_RW, 0, UCM_RW_TSC_AUX, 0, 0xFFFFFFFF, 0, "IA32_TSC_AUX", 0, 0 },

/* IA32_A_PMC0..n-1 (IA32_PERF_CAPABILITIES[13], full-width writes; SDM
 * Vol. 3B 20.2.6): the general counters IA32_PMC0..n-1 under a second
 * address, each write taken whole */
#define UCM_SYSMSR_A_PMC(n) \
	{ 0x4C1, n, UCM_SM_ALIAS, 0, 0, 0xC1, 0, 0, "IA32_A_PMC0..7", 0, 0 },

/* Memory types (Intel SDM Vol. 3A Tables 11-8 and 11-10): UC 0, WC 1,
 * WT 4, WP 5, WB 6 in the MTRRs; the PAT also UC- 7.  Bit t of a set:
 * type t allowed (UCM_SM_MTYPE's .width). */
#define UCM_MT_MTRR 0x73
#define UCM_MT_PAT 0xF3
#define MTYPE(a, c, v, m, bytes, types, n) { a, c, UCM_SM_MTYPE, types, bytes, v, m, 0, n, 0, 0 }
#define UCM_MT_BYTES(t) (0x0101010101010101ull * (t))

/* The MTRRs (CPUID.01H:EDX[12]; SDM Vol. 3A 11.11, Vol. 4 Table 2-2) and
 * the PAT (CPUID.01H:EDX[16]; 11.12), each cpu's, as firmware and Linux
 * leave them:
 * - IA32_MTRRCAP cap: the parts' 0xD0A, 10 variable ranges (7:0), the
 *   fixed ranges (8), write-combining (10), SMRR (11) (docs/tools.md,
 *   "MTRRs and machine check": the source of each part's value);
 * - the variable ranges (0x200 up, VCNT pairs), address bits 12 to
 *   maxphy - 1 (CPUID.80000008H:EAX[7:0]): write-back over the machine's
 *   RAM, set at power-on from its memory map (ucp_machine.c);
 * - the fixed ranges below 1 MiB: RAM write-back to 0x9FFFF, the legacy
 *   video window 0xA0000-0xBFFFF uncacheable, the option ROM and BIOS
 *   shadows 0xC0000-0xFFFFF write-protected;
 * - IA32_PAT as Linux 6.1 programs it (arch/x86/mm/pat/memtype.c,
 *   pat_init: WB WC UC- UC WB WP UC- WT), each entry 3 bits;
 * - IA32_MTRR_DEF_TYPE: MTRRs on (11), fixed ranges on (10), default
 *   type uncacheable: what no variable range covers (the MMIO hole, the
 *   space above the RAM) is UC. */
#define UCM_SYSMSR_MTRR(cap, maxphy) \
	RO(0xFE, cap, "IA32_MTRRCAP"), \
	{ 0x200, 2 * ((cap) & 0xFF), UCM_SM_VMTRR, UCM_MT_MTRR, 0, 0, ((1ull << (maxphy)) - 1) & ~0xFFFull, 0, \
	  "IA32_MTRR_PHYSBASEn/PHYSMASKn", 0, 0 }, \
	MTYPE(0x250, 1, UCM_MT_BYTES(6), ~0ull, 0xFF, UCM_MT_MTRR, "IA32_MTRR_FIX64K_00000"), \
	MTYPE(0x258, 1, UCM_MT_BYTES(6), ~0ull, 0xFF, UCM_MT_MTRR, "IA32_MTRR_FIX16K_80000"), \
	MTYPE(0x259, 1, UCM_MT_BYTES(0), ~0ull, 0xFF, UCM_MT_MTRR, "IA32_MTRR_FIX16K_A0000"), \
	MTYPE(0x268, 8, UCM_MT_BYTES(5), ~0ull, 0xFF, UCM_MT_MTRR, "IA32_MTRR_FIX4K_C0000..F8000"), \
	MTYPE(0x277, 1, 0x0407050600070106ull, UCM_MT_BYTES(7), 0xFF, UCM_MT_PAT, "IA32_PAT"), \
	MTYPE(0x2FF, 1, 0xC00, 0xCFF, 0x01, UCM_MT_MTRR, "IA32_MTRR_DEF_TYPE"),

/* Machine-check architecture (CPUID.01H:EDX[7, 14]; SDM Vol. 3B 15.3,
 * Vol. 4 Table 2-2), each cpu's, as Linux 6.1 leaves it after boot
 * (arch/x86/kernel/cpu/mce/core.c, intel.c):
 * - IA32_MCG_CAP cap: the part's (docs/tools.md, "MTRRs and machine
 *   check"); no IA32_MCG_CTL (bit 8 clear) nor extended state (bit 9);
 * - IA32_MCG_STATUS: no machine check in progress; RIPV, EIPV, MCIP
 *   (2:0) writable, the rest reserved;
 * - banks cap[7:0] from 0x400 (UCM_SM_MCBANK): every error-reporting
 *   enable set (Linux writes all ones to each IA32_MCi_CTL), no error
 *   logged;
 * - IA32_MCi_CTL2 where cap[10] (CMCI) says: CMCI enabled (30) at a
 *   threshold of 1 (14:0), as Linux's cmci_discover sets it. */
#define UCM_SYSMSR_MCA(cap) \
	RO(0x179, cap, "IA32_MCG_CAP"), \
	RW(0x17A, 1, 0, 0x7, "IA32_MCG_STATUS"), \
	{ 0x400, 4 * ((cap) & 0xFF), UCM_SM_MCBANK, 0, 0, ~0ull, 0, 0, "IA32_MCi_CTL/STATUS/ADDR/MISC", 0, 0 }, \
	RW(0x280, (cap) >> 10 & 1 ? (cap) & 0xFF : 0, 0x40000001, 0x40007FFF, "IA32_MCi_CTL2"),

/* The MSRs outside the uncore PMU that the Xeon E5-2600 and E5-2600 v2
 * machine tables (Intel SDM Vol. 4, Tables 2-2, 2-20, 2-24) have in common,
 * in three runs around the rows that differ per part (IA32_BIOS_SIGN_ID at
 * 0x8B, the turbo ratios at 0x1AD/0x1AE), in address order.  TSC_HZ, TDP_W and
 * the idle powers PKG_IDLE_W, PP0_IDLE_W, DRAM_IDLE_W must be defined by
 * the including table: the counters of core activity (APERF, MPERF, the
 * fixed counters) count only in C0, the RAPL energy counters the idle
 * power plus the activity of UCM_XEON_ACT (docs/invariants.md). */
/* 0x10 .. 0x48 */
#define UCM_XEON_SYSMSR_LOW \
	TIME(0x10, 1, 64, TSC_HZ, "IA32_TIME_STAMP_COUNTER"), \
	RO(0x17, 0, "IA32_PLATFORM_ID"), \
	UCM_SYSMSR_APIC_BASE \
	RO(0x34, 0, "MSR_SMI_COUNT"), \
	RO(0x3A, 0x5, "IA32_FEATURE_CONTROL"), \
	RW(0x48, 1, 0, 0x7, "IA32_SPEC_CTRL"),
/* 0xCE .. 0x1A6 */
#define UCM_XEON_SYSMSR_MID \
	/* maximum non-turbo ratio 27 (x 100 MHz), minimum 12 */ \
	RO(0xCE, (12ull << 40) | (1ull << 28) | (27ull << 8), "MSR_PLATFORM_INFO"), \
	/* package C-state limit 3 (C6 with retention), C1 and C3 \
	 * auto-demotion on (bits 26, 25), locked (bit 15: bits 15:0 read \
	 * only until reset; Table 2-20) */ \
	RW(0xE2, 1, (1ull << 26) | (1ull << 25) | (1ull << 15) | 0x3, 0x1E000000, "MSR_PKG_CST_CONFIG_CONTROL"), \
	/* at the nominal ratio (never in turbo): both at TSC_HZ in C0 */ \
	ACT(0xE7, 64, 0, UCM_ACT_C0, TSC_HZ, "IA32_MPERF"), \
	ACT(0xE8, 64, 0, UCM_ACT_C0, TSC_HZ, "IA32_APERF"), \
	RW(0xC1, 8, 0, 0xFFFFFFFFFFFFull, "IA32_PMC0..7"), \
	RW(0x186, 8, 0, 0xFFFFFFFFull, "IA32_PERFEVTSEL0..7"), \
	RO(0x198, 27ull << 8, "IA32_PERF_STATUS"), \
	RW(0x199, 1, 27ull << 8, 0x10000FFFFull, "IA32_PERF_CTL"), \
	UCM_SYSMSR_THERM_CTL \
	/* reading valid (bit 31), 1 degree resolution (30:27), the \
	 * package's temperature below TjMax in 22:16 (SDM Vol. 3B \
	 * 14.7.5.2): a core reads its package's */ \
	THERM(0x19C, "IA32_THERM_STATUS"), \
	RO(0x1A0, 0x850089, "IA32_MISC_ENABLE"), \
	RO(0x1A2, (uint64_t)UCM_XEON_TJMAX << 16, "MSR_TEMPERATURE_TARGET"), \
	RW(0x1A4, 1, 0, 0xF, "MSR_MISC_FEATURE_CONTROL"), \
	RW(0x1A6, 2, 0, 0x3FFFFFBFFFull, "MSR_OFFCORE_RSP_0..1"),
/* 0x1B0 .. 0x639 */
#define UCM_XEON_SYSMSR_HIGH \
	RW(0x1B0, 1, 6, 0xF, "IA32_ENERGY_PERF_BIAS"), \
	THERM(0x1B1, "IA32_PACKAGE_THERM_STATUS"), \
	UCM_SYSMSR_PKG_THERM_INT \
	RW(0x1C8, 1, 0, 0x3FF, "MSR_LBR_SELECT"), \
	RW(0x1D9, 1, 0, 0xFFFF, "IA32_DEBUGCTL"), \
	/* instructions (the phases' IPC), core and reference cycles: in C0 \
	 * only */ \
	FIXED_INST(0x309, TSC_HZ, "IA32_FIXED_CTR0"), \
	FIXED_C0(0x30A, 1, TSC_HZ, "IA32_FIXED_CTR1"), \
	FIXED_C0(0x30B, 2, TSC_HZ, "IA32_FIXED_CTR2"), \
	RO(0x345, 0x31C3, "IA32_PERF_CAPABILITIES"), \
	RW(0x38D, 1, 0, 0xFFF, "IA32_FIXED_CTR_CTRL"), \
	RO(0x38E, 0, "IA32_PERF_GLOBAL_STATUS"), \
	RW(0x38F, 1, 0xFF, 0x7000000FFull, "IA32_PERF_GLOBAL_CTRL"), \
	{ 0x390, 1, UCM_SM_WI, 0, 0, 0, 0, 0, "IA32_PERF_GLOBAL_OVF_CTRL", 0, 0 }, \
	RW(0x3F1, 1, 0, 0xF000000FFull, "IA32_PEBS_ENABLE"), \
	RW(0x3F6, 1, 3, 0xFFFF, "MSR_PEBS_LD_LAT"), \
	/* the package's C-state residency at the TSC's rate (Table 2-20), \
	 * derived from the cores' states (docs/invariants.md, "Package \
	 * C-states"); no C7 below the C6 limit of 0xE2.  Each core's C3 and \
	 * C6 residency at the TSC's rate (Table 2-20, scope Core), the \
	 * PCU's PCU_MSR_CORE_C3/C6_CTR of the uncore guides (snbep R29, ivt \
	 * V26): the mean core's share of the PCU's occupancy, a cpu that \
	 * runs a program's thread none while it runs; writable (the guides' \
	 * RW-V) */ \
	ACT(0x3FC, 64, 0, UCM_ACT_CC3, TSC_HZ, "MSR_CORE_C3_RESIDENCY"), \
	ACT(0x3FD, 64, 0, UCM_ACT_CC6, TSC_HZ, "MSR_CORE_C6_RESIDENCY"), \
	ACT(0x3F8, 64, 0, UCM_ACT_PC3, TSC_HZ, "MSR_PKG_C3_RESIDENCY"), \
	ACT(0x3F9, 64, 0, UCM_ACT_PC6, TSC_HZ, "MSR_PKG_C6_RESIDENCY"), \
	TIME(0x3FA, 1, 64, 0, "MSR_PKG_C7_RESIDENCY"), \
	ACT(0x60D, 64, 0, UCM_ACT_PC2, TSC_HZ, "MSR_PKG_C2_RESIDENCY"), \
	TIME(0x3FE, 1, 64, 0, "MSR_CORE_C7_RESIDENCY"), \
	/* RAPL: power 1/8 W, energy 2^-16 J, time 2^-10 s */ \
	RO(0x606, 0xA1003, "MSR_RAPL_POWER_UNIT"), \
	RW(0x610, 1, 0x0001820000158410ull, 0x80FFFFFF00FFFFFFull, "MSR_PKG_POWER_LIMIT"), \
	ACT(0x611, 32, RAPL_W(PKG_IDLE_W), UCM_ACT_PKG, RAPL_J, "MSR_PKG_ENERGY_STATUS"), \
	TIME(0x613, 1, 32, 0, "MSR_PKG_PERF_STATUS"),                 /* never throttled */ \
	RO(0x614, TDP_W * 8, "MSR_PKG_POWER_INFO"),                    /* thermal spec power */ \
	ACT(0x619, 32, RAPL_W(DRAM_IDLE_W), UCM_ACT_DRAM, RAPL_J, "MSR_DRAM_ENERGY_STATUS"), \
	TIME(0x61B, 1, 32, 0, "MSR_DRAM_PERF_STATUS"),                /* never throttled */ \
	RO(0x61C, 0, "MSR_DRAM_POWER_INFO"), \
	ACT(0x639, 32, RAPL_W(PP0_IDLE_W), UCM_ACT_PP0, RAPL_J, "MSR_PP0_ENERGY_STATUS"), \
	UCM_SYSMSR_KERNEL \
	UCM_SYSMSR_A_PMC(8) \
	/* direct cache access (CPUID.01H:ECX[18], Table 2-2): enabled by \
	 * the BIOS (IA32_PLATFORM_DCA_CAP bit 0, what Linux's ioatdma \
	 * checks), prefetch hints (IA32_CPU_DCA_CAP bit 0), type 0 active \
	 * (IA32_DCA_0_CAP bit 0, read-only as are the type and queue \
	 * fields 10:1; delay 16:13 and the software block 24 writable, the \
	 * read-only bits writable as read) */ \
	RO(0x1F8, 1, "IA32_PLATFORM_DCA_CAP"), \
	/* SMX (CPUID.01H:ECX[6], Table 2-2): no dual-monitor treatment of \
	 * SMIs (bit 0 clear); written only in SMM, so a #GP here */ \
	RO(0x9B, 0, "IA32_SMM_MONITOR_CTL"), \
	RO(0x1F9, 1, "IA32_CPU_DCA_CAP"), \
	RW(0x1FA, 1, 1, 0x0101E001ull, "IA32_DCA_0_CAP"),

/* TjMax of both parts, MSR_TEMPERATURE_TARGET bits 23:16 (the value
 * the tables always had; docs/invariants.md) */
#define UCM_XEON_TJMAX 92

/* Both parts: the package reaches TjMax - 10 at TDP from 30 C at no power,
 * a time constant of 1 s (docs/invariants.md, "Thermal model"). */
#define UCM_XEON_THERMAL(tdp) UCM_THERMAL(UCM_XEON_TJMAX, tdp)
/* Every part's thermal model: 30 C at no power, TjMax - 10 at TDP, a time
 * constant of 1 s (docs/invariants.md, "Thermal model") */
#define UCM_THERMAL(tjmax, tdp) { 30.0, ((tjmax) - 10 - 30.0) / (tdp), 1.0, (tjmax) }

/* The activity of a Xeon socket (docs/invariants.md): its cores retire
 * what the phases' IPC says (model/ucm_cores.h); a core in C0 draws
 * CORE_W on the cores' rail and in the package; each 64-byte DRAM access
 * (a CAS) costs UNCORE_NJ in the package (ring, LLC, iMC) and DRAM_NJ in
 * the DIMMs. */
#define UCM_XEON_ACT \
	{ UCM_ACT_C0, 1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0", 1.0 }, \
	{ UCM_ACT_CC3, 1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C3", 1.0 }, \
	{ UCM_ACT_CC6, 1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C6", 1.0 }, \
	{ UCM_ACT_PC2, 1, "cores", "PKG_STATE.C2", 1.0 }, \
	{ UCM_ACT_PC3, 1, "cores", "PKG_STATE.C3", 1.0 }, \
	{ UCM_ACT_PC6, 1, "cores", "PKG_STATE.C6", 1.0 }, \
	{ UCM_ACT_INST, 1, "cores", "INST_RETIRED", 1.0 / UCM_CORES_IPC_UNIT }, \
	{ UCM_ACT_PKG, 1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0", CORE_W }, \
	{ UCM_ACT_PP0, 1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0", CORE_W }, \
	{ UCM_ACT_PKG, 0, "imc", "CAS_COUNT.RD_REG", UNCORE_NJ * 1e-9 }, \
	{ UCM_ACT_PKG, 0, "imc", "CAS_COUNT.RD_UNDERFILL", UNCORE_NJ * 1e-9 }, \
	{ UCM_ACT_PKG, 0, "imc", "CAS_COUNT.WR_WMM", UNCORE_NJ * 1e-9 }, \
	{ UCM_ACT_PKG, 0, "imc", "CAS_COUNT.WR_RMM", UNCORE_NJ * 1e-9 }, \
	{ UCM_ACT_DRAM, 0, "imc", "CAS_COUNT.RD_REG", DRAM_NJ * 1e-9 }, \
	{ UCM_ACT_DRAM, 0, "imc", "CAS_COUNT.RD_UNDERFILL", DRAM_NJ * 1e-9 }, \
	{ UCM_ACT_DRAM, 0, "imc", "CAS_COUNT.WR_WMM", DRAM_NJ * 1e-9 }, \
	{ UCM_ACT_DRAM, 0, "imc", "CAS_COUNT.WR_RMM", DRAM_NJ * 1e-9 },

#endif
