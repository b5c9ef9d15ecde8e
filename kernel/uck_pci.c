/*
 * uck_pci.c - PCI for the driver: segment 0 enumerated (a function exists
 * when its vendor ID reads other than 0xFFFF), drivers bound by their ID
 * tables, configuration space through the backend.
 *
 * Every function of every device is looked at, as Linux does where
 * hypervisor_isolated_pci_functions() holds, not only functions 1-7 of a
 * multi-function function 0: the model presents the uncore's PMON
 * functions without the function 0 and header type beside them on the
 * real parts (docs/linux-driver.md, "PCI enumeration").
 */
#include <linux/pci.h>

#include "ucb.h"
#include "uck_internal.h"

struct bus_type pci_bus_type = { .name = "pci" };

static LIST_HEAD(buses);
static LIST_HEAD(devices);
static LIST_HEAD(drivers_);

struct drvlink {
	struct list_head node;
	struct pci_driver *drv;
};

static int cfg_read(const struct pci_dev *d, int where, unsigned w, u64 *v)
{
	struct ucb_pci a = { (uint16_t)d->bus->domain, d->bus->number, (uint8_t)PCI_SLOT(d->devfn),
			     (uint8_t)PCI_FUNC(d->devfn) };
	uint64_t x = 0;

	if (where < 0 || where + (int)w > 4096 || where % (int)w) {
		*v = ~0ull;
		return PCIBIOS_BAD_REGISTER_NUMBER;
	}
	if (ucb_pci_read(uck_k.b, &a, (unsigned)where, w, &x)) {
		*v = ~0ull;
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	*v = x;
	return PCIBIOS_SUCCESSFUL;
}

static int cfg_write(const struct pci_dev *d, int where, unsigned w, u64 v)
{
	struct ucb_pci a = { (uint16_t)d->bus->domain, d->bus->number, (uint8_t)PCI_SLOT(d->devfn),
			     (uint8_t)PCI_FUNC(d->devfn) };

	if (where < 0 || where + (int)w > 4096 || where % (int)w)
		return PCIBIOS_BAD_REGISTER_NUMBER;
	return ucb_pci_write(uck_k.b, &a, (unsigned)where, w, v) ? PCIBIOS_DEVICE_NOT_FOUND
								     : PCIBIOS_SUCCESSFUL;
}

#define CFG_READ(name, type, w)                                                  \
	int name(const struct pci_dev *d, int where, type *val)                  \
	{                                                                        \
		u64 v;                                                           \
		int rc = cfg_read(d, where, w, &v);                              \
		*val = (type)v;                                                  \
		return rc;                                                       \
	}
CFG_READ(pci_read_config_byte, u8, 1)
CFG_READ(pci_read_config_word, u16, 2)
CFG_READ(pci_read_config_dword, u32, 4)

int pci_write_config_byte(const struct pci_dev *d, int where, u8 val) { return cfg_write(d, where, 1, val); }
int pci_write_config_word(const struct pci_dev *d, int where, u16 val) { return cfg_write(d, where, 2, val); }
int pci_write_config_dword(const struct pci_dev *d, int where, u32 val) { return cfg_write(d, where, 4, val); }

int pci_bus_read_config_dword(struct pci_bus *bus, unsigned int devfn, int where, u32 *val)
{
	struct pci_dev d = { .bus = bus, .devfn = devfn };

	return pci_read_config_dword(&d, where, val);
}

static struct pci_bus *bus_get(int domain, unsigned nr)
{
	struct pci_bus *b;

	list_for_each_entry(b, &buses, node)
		if (b->domain == domain && b->number == nr)
			return b;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->domain = domain;
	b->number = (unsigned char)nr;
	list_add_tail(&b->node, &buses);
	return b;
}

/* 1: a function answers at bus:devfn (its IDs filled in), 0: none */
static int probe_fn(struct pci_bus *bus, unsigned devfn, struct pci_dev **out)
{
	struct pci_dev tmp = { .bus = bus, .devfn = devfn }, *d;
	u32 id, cls, sub;

	*out = NULL;
	if (pci_read_config_dword(&tmp, PCI_VENDOR_ID, &id) || (id & 0xFFFF) == 0xFFFF || !(id & 0xFFFF))
		return 0;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	pci_read_config_dword(&tmp, PCI_CLASS_REVISION, &cls);
	pci_read_config_dword(&tmp, PCI_SUBSYSTEM_VENDOR_ID, &sub);
	d->bus = bus;
	d->devfn = devfn;
	d->vendor = (unsigned short)id;
	d->device = (unsigned short)(id >> 16);
	d->class = cls >> 8;
	d->subsystem_vendor = (unsigned short)sub;
	d->subsystem_device = (unsigned short)(sub >> 16);
	d->dev.numa_node = NUMA_NO_NODE;
	d->refcnt = 1;
	list_add_tail(&d->node, &devices);
	*out = d;
	return 1;
}

int uck_pci_boot(char *err, size_t n)
{
	unsigned busnr, dev, fn;

	for (busnr = 0; busnr < 256; busnr++) {
		struct pci_bus *bus = NULL;

		for (dev = 0; dev < 32; dev++) {
			struct pci_dev tmp, *d;
			int rc;

			if (!bus) {
				/* a bus exists for the kernel once a function answers on it */
				struct pci_bus probe = { .domain = 0, .number = (unsigned char)busnr };
				u32 id;

				for (fn = 0; fn < 8; fn++) {
					tmp = (struct pci_dev){ .bus = &probe, .devfn = PCI_DEVFN(dev, fn) };
					if (!pci_read_config_dword(&tmp, PCI_VENDOR_ID, &id) &&
					    (id & 0xFFFF) != 0xFFFF && (id & 0xFFFF))
						break;
				}
				if (fn == 8)
					continue;
				bus = bus_get(0, busnr);
				if (!bus)
					goto nomem;
			}
			for (fn = 0; fn < 8; fn++) {
				rc = probe_fn(bus, PCI_DEVFN(dev, fn), &d);
				if (rc < 0)
					goto nomem;
			}
		}
	}
	return 0;
nomem:
	snprintf(err, n, "kernel: out of memory enumerating PCI");
	return -ENOMEM;
}

void uck_pci_shutdown(void)
{
	struct pci_dev *d, *dn;
	struct pci_bus *b, *bn;
	struct drvlink *l, *ln;

	list_for_each_entry_safe(l, ln, &drivers_, node) {
		list_del(&l->node);
		kfree(l);
	}
	list_for_each_entry_safe(d, dn, &devices, node) {
		list_del(&d->node);
		kfree(d);
	}
	list_for_each_entry_safe(b, bn, &buses, node) {
		list_del(&b->node);
		kfree(b);
	}
}

struct pci_dev *pci_dev_get(struct pci_dev *d)
{
	if (d)
		d->refcnt++;
	return d;
}

void pci_dev_put(struct pci_dev *d)
{
	/* devices live as long as the kernel; the count catches a put too many */
	if (d)
		WARN_ON(--d->refcnt < 1);
}

struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device, struct pci_dev *from)
{
	struct list_head *pos = from ? from->node.next : devices.next;

	for (; pos != &devices; pos = pos->next) {
		struct pci_dev *d = list_entry(pos, struct pci_dev, node);

		if ((vendor == PCI_ANY_ID || d->vendor == vendor) &&
		    (device == PCI_ANY_ID || d->device == device)) {
			pci_dev_put(from);
			return pci_dev_get(d);
		}
	}
	pci_dev_put(from);
	return NULL;
}

struct pci_dev *pci_get_domain_bus_and_slot(int domain, unsigned int bus, unsigned int devfn)
{
	struct pci_dev *d;

	list_for_each_entry(d, &devices, node)
		if (d->bus->domain == domain && d->bus->number == bus && d->devfn == devfn)
			return pci_dev_get(d);
	return NULL;
}

struct pci_bus *pci_find_next_bus(const struct pci_bus *from)
{
	struct list_head *pos = from ? from->node.next : buses.next;

	return pos == &buses ? NULL : list_entry(pos, struct pci_bus, node);
}

/* PCI Express extended capabilities from 0x100 (PCIe Base Spec 7.6) */
int pci_find_next_ext_capability(struct pci_dev *d, int start, int cap)
{
	int pos = start ? start : 0x100, ttl = (4096 - 0x100) / 8;
	u32 h;

	if (start) {
		if (pci_read_config_dword(d, start, &h))
			return 0;
		pos = (int)((h >> 20) & 0xFFC);
	}
	while (pos >= 0x100 && ttl-- > 0) {
		if (pci_read_config_dword(d, pos, &h) || !h || h == 0xFFFFFFFFu)
			return 0;
		if ((int)(h & 0xFFFF) == cap && pos != start)
			return pos;
		pos = (int)((h >> 20) & 0xFFC);
	}
	return 0;
}

int pci_enable_device(struct pci_dev *d)
{
	(void)d;
	return 0;
}

void pci_disable_device(struct pci_dev *d)
{
	(void)d;
}

static const struct pci_device_id *match(const struct pci_device_id *id, const struct pci_dev *d)
{
	for (; id && (id->vendor || id->subvendor || id->class_mask); id++)
		if ((id->vendor == PCI_ANY_ID || id->vendor == d->vendor) &&
		    (id->device == PCI_ANY_ID || id->device == d->device) &&
		    (id->subvendor == PCI_ANY_ID || id->subvendor == d->subsystem_vendor) &&
		    (id->subdevice == PCI_ANY_ID || id->subdevice == d->subsystem_device) &&
		    !((id->class ^ d->class) & id->class_mask))
			return id;
	return NULL;
}

int pci_register_driver(struct pci_driver *drv)
{
	struct drvlink *l = kzalloc(sizeof(*l), GFP_KERNEL);
	struct pci_dev *d;

	if (!l)
		return -ENOMEM;
	l->drv = drv;
	list_add_tail(&l->node, &drivers_);
	drv->driver.name = drv->name;
	/* probe each unbound function the table matches, in bus order */
	list_for_each_entry(d, &devices, node) {
		const struct pci_device_id *id;

		if (d->driver || !(id = match(drv->id_table, d)))
			continue;
		d->driver = drv;
		d->dev.driver = &drv->driver;
		if (drv->probe(d, id)) {
			d->driver = NULL;
			d->dev.driver = NULL;
		}
	}
	return 0;
}

void pci_unregister_driver(struct pci_driver *drv)
{
	struct drvlink *l, *ln;
	struct pci_dev *d;

	list_for_each_entry(d, &devices, node) {
		if (d->driver != drv)
			continue;
		if (drv->remove)
			drv->remove(d);
		d->driver = NULL;
		d->dev.driver = NULL;
	}
	list_for_each_entry_safe(l, ln, &drivers_, node) {
		if (l->drv == drv) {
			list_del(&l->node);
			kfree(l);
		}
	}
}
