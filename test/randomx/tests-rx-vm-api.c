/*
 * tests-rx-vm-api.c: flags and misuse of randomx.h: NULL arguments, unknown or
 * unsupported flags, large pages where the system has none, uninitialized
 * caches, out-of-range dataset ranges, batch calls out of order, a key
 * over 4 GiB, and memory given back on release.
 *
 * Part of tests-rx-vm, included by tests-rx-vm.c (which has the includes,
 * the shared helpers and main): the parts are one program so that their
 * checks add up to one count and one summary line.
 */

/* ---- flags and misuse ---- */

/*
 * Whether this process can map one 2 MiB page from the system's reserve
 * right now.  /proc/meminfo's free count alone is not enough: qemu-user
 * (check-randomx-qemu) refuses MAP_HUGETLB with EINVAL however many pages
 * the host has free, and the library must then fail as it does with none.
 */
static int huge_page_mappable(void)
{
	size_t len = (size_t)2 << 20;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, len);
	return 1;
}

/*
 * 2 MiB pages of the system's reserve that nobody has claimed (free less
 * those promised to mappings already made), or -1 if unknown.
 */
static long huge_pages_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long free_pages = -1, reserved = -1, n;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			free_pages = n;
		else if (sscanf(line, "HugePages_Rsvd: %ld", &n) == 1)
			reserved = n;
	}
	fclose(f);
	if (free_pages < 0 || reserved < 0)
		return -1;
	return free_pages > reserved ? free_pages - reserved : 0;
}

static void test_flags(void)
{
	randomx_flags f = randomx_get_flags();
	randomx_cache *c;
	long huge = huge_pages_free();
	randomx_vm *vm;

	check("randomx_get_flags: HARD_AES exactly where AES-NI runs",
	    !(f & RANDOMX_FLAG_HARD_AES) == !rx_aes_hard());
#ifdef RX_X86_ISAS
	check("AES-NI built in on x86: offered where the CPU has it",
	    !rx_aes_hard() == !pow_cpu_has(POW_CPU_AES));
#endif
	check("randomx_get_flags: no LARGE_PAGES, FULL_MEM, SECURE, V2",
	    !(f & (RANDOMX_FLAG_LARGE_PAGES | RANDOMX_FLAG_FULL_MEM |
	    RANDOMX_FLAG_SECURE | RANDOMX_FLAG_V2)));
	check("randomx_get_flags: JIT exactly where built (x86-64)",
	    !(f & RANDOMX_FLAG_JIT) == !RX_HAVE_JIT);
	check("randomx_get_flags: Argon2 flags where the cores run",
	    !(f & RANDOMX_FLAG_ARGON2_AVX2) ==
	    !rx_argon2_impl_available(RX_ARGON2_AVX2) &&
	    !(f & RANDOMX_FLAG_ARGON2_SSSE3) ==
	    !rx_argon2_impl_available(RX_ARGON2_SSSE3));
	check("randomx_dataset_item_count = (2 GiB + 33554368) / 64",
	    randomx_dataset_item_count() == 34078719UL);
	check("flag values as the reference's randomx.h",
	    RANDOMX_FLAG_LARGE_PAGES == 1 && RANDOMX_FLAG_HARD_AES == 2 &&
	    RANDOMX_FLAG_FULL_MEM == 4 && RANDOMX_FLAG_JIT == 8 &&
	    RANDOMX_FLAG_SECURE == 16 && RANDOMX_FLAG_ARGON2_SSSE3 == 32 &&
	    RANDOMX_FLAG_ARGON2_AVX2 == 64 && RANDOMX_FLAG_ARGON2 == 96 &&
	    RANDOMX_FLAG_V2 == 128 && RANDOMX_HASH_SIZE == 32 &&
	    RANDOMX_DATASET_ITEM_SIZE == 64);

	c = randomx_alloc_cache(RANDOMX_FLAG_JIT);
	check(RX_HAVE_JIT ? "randomx_alloc_cache(JIT): a cache" :
	    "randomx_alloc_cache(JIT): NULL, as without a JIT",
	    !c == !RX_HAVE_JIT);
	randomx_release_cache(c);
	/* Bits no version defines are ignored, as by the reference. */
	c = randomx_alloc_cache((randomx_flags)256);
	check("randomx_alloc_cache(unknown flag 256): a cache", c != NULL);
	randomx_release_cache(c);
	c = randomx_alloc_cache(RANDOMX_FLAG_ARGON2_AVX2);
	check("randomx_alloc_cache(ARGON2_AVX2) exactly where it runs",
	    !c == !rx_argon2_impl_available(RX_ARGON2_AVX2));
	randomx_release_cache(c);
	c = randomx_alloc_cache(RANDOMX_FLAG_ARGON2_SSSE3);
	check("randomx_alloc_cache(ARGON2_SSSE3) exactly where it runs",
	    !c == !rx_argon2_impl_available(RX_ARGON2_SSSE3));
	randomx_release_cache(c);
	c = randomx_alloc_cache(RANDOMX_FLAG_DEFAULT);
	check("an uninitialized cache: no light VM",
	    c && randomx_create_vm(RANDOMX_FLAG_DEFAULT, c, NULL) == NULL);
	check("randomx_get_cache_memory: the cache's buffer",
	    c && randomx_get_cache_memory(c) != NULL);
	randomx_release_cache(c);

	vm = randomx_create_vm(RANDOMX_FLAG_JIT, cache0, NULL);
	check(RX_HAVE_JIT ? "randomx_create_vm(JIT): a VM" :
	    "randomx_create_vm(JIT): NULL, as without a JIT",
	    !vm == !RX_HAVE_JIT);
	randomx_destroy_vm(vm);
	vm = randomx_create_vm((randomx_flags)512, cache0, NULL);
	check("randomx_create_vm(unknown flag 512): a VM", vm != NULL);
	randomx_destroy_vm(vm);
	check("randomx_create_vm: light mode with a NULL cache: NULL",
	    randomx_create_vm(RANDOMX_FLAG_DEFAULT, NULL, NULL) == NULL);
	check("randomx_create_vm: full mode with a NULL dataset: NULL",
	    randomx_create_vm(RANDOMX_FLAG_FULL_MEM, cache0, NULL) == NULL);
	vm = randomx_create_vm(RANDOMX_FLAG_HARD_AES, cache0, NULL);
	check("randomx_create_vm(HARD_AES) exactly where AES-NI runs",
	    !vm == !rx_aes_hard());
	randomx_destroy_vm(vm);
	vm = randomx_create_vm(RANDOMX_FLAG_SECURE | RANDOMX_FLAG_ARGON2,
	    cache0, NULL);
	check("randomx_create_vm ignores SECURE and the Argon2 flags",
	    vm != NULL);
	randomx_destroy_vm(vm);

	if (huge < 0) {
		skip("large pages: /proc/meminfo unreadable");
	} else if (huge == 0 || !huge_page_mappable()) {
		if (huge > 0)
			printf("%ld huge pages free, but MAP_HUGETLB is "
			    "refused here (qemu-user?)\n", huge);
		check("no usable huge pages: randomx_create_vm(LARGE_PAGES) "
		    "NULL", randomx_create_vm(RANDOMX_FLAG_LARGE_PAGES,
		    cache0, NULL) == NULL);
		check("no usable huge pages: randomx_alloc_cache(LARGE_PAGES) "
		    "NULL", randomx_alloc_cache(RANDOMX_FLAG_LARGE_PAGES) ==
		    NULL);
		check("no usable huge pages: randomx_alloc_dataset("
		    "LARGE_PAGES) NULL",
		    randomx_alloc_dataset(RANDOMX_FLAG_LARGE_PAGES) == NULL);
	} else {
		vm = randomx_create_vm(RANDOMX_FLAG_LARGE_PAGES, cache0, NULL);
		check("free huge pages: randomx_create_vm(LARGE_PAGES) works",
		    vm != NULL);
		randomx_destroy_vm(vm);
	}
}

static void test_misuse(randomx_cache *c1)
{
	randomx_vm *vm = vm_of(hard_aes_flag(), c1), *full;
	uint8_t h[32], in[128];
	size_t len;

	randomx_release_cache(NULL);
	randomx_release_dataset(NULL);
	randomx_destroy_vm(NULL);
	randomx_init_cache(NULL, "x", 1);
	randomx_vm_set_cache(NULL, cache0);
	randomx_vm_set_cache(vm, NULL);
	randomx_vm_set_dataset(NULL, NULL);
	randomx_vm_set_dataset(vm, NULL);
	check("NULL objects: get_*_memory give NULL",
	    randomx_get_cache_memory(NULL) == NULL &&
	    randomx_get_dataset_memory(NULL) == NULL);
	randomx_calculate_hash(NULL, "x", 1, h);
	randomx_calculate_hash(vm, "x", 1, NULL);
	randomx_calculate_hash_first(NULL, "x", 1);
	randomx_calculate_hash_next(NULL, "x", 1, h);
	randomx_calculate_hash_last(NULL, h);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, NULL, 5, h);
	check("hash of NULL with a length: all 0xff", all_ff_bytes(h, 32));
	memset(h, 0, sizeof(h));
	randomx_calculate_commitment(NULL, 5, h, h);
	check("commitment of NULL with a length: all 0xff", all_ff_bytes(h, 32));
	memset(h, 0, sizeof(h));
	randomx_calculate_commitment("x", 1, NULL, h);
	check("commitment of a NULL hash: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_commitment("x", 1, h, NULL);

	/* _next and _last with nothing started; a bad input in the chain */
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("hash_last with no hash started: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_first(vm, NULL, 3);
	len = published_in(3, in);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_next(vm, in, len, h);
	check("hash_next after a bad first input: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_next(vm, NULL, 9, h);
	check("... and the chain goes on: the next input's hash",
	    equals_hex(h, published_v1[3]));
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("hash_last after a bad next input: all 0xff", all_ff_bytes(h, 32));

	/* a cache made uninitialized: its VMs give 0xff, set_cache refuses */
	randomx_init_cache(c1, NULL, 4);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, "x", 1, h);
	check("light VM on an uninitialized cache: all 0xff", all_ff_bytes(h, 32));
	randomx_calculate_hash_first(vm, "x", 1);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash_last(vm, h);
	check("batch on an uninitialized cache: all 0xff", all_ff_bytes(h, 32));
	check("no new light VM on an uninitialized cache",
	    randomx_create_vm(RANDOMX_FLAG_DEFAULT, c1, NULL) == NULL);
	full = randomx_create_vm(RANDOMX_FLAG_FULL_MEM, c1, NULL);
	check("full mode does not take a cache for a dataset", full == NULL);
	randomx_vm_set_cache(vm, c1);
	randomx_vm_set_cache(vm, cache0);
	len = published_in(0, in);
	randomx_calculate_hash_first(vm, in, len);
	randomx_calculate_hash_last(vm, h);
	check("randomx_vm_set_cache to an initialized cache: hashes again",
	    equals_hex(h, published_v1[0]));
	randomx_destroy_vm(vm);
}

/*
 * A key over 4 GiB: the reference gives Argon2d the key's length as 32
 * bits, so of 2^32 + 1 zero bytes it hashes one, and the generator takes
 * the first 60.  The answer is the reference's (tevador/RandomX's
 * randomx_init_cache and randomx_calculate_hash, interpreted light mode,
 * on that key and "input").  Untouched anonymous pages serve as the key:
 * only its first 60 bytes are read.
 */
static void test_long_key(randomx_cache *c)
{
#if SIZE_MAX > UINT32_MAX
	const size_t n = ((size_t)1 << 32) + 1;
	void *key = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	randomx_vm *vm;
	uint8_t h[32];

	if (key == MAP_FAILED) {
		check("a key of 2^32 + 1 bytes: no address space for it", 0);
		return;
	}
	randomx_init_cache(c, key, n);
	vm = vm_of(hard_aes_flag(), c);
	memset(h, 0, sizeof(h));
	randomx_calculate_hash(vm, "input", 5, h);
	check("a key of 2^32 + 1 zero bytes: the reference's hash",
	    equals_hex(h, "260e7d7e0bbf49515109624c942c37f8"
	    "3b57fa0f782c7dacbedc2466fe6ae1fa"));
	randomx_destroy_vm(vm);
	munmap(key, n);
#else
	(void)c;
	skip("a key over 4 GiB: size_t has 32 bits here");
#endif
}

/*
 * The bytes the process has mapped, from /proc/self/maps (Linux; which
 * qemu-user shows as the guest's, unlike /proc/self/statm), or -1.
 */
static long long mapped_bytes(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long start, end, sum = 0;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &start, &end) == 2)
			sum += end - start;
	fclose(f);
	return (long long)sum;
}

/*
 * Releasing gives the memory back: allocating and releasing caches,
 * datasets and VMs (mmap'ed, where valgrind does not look) one at a time,
 * three times, leaves the process's mappings as they were.  Where the
 * address space has no room for a second dataset (32-bit systems), that
 * part is skipped.
 */
static void test_memory_released(void)
{
	long long before = mapped_bytes(), after;
	int i, no_dataset = 0;

	if (before < 0) {
		skip("memory released: /proc/self/maps unreadable");
		return;
	}
	for (i = 0; i < 3; i++) {
		randomx_cache *c = randomx_alloc_cache(RANDOMX_FLAG_DEFAULT);
		randomx_dataset *d;
		randomx_vm *vm;

		check("cache allocated", c != NULL);
		randomx_release_cache(c);
		vm = randomx_create_vm(RANDOMX_FLAG_DEFAULT, cache0, NULL);
		check("light VM created", vm != NULL);
		randomx_destroy_vm(vm);
		d = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
		if (!d) {
			no_dataset = 1;
			continue;
		}
		vm = randomx_create_vm(RANDOMX_FLAG_FULL_MEM, NULL, d);
		check("full-mode VM created", vm != NULL);
		randomx_destroy_vm(vm);
		randomx_release_dataset(d);
	}
	if (no_dataset)
		skip("memory released: no room for a second dataset");
	after = mapped_bytes();
	check("release and destroy give the memory back (mappings)",
	    after >= 0 && after - before < (8 << 20));
}
