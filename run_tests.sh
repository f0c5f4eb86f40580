#!/usr/bin/env bash
# Sets up dependencies (apt-get), builds, and runs the whole test suite with CTest.
# Usage: ./run_tests.sh [ctest arguments...]   e.g. ./run_tests.sh -R f1
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup.sh
./scripts/build.sh
ctest --test-dir "${MPG_BUILD_DIR:-build}" --output-on-failure "$@"
