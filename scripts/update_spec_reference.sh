#!/usr/bin/env bash
# Rewrites the generated block of experiments/README.md (between "BEGIN GENERATED" and
# "END GENERATED") with `mpg run --spec-reference`: run it after adding or changing a family's
# spec keys or a method's parameters (tests/test_parameters.cpp checks the two agree).
#   scripts/update_spec_reference.sh [path/to/mpg]
set -euo pipefail
cd "$(dirname "$0")/.."
mpg="${1:-${MPG_BUILD_DIR:-build}/mpg}"
readme=experiments/README.md
reference="$(mktemp)"
out="$(mktemp)"
trap 'rm -f "$reference" "$out"' EXIT
"$mpg" run --spec-reference > "$reference"
awk -v ref="$reference" '
  /^<!-- BEGIN GENERATED: mpg run --spec-reference -->$/ { print; while ((getline line < ref) > 0) print line; skip = 1; next }
  /^<!-- END GENERATED -->$/ { skip = 0 }
  !skip { print }' "$readme" > "$out"
grep -q '^<!-- END GENERATED -->$' "$out" || { echo "update_spec_reference.sh: no generated block in $readme" >&2; exit 1; }
cp "$out" "$readme"
echo "updated $readme"
