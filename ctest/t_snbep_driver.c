/*
 * t_snbep_driver.c - the reference driver on the simulated Xeon E5-2600
 * (Sandy Bridge-EP): every named event through the driver on both sockets,
 * totals against the model's ground truth across 44- and 48-bit wraps and
 * torn two-dword PCI reads, the guide's 2.1.1 box-level freeze around
 * programming, and no strict-mode record from the driver.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct.h"
#include "ct_rig.h"

static int snbep_rig(struct ct_rig *r, uint64_t pci_cost_ps)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	if (pci_cost_ps)
		cfg.access_ps[UCM_PCI] = pci_cost_ps;
	return ct_rig_open(r, &cfg, 0, NULL);
}

/* Index of code ec's first sub-event in its box type's input vector. */
static unsigned first_sub(const struct ucm_boxtype *bt, const struct ucm_evcode *ec)
{
	unsigned s = 0;

	for (unsigned i = 0; i < bt->ncodes && &bt->codes[i] != ec; i++)
		s += bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;
	return s;
}

/* Input sub on every instance of a box type in every socket. */
static void feed_all(struct ucm_model *m, const struct ucm_boxtype *bt, unsigned sub, uint32_t inc)
{
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (ucm_box_def(m, (int)b)->type == bt && ucm_set_input(m, (int)b, sub, inc))
			ct_fail(__FILE__, __LINE__, "feed %s: %s", bt->name, ucm_error(m));
}

/* The event string for a named row: its name, with the opcode filter an
 * opcode-matching umask needs (Table 2-12: no value passes every opcode,
 * so the driver asks for one) set to the opcode of the first sub-event the
 * umask selects, as the model feeds it; likewise the HA's opcode and
 * address match (Tables 2-37..2-39), the address the model's default 0. */
static void event_string(struct ucm_model *m, const struct ucm_event *e, const struct ucm_evcode *ec,
			 char *buf, size_t n)
{
	int box = ucm_box_find(m, 0, e->box->name, 0);
	size_t k = 0;

	k += (size_t)snprintf(buf, n, "%s/%s", e->box->name, e->name);
	for (unsigned r = 0; r < ec->nrules && k < n; r++) {
		const struct ucm_filtrule *fr = &ec->rules[r];

		if ((fr->how != UCM_FM_EQ && fr->how != UCM_FM_EQ_BITS) || fr->ctl_role ||
		    (fr->umask_bits && !(e->umask & fr->umask_bits)))
			continue;
		if (fr->how == UCM_FM_EQ_BITS) {
			CT_EQ(fr->role, UCM_R_FILT_ADDR);
			k += (size_t)snprintf(buf + k, n - k, ",filter_addr=0x0");
			continue;
		}
		CT_EQ(fr->role, UCM_R_FILT_OPC);
		for (unsigned s = 0; s < ec->nsubs; s++)
			if (ucm_umask_selects(ec, s, e->umask)) {
				k += (size_t)snprintf(buf + k, n - k, ",filter_opc=0x%llx",
						      (unsigned long long)ucm_get_input_attr(
							      m, box, first_sub(e->box, ec) + s, fr->attr));
				break;
			}
	}
	if (k < n)
		snprintf(buf + k, n - k, "/");
}

/* A QPI match/mask event of Table 2-92 that matches a response data state
 * (MATCH1 bits 19:16) counts packets in that state: give every packet fed
 * that state, on every box of the type. */
static void packets_in_state(struct ucm_model *m, const struct ucm_event *e, unsigned first,
			     unsigned nsub)
{
	uint64_t rds = 0;

	for (unsigned i = 0; i < e->nfilt; i++)
		if (e->filt[i].idx == 1)
			rds = e->filt[i].val >> 16;
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		for (unsigned s = 0; s < nsub && ucm_box_def(m, (int)b)->type == e->box; s++)
			if (ucm_set_input_attr(m, (int)b, first + s, UCM_AT_RDS, rds))
				ct_fail(__FILE__, __LINE__, "attr: %s", ucm_error(m));
}

/* Every named event of the guide's lists, by name through the driver, on
 * every instance in both sockets: each sub-event of its code fed in turn
 * at its maximum, a sample after each; the totals equal what the model
 * counted between the driver's first and last reads, the event counts
 * (some sub-event its umask selects was fed), and the driver's writes
 * make no strict-mode record (guide 2.1.1, every control table). */
CT_TEST(every_named_event_equals_ground_truth_on_both_sockets)
{
	struct ct_rig r;
	unsigned nev = 0;

	CT_REQUIRE(snbep_rig(&r, 0) == 0);
	CT_REQUIRE(ucd_sockets(r.d) == 2);
	ucd_close(r.d); /* a driver of its own for each event */
	for (unsigned i = 0; i < r.p->nevents; i++) {
		const struct ucm_event *e = &r.p->events[i];
		const struct ucm_evcode *ec = ucm_code_named(e->box, e->code);
		unsigned nsub = ec && ec->nsubs ? ec->nsubs : 1, base;
		struct ucd *d;
		struct ucd_evinfo ei;
		char ev[256], what[300];

		if (!ec) {
			ct_fail(__FILE__, __LINE__, "%s: no code 0x%x", e->name, e->code);
			continue;
		}
		base = first_sub(e->box, ec);
		event_string(r.m, e, ec, ev, sizeof(ev));
		if (e->nfilt)
			packets_in_state(r.m, e, base, nsub);
		snprintf(what, sizeof(what), "%s", ev);
		ucm_truth_mark(r.m);
		if (ucd_open(r.be, NULL, &d)) {
			ct_fail(__FILE__, __LINE__, "ucd_open: %s", ucd_error(d));
			ucd_close(d);
			break;
		}
		if (ucd_add_events(d, ev) || ucd_start(d)) {
			ct_fail(__FILE__, __LINE__, "%s: %s", ev, ucd_error(d));
			ucd_close(d);
			continue;
		}
		for (unsigned s = 0; s < nsub; s++) {
			ucm_clear_inputs(r.m);
			feed_all(r.m, e->box, base + s, ec->max_inc);
			if (ucm_run_cycles(r.m, e->box->clock, 1000) || ucd_sample(d))
				ct_fail(__FILE__, __LINE__, "%s: sample: %s", ev, ucd_error(d));
		}
		ucm_clear_inputs(r.m);
		if (ucd_stop(d) || ucd_restore(d))
			ct_fail(__FILE__, __LINE__, "%s: stop: %s", ev, ucd_error(d));
		ucd_event(d, 0, &ei);
		if (!ei.total)
			ct_fail(__FILE__, __LINE__, "%s counted nothing", ev);
		/* every socket, every instance */
		for (unsigned s = 0; s < 2; s++)
			if (!ucd_event_socket_total(d, 0, s))
				ct_fail(__FILE__, __LINE__, "%s counted nothing on socket %u", ev, s);
		if (ucd_ncounters(d) != 2 * ucd_ninst(d, e->box))
			ct_fail(__FILE__, __LINE__, "%s: %zu counters for %u instances on 2 sockets", ev,
				ucd_ncounters(d), ucd_ninst(d, e->box));
		r.d = d;
		ct_check_truth(&r, what, __FILE__, __LINE__);
		ucd_close(d);
		nev++;
	}
	r.d = NULL;
	CT_EQ(nev, r.p->nevents);
	ct_rig_close(&r);
}

/* SNB-EP has no register that counts the CBos (a part has 4 to 8,
 * Table 1-2 lists C0..C7): the driver probes each CBo's first counter
 * control, whose MSR faults where the box is absent, and places events on
 * the boxes that answer -- on both sockets, without a strict record. */
CT_TEST(cbo_count_is_probed)
{
	for (unsigned n = 1; n <= 8; n++) {
		struct ucm_config cfg;
		struct ct_rig r;
		const struct ucm_boxtype *cbo;

		ucm_config_init(&cfg, ucm_platform_find("snbep"));
		cbo = ucm_boxtype_find(cfg.plat, "cbo");
		cfg.ninst[ucm_boxtype_index(cfg.plat, cbo)] = n;
		CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
		CT_EQ(ucd_ninst(r.d, cbo), n);
		CT_REQUIRE(ucd_add_events(r.d, "UNC_C_CLOCKTICKS") == 0);
		CT_EQ(ucd_ncounters(r.d), 2 * n);
		CT_REQUIRE(ucd_run(r.d, 1000000, 0, NULL, NULL) == 0);
		ct_check_truth(&r, "cbo count", __FILE__, __LINE__);
		CT_REQUIRE(ucd_restore(r.d) == 0);
		ct_rig_close(&r);
	}
}

/* ---- torn reads ---- */

/* A backend between the driver and the simulated one that counts the
 * driver's high-low-high reads of a counter whose high dword changed
 * between the two high reads: a carry happened mid-read, which a plain
 * low-then-high (or high-then-low) read reports off by 2^32. */
struct tear {
	struct ucb b;
	struct ucb *inner;
	struct ucb_pci last_pci;
	unsigned last_off;
	uint64_t hi1;
	int state;  /* 0: idle, 1: high read, 2: then low */
	unsigned torn, triples;
};

#define TEAR(b) ((struct tear *)(b))

static int t_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	return ucb_msr_read(TEAR(b)->inner, cpu, a, v);
}
static int t_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	return ucb_msr_write(TEAR(b)->inner, cpu, a, v);
}
static int t_msr_batch(struct ucb *b, struct ucb_msr_op *ops, unsigned n)
{
	return ucb_msr_batch(TEAR(b)->inner, ops, n);
}
static int same_fn(const struct ucb_pci *a, const struct ucb_pci *b)
{
	return a->seg == b->seg && a->bus == b->bus && a->dev == b->dev && a->fn == b->fn;
}
static int t_pci_read(struct ucb *b, const struct ucb_pci *p, unsigned off, unsigned w, uint64_t *v)
{
	struct tear *t = TEAR(b);
	int rc = ucb_pci_read(t->inner, p, off, w, v);

	if (rc || w != 4)
		return rc;
	if (t->state == 1 && same_fn(p, &t->last_pci) && off + 4 == t->last_off) {
		t->state = 2;
	} else if (t->state == 2 && same_fn(p, &t->last_pci) && off == t->last_off) {
		t->triples++;
		t->torn += *v != t->hi1;
		t->state = 0;
	} else {
		t->state = 1;
		t->hi1 = *v;
		t->last_off = off;
		t->last_pci = *p;
	}
	return 0;
}
static int t_pci_write(struct ucb *b, const struct ucb_pci *p, unsigned off, unsigned w, uint64_t v)
{
	TEAR(b)->state = 0;
	return ucb_pci_write(TEAR(b)->inner, p, off, w, v);
}
static int t_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	return ucb_mmio_read(TEAR(b)->inner, pa, w, v);
}
static int t_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	return ucb_mmio_write(TEAR(b)->inner, pa, w, v);
}
static int t_cpuid(struct ucb *b, unsigned cpu, uint32_t l, uint32_t s, uint32_t r[4])
{
	return ucb_cpuid(TEAR(b)->inner, cpu, l, s, r);
}
static int t_socket_cpu(struct ucb *b, unsigned s, unsigned *cpu)
{
	return ucb_socket_cpu(TEAR(b)->inner, s, cpu);
}
static int t_now(struct ucb *b, uint64_t *ns)
{
	return ucb_now_ns(TEAR(b)->inner, ns);
}
static int t_sleep(struct ucb *b, uint64_t ns)
{
	return ucb_sleep_ns(TEAR(b)->inner, ns);
}
static void t_destroy(struct ucb *b)
{
	free(b);
}

static const struct ucb_ops tear_ops = {
	"tear-counter", t_msr_read, t_msr_write, t_msr_batch, t_pci_read, t_pci_write,
	t_mmio_read, t_mmio_write, t_cpuid, t_socket_cpu, t_now, t_sleep, NULL, t_destroy, NULL, NULL,
};

/* Long runs wrap every counter width the platform has -- 44-bit CBo
 * (Table 2-11, TOR occupancy at up to 20 per uclk), R2PCIe (Table 2-107)
 * and R3QPI (Table 2-121); 48-bit HA (Table
 * 2-36), iMC (Table 2-63), PCU (Table 2-76) and QPI (Table 2-87) -- on both
 * sockets (the 48-bit UBox fixed counter, R1, counts beside them); the PCU C-state counter (64-bit, Table 2-78) beside them.  The
 * driver reads at half its safe interval; totals equal ground truth. */
CT_TEST(wraps_of_44_and_48_bit_counters_equal_ground_truth)
{
	static const struct {
		const char *box, *sub;
		uint32_t inc;
	} in[] = {
		{ "cbo", "TOR_OCCUPANCY.DRd_MISS", 20 }, { "cbo", "TOR_INSERTS.DRd_MISS", 1 },
		{ "ha", "RPQ_CYCLES_NO_REG_CREDITS.CHN0", 1 }, { "ha", "RPQ_CYCLES_NO_REG_CREDITS.CHN1", 1 },
		{ "ha", "RPQ_CYCLES_NO_REG_CREDITS.CHN2", 1 }, { "ha", "RPQ_CYCLES_NO_REG_CREDITS.CHN3", 1 },
		{ "imc", "RPQ_OCCUPANCY", 22 }, { "imc", "CAS_COUNT.RD_REG", 1 },
		{ "pcu", "POWER_STATE_OCCUPANCY.CORES_C0", 8 },
		{ "qpi", "RxL_OCCUPANCY", 128 }, { "r3qpi", "RxR_OCCUPANCY.DRS", 32 },
		{ "r2pcie", "RING_BL_USED.CW_EVEN", 1 },
	};
	/* the CBo TOR occupancy of data-read misses: opcode 0x182 (2.3.5) */
	const char *ev =
		"UNC_U_CLOCKTICKS,cbo/UNC_C_TOR_OCCUPANCY.MISS_OPCODE,filter_opc=0x182/,"
		"UNC_C_TOR_INSERTS.MISS_ALL,"
		"UNC_H_RPQ_CYCLES_NO_REG_CREDITS.CHN0,UNC_H_RPQ_CYCLES_NO_REG_CREDITS.CHN3,"
		"UNC_M_RPQ_OCCUPANCY,cas_rd,UNC_M_DCLOCKTICKS,UNC_P_POWER_STATE_OCCUPANCY.CORES_C0,"
		"UNC_Q_RxL_OCCUPANCY,UNC_R3_RxR_OCCUPANCY.DRS,UNC_R2_RING_BL_USED.CW_EVEN";
	struct ct_rig r;
	uint64_t wraps44 = 0, wraps48 = 0;

	CT_REQUIRE(snbep_rig(&r, 0) == 0);
	for (size_t k = 0; k < sizeof(in) / sizeof(in[0]); k++)
		CT_REQUIRE(ct_feed(r.m, in[k].box, -1, in[k].sub, in[k].inc) == 0);
	if (ucd_add_events(r.d, ev))
		ct_fail(__FILE__, __LINE__, "%s", ucd_error(r.d));
	CT_REQUIRE(ucd_nevents(r.d) == 12);
	/* 20,000 simulated seconds */
	CT_REQUIRE(ucd_run(r.d, 20000ull * 1000000000ull, 0, NULL, NULL) == 0);
	for (size_t i = 0; i < ucd_ncounters(r.d); i++) {
		struct ucd_ctrinfo ci;
		struct ucm_truth tr;
		const char *b;

		CT_REQUIRE(ucd_counter(r.d, i, &ci) == 0);
		b = ci.box->type->name;
		CT_REQUIRE(ucm_truth(r.m, ucm_box_find(r.m, ci.socket, b, ci.box->inst), ci.ctr, &tr) == 0);
		if (!strcmp(b, "cbo") || !strcmp(b, "r3qpi") || !strcmp(b, "r2pcie"))
			wraps44 += tr.wraps;
		else
			wraps48 += tr.wraps;
		/* 2^44 / (20 x 2.7 GHz) = 326 s; 2^48 / (128 x 1 GHz) = 2199 s */
		if (!strcmp(b, "cbo") && ci.ctr == 0)
			CT_CHECK(tr.wraps >= 60);
		if (!strcmp(b, "qpi"))
			CT_CHECK(tr.wraps >= 9);
	}
	CT_CHECK(wraps44 > 16 * 60);
	CT_CHECK(wraps48 >= 4 * 9);
	ct_check_truth(&r, "wraps", __FILE__, __LINE__);
	CT_REQUIRE(ucd_restore(r.d) == 0);
	ct_rig_close(&r);
}

struct ivl {
	struct tear *t;
	uint64_t last_ns, prev[64];
	double rate[64];   /* per ns */
	uint64_t slack_ns;
	unsigned n, bad;
};

/* Each interval's count of every counter: its constant rate times the
 * interval, give or take how far apart the sample's reads lie. */
static int check_interval(struct ucd *d, void *ctx, uint64_t elapsed)
{
	struct ivl *v = ctx;

	for (size_t i = 0; i < ucd_ncounters(d) && i < 64; i++) {
		struct ucd_ctrinfo ci;
		double got, want, tol;

		ucd_counter(d, i, &ci);
		got = (double)(ci.total - v->prev[i]);
		want = v->rate[i] * (double)(elapsed - v->last_ns);
		tol = v->rate[i] * (double)(2 * v->slack_ns);
		if (got < want - tol || got > want + tol) {
			if (v->bad++ < 5)
				ct_fail(__FILE__, __LINE__,
					"interval %u, %s%u counter %u socket %u: %.0f counted, %.0f +- %.0f expected",
					v->n, ci.box->type->name, ci.box->inst, ci.ctr, ci.socket, got, want, tol);
		}
		v->prev[i] = ci.total;
	}
	v->last_ns = elapsed;
	v->n++;
	return 0;
}

/* Guide 2.1.2 / Tables 2-63, 2-87: a 48-bit PCI counter is two config
 * dwords, read one at a time while it counts.  With config accesses of
 * 0.1 ms and QPI occupancy at 128 per qclk (the low dword carries every
 * 33.6 ms), carries fall between the driver's reads of a counter; no
 * reading may be off by 2^32, so every 50 ms interval's count is the rate
 * times the interval within the reading jitter (far below 2^32), and the
 * totals equal ground truth. */
CT_TEST(torn_pci_reads_are_never_off_by_2_32)
{
	struct ct_rig r;
	struct tear *t = calloc(1, sizeof(*t));
	struct ivl v;

	CT_REQUIRE(t);
	CT_REQUIRE(snbep_rig(&r, 100000000ull) == 0);
	t->b.ops = &tear_ops;
	t->inner = r.be;
	ucd_close(r.d);
	CT_REQUIRE(ucd_open(&t->b, NULL, &r.d) == 0);
	CT_REQUIRE(ct_feed(r.m, "qpi", -1, "RxL_OCCUPANCY", 128) == 0);
	CT_REQUIRE(ct_feed(r.m, "imc", -1, "RPQ_OCCUPANCY", 22) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "UNC_Q_RxL_OCCUPANCY,UNC_M_RPQ_OCCUPANCY") == 0);
	memset(&v, 0, sizeof(v));
	CT_REQUIRE(ucd_ncounters(r.d) == 2 * (2 + 4));
	for (size_t i = 0; i < ucd_ncounters(r.d); i++) {
		struct ucd_ctrinfo ci;

		ucd_counter(r.d, i, &ci);
		v.rate[i] = !strcmp(ci.box->type->name, "qpi") ? 128.0 * (double)ucm_clock_hz(r.m, 3) / 1e9
							    : 22.0 * (double)ucm_clock_hz(r.m, 1) / 1e9;
	}
	/* a sample: 12 counters, at most four dword reads each */
	v.slack_ns = 12 * 4 * 100000;
	CT_REQUIRE(ucd_run(r.d, 100ull * 1000000000ull, 50000000, check_interval, &v) == 0);
	CT_CHECK(v.n > 1500);
	CT_EQ(v.bad, 0);
	/* the scenario happened */
	CT_CHECK(t->torn >= 10);
	printf("%u of %u high-low-high reads saw a carry\n", t->torn, t->triples);
	ct_check_truth(&r, "torn reads", __FILE__, __LINE__);
	CT_REQUIRE(ucd_restore(r.d) == 0);
	ucd_close(r.d);
	r.d = NULL;
	ucb_destroy(&t->b);
	ct_rig_close(&r);
}

/* Guide 2.1.1: the driver freezes every box it uses (frz_en with frz, a)
 * before programming and unfreezes (f) only once every counter is set;
 * boxes it does not use are left alone, and so are the HA and iMC box
 * controls' reserved reset bits (Tables 2-34, 2-60).  Observed in an access
 * trace of the session. */
CT_TEST(box_freeze_wraps_programming)
{
	struct ct_rig r;
	char path[] = "/tmp/uncore-t-snbep-XXXXXX";
	char err[256], line[256];
	struct ucb *rec;
	int fd = mkstemp(path);
	FILE *f;
	int stage = 0, nfrz = 0, nunfrz = 0, nctl_frozen = 0;
	unsigned nfrz_ha = 0;

	CT_REQUIRE(fd >= 0);
	close(fd);
	CT_REQUIRE(snbep_rig(&r, 0) == 0);
	ucd_close(r.d);
	CT_REQUIRE(ucb_rec_create(r.be, path, &rec, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_open(rec, NULL, &r.d) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "cbo0/UNC_C_LLC_LOOKUP.DATA_READ/,UNC_H_REQUESTS.READS,imc1/cas_rd/") == 0);
	CT_REQUIRE(ucd_run(r.d, 1000000, 0, NULL, NULL) == 0);
	CT_REQUIRE(ucd_restore(r.d) == 0);
	ucd_close(r.d);
	r.d = NULL;
	CT_REQUIRE(ucb_rec_commit(rec, err, sizeof(err)) == 0);
	ucb_destroy(rec);
	f = fopen(path, "r");
	CT_REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		/* C0 box control 0xD04 (Table 2-8); HA and iMC channel 1 box
		 * controls at config 0xF4 of D14:F1 and D16:F1 (Tables 2-33, 2-59) */
		int cbo = strstr(line, "wrmsr 0 0xd04 ") || strstr(line, "wrmsr 8 0xd04 ");
		int pci_box = (strstr(line, ":0e.1") || strstr(line, ":10.1")) && strstr(line, " 0xf4 ");

		if (strncmp(line, "wr", 2) && strncmp(line, "pciwr", 5))
			continue;
		if (strstr(line, "0xd24 ") || strstr(line, "0xd44 ") || strstr(line, ":10.0 "))
			ct_fail(__FILE__, __LINE__, "a box the session does not use was written: %s", line);
		if (cbo || pci_box) {
			if (strstr(line, " 0x10100 ")) {
				nfrz++;
				nfrz_ha += pci_box;
				stage = stage == 0 ? 1 : stage;
			} else if (strstr(line, " 0x10000 ")) {
				nunfrz++;
				stage = 2;
			} else if (!strstr(line, " 0x0 ")) {
				ct_fail(__FILE__, __LINE__, "box control written other than freeze/unfreeze: %s", line);
			}
		} else if (stage == 1 && (strstr(line, "0xd10 ") || strstr(line, " 0xd8 "))) {
			nctl_frozen++;
		}
	}
	fclose(f);
	remove(path);
	/* frozen at start and at stop, in 2 sockets x 3 boxes */
	CT_EQ(nfrz, 2 * 3 * 2);
	CT_EQ(nfrz_ha, 2 * 2 * 2);
	CT_EQ(nunfrz, 2 * 3);
	CT_CHECK(nctl_frozen >= 2);
	ct_no_strict(&r, "freeze", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* Firmware puts the uncore buses and node IDs where it likes (public facts:
 * Linux maps them through CPUNODEID and GIDNIDMAP).  A model configured
 * with socket 0 on bus 0xFF as node 5 and socket 1 on bus 0x1F as node 2
 * answers there (and not on 0x3F/0x7F); GIDNIDMAP holds 5 and 2 in fields 0
 * and 1 and the IDs left, smallest first, in the others (0xFA3215); the
 * driver finds both sockets in order and counts each one's traffic; a
 * request's node defaults to its socket's node ID. */
CT_TEST(driver_follows_buses_and_node_ids_the_firmware_chose)
{
	struct ucm_config cfg;
	struct ct_rig r;
	uint64_t v = 0;
	int box;
	unsigned sub;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	cfg.pci_bus[0] = 0xFF;
	cfg.pci_bus[1] = 0x1F;
	cfg.node_id[0] = 5;
	cfg.node_id[1] = 2;
	CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
	CT_EQ(ucm_pci_bus(r.m, 0), 0xFF);
	CT_EQ(ucm_node_id(r.m, 1), 2);
	CT_EQ(ucm_pci_read(r.m, 0, 0xFF, 11, 0, 0x40, 4, &v), 0);
	CT_EQ(v, 5);
	CT_EQ(ucm_pci_read(r.m, 0, 0x1F, 11, 0, 0x40, 4, &v), 0);
	CT_EQ(v, 2);
	CT_EQ(ucm_pci_read(r.m, 0, 0x1F, 11, 0, 0x54, 4, &v), 0);
	CT_EQ(v, 0xFA3215);
	CT_EQ(ucm_pci_read(r.m, 0, 0x3F, 11, 0, 0x00, 4, &v), -ENODEV); /* not on the usual bus */
	CT_EQ(ucd_sockets(r.d), 2);
	/* node 5's requests pass a node mask of bit 5 on socket 0 only */
	CT_EQ(ucd_add_events(r.d, "UNC_H_REQUESTS.READS,cbo/TOR_INSERTS.NID_MISS_OPCODE,filter_opc=0x182,filter_nid=0x20/"), 0);
	CT_EQ(ucd_start(r.d), 0);
	box = ucm_box_find(r.m, 1, "ha", 0);
	CT_REQUIRE(box >= 0);
	CT_EQ(ct_feed(r.m, "cbo", -1, "TOR_INSERTS.DRd_MISS", 1), 0);
	sub = (unsigned)ucm_subev_find(ucm_box_def(r.m, box)->type, "REQUESTS.READS");
	CT_EQ(ucm_set_input(r.m, box, sub, 1), 0);
	CT_EQ(ucm_run_cycles(r.m, 0, 2700000), 0);
	CT_EQ(ucd_sample(r.d), 0);
	CT_EQ(ucd_stop(r.d), 0);
	CT_EQ(ucd_event_socket_total(r.d, 0, 0), 0);
	CT_CHECK(ucd_event_socket_total(r.d, 0, 1) >= 2700000);
	CT_CHECK(ucd_event_socket_total(r.d, 1, 0) >= 8 * 2700000ull);
	CT_EQ(ucd_event_socket_total(r.d, 1, 1), 0);
	ct_check_truth(&r, "moved buses", __FILE__, __LINE__);
	CT_EQ(ucd_restore(r.d), 0);
	ct_no_strict(&r, "moved buses", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* Bus and node-ID configurations the model refuses, naming the socket. */
CT_TEST(bad_bus_and_node_configurations_are_refused)
{
	static const struct {
		uint8_t bus[2], node[2];
		const char *want;
	} bad[] = {
		{ { 0x3F, 0x3F }, { 0, 0 }, "sockets 0 and 1 on one PCI bus 0x3f" },
		{ { 0x80, 0 }, { 0, 0 }, "socket 1 has none" },
		{ { 0, 0 }, { 3, 3 }, "sockets 0 and 1 with one node ID 3" },
		{ { 0, 0 }, { 8, 1 }, "node ID 8 of socket 0" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ucm_config cfg;
		struct ucm_model *m = NULL;

		ucm_config_init(&cfg, ucm_platform_find("snbep"));
		memcpy(cfg.pci_bus, bad[i].bus, 2);
		memcpy(cfg.node_id, bad[i].node, 2);
		CT_EQ(ucm_create(&cfg, &m), -EINVAL);
		CT_CONTAINS(m ? ucm_error(m) : NULL, bad[i].want);
		ucm_destroy(m);
	}
}

CT_MAIN()
