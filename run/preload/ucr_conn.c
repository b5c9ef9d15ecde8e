/*
 * ucr_conn.c - the preload library's connection to the machine server
 * (`uncore run`): one SOCK_SEQPACKET connection per thread (ucr_proto.h),
 * a request and its answer, sleeping on the machine's clock, a forked
 * child's own connections.  Part of libuncore-run.so (ucr_preload.h).
 */
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ucr_preload.h"

static char sock_path[UCR_SOCK_MAX];
_Static_assert(sizeof(((struct sockaddr_un *)0)->sun_path) == UCR_SOCK_MAX, "dial copies the whole sun_path");

/* atomic: another thread that moves this connection out of the way of
 * dup2 (ucr_conn_protect) updates it */
static TLS _Atomic int t_fd = -1;
static TLS unsigned t_gen, t_busy;
static TLS char t_err[200];
static unsigned g_gen = 1;         /* bumped in a forked child */
static TLS int t_fork_tid;         /* the thread that forked (read in the child) */

#define MAXSOCKFD 4096
static unsigned char our_fd[MAXSOCKFD]; /* the server connections: not the program's to close */
/* whose connection each is (the owning thread's t_fd; NULL: a handler's
 * own, for one request), under tab_lock */
static _Atomic int *owner_of[MAXSOCKFD];
static atomic_flag tab_lock = ATOMIC_FLAG_INIT;

static void tab_enter(void)
{
	while (atomic_flag_test_and_set_explicit(&tab_lock, memory_order_acquire))
		;
}

static void tab_leave(void)
{
	atomic_flag_clear_explicit(&tab_lock, memory_order_release);
}

/* A forked child says hello at once: the server then knows a process that
 * may yet sleep exists, and does not let time run past it. */
static void before_fork(void)
{
	struct ucr_rsp r;

	t_fork_tid = gettid();
	ucr_request(UCR_FORK, 0, 0, 0, &r);
}

/* the child names the thread it was forked from: its per-task perf events
 * are inherited from that one's */
static void after_fork(void)
{
	struct ucr_rsp r;

	g_gen++;
	t_busy = 0;
	/* another thread of the parent may have held it at the fork */
	atomic_flag_clear(&tab_lock);
	ucr_request(UCR_HELLO, (uint64_t)getpid(), (uint64_t)t_fork_tid, 0, &r);
	ucr_proc_after_fork();
}

/* the cpu this thread is on */
static unsigned thread_cpu(void)
{
	return ucr_t_vcpu >= 0 ? (unsigned)ucr_t_vcpu : (unsigned)ucr_g_vcpu;
}

const char *ucr_last_error(void)
{
	return t_err;
}

static pthread_key_t conn_key;

/* A thread's connection ends with the thread (exit or cancellation), so
 * the server stops counting it among the threads that may yet run. */
static void conn_drop(void *unused)
{
	int fd;

	(void)unused;
	tab_enter();
	fd = t_fd;
	if (fd >= 0 && fd < MAXSOCKFD) {
		our_fd[fd] = 0;
		owner_of[fd] = NULL;
	}
	t_fd = -1;
	tab_leave();
	if (fd >= 0)
		close(fd);
	t_busy = 0;
}

static int dial_connect;        /* the last dial failed at connect, not socket */

static int dial(void)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), hi, e;

	dial_connect = 0;
	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, sock_path, sizeof(sa.sun_path));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = errno;
		close(fd);
		dial_connect = 1;
		errno = e;
		return -1;
	}
	/* out of the way of programs that dup2 onto low descriptors */
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
	if (hi >= 0) {
		close(fd);
		fd = hi;
	}
	if (fd < MAXSOCKFD) {
		tab_enter();
		our_fd[fd] = 1;
		owner_of[fd] = NULL;
		tab_leave();
	}
	return fd;
}

/* One request (nq bytes: the header and any payload) and its answer
 * (at most nr bytes).  recv is a cancellation point: a thread cancelled
 * while it waits leaves its connection out of step; drop it. */
static ssize_t exchange(int fd, const void *q, size_t nq, void *r, size_t nr)
{
	ssize_t k;

	pthread_cleanup_push(conn_drop, NULL);
	do
		k = send(fd, q, nq, MSG_NOSIGNAL);
	while (k < 0 && errno == EINTR);
	if (k == (ssize_t)nq) {
		do
			k = recv(fd, r, nr, 0);
		while (k < 0 && errno == EINTR);
	}
	pthread_cleanup_pop(0);
	return k;
}

static int call(struct ucr_req *q, size_t nq, struct ucr_rsp *r, size_t nr, size_t *got);

int ucr_call(struct ucr_req *q, struct ucr_rsp *r)
{
	size_t got;

	return call(q, sizeof(*q), r, sizeof(*r), &got);
}

int ucr_call_data(struct ucr_req_data *q, size_t npayload, struct ucr_rsp_data *r, size_t *ndata)
{
	size_t got;
	int rc = call(&q->h, sizeof(q->h) + npayload, &r->h, sizeof(*r), &got);

	*ndata = got - sizeof(r->h);
	return rc;
}

/* A connection that could not be made (dialled: dial() failed with errno
 * e) or that failed under a request, blaming the right cause: the
 * program's descriptors (EMFILE: it has its limit open; EBADF, ENOTSOCK:
 * it closed ours behind the library's back, close_range or a raw system
 * call, or put another file there), else the server. */
static _Noreturn void conn_die(int dialled, int fd, unsigned op, int e)
{
	struct rlimit rl;

	if (dialled && !dial_connect && e == EMFILE && !getrlimit(RLIMIT_NOFILE, &rl))
		ucr_die("cannot open a connection to the machine server: %s: the program has "
			"as many descriptors open as its limit (RLIMIT_NOFILE %llu) allows",
			strerror(e), (unsigned long long)rl.rlim_cur);
	if (dialled && !dial_connect)
		ucr_die("cannot open a connection to the machine server: %s", strerror(e));
	if (dialled && e != ENOENT && e != ECONNREFUSED)
		ucr_die("cannot connect to the machine server at %s: %s", sock_path, strerror(e));
	if (dialled)
		ucr_die("cannot reach the machine server at %s: %s (did `uncore run` end?)", sock_path,
			strerror(e));
	if (e == EBADF || e == ENOTSOCK)
		ucr_die("the connection to the machine server (descriptor %d) was closed or replaced "
			"by the program, not through close() (request %u): %s", fd, op, strerror(e));
	/* the server's last word, if it closed the connection after one */
	struct ucr_rsp r;

	if (fd >= 0 && recv(fd, &r, sizeof(r), MSG_DONTWAIT) == (ssize_t)sizeof(r) && (r.flags & UCR_RSP_REFUSED)) {
		r.msg[sizeof(r.msg) - 1] = 0;
		ucr_die("the machine server refused the connection: %s", r.msg);
	}
	ucr_die("the machine server stopped answering (request %u): %s", op,
		e ? strerror(e) : "connection closed");
}

/* q is the head of nq bytes; the answer has at least its header */
static int call(struct ucr_req *q, size_t nq, struct ucr_rsp *r, size_t nr, size_t *got)
{
	int fd, tmp = 0, saved = errno, e;
	ssize_t k;

	q->vcpu = thread_cpu();
	q->cpu = ucr_t_target >= 0 ? (unsigned)ucr_t_target : q->vcpu;
	q->ptid = ucr_t_creator;
	q->pid = getpid();
	q->tid = gettid();
	if (t_busy) {
		/* a signal handler of the program interrupted a request of this
		 * thread: its own connection, so the replies cannot cross */
		fd = dial();
		tmp = 1;
	} else {
		if (t_fd < 0 || t_gen != g_gen) {
			t_fd = fd = dial();
			t_gen = g_gen;
			pthread_setspecific(conn_key, (void *)1);
			if (fd >= 0 && fd < MAXSOCKFD) {
				tab_enter();
				owner_of[fd] = &t_fd;
				tab_leave();
			}
		}
		fd = t_fd;
	}
	if (fd < 0)
		conn_die(1, -1, q->op, errno);
	t_busy++;
	k = exchange(fd, q, nq, r, nr);
	e = k < 0 ? errno : 0;
	t_busy--;
	if (k >= (ssize_t)sizeof(*r) && (r->flags & UCR_RSP_REFUSED)) {
		r->msg[sizeof(r->msg) - 1] = 0;
		ucr_die("the machine server refused the connection: %s", r->msg);
	}
	if (tmp) {
		if (fd < MAXSOCKFD) {
			tab_enter();
			our_fd[fd] = 0;
			tab_leave();
		}
		close(fd);
	}
	if (k < (ssize_t)sizeof(*r) || (nr == sizeof(*r) && k != (ssize_t)sizeof(*r)))
		conn_die(0, fd, q->op, e);
	*got = (size_t)k;
	if (r->rc) {
		r->msg[sizeof(r->msg) - 1] = 0;
		snprintf(t_err, sizeof(t_err), "%s", r->msg);
	}
	errno = saved;
	return r->rc;
}

static int recv_all(int fd, struct ucr_rsp *r)
{
	ssize_t k;

	do
		k = recv(fd, r, sizeof(*r), 0);
	while (k < 0 && errno == EINTR);
	return k == (ssize_t)sizeof(*r) ? 0 : -1;
}

int ucr_request(unsigned op, uint64_t a, uint64_t b, uint64_t c, struct ucr_rsp *r)
{
	struct ucr_req q = { op, 0, a, b, c, 0, 0, 0, 0 };

	return ucr_call(&q, r);
}

int ucr_cpuid(uint32_t leaf, uint32_t sub, uint64_t out[4])
{
	struct ucr_rsp r;
	int rc = ucr_request(UCR_CPUID, leaf, sub, 0, &r);

	memcpy(out, r.v, sizeof(r.v));
	return rc;
}

int ucr_tsc(uint64_t *tsc, uint64_t *aux)
{
	struct ucr_rsp r;
	int rc = ucr_request(UCR_TSC, 0, 0, 0, &r);

	*tsc = r.v[0];
	*aux = r.v[1];
	return rc;
}

int ucr_mmio_read(uint64_t pa, unsigned width, uint64_t *v)
{
	struct ucr_rsp r;
	int rc = ucr_request(UCR_MMIO_RD, pa, 0, width, &r);

	*v = r.v[0];
	return rc;
}

int ucr_mmio_write(uint64_t pa, unsigned width, uint64_t v)
{
	struct ucr_rsp r;

	return ucr_request(UCR_MMIO_WR, pa, v, width, &r);
}

/* ---- sleeping on the machine's clock ---- */

/* poll is a cancellation point (PCM cancels its sleeping threads): the
 * connection goes with the thread. */
static int wait_answer(struct pollfd *p)
{
	int rc;

	pthread_cleanup_push(conn_drop, NULL);
	rc = poll(p, 1, -1);
	pthread_cleanup_pop(0);
	return rc;
}

/* The sleep request of this thread, on its own connection (opened by the
 * thread's first request); the answer comes when machine time reaches the
 * deadline, or after a UCR_WAKE. */
static void send_sleep(uint64_t ns)
{
	struct ucr_req q = { UCR_SLEEP, 0, ns, 0, 0, 0, 0, 0, 0 };
	struct ucr_rsp r;

	if (t_fd < 0 || t_gen != g_gen) {
		if (ucr_request(UCR_HELLO, (uint64_t)getpid(), 0, 0, &r))
			ucr_die("sleep: %s", t_err);
	}
	q.cpu = q.vcpu = thread_cpu();
	q.ptid = ucr_t_creator;
	q.pid = getpid();
	q.tid = gettid();
	if (send(t_fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q))
		conn_die(0, t_fd, UCR_SLEEP, errno);
}

/* Sleep on the machine's clock.  The server answers when machine time
 * reaches the deadline; a signal that interrupts the wait (poll is never
 * restarted, as nanosleep is not) ends the sleep early, as it would end
 * nanosleep.  Returns the nanoseconds left: 0, or more when interrupted. */
uint64_t ucr_sleep(uint64_t ns)
{
	struct ucr_rsp r;
	struct pollfd p;
	int rc, saved = errno;

	if (t_busy) {
		/* a handler of the program sleeps while its thread waits for an
		 * answer: on a connection of its own, not interruptible */
		rc = ucr_request(UCR_SLEEP, ns, 0, 0, &r);
		if (rc && rc != -EINTR)
			ucr_die("sleep: %s", t_err);
		errno = saved;
		return 0;
	}
	send_sleep(ns);
	t_busy++;
	p = (struct pollfd){ t_fd, POLLIN, 0 };
	rc = wait_answer(&p);
	if (rc < 0 && errno == EINTR) {
		struct ucr_req w = { UCR_WAKE, 0, 0, 0, 0, getpid(), gettid(), thread_cpu(), 0 };

		if (send(t_fd, &w, sizeof(w), MSG_NOSIGNAL) != (ssize_t)sizeof(w))
			ucr_die("the machine server stopped answering (wake): %s", strerror(errno));
		struct ucr_rsp wr;

		/* the sleep's answer, then the wake's */
		if (recv_all(t_fd, &r) || recv_all(t_fd, &wr))
			ucr_die("the machine server stopped answering (wake)");
		t_busy--;
		errno = saved;
		return r.v[1] ? r.v[1] : 1;
	}
	if (recv_all(t_fd, &r))
		ucr_die("the machine server stopped answering (sleep)");
	t_busy--;
	if (r.rc && r.rc != -EINTR)
		ucr_die("sleep: %s", r.msg);
	errno = saved;
	return r.rc ? (r.v[1] ? r.v[1] : 1) : 0;
}

/* Wait for the server's answer (p[0]) or for one of the program's
 * descriptors; a cancellation point, as wait_answer. */
static int wait_fds(struct pollfd *p, unsigned long n)
{
	int rc;

	pthread_cleanup_push(conn_drop, NULL);
	rc = poll(p, n, -1);
	pthread_cleanup_pop(0);
	return rc;
}

/* Sleep ns on the machine's clock or until one of fds is ready on the host,
 * whichever comes first: poll's timeout on machine time.  While it waits
 * the thread sleeps for the server (it does not hold machine time), so the
 * time runs on only when nothing else runs, and a descriptor another
 * process makes ready ends the wait before.  Returns as poll does. */
int ucr_sleep_poll(uint64_t ns, struct pollfd *fds, unsigned long n)
{
	struct ucr_rsp r, wr;
	struct pollfd *p;
	int rc, saved = errno, timed_out = 0, interrupted = 0;

	if (!n)
		return ucr_sleep(ns) ? (int)ucr_fail(EINTR) : 0;
	if (t_busy) {
		/* in a handler that interrupted a request: the host's clock */
		return poll(fds, n, (int)(ns / 1000000u));
	}
	if (!(p = calloc(n + 1, sizeof(*p))))
		return (int)ucr_fail(ENOMEM);
	send_sleep(ns);
	t_busy++;
	p[0] = (struct pollfd){ t_fd, POLLIN, 0 };
	memcpy(p + 1, fds, n * sizeof(*p));
	rc = wait_fds(p, n + 1);
	if (rc < 0 && errno == EINTR)
		interrupted = 1;
	else if (rc < 0)
		ucr_die("poll: %s", strerror(errno));
	else if (p[0].revents)
		timed_out = 1;
	if (timed_out) {
		if (recv_all(t_fd, &r))
			ucr_die("the machine server stopped answering (sleep)");
	} else {
		/* a descriptor or a signal came first: the sleep ends */
		struct ucr_req w = { UCR_WAKE, 0, 0, 0, 0, getpid(), gettid(), thread_cpu(), 0 };

		if (send(t_fd, &w, sizeof(w), MSG_NOSIGNAL) != (ssize_t)sizeof(w) || recv_all(t_fd, &r) ||
		    recv_all(t_fd, &wr))
			ucr_die("the machine server stopped answering (wake)");
	}
	t_busy--;
	free(p);
	if (interrupted)
		return (int)ucr_fail(EINTR);
	errno = saved;
	/* what is ready now, as the kernel reports it on return */
	return poll(fds, n, 0);
}

/* A wait the host's kernel does, with a timeout on the machine's clock (a
 * condition variable, a lock, a semaphore: nothing poll can watch).  The
 * sleep is asked for and the caller waits on the host in short slices,
 * looking between them whether the server has answered it: machine time
 * reached the deadline.  Meanwhile the thread sleeps for the server, as in
 * ucr_sleep_poll.  In a handler that interrupted a request: -1, the
 * caller waits on the host's clock. */
int ucr_timed_begin(uint64_t ns)
{
	if (t_busy)
		return -1;
	send_sleep(ns);
	t_busy++;
	return 0;
}

/* Whether the deadline has come (its answer is then read). */
int ucr_timed_due(void)
{
	struct pollfd p = { t_fd, POLLIN, 0 };
	struct ucr_rsp r;

	if (poll(&p, 1, 0) != 1)
		return 0;
	if (recv_all(t_fd, &r))
		ucr_die("the machine server stopped answering (timed wait)");
	return 1;
}

/* The wait is over: due (the answer read), or ended first (the sleep is
 * cancelled). */
void ucr_timed_end(int due)
{
	struct ucr_rsp r, wr;

	if (!due) {
		struct ucr_req w = { UCR_WAKE, 0, 0, 0, 0, getpid(), gettid(), thread_cpu(), 0 };

		if (send(t_fd, &w, sizeof(w), MSG_NOSIGNAL) != (ssize_t)sizeof(w) || recv_all(t_fd, &r) ||
		    recv_all(t_fd, &wr))
			ucr_die("the machine server stopped answering (wake)");
	}
	t_busy--;
}

/* A thread cancelled in such a wait: its connection is out of step. */
void ucr_timed_cancelled(void *unused)
{
	conn_drop(unused);
}

/* ---- the program's close and fork ---- */

int ucr_conn_closing(int fd)
{
	int other = 0;

	if (fd < 0 || fd >= MAXSOCKFD)
		return 0;
	tab_enter();
	if (our_fd[fd] && fd != t_fd) {
		/* another thread's connection to the server: the program
		 * closing every descriptor must not cut it */
		other = 1;
	} else if (our_fd[fd]) {
		our_fd[fd] = 0;
		owner_of[fd] = NULL;
		t_fd = -1;
	}
	tab_leave();
	return other;
}

int ucr_conn_protect(int fd)
{
	int to;

	if (fd < 0 || fd >= MAXSOCKFD || !our_fd[fd])
		return 0;
	tab_enter();
	if (!our_fd[fd]) {
		tab_leave();
		return 0;
	}
	to = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
	if (to >= MAXSOCKFD) {
		close(to);
		to = -1;
		errno = EMFILE;
	}
	if (to >= 0) {
		our_fd[to] = 1;
		owner_of[to] = owner_of[fd];
		if (owner_of[to])
			*owner_of[to] = to;
		our_fd[fd] = 0;
		owner_of[fd] = NULL;
	}
	tab_leave();
	return to < 0 ? -1 : 0;
}

int ucr_conn_next_ours(int from)
{
	for (int fd = from < 0 ? 0 : from; fd < MAXSOCKFD; fd++)
		if (our_fd[fd])
			return fd;
	return -1;
}

void ucr_conn_init(const char *sock)
{
	snprintf(sock_path, sizeof(sock_path), "%s", sock);
	pthread_atfork(before_fork, NULL, after_fork);
	if (pthread_key_create(&conn_key, conn_drop))
		ucr_die("pthread_key_create failed");
}
