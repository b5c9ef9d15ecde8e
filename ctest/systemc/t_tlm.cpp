/*
 * t_tlm.cpp - the SystemC TLM-2.0 wrapper (model/systemc) on the Skylake
 * client against the model's ground truth: counts read through TLM, counter
 * values at the initiator's local time, side-effect-free debug reads, every
 * error response, DMI refusal, PMI lines (selected cores only, exact time
 * under temporal decoupling, poll latency, a pulse cleared at once) and the
 * workload inputs (generator, event trace, any ucm_workload_fn).  The Xeon
 * E5-2600 tests are in t_tlm_snbep.cpp, the harness in tlm_rig.h.
 *
 * A SystemC process can elaborate and simulate once, so the binary runs the
 * one test named on its command line (sc_main below); CTest registers each
 * TLM_TEST* as systemc.NAME (ctest/systemc/CMakeLists.txt).
 */
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "tlm_rig.h"

using namespace sc_core;
using tlm::tlm_response_status;

/* ---- Skylake client ---- */

static const std::uint32_t GLOBAL_CTRL = 0xE01, GLOBAL_STATUS = 0xE02;
static const std::uint32_t FIXED_CTRL = 0x394, FIXED_CTR = 0x395;
static const std::uint32_t ARB_CTR0 = 0x3B0, ARB_EVTSEL0 = 0x3B2, CBO0 = 0x700;
static const std::uint64_t EN = 1ull << 22, OVF_EN = 1ull << 20, GLOBAL_EN = 1ull << 29;
static const std::uint64_t BAR = 0xFED10000ull; /* default MCHBAR, enabled */
static const std::uint64_t DRAM_DATA_READS = BAR + 0x5050, DRAM_DATA_WRITES = BAR + 0x5054;

static std::uint64_t evtsel(unsigned code, unsigned umask)
{
	return code | (std::uint64_t(umask) << 8) | EN;
}

/* ---- counts ---- */

/* Counters sampled through TLM under the "mixed" generator with temporal
 * decoupling: each total equals the model's ground truth between the first
 * and last read; the fixed counter also equals the UCLK cycles between the
 * local times of those reads, computed here. */
TLM_TEST(counts_equal_truth)
{
	struct ctr {
		unsigned space;
		std::uint64_t addr;
		unsigned bits;
		const char *box;
		unsigned inst, idx;
		std::uint64_t last, total;
	};
	std::vector<ctr> c;
	sc_time d = SC_ZERO_TIME, t_first, t_last;

	r.wrmsr(GLOBAL_CTRL, 0, d);
	for (unsigned i = 0; i < 4; i++) {
		r.wrmsr(CBO0 + 0x10 * i, evtsel(0x34, 0x8F), d);     /* ANY_MESI */
		r.wrmsr(CBO0 + 0x10 * i + 1, evtsel(0x22, 0x41), d); /* MISS_XCORE */
		c.push_back({ UCM_MSR, CBO0 + 0x10 * i + 6, 44, "cbo", i, 0, 0, 0 });
		c.push_back({ UCM_MSR, CBO0 + 0x10 * i + 7, 44, "cbo", i, 1, 0, 0 });
	}
	r.wrmsr(ARB_EVTSEL0, evtsel(0x80, 0x01), d);
	r.wrmsr(ARB_EVTSEL0 + 1, evtsel(0x81, 0x01), d);
	r.wrmsr(FIXED_CTRL, EN, d);
	c.push_back({ UCM_MSR, ARB_CTR0, 44, "arb", 0, 0, 0, 0 });
	c.push_back({ UCM_MSR, ARB_CTR0 + 1, 44, "arb", 0, 1, 0, 0 });
	c.push_back({ UCM_MSR, FIXED_CTR, 48, "clock", 0, 0, 0, 0 });
	c.push_back({ UCM_MMIO, DRAM_DATA_READS, 32, "imc", 0, 3, 0, 0 });
	c.push_back({ UCM_MMIO, DRAM_DATA_WRITES, 32, "imc", 0, 4, 0, 0 });
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN, d);
	T_EQ(r.u.attach_generator("mixed", 7), 0);
	T_CHECK(r.u.attach_generator("no-such-workload", 7) == -ENOENT);
	T_EQ(r.u.attach_generator("mixed", 7), 0);

	ucm_truth_mark(r.m());
	for (unsigned round = 0; round < 400; round++) {
		for (auto &x : c) {
			std::uint64_t v = 0;

			if (x.addr == FIXED_CTR) {
				if (round == 0)
					t_first = sc_time_stamp() + d;
				t_last = sc_time_stamp() + d;
			}
			T_RESP(r.rd(x.space, x.addr, x.space == UCM_MSR ? 8 : 4, &v, d),
			       tlm::TLM_OK_RESPONSE);
			if (round)
				x.total += (v - x.last) & ((1ull << x.bits) - 1);
			x.last = v;
		}
		/* run ahead of SystemC time, synchronise now and then */
		d += sc_time(3 + round % 7, SC_US);
		if (round % 5 == 4) {
			wait(d);
			d = SC_ZERO_TIME;
		}
	}
	std::uint64_t nonzero = 0;
	for (auto &x : c) {
		struct ucm_truth t = r.truth(x.box, x.inst, x.idx);

		T_EQ(x.total, t.last_read - t.first_read);
		T_EQ(t.reads, 400);
		nonzero += x.total != 0;
	}
	T_EQ(nonzero, c.size());
	T_EQ(c[c.size() - 3].total, r.cycles_at(t_last) - r.cycles_at(t_first));
}

/* A read returns the count at sc_time_stamp() + delay, without waiting;
 * the latency of the space is added to delay; a lagging initiator gets the
 * model's (later) time. */
TLM_TEST(reads_at_local_time)
{
	sc_time d = SC_ZERO_TIME;
	const sc_time lat = r.u.latency(UCM_MSR);

	r.u.set_poll_quantum(SC_ZERO_TIME);
	r.wrmsr(FIXED_CTRL, EN, d);
	T_TIME(d, lat);
	d = SC_ZERO_TIME;
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN, d); /* counting from t = 0 */
	d = sc_time(10, SC_US);
	T_EQ(r.rdmsr(FIXED_CTR, d), 30000); /* 10 us at 3 GHz */
	T_TIME(d, sc_time(10, SC_US) + lat);
	T_EQ(ucm_now_ps(r.m()), 10000000);
	T_EQ(r.rdmsr(FIXED_CTR, d), r.cycles_at(sc_time(10, SC_US) + lat));
	T_TIME(sc_time_stamp(), SC_ZERO_TIME); /* nothing waited */

	/* an initiator behind the model: the access happens at model time */
	std::uint64_t at_model = r.peek_msr(FIXED_CTR);
	sc_time behind = SC_ZERO_TIME;
	T_EQ(r.rdmsr(FIXED_CTR, behind), at_model);
	T_TIME(behind, lat);

	/* after a wait, counts continue from SystemC time */
	wait(sc_time(20, SC_US));
	d = SC_ZERO_TIME;
	T_EQ(r.rdmsr(FIXED_CTR, d), 60000);

	/* configurable latency per space */
	r.u.set_latency(UCM_MSR, sc_time(7, SC_NS));
	r.u.set_latency(UCM_PCI, sc_time(11, SC_NS));
	r.u.set_latency(UCM_MMIO, sc_time(13, SC_NS));
	std::uint64_t v;
	d = SC_ZERO_TIME;
	r.rdmsr(FIXED_CTR, d);
	T_TIME(d, sc_time(7, SC_NS));
	d = SC_ZERO_TIME;
	T_RESP(r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d), tlm::TLM_OK_RESPONSE);
	T_TIME(d, sc_time(11, SC_NS));
	T_EQ(v, 0x191F8086); /* vendor 8086, default device 191F */
	d = SC_ZERO_TIME;
	T_RESP(r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &v, d), tlm::TLM_OK_RESPONSE);
	T_TIME(d, sc_time(13, SC_NS));
	T_EQ(r.u.to_ps(r.u.from_ps(123456789)), 123456789);
}

/* Poll: with no access the model follows SystemC time every quantum; with
 * a zero quantum only accesses move it. */
TLM_TEST(poll_quantum)
{
	wait(sc_time(10500, SC_NS));
	T_EQ(ucm_now_ps(r.m()), 10000000); /* last poll at 10 us (1 us quantum) */
	r.u.set_poll_quantum(SC_ZERO_TIME);
	wait(sc_time(20, SC_US));
	T_CHECK(ucm_now_ps(r.m()) <= 11000000);
	r.u.set_poll_quantum(sc_time(2, SC_US));
	wait(sc_time(5, SC_US));
	T_EQ(ucm_now_ps(r.m()), 34500000); /* re-armed at 30.5 us, then 32.5, 34.5 */
	wait(sc_time(1500, SC_NS));
	T_EQ(ucm_now_ps(r.m()), 36500000);
}

/* ---- debug reads ---- */

struct snapshot {
	std::uint64_t now, status, ctl, pmi_delivered, strict;
	std::vector<struct ucm_truth> truths;
	std::vector<bool> lines;
	size_t edges;
};

static snapshot snap(rig &r)
{
	snapshot s;

	s.now = ucm_now_ps(r.m());
	s.status = r.peek_msr(GLOBAL_STATUS);
	s.ctl = r.peek_msr(GLOBAL_CTRL);
	s.pmi_delivered = 0;
	for (unsigned c = 0; c < r.u.cpus_per_socket(); c++) {
		struct ucm_pmi_stats ps;

		ucm_pmi_stats(r.m(), 0, c, &ps);
		s.pmi_delivered += ps.delivered;
	}
	s.strict = ucm_strict_count(r.m());
	for (unsigned b = 0; b < ucm_box_count(r.m()); b++)
		for (unsigned i = 0; i < ucm_box_def(r.m(), int(b))->type->nctr; i++) {
			struct ucm_truth t{};

			ucm_truth(r.m(), int(b), i, &t);
			s.truths.push_back(t);
		}
	for (auto &l : r.pmi)
		s.lines.push_back(l.read());
	s.edges = r.edges.size();
	return s;
}

static void same(rig &r, const snapshot &a, const snapshot &b)
{
	(void)r;
	T_EQ(a.now, b.now);
	T_EQ(a.status, b.status);
	T_EQ(a.ctl, b.ctl);
	T_EQ(a.pmi_delivered, b.pmi_delivered);
	T_EQ(a.strict, b.strict);
	T_EQ(a.truths.size(), b.truths.size());
	for (size_t i = 0; i < a.truths.size() && i < b.truths.size(); i++) {
		T_EQ(a.truths[i].total, b.truths[i].total);
		T_EQ(a.truths[i].reads, b.truths[i].reads);
		T_EQ(a.truths[i].first_read, b.truths[i].first_read);
		T_EQ(a.truths[i].last_read, b.truths[i].last_read);
	}
	T_CHECK(a.lines == b.lines);
	T_EQ(a.edges, b.edges);
}

/* A debug read of every space returns the registers' values and changes
 * nothing: GLOBAL_STATUS keeps its RW1C bits, counters, ground-truth reads,
 * model time, PMI lines and events stay as they were.  A debug write is
 * refused.  A real read, by contrast, shows up in the ground truth. */
TLM_TEST(debug_reads_have_no_side_effects)
{
	sc_time d = SC_ZERO_TIME;
	unsigned char b[256];

	r.u.set_poll_quantum(SC_ZERO_TIME); /* the model moves only when told */
	r.wrmsr(FIXED_CTR, (1ull << 48) - 30000, d);
	r.wrmsr(FIXED_CTRL, EN | OVF_EN, d);
	r.wrmsr(CBO0, evtsel(0x34, 0x8F), d);
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN | 0x2, d); /* PMI to core 1 */
	T_EQ(r.u.attach_generator("mixed", 3), 0);
	ucm_truth_mark(r.m());
	r.rdmsr(CBO0 + 6, d);
	wait(sc_time(20, SC_US));
	d = SC_ZERO_TIME;
	T_EQ(r.rdmsr(GLOBAL_STATUS, d), 1); /* fixed counter overflowed at 10 us */
	wait(d + sc_time(1, SC_US));
	T_CHECK(r.pmi[1].read());
	wait(sc_time(3, SC_US)); /* SystemC time is now ahead of the model */
	T_CHECK(r.u.to_ps(sc_time_stamp()) > ucm_now_ps(r.m()));

	snapshot before = snap(r);
	std::uint64_t reads_before = r.truth("cbo", 0, 0).reads;
	T_EQ(before.status, 1);
	T_EQ(reads_before, 1);

	/* MSR: status, control, counters */
	for (int k = 0; k < 3; k++) {
		T_EQ(r.dbg(UCM_MSR, GLOBAL_STATUS, 8, b), 8);
		T_EQ(b[0], 1);
	}
	T_EQ(r.dbg(UCM_MSR, GLOBAL_CTRL, 8, b), 8);
	T_EQ(b[0], 0x2);
	T_EQ(b[3], 0x20);
	T_EQ(r.dbg(UCM_MSR, CBO0 + 6, 8, b), 8);
	std::uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v |= std::uint64_t(b[i]) << (8 * i);
	T_EQ(v, r.peek_msr(CBO0 + 6));
	T_EQ(r.dbg(UCM_MSR, FIXED_CTR, 8, b), 8);
	T_EQ(r.dbg(UCM_MSR, (1ull << 32) | FIXED_CTR, 8, b), 8); /* cpu 1 */
	/* PCI: the whole host bridge config space, from an odd offset too */
	T_EQ(r.dbg(UCM_PCI, ecam(0, 0, 0, 0), 256, b), 256);
	T_EQ(b[0] | b[1] << 8, 0x8086);
	T_EQ(b[0x48], 0x01);
	T_EQ(r.dbg(UCM_PCI, ecam(0, 0, 0, 0x47), 3, b), 3);
	T_EQ(b[1], 0x01);
	/* MMIO: every IMC counter */
	T_EQ(r.dbg(UCM_MMIO, BAR + 0x5040, 24, b), 24);
	v = b[16] | b[17] << 8 | b[18] << 16 | std::uint64_t(b[19]) << 24;
	std::uint64_t pv = 0;
	T_EQ(ucm_mmio_peek(r.m(), DRAM_DATA_READS, 4, &pv), 0);
	T_EQ(v, pv);

	/* refused: writes, invalid addresses, wrong sizes */
	b[0] = 0xFF;
	T_EQ(r.dbg(UCM_MSR, GLOBAL_STATUS, 8, b, tlm::TLM_WRITE_COMMAND), 0);
	T_EQ(r.dbg(UCM_MSR, 0x123, 8, b), 0);
	T_EQ(r.dbg(UCM_MSR, GLOBAL_STATUS, 4, b), 0);
	T_EQ(r.dbg(UCM_PCI, ecam(0, 5, 0, 0), 4, b), 0);
	T_EQ(r.dbg(UCM_MMIO, 0x1000, 4, b), 0);
	T_EQ(r.dbg(UCM_MMIO, BAR + 0x5042, 4, b), 0);

	/* nothing changed, now or after the kernel had a chance to react */
	same(r, before, snap(r));
	wait(SC_ZERO_TIME);
	same(r, before, snap(r));

	/* the contrast: a real read counts as a ground-truth read and brings
	 * the model up to its time; a real W1C write clears and drops the line */
	d = SC_ZERO_TIME;
	r.rdmsr(CBO0 + 6, d);
	T_EQ(r.truth("cbo", 0, 0).reads, reads_before + 1);
	T_CHECK(ucm_now_ps(r.m()) > before.now);
	T_EQ(r.rdmsr(GLOBAL_STATUS, d), 1); /* reading does not clear */
	r.wrmsr(GLOBAL_STATUS, 1, d);
	T_EQ(r.peek_msr(GLOBAL_STATUS), 0);
	wait(d);
	T_CHECK(!r.pmi[1].read());
}

/* ---- errors ---- */

/* Every error response, each with the latency still added, the data of a
 * read left alone where the model was not asked, and nothing accessed. */
TLM_TEST(error_responses)
{
	const tlm_response_status OK = tlm::TLM_OK_RESPONSE, ADDR = tlm::TLM_ADDRESS_ERROR_RESPONSE,
				  BURST = tlm::TLM_BURST_ERROR_RESPONSE,
				  BE = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE,
				  GEN = tlm::TLM_GENERIC_ERROR_RESPONSE;
	const unsigned char Y = TLM_BYTE_ENABLED, N = TLM_BYTE_DISABLED;
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0;
	unsigned char buf[16];

	auto lat = [&](unsigned space, tlm_response_status got, tlm_response_status want,
		       int line) {
		if (got != want)
			fail_at(__FILE__, line, "response " + resp_name(got) + ", expected " +
							resp_name(want));
		if (d != r.u.latency(space))
			fail_at(__FILE__, line, "delay " + d.to_string() + ", expected the latency");
		d = SC_ZERO_TIME;
	};
#define E(space, expr, want) lat(space, (expr), (want), __LINE__)

	/* MSR: #GP, no such cpu, length, streaming width, byte enables */
	E(UCM_MSR, r.rd(UCM_MSR, 0x123, 8, &v, d), ADDR);
	T_CHECK(r.u.last_error().find("0x123") != std::string::npos);
	E(UCM_MSR, r.wr(UCM_MSR, 0x123, 8, 0, d), ADDR);
	E(UCM_MSR, r.rd(UCM_MSR, (4ull << 32) | GLOBAL_CTRL, 8, &v, d), ADDR);
	E(UCM_MSR, r.rd(UCM_MSR, (3ull << 32) | GLOBAL_CTRL, 8, &v, d), OK);
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 4, &v, d), BURST);
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 16, &v, d), BURST);
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_READ_COMMAND, GLOBAL_CTRL, 8, buf, d, {}, 4), BURST);
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 8, &v, d, { Y, Y, Y, Y, Y, Y, Y, Y }), OK);
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 8, &v, d, { Y }), OK); /* pattern repeats */
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 8, &v, d, { Y, Y, Y, Y, N, N, N, N }), BE);
	E(UCM_MSR, r.wr(UCM_MSR, GLOBAL_CTRL, 8, GLOBAL_EN, d, { Y, Y, N, Y }), BE);
	T_EQ(r.peek_msr(GLOBAL_CTRL), 0); /* the refused write did nothing */
	E(UCM_MSR, r.rd(UCM_MSR, GLOBAL_CTRL, 8, &v, d, { 0x0F }), BE); /* not 0 or 0xff */
	/* a failed read leaves the data array alone */
	std::memset(buf, 0x5A, sizeof(buf));
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_READ_COMMAND, 0x123, 8, buf, d), ADDR);
	T_EQ(buf[0], 0x5A);
	/* no data pointer */
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_READ_COMMAND, GLOBAL_CTRL, 8, nullptr, d), GEN);

	/* PCI: absent device (reads all ones), range, alignment, lengths */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 2, &v, d), OK);
	T_EQ(v, 0x8086);
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 2, 0, 0), 4, &v, d), ADDR);
	T_EQ(v, 0xFFFFFFFF);
	E(UCM_PCI, r.wr(UCM_PCI, ecam(1, 0, 0, 0), 4, 0, d), ADDR);
	E(UCM_PCI, r.rd(UCM_PCI, 1ull << 28, 4, &v, d), ADDR); /* segment 1 */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0x49), 4, &v, d), ADDR);
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 3, &v, d), BURST);
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 16, &v, d), BURST);
	/* byte enables: one naturally aligned run of 1/2/4/8 bytes narrows the
	 * access; the other bytes of a read are not written */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d, { N, N, Y, Y }), OK);
	T_EQ(v, 0x191FA5A5);
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0x48), 8, &v, d, { Y, Y, Y, Y, N, N, N, N }), OK);
	T_EQ(v, 0xA5A5A5A5FED10001ull);
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d, { N, Y, Y, N }), BE); /* unaligned */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d, { Y, N, Y, N }), BE); /* two runs */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d, { Y, Y, Y, N }), BE); /* 3 bytes */
	E(UCM_PCI, r.rd(UCM_PCI, ecam(0, 0, 0, 0), 4, &v, d, { N, N, N, N }), BE); /* none */
	/* a narrowed write touches only its bytes: MCHBAR's upper dword */
	E(UCM_PCI, r.wr(UCM_PCI, ecam(0, 0, 0, 0x48), 8, 0x0000000100000000ull, d,
			{ N, N, N, N, Y, Y, Y, Y }), OK);
	std::uint64_t mchbar = 0;
	T_EQ(ucm_pci_peek(r.m(), 0, 0, 0, 0, 0x48, 8, &mchbar), 0);
	T_EQ(mchbar, 0x00000001FED10001ull);
	E(UCM_PCI, r.wr(UCM_PCI, ecam(0, 0, 0, 0x4C), 4, 0, d), OK);

	/* MMIO: outside the BAR, alignment, lengths, byte enables */
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &v, d), OK);
	E(UCM_MMIO, r.rd(UCM_MMIO, 0x1000, 4, &v, d), ADDR);
	E(UCM_MMIO, r.rd(UCM_MMIO, BAR + 0x8000, 4, &v, d), ADDR);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS + 2, 4, &v, d), ADDR);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_WRITES, 8, &v, d), ADDR);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 2, &v, d), BURST);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 8, &v, d, { N, N, N, N, Y, Y, Y, Y }), OK);
	T_EQ(v & 0xFFFFFFFF, 0xA5A5A5A5);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 8, &v, d, { Y, Y, N, N, N, N, N, N }), BE);
	/* behind a disabled BAR nothing decodes */
	E(UCM_PCI, r.wr(UCM_PCI, ecam(0, 0, 0, 0x48), 4, 0xFED10000, d), OK);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &v, d), ADDR);
	E(UCM_PCI, r.wr(UCM_PCI, ecam(0, 0, 0, 0x48), 4, 0xFED10001, d), OK);
	E(UCM_MMIO, r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &v, d), OK);

	/* TLM_IGNORE_COMMAND: an address probe, no access */
	ucm_truth_mark(r.m());
	std::uint64_t now = ucm_now_ps(r.m());
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_IGNORE_COMMAND, CBO0 + 6, 8, buf, d), OK);
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_IGNORE_COMMAND, CBO0 + 6, 8, nullptr, d), OK);
	E(UCM_MSR, r.xfer(UCM_MSR, tlm::TLM_IGNORE_COMMAND, 0x123, 8, buf, d), ADDR);
	E(UCM_PCI, r.xfer(UCM_PCI, tlm::TLM_IGNORE_COMMAND, ecam(0, 0, 0, 0), 4, buf, d), OK);
	E(UCM_PCI, r.xfer(UCM_PCI, tlm::TLM_IGNORE_COMMAND, ecam(0, 3, 0, 0), 4, buf, d), ADDR);
	E(UCM_MMIO, r.xfer(UCM_MMIO, tlm::TLM_IGNORE_COMMAND, DRAM_DATA_READS, 4, buf, d), OK);
	E(UCM_MMIO, r.xfer(UCM_MMIO, tlm::TLM_IGNORE_COMMAND, 0x1000, 4, buf, d), ADDR);
	T_EQ(r.truth("cbo", 0, 0).reads, 0);
	T_EQ(ucm_now_ps(r.m()), now);
#undef E

	/* DMI: refused on every socket, over the whole range */
	for (unsigned s = 0; s < UCM_NSPACES; s++) {
		tlm::tlm_generic_payload p;
		tlm::tlm_dmi dmi;

		p.set_command(tlm::TLM_READ_COMMAND);
		p.set_address(s == UCM_MMIO ? DRAM_DATA_READS : 0);
		T_CHECK(!r.sock(s)->get_direct_mem_ptr(p, dmi));
		T_CHECK(dmi.get_dmi_ptr() == nullptr);
		T_EQ(dmi.get_start_address(), 0);
		T_EQ(dmi.get_end_address(), ~0ull);
	}
}

TLM_TEST_WITH(pci_absent_ok, [](ucm_sc::uncore_tlm_params &p) { p.pci_absent_ok = true; })
{
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0;

	T_RESP(r.rd(UCM_PCI, ecam(0, 2, 0, 0), 4, &v, d), tlm::TLM_OK_RESPONSE);
	T_EQ(v, 0xFFFFFFFF);
	T_RESP(r.rd(UCM_PCI, ecam(0, 31, 7, 0), 2, &v, d), tlm::TLM_OK_RESPONSE);
	T_EQ(v, 0xFFFF);
	T_RESP(r.wr(UCM_PCI, ecam(0, 2, 0, 0), 4, 0, d), tlm::TLM_OK_RESPONSE);
	unsigned char b[64];
	std::memset(b, 0, sizeof(b));
	T_EQ(r.dbg(UCM_PCI, ecam(0, 2, 0, 0), 64, b), 64);
	T_EQ(b[0] & b[31] & b[63], 0xFF);
	T_EQ(r.dbg(UCM_PCI, ecam(0, 0, 0, 0), 2, b), 2);
	T_EQ(b[0] | b[1] << 8, 0x8086);
	/* still an error: outside ECAM, misaligned */
	T_RESP(r.rd(UCM_PCI, 1ull << 28, 4, &v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
	T_RESP(r.rd(UCM_PCI, ecam(0, 2, 0, 1), 4, &v, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

/* The MMIO socket behind a router that strips the window base. */
TLM_TEST_WITH(mmio_base, [](ucm_sc::uncore_tlm_params &p) { p.mmio_base = BAR; })
{
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0, w = 0;

	r.wrmsr(GLOBAL_CTRL, 0, d);
	T_EQ(r.u.set_workload(
		     [](ucm_model *m, void *, uint64_t, uint64_t *next) {
			     *next = UINT64_MAX;
			     return ucm_set_input(m, ucm_box_find(m, 0, "imc", 0), 3, 1);
		     },
		     nullptr),
	     0);
	d = sc_time(1, SC_US);
	T_RESP(r.rd(UCM_MMIO, 0x5050, 4, &v, d), tlm::TLM_OK_RESPONSE);
	T_EQ(ucm_mmio_peek(r.m(), DRAM_DATA_READS, 4, &w), 0);
	T_EQ(v, w);
	T_EQ(v, 3000);
	unsigned char b[4];
	T_EQ(r.dbg(UCM_MMIO, 0x5050, 4, b), 4);
	T_EQ(b[0] | b[1] << 8, 3000);
}

/* A failing workload source: the access that runs it answers
 * TLM_GENERIC_ERROR_RESPONSE with the source's message. */
TLM_TEST(workload_failure_is_generic_error)
{
	sc_time d = SC_ZERO_TIME;
	std::uint64_t v = 0;

	r.u.set_poll_quantum(SC_ZERO_TIME);
	T_EQ(r.u.set_workload(
		     [](ucm_model *m, void *, uint64_t now, uint64_t *next) {
			     if (now >= 5000000)
				     return ucm_set_error(m, -EIO, "trace source: disk on fire");
			     *next = 5000000;
			     return 0;
		     },
		     nullptr),
	     0);
	d = sc_time(4, SC_US);
	T_RESP(r.rd(UCM_MSR, FIXED_CTR, 8, &v, d), tlm::TLM_OK_RESPONSE);
	d = sc_time(6, SC_US);
	T_RESP(r.rd(UCM_MSR, FIXED_CTR, 8, &v, d), tlm::TLM_GENERIC_ERROR_RESPONSE);
	T_CHECK(r.u.last_error().find("disk on fire") != std::string::npos);
	T_TIME(d, sc_time(6, SC_US) + r.u.latency(UCM_MSR));
	/* a debug read still works: it runs nothing */
	unsigned char b[8];
	T_EQ(r.dbg(UCM_MSR, GLOBAL_CTRL, 8, b), 8);
	r.u.clear_workload();
	d = sc_time(6, SC_US);
	T_RESP(r.rd(UCM_MSR, FIXED_CTR, 8, &v, d), tlm::TLM_OK_RESPONSE);
}

/* Between accesses, a failing source is reported by the poll: one
 * SC_REPORT_ERROR (here made not to throw), and polling stops. */
TLM_TEST(poll_reports_failing_source)
{
	sc_report_handler::set_actions(SC_ERROR, SC_DISPLAY);
	T_EQ(r.u.set_workload(
		     [](ucm_model *m, void *, uint64_t now, uint64_t *next) {
			     if (now >= 5000000)
				     return ucm_set_error(m, -EIO, "generator crashed");
			     *next = 5000000;
			     return 0;
		     },
		     nullptr),
	     0);
	wait(sc_time(20, SC_US));
	T_EQ(sc_report_handler::get_count(SC_ERROR), 1);
	T_CHECK(r.u.last_error().find("generator crashed") != std::string::npos);
	T_TIME(r.u.poll_quantum(), SC_ZERO_TIME);
	T_EQ(ucm_now_ps(r.m()), 5000000);
}

/* ---- PMI ---- */

/* The fixed counter preloaded to overflow 30000 UCLK cycles (10 us) after
 * the global enable, at the time returned (SystemC time; d is then the
 * enabling write's latency). */
static sc_time arm_fixed(rig &r, unsigned pmi_sel, sc_time &d)
{
	sc_time t_en;

	r.wrmsr(GLOBAL_CTRL, 0, d);
	r.wrmsr(FIXED_CTR, (1ull << 48) - 30000, d);
	r.wrmsr(FIXED_CTRL, EN | OVF_EN, d);
	wait(d);
	d = SC_ZERO_TIME;
	t_en = sc_time_stamp();
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN | pmi_sel, d);
	return t_en;
}

/* With no access at all, the poll raises the PMI of the selected core
 * within one quantum of the overflow; no other line moves; clearing
 * GLOBAL_STATUS drops it at the clearing write's time.  Then two other
 * cores selected at once. */
TLM_TEST(pmi_selected_core_only)
{
	sc_time d = SC_ZERO_TIME;
	const sc_time q = r.u.poll_quantum();

	sc_time ovf = arm_fixed(r, 1u << 2, d) + sc_time(10, SC_US);
	wait(sc_time(50, SC_US));
	std::vector<edge> e2 = r.edges_of(2);
	T_EQ(e2.size(), 1);
	T_EQ(r.edges.size(), 1);
	if (e2.size() == 1) {
		T_CHECK(e2[0].level);
		T_CHECK(e2[0].t >= ovf && e2[0].t <= ovf + q);
	}
	struct ucm_pmi_stats ps;
	ucm_pmi_stats(r.m(), 0, 2, &ps);
	T_EQ(ps.delivered, 1);
	T_EQ(ps.last_ps, r.u.to_ps(ovf));
	for (unsigned c : { 0u, 1u, 3u }) {
		ucm_pmi_stats(r.m(), 0, c, &ps);
		T_EQ(ps.delivered, 0);
		T_CHECK(!r.pmi[c].read());
	}
	T_CHECK(r.pmi[2].read());

	/* reading the status or clearing a bit that is not set keeps it high */
	d = sc_time(1, SC_US);
	T_EQ(r.rdmsr(GLOBAL_STATUS, d), 1);
	r.wrmsr(GLOBAL_STATUS, 0x8, d);
	wait(d);
	T_CHECK(r.pmi[2].read());
	/* clearing the status drops it at the write's local time */
	d = sc_time(2, SC_US);
	sc_time t_clear = sc_time_stamp() + d;
	r.wrmsr(GLOBAL_STATUS, 1, d);
	wait(d);
	e2 = r.edges_of(2);
	T_EQ(e2.size(), 2);
	if (e2.size() == 2) {
		T_CHECK(!e2[1].level);
		T_TIME(e2[1].t, t_clear);
	}

	/* cores 0 and 3 together */
	size_t before = r.edges.size();
	arm_fixed(r, 0x9, d);
	wait(sc_time(30, SC_US));
	T_EQ(r.edges.size(), before + 2);
	T_CHECK(r.pmi[0].read() && r.pmi[3].read() && !r.pmi[1].read() && !r.pmi[2].read());
	T_EQ(r.edges_of(1).size(), 0);
	T_EQ(r.edges_of(2).size(), 2);
}

/* With the model run ahead by a decoupled initiator, the PMI is raised at
 * the overflow's exact time, in the initiator's future. */
TLM_TEST_WITH(pmi_exact_time_when_decoupled,
	      [](ucm_sc::uncore_tlm_params &p) { p.poll_quantum = SC_ZERO_TIME; })
{
	sc_time d = SC_ZERO_TIME;

	sc_time t_en = arm_fixed(r, 1u << 1, d), ovf = t_en + sc_time(10, SC_US);
	d = sc_time(25, SC_US); /* local time past the overflow */
	T_EQ(r.rdmsr(GLOBAL_STATUS, d), 1);
	T_TIME(sc_time_stamp(), t_en);
	T_CHECK(!r.pmi[1].read());
	wait(ovf - sc_time(1, SC_NS) - sc_time_stamp());
	T_CHECK(!r.pmi[1].read());
	wait(sc_time(2, SC_NS));
	T_CHECK(r.pmi[1].read());
	std::vector<edge> e = r.edges_of(1);
	T_EQ(e.size(), 1);
	if (e.size() == 1)
		T_TIME(e[0].t, ovf);
	T_EQ(r.edges.size(), 1);

	/* with no poll and no access an overflow is seen late: at the next
	 * access (accuracy bound: the poll quantum, here infinite) */
	wait(sc_time(40, SC_US));
	d = SC_ZERO_TIME;
	r.wrmsr(GLOBAL_STATUS, 1, d);
	wait(d);
	r.edges.clear();
	arm_fixed(r, 1u << 1, d); /* at 50 us: overflow at 60 us */
	wait(sc_time(30, SC_US));
	T_EQ(r.edges.size(), 0);
	sc_time t_sync = sc_time_stamp();
	T_EQ(r.u.sync(), 0); /* what a poll does */
	wait(sc_time(1, SC_NS));
	e = r.edges_of(1);
	T_EQ(e.size(), 1);
	if (e.size() == 1)
		T_TIME(e[0].t, t_sync);
}

/* An overflow found and cleared by the same access is a pulse of one
 * delta cycle, not lost: both edges at that time. */
TLM_TEST_WITH(pmi_pulse_when_cleared_at_once,
	      [](ucm_sc::uncore_tlm_params &p) { p.poll_quantum = SC_ZERO_TIME; })
{
	sc_time d = SC_ZERO_TIME;

	arm_fixed(r, 1u << 3, d);
	wait(sc_time(20, SC_US));
	d = SC_ZERO_TIME;
	sc_time t = sc_time_stamp();
	r.wrmsr(GLOBAL_STATUS, 1, d); /* blind clear: the overflow surfaces now */
	wait(d);
	std::vector<edge> e = r.edges_of(3);
	T_EQ(e.size(), 2);
	if (e.size() == 2) {
		T_CHECK(e[0].level && !e[1].level);
		T_TIME(e[0].t, t);
		T_TIME(e[1].t, t);
	}
	T_CHECK(!r.pmi[3].read());
}

/* ---- workloads ---- */

static std::string write_file(const char *tag, const std::string &text)
{
	std::string path = std::string("t_tlm_") + tag + "_" + std::to_string(getpid()) + ".uct";
	FILE *f = std::fopen(path.c_str(), "w");

	T_CHECK(f != nullptr);
	if (f) {
		std::fputs(text.c_str(), f);
		std::fclose(f);
	}
	return path;
}

/* An event trace replayed from the time it is attached: counts follow its
 * segments cycle for cycle, read at local times inside and after them. */
TLM_TEST(trace_workload)
{
	sc_time d = SC_ZERO_TIME;
	std::uint64_t r0 = 0, v = 0;
	std::string ok = write_file("ok", "uncore-trace 1\n"
					  "platform skl\n"
					  "run 30000: cbo0.CACHE_LOOKUP.READ_M=1, imc.DRAM_DATA_READS=1\n"
					  "run 30000:\n"
					  "run 3000: cbo1.CACHE_LOOKUP.WRITE_I=1, cbo0.CACHE_LOOKUP.READ_E=1\n");
	std::string bad = write_file("bad", "uncore-trace 1\n"
					    "platform skl\n"
					    "clock uclk 2000000000\n"
					    "run 10: cbo0.CACHE_LOOKUP.READ_M=1\n");

	r.wrmsr(CBO0, evtsel(0x34, 0x8F), d);
	r.wrmsr(CBO0 + 0x10, evtsel(0x34, 0x8F), d);
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN, d);
	wait(sc_time(5, SC_US));
	d = SC_ZERO_TIME;
	T_RESP(r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &r0, d), tlm::TLM_OK_RESPONSE);

	/* a header that does not describe this model is refused */
	T_CHECK(r.u.attach_trace(bad.c_str()) == -EINVAL);
	T_CHECK(r.u.last_error().find("uclk") != std::string::npos);
	ucm_config cfg;
	std::string err;
	T_EQ(ucm_sc::uncore_tlm::config_for_trace(bad.c_str(), &cfg, &err), 0);
	T_EQ(cfg.clock_hz[0], 2000000000);
	T_CHECK(r.u.attach_trace("no-such-file.uct") < 0);

	/* attached at 5 us = UCLK cycle 15000 */
	T_EQ(r.u.attach_trace(ok.c_str()), 0);
	ucm_truth_mark(r.m());
	d = sc_time(5, SC_US); /* half of the first segment */
	T_EQ(r.rdmsr(CBO0 + 6, d), 15000);
	/* the third segment runs 25-26 us: read at 25.5 us, then 25.55 us */
	d = sc_time(20500, SC_NS);
	T_EQ(r.rdmsr(CBO0 + 6, d), 31500);
	T_EQ(r.rdmsr(CBO0 + 0x16, d), r.cycles_at(sc_time(25550, SC_NS)) - 75000);
	wait(sc_time(100, SC_US));
	d = SC_ZERO_TIME;
	T_EQ(r.rdmsr(CBO0 + 6, d), 33000);
	T_EQ(r.rdmsr(CBO0 + 0x16, d), 3000);
	T_RESP(r.rd(UCM_MMIO, DRAM_DATA_READS, 4, &v, d), tlm::TLM_OK_RESPONSE);
	T_EQ(v - r0, 30000);
	struct ucm_truth t = r.truth("cbo", 0, 0);
	T_EQ(t.last_read - t.first_read, 33000 - 15000);
	std::remove(ok.c_str());
	std::remove(bad.c_str());
}

/* Any ucm_workload_fn is a source: here one that feeds a CBo at a rate it
 * changes at given times, and the generator after it. */
struct steps {
	int box;
	unsigned sub;
	unsigned calls;
};

TLM_TEST(workload_fn_source)
{
	static steps s;
	sc_time d = SC_ZERO_TIME;

	s.box = ucm_box_find(r.m(), 0, "cbo", 2);
	s.sub = unsigned(ucm_subev_find(ucm_box_def(r.m(), s.box)->type, "CACHE_LOOKUP.WRITE_S"));
	r.wrmsr(CBO0 + 0x20, evtsel(0x34, 0x24), d); /* WRITE, S state */
	r.wrmsr(GLOBAL_CTRL, GLOBAL_EN, d);
	wait(sc_time(1, SC_US));
	T_EQ(r.u.set_workload(
		     [](ucm_model *m, void *ctx, uint64_t now, uint64_t *next) {
			     steps *st = static_cast<steps *>(ctx);

			     st->calls++;
			     /* on for 2 us, off for 2 us, from the attach time */
			     *next = now + 2000000;
			     return ucm_set_input(m, st->box, st->sub, st->calls % 2);
		     },
		     &s),
	     0);
	d = sc_time(9, SC_US); /* local 10 us: on 1-3, 5-7, 9-10 */
	T_EQ(r.rdmsr(CBO0 + 0x26, d), 15000);
	wait(sc_time(20500, SC_NS));
	/* 1, 3, ..., 19 us: the poll keeps the source going (the model asks a
	 * source for the change at 21 us once time moves past 21 us) */
	T_EQ(s.calls, 10);
	r.u.clear_workload(); /* runs the source up to now: its call at 21 us */
	T_EQ(s.calls, 11);
	std::uint64_t fed = ucm_fed(r.m(), s.box, s.sub);
	wait(sc_time(20, SC_US));
	T_EQ(ucm_fed(r.m(), s.box, s.sub), fed); /* every input is 0 */
	T_EQ(r.u.attach_generator("stream", 1), 0);
	wait(sc_time(20, SC_US));
	T_CHECK(ucm_fed(r.m(), s.box, s.sub) == fed);
	T_EQ(s.calls, 11);
}

/* ---- main ---- */

int sc_main(int argc, char *argv[])
{
	if (argc != 2 || !tests().count(argv[1])) {
		std::fprintf(stderr, "usage: %s TEST\ntests:\n", argv[0]);
		for (auto &t : tests())
			std::fprintf(stderr, "  %s\n", t.first.c_str());
		return 2;
	}
	const test_entry &t = tests()[argv[1]];
	ucm_sc::uncore_tlm_params p;

	if (t.setup)
		t.setup(p);
	rig r("rig", t.platform, p, t.fn);
	sc_start();
	if (!r.finished)
		fail_at(__FILE__, __LINE__, "the test did not run to its end");
	std::printf("%s: %s\n", argv[1], g_failed ? "FAILED" : "ok");
	return g_failed;
}
