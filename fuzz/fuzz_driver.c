/*
 * fuzz_driver.c - driver API sequences on the simulated backend: events
 * added from the tables and raw encodings, start, samples, waits, changing
 * inputs, overflow options, stop, restore, in any order.  Every access the
 * driver makes must fall on a register of the platform (a checking backend
 * sits between driver and model); the driver's totals must equal the
 * model's ground truth; the driver must cause no strict-mode record.
 */
#include <string.h>

#include "fz.h"
#include "fz_truth.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

static struct ucm_model *M;
static struct ucb *inner;

/* Some register covers [key, key + width) in this space. */
static void check_access(unsigned space, uint64_t key, unsigned width, const char *what)
{
	for (size_t i = 0; i < ucm_nregs(M); i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(M, i, &ri);
		if (ri.space == space && key < ri.addr + (space == UCM_MSR ? 1 : ri.width / 8) &&
		    key + width > ri.addr)
			return;
	}
	FZ_FAIL("the driver touched %s 0x%llx, outside the platform's registers", what,
		(unsigned long long)key);
}

static int c_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	(void)b;
	check_access(UCM_MSR, a, 1, "MSR");
	return ucb_msr_read(inner, cpu, a, v);
}

static int c_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	(void)b;
	check_access(UCM_MSR, a, 1, "MSR");
	return ucb_msr_write(inner, cpu, a, v);
}

static int c_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	(void)b;
	check_access(UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), w, "PCI config");
	return ucb_pci_read(inner, d, off, w, v);
}

static int c_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	(void)b;
	check_access(UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), w, "PCI config");
	return ucb_pci_write(inner, d, off, w, v);
}

static uint64_t bar(void)
{
	uint64_t v = 0;

	ucm_pci_peek(M, 0, 0, 0, 0, 0x48, 8, &v);
	return v & ucm_platform_of(M)->bar_mask;
}

static int c_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	(void)b;
	check_access(UCM_MMIO, pa - bar(), w, "MMIO");
	return ucb_mmio_read(inner, pa, w, v);
}

static int c_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	(void)b;
	check_access(UCM_MMIO, pa - bar(), w, "MMIO");
	return ucb_mmio_write(inner, pa, w, v);
}

static int c_cpuid(struct ucb *b, unsigned cpu, uint32_t l, uint32_t s, uint32_t r[4])
{
	(void)b;
	return ucb_cpuid(inner, cpu, l, s, r);
}

static int c_socket(struct ucb *b, unsigned s, unsigned *cpu)
{
	(void)b;
	return ucb_socket_cpu(inner, s, cpu);
}

static int c_now(struct ucb *b, uint64_t *ns)
{
	(void)b;
	return ucb_now_ns(inner, ns);
}

static int c_sleep(struct ucb *b, uint64_t ns)
{
	(void)b;
	return ucb_sleep_ns(inner, ns);
}

static const struct ucb_ops checking = {
	.name = "checking",
	.msr_read = c_msr_read,
	.msr_write = c_msr_write,
	.pci_read = c_pci_read,
	.pci_write = c_pci_write,
	.mmio_read = c_mmio_read,
	.mmio_write = c_mmio_write,
	.cpuid = c_cpuid,
	.socket_cpu = c_socket,
	.now_ns = c_now,
	.sleep_ns = c_sleep,
};

static const char *const events[] = {
	"uclk", "data_reads", "data_writes", "gt_requests", "ia_requests", "io_requests",
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI", "UNC_CBO_CACHE_LOOKUP.READ_I", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE",
	"UNC_ARB_TRK_OCCUPANCY.ALL", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST",
	"UNC_ARB_TRK_REQUESTS.WRITES", "UNC_ARB_COH_TRK_REQUESTS.ALL", "cbo0/event=0x34,umask=0x11,thresh=1,edge/",
	"cbo/event=0x22,umask=0xcd,thresh=1,inv/", "arb/event=0x80,umask=0x1,thresh=20/",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct ucm_config cfg;
	struct ucb chk = { &checking, NULL, { 0 } };
	struct ucd_opts o = { NULL, 0, 0, 0, 0 };
	struct ucd *d;
	unsigned ops = 0;
	int started = 0;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.strict = 1;
	cfg.ninst[ucm_boxtype_index(cfg.plat, cfg.plat->counted)] = 1 + fz_u8(&f) % 4;
	o.pmi_cores = fz_u8(&f) & 0xF;
	o.freeze_on_pmi = fz_u8(&f) & 1;
	o.wake_on_pmi = fz_u8(&f) & 1;
	if (ucm_create(&cfg, &M) || ucb_sim_create(M, &inner))
		FZ_FAIL("setup");
	if (ucd_open(&chk, &o, &d))
		FZ_FAIL("open: %s", ucd_error(d));
	ucm_truth_mark(M);
	while (fz_more(&f) && ops++ < 64) {
		switch (fz_u8(&f) % 8) {
		case 0:
			if (!started)
				ucd_add_events(d, events[fz_u8(&f) % (sizeof(events) / sizeof(events[0]))]);
			break;
		case 1:
			if (!started && ucd_nevents(d)) {
				if (ucd_start(d))
					FZ_FAIL("start: %s", ucd_error(d));
				started = 1;
			}
			break;
		case 2:
			if (started && ucd_sample(d))
				FZ_FAIL("sample: %s", ucd_error(d));
			break;
		case 3: /* wait, but never past the safe interval between samples */
			if (started) {
				uint64_t ns = (uint64_t)fz_u16(&f) * 1000;

				if (ns > ucd_safe_interval_ns(d) / 2)
					ns = ucd_safe_interval_ns(d) / 2;
				if (ucb_sleep_ns(inner, ns))
					FZ_FAIL("sleep");
				if (ucd_sample(d))
					FZ_FAIL("sample: %s", ucd_error(d));
			}
			break;
		case 4: { /* inputs change; what exceeds a maximum is refused */
			unsigned b = fz_u8(&f) % ucm_box_count(M), n = ucm_subev_count(ucm_box_def(M, (int)b)->type);

			if (n)
				ucm_set_input(M, (int)b, fz_u8(&f) % n, fz_u8(&f) % 33);
			break;
		}
		case 5: { /* a long wait at the safe interval: counters wrap */
			if (started) {
				uint64_t ns = ucd_safe_interval_ns(d) / 2;

				if (ns > 2000000000ull)
					ns = 2000000000ull;
				if (ucb_sleep_ns(inner, ns) || ucd_sample(d))
					FZ_FAIL("long wait: %s", ucd_error(d));
			}
			break;
		}
		case 6:
			if (started && ucd_stop(d))
				FZ_FAIL("stop: %s", ucd_error(d));
			break;
		default: /* the session ends with a restore */
			if (started) {
				if (ucd_stop(d))
					FZ_FAIL("stop: %s", ucd_error(d));
				fz_check_truth(d, M, "session");
				if (ucd_restore(d))
					FZ_FAIL("restore: %s", ucd_error(d));
				started = 0;
				f.n = 0;
			}
			break;
		}
	}
	if (started) {
		if (ucd_stop(d))
			FZ_FAIL("stop: %s", ucd_error(d));
		fz_check_truth(d, M, "session");
	}
	fz_check_truth(d, M, "end");
	ucd_close(d);
	ucb_destroy(inner);
	ucm_destroy(M);
	return 0;
}
