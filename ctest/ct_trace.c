/*
 * ct_trace.c - what the event-trace tests share (see ct_trace.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_trace.h"

uint64_t ct_trace_rng;

uint64_t ct_trace_rnd(void)
{
	uint64_t z = (ct_trace_rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

const struct ucm_platform *ct_skl(void)
{
	return ucm_platform_find("skl");
}

void ct_tmpname(char *buf, size_t n, const char *what)
{
	snprintf(buf, n, "/tmp/uncore-t-%d-%s", (int)getpid(), what);
}

void ct_random_seg(struct uct_seg *s, uint64_t start, int longruns)
{
	const struct ucm_platform *p = ct_skl();
	static const char *const boxes[] = { "cbo", "arb", "imc" };

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = longruns ? 1 + ct_trace_rnd() % 5000 : 1 + ct_trace_rnd() % 40;
	for (unsigned b = 0; b < 3; b++) {
		const struct ucm_boxtype *bt = ucm_boxtype_find(p, boxes[b]);
		unsigned ni = bt->ninst_default;

		for (unsigned c = 0; c < bt->ncodes; c++) {
			const struct ucm_evcode *ec = &bt->codes[c];
			unsigned nsub = ec->nsubs ? ec->nsubs : 1, first = 0;

			for (unsigned k = 0; k < c; k++)
				first += bt->codes[k].nsubs ? bt->codes[k].nsubs : 1;
			for (unsigned inst = 0; inst < ni; inst++) {
				/* at most the max, on one random sub-event */
				if (ct_trace_rnd() % 3 == 0)
					continue;
				s->in[s->nin++] = (struct uct_in){ .bt = (uint8_t)ucm_boxtype_index(p, bt),
								   .inst = (int16_t)(ni > 1 ? (int)inst : 0),
								   .sub = (uint16_t)(first + ct_trace_rnd() % nsub),
								   .inc = (uint32_t)(ct_trace_rnd() % (ec->max_inc + 1)) };
			}
		}
	}
}

int ct_write_random(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[512];
	uint64_t t = 0;
	int rc;

	memset(&h, 0, sizeof(h));
	h.plat = ct_skl();
	h.sockets = 1;
	h.seed = seed;
	ct_trace_rng = seed;
	if ((rc = uct_writer_open(path, binary, &h, &w, err, sizeof(err)))) {
		free(s);
		return rc;
	}
	for (unsigned i = 0; i < nseg; i++) {
		t += ct_trace_rnd() % 4 == 0 ? ct_trace_rnd() % 100 : 0; /* some gaps */
		ct_random_seg(s, t, longruns);
		if ((rc = uct_write(w, s))) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			uct_writer_abort(w);
			free(s);
			return rc;
		}
		t += s->ncycles;
	}
	free(s);
	return uct_writer_commit(w);
}

int ct_same_file(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	int same = x && y;

	while (same) {
		int c = getc(x), d = getc(y);

		if (c != d)
			same = 0;
		if (c == EOF || d == EOF)
			break;
	}
	if (x)
		fclose(x);
	if (y)
		fclose(y);
	return same;
}

int ct_convert(const char *in, const char *out, int binary)
{
	struct uct_reader *r;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	int rc;

	if ((rc = uct_open(in, &r, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		free(s);
		return rc;
	}
	if ((rc = uct_writer_open(out, binary, uct_header(r), &w, err, sizeof(err)))) {
		uct_close(r);
		free(s);
		return rc;
	}
	while ((rc = uct_next(r, s)) > 0)
		if ((rc = uct_write(w, s)))
			break;
	if (rc < 0) {
		fprintf(stderr, "%s\n", uct_reader_error(r));
		uct_writer_abort(w);
	} else {
		rc = uct_writer_commit(w);
	}
	uct_close(r);
	free(s);
	return rc;
}

struct ucm_model *ct_fresh_model(void)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, ct_skl());
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	return ucm_create(&cfg, &m) ? NULL : m;
}

size_t ct_load(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, cap, f) : 0;

	if (f)
		fclose(f);
	return n;
}

const struct ucm_platform *ct_snbep(void)
{
	return ucm_platform_find("snbep");
}

int ct_bt_index(const struct ucm_platform *p, const char *name)
{
	return ucm_boxtype_index(p, ucm_boxtype_find(p, name));
}

void ct_snbep_hdr(struct uct_hdr *h, uint64_t seed)
{
	static const uint64_t uclk[] = { 2700000000ull, 3100000000ull, 2000000000ull };
	static const uint64_t dclk[] = { 0, 667000000ull, 933000000ull, 800000000ull };
	static const uint64_t qclk[] = { 1200000000ull, 0 };

	memset(h, 0, sizeof(*h));
	h->plat = ct_snbep();
	h->sockets = 2;
	h->seed = seed;
	h->clock_hz[0] = uclk[seed % 3];
	h->clock_hz[1] = dclk[seed % 4];
	h->clock_hz[2] = seed & 4 ? 1000000000ull : 0;
	h->clock_hz[3] = qclk[seed % 2];
	if (seed % 5 == 0)
		h->ninst[ct_bt_index(h->plat, "cbo")] = 6;
}

static unsigned hdr_ninst(const struct uct_hdr *h, const struct ucm_boxtype *bt)
{
	int i = ucm_boxtype_index(h->plat, bt);

	return h->ninst[i] ? h->ninst[i] : bt->ninst_default;
}

const uint64_t ct_test_addrs[4] = { 0x0, 0x12345000, 0x2F3C5A7B1C0, 0x12345FC0 };

/* A value a filter field could hold for an attribute. */
static uint64_t random_attr(unsigned a)
{
	static const uint16_t opc[] = { 0x180, 0x181, 0x182, 0x187, 0x190, 0x1C4, 0x1C8, 0x19C };

	switch (a) {
	case UCM_AT_STATE: return ct_trace_rnd() % 5;
	case UCM_AT_OPC: return ct_trace_rnd() % 2 ? opc[ct_trace_rnd() % 8] : ct_trace_rnd() % 0x40;
	case UCM_AT_NID: return ct_trace_rnd() % 4;
	case UCM_AT_TID: return ct_trace_rnd() % 16;
	case UCM_AT_MC: return ct_trace_rnd() % 16;
	case UCM_AT_VNW: return ct_trace_rnd() % 4;
	case UCM_AT_DNID:
	case UCM_AT_RNID: return ct_trace_rnd() % 4;
	case UCM_AT_RDS: return ct_trace_rnd() % 2 ? 0 : 1u << ct_trace_rnd() % 4;
	case UCM_AT_ADDR: return ct_test_addrs[ct_trace_rnd() % 4];
	default: return ct_trace_rnd() % 40; /* frequency, 100 MHz */
	}
}

void ct_random_snbep_seg(const struct uct_hdr *h, struct uct_seg *s, uint64_t start, int longruns)
{
	const struct ucm_platform *p = h->plat;
	unsigned tries = 5 + (unsigned)(ct_trace_rnd() % 60);
	char err[256];

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = longruns ? 1 + ct_trace_rnd() % 5000 : 1 + ct_trace_rnd() % 40;
	for (unsigned t = 0; t < tries && s->nin < UCT_MAXIN; t++) {
		const struct ucm_boxtype *bt = p->boxes[ct_trace_rnd() % p->nboxes].type;
		const struct ucm_evcode *ec;
		struct uct_in *in = &s->in[s->nin];
		unsigned c, first = 0;

		if (!bt->nctr)
			continue;
		c = (unsigned)(ct_trace_rnd() % bt->ncodes);
		ec = &bt->codes[c];
		if (ec->flags & UCM_EC_CLOCK)
			continue; /* the clock is no input */
		for (unsigned k = 0; k < c; k++)
			first += bt->codes[k].nsubs ? bt->codes[k].nsubs : 1;
		memset(in, 0, sizeof(*in));
		in->socket = (uint8_t)(ct_trace_rnd() % h->sockets);
		in->bt = (uint8_t)ucm_boxtype_index(p, bt);
		in->inst = (int16_t)(ct_trace_rnd() % 3 == 0 ? -1 : (int)(ct_trace_rnd() % hdr_ninst(h, bt)));
		in->sub = (uint16_t)(first + ct_trace_rnd() % (ec->nsubs ? ec->nsubs : 1));
		in->inc = (uint32_t)(ct_trace_rnd() % (ec->max_inc + 1u));
		for (unsigned r = 0; r < ec->nrules; r++)
			if (ct_trace_rnd() % 2) {
				in->amask |= (uint16_t)(1u << ec->rules[r].attr);
				in->attr[ec->rules[r].attr] = random_attr(ec->rules[r].attr);
			}
		s->nin++;
		if (uct_seg_check(h, s, err, sizeof(err)))
			s->nin--;
	}
	for (unsigned so = 0; so < h->sockets; so++)
		s->asleep[so] = ct_trace_rnd() % 3 == 0 ? ct_trace_rnd() & 0xFF : 0;
}

int ct_write_random_snbep(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns,
			  struct uct_seg *segs)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[512];
	uint64_t t = 0;
	int rc;

	ct_snbep_hdr(&h, seed);
	ct_trace_rng = seed * 31;
	if (!s || (rc = uct_writer_open(path, binary, &h, &w, err, sizeof(err)))) {
		free(s);
		return -1;
	}
	for (unsigned i = 0; i < nseg; i++) {
		t += ct_trace_rnd() % 4 == 0 ? ct_trace_rnd() % 100 : 0; /* some gaps */
		ct_random_snbep_seg(&h, s, t, longruns);
		if (segs)
			segs[i] = *s;
		if ((rc = uct_write(w, s))) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			uct_writer_abort(w);
			free(s);
			return rc;
		}
		t += s->ncycles;
	}
	free(s);
	return uct_writer_commit(w);
}

struct ucm_model *ct_snbep_model(const struct uct_hdr *h)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	uct_config(h, &cfg);
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	return ucm_create(&cfg, &m) ? NULL : m;
}

unsigned ct_vector_of(unsigned i, unsigned nd)
{
	return i < nd ? i + 1 : (i % 2 ? i - nd + 1 : nd - (i - nd));
}

void ct_cbo_lookups(struct uct_seg *s, uint64_t start, unsigned v, int cbo, int sub)
{
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = 1;
	for (unsigned b = 0; b < 16; b++)
		if (v >> b & 1)
			s->in[s->nin++] = (struct uct_in){ .socket = (uint8_t)(b / 8), .bt = (uint8_t)cbo,
							   .inst = (int16_t)(b % 8), .sub = (uint16_t)sub,
							   .inc = 1 };
}

int ct_gen_hdr(const char *path, const struct uct_hdr *h, const struct uct_gen_opts *o, char *err,
	       size_t n)
{
	struct uct_writer *w;
	int rc;

	if ((rc = uct_writer_open(path, 1, h, &w, err, n)))
		return rc;
	if ((rc = uct_generate(h, o, w, err, n))) {
		uct_writer_abort(w);
		return rc;
	}
	return uct_writer_commit(w);
}
