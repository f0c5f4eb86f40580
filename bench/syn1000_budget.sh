#!/usr/bin/env bash
# F1-MPG training on syn1000 (lambda = 0.125) under growing cutting-plane iteration budgets,
# side by side with the reference's 301.6 s / 4.9 GB / test F1 0.537 (notes/mpg-java-reference.md §7).
#   bench/syn1000_budget.sh [ITERATIONS...]       default: 1 2 3 4 5 6
# Per budget: training wall time and peak RSS (/usr/bin/time), the final objective and whether it
# is certified, then the test game on syn1000.test capped at --max-seconds 30 (its gap is printed:
# a capped game is not an equilibrium), the test F1 of its most probable action (the papers' rule)
# and the expected test F1 of the predictor's mixed strategy.
# Files are read from MPG_BENCH_DIR (default ../shared/bench); the build from MPG_BUILD_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h|--help) sed -n '2,9p' "$0"; exit 0 ;; esac
mpg="${MPG_BUILD_DIR:-build}/mpg"
data="${MPG_BENCH_DIR:-../shared/bench}"
for f in "$mpg" "$data/syn1000.train" "$data/syn1000.test" /usr/bin/time; do
  [ -e "$f" ] || { echo "syn1000_budget.sh: missing $f (build with ./scripts/build.sh)" >&2; exit 1; }
done
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(1 2 3 4 5 6)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "| iterations | train s | peak RSS MB | objective | certified | test game gap (30 s cap) | test F1 | expected test F1 |"
echo "|---|---|---|---|---|---|---|---|"
for it in "${budgets[@]}"; do
  /usr/bin/time -f "%e %M" -o "$work/time" "$mpg" train --metric f1 --lambda 0.125 \
    --train "$data/syn1000.train" --model "$work/model.json" --max-iterations "$it" --quiet
  read -r seconds kilobytes < "$work/time"
  "$mpg" predict --model "$work/model.json" --test "$data/syn1000.test" --json --max-seconds 30 \
    > "$work/predict.json"
  python3 - "$it" "$seconds" "$kilobytes" "$work/model.json" "$work/predict.json" <<'EOF'
import json, sys
it, seconds, kilobytes, model_file, predict_file = sys.argv[1:]
model = json.load(open(model_file))["training"]
pred = json.load(open(predict_file))
print(f"| {it} | {float(seconds):.2f} | {int(kilobytes) / 1024:.1f} | {model['objective']:.4f} | "
      f"{'yes' if model.get('converged') else 'no'} | {pred['gap']:.2g} | {pred['score']:.3f} | {pred['expected_score']:.3f} |")
EOF
done
