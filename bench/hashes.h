/*
 * bench/hashes.h: the hashing API's benchmark part (bench/hashes.c), for
 * the benchmark program's `--hashes` option.
 */
#ifndef POW_BENCH_HASHES_H
#define POW_BENCH_HASHES_H

/*
 * bench_hashes_main(argc, argv): run the benchmark with argv[0] =
 * "--hashes" and the options after it (bench/hashes.c lists them); print
 * the tables (or JSON) on stdout.  0 on success, 2 for bad arguments, 1
 * if memory runs out.
 */
int bench_hashes_main(int argc, char **argv);

#endif /* !POW_BENCH_HASHES_H */
