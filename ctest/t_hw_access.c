/*
 * t_hw_access.c - the hardware backend on fake machines (ct_hw.h), without
 * root or Intel hardware: for each platform, the same register accesses in
 * the same order as on the simulator (the uncore buses wherever firmware
 * put them, both sockets through cpus found in sysfs topology, the packet
 * filters), and the values the tree holds read back as the driver's
 * registers and counts, through the library and through `uncore stat` and
 * `uncore regs`; widths the interface has not refused.
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

/* ---- access sequences ---- */

/* A driver session through a recorder; the log is left at path. */
static int session(struct ucb *base, const char *path, const char *events, uint64_t ns)
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
		rc = ucd_add_events(d, events);
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

/* The same session on the simulator of platform plat, strict: the driver
 * did nothing the manual calls undefined. */
static int sim_session_cfg(struct ucm_config *cfg, const char *path, const char *events, uint64_t ns)
{
	struct ucm_model *m;
	struct ucb *sim;
	int rc;

	cfg->strict = 1;
	if (ucm_create(cfg, &m))
		return -1;
	if (ucb_sim_create(m, &sim)) {
		ucm_destroy(m);
		return -1;
	}
	rc = session(sim, path, events, ns);
	if (!rc && ucm_strict_count(m)) {
		fprintf(stderr, "sim_session: %zu strict-mode records\n", (size_t)ucm_strict_count(m));
		rc = -1;
	}
	ucb_destroy(sim);
	ucm_destroy(m);
	return rc;
}

static int sim_session(const char *plat, const char *path, const char *events, uint64_t ns)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	return sim_session_cfg(&cfg, path, events, ns);
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

struct accesses {
	size_t n;
	char (*a)[512];
};

/* The accesses of a log with the PCI buses renamed by map (NULL: as they
 * are); those to function skip (dev << 3 | fn, -1: none) left out. */
static int load_accesses(const char *path, const uint8_t *map, int skip, struct accesses *out)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -1;
	while (next_access(f, line, sizeof(line))) {
		unsigned seg, bus, dev, fn;
		char op[16];
		int k = 0;

		if (sscanf(line, "%15s %x:%x:%x.%x%n", op, &seg, &bus, &dev, &fn, &k) == 5 &&
		    !strncmp(op, "pci", 3)) {
			if (skip >= 0 && (int)(dev << 3 | fn) == skip)
				continue;
			if (map) {
				char rest[400];

				snprintf(rest, sizeof(rest), "%s", line + k);
				snprintf(line, sizeof(line), "%s %04x:%02x:%02x.%x%s", op, seg & 0xFFFF, map[bus & 0xFF],
					 dev & 0x1F, fn & 7, rest);
			}
		}
		if (out->n == cap) {
			void *p = realloc(out->a, (cap = cap ? 2 * cap : 256) * sizeof(*out->a));

			if (!p) {
				fclose(f);
				return -1;
			}
			out->a = p;
		}
		memcpy(out->a[out->n++], line, sizeof(line));
	}
	fclose(f);
	return 0;
}

/* Both lists the same; the number compared, 0 on a difference. */
static size_t same_accesses_at(const struct accesses *sim, const struct accesses *h, int line)
{
	for (size_t i = 0; i < sim->n || i < h->n; i++) {
		const char *a = i < sim->n ? sim->a[i] : "(end)", *b = i < h->n ? h->a[i] : "(end)";

		if (strcmp(a, b)) {
			ct_fail(__FILE__, line, "access %zu: simulator '%s', hardware '%s'", i + 1, a, b);
			return 0;
		}
	}
	return sim->n;
}
#define same_accesses(a, b) same_accesses_at(a, b, __LINE__)

static size_t count_accesses(const struct accesses *x, const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		n += strstr(x->a[i], needle) != NULL;
	return n;
}

/* The cpus MSR accesses went through, a bit each. */
static uint32_t msr_cpus(const struct accesses *x)
{
	uint32_t m = 0;

	for (size_t i = 0; i < x->n; i++) {
		unsigned cpu;

		if ((sscanf(x->a[i], "rdmsr %u", &cpu) == 1 || sscanf(x->a[i], "wrmsr %u", &cpu) == 1) && cpu < 32)
			m |= 1u << cpu;
	}
	return m;
}

/* PCI accesses of 8 bytes: the kernel would split them, the driver must
 * not rely on that (public facts: Linux reads two dwords). */
static size_t pci_width8(const struct accesses *x)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++) {
		unsigned off, w;

		if (!strncmp(x->a[i], "pci", 3) && sscanf(x->a[i], "%*s %*s %x %u", &off, &w) == 2 && w == 8)
			n++;
	}
	return n;
}

/* Issue 6, done-when: the same register accesses, in the same order, as on
 * the simulated backend. */
CT_TEST(hw_performs_the_same_accesses_as_the_simulator)
{
	char simlog[300], hwlog[300];
	struct accesses s, h;
	struct ucb *b;

	make_tree("same", 0);
	snprintf(simlog, sizeof(simlog), "%s/sim.log", root);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE(sim_session("skl", simlog, EVENTS, 50000000) == 0);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, EVENTS, 50000000) == 0);
	ucb_destroy(b);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &s) == 0 && load_accesses(hwlog, NULL, -1, &h) == 0);
	CT_CHECK(same_accesses(&s, &h) > 40);
	free(s.a);
	free(h.a);
	rm_tree();
}

/* The same on a two-socket Xeon E5-2600, with PCI configuration through
 * sysfs, through /proc/bus/pci alone, and through sysfs for one bus and
 * the /proc fallback for the other: the scan of every bus for the UBox,
 * socket 1's MSRs on a cpu of package 1, every PCI box on both buses, the
 * 48-bit PCI counters as dwords (high, low, high); and the tree as found
 * afterwards. */
CT_TEST(snbep_hw_performs_the_same_accesses_as_the_simulator)
{
	static const int flags[] = { 0, PCI_PROC, PCI_SPLIT };
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses s, h;

	CT_REQUIRE(before && after);
	make_snbep("snbep-same", 0, &SNBEP_USUAL);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-snbep-sim.log", (int)getpid());
	CT_REQUIRE(sim_session("snbep", simlog, SNBEP_EVENTS, 50000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &s) == 0);
	unlink(simlog);
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		struct ucb *b;

		make_snbep("snbep-same", flags[i], &SNBEP_USUAL);
		snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
		snapshot(before);
		CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
		CT_CONTAINS(ucb_hw_describe(b), flags[i] & PCI_PROC ? "PCI via /proc/bus/pci" : "PCI via sysfs");
		CT_REQUIRE(session(b, hwlog, SNBEP_EVENTS, 50000000) == 0);
		ucb_destroy(b);
		snapshot(after);
		check_same(before, after, "after the session");
		CT_REQUIRE(load_accesses(hwlog, NULL, -1, &h) == 0);
		CT_CHECK(same_accesses(&s, &h) > 400);
		/* what the comparison covers: the scan, both sockets, every box */
		CT_EQ(count_accesses(&h, ":0b.0 0x0 2"), 256 + 1);
		CT_CHECK(count_accesses(&h, "wrmsr 8 0xd10 ") > 0);
		CT_EQ(msr_cpus(&h), (1u << 0) | (1u << 8)); /* the first cpu of each package */
		for (unsigned f = 1; f < NSNBEP_FNS; f++) {
			char want[64];

			/* every PMON function on both buses (misc, mask/match
			 * and the PCU's functions hold no counter: only HA..
			 * R3QPI are programmed) */
			if (snbep_fns[f].fn == 0 || snbep_fns[f].fn == 6 || snbep_fns[f].dev == 10)
				continue;
			snprintf(want, sizeof(want), "pciwr 0000:7f:%02x.%x 0xf4 4", snbep_fns[f].dev, snbep_fns[f].fn);
			if (!count_accesses(&h, want))
				ct_fail(__FILE__, __LINE__, "no '%s' in the hardware log", want);
		}
		CT_CHECK(count_accesses(&h, "pcird 0000:3f:10.0 0xa4 4") >= 2);
		CT_CHECK(count_accesses(&h, "pcird 0000:3f:10.0 0xa0 4") >= 1);
		CT_EQ(pci_width8(&h), 0); /* 8-byte registers as two dwords */
		free(h.a);
	}
	free(s.a);
	rm_tree();
	free(before);
	free(after);
}

/* One event of every E5-2600 v2 box type: UBox general and fixed, CBo with
 * its FILTER0 state, PCU, HA 1, iMC general and fixed on MC1, QPI, R2PCIe,
 * R3QPI and the IRP at its irregular offsets. */
static const char *IVT_EVENTS = "UNC_U_CLOCKTICKS,uclk_fixed,UNC_C_LLC_LOOKUP.DATA_READ,UNC_P_CLOCKTICKS,"
				"ha1/event=0x0/,imc5/UNC_M_CAS_COUNT.RD/,dclk_fixed,UNC_Q_CLOCKTICKS,"
				"UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS,UNC_I_CLOCKTICKS";

/* The E5-2600 v2 on the hardware backend: detected from CPUID model 0x3E
 * and the UBox function 0x0E1E, the same accesses as the simulator
 * configured alike (two sockets of 8 cpus), the box controls written with
 * 17:16 set, every register left as found. */
CT_TEST(ivt_hw_performs_the_same_accesses_as_the_simulator)
{
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct ucm_config cfg;
	struct accesses sacc, hacc;
	struct ucb *b;

	CT_REQUIRE(before && after);
	make_ivt("ivt-same", 0);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-ivt-sim.log", (int)getpid());
	ucm_config_init(&cfg, ucm_platform_find("ivt"));
	cfg.cpus_per_socket = 8;
	/* the tree's MSR files answer every address: all 15 CBos answer the
	 * driver's probe, as on a part with the whole die enabled */
	cfg.ninst[ucm_boxtype_index(cfg.plat, cfg.plat->counted)] = 15;
	CT_REQUIRE(sim_session_cfg(&cfg, simlog, IVT_EVENTS, 50000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &sacc) == 0);
	unlink(simlog);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	snapshot(before);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, IVT_EVENTS, 50000000) == 0);
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after the session");
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &hacc) == 0);
	CT_CHECK(same_accesses(&sacc, &hacc) > 200);
	CT_CHECK(count_accesses(&hacc, "wrmsr 8 0xd04 ") > 0);       /* CBo 0 box control */
	CT_CHECK(count_accesses(&hacc, "pciwr 0000:7f:1e.5 0xf4 4") > 0); /* MC1 ch1 box control */
	CT_CHECK(count_accesses(&hacc, "pcird 0000:3f:05.6 0xa4 4") >= 1); /* IRP counter 0 */
	CT_CHECK(count_accesses(&hacc, "pciwr 0000:3f:1c.1 0xd8 4") > 0); /* HA 1 control 0 */
	free(hacc.a);
	free(sacc.a);
	rm_tree();
	free(before);
	free(after);
}

/* Issue 6: find each socket's uncore bus as the hardware describes it.  On
 * a box whose firmware put socket 0 (node 2) on bus 0xFF and socket 1
 * (node 5) on bus 0x1F, next to a foreign UBox, the driver and the
 * backend's allow-list follow the node IDs: the session is the simulator's
 * with its buses renamed, writes go to 0xFF/0x1F and nothing else, and the
 * usual buses 0x3F/0x7F cannot be written. */
CT_TEST(snbep_hw_finds_the_uncore_buses_the_firmware_chose)
{
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses s, h, scan;
	uint8_t map[256];
	unsigned bus[8], sock[8];
	struct ucb *b;
	struct ucd *d;

	CT_REQUIRE(before && after);
	make_snbep("snbep-moved", 0, &SNBEP_MOVED);
	snprintf(simlog, sizeof(simlog), "%s/sim.log", root);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE(sim_session("snbep", simlog, SNBEP_EVENTS, 50000000) == 0);
	snapshot(before);
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(b, hwlog, SNBEP_EVENTS, 50000000) == 0);
	/* the backend's own view: both buses, with their sockets */
	CT_EQ(ucb_hw_buses(b, bus, sock, 8), 2);
	CT_EQ(bus[0], 0x1F);
	CT_EQ(sock[0], 1);
	CT_EQ(bus[1], 0xFF);
	CT_EQ(sock[1], 0);
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after the session");

	/* everything but the UBox function: the simulator's session on its
	 * buses (socket 0 0x3F, socket 1 0x7F) renamed */
	for (unsigned i = 0; i < 256; i++)
		map[i] = (uint8_t)i;
	map[0x3F] = 0xFF;
	map[0x7F] = 0x1F;
	CT_REQUIRE(load_accesses(simlog, map, 11 << 3, &s) == 0 && load_accesses(hwlog, NULL, 11 << 3, &h) == 0);
	CT_CHECK(same_accesses(&s, &h) > 400);
	CT_CHECK(count_accesses(&h, "0000:ff:0e.1") > 0 && count_accesses(&h, "0000:1f:0e.1") > 0);
	CT_EQ(count_accesses(&h, "0000:3f:") + count_accesses(&h, "0000:7f:"), 0);
	free(s.a);
	/* and a simulator configured like this box (ucm_config.pci_bus,
	 * node_id: socket 0 node 2 on 0xFF, socket 1 node 5 on 0x1F) makes the
	 * same accesses without renaming (the foreign UBox on bus 0x80 aside) */
	{
		struct ucm_config cfg;

		ucm_config_init(&cfg, ucm_platform_find("snbep"));
		cfg.pci_bus[0] = 0xFF;
		cfg.pci_bus[1] = 0x1F;
		cfg.node_id[0] = 2;
		cfg.node_id[1] = 5;
		CT_REQUIRE(sim_session_cfg(&cfg, simlog, SNBEP_EVENTS, 50000000) == 0);
		CT_REQUIRE(load_accesses(simlog, NULL, 11 << 3, &s) == 0);
		CT_CHECK(same_accesses(&s, &h) > 400);
		free(s.a);
	}
	free(h.a);
	/* the UBox function: the ID of D11:F0 on every bus, the node ID and
	 * map where it is the E5-2600's, then socket 0's again (identify) */
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &scan) == 0);
	{
		size_t k = 0;
		char want[96];

		for (unsigned bn = 0; bn < 256 + 1; bn++) {
			unsigned bb = bn < 256 ? bn : 0xFF;
			static const char *const offs[4] = { "0x0 2", "0x2 2", "0x40 4", "0x54 4" };
			unsigned nofs = bn == 256 ? 2 : bb == 0x1F || bb == 0xFF ? 4 : bb == 0x80 ? 2 : 1;

			for (unsigned o = 0; o < nofs; o++) {
				snprintf(want, sizeof(want), "pcird 0000:%02x:0b.0 %s", bb, offs[o]);
				while (k < scan.n && !strstr(scan.a[k], ":0b.0 "))
					k++;
				if (k == scan.n || strcmp(scan.a[k], want)) {
					ct_fail(__FILE__, __LINE__, "UBox access: want '%s', got '%s'", want,
						k < scan.n ? scan.a[k] : "(end)");
					bn = 257;
					break;
				}
				k++;
			}
		}
		while (k < scan.n && !strstr(scan.a[k], ":0b.0 "))
			k++;
		CT_EQ(k, scan.n);
	}
	free(scan.a);

	/* while counting: our programming is on 0xFF and 0x1F */
	CT_REQUIRE((b = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(b, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(b, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_H_REQUESTS.READS") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	CT_CHECK(get_cfg(0xFF, 14, 1, 0xD8, 4) & (1u << 22));
	CT_CHECK(get_cfg(0x1F, 14, 1, 0xD8, 4) & (1u << 22));
	CT_EQ(ucd_event_socket_total(d, 0, 0), 0);
	put_cfg(0xFF, 14, 1, 0xA0, 1000, 8); /* socket 0 */
	put_cfg(0x1F, 14, 1, 0xA0, 7, 8);    /* socket 1 */
	CT_REQUIRE(ucd_sample(d) == 0);
	CT_EQ(ucd_event_socket_total(d, 0, 0), 1000);
	CT_EQ(ucd_event_socket_total(d, 0, 1), 7);
	/* the usual buses are not this machine's uncore */
	{
		struct ucb_pci usual = { 0, 0x3F, 14, 1 };

		CT_EQ(ucb_pci_write(b, &usual, 0xF4, 4, 0), -EPERM);
		CT_CONTAINS(ucb_error(b), "3f:0e.1+0xf4 refused: not a PMON register of snbep on its uncore buses (1f ff)");
		usual.bus = 0x7F;
		CT_EQ(ucb_pci_write(b, &usual, 0xD8, 4, 0), -EPERM);
	}
	ucd_close(d); /* the counters too are put back */
	ucb_destroy(b);
	snapshot(after);
	check_same(before, after, "after counting");
	rm_tree();
	free(before);
	free(after);
}

/* ---- sockets and cpus ---- */

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

/* Two sockets from sysfs topology, whatever order the kernel numbered the
 * cpus in: interleaved (cpu c in package c % 2, as many two-socket BIOSes
 * enumerate), socket 1 is cpu 1, and its uncore MSRs are programmed there
 * and nowhere else; with cpu 1 offline, on cpu 3. */
CT_TEST(snbep_hw_maps_two_sockets_to_cpus_from_sysfs)
{
	struct snbep_layout l = SNBEP_USUAL;
	struct snap *before = snap_new(), *after = snap_new();
	struct ucb *h;
	struct ucd *d;
	unsigned cpu = 99;
	char cmd[600];

	CT_REQUIRE(before && after);
	l.interleaved = 1;
	make_snbep("snbep-topo", 0, &l);
	snapshot(before);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 0, &cpu), 0);
	CT_EQ(cpu, 0);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), 0);
	CT_EQ(cpu, 1);
	CT_EQ(ucb_socket_cpu(h, 2, &cpu), -ENOENT);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_EQ(ucd_sockets(d), 2);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,UNC_C_CLOCKTICKS") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	snapshot(after);
	for (unsigned c = 0; c < 2; c++) {
		CT_CHECK(get_msr(c, 0xC08) & (1u << 22)); /* U_MSR_PMON_UCLK_FIXED_CTL.en */
		CT_CHECK(get_msr(c, 0xD10) & (1u << 22)); /* C0_MSR_PMON_CTL0.en */
	}
	for (unsigned c = 2; c < MAXCPU_T; c++)
		if (memcmp(before->msr[c], after->msr[c], MSR_BYTES))
			ct_fail(__FILE__, __LINE__, "cpu %u's MSRs were written: not the first cpu of a package", c);
	ucd_close(d);
	ucb_destroy(h);
	snapshot(after);
	check_same(before, after, "after the session");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu1/topology'", root);
	CT_REQUIRE(system(cmd) == 0);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), 0);
	CT_EQ(cpu, 3);
	ucb_destroy(h);

	/* package 1 entirely offline: its bus is not written */
	for (unsigned c = 3; c < MAXCPU_T; c += 2) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/cpu/cpu%u/topology'", root, c);
		CT_REQUIRE(system(cmd) == 0);
	}
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_EQ(ucb_socket_cpu(h, 1, &cpu), -ENOENT);
	CT_REQUIRE(ucb_hw_allow(h, ucm_platform_find("snbep"), 0) == 0);
	{
		unsigned bus[8], sock[8];
		struct ucb_pci ha1 = { 0, 0x7F, 14, 1 }, ha0 = { 0, 0x3F, 14, 1 };

		CT_EQ(ucb_hw_buses(h, bus, sock, 8), 1);
		CT_EQ(bus[0], 0x3F);
		CT_EQ(ucb_pci_write(h, &ha1, 0xF4, 4, 0), -EPERM);
		CT_EQ(ucb_pci_write(h, &ha0, 0xF4, 4, 0), 0);
	}
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* ---- the values the tree holds ---- */

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

/* The interface's widths (driver/backend/ucb.h: PCI 1, 2, 4 or 8 bytes, MMIO 4 or
 * 8) are refused before any backend acts: the hardware's pread copies
 * `width` bytes into a uint64_t, so a PCI read of 16 would overrun the
 * caller's value.  The same on the simulated backend. */
CT_TEST(backends_refuse_widths_the_interface_has_not)
{
	static const struct ucb_pci host = { 0, 0, 0, 0 };
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *be[2];

	make_tree("widths", 0);
	CT_REQUIRE((be[0] = hw(UCB_HW_MSR)) != NULL);
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_REQUIRE(ucb_sim_create(m, &be[1]) == 0);
	for (unsigned k = 0; k < 2; k++) {
		static const unsigned bad[] = { 0, 3, 5, 16, 64 };
		uint64_t guard[2] = { 0, 0x5A5A5A5A5A5A5A5Aull };

		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			guard[0] = 1;
			CT_EQ(ucb_pci_read(be[k], &host, 0, bad[i], &guard[0]), -EINVAL);
			CT_EQ(guard[0], 0);
			CT_CONTAINS(ucb_error(be[k]), "the width is 1, 2, 4 or 8");
			CT_EQ(guard[1], 0x5A5A5A5A5A5A5A5Aull);
			CT_EQ(ucb_pci_write(be[k], &host, 0x40, bad[i], 0), -EINVAL);
		}
		for (unsigned w = 0; w <= 16; w++) {
			if (w == 4 || w == 8)
				continue;
			CT_EQ(ucb_mmio_read(be[k], BAR + 0x5050, w, &guard[0]), -EINVAL);
			CT_CONTAINS(ucb_error(be[k]), "the width is 4 or 8");
			CT_EQ(ucb_mmio_write(be[k], BAR + 0x5050, w, 0), -EINVAL);
		}
		/* a counter offset past configuration space, however large
		 * (no wrap of offset + 8), on the backend that reads blocks */
		if (k == 0) {
			static const unsigned far[] = { 0x1000, 0xFFFFFFF8u, 0xFFFFFFFCu };

			for (unsigned i = 0; i < 3; i++) {
				CT_EQ(ucb_pci_read_ctrs(be[k], &host, &far[i], 1, &guard[0]), -EINVAL);
				CT_EQ(guard[1], 0x5A5A5A5A5A5A5A5Aull);
			}
		}
		/* the widths it has still work: the host bridge's vendor ID */
		CT_EQ(ucb_pci_read(be[k], &host, 0, 2, &guard[0]), 0);
		CT_EQ(guard[0], 0x8086);
	}
	ucb_destroy(be[0]);
	ucb_destroy(be[1]);
	ucm_destroy(m);
	rm_tree();
}

/* The same on the E5-2600: a dump of both sockets (MSRs through each
 * socket's cpu, PCI registers on each socket's bus, the node IDs), and
 * counts of both sockets from MSR and PCI counters, a 48-bit PCI counter
 * past 32 bits (two dwords) and its wrap, a free-running C-state counter. */
CT_TEST(snbep_hw_reads_the_values_the_tree_holds)
{
	struct ucb *h;
	struct ucd *d;
	char *buf = NULL, want[160];
	size_t len = 0;
	FILE *f;
	struct ucd_evinfo ei;
	unsigned c0, c3, ha;
	uint64_t t;

	make_snbep("snbep-values", 0, &SNBEP_USUAL);
	put_msr(8, 0xD10, 0x8F34);                              /* socket 1, C0 CTL0: not enabled */
	put_cfg(0x7F, 16, 5, 0xA0, 0x0000123456789ABCull, 8);   /* socket 1, MC_CH3 CTR0 */
	put_msr(0, 0xC36, 1000);                                /* socket 0, PCU CTR0 */
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_STREQ(ucd_platform(d)->name, "snbep");
	CT_EQ(ucd_sockets(d), 2);
	f = open_memstream(&buf, &len);
	CT_REQUIRE(ucd_dump_regs(d, f) == 0);
	fclose(f);
	snprintf(want, sizeof(want), "1 msr  0x%-13x %-28s 0x%016x ", 0xD10, "C0_MSR_PMON_CTL0", 0x8F34);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 msr  0x%-13x %-28s 0x%016x ", 0xD10, "C0_MSR_PMON_CTL0", 0);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "1 pci  7f:10.5+0x0a0 %-28s 0x%016llx ", "MC_CH3_PCI_PMON_CTR0",
		 0x123456789ABCull);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "1 pci  7f:0b.0+0x040 %-28s 0x%08x", "UBOX_CPUNODEID", 1);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 pci  3f:0b.0+0x054 %-28s 0x%08x", "UBOX_GIDNIDMAP", nodemap(&SNBEP_USUAL));
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 pci  3f:08.0+0x0d4 %-28s 0x%08x", "Q_P0_QPI_RATE_STATUS", 5);
	CT_CONTAINS(buf, want);
	snprintf(want, sizeof(want), "0 msr  0x%-13x %-28s 0x%016x ", 0xC36, "PCU_MSR_PMON_CTR0", 1000);
	CT_CONTAINS(buf, want);
	free(buf);

	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, "UNC_U_CLOCKTICKS,cas_rd,UNC_H_REQUESTS.READS") == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	c0 = pci_counter_in_use(0x3F, 16, 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	ha = pci_counter_in_use(0x3F, 14, 1);
	put_msr(0, 0xC09, 3000000);                          /* UBox fixed counters */
	put_msr(8, 0xC09, 5000000);
	put_cfg(0x3F, 16, 0, c0, 0x100000010ull, 8);         /* socket 0 ch0: past 32 bits */
	put_cfg(0x7F, 16, 5, c3, 0x42, 8);                   /* socket 1 ch3 */
	put_cfg(0x3F, 14, 1, ha, 5, 8);
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 0, &ei);
	CT_EQ(ei.total, 8000000);
	CT_EQ(ucd_event_socket_total(d, 0, 0), 3000000);
	CT_EQ(ucd_event_socket_total(d, 0, 1), 5000000);
	ucd_event(d, 1, &ei);
	CT_EQ(ei.total, 0x100000010ull + 0x42);
	CT_EQ(ucd_event_socket_total(d, 1, 1), 0x42);
	ucd_event(d, 2, &ei);
	CT_EQ(ei.total, 5);
	/* the 48-bit counter wraps: the delta is modulo 2^48 */
	put_cfg(0x3F, 16, 0, c0, 3, 8);
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_event(d, 1, &ei);
	t = 0x100000010ull + 0x42 + ((3 - 0x100000010ull) & 0xFFFFFFFFFFFFull);
	CT_EQ(ei.total, t);
	CT_REQUIRE(ucd_stop(d) == 0);
	CT_REQUIRE(ucd_restore(d) == 0);
	/* put back as found, the other agent's control included */
	CT_EQ(get_msr(8, 0xD10), 0x8F34);
	CT_EQ(get_cfg(0x7F, 16, 5, 0xA0, 8), 0x123456789ABCull);
	ucd_close(d);
	ucb_destroy(h);
	rm_tree();
}

/* The packet filters on a real box: the QPI match/mask registers are on F6
 * of each port's device (Table 2-84), the HA's match registers on D14:F1
 * (Table 2-33).  The driver writes them on both sockets' buses as the
 * simulator's session does, in the same order, and leaves the values it
 * found when it exits. */
CT_TEST(snbep_hw_programs_the_packet_filters_and_restores_them)
{
	static const char *ev = "qpi/event=0x138,match0=0x1c00,mask0=0x1f00/,"
				"ha/ADDR_OPC_MATCH.FILT,filter_opc=4,filter_addr=0x2f3c5a7b000/";
	struct snap *before = snap_new(), *after = snap_new();
	char simlog[300], hwlog[300];
	struct accesses sa, ha;
	struct ucb *h;
	struct ucd *d;

	CT_REQUIRE(before && after);
	snprintf(simlog, sizeof(simlog), "/tmp/uncore-t-hw-%d-match-sim.log", (int)getpid());
	CT_REQUIRE(sim_session("snbep", simlog, ev, 5000000) == 0);
	CT_REQUIRE(load_accesses(simlog, NULL, -1, &sa) == 0);
	unlink(simlog);
	make_snbep("snbep-match", 0, &SNBEP_USUAL);
	snprintf(hwlog, sizeof(hwlog), "%s/hw.log", root);
	CT_REQUIRE((h = hw(UCB_HW_MSR)) != NULL);
	CT_REQUIRE(session(h, hwlog, ev, 5000000) == 0);
	CT_REQUIRE(load_accesses(hwlog, NULL, -1, &ha) == 0);
	CT_CHECK(same_accesses(&sa, &ha) > 40);
	CT_EQ(count_accesses(&ha, "pciwr 0000:7f:09.6 0x228 4"), 2); /* program, restore */
	CT_EQ(count_accesses(&ha, "pciwr 0000:3f:08.6 0x238 4"), 2);
	CT_EQ(count_accesses(&ha, "pciwr 0000:7f:0e.1 0x44 4"), 2);
	free(sa.a);
	free(ha.a);

	/* another agent's values stay theirs */
	put_cfg(0x3F, 8, 6, 0x228, 0x1800, 4);
	put_cfg(0x7F, 9, 6, 0x23C, 0xF0000, 4);
	put_cfg(0x3F, 14, 1, 0x48, 0x14, 4);
	snapshot(before);
	CT_REQUIRE(ucd_open(h, NULL, &d) == 0);
	CT_REQUIRE(ucb_hw_allow(h, ucd_platform(d), ucd_mmio_base(d)) == 0);
	CT_REQUIRE(ucd_add_events(d, ev) == 0);
	CT_REQUIRE(ucd_start(d) == 0);
	for (unsigned b = 0; b < 2; b++) {
		uint8_t bus = b ? 0x7F : 0x3F;

		for (uint8_t dev = 8; dev <= 9; dev++) {
			CT_EQ(get_cfg(bus, dev, 6, 0x228, 4), 0x1C00);
			CT_EQ(get_cfg(bus, dev, 6, 0x22C, 4), 0);
			CT_EQ(get_cfg(bus, dev, 6, 0x238, 4), 0x1F00);
			CT_EQ(get_cfg(bus, dev, 6, 0x23C, 4), 0);
		}
		CT_EQ(get_cfg(bus, 14, 1, 0x48, 4), 4);
		CT_EQ(get_cfg(bus, 14, 1, 0x40, 4), 0xC5A7B000);
		CT_EQ(get_cfg(bus, 14, 1, 0x44, 4), 0x2F3);
	}
	CT_REQUIRE(ucd_sample(d) == 0);
	ucd_close(d);
	snapshot(after);
	check_same(before, after, "after the packet filters");
	ucb_destroy(h);
	rm_tree();
	free(before);
	free(after);
}

/* `uncore stat --backend=hw -x,` on the E5-2600 prints the counts the
 * tree's counters show: both sockets summed, a PCI counter past 32 bits. */
CT_TEST(snbep_cli_stat_prints_the_counts_the_tree_holds)
{
	char out[300], line[512];
	unsigned c0, c3;
	pid_t pid;
	int st, t, seen = 0;
	FILE *f;

	make_snbep("snbep-cli-stat", 0, &SNBEP_USUAL);
	snprintf(out, sizeof(out), "%s/out.csv", root);
	pid = fork();
	CT_REQUIRE(pid >= 0);
	if (pid == 0) {
		execl(UNCORE_BIN, "uncore", "stat", "--backend=hw", "--hw-root", root, "--duration", "1.5", "-x,",
		      "-o", out, "-e", "UNC_U_CLOCKTICKS,cas_rd", (char *)NULL);
		_exit(127);
	}
	for (t = 0; t < 1000 && !snbep_counting(); t++)
		usleep(10000);
	CT_CHECK(snbep_counting());
	c0 = pci_counter_in_use(0x3F, 16, 0);
	c3 = pci_counter_in_use(0x7F, 16, 5);
	put_msr(0, 0xC09, 1234);
	put_msr(8, 0xC09, 4321);
	put_cfg(0x3F, 16, 0, c0, 0x200000001ull, 8);
	put_cfg(0x7F, 16, 5, c3, 9, 8);
	CT_REQUIRE(waitpid(pid, &st, 0) == pid);
	CT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	f = fopen(out, "r");
	CT_REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char name[64];

		if (sscanf(line, "%llu,,%63[^,]", &v, name) != 2)
			continue;
		if (!strcmp(name, "UNC_U_CLOCKTICKS")) {
			CT_EQ(v, 5555);
			seen |= 1;
		} else if (!strcmp(name, "cas_rd")) {
			CT_EQ(v, 0x200000001ull + 9);
			seen |= 2;
		}
	}
	fclose(f);
	CT_EQ(seen, 3);
	rm_tree();
}

/* `uncore regs` on the E5-2600 tree: both sockets, each with its bus. */
CT_TEST(snbep_cli_regs_shows_both_sockets)
{
	size_t n = 1 << 18;
	char *out = malloc(n);
	const char *regs[] = { "uncore", "regs", "--backend=hw", "--hw-root", NULL, NULL };

	CT_REQUIRE(out);
	make_snbep("snbep-regs", 0, &SNBEP_MOVED);
	put_cfg(0x1F, 16, 4, 0xD8, 0x0304, 4);
	tree_open_to_all();
	regs[4] = root;
	CT_EQ(run_cli(out, n, regs), 0);
	CT_CONTAINS(out, "# hardware backend: MSR via /dev/cpu/N/msr, PCI via sysfs (else /proc/bus/pci)");
	CT_CONTAINS(out, "0 pci  ff:0b.0+0x040 UBOX_CPUNODEID               0x00000002");
	CT_CONTAINS(out, "1 pci  1f:0b.0+0x040 UBOX_CPUNODEID               0x00000005");
	CT_CONTAINS(out, "1 pci  1f:10.4+0x0d8 MC_CH2_PCI_PMON_CTL0         0x00000304");
	CT_CONTAINS(out, "1 msr  0xd10           C0_MSR_PMON_CTL0");
	rm_tree();
	free(out);
}

CT_MAIN()
