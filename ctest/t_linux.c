/*
 * t_linux.c - Linux's own uncore driver (kernel/, compiled from Debian's
 * linux-source-6.1) on the simulated parts: it finds each part, registers
 * the PMUs Linux 6.1 registers there with the format and event files the
 * platform tables transcribe from it (struct ucm_perfpmu), and what it
 * counts through the perf core equals the model's ground truth for the
 * counter it chose.  Which counter that is, the test learns by watching the
 * driver's register reads through the backend, never from the driver.
 * One kernel a process: each test boots once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct.h"
#include "ct_linux.h"
#include "ct_rig.h"
#include "ucb.h"
#include "uck.h"
#include "ucm.h"
#include "uct.h"

/* ---- the PMUs and their files ---- */

struct files {
	char (*path)[64];
	char (*text)[256];
	unsigned n;
};

static int collect(void *ctx, const char *path, const char *content)
{
	struct files *f = ctx;

	f->path = realloc(f->path, (f->n + 1) * sizeof(*f->path));
	f->text = realloc(f->text, (f->n + 1) * sizeof(*f->text));
	snprintf(f->path[f->n], sizeof(*f->path), "%s", path);
	snprintf(f->text[f->n], sizeof(*f->text), "%s", content);
	f->n++;
	return 0;
}

static const char *file_of(const struct files *f, const char *path)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->path[i], path))
			return f->text[i];
	return NULL;
}

/* every PMU of the platform's table (numbered ones once per box of a
 * socket) is registered, and nothing else; each has the table's format
 * files and event aliases, a type and a cpumask of one cpu a socket */
static void pmus_match_tables(const char *plat)
{
	const struct ucm_platform *p;
	unsigned want = 0, i, k;
	char cpus[64] = "";

	if (ct_linux_boot(plat))
		return;
	p = ucm_platform_of(S.m);
	for (i = 0; i < ucm_nsockets(S.m); i++)
		snprintf(cpus + strlen(cpus), sizeof(cpus) - strlen(cpus), "%s%u", i ? "," : "",
			 i * ucm_cpus_per_socket(S.m));
	strcat(cpus, "\n");
	for (i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pp = &p->perfpmus[i];
		unsigned n = pp->numbered ? ucm_ninst(S.m, pp->box) : 1;

		for (k = 0; k < n; k++) {
			char name[64];
			struct files f = { 0 };
			const char *spec;
			int idx;

			if (pp->numbered)
				snprintf(name, sizeof(name), "%s_%u", pp->name, k);
			else
				snprintf(name, sizeof(name), "%s", pp->name);
			want++;
			idx = uck_pmu_find(name);
			if (idx < 0) {
				ct_fail(__FILE__, __LINE__, "%s: Linux registered no PMU %s (%s)", plat, name,
					pp->cite);
				continue;
			}
			CT_EQ(uck_pmu_attrs((unsigned)idx, collect, &f), 0);
			CT_CHECK(file_of(&f, "type") && atoi(file_of(&f, "type")) == uck_pmu_type((unsigned)idx));
			CT_CHECK(file_of(&f, "cpumask") && !strcmp(file_of(&f, "cpumask"), cpus));
			/* format files: exactly the table's, in content */
			for (spec = pp->formats; spec && *spec;) {
				const char *eq = strchr(spec, '='), *end = strchr(spec, ';');
				char fname[80], want_text[96];

				if (!end)
					end = spec + strlen(spec);
				snprintf(fname, sizeof(fname), "format/%.*s", (int)(eq - spec), spec);
				snprintf(want_text, sizeof(want_text), "%.*s\n", (int)(end - eq - 1), eq + 1);
				if (!file_of(&f, fname) || strcmp(file_of(&f, fname), want_text))
					ct_fail(__FILE__, __LINE__, "%s %s: %s is '%s', the table says '%.*s'", plat,
						name, fname, file_of(&f, fname) ? file_of(&f, fname) : "(none)",
						(int)(end - eq - 1), eq + 1);
				spec = *end ? end + 1 : end;
			}
			for (unsigned j = 0; j < f.n; j++)
				if (!strncmp(f.path[j], "format/", 7)) {
					char key[80];

					/* at the start of the specs, or after a ';' */
					snprintf(key, sizeof(key), ";%s=", f.path[j] + 7);
					if (!pp->formats || (strncmp(pp->formats, key + 1, strlen(key + 1)) &&
							     !strstr(pp->formats, key)))
						ct_fail(__FILE__, __LINE__, "%s %s: %s is not in the table", plat, name,
							f.path[j]);
				}
			for (unsigned j = 0; j < pp->naliases; j++) {
				char ename[80], text[96];

				snprintf(ename, sizeof(ename), "events/%s", pp->aliases[j].name);
				snprintf(text, sizeof(text), "%s", pp->aliases[j].terms);
				if (!file_of(&f, ename) || strcmp(file_of(&f, ename), text))
					ct_fail(__FILE__, __LINE__, "%s %s: %s is '%s', the table says '%s'", plat,
						name, ename, file_of(&f, ename) ? file_of(&f, ename) : "(none)", text);
			}
			free(f.path);
			free(f.text);
		}
	}
	if (uck_npmus() != want) {
		ct_fail(__FILE__, __LINE__, "%s: Linux registered %u PMUs, the tables name %u:", plat,
			uck_npmus(), want);
		for (i = 0; i < uck_npmus(); i++)
			fprintf(stderr, "  %s (type %d)\n", uck_pmu_name(i), uck_pmu_type(i));
	}
	ct_linux_halt();
}

CT_TEST(skl_pmus)
{
	pmus_match_tables("skl");
}

CT_TEST(snbep_pmus)
{
	pmus_match_tables("snbep");
}

CT_TEST(ivt_pmus)
{
	pmus_match_tables("ivt");
}

/* ---- counting ---- */

/* A config for the PMU: the first named event of its box type that needs no
 * filter, raw in the standard layout (event 0-7, umask 8-15, thresh 24-31),
 * else its first perf alias (the client IMC's free-running counters). */
static int config_for(const struct ucm_platform *p, const struct ucm_perfpmu *pp, uint64_t *cfg)
{
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *ev = &p->events[i];

		if (ev->box != pp->box || ev->nfilt || ev->code > 0xFF)
			continue;
		*cfg = ev->code | (uint64_t)ev->umask << 8 | (uint64_t)ev->thresh << 24;
		return 0;
	}
	if (pp->naliases) {
		const char *c = pp->aliases[0].terms, *e = strstr(c, "event=");
		const char *u = strstr(c, "umask=");

		*cfg = e ? strtoull(e + 6, NULL, 0) : 0;
		if (u)
			*cfg |= strtoull(u + 6, NULL, 0) << 8;
		return 0;
	}
	return -1;
}

struct opened {
	int id;
	char pmu[64];
	uint64_t cfg;
	int box;
	unsigned ctr;
};

/* One event on every PMU and socket, a stretch of the workload, then each
 * count against the truth of the counter the driver read for it. */
static void counts_equal_truth(const char *plat, uint64_t ns)
{
	const struct ucm_platform *p;
	struct opened ev[256];
	unsigned nev = 0, nonzero = 0;

	if (ct_linux_boot(plat))
		return;
	p = ucm_platform_of(S.m);
	ucm_truth_mark(S.m);
	for (unsigned i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pp = &p->perfpmus[i];
		unsigned n = pp->numbered ? ucm_ninst(S.m, pp->box) : 1;
		uint64_t cfg;

		if (config_for(p, pp, &cfg))
			continue;
		for (unsigned k = 0; k < n; k++) {
			for (unsigned s = 0; s < ucm_nsockets(S.m) && nev < 256; s++) {
				struct perf_event_attr a = { 0 };
				char name[64];
				int idx;

				snprintf(name, sizeof(name), pp->numbered ? "%s_%u" : "%s", pp->name, k);
				idx = uck_pmu_find(name);
				if (idx < 0)
					continue; /* pmus_match_tables reports it */
				a.size = sizeof(a);
				a.type = (uint32_t)uck_pmu_type((unsigned)idx);
				a.config = cfg;
				a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
				ev[nev].id = uck_event_open(&a, -1, (int)(s * ucm_cpus_per_socket(S.m)), -1, 0);
				if (ev[nev].id <= 0) {
					ct_fail(__FILE__, __LINE__, "%s: %s/config=0x%llx/ on socket %u: %s", plat,
						name, (unsigned long long)cfg, s, strerror(-ev[nev].id));
					continue;
				}
				snprintf(ev[nev].pmu, sizeof(ev[nev].pmu), "%s", name);
				ev[nev].cfg = cfg;
				nev++;
			}
		}
	}
	CT_CHECK(nev > 0);
	CT_EQ(uck_sleep_ns(ns), 0);
	for (unsigned i = 0; i < nev; i++) {
		uint64_t v[3] = { 0 }, end;
		struct ucm_truth t;

		S.last_box = -1;
		CT_EQ(uck_event_read(ev[i].id, v, sizeof(v)), 24);
		if (S.last_box < 0) {
			ct_fail(__FILE__, __LINE__, "%s %s: reading the event read no counter", plat, ev[i].pmu);
			continue;
		}
		CT_EQ(ucm_truth(S.m, S.last_box, S.last_ctr, &t), 0);
		/* A counter read as two dwords, low then high (Linux's PCI boxes),
		 * has the value of the low dword's read: the model's truth at the
		 * read before the last.  The first read is a low dword too. */
		end = S.prev_same && S.prev_off == 0 && S.last_off == 4 ? t.prev_read : t.last_read;
		if (v[0] != end - t.first_read)
			ct_fail(__FILE__, __LINE__, "%s %s/config=0x%llx/: perf counted %llu, the model %llu (counter %u of box %d)",
				plat, ev[i].pmu, (unsigned long long)ev[i].cfg, (unsigned long long)v[0],
				(unsigned long long)(end - t.first_read), S.last_ctr, S.last_box);
		/* all the time enabled, all of it counting (one event a box) */
		if (v[1] < ns || v[1] != v[2])
			ct_fail(__FILE__, __LINE__, "%s %s: enabled %llu ns, running %llu ns over a %llu ns run",
				plat, ev[i].pmu, (unsigned long long)v[1], (unsigned long long)v[2],
				(unsigned long long)ns);
		nonzero += v[0] != 0;
	}
	/* the workload moves most of them */
	CT_CHECK(nonzero * 2 > nev);
	for (unsigned i = 0; i < nev; i++)
		CT_EQ(uck_event_close(ev[i].id), 0);
	ct_linux_only_findings(plat);
	ct_linux_halt();
}

CT_TEST(skl_counts_equal_truth)
{
	counts_equal_truth("skl", 20000000);
}

CT_TEST(snbep_counts_equal_truth)
{
	counts_equal_truth("snbep", 20000000);
}

CT_TEST(ivt_counts_equal_truth)
{
	counts_equal_truth("ivt", 20000000);
}

CT_MAIN()
