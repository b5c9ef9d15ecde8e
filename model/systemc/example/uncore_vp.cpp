/*
 * uncore_vp.cpp - a tiny virtual platform around the uncore TLM-2.0 model.
 *
 * A loosely-timed "cpu" initiator (temporal decoupling with a quantum
 * keeper) discovers the Skylake-client uncore through PCI configuration
 * space and MSRs, programs the fixed UCLK counter, the four CBo lookups
 * counters and the ARB counters, finds the IMC counters behind MCHBAR, runs
 * the built-in "mixed" workload for 2 ms of simulated time while sampling
 * every counter, and handles the PMI of a fixed-counter overflow on core 0
 * in an interrupt thread sensitive to the PMI signal.
 *
 * At the end every count read through TLM is compared with the model's
 * ground truth (ucm_truth), the PMIs handled with the PMIs the model
 * delivered, and the PMI lines of the other cores must never have risen.
 * Exit status 0 when all agree (CTest: systemc.example).
 */
#include <cinttypes>
#include <cstdio>
#include <cstring>
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

std::uint64_t evtsel(unsigned code, unsigned umask)
{
	return code | (std::uint64_t(umask) << 8) | EN;
}

std::uint64_t ecam(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return std::uint64_t(bus) << 20 | dev << 15 | fn << 12 | off;
}

/* A counter the cpu samples, and where the model keeps its truth. */
struct counter {
	const char *name;
	unsigned space;         /* UCM_MSR or UCM_MMIO */
	std::uint64_t addr;     /* MSR address or physical address */
	unsigned bits;
	const char *box;        /* for ucm_box_find */
	unsigned inst, ctr;
	std::uint64_t last, total;
};

struct cpu : sc_module {
	tlm_utils::simple_initiator_socket<cpu, UCM_SC_BUSWIDTH> msr, pci, mmio;
	sc_vector<sc_in<bool>> pmi_in;
	ucm_sc::uncore_tlm *uncore;
	tlm_utils::tlm_quantumkeeper qk;
	std::vector<counter> ctrs;
	unsigned pmis_handled = 0, status_seen_by_debug = 0, other_core_edges = 0;
	int errors = 0;
	bool done = false;

	SC_HAS_PROCESS(cpu);
	cpu(sc_module_name n, ucm_sc::uncore_tlm *u, unsigned nlines)
		: sc_module(n), msr("msr"), pci("pci"), mmio("mmio"), pmi_in("pmi_in", nlines),
		  uncore(u)
	{
		SC_THREAD(main);
		SC_THREAD(isr);
		SC_METHOD(watch);
		for (auto &p : pmi_in)
			sensitive << p.pos();
		dont_initialize();
	}

	/* One transaction; t is the caller's local time offset. */
	std::uint64_t access(tlm_utils::simple_initiator_socket<cpu, UCM_SC_BUSWIDTH> &s,
			     tlm::tlm_command cmd, std::uint64_t addr, unsigned len,
			     std::uint64_t val, sc_time &t)
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
		if (p.is_response_error()) {
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
	std::uint64_t rdmsr(std::uint32_t a)
	{
		sc_time t = qk.get_local_time();
		std::uint64_t v = access(msr, tlm::TLM_READ_COMMAND, a, 8, 0, t);

		qk.set(t);
		return v;
	}
	void wrmsr(std::uint32_t a, std::uint64_t v)
	{
		sc_time t = qk.get_local_time();

		access(msr, tlm::TLM_WRITE_COMMAND, a, 8, v, t);
		qk.set(t);
	}
	std::uint64_t rd(tlm_utils::simple_initiator_socket<cpu, UCM_SC_BUSWIDTH> &s,
			 std::uint64_t a, unsigned len)
	{
		sc_time t = qk.get_local_time();
		std::uint64_t v = access(s, tlm::TLM_READ_COMMAND, a, len, 0, t);

		qk.set(t);
		return v;
	}

	std::uint64_t sample(counter &c)
	{
		return c.space == UCM_MSR ? rdmsr(std::uint32_t(c.addr)) : rd(mmio, c.addr, 4);
	}

	void main()
	{
		ucm_model *m = uncore->model();

		qk.reset();
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
		ctrs.push_back({ "UNC_CLOCK.SOCKET", UCM_MSR, FIXED_CTR, 48, "clock", 0, 0, 0, 0 });
		for (unsigned i = 0; i < ncbo; i++) {
			static const char *const names[] = { "cbo0 CACHE_LOOKUP.ANY_MESI",
							     "cbo1 CACHE_LOOKUP.ANY_MESI",
							     "cbo2 CACHE_LOOKUP.ANY_MESI",
							     "cbo3 CACHE_LOOKUP.ANY_MESI" };
			std::uint32_t base = CBO_BASE + i * CBO_STRIDE;

			wrmsr(base + 6, 0);
			wrmsr(base + 0, evtsel(0x34, 0x8F));
			ctrs.push_back({ names[i & 3], UCM_MSR, base + 6, 44, "cbo", i, 0, 0, 0 });
		}
		wrmsr(ARB_CTR0, 0);
		wrmsr(ARB_CTR0 + 1, 0);
		wrmsr(ARB_EVTSEL0, evtsel(0x80, 0x01));
		wrmsr(ARB_EVTSEL0 + 1, evtsel(0x81, 0x01));
		ctrs.push_back({ "UNC_ARB_TRK_OCCUPANCY.ALL", UCM_MSR, ARB_CTR0, 44, "arb", 0, 0, 0, 0 });
		ctrs.push_back({ "UNC_ARB_TRK_REQUESTS.ALL", UCM_MSR, ARB_CTR0 + 1, 44, "arb", 0, 1, 0, 0 });
		ctrs.push_back({ "DRAM_DATA_READS", UCM_MMIO, bar + 0x5050, 32, "imc", 0, 3, 0, 0 });
		ctrs.push_back({ "DRAM_DATA_WRITES", UCM_MMIO, bar + 0x5054, 32, "imc", 0, 4, 0, 0 });

		/* the workload runs from now, in simulated time */
		if (uncore->attach_generator("mixed", 42)) {
			std::printf("attach_generator: %s\n", uncore->last_error().c_str());
			errors++;
		}
		/* ground truth from the first read on */
		ucm_truth_mark(m);
		for (auto &c : ctrs)
			c.last = sample(c);
		wrmsr(GLOBAL_CTRL, GLOBAL_EN | 1); /* PMI to core 0 */

		/* 2 ms: sample every 50 us of "computation" */
		while (sc_time_stamp() + qk.get_local_time() < sc_time(2, SC_MS)) {
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
		wrmsr(GLOBAL_CTRL, 0);
		check();
		done = true;
		sc_stop();
	}

	/* The interrupt handler of core 0: level-sensitive, like an APIC LVT
	 * entry.  It first looks at GLOBAL_STATUS with a debug read (which must
	 * not clear it), then reads and clears it for real. */
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
			if (msr->transport_dbg(p) == 8 && dbg)
				status_seen_by_debug++;
			std::uint64_t st = access(msr, tlm::TLM_READ_COMMAND, GLOBAL_STATUS, 8, 0, t);
			std::printf("PMI on core 0 at %s: GLOBAL_STATUS 0x%" PRIx64
				    " (debug read 0x%" PRIx64 ")\n",
				    sc_time_stamp().to_string().c_str(), st, dbg);
			access(msr, tlm::TLM_WRITE_COMMAND, GLOBAL_STATUS, 8, st, t); /* W1C */
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
		for (unsigned i = 1; i < pmi_in.size(); i++)
			if (pmi_in[i].posedge())
				other_core_edges++;
	}

	void check()
	{
		ucm_model *m = uncore->model();
		struct ucm_pmi_stats ps;

		std::printf("%-28s %16s %16s\n", "counter", "TLM", "ground truth");
		for (auto &c : ctrs) {
			int box = ucm_box_find(m, 0, c.box, c.inst);
			struct ucm_truth t{};

			if (box < 0 || ucm_truth(m, box, c.ctr, &t)) {
				std::printf("%-28s no ground truth\n", c.name);
				errors++;
				continue;
			}
			std::uint64_t want = t.last_read - t.first_read;

			std::printf("%-28s %16" PRIu64 " %16" PRIu64 "%s\n", c.name, c.total, want,
				    c.total == want ? "" : "  MISMATCH");
			if (c.total != want || !want)
				errors++;
		}
		ucm_pmi_stats(m, 0, 0, &ps);
		std::printf("PMIs: delivered to core 0 %" PRIu64 ", handled %u, GLOBAL_STATUS "
			    "set in the debug read %u; edges on other cores' lines %u\n",
			    ps.delivered, pmis_handled, status_seen_by_debug, other_core_edges);
		if (ps.delivered != 1 || pmis_handled != 1 || status_seen_by_debug != 1 ||
		    other_core_edges)
			errors++;
	}
};

} // namespace

int sc_main(int, char *[])
{
	ucm_sc::uncore_tlm uncore("uncore"); /* Skylake client */
	unsigned n = uncore.nsockets() * uncore.cpus_per_socket();
	sc_vector<sc_signal<bool>> pmi("pmi", n);
	cpu c("cpu", &uncore, n);

	tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(10, SC_US));
	c.msr.bind(uncore.msr_socket);
	c.pci.bind(uncore.pci_socket);
	c.mmio.bind(uncore.mmio_socket);
	uncore.pmi.bind(pmi);
	c.pmi_in.bind(pmi);

	sc_start();
	if (!c.done) {
		std::printf("the simulation ended early\n");
		return 1;
	}
	std::printf("%s\n", c.errors ? "FAIL" : "OK: counts read through TLM equal the ground truth");
	return c.errors ? 1 : 0;
}
