/*
 * ucr_prog.h - the program's accesses to the uncore PMU's registers under
 * `uncore run`, for the report: each register's value before the
 * program's first write to it, the values it wrote in turn, the last, and
 * the value at the report (a tool that must leave the machine as it found
 * it, at exit or on a signal, is checked against this); and the model's
 * total at each of its reads of a counter (a sampling tool's every sample
 * is checked against this).
 */
#ifndef UCR_PROG_H
#define UCR_PROG_H

#include <jansson.h>
#include <stdint.h>

#include "ucm.h"

struct ucr_prog;

struct ucr_prog *ucr_prog_new(struct ucm_model *m);
void ucr_prog_free(struct ucr_prog *w);
/* Around a write of the program: space UCM_MSR (key the MSR address,
 * socket its cpu's), UCM_PCI (key ucm_pci_key, width 1, 2, 4 or 8 bytes)
 * or UCM_MMIO (key the offset in the socket's window, ucm_mmio_where).  before() notes the registers the access covers as they are;
 * after() (the write succeeded) what was written into them. */
void ucr_prog_before(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width);
void ucr_prog_after(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width,
		      uint64_t v);
/* After a read of the program that succeeded: the model's total of each
 * counter it covers, and the machine time (a PCI counter read in parts:
 * at the read of its low dword) */
void ucr_prog_read(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width);
/* Counter register reg's reads, oldest first (the latest 256): an array of
 * [machine ns, total]; NULL if the program never read it */
json_t *ucr_prog_reads_json(struct ucr_prog *w, size_t reg);
/* The registers written, in the order first written: an array of
 * {register, socket, space, address, writes, before, values, values_more,
 * last, now} */
json_t *ucr_prog_json(struct ucr_prog *w);
/* a register's address as the reports print it: "bb:dd.f+0xoff" (PCI),
 * "BAR+0x..." (MMIO), "0x..." (MSR) */
void ucr_fmt_addr(char *buf, size_t n, const struct ucm_reginfo *ri);
/* The name of counter register reg's control register ("" if it has none
 * of its own) */
const char *ucr_prog_control_of(struct ucr_prog *w, size_t reg);

#endif
