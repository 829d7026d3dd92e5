/*
 * tests-util.h: helpers the test programs share.
 */
#ifndef YESPOWER_TESTS_UTIL_H
#define YESPOWER_TESTS_UTIL_H

#include <stddef.h>

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

#endif /* !YESPOWER_TESTS_UTIL_H */
