// The comparison family's own header (private to lib/harness/families/comparison*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "baselines/svm_compare.hpp"
#include "baselines/svm_rank.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/simulated_pairs.hpp"
#include "lib/data/sushi.hpp"
#include "lib/eval/comparison.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/stats/auc_bootstrap.hpp"
#include "lib/stats/rank_tests.hpp"

namespace mpg::harness::comparison_impl {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// ---- Methods -----------------------------------------------------------------------------------

// n log-spaced values from 10^a to 10^b (R's base^seq(a, b, length.out = n)).
json log_grid(double base, double from, double to, int count);

Parameter with_default(Parameter p, json value);

ParameterTable grid_table(std::vector<Parameter> own);

const std::vector<MethodKind>& comparison_methods();

// ---- Data --------------------------------------------------------------------------------------

struct Dataset {
  std::string label;
  std::optional<SquaredNorm> norm;  // simulated r(x) = ||x||_j^2; none: SUSHI
  PairData pool;
  json key;          // what the pool depends on
  std::string about;  // the Data section's line
};

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d, const json& simulation);

// ---- Cells -------------------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  int figure;  // 4 or 5
  std::size_t n;
  double rho;
  std::uint64_t seed;
  std::string method, kind;
  bool level_curves;  // Fig. 3: record r of the selected model on a grid
};

struct Figure3 {
  std::string dataset;
  std::size_t n = 100;
  std::uint64_t seed = 1;
  int resolution = 61;
  double low = -3.0, high = 3.0;
};

// The training set's most common label (0 on a tie), and the zero-one error (%) of predicting it
// everywhere: the sushi panel's "trivial model" (undefined in the paper).
int trivial_label(const PairData& train);
double trivial_error_percent(const PairData& train, const PairData& test);

class ComparisonRun : public FamilyRun {
 public:
  explicit ComparisonRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t, const json&) const override { return {}; }
  std::string validation_line(const json& v) const override {
    return fmt::format("C={:.3g} sigma={:.3g}  test error {:.1f} %  AUC {:.3f}  ({:.1f} s)", v["selected"]["C"].get<double>(),
                       v["selected"]["sigma"].get<double>(), v["test_error"].get<double>(), v["test_auc"].get<double>(),
                       v["seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override;

 private:
  json spec_;
  std::vector<std::uint64_t> seeds_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::optional<Figure3> figure3_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

// ---- Tables ------------------------------------------------------------------------------------

struct Summary {
  double mean = 0.0, sd = 0.0;
  std::size_t count = 0;
};

Summary summarize(const std::vector<double>& values);

// A gnuplot script for a figure CSV (columns dataset, series, x, mean, sd, seeds; each curve's rows
// consecutive and sorted by x): one panel per data set, every series with error bars (sd over the
// seeds). It finds its CSV and names its PNG from its own file name (ARG0), so the same script text
// serves the full and the --quick tables.
std::string gnuplot_curves(const std::string& figure, const std::vector<std::string>& datasets,
                           const std::vector<std::vector<std::string>>& series, const std::string& x_label,
                           const std::string& y_label, const std::string& title, bool log_x);

// Fig. 3: level curves of r for every method (index blocks of the CSV, in the order of `methods`)
// beside the training pairs' segments.
std::string gnuplot_level_curves(const std::vector<std::string>& methods, const std::string& title);

}  // namespace mpg::harness::comparison_impl
