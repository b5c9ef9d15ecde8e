/*
 * t_linux_edit.c - the kernel developer's loop, tested: built against a
 * copy of Linux's uncore_snbep.c with one edit (kernel/CMakeLists.txt:
 * SNBEP_PMON_CTL_EN also sets bit 21), the driver's change shows in the
 * model's undefined-programming record, where the stock driver's runs
 * (t_linux) have no such record.
 */
#include <string.h>

#include "ct.h"
#include "ct_linux.h"
#include "uck.h"

/* Every counter the edited driver enables on the E5-2600 has bit 21 set:
 * the CBo's control among them, with its enable bit. */
CT_TEST(snbep_edit_seen)
{
	unsigned seen = 0, cbo = 0;
	struct perf_event_attr a = { 0 };
	int id, idx;

	if (ct_linux_boot("snbep"))
		return;
	idx = uck_pmu_find("uncore_cbox_0");
	CT_CHECK(idx >= 0);
	a.size = sizeof(a);
	a.type = (uint32_t)uck_pmu_type((unsigned)idx);
	a.config = 0x0034 | 0x03 << 8; /* LLC_LOOKUP, umask 0x03 */
	id = uck_event_open(&a, -1, 0, -1, 0);
	CT_CHECK(id > 0);
	CT_EQ(uck_sleep_ns(1000000), 0);
	for (size_t i = 0; i < ucm_strict_count(S.m); i++) {
		const struct ucm_strict_rec *r = ucm_strict_get(S.m, i);

		if (strstr(r->rule, "reserved bits 0x200000 written")) {
			seen++;
			cbo += !strcmp(r->reg, "C0_MSR_PMON_CTL0") && (r->value & (1u << 22));
		}
	}
	CT_CHECK(seen > 0);
	CT_CHECK(cbo > 0);
	CT_EQ(uck_event_close(id), 0);
	ct_linux_halt();
}

CT_MAIN()
