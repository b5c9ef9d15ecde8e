/*
 * ucd_evfile.c - Intel's perfmon uncore event files (JSON, the format of
 * github.com/intel/perfmon: SKL/events/skylake_uncore.json, ...), read with
 * jansson and checked entry by entry against the platform's tables.
 *
 * An entry becomes a named event (struct ucm_event, owned by the file
 * object) when its unit is a box of the platform, its code and umask are
 * one the tables can count, and its counters, threshold, invert and edge
 * bits and filter agree with them.  Anything else is reported with the
 * entry's index and name and why, and the entry is not used: the tables,
 * which mirror the manuals, win.  docs/formats.md describes the fields read.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

struct ucd_evfile {
	const struct ucm_platform *plat;
	char *path;
	size_t nentries, nev;
	struct ucd_evfile_entry *entries;
	struct ucm_event *ev;          /* the loaded entries' events */
	char **strings;                /* every string the events point to */
	size_t nstrings;
	json_t *tables;                /* while loading: the tables' names, folded, to their index */
};

static char *keep(struct ucd_evfile *f, const char *s)
{
	char *c = strdup(s ? s : "");

	if (!c)
		return NULL;
	f->strings[f->nstrings++] = c;
	return c;
}

/* A field as a string ("0x34", "0,1"); NULL when absent or not a string. */
static const char *str_field(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* "0x1f", "31": 0, or -1 when not a number (digits only: strtoull alone
 * would take " 5", "+5" and "-1", the last as 2^64 - 1). */
static int num(const char *s, unsigned long long *v)
{
	const char *d = strncasecmp(s ? s : "", "0x", 2) ? s : s + 2;
	char *end;

	if (!s || !*d || strspn(d, d == s ? "0123456789" : "0123456789abcdefABCDEF") != strlen(d))
		return -1;
	errno = 0;
	*v = strtoull(d, &end, d == s ? 10 : 16);
	return errno || *end ? -1 : 0;
}

/* "0,1,2" or "0-3" as a mask; "FIXED" as 0 with *fixed. */
static int counters(const char *s, uint32_t *mask, int *fixed)
{
	*mask = 0;
	*fixed = 0;
	if (!s)
		return -1;
	if (!strcasecmp(s, "FIXED")) {
		*fixed = 1;
		return 0;
	}
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (a > b || b > 31)
			return -1;
		for (unsigned long c = a; c <= b; c++)
			*mask |= 1u << c;
		s = end;
		if (*s == ',')
			s++;
		while (*s == ' ')
			s++;
		if (*s && (*s < '0' || *s > '9'))
			return -1;
	}
	return *mask ? 0 : -1;
}

static void mask_str(uint32_t m, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (unsigned c = 0; c < 32 && k < n; c++)
		if (m & (1u << c))
			k += (size_t)snprintf(buf + k, n - k, "%s%u", k ? "," : "", c);
}

static const struct ucm_layout *ctl_layout(const struct ucm_boxtype *bt)
{
	const struct ucm_regdef *rd = ucm_regdef_find(bt, UCM_K_CTL, 0);

	return rd ? rd->layout : NULL;
}

/* The filter register Intel's name means: "CBoFilter1" (a box's FILTER,
 * FILTER1, ...: the register of that .idx, 0 without a digit), else the
 * register whose table name ends as the name does ("HA_OpcodeMatch":
 * ..._OPCODEMATCH; "QPIMask0": ..._PKT_MASK0), the longest ending first. */
static const struct ucm_regdef *intel_filter(const struct ucm_boxtype *bt, const char *s, size_t n)
{
	for (size_t i = 0; i + 6 <= n; i++)
		if (!strncasecmp(s + i, "Filter", 6)) {
			unsigned idx = i + 6 < n ? (unsigned)(s[i + 6] - '0') : 0;

			if (i + 6 < n && (i + 7 != n || idx > 9))
				return NULL;
			return ucm_regdef_find(bt, UCM_K_FILTER, idx);
		}
	for (size_t k = n; k >= 4; k--)
		for (unsigned i = 0; i < UCM_MAXFILT; i++) {
			const struct ucm_regdef *rd = ucm_regdef_find(bt, UCM_K_FILTER, i);
			size_t rn = rd ? strlen(rd->name) : 0;

			if (rd && rn >= k && !strncasecmp(rd->name + rn - k, s + n - k, k))
				return rd;
		}
	return NULL;
}

/* Intel's Filter note, "CBoFilter1[28:20], CBoFilter1[15:0]": each range
 * must lie in fields of the register it names.  0, or why not in why. */
static int check_filter(const struct ucm_boxtype *bt, const char *filt, char *why, size_t n)
{
	const char *p = filt;

	while (*p) {
		const char *br = strchr(p, '['), *end = br ? strchr(br, ']') : NULL;
		const struct ucm_regdef *rd;
		unsigned long hi, lo;
		uint64_t want, have = 0;
		char *q;

		while (*p == ' ')
			p++;
		if (!br || !end) {
			snprintf(why, n, "Filter '%s': not NAME[HI:LO]", filt);
			return -1;
		}
		hi = strtoul(br + 1, &q, 10);
		lo = *q == ':' ? strtoul(q + 1, &q, 10) : hi;
		if (q != end || lo > hi || hi > 63) {
			snprintf(why, n, "Filter '%s': not NAME[HI:LO]", filt);
			return -1;
		}
		if (!(rd = intel_filter(bt, p, (size_t)(br - p)))) {
			snprintf(why, n, "Filter '%s': the %s has no filter register %.*s in the tables", filt,
				 bt->name, (int)(br - p), p);
			return -1;
		}
		for (unsigned i = 0; i < rd->layout->nfields; i++)
			have |= ucm_field_mask(&rd->layout->fields[i]);
		want = (hi - lo == 63 ? ~0ull : ((1ull << (hi - lo + 1)) - 1)) << lo;
		if (want & ~have) {
			snprintf(why, n, "Filter '%s': bits 0x%llx of %s are reserved in the tables (%s)", filt,
				 (unsigned long long)(want & ~have), rd->layout->name, rd->layout->cite);
			return -1;
		}
		p = end + 1;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

/* Entry i is reported (not used): why, formatted. */
static int report(struct ucd_evfile *f, struct ucd_evfile_entry *en, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int report(struct ucd_evfile *f, struct ucd_evfile_entry *en, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	en->status = UCD_EF_REPORTED;
	en->reason = keep(f, msg);
	return en->reason ? 0 : -ENOMEM;
}

/* key for the name hash: ASCII lower case, as strcasecmp compares */
static const char *fold(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	for (; s[i] && i + 1 < n; i++)
		buf[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i]);
	buf[i] = 0;
	return s[i] ? NULL : buf;
}

/* Whether value v of an entry's field (its text in text) is wider than
 * the control field of role: then the entry is reported, naming both. */
static int too_wide(struct ucd_evfile *f, struct ucd_evfile_entry *en, const struct ucm_boxtype *bt,
		    const struct ucm_layout *l, unsigned role, const char *what, const char *text,
		    unsigned long long v)
{
	const struct ucm_field *fl = ucm_layout_field(l, role);
	unsigned w = fl ? fl->hi - fl->lo + 1u : 0;

	if (!v || (w && (w >= 64 || v >> w == 0)))
		return 0;
	if (!fl)
		report(f, en, "%s %s: the %s control has no such field (%s)", what, text, bt->name, l->cite);
	else
		report(f, en, "%s %s is wider than the %s control's %u-bit field %s (0-%llu, %s)", what,
		       text, bt->name, w, fl->name, (1ull << w) - 1, l->cite);
	return 1;
}

/* One entry against the tables; 0, or -ENOMEM. */
static int check_entry(const struct ucm_platform *p, struct ucd_evfile *f, json_t *o,
		       struct ucd_evfile_entry *en)
{
	const char *unit = str_field(o, "Unit"), *code_s = str_field(o, "EventCode");
	const char *umask_s = str_field(o, "UMask"), *ctr_s = str_field(o, "Counter");
	const char *ext_s = str_field(o, "ExtSel"), *filt = str_field(o, "Filter");
	const char *msr_s = str_field(o, "MSRValue");
	const char *cmask_s = str_field(o, "CounterMask"), *inv_s = str_field(o, "Invert");
	const char *edge_s = str_field(o, "EdgeDetect");
	const struct ucm_boxtype *bt = NULL;
	const struct ucm_evcode *ec;
	const struct ucm_layout *l;
	unsigned long long code, umask, ext = 0, cmask = 0, inv = 0, edge = 0, msr = 0;
	uint32_t cmask_ctrs;
	int fixed;
	char why[192], a[64], b[64], folded[256];
	uint64_t ctl = 0;
	struct ucm_event *ev;

	if (!json_is_object(o))
		return report(f, en, "not an object");
	if (!en->name)
		return report(f, en, "no EventName");
	if (!unit)
		return report(f, en, "no Unit");
	for (unsigned i = 0; i < p->nperfmon_units; i++)
		if (!strcmp(p->perfmon_units[i].unit, unit))
			bt = p->perfmon_units[i].box;
	if (!bt) {
		char units[256];
		size_t k = 0;

		units[0] = 0;
		for (unsigned i = 0; i < p->nperfmon_units && k < sizeof(units); i++)
			k += (size_t)snprintf(units + k, sizeof(units) - k, "%s%s", i ? ", " : "",
					      p->perfmon_units[i].unit);
		return report(f, en, "Unit '%s' is no box of %s (its units: %s)", unit, p->name, units);
	}
	if (num(code_s, &code) || code > 0xFF)
		return report(f, en, "EventCode '%s' is not a number 0-0xff", code_s ? code_s : "(none)");
	if (num(umask_s, &umask) || umask > 0xFF)
		return report(f, en, "UMask '%s' is not a number 0-0xff", umask_s ? umask_s : "(none)");
	if (ext_s && (num(ext_s, &ext) || ext > 1))
		return report(f, en, "ExtSel '%s' is not 0 or 1", ext_s);
	if (inv_s && (num(inv_s, &inv) || inv > 1))
		return report(f, en, "Invert '%s' is not 0 or 1", inv_s);
	if (edge_s && (num(edge_s, &edge) || edge > 1))
		return report(f, en, "EdgeDetect '%s' is not 0 or 1", edge_s);
	if (msr_s && num(msr_s, &msr))
		return report(f, en, "MSRValue '%s' is not a number", msr_s);
	if (cmask_s && num(cmask_s, &cmask))
		return report(f, en, "CounterMask '%s' is not a number", cmask_s);
	if (msr)
		return report(f, en, "MSRValue %s: a value for another register, which the tables do not model",
			      msr_s);
	l = ctl_layout(bt);
	if (ext && !ucm_layout_field(l, UCM_R_EXTSEL))
		return report(f, en, "ExtSel 1: the %s control has no extra select bit (%s)", bt->name,
			      l ? l->cite : bt->cite);
	code |= ext << 8;
	ec = ucm_code_named(bt, (unsigned)code);
	if (!ec)
		return report(f, en, "event code 0x%llx is not in the %s tables (%s)", code, bt->name, bt->cite);
	if (counters(ctr_s, &cmask_ctrs, &fixed))
		return report(f, en, "Counter '%s' is not a counter list", ctr_s ? ctr_s : "(none)");
	/* the list numbers a sub-unit's counters: every sub-unit's are allowed */
	for (unsigned u = 1; !fixed && bt->unit_ctrs && u * bt->unit_ctrs < bt->nctr; u++)
		cmask_ctrs |= (cmask_ctrs & ((1u << bt->unit_ctrs) - 1)) << (u * bt->unit_ctrs);
	/* a fixed counter's code, or the code of a box of fixed counters (skl's clock) */
	if (fixed != ((ec->flags & UCM_EC_FIXED) || !ucm_layout_field(l, UCM_R_EVSEL)))
		return report(f, en, "Counter %s, but the tables count code 0x%llx on %s (%s)", ctr_s, code,
			      fixed ? "general counters" : "the fixed counter", ec->cite);
	if (!fixed && cmask_ctrs != ec->ctr_mask) {
		mask_str(cmask_ctrs, a, sizeof(a));
		mask_str(ec->ctr_mask, b, sizeof(b));
		return report(f, en, "Counter %s, but the tables allow %s for %s (%s)", a, b, ec->name, ec->cite);
	}
	if (filt && strcmp(filt, "null") && !ucm_regdef_find(bt, UCM_K_FILTER, 0))
		return report(f, en, "Filter '%s': the %s has no filter register in the tables", filt,
			      bt->name);
	if (filt && strcmp(filt, "null") && check_filter(bt, filt, why, sizeof(why)))
		return report(f, en, "%s", why);
	if (fixed && (cmask || inv || edge))
		return report(f, en, "%s %s: the fixed counter has no such field",
			      cmask ? "CounterMask" : inv ? "Invert" : "EdgeDetect",
			      cmask ? cmask_s : inv ? inv_s : edge_s);
	if (!fixed && l) {
		/* an occupancy event of the PCU: umask bits 7:6 are OCC_SEL */
		int occ = (code & 0x80) && ucm_layout_field(l, UCM_R_OCC_SEL);

		/* every value must fit its field whole: ucm_field_put keeps the
		 * low bits, and CounterMask 256 would count as threshold 0 */
		if (too_wide(f, en, bt, l, UCM_R_UMASK, "UMask", umask_s, occ ? umask & 0x3f : umask) ||
		    too_wide(f, en, bt, l, UCM_R_THRESH, "CounterMask", cmask_s, cmask) ||
		    too_wide(f, en, bt, l, UCM_R_INV, "Invert", inv_s, inv) ||
		    too_wide(f, en, bt, l, UCM_R_EDGE, "EdgeDetect", edge_s, edge))
			return en->reason ? 0 : -ENOMEM;
		/* the control value the entry programs, checked by the manual's rules */
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EVSEL), 0, code & 0xFF);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), ctl, code >> 8);
		if (occ)
			ctl = ucm_field_put(ucm_layout_field(l, UCM_R_OCC_SEL), ctl, umask >> 6);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), ctl, umask);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), ctl, cmask);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_INV), ctl, inv);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EDGE), ctl, edge);
		if (ucm_ctl_check(bt, l, -1, ctl, why, sizeof(why)))
			return report(f, en, "event=0x%llx,umask=0x%llx: %s", code, umask, why);
		if (inv || edge)
			return report(f, en, "Invert or EdgeDetect set: a named event here carries code, umask and threshold only");
	}
	/* the tables' own row of that name: it must be the same event */
	{
		json_t *row = json_object_get(f->tables, fold(en->name, folded, sizeof(folded)) ? folded : "");
		const struct ucm_event *r = row ? &p->events[json_integer_value(row)] : NULL;

		if (r) {
			if (r->box != bt || r->code != code || (!fixed && (r->umask != umask || r->thresh != cmask)))
				return report(f, en, "the tables define %s as %s event=0x%x,umask=0x%x,thresh=%u (%s), the file as %s event=0x%llx,umask=0x%llx,thresh=%llu",
					      r->name, r->box->name, r->code, r->umask, r->thresh, r->cite, bt->name, code,
					      umask, cmask);
			en->status = UCD_EF_KNOWN;
			en->event = r;
			return 0;
		}
	}
	ev = &f->ev[f->nev];
	memset(ev, 0, sizeof(*ev));
	ev->box = bt;
	ev->code = (uint16_t)code;
	ev->umask = (uint8_t)umask;
	ev->thresh = (uint8_t)cmask;
	snprintf(why, sizeof(why), "%s entry %zu", f->path, en->index);
	if (!(ev->name = keep(f, en->name)) || !(ev->desc = keep(f, str_field(o, "BriefDescription"))) ||
	    !(ev->cite = keep(f, why)))
		return -ENOMEM;
	en->name = ev->name;
	en->status = UCD_EF_LOADED;
	en->event = ev;
	f->nev++;
	return 0;
}

void ucd_evfile_free(struct ucd_evfile *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nstrings; i++)
		free(f->strings[i]);
	free(f->strings);
	free(f->entries);
	free(f->ev);
	free(f->path);
	free(f);
}

/* The file as jansson reads it: in chunks, up to UCD_EVFILE_MAX_BYTES (a
 * stream without end is refused, not held), and a stop request (SIGINT)
 * ends the read, even one blocked on a FIFO. */
struct src {
	int fd;
	size_t total;
	int err;                       /* why the read ended early: -errno */
	char buf[65536];
};

static size_t src_read(void *buf, size_t len, void *ctx)
{
	struct src *r = ctx;
	ssize_t k;

	for (;;) {
		if (ucb_stopping()) {
			r->err = -EINTR;
			return (size_t)-1;
		}
		k = read(r->fd, buf, len);
		if (k >= 0 || errno != EINTR)
			break;
	}
	if (k < 0) {
		r->err = -errno;
		return (size_t)-1;
	}
	r->total += (size_t)k;
	if (r->total > UCD_EVFILE_MAX_BYTES) {
		r->err = -EFBIG;
		return (size_t)-1;
	}
	return (size_t)k;
}

/* A name -e can give: no control character, ',' (separates events) or
 * '/' (ends a PMU's terms).  0, or the offending byte's offset + 1. */
static size_t bad_name_byte(const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == ',' || c == '/')
			return i + 1;
	}
	return 0;
}

static json_t *read_json(const char *path, char *err, size_t n, int *rc)
{
	struct src *r = malloc(sizeof(*r));
	struct stat st;
	json_error_t je;
	json_t *root = NULL;

	if (!r) {
		*rc = -ENOMEM;
		snprintf(err, n, "%s: out of memory", path);
		return NULL;
	}
	memset(r, 0, offsetof(struct src, buf));
	*rc = 0;
	/* a file that cannot be opened or read is the run's error (exit 1),
	 * not a malformed one */
	/* opening a FIFO waits for its writer: a stop request ends that too */
	while ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR && !ucb_stopping())
		;
	if (r->fd < 0 && errno == EINTR)
		*rc = -EINTR;
	else if (r->fd < 0 || fstat(r->fd, &st))
		*rc = -errno;
	else if (S_ISDIR(st.st_mode))
		*rc = -EISDIR;
	if (*rc) {
		if (*rc == -EINTR)
			snprintf(err, n, "%s: reading interrupted", path);
		else
			snprintf(err, n, "%s: %s", path, strerror(-*rc));
		goto out;
	}
	root = json_load_callback(src_read, r, JSON_REJECT_DUPLICATES, &je);
	if (r->err) {
		*rc = r->err;
		json_decref(root);
		root = NULL;
		if (r->err == -EFBIG)
			snprintf(err, n, "%s: more than %u bytes, the most an event file may have (UCD_EVFILE_MAX_BYTES)",
				 path, UCD_EVFILE_MAX_BYTES);
		else if (r->err == -EINTR)
			snprintf(err, n, "%s: reading interrupted", path);
		else
			snprintf(err, n, "%s: %s", path, strerror(-r->err));
	} else if (!root) {
		/* jansson's line and column, 1-based; no line: the file itself */
		*rc = -EINVAL;
		if (je.line > 0)
			snprintf(err, n, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		else
			snprintf(err, n, "%s: %s", path, je.text);
	}
out:
	if (r->fd >= 0)
		close(r->fd);
	free(r);
	return root;
}

int ucd_evfile_load(const struct ucm_platform *p, const char *path, struct ucd_evfile **out,
		    char *err, size_t n)
{
	json_t *root, *arr, *seen = NULL, *tables = NULL;
	struct ucd_evfile *f;
	int rc = 0;
	char key[256];

	*out = NULL;
	if (!(root = read_json(path, err, n, &rc)))
		return rc;
	/* Intel's files: {"Header": {...}, "Events": [...]}; older ones a bare array */
	arr = json_is_array(root) ? root : json_object_get(root, "Events");
	if (!json_is_array(arr)) {
		snprintf(err, n, "%s: neither an array of events nor an object with an \"Events\" array", path);
		json_decref(root);
		return -EINVAL;
	}
	f = calloc(1, sizeof(*f));
	if (f) {
		size_t ne = json_array_size(arr);

		f->plat = p;
		f->path = strdup(path);
		f->entries = calloc(ne ? ne : 1, sizeof(*f->entries));
		f->ev = calloc(ne ? ne : 1, sizeof(*f->ev));
		f->strings = calloc(4 * ne + 1, sizeof(*f->strings));
	}
	/* names seen in the file, and the tables' own: hashed (jansson's
	 * objects), so that a file of N entries is checked in O(N) */
	seen = json_object();
	tables = json_object();
	for (unsigned i = 0; tables && i < p->nevents; i++)
		/* the first row of a name stands, as a search would find it */
		if (fold(p->events[i].name, key, sizeof(key)) && !json_object_get(tables, key) &&
		    json_object_set_new(tables, key, json_integer(i)))
			rc = -ENOMEM;
	if (!f || !f->path || !f->entries || !f->ev || !f->strings || !seen || !tables || rc) {
		snprintf(err, n, "%s: out of memory", path);
		ucd_evfile_free(f);
		json_decref(seen);
		json_decref(tables);
		json_decref(root);
		return -ENOMEM;
	}
	f->tables = tables;
	for (size_t i = 0; i < json_array_size(arr) && !rc; i++) {
		json_t *o = json_array_get(arr, i), *first;
		struct ucd_evfile_entry *en = &f->entries[f->nentries++];
		const char *name = json_is_object(o) ? str_field(o, "EventName") : NULL;
		size_t bad;

		/* a stop request ends a long file's check too */
		if (ucb_stopping()) {
			snprintf(err, n, "%s: reading interrupted", path);
			rc = -EINTR;
			break;
		}
		en->index = i;
		if (name && !(en->name = keep(f, name))) {
			rc = -ENOMEM;
			break;
		}
		if (name && !*name) {
			rc = report(f, en, "EventName is empty");
			continue;
		}
		if (name && (bad = bad_name_byte(name))) {
			unsigned char c = (unsigned char)name[bad - 1];

			if (c == ',' || c == '/')
				rc = report(f, en, "EventName has '%c' at byte %zu: -e could not name it", c, bad);
			else
				rc = report(f, en, "EventName has control character 0x%02x at byte %zu", c, bad);
			continue;
		}
		/* a name the file defined already: the first one stands */
		if (name && !fold(name, key, sizeof(key))) {
			rc = report(f, en, "EventName longer than %zu bytes", sizeof(key) - 1);
			continue;
		}
		if (name && (first = json_object_get(seen, key))) {
			rc = report(f, en, "defined again (first at entry %lld)", (long long)json_integer_value(first));
			continue;
		}
		if (name && json_object_set_new(seen, key, json_integer((json_int_t)i))) {
			rc = -ENOMEM;
			break;
		}
		rc = check_entry(p, f, o, en);
	}
	f->tables = NULL;
	json_decref(tables);
	json_decref(seen);
	json_decref(root);
	if (rc) {
		if (rc != -EINTR)
			snprintf(err, n, "%s: out of memory", path);
		ucd_evfile_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

size_t ucd_evfile_nentries(const struct ucd_evfile *f)
{
	return f->nentries;
}

const struct ucd_evfile_entry *ucd_evfile_entry(const struct ucd_evfile *f, size_t i)
{
	return i < f->nentries ? &f->entries[i] : NULL;
}

const struct ucm_event *ucd_evfile_events(const struct ucd_evfile *f, size_t *n)
{
	*n = f->nev;
	return f->ev;
}

int ucd_use_evfile(struct ucd *d, const struct ucd_evfile *f)
{
	if (f->plat != ucd_platform(d))
		return -EINVAL;
	ucd_set_xevents(d, f->ev, f->nev);
	return 0;
}
