#!/usr/bin/env bash
# Configures and builds mpg-repro in ./build (Release, warnings as errors). Extra arguments are
# passed to CMake's configure step, e.g. scripts/build.sh -DMPG_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MPG_BUILD_DIR:-build}"
# ccache, when installed, makes rebuilds and builds of other checkouts of the same sources cheap
# (paths under the parent directory are hashed relative, so worktrees share entries).
launcher=()
if ccache_path="$(command -v ccache)"; then
  ccache_env="/usr/bin/env;CCACHE_BASEDIR=$(cd .. && pwd);CCACHE_NOHASHDIR=1;$ccache_path"
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_env" "-DCMAKE_C_COMPILER_LAUNCHER=$ccache_env")
fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMPG_WERROR=ON "${launcher[@]}" "$@" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
