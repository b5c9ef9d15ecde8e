/*
 * ucb_log.c - access traces: a recording backend that wraps any backend
 * and logs every operation, and a replay backend that answers from a log
 * and checks that every access comes in the logged order with the logged
 * arguments.  This is how a session on a real box becomes a CI test.
 * Format: docs/formats.md ("uncore-access 1").
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ucb.h"
#include "uct_file.h"

#define ACCESS_VERSION 1

/* ---- recording ---- */

struct rec {
	struct ucb *inner;
	FILE *f;
	char path[4096];
	struct uct_file uf;      /* where f writes (uct_file.h) */
	uint64_t seq;
	int failed;
};

static struct rec *R(struct ucb *b)
{
	return b->priv;
}

/* One line: op, arguments, "->", results, rc, time, and the message of a
 * failure (quoted, for the replay to give back). */
static int logged(struct ucb *b, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int logged(struct ucb *b, int rc, const char *fmt, ...)
{
	struct rec *r = R(b);
	uint64_t t = 0;
	va_list ap;

	/* the inner backend's time without an access of its own: a replayed
	 * log's clock reads are lines of that log */
	if (r->inner->ops->stamp_ns)
		r->inner->ops->stamp_ns(r->inner, &t);
	else
		r->inner->ops->now_ns(r->inner, &t);
	va_start(ap, fmt);
	vfprintf(r->f, fmt, ap);
	va_end(ap);
	fprintf(r->f, " rc=%d t=%" PRIu64, rc, t);
	if (rc) {
		const char *m = ucb_error(r->inner);

		fputs(" \"", r->f);
		for (; *m; m++)
			fputc(*m == '"' || *m == '\n' ? '\'' : *m, r->f);
		fputc('"', r->f);
		ucb_seterr(b, rc, "%s", ucb_error(r->inner));
	}
	fputc('\n', r->f);
	r->seq++;
	if (ferror(r->f))
		r->failed = 1;
	return rc;
}

static int rec_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	int rc = ucb_msr_read(R(b)->inner, cpu, addr, val);

	return logged(b, rc, "rdmsr %u 0x%x -> 0x%" PRIx64, cpu, addr, rc ? 0 : *val);
}

static int rec_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	return logged(b, ucb_msr_write(R(b)->inner, cpu, addr, val), "wrmsr %u 0x%x 0x%" PRIx64 " ->",
		      cpu, addr, val);
}

/* A batch is logged as the single accesses it is made of, in order, so a
 * replay (which has no batch) sees the same sequence. */
static int rec_msr_batch(struct ucb *b, struct ucb_msr_op *ops, unsigned n)
{
	int rc = ucb_msr_batch(R(b)->inner, ops, n);

	for (unsigned i = 0; i < n; i++) {
		if (ops[i].write)
			logged(b, ops[i].rc, "wrmsr %u 0x%x 0x%" PRIx64 " ->", ops[i].cpu, ops[i].addr,
			       ops[i].val);
		else
			logged(b, ops[i].rc, "rdmsr %u 0x%x -> 0x%" PRIx64, ops[i].cpu, ops[i].addr,
			       ops[i].rc ? 0 : ops[i].val);
	}
	return rc;
}

static int rec_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *val)
{
	int rc = ucb_pci_read(R(b)->inner, d, off, w, val);

	return logged(b, rc, "pcird %04x:%02x:%02x.%x 0x%x %u -> 0x%" PRIx64, d->seg, d->bus, d->dev,
		      d->fn, off, w, rc ? 0 : *val);
}

/* As the single dword reads that define the operation (ucb.h), so that a
 * log says the same whether the inner backend reads a counter block at
 * once (the hardware) or dword by dword (the simulator), and a replay,
 * which reads dwords, matches it.  The values logged are the inner
 * backend's: high, low, high with the high dword unchanged.  A backend
 * that reads the block at once fails it whole: the failure is logged at
 * the block's first dword. */
#define PCIRD_FMT "pcird %04x:%02x:%02x.%x 0x%x %u -> 0x%" PRIx64
static int rec_pci_read_ctrs(struct ucb *b, const struct ucb_pci *d, const unsigned *off, unsigned n,
			     uint64_t *val)
{
	struct ucb *in = R(b)->inner;
	int rc = 0;

	if (!in->ops->pci_read_ctrs) {
		for (unsigned i = 0; i < n && !rc; i++)
			rc = ucb_pci_read_ctr_dwords(b, rec_pci_read, d, off[i], &val[i]);
		return rc;
	}
	if ((rc = ucb_pci_read_ctrs(in, d, off, n, val)))
		return logged(b, rc, PCIRD_FMT, d->seg, d->bus, d->dev, d->fn, off[0] + 4, 4u, (uint64_t)0);
	for (unsigned i = 0; i < n; i++) {
		uint64_t hi = val[i] >> 32, lo = val[i] & 0xFFFFFFFFu;

		logged(b, 0, PCIRD_FMT, d->seg, d->bus, d->dev, d->fn, off[i] + 4, 4u, hi);
		logged(b, 0, PCIRD_FMT, d->seg, d->bus, d->dev, d->fn, off[i], 4u, lo);
		logged(b, 0, PCIRD_FMT, d->seg, d->bus, d->dev, d->fn, off[i] + 4, 4u, hi);
	}
	return 0;
}

static int rec_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t val)
{
	return logged(b, ucb_pci_write(R(b)->inner, d, off, w, val),
		      "pciwr %04x:%02x:%02x.%x 0x%x %u 0x%" PRIx64 " ->", d->seg, d->bus, d->dev, d->fn,
		      off, w, val);
}

static int rec_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *val)
{
	int rc = ucb_mmio_read(R(b)->inner, pa, w, val);

	return logged(b, rc, "mmiord 0x%" PRIx64 " %u -> 0x%" PRIx64, pa, w, rc ? 0 : *val);
}

static int rec_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t val)
{
	return logged(b, ucb_mmio_write(R(b)->inner, pa, w, val), "mmiowr 0x%" PRIx64 " %u 0x%" PRIx64 " ->",
		      pa, w, val);
}

static int rec_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	int rc = ucb_cpuid(R(b)->inner, cpu, leaf, sub, r);

	if (rc)
		memset(r, 0, 4 * sizeof(r[0]));
	return logged(b, rc, "cpuid %u 0x%x 0x%x -> 0x%x 0x%x 0x%x 0x%x", cpu, leaf, sub, r[0], r[1],
		      r[2], r[3]);
}

static int rec_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	int rc = ucb_socket_cpu(R(b)->inner, socket, cpu);

	return logged(b, rc, "socket %u -> %u", socket, rc ? 0 : *cpu);
}

static int rec_now(struct ucb *b, uint64_t *ns)
{
	int rc = ucb_now_ns(R(b)->inner, ns);

	return logged(b, rc, "now -> %" PRIu64, rc ? 0 : *ns);
}

static int rec_sleep(struct ucb *b, uint64_t ns)
{
	return logged(b, ucb_sleep_ns(R(b)->inner, ns), "sleep %" PRIu64 " ->", ns);
}

static void rec_destroy(struct ucb *b)
{
	struct rec *r = R(b);

	if (r->f)
		uct_file_abort(&r->uf);
	free(r);
	free(b);
}

static const struct ucb_ops rec_ops = {
	.name = "record",
	.msr_read = rec_msr_read,
	.msr_write = rec_msr_write,
	.msr_batch = rec_msr_batch,
	.pci_read = rec_pci_read,
	.pci_write = rec_pci_write,
	.pci_read_ctrs = rec_pci_read_ctrs,
	.mmio_read = rec_mmio_read,
	.mmio_write = rec_mmio_write,
	.cpuid = rec_cpuid,
	.socket_cpu = rec_socket_cpu,
	.now_ns = rec_now,
	.sleep_ns = rec_sleep,
	.destroy = rec_destroy,
};

int ucb_rec_create(struct ucb *inner, const char *path, struct ucb **out, char *err, size_t n)
{
	struct ucb *b = calloc(1, sizeof(*b));
	struct rec *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!b || !r) {
		free(b);
		free(r);
		return -ENOMEM;
	}
	r->inner = inner;
	snprintf(r->path, sizeof(r->path), "%s", path);
	if ((rc = uct_file_open(&r->uf, path, err, n))) {
		free(b);
		free(r);
		return -EIO;
	}
	r->f = r->uf.f;
	fprintf(r->f, "uncore-access %d\n# op args -> results rc=ERRNO t=BACKEND_NS [\"message\"]\n",
		ACCESS_VERSION);
	b->ops = &rec_ops;
	b->priv = r;
	*out = b;
	return 0;
}

int ucb_rec_commit(struct ucb *b, char *err, size_t n)
{
	struct rec *r = R(b);
	int rc = 0;

	if (r->failed) {
		uct_file_abort(&r->uf);
		rc = -EIO;
		snprintf(err, n, "%s: %s", r->path, strerror(EIO));
	} else {
		rc = uct_file_commit(&r->uf, err, n);
	}
	r->f = NULL;
	return rc;
}

/* ---- replay ---- */

#define CTX 3
#define MAXLOGLINE 4096          /* bytes in a line of an access log, newline included */

struct rep {
	FILE *f;
	char path[4096];
	char *line;
	size_t lineno, seq;
	char ctx[CTX][256];  /* the last accesses matched, for messages */
	uint64_t t;          /* the t= of the last line matched */
	int failed;
	int malformed;       /* the log breaks its format (not a divergence) */
	char fail[1536];     /* the first divergence, given again for every later access */
};

static struct rep *P(struct ucb *b)
{
	return b->priv;
}

static int rep_fail(struct ucb *b, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rep_fail(struct ucb *b, size_t col, const char *fmt, ...)
{
	struct rep *p = P(b);
	char msg[600], ctx[800], at[32] = "";
	size_t k = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx[0] = 0;
	for (int i = 0; i < CTX; i++)
		if (p->ctx[(p->seq + (size_t)i) % CTX][0] && k < sizeof(ctx))
			k += (size_t)snprintf(ctx + k, sizeof(ctx) - k, "\n  after: %s",
					      p->ctx[(p->seq + (size_t)i) % CTX]);
	if (col)
		snprintf(at, sizeof(at), ":%zu", col);
	snprintf(p->fail, sizeof(p->fail), "%.300s:%zu%s: replay diverges at access %zu: %.500s%.600s", p->path,
		 p->lineno, at, p->seq + 1, msg, ctx);
	ucb_seterr(b, -EPROTO, "%s", p->fail);
	p->failed = 1;
	return -EPROTO;
}

/* One line of at most MAXLOGLINE bytes, without its newline: 1, 0 at the
 * end of the log, -1 (and a message in p->fail) for a line too long, a NUL
 * byte or a read error.  A log is input: /dev/zero is refused at its first
 * line, not read into memory. */
static int read_log_line(struct rep *p)
{
	size_t k = 0;
	int c = getc(p->f);

	if (c == EOF && !ferror(p->f))
		return 0;
	p->lineno++;
	for (; c != EOF && c != '\n'; c = getc(p->f)) {
		if (k + 1 >= MAXLOGLINE) {
			p->malformed = 1;
			snprintf(p->fail, sizeof(p->fail), "%.300s:%zu:%zu: line longer than %d bytes", p->path,
				 p->lineno, k + 1, MAXLOGLINE - 1);
			return -1;
		}
		if (!c) {
			p->malformed = 1;
			snprintf(p->fail, sizeof(p->fail), "%.300s:%zu:%zu: NUL byte in an access log", p->path,
				 p->lineno, k + 1);
			return -1;
		}
		p->line[k++] = (char)c;
	}
	if (ferror(p->f)) {
		snprintf(p->fail, sizeof(p->fail), "%.300s:%zu:%zu: read error: %s", p->path, p->lineno, k + 1,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	while (k && p->line[k - 1] == '\r')
		k--;
	p->line[k] = 0;
	return 1;
}

/* The next logged access line (comments and blanks skipped): 1, 0 at the
 * end, -1 on a line that cannot be read (p->fail). */
static int next_line(struct rep *p)
{
	int rc;

	while ((rc = read_log_line(p)) > 0)
		if (p->line[0] && p->line[0] != '#')
			return 1;
	return rc;
}

/* Match "op args ->" exactly and parse what follows: results, rc and an
 * optional message. */
static int expect(struct ucb *b, const char *want, uint64_t *res, unsigned nres, int *rc)
{
	struct rep *p = P(b);
	const char *q;
	char *end;
	size_t wl = strlen(want);
	int got;

	if (p->failed) {
		/* every later access gives the first divergence again: that is
		 * where the log and the driver parted */
		ucb_seterr(b, -EPROTO, "%s", p->fail);
		return -EPROTO;
	}
	if ((got = next_line(p)) < 0) {
		ucb_seterr(b, -EPROTO, "%s", p->fail);
		p->failed = 1;
		return -EPROTO;
	}
	if (!got) {
		p->lineno++;
		return rep_fail(b, 0, "the log ends; the driver did: %s", want);
	}
	if (strncmp(p->line, want, wl) || (p->line[wl] != ' ' && p->line[wl] != 0))
		return rep_fail(b, 0, "the log expects: %s\n  the driver did: %s", p->line, want);
	q = p->line + wl;
	for (unsigned i = 0; i < nres; i++) {
		while (*q == ' ')
			q++;
		errno = 0;
		res[i] = strtoull(q, &end, 0);
		p->malformed = end == q || errno || *q == '-';
		if (p->malformed)
			return rep_fail(b, (size_t)(q - p->line) + 1, "malformed result %u in: %s", i + 1,
					p->line);
		q = end;
	}
	while (*q == ' ')
		q++;
	p->malformed = strncmp(q, "rc=", 3) != 0;
	if (p->malformed)
		return rep_fail(b, (size_t)(q - p->line) + 1, "missing rc= in: %s", p->line);
	*rc = (int)strtol(q + 3, &end, 10);
	p->malformed = end == q + 3 || *rc > 0 || *rc < -4095;
	if (p->malformed)
		return rep_fail(b, (size_t)(q - p->line) + 4, "bad rc in: %s", p->line);
	q = end;
	while (*q == ' ')
		q++;
	p->t = 0;
	if (!strncmp(q, "t=", 2)) {
		/* informational, but a recording of this replay copies it: a
		 * malformed one is bad input like a malformed rc */
		errno = 0;
		p->t = strtoull(q + 2, &end, 10);
		p->malformed = end == q + 2 || errno || !isdigit((unsigned char)q[2]) ||
			       (*end && *end != ' ');
		if (p->malformed)
			return rep_fail(b, (size_t)(q - p->line) + 3, "bad t= in: %s", p->line);
	}
	q = strchr(end, '"');
	if (*rc) {
		char msg[300];
		const char *e = q ? strchr(q + 1, '"') : NULL;

		snprintf(msg, sizeof(msg), "%.*s", q && e ? (int)(e - q - 1) : 0, q ? q + 1 : "");
		ucb_seterr(b, *rc, "%s", msg[0] ? msg : strerror(-*rc));
	}
	snprintf(p->ctx[p->seq % CTX], sizeof(p->ctx[0]), "%s", want);
	p->seq++;
	return 0;
}

#define EXPECT(b, res, n, rc, ...)                                      \
	do {                                                            \
		char w_[256];                                           \
		int e_;                                                 \
		snprintf(w_, sizeof(w_), __VA_ARGS__);                  \
		if ((e_ = expect(b, w_, res, n, &rc)))                  \
			return e_;                                      \
	} while (0)

static int rep_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	int rc = 0;

	EXPECT(b, val, 1, rc, "rdmsr %u 0x%x ->", cpu, addr);
	return rc;
}

static int rep_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	int rc = 0;

	EXPECT(b, NULL, 0, rc, "wrmsr %u 0x%x 0x%" PRIx64 " ->", cpu, addr, val);
	return rc;
}

static int rep_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *val)
{
	int rc = 0;

	EXPECT(b, val, 1, rc, "pcird %04x:%02x:%02x.%x 0x%x %u ->", d->seg, d->bus, d->dev, d->fn, off, w);
	return rc;
}

static int rep_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t val)
{
	int rc = 0;

	EXPECT(b, NULL, 0, rc, "pciwr %04x:%02x:%02x.%x 0x%x %u 0x%" PRIx64 " ->", d->seg, d->bus, d->dev,
	       d->fn, off, w, val);
	return rc;
}

static int rep_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *val)
{
	int rc = 0;

	EXPECT(b, val, 1, rc, "mmiord 0x%" PRIx64 " %u ->", pa, w);
	return rc;
}

static int rep_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t val)
{
	int rc = 0;

	EXPECT(b, NULL, 0, rc, "mmiowr 0x%" PRIx64 " %u 0x%" PRIx64 " ->", pa, w, val);
	return rc;
}

static int rep_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	uint64_t v[4] = { 0, 0, 0, 0 };
	int rc = 0;

	EXPECT(b, v, 4, rc, "cpuid %u 0x%x 0x%x ->", cpu, leaf, sub);
	for (int i = 0; i < 4; i++)
		r[i] = (uint32_t)v[i];
	return rc;
}

static int rep_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	uint64_t v = 0;
	int rc = 0;

	EXPECT(b, &v, 1, rc, "socket %u ->", socket);
	*cpu = (unsigned)v;
	return rc;
}

static int rep_now(struct ucb *b, uint64_t *ns)
{
	int rc = 0;

	EXPECT(b, ns, 1, rc, "now ->");
	return rc;
}

static int rep_sleep(struct ucb *b, uint64_t ns)
{
	int rc = 0;

	if (ucb_stopping())
		return ucb_seterr(b, -EINTR, "interrupted");
	EXPECT(b, NULL, 0, rc, "sleep %" PRIu64 " ->", ns);
	return rc;
}

/* The logged time of the last access, for a recorder of this replay: no
 * line of the log is read for it. */
static int rep_stamp(struct ucb *b, uint64_t *ns)
{
	*ns = P(b)->t;
	return 0;
}

static void rep_destroy(struct ucb *b)
{
	struct rep *p = P(b);

	if (p->f)
		fclose(p->f);
	free(p->line);
	free(p);
	free(b);
}

static const struct ucb_ops rep_ops = {
	.name = "replay",
	.msr_read = rep_msr_read,
	.msr_write = rep_msr_write,
	.pci_read = rep_pci_read,
	.pci_write = rep_pci_write,
	.mmio_read = rep_mmio_read,
	.mmio_write = rep_mmio_write,
	.cpuid = rep_cpuid,
	.socket_cpu = rep_socket_cpu,
	.now_ns = rep_now,
	.sleep_ns = rep_sleep,
	.stamp_ns = rep_stamp,
	.destroy = rep_destroy,
};

int ucb_replay_create(const char *path, struct ucb **out, char *err, size_t n)
{
	struct ucb *b = calloc(1, sizeof(*b));
	struct rep *p = calloc(1, sizeof(*p));
	struct stat st;
	unsigned v = 0;
	int got, end = 0;

	*out = NULL;
	if (!b || !p) {
		free(b);
		free(p);
		return -ENOMEM;
	}
	b->ops = &rep_ops;
	b->priv = p;
	snprintf(p->path, sizeof(p->path), "%s", path);
	if (!(p->f = fopen(path, "r")) || fstat(fileno(p->f), &st) || S_ISDIR(st.st_mode) ||
	    !(p->line = malloc(MAXLOGLINE))) {
		int e = p->f && !p->line && S_ISDIR(st.st_mode) ? EISDIR : errno ? errno : EIO;

		snprintf(err, n, "%s: %s", path, strerror(e));
		rep_destroy(b);
		return -e;
	}
	if ((got = read_log_line(p)) < 0) {
		snprintf(err, n, "%s", p->fail);
		rep_destroy(b);
		return -EINVAL;
	}
	if (!got || sscanf(p->line, "uncore-access %u%n", &v, &end) != 1 || p->line[end]) {
		snprintf(err, n, "%s:1:1: not an access trace: expected 'uncore-access %d'", path,
			 ACCESS_VERSION);
		rep_destroy(b);
		return -EINVAL;
	}
	if (v != ACCESS_VERSION) {
		snprintf(err, n, "%s:1:15: unsupported version %u (this build reads %d)", path, v,
			 ACCESS_VERSION);
		rep_destroy(b);
		return -EINVAL;
	}
	*out = b;
	return 0;
}

int ucb_replay_malformed(const struct ucb *b)
{
	return ((const struct rep *)b->priv)->malformed;
}

int ucb_replay_finish(struct ucb *b, char *err, size_t n)
{
	struct rep *p = P(b);
	size_t left = 0;

	char first[256];
	size_t at;
	int rc;

	if (p->failed) {
		snprintf(err, n, "%s", p->fail);
		return -EPROTO;
	}
	if ((rc = next_line(p)) < 0) {
		snprintf(err, n, "%s", p->fail);
		return -EPROTO;
	}
	if (!rc)
		return 0;
	/* where the log goes on, and how much of it there is */
	at = p->lineno;
	snprintf(first, sizeof(first), "%s", p->line);
	for (left = 1; (rc = next_line(p)) > 0;)
		left++;
	if (rc < 0) {
		snprintf(err, n, "%s", p->fail);
		return -EPROTO;
	}
	snprintf(err, n, "%.300s:%zu: replay diverges after access %zu: the driver stopped; the log expects %zu more, first: %s",
		 p->path, at, p->seq, left, first);
	return -EPROTO;
}
