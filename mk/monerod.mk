# mk/monerod.mk: Debian's monerod on this library (test/monerod/).
#
#   make check-monerod    two regtest monerods on loopback, one on this
#                         library and one on Debian's librandomx0, mine
#                         for each other in light and full mode; a flipped
#                         hash must be rejected.  Needs the monero package
#                         (and curl); fails, never skips, without them.
#                         Minutes, two 2 GiB datasets; not in `make check`
#                         (.ci/run runs it).

#h monerod (mk/monerod.mk):
#h   check-monerod        Debian's monerod on this librandomx.so.0 against its own (minutes)

check-monerod: $(B)/randomx/librandomx.a $(B)/randomx/librandomx.so
	@MAKE="$(MAKE)" CC="$(CC)" sh test/monerod/tests-monerod.sh

.PHONY: check-monerod
