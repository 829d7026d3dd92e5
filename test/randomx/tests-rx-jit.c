/*
 * tests-rx-jit.c: the RandomX JIT compilers (x86-64, AArch64) against the
 * interpreter, which is the executable specification, and against the
 * published known answers.
 *
 * - Programs: random programs run through both (rx-jit-diff.c), the
 *   register file, the rounding mode and the scratchpad compared after
 *   each: programs as the generator makes them, and programs where one
 *   instruction makes up 40% (each of the 29 in turn, so that each is
 *   compiled thousands of times in every context), with edge immediates,
 *   CFROUND often (every rounding mode, v2's rule), CBRANCH often (jumps
 *   over jumps, every condition bit); v1 and v2, AES-NI and software AES
 *   (v2 mixes F with E through AES), starting in each rounding mode, with
 *   and without BMI2.  Full mode on a dataset of zero pages, light mode on
 *   a real cache with the SuperscalarHash programs of several keys.
 * - SuperscalarHash: items computed by the compiled routines (scalar and
 *   AVX2, batches of any size, ranges of any start and length) against
 *   rx_dataset_item, for many keys.
 * - The public API with RANDOMX_FLAG_JIT: the reference's published hashes
 *   (tests.cpp, v1 and v2, light mode; full mode on the items a light hash
 *   reads), the batch functions, RANDOMX_FLAG_SECURE, a JIT VM on a cache
 *   without JIT, a cache initialized again; JIT against interpreter on
 *   random inputs.  W^X: the code pages of a secure VM are never
 *   writable and executable at once.
 * - RANDOMX_TEST_FULL=1: the whole dataset built by the compiled
 *   SuperscalarHash (sampled against rx_dataset_item), and the published
 *   hashes through JIT and interpreter VMs on it.
 *
 * Usage: tests-rx-jit [--many N] (N times as many random programs).
 * Elsewhere than on x86-64 and aarch64 Linux everything is skipped, and
 * said.  On AArch64 the x86 feature limits (BMI2, AVX2) change nothing.
 */
#define _GNU_SOURCE 1

#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cpu-features.h"
#include "randomx/aes.h"
#include "randomx/blake2-generator.h"
#include "randomx/dataset.h"
#include "randomx/jit.h"
#include "randomx/program.h"
#include "randomx/randomx.h"
#include "randomx/vm.h"
#include "test/randomx/rx-jit-diff.h"
#include "tools/util.h"

#define RX_TEST_NAME "tests-rx-jit"
#include "rx-tests.h"

#if RX_HAVE_JIT

#include "rx-published.h"

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rng64(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rng64() >> 24);
}

static int equals_hex(const void *p, const char *hex)
{
	uint8_t want[64];
	long n = from_hex(hex, want, sizeof(want));

	return n >= 0 && memcmp(p, want, (size_t)n) == 0;
}

/* ---- random programs ---- */

/*
 * The opcode ranges of the specification's instructions, in the order of
 * its tables (and of RX_FREQ_*): class k owns opcodes first[k] ..
 * first[k] + freq[k] - 1.
 */
static unsigned class_opcode(int k)
{
	unsigned first = 0;
	int i;

	for (i = 0; i < k; i++)
		first += freq[i];
	return first + (unsigned)(rng64() % freq[k]);
}

/* Immediates where encodings change: sign, 8/32-bit limits, no-ops. */
static uint32_t edge_imm(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 7, 8, 63, 64, 127, 128, 255, 256, 0x7fffffff,
		0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0xffffff80,
		0xffffff7f, 0x40000000, 1u << 20, 0x3ff8, 0x3fff8, 0x1ffff8
	};

	return v[rng64() % (sizeof(v) / sizeof(v[0]))];
}

/*
 * A program: random configuration and instruction words, the opcode of
 * `pct` percent of them from class `focus` (none if focus < 0), some
 * immediates from edge_imm; with few_dst, CBRANCH and CFROUND programs
 * use fewer registers so that conditions chain.
 */
static void make_program(uint8_t *p, int v2, int focus, unsigned pct)
{
	unsigned size = rx_program_size(v2), i;

	fill_random(p, RX_PROGRAM_BYTES(size));
	for (i = 0; i < size; i++) {
		uint8_t *w = p + RX_PROGRAM_CONFIG_BYTES + 8 * i;

		if (focus >= 0 && rng64() % 100 < pct)
			w[0] = (uint8_t)class_opcode(focus);
		if (rng64() % 8 == 0) {
			uint32_t imm = edge_imm();

			memcpy(w + 4, &imm, 4);
		}
		if (focus == I_CBRANCH && rng64() % 2)
			w[1] &= 0xf9;	/* r0 or r1: conditions on one chain */
	}
}

static uint8_t *sp_init, *sp_a, *sp_b;
static uint8_t *zero_dataset;
static const rx_aes_impl *aes_hard;

/* One program both ways; reports and returns whether it agreed. */
static int diff_one(rx_jit_diff *d, const uint8_t *prog, int v2,
    const rx_aes_impl *aes, unsigned fprc, const char *label)
{
	int rc = rx_jit_diff_run(d, prog, v2, aes, fprc, sp_init);

	if (rc) {
		char what[320];

		snprintf(what, sizeof(what), "%s, v%d, %s AES, fprc %u: %s",
		    label, v2 + 1, aes->name, fprc, d->what);
		check(what, 0);
	}
	return rc == 0;
}

/* Fresh scratchpad contents, as a hash would start them. */
static void new_scratchpad(const rx_aes_impl *aes)
{
	uint8_t seed[64];

	fill_random(seed, sizeof(seed));
	aes->fill1r(seed, sp_init, RX_SCRATCHPAD_L3);
}

static void test_programs_full(rx_jit_diff *d, int many)
{
	static uint8_t prog[RX_PROGRAM_MAX_BYTES];
	const rx_aes_impl *aes[2] = { &rx_aes_soft, aes_hard };
	/*
	 * Every feature; without AVX-512 (v1's rounding modes through MXCSR
	 * rather than as four copies of the program, where the CPU has it);
	 * without BMI2 either.
	 */
	static const unsigned limit[3] = {
		~0u, ~(unsigned)POW_CPU_AVX512F,
		~(unsigned)(POW_CPU_AVX512F | POW_CPU_BMI2)
	};
	static const char *const limit_name[3] = {
		"", ", no AVX-512", ", no AVX-512 or BMI2"
	};
	char label[96];
	int v2, k, i, ok, n, bmi2, lim;

	d->dataset = zero_dataset;
	d->cache = NULL;
	d->ss = NULL;
	for (lim = 0; lim < 3; lim++) {
		bmi2 = lim < 2;
		rx_jit_limit_features(limit[lim]);
		for (v2 = 0; v2 < 2; v2++) {
			/* the generator's own mix of instructions */
			ok = 1;
			n = (bmi2 ? 40 : 8) * many;
			for (i = 0; i < n; i++) {
				const rx_aes_impl *a = aes[(i & 1) && aes_hard];

				if (i % 8 == 0)
					new_scratchpad(a);
				make_program(prog, v2, -1, 0);
				ok &= diff_one(d, prog, v2, a, (unsigned)i & 3,
				    "random program");
			}
			snprintf(label, sizeof(label), "full mode, v%d%s: %d "
			    "random programs, JIT = interpreter", v2 + 1,
			    limit_name[lim], n);
			check(label, ok);
			/* each instruction in turn, 40% of the program */
			for (k = 0; k < I_COUNT; k++) {
				ok = 1;
				n = (bmi2 ? 3 : 1) * many;
				for (i = 0; i < n; i++) {
					const rx_aes_impl *a =
					    aes[(i & 1) && aes_hard];

					new_scratchpad(a);
					make_program(prog, v2, k, 40);
					ok &= diff_one(d, prog, v2, a,
					    (unsigned)(i + k) & 3, insn_name[k]);
				}
				snprintf(label, sizeof(label), "full mode, v%d%s: "
				    "%s-heavy programs", v2 + 1,
				    limit_name[lim], insn_name[k]);
				check(label, ok);
			}
		}
	}
	rx_jit_limit_features(~0u);
}

/* The SuperscalarHash programs of key on the memory of cache c. */
static void cache_with_key(rx_cache_state *out, const rx_cache_state *c,
    const char *key)
{
	rx_blake2_generator gen;
	int i;

	out->memory = c->memory;
	rx_blake2_generator_init(&gen, key, strlen(key), 0);
	for (i = 0; i < RX_CACHE_ACCESSES; i++)
		rx_superscalar_generate(&out->programs[i], &gen);
}

static rx_cache_state keyed[4];
static const char *const keys[4] = {
	"test key 000", "test key 001", "jit key \x01\x02", ""
};

static void test_programs_light(rx_jit_diff *d, const rx_cache_state *c0,
    int many)
{
	static uint8_t prog[RX_PROGRAM_MAX_BYTES];
	char label[128];
	int v2, k, i, ok, interp_items;

	d->dataset = NULL;
	for (k = 0; k < 4; k++) {
		rx_ss_jit *ss = rx_ss_jit_new(0);

		cache_with_key(&keyed[k], c0, keys[k]);
		if (!ss || rx_ss_jit_compile(ss, &keyed[k])) {
			check("light mode: SuperscalarHash compiled", 0);
			rx_ss_jit_free(ss);
			continue;
		}
		for (interp_items = 0; interp_items < 2; interp_items++)
			for (v2 = 0; v2 < 2; v2++) {
				ok = 1;
				d->cache = &keyed[k];
				d->ss = interp_items ? NULL : ss;
				for (i = 0; i < many; i++) {
					const rx_aes_impl *a = (i & 1) && aes_hard ?
					    aes_hard : &rx_aes_soft;

					new_scratchpad(a);
					make_program(prog, v2, i % 3 ? -1 :
					    I_CFROUND, 20);
					ok &= diff_one(d, prog, v2, a,
					    (unsigned)i & 3, "light program");
				}
				snprintf(label, sizeof(label), "light mode, v%d, "
				    "key %d, items %s: %d programs, JIT = "
				    "interpreter", v2 + 1, k, interp_items ?
				    "interpreted" : "compiled", many);
				check(label, ok);
			}
		rx_ss_jit_free(ss);
	}
}

/* ---- SuperscalarHash ---- */

static void test_superscalar(const rx_cache_state *c0)
{
	uint8_t *got = xalloc(64 * 4096), want[64];
	uint64_t items[RX_SS_JIT_MAX_BATCH];
	char label[128];
	int k, t, avx2, ok;
	size_t n, i;

	for (avx2 = 1; avx2 >= 0; avx2--) {
		if (avx2 && !(pow_cpu_features() & POW_CPU_AVX2)) {
			skip("AVX2 SuperscalarHash: no AVX2 here");
			continue;
		}
		rx_jit_limit_features(avx2 ? ~0u : ~(unsigned)POW_CPU_AVX2);
		for (k = 0; k < 12; k++) {
			rx_cache_state st;
			char key[32];
			rx_ss_jit *ss = rx_ss_jit_new(k & 1);

			snprintf(key, sizeof(key), "superscalar key %d", k);
			cache_with_key(&st, c0, key);
			if (!ss || rx_ss_jit_compile(ss, &st)) {
				check("SuperscalarHash compiled", 0);
				rx_ss_jit_free(ss);
				continue;
			}
			ok = 1;
			/* batches of every size of random item numbers */
			for (t = 0; t < 40; t++) {
				n = 1 + (size_t)t % RX_SS_JIT_MAX_BATCH;
				for (i = 0; i < n; i++)
					items[i] = t % 5 ? rng64() %
					    RX_DATASET_ITEMS : rng64();
				rx_ss_jit_items(ss, st.memory, items, n, got);
				for (i = 0; i < n; i++) {
					rx_dataset_item(&st, items[i], want);
					ok &= !memcmp(got + 64 * i, want, 64);
				}
			}
			/* ranges of any start and length */
			for (t = 0; t < 6; t++) {
				uint64_t start = rng64() % (RX_DATASET_ITEMS -
				    4096);
				size_t len = t == 0 ? 4096 : 1 + (size_t)(rng64() %
				    300);

				rx_ss_jit_dataset_init(ss, &st, got - 64 * start,
				    start, len);
				for (i = 0; i < len; i++) {
					rx_dataset_item(&st, start + i, want);
					ok &= !memcmp(got + 64 * i, want, 64);
				}
			}
			snprintf(label, sizeof(label), "SuperscalarHash JIT%s, "
			    "key %d%s: items = rx_dataset_item", avx2 ?
			    " (AVX2 dataset)" : "", k, k & 1 ? ", W^X" : "");
			check(label, ok);
			rx_ss_jit_free(ss);
		}
	}
	rx_jit_limit_features(~0u);
	free(got);
}

/* ---- W^X ---- */

/* The permissions ("rwxp"...) of the mapping holding p, or "" if none. */
static void perms_of(const void *p, char out[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi, a = (unsigned long long)(uintptr_t)p;
	char line[512], perm[8];

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perm) == 3 &&
		    a >= lo && a < hi) {
			memcpy(out, perm, 4);
			out[4] = 0;
			break;
		}
	fclose(f);
}

static void test_wx(rx_jit_diff *d)
{
	static uint8_t prog[RX_PROGRAM_MAX_BYTES];
	rx_jit_vm *secure = rx_jit_vm_new(1), *saved = d->jit;
	char perm[5];
	int i, ok;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		skip("W^X: /proc/self/maps unreadable");
		rx_jit_vm_free(secure);
		return;
	}
	fclose(f);
	if (!secure) {
		check("a secure JIT VM", 0);
		return;
	}
	perms_of(rx_jit_vm_code(secure), perm);
	check("secure JIT: code pages writable, not executable, before "
	    "compiling", !strcmp(perm, "rw-p"));
	d->jit = secure;
	d->dataset = zero_dataset;
	new_scratchpad(&rx_aes_soft);
	make_program(prog, 1, -1, 0);
	check("secure JIT: same results", diff_one(d, prog, 1, &rx_aes_soft,
	    0, "secure JIT"));
	perms_of(rx_jit_vm_code(secure), perm);
	check("secure JIT: code pages executable, not writable, after "
	    "compiling", !strcmp(perm, "r-xp"));
	/* the same code pages rewritten program after program: every result
	 * right, the pages never writable and executable at once */
	ok = 1;
	for (i = 0; i < 16; i++) {
		int v2 = i & 1;

		make_program(prog, v2, -1, 0);
		ok &= diff_one(d, prog, v2, &rx_aes_soft, (unsigned)i & 3,
		    "secure JIT, rewritten");
		perms_of(rx_jit_vm_code(secure), perm);
		ok &= !strcmp(perm, "r-xp");
	}
	check("secure JIT: 16 programs rewritten in turn, each right and "
	    "its pages r-x", ok);
	d->jit = saved;
	rx_jit_vm_free(secure);
	/* without SECURE (d->jit, which every other test here compiles
	 * with): where the code runs is never writable */
	ok = 1;
	for (i = 0; i < 4; i++) {
		make_program(prog, i & 1, -1, 0);
		ok &= diff_one(d, prog, i & 1, &rx_aes_soft, 0, "JIT");
		perms_of(rx_jit_vm_code(d->jit), perm);
		ok &= perm[0] && perm[1] == '-' && perm[2] == 'x';
	}
	printf("tests-rx-jit: the JIT's code pages without SECURE: %s\n",
	    perm);
	check("JIT without SECURE: its code runs from pages that are "
	    "executable, not writable", ok);
}

/* ---- the public API ---- */

static randomx_flags hard(void)
{
	return aes_hard ? RANDOMX_FLAG_HARD_AES : RANDOMX_FLAG_DEFAULT;
}

static randomx_vm *vm_of(randomx_flags f, randomx_cache *c,
    randomx_dataset *ds)
{
	randomx_vm *vm = randomx_create_vm(f, c, ds);

	if (!vm) {
		fprintf(stderr, "tests-rx-jit: randomx_create_vm(%d) failed\n",
		    (int)f);
		exit(2);
	}
	return vm;
}

static item_list traced[2];

/*
 * The published hashes: key "test key 000" for inputs a-c, "test key 001"
 * for d and e (c1); each flag combination in turn.
 */
static void test_published(randomx_cache *c0, randomx_cache *c1)
{
	static const randomx_flags variants[4] = {
		RANDOMX_FLAG_JIT, RANDOMX_FLAG_JIT | RANDOMX_FLAG_SECURE,
		RANDOMX_FLAG_JIT | RANDOMX_FLAG_HARD_AES,
		RANDOMX_FLAG_JIT | RANDOMX_FLAG_HARD_AES | RANDOMX_FLAG_SECURE
	};
	uint8_t in[128], h[32];
	char label[128];
	int v, i, ok, var;

	for (var = 0; var < 4; var++) {
		randomx_flags f = variants[var];

		if ((f & RANDOMX_FLAG_HARD_AES) && !aes_hard) {
			skip("JIT with AES-NI: no AES-NI here");
			continue;
		}
		for (v = 0; v < 2; v++) {
			randomx_vm *vm = vm_of(f | (v ? RANDOMX_FLAG_V2 :
			    RANDOMX_FLAG_DEFAULT), c0, NULL);

			ok = 1;
			for (i = 0; i < 5; i++) {
				size_t len = published_in(i, in);

				if (i == 3)
					randomx_vm_set_cache(vm, c1);
				/* test_full_traced runs with these flags */
				if (i == 0 && f == (RANDOMX_FLAG_JIT | hard()))
					rx_vm_set_item_trace(vm, record_item,
					    &traced[v]);
				randomx_calculate_hash(vm, in, len, h);
				rx_vm_set_item_trace(vm, NULL, NULL);
				ok &= equals_hex(h, v ? published_v2[i] :
				    published_v1[i]);
			}
			snprintf(label, sizeof(label), "JIT light mode, v%d%s%s: "
			    "tests.cpp's 5 hashes", v + 1, f &
			    RANDOMX_FLAG_HARD_AES ? ", AES-NI" : ", soft AES",
			    f & RANDOMX_FLAG_SECURE ? ", SECURE" : "");
			check(label, ok);
			randomx_destroy_vm(vm);
		}
	}
}

/* _first / _next / _last with the JIT. */
static void test_batch(randomx_cache *c0)
{
	int v;

	for (v = 0; v < 2; v++) {
		randomx_vm *vm = vm_of(hard() | RANDOMX_FLAG_JIT |
		    (v ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT), c0, NULL);
		const char *const *want = v ? published_v2 : published_v1;
		uint8_t h1[32], h2[32], h3[32];
		int mode_kept;

		fesetround(FE_UPWARD);
		randomx_calculate_hash_first(vm, published_input[0],
		    strlen(published_input[0]));
		randomx_calculate_hash_next(vm, published_input[1],
		    strlen(published_input[1]), h1);
		randomx_calculate_hash_next(vm, published_input[2],
		    strlen(published_input[2]), h2);
		randomx_calculate_hash_last(vm, h3);
		mode_kept = fegetround() == FE_UPWARD;
		fesetround(FE_TONEAREST);
		check(v ? "JIT batch: tests.cpp's answers, v2; caller's "
		    "rounding mode kept" : "JIT batch: tests.cpp's answers, "
		    "v1; caller's rounding mode kept", mode_kept &&
		    equals_hex(h1, want[0]) && equals_hex(h2, want[1]) &&
		    equals_hex(h3, want[2]));
		randomx_destroy_vm(vm);
	}
}

/*
 * A JIT VM on a cache allocated without RANDOMX_FLAG_JIT compiles its
 * own SuperscalarHash; a cache initialized with another key (and set
 * again) is followed, and so is a new cache where a released one was.
 */
static void test_own_superscalar(randomx_cache *c0)
{
	randomx_flags argon = randomx_get_flags() & RANDOMX_FLAG_ARGON2;
	randomx_cache *plain = randomx_alloc_cache(argon);
	randomx_vm *vm;
	uint8_t in[128], h[32];
	uintptr_t was;
	size_t len;

	if (!plain) {
		check("a cache without JIT", 0);
		return;
	}
	randomx_init_cache(plain, "test key 001", 12);
	vm = vm_of(RANDOMX_FLAG_JIT | hard(), plain, NULL);
	len = published_in(3, in);
	randomx_calculate_hash(vm, in, len, h);
	check("JIT VM, cache without JIT: tests.cpp hash 1d",
	    equals_hex(h, published_v1[3]));
	randomx_init_cache(plain, "test key 000", 12);
	randomx_vm_set_cache(vm, plain);
	len = published_in(0, in);
	randomx_calculate_hash(vm, in, len, h);
	check("... the cache initialized again with another key: 1a",
	    equals_hex(h, published_v1[0]));
	randomx_vm_set_cache(vm, c0);
	len = published_in(1, in);
	randomx_calculate_hash(vm, in, len, h);
	check("... set to a JIT cache: 1b", equals_hex(h, published_v1[1]));

	/*
	 * The VM's own programs are key 000's, made for plain after its
	 * second initialization.  plain released, a new cache (the allocator
	 * tends to hand back plain's address) initialized twice as plain
	 * was, the second time with key 001: the VM must compile again.
	 */
	was = (uintptr_t)plain;
	randomx_release_cache(plain);
	plain = randomx_alloc_cache(argon);
	if (!plain) {
		check("a new cache without JIT", 0);
		randomx_destroy_vm(vm);
		return;
	}
	randomx_init_cache(plain, "test key 000", 12);
	randomx_init_cache(plain, "test key 001", 12);
	randomx_vm_set_cache(vm, plain);
	len = published_in(3, in);
	randomx_calculate_hash(vm, in, len, h);
	check((uintptr_t)plain == was ?
	    "... a new cache at the released one's address, key 001: 1d" :
	    "... a new cache (at another address), key 001: 1d",
	    equals_hex(h, published_v1[3]));
	printf("a new cache after a released one: %s address\n",
	    (uintptr_t)plain == was ? "the same" : "another");
	randomx_destroy_vm(vm);
	randomx_release_cache(plain);
}

/* JIT against interpreter VMs on random inputs (light mode). */
static void test_random_hashes(randomx_cache *c0, int many)
{
	int v, i, ok;

	for (v = 0; v < 2; v++) {
		randomx_flags f = hard() | (v ? RANDOMX_FLAG_V2 : 0);
		randomx_vm *jit = vm_of(f | RANDOMX_FLAG_JIT, c0, NULL);
		randomx_vm *interp = vm_of(f, c0, NULL);
		randomx_vm *sec = vm_of(f | RANDOMX_FLAG_JIT |
		    RANDOMX_FLAG_SECURE, c0, NULL);
		uint8_t in[200], a[32], b[32], c[32];

		ok = 1;
		for (i = 0; i < 2 * many; i++) {
			size_t len = (size_t)(rng64() % sizeof(in));

			fill_random(in, len);
			randomx_calculate_hash(jit, in, len, a);
			randomx_calculate_hash(interp, in, len, b);
			randomx_calculate_hash(sec, in, len, c);
			ok &= !memcmp(a, b, 32) && !memcmp(c, b, 32);
		}
		check(v ? "JIT (and SECURE) = interpreter on random inputs, v2" :
		    "JIT (and SECURE) = interpreter on random inputs, v1", ok);
		randomx_destroy_vm(sec);
		randomx_destroy_vm(jit);
		randomx_destroy_vm(interp);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Full mode on exactly the items a traced light hash read. */
static void test_full_traced(randomx_cache *c0)
{
	randomx_dataset *ds = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
	uint8_t h[32];
	size_t v, i;

	if (!ds) {
		check("dataset allocated (2080 MiB of address space)", 0);
		return;
	}
#ifdef MADV_NOHUGEPAGE
	madvise(randomx_get_dataset_memory(ds),
	    (size_t)randomx_dataset_item_count() * 64, MADV_NOHUGEPAGE);
#endif
	for (v = 0; v < 2; v++) {
		item_list *l = &traced[v];
		randomx_vm *vm;

		if (!l->n) {
			check("a traced light JIT hash", 0);
			continue;
		}
		check("a light JIT hash computes 16384 items",
		    l->n == (size_t)RX_PROGRAM_COUNT * RX_PROGRAM_ITERATIONS);
		qsort(l->items, l->n, sizeof(*l->items), cmp_u64);
		for (i = 0; i < l->n; i++)
			if (i == 0 || l->items[i] != l->items[i - 1])
				randomx_init_dataset(ds, c0,
				    (unsigned long)l->items[i], 1);
		vm = vm_of(hard() | RANDOMX_FLAG_JIT | RANDOMX_FLAG_FULL_MEM |
		    (v ? RANDOMX_FLAG_V2 : RANDOMX_FLAG_DEFAULT), NULL, ds);
		randomx_calculate_hash(vm, published_input[0],
		    strlen(published_input[0]), h);
		check(v ? "JIT full mode on the traced items: 1a, v2" :
		    "JIT full mode on the traced items: 1a, v1",
		    equals_hex(h, v ? published_v2[0] : published_v1[0]));
		randomx_destroy_vm(vm);
		free(l->items);
		l->items = NULL;
		l->n = l->cap = 0;
	}
	randomx_release_dataset(ds);
}

static void test_flags(randomx_cache *c0)
{
	randomx_vm *vm;

	check("randomx_get_flags reports RANDOMX_FLAG_JIT (x86-64, aarch64 Linux)",
	    (randomx_get_flags() & RANDOMX_FLAG_JIT) != 0);
	vm = randomx_create_vm(RANDOMX_FLAG_JIT, c0, NULL);
	check("randomx_create_vm(JIT): a VM", vm != NULL);
	randomx_destroy_vm(vm);
	vm = randomx_create_vm(RANDOMX_FLAG_JIT | RANDOMX_FLAG_FULL_MEM, c0,
	    NULL);
	check("randomx_create_vm(JIT, full mode, no dataset): NULL",
	    vm == NULL);
}

/* ---- the whole dataset ---- */

static void test_full_dataset(randomx_cache *c0)
{
	unsigned long n = randomx_dataset_item_count();
	int i, v, jit, ok;
	randomx_dataset *ds = randomx_alloc_dataset(RANDOMX_FLAG_DEFAULT);
	const rx_cache_state *cs = rx_cache_state_of(c0);
	uint8_t *mem, in[128], h[32], want[64];
	char label[128];

	if (!ds) {
		check("RANDOMX_TEST_FULL: dataset allocated", 0);
		return;
	}
	rx_build_dataset(ds, c0);
	mem = randomx_get_dataset_memory(ds);
	ok = 1;
	for (i = 0; i < 20000; i++) {
		unsigned long item = i < 10 ? n - 1 - (unsigned long)i :
		    (unsigned long)(rng64() % n);

		rx_dataset_item(cs, item, want);
		ok &= !memcmp(mem + 64 * (size_t)item, want, 64);
	}
	check("whole dataset by the JIT: 20000 items = rx_dataset_item", ok);
	for (jit = 0; jit < 2; jit++)
		for (v = 0; v < 2; v++) {
			randomx_vm *vm = vm_of(hard() | RANDOMX_FLAG_FULL_MEM |
			    (jit ? RANDOMX_FLAG_JIT : 0) | (v ? RANDOMX_FLAG_V2 :
			    RANDOMX_FLAG_DEFAULT), NULL, ds);

			ok = 1;
			for (i = 0; i < 3; i++) {
				size_t len = published_in(i, in);

				randomx_calculate_hash(vm, in, len, h);
				ok &= equals_hex(h, v ? published_v2[i] :
				    published_v1[i]);
			}
			snprintf(label, sizeof(label), "JIT-built dataset, %s "
			    "VM, v%d: tests.cpp 1a-1c", jit ? "JIT" :
			    "interpreter", v + 1);
			check(label, ok);
			randomx_destroy_vm(vm);
		}
	randomx_release_dataset(ds);
}

int main(int argc, char **argv)
{
	const char *full = getenv("RANDOMX_TEST_FULL");
	randomx_flags argon = randomx_get_flags() & RANDOMX_FLAG_ARGON2;
	randomx_cache *c0, *c1;
	rx_jit_diff d;
	int many = 1;

	if (argc == 3 && !strcmp(argv[1], "--many"))
		many = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
	aes_hard = rx_aes_hard();
	printf("v1 rounding modes: %s\n", rx_jit_rounding_copies(0) ?
	    "four copies with AVX-512 rounding, and MXCSR without AVX-512" :
	    "MXCSR (no AVX-512 copies on this CPU)");
	sp_init = xalloc(RX_SCRATCHPAD_L3);
	sp_a = xalloc(RX_SCRATCHPAD_L3);
	sp_b = xalloc(RX_SCRATCHPAD_L3);
	/* a dataset that reads as zeros: untouched anonymous pages */
	zero_dataset = mmap(NULL, (size_t)RX_DATASET_BYTES, PROT_READ,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (zero_dataset == MAP_FAILED) {
		fprintf(stderr, "tests-rx-jit: no address space for a "
		    "dataset\n");
		return 2;
	}
	memset(&d, 0, sizeof(d));
	d.sp_interp = sp_a;
	d.sp_jit = sp_b;
	d.jit = rx_jit_vm_new(0);
	c0 = randomx_alloc_cache(argon | RANDOMX_FLAG_JIT);
	c1 = randomx_alloc_cache(argon | RANDOMX_FLAG_JIT);
	if (!d.jit || !c0 || !c1) {
		fprintf(stderr, "tests-rx-jit: no memory for the JIT or two "
		    "caches\n");
		return 2;
	}
	randomx_init_cache(c0, "test key 000", 12);
	randomx_init_cache(c1, "test key 001", 12);

	test_programs_full(&d, many);
	test_programs_light(&d, rx_cache_state_of(c0), 2 * many);
	test_superscalar(rx_cache_state_of(c0));
	test_wx(&d);
	test_flags(c0);
	test_published(c0, c1);
	test_batch(c0);
	test_own_superscalar(c0);
	test_random_hashes(c0, many);
	test_full_traced(c0);
	if (full && !strcmp(full, "1"))
		test_full_dataset(c0);
	else
		skip("the whole dataset: set RANDOMX_TEST_FULL=1");

	rx_jit_vm_free(d.jit);
	randomx_release_cache(c0);
	randomx_release_cache(c1);
	munmap(zero_dataset, (size_t)RX_DATASET_BYTES);
	free(sp_init);
	free(sp_a);
	free(sp_b);
	return summary();
}

#else /* !RX_HAVE_JIT */

int main(void)
{
	skip("no JIT on this platform (x86-64 and aarch64 Linux only)");
	return summary();
}

#endif
