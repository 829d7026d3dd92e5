/*
 * report.h: the one way the C test programs count and report: check()
 * counts a check and prints a failure as it happens, skip() counts one
 * that could not run here and keeps its reason, and summary() prints the
 * closing line every suite ends with,
 *
 *     NAME: N passed, N failed[, N skipped (why)]
 *
 * and returns the exit status.  NAME is the program's file name without
 * ".c" (tests-fork, tests-rx-vm); a program defines TEST_NAME to it
 * before including this file.  The counters are static: a program is one
 * suite.  Functions are static inline so that a program need not use
 * them all.  Not thread-safe: count from one thread (or under a lock).
 */
#ifndef TEST_REPORT_H
#define TEST_REPORT_H

#include <stdio.h>
#include <string.h>

#ifndef TEST_NAME
#error "define TEST_NAME (the program's file name) before including report.h"
#endif

static int passed, failed, skipped;
static char skip_why[512];

/* Count a check; a failure is printed as it happens.  Returns ok. */
static inline int check(const char *what, int ok)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAILED: %s\n", what);
	}
	return ok;
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
	printf(TEST_NAME ": %d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d skipped (%s)", skipped, skip_why);
	printf("\n");
	fflush(stdout);
	return failed ? 1 : 0;
}

#endif /* !TEST_REPORT_H */
