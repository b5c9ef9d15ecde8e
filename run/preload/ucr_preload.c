/*
 * ucr_preload.c - libuncore-run.so: makes an unmodified, dynamically linked
 * program see the simulated machine that `uncore run` serves.
 *
 * Loaded with LD_PRELOAD into the program and every process it starts.  It
 * interposes the C library calls through which tools reach a machine:
 *   - paths: /proc/cpuinfo, /sys/devices/system/cpu, /sys/bus/pci, /dev/cpu,
 *     /dev/mem ... (the list the server writes to ROOT/.redirect) open the
 *     machine's tree, which the server generated (ucr_path.c);
 *   - the device files of that tree (MSR, msr-safe and its batch ioctl, PCI
 *     configuration, /dev/mem) are served by the server's model, access by
 *     access, as the kernel would split them (ucr_fd.c, ucr_dev.c);
 *   - time: clock_gettime, gettimeofday, time, sleep, usleep, nanosleep and
 *     clock_nanosleep follow the machine's clock (ucr_time.c);
 *   - the logical CPU a thread runs on (sched_setaffinity and friends) and
 *     the number of CPUs (ucr_proc.c).
 * CPUID, RDTSC and /dev/mem loads are trapped in ucr_trap.c; every file
 * reaches the server through ucr_conn.c.  This file starts the library:
 * the settings from the environment, each part's start in order, and the
 * messages.  Without UNCORE_RUN_SOCK in the environment the library does
 * nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ucr_preload.h"

int ucr_on;                        /* UNCORE_RUN_SOCK was set, started */
int ucr_started;
int ucr_wall_clock;                /* UNCORE_RUN_CLOCK=wall */
unsigned ucr_ncpu = 1;
char ucr_root[PATH_MAX];
size_t ucr_root_len;
static int verbose;

/* ---- messages ---- */

static void vsay(const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "uncore run [%d]: ", (int)getpid());

	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (n >= (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;
}

void ucr_log(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void ucr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

_Noreturn void ucr_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	_exit(125);
}

/* ---- start ---- */

static int constructed;             /* our constructor has run */

/* From our constructor, or from the first interposed call that comes before
 * it (another library's constructor); once. */
void ucr_start(void)
{
	const char *s, *r, *c;
	struct ucr_rsp rsp;

	if (ucr_started)
		return;
	ucr_started = 1;
	s = getenv(UCR_ENV_SOCK);
	r = getenv(UCR_ENV_ROOT);
	c = getenv(UCR_ENV_CLOCK);
	if (!s || !*s) {
		/* before our constructor, getenv may not see the environment
		 * yet (gcc's ASan runtime calls setrlimit from its own
		 * initializer, and getenv then finds nothing): not final, the
		 * constructor looks again */
		if (!constructed)
			ucr_started = 0;
		return;
	}
	if (!r || strlen(s) >= UCR_SOCK_MAX || strlen(r) >= sizeof(ucr_root) - 64)
		ucr_die("%s and %s must name the server's socket and tree", UCR_ENV_SOCK, UCR_ENV_ROOT);
	verbose = getenv(UCR_ENV_LOG) != NULL;
	ucr_wall_clock = c && !strcmp(c, "wall");
	snprintf(ucr_root, sizeof(ucr_root), "%s", r);
	ucr_root_len = strlen(ucr_root);
	ucr_fd_init();          /* descriptors: the table, those inherited */
	ucr_path_init();        /* the tree's paths, the working directory */
	ucr_conn_init(s);       /* the server: fork, each thread's connection */
	ucr_exec_init();        /* the environment new images need */
	ucr_on = 1;
	/* a new image: after exec (the server enables the per-task events
	 * that wait for it); the parent process is where a process that was
	 * spawned without fork's handlers (vfork) comes from */
	if (ucr_request(UCR_HELLO, (uint64_t)getpid(), (uint64_t)getppid(), 1, &rsp))
		ucr_die("the machine server refused: %s", ucr_last_error());
	ucr_ncpu = (unsigned)rsp.v[0];
	ucr_proc_exec_mask(rsp.v[2]);
	ucr_trap_init();
}

__attribute__((constructor(101))) static void ucr_constructor(void)
{
	constructed = 1;
	ucr_start();
}
