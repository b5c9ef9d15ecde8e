/*
 * ucr_writes.c - the program's writes to the uncore PMU's registers, kept
 * for the report (ucr_writes.h).  The model's registers are looked up by
 * the span they occupy, as the accesses name them: an MSR by socket and
 * address, a PCI register by socket and its bytes of configuration space,
 * so that a 64-bit counter written as two dwords is one register.  MMIO
 * registers are not followed (the uncore PMU has none a tool writes: the
 * client IMC's counters are read-only, SKL 3.3).
 */
#include <stdlib.h>
#include <string.h>

#include "ucr_writes.h"

#define MAXVALS 16      /* the values a register was written, in turn */
#define MAXWRITTEN 8192 /* registers followed */

struct span {
	unsigned space, socket;
	uint64_t addr, end;  /* [addr, end): MSR address, or PCI key and bytes */
};

struct wreg {
	size_t reg;          /* ucm_reginfo index */
	uint64_t before, last;
	uint64_t writes;
	uint64_t vals[MAXVALS];
	unsigned nvals, more;
};

struct ucr_writes {
	struct ucm_model *m;
	struct span *at;     /* per register of the model; end == addr: not followed */
	size_t *ctl;         /* per counter register: its control's index + 1, 0: none */
	size_t nregs;
	struct wreg *w;
	size_t nw;
	size_t *slot;        /* per register: its index in w + 1, 0: not written */
};

struct ucr_writes *ucr_writes_new(struct ucm_model *m)
{
	struct ucr_writes *w = calloc(1, sizeof(*w));

	if (w)
		w->m = m;
	return w;
}

/* The register table, made at the first write (a program that writes
 * nothing pays nothing); 0, or -1 when there is no memory for it. */
static int build(struct ucr_writes *w)
{
	size_t n = ucm_nregs(w->m), *ctr, nctr = 0;
	struct ucm_reginfo *ri;

	if (w->at)
		return 0;
	if (w->nregs)
		return -1;
	w->nregs = n ? n : 1;
	ri = calloc(w->nregs, sizeof(*ri));
	ctr = calloc(w->nregs, sizeof(*ctr));
	w->at = calloc(w->nregs, sizeof(*w->at));
	w->ctl = calloc(w->nregs, sizeof(*w->ctl));
	w->slot = calloc(w->nregs, sizeof(*w->slot));
	w->w = calloc(MAXWRITTEN, sizeof(*w->w));
	if (!ri || !ctr || !w->at || !w->ctl || !w->slot || !w->w) {
		free(ri);
		free(ctr);
		free(w->at);
		w->at = NULL;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (ucm_reginfo(w->m, i, &ri[i]) || ri[i].space == UCM_MMIO)
			continue;
		w->at[i] = (struct span){ ri[i].space, ri[i].socket, ri[i].addr,
					  ri[i].addr + (ri[i].space == UCM_MSR ? 1 : (ri[i].width + 7) / 8) };
		if (ri[i].kind == UCM_K_CTR)
			ctr[nctr++] = i;
	}
	/* a counter's control register: the CTL of the same box instance,
	 * socket and index (as the kernel's report pairs them, ucr_kernel.c) */
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; ri[i].kind == UCM_K_CTL && c < nctr; c++)
			if (ri[ctr[c]].box == ri[i].box && ri[ctr[c]].socket == ri[i].socket &&
			    ri[ctr[c]].idx == ri[i].idx)
				w->ctl[ctr[c]] = i + 1;
	free(ri);
	free(ctr);
	return 0;
}

void ucr_writes_free(struct ucr_writes *w)
{
	if (!w)
		return;
	free(w->at);
	free(w->ctl);
	free(w->slot);
	free(w->w);
	free(w);
}

static int overlaps(const struct span *s, unsigned space, unsigned socket, uint64_t a, uint64_t e)
{
	return s->end > s->addr && s->space == space && s->socket == socket && a < s->end && s->addr < e;
}

static uint64_t end_of(unsigned space, uint64_t key, unsigned width)
{
	return space == UCM_MSR ? key + 1 : key + width;
}

void ucr_writes_before(struct ucr_writes *w, unsigned space, unsigned socket, uint64_t key, unsigned width)
{
	uint64_t e = end_of(space, key, width);

	if (!w || build(w))
		return;
	for (size_t i = 0; i < w->nregs; i++) {
		struct wreg *r;

		if (!overlaps(&w->at[i], space, socket, key, e) || w->slot[i] || w->nw == MAXWRITTEN)
			continue;
		r = &w->w[w->nw];
		*r = (struct wreg){ .reg = i };
		if (ucm_peek_index(w->m, i, &r->before))
			continue;
		r->last = r->before;
		w->slot[i] = ++w->nw;
	}
}

void ucr_writes_after(struct ucr_writes *w, unsigned space, unsigned socket, uint64_t key, unsigned width,
		      uint64_t v)
{
	uint64_t e = end_of(space, key, width);

	if (!w || !w->at)
		return;
	for (size_t i = 0; i < w->nregs; i++) {
		const struct span *s = &w->at[i];
		struct wreg *r;

		if (!overlaps(s, space, socket, key, e) || !w->slot[i])
			continue;
		r = &w->w[w->slot[i] - 1];
		if (space == UCM_MSR) {
			r->last = v;
		} else {
			/* the bytes of the register the access wrote */
			for (uint64_t a = key > s->addr ? key : s->addr; a < e && a < s->end; a++) {
				unsigned rb = (unsigned)(a - s->addr) * 8, vb = (unsigned)(a - key) * 8;

				r->last = (r->last & ~(0xFFull << rb)) | ((v >> vb & 0xFF) << rb);
			}
		}
		r->writes++;
		if (r->nvals && r->vals[r->nvals - 1] == r->last)
			continue;
		if (r->nvals < MAXVALS)
			r->vals[r->nvals++] = r->last;
		else
			r->more = 1;
	}
}

static void fmt_addr(char *buf, size_t n, const struct ucm_reginfo *ri)
{
	if (ri->space == UCM_PCI)
		snprintf(buf, n, "%02x:%02x.%x+0x%03x", (unsigned)(ri->addr >> 20 & 0xFF),
			 (unsigned)(ri->addr >> 15 & 31), (unsigned)(ri->addr >> 12 & 7), (unsigned)(ri->addr & 0xFFF));
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)ri->addr);
}

json_t *ucr_writes_json(struct ucr_writes *w)
{
	json_t *a = json_array();

	for (size_t k = 0; w && k < w->nw; k++) {
		const struct wreg *r = &w->w[k];
		struct ucm_reginfo ri;
		uint64_t now = 0;
		json_t *vals = json_array();
		char addr[48];

		if (ucm_reginfo(w->m, r->reg, &ri)) {
			json_decref(vals);
			continue;
		}
		ucm_peek_index(w->m, r->reg, &now);
		fmt_addr(addr, sizeof(addr), &ri);
		for (unsigned i = 0; i < r->nvals; i++)
			json_array_append_new(vals, json_integer((json_int_t)r->vals[i]));
		json_array_append_new(a, json_pack("{s:s, s:I, s:s, s:s, s:I, s:I, s:o, s:b, s:I, s:I}", "register",
						   ri.name, "socket", (json_int_t)ri.socket, "space",
						   ri.space == UCM_MSR ? "msr" : "pci", "address", addr, "writes",
						   (json_int_t)r->writes, "before", (json_int_t)r->before, "values", vals,
						   "values_more", r->more, "last", (json_int_t)r->last, "now",
						   (json_int_t)now));
	}
	return a;
}

const char *ucr_writes_control_of(struct ucr_writes *w, size_t reg)
{
	static struct ucm_reginfo ri;

	if (!w || build(w) || reg >= w->nregs || !w->ctl[reg] || ucm_reginfo(w->m, w->ctl[reg] - 1, &ri))
		return "";
	return ri.name;
}
