#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of tests/fuzz (clang, AddressSanitizer + UBSan) in
# ./build-fuzz (override with MPG_FUZZ_BUILD_DIR).
#
#   scripts/fuzz.sh build                    configure and build every fuzz target
#   scripts/fuzz.sh run TARGET [SECONDS]     build, then fuzz TARGET (e.g. fuzz_libsvm) for SECONDS
#                                            (default 20) on one core; exit 1 on any finding
#   scripts/fuzz.sh long [SECONDS [TARGET...]]  every target (or those named) in turn, SECONDS each
#                                            (default 600): the longer run; prints executions per target.
#                                            Considerate on a shared machine (one core, lowest priority):
#                                            nohup nice -n 19 scripts/fuzz.sh long 600 > fuzz-long.log 2>&1 &
#   scripts/fuzz.sh list                     the target names
#
# A run starts from the seed corpus tests/fuzz/<reader>/ (never written to) plus the inputs found
# by earlier runs in build-fuzz/corpus/<reader>/; a crash, leak, sanitizer report, timeout (10 s per
# input, 60 s in `long`; MPG_FUZZ_TIMEOUT overrides) or memory blow-up (2 GB) is saved as
# build-fuzz/findings/<target>-<kind>-* and fails the run.
# Reproduce one with: build-fuzz/<target> build-fuzz/findings/<file>
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${MPG_FUZZ_BUILD_DIR:-build-fuzz}"

targets() { for f in tests/fuzz/fuzz_*.cpp; do basename "$f" .cpp; done; }

# build [TARGET...]: every target when none is named.
# clang 16 or newer (the library's lambdas capture structured bindings, a C++20 feature clang 14 lacks).
compiler() {
  for version in 19 18 17 16; do
    command -v "clang++-$version" >/dev/null && { echo "$version"; return; }
  done
  echo ""
}

build() {
  local version
  version="$(compiler)"
  [ -n "$version" ] || { echo "fuzz.sh: clang++ 16 or newer is not installed (scripts/setup.sh installs clang-16)" >&2; exit 2; }
  mkdir -p "$build_dir"
  # One build at a time (CTest may start several fuzz entries).
  exec 9>"$build_dir/.lock"
  flock 9
  if [ ! -f "$build_dir/build.ninja" ]; then
    # Through ccache when installed, as scripts/build.sh: other checkouts' fuzz builds hit the cache.
    local launcher=()
    if ccache_path="$(command -v ccache)"; then
      local ccache_env="/usr/bin/env;CCACHE_BASEDIR=$(cd .. && pwd);CCACHE_NOHASHDIR=1;$ccache_path"
      launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_env" "-DCMAKE_C_COMPILER_LAUNCHER=$ccache_env")
    fi
    CC="clang-$version" CXX="clang++-$version" cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=None -DMPG_FUZZ=ON \
      -DMPG_BUILD_TESTS=OFF -DMPG_BUILD_BENCH=OFF -DMPG_WERROR=ON "${launcher[@]}" >/dev/null
  fi
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || mapfile -t wanted < <(targets)
  cmake --build "$build_dir" --parallel "${MPG_FUZZ_JOBS:-2}" --target "${wanted[@]}"
  flock -u 9
}

run() {
  local target="$1" seconds="${2:-20}"
  local reader="${target#fuzz_}"
  [ -f "tests/fuzz/$target.cpp" ] || { echo "fuzz.sh: no target $target (known: $(targets | tr '\n' ' '))" >&2; exit 2; }
  build "$target" >/dev/null
  mkdir -p "$build_dir/corpus/$reader" "$build_dir/findings"
  echo "fuzz.sh: $target for ${seconds}s from tests/fuzz/$reader/ (findings go to $build_dir/findings/)"
  local log="$build_dir/findings/$target.log"
  # The JSON readers are fuzzed with inputs up to 1 MiB (libFuzzer's default, 4 KB, cannot nest past
  # the 256-level limit far enough to matter, issue 56); the line readers keep the default.
  local max_len=()
  case "$target" in fuzz_model|fuzz_spec) max_len=(-max_len="${MPG_FUZZ_MAX_LEN:-1048576}") ;; esac
  if ! "$build_dir/$target" "${max_len[@]}" -max_total_time="$seconds" -timeout="${MPG_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build_dir/findings/$target-" "$build_dir/corpus/$reader" "tests/fuzz/$reader" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz.sh: $target FOUND A PROBLEM (full log $log; the input is saved as $build_dir/findings/$target-*)" >&2
    return 1
  fi
  local runs coverage
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  # libFuzzer's last status line: edges covered (cov), features (ft), corpus inputs (corp).
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1 || true)
  echo "fuzz.sh: $target: no finding in ${seconds}s, $runs executions${coverage:+ ($coverage)}"
}

case "${1:-}" in
  build) shift; build "$@" ;;
  run) shift; run "$@" ;;
  long)
    seconds="${2:-600}"
    shift $(( $# < 2 ? $# : 2 ))
    chosen=("$@")
    [ ${#chosen[@]} -gt 0 ] || mapfile -t chosen < <(targets)
    build "${chosen[@]}"
    # libFuzzer's per-input timeout is wall-clock time: under nice -n 19 on a busy machine a 10 ms input
    # can wait longer than 10 s for a core (a false "timeout"), so the long run allows 60 s.
    export MPG_FUZZ_TIMEOUT="${MPG_FUZZ_TIMEOUT:-60}"
    status=0
    for t in "${chosen[@]}"; do run "$t" "$seconds" || status=1; done
    exit $status ;;
  list) targets ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
