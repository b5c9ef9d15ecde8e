/*
 * asm/cpu_device_id.h - CPU model match tables (struct x86_cpu_id) and
 * boot_cpu_data, the boot CPU's identification, which the layer fills from
 * CPUID of cpu 0 (uck_cpu.c) as the kernel does at boot.
 */
#ifndef UCK_ASM_CPU_DEVICE_ID_H
#define UCK_ASM_CPU_DEVICE_ID_H

#include <linux/kernel.h>
#include <asm/intel-family.h>

#define X86_VENDOR_INTEL 0
#define X86_VENDOR_ANY 0xfffe
#define X86_FAMILY_ANY 0
#define X86_MODEL_ANY 0
#define X86_STEPPING_ANY 0
#define X86_FEATURE_ANY 0
#define X86_CPU_ID_FLAG_ENTRY_VALID 0x1

struct x86_cpu_id {
	u16 vendor;
	u16 family;
	u16 model;
	u16 steppings;
	u16 feature;
	u16 flags;
	kernel_ulong_t driver_data;
};

#define X86_MATCH_INTEL_FAM6_MODEL(m, data)                                      \
	{ .vendor = X86_VENDOR_INTEL, .family = 6, .model = INTEL_FAM6_##m,       \
	  .steppings = X86_STEPPING_ANY, .feature = X86_FEATURE_ANY,             \
	  .flags = X86_CPU_ID_FLAG_ENTRY_VALID, .driver_data = (kernel_ulong_t)(data) }

struct cpuinfo_x86 {
	u8 x86;            /* family */
	u8 x86_vendor;
	u8 x86_model;
	u8 x86_stepping;
	u16 x86_max_cores; /* cores per package */
	u16 logical_proc_id;
	u16 phys_proc_id;
	u16 cpu_core_id;
	u16 cpu_die_id;
	u16 logical_die_id;
	u32 features;      /* X86_FEATURE_* bits the layer knows */
	bool initialized;
};

extern struct cpuinfo_x86 boot_cpu_data;
extern struct cpuinfo_x86 uck_cpu_data[];
#define cpu_data(cpu) (uck_cpu_data[cpu])

/* the feature bits the layer knows, numbered its own way (0 is
 * X86_FEATURE_ANY, as in the kernel); X86_FEATURE_RAPL is AMD's RAPL
 * interface (CPUID 0x80000007 EDX bit 14 there), never set on these parts */
#define X86_FEATURE_HYPERVISOR 1
#define X86_FEATURE_RAPL 2
#define boot_cpu_has(bit) ((boot_cpu_data.features >> (bit)) & 1)

#define X86_MATCH_FEATURE(f, data)                                               \
	{ .vendor = X86_VENDOR_ANY, .family = X86_FAMILY_ANY, .model = X86_MODEL_ANY, \
	  .steppings = X86_STEPPING_ANY, .feature = (f),                         \
	  .flags = X86_CPU_ID_FLAG_ENTRY_VALID, .driver_data = (kernel_ulong_t)(data) }

const struct x86_cpu_id *x86_match_cpu(const struct x86_cpu_id *match);

#endif
