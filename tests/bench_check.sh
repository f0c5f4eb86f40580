#!/usr/bin/env bash
# The CTest entry bench_check: bench/check, the regression check of speed, on a temporary copy of
# bench/figures.json restricted to one cheap benchmark case (BM_PairwiseAucHinge/1000):
#   a fresh baseline (--update), then two checks on the unchanged tree pass (exit 0);
#   with the test-only slowdown MPG_BENCH_TEST_DELAY_MS it exits 3 naming the figure.
#   The unchanged-tree checks use --threshold 400: this test checks bench/check's mechanics, not
#   the machine, and under `ctest -j2` another test shares the two cores (CI once measured the
#   unchanged case 1.75x its fresh baseline); the deliberate slowdown is ~80x, caught either way.
#   a damaged figures file (not JSON, a missing field, a wrong type), a measured figure without a
#   baseline and a baseline figure not measured each exit 1 naming the file (and line) or figure;
#   a README block that differs from the figures exits 1.
# Exits 77 (skipped) when mpg_bench is not built.
#   tests/bench_check.sh MPG_BENCH          (MPG_BENCH: the mpg_bench binary, or "none")
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="${1:-none}"
if [ "$bench" = none ] || [ ! -x "$bench" ]; then
  echo "SKIPPED: mpg_bench is not built (Google Benchmark not installed, or MPG_BUILD_BENCH=OFF)"
  exit 77
fi
export MPG_BUILD_DIR="$(dirname "$bench")"
unset MPG_BENCH_TEST_DELAY_MS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
check="$root/bench/check"
case_name='BM_PairwiseAucHinge/1000'
filter="^${case_name}\$"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS PATTERN ARGS...: bench/check ARGS exits STATUS and its output matches PATTERN.
expect() {
  local want="$1" pattern="$2" got
  shift 2
  "$check" "$@" > "$work/out" 2>&1
  got=$?
  sed 's/^/    /' "$work/out"
  [ "$got" = "$want" ] || fail "bench/check $* exited $got, expected $want"
  grep -qE -- "$pattern" "$work/out" || fail "bench/check $*: output does not match '$pattern'"
}

cp "$root/bench/figures.json" "$work/figures.json"
echo "== fresh baseline of $case_name in a copy of bench/figures.json"
expect 0 "updated 1 figures" --figures "$work/figures.json" --filter "$filter" --update
echo "== unchanged tree, twice: passes"
for _ in 1 2; do
  expect 0 "1 figures, threshold 400 %: 0 slower" --figures "$work/figures.json" --filter "$filter" --threshold 400
done
echo "== MPG_BENCH_TEST_DELAY_MS=1: slower, exit 3, the figure named"
MPG_BENCH_TEST_DELAY_MS=1 expect 3 "^${case_name} .*SLOWER" --figures "$work/figures.json" --filter "$filter" --threshold 400

echo "== damaged figures files"
printf '{"figures": [\n  {"name": "x",\n' > "$work/broken.json"
expect 1 "broken\.json:3: not valid JSON" --figures "$work/broken.json" --filter "$filter"
python3 - "$work" "$case_name" <<'EOF'
import json, sys
work, name = sys.argv[1:]
doc = json.load(open(f"{work}/figures.json"))
fig = next(f for f in doc["figures"] if f["name"] == name)
def write(file, change):
    copy = json.loads(json.dumps(doc))
    change(next(f for f in copy["figures"] if f["name"] == name), copy)
    json.dump(copy, open(f"{work}/{file}", "w"), indent=1)
write("missing.json", lambda f, d: f.pop("unit"))
write("wrong_type.json", lambda f, d: f.update(value="fast"))
write("no_baseline.json", lambda f, d: d["figures"].remove(f))
write("not_measured.json", lambda f, d: d["figures"].append({**f, "name": name + "x"}))
EOF
expect 1 "missing\.json:[0-9]+: figure '$case_name': missing field \"unit\"" --figures "$work/missing.json" --filter "$filter"
expect 1 "wrong_type\.json:[0-9]+: figure '$case_name': field \"value\" has the wrong type" \
  --figures "$work/wrong_type.json" --filter "$filter"
expect 1 "no_baseline\.json: no baseline for the measured figure '$case_name'" \
  --figures "$work/no_baseline.json" --filter "$filter"
expect 1 "not_measured\.json: baseline figure '${case_name}x' was not measured" \
  --figures "$work/not_measured.json" --filter "^${case_name}x?\$"

echo "== the README block is generated from the figures"
cp "$root/bench/README.md" "$work/README.md"
expect 1 "README\.md: the figures block differs" --check-readme --figures "$work/figures.json" --readme-file "$work/README.md"
expect 0 "rewrote the figures block" --readme --figures "$work/figures.json" --readme-file "$work/README.md"
expect 0 "matches" --check-readme --figures "$work/figures.json" --readme-file "$work/README.md"

[ "$failures" -eq 0 ] && echo "bench_check: all passed" || echo "bench_check: $failures failed"
[ "$failures" -eq 0 ]
