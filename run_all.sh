#!/usr/bin/env bash
# Sets up dependencies, builds, and reproduces the published tables.
#   ./run_all.sh                  every experiment spec in experiments/ with its full grid
#   ./run_all.sh --quick          a reduced grid of every spec that finishes in minutes
#   ./run_all.sh --quick --check  rerun the quick grids and compare every number with the tables
#                                 in results/ (nothing is written; exit 3 if a number drifted)
# Each spec writes results/<name>[.quick].{md,csv,json}; a summary is printed at the end.
set -euo pipefail
cd "$(dirname "$0")"
quick=""
check=""
for arg in "$@"; do
  case "$arg" in
    --quick) quick="--quick" ;;
    --check) check="--check" ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
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
# One line per table with an estimate of the time left: each spec's last run (the table committed
# in results/, `mpg run --last-time`); a spec without one counts as nothing.
duration() { local s=$1; if [ "$s" -ge 3600 ]; then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60)); else printf '%dm%02ds' $((s / 60)) $((s % 60)); fi; }
declare -A last_seconds
left=0
while read -r spec seconds; do
  if [ "$seconds" != "-" ]; then last_seconds[$spec]=$seconds; left=$((left + seconds)); fi
done < <("$mpg" run --last-time $quick "${specs[@]}")
echo "run_all.sh: ${#specs[@]} specs; their last runs took $(duration "$left") in all" >&2
index=0
for spec in "${specs[@]}"; do
  index=$((index + 1))
  last="${last_seconds[$spec]:-}"
  echo "=== [$index/${#specs[@]}] $spec${quick:+ $quick}${check:+ $check} (last run $( [ -n "$last" ] && duration "$last" || echo "unknown"); about $(duration "$left") left in all)" >&2
  started=$SECONDS
  rc=0
  "$mpg" run "$spec" $quick $check | tee -a "$summary" || rc=$?
  left=$((left - ${last:-0})); [ "$left" -ge 0 ] || left=0
  echo "=== [$index/${#specs[@]}] $spec done in $(duration $((SECONDS - started)))" >&2
  if [ "$rc" -ne 0 ]; then
    # 3: --check found drifted numbers; anything else is a failure of the run itself.
    if [ "$rc" -eq 3 ] && [ "$status" -ne 1 ]; then status=3; else status=1; fi
  fi
done
# Figures from the experiments' CSV files (gnuplot; a missing gnuplot only skips the plot).
if [ -z "$check" ]; then
  suffix=""
  if [ -n "$quick" ]; then suffix=".quick"; fi
  for csv in results/*"$suffix".figure8.csv; do
    case "$csv" in *.quick.figure8.csv) [ -n "$quick" ] || continue ;; esac
    ./scripts/plot_figure8.sh "$csv" "${csv%.csv}.png" | tee -a "$summary" || status=1
  done
  # A family may also write gnuplot scripts beside its CSVs (results/<spec>[.quick].<figure>.gp,
  # reading its CSV and writing <figure>.png from results/).
  for gp in results/*"$suffix".*.gp; do
    case "$gp" in *.quick.*.gp) [ -n "$quick" ] || continue ;; esac
    if ! command -v gnuplot >/dev/null; then
      echo "run_all.sh: gnuplot is not installed (scripts/setup.sh installs gnuplot-nox); skipping $gp" >&2
      continue
    fi
    (cd results && gnuplot "$(basename "$gp")") && echo "plotted ${gp%.gp}.png" | tee -a "$summary" || status=1
  done
  # The reproduction report (report/REPORT[.quick].md, report[.quick].png; not committed: results/
  # holds only what the specs produce); the full run also rewrites README's status table from it.
  readme=(); [ -n "$quick" ] || readme=(--readme README.md)
  "$mpg" report $quick "${readme[@]}" | tee -a "$summary" || status=1
fi
echo
echo "===== Summary ($(date -u +%Y-%m-%dT%H:%MZ)) ====="
cat "$summary"
if [ -n "$quick" ]; then
  echo "(--quick: reduced grids, results/*.quick.*; the full run writes results/<spec>.*)"
fi
if [ -n "$check" ]; then
  case "$status" in
    0) echo "check: every number of every table matches results/" ;;
    3) echo "check: some numbers drifted (DRIFT lines above)" ;;
  esac
fi
exit $status
