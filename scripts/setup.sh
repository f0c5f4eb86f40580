#!/usr/bin/env bash
# Installs every build and run dependency of mpg-repro from Debian's package repositories.
# Idempotent: packages already present are skipped, so a second run costs a few dpkg queries.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev          # dense/sparse linear algebra
  libglpk-dev            # default LP backend of the matrix-game solver
  liblpsolve55-dev       # second LP backend
  nlohmann-json3-dev     # JSON specs, results and --json output
  libfmt-dev             # formatting
  libbenchmark-dev       # Google Benchmark (bench/)
  catch2                 # Catch2 (v2.13 in bookworm; tests/)
  liblbfgs-dev           # L-BFGS for the outer learner
  libsvm-dev             # C-SVC with a precomputed kernel (SVMcompare, baselines/svm_compare)
  liblinear-dev          # weighted linear SVM / logistic regression (Parambath ch. 2, baselines/liblinear)
  libcli11-dev           # command line
  libtbb-dev             # parallel loops in the harness
  zlib1g-dev             # gzipped data files (LIBSVM .t.gz, CoNLL-2003)
  liblzma-dev            # xz-compressed data files (LETOR)
  libzip-dev             # zip archives of data (the NLTK Penn Treebank sample, treebank.zip)
  gnuplot-nox            # figures (run_all.sh plots Figure 8; not needed by the build or tests)
  ccache                 # scripts/build.sh compiles through it: cheap rebuilds, worktrees share entries
  time                   # /usr/bin/time -v for memory figures in bench/
  jq                     # bench/adult_test_games.sh
  python3                # scripts/fetch_data.sh, bench/syn1000_budget.sh (Debian's; nothing from PyPI)
  clang-16 libclang-rt-16-dev  # libFuzzer + ASan/UBSan: tests/fuzz (scripts/fuzz.sh; clang 16 captures structured bindings)
  util-linux             # flock: scripts/fuzz.sh builds build-fuzz/ once when CTest starts several targets
  slurm-wlm munge        # mpg run --executor slurm; scripts/slurm_local.sh starts a one-node cluster for its test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
