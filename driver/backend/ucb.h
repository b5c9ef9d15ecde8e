/*
 * ucb.h - the backend interface: the only way the driver touches hardware.
 *
 * One operations struct covers MSR, PCI configuration and MMIO access plus
 * the little the driver needs from the machine (CPUID, socket->cpu, a clock
 * and a way to wait).  The simulated backend implements it over the model;
 * hardware, recording and replay backends implement the same struct, and the
 * driver never learns which one it has.  Every operation returns 0 or a
 * negative errno; ucb_error() then names what failed.
 */
#ifndef UCB_H
#define UCB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ucb;

struct ucb_pci {
	uint16_t seg;
	uint8_t bus, dev, fn;
};

/* One MSR access of a batch; rc is set per operation. */
struct ucb_msr_op {
	unsigned cpu;
	uint32_t addr;
	int write;
	uint64_t val;       /* written, or read back */
	int rc;
};

struct ucb_ops {
	const char *name;
	int (*msr_read)(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val);
	int (*msr_write)(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val);
	/* Optional: many MSR accesses at once (msr-safe's batch ioctl: one
	 * system call).  Without it, ucb_msr_batch issues them one by one. */
	int (*msr_batch)(struct ucb *b, struct ucb_msr_op *ops, unsigned n);
	/* width 1, 2, 4 or 8 bytes */
	int (*pci_read)(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			uint64_t *val);
	int (*pci_write)(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			 uint64_t val);
	/* width 4 or 8 bytes */
	int (*mmio_read)(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val);
	int (*mmio_write)(struct ucb *b, uint64_t pa, unsigned width, uint64_t val);
	/* CPUID leaf/subleaf on a cpu: eax, ebx, ecx, edx */
	int (*cpuid)(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
	/* a cpu of the given socket; -ENOENT when there is no such socket */
	int (*socket_cpu)(struct ucb *b, unsigned socket, unsigned *cpu);
	/* monotonic time and waiting, in nanoseconds */
	int (*now_ns)(struct ucb *b, uint64_t *ns);
	int (*sleep_ns)(struct ucb *b, uint64_t ns);
	/* Optional: sleep up to ns, returning early (*pmi = 1) when an uncore
	 * PMI reaches a cpu.  A backend that cannot see uncore PMIs leaves it
	 * NULL and the driver polls. */
	int (*wait_pmi)(struct ucb *b, uint64_t ns, int *pmi);
	void (*destroy)(struct ucb *b);
	/* Optional: n 8-byte counters of one PCI function at off[0..n-1], each
	 * read whole, as ucb_pci_read_ctrs defines it (the hardware backend:
	 * one read of the block they span).  Without it, ucb_pci_read_ctrs
	 * issues the dword reads itself. */
	int (*pci_read_ctrs)(struct ucb *b, const struct ucb_pci *d, const unsigned *off, unsigned n,
			     uint64_t *val);
	/* Optional: the time to stamp a recorded access with, without an
	 * access of its own (a replay's clock reads are lines of its log);
	 * without it the recorder reads now_ns. */
	int (*stamp_ns)(struct ucb *b, uint64_t *ns);
};

struct ucb {
	const struct ucb_ops *ops;
	void *priv;
	char err[1536];     /* a replay divergence names both sides and the context */
};

/* Calls through the ops; on failure the message is in ucb_error(). */
int ucb_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val);
int ucb_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val);
/* In order; returns the first failure (every op's rc is set). */
int ucb_msr_batch(struct ucb *b, struct ucb_msr_op *ops, unsigned n);
int ucb_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		 uint64_t *val);
int ucb_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		  uint64_t val);
/* n 8-byte counters of one PCI function, in order.  Configuration space is
 * dword-wide, so each is read as its dwords high, low, high again (and low
 * again when the high dword moved): a carry between the halves is never
 * reported as 2^32.  That sequence of single reads is the operation's
 * definition: a backend without pci_read_ctrs gets exactly it, and the
 * recording backend logs it, so a log does not say which backend made it.
 * Returns the first failure; val[i] is 0 from the failed counter on. */
int ucb_pci_read_ctrs(struct ucb *b, const struct ucb_pci *d, const unsigned *off, unsigned n,
		      uint64_t *val);
/* The dword reads of one counter that ucb_pci_read_ctrs defines, through
 * pci_read (rd) of backend b; the recording backend and the fallback share it. */
int ucb_pci_read_ctr_dwords(struct ucb *b, int (*rd)(struct ucb *, const struct ucb_pci *, unsigned,
						     unsigned, uint64_t *),
			    const struct ucb_pci *d, unsigned off, uint64_t *val);
int ucb_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val);
int ucb_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val);
int ucb_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
int ucb_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu);
int ucb_now_ns(struct ucb *b, uint64_t *ns);
int ucb_sleep_ns(struct ucb *b, uint64_t ns);
/* Whether the backend can wait for a PMI; ucb_wait_pmi is -EOPNOTSUPP if not. */
int ucb_has_pmi(const struct ucb *b);
int ucb_wait_pmi(struct ucb *b, uint64_t ns, int *pmi);
void ucb_destroy(struct ucb *b);
const char *ucb_error(const struct ucb *b);
/* A stop request, for the whole process (signals are): once *flag is
 * non-zero, every backend's waits end early with -EINTR ("interrupted"),
 * the simulator's within a few milliseconds of wall time however long the
 * simulated wait.  Register accesses go on, so the driver can restore. */
void ucb_stop_on(const volatile sig_atomic_t *flag);
int ucb_stopping(void);
/* A function long waits call now and then (the simulator: every slice of
 * a few milliseconds of wall time), for a progress line; NULL: none. */
void ucb_on_tick(void (*fn)(void *ctx), void *ctx);
void ucb_tick(void);
int ucb_seterr(struct ucb *b, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The simulated backend over a model (which it does not own). */
struct ucm_model;
int ucb_sim_create(struct ucm_model *m, struct ucb **out);

/* Access traces (docs/formats.md).  The recording backend wraps `inner`
 * (not owned) and logs every operation to a file that appears at commit;
 * destroying it uncommitted leaves nothing. */
int ucb_rec_create(struct ucb *inner, const char *path, struct ucb **out, char *err, size_t n);
int ucb_rec_commit(struct ucb *b, char *err, size_t n);
/* The replay backend answers from a log and fails (-EPROTO, with expected
 * and actual access and context) at the first access that differs. */
int ucb_replay_create(const char *path, struct ucb **out, char *err, size_t n);
/* After the session: an error if the log holds accesses not replayed. */
int ucb_replay_finish(struct ucb *b, char *err, size_t n);
/* Whether the replay failed on a log that breaks its format (a line too
 * long, a NUL byte, a malformed result or rc), not on a divergence. */
int ucb_replay_malformed(const struct ucb *b);

#ifdef __cplusplus
}
#endif

#endif
