#!/usr/bin/env bash
# Checks the solver over marginals (`mpg solve-game --solver marginals`) against the double
# oracle on small random F1 games:
# for each of GAMES games (default 40; n from 6 to 40, potentials uniform with a random centre
# and spread), the double oracle to gap 1e-10 gives the value, and the solver over marginals
# (--tolerance 1e-9) a certified interval [lower, upper]. A game passes when the value lies in
# the interval (within 1e-9); the table also says whether the solver closed its gap.
# WINDOW (default 3) is the solver's --window: far below n, so that the pricing and the
# freeing of entries by best responses, not the first window, must find the free entries.
# Exits 1 if any game fails.
#   bench/f1_marginals_check.sh [GAMES [WINDOW]]
# The build from MPG_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,12p' "$0"; exit 0 ;; esac
. bench/common.sh
games="${1:-40}" window="${2:-3}"
for x in "$games" "$window"; do
  [[ "$x" =~ ^[0-9]+$ ]] || { echo "$(basename "$0"): GAMES and WINDOW must be whole numbers, got '$x'" >&2; exit 2; }
done
require "$mpg"
command -v jq > /dev/null || { echo "$(basename "$0"): needs jq" >&2; exit 1; }

failed=0 closed=0
echo "| game | n | double-oracle value | interval over marginals | its gap | value inside |"
echo "|---|---|---|---|---|---|"
for game in $(seq 1 "$games"); do
  awk -v seed="$game" 'BEGIN { srand(seed); n = 6 + int(rand() * 35); centre = (rand() - 0.5) * 0.2;
    spread = 0.01 + rand() * 0.3; for (i = 0; i < n; i++) printf "%.6f\n", centre + (rand() - 0.5) * spread }' > "$work/psi"
  n="$(wc -l < "$work/psi")"
  value="$("$mpg" solve-game --potentials-file "$work/psi" --tolerance 1e-10 --json --quiet | jq -r '.value')"
  read -r lower upper gap < <("$mpg" solve-game --potentials-file "$work/psi" --solver marginals --window "$window" \
    --tolerance 1e-9 --max-seconds 20 --json --quiet | jq -r '"\(.lower) \(.upper) \(.gap)"')
  inside="$(awk -v v="$value" -v lo="$lower" -v hi="$upper" 'BEGIN { print (v >= lo - 1e-9 && v <= hi + 1e-9) ? "yes" : "NO" }')"
  [ "$inside" = yes ] || failed=$((failed + 1))
  awk -v g="$gap" 'BEGIN { exit !(g <= 1e-9) }' && closed=$((closed + 1))
  echo "| $game | $n | $value | [$lower, $upper] | $gap | $inside |"
done
echo
echo "$((games - failed)) of $games values inside the interval; $closed of $games gaps closed to 1e-9"
[ "$failed" -eq 0 ]
