/*
 * ucr_path.c - paths in the preload library (libuncore-run.so): the
 * machine's paths (the list the server writes to ROOT/.redirect: /proc/cpuinfo,
 * /sys/devices/system/cpu, /dev/cpu ...) lead into its tree, through every
 * call that takes a path (open, fopen, stat, access, opendir, readlink,
 * getxattr and their variants, and the same system calls through glibc's
 * syscall()), relative to a directory opened outside the
 * tree too; the working directory: chdir into the machine's directories
 * enters the tree, getcwd names it as the program asked.  A device file
 * opened here is served by ucr_fd.c; stat shows it as the device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ucr_preload.h"

#define MAXREDIR 64
static char *redir_list[MAXREDIR];
static unsigned nredir;

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

int ucr_in_root(const char *p)
{
	return !strncmp(p, ucr_root, ucr_root_len) && (p[ucr_root_len] == 0 || p[ucr_root_len] == '/');
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
	cwd_in_tree = ucr_in_root(wd);
	snprintf(cwd_name, sizeof(cwd_name), "%s", cwd_in_tree ? (wd[ucr_root_len] ? wd + ucr_root_len : "/") : wd);
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
static const char *redir_abs(int dirfd, const char *path, char *buf, char *absn)
{
	char norm[PATH_MAX], dir[PATH_MAX];
	const char *orig = path;
	size_t k = 0;
	int logical = 0;

	if (absn)
		absn[0] = 0;
	if (!ucr_active || !path)
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
		if (n < 1 || dir[0] != '/' || ((size_t)n >= ucr_root_len && !strncmp(dir, ucr_root, ucr_root_len)))
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
	if (absn && dir[0] == '/')
		memcpy(absn, dir, k + 1);
	if (!redirected(dir) || ucr_root_len + k + 1 > PATH_MAX) {
		if (!logical || k + 1 > PATH_MAX)
			return orig;
		/* out of the tree: the real path it names */
		memcpy(buf, dir, k + 1);
		return buf;
	}
	memcpy(buf, ucr_root, ucr_root_len);
	memcpy(buf + ucr_root_len, dir, k + 1);
	return buf;
}

/* The same; absn, when given (PATH_MAX bytes), gets the absolute name the
 * path has for the program ("" if it has none): what a relative "status"
 * opened in /proc/self means. */
static const char *redir(int dirfd, const char *path, char *buf)
{
	return redir_abs(dirfd, path, buf, NULL);
}

/* What a redirected path p (in the tree: buf) is, after a successful stat
 * of it: a device file of the tree, or nothing. */
static struct ucr_fd tree_kind(const char *p, const char *buf)
{
	struct ucr_fd none = { .kind = UCR_FD_NONE };

	return p == buf && ucr_in_root(buf) ? ucr_dev_classify(buf + ucr_root_len) : none;
}

/* The same for the *at calls, where AT_EMPTY_PATH names the descriptor
 * itself (glibc's and Rust's fstat are fstatat or statx of fd, ""). */
static struct ucr_fd at_kind(int dirfd, const char *p, const char *buf, int fl)
{
	const struct ucr_fd *l;
	struct ucr_fd none = { .kind = UCR_FD_NONE };

	if ((fl & AT_EMPTY_PATH) && p && !p[0])
		return (l = ucr_fd_of(dirfd)) ? *l : none;
	return tree_kind(p, buf);
}

/* ---- interposed: opening ---- */

/* A redirected path p (in the tree: buf) that is made when opened; absn:
 * its absolute name, when it was relative (redir_abs) */
static int made_file(const char *p, const char *buf, const char *absn)
{
	if (p == buf && ucr_in_root(buf))
		return ucr_gen_kind(buf + ucr_root_len);
	return ucr_active ? ucr_gen_path(absn[0] ? absn : p) : 0;
}

static int open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

#define OPEN_LIKE(name, realcall) \
	EXPORT int name(const char *path, int flags, ...) \
	{ \
		char buf[PATH_MAX], absn[PATH_MAX]; \
		va_list ap; \
		int mode; \
		REAL(name); \
		va_start(ap, flags); \
		mode = open_mode(flags, ap); \
		va_end(ap); \
		const char *p = redir_abs(AT_FDCWD, path, buf, absn); \
		int gen = made_file(p, buf, absn); \
		if (gen) \
			return ucr_gen_open(gen, flags); \
		int fd = realcall; \
		return ucr_fd_track(fd, p == buf ? buf : NULL); \
	}

OPEN_LIKE(open, real_open(p, flags, mode))
OPEN_LIKE(open64, real_open64(p, flags, mode))

#define OPENAT_LIKE(name) \
	EXPORT int name(int dirfd, const char *path, int flags, ...) \
	{ \
		char buf[PATH_MAX], absn[PATH_MAX]; \
		va_list ap; \
		int mode; \
		REAL(name); \
		va_start(ap, flags); \
		mode = open_mode(flags, ap); \
		va_end(ap); \
		const char *p = redir_abs(dirfd, path, buf, absn); \
		int gen = made_file(p, buf, absn); \
		if (gen) \
			return ucr_gen_open(gen, flags); \
		int fd = real_##name(p == buf ? AT_FDCWD : dirfd, p, flags, mode); \
		return ucr_fd_track(fd, p == buf ? buf : NULL); \
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
 * machine, through a cookie stream (ucr_fd.c). */
static FILE *fopen_common(const char *path, const char *mode, FILE *(*real)(const char *, const char *))
{
	char buf[PATH_MAX], absn[PATH_MAX];
	const char *p = redir_abs(AT_FDCWD, path, buf, absn);
	struct ucr_fd l;
	int gen = made_file(p, buf, absn);

	if (gen) {
		int fd = ucr_gen_open(gen, (mode[0] == 'r' && !strchr(mode, '+') ? O_RDONLY : O_RDWR) |
						   (strchr(mode, 'e') ? O_CLOEXEC : 0));
		FILE *f = fd < 0 ? NULL : fdopen(fd, mode);

		if (fd >= 0 && !f)
			close(fd);
		return f;
	}
	if (p == buf && ucr_in_root(buf) && (l = ucr_dev_classify(buf + ucr_root_len)).kind &&
	    l.kind != UCR_FD_BATCH)
		return ucr_fd_stream(p, &l, mode);
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
		struct ucr_fd l = tree_kind(p, buf); \
		if (!rc) \
			UCR_AS_DEVICE(st, &l); \
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

	if (!rc && ucr_active)
		cwd_changed();
	return rc;
}

EXPORT int fchdir(int fd)
{
	REAL(fchdir);
	int rc = real_fchdir(fd);

	if (!rc && ucr_active)
		cwd_changed();
	return rc;
}

EXPORT char *getcwd(char *b, size_t n)
{
	REAL(getcwd);
	char *r = real_getcwd(b, n);

	if (r && ucr_active && ucr_in_root(r)) {
		if (r[ucr_root_len])
			memmove(r, r + ucr_root_len, strlen(r + ucr_root_len) + 1);
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
		struct ucr_fd l = at_kind(dirfd, p, buf, fl); \
		if (!rc) \
			UCR_AS_DEVICE(st, &l); \
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
	struct ucr_fd l = at_kind(dirfd, p, buf, fl);

	if (!rc && ucr_dev_num(&l, &ma, &mi)) {
		st->stx_mode = (uint16_t)(S_IFCHR | (st->stx_mode & 07777));
		st->stx_rdev_major = ma;
		st->stx_rdev_minor = mi;
		st->stx_size = 0;
		st->stx_blocks = 0;
	}
	return rc;
}

/* ---- start ---- */

static void read_redirects(void)
{
	char path[PATH_MAX + 16], line[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.redirect", ucr_root);
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

void ucr_path_init(void)
{
	read_redirects();
	cwd_changed();
}

/* The calls above made through glibc's syscall() (a program may open
 * /proc/cpuinfo as syscall(SYS_openat, ...)): served as the wrappers are,
 * with the system call's return values. */
long ucr_path_syscall(long nr, const long *a, int *handled)
{
	const char *path = (const char *)a[1];

	*handled = 1;
	switch (nr) {
	case SYS_open:
		return open((const char *)a[0], (int)a[1], (mode_t)a[2]);
	case SYS_openat:
		return openat((int)a[0], path, (int)a[2], (mode_t)a[3]);
	case SYS_stat:
		return stat((const char *)a[0], (struct stat *)a[1]);
	case SYS_lstat:
		return lstat((const char *)a[0], (struct stat *)a[1]);
	case SYS_newfstatat:
		return fstatat((int)a[0], path, (struct stat *)a[2], (int)a[3]);
	case SYS_statx:
		return statx((int)a[0], path, (int)a[2], (unsigned)a[3], (struct statx *)a[4]);
	case SYS_access:
		return access((const char *)a[0], (int)a[1]);
	case SYS_faccessat:
		return faccessat((int)a[0], path, (int)a[2], 0);
	case SYS_faccessat2:
		return faccessat((int)a[0], path, (int)a[2], (int)a[3]);
	case SYS_readlink:
		return readlink((const char *)a[0], (char *)a[1], (size_t)a[2]);
	case SYS_readlinkat:
		return readlinkat((int)a[0], path, (char *)a[2], (size_t)a[3]);
	case SYS_chdir:
		return chdir((const char *)a[0]);
	case SYS_execve:
		/* the new image keeps the machine (ucr_exec.c) */
		return execve((const char *)a[0], (char *const *)a[1], (char *const *)a[2]);
	case SYS_getcwd:
		/* the kernel's: the length with its NUL */
		return getcwd((char *)a[0], (size_t)a[1]) ? (long)strlen((char *)a[0]) + 1 : -1;
	}
	*handled = 0;
	return 0;
}
