/*
 * uct_replay.c - the replay of a trace into a model: each segment entered
 * as the model's time reaches it (its vector's phase, the attributes and
 * the sleep states that change), and the segments that are only a phase's
 * entry read ahead, straight from the binary reader's block, and run many
 * in one call of the model.  Its state: uct_replay.h; what a vector is to
 * the model: uct_replay_vec.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_bin.h"
#include "uct_reader.h"
#include "uct_replay.h"

/* The time reference cycle c of the trace completes: ceil((base + c) *
 * 10^12 / hz) ps.  Segments come in time order, so the quotient and
 * remainder of (base + c) * num / den (10^12 / hz reduced) are carried
 * from the previous call: a 64-bit division per segment, not a 128-bit
 * one. */
static inline __attribute__((always_inline)) uint64_t cycle_time(struct uct_replay *p, uint64_t c)
{
	if (c >= p->tc && c - p->tc <= 8) {
		/* a few cycles: the per-cycle quotient and remainder, no division */
		uint64_t d = c - p->tc;

		p->tq += d * p->tq1;
		p->tr += d * p->tr1;
		while (p->tr >= p->tden) {
			p->tq++;
			p->tr -= p->tden;
		}
	} else if (c >= p->tc && c - p->tc < p->tmax) {
		/* d / tden by a multiply with its reciprocal, short by at most
		 * 2, then corrected (a division costs several times as much) */
		uint64_t d = (c - p->tc) * p->tnum;
		uint64_t q = (uint64_t)(((unsigned __int128)d * p->tinv) >> 64), r = d - q * p->tden;

		while (r >= p->tden) {
			q++;
			r -= p->tden;
		}
		p->tq += q;
		p->tr += r;
		if (p->tr >= p->tden) {
			p->tq++;
			p->tr -= p->tden;
		}
	} else {
		unsigned __int128 x = (unsigned __int128)(p->base_cycles + c) * p->tnum;
		unsigned __int128 q = x / p->tden;

		p->tq = q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
		p->tr = (uint64_t)(x % p->tden);
	}
	p->tc = c;
	return p->tq + (p->tr != 0 && p->tq < UINT64_MAX);
}

uint64_t uct_replay_end_ps(struct uct_replay *p)
{
	struct uct_replay q;

	if (!p->r->checked)
		return UINT64_MAX;
	/* on a copy: the replay's carried quotient stays its own */
	q = *p;
	q.tc = UINT64_MAX;
	return cycle_time(&q, p->r->end_cycles);
}

static int set_attr(struct uct_replay *p, int box, unsigned sub, unsigned a, uint64_t v)
{
	if (ucm_get_input_attr(p->m, box, sub, a) == v)
		return 0;
	return ucm_set_input_attr(p->m, box, sub, a, v);
}

static const uint64_t no_sleep[UCT_MAXSOCK];

/* Make the model's sleep states those of the masks: only the cores whose
 * state the trace changes. */
static void sleep_to(struct uct_replay *p, const uint64_t *asleep)
{
	for (unsigned so = 0; so < p->nsock && so < UCT_MAXSOCK; so++) {
		uint64_t want = asleep[so], diff = (want ^ p->asleep[so]) & p->coremask;

		/* the cores whose bit changed (a segment of a C-state trace
		 * changes one or two of them) */
		for (; diff; diff &= diff - 1) {
			unsigned c = (unsigned)__builtin_ctzll(diff);

			ucm_core_sleep(p->m, so, c, (int)(want >> c & 1));
		}
		p->asleep[so] = want;
	}
}

/* Make the model's inputs and attributes those of vector v. */
static int enter(struct uct_replay *p, const struct uct_rvec *v, const struct uct_raset *va)
{
	const struct uct_rvec *o = p->cur;
	int rc;

	if (v == o)
		return 0;
	if (v->phase >= 0) {
		/* the phase gives its attributes; those a vector set one by one
		 * gave go back to the model's own */
		const struct uct_raset *oa = !o || o->phase >= 0 ? NULL
				      : o == &p->once[0] ? p->aonce[0]
				      : o == &p->once[1] ? p->aonce[1] : p->apool;

		for (uint32_t i = 0; oa && i < o->na; i++) {
			const struct uct_raset *e = &oa[o->a0 + i];

			if ((rc = set_attr(p, e->box, e->sub, e->a, p->attr0[e->idx])))
				return uct_replay_apply_fail(p, rc);
		}
		if ((rc = ucm_phase_enter(p->m, v->phase)))
			return uct_replay_apply_fail(p, rc);
		p->cur = v;
		return 0;
	}
	/* set one by one: a phase's attributes end first */
	if (o && o->phase >= 0) {
		ucm_clear_inputs(p->m);
		o = NULL;
	}
	/* attributes: this vector's, then the previous one's that this one
	 * does not give go back to the model's own */
	if (v->na || (o && o->na)) {
		const struct uct_raset *oa = o == &p->once[0] ? p->aonce[0]
				      : o == &p->once[1] ? p->aonce[1]
				      : p->apool;

		if (++p->stamp == 0) {
			memset(p->astamp, 0, p->aoff[ucm_box_count(p->m)] * sizeof(*p->astamp));
			p->stamp = 1;
		}
		for (uint32_t i = 0; i < v->na; i++) {
			const struct uct_raset *e = &va[v->a0 + i];

			p->astamp[e->idx] = p->stamp;
			if ((rc = set_attr(p, e->box, e->sub, e->a, e->v)))
				return uct_replay_apply_fail(p, rc);
		}
		for (uint32_t i = 0; o && i < o->na; i++) {
			const struct uct_raset *e = &oa[o->a0 + i];

			if (p->astamp[e->idx] != p->stamp &&
			    (rc = set_attr(p, e->box, e->sub, e->a, p->attr0[e->idx])))
				return uct_replay_apply_fail(p, rc);
		}
	}
	{
		const struct uct_rsetv *in = v->i0 == UINT32_MAX ? p->nxt : p->ipool + v->i0;

		ucm_clear_inputs(p->m);
		for (uint32_t i = 0; i < v->ni; i++)
			if ((rc = ucm_set_input(p->m, in[i].box, in[i].sub, in[i].v)))
				return uct_replay_apply_fail(p, rc);
	}
	p->cur = v;
	return 0;
}

/* The vector of the pending segment, made when first met. */
static int seg_vec(struct uct_replay *p, const struct uct_rvec **out, const struct uct_raset **va)
{
	int rc;

	if (p->vid < 0) {
		struct uct_rvec *v = &p->once[p->oncei];

		/* the other scratch may be the vector in effect */
		if ((rc = uct_replay_make_vec(p, &p->seg, v, 0)))
			return rc;
		*out = v;
		*va = p->aonce[p->oncei];
		p->oncei ^= 1;
		return 0;
	}
	if ((unsigned)p->vid >= p->nvec) {
		size_t cap = p->nvec, need = (size_t)p->vid + 1, ci = SIZE_MAX;
		struct uct_rvec *nv;

		cap = cap ? cap : 64;
		while (cap < need)
			cap *= 2;
		/* the vector in effect may move: its index, taken before the
		 * array is reallocated (compared as addresses: it may be
		 * another object, and p->vec is NULL before the first) */
		if (p->cur && p->nvec &&
		    (uintptr_t)p->cur - (uintptr_t)p->vec < (uintptr_t)p->nvec * sizeof(*p->vec))
			ci = ((uintptr_t)p->cur - (uintptr_t)p->vec) / sizeof(*p->vec);
		if (!(nv = realloc(p->vec, cap * sizeof(*nv))))
			return -ENOMEM;
		if (ci != SIZE_MAX)
			p->cur = nv + ci;
		for (size_t i = p->nvec; i < cap; i++)
			nv[i].phase = -2;
		p->vec = nv;
		p->nvec = (unsigned)cap;
	}
	if (p->vec[p->vid].phase == -2) {
		struct uct_rvec *v = &p->vec[p->vid];

		if (!p->full) {
			/* a chunked vector the reader did not decode: its phase
			 * from its chunks, or else its content read now */
			rc = uct_replay_chunks_phase(p);
			if (rc >= 0) {
				v->phase = rc;
				v->a0 = v->na = 0;
				goto made;
			}
			if (rc == -ENOMEM) {
				snprintf(p->err, sizeof(p->err), "trace replay: out of memory");
				return ucm_set_error(p->m, rc, p->err);
			}
			if (rc != -EAGAIN && rc != -ENOSPC)
				return uct_replay_apply_fail(p, rc);
			if (uct_vector_content(p->r, p->vid, &p->seg)) {
				snprintf(p->err, sizeof(p->err), "trace: vector %d met before it was defined",
					 p->vid);
				return ucm_set_error(p->m, -EINVAL, p->err);
			}
			p->full = 1;
		}
		if ((rc = uct_replay_make_vec(p, &p->seg, v, 1)))
			return rc;
	}
made:
	*out = &p->vec[p->vid];
	*va = p->apool;
	return 0;
}

/* The pending segment's vector entered, the sleep states its masks give;
 * the time of its end into *next. */
static int replay_enter(struct uct_replay *p, uint64_t *next)
{
	const struct uct_rvec *v;
	const struct uct_raset *va;
	int rc;

	p->pending = 0;
	if (p->vid == -3) {
		v = p->gapv;
		va = p->gapva;
	} else if ((rc = seg_vec(p, &v, &va))) {
		return rc;
	}
	if ((rc = enter(p, v, va)))
		return rc;
	for (unsigned so = 0; so < p->nsock && so < UCT_MAXSOCK; so++)
		if (p->asleep[so] != p->seg.asleep[so]) {
			sleep_to(p, p->seg.asleep);
			break;
		}
	p->cycles = p->seg.start + p->seg.ncycles;
	*next = cycle_time(p, p->cycles);
	return 0;
}

/* What uct_next_vec gave (rc) into the model: the segment (or the gap
 * before it, the segment then pending), or the end of the trace. */
static int replay_read(struct ucm_model *m, struct uct_replay *p, int rc, uint64_t *next)
{
	const struct uct_rvec *v;
	const struct uct_raset *va;

	if (rc < 0) {
		snprintf(p->err, sizeof(p->err), "%s", uct_reader_error(p->r));
		return ucm_set_error(m, rc, p->err);
	}
	if (rc == 0) {
		if ((rc = enter(p, &p->idle, NULL)))
			return rc;
		sleep_to(p, no_sleep);
		p->done = 1;
		*next = UINT64_MAX;
		return 0;
	}
	if (p->seg.start > p->cycles) {
		/* a gap is idle time; the segment's vector is made now, while
		 * the segment holds it */
		if ((rc = seg_vec(p, &v, &va)) || (rc = enter(p, &p->idle, NULL)))
			return rc;
		sleep_to(p, no_sleep);
		p->pending = 1;
		p->vid = -3; /* made: the vector to enter next */
		p->gapv = v;
		p->gapva = va;
		*next = cycle_time(p, p->seg.start);
		p->cycles = p->seg.start;
		return 0;
	}
	return replay_enter(p, next);
}

/* The next segment (or gap, or the end) into the model: one read ahead
 * and not run yet, or held, or pending after its gap, or read now. */
static int replay_next(struct ucm_model *m, struct uct_replay *p, uint64_t *next)
{
	int rc;

	if (p->qi < p->qn) {
		/* a phase, after one: its entry and its sleep masks */
		if ((rc = enter(p, p->qv[p->qi], NULL)))
			return rc;
		sleep_to(p, p->qm[p->qi]);
		*next = cycle_time(p, p->q[p->qi++].end - p->base_cycles);
		return 0;
	}
	if (p->held) {
		p->held = 0;
		return replay_read(m, p, p->held_rc, next);
	}
	if (p->pending)
		return replay_enter(p, next);
	return replay_read(m, p, uct_next_vec_inline(p->r, &p->seg, &p->vid, &p->full), next);
}

/* read_ahead's common records read straight from the block into the queue
 * from n on: what uct_fast_next reads and checks (a reference with its time
 * and its masks, not the block's last), with no gap, to a vector made a
 * phase.  Nothing is copied through a segment: a record's masks are
 * decoded where the reader keeps them and the replay's nmask words taken
 * from there.  Stops before anything else (the general path then reads
 * it, errors and all); returns the queue's new length. */
static __attribute__((noinline)) unsigned ahead_fast(struct uct_replay *p, unsigned n)
{
	/* (out of line, its state in locals: inlined into replay_step it
	 * ran short of registers and kept them on the stack) */
	struct uct_reader *r = p->r;
	const unsigned char *b, *e;
	const struct uct_rvec *vec = p->vec;
	struct ucm_step *q = p->q;
	const struct uct_rvec **qv = p->qv;
	uint64_t (*qm)[UCT_MAXSOCK] = p->qm;
	uint64_t base = p->base_cycles, bend, bmax, *cur = r->asleep, one[2] = { 0, 0 };
	const uint64_t *was = n ? qm[n - 1] : p->asleep;
	unsigned nm = p->nmask, nvec, qf = p->qf, n0 = n, lim, emp = 0;
	uint64_t d = 0;

	/* (few values live across the loop: the model's cycles at the end
	 * so far and at the limit, a bound on the queue for the records
	 * left in the block; more were kept on the stack) */
	if (!r->vform || r->failed || !r->vd || r->brecs <= 1 || r->end != p->cycles ||
	    base > UINT64_MAX - r->maxend)
		return n;
	if (r->changes && r->hdr.version >= 2) {
		/* the one-byte changes (socket * 64 + core, up to 127) that
		 * name a core the trace has */
		for (unsigned so = 0; so < 2 && so < r->hdr.sockets; so++)
			one[so] = r->cores;
		emp = (unsigned)r->empty;
	}
	/* qf, for sleep_ran: no later than the first step whose masks
	 * differ from the last's, here the first with masks of its own
	 * (cheaper than comparing the words at each record).  The reader's
	 * masks are those of the last step queued or entered whenever this
	 * is reached; should that change, qf is this one */
	for (unsigned so = 0; so < nm; so++)
		d |= cur[so] ^ was[so];
	if (d && qf > n)
		qf = n;
	b = r->blk + r->bpos;
	e = r->blk + r->blen;
	bend = base + r->end;
	bmax = base + r->maxend;
	nvec = r->vd->n < p->nvec ? r->vd->n : p->nvec;
	lim = r->brecs - 1 < UCT_RUNQ - n ? n + r->brecs - 1 : UCT_RUNQ;
	while (n < lim) {
		const unsigned char *c = b;
		const struct uct_rvec *v;
		uint64_t nc, code, vid;
		unsigned a;

		/* no gap: a zero byte; then the length and the vector, read
		 * up to 17 bytes on (past the end: UCT_BLKPAD zero bytes), checked
		 * to end in the block once read */
		if (*c++ || !(a = uct_fast_var_pad(c, &nc)) || nc - 1 >= bmax - bend)
			break;
		c += a;
		if (!(a = uct_fast_var_pad(c, &code)) || (c += a) > e || (vid = (code >> 1) - 1) >= nvec ||
		    (v = &vec[vid])->phase < 0)
			break;
		if (code & 1) {
			/* its own masks (else the last record's, in cur); the
			 * usual C-state boundary, one core of the first 128
			 * changing, or none in two bytes (flags bit 3), here
			 * without a branch on which (uct_fast_masks' checks for
			 * them); the rest to uct_fast_masks */
			unsigned x = c[1] & 0x7f;
			unsigned u1 = (c[0] == 1) & (c[1] < 0x80) & (unsigned)(one[x >> 6] >> (x & 63));
			unsigned u0 = (c[0] == 0x80) & (c[1] == 0) & emp;

			qf = qf < n ? qf : n;
			if ((u1 | u0) & (c + 2 <= e)) {
				cur[x >> 6] ^= (uint64_t)(u1 & 1) << (x & 63);
				c += 2;
			} else if (r->hdr.version < 2 || !(a = uct_fast_masks(r, c, e, cur))) {
				break;
			} else {
				c += a;
			}
		}
		/* (two words stored whatever the sockets: a row has
		 * UCT_MAXSOCK, and those past nmask are not read) */
		qm[n][0] = cur[0];
		qm[n][1] = cur[1];
		for (unsigned so = 2; so < nm; so++)
			qm[n][so] = cur[so];
		bend += nc;
		q[n] = (struct ucm_step){ v->phase, bend };
		qv[n++] = v;
		b = c;
	}
	r->nseg += n - n0;
	r->bpos = (size_t)(b - r->blk);
	r->end = p->cycles = bend - base;
	r->brecs -= n - n0;
	p->qf = qf;
	return n;
}

/* Read ahead the segments that are only a phase's entry, its time and its
 * sleep masks: right after the last, of a vector made a phase, after a
 * vector that is a phase too (no attribute of its own to take back).  The
 * read that ends them is held.
 *
 * Their sleep masks may change from one to the next: the model's sleep
 * states are read only where a PMI is delivered (ucm_count.c,
 * deliver_pmi: dropped for a sleeping core, or with WAKE_ON_PMI the core
 * woken), and none is delivered inside ucm_phase_steps, which only sums
 * time into the epoch's phases and runs no step past the epoch's end
 * (agg_stop: before any counter with OVF_EN could wrap) or the time being
 * run to.  So what the states are between the steps of a batch that ran
 * cannot be seen, and after it they are set as those steps, one by one,
 * would have left them (sleep_ran); the steps that did not run are then
 * entered one at a time, each with its own masks (replay_next). */
static unsigned read_ahead(struct uct_replay *p)
{
	unsigned n = 0;

	p->qf = UCT_RUNQ;
	if (p->cur->phase < 0)
		return 0;
	while (n < UCT_RUNQ) {
		const struct uct_rvec *v;
		int rc;

		if ((n = ahead_fast(p, n)) == UCT_RUNQ)
			break;
		rc = uct_next_vec_inline(p->r, &p->seg, &p->vid, &p->full);

		if (rc != 1 || p->seg.start != p->cycles || (unsigned)p->vid >= p->nvec ||
		    (v = &p->vec[p->vid])->phase < 0) {
			p->held = 1;
			p->held_rc = rc;
			break;
		}
		/* word by word: the masks were just stored so, and a wider
		 * load would wait for the stores (the empty asm keeps the
		 * compiler from vectorising the copy); compared until one
		 * changes */
		{
			const uint64_t *was = n ? p->qm[n - 1] : p->asleep;
			uint64_t d = 0;

			for (unsigned so = 0; so < p->nmask; so++) {
				uint64_t w = p->seg.asleep[so];

				__asm__("" : "+r"(w));
				d |= w ^ was[so];
				p->qm[n][so] = w;
			}
			if (d && p->qf == UCT_RUNQ)
				p->qf = n;
		}
		p->cycles = p->seg.start + p->seg.ncycles;
		p->q[n] = (struct ucm_step){ v->phase, p->base_cycles + p->cycles };
		p->qv[n++] = v;
	}
	return n;
}

/* The sleep states as the first k steps read ahead, entered one by one
 * (sleep_to each), would have left them: a core whose bit changed at any
 * of them takes its bit in the last (one a PMI woke and the trace left
 * asleep throughout stays awake); no other core is touched. */
static void sleep_ran(struct uct_replay *p, unsigned k)
{
	uint64_t ch[UCT_MAXSOCK], w[UCT_MAXSOCK];

	if (p->qf >= k)
		return; /* the masks as they were */
	/* the first two sockets' words in one pass over the rows (as
	 * ahead_fast stores them), any others after (no platform has more
	 * than two sockets today) */
	{
		uint64_t w0 = p->asleep[0], w1 = p->asleep[1], c0 = 0, c1 = 0;

		for (unsigned i = p->qf; i < k; i++) {
			c0 |= p->qm[i][0] ^ w0;
			c1 |= p->qm[i][1] ^ w1;
			w0 = p->qm[i][0];
			w1 = p->qm[i][1];
		}
		ch[0] = c0;
		ch[1] = c1;
		w[0] = w0;
		w[1] = w1;
	}
	for (unsigned so = 2; so < p->nmask; so++) {
		ch[so] = 0;
		w[so] = p->asleep[so];
		for (unsigned i = p->qf; i < k; i++) {
			ch[so] |= p->qm[i][so] ^ w[so];
			w[so] = p->qm[i][so];
		}
	}
	for (unsigned so = 0; so < p->nmask; so++) {
		uint64_t was = w[so], chg = ch[so];

		for (chg &= p->coremask; chg; chg &= chg - 1) {
			unsigned c = (unsigned)__builtin_ctzll(chg);

			ucm_core_sleep(p->m, so, c, (int)(was >> c & 1));
		}
		p->asleep[so] = was;
	}
}

/* The model's workload call: a segment entered (or a gap, or the end), and
 * while the model sums phases and nothing can happen before the segment
 * ends, its time run at once and the next ones entered and run in the same
 * call, those that are only a phase's entry many in one call of the model. */
static int replay_step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct uct_replay *p = ctx;
	int rc;

	(void)now;
	rc = replay_next(m, p, next);
	while (!rc && *next != UINT64_MAX && ucm_phase_run(m, *next)) {
		while (p->qi == p->qn && !p->held && !p->pending) {
			unsigned n = read_ahead(p);
			size_t k = ucm_phase_steps(m, 0, p->q, n);

			if (k) {
				p->cur = p->qv[k - 1];
				sleep_ran(p, (unsigned)k);
			}
			p->qi = (unsigned)k;
			p->qn = n;
			if (!n || k < n)
				break;
		}
		rc = replay_next(m, p, next);
	}
	return rc;
}

int uct_replay_attach(struct ucm_model *m, struct uct_reader *r, struct uct_replay **out)
{
	struct uct_replay *p = calloc(1, sizeof(*p));
	const struct ucm_platform *pl = ucm_platform_of(m);
	size_t nmap, nattr = 0;
	int rc;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->m = m;
	p->r = r;
	p->nsock = ucm_nsockets(m);
	memset(p->kslot, 0xff, sizeof(p->kslot));
	p->nmask = p->nsock < UCT_MAXSOCK ? p->nsock : UCT_MAXSOCK;
	p->coremask = pl->ncores >= 64 ? ~0ull : (1ull << pl->ncores) - 1;
	nmap = (size_t)p->nsock * UCM_MAXBT * UCT_RMAXINST;
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		nattr += (size_t)ucm_subev_count(ucm_box_def(m, (int)b)->type) * UCM_NATTR;
	p->map = malloc(nmap * sizeof(*p->map));
	p->aoff = malloc((ucm_box_count(m) + 1) * sizeof(*p->aoff));
	p->attr0 = malloc((nattr + 1) * sizeof(*p->attr0));
	p->astamp = calloc(nattr + 1, sizeof(*p->astamp));
	if (!p->map || !p->aoff || !p->attr0 || !p->astamp || uct_replay_grow_sets(p)) {
		uct_replay_detach(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nmap; i++)
		p->map[i] = -1;
	nattr = 0;
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
		int t = ucm_boxtype_index(pl, bi->type);

		if (t >= 0 && t < UCM_MAXBT && bi->type->ncodes) {
			p->map[((size_t)ucm_box_socket(m, (int)b) * UCM_MAXBT + (unsigned)t) * UCT_RMAXINST +
			       bi->inst] = (int16_t)b;
			if (bi->inst >= p->ninst[t])
				p->ninst[t] = bi->inst + 1u;
		}
		/* what an attribute a segment does not give goes back to */
		p->aoff[b] = nattr;
		for (unsigned s = 0; s < ucm_subev_count(bi->type); s++)
			for (unsigned a = 0; a < UCM_NATTR; a++)
				p->attr0[nattr++] = ucm_get_input_attr(m, (int)b, s, a);
	}
	p->aoff[ucm_box_count(m)] = nattr;
	/* the trace owns the inputs: idle (no input) is a phase too */
	rc = ucm_phase_define(m, NULL, 0);
	p->idle.phase = rc >= 0 ? rc : -1;
	p->idle.i0 = (uint32_t)p->nipool;
	ucm_clear_inputs(m);
	p->cur = &p->idle;
	p->base_cycles = ucm_cycles(m, 0);
	{
		uint64_t a = 1000000000000ull, b = ucm_clock_hz(m, 0);

		while (b) {
			uint64_t t = a % b;

			a = b;
			b = t;
		}
		p->tnum = 1000000000000ull / a;
		p->tden = ucm_clock_hz(m, 0) / a;
		p->tmax = UINT64_MAX / p->tnum;
		p->tinv = UINT64_MAX / p->tden;
		p->tq1 = p->tnum / p->tden;
		p->tr1 = p->tnum % p->tden;
		p->tc = UINT64_MAX; /* none yet */
	}
	ucm_set_workload(m, replay_step, p);
	p->attached = 1;
	*out = p;
	return 0;
}

/* Progress: the model's cycles since attaching, up to the trace's end. */
uint64_t uct_replay_cycles(const struct uct_replay *p)
{
	uint64_t c = ucm_cycles(p->m, 0) - p->base_cycles;

	return c < p->cycles ? c : p->cycles;
}

int uct_replay_done(const struct uct_replay *p)
{
	return p->done;
}

const char *uct_replay_error(const struct uct_replay *p)
{
	return p->err[0] ? p->err : "no error";
}

int uct_replay_failed(const struct uct_replay *p)
{
	return p && p->err[0];
}

void uct_replay_detach(struct uct_replay *p)
{
	if (!p)
		return;
	if (p->attached)
		ucm_set_workload(p->m, NULL, NULL);
	free(p->map);
	free(p->aoff);
	free(p->attr0);
	free(p->astamp);
	free(p->vec);
	free(p->ipool);
	free(p->apool);
	free(p->aonce[0]);
	free(p->aonce[1]);
	free(p->nxt);
	free(p->pin);
	free(p->pat);
	free(p->hslot);
	free(p->grp);
	free(p->gslot);
	free(p->gin);
	free(p->gid);
	free(p->vids);
	free(p->cg0);
	free(p->cgn);
	free(p->cgk);
	free(p->cgi);
	free(p->cseg);
	free(p);
}
