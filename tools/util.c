/*
 * tools/util.c: the generic helpers of tools/util.h (hex, targets, numbers,
 * options); tools/util-yespower.c has those that know yespower.
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
	size_t len = strlen(s), i, skip = 0;
	int nonzero = 0;

	if (len == 0) {
		snprintf(msg, msgsize, "give 1 to 64 hex digits");
		return -1;
	}
	for (i = 0; i < len; i++)
		if (util_hex_digit((unsigned char)s[i]) < 0) {
			bad_character(s, i, msg, msgsize);
			return -1;
		}
	/* Leading zeros do not count towards the 64 digits. */
	while (skip + 1 < len && s[skip] == '0')
		skip++;
	s += skip;
	len -= skip;
	if (len > 64) {
		snprintf(msg, msgsize, "the target does not fit 256 bits");
		return -1;
	}
	memset(target, 0, 32);
	for (i = 0; i < len; i++) {
		/* Digit i from the right is nibble i of the number. */
		size_t nib = len - 1 - i;
		int v = util_hex_digit((unsigned char)s[i]);

		target[nib / 2] |= (uint8_t)(nib % 2 ? v << 4 : v);
		nonzero |= v;
	}
	/* The same rule as for --bits: no hash meets a zero target. */
	if (!nonzero) {
		snprintf(msg, msgsize, "the target is zero");
		return -1;
	}
	return 0;
}

/*
 * As Bitcoin's arith_uint256::SetCompact reads it: the low 23 bits are
 * the mantissa, shifted right by 8 * (3 - size) when size < 3 (dropping
 * bytes), left by 8 * (size - 3) otherwise; bit 23 is a sign, which only
 * counts when the mantissa left is not zero (0x00800000 is zero, not
 * negative); a mantissa shifted past 256 bits overflows.
 */
int util_bits_to_target(uint32_t bits, uint8_t target[32], char *msg,
    size_t msgsize)
{
	int size = (int)(bits >> 24), i;
	uint32_t word = bits & 0x007fffff;

	if (size <= 3)
		word >>= 8 * (3 - size);
	if (word && (bits & 0x00800000)) {
		snprintf(msg, msgsize, "negative target (bit 0x00800000 is "
		    "set)");
		return -1;
	}
	if (word && (size > 34 || (word > 0xff && size > 33) ||
	    (word > 0xffff && size > 32))) {
		snprintf(msg, msgsize, "target overflows 256 bits");
		return -1;
	}
	if (!word) {
		snprintf(msg, msgsize, "the target is zero");
		return -1;
	}
	memset(target, 0, 32);
	for (i = 0; i < 3; i++) {
		int pos = (size > 3 ? size - 3 : 0) + i;

		if (pos < 32)
			target[pos] = (uint8_t)(word >> (8 * i));
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

void util_bad_option(const struct option *opts, const char *arg, int optopt,
    char *msg, size_t msgsize)
{
	const char *name = arg + 2, *eq;
	size_t len, i, n = 0, used;

	/*
	 * A byte that is no printable character (getopt's optopt, a plain
	 * char, may be negative) comes from a group of short options, and
	 * getopt moves optind past a group only at its end: arg may then be
	 * the argument before.  Name the byte instead.
	 */
	if (optopt != 0 && optopt < 256 && !(optopt > ' ' && optopt < 127)) {
		snprintf(msg, msgsize, "unknown option byte 0x%02x",
		    (unsigned)optopt & 0xff);
		return;
	}
	if (arg[0] != '-' || arg[1] != '-') {
		if (optopt > ' ' && optopt < 127)
			snprintf(msg, msgsize, "unknown option '-%c'", optopt);
		else
			snprintf(msg, msgsize, "unknown option '%s'", arg);
		return;
	}
	eq = strchr(name, '=');
	len = eq ? (size_t)(eq - name) : strlen(name);
	for (i = 0; opts[i].name; i++)
		if (!strncmp(opts[i].name, name, len)) {
			if (strlen(opts[i].name) == len) {
				n = 1;	/* exact: then it is the one */
				break;
			}
			n++;
		}
	if (n == 1 && eq) {
		snprintf(msg, msgsize, "option '%s' takes no value", arg);
		return;
	}
	if (n <= 1) {
		snprintf(msg, msgsize, "unknown option '%s'", arg);
		return;
	}
	used = (size_t)snprintf(msg, msgsize, "ambiguous option '%.*s' (",
	    (int)(len + 2), arg);
	for (i = 0; opts[i].name && used < msgsize; i++)
		if (!strncmp(opts[i].name, name, len))
			used += (size_t)snprintf(msg + used, msgsize - used,
			    "%s--%s", msg[used - 1] == '(' ? "" : ", ",
			    opts[i].name);
	if (used < msgsize)
		snprintf(msg + used, msgsize - used, ")");
}
