/*
 * tests-chains.c: real block headers from real chains
 * (test/vectors/chains.txt).
 *
 * Each line gives a coin's parameters, an 80-byte header as serialized on
 * the wire, and the PoW hash the chain (or a third-party test suite)
 * published, or "?" where none was, and the header's nBits.  We check the
 * hash where one was published and, always, that the hash meets the
 * header's own target: a header that made it into a chain must.
 *
 * Usage: tests-chains [FILE]   (default test/vectors/chains.txt)
 * Prints one line per header and a summary; exits 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yespower.h"
#include "tools/util.h"

#define TEST_NAME "tests-chains"
#include "test/report.h"

/* Decode a whole hex field into out (max bytes); 0 or -1. */
static int hex_field(const char *hex, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(hex);
	char msg[96];

	if (n / 2 > max || util_hex_decode(hex, n, out, msg, sizeof(msg)))
		return -1;
	*len = n / 2;
	return 0;
}

/* The library's preset of this name has these parameters and gives this
 * hash. */
static int preset_agrees(const char *name, const yespower_params_t *p,
    int pers_is_input, int b2b, const uint8_t *src, size_t srclen,
    const yespower_binary_t *h)
{
	const yespower_preset_t *pr = yespower_preset_find(name);
	yespower_binary_t ph;

	if (!pr || pr->params.version != p->version || pr->params.N != p->N ||
	    pr->params.r != p->r || pr->pers_is_input != pers_is_input ||
	    pr->hash != (b2b ? YESPOWER_HASH_BLAKE2B : YESPOWER_HASH_SHA256)) {
		printf("%s: preset parameters differ from the chain's\n", name);
		return 0;
	}
	if (!pers_is_input && (pr->params.perslen != p->perslen ||
	    (p->perslen && memcmp(pr->params.pers, p->pers, p->perslen)) ||
	    !pr->params.pers != !p->pers)) {
		printf("%s: preset personalization differs\n", name);
		return 0;
	}
	if (yespower_preset_hash(pr, src, srclen, &ph) ||
	    memcmp(&ph, h, sizeof(ph))) {
		printf("%s: preset hash differs\n", name);
		return 0;
	}
	return 1;
}

static int check_line(char *line, unsigned lineno)
{
	char *f[16];
	int n = 0, i;
	char *tok = strtok(line, " \t\r\n");
	uint8_t header[256], pers[256], expect[32], target[32];
	char msg[96];
	size_t hlen, plen = 0, elen;
	yespower_params_t p;
	yespower_binary_t h;
	int b2b, rc, ok;
	unsigned long bits;

	while (tok && n < 16) {
		f[n++] = tok;
		tok = strtok(NULL, " \t\r\n");
	}
	/* PRESET name version N r pers HEADER hex EXPECT hex TARGET_BITS hex */
	if (n < 13 || strcmp(f[0], "PRESET") || strcmp(f[6], "HEADER") ||
	    strcmp(f[8], "EXPECT") || strcmp(f[10], "TARGET_BITS") ||
	    hex_field(f[7], header, sizeof(header), &hlen)) {
		printf("line %u: not understood\n", lineno);
		return 0;
	}

	b2b = !strcmp(f[2], "1.0b2b");
	p.version = (!strcmp(f[2], "0.5")) ? YESPOWER_0_5 : YESPOWER_1_0;
	p.N = (uint32_t)strtoul(f[3], NULL, 10);
	p.r = (uint32_t)strtoul(f[4], NULL, 10);
	if (!strcmp(f[5], "-")) {
		p.pers = NULL;
		p.perslen = 0;
	} else if (!strcmp(f[5], "INPUT")) {
		p.pers = header;
		p.perslen = hlen;
	} else if (!hex_field(f[5], pers, sizeof(pers), &plen)) {
		p.pers = pers;
		p.perslen = plen;
	} else {
		printf("line %u: bad personalization\n", lineno);
		return 0;
	}

	rc = b2b ? yespower_b2b_tls(header, hlen, &p, &h) :
	    yespower_tls(header, hlen, &p, &h);
	bits = strtoul(f[11], NULL, 16);
	ok = (rc == 0) && preset_agrees(f[1], &p, !strcmp(f[5], "INPUT"), b2b,
	    header, hlen, &h);

	printf("line %u: %s %s", lineno, f[1], strcmp(f[9], "?") ? "hash" :
	    "target");
	if (ok && strcmp(f[9], "?")) {
		ok = !hex_field(f[9], expect, sizeof(expect), &elen) &&
		    elen == 32 && !memcmp(expect, h.uc, 32);
		printf(ok ? " matches" : " MISMATCH");
	}
	if (ok) {
		ok = !util_bits_to_target((uint32_t)bits, target, msg,
		    sizeof(msg)) && util_meets_target(h.uc, target);
		printf(ok ? ", meets %s" : ", FAILS target %s", f[11]);
	}
	printf(" (");
	for (i = 31; i >= 26; i--)
		printf("%02x", h.uc[i]);
	printf("...): %s\n", ok ? "ok" : "FAILED");
	return ok ? 1 : -1;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "test/vectors/chains.txt";
	FILE *fp = fopen(path, "r");
	static char line[4096];
	char what[300];
	unsigned lineno = 0;

	if (!fp) {
		perror(path);
		return 1;
	}
	while (fgets(line, sizeof(line), fp)) {
		int rc;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		rc = check_line(line, lineno);
		snprintf(what, sizeof(what), "%s line %u", path, lineno);
		check(what, rc > 0);
	}
	fclose(fp);
	if (!passed)
		check("at least one header in the file", 0);
	return summary();
}
