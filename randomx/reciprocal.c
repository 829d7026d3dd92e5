/*
 * reciprocal.c: IMUL_RCP's multiplier (see reciprocal.h).
 */
#include "randomx/reciprocal.h"

uint64_t rx_reciprocal(uint32_t divisor)
{
	/*
	 * With b the bit length of divisor (not a power of 2), the answer is
	 * floor(2^(63 + b) / divisor), which lies in (2^63, 2^64).  Divide
	 * 2^63 first, then bring the remainder's b more bits in; r << b
	 * cannot overflow as r < divisor < 2^32.
	 */
	const uint64_t p63 = UINT64_C(1) << 63;
	uint64_t q = p63 / divisor, r = p63 % divisor;
	unsigned b = 0;
	uint32_t d;

	for (d = divisor; d; d >>= 1)
		b++;
	return (q << b) + ((r << b) / divisor);
}
