#!/usr/bin/env bash
# How much one F1 game's time depends on rounding: plays the ADULT F1 test game (first ROWS rows
# of the a3a test file, default all 29,376) at the theta of bench/models/adult_a3a_f1_lambda_2-5.json
# times SCALE (default 1), once as is (seed 0) and once per seed 1..SEEDS (default 5) with every
# weight multiplied by 1 + 1e-15 u, u uniform in [-1, 1] (a few units in the last place: the
# potentials change as a different summation order would change them). Each game as
# bench/f1_marginals.sh plays it (`mpg predict --solver marginals`, default settings, tolerance
# 1e-6), capped at CAP_SECONDS (default 10), pinned to one core. One row per seed, then how many
# were certified. The F1 timing table of bench/README quotes single games; this shows their spread.
#   [ROWS=N] bench/f1_perturbed.sh [CAP_SECONDS [SCALE [SEEDS]]]
# Data from MPG_DATA_DIR (default ../shared/datasets); the build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,11p' "$0"; exit 0 ;; esac
. bench/common.sh
cap_and_scales 10 "1" "${1:-10}" "${2:-1}"
seeds="${3:-5}"
[[ "$seeds" =~ ^[0-9]+$ ]] || { echo "$(basename "$0"): SEEDS must be a non-negative integer, got '$seeds'" >&2; exit 2; }
require "$mpg" "$adult_test" "$adult_f1_model" /usr/bin/time
command -v jq > /dev/null || { echo "$(basename "$0"): needs jq" >&2; exit 1; }
test_file="$work/rows.t"
if [ -n "${ROWS:-}" ]; then
  [[ "$ROWS" =~ ^[1-9][0-9]*$ ]] || { echo "$(basename "$0"): ROWS must be a positive integer, got '$ROWS'" >&2; exit 2; }
  { zcat "$adult_test" || true; } | head -n "$ROWS" > "$test_file"
else
  zcat "$adult_test" > "$test_file"
fi

echo "| seed | rounds | game s | gap | certified | CPU s |"
echo "|---|---|---|---|---|---|"
certified=0
for seed in $(seq 0 "$seeds"); do
  # theta x scale, each weight times 1 + 1e-15 u (seed 0: unperturbed), printed with 17 digits.
  jq -r --argjson s "${scales[0]}" '.theta[] * $s' "$adult_f1_model" |
    awk -v seed="$seed" 'BEGIN { srand(seed) } { u = seed == 0 ? 0 : 2 * rand() - 1; printf "%.17g\n", $1 * (1 + 1e-15 * u) }' \
    > "$work/theta.txt"
  jq --slurpfile theta "$work/theta.txt" '.theta = $theta' "$adult_f1_model" > "$work/model.json"
  /usr/bin/time -f "%U %S" -o "$work/time" "${pin[@]}" "$mpg" predict --model "$work/model.json" --test "$test_file" \
    --solver marginals --tolerance 1e-6 --max-seconds "$cap" --json --quiet > "$work/report.json"
  read -r user system < <(tail -n 1 "$work/time")
  jq -e '.gap <= 1e-6' "$work/report.json" > /dev/null && certified=$((certified + 1))
  jq -r --arg seed "$seed" --arg cpu "$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" "$jq_sci"'
     "| \($seed) | \(.iterations) | \(.seconds * 100 | round / 100) | \(.gap | sci) | \(if .gap <= 1e-6 then "yes" else "no" end) | \($cpu) |"' \
    "$work/report.json"
done
echo
echo "certified: $certified of $((seeds + 1)) games (gap <= 1e-6 within ${cap} s)"
