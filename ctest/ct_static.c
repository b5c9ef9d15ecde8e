/*
 * ct_static.c - a statically linked program (tools.run_static_helper):
 * what `uncore run` must name when the program or a helper it starts is
 * one, since the machine's library cannot reach it.  Prints how many cpus
 * it sees.
 */
#include <stdio.h>
#include <sys/sysinfo.h>

int main(void)
{
	printf("static program: %d cpus\n", get_nprocs());
	return 0;
}
