# Set-up shared by the bench scripts that time `mpg` on the ADULT files (sourced, not run):
# the binary ($mpg, from MPG_BUILD_DIR, default build), the data directory ($data_dir, from
# MPG_DATA_DIR, default ../shared/datasets), one-core pinning ("${pin[@]}"), a scratch directory
# ($work, removed on exit), require FILE... (exit 1 naming the first missing file) and jq_sci
# (a jq function: numbers as 1.23e-4), and cap_and_scales for the scripts that take
# CAP_SECONDS [SCALE ...].
mpg="${MPG_BUILD_DIR:-build}/mpg"
data_dir="${MPG_DATA_DIR:-../shared/datasets}"
# The ADULT test file and the F1 model (theta of the full Table VIII run, lambda = 2^-5) the
# F1 test-game scripts play.
adult_test="$data_dir/adult/a3a.t.gz"
adult_f1_model=bench/models/adult_a3a_f1_lambda_2-5.json
require() {
  local f
  for f in "$@"; do
    [ -e "$f" ] || { echo "$(basename "$0"): missing $f (build with ./scripts/build.sh)" >&2; exit 1; }
  done
}
pin=()
command -v taskset > /dev/null && pin=(taskset -c 0)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
jq_sci='def sci: if . == 0 then "0" else (log10 | floor) as $e | "\(. / pow(10; $e) * 100 | round / 100)e\($e)" end;'
# cap_and_scales DEFAULT_CAP "DEFAULT SCALES" [ARG ...]: sets $cap and the array scales from the
# script's arguments CAP_SECONDS [SCALE ...]; exits 2 naming the first one that is not a number.
cap_and_scales() {
  local default_cap="$1" default_scales="$2" number='^[0-9]+([.][0-9]+)?$' s
  shift 2
  cap="${1:-$default_cap}"
  shift || true
  scales=("$@")
  [ ${#scales[@]} -gt 0 ] || read -r -a scales <<< "$default_scales"
  [[ "$cap" =~ $number ]] || { echo "$(basename "$0"): CAP_SECONDS must be a number, got '$cap'" >&2; exit 2; }
  for s in "${scales[@]}"; do
    [[ "$s" =~ $number ]] || { echo "$(basename "$0"): SCALE must be a number, got '$s'" >&2; exit 2; }
  done
}
