/*
 * shares_driver.c: the C side of bench_shares.py.  The benchmark compiles
 * this into a shared object and loads it into its own process, so that C
 * and Python verify the same shares with the same library, the same
 * cache or dataset, in the same process, in alternating runs.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "randomx/randomx.h"
#include "yespower.h"

typedef struct {
	randomx_vm *vm;				/* RandomX, or NULL */
	const yespower_preset_t *preset;	/* or yespower */
	const uint8_t *inputs;
	size_t len, first, count;
	uint8_t *out;
	int failed;
} slice;

static void *hash_slice(void *p)
{
	slice *s = p;
	size_t i;

	for (i = s->first; i < s->first + s->count; i++) {
		const uint8_t *in = s->inputs + i * s->len;
		uint8_t *out = s->out + i * 32;

		if (s->vm)
			randomx_calculate_hash(s->vm, in, s->len, out);
		else if (yespower_preset_hash(s->preset, in, s->len,
		    (yespower_binary_t *)out))
			s->failed = 1;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * shares_run(vms, preset, inputs, len, count, threads, out):
 * Hash inputs[i * len .. (i + 1) * len - 1] into out[i * 32 ..] for i
 * from 0 to count - 1, in `threads` contiguous slices, thread t with
 * vms[t] (RandomX) or, with vms NULL, the yespower preset named preset.
 * Returns the seconds from the first thread's start to the last one's
 * end, or -1 if a thread or a hash failed.  At most 64 threads.
 */
double shares_run(void **vms, const char *preset, const uint8_t *inputs,
    size_t len, size_t count, int threads, uint8_t *out)
{
	pthread_t tid[64];
	slice s[64];
	const yespower_preset_t *p = NULL;
	size_t per;
	double t0, t1;
	int t, failed = 0;

	if (threads < 1 || threads > 64)
		return -1;
	if (!vms && !(p = yespower_preset_find(preset)))
		return -1;
	per = count / (size_t)threads;
	for (t = 0; t < threads; t++) {
		s[t].vm = vms ? vms[t] : NULL;
		s[t].preset = p;
		s[t].inputs = inputs;
		s[t].len = len;
		s[t].first = per * (size_t)t;
		s[t].count = t == threads - 1 ? count - s[t].first : per;
		s[t].out = out;
		s[t].failed = 0;
	}
	t0 = now();
	for (t = 1; t < threads; t++)
		if (pthread_create(&tid[t], NULL, hash_slice, &s[t]))
			return -1;
	hash_slice(&s[0]);
	for (t = 1; t < threads; t++)
		pthread_join(tid[t], NULL);
	t1 = now();
	for (t = 0; t < threads; t++)
		failed |= s[t].failed;
	return failed ? -1 : t1 - t0;
}
