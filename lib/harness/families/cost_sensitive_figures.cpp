// The cost_sensitive family's figures (spec key `figures`; lib/harness/families/cost_sensitive.cpp has the cells):
//   Figure 2.3  decision boundaries on Galaxy of the models Table 2.3 selects for one split, before
//               thresholding (score = 0) and after (score = the validation threshold), for SVMperf
//               ("-" / "T"), the weighted SVM ("CS" / "CS&T"), LR ("-" / "T") and weighted LR
//               ("CS" / "CS&T"), with the test points and an optimal boundary;
//   Figure 2.4  micro-F against the false-negative cost (2 - t) / t: per cost t, the C of best
//               validation micro-F (pooled counts, Alg. 3), its validation and test micro-F, with
//               and without the global threshold, for the cost-sensitive linear methods.
// Each is a CSV and a gnuplot script beside the tables (run from results/; ./run_all.sh plots it).
#include <array>

#include "lib/harness/families/cost_sensitive.hpp"

namespace mpg::harness::cost_sensitive_impl {

std::optional<FigureSpec> figure_spec(const json& spec, const std::string& figure) {
  if (!spec.contains("figures") || !spec["figures"].contains(figure)) return std::nullopt;
  const json& f = spec["figures"][figure];
  return FigureSpec{f.at("datasets").get<std::vector<std::string>>(), f.at("split").get<int>()};
}

namespace {

constexpr double kWindow = 4.0;  // Figure 2.3 plots [-4, 4]^2

// The segment of the line a1 x + a2 y = c inside the square [-kWindow, kWindow]^2, if any.
std::optional<std::array<double, 4>> segment_in_window(double a1, double a2, double c) {
  std::vector<std::pair<double, double>> hits;
  for (double edge : {-kWindow, kWindow}) {
    if (a2 != 0.0) {
      const double y = (c - a1 * edge) / a2;
      if (std::abs(y) <= kWindow) hits.emplace_back(edge, y);
    }
    if (a1 != 0.0) {
      const double x = (c - a2 * edge) / a1;
      if (std::abs(x) <= kWindow) hits.emplace_back(x, edge);
    }
  }
  if (hits.size() < 2) return std::nullopt;
  std::sort(hits.begin(), hits.end());
  return std::array<double, 4>{hits.front().first, hits.front().second, hits.back().first, hits.back().second};
}

// The four classifiers of Figure 2.3 a method kind contributes: {curve, variant before, variant after}.
std::vector<std::array<std::string, 3>> boundary_curves(const std::string& kind) {
  if (kind == "svm_perf") return {{"SVMperf", "-", "T"}};
  if (kind == "svm") return {{"weighted SVM", "CS", "CS&T"}};
  if (kind == "lr") return {{"LR", "-", "T"}, {"weighted LR", "CS", "CS&T"}};
  return {};
}

}  // namespace

void CostSensitiveRun::figure_2_3(const Outcome& outcome, Tables& out, std::string& md) const {
  const std::optional<FigureSpec> figure = figure_spec(spec_, "2.3");
  if (!figure) return;
  std::string lines = "dataset,panel,curve,variant,t,C,threshold,test_f,x1_from,x2_from,x1_to,x2_to\n";
  std::string points = "dataset,x1,x2,y\n";
  md += "## Figure 2.3: decision boundaries on Galaxy, before and after thresholding\n\n";
  for (const std::string& label : figure->datasets) {
    const auto data = std::find_if(datasets_.begin(), datasets_.end(), [&](const auto& d) { return d->label == label; });
    const SplitParts parts = make_split(**data, figure->split, bias_, scaling_);
    const SparseRowMatrix& test = parts.features.test;
    const std::vector<int>& y = parts.test_labels.front();
    for (long i = 0; i < test.rows(); ++i)
      points += fmt::format("{},{:.4f},{:.4f},{}\n", label, test.coeff(i, 0), test.coeff(i, 1), y[static_cast<std::size_t>(i)]);
    // An optimal boundary: the horizontal line between the positive clusters z1, z3 (above) and
    // z2, z4 (below) of the generator's geometry; its test F1 on this sample.
    const GalaxyOptions geometry;
    const double optimal = 0.5 * (std::min(geometry.clusters[0].center_y, geometry.clusters[2].center_y) +
                                  std::max(geometry.clusters[1].center_y, geometry.clusters[3].center_y));
    Confusion counts;
    for (long i = 0; i < test.rows(); ++i) {
      const bool predicted = test.coeff(i, 1) > optimal, positive = y[static_cast<std::size_t>(i)] == 1;
      counts.tp += predicted && positive;
      counts.fp += predicted && !positive;
      counts.fn += !predicted && positive;
      counts.tn += !predicted && !positive;
    }
    for (const char* panel : {"before", "after"})
      lines += fmt::format("{},{},optimal,,,,,{:.4f},{},{},{},{}\n", label, panel, 100 * f_beta(counts), -kWindow, optimal,
                           kWindow, optimal);
    md += fmt::format("Split {} of {} ({} test points). Black dotted: x2 = {:g}, the boundary between the positive "
                      "clusters z1, z3 and z2, z4 (test F1 {:.1f} %). The others are the models Table 2.3 selects "
                      "on this split; their lines are score = 0 (before) and score = validation threshold (after):\n\n"
                      "| classifier | before: variant, t, C, test F1 | after: variant, t, C, θ, test F1 |\n|---|---|---|\n",
                      figure->split, label, test.rows(), optimal, 100 * f_beta(counts));
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const Cell& cell = cells_[i];
      if (cell.dataset->label != label || cell.split != figure->split || !cell.keep_weights) continue;
      const json& v = outcome.validation[i];
      const GridEvaluation grid = grid_from_json(v["grid"]);
      for (const auto& [curve, before, after] : boundary_curves(cell.kind)) {
        std::string row = fmt::format("| {} ({}) |", curve, cell.method);
        for (const auto& [panel, variant] : {std::pair{"before", before}, std::pair{"after", after}}) {
          SelectionOptions o;
          o.variant = parse_f_variant(variant);
          o.rule = rule_;
          o.empty_f = empty_f_;
          const Choice c = select_binary(grid.models, o);
          const auto weights = std::find_if(v["weights"].begin(), v["weights"].end(), [&](const json& w) {
            return w[0].get<double>() == c.t && w[1].get<double>() == c.C;
          });
          if (weights == v["weights"].end() || weights->size() != 5)
            throw Error(fmt::format("Figure 2.3: no weights cached for {} t={} C={}", cell.method, c.t, c.C));
          // score = w1 x1 + w2 x2 + s w3 (s: the constant feature); the boundary is score = level.
          const double level = c.thresholded ? c.threshold : 0.0;
          const double w1 = (*weights)[2].get<double>(), w2 = (*weights)[3].get<double>(), w3 = (*weights)[4].get<double>();
          const auto s = segment_in_window(w1, w2, level - bias_ * w3);
          lines += fmt::format("{},{},{},{},{:g},{:g},{:.6g},{:.4f},", label, panel, curve, variant, c.t, c.C, level,
                               100 * c.test_f);
          lines += s ? fmt::format("{:.4f},{:.4f},{:.4f},{:.4f}\n", (*s)[0], (*s)[1], (*s)[2], (*s)[3]) : ",,,\n";
          row += fmt::format(" {}, t = {:g}, C = {:g}{}, {:.1f}{} |", variant, c.t, c.C,
                             c.thresholded ? fmt::format(", θ = {:.3g}", c.threshold) : "", 100 * c.test_f,
                             s ? "" : " (outside the window)");
        }
        md += row + "\n";
      }
    }
    md += "\n";
  }
  md += "The thesis' Galaxy geometry is not given: the clusters here are the substitute of lib/data/galaxy.hpp, so "
        "the lines show how these models place their boundaries on that geometry, not the thesis' picture. Files: "
        "`figure2_3.csv` (segments), `figure2_3_points.csv`, `figure2_3.gp`.\n\n";
  out.extra_files.push_back({".figure2_3.csv", lines});
  out.extra_files.push_back({".figure2_3_points.csv", points});
  std::string gp =
      "# run from results/ (`gnuplot <this file>`); reads the CSVs beside it and writes the PNG of the same stem.\n"
      "stem = ARG0[1:strlen(ARG0)-3]\n"
      "set datafile separator ','\nset terminal pngcairo size 1200,560 font ',10' noenhanced\n"
      "set output stem.'.png'\nset multiplot layout 1,2 title 'Parambath Fig. 2.3: Galaxy decision boundaries "
      "(substitute geometry; the models Table 2.3 selects on one split)'\n"
      "set xrange [-4:4]\nset yrange [-4:4]\nset size ratio -1\nset xlabel 'x1'\nset ylabel 'x2'\n"
      "set key bottom right box opaque\n"
      "lines = stem.'.csv'\npoints = stem.'_points.csv'\n"
      "seg(p, c, col) = (strcol(2) eq p && strcol(3) eq c) ? column(col) : NaN\n";
  for (const char* panel : {"before", "after"}) {
    gp += fmt::format("set title '{} thresholding'\n", panel);
    gp += "plot points using 2:($4 == 0 ? $3 : NaN) every ::1 with points pt 7 ps 0.15 lc rgb '#b8b8b8' title 'negative', \\\n"
          "     points using 2:($4 == 1 ? $3 : NaN) every ::1 with points pt 7 ps 0.3 lc rgb '#404040' title 'positive'";
    for (const auto& [curve, style] :
         std::vector<std::pair<std::string, std::string>>{{"SVMperf", "dt 3 lw 2 lc rgb 'blue'"},
                                                          {"weighted SVM", "dt 4 lw 2 lc rgb 'dark-cyan'"},
                                                          {"LR", "dt 1 lw 2 lc rgb 'red'"},
                                                          {"weighted LR", "dt 2 lw 2 lc rgb 'dark-green'"},
                                                          {"optimal", "dt 3 lw 2 lc rgb 'black'"}})
      gp += fmt::format(", \\\n     lines using (seg('{0}', '{1}', 9)):(seg('{0}', '{1}', 10)):(seg('{0}', '{1}', 11) - "
                        "seg('{0}', '{1}', 9)):(seg('{0}', '{1}', 12) - seg('{0}', '{1}', 10)) every ::1 with vectors "
                        "nohead {2} title '{1}'",
                        panel, curve, style);
    gp += "\n";
  }
  gp += "unset multiplot\n";
  out.extra_files.push_back({".figure2_3.gp", gp});
}

void CostSensitiveRun::figure_2_4(const Outcome& outcome, Tables& out, std::string& md, Claims& claims) const {
  const std::optional<FigureSpec> figure = figure_spec(spec_, "2.4");
  if (!figure) return;
  std::string csv = "dataset,method,variant,t,fn_cost,C,validation_f,test_f\n";
  std::vector<std::string> panels;
  md += "## Figure 2.4: micro-F against the false-negative cost\n\n"
        "Per cost t (FN cost (2 − t)/t), the C of best validation micro-F (pooled counts of all labels, Alg. 3; ties "
        "to the smaller C), and its validation and test micro-F; CS: score > 0, CS&T: one global threshold chosen "
        "on validation. Split " + std::to_string(figure->split) + ". §2.5.4 rests its bracketing search on F being "
        "unimodal in the cost: checked on the validation curves (a dip: F falls, then rises again).\n\n";
  for (const std::string& label : figure->datasets) {
    bool any = false;
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const Cell& cell = cells_[i];
      if (cell.dataset->label != label || cell.split != figure->split || !cell.full_micro) continue;
      any = true;
      const GridEvaluation grid = grid_from_json(outcome.validation[i]["figure_grid"]);
      for (const bool thresholded : {false, true}) {
        const std::string variant = thresholded ? "CS&T" : "CS";
        std::map<double, const PooledEvaluation*> best;  // by t
        auto f = [&](const PooledEvaluation& p, bool test) {
          return f_beta(thresholded ? (test ? p.test_thresholded : p.validation_thresholded) : (test ? p.test : p.validation),
                        1.0, empty_f_);
        };
        for (const PooledEvaluation& p : grid.pooled) {
          const auto found = best.find(p.t);
          if (found == best.end() || f(p, false) > f(*found->second, false) ||
              (f(p, false) == f(*found->second, false) && p.C < found->second->C))
            best[p.t] = &p;
        }
        // Validation F in order of increasing FN cost (decreasing t).
        std::vector<double> curve;
        for (auto it = best.rbegin(); it != best.rend(); ++it) {
          const PooledEvaluation& p = *it->second;
          csv += fmt::format("{},{},{},{:g},{:.6g},{:g},{:.4f},{:.4f}\n", label, cell.method, variant, p.t, fn_weight(p.t),
                             p.C, 100 * f(p, false), 100 * f(p, true));
          curve.push_back(100 * f(p, false));
        }
        // A dip: some point lower than the best before it and the best after it; its depth is the
        // smaller of those two excesses. Unimodal (non-decreasing, then non-increasing) iff none.
        double deepest = 0.0;
        int dips = 0;
        for (std::size_t k = 1; k + 1 < curve.size(); ++k) {
          const double before = *std::max_element(curve.begin(), curve.begin() + static_cast<long>(k));
          const double after = *std::max_element(curve.begin() + static_cast<long>(k) + 1, curve.end());
          const double depth = std::min(before, after) - curve[k];
          if (depth > 0.0) {
            ++dips;
            deepest = std::max(deepest, depth);
          }
        }
        const auto peak = std::max_element(curve.begin(), curve.end());
        const double peak_cost = fn_weight(std::next(best.rbegin(), peak - curve.begin())->first);
        md += fmt::format("- {} {} {}: validation micro-F peaks at FN cost {:.3g} ({:.1f} %); {}.\n", label, cell.method,
                          variant, peak_cost, *peak,
                          dips == 0 ? "unimodal" : fmt::format("**not unimodal**: {} point(s) in a dip, the deepest {:.2f} points", dips, deepest));
        claims.add("micro_f_unimodal_in_cost", dips == 0, "",
                   {{"figure", "2.4"}, {"dataset", label}, {"method", cell.method}, {"variant", variant},
                    {"dip_points", dips}, {"deepest_dip", deepest}, {"costs", curve.size()}});
      }
    }
    if (any) panels.push_back(label);
  }
  md += "\nWhich data set, learner and C the thesis plotted is not stated; this is every one of them above, on one "
        "split. Files: `figure2_4.csv`, `figure2_4.gp`.\n\n";
  out.extra_files.push_back({".figure2_4.csv", csv});
  std::string gp = fmt::format(
      "# run from results/ (`gnuplot <this file>`); reads the CSV beside it and writes the PNG of the same stem.\n"
      "stem = ARG0[1:strlen(ARG0)-3]\n"
      "set datafile separator ','\nset terminal pngcairo size {},440 font ',10' noenhanced\nset output stem.'.png'\n"
      "set multiplot layout 1,{} title 'Parambath Fig. 2.4: micro-F vs FN cost (best C per cost; solid: "
      "validation, dashed: test)'\nset logscale x\nset xlabel 'false-negative cost (2 - t) / t'\n"
      "set ylabel 'micro-F1 (%)'\nset key bottom center\nfile = stem.'.csv'\n"
      "sel(d, m, v, col) = (strcol(1) eq d && strcol(2) eq m && strcol(3) eq v) ? column(col) : NaN\n",
      std::max<std::size_t>(2, panels.size()) * 480, std::max<std::size_t>(1, panels.size()));
  std::vector<std::string> methods;
  for (const Cell& c : cells_)
    if (c.full_micro && std::find(methods.begin(), methods.end(), c.method) == methods.end()) methods.push_back(c.method);
  const std::vector<std::string> colours = {"blue", "red", "dark-green", "dark-orange"};
  for (const std::string& panel : panels) {
    gp += fmt::format("set title '{}'\nplot ", panel);
    std::string sep;
    for (std::size_t m = 0; m < methods.size(); ++m)
      for (const char* variant : {"CS", "CS&T"}) {
        const std::string colour = colours[(2 * m + (std::string(variant) == "CS" ? 0 : 1)) % colours.size()];
        gp += fmt::format("{}file using (sel('{}', '{}', '{}', 5)):(sel('{}', '{}', '{}', 7)) every ::1 with linespoints "
                          "lw 2 pt 7 ps 0.6 lc rgb '{}' title '{} {}', \\\n     file using (sel('{}', '{}', '{}', 5)):(sel('{}', "
                          "'{}', '{}', 8)) every ::1 with lines dt 2 lc rgb '{}' notitle",
                          sep, panel, methods[m], variant, panel, methods[m], variant, colour, methods[m], variant, panel,
                          methods[m], variant, panel, methods[m], variant, colour);
        sep = ", \\\n     ";
      }
    gp += "\n";
  }
  gp += "unset multiplot\n";
  out.extra_files.push_back({".figure2_4.gp", gp});
}

}  // namespace mpg::harness::cost_sensitive_impl
