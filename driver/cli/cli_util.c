/*
 * cli_util.c - what every command of `uncore` uses: error messages, the
 * signals that stop a command (and what it says then), output that
 * appears only complete, and --event-file's report.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "ucb.h"

static const char *prog = "uncore";

int cli_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* ---- output that appears only complete ---- */

/* Whether standard output is a pipe or socket whose reader has gone
 * (`uncore regs | head`): then a failed write is what a pipeline expects,
 * and the command ends silently with the status of SIGPIPE (which it
 * ignores, so as to restore the hardware first). */
int stdout_reader_gone(void)
{
	struct stat st;
	struct pollfd p = { 1, POLLOUT, 0 };

	if (fstat(1, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int out_open(struct out *o, const char *path)
{
	char err[512];

	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	if (uct_file_open(&o->uf, path, err, sizeof(err)))
		return cli_fail(1, "-o %s", err);
	o->f = o->uf.f;
	return 0;
}

int out_close(struct out *o, int ok)
{
	char err[512];
	int rc;

	if (!o->path) {
		/* short writes leave the error flag set even when nothing is left
		 * to flush (a closed pipe, a full disk) */
		errno = 0;
		if ((fflush(stdout) || ferror(stdout)) && ok) {
			if (stdout_reader_gone())
				return 128 + SIGPIPE;
			return cli_fail(1, "writing output: %s", strerror(errno ? errno : EIO));
		}
		return 0;
	}
	if (!ok) {
		uct_file_abort(&o->uf);
		return 0;
	}
	if ((rc = uct_file_commit(&o->uf, err, sizeof(err)))) {
		/* -o /dev/stdout | head: the reader went away, as for stdout */
		if (rc == -EPIPE)
			return 128 + SIGPIPE;
		return cli_fail(1, "-o %s", err);
	}
	return 0;
}

/* ---- signals ---- */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_xfsz(int sig)
{
	(void)sig;
}

int cli_interrupted(void)
{
	return got_signal;
}

const volatile sig_atomic_t *cli_stop_flag(void)
{
	return &got_signal;
}

const char *cli_signame(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

int cli_signal_exit(const char *cmd, const char *what)
{
	fprintf(stderr, "%s: %s interrupted by %s: %s\n", prog, cmd, cli_signame(got_signal), what);
	return 128 + got_signal;
}

/* SIGINT, SIGTERM and SIGHUP end a wait early (no SA_RESTART), so the
 * driver stops, restores every register it wrote, and the command exits. */
void cli_catch_signals(void)
{
	struct sigaction sa;

	ucb_stop_on(&got_signal);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed pipe (uncore stat | head) must not kill the process before
	 * it restores the hardware: the write fails instead, and is reported */
	signal(SIGPIPE, SIG_IGN);
	/* nor a file size limit before it removes its temporary file: the
	 * write fails with EFBIG.  A handler, not SIG_IGN, which a program
	 * `uncore run` starts would inherit across exec */
	sa.sa_handler = on_xfsz;
	sigaction(SIGXFSZ, &sa, NULL);
}

/* ---- --event-file ---- */

/* s with its control characters as \xNN, so that a name from a file
 * cannot move the terminal's cursor or end the report's line */
static void put_visible(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '\\')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

int cli_event_file(const char *path, const struct ucm_platform *p, struct ucd_evfile **out)
{
	char err[512];
	size_t nk = 0, nl = 0, nr = 0, n;
	int rc = ucd_evfile_load(p, path, out, err, sizeof(err));

	if (rc == -EINTR && cli_interrupted()) {
		fprintf(stderr, "%s: --event-file: %s by %s\n", prog, err, cli_signame(cli_interrupted()));
		return 128 + cli_interrupted();
	}
	/* malformed or too long: the input is wrong (2); missing, a directory,
	 * unreadable: the run could not read it (1), as docs/usage.md's table */
	if (rc)
		return cli_fail(rc == -EINVAL || rc == -EFBIG ? EXIT_USAGE : 1, "--event-file: %s", err);
	n = ucd_evfile_nentries(*out);
	for (size_t i = 0; i < n; i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(*out, i);

		if (en->status == UCD_EF_REPORTED) {
			fprintf(stderr, "uncore: %s: entry %zu (", path, en->index);
			put_visible(stderr, en->name ? en->name : "no name");
			fprintf(stderr, "): %s\n", en->reason);
			nr++;
		} else {
			*(en->status == UCD_EF_LOADED ? &nl : &nk) += 1;
		}
	}
	fprintf(stderr, "uncore: %s: %zu entries for %s: %zu new events, %zu already in the tables, %zu reported\n",
		path, n, p->name, nl, nk, nr);
	return 0;
}
