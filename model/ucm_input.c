/*
 * ucm_input.c - what a workload gives the model besides time: each box's
 * sub-event inputs (increments per cycle) and their attributes, set one
 * by one or cleared at once, and the cores' sleep states.  An input change
 * reaches the counters that select it (ucm_count.c); during an epoch of
 * summed phases (ucm_phase.c) one ends it, and the inputs and attributes
 * read are the phase's.
 */
#include <errno.h>
#include <string.h>

#include "ucm_internal.h"

/* ---- boxes, inputs, truth ---- */

unsigned ucm_box_count(const struct ucm_model *m)
{
	return m->nboxes;
}

int ucm_box_find(const struct ucm_model *m, unsigned socket, const char *type, unsigned inst)
{
	for (unsigned i = 0; i < m->nboxes; i++) {
		const struct ucm_box *b = &m->boxes[i];

		if (b->socket == socket && b->def->inst == inst &&
		    strcmp(b->def->type->name, type) == 0)
			return (int)i;
	}
	return -1;
}

const struct ucm_boxinst *ucm_box_def(const struct ucm_model *m, int box)
{
	return box >= 0 && (unsigned)box < m->nboxes ? m->boxes[box].def : NULL;
}

unsigned ucm_box_socket(const struct ucm_model *m, int box)
{
	return box >= 0 && (unsigned)box < m->nboxes ? m->boxes[box].socket : 0;
}

/* A sub-event is about to change: remembered, so that ucm_restart sets
 * again only the sub-events that changed. */
static void sub_touch(struct ucm_model *m, struct ucm_box *b, unsigned s)
{
	if (!b->sub[s].touched) {
		b->sub[s].touched = 1;
		m->touched[m->ntouched++] = b->index << 16 | s;
	}
}

/* Set an input: what it fed until now goes into its ground truth, and the
 * list of nonzero inputs (what ucm_clear_inputs visits) follows. */
static void input_put(struct ucm_model *m, struct ucm_box *b, unsigned sub, uint32_t inc)
{
	struct ucm_sub *s = &b->sub[sub];
	uint64_t now = m->clk_cycles[b->def->type->clock];

	sub_touch(m, b, sub);
	s->fed += (uint64_t)s->input * (now - s->c0);
	s->c0 = now;
	if (!b->sub[sub].input && inc) {
		b->act[b->nact++] = (uint16_t)sub;
		b->sub[sub].act_pos = (uint16_t)b->nact;
	} else if (b->sub[sub].input && !inc) {
		unsigned k = b->sub[sub].act_pos - 1u, last = b->act[--b->nact];

		b->act[k] = (uint16_t)last;
		b->sub[last].act_pos = (uint16_t)(k + 1);
		b->sub[sub].act_pos = 0;
	}
	b->code[b->sub[sub].code].sum += (uint64_t)inc - b->sub[sub].input;
	b->sub[sub].input = inc;
}

int ucm_set_input(struct ucm_model *m, int box, unsigned sub, uint32_t inc)
{
	struct ucm_box *b;
	uint32_t old;
	uint64_t sum;
	unsigned code;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return ucm_seterr(m, -ENOENT, "no box %d", box);
	b = &m->boxes[box];
	if (sub >= b->nsub)
		return ucm_seterr(m, -ENOENT, "%s%u has no sub-event %u", b->def->type->name,
				  b->def->inst, sub);
	ucm_agg_exit(m);
	old = b->sub[sub].input;
	if (old == inc)
		return 0;
	code = b->sub[sub].code;
	sum = b->code[code].sum - old + inc;
	if (sum > b->code[code].max) {
		const struct ucm_evcode *ec = &b->def->type->codes[code];
		char name[96];

		return ucm_seterr(m, -ERANGE,
				  "%s%u %s: increment %llu per cycle exceeds the event's maximum %u (%s)",
				  b->def->type->name, b->def->inst,
				  ucm_subev_name(b->def->type, sub, name, sizeof(name)),
				  (unsigned long long)sum, ec->max_inc, ec->cite);
	}
	input_put(m, b, sub, inc);
	ucm_input_changed(m, b, sub, old);
	return 0;
}

uint32_t ucm_get_input(const struct ucm_model *m, int box, unsigned sub)
{
	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	if (m->agg)
		return ucm_agg_input(m, box, sub);
	return m->boxes[box].sub[sub].input;
}

unsigned ucm_input_fanout(const struct ucm_model *m, int box, unsigned sub)
{
	const struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	b = &m->boxes[box];
	return (unsigned)__builtin_popcount((unsigned)(b->sub[sub].selmask | b->sub[sub].occmask));
}

void ucm_attr_put(struct ucm_model *m, struct ucm_box *b, unsigned sub, unsigned attr, uint64_t v)
{
	if (b->attr[sub * UCM_NATTR + attr] == v)
		return;
	sub_touch(m, b, sub);
	b->attr[sub * UCM_NATTR + attr] = v;
	ucm_attr_changed(m, b, sub);
}

int ucm_set_input_attr(struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t v)
{
	struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return ucm_seterr(m, -ENOENT, "no box %d", box);
	b = &m->boxes[box];
	if (sub >= b->nsub || attr >= UCM_NATTR)
		return ucm_seterr(m, -ENOENT, "%s%u has no sub-event %u attribute %u",
				  b->def->type->name, b->def->inst, sub, attr);
	/* an attribute the phase in effect holds: what it returns to */
	if (!m->agg && ucm_ov_set_base(m, box, sub, attr, v))
		return 0;
	if (b->attr[sub * UCM_NATTR + attr] != v) {
		uint64_t old = b->attr[sub * UCM_NATTR + attr];

		sub_touch(m, b, sub);
		b->attr[sub * UCM_NATTR + attr] = v;
		/* during an epoch of phases, a change no counter's filters see
		 * changes nothing counted: the epoch goes on */
		if (m->agg && !ucm_attr_selects_other(b, sub))
			return 0;
		if (m->agg) {
			b->attr[sub * UCM_NATTR + attr] = old;
			ucm_agg_end(m);
			b->attr[sub * UCM_NATTR + attr] = v;
		}
		/* what the filters pass may change, for this sub-event only */
		ucm_attr_changed(m, b, sub);
	}
	return 0;
}

uint64_t ucm_get_input_attr(const struct ucm_model *m, int box, unsigned sub, unsigned attr)
{
	uint64_t v;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub || attr >= UCM_NATTR)
		return UCM_ATTR_NONE;
	if (m->agg && ucm_ov_get(m, box, sub, attr, &v))
		return v;
	return m->boxes[box].attr[sub * UCM_NATTR + attr];
}

void ucm_clear_inputs(struct ucm_model *m)
{
	ucm_agg_exit(m);
	ucm_ov_remove(m);
	for (unsigned i = 0; i < m->nboxes; i++) {
		struct ucm_box *b = &m->boxes[i];

		if (!b->nact)
			continue;
		while (b->nact) {
			unsigned sub = b->act[b->nact - 1];
			uint32_t old = b->sub[sub].input;

			input_put(m, b, sub, 0);
			ucm_input_changed(m, b, sub, old);
		}
	}
}

/* ---- the cores' sleep states ---- */

void ucm_core_sleep(struct ucm_model *m, unsigned socket, unsigned core, int asleep)
{
	if (socket < m->nsockets && core < m->ncores)
		m->sockets[socket].asleep[core] = (uint8_t)!!asleep;
}

int ucm_core_asleep(const struct ucm_model *m, unsigned socket, unsigned core)
{
	return socket < m->nsockets && core < m->ncores && m->sockets[socket].asleep[core];
}
