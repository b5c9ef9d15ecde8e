/*
 * uct_replay_vec.c - what a trace's input vector is to the model, made when
 * the replay first meets it: its inputs grouped by socket and box type,
 * each distinct group's box vectors defined once and the phase the list of
 * them (a chunked vector's made from its chunks without decoding it), or,
 * where the vector is not numbered or the model has no room, the inputs
 * and attributes to set one by one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_bin.h"
#include "uct_reader.h"
#include "uct_replay.h"
#include "uct_vdict.h"

/* The boxes an input covers, into out; their number. */
static unsigned covered(const struct uct_replay *p, const struct uct_in *in, int *out)
{
	const int16_t *row;
	unsigned k = 0;

	if (in->socket >= p->nsock || in->bt >= UCM_MAXBT)
		return 0;
	row = p->map + ((size_t)in->socket * UCM_MAXBT + in->bt) * UCT_RMAXINST;
	if (in->inst >= 0)
		return row[in->inst] >= 0 ? (out[0] = row[in->inst], 1) : 0;
	for (unsigned i = 0; i < p->ninst[in->bt]; i++)
		if (row[i] >= 0)
			out[k++] = row[i];
	return k;
}

static int grow(void **a, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if (!(n = realloc(*a, c * size)))
		return -ENOMEM;
	*a = n;
	*cap = c;
	return 0;
}

int uct_replay_grow_sets(struct uct_replay *p)
{
	size_t cap = p->capset ? 2 * p->capset : 256;
	struct uct_rsetv *c = realloc(p->nxt, cap * sizeof(*c));
	struct ucm_phase_in *pi;

	if (!c)
		return -ENOMEM;
	p->nxt = c;
	if (!(pi = realloc(p->pin, cap * sizeof(*pi))))
		return -ENOMEM;
	p->pin = pi;
	free(p->hslot);
	/* twice the entries, a power of two */
	if (!(p->hslot = malloc(2 * cap * sizeof(*p->hslot))))
		return -ENOMEM;
	for (size_t i = 0; i < 2 * cap; i++)
		p->hslot[i] = -1;
	p->capset = cap;
	/* rehash what is being built */
	for (size_t i = 0; i < p->nnxt; i++) {
		size_t h = ((size_t)p->nxt[i].box * 65599u + p->nxt[i].sub) & (2 * cap - 1);

		while (p->hslot[h] >= 0)
			h = (h + 1) & (2 * cap - 1);
		p->hslot[h] = (int)i;
		p->nxt[i].slot = (unsigned)h;
	}
	return 0;
}

/* The entry of (box, sub) in nxt, created at 0 when absent (there is room). */
static struct uct_rsetv *nxt_at(struct uct_replay *p, int box, unsigned sub)
{
	size_t mask = 2 * p->capset - 1, h;

	for (h = ((size_t)box * 65599u + sub) & mask; p->hslot[h] >= 0; h = (h + 1) & mask) {
		struct uct_rsetv *e = &p->nxt[p->hslot[h]];

		if (e->box == box && e->sub == sub)
			return e;
	}
	p->hslot[h] = (int)p->nnxt;
	p->nxt[p->nnxt] = (struct uct_rsetv){ box, sub, 0, (unsigned)h };
	return &p->nxt[p->nnxt++];
}

static uint64_t gmix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 31);
}

/* An input's place in a group's hash: instance, sub-event and increment
 * in one word, then its attributes if it gives any (most give none). */
static inline uint64_t in_hash(uint64_t h, const struct uct_in *in)
{
	h = gmix(h, (uint64_t)(uint16_t)in->inst << 48 | (uint64_t)in->sub << 32 | in->inc);
	if (in->amask) {
		h = gmix(h, in->amask);
		for (unsigned m = in->amask & ((1u << UCM_NATTR) - 1); m; m &= m - 1)
			h = gmix(h, in->attr[__builtin_ctz(m)]);
	}
	return h;
}

static inline int in_same(const struct uct_in *x, const struct uct_in *y)
{
	if (x->inst != y->inst || x->sub != y->sub || x->inc != y->inc || x->amask != y->amask)
		return 0;
	for (unsigned m = x->amask & ((1u << UCM_NATTR) - 1); m; m &= m - 1)
		if (x->attr[__builtin_ctz(m)] != y->attr[__builtin_ctz(m)])
			return 0;
	return 1;
}

/* The box vector each instance of group g gets from its inputs in[0..n):
 * the inputs covering it, those of one sub-event added up, and their
 * attributes (inputs covering one sub-event have the same ones: the
 * reader checked). */
static int grp_make(struct uct_replay *p, const struct uct_in *const *in, unsigned n,
		    const struct uct_rgrp *g)
{
	const int16_t *row = p->map + ((size_t)g->socket * UCM_MAXBT + g->bt) * UCT_RMAXINST;

	for (unsigned i = 0; i < p->ninst[g->bt]; i++) {
		int box = row[i], rc;
		size_t npat = 0;

		p->gid[g->id0 + i] = -1;
		if (box < 0)
			continue;
		p->nnxt = 0;
		for (unsigned k = 0; k < n; k++) {
			const struct uct_in *x = in[k];

			if (x->inst >= 0 && x->inst != (int)i)
				continue;
			if (p->nnxt == p->capset && uct_replay_grow_sets(p))
				return -ENOMEM;
			nxt_at(p, box, x->sub)->v += x->inc;
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (x->amask >> a & 1) {
					if (grow((void **)&p->pat, &p->cappat, npat + 1, sizeof(*p->pat)))
						return -ENOMEM;
					p->pat[npat++] = (struct ucm_phase_attr){ box, x->sub, a, x->attr[a] };
				}
		}
		for (size_t j = 0; j < p->nnxt; j++) {
			p->hslot[p->nxt[j].slot] = -1;
			p->pin[j] = (struct ucm_phase_in){ box, p->nxt[j].sub, p->nxt[j].v };
		}
		if ((rc = ucm_boxvec_define(p->m, box, p->pin, p->nnxt, p->pat, npat)) < 0)
			return rc;
		p->gid[g->id0 + i] = rc;
	}
	return 0;
}

/* The group of (socket, bt) with inputs in[0..n) and hash h (grp_hash),
 * found or made. */
static int grp_find(struct uct_replay *p, unsigned socket, unsigned bt,
		    const struct uct_in *const *in, unsigned n, uint64_t h, const struct uct_rgrp **out)
{
	size_t mask, i;
	struct uct_rgrp *g;
	int rc;

	if (p->capgrp) {
		mask = 2 * p->capgrp - 1;
		for (i = h & mask; p->gslot[i] >= 0; i = (i + 1) & mask) {
			unsigned k = 0;

			g = &p->grp[p->gslot[i]];
			if (g->hash != h || g->socket != socket || g->bt != bt || g->nin != n)
				continue;
			while (k < n && in_same(&p->gin[g->in0 + k], in[k]))
				k++;
			if (k == n) {
				*out = g;
				return 0;
			}
		}
	}
	if (p->ngrp == p->capgrp) {
		size_t cap = p->capgrp ? 2 * p->capgrp : 64;
		struct uct_rgrp *ng = realloc(p->grp, cap * sizeof(*ng));
		int32_t *sl;

		if (!ng)
			return -ENOMEM;
		p->grp = ng;
		if (!(sl = malloc(2 * cap * sizeof(*sl))))
			return -ENOMEM;
		memset(sl, 0xff, 2 * cap * sizeof(*sl));
		for (size_t j = 0; j < p->ngrp; j++) {
			for (i = p->grp[j].hash & (2 * cap - 1); sl[i] >= 0; i = (i + 1) & (2 * cap - 1))
				;
			sl[i] = (int32_t)j;
		}
		free(p->gslot);
		p->gslot = sl;
		p->capgrp = cap;
	}
	if (grow((void **)&p->gin, &p->capgin, p->ngin + n, sizeof(*p->gin)) ||
	    grow((void **)&p->gid, &p->capgid, p->ngid + p->ninst[bt] + 1, sizeof(*p->gid)))
		return -ENOMEM;
	g = &p->grp[p->ngrp];
	*g = (struct uct_rgrp){ h, (uint32_t)p->ngin, n, (uint32_t)p->ngid, (uint8_t)socket, (uint8_t)bt };
	if ((rc = grp_make(p, in, n, g)))
		return rc;
	for (unsigned k = 0; k < n; k++)
		p->gin[p->ngin + k] = *in[k];
	p->ngin += n;
	p->ngid += p->ninst[bt];
	mask = 2 * p->capgrp - 1;
	for (i = h & mask; p->gslot[i] >= 0; i = (i + 1) & mask)
		;
	p->gslot[i] = (int32_t)p->ngrp++;
	*out = g;
	return 0;
}

/* The groups of inputs in[0..n) by (socket, box type), each found or
 * made (grp_find): bucketed in the order the keys are first met, the
 * inputs' order kept within, each bucket's hash made on the way; only the
 * keys the inputs have are visited (p->kslot: a key's bucket, -1 outside
 * this call).  Each key (socket * UCM_MAXBT + box type) into keys[] and
 * its group's index in p->grp into gi[]; *nk of them. */
static int vec_groups(struct uct_replay *p, const struct uct_in *v, unsigned n, uint8_t *keys,
		      int32_t *gi, unsigned *nkp)
{
	enum { NK = UCT_MAXSOCK * UCM_MAXBT };
	unsigned nk = 0, cnt[NK], pos[NK];
	uint64_t hk[NK];
	const struct uct_in *ord[UCT_MAXIN];
	int rc = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct uct_in *in = &v[i];
		unsigned k = (unsigned)in->socket * UCM_MAXBT + in->bt;
		int j;

		if (in->socket >= p->nsock || in->socket >= UCT_MAXSOCK || in->bt >= UCM_MAXBT)
			continue;
		if ((j = p->kslot[k]) < 0) {
			p->kslot[k] = (int16_t)(j = (int)nk);
			keys[nk] = (uint8_t)k;
			hk[nk] = k;
			cnt[nk++] = 0;
		}
		cnt[j]++;
		hk[j] = in_hash(hk[j], in);
	}
	for (unsigned j = 0, at = 0; j < nk; j++) {
		pos[j] = at;
		at += cnt[j];
		hk[j] = gmix(hk[j], cnt[j]);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct uct_in *in = &v[i];

		if (in->socket < p->nsock && in->socket < UCT_MAXSOCK && in->bt < UCM_MAXBT)
			ord[pos[p->kslot[(unsigned)in->socket * UCM_MAXBT + in->bt]]++] = in;
	}
	/* bucket j is now ord[pos[j] - cnt[j], pos[j]) */
	for (unsigned j = 0; j < nk && !rc; j++) {
		const struct uct_rgrp *g;

		if (!(rc = grp_find(p, keys[j] / UCM_MAXBT, keys[j] % UCM_MAXBT, ord + pos[j] - cnt[j],
				    cnt[j], hk[j], &g)))
			gi[j] = (int32_t)(g - p->grp);
	}
	for (unsigned j = 0; j < nk; j++)
		p->kslot[keys[j]] = -1;
	*nkp = nk;
	return rc;
}

/* The phase of groups gi[0..n) of keys keys[0..n), each key once: in key
 * order, which is the model's box order (socket, then box type), so that
 * the phase's box vectors come sorted.  -ENOSPC: the model has no room. */
static int groups_phase(struct uct_replay *p, uint8_t *keys, int32_t *gi, unsigned n)
{
	size_t nid = 0;

	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && keys[b - 1] > keys[b]; b--) {
			uint8_t tk = keys[b];
			int32_t tg = gi[b];

			keys[b] = keys[b - 1];
			gi[b] = gi[b - 1];
			keys[b - 1] = tk;
			gi[b - 1] = tg;
		}
	for (unsigned k = 0; k < n; k++) {
		const struct uct_rgrp *g = &p->grp[gi[k]];

		if (grow((void **)&p->vids, &p->capvids, nid + p->ninst[g->bt], sizeof(*p->vids)))
			return -ENOMEM;
		for (unsigned i = 0; i < p->ninst[g->bt]; i++)
			if (p->gid[g->id0 + i] >= 0)
				p->vids[nid++] = p->gid[g->id0 + i];
	}
	return ucm_phase_define_boxvecs(p->m, p->vids, nid);
}

/* A phase for segment s's vector: its inputs grouped by (socket, box
 * type), each distinct group's box vectors made once (a new vector of a
 * trace usually repeats most boxes' parts of vectors met before), the
 * phase the list of them.  -ENOSPC: the model has no room. */
static int vec_phase(struct uct_replay *p, const struct uct_seg *s)
{
	uint8_t keys[UCT_MAXSOCK * UCM_MAXBT];
	int32_t gi[UCT_MAXSOCK * UCM_MAXBT];
	unsigned nk;
	int rc = vec_groups(p, s->in, s->nin, keys, gi, &nk);

	return rc ? rc : groups_phase(p, keys, gi, nk);
}

/* A phase for the pending segment's new vector from the chunks the reader
 * read it as (r->lch: each numbered, no socket and box type in two), without
 * its inputs: a chunk's groups are its vector's groups of their sockets
 * and box types, found (or made) once per chunk (vec_groups, as vec_phase
 * finds them).  -EAGAIN: the reader has no such chunks for it; -ENOSPC:
 * the model has no room. */
int uct_replay_chunks_phase(struct uct_replay *p)
{
	enum { NK = UCT_MAXSOCK * UCM_MAXBT };
	const struct uct_reader *r = p->r;
	uint8_t keys[NK];
	int32_t gi[NK];
	unsigned nk = 0;
	int rc;

	if (r->lch_vid < 0 || r->lch_vid != p->vid)
		return -EAGAIN;
	for (unsigned k = 0; k < r->nlch; k++) {
		uint32_t c = r->lch[k];

		if (c >= p->capcg) {
			size_t cap = p->capcg ? 2 * p->capcg : 256;
			int32_t *n0;
			uint8_t *nn;

			while (cap <= c)
				cap *= 2;
			if (!(n0 = realloc(p->cg0, cap * sizeof(*n0))))
				return -ENOMEM;
			p->cg0 = n0;
			if (!(nn = realloc(p->cgn, cap * sizeof(*nn))))
				return -ENOMEM;
			p->cgn = nn;
			for (size_t i = p->capcg; i < cap; i++)
				n0[i] = -1;
			p->capcg = cap;
		}
		if (p->cg0[c] < 0) {
			uint8_t ck[NK];
			int32_t cgi[NK];
			unsigned cn;

			if (!p->cseg && !(p->cseg = malloc(sizeof(*p->cseg))))
				return -ENOMEM;
			if (uct_bin_inputs_of(p->r, r->cd->bytes + r->cd->off[c], r->cd->len[c], p->cseg))
				return -EAGAIN;
			if ((rc = vec_groups(p, p->cseg->in, p->cseg->nin, ck, cgi, &cn)))
				return rc;
			if (grow((void **)&p->cgk, &p->capcgk, p->ncgk + cn, sizeof(*p->cgk)) ||
			    grow((void **)&p->cgi, &p->capcgi, p->ncgk + cn, sizeof(*p->cgi)))
				return -ENOMEM;
			memcpy(p->cgk + p->ncgk, ck, cn);
			memcpy(p->cgi + p->ncgk, cgi, cn * sizeof(*cgi));
			p->cg0[c] = (int32_t)p->ncgk;
			p->cgn[c] = (uint8_t)cn;
			p->ncgk += cn;
		}
		/* the reader found no key in two chunks: at most NK in all */
		if (nk + p->cgn[c] > NK)
			return -EAGAIN;
		memcpy(keys + nk, p->cgk + p->cg0[c], p->cgn[c]);
		memcpy(gi + nk, p->cgi + p->cg0[c], p->cgn[c] * sizeof(*gi));
		nk += p->cgn[c];
	}
	return groups_phase(p, keys, gi, nk);
}

/* Make what segment s's vector means to the model: v (a numbered vector:
 * a phase if the model has room, attributes in the pool; unnumbered:
 * inputs and attributes in scratch space). */
int uct_replay_make_vec(struct uct_replay *p, const struct uct_seg *s, struct uct_rvec *v,
			int numbered)
{
	int boxes[UCT_RMAXINST];
	struct uct_raset **ap = numbered ? &p->apool : &p->aonce[p->oncei];
	size_t *apn = numbered ? &p->napool : &(size_t){ 0 };
	size_t *apcap = numbered ? &p->capapool : &p->capaonce[p->oncei];
	size_t a0 = *apn;
	int rc;

	if (numbered) {
		rc = vec_phase(p, s);
		if (rc >= 0) {
			v->phase = rc;
			v->a0 = v->na = 0;
			return 0;
		}
		if (rc == -ENOMEM) {
			snprintf(p->err, sizeof(p->err), "trace replay: out of memory");
			return ucm_set_error(p->m, rc, p->err);
		}
		if (rc != -ENOSPC)
			return uct_replay_apply_fail(p, rc);
	}
	/* inputs covering one sub-event add up */
	p->nnxt = 0;
	for (unsigned i = 0; i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];
		unsigned nb = covered(p, in, boxes);

		for (unsigned k = 0; k < nb; k++) {
			if (p->nnxt == p->capset && uct_replay_grow_sets(p))
				return -ENOMEM;
			nxt_at(p, boxes[k], in->sub)->v += in->inc;
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1) {
					if (grow((void **)ap, apcap, *apn + 1, sizeof(**ap)))
						return -ENOMEM;
					(*ap)[(*apn)++] = (struct uct_raset){
						boxes[k], in->sub, a,
						p->aoff[boxes[k]] + in->sub * UCM_NATTR + a, in->attr[a] };
				}
		}
	}
	for (size_t i = 0; i < p->nnxt; i++)
		p->hslot[p->nxt[i].slot] = -1;
	v->a0 = (uint32_t)a0;
	v->na = (uint32_t)(*apn - a0);
	v->phase = -1;
	/* no phase: the inputs to set, in the pool (a numbered vector) or
	 * left in nxt (an unnumbered one, used at once) */
	v->i0 = (uint32_t)p->nipool;
	v->ni = (uint32_t)p->nnxt;
	if (numbered) {
		if (grow((void **)&p->ipool, &p->capipool, p->nipool + p->nnxt, sizeof(*p->ipool)))
			return -ENOMEM;
		memcpy(p->ipool + p->nipool, p->nxt, p->nnxt * sizeof(*p->nxt));
		p->nipool += p->nnxt;
	} else {
		v->i0 = UINT32_MAX; /* in nxt */
	}
	return 0;
}
