/*
 * uct_vcd.c - the waveform writer (uct_vcd.h).
 *
 * The signals are found from the model's register enumeration: every
 * counter (with its control's enable bit), every box status register, the
 * global status and control of each socket, the box and global freeze and
 * one PMI line per core a PMI_SEL field can select.  At each observation
 * point (ucm_set_observer) the changed values are appended to a scratch
 * file as binary records; only at the end is it known which counters were
 * programmed (their enable was seen set, or a counter without a control
 * changed), so the header declares those (and their boxes' status and
 * freeze) and the records of the others are left out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_file.h"
#include "uct_vcd.h"

enum sig_kind {
	SK_CTR,       /* a counter's value field */
	SK_EN,        /* its control's enable bit */
	SK_BOXST,     /* a box status register's overflow bits */
	SK_BOXFRZ,    /* a box's own freeze */
	SK_GSTATUS,   /* a socket's global status register */
	SK_GCTL,      /* and its global control (stored bits) */
	SK_GFRZ,      /* the socket's global freeze */
	SK_PMI,       /* a PMI line: a 1 ps pulse per delivered PMI */
};

struct sig {
	uint8_t kind, used;
	unsigned width, socket, idx;
	int box;                 /* model box handle, -1: socket level */
	unsigned space;
	uint64_t key, mask;      /* register and the bits shown (shifted down by lo) */
	unsigned lo;
	int en;                  /* SK_CTR: index of its SK_EN signal, -1: none */
	int ctr;                 /* SK_EN/SK_BOXST/SK_BOXFRZ: a counter signal of the box */
	uint64_t init, val;      /* value at the start, latest value */
	uint64_t pmis;           /* SK_PMI: deliveries seen */
	char scope[40], name[40];
};

struct rec {
	uint64_t t;
	uint64_t v;
	uint32_t sig;
	uint32_t pad;
};

struct uct_vcd {
	struct ucm_model *m;
	struct uct_file uf;
	FILE *body;              /* struct rec, in time order */
	struct sig *s;
	size_t ns;
	uint64_t t0, fall_t;     /* start; pending end of PMI pulses (0: none) */
	uint64_t bytes, max;     /* the file's size so far at most, and its limit */
	uint64_t last_t, over_t; /* time of the last record; when max was passed */
	int failed;              /* errno of the scratch file, or EFBIG: max passed */
};

static uint64_t field_mask(unsigned lo, unsigned hi)
{
	unsigned w = hi - lo + 1;

	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int add_sig(struct uct_vcd *v, const struct sig *s)
{
	struct sig *n = realloc(v->s, (v->ns + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	v->s = n;
	v->s[v->ns++] = *s;
	return 0;
}

static void box_scope(struct ucm_model *m, int box, char *buf, size_t n)
{
	const struct ucm_boxinst *bi = ucm_box_def(m, box);

	snprintf(buf, n, "%s%u", bi->type->name, (unsigned)bi->inst);
}

/* The bits of a register that fields of a role hold; their lowest bit. */
static uint64_t role_bits(const struct ucm_layout *l, unsigned role, unsigned *lo)
{
	uint64_t mask = 0;

	*lo = 64;
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct ucm_field *f = &l->fields[i];

		if (f->role != role)
			continue;
		mask |= field_mask(f->lo, f->hi) << f->lo;
		if (f->lo < *lo)
			*lo = f->lo;
	}
	return mask;
}

static unsigned top_bit(uint64_t x)
{
	unsigned w = 0;

	while (x) {
		w++;
		x >>= 1;
	}
	return w ? w : 1;
}

/* A register signal: the bits in mask, shifted down to bit 0. */
static void reg_sig(struct sig *s, const struct ucm_reginfo *ri, uint64_t mask)
{
	unsigned lo = 0;

	while (lo < 63 && !((mask >> lo) & 1))
		lo++;
	s->space = ri->space;
	s->key = ri->addr;
	s->socket = ri->socket;
	s->lo = lo;
	s->mask = mask >> lo;
	s->width = top_bit(s->mask);
}

static int find_sigs(struct uct_vcd *v, char *err, size_t n)
{
	struct ucm_model *m = v->m;
	const struct ucm_platform *p = ucm_platform_of(m);
	size_t nr = ucm_nregs(m);
	int rc = 0, gfrz = (p->ovf_flags & UCM_OVF_FREEZE) != 0;

	/* counters first, then what belongs to their boxes */
	for (size_t i = 0; i < nr && !rc; i++) {
		struct ucm_reginfo ri;
		struct sig s;
		const struct ucm_field *f;

		if (ucm_reginfo(m, i, &ri) || ri.kind != UCM_K_CTR ||
		    !(f = ucm_layout_field(ri.layout, UCM_R_VALUE)))
			continue;
		memset(&s, 0, sizeof(s));
		s.kind = SK_CTR;
		s.box = ucm_box_find(m, ri.socket, ri.box->type->name, ri.box->inst);
		s.idx = ri.idx;
		s.en = s.ctr = -1;
		reg_sig(&s, &ri, field_mask(f->lo, f->hi) << f->lo);
		s.width = f->hi - f->lo + 1u;
		box_scope(m, s.box, s.scope, sizeof(s.scope));
		snprintf(s.name, sizeof(s.name), "ctr%u", ri.idx);
		rc = add_sig(v, &s);
	}
	for (size_t i = 0; i < nr && !rc; i++) {
		struct ucm_reginfo ri;
		struct sig s;
		unsigned lo;
		uint64_t bits;

		if (ucm_reginfo(m, i, &ri))
			continue;
		memset(&s, 0, sizeof(s));
		s.en = s.ctr = -1;
		s.box = ucm_box_find(m, ri.socket, ri.box->type->name, ri.box->inst);
		switch (ri.kind) {
		case UCM_K_CTL:
			if (!(bits = role_bits(ri.layout, UCM_R_EN, &lo)))
				continue;
			s.kind = SK_EN;
			reg_sig(&s, &ri, bits);
			s.idx = ri.idx;
			snprintf(s.name, sizeof(s.name), "ctr%u_en", ri.idx);
			break;
		case UCM_K_BOX_STATUS:
			if (!(bits = role_bits(ri.layout, UCM_R_OVF_STATUS, &lo)))
				continue;
			s.kind = SK_BOXST;
			reg_sig(&s, &ri, bits);
			snprintf(s.name, sizeof(s.name), "status");
			break;
		case UCM_K_BOX_CTL:
			if (!ucm_layout_field(ri.layout, UCM_R_FRZ))
				continue;
			s.kind = SK_BOXFRZ;
			s.socket = ri.socket;
			s.width = 1;
			snprintf(s.name, sizeof(s.name), "frozen");
			break;
		case UCM_K_GLOBAL_STATUS:
		case UCM_K_GLOBAL_CTL:
			/* what software can see: stored bits, not reserved or write-only */
			bits = (ri.rw_mask | ri.ro_mask | ri.w1c_mask) & ~ri.rsvd_mask & ~ri.wo_mask;
			if (!bits)
				continue;
			s.kind = ri.kind == UCM_K_GLOBAL_STATUS ? SK_GSTATUS : SK_GCTL;
			s.box = -1;
			s.space = ri.space;
			s.key = ri.addr;
			s.socket = ri.socket;
			s.mask = ~0ull >> (64 - top_bit(bits));
			s.mask &= bits;
			s.width = top_bit(bits);
			snprintf(s.name, sizeof(s.name), "%s",
				 ri.kind == UCM_K_GLOBAL_STATUS ? "global_status" : "global_ctl");
			if (ri.kind == UCM_K_GLOBAL_CTL && ucm_layout_field(ri.layout, UCM_R_FRZ_ALL))
				gfrz = 1;
			if (ri.kind == UCM_K_GLOBAL_CTL) {
				/* a PMI line for each core the control can select */
				for (unsigned k = 0; k < ri.layout->nfields && !rc; k++) {
					const struct ucm_field *f = &ri.layout->fields[k];
					struct sig pl;

					if (f->role != UCM_R_PMI_SEL || f->arg >= ucm_cpus_per_socket(m))
						continue;
					memset(&pl, 0, sizeof(pl));
					pl.kind = SK_PMI;
					pl.box = pl.en = pl.ctr = -1;
					pl.socket = ri.socket;
					pl.idx = f->arg;
					pl.width = 1;
					snprintf(pl.name, sizeof(pl.name), "pmi_core%u", (unsigned)f->arg);
					rc = add_sig(v, &pl);
				}
			}
			break;
		default:
			continue;
		}
		if (s.box >= 0)
			box_scope(m, s.box, s.scope, sizeof(s.scope));
		if (!rc)
			rc = add_sig(v, &s);
	}
	/* the global freeze of each socket, where the platform has one (FRZ_ALL
	 * or freezing overflows; SKL's FRZ_ON_PMI clears GLOBAL_EN instead,
	 * which global_ctl shows) */
	for (unsigned so = 0; gfrz && so < ucm_nsockets(m) && !rc; so++) {
		struct sig s;

		memset(&s, 0, sizeof(s));
		s.kind = SK_GFRZ;
		s.box = s.en = s.ctr = -1;
		s.socket = so;
		s.width = 1;
		snprintf(s.name, sizeof(s.name), "frozen");
		rc = add_sig(v, &s);
	}
	if (rc) {
		snprintf(err, n, "out of memory");
		return rc;
	}
	/* tie each box's signals to its counters */
	for (size_t i = 0; i < v->ns; i++) {
		struct sig *s = &v->s[i];

		if (s->box < 0 || s->kind == SK_CTR)
			continue;
		for (size_t k = 0; k < v->ns; k++) {
			struct sig *c = &v->s[k];

			if (c->kind != SK_CTR || c->box != s->box)
				continue;
			if (s->kind == SK_EN && c->idx == s->idx)
				c->en = (int)i;
			if (s->ctr < 0 || (s->kind == SK_EN && c->idx == s->idx))
				s->ctr = (int)k;
		}
	}
	return 0;
}

static uint64_t sig_value(struct uct_vcd *v, struct sig *s)
{
	struct ucm_model *m = v->m;
	uint64_t x = 0;

	switch (s->kind) {
	case SK_BOXFRZ:
		return (uint64_t)ucm_box_frozen(m, s->box);
	case SK_GFRZ:
		return (uint64_t)ucm_global_frozen(m, s->socket);
	case SK_PMI:
		return s->val;
	default:
		if (ucm_peek(m, s->space, s->socket, s->key, &x))
			return s->val;
		return (x >> s->lo) & s->mask;
	}
}

static unsigned digits(uint64_t x)
{
	unsigned d = 1;

	while (x >= 10) {
		x /= 10;
		d++;
	}
	return d;
}

static void put(struct uct_vcd *v, uint64_t t, size_t sig, uint64_t val)
{
	struct rec r = { t, val, (uint32_t)sig, 0 };
	const struct sig *s = &v->s[sig];

	if (v->failed)
		return;
	/* what the record takes in the file at most (a hidden signal's record
	 * is dropped there): "#T\n" for a new time, "bVALUE ID\n" or "0ID\n",
	 * identifiers of at most 4 characters */
	if (t != v->last_t)
		v->bytes += 2 + digits(t);
	v->last_t = t;
	v->bytes += s->width == 1 ? 6 : 7 + top_bit(val);
	if (v->bytes > v->max) {
		/* a bounded file, named when hit: nothing more is recorded */
		v->failed = EFBIG;
		v->over_t = t;
		return;
	}
	if (fwrite(&r, sizeof(r), 1, v->body) != 1)
		v->failed = errno ? errno : EIO;
}

static void sample(struct uct_vcd *v, uint64_t t)
{
	struct ucm_model *m = v->m;

	/* PMI pulses end 1 ps after they start (before anything later) */
	if (v->fall_t && t >= v->fall_t) {
		for (size_t i = 0; i < v->ns; i++)
			if (v->s[i].kind == SK_PMI && v->s[i].val) {
				v->s[i].val = 0;
				put(v, v->fall_t, i, 0);
			}
		v->fall_t = 0;
	}
	for (size_t i = 0; i < v->ns; i++) {
		struct sig *s = &v->s[i];
		uint64_t x;

		if (s->kind == SK_PMI) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(m, s->socket, s->idx, &st);
			if (st.delivered != s->pmis) {
				s->pmis = st.delivered;
				s->val = 1;
				put(v, t, i, 1);
				v->fall_t = t + 1;
			}
			continue;
		}
		x = sig_value(v, s);
		if (x != s->val) {
			s->val = x;
			put(v, t, i, x);
		}
		if (s->kind == SK_EN && x && s->ctr >= 0)
			v->s[s->ctr].used = 1;
		else if (s->kind == SK_CTR && s->en < 0 && x != s->init)
			s->used = 1;
	}
}

static void observe(void *ctx, struct ucm_model *m, unsigned point, uint64_t t_ps)
{
	(void)m;
	(void)point;
	sample(ctx, t_ps);
}

int uct_vcd_open(struct ucm_model *m, const char *path, uint64_t max_bytes, struct uct_vcd **out,
		 char *err, size_t n)
{
	struct uct_vcd *v = calloc(1, sizeof(*v));
	int rc;

	*out = NULL;
	if (!v) {
		snprintf(err, n, "out of memory");
		return -ENOMEM;
	}
	v->m = m;
	if ((rc = uct_file_open(&v->uf, path, err, n))) {
		free(v);
		return rc;
	}
	if (!(v->body = tmpfile())) {
		rc = -errno;
		snprintf(err, n, "%s: scratch file: %s", path, strerror(errno));
		uct_file_abort(&v->uf);
		free(v);
		return rc;
	}
	if ((rc = find_sigs(v, err, n))) {
		uct_vcd_close(v);
		return rc;
	}
	v->t0 = v->last_t = ucm_now_ps(m);
	v->max = max_bytes ? max_bytes : UCT_VCD_MAX_BYTES;
	/* the header and the initial values: some 100 bytes a signal */
	v->bytes = 256 + 100 * (uint64_t)v->ns;
	for (size_t i = 0; i < v->ns; i++) {
		struct sig *s = &v->s[i];

		s->val = s->init = s->kind == SK_PMI ? 0 : sig_value(v, s);
		if (s->kind == SK_PMI) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(m, s->socket, s->idx, &st);
			s->pmis = st.delivered;
		}
		if (s->kind == SK_EN && s->val && s->ctr >= 0)
			v->s[s->ctr].used = 1;
	}
	ucm_set_observer(m, observe, v);
	*out = v;
	return 0;
}

/* A box's signals are shown when one of its counters is; socket-level
 * signals always. */
static int shown(const struct uct_vcd *v, const struct sig *s)
{
	if (s->box < 0)
		return 1;
	if (s->kind == SK_CTR)
		return s->used;
	if (s->kind == SK_EN)
		return s->ctr >= 0 && v->s[s->ctr].used;
	for (size_t k = 0; k < v->ns; k++)
		if (v->s[k].kind == SK_CTR && v->s[k].box == s->box && v->s[k].used)
			return 1;
	return 0;
}

/* VCD identifier code of signal i: printable ASCII '!'..'~', base 94. */
static void ident(size_t i, char *buf)
{
	size_t k = 0;

	do {
		buf[k++] = (char)('!' + i % 94);
		i /= 94;
	} while (i);
	buf[k] = 0;
}

static void put_value(FILE *f, const struct sig *s, uint64_t x, const char *id)
{
	if (s->width == 1) {
		fprintf(f, "%c%s\n", x ? '1' : '0', id);
		return;
	}
	fputc('b', f);
	for (int b = (int)top_bit(x) - 1; b >= 0; b--)
		fputc((x >> b) & 1 ? '1' : '0', f);
	fprintf(f, " %s\n", id);
}

static int cmp_scope(const void *a, const void *b)
{
	const struct sig *x = *(const struct sig *const *)a, *y = *(const struct sig *const *)b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	/* socket-level signals first, then the boxes in model order */
	if (x->box != y->box)
		return x->box < y->box ? -1 : 1;
	/* in a socket: global control, status, freeze, then the PMI lines by
	 * core; in a box: as found (counters by index, then the rest) */
	if (x->box < 0 && (x->kind != y->kind || x->idx != y->idx)) {
		static const uint8_t rank[] = { [SK_GCTL] = 0, [SK_GSTATUS] = 1, [SK_GFRZ] = 2, [SK_PMI] = 3 };

		if (rank[x->kind] != rank[y->kind])
			return rank[x->kind] < rank[y->kind] ? -1 : 1;
		return x->idx < y->idx ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static int write_file(struct uct_vcd *v, FILE *f)
{
	const struct ucm_platform *p = ucm_platform_of(v->m);
	struct sig **ord = malloc((v->ns ? v->ns : 1) * sizeof(*ord));
	uint8_t *show = calloc(v->ns ? v->ns : 1, 1);
	size_t no = 0;
	unsigned cur_sock = ~0u;
	int cur_box = -2;
	char id[8];
	uint64_t last_t = UINT64_MAX;
	struct rec r;

	if (!ord || !show) {
		free(ord);
		free(show);
		return -ENOMEM;
	}
	for (size_t i = 0; i < v->ns; i++)
		if ((show[i] = (uint8_t)shown(v, &v->s[i])))
			ord[no++] = &v->s[i];
	qsort(ord, no, sizeof(*ord), cmp_scope);
	fprintf(f, "$comment\n  uncore model of the %s (%s), %u socket%s; "
		   "docs/formats.md, \"Waveforms\"\n$end\n",
		p->title, p->name, ucm_nsockets(v->m), ucm_nsockets(v->m) == 1 ? "" : "s");
	fprintf(f, "$version uncore 0.1.0 $end\n$timescale 1 ps $end\n$scope module uncore $end\n");
	for (size_t k = 0; k < no; k++) {
		const struct sig *s = ord[k];

		if (s->socket != cur_sock) {
			if (cur_box >= 0)
				fprintf(f, "$upscope $end\n");
			if (cur_sock != ~0u)
				fprintf(f, "$upscope $end\n");
			fprintf(f, "$scope module socket%u $end\n", s->socket);
			cur_sock = s->socket;
			cur_box = -1;
		}
		if (s->box != cur_box) {
			if (cur_box >= 0)
				fprintf(f, "$upscope $end\n");
			fprintf(f, "$scope module %s $end\n", s->scope);
			cur_box = s->box;
		}
		ident((size_t)(s - v->s), id);
		if (s->width == 1)
			fprintf(f, "$var wire 1 %s %s $end\n", id, s->name);
		else
			fprintf(f, "$var wire %u %s %s [%u:0] $end\n", s->width, id, s->name,
				s->width - 1);
	}
	if (cur_box >= 0)
		fprintf(f, "$upscope $end\n");
	if (cur_sock != ~0u)
		fprintf(f, "$upscope $end\n");
	fprintf(f, "$upscope $end\n$enddefinitions $end\n#%" PRIu64 "\n$dumpvars\n", v->t0);
	for (size_t k = 0; k < no; k++) {
		ident((size_t)(ord[k] - v->s), id);
		put_value(f, ord[k], ord[k]->init, id);
	}
	fprintf(f, "$end\n");
	last_t = v->t0;
	rewind(v->body);
	while (fread(&r, sizeof(r), 1, v->body) == 1) {
		if (r.sig >= v->ns || !show[r.sig])
			continue;
		if (r.t != last_t) {
			fprintf(f, "#%" PRIu64 "\n", r.t);
			last_t = r.t;
		}
		ident(r.sig, id);
		put_value(f, &v->s[r.sig], r.v, id);
	}
	/* the end of the run, so that a viewer shows the last values */
	if (ucm_now_ps(v->m) > last_t)
		fprintf(f, "#%" PRIu64 "\n", ucm_now_ps(v->m));
	free(ord);
	free(show);
	return ferror(v->body) ? -EIO : 0;
}

int uct_vcd_commit(struct uct_vcd *v, char *err, size_t n)
{
	int rc;

	ucm_set_observer(v->m, NULL, NULL);
	sample(v, ucm_now_ps(v->m));
	if (v->fall_t)
		sample(v, v->fall_t);
	if (v->failed == EFBIG) {
		snprintf(err, n, "%s: the waveform would be more than %" PRIu64 " bytes, the most a waveform may have (UCT_VCD_MAX_BYTES or UNCORE_VCD_MAX_BYTES), at %.6f s of machine time: nothing written",
			 v->uf.path, v->max, (double)v->over_t / 1e12);
		uct_vcd_close(v);
		return -EFBIG;
	}
	if (fflush(v->body) || v->failed) {
		rc = -(v->failed ? v->failed : errno);
		snprintf(err, n, "%s: scratch file: %s", v->uf.path, strerror(-rc));
		uct_vcd_close(v);
		return rc;
	}
	if ((rc = write_file(v, v->uf.f))) {
		snprintf(err, n, "%s: %s", v->uf.path, strerror(-rc));
		uct_vcd_close(v);
		return rc;
	}
	rc = uct_file_commit(&v->uf, err, n);
	v->uf.f = NULL;
	fclose(v->body);
	free(v->s);
	free(v);
	return rc;
}

void uct_vcd_close(struct uct_vcd *v)
{
	if (!v)
		return;
	ucm_set_observer(v->m, NULL, NULL);
	if (v->uf.f)
		uct_file_abort(&v->uf);
	if (v->body)
		fclose(v->body);
	free(v->s);
	free(v);
}
