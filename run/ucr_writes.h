/*
 * ucr_writes.h - what the program under `uncore run` wrote to the uncore
 * PMU's registers, for the report: each register's value before the
 * program's first write to it, the values it wrote in turn, the last, and
 * the value at the report.  A tool that must leave the machine as it found
 * it (a restore at exit or on a signal) is checked against this.
 */
#ifndef UCR_WRITES_H
#define UCR_WRITES_H

#include <jansson.h>
#include <stdint.h>

#include "ucm.h"

struct ucr_writes;

struct ucr_writes *ucr_writes_new(struct ucm_model *m);
void ucr_writes_free(struct ucr_writes *w);
/* Around a write of the program: space UCM_MSR (key the MSR address,
 * socket its cpu's) or UCM_PCI (key ucm_pci_key, width 1, 2, 4 or 8
 * bytes).  before() notes the registers the access covers as they are;
 * after() (the write succeeded) what was written into them. */
void ucr_writes_before(struct ucr_writes *w, unsigned space, unsigned socket, uint64_t key, unsigned width);
void ucr_writes_after(struct ucr_writes *w, unsigned space, unsigned socket, uint64_t key, unsigned width,
		      uint64_t v);
/* The registers written, in the order first written: an array of
 * {register, socket, space, address, writes, before, values, values_more,
 * last, now} */
json_t *ucr_writes_json(struct ucr_writes *w);
/* The name of counter register reg's control register ("" if it has none
 * of its own) */
const char *ucr_writes_control_of(struct ucr_writes *w, size_t reg);

#endif
