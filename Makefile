# Convenience front end to CMake. `make deps` installs the Debian packages
# the build needs (as root, or through sudo), skipping those already present.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PACKAGES = build-essential cmake pkg-config libconfig-dev zlib1g-dev libcairo2-dev libopenmpi-dev openmpi-bin python3 \
	python3-dev python3-cffi python3-numpy python3-pip python3-setuptools
# The peer code the tests compare with (tests/peers/), VTK's Python reader that reads the
# VTK frames back (tests/vtk_readback.py) and matplotlib for `grains bench --plot`; without them
# those tests are skipped, unless GRAINS_REQUIRE_PEERS is set (CI sets it: a skip is then a failure).
PEER_PACKAGES = lammps python3-vtk9 python3-numpy python3-matplotlib
# libFuzzer comes with clang (make fuzz); ThreadSanitizer needs LLVM's OpenMP with its Archer tool (make test-tsan).
FUZZ_PACKAGES = clang libomp-dev

PREFIX ?= /usr/local

.PHONY: all deps deps-peers deps-fuzz build run install test test-sanitize test-tsan fuzz bench clean

all: build

deps deps-peers deps-fuzz:
	@missing=""; for p in $(if $(filter deps-peers,$@),$(PEER_PACKAGES),$(if $(filter deps-fuzz,$@),$(FUZZ_PACKAGES),$(DEB_PACKAGES))); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $(if $(filter deps-peers,$@),--no-install-recommends) $$missing; \
	fi

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGRAINS_WERROR=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/grains

# grains into PREFIX/bin, the examples and their meshes into PREFIX/share/grains.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The suite under AddressSanitizer and UndefinedBehaviorSanitizer, the shared library, the Python
# module and the installed library's test included (not the
# comparisons with peer codes nor the examples' short forms: they run the
# same engine code for minutes; nor the tests under mpirun, whose Open MPI
# keeps allocations LeakSanitizer reports; nor those labelled sanitize_skip,
# whose code others run there: CI's 30 minutes).
test-sanitize:
	cmake -S . -B $(BUILD)-sanitize -DCMAKE_BUILD_TYPE=Debug -DGRAINS_SANITIZE=ON -DGRAINS_SHARED=ON -DGRAINS_WERROR=ON >/dev/null
	cmake --build $(BUILD)-sanitize -j $(JOBS)
	cd $(BUILD)-sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp ctest --output-on-failure -j $(JOBS) -LE 'peer|examples|mpi|sanitize_skip'

# The threaded tests under ThreadSanitizer: clang with LLVM's OpenMP, whose Archer tool tells TSan
# what the OpenMP barriers order (GCC's libgomp is not instrumented: every phase would be a "race").
TSAN_TESTS ?= test_checkpoint test_ghost test_io test_van_der_waals test_tinydem_reference test_last_good test_neighbors test_lanes test_contact_output \
	test_probes test_sinks test_remove
test-tsan:
	CC=clang cmake -S . -B $(BUILD)-tsan -DCMAKE_BUILD_TYPE=Debug -DGRAINS_TSAN=ON >/dev/null
	cmake --build $(BUILD)-tsan -j $(JOBS) --target $(TSAN_TESTS) >/dev/null
	for t in $(TSAN_TESTS); do \
	  OMP_TOOL_LIBRARIES=$$(ls /usr/lib/llvm-*/lib/libarcher.so | head -1) \
	  TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" $(BUILD)-tsan/tests/$$t >$(BUILD)-tsan/$$t.log 2>&1 \
	    || { cat $(BUILD)-tsan/$$t.log; exit 1; }; tail -1 $(BUILD)-tsan/$$t.log; \
	done

# Every reader fuzzed for FUZZ_SECONDS each (libFuzzer with ASan and UBSan; tests/fuzz/run.sh).
FUZZ_SECONDS ?= 20
fuzz:
	BUILD=$(BUILD)-fuzz sh tests/fuzz/run.sh $(FUZZ_SECONDS)

bench: build
	./$(BUILD)/grains bench

clean:
	rm -rf $(BUILD) $(BUILD)-sanitize $(BUILD)-fuzz $(BUILD)-tsan
