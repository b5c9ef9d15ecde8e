/*
 * ucd_metric.c - derived metrics: expressions over event counts.
 *
 * An expression (grammar in ucd.h and docs/usage.md) is compiled into a
 * postfix program of numbers, event references, SAMPLE_INTERVAL_S and the
 * four operations.  Events are kept by their text; a set of metrics holds
 * each distinct event text once, so two metrics that count the same event
 * read the same session event.  The set plans the events a session lacks,
 * maps errors about them back to the metric and column they came from, and
 * evaluates from the whole run, the last interval or one socket.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ucd.h"

#define MAX_EXPR 8192   /* characters of one expression */
#define MAX_DEPTH 64    /* nested parentheses and unary signs */
#define MAX_STACK 256   /* values an evaluation holds at once (>= 2 * MAX_DEPTH + 3) */

enum { OP_NUM, OP_EV, OP_SECS, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV };

struct mop {
	unsigned char op;
	size_t ev;       /* OP_EV: index into the set's events */
	double num;      /* OP_NUM */
};

struct mdef {
	char *name, *unit, *expr;
	struct mop *ops;
	size_t nops;
};

struct mev {
	char *text;          /* event string, as in the brackets, blanks trimmed */
	size_t metric, col;  /* first use: metric and 1-based column of the text */
	int planned;         /* in the planned list (else an event d had) */
	size_t off, len;     /* where in the planned list */
	size_t sess;         /* session event index */
};

struct ucd_metrics {
	struct mdef *m;
	size_t nm;
	struct mev *ev;
	size_t nev;
	char *list;          /* planned list */
	size_t first, nplanned;
	int bound;
	char err[768];
};

static int merr(struct ucd_metrics *ms, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int merr(struct ucd_metrics *ms, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ms->err, sizeof(ms->err), fmt, ap);
	va_end(ap);
	return rc;
}

struct ucd_metrics *ucd_metrics_new(void)
{
	return calloc(1, sizeof(struct ucd_metrics));
}

void ucd_metrics_free(struct ucd_metrics *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->nm; i++) {
		free(ms->m[i].name);
		free(ms->m[i].unit);
		free(ms->m[i].expr);
		free(ms->m[i].ops);
	}
	for (size_t k = 0; k < ms->nev; k++)
		free(ms->ev[k].text);
	free(ms->m);
	free(ms->ev);
	free(ms->list);
	free(ms);
}

const char *ucd_metrics_error(const struct ucd_metrics *ms)
{
	return ms->err;
}

static char *dupn(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

/* ---- the expression parser ---- */

struct pstate {
	struct ucd_metrics *ms;
	const char *name, *s;
	size_t n, i, col_base;
	size_t mi;               /* index the metric will have */
	struct mop *ops;
	size_t nops, cap;
	size_t nnew;             /* events this metric added to the set */
	size_t sp, maxsp;        /* evaluation stack depth while emitting */
	int depth;
};

static int perr(struct pstate *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "metric NAME, col C: why" */
static int perr(struct pstate *p, size_t at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return merr(p->ms, -EINVAL, "metric %s, col %zu: %s", p->name, p->col_base + at + 1, msg);
}

static void skip_blanks(struct pstate *p)
{
	while (p->i < p->n && isspace((unsigned char)p->s[p->i]))
		p->i++;
}

static int emit(struct pstate *p, unsigned op, size_t ev, double num)
{
	if (p->nops == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct mop *o = realloc(p->ops, cap * sizeof(*o));

		if (!o)
			return merr(p->ms, -ENOMEM, "out of memory");
		p->ops = o;
		p->cap = cap;
	}
	p->ops[p->nops].op = (unsigned char)op;
	p->ops[p->nops].ev = ev;
	p->ops[p->nops].num = num;
	p->nops++;
	if (op == OP_NUM || op == OP_EV || op == OP_SECS) {
		if (++p->sp > p->maxsp)
			p->maxsp = p->sp;
	} else if (op != OP_NEG) {
		p->sp--;
	}
	return 0;
}

/* A short description of what is at the cursor, for messages. */
static void what_is_at(const struct pstate *p, char *buf, size_t n)
{
	if (p->i >= p->n)
		snprintf(buf, n, "the end");
	else
		snprintf(buf, n, "'%c'", p->s[p->i]);
}

/* The event text between brackets holds exactly one event: a comma
 * outside PMU/terms/ would make it two, and an unclosed PMU/terms would
 * swallow the events after it in the list the set gives the driver. */
static int one_event(const char *s, size_t n, size_t *at, const char **why)
{
	int in = 0;

	for (size_t j = 0; j < n; j++) {
		if (s[j] == '/') {
			in = !in;
			*at = j;
		} else if (s[j] == ',' && !in) {
			*at = j;
			*why = "one event per bracket: a ',' outside PMU/terms/ starts another";
			return 0;
		}
	}
	*why = "PMU/terms/ without its closing '/'";
	return !in;
}

static int add_event(struct pstate *p, const char *t, size_t tn, size_t col, size_t *idx)
{
	struct ucd_metrics *ms = p->ms;
	struct mev *ev;

	for (size_t k = 0; k < ms->nev; k++)
		if (strlen(ms->ev[k].text) == tn && !memcmp(ms->ev[k].text, t, tn)) {
			*idx = k;
			return 0;
		}
	ev = realloc(ms->ev, (ms->nev + 1) * sizeof(*ev));
	if (!ev)
		return merr(ms, -ENOMEM, "out of memory");
	ms->ev = ev;
	memset(&ev[ms->nev], 0, sizeof(*ev));
	if (!(ev[ms->nev].text = dupn(t, tn)))
		return merr(ms, -ENOMEM, "out of memory");
	ev[ms->nev].metric = p->mi;
	ev[ms->nev].col = col;
	*idx = ms->nev++;
	p->nnew++;
	return 0;
}

static int parse_sum(struct pstate *p);

static int parse_number(struct pstate *p)
{
	const char *s = p->s;
	size_t j = p->i, start = p->i;
	char buf[64];
	double v;

	if (s[j] == '0' && j + 1 < p->n && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
		unsigned long long u;
		char *end;

		j += 2;
		while (j < p->n && isxdigit((unsigned char)s[j]))
			j++;
		if (j == start + 2)
			return perr(p, start, "'0x' without hex digits");
		if (j - start >= sizeof(buf))
			return perr(p, start, "number too long");
		memcpy(buf, s + start, j - start);
		buf[j - start] = 0;
		errno = 0;
		u = strtoull(buf, &end, 16);
		if (errno)
			return perr(p, start, "%s is out of range", buf);
		v = (double)u;
	} else {
		while (j < p->n && isdigit((unsigned char)s[j]))
			j++;
		if (j < p->n && s[j] == '.') {
			j++;
			while (j < p->n && isdigit((unsigned char)s[j]))
				j++;
		}
		if (j == start + 1 && s[start] == '.')
			return perr(p, start, "'.' without digits");
		if (j < p->n && (s[j] == 'e' || s[j] == 'E')) {
			size_t k = j + 1;

			if (k < p->n && (s[k] == '+' || s[k] == '-'))
				k++;
			if (k >= p->n || !isdigit((unsigned char)s[k]))
				return perr(p, j, "exponent without digits");
			while (k < p->n && isdigit((unsigned char)s[k]))
				k++;
			j = k;
		}
		if (j - start >= sizeof(buf))
			return perr(p, start, "number too long");
		memcpy(buf, s + start, j - start);
		buf[j - start] = 0;
		v = strtod(buf, NULL);
		if (!isfinite(v))
			return perr(p, start, "%s is out of range", buf);
	}
	/* "64abc", "1.2.3": a number runs into what cannot follow it */
	if (j < p->n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.'))
		return perr(p, j, "unexpected '%c' after the number %.*s", s[j], (int)(j - start),
			    s + start);
	p->i = j;
	return emit(p, OP_NUM, 0, v);
}

static int parse_primary(struct pstate *p)
{
	const char *s = p->s;
	char what[16];
	int rc;

	skip_blanks(p);
	if (p->i >= p->n)
		return perr(p, p->i, "expected a number, an [event], SAMPLE_INTERVAL_S or '(' at the end");
	if (s[p->i] == '(') {
		size_t open = p->i;

		if (++p->depth > MAX_DEPTH)
			return perr(p, p->i, "nested more than %d deep", MAX_DEPTH);
		p->i++;
		if ((rc = parse_sum(p)))
			return rc;
		skip_blanks(p);
		if (p->i >= p->n || s[p->i] != ')') {
			what_is_at(p, what, sizeof(what));
			return perr(p, p->i, "expected ')' for the '(' at col %zu, found %s",
				    p->col_base + open + 1, what);
		}
		p->i++;
		p->depth--;
		return 0;
	}
	if (s[p->i] == '[') {
		size_t open = p->i, a = p->i + 1, b, at = 0, idx = 0;
		const char *why;
		const char *close = memchr(s + a, ']', p->n - a);

		if (!close)
			return perr(p, open, "'[' without a closing ']'");
		b = (size_t)(close - s);
		p->i = b + 1;
		while (a < b && isspace((unsigned char)s[a]))
			a++;
		while (b > a && isspace((unsigned char)s[b - 1]))
			b--;
		if (a == b)
			return perr(p, open, "empty event '[]'");
		if (memchr(s + a, '[', b - a))
			return perr(p, (size_t)((const char *)memchr(s + a, '[', b - a) - s),
				    "'[' inside an event (missing ']'?)");
		if (!one_event(s + a, b - a, &at, &why))
			return perr(p, a + at, "%s", why);
		if ((rc = add_event(p, s + a, b - a, p->col_base + a + 1, &idx)))
			return rc;
		return emit(p, OP_EV, idx, 0);
	}
	if (isdigit((unsigned char)s[p->i]) || s[p->i] == '.')
		return parse_number(p);
	if (isalpha((unsigned char)s[p->i]) || s[p->i] == '_') {
		size_t j = p->i;

		while (j < p->n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.'))
			j++;
		if (j - p->i == strlen("SAMPLE_INTERVAL_S") &&
		    !strncasecmp(s + p->i, "SAMPLE_INTERVAL_S", j - p->i)) {
			p->i = j;
			return emit(p, OP_SECS, 0, 0);
		}
		return perr(p, p->i,
			    "unknown name '%.*s' (expected SAMPLE_INTERVAL_S; events go in brackets: [%.*s])",
			    (int)(j - p->i > 64 ? 64 : j - p->i), s + p->i,
			    (int)(j - p->i > 64 ? 64 : j - p->i), s + p->i);
	}
	what_is_at(p, what, sizeof(what));
	return perr(p, p->i, "expected a number, an [event], SAMPLE_INTERVAL_S or '(', found %s",
		    what);
}

static int parse_unary(struct pstate *p)
{
	int rc;

	skip_blanks(p);
	if (p->i < p->n && (p->s[p->i] == '-' || p->s[p->i] == '+')) {
		int neg = p->s[p->i] == '-';

		if (++p->depth > MAX_DEPTH)
			return perr(p, p->i, "nested more than %d deep", MAX_DEPTH);
		p->i++;
		if ((rc = parse_unary(p)))
			return rc;
		p->depth--;
		return neg ? emit(p, OP_NEG, 0, 0) : 0;
	}
	return parse_primary(p);
}

static int parse_product(struct pstate *p)
{
	int rc = parse_unary(p);

	while (!rc) {
		char c;

		skip_blanks(p);
		if (p->i >= p->n || (p->s[p->i] != '*' && p->s[p->i] != '/'))
			break;
		c = p->s[p->i++];
		if (!(rc = parse_unary(p)))
			rc = emit(p, c == '*' ? OP_MUL : OP_DIV, 0, 0);
	}
	return rc;
}

static int parse_sum(struct pstate *p)
{
	int rc = parse_product(p);

	while (!rc) {
		char c;

		skip_blanks(p);
		if (p->i >= p->n || (p->s[p->i] != '+' && p->s[p->i] != '-'))
			break;
		c = p->s[p->i++];
		if (!(rc = parse_product(p)))
			rc = emit(p, c == '+' ? OP_ADD : OP_SUB, 0, 0);
	}
	return rc;
}

int ucd_metrics_add(struct ucd_metrics *ms, const char *name, const char *unit, const char *expr,
		    size_t col_base)
{
	struct pstate p;
	struct mdef *m;
	int rc;

	memset(&p, 0, sizeof(p));
	p.ms = ms;
	p.name = name;
	p.s = expr;
	p.n = strlen(expr);
	p.col_base = col_base;
	p.mi = ms->nm;
	if (ms->list || ms->bound)
		return merr(ms, -EBUSY, "metric %s: metrics cannot be added after their events were planned",
			    name);
	if (p.n > MAX_EXPR)
		return perr(&p, MAX_EXPR, "expression longer than %d characters", MAX_EXPR);
	rc = parse_sum(&p);
	if (!rc) {
		skip_blanks(&p);
		if (p.i < p.n) {
			char what[16];

			what_is_at(&p, what, sizeof(what));
			rc = p.s[p.i] == ')' ? perr(&p, p.i, "')' without a '('")
					     : perr(&p, p.i, "expected an operator (+ - * /), ')' or the end, found %s",
						    what);
		}
	}
	if (!rc && p.maxsp > MAX_STACK)
		rc = perr(&p, 0, "expression needs more than %d values at once", MAX_STACK);
	if (!rc) {
		m = realloc(ms->m, (ms->nm + 1) * sizeof(*m));
		if (!m) {
			rc = merr(ms, -ENOMEM, "out of memory");
		} else {
			ms->m = m;
			m += ms->nm;
			m->name = strdup(name);
			m->unit = strdup(unit ? unit : "");
			m->expr = strdup(expr);
			m->ops = p.ops;
			m->nops = p.nops;
			if (!m->name || !m->unit || !m->expr) {
				free(m->name);
				free(m->unit);
				free(m->expr);
				rc = merr(ms, -ENOMEM, "out of memory");
			} else {
				ms->nm++;
				return 0;
			}
		}
	}
	/* a failed metric leaves no events behind */
	while (p.nnew--)
		free(ms->ev[--ms->nev].text);
	free(p.ops);
	return rc;
}

size_t ucd_metrics_count(const struct ucd_metrics *ms)
{
	return ms->nm;
}

const char *ucd_metrics_name(const struct ucd_metrics *ms, size_t i)
{
	return i < ms->nm ? ms->m[i].name : NULL;
}

const char *ucd_metrics_unit(const struct ucd_metrics *ms, size_t i)
{
	return i < ms->nm ? ms->m[i].unit : NULL;
}

const char *ucd_metrics_expr(const struct ucd_metrics *ms, size_t i)
{
	return i < ms->nm ? ms->m[i].expr : NULL;
}

size_t ucd_metrics_nevents(const struct ucd_metrics *ms)
{
	return ms->nev;
}

const char *ucd_metrics_event(const struct ucd_metrics *ms, size_t k)
{
	return k < ms->nev ? ms->ev[k].text : NULL;
}

/* ---- platform metrics by name ---- */

static int name_is(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && !strncasecmp(s, name, n);
}

const struct ucm_metric *ucd_metric_find(const struct ucm_platform *p, const char *name,
					 size_t len, char *why, size_t n)
{
	const struct ucm_metric *hit = NULL;
	const char *dot = memchr(name, '.', len);
	unsigned nhit = 0;
	char boxes[128];
	size_t k = 0;

	boxes[0] = 0;
	for (unsigned i = 0; i < p->nmetrics; i++) {
		const struct ucm_metric *m = &p->metrics[i];

		if (dot ? !(name_is(name, (size_t)(dot - name), m->box) &&
			    name_is(dot + 1, len - (size_t)(dot - name) - 1, m->name))
			: !name_is(name, len, m->name))
			continue;
		if (!nhit++)
			hit = m;
		if (k < sizeof(boxes))
			k += (size_t)snprintf(boxes + k, sizeof(boxes) - k, "%s%s.%s", k ? ", " : "",
					      m->box, m->name);
	}
	if (nhit == 1)
		return hit;
	if (why && nhit)
		snprintf(why, n, "defined by %u boxes: give one of %s", nhit, boxes);
	else if (why && !p->nmetrics)
		snprintf(why, n, "%s defines no metrics", p->name);
	else if (why)
		snprintf(why, n, "not a %s metric (see 'uncore list --metrics --platform %s')", p->name,
			 p->name);
	return NULL;
}

const char *ucd_metric_display(const struct ucm_platform *p, const struct ucm_metric *m,
			       char *buf, size_t n)
{
	for (unsigned i = 0; i < p->nmetrics; i++)
		if (&p->metrics[i] != m && !strcasecmp(p->metrics[i].name, m->name)) {
			snprintf(buf, n, "%s.%s", m->box, m->name);
			return buf;
		}
	snprintf(buf, n, "%s", m->name);
	return buf;
}

int ucd_metrics_select(struct ucd_metrics *ms, const struct ucm_platform *p, const char *list)
{
	size_t i = 0, n = strlen(list);

	while (i <= n) {
		size_t j = i, a, b;
		int in = 0;
		const char *eq;

		/* commas inside an expression's [event] do not separate */
		while (j < n && (in || list[j] != ',')) {
			if (list[j] == '[')
				in = 1;
			else if (list[j] == ']')
				in = 0;
			j++;
		}
		a = i;
		b = j;
		while (a < b && isspace((unsigned char)list[a]))
			a++;
		while (b > a && isspace((unsigned char)list[b - 1]))
			b--;
		if (a == b)
			return merr(ms, -EINVAL, "empty metric name at col %zu", i + 1);
		eq = memchr(list + a, '=', b - a);
		if (eq) {
			/* NAME=EXPR: the caller's own metric */
			size_t nn = (size_t)(eq - (list + a)), e = (size_t)(eq - list) + 1;
			char name[128], *expr;
			int rc;

			while (nn && isspace((unsigned char)list[a + nn - 1]))
				nn--;
			for (size_t k = 0; k < nn; k++)
				if (!(isalnum((unsigned char)list[a + k]) || list[a + k] == '_' ||
				      (k && list[a + k] == '.')))
					nn = 0;
			if (!nn || !(isalpha((unsigned char)list[a]) || list[a] == '_') || nn >= sizeof(name))
				return merr(ms, -EINVAL,
					    "'%.*s' (col %zu): a metric of your own is NAME=EXPR, NAME of letters, digits and '_'",
					    (int)((size_t)(eq - (list + a)) > 64 ? 64 : (size_t)(eq - (list + a))),
					    list + a, a + 1);
			snprintf(name, sizeof(name), "%.*s", (int)nn, list + a);
			if (!(expr = dupn(list + e, b - e)))
				return merr(ms, -ENOMEM, "out of memory");
			rc = ucd_metrics_add(ms, name, "", expr, e);
			free(expr);
			if (rc)
				return rc;
		} else {
			char why[256], disp[128];
			const struct ucm_metric *m = ucd_metric_find(p, list + a, b - a, why, sizeof(why));
			int dup = 0;
			int rc;

			if (!m)
				return merr(ms, -ENOENT, "unknown metric '%.*s' (col %zu): %s",
					    (int)(b - a > 64 ? 64 : b - a), list + a, a + 1, why);
			ucd_metric_display(p, m, disp, sizeof(disp));
			for (size_t k = 0; k < ms->nm; k++)
				dup |= !strcmp(ms->m[k].name, disp);
			if (!dup && (rc = ucd_metrics_add(ms, disp, m->unit, m->expr, 0)))
				return rc;
		}
		i = j + 1;
	}
	return 0;
}

/* ---- events in a session ---- */

const char *ucd_metrics_plan(struct ucd_metrics *ms, const struct ucd *d)
{
	size_t len = 1, nd = ucd_nevents(d), k = 0;

	free(ms->list);
	ms->list = NULL;
	ms->bound = 0;
	for (size_t e = 0; e < ms->nev; e++)
		len += strlen(ms->ev[e].text) + 1;
	if (!(ms->list = malloc(len))) {
		merr(ms, -ENOMEM, "out of memory");
		return NULL;
	}
	ms->list[0] = 0;
	ms->first = nd;
	ms->nplanned = 0;
	for (size_t e = 0; e < ms->nev; e++) {
		struct mev *ev = &ms->ev[e];
		size_t i;

		for (i = 0; i < nd; i++) {
			struct ucd_evinfo ei;

			if (!ucd_event(d, i, &ei) && !strcmp(ei.name, ev->text))
				break;
		}
		ev->planned = i == nd;
		if (!ev->planned) {
			ev->sess = i;
			continue;
		}
		if (k)
			ms->list[k++] = ',';
		ev->off = k;
		ev->len = strlen(ev->text);
		memcpy(ms->list + k, ev->text, ev->len);
		k += ev->len;
		ms->list[k] = 0;
		ev->sess = nd + ms->nplanned++;
	}
	return ms->list;
}

int ucd_metrics_bind(struct ucd_metrics *ms, const struct ucd *d)
{
	if (!ms->list)
		return merr(ms, -EINVAL, "metric events were not planned");
	if (ucd_nevents(d) != ms->first + ms->nplanned)
		return merr(ms, -EINVAL, "the session has %zu events, the metrics planned %zu",
			    ucd_nevents(d), ms->first + ms->nplanned);
	ms->bound = 1;
	return 0;
}

void ucd_metrics_explain(const struct ucd_metrics *ms, const char *err, char *buf, size_t n)
{
	const char *c = strstr(err, "(col ");
	unsigned long col;
	char *end;

	if (c) {
		col = strtoul(c + 5, &end, 10);
		if (*end == ')' && col >= 1)
			for (size_t e = 0; e < ms->nev; e++) {
				const struct mev *ev = &ms->ev[e];

				if (!ev->planned || col < ev->off + 1 || col > ev->off + ev->len)
					continue;
				/* the same message, its column now in the metric's expression */
				snprintf(buf, n, "metric %s, col %zu: %.*s(col %zu%s",
					 ms->m[ev->metric].name, ev->col, (int)(c - err), err,
					 ev->col + (col - ev->off - 1), end);
				return;
			}
	}
	snprintf(buf, n, "metric events: %s", err);
}

/* ---- evaluation ---- */

typedef double (*getter)(const void *ctx, size_t ev);

static double eval(const struct mdef *m, getter get, const void *ctx, double seconds)
{
	double st[MAX_STACK];
	size_t sp = 0;

	for (size_t i = 0; i < m->nops; i++) {
		const struct mop *o = &m->ops[i];
		double a, b;

		switch (o->op) {
		case OP_NUM: st[sp++] = o->num; break;
		case OP_EV: st[sp++] = get(ctx, o->ev); break;
		case OP_SECS: st[sp++] = seconds; break;
		case OP_NEG: st[sp - 1] = -st[sp - 1]; break;
		default:
			b = st[--sp];
			a = st[sp - 1];
			switch (o->op) {
			case OP_ADD: a += b; break;
			case OP_SUB: a -= b; break;
			case OP_MUL: a *= b; break;
			/* x/0 is NaN for every x: a rate over nothing is undefined, not infinite */
			default: a = b == 0 ? NAN : a / b; break;
			}
			st[sp - 1] = a;
			break;
		}
	}
	return sp == 1 ? st[0] : NAN;
}

static double get_vals(const void *ctx, size_t ev)
{
	return ((const double *)ctx)[ev];
}

double ucd_metrics_eval(const struct ucd_metrics *ms, size_t i, const double *vals, double seconds)
{
	if (i >= ms->nm)
		return NAN;
	return eval(&ms->m[i], get_vals, vals, seconds);
}

struct sess_ctx {
	const struct ucd_metrics *ms;
	const struct ucd *d;
	enum ucd_mscope scope;
	unsigned socket;
};

static double get_sess(const void *ctx, size_t ev)
{
	const struct sess_ctx *c = ctx;
	size_t i = c->ms->ev[ev].sess;
	struct ucd_evinfo ei;

	if (c->scope == UCD_MS_SOCKET)
		return (double)ucd_event_socket_total(c->d, i, c->socket);
	if (ucd_event(c->d, i, &ei))
		return NAN;
	return (double)(c->scope == UCD_MS_INTERVAL ? ei.interval : ei.total);
}

double ucd_metrics_value(const struct ucd_metrics *ms, size_t i, const struct ucd *d,
			 enum ucd_mscope scope, unsigned socket, uint64_t span_ns)
{
	struct sess_ctx c = { ms, d, scope, socket };

	if (i >= ms->nm || !ms->bound)
		return NAN;
	return eval(&ms->m[i], get_sess, &c, (double)span_ns / 1e9);
}
