/*
 * ct.c - runner of the test harness: registration, failure reports, main.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "ct.h"

struct ct_test *ct_tests;
int ct_failed;
static const char *ct_current;

void ct_register(struct ct_test *t)
{
	struct ct_test **p = &ct_tests;

	/* keep definition order: constructors run in order on gcc and clang */
	while (*p)
		p = &(*p)->next;
	*p = t;
}

void ct_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: [%s] ", file, line, ct_current ? ct_current : "?");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ct_failed++;
}

static int run(struct ct_test *t)
{
	int before = ct_failed;

	ct_current = t->name;
	t->fn();
	printf("%s %s\n", ct_failed == before ? "PASS" : "FAIL", t->name);
	return ct_failed == before;
}

int ct_main(int argc, char **argv)
{
	int ran = 0, bad = 0;

	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (struct ct_test *t = ct_tests; t; t = t->next)
			printf("%s\n", t->name);
		return 0;
	}
	for (struct ct_test *t = ct_tests; t; t = t->next) {
		int want = argc < 2;

		for (int i = 1; i < argc; i++)
			want |= strcmp(argv[i], t->name) == 0;
		if (!want)
			continue;
		ran++;
		bad += !run(t);
	}
	if (!ran) {
		fprintf(stderr, "no test matched\n");
		return 2;
	}
	printf("%d passed, %d failed\n", ran - bad, bad);
	return bad ? 1 : 0;
}
