#include <stdint.h>

#include "insecure_memzero.h"

/*
 * The stores go through a volatile pointer so that they count as observable
 * behaviour and survive dead-store elimination, even when buf is about to be
 * freed or go out of scope.
 */
void insecure_memzero(void *buf, size_t len)
{
	volatile uint8_t *p = (volatile uint8_t *)buf;

	while (len--)
		*p++ = 0;
}
