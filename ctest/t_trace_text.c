/*
 * t_trace_text.c - the text reader (docs/formats.md): every class of
 * malformed text trace rejected with its line and column, for the Skylake
 * client and for the two-socket Xeon E5-2600 (sockets, clocks, boxes,
 * attributes, sleep masks).
 */
#include <stdlib.h>

#include "ct.h"
#include "uct_trace.h"

static void expect_text_error(const char *text, const char *where, const char *what)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	int rc = uct_open_mem("t.uct", text, strlen(text), &r, err, sizeof(err));

	if (!rc) {
		while ((rc = uct_next(r, s)) > 0)
			;
		snprintf(err, sizeof(err), "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	if (rc >= 0) {
		ct_fail(__FILE__, __LINE__, "accepted: %s", text);
		return;
	}
	if (!strstr(err, where) || !strstr(err, what))
		ct_fail(__FILE__, __LINE__, "for %s: got \"%s\", want \"%s\" and \"%s\"", text, err, where,
			what);
}

#define HDR "uncore-trace 1\nplatform skl\n"

/* docs/formats.md, errors: file:line:col and what was expected. */
CT_TEST(malformed_text_traces_are_rejected_with_their_location)
{
	expect_text_error("", "t.uct:", "empty");
	expect_text_error("uncore-trace 3\nplatform skl\n", "t.uct:1:14:", "unsupported version 3");
	expect_text_error("hello\n", "t.uct:1:1:", "not an uncore event trace");
	expect_text_error("uncore-trace 1\nplatform xyz\n", "t.uct:2:10:", "unknown platform");
	expect_text_error("uncore-trace 1\nsockets 1\n", "t.uct:2:1:", "expected 'platform");
	expect_text_error(HDR "sockets 3\n", "t.uct:3:9:", "1..1 sockets");
	expect_text_error(HDR "clock fclk 100\n", "t.uct:3:7:", "no clock");
	expect_text_error(HDR "boxes cbo=9\n", "t.uct:3:11:", "1..4 instances");
	expect_text_error(HDR "colour red\n", "t.uct:3:1:", "unknown header line");
	expect_text_error(HDR "run 10: xbox0.FOO=1\n", "t.uct:3:9:", "unknown box");
	expect_text_error(HDR "run 10: cbo0.NOPE=1\n", "t.uct:3:14:", "no sub-event 'NOPE'");
	expect_text_error(HDR "run 10: cbo7.CACHE_LOOKUP.READ_M=1\n", "t.uct:3:12:", "instances (0-3)");
	expect_text_error(HDR "boxes cbo=2\nrun 10: cbo2.CACHE_LOOKUP.READ_M=1\n", "t.uct:4:12:", "2 cbo instances");
	expect_text_error(HDR "run 10: s1.cbo0.CACHE_LOOKUP.READ_M=1\n", "t.uct:3:", "socket 1");
	expect_text_error(HDR "run 10: cbo0.CACHE_LOOKUP.READ_M=2\n", "t.uct:3:9:", "exceeds the event's maximum");
	expect_text_error(HDR "run 10: cbo0.CACHE_LOOKUP.READ_M=1, cbo0.CACHE_LOOKUP.READ_E=1\n", "t.uct:3:37:",
			  "exceeds the event's maximum");
	expect_text_error(HDR "run 10: cbo.CACHE_LOOKUP.READ_M=1, cbo2.CACHE_LOOKUP.WRITE_M=1\n", "t.uct:3:36:",
			  "cbo2 CACHE_LOOKUP: 2 per cycle");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=4294967296\n", "t.uct:3:32:", "out of range");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=99999999999999999999999\n", "t.uct:3:32:",
			  "out of range");
	expect_text_error(HDR "run 0: \n", "t.uct:3:5:", "at least one cycle");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1, arb0.TRK_OCCUPANCY.ALL=1\n", "t.uct:3:35:",
			  "given twice");
	expect_text_error(HDR "run 10:\n@5 run 3:\n", "t.uct:4:2:", "out-of-order time");
	expect_text_error(HDR "run 10 arb0.TRK_OCCUPANCY.ALL=1\n", "t.uct:3:8:", "expected ':'");
	expect_text_error(HDR "walk 10:\n", "t.uct:3:1:", "unknown header line");
	expect_text_error(HDR "run 10:\nwalk 3:\n", "t.uct:4:1:", "expected 'run N:'");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1 arb0.COH_TRK_REQUESTS.ALL=1\n", "t.uct:3:34:",
			  "expected ','");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1,\n", "t.uct:3:34:", "expected an input");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL\n", "t.uct:3:31:", "expected '='");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=x\n", "t.uct:3:32:", "expected increment");
	expect_text_error(HDR "run 10x:\n", "t.uct:3:7:", "junk after");
	expect_text_error(HDR "run 10: arb0\n", "t.uct:3:13:", "expected '.'");
	/* comments and blank lines are fine */
	{
		const char *ok = "# a trace\n" HDR "\n  # idle first\n@100 run 5: arb.TRK_OCCUPANCY.ALL=3 # three\ncycle:\n";
		struct uct_reader *r;
		struct uct_seg s;
		char err[768];

		CT_REQUIRE(uct_open_mem("ok.uct", ok, strlen(ok), &r, err, sizeof(err)) == 0);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.start, 100);
		CT_EQ(s.ncycles, 5);
		CT_EQ(s.nin, 1);
		CT_EQ(s.in[0].inc, 3);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.start, 105);
		CT_EQ(s.ncycles, 1);
		CT_EQ(uct_next(r, &s), 0);
		uct_close(r);
	}
}

#define SHDR "uncore-trace 2\nplatform snbep\nsockets 2\n"

/* Every class of malformed snbep input, with its location. */
CT_TEST(malformed_snbep_traces_are_rejected_with_their_location)
{
	/* boxes, instances, sockets */
	expect_text_error(SHDR "run 10: xbox0.FOO=1\n", "t.uct:4:9:", "unknown box");
	expect_text_error(SHDR "run 10: cbo8.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:4:12:", "instances (0-7)");
	expect_text_error(SHDR "run 10: s1.imc4.CAS_COUNT.RD_REG=1\n", "t.uct:4:15:", "instances (0-3)");
	expect_text_error(SHDR "run 10: qpi2.TxL_FLITS_G0.DATA=1\n", "t.uct:4:12:", "instances (0-1)");
	expect_text_error(SHDR "boxes cbo=4\nrun 10: s1.cbo5.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:5:15:",
			  "4 cbo instances");
	expect_text_error(SHDR "run 10: s2.cbo0.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:4:", "socket 2: the trace has 2");
	expect_text_error("uncore-trace 2\nplatform snbep\nrun 10: s1.ha.REQUESTS.READS=1\n", "t.uct:3:",
			  "socket 1: the trace has 1");
	expect_text_error("uncore-trace 2\nplatform snbep\nsockets 3\n", "t.uct:3:9:", "1..2 sockets");
	expect_text_error(SHDR "run 10: imc0.CAS_COUNT.RD=1\n", "t.uct:4:14:", "no sub-event 'CAS_COUNT.RD'");
	expect_text_error(SHDR "clock fclk 1\n", "t.uct:4:7:", "no clock");
	/* increments above a maximum, alone and summed */
	expect_text_error(SHDR "run 10: cbo0.TOR_OCCUPANCY.DRd_MISS=21\n", "t.uct:4:9:",
			  "cbo0 TOR_OCCUPANCY: 21 per cycle exceeds the event's maximum increment 20");
	expect_text_error(SHDR "run 10: s1.pcu.POWER_STATE_OCCUPANCY.CORES_C0=5, s1.pcu.POWER_STATE_OCCUPANCY.CORES_C6=4\n",
			  "t.uct:4:50:", "POWER_STATE_OCCUPANCY: 9 per cycle exceeds the event's maximum increment 8");
	expect_text_error(SHDR "run 10: qpi1.TxL_FLITS_G0.DATA=3\n", "t.uct:4:9:", "maximum increment 2");
	expect_text_error(SHDR "run 10: s1.imc.CAS_COUNT.RD_REG=1, s1.imc2.CAS_COUNT.WR_WMM=1\n", "t.uct:4:36:",
			  "imc2 CAS_COUNT: 2 per cycle");
	expect_text_error(SHDR "run 10: s1.imc.POWER_SELF_REFRESH=2\n", "t.uct:4:9:", "maximum increment 1");
	/* a name that only begins with a box type's: the box of earlier builds
	 * (pcu_cstate, docs/platform-snbep.md R29), not "pcu" and a missing '.' */
	expect_text_error(SHDR "run 10: pcu_cstate.CORE_C6_CYCLES=1\n", "t.uct:4:9:", "unknown box 'pcu_cstate'");
	expect_text_error(SHDR "run 10: s1.cbo2x.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:4:16:", "junk after instance");
	/* attributes */
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{colour=3}\n", "t.uct:4:37:", "unknown attribute 'colour'");
	expect_text_error(SHDR "run 10: cbo0.LLC_LOOKUP.DATA_READ_I=1{opc=0x182}\n", "t.uct:4:39:",
			  "no filter of LLC_LOOKUP compares 'opc'");
	expect_text_error(SHDR "run 10: ha.REQUESTS.READS=1{tid=1}\n", "t.uct:4:29:", "no filter of REQUESTS compares 'tid'");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1,nid=2}\n", "t.uct:4:43:", "'nid' given twice");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=65535}\n", "t.uct:4:41:", "nid 65535 out of range");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1\n", "t.uct:4:42:", "expected ',' or '}'");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid 1}\n", "t.uct:4:41:", "expected '='");
	expect_text_error(SHDR "run 10: cbo.TOR_OCCUPANCY.DRd_MISS=2{nid=0}, cbo3.TOR_OCCUPANCY.DRd_MISS=2{nid=1}\n",
			  "t.uct:4:46:", "attributes differ from those of input 1");
	expect_text_error("uncore-trace 1\nplatform snbep\nrun 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1}\n",
			  "t.uct:3:36:", "attributes need version 2");
	/* sleep masks */
	expect_text_error(SHDR "run 10: asleep=0x100\n", "t.uct:4:16:", "snbep has 8 cores per socket");
	expect_text_error(SHDR "run 10: s1.asleep=1, s1.asleep=2\n", "t.uct:4:22:", "asleep given twice for socket 1");
	expect_text_error(SHDR "run 10: s2.asleep=1\n", "t.uct:4:", "socket 2: the trace has 2");
	expect_text_error(SHDR "run 10: asleep=x\n", "t.uct:4:16:", "expected core mask");
	expect_text_error("uncore-trace 1\nplatform snbep\nrun 10: asleep=1\n", "t.uct:3:9:", "sleep states need version 2");
	/* and what is fine */
	{
		const char *ok = SHDR "run 5: s1.asleep=0xff, s0.pcu.FREQ_BAND0_CYCLES.CYCLES=1{freq=27}, "
				 "cbo.TOR_OCCUPANCY.DRd_MISS=2{opc=0x182,nid=0}, cbo3.TOR_OCCUPANCY.DRd_MISS=2{nid=0,opc=386}, "
				 "s0.asleep=0\n";
		struct uct_reader *r;
		struct uct_seg s;
		char err[768];

		CT_REQUIRE(uct_open_mem("ok.uct", ok, strlen(ok), &r, err, sizeof(err)) == 0);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.nin, 3);
		CT_EQ(s.asleep[1], 0xFF);
		CT_EQ(s.asleep[0], 0);
		CT_EQ(s.in[1].amask, 1u << UCM_AT_OPC | 1u << UCM_AT_NID);
		CT_EQ(s.in[2].attr[UCM_AT_OPC], 0x182);
		CT_EQ(uct_next(r, &s), 0);
		uct_close(r);
	}
}

CT_MAIN()
