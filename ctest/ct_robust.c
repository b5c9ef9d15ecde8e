/*
 * ct_robust.c - hostile programs for `uncore run` (ctest/run_robust_test.py,
 * issue 34): each subcommand does one thing a program may do to the
 * machine it runs on, and prints what it saw.
 *
 *   flood            writes requests to the machine server without reading
 *                    the answers, until the server closes the connection
 *   hold P N         P processes of N threads, each thread with a
 *                    connection, all open at once; prints each process's
 *                    exit status
 *   conn MODE        closes or replaces the library's connections (its own
 *                    thread's and another's) with close_range, closefrom,
 *                    syscall(SYS_close_range), dup2, dup3 or, through no
 *                    library at all, the close_range system call made with
 *                    the syscall instruction (raw), then executes CPUID in
 *                    both threads
 *   sigcpuid MODE    blocks or ignores SIGILL/SIGSEGV one way (procmask,
 *                    pthread_mask, raw_mask, ign, handler, in_handler;
 *                    inherited: as it was started; thread: blocked, then
 *                    in a new thread), then executes CPUID and RDTSC, and
 *                    prints the mask it sees
 *
 * CPUID answers with the machine's display model (Intel SDM Vol. 2A,
 * CPUID leaf 1), so a test tells the machine's answer from the host's.
 */
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "ucr_proto.h"

static unsigned model(void)
{
	unsigned a, b, c, d;

	__cpuid(1, a, b, c, d);
	return (a >> 4 & 0xF) | (a >> 16 & 0xF) << 4;
}

/* ---- flood ---- */

static int flood(void)
{
	const char *path = getenv(UCR_ENV_SOCK);
	struct sockaddr_un sa;
	struct ucr_req q;
	unsigned long n;
	int fd;

	if (!path || strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "flood: no %s\n", UCR_ENV_SOCK);
		return 2;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	strcpy(sa.sun_path, path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("flood: connect");
		return 2;
	}
	memset(&q, 0, sizeof(q));
	q.op = UCR_TIME;
	q.pid = getpid();
	q.tid = gettid();
	for (n = 0; n < 10000000; n++)
		if (send(fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q)) {
			printf("flood: the server closed the connection after %lu requests (%s)\n", n,
			       strerror(errno));
			return 0;
		}
	printf("flood: %lu requests sent, none refused\n", n);
	return 3;
}

/* ---- hold ---- */

static pthread_barrier_t bar;

static void *holder(void *unused)
{
	struct timespec ts;

	(void)unused;
	clock_gettime(CLOCK_MONOTONIC, &ts);  /* this thread's connection */
	pthread_barrier_wait(&bar);
	/* it stays open until the process ends (a thread's end closes it) */
	for (;;)
		pause();
	return NULL;
}

/* A process of hold: its n threads connect and stay; it says so on
 * ready, then waits for go to close. */
static void holding(unsigned n, int ready, int go_rd)
{
	pthread_t th;
	char c;

	pthread_barrier_init(&bar, NULL, n + 1);
	for (unsigned i = 0; i < n; i++)
		if (pthread_create(&th, NULL, holder, NULL))
			_exit(2);
	pthread_barrier_wait(&bar);
	if (write(ready, "r", 1) != 1)
		_exit(2);
	close(ready);
	while (read(go_rd, &c, 1) > 0)
		;
	_exit(0);
}

static int hold(unsigned np, unsigned n)
{
	int ready[2], gop[2], st, rc = 0;
	pid_t pid[16];
	char c;

	if (!np || np > 16 || !n || n > 256 || pipe(ready) || pipe(gop))
		return 2;
	for (unsigned i = 0; i < np; i++) {
		if ((pid[i] = fork()) < 0)
			return 2;
		if (!pid[i]) {
			close(ready[0]);
			close(gop[1]);
			holding(n, ready[1], gop[0]);
		}
	}
	close(ready[1]);
	close(gop[0]);
	/* every process connected all its threads, or ended */
	while (read(ready[0], &c, 1) > 0)
		;
	close(gop[1]);
	printf("hold: statuses");
	for (unsigned i = 0; i < np; i++) {
		waitpid(pid[i], &st, 0);
		st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		printf(" %d", st);
		rc |= st;
	}
	printf("\n");
	return rc ? 1 : 0;
}

/* ---- conn ---- */

static int go[2], done[2];
static unsigned other_model;

/* The other thread: a connection of its own, used at each step. */
static void *other(void *unused)
{
	char c;

	(void)unused;
	while (read(go[0], &c, 1) == 1 && c == 'g') {
		other_model = model();
		if (write(done[1], "d", 1) != 1)
			break;
	}
	return NULL;
}

/* The library's connections are sockets; nothing else of ours is. */
static int replace_sockets(const char *how)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int null = open("/dev/null", O_RDONLY), n = 0;

	while (d && (e = readdir(d))) {
		char link[300], to[64];
		int fd = atoi(e->d_name);
		ssize_t k;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		if (fd < 3 || (k = readlink(link, to, sizeof(to) - 1)) <= 0)
			continue;
		to[k] = 0;
		if (strncmp(to, "socket:", 7))
			continue;
		if ((!strcmp(how, "dup2") ? dup2(null, fd) : dup3(null, fd, O_CLOEXEC)) != fd) {
			perror(how);
			return -1;
		}
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

static long raw_close_range(unsigned first, unsigned last)
{
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_close_range), "D"((long)first), "S"((long)last), "d"(0L)
			 : "rcx", "r11", "memory");
	return r;
}

static int conn(const char *mode)
{
	pthread_t th;
	char c;
	int first;

	if (pipe(go) || pipe(done))
		return 2;
	first = done[1] + 1;
	if (pthread_create(&th, NULL, other, NULL))
		return 2;
	/* both threads connected */
	model();
	if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1)
		return 2;
	if (!strcmp(mode, "close_range")) {
		if (close_range((unsigned)first, ~0u, 0))
			perror("close_range");
	} else if (!strcmp(mode, "closefrom")) {
		closefrom(first);
	} else if (!strcmp(mode, "syscall")) {
		if (syscall(SYS_close_range, first, ~0u, 0))
			perror("syscall(close_range)");
	} else if (!strcmp(mode, "raw")) {
		raw_close_range((unsigned)first, ~0u);
	} else if (!strcmp(mode, "dup2") || !strcmp(mode, "dup3")) {
		int n = replace_sockets(mode);

		if (n < 2) {
			fprintf(stderr, "conn: %d connections found, want both threads'\n", n);
			return 2;
		}
	} else {
		fprintf(stderr, "conn: unknown mode %s\n", mode);
		return 2;
	}
	unsigned mine = model();

	if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1)
		return 2;
	printf("conn %s: model %u, the other thread's %u\n", mode, mine, other_model);
	if (write(go[1], "q", 1) != 1)
		return 2;
	pthread_join(th, NULL);
	return 0;
}

/* ---- sigcpuid ---- */

static volatile sig_atomic_t handled;

static void on_ill(int sig)
{
	(void)sig;
	handled = 1;
}

static void cpuid_in_handler(int sig)
{
	(void)sig;
	printf("sigcpuid in_handler: model %u\n", model());
	fflush(stdout);
}

static int sigcpuid(const char *mode);

static void *sigcpuid_thread(void *unused)
{
	(void)unused;
	sigcpuid("in_thread");
	return NULL;
}

static int sigcpuid(const char *mode)
{
	sigset_t all, now;
	struct sigaction sa;

	sigfillset(&all);
	memset(&sa, 0, sizeof(sa));
	if (!strcmp(mode, "procmask")) {
		sigprocmask(SIG_BLOCK, &all, NULL);
	} else if (!strcmp(mode, "pthread_mask")) {
		pthread_sigmask(SIG_SETMASK, &all, NULL);
	} else if (!strcmp(mode, "raw_mask")) {
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, 8);
	} else if (!strcmp(mode, "ign")) {
		sa.sa_handler = SIG_IGN;
		sigaction(SIGILL, &sa, NULL);
		sigaction(SIGSEGV, &sa, NULL);
	} else if (!strcmp(mode, "handler")) {
		sa.sa_handler = on_ill;
		sigaction(SIGILL, &sa, NULL);
	} else if (!strcmp(mode, "in_handler")) {
		sa.sa_handler = cpuid_in_handler;
		sigfillset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
	} else if (!strcmp(mode, "thread")) {
		pthread_t th;

		sigprocmask(SIG_BLOCK, &all, NULL);
		if (pthread_create(&th, NULL, sigcpuid_thread, NULL) || pthread_join(th, NULL))
			return 2;
		return 0;
	} else if (strcmp(mode, "inherited") && strcmp(mode, "in_thread")) {
		fprintf(stderr, "sigcpuid: unknown mode %s\n", mode);
		return 2;
	}
	unsigned m = model();
	unsigned long long t0 = __rdtsc(), t1 = __rdtsc();

	/* the program sees the mask it set */
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("sigcpuid %s: model %u, rdtsc %s, SIGILL %s, SIGSEGV %s, handler %s\n", mode, m,
	       t1 > t0 ? "advances" : "stands still", sigismember(&now, SIGILL) ? "blocked" : "unblocked",
	       sigismember(&now, SIGSEGV) ? "blocked" : "unblocked", handled ? "called" : "not called");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "flood"))
		return flood();
	if (argc >= 4 && !strcmp(argv[1], "hold"))
		return hold((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "conn"))
		return conn(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "sigcpuid"))
		return sigcpuid(argv[2]);
	fprintf(stderr, "usage: ct_robust flood | hold P N | conn MODE | sigcpuid MODE\n");
	return 2;
}
