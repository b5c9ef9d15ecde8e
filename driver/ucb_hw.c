/*
 * ucb_hw.c - the hardware backend: MSRs through /dev/cpu/N/msr or msr-safe
 * (/dev/cpu/N/msr_safe, and its batch ioctl so a whole sample costs one
 * system call), PCI configuration through sysfs or /proc/bus/pci, MMIO
 * through an mmap of /dev/mem (page-aligned, 32-bit loads only).
 *
 * Safety: until ucb_hw_allow() names the platform, every write is refused;
 * after it, only the registers of that platform's PMON tables can be
 * written.  Every path is opened under a root directory ("/" normally), so
 * the backend works on a tree of ordinary files in tests: pread/pwrite at
 * an offset and mmap behave the same on files.
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

struct hw {
	char root[1024];
	/* byte offset of MSR n in the msr files: n on the real device; 8n in a
	 * test tree, where a file cannot hold an 8-byte register at every byte
	 * offset without neighbours overlapping (docs/hw-validation.md) */
	unsigned msr_scale;
	int msr_mode, pci_mode;    /* resolved: UCB_HW_MSR / _MSR_SAFE, _SYSFS / _PROC */
	int msr_fd[MAXCPU];
	int batch_fd;
	const struct ucm_platform *plat;
	struct allow *allow;
	size_t nallow;
	uint64_t bar;              /* MMIO base for allow checks */
	int cpu_sockets[64];       /* first cpu of each socket, -1 none */
	unsigned nsockets;
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

static const struct allow *allowed(const struct hw *h, unsigned space, uint64_t key, unsigned bytes)
{
	for (size_t i = 0; i < h->nallow; i++) {
		const struct allow *a = &h->allow[i];

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
	for (unsigned i = 0; i < n; i++)
		if (ops[i].write && !allowed(h, UCM_MSR, ops[i].addr, 1))
			return refuse(b, "wrmsr", ops[i].addr);
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

static int pci_fd(struct ucb *b, const struct ucb_pci *d, int write, int *fd)
{
	struct hw *h = H(b);
	char p[1200];

	if (h->pci_mode == UCB_HW_PCI_PROC)
		path(h, p, sizeof(p), "/proc/bus/pci/%02x/%02x.%x", d->bus, d->dev, d->fn);
	else
		path(h, p, sizeof(p), "/sys/bus/pci/devices/%04x:%02x:%02x.%x/config", d->seg, d->bus, d->dev,
		     d->fn);
	*fd = open(p, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	if (errno == ENOENT)
		return ucb_seterr(b, -ENODEV, "no PCI device %04x:%02x:%02x.%x (%s)", d->seg, d->bus, d->dev,
				  d->fn, p);
	if (errno == EACCES || errno == EPERM)
		return ucb_seterr(b, -EACCES, "%s: permission denied: PCI configuration writes, and reads past 64 bytes, need root",
				  p);
	return ucb_seterr(b, -errno, "%s: %s", p, strerror(errno));
}

static int hw_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width, uint64_t *val)
{
	int fd, rc;
	ssize_t n;

	*val = 0;
	if ((rc = pci_fd(b, d, 0, &fd)))
		return rc;
	n = pread(fd, val, width, off);
	close(fd);
	if (n == (ssize_t)width)
		return 0;
	if (n >= 0 && off >= 64)
		return ucb_seterr(b, -EACCES,
				  "PCI %02x:%02x.%x offset 0x%x: the kernel shows only 64 bytes of configuration to non-root users",
				  d->bus, d->dev, d->fn, off);
	return ucb_seterr(b, n < 0 ? -errno : -EIO, "PCI %02x:%02x.%x offset 0x%x: %s", d->bus, d->dev, d->fn, off,
			  n < 0 ? strerror(errno) : "short read");
}

static int hw_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width, uint64_t val)
{
	int fd, rc;
	ssize_t n;

	if (!allowed(H(b), UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), width))
		return refuse(b, "PCI config write at", ucm_pci_key(d->bus, d->dev, d->fn, off));
	if ((rc = pci_fd(b, d, 1, &fd)))
		return rc;
	n = pwrite(fd, &val, width, off);
	close(fd);
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

static int mmio_map(struct ucb *b, uint64_t pa, int write, volatile uint32_t **p, void **base, size_t *len)
{
	struct hw *h = H(b);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = pa & ~(uint64_t)(page - 1);
	char dev[1200], mode[64];
	int fd;

	path(h, dev, sizeof(dev), "/dev/mem");
	fd = open(dev, (write ? O_RDWR : O_RDONLY) | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		if (lockdown(h, mode, sizeof(mode)))
			return ucb_seterr(b, -EPERM,
					  "%s: kernel lockdown (%s, e.g. Secure Boot) blocks /dev/mem: the IMC counters cannot be read; disable Secure Boot or boot with lockdown=none",
					  dev, mode);
		if (errno == EACCES || errno == EPERM)
			return ucb_seterr(b, -EACCES, "%s: permission denied: /dev/mem needs root (CAP_SYS_RAWIO)", dev);
		return ucb_seterr(b, -errno, "%s: %s", dev, strerror(errno));
	}
	*len = (size_t)page;
	*base = mmap(NULL, *len, PROT_READ | (write ? PROT_WRITE : 0), MAP_SHARED, fd, (off_t)start);
	close(fd);
	if (*base == MAP_FAILED) {
		int e = errno;

		if (lockdown(h, mode, sizeof(mode)))
			return ucb_seterr(b, -EPERM, "%s: kernel lockdown (%s) blocks mapping 0x%" PRIx64, dev, mode, pa);
		if (e == EPERM)
			return ucb_seterr(b, -EPERM,
					  "mapping 0x%" PRIx64 " from %s refused: the kernel restricts /dev/mem (CONFIG_STRICT_DEVMEM / iomem=relaxed)",
					  pa, dev);
		return ucb_seterr(b, -e, "mapping 0x%" PRIx64 " from %s: %s", pa, dev, strerror(e));
	}
	*p = (volatile uint32_t *)((char *)*base + (pa - start));
	return 0;
}

/* 32-bit loads only: a 64-bit load over two counters returns both, torn */
static int hw_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	volatile uint32_t *p;
	void *base;
	size_t len;
	int rc;

	*val = 0;
	if ((width != 4 && width != 8) || pa % 4)
		return ucb_seterr(b, -EINVAL, "MMIO read of %u bytes at 0x%" PRIx64 ": 4 or 8, aligned", width, pa);
	if ((rc = mmio_map(b, pa, 0, &p, &base, &len)))
		return rc;
	*val = p[0];
	if (width == 8)
		*val |= (uint64_t)p[1] << 32;
	munmap(base, len);
	return 0;
}

static int hw_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	struct hw *h = H(b);
	volatile uint32_t *p;
	void *base;
	size_t len;
	int rc;

	if (!h->bar || pa < h->bar || !allowed(h, UCM_MMIO, pa - h->bar, width))
		return refuse(b, "MMIO write at", pa);
	if ((rc = mmio_map(b, pa, 1, &p, &base, &len)))
		return rc;
	p[0] = (uint32_t)val;
	if (width == 8)
		p[1] = (uint32_t)(val >> 32);
	munmap(base, len);
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
		 h->batch_fd >= 0 ? " (batched)" : "", h->pci_mode == UCB_HW_PCI_PROC ? "/proc/bus/pci" : "sysfs",
		 h->root);
	return buf;
}

/* The platform's writable registers: every register with a bit software
 * may write (RW, RW1C or write-only), on every socket's bus. */
static int build_allow(const struct ucm_platform *p, struct allow **out, size_t *n)
{
	size_t cap = 0, k = 0;
	struct allow *a;

	for (unsigned i = 0; i < p->nboxes; i++)
		cap += p->boxes[i].type->nregs * p->max_sockets;
	a = calloc(cap ? cap : 1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (unsigned s = 0; s < p->max_sockets; s++)
		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxinst *bi = &p->boxes[i];

			for (unsigned r = 0; r < bi->type->nregs; r++) {
				const struct ucm_regdef *d = &bi->type->regs[r];
				int writable = 0;

				for (unsigned f = 0; f < d->layout->nfields; f++)
					writable |= d->layout->fields[f].access == UCM_A_RW ||
						    d->layout->fields[f].access == UCM_A_RW1C ||
						    d->layout->fields[f].access == UCM_A_WO;
				/* the BAR is configuration, never ours to move */
				if (!writable || d->kind == UCM_K_BAR)
					continue;
				a[k].space = bi->type->space;
				a[k].bytes = bi->type->space == UCM_MSR ? 1 : d->layout->width / 8;
				a[k].key = bi->type->space == UCM_PCI
						   ? ucm_pci_key(p->pci_bus[s], bi->dev, bi->fn, (unsigned)(bi->base + d->off))
						   : bi->base + d->off;
				k++;
			}
		}
	*out = a;
	*n = k;
	return 0;
}

int ucb_hw_allow(struct ucb *b, const struct ucm_platform *p, uint64_t mmio_base)
{
	struct hw *h = H(b);

	free(h->allow);
	h->allow = NULL;
	h->nallow = 0;
	h->plat = p;
	h->bar = mmio_base;
	return p ? build_allow(p, &h->allow, &h->nallow) : 0;
}

/* msr-safe's allow-list format: "0xADDR 0xWRITEMASK" per MSR. */
int ucb_hw_allowlist(const struct ucm_platform *p, FILE *out)
{
	uint32_t seen[1024];
	unsigned nseen = 0;

	fprintf(out, "# MSR allowlist for %s (%s): the uncore PMON registers uncore reads and writes\n",
		p->name, p->title);
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];

		if (bi->type->space != UCM_MSR)
			continue;
		for (unsigned r = 0; r < bi->type->nregs; r++) {
			const struct ucm_regdef *d = &bi->type->regs[r];
			uint32_t addr = (uint32_t)(bi->base + d->off);
			uint64_t wmask = 0;
			unsigned k;

			for (k = 0; k < nseen && seen[k] != addr; k++)
				;
			if (k < nseen || nseen == 1024)
				continue;
			seen[nseen++] = addr;
			for (unsigned f = 0; f < d->layout->nfields; f++) {
				const struct ucm_field *fl = &d->layout->fields[f];

				if (fl->access == UCM_A_RW || fl->access == UCM_A_RW1C || fl->access == UCM_A_WO)
					wmask |= ucm_field_mask(fl);
			}
			fprintf(out, "0x%08X 0x%016" PRIX64 "\n", addr, wmask);
		}
	}
	return ferror(out) ? -EIO : 0;
}
