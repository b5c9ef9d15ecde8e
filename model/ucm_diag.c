/*
 * ucm_diag.c - what the model says went wrong: the message of the last
 * call that failed (ucm_error), and strict mode's records of every write
 * the manual calls reserved or undefined (the access path and the control
 * rules, ucm_check.c, find them; this keeps them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

int ucm_seterr(struct ucm_model *m, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
	return rc;
}

int ucm_set_error(struct ucm_model *m, int rc, const char *msg)
{
	return ucm_seterr(m, rc, "%s", msg);
}

const char *ucm_error(const struct ucm_model *m)
{
	return m->err[0] ? m->err : "no error";
}

/* ---- strict mode ---- */

void ucm_reg_name(const struct ucm_reg *r, char *buf, size_t n)
{
	snprintf(buf, n, r->def->name, (unsigned)r->box->def->inst);
}

void ucm_set_strict(struct ucm_model *m, int on)
{
	m->strict = on;
}

void ucm_strict_add(struct ucm_model *m, const struct ucm_reg *r, uint64_t value,
		    const char *fmt, ...)
{
	struct ucm_strict_rec *rec;
	va_list ap;

	if (!m->strict)
		return;
	if (m->nrecs == m->caprecs) {
		size_t cap = m->caprecs ? m->caprecs * 2 : 16;
		struct ucm_strict_rec *n = realloc(m->recs, cap * sizeof(*n));

		if (!n)
			return; /* records are diagnostics; never fail an access */
		m->recs = n;
		m->caprecs = cap;
	}
	rec = &m->recs[m->nrecs++];
	memset(rec, 0, sizeof(*rec));
	rec->time_ps = m->now_ps;
	rec->space = r->space;
	rec->socket = r->box->socket;
	rec->addr = r->key;
	rec->value = value;
	ucm_reg_name(r, rec->reg, sizeof(rec->reg));
	va_start(ap, fmt);
	vsnprintf(rec->rule, sizeof(rec->rule), fmt, ap);
	va_end(ap);
}

size_t ucm_strict_count(const struct ucm_model *m)
{
	return m->nrecs;
}

const struct ucm_strict_rec *ucm_strict_get(const struct ucm_model *m, size_t i)
{
	return i < m->nrecs ? &m->recs[i] : NULL;
}

void ucm_strict_clear(struct ucm_model *m)
{
	m->nrecs = 0;
}

int ucm_strict_format(const struct ucm_model *m, size_t i, char *buf, size_t n)
{
	static const char *const sp[] = { "msr", "pci", "mmio" };
	const struct ucm_strict_rec *r = ucm_strict_get(m, i);

	if (!r)
		return -ENOENT;
	snprintf(buf, n, "t=%llups socket %u %s 0x%llx %s <- 0x%llx: %s",
		 (unsigned long long)r->time_ps, r->socket, sp[r->space],
		 (unsigned long long)r->addr, r->reg, (unsigned long long)r->value, r->rule);
	return 0;
}
