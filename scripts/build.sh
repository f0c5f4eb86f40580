#!/usr/bin/env bash
# Configures and builds mpg-repro in ./build (Release, warnings as errors). Extra arguments are
# passed to CMake's configure step, e.g. scripts/build.sh -DMPG_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MPG_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMPG_WERROR=ON "$@" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
