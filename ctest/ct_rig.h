/*
 * ct_rig.h - the test rig shared by driver-level tests: a model, the
 * simulated backend over it and a driver on that backend, constant inputs,
 * and the two checks every driver test makes (totals equal the model's
 * ground truth; no strict-mode record).
 */
#ifndef CT_RIG_H
#define CT_RIG_H

#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

struct ct_rig {
	struct ucm_model *m;
	struct ucb *be;
	struct ucd *d;
	const struct ucm_platform *p;
};

/* A strict-mode model of cfg (NULL: skl defaults with ncbo C-Boxes, 0 for
 * the default) and a driver opened on it with o (NULL: defaults). */
int ct_rig_open(struct ct_rig *r, struct ucm_config *cfg, unsigned ncbo, const struct ucd_opts *o);
void ct_rig_close(struct ct_rig *r);
/* Constant per-cycle input on one instance (-1: every instance). */
int ct_feed(struct ucm_model *m, const char *box, int inst, const char *sub, uint32_t inc);
/* Every driver counter equals what the model counted between the driver's
 * first and last read of it; failures are reported at file:line. */
void ct_check_truth(struct ct_rig *r, const char *what, const char *file, int line);
/* Every strict-mode record is a failure at file:line. */
void ct_no_strict(struct ct_rig *r, const char *what, const char *file, int line);
/* A model of a platform on its own (no driver): strict, with register
 * accesses that take no time unless timed; sockets 0: the default.  NULL
 * on failure. */
struct ucm_model *ct_model(const char *platform, unsigned sockets, int timed);
/* Every register of model b reads as in model a (two models of the same
 * configuration driven two ways); each difference, up to 5, is a failure
 * at file:line naming what, the register and both values.  Returns the
 * number of differences. */
unsigned ct_same_registers(struct ucm_model *a, struct ucm_model *b, const char *what,
			   const char *file, int line);
/* Every strict-mode record of a model is a failure at file:line; the
 * records are cleared. */
void ct_model_no_strict(struct ucm_model *m, const char *what, const char *file, int line);

#endif
