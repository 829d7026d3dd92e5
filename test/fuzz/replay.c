/*
 * test/fuzz/replay.c: run a fuzz target on the files of a corpus, without
 * libFuzzer, so that the corpus is a plain regression test for any
 * compiler and under valgrind or the sanitizers.
 *
 * Usage: replay PATH...   (each PATH a file, or a directory whose regular
 * files, not those whose names start with a dot, are run in name order).
 * The target aborts on a failure; otherwise replay prints how many inputs
 * ran, as "fuzz-replay: N passed, 0 failed".  Exits 2 when a path cannot be read, and when no input ran at all.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read a whole file into a new buffer of exactly its size (at least 1). */
static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL &&
	    fread(buf, 1, (size_t)len, fp) == (size_t)len) {
		*size = (size_t)len;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

static int run_file(const char *path)
{
	size_t size;
	uint8_t *data = read_file(path, &size);

	if (!data) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of dir in name order; the count, or -1. */
static long run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	long ran = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **more = realloc(names,
			    (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!more)
				abort();
			names = more;
		}
		if (!(names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2)))
			abort();
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);

	for (i = 0; i < n; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(names[i]))
				ran = -1;
			else if (ran >= 0)
				ran++;
		}
		free(names[i]);
	}
	free(names);
	return ran;
}

int main(int argc, char **argv)
{
	long total = 0;
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		long ran;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
			    strerror(errno));
			bad = 1;
			continue;
		}
		ran = S_ISDIR(st.st_mode) ? run_dir(argv[i]) :
		    run_file(argv[i]) ? -1 : 1;
		if (ran < 0)
			bad = 1;
		else
			total += ran;
	}
	if (bad || total == 0) {
		printf("fuzz-replay: %ld passed, 1 failed (not every path "
		    "could be read, or none held an input)\n", total);
		return 2;
	}
	printf("fuzz-replay: %ld passed, 0 failed (inputs, no difference)\n",
	    total);
	return 0;
}
