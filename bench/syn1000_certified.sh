#!/usr/bin/env bash
# Certified F1-MPG training of syn1000 (lambda = 1/8, tolerance 1e-6) by the joint trainer, on one
# core, for each --sizes-per-round value given (default: 1 4):
#   bench/syn1000_certified.sh [SIZES_PER_ROUND...]     MAX_SECONDS=0 (no cap) CORE=0 FILE=syn1000
# Per run: wall seconds and peak RSS (/usr/bin/time), rounds, LP pivots, certified gap, objective,
# LP and best-response seconds, and the load average when the run ended (the machine may be shared).
# Files are read from MPG_BENCH_DIR (default ../shared/bench); the build from MPG_BUILD_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,8p' "$0"; exit 0 ;; esac
mpg="${MPG_BUILD_DIR:-build}/mpg"
data="${MPG_BENCH_DIR:-../shared/bench}"
file="$data/${FILE:-syn1000}.train"
for f in "$mpg" "$file" /usr/bin/time; do
  [ -e "$f" ] || { echo "syn1000_certified.sh: missing $f (build with ./scripts/build.sh)" >&2; exit 1; }
done
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 4)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "| sizes per round | wall s | peak RSS MB | rounds | LP pivots | certified | gap | objective | LP s | responses s | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for s in "${sizes[@]}"; do
  /usr/bin/time -f "%e %M" -o "$work/time" taskset -c "${CORE:-0}" "$mpg" train --metric f1 --optimizer joint \
    --lambda 0.125 --train "$file" --model "$work/model.json" --sizes-per-round "$s" \
    --max-seconds "${MAX_SECONDS:-0}" --quiet
  read -r seconds kilobytes < "$work/time"
  python3 - "$s" "$seconds" "$kilobytes" "$work/model.json" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, sys
s, seconds, kilobytes, model_file, load = sys.argv[1:]
t = json.load(open(model_file))["training"]
print(f"| {s} | {float(seconds):.1f} | {int(kilobytes) / 1024:.1f} | {t['iterations']} | {t['lp_pivots']} | "
      f"{'yes' if t['converged'] else 'no'} | {t['gap']:.2e} | {t['objective']:.10f} | {t['lp_seconds']:.1f} | "
      f"{t['response_seconds']:.1f} | {load} |")
PY
done
