/*
 * rx-tests.h: what the RandomX test programs share: the reporter of every
 * C test program (test/report.h: check(), skip(), summary()), aligned
 * allocation that cannot fail, and hex fields of the vector files.  Each
 * program defines RX_TEST_NAME (its file name, as the summary line starts)
 * before including it.  The functions are static inline so that a program
 * need not use them all.
 */
#ifndef RX_TESTS_H
#define RX_TESTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/util.h"

#define TEST_NAME RX_TEST_NAME
#include "../report.h"

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
