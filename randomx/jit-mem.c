/*
 * jit-mem.c: memory for compiled code (see jit.h).
 *
 * Writable-and-executable pages let a VM recompile its program eight
 * times a hash without a system call; RANDOMX_FLAG_SECURE gives that up
 * for W^X, two mprotect calls per compile.  Systems that refuse such
 * pages (SELinux's execmem, PaX, OpenBSD) get W^X whatever was asked.
 */
#define _GNU_SOURCE 1	/* MAP_ANONYMOUS */

#include "randomx/jit.h"

#if RX_HAVE_JIT

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int rx_exec_alloc(rx_exec_mem *m, size_t len, int secure)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	m->base = NULL;
	m->len = (len + page - 1) & ~(page - 1);
	m->wx = 1;
	if (!secure) {
		m->base = map(m->len, PROT_READ | PROT_WRITE | PROT_EXEC);
		if (m->base) {
			m->wx = 0;
			return 0;
		}
	}
	m->base = map(m->len, PROT_READ | PROT_WRITE);
	return m->base ? 0 : -1;
}

int rx_exec_writable(rx_exec_mem *m)
{
	if (!m->wx)
		return 0;
	return mprotect(m->base, m->len, PROT_READ | PROT_WRITE);
}

int rx_exec_executable(rx_exec_mem *m)
{
	if (!m->wx)
		return 0;
	return mprotect(m->base, m->len, PROT_READ | PROT_EXEC);
}

void rx_exec_free(rx_exec_mem *m)
{
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
	m->len = 0;
}

void *rx_exec_owner_new(size_t size, size_t mem_at, size_t len, int secure)
{
	void *o;

	if (posix_memalign(&o, 64, size))
		return NULL;
	memset(o, 0, size);
	if (rx_exec_alloc((rx_exec_mem *)((char *)o + mem_at), len, secure)) {
		free(o);
		return NULL;
	}
	return o;
}

void rx_exec_owner_free(void *o, size_t mem_at)
{
	if (!o)
		return;
	rx_exec_free((rx_exec_mem *)((char *)o + mem_at));
	free(o);
}

#endif /* RX_HAVE_JIT */
