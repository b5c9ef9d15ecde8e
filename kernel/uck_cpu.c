/*
 * uck_cpu.c - the CPUs as the kernel knows them: identification from CPUID
 * (boot_cpu_data, x86_match_cpu), the topology (packages, dies, NUMA nodes,
 * cpumasks), CPU hotplug states, and RDMSR/WRMSR on a cpu through the
 * backend.  The machine's cpus are numbered socket-major, one die a
 * package and one NUMA node a package, as `uncore run` presents them.
 */
#include <linux/cpumask.h>
#include <asm/cpu_device_id.h>
#include <asm/msr.h>

#include "ucb.h"
#include "uck_internal.h"

unsigned int nr_cpu_ids;
int nr_node_ids;
unsigned int uck_this_cpu;
struct cpumask uck_online_mask;
struct cpumask uck_single_masks[NR_CPUS];
struct cpuinfo_x86 boot_cpu_data;
struct cpuinfo_x86 uck_cpu_data[NR_CPUS];

static struct cpumask pkg_mask[NR_CPUS];
static unsigned msr_faults;

struct hpstate {
	enum cpuhp_state st;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
	int used;
};
static struct hpstate hp[8];

static unsigned cores(void)
{
	return uck_k.ncpu / uck_k.nsockets;
}

int uck_cpu_boot(char *err, size_t n)
{
	uint32_t r[4];
	unsigned cpu, fam, model;
	int rc;

	if (!uck_k.ncpu || !uck_k.nsockets || uck_k.ncpu % uck_k.nsockets || uck_k.ncpu > NR_CPUS) {
		snprintf(err, n, "kernel: %u cpus on %u sockets is not a topology the layer serves (at most %d cpus, the same number on each socket)",
			 uck_k.ncpu, uck_k.nsockets, NR_CPUS);
		return -EINVAL;
	}
	rc = ucb_cpuid(uck_k.b, 0, 1, 0, r);
	if (rc) {
		snprintf(err, n, "kernel: CPUID leaf 1 of cpu 0: %s", ucb_error(uck_k.b));
		return rc;
	}
	/* family and model as the kernel decodes them (x86_family, x86_model) */
	fam = (r[0] >> 8) & 0xF;
	if (fam == 0xF)
		fam += (r[0] >> 20) & 0xFF;
	model = (r[0] >> 4) & 0xF;
	if (fam >= 6)
		model += ((r[0] >> 16) & 0xF) << 4;
	memset(&boot_cpu_data, 0, sizeof(boot_cpu_data));
	boot_cpu_data.x86 = (u8)fam;
	boot_cpu_data.x86_model = (u8)model;
	boot_cpu_data.x86_stepping = (u8)(r[0] & 0xF);
	boot_cpu_data.x86_vendor = X86_VENDOR_INTEL;
	if (r[2] & (1u << 31))
		boot_cpu_data.features |= 1u << X86_FEATURE_HYPERVISOR;
	boot_cpu_data.x86_max_cores = (u16)cores();

	nr_cpu_ids = uck_k.ncpu;
	nr_node_ids = (int)uck_k.nsockets;
	cpumask_clear(&uck_online_mask);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		cpumask_clear(&uck_single_masks[cpu]);
		cpumask_set_cpu(cpu, &uck_single_masks[cpu]);
		cpumask_clear(&pkg_mask[cpu]);
	}
	for (cpu = 0; cpu < uck_k.ncpu; cpu++) {
		struct cpuinfo_x86 *c = &uck_cpu_data[cpu];
		unsigned s = cpu / cores();

		*c = boot_cpu_data;
		c->phys_proc_id = c->logical_proc_id = (u16)s;
		c->cpu_die_id = 0;
		c->logical_die_id = (u16)s;
		c->cpu_core_id = (u16)(cpu % cores());
		c->initialized = true;
		cpumask_set_cpu(cpu, &uck_online_mask);
		cpumask_set_cpu(cpu, &pkg_mask[s]);
	}
	uck_this_cpu = 0;
	msr_faults = 0;
	memset(hp, 0, sizeof(hp));
	return 0;
}

const struct x86_cpu_id *x86_match_cpu(const struct x86_cpu_id *m)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;

	for (; m->vendor || m->family || m->model || m->feature; m++) {
		if (m->vendor != X86_VENDOR_ANY && c->x86_vendor != m->vendor)
			continue;
		if (m->family != X86_FAMILY_ANY && c->x86 != m->family)
			continue;
		if (m->model != X86_MODEL_ANY && c->x86_model != m->model)
			continue;
		if (m->steppings != X86_STEPPING_ANY && !(m->steppings & (1u << c->x86_stepping)))
			continue;
		if (m->feature != X86_FEATURE_ANY && !boot_cpu_has(m->feature))
			continue;
		return m;
	}
	return NULL;
}

int topology_physical_package_id(unsigned int cpu) { return uck_cpu_data[cpu].phys_proc_id; }
int topology_logical_package_id(unsigned int cpu) { return uck_cpu_data[cpu].logical_proc_id; }
int topology_logical_die_id(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? uck_cpu_data[cpu].logical_die_id : -1;
}
int topology_die_id(unsigned int cpu) { return uck_cpu_data[cpu].cpu_die_id; }
int topology_core_id(unsigned int cpu) { return uck_cpu_data[cpu].cpu_core_id; }
unsigned int topology_max_packages(void) { return uck_k.nsockets; }
unsigned int topology_max_die_per_package(void) { return 1; }
int topology_phys_to_logical_pkg(unsigned int pkg) { return pkg < uck_k.nsockets ? (int)pkg : -1; }
const struct cpumask *topology_die_cpumask(unsigned int cpu) { return &pkg_mask[uck_cpu_data[cpu].logical_die_id]; }
const struct cpumask *topology_core_cpumask(unsigned int cpu) { return topology_die_cpumask(cpu); }
const struct cpumask *cpumask_of_node(int node)
{
	return node >= 0 && (unsigned)node < uck_k.nsockets ? &pkg_mask[node] : cpu_online_mask;
}
int cpu_to_node(int cpu) { return uck_cpu_data[cpu].phys_proc_id; }
/* the firmware gives the uncore's buses no proximity: all cpus */
const struct cpumask *cpumask_of_pcibus(const struct pci_bus *bus)
{
	(void)bus;
	return cpu_online_mask;
}

/* "0,8" or "0-3": the bitmap list format (%*pbl) and a newline */
ssize_t cpumap_print_to_pagebuf(bool list, char *buf, const struct cpumask *m)
{
	size_t len = 0;
	unsigned i, j;

	if (!list) {
		/* 32-bit groups, most significant first, comma-separated (%*pb) */
		int w = (int)DIV_ROUND_UP(nr_cpu_ids, 32), k;

		for (k = w - 1; k >= 0; k--) {
			u32 v = 0;

			for (i = 0; i < 32; i++)
				if ((unsigned)k * 32 + i < nr_cpu_ids && cpumask_test_cpu((int)(k * 32 + i), m))
					v |= 1u << i;
			len += (size_t)scnprintf(buf + len, PAGE_SIZE - len, k == w - 1 ? "%08x" : ",%08x", v);
		}
		len += (size_t)scnprintf(buf + len, PAGE_SIZE - len, "\n");
		return (ssize_t)len;
	}
	for (i = 0; i < nr_cpu_ids; i = j + 1) {
		if (!cpumask_test_cpu((int)i, m)) {
			j = i;
			continue;
		}
		for (j = i; j + 1 < nr_cpu_ids && cpumask_test_cpu((int)(j + 1), m); j++)
			;
		len += (size_t)scnprintf(buf + len, PAGE_SIZE - len, "%s%u", len ? "," : "", i);
		if (j > i)
			len += (size_t)scnprintf(buf + len, PAGE_SIZE - len, "-%u", j);
	}
	len += (size_t)scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return (ssize_t)len;
}

int cpuhp_setup_state(enum cpuhp_state st, const char *name, int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu))
{
	unsigned i, cpu;

	(void)name;
	for (i = 0; i < ARRAY_SIZE(hp) && hp[i].used; i++)
		;
	if (i == ARRAY_SIZE(hp))
		return -ENOSPC;
	hp[i] = (struct hpstate){ st, startup, teardown, 1 };
	/* the state's startup runs on each online cpu, on that cpu */
	for (cpu = 0; startup && cpu < nr_cpu_ids; cpu++) {
		int rc;

		UCK_ON_CPU(cpu, rc = startup(cpu));
		if (rc) {
			while (cpu-- > 0)
				if (teardown)
					UCK_ON_CPU(cpu, teardown(cpu));
			hp[i].used = 0;
			return rc;
		}
	}
	return 0;
}

void cpuhp_remove_state(enum cpuhp_state st)
{
	unsigned i, cpu;

	for (i = 0; i < ARRAY_SIZE(hp); i++) {
		if (!hp[i].used || hp[i].st != st)
			continue;
		for (cpu = nr_cpu_ids; hp[i].teardown && cpu-- > 0;)
			UCK_ON_CPU(cpu, hp[i].teardown(cpu));
		hp[i].used = 0;
	}
}

void cpuhp_remove_state_nocalls(enum cpuhp_state st)
{
	for (unsigned i = 0; i < ARRAY_SIZE(hp); i++)
		if (hp[i].used && hp[i].st == st)
			hp[i].used = 0;
}

int uck_rdmsr(unsigned int cpu, u32 msr, u64 *val, bool safe)
{
	uint64_t v = 0;
	int rc = ucb_msr_read(uck_k.b, cpu, msr, &v);

	if (rc) {
		*val = 0;
		if (!safe) {
			msr_faults++;
			uck_printk(4, "unchecked MSR access error: RDMSR from 0x%x on cpu %u%s%s%s\n", msr,
				   cpu, *ucb_error(uck_k.b) ? " (" : "", ucb_error(uck_k.b),
				   *ucb_error(uck_k.b) ? ")" : "");
		}
		return -EIO;
	}
	*val = v;
	return 0;
}

int uck_wrmsr(unsigned int cpu, u32 msr, u64 val, bool safe)
{
	int rc = ucb_msr_write(uck_k.b, cpu, msr, val);

	if (rc) {
		if (!safe) {
			msr_faults++;
			uck_printk(4, "unchecked MSR access error: WRMSR to 0x%x (tried to write 0x%016llx) on cpu %u%s%s%s\n",
				   msr, val, cpu, *ucb_error(uck_k.b) ? " (" : "", ucb_error(uck_k.b),
				   *ucb_error(uck_k.b) ? ")" : "");
		}
		return -EIO;
	}
	return 0;
}

unsigned uck_msr_faults(void)
{
	return msr_faults;
}
