/*
 * ucr_server.c - the machine server of `uncore run`.
 *
 * One process owns the model and answers every access of the program and
 * its descendants over a SOCK_SEQPACKET socket (one connection per thread
 * of theirs, run/ucr_proto.h), so all of them see one machine and one
 * clock.  In simulated time (the default) a sleep of the program runs the
 * model for that long and returns at once; every clock read costs a little
 * machine time so that a program polling a clock still sees it move.  With
 * the wall clock, the model is advanced to the real time elapsed before
 * each access.  The kernel (ucr_kernel.c) is told when each thread runs,
 * sleeps, blocks, execs and ends, for per-task perf events.  At the end
 * (and on SIGUSR1) the ground truth of what the program read is written
 * out.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uct_file.h"
#include "ucr_kernel.h"
#include "ucr_proto.h"
#include "ucr_server.h"
#include "ucr_prog.h"
#include "ucr_timer.h"

/* What a clock read and a TSC read cost in machine time (a vDSO
 * clock_gettime and an RDTSC take about this long). */
#define UCR_CLOCK_COST_PS 25000u
#define UCR_TSC_COST_PS 10000u

/* When machine time may jump to the earliest sleeper's deadline: when
 * every thread connected sleeps, waits for another (waitpid, pthread_join)
 * or is blocked in the kernel (its /proc state is S: a condition variable,
 * a pipe), continuously for SETTLE_MS of real time, no process
 * appeared, forked or went (exec) meanwhile, and no forked child has yet
 * to say hello.  A thread that runs holds the
 * machine's time, as a core would.  Last resort: a thread whose state
 * cannot be read and that says nothing for QUIET_MS does not hold it (the
 * report counts these).  docs/tools.md, "One clock". */
#define SETTLE_MS 5
/* A thread that has run this long without a request while another waits
 * on the clock spins or works on its own (a loop, I/O): machine time runs
 * with it from then on, as fast as real time, so that the waiter's
 * deadline comes.  A tool's computation between its requests is shorter,
 * and takes no machine time: its intervals stay exact. */
#define SPIN_MS 200
#define EVENT_SETTLE_MS 20
#define QUIET_MS 1000
#define EXEC_MS 2000          /* longest a process may go unconnected (exec) */
#define MAXPEND 64
#define MAXAFF 256

#define MAXUNSERVED 64
#define MAXFAULTS 16

/* The end of the machine's clock: picoseconds in 64 bits (213 days); a
 * wait past it stops the run with an error (docs/tools.md). */
#define UCR_TIME_END_PS (UINT64_MAX - UINT64_MAX % 1000000000000ull)

struct unserved {
	unsigned space;   /* UCM_MSR, UCM_MMIO */
	uint64_t addr;
	int write;
	uint64_t count;
};

struct conn {
	int asleep;
	int blocked;          /* waiting for another thread or process */
	uint64_t deadline_ps;
	int pid, tid;         /* the thread on the other end */
	unsigned vcpu;        /* the cpu it is on */
	int idle;             /* it waited in the host's kernel while machine
				 time jumped: not running until it asks again */
	uint64_t seen_ns;     /* real time of its last request (or connect) */
};

/* Whether a process has ended (a zombie, or gone). */
static int zombie(int pid)
{
	char p[64], buf[256], *r;
	int fd, k;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return 1;
	k = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return 1;
	buf[k] = 0;
	r = strrchr(buf, ')');
	return !r || r[1] != ' ' || r[2] == 'Z' || r[2] == 'X';
}

/* Whether a thread is blocked in the kernel (S: interruptible wait, or
 * stopped); -1 if its state cannot be read.  D is not: an uninterruptible
 * wait (a page read from disk, a vfork) ends on its own, with the thread
 * running on. */
static int thread_waits(int pid, int tid)
{
	char p[64], buf[256], *r;
	int fd, k;

	if (pid <= 0 || tid <= 0)
		return -1;
	snprintf(p, sizeof(p), "/proc/%d/task/%d/stat", pid, tid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	k = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = 0;
	/* "tid (comm) S ...": comm may hold spaces and parentheses */
	if (!(r = strrchr(buf, ')')) || r[1] != ' ')
		return -1;
	return r[2] == 'S' || r[2] == 'T' || r[2] == 't';
}

struct srv {
	struct ucm_model *m;
	struct ucp_machine *mc;
	struct ucr_kernel *kernel;  /* Linux's uncore driver; NULL: no uncore PMUs */
	const struct ucr_opts *o;
	uint64_t mono_base_ns, real_base_ns, wall_start_ns;
	uint64_t entry_ns, start_ns; /* real time: ucr_run's start; to the first hello */
	uint64_t nreq[UCR_NOPS];
	struct unserved un[MAXUNSERVED];
	unsigned nun;
	uint64_t un_more;
	unsigned nprocs;
	uint64_t last_event_ns, last_req_ns;   /* real time */
	uint64_t quiet_jumps;   /* time advanced past a thread that said nothing */
	uint64_t settle_ns;     /* since when no connected thread runs */
	int quiet_pending;
	/* processes whose last connection closed while they live on: in exec,
	 * about to connect again; they hold time until they do or end */
	struct { int pid; uint64_t since_ns; } pend[MAXPEND];
	unsigned npend;
	/* forks announced (the parent's atfork handler) whose child has not
	 * said hello yet (its atfork handler does at once): they hold time,
	 * as the child runs, for at most EXEC_MS (a fork that failed) */
	struct { int tid; uint64_t since_ns; } fpend[MAXPEND];
	unsigned nfpend;
	/* each process's cpu binding, for its next image (exec keeps it) */
	struct { int pid; uint64_t mask; } aff[MAXAFF];
	unsigned naff;
	char dir[108];
	int interrupted;        /* SIGINT, SIGTERM or SIGHUP passed on to the program */
	uint64_t slice_ps;      /* advance_to's slice of machine time */
	struct ucr_timers *timers; /* the program's alarms and timers */
	/* machine time runs with real time while a thread of the program
	 * runs: the last look (real time, machine time, whether one ran) */
	uint64_t mark_real_ns, mark_ps;
	int mark_running;
	uint64_t ran_ps;        /* machine time run that way, in all */
	struct ucr_prog *prog;  /* the program's accesses to the PMU's registers */
	/* what the server could not do for the program: the run fails
	 * (docs/tools.md, "Hostile programs") */
	struct { int pid, tid; } drop[MAXFAULTS]; /* connections closed: answers not read */
	unsigned ndrop;
	struct { int pid; char path[256]; } unreach[MAXFAULTS]; /* execs refused */
	unsigned nunreach;
	uint64_t refused;       /* connections refused: no descriptor left */
	int reserve_fd;         /* given up to take a connection and refuse it */
	int listen_paused;      /* no descriptor even for that: not listening */
	struct rlimit nofile;   /* the program's descriptor limit (ours is raised) */
	int nofile_raised;
	int fg;                 /* the run is in its terminal's foreground: the
				   program stays in the run's process group */
};

static uint64_t host_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void unserved(struct srv *s, unsigned space, uint64_t addr, int write)
{
	for (unsigned i = 0; i < s->nun; i++)
		if (s->un[i].space == space && s->un[i].addr == addr && s->un[i].write == write) {
			s->un[i].count++;
			return;
		}
	if (s->nun < MAXUNSERVED)
		s->un[s->nun++] = (struct unserved){ space, addr, write, 1 };
	else
		s->un_more++;
}

/* ---- requests ---- */

static void err_msg(struct ucr_rsp *r, int rc, const char *msg)
{
	r->rc = rc;
	snprintf(r->msg, sizeof(r->msg), "%s", msg);
}

/* With the wall clock, the machine's time is the real time since the start:
 * brought there before anything the server does for the program. */
static int wall_sync(struct srv *s)
{
	uint64_t t;

	if (!s->o->wall_clock)
		return 0;
	t = (host_ns(CLOCK_MONOTONIC) - s->wall_start_ns) * 1000u;
	return t > ucm_now_ps(s->m) ? ucm_advance(s->m, t) : 0;
}

static void serve(struct srv *s, const struct ucr_req *q, struct ucr_rsp *r)
{
	struct ucm_model *m = s->m;
	unsigned cpu = q->cpu;
	char why[160];
	int rc;

	memset(r, 0, sizeof(*r));
	if (q->op && q->op < UCR_NOPS)
		s->nreq[q->op]++;
	/* a clock read moves machine time: the kernel's timers due by now run */
	ucr_kernel_tick(s->kernel);
	if ((rc = wall_sync(s)))
		return err_msg(r, rc, ucm_error(m));
	if (cpu >= ucp_ncpu(s->mc) && q->op != UCR_HELLO && q->op != UCR_TIME && q->op != UCR_SLEEP)
		return err_msg(r, -EINVAL, "no such cpu");
	switch (q->op) {
	case UCR_HELLO:
		if (q->c != 2 && !s->nprocs++)
			s->start_ns = host_ns(CLOCK_MONOTONIC) - s->entry_ns;
		/* a new image keeps its process's binding; one spawned without
		 * fork's handlers (vfork, posix_spawn) has its parent's (b) */
		for (int k = 0; k < 2 && q->c == 1 && !r->v[2]; k++)
			for (unsigned i = 0; i < s->naff && i < MAXAFF; i++)
				if (s->aff[i].pid == (int)(k ? q->b : q->a))
					r->v[2] = s->aff[i].mask;
		for (unsigned i = 0; q->b && i < s->nfpend; i++)
			if (s->fpend[i].tid == (int)q->b) {
				s->fpend[i] = s->fpend[--s->nfpend];
				break;
			}
		s->last_event_ns = host_ns(CLOCK_MONOTONIC);
		r->v[0] = ucp_ncpu(s->mc);
		r->v[1] = ucp_tsc_hz(s->mc);
		return;
	case UCR_CPUID: {
		uint32_t x[4];

		ucp_cpuid_of(s->mc, cpu, (uint32_t)q->a, (uint32_t)q->b, x);
		for (int i = 0; i < 4; i++)
			r->v[i] = x[i];
		return;
	}
	case UCR_MSR_RD:
		rc = ucm_msr_read(m, cpu, (uint32_t)q->a, &r->v[0]);
		if (!rc)
			ucr_prog_read(s->prog, UCM_MSR, cpu / ucm_cpus_per_socket(m), q->a, 8);
		if (rc == -EIO) {
			rc = ucp_sysmsr_read(s->mc, cpu, (uint32_t)q->a, ucm_now_ps(m), &r->v[0]);
			if (rc == -ENOENT) {
				unserved(s, UCM_MSR, q->a, 0);
				snprintf(why, sizeof(why), "rdmsr 0x%llx: not implemented on this machine (#GP)",
					 (unsigned long long)q->a);
				return err_msg(r, -EIO, why);
			}
		}
		if (rc)
			err_msg(r, rc, ucm_error(m));
		return;
	case UCR_MSR_WR:
		ucr_prog_before(s->prog, UCM_MSR, cpu / ucm_cpus_per_socket(m), q->a, 8);
		rc = ucm_msr_write(m, cpu, (uint32_t)q->a, q->b);
		if (!rc)
			ucr_prog_after(s->prog, UCM_MSR, cpu / ucm_cpus_per_socket(m), q->a, 8, q->b);
		if (rc == -EIO) {
			why[0] = 0;
			rc = ucp_sysmsr_write(s->mc, cpu, (uint32_t)q->a, ucm_now_ps(m), q->b, why, sizeof(why));
			if (rc == -ENOENT) {
				unserved(s, UCM_MSR, q->a, 1);
				snprintf(why, sizeof(why), "wrmsr 0x%llx: not implemented on this machine (#GP)",
					 (unsigned long long)q->a);
			}
			if (rc)
				return err_msg(r, -EIO, why);
			return;
		}
		if (rc)
			err_msg(r, rc, ucm_error(m));
		return;
	case UCR_PCI_RD:
	case UCR_PCI_WR: {
		unsigned seg = (unsigned)(q->a >> 16), bus = (unsigned)(q->a >> 8 & 0xFF);
		unsigned dev = (unsigned)(q->a >> 3 & 31), fn = (unsigned)(q->a & 7);
		unsigned off = (unsigned)(uint32_t)q->b, w = (unsigned)(q->b >> 32);

		if (q->op == UCR_PCI_RD) {
			rc = ucm_pci_read(m, seg, bus, dev, fn, off, (unsigned)q->c, &r->v[0]);
			for (unsigned k = 0; !rc && !seg && k < ucm_nsockets(m); k++)
				if (ucm_pci_bus(m, k) == bus)
					ucr_prog_read(s->prog, UCM_PCI, k, ucm_pci_key(bus, dev, fn, off), (unsigned)q->c);
		} else {
			/* the socket whose uncore bus it is (segment 0) */
			for (unsigned k = 0; !seg && k < ucm_nsockets(m); k++)
				if (ucm_pci_bus(m, k) == bus)
					ucr_prog_before(s->prog, UCM_PCI, k, ucm_pci_key(bus, dev, fn, off), w);
			rc = ucm_pci_write(m, seg, bus, dev, fn, off, w, q->c);
			for (unsigned k = 0; !rc && !seg && k < ucm_nsockets(m); k++)
				if (ucm_pci_bus(m, k) == bus)
					ucr_prog_after(s->prog, UCM_PCI, k, ucm_pci_key(bus, dev, fn, off), w, q->c);
		}
		if (rc)
			err_msg(r, rc, ucm_error(m));
		return;
	}
	case UCR_MMIO_RD:
	case UCR_MMIO_WR: {
		unsigned sock;
		uint64_t off;
		int in = !ucm_mmio_where(m, q->a, (unsigned)q->c, &sock, &off);

		if (q->op == UCR_MMIO_WR && in)
			ucr_prog_before(s->prog, UCM_MMIO, sock, off, (unsigned)q->c);
		if (q->op == UCR_MMIO_RD)
			rc = ucm_mmio_read(m, q->a, (unsigned)q->c, &r->v[0]);
		else
			rc = ucm_mmio_write(m, q->a, (unsigned)q->c, q->b);
		if (!rc && in && q->op == UCR_MMIO_RD)
			ucr_prog_read(s->prog, UCM_MMIO, sock, off, (unsigned)q->c);
		else if (!rc && in)
			ucr_prog_after(s->prog, UCM_MMIO, sock, off, (unsigned)q->c, q->b);
		if (rc == -ENXIO) {
			/* physical memory the model does not decode: nothing
			 * answers, so a read sees all ones */
			unserved(s, UCM_MMIO, q->a, q->op == UCR_MMIO_WR);
			r->v[0] = ~0ull;
			return;
		}
		if (rc)
			err_msg(r, rc, ucm_error(m));
		return;
	}
	case UCR_TIME: {
		clockid_t c = (clockid_t)q->a;

		if (!s->o->wall_clock && (rc = ucm_run_ps(m, UCR_CLOCK_COST_PS)))
			return err_msg(r, rc, ucm_error(m));
		r->v[0] = ucm_now_ps(m) / 1000u +
			  (c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE || c == CLOCK_TAI ? s->real_base_ns
												: s->mono_base_ns);
		return;
	}
	case UCR_FORK:
		s->last_event_ns = host_ns(CLOCK_MONOTONIC);
		if (s->nfpend < MAXPEND) {
			s->fpend[s->nfpend].tid = q->tid;
			s->fpend[s->nfpend++].since_ns = s->last_event_ns;
		}
		return;
	case UCR_AFFINITY: {
		unsigned i;

		if (q->b == 1) { /* what is process a bound to (0: nothing known) */
			for (i = 0; i < s->naff && i < MAXAFF; i++)
				if (s->aff[i].pid == (int)q->a)
					r->v[0] = s->aff[i].mask;
			return;
		}
		for (i = 0; i < s->naff && i < MAXAFF && s->aff[i].pid != q->pid; i++)
			;
		if (i >= MAXAFF) /* the oldest gives way */
			i = s->naff++ % MAXAFF;
		else if (i == s->naff)
			s->naff++;
		s->aff[i].pid = q->pid;
		s->aff[i].mask = q->a;
		return;
	}
	case UCR_TSC:
		if (!s->o->wall_clock && (rc = ucm_run_ps(m, UCR_TSC_COST_PS)))
			return err_msg(r, rc, ucm_error(m));
		r->v[0] = ucp_tsc(s->mc, ucm_now_ps(m));
		/* RDTSCP's ECX: the cpu's IA32_TSC_AUX, which the machine's
		 * kernel set to node << 12 | cpu (UCM_SYSMSR_KERNEL) */
		if (ucp_sysmsr_read(s->mc, cpu, 0xC0000103, ucm_now_ps(m), &r->v[1]))
			r->v[1] = 0; /* a table without it: every part's has it */
		return;
	case UCR_REPORT:
		return;
	case UCR_TIMER:
		ucr_timers_serve(s->timers, q, ucm_now_ps(m), r);
		return;
	default:
		return err_msg(r, -ENOSYS, "unknown request");
	}
}

/* An answer never blocks the server (a blocked send froze the whole
 * machine, deaf to SIGINT): a thread has at most two answers unread (a
 * sleep's and its wake's), so one whose queue is full (the host's
 * net.unix.max_dgram_qlen, 10) sends requests without reading the
 * answers.  Its connection is closed, it is named on stderr and in the
 * report, and the run fails.  Nonzero: the connection is gone. */
static int answer(struct srv *s, int fd, const struct conn *c, const void *msg, size_t len)
{
	ssize_t k;

	do
		k = send(fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	while (k < 0 && errno == EINTR);
	if (k == (ssize_t)len)
		return 0;
	if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		fprintf(stderr,
			"uncore: error: run: process %d (thread %d) sent requests without reading the answers: "
			"its connection to the machine server is closed\n",
			c->pid, c->tid);
		if (s->ndrop < MAXFAULTS) {
			s->drop[s->ndrop].pid = c->pid;
			s->drop[s->ndrop].tid = c->tid;
		}
		s->ndrop++;
	}
	return 1;
}

/* A process of the program was about to exec a program the library
 * cannot reach (statically linked): the library refused the exec and
 * said so on the program's stderr; the run fails, and the report names it. */
static void unreached(struct srv *s, const struct ucr_req *q, const uint8_t *path, size_t n)
{
	if (s->nunreach < MAXFAULTS) {
		s->unreach[s->nunreach].pid = q->pid;
		snprintf(s->unreach[s->nunreach].path, sizeof(s->unreach[0].path), "%.*s",
			 (int)strnlen((const char *)path, n), (const char *)path);
	}
	s->nunreach++;
}

/* Answer a sleeper: its deadline reached (rc 0) or interrupted (-EINTR,
 * with the nanoseconds left).  Nonzero if the connection is gone. */
static int wake(struct srv *s, int fd, struct conn *c, int rc)
{
	struct ucr_rsp r;
	uint64_t now = ucm_now_ps(s->m);

	memset(&r, 0, sizeof(r));
	r.rc = rc;
	r.v[0] = now / 1000u + s->mono_base_ns;
	r.v[1] = c->deadline_ps > now ? (c->deadline_ps - now) / 1000u : 0;
	c->asleep = 0;
	c->seen_ns = host_ns(CLOCK_MONOTONIC);  /* it runs from here */
	return answer(s, fd, c, &r, sizeof(r));
}

/* What the machine is told of its cpus: a program's thread runs on a cpu
 * (its core is in C0) while it has a connection there and none of its
 * connections sleeps, blocks or idled through a jump of machine time
 * (docs/invariants.md).  Every cpu, since a thread may have moved. */
static void machine_cpus(struct srv *s, const struct conn *cs, size_t npf)
{
	for (size_t i = 2; i < npf; i++) {
		int waits = 0;

		if (cs[i].tid <= 0)
			continue;
		for (size_t j = 2; j < npf && !waits; j++)
			if (cs[j].tid == cs[i].tid && cs[j].pid == cs[i].pid)
				waits = cs[j].asleep || cs[j].blocked || cs[j].idle;
		if (!waits)
			ucp_cpu_runs(s->mc, cs[i].vcpu);
	}
	ucp_cpus_update(s->mc, ucm_now_ps(s->m));
}

/* What the kernel is told of thread tid (docs/linux-driver.md, "Tasks"):
 * it runs on its cpu unless one of its connections sleeps or blocks, or
 * it idled through a jump of machine time; with no connection left, an
 * exec or its end is under way. */
static void sync_task(struct srv *s, const struct conn *cs, size_t npf, int pid, int tid, unsigned cpu)
{
	int n = 0, waits = 0;

	machine_cpus(s, cs, npf);
	if (!s->kernel || tid <= 0)
		return;
	for (size_t i = 2; i < npf; i++) {
		if (cs[i].tid != tid || cs[i].pid != pid)
			continue;
		n++;
		waits |= cs[i].asleep || cs[i].blocked || cs[i].idle;
	}
	ucr_kernel_task_state(s->kernel, pid, tid, n > 0, n > 0 && !waits, cpu);
}

/* ---- the ground-truth report ---- */

static const char *space_name(unsigned sp)
{
	return sp == UCM_MSR ? "msr" : sp == UCM_PCI ? "pci" : "mmio";
}

static int box_of(struct ucm_model *m, const struct ucm_reginfo *ri)
{
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (ucm_box_def(m, (int)b) == ri->box && ucm_box_socket(m, (int)b) == ri->socket)
			return (int)b;
	return -1;
}

/* The machine runs to t while every thread sleeps, in slices of about 2 ms
 * of wall time (the slice learnt as ucb_sim.c does), and stops early when a
 * signal waits on sfd, or, given the server's descriptors (pf: sfd, the
 * listener, the connections), when any is ready: a SIGINT in a long
 * simulated sleep must reach the program now, and a sleeper that a signal
 * from elsewhere woke (its wake request waits) or a new process must be
 * served now, not at the end of the jump.  Slices change nothing the model
 * computes. */
static int advance_to(struct srv *s, uint64_t t, int sfd, struct pollfd *pf, size_t npf)
{
	if (!s->slice_ps)
		s->slice_ps = 1000000;
	while (ucm_now_ps(s->m) < t) {
		struct pollfd p = { sfd, POLLIN, 0 };
		uint64_t step = t - ucm_now_ps(s->m), t0, dt, timer = ucr_kernel_next_ps(s->kernel);
		int rc;

		if (pf ? poll(pf, npf, 0) > 0 : poll(&p, 1, 0) == 1)
			return 0;
		if (step > s->slice_ps)
			step = s->slice_ps;
		/* the kernel's timers fire at their time (its counter polling,
		 * multiplexing) */
		if (timer > ucm_now_ps(s->m) && timer - ucm_now_ps(s->m) < step)
			step = timer - ucm_now_ps(s->m);
		t0 = host_ns(CLOCK_MONOTONIC);
		if ((rc = ucm_advance(s->m, ucm_now_ps(s->m) + step)))
			return rc;
		ucr_kernel_tick(s->kernel);
		dt = host_ns(CLOCK_MONOTONIC) - t0;
		if (step == s->slice_ps && dt < 1000000 && s->slice_ps < (1ull << 60))
			s->slice_ps *= 2;
		else if (dt > 4000000 && s->slice_ps > 1000000)
			s->slice_ps /= 2;
	}
	return 0;
}

/* A thread of the program spun (ran SPIN_MS without a request) from the
 * last look (mark) to now while another waited on the clock: machine time
 * ran with it, as fast as real time, so that a sleeper beside a thread
 * that spins or does I/O wakes at its deadline (issue #34; docs/tools.md,
 * "One clock").  Requests' own costs count towards it: the clock is the
 * later of the two. */
static int run_with_threads(struct srv *s, int sfd)
{
	uint64_t t;

	if (s->o->wall_clock || !s->mark_running)
		return 0;
	t = s->mark_ps + (host_ns(CLOCK_MONOTONIC) - s->mark_real_ns) * 1000u;
	if (t <= ucm_now_ps(s->m))
		return 0;
	s->ran_ps += t - ucm_now_ps(s->m);
	return advance_to(s, t, sfd, NULL, 0);
}

/* Machine time has reached what it has: the timers due send their
 * signals and the sleepers due are answered. */
static void wake_due(struct srv *s, struct pollfd *pf, struct conn *cs, size_t npf)
{
	uint64_t now = ucm_now_ps(s->m);

	ucr_timers_fire(s->timers, now);
	for (size_t i = 2; i < npf; i++)
		if (cs[i].asleep && cs[i].deadline_ps <= now) {
			wake(s, pf[i].fd, &cs[i], 0);
			sync_task(s, cs, npf, cs[i].pid, cs[i].tid, cs[i].vcpu);
		}
}

static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "";
}

static json_t *report_json(struct srv *s)
{
	struct ucm_model *m = s->m;
	json_t *j = json_object(), *ctrs = json_array(), *fed = json_array(), *strict = json_array();
	json_t *un = json_array(), *req = json_object();
	static const char *const ops[UCR_NOPS] = { "", "hello", "cpuid", "msr_read", "msr_write", "pci_read",
						   "pci_write", "mmio_read", "mmio_write", "time", "sleep",
						   "tsc", "report", "wake", "fork", "block", "affinity",
						   "perf_open", "perf_read", "perf_ioctl", "perf_close", "timer", "unreached" };

	json_object_set_new(j, "platform", json_string(ucm_platform_of(m)->name));
	json_object_set_new(j, "sockets", json_integer(ucm_nsockets(m)));
	json_object_set_new(j, "cpus", json_integer(ucp_ncpu(s->mc)));
	json_object_set_new(j, "clock", json_string(s->o->wall_clock ? "wall" : "sim"));
	json_object_set_new(j, "machine_ns", json_integer((json_int_t)(ucm_now_ps(m) / 1000u)));
	json_object_set_new(j, "real_ns", json_integer((json_int_t)(host_ns(CLOCK_MONOTONIC) - s->wall_start_ns)));
	json_object_set_new(j, "start_ns", json_integer((json_int_t)s->start_ns));
	json_object_set_new(j, "processes", json_integer(s->nprocs));
	json_object_set_new(j, "quiet_jumps", json_integer((json_int_t)s->quiet_jumps));
	json_object_set_new(j, "timers_fired", json_integer((json_int_t)ucr_timers_fired(s->timers)));
	json_object_set_new(j, "spin_ns", json_integer((json_int_t)(s->ran_ps / 1000u)));
	if (s->interrupted)
		json_object_set_new(j, "interrupted", json_string(sig_name(s->interrupted)));
	for (unsigned i = 1; i < UCR_NOPS; i++)
		json_object_set_new(req, ops[i], json_integer((json_int_t)s->nreq[i]));
	json_object_set_new(j, "requests", req);
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		struct ucm_truth t;
		char addr[48];
		int b;

		if (ucm_reginfo(m, i, &ri) || ri.kind != UCM_K_CTR || (b = box_of(m, &ri)) < 0 ||
		    ucm_truth(m, b, ri.idx, &t) || !t.reads)
			continue;
		ucr_fmt_addr(addr, sizeof(addr), &ri);
		json_array_append_new(
			ctrs, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
					"register", ri.name, "box", ri.box->type->name, "instance", (json_int_t)ri.box->inst,
					"socket", (json_int_t)ri.socket, "space", space_name(ri.space), "address", addr,
					"width", (json_int_t)ri.width, "reads", (json_int_t)t.reads, "first_value",
					(json_int_t)t.first_value, "last_value", (json_int_t)t.last_value, "first_ns",
					(json_int_t)(t.first_ps / 1000u), "last_ns", (json_int_t)(t.last_ps / 1000u),
					"truth", (json_int_t)(t.last_read - t.first_read), "total", (json_int_t)t.total,
					"wraps", (json_int_t)t.wraps));
		/* what it counted since the program last set it (wrote it, reset
		 * its box), or since power-on, up to the last read: what a tool
		 * that zeroes a counter and reads it once reports */
		json_t *cj = json_array_get(ctrs, json_array_size(ctrs) - 1);

		/* its control register, found in "written" when the program
		 * programmed it */
		json_object_set_new(cj, "control_register", json_string(ucr_prog_control_of(s->prog, i)));
		/* the model's total at each of the program's reads of it */
		{
			json_t *pr = ucr_prog_reads_json(s->prog, i);

			if (pr)
				json_object_set_new(cj, "program_reads", pr);
		}

		json_object_set_new(cj, "since_set", json_integer((json_int_t)t.since_set));
		/* the interval between the last two reads: a sampler's last sample */
		json_object_set_new(cj, "last_interval", json_integer((json_int_t)(t.last_read - t.prev_read)));
		json_object_set_new(cj, "prev_ns", json_integer((json_int_t)(t.prev_ps / 1000u)));
		/* what it had counted at each of Linux's driver's reads of it */
		{
			uint64_t tot[256];
			size_t nr = ucr_kernel_reads(s->kernel, i, tot, 256);

			if (nr) {
				json_t *a = json_array();

				for (size_t r = 0; r < nr; r++)
					json_array_append_new(a, json_integer((json_int_t)tot[r]));
				json_object_set_new(cj, "linux_reads", a);
			}
			static struct ucr_kernel_ctl ctl[4096];
			int more;

			nr = ucr_kernel_controls(s->kernel, i, ctl, 4096, &more);
			if (nr) {
				json_t *a = json_array();
				char hex[24];

				for (size_t r = 0; r < nr; r++) {
					json_t *o;

					snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)ctl[r].value);
					o = json_pack("{s:s, s:I}", "control", hex, "total", (json_int_t)ctl[r].total);
					if (ctl[r].has_read)
						json_object_set_new(o, "read", json_integer((json_int_t)ctl[r].read));
					json_array_append_new(a, o);
				}
				json_object_set_new(cj, "linux_controls", a);
				if (more)
					json_object_set_new(cj, "linux_controls_more", json_true());
			}
		}
	}
	json_object_set_new(j, "counters", ctrs);
	json_object_set_new(j, "written", ucr_prog_json(s->prog));
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);

		for (unsigned k = 0; k < ucm_subev_count(bi->type); k++) {
			uint64_t v = ucm_fed(m, (int)b, k);
			char name[96];

			if (!v)
				continue;
			json_array_append_new(fed, json_pack("{s:s, s:I, s:I, s:s, s:I}", "box", bi->type->name, "instance",
							     (json_int_t)bi->inst, "socket",
							     (json_int_t)ucm_box_socket(m, (int)b), "input",
							     ucm_subev_name(bi->type, k, name, sizeof(name)), "total",
							     (json_int_t)v));
		}
	}
	json_object_set_new(j, "fed", fed);
	for (size_t i = 0; i < ucm_strict_count(m); i++) {
		char line[512];

		/* what Linux's driver programmed is said to be its, not the
		 * program's (docs/linux-driver.md, "Findings about Linux") */
		memcpy(line, "Linux's uncore driver: ", 23);
		ucm_strict_format(m, i, ucr_kernel_made(s->kernel, i) ? line + 23 : line,
				  ucr_kernel_made(s->kernel, i) ? sizeof(line) - 23 : sizeof(line));
		json_array_append_new(strict, json_string(line));
	}
	json_object_set_new(j, "undefined_programming", strict);
	/* the kernel's warnings and errors (levels 0-4: WARN, unchecked MSR
	 * accesses, what the driver says went wrong) are findings too */
	{
		json_t *kw = json_array();
		const char *l = ucr_kernel_log(s->kernel);

		while (*l) {
			const char *e = strchr(l, '\n');
			size_t len = e ? (size_t)(e - l) : strlen(l);

			if (len > 3 && l[0] == '<' && l[1] >= '0' && l[1] <= '4' && l[2] == '>')
				json_array_append_new(kw, json_stringn(l, len));
			l += len + (e != NULL);
		}
		json_object_set_new(j, "linux_warnings", kw);
	}
	for (unsigned i = 0; i < s->nun; i++)
		json_array_append_new(un, json_pack("{s:s, s:s, s:I, s:I}", "space", space_name(s->un[i].space), "access",
						    s->un[i].write ? "write" : "read", "address",
						    (json_int_t)s->un[i].addr, "count", (json_int_t)s->un[i].count));
	json_object_set_new(j, "unserved", un);
	json_object_set_new(j, "unserved_more", json_integer((json_int_t)s->un_more));
	/* what the server could not do for the program (the run fails) */
	{
		json_t *d = json_array(), *u = json_array();

		for (unsigned i = 0; i < s->ndrop && i < MAXFAULTS; i++)
			json_array_append_new(d, json_pack("{s:i, s:i}", "pid", s->drop[i].pid, "tid", s->drop[i].tid));
		for (unsigned i = 0; i < s->nunreach && i < MAXFAULTS; i++)
			json_array_append_new(u, json_pack("{s:i, s:s}", "pid", s->unreach[i].pid, "path",
							   s->unreach[i].path));
		json_object_set_new(j, "dropped_connections", d);
		json_object_set_new(j, "dropped_more", json_integer(s->ndrop > MAXFAULTS ? s->ndrop - MAXFAULTS : 0));
		json_object_set_new(j, "refused_connections", json_integer((json_int_t)s->refused));
		json_object_set_new(j, "unreached", u);
		json_object_set_new(j, "unreached_more",
				    json_integer(s->nunreach > MAXFAULTS ? s->nunreach - MAXFAULTS : 0));
	}
	return j;
}

static void report_text(FILE *f, json_t *j)
{
	size_t i;
	json_t *v;

	fprintf(f, "# uncore run: ground truth of what the program read\n");
	if (json_object_get(j, "interrupted"))
		fprintf(f, "# interrupted by %s (passed on to the program): the counts cover the time until it ended\n",
			json_string_value(json_object_get(j, "interrupted")));
	fprintf(f, "platform %s, %lld sockets, %lld cpus, %s clock\n", json_string_value(json_object_get(j, "platform")),
		json_integer_value(json_object_get(j, "sockets")), json_integer_value(json_object_get(j, "cpus")),
		json_string_value(json_object_get(j, "clock")));
	fprintf(f, "machine time %.9f s, real time %.3f s (the program reached after %.3f s), %lld processes\n",
		(double)json_integer_value(json_object_get(j, "machine_ns")) / 1e9,
		(double)json_integer_value(json_object_get(j, "real_ns")) / 1e9,
		(double)json_integer_value(json_object_get(j, "start_ns")) / 1e9,
		json_integer_value(json_object_get(j, "processes")));
	if (json_integer_value(json_object_get(j, "quiet_jumps")))
		fprintf(f, "machine time ran %lld times while a thread neither slept nor spoke for %d ms\n",
			json_integer_value(json_object_get(j, "quiet_jumps")), QUIET_MS);
	if (json_integer_value(json_object_get(j, "spin_ns")))
		fprintf(f, "machine time ran %.9f s with a thread that spun beside a waiting one\n",
			(double)json_integer_value(json_object_get(j, "spin_ns")) / 1e9);
	if (json_integer_value(json_object_get(j, "timers_fired")))
		fprintf(f, "timers fired: %lld\n", json_integer_value(json_object_get(j, "timers_fired")));
	fprintf(f, "requests:");
	const char *k;
	json_object_foreach(json_object_get(j, "requests"), k, v)
		fprintf(f, " %s %lld", k, json_integer_value(v));
	fprintf(f, "\n\n# counters read: register socket address reads first_value last_value truth since_set\n"
		   "# (truth: counted between the first and the last read; since_set: since the program last\n"
		   "# wrote or reset it, or since power-on, up to the last read)\n");
	json_array_foreach(json_object_get(j, "counters"), i, v) {
		fprintf(f, "%-28s %lld %-18s %8lld %20llu %20llu %20llu %llu\n",
			json_string_value(json_object_get(v, "register")),
			json_integer_value(json_object_get(v, "socket")),
			json_string_value(json_object_get(v, "address")), json_integer_value(json_object_get(v, "reads")),
			(unsigned long long)json_integer_value(json_object_get(v, "first_value")),
			(unsigned long long)json_integer_value(json_object_get(v, "last_value")),
			(unsigned long long)json_integer_value(json_object_get(v, "truth")),
			(unsigned long long)json_integer_value(json_object_get(v, "since_set")));
	}
	fprintf(f, "\n# fed by the workload: box instance socket input total\n");
	json_array_foreach(json_object_get(j, "fed"), i, v)
		fprintf(f, "%-8s %lld %lld %-40s %llu\n", json_string_value(json_object_get(v, "box")),
			json_integer_value(json_object_get(v, "instance")), json_integer_value(json_object_get(v, "socket")),
			json_string_value(json_object_get(v, "input")),
			(unsigned long long)json_integer_value(json_object_get(v, "total")));
	fprintf(f, "\n# undefined programming (the manual's rules the program, or Linux's driver, broke)\n");
	json_array_foreach(json_object_get(j, "undefined_programming"), i, v)
		fprintf(f, "%s\n", json_string_value(v));
	fprintf(f, "\n# Linux's kernel log: warnings and errors\n");
	json_array_foreach(json_object_get(j, "linux_warnings"), i, v)
		fprintf(f, "%s\n", json_string_value(v));
	fprintf(f, "\n# what the machine could not do for the program (the run failed)\n");
	json_array_foreach(json_object_get(j, "dropped_connections"), i, v)
		fprintf(f, "process %lld (thread %lld) sent requests without reading the answers: connection closed\n",
			json_integer_value(json_object_get(v, "pid")), json_integer_value(json_object_get(v, "tid")));
	if (json_integer_value(json_object_get(j, "refused_connections")))
		fprintf(f, "%lld connections refused: the server's descriptors ran out\n",
			json_integer_value(json_object_get(j, "refused_connections")));
	json_array_foreach(json_object_get(j, "unreached"), i, v)
		fprintf(f, "process %lld: exec of %s refused: statically linked, the machine cannot reach it\n",
			json_integer_value(json_object_get(v, "pid")), json_string_value(json_object_get(v, "path")));
	fprintf(f, "\n# accesses no register answers: space access address count\n");
	json_array_foreach(json_object_get(j, "unserved"), i, v)
		fprintf(f, "%s %s 0x%llx %lld\n", json_string_value(json_object_get(v, "space")),
			json_string_value(json_object_get(v, "access")),
			(unsigned long long)json_integer_value(json_object_get(v, "address")),
			json_integer_value(json_object_get(v, "count")));
}

/* A report is whole or absent (uct_file.h: written beside a regular file
 * and renamed, through a link to its target, directly to a device). */
static int write_report(struct srv *s, char *err, size_t n)
{
	const char *paths[2] = { s->o->report, s->o->report_json };
	json_t *j;
	int rc = 0;

	if (!paths[0] && !paths[1])
		return 0;
	j = report_json(s);
	for (int i = 0; i < 2 && !rc; i++) {
		struct uct_file uf;
		char e[1024];

		if (!paths[i])
			continue;
		if ((rc = uct_file_open(&uf, paths[i], e, sizeof(e)))) {
			snprintf(err, n, "%s: %s", i ? "--report-json" : "--report", e);
			break;
		}
		if (i == 0)
			report_text(uf.f, j);
		else if (json_dumpf(j, uf.f, JSON_INDENT(1)) || fputc('\n', uf.f) == EOF)
			rc = -EIO;
		if (rc) {
			uct_file_abort(&uf);
			snprintf(err, n, "%s: %s: %s", i ? "--report-json" : "--report", paths[i], strerror(-rc));
		} else if ((rc = uct_file_commit(&uf, e, sizeof(e)))) {
			snprintf(err, n, "%s: %s", i ? "--report-json" : "--report", e);
		}
	}
	json_decref(j);
	return rc;
}

/* ---- the program ---- */

/* LD_PRELOAD reaches only dynamically linked programs: say so before the
 * program runs unserved. */
static int check_program(const char *prog, char *err, size_t n, int depth)
{
	char path[4096];
	unsigned char h[256];
	ssize_t k;
	int fd;

	if (!strchr(prog, '/')) {
		const char *p = getenv("PATH");
		int found = 0;

		for (p = p ? p : "/usr/bin:/bin"; *p && !found;) {
			size_t l = strcspn(p, ":");

			snprintf(path, sizeof(path), "%.*s/%s", (int)l, p, prog);
			found = !access(path, X_OK);
			p += l + (p[l] == ':');
		}
		if (!found) {
			snprintf(err, n, "%s: not found in PATH", prog);
			return -ENOENT;
		}
	} else {
		snprintf(path, sizeof(path), "%s", prog);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return -errno;
	}
	k = read(fd, h, sizeof(h) - 1);
	if (k >= 2 && h[0] == '#' && h[1] == '!') {
		char interp[256];

		close(fd);
		h[k] = 0;
		if (depth > 2 || sscanf((char *)h + 2, " %255s", interp) != 1) {
			snprintf(err, n, "%s: a script whose interpreter cannot be read", path);
			return -ENOEXEC;
		}
		return check_program(interp, err, n, depth + 1);
	}
	if (k < (ssize_t)sizeof(Elf64_Ehdr) || memcmp(h, ELFMAG, SELFMAG) || h[EI_CLASS] != ELFCLASS64) {
		close(fd);
		snprintf(err, n, "%s: not an x86-64 ELF program or a script", path);
		return -ENOEXEC;
	}
	const Elf64_Ehdr *eh = (const void *)h;
	int interp = 0;

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh->e_phoff + i * (uint64_t)eh->e_phentsize)) != sizeof(ph))
			break;
		if (ph.p_type == PT_INTERP)
			interp = 1;
	}
	close(fd);
	if (!interp) {
		snprintf(err, n,
			 "%s is statically linked: the machine reaches a program through the dynamic loader "
			 "(LD_PRELOAD), which it does not use",
			 path);
		return -ENOEXEC;
	}
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 64)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* Where the run's directory (socket, machine tree) goes: TMPDIR if the
 * user set it, else a directory in memory, XDG_RUNTIME_DIR or /dev/shm, else
 * /tmp.  The machine tree is some 3,000 small files: written to a disk they
 * took 0.5-2 s of every start, to a tmpfs some 20 ms (issue #32,
 * docs/tools.md).  The socket path must fit sun_path (108 bytes). */
static int roomy(const char *dir)
{
	struct statfs fs;

	/* a tree takes up to 10 MiB (E5-2600 v2, two sockets): leave room
	 * for a few runs at once in a container's small /dev/shm */
	return !statfs(dir, &fs) && (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize >= (64u << 20);
}

static const char *run_base(const char *tmpdir)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct statfs fs;
	struct stat st;

	if (tmpdir && tmpdir[0] == '/' && strlen(tmpdir) <= 60)
		return tmpdir;
	if (xdg && xdg[0] == '/' && strlen(xdg) <= 60 && !stat(xdg, &st) && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && !access(xdg, W_OK | X_OK) && roomy(xdg))
		return xdg;
	/* /dev/shm where it is a tmpfs anyone may create in, as /tmp is */
	if (!statfs("/dev/shm", &fs) && fs.f_type == TMPFS_MAGIC && !stat("/dev/shm", &st) &&
	    (st.st_mode & 01777) == 01777 && !access("/dev/shm", W_OK | X_OK) && roomy("/dev/shm"))
		return "/dev/shm";
	return "/tmp";
}

/* ---- start, connections and signals: what no program may break ---- */

/* Trees a run killed with SIGKILL left in base.  A run holds an flock on
 * its directory's "lock" file while it lives, so a lock that can be taken
 * proves the run ended (pid reuse and other pid namespaces cannot fool
 * it).  Only directories of ours, never through a symbolic link, and none
 * without a lock (a run between mkdtemp and its lock, or older versions:
 * nothing proves them dead). */
static void rm_at(int dfd, int depth)
{
	DIR *d;
	struct dirent *e;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 32 &&
		    (sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			rm_at(sub, depth + 1);
			close(sub);
			unlinkat(dfd, e->d_name, AT_REMOVEDIR);
		} else if (!S_ISDIR(st.st_mode)) {
			unlinkat(dfd, e->d_name, 0);
		}
	}
	closedir(d);
}

static void clean_stale(const char *base)
{
	int bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	DIR *d;
	struct dirent *e;

	if (bfd < 0 || (fd = dup(bfd)) < 0 || !(d = fdopendir(fd))) {
		if (bfd >= 0)
			close(bfd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st, dst, lst;
		int dfd, lfd;

		if (strncmp(e->d_name, "uncore-run.", 11) || fstatat(bfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if ((dfd = openat(bfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			continue;
		if (fstat(dfd, &dst) || dst.st_dev != st.st_dev || dst.st_ino != st.st_ino || dst.st_uid != geteuid() ||
		    (lfd = openat(dfd, "lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			close(dfd);
			continue;
		}
		if (!fstat(lfd, &lst) && S_ISREG(lst.st_mode) && lst.st_uid == geteuid() && !flock(lfd, LOCK_EX | LOCK_NB)) {
			rm_at(dfd, 0);
			unlinkat(bfd, e->d_name, AT_REMOVEDIR);
		}
		close(lfd);
		close(dfd);
	}
	closedir(d);
	close(bfd);
}

/* The run's own lock, held until it ends (the descriptor is closed on
 * exec: the program does not hold it). */
static int lock_dir(const char *dir)
{
	char p[160];
	int fd;

	snprintf(p, sizeof(p), "%s/lock", dir);
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Our descriptor limit is raised to its hard limit (one connection per
 * thread of the program: 1,100 processes outgrow the usual 1,024); the
 * program gets the limit it was given. */
static void raise_nofile(struct srv *s)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &s->nofile))
		return;
	r = s->nofile;
	r.rlim_cur = r.rlim_max;
	s->nofile_raised = !setrlimit(RLIMIT_NOFILE, &r);
}

/* With no descriptor left (EMFILE, ENFILE), a waiting connection is
 * refused, not left in the queue (poll reported it again at once, for
 * ever: the server spun): the descriptor kept in reserve is given up to
 * take it, the program's thread is told why (UCR_RSP_REFUSED) and the
 * connection closed.  With not even that, the server stops listening
 * until a connection closes.  Nonzero if one was refused. */
static int refuse(struct srv *s, int lfd)
{
	struct ucr_rsp r;
	struct rlimit rl;
	int c;

	if (s->reserve_fd >= 0)
		close(s->reserve_fd);
	s->reserve_fd = -1;
	c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (c >= 0) {
		memset(&r, 0, sizeof(r));
		r.rc = -EMFILE;
		r.flags = UCR_RSP_REFUSED;
		getrlimit(RLIMIT_NOFILE, &rl);
		snprintf(r.msg, sizeof(r.msg),
			 "it has as many descriptors open as its limit (RLIMIT_NOFILE %llu) allows",
			 (unsigned long long)rl.rlim_cur);
		if (!s->refused++)
			fprintf(stderr, "uncore: error: run: the machine server refused a connection of the program: %s\n",
				r.msg);
		send(c, &r, sizeof(r), MSG_NOSIGNAL | MSG_DONTWAIT);
		close(c);
	}
	s->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return c >= 0;
}

/* Every connection waiting is taken (pf[1] is the listening socket). */
static void accept_all(struct srv *s, struct pollfd **pf, struct conn **cs, size_t *npf, size_t *cap)
{
	int lfd = (*pf)[1].fd, c;

	if (s->listen_paused) {
		if ((s->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
			return;
		s->listen_paused = 0;
		(*pf)[1].events = POLLIN;
	}
	for (;;) {
		c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0 && errno == EINTR)
			continue;
		if (c < 0 && (errno == EMFILE || errno == ENFILE)) {
			if (refuse(s, lfd))
				continue;
			if (s->reserve_fd < 0) {
				s->listen_paused = 1;
				(*pf)[1].events = 0;
			}
			return;
		}
		if (c < 0)
			return;
		if (*npf == *cap) {
			struct pollfd *np = realloc(*pf, 2 * *cap * sizeof(**pf));
			struct conn *nc = np ? realloc(*cs, 2 * *cap * sizeof(**cs)) : NULL;

			if (np)
				*pf = np;
			if (!nc) {
				close(c);
				continue;
			}
			*cs = nc;
			*cap *= 2;
		}
		(*cs)[*npf] = (struct conn){ 0, 0, 0, 0, 0, 0, 0, host_ns(CLOCK_MONOTONIC) };
		(*pf)[(*npf)++] = (struct pollfd){ c, POLLIN, 0 };
		s->last_event_ns = host_ns(CLOCK_MONOTONIC);
	}
}

/* Whether the run is in the foreground of the terminal it was started on
 * (an interactive shell's job): the program then stays in the run's
 * process group, so that it reads the terminal and the terminal's Ctrl-C
 * and Ctrl-Z reach it, and the run, as they would without `uncore run`.
 * Elsewhere (scripts, CI) the program gets a process group of its own. */
static int fg_terminal(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd) && tcgetpgrp(fd) == getpgrp())
			return 1;
	return 0;
}

/* The signals waiting on sfd: SIGUSR1 writes the report; SIGINT, SIGTERM
 * and SIGHUP reach the program's whole process group, as a terminal's
 * reach its foreground group (a shell's child as well as the shell): sent
 * to its own group, or, in the terminal's foreground, to the run's (a
 * signal from the terminal itself reached every process of it already,
 * and the copy the run sends itself is not passed on again).  The
 * program's end ends the run.  Nonzero when the program ended. */
static int on_signals(struct srv *s, int sfd, pid_t child, int *status, char *err, size_t n)
{
	struct signalfd_siginfo si;
	int ws;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGUSR1) {
			if (write_report(s, err, n))
				fprintf(stderr, "uncore: error: %s\n", err);
		} else if (si.ssi_signo != SIGCHLD) {
			if (s->fg && (int)si.ssi_pid == getpid() && si.ssi_code == SI_USER)
				continue;
			if (!s->fg && kill(-child, (int)si.ssi_signo))
				kill(child, (int)si.ssi_signo);
			else if (s->fg && si.ssi_code != SI_KERNEL)
				kill(0, (int)si.ssi_signo);
			s->interrupted = (int)si.ssi_signo;
		}
	}
	if (waitpid(child, &ws, WNOHANG) != child)
		return 0;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 1;
}

/* A SIGINT, SIGTERM or SIGHUP that came before the program started: while
 * the machine was being built (blocked from the start of the run), or
 * before, caught by the caller's handler (o->caught: uncore's own, since
 * its start).  The program is not started, and the run ends as if it had
 * been interrupted at once. */
static int early_interrupt(const struct ucr_opts *o, int sfd)
{
	struct signalfd_siginfo si;

	if (o->caught && *o->caught)
		return *o->caught;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP)
			return (int)si.ssi_signo;
	return 0;
}

int ucr_run(struct ucm_model *m, const struct ucr_opts *o, int *status, char *err, size_t n)
{
	struct srv s;
	char root[160], sock[160], env_ncpu[16], *pre = NULL;
	const char *tmp = getenv("TMPDIR");
	struct pollfd *pf = NULL;
	struct conn *cs = NULL;
	sigset_t mask, old;
	int lfd = -1, sfd = -1, rc, done = 0, lock = -1;
	pid_t child = -1;
	size_t npf = 0, cap = 0;
	char lib[PATH_MAX];

	memset(&s, 0, sizeof(s));
	s.m = m;
	s.o = o;
	s.reserve_fd = -1;
	*status = 0;
	err[0] = 0;
	/* a signal from here on ends the run cleanly, however early: it
	 * waits until the machine is built (early_interrupt) */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &old);
	if ((rc = check_program(o->argv[0], err, n, 0)))
		goto out_sig;
	/* absolute: a process of the program that changes directory must
	 * still find it */
	if (!realpath(o->preload, lib)) {
		snprintf(err, n, "the preload library %s: %s (set UNCORE_RUN_LIB)", o->preload, strerror(errno));
		rc = -ENOENT;
		goto out_sig;
	}
	if (access(lib, R_OK)) {
		snprintf(err, n, "the preload library %s: %s (set UNCORE_RUN_LIB)", o->preload, strerror(errno));
		rc = -ENOENT;
		goto out_sig;
	}
	s.entry_ns = host_ns(CLOCK_MONOTONIC);
	raise_nofile(&s);
	tmp = run_base(tmp);
	clean_stale(tmp);
	snprintf(s.dir, sizeof(s.dir), "%s/uncore-run.XXXXXX", tmp);
	if (!mkdtemp(s.dir)) {
		rc = -errno;
		if (tmp == getenv("TMPDIR"))
			snprintf(err, n, "TMPDIR %s: %s (where the run's directory goes)", tmp, strerror(errno));
		else
			snprintf(err, n, "%s: %s", s.dir, strerror(errno));
		s.dir[0] = 0;
		goto out_sig;
	}
	if ((lock = lock_dir(s.dir)) < 0) {
		rc = -errno;
		snprintf(err, n, "%s/lock: %s", s.dir, strerror(errno));
		goto out;
	}
	snprintf(root, sizeof(root), "%s/root", s.dir);
	snprintf(sock, sizeof(sock), "%s/sock", s.dir);
	s.wall_start_ns = host_ns(CLOCK_MONOTONIC);
	s.mono_base_ns = s.wall_start_ns;
	s.real_base_ns = host_ns(CLOCK_REALTIME);
	if ((rc = ucp_machine_create(m, s.mono_base_ns * 1000u, &s.mc, err, n)))
		goto out;
	if (mkdir(root, 0755) || (rc = ucr_tree_build(root, m, s.mc, err, n))) {
		rc = rc ? rc : -errno;
		if (!err[0])
			snprintf(err, n, "%s: %s", root, strerror(-rc));
		goto out;
	}
	if ((rc = ucr_kernel_start(m, s.mc, s.mono_base_ns, root, &s.kernel, err, n)))
		goto out;
	if (!(s.prog = ucr_prog_new(m)) || !(s.timers = ucr_timers_new())) {
		rc = -ENOMEM;
		snprintf(err, n, "out of memory");
		goto out;
	}
	if ((lfd = listen_on(sock)) < 0) {
		rc = lfd;
		snprintf(err, n, "%s: %s", sock, strerror(-rc));
		goto out;
	}
	if ((sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		rc = -errno;
		snprintf(err, n, "signalfd: %s", strerror(errno));
		goto out_mask;
	}
	{
		const char *p = getenv("LD_PRELOAD");

		if (asprintf(&pre, "%s%s%s", lib, p && *p ? " " : "", p ? p : "") < 0) {
			rc = -ENOMEM;
			pre = NULL;
			goto out_mask;
		}
	}
	snprintf(env_ncpu, sizeof(env_ncpu), "%u", ucp_ncpu(s.mc));
	if ((s.interrupted = early_interrupt(o, sfd))) {
		done = 1;
		goto run;
	}
	s.fg = fg_terminal();
	fflush(NULL);
	child = fork();
	if (child < 0) {
		rc = -errno;
		snprintf(err, n, "fork: %s", strerror(errno));
		goto out_mask;
	}
	if (!child) {
		/* a process group of its own (fg_terminal): a signal to the
		 * run reaches all of it */
		if (!s.fg)
			setpgid(0, 0);
		if (s.nofile_raised)
			setrlimit(RLIMIT_NOFILE, &s.nofile);
		sigprocmask(SIG_SETMASK, &old, NULL);
		signal(SIGPIPE, SIG_DFL);
		setenv("LD_PRELOAD", pre, 1);
		setenv(UCR_ENV_SOCK, sock, 1);
		setenv(UCR_ENV_ROOT, root, 1);
		setenv(UCR_ENV_NCPU, env_ncpu, 1);
		setenv(UCR_ENV_CLOCK, o->wall_clock ? "wall" : "sim", 1);
		if (o->verbose)
			setenv(UCR_ENV_LOG, "1", 1);
		execvp(o->argv[0], o->argv);
		fprintf(stderr, "uncore: error: run: %s: %s\n", o->argv[0], strerror(errno));
		_exit(127);
	}
	if (!s.fg)
		setpgid(child, child);  /* before the first signal passed on; it may have exec'd */
run:
	s.reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cap = 16;
	pf = calloc(cap, sizeof(*pf));
	cs = calloc(cap, sizeof(*cs));
	if (!pf || !cs) {
		rc = -ENOMEM;
		goto out_kill;
	}
	pf[0] = (struct pollfd){ sfd, POLLIN, 0 };
	pf[1] = (struct pollfd){ lfd, POLLIN, 0 };
	npf = 2;
	s.last_event_ns = s.last_req_ns = host_ns(CLOCK_MONOTONIC);
	while (!done) {
		int timeout = -1, jump = 0;
		uint64_t now_ns = host_ns(CLOCK_MONOTONIC), tnext;
		unsigned sleepers = 0, holders = 0, unknown = 0, runners = 0;

		wake_due(&s, pf, cs, npf);

		for (unsigned p = 0; p < s.npend; p++) {
			int connected = 0;

			for (size_t i = 2; i < npf && !connected; i++)
				connected = cs[i].pid == s.pend[p].pid;
			if (!connected && (thread_waits(s.pend[p].pid, s.pend[p].pid) < 0 || zombie(s.pend[p].pid))) {
				/* it ended: its tasks and the events it opened with it */
				ucr_kernel_process_gone(s.kernel, s.pend[p].pid);
				ucr_timers_gone(s.timers, s.pend[p].pid);
				s.pend[p--] = s.pend[--s.npend];
			} else if (connected || (now_ns - s.pend[p].since_ns) / 1000000u >= EXEC_MS) {
				s.pend[p--] = s.pend[--s.npend];
			} else {
				holders++;
			}
		}
		for (unsigned f = 0; f < s.nfpend; f++) {
			if ((now_ns - s.fpend[f].since_ns) / 1000000u >= EXEC_MS)
				s.fpend[f--] = s.fpend[--s.nfpend];
			else
				holders++;
		}
		/* threads that ended without their process */
		ucr_kernel_reap(s.kernel);

		for (size_t i = 2; i < npf; i++) {
			if (cs[i].asleep) {
				sleepers++;
			} else if (!cs[i].blocked) {
				int w = thread_waits(cs[i].pid, cs[i].tid);

				holders += w == 0;
				/* (its sleep may have been answered after now_ns) */
				runners += w == 0 && now_ns > cs[i].seen_ns &&
					   (now_ns - cs[i].seen_ns) / 1000000u >= SPIN_MS;
				unknown += w < 0;
			}
		}
		/* a sleeper that runs was woken by a signal (a timer's, a
		 * kill): it is about to end its sleep or its life, and holds
		 * time until it has (looked at only when nothing else holds) */
		for (size_t i = 2; i < npf && sleepers && !holders; i++)
			if (cs[i].asleep && thread_waits(cs[i].pid, cs[i].tid) == 0)
				holders++;
		/* what ends a wait of the whole machine: a sleeper's deadline,
		 * a timer's */
		tnext = ucr_timers_next(s.timers);
		if (sleepers || tnext != UINT64_MAX) {
			jump = 1;
			uint64_t since_event = (now_ns - s.last_event_ns) / 1000000u;
			uint64_t since_req = (now_ns - s.last_req_ns) / 1000000u;

			if (holders) {
				/* a thread runs: look again soon */
				s.settle_ns = 0;
				timeout = unknown ? (int)(since_req >= QUIET_MS ? 0 : QUIET_MS - since_req) : 1;
				if (timeout > 1)
					timeout = 1;
			} else if (unknown && since_req < QUIET_MS) {
				timeout = (int)(QUIET_MS - since_req);
				if (timeout > 1)
					timeout = 1;
			} else {
				if (!s.settle_ns)
					s.settle_ns = now_ns;
				uint64_t settled = (now_ns - s.settle_ns) / 1000000u;

				timeout = settled >= SETTLE_MS && since_event >= EVENT_SETTLE_MS ? 0 : 1;
			}
			if (holders || (unknown && since_req < QUIET_MS))
				jump = 0;
			else if (unknown)
				s.quiet_pending = 1;
		}
		s.mark_real_ns = now_ns;
		s.mark_ps = ucm_now_ps(m);
		/* time runs with a thread that has run without a request for
		 * SPIN_MS while another waits on the clock; a process between
		 * fork or exec and its hello holds time but does not run it
		 * (that is the library's start); docs/tools.md, "One clock" */
		s.mark_running = runners > 0 && (sleepers || tnext != UINT64_MAX);
		int k = poll(pf, npf, timeout);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			snprintf(err, n, "poll: %s", strerror(errno));
			goto out_kill;
		}
		if ((rc = run_with_threads(&s, sfd))) {
			snprintf(err, n, "%s", ucm_error(m));
			goto out_kill;
		}
		if (k == 0 && jump && timeout == 0) {
			/* the machine runs to the earliest deadline */
			uint64_t t = tnext;

			for (size_t i = 2; i < npf; i++)
				if (cs[i].asleep && cs[i].deadline_ps < t)
					t = cs[i].deadline_ps;
			if (t >= UCR_TIME_END_PS) {
				snprintf(err, n,
					 "the program waits past the end of the machine's clock (%.1f days of machine time): the run stops",
					 (double)UCR_TIME_END_PS / 86400e12);
				rc = -ERANGE;
				goto out_kill;
			}
			if (s.quiet_pending)
				s.quiet_jumps++;
			s.quiet_pending = 0;
			s.settle_ns = 0;
			/* the machine idles: a thread that neither sleeps nor
			 * blocks waits in the host's kernel (a pipe, a lock) and
			 * does not run through the jump */
			for (size_t i = 2; i < npf; i++) {
				if (cs[i].asleep || cs[i].blocked || cs[i].idle)
					continue;
				for (size_t j = 2; j < npf; j++)
					if (cs[j].tid == cs[i].tid)
						cs[j].idle = 1;
				sync_task(&s, cs, npf, cs[i].pid, cs[i].tid, cs[i].vcpu);
			}
			if ((rc = advance_to(&s, t, sfd, pf, npf))) {
				snprintf(err, n, "%s", ucm_error(m));
				goto out_kill;
			}
			/* the sleepers and timers due are woken at the top */
			continue;
		}
		if (pf[0].revents && on_signals(&s, sfd, child, status, err, n)) {
			done = 1;
			child = -1;
		}
		if (pf[1].revents || s.listen_paused)
			accept_all(&s, &pf, &cs, &npf, &cap);
		for (size_t i = 2; i < npf; i++) {
			struct ucr_req_data qd;
			struct ucr_req q;
			struct ucr_rsp r;
			ssize_t got;
			int gone;

			if (!pf[i].revents)
				continue;
			got = recv(pf[i].fd, &qd, sizeof(qd), MSG_DONTWAIT);
			if (got < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			q = qd.h;
			/* only an open carries a payload, the attribute */
			/* the wall clock's time, at which a thread's state changes */
			if ((rc = wall_sync(&s))) {
				snprintf(err, n, "%s", ucm_error(m));
				goto out_kill;
			}
			if (got != (ssize_t)sizeof(q) &&
			    !(got > (ssize_t)sizeof(q) && (q.op == UCR_PERF_OPEN || q.op == UCR_UNREACHED))) {
				/* a thread or process went (exit, exec) */
				int pid = cs[i].pid, others = 0;

				for (size_t c = 2; c < npf; c++)
					others += c != i && cs[c].pid == pid;
				int tid = cs[i].tid;
				unsigned vcpu = cs[i].vcpu;

				close(pf[i].fd);
				cs[i] = cs[npf - 1];
				pf[i--] = pf[--npf];
				sync_task(&s, cs, npf, pid, tid, vcpu);
				if (pid > 0 && !others && s.npend < MAXPEND && !zombie(pid)) {
					s.pend[s.npend].pid = pid;
					s.pend[s.npend++].since_ns = host_ns(CLOCK_MONOTONIC);
				} else if (pid > 0 && !others) {
					/* the process ended: its tasks and perf descriptors with it */
					ucr_kernel_process_gone(s.kernel, pid);
					ucr_timers_gone(s.timers, pid);
				}
				s.last_event_ns = host_ns(CLOCK_MONOTONIC);
				continue;
			}
			s.last_req_ns = cs[i].seen_ns = host_ns(CLOCK_MONOTONIC);
			s.settle_ns = 0;
			cs[i].pid = q.pid;
			cs[i].tid = q.tid;
			cs[i].vcpu = q.vcpu;
			/* it asks: it runs (again); a thread's other connections
			 * (an older image's, a handler's) are the same thread */
			for (size_t j = 2; j < npf; j++)
				if (cs[j].tid == q.tid) {
					cs[j].idle = 0;
					cs[j].seen_ns = cs[i].seen_ns;
				}
			ucr_kernel_task_seen(s.kernel, q.pid, q.tid, q.op == UCR_HELLO && q.b ? (int)q.b : q.ptid);
			if (q.op == UCR_SLEEP) {
				s.nreq[UCR_SLEEP]++;
				/* a deadline past the machine clock's end is its end */
				cs[i].deadline_ps = q.a >= (UCR_TIME_END_PS - ucm_now_ps(m)) / 1000u
							    ? UCR_TIME_END_PS
							    : ucm_now_ps(m) + q.a * 1000u;
				cs[i].asleep = 1;
				gone = cs[i].deadline_ps <= ucm_now_ps(m) && wake(&s, pf[i].fd, &cs[i], 0);
			} else if (q.op == UCR_BLOCK || q.op == UCR_WAKE) {
				s.nreq[q.op]++;
				memset(&r, 0, sizeof(r));
				if (q.op == UCR_BLOCK)
					cs[i].blocked = q.a != 0;
				/* an interrupted sleep is answered first, then the wake */
				gone = (q.op == UCR_WAKE && cs[i].asleep && wake(&s, pf[i].fd, &cs[i], -EINTR)) ||
				       answer(&s, pf[i].fd, &cs[i], &r, sizeof(r));
			} else if (q.op >= UCR_PERF_OPEN && q.op <= UCR_PERF_CLOSE) {
				static struct ucr_rsp_data rd;
				size_t rlen;

				s.nreq[q.op]++;
				memset(&rd.h, 0, sizeof(rd.h));
				ucr_kernel_serve(s.kernel, &q, qd.data, (size_t)got - sizeof(q), &rd, &rlen);
				gone = answer(&s, pf[i].fd, &cs[i], &rd, rlen);
			} else if (q.op == UCR_UNREACHED) {
				s.nreq[q.op]++;
				unreached(&s, &q, qd.data, (size_t)got - sizeof(q));
				memset(&r, 0, sizeof(r));
				gone = answer(&s, pf[i].fd, &cs[i], &r, sizeof(r));
			} else {
				serve(&s, &q, &r);
				if (q.op == UCR_REPORT && write_report(&s, r.msg, sizeof(r.msg)))
					r.rc = -EIO;
				gone = answer(&s, pf[i].fd, &cs[i], &r, sizeof(r));
			}
			if (gone) {
				close(pf[i].fd);
				cs[i] = cs[npf - 1];
				pf[i--] = pf[--npf];
			}
			sync_task(&s, cs, npf, q.pid, q.tid, q.vcpu);
			/* a new image: the events waiting for its exec start */
			if (q.op == UCR_HELLO && q.c == 1) {
				ucr_kernel_task_exec(s.kernel, q.tid);
				ucr_timers_exec(s.timers, q.pid);
			}
		}
	}
	/* interrupted, the run ends as every command does: 128 + the signal */
	if (s.interrupted)
		*status = 128 + s.interrupted;
	/* the machine failed a process of the program: so does the run */
	if (!*status && (s.ndrop || s.refused || s.nunreach))
		*status = 1;
	rc = write_report(&s, err, n);
out_kill:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
out_mask:
	for (size_t i = 2; i < npf; i++)
		close(pf[i].fd);
	free(pf);
	free(cs);
	free(pre);
	if (sfd >= 0)
		close(sfd);
	if (s.reserve_fd >= 0)
		close(s.reserve_fd);
out:
	if (lfd >= 0)
		close(lfd);
	ucr_kernel_stop(s.kernel);
	ucr_prog_free(s.prog);
	ucr_timers_free(s.timers);
	ucp_machine_destroy(s.mc);
	nftw(s.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (lock >= 0)
		close(lock);
out_sig:
	if (s.nofile_raised)
		setrlimit(RLIMIT_NOFILE, &s.nofile);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
