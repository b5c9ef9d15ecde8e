/*
 * ct_static.c - a statically linked helper (run_robust_test.py,
 * never_reaches): no dynamic loader, so no preload library reaches it, and
 * `uncore run` must say so rather than run it on the host.
 */
#include <stdio.h>

int main(void)
{
	printf("ct_static ran\n");
	return 0;
}
