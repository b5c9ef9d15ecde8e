/*
 * ucm_tables.c - reading the platform tables (model/ucm_types.h): fields of
 * a register layout, event codes, register definitions, box types and
 * sub-event names.  Functions of the tables alone, never of a model: the
 * driver and the control rules (ucm_check.c) use them as the model does.
 */
#include <stdio.h>
#include <string.h>

#include "ucm.h"

/* ---- descriptor helpers ---- */

uint64_t ucm_field_mask(const struct ucm_field *f)
{
	unsigned w = f->hi - f->lo + 1;

	return (w >= 64 ? ~0ull : ((1ull << w) - 1)) << f->lo;
}

uint64_t ucm_field_get(const struct ucm_field *f, uint64_t v)
{
	return f ? (v & ucm_field_mask(f)) >> f->lo : 0;
}

uint64_t ucm_field_put(const struct ucm_field *f, uint64_t v, uint64_t x)
{
	if (!f)
		return v;
	return (v & ~ucm_field_mask(f)) | ((x << f->lo) & ucm_field_mask(f));
}

const struct ucm_field *ucm_layout_field(const struct ucm_layout *l, unsigned role)
{
	for (unsigned i = 0; l && i < l->nfields; i++)
		if (l->fields[i].role == role)
			return &l->fields[i];
	return NULL;
}

const struct ucm_evcode *ucm_code_find(const struct ucm_boxtype *bt, unsigned code)
{
	for (unsigned i = 0; i < bt->ncodes; i++)
		if (bt->codes[i].code == code && !(bt->codes[i].flags & UCM_EC_FIXED))
			return &bt->codes[i];
	return NULL;
}

const struct ucm_evcode *ucm_code_named(const struct ucm_boxtype *bt, unsigned code)
{
	const struct ucm_evcode *ec = ucm_code_find(bt, code);

	for (unsigned i = 0; !ec && i < bt->ncodes; i++)
		if (bt->codes[i].code == code)
			ec = &bt->codes[i];
	return ec;
}

const struct ucm_regdef *ucm_regdef_find(const struct ucm_boxtype *bt, unsigned kind,
					 unsigned idx)
{
	for (unsigned i = 0; i < bt->nregs; i++)
		if (bt->regs[i].kind == kind && bt->regs[i].idx == idx)
			return &bt->regs[i];
	return NULL;
}

const struct ucm_boxtype *ucm_boxtype_find(const struct ucm_platform *p, const char *name)
{
	for (unsigned i = 0; i < p->nboxes; i++)
		if (strcmp(p->boxes[i].type->name, name) == 0)
			return p->boxes[i].type;
	return NULL;
}

/* Box types are numbered in order of first appearance in plat->boxes. */
int ucm_boxtype_index(const struct ucm_platform *p, const struct ucm_boxtype *bt)
{
	int n = 0;

	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *t = p->boxes[i].type;
		unsigned j;

		for (j = 0; j < i; j++)
			if (p->boxes[j].type == t)
				break;
		if (j < i)
			continue;
		if (t == bt)
			return n;
		n++;
	}
	return -1;
}

/* ---- sub-events ---- */

unsigned ucm_subev_count(const struct ucm_boxtype *bt)
{
	unsigned n = 0;

	for (unsigned i = 0; i < bt->ncodes; i++)
		n += bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;
	return n;
}

static int subev_locate(const struct ucm_boxtype *bt, unsigned idx, unsigned *code,
			unsigned *sub)
{
	for (unsigned i = 0; i < bt->ncodes; i++) {
		unsigned n = bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;

		if (idx < n) {
			*code = i;
			*sub = idx;
			return 0;
		}
		idx -= n;
	}
	return -1;
}

const struct ucm_evcode *ucm_subev_code(const struct ucm_boxtype *bt, unsigned i)
{
	unsigned c, s;

	return subev_locate(bt, i, &c, &s) ? NULL : &bt->codes[c];
}

const char *ucm_subev_name(const struct ucm_boxtype *bt, unsigned i, char *buf, size_t n)
{
	unsigned c, s;

	if (subev_locate(bt, i, &c, &s))
		snprintf(buf, n, "?");
	else if (bt->codes[c].nsubs)
		snprintf(buf, n, "%s.%s", bt->codes[c].name, bt->codes[c].subs[s].name);
	else
		snprintf(buf, n, "%s", bt->codes[c].name);
	return buf;
}

int ucm_subev_find(const struct ucm_boxtype *bt, const char *name)
{
	char buf[96];
	unsigned n = ucm_subev_count(bt);

	for (unsigned i = 0; i < n; i++)
		if (strcasecmp(ucm_subev_name(bt, i, buf, sizeof(buf)), name) == 0)
			return (int)i;
	return -1;
}
