# mk/node.mk: the Node.js addon (node/), built against Node-API's C
# interface with this Makefile: no node-gyp, nothing downloaded.
#
#   make node-addon     node/build/yespower.node, from node/src/*.c and the
#                       static libraries (npm install ./node runs this)
#   make check-node     (in `make check`) its tests with Node's own test
#                       runner, RandomX in light mode; skipped, and said,
#                       where node or its headers are missing
#   make check-node-full    the same answers from a full-mode dataset
#                       (2 GiB, a minute or more; .ci/run)
#   make bench-node     shares verified per second, Node against C
#   make check-node-npm npm install ./node, offline with no registry
#                       reachable, from a fresh clone of HEAD into a
#                       scratch project; a known answer through it
#                       (minutes: it builds the library; .ci/run)
#
# The headers come with Node itself (include/node/node_api.h beside its
# bin/); NODE_INCLUDE=DIR names another place.

#h Node.js (mk/node.mk):
#h   node-addon           node/build/yespower.node (npm install ./node runs it)
#h   check-node           the addon's tests (node --test), light mode
#h   check-node-full      RandomX full mode through the addon (2 GiB, minutes)
#h   bench-node           shares/s from Node against C, 1 and 2 at a time
#h   check-node-npm       npm install ./node offline from a fresh clone (minutes)

NODE ?= node
NODE_INCLUDE ?= $(shell $(NODE) -p \
	"require('path').resolve(process.execPath, '../../include/node')" \
	2>/dev/null)
NODE_B = $(B)/node
NODE_ADDON = node/build/yespower.node
NODE_OBJS = $(addprefix $(NODE_B)/,addon.o util.o jobs.o yespower.o randomx.o \
	rx-key.o)
NODE_TESTS = $(sort $(wildcard node/test/*.test.js))
# The addon's own symbols stay inside it; only the module entry is seen.
NODE_CFLAGS = $(ALL_CFLAGS) -std=gnu11 -fvisibility=hidden \
	-I$(NODE_INCLUDE)
NODE_HAVE_HEADERS = $(wildcard $(NODE_INCLUDE)/node_api.h)

CHECKS += check-node

$(NODE_B)/%.o: node/src/%.c $(B)/CONFIG
	@mkdir -p $(@D)
	@if [ ! -f "$(NODE_INCLUDE)/node_api.h" ]; then \
		echo "node-addon: no node_api.h in '$(NODE_INCLUDE)';" \
		    "install Node.js with its headers or set NODE_INCLUDE" >&2; \
		exit 1; fi
	$(CC) $(NODE_CFLAGS) -c $< -o $@

$(NODE_ADDON): $(NODE_OBJS) libyespower.a $(B)/randomx/librandomx.a
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -Wl,--exclude-libs,ALL -o $@ $(NODE_OBJS) \
		libyespower.a $(B)/randomx/librandomx.a -lpthread -lm

node-addon: $(NODE_ADDON)

# The tests end with the project's count line (node/test/reporter.mjs);
# a test that hangs fails after 5 minutes.
NODE_TEST = $(NODE) --test --test-timeout=300000 \
	--test-reporter=./node/test/reporter.mjs

check-node:
	@if ! $(NODE) -e 0 2>/dev/null; then \
		echo "node: 0 passed, 0 failed, 1 skipped (no node)"; \
	elif [ -z "$(NODE_HAVE_HEADERS)" ]; then \
		echo "node: 0 passed, 0 failed, 1 skipped (no node_api.h in" \
		    "'$(NODE_INCLUDE)')"; \
	else $(MAKE) -s node-addon && $(NODE_TEST) $(NODE_TESTS); fi

check-node-full: node-addon
	@NODE_RANDOMX_FULL=1 $(NODE_TEST) node/test/full/*.test.js

# node-multi-hashing-aesni's published rx/0 answer (its 64-byte seed).
NODE_NPM_CHECK = const y = require('yespower'); \
	const h = y.randomx(Buffer.from('This is a test'), Buffer.from( \
	'000000000000000100000000000000000000000f000000042000000000000000')); \
	process.exit(h.toString('hex') === \
	'045a80cb878aeb8648f27706fc9dcfae2be284e609f17e8a66566c23c48359c0' ? 0 : 1)

check-node-npm:
	@if ! command -v npm >/dev/null || ! command -v git >/dev/null; then \
		echo "node-npm: 0 passed, 0 failed, 1 skipped (no npm or git)"; \
		exit 0; fi; \
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	git clone -q . "$$tmp/clone" && mkdir "$$tmp/app" && cd "$$tmp/app" && \
	if npm install --offline --registry=http://127.0.0.1:9/ --no-audit \
	    --no-fund "$$tmp/clone/node" > "$$tmp/npm.log" 2>&1 && \
	    $(NODE) -e "$(NODE_NPM_CHECK)"; then \
		echo "node-npm: 1 passed, 0 failed"; \
	else cat "$$tmp/npm.log"; echo "node-npm: 0 passed, 1 failed"; \
		exit 1; fi

bench-node: node-addon $(NODE_B)/c-verify
	@$(NODE) node/bench/bench.js $(NODE_B)/c-verify

# The C side of the benchmark: the same shares through the libraries.
$(NODE_B)/c-verify: node/bench/c-verify.c libyespower.a \
    $(B)/randomx/librandomx.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -std=gnu11 $(LDFLAGS) -o $@ $< libyespower.a \
		$(B)/randomx/librandomx.a -lpthread -lm

clean: clean-node
clean-node:
	rm -rf node/build node/node_modules

.PHONY: node-addon check-node check-node-full check-node-npm bench-node \
	clean-node
