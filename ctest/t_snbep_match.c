/*
 * t_snbep_match.c - the Xeon E5-2600 packet filters: the QPI packet
 * match/mask registers behind CTO_COUNT (guide 2.7.3.3, Tables 2-88..2-92,
 * 2-142/2-143) and the HA address/opcode match behind ADDR_OPC_MATCH.FILT
 * (2.4.3, Tables 2-37..2-39), in the model and through the driver.
 *
 * Register addresses are written out from the guide (Table 2-84: QPI port
 * p's counters on D(8+p):F2, its match/mask on D(8+p):F6; Table 2-33: HA
 * on D14:F1), not taken from the model's tables, so the location is under
 * test too.  The packets each filter must select are written out by hand
 * from Table 2-143 (message class and opcode of each name) and the
 * match/mask values of Table 2-92.
 */
#include <errno.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucm.h"

#define NCYC 100u

/* Table 2-84 / 2-86 */
#define Q_CTL0 0xD8
#define Q_CTR0 0xA0
#define Q_MATCH0 0x228
#define Q_MATCH1 0x22C
#define Q_MASK0 0x238
#define Q_MASK1 0x23C
#define Q_CTO_COUNT (0x38u | 1u << 21 | 1u << 22) /* ev_sel, ev_sel_ext, en */
/* Table 2-33 / 2-35 */
#define H_DEV 14
#define H_FN 1
#define H_ADDRMATCH0 0x40
#define H_ADDRMATCH1 0x44
#define H_OPCODEMATCH 0x48
#define H_FILT (0x20u | 0x03u << 8 | 1u << 22)

static struct ucm_model *mk(void)
{
	return ct_model("snbep", 2, 0);
}

static unsigned bus_of(struct ucm_model *m, unsigned socket)
{
	(void)m;
	return socket ? 0x7F : 0x3F; /* the platform's default uncore buses (R13) */
}

static void wr(struct ucm_model *m, unsigned socket, unsigned dev, unsigned fn, unsigned off,
	       uint32_t v, int line)
{
	if (ucm_pci_write(m, 0, bus_of(m, socket), dev, fn, off, 4, v))
		ct_fail(__FILE__, line, "write %u:%u.%u+0x%x <- 0x%x: %s", bus_of(m, socket), dev, fn,
			off, v, ucm_error(m));
}

static uint64_t rd(struct ucm_model *m, unsigned socket, unsigned dev, unsigned fn, unsigned off,
		   unsigned width)
{
	uint64_t v = 0;

	if (ucm_pci_read(m, 0, bus_of(m, socket), dev, fn, off, width, &v))
		ct_fail(__FILE__, __LINE__, "read 0x%x: %s", off, ucm_error(m));
	return v;
}

#define no_strict(m, what) ct_model_no_strict(m, what, __FILE__, __LINE__)

/* Sub-event index of box type bt's input "CODE.NAME". */
static unsigned sub_of(const struct ucm_boxtype *bt, const char *name)
{
	int s = ucm_subev_find(bt, name);

	if (s < 0)
		ct_fail(__FILE__, __LINE__, "no input %s.%s", bt->name, name);
	return s < 0 ? 0 : (unsigned)s;
}

/* The count of counter 0 of QPI port `port` on `socket` while packet
 * `name` (CTO_COUNT.<name>) alone arrives once per cycle with the given
 * attributes for NCYC cycles (attr < 0: none given). */
struct pkt_attrs {
	int rds, dnid, rnid, vnw;
};

static uint64_t qpi_count(struct ucm_model *m, unsigned socket, unsigned port, const char *name,
			  const struct pkt_attrs *a, uint32_t inc)
{
	int box = ucm_box_find(m, socket, "qpi", port);
	const struct ucm_boxtype *bt = ucm_box_def(m, box)->type;
	char full[96];
	unsigned sub;
	uint64_t v0, v1;

	snprintf(full, sizeof(full), "CTO_COUNT.%s", name);
	sub = sub_of(bt, full);
	if (a) {
		const int vals[4] = { a->rds, a->dnid, a->rnid, a->vnw };
		const unsigned attrs[4] = { UCM_AT_RDS, UCM_AT_DNID, UCM_AT_RNID, UCM_AT_VNW };

		for (unsigned k = 0; k < 4; k++)
			if (vals[k] >= 0 && ucm_set_input_attr(m, box, sub, attrs[k], (uint64_t)vals[k]))
				ct_fail(__FILE__, __LINE__, "attr: %s", ucm_error(m));
	}
	v0 = rd(m, socket, 8 + port, 2, Q_CTR0, 8);
	CT_EQ(ucm_set_input(m, box, sub, inc), 0);
	CT_EQ(ucm_run_cycles(m, bt->clock, NCYC), 0);
	CT_EQ(ucm_set_input(m, box, sub, 0), 0);
	v1 = rd(m, socket, 8 + port, 2, Q_CTR0, 8);
	return v1 - v0;
}

static void qpi_program(struct ucm_model *m, unsigned socket, unsigned port, uint32_t match0,
			uint32_t match1, uint32_t mask0, uint32_t mask1)
{
	unsigned dev = 8 + port;

	wr(m, socket, dev, 6, Q_MATCH0, match0, __LINE__);
	wr(m, socket, dev, 6, Q_MATCH1, match1, __LINE__);
	wr(m, socket, dev, 6, Q_MASK0, mask0, __LINE__);
	wr(m, socket, dev, 6, Q_MASK1, mask1, __LINE__);
	wr(m, socket, dev, 2, Q_CTL0, Q_CTO_COUNT, __LINE__);
}

/* Every packet of Table 2-143, as the model names them. */
static const char *const packets[] = {
	"HOM0_RdCur", "HOM0_RdCode", "HOM0_RdData", "HOM0_NonSnpRd", "HOM0_RdInvOwn",
	"HOM0_InvXtoI", "HOM0_EvctCln", "HOM0_NonSnpWr", "HOM0_InvItoE", "HOM0_AckCnfltWbI",
	"HOM0_WbMtoI", "HOM0_WbMtoE", "HOM0_WbMtoS", "HOM0_AckCnflt",
	"HOM1_RspI", "HOM1_RspS", "HOM1_RspCnflt", "HOM1_RspCnfltOwn", "HOM1_RspFwd",
	"HOM1_RspFwdI", "HOM1_RspFwdS", "HOM1_RspFwdIWb", "HOM1_RspFwdSWb", "HOM1_RspIWb",
	"HOM1_RspSWb",
	"NDR_Gnt_Cmp", "NDR_Gnt_FrcAckCnflt", "NDR_CmpD", "NDR_AbortTO", "NDR_Cmp",
	"NDR_FrcAckCnflt", "NDR_Cmp_FwdCode", "NDR_Cmp_FwdInvOwn", "NDR_Cmp_FwdInvItoE",
	"SNP_SnpCur", "SNP_SnpCode", "SNP_SnpData", "SNP_SnpInvOwn", "SNP_SnpInvXtoI",
	"SNP_SnpInvItoE", "SNP_PrefetchHint",
	"NCS_NcRd", "NCS_IntAck", "NCS_FERR", "NCS_NcRdPtl", "NCS_NcCfgRd", "NCS_NcIORd",
	"NCS_NcCfgWr", "NCS_NcIOWr", "NCS_NcMsgS", "NCS_NcP2PS",
	"NCB_NcWr", "NCB_WcWr", "NCB_NcMsgB", "NCB_IntLogical", "NCB_IntPhysical",
	"NCB_IntPrioUpd", "NCB_NcWrPtl", "NCB_WcWrPtl", "NCB_NcP2PB", "NCB_DebugData",
	"DRS_DataC", "DRS_DataC_FrcAckCnflt", "DRS_DataC_Cmp", "DRS_DataNc", "DRS_WbIData",
	"DRS_WbSData", "DRS_WbEData", "DRS_NonSnpWrData", "DRS_WbIDataPtl", "DRS_WbEDataPtl",
	"DRS_NonSnpWrdataPtl",
};
#define NPACKETS (sizeof(packets) / sizeof(packets[0]))

static int listed(const char *const *set, const char *name)
{
	for (; *set; set++)
		if (!strcmp(*set, name))
			return 1;
	return 0;
}

/* The model has exactly the 72 packets of Table 2-143 as CTO_COUNT's inputs. */
CT_TEST(cto_count_inputs_are_the_packets_of_table_2_143)
{
	const struct ucm_platform *p = ucm_platform_find("snbep");
	const struct ucm_boxtype *q = ucm_boxtype_find(p, "qpi");
	const struct ucm_evcode *ec = ucm_code_named(q, 0x138);

	CT_REQUIRE(ec && !strcmp(ec->name, "CTO_COUNT"));
	CT_EQ(ec->nsubs, NPACKETS);
	CT_EQ(ec->max_inc, 2); /* Table 2-94: two slots */
	for (size_t i = 0; i < NPACKETS; i++) {
		char full[96];

		snprintf(full, sizeof(full), "CTO_COUNT.%s", packets[i]);
		CT_CHECK(ucm_subev_find(q, full) >= 0);
	}
}

/* Out of reset (match and mask 0) CTO_COUNT counts every packet; two
 * packets in one cycle count 2 (Table 2-94: both slots), a third is more
 * than the link carries. */
CT_TEST(zero_mask_counts_every_packet_two_per_cycle)
{
	struct ucm_model *m = mk();
	int box;
	const struct ucm_boxtype *bt;

	CT_REQUIRE(m);
	wr(m, 0, 8, 2, Q_CTL0, Q_CTO_COUNT, __LINE__);
	for (size_t i = 0; i < NPACKETS; i++)
		if (qpi_count(m, 0, 0, packets[i], NULL, 1) != NCYC)
			ct_fail(__FILE__, __LINE__, "%s not counted with mask 0", packets[i]);
	CT_EQ(qpi_count(m, 0, 0, "DRS_DataC", NULL, 2), 2 * NCYC);
	box = ucm_box_find(m, 0, "qpi", 0);
	bt = ucm_box_def(m, box)->type;
	CT_EQ(ucm_set_input(m, box, sub_of(bt, "CTO_COUNT.DRS_DataC"), 1), 0);
	CT_EQ(ucm_set_input(m, box, sub_of(bt, "CTO_COUNT.NCB_NcWr"), 2), -ERANGE);
	no_strict(m, "zero mask");
	ucm_destroy(m);
}

/* Table 2-92: each derived event, programmed with the values the model's
 * named event carries, selects the packets its match/mask values name
 * (written out here from Tables 2-89 and 2-143) and, where it matches a
 * response data state, only packets in that state. */
CT_TEST(table_2_92_events_select_the_packets_they_name)
{
	static const char *const any_datac[] = { "DRS_DataC", "DRS_DataC_FrcAckCnflt",
						 "DRS_DataC_Cmp", "DRS_DataNc", NULL };
	static const char *const datac[] = { "DRS_DataC", NULL };
	static const char *const datac_cmp[] = { "DRS_DataC_Cmp", NULL };
	static const char *const datac_frc[] = { "DRS_DataC_FrcAckCnflt", NULL };
	static const char *const wbi[] = { "DRS_WbIData", NULL };
	static const char *const wbs[] = { "DRS_WbSData", NULL };
	static const char *const wbe[] = { "DRS_WbEData", NULL };
	/* opcode bit 3 is the packet size (Table 2-89): 0xxx 9 flits, 1xxx 11 */
	static const char *const drs9[] = { "DRS_DataC", "DRS_DataC_FrcAckCnflt", "DRS_DataC_Cmp",
					    "DRS_DataNc", "DRS_WbIData", "DRS_WbSData",
					    "DRS_WbEData", "DRS_NonSnpWrData", NULL };
	static const char *const drs11[] = { "DRS_WbIDataPtl", "DRS_WbEDataPtl",
					     "DRS_NonSnpWrdataPtl", NULL };
	static const char *const drs_all[] = { "DRS_DataC", "DRS_DataC_FrcAckCnflt", "DRS_DataC_Cmp",
					       "DRS_DataNc", "DRS_WbIData", "DRS_WbSData",
					       "DRS_WbEData", "DRS_NonSnpWrData", "DRS_WbIDataPtl",
					       "DRS_WbEDataPtl", "DRS_NonSnpWrdataPtl", NULL };
	static const char *const ncb9[] = { "NCB_NcWr", "NCB_WcWr", NULL };
	static const char *const ncb11[] = { "NCB_NcMsgB", "NCB_IntLogical", "NCB_IntPhysical",
					     "NCB_IntPrioUpd", "NCB_NcWrPtl", "NCB_WcWrPtl",
					     "NCB_NcP2PB", "NCB_DebugData", NULL };
	/* mask 0x1F80 keeps opcode bits 3:2 = 10: the three interrupts and,
	 * by the values, NcMsgB (1000) */
	static const char *const ncb_int[] = { "NCB_NcMsgB", "NCB_IntLogical", "NCB_IntPhysical",
					       "NCB_IntPrioUpd", NULL };
	static const char *const ncb_all[] = { "NCB_NcWr", "NCB_WcWr", "NCB_NcMsgB",
					       "NCB_IntLogical", "NCB_IntPhysical", "NCB_IntPrioUpd",
					       "NCB_NcWrPtl", "NCB_WcWrPtl", "NCB_NcP2PB",
					       "NCB_DebugData", NULL };
	static const struct {
		const char *name;
		const char *const *pkts;
		int state; /* RDS a packet must carry (b1000 M, b0100 E, b0001 F), -1: any */
	} want[] = {
		{ "UNC_Q_CTO_COUNT.DRS.AnyDataC", any_datac, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_M", datac, 8 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_E", datac, 4 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_F", datac, 1 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_E_Cmp", datac_cmp, 4 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_F_Cmp", datac_cmp, 1 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_E_FrcAckCnflt", datac_frc, 4 },
		{ "UNC_Q_CTO_COUNT.DRS.DataC_F_FrcAckCnflt", datac_frc, 1 },
		{ "UNC_Q_CTO_COUNT.DRS.WbIData", wbi, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.WbSData", wbs, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.WbEData", wbe, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.AnyResp", drs_all, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.AnyResp9flits", drs9, -1 },
		{ "UNC_Q_CTO_COUNT.DRS.AnyResp11flits", drs11, -1 },
		{ "UNC_Q_CTO_COUNT.NCB.AnyResp", ncb_all, -1 },
		{ "UNC_Q_CTO_COUNT.NCB.AnyMsg9flits", ncb9, -1 },
		{ "UNC_Q_CTO_COUNT.NCB.AnyMsg11flits", ncb11, -1 },
		{ "UNC_Q_CTO_COUNT.NCB.AnyInt", ncb_int, -1 },
	};
	static const int states[] = { 0, 1, 2, 4, 8 };
	const struct ucm_platform *p = ucm_platform_find("snbep");
	struct ucm_model *m = mk();
	unsigned found = 0;

	CT_REQUIRE(m);
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		const struct ucm_event *e = NULL;
		uint32_t reg[4] = { 0, 0, 0, 0 };

		for (unsigned i = 0; i < p->nevents; i++)
			if (!strcmp(p->events[i].name, want[w].name))
				e = &p->events[i];
		if (!e || !e->nfilt) {
			ct_fail(__FILE__, __LINE__, "%s: no such event with filter values", want[w].name);
			continue;
		}
		found++;
		for (unsigned i = 0; i < e->nfilt; i++)
			reg[e->filt[i].idx] = e->filt[i].val;
		qpi_program(m, 0, 0, reg[0], reg[1], reg[2], reg[3]);
		for (size_t k = 0; k < NPACKETS; k++)
			for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
				struct pkt_attrs a = { states[s], -1, -1, -1 };
				uint64_t got = qpi_count(m, 0, 0, packets[k], &a, 1);
				int in = listed(want[w].pkts, packets[k]) &&
					 (want[w].state < 0 || want[w].state == states[s]);

				if (got != (in ? NCYC : 0))
					ct_fail(__FILE__, __LINE__, "%s: %s in state %d counted %llu",
						want[w].name, packets[k], states[s], (unsigned long long)got);
			}
	}
	/* Table 2-92 has 18 rows, every one an event */
	CT_EQ(found, 18);
	no_strict(m, "table 2-92");
	ucm_destroy(m);
}

/* Node IDs and the virtual network count only where the mask has 1s; the
 * 5-bit remote node ID is split over the two registers (RNID_4 at MATCH0
 * bit 31, RNID_3_0 at MATCH1 bits 3:0, Tables 2-88..2-91). */
CT_TEST(masked_fields_compare_node_ids_and_virtual_network)
{
	struct ucm_model *m = mk();
	struct pkt_attrs a = { 0, 0, 0, 2 };

	CT_REQUIRE(m);
	/* DNID = 1 (bits 17:13), compared */
	qpi_program(m, 0, 0, 1u << 13, 0, 0x1Fu << 13, 0);
	a.dnid = 1;
	CT_EQ(qpi_count(m, 0, 0, "HOM0_RdData", &a, 1), NCYC);
	a.dnid = 0;
	CT_EQ(qpi_count(m, 0, 0, "HOM0_RdData", &a, 1), 0);
	a.dnid = 3; /* bit 1 differs */
	CT_EQ(qpi_count(m, 0, 0, "HOM0_RdData", &a, 1), 0);
	/* the same DNID match, mask only bit 13: dnid 3 has bit 0 set */
	qpi_program(m, 0, 0, 1u << 13, 0, 1u << 13, 0);
	CT_EQ(qpi_count(m, 0, 0, "HOM0_RdData", &a, 1), NCYC);
	a.dnid = 0;
	/* RNID 0x13: bit 4 in MATCH0[31], bits 3:0 = 3 in MATCH1[3:0] */
	qpi_program(m, 0, 0, 1u << 31, 0x3, 1u << 31, 0xF);
	for (int r = 0; r < 32; r++) {
		a.rnid = r;
		if (qpi_count(m, 0, 0, "SNP_SnpData", &a, 1) != (r == 0x13 ? NCYC : 0))
			ct_fail(__FILE__, __LINE__, "rnid 0x%x against match 0x13 mask 0x1F", r);
	}
	/* bit 4 not masked: 0x03 and 0x13 both pass */
	qpi_program(m, 0, 0, 1u << 31, 0x3, 0, 0xF);
	for (int r = 0; r < 32; r++) {
		a.rnid = r;
		if (qpi_count(m, 0, 0, "SNP_SnpData", &a, 1) != ((r & 0xF) == 3 ? NCYC : 0))
			ct_fail(__FILE__, __LINE__, "rnid 0x%x against match 0x13 mask 0x0F", r);
	}
	a.rnid = 0;
	/* VNW (bits 4:3): VN0 exactly, then "b1x" = VNA by its high bit */
	qpi_program(m, 0, 0, 0, 0, 3u << 3, 0);
	for (int v = 0; v < 4; v++) {
		a.vnw = v;
		CT_EQ(qpi_count(m, 0, 0, "NDR_Cmp", &a, 1), v == 0 ? NCYC : 0);
	}
	qpi_program(m, 0, 0, 2u << 3, 0, 2u << 3, 0);
	for (int v = 0; v < 4; v++) {
		a.vnw = v;
		CT_EQ(qpi_count(m, 0, 0, "NDR_Cmp", &a, 1), v >= 2 ? NCYC : 0);
	}
	no_strict(m, "node ids");
	ucm_destroy(m);
}

/* Each port's F6 filters its own F2 counters: port 0 of socket 0 set to
 * DRS only leaves port 1 and socket 1 counting every packet; the
 * registers read back where the guide puts them, on both sockets. */
CT_TEST(each_port_and_socket_has_its_own_match_and_mask)
{
	struct ucm_model *m = mk();

	CT_REQUIRE(m);
	qpi_program(m, 0, 0, 0x1C00, 0, 0x1E00, 0);
	qpi_program(m, 0, 1, 0, 0, 0, 0);
	qpi_program(m, 1, 0, 0, 0, 0, 0);
	qpi_program(m, 1, 1, 0x1800, 0, 0x1E00, 0);
	CT_EQ(rd(m, 0, 8, 6, Q_MATCH0, 4), 0x1C00);
	CT_EQ(rd(m, 0, 8, 6, Q_MASK0, 4), 0x1E00);
	CT_EQ(rd(m, 0, 9, 6, Q_MASK0, 4), 0);
	CT_EQ(rd(m, 1, 9, 6, Q_MATCH0, 4), 0x1800);
	CT_EQ(qpi_count(m, 0, 0, "HOM0_RdCur", NULL, 1), 0);
	CT_EQ(qpi_count(m, 0, 0, "DRS_WbIData", NULL, 1), NCYC);
	CT_EQ(qpi_count(m, 0, 1, "HOM0_RdCur", NULL, 1), NCYC);
	CT_EQ(qpi_count(m, 1, 0, "HOM0_RdCur", NULL, 1), NCYC);
	CT_EQ(qpi_count(m, 1, 1, "HOM0_RdCur", NULL, 1), 0);
	CT_EQ(qpi_count(m, 1, 1, "NCB_NcWr", NULL, 1), NCYC);
	/* the reserved bits stay 0 (R9) and the ID of F6 is the mask/match
	 * function's (public facts: 0x3C86 / 0x3C96) */
	CT_EQ(rd(m, 0, 8, 6, 0x02, 2), 0x3C86);
	CT_EQ(rd(m, 0, 9, 6, 0x02, 2), 0x3C96);
	no_strict(m, "ports");
	ucm_destroy(m);
}

/* The count of HA counter 0 while packet `name` (ADDR_OPC_MATCH.<name>)
 * at address addr arrives once per cycle. */
static uint64_t ha_count(struct ucm_model *m, const char *name, uint64_t addr)
{
	int box = ucm_box_find(m, 0, "ha", 0);
	const struct ucm_boxtype *bt = ucm_box_def(m, box)->type;
	char full[96];
	unsigned sub;
	uint64_t v0;

	snprintf(full, sizeof(full), "ADDR_OPC_MATCH.%s", name);
	sub = sub_of(bt, full);
	CT_EQ(ucm_set_input_attr(m, box, sub, UCM_AT_ADDR, addr), 0);
	v0 = rd(m, 0, H_DEV, H_FN, 0xA0, 8);
	CT_EQ(ucm_set_input(m, box, sub, 1), 0);
	CT_EQ(ucm_run_cycles(m, bt->clock, NCYC), 0);
	CT_EQ(ucm_set_input(m, box, sub, 0), 0);
	return rd(m, 0, H_DEV, H_FN, 0xA0, 8) - v0;
}

static void ha_program(struct ucm_model *m, uint32_t opc, uint64_t addr, uint32_t ctl)
{
	wr(m, 0, H_DEV, H_FN, H_ADDRMATCH0, (uint32_t)addr & 0xFFFFFFC0u, __LINE__);
	wr(m, 0, H_DEV, H_FN, H_ADDRMATCH1, (uint32_t)(addr >> 32) & 0x3FFF, __LINE__);
	wr(m, 0, H_DEV, H_FN, H_OPCODEMATCH, opc, __LINE__);
	wr(m, 0, H_DEV, H_FN, 0xD8, ctl, __LINE__);
}

/* ADDR_OPC_MATCH.FILT counts the packets whose opcode is OPCODEMATCH.opc
 * (class code bits 1:0 above the opcode, R17) and whose address equals
 * ADDRMATCH1:0 above bit 11 (the note to Table 2-39: the lower 12 bits are
 * ignored, matches are 4K-granular); both umask bits are needed. */
CT_TEST(ha_counts_packets_of_the_opcode_on_the_page)
{
	const uint64_t page = 0x2F3C5A7B000ull;
	struct ucm_model *m = mk();

	CT_REQUIRE(m);
	/* HOM0 (00) RdInvOwn (0100) */
	ha_program(m, 0x04, page, H_FILT);
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page), NCYC);
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page + 0x40), NCYC);  /* bits 11:6: same page */
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page + 0xFC0), NCYC);
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page + 0x1000), 0);   /* next page */
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page ^ (1ull << 40)), 0); /* hi_addr compared */
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page ^ (1ull << 31)), 0);
	CT_EQ(ha_count(m, "HOM0_RdCur", page), 0);
	CT_EQ(ha_count(m, "HOM1_RspCnflt", page), 0); /* opcode 0100 of HOM1: 0x14 */
	CT_EQ(ha_count(m, "DRS_WbIData", page), 0);   /* opcode 0100 of DRS: 0x24 */
	/* low bits of lo_addr programmed: still ignored */
	ha_program(m, 0x14, page | 0xFC0, H_FILT);
	CT_EQ(ha_count(m, "HOM1_RspCnflt", page), NCYC);
	CT_EQ(ha_count(m, "HOM0_RdInvOwn", page), 0);
	ha_program(m, 0x24, page, H_FILT);
	CT_EQ(ha_count(m, "DRS_WbIData", page + 0x80), NCYC);
	no_strict(m, "ha");
	/* umask 0x01 or 0x02 alone: FILT is b00000011 (Table 2-42); the model
	 * records each as selecting nothing */
	ha_program(m, 0x24, page, (H_FILT & ~0xFF00u) | 0x01u << 8);
	CT_EQ(ha_count(m, "DRS_WbIData", page), 0);
	ha_program(m, 0x24, page, (H_FILT & ~0xFF00u) | 0x02u << 8);
	CT_EQ(ha_count(m, "DRS_WbIData", page), 0);
	CT_EQ(ucm_strict_count(m), 2);
	ucm_destroy(m);
}

/* ---- through the driver ---- */

static int rig(struct ct_rig *r)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	return ct_rig_open(r, &cfg, 0, NULL);
}

/* Feed packet name on every QPI port of every socket. */
static void feed_qpi(struct ucm_model *m, const char *name, uint32_t inc)
{
	char full[96];

	snprintf(full, sizeof(full), "CTO_COUNT.%s", name);
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (!strcmp(ucm_box_def(m, (int)b)->type->name, "qpi"))
			CT_EQ(ucm_set_input(m, (int)b, sub_of(ucm_box_def(m, (int)b)->type, full), inc), 0);
}

/* What packet name was fed on every QPI port of every socket so far. */
static uint64_t fed_qpi(struct ucm_model *m, const char *name)
{
	char full[96];
	uint64_t n = 0;

	snprintf(full, sizeof(full), "CTO_COUNT.%s", name);
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (!strcmp(ucm_box_def(m, (int)b)->type->name, "qpi"))
			n += ucm_fed(m, (int)b, sub_of(ucm_box_def(m, (int)b)->type, full));
	return n;
}

/* Events with match/mask terms and Table 2-92's by name count what the
 * model counted; the driver programs F6 as the terms say (a term after a
 * named event's values changes only its field); equal filters share a
 * port, different ones are refused naming the register. */
CT_TEST(driver_programs_match_and_mask_and_counts_ground_truth)
{
	struct ct_rig r;
	struct ucd_evinfo ei;

	CT_REQUIRE(rig(&r) == 0);
	CT_EQ(ucd_add_events(r.d, "qpi/event=0x138,match0=0x1c00,mask0=0x1f00/,"
				  "qpi/UNC_Q_CTO_COUNT.DRS.AnyResp9flits/,"
				  "qpi/UNC_Q_CTO_COUNT.DRS.AnyDataC,match_dnid=1,mask_dnid=0x1f/"), -EBUSY);
	CT_CONTAINS(ucd_error(r.d), "Q_P0_PCI_PMON_PKT_MATCH0");
	ct_rig_close(&r);
	/* a Table 2-92 event by its bare name and every packet: two filters */
	CT_REQUIRE(rig(&r) == 0);
	CT_EQ(ucd_add_events(r.d, "UNC_Q_CTO_COUNT.DRS.DataC_M,UNC_Q_CTO_COUNT"), -EBUSY);
	CT_CONTAINS(ucd_error(r.d), "Q_P0_PCI_PMON_PKT_MATCH0 (bits 0x1c00 differ)");
	ct_rig_close(&r);

	CT_REQUIRE(rig(&r) == 0);
	CT_EQ(ucd_add_events(r.d, "qpi/event=0x138,match0=0x1c00,mask0=0x1f00/,"
				  "UNC_Q_CTO_COUNT.DRS.AnyResp9flits"), 0);
	CT_EQ(ucd_start(r.d), 0);
	/* both on one filter: the same values */
	CT_EQ(rd(r.m, 1, 9, 6, Q_MATCH0, 4), 0x1C00);
	CT_EQ(rd(r.m, 1, 9, 6, Q_MASK0, 4), 0x1F00);
	/* two slots: a 9-flit DRS packet and a request, then an 11-flit one */
	feed_qpi(r.m, "DRS_WbIData", 1);
	feed_qpi(r.m, "HOM0_RdCur", 1);
	CT_EQ(ucm_run_cycles(r.m, 0, 2700000), 0);
	CT_EQ(ucd_sample(r.d), 0);
	feed_qpi(r.m, "DRS_WbIData", 0);
	feed_qpi(r.m, "DRS_WbIDataPtl", 1);
	CT_EQ(ucm_run_cycles(r.m, 0, 2700000), 0);
	feed_qpi(r.m, "DRS_WbIDataPtl", 0);
	feed_qpi(r.m, "HOM0_RdCur", 0);
	CT_EQ(ucd_sample(r.d), 0);
	CT_EQ(ucd_stop(r.d), 0);
	CT_EQ(ucd_event(r.d, 0, &ei), 0);
	/* exactly the 9-flit packets fed while counting, on the 4 ports */
	CT_EQ(ei.total, fed_qpi(r.m, "DRS_WbIData"));
	CT_CHECK(ei.total >= 4 * 1000000ull);
	CT_EQ(ucd_event_socket_total(r.d, 1, 0) + ucd_event_socket_total(r.d, 1, 1), ei.total);
	ct_check_truth(&r, "match/mask", __FILE__, __LINE__);
	CT_EQ(ucd_restore(r.d), 0);
	ct_no_strict(&r, "match/mask", __FILE__, __LINE__);
	ct_rig_close(&r);

	CT_REQUIRE(rig(&r) == 0);
	CT_EQ(ucd_add_events(r.d, "qpi/UNC_Q_CTO_COUNT.DRS.AnyDataC,match_dnid=1,mask_dnid=0x1f/"), 0);
	CT_EQ(ucd_event(r.d, 0, &ei), 0);
	CT_CONTAINS(ei.canonical, "match0=0x3c00");
	CT_CONTAINS(ei.canonical, "mask0=0x3ff80");
	CT_EQ(ucd_start(r.d), 0);
	CT_EQ(rd(r.m, 0, 8, 6, Q_MATCH0, 4), 0x3C00);
	CT_EQ(rd(r.m, 0, 8, 6, Q_MASK0, 4), 0x3FF80);
	CT_EQ(ucd_stop(r.d), 0);
	CT_EQ(ucd_restore(r.d), 0);
	ct_no_strict(&r, "match_dnid", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* Bad filter terms are refused with what and where. */
CT_TEST(driver_refuses_bad_filter_terms)
{
	static const struct {
		const char *ev, *want;
	} bad[] = {
		{ "qpi/event=0x138,match0=0x7/", "reserved bits 0x7 of Q_Py_PCI_PMON_PKT_MATCH0" },
		{ "qpi/event=0x138,mask1=0x100000/", "reserved bits 0x100000" },
		{ "qpi/event=0x138,match_rnid=0x20/", "bits 0x20 have no field" },
		{ "qpi/event=0x138,match_mc=16/", "bits 0x10 have no field" },
		{ "ha/ADDR_OPC_MATCH.FILT,filter_opc=4/", "give filter_addr=" },
		{ "ha/ADDR_OPC_MATCH.FILT,filter_addr=0x1000/", "give filter_opc=" },
		{ "ha/ADDR_OPC_MATCH.FILT,filter_opc=4,filter_addr=0x1234/", "bits 0x34 have no field" },
		{ "ha/ADDR_OPC_MATCH.FILT,filter_opc=4,filter_addr=0x400000000000/",
		  "bits 0x400000000000 have no field" },
		{ "ha/ADDR_OPC_MATCH.FILT,filter_opc=0x40,filter_addr=0/", "filter_opc=64 out of range" },
		{ "cbo/event=0x34,umask=0x3,match0=1/", "cbo has no 'match0' field" },
		{ "imc/event=0x4,umask=0x3,filter_addr=0/", "imc has no 'filter_addr' field" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_rig r;

		CT_REQUIRE(rig(&r) == 0);
		if (ucd_add_events(r.d, bad[i].ev) != -EINVAL)
			ct_fail(__FILE__, __LINE__, "%s accepted", bad[i].ev);
		else if (!strstr(ucd_error(r.d), bad[i].want) || !strstr(ucd_error(r.d), "(col "))
			ct_fail(__FILE__, __LINE__, "%s: \"%s\", want \"%s\"", bad[i].ev, ucd_error(r.d),
				bad[i].want);
		ct_rig_close(&r);
	}
}

/* The HA's event through the driver: filter_opc and filter_addr program
 * OPCODEMATCH and ADDRMATCH1:0; packets of that opcode on that page count
 * what the model counted, others nothing. */
CT_TEST(driver_programs_the_ha_match)
{
	struct ct_rig r;
	struct ucd_evinfo ei;
	int box;
	unsigned hit, miss;

	CT_REQUIRE(rig(&r) == 0);
	CT_EQ(ucd_add_events(r.d, "ha/ADDR_OPC_MATCH.FILT,filter_opc=0x14,filter_addr=0x2f3c5a7b000/"), 0);
	CT_EQ(ucd_start(r.d), 0);
	CT_EQ(rd(r.m, 0, H_DEV, H_FN, H_OPCODEMATCH, 4), 0x14);
	CT_EQ(rd(r.m, 0, H_DEV, H_FN, H_ADDRMATCH0, 4), 0xC5A7B000);
	CT_EQ(rd(r.m, 0, H_DEV, H_FN, H_ADDRMATCH1, 4), 0x2F3);
	box = ucm_box_find(r.m, 0, "ha", 0);
	hit = sub_of(ucm_box_def(r.m, box)->type, "ADDR_OPC_MATCH.HOM1_RspCnflt");
	miss = sub_of(ucm_box_def(r.m, box)->type, "ADDR_OPC_MATCH.HOM0_RdInvOwn");
	for (unsigned s = 0; s < 2; s++) {
		box = ucm_box_find(r.m, s, "ha", 0);
		CT_EQ(ucm_set_input_attr(r.m, box, hit, UCM_AT_ADDR, 0x2F3C5A7B040ull), 0);
		CT_EQ(ucm_set_input_attr(r.m, box, miss, UCM_AT_ADDR, 0x2F3C5A7B040ull), 0);
		CT_EQ(ucm_set_input(r.m, box, hit, 1), 0);
	}
	CT_EQ(ucm_run_cycles(r.m, 0, 270000), 0);
	CT_EQ(ucd_sample(r.d), 0);
	for (unsigned s = 0; s < 2; s++) {
		box = ucm_box_find(r.m, s, "ha", 0);
		CT_EQ(ucm_set_input(r.m, box, hit, 0), 0);
		CT_EQ(ucm_set_input(r.m, box, miss, 1), 0);
	}
	CT_EQ(ucm_run_cycles(r.m, 0, 270000), 0);
	for (unsigned s = 0; s < 2; s++)
		CT_EQ(ucm_set_input(r.m, ucm_box_find(r.m, s, "ha", 0), miss, 0), 0);
	CT_EQ(ucd_sample(r.d), 0);
	CT_EQ(ucd_stop(r.d), 0);
	CT_EQ(ucd_event(r.d, 0, &ei), 0);
	/* exactly the matching packets fed while counting, on both sockets */
	CT_EQ(ei.total, ucm_fed(r.m, ucm_box_find(r.m, 0, "ha", 0), hit) +
				ucm_fed(r.m, ucm_box_find(r.m, 1, "ha", 0), hit));
	CT_CHECK(ei.total >= 2 * 270000ull);
	ct_check_truth(&r, "ha match", __FILE__, __LINE__);
	CT_EQ(ucd_restore(r.d), 0);
	ct_no_strict(&r, "ha match", __FILE__, __LINE__);
	ct_rig_close(&r);
}

CT_MAIN()
