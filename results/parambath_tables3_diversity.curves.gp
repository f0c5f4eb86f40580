# Relevance-diversity curves (Parambath thesis Figures 3.2 and 3.4 on MovieLens 1M), written by mpg run:
# run from results/ (`gnuplot <this file>`); reads the CSV beside it and writes the PNG of the same stem.
stem = ARG0[1:strlen(ARG0) - 3]
set datafile separator ','
set terminal pngcairo size 1500,900 font 'Sans,9' noenhanced
set output stem . '.png'
set multiplot layout 2,3 title 'Relevance-diversity against k (MovieLens 1M, cosine W; mean of the repetitions)'
set grid; set key outside right font ',8'; set xlabel 'k'; set logscale x 2
set title 'DCG x 100 (all users)'; set ylabel 'DCG x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($5) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($5) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($5) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($5) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($5) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($5) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MOD' ? $4 : 1/0):($5) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($5) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($5) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($5) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($5) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($5) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($5) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($5) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
set title 'Genre Coverage x 100 (all users)'; set ylabel 'Genre Coverage x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($6) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($6) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($6) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($6) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($6) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($6) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MOD' ? $4 : 1/0):($6) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($6) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($6) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($6) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($6) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($6) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($6) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($6) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
set title 'ILD x 100 (all users)'; set ylabel 'ILD x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($7) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($7) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($7) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($7) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($7) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($7) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MOD' ? $4 : 1/0):($7) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($7) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($7) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($7) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($7) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($7) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($7) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'all' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($7) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
set title 'DCG x 100 (eclectic users)'; set ylabel 'DCG x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($5) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($5) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($5) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($5) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($5) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($5) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MOD' ? $4 : 1/0):($5) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($5) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($5) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($5) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($5) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($5) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($5) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($5) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
set title 'Genre Coverage x 100 (eclectic users)'; set ylabel 'Genre Coverage x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($6) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($6) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($6) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($6) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($6) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($6) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MOD' ? $4 : 1/0):($6) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($6) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($6) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($6) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($6) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($6) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($6) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($6) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
set title 'ILD x 100 (eclectic users)'; set ylabel 'ILD x 100'
csv = stem . '.csv'
plot csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.1' ? $4 : 1/0):($7) with linespoints lt 1 dt 2 lw 1 pt 1 title 'MMR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.5' ? $4 : 1/0):($7) with linespoints lt 2 dt 2 lw 1 pt 2 title 'MMR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MMR_0.8' ? $4 : 1/0):($7) with linespoints lt 3 dt 2 lw 1 pt 3 title 'MMR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.1' ? $4 : 1/0):($7) with linespoints lt 4 dt 2 lw 1 pt 4 title 'MSD_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.5' ? $4 : 1/0):($7) with linespoints lt 5 dt 2 lw 1 pt 5 title 'MSD_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_0.8' ? $4 : 1/0):($7) with linespoints lt 6 dt 2 lw 1 pt 6 title 'MSD_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MOD' ? $4 : 1/0):($7) with linespoints lt 7 dt 1 lw 2 pt 7 title 'MOD', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.8' ? $4 : 1/0):($7) with linespoints lt 8 dt 1 lw 2 pt 8 title 'SDR_0.8', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.5' ? $4 : 1/0):($7) with linespoints lt 9 dt 1 lw 2 pt 9 title 'SDR_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0.1' ? $4 : 1/0):($7) with linespoints lt 10 dt 1 lw 2 pt 10 title 'SDR_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'SDR_0' ? $4 : 1/0):($7) with linespoints lt 11 dt 1 lw 2 pt 11 title 'SDR_0', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.1' ? $4 : 1/0):($7) with linespoints lt 12 dt 2 lw 1 pt 12 title 'MSD_printed_0.1', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.5' ? $4 : 1/0):($7) with linespoints lt 13 dt 2 lw 1 pt 13 title 'MSD_printed_0.5', \
     csv using (strcol(2) eq 'eclectic' && strcol(3) eq 'MSD_printed_0.8' ? $4 : 1/0):($7) with linespoints lt 14 dt 2 lw 1 pt 14 title 'MSD_printed_0.8'
unset multiplot
