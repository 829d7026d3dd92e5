# benchmark: the headers it includes besides yespower.h, and its test suite
# (command line, the original's output, JSON, components) in `make check`.

benchmark.o: yespower-impl.h sha256.h blake2b.h

CHECKS += check-benchmark

check-benchmark: benchmark
	@sh ./tests-benchmark.sh ./benchmark
