/*
 * ucr_exec.c - new images in the preload library (libuncore-run.so): a
 * program started with an empty or cleaned environment still runs on the
 * machine.  likwid starts its access daemon with execve(path, argv, {NULL});
 * sudo-like helpers and env -i drop what they do not know.  execve,
 * execvpe, fexecve, posix_spawn and posix_spawnp here put back what the
 * library needs (its LD_PRELOAD entry and UNCORE_RUN_*) into the
 * environment they are given, and execv, execvp and execl* into `environ`
 * (which env -i empties before execvp: glibc's own calls between them do
 * not pass through here); everything else of it is left as it is.
 *
 * A program the library cannot reach (statically linked: no dynamic
 * loader reads LD_PRELOAD; 32-bit: the library cannot be loaded into it)
 * would run on the host, unseen: its exec is refused (EPERM, a shell says
 * 126), the program's stderr and the server are told, and the run fails.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ucr_preload.h"

static const char *const keep[] = { UCR_ENV_SOCK, UCR_ENV_ROOT, UCR_ENV_NCPU, UCR_ENV_CLOCK, UCR_ENV_LOG };
#define NKEEP (sizeof(keep) / sizeof(keep[0]))

static char *saved[NKEEP];   /* "NAME=value" as the library started with them */
static char lib_path[PATH_MAX]; /* this library's file */

void ucr_exec_init(void)
{
	Dl_info di;

	for (size_t i = 0; i < NKEEP; i++) {
		const char *v = getenv(keep[i]);
		size_t n = strlen(keep[i]) + (v ? strlen(v) : 0) + 2;

		if (v && (saved[i] = malloc(n)))
			snprintf(saved[i], n, "%s=%s", keep[i], v);
	}
	if (dladdr((void *)ucr_exec_init, &di) && di.dli_fname)
		snprintf(lib_path, sizeof(lib_path), "%s", di.dli_fname);
}

static const char *value_of(char *const envp[], const char *name, size_t *at)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, n) && envp[i][n] == '=') {
			*at = i;
			return envp[i] + n + 1;
		}
	return NULL;
}

/* whether a space- or colon-separated LD_PRELOAD list names this library */
static int lists_us(const char *list)
{
	size_t n = strlen(lib_path);

	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, " :");

		if (k == n && !strncmp(p, lib_path, n))
			return 1;
		p += k;
		p += strspn(p, " :");
	}
	return 0;
}

/* envp with what the library needs; NULL: envp as it is (nothing missing,
 * or no memory: the program then runs unserved, as it asked).  *buf holds
 * what to free. */
static char **fixed_env(char *const envp[], char **buf)
{
	size_t n = 0, extra = 0;
	const char *pre;
	char **e;

	*buf = NULL;
	if (!ucr_active || !lib_path[0])
		return NULL;
	while (envp && envp[n])
		n++;
	size_t pre_at = 0, scratch;

	pre = value_of(envp, "LD_PRELOAD", &pre_at);
	for (size_t i = 0; i < NKEEP; i++)
		extra += saved[i] && !value_of(envp, keep[i], &scratch);
	if (!extra && pre && lists_us(pre))
		return NULL;
	if (!(e = calloc(n + NKEEP + 2, sizeof(*e))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		e[i] = envp[i];
	for (size_t i = 0; i < NKEEP; i++)
		if (saved[i] && !value_of(envp, keep[i], &scratch))
			e[n++] = saved[i];
	if (!pre || !lists_us(pre)) {
		size_t len = strlen(lib_path) + (pre ? strlen(pre) : 0) + 16;

		if (!(*buf = malloc(len))) {
			free(e);
			return NULL;
		}
		snprintf(*buf, len, "LD_PRELOAD=%s%s%s", lib_path, pre && *pre ? " " : "", pre ? pre : "");
		if (pre)
			e[pre_at] = *buf;
		else
			e[n++] = *buf;
	}
	e[n] = NULL;
	return e;
}

/* Whether fd is the dynamic loader itself (run as a program, as ldd
 * does: it has no PT_INTERP, but reads LD_PRELOAD). */
static int is_loader(int fd)
{
	Dl_info di;
	struct stat a, b;
	unsigned long base = getauxval(AT_BASE);

	return base && dladdr((void *)base, &di) && di.dli_fname && !stat(di.dli_fname, &a) && !fstat(fd, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Why the program in fd cannot be reached, or NULL.  A #! script is its
 * interpreter's (the kernel starts the interpreter itself, not through
 * this library's exec), followed as the kernel does, 4 deep; *interp: the
 * interpreter that cannot be reached, or "" for the file itself. */
static const char *unreachable_fd(int fd, char *interp, size_t n, int depth)
{
	unsigned char h[sizeof(Elf64_Ehdr)];
	const Elf64_Ehdr *eh = (const void *)h;
	ssize_t got = pread(fd, h, sizeof(h), 0);

	if (!depth)
		interp[0] = 0;
	if (got >= 2 && h[0] == '#' && h[1] == '!' && depth < 4) {
		char line[PATH_MAX + 3];
		ssize_t k = pread(fd, line, sizeof(line) - 1, 0);
		size_t i = 2, e;
		const char *why = NULL;
		int ifd;

		line[k > 0 ? k : 0] = 0;
		i += strspn(line + i, " \t");
		e = i + strcspn(line + i, " \t\n");
		if (e == i || e - i >= n)
			return NULL;
		memcpy(interp, line + i, e - i);
		interp[e - i] = 0;
		if ((ifd = open(interp, O_RDONLY | O_CLOEXEC)) < 0)
			return NULL;
		why = unreachable_fd(ifd, interp, n, depth + 1);
		close(ifd);
		return why;
	}
	if (got != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return NULL;
	if (h[EI_CLASS] == ELFCLASS32) {
		const Elf32_Ehdr *e32 = (const void *)h;

		/* a 32-bit dynamic loader run as a program (ldd tries each it
		 * knows with --verify) is let be: what it loads is its own */
		if (e32->e_type == ET_DYN) {
			int has = 0;

			for (unsigned i = 0; i < e32->e_phnum && !has; i++) {
				Elf32_Phdr ph;

				if (pread(fd, &ph, sizeof(ph), (off_t)(e32->e_phoff + i * (uint32_t)e32->e_phentsize)) !=
				    sizeof(ph))
					return NULL;
				has = ph.p_type == PT_INTERP;
			}
			if (!has)
				return NULL;
		}
		return "is a 32-bit program: the machine's library (x86-64) cannot be loaded into it";
	}
	if (h[EI_CLASS] != ELFCLASS64 || (eh->e_type != ET_EXEC && eh->e_type != ET_DYN))
		return NULL;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh->e_phoff + i * (uint64_t)eh->e_phentsize)) != sizeof(ph))
			return NULL;
		if (ph.p_type == PT_INTERP)
			return NULL;
	}
	if (is_loader(fd))
		return NULL;
	return "is statically linked: the machine reaches a program through the dynamic loader (LD_PRELOAD), "
	       "which it does not use";
}

/* Nonzero (errno EPERM) if the program at path (file, searched in PATH
 * when it has no '/'; or fd) cannot be reached: said on stderr and to the
 * server. */
static int refuse_unreachable(const char *file, int search, int fd)
{
	char path[PATH_MAX];
	const char *why;
	int own = -1;

	if (!ucr_active)
		return 0;
	if (fd < 0 && search && !strchr(file, '/')) {
		const char *p = getenv("PATH");

		for (p = p ? p : "/bin:/usr/bin"; *p && own < 0;) {
			size_t l = strcspn(p, ":");

			snprintf(path, sizeof(path), "%.*s%s%s", (int)l, p, l ? "/" : "", file);
			if (!access(path, X_OK))
				own = open(path, O_RDONLY | O_CLOEXEC);
			p += l + (p[l] == ':');
		}
		file = path;
	} else if (fd < 0) {
		own = open(file, O_RDONLY | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "descriptor %d", fd);
		file = path;
	}
	char interp[PATH_MAX];

	why = own >= 0 || fd >= 0 ? unreachable_fd(own >= 0 ? own : fd, interp, sizeof(interp), 0) : NULL;
	if (own >= 0)
		close(own);
	if (!why)
		return 0;
	if (interp[0])
		ucr_warn("%s's interpreter %s %s; not run", file, interp, why);
	else
		ucr_warn("%s %s; not run", file, why);
	{
		struct ucr_req_data q;
		struct ucr_rsp_data r;
		size_t n = strlen(file) + 1, got;

		memset(&q.h, 0, sizeof(q.h));
		q.h.op = UCR_UNREACHED;
		if (n > sizeof(q.data))
			n = sizeof(q.data);
		memcpy(q.data, file, n);
		q.data[n - 1] = 0;
		ucr_call_data(&q, n, &r, &got);
	}
	errno = EPERM;
	return 1;
}

/* The real call with the environment it was given made whole: ENV names
 * it in the call. */
#define WITH_MACHINE_ENV(envp, call) \
	do { \
		char *buf_, **e_ = fixed_env(envp, &buf_); \
		char *const *ENV = e_ ? e_ : (envp); \
		int rc_ = (call); \
		free(e_); \
		free(buf_); \
		return rc_; \
	} while (0)

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	if (refuse_unreachable(path, 0, -1))
		return -1;
	WITH_MACHINE_ENV(envp, real_execve(path, argv, ENV));
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	if (refuse_unreachable(file, 1, -1))
		return -1;
	WITH_MACHINE_ENV(envp, real_execvpe(file, argv, ENV));
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL(fexecve);
	if (refuse_unreachable(NULL, 0, fd))
		return -1;
	WITH_MACHINE_ENV(envp, real_fexecve(fd, argv, ENV));
}

EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawn);
	if (refuse_unreachable(path, 0, -1))
		return EPERM;
	WITH_MACHINE_ENV(envp, real_posix_spawn(pid, path, fa, attr, argv, ENV));
}

EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawnp);
	if (refuse_unreachable(file, 1, -1))
		return EPERM;
	WITH_MACHINE_ENV(envp, real_posix_spawnp(pid, file, fa, attr, argv, ENV));
}

/* the ones that pass `environ` */
EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* execl, execlp, execle: the argument list as an argv (at most 4096
 * arguments: more is E2BIG, as the kernel's limit would be) */
#define ARGV_OF(first, ap, argv, n) \
	do { \
		argv[0] = (char *)(first); \
		for (n = 1; (argv[n] = va_arg(ap, char *)); n++) \
			if (n == 4096) { \
				va_end(ap); \
				errno = E2BIG; \
				return -1; \
			} \
	} while (0)

EXPORT int execl(const char *path, const char *arg, ...)
{
	char *argv[4097];
	va_list ap;
	size_t n;

	va_start(ap, arg);
	ARGV_OF(arg, ap, argv, n);
	va_end(ap);
	return execve(path, argv, environ);
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
	char *argv[4097];
	va_list ap;
	size_t n;

	va_start(ap, arg);
	ARGV_OF(arg, ap, argv, n);
	va_end(ap);
	return execvpe(file, argv, environ);
}

EXPORT int execle(const char *path, const char *arg, ...)
{
	char *argv[4097], *const *envp;
	va_list ap;
	size_t n;

	va_start(ap, arg);
	ARGV_OF(arg, ap, argv, n);
	envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}
