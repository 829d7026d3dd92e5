# mk/benchmark.mk: the benchmark's test suite (command line, the
# original's output, JSON, components), in `make check`.

check-benchmark: benchmark
	@sh test/tests-benchmark.sh ./benchmark
