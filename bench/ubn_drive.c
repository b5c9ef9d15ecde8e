/*
 * ubn_drive.c - every counter of a platform programmed through the driver
 * (G1, G2, G4 on G1's work, G6): thresholds, edges, inversions and filters
 * mixed, until every counter of every box on every socket holds an event.
 */
#include <stdio.h>
#include <string.h>

#include "ubn.h"
#include "ucd.h"
#include "ucm.h"

static unsigned model_counters(const struct ucm_model *m)
{
	unsigned n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++)
		n += ucm_box_def(m, (int)b)->type->nctr;
	return n;
}

/* Counters of box type bt the session holds (distinct socket, box, counter). */
static unsigned placed_of(const struct ucd *d, const struct ucm_boxtype *bt)
{
	static unsigned char seen[8][1024][8];
	unsigned n = 0;
	size_t nc = ucd_ncounters(d);

	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < nc; i++) {
		struct ucd_ctrinfo ci;
		size_t bi;

		if (ucd_counter(d, i, &ci) || (bt && ci.box->type != bt))
			continue;
		bi = (size_t)(ci.box - ucd_platform(d)->boxes);
		if (ci.socket < 8 && bi < 1024 && ci.ctr < 8 && !seen[ci.socket][bi][ci.ctr]) {
			seen[ci.socket][bi][ci.ctr] = 1;
			n++;
		}
	}
	return n;
}

/* Program every counter: for each box type, first one of the platform's
 * named events that carries filter values, then its named events in turn,
 * raw with THRESH=1, THRESH=1 and edge, THRESH=1 and INV, or as they are
 * (the rotation starts at a different place for each box type, so that a
 * box of two counters gets a mix too); an event the placement or the
 * control rules refuse is skipped; until every counter of every instance on
 * every socket holds one. */
void ubn_program_all(struct ucd *d, const struct ucm_model *m, struct ubn_prog *pr)
{
	const struct ucm_platform *p = ucd_platform(d);

	memset(pr, 0, sizeof(*pr));
	pr->total = model_counters(m);
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *bt = p->boxes[i].type;
		unsigned want = 0, k = i;

		for (unsigned j = 0; j < i; j++)
			if (p->boxes[j].type == bt)
				goto next;
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			if (ucm_box_def(m, (int)b)->type == bt)
				want += bt->nctr;
		for (unsigned e = 0; e < p->nevents; e++)
			if (p->events[e].box == bt && p->events[e].nfilt &&
			    ucd_add_events(d, p->events[e].name) == 0) {
				pr->filt++;
				pr->thresh += p->events[e].thresh != 0;
				goto rotate;
			}
		/* a table without such events: the first event that takes one
		 * of the box filter terms (those the box has no field for are
		 * refused) */
		for (unsigned e = 0; e < p->nevents; e++) {
			static const char *const terms[] = { "filter_state=0x1f", "filter_band0=20",
							     "filter_opc=0x182", "filter_nid=0" };
			const struct ucm_event *ev = &p->events[e];

			if (ev->box != bt || ev->nfilt)
				continue;
			for (unsigned t = 0; t < sizeof(terms) / sizeof(terms[0]); t++) {
				char s[160];

				snprintf(s, sizeof(s), "%s/event=0x%x,umask=0x%x,%s/", bt->name, ev->code,
					 ev->umask, terms[t]);
				if (ucd_add_events(d, s) == 0) {
					pr->filt++;
					goto rotate;
				}
			}
		}
rotate:
		for (unsigned e = 0; e < p->nevents && placed_of(d, bt) < want; e++) {
			const struct ucm_event *ev = &p->events[e];
			char s[160];
			unsigned v = k % 4;

			if (ev->box != bt)
				continue;
			k++;
			if (v != 3 && !ev->nfilt && !ev->thresh) {
				snprintf(s, sizeof(s), "%s/event=0x%x,umask=0x%x,thresh=1%s/", bt->name,
					 ev->code, ev->umask, v == 1 ? ",edge" : v == 2 ? ",inv" : "");
				if (ucd_add_events(d, s) == 0) {
					pr->thresh++;
					pr->edge += v == 1;
					pr->inv += v == 2;
					continue;
				}
			}
			if (ucd_add_events(d, ev->name) == 0) {
				pr->thresh += ev->thresh != 0;
				pr->filt += ev->nfilt != 0;
			}
		}
		if (placed_of(d, bt) < want)
			fprintf(stderr, "uncore-bench: %s %s: %u of %u counters programmed\n", p->name,
				bt->name, placed_of(d, bt), want);
next:;
	}
	pr->placed = placed_of(d, NULL);
}
