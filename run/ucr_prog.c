/*
 * ucr_prog.c - the program's accesses to the uncore PMU's registers, kept
 * for the report (ucr_prog.h): what it wrote to each register, and the
 * model's total and time at each of its reads of a counter.  The model's
 * registers are looked up by the span they occupy, as the accesses name
 * them: an MSR by socket and address, a PCI register by socket and its
 * bytes of configuration space, so that a 64-bit counter written or read as
 * two dwords is one register, an MMIO register by socket and its bytes
 * from the window's base.
 */
#include <stdlib.h>
#include <string.h>

#include "ucr_prog.h"

#define MAXVALS 16      /* the values a register was written, in turn */
#define MAXWRITTEN 8192 /* registers followed */
#define MAXREADS 256    /* a counter's reads kept: the latest */

struct span {
	unsigned space, socket;
	uint64_t addr, end;  /* [addr, end): MSR address, or PCI key and bytes */
	size_t reg;          /* ucm_reginfo index */
};

struct wreg {
	size_t reg;
	uint64_t before, last;
	uint64_t writes;
	uint64_t vals[MAXVALS];
	unsigned nvals, more;
};

/* a counter's reads by the program: (machine ns, model total) */
struct rhist {
	uint64_t ns[MAXREADS], total[MAXREADS];
	uint64_t n;
};

struct ucr_prog {
	struct ucm_model *m;
	int failed;          /* no memory for the tables: nothing is followed */
	struct span *idx;    /* the followed registers, by space, socket, address */
	size_t nidx, nregs;
	size_t *ctl;         /* per counter register: its control's index + 1, 0: none */
	int *box;            /* per counter register: its box, -1: not a counter */
	unsigned *ctr;       /* and its index in the box */
	struct rhist **reads; /* per register, made at its first read */
	struct wreg *w;
	size_t nw;
	size_t *slot;        /* per register: its index in w + 1, 0: not written */
};

struct ucr_prog *ucr_prog_new(struct ucm_model *m)
{
	struct ucr_prog *w = calloc(1, sizeof(*w));

	if (w)
		w->m = m;
	return w;
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->space != y->space)
		return x->space < y->space ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The register tables, made at the first access (a program that touches
 * no PMU register pays nothing); 0, or -1 when there is no memory. */
static int build(struct ucr_prog *w)
{
	size_t n = ucm_nregs(w->m), *ctr = NULL, nctr = 0;
	struct ucm_reginfo *ri = NULL;

	if (w->idx || w->failed)
		return w->failed ? -1 : 0;
	w->nregs = n;
	ri = calloc(n + 1, sizeof(*ri));
	ctr = calloc(n + 1, sizeof(*ctr));
	w->idx = calloc(n + 1, sizeof(*w->idx));
	w->ctl = calloc(n + 1, sizeof(*w->ctl));
	w->box = calloc(n + 1, sizeof(*w->box));
	w->ctr = calloc(n + 1, sizeof(*w->ctr));
	w->reads = calloc(n + 1, sizeof(*w->reads));
	w->slot = calloc(n + 1, sizeof(*w->slot));
	w->w = calloc(MAXWRITTEN, sizeof(*w->w));
	if (!ri || !ctr || !w->idx || !w->ctl || !w->box || !w->ctr || !w->reads || !w->slot || !w->w) {
		free(ri);
		free(ctr);
		w->failed = 1;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		w->box[i] = -1;
		if (ucm_reginfo(w->m, i, &ri[i]))
			continue;
		w->idx[w->nidx++] = (struct span){ ri[i].space, ri[i].socket, ri[i].addr,
						   ri[i].addr + (ri[i].space == UCM_MSR ? 1 : (ri[i].width + 7) / 8), i };
		if (ri[i].kind != UCM_K_CTR)
			continue;
		ctr[nctr++] = i;
		for (unsigned b = 0; b < ucm_box_count(w->m); b++)
			if (ucm_box_def(w->m, (int)b) == ri[i].box && ucm_box_socket(w->m, (int)b) == ri[i].socket) {
				w->box[i] = (int)b;
				w->ctr[i] = ri[i].idx;
				break;
			}
	}
	qsort(w->idx, w->nidx, sizeof(*w->idx), cmp_span);
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

void ucr_prog_free(struct ucr_prog *w)
{
	if (!w)
		return;
	for (size_t i = 0; w->reads && i < w->nregs; i++)
		free(w->reads[i]);
	free(w->reads);
	free(w->idx);
	free(w->ctl);
	free(w->box);
	free(w->ctr);
	free(w->slot);
	free(w->w);
	free(w);
}

static uint64_t end_of(unsigned space, uint64_t key, unsigned width)
{
	return space == UCM_MSR ? key + 1 : key + width;  /* PCI, MMIO: bytes */
}

/* The first span of the index that ends past key in (space, socket): the
 * registers an access from key on overlaps start there (the spans of one
 * space and socket do not overlap). */
static size_t first_from(const struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key)
{
	size_t lo = 0, hi = w->nidx;
	struct span k = { space, socket, key, 0, 0 };

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cmp_span(&w->idx[mid], &k) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: the first span starting after key; the one before may cover it */
	if (lo && w->idx[lo - 1].space == space && w->idx[lo - 1].socket == socket && w->idx[lo - 1].end > key)
		lo--;
	return lo;
}

#define FOR_SPANS(w, space, socket, key, e, s)                                                      \
	for (size_t s##_i = first_from(w, space, socket, key);                                       \
	     s##_i < (w)->nidx && (s = &(w)->idx[s##_i])->space == (space) && s->socket == (socket) && \
	     s->addr < (e);                                                                          \
	     s##_i++)

void ucr_prog_before(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width)
{
	uint64_t e = end_of(space, key, width);
	const struct span *s;

	if (!w || build(w))
		return;
	FOR_SPANS(w, space, socket, key, e, s) {
		struct wreg *r;

		if (w->slot[s->reg] || w->nw == MAXWRITTEN)
			continue;
		r = &w->w[w->nw];
		*r = (struct wreg){ .reg = s->reg };
		if (ucm_peek_index(w->m, s->reg, &r->before))
			continue;
		r->last = r->before;
		w->slot[s->reg] = ++w->nw;
	}
}

void ucr_prog_after(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width,
		    uint64_t v)
{
	uint64_t e = end_of(space, key, width);
	const struct span *s;

	if (!w || build(w))
		return;
	FOR_SPANS(w, space, socket, key, e, s) {
		struct wreg *r;

		if (!w->slot[s->reg])
			continue;
		r = &w->w[w->slot[s->reg] - 1];
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

void ucr_prog_read(struct ucr_prog *w, unsigned space, unsigned socket, uint64_t key, unsigned width)
{
	uint64_t e = end_of(space, key, width);
	const struct span *s;

	if (!w || build(w))
		return;
	FOR_SPANS(w, space, socket, key, e, s) {
		struct ucm_truth t;
		struct rhist *h;

		/* a counter read in parts is read when its low dword is: the
		 * value read is the total then, but for a carry into the high
		 * dword between the two reads, which the reader must handle */
		if (w->box[s->reg] < 0 || (space != UCM_MSR && key > s->addr) ||
		    ucm_truth(w->m, w->box[s->reg], w->ctr[s->reg], &t))
			continue;
		if (!(h = w->reads[s->reg]) && !(h = w->reads[s->reg] = calloc(1, sizeof(*h))))
			continue;
		h->ns[h->n % MAXREADS] = t.last_ps / 1000u;
		h->total[h->n % MAXREADS] = t.last_read;
		h->n++;
	}
}

json_t *ucr_prog_reads_json(struct ucr_prog *w, size_t reg)
{
	const struct rhist *h;
	json_t *a;

	if (!w || !w->reads || reg >= w->nregs || !(h = w->reads[reg]))
		return NULL;
	a = json_array();
	/* the ring in order, from its oldest kept entry */
	for (uint64_t r = h->n > MAXREADS ? h->n - MAXREADS : 0; r < h->n; r++)
		json_array_append_new(a, json_pack("[I, I]", (json_int_t)h->ns[r % MAXREADS],
						   (json_int_t)h->total[r % MAXREADS]));
	return a;
}

void ucr_fmt_addr(char *buf, size_t n, const struct ucm_reginfo *ri)
{
	if (ri->space == UCM_PCI)
		snprintf(buf, n, "%02x:%02x.%x+0x%03x", (unsigned)(ri->addr >> 20 & 0xFF),
			 (unsigned)(ri->addr >> 15 & 31), (unsigned)(ri->addr >> 12 & 7), (unsigned)(ri->addr & 0xFFF));
	else if (ri->space == UCM_MMIO)
		snprintf(buf, n, "BAR+0x%llx", (unsigned long long)ri->addr);
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)ri->addr);
}

json_t *ucr_prog_json(struct ucr_prog *w)
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
		ucr_fmt_addr(addr, sizeof(addr), &ri);
		for (unsigned i = 0; i < r->nvals; i++)
			json_array_append_new(vals, json_integer((json_int_t)r->vals[i]));
		json_array_append_new(a, json_pack("{s:s, s:I, s:s, s:s, s:I, s:I, s:o, s:b, s:I, s:I}", "register",
						   ri.name, "socket", (json_int_t)ri.socket, "space",
						   ri.space == UCM_MSR ? "msr" : ri.space == UCM_PCI ? "pci" : "mmio", "address",
						   addr, "writes",
						   (json_int_t)r->writes, "before", (json_int_t)r->before, "values", vals,
						   "values_more", r->more, "last", (json_int_t)r->last, "now",
						   (json_int_t)now));
	}
	return a;
}

const char *ucr_prog_control_of(struct ucr_prog *w, size_t reg)
{
	static struct ucm_reginfo ri;

	if (!w || build(w) || reg >= w->nregs || !w->ctl[reg] || ucm_reginfo(w->m, w->ctl[reg] - 1, &ri))
		return "";
	return ri.name;
}
