/*
 * uct_text.h - the text reader (internal to trace/, not installed;
 * uct_text.c): a text trace's header and segments, a line at a time, each
 * error at its line and column (docs/formats.md).
 */
#ifndef UCT_TEXT_H
#define UCT_TEXT_H

#include "uct_trace.h"

/* The header's lines, up to the first segment's (read, and then kept for
 * uct_text_next): 0, or < 0 with the error in the reader. */
int uct_text_header(struct uct_reader *r);
/* 1: a segment, 0: the end of the trace, < 0: an error (in the reader). */
int uct_text_next(struct uct_reader *r, struct uct_seg *seg);

#endif
