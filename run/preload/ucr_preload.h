/*
 * ucr_preload.h - what the files of the preload library (libuncore-run.so)
 * share.  Each file interposes one kind of thing:
 *
 *   ucr_preload.c  start-up (the constructor), the settings from the
 *                  environment, messages
 *   ucr_conn.c     the connection to the machine server: one per thread,
 *                  requests and answers, sleeping on the machine's clock,
 *                  fork
 *   ucr_path.c     paths: the machine's tree in place of /proc, /sys and
 *                  /dev, the working directory, the calls that take a path
 *   ucr_fd.c       descriptors the machine serves: which they are, and the
 *                  calls that take a descriptor (read, write, ioctl, mmap,
 *                  dup, close, fstat) and streams, handed to the part that
 *                  serves the descriptor's kind
 *   ucr_dev.c      the device files of the tree (MSR, msr-safe, PCI
 *                  configuration, /dev/mem): one kind of served descriptor
 *   ucr_time.c     time and clocks
 *   ucr_wait.c     timeouts (select, epoll, timed locks and condition
 *                  variables) and timers (alarm, setitimer, timer_create)
 *                  on the machine's clock
 *   ucr_proc.c     CPUs and processes: affinity, the number of CPUs,
 *                  waiting for another thread or process, signal handlers,
 *                  dlopen
 *   ucr_perf.c     perf_event_open (glibc's syscall()) and its descriptors,
 *                  served by Linux's uncore driver in the server
 *   ucr_trap.c     CPUID, RDTSC and /dev/mem loads and stores
 *
 * Another kind of thing is another file: its interposers (EXPORT), an
 * init function called from ucr_start() if it needs one, and, for
 * descriptors it serves, a kind in enum ucr_fd_kind with its cases in
 * ucr_fd.c.
 */
#ifndef UCR_PRELOAD_H
#define UCR_PRELOAD_H

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>

#include "ucr_proto.h"

/* Everything declared here is the library's own: only the interposers,
 * marked EXPORT, are seen from outside (C_VISIBILITY_PRESET hidden). */
#pragma GCC visibility push(hidden)

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

/* The real function behind an interposed one. */
#define REAL(fn) \
	static __typeof__(fn) *real_##fn; \
	if (!real_##fn) \
		real_##fn = (__typeof__(fn) *)dlsym(RTLD_NEXT, #fn)

static inline ssize_t ucr_fail(int e)
{
	errno = e;
	return -1;
}

/* ---- ucr_preload.c: settings, messages ---- */

extern int ucr_on;                 /* UNCORE_RUN_SOCK was set, and the library started */
extern int ucr_started;            /* ucr_start() has begun */
void ucr_start(void);
/* Whether the library serves the machine, starting it first if need be:
 * other libraries' constructors run before ours (ld.so initializes a
 * program's libraries before the preloaded one), and libnuma's reads
 * /sys and /proc there (issue #32).  While it starts, the interposed calls
 * it makes itself pass through. */
#define ucr_active (__builtin_expect(ucr_started, 1) ? ucr_on : (ucr_start(), ucr_on))
extern int ucr_wall_clock;         /* UNCORE_RUN_CLOCK=wall */
extern unsigned ucr_ncpu;          /* the machine's logical cpus */
extern char ucr_root[PATH_MAX];    /* the machine's tree */
extern size_t ucr_root_len;

/* Messages to the tool's stderr: ucr_log only with UNCORE_RUN_LOG set;
 * ucr_die ends the process (the machine cannot go on). */
void ucr_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ucr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A message to the tool's stderr, always (what the library refused). */
void ucr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- ucr_conn.c: the connection to the server ---- */

/* The server's socket: shorter than this (sockaddr_un's sun_path). */
#define UCR_SOCK_MAX 108
/* Connects at the first request of each thread to the server at sock. */
void ucr_conn_init(const char *sock);
/* A request and its answer, on the calling thread's connection; q->cpu,
 * pid and tid are filled in.  r->rc: 0 or a negative errno (message in
 * ucr_last_error()); errno is kept. */
int ucr_call(struct ucr_req *q, struct ucr_rsp *r);
int ucr_request(unsigned op, uint64_t a, uint64_t b, uint64_t c, struct ucr_rsp *r);
/* A request with a payload of npayload bytes after its header, and an
 * answer that may carry data (*ndata bytes after its header). */
int ucr_call_data(struct ucr_req_data *q, size_t npayload, struct ucr_rsp_data *r, size_t *ndata);
int ucr_cpuid(uint32_t leaf, uint32_t sub, uint64_t r[4]);
int ucr_tsc(uint64_t *tsc, uint64_t *aux);
int ucr_mmio_read(uint64_t pa, unsigned width, uint64_t *v);
int ucr_mmio_write(uint64_t pa, unsigned width, uint64_t v);
const char *ucr_last_error(void);
/* Sleep ns on the machine's clock; the nanoseconds left (0, or more when
 * a signal ended the sleep). */
uint64_t ucr_sleep(uint64_t ns);
/* poll(2) with a timeout of ns on the machine's clock. */
struct pollfd;
int ucr_sleep_poll(uint64_t ns, struct pollfd *fds, unsigned long n);
/* A wait the host's kernel does with a timeout on the machine's clock,
 * in slices (ucr_wait.c): begin (-1: wait on the host's clock instead),
 * look whether the deadline has come, end (due: it came). */
int ucr_timed_begin(uint64_t ns);
int ucr_timed_due(void);
void ucr_timed_end(int due);
void ucr_timed_cancelled(void *unused);
/* The program closes fd: 1 when it is another thread's connection (kept
 * open, the close is a no-op), 0 otherwise (this thread's own is
 * forgotten: the next request dials again). */
int ucr_conn_closing(int fd);
/* The program is about to put another file at fd (dup2, dup3): a
 * connection of the library there moves to another descriptor first (its
 * thread uses the new one).  -1 (errno) if it cannot move. */
int ucr_conn_protect(int fd);
/* The lowest descriptor >= from that is a connection of the library, or
 * -1: close_range and closefrom close around them. */
int ucr_conn_next_ours(int from);
/* close_range(2) around the library's connections (ucr_fd.c) */
long ucr_close_range(unsigned first, unsigned last, int flags);

/* ---- ucr_time.c: clocks ---- */

/* c is a clock the machine serves (CLOCK_REALTIME, MONOTONIC, ...: not the
 * CPU-time clocks, not with UNCORE_RUN_CLOCK=wall); its time now, ns. */
int ucr_sim_clock(clockid_t c);
uint64_t ucr_sim_ns(clockid_t c);

/* ---- ucr_path.c: paths ---- */

void ucr_path_init(void);
/* p (absolute) is in the machine's tree on the host */
int ucr_in_root(const char *p);

/* ---- ucr_fd.c: descriptors the machine serves ---- */

enum ucr_fd_kind {
	UCR_FD_NONE,    /* the program's own, not served */
	UCR_FD_MSR,     /* ucr_dev.c: /dev/cpu/N/msr, msr-safe's msr_safe */
	UCR_FD_BATCH,   /* ucr_dev.c: msr-safe's msr_batch */
	UCR_FD_PCI,     /* ucr_dev.c: PCI configuration (sysfs, /proc/bus/pci) */
	UCR_FD_MEM,     /* ucr_dev.c: /dev/mem */
	UCR_FD_PERF,    /* ucr_perf.c: a perf_event_open descriptor */
};

/* What a served descriptor is. */
struct ucr_fd {
	uint8_t kind;     /* enum ucr_fd_kind */
	unsigned cpu;     /* UCR_FD_MSR */
	uint64_t pci;     /* UCR_FD_PCI: UCR_PCI_ADDR */
	uint8_t safe;     /* UCR_FD_MSR: msr-safe's msr_safe */
	int handle;       /* UCR_FD_PERF: the server's event */
	int owner;        /* UCR_FD_PERF: the process that opened it */
};

void ucr_fd_init(void);
/* The served descriptor fd, NULL: not one. */
struct ucr_fd *ucr_fd_of(int fd);
/* The table's entry for fd, served or not (NULL: out of range), for a part
 * that marks a descriptor its call returned. */
struct ucr_fd *ucr_fd_slot(int fd);
/* fd was opened at path (NULL or outside the tree: not served); fd. */
int ucr_fd_track(int fd, const char *path);
/* A device file of the tree (path: on the host) opened as a stream. */
FILE *ucr_fd_stream(const char *path, const struct ucr_fd *l, const char *mode);
/* glibc's syscall() for a served descriptor's calls; *handled 0: not one */
long ucr_fd_syscall(long nr, const long *a, int *handled);

/* ---- ucr_dev.c: the device files of the tree ---- */

/* What a path of the tree is (relative to the root). */
struct ucr_fd ucr_dev_classify(const char *p);
/* ---- ucr_exec.c: new images keep the machine ---- */

/* what the library needs of the environment, saved for execve and friends */
void ucr_exec_init(void);

/* ---- ucr_gen.c: files made when opened (/proc/stat) ---- */

/* rel: a path in the tree below ROOT ("/proc/stat"); 0: not a made file */
int ucr_gen_kind(const char *rel);
/* a descriptor of the file as of now (open's flags: O_CLOEXEC; only
 * reading), or -1 with errno */
int ucr_gen_open(int kind, int flags);
/* an absolute path of a file that is made: the process's own status and
 * cgroup, another process's status */
int ucr_gen_path(const char *path);
/* glibc's syscall() for the path calls ucr_path.c serves; *handled 0: not one */
long ucr_path_syscall(long nr, const long *a, int *handled);
/* The character device l shows as to stat; 0: not one. */
int ucr_dev_num(const struct ucr_fd *l, unsigned *major, unsigned *minor);
/* read/write of count bytes at off, as the kernel's driver would. */
ssize_t ucr_dev_rw(const struct ucr_fd *l, void *buf, size_t count, off_t off, int write);
int ucr_dev_ioctl(const struct ucr_fd *l, unsigned long request, void *arg);
void *ucr_dev_mmap(const struct ucr_fd *l, size_t len, int flags, off_t off);

/* stat of a device file: the kernel's character device (st: struct stat
 * or stat64). */
#define UCR_AS_DEVICE(st, l) \
	do { \
		unsigned ma_, mi_; \
		if (ucr_dev_num((l), &ma_, &mi_)) { \
			(st)->st_mode = S_IFCHR | ((st)->st_mode & 07777); \
			(st)->st_rdev = makedev(ma_, mi_); \
			(st)->st_size = 0; \
			(st)->st_blocks = 0; \
		} \
	} while (0)

/* ---- ucr_perf.c: perf_event_open ---- */

/* A descriptor a process was started with that is a perf event (its
 * memfd's name says which): 1 and *l filled in. */
int ucr_perf_classify(const char *link, struct ucr_fd *l);
ssize_t ucr_perf_read(const struct ucr_fd *l, void *buf, size_t n);
int ucr_perf_ioctl(const struct ucr_fd *l, unsigned long request, void *arg);
/* fd, a perf event's descriptor, closes: the event ends when the process
 * that opened it closes its last descriptor of it */
void ucr_perf_close(int fd, const struct ucr_fd *l);

/* ---- ucr_proc.c: CPUs and processes ---- */

/* The machine cpu a thread is on: the one it bound itself to (-1: none)
 * or else the process's.  Every request carries it. */
extern TLS int ucr_t_vcpu;
extern TLS uint64_t ucr_t_mask;
uint64_t ucr_thread_mask(void);
void ucr_proc_exec_mask(uint64_t m);
void ucr_proc_after_fork(void);
/* glibc's syscall() for the calls ucr_proc.c serves; *handled 0: not one */
long ucr_proc_syscall(long nr, const long *a, int *handled);
extern int ucr_g_vcpu;
extern TLS int ucr_t_target;
extern TLS int ucr_t_creator;
/* this thread waits in the host's kernel (1) or runs again (0): the server
 * lets machine time run, and its task is off its cpu (ucr_proc.c) */
void ucr_blocked(int on);

/* The host's sleep with the wall clock: the server is told the thread
 * waits, so that its task does not run meanwhile (the
 * UNCORE_RUN_CLOCK=wall paths of every timed wait). */
#define WALL_SLEEP(call)                                                         \
	do {                                                                     \
		int rv_, e_;                                                     \
		ucr_blocked(1);                                                  \
		rv_ = (call);                                                    \
		e_ = errno;                                                      \
		ucr_blocked(0);                                                  \
		errno = e_;                                                      \
		return rv_;                                                      \
	} while (0)

int ucr_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* ---- ucr_trap.c: instruction traps ---- */

void ucr_trap_init(void);
/* Rewrite the objects loaded since the last scan (after dlopen). */
void ucr_trap_scan(void);
/* /dev/mem mappings: an inaccessible range whose accesses the SIGSEGV
 * handler serves from the machine at physical address pa. */
void *ucr_trap_map(size_t len, uint64_t pa);
int ucr_trap_unmap(void *p, size_t len);
/* 0: handled (the machine's handler stays); 1: not SIGILL/SIGSEGV. */
int ucr_trap_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
/* The program's signal mask without SIGILL and SIGSEGV (the traps' own
 * signals: blocked, the next CPUID would kill it), what it asked for
 * kept and shown in *old: sigprocmask and pthread_sigmask through real,
 * and the rt_sigprocmask system call through syscall() (ucr_perf.c). */
int ucr_trap_sigmask(int how, const sigset_t *set, sigset_t *old,
		     int (*real)(int, const sigset_t *, sigset_t *));
long ucr_trap_rt_sigprocmask(int how, const void *set, void *old, size_t size);
/* this thread's "blocked" trap signals, for a new thread to inherit */
unsigned ucr_trap_wanted(void);
void ucr_trap_wanted_set(unsigned w);
/* act with SIGILL and SIGSEGV out of its sa_mask, in *buf */
const struct sigaction *ucr_trap_handler_mask(const struct sigaction *act, struct sigaction *buf);

#pragma GCC visibility pop

#endif
