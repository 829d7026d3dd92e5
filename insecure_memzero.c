#include <string.h>

#include "insecure_memzero.h"

/*
 * memset called through a volatile function pointer: the compiler can
 * neither see which function it calls nor drop the call as a dead store,
 * even when buf is about to be freed or go out of scope.  (A byte-by-byte
 * loop through a volatile pointer would do too, but costs as much as a
 * SHA-256 compression on a 100-byte context.)
 */
static void *(*const volatile memset_volatile)(void *, int, size_t) = memset;

void insecure_memzero(void *buf, size_t len)
{
	memset_volatile(buf, 0, len);
}
