/*
 * t_evfile.c - Intel's perfmon uncore event files (issue 16, item 3).
 *
 * The test data are Intel's own files (ctest/data/perfmon/, BSD-3-Clause,
 * github.com/intel/perfmon at 6dadedf): every entry of each either becomes
 * an event, is a row the tables already have, or is reported with its
 * index, its name and a reason; what the tables lack is named by entry.
 * Crafted files hit each reason and a JSON syntax error.  The events loaded
 * count what the model counted (ground truth), and skl's ARB umask 0x02,
 * beyond the manual (decision D16), counts the data reads fed to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

#ifndef CT_DATA_DIR
#error "CT_DATA_DIR: the test data directory"
#endif

static const char *data(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/perfmon/%s", CT_DATA_DIR, name);
	return path;
}

static int open_plat(struct ct_rig *r, const char *plat)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	return ct_rig_open(r, &cfg, 0, NULL);
}

/* Loads a real file; every entry has a status, a reported one a reason
 * and, when the entry has a name, that name.  Counts per status. */
static struct ucd_evfile *load_real(const char *plat, const char *file, size_t want_entries,
				    size_t cnt[3])
{
	char err[512];
	struct ucd_evfile *f = NULL;

	cnt[0] = cnt[1] = cnt[2] = 0;
	if (ucd_evfile_load(ucm_platform_find(plat), data(file), &f, err, sizeof(err))) {
		ct_fail(__FILE__, __LINE__, "%s: %s", file, err);
		return NULL;
	}
	CT_EQ(ucd_evfile_nentries(f), want_entries);
	for (size_t i = 0; i < ucd_evfile_nentries(f); i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		CT_EQ(en->index, i);
		if (!en->name)
			ct_fail(__FILE__, __LINE__, "%s entry %zu: no name", file, i);
		if (en->status > UCD_EF_REPORTED) {
			ct_fail(__FILE__, __LINE__, "%s entry %zu: status %d", file, i, en->status);
			continue;
		}
		cnt[en->status]++;
		if (en->status == UCD_EF_REPORTED && (!en->reason || !*en->reason))
			ct_fail(__FILE__, __LINE__, "%s entry %zu: reported without a reason", file, i);
		if (en->status != UCD_EF_REPORTED && (!en->event || strcasecmp(en->event->name, en->name)))
			ct_fail(__FILE__, __LINE__, "%s entry %zu (%s): no event of that name", file, i,
				en->name);
	}
	return f;
}

/* skl: the 23 entries of SKL/events/skylake_uncore.json V59: the 20 the
 * manual's tables name (Intel's NCU unit is the fixed UCLK counter), and
 * ARB umask 0x02 of TRK_OCCUPANCY and TRK_REQUESTS (twice: DATA_READ and
 * the older DRD_DIRECT), which the model implements (D16). */
CT_TEST(evfile_skl_every_entry)
{
	size_t cnt[3];
	struct ucd_evfile *f = load_real("skl", "skylake_uncore.json", 23, cnt);
	static const char *const beyond[] = { "UNC_ARB_TRK_REQUESTS.DRD_DIRECT",
					      "UNC_ARB_TRK_OCCUPANCY.DATA_READ",
					      "UNC_ARB_TRK_REQUESTS.DATA_READ" };

	CT_REQUIRE(f);
	CT_EQ(cnt[UCD_EF_KNOWN], 20);
	CT_EQ(cnt[UCD_EF_LOADED], 3);
	CT_EQ(cnt[UCD_EF_REPORTED], 0);
	for (size_t i = 0; i < ucd_evfile_nentries(f); i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);
		int is_beyond = 0;

		for (size_t k = 0; k < 3; k++)
			is_beyond |= !strcmp(en->name, beyond[k]);
		CT_EQ(en->status == UCD_EF_LOADED, is_beyond);
		if (is_beyond) {
			CT_STREQ(en->event->box->name, "arb");
			CT_EQ(en->event->umask, 0x02);
		}
	}
	ucd_evfile_free(f);
}

/* snbep: JKT/events/Jaketown_uncore.json V24 (540 entries) against the
 * E5-2600 guide's tables.  Every reason is one of: Intel's IRP unit (no
 * IRP box in the guide), an event code or extra select the guide's tables
 * lack.  Intel's UNC_U_CLOCKTICKS and UNC_M_CLOCKTICKS are event 0x00 on
 * general counters, where the guide counts clocks with the fixed counters
 * (code 0xff here): reported, not renamed. */
CT_TEST(evfile_snbep_every_entry)
{
	size_t cnt[3], irp = 0, other = 0;
	struct ucd_evfile *f = load_real("snbep", "Jaketown_uncore.json", 540, cnt);

	CT_REQUIRE(f);
	for (size_t i = 0; i < ucd_evfile_nentries(f); i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		if (!strncmp(en->name, "UNC_I_", 6)) {
			irp++;
			CT_EQ(en->status, UCD_EF_REPORTED);
			CT_CONTAINS(en->reason, "Unit 'IRP' is no box of snbep");
		} else if (en->status == UCD_EF_REPORTED) {
			other++;
			if (!strstr(en->reason, "is not in the") && !strstr(en->reason, "no extra select bit"))
				ct_fail(__FILE__, __LINE__, "entry %zu (%s): %s", i, en->name, en->reason);
		}
		if (!strcmp(en->name, "UNC_U_CLOCKTICKS") || !strcmp(en->name, "UNC_M_CLOCKTICKS")) {
			CT_EQ(en->status, UCD_EF_REPORTED);
			CT_CONTAINS(en->reason, "event code 0x0 is not in the");
		}
	}
	CT_EQ(irp, 37);
	CT_EQ(cnt[UCD_EF_REPORTED], irp + other);
	CT_EQ(cnt[UCD_EF_KNOWN] + cnt[UCD_EF_LOADED] + cnt[UCD_EF_REPORTED], 540);
	CT_CHECK(cnt[UCD_EF_KNOWN] >= 400);
	ucd_evfile_free(f);
}

/* ivt: IVT/events/ivytown_uncore.json V24, the list the v2's tables were
 * generated from.  Reported: the three whose filter registers have no
 * known address (V15), the five LLC_LOOKUP events whose note
 * CBoFilter0[23:17] includes bit 23, which Table 2-16 reserves (state is
 * 22:17, V9), and UNC_Q_CTO_COUNT, whose note QPIMask0[17:0] includes
 * bits 2:0, reserved in the match/mask layout (SNB-EP Table 2-91). */
CT_TEST(evfile_ivt_every_entry)
{
	static const struct {
		const char *name, *why;
	} want[] = {
		{ "UNC_C_LLC_LOOKUP.ANY", "bits 0x800000 of Cn_MSR_PMON_BOX_FILTER are reserved" },
		{ "UNC_C_LLC_LOOKUP.DATA_READ", "bits 0x800000 of Cn_MSR_PMON_BOX_FILTER are reserved" },
		{ "UNC_C_LLC_LOOKUP.NID", "bits 0x800000 of Cn_MSR_PMON_BOX_FILTER are reserved" },
		{ "UNC_C_LLC_LOOKUP.REMOTE_SNOOP", "bits 0x800000 of Cn_MSR_PMON_BOX_FILTER are reserved" },
		{ "UNC_C_LLC_LOOKUP.WRITE", "bits 0x800000 of Cn_MSR_PMON_BOX_FILTER are reserved" },
		{ "UNC_I_TRANSACTIONS.ORDERINGQ", "the irp has no filter register in the tables" },
		{ "UNC_Q_CTO_COUNT", "bits 0x7 of Q_Py_PCI_PMON_PKT_MASK0 are reserved" },
		{ "UNC_U_FILTER_MATCH.ENABLE", "the ubox has no filter register in the tables" },
		{ "UNC_U_FILTER_MATCH.U2C_ENABLE", "the ubox has no filter register in the tables" },
	};
	size_t cnt[3], k = 0;
	struct ucd_evfile *f = load_real("ivt", "ivytown_uncore.json", 1074, cnt);

	CT_REQUIRE(f);
	CT_EQ(cnt[UCD_EF_REPORTED], sizeof(want) / sizeof(want[0]));
	CT_EQ(cnt[UCD_EF_KNOWN], 1074 - cnt[UCD_EF_REPORTED]);
	for (size_t i = 0; i < ucd_evfile_nentries(f); i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		if (en->status != UCD_EF_REPORTED)
			continue;
		if (k < sizeof(want) / sizeof(want[0])) {
			CT_STREQ(en->name, want[k].name);
			CT_CONTAINS(en->reason, want[k].why);
		}
		k++;
	}
	ucd_evfile_free(f);
}

/* The loaded events by name: skl's three beyond the manual and snbep's one
 * (UNC_U_EVENT_MSG.INT_PRIO, a umask of a code the guide has), counted,
 * equal to ground truth; a file of another platform is refused. */
CT_TEST(evfile_events_count_by_name)
{
	static const struct {
		const char *plat, *file, *events;
		unsigned counters; /* placements: DATA_READ and DRD_DIRECT share one */
	} cases[] = {
		{ "skl", "skylake_uncore.json",
		  "UNC_ARB_TRK_REQUESTS.DATA_READ,UNC_ARB_TRK_OCCUPANCY.DATA_READ,arb/TRK_REQUESTS.DRD_DIRECT/", 3 },
		{ "snbep", "Jaketown_uncore.json", "UNC_U_EVENT_MSG.INT_PRIO,UNC_C_LLC_LOOKUP.DATA_READ", 2 + 16 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ct_rig r;
		char err[512];
		struct ucd_evfile *f = NULL;

		CT_REQUIRE(open_plat(&r, cases[i].plat) == 0);
		CT_REQUIRE(ucd_evfile_load(r.p, data(cases[i].file), &f, err, sizeof(err)) == 0);
		CT_CHECK(ucd_add_events(r.d, cases[i].events) == -EINVAL); /* not before use */
		CT_REQUIRE(ucd_use_evfile(r.d, f) == 0);
		if (ucd_add_events(r.d, cases[i].events)) {
			ct_fail(__FILE__, __LINE__, "%s: %s", cases[i].events, ucd_error(r.d));
		} else {
			CT_EQ(ucd_ncounters(r.d), cases[i].counters);
			CT_REQUIRE(ucd_start(r.d) == 0 && ucd_run(r.d, 2000000, 0, NULL, NULL) == 0 &&
				   ucd_stop(r.d) == 0);
			ct_check_truth(&r, cases[i].events, __FILE__, __LINE__);
			CT_REQUIRE(ucd_restore(r.d) == 0);
			ct_no_strict(&r, cases[i].events, __FILE__, __LINE__);
		}
		ct_rig_close(&r);
		ucd_evfile_free(f);
	}
	{
		struct ct_rig r;
		char err[512];
		struct ucd_evfile *f = NULL;

		CT_REQUIRE(open_plat(&r, "ivt") == 0);
		CT_REQUIRE(ucd_evfile_load(ucm_platform_find("skl"), data("skylake_uncore.json"), &f, err,
					   sizeof(err)) == 0);
		CT_EQ(ucd_use_evfile(r.d, f), -EINVAL);
		ct_rig_close(&r);
		ucd_evfile_free(f);
	}
}

/* A file of our own in the test's directory; its path. */
static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s", name);
	fp = fopen(path, "w");
	CT_CHECK(fp != NULL);
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
	return path;
}

#define E(unit, code, umask, name, ctr) \
	"{\"Unit\":\"" unit "\",\"EventCode\":\"" code "\",\"UMask\":\"" umask "\",\"EventName\":\"" name \
	"\",\"Counter\":\"" ctr "\"}"

/* Every reason an entry is reported for, each by index and name. */
CT_TEST(evfile_reasons)
{
	static const struct {
		const char *name, *reason; /* reason NULL: loaded; "": known */
	} want[] = {
		{ "UNC_X_UNIT", "Unit 'XYZ' is no box of skl (its units: CBO, ARB, NCU)" },
		{ "UNC_X_CODE", "EventCode 'zz' is not a number" },
		{ "UNC_X_NOCODE", "event code 0x99 is not in the cbo tables" },
		{ "UNC_X_CTR", "Counter 0,1,2,3, but the tables allow 0,1 for CACHE_LOOKUP" },
		{ "UNC_X_UMASK", "event=0x34,umask=0x80:" },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "the tables define UNC_CBO_CACHE_LOOKUP.ANY_MESI as cbo event=0x34,umask=0x8f" },
		{ "UNC_X_EXT", "ExtSel 1: the cbo control has no extra select bit" },
		{ "UNC_X_MSR", "MSRValue 0x5: a value for another register" },
		{ "UNC_X_FIXED", "Counter FIXED, but the tables count code 0x34 on general counters" },
		{ "UNC_X_OK", NULL },
		{ "UNC_X_OK", "defined again (first at entry 9)" },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_I", "" },
		{ "UNC_X_FILTER", "Filter 'CBoFilter[3:0]': the cbo has no filter register in the tables" },
	};
	const char *path = write_file("evfile_reasons.json",
		"{\"Header\": {\"Info\": \"crafted\"}, \"Events\": [\n"
		E("XYZ", "0x34", "0x8f", "UNC_X_UNIT", "0,1") ",\n"
		E("CBO", "zz", "0x8f", "UNC_X_CODE", "0,1") ",\n"
		E("CBO", "0x99", "0x01", "UNC_X_NOCODE", "0,1") ",\n"
		E("CBO", "0x34", "0x8f", "UNC_X_CTR", "0,1,2,3") ",\n"
		E("CBO", "0x34", "0x80", "UNC_X_UMASK", "0,1") ",\n"
		E("CBO", "0x34", "0x8e", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "0,1") ",\n"
		"{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x8f\",\"EventName\":\"UNC_X_EXT\",\"Counter\":\"0,1\",\"ExtSel\":\"1\"},\n"
		"{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x8f\",\"EventName\":\"UNC_X_MSR\",\"Counter\":\"0,1\",\"MSRValue\":\"0x5\"},\n"
		E("CBO", "0x34", "0x8f", "UNC_X_FIXED", "FIXED") ",\n"
		E("CBO", "0x34", "0x11", "UNC_X_OK", "0,1") ",\n"
		E("CBO", "0x34", "0x12", "UNC_X_OK", "0,1") ",\n"
		E("CBO", "0x34", "0x88", "UNC_CBO_CACHE_LOOKUP.ANY_I", "0,1") ",\n"
		"{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x8f\",\"EventName\":\"UNC_X_FILTER\",\"Counter\":\"0,1\",\"Filter\":\"CBoFilter[3:0]\"},\n"
		"[1, 2],\n"
		"{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x8f\"}\n"
		"]}\n");
	char err[512];
	struct ucd_evfile *f = NULL;
	size_t n = sizeof(want) / sizeof(want[0]);

	CT_REQUIRE(ucd_evfile_load(ucm_platform_find("skl"), path, &f, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_evfile_nentries(f) == n + 2);
	for (size_t i = 0; i < n; i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		CT_EQ(en->index, i);
		CT_STREQ(en->name, want[i].name);
		if (!want[i].reason) {
			CT_EQ(en->status, UCD_EF_LOADED);
		} else if (!*want[i].reason) {
			CT_EQ(en->status, UCD_EF_KNOWN);
		} else {
			CT_EQ(en->status, UCD_EF_REPORTED);
			if (en->reason && !strstr(en->reason, want[i].reason))
				ct_fail(__FILE__, __LINE__, "entry %zu: \"%s\", want \"%s\"", i, en->reason,
					want[i].reason);
		}
	}
	CT_EQ(ucd_evfile_entry(f, n)->status, UCD_EF_REPORTED);
	CT_STREQ(ucd_evfile_entry(f, n)->reason, "not an object");
	CT_EQ(ucd_evfile_entry(f, n + 1)->status, UCD_EF_REPORTED);
	CT_STREQ(ucd_evfile_entry(f, n + 1)->reason, "no EventName");
	ucd_evfile_free(f);
	unlink(path);
}

/* A JSON syntax error: the file, line and column as jansson gives them;
 * a file that is not a list of events; a missing file. */
CT_TEST(evfile_bad_files)
{
	char err[512];
	struct ucd_evfile *f = (struct ucd_evfile *)1;
	const struct ucm_platform *p = ucm_platform_find("skl");
	const char *path = write_file("evfile_syntax.json", "{\"Events\": [\n  {\"EventName\": \"X\",\n   \"Unit\" \"CBO\"}\n]}\n");

	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), -EINVAL);
	CT_CHECK(f == NULL);
	CT_CONTAINS(err, "evfile_syntax.json:3:");
	CT_CONTAINS(err, "':' expected");
	unlink(path);
	path = write_file("evfile_shape.json", "{\"Header\": {}}\n");
	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), -EINVAL);
	CT_CONTAINS(err, "neither an array of events nor an object with an \"Events\" array");
	unlink(path);
	/* an array at the top, as perfmon's older files */
	path = write_file("evfile_array.json", "[" E("ARB", "0x81", "0x02", "UNC_X_RD", "0,1") "]\n");
	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), 0);
	CT_EQ(ucd_evfile_entry(f, 0)->status, UCD_EF_LOADED);
	ucd_evfile_free(f);
	unlink(path);
	/* a file that cannot be read is not malformed: its errno (exit 1 in
	 * the CLI, docs/usage.md), not -EINVAL (a usage error) */
	CT_EQ(ucd_evfile_load(p, "/nonexistent/x.json", &f, err, sizeof(err)), -ENOENT);
	CT_CONTAINS(err, "/nonexistent/x.json: No such file or directory");
	CT_EQ(ucd_evfile_load(p, CT_DATA_DIR, &f, err, sizeof(err)), -EISDIR);
	CT_CONTAINS(err, "Is a directory");
	CT_CHECK(f == NULL);
}

/* Numbers wider than the control field they go to are reported, naming
 * the field and its width (skl's CBo threshold is 5 bits, 28:24, Table
 * 2-7); before, CounterMask 256 was kept as 256 & 0x1f, threshold 0.
 * Strings strtoull alone would take (" 5", "-1") are not numbers. */
CT_TEST(evfile_numbers_wider_than_fields)
{
#define EC(cmask, inv, name) \
	"{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x8f\",\"EventName\":\"" name \
	"\",\"Counter\":\"0,1\",\"CounterMask\":\"" cmask "\",\"Invert\":\"" inv "\"}"
	static const struct {
		const char *name, *reason; /* NULL: loaded */
	} want[] = {
		{ "UNC_X_256", "CounterMask 256 is wider than the cbo control's 5-bit field THR (0-31" },
		{ "UNC_X_32", "CounterMask 32 is wider than the cbo control's 5-bit field THR (0-31" },
		{ "UNC_X_31", NULL },
		{ "UNC_X_NEG", "CounterMask '-1' is not a number" },
		{ "UNC_X_SPACE", "CounterMask ' 5' is not a number" },
		{ "UNC_X_HEX", "CounterMask '0x' is not a number" },
		{ "UNC_X_BIG", "CounterMask '0x10000000000000000' is not a number" },
		{ "UNC_X_INV", "Invert '2' is not 0 or 1" },
		{ "UNC_X_UMASK", "UMask '0x100' is not a number 0-0xff" },
		{ "UNC_X_FIXED", "CounterMask 1: the fixed counter has no such field" },
	};
	const char *path = write_file("evfile_wide.json",
		"[" EC("256", "0", "UNC_X_256") ",\n"
		EC("32", "0", "UNC_X_32") ",\n"
		EC("31", "0", "UNC_X_31") ",\n"
		EC("-1", "0", "UNC_X_NEG") ",\n"
		EC(" 5", "0", "UNC_X_SPACE") ",\n"
		EC("0x", "0", "UNC_X_HEX") ",\n"
		EC("0x10000000000000000", "0", "UNC_X_BIG") ",\n"
		EC("1", "2", "UNC_X_INV") ",\n"
		E("CBO", "0x34", "0x100", "UNC_X_UMASK", "0,1") ",\n"
		"{\"Unit\":\"NCU\",\"EventCode\":\"0x0\",\"UMask\":\"0x01\",\"EventName\":\"UNC_X_FIXED\","
		"\"Counter\":\"FIXED\",\"CounterMask\":\"1\"}]\n");
	char err[512];
	struct ucd_evfile *f = NULL;
	size_t n = sizeof(want) / sizeof(want[0]);

	CT_REQUIRE(ucd_evfile_load(ucm_platform_find("skl"), path, &f, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_evfile_nentries(f) == n);
	for (size_t i = 0; i < n; i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		CT_STREQ(en->name, want[i].name);
		if (!want[i].reason) {
			CT_EQ(en->status, UCD_EF_LOADED);
			if (en->status == UCD_EF_LOADED)
				CT_EQ(en->event->thresh, 31);
		} else if (en->status != UCD_EF_REPORTED || !strstr(en->reason, want[i].reason)) {
			ct_fail(__FILE__, __LINE__, "entry %zu: status %d \"%s\", want \"%s\"", i, en->status,
				en->reason ? en->reason : "", want[i].reason);
		}
	}
	ucd_evfile_free(f);
	unlink(path);
#undef EC
}

/* A name -e could not give (a control character, ',' which separates
 * events, '/' which ends a PMU's terms) or an empty one is reported. */
CT_TEST(evfile_names_refused)
{
	static const struct {
		const char *name, *reason; /* NULL: loaded */
	} want[] = {
		{ "UNC_X\001A", "EventName has control character 0x01 at byte 6" },
		{ "UNC_X,B", "EventName has ',' at byte 6" },
		{ "UNC_X/C", "EventName has '/' at byte 6" },
		{ "UNC_X\177D", "EventName has control character 0x7f at byte 6" },
		{ "", "EventName is empty" },
		{ "UNC_X.OK-1", NULL },
	};
	const char *path = write_file("evfile_names.json",
		"[" E("CBO", "0x34", "0x11", "UNC_X\\u0001A", "0,1") ",\n"
		E("CBO", "0x34", "0x11", "UNC_X,B", "0,1") ",\n"
		E("CBO", "0x34", "0x11", "UNC_X/C", "0,1") ",\n"
		E("CBO", "0x34", "0x11", "UNC_X\177D", "0,1") ",\n"
		E("CBO", "0x34", "0x11", "", "0,1") ",\n"
		E("CBO", "0x34", "0x11", "UNC_X.OK-1", "0,1") "]\n");
	char err[512];
	struct ucd_evfile *f = NULL;
	size_t n = sizeof(want) / sizeof(want[0]);

	CT_REQUIRE(ucd_evfile_load(ucm_platform_find("skl"), path, &f, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_evfile_nentries(f) == n);
	for (size_t i = 0; i < n; i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(f, i);

		CT_STREQ(en->name, want[i].name);
		if (!want[i].reason)
			CT_EQ(en->status, UCD_EF_LOADED);
		else if (en->status != UCD_EF_REPORTED || !strstr(en->reason, want[i].reason))
			ct_fail(__FILE__, __LINE__, "entry %zu: status %d \"%s\", want \"%s\"", i, en->status,
				en->reason ? en->reason : "", want[i].reason);
	}
	ucd_evfile_free(f);
	unlink(path);
}

/* A file longer than UCD_EVFILE_MAX_BYTES is refused naming the limit,
 * after reading no more than that (whitespace: valid JSON so far, which
 * the reader would otherwise hold without end); a stop request
 * (ucb_stop_on, the CLI's SIGINT) ends the load with -EINTR. */
CT_TEST(evfile_limits)
{
	static char chunk[65536];
	static volatile sig_atomic_t stop;
	char err[512];
	struct ucd_evfile *f = NULL;
	const struct ucm_platform *p = ucm_platform_find("skl");
	const char *path = write_file("evfile_big.json", "[");
	FILE *fp = fopen(path, "a");

	CT_REQUIRE(fp != NULL);
	memset(chunk, ' ', sizeof(chunk));
	for (size_t k = 0; k <= UCD_EVFILE_MAX_BYTES / sizeof(chunk); k++)
		fwrite(chunk, 1, sizeof(chunk), fp);
	CT_REQUIRE(fclose(fp) == 0);
	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), -EFBIG);
	CT_CHECK(f == NULL);
	CT_CONTAINS(err, "evfile_big.json: more than 33554432 bytes, the most an event file may have (UCD_EVFILE_MAX_BYTES)");
	unlink(path);
	path = write_file("evfile_stop.json", "[" E("ARB", "0x81", "0x02", "UNC_X_RD", "0,1") "]\n");
	stop = 1;
	ucb_stop_on(&stop);
	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), -EINTR);
	CT_CONTAINS(err, "evfile_stop.json: reading interrupted");
	ucb_stop_on(NULL);
	CT_EQ(ucd_evfile_load(p, path, &f, err, sizeof(err)), 0);
	ucd_evfile_free(f);
	unlink(path);
}

/* 100,000 entries with distinct names, then one defined again: the
 * duplicate is found, naming the first, and the whole loads in well under
 * 10 s (a hang bound: some 1 s here; the pairwise name check took 19 s). */
CT_TEST(evfile_many_entries)
{
	enum { N = 100000 };
	char err[512];
	struct ucd_evfile *f = NULL;
	const char *path = write_file("evfile_many.json", "[");
	FILE *fp = fopen(path, "a");
	struct timespec t0, t1;

	CT_REQUIRE(fp != NULL);
	for (int i = 0; i < N; i++)
		fprintf(fp, "{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x11\",\"EventName\":\"UNC_X_%d\",\"Counter\":\"0,1\"},\n", i);
	fprintf(fp, "{\"Unit\":\"CBO\",\"EventCode\":\"0x34\",\"UMask\":\"0x12\",\"EventName\":\"unc_x_77777\",\"Counter\":\"0,1\"}]\n");
	CT_REQUIRE(fclose(fp) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CT_REQUIRE(ucd_evfile_load(ucm_platform_find("skl"), path, &f, err, sizeof(err)) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CT_EQ(ucd_evfile_nentries(f), N + 1);
	CT_EQ(ucd_evfile_entry(f, N - 1)->status, UCD_EF_LOADED);
	CT_EQ(ucd_evfile_entry(f, N)->status, UCD_EF_REPORTED);
	CT_STREQ(ucd_evfile_entry(f, N)->reason, "defined again (first at entry 77777)");
	CT_CHECK((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9 < 10.0);
	ucd_evfile_free(f);
	unlink(path);
}

/* One ARB input fed constantly, two events counted together: their totals. */
static void arb_two(const char *sub, uint32_t inc, const char *sub2, uint32_t inc2, const char *ev,
		    uint64_t tot[2], int line)
{
	struct ct_rig r;
	struct ucd_evinfo a, b;

	tot[0] = tot[1] = 0;
	CT_REQUIRE(open_plat(&r, "skl") == 0);
	CT_CHECK(ct_feed(r.m, "arb", 0, sub, inc) == 0);
	if (sub2)
		CT_CHECK(ct_feed(r.m, "arb", 0, sub2, inc2) == 0);
	if (ucd_add_events(r.d, ev) || ucd_start(r.d) || ucd_run(r.d, 2000000, 0, NULL, NULL) ||
	    ucd_stop(r.d)) {
		ct_fail(__FILE__, line, "%s: %s", ev, ucd_error(r.d));
	} else {
		ct_check_truth(&r, ev, __FILE__, line);
		CT_REQUIRE(ucd_event(r.d, 0, &a) == 0 && ucd_event(r.d, 1, &b) == 0);
		tot[0] = a.total;
		tot[1] = b.total;
		CT_CHECK(ucd_restore(r.d) == 0);
		ct_no_strict(&r, ev, __FILE__, line);
	}
	ct_rig_close(&r);
}

/* D16: ARB umask 0x02 counts the core's data reads, a part of ALL (0x01).
 * TRK_REQUESTS counts at most one request a cycle: fed a data read every
 * cycle, umask 0x02 and 0x01 count alike (about 6e6 in 2 ms at 3 GHz; the
 * two counters are read a microsecond, 3000 cycles, apart); fed other
 * non-write requests, 0x02 counts none.  TRK_OCCUPANCY with 12 data-read
 * entries and 8 others a cycle: 0x02 counts 12 of 0x01's 20. */
CT_TEST(arb_data_reads_d16)
{
	static const char req[] = "arb/event=0x81,umask=0x02/,arb/event=0x81,umask=0x01/";
	uint64_t t[2];

	arb_two("TRK_REQUESTS.DATA_READS", 1, NULL, 0, req, t, __LINE__);
	CT_CHECK(t[1] > 5000000 && t[0] + 4000 > t[1] && t[0] < t[1] + 4000);
	arb_two("TRK_REQUESTS.NONWRITES", 1, NULL, 0, req, t, __LINE__);
	CT_CHECK(t[1] > 5000000);
	CT_EQ(t[0], 0);
	arb_two("TRK_OCCUPANCY.DATA_READS", 12, "TRK_OCCUPANCY.ALL", 8,
		"arb/event=0x80,umask=0x01/,arb/event=0x81,umask=0x01/", t, __LINE__);
	/* occupancy is on counter 0 only: 0x02 and 0x01 of code 0x80 in turn */
	CT_CHECK(t[0] > 20 * 5000000ull);
	{
		uint64_t all = t[0];

		arb_two("TRK_OCCUPANCY.DATA_READS", 12, "TRK_OCCUPANCY.ALL", 8,
			"arb/event=0x80,umask=0x02/,arb/event=0x81,umask=0x01/", t, __LINE__);
		/* the same run length (the simulated time is exact): 12/20 */
		CT_EQ(t[0] * 20, all * 12);
	}
}

CT_MAIN()
