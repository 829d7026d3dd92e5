/*
 * insecure_memzero.h: wipe memory that held secrets.
 */
#ifndef YESPOWER_INSECURE_MEMZERO_H
#define YESPOWER_INSECURE_MEMZERO_H

#include <stddef.h>

#define insecure_memzero yespower_insecure_memzero

/*
 * insecure_memzero(buf, len):
 * Set len bytes at buf to zero in a way the compiler may not optimize away
 * as a dead store.  "Insecure" because copies of the data may survive in
 * registers, on the stack of other functions or in swap: this lowers the
 * exposure of secrets, it does not guarantee their erasure.
 *
 * Thread-safe.
 */
void insecure_memzero(void *buf, size_t len);

#endif /* !YESPOWER_INSECURE_MEMZERO_H */
