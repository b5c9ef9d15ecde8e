/*
 * ucr_preload.c - libuncore-run.so: makes an unmodified, dynamically linked
 * program see the simulated machine that `uncore run` serves.
 *
 * Loaded with LD_PRELOAD into the program and every process it starts.  It
 * interposes the C library calls through which tools reach a machine:
 *   - paths: /proc/cpuinfo, /sys/devices/system/cpu, /sys/bus/pci, /dev/cpu,
 *     /dev/mem ... (the list the server writes to ROOT/.redirect) open the
 *     machine's tree, which the server generated;
 *   - the device files of that tree (MSR, msr-safe and its batch ioctl, PCI
 *     configuration, /dev/mem) are served by the server's model, access by
 *     access, as the kernel would split them;
 *   - time: clock_gettime, gettimeofday, time, sleep, usleep, nanosleep and
 *     clock_nanosleep follow the machine's clock;
 *   - the logical CPU a thread runs on (sched_setaffinity and friends) and
 *     the number of CPUs.
 * CPUID, RDTSC and /dev/mem loads are trapped in ucr_trap.c.  Without
 * UNCORE_RUN_SOCK in the environment the library does nothing.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"
#include "ucr_proto.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

/* The real function behind an interposed one. */
#define REAL(fn) \
	static __typeof__(fn) *real_##fn; \
	if (!real_##fn) \
		real_##fn = (__typeof__(fn) *)dlsym(RTLD_NEXT, #fn)

static int active;                 /* UNCORE_RUN_SOCK was set */
static int wall_clock;             /* UNCORE_RUN_CLOCK=wall */
static int verbose;
static unsigned ncpu = 1;
static char sock_path[108];
static char root[PATH_MAX];
static size_t root_len;

#define MAXREDIR 64
static char *redir_list[MAXREDIR];
static unsigned nredir;

/* ---- messages ---- */

static void vsay(const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "uncore run [%d]: ", (int)getpid());

	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (n >= (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;
}

void ucr_log(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

_Noreturn void ucr_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	_exit(125);
}

/* ---- the connection to the server: one per thread ---- */

static TLS int t_fd = -1;
static TLS unsigned t_gen, t_busy;
static TLS int t_vcpu = -1;        /* the cpu this thread is bound to, -1: none */
static TLS char t_err[200];
static unsigned g_gen = 1;         /* bumped in a forked child */
static int g_vcpu;                 /* cpu of threads that never chose one */

#define MAXSOCKFD 4096
static unsigned char our_fd[MAXSOCKFD]; /* the server connections: not the program's to close */

static int req(unsigned op, uint64_t a, uint64_t b, uint64_t c, struct ucr_rsp *r);

/* A forked child says hello at once: the server then knows a process that
 * may yet sleep exists, and does not let time run past it. */
static void before_fork(void)
{
	struct ucr_rsp r;

	req(UCR_FORK, 0, 0, 0, &r);
}

static void after_fork(void)
{
	struct ucr_rsp r;

	g_gen++;
	t_busy = 0;
	req(UCR_HELLO, (uint64_t)getpid(), 0, 0, &r);
}

const char *ucr_last_error(void)
{
	return t_err;
}

static pthread_key_t conn_key;

/* A thread's connection ends with the thread (exit or cancellation), so
 * the server stops counting it among the threads that may yet run. */
static void conn_drop(void *unused)
{
	(void)unused;
	if (t_fd >= 0) {
		if (t_fd < MAXSOCKFD)
			our_fd[t_fd] = 0;
		close(t_fd);
	}
	t_fd = -1;
	t_busy = 0;
}

static int dial(void)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), hi;

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, sock_path, sizeof(sa.sun_path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	/* out of the way of programs that dup2 onto low descriptors */
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
	if (hi >= 0) {
		close(fd);
		fd = hi;
	}
	if (fd < MAXSOCKFD)
		our_fd[fd] = 1;
	return fd;
}

/* One request and its answer.  recv is a cancellation point: a thread
 * cancelled while it waits leaves its connection out of step; drop it. */
static ssize_t exchange(int fd, const struct ucr_req *q, struct ucr_rsp *r)
{
	ssize_t k;

	pthread_cleanup_push(conn_drop, NULL);
	do
		k = send(fd, q, sizeof(*q), MSG_NOSIGNAL);
	while (k < 0 && errno == EINTR);
	if (k == (ssize_t)sizeof(*q)) {
		do
			k = recv(fd, r, sizeof(*r), 0);
		while (k < 0 && errno == EINTR);
	}
	pthread_cleanup_pop(0);
	return k;
}

static int call(struct ucr_req *q, struct ucr_rsp *r)
{
	int fd, tmp = 0, saved = errno;
	ssize_t k;

	q->cpu = t_vcpu >= 0 ? (unsigned)t_vcpu : (unsigned)g_vcpu;
	q->pid = getpid();
	q->tid = gettid();
	if (t_busy) {
		/* a signal handler of the program interrupted a request of this
		 * thread: its own connection, so the replies cannot cross */
		fd = dial();
		tmp = 1;
	} else {
		if (t_fd < 0 || t_gen != g_gen) {
			t_fd = dial();
			t_gen = g_gen;
			pthread_setspecific(conn_key, (void *)1);
		}
		fd = t_fd;
	}
	if (fd < 0)
		ucr_die("cannot reach the machine server at %s: %s (did `uncore run` end?)", sock_path,
			strerror(errno));
	t_busy++;
	k = exchange(fd, q, r);
	t_busy--;
	if (tmp) {
		if (fd < MAXSOCKFD)
			our_fd[fd] = 0;
		close(fd);
	}
	if (k != (ssize_t)sizeof(*r))
		ucr_die("the machine server stopped answering (request %u): %s", q->op,
			k < 0 ? strerror(errno) : "connection closed");
	if (r->rc) {
		r->msg[sizeof(r->msg) - 1] = 0;
		snprintf(t_err, sizeof(t_err), "%s", r->msg);
	}
	errno = saved;
	return r->rc;
}

static int recv_all(int fd, struct ucr_rsp *r)
{
	ssize_t k;

	do
		k = recv(fd, r, sizeof(*r), 0);
	while (k < 0 && errno == EINTR);
	return k == (ssize_t)sizeof(*r) ? 0 : -1;
}

static int req(unsigned op, uint64_t a, uint64_t b, uint64_t c, struct ucr_rsp *r)
{
	struct ucr_req q = { op, 0, a, b, c, 0, 0 };

	return call(&q, r);
}

int ucr_cpuid(uint32_t leaf, uint32_t sub, uint64_t out[4])
{
	struct ucr_rsp r;
	int rc = req(UCR_CPUID, leaf, sub, 0, &r);

	memcpy(out, r.v, sizeof(r.v));
	return rc;
}

int ucr_tsc(uint64_t *tsc, uint64_t *aux)
{
	struct ucr_rsp r;
	int rc = req(UCR_TSC, 0, 0, 0, &r);

	*tsc = r.v[0];
	*aux = r.v[1];
	return rc;
}

int ucr_mmio_read(uint64_t pa, unsigned width, uint64_t *v)
{
	struct ucr_rsp r;
	int rc = req(UCR_MMIO_RD, pa, 0, width, &r);

	*v = r.v[0];
	return rc;
}

int ucr_mmio_write(uint64_t pa, unsigned width, uint64_t v)
{
	struct ucr_rsp r;

	return req(UCR_MMIO_WR, pa, v, width, &r);
}

/* ---- paths ---- */

/* Whether an absolute path lies in the machine's tree: equal to one of the
 * listed prefixes or below it (a prefix ending in '*' matches any name
 * that starts with it: /dev/msr*). */
static int redirected(const char *p)
{
	for (unsigned i = 0; i < nredir; i++) {
		const char *r = redir_list[i];
		size_t n = strlen(r);

		if (n && r[n - 1] == '*') {
			if (!strncmp(p, r, n - 1))
				return 1;
		} else if (!strncmp(p, r, n) && (p[n] == 0 || p[n] == '/')) {
			return 1;
		}
	}
	return 0;
}

static int cwd_in_tree;            /* the working directory is in the tree (chdir) */
static char cwd_name[PATH_MAX];    /* and its name as the program has it */

/* The process's working directory as the kernel has it (the tree's path
 * while cwd_in_tree), into b; 0 when it cannot be read. */
static int real_cwd(char *b, size_t n)
{
	REAL(getcwd);
	return real_getcwd(b, n) != NULL;
}

static int in_root(const char *p)
{
	return !strncmp(p, root, root_len) && (p[root_len] == 0 || p[root_len] == '/');
}

/* After the working directory changed: whether it is in the tree, and
 * its name without the tree's root. */
static void cwd_changed(void)
{
	char wd[PATH_MAX];

	cwd_in_tree = 0;
	cwd_name[0] = 0;
	if (!real_cwd(wd, sizeof(wd)) || wd[0] != '/')
		return;
	cwd_in_tree = in_root(wd);
	snprintf(cwd_name, sizeof(cwd_name), "%s", cwd_in_tree ? (wd[root_len] ? wd + root_len : "/") : wd);
}

/* "." and ".." of an absolute path resolved as names (in place). */
static void fold_dots(char *p)
{
	char *out = p, *s = p;

	while (*s) {
		char *e;
		size_t n;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		e = strchr(s, '/');
		n = e ? (size_t)(e - s) : strlen(s);
		if (n == 1 && s[0] == '.') {
			;
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (out > p && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, s, n);
			out += n;
		}
		s += n;
	}
	if (out == p)
		*out++ = '/';
	*out = 0;
}

/* The path to use for `path` (relative to dirfd): in the machine's tree
 * (written to buf) or the path itself; a relative path while the working
 * directory is in the tree (a `cd /sys/...`): the path it names, in the
 * tree or out of it (written to buf, absolute). */
static const char *redir(int dirfd, const char *path, char *buf)
{
	char norm[PATH_MAX], dir[PATH_MAX];
	const char *orig = path;
	size_t k = 0;
	int logical = 0;

	if (!active || !path)
		return path;
	if (path[0] != '/' && dirfd == AT_FDCWD) {
		/* relative to the working directory, by its name (`cd /proc;
		 * cat cpuinfo` is /proc/cpuinfo, which the tree has) */
		if (!cwd_name[0] || snprintf(norm, sizeof(norm), "%s/%s", cwd_name, path) >= (int)sizeof(norm))
			return path;
		fold_dots(norm);
		path = norm;
		logical = cwd_in_tree;
	} else if (path[0] != '/') {
		ssize_t n;
		char link[64];

		/* relative to a directory opened outside the tree: hwloc opens
		 * "/", util-linux's lscpu "/proc" and "/sys/...", and work
		 * relative to them (a directory of the tree needs nothing) */
		snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
		n = readlink(link, dir, sizeof(dir) - 1);
		if (n < 1 || dir[0] != '/' || ((size_t)n >= root_len && !strncmp(dir, root, root_len)))
			return path;
		dir[n] = 0;
		if (snprintf(norm, sizeof(norm), "%s/%s", n == 1 ? "" : dir, path) >= (int)sizeof(norm))
			return path;
		path = norm;
	}
	/* fold repeated slashes, as the kernel does */
	for (const char *s = path; *s && k < sizeof(dir) - 1; s++)
		if (!(s[0] == '/' && s[1] == '/'))
			dir[k++] = *s;
	dir[k] = 0;
	if (!redirected(dir) || root_len + k + 1 > PATH_MAX) {
		if (!logical || k + 1 > PATH_MAX)
			return orig;
		/* out of the tree: the real path it names */
		memcpy(buf, dir, k + 1);
		return buf;
	}
	memcpy(buf, root, root_len);
	memcpy(buf + root_len, dir, k + 1);
	return buf;
}

/* ---- the device files of the tree ---- */

enum { L_NONE, L_MSR, L_BATCH, L_PCI, L_MEM };

struct live {
	uint8_t kind;
	unsigned cpu;
	uint64_t pci;     /* UCR_PCI_ADDR */
	uint8_t safe;     /* L_MSR: msr-safe's msr_safe */
};

#define MAXFD 65536
static struct live *lives;

static struct live *live_of(int fd)
{
	if (!lives || fd < 0 || fd >= MAXFD || !lives[fd].kind)
		return NULL;
	return &lives[fd];
}

/* What a path of the tree is (relative to the root). */
static struct live classify(const char *p)
{
	struct live l = { L_NONE, 0, 0, 0 };
	unsigned a, b, c, d;
	int n = 0; /* %n stores an int */
	const char *base = strrchr(p, '/');

	if (sscanf(p, "/dev/cpu/%u/msr%n", &a, &n) == 1 && (!p[n] || !strcmp(p + n, "_safe")))
		l = (struct live){ L_MSR, a, 0, p[n] != 0 };
	else if (sscanf(p, "/dev/msr%u%n", &a, &n) == 1 && !p[n])
		l = (struct live){ L_MSR, a, 0, 0 };
	else if (!strcmp(p, "/dev/cpu/msr_batch"))
		l.kind = L_BATCH;
	else if (!strcmp(p, "/dev/mem"))
		l.kind = L_MEM;
	else if (!strncmp(p, "/proc/bus/pci/", 14) && strcmp(p, "/proc/bus/pci/devices")) {
		if (sscanf(p + 14, "%x:%x/%x.%x%n", &a, &b, &c, &d, &n) == 4 && !p[14 + n])
			l = (struct live){ L_PCI, 0, UCR_PCI_ADDR(a, b, c, d), 0 };
		else if (sscanf(p + 14, "%x/%x.%x%n", &b, &c, &d, &n) == 3 && !p[14 + n])
			l = (struct live){ L_PCI, 0, UCR_PCI_ADDR(0, b, c, d), 0 };
	} else if (base && !strcmp(base, "/config") && base - p > 12) {
		const char *dev = base - 12;   /* SSSS:BB:DD.F */

		if (sscanf(dev, "%4x:%2x:%2x.%1x%n", &a, &b, &c, &d, &n) == 4 && dev + n == base)
			l = (struct live){ L_PCI, 0, UCR_PCI_ADDR(a, b, c, d), 0 };
	}
	return l;
}

static int track(int fd, const char *path)
{
	if (fd < 0 || !lives || fd >= MAXFD)
		return fd;
	if (path && in_root(path)) {
		lives[fd] = classify(path + root_len);
		if (lives[fd].kind)
			ucr_log("%s is fd %d", path + root_len, fd);
	} else {
		lives[fd].kind = L_NONE;
	}
	return fd;
}

/* What stat says of a device file (the tree holds a placeholder, a
 * regular file): the kernel's character device, so a program that checks
 * S_ISCHR, or sizes a mapping of a regular file (Python's mmap), sees what
 * it would.  Majors and minors of Documentation/admin-guide/devices.txt:
 * mem 1:1, cpu/N/msr 202:N; msr-safe's are dynamic (msr_safe 240:N,
 * msr_batch 241:0 here).  0 for a path or descriptor that is not one. */
static int dev_num(const struct live *l, unsigned *major, unsigned *minor)
{
	switch (l->kind) {
	case L_MSR:
		*major = l->safe ? 240 : 202;
		*minor = l->cpu;
		return 1;
	case L_BATCH:
		*major = 241;
		*minor = 0;
		return 1;
	case L_MEM:
		*major = 1;
		*minor = 1;
		return 1;
	default:
		return 0;
	}
}

#define AS_DEVICE(st, l) \
	do { \
		unsigned ma_, mi_; \
		if (dev_num((l), &ma_, &mi_)) { \
			(st)->st_mode = S_IFCHR | ((st)->st_mode & 07777); \
			(st)->st_rdev = makedev(ma_, mi_); \
			(st)->st_size = 0; \
			(st)->st_blocks = 0; \
		} \
	} while (0)

/* Descriptors of device files a program was started with (a shell's
 * redirection, a parent's open descriptor across exec): known by where
 * they lead, as if this process had opened them. */
static void inherited_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char link[64], to[PATH_MAX];
		int fd = atoi(e->d_name);
		ssize_t n;

		if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == dirfd(d) || fd >= MAXFD)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, to, sizeof(to) - 1)) <= 0)
			continue;
		to[n] = 0;
		track(fd, to);
	}
	closedir(d);
}

/* The same for a redirected path p (in the tree: buf) after a successful
 * stat of it. */
static struct live tree_kind(const char *p, const char *buf)
{
	struct live none = { L_NONE, 0, 0, 0 };

	return p == buf && in_root(buf) ? classify(buf + root_len) : none;
}

/* The same for the *at calls, where AT_EMPTY_PATH names the descriptor
 * itself (glibc's and Rust's fstat are fstatat or statx of fd, ""). */
static struct live at_kind(int dirfd, const char *p, const char *buf, int fl)
{
	const struct live *l;
	struct live none = { L_NONE, 0, 0, 0 };

	if ((fl & AT_EMPTY_PATH) && p && !p[0])
		return (l = live_of(dirfd)) ? *l : none;
	return tree_kind(p, buf);
}

static ssize_t fail(int e)
{
	errno = e;
	return -1;
}

/* MSR device semantics (arch/x86/kernel/msr.c): whole 8-byte values, the
 * file offset is the MSR, a #GP is EIO. */
static ssize_t msr_rw(const struct live *l, void *buf, size_t count, off_t off, int write)
{
	struct ucr_rsp r;
	size_t done = 0;

	if (count % 8)
		return fail(EINVAL);
	for (; done < count; done += 8) {
		uint64_t v;
		int rc;

		if (write) {
			memcpy(&v, (char *)buf + done, 8);
			struct ucr_req q = { UCR_MSR_WR, 0, (uint64_t)off, v, 0, 0, 0 };
			int saved = t_vcpu;

			t_vcpu = (int)l->cpu;
			rc = call(&q, &r);
			t_vcpu = saved;
		} else {
			struct ucr_req q = { UCR_MSR_RD, 0, (uint64_t)off, 0, 0, 0, 0 };
			int saved = t_vcpu;

			t_vcpu = (int)l->cpu;
			rc = call(&q, &r);
			t_vcpu = saved;
			memcpy((char *)buf + done, &r.v[0], 8);
		}
		if (rc)
			return done ? (ssize_t)done : fail(-rc == ENXIO ? ENXIO : EIO);
	}
	return (ssize_t)done;
}

/* PCI configuration as the kernel's proc/sysfs files split it: a byte to
 * reach word alignment, a word to reach dword alignment, dwords, then a
 * word and a byte. */
static ssize_t pci_rw(const struct live *l, void *buf, size_t count, off_t off, int write)
{
	size_t done = 0;

	if (off < 0)
		return fail(EINVAL);
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
			rc = req(UCR_PCI_WR, l->pci, o | (uint64_t)w << 32, v, &r);
		} else {
			rc = req(UCR_PCI_RD, l->pci, o, w, &r);
			memcpy((char *)buf + done, &r.v[0], w);
		}
		if (rc)
			return done ? (ssize_t)done : fail(EIO);
		done += w;
	}
	return (ssize_t)done;
}

/* /dev/mem by read/write: the model's 4- and 8-byte accesses. */
static ssize_t mem_rw(void *buf, size_t count, off_t off, int write)
{
	size_t done = 0;

	while (done < count) {
		unsigned w = count - done >= 8 && !((off + done) % 8) ? 8 : 4;
		uint64_t v = 0;
		int rc;

		if (count - done < 4 || (off + done) % 4)
			return done ? (ssize_t)done : fail(EINVAL);
		if (write) {
			memcpy(&v, (char *)buf + done, w);
			rc = ucr_mmio_write((uint64_t)off + done, w, v);
		} else {
			rc = ucr_mmio_read((uint64_t)off + done, w, &v);
			memcpy((char *)buf + done, &v, w);
		}
		if (rc)
			return done ? (ssize_t)done : fail(EFAULT);
		done += w;
	}
	return (ssize_t)done;
}

static ssize_t live_rw(const struct live *l, void *buf, size_t count, off_t off, int write)
{
	switch (l->kind) {
	case L_MSR: return msr_rw(l, buf, count, off, write);
	case L_PCI: return pci_rw(l, buf, count, off, write);
	case L_MEM: return mem_rw(buf, count, off, write);
	default: return fail(EINVAL);
	}
}

/* msr-safe's batch (its msr_safe.h layout, as driver/ucb_hw.c uses it). */
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
		struct live l = { L_MSR, op->cpu, 0, 0 };
		ssize_t n = msr_rw(&l, &op->msrdata, 8, op->msr, !op->isrdmsr);

		op->err = n == 8 ? 0 : -errno;
		bad |= n != 8;
	}
	return bad ? (int)fail(EIO) : 0;
}

/* ---- interposed: opening ---- */

static int open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

#define OPEN_LIKE(name, realcall) \
	EXPORT int name(const char *path, int flags, ...) \
	{ \
		char buf[PATH_MAX]; \
		va_list ap; \
		int mode; \
		REAL(name); \
		va_start(ap, flags); \
		mode = open_mode(flags, ap); \
		va_end(ap); \
		const char *p = redir(AT_FDCWD, path, buf); \
		int fd = realcall; \
		return track(fd, p == buf ? buf : NULL); \
	}

OPEN_LIKE(open, real_open(p, flags, mode))
OPEN_LIKE(open64, real_open64(p, flags, mode))

#define OPENAT_LIKE(name) \
	EXPORT int name(int dirfd, const char *path, int flags, ...) \
	{ \
		char buf[PATH_MAX]; \
		va_list ap; \
		int mode; \
		REAL(name); \
		va_start(ap, flags); \
		mode = open_mode(flags, ap); \
		va_end(ap); \
		const char *p = redir(dirfd, path, buf); \
		int fd = real_##name(p == buf ? AT_FDCWD : dirfd, p, flags, mode); \
		return track(fd, p == buf ? buf : NULL); \
	}

OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

/* _FORTIFY_SOURCE's checked variants */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

EXPORT int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

EXPORT int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return openat64(dirfd, path, flags);
}

/* A device file opened as a stream: its reads and writes still reach the
 * machine, through a cookie stream. */
struct cookie {
	struct live l;
	off_t pos;
	int fd;
};

static ssize_t ck_read(void *c, char *buf, size_t n)
{
	struct cookie *k = c;
	ssize_t r = live_rw(&k->l, buf, k->l.kind == L_MSR ? n / 8 * 8 : n, k->pos, 0);

	if (r > 0 && k->l.kind != L_MSR)
		k->pos += r;
	return r < 0 ? -1 : r;
}

static ssize_t ck_write(void *c, const char *buf, size_t n)
{
	struct cookie *k = c;
	ssize_t r = live_rw(&k->l, (void *)buf, n, k->pos, 1);

	if (r > 0 && k->l.kind != L_MSR)
		k->pos += r;
	return r < 0 ? -1 : r;
}

static int ck_seek(void *c, off64_t *off, int whence)
{
	struct cookie *k = c;

	if (whence == SEEK_SET)
		k->pos = *off;
	else if (whence == SEEK_CUR)
		k->pos += *off;
	else
		return -1;
	*off = k->pos;
	return 0;
}

static int ck_close(void *c)
{
	struct cookie *k = c;

	close(k->fd);
	free(k);
	return 0;
}

static FILE *fopen_common(const char *path, const char *mode, FILE *(*real)(const char *, const char *))
{
	char buf[PATH_MAX];
	const char *p = redir(AT_FDCWD, path, buf);
	struct live l;

	if (p == buf && in_root(buf) && (l = classify(buf + root_len)).kind && l.kind != L_BATCH) {
		int fd = open(p, strchr(mode, '+') || strchr(mode, 'w') ? O_RDWR : O_RDONLY);
		struct cookie *k;
		FILE *f;

		if (fd < 0)
			return NULL;
		k = calloc(1, sizeof(*k));
		if (!k) {
			close(fd);
			return NULL;
		}
		*k = (struct cookie){ l, 0, fd };
		f = fopencookie(k, mode, (cookie_io_functions_t){ ck_read, ck_write, ck_seek, ck_close });
		if (!f) {
			close(fd);
			free(k);
		}
		return f;
	}
	return real(p, mode);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	REAL(fopen);
	return fopen_common(path, mode, real_fopen);
}

EXPORT FILE *fopen64(const char *path, const char *mode)
{
	REAL(fopen64);
	return fopen_common(path, mode, real_fopen64);
}

EXPORT DIR *opendir(const char *path)
{
	char buf[PATH_MAX];

	REAL(opendir);
	return real_opendir(redir(AT_FDCWD, path, buf));
}

EXPORT int scandir(const char *path, struct dirent ***list, int (*sel)(const struct dirent *),
		   int (*cmp)(const struct dirent **, const struct dirent **))
{
	char buf[PATH_MAX];

	REAL(scandir);
	return real_scandir(redir(AT_FDCWD, path, buf), list, sel, cmp);
}

EXPORT int scandir64(const char *path, struct dirent64 ***list, int (*sel)(const struct dirent64 *),
		     int (*cmp)(const struct dirent64 **, const struct dirent64 **))
{
	char buf[PATH_MAX];

	REAL(scandir64);
	return real_scandir64(redir(AT_FDCWD, path, buf), list, sel, cmp);
}

#define PATH_CALL(ret, name, proto, args) \
	EXPORT ret name proto \
	{ \
		char buf[PATH_MAX]; \
		REAL(name); \
		path = redir(AT_FDCWD, path, buf); \
		return real_##name args; \
	}

/* stat and its kin: redirected, and a device file shown as one */
#define STAT_CALL(name, type) \
	EXPORT int name(const char *path, type *st) \
	{ \
		char buf[PATH_MAX]; \
		REAL(name); \
		const char *p = redir(AT_FDCWD, path, buf); \
		int rc = real_##name(p, st); \
		struct live l = tree_kind(p, buf); \
		if (!rc) \
			AS_DEVICE(st, &l); \
		return rc; \
	}

STAT_CALL(stat, struct stat)
STAT_CALL(lstat, struct stat)
STAT_CALL(stat64, struct stat64)
STAT_CALL(lstat64, struct stat64)
PATH_CALL(int, access, (const char *path, int mode), (path, mode))
PATH_CALL(int, euidaccess, (const char *path, int mode), (path, mode))
PATH_CALL(int, eaccess, (const char *path, int mode), (path, mode))
PATH_CALL(ssize_t, readlink, (const char *restrict path, char *restrict b, size_t n), (path, b, n))
PATH_CALL(char *, realpath, (const char *restrict path, char *restrict resolved), (path, resolved))
/* the working directory: `cd /sys/devices/system/cpu` enters the tree,
 * and getcwd names it as the program asked for it */
EXPORT int chdir(const char *path)
{
	char buf[PATH_MAX];
	REAL(chdir);
	int rc = real_chdir(redir(AT_FDCWD, path, buf));

	if (!rc && active)
		cwd_changed();
	return rc;
}

EXPORT int fchdir(int fd)
{
	REAL(fchdir);
	int rc = real_fchdir(fd);

	if (!rc && active)
		cwd_changed();
	return rc;
}

EXPORT char *getcwd(char *b, size_t n)
{
	REAL(getcwd);
	char *r = real_getcwd(b, n);

	if (r && active && in_root(r)) {
		if (r[root_len])
			memmove(r, r + root_len, strlen(r + root_len) + 1);
		else
			strcpy(r, "/");
	}
	return r;
}

/* extended attributes (ls -l asks for a file's ACL and security label):
 * the tree's file has none, as the kernel's device nodes here */
PATH_CALL(ssize_t, getxattr, (const char *path, const char *name, void *v, size_t n), (path, name, v, n))
PATH_CALL(ssize_t, lgetxattr, (const char *path, const char *name, void *v, size_t n), (path, name, v, n))
PATH_CALL(ssize_t, listxattr, (const char *path, char *list, size_t n), (path, list, n))
PATH_CALL(ssize_t, llistxattr, (const char *path, char *list, size_t n), (path, list, n))

#define PATHAT_CALL(ret, name, proto, args) \
	EXPORT ret name proto \
	{ \
		char buf[PATH_MAX]; \
		REAL(name); \
		const char *p = redir(dirfd, path, buf); \
		if (p == buf) \
			dirfd = AT_FDCWD; \
		path = p; \
		return real_##name args; \
	}

#define FSTATAT_CALL(name, type) \
	EXPORT int name(int dirfd, const char *path, type *st, int fl) \
	{ \
		char buf[PATH_MAX]; \
		REAL(name); \
		const char *p = redir(dirfd, path, buf); \
		int rc = real_##name(p == buf ? AT_FDCWD : dirfd, p, st, fl); \
		struct live l = at_kind(dirfd, p, buf, fl); \
		if (!rc) \
			AS_DEVICE(st, &l); \
		return rc; \
	}

FSTATAT_CALL(fstatat, struct stat)
FSTATAT_CALL(fstatat64, struct stat64)
PATHAT_CALL(int, faccessat, (int dirfd, const char *path, int mode, int fl), (dirfd, path, mode, fl))
PATHAT_CALL(ssize_t, readlinkat, (int dirfd, const char *restrict path, char *restrict b, size_t n),
	    (dirfd, path, b, n))
EXPORT int statx(int dirfd, const char *restrict path, int fl, unsigned mask, struct statx *restrict st)
{
	char buf[PATH_MAX];
	unsigned ma, mi;
	REAL(statx);
	const char *p = redir(dirfd, path, buf);
	int rc = real_statx(p == buf ? AT_FDCWD : dirfd, p, fl, mask, st);
	struct live l = at_kind(dirfd, p, buf, fl);

	if (!rc && dev_num(&l, &ma, &mi)) {
		st->stx_mode = (uint16_t)(S_IFCHR | (st->stx_mode & 07777));
		st->stx_rdev_major = ma;
		st->stx_rdev_minor = mi;
		st->stx_size = 0;
		st->stx_blocks = 0;
	}
	return rc;
}

/* fstat of a descriptor of a device file: the same */
#define FSTAT_CALL(name, type) \
	EXPORT int name(int fd, type *st) \
	{ \
		REAL(name); \
		int rc = real_##name(fd, st); \
		const struct live *l = live_of(fd); \
		if (!rc && l) \
			AS_DEVICE(st, l); \
		return rc; \
	}

FSTAT_CALL(fstat, struct stat)
FSTAT_CALL(fstat64, struct stat64)

/* ---- interposed: descriptors ---- */

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	struct live *l = live_of(fd);
	REAL(read);

	if (!l)
		return real_read(fd, buf, n);
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t r = live_rw(l, buf, n, pos, 0);

	if (r > 0 && l->kind != L_MSR)
		lseek(fd, pos + r, SEEK_SET);
	return r;
}

EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	struct live *l = live_of(fd);
	REAL(write);

	if (!l)
		return real_write(fd, buf, n);
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t r = live_rw(l, (void *)buf, n, pos, 1);

	if (r > 0 && l->kind != L_MSR)
		lseek(fd, pos + r, SEEK_SET);
	return r;
}

#define PRW(name, type, wr) \
	EXPORT ssize_t name(int fd, type buf, size_t n, off_t off) \
	{ \
		struct live *l = live_of(fd); \
		REAL(name); \
		return l ? live_rw(l, (void *)buf, n, off, wr) : real_##name(fd, buf, n, off); \
	}

PRW(pread, void *, 0)
PRW(pread64, void *, 0)
PRW(pwrite, const void *, 1)
PRW(pwrite64, const void *, 1)

EXPORT int close(int fd)
{
	REAL(close);
	if (fd >= 0 && fd < MAXSOCKFD && our_fd[fd] && fd != t_fd) {
		/* another thread's connection to the server: the program
		 * closing every descriptor must not cut it */
		return 0;
	}
	if (fd >= 0 && fd < MAXSOCKFD && our_fd[fd]) {
		our_fd[fd] = 0;
		t_fd = -1;
	}
	if (lives && fd >= 0 && fd < MAXFD)
		lives[fd].kind = L_NONE;
	return real_close(fd);
}

static int dup_track(int old, int fd)
{
	if (fd >= 0 && lives && fd < MAXFD)
		lives[fd] = old >= 0 && old < MAXFD ? lives[old] : (struct live){ 0, 0, 0, 0 };
	return fd;
}

EXPORT int dup(int old)
{
	REAL(dup);
	return dup_track(old, real_dup(old));
}

EXPORT int dup2(int old, int fd)
{
	REAL(dup2);
	return dup_track(old, real_dup2(old, fd));
}

EXPORT int dup3(int old, int fd, int fl)
{
	REAL(dup3);
	return dup_track(old, real_dup3(old, fd, fl));
}

EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;
	REAL(fcntl);

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	int r = real_fcntl(fd, cmd, arg);

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		dup_track(fd, r);
	return r;
}

EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	struct live *l = live_of(fd);
	REAL(ioctl);

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (l && l->kind == L_BATCH && request == BATCH_IOC)
		return batch(arg);
	if (l)
		return (int)fail(ENOTTY);
	return real_ioctl(fd, request, arg);
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct live *l = live_of(fd);
	REAL(mmap);

	if (l && l->kind == L_MEM) {
		(void)addr;
		(void)prot;
		if (flags & MAP_FIXED) {
			errno = EINVAL;
			return MAP_FAILED;
		}
		return ucr_trap_map(len, (uint64_t)off);
	}
	if (l) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	return real_mmap(addr, len, prot, flags, fd, off);
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	return mmap(addr, len, prot, flags, fd, (off_t)off);
}

EXPORT int munmap(void *addr, size_t len)
{
	REAL(munmap);
	ucr_trap_unmap(addr, len);
	return real_munmap(addr, len);
}

/* ---- interposed: time ---- */

static int simulated_clock(clockid_t c)
{
	return !wall_clock && (c == CLOCK_REALTIME || c == CLOCK_MONOTONIC || c == CLOCK_MONOTONIC_RAW ||
			       c == CLOCK_REALTIME_COARSE || c == CLOCK_MONOTONIC_COARSE ||
			       c == CLOCK_BOOTTIME || c == CLOCK_TAI);
}

static uint64_t sim_ns(clockid_t c)
{
	struct ucr_rsp r;

	if (req(UCR_TIME, (uint64_t)c, 0, 0, &r))
		ucr_die("clock %d: %s", (int)c, t_err);
	return r.v[0];
}

/* poll is a cancellation point (PCM cancels its sleeping threads): the
 * connection goes with the thread. */
static int wait_answer(struct pollfd *p)
{
	int rc;

	pthread_cleanup_push(conn_drop, NULL);
	rc = poll(p, 1, -1);
	pthread_cleanup_pop(0);
	return rc;
}

/* Sleep on the machine's clock.  The server answers when machine time
 * reaches the deadline; a signal that interrupts the wait (poll is never
 * restarted, as nanosleep is not) ends the sleep early, as it would end
 * nanosleep.  Returns the nanoseconds left: 0, or more when interrupted. */
static uint64_t sim_sleep(uint64_t ns)
{
	struct ucr_req q = { UCR_SLEEP, 0, ns, 0, 0, 0, 0 };
	struct ucr_rsp r;
	struct pollfd p;
	int rc, saved = errno;

	if (t_busy) {
		/* a handler of the program sleeps while its thread waits for an
		 * answer: on a connection of its own, not interruptible */
		rc = req(UCR_SLEEP, ns, 0, 0, &r);
		if (rc && rc != -EINTR)
			ucr_die("sleep: %s", t_err);
		errno = saved;
		return 0;
	}
	if (t_fd < 0 || t_gen != g_gen) {
		/* the first request of this thread opens its connection */
		if (req(UCR_HELLO, (uint64_t)getpid(), 0, 0, &r))
			ucr_die("sleep: %s", t_err);
	}
	q.cpu = t_vcpu >= 0 ? (unsigned)t_vcpu : (unsigned)g_vcpu;
	q.pid = getpid();
	q.tid = gettid();
	if (send(t_fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q))
		ucr_die("the machine server stopped answering (sleep): %s", strerror(errno));
	t_busy++;
	p = (struct pollfd){ t_fd, POLLIN, 0 };
	rc = wait_answer(&p);
	if (rc < 0 && errno == EINTR) {
		struct ucr_req w = { UCR_WAKE, 0, 0, 0, 0, getpid(), gettid() };

		if (send(t_fd, &w, sizeof(w), MSG_NOSIGNAL) != (ssize_t)sizeof(w))
			ucr_die("the machine server stopped answering (wake): %s", strerror(errno));
		struct ucr_rsp wr;

		/* the sleep's answer, then the wake's */
		if (recv_all(t_fd, &r) || recv_all(t_fd, &wr))
			ucr_die("the machine server stopped answering (wake)");
		t_busy--;
		errno = saved;
		return r.v[1] ? r.v[1] : 1;
	}
	if (recv_all(t_fd, &r))
		ucr_die("the machine server stopped answering (sleep)");
	t_busy--;
	if (r.rc && r.rc != -EINTR)
		ucr_die("sleep: %s", r.msg);
	errno = saved;
	return r.rc ? (r.v[1] ? r.v[1] : 1) : 0;
}

EXPORT int clock_gettime(clockid_t c, struct timespec *ts)
{
	REAL(clock_gettime);
	if (!active || !simulated_clock(c))
		return real_clock_gettime(c, ts);
	uint64_t ns = sim_ns(c);

	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

EXPORT int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	REAL(gettimeofday);
	if (!active || wall_clock)
		return real_gettimeofday(tv, tz);
	uint64_t ns = sim_ns(CLOCK_REALTIME);

	tv->tv_sec = (time_t)(ns / 1000000000u);
	tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000);
	return 0;
}

EXPORT time_t time(time_t *t)
{
	REAL(time);
	if (!active || wall_clock)
		return real_time(t);
	time_t v = (time_t)(sim_ns(CLOCK_REALTIME) / 1000000000u);

	if (t)
		*t = v;
	return v;
}

EXPORT int clock_nanosleep(clockid_t c, int flags, const struct timespec *req_ts, struct timespec *rem)
{
	REAL(clock_nanosleep);
	if (!active || !simulated_clock(c))
		return real_clock_nanosleep(c, flags, req_ts, rem);
	if (req_ts->tv_nsec < 0 || req_ts->tv_nsec >= 1000000000 || req_ts->tv_sec < 0)
		return EINVAL;
	uint64_t ns = (uint64_t)req_ts->tv_sec * 1000000000u + (uint64_t)req_ts->tv_nsec;

	if (flags & TIMER_ABSTIME) {
		uint64_t now = sim_ns(c);

		ns = ns > now ? ns - now : 0;
	}
	uint64_t left = sim_sleep(ns);

	if (!left)
		return 0;
	if (rem && !(flags & TIMER_ABSTIME))
		*rem = (struct timespec){ (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
	return EINTR;
}

EXPORT int nanosleep(const struct timespec *req_ts, struct timespec *rem)
{
	int rc;

	REAL(nanosleep);
	if (!active || wall_clock)
		return real_nanosleep(req_ts, rem);
	rc = clock_nanosleep(CLOCK_MONOTONIC, 0, req_ts, rem);
	return rc ? (int)fail(rc) : 0;
}

EXPORT int usleep(useconds_t us)
{
	REAL(usleep);
	if (!active || wall_clock)
		return real_usleep(us);
	return sim_sleep((uint64_t)us * 1000u) ? (int)fail(EINTR) : 0;
}

EXPORT unsigned sleep(unsigned s)
{
	REAL(sleep);
	if (!active || wall_clock)
		return real_sleep(s);
	uint64_t left = sim_sleep((uint64_t)s * 1000000000u);

	return (unsigned)((left + 999999999u) / 1000000000u);
}

/* ---- interposed: cpus ---- */

static int first_cpu(size_t size, const cpu_set_t *set)
{
	for (unsigned c = 0; c < ncpu && c < size * 8; c++)
		if (CPU_ISSET_S(c, size, set))
			return (int)c;
	return -1;
}

static void fill_set(size_t size, cpu_set_t *set, int only)
{
	CPU_ZERO_S(size, set);
	for (unsigned c = 0; c < ncpu && c < size * 8; c++)
		if (only < 0 || (unsigned)only == c)
			CPU_SET_S(c, size, set);
}

/* Binding a thread chooses the machine cpu whose CPUID, RDTSCP and MSRs it
 * sees; the host scheduler is left alone (the machine's cpus are not the
 * host's). */
EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	REAL(sched_setaffinity);
	if (!active)
		return real_sched_setaffinity(pid, size, set);
	int c = first_cpu(size, set);

	if (c < 0)
		return (int)fail(EINVAL);
	if (pid == 0 || pid == gettid())
		t_vcpu = c;
	else if (pid == getpid())
		g_vcpu = c;
	return 0;
}

EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	REAL(sched_getaffinity);
	if (!active)
		return real_sched_getaffinity(pid, size, set);
	if (size * 8 < ncpu)
		return (int)fail(EINVAL);
	if (!set)
		return (int)fail(EFAULT);
	fill_set(size, set, pid == 0 || pid == gettid() ? t_vcpu : -1);
	return 0;
}

EXPORT int pthread_setaffinity_np(pthread_t th, size_t size, const cpu_set_t *set)
{
	REAL(pthread_setaffinity_np);
	if (!active)
		return real_pthread_setaffinity_np(th, size, set);
	int c = first_cpu(size, set);

	if (c < 0)
		return EINVAL;
	if (pthread_equal(th, pthread_self()))
		t_vcpu = c;
	return 0;
}

EXPORT int pthread_getaffinity_np(pthread_t th, size_t size, cpu_set_t *set)
{
	REAL(pthread_getaffinity_np);
	if (!active)
		return real_pthread_getaffinity_np(th, size, set);
	if (size * 8 < ncpu)
		return EINVAL;
	fill_set(size, set, pthread_equal(th, pthread_self()) ? t_vcpu : -1);
	return 0;
}

EXPORT int sched_getcpu(void)
{
	REAL(sched_getcpu);
	if (!active)
		return real_sched_getcpu();
	return t_vcpu >= 0 ? t_vcpu : g_vcpu;
}

EXPORT int getcpu(unsigned *cpu, unsigned *node)
{
	REAL(getcpu);
	if (!active)
		return real_getcpu(cpu, node);
	if (cpu)
		*cpu = (unsigned)sched_getcpu();
	if (node) {
		uint64_t r[4];

		*node = ucr_cpuid(0xB, 1, r) ? 0 : (unsigned)(r[3] >> (r[0] & 31));
	}
	return 0;
}

EXPORT long sysconf(int name)
{
	REAL(sysconf);
	if (active && (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return ncpu;
	return real_sysconf(name);
}

EXPORT int get_nprocs(void)
{
	REAL(get_nprocs);
	return active ? (int)ncpu : real_get_nprocs();
}

EXPORT int get_nprocs_conf(void)
{
	REAL(get_nprocs_conf);
	return active ? (int)ncpu : real_get_nprocs_conf();
}

/* ---- interposed: waiting for another thread or process ---- */

/* While a thread waits for a child or another thread, it holds no machine
 * time: the server may run the clock to the next sleeper's deadline. */
static void blocked(int on)
{
	struct ucr_rsp r;

	if (active && !wall_clock)
		req(UCR_BLOCK, (uint64_t)on, 0, 0, &r);
}

#define BLOCKING(ret, name, proto, args) \
	EXPORT ret name proto \
	{ \
		ret rv; \
		int e; \
		REAL(name); \
		blocked(1); \
		rv = real_##name args; \
		e = errno; \
		blocked(0); \
		errno = e; \
		return rv; \
	}

BLOCKING(pid_t, waitpid, (pid_t pid, int *st, int opt), (pid, st, opt))
BLOCKING(pid_t, wait, (int *st), (st))
BLOCKING(pid_t, wait3, (int *st, int opt, struct rusage *ru), (st, opt, ru))
BLOCKING(pid_t, wait4, (pid_t pid, int *st, int opt, struct rusage *ru), (pid, st, opt, ru))
BLOCKING(int, waitid, (idtype_t t, id_t id, siginfo_t *si, int opt), (t, id, si, opt))
BLOCKING(int, pthread_join, (pthread_t th, void **ret), (th, ret))

/* ---- interposed: signals and loading ---- */

int ucr_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*fn)(int, const struct sigaction *, struct sigaction *);

	if (!fn)
		fn = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	return fn(sig, act, old);
}

EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (active && !ucr_trap_sigaction(sig, act, old))
		return 0;
	return ucr_real_sigaction(sig, act, old);
}

EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old))
		return SIG_ERR;
	return old.sa_handler;
}

EXPORT void *dlopen(const char *file, int mode)
{
	REAL(dlopen);
	void *h = real_dlopen(file, mode);

	if (h && active)
		ucr_trap_scan();
	return h;
}

/* ---- start ---- */

static void read_redirects(void)
{
	char path[PATH_MAX + 16], line[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.redirect", root);
	REAL(fopen);
	f = real_fopen(path, "re");
	if (!f)
		ucr_die("%s: %s (the machine's tree is incomplete)", path, strerror(errno));
	while (nredir < MAXREDIR && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '/')
			redir_list[nredir++] = strdup(line);
	}
	fclose(f);
}

__attribute__((constructor(101))) static void ucr_start(void)
{
	const char *s = getenv(UCR_ENV_SOCK), *r = getenv(UCR_ENV_ROOT), *c = getenv(UCR_ENV_CLOCK);
	struct ucr_rsp rsp;

	if (!s || !*s)
		return;
	if (!r || strlen(s) >= sizeof(sock_path) || strlen(r) >= sizeof(root) - 64)
		ucr_die("%s and %s must name the server's socket and tree", UCR_ENV_SOCK, UCR_ENV_ROOT);
	verbose = getenv(UCR_ENV_LOG) != NULL;
	wall_clock = c && !strcmp(c, "wall");
	snprintf(sock_path, sizeof(sock_path), "%s", s);
	snprintf(root, sizeof(root), "%s", r);
	root_len = strlen(root);
	lives = calloc(MAXFD, sizeof(*lives));
	if (!lives)
		ucr_die("out of memory");
	read_redirects();
	inherited_fds();
	cwd_changed();
	pthread_atfork(before_fork, NULL, after_fork);
	if (pthread_key_create(&conn_key, conn_drop))
		ucr_die("pthread_key_create failed");
	active = 1;
	if (req(UCR_HELLO, (uint64_t)getpid(), 0, 0, &rsp))
		ucr_die("the machine server refused: %s", t_err);
	ncpu = (unsigned)rsp.v[0];
	ucr_trap_init();
}
