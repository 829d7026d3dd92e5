/*
 * jit-mem.c: memory for compiled code (see jit.h).
 *
 * No page is ever writable and executable at once, whatever the flags.
 * A VM recompiles its program eight times a hash; switching one mapping
 * between writable and executable costs two mprotect calls a compile.
 * So, without RANDOMX_FLAG_SECURE and where the system has memfd_create
 * (Linux), code memory is one anonymous shared memory object mapped
 * twice: a writable view that the compilers write and an executable view,
 * elsewhere, that runs the same pages, and a compile needs no system
 * call.  RANDOMX_FLAG_SECURE asks for more than that (no writable alias
 * of running code at any address), and gets the one mapping switched by
 * mprotect; so does every system without memfd_create, or refusing the
 * executable view (SELinux, PaX), or with RLIMIT_FSIZE too small for the
 * object (which a larger ftruncate would answer with SIGXFSZ), or where
 * code rewritten through one view does not run at the other (emulators
 * such as qemu-user 7.2), which a routine rewritten once per process
 * finds out.
 *
 * fork(): the views are MAP_SHARED, so a child of fork shares them with
 * its parent, and a compile in one would overwrite the code the other
 * runs.  A pthread_atfork handler counts forks in the child; a compile in
 * a process that has forked since the views were made first moves to
 * views of a new object of its own (rx_exec_writable), which costs one
 * atomic load a compile when nothing forked.  Only fork() itself runs the
 * handler: a child made by a raw clone system call must not compile with
 * its parent's VMs.
 */
#define _GNU_SOURCE 1	/* MAP_ANONYMOUS, syscall */

#include "randomx/jit.h"

#if RX_HAVE_JIT

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/* memfd_create's flags, for headers older than the kernel. */
#define CODE_MFD_CLOEXEC 0x0001u
#define CODE_MFD_NOEXEC_SEAL 0x0008u	/* Linux 6.3 */

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Code written through w, to run at x.  The architecture's data caches
 * behave as if indexed and tagged by physical address (ARMv8 requires it
 * of them), so cleaning the lines through x's addresses reaches what was
 * written through w's; an instruction cache may be indexed by virtual
 * address, and must be invalidated at the addresses instructions are
 * fetched from, x's; w's are never fetched from, so nothing of theirs is
 * in it.  One range, x's, thus covers both (__builtin___clear_cache does
 * both steps by one range; x is readable, as the data side needs).
 */
void rx_exec_sync(const rx_exec_mem *m, size_t len)
{
	__builtin___clear_cache((char *)m->x, (char *)m->x + len);
}

/* ---- two views of one object ---- */

static unsigned long forks;	/* forks this process is a child of */
static int views_usable;	/* forks are counted, and views work here */
static pthread_once_t views_once = PTHREAD_ONCE_INIT;

static void count_fork(void)
{
	__atomic_add_fetch(&forks, 1, __ATOMIC_RELAXED);
}

/*
 * An anonymous shared memory object of len bytes, or -1.  Without
 * execute permission for execve (MFD_NOEXEC_SEAL, which mmap does not
 * look at), so that kernels from 6.3 neither refuse nor log it; kernels
 * before it do not know the flag (EINVAL) and get none.
 */
static int code_object(size_t len)
{
#if defined(__linux__) && defined(SYS_memfd_create)
	struct rlimit fsize;
	int fd;

	if (getrlimit(RLIMIT_FSIZE, &fsize) || (fsize.rlim_cur !=
	    RLIM_INFINITY && fsize.rlim_cur < len))
		return -1;
	fd = (int)syscall(SYS_memfd_create, "randomx-jit",
	    CODE_MFD_CLOEXEC | CODE_MFD_NOEXEC_SEAL);
	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(SYS_memfd_create, "randomx-jit",
		    CODE_MFD_CLOEXEC);
	if (fd >= 0 && ftruncate(fd, (off_t)len)) {
		close(fd);
		fd = -1;
	}
	return fd;
#else
	(void)len;
	return -1;
#endif
}

/* m->w and m->x, views of a new object of m->len bytes: 0, or -1. */
static int map_object(rx_exec_mem *m)
{
	void *w = MAP_FAILED, *x = MAP_FAILED;
	int fd = code_object(m->len);

	if (fd < 0)
		return -1;
	w = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w != MAP_FAILED)
		x = mmap(NULL, m->len, PROT_READ | PROT_EXEC, MAP_SHARED, fd,
		    0);
	close(fd);
	if (x == MAP_FAILED) {
		if (w != MAP_FAILED)
			munmap(w, m->len);
		return -1;
	}
	m->w = w;
	m->x = x;
	return 0;
}

/* At w: a routine that returns k (0 .. 255). */
static void write_return(uint8_t *w, unsigned k)
{
#if RX_JIT_X86_64
	static const uint8_t mov_ret[6] = { 0xb8, 0, 0, 0, 0, 0xc3 };

	memcpy(w, mov_ret, sizeof(mov_ret));	/* mov eax, k; ret */
	w[1] = (uint8_t)k;
#else
	uint32_t code[2] = { 0x52800000u | k << 5, 0xd65f03c0u };

	memcpy(w, code, sizeof(code));		/* mov w0, k; ret */
#endif
}

/*
 * Whether code rewritten through one view runs at the other.  Hardware
 * does (x86-64 notices writes to code by physical address; AArch64 once
 * rx_exec_sync has run), but an emulator may not: qemu-user notices a
 * write to code it has translated at the address it translated (and, for
 * AArch64 guests in later versions, at an IC IVAU there), not through
 * another mapping: qemu-x86_64 7.2 ran the old code and gave wrong hashes.
 * A routine is run, rewritten and run again.
 */
static int views_coherent(void)
{
	rx_exec_mem m;
	int (*fn)(void);
	int ok;

	m.len = (size_t)sysconf(_SC_PAGESIZE);
	if (map_object(&m))
		return 0;
	fn = (int (*)(void))(void *)m.x;
	write_return(m.w, 1);
	rx_exec_sync(&m, 16);
	ok = fn() == 1;
	write_return(m.w, 2);
	rx_exec_sync(&m, 16);
	ok &= fn() == 2;
	munmap(m.w, m.len);
	munmap(m.x, m.len);
	return ok;
}

static void setup_views(void)
{
	views_usable = pthread_atfork(NULL, NULL, count_fork) == 0 &&
	    views_coherent();
}

/*
 * m->w and m->x: a writable and an executable view of a new object of
 * m->len bytes, and m->forks the count they belong to.  0, or -1 with m
 * unchanged and nothing left mapped.
 */
static int map_views(rx_exec_mem *m)
{
	unsigned long now;

	pthread_once(&views_once, setup_views);
	if (!views_usable)
		return -1;
	/* Read first: a fork from here on makes the child's views stale. */
	now = __atomic_load_n(&forks, __ATOMIC_RELAXED);
	if (map_object(m))
		return -1;
	m->forks = now;
	return 0;
}

/*
 * In a child of fork, before its first write: views of its own (or, if
 * none can be had, one mapping switched by mprotect), the parent's left
 * to the parent.  Contents are not copied: the caller writes all its
 * code again.  1, or -1 with m unchanged.
 */
static int renew(rx_exec_mem *m)
{
	rx_exec_mem old = *m;
	uint8_t *p;

	if (map_views(m)) {
		if (!(p = map(m->len, PROT_READ | PROT_WRITE)))
			return -1;
		m->w = m->x = p;
		m->wx = 1;
	}
	munmap(old.w, old.len);
	munmap(old.x, old.len);
	return 1;
}

/* ---- the interface ---- */

int rx_exec_alloc(rx_exec_mem *m, size_t len, int secure)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	m->len = (len + page - 1) & ~(page - 1);
	m->forks = 0;
	m->wx = 0;
	if (!secure && !map_views(m))
		return 0;
	m->wx = 1;
	m->w = m->x = map(m->len, PROT_READ | PROT_WRITE);
	return m->w ? 0 : -1;
}

int rx_exec_writable(rx_exec_mem *m)
{
	if (m->wx)
		return mprotect(m->w, m->len, PROT_READ | PROT_WRITE);
	if (m->forks == __atomic_load_n(&forks, __ATOMIC_RELAXED))
		return 0;
	return renew(m);
}

int rx_exec_executable(rx_exec_mem *m)
{
	if (!m->wx)
		return 0;
	return mprotect(m->x, m->len, PROT_READ | PROT_EXEC);
}

void rx_exec_free(rx_exec_mem *m)
{
	if (m->x && m->x != m->w)
		munmap(m->x, m->len);
	if (m->w)
		munmap(m->w, m->len);
	m->w = m->x = NULL;
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
