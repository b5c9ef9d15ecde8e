/*
 * ucr_dev.c - the device files of the machine's tree, in the preload
 * library (libuncore-run.so): which path is which device (MSR, msr-safe's
 * msr_safe and msr_batch, PCI configuration in sysfs and /proc/bus/pci,
 * /dev/mem), what stat shows of it, and its reads, writes, ioctls and
 * mappings, served by the server's model access by access as the kernel's
 * drivers would split them.  ucr_fd.c hands it the descriptors of these
 * kinds; /dev/mem's mapped loads and stores are ucr_trap.c's, but for its
 * firmware area (the SMBIOS tables), which is served from the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ucr_preload.h"

/* What a path of the tree is (relative to the root). */
struct ucr_fd ucr_dev_classify(const char *p)
{
	struct ucr_fd l = { .kind = UCR_FD_NONE };
	unsigned a, b, c, d;
	int n = 0; /* %n stores an int */
	const char *base = strrchr(p, '/');

	if (sscanf(p, "/dev/cpu/%u/msr%n", &a, &n) == 1 && (!p[n] || !strcmp(p + n, "_safe")))
		l = (struct ucr_fd){ .kind = UCR_FD_MSR, .cpu = a, .safe = p[n] != 0 };
	else if (sscanf(p, "/dev/msr%u%n", &a, &n) == 1 && !p[n])
		l = (struct ucr_fd){ .kind = UCR_FD_MSR, .cpu = a };
	else if (!strcmp(p, "/dev/cpu/msr_batch"))
		l.kind = UCR_FD_BATCH;
	else if (!strcmp(p, "/dev/mem"))
		l.kind = UCR_FD_MEM;
	else if (!strncmp(p, "/proc/bus/pci/", 14) && strcmp(p, "/proc/bus/pci/devices")) {
		if (sscanf(p + 14, "%x:%x/%x.%x%n", &a, &b, &c, &d, &n) == 4 && !p[14 + n])
			l = (struct ucr_fd){ .kind = UCR_FD_PCI, .pci = UCR_PCI_ADDR(a, b, c, d) };
		else if (sscanf(p + 14, "%x/%x.%x%n", &b, &c, &d, &n) == 3 && !p[14 + n])
			l = (struct ucr_fd){ .kind = UCR_FD_PCI, .pci = UCR_PCI_ADDR(0, b, c, d) };
	} else if (base && !strcmp(base, "/config") && base - p > 12) {
		const char *dev = base - 12;   /* SSSS:BB:DD.F */

		if (sscanf(dev, "%4x:%2x:%2x.%1x%n", &a, &b, &c, &d, &n) == 4 && dev + n == base)
			l = (struct ucr_fd){ .kind = UCR_FD_PCI, .pci = UCR_PCI_ADDR(a, b, c, d) };
	}
	return l;
}

/* What stat says of a device file (the tree holds a placeholder, a
 * regular file): the kernel's character device, so a program that checks
 * S_ISCHR, or sizes a mapping of a regular file (Python's mmap), sees what
 * it would.  Majors and minors of Documentation/admin-guide/devices.txt:
 * mem 1:1, cpu/N/msr 202:N; msr-safe's are dynamic (msr_safe 240:N,
 * msr_batch 241:0 here).  0 for a path or descriptor that is not one. */
int ucr_dev_num(const struct ucr_fd *l, unsigned *major, unsigned *minor)
{
	switch (l->kind) {
	case UCR_FD_MSR:
		*major = l->safe ? 240 : 202;
		*minor = l->cpu;
		return 1;
	case UCR_FD_BATCH:
		*major = 241;
		*minor = 0;
		return 1;
	case UCR_FD_MEM:
		*major = 1;
		*minor = 1;
		return 1;
	default:
		return 0;
	}
}

/* MSR device semantics (arch/x86/kernel/msr.c): whole 8-byte values, the
 * file offset is the MSR, a #GP is EIO. */
static ssize_t msr_rw(const struct ucr_fd *l, void *buf, size_t count, off_t off, int write)
{
	struct ucr_rsp r;
	size_t done = 0;

	if (count % 8)
		return ucr_fail(EINVAL);
	for (; done < count; done += 8) {
		uint64_t v;
		int rc;

		if (write) {
			memcpy(&v, (char *)buf + done, 8);
			struct ucr_req q = { UCR_MSR_WR, 0, (uint64_t)off, v, 0, 0, 0, 0, 0 };
			int saved = ucr_t_target;

			ucr_t_target = (int)l->cpu;
			rc = ucr_call(&q, &r);
			ucr_t_target = saved;
		} else {
			struct ucr_req q = { UCR_MSR_RD, 0, (uint64_t)off, 0, 0, 0, 0, 0, 0 };
			int saved = ucr_t_target;

			ucr_t_target = (int)l->cpu;
			rc = ucr_call(&q, &r);
			ucr_t_target = saved;
			memcpy((char *)buf + done, &r.v[0], 8);
		}
		if (rc)
			return done ? (ssize_t)done : ucr_fail(-rc == ENXIO ? ENXIO : EIO);
	}
	return (ssize_t)done;
}

/* PCI configuration as the kernel's proc/sysfs files split it: a byte to
 * reach word alignment, a word to reach dword alignment, dwords, then a
 * word and a byte. */
static ssize_t pci_rw(const struct ucr_fd *l, void *buf, size_t count, off_t off, int write)
{
	size_t done = 0;

	if (off < 0)
		return ucr_fail(EINVAL);
	if ((uint64_t)off >= 4096)
		return 0;
	if (count > (size_t)(4096 - off))
		count = (size_t)(4096 - off);
	while (done < count) {
		uint64_t o = (uint64_t)off + done, v = 0;
		size_t left = count - done;
		unsigned w = (o & 1) || left < 2 ? 1 : (o & 2) || left < 4 ? 2 : 4;
		struct ucr_rsp r;
		int rc;

		if (write) {
			memcpy(&v, (char *)buf + done, w);
			rc = ucr_request(UCR_PCI_WR, l->pci, o | (uint64_t)w << 32, v, &r);
		} else {
			rc = ucr_request(UCR_PCI_RD, l->pci, o, w, &r);
			memcpy((char *)buf + done, &r.v[0], w);
		}
		if (rc)
			return done ? (ssize_t)done : ucr_fail(EIO);
		done += w;
	}
	return (ssize_t)done;
}

/* The firmware area of /dev/mem (UCR_FW_BASE, run/ucr_smbios.c): len
 * bytes at physical pa, all inside it, from the tree's image of it. */
static int fw_in(uint64_t pa, size_t len)
{
	return pa >= UCR_FW_BASE && pa < UCR_FW_BASE + UCR_FW_LEN && len <= UCR_FW_BASE + UCR_FW_LEN - pa;
}

static ssize_t fw_read(void *buf, size_t len, uint64_t pa)
{
	char p[PATH_MAX + 16];
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/" UCR_FW_FILE, ucr_root);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)(pa - UCR_FW_BASE));
	close(fd);
	return n;
}

/* /dev/mem by read/write: the model's 4- and 8-byte accesses. */
static ssize_t mem_rw(void *buf, size_t count, off_t off, int write)
{
	size_t done = 0;

	/* the firmware area, read as the kernel reads RAM or ROM: any length
	 * (what lies beyond it is the model's) */
	if (off >= 0 && fw_in((uint64_t)off, 1)) {
		size_t k = UCR_FW_BASE + UCR_FW_LEN - (uint64_t)off;
		ssize_t n;

		if (write)
			return ucr_fail(EPERM);
		if ((n = fw_read(buf, count < k ? count : k, (uint64_t)off)) < 0)
			return ucr_fail(EIO);
		return n;
	}
	while (done < count) {
		unsigned w = count - done >= 8 && !((off + done) % 8) ? 8 : 4;
		uint64_t v = 0;
		int rc;

		if (count - done < 4 || (off + done) % 4)
			return done ? (ssize_t)done : ucr_fail(EINVAL);
		if (write) {
			memcpy(&v, (char *)buf + done, w);
			rc = ucr_mmio_write((uint64_t)off + done, w, v);
		} else {
			rc = ucr_mmio_read((uint64_t)off + done, w, &v);
			memcpy((char *)buf + done, &v, w);
		}
		if (rc)
			return done ? (ssize_t)done : ucr_fail(EFAULT);
		done += w;
	}
	return (ssize_t)done;
}

ssize_t ucr_dev_rw(const struct ucr_fd *l, void *buf, size_t count, off_t off, int write)
{
	switch (l->kind) {
	case UCR_FD_MSR: return msr_rw(l, buf, count, off, write);
	case UCR_FD_PCI: return pci_rw(l, buf, count, off, write);
	case UCR_FD_MEM: return mem_rw(buf, count, off, write);
	default: return ucr_fail(EINVAL);
	}
}

/* msr-safe's batch (its msr_safe.h layout, as driver/backend/ucb_hw.c uses it). */
struct batch_op {
	uint16_t cpu, isrdmsr;
	int32_t err;
	uint32_t msr;
	uint64_t msrdata, wmask;
};
struct batch_array {
	uint32_t numops, version;
	struct batch_op *ops;
};
#define BATCH_IOC _IOWR('c', 0xA2, struct batch_array)

static int batch(struct batch_array *a)
{
	int bad = 0;

	for (uint32_t i = 0; i < a->numops; i++) {
		struct batch_op *op = &a->ops[i];
		struct ucr_fd l = { .kind = UCR_FD_MSR, .cpu = op->cpu };
		ssize_t n = msr_rw(&l, &op->msrdata, 8, op->msr, !op->isrdmsr);

		op->err = n == 8 ? 0 : -errno;
		bad |= n != 8;
	}
	return bad ? (int)ucr_fail(EIO) : 0;
}

/* msr-safe's batch on msr_batch; no other ioctl (ENOTTY). */
int ucr_dev_ioctl(const struct ucr_fd *l, unsigned long request, void *arg)
{
	if (l->kind == UCR_FD_BATCH && request == BATCH_IOC)
		return batch(arg);
	return (int)ucr_fail(ENOTTY);
}

/* /dev/mem is mapped for the traps to serve; the other files cannot be. */
void *ucr_dev_mmap(const struct ucr_fd *l, size_t len, int flags, off_t off)
{
	if (l->kind == UCR_FD_MEM) {
		if (flags & MAP_FIXED) {
			errno = EINVAL;
			return MAP_FAILED;
		}
		/* the firmware area is memory, not registers: a read-only copy */
		if (off >= 0 && len && fw_in((uint64_t)off, len)) {
			void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				return p;
			if (fw_read(p, len, (uint64_t)off) != (ssize_t)len || mprotect(p, len, PROT_READ)) {
				munmap(p, len);
				errno = EIO;
				return MAP_FAILED;
			}
			return p;
		}
		return ucr_trap_map(len, (uint64_t)off);
	}
	errno = ENODEV;
	return MAP_FAILED;
}
