/*
 * pow-merkle.c: Merkle roots (pow-hash.h) and the threads behind them.
 * Compiled with no instruction-set flags; the hashing is the
 * dispatcher's kernels, each call a whole level of a subtree.
 *
 * A perfect tree (2^k leaves) is computed depth first in blocks of
 * BLOCK_LEAVES leaves: a block's first level goes from the leaves to a
 * scratch buffer small enough to stay in the L1 cache, and every later
 * level is computed in place there, so the leaves are read once and
 * nothing else leaves the cache.  Larger trees are split into up to
 * FANOUT subtrees, each of which hands up its top KEEP nodes; those are
 * then a small tree of their own.  The threads take whole subtrees.
 *
 * Bitcoin's tree with N leaves, N not a power of two, is a perfect tree
 * of the first P leaves (P the largest power of two below N) paired with
 * Bitcoin's tree of the other N - P: every level of the left part has an
 * even number of nodes, so no pair straddles the two, and once the right
 * part is down to one node it is the odd last node of each level above,
 * paired with itself, until it meets the left part's root.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "insecure_memzero.h"
#include "pow-hash.h"
#include "pow-hash-impl.h"

#define BLOCK_LEAVES 1024
#define FANOUT 16
#define KEEP 8		/* the widest kernel's lanes (Keccak AVX-512) */

/* ---- threads ---- */

int pow_threads_valid(int threads)
{
	long cpus;

	if (threads < 0 || threads > POW_HASH_MAX_THREADS)
		return 0;
	if (threads > 0)
		return threads;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1)
		return 1;
	return cpus > POW_HASH_MAX_THREADS ? POW_HASH_MAX_THREADS : (int)cpus;
}

struct parallel {
	void (*fn)(void *arg, size_t part);
	void *arg;
	size_t parts, next;	/* next: the first part nobody took yet */
};

static void *parallel_worker(void *p)
{
	struct parallel *job = p;
	size_t part;

	while ((part = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) <
	    job->parts)
		job->fn(job->arg, part);
	return NULL;
}

void pow_parallel(int threads, size_t parts,
    void (*fn)(void *arg, size_t part), void *arg)
{
	pthread_t tid[POW_HASH_MAX_THREADS];
	struct parallel job = { fn, arg, parts, 0 };
	int started = 0, i;

	if ((size_t)threads > parts)
		threads = (int)parts;
	for (i = 1; i < threads; i++)
		if (!pthread_create(&tid[started], NULL, parallel_worker, &job))
			started++;
	parallel_worker(&job);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

/* ---- perfect trees ---- */

struct tree {
	pow_d64_fn *node;	/* a level: n 64-byte pairs to n nodes */
	int *mutated;		/* NULL, or set to 1 on an equal pair */
};

/* Bitcoin Core's CVE-2012-2459 check on n pairs of nodes at in. */
static void check_pairs(const struct tree *t, const uint8_t *in, size_t n)
{
	size_t i;

	if (!t->mutated || __atomic_load_n(t->mutated, __ATOMIC_RELAXED))
		return;
	for (i = 0; i < n; i++)
		if (!memcmp(&in[64 * i], &in[64 * i + 32], 32)) {
			__atomic_store_n(t->mutated, 1, __ATOMIC_RELAXED);
			return;
		}
}

/* One level: n nodes from the n pairs at in. */
static void level(const struct tree *t, uint8_t *out, const uint8_t *in,
    size_t n)
{
	check_pairs(t, in, n);
	t->node(out, in, n);
}

/*
 * The keep nodes (a power of two, at most count) that count leaves (a
 * power of two) reduce to, at out, on this thread.  Subtrees hand up
 * KEEP nodes rather than their root: a level of fewer than a kernel's
 * width of nodes costs a whole group of lanes (or a one-lane hash), so
 * the last levels of every block would cost several groups for a few
 * nodes; handed up, they are a whole level of the parent, and only the
 * top of the whole tree pays for its narrow levels.
 */
static void perfect_nodes(const struct tree *t, uint8_t *out,
    const uint8_t *leaves, size_t count, size_t keep)
{
	if (count == keep) {
		memmove(out, leaves, 32 * count);
	} else if (count <= BLOCK_LEAVES) {
		uint8_t scratch[BLOCK_LEAVES / 2 * 32];
		size_t n;

		level(t, scratch, leaves, count / 2);
		for (n = count / 2; n > keep; n /= 2)
			level(t, scratch, scratch, n / 2);
		memcpy(out, scratch, 32 * keep);
	} else {
		uint8_t nodes[FANOUT * KEEP * 32];
		size_t parts = count / BLOCK_LEAVES, each, p;

		if (parts > FANOUT)
			parts = FANOUT;
		each = count / parts;
		for (p = 0; p < parts; p++)
			perfect_nodes(t, &nodes[32 * KEEP * p],
			    &leaves[32 * each * p], each, KEEP);
		perfect_nodes(t, out, nodes, parts * KEEP, keep);
	}
}

struct tree_job {
	const struct tree *t;
	const uint8_t *leaves;
	uint8_t *roots;
	size_t each;
};

static void tree_part(void *arg, size_t part)
{
	const struct tree_job *job = arg;

	perfect_nodes(job->t, &job->roots[32 * KEEP * part],
	    &job->leaves[32 * job->each * part], job->each, KEEP);
}

/*
 * The root of count leaves (a power of two) on `threads` threads: 8
 * subtrees per thread, so that one slow thread (the machine is shared)
 * holds the others up by an eighth of a share at most, each subtree at
 * least two blocks.
 */
static void perfect_root_threads(const struct tree *t, uint8_t root[32],
    const uint8_t *leaves, size_t count, int threads)
{
	struct tree_job job;
	size_t parts = 1;

	if (threads == 1) {
		perfect_nodes(t, root, leaves, count, 1);
		return;
	}
	while (parts < 8 * (size_t)threads &&
	    count / parts >= 4 * BLOCK_LEAVES)
		parts *= 2;
	job.roots = parts > 1 ? malloc(32 * KEEP * parts) : NULL;
	if (!job.roots) {	/* one part, or no memory: on this thread */
		perfect_nodes(t, root, leaves, count, 1);
		return;
	}
	job.t = t;
	job.leaves = leaves;
	job.each = count / parts;
	pow_parallel(threads, parts, tree_part, &job);
	perfect_nodes(t, root, job.roots, parts * KEEP, 1);
	free(job.roots);
}

/* ---- Bitcoin's tree ---- */

static void bitcoin_root(const struct tree *t, uint8_t root[32],
    const uint8_t *leaves, size_t count, int threads)
{
	uint8_t pair[64], twice[64];
	size_t left = 1, right, height;

	if (!(count & (count - 1))) {
		perfect_root_threads(t, root, leaves, count, threads);
		return;
	}
	while (left * 2 < count)
		left *= 2;
	right = count - left;
	perfect_root_threads(t, pair, leaves, left, threads);
	bitcoin_root(t, &pair[32], &leaves[32 * left], right, threads);

	/* Lift the right part's root to the left part's height: at each
	 * level in between it is the odd last node, paired with itself
	 * (and not checked: Bitcoin Core compares real pairs only). */
	for (height = 1; height < right; height *= 2)
		;
	for (; height < left; height *= 2) {
		memcpy(twice, &pair[32], 32);
		memcpy(&twice[32], &pair[32], 32);
		t->node(&pair[32], twice, 1);
	}
	level(t, root, pair, 1);
	insecure_memzero(pair, sizeof(pair));
	insecure_memzero(twice, sizeof(twice));
}

/* ---- the API ---- */

/* An invalid argument: 0xff in root (if any), EINVAL. */
static int invalid(uint8_t *root)
{
	if (root)
		memset(root, 0xff, 32);
	errno = EINVAL;
	return -1;
}

int pow_merkle_root_bitcoin(uint8_t root[32], const uint8_t *leaves,
    size_t count, int *mutated, int threads)
{
	struct tree t;
	int t_count = pow_threads_valid(threads), flag = 0;

	if (mutated)
		*mutated = 0;
	if (!root || !t_count || (!leaves && count) || count > SIZE_MAX / 32)
		return invalid(root);
	if (!count) {	/* Bitcoin Core's answer for no leaves */
		memset(root, 0, 32);
		return 0;
	}
	t.node = pow_sha256_in_use()->d64;
	t.mutated = mutated ? &flag : NULL;
	bitcoin_root(&t, root, leaves, count, t_count);
	if (mutated)
		*mutated = flag;
	return 0;
}

/* The binary trees: count a power of two. */
static int binary_root(pow_d64_fn *node, uint8_t root[32],
    const uint8_t *leaves, size_t count, int threads)
{
	struct tree t = { node, NULL };
	int t_count = pow_threads_valid(threads);

	if (!root || !t_count || !leaves || !count || (count & (count - 1)) ||
	    count > SIZE_MAX / 32)
		return invalid(root);
	perfect_root_threads(&t, root, leaves, count, t_count);
	return 0;
}

int pow_merkle_root_sha256d(uint8_t root[32], const uint8_t *leaves,
    size_t count, int threads)
{
	return binary_root(pow_sha256_in_use()->d64, root, leaves, count,
	    threads);
}

int pow_merkle_root_sha3_256(uint8_t root[32], const uint8_t *leaves,
    size_t count, int threads)
{
	return binary_root(pow_keccak_in_use()->sha3_64, root, leaves, count,
	    threads);
}
