/*
 * ucr_kernel.c - Linux's uncore driver inside `uncore run`.  The kernel
 * (kernel/uck.h) boots on the machine the server owns: its hardware is a
 * backend over the model and the machine tables, so what the driver reads
 * and writes is what the program's own MSR and PCI accesses would reach,
 * and its clock is the machine's CLOCK_MONOTONIC.  Its PMUs' attribute
 * files are written into the tree as sysfs has them; the program's
 * perf_event_open descriptors are handles of its perf core; the program's
 * threads are its tasks, switched in and out as the server sees them run
 * (docs/linux-driver.md, "Tasks").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ucb.h"
#include "ucp_machine.h"
#include "ucr_kernel.h"

#ifdef UCR_HAVE_KERNEL
#include "uck.h"

#define MAXOWN 4096
#define MAXTASK 4096

#define MAXSPAN 4096
#define MAXHIST 256
#define MAXCTL 4096

/* A register as the driver's accesses name it */
struct where {
	unsigned space, socket;
	uint64_t addr, end;      /* [addr, end): MSR address, or PCI key and bytes */
};

/* What the model counted at each of the driver's reads of a counter
 * register: the totals, the latest MAXHIST; and the events the driver
 * programmed on it: each value with the enable bit (the field of role
 * UCM_R_EN in the control register's layout) that it wrote to the control
 * register, unless the same as the one before, with the counter's total
 * then and at the driver's last read of it before the next (the first
 * MAXCTL): what each event counted can be told apart when the driver
 * moves events among a box's counters */
struct hist {
	size_t reg;              /* ucm_reginfo index */
	int box;
	unsigned ctr;
	struct where at, ctl;    /* ctl.end == 0: no control register of its own */
	uint64_t en;             /* the control register's enable bits */
	uint64_t total[MAXHIST];
	unsigned n;              /* reads so far (the latest MAXHIST kept) */
	struct ucr_kernel_ctl *ctls;
	unsigned nctl, cap, more;
};


struct ucr_kernel {
	struct ucm_model *m;
	struct ucb *b;           /* the machine (machine/ucp_backend.c), spied on by spy */
	struct ucb spy;
	struct hist *hist;       /* one per MSR or PCI counter register */
	size_t nhist;
	/* the model's strict-mode records the kernel made: [from, to) each */
	struct { size_t from, to; } span[MAXSPAN];
	unsigned nspan;
	size_t mark;
	unsigned depth;          /* entries into the kernel under way */
	/* who opened each handle, so that a process's events end with it */
	struct { int handle, pid; } own[MAXOWN];
	unsigned nown;
	/* the threads the kernel knows as tasks, and what it was last told */
	struct task { int pid, tid, connected, running; unsigned cpu; } task[MAXTASK];
	unsigned ntask;
};

/* ---- the driver's reads of counters, for the report ---- */

static struct ucr_kernel *spied(struct ucb *b)
{
	return b->priv;
}

static int at(const struct where *w, unsigned space, unsigned socket, uint64_t addr)
{
	return w->space == space && w->socket == socket && addr >= w->addr && addr < w->end;
}

static void note_read(struct ucr_kernel *k, unsigned space, unsigned socket, uint64_t addr)
{
	for (size_t i = 0; i < k->nhist; i++) {
		struct hist *h = &k->hist[i];
		struct ucm_truth t;

		if (!at(&h->at, space, socket, addr))
			continue;
		if (ucm_truth(k->m, h->box, h->ctr, &t))
			return;
		h->total[h->n++ % MAXHIST] = t.last_read;
		if (h->nctl) {
			h->ctls[h->nctl - 1].read = t.last_read;
			h->ctls[h->nctl - 1].has_read = 1;
		}
		return;
	}
}

/* A write of a whole control register that enables its counter: an event
 * the driver programmed (a write of a part, as PCI's 16-bit ones would be,
 * is not one the driver makes) */
static void note_write(struct ucr_kernel *k, unsigned space, unsigned socket, uint64_t addr, uint64_t v)
{
	for (size_t i = 0; i < k->nhist; i++) {
		struct hist *h = &k->hist[i];
		struct ucm_truth t;

		if (!at(&h->ctl, space, socket, addr) || addr != h->ctl.addr)
			continue;
		if (!(v & h->en) || (h->nctl && h->ctls[h->nctl - 1].value == v))
			return;
		if (h->nctl == h->cap) {
			unsigned cap = h->cap ? h->cap * 2 : 8;
			struct ucr_kernel_ctl *p = cap <= MAXCTL ? realloc(h->ctls, cap * sizeof(*p)) : NULL;

			if (!p) {
				h->more = 1;
				return;
			}
			h->ctls = p;
			h->cap = cap;
		}
		if (ucm_truth(k->m, h->box, h->ctr, &t))
			return;
		h->ctls[h->nctl++] = (struct ucr_kernel_ctl){ v, t.total, 0, 0 };
		return;
	}
}

static int spy_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	struct ucr_kernel *k = spied(b);
	int rc = ucb_msr_read(k->b, cpu, a, v);

	if (!rc)
		note_read(k, UCM_MSR, cpu / ucm_cpus_per_socket(k->m), a);
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(k->b)) : 0;
}

static int spy_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	struct ucr_kernel *k = spied(b);
	int rc = ucb_pci_read(k->b, d, off, w, v);

	for (unsigned s = 0; !rc && s < ucm_nsockets(k->m); s++)
		if (ucm_pci_bus(k->m, s) == d->bus)
			note_read(k, UCM_PCI, s, ucm_pci_key(d->bus, d->dev, d->fn, off));
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(k->b)) : 0;
}

#define PASS(name, args, call)                                                   \
	static int spy_##name args                                               \
	{                                                                        \
		struct ucr_kernel *k = spied(b);                                 \
		int rc = call;                                                   \
		return rc ? ucb_seterr(b, rc, "%s", ucb_error(k->b)) : 0;        \
	}
static int spy_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	struct ucr_kernel *k = spied(b);
	int rc = ucb_msr_write(k->b, cpu, a, v);

	if (!rc)
		note_write(k, UCM_MSR, cpu / ucm_cpus_per_socket(k->m), a, v);
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(k->b)) : 0;
}

static int spy_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	struct ucr_kernel *k = spied(b);
	int rc = ucb_pci_write(k->b, d, off, w, v);

	for (unsigned s = 0; !rc && w == 4 && s < ucm_nsockets(k->m); s++)
		if (ucm_pci_bus(k->m, s) == d->bus)
			note_write(k, UCM_PCI, s, ucm_pci_key(d->bus, d->dev, d->fn, off), v);
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(k->b)) : 0;
}

PASS(mmio_read, (struct ucb *b, uint64_t pa, unsigned w, uint64_t *v), ucb_mmio_read(k->b, pa, w, v))
PASS(mmio_write, (struct ucb *b, uint64_t pa, unsigned w, uint64_t v), ucb_mmio_write(k->b, pa, w, v))
PASS(cpuid, (struct ucb *b, unsigned cpu, uint32_t l, uint32_t sub, uint32_t r[4]), ucb_cpuid(k->b, cpu, l, sub, r))
PASS(socket_cpu, (struct ucb *b, unsigned s, unsigned *cpu), ucb_socket_cpu(k->b, s, cpu))
PASS(now, (struct ucb *b, uint64_t *ns), ucb_now_ns(k->b, ns))
PASS(sleep, (struct ucb *b, uint64_t ns), ucb_sleep_ns(k->b, ns))

static const struct ucb_ops spy_ops = {
	.name = "machine",
	.msr_read = spy_msr_read,
	.msr_write = spy_msr_write,
	.pci_read = spy_pci_read,
	.pci_write = spy_pci_write,
	.mmio_read = spy_mmio_read,
	.mmio_write = spy_mmio_write,
	.cpuid = spy_cpuid,
	.socket_cpu = spy_socket_cpu,
	.now_ns = spy_now,
	.sleep_ns = spy_sleep,
};

static struct where where_of(const struct ucm_reginfo *ri)
{
	return (struct where){ ri->space, ri->socket, ri->addr, ri->addr + (ri->space == UCM_MSR ? 1 : ri->width / 8) };
}

static void hist_free(struct ucr_kernel *k)
{
	for (size_t i = 0; i < k->nhist; i++)
		free(k->hist[i].ctls);
	free(k->hist);
}

/* a history for every MSR and PCI counter register of the model, with
 * where it and its control register are */
static int hist_init(struct ucr_kernel *k)
{
	size_t n = ucm_nregs(k->m);

	k->hist = calloc(n, sizeof(*k->hist));
	if (!k->hist)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		if (ucm_reginfo(k->m, i, &ri) || ri.kind != UCM_K_CTR || ri.space == UCM_MMIO)
			continue;
		for (unsigned b = 0; b < ucm_box_count(k->m); b++) {
			if (ucm_box_def(k->m, (int)b) == ri.box && ucm_box_socket(k->m, (int)b) == ri.socket) {
				k->hist[k->nhist++] = (struct hist){ .reg = i, .box = (int)b, .ctr = ri.idx,
								     .at = where_of(&ri) };
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ci;

		if (ucm_reginfo(k->m, i, &ci) || ci.kind != UCM_K_CTL)
			continue;
		for (size_t h = 0; h < k->nhist; h++) {
			struct ucm_reginfo ri;

			if (ucm_reginfo(k->m, k->hist[h].reg, &ri) || ri.box != ci.box || ri.socket != ci.socket ||
			    ri.idx != ci.idx)
				continue;
			k->hist[h].ctl = where_of(&ci);
			for (unsigned f = 0; ci.layout && f < ci.layout->nfields; f++)
				if (ci.layout->fields[f].role == UCM_R_EN)
					k->hist[h].en |= ((2ull << (ci.layout->fields[f].hi - ci.layout->fields[f].lo)) - 1)
							 << ci.layout->fields[f].lo;
		}
	}
	return 0;
}

size_t ucr_kernel_reads(const struct ucr_kernel *k, size_t reg, uint64_t *out, size_t max)
{
	for (size_t i = 0; k && i < k->nhist; i++) {
		const struct hist *h = &k->hist[i];
		size_t n = h->n < MAXHIST ? h->n : MAXHIST, first = h->n > MAXHIST ? h->n % MAXHIST : 0;

		if (h->reg != reg)
			continue;
		/* the ring in order, from its oldest kept entry */
		for (size_t r = 0; r < n && r < max; r++)
			out[r] = h->total[(first + r) % MAXHIST];
		return n < max ? n : max;
	}
	return 0;
}

/* Around each entry into the kernel: the strict-mode records made meanwhile
 * are the kernel's (the server runs one thing at a time). */
static void enter(struct ucr_kernel *k)
{
	/* nested (a task made while a perf request is served): the outer
	 * entry's mark holds */
	if (!k->depth++)
		k->mark = ucm_strict_count(k->m);
}

static void leave(struct ucr_kernel *k)
{
	size_t n = ucm_strict_count(k->m);

	if (--k->depth || n == k->mark)
		return;
	if (k->nspan && k->span[k->nspan - 1].to == k->mark)
		k->span[k->nspan - 1].to = n;
	else if (k->nspan < MAXSPAN)
		k->span[k->nspan].from = k->mark, k->span[k->nspan++].to = n;
}

size_t ucr_kernel_controls(const struct ucr_kernel *k, size_t reg, struct ucr_kernel_ctl *out, size_t max,
			   int *more)
{
	*more = 0;
	for (size_t i = 0; k && i < k->nhist; i++) {
		const struct hist *h = &k->hist[i];
		size_t c;

		if (h->reg != reg)
			continue;
		for (c = 0; c < h->nctl && c < max; c++)
			out[c] = h->ctls[c];
		*more = h->more || c < h->nctl;
		return c;
	}
	return 0;
}

int ucr_kernel_made(const struct ucr_kernel *k, size_t i)
{
	for (unsigned s = 0; k && s < k->nspan; s++)
		if (i >= k->span[s].from && i < k->span[s].to)
			return 1;
	return 0;
}

/* ---- sysfs ---- */

struct sysw {
	char dir[4096];
	int rc;
};

static int put_attr(void *ctx, const char *path, const char *content)
{
	struct sysw *w = ctx;
	char p[4096 + 256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", w->dir, path);
	if (strchr(path, '/')) {
		char d[sizeof(p)];

		snprintf(d, sizeof(d), "%s", p);
		*strrchr(d, '/') = 0;
		if (mkdir(d, 0755) && errno != EEXIST)
			return w->rc = -errno;
	}
	if (!(f = fopen(p, "w")))
		return w->rc = -errno;
	fputs(content, f);
	if (fclose(f))
		return w->rc = -EIO;
	return 0;
}

/* Each PMU's directory is /sys/devices/<pmu>/, linked from
 * /sys/bus/event_source/devices/<pmu> as sysfs links it (libpfm4 looks
 * for the first, perf for the second); the library is told to redirect
 * the first (ROOT/.redirect, which the tree began). */
static int write_sysfs(const char *root, char *err, size_t n)
{
	const char *parts[] = { "sys", "sys/devices", "sys/bus", "sys/bus/event_source",
				"sys/bus/event_source/devices" };
	char d[4096], link[4096 + 64], to[256];
	FILE *redir;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(d, sizeof(d), "%s/%s", root, parts[i]);
		if (mkdir(d, 0755) && errno != EEXIST) {
			snprintf(err, n, "%s: %s", d, strerror(errno));
			return -errno;
		}
	}
	snprintf(d, sizeof(d), "%s/.redirect", root);
	if (!(redir = fopen(d, "a"))) {
		snprintf(err, n, "%s: %s", d, strerror(errno));
		return -errno;
	}
	for (unsigned i = 0; i < uck_npmus(); i++) {
		struct sysw w = { .rc = 0 };

		snprintf(w.dir, sizeof(w.dir), "%s/sys/devices/%s", root, uck_pmu_name(i));
		snprintf(link, sizeof(link), "%s/sys/bus/event_source/devices/%s", root, uck_pmu_name(i));
		snprintf(to, sizeof(to), "../../../devices/%s", uck_pmu_name(i));
		if ((mkdir(w.dir, 0755) && errno != EEXIST) || uck_pmu_attrs(i, put_attr, &w) || w.rc ||
		    symlink(to, link)) {
			snprintf(err, n, "%s: %s", w.dir, strerror(w.rc ? -w.rc : errno));
			fclose(redir);
			return w.rc ? w.rc : -EIO;
		}
		fprintf(redir, "/sys/devices/%s\n", uck_pmu_name(i));
	}
	if (fclose(redir)) {
		snprintf(err, n, "%s: %s", d, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* The kernel the machine runs is the one its driver was taken from: uname
 * (the library serves uname() from these files), /proc/version and
 * /proc/sys/kernel say its release, not the host's (docs/tools.md).  The
 * version string has no build date: the machine's kernel was not built at
 * a time of its own. */
static int write_uname(const char *root, char *err, size_t n)
{
	static const char *const dirs[] = { "proc", "proc/sys", "proc/sys/kernel" };
	const char *ver = "#1 SMP PREEMPT_DYNAMIC";
	char text[4][256], d[4096 + 64];
	const char *const files[] = { "proc/version", "proc/sys/kernel/ostype", "proc/sys/kernel/osrelease",
				      "proc/sys/kernel/version" };
	struct sysw w = { .rc = 0 };
	FILE *redir;

	snprintf(text[0], sizeof(text[0]), "Linux version %s (uncore@run) (Linux's uncore driver on the model) %s\n",
		 uck_release(), ver);
	snprintf(text[1], sizeof(text[1]), "Linux\n");
	snprintf(text[2], sizeof(text[2]), "%s\n", uck_release());
	snprintf(text[3], sizeof(text[3]), "%s\n", ver);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(d, sizeof(d), "%s/%s", root, dirs[i]);
		if (mkdir(d, 0755) && errno != EEXIST) {
			snprintf(err, n, "%s: %s", d, strerror(errno));
			return -errno;
		}
	}
	snprintf(w.dir, sizeof(w.dir), "%s", root);
	for (size_t i = 0; i < 4; i++)
		if (put_attr(&w, files[i], text[i])) {
			snprintf(err, n, "%s/%s: %s", root, files[i], strerror(-w.rc));
			return w.rc;
		}
	snprintf(d, sizeof(d), "%s/.redirect", root);
	if (!(redir = fopen(d, "a"))) {
		snprintf(err, n, "%s: %s", d, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < 4; i++)
		fprintf(redir, "/%s\n", files[i]);
	if (fclose(redir)) {
		snprintf(err, n, "%s: %s", d, strerror(errno));
		return -EIO;
	}
	return 0;
}

int ucr_kernel_start(struct ucm_model *m, struct ucp_machine *mc, uint64_t mono_base_ns, const char *root,
		     struct ucr_kernel **out, char *err, size_t n)
{
	struct ucr_kernel *k;
	struct uck_host h = { 0 };
	int rc;

	*out = NULL;
	if (!(k = calloc(1, sizeof(*k))))
		return -ENOMEM;
	k->m = m;
	if ((rc = ucp_backend_create(m, mc, mono_base_ns, &k->b))) {
		free(k);
		return rc;
	}
	k->spy.ops = &spy_ops;
	k->spy.priv = k;
	if ((rc = hist_init(k))) {
		ucb_destroy(k->b);
		free(k);
		return rc;
	}
	h.b = &k->spy;
	h.ncpu = ucp_ncpu(mc);
	h.nsockets = ucm_nsockets(m);
	/* The kernel boots before the program runs: its enumeration of PCI
	 * (a vendor ID read of every function of every bus, 65,536 reads) is
	 * over before the machine's clock starts for the program */
	if ((rc = write_uname(root, err, n))) {
		ucb_destroy(k->b);
		hist_free(k);
		free(k);
		return rc;
	}
	ucp_backend_booting(k->b, 1);
	enter(k);
	rc = uck_boot(&h, err, n);
	leave(k);
	ucp_backend_booting(k->b, 0);
	if (rc) {
		ucb_destroy(k->b);
		hist_free(k);
		free(k);
		/* -ENODEV: no uncore this driver knows: the machine has no uncore PMUs */
		if (rc == -ENODEV)
			err[0] = 0;
		return rc == -ENODEV ? 0 : rc;
	}
	if ((rc = write_sysfs(root, err, n))) {
		ucr_kernel_stop(k);
		return rc;
	}
	*out = k;
	return 0;
}

void ucr_kernel_stop(struct ucr_kernel *k)
{
	if (!k)
		return;
	uck_shutdown();
	ucb_destroy(k->b);
	hist_free(k);
	free(k);
}

uint64_t ucr_kernel_next_ps(const struct ucr_kernel *k)
{
	uint64_t t = k ? uck_next_timer_ns() : UINT64_MAX;

	return t == UINT64_MAX ? t : ucp_backend_ps(k->b, t);
}

void ucr_kernel_tick(struct ucr_kernel *k)
{
	if (k && ucr_kernel_next_ps(k) <= ucm_now_ps(k->m)) {
		enter(k);
		uck_run_timers();
		leave(k);
	}
}

static void own(struct ucr_kernel *k, int handle, int pid)
{
	if (k->nown < MAXOWN)
		k->own[k->nown++].handle = handle, k->own[k->nown - 1].pid = pid;
}

static void disown(struct ucr_kernel *k, int handle)
{
	for (unsigned i = 0; i < k->nown; i++)
		if (k->own[i].handle == handle)
			k->own[i--] = k->own[--k->nown];
}

static void task_exit(struct ucr_kernel *k, unsigned i);

void ucr_kernel_process_gone(struct ucr_kernel *k, int pid)
{
	if (!k)
		return;
	for (unsigned i = 0; i < k->ntask; i++)
		if (k->task[i].pid == pid)
			task_exit(k, i--);
	enter(k);
	for (unsigned i = 0; i < k->nown; i++) {
		if (k->own[i].pid != pid)
			continue;
		uck_event_close(k->own[i].handle);
		k->own[i--] = k->own[--k->nown];
	}
	leave(k);
}

/* ---- tasks: the threads of the run, as the kernel schedules them ---- */

/* /proc/<pid>/<what>'s line "key:\t<n>", -1 if none */
static int status_field(int pid, const char *key)
{
	char p[64], line[256];
	size_t kl = strlen(key);
	int v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/status", pid);
	if (!(f = fopen(p, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = atoi(line + kl + 1);
			break;
		}
	fclose(f);
	return v;
}

/* Whether thread tid of process pid has ended: gone, or a zombie. */
static int thread_gone(int pid, int tid)
{
	char p[80], buf[256], *r;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/task/%d/stat", pid, tid);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	r = strrchr(buf, ')');
	return !r || r[1] != ' ' || r[2] == 'Z' || r[2] == 'X';
}

static struct task *task_of(struct ucr_kernel *k, int tid)
{
	for (unsigned i = 0; i < k->ntask; i++)
		if (k->task[i].tid == tid)
			return &k->task[i];
	return NULL;
}

/* Around a task's change: the kernel's context switch takes no machine
 * time (ucp_backend_switching), and what it programs is the kernel's. */
static void sw_begin(struct ucr_kernel *k)
{
	enter(k);
	ucp_backend_switching(k->b, 1);
}

static void sw_end(struct ucr_kernel *k)
{
	ucp_backend_switching(k->b, 0);
	leave(k);
}

static struct task *task_add(struct ucr_kernel *k, int pid, int tid, int parent)
{
	struct task *t;

	if (k->ntask == MAXTASK)
		return NULL;
	/* a thread comes from the thread that created it, a process from the
	 * thread that forked it; else a thread from its process's main thread,
	 * a process from its parent process */
	if (parent <= 0 || !task_of(k, parent))
		parent = tid != pid && task_of(k, pid) ? pid : status_field(pid, "PPid");
	if (parent > 0 && !task_of(k, parent))
		parent = 0;
	sw_begin(k);
	uck_task_new(tid, pid, parent);
	sw_end(k);
	t = &k->task[k->ntask++];
	*t = (struct task){ pid, tid, 0, 0, 0 };
	return t;
}

void ucr_kernel_task_seen(struct ucr_kernel *k, int pid, int tid, int parent)
{
	if (k && tid > 0 && !task_of(k, tid))
		task_add(k, pid, tid, parent);
}

void ucr_kernel_task_state(struct ucr_kernel *k, int pid, int tid, int connected, int running, unsigned cpu)
{
	struct task *t;

	if (!k || !(t = task_of(k, tid)) || t->pid != pid)
		return;
	t->connected = connected;
	if (running == t->running && (!running || cpu == t->cpu))
		return;
	sw_begin(k);
	if (running)
		uck_task_run(tid, (int)cpu);
	else
		uck_task_stop(tid, connected); /* not connected: exec or exit, no switch */
	sw_end(k);
	t->running = running;
	t->cpu = cpu;
}

void ucr_kernel_task_exec(struct ucr_kernel *k, int tid)
{
	if (!k || !task_of(k, tid))
		return;
	sw_begin(k);
	uck_task_exec(tid);
	sw_end(k);
}

static void task_exit(struct ucr_kernel *k, unsigned i)
{
	sw_begin(k);
	uck_task_exit(k->task[i].tid);
	sw_end(k);
	k->task[i] = k->task[--k->ntask];
}

void ucr_kernel_reap(struct ucr_kernel *k)
{
	for (unsigned i = 0; k && i < k->ntask; i++)
		if (!k->task[i].connected && thread_gone(k->task[i].pid, k->task[i].tid))
			task_exit(k, i--);
}

/* A pid given to perf_event_open that no thread of the run has named yet
 * (a child that has not spoken to the server): a task if it descends from
 * one of the run's. */
static void adopt(struct ucr_kernel *k, int pid)
{
	int tgid = status_field(pid, "Tgid"), a = pid;

	if (tgid <= 0 || thread_gone(tgid, pid))
		return;
	for (int depth = 0; depth < 64 && a > 1; depth++) {
		a = status_field(a, "PPid");
		if (a > 0 && task_of(k, a)) {
			task_add(k, tgid, pid, 0);
			return;
		}
	}
}

static void serve_op(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		     struct ucr_rsp_data *rsp, size_t *rlen);

void ucr_kernel_serve(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		      struct ucr_rsp_data *rsp, size_t *rlen)
{
	struct ucr_rsp *r = &rsp->h;

	*rlen = sizeof(*r);
	if (!k) {
		/* a kernel without uncore PMUs: no PMU of any type */
		r->rc = q->op == UCR_PERF_OPEN ? -ENOENT : -EBADF;
		return;
	}
	ucr_kernel_tick(k);
	/* the tasks that ended have given their counts to their parents'
	 * events before anyone reads them */
	ucr_kernel_reap(k);
	enter(k);
	serve_op(k, q, data, n, rsp, rlen);
	leave(k);
}

static void serve_op(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		     struct ucr_rsp_data *rsp, size_t *rlen)
{
	struct ucr_rsp *r = &rsp->h;
	long got;
	int rc, pid;

	switch (q->op) {
	case UCR_PERF_OPEN: {
		struct perf_event_attr a;
		uint32_t size;

		memset(&a, 0, sizeof(a));
		if (n < sizeof(uint32_t) * 2) {
			r->rc = -EFAULT;
			return;
		}
		memcpy(&size, (const uint8_t *)data + 4, sizeof(size));
		/* perf_copy_attr: 0 means the first ABI's size; longer than
		 * this kernel's is fine only with zeros past it */
		if (!size)
			size = PERF_ATTR_SIZE_VER0;
		if (size < PERF_ATTR_SIZE_VER0 || size > n) {
			r->rc = size > UCR_PERF_ATTR_MAX ? -E2BIG : -EINVAL;
			r->v[1] = sizeof(a);
			return;
		}
		for (size_t i = sizeof(a); i < size; i++) {
			if (((const uint8_t *)data)[i]) {
				r->rc = -E2BIG;
				r->v[1] = sizeof(a);
				return;
			}
		}
		memcpy(&a, data, size < sizeof(a) ? size : sizeof(a));
		a.size = size < sizeof(a) ? size : (uint32_t)sizeof(a);
		/* pid 0: the calling thread; another: a thread of the run */
		pid = (int)(int32_t)(uint32_t)q->a;
		if (pid == 0)
			pid = q->tid;
		else if (pid > 0 && !task_of(k, pid))
			adopt(k, pid);
		rc = uck_event_open(&a, pid, (int)(int32_t)(uint32_t)(q->a >> 32), (int)(int64_t)q->b,
				    (unsigned long)q->c);
		if (rc < 0) {
			r->rc = rc;
			return;
		}
		own(k, rc, q->pid);
		r->v[0] = (uint64_t)rc;
		return;
	}
	case UCR_PERF_READ:
		got = uck_event_read((int)q->a, rsp->data, q->b < sizeof(rsp->data) ? q->b : sizeof(rsp->data));
		if (got < 0) {
			r->rc = (int)got;
			return;
		}
		r->v[0] = (uint64_t)got;
		*rlen = sizeof(*r) + (size_t)got;
		return;
	case UCR_PERF_IOCTL:
		r->rc = uck_event_ioctl((int)q->a, (unsigned long)q->b, (unsigned long)q->c, &r->v[0]);
		return;
	case UCR_PERF_CLOSE:
		r->rc = uck_event_close((int)q->a);
		if (!r->rc)
			disown(k, (int)q->a);
		return;
	default:
		r->rc = -ENOSYS;
	}
}

const char *ucr_kernel_log(const struct ucr_kernel *k)
{
	return k ? uck_log() : "";
}

unsigned ucr_kernel_warnings(const struct ucr_kernel *k)
{
	return k ? uck_warnings() + uck_msr_faults() : 0;
}

#else /* built without Linux's driver (no linux-source): no uncore PMUs */

int ucr_kernel_start(struct ucm_model *m, struct ucp_machine *mc, uint64_t mono_base_ns, const char *root,
		     struct ucr_kernel **out, char *err, size_t n)
{
	(void)m, (void)mc, (void)mono_base_ns, (void)root, (void)err, (void)n;
	*out = NULL;
	return 0;
}

void ucr_kernel_stop(struct ucr_kernel *k)
{
	(void)k;
}

uint64_t ucr_kernel_next_ps(const struct ucr_kernel *k)
{
	(void)k;
	return UINT64_MAX;
}

void ucr_kernel_tick(struct ucr_kernel *k)
{
	(void)k;
}

void ucr_kernel_serve(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		      struct ucr_rsp_data *rsp, size_t *rlen)
{
	(void)k, (void)data, (void)n;
	rsp->h.rc = q->op == UCR_PERF_OPEN ? -ENOENT : -EBADF;
	*rlen = sizeof(rsp->h);
}

void ucr_kernel_process_gone(struct ucr_kernel *k, int pid)
{
	(void)k, (void)pid;
}

void ucr_kernel_task_seen(struct ucr_kernel *k, int pid, int tid, int parent)
{
	(void)k, (void)pid, (void)tid, (void)parent;
}

void ucr_kernel_task_state(struct ucr_kernel *k, int pid, int tid, int connected, int running, unsigned cpu)
{
	(void)k, (void)pid, (void)tid, (void)connected, (void)running, (void)cpu;
}

void ucr_kernel_task_exec(struct ucr_kernel *k, int tid)
{
	(void)k, (void)tid;
}

void ucr_kernel_reap(struct ucr_kernel *k)
{
	(void)k;
}

int ucr_kernel_made(const struct ucr_kernel *k, size_t i)
{
	(void)k, (void)i;
	return 0;
}

size_t ucr_kernel_reads(const struct ucr_kernel *k, size_t reg, uint64_t *out, size_t max)
{
	(void)k, (void)reg, (void)out, (void)max;
	return 0;
}

size_t ucr_kernel_controls(const struct ucr_kernel *k, size_t reg, struct ucr_kernel_ctl *out, size_t max,
			   int *more)
{
	(void)k, (void)reg, (void)out, (void)max;
	*more = 0;
	return 0;
}

const char *ucr_kernel_log(const struct ucr_kernel *k)
{
	(void)k;
	return "";
}

unsigned ucr_kernel_warnings(const struct ucr_kernel *k)
{
	(void)k;
	return 0;
}
#endif
