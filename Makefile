# Two commands set everything up on a fresh Debian 12 machine:
#   make play   installs missing packages, builds, starts a game of Hearts against bots
#   make test   installs missing packages, builds, runs the whole test suite (Release, then
#               AddressSanitizer+UndefinedBehaviorSanitizer, then ThreadSanitizer on the parallel parts)
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS       ?= $(shell nproc)
CMAKE_GEN  := -G Ninja
ARGS       ?=

.PHONY: all deps build play test test-release test-asan test-tsan test-long bench clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Only the executable: the test programs are built by `make test`.
play: deps
	@echo "Building the cardgames executable in $(BUILD)/ (the first time takes a few minutes)..."
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target cardgames_app
	@./$(BUILD)/apps/cardgames play $(ARGS)

test: test-release test-asan test-tsan

test-release: build
	ctest --test-dir $(BUILD) --output-on-failure -LE long -j $(JOBS)

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARDGAMES_SANITIZE=address >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -LE long -j $(JOBS)

# ThreadSanitizer covers the parts that run threads (CTest label "parallel"): only their targets
# are built, against a oneTBB built with ThreadSanitizer from Debian's source package of the
# installed version (scripts/tsan-tbb.sh; once per machine, kept in $(TSAN_BUILD)/onetbb), since
# TSan cannot see the synchronisation inside an uninstrumented libtbb.
TSAN_TARGETS ?= pimc_parallel_tests cardgames_app
test-tsan: deps
	@tbb_dir=$$(bash scripts/tsan-tbb.sh $(TSAN_BUILD)/onetbb) && \
	  cmake -S . -B $(TSAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARDGAMES_SANITIZE=thread \
	    -DTBB_DIR=$$tbb_dir >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(TSAN_TARGETS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(TSAN_BUILD) --output-on-failure -L parallel -j $(JOBS) --no-tests=ignore

# The larger differential and property runs.
test-long: build
	ctest --test-dir $(BUILD) --output-on-failure -L long -j $(JOBS)

bench: build
	./$(BUILD)/apps/cardgames bench $(ARGS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
