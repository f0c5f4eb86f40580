# run from results/ (`gnuplot <this file>`); reads the CSVs beside it and writes the PNG of the same stem.
stem = ARG0[1:strlen(ARG0)-3]
set datafile separator ','
set terminal pngcairo size 1200,560 font ',10' noenhanced
set output stem.'.png'
set multiplot layout 1,2 title 'Parambath Fig. 2.3: Galaxy decision boundaries (substitute geometry; the models Table 2.3 selects on one split)'
set xrange [-4:4]
set yrange [-4:4]
set size ratio -1
set xlabel 'x1'
set ylabel 'x2'
set key bottom right box opaque
lines = stem.'.csv'
points = stem.'_points.csv'
seg(p, c, col) = (strcol(2) eq p && strcol(3) eq c) ? column(col) : NaN
set title 'before thresholding'
plot points using 2:($4 == 0 ? $3 : NaN) every ::1 with points pt 7 ps 0.15 lc rgb '#b8b8b8' title 'negative', \
     points using 2:($4 == 1 ? $3 : NaN) every ::1 with points pt 7 ps 0.3 lc rgb '#404040' title 'positive', \
     lines using (seg('before', 'SVMperf', 9)):(seg('before', 'SVMperf', 10)):(seg('before', 'SVMperf', 11) - seg('before', 'SVMperf', 9)):(seg('before', 'SVMperf', 12) - seg('before', 'SVMperf', 10)) every ::1 with vectors nohead dt 3 lw 2 lc rgb 'blue' title 'SVMperf', \
     lines using (seg('before', 'weighted SVM', 9)):(seg('before', 'weighted SVM', 10)):(seg('before', 'weighted SVM', 11) - seg('before', 'weighted SVM', 9)):(seg('before', 'weighted SVM', 12) - seg('before', 'weighted SVM', 10)) every ::1 with vectors nohead dt 4 lw 2 lc rgb 'dark-cyan' title 'weighted SVM', \
     lines using (seg('before', 'LR', 9)):(seg('before', 'LR', 10)):(seg('before', 'LR', 11) - seg('before', 'LR', 9)):(seg('before', 'LR', 12) - seg('before', 'LR', 10)) every ::1 with vectors nohead dt 1 lw 2 lc rgb 'red' title 'LR', \
     lines using (seg('before', 'weighted LR', 9)):(seg('before', 'weighted LR', 10)):(seg('before', 'weighted LR', 11) - seg('before', 'weighted LR', 9)):(seg('before', 'weighted LR', 12) - seg('before', 'weighted LR', 10)) every ::1 with vectors nohead dt 2 lw 2 lc rgb 'dark-green' title 'weighted LR', \
     lines using (seg('before', 'optimal', 9)):(seg('before', 'optimal', 10)):(seg('before', 'optimal', 11) - seg('before', 'optimal', 9)):(seg('before', 'optimal', 12) - seg('before', 'optimal', 10)) every ::1 with vectors nohead dt 3 lw 2 lc rgb 'black' title 'optimal'
set title 'after thresholding'
plot points using 2:($4 == 0 ? $3 : NaN) every ::1 with points pt 7 ps 0.15 lc rgb '#b8b8b8' title 'negative', \
     points using 2:($4 == 1 ? $3 : NaN) every ::1 with points pt 7 ps 0.3 lc rgb '#404040' title 'positive', \
     lines using (seg('after', 'SVMperf', 9)):(seg('after', 'SVMperf', 10)):(seg('after', 'SVMperf', 11) - seg('after', 'SVMperf', 9)):(seg('after', 'SVMperf', 12) - seg('after', 'SVMperf', 10)) every ::1 with vectors nohead dt 3 lw 2 lc rgb 'blue' title 'SVMperf', \
     lines using (seg('after', 'weighted SVM', 9)):(seg('after', 'weighted SVM', 10)):(seg('after', 'weighted SVM', 11) - seg('after', 'weighted SVM', 9)):(seg('after', 'weighted SVM', 12) - seg('after', 'weighted SVM', 10)) every ::1 with vectors nohead dt 4 lw 2 lc rgb 'dark-cyan' title 'weighted SVM', \
     lines using (seg('after', 'LR', 9)):(seg('after', 'LR', 10)):(seg('after', 'LR', 11) - seg('after', 'LR', 9)):(seg('after', 'LR', 12) - seg('after', 'LR', 10)) every ::1 with vectors nohead dt 1 lw 2 lc rgb 'red' title 'LR', \
     lines using (seg('after', 'weighted LR', 9)):(seg('after', 'weighted LR', 10)):(seg('after', 'weighted LR', 11) - seg('after', 'weighted LR', 9)):(seg('after', 'weighted LR', 12) - seg('after', 'weighted LR', 10)) every ::1 with vectors nohead dt 2 lw 2 lc rgb 'dark-green' title 'weighted LR', \
     lines using (seg('after', 'optimal', 9)):(seg('after', 'optimal', 10)):(seg('after', 'optimal', 11) - seg('after', 'optimal', 9)):(seg('after', 'optimal', 12) - seg('after', 'optimal', 10)) every ::1 with vectors nohead dt 3 lw 2 lc rgb 'black' title 'optimal'
unset multiplot
