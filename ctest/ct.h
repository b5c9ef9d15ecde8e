/*
 * ct.h - the project's small C test harness.
 *
 * A test file defines tests with CT_TEST(name) { ... } and ends with
 * CT_MAIN().  The binary runs one test named on its command line (CTest
 * registers every CT_TEST of a file as its own test, see ctest/CMakeLists.txt)
 * or, with no argument, all of them.  A failed check prints file:line and
 * the values, marks the test failed and continues with the next check, so
 * one run shows every broken expectation.
 */
#ifndef CT_H
#define CT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct ct_test {
	const char *name;
	void (*fn)(void);
	struct ct_test *next;
};

extern struct ct_test *ct_tests;
extern int ct_failed;

void ct_register(struct ct_test *t);
void ct_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ct_main(int argc, char **argv);

#define CT_TEST(name_)                                                        \
	static void ct_fn_##name_(void);                                      \
	static struct ct_test ct_t_##name_ = { #name_, ct_fn_##name_, NULL }; \
	__attribute__((constructor)) static void ct_reg_##name_(void)         \
	{                                                                     \
		ct_register(&ct_t_##name_);                                   \
	}                                                                     \
	static void ct_fn_##name_(void)

#define CT_MAIN()                                                             \
	int main(int argc, char **argv)                                       \
	{                                                                     \
		return ct_main(argc, argv);                                   \
	}

#define CT_CHECK(cond)                                                        \
	do {                                                                  \
		if (!(cond))                                                  \
			ct_fail(__FILE__, __LINE__, "check failed: %s", #cond); \
	} while (0)

#define CT_EQ(a, b)                                                           \
	do {                                                                  \
		uint64_t ct_a_ = (uint64_t)(a), ct_b_ = (uint64_t)(b);        \
		if (ct_a_ != ct_b_)                                           \
			ct_fail(__FILE__, __LINE__,                           \
				"%s == %s: 0x%" PRIx64 " (%" PRIu64 ") != 0x%" PRIx64 " (%" PRIu64 ")", \
				#a, #b, ct_a_, ct_a_, ct_b_, ct_b_);          \
	} while (0)

#define CT_STREQ(a, b)                                                        \
	do {                                                                  \
		const char *ct_a_ = (a), *ct_b_ = (b);                        \
		if (!ct_a_ || !ct_b_ || strcmp(ct_a_, ct_b_))                 \
			ct_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				#a, #b, ct_a_ ? ct_a_ : "(null)",             \
				ct_b_ ? ct_b_ : "(null)");                    \
	} while (0)

/* Substring check, for error messages. */
#define CT_CONTAINS(hay, needle)                                              \
	do {                                                                  \
		const char *ct_h_ = (hay), *ct_n_ = (needle);                 \
		if (!ct_h_ || !strstr(ct_h_, ct_n_))                          \
			ct_fail(__FILE__, __LINE__, "%s contains \"%s\": \"%s\"", \
				#hay, ct_n_, ct_h_ ? ct_h_ : "(null)");       \
	} while (0)

/* Stop the current test when a precondition fails. */
#define CT_REQUIRE(cond)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			ct_fail(__FILE__, __LINE__, "required: %s", #cond);   \
			return;                                               \
		}                                                             \
	} while (0)

#endif
