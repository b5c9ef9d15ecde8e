/*
 * uct_check.c - a trace's content against its platform: box types and
 * sub-events by index and name, the attributes' names and ranges, the
 * clocks (uct_config, uct_domain_cycles), and the segment checks (names,
 * instances, maxima, attributes, sleep masks) that every reader and the
 * writer apply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uct_check.h"

void uct_config(const struct uct_hdr *h, struct ucm_config *cfg)
{
	ucm_config_init(cfg, h->plat);
	cfg->sockets = h->sockets;
	memcpy(cfg->clock_hz, h->clock_hz, sizeof(cfg->clock_hz));
	memcpy(cfg->ninst, h->ninst, sizeof(cfg->ninst));
}

/* ---- platform lookups ---- */

/* Box types by index (ucm_boxtype_index), looked up once per reader,
 * writer or check: inputs name them by index. */
void uct_bt_table(const struct ucm_platform *p, const struct ucm_boxtype **t)
{
	memset(t, 0, UCM_MAXBT * sizeof(*t));
	for (unsigned i = 0; i < p->nboxes; i++) {
		int k = ucm_boxtype_index(p, p->boxes[i].type);

		if (k >= 0 && k < UCM_MAXBT)
			t[k] = p->boxes[i].type;
	}
}

/* ucm_subev_find without formatting every name: "CODE.SUB", or "CODE" for
 * a code with one input (case-insensitive too). */
int uct_find_sub(const struct ucm_boxtype *bt, const char *name)
{
	const char *dot = strchr(name, '.');
	size_t cn = dot ? (size_t)(dot - name) : strlen(name);
	int first = 0;

	for (unsigned i = 0; i < bt->ncodes; i++) {
		const struct ucm_evcode *ec = &bt->codes[i];
		unsigned n = ec->nsubs ? ec->nsubs : 1;

		if (strlen(ec->name) == cn && !strncasecmp(ec->name, name, cn)) {
			if (!ec->nsubs)
				return dot ? -1 : first;
			for (unsigned k = 0; dot && k < ec->nsubs; k++)
				if (!strcasecmp(ec->subs[k].name, dot + 1))
					return first + (int)k;
		}
		first += (int)n;
	}
	return -1;
}

const char *const uct_attr_names[UCM_NATTR] = {
	[UCM_AT_STATE] = "state", [UCM_AT_OPC] = "opc", [UCM_AT_NID] = "nid",
	[UCM_AT_TID] = "tid", [UCM_AT_FREQ] = "freq", [UCM_AT_MC] = "mc", [UCM_AT_VNW] = "vnw",
	[UCM_AT_DNID] = "dnid", [UCM_AT_RNID] = "rnid", [UCM_AT_RDS] = "rds", [UCM_AT_ADDR] = "addr",
};

/* The largest value of each attribute: what the widest filter field that
 * compares it can hold (a state or node is a bit number of a mask; Xeon
 * Tables 2-12, 2-37..2-39, 2-77, 2-88/2-89). */
const uint64_t uct_attr_max[UCM_NATTR] = {
	[UCM_AT_STATE] = 63, [UCM_AT_OPC] = 0x1FF, [UCM_AT_NID] = 63, [UCM_AT_TID] = 63,
	[UCM_AT_FREQ] = 255, [UCM_AT_MC] = 15, [UCM_AT_VNW] = 3, [UCM_AT_DNID] = 31,
	[UCM_AT_RNID] = 31, [UCM_AT_RDS] = 15, [UCM_AT_ADDR] = (1ull << 46) - 1,
};

const char *uct_attr_name(unsigned a)
{
	return a < UCM_NATTR ? uct_attr_names[a] : NULL;
}

int uct_in_equal(const struct uct_in *a, const struct uct_in *b)
{
	if (a->socket != b->socket || a->bt != b->bt || a->inst != b->inst || a->sub != b->sub ||
	    a->inc != b->inc || a->amask != b->amask)
		return 0;
	for (unsigned k = 0; k < UCM_NATTR; k++)
		if ((a->amask >> k & 1) && a->attr[k] != b->attr[k])
			return 0;
	return 1;
}

/* Whether a filter rule of the code compares attribute a: only then may an
 * input carry it (anything else would be a value nothing reads). */
int uct_code_compares(const struct ucm_evcode *ec, unsigned a)
{
	for (unsigned i = 0; i < ec->nrules; i++)
		if (ec->rules[i].attr == a)
			return 1;
	return 0;
}

/* The attributes of two inputs as the model would see them on a box they
 * both cover: the given ones must be the same, and given on both or none. */
static int same_attrs(const struct uct_in *a, const struct uct_in *b)
{
	if (a->amask != b->amask)
		return 0;
	for (unsigned k = 0; k < UCM_NATTR; k++)
		if ((a->amask >> k & 1) && a->attr[k] != b->attr[k])
			return 0;
	return 1;
}

uint64_t uct_domain_cycles(const struct uct_hdr *h, unsigned clock, uint64_t start, uint64_t n)
{
	unsigned __int128 ps = 1000000000000ull;
	uint64_t hz0, hz;
	unsigned __int128 t0, t1;

	if (!h->plat || clock >= h->plat->nclocks)
		return 0;
	hz0 = uct_hz_of(h, 0);
	hz = uct_hz_of(h, clock);
	/* the replay's boundaries: reference cycle c completes at ceil(c / hz0)
	 * in picoseconds; a domain counts the cycles completed by then */
	t0 = ((unsigned __int128)start * ps + hz0 - 1) / hz0;
	t1 = ((unsigned __int128)(start + n) * ps + hz0 - 1) / hz0;
	return (uint64_t)(t1 * hz / ps - t0 * hz / ps);
}

/* ---- segment checks ----
 *
 * Inputs are checked as they come, so the text reader can point at the one
 * at fault: a small hash map finds the inputs before it that share its
 * event code (increments add up per code and instance), and the latest
 * with its sub-event, the head of a chain of those: one on its instance is
 * the input given twice, and those that cover one sub-event on an
 * instance must agree on its attributes. */

enum { K_GRP = 1, K_SPEC, K_SUB };

/* The platform's box types and codes, once per platform met. */
static void chk_plat(struct uct_chk *c, const struct ucm_platform *p)
{
	uct_bt_table(p, c->bts);
	for (unsigned k = 0; k < UCM_MAXBT; k++) {
		const struct ucm_boxtype *t = c->bts[k];
		unsigned x = 0;

		c->nsub[k] = t ? ucm_subev_count(t) : 0;
		/* a code without sub-events is one sub-event */
		for (unsigned e = 0; t && e < t->ncodes; e++) {
			uint16_t m = 0;

			for (unsigned i = 0; i < t->codes[e].nrules; i++)
				if (t->codes[e].rules[i].attr < UCM_NATTR)
					m |= (uint16_t)(1u << t->codes[e].rules[i].attr);
			for (unsigned q = 0; q < (t->codes[e].nsubs ? t->codes[e].nsubs : 1u); q++)
				if (x < UCT_CHK_MAXSUB) {
					c->cmp[k][x] = m;
					c->code[k][x++] = (uint16_t)e;
				}
		}
	}
	c->plat = p;
}

/* Before a segment's inputs: chk holds none. */
void uct_chk_reset(struct uct_chk *c, const struct uct_hdr *h)
{
	if (c->plat != h->plat)
		chk_plat(c, h->plat);
	for (unsigned i = 0; i < c->nused; i++)
		c->key[c->used[i]] = 0;
	c->nused = c->ngrp = c->nspec = 0;
}

/* The slot of key, inserted (val = fresh) when absent; *found says which. */
static unsigned chk_slot(struct uct_chk *c, uint64_t key, uint16_t fresh, int *found)
{
	unsigned i = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 53) & (UCT_CHK_CAP - 1);

	while (c->key[i] && c->key[i] != key)
		i = (i + 1) & (UCT_CHK_CAP - 1);
	*found = c->key[i] != 0;
	if (!*found) {
		c->key[i] = key;
		c->val[i] = fresh;
		c->used[c->nused++] = (uint16_t)i;
	}
	return i;
}

static uint64_t chk_key(unsigned kind, unsigned socket, unsigned bt, unsigned a, unsigned b)
{
	return (uint64_t)kind << 60 | (uint64_t)socket << 48 | (uint64_t)bt << 40 |
	       (uint64_t)a << 20 | b;
}

/* Input i of seg against the inputs before it (chk holds them; uct_chk_reset
 * before the first). */
int uct_chk_add(struct uct_chk *c, const struct uct_hdr *h, const struct uct_seg *seg, unsigned i,
		char *err, size_t n)
{
	const struct uct_in *in = &seg->in[i];
	const struct ucm_boxtype *bt;
	const struct ucm_evcode *ec;
	unsigned sockets = h->sockets ? h->sockets : 1, slot, gi, code;
	uint64_t total, bad;
	uint16_t cmp;
	char name[96];
	int found, dup, diff;

	bt = in->bt < UCM_MAXBT ? c->bts[in->bt] : NULL;
	if (!bt || !bt->ncodes || in->sub >= c->nsub[in->bt]) {
		snprintf(err, n, "input %u: no such box type or sub-event", i + 1);
		return -EINVAL;
	}
	if (in->socket >= sockets) {
		snprintf(err, n, "socket %u: the trace has %u", in->socket, sockets);
		return -ERANGE;
	}
	if (in->inst >= (int)uct_ninst_of(h, in->bt, bt) || in->inst < -1) {
		snprintf(err, n, "%s%d: the trace has %u %s instances", bt->name, in->inst,
			 uct_ninst_of(h, in->bt, bt), bt->name);
		return -ERANGE;
	}
	if (in->sub < UCT_CHK_MAXSUB) {
		ec = &bt->codes[c->code[in->bt][in->sub]];
		cmp = c->cmp[in->bt][in->sub];
	} else {
		ec = ucm_subev_code(bt, in->sub);
		cmp = 0;
		for (unsigned a = 0; a < UCM_NATTR; a++)
			cmp |= (uint16_t)(uct_code_compares(ec, a) << a);
	}
	code = (unsigned)(ec - bt->codes);
	/* the sub-event's name only for messages: snprintf is the cost here */
#define NAME ucm_subev_name(bt, in->sub, name, sizeof(name))
	if (in->amask) {
		if (uct_version_of(h) < 2) {
			snprintf(err, n, "%s.%s: attributes need version 2 ('uncore-trace 2')", bt->name, NAME);
			return -EINVAL;
		}
		/* each attribute given: known, compared by a filter rule of the
		 * code (cmp), in range; the first at fault in increasing order */
		bad = in->amask & ~cmp;
		for (unsigned m = in->amask & cmp; m && !bad; m &= m - 1) {
			unsigned a = (unsigned)__builtin_ctz(m);

			bad = in->attr[a] > uct_attr_max[a];
		}
		for (unsigned a = 0; bad && a < 16; a++) {
			if (!(in->amask >> a & 1))
				continue;
			if (a >= UCM_NATTR) {
				snprintf(err, n, "%s.%s: unknown attribute %u", bt->name, NAME, a);
				return -EINVAL;
			}
			if (!uct_code_compares(ec, a)) {
				snprintf(err, n, "%s.%s: no filter of %s compares '%s' (%s)", bt->name, NAME,
					 ec->name, uct_attr_names[a], ec->cite);
				return -EINVAL;
			}
			if (in->attr[a] > uct_attr_max[a]) {
				snprintf(err, n, "%s.%s: %s=%llu out of range (max %llu)", bt->name, NAME,
					 uct_attr_names[a], (unsigned long long)in->attr[a],
					 (unsigned long long)uct_attr_max[a]);
				return -ERANGE;
			}
		}
	}
	/* the inputs before it of its sub-event (a chain, the latest first):
	 * one on its instance is the same input given twice; one that covers
	 * it on one of its instances must give the same attributes */
	slot = chk_slot(c, chk_key(K_SUB, in->socket, in->bt, 0, in->sub), (uint16_t)i, &found);
	c->prev[i] = found ? (int16_t)c->val[slot] : -1;
	c->val[slot] = (uint16_t)i;
	dup = 0;
	diff = -1;
	for (int j = c->prev[i]; j >= 0; j = c->prev[j]) {
		const struct uct_in *o = &seg->in[j];

		dup |= o->inst == in->inst;
		if (diff < 0 && (o->inst < 0 || in->inst < 0 || o->inst == in->inst) &&
		    !same_attrs(o, in))
			diff = j;
	}
	if (dup) {
		snprintf(err, n, "%s.%s given twice", bt->name, NAME);
		return -EINVAL;
	}
	if (diff >= 0) {
		snprintf(err, n, "%s.%s: attributes differ from those of input %d, which covers it too",
			 bt->name, NAME, diff + 1);
		return -EINVAL;
	}
	/* increments add up per event code and instance */
	slot = chk_slot(c, chk_key(K_GRP, in->socket, in->bt, 0, code), (uint16_t)c->ngrp, &found);
	gi = c->val[slot];
	if (!found)
		c->grp[c->ngrp++] = (struct uct_chk_grp){ 0, 0, -1 };
	if (in->inst < 0) {
		c->grp[gi].all += in->inc;
	} else {
		unsigned si = c->val[chk_slot(c, chk_key(K_SPEC, 0, 0, gi, (unsigned)in->inst),
					      (uint16_t)c->nspec, &found)];

		if (!found)
			c->spec[c->nspec++] = 0;
		c->spec[si] += in->inc;
		if (c->spec[si] > c->grp[gi].maxspec) {
			c->grp[gi].maxspec = c->spec[si];
			c->grp[gi].maxinst = in->inst;
		}
	}
	total = c->grp[gi].all + c->grp[gi].maxspec;
	if (total > ec->max_inc) {
		snprintf(err, n, "%s%d %s: %llu per cycle exceeds the event's maximum increment %u (%s)",
			 bt->name, c->grp[gi].maxinst >= 0 ? c->grp[gi].maxinst : 0, ec->name,
			 (unsigned long long)total, ec->max_inc, ec->cite);
		return -ERANGE;
	}
	return 0;
#undef NAME
}

static int check_sleep(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n)
{
	unsigned sockets = h->sockets ? h->sockets : 1;

	for (unsigned s = 0; s < UCT_MAXSOCK; s++) {
		uint64_t m = seg->asleep[s];

		if (!m)
			continue;
		if (uct_version_of(h) < 2) {
			snprintf(err, n, "sleep states need version 2 ('uncore-trace 2')");
			return -EINVAL;
		}
		if (s >= sockets) {
			snprintf(err, n, "socket %u: the trace has %u", s, sockets);
			return -ERANGE;
		}
		if (m & ~uct_core_mask(h->plat)) {
			snprintf(err, n, "asleep=0x%llx: %s has %u cores per socket", (unsigned long long)m,
				 h->plat->name, h->plat->ncores);
			return -ERANGE;
		}
	}
	return 0;
}

int uct_chk_seg(struct uct_chk *c, const struct uct_hdr *h, const struct uct_seg *seg, char *err,
		size_t n)
{
	if (!seg->ncycles || seg->ncycles > UCT_MAXCYCLES) {
		snprintf(err, n, "segment length %llu cycles out of range 1..2^56",
			 (unsigned long long)seg->ncycles);
		return -ERANGE;
	}
	if (seg->nin > UCT_MAXIN) {
		snprintf(err, n, "%u inputs (max %d)", seg->nin, UCT_MAXIN);
		return -ERANGE;
	}
	uct_chk_reset(c, h);
	for (unsigned i = 0; i < seg->nin; i++) {
		int rc = uct_chk_add(c, h, seg, i, err, n);

		if (rc)
			return rc;
	}
	return check_sleep(h, seg, err, n);
}

int uct_seg_check(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n)
{
	struct uct_chk *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	rc = uct_chk_seg(c, h, seg, err, n);
	free(c);
	return rc;
}
