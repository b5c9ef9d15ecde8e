/*
 * t_snbep_pcu.c - the six PCU configurations of the Xeon E5-2600 guide's
 * Table 2-80 (2.6.4 "Some Examples for Unlocking More Advanced Features"),
 * programmed register by register as the table gives them and run over a
 * timeline of core C0 counts, voltage transitions and frequencies whose
 * answer each case's title states.
 */
#include <stdio.h>

#include "ct.h"
#include "ucm.h"

/* Table 2-73 */
#define PCU_BOX_CTL 0xC24u
#define PCU_CTL0 0xC30u
#define PCU_FILTER 0xC34u
#define PCU_CTR0 0xC36u
#define SOCKET 1u

/* Table 2-75 fields */
struct pcu_cfg {
	const char *title;
	unsigned evsel, use_occ, occ_sel, thresh, invert, edge, occ_invert, occ_edge, filter;
	uint64_t expect;
};

static uint64_t ctl_of(const struct pcu_cfg *c)
{
	return (uint64_t)c->occ_edge << 31 | (uint64_t)c->occ_invert << 30 |
	       (uint64_t)c->thresh << 24 | (uint64_t)c->invert << 23 | 1ull << 22 /* en */ |
	       (uint64_t)c->edge << 18 | (uint64_t)c->occ_sel << 14 |
	       (uint64_t)(c->evsel | c->use_occ << 7);
}

/* The timeline, in pclk cycles: cores in C0 (of 8), whether the voltage is
 * changing, and the frequency in 100 MHz units (2.6.3.2). */
static const struct {
	unsigned cycles, c0, volt, freq;
} phases[] = {
	{ 50, 0, 0, 15 },   /* all cores asleep, 1.5 GHz */
	{ 100, 8, 1, 27 },  /* A: all busy, voltage rising, 2.7 GHz */
	{ 100, 2, 0, 15 },  /* B */
	{ 100, 6, 1, 15 },  /* C */
	{ 100, 3, 1, 27 },  /* D */
	{ 100, 5, 0, 15 },  /* E */
};

/* The table's six columns, each with what its title asks for over the
 * timeline:
 * 1 voltage transition cycles: A + C + D;
 * 2 cores in C0, accumulated: 8*100 + 2*100 + 6*100 + 3*100 + 5*100;
 * 3 cycles with more than 4 cores in C0: A, C, E;
 * 4 transitions into more than 4 cores in C0: into A, C and E;
 * 5 voltage transition cycles with more than 4 cores in C0: A and C;
 * 6 cycles with fewer than 4 cores in C0 and frequency below 2.0 GHz
 *   (band 0 = 0x14, 20 x 100 MHz): the first 50 cycles and B. */
static const struct pcu_cfg cases[] = {
	{ "1 voltage transition cycles", 0x03, 0, 0, 0, 0, 0, 0, 0, 0x00, 300 },
	{ "2 cores in C0", 0x00, 1, 1, 0, 0, 0, 0, 0, 0x00, 2400 },
	{ "3 cycles with >4 cores in C0", 0x00, 1, 1, 5, 0, 0, 0, 0, 0x00, 300 },
	{ "4 transitions into >4 cores in C0", 0x00, 1, 1, 5, 0, 0, 0, 1, 0x00, 3 },
	{ "5 voltage transition cycles with >4 cores in C0", 0x03, 1, 1, 5, 0, 0, 0, 0, 0x00, 200 },
	{ "6 cycles with <4 cores in C0 and freq < 2.0 GHz", 0x0B, 1, 1, 4, 1, 0, 1, 0, 0x14, 150 },
};

static void wrmsr(struct ucm_model *m, uint32_t a, uint64_t v)
{
	if (ucm_msr_write(m, SOCKET * ucm_cpus_per_socket(m), a, v))
		ct_fail(__FILE__, __LINE__, "wrmsr 0x%x: %s", a, ucm_error(m));
}

static uint64_t rdmsr(struct ucm_model *m, uint32_t a)
{
	uint64_t v = 0;

	if (ucm_msr_read(m, SOCKET * ucm_cpus_per_socket(m), a, &v))
		ct_fail(__FILE__, __LINE__, "rdmsr 0x%x: %s", a, ucm_error(m));
	return v;
}

static void input(struct ucm_model *m, int box, const char *sub, uint32_t inc)
{
	int s = ucm_subev_find(ucm_box_def(m, box)->type, sub);

	if (s < 0 || ucm_set_input(m, box, (unsigned)s, inc))
		ct_fail(__FILE__, __LINE__, "input %s: %s", sub, ucm_error(m));
}

/* Cases [first, first + n) on counters 0..n-1 of socket 1's PCU: the
 * filter the table gives them (one register for the box), then the
 * timeline; the counts as each case's title says. */
static void run_cases(unsigned first, unsigned n)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	int pcu, band;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	cfg.strict = 1;
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	pcu = ucm_box_find(m, SOCKET, "pcu", 0);
	CT_REQUIRE(pcu >= 0);
	band = ucm_subev_find(ucm_box_def(m, pcu)->type, "FREQ_BAND0_CYCLES.CYCLES");
	CT_REQUIRE(band >= 0);

	/* frozen while programming (2.1.1), the counters reset */
	wrmsr(m, PCU_BOX_CTL, 0x10103);
	wrmsr(m, PCU_FILTER, cases[first].filter);
	for (unsigned i = 0; i < n; i++) {
		CT_EQ(cases[first + i].filter, cases[first].filter);
		wrmsr(m, PCU_CTL0 + i, ctl_of(&cases[first + i]));
	}
	wrmsr(m, PCU_BOX_CTL, 0x10000);
	for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		input(m, pcu, "POWER_STATE_OCCUPANCY.CORES_C0", phases[p].c0);
		input(m, pcu, "VOLT_TRANS_CYCLES_CHANGE", phases[p].volt);
		/* the frequency band events see every cycle at this frequency */
		input(m, pcu, "FREQ_BAND0_CYCLES.CYCLES", 1);
		CT_EQ(ucm_set_input_attr(m, pcu, (unsigned)band, UCM_AT_FREQ, (uint16_t)phases[p].freq), 0);
		CT_EQ(ucm_run_cycles(m, ucm_box_def(m, pcu)->type->clock, phases[p].cycles), 0);
	}
	wrmsr(m, PCU_BOX_CTL, 0x10100);
	for (unsigned i = 0; i < n; i++) {
		uint64_t got = rdmsr(m, PCU_CTR0 + i);

		if (got != cases[first + i].expect)
			ct_fail(__FILE__, __LINE__, "Table 2-80 case %s: counted %llu, expected %llu",
				cases[first + i].title, (unsigned long long)got,
				(unsigned long long)cases[first + i].expect);
	}
	/* the table's programming is defined: no strict-mode record */
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

CT_TEST(table_2_80_cases_1_to_4)
{
	run_cases(0, 4);
}

CT_TEST(table_2_80_case_5)
{
	run_cases(4, 1);
}

/* its own run: the band filter differs from the other cases' */
CT_TEST(table_2_80_case_6)
{
	run_cases(5, 1);
}

CT_MAIN()
