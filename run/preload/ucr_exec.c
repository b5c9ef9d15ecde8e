/*
 * ucr_exec.c - new images in the preload library (libuncore-run.so): a
 * program started with an empty or cleaned environment still runs on the
 * machine.  likwid starts its access daemon with execve(path, argv, {NULL});
 * sudo-like helpers and env -i drop what they do not know.  execve,
 * execvpe, fexecve, posix_spawn and posix_spawnp here put back what the
 * library needs (its LD_PRELOAD entry and UNCORE_RUN_*) into the
 * environment they are given, and execv, execvp and execl* into `environ`
 * (which env -i empties before execvp: glibc's own calls between them do
 * not pass through here); everything else of it is left as it is.  A
 * statically linked image (or a script whose interpreter is one) cannot
 * load the library and would see the host: each of these warns, naming
 * it, before it runs.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Whether path is an ELF program without an interpreter (static, or
 * static-pie), or a script whose #! interpreter is one (depth: scripts
 * followed); *elf: that program's path. */
static int is_static(const char *path, int depth, const char **elf)
{
	static TLS char ip[PATH_MAX];

	unsigned char h[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC), interp = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, h, sizeof(h) - 1, 0);
	if (n >= 2 && h[0] == '#' && h[1] == '!') {
		size_t k = 2, e;

		close(fd);
		h[n] = 0;
		while (h[k] == ' ' || h[k] == '\t')
			k++;
		e = k + strcspn((char *)h + k, " \t\n");
		if (e == k || e - k >= sizeof(ip) || depth > 3)
			return 0;
		memcpy(ip, h + k, e - k);
		ip[e - k] = 0;
		return is_static(ip, depth + 1, elf);
	}
	if (n < (ssize_t)sizeof(Elf64_Ehdr) || memcmp(h, ELFMAG, SELFMAG) || h[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return 0;
	}
	const Elf64_Ehdr *eh = (const void *)h;

	for (unsigned i = 0; i < eh->e_phnum && !interp; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh->e_phoff + i * (uint64_t)eh->e_phentsize)) != sizeof(ph))
			break;
		interp = ph.p_type == PT_INTERP;
	}
	close(fd);
	*elf = path;
	return (eh->e_type == ET_EXEC || eh->e_type == ET_DYN) && !interp;
}

/* file as execvp would find it: itself if it has a slash, else the first
 * of PATH's directories that has it executable */
static const char *search(const char *file, char *buf, size_t n)
{
	const char *path = getenv("PATH");

	if (strchr(file, '/'))
		return file;
	for (const char *p = path ? path : "/bin:/usr/bin"; *p;) {
		size_t k = strcspn(p, ":");

		if (snprintf(buf, n, "%.*s%s%s", (int)k, p, k ? "/" : "", file) < (int)n && !access(buf, X_OK))
			return buf;
		p += k;
		p += *p == ':';
	}
	return NULL;
}

/* The warning for a static image (docs/tools.md, "Limits") */
static void warn_static(const char *path)
{
	char msg[2 * PATH_MAX + 200];
	const char *elf = NULL;
	int len;

	if (!ucr_active || !path || !is_static(path, 0, &elf))
		return;
	len = snprintf(msg, sizeof(msg),
		       "uncore run: warning: %s%s%s is statically linked: it cannot load the machine's library and "
		       "runs on the host, unserved (its CPUID, /proc, /sys and clocks are the host's)\n",
		       elf == path ? "" : path, elf == path ? "" : "'s interpreter ", elf);
	if (len > 0 && write(2, msg, (size_t)len < sizeof(msg) ? (size_t)len : sizeof(msg) - 1) < 0)
		return;
}

static void warn_static_file(const char *file)
{
	char buf[PATH_MAX];

	if (ucr_active && file)
		warn_static(search(file, buf, sizeof(buf)));
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
	warn_static(path);
	WITH_MACHINE_ENV(envp, real_execve(path, argv, ENV));
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	warn_static_file(file);
	WITH_MACHINE_ENV(envp, real_execvpe(file, argv, ENV));
}

EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	char fdpath[64];
	REAL(fexecve);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	warn_static(fdpath);
	WITH_MACHINE_ENV(envp, real_fexecve(fd, argv, ENV));
}

EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawn);
	warn_static(path);
	WITH_MACHINE_ENV(envp, real_posix_spawn(pid, path, fa, attr, argv, ENV));
}

EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(posix_spawnp);
	warn_static_file(file);
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
