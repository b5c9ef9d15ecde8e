/*
 * ucr_trap.c - the instructions a tool executes that the machine must
 * answer: CPUID, RDTSC and RDTSCP, and loads and stores to device memory
 * mapped from /dev/mem.  Part of the preload library (libuncore-run.so).
 *
 * The host CPU answers CPUID itself and cannot be told to fault on it (no
 * CPUID faulting on the AMD machines this runs on), so every CPUID (0F A2)
 * and RDTSC (0F 31) of the loaded program and its libraries is rewritten to
 * UD2 (0F 0B, the same length) and served from the SIGILL handler; RDTSCP
 * (0F 01 F9) becomes UD2 + NOP.  The instructions are found by
 * disassembling each object's executable sections with capstone, never by
 * byte search (0F A2 also appears inside other instructions and data).
 * Disassembling a large program and its libraries takes most of a second
 * (perf: 0.6 s), so what one process of a run found in an object file is
 * kept in the run's private directory, under the file's identity (device,
 * inode, size, modification time), and the next process that loads it
 * rewrites the same places after checking each holds the instruction.
 * Device memory is mapped without access; the SIGSEGV handler decodes the
 * faulting MOV and performs it on the model.
 */
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "ucr_preload.h"

/* ---- the table of rewritten instructions ---- */

enum { T_CPUID = 1, T_RDTSC, T_RDTSCP };

#define PATCH_SLOTS 16384 /* power of two */

/* Insert-only open addressing: an entry is complete before its UD2 is
 * written, and a fault on that UD2 is what makes a reader look. */
static struct {
	_Atomic uintptr_t addr;
	uint8_t kind, len;
} patches[PATCH_SLOTS];
static atomic_uint npatches;

static size_t slot_of(uintptr_t a)
{
	return (size_t)((a * 0x9E3779B97F4A7C15ull) >> 50) & (PATCH_SLOTS - 1);
}

static int patch_add(uintptr_t a, unsigned kind, unsigned len)
{
	size_t i = slot_of(a);

	if (atomic_load(&npatches) >= PATCH_SLOTS * 3 / 4)
		return -ENOSPC;
	for (;; i = (i + 1) & (PATCH_SLOTS - 1)) {
		uintptr_t cur = atomic_load(&patches[i].addr);

		if (cur == a)
			return 0;
		if (!cur) {
			patches[i].kind = (uint8_t)kind;
			patches[i].len = (uint8_t)len;
			atomic_store(&patches[i].addr, a);
			atomic_fetch_add(&npatches, 1);
			return 1;
		}
	}
}

static int patch_find(uintptr_t a, unsigned *kind, unsigned *len)
{
	for (size_t i = slot_of(a);; i = (i + 1) & (PATCH_SLOTS - 1)) {
		uintptr_t cur = atomic_load(&patches[i].addr);

		if (!cur)
			return 0;
		if (cur == a) {
			*kind = patches[i].kind;
			*len = patches[i].len;
			return 1;
		}
	}
}

/* ---- finding and rewriting ---- */

static csh cs_scan;                 /* no detail: finding instructions */
static csh cs_mem;                  /* detail: decoding a faulting MOV */
static cs_insn *cs_mem_insn;
static atomic_flag cs_mem_lock = ATOMIC_FLAG_INIT;
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;

#define MAXOBJ 512
static uintptr_t scanned[MAXOBJ];   /* program headers of each object done */
static unsigned nscanned;

/* What a scan found, for the cache: offsets from the object's load base */
struct found {
	uint64_t off;
	uint8_t kind, len, pad[6];
};
static struct found *found;
static size_t nfound, capfound;

static void found_add(uint64_t off, unsigned kind, unsigned len)
{
	if (nfound == capfound) {
		size_t cap = capfound ? capfound * 2 : 64;
		struct found *p = realloc(found, cap * sizeof(*p));

		if (!p) {
			capfound = SIZE_MAX; /* no cache of this object, the scan goes on */
			return;
		}
		found = p;
		capfound = cap;
	}
	if (capfound != SIZE_MAX)
		found[nfound++] = (struct found){ off, (uint8_t)kind, (uint8_t)len, { 0 } };
}

static int write_code(uintptr_t a, const uint8_t *bytes, unsigned n)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t lo = a & ~(uintptr_t)(pg - 1), hi = (a + n + pg - 1) & ~(uintptr_t)(pg - 1);

	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC))
		return -errno;
	memcpy((void *)a, bytes, n);
	__builtin___clear_cache((char *)a, (char *)a + n);
	return mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC) ? -errno : 0;
}

static const uint8_t ud2[] = { 0x0F, 0x0B, 0x90 };

static void rewrite(const char *obj, uintptr_t a, unsigned kind, unsigned len)
{
	if (patch_add(a, kind, len) < 0)
		ucr_die("too many CPUID/RDTSC instructions to rewrite (more than %d)", PATCH_SLOTS * 3 / 4);
	if (write_code(a, ud2, len))
		ucr_die("%s: cannot rewrite the instruction at %#lx: %s", obj, (unsigned long)a, strerror(errno));
}

/* Rewrite the CPUID/RDTSC/RDTSCP instructions of [code, code+size) at
 * run-time address addr, of an object loaded at base. */
static unsigned scan_range(const char *obj, uintptr_t base, uintptr_t addr, size_t size)
{
	const uint8_t *code = (const uint8_t *)addr;
	uint64_t pc = addr;
	cs_insn *insn = cs_malloc(cs_scan);
	unsigned n = 0;

	if (!insn)
		return 0;
	while (size) {
		if (!cs_disasm_iter(cs_scan, &code, &size, &pc, insn)) {
			/* not an instruction (padding, data): resynchronise */
			code++;
			pc++;
			size--;
			continue;
		}
		unsigned kind = insn->id == X86_INS_CPUID ? T_CPUID : insn->id == X86_INS_RDTSC ? T_RDTSC
			      : insn->id == X86_INS_RDTSCP ? T_RDTSCP : 0;

		if (!kind)
			continue;
		/* only the plain encodings (no prefixes): the ones compilers emit */
		if ((kind == T_RDTSCP && (insn->size != 3 || memcmp(insn->bytes, "\x0f\x01\xf9", 3))) ||
		    (kind != T_RDTSCP && insn->size != 2)) {
			ucr_log("%s: %s at %#lx has prefixes; left alone", obj, insn->mnemonic,
				(unsigned long)insn->address);
			continue;
		}
		found_add(insn->address - base, kind, insn->size);
		rewrite(obj, (uintptr_t)insn->address, kind, insn->size);
		n++;
	}
	cs_free(insn, 1);
	return n;
}

/* The cache file of an object file: in the run's directory (the parent
 * of the machine's tree, private to the user who started the run) */
static int cache_path(char *p, size_t n, const struct stat *st)
{
	const char *slash = strrchr(ucr_root, '/');

	if (!slash)
		return -1;
	return snprintf(p, n, "%.*s/scan/%llx-%llx-%llx-%llx.%09ld", (int)(slash - ucr_root), ucr_root,
			(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
			(unsigned long long)st->st_size, (unsigned long long)st->st_mtim.tv_sec,
			(long)st->st_mtim.tv_nsec) >= (int)n ? -1 : 0;
}

/* Rewrite what an earlier process found in the same file; 0 if there is
 * no cache of it or it does not match the code (then the scan runs) */
static int from_cache(const char *path, uintptr_t base, const struct stat *st, unsigned *n)
{
	static const uint8_t enc[][3] = { { 0 }, { 0x0F, 0xA2 }, { 0x0F, 0x31 }, { 0x0F, 0x01, 0xF9 } };
	char p[PATH_MAX];
	struct stat cs;
	struct found *f;
	size_t k;
	int fd, ok = 1;

	if (cache_path(p, sizeof(p), st) || (fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &cs) || cs.st_size % sizeof(*f) || !(f = malloc((size_t)cs.st_size + 1))) {
		close(fd);
		return 0;
	}
	ok = read(fd, f, (size_t)cs.st_size) == cs.st_size;
	close(fd);
	k = (size_t)cs.st_size / sizeof(*f);
	for (size_t i = 0; ok && i < k; i++)
		ok = f[i].kind >= T_CPUID && f[i].kind <= T_RDTSCP && f[i].len == (f[i].kind == T_RDTSCP ? 3 : 2) &&
		     !memcmp((const void *)(base + f[i].off), enc[f[i].kind], f[i].len);
	for (size_t i = 0; ok && i < k; i++)
		rewrite(path, base + f[i].off, f[i].kind, f[i].len);
	free(f);
	*n = (unsigned)k;
	return ok;
}

static void to_cache(const struct stat *st)
{
	char p[PATH_MAX], tmp[PATH_MAX + 32], *slash;
	int fd, ok;

	if (capfound == SIZE_MAX || cache_path(p, sizeof(p), st))
		return;
	snprintf(tmp, sizeof(tmp), "%s", p);
	slash = strrchr(tmp, '/');
	*slash = 0;
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return;
	snprintf(tmp, sizeof(tmp), "%s.%ld", p, (long)getpid());
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		return;
	ok = write(fd, found, nfound * sizeof(*found)) == (ssize_t)(nfound * sizeof(*found));
	ok = !close(fd) && ok;
	if (!ok || rename(tmp, p))
		unlink(tmp);
}

/* An object's executable sections, from its file's section headers; the
 * executable PT_LOAD segments when the file cannot be read. */
static void scan_object(struct dl_phdr_info *info, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned n = 0;
	int done = 0;

	if (fd >= 0 && !fstat(fd, &st) && st.st_size >= (off_t)sizeof(Elf64_Ehdr)) {
		if (from_cache(path, info->dlpi_addr, &st, &n)) {
			close(fd);
			if (n)
				ucr_log("%s: %u CPUID/RDTSC instructions served by the machine (found before)", path, n);
			return;
		}
		const uint8_t *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (f != MAP_FAILED) {
			const Elf64_Ehdr *eh = (const void *)f;

			if (!memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_shoff && eh->e_shentsize == sizeof(Elf64_Shdr) &&
			    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) <= (uint64_t)st.st_size) {
				const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);

				nfound = 0;
				capfound = capfound == SIZE_MAX ? 0 : capfound;
				for (unsigned i = 0; i < eh->e_shnum; i++)
					if (sh[i].sh_type == SHT_PROGBITS && (sh[i].sh_flags & SHF_EXECINSTR) &&
					    (sh[i].sh_flags & SHF_ALLOC))
						n += scan_range(path, info->dlpi_addr, info->dlpi_addr + sh[i].sh_addr,
								sh[i].sh_size);
				to_cache(&st);
				done = 1;
			}
			munmap((void *)f, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
	if (!done)
		for (int i = 0; i < info->dlpi_phnum; i++)
			if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X))
				n += scan_range(path, info->dlpi_addr, info->dlpi_addr + info->dlpi_phdr[i].p_vaddr,
						info->dlpi_phdr[i].p_memsz);
	if (n)
		ucr_log("%s: %u CPUID/RDTSC instructions served by the machine", path, n);
}

/* Objects whose CPUID and RDTSC are left to the host: the loader and libc
 * (they identified the host CPU before this library ran, for their own
 * string functions), capstone, and this library. */
static int skipped(const char *name)
{
	static const char *const skip[] = { "/ld-linux", "/libc.so", "/libcapstone", "linux-vdso", "/libuncore-run" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strstr(name, skip[i]))
			return 1;
	return 0;
}

static int scan_one(struct dl_phdr_info *info, size_t sz, void *ctx)
{
	uintptr_t id = (uintptr_t)info->dlpi_phdr;   /* unique to a loaded object */
	const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : NULL;
	char exe[4096];

	(void)sz;
	(void)ctx;
	for (unsigned i = 0; i < nscanned; i++)
		if (scanned[i] == id)
			return 0;
	if (nscanned < MAXOBJ)
		scanned[nscanned++] = id;
	if (!name) {
		/* the main program (the vdso also has no path but a name) */
		ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (k <= 0)
			return 0;
		exe[k] = 0;
		name = exe;
	}
	if (skipped(name) || name[0] != '/')
		return 0;
	scan_object(info, name);
	return 0;
}

void ucr_trap_scan(void)
{
	pthread_mutex_lock(&scan_lock);
	dl_iterate_phdr(scan_one, NULL);
	pthread_mutex_unlock(&scan_lock);
}

/* ---- device memory ---- */

#define MAXREG 64
static struct {
	_Atomic uintptr_t start;
	size_t len;
	uint64_t pa;
} regions[MAXREG];

void *ucr_trap_map(size_t len, uint64_t pa)
{
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return p;
	for (unsigned i = 0; i < MAXREG; i++) {
		uintptr_t z = 0;

		regions[i].len = len;
		regions[i].pa = pa;
		if (atomic_compare_exchange_strong(&regions[i].start, &z, (uintptr_t)p)) {
			ucr_log("/dev/mem: %zu bytes at physical %#llx mapped at %p (served by the machine)",
				len, (unsigned long long)pa, p);
			return p;
		}
	}
	munmap(p, len);
	errno = ENOMEM;
	return MAP_FAILED;
}

int ucr_trap_unmap(void *p, size_t len)
{
	for (unsigned i = 0; i < MAXREG; i++)
		if (atomic_load(&regions[i].start) == (uintptr_t)p) {
			atomic_store(&regions[i].start, 0);
			(void)len;
			return 1;
		}
	return 0;
}

static int region_of(uintptr_t a, uint64_t *pa)
{
	for (unsigned i = 0; i < MAXREG; i++) {
		uintptr_t s = atomic_load(&regions[i].start);

		if (s && a >= s && a < s + regions[i].len) {
			*pa = regions[i].pa + (a - s);
			return 1;
		}
	}
	return 0;
}

/* Where a capstone register lives in the signal context, and which bits. */
static int reg_slot(unsigned r, int *greg, unsigned *bits, unsigned *shift)
{
	static const struct { uint16_t r64, r32, r16, r8, r8h; int g; } map[] = {
		{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH, REG_RAX },
		{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH, REG_RBX },
		{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH, REG_RCX },
		{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH, REG_RDX },
		{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0, REG_RSI },
		{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0, REG_RDI },
		{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0, REG_RBP },
		{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0, REG_RSP },
		{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B, 0, REG_R8 },
		{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B, 0, REG_R9 },
		{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B, 0, REG_R10 },
		{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B, 0, REG_R11 },
		{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B, 0, REG_R12 },
		{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B, 0, REG_R13 },
		{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B, 0, REG_R14 },
		{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B, 0, REG_R15 },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		*greg = map[i].g;
		*shift = 0;
		if (r == map[i].r64)
			*bits = 64;
		else if (r == map[i].r32)
			*bits = 32;
		else if (r == map[i].r16)
			*bits = 16;
		else if (r == map[i].r8)
			*bits = 8;
		else if (map[i].r8h && r == map[i].r8h)
			*bits = 8, *shift = 8;
		else
			continue;
		return 0;
	}
	return -1;
}

static uint64_t sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* A device-memory access of width bytes: the model serves 4 and 8-byte
 * accesses; narrower ones are carried out on the dword that holds them. */
static int mem_rw(uint64_t pa, unsigned width, uint64_t *v, int write)
{
	if (width == 4 || width == 8)
		return write ? ucr_mmio_write(pa, width, *v) : ucr_mmio_read(pa, width, v);
	uint64_t base = pa & ~3ull, dw;
	unsigned sh = (unsigned)(pa - base) * 8;
	uint64_t m = ((1ull << (8 * width)) - 1) << sh;
	int rc = ucr_mmio_read(base, 4, &dw);

	if (rc)
		return rc;
	if (!write) {
		*v = (dw & m) >> sh;
		return 0;
	}
	return ucr_mmio_write(base, 4, (dw & ~m) | ((*v << sh) & m));
}

/* Perform the MOV at the context's RIP that faulted on device memory;
 * 0 if done, else a message in why. */
static int emulate_mov(ucontext_t *uc, uint64_t pa, char *why, size_t n)
{
	greg_t *g = uc->uc_mcontext.gregs;
	const uint8_t *code = (const uint8_t *)g[REG_RIP];
	size_t size = 15;
	uint64_t pc = (uint64_t)g[REG_RIP];
	int rc = -1;

	while (atomic_flag_test_and_set(&cs_mem_lock))
		;
	if (!cs_disasm_iter(cs_mem, &code, &size, &pc, cs_mem_insn)) {
		snprintf(why, n, "an undecodable instruction");
		goto out;
	}
	cs_insn *in = cs_mem_insn;
	cs_x86 *x = &in->detail->x86;
	unsigned id = in->id;

	if ((id != X86_INS_MOV && id != X86_INS_MOVZX && id != X86_INS_MOVSX && id != X86_INS_MOVSXD &&
	     id != X86_INS_MOVABS) || x->op_count != 2) {
		snprintf(why, n, "'%s %s' (only MOV, MOVZX and MOVSX reach device memory here)", in->mnemonic,
			 in->op_str);
		goto out;
	}
	cs_x86_op *d = &x->operands[0], *s = &x->operands[1];
	int greg;
	unsigned bits, shift;
	uint64_t v;

	if (d->type == X86_OP_REG && s->type == X86_OP_MEM) {
		if (reg_slot(d->reg, &greg, &bits, &shift)) {
			snprintf(why, n, "'%s %s': unsupported destination", in->mnemonic, in->op_str);
			goto out;
		}
		if ((rc = mem_rw(pa, s->size, &v, 0))) {
			snprintf(why, n, "%s", ucr_last_error());
			goto out;
		}
		if (id == X86_INS_MOVSX || id == X86_INS_MOVSXD)
			v = sext(v, 8u * s->size);
		if (bits == 64)
			g[greg] = (greg_t)v;
		else if (bits == 32)
			g[greg] = (greg_t)(uint32_t)v;
		else {
			uint64_t m = ((1ull << bits) - 1) << shift;

			g[greg] = (greg_t)(((uint64_t)g[greg] & ~m) | ((v << shift) & m));
		}
	} else if (d->type == X86_OP_MEM && (s->type == X86_OP_REG || s->type == X86_OP_IMM)) {
		if (s->type == X86_OP_IMM) {
			v = (uint64_t)s->imm;
		} else {
			if (reg_slot(s->reg, &greg, &bits, &shift)) {
				snprintf(why, n, "'%s %s': unsupported source", in->mnemonic, in->op_str);
				goto out;
			}
			v = (uint64_t)g[greg] >> shift;
		}
		if (d->size < 8)
			v &= (1ull << (8 * d->size)) - 1;
		if ((rc = mem_rw(pa, d->size, &v, 1))) {
			snprintf(why, n, "%s", ucr_last_error());
			goto out;
		}
	} else {
		snprintf(why, n, "'%s %s': not a load or store of a register", in->mnemonic, in->op_str);
		goto out;
	}
	g[REG_RIP] += in->size;
	rc = 0;
out:
	atomic_flag_clear(&cs_mem_lock);
	return rc;
}

/* ---- signal handlers, and the program's own ---- */

static struct sigaction prog_act[NSIG];
static atomic_int prog_set[NSIG];

/* The program's handler runs when the fault is not the machine's; with
 * none, the default action (the fault repeats after return and kills). */
static void chain(int sig, siginfo_t *si, void *ctx)
{
	if (atomic_load(&prog_set[sig]) && prog_act[sig].sa_handler != SIG_DFL &&
	    prog_act[sig].sa_handler != SIG_IGN) {
		if (prog_act[sig].sa_flags & SA_SIGINFO)
			prog_act[sig].sa_sigaction(sig, si, ctx);
		else
			prog_act[sig].sa_handler(sig);
		return;
	}
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	ucr_real_sigaction(sig, &dfl, NULL);
}

static void on_sigill(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;
	unsigned kind, len;
	uint64_t r[4];

	if (!patch_find((uintptr_t)g[REG_RIP], &kind, &len)) {
		chain(sig, si, ctx);
		return;
	}
	if (kind == T_CPUID) {
		if (ucr_cpuid((uint32_t)g[REG_RAX], (uint32_t)g[REG_RCX], r))
			ucr_die("CPUID leaf %#x: %s", (unsigned)(uint32_t)g[REG_RAX], ucr_last_error());
		g[REG_RAX] = (greg_t)(uint32_t)r[0];
		g[REG_RBX] = (greg_t)(uint32_t)r[1];
		g[REG_RCX] = (greg_t)(uint32_t)r[2];
		g[REG_RDX] = (greg_t)(uint32_t)r[3];
	} else {
		uint64_t tsc, aux;

		if (ucr_tsc(&tsc, &aux))
			ucr_die("RDTSC: %s", ucr_last_error());
		g[REG_RAX] = (greg_t)(uint32_t)tsc;
		g[REG_RDX] = (greg_t)(uint32_t)(tsc >> 32);
		if (kind == T_RDTSCP)
			g[REG_RCX] = (greg_t)(uint32_t)aux;
	}
	g[REG_RIP] += len;
}

static void on_sigsegv(int sig, siginfo_t *si, void *ctx)
{
	uint64_t pa;
	char why[256];
	int saved = errno;

	if (!region_of((uintptr_t)si->si_addr, &pa)) {
		chain(sig, si, ctx);
		return;
	}
	if (emulate_mov(ctx, pa, why, sizeof(why)))
		ucr_die("device memory at physical %#llx (mapped from /dev/mem): %s",
			(unsigned long long)pa, why);
	errno = saved;
}

/* sigaction/signal for SIGILL and SIGSEGV: the program's handler is kept
 * and chained; the machine's stays installed. */
int ucr_trap_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGILL && sig != SIGSEGV)
		return 1;
	if (old) {
		if (atomic_load(&prog_set[sig]))
			*old = prog_act[sig];
		else
			memset(old, 0, sizeof(*old));
	}
	if (act) {
		prog_act[sig] = *act;
		atomic_store(&prog_set[sig], 1);
	}
	return 0;
}

/* ---- the program's signal mask ---- */

/* SIGILL and SIGSEGV are how the machine answers CPUID, RDTSC and device
 * memory: a synchronous signal that is blocked kills the process (the
 * kernel forces the default action).  They stay unblocked in every
 * thread, whatever the program blocks (sigprocmask, pthread_sigmask,
 * rt_sigprocmask through syscall(), a handler's sa_mask, a mask inherited
 * from whoever started the run); which of them the program wants blocked
 * is kept per thread, inherited by a new thread, and shown to it in the
 * old mask (a new image after an exec inside the run starts with none).
 * A signal of the program's own among them (raise(SIGSEGV)) is
 * then delivered rather than held. */
static TLS unsigned t_wanted; /* 1: SIGILL, 2: SIGSEGV */

unsigned ucr_trap_wanted(void)
{
	return t_wanted;
}

void ucr_trap_wanted_set(unsigned w)
{
	t_wanted = w;
}

static unsigned trap_bits(const sigset_t *set)
{
	return (sigismember(set, SIGILL) == 1) | (sigismember(set, SIGSEGV) == 1) << 1;
}

static unsigned wanted_after(int how, unsigned now, unsigned b)
{
	return how == SIG_BLOCK ? now | b : how == SIG_UNBLOCK ? now & ~b : b;
}

int ucr_trap_sigmask(int how, const sigset_t *set, sigset_t *old, int (*real)(int, const sigset_t *, sigset_t *))
{
	unsigned prev = t_wanted;
	sigset_t s;
	int rc;

	if (set && (how == SIG_BLOCK || how == SIG_UNBLOCK || how == SIG_SETMASK)) {
		t_wanted = wanted_after(how, prev, trap_bits(set));
		s = *set;
		sigdelset(&s, SIGILL);
		sigdelset(&s, SIGSEGV);
		set = &s;
	}
	if ((rc = real(how, set, old))) {
		t_wanted = prev;
		return rc;
	}
	if (old) {
		(prev & 1 ? sigaddset : sigdelset)(old, SIGILL);
		(prev & 2 ? sigaddset : sigdelset)(old, SIGSEGV);
	}
	return 0;
}

long ucr_trap_rt_sigprocmask(int how, const void *set, void *old, size_t size)
{
	const uint64_t ill = 1ull << (SIGILL - 1), segv = 1ull << (SIGSEGV - 1);
	unsigned prev = t_wanted;
	uint64_t k;
	long rc;
	REAL(syscall);

	if (size != sizeof(k))
		return real_syscall(SYS_rt_sigprocmask, how, set, old, size);
	if (set && (how == SIG_BLOCK || how == SIG_UNBLOCK || how == SIG_SETMASK)) {
		memcpy(&k, set, sizeof(k));
		t_wanted = wanted_after(how, prev, (unsigned)((k & ill) != 0) | (unsigned)((k & segv) != 0) << 1);
		k &= ~(ill | segv);
		set = &k;
	}
	if ((rc = real_syscall(SYS_rt_sigprocmask, how, set, old, size))) {
		t_wanted = prev;
		return rc;
	}
	if (old) {
		memcpy(&k, old, sizeof(k));
		k = (k & ~(ill | segv)) | (prev & 1 ? ill : 0) | (prev & 2 ? segv : 0);
		memcpy(old, &k, sizeof(k));
	}
	return 0;
}

const struct sigaction *ucr_trap_handler_mask(const struct sigaction *act, struct sigaction *buf)
{
	if (!act)
		return act;
	*buf = *act;
	sigdelset(&buf->sa_mask, SIGILL);
	sigdelset(&buf->sa_mask, SIGSEGV);
	return buf;
}

void ucr_trap_init(void)
{
	struct sigaction sa;
	sigset_t traps, was;
	int (*real_mask)(int, const sigset_t *, sigset_t *) =
		(int (*)(int, const sigset_t *, sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs_scan) != CS_ERR_OK ||
	    cs_open(CS_ARCH_X86, CS_MODE_64, &cs_mem) != CS_ERR_OK)
		ucr_die("capstone: cannot open an x86-64 disassembler");
	cs_option(cs_mem, CS_OPT_DETAIL, CS_OPT_ON);
	cs_mem_insn = cs_malloc(cs_mem);
	if (!cs_mem_insn)
		ucr_die("capstone: out of memory");
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_sigill;
	ucr_real_sigaction(SIGILL, &sa, NULL);
	sa.sa_sigaction = on_sigsegv;
	ucr_real_sigaction(SIGSEGV, &sa, NULL);
	/* a mask inherited across exec */
	sigemptyset(&traps);
	sigaddset(&traps, SIGILL);
	sigaddset(&traps, SIGSEGV);
	if (real_mask && !real_mask(SIG_UNBLOCK, &traps, &was))
		t_wanted = trap_bits(&was);
	ucr_trap_scan();
}
