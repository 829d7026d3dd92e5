/*
 * tests-atexit.c: a program, linked with the static library, that hashes
 * with yespower_tls from an atexit handler and from its own destructor,
 * which runs after the library's (a lower destructor priority runs
 * later).  Both must hash right: the library's destructor has taken its
 * thread-local memory away by then, and a call must make do without it.
 *
 * Prints a line per case and "atexit: N passed, N failed" last, from the
 * destructor, whose _exit gives the exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yespower.h"

#define TEST_NAME "tests-atexit"
#include "test/report.h"

static const yespower_params_t params = { YESPOWER_1_0, 1024, 8, NULL, 0 };
static yespower_binary_t want;

static void check_tls(const char *when)
{
	yespower_binary_t got;
	int ok = yespower_tls((const uint8_t *)"exit", 4, &params, &got) == 0 &&
	    !memcmp(&got, &want, sizeof(got));

	char what[96];

	snprintf(what, sizeof(what), "yespower_tls from %s", when);
	printf("atexit: %s: %s\n", what, ok ? "ok" : "FAILED");
	check(what, ok);
}

static void at_exit(void)
{
	check_tls("an atexit handler");
}

__attribute__((destructor(101))) static void last_destructor(void)
{
	check_tls("a destructor run after the library's");
	_exit(summary());
}

int main(void)
{
	yespower_local_t local;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (yespower_init_local(&local) ||
	    yespower(&local, (const uint8_t *)"exit", 4, &params, &want) ||
	    yespower_free_local(&local))
		return 1;
	check_tls("main");
	atexit(at_exit);
	return 0;
}
