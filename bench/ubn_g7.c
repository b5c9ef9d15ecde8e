/*
 * ubn_g7.c - G7, Linux's own uncore driver on the model (kernel/, issue 30):
 * for each platform, the kernel's start-up (CPU identification, PCI
 * enumeration, the driver's module init, every cpu brought online: CPU
 * time and the model's register accesses), and the cost of a perf read of
 * an event on a box of each kind the part has (MSR, PCI, MMIO), through the
 * perf core, the driver and the model.  One kernel a process: each
 * platform is measured in a child of its own.  `perf stat -a -I 1000`
 * under `uncore run` is uncore-run-bench's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ubn.h"
#include "ucb.h"
#include "uck.h"

/* a PMU of the part and the config of an event on it, by access kind */
static const struct {
	const char *plat, *kind, *pmu;
	uint64_t config;
} reads[] = {
	{ "skl", "MSR", "uncore_cbox_0", 0x8f34 },
	{ "skl", "MMIO", "uncore_imc", 0x01 },
	{ "snbep", "MSR", "uncore_cbox_0", 0x0000 },
	{ "snbep", "PCI", "uncore_imc_0", 0x0304 },
	{ "ivt", "MSR", "uncore_cbox_0", 0x0000 },
	{ "ivt", "PCI", "uncore_imc_0", 0x0304 },
};

static void one(const char *plat)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct ucb *b = NULL;
	struct uck_host h = { 0 };
	char err[256];
	double t0, boot;
	int n = ubn_quick ? 2000 : 200000;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	if (ucm_create(&cfg, &m) || ucb_sim_create(m, &b))
		ubn_die(plat, "cannot create the model");
	h.b = b;
	h.nsockets = ucm_nsockets(m);
	h.ncpu = h.nsockets * ucm_cpus_per_socket(m);
	t0 = ubn_now();
	if (uck_boot(&h, err, sizeof(err)))
		ubn_die(plat, err);
	boot = ubn_now() - t0;
	printf("%-6s start-up %10.3f ms CPU, %u PMUs, %8.3f ms of machine time\n", plat, boot * 1e3,
	       uck_npmus(), (double)ucm_now_ps(m) / 1e9);
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		struct perf_event_attr a = { 0 };
		uint64_t v[3];
		int id, p;

		if (strcmp(reads[i].plat, plat))
			continue;
		if ((p = uck_pmu_find(reads[i].pmu)) < 0)
			ubn_die(reads[i].pmu, "no such PMU");
		a.size = sizeof(a);
		a.type = (uint32_t)uck_pmu_type((unsigned)p);
		a.config = reads[i].config;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		if ((id = uck_event_open(&a, -1, 0, -1, 0)) < 0)
			ubn_die(reads[i].pmu, strerror(-id));
		t0 = ubn_now();
		for (int k = 0; k < n; k++)
			if (uck_event_read(id, v, sizeof(v)) != 24)
				ubn_die(reads[i].pmu, "a read failed");
		printf("%-6s read     %10.1f ns CPU a read of %s (%s box), %d reads\n", plat,
		       (ubn_now() - t0) * 1e9 / n, reads[i].pmu, reads[i].kind, n);
		uck_event_close(id);
	}
	uck_shutdown();
	ucb_destroy(b);
	ucm_destroy(m);
}

void ubn_g7(void)
{
	static const char *const plats[] = { "skl", "snbep", "ivt" };

	printf("# G7: Linux's uncore driver (kernel/): start-up, and a perf read through the perf core,\n"
	       "# the driver and the model (CPU time)\n");
	fflush(stdout);
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		pid_t pid;
		int st;

		if (ubn_only_plat && strcmp(ubn_only_plat, plats[i]))
			continue;
		pid = fork();
		if (pid < 0)
			ubn_die("G7", strerror(errno));
		if (!pid) {
			one(plats[i]);
			fflush(stdout);
			_exit(0);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			ubn_die("G7", plats[i]);
	}
}
