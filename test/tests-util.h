/*
 * tests-util.h: helpers the test programs share.
 */
#ifndef YESPOWER_TESTS_UTIL_H
#define YESPOWER_TESTS_UTIL_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "yespower.h"

/* Is h all 0xff bytes, the library's output on any error? */
static inline int all_ff(const yespower_binary_t *h)
{
	size_t i;

	for (i = 0; i < sizeof(h->uc); i++)
		if (h->uc[i] != 0xff)
			return 0;
	return 1;
}

/*
 * `--impl NAME`: force the implementation NAME (as yespower_set_impl()
 * takes it).  0 if done; otherwise the exit status the test programs
 * share: 77 (the make rules' "skipped", said by the status alone) if this
 * CPU cannot run it, 2 for any other refusal, which is reported.
 */
static inline int force_impl(const char *prog, const char *name)
{
	if (!yespower_set_impl(name))
		return 0;
	if (errno == ENOTSUP)
		return 77;
	fprintf(stderr, "%s: implementation %s: %s\n", prog, name,
	    strerror(errno));
	return 2;
}

/*
 * The process's size in bytes from /proc/self/statm (Linux): field 0 is
 * the virtual size, 1 the resident size.  -1 if it cannot be read.
 */
static inline long long statm_bytes(int field)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	long long pages[2] = { -1, -1 };

	if (fp) {
		if (fscanf(fp, "%lld %lld", &pages[0], &pages[1]) != 2)
			pages[0] = pages[1] = -1;
		fclose(fp);
	}
	if (pages[field] < 0)
		return -1;
	return pages[field] * (long long)sysconf(_SC_PAGESIZE);
}

#endif /* !YESPOWER_TESTS_UTIL_H */
