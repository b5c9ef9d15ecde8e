/*
 * ucr_sampler.c - uncore-sampler: the smallest monitoring tool, for the
 * benchmark (uncore-run-bench): every second for N seconds it sleeps, then
 * reads the TSC through /dev/cpu/0/msr and prints how much time passed, as
 * any sampling daemon would.  It knows nothing of the simulator.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	int fd = open("/dev/cpu/0/msr", O_RDONLY);
	uint64_t tsc0 = 0, tsc;
	struct timespec t0, t;

	if (fd < 0 || n <= 0 || pread(fd, &tsc0, 8, 0x10) != 8) {
		perror("uncore-sampler: /dev/cpu/0/msr");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 1; i <= n; i++) {
		sleep(1);
		if (pread(fd, &tsc, 8, 0x10) != 8) {
			perror("uncore-sampler: rdmsr 0x10");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		printf("%d %.6f s %llu TSC ticks\n", i,
		       (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9,
		       (unsigned long long)(tsc - tsc0));
	}
	close(fd);
	return 0;
}
