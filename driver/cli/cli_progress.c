/*
 * cli_progress.c - the progress line of a long command: on standard error,
 * only when it is a terminal, and only once the command has run longer
 * than UNCORE_PROGRESS_AFTER seconds (default 2), redrawn at most five
 * times a second and finished with a newline.  Redirected output never
 * gets one.  The callers ask whether a line is due (cheap: a clock read)
 * before they work out what it says.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_progress.h"

#define REDRAW_NS 200000000ull

static struct {
	int on, drawn;
	uint64_t t0, last, after;
} pg;

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cli_progress_begin(void)
{
	const char *e = getenv("UNCORE_PROGRESS_AFTER");
	double after = 2;

	memset(&pg, 0, sizeof(pg));
	if (!isatty(2))
		return;
	if (e && *e) {
		char *end;
		double x = strtod(e, &end);

		/* a value that is not a number of seconds keeps the default */
		if (end != e && !*end && x >= 0 && x <= 1e6)
			after = x;
	}
	pg.on = 1;
	pg.after = (uint64_t)(after * 1e9);
	pg.t0 = wall_ns();
}

int cli_progress_due(void)
{
	uint64_t now;

	if (!pg.on)
		return 0;
	now = wall_ns();
	return now - pg.t0 >= pg.after && (!pg.drawn || now - pg.last >= REDRAW_NS);
}

void cli_progress_line(const char *fmt, ...)
{
	va_list ap;

	if (!pg.on)
		return;
	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr); /* the rest of a longer line before */
	fflush(stderr);
	pg.drawn = 1;
	pg.last = wall_ns();
}

int cli_progress_drawn(void)
{
	return pg.drawn;
}

void cli_progress_end(void)
{
	if (pg.on && pg.drawn)
		fputc('\n', stderr);
	memset(&pg, 0, sizeof(pg));
}
