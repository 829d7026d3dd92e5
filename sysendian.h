/*
 * sysendian.h: explicit little- and big-endian loads and stores.
 *
 * yespower is defined on byte strings, and its internal words are
 * little-endian (SHA-256 words are big-endian).  Going through these helpers
 * instead of casting pointers keeps the code correct on big-endian hosts and
 * on unaligned buffers; compilers turn them into single loads and stores
 * (plus a byte swap where needed).
 */
#ifndef YESPOWER_SYSENDIAN_H
#define YESPOWER_SYSENDIAN_H

#include <stdint.h>

/* BSD's <sys/endian.h> has functions of these names; keep ours apart. */
#define be32dec yespower_be32dec
#define be32enc yespower_be32enc
#define be64enc yespower_be64enc
#define le32dec yespower_le32dec
#define le32enc yespower_le32enc
#define le64dec yespower_le64dec
#define le64enc yespower_le64enc

static inline uint32_t be32dec(const void *pp)
{
	const uint8_t *p = (const uint8_t *)pp;

	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void be32enc(void *pp, uint32_t x)
{
	uint8_t *p = (uint8_t *)pp;

	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

static inline void be64enc(void *pp, uint64_t x)
{
	uint8_t *p = (uint8_t *)pp;

	be32enc(p, (uint32_t)(x >> 32));
	be32enc(p + 4, (uint32_t)x);
}

static inline uint32_t le32dec(const void *pp)
{
	const uint8_t *p = (const uint8_t *)pp;

	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	    ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void le32enc(void *pp, uint32_t x)
{
	uint8_t *p = (uint8_t *)pp;

	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
}

static inline uint64_t le64dec(const void *pp)
{
	const uint8_t *p = (const uint8_t *)pp;

	return (uint64_t)le32dec(p) | ((uint64_t)le32dec(p + 4) << 32);
}

static inline void le64enc(void *pp, uint64_t x)
{
	uint8_t *p = (uint8_t *)pp;

	le32enc(p, (uint32_t)x);
	le32enc(p + 4, (uint32_t)(x >> 32));
}

#endif /* !YESPOWER_SYSENDIAN_H */
