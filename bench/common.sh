# Set-up shared by the bench scripts that time `mpg` on the ADULT files (sourced, not run):
# the binary ($mpg, from MPG_BUILD_DIR, default build), the data directory ($data_dir, from
# MPG_DATA_DIR, default ../shared/datasets), one-core pinning ("${pin[@]}"), a scratch directory
# ($work, removed on exit), require FILE... (exit 1 naming the first missing file) and jq_sci
# (a jq function: numbers as 1.23e-4).
mpg="${MPG_BUILD_DIR:-build}/mpg"
data_dir="${MPG_DATA_DIR:-../shared/datasets}"
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
