/*
 * t_hw.c - the hardware backend without root or Intel hardware: fake trees
 * of ordinary files under a root directory (pread/pwrite at an offset and
 * mmap work on files as on the devices).  Checked here: the same accesses
 * in the same order as on the simulator; the values the tree holds; every
 * register left as found on normal exit, error exit, SIGINT, SIGTERM and
 * SIGHUP; no write outside the platform's registers over whole address
 * ranges; msr-safe's batch ioctl (interposed) once per sample; a clear
 * one-line error for each way the machine can refuse.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct.h"
#include "ucb.h"
#include "ucb_hw.h"
#include "ucd.h"
#include "ucm.h"

#define BAR 0xFED10000ull
#define MSR_BYTES (0x1000 * 8)  /* MSRs 0..0xFFF at 8 bytes each */

static char root[256];

static void mkdirs(const char *fmt, ...)
{
	char p[512], cmd[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", p);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "mkdir %s", p);
}

static void put(const char *rel, uint64_t off, const void *buf, size_t n)
{
	char p[800];
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || pwrite(fd, buf, n, (off_t)off) != (ssize_t)n)
		ct_fail(__FILE__, __LINE__, "writing %s", p);
	if (fd >= 0)
		close(fd);
}

static void put64(const char *rel, uint64_t off, uint64_t v)
{
	put(rel, off, &v, 8);
}

/* A test tree keeps MSR n at byte 8n (docs/hw-validation.md). */
static void put_msr(unsigned cpu, uint32_t msr, uint64_t v)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "/dev/cpu/%u/msr", cpu);
	put64(rel, (uint64_t)msr * 8, v);
}

static void put32(const char *rel, uint64_t off, uint32_t v)
{
	put(rel, off, &v, 4);
}

static void text(const char *rel, const char *s)
{
	put(rel, 0, s, strlen(s));
}

static void sized(const char *rel, uint64_t size)
{
	char p[800];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (truncate(p, (off_t)size))
		ct_fail(__FILE__, __LINE__, "truncate %s", p);
}

enum { MSR_SAFE = 1 };

/* A Skylake desktop as the kernel shows it: 4 cpus in one package, the
 * msr devices, the host bridge's config space, physical memory. */
static void make_tree(const char *name, int flags)
{
	char cmd[600];
	static const uint8_t zero4k[4096];

	snprintf(root, sizeof(root), "/tmp/uncore-t-hw-%d-%s", (int)getpid(), name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "rm");
	for (unsigned c = 0; c < 4; c++) {
		char rel[128];

		mkdirs("%s/sys/devices/system/cpu/cpu%u/topology", root, c);
		mkdirs("%s/dev/cpu/%u", root, c);
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		text(rel, "0\n");
		snprintf(rel, sizeof(rel), "/dev/cpu/%u/%s", c, flags & MSR_SAFE ? "msr_safe" : "msr");
		put(rel, 0, zero4k, sizeof(zero4k));
		sized(rel, MSR_BYTES);
		put64(rel, 0x396 * 8, 5); /* CBO_CONFIG: 4 CBos + 1 */
	}
	if (flags & MSR_SAFE)
		text("/dev/cpu/msr_batch", "");
	mkdirs("%s/proc", root);
	text("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 94\n"
			      "model name\t: Intel(R) Core(TM) i7-6700 CPU @ 3.40GHz\nstepping\t: 3\n\n");
	mkdirs("%s/sys/bus/pci/devices/0000:00:00.0", root);
	put("/sys/bus/pci/devices/0000:00:00.0/config", 0, zero4k, sizeof(zero4k));
	put32("/sys/bus/pci/devices/0000:00:00.0/config", 0, 0x191F8086u);
	put64("/sys/bus/pci/devices/0000:00:00.0/config", 0x48, BAR | 1);
	text("/dev/mem", "");
	sized("/dev/mem", BAR + 0x8000);
}

static void rm_tree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ct_fail(__FILE__, __LINE__, "rm");
}

/* The bytes of every register file, to compare before and after. */
struct snap {
	uint8_t msr[4][MSR_BYTES];
	uint8_t cfg[4096];
	uint8_t mem[0x8000];
};

static void snapshot(struct snap *s, int flags)
{
	char p[512];
	int fd;

	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "%s/dev/cpu/%u/%s", root, c, flags & MSR_SAFE ? "msr_safe" : "msr");
		fd = open(p, O_RDONLY);
		if (fd < 0 || pread(fd, s->msr[c], MSR_BYTES, 0) != MSR_BYTES)
			ct_fail(__FILE__, __LINE__, "read %s", p);
		if (fd >= 0)
			close(fd);
	}
	snprintf(p, sizeof(p), "%s/sys/bus/pci/devices/0000:00:00.0/config", root);
	fd = open(p, O_RDONLY);
	if (fd < 0 || pread(fd, s->cfg, 4096, 0) != 4096)
		ct_fail(__FILE__, __LINE__, "read %s", p);
	if (fd >= 0)
		close(fd);
	snprintf(p, sizeof(p), "%s/dev/mem", root);
	fd = open(p, O_RDONLY);
	if (fd < 0 || pread(fd, s->mem, sizeof(s->mem), (off_t)BAR) != (ssize_t)sizeof(s->mem))
		ct_fail(__FILE__, __LINE__, "read %s", p);
	if (fd >= 0)
		close(fd);
}

static void check_same(const struct snap *a, const struct snap *b, const char *when)
{
	for (unsigned c = 0; c < 4; c++)
		for (unsigned i = 0; i < MSR_BYTES; i++)
			if (a->msr[c][i] != b->msr[c][i]) {
				ct_fail(__FILE__, __LINE__, "%s: cpu %u MSR 0x%x byte %u differs", when, c, i / 8,
					i % 8);
				return;
			}
	if (memcmp(a->cfg, b->cfg, sizeof(a->cfg)))
		ct_fail(__FILE__, __LINE__, "%s: PCI config differs", when);
	if (memcmp(a->mem, b->mem, sizeof(a->mem)))
		ct_fail(__FILE__, __LINE__, "%s: MMIO differs", when);
}

static struct ucb *hw(int msr)
{
	struct ucb_hw_opts o = { root, msr, UCB_HW_AUTO };
	struct ucb *b;
	char err[512];

	if (ucb_hw_create(&o, &b, err, sizeof(err))) {
		ct_fail(__FILE__, __LINE__, "hw: %s", err);
		return NULL;
	}
	return b;
}

/* ---- msr-safe's batch ioctl, interposed: the test binary's ioctl wins
 * over libc's for the backend linked into it ---- */

struct fake_op {
	uint16_t cpu, isrdmsr;
	int32_t err;
	uint32_t msr;
	uint64_t msrdata, wmask;
};
struct fake_arr {
	uint32_t numops, version;
	struct fake_op *ops;
};

static unsigned batch_calls, batch_ops;

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == (unsigned long)_IOWR('c', 0xA2, struct fake_arr)) {
		struct fake_arr *a = arg;

		batch_calls++;
		for (uint32_t i = 0; i < a->numops; i++) {
			struct fake_op *op = &a->ops[i];
			char p[512];
			int mfd;

			snprintf(p, sizeof(p), "%s/dev/cpu/%u/msr_safe", root, op->cpu);
			mfd = open(p, O_RDWR);
			op->err = mfd < 0 ? ENXIO : 0;
			if (mfd >= 0) {
				ssize_t n = op->isrdmsr ? pread(mfd, &op->msrdata, 8, (off_t)op->msr * 8)
							: pwrite(mfd, &op->msrdata, 8, (off_t)op->msr * 8);

				op->err = n == 8 ? 0 : EIO;
				close(mfd);
			}
			batch_ops++;
		}
		return 0;
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

/* ---- access sequences ---- */

static const char *EVENTS = "uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_OCCUPANCY.ALL";

/* A driver session through a recorder; the log is left at path. */
static int session(struct ucb *base, const char *path, uint64_t ns)
{
	struct ucb *rec;
	struct ucd *d;
	char err[512];
	int rc;

	if (ucb_rec_create(base, path, &rec, err, sizeof(err)))
		return -1;
	rc = ucd_open(rec, NULL, &d);
	if (!rc && !strcmp(base->ops->name, "hw"))
		rc = ucb_hw_allow(base, ucd_platform(d), ucd_mmio_base(d));
	if (!rc)
		rc = ucd_add_events(d, EVENTS);
	if (!rc)
		rc = ucd_run(d, ns, 0, NULL, NULL);
	if (!rc)
		rc = ucd_restore(d);
	if (rc)
		fprintf(stderr, "session: %s\n", ucd_error(d));
	ucd_close(d);
	if (!rc)
		rc = ucb_rec_commit(rec, err, sizeof(err));
	ucb_destroy(rec);
	return rc;
}

/* The accesses of a log: operation and arguments; what a read returned and
 * when are the machine's, not the driver's. */
static int next_access(FILE *f, char *buf, size_t n)
{
	while (fgets(buf, (int)n, f)) {
		char *arrow = strstr(buf, " ->");

		if (buf[0] == '#' || !strncmp(buf, "uncore-access", 13))
			continue;
		if (arrow)
			*arrow = 0;
		if (!strncmp(buf, "now", 3))
			buf[3] = 0;
		return 1;
	}
	return 0;
}

/* Issue 6, done-when: the same register accesses, in the same order, as on
 * the simulated backend. */
CT_TEST(hw_performs_the_same_accesses_as_the_simulator)
{
	char simlog[300], hwlog[300], a[512], b[512];
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *sim, *h;
	FILE *fa, *fb;
	unsigned n = 0;

	make_tree("same", 0);
	snprintf(simlog, sizeof(simlog), "%s/sim.log", root);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.strict = 1;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_REQUIRE(ucb_sim_create(m, &sim) == 0);
	CT_REQUIRE(session(sim, simlog, 50000000) == 0);
	CT_EQ(ucm_strict_count(m), 0);
	ucb_destroy(sim);
	ucm_destroy(m);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(h, hwlog, 50000000) == 0);
	ucb_destroy(h);
	fa = fopen(simlog, "r");
	fb = fopen(hwlog, "r");
	CT_REQUIRE(fa && fb);
	for (;;) {
		int ra = next_access(fa, a, sizeof(a)), rb = next_access(fb, b, sizeof(b));

		if (!ra || !rb) {
			CT_EQ(ra, rb);
			break;
		}
		n++;
		if (strcmp(a, b)) {
			ct_fail(__FILE__, __LINE__, "access %u: simulator '%s', hardware '%s'", n, a, b);
			break;
		}
	}
	CT_CHECK(n > 40);
	fclose(fa);
	fclose(fb);
	rm_tree();
}

/* An offline cpu (no topology directory) does not hide the cpus after it:
 * the socket maps to its first online cpu. */
CT_TEST(hw_topology_skips_offline_cpus)
{
	struct ucb *h;
	unsigned cpu = 99;
	char cmd[600];

	make_tree("offline", 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu0/topology'", root);
	CT_REQUIRE(system(cmd) == 0);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 0, &cpu), 0);
	CT_EQ(cpu, 1);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), -ENOENT);
	ucb_destroy(h);
	rm_tree();
}

/* The values the tree holds are what the driver reads: a register dump,
 * and counts that change between samples as the "hardware" counts. */
CT_TEST(hw_reads_the_values_the_tree_holds)
{
	struct ucb *h;
	struct ucd *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct ucd_evinfo ei;

	make_tree("values", 0);
	put_msr(0, 0x711, 0x0000000000038F34ull); /* someone's event, not enabled */
	put32("/dev/mem", BAR + 0x5050, 123456);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_STREQ(ucd_platform(d)->name, "skl");
	CT_EQ(ucd_mmio_base(d), BAR);
	f = open_memstream(&buf, &len);
	CT_REQUIRE(ucd_dump_regs(d, f) == 0);
	fclose(f);
	CT_CONTAINS(buf, "MSR_UNC_CBO_1_PERFEVTSEL1    0x0000000000038f34");
	CT_CONTAINS(buf, "MSR_UNC_CBO_CONFIG           0x0000000000000005");
	CT_CONTAINS(buf, "DRAM_DATA_READS              0x0001e240");
	free(buf);
	/* counting: the tree's counters move between samples */
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "uclk,data_reads,cbo0/event=0x34,umask=0x8f/") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	put_msr(0, 0x395, 3000000);                       /* the fixed counter */
	put32("/dev/mem", BAR + 0x5050, 123456 + 777);    /* DRAM reads */
	put_msr(0, 0x706, 4242);                          /* CBo 0 counter 0 */
	CT_REQUIRE(ucd_sample(d) == 0);
	put32("/dev/mem", BAR + 0x5050, 5);               /* a 32-bit wrap */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 3000000);
	ucd_event(d, 1, &ei);
	CT_EQ(ei.total, 777 + (0x100000000ull - 123456 - 777) + 5);
	ucd_event(d, 2, &ei);
	CT_EQ(ei.total, 4242);
	CT_REQUIRE(ucd_stop(d) == 0);
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* Normal exit and error exit: every register as it was. */
CT_TEST(hw_leaves_registers_as_found_on_normal_and_error_exit)
{
	struct snap *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_tree("restore", 0);
	/* leftovers of another agent that is not counting right now */
	put_msr(0, 0x700, 0x0000000000008F34ull);
	put_msr(0, 0x706, 99);
	put_msr(0, 0x394, 1ull << 20);
	snapshot(before, 0);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	snapshot(after, 0);
	CT_CHECK(after->msr[0][0xE01 * 8 + 3] & 0x20); /* GLOBAL_CTRL.EN (bit 29) while counting */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d); /* normal exit: stop and restore */
	snapshot(after, 0);
	check_same(before, after, "after a normal exit");

	/* an error in the middle: the physical memory disappears */
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/dev/mem", root);
		CT_REQUIRE(rename(p, "/tmp/uncore-t-hw-mem-away") == 0);
		CT_CHECK(ucd_sample(d) < 0);
		CT_CONTAINS(ucd_error(d), "/dev/mem");
		ucd_close(d);
		CT_REQUIRE(rename("/tmp/uncore-t-hw-mem-away", p) == 0);
	}
	snapshot(after, 0);
	check_same(before, after, "after an error exit");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* A running `uncore stat --backend=hw` gets SIGINT, SIGTERM or SIGHUP:
 * it restores every register and exits 128 + signal. */
CT_TEST(hw_restores_on_sigint_sigterm_and_sighup)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct snap *before = malloc(sizeof(*before)), *during = malloc(sizeof(*during));

	CT_REQUIRE(before && during);
	make_tree("signals", 0);
	snapshot(before, 0);
	for (unsigned i = 0; i < 3; i++) {
		pid_t pid = fork();
		int st;

		CT_REQUIRE(pid >= 0);
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "30",
			      "-e", EVENTS, (char *)NULL);
			_exit(127);
		}
		/* wait until it counts: GLOBAL_CTRL.EN set in the tree */
		for (int t = 0; t < 500; t++) {
			usleep(10000);
			snapshot(during, 0);
			if (during->msr[0][0xE01 * 8 + 3] & 0x20)
				break;
		}
		CT_CHECK(during->msr[0][0xE01 * 8 + 3] & 0x20);
		kill(pid, sigs[i]);
		CT_REQUIRE(waitpid(pid, &st, 0) == pid);
		CT_CHECK(WIFEXITED(st));
		CT_EQ(WEXITSTATUS(st), 128 + sigs[i]);
		snapshot(during, 0);
		check_same(before, during, sigs[i] == SIGINT ? "after SIGINT" : sigs[i] == SIGTERM ? "after SIGTERM" : "after SIGHUP");
	}
	rm_tree();
	free(before);
	free(during);
}

/* `uncore stat --backend=hw | head -1`: the reader goes away; the write
 * fails (SIGPIPE is ignored) and the command still restores everything. */
CT_TEST(hw_restores_when_the_output_pipe_closes)
{
	struct snap *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	int pfd[2], st;
	pid_t pid;

	CT_REQUIRE(before && after);
	make_tree("pipe", 0);
	snapshot(before, 0);
	CT_REQUIRE(pipe(pfd) == 0);
	pid = fork();
	CT_REQUIRE(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pfd[1], 1);
		dup2(null, 2);
		close(pfd[0]);
		execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "2",
		      "-I", "20", "-e", EVENTS, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	{
		char c;

		CT_CHECK(read(pfd[0], &c, 1) == 1); /* it runs and prints ... */
	}
	close(pfd[0]);                              /* ... and the reader leaves */
	CT_REQUIRE(waitpid(pid, &st, 0) == pid);
	CT_CHECK(WIFEXITED(st));
	CT_EQ(WEXITSTATUS(st), 1);
	snapshot(after, 0);
	check_same(before, after, "after the output pipe closed");
	rm_tree();
	free(before);
	free(after);
}

/* Issue 6, done-when: no write outside the allow-list, over the whole MSR
 * range 0..0xFFFF and 100,000 random 32-bit addresses, every offset and
 * width of the host bridge's config space and every device number, and
 * every MMIO offset of the window; before a platform is allowed, nothing. */
CT_TEST(hw_writes_nothing_outside_the_platform_registers)
{
	struct snap *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *h;
	uint8_t writable[0x10000];
	uint64_t rng = 12345;

	CT_REQUIRE(before && after);
	make_tree("allow", 0);
	/* the platform's writable MSRs, from the model's register list */
	memset(writable, 0, sizeof(writable));
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (ri.space == UCM_MSR && (ri.rw_mask | ri.w1c_mask | ri.wo_mask))
			writable[ri.addr] = 1;
	}
	ucm_destroy(m);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	/* nothing before the platform is named */
	CT_EQ(ucb_msr_write(h, 0, 0xE01, 0), -EPERM);
	CT_CONTAINS(ucb_error(h), "no platform allowed");
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("skl"), BAR) == 0);
	snapshot(before, 0);
	for (uint32_t a = 0; a < 0x10000; a++) {
		int rc = ucb_msr_write(h, 0, a, 0);

		if (writable[a] ? rc != 0 : rc != -EPERM)
			ct_fail(__FILE__, __LINE__, "wrmsr 0x%x: rc %d, writable %d", a, rc, writable[a]);
	}
	for (unsigned i = 0; i < 100000; i++) {
		uint32_t a;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		a = (uint32_t)(rng >> 32) | 0x10000u;
		if (ucb_msr_write(h, 0, a, 0) != -EPERM)
			ct_fail(__FILE__, __LINE__, "wrmsr 0x%x was not refused", a);
	}
	/* SKL has no writable PCI or MMIO PMON register (the BAR is never ours) */
	for (unsigned off = 0; off < 4096; off++)
		for (unsigned w = 1; w <= 8; w *= 2) {
			struct ucb_pci dev = { 0, 0, 0, 0 };

			if (off + w <= 4096 && ucb_pci_write(h, &dev, off, w, 0) != -EPERM)
				ct_fail(__FILE__, __LINE__, "PCI write at 0x%x/%u was not refused", off, w);
		}
	for (unsigned dv = 0; dv < 32; dv++)
		for (unsigned fn = 0; fn < 8; fn++) {
			struct ucb_pci dev = { 0, 0, (uint8_t)dv, (uint8_t)fn };

			if (ucb_pci_write(h, &dev, 0xF4, 4, 0) != -EPERM)
				ct_fail(__FILE__, __LINE__, "PCI write to 00:%02x.%x was not refused", dv, fn);
		}
	for (uint64_t off = 0; off < 0x8000; off += 4)
		if (ucb_mmio_write(h, BAR + off, 4, 0) != -EPERM)
			ct_fail(__FILE__, __LINE__, "MMIO write at BAR+0x%llx was not refused", (unsigned long long)off);
	/* the only registers that changed are allowed MSRs (written 0) */
	snapshot(after, 0);
	for (unsigned a = 0; a < 0x1000; a++)
		if (memcmp(before->msr[0] + 8 * a, after->msr[0] + 8 * a, 8) && !writable[a])
			ct_fail(__FILE__, __LINE__, "MSR 0x%x changed but is not writable", a);
	memcpy(before->msr[0], after->msr[0], sizeof(before->msr[0]));
	check_same(before, after, "after refused writes");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* msr-safe: a sample of every MSR counter is one batch ioctl. */
CT_TEST(msr_safe_batches_a_sample_into_one_ioctl)
{
	struct ucb *h;
	struct ucd *d;
	unsigned calls;

	make_tree("batch", MSR_SAFE);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_CONTAINS(ucb_hw_describe(h), "msr-safe (batched)");
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	put64("/dev/cpu/0/msr_safe", 0x395 * 8, 777);
	calls = batch_calls;
	batch_ops = 0;
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(batch_calls - calls, 1);
	/* the clock, four CBo counters and the ARB counter */
	CT_EQ(batch_ops, 6);
	{
		struct ucd_evinfo ei;

		ucd_event(d, 0, &ei);
		CT_EQ(ei.total, 777);
	}
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* Run `uncore` as an unprivileged user where the test runs as root. */
static int run_cli(char *out, size_t n, const char *const *args)
{
	int pfd[2], st;
	pid_t pid;
	ssize_t k = 0, r;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 2);
		dup2(pfd[1], 1);
		close(pfd[0]);
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(126);
		execv(UNCORE_BIN, (char *const *)args);
		_exit(127);
	}
	close(pfd[1]);
	while (k < (ssize_t)n - 1 && (r = read(pfd[0], out + k, n - 1 - (size_t)k)) > 0)
		k += r;
	out[k > 0 ? k : 0] = 0;
	close(pfd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void chmod_all(const char *rel, mode_t mode)
{
	char p[800];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (chmod(p, mode))
		ct_fail(__FILE__, __LINE__, "chmod %s", p);
}

/* One clear line, with the fix, for each refusal of the machine. */
CT_TEST(hw_errors_name_the_cause_and_the_fix)
{
	char out[4096];
	const char *stat_args[] = { "uncore", "stat", "--backend=hw", "--hw-root", NULL, "--duration", "0.01",
				    "-e", "uclk,data_reads", NULL };
	const char *regs_args[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL };
	char p[512];

	make_tree("errors", 0);
	stat_args[4] = regs_args[4] = root;
	/* the tree is world-readable (reads work as nobody) but the MSR
	 * devices are writable by no one */
	snprintf(p, sizeof(p), "chmod -R a+rX '%s'", root);
	CT_REQUIRE(system(p) == 0);
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "/dev/cpu/%u/msr", c);
		chmod_all(p, 0444);
	}

	/* MSR writes filtered: the device opens read-only, writes fail */
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "filtered by the kernel");
	CT_CONTAINS(out, "msr.allow_writes=on");

	/* no permission at all */
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "/dev/cpu/%u/msr", c);
		chmod_all(p, 0000);
	}
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "permission denied: run as root");

	/* the msr module not loaded */
	for (unsigned c = 0; c < 4; c++) {
		snprintf(p, sizeof(p), "%s/dev/cpu/%u/msr", root, c);
		unlink(p);
	}
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "modprobe msr");
	{
		const char *a[] = { "uncore", "regs", "--backend=hw", "--hw-msr", "msr-safe", "--hw-root", root, NULL };

		CT_EQ(run_cli(out, sizeof(out), a), 1);
		CT_CONTAINS(out, "msr-safe is not loaded");
	}
	rm_tree();

	/* lockdown blocks /dev/mem */
	make_tree("lockdown", 0);
	stat_args[4] = regs_args[4] = root;
	mkdirs("%s/sys/kernel/security", root);
	text("/sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	snprintf(p, sizeof(p), "%s/dev/mem", root);
	unlink(p);
	{
		struct ucb *h = hw(UCB_HW_MSR);
		uint64_t v;

		CT_REQUIRE(h);
		CT_EQ(ucb_mmio_read(h, BAR + 0x5050, 4, &v), -EPERM);
		CT_CONTAINS(ucb_error(h), "kernel lockdown (integrity");
		CT_CONTAINS(ucb_error(h), "Secure Boot");
		ucb_destroy(h);
	}
	rm_tree();

	/* no such PCI device */
	make_tree("nopci", 0);
	regs_args[4] = root;
	snprintf(p, sizeof(p), "rm -rf '%s/sys/bus/pci/devices/0000:00:00.0'", root);
	CT_REQUIRE(system(p) == 0);
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "no PCI device 0000:00:00.0");
	rm_tree();

	/* the wrong CPU */
	make_tree("amd", 0);
	regs_args[4] = root;
	text("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 33\n\n");
	CT_EQ(run_cli(out, sizeof(out), regs_args), 1);
	CT_CONTAINS(out, "not an Intel CPU (AuthenticAMD)");
	text("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n");
	{
		const char *a[] = { "uncore", "regs", "--backend=hw", "--platform", "skl", "--hw-root", root, NULL };
		const char *f[] = { "uncore", "regs", "--backend=hw", "--platform", "skl", "--force", "--hw-root", root, NULL };

		CT_EQ(run_cli(out, sizeof(out), a), 1);
		CT_CONTAINS(out, "use --force");
		CT_EQ(run_cli(out, sizeof(out), f), 0);
		CT_CONTAINS(out, "MSR_UNC_PERF_GLOBAL_CTRL");
	}
	rm_tree();

	/* in use by another agent */
	make_tree("inuse", 0);
	stat_args[4] = root;
	put_msr(0, 0xE01, 1ull << 29);
	snprintf(p, sizeof(p), "chmod -R a+rwX '%s'", root);
	CT_REQUIRE(system(p) == 0);
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "in use by another agent");
	CT_CONTAINS(out, "--force");
	rm_tree();
}

CT_MAIN()
