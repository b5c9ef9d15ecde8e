/*
 * ucd_internal.h - driver state shared by the driver's files
 * (ucd_session.c, ucd_discover.c, ucd_parse.c, ucd_place.c).
 */
#ifndef UCD_INTERNAL_H
#define UCD_INTERNAL_H

#include "ucd.h"
#include "ucm.h"

#define UCD_MAXEV 64
#define UCD_MAXCTRS 512
#define UCD_MAXSAVE 1024
#define UCD_MAXSAMPLES 100000  /* samples kept; later ones are counted */

/* A register as the driver addresses it through the backend. */
struct ucd_reg {
	uint8_t space;
	unsigned cpu;            /* MSR */
	struct ucb_pci pci;      /* PCI */
	uint64_t addr;           /* MSR address, PCI offset, MMIO physical */
	const struct ucm_regdef *def;
	unsigned inst;           /* box instance, for names */
};

struct ucd_ev {
	char name[128];
	char canonical[128];
	size_t col;              /* 1-based column in the event list */
	const struct ucm_boxtype *box;
	int inst;                /* -1: every instance */
	const struct ucm_event *row;
	const struct ucm_evcode *code;
	uint64_t ctl;            /* control value without EN, 0 for fixed */
	uint32_t ctr_mask;
	uint64_t max_out;        /* worst-case counter increment per cycle */
	/* box filter register bits this event needs (by UCM_K_FILTER .idx),
	 * and their values */
	uint64_t filt[UCM_MAXFILT], filt_mask[UCM_MAXFILT];
};

struct ucd_ctr {
	size_t ev;
	unsigned socket;
	const struct ucm_boxinst *bi;
	unsigned idx;
	struct ucd_reg ctl, ctr;
	int has_ctl;
	uint64_t wmask;
	uint64_t last, total, mark;
	int zeroed;              /* we wrote 0 before enabling: count from 0, not the first read */
	int pmi;                 /* PMI-driven: its wraps come from the status */
	uint64_t base;           /* PMI-driven: total = base + value */
	int shared_with;         /* index of the counter whose reads it shares, or -1 */
};

/* An overflow of a sampled counter. */
struct ucd_samp {
	uint64_t t_ns, rearm_ns; /* PMI, and counting resumed (0: never frozen) */
	size_t ctr;
	uint64_t total;          /* the counter's total when its PMI was read */
};

struct ucd_save {
	struct ucd_reg reg;
	uint64_t val;
};

struct ucd {
	struct ucb *be;
	ucd_end_fn end_fn;       /* ucd_set_end_check */
	void *end_ctx;
	uint64_t end_ns;
	struct ucd_opts opts;
	const struct ucm_platform *plat;
	unsigned nsockets;
	unsigned cpu[8];
	unsigned bus[8];         /* uncore PCI bus of each socket */
	unsigned nsock_pci;      /* sockets whose bus was found, 0: fixed buses */
	char pci_denied[256];    /* why the uncore's PCI boxes are out of reach, or "" */
	unsigned ninst[UCM_MAXBT];
	uint64_t bar;            /* MMIO base of socket 0, 0: none */
	size_t nev;
	struct ucd_ev ev[UCD_MAXEV];
	size_t nctr;
	struct ucd_ctr ctr[UCD_MAXCTRS];
	size_t nsave;
	struct ucd_save save[UCD_MAXSAVE];
	int started, running;
	uint64_t t_start, t_last;
	uint64_t overflows, freezes, pmis;
	uint64_t gstat[8];       /* each socket's global status, read with the counters */
	int gstat_valid;         /* gstat is this sample's (read_all, then service_status) */
	int pmi_mode;            /* waiting for PMIs, not polling every counter */
	int freeze_on_pmi;       /* the user's, or sampling's */
	size_t nsamples, samples_cap;
	uint64_t samples_dropped;
	struct ucd_samp *samples;
	char err[2048];
	const struct ucm_event *xev;  /* named events of an event file */
	size_t nxev;
};

/* ucd_session.c: the error message, and register addressing and access */
int ucd_seterr(struct ucd *d, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ucd_reg_of(const struct ucd *d, unsigned socket, const struct ucm_boxinst *bi,
		const struct ucm_regdef *def, struct ucd_reg *r);
int ucd_reg_read(struct ucd *d, const struct ucd_reg *r, uint64_t *v);
/* The first register of kind k in p's tables, and its box. */
const struct ucm_boxinst *ucd_find_reg(const struct ucm_platform *p, unsigned kind,
				       const struct ucm_regdef **def);
/* ucd_parse.c: the events of list, appended to d->ev */
int ucd_parse(struct ucd *d, const char *list);
/* ucd_place.c: counters for the events from first_new on */
int ucd_place(struct ucd *d, size_t first_new);

#endif
