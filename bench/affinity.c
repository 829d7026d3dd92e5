/*
 * bench/affinity.c: which CPUs the benchmark may use, in which order
 * threads are pinned to them, and the pinning itself (Linux; elsewhere
 * pinning fails and every thread reports CPU -1).
 */
#define _GNU_SOURCE 1	/* sched_getcpu, pthread_setaffinity_np, CPU_SET */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#define HAVE_AFFINITY 1
#endif

#include "bench/bench.h"
#include "tools/util.h"

/* The CPUs this process may run on, ascending, as it started. */
static int allowed[BENCH_MAX_CPU];
static size_t nallowed;

/*
 * Fill allowed[] once, before any thread is pinned (pinning the main
 * thread changes what sched_getaffinity reports).
 */
void bench_find_allowed_cpus(void)
{
#ifdef HAVE_AFFINITY
	cpu_set_t set;
	int c;

	if (!sched_getaffinity(0, sizeof(set), &set))
		for (c = 0; c < CPU_SETSIZE && nallowed < BENCH_MAX_CPU; c++)
			if (CPU_ISSET(c, &set))
				allowed[nallowed++] = c;
#endif
	if (!nallowed) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		while ((long)nallowed < online && nallowed < BENCH_MAX_CPU) {
			allowed[nallowed] = (int)nallowed;
			nallowed++;
		}
	}
}

size_t bench_allowed_cpus(const int **cpus)
{
	*cpus = allowed;
	return nallowed;
}

typedef struct {
	int cpu, package, core, rank, core_index;
} cpu_place;

static int read_topology(int cpu, const char *what)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path),
	    "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int by_core(const void *a, const void *b)
{
	const cpu_place *x = a, *y = b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int by_spread(const void *a, const void *b)
{
	const cpu_place *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->core_index != y->core_index)
		return x->core_index < y->core_index ? -1 : 1;
	return by_core(a, b);
}

/* Without topology information both orders are the CPUs ascending. */
size_t bench_affinity_order(int *cpus, int scatter)
{
	static cpu_place place[BENCH_MAX_CPU];
	size_t i, n = nallowed;

	for (i = 0; i < n; i++) {
		place[i].cpu = allowed[i];
		place[i].package = read_topology(allowed[i],
		    "physical_package_id");
		place[i].core = read_topology(allowed[i], "core_id");
	}
	qsort(place, n, sizeof(place[0]), by_core);
	for (i = 0; i < n; i++) {
		int same_package = i && place[i].package == place[i - 1].package;
		int same_core = same_package && place[i].core == place[i - 1].core;

		place[i].rank = same_core ? place[i - 1].rank + 1 : 0;
		place[i].core_index = !same_package ? 0 : same_core ?
		    place[i - 1].core_index : place[i - 1].core_index + 1;
	}
	if (scatter)
		qsort(place, n, sizeof(place[0]), by_spread);
	for (i = 0; i < n; i++)
		cpus[i] = place[i].cpu;
	return n;
}

int bench_can_pin(void)
{
#ifdef HAVE_AFFINITY
	return 1;
#else
	return 0;
#endif
}

int bench_pin_thread(int cpu)
{
#ifdef HAVE_AFFINITY
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) ?
	    -1 : 0;
#else
	(void)cpu;
	return -1;
#endif
}

int bench_current_cpu(void)
{
#ifdef HAVE_AFFINITY
	return sched_getcpu();
#else
	return -1;
#endif
}

void bench_format_cpu_list(const int *cpus, size_t n, char *buf, size_t size)
{
	size_t i = 0, used = 0;

	buf[0] = '\0';
	while (i < n && used < size) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			used += snprintf(buf + used, size - used, "%s%d-%d",
			    used ? "," : "", cpus[i], cpus[j]);
		else
			used += snprintf(buf + used, size - used, "%s%d",
			    used ? "," : "", cpus[i]);
		i = j + 1;
	}
}

size_t bench_parse_list(const char *s, unsigned long min, unsigned long max,
    int *out, size_t max_out)
{
	size_t n = 0;

	for (;;) {
		char item[32], *dash;
		size_t len = strcspn(s, ",");
		unsigned long a, b;

		if (len == 0 || len >= sizeof(item))
			return 0;
		memcpy(item, s, len);
		item[len] = '\0';
		if ((dash = strchr(item, '-')))
			*dash++ = '\0';
		if (util_parse_ulong(item, min, max, &a) ||
		    util_parse_ulong(dash ? dash : item, min, max, &b) ||
		    b < a || b - a >= max_out - n)
			return 0;
		while (a <= b)
			out[n++] = (int)a++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}
