/*
 * cli_progress.h - the progress line of a long command (cli_progress.c):
 * begin, then ask whether a line is due and draw it; end finishes a drawn
 * line.
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

void cli_progress_begin(void);
int cli_progress_due(void);
void cli_progress_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_progress_drawn(void);
void cli_progress_end(void);

#endif
