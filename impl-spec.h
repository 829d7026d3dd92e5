/*
 * impl-spec.h: implementation specs, the strings YESPOWER_IMPL,
 * yespower_set_impl(), POW_HASH_IMPL and pow_hash_set_impl() take: items
 * separated by commas, each "KIND=NAME" for one of two kinds (yespower's
 * core and sha256; the hashing API's sha256 and keccak), NAME "auto" for
 * the automatic choice.  A grammar may also take a bare "NAME" for its
 * first kind and "NAME0+NAME1" for both at once.  Internal to the
 * library.
 */
#ifndef IMPL_SPEC_H
#define IMPL_SPEC_H

#include <stddef.h>

#define IMPL_SPEC_AUTO ((size_t)-1)

/*
 * A dispatcher's grammar.  find(ctx, kind, name, n, &index): the index of
 * the n-character name among the kind's implementations, 0; or EINVAL (no
 * such name in this build) or ENOTSUP (this CPU cannot run it).
 */
typedef struct {
	const char *kind[2];		/* "core", "sha256" ... */
	int bare;			/* "NAME" is kind[0]'s */
	int plus;			/* "NAME0+NAME1" */
	int empty_ok;			/* "" means auto for both */
	int (*find)(const void *ctx, int kind, const char *name, size_t n,
	    size_t *index);
	const void *ctx;
} impl_spec_grammar;

/*
 * impl_spec_parse(g, spec, choice, bad, badlen): spec into choice[0] and
 * choice[1] (each IMPL_SPEC_AUTO or an index), AUTO to begin with.  0, or
 * an errno value: EINVAL for a malformed item, an unknown name, a kind
 * named twice or an empty item; ENOTSUP as find says.  With bad == NULL,
 * stop at the first bad item; otherwise skip bad items (their kind stays
 * AUTO) and return the first error, with that item copied to bad
 * (badlen bytes).  Reentrant.
 */
int impl_spec_parse(const impl_spec_grammar *g, const char *spec,
    size_t choice[2], char *bad, size_t badlen);

#endif /* !IMPL_SPEC_H */
