/*
 * uncore_tlm.cpp - the TLM-2.0 wrapper of the uncore PMU model: decode of
 * the three address spaces, loosely-timed b_transport, side-effect-free
 * transport_dbg, DMI refusal, PMI lines and workload sources.  The rules
 * implemented here are documented in docs/systemc.md.
 */
#include "uncore_tlm.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

extern "C" {
#include "uct.h"
#include "uct_trace.h"
}

using namespace sc_core;
using tlm::tlm_generic_payload;
using tlm::tlm_response_status;

/* The model calls back through a C function pointer. */
extern "C" {
static void ucm_sc_pmi_hook(void *ctx, unsigned socket, unsigned core, uint64_t t_ps)
{
	try {
		static_cast<ucm_sc::uncore_tlm *>(ctx)->pmi_delivered(socket, core, t_ps);
	} catch (...) {
		/* nothing may unwind through the C model */
		std::terminate();
	}
}
}

namespace ucm_sc {

namespace {

/* The data array holds the bytes of consecutive addresses: byte i is bits
 * 8i+7:8i of the little-endian value (x86 target, docs/systemc.md). */
std::uint64_t get_le(const unsigned char *d, unsigned n)
{
	std::uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(d[i]) << (8 * i);
	return v;
}

void put_le(unsigned char *d, unsigned n, std::uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		d[i] = (unsigned char)(v >> (8 * i));
}

const std::uint64_t ECAM_SIZE = 1ull << 28; /* 256 buses: segment 0 */

void pci_split(std::uint64_t a, unsigned *bus, unsigned *dev, unsigned *fn, unsigned *off)
{
	*bus = unsigned(a >> 20) & 0xFF;
	*dev = unsigned(a >> 15) & 0x1F;
	*fn = unsigned(a >> 12) & 0x7;
	*off = unsigned(a) & 0xFFF;
}

bool width_ok(unsigned space, unsigned w)
{
	switch (space) {
	case UCM_MSR:
		return w == 8;
	case UCM_PCI:
		return w == 1 || w == 2 || w == 4 || w == 8;
	default:
		return w == 4 || w == 8;
	}
}

[[noreturn]] void fail(const char *who, const std::string &msg)
{
	SC_REPORT_ERROR(who, msg.c_str());
	/* reached only when the ERROR action was changed not to throw */
	throw std::runtime_error(msg);
}

} // namespace

uncore_tlm::uncore_tlm(sc_module_name name, const ucm_config &cfg,
		       const uncore_tlm_params &params)
	: sc_module(name), msr_socket("msr_socket"), pci_socket("pci_socket"),
	  mmio_socket("mmio_socket"), pmi("pmi")
{
	init(cfg, params);
}

uncore_tlm::uncore_tlm(sc_module_name name, const char *platform,
		       const uncore_tlm_params &params)
	: sc_module(name), msr_socket("msr_socket"), pci_socket("pci_socket"),
	  mmio_socket("mmio_socket"), pmi("pmi")
{
	const ucm_platform *p = ucm_platform_find(platform ? platform : "skl");
	ucm_config cfg;

	if (!p) {
		/* say which names would do */
		size_t n = 0;
		const ucm_platform *const *all = ucm_platforms(&n);
		std::string known;

		for (size_t i = 0; i < n; i++)
			known += std::string(i ? ", " : "") + all[i]->name;
		fail(kind(), std::string("unknown platform '") + (platform ? platform : "") +
				     "' (the model has: " + known + ")");
	}
	ucm_config_init(&cfg, p);
	init(cfg, params);
}

void uncore_tlm::init(const ucm_config &cfg0, const uncore_tlm_params &params)
{
	ucm_config cfg = cfg0;
	double res = sc_get_time_resolution().to_seconds();
	unsigned nlines;
	int rc;

	/* picoseconds <-> resolution units; SystemC resolutions are powers of
	 * ten, so one of the two factors is an exact integer */
	if (res <= 1e-12) {
		m_units_per_ps = (std::uint64_t)std::llround(1e-12 / res);
		m_ps_per_unit = 0;
	} else {
		m_units_per_ps = 0;
		m_ps_per_unit = (std::uint64_t)std::llround(res / 1e-12);
	}

	/* access time is the transaction's latency, not the model's cost */
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	if ((rc = ucm_create(&cfg, &m_model)))
		fail(kind(), std::string("ucm_create: ") + std::strerror(-rc));
	ucm_set_pmi_hook(m_model, ucm_sc_pmi_hook, this);

	m_params = params;
	m_latency[UCM_MSR] = params.msr_latency;
	m_latency[UCM_PCI] = params.pci_latency;
	m_latency[UCM_MMIO] = params.mmio_latency;
	m_quantum = params.poll_quantum;

	/* The model delivers a PMI only to the cores a global control's
	 * PMI_SEL fields select; a platform without such a register (Xeon
	 * E5-2600) never raises one, and has no GLOBAL_STATUS either. */
	m_status.assign(nsockets(), status_reg{ false, 0, 0 });
	m_has_pmi = false;
	for (size_t i = 0; i < ucm_nregs(m_model); i++) {
		struct ucm_reginfo ri;

		if (ucm_reginfo(m_model, i, &ri))
			continue;
		if (ri.kind == UCM_K_GLOBAL_STATUS && ri.socket < m_status.size())
			m_status[ri.socket] = status_reg{ true, ri.space, ri.addr };
		if (ri.kind == UCM_K_GLOBAL_CTL && ucm_layout_field(ri.layout, UCM_R_PMI_SEL))
			m_has_pmi = true;
	}

	nlines = nsockets() * cpus_per_socket();
	m_level.assign(nlines, false);
	m_touched.assign(nlines, false);
	pmi.init(nlines);
	for (unsigned i = 0; i < nlines; i++)
		pmi[i].initialize(false);

	msr_socket.register_b_transport(this, &uncore_tlm::b_transport_msr);
	pci_socket.register_b_transport(this, &uncore_tlm::b_transport_pci);
	mmio_socket.register_b_transport(this, &uncore_tlm::b_transport_mmio);
	msr_socket.register_transport_dbg(this, &uncore_tlm::transport_dbg_msr);
	pci_socket.register_transport_dbg(this, &uncore_tlm::transport_dbg_pci);
	mmio_socket.register_transport_dbg(this, &uncore_tlm::transport_dbg_mmio);
	msr_socket.register_get_direct_mem_ptr(this, &uncore_tlm::get_direct_mem_ptr);
	pci_socket.register_get_direct_mem_ptr(this, &uncore_tlm::get_direct_mem_ptr);
	mmio_socket.register_get_direct_mem_ptr(this, &uncore_tlm::get_direct_mem_ptr);

	SC_METHOD(poll);
	sensitive << m_quantum_ev;
	SC_METHOD(drive_pmi);
	sensitive << m_change_ev;
	dont_initialize();
}

uncore_tlm::~uncore_tlm()
{
	if (!m_model)
		return;
	detach_sources();
	ucm_set_pmi_hook(m_model, nullptr, nullptr);
	ucm_destroy(m_model);
}

unsigned uncore_tlm::nsockets() const
{
	return ucm_nsockets(m_model);
}

unsigned uncore_tlm::cpus_per_socket() const
{
	return ucm_cpus_per_socket(m_model);
}

unsigned uncore_tlm::pmi_line(unsigned socket, unsigned core) const
{
	return socket * cpus_per_socket() + core;
}

int uncore_tlm::uncore_bus(unsigned socket) const
{
	if (socket >= nsockets() || !ucm_platform_of(m_model)->pci_bus)
		return -1;
	return (int)ucm_pci_bus(m_model, socket);
}

/* ---- time ---- */

std::uint64_t uncore_tlm::to_ps(const sc_time &t) const
{
	return m_units_per_ps ? t.value() / m_units_per_ps : t.value() * m_ps_per_unit;
}

sc_time uncore_tlm::from_ps(std::uint64_t ps) const
{
	if (m_units_per_ps)
		return sc_time::from_value(ps * m_units_per_ps);
	/* a coarser resolution: round up, never before the model's event */
	return sc_time::from_value((ps + m_ps_per_unit - 1) / m_ps_per_unit);
}

int uncore_tlm::sync()
{
	int rc = ucm_advance(m_model, to_ps(sc_time_stamp()));

	if (rc)
		m_err = ucm_error(m_model);
	return rc;
}

void uncore_tlm::set_latency(unsigned space, const sc_time &t)
{
	if (space < UCM_NSPACES)
		m_latency[space] = t;
}

sc_time uncore_tlm::latency(unsigned space) const
{
	return space < UCM_NSPACES ? m_latency[space] : SC_ZERO_TIME;
}

void uncore_tlm::set_poll_quantum(const sc_time &q)
{
	m_quantum = q;
	if (sc_is_running())
		m_quantum_ev.notify(SC_ZERO_TIME);
}

/* Between accesses, bring the model up to now so that overflows raise
 * their PMI within one quantum. */
void uncore_tlm::poll()
{
	if (sync()) {
		/* a failing source: report once (an error throws by default) and
		 * stop polling; accesses answer TLM_GENERIC_ERROR_RESPONSE */
		m_quantum = SC_ZERO_TIME;
		next_trigger(m_quantum_ev);
		SC_REPORT_ERROR(kind(), (std::string(name()) + ": workload source failed: " + m_err).c_str());
		return;
	}
	if (m_quantum != SC_ZERO_TIME)
		next_trigger(m_quantum, m_quantum_ev);
	else
		next_trigger(m_quantum_ev);
}

/* ---- PMI lines ---- */

void uncore_tlm::pmi_delivered(unsigned socket, unsigned core, std::uint64_t t_ps)
{
	unsigned line = pmi_line(socket, core);

	if (socket >= nsockets() || core >= cpus_per_socket())
		return;
	m_level[line] = true;
	schedule(t_ps, line, true);
}

/* A line changes at the model time of its cause, or now if that is past
 * (the cause was found late, by a poll or a lagging initiator). */
void uncore_tlm::schedule(std::uint64_t t_ps, unsigned line, bool level)
{
	sc_time now = sc_time_stamp();
	sc_time when = std::max(from_ps(t_ps), now);
	line_change c{ when, line, level };
	auto at = std::upper_bound(m_changes.begin(), m_changes.end(), c,
				   [](const line_change &a, const line_change &b) {
					   return a.when < b.when;
				   });

	m_changes.insert(at, c);
	m_change_ev.notify(when - now);
}

/* Apply the changes due now.  A line changes at most once per delta cycle,
 * so a PMI cleared at the time it was raised is still seen as a pulse. */
void uncore_tlm::drive_pmi()
{
	sc_time now = sc_time_stamp();
	bool again = false;

	while (!m_changes.empty() && m_changes.front().when <= now) {
		const line_change &c = m_changes.front();

		if (m_touched[c.line]) {
			again = true;
			break;
		}
		m_touched[c.line] = true;
		pmi[c.line].write(c.level);
		m_changes.pop_front();
	}
	std::fill(m_touched.begin(), m_touched.end(), false);
	if (again)
		m_change_ev.notify(SC_ZERO_TIME);
	else if (!m_changes.empty())
		m_change_ev.notify(m_changes.front().when - now);
}

/* After a write: a socket whose GLOBAL_STATUS is all clear drops the lines
 * of its cores (software has handled the interrupt).  A socket without a
 * GLOBAL_STATUS has no raised line to drop: the model raises PMIs only
 * through a global control, and the platforms without GLOBAL_STATUS (Xeon
 * E5-2600) have none. */
void uncore_tlm::check_status_clear(std::uint64_t t_ps)
{
	unsigned nc = cpus_per_socket();

	for (unsigned s = 0; s < nsockets(); s++) {
		std::uint64_t v = 0;
		bool any = false;

		for (unsigned c = 0; c < nc; c++)
			any = any || m_level[s * nc + c];
		if (!any)
			continue;
		if (m_status[s].present &&
		    ucm_peek(m_model, m_status[s].space, s, m_status[s].key, &v) == 0 && v)
			continue;
		for (unsigned c = 0; c < nc; c++)
			if (m_level[s * nc + c]) {
				m_level[s * nc + c] = false;
				schedule(t_ps, s * nc + c, false);
			}
	}
}

/* ---- transactions ---- */

/* Checks in order: data pointer, length and streaming width (burst),
 * address, byte enables.  Fills the access the model will see. */
tlm_response_status uncore_tlm::decode(unsigned space, const tlm_generic_payload &p,
				       access *a) const
{
	unsigned len = p.get_data_length();
	std::uint64_t addr = p.get_address();
	const unsigned char *be = p.get_byte_enable_ptr();
	unsigned bel = p.get_byte_enable_length();
	unsigned first = len, last = 0;

	if (!p.get_data_ptr() && p.get_command() != tlm::TLM_IGNORE_COMMAND)
		return tlm::TLM_GENERIC_ERROR_RESPONSE;
	if (!width_ok(space, len) || p.get_streaming_width() != len)
		return tlm::TLM_BURST_ERROR_RESPONSE;
	if (space == UCM_PCI && (addr >= ECAM_SIZE || addr % len))
		return tlm::TLM_ADDRESS_ERROR_RESPONSE;
	if (space == UCM_MMIO) {
		std::uint64_t pa = addr + m_params.mmio_base;

		if (pa < addr || pa % len)
			return tlm::TLM_ADDRESS_ERROR_RESPONSE;
		addr = pa;
	}
	if (be && !bel)
		return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
	for (unsigned i = 0; i < len; i++) {
		unsigned char e = be ? be[i % bel] : TLM_BYTE_ENABLED;

		if (e != TLM_BYTE_ENABLED && e != TLM_BYTE_DISABLED)
			return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
		if (e == TLM_BYTE_ENABLED) {
			/* one contiguous run */
			if (first < len && i != last + 1)
				return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
			if (first == len)
				first = i;
			last = i;
		}
	}
	if (first == len)
		return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
	a->first = first;
	a->width = last - first + 1;
	a->addr = addr + first;
	/* MSRs whole; PCI and MMIO narrowed to a naturally aligned access */
	if (space == UCM_MSR ? a->width != len : !width_ok(space, a->width) || a->addr % a->width)
		return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
	return tlm::TLM_OK_RESPONSE;
}

int uncore_tlm::model_read(unsigned space, const access &a, std::uint64_t *v, bool peek)
{
	unsigned bus, dev, fn, off;

	switch (space) {
	case UCM_MSR:
		return (peek ? ucm_msr_peek : ucm_msr_read)(m_model, unsigned(a.addr >> 32),
							   std::uint32_t(a.addr), v);
	case UCM_PCI:
		pci_split(a.addr, &bus, &dev, &fn, &off);
		return (peek ? ucm_pci_peek : ucm_pci_read)(m_model, 0, bus, dev, fn, off, a.width, v);
	default:
		return (peek ? ucm_mmio_peek : ucm_mmio_read)(m_model, a.addr, a.width, v);
	}
}

int uncore_tlm::model_write(unsigned space, const access &a, std::uint64_t v)
{
	unsigned bus, dev, fn, off;

	switch (space) {
	case UCM_MSR:
		return ucm_msr_write(m_model, unsigned(a.addr >> 32), std::uint32_t(a.addr), v);
	case UCM_PCI:
		pci_split(a.addr, &bus, &dev, &fn, &off);
		return ucm_pci_write(m_model, 0, bus, dev, fn, off, a.width, v);
	default:
		return ucm_mmio_write(m_model, a.addr, a.width, v);
	}
}

tlm_response_status uncore_tlm::map_error(unsigned space, int rc)
{
	if (!rc || (space == UCM_PCI && rc == -ENODEV && m_params.pci_absent_ok))
		return tlm::TLM_OK_RESPONSE;
	m_err = ucm_error(m_model);
	switch (-rc) {
	case EIO:    /* MSR: #GP */
	case ENODEV: /* PCI: no such device (master abort) */
	case ENXIO:  /* MMIO: no BAR decodes it; MSR: no such cpu */
	case ENOENT:
	case EINVAL:
		return tlm::TLM_ADDRESS_ERROR_RESPONSE;
	default:
		return tlm::TLM_GENERIC_ERROR_RESPONSE;
	}
}

void uncore_tlm::b_transport(unsigned space, tlm_generic_payload &p, sc_time &delay)
{
	access a{ 0, 0, 0 };
	tlm_response_status st = decode(space, p, &a);

	p.set_dmi_allowed(false);
	if (st == tlm::TLM_OK_RESPONSE) {
		unsigned char *d = p.get_data_ptr();
		std::uint64_t v = 0;
		int rc;

		switch (p.get_command()) {
		case tlm::TLM_IGNORE_COMMAND:
			/* an address probe: checked like a read, without one */
			st = map_error(space, model_read(space, a, &v, true));
			break;
		case tlm::TLM_READ_COMMAND:
		case tlm::TLM_WRITE_COMMAND:
			/* the access happens at the initiator's local time, or at the
			 * model's time if another initiator already took it further */
			if ((rc = ucm_advance(m_model, to_ps(sc_time_stamp() + delay)))) {
				m_err = ucm_error(m_model);
				st = tlm::TLM_GENERIC_ERROR_RESPONSE;
				break;
			}
			if (p.get_command() == tlm::TLM_READ_COMMAND) {
				rc = model_read(space, a, &v, false);
				st = map_error(space, rc);
				if (st == tlm::TLM_OK_RESPONSE || (space == UCM_PCI && rc == -ENODEV))
					put_le(d + a.first, a.width, v);
			} else {
				rc = model_write(space, a, get_le(d + a.first, a.width));
				st = map_error(space, rc);
				check_status_clear(ucm_now_ps(m_model));
			}
			break;
		}
	}
	delay += m_latency[space];
	p.set_response_status(st);
}

void uncore_tlm::b_transport_msr(tlm_generic_payload &p, sc_time &delay)
{
	b_transport(UCM_MSR, p, delay);
}

void uncore_tlm::b_transport_pci(tlm_generic_payload &p, sc_time &delay)
{
	b_transport(UCM_PCI, p, delay);
}

void uncore_tlm::b_transport_mmio(tlm_generic_payload &p, sc_time &delay)
{
	b_transport(UCM_MMIO, p, delay);
}

/* Debug reads: the ucm_*_peek accessors (no time, no W1C, no ground-truth
 * read, no PMI, no event).  Debug writes are refused: the model has no
 * write that is free of side effects.  Returns the bytes transferred. */
unsigned uncore_tlm::transport_dbg(unsigned space, tlm_generic_payload &p)
{
	unsigned char *d = p.get_data_ptr();
	unsigned len = p.get_data_length();
	std::uint64_t addr = p.get_address();
	unsigned done = 0;

	if (p.get_command() != tlm::TLM_READ_COMMAND || !d || !len)
		return 0;
	if (space == UCM_MSR) {
		std::uint64_t v;

		if (len != 8 || ucm_msr_peek(m_model, unsigned(addr >> 32), std::uint32_t(addr), &v))
			return 0;
		put_le(d, 8, v);
		return 8;
	}
	if (space == UCM_PCI) {
		unsigned bus, dev, fn, off;

		if (addr >= ECAM_SIZE)
			return 0;
		pci_split(addr, &bus, &dev, &fn, &off);
		/* within one function's 4 KiB, in aligned pieces of up to 8 */
		len = std::min(len, 4096u - off);
		while (done < len) {
			unsigned w = 8;
			std::uint64_t v;

			while (w > len - done || (off + done) % w)
				w /= 2;
			int rc = ucm_pci_peek(m_model, 0, bus, dev, fn, off + done, w, &v);

			if (rc == -ENODEV && m_params.pci_absent_ok) {
				/* the master abort's all ones */
				std::memset(d + done, 0xFF, len - done);
				return len;
			}
			if (rc)
				break;
			put_le(d + done, w, v);
			done += w;
		}
		return done;
	}
	/* MMIO: 32-bit pieces from a 4-byte aligned address */
	addr += m_params.mmio_base;
	if (addr % 4)
		return 0;
	while (done < len) {
		unsigned n = std::min(4u, len - done);
		std::uint64_t v;

		if (ucm_mmio_peek(m_model, addr + done, 4, &v))
			break;
		put_le(d + done, n, v);
		done += n;
	}
	return done;
}

unsigned uncore_tlm::transport_dbg_msr(tlm_generic_payload &p)
{
	return transport_dbg(UCM_MSR, p);
}

unsigned uncore_tlm::transport_dbg_pci(tlm_generic_payload &p)
{
	return transport_dbg(UCM_PCI, p);
}

unsigned uncore_tlm::transport_dbg_mmio(tlm_generic_payload &p)
{
	return transport_dbg(UCM_MMIO, p);
}

/* Never: a pointer would bypass write-1-to-clear, self-clearing bits and the
 * counters' time.  The answer covers the whole range, so a caching
 * initiator does not ask again. */
bool uncore_tlm::get_direct_mem_ptr(tlm_generic_payload &p, tlm::tlm_dmi &dmi)
{
	p.set_dmi_allowed(false);
	dmi.set_start_address(0);
	dmi.set_end_address(~std::uint64_t(0));
	dmi.allow_read_write();
	return false;
}

/* ---- workload sources ---- */

void uncore_tlm::detach_sources()
{
	if (m_gen)
		uct_detach(m_gen);
	if (m_replay)
		uct_replay_detach(m_replay);
	if (m_reader)
		uct_close(m_reader);
	m_gen = nullptr;
	m_replay = nullptr;
	m_reader = nullptr;
	ucm_set_workload(m_model, nullptr, nullptr);
	ucm_clear_inputs(m_model);
}

/* The old source runs up to now; the new one starts now. */
int uncore_tlm::set_workload(ucm_workload_fn fn, void *ctx)
{
	sync();
	detach_sources();
	ucm_set_workload(m_model, fn, ctx);
	return 0;
}

void uncore_tlm::clear_workload()
{
	sync();
	detach_sources();
}

int uncore_tlm::attach_generator(const char *name, std::uint64_t seed)
{
	const ucm_platform *p = ucm_platform_of(m_model);
	const uct_workload_def *def = uct_workload_find(p->name, name ? name : "");
	char err[256] = "";
	int rc;

	if (!def) {
		m_err = std::string("no workload '") + (name ? name : "") + "' for platform " + p->name;
		return -ENOENT;
	}
	sync();
	detach_sources();
	if ((rc = uct_attach(m_model, def, seed, &m_gen, err, sizeof(err)))) {
		m_gen = nullptr;
		m_err = err;
	}
	return rc;
}

int uncore_tlm::config_for_trace(const char *path, ucm_config *cfg, std::string *err)
{
	uct_reader *r = nullptr;
	char e[512] = "";
	int rc = uct_open(path, &r, e, sizeof(e));

	if (rc) {
		if (err)
			*err = e;
		return rc;
	}
	uct_config(uct_header(r), cfg);
	uct_close(r);
	return 0;
}

int uncore_tlm::attach_trace(const char *path)
{
	uct_reader *r = nullptr;
	ucm_model *tm = nullptr;
	ucm_config cfg;
	char e[512] = "";
	const ucm_platform *p = ucm_platform_of(m_model);
	std::string why;
	int rc = uct_open(path, &r, e, sizeof(e));

	if (rc) {
		m_err = e;
		return rc;
	}
	/* the header must describe this model: compare with a model built
	 * from it, so that defaults compare equal */
	uct_config(uct_header(r), &cfg);
	if (cfg.plat != p) {
		why = std::string("the trace is for platform ") + cfg.plat->name + ", the model is " +
		      p->name;
	} else if ((rc = ucm_create(&cfg, &tm))) {
		why = std::string("the trace header: ") + std::strerror(-rc);
	} else {
		if (ucm_nsockets(tm) != nsockets())
			why = "the trace has " + std::to_string(ucm_nsockets(tm)) +
			      " socket(s), the model " + std::to_string(nsockets());
		for (unsigned c = 0; why.empty() && c < p->nclocks; c++)
			if (ucm_clock_hz(tm, c) != ucm_clock_hz(m_model, c))
				why = std::string("the trace's ") + p->clocks[c].name + " is " +
				      std::to_string(ucm_clock_hz(tm, c)) + " Hz, the model's " +
				      std::to_string(ucm_clock_hz(m_model, c));
		for (unsigned b = 0; why.empty() && b < p->nboxes; b++) {
			const ucm_boxtype *bt = p->boxes[b].type;

			if (ucm_ninst(tm, bt) != ucm_ninst(m_model, bt))
				why = std::string("the trace has ") + std::to_string(ucm_ninst(tm, bt)) +
				      " " + bt->name + " box(es), the model " +
				      std::to_string(ucm_ninst(m_model, bt));
		}
		ucm_destroy(tm);
	}
	if (!why.empty()) {
		m_err = std::string(path) + ": " + why + " (see config_for_trace)";
		uct_close(r);
		return -EINVAL;
	}
	sync();
	detach_sources();
	if ((rc = uct_replay_attach(m_model, r, &m_replay))) {
		m_err = std::string(path) + ": " + std::strerror(-rc);
		uct_close(r);
		m_replay = nullptr;
		return rc;
	}
	m_reader = r;
	return 0;
}

} // namespace ucm_sc

/*
 * AddressSanitizer builds: Debian's SystemC (2.3.4) tells ASan about its
 * coroutine switches, but the switch back to the main coroutine leaves ASan
 * holding the last thread coroutine's stack as the main thread's.  SystemC
 * frees that stack at the end of the simulation, and LeakSanitizer's check at
 * exit then scans freed memory and dies ("Tracer caught signal 11"), at
 * random by where the freed stack lay.  An exit handler, registered after
 * LeakSanitizer's and so run before it, gives the main thread its own stack
 * back; leak checking of every SystemC program stays on.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UCM_SC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UCM_SC_ASAN 1
#endif
#endif
#ifdef UCM_SC_ASAN
#include <cstdlib>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

namespace {

void ucm_sc_restore_main_stack()
{
	pthread_attr_t a;
	void *lo = nullptr;
	std::size_t size = 0;
	void *fake = nullptr;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &lo, &size) == 0 && lo && size) {
		__sanitizer_start_switch_fiber(&fake, lo, size);
		__sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
	}
	pthread_attr_destroy(&a);
}

struct ucm_sc_asan_exit {
	ucm_sc_asan_exit() { std::atexit(ucm_sc_restore_main_stack); }
} ucm_sc_asan_exit_registered;

} // namespace
#endif
