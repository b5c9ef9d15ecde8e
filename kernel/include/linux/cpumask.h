/*
 * linux/cpumask.h - CPU masks, the machine's CPU topology and CPU hotplug
 * states, as the uncore driver asks for them.  The topology is the simulated
 * part's (uck_cpu.c): logical cpus numbered socket-major, one die a package.
 */
#ifndef UCK_LINUX_CPUMASK_H
#define UCK_LINUX_CPUMASK_H

#include <linux/bitops.h>

#define NR_CPUS 256
typedef struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
} cpumask_t;

extern unsigned int nr_cpu_ids;
extern int nr_node_ids;

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m) { __set_bit(cpu, m->bits); }
static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m) { __clear_bit(cpu, m->bits); }
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m) { return test_bit(cpu, m->bits); }
static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *m)
{
	return __test_and_clear_bit(cpu, m->bits);
}
static inline void cpumask_clear(struct cpumask *m) { bitmap_zero(m->bits, NR_CPUS); }
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return (unsigned int)find_first_bit(m->bits, nr_cpu_ids);
}
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	return (unsigned int)find_next_bit(m->bits, nr_cpu_ids, (unsigned long)(n + 1));
}
static inline unsigned int cpumask_weight(const struct cpumask *m) { return bitmap_weight(m->bits, nr_cpu_ids); }
static inline bool cpumask_empty(const struct cpumask *m) { return cpumask_first(m) >= nr_cpu_ids; }
static inline unsigned int cpumask_any_but(const struct cpumask *m, unsigned int cpu)
{
	unsigned int i;

	for (i = cpumask_first(m); i < nr_cpu_ids; i = cpumask_next((int)i, m))
		if (i != cpu)
			return i;
	return nr_cpu_ids;
}
static inline unsigned int cpumask_any_and(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < nr_cpu_ids; i++)
		if (cpumask_test_cpu((int)i, a) && cpumask_test_cpu((int)i, b))
			return i;
	return nr_cpu_ids;
}
#define cpumask_any(m) cpumask_first(m)
#define for_each_cpu(cpu, mask)                                                  \
	for ((cpu) = cpumask_first(mask); (unsigned int)(cpu) < nr_cpu_ids;      \
	     (cpu) = cpumask_next((int)(cpu), mask))

extern struct cpumask uck_online_mask;
#define cpu_online_mask (&uck_online_mask)
#define cpu_possible_mask (&uck_online_mask)
#define cpu_present_mask (&uck_online_mask)
#define for_each_online_cpu(cpu) for_each_cpu(cpu, cpu_online_mask)
#define for_each_possible_cpu(cpu) for_each_cpu(cpu, cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu(cpu, cpu_present_mask)
#define cpu_online(cpu) cpumask_test_cpu((int)(cpu), cpu_online_mask)
static inline const struct cpumask *cpumask_of(unsigned int cpu)
{
	extern struct cpumask uck_single_masks[NR_CPUS];
	return &uck_single_masks[cpu];
}

/* "0-3,8" as /sys prints a cpu list (list) or a hex mask (!list) */
ssize_t cpumap_print_to_pagebuf(bool list, char *buf, const struct cpumask *m);

/* the cpu the driver code is running on (uck_cpu.c sets it for each call) */
extern unsigned int uck_this_cpu;
#define smp_processor_id() ((int)uck_this_cpu)
#define raw_smp_processor_id() ((int)uck_this_cpu)
#define get_cpu() smp_processor_id()
#define put_cpu() do { } while (0)
#define preempt_disable() do { } while (0)
#define preempt_enable() do { } while (0)
#define cpus_read_lock() do { } while (0)
#define cpus_read_unlock() do { } while (0)
#define get_online_cpus() do { } while (0)
#define put_online_cpus() do { } while (0)

/* topology (linux/topology.h, asm/topology.h) */
int topology_physical_package_id(unsigned int cpu);
int topology_logical_package_id(unsigned int cpu);
int topology_logical_die_id(unsigned int cpu);
int topology_die_id(unsigned int cpu);
int topology_core_id(unsigned int cpu);
unsigned int topology_max_packages(void);
unsigned int topology_max_die_per_package(void);
int topology_phys_to_logical_pkg(unsigned int pkg);
const struct cpumask *topology_die_cpumask(unsigned int cpu);
const struct cpumask *topology_core_cpumask(unsigned int cpu);
/* a core's hardware threads: the cpu alone (Hyper-Threading off) */
#define topology_sibling_cpumask(cpu) cpumask_of(cpu)
const struct cpumask *cpumask_of_node(int node);
int cpu_to_node(int cpu);
#define numa_node_id() cpu_to_node(smp_processor_id())

/* CPU hotplug (linux/cpuhotplug.h): the layer runs a state's startup
 * callback for every cpu when it is set up, and its teardown on removal */
enum cpuhp_state {
	CPUHP_INVALID = -1,
	CPUHP_AP_PERF_X86_UNCORE_ONLINE = 1,
	CPUHP_AP_ONLINE_DYN = 2,
	CPUHP_AP_PERF_X86_CSTATE_STARTING,
	CPUHP_AP_PERF_X86_RAPL_ONLINE,
	CPUHP_AP_PERF_X86_CSTATE_ONLINE,
};
int cpuhp_setup_state(enum cpuhp_state st, const char *name, int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu));
void cpuhp_remove_state(enum cpuhp_state st);
/* removed without running its teardown for each cpu */
void cpuhp_remove_state_nocalls(enum cpuhp_state st);

#endif
