/*
 * ucd_discover.c - what ucd_open() finds before anything is programmed:
 * the CPU (CPUID) and the platform it is, the uncore's PCI buses and the
 * socket of each (from the identifying device's node ID), that device
 * itself, how many boxes of each type whose count varies are present, and
 * the MMIO base.  Registers are read through ucd_session.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucd_internal.h"

static int platform_matches(const struct ucm_platform *p, unsigned fam, unsigned model)
{
	if (p->cpu_family != fam)
		return 0;
	for (unsigned i = 0; i < p->ncpu_models; i++)
		if (p->cpu_models[i] == model)
			return 1;
	return 0;
}

int ucd_cpu_identify(struct ucb *be, char vendor[13], unsigned *family, unsigned *model)
{
	uint32_t r[4];
	int rc;

	if ((rc = ucb_cpuid(be, 0, 0, 0, r)))
		return rc;
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = 0;
	if ((rc = ucb_cpuid(be, 0, 1, 0, r)))
		return rc;
	/* family and model as the SDM's CPUID leaf 1 defines them (extended
	 * family added for 0xF, extended model for 6 and 0xF) */
	*family = (r[0] >> 8) & 0xF;
	*model = ((r[0] >> 4) & 0xF) | (((r[0] >> 16) & 0xF) << 4);
	if (*family == 0xF)
		*family += (r[0] >> 20) & 0xFF;
	return 0;
}

const struct ucm_platform *ucd_platform_for_cpu(const char *vendor, unsigned family, unsigned model)
{
	size_t np;
	const struct ucm_platform *const *all = ucm_platforms(&np);

	if (strcmp(vendor, "GenuineIntel"))
		return NULL;
	for (size_t i = 0; i < np; i++)
		if (platform_matches(all[i], family, model))
			return all[i];
	return NULL;
}

static int detect(struct ucd *d)
{
	char vendor[13];
	unsigned fam, model;
	size_t np;
	const struct ucm_platform *const *all = ucm_platforms(&np);
	int rc;

	if ((rc = ucd_cpu_identify(d->be, vendor, &fam, &model)))
		return ucd_seterr(d, rc, "CPUID: %s", ucb_error(d->be));
	if (d->opts.platform) {
		d->plat = ucm_platform_find(d->opts.platform);
		if (!d->plat) {
			char names[128];
			size_t k = 0;

			for (size_t i = 0; i < np; i++)
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
						      all[i]->name);
			return ucd_seterr(d, -EINVAL, "unknown platform '%s' (known: %s)",
					  d->opts.platform, names);
		}
		if ((strcmp(vendor, "GenuineIntel") || !platform_matches(d->plat, fam, model)) &&
		    !d->opts.force)
			return ucd_seterr(d, -ENODEV,
					  "this CPU (%s family %u model 0x%02x) is not %s; use --force to program it anyway",
					  vendor, fam, model, d->plat->title);
		return 0;
	}
	if (strcmp(vendor, "GenuineIntel"))
		return ucd_seterr(d, -ENODEV, "not an Intel CPU (%s)", vendor);
	if ((d->plat = ucd_platform_for_cpu(vendor, fam, model)))
		return 0;
	return ucd_seterr(d, -ENODEV, "no supported uncore for family %u model 0x%02x", fam, model);
}

/* The identifying device of a platform (its first device ID) and the
 * register of kind k in its box type. */
static const struct ucm_boxinst *ident_box(const struct ucm_platform *p, unsigned k,
					   const struct ucm_regdef **def)
{
	const struct ucm_regdef *dd;
	const struct ucm_boxinst *bi = ucd_find_reg(p, UCM_K_DEVID, &dd);

	*def = NULL;
	for (unsigned i = 0; i < p->nboxes && p->ndevids; i++)
		for (unsigned r = 0; r < p->boxes[i].type->nregs; r++)
			if (p->boxes[i].type->regs[r].kind == UCM_K_DEVID &&
			    (p->boxes[i].devid == p->devids[0] || !p->boxes[i].devid)) {
				bi = &p->boxes[i];
				dd = &p->boxes[i].type->regs[r];
				goto found;
			}
found:
	if (!bi)
		return NULL;
	if (k == UCM_K_DEVID) {
		*def = dd;
		return bi;
	}
	for (unsigned r = 0; r < bi->type->nregs; r++)
		if (bi->type->regs[r].kind == k)
			*def = &bi->type->regs[r];
	return bi;
}

/* Uncore buses.  Where the identifying device reports its node ID (Xeon:
 * UBox CPUNODEID 0x40, GIDNIDMAP 0x54), every bus is searched for it and the
 * node map says which socket a bus belongs to, as Linux does; elsewhere the
 * platform's fixed bus numbers hold. */
static int discover_buses(struct ucd *d)
{
	const struct ucm_platform *p = d->plat;
	const struct ucm_regdef *did, *nid, *map;
	const struct ucm_boxinst *bi = ident_box(p, UCM_K_DEVID, &did);
	unsigned found = 0;

	for (unsigned s = 0; s < p->max_sockets && s < 8; s++)
		d->bus[s] = p->pci_bus[s];
	if (!bi || !ident_box(p, UCM_K_NODEID, &nid) || !nid)
		return 0;
	ident_box(p, UCM_K_NODEMAP, &map);
	for (unsigned bus = 0; bus < 256; bus++) {
		struct ucb_pci pci = { 0, bus, bi->dev, bi->fn };
		uint64_t vid, dev, node, nmap = 0xFAC688; /* identity: node i at 3i */
		unsigned sock = 8;
		int rc;

		if (ucb_pci_read(d->be, &pci, 0, 2, &vid) || vid != p->pci_vendor ||
		    ucb_pci_read(d->be, &pci, (unsigned)(bi->base + did->off), 2, &dev) ||
		    dev != p->devids[0])
			continue;
		if ((rc = ucb_pci_read(d->be, &pci, (unsigned)(bi->base + nid->off), 4, &node)) ||
		    (map && (rc = ucb_pci_read(d->be, &pci, (unsigned)(bi->base + map->off), 4, &nmap)))) {
			/* a user without root sees 64 bytes of each function (msr-safe
			 * users): the MSR boxes still work, the PCI boxes do not */
			if (rc == -EACCES || rc == -EPERM) {
				snprintf(d->pci_denied, sizeof(d->pci_denied), "%s", ucb_error(d->be));
				d->bus[0] = bus; /* the identifying device is here */
				d->nsock_pci = 0;
				return 0;
			}
			return ucd_seterr(d, rc, "reading the node ID at %02x:%02x.%x: %s", bus,
					  bi->dev, bi->fn, ucb_error(d->be));
		}
		node = ucm_field_get(ucm_layout_field(nid->layout, UCM_R_VALUE), node);
		for (unsigned i = 0; i < 8; i++)
			if (((nmap >> (3 * i)) & 7) == node) {
				sock = i;
				break;
			}
		if (sock >= p->max_sockets || sock >= 8)
			return ucd_seterr(d, -EIO,
					  "uncore bus %02x: node ID %llu maps to socket %u, beyond the %s's %u",
					  bus, (unsigned long long)node, sock, p->title, p->max_sockets);
		d->bus[sock] = bus;
		found |= 1u << sock;
	}
	if (!found && !d->opts.force)
		return ucd_seterr(d, -ENODEV,
				  "no %s (%04x:%04x) on any PCI bus: is this a %s? (--force skips the check)",
				  bi->type->title, p->pci_vendor, p->devids[0], p->title);
	/* sockets are numbered from 0 without gaps */
	for (unsigned s = 0; found && s < 8; s++)
		if (!(found & (1u << s))) {
			d->nsock_pci = s;
			return 0;
		}
	d->nsock_pci = found ? 8 : 0;
	return 0;
}

/* The identifying PCI device: host bridge (client), UBox (Xeon). */
static int identify(struct ucd *d)
{
	const struct ucm_platform *p = d->plat;
	const struct ucm_regdef *def;
	const struct ucm_boxinst *bi = ident_box(p, UCM_K_DEVID, &def);
	struct ucb_pci pci;
	uint64_t vid, did;
	int rc;

	if (!bi)
		return 0;
	pci = (struct ucb_pci){ 0, d->bus[0], bi->dev, bi->fn };
	if ((rc = ucb_pci_read(d->be, &pci, 0, 2, &vid)) ||
	    (rc = ucb_pci_read(d->be, &pci, (unsigned)(bi->base + def->off), 2, &did)))
		return ucd_seterr(d, rc, "reading the %s at %02x:%02x.%x: %s", bi->type->title,
				  pci.bus, pci.dev, pci.fn, ucb_error(d->be));
	for (unsigned i = 0; i < p->ndevids; i++)
		if (vid == p->pci_vendor && did == p->devids[i])
			return 0;
	if (d->opts.force)
		return 0;
	return ucd_seterr(d, -ENODEV,
			  "%s %02x:%02x.%x is %04llx:%04llx, not a %s device; use --force to proceed",
			  bi->type->title, pci.bus, pci.dev, pci.fn, (unsigned long long)vid,
			  (unsigned long long)did, p->title);
}

/* PCI box types whose count varies by part (the v2's memory channels,
 * home agents, QPI ports and R3QPI links): the instances present are those,
 * from the first, whose function answers with its device ID on socket 0's
 * bus, as on a real box an absent function reads all ones. */
static void probe_pci_boxes(struct ucd *d)
{
	const struct ucm_platform *p = d->plat;

	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];
		const struct ucm_boxtype *bt = bi->type;
		int ti = ucm_boxtype_index(p, bt);
		unsigned n = 0;

		if (bt->space != UCM_PCI || bt->ninst_min == bt->ninst_max || bt == p->counted || bi->inst)
			continue;
		for (unsigned k = 0; k < p->nboxes; k++) {
			const struct ucm_boxinst *b = &p->boxes[k];
			struct ucb_pci pci;
			uint64_t vid = 0, did = 0;

			if (b->type != bt || b->inst != n)
				continue;
			pci = (struct ucb_pci){ 0, (uint8_t)d->bus[0], b->dev, b->fn };
			if (ucb_pci_read(d->be, &pci, 0, 2, &vid) || vid != p->pci_vendor ||
			    ucb_pci_read(d->be, &pci, 2, 2, &did) || (b->devid && did != b->devid))
				break;
			n++;
		}
		d->err[0] = 0;
		if (n >= bt->ninst_min)
			d->ninst[ti] = n;
	}
}

static int discover_counts(struct ucd *d)
{
	const struct ucm_platform *p = d->plat;
	const struct ucm_regdef *def;
	const struct ucm_boxinst *bi;

	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *bt = p->boxes[i].type;

		d->ninst[ucm_boxtype_index(p, bt)] = bt->ninst_default;
	}
	if (!d->pci_denied[0])
		probe_pci_boxes(d);
	bi = ucd_find_reg(p, UCM_K_NBOXES, &def);
	if (bi && p->counted) {
		struct ucd_reg r;
		uint64_t v;
		long n;
		int rc;

		ucd_reg_of(d, 0, bi, def, &r);
		if ((rc = ucd_reg_read(d, &r, &v)))
			return rc;
		/* SKL 2.4.1: the register counts one more than the CBos */
		n = (long)ucm_field_get(ucm_layout_field(def->layout, UCM_R_NBOXES), v) -
		    p->counted_bias;
		if (n < p->counted->ninst_min || n > p->counted->ninst_max)
			return ucd_seterr(d, -EIO,
					  "%s reads %llu: %ld %s boxes, outside the platform's %u..%u",
					  def->name, (unsigned long long)v, n, p->counted->name,
					  p->counted->ninst_min, p->counted->ninst_max);
		d->ninst[ucm_boxtype_index(p, p->counted)] = (unsigned)n;
	} else if (p->counted) {
		/* no register counts them (SNB-EP): the instances whose first
		 * counter control answers a read are present, as on hardware an
		 * absent box's MSR faults */
		unsigned n = 0;

		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxinst *b = &p->boxes[i];
			const struct ucm_regdef *ctl = ucm_regdef_find(b->type, UCM_K_CTL, 0);
			struct ucd_reg r;
			uint64_t v;

			if (b->type != p->counted || !ctl || b->inst != n)
				continue;
			ucd_reg_of(d, 0, b, ctl, &r);
			if (ucd_reg_read(d, &r, &v))
				break;
			n++;
		}
		d->err[0] = 0;
		if (n < p->counted->ninst_min)
			return ucd_seterr(d, -ENODEV, "%u %s boxes answer, the platform has %u..%u", n,
					  p->counted->name, p->counted->ninst_min, p->counted->ninst_max);
		d->ninst[ucm_boxtype_index(p, p->counted)] = n;
	}
	return 0;
}

/* MMIO base from the BAR register: both dwords, enable bit checked. */
static int discover_bar(struct ucd *d)
{
	const struct ucm_regdef *def;
	const struct ucm_boxinst *bi = ucd_find_reg(d->plat, UCM_K_BAR, &def);
	struct ucd_reg r;
	uint64_t v;
	int rc;

	if (!bi)
		return 0;
	ucd_reg_of(d, 0, bi, def, &r);
	if ((rc = ucd_reg_read(d, &r, &v)))
		return rc;
	if (!ucm_field_get(ucm_layout_field(def->layout, UCM_R_BAR_EN), v)) {
		d->bar = 0;
		return 0;
	}
	d->bar = v & d->plat->bar_mask;
	return 0;
}

int ucd_open(struct ucb *be, const struct ucd_opts *o, struct ucd **out)
{
	struct ucd *d = calloc(1, sizeof(*d));
	int rc;

	*out = d;
	if (!d)
		return -ENOMEM;
	d->be = be;
	if (o)
		d->opts = *o;
	if ((rc = detect(d)) || (rc = discover_buses(d)) || (rc = identify(d)))
		return rc;
	for (d->nsockets = 0; d->nsockets < d->plat->max_sockets && d->nsockets < 8; d->nsockets++)
		if ((d->nsock_pci && d->nsockets >= d->nsock_pci) ||
		    ucb_socket_cpu(be, d->nsockets, &d->cpu[d->nsockets]))
			break;
	if (!d->nsockets)
		return ucd_seterr(d, -ENODEV, "no socket: %s", ucb_error(be));
	if ((rc = discover_counts(d)) || (rc = discover_bar(d)))
		return rc;
	return 0;
}
