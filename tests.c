/*
 * tests.c: known-answer tests.  The output is compared with TESTS-OK by
 * `make check`: the first lines are the original yespower's known answers,
 * line for line; then the primitives' answers recomputed from
 * test/vectors/primitives.txt (path in argv[1]); then the error-handling and API
 * checks, each printing a line that only reads "ok" when it passed.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "blake2b.h"
#include "sha256.h"
#include "yespower.h"
#include "test/tests-util.h"
#include "tools/util.h"

static const char *pers_bsty_magic = "BSTY";

static void print_hex_spaced(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x%c", p[i], i + 1 < n ? ' ' : '\n');
}

/* One line of the original's table: the 80-byte input i * 3; "BSTY" means
 * the input itself is the personalization, as that coin does it. */
static void print_yespower(yespower_version_t version, uint32_t N, uint32_t r,
    const char *pers)
{
	yespower_params_t params = { version, N, r, (const uint8_t *)pers,
	    pers ? strlen(pers) : 0 };
	uint8_t src[80];
	yespower_binary_t dst;
	const char *q = (pers && pers != pers_bsty_magic) ? "\"" : "";
	size_t i;

	printf("yespower(%u, %u, %u, %s%s%s) = ", (unsigned)version, N, r,
	    q, pers ? pers : "NULL", q);

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 3);
	if (pers == pers_bsty_magic) {
		params.pers = src;
		params.perslen = sizeof(src);
	}

	if (yespower_tls(src, sizeof(src), &params, &dst)) {
		puts("FAILED");
		return;
	}
	print_hex_spaced(dst.uc, sizeof(dst.uc));
}

/* The XOR of the hashes over N = 1024, 2048, 4096 and every r = 8 .. 32.
 * src[0] = 43 makes yespower 0.5's final two-iteration SMix2 hit the same
 * V block twice for some r, which a wrong "save" BlockMix would get wrong. */
static void print_yespower_loop(yespower_version_t version, const char *pers)
{
	uint8_t src[80];
	yespower_binary_t dst, acc;
	uint32_t N, r;
	size_t i;

	printf("XOR of yespower(%u, ...) = ", (unsigned)version);

	memset(&acc, 0, sizeof(acc));
	src[0] = 43;
	for (i = 1; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 3);

	for (N = 1024; N <= 4096; N <<= 1) {
		for (r = 8; r <= 32; r++) {
			yespower_params_t params = { version, N, r,
			    (const uint8_t *)pers, pers ? strlen(pers) : 0 };

			if (yespower_tls(src, sizeof(src), &params, &dst)) {
				puts("FAILED");
				return;
			}
			for (i = 0; i < sizeof(acc.uc); i++)
				acc.uc[i] ^= dst.uc[i];
		}
	}
	print_hex_spaced(acc.uc, sizeof(acc.uc));
}

/* ---- primitives: recompute each line of the vectors file ---- */


/* Decode a hex field ("-" is empty) into a new buffer; NULL on bad hex. */
static uint8_t *hex_decode(const char *hex, size_t *len)
{
	char msg[96];

	return util_hex_decode_alloc(strcmp(hex, "-") ? hex : "", len, msg,
	    sizeof(msg));
}

static void print_hex(const uint8_t *p, size_t n)
{
	util_hex_print(stdout, p, n);
	putchar('\n');
}

/* Split a line into at most max blank-separated fields, in place. */
static int split_fields(char *line, char **field, int max)
{
	int n = 0;
	char *tok = strtok(line, " \t\r\n");

	while (tok && n < max) {
		field[n++] = tok;
		tok = strtok(NULL, " \t\r\n");
	}
	return n;
}

/*
 * Each vector line is "<KIND> <inputs...> = <expected>".  We print the kind
 * and inputs back followed by what we computed, so that the diff against
 * TESTS-OK (which holds the expected lines) shows any disagreement.
 */
static int run_vector_line(char *line)
{
	char *f[8];
	int n;
	uint8_t *a = NULL, *b = NULL, *out = NULL;
	size_t alen = 0, blen = 0;
	unsigned long count;
	char ch;
	int ok = 0;

	/* "SHA256 <1000000 x 'a'> = ..." stands for a long repeated message. */
	if (sscanf(line, "SHA256 <%lu x '%c'>", &count, &ch) == 2) {
		uint8_t d[32];

		if (!(a = malloc(count + 1)))
			return -1;
		memset(a, ch, count);
		sha256_buf(a, count, d);
		printf("SHA256 <%lu x '%c'> = ", count, ch);
		print_hex(d, sizeof(d));
		free(a);
		return 0;
	}

	n = split_fields(line, f, 8);
	if (n < 3 || strcmp(f[n - 2], "="))
		return -1;

	if (!strcmp(f[0], "SHA256") && n == 4) {
		uint8_t d[32];

		if ((a = hex_decode(f[1], &alen))) {
			sha256_buf(a, alen, d);
			printf("SHA256 %s = ", f[1]);
			print_hex(d, sizeof(d));
			ok = 1;
		}
	} else if (!strcmp(f[0], "HMAC_SHA256") && n == 5) {
		uint8_t d[32];

		if ((a = hex_decode(f[1], &alen)) &&
		    (b = hex_decode(f[2], &blen))) {
			hmac_sha256_buf(a, alen, b, blen, d);
			printf("HMAC_SHA256 %s %s = ", f[1], f[2]);
			print_hex(d, sizeof(d));
			ok = 1;
		}
	} else if (!strcmp(f[0], "PBKDF2_SHA256") && n == 7) {
		unsigned long long c = strtoull(f[3], NULL, 10);
		size_t dklen = (size_t)strtoull(f[4], NULL, 10);

		if ((a = hex_decode(f[1], &alen)) &&
		    (b = hex_decode(f[2], &blen)) && c >= 1 &&
		    (out = malloc(dklen + 1))) {
			pbkdf2_sha256(a, alen, b, blen, c, out, dklen);
			printf("PBKDF2_SHA256 %s %s %s %s = ", f[1], f[2],
			    f[3], f[4]);
			print_hex(out, dklen);
			ok = 1;
		}
	} else if (!strcmp(f[0], "BLAKE2B") && n == 6) {
		size_t outlen = (size_t)strtoul(f[1], NULL, 10);
		uint8_t d[64];

		if ((a = hex_decode(f[2], &alen)) &&
		    (b = hex_decode(f[3], &blen)) &&
		    !pow_blake2b(d, outlen, a, alen, b, blen)) {
			printf("BLAKE2B %s %s %s = ", f[1], f[2], f[3]);
			print_hex(d, outlen);
			ok = 1;
		}
	}

	free(a);
	free(b);
	free(out);
	return ok ? 0 : -1;
}

/* Run every line of the vectors file; a line we cannot run is reported. */
static void run_vectors(const char *path)
{
	FILE *fp = fopen(path, "r");
	static char line[65536];
	unsigned lineno = 0;

	if (!fp) {
		printf("vectors: cannot open %s: %s\n", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		char copy[80];

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		snprintf(copy, sizeof(copy), "%.79s", line);
		if (run_vector_line(line))
			printf("vectors: line %u not understood: %.40s\n",
			    lineno, copy);
	}
	fclose(fp);
}

/* ---- error handling and the API contract ---- */

/* One invalid parameter set must give -1, EINVAL and an all-0xff hash,
 * from both entry points. */
static void check_invalid(const char *what, yespower_version_t version,
    uint32_t N, uint32_t r, const uint8_t *pers, size_t perslen)
{
	yespower_params_t params = { version, N, r, pers, perslen };
	yespower_local_t local;
	yespower_binary_t dst;
	int ok = 1, rc;

	memset(&dst, 0, sizeof(dst));
	errno = 0;
	rc = yespower_tls((const uint8_t *)"abc", 3, &params, &dst);
	ok &= (rc == -1 && errno == EINVAL && all_ff(&dst));

	yespower_init_local(&local);
	memset(&dst, 0, sizeof(dst));
	errno = 0;
	rc = yespower(&local, (const uint8_t *)"abc", 3, &params, &dst);
	ok &= (rc == -1 && errno == EINVAL && all_ff(&dst));
	ok &= (yespower_free_local(&local) == 0);

	printf("invalid %s: %s\n", what, ok ? "ok" : "FAILED");
}

static void check_invalid_params(void)
{
	yespower_binary_t dst;
	yespower_params_t good = { YESPOWER_1_0, 1024, 8, NULL, 0 };
	int rc;

	check_invalid("version 0", 0, 2048, 8, NULL, 0);
	check_invalid("version 6", 6, 2048, 8, NULL, 0);
	check_invalid("N 0", YESPOWER_1_0, 0, 8, NULL, 0);
	check_invalid("N 512", YESPOWER_1_0, 512, 8, NULL, 0);
	check_invalid("N 3000", YESPOWER_1_0, 3000, 8, NULL, 0);
	check_invalid("N 1048576", YESPOWER_1_0, 1048576, 8, NULL, 0);
	check_invalid("N 2^31", YESPOWER_0_5, 0x80000000u, 8, NULL, 0);
	check_invalid("r 7", YESPOWER_0_5, 2048, 7, NULL, 0);
	check_invalid("r 33", YESPOWER_1_0, 2048, 33, NULL, 0);
	check_invalid("r 2^32-1", YESPOWER_1_0, 2048, 0xffffffffu, NULL, 0);
	check_invalid("pers NULL with length", YESPOWER_1_0, 2048, 8, NULL, 5);

	/* A NULL input with a length, and a NULL params, are refused too. */
	errno = 0;
	rc = yespower_tls(NULL, 80, &good, &dst);
	printf("invalid NULL input: %s\n",
	    (rc == -1 && errno == EINVAL && all_ff(&dst)) ? "ok" : "FAILED");
	errno = 0;
	rc = yespower_tls((const uint8_t *)"x", 1, NULL, &dst);
	printf("invalid NULL params: %s\n",
	    (rc == -1 && errno == EINVAL && all_ff(&dst)) ? "ok" : "FAILED");
}

/*
 * One yespower_local_t reused across versions and growing and shrinking
 * N and r must give the same answers as yespower_tls; and an empty input
 * (NULL, 0) is a valid input.
 */
static void check_local_reuse(void)
{
	static const struct { yespower_version_t v; uint32_t N, r; } set[] = {
		{ YESPOWER_1_0, 1024, 8 }, { YESPOWER_0_5, 4096, 32 },
		{ YESPOWER_1_0, 2048, 16 }, { YESPOWER_0_5, 1024, 8 },
		{ YESPOWER_1_0, 4096, 32 }, { YESPOWER_1_0, 1024, 9 },
	};
	yespower_local_t local;
	uint8_t src[100];
	size_t i;
	int ok = (yespower_init_local(&local) == 0);

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 1);

	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		yespower_params_t params = { set[i].v, set[i].N, set[i].r,
		    (const uint8_t *)"pers", 4 };
		yespower_binary_t a, b;

		ok &= (yespower(&local, src, i * 17, &params, &a) == 0);
		ok &= (yespower_tls(src, i * 17, &params, &b) == 0);
		ok &= !memcmp(&a, &b, sizeof(a));
		if (i == 0) {
			ok &= (yespower(&local, NULL, 0, &params, &a) == 0);
			ok &= (yespower_tls(src, 0, &params, &b) == 0);
			ok &= !memcmp(&a, &b, sizeof(a));
		}
	}
	ok &= (yespower_free_local(&local) == 0);
	ok &= (yespower_free_local(&local) == 0);	/* twice is harmless */
	printf("local reuse across parameters: %s\n", ok ? "ok" : "FAILED");
}

/*
 * Usage: tests [--impl NAME] [VECTORS-FILE]
 * --impl forces a mixing core; exit status 77 means this CPU cannot run it.
 */
/* The process's address space now, in bytes (Linux), or 0. */
static rlim_t address_space_now(void)
{
	long long bytes = statm_bytes(0);

	return bytes < 0 ? 0 : (rlim_t)bytes;
}

/*
 * Allocation failure: in a child process allowed 256 MiB of address space
 * beyond what it has (AddressSanitizer alone reserves terabytes), a 2 GiB
 * hash must fail with ENOMEM and an all-0xff output, through yespower_tls
 * and yespower, and a small hash must still succeed after it.
 */
static int alloc_failure_child(void)
{
	rlim_t limit = address_space_now() + ((rlim_t)256 << 20);
	struct rlimit lim = { limit, limit };
	yespower_params_t big = { YESPOWER_1_0, 524288, 32, NULL, 0 };
	yespower_params_t small = { YESPOWER_1_0, 1024, 8, NULL, 0 };
	yespower_local_t local;
	yespower_binary_t dst;
	int ok = 1;

	if (setrlimit(RLIMIT_AS, &lim))
		return 2;
	errno = 0;
	ok &= yespower_tls((const uint8_t *)"x", 1, &big, &dst) == -1 &&
	    errno == ENOMEM && all_ff(&dst);
	ok &= yespower_tls((const uint8_t *)"x", 1, &small, &dst) == 0 &&
	    !all_ff(&dst);
	yespower_init_local(&local);
	errno = 0;
	ok &= yespower(&local, (const uint8_t *)"x", 1, &big, &dst) == -1 &&
	    errno == ENOMEM && all_ff(&dst);
	ok &= yespower(&local, (const uint8_t *)"x", 1, &small, &dst) == 0 &&
	    !all_ff(&dst);
	ok &= yespower_free_local(&local) == 0;
	return ok ? 0 : 1;
}

static void check_alloc_failure(void)
{
	pid_t pid;
	int status = -1;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(alloc_failure_child());
	if (pid > 0)
		waitpid(pid, &status, 0);
	printf("allocation failure: %s\n",
	    pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ?
	    "ok" : "FAILED");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc > 2 && !strcmp(argv[1], "--impl")) {
		int rc = force_impl("tests", argv[2]);

		if (rc)
			return rc;
		argc -= 2;
		argv += 2;
	}

	print_yespower(YESPOWER_0_5, 2048, 8, "Client Key");
	print_yespower(YESPOWER_0_5, 2048, 8, pers_bsty_magic);
	print_yespower(YESPOWER_0_5, 4096, 16, "Client Key");
	print_yespower(YESPOWER_0_5, 4096, 24, "Jagaricoin");
	print_yespower(YESPOWER_0_5, 4096, 32, "WaviBanana");
	print_yespower(YESPOWER_0_5, 2048, 32, "Client Key");
	print_yespower(YESPOWER_0_5, 1024, 32, "Client Key");
	print_yespower(YESPOWER_0_5, 2048, 8, NULL);
	print_yespower(YESPOWER_1_0, 2048, 8, NULL);
	print_yespower(YESPOWER_1_0, 4096, 16, NULL);
	print_yespower(YESPOWER_1_0, 4096, 32, NULL);
	print_yespower(YESPOWER_1_0, 2048, 32, NULL);
	print_yespower(YESPOWER_1_0, 1024, 32, NULL);
	print_yespower(YESPOWER_1_0, 1024, 32, "personality test");
	print_yespower_loop(YESPOWER_0_5, "Client Key");
	print_yespower_loop(YESPOWER_1_0, NULL);

	run_vectors(argc > 1 ? argv[1] : "test/vectors/primitives.txt");

	check_invalid_params();
	check_local_reuse();
	check_alloc_failure();

	return 0;
}
