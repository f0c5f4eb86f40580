#!/usr/bin/env bash
# Sets up dependencies, builds, and reproduces the published tables.
#   ./run_all.sh           every experiment spec in experiments/ with its full grid
#   ./run_all.sh --quick   a reduced grid that finishes in minutes
# Each spec writes results/<spec>.{md,csv,json}; a summary is printed at the end.
set -euo pipefail
cd "$(dirname "$0")"
quick=""
for arg in "$@"; do
  case "$arg" in
    --quick) quick="--quick" ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "run_all.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
./scripts/setup.sh
./scripts/build.sh
mpg="${MPG_BUILD_DIR:-build}/mpg"

shopt -s nullglob
specs=(experiments/*.json)
if [ ${#specs[@]} -eq 0 ]; then
  echo "run_all.sh: no experiment specs in experiments/ (expected experiments/<table>.json)" >&2
  exit 1
fi
summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
status=0
for spec in "${specs[@]}"; do
  echo "=== $spec ${quick}" >&2
  "$mpg" run "$spec" $quick | tee -a "$summary" || status=1
done
# Figures from the experiments' CSV files (gnuplot; a missing gnuplot only skips the plot).
suffix=""
if [ -n "$quick" ]; then suffix=".quick"; fi
for csv in results/*"$suffix".figure8.csv; do
  case "$csv" in *.quick.figure8.csv) [ -n "$quick" ] || continue ;; esac
  ./scripts/plot_figure8.sh "$csv" "${csv%.csv}.png" | tee -a "$summary" || status=1
done
echo
echo "===== Summary ($(date -u +%Y-%m-%dT%H:%MZ)) ====="
cat "$summary"
if [ -n "$quick" ]; then
  echo "(--quick: reduced grids, results/*.quick.*; the full run writes results/<spec>.*)"
fi
exit $status
