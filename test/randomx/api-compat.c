/*
 * api-compat.c: a program written only against randomx.h, the way a user
 * of the reference implementation writes one: flags from
 * randomx_get_flags(), a cache, VMs in light mode, then (with --full) a
 * dataset built on several threads in slices and VMs in full mode; every
 * hash compared with the reference's published answers (its
 * src/tests/tests.cpp).  It builds unchanged against this library or the
 * reference, which is the point (tools/timing.c, the threaded dataset
 * build, goes with it):
 *
 *   cc -I. -Irandomx test/randomx/api-compat.c tools/timing.c \
 *	build/randomx/librandomx.a -lpthread -lm -o api-compat	(this library)
 *   cc -I. -I/path/to/RandomX/src test/randomx/api-compat.c tools/timing.c \
 *	/path/to/RandomX/build/librandomx.a -lstdc++ -lpthread -o api-compat
 *								(the reference)
 *
 * Usage: api-compat [--full] [--threads N]; RANDOMX_TEST_FULL=1 in the
 * environment is the same as --full.  Without it only the light mode
 * runs (a few seconds); the dataset takes minutes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randomx.h"
#include "tools/timing.h"

/* The reporter, by a path relative to this file: it needs no -I. */
#define TEST_NAME "api-compat"
#include "../report.h"

static int hex_nibble(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

static size_t unhex(const char *hex, unsigned char *out)
{
	size_t i, n = strlen(hex) / 2;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)(hex_nibble(hex[2 * i]) << 4 |
		    hex_nibble(hex[2 * i + 1]));
	return n;
}

static int equals_hex(const unsigned char *h, const char *hex)
{
	unsigned char want[RANDOMX_HASH_SIZE];

	unhex(hex, want);
	return memcmp(h, want, RANDOMX_HASH_SIZE) == 0;
}

/* tests.cpp's inputs and answers: a-c with "test key 000", d-e "001". */
static const char *const key_of[5] = {
	"test key 000", "test key 000", "test key 000", "test key 001",
	"test key 001"
};
static const char *const input_of[5] = {
	"This is a test", "Lorem ipsum dolor sit amet",
	"sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
	"sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
	NULL	/* the hex block below */
};
static const char block_hex[] =
	"0b0b98bea7e805e0010a2126d287a2a0cc833d312cb786385a7c2f9de69d25537f58"
	"4a9bc9977b00000000666fd8753bf61a8631f12984e3fd44f4014eca629276817b56"
	"f32e9b68bd82f416";
static const char *const want[2][5] = { {
	"639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f",
	"300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969",
	"c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8",
	"e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc",
	"c56414121acda1713c2f2a819d8ae38aed7c80c35c2a769298d34f03833cd5f1"
}, {
	"22ec6b861b3eb23686b2efbad69513c967ecfce80983df66c9c5b4fbfb4cdb6f",
	"9e2c772c12fd48f93c14c97fdc89d556264d9100597023f44d9163e279012ecf",
	"4d6b063a1a603751d525f18a171336a4002f2f06df6c17e4b25fe17e17796e42",
	"97024134686ce27d362ea8d86d8ef16483ac272abdabd46ef13359400777fe5e",
	"c8e92c5f7c1946fecf06bc382b92e3111da38ee3e6a5ad90704e1a9d8aaf6e76"
} };
static const char commitment_v2_a[] =
	"133be717399046b03ae82ce8ddd9d1ee4d3ea7fca03a50dec09b6848cbb98e18";

static size_t input(int i, unsigned char *buf)
{
	if (input_of[i]) {
		memcpy(buf, input_of[i], strlen(input_of[i]));
		return strlen(input_of[i]);
	}
	return unhex(block_hex, buf);
}

/* The first three inputs with _first / _next / _last. */
static void batch(randomx_vm *vm, int v2, const char *mode)
{
	unsigned char in[128], h[3][RANDOMX_HASH_SIZE];
	char what[96];
	size_t len = input(0, in);
	int i;

	randomx_calculate_hash_first(vm, in, len);
	for (i = 1; i < 3; i++) {
		len = input(i, in);
		randomx_calculate_hash_next(vm, in, len, h[i - 1]);
	}
	randomx_calculate_hash_last(vm, h[2]);
	snprintf(what, sizeof(what), "%s v%d batch", mode, v2 + 1);
	check(what, equals_hex(h[0], want[v2][0]) &&
	    equals_hex(h[1], want[v2][1]) && equals_hex(h[2], want[v2][2]));
}

static void light_mode(randomx_flags flags)
{
	randomx_cache *cache = randomx_alloc_cache(flags);
	unsigned char in[128], h[RANDOMX_HASH_SIZE];
	randomx_vm *vm[2] = { NULL, NULL };
	char what[96];
	int i, v;

	check("randomx_alloc_cache(randomx_get_flags())", cache != NULL);
	if (!cache)
		return;
	for (i = 0; i < 5; i++) {
		randomx_init_cache(cache, key_of[i], strlen(key_of[i]));
		for (v = 0; v < 2; v++) {
			if (!vm[v]) {
				vm[v] = randomx_create_vm(flags | (v ?
				    RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT),
				    cache, NULL);
				check("randomx_create_vm (light)", vm[v] != NULL);
				if (!vm[v])
					continue;
			}
			randomx_vm_set_cache(vm[v], cache);
			randomx_calculate_hash(vm[v], in, input(i, in), h);
			snprintf(what, sizeof(what), "light v%d hash %c", v + 1,
			    'a' + i);
			check(what, equals_hex(h, want[v][i]));
			if (v == 1 && i == 0) {
				randomx_calculate_commitment(in, input(0, in),
				    h, h);
				check("commitment", equals_hex(h,
				    commitment_v2_a));
			}
		}
	}
	randomx_init_cache(cache, key_of[0], strlen(key_of[0]));
	for (v = 0; v < 2; v++)
		if (vm[v]) {
			randomx_vm_set_cache(vm[v], cache);
			batch(vm[v], v, "light");
			randomx_destroy_vm(vm[v]);
		}
	randomx_release_cache(cache);
}

static void full_mode(randomx_flags flags, int threads)
{
	randomx_cache *cache = randomx_alloc_cache(flags);
	randomx_dataset *dataset = randomx_alloc_dataset(flags);
	unsigned char in[128], h[RANDOMX_HASH_SIZE];
	char what[96];
	int i, v;

	check("cache and dataset allocated", cache && dataset);
	if (!cache || !dataset)
		goto out;
	randomx_init_cache(cache, key_of[0], strlen(key_of[0]));
	check("dataset built on threads", util_build_dataset(
	    randomx_init_dataset, dataset, cache,
	    randomx_dataset_item_count(), threads) >= 0);
	/* the cache is not needed once the dataset is built */
	randomx_release_cache(cache);
	cache = NULL;
	for (v = 0; v < 2; v++) {
		randomx_vm *vm = randomx_create_vm(flags | RANDOMX_FLAG_FULL_MEM |
		    (v ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT), NULL, dataset);

		check("randomx_create_vm (full)", vm != NULL);
		if (!vm)
			continue;
		for (i = 0; i < 3; i++) {
			randomx_calculate_hash(vm, in, input(i, in), h);
			snprintf(what, sizeof(what), "full v%d hash %c", v + 1,
			    'a' + i);
			check(what, equals_hex(h, want[v][i]));
		}
		batch(vm, v, "full");
		randomx_destroy_vm(vm);
	}
out:
	if (cache)
		randomx_release_cache(cache);
	if (dataset)
		randomx_release_dataset(dataset);
}

int main(int argc, char **argv)
{
	const char *env = getenv("RANDOMX_TEST_FULL");
	int full = env && !strcmp(env, "1"), threads = 2, i;
	randomx_flags flags = randomx_get_flags();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--full")) {
			full = 1;
		} else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			threads = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: api-compat [--full] "
			    "[--threads N]\n");
			return 2;
		}
	}
	if (threads < 1)
		threads = 1;
	printf("api-compat: flags %d\n", (int)flags);
	light_mode(flags);
	if (full)
		full_mode(flags, threads);
	if (!full)
		skip("full mode: --full or RANDOMX_TEST_FULL=1");
	return summary();
}
