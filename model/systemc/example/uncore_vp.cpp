/*
 * uncore_vp.cpp - a tiny virtual platform around the uncore TLM-2.0 model.
 *
 *   uncore_vp [--platform skl|snbep|ivt]
 *
 * A loosely-timed "cpu" initiator (temporal decoupling with a quantum
 * keeper) discovers the uncore as a driver does, programs counters, runs
 * the platform's built-in "mixed" workload for 2 ms of simulated time while
 * sampling every counter, and at the end compares every count read through
 * TLM with the model's ground truth (ucm_truth).  Exit status 0 when all
 * agree (CTest: systemc.example, systemc.example_snbep).
 *
 * skl (Skylake client, the default): discovery through the host bridge's
 * PCI configuration space and MSR_UNC_CBO_CONFIG; the fixed UCLK counter,
 * the CBo lookups and the ARB counters over MSRs, the IMC counters behind
 * MCHBAR over MMIO; the PMI of a fixed-counter overflow on core 0, handled
 * in an interrupt thread sensitive to the PMI signal.  The PMIs handled
 * must equal those the model delivered, and the other cores' lines must
 * never rise.
 *
 * snbep (Xeon E5-2600, two sockets), and ivt (the v2: its UBox device ID,
 * eight memory channels on D16 and D30, box controls written with 17:16
 * set and no frz_en, a 48-bit UBox fixed counter): an ECAM bus scan for the UBox
 * configuration function that maps each uncore bus to its socket
 * (CPUNODEID, GIDNIDMAP), the CBos found by probing their MSRs with
 * TLM_IGNORE_COMMAND; on each socket, through a cpu of that socket, every
 * CBo's LLC_LOOKUP.DATA_READ and the UBox UCLK counter over MSRs, and on
 * each iMC channel CAS_COUNT.RD/WR and the fixed DCLK counter over PCI
 * configuration (8-byte reads of the 48-bit counters).  The platform has
 * no global control: counting starts and stops with the box freeze.  The
 * fixed counters must also equal the cycles of their clock domain (uclk,
 * dclk) over the span they counted, and the platform has no PMI: no line
 * may ever rise.
 */
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "uncore_tlm.h"

using namespace sc_core;

namespace {

/* Skylake client (docs/platform-skl.md) */
const std::uint32_t GLOBAL_CTRL = 0xE01, GLOBAL_STATUS = 0xE02;
const std::uint32_t FIXED_CTRL = 0x394, FIXED_CTR = 0x395, CBO_CONFIG = 0x396;
const std::uint32_t ARB_CTR0 = 0x3B0, ARB_EVTSEL0 = 0x3B2;
const std::uint32_t CBO_BASE = 0x700, CBO_STRIDE = 0x10;
const std::uint64_t EN = 1ull << 22, OVF_EN = 1ull << 20, GLOBAL_EN = 1ull << 29;
const std::uint64_t MCHBAR_MASK = 0x0007FFFF8000ull;

/* Xeon E5-2600 (the uncore guide, Tables 1-2, 1-3 and chapter 2) */
const std::uint32_t SNB_CBO_BASE = 0xD00, SNB_CBO_STRIDE = 0x20; /* + box ctl 4, ctl 0x10,
								    filter 0x14, ctr 0x16 */
const std::uint32_t SNB_U_FIXED_CTL = 0xC08, SNB_U_FIXED_CTR = 0xC09;
const std::uint64_t FRZ_EN = 1ull << 16, FRZ = 1ull << 8;
const unsigned UBOX_DEV = 11;

/* What differs between the two Xeons for this example: the UBox device
 * ID, where the memory channels are, the box control's freeze and run
 * values (the v2 has no frz_en: bits 17:16 must be written as 1,
 * docs/platform-ivt.md V6), the CBo filter's all-states value and the UBox
 * fixed counter's width. */
struct xeon {
	const char *name;
	std::uint32_t ubox_did;
	std::vector<std::pair<unsigned, unsigned>> imc; /* device, function */
	std::uint64_t frz, run, filter_all_states;
	unsigned ufixed_bits;
};
const xeon XEONS[] = {
	/* guide Tables 1-3, 2-12, 2-5 (R1) */
	{ "snbep", 0x3CE0, { { 16, 0 }, { 16, 1 }, { 16, 4 }, { 16, 5 } }, FRZ_EN | FRZ, FRZ_EN,
	  0x1Full << 18, 44 },
	/* docs/platform-ivt.md: MC0 and MC1 channels, FILTER0 22:17, V13 */
	{ "ivt", 0x0E1E,
	  { { 16, 4 }, { 16, 5 }, { 16, 0 }, { 16, 1 }, { 30, 4 }, { 30, 5 }, { 30, 0 }, { 30, 1 } },
	  (3ull << 16) | FRZ, 3ull << 16, 0x3Full << 17, 48 },
};

const xeon *xeon_of(const std::string &platform)
{
	for (const xeon &x : XEONS)
		if (platform == x.name)
			return &x;
	return nullptr;
}

std::uint64_t evtsel(unsigned code, unsigned umask)
{
	return code | (std::uint64_t(umask) << 8) | EN;
}

std::uint64_t ecam(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return ucm_sc::uncore_tlm::pci_address(bus, dev, fn, off);
}

std::uint64_t msr(unsigned cpu, std::uint32_t a)
{
	return ucm_sc::uncore_tlm::msr_address(cpu, a);
}

/* A counter the cpu samples, and where the model keeps its truth. */
struct counter {
	std::string name;
	unsigned space;         /* UCM_MSR, UCM_PCI or UCM_MMIO */
	std::uint64_t addr;     /* socket address (MSR: with the cpu) */
	unsigned bits;
	const char *box;        /* for ucm_box_find */
	unsigned socket, inst, ctr;
	int clock = -1;         /* a fixed clock counter: its domain */
	std::uint64_t last = 0, total = 0;
	sc_time t_first = SC_ZERO_TIME, t_last = SC_ZERO_TIME;
	sc_time t_start = SC_ZERO_TIME; /* counting began here, if after t_first */
};

/* What snbep's "mixed" would be if the platform had no built-in workload:
 * reads and writebacks on every channel and CBo, alternating every 20 us. */
struct fallback_wl {
	std::vector<int> cbos, imcs;
	unsigned calls = 0;
};

/* One of two inputs of each box on, 1 per cycle, the other off. */
static int alternate(ucm_model *m, const std::vector<int> &boxes, const char *rd_sub,
		     const char *wr_sub, bool rd)
{
	int rc = 0;

	for (int b : boxes) {
		const ucm_boxtype *bt = ucm_box_def(m, b)->type;

		/* off first: both on at once would exceed the code's maximum */
		rc |= ucm_set_input(m, b, unsigned(ucm_subev_find(bt, rd ? wr_sub : rd_sub)), 0);
		rc |= ucm_set_input(m, b, unsigned(ucm_subev_find(bt, rd ? rd_sub : wr_sub)), 1);
	}
	return rc;
}

int fallback_fn(ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	fallback_wl *w = static_cast<fallback_wl *>(ctx);
	bool rd = w->calls++ % 2 == 0;
	int rc = alternate(m, w->cbos, "LLC_LOOKUP.DATA_READ_I", "LLC_LOOKUP.WRITE_M", rd) |
		 alternate(m, w->imcs, "CAS_COUNT.RD_REG", "CAS_COUNT.WR_WMM", rd);

	*next = now + 20000000;
	return rc ? ucm_set_error(m, -EINVAL, "fallback workload: input rejected") : 0;
}

typedef tlm_utils::simple_initiator_socket<struct cpu, UCM_SC_BUSWIDTH> isocket;

struct cpu : sc_module {
	isocket msr_s, pci, mmio;
	sc_vector<sc_in<bool>> pmi_in;
	ucm_sc::uncore_tlm *uncore;
	std::string platform;
	tlm_utils::tlm_quantumkeeper qk;
	std::vector<counter> ctrs;
	fallback_wl fallback;
	unsigned pmis_handled = 0, status_seen_by_debug = 0, other_core_edges = 0;
	unsigned any_edges = 0;
	int errors = 0;
	bool done = false;

	SC_HAS_PROCESS(cpu);
	cpu(sc_module_name n, ucm_sc::uncore_tlm *u, unsigned nlines, const std::string &plat)
		: sc_module(n), msr_s("msr"), pci("pci"), mmio("mmio"), pmi_in("pmi_in", nlines),
		  uncore(u), platform(plat)
	{
		SC_THREAD(main);
		SC_THREAD(isr);
		SC_METHOD(watch);
		for (auto &p : pmi_in)
			sensitive << p.pos();
		dont_initialize();
	}

	/* One transaction; t is the caller's local time offset.  With quiet,
	 * an error response is the caller's business (a probe). */
	std::uint64_t access(isocket &s, tlm::tlm_command cmd, std::uint64_t addr, unsigned len,
			     std::uint64_t val, sc_time &t, tlm::tlm_response_status *st = nullptr)
	{
		unsigned char d[8] = { 0 };
		tlm::tlm_generic_payload p;

		for (unsigned i = 0; i < len; i++)
			d[i] = (unsigned char)(val >> (8 * i));
		p.set_command(cmd);
		p.set_address(addr);
		p.set_data_ptr(d);
		p.set_data_length(len);
		p.set_streaming_width(len);
		p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
		s->b_transport(p, t);
		if (st) {
			*st = p.get_response_status();
		} else if (p.is_response_error()) {
			std::printf("  %s 0x%" PRIx64 ": %s (%s)\n", s.name(), addr,
				    p.get_response_string().c_str(), uncore->last_error().c_str());
			errors++;
		}
		val = 0;
		for (unsigned i = 0; i < len; i++)
			val |= std::uint64_t(d[i]) << (8 * i);
		return val;
	}

	/* The main thread's accesses go through the quantum keeper. */
	std::uint64_t rd(isocket &s, std::uint64_t a, unsigned len)
	{
		sc_time t = qk.get_local_time();
		std::uint64_t v = access(s, tlm::TLM_READ_COMMAND, a, len, 0, t);

		qk.set(t);
		return v;
	}
	void wr(isocket &s, std::uint64_t a, unsigned len, std::uint64_t v)
	{
		sc_time t = qk.get_local_time();

		access(s, tlm::TLM_WRITE_COMMAND, a, len, v, t);
		qk.set(t);
	}
	std::uint64_t rdmsr(std::uint64_t a) { return rd(msr_s, a, 8); }
	void wrmsr(std::uint64_t a, std::uint64_t v) { wr(msr_s, a, 8, v); }
	/* Whether an MSR exists: an address probe, no access (rdmsr_safe). */
	bool msr_exists(std::uint64_t a)
	{
		sc_time t = qk.get_local_time();
		tlm::tlm_response_status st;

		access(msr_s, tlm::TLM_IGNORE_COMMAND, a, 8, 0, t, &st);
		qk.set(t);
		return st == tlm::TLM_OK_RESPONSE;
	}

	sc_time local_now() { return sc_time_stamp() + qk.get_local_time(); }

	std::uint64_t sample(counter &c)
	{
		sc_time t = local_now();
		std::uint64_t v = c.space == UCM_MSR ? rdmsr(c.addr)
				  : c.space == UCM_PCI ? rd(pci, c.addr, 8)
						       : rd(mmio, c.addr, 4);

		c.t_last = t;
		return v;
	}

	void main()
	{
		qk.reset();
		if (xeon_of(platform))
			setup_snbep();
		else
			setup_skl();
		if (errors) {
			finish();
			return;
		}

		/* 2 ms: sample every 50 us of "computation" */
		while (local_now() < sc_time(2, SC_MS)) {
			qk.inc(sc_time(50, SC_US));
			for (auto &c : ctrs) {
				std::uint64_t v = sample(c);
				std::uint64_t mask = c.bits == 64 ? ~0ull : (1ull << c.bits) - 1;

				c.total += (v - c.last) & mask;
				c.last = v;
			}
			if (qk.need_sync())
				qk.sync();
		}
		qk.sync();
		if (xeon_of(platform))
			stop_snbep();
		else
			wrmsr(GLOBAL_CTRL, 0);
		finish();
	}

	void finish()
	{
		check();
		done = true;
		sc_stop();
	}

	void attach_workload()
	{
		if (uncore->attach_generator("mixed", 42) == 0)
			return;
		if (!xeon_of(platform)) {
			std::printf("attach_generator: %s\n", uncore->last_error().c_str());
			errors++;
			return;
		}
		/* a model without snbep's built-in workloads: the source above */
		ucm_model *m = uncore->model();

		std::printf("(%s; using the example's own source)\n", uncore->last_error().c_str());
		for (unsigned b = 0; b < ucm_box_count(m); b++) {
			const char *t = ucm_box_def(m, int(b))->type->name;

			if (!std::strcmp(t, "cbo"))
				fallback.cbos.push_back(int(b));
			else if (!std::strcmp(t, "imc"))
				fallback.imcs.push_back(int(b));
		}
		uncore->set_workload(fallback_fn, &fallback);
	}

	void first_reads()
	{
		/* ground truth from the first read on */
		ucm_truth_mark(uncore->model());
		for (auto &c : ctrs) {
			c.last = sample(c);
			c.t_first = c.t_last;
		}
	}

	/* ---- Skylake client ---- */

	void setup_skl()
	{
		/* discovery: host bridge, MCHBAR, CBo count */
		unsigned vid = unsigned(rd(pci, ecam(0, 0, 0, 0x00), 2));
		unsigned did = unsigned(rd(pci, ecam(0, 0, 0, 0x02), 2));
		std::uint64_t mchbar = rd(pci, ecam(0, 0, 0, 0x48), 8);
		unsigned ncbo = unsigned(rdmsr(CBO_CONFIG) & 0xF) - 1; /* D3: + graphics */
		std::uint64_t bar = mchbar & MCHBAR_MASK;

		std::printf("host bridge %04x:%04x, MCHBAR 0x%" PRIx64 " (%s), %u CBos\n", vid, did,
			    mchbar, (mchbar & 1) ? "enabled" : "disabled", ncbo);

		/* program: counters stopped globally while set up */
		wrmsr(GLOBAL_CTRL, 0);
		/* fixed UCLK counter preloaded to overflow 3,000,000 cycles
		 * (1 ms at 3 GHz) after the global enable: one PMI */
		wrmsr(FIXED_CTR, (1ull << 48) - 3000000);
		wrmsr(FIXED_CTRL, EN | OVF_EN);
		ctrs.push_back({ "UNC_CLOCK.SOCKET", UCM_MSR, FIXED_CTR, 48, "clock", 0, 0, 0 });
		for (unsigned i = 0; i < ncbo; i++) {
			std::uint32_t base = CBO_BASE + i * CBO_STRIDE;

			wrmsr(base + 6, 0);
			wrmsr(base + 0, evtsel(0x34, 0x8F));
			ctrs.push_back({ "cbo" + std::to_string(i) + " CACHE_LOOKUP.ANY_MESI", UCM_MSR,
					 base + 6, 44, "cbo", 0, i, 0 });
		}
		wrmsr(ARB_CTR0, 0);
		wrmsr(ARB_CTR0 + 1, 0);
		wrmsr(ARB_EVTSEL0, evtsel(0x80, 0x01));
		wrmsr(ARB_EVTSEL0 + 1, evtsel(0x81, 0x01));
		ctrs.push_back({ "UNC_ARB_TRK_OCCUPANCY.ALL", UCM_MSR, ARB_CTR0, 44, "arb", 0, 0, 0 });
		ctrs.push_back({ "UNC_ARB_TRK_REQUESTS.ALL", UCM_MSR, ARB_CTR0 + 1, 44, "arb", 0, 0, 1 });
		ctrs.push_back({ "DRAM_DATA_READS", UCM_MMIO, bar + 0x5050, 32, "imc", 0, 0, 3 });
		ctrs.push_back({ "DRAM_DATA_WRITES", UCM_MMIO, bar + 0x5054, 32, "imc", 0, 0, 4 });

		/* the workload runs from now, in simulated time */
		attach_workload();
		first_reads();
		wrmsr(GLOBAL_CTRL, GLOBAL_EN | 1); /* PMI to core 0 */
	}

	/* ---- Xeon E5-2600 ---- */

	struct snb_socket {
		unsigned bus, cpu, ncbo;
		std::vector<std::pair<unsigned, unsigned>> imc_fns; /* device, function */
	};
	std::vector<snb_socket> sockets;

	void setup_snbep()
	{
		const xeon *X = xeon_of(platform);

		/* discovery: scan the ECAM for the UBox configuration function
		 * (absent devices read all ones: pci_absent_ok); its node ID and
		 * the node map give the socket of each uncore bus */
		sockets.assign(uncore->nsockets(), snb_socket{ 0, 0, 0, {} });
		std::vector<unsigned> buses_of(sockets.size(), 0);
		for (unsigned bus = 0; bus < 256; bus++) {
			std::uint64_t id = rd(pci, ecam(bus, UBOX_DEV, 0, 0), 4);

			if (id != (std::uint64_t(X->ubox_did) << 16 | 0x8086))
				continue;
			unsigned node = unsigned(rd(pci, ecam(bus, UBOX_DEV, 0, 0x40), 4)) & 7;
			std::uint64_t map = rd(pci, ecam(bus, UBOX_DEV, 0, 0x54), 4);

			for (unsigned s = 0; s < 8; s++)
				if (((map >> (3 * s)) & 7) == node && s < sockets.size()) {
					sockets[s].bus = bus;
					buses_of[s]++;
				}
		}
		for (unsigned s = 0; s < sockets.size(); s++)
			if (buses_of[s] != 1) {
				std::printf("socket %u: %u uncore buses found, expected 1\n", s, buses_of[s]);
				errors++;
			}
		for (unsigned s = 0; !errors && s < sockets.size(); s++) {
			snb_socket &so = sockets[s];

			/* the cpus of a socket reach its uncore MSRs: its first */
			so.cpu = uncore->socket_cpu(s);
			while (so.ncbo < 16 &&
			       msr_exists(msr(so.cpu, SNB_CBO_BASE + SNB_CBO_STRIDE * so.ncbo + 4)))
				so.ncbo++;
			for (auto &df : X->imc)
				if (rd(pci, ecam(so.bus, df.first, df.second, 0), 2) == 0x8086)
					so.imc_fns.push_back(df);
			std::printf("socket %u: uncore bus 0x%02x, cpu %u, %u CBos, %zu iMC channels\n",
				    s, so.bus, so.cpu, so.ncbo, so.imc_fns.size());
			if (!so.ncbo || so.imc_fns.empty())
				errors++;
		}
		if (errors)
			return;

		/* program with every box frozen: no global control here */
		for (unsigned s = 0; s < sockets.size(); s++) {
			snb_socket &so = sockets[s];
			std::string sn = "s" + std::to_string(s) + " ";

			for (unsigned i = 0; i < so.ncbo; i++) {
				std::uint32_t base = SNB_CBO_BASE + SNB_CBO_STRIDE * i;

				wrmsr(msr(so.cpu, base + 0x04), X->frz);
				wrmsr(msr(so.cpu, base + 0x16), 0);
				wrmsr(msr(so.cpu, base + 0x14), X->filter_all_states);
				wrmsr(msr(so.cpu, base + 0x10), evtsel(0x34, 0x03));
				ctrs.push_back({ sn + "cbo" + std::to_string(i) + " LLC_LOOKUP.DATA_READ",
						 UCM_MSR, msr(so.cpu, base + 0x16), 44, "cbo", s, i, 0 });
			}
			/* the UBox has no box control: it counts from its enable */
			wrmsr(msr(so.cpu, SNB_U_FIXED_CTR), 0);
			wrmsr(msr(so.cpu, SNB_U_FIXED_CTL), EN);
			ctrs.push_back({ sn + "UNC_U_CLOCKTICKS", UCM_MSR, msr(so.cpu, SNB_U_FIXED_CTR), X->ufixed_bits,
					 "ubox", s, 0, 2, 0 });
			for (unsigned k = 0; k < so.imc_fns.size(); k++) {
				std::uint64_t f = ecam(so.bus, so.imc_fns[k].first, so.imc_fns[k].second, 0);
				std::string ch = sn + "imc" + std::to_string(k) + " ";

				wr(pci, f + 0xF4, 4, X->frz);
				wr(pci, f + 0xA0, 8, 0);
				wr(pci, f + 0xA8, 8, 0);
				/* the DCLK counter just below a carry into its upper
				 * dword: the 8-byte reads must carry it (1 ms in) */
				wr(pci, f + 0xD0, 8, 0x100000000ull - 800000);
				wr(pci, f + 0xD8, 4, evtsel(0x04, 0x03)); /* CAS_COUNT.RD */
				wr(pci, f + 0xDC, 4, evtsel(0x04, 0x0C)); /* CAS_COUNT.WR */
				wr(pci, f + 0xF0, 4, EN);                 /* DCLK fixed */
				ctrs.push_back({ ch + "CAS_COUNT.RD", UCM_PCI, f + 0xA0, 48, "imc", s, k, 0 });
				ctrs.push_back({ ch + "CAS_COUNT.WR", UCM_PCI, f + 0xA8, 48, "imc", s, k, 1 });
				ctrs.push_back({ ch + "DCLOCKTICKS", UCM_PCI, f + 0xD0, 48, "imc", s, k, 4, 1 });
			}
		}

		attach_workload();
		first_reads();
		/* start: unfreeze every box (frz_en stays set); a frozen box's
		 * counters start at the local time of its unfreeze (counter 0 of
		 * a box comes first in ctrs, its others follow) */
		sc_time box_start = SC_ZERO_TIME;
		for (auto &c : ctrs) {
			if (!std::strcmp(c.box, "ubox"))
				continue;
			snb_socket &so = sockets[c.socket];

			if (c.ctr == 0) {
				box_start = local_now();
				if (!std::strcmp(c.box, "cbo"))
					wrmsr(msr(so.cpu, SNB_CBO_BASE + SNB_CBO_STRIDE * c.inst + 4), X->run);
				else
					wr(pci, ecam(so.bus, so.imc_fns[c.inst].first, so.imc_fns[c.inst].second, 0xF4),
					   4, X->run);
			}
			c.t_start = box_start;
		}
	}

	void stop_snbep()
	{
		const xeon *X = xeon_of(platform);

		for (auto &so : sockets) {
			for (unsigned i = 0; i < so.ncbo; i++)
				wrmsr(msr(so.cpu, SNB_CBO_BASE + SNB_CBO_STRIDE * i + 4), X->frz);
			for (auto &df : so.imc_fns)
				wr(pci, ecam(so.bus, df.first, df.second, 0xF4), 4, X->frz);
		}
	}

	/* ---- PMI ---- */

	/* The interrupt handler of core 0: level-sensitive, like an APIC LVT
	 * entry.  It first looks at GLOBAL_STATUS with a debug read (which must
	 * not clear it), then reads and clears it for real.  On a platform
	 * without PMI the line never rises and this never runs. */
	void isr()
	{
		for (;;) {
			wait(pmi_in[0].posedge_event());
			sc_time t = SC_ZERO_TIME;
			tlm::tlm_generic_payload p;
			std::uint64_t dbg = 0;

			p.set_command(tlm::TLM_READ_COMMAND);
			p.set_address(GLOBAL_STATUS);
			p.set_data_ptr(reinterpret_cast<unsigned char *>(&dbg));
			p.set_data_length(8);
			if (msr_s->transport_dbg(p) == 8 && dbg)
				status_seen_by_debug++;
			std::uint64_t st = access(msr_s, tlm::TLM_READ_COMMAND, GLOBAL_STATUS, 8, 0, t);
			std::printf("PMI on core 0 at %s: GLOBAL_STATUS 0x%" PRIx64
				    " (debug read 0x%" PRIx64 ")\n",
				    sc_time_stamp().to_string().c_str(), st, dbg);
			access(msr_s, tlm::TLM_WRITE_COMMAND, GLOBAL_STATUS, 8, st, t); /* W1C */
			pmis_handled++;
			/* The line drops at the clearing write's time.  That is the
			 * model's time, which the main thread, running ahead by up to
			 * a global quantum, may have taken past this thread's. */
			if (pmi_in[0].read())
				wait(2 * tlm_utils::tlm_quantumkeeper::get_global_quantum() + t,
				     pmi_in[0].negedge_event());
			if (pmi_in[0].read()) {
				std::printf("  PMI line still high after clearing GLOBAL_STATUS\n");
				errors++;
			}
		}
	}

	void watch()
	{
		for (unsigned i = 0; i < pmi_in.size(); i++)
			if (pmi_in[i].posedge()) {
				any_edges++;
				other_core_edges += i != 0;
			}
	}

	/* ---- results ---- */

	void check()
	{
		ucm_model *m = uncore->model();
		struct ucm_pmi_stats ps;

		std::printf("%-36s %16s %16s\n", "counter", "TLM", "ground truth");
		for (auto &c : ctrs) {
			int box = ucm_box_find(m, c.socket, c.box, c.inst);
			struct ucm_truth t{};

			if (box < 0 || ucm_truth(m, box, c.ctr, &t)) {
				std::printf("%-36s no ground truth\n", c.name.c_str());
				errors++;
				continue;
			}
			std::uint64_t want = t.last_read - t.first_read;

			std::printf("%-36s %16" PRIu64 " %16" PRIu64 "%s\n", c.name.c_str(), c.total, want,
				    c.total == want ? "" : "  MISMATCH");
			if (c.total != want || !want)
				errors++;
			if (c.clock >= 0) {
				/* a clock counter: the cycles of its domain, computed
				 * here, between its start and its last read */
				sc_time from = c.t_start > c.t_first ? c.t_start : c.t_first;
				std::uint64_t hz = ucm_clock_hz(m, unsigned(c.clock));
				auto cyc = [&](const sc_time &x) {
					return std::uint64_t((unsigned __int128)uncore->to_ps(x) * hz /
							     1000000000000ull);
				};
				std::uint64_t cycles = cyc(c.t_last) - cyc(from);

				if (cycles != c.total) {
					std::printf("  %s: %" PRIu64 " cycles of %s between %s and %s\n",
						    c.name.c_str(), cycles,
						    ucm_platform_of(m)->clocks[c.clock].name,
						    from.to_string().c_str(), c.t_last.to_string().c_str());
					errors++;
				}
			}
		}
		if (xeon_of(platform)) {
			/* the E5-2600 has no PMI at all; the v2 has, but nothing
			 * here enables ov_en: no line may rise on either */
			report_bandwidth();
			std::printf("PMI: the platform has %s; edges on PMI lines %u\n",
				    uncore->has_pmi() ? "PMI (no counter here enables ov_en)"
						      : "none (no global control)",
				    any_edges);
			if (uncore->has_pmi() != (platform == "ivt") || any_edges || pmis_handled)
				errors++;
			return;
		}
		ucm_pmi_stats(m, 0, 0, &ps);
		std::printf("PMIs: delivered to core 0 %" PRIu64 ", handled %u, GLOBAL_STATUS "
			    "set in the debug read %u; edges on other cores' lines %u\n",
			    ps.delivered, pmis_handled, status_seen_by_debug, other_core_edges);
		if (ps.delivered != 1 || pmis_handled != 1 || status_seen_by_debug != 1 ||
		    other_core_edges)
			errors++;
	}

	/* DRAM traffic per socket from the CAS counts: 64 bytes each
	 * (guide 2.5.5) over the span of the samples. */
	void report_bandwidth()
	{
		for (unsigned s = 0; s < sockets.size(); s++) {
			std::uint64_t rd_cas = 0, wr_cas = 0;
			double secs = 0;

			for (auto &c : ctrs) {
				if (c.socket != s || std::strcmp(c.box, "imc"))
					continue;
				if (c.ctr == 0)
					rd_cas += c.total;
				else if (c.ctr == 1)
					wr_cas += c.total;
				secs = (c.t_last - c.t_first).to_seconds();
			}
			if (secs > 0)
				std::printf("socket %u: DRAM read %.2f GB/s, write %.2f GB/s\n", s,
					    rd_cas * 64.0 / secs / 1e9, wr_cas * 64.0 / secs / 1e9);
		}
	}
};

} // namespace

int sc_main(int argc, char *argv[])
{
	std::string platform = "skl";

	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "--platform") && i + 1 < argc) {
			platform = argv[++i];
		} else if (!std::strncmp(argv[i], "--platform=", 11)) {
			platform = argv[i] + 11;
		} else {
			std::fprintf(stderr, "usage: %s [--platform skl|snbep|ivt]\n", argv[0]);
			return 2;
		}
	}
	if (platform != "skl" && !xeon_of(platform)) {
		std::fprintf(stderr, "%s: no example for platform '%s' (skl, snbep, ivt)\n", argv[0],
			     platform.c_str());
		return 2;
	}

	ucm_sc::uncore_tlm_params prm;
	/* the snbep discovery scans every bus, as an OS does: absent devices
	 * read all ones instead of failing */
	prm.pci_absent_ok = xeon_of(platform) != nullptr;
	ucm_sc::uncore_tlm uncore("uncore", platform.c_str(), prm);
	unsigned n = uncore.nsockets() * uncore.cpus_per_socket();
	sc_vector<sc_signal<bool>> pmi("pmi", n);
	cpu c("cpu", &uncore, n, platform);

	tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(10, SC_US));
	c.msr_s.bind(uncore.msr_socket);
	c.pci.bind(uncore.pci_socket);
	c.mmio.bind(uncore.mmio_socket);
	uncore.pmi.bind(pmi);
	c.pmi_in.bind(pmi);

	std::printf("platform %s: %u socket(s) x %u cpus, %u PMI line(s)\n",
		    ucm_platform_of(uncore.model())->name, uncore.nsockets(),
		    uncore.cpus_per_socket(), n);
	sc_start();
	if (!c.done) {
		std::printf("the simulation ended early\n");
		return 1;
	}
	std::printf("%s\n", c.errors ? "FAIL" : "OK: counts read through TLM equal the ground truth");
	return c.errors ? 1 : 0;
}
