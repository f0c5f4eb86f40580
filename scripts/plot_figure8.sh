#!/usr/bin/env bash
# Plots thesis Figure 8 (NDCG@k, k = 1..10, one line per method) from the CSV the ranking
# experiment writes (results/<spec>[.quick].figure8.csv: dataset,method,k,ndcg,source), one
# panel per data set; published rows (another data set) get their own panel with points only.
#   scripts/plot_figure8.sh results/table12_dcg_ranking.figure8.csv [out.png]
# Needs gnuplot (Debian gnuplot-nox); the tests never call it.
set -euo pipefail
csv="$1"
png="${2:-${csv%.csv}.png}"
if ! command -v gnuplot >/dev/null; then
  echo "plot_figure8.sh: gnuplot is not installed (scripts/setup.sh installs gnuplot-nox); skipping $png" >&2
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# One data file per (data set, method): "k ndcg" lines.
awk -F, -v dir="$work" 'NR > 1 {
  key = $1 "|" $2
  if (!($2 in colour)) colour[$2] = ++colours
  if (!(key in file)) { file[key] = dir "/" (++count) ".dat"; print $1 "|" $2 "|" file[key] "|" colour[$2] > (dir "/index") }
  print $3, $4 > file[key]
}' "$csv"
mapfile -t datasets < <(cut -d'|' -f1 "$work/index" | awk '!seen[$0]++')
# (index lines: data set | method | data file | colour number, one colour per method everywhere)
panels=${#datasets[@]}
{
  echo "set terminal pngcairo size $((520 * panels)),420 font 'Sans,10' noenhanced"
  echo "set output '$png'"
  echo "set multiplot layout 1,$panels title \"Figure 8: NDCG@k (LETOR DCG'')\""
  echo "set xrange [0.5:10.5]; set xtics 1; set grid; set key bottom right font ',9'"
  echo "set xlabel 'k'; set ylabel 'NDCG@k'"
  for dataset in "${datasets[@]}"; do
    echo "set title '$dataset'"
    plots=()
    while IFS='|' read -r d method file colour; do
      [ "$d" = "$dataset" ] || continue
      style="linespoints"
      case "$d" in *published*) style="points pointsize 1.5" ;; esac
      # gnuplot writes a quote inside a single-quoted string twice ("MPG (authors'' L-BFGS)").
      plots+=("'$file' using 1:2 with $style lt $colour lw 2 title '${method//\'/\'\'}'")
    done < "$work/index"
    (IFS=,; echo "plot ${plots[*]}")
  done
  echo "unset multiplot"
} > "$work/plot.gp"
gnuplot "$work/plot.gp"
echo "wrote $png"
