#!/usr/bin/env bash
# Sets up dependencies (apt-get), builds, and runs the whole test suite with CTest: the Catch2
# test files, one 20 s libFuzzer run per fuzz target of tests/fuzz (scripts/fuzz.sh builds them
# with clang into build-fuzz/ first; skipped with a message without clang) and the Slurm executor
# test (skipped with the reason where a one-node cluster cannot start).
# Usage: ./run_tests.sh [ctest arguments...]   e.g. ./run_tests.sh -R f1, ./run_tests.sh -E '^fuzz_'
# A longer fuzz run (10 minutes per target, one core): scripts/fuzz.sh long 600
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup.sh
./scripts/build.sh
ctest --test-dir "${MPG_BUILD_DIR:-build}" --output-on-failure "$@"
