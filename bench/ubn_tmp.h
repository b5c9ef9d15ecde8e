/*
 * ubn_tmp.h - the benchmark programs' scratch files, in a private
 * directory of their own (ubn_tmp.c): never a predictable name in a
 * shared directory such as /tmp, which another user could plant.
 */
#ifndef UBN_TMP_H
#define UBN_TMP_H

#include <stddef.h>

/* out = a new directory, mode 0700, under $TMPDIR (else /tmp), named for
 * prog, + "/" + name; the directory and that file are removed at exit.
 * Exits with a message on failure. */
void ubn_tmp_path(const char *prog, const char *name, char *out, size_t n);

#endif
