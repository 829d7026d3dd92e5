/*
 * tests-rx-vm-hash.c: hashes through randomx.h: the published answers in
 * light mode, the batch functions, the caller's rounding mode kept, the
 * vector file's hashes, and full mode (traced items, dataset slices, the
 * whole dataset with RANDOMX_TEST_FULL=1).
 *
 * Part of tests-rx-vm, included by tests-rx-vm.c (which has the includes,
 * the shared helpers and main): the parts are one program so that their
 * checks add up to one count and one summary line.
 */

/* ---- hashes through randomx.h ---- */

static randomx_vm *vm_of(randomx_flags flags, randomx_cache *c)
{
	randomx_vm *vm = randomx_create_vm(flags, c, NULL);

	if (!vm) {
		fprintf(stderr, "tests-rx-vm: randomx_create_vm(%d) failed\n",
		    (int)flags);
		exit(2);
	}
	return vm;
}

static randomx_flags hard_aes_flag(void)
{
	return rx_aes_hard() ? RANDOMX_FLAG_HARD_AES : RANDOMX_FLAG_DEFAULT;
}

static item_list traced[2];	/* items of "This is a test", v1 and v2 */

/*
 * tests.cpp's hashes, v1 and v2 VMs on the same caches taking turns;
 * hard AES (where there is some) and soft for the first of each.
 */
static void test_published_hashes(randomx_cache *c0, randomx_cache *c1)
{
	randomx_vm *v1 = vm_of(hard_aes_flag(), c0);
	randomx_vm *v2 = vm_of(hard_aes_flag() | RANDOMX_FLAG_V2, c0);
	randomx_vm *s1 = vm_of(RANDOMX_FLAG_DEFAULT, c0);
	randomx_vm *s2 = vm_of(RANDOMX_FLAG_V2, c0);
	uint8_t in[128], h[32];
	char what[96];
	size_t len;
	int i;

	for (i = 0; i < 5; i++) {
		if (i == 3) {
			randomx_vm_set_cache(v1, c1);
			randomx_vm_set_cache(v2, c1);
		}
		len = published_in(i, in);
		if (i == 0)
			rx_vm_set_item_trace(v1, record_item, &traced[0]);
		randomx_calculate_hash(v1, in, len, h);
		rx_vm_set_item_trace(v1, NULL, NULL);
		snprintf(what, sizeof(what), "tests.cpp hash 1%c, v1", 'a' + i);
		check(what, equals_hex(h, published_v1[i]));
		if (i == 0)
			rx_vm_set_item_trace(v2, record_item, &traced[1]);
		randomx_calculate_hash(v2, in, len, h);
		rx_vm_set_item_trace(v2, NULL, NULL);
		snprintf(what, sizeof(what), "tests.cpp hash 1%c, v2", 'a' + i);
		check(what, equals_hex(h, published_v2[i]));
	}
	len = published_in(0, in);
	randomx_calculate_hash(s1, in, len, h);
	check("tests.cpp hash 1a, v1, soft AES", equals_hex(h, published_v1[0]));
	randomx_calculate_hash(s2, in, len, h);
	check("tests.cpp hash 1a, v2, soft AES", equals_hex(h, published_v2[0]));
	randomx_calculate_commitment(in, len, h, h);
	check("tests.cpp commitment (v2, 1a; in place)",
	    equals_hex(h, "133be717399046b03ae82ce8ddd9d1ee4d3ea7fca03a50dec09b6"
	    "848cbb98e18"));
	randomx_destroy_vm(v1);
	randomx_destroy_vm(v2);
	randomx_destroy_vm(s1);
	randomx_destroy_vm(s2);
}

/* _first / _next / _last: tests.cpp's batch answers, v1 and v2. */
static void test_batch(randomx_cache *c0)
{
	int v;

	for (v = 0; v < 2; v++) {
		randomx_vm *vm = vm_of(hard_aes_flag() | (v ? RANDOMX_FLAG_V2 :
		    RANDOMX_FLAG_DEFAULT), c0);
		const char *const *want = v ? published_v2 : published_v1;
		uint8_t h1[32], h2[32], h3[32];
		int ok;

		fesetround(FE_DOWNWARD);
		randomx_calculate_hash_first(vm, published_input[0],
		    strlen(published_input[0]));
		ok = fegetround() == FE_DOWNWARD;
		randomx_calculate_hash_next(vm, published_input[1],
		    strlen(published_input[1]), h1);
		ok &= fegetround() == FE_DOWNWARD;
		randomx_calculate_hash_next(vm, published_input[2],
		    strlen(published_input[2]), h2);
		randomx_calculate_hash_last(vm, h3);
		ok &= fegetround() == FE_DOWNWARD;
		fesetround(FE_TONEAREST);
		check(v ? "batch: tests.cpp's answers, v2" :
		    "batch: tests.cpp's answers, v1",
		    equals_hex(h1, want[0]) && equals_hex(h2, want[1]) &&
		    equals_hex(h3, want[2]));
		check("batch functions give back the caller's rounding mode",
		    ok);
		randomx_destroy_vm(vm);
	}
}

/* The caller's rounding mode neither changes a hash nor gets changed. */
static void test_rounding_kept(randomx_cache *c0)
{
	randomx_vm *vm = vm_of(hard_aes_flag(), c0);
	uint8_t h[32];

	fesetround(FE_UPWARD);
	randomx_calculate_hash(vm, published_input[1],
	    strlen(published_input[1]), h);
	check("caller rounding upward: same hash, mode kept",
	    fegetround() == FE_UPWARD && equals_hex(h, published_v1[1]));
	fesetround(FE_TONEAREST);
#if defined(__GLIBC__) && defined(FE_INEXACT)
	/* a trap the caller enabled does not fire, and its flags stay clear */
	feclearexcept(FE_ALL_EXCEPT);
	/* most ARMv8 cores (and qemu's) cannot trap: feenableexcept fails */
	if (feenableexcept(FE_INEXACT) == -1) {
		skip("caller's FP traps: this CPU does not trap FP exceptions");
	} else {
		randomx_calculate_hash(vm, published_input[0],
		    strlen(published_input[0]), h);
		check("caller's FP traps and exception flags: kept",
		    fegetexcept() == FE_INEXACT &&
		    !fetestexcept(FE_ALL_EXCEPT) &&
		    equals_hex(h, published_v1[0]));
		fedisableexcept(FE_ALL_EXCEPT);
	}
#endif
	randomx_destroy_vm(vm);
}

/* A hash line of the vector file: key, input, hash and commitment. */
typedef struct {
	int v2;
	uint8_t key[64], in[256], hash[32], com[32];
	long keylen, inlen;
} hash_vector;

static hash_vector hvec[16];
static int n_hvec;

static void add_hash_vector(int v2, const char *key, const char *in,
    const char *hash, const char *com)
{
	hash_vector *v = &hvec[n_hvec];

	if (n_hvec == 16 ||
	    (v->keylen = from_hex(key, v->key, sizeof(v->key))) < 0 ||
	    (v->inlen = from_hex(in, v->in, sizeof(v->in))) < 0 ||
	    from_hex(hash, v->hash, 32) != 32 ||
	    from_hex(com, v->com, 32) != 32) {
		check("hash vector: malformed", 0);
		return;
	}
	v->v2 = v2;
	n_hvec++;
}

/* The extra hashes, grouped by key so each cache is built once. */
static void test_hash_vectors(randomx_cache *spare)
{
	uint8_t h[32], c[32];
	char what[96];
	int i;

	for (i = 0; i < n_hvec; i++) {
		hash_vector *v = &hvec[i];
		randomx_cache *use = cache0;
		randomx_vm *vm;

		if (v->keylen != 12 || memcmp(v->key, "test key 000", 12)) {
			randomx_init_cache(spare, v->key, (size_t)v->keylen);
			use = spare;
		}
		vm = vm_of(hard_aes_flag() | (v->v2 ? RANDOMX_FLAG_V2 :
		    RANDOMX_FLAG_DEFAULT), use);
		randomx_calculate_hash(vm, v->in, (size_t)v->inlen, h);
		randomx_calculate_commitment(v->in, (size_t)v->inlen, h, c);
		snprintf(what, sizeof(what), "reference hash, v%d, %ld-byte "
		    "key, %ld-byte input", v->v2 + 1, v->keylen, v->inlen);
		check(what, !memcmp(h, v->hash, 32) && !memcmp(c, v->com, 32));
		randomx_destroy_vm(vm);
	}
}

/* ---- full mode ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Build exactly the items a traced light hash read, one
 * randomx_init_dataset call each, then hash in full mode.
 */
static void test_full_traced(randomx_dataset *ds)
{
	uint8_t h[32];
	size_t v, i, distinct;

	for (v = 0; v < 2; v++) {
		item_list *l = &traced[v];
		randomx_vm *vm;

		if (l->n == 0) {
			check("light hash traced some items", 0);
			continue;
		}
		qsort(l->items, l->n, sizeof(*l->items), cmp_u64);
		for (i = 0, distinct = 0; i < l->n; i++)
			if (i == 0 || l->items[i] != l->items[i - 1]) {
				randomx_init_dataset(ds, cache0,
				    (unsigned long)l->items[i], 1);
				distinct++;
			}
		check("a light hash computes 16384 items (8 x 2048)",
		    l->n == (size_t)RX_PROGRAM_COUNT * RX_PROGRAM_ITERATIONS);
		vm = randomx_create_vm(hard_aes_flag() | RANDOMX_FLAG_FULL_MEM |
		    (v ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT), NULL, ds);
		check("full-mode VM created", vm != NULL);
		if (!vm)
			continue;
		randomx_calculate_hash(vm, published_input[0],
		    strlen(published_input[0]), h);
		check(v ? "full mode on the traced items: tests.cpp 1a, v2" :
		    "full mode on the traced items: tests.cpp 1a, v1",
		    equals_hex(h, v ? published_v2[0] : published_v1[0]));
		randomx_destroy_vm(vm);
		free(l->items);
		l->items = NULL;
		l->n = l->cap = 0;
	}
}

/* randomx_init_dataset over slices against rx_dataset_item. */
static void test_dataset_slices(randomx_dataset *ds)
{
	static const struct {
		unsigned long start, count;
	} slice[] = { { 0, 5 }, { 1000003, 7 }, { 33554430, 3 },
	    { 34078719 - 3, 3 } };
	const rx_cache_state *cs = rx_cache_state_of(cache0);
	uint8_t *mem = randomx_get_dataset_memory(ds), item[64];
	unsigned long n = randomx_dataset_item_count(), j;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(slice) / sizeof(slice[0]); i++) {
		randomx_init_dataset(ds, cache0, slice[i].start,
		    slice[i].count);
		for (j = slice[i].start; j < slice[i].start + slice[i].count;
		    j++) {
			rx_dataset_item(cs, j, item);
			ok &= !memcmp(mem + 64 * (size_t)j, item, 64);
		}
	}
	check("randomx_init_dataset slices = rx_dataset_item", ok);
	memset(mem + 64 * (size_t)(n - 1), 0x5a, 64);
	memset(mem, 0x5a, 64);
	randomx_init_dataset(ds, cache0, n - 1, 2);
	randomx_init_dataset(ds, cache0, n, 1);
	randomx_init_dataset(ds, cache0, ~0UL, 2);
	randomx_init_dataset(ds, NULL, 0, 1);
	randomx_init_dataset(NULL, cache0, 0, 1);
	randomx_init_dataset(ds, cache0, n, 0);
	check("randomx_init_dataset past the end or with NULL: nothing",
	    mem[64 * (size_t)(n - 1)] == 0x5a && mem[64 * (size_t)n - 1] ==
	    0x5a && mem[0] == 0x5a);
}

/* RANDOMX_TEST_FULL=1: the whole dataset, and the known answers on it. */
static void test_full_dataset(randomx_cache *c1)
{
	int i, v, a;
	randomx_dataset *ds;
	uint8_t in[128], h[32];
	char what[96];

	ds = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
	if (!ds) {
		check("RANDOMX_TEST_FULL: dataset allocated", 0);
		return;
	}
	rx_build_dataset(ds, cache0);
	/* every AES, v1 and v2, interpreted and (where built) compiled */
	for (a = 0; a < 2 * n_impls; a++)
		for (v = 0; v < 2; v++) {
			int jit = a >= n_impls;
			randomx_vm *vm;

			if (jit && !RX_HAVE_JIT)
				break;
			vm = randomx_create_vm((a % n_impls ?
			    RANDOMX_FLAG_HARD_AES : RANDOMX_FLAG_DEFAULT) |
			    (jit ? RANDOMX_FLAG_JIT : RANDOMX_FLAG_DEFAULT) |
			    RANDOMX_FLAG_FULL_MEM | (v ? RANDOMX_FLAG_V2 :
			    RANDOMX_FLAG_DEFAULT), NULL, ds);
			for (i = 0; i < 3 && vm; i++) {
				size_t len = published_in(i, in);

				randomx_calculate_hash(vm, in, len, h);
				snprintf(what, sizeof(what), "full dataset: "
				    "tests.cpp hash 1%c, v%d, %s AES%s", 'a' + i,
				    v + 1, impls[a % n_impls]->name,
				    jit ? ", JIT" : "");
				check(what, equals_hex(h, v ? published_v2[i] :
				    published_v1[i]));
			}
			check("full-mode VM on the whole dataset", vm != NULL);
			randomx_destroy_vm(vm);
		}
	(void)c1;
	randomx_release_dataset(ds);
}
