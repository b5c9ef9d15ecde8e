/*
 * t_libpfm.c - libpfm4 as an oracle for the Xeon event tables (issue 33,
 * item 4).
 *
 * Debian's libpfm4 (libpfm4-dev, a library nobody here wrote) encodes every
 * event and umask its snbep_unc_* and ivbep_unc_* PMUs define.  Each
 * encoding is compared with the tables: a named event of the same name, in
 * any case (UNC_H_TXR_AK:NDR is UNC_H_TxR_AK.NDR), must give the same
 * control value (event select, extra select bit, umask or occupancy select,
 * threshold, invert, edge), and one the tables do not name must be a
 * control value the tables' rules (ucm_ctl_check) accept.  What is left over
 * is a finding; each finding must be a row of the verdict table in
 * docs/libpfm4.md, and each row must still be a finding, so the list stays
 * exact both ways.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "ct.h"
#include "ucm.h"

#ifndef CT_DOC
#error "CT_DOC: docs/libpfm4.md, which holds the verdicts"
#endif

/* libpfm4's PMUs of each box type: n instances named pfm0..pfm<n-1>, or
 * one named pfm (n 0).  Findings name the type (no instance number), so
 * an instance that encodes otherwise than its siblings adds a finding. */
struct pmu_map {
	const char *pfm;  /* libpfm4's PMU name, without the instance number */
	unsigned n;
	const char *box;  /* the box type in our tables */
};

static const struct pmu_map snbep_pmus[] = {
	{ "snbep_unc_cbo", 8, "cbo" },      { "snbep_unc_ha", 0, "ha" },
	{ "snbep_unc_imc", 4, "imc" },      { "snbep_unc_pcu", 0, "pcu" },
	{ "snbep_unc_qpi", 2, "qpi" },      { "snbep_unc_ubo", 0, "ubox" },
	{ "snbep_unc_r2pcie", 0, "r2pcie" }, { "snbep_unc_r3qpi", 2, "r3qpi" },
	{ NULL, 0, NULL },
};

static const struct pmu_map ivt_pmus[] = {
	{ "ivbep_unc_cbo", 15, "cbo" },     { "ivbep_unc_ha", 2, "ha" },
	{ "ivbep_unc_imc", 8, "imc" },      { "ivbep_unc_pcu", 0, "pcu" },
	{ "ivbep_unc_qpi", 3, "qpi" },      { "ivbep_unc_ubo", 0, "ubox" },
	{ "ivbep_unc_r2pcie", 0, "r2pcie" }, { "ivbep_unc_r3qpi", 3, "r3qpi" },
	{ "ivbep_unc_irp", 0, "irp" },      { NULL, 0, NULL },
};

/* The findings of one platform, one line each: "pmu EVENT[:UMASK] kind". */
struct finds {
	char **line;
	size_t n, cap;
	unsigned total, same, accepted;   /* figures for the log */
};

static void add_find(struct finds *f, const char *type, const char *ev, const char *um,
		     const char *kind, const char *detail)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s %s%s%s %s", type, ev, um ? ":" : "", um ? um : "", kind);
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->line[i], buf))
			return; /* another instance of the type, the same finding */
	printf("finding: %s (%s)\n", buf, detail);
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->line = realloc(f->line, f->cap * sizeof(*f->line));
		if (!f->line)
			abort();
	}
	f->line[f->n] = strdup(buf);
	if (!f->line[f->n])
		abort();
	f->n++;
}

static int pmu_index(const char *name)
{
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && pi.name &&
		    !strcmp(pi.name, name))
			return p;
	}
	return -1;
}

static int encode(const char *str, uint64_t *config)
{
	pfm_pmu_encode_arg_t e;
	int rc;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	rc = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &e);
	if (rc == PFM_SUCCESS) {
		*config = e.count ? e.codes[0] : 0;
		free(e.codes);
	}
	return rc;
}

struct attrs {
	int n;
	pfm_event_attr_info_t a[64];
};

static void get_attrs(int ev, int nattrs, struct attrs *at)
{
	at->n = 0;
	for (int i = 0; i < nattrs && at->n < 64; i++) {
		pfm_event_attr_info_t *ai = &at->a[at->n];

		memset(ai, 0, sizeof(*ai));
		ai->size = sizeof(*ai);
		if (pfm_get_event_attr_info(ev, i, PFM_OS_NONE, ai) == PFM_SUCCESS)
			at->n++;
	}
}

/* libpfm4's encoding of EVENT[:UMASK].  Where it wants more than the umask
 * (a filter value such as nf= or ff=, or a umask of another of its groups:
 * TOR_INSERTS:OPC_RFO needs OPCODE, NID_OPCODE an opcode and nf=), the
 * first addition it accepts, in its own attribute order, is taken and
 * named in *extra. */
static int encode_um(const char *pmu, const char *ev, const char *um, const struct attrs *at,
		     uint64_t *config, char *extra, size_t n)
{
	char s[512];
	int rc;

	extra[0] = 0;
	snprintf(s, sizeof(s), "%s::%s%s%s", pmu, ev, um ? ":" : "", um ? um : "");
	rc = encode(s, config);
	if (rc != PFM_ERR_ATTR && rc != PFM_ERR_UMASK)
		return rc;
	/* i: another umask (or none, -1); j: a filter modifier (or none, -1) */
	for (int i = -1; i < at->n; i++) {
		if (i >= 0 && (at->a[i].type != PFM_ATTR_UMASK || !um || !strcmp(at->a[i].name, um)))
			continue;
		for (int j = -1; j < at->n; j++) {
			char add[256];

			if ((i < 0 && j < 0) || (j >= 0 && at->a[j].type != PFM_ATTR_MOD_INTEGER))
				continue;
			snprintf(add, sizeof(add), "%s%s%s%s", i >= 0 ? at->a[i].name : "",
				 i >= 0 && j >= 0 ? ":" : "", j >= 0 ? at->a[j].name : "",
				 j >= 0 ? "=1" : "");
			snprintf(s, sizeof(s), "%s::%s%s%s:%s", pmu, ev, um ? ":" : "", um ? um : "",
				 add);
			if (encode(s, config) == PFM_SUCCESS) {
				snprintf(extra, n, "%s", add);
				return PFM_SUCCESS;
			}
		}
	}
	return rc;
}

static const struct ucm_layout *ctl_layout(const struct ucm_boxtype *bt)
{
	const struct ucm_regdef *rd = ucm_regdef_find(bt, UCM_K_CTL, 0);

	return rd ? rd->layout : NULL;
}

/* The control value of a named event as the tables give it (the driver's
 * from_row in ucd_parse.c builds the same), EN left out as libpfm4 does. */
static uint64_t table_ctl(const struct ucm_event *e)
{
	const struct ucm_layout *l = ctl_layout(e->box);
	uint64_t v = 0;

	v = ucm_field_put(ucm_layout_field(l, UCM_R_EVSEL), v, e->code & 0xFF);
	v = ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), v, e->code >> 8);
	if ((e->code & 0x80) && ucm_layout_field(l, UCM_R_OCC_SEL))
		v = ucm_field_put(ucm_layout_field(l, UCM_R_OCC_SEL), v, e->umask >> 6);
	v = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), v, e->umask);
	v = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), v, e->thresh);
	return v;
}

static const struct ucm_event *named(const struct ucm_platform *p, const struct ucm_boxtype *bt,
				     const char *name)
{
	for (unsigned i = 0; i < p->nevents; i++)
		if (p->events[i].box == bt && !strcasecmp(p->events[i].name, name))
			return &p->events[i];
	return NULL;
}

static void one(struct finds *f, const struct ucm_platform *p, const struct ucm_boxtype *bt,
		const char *type, const char *pmu, const char *ev, const char *um,
		const struct attrs *at)
{
	const struct ucm_layout *l = ctl_layout(bt);
	const struct ucm_field *fen = ucm_layout_field(l, UCM_R_EN);
	const struct ucm_event *e;
	const struct ucm_evcode *ec;
	char name[256], extra[256], why[512];
	uint64_t config;
	int rc;

	f->total++;
	rc = encode_um(pmu, ev, um, at, &config, extra, sizeof(extra));
	if (rc != PFM_SUCCESS) {
		add_find(f, type, ev, um, "libpfm4-refuses", pfm_strerror(rc));
		return;
	}
	snprintf(name, sizeof(name), "%s%s%s", ev, um ? "." : "", um ? um : "");
	e = extra[0] ? NULL : named(p, bt, name);
	if (e) {
		uint64_t ours = table_ctl(e);

		if (ours == config) {
			f->same++;
			return;
		}
		snprintf(why, sizeof(why), "libpfm4 0x%llx, tables 0x%llx",
			 (unsigned long long)config, (unsigned long long)ours);
		add_find(f, type, ev, um, "differs", why);
		return;
	}
	/* 0xFF is the fixed counter's code, as in Linux (UNCORE_FIXED_EVENT):
	 * the tables name it UNC_M_DCLOCKTICKS and flag it fixed-only */
	ec = ucm_code_named(bt, (unsigned)(config & 0xFF));
	if (config == 0xFF && ec && (ec->flags & UCM_EC_FIXED)) {
		f->accepted++;
		return;
	}
	if (!ucm_ctl_check(bt, l, -1, fen ? ucm_field_put(fen, config, 1) : config, why,
			   sizeof(why))) {
		f->accepted++;
		return;
	}
	add_find(f, type, ev, um, "refused", why);
}

static void compare(const char *plat, const struct pmu_map *pm, struct finds *f)
{
	const struct ucm_platform *p = ucm_platform_find(plat);

	CT_CHECK(p != NULL);
	/* libpfm4 encodes only the PMUs of the machine it runs on, unless
	 * told to encode inactive ones too (its LIBPFM_ENCODE_INACTIVE) */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	CT_EQ(pfm_initialize(), PFM_SUCCESS);
	for (; p && pm->pfm; pm++)
		for (unsigned inst = 0; inst < (pm->n ? pm->n : 1u); inst++) {
			const struct ucm_boxtype *bt = ucm_boxtype_find(p, pm->box);
			pfm_pmu_info_t pi;
			char pmu[64];
			int idx;

			snprintf(pmu, sizeof(pmu), pm->n ? "%s%u" : "%s", pm->pfm, inst);
			idx = pmu_index(pmu);
			if (idx < 0 || !bt) {
				ct_fail(__FILE__, __LINE__, "libpfm4 has no PMU %s or the tables no box %s",
					pmu, pm->box);
				continue;
			}
			memset(&pi, 0, sizeof(pi));
			pi.size = sizeof(pi);
			CT_EQ(pfm_get_pmu_info((pfm_pmu_t)idx, &pi), PFM_SUCCESS);
			for (int ev = pi.first_event; ev != -1; ev = pfm_get_event_next(ev)) {
				pfm_event_info_t ei;
				struct attrs at;
				int nu = 0;

				memset(&ei, 0, sizeof(ei));
				ei.size = sizeof(ei);
				if (pfm_get_event_info(ev, PFM_OS_NONE, &ei) != PFM_SUCCESS) {
					ct_fail(__FILE__, __LINE__, "%s: event %d has no info", pmu, ev);
					continue;
				}
				get_attrs(ev, ei.nattrs, &at);
				for (int i = 0; i < at.n; i++)
					if (at.a[i].type == PFM_ATTR_UMASK) {
						one(f, p, bt, pm->pfm, pmu, ei.name, at.a[i].name, &at);
						nu++;
					}
				if (!nu)
					one(f, p, bt, pm->pfm, pmu, ei.name, NULL, &at);
			}
		}
	printf("%s: %u libpfm4 encodings: %u identical to a named event, %u accepted by the "
	       "tables' rules, %zu findings\n",
	       plat, f->total, f->same, f->accepted, f->n);
}

/* The verdict table's keys: rows "| `pmu` | `EVENT[:UMASK]` | kind | ..." of
 * docs/libpfm4.md whose PMU starts with prefix. */
static size_t doc_rows(const char *prefix, char ***out)
{
	FILE *fp = fopen(CT_DOC, "r");
	char line[2048], **rows = NULL;
	size_t n = 0;

	if (!fp) {
		ct_fail(__FILE__, __LINE__, "cannot read %s: %s", CT_DOC, strerror(errno));
		*out = NULL;
		return 0;
	}
	while (fgets(line, sizeof(line), fp)) {
		char pmu[128], ev[256], kind[64];

		if (sscanf(line, "| `%127[^`]` | `%255[^`]` | %63[a-z0-9-] |", pmu, ev, kind) != 3 ||
		    strncmp(pmu, prefix, strlen(prefix)))
			continue;
		rows = realloc(rows, (n + 1) * sizeof(*rows));
		if (!rows)
			abort();
		rows[n] = malloc(strlen(pmu) + strlen(ev) + strlen(kind) + 3);
		if (!rows[n])
			abort();
		sprintf(rows[n], "%s %s %s", pmu, ev, kind);
		n++;
	}
	fclose(fp);
	*out = rows;
	return n;
}

static void check_exact(const char *prefix, struct finds *f)
{
	char **rows;
	size_t n = doc_rows(prefix, &rows);

	for (size_t i = 0; i < f->n; i++) {
		size_t j = 0;

		while (j < n && strcmp(rows[j], f->line[i]))
			j++;
		if (j == n)
			ct_fail(__FILE__, __LINE__, "new finding, not in %s: %s", CT_DOC, f->line[i]);
	}
	for (size_t j = 0; j < n; j++) {
		size_t i = 0;

		while (i < f->n && strcmp(rows[j], f->line[i]))
			i++;
		if (i == f->n)
			ct_fail(__FILE__, __LINE__, "%s lists a finding libpfm4 no longer gives: %s",
				CT_DOC, rows[j]);
		free(rows[j]);
	}
	free(rows);
	for (size_t i = 0; i < f->n; i++)
		free(f->line[i]);
	free(f->line);
}

CT_TEST(snbep_events_match_libpfm4)
{
	struct finds f = { 0 };

	compare("snbep", snbep_pmus, &f);
	CT_CHECK(f.total > 400);
	check_exact("snbep_unc_", &f);
}

CT_TEST(ivt_events_match_libpfm4)
{
	struct finds f = { 0 };

	compare("ivt", ivt_pmus, &f);
	CT_CHECK(f.total > 800);
	check_exact("ivbep_unc_", &f);
}

CT_MAIN()
