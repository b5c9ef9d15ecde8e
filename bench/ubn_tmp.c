/*
 * ubn_tmp.c - the benchmark programs' scratch files (ubn_tmp.h): mkdtemp
 * makes a directory only this process knows the name of, so the files in
 * it cannot have been planted (a link to a file of the user running it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubn_tmp.h"

static char dir[4096], file[4200];

static void cleanup(void)
{
	if (file[0])
		unlink(file);
	if (dir[0])
		rmdir(dir);
}

void ubn_tmp_path(const char *prog, const char *name, char *out, size_t n)
{
	const char *t = getenv("TMPDIR");

	if (!dir[0]) {
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%s-XXXXXX", t && *t ? t : "/tmp", prog) >=
			    sizeof(dir) ||
		    !mkdtemp(dir)) {
			fprintf(stderr, "%s: cannot make a private directory %s: %s\n", prog, dir,
				strerror(errno));
			exit(1);
		}
		atexit(cleanup);
	}
	if ((size_t)snprintf(file, sizeof(file), "%s/%s", dir, name) >= sizeof(file) ||
	    (size_t)snprintf(out, n, "%s", file) >= n) {
		fprintf(stderr, "%s: %s/%s: path too long\n", prog, dir, name);
		exit(1);
	}
}
