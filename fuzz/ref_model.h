/*
 * ref_model.h - a deliberately naive reference model of the uncore PMU,
 * to diff the optimized model against.  It shares only the platform tables
 * (model/ucm_types.h); everything else is written again, the simple way:
 * one field at a time on writes, one clock edge at a time when time passes,
 * event selection, umask groups, filter rules and the PCU occupancy modes
 * re-derived from the tables on every cycle.  Any number of sockets (each
 * with its own MSR space, PCI bus and MMIO window) and clock domains; no
 * access cost (fuzzing configures the model the same way).
 */
#ifndef REF_MODEL_H
#define REF_MODEL_H

#include <stdint.h>

#include "ucm.h" /* table types and limits only */

#define REF_MAXREGS 2048
#define REF_MAXBOX 128
#define REF_MAXSUB 512
#define REF_MAXSOCK 8
#define REF_MAXCTR 8

struct ref_reg {
	const struct ucm_regdef *def;
	int box;
	unsigned space, socket;
	uint64_t key;       /* as ucm_reginfo: MSR address, PCI key, MMIO offset */
	unsigned bytes;
	uint64_t val;       /* stored bits, counters included */
};

struct ref_box {
	const struct ucm_boxinst *bi;
	unsigned socket;
	int ctl[REF_MAXCTR], ctr[REF_MAXCTR]; /* register index of each counter's control and value, -1 none */
	int filter[UCM_MAXFILT];              /* register index of each box filter, -1 none */
	unsigned nsub;
	uint8_t prev[REF_MAXCTR];             /* edge-detect latch */
	int frz_en, frozen;
	int boxstatus;                        /* register index of the box status, -1 none */
	int attr_ready;                       /* attr holds the initial values (box_attrs) */
	/* last: ref_init touches the first nsub of each, not the whole 6 MB */
	uint32_t input[REF_MAXSUB];
	uint64_t attr[REF_MAXSUB][UCM_NATTR];
};

struct ref_socket {
	int gctl, gstatus, bar;               /* register indexes, -1 none */
	uint64_t pmi_requests, freezes;
	int gfrozen;
	uint64_t delivered[UCM_MAXCORES], wakes[UCM_MAXCORES], dropped[UCM_MAXCORES];
	uint8_t asleep[UCM_MAXCORES];
};

struct ref_model {
	const struct ucm_platform *p;
	unsigned ninst[UCM_MAXBT], ncores, nsockets;
	unsigned nregs, nboxes;
	struct ref_reg regs[REF_MAXREGS];
	struct ref_socket sock[REF_MAXSOCK];
	uint64_t now_ps;
	uint64_t hz[UCM_MAXCLK], cycles[UCM_MAXCLK];
	uint8_t bus[REF_MAXSOCK], node[REF_MAXSOCK]; /* each socket's PCI bus, node ID */
	/* last (the boxes' inputs and attributes are most of the structure's
	 * 6 MB): ref_init clears what the platform uses, not the whole */
	struct ref_box boxes[REF_MAXBOX];
};

/* Any earlier state of r is forgotten: r is as if new (a model is reused
 * across inputs by calling this again).  ninst: instances per box type (0: default); sockets 0: the platform's
 * default; clock_hz: per clock domain, NULL or 0: default; bus, node: each
 * socket's uncore PCI bus and node ID, NULL or all 0: the platform's buses
 * and socket i as node i (a configuration the model accepts).  Returns -1
 * when the platform exceeds the reference's limits. */
int ref_init(struct ref_model *r, const struct ucm_platform *p, const unsigned *ninst,
	     unsigned sockets, const uint64_t *clock_hz, const uint8_t *bus, const uint8_t *node);
void ref_reset(struct ref_model *r);
/* Register access by (space, key) with byte lanes for PCI/MMIO; returns
 * -1 where the model answers an error (unmapped MSR, absent cpu or device). */
int ref_msr_read(struct ref_model *r, unsigned cpu, uint32_t addr, uint64_t *v);
int ref_msr_write(struct ref_model *r, unsigned cpu, uint32_t addr, uint64_t v);
int ref_pci_read(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		 unsigned width, uint64_t *v);
int ref_pci_write(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		  unsigned width, uint64_t v);
int ref_mmio_read(struct ref_model *r, uint64_t pa, unsigned width, uint64_t *v);
int ref_mmio_write(struct ref_model *r, uint64_t pa, unsigned width, uint64_t v);
/* The value a read of register i would return, without side effects. */
/* Register i's value (the fuzzer's compare reads every register after
 * every operation: inline). */
static inline uint64_t ref_peek(const struct ref_model *r, unsigned i)
{
	return r->regs[i].val;
}
/* Register by space, socket and key (PCI keys carry the bus: socket unused). */
int ref_find(const struct ref_model *r, unsigned space, unsigned socket, uint64_t key);
/* Inputs. */
int ref_box_find(const struct ref_model *r, unsigned socket, const char *type, unsigned inst);
void ref_set_input(struct ref_model *r, int box, unsigned sub, uint32_t inc);
void ref_set_input_attr(struct ref_model *r, int box, unsigned sub, unsigned attr, uint64_t v);
/* Time: whole cycles of one clock domain, picoseconds, or an absolute time. */
void ref_run_cycles(struct ref_model *r, unsigned clock, uint64_t n);
void ref_run_ps(struct ref_model *r, uint64_t ps);
void ref_advance(struct ref_model *r, uint64_t t_ps);
/* The time of cycle n of a clock (its n-th edge from time 0), as the
 * walk places it: where ref_run_cycles ends with cycles[clock] = n. */
uint64_t ref_edge_time(const struct ref_model *r, unsigned clock, uint64_t n);
/* Whether box b's counters are held by its box-level freeze. */
int ref_box_frozen(const struct ref_model *r, int box);

#endif
