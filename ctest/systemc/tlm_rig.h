/*
 * tlm_rig.h - the harness of the SystemC wrapper's tests (t_tlm.cpp for
 * Skylake client, t_tlm_snbep.cpp for Xeon E5-2600): check macros, the test
 * registry and the rig, a module with an initiator socket on each of the
 * wrapper's sockets and a signal per PMI line whose edges it records.
 *
 * A SystemC process can elaborate and simulate once, so t_tlm runs the one
 * test named on its command line (sc_main in t_tlm.cpp); CTest registers
 * each TLM_TEST* of both files as systemc.NAME (ctest/systemc/CMakeLists.txt
 * finds them by the macro at the start of a line).  Everything here is
 * inline: both files include it into one program.
 */
#ifndef TLM_RIG_H
#define TLM_RIG_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "uncore_tlm.h"

/* ---- checks ---- */

inline int g_failed;

inline void fail_at(const char *file, int line, const std::string &msg)
{
	std::fprintf(stderr, "%s:%d: %s (at %s)\n", file, line, msg.c_str(),
		     sc_core::sc_time_stamp().to_string().c_str());
	g_failed = 1;
}

#define T_CHECK(c)                                                  \
	do {                                                        \
		if (!(c))                                           \
			fail_at(__FILE__, __LINE__, "failed: " #c); \
	} while (0)

#define T_EQ(a, b)                                                                         \
	do {                                                                               \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		if (a_ != b_)                                                              \
			fail_at(__FILE__, __LINE__,                                        \
				std::string(#a " == " #b ": ") + std::to_string(a_) +      \
					" != " + std::to_string(b_));                      \
	} while (0)

#define T_TIME(a, b)                                                                       \
	do {                                                                               \
		sc_core::sc_time a_ = (a), b_ = (b);                                       \
		if (a_ != b_)                                                              \
			fail_at(__FILE__, __LINE__, std::string(#a " == " #b ": ") +        \
							    a_.to_string() + " != " + b_.to_string()); \
	} while (0)

#define T_RESP(a, b)                                                                       \
	do {                                                                               \
		tlm::tlm_response_status a_ = (a), b_ = (b);                               \
		if (a_ != b_)                                                              \
			fail_at(__FILE__, __LINE__, std::string(#a ": ") + resp_name(a_) +  \
							    ", expected " + resp_name(b_));  \
	} while (0)

inline std::string resp_name(tlm::tlm_response_status s)
{
	tlm::tlm_generic_payload p;

	p.set_response_status(s);
	return p.get_response_string();
}

/* ---- the registry ---- */

struct rig;
typedef void (*test_fn)(rig &);
typedef void (*setup_fn)(ucm_sc::uncore_tlm_params &);

struct test_entry {
	test_fn fn;
	setup_fn setup;
	const char *platform;
};

inline std::map<std::string, test_entry> &tests()
{
	static std::map<std::string, test_entry> t;
	return t;
}

struct test_reg {
	test_reg(const char *name, test_fn fn, setup_fn setup, const char *platform)
	{
		tests()[name] = { fn, setup, platform };
	}
};

/* TLM_TEST(name) { body using rig &r } runs body in a SystemC thread on the
 * Skylake-client module; TLM_TEST_WITH(name, setup) first passes the module
 * parameters to setup; TLM_TEST_ON(name, platform, setup) picks the
 * platform (setup may be nullptr). */
#define TLM_TEST_ON(name, platform, setup)                            \
	static void t_##name(rig &r);                                 \
	static test_reg reg_##name(#name, t_##name, setup, platform); \
	static void t_##name(rig &r)
#define TLM_TEST_WITH(name, setup) TLM_TEST_ON(name, "skl", setup)
#define TLM_TEST(name) TLM_TEST_WITH(name, nullptr)

/* ---- addresses ---- */

inline std::uint64_t ecam(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	return ucm_sc::uncore_tlm::pci_address(bus, dev, fn, off);
}

/* ---- the rig: the module, an initiator on its three sockets, PMI lines ---- */

typedef tlm_utils::simple_initiator_socket<rig, UCM_SC_BUSWIDTH> isocket;

struct edge {
	unsigned line;
	sc_core::sc_time t;
	bool level;
};

struct rig : sc_core::sc_module {
	ucm_sc::uncore_tlm u;
	isocket msr, pci, mmio;
	sc_core::sc_vector<sc_core::sc_signal<bool>> pmi;
	std::vector<edge> edges;
	test_fn body;
	bool finished = false;

	SC_HAS_PROCESS(rig);
	rig(sc_core::sc_module_name n, const char *platform, const ucm_sc::uncore_tlm_params &p,
	    test_fn fn)
		: sc_module(n), u("uncore", platform, p), msr("msr"), pci("pci"), mmio("mmio"),
		  pmi("pmi", u.nsockets() * u.cpus_per_socket()), body(fn)
	{
		msr.bind(u.msr_socket);
		pci.bind(u.pci_socket);
		mmio.bind(u.mmio_socket);
		u.pmi.bind(pmi);
		SC_THREAD(thread);
		SC_METHOD(watch);
		for (auto &s : pmi)
			sensitive << s.value_changed_event();
		dont_initialize();
	}

	void thread()
	{
		body(*this);
		finished = true;
		sc_core::sc_stop();
	}

	void watch()
	{
		for (unsigned i = 0; i < pmi.size(); i++)
			if (pmi[i].event())
				edges.push_back({ i, sc_core::sc_time_stamp(), pmi[i].read() });
	}

	ucm_model *m() { return u.model(); }

	isocket &sock(unsigned space) { return space == UCM_MSR ? msr : space == UCM_PCI ? pci : mmio; }

	/* A transaction with every attribute under the test's control. */
	tlm::tlm_response_status xfer(unsigned space, tlm::tlm_command cmd, std::uint64_t addr,
				      unsigned len, unsigned char *data, sc_core::sc_time &d,
				      const std::vector<unsigned char> &be = {}, int sw = -1)
	{
		tlm::tlm_generic_payload p;
		std::vector<unsigned char> bev(be);

		p.set_command(cmd);
		p.set_address(addr);
		p.set_data_ptr(data);
		p.set_data_length(len);
		p.set_streaming_width(sw < 0 ? len : unsigned(sw));
		p.set_byte_enable_ptr(bev.empty() ? nullptr : bev.data());
		p.set_byte_enable_length(unsigned(bev.size()));
		p.set_dmi_allowed(true);
		p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
		sock(space)->b_transport(p, d);
		T_CHECK(!p.is_dmi_allowed());
		return p.get_response_status();
	}

	tlm::tlm_response_status rd(unsigned space, std::uint64_t addr, unsigned len,
				    std::uint64_t *v, sc_core::sc_time &d,
				    const std::vector<unsigned char> &be = {})
	{
		unsigned char b[16];
		tlm::tlm_response_status st;

		std::memset(b, 0xA5, sizeof(b));
		st = xfer(space, tlm::TLM_READ_COMMAND, addr, len, b, d, be);
		*v = 0;
		for (unsigned i = 0; i < len && i < 8; i++)
			*v |= std::uint64_t(b[i]) << (8 * i);
		return st;
	}

	tlm::tlm_response_status wr(unsigned space, std::uint64_t addr, unsigned len,
				    std::uint64_t v, sc_core::sc_time &d,
				    const std::vector<unsigned char> &be = {})
	{
		unsigned char b[16] = { 0 };

		for (unsigned i = 0; i < 8; i++)
			b[i] = (unsigned char)(v >> (8 * i));
		return xfer(space, tlm::TLM_WRITE_COMMAND, addr, len, b, d, be);
	}

	/* MSR accesses; the address may carry a cpu (msr_address) */
	std::uint64_t rdmsr(std::uint64_t a, sc_core::sc_time &d)
	{
		std::uint64_t v = 0;

		T_RESP(rd(UCM_MSR, a, 8, &v, d), tlm::TLM_OK_RESPONSE);
		return v;
	}

	void wrmsr(std::uint64_t a, std::uint64_t v, sc_core::sc_time &d)
	{
		T_RESP(wr(UCM_MSR, a, 8, v, d), tlm::TLM_OK_RESPONSE);
	}

	/* PCI configuration accesses that must succeed */
	std::uint64_t rdpci(std::uint64_t a, unsigned len, sc_core::sc_time &d)
	{
		std::uint64_t v = 0;

		T_RESP(rd(UCM_PCI, a, len, &v, d), tlm::TLM_OK_RESPONSE);
		return v;
	}

	void wrpci(std::uint64_t a, unsigned len, std::uint64_t v, sc_core::sc_time &d)
	{
		T_RESP(wr(UCM_PCI, a, len, v, d), tlm::TLM_OK_RESPONSE);
	}

	/* transport_dbg; returns the byte count */
	unsigned dbg(unsigned space, std::uint64_t addr, unsigned len, unsigned char *data,
		     tlm::tlm_command cmd = tlm::TLM_READ_COMMAND)
	{
		tlm::tlm_generic_payload p;

		p.set_command(cmd);
		p.set_address(addr);
		p.set_data_ptr(data);
		p.set_data_length(len);
		p.set_streaming_width(len);
		return sock(space)->transport_dbg(p);
	}

	std::uint64_t peek_msr(std::uint32_t a, unsigned cpu = 0)
	{
		std::uint64_t v = 0;

		T_EQ(ucm_msr_peek(m(), cpu, a, &v), 0);
		return v;
	}

	/* Cycles of a clock domain completed at a time, computed here from its
	 * frequency (the model's rule: whole cycles since time 0). */
	std::uint64_t cycles_at(const sc_core::sc_time &t, unsigned clock = 0)
	{
		return std::uint64_t((unsigned __int128)u.to_ps(t) * ucm_clock_hz(m(), clock) /
				     1000000000000ull);
	}

	struct ucm_truth truth(const char *box, unsigned inst, unsigned ctr, unsigned socket = 0)
	{
		struct ucm_truth t{};
		int b = ucm_box_find(m(), socket, box, inst);

		T_CHECK(b >= 0);
		T_EQ(ucm_truth(m(), b, ctr, &t), 0);
		return t;
	}

	std::vector<edge> edges_of(unsigned line)
	{
		std::vector<edge> v;

		for (auto &e : edges)
			if (e.line == line)
				v.push_back(e);
		return v;
	}
};

#endif
