/*
 * ucr_perf.c - perf_event_open(2) on the simulated machine, in the preload
 * library (libuncore-run.so).  glibc has no wrapper for it: perf, libpfm4
 * (PAPI) and PCM call glibc's syscall(), which is interposed here; the
 * request goes to the server, where Linux's uncore driver and the layer's
 * perf core answer it (run/ucr_kernel.c, docs/linux-driver.md).  Nothing
 * reaches the host's perf.
 *
 * An event's descriptor is a memfd named "uncore-perf:<handle>", so that
 * it is a real descriptor (dup, fork, poll, CLOEXEC behave) and a process
 * that inherits it across exec knows it again by its name (ucr_fd.c).
 * read and ioctl of it go to the server; close ends the event when the
 * process that opened it closes its last descriptor of it.
 */
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ucr_preload.h"

#define MEMFD_PREFIX "/memfd:uncore-perf:"

int ucr_perf_classify(const char *link, struct ucr_fd *l)
{
	char *end;
	long h;

	if (strncmp(link, MEMFD_PREFIX, strlen(MEMFD_PREFIX)))
		return 0;
	h = strtol(link + strlen(MEMFD_PREFIX), &end, 10);
	if (h <= 0 || end == link + strlen(MEMFD_PREFIX))
		return 0;
	memset(l, 0, sizeof(*l));
	l->kind = UCR_FD_PERF;
	l->handle = (int)h;
	/* inherited across exec: the opener's, not ours to end */
	l->owner = -1;
	return 1;
}

static long perf_open(struct perf_event_attr *uattr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	struct ucr_req_data q;
	struct ucr_rsp_data r;
	const struct ucr_fd *g = NULL;
	uint32_t size;
	size_t n, got;
	char name[48];
	int fd, rc;

	if (!uattr)
		return ucr_fail(EFAULT);
	memcpy(&size, (const char *)uattr + 4, sizeof(size));
	n = size ? size : PERF_ATTR_SIZE_VER0;
	/* perf_copy_attr: an attribute larger than a page is E2BIG at once,
	 * the size this kernel knows written back */
	if (n > 4096) {
		uattr->size = (uint32_t)sizeof(struct perf_event_attr);
		return ucr_fail(E2BIG);
	}
	if (n > UCR_PERF_ATTR_MAX) {
		/* what this machine's kernel cannot know must be zero */
		for (size_t i = UCR_PERF_ATTR_MAX; i < n; i++)
			if (((const unsigned char *)uattr)[i]) {
				uattr->size = (uint32_t)sizeof(struct perf_event_attr);
				return ucr_fail(E2BIG);
			}
		n = UCR_PERF_ATTR_MAX;
	}
	if (group_fd != -1 && !(flags & PERF_FLAG_FD_NO_GROUP)) {
		g = ucr_fd_of(group_fd);
		if (!g || g->kind != UCR_FD_PERF)
			return ucr_fail(EBADF);
	}
	memset(&q.h, 0, sizeof(q.h));
	q.h.op = UCR_PERF_OPEN;
	q.h.a = (uint64_t)(uint32_t)pid | (uint64_t)(uint32_t)cpu << 32;
	q.h.b = (uint64_t)(int64_t)(g ? g->handle : -1);
	q.h.c = flags;
	memcpy(q.data, uattr, n);
	rc = ucr_call_data(&q, n, &r, &got);
	(void)got;
	if (rc == -E2BIG)
		uattr->size = (uint32_t)r.h.v[1];
	if (rc)
		return ucr_fail(-rc);
	snprintf(name, sizeof(name), "uncore-perf:%llu", (unsigned long long)r.h.v[0]);
	fd = memfd_create(name, flags & PERF_FLAG_FD_CLOEXEC ? MFD_CLOEXEC : 0);
	if (fd < 0) {
		int e = errno;
		struct ucr_rsp c;

		ucr_request(UCR_PERF_CLOSE, r.h.v[0], 0, 0, &c);
		return ucr_fail(e);
	}
	{
		struct ucr_fd *l;

		ucr_fd_track(fd, NULL);
		l = ucr_fd_slot(fd);
		if (l) {
			memset(l, 0, sizeof(*l));
			l->kind = UCR_FD_PERF;
			l->handle = (int)r.h.v[0];
			l->owner = getpid();
		}
	}
	ucr_log("perf_event_open(type %u, config 0x%llx, cpu %d) is fd %d", uattr->type,
		(unsigned long long)uattr->config, cpu, fd);
	return fd;
}

ssize_t ucr_perf_read(const struct ucr_fd *l, void *buf, size_t n)
{
	struct ucr_req_data q;
	struct ucr_rsp_data r;
	size_t got;
	int rc;

	memset(&q.h, 0, sizeof(q.h));
	q.h.op = UCR_PERF_READ;
	q.h.a = (uint64_t)l->handle;
	q.h.b = n;
	rc = ucr_call_data(&q, 0, &r, &got);
	ucr_log("read of perf event %d (%zu bytes): %d, %zu bytes", l->handle, n, rc, got);
	if (rc)
		return ucr_fail(-rc);
	if (got > n || got != r.h.v[0])
		return ucr_fail(EIO);
	memcpy(buf, r.data, got);
	return (ssize_t)got;
}

int ucr_perf_ioctl(const struct ucr_fd *l, unsigned long request, void *arg)
{
	struct ucr_rsp r;
	uint64_t a = (uint64_t)(uintptr_t)arg;
	int rc;

	switch (request) {
	case PERF_EVENT_IOC_SET_OUTPUT: {
		/* arg is a descriptor: -1, or another event's */
		int fd = (int)(intptr_t)arg;
		const struct ucr_fd *o = fd == -1 ? NULL : ucr_fd_of(fd);

		if (fd != -1 && (!o || o->kind != UCR_FD_PERF))
			return (int)ucr_fail(EBADF);
		a = o ? (uint64_t)o->handle : (uint64_t)-1;
		break;
	}
	case PERF_EVENT_IOC_ID:
		if (!arg)
			return (int)ucr_fail(EFAULT);
		break;
	default:
		break;
	}
	rc = ucr_request(UCR_PERF_IOCTL, (uint64_t)l->handle, request, a, &r);
	if (rc)
		return (int)ucr_fail(-rc);
	if (request == PERF_EVENT_IOC_ID)
		memcpy(arg, &r.v[0], sizeof(uint64_t));
	return 0;
}

void ucr_perf_close(int fd, const struct ucr_fd *l)
{
	struct ucr_rsp r;

	if (l->owner != getpid())
		return;
	/* another descriptor of this process for the event keeps it */
	for (int i = 0; i < 65536; i++) {
		const struct ucr_fd *o;

		if (i == fd)
			continue;
		o = ucr_fd_of(i);
		if (o && o->kind == UCR_FD_PERF && o->handle == l->handle)
			return;
	}
	ucr_request(UCR_PERF_CLOSE, (uint64_t)l->handle, 0, 0, &r);
}

/* ---- interposed ---- */

EXPORT long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	REAL(syscall);

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && ucr_active)
		return perf_open((struct perf_event_attr *)a[0], (pid_t)a[1], (int)a[2], (int)a[3],
				 (unsigned long)a[4]);
	if (nr == SYS_close_range && ucr_active)
		return ucr_close_range((unsigned)a[0], (unsigned)a[1], (int)a[2]);
	if (nr == SYS_rt_sigprocmask && ucr_active)
		return ucr_trap_rt_sigprocmask((int)a[0], (const void *)a[1], (void *)a[2], (size_t)a[3]);
	if (ucr_active) {
		int handled;
		long rv = ucr_proc_syscall(nr, a, &handled);

		if (!handled)
			rv = ucr_path_syscall(nr, a, &handled);
		if (!handled)
			rv = ucr_fd_syscall(nr, a, &handled);
		if (handled)
			return rv;
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
