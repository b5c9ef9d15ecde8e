/*
 * ucr_fd.c - descriptors the machine serves, in the preload library
 * (libuncore-run.so).  A descriptor is served when it was opened on a
 * device file of the machine's tree (ucr_path.c tracks each open; those
 * the process was started with are found at start); a table says what
 * each one is (struct ucr_fd, by kind).  The calls that take a descriptor
 * (read, write, pread, pwrite, ioctl, mmap, fstat) hand a served one to the
 * part that serves its kind, ucr_dev.c for the device files, and leave the
 * others to the C library; dup and fcntl carry what a descriptor is, close
 * ends it; a device file opened as a stream is a cookie stream over it.
 *
 * Another kind of served descriptor (enum ucr_fd_kind) is marked in the
 * table when its call returns it and gets its case in each call below.
 */
#include <dirent.h>
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
#include <unistd.h>

#include "ucr_preload.h"

/* ---- the table ---- */

#define MAXFD 65536
static struct ucr_fd *lives;

struct ucr_fd *ucr_fd_of(int fd)
{
	if (!lives || fd < 0 || fd >= MAXFD || !lives[fd].kind)
		return NULL;
	return &lives[fd];
}

struct ucr_fd *ucr_fd_slot(int fd)
{
	return lives && fd >= 0 && fd < MAXFD ? &lives[fd] : NULL;
}

int ucr_fd_track(int fd, const char *path)
{
	if (fd < 0 || !lives || fd >= MAXFD)
		return fd;
	if (path && ucr_perf_classify(path, &lives[fd]))
		return fd;
	if (path && ucr_in_root(path)) {
		lives[fd] = ucr_dev_classify(path + ucr_root_len);
		if (lives[fd].kind)
			ucr_log("%s is fd %d", path + ucr_root_len, fd);
	} else {
		lives[fd].kind = UCR_FD_NONE;
	}
	return fd;
}

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
		ucr_fd_track(fd, to);
	}
	closedir(d);
}

void ucr_fd_init(void)
{
	lives = calloc(MAXFD, sizeof(*lives));
	if (!lives)
		ucr_die("out of memory");
	inherited_fds();
}

/* ---- streams ---- */

/* A device file opened as a stream: its reads and writes still reach the
 * machine, through a cookie stream. */
struct cookie {
	struct ucr_fd l;
	off_t pos;
	int fd;
};

static ssize_t ck_read(void *c, char *buf, size_t n)
{
	struct cookie *k = c;
	ssize_t r = ucr_dev_rw(&k->l, buf, k->l.kind == UCR_FD_MSR ? n / 8 * 8 : n, k->pos, 0);

	if (r > 0 && k->l.kind != UCR_FD_MSR)
		k->pos += r;
	return r < 0 ? -1 : r;
}

static ssize_t ck_write(void *c, const char *buf, size_t n)
{
	struct cookie *k = c;
	ssize_t r = ucr_dev_rw(&k->l, (void *)buf, n, k->pos, 1);

	if (r > 0 && k->l.kind != UCR_FD_MSR)
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

FILE *ucr_fd_stream(const char *path, const struct ucr_fd *l, const char *mode)
{
	int fd = open(path, strchr(mode, '+') || strchr(mode, 'w') ? O_RDWR : O_RDONLY);
	struct cookie *k;
	FILE *f;

	if (fd < 0)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k) {
		close(fd);
		return NULL;
	}
	*k = (struct cookie){ *l, 0, fd };
	f = fopencookie(k, mode, (cookie_io_functions_t){ ck_read, ck_write, ck_seek, ck_close });
	if (!f) {
		close(fd);
		free(k);
	}
	return f;
}

/* ---- interposed: descriptors ---- */

/* A served device call is also made on the tree's placeholder file, with
 * no bytes (and msr-safe's batch ioctl as itself, which a regular file
 * refuses): it changes nothing, and strace then shows the program's device
 * system calls, one for one, as on the machine (CTest hwrun.syscalls_*).
 * errno is the served call's. */
#define SHADOW(call) \
	do { \
		int shadow_errno = errno; \
		(void)(call); \
		errno = shadow_errno; \
	} while (0)

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	struct ucr_fd *l = ucr_fd_of(fd);
	REAL(read);

	if (!l)
		return real_read(fd, buf, n);
	if (l->kind == UCR_FD_PERF)
		return ucr_perf_read(l, buf, n);
	SHADOW(real_read(fd, buf, 0));
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t r = ucr_dev_rw(l, buf, n, pos, 0);

	if (r > 0 && l->kind != UCR_FD_MSR)
		lseek(fd, pos + r, SEEK_SET);
	return r;
}

EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	struct ucr_fd *l = ucr_fd_of(fd);
	REAL(write);

	if (!l)
		return real_write(fd, buf, n);
	if (l->kind == UCR_FD_PERF)
		return ucr_fail(EINVAL); /* a perf descriptor has no write */
	SHADOW(real_write(fd, buf, 0));
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t r = ucr_dev_rw(l, (void *)buf, n, pos, 1);

	if (r > 0 && l->kind != UCR_FD_MSR)
		lseek(fd, pos + r, SEEK_SET);
	return r;
}

/* _FORTIFY_SOURCE's forms, which a program built with it calls instead
 * (PCM reads its perf descriptors with __read_chk): the same, after the
 * bound check glibc makes */
extern void __chk_fail(void) __attribute__((noreturn));
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);

EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		__chk_fail();
	return read(fd, buf, n);
}

EXPORT ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	if (n > buflen)
		__chk_fail();
	return pread(fd, buf, n, off);
}

EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	if (n > buflen)
		__chk_fail();
	return pread64(fd, buf, n, off);
}

#define PRW(name, type, wr) \
	EXPORT ssize_t name(int fd, type buf, size_t n, off_t off) \
	{ \
		struct ucr_fd *l = ucr_fd_of(fd); \
		REAL(name); \
		if (l && l->kind == UCR_FD_PERF) \
			return ucr_fail(ESPIPE); /* the kernel's perf files have no llseek */ \
		if (!l) \
			return real_##name(fd, buf, n, off); \
		SHADOW(real_##name(fd, buf, 0, off)); \
		return ucr_dev_rw(l, (void *)buf, n, off, wr); \
	}

PRW(pread, void *, 0)
PRW(pread64, void *, 0)
PRW(pwrite, const void *, 1)
PRW(pwrite64, const void *, 1)

EXPORT int close(int fd)
{
	REAL(close);
	if (ucr_conn_closing(fd))
		return 0;
	if (lives && fd >= 0 && fd < MAXFD) {
		if (lives[fd].kind == UCR_FD_PERF)
			ucr_perf_close(fd, &lives[fd]);
		lives[fd].kind = UCR_FD_NONE;
	}
	return real_close(fd);
}

static int dup_track(int old, int fd)
{
	if (fd >= 0 && lives && fd < MAXFD)
		lives[fd] = old >= 0 && old < MAXFD ? lives[old] : (struct ucr_fd){ 0 };
	return fd;
}

EXPORT int dup(int old)
{
	REAL(dup);
	return dup_track(old, real_dup(old));
}

/* dup2 and dup3 onto a connection of the library move it away first */
EXPORT int dup2(int old, int fd)
{
	REAL(dup2);
	if (old != fd && ucr_conn_protect(fd))
		return -1;
	return dup_track(old, real_dup2(old, fd));
}

EXPORT int dup3(int old, int fd, int fl)
{
	REAL(dup3);
	if (old != fd && ucr_conn_protect(fd))
		return -1;
	return dup_track(old, real_dup3(old, fd, fl));
}

/* close_range and closefrom (and the close_range system call through
 * syscall(), ucr_perf.c) close the program's range around the library's
 * connections: a program that closes every descriptor it does not know
 * (daemons, Python's subprocess, shells) must not cut the machine off.
 * With CLOSE_RANGE_CLOEXEC nothing closes now; ours are close-on-exec. */
long ucr_close_range(unsigned first, unsigned last, int flags)
{
	REAL(syscall);
	unsigned lo = first;
	long rc = 0;

	if (first > last)
		return real_syscall(SYS_close_range, first, last, flags);
	if (!(flags & CLOSE_RANGE_CLOEXEC) && lives)
		for (unsigned fd = first; fd <= last && fd < MAXFD; fd++)
			if (lives[fd].kind && ucr_conn_next_ours((int)fd) != (int)fd) {
				if (lives[fd].kind == UCR_FD_PERF)
					ucr_perf_close((int)fd, &lives[fd]);
				lives[fd].kind = UCR_FD_NONE;
			}
	for (;;) {
		int ours = ucr_conn_next_ours((int)lo);

		if (ours < 0 || (unsigned)ours > last) {
			if (real_syscall(SYS_close_range, lo, last, flags))
				rc = -1;
			break;
		}
		if ((unsigned)ours > lo && real_syscall(SYS_close_range, lo, (unsigned)ours - 1, flags))
			rc = -1;
		if ((unsigned)ours == last)
			break;
		lo = (unsigned)ours + 1;
	}
	return rc;
}

EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	REAL(close_range);
	if (!ucr_active)
		return real_close_range(first, last, flags);
	return (int)ucr_close_range(first, last, flags);
}

EXPORT void closefrom(int low)
{
	REAL(closefrom);
	if (!ucr_active) {
		real_closefrom(low);
		return;
	}
	if (ucr_close_range(low < 0 ? 0 : (unsigned)low, ~0u, 0)) {
		/* no close_range in this kernel: one by one, as glibc does */
		for (int fd = low < 0 ? 0 : low; fd < MAXFD; fd++)
			if (ucr_conn_next_ours(fd) != fd)
				close(fd);
	}
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
	struct ucr_fd *l = ucr_fd_of(fd);
	REAL(ioctl);

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (l && l->kind == UCR_FD_PERF)
		return ucr_perf_ioctl(l, request, arg);
	if (l && l->kind == UCR_FD_BATCH)
		SHADOW(real_ioctl(fd, request, arg));
	if (l)
		return ucr_dev_ioctl(l, request, arg);
	return real_ioctl(fd, request, arg);
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct ucr_fd *l = ucr_fd_of(fd);
	REAL(mmap);

	if (l && l->kind == UCR_FD_PERF) {
		/* no ring buffer or user page for these counting events */
		errno = ENODEV;
		return MAP_FAILED;
	}
	if (l)
		return ucr_dev_mmap(l, len, flags, off);
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

/* fstat of a descriptor of a device file: the kernel's character device,
 * as stat of its path (ucr_path.c) */
#define FSTAT_CALL(name, type) \
	EXPORT int name(int fd, type *st) \
	{ \
		REAL(name); \
		int rc = real_##name(fd, st); \
		const struct ucr_fd *l = ucr_fd_of(fd); \
		if (!rc && l) \
			UCR_AS_DEVICE(st, l); \
		return rc; \
	}

FSTAT_CALL(fstat, struct stat)
FSTAT_CALL(fstat64, struct stat64)

/* A served descriptor's calls made through glibc's syscall() (a read of an
 * MSR as syscall(SYS_pread64, ...)): as the wrappers above; any other
 * descriptor's go to the kernel unchanged. */
long ucr_fd_syscall(long nr, const long *a, int *handled)
{
	int fd = (int)a[0];

	*handled = 0;
	if (fd < 0 || !ucr_fd_of(fd))
		return 0;
	*handled = 1;
	switch (nr) {
	case SYS_read:
		return read(fd, (void *)a[1], (size_t)a[2]);
	case SYS_write:
		return write(fd, (const void *)a[1], (size_t)a[2]);
	case SYS_pread64:
		return pread(fd, (void *)a[1], (size_t)a[2], (off_t)a[3]);
	case SYS_pwrite64:
		return pwrite(fd, (const void *)a[1], (size_t)a[2], (off_t)a[3]);
	case SYS_ioctl:
		return ioctl(fd, (unsigned long)a[1], a[2]);
	case SYS_close:
		return close(fd);
	case SYS_dup:
		return dup(fd);
	case SYS_dup2:
		return dup2(fd, (int)a[1]);
	case SYS_dup3:
		return dup3(fd, (int)a[1], (int)a[2]);
	case SYS_fcntl:
		return fcntl(fd, (int)a[1], a[2]);
	}
	*handled = 0;
	return 0;
}
