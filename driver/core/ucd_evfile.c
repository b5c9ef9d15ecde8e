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
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* "0x1f", "31": 0, or -1 when not a number. */
static int num(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, strncasecmp(s, "0x", 2) ? 10 : 16);
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
	char why[192], a[64], b[64];
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
	if ((ext_s && (num(ext_s, &ext) || ext > 1)) || (msr_s && num(msr_s, &msr)) ||
	    (cmask_s && num(cmask_s, &cmask)) || (inv_s && (num(inv_s, &inv) || inv > 1)) ||
	    (edge_s && (num(edge_s, &edge) || edge > 1)))
		return report(f, en, "ExtSel, MSRValue, CounterMask, Invert or EdgeDetect is not a number");
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
	if (!fixed && l) {
		/* the control value the entry programs, checked by the manual's rules */
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EVSEL), 0, code & 0xFF);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), ctl, code >> 8);
		if ((code & 0x80) && ucm_layout_field(l, UCM_R_OCC_SEL))
			/* an occupancy event: umask bits 7:6 are OCC_SEL */
			ctl = ucm_field_put(ucm_layout_field(l, UCM_R_OCC_SEL), ctl, umask >> 6);
		else if (umask && !ucm_layout_field(l, UCM_R_UMASK))
			return report(f, en, "UMask 0x%llx: the %s control has no umask field", umask, bt->name);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), ctl, umask);
		if ((cmask && !ucm_layout_field(l, UCM_R_THRESH)) || (inv && !ucm_layout_field(l, UCM_R_INV)) ||
		    (edge && !ucm_layout_field(l, UCM_R_EDGE)))
			return report(f, en, "CounterMask, Invert or EdgeDetect: the %s control has no such field",
				      bt->name);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), ctl, cmask);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_INV), ctl, inv);
		ctl = ucm_field_put(ucm_layout_field(l, UCM_R_EDGE), ctl, edge);
		if (ucm_ctl_check(bt, l, -1, ctl, why, sizeof(why)))
			return report(f, en, "event=0x%llx,umask=0x%llx: %s", code, umask, why);
		if (inv || edge)
			return report(f, en, "Invert or EdgeDetect set: a named event here carries code, umask and threshold only");
	}
	/* the tables' own row of that name: it must be the same event */
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *r = &p->events[i];

		if (strcasecmp(r->name, en->name))
			continue;
		if (r->box != bt || r->code != code || (!fixed && (r->umask != umask || r->thresh != cmask)))
			return report(f, en, "the tables define %s as %s event=0x%x,umask=0x%x,thresh=%u (%s), the file as %s event=0x%llx,umask=0x%llx,thresh=%llu",
				      r->name, r->box->name, r->code, r->umask, r->thresh, r->cite, bt->name, code,
				      umask, cmask);
		en->status = UCD_EF_KNOWN;
		en->event = r;
		return 0;
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

int ucd_evfile_load(const struct ucm_platform *p, const char *path, struct ucd_evfile **out,
		    char *err, size_t n)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je), *arr;
	struct ucd_evfile *f;
	int rc = 0;

	*out = NULL;
	if (!root) {
		/* jansson's line and column, 1-based; no line: the file itself */
		if (je.line > 0)
			snprintf(err, n, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		else
			snprintf(err, n, "%s: %s", path, je.text);
		return -EINVAL;
	}
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
	if (!f || !f->path || !f->entries || !f->ev || !f->strings) {
		snprintf(err, n, "%s: out of memory", path);
		ucd_evfile_free(f);
		json_decref(root);
		return -ENOMEM;
	}
	for (size_t i = 0; i < json_array_size(arr) && !rc; i++) {
		json_t *o = json_array_get(arr, i);
		struct ucd_evfile_entry *en = &f->entries[f->nentries++];
		const char *name = json_is_object(o) ? str_field(o, "EventName") : NULL;

		en->index = i;
		if (name && !(en->name = keep(f, name))) {
			rc = -ENOMEM;
			break;
		}
		/* a name the file defined already: the first one stands */
		for (size_t k = 0; name && k < i; k++)
			if (f->entries[k].name && !strcasecmp(f->entries[k].name, name)) {
				rc = report(f, en, "defined again (first at entry %zu)", k);
				goto next;
			}
		rc = check_entry(p, f, o, en);
next:;
	}
	json_decref(root);
	if (rc) {
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
