/*
 * ucd_parse.c - event strings: names from the tables, raw and perf-style
 * PMU/terms/ events, and Linux perf's names for the tables' events.
 *
 * An event list is comma-separated; commas inside PMU/terms/ separate
 * terms.  Every error names the token, the column where it starts (1-based,
 * in the whole list) and what was expected.  Placement (ucd_place.c)
 * follows.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ucd_internal.h"

struct tok {
	const char *s;
	size_t len, col;
};

static int tokerr(struct ucd *d, const struct tok *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int tokerr(struct ucd *d, const struct tok *t, size_t col, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* a long token is cut so the column and the reason always show */
	if (t->len > 64)
		return ucd_seterr(d, -EINVAL, "event '%.60s...' (col %zu): %s", t->s, col, msg);
	return ucd_seterr(d, -EINVAL, "event '%.*s' (col %zu): %s", (int)t->len, t->s, col, msg);
}

static int teq(const char *a, size_t n, const char *b)
{
	return b && strlen(b) == n && strncasecmp(a, b, n) == 0;
}

static int parse_num(const char *s, size_t n, uint64_t *v);

/* A row matches by full name, alias, or the name without UNC_<BOX>_. */
static int row_matches(const struct ucm_event *e, const char *s, size_t n)
{
	const char *p;

	if (teq(s, n, e->name) || teq(s, n, e->alias))
		return 1;
	if (strncmp(e->name, "UNC_", 4) == 0 && (p = strchr(e->name + 4, '_')) != NULL)
		return teq(s, n, p + 1);
	return 0;
}

/* The named event s means (of box type bt, or any when NULL): the
 * platform's tables first, then an event file's. */
static const struct ucm_event *find_named(const struct ucd *d, const struct ucm_boxtype *bt,
					  const char *s, size_t n)
{
	for (unsigned k = 0; k < d->plat->nevents; k++)
		if ((!bt || d->plat->events[k].box == bt) && row_matches(&d->plat->events[k], s, n))
			return &d->plat->events[k];
	for (size_t k = 0; k < d->nxev; k++)
		if ((!bt || d->xev[k].box == bt) && row_matches(&d->xev[k], s, n))
			return &d->xev[k];
	return NULL;
}

void ucd_set_xevents(struct ucd *d, const struct ucm_event *ev, size_t n)
{
	d->xev = ev;
	d->nxev = ev ? n : 0;
}

static const struct ucm_layout *ctl_layout(const struct ucm_boxtype *bt)
{
	const struct ucm_regdef *rd = ucm_regdef_find(bt, UCM_K_CTL, 0);

	return rd ? rd->layout : NULL;
}

/* EV_SEL and, for codes above 0xFF, the extra select bit. */
static uint64_t put_code(const struct ucm_layout *l, uint64_t ctl, unsigned code)
{
	ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EVSEL), ctl, code & 0xFF);
	return ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), ctl, code >> 8);
}

/* Filter register .idx of a box type, or NULL. */
static const struct ucm_layout *filter_layout(const struct ucm_boxtype *bt, unsigned idx)
{
	const struct ucm_regdef *rd = ucm_regdef_find(bt, UCM_K_FILTER, idx);

	return rd ? rd->layout : NULL;
}

static const struct ucm_field *field_arg(const struct ucm_layout *l, unsigned role, unsigned arg)
{
	for (unsigned i = 0; l && i < l->nfields; i++)
		if (l->fields[i].role == role && l->fields[i].arg == arg)
			return &l->fields[i];
	return NULL;
}

/* A field of any of the box's filter registers, and that register's .idx. */
static const struct ucm_field *filter_field(const struct ucm_boxtype *bt, unsigned role,
					    unsigned arg, unsigned *idx)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_field *f = field_arg(filter_layout(bt, k), role, arg);

		if (f) {
			*idx = k;
			return f;
		}
	}
	return NULL;
}

static int any_filter(const struct ucd_ev *e)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++)
		if (e->filt_mask[k])
			return 1;
	return 0;
}

/* Every field bit of a register layout. */
static uint64_t layout_bits(const struct ucm_layout *l)
{
	uint64_t m = 0;

	for (unsigned i = 0; l && i < l->nfields; i++)
		m |= ucm_field_mask(&l->fields[i]);
	return m;
}

/* Terms beyond perf's generic five, as Linux names them for these boxes:
 * control fields, box filter fields (Xeon 2.3.3.3, 2.6.3.2), and the
 * packet fields an attribute spreads over (HA address, 2.4.3; QPI match
 * and mask, 2.7.3.3), singly or as whole registers. */
enum xkind {
	XT_CTL,       /* a control field, by role */
	XT_FIELD,     /* a filter field, by role and .arg */
	XT_MATCH,     /* every match-side filter field of the role (UCM_FA_*) */
	XT_MASK,      /* every mask-side filter field of the role */
	XT_REG_MATCH, /* the whole register that holds the role's match field */
	XT_REG_MASK,  /* the whole register that holds the role's mask field */
	XT_FNAME,     /* a filter field by its table name (.fname) */
};

/* part: a gathered term that holds only attribute bits alo..ahi (perf's
 * match_rnid30 and match_rnid4 halves of the QPI RNID); input only. */
static const struct xterm {
	const char *name;
	uint8_t kind, role, arg;
	uint8_t part, alo, ahi;
	const char *fname;
} xterms[] = {
	{ "occ_sel", XT_CTL, UCM_R_OCC_SEL, 0, 0, 0, 0, NULL },
	{ "occ_invert", XT_CTL, UCM_R_OCC_INV, 0, 0, 0, 0, NULL },
	{ "occ_edge", XT_CTL, UCM_R_OCC_EDGE, 0, 0, 0, 0, NULL },
	{ "tid_en", XT_CTL, UCM_R_TID_EN, 0, 0, 0, 0, NULL },
	{ "filter_tid", XT_FIELD, UCM_R_FILT_TID, 0, 0, 0, 0, NULL },
	{ "filter_nid", XT_FIELD, UCM_R_FILT_NID, 0, 0, 0, 0, NULL },
	{ "filter_state", XT_FIELD, UCM_R_FILT_STATE, 0, 0, 0, 0, NULL },
	{ "filter_opc", XT_FIELD, UCM_R_FILT_OPC, 0, 0, 0, 0, NULL },
	{ "filter_band0", XT_FIELD, UCM_R_FILT_BAND, 0, 0, 0, 0, NULL },
	{ "filter_band1", XT_FIELD, UCM_R_FILT_BAND, 1, 0, 0, 0, NULL },
	{ "filter_band2", XT_FIELD, UCM_R_FILT_BAND, 2, 0, 0, 0, NULL },
	{ "filter_band3", XT_FIELD, UCM_R_FILT_BAND, 3, 0, 0, 0, NULL },
	{ "filter_addr", XT_MATCH, UCM_R_FILT_ADDR, 0, 0, 0, 0, NULL },
	{ "match0", XT_REG_MATCH, UCM_R_FILT_MC, 0, 0, 0, 0, NULL },
	{ "match1", XT_REG_MATCH, UCM_R_FILT_RDS, 0, 0, 0, 0, NULL },
	{ "mask0", XT_REG_MASK, UCM_R_FILT_MC, 0, 0, 0, 0, NULL },
	{ "mask1", XT_REG_MASK, UCM_R_FILT_RDS, 0, 0, 0, 0, NULL },
	{ "match_mc", XT_MATCH, UCM_R_FILT_MC, 0, 0, 0, 0, NULL },
	{ "mask_mc", XT_MASK, UCM_R_FILT_MC, 0, 0, 0, 0, NULL },
	{ "match_opc", XT_MATCH, UCM_R_FILT_PKT_OPC, 0, 0, 0, 0, NULL },
	{ "mask_opc", XT_MASK, UCM_R_FILT_PKT_OPC, 0, 0, 0, 0, NULL },
	{ "match_vnw", XT_MATCH, UCM_R_FILT_VNW, 0, 0, 0, 0, NULL },
	{ "mask_vnw", XT_MASK, UCM_R_FILT_VNW, 0, 0, 0, 0, NULL },
	{ "match_dnid", XT_MATCH, UCM_R_FILT_DNID, 0, 0, 0, 0, NULL },
	{ "mask_dnid", XT_MASK, UCM_R_FILT_DNID, 0, 0, 0, 0, NULL },
	{ "match_rnid", XT_MATCH, UCM_R_FILT_RNID, 0, 0, 0, 0, NULL },
	{ "mask_rnid", XT_MASK, UCM_R_FILT_RNID, 0, 0, 0, 0, NULL },
	{ "match_rds", XT_MATCH, UCM_R_FILT_RDS, 0, 0, 0, 0, NULL },
	{ "mask_rds", XT_MASK, UCM_R_FILT_RDS, 0, 0, 0, 0, NULL },
	{ "match_rnid30", XT_MATCH, UCM_R_FILT_RNID, 0, 1, 0, 3, NULL },
	{ "match_rnid4", XT_MATCH, UCM_R_FILT_RNID, 0, 1, 4, 4, NULL },
	{ "mask_rnid30", XT_MASK, UCM_R_FILT_RNID, 0, 1, 0, 3, NULL },
	{ "mask_rnid4", XT_MASK, UCM_R_FILT_RNID, 0, 1, 4, 4, NULL },
	/* the v2 CBo's FILTER1 nc and isoc (IVT Table 2-17; perf's names) */
	{ "filter_nc", XT_FNAME, 0, 0, 0, 0, 0, "nc" },
	{ "filter_isoc", XT_FNAME, 0, 0, 0, 0, 0, "isoc" },
};

#define NXTERMS (sizeof(xterms) / sizeof(xterms[0]))

/* Whether a filter field is one a gathered or register term covers. */
static int xfield_of(const struct xterm *x, const struct ucm_field *f)
{
	int mask = x->kind == XT_MASK || x->kind == XT_REG_MASK;

	if (x->kind == XT_FNAME || f->role != x->role || UCM_FA_IS_MASK(f->arg) != mask)
		return 0;
	return !x->part || (UCM_FA_BIT(f->arg) >= x->alo &&
			    UCM_FA_BIT(f->arg) + (unsigned)(f->hi - f->lo) <= x->ahi);
}

/* A filter field of the box by its table name, and its register's .idx. */
static const struct ucm_field *fname_field(const struct ucm_boxtype *bt, const char *name,
					   unsigned *idx)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = filter_layout(bt, k);

		for (unsigned i = 0; l && i < l->nfields; i++)
			if (!strcmp(l->fields[i].name, name)) {
				*idx = k;
				return &l->fields[i];
			}
	}
	return NULL;
}

/* The filter register .idx a register term writes, -1: none on this box. */
static int xreg_idx(const struct ucm_boxtype *bt, const struct xterm *x)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = filter_layout(bt, k);

		for (unsigned i = 0; l && i < l->nfields; i++)
			if (xfield_of(x, &l->fields[i]))
				return (int)k;
	}
	return -1;
}

/* The attribute bits a gathered term's fields hold; 0: none on this box. */
static uint64_t xheld(const struct ucm_boxtype *bt, const struct xterm *x)
{
	uint64_t held = 0;

	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = filter_layout(bt, k);

		for (unsigned i = 0; l && i < l->nfields; i++)
			if (xfield_of(x, &l->fields[i]))
				held |= (ucm_field_mask(&l->fields[i]) >> l->fields[i].lo)
					<< UCM_FA_BIT(l->fields[i].arg);
	}
	return held;
}

/* Put attribute value v into (or, with get, read it from) the fields of a
 * gathered term; *needed: whether every one of them is in the mask. */
static uint64_t xgather(struct ucd_ev *e, const struct xterm *x, uint64_t v, int put, int *needed)
{
	uint64_t out = 0;

	*needed = 1;
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = filter_layout(e->box, k);

		for (unsigned i = 0; l && i < l->nfields; i++) {
			const struct ucm_field *f = &l->fields[i];
			unsigned at = UCM_FA_BIT(f->arg);

			if (!xfield_of(x, f))
				continue;
			if (put) {
				e->filt[k] = ucm_field_put(f, e->filt[k], v >> at);
				e->filt_mask[k] |= ucm_field_mask(f);
			} else {
				out |= ucm_field_get(f, e->filt[k]) << at;
				*needed &= (e->filt_mask[k] & ucm_field_mask(f)) == ucm_field_mask(f);
			}
		}
	}
	return out;
}

/* The term that sets a filter rule's field, for messages. */
static const char *rule_term(const struct ucm_filtrule *r)
{
	for (size_t k = 0; k < NXTERMS; k++)
		if ((xterms[k].kind == XT_FIELD && xterms[k].role == r->role && xterms[k].arg == r->arg) ||
		    (xterms[k].kind == XT_MATCH && xterms[k].role == r->role))
			return xterms[k].name;
	return "?";
}

/* The filter values a programmed event relies on: what the user gave, and
 * for each filter rule that applies but was not given, the value that lets
 * every sub-event through (a state or node mask of all ones, band 0, a
 * packet mask of 0 with a match of 0).  An equality match (opcode, thread,
 * address) has no such value: it must be given. */
static int filter_needs(struct ucd *d, const struct tok *t, struct ucd_ev *e)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	const struct ucm_evcode *ec = e->code, *occ;
	unsigned code, k;
	uint64_t umask = ucm_field_get(ucm_layout_field(l, UCM_R_UMASK), e->ctl);

	if (!filter_layout(e->box, 0) || !l)
		return 0;
	ec = ucm_ctl_code(e->box, l, e->ctl, &code, &occ);
	for (unsigned i = 0; ec && i < ec->nrules; i++) {
		const struct ucm_filtrule *r = &ec->rules[i];
		const struct ucm_field *f;

		if ((r->umask_bits && !(umask & r->umask_bits)) ||
		    (r->ctl_role && !ucm_field_get(ucm_layout_field(l, r->ctl_role), e->ctl)))
			continue;
		if (r->how == UCM_FM_MASKED || r->how == UCM_FM_EQ_BITS) {
			for (k = 0; k < UCM_MAXFILT; k++) {
				const struct ucm_layout *fl = filter_layout(e->box, k);

				for (unsigned j = 0; fl && j < fl->nfields; j++) {
					uint64_t fm = ucm_field_mask(&fl->fields[j]);

					if (fl->fields[j].role != r->role || (e->filt_mask[k] & fm) == fm)
						continue;
					if (r->how == UCM_FM_EQ_BITS)
						return tokerr(d, t, t->col,
							      "%s matches on the %s filter field %s: give %s=",
							      ec->name, e->box->name, fl->fields[j].name,
							      rule_term(r));
					e->filt_mask[k] |= fm;
					e->filt[k] &= ~fm;
				}
			}
			continue;
		}
		f = filter_field(e->box, r->role, r->arg, &k);
		if (!f || (e->filt_mask[k] & ucm_field_mask(f)))
			continue;
		if (r->how == UCM_FM_EQ)
			return tokerr(d, t, t->col, "%s matches on the %s filter field %s: give %s=",
				      ec->name, e->box->name, f->name, rule_term(r));
		e->filt_mask[k] |= ucm_field_mask(f);
		if (r->how == UCM_FM_BIT)
			e->filt[k] |= ucm_field_mask(f);
	}
	return 0;
}

/* A named event's filter values (Xeon Table 2-92), under what the user gave. */
static void filter_presets(struct ucd_ev *e, const struct ucm_event *row)
{
	for (unsigned i = 0; i < row->nfilt; i++) {
		unsigned k = row->filt[i].idx;
		uint64_t all = layout_bits(filter_layout(row->box, k)), free = all & ~e->filt_mask[k];

		e->filt[k] = (e->filt[k] & ~free) | (row->filt[i].val & free);
		e->filt_mask[k] |= all;
	}
}

/* Box types whose counters count a fixed event: nothing to select. */
static int box_fixed(const struct ucm_boxtype *bt)
{
	return !ucm_layout_field(ctl_layout(bt), UCM_R_EVSEL);
}

static void fill_from_code(struct ucd_ev *e)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	uint64_t thr = ucm_field_get(ucm_layout_field(l, UCM_R_THRESH), e->ctl);

	e->ctr_mask = e->code->ctr_mask;
	e->max_out = (thr || (e->code->flags & UCM_EC_CLOCK)) ? 1 : e->code->max_inc;
}

static void canonical(struct ucd_ev *e)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	int n;

	if (e->row) {
		snprintf(e->canonical, sizeof(e->canonical), "%s", e->row->name);
		return;
	}
	n = snprintf(e->canonical, sizeof(e->canonical), "%s/event=0x%llx,umask=0x%llx",
		     e->box->name,
		     (unsigned long long)(ucm_field_get(ucm_layout_field(l, UCM_R_EVSEL), e->ctl) |
					  ucm_field_get(ucm_layout_field(l, UCM_R_EXTSEL), e->ctl) << 8),
		     (unsigned long long)ucm_field_get(ucm_layout_field(l, UCM_R_UMASK), e->ctl));
	for (size_t k = 0; k < NXTERMS && n < (int)sizeof(e->canonical); k++) {
		const struct xterm *x = &xterms[k];
		const struct ucm_field *f = NULL;
		uint64_t v = 0;
		int show = 0, needed;
		unsigned fi;

		switch (x->kind) {
		case XT_CTL:
			f = ucm_layout_field(l, x->role);
			show = f && (v = ucm_field_get(f, e->ctl)) != 0;
			break;
		case XT_FIELD:
			f = filter_field(e->box, x->role, x->arg, &fi);
			show = f && (e->filt_mask[fi] & ucm_field_mask(f));
			v = f ? ucm_field_get(f, e->filt[fi]) : 0;
			break;
		case XT_FNAME:
			f = fname_field(e->box, x->fname, &fi);
			show = f && (e->filt_mask[fi] & ucm_field_mask(f));
			v = f ? ucm_field_get(f, e->filt[fi]) : 0;
			break;
		case XT_REG_MATCH:
		case XT_REG_MASK: {
			int r = xreg_idx(e->box, x);

			show = r >= 0 && e->filt_mask[r];
			v = r >= 0 ? e->filt[r] : 0;
			break;
		}
		default:
			if (x->part)
				break;
			/* a box with register terms shows those instead */
			for (size_t j = 0; j < NXTERMS; j++)
				if ((xterms[j].kind == XT_REG_MATCH || xterms[j].kind == XT_REG_MASK) &&
				    xreg_idx(e->box, &xterms[j]) >= 0)
					goto next;
			if (!xheld(e->box, x))
				break;
			v = xgather(e, x, 0, 0, &needed);
			show = needed;
			break;
		}
		if (show)
			n += snprintf(e->canonical + n, sizeof(e->canonical) - (size_t)n, ",%s=0x%llx",
				      x->name, (unsigned long long)v);
next:;
	}
	if (n >= (int)sizeof(e->canonical))
		n = (int)sizeof(e->canonical) - 1;
	if (ucm_field_get(ucm_layout_field(l, UCM_R_THRESH), e->ctl))
		n += snprintf(e->canonical + n, sizeof(e->canonical) - (size_t)n, ",thresh=%llu",
			      (unsigned long long)ucm_field_get(ucm_layout_field(l, UCM_R_THRESH),
								e->ctl));
	if (ucm_field_get(ucm_layout_field(l, UCM_R_INV), e->ctl))
		n += snprintf(e->canonical + n, sizeof(e->canonical) - (size_t)n, ",inv");
	if (ucm_field_get(ucm_layout_field(l, UCM_R_EDGE), e->ctl))
		n += snprintf(e->canonical + n, sizeof(e->canonical) - (size_t)n, ",edge");
	snprintf(e->canonical + n, sizeof(e->canonical) - (size_t)n, "/");
}

/* A named row: its encoding as the event tables give it. */
static void from_row(struct ucd_ev *e, const struct ucm_event *row)
{
	const struct ucm_layout *l = ctl_layout(row->box);

	e->row = row;
	e->box = row->box;
	e->code = ucm_code_named(row->box, row->code);
	e->ctl = 0;
	/* a fixed counter's event: its control has nothing but EN */
	if (!box_fixed(row->box) && !(e->code->flags & UCM_EC_FIXED)) {
		e->ctl = put_code(l, e->ctl, row->code);
		if ((row->code & 0x80) && ucm_layout_field(l, UCM_R_OCC_SEL))
			/* an occupancy row: its umask bits 7:6 are OCC_SEL, as in
			 * Intel's event lists (public facts) */
			e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_OCC_SEL), e->ctl, row->umask >> 6);
		e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), e->ctl, row->umask);
		e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), e->ctl, row->thresh);
	}
	fill_from_code(e);
	filter_presets(e, row);
}

/* Decimal, or hex after 0x, as perf reads them: strtoull's base 0 would
 * take umask=010 as octal 8 where perf means 10. */
static int parse_num(const char *s, size_t n, uint64_t *v)
{
	char buf[32], *p = buf, *end;
	int base = 10;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		base = 16;
	}
	/* strtoull would also take blanks and a sign */
	if (base == 16 ? !isxdigit((unsigned char)*p) : !isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*v = strtoull(p, &end, base);
	return errno || *end ? -1 : 0;
}

/* ---- Linux perf's names (struct ucm_perfpmu: data of each platform) ---- */

/* Format "name" of a perf PMU: its width in bits (the sum of its bit
 * ranges, "config:0-7,21" is 9) and its kernel spec; 0: no such format. */
static unsigned perf_format(const struct ucm_perfpmu *pm, const char *k, size_t kn, const char **spec,
			    size_t *specn)
{
	const char *f = pm->formats;

	while (*f) {
		const char *end = strchr(f, ';'), *eq = strchr(f, '=');
		unsigned w = 0;

		if (!end)
			end = f + strlen(f);
		if (eq && eq < end && (size_t)(eq - f) == kn &&
		    !strncasecmp(f, k, kn)) {
			const char *r = strchr(eq, ':');

			*spec = eq + 1;
			*specn = (size_t)(end - eq - 1);
			/* ranges "a-b" or "a", comma-separated, after "configN:" */
			while (r && r < end) {
				char *q;
				unsigned long lo = strtoul(r + 1, &q, 10), hi = lo;

				if (*q == '-')
					hi = strtoul(q + 1, &q, 10);
				w += (unsigned)(hi - lo + 1);
				r = *q == ',' ? q : NULL;
			}
			return w;
		}
		f = *end ? end + 1 : end;
	}
	return 0;
}

/* The format names of a perf PMU, comma-separated, for messages. */
static void perf_format_names(const struct ucm_perfpmu *pm, char *buf, size_t n)
{
	const char *f = pm->formats;
	size_t k = 0;

	buf[0] = 0;
	while (*f && k + 1 < n) {
		size_t len = strcspn(f, "=;");

		k += (size_t)snprintf(buf + k, n - k, "%s%.*s", k ? ", " : "", (int)len, f);
		f += strcspn(f, ";");
		if (*f)
			f++;
	}
}

static const struct ucm_perfalias *perf_alias(const struct ucm_perfpmu *pm, const char *k,
					      size_t kn)
{
	for (unsigned i = 0; i < pm->naliases; i++)
		if (teq(k, kn, pm->aliases[i].name))
			return &pm->aliases[i];
	return NULL;
}

static const struct ucm_perfcode *perf_code(const struct ucm_perfpmu *pm, uint64_t v)
{
	for (unsigned i = 0; i < pm->ncodes; i++)
		if (pm->codes[i].perf == v)
			return &pm->codes[i];
	return NULL;
}

/* The named event a perf code means. */
static const struct ucm_event *perf_code_row(const struct ucm_platform *p,
					     const struct ucm_perfcode *pc)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->events[i].box == pc->box && p->events[i].code == pc->code)
			return &p->events[i];
	return NULL;
}

/* The perf PMU "s" names: NAME (every instance) or NAME_N; NULL: none. */
static const struct ucm_perfpmu *perf_pmu(struct ucd *d, const struct tok *t, const char *s,
					  size_t n, int *inst, int *rc)
{
	const struct ucm_platform *p = d->plat;

	*rc = 0;
	for (unsigned i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pm = &p->perfpmus[i];
		size_t pn = strlen(pm->name);
		uint64_t v;

		if (n < pn || strncasecmp(s, pm->name, pn))
			continue;
		if (n == pn) {
			*inst = -1;
			return pm;
		}
		if (!pm->numbered || s[pn] != '_' || parse_num(s + pn + 1, n - pn - 1, &v))
			continue;
		if (v >= ucd_ninst(d, pm->box)) {
			*rc = tokerr(d, t, t->col, "perf's %s_%llu: this system has %s_0 to %s_%u (the %s)",
				     pm->name, (unsigned long long)v, pm->name, pm->name,
				     ucd_ninst(d, pm->box) - 1, pm->box->title);
			return NULL;
		}
		*inst = (int)v;
		return pm;
	}
	return NULL;
}

/* "cbo", "cbo0", "cbo_0", "uncore_cbo_1", or perf's "uncore_cbox_1": box
 * type and instance (-1), and the perf PMU if it was perf's name. */
static int parse_pmu(struct ucd *d, const struct tok *t, const char *s, size_t n,
		     const struct ucm_boxtype **bt, int *inst, const struct ucm_perfpmu **perf)
{
	const struct ucm_platform *p = d->plat;
	int rc;

	if ((*perf = perf_pmu(d, t, s, n, inst, &rc)) != NULL) {
		*bt = (*perf)->box;
		return 0;
	}
	if (rc)
		return rc;

	if (n > 7 && strncasecmp(s, "uncore_", 7) == 0)
		s += 7, n -= 7;
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *b = p->boxes[i].type;
		size_t bn = strlen(b->name);
		uint64_t v;

		if (n < bn || strncasecmp(s, b->name, bn) != 0 || !b->nctr)
			continue;
		if (n == bn) {
			*bt = b;
			*inst = -1;
			return 0;
		}
		if (s[bn] == '_' && n > bn + 1 && parse_num(s + bn + 1, n - bn - 1, &v) == 0)
			;
		else if (parse_num(s + bn, n - bn, &v) != 0)
			continue;
		if (v >= ucd_ninst(d, b))
			return tokerr(d, t, t->col, "%s has %u instance%s (0-%u) on this system",
				      b->name, ucd_ninst(d, b), ucd_ninst(d, b) == 1 ? "" : "s",
				      ucd_ninst(d, b) - 1);
		*bt = b;
		*inst = (int)v;
		return 0;
	}
	{
		char list[512];
		size_t k = 0;

		list[0] = 0;
		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxtype *b = p->boxes[i].type;

			if (b->nctr && !strstr(list, b->name) && k < sizeof(list) - 32)
				k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", k ? ", " : "",
						      b->name);
		}
		for (unsigned i = 0; i < p->nperfpmus && k < sizeof(list) - 40; i++)
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s%s", i ? ", " : "; perf's ",
					      p->perfpmus[i].name, p->perfpmus[i].numbered ? "_N" : "");
		return tokerr(d, t, t->col, "unknown PMU '%.*s' (expected one of: %s)", (int)n, s,
			      list);
	}
}

struct term {
	const char *k, *v;
	size_t kn, vn, col;
};

static const struct xterm *xterm_find(const char *k, size_t n)
{
	for (size_t i = 0; i < NXTERMS; i++)
		if (teq(k, n, xterms[i].name))
			return &xterms[i];
	return NULL;
}

/* Applies a term of xterms[] with value v to the event (control bits to
 * xctl and xctl_mask); 0, or an error naming the term. */
static int apply_xterm(struct ucd *d, const struct tok *t, const struct term *tm,
		       const struct xterm *x, uint64_t v, struct ucd_ev *e, uint64_t *xctl,
		       uint64_t *xctl_mask)
{
	const struct ucm_layout *l = ctl_layout(e->box), *xl = l;
	const struct ucm_field *f = NULL;
	unsigned fi = 0;
	int needed;

	switch (x->kind) {
	case XT_REG_MATCH:
	case XT_REG_MASK: {
		int r = xreg_idx(e->box, x);
		uint64_t all;

		if (r < 0)
			break;
		xl = filter_layout(e->box, (unsigned)r);
		all = layout_bits(xl);
		if (v & ~all)
			return tokerr(d, t, tm->col + tm->kn + 1,
				      "%.*s=0x%llx sets reserved bits 0x%llx of %s (%s)", (int)tm->kn,
				      tm->k, (unsigned long long)v, (unsigned long long)(v & ~all),
				      xl->name, xl->cite);
		e->filt[r] = v;
		e->filt_mask[r] = all;
		return 0;
	}
	case XT_MATCH:
	case XT_MASK: {
		uint64_t held = xheld(e->box, x);

		if (!held)
			break;
		if (x->part && v >> (x->ahi - x->alo + 1))
			return tokerr(d, t, tm->col + tm->kn + 1,
				      "%.*s=0x%llx out of range: it holds bits %u..%u of the attribute",
				      (int)tm->kn, tm->k, (unsigned long long)v, x->alo, x->ahi);
		v <<= x->alo;
		if (v & ~held)
			return tokerr(d, t, tm->col + tm->kn + 1,
				      "%.*s=0x%llx: bits 0x%llx have no field (the registers hold 0x%llx; %s)",
				      (int)tm->kn, tm->k, (unsigned long long)v,
				      (unsigned long long)(v & ~held), (unsigned long long)held,
				      e->box->cite);
		xgather(e, x, v, 1, &needed);
		return 0;
	}
	case XT_FIELD:
		f = filter_field(e->box, x->role, x->arg, &fi);
		xl = f ? filter_layout(e->box, fi) : NULL;
		break;
	case XT_FNAME:
		f = fname_field(e->box, x->fname, &fi);
		xl = f ? filter_layout(e->box, fi) : NULL;
		break;
	default:
		f = ucm_layout_field(l, x->role);
		break;
	}
	if (!f)
		return tokerr(d, t, tm->col, "%s has no '%.*s' field", e->box->name, (int)tm->kn,
			      tm->k);
	if (v > ucm_field_mask(f) >> f->lo)
		return tokerr(d, t, tm->col + tm->kn + 1,
			      "%.*s=%llu out of range: the field is %u bits, max %llu (%s)",
			      (int)tm->kn, tm->k, (unsigned long long)v, f->hi - f->lo + 1,
			      (unsigned long long)(ucm_field_mask(f) >> f->lo), xl->cite);
	if (x->kind == XT_FIELD || x->kind == XT_FNAME) {
		e->filt[fi] = ucm_field_put(f, e->filt[fi], v);
		e->filt_mask[fi] |= ucm_field_mask(f);
		if (x->role == UCM_R_FILT_TID && ucm_layout_field(l, UCM_R_TID_EN)) {
			/* a thread filter needs the counter's tid_en */
			*xctl = ucm_field_put(ucm_layout_field(l, UCM_R_TID_EN), *xctl, 1);
			*xctl_mask |= ucm_field_mask(ucm_layout_field(l, UCM_R_TID_EN));
		}
	} else {
		*xctl = ucm_field_put(f, *xctl, v);
		*xctl_mask |= ucm_field_mask(f);
	}
	return 0;
}

/* Whether the tables have the field a term sets (a perf format may name a
 * bit the manual reserves). */
static int term_has_field(const struct ucd_ev *e, const struct term *tm)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	const struct xterm *x = xterm_find(tm->k, tm->kn);
	unsigned fi;

	if (teq(tm->k, tm->kn, "event"))
		return ucm_layout_field(l, UCM_R_EVSEL) != NULL;
	if (teq(tm->k, tm->kn, "umask"))
		return ucm_layout_field(l, UCM_R_UMASK) != NULL;
	if (teq(tm->k, tm->kn, "edge"))
		return ucm_layout_field(l, UCM_R_EDGE) != NULL;
	if (teq(tm->k, tm->kn, "inv"))
		return ucm_layout_field(l, UCM_R_INV) != NULL;
	if (teq(tm->k, tm->kn, "thresh") || teq(tm->k, tm->kn, "cmask"))
		return ucm_layout_field(l, UCM_R_THRESH) != NULL;
	if (!x)
		return 0;
	switch (x->kind) {
	case XT_CTL: return ucm_layout_field(l, x->role) != NULL;
	case XT_FIELD: return filter_field(e->box, x->role, x->arg, &fi) != NULL;
	case XT_FNAME: return fname_field(e->box, x->fname, &fi) != NULL;
	case XT_REG_MATCH:
	case XT_REG_MASK: return xreg_idx(e->box, x) >= 0;
	default: return xheld(e->box, x) != 0;
	}
}

/* A term of an event on a perf PMU: one of the kernel's formats for it,
 * within the format's width, or (valueless) an alias or an event name.
 * *skip: a format the tables have no field for, given as 0: nothing to
 * program. */
static int perf_term(struct ucd *d, const struct tok *t, const struct term *tm,
		     const struct ucm_perfpmu *pm, const struct ucd_ev *e, uint64_t v, int *skip)
{
	const char *spec = NULL;
	size_t specn = 0;
	unsigned w = perf_format(pm, tm->k, tm->kn, &spec, &specn);
	char names[256];

	*skip = 0;
	if (!w) {
		/* valueless: an event name, which the caller looks up, unless it is
		 * one of the terms of the tables' own names */
		if (!tm->v && !xterm_find(tm->k, tm->kn) && !teq(tm->k, tm->kn, "inv") &&
		    !teq(tm->k, tm->kn, "edge"))
			return 0;
		perf_format_names(pm, names, sizeof(names));
		return tokerr(d, t, tm->col, "'%.*s' is not a format of perf's %s (Linux defines: %s; %s)",
			      (int)tm->kn, tm->k, pm->name, names, pm->cite);
	}
	if (w < 64 && v >> w)
		return tokerr(d, t, tm->col + tm->kn + 1,
			      "%.*s=0x%llx does not fit perf's %u-bit format %.*s=%.*s of %s (%s)",
			      (int)tm->kn, tm->k, (unsigned long long)v, w, (int)tm->kn, tm->k, (int)specn,
			      spec, pm->name, pm->cite);
	if (teq(tm->k, tm->kn, "event") && pm->ncodes && !ucm_layout_field(ctl_layout(e->box), UCM_R_EVSEL)) {
		/* the client IMC: perf's codes are the only events */
		if (perf_code(pm, v))
			return 0;
		return tokerr(d, t, tm->col + tm->kn + 1,
			      "event=0x%llx is not an event of perf's %s (event=0x%02x to 0x%02x: its aliases %s...; %s)",
			      (unsigned long long)v, pm->name, pm->codes[0].perf,
			      pm->codes[pm->ncodes - 1].perf, pm->naliases ? pm->aliases[0].name : "",
			      pm->cite);
	}
	if (term_has_field(e, tm) || (teq(tm->k, tm->kn, "event") && perf_code(pm, v)))
		return 0;
	if (v)
		return tokerr(d, t, tm->col,
			      "perf's %s format %.*s (Linux: %.*s) has no field in the %s tables (%s): the bits are reserved, only %.*s=0 can be given",
			      pm->name, (int)tm->kn, tm->k, (int)specn, spec, e->box->name, e->box->cite,
			      (int)tm->kn, tm->k);
	*skip = 1;
	return 0;
}

/* The control fields perf's raw config may set: the kernel writes config
 * into the counter's control register (its event mask drops the rest). */
static const uint8_t raw_roles[] = { UCM_R_EVSEL, UCM_R_EXTSEL, UCM_R_UMASK, UCM_R_EDGE, UCM_R_INV,
				     UCM_R_THRESH, UCM_R_TID_EN, UCM_R_OCC_SEL, UCM_R_OCC_INV,
				     UCM_R_OCC_EDGE };

static uint64_t raw_ctl_bits(const struct ucm_layout *l)
{
	uint64_t m = 0;

	for (size_t i = 0; i < sizeof(raw_roles); i++)
		if (ucm_layout_field(l, raw_roles[i]))
			m |= ucm_field_mask(ucm_layout_field(l, raw_roles[i]));
	return m;
}

/* perf's config1 (config2): the box's filter registers 0 and 1 (2 and 3),
 * the second in the upper 32 bits (Linux: CBo FILTER | FILTER1 << 32 on
 * the v2, QPI MATCH0 | MATCH1 << 32, MASK0 | MASK1 << 32). */
static int raw_filters(struct ucd *d, const struct tok *t, const struct term *tm, struct ucd_ev *e,
		       uint64_t v, unsigned first)
{
	const struct ucm_layout *lo = filter_layout(e->box, first), *hi = filter_layout(e->box, first + 1);
	uint64_t vlo = hi ? v & 0xFFFFFFFFull : v, vhi = hi ? v >> 32 : 0;

	if (!lo)
		return tokerr(d, t, tm->col, "%.*s: the %s has no filter register %u in the tables (%s)",
			      (int)tm->kn, tm->k, e->box->name, first, e->box->cite);
	if ((vlo & ~layout_bits(lo)) || (vhi & ~layout_bits(hi)))
		return tokerr(d, t, tm->col + tm->kn + 1,
			      "%.*s=0x%llx sets reserved bits of %s%s%s (%s)", (int)tm->kn, tm->k,
			      (unsigned long long)v, lo->name, hi ? " | " : "", hi ? hi->name : "", lo->cite);
	e->filt[first] = vlo;
	e->filt_mask[first] = layout_bits(lo);
	if (hi) {
		e->filt[first + 1] = vhi;
		e->filt_mask[first + 1] = layout_bits(hi);
	}
	return 0;
}

static int parse_terms(struct ucd *d, const struct tok *t, struct ucd_ev *e, const char *s,
		       size_t n, size_t col, const struct ucm_perfpmu *pm, char *label)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	const struct ucm_perfcode *pcm = NULL;
	/* the terms come from s, or from a perf alias being expanded, each of
	 * whose terms takes the alias's column */
	const char *as = NULL;
	size_t ai = 0, an = 0, acol = 0;
	int have_ev = 0, have_umask = 0, have_thr = 0;
	uint64_t evsel = 0, umask = 0, thr = 0, inv = 0, edge = 0;
	uint64_t xctl = 0, xctl_mask = 0;
	const struct ucm_event *named = NULL;
	int user_filt;
	size_t i = 0, nseen = 0;
	struct term seen[64];

	while (i < n || as) {
		const char *src = as ? as : s;
		size_t *pi = as ? &ai : &i, sn = as ? an : n, at = *pi;
		struct term tm = { src + at, NULL, 0, 0, as ? acol : col + at };
		size_t j = at;
		uint64_t v = 1;
		const struct ucm_perfalias *al;
		int skip;

		while (j < sn && src[j] != ',')
			j++;
		while (tm.kn < j - at && src[at + tm.kn] != '=')
			tm.kn++;
		if (tm.kn < j - at) {
			tm.v = src + at + tm.kn + 1;
			tm.vn = j - at - tm.kn - 1;
		}
		/* step past the term now, so that every branch below may continue */
		*pi = j + 1;
		if (as && ai >= an)
			as = NULL;
		if (!tm.kn)
			return tokerr(d, t, tm.col, "empty term");
		if (pm && !tm.v && src == s && (al = perf_alias(pm, tm.k, tm.kn)) != NULL) {
			as = al->terms;
			an = strlen(as);
			ai = 0;
			acol = tm.col;
			continue;
		}
		/* a term given twice is an error naming both: which should win is
		 * not for the parser to guess (cmask is thresh's other name) */
		for (size_t k = 0; k < nseen; k++) {
			int same = teq(seen[k].k, seen[k].kn, "cmask") || teq(seen[k].k, seen[k].kn, "thresh")
					   ? teq(tm.k, tm.kn, "cmask") || teq(tm.k, tm.kn, "thresh")
					   : seen[k].kn == tm.kn && !memcmp(seen[k].k, tm.k, tm.kn);

			if (same && (tm.v || xterm_find(tm.k, tm.kn) || teq(tm.k, tm.kn, "inv") ||
				     teq(tm.k, tm.kn, "edge")))
				return tokerr(d, t, tm.col, "'%.*s' given twice (first '%.*s' at col %zu)",
					      (int)tm.kn, tm.k, (int)seen[k].kn, seen[k].k, seen[k].col);
		}
		if (nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = tm;
		/* perf's name=: what the event is called in the output */
		if (pm && teq(tm.k, tm.kn, "name")) {
			if (!tm.v || !tm.vn || tm.vn >= sizeof(e->name))
				return tokerr(d, t, tm.col, "name= needs a name of 1 to %zu characters",
					      sizeof(e->name) - 1);
			snprintf(label, sizeof(e->name), "%.*s", (int)tm.vn, tm.v);
			continue;
		}
		if (tm.v && parse_num(tm.v, tm.vn, &v))
			return tokerr(d, t, tm.col + tm.kn + 1, "'%.*s' is not a number", (int)tm.vn,
				      tm.v);
		/* perf's raw terms: the control register, the filter registers */
		if (pm && tm.kn >= 6 && !strncasecmp(tm.k, "config", 6) &&
		    (tm.kn == 6 || teq(tm.k, tm.kn, "config1") || teq(tm.k, tm.kn, "config2"))) {
			int rc;

			if (!tm.v)
				return tokerr(d, t, tm.col, "'%.*s' needs a value", (int)tm.kn, tm.k);
			if (tm.kn > 6) {
				if ((rc = raw_filters(d, t, &tm, e, v, tm.k[6] == '1' ? 0 : 2)))
					return rc;
				continue;
			}
			if (!ucm_layout_field(l, UCM_R_EVSEL)) {
				/* the client IMC: perf's config is its event code */
				if (!(pcm = perf_code(pm, v)))
					return tokerr(d, t, tm.col + tm.kn + 1,
						      "config=0x%llx is not an event of perf's %s (%s)",
						      (unsigned long long)v, pm->name, pm->cite);
				evsel = v;
				have_ev = 1;
				continue;
			}
			if (v & ~raw_ctl_bits(l))
				return tokerr(d, t, tm.col + tm.kn + 1,
					      "config=0x%llx: bits 0x%llx are not event-select fields of %s (%s)",
					      (unsigned long long)v,
					      (unsigned long long)(v & ~raw_ctl_bits(l)), l->name, l->cite);
			evsel = ucm_field_get(ucm_layout_field(l, UCM_R_EVSEL), v) |
				ucm_field_get(ucm_layout_field(l, UCM_R_EXTSEL), v) << 8;
			umask = ucm_field_get(ucm_layout_field(l, UCM_R_UMASK), v);
			thr = ucm_field_get(ucm_layout_field(l, UCM_R_THRESH), v);
			inv = ucm_field_get(ucm_layout_field(l, UCM_R_INV), v);
			edge = ucm_field_get(ucm_layout_field(l, UCM_R_EDGE), v);
			have_ev = have_umask = have_thr = 1;
			if ((pcm = perf_code(pm, evsel)) != NULL)
				continue;
			for (size_t k = 6; k < sizeof(raw_roles); k++) {
				const struct ucm_field *f = ucm_layout_field(l, raw_roles[k]);

				if (f && ucm_field_get(f, v)) {
					xctl = ucm_field_put(f, xctl, ucm_field_get(f, v));
					xctl_mask |= ucm_field_mask(f);
				}
			}
			continue;
		}
		if (pm) {
			int rc = perf_term(d, t, &tm, pm, e, v, &skip);

			if (rc)
				return rc;
			if (skip)
				continue;
			/* event=0xff and the client IMC's codes: an event of the tables */
			if (teq(tm.k, tm.kn, "event") && perf_code(pm, v)) {
				pcm = perf_code(pm, v);
				evsel = v;
				have_ev = 1;
				continue;
			}
		}
#define FIELD_MAX(role) (ucm_field_mask(ucm_layout_field(l, role)) >> ucm_layout_field(l, role)->lo)
		if (teq(tm.k, tm.kn, "event") || teq(tm.k, tm.kn, "umask") || teq(tm.k, tm.kn, "thresh") ||
		    teq(tm.k, tm.kn, "cmask") || teq(tm.k, tm.kn, "inv") || teq(tm.k, tm.kn, "edge")) {
			unsigned role = teq(tm.k, tm.kn, "event")   ? UCM_R_EVSEL
					: teq(tm.k, tm.kn, "umask") ? UCM_R_UMASK
					: teq(tm.k, tm.kn, "inv")   ? UCM_R_INV
					: teq(tm.k, tm.kn, "edge")  ? UCM_R_EDGE
								    : UCM_R_THRESH;

			if (!ucm_layout_field(l, role))
				return tokerr(d, t, tm.col,
					      "%s counters have no '%.*s' field: name one of its events (see 'uncore list')",
					      e->box->name, (int)tm.kn, tm.k);
			if (!tm.v && (role == UCM_R_EVSEL || role == UCM_R_UMASK || role == UCM_R_THRESH))
				return tokerr(d, t, tm.col, "'%.*s' needs a value", (int)tm.kn, tm.k);
			/* event=0x1XX: the extra select bit (PCU, QPI) */
			if (role == UCM_R_EVSEL && ucm_layout_field(l, UCM_R_EXTSEL) && v <= 0x1FF) {
				evsel = v;
				have_ev = 1;
				continue;
			}
			if (v > FIELD_MAX(role))
				return tokerr(d, t, tm.col + tm.kn + 1,
					      "%.*s=%llu out of range: the field is %u bits, max %llu (%s)",
					      (int)tm.kn, tm.k, (unsigned long long)v,
					      ucm_layout_field(l, role)->hi - ucm_layout_field(l, role)->lo + 1,
					      (unsigned long long)FIELD_MAX(role), l->cite);
			switch (role) {
			case UCM_R_EVSEL: evsel = v; have_ev = 1; break;
			case UCM_R_UMASK: umask = v; have_umask = 1; break;
			case UCM_R_INV: inv = v; break;
			case UCM_R_EDGE: edge = v; break;
			default: thr = v; have_thr = 1; break;
			}
		} else if (xterm_find(tm.k, tm.kn)) {
			int rc = apply_xterm(d, t, &tm, xterm_find(tm.k, tm.kn), v, e, &xctl, &xctl_mask);

			if (rc)
				return rc;
		} else if (!tm.v) {
			const struct ucm_event *row = find_named(d, e->box, tm.k, tm.kn);

			if (!row)
				return tokerr(d, t, tm.col,
					      "unknown term '%.*s' (expected event=, umask=, thresh=, inv, edge or a %s event name)",
					      (int)tm.kn, tm.k, e->box->name);
			if (named)
				return tokerr(d, t, tm.col, "two event names in one event");
			named = row;
		} else {
			return tokerr(d, t, tm.col,
				      "unknown term '%.*s' (expected event, umask, thresh, inv or edge)",
				      (int)tm.kn, tm.k);
		}
	}
#undef FIELD_MAX
	user_filt = any_filter(e);
	if (pcm) {
		/* perf's code for an event of the tables: that event, unmodified */
		const struct ucm_event *row = perf_code_row(d->plat, pcm);

		if (!row)
			return tokerr(d, t, col, "perf's %s event=0x%x has no event in the %s tables",
				      pm->name, pcm->perf, pcm->box->name);
		if (named)
			return tokerr(d, t, col, "both an event name and event=");
		if (umask || thr || inv || edge || xctl_mask || user_filt)
			return tokerr(d, t, col, "event=0x%x of perf's %s is %s (%s): it takes no other terms",
				      pcm->perf, pm->name, row->name, row->cite);
		/* the CBo PMUs' event=0xff is the one UCLK counter, a box of its own */
		if (row->box != e->box)
			e->inst = -1;
		named = row;
		have_ev = have_umask = have_thr = 0;
	}
	if (named) {
		if (have_ev)
			return tokerr(d, t, col, "both an event name and event=");
		from_row(e, named);
		l = ctl_layout(e->box);
		if (e->code->flags & UCM_EC_FIXED) {
			/* a fixed counter counts one thing: nothing to modify */
			if (have_umask || have_thr || inv || edge || xctl_mask || user_filt)
				return tokerr(d, t, col, "%s is a fixed counter's event: it takes no other terms",
					      named->name);
			return 0;
		}
		if (have_umask)
			e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), e->ctl, umask);
	} else {
		if (box_fixed(e->box))
			return tokerr(d, t, col, "name one of the %s events (see 'uncore list')",
				      e->box->name);
		if (!have_ev)
			return tokerr(d, t, col, "no event: give event=CODE or an event name");
		e->ctl = put_code(l, 0, (unsigned)evsel);
		e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), e->ctl, umask);
	}
	if (!box_fixed(e->box)) {
		char why[192];
		const struct ucm_evcode *occ;
		unsigned code;

		e->ctl = (e->ctl & ~xctl_mask) | xctl;
		if (!named)
			e->code = ucm_ctl_code(e->box, l, e->ctl, &code, &occ);

		/* an explicit thresh= (even 0) overrides a named event's threshold */
		if (have_thr || !named)
			e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), e->ctl, thr);
		e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_INV), e->ctl, inv);
		e->ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EDGE), e->ctl, edge);
		if (ucm_ctl_check(e->box, l, -1, e->ctl, why, sizeof(why)))
			return tokerr(d, t, t->col, "%s", why);
		/* a raw encoding identical to a table row takes its name */
		for (unsigned k = 0; !named && k < d->plat->nevents; k++) {
			const struct ucm_event *r = &d->plat->events[k];
			struct ucd_ev as_row;

			/* compared as programmed: an occupancy row's umask is OCC_SEL */
			if (r->box != e->box || r->code != evsel || r->nfilt || user_filt || inv || edge)
				continue;
			memset(&as_row, 0, sizeof(as_row));
			from_row(&as_row, r);
			if (as_row.ctl == e->ctl)
				e->row = r;
		}
		if (named && (have_thr || inv || edge || have_umask || xctl_mask || user_filt))
			e->row = NULL;
		if (e->code) {
			int rc = filter_needs(d, t, e);

			if (rc)
				return rc;
		}
	}
	if (e->code)
		fill_from_code(e);
	return 0;
}

static int parse_one(struct ucd *d, const struct tok *t)
{
	struct ucd_ev *e;
	const char *slash = memchr(t->s, '/', t->len);

	if (d->nev == UCD_MAXEV)
		return tokerr(d, t, t->col, "more than %d events", UCD_MAXEV);
	e = &d->ev[d->nev];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%.*s", (int)t->len, t->s);
	e->col = t->col;
	e->inst = -1;
	if (slash) {
		size_t pn = (size_t)(slash - t->s);
		const char *terms = slash + 1;
		size_t tn = t->len - pn - 1;
		const char *close = memchr(terms, '/', tn);
		const struct ucm_perfpmu *pm;
		char label[sizeof(e->name)] = "";
		int rc;

		if (!close)
			return tokerr(d, t, t->col + t->len, "missing closing '/'");
		/* "cbo0/.../x" has its closing slash: the error is what follows */
		if (close != terms + tn - 1) {
			size_t at = (size_t)(close + 1 - t->s);

			return tokerr(d, t, t->col + at, "unexpected '%.*s' after the closing '/'",
				      (int)(t->len - at), close + 1);
		}
		tn--;
		if ((rc = parse_pmu(d, t, t->s, pn, &e->box, &e->inst, &pm)))
			return rc;
		if (!tn)
			return tokerr(d, t, t->col + pn + 1, "no terms between the slashes");
		if ((rc = parse_terms(d, t, e, terms, tn, t->col + pn + 1, pm, label)))
			return rc;
		if (*label)
			snprintf(e->name, sizeof(e->name), "%s", label);
	} else {
		const struct ucm_event *row = find_named(d, NULL, t->s, t->len);

		if (!row)
			return tokerr(d, t, t->col, "unknown event (see 'uncore list' for %s)",
				      d->plat->name);
		from_row(e, row);
		if (e->code) {
			int rc = filter_needs(d, t, e);

			if (rc)
				return rc;
		}
	}
	if (!e->code)
		return tokerr(d, t, t->col, "no such event code in the %s tables", e->box->name);
	canonical(e);
	d->nev++;
	return 0;
}

void ucd_perf_formats(const struct ucm_perfpmu *pm, char *buf, size_t n)
{
	perf_format_names(pm, buf, n);
}

int ucd_perf_name(const struct ucm_platform *p, const struct ucm_event *e, char *buf, size_t n)
{
	const char *spec;
	size_t specn;
	int k;

	for (unsigned i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pm = &p->perfpmus[i];

		for (unsigned c = 0; c < pm->ncodes; c++)
			if (pm->codes[c].box == e->box && pm->codes[c].code == e->code)
				/* the fixed counter a numbered PMU shares: on its first */
				return snprintf(buf, n, "%s%s/event=0x%02x/", pm->name,
						pm->numbered && pm->box != e->box ? "_0" : "",
						pm->codes[c].perf) < (int)n;
	}
	for (unsigned i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pm = &p->perfpmus[i];
		unsigned w = perf_format(pm, "event", 5, &spec, &specn);
		const struct ucm_evcode *ec = ucm_code_named(e->box, e->code);

		if (pm->box != e->box)
			continue;
		/* filter register values (Table 2-92), codes past the format, a
		 * fixed counter: not expressible in perf's terms; an event that
		 * needs a filter value given (an opcode or address match) is not
		 * one event without it */
		if (e->nfilt || !ec || (ec->flags & UCM_EC_FIXED) || (w < 16 && e->code >> w))
			return 0;
		for (unsigned r = 0; r < ec->nrules; r++)
			if ((ec->rules[r].how == UCM_FM_EQ || ec->rules[r].how == UCM_FM_EQ_BITS) &&
			    !ec->rules[r].ctl_role &&
			    (!ec->rules[r].umask_bits || (e->umask & ec->rules[r].umask_bits)))
				return 0;
		k = snprintf(buf, n, "%s/event=0x%02x", pm->name, e->code);
		if (e->umask && perf_format(pm, "umask", 5, &spec, &specn))
			k += snprintf(buf + k, n - (size_t)k, ",umask=0x%02x", e->umask);
		else if (e->umask && (e->code & 0x80) && !(e->umask & 0x3F) &&
			 perf_format(pm, "occ_sel", 7, &spec, &specn))
			k += snprintf(buf + k, n - (size_t)k, ",occ_sel=%u", (unsigned)e->umask >> 6);
		else if (e->umask)
			return 0;
		if (e->thresh)
			k += snprintf(buf + k, n - (size_t)k, ",%s=%u",
				      perf_format(pm, "cmask", 5, &spec, &specn) ? "cmask" : "thresh",
				      e->thresh);
		return snprintf(buf + k, n - (size_t)k, "/") + k < (int)n;
	}
	return 0;
}

int ucd_parse(struct ucd *d, const char *list)
{
	size_t i = 0, n = strlen(list);

	while (i <= n) {
		struct tok t;
		size_t j = i;
		int in = 0;

		while (j < n && (in || list[j] != ',')) {
			if (list[j] == '/')
				in = !in;
			j++;
		}
		/* trim blanks */
		t.s = list + i;
		t.len = j - i;
		t.col = i + 1;
		while (t.len && isspace((unsigned char)t.s[0]))
			t.s++, t.len--, t.col++;
		while (t.len && isspace((unsigned char)t.s[t.len - 1]))
			t.len--;
		if (!t.len)
			return ucd_seterr(d, -EINVAL, "empty event at col %zu", i + 1);
		if (in)
			return tokerr(d, &t, t.col + t.len, "missing closing '/'");
		{
			int rc = parse_one(d, &t);

			if (rc)
				return rc;
		}
		i = j + 1;
	}
	return 0;
}
