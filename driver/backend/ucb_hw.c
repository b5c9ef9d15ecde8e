/*
 * ucb_hw.c - the hardware backend: MSRs through /dev/cpu/N/msr or msr-safe
 * (/dev/cpu/N/msr_safe, and its batch ioctl so a whole sample costs one
 * system call), PCI configuration through sysfs or /proc/bus/pci, MMIO
 * through an mmap of /dev/mem (page-aligned, 32-bit loads only).
 *
 * System calls: every file is opened once per session and kept open (the
 * MSR devices, each PCI function's configuration file, /dev/mem with its
 * mapped pages) until the backend is destroyed, which the CLI does on
 * every exit, signals included; a PCI function's counters are read in one
 * pread of the block they span (hw_pci_read_ctrs).  One sample of every
 * counter: one system call per PCI function with counters plus one batch
 * for every MSR (docs/hw-validation.md, "System calls").
 *
 * Safety: until ucb_hw_allow() names the platform, every write is refused;
 * after it, only the registers of that platform's PMON tables can be
 * written, and PCI ones only on the uncore buses this backend finds itself
 * (the bus whose identifying device reports a node ID of one of this
 * machine's sockets), not on the platform's typical bus numbers: firmware
 * may number buses differently.  Every path is opened under a root
 * directory ("/" normally), so the backend works on a tree of ordinary
 * files in tests: pread/pwrite at an offset and mmap behave the same on
 * files.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ucb.h"
#include "ucb_hw.h"
#include "ucm.h"

#define MAXCPU 1024

/* msr-safe's batch interface (its msr_safe.h): one ioctl on
 * /dev/cpu/msr_batch runs many rdmsr/wrmsr.  The word after numops was
 * padding in older releases and is a version field in newer ones; 0 is
 * accepted by both (docs/hw-validation.md). */
struct hw_batch_op {
	uint16_t cpu;
	uint16_t isrdmsr;
	int32_t err;
	uint32_t msr;
	uint64_t msrdata;
	uint64_t wmask;
};
struct hw_batch_array {
	uint32_t numops;
	uint32_t version;
	struct hw_batch_op *ops;
};
#define HW_IOC_MSR_BATCH _IOWR('c', 0xA2, struct hw_batch_array)

struct allow {
	unsigned space;
	uint64_t key;        /* MSR address, PCI bdf<<12|off, MMIO offset from the BAR */
	unsigned bytes;
};

#define MAXBUS 8             /* uncore buses: one per socket, at most 8 nodes */
#define MAXPCIFD 96          /* PCI functions kept open (two E5-2600 v2 sockets: 42) */
#define MAXPAGES 16          /* /dev/mem pages kept mapped (the client's window: 8) */

struct pcifd {
	struct ucb_pci at;
	int fd;
	int rw;                    /* opened for writing too */
};

struct page {
	uint64_t pa;               /* page-aligned physical address */
	void *p;
	int rw;                    /* mapped writable */
};

struct hw {
	char root[1024];
	/* byte offset of MSR n in the msr files: n on the real device; 8n in a
	 * test tree, where a file cannot hold an 8-byte register at every byte
	 * offset without neighbours overlapping (docs/hw-validation.md) */
	unsigned msr_scale;
	int msr_mode, pci_mode;    /* resolved: UCB_HW_MSR / _MSR_SAFE, _SYSFS / _PROC */
	int pci_fallback;          /* sysfs chosen automatically: a function sysfs
				    * does not show is looked up in /proc/bus/pci */
	int msr_fd[MAXCPU];
	int batch_fd;
	const struct ucm_platform *plat;
	struct allow *allow;       /* sorted by space, then key; no overlaps */
	size_t nallow;
	uint64_t bar;              /* MMIO base for allow checks */
	uint8_t bus[MAXBUS];       /* uncore PCI buses the allow-list covers */
	uint8_t bus_socket[MAXBUS];
	unsigned nbus;
	char bus_names[3 * MAXBUS + 16]; /* "3f 7f", for messages */
	int cpu_sockets[64];       /* first cpu of each socket, -1 none */
	unsigned nsockets;
	struct pcifd pcifd[MAXPCIFD];
	unsigned npcifd, pcifd_next; /* entries; the next to reuse when full */
	int mem_fd, mem_rw;        /* /dev/mem, -1 until the first MMIO access */
	struct page pages[MAXPAGES];
	unsigned npages, page_next;
	uint64_t ctr_rate;         /* events per microsecond no PCI counter of the
				    * allowed platform exceeds; 0: unknown */
	uint64_t fn_rate[32][8];   /* the same for the counters of device, function; 0: unknown */
};

static struct hw *H(struct ucb *b)
{
	return b->priv;
}

static void path(const struct hw *h, char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void path(const struct hw *h, char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	size_t k = (size_t)snprintf(buf, n, "%s", strcmp(h->root, "/") ? h->root : "");

	va_start(ap, fmt);
	vsnprintf(buf + k, n - k, fmt, ap);
	va_end(ap);
}

static int exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* ---- MSR ---- */

/* One line naming the failure and its fix. */
static int msr_open_error(struct ucb *b, unsigned cpu, const char *p, int e)
{
	struct hw *h = H(b);
	char dir[1200];

	path(h, dir, sizeof(dir), "/dev/cpu/%u", cpu);
	if (e == ENOENT && !exists(dir))
		return ucb_seterr(b, -ENODEV, "cpu %u: %s does not exist (no such cpu, or not Linux)", cpu, dir);
	if (e == ENOENT && h->msr_mode == UCB_HW_MSR_SAFE)
		return ucb_seterr(b, -ENOENT, "%s: msr-safe is not loaded: install it (github LLNL/msr-safe) and load msr_safe, or use --hw-msr msr", p);
	if (e == ENOENT)
		return ucb_seterr(b, -ENOENT, "%s: the msr module is not loaded: run 'modprobe msr'", p);
	if (e == EACCES || e == EPERM)
		return ucb_seterr(b, -EACCES,
				  "%s: permission denied: run as root (CAP_SYS_RAWIO), or give this user msr-safe access (--hw-msr msr-safe)",
				  p);
	return ucb_seterr(b, -e, "%s: %s", p, strerror(e));
}

static int msr_fd(struct ucb *b, unsigned cpu, int *fd)
{
	struct hw *h = H(b);
	char p[1200];

	if (cpu >= MAXCPU)
		return ucb_seterr(b, -EINVAL, "cpu %u out of range", cpu);
	if (h->msr_fd[cpu] < 0) {
		path(h, p, sizeof(p), "/dev/cpu/%u/%s", cpu, h->msr_mode == UCB_HW_MSR_SAFE ? "msr_safe" : "msr");
		h->msr_fd[cpu] = open(p, O_RDWR | O_CLOEXEC);
		if (h->msr_fd[cpu] < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
			h->msr_fd[cpu] = open(p, O_RDONLY | O_CLOEXEC); /* reads may still work */
		if (h->msr_fd[cpu] < 0)
			return msr_open_error(b, cpu, p, errno);
	}
	*fd = h->msr_fd[cpu];
	return 0;
}

/* The register that holds [key, key + bytes) whole, or NULL.  A binary
 * search: the whole-range sweeps of the tests (and msr-safe batches) ask
 * millions of times. */
static const struct allow *allowed(const struct hw *h, unsigned space, uint64_t key, unsigned bytes)
{
	size_t lo = 0, hi = h->nallow;

	/* first entry after (space, key) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct allow *a = &h->allow[mid];

		if (a->space < space || (a->space == space && a->key <= key))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		const struct allow *a = &h->allow[lo - 1];

		if (a->space == space && key >= a->key && key + bytes <= a->key + a->bytes)
			return a;
	}
	return NULL;
}

static int refuse(struct ucb *b, const char *what, uint64_t where)
{
	const struct hw *h = H(b);

	if (!h->plat)
		return ucb_seterr(b, -EPERM, "%s 0x%" PRIx64 " refused: no platform allowed for writing yet", what,
				  where);
	return ucb_seterr(b, -EPERM, "%s 0x%" PRIx64 " refused: not a PMON register of %s", what, where,
			  h->plat->name);
}

static int hw_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	int fd, rc;
	ssize_t n;

	*val = 0;
	if ((rc = msr_fd(b, cpu, &fd)))
		return rc;
	n = pread(fd, val, 8, (off_t)addr * H(b)->msr_scale);
	if (n == 8)
		return 0;
	if (n < 0 && errno == EIO)
		return ucb_seterr(b, -EIO, "rdmsr 0x%x on cpu %u: the CPU faulted (#GP): no such MSR on this CPU",
				  addr, cpu);
	if (n < 0 && (errno == EACCES || errno == EPERM))
		return ucb_seterr(b, -EACCES,
				  "rdmsr 0x%x on cpu %u: not permitted (msr-safe: the MSR is not in /dev/cpu/msr_allowlist; see 'uncore allowlist')",
				  addr, cpu);
	return ucb_seterr(b, n < 0 ? -errno : -EIO, "rdmsr 0x%x on cpu %u: %s", addr, cpu,
			  n < 0 ? strerror(errno) : "short read");
}

static int hw_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	int fd, rc;
	ssize_t n;

	if (!allowed(H(b), UCM_MSR, addr, 1))
		return refuse(b, "wrmsr", addr);
	if ((rc = msr_fd(b, cpu, &fd)))
		return rc;
	n = pwrite(fd, &val, 8, (off_t)addr * H(b)->msr_scale);
	if (n == 8)
		return 0;
	if (n < 0 && (errno == EPERM || errno == EACCES || errno == EBADF))
		return ucb_seterr(b, -EPERM,
				  "wrmsr 0x%x on cpu %u: writes are filtered by the kernel: boot with msr.allow_writes=on, or use msr-safe",
				  addr, cpu);
	if (n < 0 && errno == EIO)
		return ucb_seterr(b, -EIO, "wrmsr 0x%x on cpu %u: the CPU faulted (#GP): value 0x%" PRIx64 " rejected",
				  addr, cpu, val);
	return ucb_seterr(b, n < 0 ? -errno : -EIO, "wrmsr 0x%x on cpu %u: %s", addr, cpu,
			  n < 0 ? strerror(errno) : "short write");
}

/* msr-safe: the whole batch in one ioctl; without it, one access each. */
static int hw_msr_batch(struct ucb *b, struct ucb_msr_op *ops, unsigned n)
{
	struct hw *h = H(b);
	struct hw_batch_op *bo;
	struct hw_batch_array arr;
	int first = 0;

	if (h->batch_fd < 0) {
		for (unsigned i = 0; i < n; i++) {
			ops[i].rc = ops[i].write ? hw_msr_write(b, ops[i].cpu, ops[i].addr, ops[i].val)
						 : hw_msr_read(b, ops[i].cpu, ops[i].addr, &ops[i].val);
			if (ops[i].rc)
				return ops[i].rc;
		}
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		/* the batch names a cpu in 16 bits: no other cpu by truncation */
		if (ops[i].cpu >= MAXCPU)
			return ucb_seterr(b, -EINVAL, "cpu %u out of range", ops[i].cpu);
		if (ops[i].write && !allowed(h, UCM_MSR, ops[i].addr, 1))
			return refuse(b, "wrmsr", ops[i].addr);
	}
	bo = calloc(n ? n : 1, sizeof(*bo));
	if (!bo)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		bo[i] = (struct hw_batch_op){ (uint16_t)ops[i].cpu, (uint16_t)!ops[i].write, 0, ops[i].addr,
					      ops[i].val, 0 };
	arr = (struct hw_batch_array){ n, 0, bo };
	if (ioctl(h->batch_fd, HW_IOC_MSR_BATCH, &arr) < 0 && errno != EIO) {
		int e = errno;

		free(bo);
		return ucb_seterr(b, -e, "msr-safe batch of %u: %s", n, strerror(e));
	}
	for (unsigned i = 0; i < n; i++) {
		ops[i].rc = bo[i].err > 0 ? -bo[i].err : bo[i].err;
		if (!ops[i].write)
			ops[i].val = bo[i].msrdata;
		if (ops[i].rc && !first) {
			first = ops[i].rc;
			ucb_seterr(b, first, "msr-safe batch: %s 0x%x on cpu %u: %s",
				   ops[i].write ? "wrmsr" : "rdmsr", ops[i].addr, ops[i].cpu, strerror(-first));
		}
	}
	free(bo);
	return first;
}

/* ---- PCI configuration ---- */

static void pci_path(const struct hw *h, int proc, const struct ucb_pci *d, char *p, size_t n)
{
	/* /proc/bus/pci names domain 0 buses "BB", others "SSSS:BB" */
	if (proc && d->seg)
		path(h, p, n, "/proc/bus/pci/%04x:%02x/%02x.%x", d->seg, d->bus, d->dev, d->fn);
	else if (proc)
		path(h, p, n, "/proc/bus/pci/%02x/%02x.%x", d->bus, d->dev, d->fn);
	else
		path(h, p, n, "/sys/bus/pci/devices/%04x:%02x:%02x.%x/config", d->seg, d->bus, d->dev, d->fn);
}

static int pci_open(struct ucb *b, const struct ucb_pci *d, int write, int *fd)
{
	struct hw *h = H(b);
	char p[1200], alt[1200];
	int e;

	pci_path(h, h->pci_mode == UCB_HW_PCI_PROC, d, p, sizeof(p));
	*fd = open(p, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	e = errno;
	if (e == ENOENT && h->pci_fallback) {
		/* the same configuration space, where sysfs does not show it */
		pci_path(h, 1, d, alt, sizeof(alt));
		if ((*fd = open(alt, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC)) >= 0)
			return 0;
		if (errno != ENOENT) {
			e = errno;
			memcpy(p, alt, sizeof(p));
		}
	}
	if (e == ENOENT)
		return ucb_seterr(b, -ENODEV, "no PCI device %04x:%02x:%02x.%x (%s)", d->seg, d->bus, d->dev,
				  d->fn, p);
	if (e == EACCES || e == EPERM)
		return ucb_seterr(b, -EACCES, "%s: permission denied: PCI configuration writes, and reads past 64 bytes, need root",
				  p);
	return ucb_seterr(b, -e, "%s: %s", p, strerror(e));
}

/* A function's configuration file, opened once and kept: for writing too
 * where the user may (reads through the same descriptor), else read-only
 * until a write asks again.  Functions that are not there are not kept:
 * the bus scans ask about 256 of them once. */
static int pci_fd(struct ucb *b, const struct ucb_pci *d, int write, int *fd)
{
	struct hw *h = H(b);
	struct pcifd *c = NULL;
	int rc, rw = 1;

	for (unsigned i = 0; i < h->npcifd; i++)
		if (!memcmp(&h->pcifd[i].at, d, sizeof(*d))) {
			c = &h->pcifd[i];
			if (c->rw || !write) {
				*fd = c->fd;
				return 0;
			}
			break;
		}
	if ((rc = pci_open(b, d, 1, fd))) {
		if (write || rc == -ENODEV)
			return rc;
		rw = 0;
		if ((rc = pci_open(b, d, 0, fd)))
			return rc;
		b->err[0] = 0;
	}
	if (!c && h->npcifd < MAXPCIFD) {
		c = &h->pcifd[h->npcifd++];
	} else if (!c) {
		c = &h->pcifd[h->pcifd_next];
		h->pcifd_next = (h->pcifd_next + 1) % MAXPCIFD;
		close(c->fd);
	} else {
		close(c->fd);
	}
	*c = (struct pcifd){ *d, *fd, rw };
	return 0;
}

/* Names the function and the uncore buses found, which is what a user
 * whose firmware numbers buses unusually needs to see. */
static int refuse_pci(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width)
{
	const struct hw *h = H(b);

	if (!h->plat)
		return ucb_seterr(b, -EPERM, "PCI config write at %02x:%02x.%x+0x%x refused: no platform allowed for writing yet",
				  d->bus, d->dev, d->fn, off);
	return ucb_seterr(b, -EPERM,
			  "PCI config write of %u bytes at %02x:%02x.%x+0x%x refused: not a PMON register of %s on its uncore buses (%s)",
			  width, d->bus, d->dev, d->fn, off, h->plat->name, h->bus_names);
}

static int pci_read_error(struct ucb *b, const struct ucb_pci *d, unsigned off, ssize_t n)
{
	if (n >= 0 && off >= 64)
		return ucb_seterr(b, -EACCES,
				  "PCI %02x:%02x.%x offset 0x%x: the kernel shows only 64 bytes of configuration to non-root users",
				  d->bus, d->dev, d->fn, off);
	return ucb_seterr(b, n < 0 ? -errno : -EIO, "PCI %02x:%02x.%x offset 0x%x: %s", d->bus, d->dev, d->fn, off,
			  n < 0 ? strerror(errno) : "short read");
}

static int hw_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width, uint64_t *val)
{
	int fd, rc;
	ssize_t n;

	*val = 0;
	if ((rc = pci_fd(b, d, 0, &fd)))
		return rc;
	n = pread(fd, val, width, off);
	if (n == (ssize_t)width)
		return 0;
	return pci_read_error(b, d, off, n);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The counters of one function in one pread of the block they span.  The
 * kernel reads configuration space a dword at a time, upwards: each
 * counter's low dword before its high one, so a carry between the two
 * reads would show as 2^32 too much.  It can only have happened to a
 * counter whose low dword was within what a counter can add during the
 * read (the function's fastest event at its clock's maximum, over the time
 * the pread took, measured around it, plus 2 us for the clock's
 * granularity; the clock is no system call):
 * those few are read again as ucb_pci_read_ctrs defines it, high, low,
 * high (hw_pci_read: more system calls, rarely). */
static int hw_pci_read_ctrs(struct ucb *b, const struct ucb_pci *d, const unsigned *off, unsigned n,
			    uint64_t *val)
{
	struct hw *h = H(b);
	uint8_t buf[4096];
	unsigned lo = 4096, end = 0;
	uint64_t t0, t1, rate, guard;
	ssize_t got;
	int fd, rc;

	for (unsigned i = 0; i < n; i++) {
		if (off[i] % 4 || off[i] > sizeof(buf) - 8)
			return ucb_seterr(b, -EINVAL, "PCI %02x:%02x.%x counter at 0x%x: not an aligned offset below 0x1000",
					  d->bus, d->dev, d->fn, off[i]);
		lo = off[i] < lo ? off[i] : lo;
		end = off[i] + 8 > end ? off[i] + 8 : end;
	}
	if ((rc = pci_fd(b, d, 0, &fd)))
		return rc;
	t0 = now_us();
	got = pread(fd, buf, end - lo, lo);
	t1 = now_us();
	if (got != (ssize_t)(end - lo))
		return pci_read_error(b, d, got >= 0 && lo + (unsigned)got >= 64 ? lo + (unsigned)got : lo, got);
	rate = d->dev < 32 && d->fn < 8 && h->fn_rate[d->dev][d->fn] ? h->fn_rate[d->dev][d->fn] : h->ctr_rate;
	guard = rate ? rate * (t1 - t0 + 2) : UINT64_MAX;
	for (unsigned i = 0; i < n; i++) {
		uint32_t l, hi;

		memcpy(&l, buf + off[i] - lo, 4);
		memcpy(&hi, buf + off[i] - lo + 4, 4);
		val[i] = (uint64_t)hi << 32 | l;
		if ((uint64_t)UINT32_MAX - l < guard &&
		    (rc = ucb_pci_read_ctr_dwords(b, hw_pci_read, d, off[i], &val[i])))
			return rc;
	}
	return 0;
}

static int hw_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width, uint64_t val)
{
	int fd, rc;
	ssize_t n;

	if (!allowed(H(b), UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), width))
		return refuse_pci(b, d, off, width);
	if ((rc = pci_fd(b, d, 1, &fd)))
		return rc;
	n = pwrite(fd, &val, width, off);
	if (n == (ssize_t)width)
		return 0;
	return ucb_seterr(b, n < 0 ? -errno : -EIO, "PCI %02x:%02x.%x offset 0x%x write: %s", d->bus, d->dev, d->fn,
			  off, n < 0 ? strerror(errno) : "short write");
}

/* ---- MMIO ---- */

static int lockdown(const struct hw *h, char *mode, size_t n)
{
	char p[1200], buf[256];
	FILE *f;
	char *s, *e;

	path(h, p, sizeof(p), "/sys/kernel/security/lockdown");
	if (!(f = fopen(p, "r")))
		return 0;
	s = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!s || !(s = strchr(buf, '[')) || !(e = strchr(s, ']')))
		return 0;
	snprintf(mode, n, "%.*s", (int)(e - s - 1), s + 1);
	return strcmp(mode, "none") != 0;
}

/* /dev/mem, opened once: for writing too where the user may, else
 * read-only until a write asks again. */
static int mem_open(struct ucb *b, int write)
{
	struct hw *h = H(b);
	char dev[1200], mode[64];
	int fd, e;

	if (h->mem_fd >= 0 && (h->mem_rw || !write))
		return 0;
	path(h, dev, sizeof(dev), "/dev/mem");
	fd = open(dev, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd >= 0) {
		/* pages mapped read-only stay so; new ones map writable */
		if (h->mem_fd >= 0)
			close(h->mem_fd);
		h->mem_fd = fd;
		h->mem_rw = 1;
		return 0;
	}
	e = errno;
	if (!write && (e == EACCES || e == EPERM || e == EROFS)) {
		if ((fd = open(dev, O_RDONLY | O_SYNC | O_CLOEXEC)) >= 0) {
			h->mem_fd = fd;
			h->mem_rw = 0;
			return 0;
		}
		e = errno;
	}
	if (lockdown(h, mode, sizeof(mode)))
		return ucb_seterr(b, -EPERM,
				  "%s: kernel lockdown (%s, e.g. Secure Boot) blocks /dev/mem: the IMC counters cannot be read; disable Secure Boot or boot with lockdown=none",
				  dev, mode);
	if (e == EACCES || e == EPERM)
		return ucb_seterr(b, -EACCES, "%s: permission denied: /dev/mem needs root (CAP_SYS_RAWIO)", dev);
	return ucb_seterr(b, -e, "%s: %s", dev, strerror(e));
}

/* The page around pa, mapped once and kept until the backend goes. */
static int mmio_map(struct ucb *b, uint64_t pa, int write, volatile uint32_t **p)
{
	struct hw *h = H(b);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = pa & ~(uint64_t)(page - 1);
	struct page *pg = NULL;
	char dev[1200], mode[64];
	void *base;
	int rc;

	for (unsigned i = 0; i < h->npages; i++)
		if (h->pages[i].pa == start) {
			pg = &h->pages[i];
			if (pg->rw || !write) {
				*p = (volatile uint32_t *)((char *)pg->p + (pa - start));
				return 0;
			}
			break;
		}
	if ((rc = mem_open(b, write)))
		return rc;
	path(h, dev, sizeof(dev), "/dev/mem");
	base = mmap(NULL, (size_t)page, PROT_READ | (h->mem_rw ? PROT_WRITE : 0), MAP_SHARED, h->mem_fd,
		    (off_t)start);
	if (base == MAP_FAILED) {
		int e = errno;

		if (lockdown(h, mode, sizeof(mode)))
			return ucb_seterr(b, -EPERM, "%s: kernel lockdown (%s) blocks mapping 0x%" PRIx64, dev, mode, pa);
		if (e == EPERM)
			return ucb_seterr(b, -EPERM,
					  "mapping 0x%" PRIx64 " from %s refused: the kernel restricts /dev/mem (CONFIG_STRICT_DEVMEM / iomem=relaxed)",
					  pa, dev);
		return ucb_seterr(b, -e, "mapping 0x%" PRIx64 " from %s: %s", pa, dev, strerror(e));
	}
	if (!pg && h->npages < MAXPAGES) {
		pg = &h->pages[h->npages++];
	} else {
		if (!pg) {
			pg = &h->pages[h->page_next];
			h->page_next = (h->page_next + 1) % MAXPAGES;
		}
		munmap(pg->p, (size_t)page);
	}
	*pg = (struct page){ start, base, h->mem_rw };
	*p = (volatile uint32_t *)((char *)base + (pa - start));
	return 0;
}

/* 32-bit loads only: a 64-bit load over two counters returns both, torn */
static int hw_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	volatile uint32_t *lo, *hi;
	int rc;

	*val = 0;
	if ((width != 4 && width != 8) || pa % 4)
		return ucb_seterr(b, -EINVAL, "MMIO read of %u bytes at 0x%" PRIx64 ": 4 or 8, aligned", width, pa);
	if ((rc = mmio_map(b, pa, 0, &lo)) || (width == 8 && (rc = mmio_map(b, pa + 4, 0, &hi))))
		return rc;
	*val = *lo;
	if (width == 8)
		*val |= (uint64_t)*hi << 32;
	return 0;
}

static int hw_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	struct hw *h = H(b);
	volatile uint32_t *lo, *hi;
	int rc;

	/* as reads: the stores below are 32 bits, so another width would
	 * write bytes beside the register allowed */
	if ((width != 4 && width != 8) || pa % 4)
		return ucb_seterr(b, -EINVAL, "MMIO write of %u bytes at 0x%" PRIx64 ": 4 or 8, aligned", width, pa);
	if (!h->bar || pa < h->bar || !allowed(h, UCM_MMIO, pa - h->bar, width))
		return refuse(b, "MMIO write at", pa);
	if ((rc = mmio_map(b, pa, 1, &lo)) || (width == 8 && (rc = mmio_map(b, pa + 4, 1, &hi))))
		return rc;
	*lo = (uint32_t)val;
	if (width == 8)
		*hi = (uint32_t)(val >> 32);
	return 0;
}

/* ---- CPUID, topology, time ---- */

/* Under a test root, CPUID answers from that tree's /proc/cpuinfo (vendor,
 * family, model); on the real root, the instruction itself. */
static int hw_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	struct hw *h = H(b);
	char p[1200], line[256], vendor[13] = "";
	unsigned fam = 0, model = 0, step = 0;
	FILE *f;

	memset(r, 0, 4 * sizeof(r[0]));
	if (!strcmp(h->root, "/")) {
#if defined(__x86_64__) || defined(__i386__)
		(void)cpu;
		__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
		return 0;
#else
		return ucb_seterr(b, -ENODEV, "wrong CPU: not an x86 machine");
#endif
	}
	path(h, p, sizeof(p), "/proc/cpuinfo");
	if (!(f = fopen(p, "r")))
		return ucb_seterr(b, -ENOENT, "%s: %s", p, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "vendor_id : %12s", vendor) == 1)
			continue;
		if (sscanf(line, "cpu family : %u", &fam) == 1 || sscanf(line, "model : %u", &model) == 1 ||
		    sscanf(line, "stepping : %u", &step) == 1)
			continue;
		if (line[0] == '\n' && vendor[0])
			break; /* the first processor is enough */
	}
	fclose(f);
	(void)sub;
	if (leaf == 0) {
		r[0] = 0xD;
		memcpy(&r[1], vendor, 4);
		memcpy(&r[3], vendor + 4, 4);
		memcpy(&r[2], vendor + 8, 4);
	} else if (leaf == 1) {
		unsigned bfam = fam > 0xF ? 0xF : fam;

		r[0] = ((fam > 0xF ? fam - 0xF : 0) << 20) | ((model >> 4) << 16) | (bfam << 8) |
		       ((model & 0xF) << 4) | (step & 0xF);
	}
	return 0;
}

static void topology(struct hw *h)
{
	for (unsigned s = 0; s < 64; s++)
		h->cpu_sockets[s] = -1;
	h->nsockets = 0;
	for (unsigned cpu = 0, missing = 0; cpu < MAXCPU && missing < 64; cpu++) {
		char p[1200];
		FILE *f;
		unsigned pkg;

		/* offline cpus have no topology: skip them, stop after a long gap */
		path(h, p, sizeof(p), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", cpu);
		if (!(f = fopen(p, "r"))) {
			missing++;
			continue;
		}
		missing = 0;
		if (fscanf(f, "%u", &pkg) == 1 && pkg < 64 && h->cpu_sockets[pkg] < 0) {
			h->cpu_sockets[pkg] = (int)cpu;
			if (pkg + 1 > h->nsockets)
				h->nsockets = pkg + 1;
		}
		fclose(f);
	}
}

static int hw_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	struct hw *h = H(b);

	if (socket >= 64 || h->cpu_sockets[socket] < 0)
		return ucb_seterr(b, -ENOENT, "no socket %u", socket);
	*cpu = (unsigned)h->cpu_sockets[socket];
	return 0;
}

static int hw_now(struct ucb *b, uint64_t *ns)
{
	struct timespec ts;

	(void)b;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

/* A signal ends the wait with -EINTR, so the driver can restore and go. */
static int hw_sleep(struct ucb *b, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	/* a signal that came before the wait began would not end it */
	if (ucb_stopping())
		return ucb_seterr(b, -EINTR, "interrupted");
	if (nanosleep(&ts, NULL))
		return ucb_seterr(b, -errno, "interrupted");
	return 0;
}

static void hw_destroy(struct ucb *b)
{
	struct hw *h = H(b);

	for (unsigned i = 0; i < MAXCPU; i++)
		if (h->msr_fd[i] >= 0)
			close(h->msr_fd[i]);
	if (h->batch_fd >= 0)
		close(h->batch_fd);
	for (unsigned i = 0; i < h->npcifd; i++)
		close(h->pcifd[i].fd);
	for (unsigned i = 0; i < h->npages; i++)
		munmap(h->pages[i].p, (size_t)sysconf(_SC_PAGESIZE));
	if (h->mem_fd >= 0)
		close(h->mem_fd);
	free(h->allow);
	free(h);
	free(b);
}

static const struct ucb_ops hw_ops = {
	.name = "hw",
	.msr_read = hw_msr_read,
	.msr_write = hw_msr_write,
	.msr_batch = hw_msr_batch,
	.pci_read = hw_pci_read,
	.pci_write = hw_pci_write,
	.pci_read_ctrs = hw_pci_read_ctrs,
	.mmio_read = hw_mmio_read,
	.mmio_write = hw_mmio_write,
	.cpuid = hw_cpuid,
	.socket_cpu = hw_socket_cpu,
	.now_ns = hw_now,
	.sleep_ns = hw_sleep,
	.destroy = hw_destroy,
};

int ucb_hw_create(const struct ucb_hw_opts *o, struct ucb **out, char *err, size_t n)
{
	struct ucb *b = calloc(1, sizeof(*b));
	struct hw *h = calloc(1, sizeof(*h));
	char p[1200];

	*out = NULL;
	if (!b || !h) {
		free(b);
		free(h);
		return -ENOMEM;
	}
	snprintf(h->root, sizeof(h->root), "%s", o && o->root && *o->root ? o->root : "/");
	h->msr_scale = strcmp(h->root, "/") ? 8 : 1;
	for (unsigned i = 0; i < MAXCPU; i++)
		h->msr_fd[i] = -1;
	h->batch_fd = -1;
	h->mem_fd = -1;
	/* msr-safe when asked, or when it is there and the plain driver is not
	 * usable; the plain msr driver otherwise */
	h->msr_mode = o ? o->msr : UCB_HW_AUTO;
	if (h->msr_mode == UCB_HW_AUTO) {
		path(h, p, sizeof(p), "/dev/cpu/0/msr");
		h->msr_mode = access(p, R_OK | W_OK) == 0 ? UCB_HW_MSR : UCB_HW_MSR_SAFE;
		path(h, p, sizeof(p), "/dev/cpu/0/msr_safe");
		if (h->msr_mode == UCB_HW_MSR_SAFE && !exists(p))
			h->msr_mode = UCB_HW_MSR; /* errors will say what is missing */
	}
	if (h->msr_mode == UCB_HW_MSR_SAFE) {
		path(h, p, sizeof(p), "/dev/cpu/msr_batch");
		h->batch_fd = open(p, O_RDWR | O_CLOEXEC);
	}
	h->pci_mode = o ? o->pci : UCB_HW_AUTO;
	if (h->pci_mode == UCB_HW_AUTO) {
		path(h, p, sizeof(p), "/sys/bus/pci/devices");
		h->pci_mode = exists(p) ? UCB_HW_PCI_SYSFS : UCB_HW_PCI_PROC;
		h->pci_fallback = h->pci_mode == UCB_HW_PCI_SYSFS;
	}
	topology(h);
	if (!h->nsockets) {
		path(h, p, sizeof(p), "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
		snprintf(err, n, "%s: cannot read the CPU topology", p);
		free(h);
		free(b);
		return -ENODEV;
	}
	b->ops = &hw_ops;
	b->priv = h;
	*out = b;
	return 0;
}

const char *ucb_hw_describe(struct ucb *b)
{
	struct hw *h = H(b);
	static char buf[1400];

	snprintf(buf, sizeof(buf), "MSR via %s%s, PCI via %s, MMIO via /dev/mem, root %s",
		 h->msr_mode == UCB_HW_MSR_SAFE ? "msr-safe" : "/dev/cpu/N/msr",
		 h->batch_fd >= 0 ? " (batched)" : "",
		 h->pci_mode == UCB_HW_PCI_PROC ? "/proc/bus/pci"
		 : h->pci_fallback ? "sysfs (else /proc/bus/pci)" : "sysfs",
		 h->root);
	return buf;
}

/* The bits of a register software may write (RW, RW1C, WO); 0: none. */
static uint64_t write_mask(const struct ucm_layout *l)
{
	uint64_t m = 0;

	for (unsigned f = 0; f < l->nfields; f++)
		if (l->fields[f].access == UCM_A_RW || l->fields[f].access == UCM_A_RW1C ||
		    l->fields[f].access == UCM_A_WO)
			m |= ucm_field_mask(&l->fields[f]);
	return m;
}

/* The identifying PCI function of a platform (the box with a device-ID
 * register reporting the platform's first ID, as the driver picks it) and
 * its register of kind k, or NULL. */
static const struct ucm_boxinst *ident_box(const struct ucm_platform *p, unsigned k,
					   const struct ucm_regdef **def)
{
	*def = NULL;
	for (unsigned i = 0; i < p->nboxes && p->ndevids; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];

		if (bi->type->space != UCM_PCI || (bi->devid && bi->devid != p->devids[0]) ||
		    !ucm_regdef_find(bi->type, UCM_K_DEVID, 0))
			continue;
		*def = ucm_regdef_find(bi->type, k, 0);
		return bi;
	}
	return NULL;
}

/* The uncore buses, found as the hardware describes them rather than at
 * the platform's typical numbers (Xeon: 0x3F, 0x7F; firmware may choose
 * others): every bus whose identifying function (SNB-EP: the UBox, D11:F0,
 * device 0x3CE0) reports a node ID (CPUNODEID 0x40) that the node map
 * (GIDNIDMAP 0x54) gives to a socket this machine has (public facts; Linux
 * uncore_snbep.c does the same).  The driver finds them the same way; the
 * backend does it again so that what it lets be written does not depend
 * on what the driver says.  A platform without a node ID register (the
 * client's host bridge) has fixed buses. */
static void find_buses(struct ucb *b, const struct ucm_platform *p)
{
	struct hw *h = H(b);
	const struct ucm_regdef *did, *nid, *map;
	const struct ucm_boxinst *bi = ident_box(p, UCM_K_DEVID, &did);

	h->nbus = 0;
	if (!bi || !ident_box(p, UCM_K_NODEID, &nid) || !nid) {
		for (unsigned s = 0; s < p->max_sockets && s < MAXBUS; s++) {
			h->bus_socket[h->nbus] = (uint8_t)s;
			h->bus[h->nbus++] = p->pci_bus[s];
		}
		return;
	}
	ident_box(p, UCM_K_NODEMAP, &map);
	for (unsigned bus = 0; bus < 256 && h->nbus < MAXBUS; bus++) {
		struct ucb_pci pci = { 0, (uint8_t)bus, bi->dev, bi->fn };
		uint64_t vid, dev, node, nmap = 0xFAC688; /* no map: node i is socket i */
		unsigned sock;

		if (hw_pci_read(b, &pci, 0, 2, &vid) || vid != p->pci_vendor ||
		    hw_pci_read(b, &pci, (unsigned)(bi->base + did->off), 2, &dev) || dev != p->devids[0] ||
		    hw_pci_read(b, &pci, (unsigned)(bi->base + nid->off), 4, &node) ||
		    (map && hw_pci_read(b, &pci, (unsigned)(bi->base + map->off), 4, &nmap)))
			continue;
		node = ucm_field_get(ucm_layout_field(nid->layout, UCM_R_VALUE), node);
		for (sock = 0; sock < 8 && ((nmap >> (3 * sock)) & 7) != node; sock++)
			;
		/* a node of no socket, or of a socket beyond the platform's or
		 * without a cpu here: not ours to write */
		if (sock >= p->max_sockets || h->cpu_sockets[sock] < 0)
			continue;
		h->bus_socket[h->nbus] = (uint8_t)sock;
		h->bus[h->nbus++] = (uint8_t)bus;
	}
	b->err[0] = 0; /* the buses without the function are no error */
}

static int cmp_allow(const void *x, const void *y)
{
	const struct allow *a = x, *b = y;

	if (a->space != b->space)
		return a->space < b->space ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* The platform's writable registers: every register with a bit software
 * may write (RW, RW1C or write-only), the MSRs and the MMIO window once
 * (per package, per BAR), the PCI ones on every uncore bus found; never
 * the BAR itself. */
static int build_allow(struct hw *h, const struct ucm_platform *p)
{
	size_t cap = 0, k = 0, j = 0;
	struct allow *a;

	for (unsigned i = 0; i < p->nboxes; i++)
		cap += (size_t)p->boxes[i].type->nregs * (h->nbus + 1);
	a = calloc(cap ? cap : 1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];
		unsigned copies = bi->type->space == UCM_PCI ? h->nbus : 1;

		for (unsigned r = 0; r < bi->type->nregs; r++) {
			const struct ucm_regdef *d = &bi->type->regs[r];

			/* the BAR is configuration, never ours to move */
			if (!write_mask(d->layout) || d->kind == UCM_K_BAR)
				continue;
			for (unsigned c = 0; c < copies; c++) {
				a[k].space = bi->type->space;
				a[k].bytes = bi->type->space == UCM_MSR ? 1 : d->layout->width / 8;
				a[k].key = bi->type->space == UCM_PCI
						   ? ucm_pci_key(h->bus[c], bi->dev, bi->fn, (unsigned)(bi->base + d->off))
						   : bi->base + d->off;
				k++;
			}
		}
	}
	qsort(a, k, sizeof(*a), cmp_allow);
	/* the same MSR may be listed by two tables: keep one */
	for (size_t i = 0; i < k; i++)
		if (!j || a[i].space != a[j - 1].space || a[i].key != a[j - 1].key)
			a[j++] = a[i];
	k = j;
	h->allow = a;
	h->nallow = k;
	return 0;
}

/* What a PCI counter of platform p can add in a microsecond at most: its
 * box's largest increment per cycle (1 for a box without event codes: a
 * fixed or free-running counter) at its clock's maximum, rounded up; per
 * device and function in h->fn_rate, the largest in h->ctr_rate. */
static void ctr_rates(struct hw *h, const struct ucm_platform *p)
{
	memset(h->fn_rate, 0, sizeof(h->fn_rate));
	h->ctr_rate = 0;
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];
		const struct ucm_boxtype *bt = bi->type;
		uint64_t inc = 1, r;

		if (bt->space != UCM_PCI || !bt->nctr)
			continue;
		for (unsigned c = 0; c < bt->ncodes; c++)
			inc = bt->codes[c].max_inc > inc ? bt->codes[c].max_inc : inc;
		r = (inc * p->clocks[bt->clock].hz_max + 999999) / 1000000;
		h->ctr_rate = r > h->ctr_rate ? r : h->ctr_rate;
		/* counters past 0xFFF are on the next function (UCM_PCI_FN) */
		for (unsigned k = 0; k < bt->nregs; k++) {
			unsigned fn = bi->fn + (unsigned)((bi->base + bt->regs[k].off) >> 12);

			if (bt->regs[k].kind == UCM_K_CTR && bi->dev < 32 && fn < 8 && r > h->fn_rate[bi->dev][fn])
				h->fn_rate[bi->dev][fn] = r;
		}
	}
}

int ucb_hw_allow(struct ucb *b, const struct ucm_platform *p, uint64_t mmio_base)
{
	struct hw *h = H(b);

	free(h->allow);
	h->allow = NULL;
	h->nallow = 0;
	h->nbus = 0;
	h->plat = p;
	h->bar = mmio_base;
	h->ctr_rate = 0;
	memset(h->fn_rate, 0, sizeof(h->fn_rate));
	if (!p)
		return 0;
	find_buses(b, p);
	ctr_rates(h, p);
	snprintf(h->bus_names, sizeof(h->bus_names), "none found");
	for (unsigned i = 0, k = 0; i < h->nbus; i++)
		k += (unsigned)snprintf(h->bus_names + k, sizeof(h->bus_names) - k, "%s%02x", i ? " " : "", h->bus[i]);
	return build_allow(h, p);
}

unsigned ucb_hw_buses(struct ucb *b, unsigned *bus, unsigned *socket, unsigned max)
{
	struct hw *h = H(b);

	for (unsigned i = 0; i < h->nbus && i < max; i++) {
		bus[i] = h->bus[i];
		socket[i] = h->bus_socket[i];
	}
	return h->nbus;
}

/* msr-safe's allow-list format: "0xADDR 0xWRITEMASK" per MSR, read-only
 * registers with mask 0 (msr-safe then allows reading them).  msr-safe
 * covers MSRs only: the boxes in PCI configuration space or behind a BAR
 * are named in a comment, with what they need instead. */
int ucb_hw_allowlist(const struct ucm_platform *p, FILE *out)
{
	static const char *const how[] = { "", "PCI configuration writes (and reads past 64 bytes) need root",
					    "/dev/mem needs root" };
	uint32_t seen[1024];
	unsigned nseen = 0;

	fprintf(out, "# MSR allowlist for %s (%s): the uncore PMON registers uncore reads and writes\n",
		p->name, p->title);
	for (unsigned sp = UCM_PCI; sp <= UCM_MMIO; sp++) {
		const struct ucm_boxtype *listed[32];
		unsigned nl = 0;

		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxtype *bt = p->boxes[i].type;
			unsigned k;

			if (bt->space != sp || !bt->nctr)
				continue; /* only counting boxes: ID and BAR functions are read */
			for (k = 0; k < nl && listed[k] != bt; k++)
				;
			if (k == nl && nl < 32)
				listed[nl++] = bt;
		}
		if (!nl)
			continue;
		fprintf(out, "# msr-safe covers MSRs only; not listed, in %s: ",
			sp == UCM_PCI ? "PCI configuration space" : "MMIO");
		for (unsigned k = 0; k < nl; k++)
			fprintf(out, "%s%s", k ? ", " : "", listed[k]->name);
		fprintf(out, " (%s)\n", how[sp]);
	}
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];

		if (bi->type->space != UCM_MSR)
			continue;
		for (unsigned r = 0; r < bi->type->nregs; r++) {
			const struct ucm_regdef *d = &bi->type->regs[r];
			uint32_t addr = (uint32_t)(bi->base + d->off);
			unsigned k;

			for (k = 0; k < nseen && seen[k] != addr; k++)
				;
			if (k < nseen || nseen == 1024)
				continue;
			seen[nseen++] = addr;
			fprintf(out, "0x%08X 0x%016" PRIX64 "\n", addr, write_mask(d->layout));
		}
	}
	return ferror(out) ? -EIO : 0;
}
