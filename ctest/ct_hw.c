/*
 * ct_hw.c - the fake machines of the hardware backend's tests (ct_hw.h):
 * the trees and their builders, snapshots, the backend on a tree,
 * msr-safe's batch ioctl interposed, the CLI run on a tree.  Compiled into
 * each t_hw_* test binary (ctest/CMakeLists.txt), whose ioctl it becomes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct.h"
#include "ct_hw.h"
#include "ucb.h"
#include "ucb_hw.h"

/* ---- the fake machine ---- */

char root[256];
static void batch_unmap(void);

struct ct_hw_tree T;

void mkdirs(const char *fmt, ...)
{
	char p[512], cmd[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", p);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "mkdir %s", p);
}

void put(const char *rel, uint64_t off, const void *buf, size_t n)
{
	char p[800];
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || pwrite(fd, buf, n, (off_t)off) != (ssize_t)n)
		ct_fail(__FILE__, __LINE__, "writing %s", p);
	if (fd >= 0)
		close(fd);
}

static uint64_t get(const char *rel, uint64_t off, size_t n)
{
	char p[800];
	uint64_t v = 0;
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_RDONLY);
	if (fd < 0 || pread(fd, &v, n, (off_t)off) != (ssize_t)n)
		ct_fail(__FILE__, __LINE__, "reading %s", p);
	if (fd >= 0)
		close(fd);
	return v;
}

static void put64(const char *rel, uint64_t off, uint64_t v)
{
	put(rel, off, &v, 8);
}

void put32(const char *rel, uint64_t off, uint32_t v)
{
	put(rel, off, &v, 4);
}

void text(const char *rel, const char *s)
{
	put(rel, 0, s, strlen(s));
}

void sized(const char *rel, uint64_t size)
{
	char p[800];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (truncate(p, (off_t)size))
		ct_fail(__FILE__, __LINE__, "truncate %s", p);
}

const char *msr_rel(unsigned cpu)
{
	static char rel[64];

	snprintf(rel, sizeof(rel), "/dev/cpu/%u/%s", cpu, T.flags & MSR_SAFE ? "msr_safe" : "msr");
	return rel;
}

void put_msr(unsigned cpu, uint32_t msr, uint64_t v)
{
	put64(msr_rel(cpu), (uint64_t)msr * 8, v);
}

uint64_t get_msr(unsigned cpu, uint32_t msr)
{
	return get(msr_rel(cpu), (uint64_t)msr * 8, 8);
}

const char *fn_rel(uint8_t bus, uint8_t dev, uint8_t fn)
{
	for (unsigned i = 0; i < T.nfn; i++)
		if (T.fn[i].at.bus == bus && T.fn[i].at.dev == dev && T.fn[i].at.fn == fn)
			return T.fn[i].rel;
	ct_fail(__FILE__, __LINE__, "no function %02x:%02x.%x in the tree", bus, dev, fn);
	return "/nonexistent";
}

void put_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, uint64_t v, size_t n)
{
	put(fn_rel(bus, dev, fn), off, &v, n);
}

uint64_t get_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, size_t n)
{
	return get(fn_rel(bus, dev, fn), off, n);
}

/* A new empty tree named after the test. */
static void tree_begin(const char *name, int flags)
{
	char cmd[600];

	batch_unmap();
	snprintf(root, sizeof(root), "/tmp/uncore-t-hw-%d-%s", (int)getpid(), name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "rm");
	memset(&T, 0, sizeof(T));
	T.flags = flags;
	mkdirs("%s/proc", root);
	mkdirs("%s/dev/cpu", root);
	if (flags & MSR_SAFE)
		text("/dev/cpu/msr_batch", "");
}

/* cpu c of package pkg: its topology and its MSR device. */
static void add_cpu(unsigned c, unsigned pkg)
{
	static const uint8_t zero4k[4096];
	char rel[128], v[16];

	mkdirs("%s/sys/devices/system/cpu/cpu%u/topology", root, c);
	mkdirs("%s/dev/cpu/%u", root, c);
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
	snprintf(v, sizeof(v), "%u\n", pkg);
	text(rel, v);
	put(msr_rel(c), 0, zero4k, sizeof(zero4k));
	sized(msr_rel(c), MSR_BYTES);
	if (c + 1 > T.ncpus)
		T.ncpus = c + 1;
}

void cpuinfo(unsigned model, unsigned stepping, const char *name)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %u\n"
		 "model name\t: %s\nstepping\t: %u\n\n",
		 model, name, stepping);
	text("/proc/cpuinfo", buf);
}

void add_fn(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t did, int proc)
{
	static const uint8_t zero4k[CFG_BYTES];
	char *rel;

	if (T.nfn == MAXFN) {
		ct_fail(__FILE__, __LINE__, "too many functions");
		return;
	}
	T.fn[T.nfn].at = (struct ucb_pci){ 0, bus, dev, fn };
	rel = T.fn[T.nfn].rel;
	if (proc) {
		mkdirs("%s/proc/bus/pci/%02x", root, bus);
		snprintf(rel, sizeof(T.fn[0].rel), "/proc/bus/pci/%02x/%02x.%x", bus, dev, fn);
	} else {
		mkdirs("%s/sys/bus/pci/devices/0000:%02x:%02x.%x", root, bus, dev, fn);
		snprintf(rel, sizeof(T.fn[0].rel), "/sys/bus/pci/devices/0000:%02x:%02x.%x/config", bus, dev, fn);
	}
	T.nfn++;
	put(rel, 0, zero4k, sizeof(zero4k));
	put32(rel, 0, 0x8086u | (uint32_t)did << 16);
}

void make_tree(const char *name, int flags)
{
	tree_begin(name, flags);
	for (unsigned c = 0; c < 4; c++) {
		add_cpu(c, 0);
		put_msr(c, 0x396, 5); /* CBO_CONFIG: 4 CBos + 1 */
	}
	cpuinfo(94, 3, "Intel(R) Core(TM) i7-6700 CPU @ 3.40GHz");
	add_fn(0, 0, 0, 0x191F, flags & PCI_PROC);
	put_cfg(0, 0, 0, 0x48, BAR | 1, 8);
	text("/dev/mem", "");
	sized("/dev/mem", BAR + MEM_BYTES);
	T.mem = 1;
}

const struct pfn snbep_fns[] = {
	{ 11, 0, 0x3CE0 },                                                       /* UBox */
	{ 14, 0, 0x3CA0 }, { 14, 1, 0x3C46 },                                    /* HA, its PMON */
	{ 16, 0, 0x3CB0 }, { 16, 1, 0x3CB1 }, { 16, 4, 0x3CB4 }, { 16, 5, 0x3CB5 }, /* iMC 0-3 */
	{ 8, 2, 0x3C41 }, { 9, 2, 0x3C42 },                                      /* QPI 0, 1 */
	{ 8, 6, 0x3C86 }, { 9, 6, 0x3C96 },                                      /* mask/match */
	{ 8, 0, 0x3C80 }, { 9, 0, 0x3C90 },                                      /* QPI misc */
	{ 19, 1, 0x3C43 },                                                       /* R2PCIe */
	{ 19, 5, 0x3C44 }, { 19, 6, 0x3C45 },                                    /* R3QPI 0, 1 */
	{ 10, 0, 0x3CC0 }, { 10, 1, 0x3CC1 }, { 10, 2, 0x3CC2 }, { 10, 3, 0x3CD0 }, /* PCU */
};

const struct snbep_layout SNBEP_USUAL = { { 0x3F, 0x7F }, { 0, 1 }, { 0, 1, 2, 3, 4, 5, 6, 7 }, 0, 0 };
const struct snbep_layout SNBEP_MOVED = { { 0x1F, 0xFF }, { 5, 2 }, { 2, 5, 0, 1, 3, 4, 6, 7 }, 0, 1 };

uint32_t nodemap(const struct snbep_layout *l)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < 8; i++)
		m |= (uint32_t)l->sock_node[i] << (3 * i);
	return m;
}

const struct pfn ivt_fns[] = {
	{ 11, 0, 0x0E1E },                                                       /* UBox */
	{ 14, 1, 0x0E30 }, { 28, 1, 0x0E38 },                                    /* HA 0, 1 */
	{ 16, 4, 0x0EB4 }, { 16, 5, 0x0EB5 }, { 16, 0, 0x0EB0 }, { 16, 1, 0x0EB1 }, /* MC0 */
	{ 30, 4, 0x0EF4 }, { 30, 5, 0x0EF5 }, { 30, 0, 0x0EF0 }, { 30, 1, 0x0EF1 }, /* MC1 */
	{ 8, 2, 0x0E32 }, { 9, 2, 0x0E33 },                                      /* QPI 0, 1 */
	{ 8, 6, 0x0E86 }, { 9, 6, 0x0E96 },                                      /* mask/match */
	{ 8, 0, 0x0E80 }, { 9, 0, 0x0E90 },                                      /* QPI misc */
	{ 19, 1, 0x0E34 },                                                       /* R2PCIe */
	{ 19, 5, 0x0E36 }, { 19, 6, 0x0E37 },                                    /* R3QPI 0, 1 */
	{ 5, 6, 0x0E39 },                                                        /* IRP */
	{ 10, 0, 0x0EC0 }, { 10, 1, 0x0EC1 }, { 10, 2, 0x0EC2 }, { 10, 3, 0x0EC3 }, /* PCU */
};

void make_ivt(const char *name, int flags)
{
	tree_begin(name, flags);
	for (unsigned c = 0; c < MAXCPU_T; c++) {
		add_cpu(c, c / 8);
		/* the MSR box controls: PCU and 15 CBos */
		put_msr(c, 0xC24, 0x30000);
		for (unsigned n = 0; n < 15; n++)
			put_msr(c, 0xD04 + 0x20 * n, 0x30000);
	}
	cpuinfo(62, 4, "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz");
	for (unsigned b = 0; b < 2; b++) {
		unsigned bus = b ? 0x7F : 0x3F;

		for (unsigned i = 0; i < NIVT_FNS; i++) {
			add_fn(bus, ivt_fns[i].dev, ivt_fns[i].fn, ivt_fns[i].did, 0);
			/* the boxes with a box control: not the UBox and PCU
			 * functions nor the QPI misc and mask/match functions */
			if (ivt_fns[i].dev != 11 && ivt_fns[i].dev != 10 && !((ivt_fns[i].dev == 8 || ivt_fns[i].dev == 9) &&
						      (ivt_fns[i].fn == 0 || ivt_fns[i].fn == 6)))
				put_cfg(bus, ivt_fns[i].dev, ivt_fns[i].fn, 0xF4, 0x30000, 4);
		}
		put_cfg(bus, 11, 0, 0x40, b, 4);
		put_cfg(bus, 11, 0, 0x54, 0xFAC688, 4);
		put_cfg(bus, 8, 0, 0xD4, 5, 4);
		put_cfg(bus, 9, 0, 0xD4, 5, 4);
	}
}

void make_snbep(const char *name, int flags, const struct snbep_layout *l)
{
	tree_begin(name, flags);
	for (unsigned c = 0; c < MAXCPU_T; c++)
		add_cpu(c, l->interleaved ? c % 2 : c / 8);
	cpuinfo(45, 7, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz");
	for (unsigned b = 0; b < 2; b++) {
		int proc = (flags & PCI_PROC) || ((flags & PCI_SPLIT) && b == 1);

		for (unsigned i = 0; i < NSNBEP_FNS; i++)
			add_fn(l->bus[b], snbep_fns[i].dev, snbep_fns[i].fn, snbep_fns[i].did, proc);
		put_cfg(l->bus[b], 11, 0, 0x40, l->node[b], 4);
		put_cfg(l->bus[b], 11, 0, 0x54, nodemap(l), 4);
		/* QPI_RATE_STATUS: 8.0 GT/s, as a trained link reads */
		put_cfg(l->bus[b], 8, 0, 0xD4, 5, 4);
		put_cfg(l->bus[b], 9, 0, 0xD4, 5, 4);
	}
	if (l->decoy) {
		/* all but its device ID says socket 0's uncore */
		add_fn(0x80, 11, 0, 0x0E1E, flags & PCI_PROC);
		put_cfg(0x80, 11, 0, 0x40, l->node[1], 4);
		put_cfg(0x80, 11, 0, 0x54, nodemap(l), 4);
	}
}

void rm_tree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "rm");
}

/* ---- snapshots ---- */

void slurp(const char *rel, uint64_t off, void *buf, size_t n)
{
	char p[800];
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_RDONLY);
	if (fd < 0 || pread(fd, buf, n, (off_t)off) != (ssize_t)n)
		ct_fail(__FILE__, __LINE__, "read %s", p);
	if (fd >= 0)
		close(fd);
}

void snapshot(struct snap *s)
{
	for (unsigned c = 0; c < T.ncpus; c++)
		slurp(msr_rel(c), 0, s->msr[c], MSR_BYTES);
	for (unsigned i = 0; i < T.nfn; i++)
		slurp(T.fn[i].rel, 0, s->cfg[i], CFG_BYTES);
	if (T.mem)
		slurp("/dev/mem", BAR, s->mem, MEM_BYTES);
}

struct snap *snap_new(void)
{
	struct snap *s = calloc(1, sizeof(*s));

	if (!s)
		ct_fail(__FILE__, __LINE__, "out of memory");
	return s;
}

int check_same_at(const struct snap *a, const struct snap *b, const char *when, const char *file, int line)
{
	int bad = 0;

	for (unsigned c = 0; c < T.ncpus; c++)
		for (unsigned i = 0; i < MSR_BYTES; i++)
			if (a->msr[c][i] != b->msr[c][i]) {
				ct_fail(file, line, "%s: cpu %u MSR 0x%x byte %u differs: 0x%02x, was 0x%02x",
					when, c, i / 8, i % 8, b->msr[c][i], a->msr[c][i]);
				bad = 1;
				break;
			}
	for (unsigned f = 0; f < T.nfn; f++)
		for (unsigned i = 0; i < CFG_BYTES; i++)
			if (a->cfg[f][i] != b->cfg[f][i]) {
				ct_fail(file, line, "%s: PCI %02x:%02x.%x offset 0x%x differs: 0x%02x, was 0x%02x",
					when, T.fn[f].at.bus, T.fn[f].at.dev, T.fn[f].at.fn, i, b->cfg[f][i],
					a->cfg[f][i]);
				bad = 1;
				break;
			}
	if (memcmp(a->mem, b->mem, sizeof(a->mem))) {
		ct_fail(file, line, "%s: MMIO differs", when);
		bad = 1;
	}
	return bad;
}

/* ---- the backend and the driver on the tree ---- */

struct ucb *hw(int msr)
{
	struct ucb_hw_opts o = { root, msr, UCB_HW_AUTO };
	struct ucb *b;
	char err[512];

	if (ucb_hw_create(&o, &b, err, sizeof(err))) {
		ct_fail(__FILE__, __LINE__, "hw: %s", err);
		return NULL;
	}
	return b;
}

/* ---- msr-safe's batch ioctl, interposed: the test binary's ioctl wins
 * over libc's for the backend linked into it ---- */

struct fake_op {
	uint16_t cpu, isrdmsr;
	int32_t err;
	uint32_t msr;
	uint64_t msrdata, wmask;
};
struct fake_arr {
	uint32_t numops, version;
	struct fake_op *ops;
};

unsigned batch_calls, batch_ops;
uint32_t batch_cpus; /* bit per cpu the last batches named */
static void *batch_map[MAXCPU_T]; /* each cpu's msr_safe file, mapped at its first batch */

/* The tree is about to change: its files are new ones. */
static void batch_unmap(void)
{
	for (unsigned c = 0; c < MAXCPU_T; c++)
		if (batch_map[c]) {
			munmap(batch_map[c], MSR_BYTES);
			batch_map[c] = NULL;
		}
}

/* msr-safe's batch: one system call, as the real device costs (the ioctl
 * itself is made, and fails on the tree's plain file, so that strace
 * counts it), then every operation on the tree's files through mappings
 * made at a cpu's first batch, which cost no system call afterwards. */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == (unsigned long)_IOWR('c', 0xA2, struct fake_arr)) {
		struct fake_arr *a = arg;

		(void)syscall(SYS_ioctl, fd, req, arg);
		batch_calls++;
		for (uint32_t i = 0; i < a->numops; i++) {
			struct fake_op *op = &a->ops[i];

			if (op->cpu < MAXCPU_T && !batch_map[op->cpu]) {
				char p[512];
				int mfd;

				snprintf(p, sizeof(p), "%s/dev/cpu/%u/msr_safe", root, op->cpu);
				if ((mfd = open(p, O_RDWR)) >= 0) {
					void *m = mmap(NULL, MSR_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);

					batch_map[op->cpu] = m == MAP_FAILED ? NULL : m;
					close(mfd);
				}
			}
			if (op->cpu >= MAXCPU_T || !batch_map[op->cpu])
				op->err = ENXIO;
			else if ((uint64_t)op->msr * 8 + 8 > MSR_BYTES)
				op->err = EIO;
			else {
				char *at = (char *)batch_map[op->cpu] + (size_t)op->msr * 8;

				memcpy(op->isrdmsr ? (void *)&op->msrdata : at, op->isrdmsr ? at : (void *)&op->msrdata, 8);
				op->err = 0;
			}
			if (op->cpu < 32)
				batch_cpus |= 1u << op->cpu;
			batch_ops++;
		}
		return 0;
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

/* ---- the driver and the CLI on the tree ---- */

const char *EVENTS = "uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_OCCUPANCY.ALL";
/* One event of every E5-2600 box type: UBox fixed and general counter,
 * CBo with its filter (LLC_LOOKUP's state), PCU (with an occupancy),
 * HA, iMC general and fixed, QPI, R2PCIe, R3QPI. */
const char *SNBEP_EVENTS = "UNC_U_CLOCKTICKS,UNC_U_LOCK_CYCLES,UNC_C_LLC_LOOKUP.DATA_READ,"
			   "UNC_P_CLOCKTICKS,UNC_P_POWER_STATE_OCCUPANCY.CORES_C0,UNC_H_REQUESTS.READS,cas_rd,"
			   "UNC_M_DCLOCKTICKS,UNC_Q_CLOCKTICKS,UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS";

unsigned pci_counter_in_use(uint8_t bus, uint8_t dev, uint8_t fn)
{
	for (unsigned k = 0; k < 4; k++)
		if (get_cfg(bus, dev, fn, 0xD8 + 4 * k, 4) & (1u << 22))
			return 0xA0 + 8 * k;
	ct_fail(__FILE__, __LINE__, "no counter of %02x:%02x.%x is enabled", bus, dev, fn);
	return 0xA0;
}

/* every box control we froze is unfrozen again (frz_en without frz,
 * 2.1.1 f), the last step of the start */
int snbep_counting(void)
{
	int unfrozen = 0;

	for (unsigned c = 0; c < MAXCPU_T; c += 8) {
		for (unsigned n = 0; n <= 8; n++) {
			uint64_t v = get_msr(c, n < 8 ? 0xD04 + 0x20 * n : 0xC24);

			if (v & 0x100)
				return 0;
			unfrozen |= v == 0x10000;
		}
	}
	for (unsigned i = 0; i < T.nfn; i++) {
		uint64_t v = get(T.fn[i].rel, 0xF4, 4);

		if (v & 0x100)
			return 0;
		unfrozen |= v == 0x10000;
	}
	return unfrozen;
}

int run_cli(char *out, size_t n, const char *const *args)
{
	int pfd[2], st;
	pid_t pid;
	ssize_t k = 0, r;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 2);
		dup2(pfd[1], 1);
		close(pfd[0]);
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(126);
		execv(UNCORE_BIN, (char *const *)args);
		_exit(127);
	}
	close(pfd[1]);
	while (k < (ssize_t)n - 1 && (r = read(pfd[0], out + k, n - 1 - (size_t)k)) > 0)
		k += r;
	out[k > 0 ? k : 0] = 0;
	/* drain the rest, so the child never blocks on a full pipe */
	while (read(pfd[0], &st, sizeof(st)) > 0)
		;
	close(pfd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void tree_open_to_all(void)
{
	char p[600];

	snprintf(p, sizeof(p), "chmod -R a+rwX '%s'", root);
	if (system(p))
		ct_fail(__FILE__, __LINE__, "chmod");
}
