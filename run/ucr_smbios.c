/*
 * ucr_smbios.c - the simulated machine's SMBIOS tables (DMTF DSP0134
 * 3.0.0), made from the machine's own tables: the part's brand string,
 * CPUID leaf 1, its sockets and cores, MSR_PLATFORM_INFO, its caches, its
 * memory per socket and channels.  ucr_tree.c writes them where the kernel shows them
 * (/sys/firmware/dmi/tables) and as the firmware area of /dev/mem that
 * dmidecode --no-sysfs and biosdecode scan (run/preload/ucr_dev.c).
 * Vendor strings name the simulator: no board of Intel's is claimed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucr_server.h"

#define VENDOR "uncore simulator"

struct sm {
	uint8_t *b;
	size_t n, cap;
	int oom;
};

static void grow(struct sm *s, size_t k)
{
	if (s->oom || s->n + k <= s->cap)
		return;
	size_t cap = (s->n + k) * 2;
	uint8_t *nb = realloc(s->b, cap);

	if (!nb) {
		s->oom = 1;
		return;
	}
	s->b = nb;
	s->cap = cap;
}

/* One structure: its formatted area f (f[1] is its length) and its
 * strings, numbered from 1 in f (DSP0134 6.1.3: each NUL-terminated, the
 * set ended by a second NUL; none: two NULs). */
static void structure(struct sm *s, const uint8_t *f, const char *const *str, unsigned nstr)
{
	grow(s, f[1]);
	if (s->oom)
		return;
	memcpy(s->b + s->n, f, f[1]);
	s->n += f[1];
	for (unsigned i = 0; i < nstr; i++) {
		size_t k = strlen(str[i]) + 1;

		grow(s, k);
		if (s->oom)
			return;
		memcpy(s->b + s->n, str[i], k);
		s->n += k;
	}
	grow(s, nstr ? 1 : 2);
	if (s->oom)
		return;
	s->b[s->n++] = 0;
	if (!nstr)
		s->b[s->n++] = 0;
}

static void w16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* Processor Family (DSP0134 7.5.2) by the brand string: the
 * values of the platforms' parts. */
static const struct {
	const char *in_brand;
	uint8_t family;
} families[] = {
	{ "Xeon", 0xB3 },          /* Intel Xeon processor */
	{ "Core(TM) i7", 0xC6 },   /* Intel Core i7 processor */
};

/* Associativity (DSP0134 7.8.6) by the number of ways; any other: Other */
static const struct {
	uint16_t ways;
	uint8_t code;
} assoc[] = {
	{ 1, 0x03 }, { 2, 0x04 }, { 4, 0x05 }, { 8, 0x07 }, { 16, 0x08 }, { 12, 0x09 },
	{ 24, 0x0A }, { 32, 0x0B }, { 48, 0x0C }, { 64, 0x0D }, { 20, 0x0E },
};

/* A cache size field (7.8.4): kilobytes in bits 14:0, or with bit 15 set
 * 64 KiB units where it does not fit */
static unsigned cache_size(uint32_t kb)
{
	return kb < 0x8000 ? kb : 0x8000u | (kb / 64 > 0x7FFF ? 0x7FFFu : kb / 64);
}

/* Memory Type (DSP0134 7.18.2) by the DRAM type's name. */
static const struct {
	const char *prefix;
	uint8_t type;
} mem_types[] = {
	{ "DDR3", 0x18 },
	{ "DDR4", 0x1A },
};

int ucr_smbios_build(struct ucm_model *m, struct ucp_machine *mc, uint64_t table_pa, uint8_t **table,
		     size_t *len, uint8_t ep[UCR_SMBIOS_EP_LEN])
{
	const struct ucm_machine *d = ucp_machine_def(mc);
	const struct ucm_platform *p = ucm_platform_of(m);
	const struct ucm_limits *lim = p->limits;
	unsigned nsock = ucm_nsockets(m), ncores = ucp_ncpu(mc) / nsock;
	unsigned nch = lim && lim->dram_channels ? lim->dram_channels : 1;
	uint64_t info = 0, turbo = 0;
	uint32_t id[4];
	unsigned base_mhz, max_mhz;
	uint8_t family = 0x02, mtype = 0x02; /* Unknown */
	struct sm s = { 0 };
	char product[96];
	uint8_t sum = 0;

	/* MSR_PLATFORM_INFO[15:8]: the maximum non-turbo ratio, of the
	 * 100 MHz bus clock (SDM Vol. 4, the MSR tables of these parts); the
	 * fastest, the 1-core turbo ratio of MSR_TURBO_RATIO_LIMIT[7:0] where
	 * the part has it (as cpufreq's limits, ucr_tree.c) */
	ucp_sysmsr_read(mc, 0, 0xCE, 0, &info);
	base_mhz = (unsigned)(info >> 8 & 0xFF) * 100u;
	if (!base_mhz)
		base_mhz = d->core_mhz;
	max_mhz = ucp_sysmsr_read(mc, 0, 0x1AD, 0, &turbo) || !(turbo & 0xFF) ? base_mhz
									    : (unsigned)(turbo & 0xFF) * 100u;
	ucp_cpuid_of(mc, 0, 1, 0, id);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (strstr(d->brand, families[i].in_brand))
			family = families[i].family;
	for (size_t i = 0; lim && lim->dram_type && i < sizeof(mem_types) / sizeof(mem_types[0]); i++)
		if (!strncmp(lim->dram_type, mem_types[i].prefix, strlen(mem_types[i].prefix)))
			mtype = mem_types[i].type;
	snprintf(product, sizeof(product), "simulated %s machine", p->name);

	/* Type 0, BIOS Information (7.1): 64 KiB at F000:0000, no
	 * characteristics claimed (bit 3: not supported) */
	{
		uint8_t f[0x18] = { 0, 0x18, 0, 0, 1, 2 };
		const char *str[] = { VENDOR, "uncore run" };

		w16(f + 6, 0xF000);
		f[9] = 0;
		f[0x0A] = 0x08;
		f[0x14] = 0xFF;
		f[0x15] = 0xFF;
		f[0x16] = 0xFF;
		f[0x17] = 0xFF;
		structure(&s, f, str, 2);
	}
	/* Type 1, System Information (7.2): no UUID (all zeros: not present) */
	{
		uint8_t f[0x1B] = { 1, 0x1B, 1, 0, 1, 2, 3, 0 };
		const char *str[] = { VENDOR, product, p->name };

		f[0x18] = 0x06; /* wake-up: power switch */
		structure(&s, f, str, 3);
	}
	/* Type 2, Baseboard Information (7.3): a motherboard in chassis 3 */
	{
		uint8_t f[0x0F] = { 2, 0x0F, 2, 0, 1, 2, 3, 0, 0, 0x01, 0 };
		const char *str[] = { VENDOR, product, p->name };

		w16(f + 0x0B, 3);
		f[0x0D] = 0x0A;
		structure(&s, f, str, 3);
	}
	/* Type 3, System Enclosure (7.4): type, states and security unknown */
	{
		uint8_t f[0x16] = { 3, 0x16, 3, 0, 1, 0x02, 0, 0, 0, 0x02, 0x02, 0x02, 0x02 };
		const char *str[] = { VENDOR };

		structure(&s, f, str, 1);
	}
	/* Type 7, Cache Information (7.8), one a cache of the machine's table
	 * a socket, at handle 0x700 + 0x10 socket + its index: internal,
	 * enabled, its level, its type as System Cache Type (7.8.5), its ways
	 * as Associativity, the socket's size (a per-core cache's times the
	 * cores).  The table has no write policy, SRAM type, speed or ECC:
	 * Unknown (operational mode 11b, SRAM bit 1, speed 0, ECC 0x02). */
	for (unsigned k = 0; k < nsock; k++)
		for (unsigned i = 0; i < d->ncaches && i < 0x10; i++) {
			const struct ucm_cache *c = &d->caches[i];
			static const char *const kind[] = { "", " data", " instruction", "" };
			static const uint8_t systype[] = { 0x02, 0x04, 0x03, 0x05 };
			uint8_t f[0x13] = { 7, 0x13 };
			uint32_t kb = c->size_kb * (c->per_package ? 1u : ncores);
			char name[48];
			const char *str[] = { name };

			snprintf(name, sizeof(name), "CPU%u L%u%s", k, c->level, kind[c->type & 3]);
			w16(f + 2, 0x700 + 0x10 * k + i);
			f[4] = 1;
			w16(f + 5, (unsigned)(c->level - 1) | 0x80u | 0x300u);
			w16(f + 7, cache_size(kb));
			w16(f + 9, cache_size(kb));
			w16(f + 0x0B, 0x0002);
			w16(f + 0x0D, 0x0002);
			f[0x10] = 0x02;
			f[0x11] = systype[c->type & 3];
			f[0x12] = 0x01;
			for (size_t a = 0; a < sizeof(assoc) / sizeof(assoc[0]); a++)
				if (assoc[a].ways == c->ways)
					f[0x12] = assoc[a].code;
			structure(&s, f, str, 1);
		}
	/* Type 4, Processor Information (7.5), one a socket: CPUID leaf 1's
	 * EAX and EDX as the processor ID (7.5.3), the brand string as its
	 * version, cores and threads of a socket (one thread a core); its L1,
	 * L2 and L3 cache handles name the socket's type 7 structures (L1:
	 * the data cache's, one handle for both L1s) */
	for (unsigned k = 0; k < nsock; k++) {
		uint8_t f[0x30] = { 4, 0x30 };
		char sock[16];
		const char *str[] = { sock, "Intel(R) Corporation", d->brand };
		unsigned cache_h[3] = { 0xFFFF, 0xFFFF, 0xFFFF };

		for (unsigned i = d->ncaches < 0x10 ? d->ncaches : 0x10; i-- > 0;)
			if (d->caches[i].level >= 1 && d->caches[i].level <= 3 && d->caches[i].type != 2)
				cache_h[d->caches[i].level - 1] = 0x700 + 0x10 * k + i;

		snprintf(sock, sizeof(sock), "CPU%u", k);
		w16(f + 2, 0x100 + k);
		f[4] = 1;
		f[5] = 0x03;      /* central processor */
		f[6] = family;
		f[7] = 2;
		w32(f + 8, id[0]);
		w32(f + 0x0C, id[3]);
		f[0x10] = 3;
		w16(f + 0x12, 100);
		w16(f + 0x14, max_mhz);
		w16(f + 0x16, base_mhz);
		f[0x18] = 0x41;   /* populated, enabled */
		f[0x19] = 0x02;   /* upgrade: unknown */
		w16(f + 0x1A, cache_h[0]);
		w16(f + 0x1C, cache_h[1]);
		w16(f + 0x1E, cache_h[2]);
		f[0x23] = (uint8_t)(ncores > 255 ? 0xFF : ncores);
		f[0x24] = f[0x23];
		f[0x25] = f[0x23];
		w16(f + 0x26, ncores > 1 ? 0x000C : 0x0004); /* 64-bit capable, multi-core */
		w16(f + 0x28, family);
		w16(f + 0x2A, ncores);
		w16(f + 0x2C, ncores);
		w16(f + 0x2E, ncores);
		structure(&s, f, str, 3);
	}
	/* Type 16, Physical Memory Array (7.17), one a socket (its NUMA node's
	 * memory, /proc/meminfo's share), and Type 17, Memory Device (7.18),
	 * one a channel of it: the node's memory split evenly, at the part's
	 * fastest transfer rate */
	for (unsigned k = 0; k < nsock; k++) {
		uint8_t f[0x17] = { 16, 0x17 };
		uint64_t kb = (uint64_t)d->mem_mb * 1024u;

		w16(f + 2, 0x1000 + k);
		f[4] = 0x03;      /* system board */
		f[5] = 0x03;      /* system memory */
		f[6] = 0x02;      /* error correction: unknown */
		if (kb < 0x80000000ull) {
			w32(f + 7, (uint32_t)kb);
		} else {
			w32(f + 7, 0x80000000u);
			w32(f + 0x0F, (uint32_t)(kb * 1024));
			w32(f + 0x13, (uint32_t)(kb * 1024 >> 32));
		}
		w16(f + 0x0B, 0xFFFE);
		w16(f + 0x0D, nch);
		structure(&s, f, NULL, 0);
		for (unsigned c = 0; c < nch; c++) {
			uint8_t g[0x28] = { 17, 0x28 };
			unsigned mb = d->mem_mb / nch;
			char loc[48], bank[32];
			const char *str[] = { loc, bank, VENDOR };

			snprintf(loc, sizeof(loc), "CPU%u channel %u", k, c);
			snprintf(bank, sizeof(bank), "socket %u", k);
			w16(g + 2, 0x1100 + k * 0x10 + c);
			w16(g + 4, 0x1000 + k);
			w16(g + 6, 0xFFFE);
			w16(g + 8, 64);
			w16(g + 0x0A, 64);
			if (mb < 0x7FFF) {
				w16(g + 0x0C, mb);
			} else {
				w16(g + 0x0C, 0x7FFF);
				w32(g + 0x1C, mb);
			}
			g[0x0E] = 0x09;  /* DIMM */
			g[0x10] = 1;
			g[0x11] = 2;
			g[0x12] = mtype;
			w16(g + 0x13, 0x0080); /* synchronous */
			w16(g + 0x15, lim ? lim->dram_mts : 0);
			g[0x17] = 3;
			w16(g + 0x20, lim ? lim->dram_mts : 0);
			structure(&s, g, str, 3);
		}
	}
	/* Type 127, End-of-Table (the last of clause 7) */
	{
		uint8_t f[4] = { 127, 4, 0xFF, 0xFE };

		structure(&s, f, NULL, 0);
	}
	if (s.oom) {
		free(s.b);
		return -1;
	}
	/* SMBIOS 3.0 (64-bit) Entry Point (5.2.2) */
	memset(ep, 0, UCR_SMBIOS_EP_LEN);
	memcpy(ep, "_SM3_", 5);
	ep[6] = UCR_SMBIOS_EP_LEN;
	ep[7] = 3;
	ep[8] = 0;
	ep[0x0A] = 1;
	w32(ep + 0x0C, (uint32_t)s.n);
	w32(ep + 0x10, (uint32_t)table_pa);
	w32(ep + 0x14, (uint32_t)(table_pa >> 32));
	for (unsigned i = 0; i < UCR_SMBIOS_EP_LEN; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[5] = (uint8_t)(0x100 - sum);
	*table = s.b;
	*len = s.n;
	return 0;
}
