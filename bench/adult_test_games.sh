#!/usr/bin/env bash
# The ADULT test games of issue 3: one game over the whole a3a test file (n = 29,376), target
# "equilibrium gap <= 1e-6 in <= 2 s on one core".
#   bench/adult_test_games.sh [F1_SECONDS]      default F1_SECONDS: 120
# P@k: trains P@k-MPG on a3a (lambda = 1, dual trainer) and plays the test game (closed form).
# F1: plays the test game at the theta of bench/models/adult_a3a_f1_lambda_2-5.json (the full
# Table VIII run's ADULT cell at lambda = 2^-5) twice: over marginals (--solver marginals,
# tolerance 1e-6; bench/f1_marginals.sh has more), and by double oracle, capped at F1_SECONDS,
# with the default tolerance 1e-9; the gap reached is printed (a capped game is not an
# equilibrium). "iterations" are rounds for the solver over marginals.
# Each game runs pinned to one core (taskset) under /usr/bin/time (wall seconds, peak RSS).
# Data from MPG_DATA_DIR (default ../shared/datasets); the build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,12p' "$0"; exit 0 ;; esac
f1_seconds="${1:-120}"
[[ "$f1_seconds" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "adult_test_games.sh: F1_SECONDS must be a number, got '$f1_seconds'" >&2; exit 2; }
. bench/common.sh
data="$data_dir/adult"
require "$mpg" "$data/a3a" "$data/a3a.t.gz" "$adult_f1_model" /usr/bin/time

"$mpg" train --metric precision_at_k --lambda 1 --train "$data/a3a" --model "$work/patk.json" --quiet

echo "| game | wall s | peak RSS MB | iterations | mixed examples | gap | converged | gap <= 1e-6 in <= 2 s | test score |"
echo "|---|---|---|---|---|---|---|---|---|"
row() {  # name, model, extra predict options...
  local name="$1" model="$2"
  shift 2
  /usr/bin/time -f "%e %M" -o "$work/time" "${pin[@]}" "$mpg" predict --model "$model" \
    --test "$data/a3a.t.gz" --json --quiet "$@" > "$work/predict.json"
  read -r seconds kilobytes < "$work/time"
  jq -r --arg name "$name" --arg s "$seconds" --arg kb "$kilobytes" \
    "$jq_sci"'
     "| \($name) | \($s) | \(($kb | tonumber) / 1024 * 10 | round / 10) | \(if .solver == "closed form" then "closed form" else .iterations end) | \(.mixed_examples) | \(.gap | sci) | \(.converged) | \(if (.gap <= 1e-6 and ($s | tonumber) <= 2) then "yes" else "**no**" end) | \(.score * 1000 | round / 1000) |"' \
    "$work/predict.json"
}
row "P@k, lambda = 1" "$work/patk.json"
row "F1, lambda = 2^-5, over marginals" "$adult_f1_model" --solver marginals --tolerance 1e-6
row "F1, lambda = 2^-5, double oracle (cap ${f1_seconds} s)" "$adult_f1_model" --max-seconds "$f1_seconds"
