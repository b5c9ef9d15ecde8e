/*
 * linux/pci.h - PCI devices and drivers over the model's configuration
 * space (uck_pci.c): the layer enumerates segment 0's buses as the kernel
 * does, by reading each function's vendor ID, registers a driver by its ID
 * table and probes every function that matches; configuration reads and
 * writes go to the machine through the backend interface.
 */
#ifndef UCK_LINUX_PCI_H
#define UCK_LINUX_PCI_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/cpumask.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/rbtree.h>
#include <linux/module.h>

#include <linux/pci_regs.h>
#include <linux/pci_ids.h>

#define PCI_ANY_ID (~0u)
#define PCI_DEVFN(slot, func) ((((slot)&0x1f) << 3) | ((func)&0x07))
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn)&0x07)
#define PCIBIOS_SUCCESSFUL 0
#define PCIBIOS_DEVICE_NOT_FOUND 0x86
#define PCIBIOS_BAD_REGISTER_NUMBER 0x87

/* a PCIBIOS_* status as an errno (the config accessors return 0 or these) */
static inline int pcibios_err_to_errno(int err)
{
	return err <= 0 ? err : (err == PCIBIOS_DEVICE_NOT_FOUND ? -ENODEV : -EIO);
}

struct pci_device_id {
	u32 vendor, device;
	u32 subvendor, subdevice;
	u32 class, class_mask;
	kernel_ulong_t driver_data;
};

#define PCI_DEVICE(vend, dev)                                                    \
	.vendor = (vend), .device = (dev), .subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID

struct pci_bus {
	struct list_head node;     /* on the layer's bus list */
	int domain;
	unsigned char number;
};

struct pci_driver;

struct pci_dev {
	struct list_head node;     /* on the layer's device list */
	struct pci_bus *bus;
	unsigned int devfn;
	unsigned short vendor, device;
	unsigned short subsystem_vendor, subsystem_device;
	unsigned int class;
	struct device dev;
	struct pci_driver *driver;
	int refcnt;
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *dev);
	struct device_driver driver;
};

extern struct bus_type pci_bus_type;
#define to_pci_dev(d) container_of(d, struct pci_dev, dev)
#define to_pci_driver(d) container_of(d, struct pci_driver, driver)

static inline int pci_domain_nr(struct pci_bus *bus) { return bus->domain; }
static inline void *pci_get_drvdata(struct pci_dev *p) { return dev_get_drvdata(&p->dev); }
static inline void pci_set_drvdata(struct pci_dev *p, void *d) { dev_set_drvdata(&p->dev, d); }
static inline int pcibus_to_node(struct pci_bus *bus) { (void)bus; return NUMA_NO_NODE; }
const struct cpumask *cpumask_of_pcibus(const struct pci_bus *bus);

int pci_read_config_byte(const struct pci_dev *d, int where, u8 *val);
int pci_read_config_word(const struct pci_dev *d, int where, u16 *val);
int pci_read_config_dword(const struct pci_dev *d, int where, u32 *val);
int pci_write_config_byte(const struct pci_dev *d, int where, u8 val);
int pci_write_config_word(const struct pci_dev *d, int where, u16 val);
int pci_write_config_dword(const struct pci_dev *d, int where, u32 val);
int pci_bus_read_config_dword(struct pci_bus *bus, unsigned int devfn, int where, u32 *val);

struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device, struct pci_dev *from);
struct pci_dev *pci_get_domain_bus_and_slot(int domain, unsigned int bus, unsigned int devfn);
struct pci_dev *pci_dev_get(struct pci_dev *d);
void pci_dev_put(struct pci_dev *d);
struct pci_bus *pci_find_next_bus(const struct pci_bus *from);
int pci_find_next_ext_capability(struct pci_dev *d, int start, int cap);
int pci_enable_device(struct pci_dev *d);
void pci_disable_device(struct pci_dev *d);

int pci_register_driver(struct pci_driver *drv);
void pci_unregister_driver(struct pci_driver *drv);

#endif
