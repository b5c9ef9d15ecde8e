/*
 * ucr_gen.c - files of the machine made when they are opened, in the
 * preload library (libuncore-run.so): /proc/stat, whose counts move with
 * the machine's clocks.  The tree holds an empty file of the name (so
 * that stat and access find it); opening it for reading returns a memfd
 * with the file as the machine's kernel would write it at that moment.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"

#define USER_HZ 100 /* the unit of /proc/stat's times (Documentation/filesystems/proc.rst) */

static int msr(unsigned cpu, uint32_t addr, uint64_t *v)
{
	struct ucr_req q = { UCR_MSR_RD, 0, addr, 0, 0, 0, 0, 0, 0 };
	struct ucr_rsp r;
	int saved = ucr_t_target, rc;

	ucr_t_target = (int)cpu;
	rc = ucr_call(&q, &r);
	ucr_t_target = saved;
	*v = r.v[0];
	return rc;
}

/* /proc/stat.  A cpu's time since power-on is its TSC; the part of it in C0
 * is its MPERF (both count at the TSC's rate, the base ratio of
 * MSR_PLATFORM_INFO 15:8 x 100 MHz on these parts): C0 time is shown as
 * user time, the rest as idle, in USER_HZ ticks.  btime is the machine's
 * wall clock less its time since power-on.  The machine's kernel counts no
 * interrupts, context switches or forks of its own (intr, ctxt,
 * processes 0); the program runs (procs_running 1). */
static int proc_stat(FILE *f)
{
	uint64_t info, hz, tot_busy = 0, tot_idle = 0, *busy, *idle, tsc0 = 0;
	struct timespec now;

	if (msr(0, 0xCE, &info) || !(hz = ((info >> 8) & 0xFF) * 100000000ull))
		return -EIO;
	busy = calloc(ucr_ncpu, sizeof(*busy));
	idle = calloc(ucr_ncpu, sizeof(*idle));
	if (!busy || !idle) {
		free(busy);
		free(idle);
		return -ENOMEM;
	}
	for (unsigned c = 0; c < ucr_ncpu; c++) {
		uint64_t tsc, mperf;

		if (msr(c, 0x10, &tsc) || msr(c, 0xE7, &mperf)) {
			free(busy);
			free(idle);
			return -EIO;
		}
		if (!c)
			tsc0 = tsc;
		if (mperf > tsc)
			mperf = tsc;
		busy[c] = (uint64_t)((unsigned __int128)mperf * USER_HZ / hz);
		idle[c] = (uint64_t)((unsigned __int128)tsc * USER_HZ / hz) - busy[c];
		tot_busy += busy[c];
		tot_idle += idle[c];
	}
	fprintf(f, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", (unsigned long long)tot_busy, (unsigned long long)tot_idle);
	for (unsigned c = 0; c < ucr_ncpu; c++)
		fprintf(f, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", c, (unsigned long long)busy[c],
			(unsigned long long)idle[c]);
	free(busy);
	free(idle);
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "intr 0\nctxt 0\nbtime %lld\nprocesses 0\nprocs_running 1\nprocs_blocked 0\n"
		   "softirq 0 0 0 0 0 0 0 0 0 0 0\n",
		(long long)now.tv_sec - (long long)(tsc0 / hz));
	return 0;
}

static const struct {
	const char *name, *memfd; /* in the tree; of the memfd */
	int (*make)(FILE *f);
} gens[] = {
	{ "/proc/stat", "proc-stat", proc_stat },
};

int ucr_gen_kind(const char *rel)
{
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(rel, gens[i].name))
			return (int)i + 1;
	return 0;
}

int ucr_gen_open(int kind, int flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int fd, rc;

	/* read-only, as the kernel's file is (0444, no write operation) */
	if ((flags & O_ACCMODE) != O_RDONLY)
		return (int)ucr_fail(EACCES);
	if (!(f = open_memstream(&text, &len)))
		return -1;
	rc = gens[kind - 1].make(f);
	fclose(f);
	if (rc || !text) {
		free(text);
		return (int)ucr_fail(rc ? -rc : ENOMEM);
	}
	fd = memfd_create(gens[kind - 1].memfd, flags & O_CLOEXEC ? MFD_CLOEXEC : 0);
	if (fd >= 0 && (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET))) {
		close(fd);
		fd = (int)ucr_fail(EIO);
	}
	free(text);
	return fd;
}
