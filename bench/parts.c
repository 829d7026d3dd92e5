/*
 * bench/parts.c: one part of a hash timed on its own, as the component
 * rows of `benchmark --components` (yespower, bench/components.c) and of
 * `benchmark --randomx --components` (bench/randomx.c) show it.
 */
#include <stdio.h>

#include "bench/bench.h"
#include "tools/timing.h"

/* Where each part's result goes, so that no call can be left out. */
static volatile uint32_t part_sink;

static double time_part(bench_part *p, uint64_t count)
{
	double t0 = util_now();

	part_sink ^= p->fn(p, count);
	return util_now() - t0;
}

/*
 * The calls per second of a part, from one call of count iterations
 * lasting about target seconds.  The cost of a call with count 0 (drivers
 * that map and fill their memory every time) is measured and subtracted.
 * count grows eightfold while a call is too short to scale from, then in
 * proportion; a timed call shorter than target / 2 (the scaling was
 * misled by a preemption) is scaled and timed again.
 */
void bench_part_measure(bench_part *p, double target)
{
	uint64_t count = 1, limit = (uint64_t)1 << 40;
	double overhead = 1e30, t = 0;
	int i;

	for (i = 0; i < 3; i++) {
		t = time_part(p, 0);
		if (t < overhead)
			overhead = t;
	}
	for (i = 0; i < 40 && !p->failed; i++) {
		t = time_part(p, count) - overhead;
		if (t >= target / 2 || count >= limit)
			break;
		if (t < target / 64)
			count *= 8;
		else
			count = (uint64_t)(count * (target / t)) + 1;
	}
	p->calls = count;
	p->seconds = t;
	p->rate = t > 0 ? count / t * p->per_call : 0;
}

/* A duration per call in a readable unit. */
static void print_per_call(double seconds)
{
	if (seconds < 1e-6)
		printf("%9.1f ns", seconds * 1e9);
	else if (seconds < 1e-3)
		printf("%9.2f us", seconds * 1e6);
	else
		printf("%9.3f ms", seconds * 1e3);
}

void bench_part_print(const bench_part *p)
{
	printf("  %-40s %12.*f %-9s", p->name, p->rate >= 1000 ? 0 : 2,
	    p->rate, p->unit);
	if (p->calls)
		print_per_call(p->seconds / p->calls);
	puts(p->failed ? "  FAILED" : "");
	fflush(stdout);
}

void bench_part_json(json_writer *j, const bench_part *p)
{
	json_open(j, NULL, '{');
	json_str(j, "name", p->name);
	json_num(j, "rate", p->rate);
	json_str(j, "unit", p->unit);
	if (p->calls)
		json_num(j, "ns_per_call", p->seconds / p->calls * 1e9);
	else
		json_str(j, "ns_per_call", NULL);
	json_int(j, "calls", (long long)p->calls);
	json_num(j, "seconds", p->seconds);
	json_bool(j, "part_of_hash", p->in_hash);
	json_bool(j, "failed", p->failed);
	json_close(j, '}');
}
