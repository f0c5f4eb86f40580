# run from results/ (`gnuplot <this file>`); reads the CSV beside it and writes the PNG of the same stem.
stem = ARG0[1:strlen(ARG0)-3]
set datafile separator ','
set terminal pngcairo size 960,440 font ',10' noenhanced
set output stem.'.png'
set multiplot layout 1,2 title 'Parambath Fig. 2.4: micro-F vs FN cost (best C per cost; solid: validation, dashed: test)'
set logscale x
set xlabel 'false-negative cost (2 - t) / t'
set ylabel 'micro-F1 (%)'
set key bottom center
file = stem.'.csv'
sel(d, m, v, col) = (strcol(1) eq d && strcol(2) eq m && strcol(3) eq v) ? column(col) : NaN
set title 'Scene'
plot file using (sel('Scene', 'LR', 'CS', 5)):(sel('Scene', 'LR', 'CS', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'blue' title 'LR CS', \
     file using (sel('Scene', 'LR', 'CS', 5)):(sel('Scene', 'LR', 'CS', 8)) every ::1 with lines dt 2 lc rgb 'blue' notitle, \
     file using (sel('Scene', 'LR', 'CS&T', 5)):(sel('Scene', 'LR', 'CS&T', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'red' title 'LR CS&T', \
     file using (sel('Scene', 'LR', 'CS&T', 5)):(sel('Scene', 'LR', 'CS&T', 8)) every ::1 with lines dt 2 lc rgb 'red' notitle, \
     file using (sel('Scene', 'SVM', 'CS', 5)):(sel('Scene', 'SVM', 'CS', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'dark-green' title 'SVM CS', \
     file using (sel('Scene', 'SVM', 'CS', 5)):(sel('Scene', 'SVM', 'CS', 8)) every ::1 with lines dt 2 lc rgb 'dark-green' notitle, \
     file using (sel('Scene', 'SVM', 'CS&T', 5)):(sel('Scene', 'SVM', 'CS&T', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'dark-orange' title 'SVM CS&T', \
     file using (sel('Scene', 'SVM', 'CS&T', 5)):(sel('Scene', 'SVM', 'CS&T', 8)) every ::1 with lines dt 2 lc rgb 'dark-orange' notitle
set title 'Yeast'
plot file using (sel('Yeast', 'LR', 'CS', 5)):(sel('Yeast', 'LR', 'CS', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'blue' title 'LR CS', \
     file using (sel('Yeast', 'LR', 'CS', 5)):(sel('Yeast', 'LR', 'CS', 8)) every ::1 with lines dt 2 lc rgb 'blue' notitle, \
     file using (sel('Yeast', 'LR', 'CS&T', 5)):(sel('Yeast', 'LR', 'CS&T', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'red' title 'LR CS&T', \
     file using (sel('Yeast', 'LR', 'CS&T', 5)):(sel('Yeast', 'LR', 'CS&T', 8)) every ::1 with lines dt 2 lc rgb 'red' notitle, \
     file using (sel('Yeast', 'SVM', 'CS', 5)):(sel('Yeast', 'SVM', 'CS', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'dark-green' title 'SVM CS', \
     file using (sel('Yeast', 'SVM', 'CS', 5)):(sel('Yeast', 'SVM', 'CS', 8)) every ::1 with lines dt 2 lc rgb 'dark-green' notitle, \
     file using (sel('Yeast', 'SVM', 'CS&T', 5)):(sel('Yeast', 'SVM', 'CS&T', 7)) every ::1 with linespoints lw 2 pt 7 ps 0.6 lc rgb 'dark-orange' title 'SVM CS&T', \
     file using (sel('Yeast', 'SVM', 'CS&T', 5)):(sel('Yeast', 'SVM', 'CS&T', 8)) every ::1 with lines dt 2 lc rgb 'dark-orange' notitle
unset multiplot
