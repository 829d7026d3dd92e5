/*
 * reciprocal.h: IMUL_RCP's multiplier, shared by the SuperscalarHash
 * generator and the VM's decoder (specification 5.2.6 and 6.3.1).
 * Internal.
 */
#ifndef RX_RECIPROCAL_H
#define RX_RECIPROCAL_H

#include <stdint.h>

/*
 * rx_reciprocal(divisor):
 * IMUL_RCP's multiplier: floor(2^x / divisor) for the largest x that keeps
 * it below 2^64.  divisor must not be 0 or a power of 2 (the generator
 * never makes such a divisor; the VM treats them as a no-op before asking).
 */
uint64_t rx_reciprocal(uint32_t divisor);

/*
 * rx_ss_is_zero_or_power_of_2(x): whether IMUL_RCP with imm32 x is a no-op.
 */
static inline int rx_ss_is_zero_or_power_of_2(uint32_t x)
{
	return (x & (x - 1)) == 0;
}

#endif /* !RX_RECIPROCAL_H */
