/*
 * uct_gen.c - generators of realistic event traces, deterministic per seed.
 *
 * Inputs are 0/1 (or small integers) per cycle, so a rate below one per
 * cycle is made by time slicing: in each slice of P cycles an input is on
 * for k cycles, with k carried by an error accumulator so that the long-run
 * average is exact.  Inputs of one slice are merged into the few segments
 * between their switch-off points; identical neighbours are coalesced.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_gen.h"

struct stream {
	struct uct_in in;
	struct uct_in with;  /* a second input on in the same cycles, if inc */
	double rate;        /* fraction of cycles on */
	double acc;
	unsigned group;     /* streams of one group never overlap (one event code) */
	uint64_t from, to;  /* on within the current slice */
};

struct mix {
	const struct uct_hdr *h;
	struct uct_writer *w;
	struct stream s[UCT_MAXIN];
	unsigned n;
	struct uct_seg pend;
	int have_pend;
	uint64_t t;
	uint64_t rng;
	struct uct_seg tmpl;
	char *err;
	size_t errn;
};


static int same_inputs(const struct uct_seg *a, const struct uct_seg *b)
{
	return a->nin == b->nin && !memcmp(a->in, b->in, a->nin * sizeof(a->in[0]));
}

static int flush(struct mix *m)
{
	if (m->have_pend && uct_write(m->w, &m->pend)) {
		snprintf(m->err, m->errn, "%s", uct_writer_error(m->w));
		return -EIO;
	}
	m->have_pend = 0;
	return 0;
}

static int emit(struct mix *m, uint64_t start, uint64_t len, const struct uct_seg *tmpl)
{
	if (!len)
		return 0;
	if (m->have_pend && m->pend.start + m->pend.ncycles == start && same_inputs(&m->pend, tmpl)) {
		m->pend.ncycles += len;
		return 0;
	}
	if (flush(m))
		return -EIO;
	m->pend.start = start;
	m->pend.ncycles = len;
	m->pend.nin = tmpl->nin;
	memcpy(m->pend.in, tmpl->in, tmpl->nin * sizeof(tmpl->in[0]));
	m->have_pend = 1;
	return 0;
}

/* One slice of p cycles: each stream is on for its share of the slice;
 * streams of one group follow each other, the others start together. */
static int slice(struct mix *m, uint64_t p)
{
	uint64_t cuts[2 * UCT_MAXIN + 4], gend[UCT_MAXIN + 1];
	unsigned nc = 0;
	struct uct_seg *tmpl = &m->tmpl;

	memset(gend, 0, sizeof(gend));
	for (unsigned i = 0; i < m->n; i++) {
		struct stream *s = &m->s[i];
		double want = s->rate * (double)p + s->acc;
		uint64_t on = want <= 0 ? 0 : (uint64_t)want;

		s->from = s->group ? gend[s->group] : 0;
		if (on > p - s->from)
			on = p - s->from;
		s->acc = want - (double)on;
		s->to = s->from + on;
		if (s->group)
			gend[s->group] = s->to;
		cuts[nc++] = s->from;
		cuts[nc++] = s->to;
	}
	cuts[nc++] = 0;
	cuts[nc++] = p;
	/* sort the cut points (few: insertion sort) */
	for (unsigned i = 1; i < nc; i++)
		for (unsigned j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
			uint64_t x = cuts[j];

			cuts[j] = cuts[j - 1];
			cuts[j - 1] = x;
		}
	for (unsigned c = 1; c < nc; c++) {
		uint64_t from = cuts[c - 1], to = cuts[c];

		if (to <= from)
			continue;
		tmpl->nin = 0;
		for (unsigned i = 0; i < m->n; i++)
			if (m->s[i].from <= from && m->s[i].to >= to) {
				tmpl->in[tmpl->nin++] = m->s[i].in;
				if (m->s[i].with.inc)
					tmpl->in[tmpl->nin++] = m->s[i].with;
			}
		if (emit(m, m->t + from, to - from, tmpl))
			return -EIO;
	}
	m->t += p;
	return 0;
}

static int add(struct mix *m, const char *box, int inst, const char *sub, uint32_t inc, double rate,
	       unsigned group)
{
	const struct ucm_platform *p = m->h->plat;
	const struct ucm_boxtype *bt = ucm_boxtype_find(p, box);
	int s;

	if (!bt || (s = ucm_subev_find(bt, sub)) < 0) {
		snprintf(m->err, m->errn, "this generator needs %s.%s, which %s lacks", box, sub, p->name);
		return -EINVAL;
	}
	if (rate < 0 || rate > 1) {
		snprintf(m->err, m->errn, "%s.%s: rate %.4f per cycle outside 0..1", box, sub, rate);
		return -ERANGE;
	}
	if (m->n == UCT_MAXIN) {
		snprintf(m->err, m->errn, "too many inputs");
		return -ENOSPC;
	}
	m->s[m->n].in = (struct uct_in){ 0, (uint8_t)ucm_boxtype_index(p, bt), (int16_t)inst,
					 (uint16_t)s, inc };
	m->s[m->n].with.inc = 0;
	m->s[m->n].rate = rate;
	m->s[m->n].acc = 0;
	m->s[m->n].group = group;
	m->n++;
	return 0;
}

static uint64_t hz0(const struct uct_hdr *h)
{
	return h->clock_hz[0] ? h->clock_hz[0] : h->plat->clocks[0].hz_default;
}

static unsigned ninst(const struct uct_hdr *h, const char *box)
{
	const struct ucm_boxtype *bt = ucm_boxtype_find(h->plat, box);
	int i = bt ? ucm_boxtype_index(h->plat, bt) : -1;

	return i < 0 ? 0 : h->ninst[i] ? h->ninst[i] : bt->ninst_default;
}

static const char *const kinds[] = { "stream", "llc", "burst", "idle", NULL };

const char *const *uct_gen_kinds(void)
{
	return kinds;
}

int uct_generate(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		 char *err, size_t n)
{
	struct mix *m = calloc(1, sizeof(*m));
	uint64_t hz = hz0(h), total, p = o->period ? o->period : 300000;
	double lines;
	int rc = 0;

	if (!m)
		return -ENOMEM;
	m->h = h;
	m->w = w;
	m->err = err;
	m->errn = n;
	m->rng = o->seed;
	if (!(o->seconds > 0) || o->seconds > 1e5) {
		snprintf(err, n, "duration %.3f s outside (0, 1e5]", o->seconds);
		free(m);
		return -ERANGE;
	}
	total = (uint64_t)llround(o->seconds * (double)hz);
	if (strcmp(h->plat->name, "skl")) {
		snprintf(err, n, "generators exist for skl only so far");
		free(m);
		return -ENOTSUP;
	}
	/* 64-byte lines per uclk cycle for a bandwidth in GB/s (1e9 B/s) */
	lines = o->gbps * 1e9 / 64.0 / (double)hz;
	if (!strcmp(o->kind, "stream")) {
		double rr = o->read_ratio;

		if (rr < 0 || rr > 1 || lines * rr > 1 || lines * (1 - rr) > 1) {
			snprintf(err, n,
				 "%.3f GB/s with read share %.2f needs more than one 64-byte transfer per uclk cycle each way (max %.1f GB/s)",
				 o->gbps, rr, 64.0 * (double)hz / 1e9);
			free(m);
			return -ERANGE;
		}
		rc = add(m, "imc", 0, "DRAM_DATA_READS", 1, lines * rr, 0);
		if (!rc)
			rc = add(m, "imc", 0, "DRAM_IA_REQUESTS", 1, lines < 1 ? lines : 1, 0);
		if (!rc)
			rc = add(m, "imc", 0, "DRAM_DATA_WRITES", 1, lines * (1 - rr), 0);
		/* the misses behind the reads, spread over the slices */
		if (!rc)
			rc = add(m, "cbo", -1, "CACHE_LOOKUP.READ_I", 1, lines * rr / ninst(h, "cbo"), 1);
		if (!rc)
			rc = add(m, "cbo", -1, "CACHE_LOOKUP.WRITE_M", 1, lines * (1 - rr) / ninst(h, "cbo"), 1);
		if (!rc)
			rc = add(m, "arb", 0, "TRK_REQUESTS.NONWRITES", 1, lines * rr, 2);
		if (!rc)
			rc = add(m, "arb", 0, "TRK_REQUESTS.WRITES", 1, lines * (1 - rr), 2);
	} else if (!strcmp(o->kind, "llc")) {
		double hit = o->hit_ratio, look = o->lookups;
		unsigned nc = ninst(h, "cbo");

		if (hit < 0 || hit > 1 || look < 0 || look > 1) {
			snprintf(err, n, "hit ratio %.3f and lookups per cycle per CBo %.3f must be in 0..1",
				 hit, look);
			free(m);
			return -ERANGE;
		}
		/* hits on every CBo together; each CBo's misses in cycles of their
		 * own, each with its DRAM read (one per cycle at most) */
		if (look * hit + nc * look * (1 - hit) > 1) {
			snprintf(err, n,
				 "%.3f lookups per cycle with %.0f%% hits need more than one DRAM read per cycle",
				 look, 100 * hit);
			free(m);
			return -ERANGE;
		}
		rc = add(m, "imc", 0, "DRAM_DATA_READS", 1, 0, 0);
		if (!rc) {
			struct uct_in dram = m->s[0].in;

			m->n = 0; /* only a template for the misses' companion */
			rc = add(m, "cbo", -1, "CACHE_LOOKUP.READ_E", 1, look * hit, 1);
			for (unsigned i = 0; !rc && i < nc; i++) {
				rc = add(m, "cbo", (int)i, "CACHE_LOOKUP.READ_I", 1, look * (1 - hit), 1);
				m->s[m->n - 1].with = dram;
			}
		}
	} else if (!strcmp(o->kind, "burst")) {
		if (!(o->duty >= 0 && o->duty <= 1) || !o->burst_ns) {
			snprintf(err, n, "burst needs a duty cycle in 0..1 and a burst length");
			free(m);
			return -ERANGE;
		}
		p = (uint64_t)((double)o->burst_ns * 1e-9 * (double)hz / (o->duty > 0 ? o->duty : 1));
		if (!p)
			p = 1;
		rc = add(m, "imc", 0, "DRAM_DATA_READS", 1, o->duty, 0);
		if (!rc)
			rc = add(m, "cbo", -1, "CACHE_LOOKUP.READ_I", 1, o->duty, 0);
		if (!rc)
			rc = add(m, "arb", 0, "TRK_REQUESTS.NONWRITES", 1, o->duty, 0);
	} else if (strcmp(o->kind, "idle")) {
		snprintf(err, n, "unknown generator '%s' (stream, llc, burst, idle)", o->kind);
		rc = -EINVAL;
	}
	if (rc) {
		free(m);
		return rc;
	}
	/* LLC: misses take the slice cycles the hits leave, so a CBo never
	 * does two lookups in one cycle: run the miss stream after the hits */
	while (!rc && m->t < total) {
		/* slices jittered +-25% from the seed: rates stay exact */
		uint64_t jp = p - p / 4 + (p / 2 ? uct_rand(&m->rng) % (p / 2 + 1) : 0);
		uint64_t len = total - m->t < jp ? total - m->t : jp;

		{
			rc = slice(m, len);
		}
	}
	if (!rc)
		rc = flush(m);
	free(m);
	return rc;
}
