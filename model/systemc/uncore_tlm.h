/*
 * uncore_tlm.h - a SystemC TLM-2.0 target wrapping the uncore PMU model.
 *
 * One loosely-timed target socket per address space of the model (MSR, PCI
 * configuration, MMIO), a PMI output per core and a workload input.  The C
 * model (model/ucm.h) does all the work; this module maps transactions onto
 * its accessors and SystemC time onto its clock.  docs/systemc.md describes
 * how to instantiate it, the address maps, timing, errors and signals.
 *
 * Summary:
 *  - msr_socket:  address (cpu << 32) | msr; 8-byte transactions only.
 *  - pci_socket:  ECAM offset (bus << 20 | dev << 15 | fn << 12 | reg), 1/2/4/8
 *                 bytes naturally aligned, segment 0 (address < 256 MiB).
 *  - mmio_socket: physical address (plus params.mmio_base), 4/8 bytes aligned.
 *  - b_transport: the model is advanced to sc_time_stamp() + delay (never
 *    backwards), the access is made, the space's latency is added to delay.
 *    No wait().  transport_dbg reads without any side effect; DMI is refused.
 *  - pmi[socket * cpus_per_socket + core]: high from the PMI delivered to
 *    that core until software leaves the socket's GLOBAL_STATUS all clear.
 *    A platform without PMI (Xeon E5-2600, has_pmi() false) still has one
 *    line per core; they never rise.
 *
 * Platforms: any the model has ("skl", "snbep"); the MSR address selects the
 * socket through the cpu, the PCI address through the bus (the platform's
 * uncore bus of each socket, uncore_bus()).
 */
#ifndef UNCORE_TLM_H
#define UNCORE_TLM_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

/* The C API names functions after the structs they fill (ucm_truth,
 * ucm_pmi_stats, ucm_reginfo), which C++'s -Wshadow reports; in C++ such a
 * struct is named with its tag: struct ucm_truth t. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
extern "C" {
#include "ucm.h"
}
#pragma GCC diagnostic pop

struct uct_wl;
struct uct_reader;
struct uct_replay;

namespace ucm_sc {

/* Width of the target sockets, in bits: an initiator socket must have the
 * same BUSWIDTH to bind.  64 carries an MSR in one beat. */
#ifndef UCM_SC_BUSWIDTH
#define UCM_SC_BUSWIDTH 64
#endif

struct uncore_tlm_params {
	/* Added to the delay argument of every b_transport of the space. */
	sc_core::sc_time msr_latency = sc_core::sc_time(50, sc_core::SC_NS);
	sc_core::sc_time pci_latency = sc_core::sc_time(200, sc_core::SC_NS);
	sc_core::sc_time mmio_latency = sc_core::sc_time(100, sc_core::SC_NS);
	/* Without accesses, the model is brought up to sc_time_stamp() this
	 * often, so overflows raise their PMI at most this late.  Zero: only
	 * accesses (and sync()) advance the model. */
	sc_core::sc_time poll_quantum = sc_core::sc_time(1, sc_core::SC_US);
	/* Added to an MMIO socket address to form the physical address (for a
	 * router that strips the base of the window it forwards). */
	std::uint64_t mmio_base = 0;
	/* PCI reads of an absent device: false, TLM_ADDRESS_ERROR_RESPONSE with
	 * all ones in the data; true, TLM_OK_RESPONSE with all ones (a master
	 * abort, as an ECAM enumeration expects) and writes dropped. */
	bool pci_absent_ok = false;
};

class uncore_tlm : public sc_core::sc_module {
public:
	typedef tlm_utils::simple_target_socket<uncore_tlm, UCM_SC_BUSWIDTH> socket_type;

	socket_type msr_socket;
	socket_type pci_socket;
	socket_type mmio_socket;
	/* One per core: index socket * cpus_per_socket() + core.  Every port
	 * must be bound (an sc_vector<sc_signal<bool>> binds them all). */
	sc_core::sc_vector<sc_core::sc_out<bool>> pmi;

	SC_HAS_PROCESS(uncore_tlm);
	/* cfg.access_ps is ignored (the wrapper sets it to 0: access time is
	 * the latency added to the transaction's delay instead). */
	uncore_tlm(sc_core::sc_module_name name, const ucm_config &cfg,
		   const uncore_tlm_params &params = uncore_tlm_params());
	/* The named platform with its defaults ("skl"). */
	explicit uncore_tlm(sc_core::sc_module_name name, const char *platform = "skl",
			    const uncore_tlm_params &params = uncore_tlm_params());
	~uncore_tlm() override;
	const char *kind() const override { return "ucm_sc::uncore_tlm"; }

	/* ---- the model ---- */
	/* For ground truth (ucm_truth, ucm_pmi_stats, ucm_fed) and inputs; an
	 * access made directly on it bypasses the sockets' timing. */
	ucm_model *model() { return m_model; }
	unsigned nsockets() const;
	unsigned cpus_per_socket() const;
	unsigned pmi_line(unsigned socket, unsigned core) const;
	/* Whether any PMI can ever be raised: the platform has a global control
	 * with PMI_SEL fields (Skylake client).  Xeon E5-2600 has no global
	 * control or status (guide 2.1): false, and no line ever rises. */
	bool has_pmi() const { return m_has_pmi; }

	/* ---- addresses (docs/systemc.md, "Sockets and address maps") ---- */
	/* msr_socket address of an MSR as seen by a logical cpu */
	static std::uint64_t msr_address(unsigned cpu, std::uint32_t msr)
	{
		return std::uint64_t(cpu) << 32 | msr;
	}
	/* pci_socket address (ECAM offset, segment 0).  Not masked: a bus past
	 * 255 lands beyond 256 MiB, an address error, rather than wrapping. */
	static std::uint64_t pci_address(unsigned bus, unsigned dev, unsigned fn, unsigned off)
	{
		return std::uint64_t(bus) << 20 | std::uint64_t(dev) << 15 |
		       std::uint64_t(fn) << 12 | off;
	}
	/* The first logical cpu of a socket: every cpu of a socket reaches the
	 * socket's uncore MSRs. */
	unsigned socket_cpu(unsigned socket) const { return socket * cpus_per_socket(); }
	/* The bus of a socket's uncore PCI devices (snbep: 0x3F, 0x7F; skl: 0),
	 * -1 past the last socket. */
	int uncore_bus(unsigned socket) const;
	/* Bring the model up to sc_time_stamp() (what the poll does).  Returns
	 * 0 or the negative errno of a failing workload source. */
	int sync();
	/* Message of the last failed transaction, sync or attach. */
	const std::string &last_error() const { return m_err; }

	/* ---- timing ---- */
	void set_latency(unsigned space, const sc_core::sc_time &t);
	sc_core::sc_time latency(unsigned space) const;
	void set_poll_quantum(const sc_core::sc_time &q);
	sc_core::sc_time poll_quantum() const { return m_quantum; }
	std::uint64_t to_ps(const sc_core::sc_time &t) const;
	sc_core::sc_time from_ps(std::uint64_t ps) const;

	/* ---- workload input ----
	 * The model pulls its source as time advances, from the current
	 * simulated time on.  Attaching runs the previous source up to now,
	 * detaches it and starts the new one with every input at 0. */
	/* Any source: a generator, a trace reader, a co-simulation bridge. */
	int set_workload(ucm_workload_fn fn, void *ctx);
	/* A built-in phase-table workload (trace/uct.h: "mixed", "stream"...). */
	int attach_generator(const char *name, std::uint64_t seed);
	/* An event trace file (text or binary, docs/formats.md), replayed from
	 * now.  Its header must match the model (platform, sockets, clocks,
	 * box counts); config_for_trace() builds a matching configuration. */
	int attach_trace(const char *path);
	static int config_for_trace(const char *path, ucm_config *cfg, std::string *err);
	/* Detach the current source: every input goes to 0. */
	void clear_workload();

	/* ---- the sockets' callbacks ---- */
	void b_transport_msr(tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
	void b_transport_pci(tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
	void b_transport_mmio(tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
	unsigned transport_dbg_msr(tlm::tlm_generic_payload &p);
	unsigned transport_dbg_pci(tlm::tlm_generic_payload &p);
	unsigned transport_dbg_mmio(tlm::tlm_generic_payload &p);
	bool get_direct_mem_ptr(tlm::tlm_generic_payload &p, tlm::tlm_dmi &dmi);

	/* Called by the model for each PMI delivered (not for users). */
	void pmi_delivered(unsigned socket, unsigned core, std::uint64_t t_ps);

private:
	/* A decoded access: the part of the transaction the model sees. */
	struct access {
		std::uint64_t addr;   /* MSR: (cpu << 32) | msr; PCI: ECAM; MMIO: pa */
		unsigned width;       /* bytes the model accesses */
		unsigned first;       /* their index in the data array */
	};
	struct line_change {
		sc_core::sc_time when;
		unsigned line;
		bool level;
	};

	void init(const ucm_config &cfg, const uncore_tlm_params &params);
	void b_transport(unsigned space, tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
	unsigned transport_dbg(unsigned space, tlm::tlm_generic_payload &p);
	tlm::tlm_response_status decode(unsigned space, const tlm::tlm_generic_payload &p,
					access *a) const;
	int model_read(unsigned space, const access &a, std::uint64_t *v, bool peek);
	int model_write(unsigned space, const access &a, std::uint64_t v);
	tlm::tlm_response_status map_error(unsigned space, int rc);
	void check_status_clear(std::uint64_t t_ps);
	void schedule(std::uint64_t t_ps, unsigned line, bool level);
	void drive_pmi();
	void poll();
	void detach_sources();

	ucm_model *m_model = nullptr;
	uncore_tlm_params m_params;
	sc_core::sc_time m_latency[UCM_NSPACES];
	sc_core::sc_time m_quantum;
	std::uint64_t m_units_per_ps = 1, m_ps_per_unit = 0;
	std::string m_err;
	/* GLOBAL_STATUS of each socket (space, key), if the platform has one */
	struct status_reg {
		bool present;
		unsigned space;
		std::uint64_t key;
	};
	std::vector<status_reg> m_status;
	bool m_has_pmi = false;
	std::vector<bool> m_level;      /* model-time view of each PMI line */
	std::vector<bool> m_touched;    /* lines written in this delta (drive_pmi) */
	std::deque<line_change> m_changes;
	sc_core::sc_event m_change_ev, m_quantum_ev;
	uct_wl *m_gen = nullptr;
	uct_reader *m_reader = nullptr;
	uct_replay *m_replay = nullptr;
};

} // namespace ucm_sc

#endif
