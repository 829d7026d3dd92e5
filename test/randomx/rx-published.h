/*
 * rx-published.h: the specification's instruction table (names and
 * frequencies), the reference's published hashes (tests.cpp: five
 * inputs, v1 and v2) and a list that records the dataset items a light
 * hash computes, and the whole dataset built on threads, for tests-rx-vm
 * and tests-rx-jit.  Include after rx-tests.h and randomx/randomx.h.
 */
#ifndef RX_PUBLISHED_H
#define RX_PUBLISHED_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "randomx/program.h"

/* The specification's instructions in table order, and their shares. */
enum {
	I_IADD_RS, I_IADD_M, I_ISUB_R, I_ISUB_M, I_IMUL_R, I_IMUL_M,
	I_IMULH_R, I_IMULH_M, I_ISMULH_R, I_ISMULH_M, I_IMUL_RCP, I_INEG_R,
	I_IXOR_R, I_IXOR_M, I_IROR_R, I_IROL_R, I_ISWAP_R, I_FSWAP_R,
	I_FADD_R, I_FADD_M, I_FSUB_R, I_FSUB_M, I_FSCAL_R, I_FMUL_R,
	I_FDIV_M, I_FSQRT_R, I_CBRANCH, I_CFROUND, I_ISTORE, I_COUNT
};

static const unsigned freq[I_COUNT] = {
	RX_FREQ_IADD_RS, RX_FREQ_IADD_M, RX_FREQ_ISUB_R, RX_FREQ_ISUB_M,
	RX_FREQ_IMUL_R, RX_FREQ_IMUL_M, RX_FREQ_IMULH_R, RX_FREQ_IMULH_M,
	RX_FREQ_ISMULH_R, RX_FREQ_ISMULH_M, RX_FREQ_IMUL_RCP, RX_FREQ_INEG_R,
	RX_FREQ_IXOR_R, RX_FREQ_IXOR_M, RX_FREQ_IROR_R, RX_FREQ_IROL_R,
	RX_FREQ_ISWAP_R, RX_FREQ_FSWAP_R, RX_FREQ_FADD_R, RX_FREQ_FADD_M,
	RX_FREQ_FSUB_R, RX_FREQ_FSUB_M, RX_FREQ_FSCAL_R, RX_FREQ_FMUL_R,
	RX_FREQ_FDIV_M, RX_FREQ_FSQRT_R, RX_FREQ_CBRANCH, RX_FREQ_CFROUND,
	RX_FREQ_ISTORE
};

/* Their names, in the same order. */
static const char *const insn_name[I_COUNT] = {
	"IADD_RS", "IADD_M", "ISUB_R", "ISUB_M", "IMUL_R", "IMUL_M",
	"IMULH_R", "IMULH_M", "ISMULH_R", "ISMULH_M", "IMUL_RCP", "INEG_R",
	"IXOR_R", "IXOR_M", "IROR_R", "IROL_R", "ISWAP_R", "FSWAP_R",
	"FADD_R", "FADD_M", "FSUB_R", "FSUB_M", "FSCAL_R", "FMUL_R",
	"FDIV_M", "FSQRT_R", "CBRANCH", "CFROUND", "ISTORE"
};

/* The items a light hash computes, for building them in a dataset. */
typedef struct {
	uint64_t *items;
	size_t n, cap;
} item_list;

static inline void record_item(void *ctx, uint64_t item)
{
	item_list *l = ctx;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16384;
		l->items = realloc(l->items, l->cap * sizeof(*l->items));
		if (!l->items) {
			fprintf(stderr, RX_TEST_NAME ": out of memory\n");
			exit(2);
		}
	}
	l->items[l->n++] = item;
}

static const char *const published_v1[5] = {
	"639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f",
	"300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969",
	"c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8",
	"e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc",
	"c56414121acda1713c2f2a819d8ae38aed7c80c35c2a769298d34f03833cd5f1"
};
static const char *const published_v2[5] = {
	"22ec6b861b3eb23686b2efbad69513c967ecfce80983df66c9c5b4fbfb4cdb6f",
	"9e2c772c12fd48f93c14c97fdc89d556264d9100597023f44d9163e279012ecf",
	"4d6b063a1a603751d525f18a171336a4002f2f06df6c17e4b25fe17e17796e42",
	"97024134686ce27d362ea8d86d8ef16483ac272abdabd46ef13359400777fe5e",
	"c8e92c5f7c1946fecf06bc382b92e3111da38ee3e6a5ad90704e1a9d8aaf6e76"
};
static const char *const published_input[5] = {
	"This is a test", "Lorem ipsum dolor sit amet",
	"sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
	"sed do eiusmod tempor incididunt ut labore et dolore magna aliqua",
	NULL
};
static const char input_e_hex[] =
	"0b0b98bea7e805e0010a2126d287a2a0cc833d312cb786385a7c2f9de69d25537f58"
	"4a9bc9977b00000000666fd8753bf61a8631f12984e3fd44f4014eca629276817b56"
	"f32e9b68bd82f416";

/* tests.cpp's input i (0 .. 4) into buf (128 bytes); its length. */
static inline size_t published_in(int i, uint8_t *buf)
{
	if (published_input[i]) {
		memcpy(buf, published_input[i], strlen(published_input[i]));
		return strlen(published_input[i]);
	}
	return (size_t)from_hex(input_e_hex, buf, 128);
}

typedef struct {
	randomx_dataset *ds;
	randomx_cache *c;
	unsigned long start, count;
} rx_init_job;

static inline void *rx_init_thread(void *p)
{
	rx_init_job *j = p;

	randomx_init_dataset(j->ds, j->c, j->start, j->count);
	return NULL;
}

/*
 * The whole of ds from cache c on RANDOMX_TEST_THREADS threads (default
 * 2, at most 64), in equal slices; a thread that cannot start has its
 * slice built here.
 */
static inline void rx_build_dataset(randomx_dataset *ds, randomx_cache *c)
{
	const char *e = getenv("RANDOMX_TEST_THREADS");
	unsigned long n = randomx_dataset_item_count(), per;
	int threads = e ? atoi(e) : 2, i;
	pthread_t tid[64];
	rx_init_job job[64];

	if (threads < 1 || threads > 64)
		threads = 2;
	per = n / (unsigned long)threads;
	for (i = 0; i < threads; i++) {
		job[i].ds = ds;
		job[i].c = c;
		job[i].start = per * (unsigned long)i;
		job[i].count = i == threads - 1 ? n - job[i].start : per;
		if (pthread_create(&tid[i], NULL, rx_init_thread, &job[i])) {
			rx_init_thread(&job[i]);
			tid[i] = 0;
		}
	}
	for (i = 0; i < threads; i++)
		if (tid[i])
			pthread_join(tid[i], NULL);
}

#endif /* !RX_PUBLISHED_H */
