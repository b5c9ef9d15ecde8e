/*
 * uct_file.h - output files that never destroy and never lie: a regular
 * file (or a new one) appears only complete, written beside it and renamed
 * over it with the mode, owner and group of the file it replaces (one with
 * other hard links is refused); a symbolic link is written through to its
 * target and stays a link, unless the kernel's protected_symlinks rule
 * forbids following it (another user's link in a sticky, world-writable
 * directory: refused); a named descriptor (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N) is written through that descriptor; anything
 * else (a device, a FIFO) is written directly, never replaced.  Every
 * write, flush and close is checked.
 */
#ifndef UCT_FILE_H
#define UCT_FILE_H

#include <stddef.h>
#include <stdio.h>

struct uct_file {
	FILE *f;
	char path[4096];     /* the file written: the link's target for a link */
	char tmp[4200];      /* the temporary beside it, "" when written directly */
};

/* Open path for writing as above; -errno and a message naming path in err
 * on failure. */
int uct_file_open(struct uct_file *o, const char *path, char *err, size_t n);
/* Finish: every buffered byte written and checked, then the rename.  On
 * failure nothing partial is left in place (a direct target keeps what was
 * written); -errno and a message in err. */
int uct_file_commit(struct uct_file *o, char *err, size_t n);
/* Give up: the temporary removed (a direct target keeps what was written). */
void uct_file_abort(struct uct_file *o);

/* Open a new temporary file beside path (name in tmp) with the permissions
 * an ordinary file would get (0666 less the umask); NULL and a message in
 * err on failure. */
FILE *uct_file_create(const char *path, char *tmp, size_t tmpn, char *err, size_t n);

#endif
