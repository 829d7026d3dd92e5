/*
 * rx-tests.h: what the RandomX test programs share: counting checks and
 * skips, the summary line, aligned allocation that cannot fail, and hex
 * fields of the vector files.  Each program defines RX_TEST_NAME (its
 * name, as the summary line starts) before including it.  The functions
 * are static inline so that a program need not use them all.
 */
#ifndef RX_TESTS_H
#define RX_TESTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/util.h"

static int passed, failed, skipped;
static char skip_why[512];

/* Count a check; a failure is printed as it happens. */
static inline void check(const char *what, int ok)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAILED: %s\n", what);
	}
}

/* Count a skip, and keep its reason (once) for the summary. */
static inline void skip(const char *what)
{
	skipped++;
	printf("skipped: %s\n", what);
	if (!strstr(skip_why, what) && strlen(skip_why) + strlen(what) + 3 <
	    sizeof(skip_why)) {
		if (skip_why[0])
			strcat(skip_why, "; ");
		strcat(skip_why, what);
	}
}

/* "NAME: N passed, N failed[, N skipped (why)]"; the exit status. */
static inline int summary(void)
{
	printf(RX_TEST_NAME ": %d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d skipped (%s)", skipped, skip_why);
	printf("\n");
	return failed ? 1 : 0;
}

/* n bytes (at least 1), 64-byte aligned, or exit. */
static inline void *xalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 1)) {
		fprintf(stderr, RX_TEST_NAME ": out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/* A hex field ("-" is empty) into out (max bytes): its length, or -1. */
static inline long from_hex(const char *hex, uint8_t *out, size_t max)
{
	size_t n = strcmp(hex, "-") ? strlen(hex) : 0;
	char msg[96];

	if (n / 2 > max || util_hex_decode(hex, n, out, msg, sizeof(msg)))
		return -1;
	return (long)(n / 2);
}

#endif /* !RX_TESTS_H */
