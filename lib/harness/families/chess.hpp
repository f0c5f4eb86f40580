// The chess family's own header (private to lib/harness/families/chess*.cpp): its protocols, cells
// and run class (lib/harness/families/chess.cpp has the methods, cells and spec keys;
// chess_tables.cpp the tables, Figure 6 and the claims).
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>

#include "baselines/svm_compare.hpp"
#include "lib/base/error.hpp"
#include "lib/data/chess_games.hpp"
#include "lib/eval/comparison.hpp"
#include "lib/features/chess_features.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/stats/auc_bootstrap.hpp"


namespace mpg::harness::chess_impl {

using nlohmann::json;

inline const char* const kBaselines[] = {"ELO", "Glicko", "Baseline"};
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A protocol: the spec's own ("paper") or a variant's.
struct Protocol {
  std::string label;  // "paper" for the spec's own, else the variant's label
  std::vector<int> years;
  ChessYearOptions options;
  int cv_months = 3;
  json key;  // what its data sets depend on besides the year
  std::string description;
};

struct Cell {
  std::size_t protocol;
  std::size_t year;  // index into the protocol's years
  std::string method;
};

class ChessRun : public FamilyRun {
 public:
  explicit ChessRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t, const json&) const override { return {}; }
  std::string validation_line(const json& v) const override {
    return fmt::format("{}  test AUC {}  ({:.1f} s)", v["selected"].dump(),
                       v["test_auc"].is_null() ? std::string("-") : fmt::format("{:.4f}", v["test_auc"].get<double>()),
                       v["seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override;

 private:
  json spec_;
  RegistryChoice choice_;
  VerifiedFile file_;
  std::vector<Protocol> protocols_;
  std::vector<std::vector<ChessYear>> years_;  // per protocol, its years
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

// Both kinds of pair (y = 0 and y != 0): what SVMcompare's two classes and the ROC need.
inline bool both_kinds(const PairData& pairs) { return pairs.count(0) > 0 && pairs.count(0) < pairs.size(); }

}  // namespace mpg::harness::chess_impl
