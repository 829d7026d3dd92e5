/*
 * impl-spec.c: the parser of implementation specs (impl-spec.h), shared by
 * yespower's dispatcher and the hashing API's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "impl-spec.h"

/* The n characters at s are exactly name. */
static int name_is(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(s, name, n);
}

/* A name of a kind, "auto" included. */
static int find_name(const impl_spec_grammar *g, int kind, const char *s,
    size_t n, size_t *index)
{
	if (name_is(s, n, "auto")) {
		*index = IMPL_SPEC_AUTO;
		return 0;
	}
	return g->find(g->ctx, kind, s, n, index);
}

/* One item, n characters at s, into choice[]; seen[] the kinds named. */
static int parse_item(const impl_spec_grammar *g, const char *s, size_t n,
    size_t choice[2], int seen[2])
{
	const char *plus = g->plus ? memchr(s, '+', n) : NULL;
	int kind, err;

	if (plus) {
		size_t m = (size_t)(plus - s);

		if (seen[0] || seen[1])
			return EINVAL;
		seen[0] = seen[1] = 1;
		err = find_name(g, 0, s, m, &choice[0]);
		return err ? err : find_name(g, 1, plus + 1, n - m - 1,
		    &choice[1]);
	}
	for (kind = 0; kind < 2; kind++) {
		size_t k = strlen(g->kind[kind]);

		if (n > k + 1 && !memcmp(s, g->kind[kind], k) && s[k] == '=') {
			s += k + 1;
			n -= k + 1;
			break;
		}
	}
	if (kind == 2) {
		if (!g->bare)
			return EINVAL;
		kind = 0;
	}
	if (seen[kind])
		return EINVAL;
	seen[kind] = 1;
	return find_name(g, kind, s, n, &choice[kind]);
}

int impl_spec_parse(const impl_spec_grammar *g, const char *spec,
    size_t choice[2], char *bad, size_t badlen)
{
	int seen[2] = { 0, 0 }, first = 0;

	choice[0] = choice[1] = IMPL_SPEC_AUTO;
	if (!*spec && g->empty_ok)
		return 0;
	for (;;) {
		size_t n = strcspn(spec, ","), saved[2];
		int err;

		saved[0] = choice[0];
		saved[1] = choice[1];
		err = n ? parse_item(g, spec, n, choice, seen) : EINVAL;
		if (err) {
			if (!bad)
				return err;
			choice[0] = saved[0];
			choice[1] = saved[1];
			if (!first) {
				first = err;
				snprintf(bad, badlen, "%.*s", (int)n, spec);
			}
		}
		if (!spec[n])
			return first;
		spec += n + 1;
	}
}
