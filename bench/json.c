/*
 * bench/json.c: a small streaming JSON writer (indented, one value per
 * line) and the parts of the benchmark's document that are not about
 * yespower: the machine, the invocation, one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <omp.h>

#include "bench/bench.h"
#include "tools/util.h"

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Start a value: a comma after the previous one, indentation, the key. */
static void json_item(json_writer *j, const char *key)
{
	int i;

	if (j->items[j->depth]++)
		putchar(',');
	if (j->depth) {
		putchar('\n');
		for (i = 0; i < j->depth; i++)
			fputs("  ", stdout);
	}
	if (key) {
		json_string(key);
		fputs(": ", stdout);
	}
}

void json_open(json_writer *j, const char *key, char bracket)
{
	json_item(j, key);
	putchar(bracket);
	j->items[++j->depth] = 0;
}

void json_close(json_writer *j, char bracket)
{
	int i;

	if (j->items[j->depth--]) {
		putchar('\n');
		for (i = 0; i < j->depth; i++)
			fputs("  ", stdout);
	}
	putchar(bracket);
}

void json_str(json_writer *j, const char *key, const char *v)
{
	json_item(j, key);
	if (v)
		json_string(v);
	else
		fputs("null", stdout);
}

/* NaN and infinities (v - v is not 0) are null. */
void json_num(json_writer *j, const char *key, double v)
{
	json_item(j, key);
	if (v - v == 0)
		printf("%.10g", v);
	else
		fputs("null", stdout);
}

void json_int(json_writer *j, const char *key, long long v)
{
	json_item(j, key);
	printf("%lld", v);
}

void json_bool(json_writer *j, const char *key, int v)
{
	json_item(j, key);
	fputs(v ? "true" : "false", stdout);
}

void json_count(json_writer *j, const char *key, long long v)
{
	if (v < 0)
		json_str(j, key, NULL);
	else
		json_int(j, key, v);
}

void json_hex(json_writer *j, const char *key, const uint8_t *p, size_t len)
{
	char *s;

	if (!p) {
		json_str(j, key, NULL);
		return;
	}
	if (!(s = malloc(2 * len + 1)))
		bench_out_of_memory();
	util_hex_encode(s, p, len);
	json_str(j, key, s);
	free(s);
}

void json_run(json_writer *j, const bench_result *res, uint64_t per_hash,
    uint64_t per_thread, const char *implementation)
{
	int t;

	json_open(j, NULL, '{');
	json_int(j, "threads", res->threads);
	json_int(j, "hashes", (long long)res->hashes);
	json_num(j, "seconds", res->wall);
	json_num(j, "cpu_seconds", res->cpu);
	json_num(j, "hs_real", res->hashes / res->wall);
	if (res->cpu > 0)
		json_num(j, "hs_virtual", res->hashes / res->cpu);
	else
		json_str(j, "hs_virtual", NULL);
	json_open(j, "latency_ms", '{');
	json_num(j, "min", res->lat_min * 1e3);
	json_num(j, "p50", res->lat_p50 * 1e3);
	json_num(j, "p90", res->lat_p90 * 1e3);
	json_num(j, "p99", res->lat_p99 * 1e3);
	json_num(j, "max", res->lat_max * 1e3);
	json_num(j, "mean", res->lat_mean * 1e3);
	json_close(j, '}');
	json_int(j, "memory_per_hash_bytes", (long long)per_hash);
	json_int(j, "memory_total_bytes", (long long)per_thread * res->threads);
	json_count(j, "anon_huge_pages_bytes", res->huge_bytes);
	json_count(j, "peak_rss_bytes", res->rss_peak_bytes);
	json_str(j, "implementation", implementation);
	json_bool(j, "pinned", res->pinned);
	json_open(j, "cpus", '[');
	for (t = 0; t < res->threads; t++)
		json_int(j, NULL, res->cpus[t]);
	json_close(j, ']');
	json_int(j, "migrations", (long long)res->migrations);
	json_bool(j, "reference", res->reference);
	json_int(j, "verified", res->verified);
	json_int(j, "mismatches", res->mismatches);
	json_bool(j, "all_match", !res->mismatches && !res->failed);
	json_bool(j, "failed", res->failed);
	json_close(j, '}');
}

/* Copy the first line of a small file, or "" if there is none. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

void bench_cpu_model(char *buf, size_t size)
{
	char line[256], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, size, "unknown");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) &&
		    (colon = strchr(line, ':'))) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", colon + 1 + (colon[1] == ' '));
			break;
		}
	if (f)
		fclose(f);
}

/* The transparent huge pages mode: the bracketed word, e.g. "madvise". */
static void thp_mode(char *buf, size_t size)
{
	char line[128], *open, *close;

	read_line("/sys/kernel/mm/transparent_hugepage/enabled", line,
	    sizeof(line));
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close) {
		*close = '\0';
		snprintf(buf, size, "%s", open + 1);
	} else {
		snprintf(buf, size, "unknown");
	}
}

void json_machine(json_writer *j)
{
	char buf[256];
	struct utsname u;
	const int *allowed;
	size_t nallowed = bench_allowed_cpus(&allowed);

	json_open(j, "machine", '{');
	bench_cpu_model(buf, sizeof(buf));
	json_str(j, "cpu_model", buf);
	json_int(j, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	bench_format_cpu_list(allowed, nallowed, buf, sizeof(buf));
	json_str(j, "cpus_allowed", buf);
	json_int(j, "omp_max_threads", omp_get_max_threads());
	thp_mode(buf, sizeof(buf));
	json_str(j, "transparent_hugepages", buf);
	json_count(j, "hugepages_reserved", bench_proc_kib("/proc/meminfo",
	    "HugePages_Total"));
	if (!uname(&u)) {
		snprintf(buf, sizeof(buf), "%s %s %s", u.sysname, u.release,
		    u.machine);
		json_str(j, "os", buf);
	}
#if defined(__clang__)
	json_str(j, "compiler", "clang " __clang_version__);
#elif defined(__GNUC__)
	json_str(j, "compiler", "gcc " __VERSION__);
#endif
	json_close(j, '}');
}

void json_invocation(json_writer *j, char **argv)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	json_open(j, "argv", '[');
	for (; *argv; argv++)
		json_str(j, NULL, *argv);
	json_close(j, ']');
	if (gmtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		json_str(j, "time", buf);
}
