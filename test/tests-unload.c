/*
 * tests-unload.c: unloading the shared library while a thread that hashed
 * is still alive must not crash that thread when it exits (its per-thread
 * memory's destructor would be gone with the library).
 *
 * Usage: tests-unload PATH-TO-libyespower.so.1
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "yespower.h"

#define TEST_NAME "tests-unload"
#include "test/report.h"

typedef int (*tls_fn)(const uint8_t *, size_t, const yespower_params_t *,
    yespower_binary_t *);

static tls_fn hash_tls;
static volatile int may_exit, hashed;	/* 1 done, -1 failed */

static void *worker(void *arg)
{
	yespower_params_t p = { YESPOWER_1_0, 1024, 8, NULL, 0 };
	yespower_binary_t h;

	hashed = hash_tls((const uint8_t *)"x", 1, &p, &h) ? -1 : 1;
	while (!may_exit)
		usleep(1000);
	return arg;
}

int main(int argc, char **argv)
{
	void *lib;
	pthread_t t;

	if (argc != 2 || !(lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "tests-unload: cannot load %s: %s\n",
		    argc == 2 ? argv[1] : "(no path)", dlerror());
		return 1;
	}
	*(void **)&hash_tls = dlsym(lib, "yespower_tls");
	if (!hash_tls || pthread_create(&t, NULL, worker, NULL)) {
		fprintf(stderr, "tests-unload: setup failed\n");
		return 1;
	}
	while (!hashed)
		usleep(1000);
	if (hashed < 0) {
		fprintf(stderr, "tests-unload: the hash failed\n");
		return 1;
	}
	dlclose(lib);
	may_exit = 1;
	pthread_join(t, NULL);	/* a crash here fails the test */
	printf("unload: a hashing thread outlived dlclose: ok\n");
	check("a hashing thread outlived dlclose", 1);
	return summary();
}
