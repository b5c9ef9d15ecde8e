/*
 * ucr_tree.c - the simulated machine's /proc, /sys and /dev, written as a
 * directory tree that the preload library redirects those paths to.
 *
 * Static files (cpuinfo, CPU and NUMA topology, PCI device lists, the ACPI
 * MCFG table, the SMBIOS tables and /dev/mem's firmware area) say what the kernel of a machine of this platform would say;
 * the device files (MSR, msr-safe, PCI configuration, /dev/mem) are empty
 * placeholders whose accesses the library sends to the server.  The
 * formats are the kernel's (Documentation/ABI, fs/proc, drivers/pci).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ucr_proto.h"
#include "ucr_server.h"

/* The paths the library redirects into the tree (ROOT/.redirect). */
static const char *const redirects[] = {
	"/proc/cpuinfo", "/proc/stat", "/proc/interrupts", "/proc/meminfo", "/proc/vmstat", "/proc/uptime", "/proc/bus/pci",
	"/proc/sys/kernel/nmi_watchdog", "/sys/fs/cgroup",
	"/proc/sys/kernel/perf_event_paranoid",
	"/sys/devices/system/cpu", "/sys/devices/system/node", "/sys/bus/pci",
	"/sys/firmware/acpi/tables/MCFG", "/sys/firmware/dmi", "/sys/module/msr", "/sys/bus/event_source",
	"/dev/cpu", "/dev/msr*", "/dev/mem",
};

struct tree {
	const char *root;
	char *err;
	size_t n;
	int rc;
	char made[4096]; /* the directory last made or found (relative) */
};

/* mkdir ROOT/rel and, where missing, its parents.  Files come grouped by
 * directory, so the directory of the previous file is remembered and a
 * directory's parents are only made when it cannot be: one mkdir per new
 * directory, not one per path component and file (a start-up cost on
 * disks, issue #32). */
static int mkdirs(struct tree *t, const char *rel)
{
	char p[4096];
	size_t k = (size_t)snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	char *s;

	if (k >= sizeof(p))
		return -ENAMETOOLONG;
	if (!strcmp(rel, t->made))
		return 0;
	if (mkdir(p, 0755) && errno != EEXIST) {
		if (errno != ENOENT || !(s = strrchr(p + strlen(t->root) + 1, '/')))
			return -errno;
		/* make the parents, then this one */
		for (s = p + strlen(t->root) + 1; *s; s++) {
			if (*s != '/')
				continue;
			*s = 0;
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
	}
	snprintf(t->made, sizeof(t->made), "%s", rel);
	return 0;
}

/* Write ROOT/rel (parents made) with mode: fmt with *ap, if fmt; size > 0:
 * a sparse file of that size.  One open, one write, one close. */
static void vput(struct tree *t, const char *rel, long size, mode_t mode, const char *fmt, va_list *ap)
{
	char p[4096], dir[4096];
	char *slash, *text = NULL;
	int fd, len = 0;

	if (t->rc)
		return;
	snprintf(dir, sizeof(dir), "%s", rel);
	if ((slash = strrchr(dir, '/'))) {
		*slash = 0;
		if ((t->rc = mkdirs(t, dir))) {
			snprintf(t->err, t->n, "%s/%s: %s", t->root, dir, strerror(-t->rc));
			return;
		}
	}
	snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	if (fmt && (len = vasprintf(&text, fmt, *ap)) < 0) {
		t->rc = -ENOMEM;
		snprintf(t->err, t->n, "%s: %s", p, strerror(ENOMEM));
		return;
	}
	if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)) < 0) {
		t->rc = -errno;
	} else {
		if (len > 0 && write(fd, text, (size_t)len) != len)
			t->rc = -EIO;
		else if (size > 0 && ftruncate(fd, size))
			t->rc = -errno;
		/* a device's mode exactly, whatever the umask */
		else if (!fmt && fchmod(fd, mode))
			t->rc = -errno;
		if (close(fd) && !t->rc)
			t->rc = -EIO;
	}
	free(text);
	if (t->rc)
		snprintf(t->err, t->n, "%s: %s", p, strerror(-t->rc));
}

__attribute__((format(printf, 3, 4))) static void put(struct tree *t, const char *rel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(t, rel, 0, 0644, fmt, &ap);
	va_end(ap);
}

static void device(struct tree *t, const char *rel, long size, mode_t mode)
{
	vput(t, rel, size, mode, NULL, NULL);
}

/* ROOT/rel, a symbolic link to `to` (relative: it stays in the tree) */
static void link_to(struct tree *t, const char *rel, const char *to)
{
	char p[4096];

	if (t->rc)
		return;
	snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	if (symlink(to, p)) {
		t->rc = -errno;
		snprintf(t->err, t->n, "%s: %s", p, strerror(errno));
	}
}

/* A cpu list "0-3" and the kernel's hex mask of the same cpus. */
static void cpulist(char *buf, size_t n, unsigned lo, unsigned hi)
{
	if (lo == hi)
		snprintf(buf, n, "%u", lo);
	else
		snprintf(buf, n, "%u-%u", lo, hi);
}

static void cpumask(char *buf, size_t n, unsigned ncpu, unsigned lo, unsigned hi)
{
	unsigned digits = (ncpu + 3) / 4;
	size_t k = 0;

	for (unsigned d = digits; d-- > 0 && k + 2 < n;) {
		unsigned v = 0;

		for (unsigned b = 0; b < 4; b++) {
			unsigned c = d * 4 + b;

			if (c >= lo && c <= hi)
				v |= 1u << b;
		}
		buf[k++] = "0123456789abcdef"[v];
		if (d && d % 8 == 0)
			buf[k++] = ',';
	}
	buf[k] = 0;
}

static void cpus(struct tree *t, struct ucm_model *m, struct ucp_machine *mc, unsigned nsock)
{
	const struct ucm_machine *d = ucp_machine_def(mc);
	const struct ucm_platform *p = ucm_platform_of(m);
	unsigned ncpu = ucp_ncpu(mc), ncores = ncpu / nsock;
	char all[32], list[32], mask[64];
	static const char *const types[] = { "", "Data", "Instruction", "Unified" };

	uint64_t info = 0, turbo = 0;
	unsigned min_khz, max_khz;

	ucp_sysmsr_read(mc, 0, 0xCE, 0, &info);
	min_khz = (unsigned)(info >> 40 & 0xFF) * 100000u;
	max_khz = ucp_sysmsr_read(mc, 0, 0x1AD, 0, &turbo) || !(turbo & 0xFF) ? d->core_mhz * 1000u
										: (unsigned)(turbo & 0xFF) * 100000u;
	cpulist(all, sizeof(all), 0, ncpu - 1);
	put(t, "sys/devices/system/cpu/online", "%s\n", all);
	put(t, "sys/devices/system/cpu/possible", "%s\n", all);
	put(t, "sys/devices/system/cpu/present", "%s\n", all);
	put(t, "sys/devices/system/cpu/offline", "\n");
	put(t, "sys/devices/system/cpu/kernel_max", "8191\n");
	for (unsigned c = 0; c < ncpu; c++) {
		unsigned s = ucp_cpu_socket(mc, c), core = ucp_cpu_core(mc, c);
		unsigned plo = s * ncores, phi = plo + ncores - 1;
		char dir[96], f[160], own[64], pkg[32], pmask[64];

		snprintf(dir, sizeof(dir), "sys/devices/system/cpu/cpu%u", c);
		cpumask(own, sizeof(own), ncpu, c, c);
		cpulist(pkg, sizeof(pkg), plo, phi);
		cpumask(pmask, sizeof(pmask), ncpu, plo, phi);
		if (c) {
			snprintf(f, sizeof(f), "%s/online", dir);
			put(t, f, "1\n");
		}
#define TOPO(name, ...) (snprintf(f, sizeof(f), "%s/topology/" name, dir), put(t, f, __VA_ARGS__))
		TOPO("physical_package_id", "%u\n", s);
		TOPO("die_id", "0\n");
		TOPO("cluster_id", "%u\n", core);
		TOPO("core_id", "%u\n", core);
		TOPO("thread_siblings_list", "%u\n", c);
		TOPO("thread_siblings", "%s\n", own);
		TOPO("core_cpus_list", "%u\n", c);
		TOPO("core_cpus", "%s\n", own);
		TOPO("cluster_cpus_list", "%u\n", c);
		TOPO("cluster_cpus", "%s\n", own);
		TOPO("core_siblings_list", "%s\n", pkg);
		TOPO("core_siblings", "%s\n", pmask);
		TOPO("package_cpus_list", "%s\n", pkg);
		TOPO("package_cpus", "%s\n", pmask);
		TOPO("die_cpus_list", "%s\n", pkg);
		TOPO("die_cpus", "%s\n", pmask);
#undef TOPO
		/* the cpu's node, as the kernel links it (drivers/base/node.c):
		 * numactl and turbostat find a cpu's node by it */
		{
			char to[32];

			snprintf(f, sizeof(f), "%s/node%u", dir, s);
			snprintf(to, sizeof(to), "../../node/node%u", s);
			link_to(t, f, to);
		}
		for (unsigned i = 0; i < d->ncaches; i++) {
			const struct ucm_cache *k = &d->caches[i];
			const char *sl = k->per_package ? pkg : NULL, *sm = k->per_package ? pmask : own;
			char slist[32];

			snprintf(slist, sizeof(slist), "%u", c);
#define CACHE(name, ...) (snprintf(f, sizeof(f), "%s/cache/index%u/" name, dir, i), put(t, f, __VA_ARGS__))
			CACHE("id", "%u\n", k->per_package ? s : core);
			CACHE("level", "%u\n", k->level);
			CACHE("type", "%s\n", types[k->type & 3]);
			CACHE("size", "%uK\n", k->size_kb);
			CACHE("ways_of_associativity", "%u\n", k->ways);
			CACHE("coherency_line_size", "64\n");
			CACHE("physical_line_partition", "1\n");
			CACHE("number_of_sets", "%u\n", k->size_kb * 1024u / 64u / k->ways);
			CACHE("shared_cpu_list", "%s\n", sl ? sl : slist);
			CACHE("shared_cpu_map", "%s\n", sm);
#undef CACHE
		}
		/* intel_pstate's limits, from the machine's MSRs (Intel SDM Vol.
		 * 4, Table 2-20 and the part's): the lowest ratio of
		 * MSR_PLATFORM_INFO (47:40), the 1-core turbo ratio of
		 * MSR_TURBO_RATIO_LIMIT (7:0), x 100 MHz (cpupower's "hardware
		 * limits", lscpu's "CPU min/max MHz") */
#define FREQ(name, ...) (snprintf(f, sizeof(f), "%s/cpufreq/" name, dir), put(t, f, __VA_ARGS__))
		FREQ("cpuinfo_max_freq", "%u\n", max_khz);
		FREQ("cpuinfo_min_freq", "%u\n", min_khz);
		FREQ("scaling_max_freq", "%u\n", max_khz);
		FREQ("scaling_min_freq", "%u\n", min_khz);
		FREQ("scaling_cur_freq", "%u\n", d->core_mhz * 1000);
		FREQ("base_frequency", "%u\n", d->tsc_mhz * 1000);
		FREQ("scaling_governor", "performance\n");
		FREQ("scaling_driver", "intel_pstate\n");
#undef FREQ
		/* the energy-performance bias: made when opened, from the
		 * cpu's IA32_ENERGY_PERF_BIAS (run/preload/ucr_gen.c) */
		snprintf(f, sizeof(f), "%s/power/energy_perf_bias", dir);
		put(t, f, "%s", "");
		/* cpuidle (Documentation/admin-guide/pm/cpuidle.rst): state 0
		 * is the kernel's POLL, then intel_idle's states of the part
		 * (the machine's table); usage and time are made when opened,
		 * from the cpu's idle residency (run/preload/ucr_gen.c).  The
		 * files cpupower and turbostat read, not the kernel's
		 * statistics (above, below, rejected) nor power: each file is
		 * start-up time ("Start-up" in docs/tools.md) */
		for (unsigned k = 0; k <= d->ncstates; k++) {
			const struct ucm_cstate *cs = k ? &d->cstates[k - 1] : NULL;

#define IDLE(name, ...) (snprintf(f, sizeof(f), "%s/cpuidle/state%u/" name, dir, k), put(t, f, __VA_ARGS__))
			IDLE("name", "%s\n", cs ? cs->name : "POLL");
			IDLE("desc", "%s\n", cs ? cs->desc : "CPUIDLE CORE POLL IDLE");
			IDLE("latency", "%u\n", cs ? cs->latency_us : 0u);
			IDLE("residency", "%u\n", cs ? cs->residency_us : 0u);
			IDLE("disable", "0\n");
			IDLE("usage", "%s", "");
			IDLE("time", "%s", "");
#undef IDLE
		}
	}
	if (d->ncstates) {
		put(t, "sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
		put(t, "sys/devices/system/cpu/cpuidle/current_governor", "menu\n");
		put(t, "sys/devices/system/cpu/cpuidle/current_governor_ro", "menu\n");
		put(t, "sys/devices/system/cpu/cpuidle/available_governors", "menu\n");
	}
	/* NUMA: one node a socket */
	cpulist(list, sizeof(list), 0, nsock - 1);
	put(t, "sys/devices/system/node/online", "%s\n", list);
	put(t, "sys/devices/system/node/possible", "%s\n", list);
	put(t, "sys/devices/system/node/has_cpu", "%s\n", list);
	put(t, "sys/devices/system/node/has_memory", "%s\n", list);
	put(t, "sys/devices/system/node/has_normal_memory", "%s\n", list);
	for (unsigned s = 0; s < nsock; s++) {
		char f[128], dist[64];
		size_t k = 0;
		unsigned long long kb = (unsigned long long)d->mem_mb * 1024u;

		cpulist(list, sizeof(list), s * ncores, s * ncores + ncores - 1);
		cpumask(mask, sizeof(mask), ncpu, s * ncores, s * ncores + ncores - 1);
		for (unsigned o = 0; o < nsock; o++)
			k += (size_t)snprintf(dist + k, sizeof(dist) - k, "%s%u", o ? " " : "", o == s ? 10u : 21u);
		snprintf(f, sizeof(f), "sys/devices/system/node/node%u/cpulist", s);
		put(t, f, "%s\n", list);
		snprintf(f, sizeof(f), "sys/devices/system/node/node%u/cpumap", s);
		put(t, f, "%s\n", mask);
		snprintf(f, sizeof(f), "sys/devices/system/node/node%u/distance", s);
		put(t, f, "%s\n", dist);
		snprintf(f, sizeof(f), "sys/devices/system/node/node%u/meminfo", s);
		put(t, f,
		    "Node %u MemTotal:       %llu kB\nNode %u MemFree:        %llu kB\n"
		    "Node %u MemUsed:        %llu kB\nNode %u HugePages_Total:     0\n"
		    "Node %u HugePages_Free:      0\n",
		    s, kb, s, kb * 7 / 8, s, kb / 8, s, s);
	}
	/* /proc/meminfo: the nodes' memory (meminfo above: 7/8 free), no swap,
	 * no huge pages */
	{
		unsigned long long kb = (unsigned long long)d->mem_mb * 1024u * nsock;

		put(t, "proc/meminfo",
		    "MemTotal:       %llu kB\nMemFree:        %llu kB\nMemAvailable:   %llu kB\n"
		    "Buffers:               0 kB\nCached:                0 kB\nSwapCached:            0 kB\n"
		    "SwapTotal:             0 kB\nSwapFree:              0 kB\n"
		    "HugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n",
		    kb, kb * 7 / 8, kb * 7 / 8);
	}
	/* the cgroup (v2) the program is in: the root, with every cpu and
	 * node and no limit (/proc/self/cgroup says "0::/", ucr_gen.c) */
	cpulist(list, sizeof(list), 0, nsock - 1);
	put(t, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
	put(t, "sys/fs/cgroup/cpuset.cpus.effective", "%s\n", all);
	put(t, "sys/fs/cgroup/cpuset.mems.effective", "%s\n", list);
	put(t, "sys/fs/cgroup/cpu.max", "max 100000\n");
	put(t, "sys/fs/cgroup/memory.max", "max\n");
	/* /proc/cpuinfo */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		const struct ucm_cache *llc = d->ncaches ? &d->caches[d->ncaches - 1] : NULL;

		if (!f) {
			t->rc = -ENOMEM;
			return;
		}
		for (unsigned c = 0; c < ncpu; c++)
			fprintf(f,
				"processor\t: %u\nvendor_id\t: GenuineIntel\ncpu family\t: %u\nmodel\t\t: %u\n"
				"model name\t: %s\nstepping\t: %u\nmicrocode\t: 0x1\ncpu MHz\t\t: %u.000\n"
				"cache size\t: %u KB\nphysical id\t: %u\nsiblings\t: %u\ncore id\t\t: %u\n"
				"cpu cores\t: %u\napicid\t\t: %u\ninitial apicid\t: %u\nfpu\t\t: yes\n"
				"fpu_exception\t: yes\ncpuid level\t: %u\nwp\t\t: yes\nflags\t\t: %s\n"
				"bogomips\t: %u.00\nclflush size\t: 64\ncache_alignment\t: 64\n"
				"address sizes\t: 46 bits physical, 48 bits virtual\npower management:\n\n",
				c, p->cpu_family, p->cpu_models[0], d->brand, d->stepping, d->core_mhz,
				llc ? llc->size_kb : 0, ucp_cpu_socket(mc, c), ncores, ucp_cpu_core(mc, c), ncores,
				ucp_apic_id(mc, c), ucp_apic_id(mc, c), d->ncpuid ? d->cpuid[0].eax : 0,
				d->cpuinfo_flags, d->tsc_mhz * 2);
		fclose(f);
		put(t, "proc/cpuinfo", "%s", text ? text : "");
		free(text);
		text = NULL;
		len = 0;
		/* /proc/interrupts: the machine's cpus as columns (fs/proc's
		 * format: "CPU%-8d" after 11 spaces, counts " %10u"); the
		 * machine's kernel raises no interrupts it counts, so every count
		 * is 0 (turbostat's IRQ column) */
		if (!(f = open_memstream(&text, &len))) {
			t->rc = -ENOMEM;
			return;
		}
		fprintf(f, "%11s", "");
		for (unsigned c = 0; c < ncpu; c++)
			fprintf(f, "CPU%-8u", c);
		fprintf(f, "\n");
		static const char *const rows[][2] = { { "NMI", "Non-maskable interrupts" },
						       { "LOC", "Local timer interrupts" },
						       { "PMI", "Performance monitoring interrupts" } };
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
			fprintf(f, "%3s:", rows[r][0]);
			for (unsigned c = 0; c < ncpu; c++)
				fprintf(f, " %10u", 0u);
			fprintf(f, "   %s\n", rows[r][1]);
		}
		fprintf(f, "ERR:          0\nMIS:          0\n");
		fclose(f);
		put(t, "proc/interrupts", "%s", text ? text : "");
		/* /proc/stat is made when it is opened, from the machine's clocks
		 * (preload: ucr_gen.c); the tree holds its name */
		put(t, "proc/stat", "%s", "");
		/* made when opened too (ucr_gen.c): the host kernel's counters,
		 * the machine's values */
		put(t, "proc/vmstat", "%s", "");
		/* and the time since power-on (ucr_gen.c) */
		put(t, "proc/uptime", "%s", "");
		free(text);
	}
}

/* The PCI functions of the model: sysfs devices, /proc/bus/pci, MCFG. */
static void pci(struct tree *t, struct ucm_model *m, struct ucp_machine *mc)
{
	size_t nregs = ucm_nregs(m), ndev = 0;
	uint32_t *devs = calloc(nregs + 1, sizeof(*devs));
	char *list = NULL;
	size_t llen = 0;
	FILE *lf;

	if (!devs) {
		t->rc = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < nregs; i++) {
		struct ucm_reginfo ri;
		uint32_t bdf;
		size_t k;

		if (ucm_reginfo(m, i, &ri) || ri.space != UCM_PCI)
			continue;
		bdf = (uint32_t)(ri.addr >> 12);
		for (k = 0; k < ndev && devs[k] != bdf; k++)
			;
		if (k == ndev)
			devs[ndev++] = bdf;
	}
	lf = open_memstream(&list, &llen);
	for (size_t i = 0; i < ndev && lf; i++) {
		unsigned bus = devs[i] >> 8, dev = devs[i] >> 3 & 31, fn = devs[i] & 7;
		uint64_t id = 0, cls = 0, sub = 0;
		char dir[96], f[160];
		unsigned node = 0;

		ucm_pci_peek(m, 0, bus, dev, fn, 0, 4, &id);
		ucm_pci_peek(m, 0, bus, dev, fn, 8, 4, &cls);
		ucm_pci_peek(m, 0, bus, dev, fn, 0x2C, 4, &sub);
		for (unsigned s = 0; s < ucm_nsockets(m); s++)
			if (ucm_pci_bus(m, s) == bus)
				node = s;
		snprintf(dir, sizeof(dir), "sys/bus/pci/devices/0000:%02x:%02x.%x", bus, dev, fn);
#define DEV(name, ...) (snprintf(f, sizeof(f), "%s/" name, dir), put(t, f, __VA_ARGS__))
		DEV("vendor", "0x%04x\n", (unsigned)(id & 0xFFFF));
		DEV("device", "0x%04x\n", (unsigned)(id >> 16 & 0xFFFF));
		DEV("class", "0x%06x\n", (unsigned)(cls >> 8));
		DEV("revision", "0x%02x\n", (unsigned)(cls & 0xFF));
		DEV("subsystem_vendor", "0x%04x\n", (unsigned)(sub & 0xFFFF));
		DEV("subsystem_device", "0x%04x\n", (unsigned)(sub >> 16 & 0xFFFF));
		DEV("irq", "0\n");
		DEV("numa_node", "%d\n", ucm_nsockets(m) > 1 ? (int)node : -1);
		/* the socket's cpus: hwloc, and likwid through it, place each
		 * uncore device under its package by these */
		{
			unsigned ncpu = ucp_ncpu(mc), per = ncpu / ucm_nsockets(m);
			char lmask[64], llist[32];

			cpumask(lmask, sizeof(lmask), ncpu, node * per, node * per + per - 1);
			cpulist(llist, sizeof(llist), node * per, node * per + per - 1);
			DEV("local_cpus", "%s\n", lmask);
			DEV("local_cpulist", "%s\n", llist);
		}
		DEV("enable", "1\n");
		DEV("resource", "%s",
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		    "0x0000000000000000 0x0000000000000000 0x0000000000000000\n");
#undef DEV
		snprintf(f, sizeof(f), "%s/config", dir);
		device(t, f, 4096, 0644);
		snprintf(f, sizeof(f), "proc/bus/pci/%02x/%02x.%x", bus, dev, fn);
		device(t, f, 4096, 0644);
		/* fs/proc: bus devfn, vendor device, irq, 7 base addresses and
		 * the ROM, their 7 sizes */
		fprintf(lf, "%02x%02x\t%04x%04x\t%x", bus, dev << 3 | fn, (unsigned)(id & 0xFFFF),
			(unsigned)(id >> 16 & 0xFFFF), 0u);
		for (unsigned b = 0; b < 14; b++)
			fprintf(lf, "\t%16llx", 0ull);
		fprintf(lf, "\n");
	}
	if (lf)
		fclose(lf);
	put(t, "proc/bus/pci/devices", "%s", list ? list : "");
	mkdirs(t, "sys/bus/pci/slots");
	mkdirs(t, "sys/bus/pci/drivers");
	free(list);
	free(devs);
}

/* ACPI MCFG (PCI Firmware Specification 3.0, 4.1.2): one ECAM window over
 * segment 0, buses 0-255, so tools find every uncore bus in it. */
static void mcfg(struct tree *t)
{
	uint8_t b[60];
	uint8_t sum = 0;
	uint32_t len = sizeof(b);
	uint64_t base = 0x80000000ull;
	char p[4096];
	int fd;

	memset(b, 0, sizeof(b));
	memcpy(b, "MCFG", 4);
	memcpy(b + 4, &len, 4);
	b[8] = 1;                             /* revision */
	memcpy(b + 10, "UNCORE", 6);          /* OEM ID */
	memcpy(b + 16, "SIMULATD", 8);        /* OEM table ID */
	b[24] = 1;
	memcpy(b + 28, "UNCR", 4);            /* creator */
	b[32] = 1;
	/* 36..43 reserved; the allocation at 44 */
	memcpy(b + 44, &base, 8);
	b[52] = 0;                            /* segment 0 (2 bytes) */
	b[54] = 0;                            /* start bus */
	b[55] = 255;                          /* end bus */
	for (size_t i = 0; i < sizeof(b); i++)
		sum = (uint8_t)(sum + b[i]);
	b[9] = (uint8_t)(0x100 - sum);
	if (t->rc || (t->rc = mkdirs(t, "sys/firmware/acpi/tables")))
		return;
	snprintf(p, sizeof(p), "%s/sys/firmware/acpi/tables/MCFG", t->root);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0 || write(fd, b, sizeof(b)) != (ssize_t)sizeof(b))
		t->rc = -EIO;
	if (fd >= 0)
		close(fd);
	if (t->rc)
		snprintf(t->err, t->n, "%s: cannot write", p);
}

/* ROOT/rel: len bytes of data, readable by all (the kernel's firmware
 * tables are root's; the machine's program needs no root). */
static void blob(struct tree *t, const char *rel, const void *data, size_t len)
{
	char p[4096];
	int fd;

	if (t->rc)
		return;
	snprintf(p, sizeof(p), "%s/%s", t->root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		t->rc = -EIO;
	if (fd >= 0 && close(fd) && !t->rc)
		t->rc = -EIO;
	if (t->rc)
		snprintf(t->err, t->n, "%s: cannot write", p);
}

/* SMBIOS (run/ucr_smbios.c) where dmidecode finds it: the kernel's
 * /sys/firmware/dmi/tables (drivers/firmware/dmi_scan.c) and the firmware
 * area of /dev/mem, entry point at F0000 and table after it. */
static void dmi(struct tree *t, struct ucm_model *m, struct ucp_machine *mc)
{
	uint8_t ep[UCR_SMBIOS_EP_LEN], *table = NULL, *fw;
	size_t len = 0;

	if (t->rc)
		return;
	if (ucr_smbios_build(m, mc, UCR_FW_TABLE, &table, &len, ep) ||
	    !(fw = calloc(1, UCR_FW_LEN))) {
		free(table);
		t->rc = -ENOMEM;
		snprintf(t->err, t->n, "SMBIOS tables: %s", strerror(ENOMEM));
		return;
	}
	if (UCR_FW_TABLE - UCR_FW_BASE + len > UCR_FW_LEN) {
		t->rc = -EFBIG;
		snprintf(t->err, t->n, "SMBIOS table of %zu bytes: larger than the firmware area", len);
	} else if (!(t->rc = mkdirs(t, "sys/firmware/dmi/tables"))) {
		memcpy(fw + (UCR_FW_EP - UCR_FW_BASE), ep, sizeof(ep));
		memcpy(fw + (UCR_FW_TABLE - UCR_FW_BASE), table, len);
		blob(t, "sys/firmware/dmi/tables/smbios_entry_point", ep, sizeof(ep));
		blob(t, "sys/firmware/dmi/tables/DMI", table, len);
		blob(t, UCR_FW_FILE, fw, UCR_FW_LEN);
	}
	free(fw);
	free(table);
}

/* The host kernel's PMUs (its /sys/bus/event_source/devices: msr, uprobe,
 * tracepoint, ...) are redirected into the tree by their /sys/devices
 * names, where only the machine's own are (run/ucr_kernel.c), so that no
 * tool finds the host's by its name. */
static void host_pmus(FILE *f)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			fprintf(f, "/sys/devices/%s\n", e->d_name);
	closedir(d);
}

int ucr_tree_build(const char *root, struct ucm_model *m, struct ucp_machine *mc, char *err, size_t n)
{
	struct tree t = { root, err, n, 0, "" };
	unsigned ncpu = ucp_ncpu(mc);
	char *list = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(redirects) / sizeof(redirects[0]); i++)
		fprintf(f, "%s\n", redirects[i]);
	host_pmus(f);
	fclose(f);
	put(&t, ".redirect", "%s", list ? list : "");
	free(list);
	cpus(&t, m, mc, ucm_nsockets(m));
	pci(&t, m, mc);
	mcfg(&t);
	dmi(&t, m, mc);
	for (unsigned c = 0; c < ncpu; c++) {
		char p[64];

		snprintf(p, sizeof(p), "dev/cpu/%u/msr", c);
		device(&t, p, 0, 0600);
		snprintf(p, sizeof(p), "dev/cpu/%u/msr_safe", c);
		device(&t, p, 0, 0600);
	}
	device(&t, "dev/cpu/msr_batch", 0, 0600);
	device(&t, "dev/mem", 0, 0640);
	put(&t, "sys/module/msr/parameters/allow_writes", "on\n");
	put(&t, "proc/sys/kernel/nmi_watchdog", "0\n");
	/* the machine lets any user count system-wide, as
	 * perf_event_paranoid=-1 does: uncore run needs no root
	 * (docs/linux-driver.md) */
	put(&t, "proc/sys/kernel/perf_event_paranoid", "-1\n");
	if (!t.rc)
		t.rc = mkdirs(&t, "sys/bus/event_source/devices");
	if (t.rc && !err[0])
		snprintf(err, n, "%s: %s", root, strerror(-t.rc));
	return t.rc;
}
