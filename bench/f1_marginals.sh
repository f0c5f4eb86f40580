#!/usr/bin/env bash
# The ADULT F1 test game (a3a test file, n = 29,376) solved over marginals
# (`mpg predict --solver marginals`, lib/metrics/f1_marginal_solver), at the theta of
# bench/models/adult_a3a_f1_lambda_2-5.json multiplied by each SCALE (default 10 3 1), pinned to
# one core under /usr/bin/time, with the solver's default settings and --tolerance 1e-6. Each
# game is played twice: capped at 2 s ("gap at 2 s": the gap of the last round finished by
# then) and capped at CAP_SECONDS (default 60). Prints one table row per game. ROWS=N plays the
# game of the first N rows of the test file instead (the F1 timing table of bench/README).
#   [ROWS=N] bench/f1_marginals.sh [CAP_SECONDS [SCALE ...]]
# Data from MPG_DATA_DIR (default ../shared/datasets); the build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,10p' "$0"; exit 0 ;; esac
. bench/common.sh
cap_and_scales 60 "10 3 1" "$@"
require "$mpg" "$adult_test" "$adult_f1_model" /usr/bin/time
command -v jq > /dev/null || { echo "$(basename "$0"): needs jq" >&2; exit 1; }
test_file="$adult_test"
if [ -n "${ROWS:-}" ]; then
  [[ "$ROWS" =~ ^[1-9][0-9]*$ ]] || { echo "$(basename "$0"): ROWS must be a positive integer, got '$ROWS'" >&2; exit 2; }
  test_file="$work/first_rows.t"
  { zcat "$adult_test" || true; } | head -n "$ROWS" > "$test_file"
fi

echo "| theta scale | rounds | game s | gap | gap at 2 s | gap <= 1e-6 in <= 2 s | wall s | CPU s | peak RSS MB | test F1 (decision) | likeliest action's probability |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for s in "${scales[@]}"; do
  jq --argjson s "$s" '.theta |= map(. * $s) | .training.source += " (theta scaled by \($s) for bench/f1_marginals.sh)"' \
    "$adult_f1_model" > "$work/model.json"
  play() {  # play CAP: the game's JSON report on stdout, "wall-s peak-kB user-s system-s" in $work/time
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "${pin[@]}" "$mpg" predict --model "$work/model.json" \
      --test "$test_file" --solver marginals --tolerance 1e-6 --max-seconds "$1" --json --quiet
  }
  gap_2s="$(play 2 | jq -r "$jq_sci"' .gap | sci')"
  play "$cap" > "$work/report.json"
  read -r seconds kilobytes user system < <(tail -n 1 "$work/time")
  jq -r --arg s "$s" --arg gap_2s "$gap_2s" --arg wall "$seconds" --arg kb "$kilobytes" --arg cpu "$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" "$jq_sci"'
     "| \($s) | \(.iterations) | \(.seconds * 100 | round / 100) | \(.gap | sci) | \($gap_2s) | \(if .gap <= 1e-6 and .seconds <= 2 then "yes" else "no" end) | \($wall) | \($cpu) | \(($kb | tonumber) / 1024 * 10 | round / 10) | \(.score * 10000 | round / 10000) | \(.probability * 1000 | round / 1000) |"' \
    "$work/report.json"
done
