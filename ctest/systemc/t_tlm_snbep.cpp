/*
 * t_tlm_snbep.cpp - the SystemC TLM-2.0 wrapper on the Xeon E5-2600
 * platform ("snbep", model/snbep/ucm_plat_snbep.c): two sockets, MSR boxes reached
 * through any cpu of their socket, PCI boxes on each socket's uncore bus
 * (0x3F, 0x7F), 44- and 48-bit counters (the PCI ones two configuration
 * dwords), four clock domains, box-level freeze, and no global control,
 * status or PMI (guide 2.1).
 *
 * Counts read through TLM are compared with the model's ground truth and,
 * independently, with what the workload fed (ucm_fed) and with the cycles
 * of each clock domain computed here from the local times of the reads.
 * The harness is ctest/systemc/tlm_rig.h; sc_main is in t_tlm.cpp.
 */
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "tlm_rig.h"

using namespace sc_core;
using tlm::tlm_response_status;

namespace {

/* ---- Xeon E5-2600 registers (guide Tables 1-2, 1-3 and chapter 2) ---- */

const char *const SNBEP = "snbep";
const std::uint64_t EN = 1ull << 22;               /* every counter control */
const std::uint64_t FRZ_EN = 1ull << 16, FRZ = 1ull << 8; /* box controls */
const std::uint64_t FILTER_ALL_STATES = 0x1Full << 18;    /* Cn filter state 22:18 */

/* CBo n: MSR 0xD00 + 0x20 n (Table 2-8) */
std::uint32_t cbo(unsigned n, unsigned off)
{
	return 0xD00 + 0x20 * n + off;
}
const unsigned C_BOX_CTL = 0x04, C_CTL0 = 0x10, C_FILTER = 0x14, C_CTR0 = 0x16;
/* UBox (Table 2-1), PCU (Table 2-73) */
const std::uint32_t U_FIXED_CTL = 0xC08, U_FIXED_CTR = 0xC09;
const std::uint32_t P_BOX_CTL = 0xC24, P_CTL0 = 0xC30, P_CTR0 = 0xC36;
/* PCI boxes: device, function, registers (Tables 2-59, 2-84) */
const unsigned IMC_DEV = 16, IMC_FN[4] = { 0, 1, 4, 5 };
const unsigned QPI_DEV0 = 8, QPI_FN = 2, UBOX_DEV = 11;
const unsigned PCI_CTR0 = 0xA0, PCI_CTL0 = 0xD8, PCI_BOX_CTL = 0xF4;
const unsigned M_FIXED_CTR = 0xD0, M_FIXED_CTL = 0xF0;
/* clock domains (SNBEP_CLK_*) */
const unsigned UCLK = 0, DCLK = 1, PCLK = 2, QCLK = 3;

const std::uint64_t M44 = (1ull << 44) - 1, M48 = (1ull << 48) - 1;

std::uint64_t ev(unsigned code, unsigned umask)
{
	return code | (std::uint64_t(umask) << 8) | EN;
}

std::uint64_t msr(unsigned cpu, std::uint32_t a)
{
	return ucm_sc::uncore_tlm::msr_address(cpu, a);
}

int box(rig &r, unsigned socket, const char *type, unsigned inst)
{
	int b = ucm_box_find(r.m(), socket, type, inst);

	T_CHECK(b >= 0);
	return b;
}

unsigned sub(rig &r, int b, const char *name)
{
	int s = ucm_subev_find(ucm_box_def(r.m(), b)->type, name);

	T_CHECK(s >= 0);
	return unsigned(s);
}

/* ---- a workload that changes every 4 us ----
 * Phase p feeds, per cycle of each box's own clock:
 *  socket 1 CBo 3  LLC_LOOKUP: DATA_READ_M, DATA_READ_I, WRITE_M by p % 3
 *  socket 0 CBo 3  LLC_LOOKUP.DATA_READ_M always (the same box on the
 *                  other socket: must never show in socket 1's count)
 *  socket 0 iMC 0  CAS_COUNT: RD_REG, RD_UNDERFILL, WR_WMM, nothing by p % 4
 *  socket 1 iMC 0  CAS_COUNT.RD_REG always (same device, other bus)
 *  socket 1 iMC 2  CAS_COUNT.WR_RMM except when p % 3 == 2
 * (CAS_COUNT and LLC_LOOKUP take at most 1 per cycle over all sub-events.) */
struct phased {
	int c13, c03, m00, m10, m12;
	unsigned llc[3], llc_dm, cas[3], cas_rd, cas_wr_rmm;
	unsigned calls = 0;
};

phased g_ph;

int phased_fn(ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	phased *w = static_cast<phased *>(ctx);
	unsigned p = w->calls++;
	int rc = 0;

	/* off first: the model refuses a moment with two of one code's
	 * sub-events at 1 (more than the code's maximum per cycle) */
	for (unsigned i = 0; i < 3; i++) {
		rc |= ucm_set_input(m, w->c13, w->llc[i], 0);
		rc |= ucm_set_input(m, w->m00, w->cas[i], 0);
	}
	for (unsigned i = 0; i < 3; i++) {
		rc |= ucm_set_input(m, w->c13, w->llc[i], p % 3 == i);
		rc |= ucm_set_input(m, w->m00, w->cas[i], p % 4 == i);
	}
	rc |= ucm_set_input(m, w->c03, w->llc_dm, 1);
	rc |= ucm_set_input(m, w->m10, w->cas_rd, 1);
	rc |= ucm_set_input(m, w->m12, w->cas_wr_rmm, p % 3 != 2);
	*next = now + 4000000;
	return rc ? ucm_set_error(m, -EINVAL, "phased: input rejected") : 0;
}

void phased_init(rig &r)
{
	phased &w = g_ph;

	w = phased();
	w.c13 = box(r, 1, "cbo", 3);
	w.c03 = box(r, 0, "cbo", 3);
	w.m00 = box(r, 0, "imc", 0);
	w.m10 = box(r, 1, "imc", 0);
	w.m12 = box(r, 1, "imc", 2);
	w.llc[0] = sub(r, w.c13, "LLC_LOOKUP.DATA_READ_M");
	w.llc[1] = sub(r, w.c13, "LLC_LOOKUP.DATA_READ_I");
	w.llc[2] = sub(r, w.c13, "LLC_LOOKUP.WRITE_M");
	w.llc_dm = w.llc[0];
	w.cas[0] = sub(r, w.m00, "CAS_COUNT.RD_REG");
	w.cas[1] = sub(r, w.m00, "CAS_COUNT.RD_UNDERFILL");
	w.cas[2] = sub(r, w.m00, "CAS_COUNT.WR_WMM");
	w.cas_rd = w.cas[0];
	w.cas_wr_rmm = sub(r, w.m12, "CAS_COUNT.WR_RMM");
}

} // namespace

/* ---- counts on both sockets, four clock domains, freeze ---- */

/* Socket 1: a CBo LLC_LOOKUP.DATA_READ counter (preloaded to wrap its 44
 * bits) and the CBo's CLOCKTICKS through cpu 13, the UBox UCLK fixed counter
 * through cpu 15, an iMC CAS_COUNT.WR and a QPI CLOCKTICKS on bus 0x7F.
 * Socket 0: the PCU CLOCKTICKS (pclk) through cpu 2, iMC channel 0 on bus
 * 0x3F with CAS_COUNT.RD (preloaded to wrap its 48 bits), CAS_COUNT.WR and
 * the fixed DCLK counter, programmed with the box frozen, and frozen again
 * for a while in the middle of the run.  Sampled 300 times under temporal
 * decoupling with 8-byte reads of the PCI counters.  Each TLM total equals
 * the ground truth, the increments fed to the selected sub-events (minus
 * the frozen span), or the cycles of the counter's clock domain between
 * the local times of its first and last read (minus the frozen span). */
TLM_TEST_ON(snbep_counts_equal_truth, SNBEP, nullptr)
{
	struct ctr {
		const char *what;
		unsigned space;
		std::uint64_t addr;
		unsigned bits;
		const char *box;
		unsigned socket, inst, idx;
		int clock;                  /* a clock counter: its domain */
		std::vector<const char *> subs; /* an event counter: what it selects */
		std::uint64_t last = 0, total = 0, reads = 0;
		sc_time t_first = SC_ZERO_TIME, t_last = SC_ZERO_TIME;
		std::uint64_t fed_first = 0, fed_last = 0;
	};
	ucm_sc::uncore_tlm &u = r.u;
	const unsigned cpu1 = u.socket_cpu(1) + 5, cpu1b = u.socket_cpu(1) + 7, cpu0 = 2;
	const unsigned b0 = unsigned(u.uncore_bus(0)), b1 = unsigned(u.uncore_bus(1));
	sc_time d = SC_ZERO_TIME;

	T_EQ(u.nsockets(), 2);
	T_EQ(b0, 0x3F);
	T_EQ(b1, 0x7F);
	std::vector<ctr> c = {
		{ "s1 cbo3 LLC_LOOKUP.DATA_READ", UCM_MSR, msr(cpu1, cbo(3, C_CTR0)), 44, "cbo", 1, 3,
		  0, -1, { "LLC_LOOKUP.DATA_READ_M", "LLC_LOOKUP.DATA_READ_I" } },
		{ "s1 cbo3 CLOCKTICKS", UCM_MSR, msr(cpu1, cbo(3, C_CTR0 + 1)), 44, "cbo", 1, 3, 1,
		  int(UCLK), {} },
		{ "s1 ubox UCLK fixed", UCM_MSR, msr(cpu1b, U_FIXED_CTR), 48, "ubox", 1, 0, 2,
		  int(UCLK), {} },
		{ "s0 pcu CLOCKTICKS", UCM_MSR, msr(cpu0, P_CTR0), 48, "pcu", 0, 0, 0, int(PCLK), {} },
		{ "s0 imc0 CAS_COUNT.RD", UCM_PCI, ecam(b0, IMC_DEV, IMC_FN[0], PCI_CTR0), 48, "imc", 0,
		  0, 0, -1, { "CAS_COUNT.RD_REG", "CAS_COUNT.RD_UNDERFILL" } },
		{ "s0 imc0 CAS_COUNT.WR", UCM_PCI, ecam(b0, IMC_DEV, IMC_FN[0], PCI_CTR0 + 8), 48,
		  "imc", 0, 0, 1, -1, { "CAS_COUNT.WR_WMM", "CAS_COUNT.WR_RMM" } },
		{ "s0 imc0 DCLK fixed", UCM_PCI, ecam(b0, IMC_DEV, IMC_FN[0], M_FIXED_CTR), 48, "imc",
		  0, 0, 4, int(DCLK), {} },
		{ "s1 imc2 CAS_COUNT.WR", UCM_PCI, ecam(b1, IMC_DEV, IMC_FN[2], PCI_CTR0), 48, "imc", 1,
		  2, 0, -1, { "CAS_COUNT.WR_WMM", "CAS_COUNT.WR_RMM" } },
		{ "s1 qpi0 CLOCKTICKS", UCM_PCI, ecam(b1, QPI_DEV0, QPI_FN, PCI_CTR0), 48, "qpi", 1, 0,
		  0, int(QCLK), {} },
	};
	const std::uint64_t m00 = ecam(b0, IMC_DEV, IMC_FN[0], 0);

	/* program with the boxes frozen (no global control on this platform:
	 * the box freeze is how counting starts together) */
	r.wrmsr(msr(cpu1, cbo(3, C_BOX_CTL)), FRZ_EN | FRZ, d);
	r.wrmsr(msr(cpu1, cbo(3, C_CTR0)), (1ull << 44) - 5000, d);
	r.wrmsr(msr(cpu1, cbo(3, C_FILTER)), FILTER_ALL_STATES, d);
	r.wrmsr(msr(cpu1, cbo(3, C_CTL0)), ev(0x34, 0x03), d); /* LLC_LOOKUP.DATA_READ */
	r.wrmsr(msr(cpu1, cbo(3, C_CTL0 + 1)), ev(0x00, 0), d); /* CLOCKTICKS */
	r.wrmsr(msr(cpu1b, U_FIXED_CTL), EN, d);
	r.wrmsr(msr(cpu0, P_BOX_CTL), FRZ_EN | FRZ, d);
	r.wrmsr(msr(cpu0, P_CTL0), ev(0x00, 0), d);
	r.wrpci(m00 + PCI_BOX_CTL, 4, FRZ_EN | FRZ, d);
	r.wrpci(m00 + PCI_CTR0, 8, (1ull << 48) - 1000, d); /* both dwords at once */
	/* CTL0 and CTL1 in one 8-byte write: the model's byte lanes split it */
	r.wrpci(m00 + PCI_CTL0, 8, ev(0x04, 0x0C) << 32 | ev(0x04, 0x03), d);
	r.wrpci(m00 + M_FIXED_CTL, 4, EN, d);
	r.wrpci(ecam(b1, IMC_DEV, IMC_FN[2], PCI_CTL0), 4, ev(0x04, 0x0C), d);
	r.wrpci(ecam(b1, QPI_DEV0, QPI_FN, PCI_BOX_CTL), 4, FRZ_EN | FRZ, d);
	r.wrpci(ecam(b1, QPI_DEV0, QPI_FN, PCI_CTL0), 4, ev(0x14, 0), d);
	std::uint64_t v = 0;
	T_EQ(ucm_pci_peek(r.m(), 0, b0, IMC_DEV, 0, PCI_CTL0 + 4, 4, &v), 0);
	T_EQ(v, ev(0x04, 0x0C));
	/* frozen: nothing moves while time passes */
	wait(sc_time(5, SC_US));
	d = SC_ZERO_TIME;
	T_EQ(r.rdpci(m00 + PCI_CTR0, 8, d), (1ull << 48) - 1000);
	T_EQ(r.rdmsr(msr(cpu1, cbo(3, C_CTR0 + 1)), d), 0);

	phased_init(r);
	T_EQ(u.attach_generator("no-such-workload", 1), -ENOENT);
	T_EQ(u.set_workload(phased_fn, &g_ph), 0);
	/* unfreeze: frz_en stays set, frz clears */
	r.wrmsr(msr(cpu1, cbo(3, C_BOX_CTL)), FRZ_EN, d);
	r.wrmsr(msr(cpu0, P_BOX_CTL), FRZ_EN, d);
	r.wrpci(m00 + PCI_BOX_CTL, 4, FRZ_EN, d);
	r.wrpci(ecam(b1, QPI_DEV0, QPI_FN, PCI_BOX_CTL), 4, FRZ_EN, d);

	auto fed = [&](const ctr &x) {
		std::uint64_t f = 0;
		int bx = box(r, x.socket, x.box, x.inst);

		for (const char *s : x.subs)
			f += ucm_fed(r.m(), bx, sub(r, bx, s));
		return f;
	};
	auto sample = [&](ctr &x) {
		std::uint64_t val = 0;
		sc_time t = sc_time_stamp() + d;

		T_RESP(r.rd(x.space, x.addr, 8, &val, d), tlm::TLM_OK_RESPONSE);
		/* the model is now at the read's local time: what it fed so far
		 * is what the counter saw */
		if (!x.reads) {
			x.t_first = t;
			x.fed_first = fed(x);
		} else {
			x.total += (val - x.last) & ((1ull << x.bits) - 1);
		}
		x.t_last = t;
		x.fed_last = fed(x);
		x.last = val;
		x.reads++;
		return val;
	};

	ucm_truth_mark(r.m());
	sc_time t_frz, t_unfrz;
	std::vector<std::uint64_t> fed_frz(c.size()), fed_unfrz(c.size());
	for (unsigned round = 0; round < 300; round++) {
		for (auto &x : c)
			sample(x);
		if (round == 100 || round == 200) {
			/* freeze / unfreeze socket 0's iMC channel 0 */
			sc_time t = sc_time_stamp() + d;

			r.wrpci(m00 + PCI_BOX_CTL, 4, round == 100 ? FRZ_EN | FRZ : FRZ_EN, d);
			for (size_t i = 0; i < c.size(); i++)
				(round == 100 ? fed_frz : fed_unfrz)[i] = fed(c[i]);
			(round == 100 ? t_frz : t_unfrz) = t;
		}
		if (round == 150) {
			/* frozen: a read later in local time sees the same value */
			std::uint64_t a = sample(c[4]), b;

			d += sc_time(3, SC_US);
			b = sample(c[4]);
			T_EQ(a, b);
		}
		/* run ahead of SystemC time, synchronise now and then */
		d += sc_time(2 + round % 5, SC_US);
		if (round % 4 == 3) {
			wait(d);
			d = SC_ZERO_TIME;
		}
	}

	for (size_t i = 0; i < c.size(); i++) {
		ctr &x = c[i];
		struct ucm_truth t = r.truth(x.box, x.inst, x.idx, x.socket);
		bool frozen = x.socket == 0 && !std::strcmp(x.box, "imc") && x.inst == 0;

		std::printf("%-30s %14llu\n", x.what, (unsigned long long)x.total);
		T_EQ(x.total, t.last_read - t.first_read);
		T_EQ(t.reads, x.reads);
		T_CHECK(x.total != 0);
		if (!x.subs.empty()) {
			std::uint64_t want = x.fed_last - x.fed_first;

			if (frozen)
				want -= fed_unfrz[i] - fed_frz[i];
			T_EQ(x.total, want);
		} else {
			std::uint64_t want = r.cycles_at(x.t_last, unsigned(x.clock)) -
					     r.cycles_at(x.t_first, unsigned(x.clock));

			if (frozen)
				want -= r.cycles_at(t_unfrz, unsigned(x.clock)) -
					r.cycles_at(t_frz, unsigned(x.clock));
			T_EQ(x.total, want);
		}
	}
	/* the preloaded counters wrapped (44 and 48 bits) */
	T_EQ(r.truth("cbo", 3, 0, 1).wraps, 1);
	T_EQ(r.truth("imc", 0, 0, 0).wraps, 1);
	/* the accesses reached only their socket's boxes: the same CBo and
	 * iMC channel of the other socket were never read */
	T_EQ(r.truth("cbo", 3, 0, 0).reads, 0);
	T_EQ(r.truth("imc", 0, 0, 1).reads, 0);
	T_EQ(r.truth("imc", 2, 0, 0).reads, 0);
	/* the domains differ: the frozen span is not a rounding */
	T_CHECK(r.cycles_at(t_unfrz, DCLK) - r.cycles_at(t_frz, DCLK) > 1000);
	/* no PMI on this platform, whatever wrapped */
	T_CHECK(!u.has_pmi());
	T_EQ(r.edges.size(), 0);
}

/* ---- address decode ---- */

/* MSRs: every cpu of a socket reaches that socket's boxes (cpus 0-7 socket
 * 0, 8-15 socket 1); cpu 16 and MSRs of other platforms are address errors.
 * PCI: the uncore bus selects the socket; the devices of Table 1-3 answer
 * on 0x3F and 0x7F, nothing else does.  MMIO: nothing (no BAR). */
TLM_TEST_ON(snbep_address_decode, SNBEP, nullptr)
{
	const tlm_response_status OK = tlm::TLM_OK_RESPONSE, ADDR = tlm::TLM_ADDRESS_ERROR_RESPONSE;
	ucm_sc::uncore_tlm &u = r.u;
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0;

	T_EQ(u.nsockets(), 2);
	T_EQ(u.cpus_per_socket(), 8);
	T_EQ(u.socket_cpu(1), 8);
	T_EQ(u.uncore_bus(0), 0x3F);
	T_EQ(u.uncore_bus(1), 0x7F);
	T_EQ(u.uncore_bus(2), -1);
	T_EQ(u.pmi.size(), 16);
	T_EQ(u.pmi_line(1, 3), 11);
	T_EQ(msr(9, 0xD10), 0x900000D10ull);

	/* MSR: written through cpu 3, seen by every cpu of socket 0 only */
	r.wrmsr(msr(3, cbo(0, C_CTL0)), ev(0x34, 0x03), d);
	for (unsigned cpu = 0; cpu < 16; cpu++)
		T_EQ(r.rdmsr(msr(cpu, cbo(0, C_CTL0)), d), cpu < 8 ? ev(0x34, 0x03) : 0);
	r.wrmsr(msr(12, cbo(0, C_CTL0)), ev(0x00, 0), d);
	T_EQ(r.peek_msr(cbo(0, C_CTL0), 0), ev(0x34, 0x03));
	T_EQ(r.peek_msr(cbo(0, C_CTL0), 8), ev(0x00, 0));
	T_EQ(r.peek_msr(cbo(0, C_CTL0), 15), ev(0x00, 0));
	T_RESP(r.rd(UCM_MSR, msr(16, cbo(0, C_CTL0)), 8, &v, d), ADDR);
	T_CHECK(u.last_error().find("cpu 16") != std::string::npos);
	T_RESP(r.rd(UCM_MSR, msr(0, 0xE01), 8, &v, d), ADDR); /* Skylake's global control */
	T_RESP(r.wr(UCM_MSR, msr(8, 0xD08), 8, 0, d), ADDR);  /* the gap after CBo 0's regs */
	T_RESP(r.rd(UCM_MSR, msr(8, cbo(7, C_CTR0 + 3)), 8, &v, d), OK); /* the last CBo */
	T_RESP(r.rd(UCM_MSR, msr(8, cbo(8, C_CTR0)), 8, &v, d), ADDR);   /* 8 CBos only */

	/* PCI: the UBox function on each bus reports its node; Linux maps
	 * buses to sockets with it (CPUNODEID 0x40, GIDNIDMAP 0x54) */
	for (unsigned s = 0; s < 2; s++) {
		std::uint64_t ub = ecam(unsigned(u.uncore_bus(s)), UBOX_DEV, 0, 0);

		T_EQ(r.rdpci(ub, 4, d), 0x3CE08086);
		T_EQ(r.rdpci(ub + 0x40, 4, d), s);
		T_EQ(r.rdpci(ub + 0x54, 4, d), 0xFAC688);
	}
	/* every iMC channel on both buses; functions 2, 3, 6, 7 absent */
	for (unsigned bus : { 0x3Fu, 0x7Fu })
		for (unsigned fn = 0; fn < 8; fn++) {
			static const unsigned did[8] = { 0x3CB0, 0x3CB1, 0, 0, 0x3CB4, 0x3CB5, 0, 0 };

			v = 0;
			if (did[fn]) {
				T_RESP(r.rd(UCM_PCI, ecam(bus, IMC_DEV, fn, 2), 2, &v, d), OK);
				T_EQ(v, did[fn]);
			} else {
				T_RESP(r.rd(UCM_PCI, ecam(bus, IMC_DEV, fn, 2), 2, &v, d), ADDR);
				T_EQ(v, 0xFFFF); /* master abort */
			}
		}
	/* other PCI devices: HA, QPI, R2PCIe, R3QPI links */
	T_EQ(r.rdpci(ecam(0x7F, 14, 1, 2), 2, d), 0x3C46);
	T_EQ(r.rdpci(ecam(0x7F, 8, 2, 2), 2, d), 0x3C41);
	T_EQ(r.rdpci(ecam(0x7F, 9, 2, 2), 2, d), 0x3C42);
	T_EQ(r.rdpci(ecam(0x3F, 19, 1, 2), 2, d), 0x3C43);
	T_EQ(r.rdpci(ecam(0x3F, 19, 6, 2), 2, d), 0x3C45);
	/* absent: other buses, the client's host bridge, an unknown device */
	for (unsigned bus : { 0x00u, 0x3Eu, 0x40u, 0x7Eu, 0x80u, 0xFFu }) {
		T_RESP(r.rd(UCM_PCI, ecam(bus, IMC_DEV, 0, 0), 4, &v, d), ADDR);
		T_EQ(v, 0xFFFFFFFF);
	}
	T_RESP(r.rd(UCM_PCI, ecam(0x3F, 0, 0, 0), 4, &v, d), ADDR);
	T_RESP(r.wr(UCM_PCI, ecam(0x3F, 17, 0, PCI_CTL0), 4, ev(1, 0), d), ADDR);
	T_CHECK(u.last_error().find("no PCI device") != std::string::npos);
	/* the buses are different sockets' registers */
	r.wrpci(ecam(0x3F, IMC_DEV, 1, PCI_CTL0), 4, ev(0x04, 0x03), d);
	T_EQ(r.rdpci(ecam(0x7F, IMC_DEV, 1, PCI_CTL0), 4, d), 0);
	T_EQ(r.rdpci(ecam(0x3F, IMC_DEV, 1, PCI_CTL0), 4, d), ev(0x04, 0x03));

	/* MMIO: this platform has no BAR, nothing decodes */
	T_RESP(r.rd(UCM_MMIO, 0xFED15050, 4, &v, d), ADDR);
	T_RESP(r.wr(UCM_MMIO, 0x0, 8, 0, d), ADDR);
	unsigned char b[8];
	T_EQ(r.dbg(UCM_MMIO, 0xFED15050, 4, b), 0);

	/* TLM_IGNORE_COMMAND probes both sockets' decode without an access */
	std::uint64_t now = ucm_now_ps(r.m());
	T_RESP(r.xfer(UCM_MSR, tlm::TLM_IGNORE_COMMAND, msr(15, U_FIXED_CTR), 8, nullptr, d), OK);
	T_RESP(r.xfer(UCM_MSR, tlm::TLM_IGNORE_COMMAND, msr(16, U_FIXED_CTR), 8, nullptr, d), ADDR);
	T_RESP(r.xfer(UCM_PCI, tlm::TLM_IGNORE_COMMAND, ecam(0x7F, IMC_DEV, 5, PCI_CTR0), 8,
		      nullptr, d),
	       OK);
	T_RESP(r.xfer(UCM_PCI, tlm::TLM_IGNORE_COMMAND, ecam(0x7F, IMC_DEV, 6, PCI_CTR0), 8,
		      nullptr, d),
	       ADDR);
	T_EQ(ucm_now_ps(r.m()), now);
	T_EQ(r.truth("imc", 3, 0, 1).reads, 0);
}

/* ---- PCI widths over 48-bit counters ---- */

/* A 48-bit iMC counter is two configuration dwords: reads of 1, 2, 4 and 8
 * bytes each return their bytes of the same value; an 8-byte read is one
 * atomic access, two 4-byte reads are two accesses at two times (a carry
 * between them tears the value).  Widths, alignment and byte enables that
 * the PCI socket refuses. */
TLM_TEST_ON(snbep_pci_widths, SNBEP, nullptr)
{
	const tlm_response_status OK = tlm::TLM_OK_RESPONSE, ADDR = tlm::TLM_ADDRESS_ERROR_RESPONSE,
				  BURST = tlm::TLM_BURST_ERROR_RESPONSE,
				  BE = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
	const unsigned char Y = TLM_BYTE_ENABLED, N = TLM_BYTE_DISABLED;
	const std::uint64_t m0 = ecam(0x3F, IMC_DEV, 0, 0), ctr = m0 + PCI_CTR0;
	const std::uint64_t val = 0x0000A1B2C3D4E5F6ull;
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0;

	/* a counter without EN does not move: a fixed value to read */
	r.wrpci(ctr, 8, 0xFFFF000000000000ull | val, d);
	T_EQ(r.rdpci(ctr, 8, d), val); /* bits 63:48 are not part of the count */
	T_EQ(r.rdpci(ctr, 4, d), val & 0xFFFFFFFF);
	T_EQ(r.rdpci(ctr + 4, 4, d), val >> 32);
	for (unsigned i = 0; i < 8; i += 2)
		T_EQ(r.rdpci(ctr + i, 2, d), (val >> (8 * i)) & 0xFFFF);
	for (unsigned i = 0; i < 8; i++)
		T_EQ(r.rdpci(ctr + i, 1, d), (val >> (8 * i)) & 0xFF);
	/* narrowed by byte enables: the high dword, the rest of the data left */
	T_RESP(r.rd(UCM_PCI, ctr, 8, &v, d, { N, N, N, N, Y, Y, Y, Y }), OK);
	T_EQ(v, (val & 0xFFFFFFFF00000000ull) | 0xA5A5A5A5ull);
	/* dword writes build a value too */
	r.wrpci(ctr + 4, 4, 0x1234, d);
	r.wrpci(ctr, 4, 0x89ABCDEF, d);
	T_EQ(r.rdpci(ctr, 8, d), 0x123489ABCDEFull);
	r.wrpci(ctr + 6, 2, 0xFFFF, d); /* bits 63:48: reserved, ignored */
	T_EQ(r.rdpci(ctr, 8, d), 0x123489ABCDEFull);

	/* refused */
	T_RESP(r.rd(UCM_PCI, ctr, 3, &v, d), BURST);
	T_RESP(r.rd(UCM_PCI, ctr, 16, &v, d), BURST);
	T_RESP(r.rd(UCM_PCI, ctr + 4, 8, &v, d), ADDR); /* not 8-aligned */
	T_RESP(r.rd(UCM_PCI, ctr + 2, 4, &v, d), ADDR);
	T_RESP(r.rd(UCM_PCI, ctr + 1, 2, &v, d), ADDR);
	T_RESP(r.rd(UCM_PCI, ctr, 8, &v, d, { Y, Y, N, Y, N, N, N, N }), BE);
	T_RESP(r.rd(UCM_PCI, ctr, 8, &v, d, { N, N, Y, Y, Y, Y, N, N }), BE); /* 4 at offset 2 */
	T_RESP(r.wr(UCM_PCI, ctr, 8, 0, d, { N, N, N, N, N, N, N, N }), BE);
	T_EQ(r.rdpci(ctr, 8, d), 0x123489ABCDEFull); /* the refused write did nothing */
	/* absent function: all ones in every width */
	for (unsigned w : { 1u, 2u, 4u, 8u }) {
		T_RESP(r.rd(UCM_PCI, ecam(0x3F, IMC_DEV, 2, PCI_CTR0), w, &v, d), ADDR);
		T_EQ(v, w == 8 ? ~0ull : (1ull << (8 * w)) - 1);
	}

	/* the fixed DCLK counter just below a carry into the high dword */
	const std::uint64_t fctr = m0 + M_FIXED_CTR;
	r.wrpci(fctr, 8, 0xFFFFFF00ull, d);
	wait(d);
	d = SC_ZERO_TIME;
	sc_time t_en = sc_time_stamp();
	r.wrpci(m0 + M_FIXED_CTL, 4, EN, d);
	/* one 8-byte read at local time t: the count of dclk cycles since t_en */
	d = sc_time(200, SC_NS);
	sc_time t = sc_time_stamp() + d, same = d;
	std::uint64_t whole = r.rdpci(fctr, 8, d);
	T_EQ(whole, 0xFFFFFF00ull + r.cycles_at(t, DCLK) - r.cycles_at(t_en, DCLK));
	T_EQ(whole, 0xFFFFFF00ull + 160); /* 200 ns at 800 MHz */
	/* the low dword at the same local time agrees; the high dword read
	 * 1 us later has taken the carry: together they are neither value */
	std::uint64_t lo = r.rdpci(fctr, 4, same);
	T_EQ(lo, whole & 0xFFFFFFFF);
	sc_time later = sc_time(1200, SC_NS);
	std::uint64_t hi = r.rdpci(fctr + 4, 4, later);
	T_EQ(hi, 1);
	std::uint64_t torn = hi << 32 | lo;
	T_CHECK(torn != whole);
	T_CHECK(torn != 0xFFFFFF00ull + 960); /* the value at 1.2 us */
	T_EQ(r.truth("imc", 0, 4).reads, 3);
}

/* ---- debug reads ---- */

namespace {

struct snapshot {
	std::uint64_t now = 0;
	std::vector<std::uint64_t> regs; /* every register's value, by ucm_peek */
	std::vector<struct ucm_truth> truths;
	std::vector<std::uint64_t> fed;
	std::vector<std::uint64_t> pmi;
	std::vector<bool> lines;
	size_t edges = 0;
};

snapshot snap(rig &r)
{
	snapshot s;
	ucm_model *m = r.m();

	s.now = ucm_now_ps(m);
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		std::uint64_t v = 0;

		T_EQ(ucm_reginfo(m, i, &ri), 0);
		T_EQ(ucm_peek(m, ri.space, ri.socket, ri.addr, &v), 0);
		s.regs.push_back(v);
	}
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const ucm_boxtype *bt = ucm_box_def(m, int(b))->type;

		for (unsigned i = 0; i < bt->nctr; i++) {
			struct ucm_truth t{};

			ucm_truth(m, int(b), i, &t);
			s.truths.push_back(t);
		}
		for (unsigned k = 0; k < ucm_subev_count(bt); k++)
			s.fed.push_back(ucm_fed(m, int(b), k));
	}
	for (unsigned so = 0; so < r.u.nsockets(); so++)
		for (unsigned c = 0; c < r.u.cpus_per_socket(); c++) {
			struct ucm_pmi_stats ps;

			ucm_pmi_stats(m, so, c, &ps);
			s.pmi.push_back(ps.requests + ps.delivered + ps.dropped);
		}
	for (auto &l : r.pmi)
		s.lines.push_back(l.read());
	s.edges = r.edges.size();
	return s;
}

void same(const snapshot &a, const snapshot &b)
{
	T_EQ(a.now, b.now);
	T_CHECK(a.regs == b.regs);
	T_EQ(a.truths.size(), b.truths.size());
	for (size_t i = 0; i < a.truths.size() && i < b.truths.size(); i++) {
		T_EQ(a.truths[i].total, b.truths[i].total);
		T_EQ(a.truths[i].reads, b.truths[i].reads);
		T_EQ(a.truths[i].first_read, b.truths[i].first_read);
		T_EQ(a.truths[i].last_read, b.truths[i].last_read);
	}
	T_CHECK(a.fed == b.fed);
	T_CHECK(a.pmi == b.pmi);
	T_CHECK(a.lines == b.lines);
	T_EQ(a.edges, b.edges);
}

std::uint64_t le(const unsigned char *b, unsigned n)
{
	std::uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(b[i]) << (8 * i);
	return v;
}

} // namespace

/* Debug reads of MSRs on both sockets (counters, controls, filters, box
 * controls, whose reset bits are write-only), of whole PCI configuration spaces on
 * both buses and of 48-bit counters in pieces return the registers' values
 * and change nothing: every register, ground truth (no read counted),
 * what was fed, model time, PMI statistics and lines stay as they were,
 * while SystemC time is ahead of the model.  Debug writes and absent
 * devices give 0 bytes.  A real 1-byte read, by contrast, is counted. */
TLM_TEST_ON(snbep_debug_reads_have_no_side_effects, SNBEP,
	    [](ucm_sc::uncore_tlm_params &p) { p.poll_quantum = SC_ZERO_TIME; })
{
	const std::uint64_t m0 = ecam(0x3F, IMC_DEV, 0, 0), m3 = ecam(0x7F, IMC_DEV, 5, 0);
	sc_time d = SC_ZERO_TIME;
	unsigned char b[4096];

	r.wrmsr(msr(9, cbo(0, C_FILTER)), FILTER_ALL_STATES, d);
	r.wrmsr(msr(9, cbo(0, C_CTL0)), ev(0x34, 0x03), d);
	r.wrmsr(msr(9, cbo(0, C_BOX_CTL)), FRZ_EN, d);
	r.wrmsr(msr(15, U_FIXED_CTL), EN, d);
	r.wrpci(m0 + PCI_CTL0, 4, ev(0x04, 0x03), d);
	r.wrpci(m0 + M_FIXED_CTL, 4, EN, d);
	r.wrpci(m3 + PCI_CTR0, 8, 0xFFFFFFFFF000ull, d);
	r.wrpci(m3 + PCI_CTL0, 4, ev(0x04, 0x0C), d);
	phased_init(r);
	T_EQ(r.u.set_workload(phased_fn, &g_ph), 0);
	ucm_truth_mark(r.m());
	r.rdmsr(msr(9, cbo(0, C_CTR0)), d);
	r.rdpci(m0 + PCI_CTR0, 8, d);
	wait(sc_time(20, SC_US));
	d = SC_ZERO_TIME;
	r.rdpci(m0 + M_FIXED_CTR, 8, d);
	wait(sc_time(7, SC_US)); /* SystemC time is now ahead of the model */
	T_CHECK(r.u.to_ps(sc_time_stamp()) > ucm_now_ps(r.m()));

	snapshot before = snap(r);
	T_EQ(r.truth("imc", 0, 4).reads, 1);

	/* MSR, socket 1 through cpus 8..15 */
	for (unsigned cpu = 8; cpu < 16; cpu++) {
		T_EQ(r.dbg(UCM_MSR, msr(cpu, cbo(0, C_CTR0)), 8, b), 8);
		T_EQ(le(b, 8), r.peek_msr(cbo(0, C_CTR0), 8));
	}
	T_EQ(r.dbg(UCM_MSR, msr(9, cbo(0, C_CTL0)), 8, b), 8);
	T_EQ(le(b, 8), ev(0x34, 0x03));
	T_EQ(r.dbg(UCM_MSR, msr(9, cbo(0, C_FILTER)), 8, b), 8);
	T_EQ(le(b, 8), FILTER_ALL_STATES);
	T_EQ(r.dbg(UCM_MSR, msr(9, cbo(0, C_BOX_CTL)), 8, b), 8);
	T_EQ(le(b, 8), FRZ_EN); /* frz_en reads back (docs/platform-snbep.md R11) */
	T_EQ(r.dbg(UCM_MSR, msr(15, U_FIXED_CTR), 8, b), 8);
	T_CHECK(le(b, 8) != 0);
	T_EQ(r.dbg(UCM_MSR, msr(0, U_FIXED_CTR), 8, b), 8);
	T_EQ(le(b, 8), 0); /* socket 0's: never enabled */
	/* PCI: the whole configuration space of socket 0's channel 0 */
	T_EQ(r.dbg(UCM_PCI, m0, 4096, b), 4096);
	T_EQ(le(b, 4), 0x3CB08086);
	std::uint64_t pv = 0;
	T_EQ(ucm_pci_peek(r.m(), 0, 0x3F, IMC_DEV, 0, PCI_CTR0, 8, &pv), 0);
	T_EQ(le(b + PCI_CTR0, 8), pv);
	T_CHECK(pv != 0);
	T_EQ(le(b + PCI_CTL0, 4), ev(0x04, 0x03));
	T_EQ(le(b + 0x100, 8), 0); /* undefined registers read 0 */
	/* the counter in pieces, from odd offsets too */
	T_EQ(r.dbg(UCM_PCI, m0 + M_FIXED_CTR, 8, b), 8);
	T_EQ(ucm_pci_peek(r.m(), 0, 0x3F, IMC_DEV, 0, M_FIXED_CTR, 8, &pv), 0);
	T_EQ(le(b, 8), pv);
	T_EQ(r.dbg(UCM_PCI, m0 + M_FIXED_CTR + 1, 5, b), 5);
	T_EQ(le(b, 5), (pv >> 8) & 0xFFFFFFFFFFull);
	/* socket 1: the UBox function and a counter near its 48-bit wrap */
	T_EQ(r.dbg(UCM_PCI, ecam(0x7F, UBOX_DEV, 0, 0), 256, b), 256);
	T_EQ(b[0x40], 1); /* CPUNODEID */
	T_EQ(r.dbg(UCM_PCI, m3 + PCI_CTR0, 8, b), 8);
	T_EQ(ucm_pci_peek(r.m(), 0, 0x7F, IMC_DEV, 5, PCI_CTR0, 8, &pv), 0);
	T_EQ(le(b, 8), pv);
	/* nothing there, or not a read: 0 bytes */
	T_EQ(r.dbg(UCM_PCI, ecam(0x3F, IMC_DEV, 2, 0), 4, b), 0);
	T_EQ(r.dbg(UCM_PCI, ecam(0x00, 0, 0, 0), 4, b), 0);
	T_EQ(r.dbg(UCM_MSR, msr(16, U_FIXED_CTR), 8, b), 0);
	T_EQ(r.dbg(UCM_MSR, msr(0, 0xE02), 8, b), 0);
	std::memset(b, 0, 8);
	T_EQ(r.dbg(UCM_PCI, m0 + PCI_CTR0, 8, b, tlm::TLM_WRITE_COMMAND), 0);
	T_EQ(r.dbg(UCM_MSR, msr(9, cbo(0, C_BOX_CTL)), 8, b, tlm::TLM_WRITE_COMMAND), 0);

	same(before, snap(r));
	wait(SC_ZERO_TIME);
	same(before, snap(r));

	/* the contrast: a real read of one byte is a ground-truth read and
	 * brings the model up to its local time */
	d = SC_ZERO_TIME;
	r.rdpci(m0 + M_FIXED_CTR, 1, d);
	T_EQ(r.truth("imc", 0, 4).reads, 2);
	T_EQ(ucm_now_ps(r.m()), r.u.to_ps(sc_time_stamp()));
	T_CHECK(ucm_now_ps(r.m()) > before.now);
}

/* ---- no PMI ---- */

/* Counters of every kind wrap with the poll running: a CBo (44 bits), the
 * UBox fixed counter (44), the PCU (48) and an iMC fixed counter (48, over
 * PCI).  The platform has no overflow enable (bit 20, Skylake's OVF_EN, is
 * reserved and reads 0), no global control and no PMI: every line exists,
 * none moves, no core gets a request or an interrupt. */
TLM_TEST_ON(snbep_no_pmi, SNBEP, nullptr)
{
	const std::uint64_t OVF_EN_SKL = 1ull << 20;
	const std::uint64_t m3 = ecam(0x7F, IMC_DEV, 5, 0);
	sc_time d = SC_ZERO_TIME;

	T_CHECK(!r.u.has_pmi());
	T_EQ(r.pmi.size(), 16);
	r.wrmsr(msr(0, cbo(0, C_CTR0)), M44 - 999, d);
	r.wrmsr(msr(0, cbo(0, C_CTL0)), ev(0x00, 0) | OVF_EN_SKL, d);
	T_EQ(r.rdmsr(msr(0, cbo(0, C_CTL0)), d), ev(0x00, 0));
	r.wrmsr(msr(8, U_FIXED_CTR), M48 - 999, d); /* 48 bits: R1 */
	r.wrmsr(msr(8, U_FIXED_CTL), EN | OVF_EN_SKL, d);
	T_EQ(r.rdmsr(msr(8, U_FIXED_CTL), d), EN);
	r.wrmsr(msr(8, P_CTR0), M48 - 999, d);
	r.wrmsr(msr(8, P_CTL0), ev(0x00, 0) | OVF_EN_SKL, d);
	r.wrpci(m3 + M_FIXED_CTR, 8, M48 - 999, d);
	r.wrpci(m3 + M_FIXED_CTL, 4, EN | OVF_EN_SKL, d);
	T_EQ(r.rdpci(m3 + M_FIXED_CTL, 4, d), EN);

	wait(sc_time(50, SC_US));
	d = SC_ZERO_TIME;
	r.rdmsr(msr(0, cbo(0, C_CTR0)), d);
	T_EQ(r.truth("cbo", 0, 0, 0).wraps, 1);
	T_EQ(r.truth("ubox", 0, 2, 1).wraps, 1);
	T_EQ(r.truth("pcu", 0, 0, 1).wraps, 1);
	T_EQ(r.truth("imc", 3, 4, 1).wraps, 1);
	T_EQ(r.edges.size(), 0);
	for (unsigned s = 0; s < 2; s++) {
		T_EQ(ucm_pmi_requests(r.m(), s), 0);
		for (unsigned c = 0; c < 8; c++) {
			struct ucm_pmi_stats ps;

			ucm_pmi_stats(r.m(), s, c, &ps);
			T_EQ(ps.delivered, 0);
			T_CHECK(!r.pmi[r.u.pmi_line(s, c)].read());
		}
	}
}

/* ---- an event trace in simulated time ---- */

namespace {

std::string write_file(const char *tag, const std::string &text)
{
	std::string path =
		std::string("t_tlm_snbep_") + tag + "_" + std::to_string(getpid()) + ".uct";
	FILE *f = std::fopen(path.c_str(), "w");

	T_CHECK(f != nullptr);
	if (f) {
		std::fputs(text.c_str(), f);
		std::fclose(f);
	}
	return path;
}

} // namespace

/* A two-socket event trace: its segments are in uclk cycles (the first
 * clock), each box takes its input per cycle of its own clock.  27000 uclk
 * cycles at 2.7 GHz are 10 us: the CBo counts 27000, the iMC channels 8000
 * dclk cycles.  Attached at 5 us, read at local times inside and after the
 * segment.  A header for one socket does not describe this model. */
TLM_TEST_ON(snbep_trace_workload, SNBEP, nullptr)
{
	sc_time d = SC_ZERO_TIME;
	const std::uint64_t m0 = ecam(0x3F, IMC_DEV, 0, 0), m2 = ecam(0x7F, IMC_DEV, 4, 0);
	std::string ok = write_file("ok", "uncore-trace 1\n"
					  "platform snbep\n"
					  "sockets 2\n"
					  "run 27000: s1.cbo3.LLC_LOOKUP.DATA_READ_M=1, "
					  "imc0.CAS_COUNT.RD_REG=1, s1.imc2.CAS_COUNT.WR_WMM=1\n"
					  "run 27000:\n");
	std::string one = write_file("one", "uncore-trace 1\n"
					    "platform snbep\n"
					    "run 10: cbo0.LLC_LOOKUP.DATA_READ_M=1\n");

	r.wrmsr(msr(8, cbo(3, C_FILTER)), FILTER_ALL_STATES, d);
	r.wrmsr(msr(8, cbo(3, C_CTL0)), ev(0x34, 0x03), d);
	r.wrpci(m0 + PCI_CTL0, 4, ev(0x04, 0x03), d);
	r.wrpci(m2 + PCI_CTL0, 4, ev(0x04, 0x0C), d);
	wait(sc_time(5, SC_US));

	T_EQ(r.u.attach_trace(one.c_str()), -EINVAL);
	T_CHECK(r.u.last_error().find("socket") != std::string::npos);
	ucm_config cfg;
	std::string err;
	T_EQ(ucm_sc::uncore_tlm::config_for_trace(one.c_str(), &cfg, &err), 0);
	T_EQ(cfg.sockets, 1);

	T_EQ(r.u.attach_trace(ok.c_str()), 0);
	d = sc_time(5, SC_US); /* local 10 us: half of the segment */
	T_EQ(r.rdmsr(msr(12, cbo(3, C_CTR0)), d), 13500);
	/* the PCI read comes 50 ns later (the MSR latency): 40 dclk more */
	sc_time t = sc_time_stamp() + d;
	T_EQ(r.rdpci(m0 + PCI_CTR0, 8, d), r.cycles_at(t, DCLK) - 4000);
	T_EQ(r.cycles_at(t, DCLK) - 4000, 4040);
	d = sc_time(20, SC_US); /* local 25 us: after it */
	T_EQ(r.rdmsr(msr(12, cbo(3, C_CTR0)), d), 27000);
	T_EQ(r.rdpci(m0 + PCI_CTR0, 8, d), 8000);
	T_EQ(r.rdpci(m2 + PCI_CTR0, 8, d), 8000);
	/* socket 0's CBo 3 and socket 1's iMC 0 were not in the trace */
	int c03 = box(r, 0, "cbo", 3), m10 = box(r, 1, "imc", 0);
	T_EQ(ucm_fed(r.m(), c03, sub(r, c03, "LLC_LOOKUP.DATA_READ_M")), 0);
	T_EQ(ucm_fed(r.m(), m10, sub(r, m10, "CAS_COUNT.RD_REG")), 0);
	std::remove(ok.c_str());
	std::remove(one.c_str());
}
