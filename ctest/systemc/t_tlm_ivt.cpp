/*
 * t_tlm_ivt.cpp - the SystemC TLM-2.0 wrapper on the Xeon E5-2600 v2
 * ("ivt", model/ivt/ucm_plat_ivt.c): an uncore overflow raises the PMI
 * line of each core pmi_core_sel selects, at the overflow's time, and
 * freezes the socket; clearing the box and global status bits drops the
 * line at the clearing write's time, and unfrz_all resumes counting
 * (docs/platform-ivt.md; the excerpt's 2.7.2.1).
 * The harness is ctest/systemc/tlm_rig.h; sc_main is in t_tlm.cpp.
 */
#include "tlm_rig.h"

using namespace sc_core;

namespace {

const char *const IVT = "ivt";
/* facts §2, §12: global control/status, the UBox fixed counter */
const std::uint64_t G_CTL = 0xC00, G_STATUS = 0xC01, U_FIXED_CTL = 0xC08, U_FIXED_CTR = 0xC09,
		    U_STATUS = 0xC15;
const std::uint64_t EN = 1ull << 22, OV_EN = 1ull << 20, UNFRZ_ALL = 1ull << 29;

} // namespace

/* UCLK fixed counter preloaded 27,000 cycles (10 us at 2.7 GHz) short of
 * its 48-bit wrap, PMIs to core 5: line 5 rises within a poll quantum of
 * the overflow, no other line moves, the counter stands at 0 (frozen);
 * the status bits cleared, the line falls at that write; unfrz_all, and
 * the counter runs again. */
TLM_TEST_ON(ivt_overflow_pmi_freeze_rearm, IVT, nullptr)
{
	sc_time d = SC_ZERO_TIME;
	const sc_time q = r.u.poll_quantum();

	r.wrmsr(G_CTL, 1u << 5, d);
	r.wrmsr(U_FIXED_CTR, (1ull << 48) - 27000, d);
	r.wrmsr(U_FIXED_CTL, EN | OV_EN, d);
	wait(d);
	d = SC_ZERO_TIME;
	sc_time ovf = sc_time_stamp() + sc_time(10, SC_US);
	wait(sc_time(50, SC_US));
	std::vector<edge> e5 = r.edges_of(5);
	T_EQ(e5.size(), 1);
	T_EQ(r.edges.size(), 1);
	if (e5.size() == 1) {
		T_CHECK(e5[0].level);
		T_CHECK(e5[0].t >= ovf - sc_time(1, SC_NS) && e5[0].t <= ovf + q);
	}
	T_EQ(ucm_global_frozen(r.m(), 0), 1);
	T_EQ(r.rdmsr(U_FIXED_CTR, d), 0);
	T_EQ(r.rdmsr(U_STATUS, d), 4);
	T_EQ(r.rdmsr(G_STATUS, d), 1);
	/* the box bit alone: the global bit still set, the line stays high */
	r.wrmsr(U_STATUS, 4, d);
	wait(d);
	d = SC_ZERO_TIME;
	T_CHECK(r.pmi[5].read());
	d = sc_time(2, SC_US);
	sc_time t_clear = sc_time_stamp() + d;
	r.wrmsr(G_STATUS, 1, d);
	wait(d);
	d = SC_ZERO_TIME;
	e5 = r.edges_of(5);
	T_EQ(e5.size(), 2);
	if (e5.size() == 2) {
		T_CHECK(!e5[1].level);
		T_TIME(e5[1].t, t_clear);
	}
	/* still frozen until unfrz_all */
	wait(sc_time(10, SC_US));
	T_EQ(r.rdmsr(U_FIXED_CTR, d), 0);
	r.wrmsr(G_CTL, UNFRZ_ALL | (1u << 5), d);
	wait(d);
	d = SC_ZERO_TIME;
	wait(sc_time(10, SC_US));
	T_CHECK(r.rdmsr(U_FIXED_CTR, d) >= 26999);
	T_EQ(ucm_global_frozen(r.m(), 0), 0);
}
