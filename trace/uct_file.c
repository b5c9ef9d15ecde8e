/*
 * uct_file.c - temporary files beside their target, for write-then-rename.
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
