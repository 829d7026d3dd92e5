/*
 * rx-installed.c: a program built against the installed RandomX by
 * test/tests-cli.sh's install suite, three ways (pkg-config, CMake's
 * find_package(RandomX), plain -lrandomx), as a user of the reference's
 * librandomx would build it.  It includes <randomx.h> and nothing else
 * of this project's.
 *
 * At compile time: every flag of the reference's randomx.h (v1.1.10 and
 * v2.0) has its value there, and every one of its functions has its
 * signature there (a pointer of the reference's type is initialized with
 * each; a different signature does not compile).  At run time, through
 * the shared or static library it was linked with: the light-mode hash of
 * the reference's first test vector in v1 and v2, and v2's commitment,
 * printed one per line for the script to compare with the published
 * answers.
 */
#include <stdio.h>
#include <string.h>

#include <randomx.h>

_Static_assert(RANDOMX_HASH_SIZE == 32, "RANDOMX_HASH_SIZE");
_Static_assert(RANDOMX_DATASET_ITEM_SIZE == 64, "RANDOMX_DATASET_ITEM_SIZE");
_Static_assert(RANDOMX_FLAG_DEFAULT == 0, "RANDOMX_FLAG_DEFAULT");
_Static_assert(RANDOMX_FLAG_LARGE_PAGES == 1, "RANDOMX_FLAG_LARGE_PAGES");
_Static_assert(RANDOMX_FLAG_HARD_AES == 2, "RANDOMX_FLAG_HARD_AES");
_Static_assert(RANDOMX_FLAG_FULL_MEM == 4, "RANDOMX_FLAG_FULL_MEM");
_Static_assert(RANDOMX_FLAG_JIT == 8, "RANDOMX_FLAG_JIT");
_Static_assert(RANDOMX_FLAG_SECURE == 16, "RANDOMX_FLAG_SECURE");
_Static_assert(RANDOMX_FLAG_ARGON2_SSSE3 == 32, "RANDOMX_FLAG_ARGON2_SSSE3");
_Static_assert(RANDOMX_FLAG_ARGON2_AVX2 == 64, "RANDOMX_FLAG_ARGON2_AVX2");
_Static_assert(RANDOMX_FLAG_ARGON2 == 96, "RANDOMX_FLAG_ARGON2");
_Static_assert(RANDOMX_FLAG_V2 == 128, "RANDOMX_FLAG_V2");
/* The reference passes randomx_flags by value: an int-sized enum. */
_Static_assert(sizeof(randomx_flags) == sizeof(int), "randomx_flags");

/* The reference's signatures, v1.1.10's seventeen and v2.0's two more. */
static randomx_flags (*const get_flags)(void) = randomx_get_flags;
static randomx_cache *(*const alloc_cache)(randomx_flags) =
    randomx_alloc_cache;
static void (*const init_cache)(randomx_cache *, const void *, size_t) =
    randomx_init_cache;
static void *(*const get_cache_memory)(randomx_cache *) =
    randomx_get_cache_memory;
static void (*const release_cache)(randomx_cache *) = randomx_release_cache;
static randomx_dataset *(*const alloc_dataset)(randomx_flags) =
    randomx_alloc_dataset;
static unsigned long (*const dataset_item_count)(void) =
    randomx_dataset_item_count;
static void (*const init_dataset)(randomx_dataset *, randomx_cache *,
    unsigned long, unsigned long) = randomx_init_dataset;
static void *(*const get_dataset_memory)(randomx_dataset *) =
    randomx_get_dataset_memory;
static void (*const release_dataset)(randomx_dataset *) =
    randomx_release_dataset;
static randomx_vm *(*const create_vm)(randomx_flags, randomx_cache *,
    randomx_dataset *) = randomx_create_vm;
static void (*const vm_set_cache)(randomx_vm *, randomx_cache *) =
    randomx_vm_set_cache;
static void (*const vm_set_dataset)(randomx_vm *, randomx_dataset *) =
    randomx_vm_set_dataset;
static void (*const destroy_vm)(randomx_vm *) = randomx_destroy_vm;
static void (*const calculate_hash)(randomx_vm *, const void *, size_t,
    void *) = randomx_calculate_hash;
static void (*const calculate_hash_first)(randomx_vm *, const void *,
    size_t) = randomx_calculate_hash_first;
static void (*const calculate_hash_next)(randomx_vm *, const void *, size_t,
    void *) = randomx_calculate_hash_next;
static void (*const calculate_hash_last)(randomx_vm *, void *) =
    randomx_calculate_hash_last;
static void (*const calculate_commitment)(const void *, size_t,
    const void *, void *) = randomx_calculate_commitment;

static void print_hex(const unsigned char *h)
{
	int i;

	for (i = 0; i < RANDOMX_HASH_SIZE; i++)
		printf("%02x", h[i]);
	printf("\n");
}

int main(void)
{
	static const char key[] = "test key 000", input[] = "This is a test";
	unsigned char h[RANDOMX_HASH_SIZE], c[RANDOMX_HASH_SIZE];
	randomx_flags flags = get_flags();
	randomx_cache *cache;
	randomx_vm *vm;
	int v;

	/* Light mode only: the dataset functions are checked for their
	 * types above, and the library's own suites run them. */
	(void)alloc_dataset; (void)dataset_item_count; (void)init_dataset;
	(void)get_dataset_memory; (void)release_dataset;
	(void)vm_set_dataset;
	cache = alloc_cache(flags);
	if (!cache)
		return 1;
	init_cache(cache, key, strlen(key));
	if (!get_cache_memory(cache))
		return 1;
	for (v = 0; v < 2; v++) {
		vm = create_vm(flags | (v ? RANDOMX_FLAG_V2 : 0), cache, NULL);
		if (!vm)
			return 1;
		vm_set_cache(vm, cache);
		calculate_hash(vm, input, strlen(input), h);
		print_hex(h);
		/* The same through the pipelined calls. */
		calculate_hash_first(vm, input, strlen(input));
		calculate_hash_next(vm, input, strlen(input), c);
		if (memcmp(c, h, sizeof(h)))
			return 1;
		calculate_hash_last(vm, c);
		if (memcmp(c, h, sizeof(h)))
			return 1;
		if (v) {
			calculate_commitment(input, strlen(input), h, c);
			print_hex(c);
		}
		destroy_vm(vm);
	}
	release_cache(cache);
	return 0;
}
