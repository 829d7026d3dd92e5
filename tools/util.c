/*
 * tools/util.c: the helpers of tools/util.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/util.h"

int util_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Describe the bad character s[i] in msg. */
static void bad_character(const char *s, size_t i, char *msg, size_t msgsize)
{
	unsigned char c = (unsigned char)s[i];

	if (c > ' ' && c < 127)
		snprintf(msg, msgsize, "invalid hex character '%c' at "
		    "position %zu", c, i + 1);
	else
		snprintf(msg, msgsize, "invalid hex character 0x%02x at "
		    "position %zu", c, i + 1);
}

int util_hex_decode(const char *s, size_t len, uint8_t *out, char *msg,
    size_t msgsize)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (util_hex_digit((unsigned char)s[i]) < 0) {
			bad_character(s, i, msg, msgsize);
			return -1;
		}
	if (len % 2) {
		snprintf(msg, msgsize, "odd number of hex digits (%zu)", len);
		return -1;
	}
	for (i = 0; i < len / 2; i++)
		out[i] = (uint8_t)(util_hex_digit((unsigned char)s[2 * i]) << 4 |
		    util_hex_digit((unsigned char)s[2 * i + 1]));
	return 0;
}

uint8_t *util_hex_decode_alloc(const char *s, size_t *outlen, char *msg,
    size_t msgsize)
{
	size_t len = strlen(s);
	uint8_t *out = malloc(len / 2 + 1);

	if (!out) {
		snprintf(msg, msgsize, "out of memory");
		return NULL;
	}
	if (util_hex_decode(s, len, out, msg, msgsize)) {
		free(out);
		return NULL;
	}
	*outlen = len / 2;
	return out;
}

void util_hex_encode(char *dst, const uint8_t *src, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = digits[src[i] >> 4];
		dst[2 * i + 1] = digits[src[i] & 15];
	}
	dst[2 * n] = '\0';
}

void util_hex_print(FILE *f, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", src[i]);
}

int util_parse_target(const char *s, uint8_t target[32], char *msg,
    size_t msgsize)
{
	size_t len = strlen(s), i;

	if (len == 0 || len > 64) {
		snprintf(msg, msgsize, "give 1 to 64 hex digits");
		return -1;
	}
	for (i = 0; i < len; i++)
		if (util_hex_digit((unsigned char)s[i]) < 0) {
			bad_character(s, i, msg, msgsize);
			return -1;
		}
	memset(target, 0, 32);
	for (i = 0; i < len; i++) {
		/* Digit i from the right is nibble i of the number. */
		size_t nib = len - 1 - i;
		int v = util_hex_digit((unsigned char)s[i]);

		target[nib / 2] |= (uint8_t)(nib % 2 ? v << 4 : v);
	}
	return 0;
}

int util_bits_to_target(uint32_t bits, uint8_t target[32], char *msg,
    size_t msgsize)
{
	int exponent = (int)(bits >> 24), i, nonzero = 0;
	uint32_t mantissa = bits & 0x00ffffff;

	if (mantissa & 0x00800000) {
		snprintf(msg, msgsize, "negative target (bit 0x00800000 is "
		    "set)");
		return -1;
	}
	memset(target, 0, 32);
	for (i = 0; i < 3; i++) {
		int pos = exponent - 3 + i;
		uint8_t byte = (uint8_t)(mantissa >> (8 * i));

		if (pos >= 32 && byte) {
			snprintf(msg, msgsize, "target overflows 256 bits");
			return -1;
		}
		if (pos >= 0 && pos < 32) {
			target[pos] = byte;
			nonzero |= byte;
		}
	}
	if (!nonzero) {
		snprintf(msg, msgsize, "the target is zero");
		return -1;
	}
	return 0;
}

int util_meets_target(const uint8_t hash[32], const uint8_t target[32])
{
	int i;

	for (i = 31; i >= 0; i--)
		if (hash[i] != target[i])
			return hash[i] < target[i];
	return 1;
}

int util_parse_ulong(const char *s, unsigned long min, unsigned long max,
    unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

int util_parse_version(const char *s, yespower_version_t *v, char *msg,
    size_t msgsize)
{
	if (!strcmp(s, "5") || !strcmp(s, "0.5")) {
		*v = YESPOWER_0_5;
		return 0;
	}
	if (!strcmp(s, "10") || !strcmp(s, "1.0")) {
		*v = YESPOWER_1_0;
		return 0;
	}
	snprintf(msg, msgsize, "the version must be 5 (0.5) or 10 (1.0)");
	return -1;
}

int util_parse_N(const char *s, uint32_t *N, char *msg, size_t msgsize)
{
	unsigned long v;

	if (util_parse_ulong(s, 1024, 524288, &v) || (v & (v - 1))) {
		snprintf(msg, msgsize, "N must be a power of 2 from 1024 to "
		    "524288");
		return -1;
	}
	*N = (uint32_t)v;
	return 0;
}

int util_parse_r(const char *s, uint32_t *r, char *msg, size_t msgsize)
{
	unsigned long v;

	if (util_parse_ulong(s, 8, 32, &v)) {
		snprintf(msg, msgsize, "r must be from 8 to 32");
		return -1;
	}
	*r = (uint32_t)v;
	return 0;
}

void util_print_pers(FILE *f, const uint8_t *p, size_t len)
{
	size_t i;

	if (!p) {
		fputs("(none)", f);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (p[i] >= ' ' && p[i] < 127 && p[i] != '"' && p[i] != '\\')
			fputc(p[i], f);
		else
			fprintf(f, "\\x%02x", p[i]);
	}
	fputc('"', f);
}

void util_list_presets(FILE *f)
{
	const yespower_preset_t *p;
	size_t i;

	fprintf(f, "%-14s %-4s %6s %2s %-7s %s -- %s\n", "name", "ver", "N",
	    "r", "hash", "personalization", "used by");
	for (i = 0; (p = yespower_preset_at(i)) != NULL; i++) {
		fprintf(f, "%-14s %-4s %6lu %2lu %-7s ", p->name,
		    p->params.version == YESPOWER_0_5 ? "0.5" : "1.0",
		    (unsigned long)p->params.N, (unsigned long)p->params.r,
		    p->hash == YESPOWER_HASH_BLAKE2B ? "blake2b" : "sha256");
		if (p->pers_is_input)
			fputs("(the input)", f);
		else
			util_print_pers(f, p->params.pers, p->params.perslen);
		fprintf(f, " -- %s\n", p->coins);
	}
}
