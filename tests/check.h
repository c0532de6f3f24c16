/* A minimal table-friendly test harness: CHECK() records a failure with its
 * place and goes on; check_done() prints "N passed, N failed" and gives the
 * exit status. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (cond) {                                                           \
			check_passed++;                                               \
		} else {                                                              \
			check_failed++;                                               \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
		}                                                                     \
	} while (0)

#define CHECK_CONTAINS(haystack, needle, ...) \
	CHECK(strstr((haystack), (needle)) != NULL, "'%s' not in '%s'", (needle), (haystack))

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
