/*
 * uct_file.c - output files (uct_file.h): write-then-rename for regular
 * files, keeping the mode and owner of the file replaced; write-through
 * for links, resolved here under the kernel's protected_symlinks rule;
 * direct writes to devices, FIFOs and named descriptors (/dev/stdout).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uct_file.h"

FILE *uct_file_create(const char *path, char *tmp, size_t tmpn, char *err, size_t n)
{
	mode_t mask;
	FILE *f;
	int fd;

	if ((size_t)snprintf(tmp, tmpn, "%s.XXXXXX", path) >= tmpn) {
		snprintf(err, n, "%s: path too long", path);
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, n, "%s: cannot create a file beside it: %s", path, strerror(errno));
		return NULL;
	}
	/* mkstemp makes 0600; the result should look like any new file */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(f = fdopen(fd, "w"))) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		return NULL;
	}
	return f;
}

/* The descriptor a path names: /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N (what >(...) gives); -1 for any other path.  Such a path
 * is written through the descriptor, so that `-o /dev/stdout >> log`
 * appends and `| head` is a pipe, not a file to replace. */
static int fd_name(const char *p)
{
	const char *d = NULL;
	char *end;
	long v;

	if (!strcmp(p, "/dev/stdout"))
		return 1;
	if (!strcmp(p, "/dev/stderr"))
		return 2;
	if (!strncmp(p, "/dev/fd/", 8))
		d = p + 8;
	else if (!strncmp(p, "/proc/self/fd/", 14))
		d = p + 14;
	if (!d || *d < '0' || *d > '9')
		return -1;
	errno = 0;
	v = strtol(d, &end, 10);
	return errno || *end || v > INT_MAX ? -1 : (int)v;
}

/* Whether the kernel's protected_symlinks rule would refuse to follow the
 * link st describes, at path p: a link in a sticky world-writable
 * directory is followed only by its owner, or when the directory's owner
 * owns it.  Resolving links here (to rename over the target) bypasses the
 * kernel's check, so it is made here; 0, or -EACCES and why in err. */
static int protected_link(const char *p, const struct stat *st, const char *path, char *err, size_t en)
{
	char dir[4096];
	const char *slash = strrchr(p, '/');
	struct stat ds;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == p)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p), p);
	if (stat(dir, &ds) || !(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH) ||
	    st->st_uid == geteuid() || st->st_uid == ds.st_uid)
		return 0;
	snprintf(err, en, "%s: not following the symbolic link %s: it is owned by uid %u in the sticky, world-writable directory %s (the kernel's protected_symlinks rule)",
		 path, p, (unsigned)st->st_uid, dir);
	return -EACCES;
}

/* The file a path names for writing: a symbolic link's target (followed
 * to the end, relative targets from the link's directory), else the path;
 * *fd the descriptor it names (fd_name), else -1. */
static int resolve(const char *path, char *out, size_t n, int *fd, char *err, size_t en)
{
	char cur[4096], link[4096];
	int rc;

	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		goto toolong;
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		ssize_t len;

		if ((*fd = fd_name(cur)) >= 0)
			return 0;
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			if ((size_t)snprintf(out, n, "%s", cur) >= n)
				goto toolong;
			return 0;
		}
		if ((rc = protected_link(cur, &st, path, err, en)))
			return rc;
		len = readlink(cur, link, sizeof(link) - 1);
		if (len < 0) {
			snprintf(err, en, "%s: %s", path, strerror(errno));
			return -errno;
		}
		link[len] = 0;
		if (link[0] != '/') {
			char *slash = strrchr(cur, '/');
			char joined[8192];

			if (slash) {
				slash[1] = 0;
				snprintf(joined, sizeof(joined), "%s%s", cur, link);
			} else {
				snprintf(joined, sizeof(joined), "%s", link);
			}
			if ((size_t)snprintf(cur, sizeof(cur), "%s", joined) >= sizeof(cur))
				goto toolong;
		} else {
			snprintf(cur, sizeof(cur), "%s", link);
		}
	}
	snprintf(err, en, "%s: too many levels of symbolic links", path);
	return -ELOOP;
toolong:
	snprintf(err, en, "%s: path too long", path);
	return -ENAMETOOLONG;
}

/* The replacement gets the replaced file's mode, owner and group, as if
 * it had been rewritten in place; an owner this user cannot give (not
 * root, another user's file) is refused, not silently taken over. */
static int keep_attrs(struct uct_file *o, const struct stat *st, const char *path, char *err, size_t n)
{
	int fd = fileno(o->f);
	struct stat now;

	if (fstat(fd, &now))
		goto fail;
	if ((now.st_uid != st->st_uid || now.st_gid != st->st_gid) && fchown(fd, st->st_uid, st->st_gid)) {
		snprintf(err, n, "%s: owned by uid %u gid %u, which a replacement made by uid %u cannot keep: %s",
			 path, (unsigned)st->st_uid, (unsigned)st->st_gid, (unsigned)geteuid(), strerror(errno));
		return -1;
	}
	/* setuid and setgid are not carried to new content: a write clears
	 * them too (unless the writer is root) */
	if (fchmod(fd, st->st_mode & 01777))
		goto fail;
	return 0;
fail:
	snprintf(err, n, "%s: %s", path, strerror(errno));
	return -1;
}

int uct_file_open(struct uct_file *o, const char *path, char *err, size_t n)
{
	struct stat st;
	int rc, fd, exists;

	memset(o, 0, sizeof(*o));
	if ((rc = resolve(path, o->path, sizeof(o->path), &fd, err, n)))
		return rc;
	if (fd >= 0) {
		/* a named descriptor: written where it leads, at its offset
		 * and with its flags (O_APPEND), never reopened or replaced */
		int d = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		if (d < 0 || !(o->f = fdopen(d, "w"))) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			if (d >= 0)
				close(d);
			return -EBADF;
		}
		return 0;
	}
	exists = !stat(o->path, &st);
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, n, "%s: is a directory", path);
			return -EISDIR;
		}
		/* a device, a FIFO, a terminal: written to, never replaced */
		if (!(o->f = fopen(o->path, "w"))) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			return -errno;
		}
		return 0;
	}
	/* renaming over a file with other names would leave them the old
	 * content: refused rather than done behind the user's back */
	if (exists && st.st_nlink > 1) {
		snprintf(err, n, "%s: has %lu hard links: replacing it would part them (write to a new name, or remove the other links)",
			 path, (unsigned long)st.st_nlink);
		return -EMLINK;
	}
	if (!(o->f = uct_file_create(o->path, o->tmp, sizeof(o->tmp), err, n)) ||
	    (exists && keep_attrs(o, &st, path, err, n))) {
		if (o->f) {
			uct_file_abort(o);
			return -EPERM;
		}
		if (strcmp(path, o->path)) {
			/* name the link the user gave as well as its target */
			char e[1024];

			snprintf(e, sizeof(e), "%s", err);
			snprintf(err, n, "%s (a link): %s", path, e);
		}
		return -EIO;
	}
	return 0;
}

int uct_file_commit(struct uct_file *o, char *err, size_t n)
{
	int rc = 0;

	/* a failed write may leave nothing to flush but the error flag set */
	errno = 0;
	if (fflush(o->f) || ferror(o->f)) {
		rc = -(errno ? errno : EIO);
		/* an earlier write failed and left nothing to flush: one more
		 * byte on the temporary, which is discarded, tells why (a file
		 * size limit, a full disk) */
		if (rc == -EIO && o->tmp[0] && write(fileno(o->f), "", 1) < 0)
			rc = -errno;
	}
	if (fclose(o->f) && !rc)
		rc = -(errno ? errno : EIO);
	o->f = NULL;
	if (!rc && o->tmp[0] && rename(o->tmp, o->path))
		rc = -errno;
	if (rc) {
		snprintf(err, n, "%s: %s", o->path, strerror(-rc));
		if (o->tmp[0])
			unlink(o->tmp);
	}
	return rc;
}

void uct_file_abort(struct uct_file *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
}
