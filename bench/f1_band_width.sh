#!/usr/bin/env bash
# What sets the cost of an F1 game over a whole file: the width of the band of examples on which
# the predictor mixes, not n. Plays the ADULT F1 test game (a3a test file, n = 29,376) at the
# theta of bench/models/adult_a3a_f1_lambda_2-5.json multiplied by each SCALE (default
# 1 3 10 30 100), each stopped at the target gap 1e-6 of issue 3 or at CAP_SECONDS of game time
# (default 2), pinned to one core under /usr/bin/time. Scaling theta scales every potential
# psi_i = theta . x_i, which narrows the band about in proportion. "mixed examples" counts the
# examples with 0 < P(Y_hat_i = 1) < 1 in the returned strategy (an equilibrium's only if the
# game finished).
#   bench/f1_band_width.sh [CAP_SECONDS [SCALE ...]]
# Data from MPG_DATA_DIR (default ../shared/datasets); the build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,11p' "$0"; exit 0 ;; esac
. bench/common.sh
cap_and_scales 2 "1 3 10 30 100" "$@"
require "$mpg" "$adult_test" "$adult_f1_model" /usr/bin/time

echo "| theta scale | max abs theta | mixed examples | iterations | game s | gap | gap <= 1e-6 in <= 2 s | wall s | peak RSS MB | test F1 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in "${scales[@]}"; do
  jq --argjson s "$s" '.theta |= map(. * $s) | .training.source += " (theta scaled by \($s) for bench/f1_band_width.sh)"' \
    "$adult_f1_model" > "$work/model.json"
  /usr/bin/time -f "%e %M" -o "$work/time" "${pin[@]}" "$mpg" predict --model "$work/model.json" \
    --test "$adult_test" --json --tolerance 1e-6 --max-seconds "$cap" > "$work/predict.json"
  read -r seconds kilobytes < "$work/time"
  theta_max="$(jq '.theta | map(fabs) | max' "$work/model.json")"
  jq -r --arg s "$s" --arg wall "$seconds" --arg kb "$kilobytes" --argjson theta_max "$theta_max" \
    "$jq_sci"'
     "| \($s) | \($theta_max | sci) | \(.mixed_examples) | \(.iterations) | \(.seconds * 100 | round / 100) | \(.gap | sci) | \(if .gap <= 1e-6 and .seconds <= 2 then "yes" else "no" end) | \($wall) | \(($kb | tonumber) / 1024 * 10 | round / 10) | \(.score * 1000 | round / 1000) |"' \
    "$work/predict.json"
done
