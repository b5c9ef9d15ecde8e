/*
 * ct_hw.h - the fake machines of the hardware backend's tests (t_hw_*.c):
 * trees of ordinary files under a root directory standing for /proc, /sys
 * and /dev (pread/pwrite at an offset and mmap work on files as on the
 * devices), one builder for every platform: a Skylake-client desktop, a
 * two-socket Xeon E5-2600 (on the usual uncore buses 0x3F/0x7F, and on
 * buses firmware numbered otherwise) and a two-socket E5-2600 v2.  Also:
 * snapshots of every register file to compare before and after, msr-safe's
 * batch ioctl interposed (ct_hw.c's ioctl wins over libc's for the backend
 * linked into a test binary), and running the CLI on a tree.
 */
#ifndef CT_HW_H
#define CT_HW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ucb.h"

#define BAR 0xFED10000ull
#define MSR_BYTES (0x1000 * 8)  /* MSRs 0..0xFFF at 8 bytes each */
#define CFG_BYTES 4096          /* PCIe configuration space of a function */
#define MEM_BYTES 0x8000        /* the MMIO window kept in snapshots */
#define MAXCPU_T 16
#define MAXFN 64

/* ---- the fake machine ---- */

enum {
	MSR_SAFE = 1,     /* msr-safe's devices instead of the msr driver's */
	PCI_PROC = 2,     /* PCI configuration in /proc/bus/pci only, no sysfs */
	PCI_SPLIT = 4,    /* sysfs shows the first uncore bus only; the second
			   * is in /proc/bus/pci alone */
};

/* The current tree's root directory. */
extern char root[256];

/* What the current tree holds, for snapshots. */
struct ct_hw_tree {
	int flags;
	unsigned ncpus;
	unsigned nfn;
	struct {
		struct ucb_pci at;
		char rel[96];
	} fn[MAXFN];
	int mem;             /* /dev/mem with the window at BAR */
};
extern struct ct_hw_tree T;

/* Files of the tree, named relative to its root. */
void mkdirs(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void put(const char *rel, uint64_t off, const void *buf, size_t n);
void put32(const char *rel, uint64_t off, uint32_t v);
void text(const char *rel, const char *s);
void sized(const char *rel, uint64_t size);
const char *msr_rel(unsigned cpu);
/* A test tree keeps MSR n at byte 8n (docs/hw-validation.md). */
void put_msr(unsigned cpu, uint32_t msr, uint64_t v);
uint64_t get_msr(unsigned cpu, uint32_t msr);
const char *fn_rel(uint8_t bus, uint8_t dev, uint8_t fn);
void put_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, uint64_t v, size_t n);
uint64_t get_cfg(uint8_t bus, uint8_t dev, uint8_t fn, unsigned off, size_t n);

/* A PCI function with its vendor and device ID, its configuration space
 * where sysfs shows it or, with proc, only in /proc/bus/pci. */
void add_fn(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t did, int proc);
void cpuinfo(unsigned model, unsigned stepping, const char *name);
/* A Skylake desktop as the kernel shows it: 4 cpus in one package, the
 * msr devices, the host bridge's config space, physical memory. */
void make_tree(const char *name, int flags);

/* A PCI function of an uncore bus. */
struct pfn {
	uint8_t dev, fn;
	uint16_t did;
};
/* The PCI functions of the E5-2600 uncore on each socket's bus, as the
 * public facts list them (Linux uncore_snbep.c, pci_ids.h; QPI misc from
 * lspci) and independently of the model's tables, which are checked
 * against them this way. */
#define NSNBEP_FNS 20
extern const struct pfn snbep_fns[NSNBEP_FNS];

/* How a two-socket E5-2600 box numbers its uncore: the bus of each UBox,
 * the node ID it reports (CPUNODEID, 0x40) and the node of each socket
 * (GIDNIDMAP, 0x54: three bits per socket); and how cpus are numbered. */
struct snbep_layout {
	uint8_t bus[2];
	uint8_t node[2];
	uint8_t sock_node[8];
	int interleaved;     /* cpu c in package c % 2, else c / 8 (as the model) */
	int decoy;           /* a foreign UBox (Ivy Bridge-EP's 0x0E1E) on bus 0x80 */
};
/* the usual numbering: socket i on the bus of node i */
extern const struct snbep_layout SNBEP_USUAL;
/* firmware's own: socket 0 is node 2 on bus 0xFF, socket 1 node 5 on 0x1F */
extern const struct snbep_layout SNBEP_MOVED;
/* GIDNIDMAP of a layout */
uint32_t nodemap(const struct snbep_layout *l);

/* The E5-2600 v2's functions on an uncore bus (docs/platform-ivt.md;
 * ivt-facts.md §7-§13). */
#define NIVT_FNS 25
extern const struct pfn ivt_fns[NIVT_FNS];

/* A two-socket E5-2600 v2 with 8 cpus a package (the tree's 16; the
 * simulator it is compared with is configured alike, with 15 CBos), buses
 * 0x3F/0x7F; box controls read 0x30000 as out of reset (V6). */
void make_ivt(const char *name, int flags);
/* A two-socket Xeon E5-2600: 16 cpus, the MSR devices, and on each uncore
 * bus the functions above with a UBox that tells which node the bus is. */
void make_snbep(const char *name, int flags, const struct snbep_layout *l);
void rm_tree(void);

/* ---- snapshots ---- */

/* The bytes of every register file of the tree, to compare before and
 * after. */
struct snap {
	uint8_t msr[MAXCPU_T][MSR_BYTES];
	uint8_t cfg[MAXFN][CFG_BYTES];
	uint8_t mem[MEM_BYTES];
};

void slurp(const char *rel, uint64_t off, void *buf, size_t n);
void snapshot(struct snap *s);
struct snap *snap_new(void);
/* Names the first byte that differs in each register file, as a failure
 * at file:line. */
int check_same_at(const struct snap *a, const struct snap *b, const char *when, const char *file, int line);
#define check_same(a, b, when) check_same_at(a, b, when, __FILE__, __LINE__)

/* ---- the backend and the driver on the tree ---- */

/* The hardware backend on the current tree (msr: UCB_HW_MSR...). */
struct ucb *hw(int msr);

/* Events of every box type of the Skylake client and of the E5-2600. */
extern const char *EVENTS;
extern const char *SNBEP_EVENTS;

/* The counter of a PCI box (dev:fn on bus) whose control has EN set. */
unsigned pci_counter_in_use(uint8_t bus, uint8_t dev, uint8_t fn);
/* The E5-2600 has begun counting: every box control that was frozen is
 * unfrozen again. */
int snbep_counting(void);

/* msr-safe's batch ioctl as interposed: the calls made and operations
 * done, the cpus the last batches named (a bit each). */
extern unsigned batch_calls, batch_ops;
extern uint32_t batch_cpus;

/* Run `uncore` (UNCORE_BIN) as an unprivileged user where the test runs as
 * root; its output (stdout and stderr) in out; its exit status. */
int run_cli(char *out, size_t n, const char *const *args);
void tree_open_to_all(void);

#endif
