#!/usr/bin/env bash
# The ADULT F1 test game (a3a test file, n = 29,376) solved over marginals by the prototype
# build/f1_marginal_lp (bench/tools/f1_marginal_lp.cpp), at the theta of
# bench/models/adult_a3a_f1_lambda_2-5.json multiplied by each SCALE (default 10 3 1), pinned to
# one core under /usr/bin/time, each stopped at gap 1e-6 or when a round starts after
# CAP_SECONDS of game time (default 60), with the prototype's default settings (no band or
# window is given by hand). Prints each round of each game, then one table row per game.
#   bench/f1_marginal_lp.sh [CAP_SECONDS [SCALE ...]]
# Data from MPG_DATA_DIR (default ../shared/datasets); the build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,9p' "$0"; exit 0 ;; esac
. bench/common.sh
cap_and_scales 60 "10 3 1" "$@"
tool="${MPG_BUILD_DIR:-build}/f1_marginal_lp"
require "$tool" "$adult_test" "$adult_f1_model" /usr/bin/time

rows=()
for s in "${scales[@]}"; do
  status=0
  /usr/bin/time -f "%e %M" -o "$work/time" "${pin[@]}" "$tool" --model "$adult_f1_model" --test "$adult_test" \
    --scale "$s" --tolerance 1e-6 --max-seconds "$cap" \
    | tee "$work/rounds" || status=$?
  read -r seconds kilobytes < <(tail -n 1 "$work/time")  # after a "Command exited" line
  last="$(grep '^round' "$work/rounds" | tail -n 1)"
  rounds="$(grep -c '^round' "$work/rounds")"
  gap="$(sed -E 's/.*gap ([^ ]+) .*/\1/' <<< "$last")"
  game_seconds="$(sed -E 's/.*, ([0-9.]+) s$/\1/' <<< "$last")"
  # The gap of the last round finished within 2 s of game time ("-" if none).
  gap_2s="$(grep '^round' "$work/rounds" | sed -E 's/.*gap ([^ ]+) .*, ([0-9.]+) s$/\1 \2/' |
    awk '$2 <= 2 { g = $1 } END { print (g == "" ? "-" : g) }')"
  met=no
  [ "$status" -eq 0 ] && awk -v t="$game_seconds" 'BEGIN { exit !(t <= 2) }' && met=yes
  region="$(sed -E 's/.*region (\[[0-9]+, [0-9]+\)).*/\1/' <<< "$last")"
  rows+=("| $s | $region | $rounds | $game_seconds | $gap | $gap_2s | $met | $seconds | $(awk -v kb="$kilobytes" 'BEGIN { printf "%.1f", kb / 1024 }') |")
done
echo
echo "| theta scale | last region of psi-ranks | rounds | game s | gap | gap at 2 s | gap <= 1e-6 in <= 2 s | wall s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
