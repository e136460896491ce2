# Two commands set everything up on a fresh Debian 12 machine:
#   make play   installs missing packages, builds, starts a game of Hearts against bots
#   make test   installs missing packages, builds, runs the whole test suite (Release, then
#               AddressSanitizer+UndefinedBehaviorSanitizer, then ThreadSanitizer on the parallel parts)
#   make fuzz   runs every fuzz target for FUZZ_CASES cases (or FUZZ_SECONDS each), see below
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS       ?= $(shell nproc)
CMAKE_GEN  := -G Ninja
# CI builds once, from a clean clone: as unity builds (8 sources per compiler run, as the sanitizer
# builds always are), which compile the Release build in about half the time. Elsewhere it stays one
# source per run, for quick rebuilds after an edit. UNITY=ON or OFF chooses.
UNITY      ?= $(if $(CI),ON,OFF)
CMAKE_RELEASE := -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=$(UNITY)
ARGS       ?=

.PHONY: all deps build play test format format-check test-release test-asan test-tsan test-long fuzz bench clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) $(CMAKE_RELEASE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Only the executable: the test programs are built by `make test`.
play: deps
	@echo "Building the cardgames executable in $(BUILD)/ (the first time takes a few minutes)..."
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) $(CMAKE_RELEASE) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target cardgames_app
	@./$(BUILD)/apps/cardgames play $(ARGS)

test: format-check test-release test-asan test-tsan

# Every C++ file is formatted by .clang-format (Debian's clang-format-14): `make format` formats
# them, and `make test` fails on the first file that is not, naming it.
CXX_FILES = $(shell find engine cardgames sampling apps tests -name '*.cpp' -o -name '*.hpp')
format: deps
	@clang-format-14 -i $(CXX_FILES)
format-check: deps
	@clang-format-14 --dry-run --Werror $(CXX_FILES) || \
	  { echo "error: the files above are not formatted; run 'make format'" >&2; exit 1; }

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

# Fuzzing with libFuzzer from Debian's clang (installed for this target only): the project builds
# with clang++-14 as it is, so the fuzz targets (tests/fuzz) get libFuzzer's coverage-guided
# mutations under ASan+UBSan in $(FUZZ_BUILD), rather than the blind mutations of our own driver
# that `make test` runs them with (g++, bounded, seconds). Each target runs FUZZ_CASES cases, or
# FUZZ_SECONDS seconds if that ends first (0: no time limit), each case at most FUZZ_TIMEOUT
# seconds; failing inputs land in tests/fuzz/crashes/. FUZZ_KEEP_GOING=1 goes on past a failing
# input (libFuzzer's -fork=1). Example: make fuzz FUZZ_TARGETS=cards FUZZ_SECONDS=600
FUZZ_BUILD   ?= build-fuzz
FUZZ_CASES   ?= 100000
FUZZ_SECONDS ?= 0
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS ?= cards preset record results_tournament results_eval answer bot_session
FUZZ_KEEP_GOING ?= 0
fuzz:
	@bash scripts/install-deps.sh fuzz
	@cmake -S . -B $(FUZZ_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DCARDGAMES_SANITIZE=fuzzer >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	KEEP_GOING=$(FUZZ_KEEP_GOING) bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_CASES) $(FUZZ_SECONDS) $(FUZZ_TIMEOUT) $(FUZZ_TARGETS)

bench: build
	./$(BUILD)/apps/cardgames bench $(ARGS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
