/*
 * tests-isa.c: a few known answers through the shared library, with the
 * implementation it chose (or was told to use), quickly enough to run
 * under an emulator.  Used by tests-isa.sh (make check-isa).
 *
 * Usage: tests-isa [--impl SPEC] [--expect NAME] [--api] [--canary KIND]
 *        tests-isa --list
 *   --list         print yespower_impl_at()'s names, one per line, and exit
 *   --impl SPEC    yespower_set_impl(SPEC) first; exit status 77 if this
 *                  CPU cannot run it
 *   --expect NAME  fail unless yespower_impl_name() is NAME
 *   --api          also check yespower_set_impl()'s syntax and errors
 *   --canary KIND  execute one avx, avx512 or sha instruction and exit 0
 *                  (x86-64 only): under qemu64 this must die (SIGILL),
 *                  which shows that the emulator would catch the library
 *                  doing it
 *
 * Prints "implementation NAME", then one line per failed check, then
 * "tests-isa: N passed, N failed" (exit 1 if any failed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yespower.h"

#define TEST_NAME "tests-isa"
#include "test/report.h"


static int hex_is(const yespower_binary_t *h, const char *hex)
{
	char buf[2 * sizeof(h->uc) + 1];
	size_t i;

	for (i = 0; i < sizeof(h->uc); i++)
		sprintf(&buf[2 * i], "%02x", h->uc[i]);
	return !strcmp(buf, hex);
}

/*
 * The original's known answers (the first lines of TESTS-OK) on its
 * 80-byte input i * 3: both versions, with and without a
 * personalization, r = 8 and 32: SHA-256, PBKDF2 and HMAC in the front
 * and back ends, both Salsa20 variants and both S-box sizes in the core.
 */
static const struct {
	yespower_version_t version;
	uint32_t N, r;
	const char *pers;	/* "=src": the input itself */
	const char *hash;
} kats[] = {
	{ YESPOWER_0_5, 2048, 8, "Client Key",
	    "a59fec4c4fdda16e3b1405adda66d525b68e7cadfcfe6ac066c7ad118cd80590" },
	{ YESPOWER_0_5, 2048, 8, "=src",
	    "5ea2b2956a9eace30a3237ff1d441edee1dc25aab8f0ea15c12165f83a7bc265" },
	{ YESPOWER_1_0, 2048, 8, NULL,
	    "69e0e895b3df7aeeb837d71fe199e9d34f7ec46ecbca7a2c4308e51857ae9b46" },
	{ YESPOWER_1_0, 1024, 32, "personality test",
	    "1f0269acf565c49adc0ef9b8f26ab3808cdc38394a254fddeedcc3aacff6ad9d" },
};

static void known_answers(void)
{
	uint8_t src[3][80];
	const uint8_t *srcs[3] = { src[0], src[1], src[2] };
	size_t lens[3] = { 80, 80, 80 }, i, k;
	yespower_binary_t dst, one[3], batch[3];

	for (i = 0; i < 80; i++) {
		src[0][i] = (uint8_t)(i * 3);
		src[1][i] = (uint8_t)(i * 5 + 1);
		src[2][i] = (uint8_t)(i * 7 + 2);
	}
	for (i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		yespower_params_t p = { kats[i].version, kats[i].N, kats[i].r,
		    NULL, 0 };
		char what[80];

		if (kats[i].pers && !strcmp(kats[i].pers, "=src")) {
			p.pers = src[0];
			p.perslen = 80;
		} else if (kats[i].pers) {
			p.pers = (const uint8_t *)kats[i].pers;
			p.perslen = strlen(kats[i].pers);
		}
		snprintf(what, sizeof(what), "yespower(%u, %u, %u, %s)",
		    (unsigned)p.version, (unsigned)p.N, (unsigned)p.r,
		    kats[i].pers ? kats[i].pers : "NULL");
		check(what, yespower_tls(src[0], 80, &p, &dst) == 0 &&
		    hex_is(&dst, kats[i].hash));
	}

	/* Three hashes interleaved: the first is a known answer, the other
	 * two must match the same inputs hashed one at a time. */
	{
		yespower_params_t p = { YESPOWER_1_0, 2048, 8, NULL, 0 };
		int ok = yespower_batch_tls(srcs, lens, 3, &p, batch) == 0 &&
		    hex_is(&batch[0], kats[2].hash);

		for (k = 1; k < 3; k++)
			ok &= yespower_tls(src[k], 80, &p, &one[k]) == 0 &&
			    !memcmp(&one[k], &batch[k], sizeof(one[k]));
		check("yespower_batch_tls(3 inputs, 10, 2048, 8)", ok);
	}
}

/* set_impl(spec) must give the name core+sha. */
static void expect_name(const char *spec, const char *core, const char *sha)
{
	char want[64], msg[160];

	snprintf(want, sizeof(want), "%s+%s", core, sha);
	snprintf(msg, sizeof(msg), "set_impl(\"%s\") gives %s", spec, want);
	check(msg, yespower_set_impl(spec) == 0 &&
	    !strcmp(yespower_impl_name(), want));
}

/* yespower_set_impl(): what it refuses, that a refusal changes nothing,
 * and what a spec means. */
static void api_checks(void)
{
	static const char *const invalid[] = {
		"", ",", "nonsense", "sse2,avx", "sha256=", "sha256=nope",
		"core=", "core=shani", "shani", "sse2+", "+shani", "sse2,",
		"sha256=portable,sha256=portable", "portable+portable,sse2",
		"portable+nope", "SSE2", "sha256=portable+portable",
	};
	char before[64], best[64], msg[96], *plus;
	const char *name, *last = NULL;
	size_t i, portable_core = 0, n;

	snprintf(before, sizeof(before), "%s", yespower_impl_name());
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		errno = 0;
		snprintf(msg, sizeof(msg), "set_impl(\"%s\") gives EINVAL",
		    invalid[i]);
		check(msg, yespower_set_impl(invalid[i]) == -1 &&
		    errno == EINVAL);
	}
	check("refusals change nothing", !strcmp(before, yespower_impl_name()));
	/* Every listed name is taken, or refused as not for this CPU. */
	for (n = 0; (name = yespower_impl_at(n)); n++) {
		errno = 0;
		if (!strcmp(name, "portable"))
			portable_core = n + 1;
		last = name;
		if (yespower_set_impl(name) == 0)
			continue;
		snprintf(msg, sizeof(msg), "set_impl(\"%s\") refused with "
		    "ENOTSUP", name);
		check(msg, errno == ENOTSUP);
	}
	check("impl_at: the cores end with portable, the SHA-256 ones follow",
	    portable_core > 0 && yespower_impl_at(portable_core) &&
	    !strncmp(yespower_impl_at(portable_core), "sha256=", 7));
	check("impl_at: sha256=portable is last",
	    last && !strcmp(last, "sha256=portable"));
	check("set_impl(an unlisted SHA-256 name) gives EINVAL",
	    yespower_set_impl("sha256=nonsense") == -1 && errno == EINVAL);
	check("set_impl(impl_name())", yespower_set_impl(before) == 0 &&
	    !strcmp(before, yespower_impl_name()));

	/* A part not named is chosen automatically. */
	check("set_impl(NULL)", yespower_set_impl(NULL) == 0);
	snprintf(best, sizeof(best), "%s", yespower_impl_name());
	plus = strchr(best, '+');
	check("the name is CORE+SHA256", plus != NULL);
	if (!plus)
		return;
	*plus = '\0';
	expect_name("auto", best, plus + 1);
	expect_name("auto,sha256=auto", best, plus + 1);
	expect_name("sha256=portable", best, "portable");
	expect_name("portable", "portable", plus + 1);
	expect_name("core=portable,sha256=portable", "portable", "portable");
	expect_name("sha256=portable,core=auto", best, "portable");
	check("back to the first choice", yespower_set_impl(before) == 0);
}

#if defined(__x86_64__)
static void canary(const char *kind)
{
	if (!strcmp(kind, "avx"))
		__asm__ __volatile__("vpxor %%xmm1, %%xmm1, %%xmm1" ::: "xmm1");
	else if (!strcmp(kind, "avx512"))
		__asm__ __volatile__("vpxord %%zmm1, %%zmm1, %%zmm1" :::
		    "xmm1");
	else if (!strcmp(kind, "sha"))
		__asm__ __volatile__("sha256msg1 %%xmm1, %%xmm2" :::
		    "xmm1", "xmm2");
}
#else
static void canary(const char *kind)
{
	(void)kind;
}
#endif

int main(int argc, char **argv)
{
	const char *impl = NULL, *expect = NULL;
	int i, api = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--impl") && i + 1 < argc) {
			impl = argv[++i];
		} else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
			expect = argv[++i];
		} else if (!strcmp(argv[i], "--api")) {
			api = 1;
		} else if (!strcmp(argv[i], "--list")) {
			const char *name;
			size_t n;

			for (n = 0; (name = yespower_impl_at(n)); n++)
				puts(name);
			return 0;
		} else if (!strcmp(argv[i], "--canary") && i + 1 < argc) {
			canary(argv[++i]);
			return 0;
		} else {
			fprintf(stderr, "usage: tests-isa [--impl SPEC] "
			    "[--expect NAME] [--api] [--canary KIND]\n");
			return 2;
		}
	}

	if (impl && yespower_set_impl(impl)) {
		int err = errno;

		if (err == ENOTSUP)
			return 77;
		fprintf(stderr, "tests-isa: %s: %s\n", impl, strerror(err));
		return 2;
	}
	printf("implementation %s\n", yespower_impl_name());
	if (expect && strcmp(expect, yespower_impl_name()))
		check("the implementation is not the one expected", 0);

	known_answers();
	if (api)
		api_checks();

	return summary();
}
