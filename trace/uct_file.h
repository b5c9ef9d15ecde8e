/*
 * uct_file.h - output files that appear only complete: written to a
 * temporary file beside the target, then renamed over it.
 */
#ifndef UCT_FILE_H
#define UCT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Open a new temporary file beside path (name in tmp) with the permissions
 * an ordinary file would get (0666 less the umask); NULL and a message in
 * err on failure. */
FILE *uct_file_create(const char *path, char *tmp, size_t tmpn, char *err, size_t n);

#endif
