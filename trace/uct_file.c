/*
 * uct_file.c - output files (uct_file.h): write-then-rename for regular
 * files, write-through for links, direct writes to devices and FIFOs.
 */
#include <errno.h>
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

/* The file a path names for writing: a symbolic link's target (followed
 * to the end, relative targets from the link's directory), else the path. */
static int resolve(const char *path, char *out, size_t n, char *err, size_t en)
{
	char cur[4096], link[4096];

	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		goto toolong;
	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		ssize_t len;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			if ((size_t)snprintf(out, n, "%s", cur) >= n)
				goto toolong;
			return 0;
		}
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

int uct_file_open(struct uct_file *o, const char *path, char *err, size_t n)
{
	struct stat st;
	int rc;

	memset(o, 0, sizeof(*o));
	if ((rc = resolve(path, o->path, sizeof(o->path), err, n)))
		return rc;
	if (!stat(o->path, &st) && !S_ISREG(st.st_mode)) {
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
	if (!(o->f = uct_file_create(o->path, o->tmp, sizeof(o->tmp), err, n))) {
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
