/*
 * tools/util.h: what the tool, the benchmark and the test programs share:
 * hex, targets and nBits, the parameters as users type them, the preset
 * listing and the personalization as people read it.  Not part of the
 * library: linked into the programs only.
 *
 * Functions that can fail return 0, or -1 with a one-line description of
 * the problem in msg (msgsize bytes, never NULL), for the caller to prefix
 * with what it was parsing.
 */
#ifndef POW_TOOLS_UTIL_H
#define POW_TOOLS_UTIL_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "yespower.h"

/* A hexadecimal digit's value (either case), or -1. */
int util_hex_digit(int c);

/*
 * util_hex_decode(s, len, out, msg, msgsize): decode the len hex digits
 * at s into out (room for len / 2 bytes).  Fails on a non-hex character
 * (naming it and its position) or an odd count.
 */
int util_hex_decode(const char *s, size_t len, uint8_t *out, char *msg,
    size_t msgsize);

/*
 * util_hex_decode_alloc(s, outlen, msg, msgsize): the bytes of the whole
 * string s, in a new buffer (free() it; never NULL on success, even for
 * ""), with their count in *outlen; NULL on failure (out of memory
 * included, with msg saying so).
 */
uint8_t *util_hex_decode_alloc(const char *s, size_t *outlen, char *msg,
    size_t msgsize);

/* util_hex_encode(dst, src, n): 2n lowercase digits and a NUL into dst. */
void util_hex_encode(char *dst, const uint8_t *src, size_t n);

/* util_hex_print(f, src, n): the same, written to f. */
void util_hex_print(FILE *f, const uint8_t *src, size_t n);

/*
 * util_parse_target(s, target, msg, msgsize): a big-endian hex number of
 * 1 to 64 digits, as targets are written, into target[] as a
 * little-endian 256-bit number (the hash's own order).
 */
int util_parse_target(const char *s, uint8_t target[32], char *msg,
    size_t msgsize);

/*
 * util_bits_to_target(bits, target, msg, msgsize): the compact nBits
 * encoding as chains decode it: a 3-byte mantissa times
 * 256^(exponent - 3).  Negative, zero and overflowing targets are refused,
 * as chains refuse them.
 */
int util_bits_to_target(uint32_t bits, uint8_t target[32], char *msg,
    size_t msgsize);

/* util_meets_target(hash, target): hash <= target, both little-endian. */
int util_meets_target(const uint8_t hash[32], const uint8_t target[32]);

/*
 * The parameters as users type them: util_parse_version accepts 5 or 0.5
 * and 10 or 1.0; util_parse_N a power of 2 from 1024 to 524288;
 * util_parse_r 8 to 32; each a whole decimal number, nothing around it.
 */
int util_parse_version(const char *s, yespower_version_t *v, char *msg,
    size_t msgsize);
int util_parse_N(const char *s, uint32_t *N, char *msg, size_t msgsize);
int util_parse_r(const char *s, uint32_t *r, char *msg, size_t msgsize);

/*
 * util_parse_ulong(s, min, max, out): a whole decimal number (digits only:
 * no sign, space or base prefix) in [min, max]; 0 or -1.
 */
int util_parse_ulong(const char *s, unsigned long min, unsigned long max,
    unsigned long *out);

/*
 * util_print_pers(f, p, len): a personalization for people: in double
 * quotes, printable ASCII as itself, other bytes (and " and \) as \xNN;
 * "(none)" for NULL.
 */
void util_print_pers(FILE *f, const uint8_t *p, size_t len);

/*
 * util_list_presets(f): every preset of the library, one per line under a
 * heading: name, version, N, r, hash, personalization, the coins.
 */
void util_list_presets(FILE *f);

/*
 * util_bad_option(opts, arg, optopt, msg, msgsize): what is wrong with the
 * option arg (argv[optind - 1]) that getopt_long (opterr 0) returned '?'
 * for, optopt as it left it: an unknown option, an abbreviation of more
 * than one long option (naming them), or a value given to an option that
 * takes none.
 */
void util_bad_option(const struct option *opts, const char *arg, int optopt,
    char *msg, size_t msgsize);

#endif /* !POW_TOOLS_UTIL_H */
