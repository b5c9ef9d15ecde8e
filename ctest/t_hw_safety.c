/*
 * t_hw_safety.c - the hardware backend on fake machines (ct_hw.h) leaves
 * the machine as it found it and touches nothing else: every register as
 * found on normal exit, error exit, SIGINT, SIGTERM, SIGHUP and a closed
 * output pipe; no write outside the platform's registers over whole address
 * ranges; counters in use, a machine without root, a mismatched platform
 * refused; a clear one-line error, with the fix, for each way the machine
 * can refuse.
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

/* ---- every register as found ---- */

/* Leftovers of another agent that is not counting (no EN bit anywhere),
 * none of them what reset (0) or the driver's stop would leave: GLOBAL_CTRL
 * with FRZ_ON_PMI, WAKE_ON_PMI and PMI to cores 1 and 3 (SKL Table 2-1), the
 * fixed counter's OVF_EN and a count over 2^32, programmed but disabled ARB
 * and CBo controls, counts in their counters (44 bits, Table 2-3). */
static void skl_leftovers(void)
{
	put_msr(0, 0xE01, 0xC000000Aull);
	put_msr(0, 0x394, 1ull << 20);
	put_msr(0, 0x395, 0x5A5AA5A5F00Dull);
	put_msr(0, 0x3B2, 0x0A948F81ull);
	put_msr(0, 0x3B0, 0xA5A5A5A5A5ull);
	put_msr(0, 0x700, 0x0000000000008F34ull);
	put_msr(0, 0x706, 99);
	put_msr(0, 0x711, 0x03845A22ull);
	put_msr(0, 0x716, 0x87654321ABCull);
}

/* Normal exit and error exit: every register as it was. */
CT_TEST(hw_leaves_registers_as_found_on_normal_and_error_exit)
{
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	char p[512];

	CT_REQUIRE(before && after);
	make_tree("restore", 0);
	skl_leftovers();
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_msr(0, 0xE01) & (1u << 29)); /* GLOBAL_CTRL.EN while counting */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d); /* normal exit: stop and restore */
	snapshot(after);
	check_same(before, after, "after a normal exit");

	/* an error in the middle: cpu 0's MSR device stops answering (the
	 * backend keeps its files open, so the fault is a failing read, not
	 * a failing open); it answers again before the driver restores */
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	snprintf(p, sizeof(p), "%s%s", root, msr_rel(0));
	{
		uint8_t *keep = malloc(MSR_BYTES);

		CT_REQUIRE(keep != NULL);
		slurp(msr_rel(0), 0, keep, MSR_BYTES);
		CT_REQUIRE(truncate(p, 0) == 0);
		CT_CHECK(ucd_sample(d) < 0);
		CT_CONTAINS(ucd_error(d), "on cpu 0: short read");
		put(msr_rel(0), 0, keep, MSR_BYTES);
		free(keep);
	}
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after an error exit");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* The same on the E5-2600, with another agent's leftovers on both sockets
 * (a programmed but disabled CBo control, a HA count, a frozen box); the
 * error: one socket's memory controller stops answering mid-run (it is
 * back before the driver restores, as the MSR device above). */
CT_TEST(snbep_hw_leaves_registers_as_found_on_normal_and_error_exit)
{
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	char p[512];
	static uint8_t keep[CFG_BYTES];

	CT_REQUIRE(before && after);
	make_snbep("snbep-restore", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);
	put_msr(8, 0xD16, 99);
	put_cfg(0x7F, 14, 1, 0xA0, 0x1234567890ull, 8);
	put_cfg(0x3F, 16, 1, 0xF4, 0x10100, 4);
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, SNBEP_EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_msr(8, 0xC08) & (1u << 22));
	CT_EQ(get_cfg(0x7F, 14, 1, 0xF4, 4), 0x10000); /* frz_en, unfrozen: counting */
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after a normal exit");

	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, SNBEP_EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	/* the backend keeps the function's file open: the fault is a read
	 * that returns nothing (as sysfs does past what it shows) */
	snprintf(p, sizeof(p), "%s%s", root, fn_rel(0x7F, 16, 0));
	slurp(fn_rel(0x7F, 16, 0), 0, keep, CFG_BYTES);
	CT_REQUIRE(truncate(p, 0) == 0);
	CT_CHECK(ucd_sample(d) < 0);
	CT_CONTAINS(ucd_error(d), "PCI 7f:10.0 offset 0xa0");
	put(fn_rel(0x7F, 16, 0), 0, keep, CFG_BYTES);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after an error exit");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* Counting has begun: GLOBAL_CTRL.EN (SKL 2.2), or snbep_counting() on the
 * E5-2600 that has no global enable. */
static int skl_counting(void)
{
	return (get_msr(0, 0xE01) >> 29) & 1;
}

/* A running `uncore stat --backend=hw` gets SIGINT, SIGTERM or SIGHUP:
 * it restores every register and exits 128 + signal. */
static void signals_restore(const char *events, int (*counting)(void))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct snap *before = snap_new(), *during = snap_new();

	if (!before || !during)
		return;
	snapshot(before);
	for (unsigned i = 0; i < 3; i++) {
		const char *name = sigs[i] == SIGINT ? "after SIGINT" : sigs[i] == SIGTERM ? "after SIGTERM" : "after SIGHUP";
		pid_t pid = fork();
		int st, t;

		if (pid < 0) {
			ct_fail(__FILE__, __LINE__, "fork");
			break;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "30",
			      "-e", events, (char *)NULL);
			_exit(127);
		}
		for (t = 0; t < 1000 && !counting(); t++)
			usleep(10000);
		CT_CHECK(counting());
		kill(pid, sigs[i]);
		if (waitpid(pid, &st, 0) != pid) {
			ct_fail(__FILE__, __LINE__, "waitpid");
			break;
		}
		CT_CHECK(WIFEXITED(st));
		CT_EQ(WEXITSTATUS(st), 128 + sigs[i]);
		snapshot(during);
		check_same(before, during, name);
	}
	free(before);
	free(during);
}

CT_TEST(hw_restores_on_sigint_sigterm_and_sighup)
{
	make_tree("signals", 0);
	skl_leftovers();
	signals_restore(EVENTS, skl_counting);
	rm_tree();
}

/* Both sockets, MSR and PCI boxes, put back after each signal. */
CT_TEST(snbep_hw_restores_on_sigint_sigterm_and_sighup)
{
	make_snbep("snbep-signals", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);
	put_cfg(0x7F, 14, 1, 0xA0, 0x1234567890ull, 8);
	signals_restore(SNBEP_EVENTS, snbep_counting);
	rm_tree();
}

/* The E5-2600 v2: leftovers that neither the reset (box controls 0x30000,
 * V6) nor the driver's stop would leave, on both sockets: the UBox global
 * control with wk_on_pmi and PMI routing to several cores, a count over
 * 2^32 in the UCLK counter, a programmed but disabled UBox control, a
 * frozen PCU box, and a HA count and frozen HA box over PCI. */
#define IVT_EVENTS "UNC_U_CLOCKTICKS,UNC_U_EVENT_MSG.DOORBELL_RCVD,UNC_P_CLOCKTICKS,UNC_H_CLOCKTICKS,UNC_M_DCLOCKTICKS"

static void ivt_leftovers(void)
{
	for (unsigned c = 0; c < 16; c += 8) {
		put_msr(c, 0xC00, 0x40005A5Aull + c);
		put_msr(c, 0xC09, 0x123456789ABCull + c);
		put_msr(c, 0xC10, 0x05140842ull);
		put_msr(c, 0xC24, 0x30100);
	}
	for (unsigned bus = 0x3F; bus <= 0x7F; bus += 0x40) {
		put_cfg((uint8_t)bus, 14, 1, 0xA0, 0x1234567890ull + bus, 8);
		put_cfg((uint8_t)bus, 14, 1, 0xF4, 0x30100, 4);
	}
}

/* A UBox counter is enabled (en, bit 22, of the UCLK fixed control or
 * CTL0/1; the leftovers have none): counting has begun. */
static int ivt_counting(void)
{
	return ((get_msr(0, 0xC08) | get_msr(0, 0xC10) | get_msr(0, 0xC11)) >> 22) & 1;
}

/* Normal exit, and SIGINT, SIGTERM and SIGHUP mid-run: every register of
 * both sockets as it was. */
CT_TEST(ivt_hw_leaves_registers_as_found_on_exit_and_signals)
{
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_ivt("ivt-restore", 0);
	ivt_leftovers();
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, IVT_EVENTS) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(ivt_counting());
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after a normal exit");
	ucb_destroy(h);
	signals_restore(IVT_EVENTS, ivt_counting);
	rm_tree();
	free(before);
	free(after);
}

/* `uncore stat --backend=hw | head -1`: the reader goes away; the write
 * fails (SIGPIPE is ignored) and the command still restores everything,
 * then ends with the status a pipeline expects of SIGPIPE (141), silently. */
CT_TEST(hw_restores_when_the_output_pipe_closes)
{
	struct snap *before = snap_new(), *after = snap_new();
	int pfd[2], st;
	pid_t pid;

	CT_REQUIRE(before && after);
	make_tree("pipe", 0);
	skl_leftovers();
	snapshot(before);
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
	CT_EQ(WEXITSTATUS(st), 128 + SIGPIPE);
	snapshot(after);
	check_same(before, after, "after the output pipe closed");
	rm_tree();
	free(before);
	free(after);
}

/* ---- no write outside the platform's registers ---- */

/* What may be written, from the model's register list (not from the
 * backend's allow-list): each writable register (a RW, RW1C or WO bit;
 * never the BAR) of the platform, PCI ones on the given buses only. */
struct expect {
	uint8_t msr[0x10000];
	uint16_t pci[256 * CFG_BYTES]; /* register number + 1 per byte of dev<<3|fn, offset */
	uint16_t mmio[MEM_BYTES];
	uint8_t bus[256];
};

static int expect_build(struct expect *e, const char *plat)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	memset(e, 0, sizeof(*e));
	ucm_config_init(&cfg, ucm_platform_find(plat));
	if (ucm_create(&cfg, &m))
		return -1;
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (!(ri.rw_mask | ri.w1c_mask | ri.wo_mask) || ri.kind == UCM_K_BAR)
			continue;
		if (ri.space == UCM_MSR && ri.addr < 0x10000) {
			e->msr[ri.addr] = 1;
		} else if (ri.space == UCM_PCI) {
			size_t at = ((ri.addr >> 12) & 0xFF) * CFG_BYTES + (ri.addr & 0xFFF);

			for (unsigned k = 0; k < ri.width / 8; k++)
				e->pci[at + k] = (uint16_t)(i + 1);
		} else if (ri.space == UCM_MMIO && ri.addr + ri.width / 8 <= MEM_BYTES) {
			for (unsigned k = 0; k < ri.width / 8; k++)
				e->mmio[ri.addr + k] = (uint16_t)(i + 1);
		}
	}
	ucm_destroy(m);
	return 0;
}

/* [off, off + w) inside one writable register */
static int pci_writable(const struct expect *e, unsigned bus, unsigned devfn, unsigned off, unsigned w)
{
	const uint16_t *r = e->pci + (size_t)devfn * CFG_BYTES;

	return e->bus[bus] && off + w <= CFG_BYTES && r[off] && r[off] == r[off + w - 1];
}

#define SWEEP_FAIL(...)                                                       \
	do {                                                                  \
		if (nfail++ < 10)                                             \
			ct_fail(__FILE__, __LINE__, __VA_ARGS__);             \
	} while (0)

/* Every write over the whole MSR range 0..0xFFFF and 100,000 random 32-bit
 * addresses; the dwords of the configuration header and PMON area (and
 * the QPI mask/match registers) of every function of every bus; every
 * offset and width of every function the tree has on the buses `full`;
 * every MMIO offset of the window.  Allowed exactly where e says. */
static void sweep(struct ucb *h, const struct expect *e, const uint8_t *full, unsigned nfull)
{
	static const unsigned extra[] = { 0x228, 0x22C, 0x238, 0x23C, 0x100, 0x800, 0xFFC };
	uint64_t rng = 12345;
	unsigned nfail = 0;

	for (uint32_t a = 0; a < 0x10000; a++) {
		int rc = ucb_msr_write(h, 0, a, ~0ull);

		if (e->msr[a] ? rc != 0 : rc != -EPERM)
			SWEEP_FAIL("wrmsr 0x%x: rc %d, writable %d", a, rc, e->msr[a]);
	}
	for (unsigned i = 0; i < 100000; i++) {
		uint32_t a;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		a = (uint32_t)(rng >> 32) | 0x10000u;
		if (ucb_msr_write(h, 0, a, 0) != -EPERM)
			SWEEP_FAIL("wrmsr 0x%x was not refused", a);
	}
	for (unsigned bus = 0; bus < 256; bus++)
		for (unsigned devfn = 0; devfn < 256; devfn++)
			for (unsigned k = 0; k < 64 + sizeof(extra) / sizeof(extra[0]); k++) {
				struct ucb_pci dev = { 0, (uint8_t)bus, (uint8_t)(devfn >> 3), (uint8_t)(devfn & 7) };
				unsigned off = k < 64 ? 4 * k : extra[k - 64];
				int rc = ucb_pci_write(h, &dev, off, 4, 0xFFFFFFFFu);

				if (pci_writable(e, bus, devfn, off, 4) ? rc != 0 : rc != -EPERM)
					SWEEP_FAIL("PCI write %02x:%02x.%x+0x%x/4: rc %d", bus, devfn >> 3, devfn & 7, off,
						   rc);
			}
	for (unsigned i = 0; i < T.nfn; i++) {
		const struct ucb_pci *dev = &T.fn[i].at;
		unsigned devfn = (unsigned)dev->dev << 3 | dev->fn, b;

		for (b = 0; b < nfull && full[b] != dev->bus; b++)
			;
		if (b == nfull)
			continue;
		for (unsigned off = 0; off < CFG_BYTES; off++)
			for (unsigned w = 1; w <= 8; w *= 2) {
				int rc;

				if (off + w > CFG_BYTES)
					continue;
				rc = ucb_pci_write(h, dev, off, w, ~0ull >> (64 - 8 * w));
				if (pci_writable(e, dev->bus, devfn, off, w) ? rc != 0 : rc != -EPERM)
					SWEEP_FAIL("PCI write %02x:%02x.%x+0x%x/%u: rc %d", dev->bus, dev->dev, dev->fn,
						   off, w, rc);
			}
	}
	for (uint64_t off = 0; off < MEM_BYTES; off++)
		for (unsigned w = 1; w <= 8; w *= 2) {
			/* the backend stores 32 bits at a time: another width or
			 * alignment is refused before anything is mapped */
			int bad = (w != 4 && w != 8) || off % 4;
			int ok = off + w <= MEM_BYTES && e->mmio[off] && e->mmio[off] == e->mmio[off + w - 1];
			int rc = ucb_mmio_write(h, BAR + off, w, 0);

			if (bad ? rc != -EINVAL : ok ? rc != 0 : rc != -EPERM)
				SWEEP_FAIL("MMIO write at BAR+0x%llx/%u: rc %d", (unsigned long long)off, w, rc);
		}
}

/* After the sweep: a byte changed only in a writable register (MSRs on cpu
 * 0, where the sweep wrote), and every writable register of cpu 0 and of
 * the allowed buses took the all-ones the sweep wrote: the writes landed
 * on the registers meant, on the buses meant. */
static void check_only_writable(const struct snap *before, const struct snap *after, const struct expect *e)
{
	unsigned nfail = 0;

	for (unsigned c = 0; c < T.ncpus; c++)
		for (unsigned a = 0; a < MSR_BYTES / 8; a++) {
			int changed = memcmp(before->msr[c] + 8 * a, after->msr[c] + 8 * a, 8) != 0;
			static const uint8_t ones[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

			if (changed && (c || !e->msr[a]))
				SWEEP_FAIL("cpu %u MSR 0x%x changed but is not writable", c, a);
			if (!c && e->msr[a] && memcmp(after->msr[c] + 8 * a, ones, 8))
				SWEEP_FAIL("MSR 0x%x is writable but was not written", a);
		}
	for (unsigned i = 0; i < T.nfn; i++) {
		const struct ucb_pci *d = &T.fn[i].at;
		unsigned devfn = (unsigned)d->dev << 3 | d->fn;

		for (unsigned off = 0; off < CFG_BYTES; off++) {
			int w = pci_writable(e, d->bus, devfn, off, 1);

			if (before->cfg[i][off] != after->cfg[i][off] && !w)
				SWEEP_FAIL("PCI %02x:%02x.%x+0x%x changed but is not writable", d->bus, d->dev, d->fn, off);
			if (w && after->cfg[i][off] != 0xFF)
				SWEEP_FAIL("PCI %02x:%02x.%x+0x%x is writable but was not written", d->bus, d->dev, d->fn,
					   off);
		}
	}
	for (unsigned off = 0; off < MEM_BYTES; off++)
		if (before->mem[off] != after->mem[off] && !e->mmio[off])
			SWEEP_FAIL("MMIO BAR+0x%x changed but is not writable", off);
}

/* Issue 6, done-when: no write outside the allow-list; before a platform
 * is allowed, nothing. */
CT_TEST(hw_writes_nothing_outside_the_platform_registers)
{
	static const uint8_t full[] = { 0 };
	struct snap *before = snap_new(), *after = snap_new();
	struct expect *e = malloc(sizeof(*e));
	struct ucb *h;

	CT_REQUIRE(before && after && e);
	make_tree("allow", 0);
	CT_REQUIRE(expect_build(e, "skl") == 0);
	e->bus[0] = 1; /* the client's host bridge bus (it holds no writable register) */
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	snapshot(before);
	CT_EQ(ucb_msr_write(h, 0, 0xE01, 0), -EPERM);
	CT_CONTAINS(ucb_error(h), "no platform allowed");
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("skl"), BAR) == 0);
	sweep(h, e, full, sizeof(full));
	snapshot(after);
	check_only_writable(before, after, e);
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
	free(e);
}

/* The same on an E5-2600 whose firmware chose buses 0x1F/0xFF, next to a
 * foreign UBox (bus 0x80) and an E5-2600 UBox whose node ID belongs to no
 * socket of this machine, on the usual bus 0x3F with a Home Agent beside
 * it: PCI registers are writable on 0x1F and 0xFF only. */
CT_TEST(snbep_hw_writes_nothing_outside_the_platform_registers)
{
	static const uint8_t full[] = { 0x1F, 0xFF, 0x3F, 0x80 };
	struct snap *before = snap_new(), *after = snap_new();
	struct expect *e = malloc(sizeof(*e));
	unsigned bus[8], sock[8];
	struct ucb *h;

	CT_REQUIRE(before && after && e);
	make_snbep("snbep-allow", 0, &SNBEP_MOVED);
	add_fn(0x3F, 11, 0, 0x3CE0, 0);
	put_cfg(0x3F, 11, 0, 0x40, 0, 4); /* node 0: socket 2 in this map */
	put_cfg(0x3F, 11, 0, 0x54, nodemap(&SNBEP_MOVED), 4);
	add_fn(0x3F, 14, 1, 0x3C46, 0);
	CT_REQUIRE(expect_build(e, "snbep") == 0);
	e->bus[0x1F] = e->bus[0xFF] = 1;
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	snapshot(before);
	{
		struct ucb_pci ha = { 0, 0xFF, 14, 1 };

		CT_EQ(ucb_pci_write(h, &ha, 0xF4, 4, 0), -EPERM);
		CT_CONTAINS(ucb_error(h), "no platform allowed");
		CT_EQ(ucb_msr_write(h, 8, 0xD04, 0), -EPERM);
	}
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("snbep"), 0) == 0);
	CT_EQ(ucb_hw_buses(h, bus, sock, 8), 2);
	CT_EQ(bus[0], 0x1F);
	CT_EQ(bus[1], 0xFF);
	sweep(h, e, full, sizeof(full));
	snapshot(after);
	check_only_writable(before, after, e);
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
	free(e);
}

/* ---- refusals ---- */

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
	tree_open_to_all();
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "in use by another agent");
	CT_CONTAINS(out, "--force");
	rm_tree();
}

/* Counters another agent (perf, PCM, likwid) has enabled are refused, on
 * either socket, in an MSR box or a PCI box, before anything is written;
 * with --force the session runs and puts the agent's programming back. */
CT_TEST(snbep_hw_refuses_counters_in_use_unless_forced)
{
	struct snap *before = snap_new(), *after = snap_new();
	char out[8192];
	const char *stat_args[] = { "uncore", "stat", "--backend=hw", "--hw-root", NULL, "--duration", "0.01",
				    "-e", "UNC_C_CLOCKTICKS", NULL, NULL };
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_snbep("snbep-inuse", 0, &SNBEP_USUAL);
	put_cfg(0x7F, 14, 1, 0xD8, (1u << 22) | 0x01, 4); /* socket 1 HA: CLOCKTICKS, enabled */
	put_msr(8, 0xD10, (1u << 22) | 0x00);             /* socket 1 CBo 0: enabled */
	tree_open_to_all();
	snapshot(before);

	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_H_REQUESTS.READS") == 0);
	CT_EQ(ucd_start(d), -EBUSY);
	CT_CONTAINS(ucd_error(d), "in use by another agent (HA_PCI_PMON_CTL0 = 0x400001 has EN set)");
	ucd_close(d);
	ucb_destroy(h);
	snapshot(after);
	check_same(before, after, "after the refusal"); /* nothing was written */

	stat_args[4] = root;
	CT_EQ(run_cli(out, sizeof(out), stat_args), 1);
	CT_CONTAINS(out, "cbo0 counter 0 is in use by another agent (C0_MSR_PMON_CTL0 = 0x400000 has EN set)");
	CT_CONTAINS(out, "use --force");
	snapshot(after);
	check_same(before, after, "after the refusal");
	stat_args[9] = "--force";
	CT_EQ(run_cli(out, sizeof(out), stat_args), 0);
	CT_CONTAINS(out, "UNC_C_CLOCKTICKS");
	snapshot(after);
	check_same(before, after, "after a forced run");
	rm_tree();
	free(before);
	free(after);
}

/* The MSR files alone, which a tree whose config files were cut to 64
 * bytes still has whole. */
static void msr_snapshot(struct snap *s)
{
	for (unsigned c = 0; c < T.ncpus; c++)
		slurp(msr_rel(c), 0, s->msr[c], MSR_BYTES);
}

/* Without root the kernel shows each PCI function's first 64 bytes only
 * (the backend reports -EACCES past them): the UBox's node ID at 0x40 is
 * out of reach.  An msr-safe user can still count the MSR boxes on both
 * sockets; an event of a PCI box is refused, naming the cause and the fix,
 * before anything is written. */
CT_TEST(snbep_hw_without_root_counts_the_msr_boxes)
{
	struct ucb *b;
	struct ucd *d;
	struct snap *before = snap_new(), *after = snap_new();

	CT_REQUIRE(before && after);
	make_snbep("snbep-nonroot", 0, &SNBEP_USUAL);
	put_msr(8, 0xD16, 0); /* socket 1's C0 counter 0 */
	snapshot(before);
	/* every function as a non-root reader sees it (the snapshot above has
	 * their whole space; the MSRs are compared below) */
	for (unsigned i = 0; i < T.nfn; i++)
		sized(T.fn[i].rel, 64);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(b, NULL, &d) == 0);
	CT_EQ(ucb_hw_allow(b, ucd_platform(d), ucd_mmio_base(d)), 0);
	CT_EQ(ucd_sockets(d), 2);
	CT_EQ(ucd_add_events(d, "cas_rd"), -EACCES);
	CT_CONTAINS(ucd_error(d), "PCI configuration space");
	CT_CONTAINS(ucd_error(d), "64 bytes");
	CT_CONTAINS(ucd_error(d), "run as root");
	msr_snapshot(after);
	CT_EQ(memcmp(before->msr, after->msr, sizeof(before->msr)), 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_C_CLOCKTICKS,UNC_U_CLOCKTICKS") == 0);
	/* 8 CBos (the tree's MSRs all answer) and the UBox, on both sockets */
	CT_EQ(ucd_ncounters(d), 2 * (8 + 1));
	CT_REQUIRE(ucd_start(d) == 0);
	put_msr(8, 0xD16, 12345);
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_REQUIRE(ucd_stop(d) == 0);
	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;

		CT_REQUIRE(ucd_counter(d, i, &ci) == 0);
		if (ci.socket == 1 && !strcmp(ci.box->type->name, "cbo") && ci.box->inst == 0)
			CT_EQ(ci.total, 12345);
	}
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	ucb_destroy(b);
	msr_snapshot(after);
	CT_EQ(memcmp(before->msr, after->msr, sizeof(before->msr)), 0);
	free(before);
	free(after);
	rm_tree();
}

/* The platform comes from CPUID family/model; a CPU that is not the one
 * named is refused unless forced; an E5-2600 CPU without its UBox on any
 * bus is refused; `allowlist --backend=hw` lists this CPU's MSRs. */
CT_TEST(snbep_hw_refuses_a_mismatched_platform)
{
	static char out[1 << 18]; /* a whole register dump */
	const char *regs[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL, NULL, NULL, NULL };
	const char *al[] = { "uncore", "allowlist", "--backend=hw", "--hw-root", NULL, NULL };
	char p[600];

	/* an E5-2600 asked to be a Skylake client, and the other way round */
	make_snbep("snbep-mismatch", 0, &SNBEP_USUAL);
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[5] = "--platform";
	regs[6] = "skl";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "(GenuineIntel family 6 model 0x2d) is not 6th Generation Intel Core");
	CT_CONTAINS(out, "use --force");
	CT_EQ(run_cli(out, sizeof(out), al), 0);
	CT_CONTAINS(out, "MSR allowlist for snbep");
	CT_CONTAINS(out, "0x00000D10 0x00000000FFCEFFFF");
	rm_tree();
	make_tree("skl-mismatch", 0);
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[6] = "snbep";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "model 0x5e) is not Intel Xeon E5-2600");
	CT_EQ(run_cli(out, sizeof(out), al), 0);
	CT_CONTAINS(out, "MSR allowlist for skl");
	rm_tree();

	/* a Haswell-EP (model 0x3F): not detected, refused when named,
	 * programmed when forced */
	make_snbep("hsx", 0, &SNBEP_USUAL);
	cpuinfo(63, 2, "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz");
	tree_open_to_all();
	regs[4] = al[4] = root;
	regs[5] = NULL;
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "no supported uncore for family 6 model 0x3f");
	CT_EQ(run_cli(out, sizeof(out), al), 1);
	CT_CONTAINS(out, "no supported uncore for family 6 model 0x3f");
	regs[5] = "--platform";
	regs[6] = "snbep";
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "is not Intel Xeon E5-2600");
	regs[7] = "--force";
	CT_EQ(run_cli(out, sizeof(out), regs), 0);
	CT_CONTAINS(out, "UBOX_CPUNODEID");
	rm_tree();

	/* the CPU says E5-2600, no bus has its UBox */
	make_snbep("noubox", 0, &SNBEP_USUAL);
	snprintf(p, sizeof(p), "rm -rf '%s/sys/bus/pci/devices/0000:3f:0b.0' '%s/sys/bus/pci/devices/0000:7f:0b.0'",
		 root, root);
	CT_REQUIRE(system(p) == 0);
	tree_open_to_all();
	regs[4] = root;
	regs[5] = NULL;
	CT_EQ(run_cli(out, sizeof(out), regs), 1);
	CT_CONTAINS(out, "(8086:3ce0) on any PCI bus");
	rm_tree();
}

CT_MAIN()
