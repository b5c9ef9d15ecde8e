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
 * socket) is registered, and nothing else but the package-scope PMUs of
 * rapl and intel_cstate; each has the table's format
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
	/* and the core's two, ours (kernel/uck_corepmu.c) */
	CT_EQ(uck_pmu_type((unsigned)uck_pmu_find("software")), PERF_TYPE_SOFTWARE);
	CT_EQ(uck_pmu_type((unsigned)uck_pmu_find("cpu")), PERF_TYPE_RAW);
	want += 2;
	/* rapl's and intel_cstate's package-scope PMUs are not the uncore
	 * tables': they depend on the machine's MSRs, which this model-only
	 * kernel partly lacks (CTest tools.perf_power_cstate_* check them under
	 * uncore run) */
	for (i = 0; i < uck_npmus(); i++)
		if (!strcmp(uck_pmu_name(i), "power") || !strcmp(uck_pmu_name(i), "cstate_core") ||
		    !strcmp(uck_pmu_name(i), "cstate_pkg"))
			want++;
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

/* ---- the perf core's answers ---- */

static struct perf_event_attr attr_of(const char *pmu, uint64_t config)
{
	struct perf_event_attr a = { 0 };
	int idx = uck_pmu_find(pmu);

	a.size = sizeof(a);
	a.type = idx >= 0 ? (uint32_t)uck_pmu_type((unsigned)idx) : 0xFFFFu;
	a.config = config;
	return a;
}

/* What the driver or the core refuses fails as perf_event_open(2) does on
 * a real E5-2600. */
CT_TEST(snbep_refusals)
{
	struct perf_event_attr a;
	int leader;

	if (ct_linux_boot("snbep"))
		return;
	/* sampling: the uncore PMUs cannot interrupt */
	a = attr_of("uncore_cbox_0", 0x0334);
	a.sample_period = 1000;
	CT_EQ(uck_event_open(&a, -1, 0, -1, 0), -EINVAL);
	/* a per-task event: a task that does not exist first, then one that
	 * does, for which the uncore PMUs have no task context */
	a = attr_of("uncore_cbox_0", 0x0334);
	CT_EQ(uck_event_open(&a, 1234, -1, -1, 0), -ESRCH);
	CT_EQ(uck_task_new(1234, 1234, 0), 0);
	CT_EQ(uck_event_open(&a, 1234, -1, -1, 0), -EINVAL);
	CT_EQ(uck_event_open(&a, 1234, 0, -1, 0), -EINVAL);
	/* no cpu at all */
	CT_EQ(uck_event_open(&a, -1, -1, -1, 0), -EINVAL);
	/* a cpu the machine has not */
	CT_EQ(uck_event_open(&a, -1, 64, -1, 0), -EINVAL);
	/* exclusion filters: PERF_PMU_CAP_NO_EXCLUDE */
	a.exclude_kernel = 1;
	CT_EQ(uck_event_open(&a, -1, 0, -1, 0), -EINVAL);
	/* a type nobody registered */
	a = attr_of("no_such_pmu", 0);
	CT_EQ(uck_event_open(&a, -1, 0, -1, 0), -ENOENT);
	/* the UBox has no fixed counter on the E5-2600: config 0xff */
	a = attr_of("uncore_ha", 0xff);
	CT_EQ(uck_event_open(&a, -1, 0, -1, 0), -EINVAL);
	/* a group must stay on one PMU */
	a = attr_of("uncore_cbox_0", 0x0334);
	leader = uck_event_open(&a, -1, 0, -1, 0);
	CT_CHECK(leader > 0);
	a = attr_of("uncore_cbox_1", 0x0334);
	CT_EQ(uck_event_open(&a, -1, 0, leader, 0), -EINVAL);
	/* and on one socket: the leader is on cpu 0, socket 1's box on cpu 8 */
	a = attr_of("uncore_cbox_0", 0x0334);
	CT_EQ(uck_event_open(&a, -1, 8, leader, 0), -EINVAL);
	/* a group that cannot go on: LLC_LOOKUP counts in counters 0-1 only
	 * (the guide's CBo event table; Linux's constraint 0x34: 0x3), so a
	 * third of them in one group is refused */
	CT_CHECK(uck_event_open(&a, -1, 0, leader, 0) > 0);
	CT_EQ(uck_event_open(&a, -1, 0, leader, 0), -EINVAL);
	/* an unconstrained one still fits (CLOCKTICKS, event 0x00) */
	a.config = 0;
	CT_CHECK(uck_event_open(&a, -1, 0, leader, 0) > 0);
	/* a bad descriptor */
	CT_EQ(uck_event_close(9999), -EBADF);
	ct_linux_halt();
}

/* A group read with PERF_FORMAT_GROUP | ID: the layout read(2) gives, the
 * IDs PERF_EVENT_IOC_ID gives, each count the truth of its counter. */
CT_TEST(ivt_group_read)
{
	struct perf_event_attr a;
	int id[3];
	uint64_t ids[3], v[64];
	long got;

	if (ct_linux_boot("ivt"))
		return;
	a = attr_of("uncore_cbox_0", 0x0334);
	ucm_truth_mark(S.m);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = 1;
	id[0] = uck_event_open(&a, -1, 0, -1, 0);
	a.disabled = 0;
	a.config = 0x0134;
	id[1] = uck_event_open(&a, -1, 0, id[0], 0);
	a.config = 0x0000; /* CLOCKTICKS: the LLC_LOOKUPs hold counters 0-1 */
	id[2] = uck_event_open(&a, -1, 0, id[0], 0);
	for (int i = 0; i < 3; i++) {
		CT_CHECK(id[i] > 0);
		CT_EQ(uck_event_ioctl(id[i], PERF_EVENT_IOC_ID, 0, &ids[i]), 0);
	}
	/* disabled leader: nothing counts yet */
	CT_EQ(uck_event_read(id[0], v, 16), -ENOSPC);
	CT_EQ(uck_event_read(id[0], v, sizeof(v)), 8 * (3 + 2 * 3));
	CT_EQ(v[0], 3u);
	CT_EQ(v[1], 0u);
	CT_EQ(uck_event_ioctl(id[0], PERF_EVENT_IOC_ENABLE, 0, NULL), 0);
	CT_EQ(uck_sleep_ns(5000000), 0);
	got = uck_event_read(id[0], v, sizeof(v));
	CT_EQ(got, 8 * (3 + 2 * 3));
	CT_EQ(v[0], 3u);
	CT_CHECK(v[1] >= 5000000 && v[1] == v[2]);
	for (int i = 0; i < 3; i++)
		CT_EQ(v[3 + 2 * i + 1], ids[i]);
	/* too short a buffer for the group */
	CT_EQ(uck_event_read(id[0], v, 8 * 8), -ENOSPC);
	/* disabled, the group stops counting: two reads agree */
	CT_EQ(uck_event_ioctl(id[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP, NULL), 0);
	{
		uint64_t w[64];

		CT_EQ(uck_event_read(id[0], v, sizeof(v)), got);
		CT_EQ(uck_sleep_ns(1000000), 0);
		CT_EQ(uck_event_read(id[0], w, sizeof(w)), got);
		CT_CHECK(!memcmp(v, w, (size_t)got));
	}
	/* reset zeroes every count of the group */
	CT_EQ(uck_event_ioctl(id[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP, NULL), 0);
	CT_EQ(uck_event_read(id[0], v, sizeof(v)), got);
	CT_EQ(v[3] + v[5] + v[7], 0u);
	for (int i = 2; i >= 0; i--)
		CT_EQ(uck_event_close(id[i]), 0);
	ct_linux_only_findings("ivt");
	ct_linux_halt();
}

/* More events than counters: the core rotates them every 4 ms; each runs
 * part of the time, all of them in turn. */
CT_TEST(snbep_multiplexing)
{
	struct perf_event_attr a;
	int id[6];
	uint64_t v[6][3], running = 0;

	if (ct_linux_boot("snbep"))
		return;
	a = attr_of("uncore_cbox_0", 0x0334);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (int i = 0; i < 6; i++) {
		/* CLOCKTICKS (event 0x00), which any of the four counters takes */
		a.config = 0;
		id[i] = uck_event_open(&a, -1, 0, -1, 0);
		CT_CHECK(id[i] > 0);
	}
	CT_EQ(uck_sleep_ns(100000000), 0);
	for (int i = 0; i < 6; i++) {
		CT_EQ(uck_event_read(id[i], v[i], sizeof(v[i])), 24);
		/* enabled all along, running a part */
		CT_CHECK(v[i][1] >= 100000000);
		CT_CHECK(v[i][2] > 0 && v[i][2] < v[i][1]);
		running += v[i][2];
	}
	/* the four counters busy all the time, the six events rotating
	 * through them: 4/6 of the time each on average, give or take an
	 * interval */
	CT_CHECK(running <= 4 * v[0][1] + 1000000 && running >= 4 * (v[0][1] - 8000000));
	/* CLOCKTICKS counted while running: each count is its running time at
	 * the one clock of the box, the same rate for all six (within 0.1%) */
	for (int i = 1; i < 6; i++) {
		double r0 = (double)v[0][0] / (double)v[0][2], ri = (double)v[i][0] / (double)v[i][2];

		CT_CHECK(ri > r0 * 0.999 && ri < r0 * 1.001 && r0 > 0.5);
	}
	for (int i = 0; i < 6; i++)
		CT_EQ(uck_event_close(id[i]), 0);
	ct_linux_only_findings("snbep");
	ct_linux_halt();
}

/* ---- per-task events ---- */

struct tvals {
	uint64_t count, enabled, running;
};

static struct tvals tread(int id)
{
	uint64_t v[3] = { 0 };
	struct tvals t;

	CT_EQ(uck_event_read(id, v, sizeof(v)), 24);
	t.count = v[0], t.enabled = v[1], t.running = v[2];
	return t;
}

static int task_event(uint64_t config, int pid, int cpu)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* perf stat's: off until the task execs, children counted */
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	return uck_event_open(&a, pid, cpu, -1, 0);
}

#define MS 1000000ull

/* The software PMU's task events follow the task as the host schedules
 * it: task-clock counts the machine time (which the test itself runs, in
 * whole milliseconds) during which the task is on a cpu, from its exec;
 * a forked child's counts join the parent event's at its exit; a task
 * preempted on its cpu, sleeping or on another cpu than the event's counts
 * nothing; the event outlives the task. */
CT_TEST(snbep_task_events)
{
	struct tvals t;
	int clk, sw, mig, clk1;

	if (ct_linux_boot("snbep"))
		return;
	CT_EQ(uck_task_new(100, 100, 0), 0);
	CT_EQ(uck_task_new(100, 100, 0), -EEXIST);
	CT_EQ(uck_task_run(100, 0), 0);
	clk = task_event(PERF_COUNT_SW_TASK_CLOCK, 100, -1);
	sw = task_event(PERF_COUNT_SW_CONTEXT_SWITCHES, 100, -1);
	mig = task_event(PERF_COUNT_SW_CPU_MIGRATIONS, 100, -1);
	clk1 = task_event(PERF_COUNT_SW_TASK_CLOCK, 100, 1); /* only on cpu 1 */
	CT_CHECK(clk > 0 && sw > 0 && mig > 0 && clk1 > 0);
	/* before the exec: off */
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	t = tread(clk);
	CT_EQ(t.count, 0u);
	CT_EQ(t.enabled, 0u);
	/* exec: on, 2 ms on cpu 0 */
	CT_EQ(uck_task_exec(100), 0);
	CT_EQ(uck_sleep_ns(2 * MS), 0);
	t = tread(clk);
	CT_EQ(t.count, 2 * MS);
	CT_EQ(t.enabled, 2 * MS);
	CT_EQ(t.running, 2 * MS);
	/* the cpu-1 event: enabled while the task runs, running never */
	t = tread(clk1);
	CT_EQ(t.count, 0u);
	CT_EQ(t.enabled, 2 * MS);
	CT_EQ(t.running, 0u);
	/* asleep 3 ms: nothing, one context switch */
	CT_EQ(uck_task_stop(100, 1), 0);
	CT_EQ(uck_sleep_ns(3 * MS), 0);
	CT_EQ(tread(clk).count, 2 * MS);
	CT_EQ(tread(sw).count, 1u);
	/* a child forked: it inherits; 1 ms of it, then it exits */
	CT_EQ(uck_task_new(101, 101, 100), 0);
	CT_EQ(uck_task_run(101, 0), 0);
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	t = tread(clk);
	CT_EQ(t.count, 3 * MS); /* the live child summed */
	CT_EQ(uck_task_exit(101), 0);
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	t = tread(clk);
	CT_EQ(t.count, 3 * MS);
	CT_EQ(t.enabled, 3 * MS);
	/* the parent runs again, then another task starts on its cpu: it is
	 * preempted (a context switch) until that one sleeps */
	CT_EQ(uck_task_run(100, 0), 0);
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	CT_EQ(uck_task_new(102, 102, 0), 0);
	CT_EQ(uck_task_run(102, 0), 0);
	CT_EQ(uck_task_running(100), 0);
	CT_EQ(uck_sleep_ns(2 * MS), 0);
	CT_EQ(uck_task_stop(102, 1), 0);
	CT_EQ(uck_task_running(100), 1);
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	CT_EQ(tread(clk).count, 5 * MS);
	CT_EQ(tread(sw).count, 2u);
	/* to cpu 1: a migration; the cpu-1 event counts there */
	CT_EQ(uck_task_run(100, 1), 0);
	CT_EQ(uck_sleep_ns(2 * MS), 0);
	CT_EQ(tread(mig).count, 1u);
	t = tread(clk1);
	CT_EQ(t.count, 2 * MS);
	CT_EQ(t.running, 2 * MS);
	CT_EQ(t.enabled, 7 * MS);
	/* the task exits: its events stay, readable, counting no more */
	CT_EQ(uck_task_exit(100), 0);
	CT_EQ(uck_sleep_ns(1 * MS), 0);
	t = tread(clk);
	CT_EQ(t.count, 7 * MS);
	CT_EQ(t.enabled, 7 * MS);
	CT_EQ(uck_task_run(100, 0), -ESRCH);
	CT_EQ(task_event(PERF_COUNT_SW_TASK_CLOCK, 100, -1), -ESRCH);
	CT_EQ(uck_event_close(clk), 0);
	CT_EQ(uck_event_close(sw), 0);
	CT_EQ(uck_event_close(mig), 0);
	CT_EQ(uck_event_close(clk1), 0);
	ct_linux_halt();
}

CT_MAIN()
