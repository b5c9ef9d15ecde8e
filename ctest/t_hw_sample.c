/*
 * t_hw_sample.c - what one sample of the hardware backend costs, on fake
 * machines (ct_hw.h): msr-safe's batch ioctl (interposed, ct_hw.c) once per
 * sample for the MSRs of every socket, a cpu out of its range refused; the
 * system calls of one sample of every counter, counted by strace, and
 * every file closed after the session.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct.h"
#include "ct_hw.h"
#include "ucb.h"
#include "ucb_hw.h"
#include "ucd.h"
#include "ucm.h"

/* ---- msr-safe's batch ---- */

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
	put_msr(0, 0x395, 777);
	calls = batch_calls;
	batch_ops = 0;
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(batch_calls - calls, 1);
	/* the clock, four CBo counters and the ARB counter, and the global
	 * status the driver services after the counters */
	CT_EQ(batch_ops, 7);
	{
		struct ucd_evinfo ei;

		ucd_event(d, 0, &ei);
		CT_EQ(ei.total, 777);
	}
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* A batch names each cpu in 16 bits (msr-safe's struct): a cpu beyond
 * the backend's range is refused, not truncated onto another cpu (65536
 * would have been cpu 0), and nothing of the batch is done. */
CT_TEST(msr_safe_batch_refuses_a_cpu_out_of_range)
{
	struct ucb *h;
	struct ucb_msr_op ops[2] = { { 0, 0x395, 0, 0, 0 }, { 65536, 0x395, 0, 0, 0 } };
	unsigned calls;

	make_tree("batchcpu", MSR_SAFE);
	put_msr(0, 0x395, 4242);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	calls = batch_calls;
	CT_EQ(ucb_msr_batch(h, ops, 2), -EINVAL);
	CT_CONTAINS(ucb_error(h), "cpu 65536 out of range");
	CT_EQ(batch_calls, calls);
	ops[1].cpu = 0;
	CT_EQ(ucb_msr_batch(h, ops, 2), 0);
	CT_EQ(ops[1].val, 4242);
	ucb_destroy(h);
	rm_tree();
}

/* On the E5-2600 one ioctl reads the MSR counters of both sockets (each
 * through its own cpu); the PCI counters are read besides. */
CT_TEST(snbep_msr_safe_batches_both_sockets_into_one_ioctl)
{
	struct ucb *h;
	struct ucd *d;
	struct ucd_evinfo ei;
	unsigned calls, c3;

	make_snbep("snbep-batch", MSR_SAFE, &SNBEP_USUAL);
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,UNC_C_CLOCKTICKS,UNC_P_CLOCKTICKS,cas_rd") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	put_msr(8, 0xC09, 4444);
	put_cfg(0x7F, 16, 5, c3, 31, 8);
	calls = batch_calls;
	batch_ops = 0;
	batch_cpus = 0;
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(batch_calls - calls, 1);
	/* per socket: the UBox fixed counter, eight CBos, the PCU */
	CT_EQ(batch_ops, 2 * (1 + 8 + 1));
	CT_EQ(batch_cpus, (1u << 0) | (1u << 8));
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 4444);
	ucd_event(d, 3, &ei);
	CT_EQ(ei.total, 31);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* ---- system calls of one sample, counted by strace ---- */

/* Every counter of the platform: each event of its list, in order, where
 * placement still finds room (a refused one changes nothing). */
static void program_every_counter(struct ucd *d)
{
	const struct ucm_platform *p = ucd_platform(d);

	for (unsigned i = 0; i < p->nevents; i++)
		(void)ucd_add_events(d, p->events[i].name);
}

/* The traced session's clock (its CLOCK_MONOTONIC, the backend's too): a
 * machine on which every reading is 1 us after the last, so that what the
 * backend makes of the time a pread took does not depend on how busy this
 * machine is under strace.  Elsewhere, the real clock. */
static int fake_clock;
static uint64_t fake_us;

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (!fake_clock)
		return (int)syscall(SYS_clock_gettime, clk, ts);
	fake_us++;
	ts->tv_sec = (time_t)(fake_us / 1000000u);
	ts->tv_nsec = (long)(fake_us % 1000000u) * 1000;
	return 0;
}

static unsigned open_fds(void)
{
	char p[64];
	unsigned n = 0;

	for (int fd = 0; fd < 4096; fd++) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		n += access(p, F_OK) == 0;
	}
	return n;
}

/* The traced side (not a CTest test of its own: run by
 * sample_syscalls() under strace, with the tree in UNCORE_T_HW_TRACE):
 * a session on msr-safe with every counter programmed, one sample between
 * two markers strace shows (writes to no file), every file closed after.
 * Prints the number of counters; exits non-zero on a failure. */
static void traced_sample(void)
{
	const char *tree = getenv("UNCORE_T_HW_TRACE");
	unsigned fds;
	struct ucb *h;
	struct ucd *d;

	if (!tree)
		return; /* run with the others: nothing to do */
	snprintf(root, sizeof(root), "%s", tree);
	fake_clock = 1;
	fds = open_fds();
	CT_REQUIRE((h = hw(UCB_HW_MSR_SAFE)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	program_every_counter(d);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_REQUIRE(ucd_sample(d) == 0);
	if (getenv("UNCORE_T_HW_LOW")) {
		/* socket 0's HA counter 0 with this low dword: near the carry */
		uint32_t lo = (uint32_t)strtoul(getenv("UNCORE_T_HW_LOW"), NULL, 0);
		char p[512];
		int fd;

		snprintf(p, sizeof(p), "%s/sys/bus/pci/devices/0000:3f:0e.1/config", root);
		fd = open(p, O_WRONLY);
		CT_REQUIRE(fd >= 0 && pwrite(fd, &lo, 4, 0xA0) == 4);
		if (fd >= 0)
			close(fd);
	}
	CT_CHECK(write(-1, "uncore-sample-begin", 19) < 0);
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_CHECK(write(-1, "uncore-sample-end", 17) < 0);
	printf("counters %zu\n", ucd_ncounters(d));
	ucd_close(d);
	ucb_destroy(h);
	/* every MSR device, configuration file and /dev/mem closed, every page unmapped */
	CT_EQ(open_fds(), fds);
}
static struct ct_test traced = { "traced_sample", traced_sample, NULL };
__attribute__((constructor)) static void traced_register(void)
{
	ct_register(&traced);
}

/* Runs traced_sample under strace on the current tree and counts the
 * system calls between the markers, by name.  Returns the total; *ctrs:
 * the counters programmed.  strace is an outside witness: the count does
 * not come from the code under test (README's test command installs it;
 * missing, the test fails saying so). */
static unsigned sample_syscalls(const char *low, unsigned *ctrs, char *names, size_t nn, unsigned *pread_n,
				unsigned *ioctl_n, unsigned *dword_n)
{
	char self[512], log[400], out[400], line[1024];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	unsigned total = 0;
	int st, in = 0;
	pid_t pid;
	FILE *f;

	*ctrs = *pread_n = *ioctl_n = *dword_n = 0;
	names[0] = 0;
	if (k <= 0)
		return 0;
	self[k] = 0;
	snprintf(log, sizeof(log), "%s/strace.log", root);
	snprintf(out, sizeof(out), "%s/traced.out", root);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			dup2(fd, 1);
		setenv("UNCORE_T_HW_TRACE", root, 1);
		if (low)
			setenv("UNCORE_T_HW_LOW", low, 1);
		/* LeakSanitizer cannot work under ptrace; the untraced tests check leaks */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execlp("strace", "strace", "-qq", "-o", log, self, "traced_sample", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 127) {
		ct_fail(__FILE__, __LINE__, "strace did not run: install it (apt-get install strace, README's test command)");
		return 0;
	}
	if (WEXITSTATUS(st))
		ct_fail(__FILE__, __LINE__, "the traced session failed (exit %d): see %s", WEXITSTATUS(st), out);
	if ((f = fopen(out, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "counters %u", ctrs) == 1)
				break;
		fclose(f);
	}
	if (!(f = fopen(log, "r"))) {
		ct_fail(__FILE__, __LINE__, "no strace log %s", log);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "(");

		if (strstr(line, "\"uncore-sample-begin\"")) {
			in = 1;
			continue;
		}
		if (strstr(line, "\"uncore-sample-end\""))
			break;
		if (!in || line[len] != '(')
			continue;
		total++;
		*pread_n += !strncmp(line, "pread64(", 8);
		/* a dword alone: "pread64(fd, "...", 4, off)   = 4" */
		*dword_n += !strncmp(line, "pread64(", 8) && strstr(line, ", 4, ") && strrchr(line, '=') &&
			    !strcmp(strrchr(line, '='), "= 4\n");
		*ioctl_n += !strncmp(line, "ioctl(", 6);
		if (strlen(names) + len + 2 < nn)
			snprintf(names + strlen(names), nn - strlen(names), "%s%.*s", names[0] ? " " : "", (int)len, line);
	}
	fclose(f);
	if (!in)
		ct_fail(__FILE__, __LINE__, "no sample markers in %s", log);
	return total;
}

/* Issue 17, goal 7: one sample of every counter costs one system call for
 * all MSRs (msr-safe's batch, with the global status the driver services
 * after the counters) plus one pread per PCI function holding counters,
 * whatever the platform; the files and the MMIO mapping stay open through
 * the session and are all closed after it; every register as it was.
 * The PCI functions with counters come from the test's own list of each
 * platform's functions (public facts), not from the tables. */
static void check_sample_syscalls(const char *plat, const char *low, unsigned want_ctrs, unsigned pci_fns,
				  unsigned dwords)
{
	struct snap *before = snap_new(), *after = snap_new();
	unsigned ctrs, preads, ioctls, n, dw;
	char names[4096];

	CT_REQUIRE(before && after);
	snapshot(before);
	n = sample_syscalls(low, &ctrs, names, sizeof(names), &preads, &ioctls, &dw);
	printf("%s%s%s: %u counters, one sample: %u system calls (%u ioctl, %u pread64, %u of a dword): %s\n", plat,
	       low ? ", a low dword of " : "", low ? low : "", ctrs, n, ioctls, preads, dw, names);
	CT_EQ(ctrs, want_ctrs);
	CT_EQ(ioctls, 1);
	CT_EQ(preads, pci_fns + dwords);
	CT_EQ(dw, dwords);
	CT_EQ(n, pci_fns + dwords + 1);
	if (low)
		put_cfg(0x3F, 14, 1, 0xA0, 0, 4); /* the traced session's doing, not the driver's */
	snapshot(after);
	check_same(before, after, "after the traced session");
	free(before);
	free(after);
}

/* Skylake client: four CBos (two counters each), the ARB's two, the UBox
 * fixed clock, the five free-running IMC counters behind the BAR: all MSRs
 * in one batch, the IMC ones read from the mapping kept open. */
CT_TEST(hw_sample_of_every_counter_is_one_system_call)
{
	make_tree("syscalls", MSR_SAFE);
	check_sample_syscalls("skl", NULL, 4 * 2 + 2 + 1 + 5, 0, 0);
	rm_tree();
}

/* E5-2600, two sockets of 81 counters: 39 in MSRs (UBox 2 + fixed, 8 CBos
 * x 4, PCU 4), 42 in 10 PCI functions (HA, 4 iMC channels x
 * (4 + fixed), 2 QPI ports x 4, R2PCIe 4, 2 R3QPI x 3). */
CT_TEST(snbep_hw_sample_of_every_counter_is_21_system_calls)
{
	unsigned fns = 0;

	make_snbep("snbep-syscalls", MSR_SAFE, &SNBEP_USUAL);
	for (unsigned i = 0; i < NSNBEP_FNS; i++)
		/* not the UBox's, the PCU's, the HA's own (R27), QPI misc and
		 * mask/match functions: they hold no counter */
		fns += snbep_fns[i].dev != 11 && snbep_fns[i].dev != 10 && !(snbep_fns[i].dev == 14 && snbep_fns[i].fn == 0) &&
		       !((snbep_fns[i].dev == 8 || snbep_fns[i].dev == 9) &&
			 (snbep_fns[i].fn == 0 || snbep_fns[i].fn == 6));
	CT_EQ(2 * fns, 20);
	check_sample_syscalls("snbep", NULL, 162, 2 * fns, 0);
	/* a counter whose low dword may have carried while the block was read
	 * (within 3 us of the HA's fastest event, 4 per 3.8 GHz cycle, of the
	 * top: the traced machine's clock moves 1 us a reading): read again,
	 * high, low, high; one further away: not */
	check_sample_syscalls("snbep", "0xFFFFFFF0", 162, 2 * fns, 3);
	check_sample_syscalls("snbep", "0xFFFF0000", 162, 2 * fns, 0);
	rm_tree();
}

/* E5-2600 v2, two sockets of 137 counters: 67 in MSRs (UBox 2 + fixed, 15
 * CBos x 4, PCU 4), 70 in 16 PCI functions
 * (2 HAs x 4, 8 iMC channels x (4 + fixed), 2 QPI ports x 4, R2PCIe 4,
 * 2 R3QPI x 3, IRP0 2 + IRP1 2, V25): the list above without the UBox, the
 * PCU, the QPI misc and mask/match functions. */
CT_TEST(ivt_hw_sample_of_every_counter_is_one_pread_per_pci_box)
{
	unsigned fns = 0;

	make_ivt("ivt-syscalls", MSR_SAFE);
	for (unsigned i = 0; i < NIVT_FNS; i++)
		fns += ivt_fns[i].dev != 11 && ivt_fns[i].dev != 10 && !((ivt_fns[i].dev == 8 || ivt_fns[i].dev == 9) &&
						 (ivt_fns[i].fn == 0 || ivt_fns[i].fn == 6));
	CT_EQ(2 * fns, 32);
	check_sample_syscalls("ivt", NULL, 274, 2 * fns, 0);
	rm_tree();
}

CT_MAIN()
