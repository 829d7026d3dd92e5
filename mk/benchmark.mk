# mk/benchmark.mk: the benchmark's test suite (command line, the
# original's output, JSON, components) and its RandomX results against
# the reference benchmark's (light mode; full mode in check-randomx-full),
# in `make check`.

check-benchmark: benchmark
	@rc=0; sh test/tests-benchmark.sh ./benchmark || rc=1; \
	sh test/randomx/tests-rx-bench.sh light ./benchmark || rc=1; exit $$rc
