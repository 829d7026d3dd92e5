/*
 * tools/util-yespower.c: the helpers of tools/util.h that know yespower:
 * its parameters as users type them, the personalization and the presets
 * as people read them.
 */
#include <string.h>

#include "tools/util.h"

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
