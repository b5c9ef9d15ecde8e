/*
 * uct_vcd.h - waveforms of the model: a Value Change Dump (IEEE 1364-2005
 * clause 18) of every programmed counter, its enable, the box and global
 * status bits, the global control, each core's PMI line and the freeze
 * state, sampled at every point where the model reports that its state may
 * have changed (ucm_set_observer; docs/formats.md, "Waveforms").
 */
#ifndef UCT_VCD_H
#define UCT_VCD_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"

struct uct_vcd;

/* The largest waveform written, in bytes of the VCD file. */
#define UCT_VCD_MAX_BYTES (1ull << 30)

/* Start observing m for a waveform to be written to path (which is opened
 * now, so that a path that cannot be written fails before the run); the
 * file appears only at uct_vcd_commit (trace/uct_file.h).  A waveform that
 * would grow past max_bytes (0: UCT_VCD_MAX_BYTES) stops being recorded
 * there and its commit fails naming the limit.  -errno and a message in
 * err on failure. */
int uct_vcd_open(struct ucm_model *m, const char *path, uint64_t max_bytes, struct uct_vcd **out,
		 char *err, size_t n);
/* Take a last sample at the model's present time, write the file and
 * detach; -errno and a message in err (nothing left in place) on failure.
 * The writer is freed either way. */
int uct_vcd_commit(struct uct_vcd *v, char *err, size_t n);
/* Detach and free without writing (NULL is fine). */
void uct_vcd_close(struct uct_vcd *v);

#endif
