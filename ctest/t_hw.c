/*
 * t_hw.c - the hardware backend without root or Intel hardware: fake trees
 * of ordinary files under a root directory (pread/pwrite at an offset and
 * mmap work on files as on the devices), one builder for every platform:
 * a Skylake-client desktop and a two-socket Xeon E5-2600 (on the usual
 * uncore buses 0x3F/0x7F, and on buses firmware numbered otherwise).
 * Checked for each: the same accesses in the same order as on the
 * simulator; the values the tree holds; every register left as found on
 * normal exit, error exit, SIGINT, SIGTERM and SIGHUP; no write outside the
 * platform's registers over whole address ranges; counters in use and a
 * mismatched platform refused; msr-safe's batch ioctl (interposed) once per
 * sample; a clear one-line error for each way the machine can refuse.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct.h"
#include "ucb.h"
#include "ucb_hw.h"
#include "ucd.h"
#include "ucm.h"

#define BAR 0xFED10000ull
#define MSR_BYTES (0x1000 * 8)  /* MSRs 0..0xFFF at 8 bytes each */
#define CFG_BYTES 4096          /* PCIe configuration space of a function */
#define MEM_BYTES 0x8000        /* the MMIO window kept in snapshots */
#define MAXCPU_T 16
#define MAXFN 48

/* ---- the fake machine ---- */

enum {
	MSR_SAFE = 1,     /* msr-safe's devices instead of the msr driver's */
	PCI_PROC = 2,     /* PCI configuration in /proc/bus/pci only, no sysfs */
	PCI_SPLIT = 4,    /* sysfs shows the first uncore bus only; the second
			   * is in /proc/bus/pci alone */
};

static char root[256];
static void batch_unmap(void);

/* What the current tree holds, for snapshots. */
static struct {
	int flags;
	unsigned ncpus;
	unsigned nfn;
	struct {
		struct ucb_pci at;
		char rel[96];
	} fn[MAXFN];
	int mem;             /* /dev/mem with the window at BAR */
} T;

static void mkdirs(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mkdirs(const char *fmt, ...)
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

static void put(const char *rel, uint64_t off, const void *buf, size_t n)
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

static void put32(const char *rel, uint64_t off, uint32_t v)
{
	put(rel, off, &v, 4);
}

static void text(const char *rel, const char *s)
{
	put(rel, 0, s, strlen(s));
}

static void sized(const char *rel, uint64_t size)
{
	char p[800];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (truncate(p, (off_t)size))
		ct_fail(__FILE__, __LINE__, "truncate %s", p);
}

static const char *msr_rel(unsigned cpu)
{
	static char rel[64];

	snprintf(rel, sizeof(rel), "/dev/cpu/%u/%s", cpu, T.flags & MSR_SAFE ? "msr_safe" : "msr");
	return rel;
}

/* A test tree keeps MSR n at byte 8n (docs/hw-validation.md). */
static void put_msr(unsigned cpu, uint32_t msr, uint64_t v)
{
	put64(msr_rel(cpu), (uint64_t)msr * 8, v);
}

static uint64_t get_msr(unsigned cpu, uint32_t msr)
{
	return get(msr_rel(cpu), (uint64_t)msr * 8, 8);
}

static const char *fn_rel(uint8_t bus, uint8_t dev, uint8_t fn)
{
	for (unsigned i = 0; i < T.nfn; i++)
		if (T.fn[i].at.bus == bus && T.fn[i].at.dev == dev && T.fn[i].at.fn == fn)
			return T.fn[i].rel;
	ct_fail(__FILE__, __LINE__, "no function %02x:%02x.%x in the tree", bus, dev, fn);
	return "/nonexistent";
}

static void put_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, uint64_t v, size_t n)
{
	put(fn_rel(bus, dev, fn), off, &v, n);
}

static uint64_t get_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, size_t n)
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

static void cpuinfo(unsigned model, unsigned stepping, const char *name)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %u\n"
		 "model name\t: %s\nstepping\t: %u\n\n",
		 model, name, stepping);
	text("/proc/cpuinfo", buf);
}

/* A PCI function with its vendor and device ID, its configuration space
 * where sysfs shows it or, with proc, only in /proc/bus/pci. */
static void add_fn(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t did, int proc)
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

/* A Skylake desktop as the kernel shows it: 4 cpus in one package, the
 * msr devices, the host bridge's config space, physical memory. */
static void make_tree(const char *name, int flags)
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

/* The PCI functions of the E5-2600 uncore on each socket's bus, as the
 * public facts list them (Linux uncore_snbep.c, pci_ids.h; QPI misc from
 * lspci) and independently of the model's tables, which are checked
 * against them this way. */
static const struct {
	uint8_t dev, fn;
	uint16_t did;
} snbep_fns[] = {
	{ 11, 0, 0x3CE0 },                                                       /* UBox */
	{ 14, 1, 0x3C46 },                                                       /* HA */
	{ 16, 0, 0x3CB0 }, { 16, 1, 0x3CB1 }, { 16, 4, 0x3CB4 }, { 16, 5, 0x3CB5 }, /* iMC 0-3 */
	{ 8, 2, 0x3C41 }, { 9, 2, 0x3C42 },                                      /* QPI 0, 1 */
	{ 8, 6, 0x3C86 }, { 9, 6, 0x3C96 },                                      /* mask/match */
	{ 8, 0, 0x3C80 }, { 9, 0, 0x3C90 },                                      /* QPI misc */
	{ 19, 1, 0x3C43 },                                                       /* R2PCIe */
	{ 19, 5, 0x3C44 }, { 19, 6, 0x3C45 },                                    /* R3QPI 0, 1 */
};
#define NSNBEP_FNS (sizeof(snbep_fns) / sizeof(snbep_fns[0]))

/* How a two-socket E5-2600 box numbers its uncore: the bus of each UBox,
 * the node ID it reports (CPUNODEID, 0x40) and the node of each socket
 * (GIDNIDMAP, 0x54: three bits per socket); and how cpus are numbered. */
struct snbep_layout {
	uint8_t bus[2];
	uint8_t node[2];
	uint8_t sock_node[8];
	int interleaved;     /* cpu c in package c % 2, else c / 8 (as the model) */
	int decoy;           /* a foreign UBox (Ivy Bridge-EP's 0x0E1E) on bus 0x80 */
};
/* the usual numbering: socket i on the bus of node i */
static const struct snbep_layout SNBEP_USUAL = { { 0x3F, 0x7F }, { 0, 1 }, { 0, 1, 2, 3, 4, 5, 6, 7 }, 0, 0 };
/* firmware's own: socket 0 is node 2 on bus 0xFF, socket 1 node 5 on 0x1F */
static const struct snbep_layout SNBEP_MOVED = { { 0x1F, 0xFF }, { 5, 2 }, { 2, 5, 0, 1, 3, 4, 6, 7 }, 0, 1 };

static uint32_t nodemap(const struct snbep_layout *l)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < 8; i++)
		m |= (uint32_t)l->sock_node[i] << (3 * i);
	return m;
}

/* The E5-2600 v2's functions on an uncore bus (docs/platform-ivt.md;
 * ivt-facts.md §7-§13). */
static const struct pfn {
	uint8_t dev, fn;
	uint16_t did;
} ivt_fns[] = {
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
};
#define NIVT_FNS (sizeof(ivt_fns) / sizeof(ivt_fns[0]))

/* A two-socket E5-2600 v2 with 8 cpus a package (the tree's 16; the
 * simulator it is compared with is configured alike, with 15 CBos), buses
 * 0x3F/0x7F;
 * box controls read 0x30000 as out of reset (V6). */
static void make_ivt(const char *name, int flags)
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
			/* the boxes with a box control: not the UBox function nor
			 * the QPI misc and mask/match functions */
			if (ivt_fns[i].dev != 11 && !((ivt_fns[i].dev == 8 || ivt_fns[i].dev == 9) &&
						      (ivt_fns[i].fn == 0 || ivt_fns[i].fn == 6)))
				put_cfg(bus, ivt_fns[i].dev, ivt_fns[i].fn, 0xF4, 0x30000, 4);
		}
		put_cfg(bus, 11, 0, 0x40, b, 4);
		put_cfg(bus, 11, 0, 0x54, 0xFAC688, 4);
		put_cfg(bus, 8, 0, 0xD4, 5, 4);
		put_cfg(bus, 9, 0, 0xD4, 5, 4);
	}
}

/* A two-socket Xeon E5-2600: 16 cpus, the MSR devices, and on each uncore
 * bus the functions above with a UBox that tells which node the bus is. */
static void make_snbep(const char *name, int flags, const struct snbep_layout *l)
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

static void rm_tree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "rm");
}

/* The bytes of every register file of the tree, to compare before and
 * after. */
struct snap {
	uint8_t msr[MAXCPU_T][MSR_BYTES];
	uint8_t cfg[MAXFN][CFG_BYTES];
	uint8_t mem[MEM_BYTES];
};

static void slurp(const char *rel, uint64_t off, void *buf, size_t n)
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

static void snapshot(struct snap *s)
{
	for (unsigned c = 0; c < T.ncpus; c++)
		slurp(msr_rel(c), 0, s->msr[c], MSR_BYTES);
	for (unsigned i = 0; i < T.nfn; i++)
		slurp(T.fn[i].rel, 0, s->cfg[i], CFG_BYTES);
	if (T.mem)
		slurp("/dev/mem", BAR, s->mem, MEM_BYTES);
}

static struct snap *snap_new(void)
{
	struct snap *s = calloc(1, sizeof(*s));

	if (!s)
		ct_fail(__FILE__, __LINE__, "out of memory");
	return s;
}

/* Names the first byte that differs in each register file. */
static int check_same_at(const struct snap *a, const struct snap *b, const char *when, int line)
{
	int bad = 0;

	for (unsigned c = 0; c < T.ncpus; c++)
		for (unsigned i = 0; i < MSR_BYTES; i++)
			if (a->msr[c][i] != b->msr[c][i]) {
				ct_fail(__FILE__, line, "%s: cpu %u MSR 0x%x byte %u differs: 0x%02x, was 0x%02x",
					when, c, i / 8, i % 8, b->msr[c][i], a->msr[c][i]);
				bad = 1;
				break;
			}
	for (unsigned f = 0; f < T.nfn; f++)
		for (unsigned i = 0; i < CFG_BYTES; i++)
			if (a->cfg[f][i] != b->cfg[f][i]) {
				ct_fail(__FILE__, line, "%s: PCI %02x:%02x.%x offset 0x%x differs: 0x%02x, was 0x%02x",
					when, T.fn[f].at.bus, T.fn[f].at.dev, T.fn[f].at.fn, i, b->cfg[f][i],
					a->cfg[f][i]);
				bad = 1;
				break;
			}
	if (memcmp(a->mem, b->mem, sizeof(a->mem))) {
		ct_fail(__FILE__, line, "%s: MMIO differs", when);
		bad = 1;
	}
	return bad;
}
#define check_same(a, b, when) check_same_at(a, b, when, __LINE__)

static struct ucb *hw(int msr)
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

static unsigned batch_calls, batch_ops;
static uint32_t batch_cpus; /* bit per cpu the last batches named */
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

/* ---- access sequences ---- */

static const char *EVENTS = "uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_OCCUPANCY.ALL";
/* One event of every E5-2600 box type: UBox fixed and general counter,
 * CBo with its filter (LLC_LOOKUP's state), PCU and its C-state counter,
 * HA, iMC general and fixed, QPI, R2PCIe, R3QPI. */
static const char *SNBEP_EVENTS = "UNC_U_CLOCKTICKS,UNC_U_LOCK_CYCLES,UNC_C_LLC_LOOKUP.DATA_READ,"
				  "UNC_P_CLOCKTICKS,UNC_P_CORE_C6_CYCLES,UNC_H_REQUESTS.READS,cas_rd,"
				  "UNC_M_DCLOCKTICKS,UNC_Q_CLOCKTICKS,UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS";

/* A driver session through a recorder; the log is left at path. */
static int session(struct ucb *base, const char *path, const char *events, uint64_t ns)
{
	struct ucb *rec;
	struct ucd *d;
	char err[512];
	int rc;

	if (ucb_rec_create(base, path, &rec, err, sizeof(err)))
		return -1;
	rc = ucd_open(rec, NULL, &d);
	if (!rc && !strcmp(base->ops->name, "hw"))
		rc = ucb_hw_allow(base, ucd_platform(d), ucd_mmio_base(d));
	if (!rc)
		rc = ucd_add_events(d, events);
	if (!rc)
		rc = ucd_run(d, ns, 0, NULL, NULL);
	if (!rc)
		rc = ucd_restore(d);
	if (rc)
		fprintf(stderr, "session: %s\n", ucd_error(d));
	ucd_close(d);
	if (!rc)
		rc = ucb_rec_commit(rec, err, sizeof(err));
	ucb_destroy(rec);
	return rc;
}

/* The same session on the simulator of platform plat, strict: the driver
 * did nothing the manual calls undefined. */
static int sim_session_cfg(struct ucm_config *cfg, const char *path, const char *events, uint64_t ns)
{
	struct ucm_model *m;
	struct ucb *sim;
	int rc;

	cfg->strict = 1;
	if (ucm_create(cfg, &m))
		return -1;
	if (ucb_sim_create(m, &sim)) {
		ucm_destroy(m);
		return -1;
	}
	rc = session(sim, path, events, ns);
	if (!rc && ucm_strict_count(m)) {
		fprintf(stderr, "sim_session: %zu strict-mode records\n", (size_t)ucm_strict_count(m));
		rc = -1;
	}
	ucb_destroy(sim);
	ucm_destroy(m);
	return rc;
}

static int sim_session(const char *plat, const char *path, const char *events, uint64_t ns)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	return sim_session_cfg(&cfg, path, events, ns);
}

/* The accesses of a log: operation and arguments; what a read returned and
 * when are the machine's, not the driver's. */
static int next_access(FILE *f, char *buf, size_t n)
{
	while (fgets(buf, (int)n, f)) {
		char *arrow = strstr(buf, " ->");

		if (buf[0] == '#' || !strncmp(buf, "uncore-access", 13))
			continue;
		if (arrow)
			*arrow = 0;
		if (!strncmp(buf, "now", 3))
			buf[3] = 0;
		return 1;
	}
	return 0;
}

struct accesses {
	size_t n;
	char (*a)[512];
};

/* The accesses of a log with the PCI buses renamed by map (NULL: as they
 * are); those to function skip (dev << 3 | fn, -1: none) left out. */
static int load_accesses(const char *path, const uint8_t *map, int skip, struct accesses *out)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -1;
	while (next_access(f, line, sizeof(line))) {
		unsigned seg, bus, dev, fn;
		char op[16];
		int k = 0;

		if (sscanf(line, "%15s %x:%x:%x.%x%n", op, &seg, &bus, &dev, &fn, &k) == 5 &&
		    !strncmp(op, "pci", 3)) {
			if (skip >= 0 && (int)(dev << 3 | fn) == skip)
				continue;
			if (map) {
				char rest[400];

				snprintf(rest, sizeof(rest), "%s", line + k);
				snprintf(line, sizeof(line), "%s %04x:%02x:%02x.%x%s", op, seg & 0xFFFF, map[bus & 0xFF],
					 dev & 0x1F, fn & 7, rest);
			}
		}
		if (out->n == cap) {
			void *p = realloc(out->a, (cap = cap ? 2 * cap : 256) * sizeof(*out->a));

			if (!p) {
				fclose(f);
				return -1;
			}
			out->a = p;
		}
		memcpy(out->a[out->n++], line, sizeof(line));
	}
	fclose(f);
	return 0;
}

/* Both lists the same; the number compared, 0 on a difference. */
static size_t same_accesses_at(const struct accesses *sim, const struct accesses *h, int line)
{
	for (size_t i = 0; i < sim->n || i < h->n; i++) {
		const char *a = i < sim->n ? sim->a[i] : "(end)", *b = i < h->n ? h->a[i] : "(end)";

		if (strcmp(a, b)) {
			ct_fail(__FILE__, line, "access %zu: simulator '%s', hardware '%s'", i + 1, a, b);
			return 0;
		}
	}
	return sim->n;
}
#define same_accesses(a, b) same_accesses_at(a, b, __LINE__)

static size_t count_accesses(const struct accesses *x, const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		n += strstr(x->a[i], needle) != NULL;
	return n;
}

/* The cpus MSR accesses went through, a bit each. */
static uint32_t msr_cpus(const struct accesses *x)
{
	uint32_t m = 0;

	for (size_t i = 0; i < x->n; i++) {
		unsigned cpu;

		if ((sscanf(x->a[i], "rdmsr %u", &cpu) == 1 || sscanf(x->a[i], "wrmsr %u", &cpu) == 1) && cpu < 32)
			m |= 1u << cpu;
	}
	return m;
}

/* PCI accesses of 8 bytes: the kernel would split them, the driver must
 * not rely on that (public facts: Linux reads two dwords). */
static size_t pci_width8(const struct accesses *x)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++) {
		unsigned off, w;

		if (!strncmp(x->a[i], "pci", 3) && sscanf(x->a[i], "%*s %*s %x %u", &off, &w) == 2 && w == 8)
			n++;
	}
	return n;
}

/* Issue 6, done-when: the same register accesses, in the same order, as on
 * the simulated backend. */
CT_TEST(hw_performs_the_same_accesses_as_the_simulator)
{
	char simlog[300], hwlog[300];
	struct accesses s, h;
	struct ucb *b;

	make_tree("same", 0);
	snprintf(simlog, sizeof(simlog), "%s/sim.log", root);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE(sim_session("skl", simlog, EVENTS, 50000000) == 0);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, EVENTS, 50000000) == 0);
	ucb_destroy(b);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &s) == 0 && load_accesses(hwlog, NULL, -1, &h) == 0);
	CT_CHECK(same_accesses(&s, &h) > 40);
	free(s.a);
	free(h.a);
	rm_tree();
}

/* The same on a two-socket Xeon E5-2600, with PCI configuration through
 * sysfs, through /proc/bus/pci alone, and through sysfs for one bus and
 * the /proc fallback for the other: the scan of every bus for the UBox,
 * socket 1's MSRs on a cpu of package 1, every PCI box on both buses, the
 * 48-bit PCI counters as dwords (high, low, high); and the tree as found
 * afterwards. */
CT_TEST(snbep_hw_performs_the_same_accesses_as_the_simulator)
{
	static const int flags[] = { 0, PCI_PROC, PCI_SPLIT };
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses s, h;

	CT_REQUIRE(before && after);
	make_snbep("snbep-same", 0, &SNBEP_USUAL);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-snbep-sim.log", (int)getpid());
	CT_REQUIRE(sim_session("snbep", simlog, SNBEP_EVENTS, 50000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &s) == 0);
	unlink(simlog);
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct ucb *b;

		make_snbep("snbep-same", flags[i], &SNBEP_USUAL);
		snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
		snapshot(before);
		CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
		CT_CONTAINS(ucb_hw_describe(b), flags[i] & PCI_PROC ? "PCI via /proc/bus/pci" : "PCI via sysfs");
		CT_REQUIRE(session(b, hwlog, SNBEP_EVENTS, 50000000) == 0);
		ucb_destroy(b);
		snapshot(after);
		check_same(before, after, "after the session");
		CT_REQUIRE(load_accesses(hwlog, NULL, -1, &h) == 0);
		CT_CHECK(same_accesses(&s, &h) > 400);
		/* what the comparison covers: the scan, both sockets, every box */
		CT_EQ(count_accesses(&h, ":0b.0 0x0 2"), 256 + 1);
		CT_CHECK(count_accesses(&h, "wrmsr 8 0xd10 ") > 0);
		CT_EQ(msr_cpus(&h), (1u << 0) | (1u << 8)); /* the first cpu of each package */
		for (unsigned f = 1; f < NSNBEP_FNS; f++) {
			char want[64];

			/* every PMON function on both buses (misc and mask/match
			 * hold no counter: only HA.. R3QPI are programmed) */
			if (snbep_fns[f].fn == 0 || snbep_fns[f].fn == 6)
				continue;
			snprintf(want, sizeof(want), "pciwr 0000:7f:%02x.%x 0xf4 4", snbep_fns[f].dev, snbep_fns[f].fn);
			if (!count_accesses(&h, want))
				ct_fail(__FILE__, __LINE__, "no '%s' in the hardware log", want);
		}
		CT_CHECK(count_accesses(&h, "pcird 0000:3f:10.0 0xa4 4") >= 2);
		CT_CHECK(count_accesses(&h, "pcird 0000:3f:10.0 0xa0 4") >= 1);
		CT_EQ(pci_width8(&h), 0); /* 8-byte registers as two dwords */
		free(h.a);
	}
	free(s.a);
	rm_tree();
	free(before);
	free(after);
}

/* One event of every E5-2600 v2 box type: UBox general and fixed, CBo with
 * its FILTER0 state, PCU, HA 1, iMC general and fixed on MC1, QPI, R2PCIe,
 * R3QPI and the IRP at its irregular offsets. */
static const char *IVT_EVENTS = "UNC_U_CLOCKTICKS,uclk_fixed,UNC_C_LLC_LOOKUP.DATA_READ,UNC_P_CLOCKTICKS,"
				"ha1/event=0x0/,imc5/UNC_M_CAS_COUNT.RD/,dclk_fixed,UNC_Q_CLOCKTICKS,"
				"UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS,UNC_I_CLOCKTICKS";

/* The E5-2600 v2 on the hardware backend: detected from CPUID model 0x3E
 * and the UBox function 0x0E1E, the same accesses as the simulator
 * configured alike (two sockets of 8 cpus), the box controls written with
 * 17:16 set, every register left as found. */
CT_TEST(ivt_hw_performs_the_same_accesses_as_the_simulator)
{
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct ucm_config cfg;
	struct accesses sacc, hacc;
	struct ucb *b;

	CT_REQUIRE(before && after);
	make_ivt("ivt-same", 0);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-ivt-sim.log", (int)getpid());
	ucm_config_init(&cfg, ucm_platform_find("ivt"));
	cfg.cpus_per_socket = 8;
	/* the tree's MSR files answer every address: all 15 CBos answer the
	 * driver's probe, as on a part with the whole die enabled */
	cfg.ninst[ucm_boxtype_index(cfg.plat, cfg.plat->counted)] = 15;
	CT_REQUIRE(sim_session_cfg(&cfg, simlog, IVT_EVENTS, 50000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &sacc) == 0);
	unlink(simlog);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	snapshot(before);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, IVT_EVENTS, 50000000) == 0);
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after the session");
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &hacc) == 0);
	CT_CHECK(same_accesses(&sacc, &hacc) > 200);
	CT_CHECK(count_accesses(&hacc, "wrmsr 8 0xd04 ") > 0);       /* CBo 0 box control */
	CT_CHECK(count_accesses(&hacc, "pciwr 0000:7f:1e.5 0xf4 4") > 0); /* MC1 ch1 box control */
	CT_CHECK(count_accesses(&hacc, "pcird 0000:3f:05.6 0xa4 4") >= 1); /* IRP counter 0 */
	CT_CHECK(count_accesses(&hacc, "pciwr 0000:3f:1c.1 0xd8 4") > 0); /* HA 1 control 0 */
	free(hacc.a);
	free(sacc.a);
	rm_tree();
	free(before);
	free(after);
}

/* Issue 6: find each socket's uncore bus as the hardware describes it.  On
 * a box whose firmware put socket 0 (node 2) on bus 0xFF and socket 1
 * (node 5) on bus 0x1F, next to a foreign UBox, the driver and the
 * backend's allow-list follow the node IDs: the session is the simulator's
 * with its buses renamed, writes go to 0xFF/0x1F and nothing else, and the
 * usual buses 0x3F/0x7F cannot be written. */
CT_TEST(snbep_hw_finds_the_uncore_buses_the_firmware_chose)
{
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses s, h, scan;
	uint8_t map[256];
	unsigned bus[8], sock[8];
	struct ucb *b;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_snbep("snbep-moved", 0, &SNBEP_MOVED);
	snprintf(simlog, sizeof(simlog), "%s/sim.log", root);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE(sim_session("snbep", simlog, SNBEP_EVENTS, 50000000) == 0);
	snapshot(before);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, SNBEP_EVENTS, 50000000) == 0);
	/* the backend's own view: both buses, with their sockets */
	CT_EQ(ucb_hw_buses(b, bus, sock, 8), 2);
	CT_EQ(bus[0], 0x1F);
	CT_EQ(sock[0], 1);
	CT_EQ(bus[1], 0xFF);
	CT_EQ(sock[1], 0);
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after the session");

	/* everything but the UBox function: the simulator's session on its
	 * buses (socket 0 0x3F, socket 1 0x7F) renamed */
	for (unsigned i = 0; i < 256; i++)
		map[i] = (uint8_t)i;
	map[0x3F] = 0xFF;
	map[0x7F] = 0x1F;
	CT_REQUIRE(load_accesses(simlog, map, 11 << 3, &s) == 0 && load_accesses(hwlog, NULL, 11 << 3, &h) == 0);
	CT_CHECK(same_accesses(&s, &h) > 400);
	CT_CHECK(count_accesses(&h, "0000:ff:0e.1") > 0 && count_accesses(&h, "0000:1f:0e.1") > 0);
	CT_EQ(count_accesses(&h, "0000:3f:") + count_accesses(&h, "0000:7f:"), 0);
	free(s.a);
	/* and a simulator configured like this box (ucm_config.pci_bus,
	 * node_id: socket 0 node 2 on 0xFF, socket 1 node 5 on 0x1F) makes the
	 * same accesses without renaming (the foreign UBox on bus 0x80 aside) */
	{
		struct ucm_config cfg;

		ucm_config_init(&cfg, ucm_platform_find("snbep"));
		cfg.pci_bus[0] = 0xFF;
		cfg.pci_bus[1] = 0x1F;
		cfg.node_id[0] = 2;
		cfg.node_id[1] = 5;
		CT_REQUIRE(sim_session_cfg(&cfg, simlog, SNBEP_EVENTS, 50000000) == 0);
		CT_REQUIRE(load_accesses(simlog, NULL, 11 << 3, &s) == 0);
		CT_CHECK(same_accesses(&s, &h) > 400);
		free(s.a);
	}
	free(h.a);
	/* the UBox function: the ID of D11:F0 on every bus, the node ID and
	 * map where it is the E5-2600's, then socket 0's again (identify) */
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &scan) == 0);
	{
		size_t k = 0;
		char want[96];

		for (unsigned bn = 0; bn < 256 + 1; bn++) {
			unsigned bb = bn < 256 ? bn : 0xFF;
			static const char *const offs[4] = { "0x0 2", "0x2 2", "0x40 4", "0x54 4" };
			unsigned nofs = bn == 256 ? 2 : bb == 0x1F || bb == 0xFF ? 4 : bb == 0x80 ? 2 : 1;

			for (unsigned o = 0; o < nofs; o++) {
				snprintf(want, sizeof(want), "pcird 0000:%02x:0b.0 %s", bb, offs[o]);
				while (k < scan.n && !strstr(scan.a[k], ":0b.0 "))
					k++;
				if (k == scan.n || strcmp(scan.a[k], want)) {
					ct_fail(__FILE__, __LINE__, "UBox access: want '%s', got '%s'", want,
						k < scan.n ? scan.a[k] : "(end)");
					bn = 257;
					break;
				}
				k++;
			}
		}
		while (k < scan.n && !strstr(scan.a[k], ":0b.0 "))
			k++;
		CT_EQ(k, scan.n);
	}
	free(scan.a);

	/* while counting: our programming is on 0xFF and 0x1F */
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(b, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(b, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_H_REQUESTS.READS") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_cfg(0xFF, 14, 1, 0xD8, 4) & (1u << 22));
	CT_CHECK(get_cfg(0x1F, 14, 1, 0xD8, 4) & (1u << 22));
	CT_EQ(ucd_event_socket_total(d, 0, 0), 0);
	put_cfg(0xFF, 14, 1, 0xA0, 1000, 8); /* socket 0 */
	put_cfg(0x1F, 14, 1, 0xA0, 7, 8);    /* socket 1 */
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(ucd_event_socket_total(d, 0, 0), 1000);
	CT_EQ(ucd_event_socket_total(d, 0, 1), 7);
	/* the usual buses are not this machine's uncore */
	{
		struct ucb_pci usual = { 0, 0x3F, 14, 1 };

		CT_EQ(ucb_pci_write(b, &usual, 0xF4, 4, 0), -EPERM);
		CT_CONTAINS(ucb_error(b), "3f:0e.1+0xf4 refused: not a PMON register of snbep on its uncore buses (1f ff)");
		usual.bus = 0x7F;
		CT_EQ(ucb_pci_write(b, &usual, 0xD8, 4, 0), -EPERM);
	}
	ucd_close(d); /* the counters too are put back */
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after counting");
	rm_tree();
	free(before);
	free(after);
}

/* An offline cpu (no topology directory) does not hide the cpus after it:
 * the socket maps to its first online cpu. */
CT_TEST(hw_topology_skips_offline_cpus)
{
	struct ucb *h;
	unsigned cpu = 99;
	char cmd[600];

	make_tree("offline", 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu0/topology'", root);
	CT_REQUIRE(system(cmd) == 0);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 0, &cpu), 0);
	CT_EQ(cpu, 1);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), -ENOENT);
	ucb_destroy(h);
	rm_tree();
}

/* Two sockets from sysfs topology, whatever order the kernel numbered the
 * cpus in: interleaved (cpu c in package c % 2, as many two-socket BIOSes
 * enumerate), socket 1 is cpu 1, and its uncore MSRs are programmed there
 * and nowhere else; with cpu 1 offline, on cpu 3. */
CT_TEST(snbep_hw_maps_two_sockets_to_cpus_from_sysfs)
{
	struct snbep_layout l = SNBEP_USUAL;
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	unsigned cpu = 99;
	char cmd[600];

	CT_REQUIRE(before && after);
	l.interleaved = 1;
	make_snbep("snbep-topo", 0, &l);
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 0, &cpu), 0);
	CT_EQ(cpu, 0);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), 0);
	CT_EQ(cpu, 1);
	CT_EQ(ucb_socket_cpu(h, 2, &cpu), -ENOENT);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_EQ(ucd_sockets(d), 2);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,UNC_C_CLOCKTICKS") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	snapshot(after);
	for (unsigned c = 0; c < 2; c++) {
		CT_CHECK(get_msr(c, 0xC08) & (1u << 22)); /* U_MSR_PMON_UCLK_FIXED_CTL.en */
		CT_CHECK(get_msr(c, 0xD10) & (1u << 22)); /* C0_MSR_PMON_CTL0.en */
	}
	for (unsigned c = 2; c < MAXCPU_T; c++)
		if (memcmp(before->msr[c], after->msr[c], MSR_BYTES))
			ct_fail(__FILE__, __LINE__, "cpu %u's MSRs were written: not the first cpu of a package", c);
	ucd_close(d);
	ucb_destroy(h);
	snapshot(after);
	check_same(before, after, "after the session");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu1/topology'", root);
	CT_REQUIRE(system(cmd) == 0);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), 0);
	CT_EQ(cpu, 3);
	ucb_destroy(h);

	/* package 1 entirely offline: its bus is not written */
	for (unsigned c = 3; c < MAXCPU_T; c += 2) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu%u/topology'", root, c);
		CT_REQUIRE(system(cmd) == 0);
	}
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), -ENOENT);
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("snbep"), 0) == 0);
	{
		unsigned bus[8], sock[8];
		struct ucb_pci ha1 = { 0, 0x7F, 14, 1 }, ha0 = { 0, 0x3F, 14, 1 };

		CT_EQ(ucb_hw_buses(h, bus, sock, 8), 1);
		CT_EQ(bus[0], 0x3F);
		CT_EQ(ucb_pci_write(h, &ha1, 0xF4, 4, 0), -EPERM);
		CT_EQ(ucb_pci_write(h, &ha0, 0xF4, 4, 0), 0);
	}
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* The values the tree holds are what the driver reads: a register dump,
 * and counts that change between samples as the "hardware" counts. */
CT_TEST(hw_reads_the_values_the_tree_holds)
{
	struct ucb *h;
	struct ucd *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct ucd_evinfo ei;

	make_tree("values", 0);
	put_msr(0, 0x711, 0x0000000000038F34ull); /* someone's event, not enabled */
	put32("/dev/mem", BAR + 0x5050, 123456);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_STREQ(ucd_platform(d)->name, "skl");
	CT_EQ(ucd_mmio_base(d), BAR);
	f = open_memstream(&buf, &len);
	CT_REQUIRE(ucd_dump_regs(d, f) == 0);
	fclose(f);
	CT_CONTAINS(buf, "MSR_UNC_CBO_1_PERFEVTSEL1    0x0000000000038f34");
	CT_CONTAINS(buf, "MSR_UNC_CBO_CONFIG           0x0000000000000005");
	CT_CONTAINS(buf, "DRAM_DATA_READS              0x0001e240");
	free(buf);
	/* counting: the tree's counters move between samples */
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "uclk,data_reads,cbo0/event=0x34,umask=0x8f/") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	put_msr(0, 0x395, 3000000);                       /* the fixed counter */
	put32("/dev/mem", BAR + 0x5050, 123456 + 777);    /* DRAM reads */
	put_msr(0, 0x706, 4242);                          /* CBo 0 counter 0 */
	CT_REQUIRE(ucd_sample(d) == 0);
	put32("/dev/mem", BAR + 0x5050, 5);               /* a 32-bit wrap */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 3000000);
	ucd_event(d, 1, &ei);
	CT_EQ(ei.total, 777 + (0x100000000ull - 123456 - 777) + 5);
	ucd_event(d, 2, &ei);
	CT_EQ(ei.total, 4242);
	CT_REQUIRE(ucd_stop(d) == 0);
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* The interface's widths (driver/backend/ucb.h: PCI 1, 2, 4 or 8 bytes, MMIO 4 or
 * 8) are refused before any backend acts: the hardware's pread copies
 * `width` bytes into a uint64_t, so a PCI read of 16 would overrun the
 * caller's value.  The same on the simulated backend. */
CT_TEST(backends_refuse_widths_the_interface_has_not)
{
	static const struct ucb_pci host = { 0, 0, 0, 0 };
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *be[2];

	make_tree("widths", 0);
	CT_REQUIRE((be[0] = hw(UCB_HW_MSR)) != NULL);
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_REQUIRE(ucb_sim_create(m, &be[1]) == 0);
	for (unsigned k = 0; k < 2; k++) {
		static const unsigned bad[] = { 0, 3, 5, 16, 64 };
		uint64_t guard[2] = { 0, 0x5A5A5A5A5A5A5A5Aull };

		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			guard[0] = 1;
			CT_EQ(ucb_pci_read(be[k], &host, 0, bad[i], &guard[0]), -EINVAL);
			CT_EQ(guard[0], 0);
			CT_CONTAINS(ucb_error(be[k]), "the width is 1, 2, 4 or 8");
			CT_EQ(guard[1], 0x5A5A5A5A5A5A5A5Aull);
			CT_EQ(ucb_pci_write(be[k], &host, 0x40, bad[i], 0), -EINVAL);
		}
		for (unsigned w = 0; w <= 16; w++) {
			if (w == 4 || w == 8)
				continue;
			CT_EQ(ucb_mmio_read(be[k], BAR + 0x5050, w, &guard[0]), -EINVAL);
			CT_CONTAINS(ucb_error(be[k]), "the width is 4 or 8");
			CT_EQ(ucb_mmio_write(be[k], BAR + 0x5050, w, 0), -EINVAL);
		}
		/* a counter offset past configuration space, however large
		 * (no wrap of offset + 8), on the backend that reads blocks */
		if (k == 0) {
			static const unsigned far[] = { 0x1000, 0xFFFFFFF8u, 0xFFFFFFFCu };

			for (unsigned i = 0; i < 3; i++) {
				CT_EQ(ucb_pci_read_ctrs(be[k], &host, &far[i], 1, &guard[0]), -EINVAL);
				CT_EQ(guard[1], 0x5A5A5A5A5A5A5A5Aull);
			}
		}
		/* the widths it has still work: the host bridge's vendor ID */
		CT_EQ(ucb_pci_read(be[k], &host, 0, 2, &guard[0]), 0);
		CT_EQ(guard[0], 0x8086);
	}
	ucb_destroy(be[0]);
	ucb_destroy(be[1]);
	ucm_destroy(m);
	rm_tree();
}

/* The counter of a PCI box (dev:fn on bus) whose control has EN set. */
static unsigned pci_counter_in_use(uint8_t bus, uint8_t dev, uint8_t fn)
{
	for (unsigned k = 0; k < 4; k++)
		if (get_cfg(bus, dev, fn, 0xD8 + 4 * k, 4) & (1u << 22))
			return 0xA0 + 8 * k;
	ct_fail(__FILE__, __LINE__, "no counter of %02x:%02x.%x is enabled", bus, dev, fn);
	return 0xA0;
}

/* The same on the E5-2600: a dump of both sockets (MSRs through each
 * socket's cpu, PCI registers on each socket's bus, the node IDs), and
 * counts of both sockets from MSR and PCI counters, a 48-bit PCI counter
 * past 32 bits (two dwords) and its wrap, a free-running C-state counter. */
CT_TEST(snbep_hw_reads_the_values_the_tree_holds)
{
	struct ucb *h;
	struct ucd *d;
	char *buf = NULL, want[160];
	size_t len = 0;
	FILE *f;
	struct ucd_evinfo ei;
	unsigned c0, c3, ha;
	uint64_t t;

	make_snbep("snbep-values", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);                              /* socket 1, C0 CTL0: not enabled */
	put_cfg(0x7F, 16, 5, 0xA0, 0x0000123456789ABCull, 8);   /* socket 1, MC_CH3 CTR0 */
	put_msr(0, 0x3FD, 1000);                                /* socket 0, C6 residency */
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_STREQ(ucd_platform(d)->name, "snbep");
	CT_EQ(ucd_sockets(d), 2);
	f = open_memstream(&buf, &len);
	CT_REQUIRE(ucd_dump_regs(d, f) == 0);
	fclose(f);
	snprintf(want, sizeof(want), "1 msr  0x%-13x %-28s 0x%016x ", 0xD10, "C0_MSR_PMON_CTL0", 0x8F34);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 msr  0x%-13x %-28s 0x%016x ", 0xD10, "C0_MSR_PMON_CTL0", 0);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "1 pci  7f:10.5+0x0a0 %-28s 0x%016llx ", "MC_CH3_PCI_PMON_CTR0",
		 0x123456789ABCull);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "1 pci  7f:0b.0+0x040 %-28s 0x%08x", "UBOX_CPUNODEID", 1);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 pci  3f:0b.0+0x054 %-28s 0x%08x", "UBOX_GIDNIDMAP", nodemap(&SNBEP_USUAL));
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 pci  3f:08.0+0x0d4 %-28s 0x%08x", "Q_P0_QPI_RATE_STATUS", 5);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 msr  0x%-13x %-28s 0x%016x ", 0x3FD, "PCU_MSR_CORE_C6_CTR", 1000);
	CT_CONTAINS(buf, want);
	free(buf);

	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,cas_rd,UNC_H_REQUESTS.READS,UNC_P_CORE_C6_CYCLES") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	c0 = pci_counter_in_use(0x3F, 16, 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	ha = pci_counter_in_use(0x3F, 14, 1);
	put_msr(0, 0xC09, 3000000);                          /* UBox fixed counters */
	put_msr(8, 0xC09, 5000000);
	put_cfg(0x3F, 16, 0, c0, 0x100000010ull, 8);         /* socket 0 ch0: past 32 bits */
	put_cfg(0x7F, 16, 5, c3, 0x42, 8);                   /* socket 1 ch3 */
	put_cfg(0x3F, 14, 1, ha, 5, 8);
	put_msr(0, 0x3FD, 1500);                             /* free-running: +500 */
	put_msr(8, 0x3FD, 7);                                /* +7 */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 8000000);
	CT_EQ(ucd_event_socket_total(d, 0, 0), 3000000);
	CT_EQ(ucd_event_socket_total(d, 0, 1), 5000000);
	ucd_event(d, 1, &ei);
	CT_EQ(ei.total, 0x100000010ull + 0x42);
	CT_EQ(ucd_event_socket_total(d, 1, 1), 0x42);
	ucd_event(d, 2, &ei);
	CT_EQ(ei.total, 5);
	ucd_event(d, 3, &ei);
	CT_EQ(ei.total, 507);
	/* the 48-bit counter wraps: the delta is modulo 2^48 */
	put_cfg(0x3F, 16, 0, c0, 3, 8);
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 1, &ei);
	t = 0x100000010ull + 0x42 + ((3 - 0x100000010ull) & 0xFFFFFFFFFFFFull);
	CT_EQ(ei.total, t);
	CT_REQUIRE(ucd_stop(d) == 0);
	CT_REQUIRE(ucd_restore(d) == 0);
	/* put back as found, the other agent's control included */
	CT_EQ(get_msr(8, 0xD10), 0x8F34);
	CT_EQ(get_cfg(0x7F, 16, 5, 0xA0, 8), 0x123456789ABCull);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* Normal exit and error exit: every register as it was. */
CT_TEST(hw_leaves_registers_as_found_on_normal_and_error_exit)
{
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	char p[512];

	CT_REQUIRE(before && after);
	make_tree("restore", 0);
	/* leftovers of another agent that is not counting right now */
	put_msr(0, 0x700, 0x0000000000008F34ull);
	put_msr(0, 0x706, 99);
	put_msr(0, 0x394, 1ull << 20);
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_msr(0, 0xE01) & (1u << 29)); /* GLOBAL_CTRL.EN while counting */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d); /* normal exit: stop and restore */
	snapshot(after);
	check_same(before, after, "after a normal exit");

	/* an error in the middle: cpu 0's MSR device stops answering (the
	 * backend keeps its files open, so the fault is a failing read, not
	 * a failing open); it answers again before the driver restores */
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	snprintf(p, sizeof(p), "%s%s", root, msr_rel(0));
	{
		uint8_t *keep = malloc(MSR_BYTES);

		CT_REQUIRE(keep != NULL);
		slurp(msr_rel(0), 0, keep, MSR_BYTES);
		CT_REQUIRE(truncate(p, 0) == 0);
		CT_CHECK(ucd_sample(d) < 0);
		CT_CONTAINS(ucd_error(d), "on cpu 0: short read");
		put(msr_rel(0), 0, keep, MSR_BYTES);
		free(keep);
	}
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after an error exit");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* The same on the E5-2600, with another agent's leftovers on both sockets
 * (a programmed but disabled CBo control, a HA count, a frozen box); the
 * error: one socket's memory controller stops answering mid-run (it is
 * back before the driver restores, as the MSR device above). */
CT_TEST(snbep_hw_leaves_registers_as_found_on_normal_and_error_exit)
{
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	char p[512];
	static uint8_t keep[CFG_BYTES];

	CT_REQUIRE(before && after);
	make_snbep("snbep-restore", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);
	put_msr(8, 0xD16, 99);
	put_cfg(0x7F, 14, 1, 0xA0, 0x1234567890ull, 8);
	put_cfg(0x3F, 16, 1, 0xF4, 0x10100, 4);
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, SNBEP_EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_msr(8, 0xC08) & (1u << 22));
	CT_EQ(get_cfg(0x7F, 14, 1, 0xF4, 4), 0x10000); /* frz_en, unfrozen: counting */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after a normal exit");

	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, SNBEP_EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	/* the backend keeps the function's file open: the fault is a read
	 * that returns nothing (as sysfs does past what it shows) */
	snprintf(p, sizeof(p), "%s%s", root, fn_rel(0x7F, 16, 0));
	slurp(fn_rel(0x7F, 16, 0), 0, keep, CFG_BYTES);
	CT_REQUIRE(truncate(p, 0) == 0);
	CT_CHECK(ucd_sample(d) < 0);
	CT_CONTAINS(ucd_error(d), "PCI 7f:10.0 offset 0xa0");
	put(fn_rel(0x7F, 16, 0), 0, keep, CFG_BYTES);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after an error exit");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* The packet filters on a real box: the QPI match/mask registers are on F6
 * of each port's device (Table 2-84), the HA's match registers on D14:F1
 * (Table 2-33).  The driver writes them on both sockets' buses as the
 * simulator's session does, in the same order, and leaves the values it
 * found when it exits. */
CT_TEST(snbep_hw_programs_the_packet_filters_and_restores_them)
{
	static const char *ev = "qpi/event=0x138,match0=0x1c00,mask0=0x1f00/,"
				"ha/ADDR_OPC_MATCH.FILT,filter_opc=4,filter_addr=0x2f3c5a7b000/";
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses sa, ha;
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-match-sim.log", (int)getpid());
	CT_REQUIRE(sim_session("snbep", simlog, ev, 5000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &sa) == 0);
	unlink(simlog);
	make_snbep("snbep-match", 0, &SNBEP_USUAL);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(h, hwlog, ev, 5000000) == 0);
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &ha) == 0);
	CT_CHECK(same_accesses(&sa, &ha) > 40);
	CT_EQ(count_accesses(&ha, "pciwr 0000:7f:09.6 0x228 4"), 2); /* program, restore */
	CT_EQ(count_accesses(&ha, "pciwr 0000:3f:08.6 0x238 4"), 2);
	CT_EQ(count_accesses(&ha, "pciwr 0000:7f:0e.1 0x44 4"), 2);
	free(sa.a);
	free(ha.a);

	/* another agent's values stay theirs */
	put_cfg(0x3F, 8, 6, 0x228, 0x1800, 4);
	put_cfg(0x7F, 9, 6, 0x23C, 0xF0000, 4);
	put_cfg(0x3F, 14, 1, 0x48, 0x14, 4);
	snapshot(before);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, ev) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	for (unsigned b = 0; b < 2; b++) {
		uint8_t bus = b ? 0x7F : 0x3F;

		for (uint8_t dev = 8; dev <= 9; dev++) {
			CT_EQ(get_cfg(bus, dev, 6, 0x228, 4), 0x1C00);
			CT_EQ(get_cfg(bus, dev, 6, 0x22C, 4), 0);
			CT_EQ(get_cfg(bus, dev, 6, 0x238, 4), 0x1F00);
			CT_EQ(get_cfg(bus, dev, 6, 0x23C, 4), 0);
		}
		CT_EQ(get_cfg(bus, 14, 1, 0x48, 4), 4);
		CT_EQ(get_cfg(bus, 14, 1, 0x40, 4), 0xC5A7B000);
		CT_EQ(get_cfg(bus, 14, 1, 0x44, 4), 0x2F3);
	}
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after the packet filters");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* Counting has begun: GLOBAL_CTRL.EN (SKL 2.2) ... */
static int skl_counting(void)
{
	return (get_msr(0, 0xE01) >> 29) & 1;
}

/* ... or, on the E5-2600 that has no global enable, every box control we
 * froze is unfrozen again (frz_en without frz, 2.1.1 f), the last step of
 * the start. */
static int snbep_counting(void)
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

/* A running `uncore stat --backend=hw` gets SIGINT, SIGTERM or SIGHUP:
 * it restores every register and exits 128 + signal. */
static void signals_restore(const char *events, int (*counting)(void))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct snap *before = snap_new(), *during = snap_new();

	if (!before || !during)
		return;
	snapshot(before);
	for (unsigned i = 0; i < 3; i++) {
		const char *name = sigs[i] == SIGINT ? "after SIGINT" : sigs[i] == SIGTERM ? "after SIGTERM" : "after SIGHUP";
		pid_t pid = fork();
		int st, t;

		if (pid < 0) {
			ct_fail(__FILE__, __LINE__, "fork");
			break;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "30",
			      "-e", events, (char *)NULL);
			_exit(127);
		}
		for (t = 0; t < 1000 && !counting(); t++)
			usleep(10000);
		CT_CHECK(counting());
		kill(pid, sigs[i]);
		if (waitpid(pid, &st, 0) != pid) {
			ct_fail(__FILE__, __LINE__, "waitpid");
			break;
		}
		CT_CHECK(WIFEXITED(st));
		CT_EQ(WEXITSTATUS(st), 128 + sigs[i]);
		snapshot(during);
		check_same(before, during, name);
	}
	free(before);
	free(during);
}

CT_TEST(hw_restores_on_sigint_sigterm_and_sighup)
{
	make_tree("signals", 0);
	signals_restore(EVENTS, skl_counting);
	rm_tree();
}

/* Both sockets, MSR and PCI boxes, put back after each signal. */
CT_TEST(snbep_hw_restores_on_sigint_sigterm_and_sighup)
{
	make_snbep("snbep-signals", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);
	put_cfg(0x7F, 14, 1, 0xA0, 0x1234567890ull, 8);
	signals_restore(SNBEP_EVENTS, snbep_counting);
	rm_tree();
}

/* `uncore stat --backend=hw | head -1`: the reader goes away; the write
 * fails (SIGPIPE is ignored) and the command still restores everything,
 * then ends with the status a pipeline expects of SIGPIPE (141), silently. */
CT_TEST(hw_restores_when_the_output_pipe_closes)
{
	struct snap *before = snap_new(), *after = snap_new();
	int pfd[2], st;
	pid_t pid;

	CT_REQUIRE(before && after);
	make_tree("pipe", 0);
	snapshot(before);
	CT_REQUIRE(pipe(pfd) == 0);
	pid = fork();
	CT_REQUIRE(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pfd[1], 1);
		dup2(null, 2);
		close(pfd[0]);
		execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "2",
		      "-I", "20", "-e", EVENTS, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	{
		char c;

		CT_CHECK(read(pfd[0], &c, 1) == 1); /* it runs and prints ... */
	}
	close(pfd[0]);                              /* ... and the reader leaves */
	CT_REQUIRE(waitpid(pid, &st, 0) == pid);
	CT_CHECK(WIFEXITED(st));
	CT_EQ(WEXITSTATUS(st), 128 + SIGPIPE);
	snapshot(after);
	check_same(before, after, "after the output pipe closed");
	rm_tree();
	free(before);
	free(after);
}

/* `uncore stat --backend=hw -x,` on the E5-2600 prints the counts the
 * tree's counters show: both sockets summed, a PCI counter past 32 bits. */
CT_TEST(snbep_cli_stat_prints_the_counts_the_tree_holds)
{
	char out[300], line[512];
	unsigned c0, c3;
	pid_t pid;
	int st, t, seen = 0;
	FILE *f;

	make_snbep("snbep-cli-stat", 0, &SNBEP_USUAL);
	snprintf(out, sizeof(out), "%s/out.csv", root);
	pid = fork();
	CT_REQUIRE(pid >= 0);
	if (pid == 0) {
		execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "1.5", "-x,",
		      "-o", out, "-e", "UNC_U_CLOCKTICKS,cas_rd", (char *)NULL);
		_exit(127);
	}
	for (t = 0; t < 1000 && !snbep_counting(); t++)
		usleep(10000);
	CT_CHECK(snbep_counting());
	c0 = pci_counter_in_use(0x3F, 16, 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	put_msr(0, 0xC09, 1234);
	put_msr(8, 0xC09, 4321);
	put_cfg(0x3F, 16, 0, c0, 0x200000001ull, 8);
	put_cfg(0x7F, 16, 5, c3, 9, 8);
	CT_REQUIRE(waitpid(pid, &st, 0) == pid);
	CT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	f = fopen(out, "r");
	CT_REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char name[64];

		if (sscanf(line, "%llu,,%63[^,]", &v, name) != 2)
			continue;
		if (!strcmp(name, "UNC_U_CLOCKTICKS")) {
			CT_EQ(v, 5555);
			seen |= 1;
		} else if (!strcmp(name, "cas_rd")) {
			CT_EQ(v, 0x200000001ull + 9);
			seen |= 2;
		}
	}
	fclose(f);
	CT_EQ(seen, 3);
	rm_tree();
}

/* ---- no write outside the platform's registers ---- */

/* What may be written, from the model's register list (not from the
 * backend's allow-list): each writable register (a RW, RW1C or WO bit;
 * never the BAR) of the platform, PCI ones on the given buses only. */
struct expect {
	uint8_t msr[0x10000];
	uint16_t pci[256 * CFG_BYTES]; /* register number + 1 per byte of dev<<3|fn, offset */
	uint16_t mmio[MEM_BYTES];
	uint8_t bus[256];
};

static int expect_build(struct expect *e, const char *plat)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	memset(e, 0, sizeof(*e));
	ucm_config_init(&cfg, ucm_platform_find(plat));
	if (ucm_create(&cfg, &m))
		return -1;
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (!(ri.rw_mask | ri.w1c_mask | ri.wo_mask) || ri.kind == UCM_K_BAR)
			continue;
		if (ri.space == UCM_MSR && ri.addr < 0x10000) {
			e->msr[ri.addr] = 1;
		} else if (ri.space == UCM_PCI) {
			size_t at = ((ri.addr >> 12) & 0xFF) * CFG_BYTES + (ri.addr & 0xFFF);

			for (unsigned k = 0; k < ri.width / 8; k++)
				e->pci[at + k] = (uint16_t)(i + 1);
		} else if (ri.space == UCM_MMIO && ri.addr + ri.width / 8 <= MEM_BYTES) {
			for (unsigned k = 0; k < ri.width / 8; k++)
				e->mmio[ri.addr + k] = (uint16_t)(i + 1);
		}
	}
	ucm_destroy(m);
	return 0;
}

/* [off, off + w) inside one writable register */
static int pci_writable(const struct expect *e, unsigned bus, unsigned devfn, unsigned off, unsigned w)
{
	const uint16_t *r = e->pci + (size_t)devfn * CFG_BYTES;

	return e->bus[bus] && off + w <= CFG_BYTES && r[off] && r[off] == r[off + w - 1];
}

#define SWEEP_FAIL(...)                                                       \
	do {                                                                  \
		if (nfail++ < 10)                                             \
			ct_fail(__FILE__, __LINE__, __VA_ARGS__);             \
	} while (0)

/* Every write over the whole MSR range 0..0xFFFF and 100,000 random 32-bit
 * addresses; the dwords of the configuration header and PMON area (and
 * the QPI mask/match registers) of every function of every bus; every
 * offset and width of every function the tree has on the buses `full`;
 * every MMIO offset of the window.  Allowed exactly where e says. */
static void sweep(struct ucb *h, const struct expect *e, const uint8_t *full, unsigned nfull)
{
	static const unsigned extra[] = { 0x228, 0x22C, 0x238, 0x23C, 0x100, 0x800, 0xFFC };
	uint64_t rng = 12345;
	unsigned nfail = 0;

	for (uint32_t a = 0; a < 0x10000; a++) {
		int rc = ucb_msr_write(h, 0, a, ~0ull);

		if (e->msr[a] ? rc != 0 : rc != -EPERM)
			SWEEP_FAIL("wrmsr 0x%x: rc %d, writable %d", a, rc, e->msr[a]);
	}
	for (unsigned i = 0; i < 100000; i++) {
		uint32_t a;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		a = (uint32_t)(rng >> 32) | 0x10000u;
		if (ucb_msr_write(h, 0, a, 0) != -EPERM)
			SWEEP_FAIL("wrmsr 0x%x was not refused", a);
	}
	for (unsigned bus = 0; bus < 256; bus++)
		for (unsigned devfn = 0; devfn < 256; devfn++)
			for (unsigned k = 0; k < 64 + sizeof(extra) / sizeof(extra[0]); k++) {
				struct ucb_pci dev = { 0, (uint8_t)bus, (uint8_t)(devfn >> 3), (uint8_t)(devfn & 7) };
				unsigned off = k < 64 ? 4 * k : extra[k - 64];
				int rc = ucb_pci_write(h, &dev, off, 4, 0xFFFFFFFFu);

				if (pci_writable(e, bus, devfn, off, 4) ? rc != 0 : rc != -EPERM)
					SWEEP_FAIL("PCI write %02x:%02x.%x+0x%x/4: rc %d", bus, devfn >> 3, devfn & 7, off,
						   rc);
			}
	for (unsigned i = 0; i < T.nfn; i++) {
		const struct ucb_pci *dev = &T.fn[i].at;
		unsigned devfn = (unsigned)dev->dev << 3 | dev->fn, b;

		for (b = 0; b < nfull && full[b] != dev->bus; b++)
			;
		if (b == nfull)
			continue;
		for (unsigned off = 0; off < CFG_BYTES; off++)
			for (unsigned w = 1; w <= 8; w *= 2) {
				int rc;

				if (off + w > CFG_BYTES)
					continue;
				rc = ucb_pci_write(h, dev, off, w, ~0ull >> (64 - 8 * w));
				if (pci_writable(e, dev->bus, devfn, off, w) ? rc != 0 : rc != -EPERM)
					SWEEP_FAIL("PCI write %02x:%02x.%x+0x%x/%u: rc %d", dev->bus, dev->dev, dev->fn,
						   off, w, rc);
			}
	}
	for (uint64_t off = 0; off < MEM_BYTES; off++)
		for (unsigned w = 1; w <= 8; w *= 2) {
			/* the backend stores 32 bits at a time: another width or
			 * alignment is refused before anything is mapped */
			int bad = (w != 4 && w != 8) || off % 4;
			int ok = off + w <= MEM_BYTES && e->mmio[off] && e->mmio[off] == e->mmio[off + w - 1];
			int rc = ucb_mmio_write(h, BAR + off, w, 0);

			if (bad ? rc != -EINVAL : ok ? rc != 0 : rc != -EPERM)
				SWEEP_FAIL("MMIO write at BAR+0x%llx/%u: rc %d", (unsigned long long)off, w, rc);
		}
}

/* After the sweep: a byte changed only in a writable register (MSRs on cpu
 * 0, where the sweep wrote), and every writable register of cpu 0 and of
 * the allowed buses took the all-ones the sweep wrote: the writes landed
 * on the registers meant, on the buses meant. */
static void check_only_writable(const struct snap *before, const struct snap *after, const struct expect *e)
{
	unsigned nfail = 0;

	for (unsigned c = 0; c < T.ncpus; c++)
		for (unsigned a = 0; a < MSR_BYTES / 8; a++) {
			int changed = memcmp(before->msr[c] + 8 * a, after->msr[c] + 8 * a, 8) != 0;
			static const uint8_t ones[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

			if (changed && (c || !e->msr[a]))
				SWEEP_FAIL("cpu %u MSR 0x%x changed but is not writable", c, a);
			if (!c && e->msr[a] && memcmp(after->msr[c] + 8 * a, ones, 8))
				SWEEP_FAIL("MSR 0x%x is writable but was not written", a);
		}
	for (unsigned i = 0; i < T.nfn; i++) {
		const struct ucb_pci *d = &T.fn[i].at;
		unsigned devfn = (unsigned)d->dev << 3 | d->fn;

		for (unsigned off = 0; off < CFG_BYTES; off++) {
			int w = pci_writable(e, d->bus, devfn, off, 1);

			if (before->cfg[i][off] != after->cfg[i][off] && !w)
				SWEEP_FAIL("PCI %02x:%02x.%x+0x%x changed but is not writable", d->bus, d->dev, d->fn, off);
			if (w && after->cfg[i][off] != 0xFF)
				SWEEP_FAIL("PCI %02x:%02x.%x+0x%x is writable but was not written", d->bus, d->dev, d->fn,
					   off);
		}
	}
	for (unsigned off = 0; off < MEM_BYTES; off++)
		if (before->mem[off] != after->mem[off] && !e->mmio[off])
			SWEEP_FAIL("MMIO BAR+0x%x changed but is not writable", off);
}

/* Issue 6, done-when: no write outside the allow-list; before a platform
 * is allowed, nothing. */
CT_TEST(hw_writes_nothing_outside_the_platform_registers)
{
	static const uint8_t full[] = { 0 };
	struct snap *before = snap_new(), *after = snap_new();
	struct expect *e = malloc(sizeof(*e));
	struct ucb *h;

	CT_REQUIRE(before && after && e);
	make_tree("allow", 0);
	CT_REQUIRE(expect_build(e, "skl") == 0);
	e->bus[0] = 1; /* the client's host bridge bus (it holds no writable register) */
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	snapshot(before);
	CT_EQ(ucb_msr_write(h, 0, 0xE01, 0), -EPERM);
	CT_CONTAINS(ucb_error(h), "no platform allowed");
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("skl"), BAR) == 0);
	sweep(h, e, full, sizeof(full));
	snapshot(after);
	check_only_writable(before, after, e);
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
	free(e);
}

/* The same on an E5-2600 whose firmware chose buses 0x1F/0xFF, next to a
 * foreign UBox (bus 0x80) and an E5-2600 UBox whose node ID belongs to no
 * socket of this machine, on the usual bus 0x3F with a Home Agent beside
 * it: PCI registers are writable on 0x1F and 0xFF only. */
CT_TEST(snbep_hw_writes_nothing_outside_the_platform_registers)
{
	static const uint8_t full[] = { 0x1F, 0xFF, 0x3F, 0x80 };
	struct snap *before = snap_new(), *after = snap_new();
	struct expect *e = malloc(sizeof(*e));
	unsigned bus[8], sock[8];
	struct ucb *h;

	CT_REQUIRE(before && after && e);
	make_snbep("snbep-allow", 0, &SNBEP_MOVED);
	add_fn(0x3F, 11, 0, 0x3CE0, 0);
	put_cfg(0x3F, 11, 0, 0x40, 0, 4); /* node 0: socket 2 in this map */
	put_cfg(0x3F, 11, 0, 0x54, nodemap(&SNBEP_MOVED), 4);
	add_fn(0x3F, 14, 1, 0x3C46, 0);
	CT_REQUIRE(expect_build(e, "snbep") == 0);
	e->bus[0x1F] = e->bus[0xFF] = 1;
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	snapshot(before);
	{
		struct ucb_pci ha = { 0, 0xFF, 14, 1 };

		CT_EQ(ucb_pci_write(h, &ha, 0xF4, 4, 0), -EPERM);
		CT_CONTAINS(ucb_error(h), "no platform allowed");
		CT_EQ(ucb_msr_write(h, 8, 0xD04, 0), -EPERM);
	}
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("snbep"), 0) == 0);
	CT_EQ(ucb_hw_buses(h, bus, sock, 8), 2);
	CT_EQ(bus[0], 0x1F);
	CT_EQ(bus[1], 0xFF);
	sweep(h, e, full, sizeof(full));
	snapshot(after);
	check_only_writable(before, after, e);
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
	free(e);
}

/* msr-safe: a sample of every MSR counter is one batch ioctl. */
CT_TEST(msr_safe_batches_a_sample_into_one_ioctl)
{
	struct ucb *h;
	struct ucd *d;
	unsigned calls;

	make_tree("batch", MSR_SAFE);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_CONTAINS(ucb_hw_describe(h), "msr-safe (batched)");
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	put_msr(0, 0x395, 777);
	calls = batch_calls;
	batch_ops = 0;
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(batch_calls - calls, 1);
	/* the clock, four CBo counters and the ARB counter, and the global
	 * status the driver services after the counters */
	CT_EQ(batch_ops, 7);
	{
		struct ucd_evinfo ei;

		ucd_event(d, 0, &ei);
		CT_EQ(ei.total, 777);
	}
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* A batch names each cpu in 16 bits (msr-safe's struct): a cpu beyond
 * the backend's range is refused, not truncated onto another cpu (65536
 * would have been cpu 0), and nothing of the batch is done. */
CT_TEST(msr_safe_batch_refuses_a_cpu_out_of_range)
{
	struct ucb *h;
	struct ucb_msr_op ops[2] = { { 0, 0x395, 0, 0, 0 }, { 65536, 0x395, 0, 0, 0 } };
	unsigned calls;

	make_tree("batchcpu", MSR_SAFE);
	put_msr(0, 0x395, 4242);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	calls = batch_calls;
	CT_EQ(ucb_msr_batch(h, ops, 2), -EINVAL);
	CT_CONTAINS(ucb_error(h), "cpu 65536 out of range");
	CT_EQ(batch_calls, calls);
	ops[1].cpu = 0;
	CT_EQ(ucb_msr_batch(h, ops, 2), 0);
	CT_EQ(ops[1].val, 4242);
	ucb_destroy(h);
	rm_tree();
}

/* On the E5-2600 one ioctl reads the MSR counters of both sockets (each
 * through its own cpu); the PCI counters are read besides. */
CT_TEST(snbep_msr_safe_batches_both_sockets_into_one_ioctl)
{
	struct ucb *h;
	struct ucd *d;
	struct ucd_evinfo ei;
	unsigned calls, c3;

	make_snbep("snbep-batch", MSR_SAFE, &SNBEP_USUAL);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,UNC_C_CLOCKTICKS,UNC_P_CLOCKTICKS,cas_rd") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	put_msr(8, 0xC09, 4444);
	put_cfg(0x7F, 16, 5, c3, 31, 8);
	calls = batch_calls;
	batch_ops = 0;
	batch_cpus = 0;
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(batch_calls - calls, 1);
	/* per socket: the UBox fixed counter, eight CBos, the PCU */
	CT_EQ(batch_ops, 2 * (1 + 8 + 1));
	CT_EQ(batch_cpus, (1u << 0) | (1u << 8));
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 4444);
	ucd_event(d, 3, &ei);
	CT_EQ(ei.total, 31);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* ---- system calls of one sample, counted by strace ---- */

/* Every counter of the platform: each event of its list, in order, where
 * placement still finds room (a refused one changes nothing). */
static void program_every_counter(struct ucd *d)
{
	const struct ucm_platform *p = ucd_platform(d);

	for (unsigned i = 0; i < p->nevents; i++)
		(void)ucd_add_events(d, p->events[i].name);
}

/* The traced session's clock (its CLOCK_MONOTONIC, the backend's too): a
 * machine on which every reading is 1 us after the last, so that what the
 * backend makes of the time a pread took does not depend on how busy this
 * machine is under strace.  Elsewhere, the real clock. */
static int fake_clock;
static uint64_t fake_us;

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (!fake_clock)
		return (int)syscall(SYS_clock_gettime, clk, ts);
	fake_us++;
	ts->tv_sec = (time_t)(fake_us / 1000000u);
	ts->tv_nsec = (long)(fake_us % 1000000u) * 1000;
	return 0;
}

static unsigned open_fds(void)
{
	char p[64];
	unsigned n = 0;

	for (int fd = 0; fd < 4096; fd++) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		n += access(p, F_OK) == 0;
	}
	return n;
}

/* The traced side (not a CTest test of its own: run by
 * sample_syscalls() under strace, with the tree in UNCORE_T_HW_TRACE):
 * a session on msr-safe with every counter programmed, one sample between
 * two markers strace shows (writes to no file), every file closed after.
 * Prints the number of counters; exits non-zero on a failure. */
static void traced_sample(void)
{
	const char *tree = getenv("UNCORE_T_HW_TRACE");
	unsigned fds;
	struct ucb *h;
	struct ucd *d;

	if (!tree)
		return; /* run with the others: nothing to do */
	snprintf(root, sizeof(root), "%s", tree);
	fake_clock = 1;
	fds = open_fds();
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	program_every_counter(d);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_REQUIRE(ucd_sample(d) == 0);
	if (getenv("UNCORE_T_HW_LOW")) {
		/* socket 0's HA counter 0 with this low dword: near the carry */
		uint32_t lo = (uint32_t)strtoul(getenv("UNCORE_T_HW_LOW"), NULL, 0);
		char p[512];
		int fd;

		snprintf(p, sizeof(p), "%s/sys/bus/pci/devices/0000:3f:0e.1/config", root);
		fd = open(p, O_WRONLY);
		CT_REQUIRE(fd >= 0 && pwrite(fd, &lo, 4, 0xA0) == 4);
		if (fd >= 0)
			close(fd);
	}
	CT_CHECK(write(-1, "uncore-sample-begin", 19) < 0);
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_CHECK(write(-1, "uncore-sample-end", 17) < 0);
	printf("counters %zu\n", ucd_ncounters(d));
	ucd_close(d);
	ucb_destroy(h);
	/* every MSR device, configuration file and /dev/mem closed, every page unmapped */
	CT_EQ(open_fds(), fds);
}
static struct ct_test traced = { "traced_sample", traced_sample, NULL };
__attribute__((constructor)) static void traced_register(void)
{
	ct_register(&traced);
}

/* Runs traced_sample under strace on the current tree and counts the
 * system calls between the markers, by name.  Returns the total; *ctrs:
 * the counters programmed.  strace is an outside witness: the count does
 * not come from the code under test (README's test command installs it;
 * missing, the test fails saying so). */
static unsigned sample_syscalls(const char *low, unsigned *ctrs, char *names, size_t nn, unsigned *pread_n,
				unsigned *ioctl_n, unsigned *dword_n)
{
	char self[512], log[400], out[400], line[1024];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	unsigned total = 0;
	int st, in = 0;
	pid_t pid;
	FILE *f;

	*ctrs = *pread_n = *ioctl_n = *dword_n = 0;
	names[0] = 0;
	if (k <= 0)
		return 0;
	self[k] = 0;
	snprintf(log, sizeof(log), "%s/strace.log", root);
	snprintf(out, sizeof(out), "%s/traced.out", root);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			dup2(fd, 1);
		setenv("UNCORE_T_HW_TRACE", root, 1);
		if (low)
			setenv("UNCORE_T_HW_LOW", low, 1);
		/* LeakSanitizer cannot work under ptrace; the untraced tests check leaks */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execlp("strace", "strace", "-qq", "-o", log, self, "traced_sample", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 127) {
		ct_fail(__FILE__, __LINE__, "strace did not run: install it (apt-get install strace, README's test command)");
		return 0;
	}
	if (WEXITSTATUS(st))
		ct_fail(__FILE__, __LINE__, "the traced session failed (exit %d): see %s", WEXITSTATUS(st), out);
	if ((f = fopen(out, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "counters %u", ctrs) == 1)
				break;
		fclose(f);
	}
	if (!(f = fopen(log, "r"))) {
		ct_fail(__FILE__, __LINE__, "no strace log %s", log);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "(");

		if (strstr(line, "\"uncore-sample-begin\"")) {
			in = 1;
			continue;
		}
		if (strstr(line, "\"uncore-sample-end\""))
			break;
		if (!in || line[len] != '(')
			continue;
		total++;
		*pread_n += !strncmp(line, "pread64(", 8);
		/* a dword alone: "pread64(fd, "...", 4, off)   = 4" */
		*dword_n += !strncmp(line, "pread64(", 8) && strstr(line, ", 4, ") && strrchr(line, '=') &&
			    !strcmp(strrchr(line, '='), "= 4\n");
		*ioctl_n += !strncmp(line, "ioctl(", 6);
		if (strlen(names) + len + 2 < nn)
			snprintf(names + strlen(names), nn - strlen(names), "%s%.*s", names[0] ? " " : "", (int)len, line);
	}
	fclose(f);
	if (!in)
		ct_fail(__FILE__, __LINE__, "no sample markers in %s", log);
	return total;
}

/* Issue 17, goal 7: one sample of every counter costs one system call for
 * all MSRs (msr-safe's batch, with the global status the driver services
 * after the counters) plus one pread per PCI function holding counters,
 * whatever the platform; the files and the MMIO mapping stay open through
 * the session and are all closed after it; every register as it was.
 * The PCI functions with counters come from the test's own list of each
 * platform's functions (public facts), not from the tables. */
static void check_sample_syscalls(const char *plat, const char *low, unsigned want_ctrs, unsigned pci_fns,
				  unsigned dwords)
{
	struct snap *before = snap_new(), *after = snap_new();
	unsigned ctrs, preads, ioctls, n, dw;
	char names[4096];

	CT_REQUIRE(before && after);
	snapshot(before);
	n = sample_syscalls(low, &ctrs, names, sizeof(names), &preads, &ioctls, &dw);
	printf("%s%s%s: %u counters, one sample: %u system calls (%u ioctl, %u pread64, %u of a dword): %s\n", plat,
	       low ? ", a low dword of " : "", low ? low : "", ctrs, n, ioctls, preads, dw, names);
	CT_EQ(ctrs, want_ctrs);
	CT_EQ(ioctls, 1);
	CT_EQ(preads, pci_fns + dwords);
	CT_EQ(dw, dwords);
	CT_EQ(n, pci_fns + dwords + 1);
	if (low)
		put_cfg(0x3F, 14, 1, 0xA0, 0, 4); /* the traced session's doing, not the driver's */
	snapshot(after);
	check_same(before, after, "after the traced session");
	free(before);
	free(after);
}

/* Skylake client: four CBos (two counters each), the ARB's two, the UBox
 * fixed clock, the five free-running IMC counters behind the BAR: all MSRs
 * in one batch, the IMC ones read from the mapping kept open. */
CT_TEST(hw_sample_of_every_counter_is_one_system_call)
{
	make_tree("syscalls", MSR_SAFE);
	check_sample_syscalls("skl", NULL, 4 * 2 + 2 + 1 + 5, 0, 0);
	rm_tree();
}

/* E5-2600, two sockets of 83 counters: 41 in MSRs (UBox 2 + fixed, 8 CBos
 * x 4, PCU 4 + 2 C-state), 42 in 10 PCI functions (HA, 4 iMC channels x
 * (4 + fixed), 2 QPI ports x 4, R2PCIe 4, 2 R3QPI x 3). */
CT_TEST(snbep_hw_sample_of_every_counter_is_21_system_calls)
{
	unsigned fns = 0;

	make_snbep("snbep-syscalls", MSR_SAFE, &SNBEP_USUAL);
	for (unsigned i = 0; i < NSNBEP_FNS; i++)
		fns += snbep_fns[i].dev != 11 && !((snbep_fns[i].dev == 8 || snbep_fns[i].dev == 9) &&
						   (snbep_fns[i].fn == 0 || snbep_fns[i].fn == 6));
	CT_EQ(2 * fns, 20);
	check_sample_syscalls("snbep", NULL, 166, 2 * fns, 0);
	/* a counter whose low dword may have carried while the block was read
	 * (within 3 us of the HA's fastest event, 4 per 3.8 GHz cycle, of the
	 * top: the traced machine's clock moves 1 us a reading): read again,
	 * high, low, high; one further away: not */
	check_sample_syscalls("snbep", "0xFFFFFFF0", 166, 2 * fns, 3);
	check_sample_syscalls("snbep", "0xFFFF0000", 166, 2 * fns, 0);
	rm_tree();
}

/* E5-2600 v2, two sockets of 137 counters: 67 in MSRs (UBox 2 + fixed, 15
 * CBos x 4, PCU 4), 70 in 16 PCI functions (2 HAs x 4, 8 iMC channels x
 * (4 + fixed), 2 QPI ports x 4, R2PCIe 4, 2 R3QPI x 3, IRP 4): the list
 * above without the UBox, the QPI misc and mask/match functions. */
CT_TEST(ivt_hw_sample_of_every_counter_is_one_pread_per_pci_box)
{
	unsigned fns = 0;

	make_ivt("ivt-syscalls", MSR_SAFE);
	for (unsigned i = 0; i < NIVT_FNS; i++)
		fns += ivt_fns[i].dev != 11 && !((ivt_fns[i].dev == 8 || ivt_fns[i].dev == 9) &&
						 (ivt_fns[i].fn == 0 || ivt_fns[i].fn == 6));
	CT_EQ(2 * fns, 32);
	check_sample_syscalls("ivt", NULL, 274, 2 * fns, 0);
	rm_tree();
}

/* Run `uncore` as an unprivileged user where the test runs as root. */
static int run_cli(char *out, size_t n, const char *const *args)
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

static void chmod_all(const char *rel, mode_t mode)
{
	char p[800];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (chmod(p, mode))
		ct_fail(__FILE__, __LINE__, "chmod %s", p);
}

static void tree_open_to_all(void)
{
	char p[600];

	snprintf(p, sizeof(p), "chmod -R a+rwX '%s'", root);
	if (system(p))
		ct_fail(__FILE__, __LINE__, "chmod");
}

/* One clear line, with the fix, for each refusal of the machine. */
CT_TEST(hw_errors_name_the_cause_and_the_fix)
{
	char out[4096];
	const char *stat_args[] = { "uncore", "stat", "--backend=hw", "--hw-root", NULL, "--duration", "0.01",
				    "-e", "uclk,data_reads", NULL };
	const char *regs_args[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL };
	char p[512];

	make_tree("errors", 0);
	stat_args[4] = regs_args[4] = root;
	/* the tree is world-readable (reads work as nobody) but the MSR
	 * devices are writable by no one */
	snprintf(p, sizeof(p), "chmod -R a+rX '%s'", root);
	CT_REQUIRE(system(p) == 0);
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "/dev/cpu/%u/msr", c);
		chmod_all(p, 0444);
	}

	/* MSR writes filtered: the device opens read-only, writes fail */
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "filtered by the kernel");
	CT_CONTAINS(out, "msr.allow_writes=on");

	/* no permission at all */
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "/dev/cpu/%u/msr", c);
		chmod_all(p, 0000);
	}
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "permission denied: run as root");

	/* the msr module not loaded */
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "%s/dev/cpu/%u/msr", root, c);
		unlink(p);
	}
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "modprobe msr");
	{
		const char *a[] = { "uncore", "regs", "--backend=hw", "--hw-msr", "msr-safe", "--hw-root", root, NULL };

		CT_EQ(run_cli(out, sizeof(out), a), 1);
		CT_CONTAINS(out, "msr-safe is not loaded");
	}
	rm_tree();

	/* lockdown blocks /dev/mem */
	make_tree("lockdown", 0);
	stat_args[4] = regs_args[4] = root;
	mkdirs("%s/sys/kernel/security", root);
	text("/sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	snprintf(p, sizeof(p), "%s/dev/mem", root);
	unlink(p);
	{
		struct ucb *h = hw(UCB_HW_MSR);
		uint64_t v;

		CT_REQUIRE(h);
		CT_EQ(ucb_mmio_read(h, BAR + 0x5050, 4, &v), -EPERM);
		CT_CONTAINS(ucb_error(h), "kernel lockdown (integrity");
		CT_CONTAINS(ucb_error(h), "Secure Boot");
		ucb_destroy(h);
	}
	rm_tree();

	/* no such PCI device */
	make_tree("nopci", 0);
	regs_args[4] = root;
	snprintf(p, sizeof(p), "rm -rf '%s/sys/bus/pci/devices/0000:00:00.0'", root);
	CT_REQUIRE(system(p) == 0);
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "no PCI device 0000:00:00.0");
	rm_tree();

	/* the wrong CPU */
	make_tree("amd", 0);
	regs_args[4] = root;
	text("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 33\n\n");
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "not an Intel CPU (AuthenticAMD)");
	text("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n");
	{
		const char *a[] = { "uncore", "regs", "--backend=hw", "--platform", "skl", "--hw-root", root, NULL };
		const char *f[] = { "uncore", "regs", "--backend=hw", "--platform", "skl", "--force", "--hw-root", root, NULL };

		CT_EQ(run_cli(out, sizeof(out), a), 1);
		CT_CONTAINS(out, "use --force");
		CT_EQ(run_cli(out, sizeof(out), f), 0);
		CT_CONTAINS(out, "MSR_UNC_PERF_GLOBAL_CTRL");
	}
	rm_tree();

	/* in use by another agent */
	make_tree("inuse", 0);
	stat_args[4] = root;
	put_msr(0, 0xE01, 1ull << 29);
	tree_open_to_all();
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "in use by another agent");
	CT_CONTAINS(out, "--force");
	rm_tree();
}

/* Counters another agent (perf, PCM, likwid) has enabled are refused, on
 * either socket, in an MSR box or a PCI box, before anything is written;
 * with --force the session runs and puts the agent's programming back. */
CT_TEST(snbep_hw_refuses_counters_in_use_unless_forced)
{
	struct snap *before = snap_new(), *after = snap_new();
	char out[8192];
	const char *stat_args[] = { "uncore", "stat", "--backend=hw", "--hw-root", NULL, "--duration", "0.01",
				    "-e", "UNC_C_CLOCKTICKS", NULL, NULL };
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_snbep("snbep-inuse", 0, &SNBEP_USUAL);
	put_cfg(0x7F, 14, 1, 0xD8, (1u << 22) | 0x01, 4); /* socket 1 HA: CLOCKTICKS, enabled */
	put_msr(8, 0xD10, (1u << 22) | 0x00);             /* socket 1 CBo 0: enabled */
	tree_open_to_all();
	snapshot(before);

	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_H_REQUESTS.READS") == 0);
	CT_EQ(ucd_start(d), -EBUSY);
	CT_CONTAINS(ucd_error(d), "in use by another agent (HA_PCI_PMON_CTL0 = 0x400001 has EN set)");
	ucd_close(d);
	ucb_destroy(h);
	snapshot(after);
	check_same(before, after, "after the refusal"); /* nothing was written */

	stat_args[4] = root;
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "cbo0 counter 0 is in use by another agent (C0_MSR_PMON_CTL0 = 0x400000 has EN set)");
	CT_CONTAINS(out, "use --force");
	snapshot(after);
	check_same(before, after, "after the refusal");
	stat_args[9] = "--force";
	CT_EQ(run_cli(out, sizeof(out), stat_args), 0);
	CT_CONTAINS(out, "UNC_C_CLOCKTICKS");
	snapshot(after);
	check_same(before, after, "after a forced run");
	rm_tree();
	free(before);
	free(after);
}

/* The platform comes from CPUID family/model; a CPU that is not the one
 * named is refused unless forced; an E5-2600 CPU without its UBox on any
 * bus is refused; `allowlist --backend=hw` lists this CPU's MSRs. */
/* The MSR files alone, which a tree whose config files were cut to 64
 * bytes still has whole. */
static void msr_snapshot(struct snap *s)
{
	for (unsigned c = 0; c < T.ncpus; c++)
		slurp(msr_rel(c), 0, s->msr[c], MSR_BYTES);
}

/* Without root the kernel shows each PCI function's first 64 bytes only
 * (the backend reports -EACCES past them): the UBox's node ID at 0x40 is
 * out of reach.  An msr-safe user can still count the MSR boxes on both
 * sockets; an event of a PCI box is refused, naming the cause and the fix,
 * before anything is written. */
CT_TEST(snbep_hw_without_root_counts_the_msr_boxes)
{
	struct ucb *b;
	struct ucd *d;
	struct snap *before = snap_new(), *after = snap_new();

	CT_REQUIRE(before && after);
	make_snbep("snbep-nonroot", 0, &SNBEP_USUAL);
	put_msr(8, 0xD16, 0); /* socket 1's C0 counter 0 */
	snapshot(before);
	/* every function as a non-root reader sees it (the snapshot above has
	 * their whole space; the MSRs are compared below) */
	for (unsigned i = 0; i < T.nfn; i++)
		sized(T.fn[i].rel, 64);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(b, NULL, &d) == 0);
	CT_EQ(ucb_hw_allow(b, ucd_platform(d), ucd_mmio_base(d)), 0);
	CT_EQ(ucd_sockets(d), 2);
	CT_EQ(ucd_add_events(d, "cas_rd"), -EACCES);
	CT_CONTAINS(ucd_error(d), "PCI configuration space");
	CT_CONTAINS(ucd_error(d), "64 bytes");
	CT_CONTAINS(ucd_error(d), "run as root");
	msr_snapshot(after);
	CT_EQ(memcmp(before->msr, after->msr, sizeof(before->msr)), 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_C_CLOCKTICKS,UNC_U_CLOCKTICKS") == 0);
	/* 8 CBos (the tree's MSRs all answer) and the UBox, on both sockets */
	CT_EQ(ucd_ncounters(d), 2 * (8 + 1));
	CT_REQUIRE(ucd_start(d) == 0);
	put_msr(8, 0xD16, 12345);
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_REQUIRE(ucd_stop(d) == 0);
	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;

		CT_REQUIRE(ucd_counter(d, i, &ci) == 0);
		if (ci.socket == 1 && !strcmp(ci.box->type->name, "cbo") && ci.box->inst == 0)
			CT_EQ(ci.total, 12345);
	}
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	ucb_destroy(b);
	msr_snapshot(after);
	CT_EQ(memcmp(before->msr, after->msr, sizeof(before->msr)), 0);
	free(before);
	free(after);
	rm_tree();
}

CT_TEST(snbep_hw_refuses_a_mismatched_platform)
{
	static char out[1 << 18]; /* a whole register dump */
	const char *regs[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL, NULL, NULL, NULL };
	const char *al[] = { "uncore", "allowlist", "--backend=hw", "--hw-root", NULL, NULL };
	char p[600];

	/* an E5-2600 asked to be a Skylake client, and the other way round */
	make_snbep("snbep-mismatch", 0, &SNBEP_USUAL);
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[5] = "--platform";
	regs[6] = "skl";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "(GenuineIntel family 6 model 0x2d) is not 6th Generation Intel Core");
	CT_CONTAINS(out, "use --force");
	CT_EQ(run_cli(out, sizeof(out), al), 0);
	CT_CONTAINS(out, "MSR allowlist for snbep");
	CT_CONTAINS(out, "0x00000D10 0x00000000FFCEFFFF");
	rm_tree();
	make_tree("skl-mismatch", 0);
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[6] = "snbep";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "model 0x5e) is not Intel Xeon E5-2600");
	CT_EQ(run_cli(out, sizeof(out), al), 0);
	CT_CONTAINS(out, "MSR allowlist for skl");
	rm_tree();

	/* a Haswell-EP (model 0x3F): not detected, refused when named,
	 * programmed when forced */
	make_snbep("hsx", 0, &SNBEP_USUAL);
	cpuinfo(63, 2, "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz");
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[5] = NULL;
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "no supported uncore for family 6 model 0x3f");
	CT_EQ(run_cli(out, sizeof(out), al), 1);
	CT_CONTAINS(out, "no supported uncore for family 6 model 0x3f");
	regs[5] = "--platform";
	regs[6] = "snbep";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "is not Intel Xeon E5-2600");
	regs[7] = "--force";
	CT_EQ(run_cli(out, sizeof(out), regs), 0);
	CT_CONTAINS(out, "UBOX_CPUNODEID");
	rm_tree();

	/* the CPU says E5-2600, no bus has its UBox */
	make_snbep("noubox", 0, &SNBEP_USUAL);
	snprintf(p, sizeof(p), "rm -rf '%s/sys/bus/pci/devices/0000:3f:0b.0' '%s/sys/bus/pci/devices/0000:7f:0b.0'",
		 root, root);
	CT_REQUIRE(system(p) == 0);
	tree_open_to_all();
	regs[4] = root;
	regs[5] = NULL;
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "(8086:3ce0) on any PCI bus");
	rm_tree();
}

/* `uncore regs` on the E5-2600 tree: both sockets, each with its bus. */
CT_TEST(snbep_cli_regs_shows_both_sockets)
{
	size_t n = 1 << 18;
	char *out = malloc(n);
	const char *regs[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL };

	CT_REQUIRE(out);
	make_snbep("snbep-regs", 0, &SNBEP_MOVED);
	put_cfg(0x1F, 16, 4, 0xD8, 0x0304, 4);
	tree_open_to_all();
	regs[4] = root;
	CT_EQ(run_cli(out, n, regs), 0);
	CT_CONTAINS(out, "# hardware backend: MSR via /dev/cpu/N/msr, PCI via sysfs (else /proc/bus/pci)");
	CT_CONTAINS(out, "0 pci  ff:0b.0+0x040 UBOX_CPUNODEID               0x00000002");
	CT_CONTAINS(out, "1 pci  1f:0b.0+0x040 UBOX_CPUNODEID               0x00000005");
	CT_CONTAINS(out, "1 pci  1f:10.4+0x0d8 MC_CH2_PCI_PMON_CTL0         0x00000304");
	CT_CONTAINS(out, "1 msr  0xd10           C0_MSR_PMON_CTL0");
	rm_tree();
	free(out);
}

CT_MAIN()
